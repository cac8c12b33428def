"""Angles in degrees handed to functions that take radians.

tf's and tf2's ``setRPY``/``createQuaternionFromRPY``, Eigen-free helpers such as ``createQuaternionMsgFromYaw``
and the Python ``quaternion_from_euler``/``euler2quat`` all take radians. An argument that is a value named in
degrees (``data.angular_deg[1]``, ``yaw_deg``: cit_adis_imu's IMU node, which converted the yaw and not the pitch
beside it) or one converted to degrees on the spot (``math.degrees(yaw)``) turns the frame by 57 times the angle
meant. Read on the argument's text; an argument that also converts to radians (``deg_to_rad(x_deg)``,
``x_deg * M_PI / 180``, ``angles::from_degrees(x)``) is left alone.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ...core.findings import Finding, Location, Severity
from .headers import blank_keeping_lines
from .quaternion_args import balanced_args

RADIAN_CALLS = ("setRPY", "setEuler", "setEulerYPR", "setEulerZYX", "createQuaternionFromRPY", "createQuaternionMsgFromRollPitchYaw",
                "createQuaternionFromYaw", "createQuaternionMsgFromYaw", "quaternion_from_euler", "euler2quat", "euler2mat")
_CPP_CALL = re.compile(rf"\b({'|'.join(RADIAN_CALLS)})\s*\(")
_TO_DEGREES = re.compile(r"\b(?:degrees|rad2deg|to_degrees|toDegrees|RAD2DEG|RAD_TO_DEG|rad_to_deg)\b|\*\s*180(?:\.0*)?\s*/\s*(?:M_PI|pi|math\.pi|np\.pi)\b")
_IN_DEGREES = re.compile(r"(?:^|[^A-Za-z])deg(?:rees)?(?![a-z])|[a-z0-9]Deg(?:rees)?(?![a-z])")
_TO_RADIANS = re.compile(r"(?i:rad)|M_PI|\b(?:pi|PI)\b|180|from_degrees")


@dataclass(frozen=True)
class DegreesArgument:
    call: str
    argument: str
    converted: bool  # converted to degrees on the spot, rather than a value named in degrees
    line: int


def degrees_argument(call: str, argument: str, line: int) -> DegreesArgument | None:
    text = " ".join(argument.split())
    if _TO_DEGREES.search(text):
        return DegreesArgument(call, text, True, line)
    if _IN_DEGREES.search(text) and not _TO_RADIANS.search(text):
        return DegreesArgument(call, text, False, line)
    return None


def cpp_degrees(text: str) -> list[DegreesArgument]:
    """Calls of ``RADIAN_CALLS`` in C++ ``text`` given an angle in degrees."""
    code = blank_keeping_lines(text)
    out: list[DegreesArgument] = []
    for m in _CPP_CALL.finditer(code):
        args = balanced_args(code, m.end() - 1)
        line = 1 + code.count("\n", 0, m.start())
        found = next((d for a in args or () for d in [degrees_argument(m.group(1), a, line)] if d is not None), None)
        if found is not None:
            out.append(found)
    return out


def python_degrees(tree: ast.AST) -> list[DegreesArgument]:
    """The same in Python: by the called name, whatever module it comes from (all of them take radians)."""
    out: list[DegreesArgument] = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.attr if isinstance(node.func, ast.Attribute) else node.func.id if isinstance(node.func, ast.Name) else ""
        if name not in RADIAN_CALLS:
            continue
        found = next((d for a in node.args for d in [degrees_argument(name, ast.unparse(a), node.lineno)] if d is not None), None)
        if found is not None:
            out.append(found)
    return out


def finding(found: DegreesArgument, loc: Location) -> Finding:
    how = "converted to degrees here" if found.converted else "named as an angle in degrees"
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{found.call}(...) takes radians, but its argument '{found.argument[:80]}' is {how}: the rotation is about 57 "
        "times the angle meant; convert it with a degrees-to-radians factor (M_PI / 180, math.radians, angles::from_degrees)",
        (), loc, severity=Severity.WARNING,
    )
