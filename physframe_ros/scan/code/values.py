"""Abstract values the code analyzers compute: rotations (PhysFrame's R12-R15), transforms, messages.

A value is a Python ``str`` (a frame id or other constant string), a ``float``, one of the
classes below, or ``None`` for anything not known statically. Both front ends (C++ through
tree-sitter, Python through ``ast``) evaluate into these, so the checks are written once.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field, replace
from typing import Iterable, Sequence, Union

from ...core.rotations import (
    Matrix,
    OrthoRotation,
    Quaternion,
    canonical_quaternion,
    matrix_to_quaternion,
    quaternion_to_matrix,
    rpy_to_matrix,
)
from ..frame_ids import snake_case
from .guards import Guard

# How far a constant matrix may be from orthonormal and still count as a rotation value.
_ORTHONORMAL_TOLERANCE = 1e-3


@dataclass(frozen=True)
class Rot:
    """A rotation as far as it is known.

    ``exact`` is the matrix when every factor is constant. ``ortho`` is the paper's
    abstraction: the orthogonal rotation of the constant factors (R12, R14), dropping
    factors that are not constant or not orthogonal (R15); None is the paper's top.
    ``written`` keeps a quaternion exactly as the code wrote it, for unit-length checks.
    """

    exact: Matrix | None = None
    ortho: OrthoRotation | None = None
    written: Quaternion | None = None
    # a full NED attitude: roll and pitch from the data and a compass heading as the yaw, built at heading_line
    heading: Heading | None = None
    heading_line: int = 0

    @property
    def partial(self) -> bool:
        """Known only through its constant factors (the R15 case)."""
        return self.exact is None and self.ortho is not None

    def quaternion(self) -> Quaternion | None:
        """The quaternion a message would carry, when the value is fully constant."""
        if self.written is not None:
            return self.written
        if self.exact is None or not _orthonormal(self.exact):
            return None
        return canonical_quaternion(matrix_to_quaternion(self.exact))


#: A rotation built from values not known statically (the paper's R13): typed top.
TOP_ROT = Rot()


def rot_from_matrix(m: Sequence[Sequence[float]]) -> Rot:
    """R12: a constant 3x3 (or the rotation block of a 4x4) abstracted to an orthogonal rotation."""
    if len(m) < 3 or any(len(row) < 3 for row in m[:3]):
        return TOP_ROT
    rows = tuple(tuple(float(v) for v in row[:3]) for row in m[:3])
    if not all(math.isfinite(v) for row in rows for v in row):
        return TOP_ROT
    exact: Matrix = (rows[0], rows[1], rows[2])  # type: ignore[assignment]
    return Rot(exact, OrthoRotation.from_matrix(exact) if _orthonormal(exact) else None)


def rot_from_quaternion(q: Sequence[float]) -> Rot:
    """``(x, y, z, w)`` as written; a zero or non-finite quaternion has no rotation value."""
    written = (float(q[0]), float(q[1]), float(q[2]), float(q[3]))
    norm = math.sqrt(sum(c * c for c in written))
    if not math.isfinite(norm) or norm < 1e-9:
        return Rot(written=written)
    exact = quaternion_to_matrix(written)
    return Rot(exact, OrthoRotation.from_matrix(exact), written)


def basis(rot: Rot) -> Rot:
    """The rotation a ``tf::Transform`` / ``tf2::Transform`` holds after ``setRotation(q)`` or ``Transform(q, v)``:
    LinearMath builds the basis with 2/|q|^2, so any non-zero quaternion becomes its unit rotation (a zero one
    stays invalid: the basis is NaN)."""
    return Rot(rot.exact, rot.ortho) if rot.written is not None and rot.exact is not None else rot


def rot_from_rpy(roll: float, pitch: float, yaw: float) -> Rot:
    """Fixed-axis roll, pitch, yaw: tf2 ``setRPY``, URDF ``rpy``, ``quaternion_from_euler``."""
    if not all(math.isfinite(v) for v in (roll, pitch, yaw)):
        return TOP_ROT
    return rot_from_matrix(rpy_to_matrix(roll, pitch, yaw))


def rot_from_axis_angle(angle: float, axis: Sequence[float]) -> Rot:
    """Rodrigues' formula; ``Eigen::AngleAxisd(angle, axis)`` and ``tf2::Quaternion(axis, angle)``."""
    n = math.sqrt(sum(c * c for c in axis))
    if not math.isfinite(angle) or not math.isfinite(n) or n < 1e-12:
        return TOP_ROT
    x, y, z = (c / n for c in axis)
    s = math.sin(angle / 2.0)
    return rot_from_matrix(quaternion_to_matrix((x * s, y * s, z * s, math.cos(angle / 2.0))))


#: The identity rotation (``setIdentity()``, ``Eigen::Matrix3d::Identity()``, ``np.eye(3)``).
IDENTITY_ROT = rot_from_quaternion((0.0, 0.0, 0.0, 1.0))


def rot_from_euler_axes(ai: float, aj: float, ak: float, axes: str) -> Rot:
    """transformations' ``euler_matrix(ai, aj, ak, axes)`` (and transforms3d's ``euler2mat``) in any of the 24
    conventions: ``s`` (static) turns about the fixed first axis first, R = Rk(ak) Rj(aj) Ri(ai); ``r`` (rotating)
    turns about the moving axes, R = Ri(ai) Rj(aj) Rk(ak). An unknown convention has no value (top)."""
    if len(axes) != 4 or axes[0] not in "sr" or any(a not in "xyz" for a in axes[1:]) or axes[1] == axes[2] or axes[2] == axes[3]:
        return TOP_ROT
    turns = [rot_from_rpy(*(angle if a == axis else 0.0 for a in "xyz")) for axis, angle in zip(axes[1:], (ai, aj, ak))]
    first, second, third = turns
    return rot_mul(rot_mul(third, second), first) if axes[0] == "s" else rot_mul(rot_mul(first, second), third)


def rot_mul(a: Rot, b: Rot) -> Rot:
    """R14 when both factors are typed, R15 when one is top; exact when both are constant."""
    if a.exact is not None and b.exact is not None:
        return rot_from_matrix(_matmul(a.exact, b.exact))
    if a.ortho is not None and b.ortho is not None:
        return Rot(ortho=a.ortho @ b.ortho)
    return Rot(ortho=a.ortho if a.ortho is not None else b.ortho)


def rot_inverse(a: Rot) -> Rot:
    """Inverse, which for a rotation is also its transpose (``.inverse()``, ``.t()``, ``inv()``)."""
    exact = None
    if a.exact is not None and _orthonormal(a.exact):
        m = a.exact
        exact = ((m[0][0], m[1][0], m[2][0]), (m[0][1], m[1][1], m[2][1]), (m[0][2], m[1][2], m[2][2]))
    return Rot(exact, a.ortho.inverse() if a.ortho is not None else None)


def _matmul(a: Matrix, b: Matrix) -> Matrix:
    rows = tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))
    return rows  # type: ignore[return-value]


def _orthonormal(m: Matrix) -> bool:
    for i in range(3):
        for j in range(3):
            dot = sum(m[k][i] * m[k][j] for k in range(3))
            if abs(dot - (1.0 if i == j else 0.0)) > _ORTHONORMAL_TOLERANCE:
                return False
    det = (
        m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1])
        - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0])
        + m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0])
    )
    return det > 0


@dataclass(frozen=True)
class Component:
    """One quaternion component (``q.x()``, ``q[0]``) of a rotation not known exactly."""

    rot: Rot
    axis: str  # "x", "y", "z" or "w"


def component(rot: Rot, axis: str) -> float | Component:
    q = rot.quaternion()
    if q is None:
        return Component(rot, axis)
    return q["xyzw".index(axis)]


# px4_msgs' attitude quaternions (VehicleOdometry.q, VehicleAttitude.q, VehicleAttitudeSetpoint.q_d): float[4], w first
PX4_QUATERNION_FIELDS = frozenset({"q", "q_d", "delta_q_reset"})


def px4_component(index: int) -> Component | None:
    """``msg->q[i]`` of a px4_msgs message: the quaternion component it holds (``q[0]`` is w)."""
    return Component(TOP_ROT, "wxyz"[index]) if 0 <= index < 4 else None


def component_order(comps: Sequence[Value]) -> str | None:
    """The axes, in slot order, when a quaternion's x, y, z, w slots take the components of one rotation in
    another order (``Quaternion(x=q[0], ..., w=q[3])`` with ``q`` w-first: "wxyz"); else None."""
    parts = [c for c in comps if isinstance(c, Component)]
    if len(parts) != 4 or len(comps) != 4 or len({c.rot for c in parts}) != 1:
        return None
    order = "".join(c.axis for c in parts)
    return order if sorted(order) == sorted("xyzw") and order != "xyzw" else None


def rot_from_components(comps: Sequence[Value]) -> Rot:
    """A quaternion's x, y, z, w as the code wrote them: constants, or the components of one rotation in order."""
    floats = [c for c in comps if isinstance(c, float)]
    if len(floats) == len(comps):
        return rot_from_quaternion(floats)
    parts = [c for c in comps if isinstance(c, Component)]
    if len(parts) == len(comps) and len({c.rot for c in parts}) == 1 and [c.axis for c in parts] == list("xyzw"):
        return parts[0].rot
    return TOP_ROT


@dataclass(frozen=True)
class QuatList:
    """A Python sequence holding a quaternion, in ``xyzw`` (tf_transformations) or ``wxyz`` (transforms3d) order."""

    rot: Rot
    order: str

    def item(self, index: int) -> float | Component | None:
        if not 0 <= index < 4:
            return None
        return component(self.rot, self.order[index])


@dataclass
class TfValue:
    """A transform object (``tf2::Transform``, ``tf::Transform``): rotation and origin."""

    rot: Rot | None = None
    origin: tuple[float, float, float] | None = None


@dataclass
class ListValue:
    """A list/vector the code fills (``transforms.push_back(t)``, ``[t1, t2]``)."""

    items: list[Value] = field(default_factory=list)


@dataclass(frozen=True)
class ParamRef:
    """``get_parameter("name")``: becomes the parameter's declared default when read as a string."""

    name: str


class _Unset:
    """A message field the code never assigned: empty for strings."""

    def __repr__(self) -> str:
        return "UNSET"


UNSET = _Unset()

# Message kinds the checks care about.
TRANSFORM, ODOMETRY, STAMPED = "transform", "odometry", "stamped"
#: A message of a type outside the list, checked like STAMPED once the code sets a ``header`` field of it.
HEADER_BY_USE = "header_by_use"
#: A message of a package not named ``*_msgs`` (px-ros-pkg's ``px_comm::OpticalFlow``): such packages also hold motor
#: outputs and RC channels, so it is checked like HEADER_BY_USE only once the code writes fields of it along two axes.
AXES_BY_USE = "axes_by_use"
_AXIS_NAME = re.compile(r"(?:^|[._])(?:\w+_)?([xyz])$")


def axes_written(fields: Iterable[str]) -> set[str]:
    """The axes the written field paths name: ``velocity_x``, ``attitude.y``, ``angular_velocity.z``."""
    return {m.group(1) for f in fields if (m := _AXIS_NAME.search(f)) is not None}
#: std_msgs Header held alone (``std_msgs::Header h;``): its fields are ``frame_id`` and ``stamp``.
HEADER = "header"
#: tf2_msgs TFMessage: its ``transforms`` list, published on /tf (or /tf_static), is a broadcast.
TF_MESSAGE = "tf_message"
#: realtime_tools ``RealtimePublisher<T>``: owns the message ``msg_`` it sends on ``unlockAndPublish()``.
REALTIME_PUBLISHER = "realtime_publisher"
#: a generate_parameter_library ``Params`` struct: its fields hold the YAML schema's defaults.
PARAMS = "params"


def tf_message(type_name: str, name: str, line: int, local: bool = True) -> Record:
    """A TFMessage as built: an empty ``transforms`` list the code fills."""
    return Record(TF_MESSAGE, type_name, name, line, local=local, fields={"transforms": ListValue()})


@dataclass
class Record:
    """A message built in the analysed code: which fields were set, to what."""

    kind: str
    type_name: str
    name: str  # the variable holding it
    line: int
    local: bool = True  # built in the function being analysed (so unset fields really are unset)
    escaped: bool = False  # handed to code we do not follow, which may fill it
    fields: dict[str, Value] = field(default_factory=dict)
    ros1: bool = False  # a ROS 1 C++ message: a quaternion never set is (0, 0, 0, 0), not the identity
    made_by: str = ""  # the helper of another file that built it (``generateOdometryMsg() in include/x.hpp``)
    frame_line: int = 0  # the line of this file that last wrote header.frame_id (0: not written here, or not known)
    child_line: int = 0  # the same for child_frame_id
    rotation_line: int = 0  # the line that wrote transform.rotation (or its first component), 0 when not known
    # each write of header.frame_id (or the whole header): its line and the loops and branches around it, None when the
    # walk cannot place it; see guards.skipped_by
    frame_writes: list[tuple[int, tuple[Guard, ...]] | None] = field(default_factory=list, compare=False, repr=False)

    def set(self, path: str, value: Value) -> None:
        inner = self._owned(path, create=True)
        if inner is None:
            self.fields[path] = value
            if path in ("header", "header.frame_id"):
                self.frame_writes.append(None)  # placed by the walker's assignment, when it is one
        elif isinstance(inner[0], Record):
            inner[0].set(inner[1], value)
        else:  # `transforms[0] = t`: the element replaced
            inner[0].items[int(inner[1])] = value

    def _owned(self, path: str, create: bool) -> tuple[Record, str] | tuple[ListValue, str] | None:
        """What ``path`` reaches into when this record owns it, and the rest of the path: a realtime publisher's
        ``msg_``, or an element of a TFMessage's ``transforms`` (``transforms.0``; ``transforms.-1`` for ``back()``),
        made when first written (``transforms.resize(1)`` is not modelled); (the list, index) for a whole element."""
        head, _, rest = path.partition(".")
        if not rest:
            return None
        if self.kind == REALTIME_PUBLISHER and head == "msg_":
            inner = self.fields.get(head)
            return (inner, rest) if isinstance(inner, Record) else None
        items = self.fields.get(head)
        index, _, tail = rest.partition(".")
        if self.kind != TF_MESSAGE or head != "transforms" or not isinstance(items, ListValue) or not index.lstrip("-").isdigit():
            return None
        i = int(index)
        if i > 64:
            return None
        if create:
            while len(items.items) <= max(i, 0):
                n = len(items.items)
                items.items.append(Record(TRANSFORM, "TransformStamped", f"{self.name}.transforms[{n}]", self.line, local=self.local, ros1=self.ros1))
        if not -len(items.items) <= i < len(items.items):
            return None
        item = items.items[i]
        if not tail:
            return (items, str(i % len(items.items)))
        return (item, tail) if isinstance(item, Record) else None

    def element(self, path: str) -> Value:
        """The element of ``transforms`` at ``path`` (``transforms.0``, ``msg_.transforms.-1``), made when missing,
        for a reference bound to it (``auto & t = msg.transforms.front();``)."""
        inner = self._owned(path, create=True)
        if inner is None:
            return None
        if isinstance(inner[0], ListValue):
            return inner[0].items[int(inner[1])]
        return inner[0].element(inner[1])

    def get(self, path: str) -> Value:
        """The value at ``path``; None when something above it was set to an unknown; UNSET if never set."""
        if path in self.fields:
            return self.fields[path]
        inner = self._owned(path, create=False)
        if isinstance(inner, tuple) and isinstance(inner[0], Record):
            return inner[0].get(inner[1])
        if inner is not None:
            return inner[0].items[int(inner[1])]
        parts = path.split(".")
        for i in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:i])
            if prefix in self.fields:
                holder = self.fields[prefix]
                if isinstance(holder, Record):
                    return holder.get(".".join(parts[i:]))
                return None
        if parts[-1] == "header" and f"{path}.frame_id" in self.fields:
            # the header whole, as written field by field (`t.header = odom.header;` after `odom.header.frame_id = ...`)
            below = path + "."
            header = Record(HEADER, "Header", f"{self.name}.{path}", self.line, local=self.local, frame_line=self.frame_line)
            header.fields = {k[len(below):]: v for k, v in self.fields.items() if k.startswith(below)}
            return header
        return UNSET

    def rotation(self) -> Rot | None:
        """The rotation of a transform message, from whichever way the code set it."""
        whole = self.get("transform.rotation")
        if isinstance(whole, Rot):
            return whole
        tf = self.get("transform")
        if isinstance(tf, TfValue):
            return tf.rot
        comps = [self.get(f"transform.rotation.{a}") for a in "xyzw"]
        if all(c is UNSET for c in comps):
            return None
        # x, y, z default to 0 in every ROS version; w is 1 in ROS 2 but 0 in ROS 1, so it must be set
        return rot_from_components([0.0 if c is UNSET and i < 3 else c for i, c in enumerate(comps)])

    def translation(self) -> tuple[float, float, float] | None:
        tf = self.get("transform")
        if isinstance(tf, TfValue):
            return tf.origin
        whole = self.get("transform.translation")
        if isinstance(whole, tuple) and len(whole) == 3:
            return whole
        comps = [self.get(f"transform.translation.{a}") for a in "xyz"]
        if all(c is UNSET for c in comps):
            return None
        if all(isinstance(c, float) or c is UNSET for c in comps):
            # message fields default to 0
            return tuple(c if isinstance(c, float) else 0.0 for c in comps)  # type: ignore[return-value]
        return None


#: What the analyzers compute for an expression: a known string or number, a rotation, a transform,
#: a message, a list, a vector of numbers, a parameter not yet read, a field never set, or None
#: (not known statically).
Value = Union[str, float, Rot, Component, QuatList, TfValue, ListValue, ParamRef, Record, _Unset, "Heading", "tuple[float, ...]", None]


#: Characters of one interpreted string: frame ids are short, and 40 lines of ``a = a + a`` must not
#: reach gigabytes. A longer result is not known statically (None).
MAX_TEXT = 100_000


class Literal(str):
    """A string the code writes out in full, with where it is written: a wrong frame is fixed at its literal
    (patrolling_sim's ``std::string sframe = "/map";`` sixteen lines above the lookup that fails). Joins and
    other operations give plain strings; a literal crosses a process boundary as a plain string."""

    path: str
    line: int

    def __new__(cls, text: str, path: str, line: int) -> Literal:
        self = super().__new__(cls, text)
        self.path, self.line = path, line
        return self

    def __reduce__(self) -> tuple[type[str], tuple[str]]:
        return str, (str(self),)


def literal_line(value: Value, path: str) -> int | None:
    """The line of file ``path`` where the string ``value`` is written out, when it is a literal of that file."""
    return value.line if isinstance(value, Literal) and value.path == path else None


def concat(parts: Sequence[Value]) -> str | None:
    """The strings joined; None when one is not a string or the result would exceed MAX_TEXT."""
    texts = [p for p in parts if isinstance(p, str)]
    if len(texts) != len(parts) or sum(len(p) for p in texts) > MAX_TEXT:
        return None
    return "".join(texts)


TF1_STAMPED = "tf::StampedTransform"
# ROS 1 tf's StampedTransform keeps its frames and stamp in public members of its own names
_TF1_STAMPED_FIELDS = {"frame_id_": "header.frame_id", "child_frame_id_": "child_frame_id", "stamp_": "header.stamp"}


def field_of(holder: Record, fields: Sequence[str]) -> str:
    """The message field ``holder.a.b`` writes (``t.frame_id_`` of a tf::StampedTransform is its header.frame_id)."""
    path = ".".join(fields)
    return _TF1_STAMPED_FIELDS.get(path, path) if holder.type_name == TF1_STAMPED else path


def fresh(value: Value) -> Value:
    """A memoised function result for one more caller: messages are copied, so callers do not share fields."""
    if isinstance(value, Record):
        return replace(value, fields=dict(value.fields))
    return value


def frame_value(value: Value) -> str | None:
    """A frame id as text: "" for never set, None when not known statically."""
    if value is UNSET:
        return ""
    if isinstance(value, str):
        return value
    return None


def as_number(value: Value) -> float | None:
    return value if isinstance(value, float) else None


def as_vector(value: Value) -> tuple[float, ...] | None:
    if isinstance(value, tuple) and all(isinstance(v, float) for v in value):
        return value
    if isinstance(value, ListValue):
        floats = [v for v in value.items if isinstance(v, float)]
        return tuple(floats) if len(floats) == len(value.items) else None
    return None


def as_matrix(value: Value) -> list[list[float]] | None:
    """A nested list of numbers (``np.array([[...]])``) as rows."""
    if isinstance(value, ListValue) and value.items and all(isinstance(r, ListValue) for r in value.items):
        rows = [as_vector(r) for r in value.items]
        if all(r is not None for r in rows):
            return [list(r) for r in rows if r is not None]
    return None


@dataclass(frozen=True)
class Heading:
    """``slope * h + intercept``, where ``h`` is a compass heading read from incoming data (a field named heading:
    u-blox's ``relPosHeading``), clockwise from north in the data's own unit."""

    slope: float = 1.0
    intercept: float = 0.0


_HEADING_WORD = re.compile(r"(?:^|_)(?:heading|azimuth)(?:_|$)")


def heading_reading(name: str) -> bool:
    """A field named for an INS's azimuth, which is measured clockwise from north by definition: read off a message a
    node keeps (novatel_oem7's ``inspva_->azimuth``), a heading too. (An SDK object's ``heading`` kept by the node
    may already be an ENU yaw: ZED's GeoPose.)"""
    return snake_case(name).endswith("azimuth")


def heading_field(name: str) -> bool:
    """A field whose name says it holds a heading (``relPosHeading``, ``heading_deg``, ``true_heading``, an INS's
    ``azimuth``)."""
    return _HEADING_WORD.search(snake_case(name)) is not None


def _affine(op: str, a: Value, b: Value) -> Heading | None:
    """Arithmetic on a heading and a constant that keeps it affine: ``h * 1e-5 / 180 * M_PI - M_PI_2``."""
    if isinstance(a, Heading) and isinstance(b, float):
        if op in ("+", "-"):
            return Heading(a.slope, a.intercept + (b if op == "+" else -b))
        if op == "*":
            return Heading(a.slope * b, a.intercept * b)
        if op == "/" and b != 0.0:
            return Heading(a.slope / b, a.intercept / b)
    if isinstance(a, float) and isinstance(b, Heading):
        if op == "+":
            return Heading(b.slope, b.intercept + a)
        if op == "-":
            return Heading(-b.slope, a - b.intercept)
        if op == "*":
            return Heading(b.slope * a, b.intercept * a)
    return None


def negated(value: Value) -> Value:
    """``-x`` for a number or a heading."""
    if isinstance(value, float):
        return -value
    return Heading(-value.slope, -value.intercept) if isinstance(value, Heading) else None


def binary_number(op: str, a: Value, b: Value) -> float | Heading | None:
    """Constant arithmetic for angles and matrix entries (``M_PI / 2``, ``-math.pi``), and on a heading."""
    if isinstance(a, Heading) or isinstance(b, Heading):
        return _affine(op, a, b)
    if not isinstance(a, float) or not isinstance(b, float):
        return None
    try:
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return a / b
        if op == "**":
            return float(a**b)
    except (ZeroDivisionError, OverflowError):
        return None
    return None


#: Named constants both languages use for angles.
NAMED_NUMBERS = {
    "M_PI": math.pi,
    "M_PI_2": math.pi / 2,
    "M_PI_4": math.pi / 4,
    "M_PIl": math.pi,
    "CV_PI": math.pi,
    "PI": math.pi,
    "pi": math.pi,
    "tau": math.tau,
    "M_SQRT1_2": math.sqrt(0.5),
    "M_SQRT2": math.sqrt(2.0),
    "SIMD_PI": math.pi,
    "SIMD_HALF_PI": math.pi / 2,
    "TFSIMD_PI": math.pi,
    "TFSIMD_HALF_PI": math.pi / 2,
    "TF2SIMD_PI": math.pi,
    "TF2SIMD_HALF_PI": math.pi / 2,
}


# a unit conversion factor named by what it converts, wherever it is defined (an SDK's `NAV_CONST::DEG2RADS`)
_DEG_TO_RAD = re.compile(r"^(?:k_?)?deg(?:ree)?s?_?(?:2|to)_?rad(?:ian)?s?$", re.IGNORECASE)
_RAD_TO_DEG = re.compile(r"^(?:k_?)?rad(?:ian)?s?_?(?:2|to)_?deg(?:ree)?s?$", re.IGNORECASE)


def named_number(name: str) -> float | None:
    """The value of a constant known by its name: pi and its fractions (``M_PI``, ``TF2SIMD_HALF_PI``), and degree
    <-> radian factors (``DEG2RAD``, ``kDegToRad``, ``NAV_CONST::DEG2RADS``), whatever namespace holds them."""
    last = re.split(r"::|\.", name)[-1]
    if last in NAMED_NUMBERS:
        return NAMED_NUMBERS[last]
    if _DEG_TO_RAD.match(last):
        return math.pi / 180.0
    if _RAD_TO_DEG.match(last):
        return 180.0 / math.pi
    return None


def is_transform(value: Value) -> bool:
    """A transform message: its frame ids are checked where it is broadcast, not where they are set."""
    return isinstance(value, Record) and value.kind == TRANSFORM
