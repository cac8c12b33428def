"""Rotations named for a conversion between two axis conventions.

A quaternion or matrix called ``q_ned_enu``, ``nedToEnu`` or ``R_frd_flu`` converts between the conventions its
name gives, so its constant value is known whichever way round the code uses it: NED <-> ENU swaps x and y and
negates z (rpy pi, 0, pi/2, its own inverse); FRD <-> FLU and NED <-> NWU turn half a turn about x (rpy pi, 0, 0);
ENU <-> NWU a quarter turn about z. A name with any other constant rotation holds the wrong conversion (oxts'
``q_ned_enu.setRPY(pi, 0, -pi/2)``, a yaw sign slip that leaves every heading mirrored).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from functools import lru_cache

from ...core.findings import Finding, Location, Severity
from ...core.rotations import ALL_ROTATIONS, IDENTITY, OrthoRotation, format_rotation, quaternion_multiply
from ..frame_ids import snake_case
from .values import Heading

_CONVENTIONS = frozenset({"ned", "enu", "frd", "flu", "nwu"})
_NED_ENU = OrthoRotation.from_rpy(math.pi, 0.0, math.pi / 2)
_HALF_ROLL = OrthoRotation.from_rpy(math.pi, 0.0, 0.0)
_QUARTER_YAW = OrthoRotation.from_rpy(0.0, 0.0, math.pi / 2)
_BETWEEN: dict[frozenset[str], tuple[OrthoRotation | None, str]] = {
    frozenset({"ned", "enu"}): (_NED_ENU, "NED <-> ENU swaps x and y and negates z: rpy (pi, 0, pi/2), its own inverse"),
    frozenset({"frd", "flu"}): (_HALF_ROLL, "FRD <-> FLU negates y and z: rpy (pi, 0, 0), its own inverse"),
    frozenset({"ned", "nwu"}): (_HALF_ROLL, "NED <-> NWU negates y and z: rpy (pi, 0, 0), its own inverse"),
    frozenset({"enu", "nwu"}): (_QUARTER_YAW, "ENU <-> NWU is a quarter turn about z: rpy (0, 0, pi/2) one way, (0, 0, -pi/2) the other"),
}


def _convention_words(text: str) -> list[str]:
    """The axis conventions a name or condition gives, in the order written (``nedToEnu``: ned, enu)."""
    return [w for w in re.split(r"[^a-z]+", snake_case(text)) if w in _CONVENTIONS]


def conversion_words(name: str) -> frozenset[str]:
    """The axis conventions a variable's name gives (``q_ned_enu``, ``ned2enu``, ``nedToEnu``: ned and enu)."""
    return frozenset(_convention_words(name))


def conversion_pair(name: str) -> frozenset[str] | None:
    """The two axis conventions a variable's name says it converts between, when it names exactly two."""
    words = conversion_words(name)
    return words if len(words) == 2 else None


def conversion_finding(name: str, rot: OrthoRotation, loc: Location) -> Finding | None:
    """INCORRECT_TRANSFORM (warning) when ``name`` says it converts between two axis conventions and the constant
    orthogonal rotation ``rot`` it holds is not the rotation between them, either way round."""
    pair = conversion_pair(name)
    if pair is None or pair not in _BETWEEN:
        return None
    expected, rule = _BETWEEN[pair]
    if expected is None or rot in (expected, expected.inverse()):
        return None
    a, b = sorted(pair)
    return Finding(
        "INCORRECT_TRANSFORM",
        f"'{name}' is named for the conversion between {a.upper()} and {b.upper()} but holds rotation {rot}, "
        f"{format_rotation(rot.quaternion())}: {rule}, so data converted with it ends up with mirrored or swapped axes",
        (), loc, severity=Severity.WARNING,
    )


def heading_finding(yaw: Heading, loc: Location) -> Finding | None:
    """INCORRECT_TRANSFORM (warning) for a yaw made from a compass heading (``slope * h + intercept``) other than
    ``pi/2 - heading``: a heading turns clockwise from north (NED), REP-103's yaw counterclockwise from east (ENU)."""
    if yaw.slope < 0 and abs(math.remainder(yaw.intercept - math.pi / 2, math.tau)) < 1e-3:
        return None
    if yaw.slope > 0:
        what = "the heading itself" if abs(math.remainder(yaw.intercept, math.tau)) < 1e-3 else "the heading turned the same way"
        how = "mirrored: it turns clockwise where the yaw turns counterclockwise"
    elif abs(math.remainder(yaw.intercept + math.pi / 2, math.tau)) < 1e-3:
        what, how = "-heading - pi/2", "a half turn off"
    elif abs(math.remainder(yaw.intercept, math.tau)) < 1e-3:
        what, how = "-heading", "measured from north, a quarter turn off"
    else:
        what, how = f"-heading {'+' if yaw.intercept >= 0 else '-'} {abs(yaw.intercept):.4g}", "measured from another axis than east"
    return Finding(
        "INCORRECT_TRANSFORM",
        f"the yaw given here is {what}, from a field named for a compass heading: a heading turns clockwise from north "
        f"(NED), REP-103's yaw counterclockwise from east (ENU), so the orientation is {how}; the yaw is pi/2 - heading",
        (), loc, severity=Severity.WARNING,
    )


# --- a NED attitude turned into ENU by rearranging its components ---------------------------------------------
# The source's axes, by the convention a branch converts into: its world's and its body's axis letters and their
# opposites (a branch converting to ENU reads a NED attitude of an FRD body, as INS and IMU devices give).
_SOURCE_AXES = {
    "enu": (("N", "E", "D"), ("S", "W", "U"), ("F", "R", "D"), ("B", "L", "U")),
    "ned": (("E", "N", "U"), ("W", "S", "D"), ("F", "L", "U"), ("B", "R", "D")),
}
_EXPECTED_AXES = {"enu": ("ENU", "FLU"), "ned": ("NED", "FRD")}
_NEGATED = re.compile(r"!(?!=)|\bnot\b|!=|==\s*false\b|\bfalse\s*==", re.IGNORECASE)
# one quaternion component: q[1], q.get_scaled(1) (a device's accessor by index), q.x, q.x(), q.getX(), q['x']
_PART = re.compile(r"^(.+?)(?:\[([0-3])\]|\(([0-3])\)|\.(?:get)?([xyzwXYZW])(?:\(\))?|\[['\"]([xyzw])['\"]\])$")


def converts_to(condition: str) -> str | None:
    """The axis convention (``enu`` or ``ned``) a branch's condition says its code converts into: ``m_use_enu_``,
    ``LTCF == ENU``, ``tf_ned_to_enu`` (the last one named); None for a negated test or one naming neither."""
    if _NEGATED.search(condition):
        return None
    words = [w for w in _convention_words(condition) if w in ("enu", "ned")]
    return words[-1] if words else None


def _component_source(text: str) -> tuple[int, str, str] | None:
    """``-q.quaternion[2]`` -> (-1, 'q.quaternion', '2'): sign, the quaternion, and its component (an index or a name)."""
    t = "".join(text.split())
    sign = 1
    while t[:1] in "-+(" and t:
        if t[0] == "-":
            sign = -sign
        t = t[1:]
        if t.endswith(")") and t.count("(") < t.count(")"):
            t = t[:-1]
    m = _PART.match(t)
    if m is None:
        return None
    index = m.group(2) or m.group(3)
    return sign, m.group(1), index if index is not None else (m.group(4) or m.group(5)).lower()


def _map_key(slots: dict[str, tuple[int, str]]) -> tuple[tuple[str, int], ...]:
    """A signed rearrangement of components, target slot (x, y, z, w order) -> (source component, sign), with the
    sign of w's made positive (q and -q are one rotation)."""
    flip = slots["w"][0]
    return tuple((slots[t][1], slots[t][0] * flip) for t in "xyzw")


@lru_cache(maxsize=1)
def _rearrangements() -> dict[tuple[tuple[str, int], ...], tuple[OrthoRotation, OrthoRotation]]:
    """Every rearrangement of components that is ``a * q * b`` for two orthogonal rotations a and b: the frames on
    either side of the attitude turned by fixed rotations (left: the world, right: the body)."""
    table: dict[tuple[tuple[str, int], ...], tuple[OrthoRotation, OrthoRotation]] = {}
    basis = {c: tuple(1.0 if i == j else 0.0 for j in range(4)) for i, c in enumerate("xyzw")}
    for a in ALL_ROTATIONS:
        for b in ALL_ROTATIONS:
            qa, qb = a.quaternion(), b.quaternion()
            images = {c: quaternion_multiply(quaternion_multiply(qa, e), qb) for c, e in basis.items()}
            slots: dict[str, tuple[int, str]] = {}
            for source, image in images.items():
                hits = [(t, v) for t, v in zip("xyzw", image) if abs(v) > 1e-9]
                if len(hits) != 1 or abs(abs(hits[0][1]) - 1.0) > 1e-9:
                    break
                slots[hits[0][0]] = (1 if hits[0][1] > 0 else -1, source)
            else:
                table.setdefault(_map_key(slots), (a, b))
    return table


def _axes(rot: OrthoRotation, letters: tuple[str, ...], opposite: tuple[str, ...], rows: bool) -> str:
    """The letters of a frame turned by ``rot``: its rows (the world's new axes) or columns (the body's)."""
    out = []
    for i in range(3):
        if rows:
            r = rot.rows[i]
            axis, sign = abs(r) - 1, r > 0
        else:
            axis = next(k for k, r in enumerate(rot.rows) if abs(r) == i + 1)
            sign = rot.rows[axis] > 0
        out.append(letters[axis] if sign else opposite[axis])
    return "".join(out)


def slots_written(writes: Mapping[str, tuple[str, int]]) -> str:
    """``x = q[1], y = -q[2], z = -q[3], w = q[0]``: what each slot of a quaternion was given (source, line)."""
    return ", ".join(f"{slot} = {writes[slot][0].strip()}" for slot in "xyzw")


def rearranged_finding(path: str, condition: str, writes: dict[str, tuple[str, int]], at: int,
                       loc: Callable[[int], Location]) -> Finding | None:
    """INCORRECT_TRANSFORM (warning) for a message quaternion whose x, y, z, w are another quaternion's components
    swapped or negated, in a branch that converts into ENU (or NED): ``if (use_enu) { o.x = q[1]; o.y = -q[2];
    o.z = -q[3]; o.w = q[0]; }``. Such a rearrangement turns the attitude's world and body by orthogonal rotations
    on both sides; NED <-> ENU turns the world alone half a turn about the north-east diagonal, whose quaternion
    has components of sqrt(2)/2, so no rearrangement gives an ENU world with an FLU body (sbg_ros2_driver's NWU
    attitude, inertial-sense-ros' and the um7 driver's right-forward-up body). ``writes``: each slot's source and
    line (a slot the branch leaves is the one written before it); ``at``: the branch's first write, reported."""
    target = converts_to(condition)
    if target is None or set(writes) != set("xyzw"):
        return None
    parsed = {slot: _component_source(src) for slot, (src, _) in writes.items()}
    if any(p is None for p in parsed.values()) or len({p[1] for p in parsed.values() if p}) != 1:
        return None
    names = {p[2] for p in parsed.values() if p}
    if len(names) != 4:
        return None
    if names == set("xyzw"):
        order = {n: n for n in names}
    elif names == set("0123"):
        scalar = next(p[2] for slot, p in parsed.items() if p and slot == "w")
        order = dict(zip(sorted(names - {scalar}), "xyz")) | {scalar: "w"}  # the index put in w is the scalar
    else:
        return None
    slots = {slot: (p[0], order[p[2]]) for slot, p in parsed.items() if p}
    turns = _rearrangements().get(_map_key(slots))
    if turns is None or turns == (IDENTITY, IDENTITY):
        return None
    world_letters, world_opposite, body_letters, body_opposite = _SOURCE_AXES[target]
    world = _axes(turns[0], world_letters, world_opposite, rows=True)
    body = _axes(turns[1], body_letters, body_opposite, rows=False)
    expected_world, expected_body = _EXPECTED_AXES[target]
    if (world, body) == (expected_world, expected_body):
        return None
    source = "an ENU attitude of an FLU" if target == "ned" else "a NED attitude of an FRD"
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{path} under `{condition}`: {slots_written(writes)} rearranges the components of {source} body (what devices give) into "
        f"body axes {body} in a world of axes {world}, where the branch's convention is body {expected_body} in world "
        f"{expected_world} (REP-103); swapping "
        "or negating components only turns the frames by the half and quarter turns they can express, and "
        f"{'NED to ENU' if target == 'enu' else 'ENU to NED'} turns the world half a turn about the north-east diagonal "
        "(components of sqrt(2)/2): multiply by that rotation instead (q_enu_flu = q_enu_ned * q_ned_frd * q_frd_flu)",
        (), loc(at), severity=Severity.WARNING,
    )


# --- UTM coordinates in the x and y of a world frame --------------------------------------------------------------
# gps_common's and robot_localization's LLtoUTM(lat, lon, northing, easting, zone) write the northing first, and
# UTMtoLL(northing, easting, zone, lat, lon) reads it first: a point's x and y handed over in that order put north
# on x (NED order), where REP-103/105 world frames are ENU, x east and y north
_UTM_SLOTS = {"LLtoUTM": 2, "UTMtoLL": 0}
_AXIS_FIELD = re.compile(r"(?:\.|->)\s*([xy])\s*$")


def utm_axes_finding(name: str, args: list[str], loc: Location) -> Finding | None:
    """INCORRECT_TRANSFORM (warning) when ``name``'s northing and easting slots take a point's ``.x`` and ``.y``
    in that order (novatel_oem7_driver's ``LLtoUTM(lat, lon, pt.x, pt.y, zone)``)."""
    first = _UTM_SLOTS.get(name)
    if first is None or len(args) < first + 2:
        return None
    axes = [m.group(1) if (m := _AXIS_FIELD.search(a)) else None for a in args[first:first + 2]]
    if axes != ["x", "y"]:
        return None
    how = "writes the northing into x and the easting into y" if name == "LLtoUTM" else "reads the northing from x and the easting from y"
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{name}'s northing and easting slots get '{args[first].strip()}' and '{args[first + 1].strip()}': it {how} "
        "(north, east: NED order), where REP-103/105 world frames are ENU, x east and y north: swap them",
        (), loc, severity=Severity.WARNING)
