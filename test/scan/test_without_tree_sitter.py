"""Without tree-sitter (a ROS workspace where only rosdep keys were installed) C++ files are skipped
with a note; Python code, launch files and descriptions are still analysed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

EXAMPLE = Path(__file__).resolve().parents[2] / "physframe_ros" / "examples" / "demo_ws"

# Block the tree_sitter modules in a fresh interpreter, then scan the bundled example (its GPS node is Python).
SCRIPT = """
import sys
class Block:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("tree_sitter", "tree_sitter_cpp"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
sys.meta_path.insert(0, Block())
from physframe_ros.cli import main
sys.exit(main(["scan", sys.argv[1], "--format", "json", "--no-progress"]))
"""


def test_python_analysis_survives_a_missing_tree_sitter(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "package.xml").write_text('<package format="3"><name>pkg</name></package>')
    (tmp_path / "pkg" / "node.cpp").write_text('void f() { br.sendTransform(t); }\n')
    gps = EXAMPLE / "src" / "tinybot_gps"
    shutil.copytree(gps, tmp_path / "tinybot_gps")
    run = subprocess.run([sys.executable, "-c", SCRIPT, str(tmp_path)], capture_output=True, text=True, timeout=120)
    assert "C++ files are not analysed" in run.stderr and "tree-sitter" in run.stderr
    assert '"MISSING_FRAME"' in run.stdout  # found by the Python analysis
