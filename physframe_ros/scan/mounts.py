"""One fixed mount declared by two sources of a tree with different rotations.

A robot's sensor mount is often written twice: once as a joint of its description (shown in RViz, used by
MoveIt and by whoever runs robot_state_publisher) and once as a static transform in a bringup launch file. When the
two turn the sensor differently by more than a calibration ever moves it, one of them puts the frame wrong
(elderly_bot's lidar: a yaw of pi in its bringup launch file, a roll of pi in its URDF). tf1's
static_transform_publisher takes yaw pitch roll; a launch file that copied a description's ``rpy`` in its order is
the usual cause, and the message says so when the numbers show it.
"""

from __future__ import annotations

import math
from collections import defaultdict
from typing import Iterable, Iterator, Mapping

from ..core.checks import DESCRIPTION_SUFFIXES
from ..core.findings import Finding, Location, Severity
from ..core.rotations import format_rotation, quaternion_angle, quaternion_to_rpy
from ..core.tree import Edge

# further apart than any calibration moves a mount: an axis mixed up in one of the declarations
MOUNTS_DISAGREE = math.radians(30.0)


def _tilt(edge: Edge) -> float:
    """How far the child's z leaves the parent's z (0 upright, pi upside down): an upright mount turned about z
    is the common one, so of two disagreeing declarations the more tilted is reported."""
    assert edge.rotation is not None
    x, y, _, _ = edge.rotation
    return math.acos(max(-1.0, min(1.0, 1.0 - 2.0 * (x * x + y * y))))


def _swapped_order(a: Edge, b: Edge) -> bool:
    """One declaration's roll, pitch, yaw are the other's yaw, pitch, roll: tf1's static_transform_publisher
    arguments (yaw pitch roll) given a description's ``rpy`` in its order, or the reverse."""
    assert a.rotation is not None and b.rotation is not None
    ra, rb = quaternion_to_rpy(a.rotation), quaternion_to_rpy(b.rotation)
    return all(abs(u - v) < 1e-3 for u, v in zip(ra, reversed(rb)))


def mount_disagreements(edges: Iterable[Edge], loads: Mapping[str, set[str]]) -> Iterator[Finding]:
    """Each fixed parent -> child edge that a launch file turns more than :data:`MOUNTS_DISAGREE` away from a robot
    description it loads (``loads``: each launch file -> the description files of the robots it loads or starts,
    macros included). Reported at the declaration tilted further from upright, else at the launch file's (the
    description is the robot's drawing, the launch file's a hand-typed copy of it)."""
    groups: dict[tuple[str, str], list[Edge]] = defaultdict(list)
    for e in edges:
        loc = e.rotation_location
        # a description's movable joint turns: only its fixed ones are mounts; tf1's static_transform_publisher
        # (on /tf) is a mount too
        if e.rotation is not None and loc is not None and e.parent != e.child and (e.static or not _described(e)):
            groups[(e.parent, e.child)].append(e)
    for (parent, child), group in groups.items():
        # only a launch file and what it loads are one robot's: a package's two robot models (NAO and Pepper), or a
        # simulation launch file beside the hardware's description, may turn one frame name differently by design
        group.sort(key=_where)
        pair = next(((d, w) for w in group if _where(w).file in loads for d in group
                     if _where(d).file in loads[_where(w).file]
                     and quaternion_angle(d.rotation, w.rotation) > MOUNTS_DISAGREE), None)  # type: ignore[arg-type]
        if pair is None:
            continue
        first, other = pair
        bad, good = (first, other) if _tilt(first) > _tilt(other) + 1e-6 else (other, first)
        angle = math.degrees(quaternion_angle(bad.rotation, good.rotation))  # type: ignore[arg-type]
        why = ""
        if _swapped_order(bad, good):
            why = ("; the one's roll, pitch, yaw are the other's yaw, pitch, roll: tf's static_transform_publisher takes "
                   "yaw pitch roll, a robot description roll pitch yaw")
        yield Finding(
            "INCORRECT_TRANSFORM",
            f"{parent} -> {child} is turned by {format_rotation(bad.rotation)} here, but by {format_rotation(good.rotation)} "  # type: ignore[arg-type]
            f"at {_where(good)}: {angle:.0f} degrees apart, more than a calibration moves a mount, so one of the two puts "
            f"'{child}' wrong (whichever a running system publishes last wins in tf2){why}",
            (parent, child), _where(bad), severity=Severity.WARNING)


def _described(edge: Edge) -> bool:
    return _where(edge).file.endswith(DESCRIPTION_SUFFIXES)


def _where(edge: Edge) -> Location:
    loc = edge.rotation_location
    assert loc is not None
    return loc
