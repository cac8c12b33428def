"""Frame conventions: what a frame is from its name, which axes it must have, REP-105 order.

The rules come from REP-103 (axes), REP-105 (map/odom/base_link), REP-120 and
MAVROS practice (``_ned``/``_frd``); see docs/frame-conventions.md in the shared
docs. Users extend or override them with a YAML mapping (see ``Conventions.from_dict``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Mapping

from .rotations import FLU, FRD, NED, RDF, AxisTriple, OrthoRotation
from .yamlfile import read_yaml

# Class names. World classes carry an REP-105 order level; axes are those REP-103
# prescribes. "other" frames are body-fixed and FLU by REP-103.
EARTH, MAP, ODOM, BASE = "earth", "map", "odom", "base"
OPTICAL, NED_CLASS, FRD_CLASS, SENSOR, OTHER = "optical", "ned", "frd", "sensor", "other"
WORLD_CLASSES = frozenset({EARTH, MAP, ODOM})


@dataclass(frozen=True)
class FrameClass:
    name: str
    patterns: tuple[str, ...]
    axes: AxisTriple | None
    order: int | None = None  # REP-105 level: earth 0, map 1, odom 2, base 3
    description: str = ""

    def matches(self, base: str) -> bool:
        return any(re.search(p, base) for p in self.patterns)


# Order matters: the first class whose pattern matches wins.
DEFAULT_CLASSES: tuple[FrameClass, ...] = (
    FrameClass(OPTICAL, (r"_optical(_frame|_link)?$", r"^optical(_frame)?$"), RDF, None, "REP-103 optical frame"),
    FrameClass(NED_CLASS, (r"_ned$",), NED, None, "REP-103 NED frame"),
    FrameClass(FRD_CLASS, (r"_frd$",), FRD, None, "FRD body frame (MAVROS/PX4 practice)"),
    FrameClass(EARTH, (r"^(earth|world|enu)$",), FLU, 0, "REP-105 earth frame"),
    FrameClass(MAP, (r"^map$",), FLU, 1, "REP-105 map frame"),
    FrameClass(ODOM, (r"^odom$",), FLU, 2, "REP-105 odom frame"),
    FrameClass(BASE, (r"^base_(link|footprint|stabilized)$",), FLU, 3, "REP-105 body frame"),
    FrameClass(
        SENSOR,
        (
            r"(camera|cam\b|cam_|laser|lidar|scan|velodyne|ouster|hokuyo|rplidar|imu|gps|gnss|navsat"
            r"|sonar|ultrasonic|radar|kinect|realsense|depth|rgb)",
        ),
        FLU,
        None,
        "REP-103 sensor body frame",
    ),
)

_ORDER_NAMES = r"earth|world|map|odom|base_link|base_footprint|base_stabilized"
# A robot prefix ("robot1/", "robot1_", "/ns/robot1/") and/or numeric suffix ("map_1").
# Frame names and edges classified, cached: more than a monitor's max_edges (10000), so a full tree
# is classified once, not on every evaluation, and bounded, so churning names cannot grow it.
FRAME_CACHE = 16384
_ORDER_RE = re.compile(rf"^(?P<prefix>.*[/_])?(?P<base>{_ORDER_NAMES})(?P<suffix>_\d+)?$")


@dataclass(frozen=True)
class FrameInfo:
    name: str
    cls: FrameClass
    robot: str  # prefix + suffix that scopes REP-105 order ("" for the global frames)
    base: str  # the name without the robot prefix/suffix

    @property
    def axes(self) -> AxisTriple | None:
        return self.cls.axes

    @property
    def order(self) -> int | None:
        return self.cls.order


@dataclass(frozen=True)
class ExpectedAxes:
    """What a parent -> child rotation must be by convention, and why."""

    rotation: OrthoRotation
    parent_axes: AxisTriple
    child_axes: AxisTriple
    rule: str


@dataclass
class Conventions:
    classes: tuple[FrameClass, ...] = DEFAULT_CLASSES
    explicit: Mapping[str, str] = field(default_factory=dict)  # frame name -> class name

    def __post_init__(self) -> None:
        by_name = {c.name for c in self.classes}
        bad = {f: c for f, c in self.explicit.items() if c not in by_name}
        if bad:
            raise ValueError(f"frames assigned to unknown classes: {bad}; classes are {sorted(by_name)}")
        self._by_name = {c.name: c for c in self.classes}
        self._other = FrameClass(OTHER, (), FLU, None, "REP-103 body frame")
        self.classify = lru_cache(maxsize=FRAME_CACHE)(self._classify)  # type: ignore[method-assign]
        self.expected_rotation = lru_cache(maxsize=FRAME_CACHE)(self._expected_rotation)  # type: ignore[method-assign]

    @classmethod
    def from_dict(cls, data: Mapping[str, Any] | None) -> Conventions:
        """Build from YAML data.

        ``classes``: ``{name: {patterns: [regex...], axes: "RDF", order: 1, extend: true}}``;
        with ``extend: true`` (default for existing names) the patterns are added to the
        built-in ones, else they replace them. ``frames``: ``{frame_name: class_name}``.
        """
        data = data or {}
        classes = {c.name: c for c in DEFAULT_CLASSES}
        order = [c.name for c in DEFAULT_CLASSES]
        for name, spec in (data.get("classes") or {}).items():
            spec = spec or {}
            old = classes.get(name)
            patterns = tuple(spec.get("patterns", ()))
            for p in patterns:
                try:
                    re.compile(p)
                except re.error as exc:
                    raise ValueError(f"class {name!r}: pattern {p!r} is not a valid regular expression: {exc}") from None
            if old is not None and spec.get("extend", True):
                patterns = patterns + old.patterns
            axes_text = spec.get("axes", str(old.axes) if old and old.axes else None)
            classes[name] = FrameClass(
                name,
                patterns,
                AxisTriple.parse(axes_text) if axes_text else None,
                spec.get("order", old.order if old else None),
                spec.get("description", old.description if old else f"user class {name}"),
            )
            if name not in order:
                # user classes are tried before the built-in ones
                order.insert(0, name)
        return cls(tuple(classes[n] for n in order), dict(data.get("frames") or {}))

    @classmethod
    def load(cls, path: str | Path) -> Conventions:
        """From a YAML file; ValueError names the file and what is wrong with it."""
        data = read_yaml(path)
        if data is not None and not isinstance(data, Mapping):
            raise ValueError(f"{path}: expected a mapping with 'classes' and/or 'frames'")
        try:
            return cls.from_dict(data)
        except (ValueError, TypeError, AttributeError) as exc:
            raise ValueError(f"{path}: {exc}") from None

    def clear_caches(self) -> None:
        """Forget cached classifications (after many frames were forgotten: their memory can go back)."""
        for cached in (self.classify, self.expected_rotation):
            cached.cache_clear()  # type: ignore[union-attr]

    # --- classification ---------------------------------------------------------------
    def _classify(self, frame: str) -> FrameInfo:
        name = frame.lstrip("/")
        if frame in self.explicit:
            return FrameInfo(frame, self._by_name[self.explicit[frame]], "", name)
        m = _ORDER_RE.match(name)
        if m:
            base, robot = m.group("base"), (m.group("prefix") or "") + (m.group("suffix") or "")
        else:
            base, robot = name.rsplit("/", 1)[-1], ""
        for c in self.classes:
            if c.matches(base):
                return FrameInfo(frame, c, robot, base)
        return FrameInfo(frame, self._other, robot, base)

    # --- axis rules -------------------------------------------------------------------
    def expected_rotation(self, parent: str, child: str) -> ExpectedAxes | None:  # replaced by a cache per instance
        return self._expected_rotation(parent, child)

    def _expected_rotation(self, parent: str, child: str) -> ExpectedAxes | None:
        """The rotation convention demands for a rigid parent -> child edge, or None when free.

        Only relations fixed by convention are checked: a camera body and its optical
        frame, a frame and its NED/FRD twin, two REP-105 body frames. A sensor may be
        mounted at any angle on its body, so body -> sensor is free.
        """
        p, c = self.classify(parent), self.classify(child)
        if p.axes is None or c.axes is None:
            return None
        pn, cn = p.cls.name, c.cls.name
        twin = {NED_CLASS, FRD_CLASS}
        if pn in WORLD_CLASSES and cn not in twin and cn not in WORLD_CLASSES:
            return None  # world -> body is the robot's pose: any heading
        if cn == OPTICAL or pn == OPTICAL:
            if pn in WORLD_CLASSES or cn in WORLD_CLASSES:
                return None
            rule = "REP-103 optical frames are x right, y down, z forward"
            return ExpectedAxes(p.axes.rotation_to(c.axes), p.axes, c.axes, rule)
        if cn in twin or pn in twin:
            if cn in twin and pn in twin:
                return None
            world_side = pn in WORLD_CLASSES or cn in WORLD_CLASSES
            twin_axes = NED if world_side else FRD
            rule = (
                "REP-103 NED frames are x north, y east, z down relative to ENU"
                if world_side
                else "FRD body frames are x forward, y right, z down (MAVROS/PX4 practice)"
            )
            pa = twin_axes if pn in twin else p.axes
            ca = twin_axes if cn in twin else c.axes
            return ExpectedAxes(pa.rotation_to(ca), pa, ca, rule)
        if pn == BASE and cn == BASE:
            return ExpectedAxes(p.axes.rotation_to(c.axes), p.axes, c.axes, "REP-105 body frames are FLU (x forward, y left, z up)")
        return None


@lru_cache(maxsize=1)
def default_conventions() -> Conventions:
    """The REP conventions with no user file: one instance for the whole process (a Conventions builds its caches
    when made, and the defaults never change)."""
    return Conventions()
