"""The contract's JSON report (findings + tree), shared by scan, replay, view and the node."""

from __future__ import annotations

from typing import Any, Iterable

from .. import __version__
from .findings import Finding, Severity, sort_findings
from .tree import Edge, frames_of


def report_dict(findings: Iterable[Finding], edges: Iterable[Edge], **extra: Any) -> dict[str, Any]:
    edges = list(edges)
    out: dict[str, Any] = {
        "tool": {"name": "physframe", "version": __version__},
        "findings": [f.to_dict() for f in sort_findings(findings)],
        "tree": {"frames": frames_of(edges), "edges": [e.to_dict() for e in edges]},
    }
    out.update(extra)
    return out


def exit_status(findings: Iterable[Finding]) -> int:
    """Contract exit status of scan and replay: 1 when any finding is an error, else 0."""
    return 1 if any(f.level == Severity.ERROR for f in findings) else 0


def summary_line(findings: Iterable[Finding]) -> str:
    findings = list(findings)
    counts = {s: sum(1 for f in findings if f.level == s) for s in Severity}
    if not findings:
        return "no findings"
    return ", ".join(f"{n} {s.value}{'s' if n != 1 else ''}" for s, n in counts.items() if n)
