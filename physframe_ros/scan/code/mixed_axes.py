"""A device's vectors converted into ROS axes beside one copied as the device gives it, under one frame.

IMU drivers read NED (or FRD) data and turn each vector into ENU (FLU) component by component before publishing:
``imu.angular_velocity.x = r.gyro(1); .y = r.gyro(0); .z = -r.gyro(2)``. A vector of the same device copied
straight (``rpy.vector.x = r.euler(0); .y = r.euler(1); .z = r.euler(2)``) and stamped with the same header
is then in the device's axes under a frame that says ROS axes (the um6 drivers' roll/pitch/yaw and magnetometer).
Read from the function's text: each assignment of a vector component from an indexed component of the device.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...core.findings import Finding, Location, Severity

# `msg.vector.x = -r.mag.get_scaled(2);`, `self.imu.angular_velocity.y = math.radians(data['GYRO'][0])`
_WRITE = re.compile(
    r"^[ \t]*(?P<target>[\w.\->\[\]]+?)\s*(?:\.|->)\s*(?P<axis>[xyz])\s*=\s*(?P<sign>-?)\s*\(?\s*"
    r"(?:(?:math|np|numpy)\.(?:radians|deg2rad)\s*\()?\s*(?P<source>[\w.\->\[\]'\"]+?)\s*(?:\[\s*(?P<i>[0-2])\s*\]|\(\s*(?P<j>[0-2])\s*\))"
    r"\s*\)?\s*[;)]*\s*(?:\*[^;\n]*)?;?\s*$",
    re.MULTILINE,
)
# `rpy_msg.header = header;`, `self.rpy_data.header = self.imu_data.header`
_HEADER = re.compile(r"^[ \t]*(?P<target>[\w.\->\[\]]+?)\s*(?:\.|->)\s*header\s*=\s*(?P<source>[\w.\->\[\]]+)\s*;?\s*$", re.MULTILINE)
_ROOT = re.compile(r"^(?:self\.|this->)?(\w+)")
# the vector of a device in ROS axes from NED (x, y swapped, z negated) or from FRD (y and z negated)
_CONVERSIONS: dict[tuple[tuple[int, int], ...], str] = {((1, 1), (0, 1), (2, -1)): "NED to ENU", ((0, 1), (1, -1), (2, -1)): "FRD to FLU"}
_AS_GIVEN = ((0, 1), (1, 1), (2, 1))


@dataclass(frozen=True)
class _Vector:
    target: str  # the message field written: `rpy_msg.vector`
    source: str  # the device's data it is read from: `r.euler`
    mapping: tuple[tuple[int, int], ...]  # x, y, z: (source index, sign)
    line: int  # of its x component

    @property
    def device(self) -> str | None:
        """The device's data the source reads: ``r`` of ``r.gyro.get_scaled``, ``data`` of ``data['GYRO']``."""
        m = _ROOT.match(self.source)
        return m.group(1) if m else None


def _vectors(text: str, first_line: int) -> Iterator[_Vector]:
    parts: dict[str, dict[str, tuple[int, int, str, int]]] = {}
    for m in _WRITE.finditer(text):
        index = int(m.group("i") if m.group("i") is not None else m.group("j"))
        line = first_line + text.count("\n", 0, m.start())
        parts.setdefault(m.group("target"), {})[m.group("axis")] = (index, -1 if m.group("sign") else 1, m.group("source"), line)
    for target, axes in parts.items():
        if set(axes) != {"x", "y", "z"} or len({axes[a][2] for a in "xyz"}) != 1:
            continue
        yield _Vector(target, axes["x"][2], tuple((axes[a][0], axes[a][1]) for a in "xyz"), axes["x"][3])


def _message(target: str) -> str:
    """``imu_msg.angular_velocity`` -> ``imu_msg``: the message a vector field belongs to."""
    return re.split(r"\.|->", target)[0] if not target.startswith(("self.", "this->")) else ".".join(re.split(r"\.|->", target)[:2])


def mixed_axes_findings(text: str, first_line: int, path: str) -> list[Finding]:
    """INCORRECT_TRANSFORM (warning) for each vector of a device copied in its own axes in a function (``text``,
    starting at ``first_line``) that converts the same device's other vectors into ROS axes and stamps both with
    one header: the same message, or headers assigned from one source or from the converted message's header."""
    if "header" not in text:
        return []
    vectors = list(_vectors(text, first_line))
    converted = [v for v in vectors if v.mapping in _CONVERSIONS]
    raw = [v for v in vectors if v.mapping == _AS_GIVEN]
    if not converted or not raw:
        return []
    headers = {m.group("target"): m.group("source") for m in _HEADER.finditer(text)}

    def header_of(message: str) -> str:
        return headers.get(message, f"{message}.header")

    out = []
    for v in raw:
        message = _message(v.target)
        for c in converted:
            other = _message(c.target)
            shared = message == other or header_of(message) in (header_of(other), f"{other}.header")
            if v.device is not None and v.device == c.device and shared:
                out.append(Finding(
                    "INCORRECT_TRANSFORM",
                    f"{v.target}'s x, y, z are {v.source}'s 0, 1, 2, the device's axes as it gives them, while "
                    f"{c.target} (line {c.line}) is turned {_CONVERSIONS[c.mapping]} from the same device and stamped with the "
                    f"same header: {v.target} stays in the device's axes under a frame that says otherwise; convert it the "
                    "same way",
                    (), Location(path, v.line), severity=Severity.WARNING,
                ))
                break
    return out
