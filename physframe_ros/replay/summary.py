"""The text report of a replay: what was read, the findings with their times, per-edge statistics."""

from __future__ import annotations

from typing import Any, Iterable, Sequence

from ..core.printable import printable
from ..report.text import format_time_findings
from .driver import ReplayResult


def format_replay(result: ReplayResult, colour: bool = False) -> str:
    bag, stats = result.bag, result.stats
    window = bag.get("window") or {}
    span = (window.get("end") or 0.0) - (window.get("start") or 0.0) if window.get("start") is not None else 0.0
    head = (
        f"{bag['path']} ({bag['storage']}): {stats['transforms_received']:,} transforms in {stats['messages_received']:,} messages "
        f"on {', '.join(bag['tf_topics']) or 'no TF topic'}, {span:.1f} s of bag time"
        + (f"; {stats.get('data_messages', 0):,} messages on {len(result.data_topics)} stamped topics" if result.data_topics else "")
    )
    if result.origin:
        head += f"; times are seconds after the bag's start at {result.origin:.3f}"
    lines = [printable(head)]
    if bag.get("recovered"):
        lines.append(printable(f"note: {bag['recovered']}"))
    lines += [printable(f"note: {n}") for n in result.notes]
    if result.expected_variant is not None:
        lines.append(printable(f"expected tree: matched {result.expected_variant}"))
    if stats["decode_errors"] > len(result.notes):
        lines.append(f"note: {stats['decode_errors']} TF messages could not be decoded and were skipped")
    lines.append("")
    lines.append(format_time_findings(result.findings, colour, result.origin).rstrip("\n"))
    if result.edge_stats:
        lines += ["", "edges:", format_edge_stats(result.edge_stats)]
    if result.data_topics:
        lines += ["", "stamped topics:", format_topic_stats(result.data_topics)]
    if result.interrupted:
        lines += ["", "interrupted: the report covers the bag up to the last message read"]
    return "\n".join(lines) + "\n"


def format_edge_stats(rows: Iterable[dict[str, Any]]) -> str:
    """tf2_monitor-like table; static edges say static instead of a meaningless rate."""
    table = [("parent -> child", "kind", "rate", "delay mean / max", "max gap", "msgs", "pattern")]
    for r in rows:
        edge = printable(f"{r['parent']} -> {r['child']}")
        if r["static"]:
            table.append((edge, "static", "-", "-", "-", str(r["messages"]), "static (latched)"))
            continue
        rate = f"{r['rate_hz']:.1f} Hz" if r.get("rate_hz") else "-"
        delay = f"{r['delay_mean'] * 1e3:.1f} / {r['delay_max'] * 1e3:.1f} ms"
        gap = f"{r['gap_max'] * 1e3:.0f} ms"
        table.append((edge, "dynamic", rate, delay, gap, str(r["messages"]), r["pattern"]))
    return _columns(table)


def format_topic_stats(rows: Iterable[dict[str, Any]]) -> str:
    """Per stamped topic: type, messages, rate, the frames its headers name, and the share TF can transform."""
    table = [("topic", "type", "msgs", "rate", "frames", "transformable")]
    for r in rows:
        rate = f"{r['rate_hz']:.1f} Hz" if r.get("rate_hz") else "-"
        frames = ", ".join(repr(f) for f in r["frames"])
        if r.get("child_frames"):
            frames += " -> " + ", ".join(repr(f) for f in r["child_frames"])
        share = f"{100.0 * r['transformable']:.1f}%" if r.get("transformable") is not None else "-"
        table.append((r["topic"], r["type"], str(r["messages"]), rate, frames, share))
    return _columns(table)


def _columns(table: Sequence[tuple[str, ...]]) -> str:
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    return "\n".join("  " + "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip() for row in table)
