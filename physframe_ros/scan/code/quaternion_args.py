"""Quaternions built from another quaternion's four components in the other library's order.

Eigen's four-number constructor takes ``(w, x, y, z)``; tf2's and tf's ``Quaternion``, geometry_msgs,
tf_transformations' and scipy's lists take ``(x, y, z, w)``; transforms3d, Christoph Gohlke's
``transformations`` and pyquaternion take w first. ``Eigen::Quaterniond(p.orientation.x, p.orientation.y,
p.orientation.z, p.orientation.w)`` (Autoware's ``boundingBoxToVertices``) is not the pose's rotation: its w
is read as x, its x as w. The slip is common because both orders look natural.

Read on the arguments' text: only the exact swap between the two conventions is reported, all four
components named on one source (``q.x``, ``q.x()``, ``q.getX()``, ``q['x']``). Any other order may be a
deliberate change of axes (NED to ENU swaps x and y) and is left alone.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Sequence

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


def _swapped(takes: str, order: str | None) -> bool:
    """The components given in the other convention's order, exactly (any other order may be a change of axes)."""
    return order is not None and {takes, order} == {XYZW, WXYZ}


# C++: the constructor's type decides the order. An unqualified ``Quaternion`` (Eigen, tf or KDL by the file's
# `using`) decides nothing and is skipped.
_CPP_CTOR = re.compile(
    r"(?P<type>\bEigen\s*::\s*Quaternion\s*<[^<>;]*>|\b(?:Eigen\s*::\s*)?Quaternion[df]\b|\b(?:tf2|tf)\s*::\s*Quaternion\b|\bbtQuaternion\b)"
    r"\s*(?:\w+\s*)?[({]"
    r"|(?:\.|->)\s*(?P<type2>setValue)\s*\("
)


@dataclass(frozen=True)
class SwappedCall:
    call: str
    takes: str
    order: str
    line: int


def cpp_swapped(text: str) -> list[SwappedCall]:
    """Quaternion constructors (and tf's four-argument ``setValue``) in C++ ``text`` given another quaternion's
    components in the other convention's order."""
    code = blank_keeping_lines(text)
    out: list[SwappedCall] = []
    for m in _CPP_CTOR.finditer(code):
        open_at = m.end() - 1
        args = _balanced_args(code, open_at)
        if args is None or len(args) != 4:
            continue
        type_text = re.sub(r"\s+", "", m.group("type") or m.group("type2"))
        takes = WXYZ if type_text.startswith("Eigen") or type_text.startswith("Quaternion") else XYZW
        order = named_order(args)
        if order is not None and _swapped(takes, order):
            line = 1 + code.count("\n", 0, m.start())
            out.append(SwappedCall(f"{type_text}({', '.join(' '.join(a.split()) for a in args)})", takes, order, line))
    return out


def _balanced_args(code: str, open_at: int) -> list[str] | None:
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
    if not module:
        return None
    if name == "Quaternion":
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
    order = named_order(texts)
    if order is None or not _swapped(takes, order):
        return None
    return SwappedCall(ast.unparse(call), takes, order, call.lineno)


def finding(found: SwappedCall, loc: Location) -> Finding:
    takes, order = found.takes, found.order
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{found.call}: takes a quaternion as ({', '.join(takes)}) but is given one quaternion's ({', '.join(order)}), "
        f"so its components land in the wrong slots ({', '.join(f'{g} as {t}' for g, t in zip(order, takes))}) and the "
        "rotation is not the one meant. Eigen's constructor, transforms3d and pyquaternion take w first; tf2, "
        "geometry_msgs, tf_transformations and scipy take x, y, z, w",
        (), loc,
    )
