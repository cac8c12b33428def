"""ROS 2 XML and YAML launch files: the same actions (arg, let, group, include, node with params)."""

from __future__ import annotations

import os
from typing import Any

from ...core.findings import Finding, Location
from ..context import ScanContext
from ..frame_ids import parameter_findings
from ..model import FileFacts, LaunchedNode
from ..xml_lines import XmlNode
from .common import ARGUMENT, NodeSpec, add_include, add_node, description_from_command, split_command, written_words
from .substitutions import COMMAND_MARK, Substituter


def is_ros2_xml(root: XmlNode, text: str) -> bool:
    return "$(var " in text or "find-pkg-share" in text or any(n.get("exec") for n in root.iter("node"))


# --- XML -----------------------------------------------------------------------------------------
def parse_ros2_xml(root: XmlNode, facts: FileFacts, ctx: ScanContext, launch_args: dict[str, str]) -> None:
    sub = Substituter(ctx, os.path.dirname(ctx.abs_str(facts.path)), given=launch_args)
    _walk_xml(root, facts, ctx, sub)
    facts.boolean_args = sub.boolean_defaults()


def _walk_xml(el: XmlNode, facts: FileFacts, ctx: ScanContext, sub: Substituter) -> None:
    for child in el.children:
        if child.tag != "arg":
            facts.switches.update(sub.switches(child.get("if"), child.get("unless")))
            if sub.skips(child.get("if"), child.get("unless")):
                continue  # off with the arguments' defaults (or what the includer passes)
        if child.tag == "arg" and child.get("name"):
            name = child.get("name") or ""
            sub.declare(name, child.get("default", child.get("value")))
            if name not in sub.given:  # a value written here, not one the includer passes
                facts.findings.extend(parameter_findings({name: sub.args[name]}, {}, facts.path, child.line, ros2=True, kind=ARGUMENT))
                if child.get("default") is not None:
                    sub.offer(name, child.line)
        elif child.tag == "let" and child.get("name"):
            sub.args[child.get("name") or ""] = sub(child.get("value"))
        elif child.tag in ("group", "scope", "node_container"):
            _walk_xml(child, facts, ctx, sub)
        elif child.tag == "composable_node" and child.get("pkg") and child.get("plugin"):
            facts.nodes.append(LaunchedNode(sub(child.get("pkg")) or "", sub(child.get("plugin")) or "", Location(facts.path, child.line)))
        elif child.tag == "include":
            passed = sub.passed([(a.get("name"), a.get("value")) for a in child.findall("arg")])
            add_include(sub(child.get("file")), child.get("file") or "", child.line, facts, ctx, passed)
        elif child.tag == "node":
            written = [p for p in child.iter("param") if p.get("name") and p.get("value") is not None]
            params = {p.get("name") or "": param_value(sub(p.get("value"))) for p in written}
            # every parameter known: none from a file (`<param from="...">`) or a value the scan cannot resolve
            complete = len(written) == len(child.findall("param")) and all(v is not None for v in params.values())
            add_node(NodeSpec(sub(child.get("pkg")), sub(child.get("exec")), child.line, sub(child.get("name")) or "",
                              sub.tokens(child.get("args")), params, child.attr_line("args") if child.get("args") else None,
                              {p.get("name") or "": p.line for p in written}, complete, written=written_words(child.get("args"))),
                     facts, ctx, ros_version=2)


def param_value(value: str | None) -> Any:
    """A parameter value as robot_state_publisher would get it; ``$(command 'xacro ...')`` -> the file."""
    if value is None:
        return None
    if value.startswith(COMMAND_MARK):
        return description_from_command(split_command(value[len(COMMAND_MARK):]))
    return value


# --- YAML ----------------------------------------------------------------------------------------
def parse_launch_yaml_file(text: str, rel_path: str, ctx: ScanContext, launch_args: dict[str, str] | None = None) -> FileFacts:
    import yaml

    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    try:
        doc = yaml.compose(text, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))  # libyaml: ~10x faster
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        facts.findings.append(Finding("PARSE_ERROR", f"{rel_path}: not valid YAML: {getattr(exc, 'problem', exc)}", (),
                                      Location(rel_path, mark.line + 1 if mark else None)))
        return facts
    launch = _get(doc, "launch")
    if not isinstance(launch, yaml.SequenceNode):
        facts.findings.append(Finding("PARSE_ERROR", f"{rel_path}: no top-level 'launch:' list; not a ROS 2 YAML launch file", (), Location(rel_path, 1)))
        return facts
    sub = Substituter(ctx, os.path.dirname(ctx.abs_str(rel_path)), given=launch_args or {})
    _walk_yaml(launch, facts, ctx, sub)
    return facts


def _get(node: Any, key: str) -> Any:
    import yaml

    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value == key:
                return v
    return None


def _scalar(node: Any) -> str | None:
    import yaml

    return node.value if isinstance(node, yaml.ScalarNode) else None


def _walk_yaml(seq: Any, facts: FileFacts, ctx: ScanContext, sub: Substituter) -> None:
    import yaml

    for item in seq.value:
        if not isinstance(item, yaml.MappingNode) or not item.value:
            continue
        key_node, body = item.value[0]
        key, line = key_node.value, key_node.start_mark.line + 1
        if key != "arg" and sub.skips(_scalar(_get(body, "if")), _scalar(_get(body, "unless"))):
            continue  # off with the arguments' defaults (or what the includer passes)
        if key == "arg":
            name = _scalar(_get(body, "name"))
            if name:
                sub.declare(name, _scalar(_get(body, "default")) or _scalar(_get(body, "value")))
        elif key == "let":
            name = _scalar(_get(body, "name"))
            if name:
                sub.args[name] = sub(_scalar(_get(body, "value")))
        elif key in ("group", "scope"):
            children = _get(body, "children")
            if isinstance(children, yaml.SequenceNode):
                _walk_yaml(children, facts, ctx, sub)
        elif key == "include":
            written = _scalar(_get(body, "file"))
            arg_list = _get(body, "arg")
            pairs = [(_scalar(_get(a, "name")), _scalar(_get(a, "value"))) for a in arg_list.value] if isinstance(arg_list, yaml.SequenceNode) else []
            add_include(sub(written), written or "", line, facts, ctx, sub.passed(pairs))
        elif key == "node":
            params: dict[str, Any] = {}
            plist = _get(body, "param")
            if isinstance(plist, yaml.SequenceNode):
                for p in plist.value:
                    name, value = _scalar(_get(p, "name")), _scalar(_get(p, "value"))
                    if name and value is not None:
                        params[name] = param_value(sub(value))
            args = _get(body, "args")
            arg_words: list[str | None] = sub.tokens(_scalar(args)) if isinstance(args, yaml.ScalarNode) else (
                [sub(_scalar(a)) for a in args.value] if isinstance(args, yaml.SequenceNode) else [])
            add_node(NodeSpec(sub(_scalar(_get(body, "pkg"))), sub(_scalar(_get(body, "exec"))), line,
                              sub(_scalar(_get(body, "name"))) or "", arg_words, params,
                              args.start_mark.line + 1 if args is not None else None), facts, ctx, ros_version=2)
