"""ROS-Industrial's frames at the end of a serial manipulator: ``flange`` has x out of the flange, ``tool0`` has z.

The ROS-Industrial support packages, and REP-199 (draft) after them, give every arm two frames fixed below its last
link: ``flange``, the attachment point for end effectors, in REP-103 axes (x out of the flange), and ``tool0``, the
all-zeros tool frame of the controller (z out of the flange). "Out of the flange" is along the axis of the arm's last
revolute joint, so a ``flange`` whose x, or a ``tool0`` whose z, lies across that axis is a missing quarter turn
(abb_experimental's IRB120 and kuka_experimental's KR210 ``tool0`` kept link_6's x-forward axes; kroshu's KR16 and
Motoman's GP4 ``flange`` carried the controller's tool rotation). Only the axis is judged, not its sign: vendors
write the last joint's axis either way round (KUKA's ``-1 0 0``).
"""

from __future__ import annotations

import math
import re
from typing import Callable

from ...core.findings import Finding, Location, Severity
from ...core.rotations import IDENTITY, OrthoRotation, quaternion_from_axis_angle, quaternion_multiply
from ...core.tree import Edge
from ..xml_lines import XmlNode

_AXES = ("x", "y", "z")
# the axis of each ROS-Industrial frame that points out of the flange
_OUT_OF_FLANGE = {"flange": 0, "tool0": 2}
_NAME = re.compile(r"(?:^|[_/\-])(flange|tool0)$")
_TURNING = frozenset({"revolute", "continuous"})
_TOLERANCE = 1e-3
_OFF_AXIS = 0.005  # metres: the flange and the all-zeros tool frame sit on the last joint's axis


def tool_frame_findings(robot: XmlNode, edges: list[Edge], joint_at: Callable[[XmlNode], Location], prefix: str = "") -> list[Finding]:
    """INCORRECT_TRANSFORM warnings for a ``flange`` or ``tool0`` whose axis out of the flange lies across the axis of
    the last revolute joint above it (through fixed joints with orthogonal rotations only). ``edges``: the robot's;
    ``joint_at``: where a joint is declared. A ``tool0`` below a ``flange`` already reported is left to that one."""
    joints = {prefix + joint_link(j, "child"): j for j in robot.findall("joint")}
    parent = {e.child: e for e in edges}
    out: dict[str, Finding] = {}
    for frame in sorted(joints, key=lambda f: f.endswith("tool0")):  # flanges first
        m = _NAME.search(frame)
        if m is None:
            continue
        found = _wrist(frame, joints, parent)
        if found is None:
            continue
        wrist, turn, joint, chain, origin = found
        axis = _axis(joint)
        want = _OUT_OF_FLANGE[m.group(1)]
        row = next(i for i, r in enumerate(turn.rows) if abs(r) == want + 1)  # the wrist's axis along the frame's
        if axis is None or row == axis or any(c in out for c in chain):
            continue
        if any(abs(origin[i]) > _OFF_AXIS for i in range(3) if i != axis):
            continue  # off the last joint's axis: a tool's own frame given the name (a grinder's tip), not the flange's
        own = parent[frame]
        out[frame] = Finding(
            "INCORRECT_TRANSFORM",
            f"ROS-Industrial frame '{frame}' has its {_AXES[want]} along {wrist}'s {_AXES[row]}, across the axis of the "
            f"arm's last joint '{joint.get('name')}' ({wrist}'s {_AXES[axis]}): ROS-Industrial robot descriptions "
            f"(REP-199) put {m.group(1)}'s {_AXES[want]} out of the flange, along that axis (flange: x, REP-103; tool0: "
            f"z, the controller's tool frame); {_fix(own, turn, want, axis, origin)}",
            (own.parent, frame), own.rotation_location or joint_at(joints[frame]), severity=Severity.WARNING,
            details={"out_of_flange": _AXES[want], "along": _AXES[row], "joint_axis": _AXES[axis]},
        )
    return list(out.values())


def joint_link(joint: XmlNode, tag: str) -> str:
    """The link a URDF joint's ``<parent>`` or ``<child>`` names ("" when none)."""
    el = joint.find(tag)
    return (el.get("link") or "").strip() if el is not None else ""


def _wrist(frame: str, joints: dict[str, XmlNode], parent: dict[str, Edge]
           ) -> tuple[str, OrthoRotation, XmlNode, list[str], tuple[float, float, float]] | None:
    """Up from ``frame`` through fixed joints to the child link of a revolute joint: that link, the fixed rotation
    from it down to ``frame``, the joint, the frames passed and where ``frame`` is in the link; None when the way is
    not fixed and orthogonal."""
    turn, cur, chain, origin = IDENTITY, frame, [frame], (0.0, 0.0, 0.0)
    for _ in range(len(parent) + 1):
        joint, e = joints.get(cur), parent.get(cur)
        if joint is None or e is None:
            return None
        if joint.get("type") in _TURNING:
            return (cur, turn, joint, chain, origin) if cur != frame else None
        step = OrthoRotation.from_quaternion(e.rotation, _TOLERANCE) if e.static and e.rotation is not None else None
        if step is None or e.translation is None:
            return None
        m, t = step.matrix(), e.translation
        origin = (t[0] + m[0][0] * origin[0] + m[0][1] * origin[1] + m[0][2] * origin[2],
                  t[1] + m[1][0] * origin[0] + m[1][1] * origin[1] + m[1][2] * origin[2],
                  t[2] + m[2][0] * origin[0] + m[2][1] * origin[1] + m[2][2] * origin[2])
        turn, cur = step @ turn, e.parent
        chain.append(cur)
    return None


def _axis(joint: XmlNode) -> int | None:
    """Which of its link's axes a joint's axis lies along, either way (URDF's default is x)."""
    el = joint.find("axis")
    try:
        v = [float(a) for a in (el.get("xyz") or "1 0 0").split()] if el is not None else [1.0, 0.0, 0.0]
    except ValueError:
        return None
    if len(v) != 3:
        return None
    i = max(range(3), key=lambda k: abs(v[k]))
    if abs(v[i]) < 1e-9 or any(abs(v[k]) > 1e-6 * abs(v[i]) for k in range(3) if k != i):
        return None
    return i


def _fix(own: Edge, turn: OrthoRotation, want: int, axis: int, origin: tuple[float, float, float]) -> str:
    """The frame's own joint turned a quarter turn so its axis ``want`` lies along the wrist's ``axis``, pointing the
    way the frame sits from the wrist's origin along it (out of the flange) when it sits off it, else the smaller turn."""
    if own.rotation is None:
        return "turn it a quarter turn"
    out = origin[axis]
    signs = (1,) if out > 1e-3 else (-1,) if out < -1e-3 else (1, -1)
    best: tuple[float, tuple[float, float, float]] | None = None
    for sign in signs:
        target = [0, 0, 0]
        target[axis] = sign
        local = [sum(turn.matrix()[k][i] * target[k] for k in range(3)) for i in range(3)]  # the target in the frame
        have = [0.0, 0.0, 0.0]
        have[want] = 1.0
        about = (have[1] * local[2] - have[2] * local[1], have[2] * local[0] - have[0] * local[2], have[0] * local[1] - have[1] * local[0])
        rotation = quaternion_multiply(own.rotation, quaternion_from_axis_angle(about, math.pi / 2))
        angle = 2 * math.acos(min(1.0, abs(rotation[3])))
        rpy = OrthoRotation.from_quaternion(rotation, _TOLERANCE)
        if rpy is not None and (best is None or angle < best[0] - 1e-9):
            best = (angle, rpy.rpy())
    if best is None:
        return "turn it a quarter turn"
    return f"its joint's rotation would be rpy=\"{' '.join(_angle(a) for a in best[1])}\""


def _angle(a: float) -> str:
    return "0" if abs(a) < 1e-9 else f"{a:.4f}".rstrip("0").rstrip(".")
