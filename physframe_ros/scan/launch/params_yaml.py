"""Parameter YAML files (rosparam ``load`` files, ROS 2 ``--params-file`` files): frame ids written
as parameter values, checked as INVALID_FRAME_ID at their line.

Read line by line rather than through a YAML parser: only ``key: value`` lines whose key says frame
matter, and their line is what a user needs. A value a template fills in later is not checked.
"""

from __future__ import annotations

import re
from typing import Iterator

from ...core.findings import Finding, Location, Severity
from ..frame_ids import names_frame, parameter_findings, scan_frame_finding, swapped_roles
from ..model import FileFacts
from .controllers import controller_edges

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
