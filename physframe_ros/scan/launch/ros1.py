"""ROS 1 roslaunch XML: args, includes, nodes, static_transform_publisher and robot_description.

Conditions (``if``/``unless``) are evaluated when the arguments' values (defaults, or what an includer
passes) decide them; a condition the scan cannot resolve keeps its element.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, replace

import yaml

from ...core.findings import Location
from ..context import ScanContext
from ..frame_ids import names_frame, parameter_findings, tf_switch
from ..model import FileFacts, parse_document
from ..xml_lines import XmlNode
from .common import (
    ARGUMENT,
    RSP_EXECUTABLES,
    DescriptionRef,
    NodeSpec,
    add_description,
    add_include,
    add_node,
    argument_rotation_line,
    description_from_command,
    written_words,
)
from .params_yaml import key_lines, read_param_file, yaml_frame_findings
from .substitutions import Substituter, truth
from .xml_yaml import is_ros2_xml, parse_ros2_xml


@dataclass
class _Scope:
    """What a <group> (or the file) has set so far: its nodes see it, the enclosing scope does not."""

    tf_prefix: str = ""
    description: tuple[DescriptionRef, Location] | None = None
    # descriptions loaded into other parameters (`zed_description`), which a robot_state_publisher remapping its
    # robot_description reads (a sensor's own tree beside the robot's)
    described: dict[str, tuple[DescriptionRef, Location]] = field(default_factory=dict)
    param_files: bool = False  # the file loads parameter files: any node's parameters may come from them
    # `<param name="node/key">` outside the node, by node name: frame ids and tf switches (shared by every scope)
    by_node: dict[str, list[tuple[str, str | None, Location]]] = field(default_factory=dict)


def parse_ros1_launch(root: XmlNode, facts: FileFacts, ctx: ScanContext, launch_args: dict[str, str]) -> None:
    sub = Substituter(ctx, os.path.dirname(ctx.abs_str(facts.path)), given=launch_args)
    unclaimed: list[tuple[DescriptionRef, Location]] = []  # robot_description params no robot_state_publisher here reads
    scope = _Scope(param_files=_global_param_files(root))
    _walk(root, facts, ctx, sub, scope, unclaimed)
    facts.boolean_args = sub.boolean_defaults()
    # `<param name="hector_mapping/pub_map_odom_transform" value="false"/>` outside the node: the node of that name gets it
    # one the node sets again below it wins (rmtt_ros: `<param if="$(eval ns=='/')" name="camera_frame" ...>` in the
    # node replaces the group's '$(arg ns)/camera_link'): the outer value is never used, and no finding of its own
    overridden: set[Location] = set()
    for i, node in enumerate(facts.nodes):
        given = {k: where for k, _, where in node.params}
        outer = scope.by_node.get(node.name, ())
        overridden.update(loc for k, _, loc in outer if k in given and given[k].file == loc.file and (given[k].line or 0) > (loc.line or 0))
        extra = tuple(p for p in outer if p[0] not in given)
        if extra:
            facts.nodes[i] = replace(node, params=node.params + extra)
    if overridden:
        facts.findings = [f for f in facts.findings if not (f.code == "INVALID_FRAME_ID" and f.location in overridden)]
    for desc, loc in unclaimed:  # likely read by a robot_state_publisher started elsewhere
        add_description(desc, facts, ctx, loc, "")


def _global_param_files(el: XmlNode) -> bool:
    """A ``<rosparam file=...>`` outside any node: its YAML may hold any node's parameters. A node's own is read with
    the node."""
    return any((c.tag == "rosparam" and bool(c.get("file"))) or (c.tag == "group" and _global_param_files(c)) for c in el.children)


def _walk(el: XmlNode, facts: FileFacts, ctx: ScanContext, sub: Substituter, outer: _Scope,
          unclaimed: list[tuple[DescriptionRef, Location]]) -> None:
    scope = replace(outer)
    for child in el.children:
        tag = child.tag
        if tag != "arg":
            facts.switches.update(sub.switches(child.get("if"), child.get("unless")))
            if sub.skips(child.get("if"), child.get("unless")):
                continue  # off with the arguments' defaults (or what the includer passes)
        if tag == "arg":
            name = child.get("name")
            if name:
                fixed = child.get("value") is not None
                sub.declare(name, child.get("value") if fixed else child.get("default"), fixed)
                if fixed or name not in sub.given:  # a value written here, not one the includer passes
                    sub.lines[name] = child.line
                    facts.findings.extend(parameter_findings({name: sub.args[name]}, {}, facts.path, child.line, kind=ARGUMENT))
                    if not fixed:
                        sub.offer(name, child.line)
        elif tag == "group":
            _walk(child, facts, ctx, sub, scope, unclaimed)
        elif tag == "include":
            passed = sub.all_args() if truth(sub(child.get("pass_all_args"))) else {}
            passed.update(sub.passed([(a.get("name"), a.get("value")) for a in child.findall("arg")
                                      if not sub.skips(a.get("if"), a.get("unless"))]))
            add_include(sub(child.get("file")), child.get("file") or "", child.line, facts, ctx, passed)
        elif tag == "param":
            # `name="$(arg parameter_name)"` (talos_description's upload.launch): the name the arguments give
            resolved = sub(child.get("name"))
            name = (resolved or child.get("name") or "").split("/")[-1]
            if name == "robot_description":
                desc = _description_param(child, sub)
                if desc is not None:
                    scope.description = (desc, Location(facts.path, child.line))
                    unclaimed.append(scope.description)
            elif (desc := _description_param(child, sub)) is not None:
                scope.described[name] = (desc, Location(facts.path, child.line))
            elif name == "tf_prefix":
                scope.tf_prefix = sub(child.get("value")) or ""
            elif child.get("value") is not None:  # a global parameter some node reads, e.g. /amcl/global_frame_id
                value = sub(child.get("value"))
                facts.findings.extend(parameter_findings({name: value}, {}, facts.path, child.line))
                parts = (resolved or "").strip("/").split("/")
                if len(parts) >= 2 and value and (names_frame(name) or tf_switch(name)):
                    scope.by_node.setdefault(parts[-2], []).append((name, value.lower() if tf_switch(name) else value,
                                                                   Location(facts.path, child.line)))
        elif tag == "node":
            _node(child, facts, ctx, sub, scope, unclaimed)
        elif tag == "rosparam":
            _inline_rosparam(child, facts, sub, "")
            _rosparam_file(child, facts, ctx, sub)


def _rosparam_file(el: XmlNode, facts: FileFacts, ctx: ScanContext, sub: Substituter) -> None:
    """``<rosparam file="$(find pkg)/config/controllers.yaml" command="load"/>``: the YAML file runs with this
    launch file (a drive controller it configures publishes the odometry edge), as an included file does."""
    if el.get("file") and el.get("command", "load") == "load":
        rel = ctx.source_file(sub(el.get("file")))
        if rel is not None and rel not in facts.includes:
            facts.includes.append(rel)


def _rosparam_values(el: XmlNode, sub: Substituter, ctx: ScanContext) -> tuple[dict[str, object] | None, dict[str, Location]]:
    """The parameters a node's ``<rosparam>`` gives it (under ``param=`` when named): its YAML body, or the file it loads
    when that is in the tree (soccerbot's robot_pose_ekf.yaml), with the lines of a file's keys; None when they are not
    known here (a file outside the tree or substituted by roslaunch, a body with substitutions roslaunch makes, one
    YAML cannot read)."""
    if el.get("command", "load") != "load":
        return {}, {}
    name = _param_name(el)
    lines: dict[str, Location] = {}
    if el.get("file"):
        read = None if truth(sub(el.get("subst_value"))) else read_param_file(ctx, sub(el.get("file")))
        if read is None:
            return None, {}
        rel, value, tree = read
        lines = key_lines(tree, rel, f"{name}." if name else "")
    else:
        body = _inline_body(el, sub)
        if body is None or len(body) > MAX_INLINE_YAML:
            return None, {}  # known only when the launch runs, or too large to read here: not an empty set of parameters
        try:
            value = yaml.safe_load(body)
        except yaml.YAMLError:
            return None, {}
    if name:
        return {name: value}, lines
    return (value if isinstance(value, dict) else ({} if value is None else None)), lines


MAX_INLINE_YAML = 64 << 10


def _inline_body(el: XmlNode, sub: Substituter) -> str | None:
    """An inline ``<rosparam>``'s YAML as roslaunch loads it (substituted only when asked); None when a
    substitution is known only when the launch runs."""
    return sub(el.text) if truth(sub(el.get("subst_value"))) else el.text


def _param_name(el: XmlNode) -> str:
    """The parameter a ``<rosparam param="...">`` body is the value of, without its namespace ("" for a mapping)."""
    return (el.get("param") or "").split("/")[-1]


def _inline_rosparam(el: XmlNode, facts: FileFacts, sub: Substituter, node: str) -> None:
    """A ``<rosparam>`` whose body is the YAML (``<rosparam>odom_frame: /odom</rosparam>``, or a single value
    under ``param="base_frame"``): its frame ids, each at its own line. A ``file=`` load is the YAML file's own scan."""
    if el.get("file") or el.get("command", "load") != "load" or not el.text.strip():
        return
    body = _inline_body(el, sub)
    if body is None:
        return  # a substitution known only when the launch runs
    name = _param_name(el)
    if name and ":" not in body:
        facts.findings.extend(parameter_findings({name: body.strip()}, {}, facts.path, el.text_line, node=node))
    else:
        facts.findings.extend(yaml_frame_findings(body, facts.path, el.text_line, node=node))


def _description_param(el: XmlNode, sub: Substituter) -> DescriptionRef | None:
    if el.get("command"):
        return description_from_command(sub.tokens(el.get("command")))
    if el.get("textfile"):
        path = sub(el.get("textfile"))
        return DescriptionRef(path) if path else None
    return None


def _node(el: XmlNode, facts: FileFacts, ctx: ScanContext, sub: Substituter, scope: _Scope,
          unclaimed: list[tuple[DescriptionRef, Location]]) -> None:
    params: dict[str, object] = {}
    lines: dict[str, int] = {}
    for p in el.findall("param"):
        if sub.skips(p.get("if"), p.get("unless")):
            continue
        name = p.get("name") or ""
        lines[name] = p.line
        if name == "robot_description":
            desc = _description_param(p, sub)
            if desc is not None:
                params[name] = desc
        elif p.get("value") is not None:
            params[name] = sub(p.get("value"))
    complete, rosparams, files = True, {}, {}
    for r in el.findall("rosparam"):
        if not sub.skips(r.get("if"), r.get("unless")):
            _inline_rosparam(r, facts, sub, sub(el.get("name")) or "")
            body, where = _rosparam_values(r, sub, ctx)
            complete = complete and body is not None
            rosparams.update(body or {})
            files.update(where)
    if scope.tf_prefix and "tf_prefix" not in params:
        params["tf_prefix"] = scope.tf_prefix
    rsp = os.path.basename(sub(el.get("type")) or "") in RSP_EXECUTABLES
    remapped = next((sub(r.get("to")) or "" for r in el.findall("remap") if sub(r.get("from")) == "robot_description"), "")
    if rsp and "robot_description" not in params and remapped.split("/")[-1] in scope.described:
        params["robot_description"] = scope.described[remapped.split("/")[-1]][0]  # umrover's zed_description
    elif "robot_description" not in params and scope.description is not None and rsp:
        params["robot_description"] = scope.description[0]  # the param of its namespace
        if scope.description in unclaimed:
            unclaimed.remove(scope.description)
    written = written_words(el.get("args"))
    package, executable = _nodelet(sub(el.get("pkg")), sub(el.get("type")), sub.tokens(el.get("args", "")))
    spec = NodeSpec(
        package=package,
        executable=executable,
        line=el.line,
        name=sub(el.get("name")) or "",
        arguments=sub.tokens(el.get("args", "")),
        parameters=params,
        args_line=el.attr_line("args") if el.get("args") else None,
        param_lines=lines,
        complete=complete and not scope.param_files,
        rosparams=rosparams,
        written=written,
        rotation_line=argument_rotation_line(written, sub.args, sub.lines),
        param_files=files,
    )
    add_node(spec, facts, ctx, ros_version=1)


def _nodelet(package: str | None, executable: str | None, arguments: list[str | None]) -> tuple[str | None, str | None]:
    """The node a ``nodelet`` process runs: a nodelet it loads (``load fla_ukf/FLAUKFNodelet manager``, ``standalone
    ...``) by its plugin's lookup name, in the package that name starts with; a manager runs none of its own (the
    nodelets it hosts are nodes of their own), and one whose arguments are known only at launch stays unknown."""
    if package != "nodelet" or executable != "nodelet" or not arguments or arguments[0] == "manager":
        return package, executable
    lookup = arguments[1] if arguments[0] in ("load", "standalone") and len(arguments) > 1 else None
    if lookup is not None and re.fullmatch(r"\w+/\w+", lookup):
        return lookup.split("/")[0], lookup
    return package, " ".join(a or "?" for a in arguments)  # not the manager: what it runs is unknown


def parse_launch_xml_file(text: str, rel_path: str, ctx: ScanContext, launch_args: dict[str, str] | None = None) -> FileFacts:
    """``.launch`` / ``.launch.xml``: ROS 1 or ROS 2 XML, told apart by ``<node exec=...>`` and ROS 2 substitutions."""
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    if not rel_path.endswith((".launch", ".launch.xml")) and "<launch" not in text:
        return facts  # an .xml file of a launch folder that is no launch file (a config, an rviz layout)
    root = parse_document(facts, text, "launch file", "launch")
    if root is None:
        return facts
    # `.launch.xml` is ROS 2's name, but ROS 1 packages use it too (tianbot's includes): a `<node type=...>` and no
    # `exec=` is roslaunch's node
    ros1_nodes = any(n.get("type") for n in root.iter("node")) and not any(n.get("exec") for n in root.iter("node"))
    if (rel_path.endswith(".launch.xml") and not ros1_nodes) or is_ros2_xml(root, text):
        parse_ros2_xml(root, facts, ctx, launch_args or {})
    else:
        parse_ros1_launch(root, facts, ctx, launch_args or {})
    return facts
