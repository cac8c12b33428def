"""Parameter YAML files (rosparam ``load`` files, ROS 2 ``--params-file`` files): frame ids written
as parameter values, checked as INVALID_FRAME_ID at their line.

Read line by line rather than through a YAML parser: only ``key: value`` lines whose key says frame
matter, and their line is what a user needs. A value a template fills in later is not checked. The values a
launch file gives one node from such a file (``parameters=[ekf_yaml]``) are read with a YAML parser.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Iterator

import yaml

from ...core.findings import Finding, Location, Severity
from ..context import ScanContext
from ..controllers import controller_edges
from ..frame_ids import names_frame, parameter_findings, scan_frame_finding, swapped_roles
from ..model import FileFacts

# `  frame_id: "/odom"`, `- child_frame_id: /base`, `odometry.frame_id: 'odom'  # comment`
_ENTRY = re.compile(
    r"""^([ \t]*)(?:-[ \t]+)?([\w.]*(?i:frame)[\w.]*)[ \t]*:[ \t]*"""
    r"""(?:"([^"\n]*)"|'([^'\n]*)'|([^\s#'"{\[][^#\n]*?))[ \t]*(?:#.*)?$""",
    re.MULTILINE,
)


# a mapping at the top of the file: a node's name (`depthimage_to_laserscan:` above its `ros__parameters:`)
_TOP_KEY = re.compile(r"^([A-Za-z_/][\w/.*-]*)[ \t]*:[ \t]*(?:#.*)?$", re.MULTILINE)


# `initial_quat_list: [[0,0,0,0], [0,0,0,0]]`, `orientation: [0.0, 0.0, 0.0, 0.0]`: a quaternion-named key holding only
# zeros, on one line (the pattern never crosses a line: no scan of a hostile file grows with its length squared)
_QUAT_ENTRY = re.compile(r"^[ \t]*(?:-[ \t]+)?([\w.]*(?i:quat|orientation|rotation)[\w.]*)[ \t]*:[ \t]*(\[[\[\], \t0.+-]*\])[ \t]*(?:#.*)?$",
                         re.MULTILINE)
_ZERO_QUAT = re.compile(r"\[\s*[+-]?0*\.?0*\s*(?:,\s*[+-]?0*\.?0*\s*){3}\]")


def zero_quaternion_findings(text: str, rel_path: str) -> Iterator[Finding]:
    """INVALID_TRANSFORM (warning) for a quaternion-named parameter that holds the all-zero quaternion, or a list of
    them (jsk_apc's bin poses, `initial_quat_list: [[0,0,0,0], ...]`, broadcast as static transforms): no rotation at
    all, which tf2 rejects; the identity is (0, 0, 0, 1)."""
    if "0" not in text:
        return
    line, counted = 1, 0  # lines counted up to `counted`, match by match: linear in the file's length
    for m in _QUAT_ENTRY.finditer(text):
        value = m.group(2)
        if _ZERO_QUAT.search(value) is None or _ZERO_QUAT.sub("", value).strip("[], \t\n") != "":
            continue
        line, counted = line + text.count("\n", counted, m.start(1)), m.start(1)
        yield Finding("INVALID_TRANSFORM", f"parameter '{m.group(1)}' is {value[:60]}: the zero quaternion is no rotation at all, so a "
                      "transform or pose made from it is rejected by tf2 (TF_DENORMALIZED_QUATERNION); the identity is [0, 0, 0, 1]",
                      (), Location(rel_path, line), severity=Severity.WARNING)


MAX_PARAMS_FILE = 64 << 10  # a node's parameter file read for its values: larger ones leave them unknown


@dataclass
class ParamFile:
    """Parameters a launch file gives one node from a parameter file of the tree, each key with its line there."""

    values: dict[str, Any]
    lines: dict[str, Location]  # flattened key (``odometry.frame_id``) -> where it is written


def read_param_file(ctx: ScanContext, path: str | None) -> tuple[str, Any, yaml.Node | None] | None:
    """A parameter file of the scanned tree: its path, its value and its node tree (for lines); None when it is not in
    the tree, is too large or YAML cannot read it."""
    rel = ctx.source_file(path)
    if rel is None:
        return None
    try:
        loader = yaml.SafeLoader(ctx.read_bytes(rel, MAX_PARAMS_FILE).decode("utf-8", errors="replace"))
        try:  # one parse: the node tree for the lines, the values constructed from it
            tree = loader.get_single_node()
            return rel, loader.construct_document(tree) if tree is not None else None, tree
        finally:
            loader.dispose()
    except (OSError, yaml.YAMLError, ValueError):
        return None


def key_lines(node: yaml.Node | None, rel: str, prefix: str = "") -> dict[str, Location]:
    """Each key of a YAML mapping (nested ones dotted: ``odometry.frame_id``) -> where it is written."""
    out: dict[str, Location] = {}
    if isinstance(node, yaml.MappingNode):
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode):
                out[prefix + str(k.value)] = Location(rel, k.start_mark.line + 1)
                out.update(key_lines(v, rel, f"{prefix}{k.value}."))
    return out


def node_parameters(ctx: ScanContext, path: str, node: str) -> ParamFile | None:
    """The parameters a ROS 2 parameter file gives the node named ``node``: its ``/**`` section, then its own
    (``node:``, ``/node:``, ``/ns/node:``), each under ``ros__parameters``; None when the file is not in the tree,
    is too large or YAML cannot read it, or names sections for nodes while ``node`` is unnamed (its values are not
    known)."""
    read = read_param_file(ctx, path)
    if read is None:
        return None
    rel, doc, tree = read
    if not isinstance(doc, dict) or (not node and any(str(k) != "/**" for k in doc)):
        return None  # a node launched without a name takes its own default name, which the file may use
    lines = key_lines(tree, rel)
    out = ParamFile({}, {})
    for key in sorted(doc, key=lambda k: str(k) != "/**"):  # a node's own section wins over the wildcard's
        section = doc[key]
        name = str(key).rstrip("/").split("/")[-1]
        if isinstance(section, dict) and (str(key) == "/**" or (node and name == node)):
            values = section.get("ros__parameters")
            out.values.update(values if isinstance(values, dict) else {})
            inner = f"{key}.ros__parameters."
            out.lines.update({k[len(inner):]: loc for k, loc in lines.items() if k.startswith(inner)})
    return out


def parse_params_yaml(text: str, rel_path: str) -> FileFacts:
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    facts.findings.extend(yaml_frame_findings(text, rel_path))
    facts.findings.extend(zero_quaternion_findings(text, rel_path))
    facts.edges.extend(controller_edges(text, rel_path))
    return facts


def yaml_frame_findings(text: str, rel_path: str, first_line: int = 1, node: str = "") -> Iterator[Finding]:
    """INVALID_FRAME_ID for the frame-named ``key: value`` lines of YAML ``text`` that starts at ``first_line`` of
    ``rel_path`` (a whole file, or the body of a launch file's inline ``<rosparam>``, of ``node``), REVERSED_NAME for
    two role-named keys of one mapping holding each other's frames, and a LaserScan maker's optical output frame
    (under a top-level key naming the node). One pass over the lines: linear in the file's length."""
    if "frame" not in text.lower():  # `MAP_FRAME: '/map'` too
        return
    owner, laserscan = node, "laserscan" in text
    blocks: dict[int, tuple[dict[str, str], dict[str, int]]] = {}  # mapping (its first line) -> keys' values and lines
    open_at: dict[int, int] = {}  # indentation -> the mapping that indentation is in now
    for i, raw in enumerate(text.split("\n")):
        body = raw.lstrip()
        if not body or body.startswith("#"):
            continue
        depth = len(raw) - len(body)
        for deeper in [d for d in open_at if d > depth]:
            del open_at[deeper]  # a line less indented ends the mappings below it
        if laserscan and depth == 0 and (top := _TOP_KEY.match(raw)) is not None:
            owner = top.group(1)
        m = _ENTRY.match(raw)
        if m is None or not names_frame(m.group(2)):
            continue
        key, line = m.group(2), first_line + i
        value = next(g for g in m.groups()[2:] if g is not None)
        yield from parameter_findings({key: value}, {key: line}, rel_path, line, node=node)
        scan = scan_frame_finding(owner, key, value, Location(rel_path, line)) if owner else None
        if scan is not None:
            yield scan
        values, lines = blocks.setdefault(open_at.setdefault(len(m.group(1)), i), ({}, {}))
        values[key], lines[key] = value, line
    for values, lines in blocks.values():
        if len(values) > 1:
            yield from swapped_roles(values, lines, rel_path, first_line, f" of node '{node}'" if node else "")
