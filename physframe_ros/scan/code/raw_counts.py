"""A message quaternion filled with a device's raw integer counts (Python drivers that unpack registers).

The BNO055 drivers (ROS 1 bosch_imu_driver and its ROS 2 port) read the fused orientation as four signed
16-bit registers, ``float(struct.unpack('h', struct.pack('BB', buf[24], buf[25]))[0])``, and copied them into
``orientation.w/x/y/z`` as they were: one unit is 2^14 counts, so the quaternion is about 16384 long, while the
acceleration and rate beside it are divided by their scale factors. A count unpacked with an integer format and
written into a quaternion component with no arithmetic around it is such a value.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from ...core.findings import Finding, Location, Severity

_COMPONENTS = frozenset({"x", "y", "z", "w"})
_QUATERNIONS = frozenset({"orientation", "rotation", "quaternion"})
_INTEGER_FORMAT = re.compile(r"[@=<>!]?\d*[bBhHiIlLqQ]+")  # struct's integer codes only: no float ('f', 'd')


@dataclass(frozen=True)
class RawQuaternion:
    message: str  # the message path whose quaternion takes the counts (``imu_data.orientation``)
    line: int  # the first component written so
    source: str


def _unpacked_integer(value: ast.expr) -> bool:
    """``float(struct.unpack('h', raw)[0])``, ``unpack('<h', raw)[0]``, ``int(...)``: an integer count as read."""
    while isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and value.func.id in ("float", "int") and len(value.args) == 1:
        value = value.args[0]
    if not isinstance(value, ast.Subscript) or not isinstance(value.value, ast.Call):
        return False
    call = value.value
    name = call.func.attr if isinstance(call.func, ast.Attribute) else call.func.id if isinstance(call.func, ast.Name) else ""
    fmt = call.args[0] if call.args else None
    return (name in ("unpack", "unpack_from") and isinstance(fmt, ast.Constant) and isinstance(fmt.value, str)
            and _INTEGER_FORMAT.fullmatch(fmt.value) is not None)


def python_raw_quaternions(tree: ast.AST) -> list[RawQuaternion]:
    """Each message quaternion of the file some component of which is assigned a raw unpacked integer."""
    found: dict[str, RawQuaternion] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign) or len(node.targets) != 1 or not isinstance(node.targets[0], ast.Attribute):
            continue
        target = node.targets[0]
        owner = target.value
        if target.attr not in _COMPONENTS or not isinstance(owner, ast.Attribute) or owner.attr not in _QUATERNIONS:
            continue
        if _unpacked_integer(node.value):
            path = ast.unparse(owner)
            if path not in found or node.lineno < found[path].line:
                found[path] = RawQuaternion(path, node.lineno, ast.unparse(node.value))
    return sorted(found.values(), key=lambda r: r.line)


def finding(raw: RawQuaternion, loc: Location) -> Finding:
    return Finding(
        "INVALID_TRANSFORM",
        f"{raw.message} takes raw integer counts as the device sends them ({raw.source[:80]}): a quaternion component is at "
        "most 1, a count is not scaled (the BNO055's unit is 2^14 counts), so the quaternion is far from unit length and "
        "consumers normalise garbage or reject it; divide each component by the device's scale",
        (), loc, severity=Severity.WARNING,
    )
