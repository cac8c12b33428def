"""SDFormat's ``<pose>``: six numbers x y z roll pitch yaw (radians, or degrees with ``degrees="true"``), or seven
with ``rotation_format="quat_xyzw"``. Read for model frames and for the sensors of models and ``<gazebo>``
extensions."""

from __future__ import annotations

import math

from ...core.rotations import quaternion_to_matrix, rpy_to_matrix
from ..xml_lines import XmlNode

Pose = tuple[tuple[tuple[float, ...], ...], tuple[float, float, float]]  # rotation matrix, translation
IDENTITY_POSE: Pose = (((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)), (0.0, 0.0, 0.0))


def read_pose(el: XmlNode | None) -> tuple[Pose | None, str | None]:
    """The pose as written; no <pose> is the identity, one that cannot be read is unknown (None)."""
    if el is None or not el.text.strip():
        return IDENTITY_POSE, None
    try:
        v = [float(x) for x in el.text.split()]
    except ValueError:
        return None, f"<pose> '{el.text.strip()}' is not numbers; the pose is unknown"
    quat = (el.get("rotation_format") or "") == "quat_xyzw"
    if len(v) != (7 if quat else 6):
        return None, f"<pose> '{el.text.strip()}' needs {7 if quat else 6} numbers; the pose is unknown"
    if not all(math.isfinite(x) for x in v):  # `1e3080` is inf: no angle, no rotation
        return None, f"<pose> '{el.text.strip()}' holds a number that is not finite; the pose is unknown"
    if quat:
        rot = quaternion_to_matrix(v[3:7])
    else:
        r = v[3:6]
        if (el.get("degrees") or "").lower() in ("true", "1"):
            r = [math.radians(a) for a in r]
        rot = rpy_to_matrix(r[0], r[1], r[2])
    return (rot, (v[0], v[1], v[2])), None
