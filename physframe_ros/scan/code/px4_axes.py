"""PX4's world-frame positions turned by the body-frame flip.

px4_msgs' local position, odometry and setpoints are in PX4's local world frame, NED: x north, y east, z down.
ROS's world frames are ENU, so a position becomes (y, x, -z). Negating y and z, (x, -y, -z), is the FRD -> FLU flip
of body-frame vectors (angular rates, body velocities): applied to a NED position it gives north-west-up, a map
mirrored and turned a quarter turn (the PX4 offboard visualizer's ``vehicle_local_position[1] = -msg.y``, copied
into px4-mpc, until both were fixed to (y, x, -z)). Read from the file's text: three consecutive component
assignments from one PX4 world-frame field triple.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...core.findings import Finding, Location, Severity

# PX4 messages whose position (and velocity) fields are in the local NED world frame
_WORLD_MESSAGES = re.compile(r"\b(?:VehicleLocalPosition|VehicleOdometry|TrajectorySetpoint)\b")
# `self.vehicle_local_position[1] = -msg.y`, `pose.position.y = -msg->y;`, `p[2] = -msg.position[2]`
_WRITE = re.compile(
    r"^[ \t]*(?P<target>[\w.\->]+?)\s*(?:\[\s*(?P<ti>[0-2])\s*\]|(?:\.|->)(?P<ta>[xyz]))\s*=\s*(?P<sign>-?)\s*"
    r"(?:(?:static_cast<\w+>|float|double)\s*\(\s*(?P<inner>-?)\s*)?"  # `static_cast<double>(-msg->position[2])`
    r"(?P<source>[\w.\->]+?)(?:\.|->)(?P<field>v?[xyz]|(?:position|velocity)\s*\[\s*[0-2]\s*\])\s*\)?\s*;?[ \t]*(?:(?:#|//).*)?$",
    re.MULTILINE,
)
_AXIS = {"x": 0, "y": 1, "z": 2}
_BODY_FLIP = ((0, 1), (1, -1), (2, -1))
_NED_TO_ENU = ((1, 1), (0, 1), (2, -1))
_AS_IS = ((0, 1), (1, 1), (2, 1))
# a stamped message's pose (`pose.position`, an Odometry's `pose.pose.position`), not the code's own variables
_ROS_POSITION = re.compile(r"\bpose\s*(?:\.|->)\s*(?:pose\s*(?:\.|->)\s*)?position$")


def _axis(field: str) -> tuple[str, int]:
    """``vy`` -> (velocity, 1); ``position[2]`` -> (position, 2)."""
    if "[" in field:
        kind, _, index = field.partition("[")
        return kind.strip(), int(index.strip(" ]"))
    return ("velocity" if field.startswith("v") else "position"), _AXIS[field[-1]]


def px4_flip_findings(text: str, path: str) -> Iterator[Finding]:
    """INCORRECT_TRANSFORM (warning) at each PX4 world-frame position or velocity written as (x, -y, -z), and, into a
    ROS message's pose, as it is or mirrored."""
    if "px4_msgs" not in text or _WORLD_MESSAGES.search(text) is None:
        return
    writes = list(_WRITE.finditer(text))
    for a, b, c in zip(writes, writes[1:], writes[2:]):
        if len({m.group("target") for m in (a, b, c)}) != 1 or len({m.group("source") for m in (a, b, c)}) != 1:
            continue
        targets = [int(m.group("ti")) if m.group("ti") is not None else _AXIS[m.group("ta")] for m in (a, b, c)]
        sources = [_axis(m.group("field")) for m in (a, b, c)]
        if targets != [0, 1, 2] or len({kind for kind, _ in sources}) != 1:
            continue
        mapping = tuple((axis, -1 if bool(m.group("sign")) != bool(m.group("inner")) else 1) for (_, axis), m in zip(sources, (a, b, c)))
        kind, target = sources[0][0], a.group("target")
        if mapping == _BODY_FLIP:
            how = ("as (x, -y, -z): PX4's local {kind} is NED (x north, y east, z down), and negating y and z is the FRD -> "
                   "FLU flip of body-frame vectors, which leaves it north-west-up")
        elif not _ROS_POSITION.search(target) or mapping == _NED_TO_ENU:
            continue  # only a ROS message's pose is judged further: code keeps NED in its own variables on purpose
        elif mapping == _AS_IS:
            how = "as it is: PX4's local {kind} is NED (x north, y east, z down), and a ROS pose's frame is ENU (REP-103)"
        elif _determinant(mapping) < 0:
            how = ("as ({axes}), a mirror image: no rotation turns NED into those axes (one axis flipped or two swapped "
                   "alone makes a left-handed frame)")
        else:
            continue
        axes = ", ".join(("-" if s < 0 else "") + "xyz"[i] for i, s in mapping)
        yield Finding(
            "INCORRECT_TRANSFORM",
            f"{target} is {a.group('source')}'s {kind} " + how.format(kind=kind, axes=axes)
            + "; in ROS's ENU world frames it is (y, x, -z)",
            (), Location(path, text.count("\n", 0, a.start()) + 1), severity=Severity.WARNING,
        )


def _determinant(mapping: tuple[tuple[int, int], ...]) -> int:
    """The determinant of a signed permutation (target i takes source axis mapping[i][0] times mapping[i][1])."""
    axes = [i for i, _ in mapping]
    inversions = sum(1 for i in range(3) for j in range(i + 1, 3) if axes[i] > axes[j])
    sign = -1 if inversions % 2 else 1
    for _, s in mapping:
        sign *= s
    return sign
