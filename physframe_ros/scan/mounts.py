"""One fixed mount declared by two sources of a tree with different rotations.

A robot's sensor mount is often written twice: once as a joint of its description (shown in RViz, used by
MoveIt and by whoever runs robot_state_publisher) and once as a static transform in a bringup launch file. When the
two turn the sensor differently by more than a calibration ever moves it, one of them puts the frame wrong
(elderly_bot's lidar: a yaw of pi in its bringup launch file, a roll of pi in its URDF). tf1's
static_transform_publisher takes yaw pitch roll; a launch file that copied a description's ``rpy`` in its order is
the usual cause, and the message says so when the numbers show it.

A simulated sensor's mount is written twice the same way: once as the sensor's ``<pose>`` in the description Gazebo
simulates, and once as the static transform a launch file gives the frame its data are stamped with (gz-sim's scoped
``<model>/<link>/<sensor>``, which no description defines, or a plugin's frame name). The simulator measures along the
pose; a static transform turned otherwise places every scan or IMU sample turned (ugv_description's lidar, given a
half turn in its sensor pose and none in the cartographer launch file's static transform).
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable, Iterator, Mapping

from ..core.checks import MODEL_SUFFIXES
from ..core.findings import Finding, Location, Severity
from ..core.rotations import IDENTITY, OrthoRotation, Quaternion, format_rotation, quaternion_angle, quaternion_to_rpy
from ..core.tree import Edge
from .description.camera_plugins import fixed_rotation
from .model import FileFacts
from .subsystems import LAUNCH_KINDS, Subsystem

# further apart than any calibration moves a mount: an axis mixed up in one of the declarations
MOUNTS_DISAGREE = math.radians(30.0)


@dataclass(frozen=True)
class _Mount:
    """One declaration of a fixed edge whose rotation is known, and where that rotation is written."""

    rotation: Quaternion
    at: Location

    @property
    def tilt(self) -> float:
        """How far the child's z leaves the parent's z (0 upright, pi upside down): an upright mount turned about z
        is the common one, so of two disagreeing declarations the more tilted is reported."""
        x, y, _, _ = self.rotation
        return math.acos(max(-1.0, min(1.0, 1.0 - 2.0 * (x * x + y * y))))


def _swapped_order(a: _Mount, b: _Mount) -> bool:
    """One declaration's roll, pitch, yaw are the other's yaw, pitch, roll: tf1's static_transform_publisher
    arguments (yaw pitch roll) given a description's ``rpy`` in its order, or the reverse."""
    ra, rb = quaternion_to_rpy(a.rotation), quaternion_to_rpy(b.rotation)
    return all(abs(u - v) < 1e-3 for u, v in zip(ra, reversed(rb)))


def mount_disagreements(edges: Iterable[Edge], loads: Mapping[str, set[str]]) -> Iterator[Finding]:
    """Each fixed parent -> child edge that a launch file turns more than :data:`MOUNTS_DISAGREE` away from a robot
    description it loads (``loads``: each launch file -> the description files of the robots it loads or starts,
    macros included). Reported at the declaration tilted further from upright, else at the launch file's (the
    description is the robot's drawing, the launch file's a hand-typed copy of it)."""
    groups: dict[tuple[str, str], list[_Mount]] = defaultdict(list)
    for e in edges:
        loc = e.rotation_location
        # a description's movable joint turns: only its fixed ones are mounts; tf1's static_transform_publisher
        # (on /tf) is a mount too
        if e.rotation is not None and loc is not None and e.parent != e.child and (e.static or not loc.file.endswith(MODEL_SUFFIXES)):
            groups[(e.parent, e.child)].append(_Mount(e.rotation, loc))
    for (parent, child), group in groups.items():
        # only a launch file and what it loads are one robot's: a package's two robot models (NAO and Pepper), or a
        # simulation launch file beside the hardware's description, may turn one frame name differently by design
        group.sort(key=lambda m: m.at)
        pair = next(((d, w) for w in group if w.at.file in loads for d in group
                     if d.at.file in loads[w.at.file] and quaternion_angle(d.rotation, w.rotation) > MOUNTS_DISAGREE), None)
        if pair is None:
            continue
        first, other = pair
        bad, good = (first, other) if first.tilt > other.tilt + 1e-6 else (other, first)
        angle = math.degrees(quaternion_angle(bad.rotation, good.rotation))
        why = ""
        if _swapped_order(bad, good):
            why = ("; the one's roll, pitch, yaw are the other's yaw, pitch, roll: tf's static_transform_publisher takes "
                   "yaw pitch roll, a robot description roll pitch yaw")
        yield Finding(
            "INCORRECT_TRANSFORM",
            f"{parent} -> {child} is turned by {format_rotation(bad.rotation)} here, but by {format_rotation(good.rotation)} "
            f"at {good.at}: {angle:.0f} degrees apart, more than a calibration moves a mount, so one of the two puts "
            f"'{child}' wrong (whichever a running system publishes last wins in tf2){why}",
            (parent, child), bad.at, severity=Severity.WARNING)


def robots_loaded(facts: Mapping[str, FileFacts], subsystems: Iterable[Subsystem], kinds: Mapping[str, str]) -> dict[str, set[str]]:
    """Each launch file -> the description files (macros included) of the robots it loads as robot_description or
    starts with the other launch files of its system: the ``loads`` of :func:`mount_disagreements`."""
    def described(edges: Iterable[Edge]) -> set[str]:
        return {e.location.file for e in edges if e.location is not None and e.location.file.endswith(MODEL_SUFFIXES)}
    out: dict[str, set[str]] = {}
    for ff in facts.values():
        if ff.uses and kinds.get(ff.path) in LAUNCH_KINDS:
            out[ff.path] = set().union(*(described(facts[p].edges) for p in ff.uses if p in facts), described(ff.edges))
    for sub in subsystems:
        robots = described(sub.edges)
        for path in sub.files if robots else ():
            if kinds.get(path) in LAUNCH_KINDS:
                out.setdefault(path, set()).update(robots)
    return out


def simulated_sensor_mounts(edges: Iterable[Edge], files: Iterable[FileFacts]) -> Iterator[Finding]:
    """INCORRECT_TRANSFORM at each fixed transform of a launch file or code whose child is the frame a simulated sensor
    stamps its data with, turned otherwise than the description mounts the sensor relative to the transform's parent
    (the sensor's link, or a frame the description fixes to it); only rotations among the 24 are compared."""
    sensors = [(ff.edges, s) for ff in files for s in ff.sim_sensors]
    if not sensors:
        return
    for e in edges:
        loc = e.rotation_location
        published = OrthoRotation.from_quaternion(e.rotation) if e.rotation is not None else None
        if published is None or loc is None or loc.file.endswith(MODEL_SUFFIXES):
            continue
        for described, s in sensors:
            turn = fixed_rotation(e.parent, s.link, described) if s.stamps(e.child) else None
            mounted = turn @ s.mount if turn is not None else published
            if turn is None or mounted == published:
                continue
            via = "" if e.parent == s.link else (f", which the description fixes {_turned(turn)} under '{e.parent}': "
                                                 f"{_turned(mounted)} from '{e.parent}'")
            yield Finding(
                "INCORRECT_TRANSFORM",
                f"{e.parent} -> {e.child} is turned {_turned(published)} here, but '{e.child}' is the frame the simulated "
                f"{s.type} sensor '{s.name}' ({s.location}) stamps its data with, and the description mounts that sensor "
                f"{_turned(s.mount)} on '{s.link}'{via}. The simulator measures along "
                f"the sensor's pose, so every sample is placed turned by {published @ mounted.inverse()} from where it was "
                "measured; give the static transform the sensor's rotation",
                (e.parent, e.child), loc)
            break


def _turned(rot: OrthoRotation) -> str:
    return "with no rotation" if rot == IDENTITY else f"by {rot} (rpy {', '.join(f'{a:.4g}' for a in rot.rpy())})"
