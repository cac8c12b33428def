"""URDF -> the edges robot_state_publisher would publish: one per joint, parent link -> child link.

Fixed joints are static (``/tf_static``) with their origin; movable joints are dynamic (``/tf``,
driven by ``joint_states``), their value unknown before the robot runs. ``frame_prefix`` (ROS 2) /
``tf_prefix`` (ROS 1) is prepended to every link name, as robot_state_publisher does.
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Callable

from ...core.checks import frame_id_problem, transform_findings
from ...core.findings import Finding, Location, Severity
from ...core.rotations import rpy_to_quaternion
from ...core.tree import Edge
from ..model import FileFacts, parse_document
from ..xml_lines import XmlNode
from .camera_plugins import camera_plugin_findings, gazebo_sensors, sensor_frame_findings
from .earth_plugins import earth_mapping_findings
from .industrial_frames import joint_link, tool_frame_findings
from .plugin_frames import plugin_frame_findings

STATIC_JOINTS = frozenset({"fixed"})
KNOWN_JOINTS = frozenset({"fixed", "revolute", "continuous", "prismatic", "floating", "planar"})

#: Where a joint is declared: for plain URDF its own line; xacro output maps names back to sources.
Locator = Callable[[XmlNode], Location]


def parse_urdf_file(text: str, rel_path: str, prefix: str = "") -> FileFacts:
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    root = parse_document(facts, text, "robot description", lenient_comments=True)
    if root is None:
        return facts
    edges, findings = robot_edges(root, lambda n: Location(rel_path, n.line), prefix)
    if root.tag == "robot" and _is_fragment(root):
        # included into a robot elsewhere (or expanded by xacro at launch): its links may live there
        facts.partial = True
        facts.notes.append(f"{rel_path}:{root.line}: a robot description fragment (xacro markup, or joints and no link of its own); "
                           "names xacro builds are unknown and links defined elsewhere are not reported")
        findings = [f for f in findings if f.code not in ("MISSING_FRAME", "MISSING_CHILD_FRAME")]
    facts.edges.extend(edges)
    facts.findings.extend(findings)
    facts.sim_sensors.extend(gazebo_sensors(root, lambda n: Location(rel_path, n.line), prefix))
    return facts


def _is_fragment(robot: XmlNode) -> bool:
    """A ``.urdf`` that xacro still has to expand, or that defines joints and no link: a part of a robot."""
    if any(c.tag.startswith("xacro:") for c in robot.children) or any(k.startswith("xmlns:xacro") for k in robot.attrib):
        return True
    return not robot.findall("link") and bool(robot.findall("joint"))


def _xacro_built(name: str) -> bool:
    """A name xacro builds (``${prefix}base_link``, ``$(arg ns)/laser``): unknown until expanded."""
    return "${" in name or "$(" in name


def robot_edges(robot: XmlNode, locate: Locator, prefix: str = "",
                origin_of: Callable[[Location], Location] | None = None,
                rotation_of: Callable[[XmlNode], Location | None] | None = None) -> tuple[list[Edge], list[Finding]]:
    """Edges and per-joint problems of a ``<robot>`` element. ``origin_of``: where the ``<origin>`` of the joint
    located at a place is written (an expanded xacro's elements other than joints keep no line of their own);
    ``rotation_of``: where a macro's caller passes the joint's rotation in, if it does (the line to change)."""
    edges: list[Edge] = []
    findings: list[Finding] = []
    if robot.tag != "robot":
        loc = locate(robot)
        return [], [Finding("PARSE_ERROR", f"{loc.file}: root element is <{robot.tag}>, not <robot>; not a URDF", (), loc)]
    links = {ln.get("name") for ln in robot.findall("link")}
    # only the robot's own children: joints inside <gazebo> (plugin parameters) or a transmission are not URDF joints
    for joint in robot.findall("joint"):
        if joint.find("parent") is None and joint.find("child") is None:
            continue  # a joint reference, not a kinematic joint
        loc = locate(joint)
        name = joint.get("name", "")
        jtype = joint.get("type", "")
        parent = joint_link(joint, "parent")
        child = joint_link(joint, "child")
        what = f"URDF joint '{name}'"
        if jtype not in KNOWN_JOINTS:
            findings.append(Finding("PARSE_ERROR", f"{what} has type '{jtype}', not one of {', '.join(sorted(KNOWN_JOINTS))}", (), loc))
        if _xacro_built(parent) or _xacro_built(child):
            continue  # the name is only known once xacro expands the file
        for role, link in (("parent", parent), ("child", child)):
            if link and link not in links:
                code = "MISSING_FRAME" if role == "parent" else "MISSING_CHILD_FRAME"
                findings.append(Finding(code, f"{what} names {role} link '{link}', which the robot does not define; urdfdom rejects the model", (link,), loc))
        origin = joint.find("origin")
        translation, rotation, problem = _origin(origin)
        passed = rotation_of(joint) if rotation_of is not None else None
        if problem:
            findings.append(Finding("PARSE_ERROR", f"{what}: {problem}; its transform is unknown", (), loc))
        else:
            for f in _degrees(origin, what, (parent, child), loc):
                # a plain URDF's origin is located at its own line; an expanded xacro's where its source writes it
                at = passed or (replace(loc, line=origin.line) if origin is not None and loc.line == joint.line
                                else origin_of(loc) if origin_of else loc)
                findings.append(f.with_(location=at))
        static = jtype in STATIC_JOINTS
        p = prefix + parent if parent else ""
        c = prefix + child if child else ""
        findings.extend(transform_findings(p, c, translation, rotation, loc, what))
        if p and c:
            edges.append(Edge(p, c, static, translation if static else None, rotation if static else None, (loc,), rotation_at=passed))
    findings = _named_at_links(robot, findings, locate, prefix)
    findings.extend(camera_plugin_findings(robot, edges, locate, prefix))
    findings.extend(sensor_frame_findings(robot, edges, locate, prefix))
    findings.extend(plugin_frame_findings(robot, locate))
    findings.extend(earth_mapping_findings(robot, locate))
    findings.extend(tool_frame_findings(robot, edges, locate, prefix))
    return edges, findings


def _named_at_links(robot: XmlNode, findings: list[Finding], locate: Locator, prefix: str) -> list[Finding]:
    """A link name tf2 rejects (``<link name="/veh/footprint"/>``: duckietown's) is reported at the ``<link>`` that
    names it as well as at each joint that uses it (every line the fix changes); a robot of links alone is checked too."""
    links = {name: ln for ln in robot.findall("link") if (name := (ln.get("name") or "").strip()) and not _xacro_built(name)}
    out = list(findings)
    for name, ln in links.items():
        problem = frame_id_problem(prefix + name)
        if problem:
            out.append(Finding("INVALID_FRAME_ID", f"URDF link '{name}': {problem}", (prefix + name,), locate(ln)))
    return out


def _degrees(origin: XmlNode | None, what: str, frames: tuple[str, str], loc: Location) -> list[Finding]:
    """An rpy angle that is a whole number beyond 2*pi (``rpy="0 90 0"``: pr2_simulator's dual_link) is degrees
    written where URDF reads radians: 90 rad is a turn of 90 mod 2*pi = 1.04 rad, not a quarter turn."""
    try:
        angles = _triple(origin.get("rpy")) if origin is not None else ()
    except ValueError:
        return []
    big = [a for a in angles if 2 * math.pi + 0.01 < abs(a) <= 360 and abs(a - round(a)) < 1e-9]
    if not big:
        return []
    a = big[0]
    return [Finding(
        "INCORRECT_TRANSFORM",
        f"{what}: rpy holds {a:g}, which URDF reads as radians ({a:g} rad turns by {math.degrees(math.remainder(a, 2 * math.pi)):.1f} degrees); "
        f"it looks like degrees: write {math.radians(a):.6g} (xacro: ${{radians({a:g})}})",
        frames, loc, severity=Severity.WARNING)]


def _origin(el: XmlNode | None) -> tuple[tuple[float, float, float] | None, tuple[float, float, float, float] | None, str | None]:
    """URDF defaults: no <origin> is the identity; one that cannot be read is unknown (None), never identity."""
    if el is None:
        return (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), None
    try:
        xyz = _triple(el.get("xyz"))
        rpy = _triple(el.get("rpy"))
    except ValueError as exc:
        return None, None, f"bad <origin>: {exc}"
    if not all(math.isfinite(a) for a in rpy):  # cos(inf) raises; a NaN quaternion is reported as NaN rpy is
        return xyz, (math.nan,) * 4, None
    return xyz, rpy_to_quaternion(*rpy), None


def _triple(text: str | None) -> tuple[float, float, float]:
    if text is None or not text.strip():
        return (0.0, 0.0, 0.0)
    parts = text.split()
    if len(parts) != 3:
        raise ValueError(f"'{text}' is not three numbers")
    a, b, c = (float(p) for p in parts)  # nan/inf pass through: the transform checks report them
    return (a, b, c)
