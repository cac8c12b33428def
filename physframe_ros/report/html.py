"""The replay report as one self-contained HTML file: no network, inline CSS, JS and SVG.

Built from the contract's JSON report (so HTML and JSON always agree): the tree
drawn with its problems marked, the findings table, a timeline of when each
finding was active, and per-edge statistics. Clicking a finding highlights its
frames in the drawing.
"""

from __future__ import annotations

from html import escape
from typing import Any, Mapping, Sequence

from ..core.findings import Finding, sort_findings
from ..core.report import summary_line
from ..core.tree import Edge
from .svg import COLOURS, FILLS, tree_svg

_CSS = """
body { font-family: Helvetica, Arial, sans-serif; margin: 24px; color: #1b1b1b; }
h1 { font-size: 20px; margin-bottom: 4px; } h2 { font-size: 16px; margin-top: 28px; }
.meta { color: #555; font-size: 13px; } .banner { padding: 8px 12px; border-radius: 6px; margin: 10px 0; }
.banner.error { background: #fde3e3; border: 1px solid #c62828; } .banner.note { background: #fff1d6; border: 1px solid #e08a00; }
table { border-collapse: collapse; font-size: 12px; } th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: top; }
th { background: #f3f3f3; } tr.finding { cursor: pointer; } tr.finding:hover { background: #f6f6f6; }
.sev { font-weight: bold; text-transform: uppercase; font-size: 11px; }
.scroll { overflow-x: auto; border: 1px solid #eee; padding: 6px; }
svg .frame.highlight rect { stroke-width: 4; stroke: #6a1b9a; }
.num { text-align: right; font-variant-numeric: tabular-nums; }
"""

# Highlight the frames of a clicked finding in the tree; plain DOM, no library.
_JS = """
document.querySelectorAll('tr.finding').forEach(function (row) {
  row.addEventListener('click', function () {
    var frames = (row.getAttribute('data-frames') || '').split(' ');
    document.querySelectorAll('svg .frame').forEach(function (g) {
      g.classList.toggle('highlight', frames.indexOf(g.getAttribute('data-frame')) >= 0);
    });
  });
});
"""


def _t(value: float | None, origin: float) -> str:
    return "" if value is None else f"{value - origin:.3f}"


def timeline_svg(findings: Sequence[Finding], start: float, end: float) -> str:
    """One row per finding, a bar from when it was first to when it was last active (seconds after ``start``)."""
    timed = [f for f in findings if f.time is not None]
    label_w, plot_w, row_h = 390, 600, 20
    span = max(end - start, 1e-6)
    height = 30 + row_h * max(len(timed), 1) + 24

    def px(t: float) -> float:
        return label_w + plot_w * min(max((t - start) / span, 0.0), 1.0)

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="timeline" width="{label_w + plot_w + 20}" height="{height}" '
        f'font-family="Helvetica, Arial, sans-serif" font-size="11">'
    ]
    axis_y = height - 20
    out.append(f'<line x1="{label_w}" y1="{axis_y}" x2="{label_w + plot_w}" y2="{axis_y}" stroke="#888"/>')
    ticks = 8
    for i in range(ticks + 1):
        t = start + span * i / ticks
        x = px(t)
        out.append(f'<line x1="{x:.1f}" y1="{axis_y}" x2="{x:.1f}" y2="{axis_y + 4}" stroke="#888"/>')
        out.append(f'<line x1="{x:.1f}" y1="24" x2="{x:.1f}" y2="{axis_y}" stroke="#eee"/>')
        out.append(f'<text x="{x:.1f}" y="{axis_y + 15}" text-anchor="middle" fill="#555">{t - start:.1f} s</text>')
    if not timed:
        out.append(f'<text x="{label_w}" y="40" fill="#555">no finding was active</text>')
    for i, f in enumerate(timed):
        assert f.time is not None
        y = 30 + i * row_h
        x0, x1 = px(f.time.first), px(f.time.last)
        label = f"{f.code} {', '.join(f.frames)}"
        if len(label) > 58:
            label = label[:57] + "…"
        out.append(
            f'<g class="span {f.level.value}" data-code="{escape(f.code)}"><title>{escape(f.code)}: '
            f"{_t(f.time.first, start)} .. {_t(f.time.last, start)} s, seen {f.time.count}x</title>"
            f'<text x="{label_w - 8}" y="{y + 12}" text-anchor="end">{escape(label)}</text>'
            f'<rect x="{x0:.1f}" y="{y + 2}" width="{max(x1 - x0, 3.0):.1f}" height="{row_h - 6}" rx="3" '
            f'fill="{FILLS[f.level]}" stroke="{COLOURS[f.level]}"/></g>'
        )
    out.append("</svg>")
    return "\n".join(out)


def _findings_table(findings: Sequence[Finding], origin: float) -> str:
    if not findings:
        return "<p>No findings: the TF data follows every checked convention.</p>"
    rows = [
        "<table class='findings'><thead><tr><th>severity</th><th>code</th><th>frames / topic</th>"
        "<th>first (s)</th><th>last (s)</th><th>count</th><th>message</th></tr></thead><tbody>"
    ]
    for f in findings:
        first = _t(f.time.first, origin) if f.time else ""
        last = _t(f.time.last, origin) if f.time else ""
        count = str(f.time.count) if f.time else ""
        where = f" ({escape(str(f.location))})" if f.location else ""
        topic = f"<br>{escape(f.topic)}" if f.topic else ""
        rows.append(
            f"<tr class='finding {f.level.value}' data-code='{escape(f.code)}' data-frames='{escape(' '.join(f.frames))}'>"
            f"<td class='sev' style='color:{COLOURS[f.level]}'>{f.level.value}</td><td>{escape(f.code)}</td>"
            f"<td>{escape(', '.join(f.frames))}{topic}</td><td class='num'>{first}</td><td class='num'>{last}</td><td class='num'>{count}</td>"
            f"<td>{escape(f.message)}{where}</td></tr>"
        )
    rows.append("</tbody></table>")
    return "\n".join(rows)


def _stats_table(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return "<p>No transforms were read.</p>"
    out = [
        "<table class='edges'><thead><tr><th>parent</th><th>child</th><th>kind</th><th>rate (Hz)</th><th>delay mean (ms)</th>"
        "<th>delay max (ms)</th><th>max gap (ms)</th><th>messages</th><th>pattern</th><th>topics</th></tr></thead><tbody>"
    ]
    for r in rows:
        if r.get("static"):
            cells = ["static", "", "", "", ""]
        else:
            rate = r.get("rate_hz")
            cells = [
                "dynamic",
                f"{rate:.1f}" if rate else "",
                f"{r['delay_mean'] * 1e3:.1f}",
                f"{r['delay_max'] * 1e3:.1f}",
                f"{r['gap_max'] * 1e3:.0f}",
            ]
        out.append(
            f"<tr><td>{escape(r['parent'])}</td><td>{escape(r['child'])}</td><td>{cells[0]}</td>"
            + "".join(f"<td class='num'>{c}</td>" for c in cells[1:])
            + f"<td class='num'>{r['messages']}</td><td>{escape(str(r.get('pattern', '')))}</td><td>{escape(', '.join(r.get('topics', [])))}</td></tr>"
        )
    out.append("</tbody></table>")
    return "\n".join(out)


def _topics_table(rows: Sequence[Mapping[str, Any]]) -> str:
    if not rows:
        return "<p>No stamped topics were read.</p>"
    out = [
        "<table class='topics'><thead><tr><th>topic</th><th>type</th><th>messages</th><th>rate (Hz)</th><th>frames</th>"
        "<th>child frames</th><th>transformable</th></tr></thead><tbody>"
    ]
    for r in rows:
        rate, share = r.get("rate_hz"), r.get("transformable")
        out.append(
            f"<tr><td>{escape(r['topic'])}</td><td>{escape(r['type'])}</td><td class='num'>{r['messages']}</td>"
            f"<td class='num'>{f'{rate:.1f}' if rate else ''}</td><td>{escape(', '.join(r.get('frames', [])))}</td>"
            f"<td>{escape(', '.join(r.get('child_frames', [])))}</td><td class='num'>{f'{100.0 * share:.1f}%' if share is not None else ''}</td></tr>"
        )
    out.append("</tbody></table>")
    return "\n".join(out)


def data_frames(topics: Sequence[Mapping[str, Any]]) -> dict[str, list[str]]:
    """Frame -> the stamped topics whose headers name it (a leading '/' dropped, as tf2 does)."""
    out: dict[str, list[str]] = {}
    for r in topics:
        for f in (*r.get("frames", ()), *r.get("child_frames", ())):
            name = f[1:] if f.startswith("/") else f
            if name and r["topic"] not in out.setdefault(name, []):
                out[name].append(r["topic"])
    return out


def edges_seen(edge_stats: Sequence[Mapping[str, Any]]) -> list[Edge]:
    """Every parent -> child the bag ever held (a 200 ms loop is gone from the final tree but belongs in the drawing)."""
    seen: dict[tuple[str, str], Edge] = {}
    for r in edge_stats:
        key = (r["parent"], r["child"])
        static = bool(r.get("static")) or (key in seen and seen[key].static)
        seen[key] = Edge(r["parent"], r["child"], static)
    return list(seen.values())


def replay_page(report: Mapping[str, Any], title: str = "physframe replay") -> str:
    """The HTML page of a replay's JSON report (``ReplayResult.report()``)."""
    findings = sort_findings(Finding.from_dict(f) for f in report.get("findings", []))
    bag = report.get("bag") or {}
    stats = report.get("stats") or {}
    edge_stats = report.get("edges_stats") or []
    topics = report.get("data_topics") or []
    edges = edges_seen(edge_stats) or [Edge.from_dict(e) for e in report.get("tree", {}).get("edges", [])]
    window = bag.get("window") or {}
    origin = float(bag.get("start") or window.get("start") or 0.0)
    end = float(window.get("end") or bag.get("end") or origin)
    labels = {(r["parent"], r["child"]): (f"{r['rate_hz']:.0f} Hz" if r.get("rate_hz") else "") for r in edge_stats if not r.get("static")}
    worst = min((f.level for f in findings), key=lambda s: s.rank, default=None)
    verdict = f"<span style='color:{COLOURS[worst]}'>{escape(summary_line(findings))}</span>" if worst else "no findings"
    banners = []
    if report.get("error"):
        banners.append(f"<div class='banner error'>The bag is damaged: {escape(report['error'])}. This report covers what was read before.</div>")
    if report.get("interrupted"):
        banners.append("<div class='banner note'>Interrupted: this report covers the bag up to the last message read.</div>")
    if bag.get("recovered"):
        banners.append(f"<div class='banner note'>{escape(bag['recovered'])}.</div>")
    for note in report.get("notes", []):
        banners.append(f"<div class='banner note'>{escape(note)}</div>")
    meta = (
        f"{escape(str(bag.get('path', '')))} ({escape(str(bag.get('storage', '')))}) · "
        f"{stats.get('transforms_received', 0):,} transforms in {stats.get('messages_received', 0):,} messages on "
        f"{escape(', '.join(bag.get('tf_topics', [])))} · {end - origin:.1f} s of bag time from {origin:.3f} · "
        f"evaluated every {stats.get('period', 1.0)} s · times are seconds after the bag's start"
    )
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>{escape(title)}: {escape(str(bag.get("path", "")))}</title>
<style>{_CSS}</style></head>
<body>
<h1>{escape(title)}: {verdict}</h1>
<div class="meta">{meta}</div>
{"".join(banners)}
<h2>Frame tree: every edge seen in the bag</h2>
<div class="meta">Frames and edges named by a finding are coloured by severity (error red, warning orange, info blue);
static edges dashed, dynamic solid; a green dot marks a frame stamped data uses. Click a finding below to outline its frames.</div>
<div class="scroll">{tree_svg(edges, findings, labels, str(bag.get("path", "")), data_frames(topics))}</div>
<h2>Findings ({len(findings)})</h2>
{_findings_table(findings, origin)}
<h2>Timeline</h2>
<div class="scroll">{timeline_svg(findings, origin, end)}</div>
<h2>Edges</h2>
{_stats_table(edge_stats)}
<h2>Stamped topics ({len(topics)})</h2>
{_topics_table(topics)}
<script>{_JS}</script>
</body></html>
"""

