"""INVALID_FRAME_ID on frame ids written where no transform is built: message headers, parameter
defaults in code, node parameters in launch files and rosparam YAML files.

A frame id is checked only where its value is written out in full (a string literal, a parameter
default, a launch value whose substitutions all resolved): a value the scan could not know is never
an error. A parameter counts as a frame when its name says so (``frame_id``, ``global_frame``,
``camera_frame_id``...), the naming ROS drivers and tf2 users follow.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping

from ..core.checks import SCAN_ON_EDGE, frame_id_problem, scan_in_optical
from ..core.conventions import BASE, EARTH, MAP, ODOM, default_conventions
from ..core.findings import Finding, Location, Severity
from .context import choices_as_placeholders

# The last component of a parameter name (`odometry.frame_id`, `~global_frame_id`, `ns/frame`).
_FRAME_KEY = re.compile(r"(?:^|_)frame(?:_id|_name)?$")
_TEMPLATE_CHARS = "${}<>%@"
_LOOKUP_KEY = re.compile(r"(?:target|source|fixed|reference)_")
_LOOKUP_WORD = re.compile(r"(?:^|_)(?:target|source|fixed|reference)_")
_HEADER_FIELDS = frozenset({"frame_id", "child_frame_id"})
_PREFIX_KEY = re.compile(r"(?:^|_)(?:frame|tf)_?prefix$")


# a parameter that turns a node's transform broadcast on or off: publish_tf, broadcast_tf, tf_broadcast,
# pub_map_odom_transform, enable_odom_tf, publish_odom_tf
_TF_SWITCH = re.compile(r"^(?:pub|publish|broadcast|send|enable)_(?:\w+_)?(?:tf|transform)$|^tf_(?:broadcast|publish)$")


def tf_switch(key: str) -> bool:
    """True when a parameter's name says it turns a transform broadcast on or off."""
    return _TF_SWITCH.match(re.split(r"[./~]", key)[-1].lower()) is not None


def names_frame(key: str) -> bool:
    """True when a parameter (or message field) name says it holds a frame id."""
    last = re.split(r"[./~]", key)[-1].lower()
    return bool(last) and _FRAME_KEY.search(last) is not None


def is_header_field(fields: list[str]) -> bool:
    """``header.frame_id`` / ``child_frame_id`` (and ``frame_id`` of a header held alone)."""
    return bool(fields) and fields[-1] in _HEADER_FIELDS


def frame_id_finding(value: Any, location: Location, where: str) -> Finding | None:
    """INVALID_FRAME_ID for a known, non-empty frame id tf2 would reject or rewrite; ``where`` says
    what holds it (``"marker.header.frame_id"``, ``"parameter 'global_frame_id' default"``)."""
    if isinstance(value, str) and "\x02" in value:
        value = choices_as_placeholders(value)  # `$(env UAV_NAME)/fcu`: the robot's environment fills it in
    if not isinstance(value, str) or not value.strip() or any(c in value for c in _TEMPLATE_CHARS):
        return None  # a blank (roslaunch's way to pass "empty") or a template still to be filled in
    problem = frame_id_problem(value)
    if problem is None:
        return None
    return Finding("INVALID_FRAME_ID", f"{where}: {problem}", (value,), location)


def parameter_findings(
    params: Mapping[str, Any], lines: Mapping[str, int], path: str, default_line: int, node: str = "", ros2: bool = False,
    kind: str = "parameter",
) -> Iterator[Finding]:
    """Node parameters (launch ``<param>``, ``parameters=[{...}]``, rosparam YAML) whose name says frame.
    Unless the file is known to be ROS 2, a parameter named as a lookup frame (``target_frame``,
    ``source_frame_name``, ``fixed_frame``) is not checked: ROS 1 tf resolves '/map' in lookups."""
    owner = f" of node '{node}'" if node else ""
    # a launch argument may name the node's lookup parameter with more words (`trajectory_source_frame_name`)
    lookup = _LOOKUP_KEY.match if kind == "parameter" else _LOOKUP_WORD.search
    for key, value in params.items():
        if ros2 and isinstance(value, str) and value.startswith("/") and _PREFIX_KEY.search(re.split(r"[./~]", key)[-1].lower()):
            # ROS 1's tf resolved a '/robot' tf_prefix; in ROS 2 the prefix is pasted in front of every frame name
            yield Finding("INVALID_FRAME_ID", f"{kind} '{key}'{owner} is '{value}': a frame prefix starting with '/' gives every "
                          f"frame it names a leading '/' ('{value.rstrip('/')}/base_link'), which tf2 strips on insert and rejects in "
                          "lookups; leave the slash out", (value,), Location(path, lines.get(key, default_line)))
        elif names_frame(key) and (ros2 or not lookup(re.split(r"[./~]", key)[-1].lower())):
            finding = frame_id_finding(value, Location(path, lines.get(key, default_line)), f"{kind} '{key}'{owner}")
            if finding is not None:
                yield finding
    yield from swapped_roles(params, lines, path, default_line, owner)


# nodes that turn camera data into a LaserScan, and the parameter naming the frame of the scan they publish
_SCAN_MAKERS = {"depthimage_to_laserscan": ("output_frame", "output_frame_id"), "pointcloud_to_laserscan": ("target_frame",)}


def scan_frame_finding(owner: str, key: str, value: Any, location: Location) -> Finding | None:
    """INCORRECT_TRANSFORM when a depth-image or point-cloud to LaserScan node (``owner``: its package or the YAML
    key holding its parameters) is told to publish its scan in an optical frame (linorobot2's fake laser: output_frame
    camera_depth_optical_frame). A LaserScan's ranges lie in its frame's x-y plane: in an optical frame (z forward, y
    down) that is the vertical plane through the camera's axis, so costmaps and SLAM read a scan standing on edge."""
    keys = next((k for node, k in _SCAN_MAKERS.items() if node in owner), None)
    if keys is None or re.split(r"[./~]", key)[-1] not in keys or not isinstance(value, str) or not value.strip():
        return None
    if not scan_in_optical(value, default_conventions()):
        return None
    return Finding("INCORRECT_TRANSFORM", f"{owner}'s '{key}', the frame of the LaserScan it publishes, is '{value}', {SCAN_ON_EDGE}; "
                   "give it the camera's body frame (x forward, z up)", (value,), location)


# a parameter naming the REP-105 role of the frame it holds: `odom_frame_id`, `base_frame`, `robot_base_frame`, `map_frame`
_ROLE_KEY = re.compile(r"^(?:robot_)?(odom|map|base|base_link|world|earth)_frame(?:_id|_name)?$")
_ROLE_CLASS = {"odom": ODOM, "map": MAP, "base": BASE, "base_link": BASE, "world": EARTH, "earth": EARTH}


def swapped_roles(params: Mapping[str, Any], lines: Mapping[str, int], path: str, default_line: int, owner: str = "") -> Iterator[Finding]:
    """REVERSED_NAME for two parameters of one node (or one YAML block) whose names give REP-105 roles and whose values
    hold each other's: ``odom_frame_id: base_link`` beside ``base_frame_id: odom``. A node reading them broadcasts its
    transform upside down; one value of another class alone may be a deliberate choice and is not reported."""
    held: dict[str, tuple[str, str]] = {}  # role -> (key, value) of a parameter naming that role
    for key, value in params.items():
        m = _ROLE_KEY.match(re.split(r"[./~]", key)[-1].lower())
        if m and isinstance(value, str) and value:
            held.setdefault(_ROLE_CLASS[m.group(1)], (key, value))
    for role, (key, value) in held.items():
        other = default_conventions().classify(value.lstrip("/")).cls.name
        if other == role or other not in held or role >= other:
            continue  # `role >= other`: each swapped pair once
        key2, value2 = held[other]
        if default_conventions().classify(value2.lstrip("/")).cls.name != role:
            continue
        first, second = sorted(((key, value), (key2, value2)), key=lambda kv: lines.get(kv[0], default_line))
        yield Finding(
            "REVERSED_NAME",
            f"parameter '{first[0]}'{owner} is '{first[1]}' and '{second[0]}' is '{second[1]}': the names say the two values "
            "are swapped, so a node reading them publishes its transform upside down (REP-105: map -> odom -> base_link)",
            (first[1], second[1]), Location(path, lines.get(first[0], default_line)),
        )


_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def snake_case(name: str) -> str:
    """``frameName`` -> ``frame_name``, ``m_frameId`` -> ``m_frame_id``."""
    return _CAMEL.sub("_", name).lower()


@lru_cache(maxsize=4096)
def frame_variable(name: str) -> bool:
    """A variable, member or constant whose name says it holds a frame id to stamp or broadcast with:
    ``frame_id_``, ``m_frameId``, ``UAV_FRAME_ID``, ``self.base_frame``; not a lookup's frame (``target_frame``,
    ``fixed_frame``: ROS 1 tf resolves '/map' there), nor data expressed in a frame (``kExternalWrenchInBaseFrame``
    is a topic name)."""
    last = re.split(r"->|[.:]", name)[-1]
    snake = snake_case(last).strip("_")
    snake = snake[2:] if snake.startswith(("m_", "k_")) else snake
    return names_frame(snake) and not _LOOKUP_KEY.match(snake) and "_in_" not in snake


# a string literal starting with '/' followed by more text joined on: "/" + name, "/%s" % x, f"/{ns}"
_SLASH_JOINED = re.compile(r"""^\s*(?:std::string\s*\(\s*)?(?:[fF]?(["'])/(?:(?!\1).)*\1\s*\)?\s*(?:[+%]|\.\s*format\s*\()|[fF](["'])/)""")


def slash_joined_finding(source: str, location: Location, where: str) -> Finding | None:
    """INVALID_FRAME_ID for a frame id built by joining text onto a literal that starts with '/'
    (``"/" + frame_name_``): whatever is joined, the id starts with '/'."""
    if _SLASH_JOINED.match(source) is None:
        return None
    return Finding("INVALID_FRAME_ID", f"{where} = {source[:80]}: the frame id is built on a literal starting with '/', so it has "
                   "a leading '/': tf2 strips it on insert and rejects it in lookups", (), location)


# a prefix joined onto a literal that starts with '/': `tf_prefix + "/os1_sensor"`, and Python's formatting of the
# same: `"%s/%s" % (prefix, frame_id)` (nmea_navsat_driver), `f"{prefix}/{frame}"`, `"{}/{}".format(prefix, frame)`
_PREFIX_JOINED = re.compile(
    r"""^\s*(?:([\w.:>()\[\]-]+?)\s*\+\s*["']/"""
    r"""|(?P<q>["'])%s/[^"']*(?P=q)\s*%\s*\(?\s*([\w.\[\]]+)"""
    r"""|f(?P<f>["'])\{([\w.\[\]]+)\}/[^"']*(?P=f)"""
    r"""|(?P<d>["'])\{\}/[^"']*(?P=d)\s*\.\s*format\s*\(\s*([\w.\[\]]+))"""
)


def _joined_prefix(source: str) -> str | None:
    """The expression a frame id's text joins a '/' onto, first: ``tf_prefix`` in any form above; else None."""
    m = _PREFIX_JOINED.match(source)
    return next((g for g in (m.group(1), m.group(3), m.group(5), m.group(7)) if g), None) if m else None


def empty_prefix_finding(source: str, value: Any, location: Location, where: str) -> Finding | None:
    """INVALID_FRAME_ID for ``prefix + "/name"`` where the prefix is known to be empty (a tf_prefix parameter's
    default ``""``): the id is then '/name'. A prefix given a value at run time makes it valid; the default run
    does not."""
    prefix = _joined_prefix(source)
    if prefix is None or not isinstance(value, str) or not value.startswith("/") or frame_id_problem(value) is None:
        return None
    if "prefix" not in _last_part(prefix).lower():
        return None  # a robot name or a namespace given by every caller (a constructor's default "") is no prefix left empty
    return Finding("INVALID_FRAME_ID", f"{where} = {source[:80]}: with {prefix} empty (its default), the frame id is "
                   f"'{value}', with a leading '/': tf2 strips it on insert and rejects it in lookups; join the '/' only "
                   "when the prefix is not empty", (value,), location)


def maybe_empty_prefix_finding(source: str, empty_at: Callable[[str], int | None], location: Location, where: str) -> Finding | None:
    """INVALID_FRAME_ID for a prefix joined with '/' whose last assignment on the way to the join is "" (``empty_at``:
    the line of that assignment for a name, else None), changed only inside a branch (nmea_navsat_driver's ``prefix =
    ""``, then ``prefix = "/%s" % prefix`` if a tf_prefix parameter exists): the id starts with '/' when it stays empty."""
    prefix = _joined_prefix(source)
    if prefix is None or "prefix" not in _last_part(prefix).lower():
        return None
    line = empty_at(prefix)
    if line is None:
        return None
    return Finding("INVALID_FRAME_ID", f"{where} = {source[:80]}: {prefix} is \"\" from line {line} on and changes only "
                   "inside a branch, so the frame id starts with '/' when it stays empty: tf2 strips it on insert and rejects "
                   "it in lookups; join the '/' only when the prefix is not empty", (), location)


# the node's namespace or fully qualified name, which start with '/': getNamespace() (roscpp), get_namespace() (rclcpp,
# rclpy, rospy), get_fully_qualified_name() (rclcpp), rospy.get_name(), and roscpp's or a nodelet's own getName()
# (with no receiver but `this` or `ros::this_node`: a link's, joint's or model's getName() is a plain name, as are
# rclcpp's and rclpy's get_name())
_NAMESPACE_CALLS = (r"(?:\b(?:getNamespace|get_namespace|get_fully_qualified_name)|\brospy\.get_name|"
                    r"(?:\bros::this_node::|\bthis->|(?<![\w>.:]))getName)\s*\(\s*\)")
_NAMESPACE_CALL = re.compile(_NAMESPACE_CALLS)
_NAMESPACE_WORDS = ("amespace", "getName", "qualified_name", "get_name")  # a cheap test before the pattern
# the call a frame id starts with: `getNamespace() + "camera"`, f"{self.get_namespace()}/odom", `p_can->getName()`,
# also inside a conversion (`std::string(this->get_namespace()) + ".modem"`)
_FIRST_CALL = re.compile(r"""^\s*(?:f["']\{)?(?:(?:std::)?string\s*\(\s*|str\s*\(\s*)?([\w.:>-]*\(\s*\))""")
# a nodelet's getName() through a pointer to it (a static callback's `p_can->getName()`)
_RECEIVER_NAME_FIRST = re.compile(r"""^\s*(\w+)\s*(?:->|\.)\s*getName\s*\(\s*\)""")
_NAME_JOINED = re.compile(r"""^\s*([\w.:>()\[\]-]+?)\s*\+\s*(["']/)?""")


def namespace_joined_finding(
    source: str, namespaces: Mapping[str, bool], location: Location, where: str, nodelets: frozenset[str] = frozenset()
) -> Finding | None:
    """INVALID_FRAME_ID (warning) for a frame id built on the node's namespace, which starts with '/' and is '/'
    in the root namespace, what a launch without ``ns`` gives: the call itself at the id's start, or a name
    holding it (``namespaces``: name -> whether the function strips its slashes) joined onto anything (rc_genicam's
    ``ns + "camera"``), or, once stripped, onto ``"/..."`` (grvc-ual's ``ns + "/base_link"``, '/base_link' in the
    root namespace). ``nodelets``: names that point to a nodelet of the file, whose getName() is its fully qualified
    name (camera_aravis' ``p_can->getName()``, ``CameraAravisNodelet *p_can`` a parameter)."""
    first, receiver = _FIRST_CALL.match(source), _RECEIVER_NAME_FIRST.match(source)
    if not (first and _NAMESPACE_CALL.search(first.group(1))) and not (receiver and receiver.group(1) in nodelets):
        m = _NAME_JOINED.match(source)
        holder = _last_part(m.group(1)) if m else ""
        if m is None or holder not in namespaces or (namespaces[holder] and m.group(2) is None):
            return None
    return Finding("INVALID_FRAME_ID", f"{where} = {source[:80]}: built on the node's namespace or name, which starts "
                   "with '/' (a namespace is '/' at the root, empty once its slashes are stripped), so the frame id starts "
                   "with '/' (at the root at least): tf2 strips it on insert and rejects it in lookups; join it without its "
                   "slashes, and a '/' only when it is not empty", (), location, severity=Severity.WARNING)


# `ns = ros::this_node::getNamespace()`, `std::string ns(nh.getNamespace())`, `ns = self.get_namespace()`
_NAMESPACE_ASSIGNED = re.compile(rf"([A-Za-z_]\w*)\s*(?:=|\(|\{{)[^;=\n]*?{_NAMESPACE_CALLS}")


def namespace_holders(function_text: str) -> dict[str, bool]:
    """Names a function assigns a node namespace or name to, and whether it strips their leading slashes. Read line
    by line, and only the lines naming such a call: the assignment pattern is slow on long text."""
    names = [name for line in function_text.split("\n") if any(w in line for w in _NAMESPACE_WORDS) and _NAMESPACE_CALL.search(line)
             for name in _NAMESPACE_ASSIGNED.findall(line)]
    return {name: strips_leading(name, function_text) for name in names}


def strips_leading(name: str, text: str) -> bool:
    """``text`` strips leading characters off ``name``: ``name.erase(0, 1)``, ``name[0] == '/'``, ``name.lstrip('/')``."""
    n = re.escape(name)
    return re.search(rf"\b{n}\s*(?:\.|->)\s*(?:erase|lstrip|strip)\s*\(|\b{n}\s*\[\s*0\s*\]\s*==", text) is not None


def tests_prefix(source: str, condition: str) -> bool:
    """A condition that tests the prefix or namespace ``source`` joins (``!ns.empty()``, ``if tf_prefix``,
    ``getNamespace() == "/"``): the empty case is handled, and the joined-prefix findings do not apply."""
    m = _NAME_JOINED.match(source)
    name = _last_part(m.group(1) if m else _joined_prefix(source) or "")
    return (bool(name) and re.search(rf"\b{re.escape(name)}\b", condition) is not None) or _NAMESPACE_CALL.search(condition) is not None


def _last_part(expr: str) -> str:
    """``this->tf_prefix_`` / ``params_.ns`` / ``Config::prefix`` -> the last name."""
    return re.split(r"->|[.:]", expr)[-1]


_NUMBER_AS_TEXT = re.compile(r"^\s*(?:std\s*::\s*)?to_string\s*\(")


def number_as_frame_finding(source: str, location: Location, where: str) -> Finding | None:
    """INVALID_FRAME_ID (warning) for a frame id that is a number turned into text (``std::to_string(frame_id)``:
    cam2image stamped each image with its publish counter): no transform ever names such a frame."""
    if _NUMBER_AS_TEXT.match(source) is None:
        return None
    return Finding("INVALID_FRAME_ID", f"{where} = {source[:80]}: the frame id is a number turned into text (a counter or an "
                   "index, not a frame name): no transform reaches it, so the data cannot be placed", (), location,
                   severity=Severity.WARNING)
