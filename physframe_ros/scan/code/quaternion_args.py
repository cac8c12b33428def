"""Quaternions built from another quaternion's four components in the other library's order.

Eigen's four-number constructor takes ``(w, x, y, z)``, and so do gtsam's ``Rot3(w, x, y, z)`` and
``Rot3::Quaternion``, and Gazebo's math library (``gz::math::Quaterniond``, ignition's and Gazebo classic's, and
their ``Set``); tf2's and tf's ``Quaternion``, geometry_msgs,
tf_transformations' and scipy's lists take ``(x, y, z, w)``; transforms3d, Christoph Gohlke's
``transformations`` and pyquaternion take w first. ``Eigen::Quaterniond(p.orientation.x, p.orientation.y,
p.orientation.z, p.orientation.w)`` (Autoware's ``boundingBoxToVertices``) is not the pose's rotation: its w
is read as x, its x as w. The slip is common because both orders look natural.

Read on the arguments' text, all four components named on one source (``q.x``, ``q.x()``, ``q.getX()``,
``q['x']``): the exact swap between the two conventions is reported, and so is the scalar part w at the other
convention's end with x, y and z in any order and signs before it (flightmare's ROS-to-Unity conversion
``Quaternion(q.y(), -q.z(), -q.x(), q.w())`` for Eigen's w-first constructor). Any other order may be a deliberate
change of axes (NED to ENU swaps x and y) and is left alone. A quaternion written from an angle
tells its order too: its scalar part is ``cos(θ/2)``, the others ``sin(θ/2)`` times the axis or zero, so
``Eigen::Quaterniond(0, 0, 0, cos(a / 2))`` (kalman_filter_localization's EKF) puts w in z's slot.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Mapping, Sequence

from ...core.findings import Finding, Location
from .headers import blank_keeping_lines

XYZW, WXYZ = "xyzw", "wxyz"

_NAMED = re.compile(r"^(?P<base>.+?)\s*(?:(?:\.|->)\s*(?:(?P<c>[xyzw])\s*(?:\(\s*\))?|get(?P<g>[XYZW])\s*\(\s*\))|\[\s*['\"](?P<k>[xyzw])['\"]\s*\])$")


def named_order(texts: Sequence[str]) -> str | None:
    """The components four arguments name, in argument order (``"xyzw"`` for ``q.x, q.y, q.z, q.w``), when all four
    are components of one source; else None."""
    if len(texts) != 4:
        return None
    bases, letters = set(), []
    for text in texts:
        m = _NAMED.match(text.strip().lstrip("+-").strip())
        if m is None:
            return None
        bases.add(re.sub(r"\s+", "", m.group("base")))
        letters.append((m.group("c") or m.group("g") or m.group("k")).lower())
    order = "".join(letters)
    return order if len(bases) == 1 and sorted(order) == sorted(XYZW) else None


_COS = re.compile(r"^(?:(?:std|math|np|numpy)\s*(?:::|\.)\s*)?cosf?\s*\(")
_SIN = re.compile(r"\bsinf?\s*\(")
_ZERO = re.compile(r"^(?:T\s*\(\s*)?0*\.?0*[fFlL]?\s*\)?$")


def half_angle_order(texts: Sequence[str]) -> str | None:
    """The order an angle-built quaternion's arguments imply: one is a bare ``cos(...)`` (the scalar part w), each
    other holds a ``sin(...)`` or is zero. ``"wxyz"`` when the cosine comes first, ``"xyzw"`` when last; else None."""
    if len(texts) != 4:
        return None
    flat = [" ".join(t.split()) for t in texts]
    cosines = [i for i, t in enumerate(flat) if _COS.match(t) and _closes_at_end(t, t.index("("))]
    if len(cosines) != 1 or cosines[0] not in (0, 3):
        return None
    if not all(_SIN.search(t) or _ZERO.match(t) for i, t in enumerate(flat) if i != cosines[0]):
        return None
    return WXYZ if cosines[0] == 0 else XYZW


def _closes_at_end(text: str, open_at: int) -> bool:
    """The bracket opened at ``open_at`` closes at the text's last character (the text is one call)."""
    depth = 0
    for i in range(open_at, len(text)):
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        if depth == 0:
            return i == len(text) - 1
    return False


def _swapped(takes: str, order: str | None) -> bool:
    """The components given in the other convention's order: exactly, or with the scalar w where that convention
    puts it and the axes rearranged before or after it (any other order may be a change of axes)."""
    if order is None:
        return False
    return {takes, order} == {XYZW, WXYZ} or (order[3] == "w" if takes == WXYZ else order[0] == "w")


# Gazebo's math library (gz-math, ignition-math, Gazebo classic's gazebo::math): Quaternion(w, x, y, z) and Set(w, x, y, z)
# written out with its namespace anywhere; as a bare `math::Quaternion` only in a file that includes Gazebo's headers
# (YARP's `yarp::math::Quaternion`, also written `math::Quaternion`, takes x, y, z, w)
_BARE_GZ_TYPE = r"math\s*::\s*Quaternion(?:[df]\b|\s*<[^<>;]*>|\b)"
_GZ_QUATERNION = r"\b(?:gz|ignition|gazebo)\s*::\s*" + _BARE_GZ_TYPE
_BARE_GZ = r"(?<![\w:])" + _BARE_GZ_TYPE
_BARE_GZ_QUATERNION = re.compile(rf"(?P<type>{_BARE_GZ})\s*(?:\w+\s*)?[({{]")
_GZ_INCLUDE = re.compile(r"#\s*include\s*[<\"](?:gz|ignition|gazebo)/")
_GZ_DECLARED = r"(?:{type})\s+(\w+)\s*[;={{(]"

# C++: the constructor's type decides the order. An unqualified ``Quaternion`` (Eigen, tf or KDL by the file's
# `using`) decides nothing and is skipped, unless the file or its own headers alias it (:func:`quaternion_aliases`).
_CPP_CTOR = re.compile(
    r"(?P<type>\bEigen\s*::\s*Quaternion\s*<[^<>;]*>|\b(?:Eigen\s*::\s*)?Quaternion[df]\b|\b(?:tf2|tf)\s*::\s*Quaternion\b|\bbtQuaternion\b"
    r"|\b(?:gtsam\s*::\s*)?Rot3(?:\s*::\s*Quaternion)?\b|\bgtsam\s*::\s*Quaternion\b|" + _GZ_QUATERNION + ")"
    r"\s*(?:\w+\s*)?[({]"
    r"|(?:\.|->)\s*(?P<type2>setValue)\s*\("
)


@dataclass(frozen=True)
class SwappedCall:
    call: str
    takes: str
    order: str
    line: int
    by_angle: bool = False  # the order read from where cos(θ/2) stands, not from named components
    start: str = ""  # Eigen's 4-vector form: the index its four coefficients start at, named for w


# four coefficients of a state vector starting at an index named for w: `x.segment<4>(MAV_ORIENTATION_W_WORLD)`,
# `x.segment(QW, 4)`; Eigen's Quaternion(const Vector4&) reads them as x, y, z, w
_W_SEGMENT = re.compile(r"\.\s*segment\s*(?:<\s*4\s*>\s*\(\s*(?P<a>[\w:]+)\s*\)|\(\s*(?P<b>[\w:]+)\s*,\s*4\s*\))\s*$")
_NAMES_W = re.compile(r"(?:^|_)(?:Q|QUAT|ATT|ORIENTATION|ROT)?_?W(?:_|$)", re.IGNORECASE)


_QUATERNION_TYPE = r"(?:Eigen\s*::\s*Quaternion\s*<[^<>;]*>|Eigen\s*::\s*Quaternion[df]|(?:tf2|tf)\s*::\s*Quaternion)"
_QUATERNION_ALIAS = re.compile(rf"\busing\s+(\w+)\s*=\s*({_QUATERNION_TYPE})\s*;|\btypedef\s+({_QUATERNION_TYPE})\s+(\w+)\s*;")


def quaternion_aliases(texts: Sequence[str]) -> dict[str, str]:
    """``using Quaternion = Eigen::Quaternion<Scalar>;`` (flightmare's types.hpp) or a typedef in any of ``texts``:
    the alias -> the quaternion type it names."""
    out: dict[str, str] = {}
    for text in texts:
        if "Quaternion" in text:
            for m in _QUATERNION_ALIAS.finditer(text):
                out[m.group(1) or m.group(4)] = re.sub(r"\s+", "", m.group(2) or m.group(3))
    return out


def quaternion_members(declared: Mapping[str, str]) -> dict[str, str]:
    """Of member name -> declared type (:func:`headers.member_declarations`), those of a quaternion type."""
    return {name: re.sub(r"\s+", "", type_text) for name, type_text in declared.items() if re.fullmatch(_QUATERNION_TYPE, type_text)}


def cpp_swapped(text: str, aliases: Mapping[str, str] | None = None, members: Mapping[str, str] | None = None) -> list[SwappedCall]:
    """Quaternion constructors (and tf's four-argument ``setValue``) in C++ ``text`` given another quaternion's
    components in the other convention's order; ``aliases``: names the file uses for quaternion types; ``members``:
    members declared of a quaternion type, assigned a braced list (bitbots' ``goals.kick_direction = {m.x, m.y, m.z,
    m.w}`` into an ``Eigen::Quaterniond``)."""
    code = blank_keeping_lines(text)
    out: list[SwappedCall] = []
    ctors = [_CPP_CTOR]
    if aliases:
        ctors.append(re.compile(rf"(?<![\w:.>])(?P<type>{'|'.join(map(re.escape, aliases))})\s*(?:\w+\s*)?[({{]"))
    if members:
        ctors.append(re.compile(rf"(?:\.|->)\s*(?P<member>{'|'.join(map(re.escape, members))})\s*=\s*\{{"))
    gazebo = _GZ_INCLUDE.search(text) is not None
    if gazebo:
        ctors.append(_BARE_GZ_QUATERNION)
    declared = _GZ_QUATERNION + (f"|{_BARE_GZ}" if gazebo else "")
    gz_names = {m.group(1) for m in re.finditer(_GZ_DECLARED.format(type=declared), code)}
    if gz_names:  # aerostack2's odometry plugin: `math::Quaterniond quat_earth; quat_earth.Set(q.x(), q.y(), q.z(), q.w())`
        ctors.append(re.compile(rf"\b(?P<gz>{'|'.join(map(re.escape, gz_names))})\s*(?:\.|->)\s*Set\s*\("))
    seen: set[int] = set()
    for m in (m for ctor in ctors for m in ctor.finditer(code)):
        open_at = m.end() - 1
        if open_at in seen:  # an alias spelled like a type the first pattern knows
            continue
        seen.add(open_at)
        args = balanced_args(code, open_at)
        groups = m.groupdict()
        member = groups.get("member")
        gz = groups.get("gz")
        written = re.sub(r"\s+", "", groups.get("type") or groups.get("type2") or member or (f"{gz}.Set" if gz else ""))
        if args is not None and len(args) == 1 and groups.get("type") and written.startswith(("Eigen", "Quaternion")):
            given = re.sub(r"\s+", "", args[0])
            seg = _W_SEGMENT.search(given)
            start = (seg.group("a") or seg.group("b")).split("::")[-1] if seg else ""
            if _NAMES_W.search(start):
                out.append(SwappedCall(f"{written}({given})", XYZW, WXYZ, 1 + code.count("\n", 0, m.start()), start=start))
            continue
        if args is None or len(args) != 4:
            continue
        type_text = (members or {}).get(written, written) if member else (aliases or {}).get(written, written)
        # gtsam's Rot3(w, x, y, z), Gazebo's math::Quaternion(w, x, y, z) and its Set(w, x, y, z)
        takes = WXYZ if gz or type_text.startswith(("Eigen", "Quaternion", "gtsam", "Rot3", "gz", "ignition", "gazebo", "math")) else XYZW
        named = named_order(args)
        order = named or half_angle_order(args)
        if order is not None and _swapped(takes, order):
            line = 1 + code.count("\n", 0, m.start())
            given = ", ".join(" ".join(a.split()) for a in args)
            call = (f"{written} = {{{given}}} ({written} is declared {type_text})" if member else
                    f"{written}({given}) ({gz} is a Gazebo math quaternion)" if gz else
                    f"{written}({given})" + (f" ({written} is {type_text} here)" if written != type_text else ""))
            out.append(SwappedCall(call, takes, order, line, named is None))
    return out


def balanced_args(code: str, open_at: int) -> list[str] | None:
    """The top-level comma-separated arguments of the bracket opened at ``open_at``, or None if it never closes
    within a statement's reach."""
    depth, start, args = 0, open_at + 1, []
    for i in range(open_at, min(len(code), open_at + 2000)):
        ch = code[i]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                args.append(code[start:i])
                return args
        elif ch == "," and depth == 1:
            args.append(code[start:i])
            start = i + 1
        elif ch == ";":
            return None
    return None


# Python: the functions taking one quaternion list, by the module they come from
_W_FIRST_MODULES = ("transforms3d", "pyquaternion", "quaternion")  # `transformations` (Gohlke) is decided by the caller
_LIST_FUNCTIONS = frozenset({
    "euler_from_quaternion", "quaternion_matrix", "quaternion_inverse", "quaternion_conjugate",
    "quat2mat", "quat2euler", "quat2axangle", "qinverse", "qconjugate", "from_quat",
})


def python_swapped(call: ast.Call, module: str | None, w_first: bool) -> SwappedCall | None:
    """A Python call given another quaternion's components in the other convention's order. ``module``: where the
    called name comes from (its import), None when not known; ``w_first``: it is Gohlke's ``transformations``."""
    func = call.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if name == "sendTransform" and len(call.args) >= 2 and isinstance(call.args[1], (ast.List, ast.Tuple)):
        # tf's (ROS 1) broadcaster: sendTransform(translation, rotation, time, child, parent), rotation x, y, z, w
        takes, texts = XYZW, [ast.unparse(e) for e in call.args[1].elts]
    elif not module:
        return None
    elif name == "Quaternion":
        if module.split(".")[0] in ("geometry_msgs", "PyKDL"):
            takes = XYZW
        elif module.split(".")[0] in ("pyquaternion", "quaternion"):
            takes = WXYZ
        else:
            return None
        if call.keywords and takes == XYZW:
            slots = {k.arg: k.value for k in call.keywords if k.arg}
            if set(slots) != set(XYZW) or call.args:
                return None
            texts = [ast.unparse(slots[a]) for a in XYZW]
        else:
            texts = [ast.unparse(a) for a in call.args]
    elif name in _LIST_FUNCTIONS and len(call.args) >= 1 and isinstance(call.args[0], (ast.List, ast.Tuple)):
        if name == "from_quat":
            if module.split(".")[0] != "scipy":
                return None
            first = next((k.value for k in call.keywords if k.arg == "scalar_first"), None)
            takes = WXYZ if isinstance(first, ast.Constant) and first.value is True else XYZW
        elif module.split(".")[0] in _W_FIRST_MODULES or w_first:
            takes = WXYZ
        elif module in ("tf.transformations", "tf_transformations"):
            takes = XYZW
        else:
            return None
        texts = [ast.unparse(e) for e in call.args[0].elts]
    else:
        return None
    named = named_order(texts)
    order = named or half_angle_order(texts)
    if order is None or not _swapped(takes, order):
        return None
    return SwappedCall(ast.unparse(call), takes, order, call.lineno, named is None)


def finding(found: SwappedCall, loc: Location) -> Finding:
    takes, order = found.takes, found.order
    if found.start:
        return Finding(
            "INCORRECT_TRANSFORM",
            f"{found.call}: Eigen's quaternion constructor from a 4-vector reads its coefficients as (x, y, z, w), but these "
            f"four start at '{found.start}', named for w: the state holds (w, x, y, z), so w is read as x and the rotation "
            "is not the one meant; build it as Quaternion(w, x, y, z) from the components",
            (), loc,
        )
    given = (f"is given one built from an angle in ({', '.join(order)}) order (cos(θ/2), the scalar part w, stands "
             f"{'first' if order == WXYZ else 'last'})" if found.by_angle else f"is given one quaternion's ({', '.join(order)})")
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{found.call}: takes a quaternion as ({', '.join(takes)}) but {given}, "
        f"so its components land in the wrong slots ({', '.join(f'{g} as {t}' for g, t in zip(order, takes))}) and the "
        "rotation is not the one meant. Eigen's constructor, gtsam's Rot3, transforms3d and pyquaternion take w first; tf2, "
        "geometry_msgs, tf_transformations and scipy take x, y, z, w",
        (), loc,
    )
