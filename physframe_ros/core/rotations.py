"""Rotations: the 24 orthogonal rotations (PhysFrame's DirSwitch abstraction) and conversions.

Conventions used throughout the package:

* quaternions are Hamilton, ordered ``(x, y, z, w)`` as in ROS messages;
* a matrix ``R`` is a tuple of three rows; the transform ``parent -> child``
  holds the child's orientation in the parent, so column ``i`` of ``R`` is the
  child's axis ``i`` written in parent coordinates;
* roll/pitch/yaw are fixed-axis X, then Y, then Z: ``R = Rz(yaw) Ry(pitch) Rx(roll)``,
  which is URDF ``rpy``, tf2 ``setRPY`` and static_transform_publisher's
  ``yaw pitch roll`` arguments.

An orthogonal rotation is written as in the paper: ``<x,-z,y>`` lists, row by
row, the signed column that holds the non-zero entry (Rx(90deg) is
``[[1,0,0],[0,0,-1],[0,1,0]]`` = ``<x,-z,y>``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from itertools import permutations, product
from typing import Iterable, Sequence

Quaternion = tuple[float, float, float, float]
Matrix = tuple[tuple[float, float, float], tuple[float, float, float], tuple[float, float, float]]

#: Largest angle (radians) between a rotation and an orthogonal one for the
#: rotation to still count as that orthogonal rotation (about 2.9 degrees:
#: survives calibration noise, rejects deliberate tilts).
DEFAULT_TOLERANCE = 0.05

_AXIS_NAMES = ("x", "y", "z")


@dataclass(frozen=True, order=True)
class OrthoRotation:
    """One of the 24 proper rotations whose matrix is a signed permutation.

    ``rows[i]`` is the signed, 1-based column of the non-zero entry of row ``i``
    (``-3`` means ``-1`` in column 3).
    """

    rows: tuple[int, int, int]

    def __post_init__(self) -> None:
        cols = sorted(abs(r) for r in self.rows)
        if cols != [1, 2, 3]:
            raise ValueError(f"not a signed permutation: {self.rows}")
        if _det(self.matrix()) != 1:
            raise ValueError(f"{self.rows} is a reflection, not a rotation")

    # --- construction -------------------------------------------------------------
    @classmethod
    def parse(cls, text: str) -> OrthoRotation:
        """Parse the paper's notation, e.g. ``"<x,-z,y>"``."""
        parts = [p.strip() for p in text.strip().strip("<>").split(",")]
        if len(parts) != 3:
            raise ValueError(f"expected three axes in {text!r}")
        rows = []
        for part in parts:
            sign = -1 if part.startswith("-") else 1
            name = part.lstrip("+-")
            if name not in _AXIS_NAMES:
                raise ValueError(f"unknown axis {part!r} in {text!r}")
            rows.append(sign * (_AXIS_NAMES.index(name) + 1))
        return cls((rows[0], rows[1], rows[2]))

    @classmethod
    def from_matrix(cls, m: Sequence[Sequence[float]], tolerance: float = DEFAULT_TOLERANCE) -> OrthoRotation | None:
        """Abstract a rotation matrix; None (the paper's top) when it is not orthogonal."""
        rows: list[int] = []
        for row in m:
            j = max(range(3), key=lambda k: abs(row[k]))
            rows.append((j + 1) if row[j] > 0 else -(j + 1))
        if sorted(abs(r) for r in rows) != [1, 2, 3]:
            return None
        candidate = (rows[0], rows[1], rows[2])
        exact = _signed_perm_matrix(candidate)
        if _det(exact) != 1:
            return None
        # angle between m and the candidate: trace(C^T m) = 1 + 2 cos(angle)
        trace = sum(exact[i][j] * m[i][j] for i in range(3) for j in range(3))
        if not math.isfinite(trace):
            return None
        angle = math.acos(max(-1.0, min(1.0, (trace - 1.0) / 2.0)))
        return cls(candidate) if angle <= tolerance else None

    @classmethod
    def from_quaternion(cls, q: Sequence[float], tolerance: float = DEFAULT_TOLERANCE) -> OrthoRotation | None:
        norm = math.sqrt(sum(c * c for c in q))
        if not math.isfinite(norm) or norm < 1e-9:
            return None
        return cls.from_matrix(quaternion_to_matrix(q), tolerance)

    @classmethod
    def from_rpy(cls, roll: float, pitch: float, yaw: float, tolerance: float = DEFAULT_TOLERANCE) -> OrthoRotation | None:
        return cls.from_matrix(rpy_to_matrix(roll, pitch, yaw), tolerance)

    # --- views ------------------------------------------------------------------------
    def matrix(self) -> tuple[tuple[int, ...], ...]:
        return _signed_perm_matrix(self.rows)

    def quaternion(self) -> Quaternion:
        """The unit quaternion with w >= 0 (first non-zero component positive when w = 0)."""
        return canonical_quaternion(matrix_to_quaternion(self.matrix()))

    def rpy(self) -> tuple[float, float, float]:
        return matrix_to_rpy(self.matrix())

    def __str__(self) -> str:
        return "<" + ",".join(("-" if r < 0 else "") + _AXIS_NAMES[abs(r) - 1] for r in self.rows) + ">"

    def __repr__(self) -> str:
        return f"OrthoRotation({str(self)!r})"

    # --- algebra ----------------------------------------------------------------------
    def __matmul__(self, other: OrthoRotation) -> OrthoRotation:
        """Matrix product ``self · other`` (apply ``other`` first when rotating vectors)."""
        rows = []
        for r in self.rows:
            o = other.rows[abs(r) - 1]
            rows.append(o if r > 0 else -o)
        return OrthoRotation((rows[0], rows[1], rows[2]))

    def inverse(self) -> OrthoRotation:
        rows = [0, 0, 0]
        for i, r in enumerate(self.rows):
            rows[abs(r) - 1] = (i + 1) if r > 0 else -(i + 1)
        return OrthoRotation((rows[0], rows[1], rows[2]))

    def apply(self, axes: AxisTriple) -> AxisTriple:
        """The child's axis directions given the parent's, for a parent -> child rotation."""
        out = []
        for col in range(3):
            row = next(i for i, r in enumerate(self.rows) if abs(r) == col + 1)
            sign = 1 if self.rows[row] > 0 else -1
            out.append(sign * axes.dirs[row])
        return AxisTriple((out[0], out[1], out[2]))


def _signed_perm_matrix(rows: tuple[int, int, int]) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple((1 if r > 0 else -1) if abs(r) == j + 1 else 0 for j in range(3)) for r in rows)


def _det(m: Sequence[Sequence[float]]) -> float:
    return (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )


IDENTITY = OrthoRotation((1, 2, 3))


def _all_rotations() -> tuple[OrthoRotation, ...]:
    out = []
    for perm in permutations((1, 2, 3)):
        for signs in product((1, -1), repeat=3):
            rows = (perm[0] * signs[0], perm[1] * signs[1], perm[2] * signs[2])
            if _det(_signed_perm_matrix(rows)) == 1:
                out.append(OrthoRotation(rows))
    return tuple(sorted(out))


#: The 24 orthogonal rotations.
ALL_ROTATIONS: tuple[OrthoRotation, ...] = _all_rotations()


# --- axis triples --------------------------------------------------------------------
# Directions are signed axes of one reference body basis: forward=+1, left=+2, up=+3.
# Earth-fixed letters map onto the same basis (east=forward, north=left), which is
# how REP-103 lines up ENU world frames with FLU body frames.
_DIR_LETTERS = {1: "F", -1: "B", 2: "L", -2: "R", 3: "U", -3: "D"}
_LETTER_DIRS = {"F": 1, "B": -1, "L": 2, "R": -2, "U": 3, "D": -3, "E": 1, "W": -1, "N": 2, "S": -2}
DIR_WORDS = {1: "forward", -1: "back", 2: "left", -2: "right", 3: "up", -3: "down"}


@dataclass(frozen=True)
class AxisTriple:
    """Directions of a frame's x, y and z axes, e.g. FLU (x forward, y left, z up)."""

    dirs: tuple[int, int, int]

    @classmethod
    def parse(cls, name: str) -> AxisTriple:
        name = name.strip().upper()
        if len(name) != 3 or any(c not in _LETTER_DIRS for c in name):
            raise ValueError(f"axis triple {name!r} is not three letters of F/B/L/R/U/D (or E/W/N/S)")
        dirs = tuple(_LETTER_DIRS[c] for c in name)
        triple = cls((dirs[0], dirs[1], dirs[2]))
        if sorted(abs(d) for d in triple.dirs) != [1, 2, 3]:
            raise ValueError(f"axis triple {name!r} repeats a direction")
        if _det(_signed_perm_matrix(triple.dirs)) != 1:
            raise ValueError(f"axis triple {name!r} is left-handed (REP-103 frames are right-handed)")
        return triple

    def __str__(self) -> str:
        return "".join(_DIR_LETTERS[d] for d in self.dirs)

    def describe(self) -> str:
        return ", ".join(f"{a} {DIR_WORDS[d]}" for a, d in zip(_AXIS_NAMES, self.dirs))

    def rotation_to(self, other: AxisTriple) -> OrthoRotation:
        """The parent -> child rotation that turns frame axes ``self`` into ``other``."""
        # R_ref_self has columns = self's axes; R = R_ref_self^T · R_ref_other.
        a = OrthoRotation(_columns_to_rows(self.dirs))
        b = OrthoRotation(_columns_to_rows(other.dirs))
        return a.inverse() @ b


def _columns_to_rows(cols: tuple[int, int, int]) -> tuple[int, int, int]:
    """Rows notation of the matrix whose column i is the signed reference axis cols[i]."""
    rows = [0, 0, 0]
    for i, c in enumerate(cols):
        rows[abs(c) - 1] = (i + 1) if c > 0 else -(i + 1)
    return (rows[0], rows[1], rows[2])


FLU = AxisTriple.parse("FLU")
RDF = AxisTriple.parse("RDF")
FRD = AxisTriple.parse("FRD")
ENU = AxisTriple.parse("ENU")
NED = AxisTriple.parse("NED")


# --- continuous conversions -------------------------------------------------------
def quaternion_to_matrix(q: Sequence[float]) -> Matrix:
    x, y, z, w = q
    n = x * x + y * y + z * z + w * w
    s = 2.0 / n if n > 0 else 0.0
    xx, yy, zz = x * x * s, y * y * s, z * z * s
    xy, xz, yz = x * y * s, x * z * s, y * z * s
    wx, wy, wz = w * x * s, w * y * s, w * z * s
    return (
        (1.0 - yy - zz, xy - wz, xz + wy),
        (xy + wz, 1.0 - xx - zz, yz - wx),
        (xz - wy, yz + wx, 1.0 - xx - yy),
    )


def matrix_to_quaternion(m: Sequence[Sequence[float]]) -> Quaternion:
    """Shepperd's method: numerically stable for every rotation."""
    trace = m[0][0] + m[1][1] + m[2][2]
    if trace > 0:
        s = 2.0 * math.sqrt(trace + 1.0)
        return ((m[2][1] - m[1][2]) / s, (m[0][2] - m[2][0]) / s, (m[1][0] - m[0][1]) / s, 0.25 * s)
    if m[0][0] > m[1][1] and m[0][0] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[0][0] - m[1][1] - m[2][2])
        return (0.25 * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s, (m[2][1] - m[1][2]) / s)
    if m[1][1] > m[2][2]:
        s = 2.0 * math.sqrt(1.0 + m[1][1] - m[0][0] - m[2][2])
        return ((m[0][1] + m[1][0]) / s, 0.25 * s, (m[1][2] + m[2][1]) / s, (m[0][2] - m[2][0]) / s)
    s = 2.0 * math.sqrt(1.0 + m[2][2] - m[0][0] - m[1][1])
    return ((m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25 * s, (m[1][0] - m[0][1]) / s)


def canonical_quaternion(q: Sequence[float]) -> Quaternion:
    """Normalise and pick the sign with w >= 0 (q and -q are the same rotation)."""
    n = math.sqrt(sum(c * c for c in q))
    x, y, z, w = (_clean(c / n) for c in q)
    # the sign is chosen on the rounded values, so noise rounded to zero cannot decide it
    for c in (w, x, y, z):
        if c:
            return (-x or 0.0, -y or 0.0, -z or 0.0, -w or 0.0) if c < 0 else (x, y, z, w)
    return (x, y, z, w)


def _clean(v: float) -> float:
    """Round away float noise so that printed quaternions read 0.5, not 0.49999999999999994."""
    r = round(v, 12)
    return 0.0 if r == 0 else r


def rpy_to_matrix(roll: float, pitch: float, yaw: float) -> Matrix:
    cr, sr = math.cos(roll), math.sin(roll)
    cp, sp = math.cos(pitch), math.sin(pitch)
    cy, sy = math.cos(yaw), math.sin(yaw)
    return (
        (cy * cp, cy * sp * sr - sy * cr, cy * sp * cr + sy * sr),
        (sy * cp, sy * sp * sr + cy * cr, sy * sp * cr - cy * sr),
        (-sp, cp * sr, cp * cr),
    )


def rpy_to_quaternion(roll: float, pitch: float, yaw: float) -> Quaternion:
    """tf2 ``setRPY(roll, pitch, yaw)``."""
    cr, sr = math.cos(roll / 2), math.sin(roll / 2)
    cp, sp = math.cos(pitch / 2), math.sin(pitch / 2)
    cy, sy = math.cos(yaw / 2), math.sin(yaw / 2)
    return (
        sr * cp * cy - cr * sp * sy,
        cr * sp * cy + sr * cp * sy,
        cr * cp * sy - sr * sp * cy,
        cr * cp * cy + sr * sp * sy,
    )


def ypr_to_quaternion(yaw: float, pitch: float, roll: float) -> Quaternion:
    """static_transform_publisher's ``yaw pitch roll`` argument order."""
    return rpy_to_quaternion(roll, pitch, yaw)


def matrix_to_rpy(m: Sequence[Sequence[float]]) -> tuple[float, float, float]:
    """Fixed-axis roll, pitch, yaw with pitch in [-pi/2, pi/2]; roll = 0 at gimbal lock."""
    sp = max(-1.0, min(1.0, -m[2][0]))
    pitch = math.asin(sp)
    if abs(sp) > 1.0 - 1e-9:
        roll = 0.0
        yaw = math.atan2(-m[0][1], m[1][1])
    else:
        roll = math.atan2(m[2][1], m[2][2])
        yaw = math.atan2(m[1][0], m[0][0])
    return (_clean(roll), _clean(pitch), _clean(yaw))


def quaternion_to_rpy(q: Sequence[float]) -> tuple[float, float, float]:
    return matrix_to_rpy(quaternion_to_matrix(q))


def quaternion_multiply(a: Sequence[float], b: Sequence[float]) -> Quaternion:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (
        aw * bx + ax * bw + ay * bz - az * by,
        aw * by - ax * bz + ay * bw + az * bx,
        aw * bz + ax * by - ay * bx + az * bw,
        aw * bw - ax * bx - ay * by - az * bz,
    )


def quaternion_from_axis_angle(axis: Sequence[float], angle: float) -> Quaternion:
    """Rotation by ``angle`` radians about ``axis`` (any non-zero length)."""
    n = math.sqrt(sum(c * c for c in axis))
    s = math.sin(angle / 2.0) / n
    return (axis[0] * s, axis[1] * s, axis[2] * s, math.cos(angle / 2.0))


def quaternion_inverse(q: Sequence[float]) -> Quaternion:
    x, y, z, w = q
    n = x * x + y * y + z * z + w * w
    return (-x / n, -y / n, -z / n, w / n)


def quaternion_angle(a: Sequence[float], b: Sequence[float]) -> float:
    """Angle (radians) of the rotation between two orientations."""
    na = math.sqrt(sum(c * c for c in a))
    nb = math.sqrt(sum(c * c for c in b))
    dot = abs(sum(x * y for x, y in zip(a, b))) / (na * nb)
    return 2.0 * math.acos(min(1.0, dot))


def compose(rotations: Iterable[OrthoRotation]) -> OrthoRotation:
    """Product of rotations in the given order (``compose([a, b]) == a @ b``)."""
    out = IDENTITY
    for r in rotations:
        out = out @ r
    return out


def format_rotation(q: Sequence[float]) -> str:
    """``quaternion (x, y, z, w) = (-0.5, 0.5, -0.5, 0.5), rpy = (-1.5708, 0, -1.5708)``."""
    cq = canonical_quaternion(q)
    r, p, y = quaternion_to_rpy(cq)
    return f"quaternion (x, y, z, w) = ({_num(cq[0])}, {_num(cq[1])}, {_num(cq[2])}, {_num(cq[3])}), rpy = ({_num(r)}, {_num(p)}, {_num(y)})"


def _num(v: float) -> str:
    text = f"{v:.4f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
