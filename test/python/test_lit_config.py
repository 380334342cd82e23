"""The lit configuration docs/driver.md gives downstream projects runs a suite as written."""

import re
import subprocess
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs" / "driver.md"

TEST = """\
// RUN: torch-refine-opt %s --torch-refine-pipeline | filecheck %s
// CHECK: torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor<[2,3],f32>
func.func @f(%arg0: !torch.vtensor<[2,3],f32>) -> !torch.vtensor {
  %0 = torch.aten.tanh %arg0 : !torch.vtensor<[2,3],f32> -> !torch.vtensor
  return %0 : !torch.vtensor
}
"""


def _documented_config() -> str:
    section = DOCS.read_text().split("## Reusing the lit configuration downstream", 1)[1]
    return re.search(r"```python[^\n]*\n(.*?)```", section, re.S).group(1)


def test_documented_lit_config_runs_a_downstream_suite(tmp_path):
    suite = tmp_path / "tests"
    suite.mkdir()
    (suite / "lit.cfg.py").write_text(_documented_config())
    (suite / "tanh.mlir").write_text(TEST)
    (suite / "wrong.mlir").write_text(TEST.replace("-> !torch.vtensor<[2,3],f32>", "-> !torch.vtensor<[3,2],f32>"))
    done = subprocess.run([str(Path(sys.executable).parent / "lit"), "-v", str(suite)], capture_output=True, text=True,
                          timeout=300, check=False)
    assert "PASS: my-project :: tanh.mlir" in done.stdout, done.stdout + done.stderr
    assert "FAIL: my-project :: wrong.mlir" in done.stdout, done.stdout + done.stderr
