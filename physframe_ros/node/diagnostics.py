"""Findings as ``diagnostic_msgs/DiagnosticArray`` (contract: one status per active finding, or one OK status)."""

from __future__ import annotations

from typing import Iterable

from builtin_interfaces.msg import Time
from diagnostic_msgs.msg import DiagnosticArray, DiagnosticStatus, KeyValue

from ..core.findings import Finding, Severity, sort_findings

LEVELS = {Severity.ERROR: DiagnosticStatus.ERROR, Severity.WARNING: DiagnosticStatus.WARN, Severity.INFO: DiagnosticStatus.OK}
TREE_STATUS = "physframe: tree"


def finding_status(f: Finding, hardware_id: str) -> DiagnosticStatus:
    values = [KeyValue(key="frames", value=",".join(f.frames)), KeyValue(key="code", value=f.code), KeyValue(key="severity", value=f.level.value)]
    if f.publishers:
        values.append(KeyValue(key="publishers", value=",".join(f.publishers)))
    if f.topic:
        values.append(KeyValue(key="topic", value=f.topic))
    if "variant" in f.details:
        values.append(KeyValue(key="expected_variant", value=str(f.details["variant"])))
    if f.time is not None:
        values.append(KeyValue(key="first_seen", value=f"{f.time.first:.3f}"))
        values.append(KeyValue(key="last_seen", value=f"{f.time.last:.3f}"))
        values.append(KeyValue(key="count", value=str(f.time.count)))
    return DiagnosticStatus(level=LEVELS[f.level], name=f"physframe: {f.code}", message=f.message, hardware_id=hardware_id, values=values)


def diagnostic_array(findings: Iterable[Finding], stamp: Time, hardware_id: str, frames: int, edges: int,
                     expected_variant: str | None = None) -> DiagnosticArray:
    """``expected_variant``: the expected tree's variant the live tree matches, named in the OK status."""
    statuses = [finding_status(f, hardware_id) for f in sort_findings(findings)]
    if not statuses:
        values = [KeyValue(key="frame_count", value=str(frames)), KeyValue(key="edge_count", value=str(edges))]
        matches = ""
        if expected_variant is not None:
            values.append(KeyValue(key="expected_variant", value=expected_variant))
            matches = f"; matches the expected tree's {expected_variant}"
        statuses = [
            DiagnosticStatus(
                level=DiagnosticStatus.OK,
                name=TREE_STATUS,
                message=f"no frame problems in {frames} frames / {edges} edges{matches}",
                hardware_id=hardware_id,
                values=values,
            )
        ]
    msg = DiagnosticArray(status=statuses)
    msg.header.stamp = stamp
    return msg
