# The two Quick start commands: `make run` and `make test`. Both create .venv when missing.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed
INPUT ?=
JOBS ?= 2
BENCH_FLAGS ?=

.PHONY: run test lit pytest venv regenerate bench clean

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $(STAMP)

venv: $(STAMP)

run: $(STAMP)
	$(PY) -m torch_refine.tools.run $(if $(INPUT),$(INPUT),)

lit: $(STAMP)
	$(VENV)/bin/lit -sv -j $(JOBS) test/lit

pytest: $(STAMP)
	$(PY) -m pytest -q -n $(JOBS) test/python

# lit first, pytest last: the final lines of `make test` are pytest's summary.
test: $(STAMP)
	$(VENV)/bin/lit -s -j $(JOBS) test/lit
	$(PY) -m pytest -q -n $(JOBS) test/python

regenerate: $(STAMP)
	build_tools/update_abstract_interp_lib.sh

bench: $(STAMP)
	$(PY) bench/run.py $(BENCH_FLAGS)

clean:
	rm -rf $(VENV) build *.egg-info python/*.egg-info
