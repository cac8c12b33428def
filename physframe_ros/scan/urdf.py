"""URDF -> the edges robot_state_publisher would publish: one per joint, parent link -> child link.

Fixed joints are static (``/tf_static``) with their origin; movable joints are dynamic (``/tf``,
driven by ``joint_states``), their value unknown before the robot runs. ``frame_prefix`` (ROS 2) /
``tf_prefix`` (ROS 1) is prepended to every link name, as robot_state_publisher does.
"""

from __future__ import annotations

from typing import Callable

from ..core.checks import transform_findings
from ..core.findings import Finding, Location
from ..core.rotations import rpy_to_quaternion
from ..core.tree import Edge
from .model import FileFacts, parse_document
from .xml_lines import XmlNode

STATIC_JOINTS = frozenset({"fixed"})
KNOWN_JOINTS = frozenset({"fixed", "revolute", "continuous", "prismatic", "floating", "planar"})

#: Where a joint is declared: for plain URDF its own line; xacro output maps names back to sources.
Locator = Callable[[XmlNode], Location]


def parse_urdf_file(text: str, rel_path: str, prefix: str = "") -> FileFacts:
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    root = parse_document(facts, text, "robot description")
    if root is None:
        return facts
    edges, findings = robot_edges(root, lambda n: Location(rel_path, n.line), prefix)
    facts.edges.extend(edges)
    facts.findings.extend(findings)
    return facts


def robot_edges(robot: XmlNode, locate: Locator, prefix: str = "") -> tuple[list[Edge], list[Finding]]:
    """Edges and per-joint problems of a ``<robot>`` element."""
    edges: list[Edge] = []
    findings: list[Finding] = []
    if robot.tag != "robot":
        loc = locate(robot)
        return [], [Finding("PARSE_ERROR", f"{loc.file}: root element is <{robot.tag}>, not <robot>; not a URDF", (), loc)]
    links = {ln.get("name") for ln in robot.iter("link")}
    for joint in robot.iter("joint"):
        if joint.find("parent") is None and joint.find("child") is None:
            continue  # a transmission's <joint name=...> reference, not a kinematic joint
        loc = locate(joint)
        name = joint.get("name", "")
        jtype = joint.get("type", "")
        parent = _link_attr(joint, "parent")
        child = _link_attr(joint, "child")
        what = f"URDF joint '{name}'"
        if jtype not in KNOWN_JOINTS:
            findings.append(Finding("PARSE_ERROR", f"{what} has type '{jtype}', not one of {', '.join(sorted(KNOWN_JOINTS))}", (), loc))
        for role, link in (("parent", parent), ("child", child)):
            if link and link not in links:
                code = "MISSING_FRAME" if role == "parent" else "MISSING_CHILD_FRAME"
                findings.append(Finding(code, f"{what} names {role} link '{link}', which the robot does not define; urdfdom rejects the model", (link,), loc))
        translation, rotation, problem = _origin(joint.find("origin"))
        if problem:
            findings.append(Finding("PARSE_ERROR", f"{what}: {problem}", (), loc))
        static = jtype in STATIC_JOINTS
        p = prefix + parent if parent else ""
        c = prefix + child if child else ""
        findings.extend(transform_findings(p, c, translation, rotation, loc, what))
        if p and c:
            edges.append(Edge(p, c, static, translation if static else None, rotation if static else None, (loc,)))
    return edges, findings


def _link_attr(joint: XmlNode, tag: str) -> str:
    el = joint.find(tag)
    return (el.get("link") or "").strip() if el is not None else ""


def _origin(el: XmlNode | None) -> tuple[tuple[float, float, float], tuple[float, float, float, float], str | None]:
    """URDF defaults: no <origin> is the identity."""
    if el is None:
        return (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), None
    try:
        xyz = _triple(el.get("xyz"))
        rpy = _triple(el.get("rpy"))
    except ValueError as exc:
        return (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), f"bad <origin>: {exc}"
    return xyz, rpy_to_quaternion(*rpy), None


def _triple(text: str | None) -> tuple[float, float, float]:
    if text is None or not text.strip():
        return (0.0, 0.0, 0.0)
    parts = text.split()
    if len(parts) != 3:
        raise ValueError(f"'{text}' is not three numbers")
    a, b, c = (float(p) for p in parts)  # nan/inf pass through: the transform checks report them
    return (a, b, c)
