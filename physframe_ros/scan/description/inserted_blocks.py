"""A xacro macro that inserts one block parameter as the origin of two joints chained one below the other.

orne_box's ``sensor_imu`` macro (before its fix) took the IMU's mount as ``*origin`` and inserted it into both
``base_link -> imu_link`` and ``imu_link -> imu``: the offset and the turn were applied twice, so the frame the
IMU driver stamps sat twice as far out and twice turned. Read on the macro's own text, whatever its callers pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core.findings import Finding, Location, Severity
from ..xml_lines import XmlNode


@dataclass(frozen=True)
class _Joint:
    name: str
    parent: str
    child: str
    block: str  # the block parameter inserted as its origin
    line: int  # where it is inserted


def _joints(macro: XmlNode) -> list[_Joint]:
    out = []
    for joint in (el for el in macro.iter() if el.tag == "joint"):
        parent, child = joint.find("parent"), joint.find("child")
        block = next((c for c in joint.children if c.tag == "xacro:insert_block" and c.get("name")), None)
        if parent is None or child is None or block is None:
            continue
        out.append(_Joint(joint.get("name") or "", parent.get("link") or "", child.get("link") or "", block.get("name") or "", block.line))
    return out


def doubled_origins(root: XmlNode, rel_path: str) -> list[Finding]:
    """Each joint whose origin is the block its parent joint already took as its own, in one macro."""
    out = []
    for macro in (el for el in root.iter() if el.tag == "xacro:macro"):
        joints = _joints(macro)
        for upper in joints:
            for lower in joints:
                if lower is upper or lower.block != upper.block or not upper.child or lower.parent != upper.child:
                    continue
                out.append(Finding(
                    "INCORRECT_TRANSFORM",
                    f"macro '{macro.get('name')}' inserts its block '*{lower.block}' as the origin of joint '{upper.name}' "
                    f"({upper.parent} -> {upper.child}) and again of joint '{lower.name}' ({lower.parent} -> {lower.child}), "
                    f"one below the other: the mount is applied twice, so '{lower.child}' sits twice as far out and twice "
                    "turned; give the lower joint its own origin (the identity, if the frames coincide)",
                    (lower.parent, lower.child),
                    Location(rel_path, lower.line),
                    severity=Severity.WARNING,
                ))
    return out
