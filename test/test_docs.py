"""The README and docs/monitor.md show the parameter table the node really declares."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from physframe_ros.node.params import PARAMETERS

ROOT = Path(__file__).resolve().parents[1]


def _cell(value: object) -> str:
    return f"`{json.dumps(value)}`" if isinstance(value, str) else f"`{value}`"


@pytest.mark.parametrize("doc", ["README.md", "docs/monitor.md"])
def test_parameter_table_matches_the_node(doc):
    text = (ROOT / doc).read_text()
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    names = [row.split("|")[1].strip().strip("`") for row in rows]
    assert names == [p.name for p in PARAMETERS]
    for row, p in zip(rows, PARAMETERS):
        assert row.split("|")[2].strip() == _cell(p.default), row


def test_readme_starts_with_the_two_commands_ci_runs():
    text = (ROOT / "README.md").read_text()
    first_block = text.split("```sh", 1)[1].split("```", 1)[0]
    assert "bash scripts/demo" in first_block and "bash scripts/test" in first_block
    assert "exec bash scripts/test" in (ROOT / ".ci" / "run").read_text()
