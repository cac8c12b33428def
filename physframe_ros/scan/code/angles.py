"""Rotation conventions checked on symbolic angles, where the values are unknown but the names and
the API say what they mean: which Euler slot an angle named ``yaw`` lands in, tf's ``setEuler``
turning its first argument about Y, a scalar-first quaternion component copied into ``x``.

Each check reads only names the code wrote and the constant zeros around them, without knowing any
value: the findings are warnings (a remap of axes can be deliberate, and a value may be zero); names
that say nothing (``a``, ``angle``, ``q0``) are never reported.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable

from ...core.findings import Finding, Location, Severity
from .conversions import rearranged_finding, slots_written
from .values import Value, component_order

# API -> the angle each argument slot turns about (fixed-axis roll about X, pitch about Y, yaw about Z)
RPY_APIS = {
    "setRPY": ("roll", "pitch", "yaw"),
    "createQuaternionMsgFromRollPitchYaw": ("roll", "pitch", "yaw"),
    "createQuaternionFromRPY": ("roll", "pitch", "yaw"),
    "quaternion_from_euler": ("roll", "pitch", "yaw"),
    "euler2quat": ("roll", "pitch", "yaw"),
    "RPY": ("roll", "pitch", "yaw"),  # KDL's and PyKDL's Rotation.RPY
    "setEulerYPR": ("yaw", "pitch", "roll"),
    "setEulerZYX": ("yaw", "pitch", "roll"),
}
# a function of the code's own named for roll, pitch, yaw in that order (pedsim's `rpyToQuaternion(r, p, y)`)
_RPY_NAMED = re.compile(r"(?i)^(?:rpy_?to_?\w*quat\w*|quat\w*_?from_?rpy|from_?rpy)$")


def rpy_slots(api: str) -> tuple[str, str, str] | None:
    """The angle each argument slot of an Euler API turns about, by its name; None for other calls."""
    slots = RPY_APIS.get(api)
    if slots is None and _RPY_NAMED.match(api):
        return ("roll", "pitch", "yaw")
    return slots


_ANGLE_NAME = re.compile(r"(?:^|[^a-z])(roll|pitch|yaw|heading|theta|rot_?[xyz]|ang(?:le)?_?[xyz])(?=$|[^a-z])")
_AXIS_ANGLE = {"x": "roll", "y": "pitch", "z": "yaw"}  # rotX / rot_x / angle_z: the angle about that axis
_HEADING = ("heading", "theta")  # a planar heading: the yaw, by name, only when the other two slots are zero
_QUARTER_TURN = re.compile(r"\s*[-+]?\s*(?:M_PI(?:_2)?|(?:math\.|np\.)?pi|1\.57\d*|3\.14\d*)(?:\s*/\s*2(?:\.0*)?)?\s*")
_ZERO = re.compile(r"^\s*[-+]?0*(?:\.0*)?[fFlL]?\s*$")


def _angle_of(text: str) -> str | None:
    """The one angle an argument's text names (``msg->theta``, ``yaw + M_PI_2``), else None."""
    names = {_AXIS_ANGLE.get(n[-1], n) if n.startswith(("rot", "ang")) else n for n in (m.group(1) for m in _ANGLE_NAME.finditer(text.lower()))}
    return names.pop() if len(names) == 1 else None


_AXIS_OF = {"roll": "X", "pitch": "Y", "yaw": "Z"}


def euler_slot_finding(api: str, args: list[str], loc: Location, slots: tuple[str, str, str] | None = None) -> Finding | None:
    """An angle named for one axis passed in another axis' slot of an Euler API (``setRPY(msg->theta, 0, 0)``,
    ``setRPY(yaw, roll, pitch)``), or tf's ``setEuler(heading, 0, 0)`` (its first argument turns about Y)."""
    if len(args) != 3:
        return None
    zeros = [_ZERO.match(a) is not None for a in args]
    if api == "setEuler":
        if zeros[1] and zeros[2] and not zeros[0]:
            return Finding(
                "INCORRECT_TRANSFORM",
                f"setEuler({args[0]}, {args[1]}, {args[2]}): tf's setEuler(yaw, pitch, roll) turns its first argument about "
                f"the Y axis (YXZ order), so a planar heading becomes a pitch about Y; use setRPY(0, 0, {args[0]}) for a rotation about Z (REP-103)",
                (),
                loc,
                severity=Severity.WARNING,
            )
        return None
    slots = slots or rpy_slots(api)
    if slots is None:
        return None
    wrong: list[str] = []
    for i, text in enumerate(args):
        named = _angle_of(text)
        if named in _HEADING:
            # a planar heading is the yaw: when the other two slots are zero, or the yaw's own slot is and the third
            # holds a quarter or half turn, a model turned upright (pedsim's `rpyToQuaternion(M_PI / 2.0, theta +
            # M_PI / 2.0, 0.0)`: the heading in the pitch slot); beside a small tilt `theta` may be any angle
            others = [j for j in range(3) if j != i]
            upright = slots[i] != "yaw" and zeros[slots.index("yaw")] and any(_QUARTER_TURN.fullmatch(args[j]) for j in others)
            named = "yaw" if all(zeros[j] for j in others) or upright else None
        if named is not None and named != slots[i]:
            wrong.append(f"'{text}' (a {named}) is in the {slots[i]} slot")
    if not wrong:
        return None
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{api}({', '.join(args)}): {'; '.join(wrong)}; {api} takes ({', '.join(slots)}), the angles about "
        f"({', '.join(_AXIS_OF[a] for a in slots)}), so the rotation turns about the wrong axes",
        (),
        loc,
        severity=Severity.WARNING,
    )


# a quaternion's scalar part by name: qw, quat_w, .w, ['w'], and a device's named field ['Q0'] (IMUs such as
# Xsens name the scalar Q0); a plain variable q0 is not enough (q0..q3 is x, y, z, w in much code)
_SCALAR_FIRST = re.compile(r"(?:^|[^a-z0-9])(?:qw|quat_?w)(?=$|[^a-z0-9])|\.w\b|\.w\(\)|\[['\"](?:w|q_?0)['\"]\]")


def is_vector_component(fields: list[str]) -> bool:
    """``…orientation.x`` / ``…rotation.y`` / ``…quaternion.z``: a vector component of a message quaternion."""
    return len(fields) >= 2 and fields[-1] in ("x", "y", "z") and fields[-2] in ("orientation", "rotation", "quaternion")


def scalar_in_vector_slot(target: list[str], source: str, loc: Location) -> Finding | None:
    """``orientation.x = d['Q0']``: the scalar part of a quaternion (w, written first by many IMUs and
    Eigen's constructor) copied into a vector component of a message's x, y, z, w quaternion."""
    if not is_vector_component(target) or _SCALAR_FIRST.search(source.lower()) is None:
        return None
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{'.'.join(target)} = {source}: the quaternion's scalar part (w, first in a w-x-y-z quaternion) is copied into "
        f"{target[-1]}; geometry_msgs Quaternion is x, y, z, w, so the components are shifted",
        (),
        loc,
        severity=Severity.WARNING,
    )


def shifted_components_finding(call: str, order: str, loc: Location) -> Finding:
    """``Quaternion(x=q[0], y=q[1], z=q[2], w=q[3])`` where ``q`` is w-first (known from the API that made it)."""
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{call}: the x, y, z, w slots take the components ({', '.join(order)}) of one quaternion, which holds them "
        f"in another order (w first: transforms3d, the transformations module, Eigen's coeffs, px4_msgs' q, a function of "
        "the file's own that computes it so); geometry_msgs "
        "Quaternion is x, y, z, w, so the rotation is not the one computed",
        (), loc, severity=Severity.WARNING,
    )


QUATERNION_PARTS = frozenset({"orientation", "rotation", "quaternion"})  # a message field holding a quaternion


def writes_quaternion(fields: list[str]) -> bool:
    """A field path that is a message quaternion (``…orientation``) or one of its components (``…rotation.w``)."""
    return bool(fields) and (fields[-1] in QUATERNION_PARTS or (len(fields) >= 2 and fields[-2] in QUATERNION_PARTS and fields[-1] in ("x", "y", "z", "w")))
# the component a source names: q.x, q.x(), q['x'], msg.orientation.x (an Eigen or message quaternion's accessor)
_NAMED_COMPONENT = r"\.([xyzw])(?:\(\))?|\[['\"]([xyzw])['\"]\]"
_SOURCE_COMPONENT = re.compile(rf"(?:{_NAMED_COMPONENT})\s*$")


_CONSTANT = re.compile(r"^\s*[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?[fFlL]?\s*$")


def _component(source: str) -> str | None:
    m = _SOURCE_COMPONENT.search(source.strip().lstrip("+-").strip())
    return (m.group(1) or m.group(2)) if m else None


@dataclass
class QuaternionWrites:
    """One function's writes into message quaternions component by component (``o.x = q.x()``): a source
    copied into two components (a copy-paste: all four from ``q.x()``), or the vector part copied from another
    quaternion and ``w`` never written (it stays 0 in ROS 1, 1 in ROS 2: not the rotation copied)."""

    # (the message written into, quaternion path) -> component -> (source, line); two messages declared under one
    # name in one function (`t` in a lambda and `t` later) are two quaternions
    parts: dict[tuple[int, str], dict[str, tuple[str, int]]] = field(default_factory=dict)
    whole: set[tuple[int, str]] = field(default_factory=set)  # quaternions assigned whole somewhere in the function
    any_w: bool = False  # a `w` written anywhere (through an alias the paths do not show)
    fresh: dict[tuple[int, str], str] = field(default_factory=dict)  # quaternions of a message made in the function: its type
    # a component written again: (component, (first source, its line), then source, line)
    rewritten: dict[tuple[int, str], list[tuple[str, tuple[str, int], str, int]]] = field(default_factory=dict)
    # the values written into each component (a w-first quaternion's components copied in x, y, z, w order)
    values: dict[tuple[int, str], dict[str, Value]] = field(default_factory=dict)
    # the components written under a branch converting into ENU or NED: (quaternion, the branch's condition) -> slots
    converted: dict[tuple[tuple[int, str], str], dict[str, tuple[str, int]]] = field(default_factory=dict)
    # the components written under no condition (what a converting branch leaves keeps them)
    plain: dict[tuple[int, str], dict[str, tuple[str, int]]] = field(default_factory=dict)
    px4_attitude: bool = False  # the file reads px4_msgs' world-frame attitude (its ``q`` is NED, w first)

    def write(self, owner: int, target: list[str], source: str, line: int, fresh: str | None = None, value: Value = None,
              branch: str | None = None, conditional: bool = True) -> None:
        """A write into a quaternion or a component (``target``: :func:`writes_quaternion` holds); ``owner``: the
        identity of the message (or value) the target's path starts from; ``fresh``: its type, when the message
        was made in this function (its unwritten components are still the defaults); ``branch``: the condition of
        the branch holding the write, when it says the branch converts into ENU or NED; ``conditional``: the write
        sits under some condition."""
        if target[-1] in QUATERNION_PARTS:
            self.whole.add((owner, ".".join(target)))
            return
        if target[-1] == "w":
            self.any_w = True
        key = (owner, ".".join(target[:-1]))
        parts = self.parts.setdefault(key, {})
        text = " ".join(source.split())
        if target[-1] in parts:
            self.rewritten.setdefault(key, []).append((target[-1], parts[target[-1]], text, line))
        parts[target[-1]] = (text, line)
        if branch is not None:
            self.converted.setdefault((key, branch), {})[target[-1]] = (text, line)
        elif not conditional:
            self.plain.setdefault(key, {})[target[-1]] = (text, line)
        self.values.setdefault(key, {})[target[-1]] = value
        if fresh is not None:
            self.fresh[key] = fresh

    def findings(self, loc: Callable[[int], Location]) -> list[Finding]:
        out: list[Finding] = []
        for key, parts in self.parts.items():
            if key in self.whole:
                continue
            path = key[1]
            into: dict[str, list[tuple[str, int]]] = {}  # source (without its sign) -> (component, line) it went into
            for comp, (source, line) in sorted(parts.items(), key=lambda kv: kv[1][1]):
                if _component(source) is not None:
                    into.setdefault(source.lstrip("+-").strip(), []).append((comp, line))
            for source, comps in into.items():
                if len(comps) > 1:  # reported once, at the first copy too many
                    # one component dropped and another doubled: not the rotation, and not of unit length (tf2
                    # rejects a denormalised quaternion), whatever the values
                    out.append(Finding(
                        "INVALID_TRANSFORM",
                        f"{path}: {source} is copied into {', '.join(c for c, _ in comps)}; each component of a quaternion "
                        "comes from its own (x, y, z, w), so all but one of these are a copy-paste slip and the quaternion "
                        "is neither the rotation nor of unit length",
                        (), loc(comps[1][1]), severity=Severity.WARNING,
                    ))
            vector = [parts[c] for c in ("x", "y", "z") if c in parts]
            # x, y, z written (not all three as constants: three zeros and the default w are the ROS 2 identity) and w
            # nowhere: w keeps its default, 0 in ROS 1 and 1 in ROS 2
            if len(vector) == 3 and "w" not in parts and not self.any_w and not all(_CONSTANT.match(src) for src, _ in vector):
                line = max(line for _, line in vector)
                copied = all(_component(src) is not None for src, _ in vector)
                what = "copied from another quaternion" if copied else f"written ({', '.join(src for src, _ in vector)})"
                out.append(Finding(
                    "INVALID_TRANSFORM",
                    f"{path}: x, y and z are {what} but w is never set: it keeps its default (0 in ROS 1, 1 in ROS 2), so "
                    "the quaternion is not the rotation meant and not a unit one",
                    (), loc(line), severity=Severity.WARNING,
                ))
            out.extend(_constant_quaternion(path, parts, self.fresh.get(key), loc))
            written = self.values.get(key, {})
            shifted = component_order([written.get(c) for c in "xyzw"])
            if shifted is not None:  # `t.rotation.x = q[0]` ... with q from transforms3d's euler2quat (w first)
                out.append(shifted_components_finding(path, shifted, loc(parts["x"][1])))
            out.extend(_slot_written_twice(path, parts, self.rewritten.get(key, []), loc))
            scalar = _scalar_numbered_first(path, parts, loc)
            if scalar is not None:
                out.append(scalar)
            ned = _ned_library_copy(path, parts, loc, self.px4_attitude)
            if ned is not None:
                out.append(ned)
        for ((owner, path), condition), slots in self.converted.items():
            at = min(line for _, line in slots.values())
            before = {c: w for c, w in self.plain.get((owner, path), {}).items() if w[1] < at}
            found = rearranged_finding(path, condition, before | slots, at, loc)
            if found is not None:
                out.append(found)
        return out


# libraries whose attitude is NED (x north, y east, z down) over FRD body axes: RTIMULib's fusion pose (its maintainers
# and rtimulib_ros' say so; rtimulib_ros copied it straight into the Imu until it converted it)
_NED_LIBRARIES = {"fusionQPose": "RTIMULib's fusionQPose"}
_LIBRARY_COMPONENT = re.compile(r"\b(?P<lib>\w+)\s*(?:\.|->)\s*(?P<comp>x|y|z|scalar|w)\s*\(\s*\)$")
# PX4's attitude in px4_msgs (VehicleAttitude, VehicleOdometry): ``q``, w first, NED over FRD; `msg->q[1]`, `static_cast<double>(msg->q[1])`
_PX4_COMPONENT = re.compile(r"(?:^|\()\s*(?P<lib>\w+)\s*(?:\.|->)\s*q\s*\[\s*(?P<index>[0-3])\s*\]\s*\)?$")
_PX4_ATTITUDE_MESSAGES = re.compile(r"\b(?:VehicleAttitude|VehicleOdometry)\b")


def reads_px4_attitude(text: str) -> bool:
    """A file that reads PX4's world-frame attitude (px4_msgs' VehicleAttitude or VehicleOdometry)."""
    return "px4_msgs" in text and _PX4_ATTITUDE_MESSAGES.search(text) is not None


def _ned_source(comp: str, source: str, px4: bool) -> tuple[str, str] | None:
    """The NED attitude a component is copied from, as (its owner, what it is), when it is that attitude's own
    component (x from x, w from the scalar)."""
    m = _LIBRARY_COMPONENT.search(source)
    if m is not None and m.group("lib") in _NED_LIBRARIES and {"scalar": "w"}.get(m.group("comp"), m.group("comp")) == comp:
        return m.group("lib"), _NED_LIBRARIES[m.group("lib")]
    m = _PX4_COMPONENT.search(source) if px4 else None
    if m is not None and "wxyz"[int(m.group("index"))] == comp:
        return m.group("lib"), f"PX4's attitude {m.group('lib')}.q (w first)"
    return None


def _ned_library_copy(path: str, parts: dict[str, tuple[str, int]], loc: Callable[[int], Location], px4: bool) -> Finding | None:
    """A NED library's attitude copied component for component into a ROS quaternion (``orientation.x =
    imu_data.fusionQPose.x()`` ... ``w = ...scalar()``; in a file reading px4_msgs' attitude, ``x = msg->q[1]`` ...
    ``w = msg->q[0]``): ROS's world frames are ENU (REP-103), so the orientation published is another one. Swapping x
    and y and negating z converts it, with the body's FRD -> FLU turn."""
    if not path.endswith(("orientation", "rotation")) or set(parts) != {"x", "y", "z", "w"}:
        return None
    sources = {_ned_source(comp, source, px4) for comp, (source, _) in parts.items()}
    found = sources.pop() if len(sources) == 1 else None
    if found is None:
        return None
    what = found[1]
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{path} is {what} copied component for component: that attitude is NED (x north, y east, z down), "
        "while REP-103 orientations are ENU (x east, y north, z up), so the published orientation is another rotation; "
        "convert it (x and y swapped, z negated, and the body turned from FRD to FLU)",
        (), loc(parts["x"][1]), severity=Severity.WARNING,
    )


# a quaternion's component by its index or name: q[2], q.z, q.z(), q['z']
_INDEXED = re.compile(rf"^(.+?)(?:\[\s*([0-3])\s*\]|{_NAMED_COMPONENT})$")


def _slot_written_twice(path: str, parts: dict[str, tuple[str, int]], rewritten: list[tuple[str, tuple[str, int], str, int]],
                        loc: Callable[[int], Location]) -> list[Finding]:
    """``o.x = q[0]; o.y = q[1]; o.x = q[2]; o.w = q[3]``: one slot written from two components of one quaternion
    and another slot never written, a copy-paste slip in the component mapping (jsk_topic_tools'
    pose_stamped_publisher; DJI Guidance's ``rotation.z = q[1]`` meant for x): the rotation is not the one copied
    (nor of unit length). Reported at the write that breaks the order the other writes follow, else at the last."""
    out = []
    missing = [c for c in "xyzw" if c not in parts]
    for comp, (first, first_line), then, line in rewritten:
        a, b = _INDEXED.match(first.lstrip("+-").strip()), _INDEXED.match(then.lstrip("+-").strip())
        if a is None or b is None or a.group(1) != b.group(1) or a.groups()[1:] == b.groups()[1:] or not missing:
            continue
        expected = _expected_source(comp, parts)
        wrong_first = expected is not None and _source_key(b) == expected and _source_key(a) != expected
        bad, bad_line = (first, first_line) if wrong_first else (then, line)
        out.append(Finding(
            "INCORRECT_TRANSFORM",
            f"{path}.{comp} is written twice, from {first} (line {first_line}) and then {then} (line {line}), and "
            f"{', '.join(missing)} never: a copy-paste slip in the component mapping ({bad} belongs in another slot), so "
            "the quaternion is not the rotation copied (nor of unit length)",
            (), loc(bad_line), severity=Severity.WARNING,
        ))
    return out


# a device's or SDK's quaternion field numbered in the notation q0 + q1 i + q2 j + q3 k (or q1..q4): `att.q0`, `d->q_1`
_NUMBERED_FIELD = re.compile(r"^(.+?)(?:\.|->)q_?([0-4])$")


def _scalar_numbered_first(path: str, parts: dict[str, tuple[str, int]], loc: Callable[[int], Location]) -> Finding | None:
    """``o.x = att.q0; o.y = att.q1; o.z = att.q2; o.w = att.q3``: a structure's fields numbered q0..q3 (or q1..q4)
    write the quaternion as q0 + q1 i + q2 j + q3 k, so the lowest number is the scalar (ixblue's INS attitude,
    MAVLink's q1, the Madgwick filters' q0). A message's w given another field is a w-first quaternion read in
    x, y, z, w order: another rotation. Only fields: a variable of the file's own named q0 may hold anything."""
    if set(parts) != set("xyzw"):
        return None
    fields = {slot: _NUMBERED_FIELD.match("".join(parts[slot][0].split())) for slot in "xyzw"}
    if any(m is None for m in fields.values()):
        return None
    numbers = {slot: int(m.group(2)) for slot, m in fields.items() if m}
    if len({m.group(1) for m in fields.values() if m}) != 1 or sorted(numbers.values()) not in ([0, 1, 2, 3], [1, 2, 3, 4]):
        return None
    first = min(numbers.values())
    if numbers["w"] == first:
        return None
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{path}: {slots_written(parts)}: fields numbered q{first}..q{first + 3} write a quaternion as q{first} + q{first + 1} i + "
        f"q{first + 2} j + q{first + 3} k, so q{first} is the scalar part, and it is put in {next(s for s in 'xyz' if numbers[s] == first)} "
        f"while w gets q{numbers['w']}; a ROS quaternion is (x, y, z, w), scalar last, so the orientation is another "
        f"rotation (w = q{first}, x = q{first + 1}, y = q{first + 2}, z = q{first + 3})",
        (), loc(parts["x"][1]), severity=Severity.WARNING,
    )


def _source_key(m: re.Match[str]) -> str:
    """The component a source names: its index (``q[2]``: "2") or its name (``q.z``: "z")."""
    return next(g for g in m.groups()[1:] if g is not None)


def _expected_source(comp: str, parts: dict[str, tuple[str, int]]) -> str | None:
    """What slot ``comp`` should be copied from, by the order the ``w`` slot shows: ``w = q[3]`` is x, y, z, w
    order, ``w = q[0]`` w first; named sources match by name. None when the order is not shown."""
    w = _INDEXED.match(parts["w"][0].lstrip("+-").strip()) if "w" in parts else None
    key = _source_key(w) if w is not None else None
    if key in ("x", "y", "z", "w"):
        return comp
    if key in ("0", "3"):
        return str(("xyzw" if key == "3" else "wxyz").index(comp))
    return None


def _constant_quaternion(path: str, parts: dict[str, tuple[str, int]], fresh: str | None, loc: Callable[[int], Location]) -> list[Finding]:
    """A quaternion written as constants that is no rotation: all four zeros (``w = 0.0`` beside three zeros, an
    "unknown orientation"), or, in a message made in the function (its other components still 0), w among them and
    a length far from 1 (osr-rover's Odometry: ``orientation.z = 1.; orientation.w = 1.``, |q| = 1.41, meant as a
    90 degree yaw). Not a marker's of another length (RViz and the interactive marker server normalise them: the
    tutorials write (1, 0, 0, 1)), nor a broadcast transform's, checked where it is sent with its frames."""
    if path.endswith("transform.rotation") or "w" not in parts or not all(_CONSTANT.match(src) for src, _ in parts.values()):
        return []
    q = [float(parts[c][0].rstrip("fFlL")) if c in parts else 0.0 for c in "xyzw"]
    norm2 = sum(v * v for v in q)
    if len(parts) == 4 and norm2 == 0.0:
        message = (f"{path} is written as the zero quaternion (x, y, z, w) = (0, 0, 0, 0): no rotation at all; whoever "
                   "converts it (tf2::fromMsg, RViz) gets NaN. For an orientation that is not known, write the identity "
                   "(0, 0, 0, 1) (and, in an Imu, orientation_covariance[0] = -1)")
    elif fresh is not None and "Marker" not in fresh and norm2 != 0.0 and abs(norm2 - 1.0) > 1e-2:
        written = ", ".join(f"{c} = {parts[c][0]}" for c in "xyzw" if c in parts)
        message = (f"{path} of a new {fresh} is written as constants ({written}; the others 0): |q| = {norm2 ** 0.5:.3g}, "
                   "not a unit quaternion, so it is no rotation (tf2 rejects it in a transform, consumers normalise or "
                   "reject it); write a unit one (a yaw of a is (0, 0, sin(a/2), cos(a/2)))")
    else:
        return []
    return [Finding("INVALID_TRANSFORM", message, (), loc(max(line for _, line in parts.values())), severity=Severity.WARNING)]
