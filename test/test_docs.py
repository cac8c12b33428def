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


def test_findings_doc_lists_every_code_with_its_category_and_severity():
    """docs/findings.md is the users' list of codes: one row per code of core/findings.py, in step with it."""
    from physframe_ros.core.findings import CODES

    rows = [line.split("|")[1:-1] for line in (ROOT / "docs" / "findings.md").read_text().splitlines() if line.startswith("| `")]
    documented = {cells[0].strip().strip("`"): [c.strip() for c in cells[1:]] for cells in rows}
    assert len(documented) == len(rows), "a code is listed twice"
    assert set(documented) == set(CODES)
    for code, (category, severity, meaning, example) in documented.items():
        assert (category, severity) == (CODES[code].category, CODES[code].severity.value), code
        assert meaning and example, f"{code} needs a meaning and an example message"
