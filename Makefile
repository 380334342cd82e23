# Quick start: `make run` and `make test`. Every target creates .venv when missing.
#   make quick   the engine's tier: the lit pass suites (test/lit/passes, but the meta
#                fallback's, which runs PyTorch's kernels) and the engine unit tests
#                (test/python/engine); under a minute on 2 cores
#   make check   everyday tier: lit + pytest without the library/OpInfo sweeps, the fuzzer,
#                the library staleness check and the model end-to-end tier (minutes)
#   make test    lit + every pytest test but the model tier (under 20 minutes on 2 cores)
#   make models  the model end-to-end tier (pytest -m slow: corpus models through the
#                pipelines, backend lowerings, JIT against eager, export_and_import); CI
#                runs it after make test
#   make lint    ruff over the package, tests, tools and benchmark
#   make fuzz    the differential fuzzers against PyTorch: 3,000 single-op cases and 3,000
#                programs with control flow (FUZZ_FLAGS)
#   make corpus  the three-level model corpus (docs/corpus.md); CI runs it after make test
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
INPUT ?=
JOBS ?= 2
BENCH_FLAGS ?=
CORPUS_FLAGS ?=
ONNX_CORPUS_FLAGS ?=
FUZZ_FLAGS ?= --seed 0 --cases 3000
# The library sweeps: one test per (function, case) and per OpInfo sample (~45,000 items).
SWEEPS := test/python/library/test_library.py test/python/library/test_opinfo.py \
	test/python/library/test_ir_agreement.py
# Besides the sweeps, make check skips the fuzzer's few hundred cases and the staleness
# check of the embedded library (it regenerates the library): make test runs both.
CHECK_SKIPS := $(SWEEPS) test/python/robustness/test_fuzz.py test/python/robustness/test_cf_fuzz.py \
	test/python/test_generated_library.py

.PHONY: run test models check lint fuzz fallback-sweep corpus lit pytest venv regenerate bench clean wheel-check

# The first set-up takes minutes (torch, torch-mlir, transformers, onnxruntime): it says what
# it does, and pip lists what it collects and installs.
$(STAMP): pyproject.toml
	@echo "set-up: the virtual environment $(VENV), created when missing"
	test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	@echo "set-up: installing torch-refine (editable) with torch, torch-mlir and the test tools; a few minutes the first time"
	$(PY) -m pip install --progress-bar off -e '.[test]'
	@echo "set-up: byte-compiling the package"
	# Byte-compile as a wheel install does: an editable install has no .pyc, and where
	# PYTHONDONTWRITEBYTECODE is set every torch-refine-opt process compiles its sources.
	$(PY) -m compileall -q python/torch_refine
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(PY) -m torch_refine.tools.run $(if $(INPUT),$(INPUT),)

lit: $(STAMP)
	$(VENV)/bin/lit -sv -j $(JOBS) test/lit

# The engine's tier (issue 41): lit's pass suites and the engine unit tests. The meta
# fallback's lit cases (half the suites' time) run PyTorch's meta kernels, not the engine.
.PHONY: quick
quick: $(STAMP)
	$(VENV)/bin/lit -s -j $(JOBS) --filter-out 'meta-fallback' test/lit/passes
	$(PY) -m pytest -q -p no:cacheprovider test/python/engine

pytest: $(STAMP)
	$(PY) -m pytest -q -n $(JOBS) test/python

# lit first, pytest last: the final lines of `make test` are pytest's summary. The model
# tier is `make models` (CI runs both), which keeps `make test` within 20 minutes.
test: $(STAMP)
	$(VENV)/bin/lit -s -j $(JOBS) test/lit
	$(PY) -m pytest -q -n $(JOBS) -m "not slow" test/python

models: $(STAMP)
	$(PY) -m pytest -q -n $(JOBS) -m slow test/python

check: $(STAMP)
	$(VENV)/bin/lit -s -j $(JOBS) test/lit
	$(PY) -m pytest -q -n $(JOBS) -m "not slow" $(addprefix --ignore=,$(CHECK_SKIPS)) test/python

lint: $(STAMP)
	$(VENV)/bin/ruff check python test build_tools bench examples

# The differential fuzzers at thousands of cases (make test runs a few hundred of each).
fuzz: $(STAMP)
	$(PY) build_tools/fuzz.py $(FUZZ_FLAGS) --jobs $(JOBS)
	$(PY) build_tools/fuzz.py --control-flow $(FUZZ_FLAGS) --jobs $(JOBS)

# The meta fallback against PyTorch on every OpInfo (make test runs a fixed slice).
fallback-sweep: $(STAMP)
	TORCH_REFINE_FALLBACK_SWEEP=full $(PY) -m pytest -q -n $(JOBS) test/python/library/test_meta_fallback.py

# The three-level model corpus (raw torch.export, Core ATen, torch-mlir's decompositions),
# every model at three dynamisms, each dynamic one imported with and without symbolic shape
# expressions (docs/corpus.md): measured into out/corpus/outcomes.json, then checked (no
# contradiction, no refinement failure, no assert firing or type breaking when the refined
# program runs at other sizes, at least 99.5% exact per cell).
corpus: $(STAMP)
	PYTHONPATH=python $(PY) build_tools/corpus.py --jobs $(JOBS) $(CORPUS_FLAGS) --json out/corpus/outcomes.json
	PYTHONPATH=python $(PY) -m pytest -q -m corpus test/python/models/test_corpus3.py

# CI's fixed slices of the two corpora (docs/testing.md says why these): every cell of
# each table is measured and checked as in the full runs, on fewer models, which keeps
# .ci/run within its budget. The full corpora are make corpus and make onnx-corpus.
CI_CORPUS_MODELS := bert,llama,gpt2,vit,resnet,t5_encoder,convnext,lstm,segformer,mixtral
CI_ONNX_MODELS := mlp,reshape_heads,resnet,lstm,encoder,causal_attention,avg_pool2d
.PHONY: ci-corpus ci-onnx-corpus
ci-corpus:
	$(MAKE) corpus CORPUS_FLAGS="--only $(CI_CORPUS_MODELS)"

ci-onnx-corpus:
	$(MAKE) onnx-corpus ONNX_CORPUS_FLAGS="--only $(CI_ONNX_MODELS)"

regenerate: $(STAMP)
	build_tools/update_abstract_interp_lib.sh

bench: $(STAMP)
	$(PY) bench/run.py $(BENCH_FLAGS)

# What a user who installs the wheel gets: the wheel built from this tree, installed in a
# clean venv (torch and torch-mlir from the package index), passes the downstream example
# suites (examples/custom_op/test, and examples/pass_plugin installed beside it).
WHEEL_DIR := build/wheel-check
wheel-check: $(STAMP)
	rm -rf $(WHEEL_DIR) && mkdir -p $(WHEEL_DIR)
	@echo "wheel-check: building the wheel"
	$(PY) -m pip wheel --quiet --no-deps --no-build-isolation -w $(WHEEL_DIR) .
	@echo "wheel-check: installing it in a clean venv (torch, torch-mlir, lit, filecheck)"
	$(PYTHON) -m venv $(WHEEL_DIR)/venv || python3 -m venv $(WHEEL_DIR)/venv
	$(WHEEL_DIR)/venv/bin/pip install --quiet $(WHEEL_DIR)/torch_refine-*.whl lit filecheck setuptools
	cp -r examples/pass_plugin $(WHEEL_DIR)/pass_plugin
	$(WHEEL_DIR)/venv/bin/pip install --quiet --no-deps --no-build-isolation $(WHEEL_DIR)/pass_plugin
	cd $(WHEEL_DIR) && venv/bin/lit -sv $(CURDIR)/examples/custom_op/test $(CURDIR)/examples/pass_plugin/test

clean:
	rm -rf $(VENV) build *.egg-info python/*.egg-info

# The ONNX corpus (docs/corpus.md, "ONNX corpus"): hand-written models exported by both
# ONNX exporters, static and dynamic, imported and converted by torch-mlir, refined as
# converted and with types erased, against PyTorch runs at several sizes and torch-mlir's
# refinement: measured into out/onnx-corpus/outcomes.json, then checked.
.PHONY: onnx-corpus
onnx-corpus: $(STAMP)
	PYTHONPATH=python $(PY) build_tools/onnx_corpus.py --jobs $(JOBS) $(ONNX_CORPUS_FLAGS) --json out/onnx-corpus/outcomes.json
	PYTHONPATH=python $(PY) -m pytest -q -m corpus test/python/onnx/test_onnx_corpus.py

# IREE as a backend (docs/backends.md, "IREE"): the `iree` extra installed, then every
# corpus model's outputs (torch-mlir's and torch-refine's API raw, API torch and driver),
# static and dynamic, compiled by iree-compile for the CPU and run with IREE's runtime
# against eager PyTorch: measured into out/iree/outcomes.json (the table printed is the
# one in docs/backends.md), then checked.
.PHONY: iree
iree: $(STAMP)
	$(PY) -m pip install --progress-bar off --quiet -e '.[iree]'
	PYTHONPATH=python $(PY) build_tools/iree_table.py --jobs $(JOBS) --json out/iree/outcomes.json
	$(PY) -m pytest -q -m "corpus or slow" test/python/backends/test_iree.py
