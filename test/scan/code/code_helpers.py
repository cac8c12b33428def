"""Shared by the code-analysis tests: run an analyzer on a fixture, look up lines by their text, and
the verdicts a scan gives one file (its own findings and the tree's on its edges)."""

from __future__ import annotations

from pathlib import Path

from physframe_ros.core.checks import check_tree
from physframe_ros.core.conventions import Conventions
from physframe_ros.core.findings import Finding
from physframe_ros.scan.code import analyze_cpp, analyze_python
from physframe_ros.scan.model import FileFacts

FIXTURES = Path(__file__).parent / "fixtures"


def analyze_fixture(name: str) -> FileFacts:
    text = (FIXTURES / name).read_text()
    return analyze_cpp(text, name) if name.endswith(".cpp") else analyze_python(text, name)


def line_of(name: str, needle: str, nth: int = 1) -> int:
    """The 1-based line of the nth line of the fixture containing ``needle`` (so tests survive edits)."""
    hits = [i for i, text in enumerate((FIXTURES / name).read_text().splitlines(), 1) if needle in text]
    assert len(hits) >= nth, f"{needle!r} not found {nth} times in {name}"
    return hits[nth - 1]


def codes(facts: FileFacts) -> list[tuple[str, int | None]]:
    return sorted((f.code, f.location.line if f.location else None) for f in verdicts(facts))


def verdicts(facts: FileFacts, conventions: Conventions | None = None) -> list[Finding]:
    """The file's findings and the tree's axis verdicts on its edges (INCORRECT_TRANSFORM is the tree's to
    give), each once, as a scan of this one file reports them."""
    out = {f.key: f for f in facts.findings}
    for f in check_tree(facts.edges, conventions or Conventions()):
        if f.code == "INCORRECT_TRANSFORM":
            out.setdefault(f.key, f)
    return list(out.values())
