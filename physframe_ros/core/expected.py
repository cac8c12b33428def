"""The expected tree: what ``physframe scan --expected-out`` writes and the node and replay compare against.

File format (YAML, versioned)::

    format: physframe-expected-tree
    version: 1
    generator: physframe 0.1.0
    frames: [map, odom, base_link, ...]
    edges:                      # every declared parent -> child, with where it is declared
      - {parent: base_link, child: laser, static: true,
         translation: [0.1, 0, 0.2], rotation: [0, 0, 0, 1],
         sources: [{file: robot_description/urdf/robot.urdf, line: 42}]}
    lookups:                    # transforms code asks tf2 for (target <- source)
      - {target: map, source: base_link, location: {file: src/nav.cpp, line: 10}}
    partial_edges:              # broadcasts and lookups with one frame known, the other known only at run time
      - {parent: odom, child: null, kind: broadcast, location: {file: src/imu_filter_ros.cpp, line: 347}}
    subsystems:                 # optional: what runs together (a top-level launch file)
      - {name: launch/bringup.launch.py, frames: [...]}
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping

from .findings import Finding, Location
from .rotations import quaternion_angle
from .tree import Edge, frames_of, parents_by_child
from .yamlfile import read_yaml

FORMAT = "physframe-expected-tree"
VERSION = 1
TRANSLATION_TOLERANCE = 1e-3  # metres
ROTATION_TOLERANCE = 1e-3  # radians


class ExpectedTreeError(ValueError):
    """The file is not an expected tree this version can read; the message names the file."""


@dataclass(frozen=True)
class Lookup:
    target: str
    source: str
    location: Location | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"target": self.target, "source": self.source, "location": self.location.to_dict() if self.location else None}


@dataclass(frozen=True)
class PartialEdge:
    """A broadcast (``kind`` "broadcast" or "static") or lookup (parent = target, child = source) whose one
    frame is known and whose other is known only at run time (None): a frame taken from an incoming
    message's header, a name computed from data. Not part of the tree: nothing is checked against it."""

    parent: str | None
    child: str | None
    kind: str
    location: Location | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"parent": self.parent, "child": self.child, "kind": self.kind, "location": self.location.to_dict() if self.location else None}


@dataclass
class ExpectedTree:
    edges: list[Edge] = field(default_factory=list)
    lookups: list[Lookup] = field(default_factory=list)
    subsystems: list[dict[str, Any]] = field(default_factory=list)
    partial_edges: list[PartialEdge] = field(default_factory=list)

    @property
    def frames(self) -> list[str]:
        return frames_of(self.edges)

    def to_dict(self, generator: str = "physframe") -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "generator": generator,
            "frames": self.frames,
            "edges": [e.to_dict() for e in self.edges],
            "lookups": [lk.to_dict() for lk in self.lookups],
            "partial_edges": [pe.to_dict() for pe in self.partial_edges],
            "subsystems": self.subsystems,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any], origin: str = "<data>") -> ExpectedTree:
        if not isinstance(data, Mapping) or data.get("format") != FORMAT:
            raise ExpectedTreeError(f"{origin}: not a physframe expected tree (missing 'format: {FORMAT}')")
        if int(data.get("version", 0)) > VERSION:
            raise ExpectedTreeError(f"{origin}: expected-tree version {data.get('version')} is newer than this physframe reads ({VERSION})")
        try:
            edges = [Edge.from_dict(e) for e in data.get("edges") or ()]
            lookups = [
                Lookup(str(lk["target"]), str(lk["source"]), Location(**lk["location"]) if lk.get("location") else None) for lk in data.get("lookups") or ()
            ]
            partial = [
                PartialEdge(_frame_or_none(pe.get("parent")), _frame_or_none(pe.get("child")), str(pe["kind"]),
                            Location(**pe["location"]) if pe.get("location") else None)
                for pe in data.get("partial_edges") or ()
            ]  # fmt: skip
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ExpectedTreeError(f"{origin}: malformed entry: {exc}") from None
        return cls(edges, lookups, list(data.get("subsystems") or ()), partial)

    def save(self, path: str | Path, generator: str = "physframe") -> None:
        import yaml

        text = f"# Expected TF tree written by {generator}; load with --expected / expected_tree:=\n"
        text += yaml.safe_dump(self.to_dict(generator), sort_keys=False, default_flow_style=None, width=120)
        Path(path).write_text(text, encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> ExpectedTree:
        data = read_yaml(path, ExpectedTreeError)
        return cls.from_dict(data, str(path))


def _frame_or_none(value: Any) -> str | None:
    return None if value is None else str(value)


def crosscheck(expected: ExpectedTree, live: Iterable[Edge]) -> list[Finding]:
    """Compare a live (or replayed) tree with the tree the sources declare."""
    live = list(live)
    live_frames = set(frames_of(live))
    live_parents = parents_by_child(live)
    declared = {(e.parent, e.child) for e in expected.edges}
    declared_children = {e.child for e in expected.edges}
    out: list[Finding] = []
    missing_frames: set[str] = set()
    for e in expected.edges:
        for f in (e.parent, e.child):
            if f not in live_frames and f not in missing_frames:
                missing_frames.add(f)
                out.append(Finding("EXPECTED_FRAME_MISSING", f"frame '{f}' is declared" + _at(e) + " but no transform names it", (f,), e.location))
    for e in expected.edges:
        if e.child not in live_frames or e.parent not in live_frames:
            continue
        lp = live_parents.get(e.child, [])
        if not lp:
            out.append(
                Finding(
                    "EXPECTED_EDGE_MISSING",
                    f"transform {e.parent} -> {e.child} is declared{_at(e)} but '{e.child}' has no parent in the live tree",
                    (e.parent, e.child),
                    e.location,
                )
            )
            continue
        match = [x for x in lp if x.parent == e.parent]
        if not match:
            got = ", ".join(sorted({x.parent for x in lp}))
            out.append(
                Finding(
                    "PARENT_MISMATCH",
                    f"'{e.child}' has parent '{got}' in the live tree but is declared{_at(e)} as a child of '{e.parent}'",
                    (e.child, e.parent, got),
                    e.location,
                )
            )
            continue
        mismatch = _value_mismatch(e, match[0])
        if mismatch:
            out.append(mismatch)
    for x in live:
        if (x.parent, x.child) not in declared and x.child not in declared_children:
            by = f" (published by {', '.join(x.publishers)})" if x.publishers else ""
            out.append(
                Finding(
                    "UNEXPECTED_EDGE",
                    f"live transform {x.parent} -> {x.child}{by} is declared by no scanned source",
                    (x.parent, x.child),
                    publishers=x.publishers,
                )
            )
    return out


def _at(e: Edge) -> str:
    return f" at {e.location}" if e.location else ""


def _value_mismatch(expected: Edge, live: Edge) -> Finding | None:
    if not (expected.static and live.static):
        return None
    parts = []
    if expected.translation is not None and live.translation is not None:
        d = math.dist(expected.translation, live.translation)
        if d > TRANSLATION_TOLERANCE:
            parts.append(f"translation {_vec(live.translation)} instead of {_vec(expected.translation)} ({d:.4g} m apart)")
    if expected.rotation is not None and live.rotation is not None:
        a = quaternion_angle(expected.rotation, live.rotation)
        if a > ROTATION_TOLERANCE:
            parts.append(f"rotation {_vec(live.rotation)} instead of {_vec(expected.rotation)} ({math.degrees(a):.3g} deg apart)")
    if not parts:
        return None
    return Finding(
        "STATIC_VALUE_MISMATCH",
        f"static transform {live.parent} -> {live.child} has {' and '.join(parts)} declared{_at(expected)}",
        (live.parent, live.child),
        expected.location,
        publishers=live.publishers,
    )


def _vec(v: Iterable[float]) -> str:
    return "(" + ", ".join(f"{c:.4g}" for c in v) + ")"
