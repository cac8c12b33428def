"""The frame tree as Graphviz DOT text (what view_frames draws), problems marked as in the SVG."""

from __future__ import annotations

from typing import Iterable, Mapping

from ..core.findings import Finding
from ..core.tree import Edge, frames_of
from .svg import COLOURS, FILLS, Marks


def _q(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def tree_dot(edges: Iterable[Edge], findings: Iterable[Finding] = (), edge_labels: Mapping[tuple[str, str], str] | None = None, title: str = "") -> str:
    """``dot -Tpdf`` renders it; static edges dashed, faulty frames and edges coloured, codes as tooltips."""
    edges = list(edges)
    findings = list(findings)
    marks = Marks.of(findings, edges)
    frames = frames_of(edges)
    frames += [fr for f in findings for fr in f.frames if fr and fr not in frames]
    labels = edge_labels or {}
    out = [
        "digraph tf_tree {",
        f"  label={_q(title)}; labelloc=t;" if title else "  labelloc=t;",
        '  node [shape=box, style="rounded,filled", fillcolor="#f7f7f7", fontname="Helvetica"];',
        '  edge [fontname="Helvetica", fontsize=10];',
    ]
    for frame in dict.fromkeys(frames):
        level = marks.frames.get(frame)
        style = ""
        if level is not None:
            tip = ", ".join(marks.codes.get(frame, []))
            style = f' [color="{COLOURS[level]}", fillcolor="{FILLS[level]}", penwidth=2, class="faulty {level.value}", tooltip={_q(tip)}]'
        out.append(f"  {_q(frame)}{style};")
    for e in edges:
        level = marks.edges.get((e.parent, e.child))
        attrs = ["style=dashed" if e.static else "style=solid"]
        if level is not None:
            attrs += [f'color="{COLOURS[level]}"', "penwidth=2"]
        label = labels.get((e.parent, e.child))
        if label:
            attrs.append(f"label={_q(label)}")
        out.append(f"  {_q(e.parent)} -> {_q(e.child)} [{', '.join(attrs)}];")
    out.append("}")
    return "\n".join(out) + "\n"
