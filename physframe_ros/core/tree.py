"""The frame tree as data: edges with their values, where they come from, and graph helpers."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Iterable, Iterator, Mapping, Sequence

from .findings import Location
from .rotations import OrthoRotation, Quaternion

Vector = tuple[float, float, float]


@dataclass(frozen=True)
class Edge:
    """A parent -> child transform, as declared in source (scan) or seen on /tf (live, replay)."""

    parent: str
    child: str
    static: bool = False
    translation: Vector | None = None
    rotation: Quaternion | None = None
    sources: tuple[Location, ...] = ()
    publishers: tuple[str, ...] = ()
    #: Source code only: the orthogonal rotation of the constant factors of a rotation not known in full
    #: (PhysFrame's R15), for the tree's axis check; not part of the edge's identity.
    constant_part: OrthoRotation | None = field(default=None, compare=False)
    #: Source code only: where the rotation was written, when not where the transform is sent (the line to change
    #: for a wrong rotation); not part of the edge's identity.
    rotation_at: Location | None = field(default=None, compare=False)
    #: Source code only: where the child frame's name was written, when not where the transform is sent (the line
    #: to change when the child has another parent); not part of the edge's identity.
    child_at: Location | None = field(default=None, compare=False)
    #: Source code only: where the message's child_frame_id was assigned, when not where the transform is sent (the
    #: line to change when parent and child are swapped); not part of the edge's identity.
    named_at: Location | None = field(default=None, compare=False)
    #: Source code only: where the robot_state_publisher publishing a robot description's joint is started, with its
    #: parameters (the line to change when two robots' descriptions name one frame: a frame_prefix); not part of the
    #: edge's identity.
    loaded_at: Location | None = field(default=None, compare=False)
    #: Source code only: where the parent frame's name was given, when not where the edge is declared (a launched
    #: node's `fixed_frame` parameter: the line to change when that parent is the wrong one); not part of the identity.
    parent_at: Location | None = field(default=None, compare=False)

    @property
    def location(self) -> Location | None:
        return self.sources[0] if self.sources else None

    @property
    def rotation_location(self) -> Location | None:
        """Where a finding about the rotation points: where it was written, else where the edge is declared."""
        return self.rotation_at or self.location

    def to_dict(self) -> dict[str, Any]:
        return {
            "parent": self.parent,
            "child": self.child,
            "static": self.static,
            "translation": _rounded(self.translation),
            "rotation": _rounded(self.rotation),
            "sources": [s.to_dict() for s in self.sources],
            **({"publishers": list(self.publishers)} if self.publishers else {}),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Edge:
        t, r = data.get("translation"), data.get("rotation")
        return cls(
            parent=str(data["parent"]),
            child=str(data["child"]),
            static=bool(data.get("static", False)),
            translation=(float(t[0]), float(t[1]), float(t[2])) if t is not None else None,
            rotation=(float(r[0]), float(r[1]), float(r[2]), float(r[3])) if r is not None else None,
            sources=tuple(Location(s["file"], s.get("line"), s.get("column")) for s in data.get("sources", ()) or ()),
            publishers=tuple(data.get("publishers", ()) or ()),
        )


def _rounded(v: Sequence[float] | None) -> list[float] | None:
    return None if v is None else [round(float(c), 9) for c in v]


def frames_of(edges: Iterable[Edge]) -> list[str]:
    """All frame names, parents before children where the tree allows (stable, readable order)."""
    edges = list(edges)
    seen: dict[str, None] = {}
    children = defaultdict(list)
    has_parent = set()
    for e in edges:
        children[e.parent].append(e.child)
        has_parent.add(e.child)
    roots = sorted({e.parent for e in edges} - has_parent)
    stack = list(reversed(roots))
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen[f] = None
        stack.extend(sorted(children[f], reverse=True))
    for e in edges:  # frames only reachable through a cycle
        for f in (e.parent, e.child):
            seen.setdefault(f, None)
    return list(seen)


def parents_by_child(edges: Iterable[Edge]) -> dict[str, list[Edge]]:
    out: dict[str, list[Edge]] = defaultdict(list)
    for e in edges:
        out[e.child].append(e)
    return out


def single_parents(edges: Iterable[Edge]) -> dict[str, Edge]:
    """Each frame's parent edge, for the frames given exactly one."""
    return {child: pe[0] for child, pe in parents_by_child(edges).items() if len(pe) == 1}


def strongly_connected(edges: Iterable[Edge]) -> list[list[str]]:
    """Tarjan's SCCs of the parent -> child graph that contain a loop (size >= 2), iteratively."""
    succ: dict[str, list[str]] = defaultdict(list)
    indegree: dict[str, int] = {}
    for e in edges:
        if e.parent != e.child:
            succ[e.parent].append(e.child)
            indegree[e.child] = indegree.get(e.child, 0) + 1
            indegree.setdefault(e.parent, 0)
    # Kahn's peel first: frames that topologically sort away are in no loop. Trees almost
    # always peel away entirely, so Tarjan only runs on what is left.
    ready = [f for f, d in indegree.items() if d == 0]
    while ready:
        f = ready.pop()
        del indegree[f]
        for c in succ[f]:
            indegree[c] -= 1
            if indegree[c] == 0:
                ready.append(c)
    if not indegree:
        return []
    nodes = dict.fromkeys(indegree)
    succ = defaultdict(list, {f: [c for c in succ[f] if c in nodes] for f in nodes})
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    out: list[list[str]] = []
    counter = 0
    for root in nodes:
        if root in index:
            continue
        work: list[tuple[str, Iterator[str]]] = [(root, iter(succ[root]))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, it = work[-1]
            advanced = False
            for nxt in it:
                if nxt not in index:
                    index[nxt] = low[nxt] = counter
                    counter += 1
                    stack.append(nxt)
                    on_stack.add(nxt)
                    work.append((nxt, iter(succ[nxt])))
                    advanced = True
                    break
                if nxt in on_stack:
                    low[node] = min(low[node], index[nxt])
            if advanced:
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.append(w)
                    if w == node:
                        break
                if len(comp) > 1:
                    out.append(comp)
    return out


def cycle_path(component: Sequence[str], edges: Iterable[Edge]) -> list[str]:
    """One loop through a strongly connected component, starting at its smallest frame."""
    members = set(component)
    succ: dict[str, list[str]] = defaultdict(list)
    for e in edges:
        if e.parent in members and e.child in members and e.parent != e.child:
            succ[e.parent].append(e.child)
    start = min(members)
    prev: dict[str, str] = {}
    queue = [start]
    while queue:
        nxt_queue = []
        for f in queue:
            for c in sorted(succ[f]):
                if c == start:
                    path = [f]
                    while path[-1] != start:
                        path.append(prev[path[-1]])
                    return list(reversed(path)) + [start]
                if c not in prev:
                    prev[c] = f
                    nxt_queue.append(c)
        queue = nxt_queue
    return sorted(members)


def components(edges: Iterable[Edge]) -> list[set[str]]:
    """Weakly connected components (union-find)."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for e in edges:
        a, b = find(e.parent), find(e.child)
        if a != b:
            parent[a] = b
    groups: dict[str, set[str]] = defaultdict(set)
    for f in list(parent):
        groups[find(f)].add(f)
    return list(groups.values())


def ancestors(frame: str, parents: Mapping[str, Sequence[Edge]]) -> Iterator[str]:
    """Every frame above ``frame`` through any of its parents (each once; safe on cycles)."""
    seen = {frame}
    stack = [e.parent for e in parents.get(frame, ())]
    while stack:
        f = stack.pop()
        if f in seen:
            continue
        seen.add(f)
        yield f
        stack.extend(e.parent for e in parents.get(f, ()))


def rotated_ancestors(start: str, rotation: OrthoRotation, parents: Mapping[str, Edge], tolerance: float
                      ) -> Iterator[tuple[str, OrthoRotation, list[str]]]:
    """Each frame above ``start`` with ``rotation`` carried up to it and the frames passed before it, while every edge
    on the way has a known orthogonal rotation; the walk ends at a root, an unknown or tilted rotation, or a loop."""
    frame, path = start, [start]
    for _ in range(len(parents) + 1):
        up = parents.get(frame)
        if up is None or up.rotation is None:
            return
        step = OrthoRotation.from_quaternion(up.rotation, tolerance)
        if step is None or up.parent in path:
            return
        rotation, frame = step @ rotation, up.parent
        yield frame, rotation, path
        path.append(frame)
