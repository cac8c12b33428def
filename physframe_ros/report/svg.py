"""The frame tree drawn as SVG, with the frames and edges that findings name in colour.

Layout is computed here (no graphviz): a spanning tree of the parent links in
layers by depth, leaves on slots left to right, parents centred over their
children; links outside the spanning tree (a second parent, a loop) are drawn as
curves. Every frame is a ``<g class="frame ..." data-frame="NAME">``, faulty
ones also carry ``faulty`` and their worst severity as classes; static edges are
dashed, dynamic ones solid.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from html import escape
from typing import Iterable, Mapping, Sequence

from ..core.findings import Finding, Severity
from ..core.tree import Edge, frames_of

COLOURS = {Severity.ERROR: "#c62828", Severity.WARNING: "#e08a00", Severity.INFO: "#1f6fb2"}
DATA_COLOUR = "#2e7d32"  # the dot on frames stamped data uses
FILLS = {Severity.ERROR: "#fde3e3", Severity.WARNING: "#fff1d6", Severity.INFO: "#e3effa"}
LEVEL_H = 86
NODE_H = 30
CHAR_W = 7.0
MARGIN = 24


@dataclass
class Marks:
    """Which frames and edges the findings name, at their worst severity, with the codes."""

    frames: dict[str, Severity] = field(default_factory=dict)
    edges: dict[tuple[str, str], Severity] = field(default_factory=dict)
    codes: dict[str, list[str]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, findings: Iterable[Finding], edges: Iterable[Edge]) -> Marks:
        marks = cls()
        edges = list(edges)
        for f in findings:
            named = set(f.frames)
            for frame in f.frames:
                marks._worse(marks.frames, frame, f.level)
                if f.code not in marks.codes[frame]:
                    marks.codes[frame].append(f.code)
            if len(named) < 2:
                continue
            for e in edges:  # an edge is at fault when the finding names both its ends
                if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE" and e.child != f.frames[0]:
                    continue  # (child, parent, parent...): only the links into the child
                if e.parent in named and e.child in named:
                    marks._worse(marks.edges, (e.parent, e.child), f.level)
        return marks

    @staticmethod
    def _worse(table: dict, key: object, level: Severity) -> None:  # type: ignore[type-arg]
        old = table.get(key)
        if old is None or level.rank < old.rank:
            table[key] = level


@dataclass
class Layout:
    x: dict[str, float]
    depth: dict[str, int]
    width: float
    height: float
    node_w: dict[str, float]


def _reach(frame: str, children: Mapping[str, list[str]]) -> int:
    seen = {frame}
    stack = [frame]
    while stack:
        for c in children.get(stack.pop(), ()):
            if c not in seen:
                seen.add(c)
                stack.append(c)
    return len(seen)


def layout(frames: list[str], edges: list[Edge]) -> Layout:
    children: dict[str, list[str]] = defaultdict(list)
    has_parent: set[str] = set()
    for e in edges:
        if e.parent != e.child and e.child not in children[e.parent]:
            children[e.parent].append(e.child)
            has_parent.add(e.child)
    roots = [f for f in frames if f not in has_parent]
    depth: dict[str, int] = {}
    tree: dict[str, list[str]] = defaultdict(list)
    order: list[str] = []
    # breadth-first from each root gives each frame its shallowest depth and one spanning-tree parent
    while len(depth) < len(frames):
        if roots:
            root = roots.pop(0)
        else:  # what is left hangs off a loop: start from the frame that reaches the most of it
            rest = [f for f in frames if f not in depth]
            root = max(rest, key=lambda f: (_reach(f, children), -rest.index(f)))
        if root in depth:
            continue
        depth[root] = 0
        order.append(root)
        queue = [root]
        while queue:
            nxt = []
            for f in queue:
                for c in sorted(children[f]):
                    if c not in depth:
                        depth[c] = depth[f] + 1
                        tree[f].append(c)
                        nxt.append(c)
            queue = nxt
    node_w = {f: max(60.0, len(f) * CHAR_W + 20) for f in frames}
    slot = max(node_w.values(), default=60.0) + 16
    x: dict[str, float] = {}
    next_slot = 0
    for root in order:  # post-order without recursion: a long chain of frames must not hit the stack limit
        stack: list[tuple[str, bool]] = [(root, False)]
        while stack:
            f, done = stack.pop()
            kids = tree[f]
            if not done and kids:
                stack.append((f, True))
                stack.extend((c, False) for c in reversed(kids))
            elif kids:
                x[f] = (x[kids[0]] + x[kids[-1]]) / 2
            else:
                x[f] = MARGIN + slot * next_slot + slot / 2
                next_slot += 1
    width = max(MARGIN * 2 + slot * max(next_slot, 1), 460.0)  # room for the legend
    height = MARGIN * 2 + LEVEL_H * (max(depth.values(), default=0)) + NODE_H + 40
    return Layout(x, depth, width, height, node_w)


def tree_svg(
    edges: Iterable[Edge],
    findings: Iterable[Finding] = (),
    edge_labels: Mapping[tuple[str, str], str] | None = None,
    title: str = "",
    data_frames: Mapping[str, Sequence[str]] | None = None,
) -> str:
    """A standalone SVG document (also valid inline in HTML) of the tree with its problems marked;
    ``data_frames`` (frame -> stamped topics using it) get a dot and their topics in the tooltip."""
    edges = list(edges)
    findings = list(findings)
    data = data_frames or {}
    frames = frames_of(edges)
    frames += [f for f in sorted(data) if f and f not in frames]
    for f in findings:  # frames a finding names but no edge has (e.g. an expected frame that is missing)
        for fr in f.frames:
            if fr and fr not in frames:
                frames.append(fr)
    marks = Marks.of(findings, edges)
    lay = layout(frames, edges)
    labels = edge_labels or {}
    legend_y = lay.height - 14
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="tf-tree" width="{lay.width:.0f}" height="{lay.height:.0f}" '
        f'viewBox="0 0 {lay.width:.0f} {lay.height:.0f}" font-family="Helvetica, Arial, sans-serif" font-size="12">',
        f"<title>{escape(title or 'TF tree')}</title>",
        "<defs>",
        *(
            f'<marker id="arrow-{name}" viewBox="0 0 10 10" refX="10" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
            f'<path d="M0,0 L10,5 L0,10 z" fill="{colour}"/></marker>'
            for name, colour in (("ok", "#555"), *((s.value, COLOURS[s]) for s in Severity))
        ),
        "</defs>",
        '<rect width="100%" height="100%" fill="white"/>',
    ]

    def centre(f: str) -> tuple[float, float]:
        return lay.x[f], MARGIN + LEVEL_H * lay.depth[f] + NODE_H / 2

    for e in edges:
        if e.parent not in lay.x or e.child not in lay.x:
            continue
        level = marks.edges.get((e.parent, e.child))
        colour = COLOURS[level] if level else "#555"
        kind = "static" if e.static else "dynamic"
        cls = f"edge {kind}" + (f" faulty {level.value}" if level else "")
        (px, py), (cx, cy) = centre(e.parent), centre(e.child)
        if e.parent == e.child:
            d = f"M{px + 20:.1f},{py - NODE_H / 2:.1f} c30,-40 60,0 {lay.node_w[e.parent] / 2 - 20:.1f},{NODE_H / 2:.1f}"
        elif lay.depth[e.child] == lay.depth[e.parent] + 1:
            d = f"M{px:.1f},{py + NODE_H / 2:.1f} L{cx:.1f},{cy - NODE_H / 2:.1f}"
        else:  # not a spanning-tree link: curve around so it stays visible
            bend = 60 if cx >= px else -60
            dy = NODE_H / 2 if cy > py else -NODE_H / 2
            d = f"M{px + bend / 4:.1f},{py + dy:.1f} Q{(px + cx) / 2 + bend:.1f},{(py + cy) / 2:.1f} {cx + bend / 4:.1f},{cy - dy:.1f}"
        dash = ' stroke-dasharray="6 4"' if e.static else ""
        tip = f"{e.parent} -> {e.child} ({kind})" + (f": {labels[(e.parent, e.child)]}" if (e.parent, e.child) in labels else "")
        out.append(
            f'<g class="{cls}" data-parent="{escape(e.parent)}" data-child="{escape(e.child)}"><title>{escape(tip)}</title>'
            f'<path d="{d}" fill="none" stroke="{colour}" stroke-width="{2.4 if level else 1.4}"{dash} '
            f'marker-end="url(#arrow-{level.value if level else "ok"})"/>'
        )
        label = labels.get((e.parent, e.child))
        if label:
            out.append(f'<text x="{(px + cx) / 2 + 6:.1f}" y="{(py + cy) / 2:.1f}" font-size="10" fill="#444">{escape(label)}</text>')
        out.append("</g>")

    for frame in frames:
        x, y = centre(frame)
        w = lay.node_w[frame]
        level = marks.frames.get(frame)
        cls = "frame" + (f" faulty {level.value}" if level else "") + (" data" if frame in data else "")
        codes = marks.codes.get(frame, [])
        tip = frame + (": " + ", ".join(codes) if codes else "") + (f" (data of {', '.join(data[frame])})" if frame in data else "")
        stroke = COLOURS[level] if level else "#333"
        fill = FILLS[level] if level else "#f7f7f7"
        out.append(
            f'<g class="{cls}" data-frame="{escape(frame)}"><title>{escape(tip)}</title>'
            f'<rect x="{x - w / 2:.1f}" y="{y - NODE_H / 2:.1f}" width="{w:.1f}" height="{NODE_H}" rx="8" '
            f'fill="{fill}" stroke="{stroke}" stroke-width="{2.4 if level else 1.2}"/>'
            f'<text x="{x:.1f}" y="{y + 4:.1f}" text-anchor="middle" fill="#111">{escape(frame)}</text>'
            + (f'<circle cx="{x + w / 2 - 2:.1f}" cy="{y - NODE_H / 2 + 2:.1f}" r="5" fill="{DATA_COLOUR}"/>' if frame in data else "")
            + "</g>"
        )

    if not frames:
        out.append(f'<text x="{MARGIN}" y="{MARGIN + NODE_H / 2}" fill="#555">no frames: no transform was seen</text>')
    y = legend_y
    out.append(
        f'<g class="legend" font-size="10" fill="#333">'
        f'<line x1="{MARGIN}" y1="{y}" x2="{MARGIN + 30}" y2="{y}" stroke="#555" stroke-dasharray="6 4"/>'
        f'<text x="{MARGIN + 36}" y="{y + 3}">static</text>'
        f'<line x1="{MARGIN + 80}" y1="{y}" x2="{MARGIN + 110}" y2="{y}" stroke="#555"/>'
        f'<text x="{MARGIN + 116}" y="{y + 3}">dynamic</text>'
        + "".join(
            f'<rect x="{MARGIN + 180 + i * 80}" y="{y - 6}" width="12" height="12" fill="{FILLS[s]}" stroke="{COLOURS[s]}"/>'
            f'<text x="{MARGIN + 196 + i * 80}" y="{y + 3}">{s.value}</text>'
            for i, s in enumerate(Severity)
        )
        + (f'<circle cx="{MARGIN + 426}" cy="{y}" r="5" fill="{DATA_COLOUR}"/><text x="{MARGIN + 436}" y="{y + 3}">data frame</text>' if data else "")
        + "</g>"
    )
    out.append("</svg>")
    return "\n".join(out) + "\n"
