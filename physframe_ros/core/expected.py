"""The expected tree: what ``physframe scan --expected-out`` writes and the node and replay compare against.

File format (YAML, versioned)::

    format: physframe-expected-tree
    version: 2
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
    data_frames:                # frames the code stamps on the data it publishes (header.frame_id), by type
      - {frame: camera, type: Image, location: {file: image_publisher/src/image_publisher.cpp, line: 120}}
    subsystems:                 # optional: what runs together (a top-level launch file)
      - {name: launch/bringup.launch.py, frames: [...]}
    variants:                   # version 2, optional: each a whole tree one subsystem can run as
      - {name: "bringup.launch.py TURTLEBOT3_MODEL=burger", subsystem: launch/bringup.launch.py,
         choice: {TURTLEBOT3_MODEL: burger}, edges: [...]}

Frame names may hold placeholders, ``{namespace}base_link``: bound against the live names when
matched (:mod:`.frame_patterns`). ``edges`` is the union of every variant's edges, so a reader of
version 1 still finds every declared edge; a file without ``variants`` is one variant of all its
edges. Version 1 files load unchanged.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from .findings import Location
from .tree import Edge, frames_of
from .yamlfile import read_yaml

FORMAT = "physframe-expected-tree"
VERSION = 2


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


@dataclass(frozen=True)
class DataFrame:
    """A frame the code stamps on data it publishes (``msg.header.frame_id = "camera"; pub.publish(msg)``):
    the frame some transform has to reach for that data to be used. Not an edge: nothing is checked against it."""

    frame: str
    type: str
    location: Location | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"frame": self.frame, "type": self.type, "location": self.location.to_dict() if self.location else None}


@dataclass
class Variant:
    """One whole tree a subsystem runs as: a robot model chosen by a launch argument or an
    environment variable, or the subsystem itself when nothing is chosen."""

    name: str
    edges: list[Edge] = field(default_factory=list)
    subsystem: str = ""
    choice: dict[str, str] = field(default_factory=dict)  # the arguments / environment values that select it

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "subsystem": self.subsystem, "choice": dict(self.choice), "edges": [e.to_dict() for e in self.edges]}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Variant:
        choice = data.get("choice") or {}
        return cls(str(data["name"]), [Edge.from_dict(e) for e in data.get("edges") or ()], str(data.get("subsystem") or ""),
                   {str(k): str(v) for k, v in choice.items()})


ALL_EDGES = "all declared edges"  # the one variant of a file that has none


@dataclass
class ExpectedTree:
    edges: list[Edge] = field(default_factory=list)
    lookups: list[Lookup] = field(default_factory=list)
    subsystems: list[dict[str, Any]] = field(default_factory=list)
    variants: list[Variant] = field(default_factory=list)
    partial_edges: list[PartialEdge] = field(default_factory=list)
    data_frames: list[DataFrame] = field(default_factory=list)

    @property
    def frames(self) -> list[str]:
        return frames_of(self.edges)

    def candidates(self) -> list[Variant]:
        """What matching chooses from: the variants, or all edges as one when there are none."""
        return self.variants or [Variant(ALL_EDGES, list(self.edges))]

    def to_dict(self, generator: str = "physframe") -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "generator": generator,
            "frames": self.frames,
            "edges": [e.to_dict() for e in self.edges],
            "lookups": [lk.to_dict() for lk in self.lookups],
            "partial_edges": [pe.to_dict() for pe in self.partial_edges],
            **({"data_frames": [d.to_dict() for d in self.data_frames]} if self.data_frames else {}),
            "subsystems": self.subsystems,
            **({"variants": [v.to_dict() for v in self.variants]} if self.variants else {}),
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
            variants = [Variant.from_dict(v) for v in data.get("variants") or ()]
            partial = [
                PartialEdge(_frame_or_none(pe.get("parent")), _frame_or_none(pe.get("child")), str(pe["kind"]),
                            Location(**pe["location"]) if pe.get("location") else None)
                for pe in data.get("partial_edges") or ()
            ]  # fmt: skip
            data_frames = [
                DataFrame(str(d["frame"]), str(d.get("type") or ""), Location(**d["location"]) if d.get("location") else None)
                for d in data.get("data_frames") or ()
            ]
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
            raise ExpectedTreeError(f"{origin}: malformed entry: {exc}") from None
        return cls(edges, lookups, list(data.get("subsystems") or ()), variants, partial, data_frames)

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
