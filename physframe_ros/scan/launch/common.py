"""What all launch formats share: the nodes they start, static_transform_publisher arguments in every
form, and robot_state_publisher with its robot_description.

The three launch parsers (ROS 1 XML, ROS 2 Python, ROS 2 XML/YAML) turn their syntax into
:class:`NodeSpec` and call :func:`add_node`; the TF meaning is decided here, once.
"""

from __future__ import annotations

import math
import os
import re
import shlex
from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping, Sequence

from ...core.checks import frame_id_problem, transform_findings
from ...core.expected import DataFrame
from ...core.findings import Finding, Location, Severity
from ...core.frame_patterns import is_pattern
from ...core.rotations import ypr_to_quaternion
from ...core.tree import Edge
from ..code.angles import euler_slot_finding
from ..code.facts import reversed_name_finding
from ..context import ScanContext, choice_names, choice_pattern, choices_as_placeholders
from ..description.xacro_support import expand_robot
from ..frame_ids import names_frame, parameter_findings, scan_frame_finding, tf_switch
from ..model import FileFacts, LaunchedNode

STP = "static_transform_publisher"
RSP_EXECUTABLES = frozenset({"robot_state_publisher", "state_publisher"})
DESCRIPTION_SUFFIXES = (".xacro", ".urdf", ".urdf.xacro")
MAX_ALTERNATIVES = 16  # description files one environment choice may name


@dataclass(frozen=True)
class DescriptionRef:
    """A robot_description built from a file (URDF, or xacro with arguments)."""

    path: str  # absolute, or as written when it could not be resolved
    args: tuple[tuple[str, str], ...] = ()


# Camera drivers whose images take the frame of one parameter (the first of _CAMERA_FRAME_KEYS the node is given).
_CAMERA_DRIVERS = frozenset({
    "usb_cam", "cv_camera", "gscam", "uvc_camera", "libuvc_camera", "pointgrey_camera_driver", "spinnaker_camera_driver",
    "video_stream_opencv", "avt_vimba_camera", "camera1394", "ueye_cam", "v4l2_camera", "opencv_cam", "raspicam_node",
    "flir_camera_driver", "arena_camera", "image_publisher", "camera_aravis", "camera_aravis2", "pylon_camera",
    "pylon_ros2_camera", "camera_ros",
})
_CAMERA_FRAME_KEYS = ("camera_frame_id", "frame_id", "camera_frame", "frame")


def camera_frame_parameter(package: str | None, params: Mapping[str, Any]) -> str | None:
    """The parameter holding the frame a known camera driver's images are stamped with, when given as a name."""
    if package not in _CAMERA_DRIVERS:
        return None
    key = next((k for k in _CAMERA_FRAME_KEYS if k in params), None)
    value = params.get(key) if key is not None else None
    return key if isinstance(value, str) and value and frame_id_problem(value) is None and not is_pattern(value) else None


ARGUMENT = "launch argument"  # what an argument's finding names it


@dataclass
class NodeSpec:
    package: str | None
    executable: str | None
    line: int
    name: str = ""
    arguments: list[str | None] = field(default_factory=list)  # None: a value the scan cannot know
    parameters: dict[str, Any] = field(default_factory=dict)
    args_line: int | None = None  # where the arguments are written, when not on the node's first line
    param_lines: dict[str, int] = field(default_factory=dict)  # where each parameter is written, when known
    complete: bool = False  # every parameter the node gets is known (no file or value the scan did not read)
    rosparams: dict[str, Any] = field(default_factory=dict)  # ROS 1 inline <rosparam> values, checked at their own lines
    written: list[str] = field(default_factory=list)  # the arguments as written, before substitution (`$(arg roll)`)
    rotation_line: int | None = None  # where a static transform's rotation is written, when not on the arguments' line
    value_lines: dict[str, int] = field(default_factory=dict)  # an argument word a variable of the file holds -> where it is made
    params_line: int | None = None  # where the node's parameters are written, when not on its first line
    param_files: dict[str, Location] = field(default_factory=dict)  # a parameter read from a parameter file -> its line there


def add_node(spec: NodeSpec, facts: FileFacts, ctx: ScanContext, ros_version: int) -> None:
    """Record a started node and the transforms it is known to publish."""
    loc = Location(facts.path, spec.line)
    spec.arguments = [choices_as_placeholders(a) if isinstance(a, str) else a for a in spec.arguments]
    spec.parameters = {k: _placeholders(v) if k != "robot_description" else v for k, v in spec.parameters.items()}
    flat = flatten(spec.parameters)
    lines = {k: spec.param_lines.get(k, spec.param_lines.get(k.split(".")[0], spec.line)) for k in flat}
    if spec.package and spec.executable:
        every = {**flatten(spec.rosparams), **flat}
        every.update({k: str(v).lower() for k, v in every.items() if tf_switch(k) and isinstance(v, (bool, str))})
        bound = tuple((k, v if isinstance(v, str) and v and not is_pattern(v) and "$" not in v else None,
                       spec.param_files.get(k) or Location(facts.path, lines.get(k, spec.line)))
                      for k, v in every.items() if names_frame(k) or tf_switch(k))
        facts.nodes.append(LaunchedNode(spec.package, spec.executable, loc, spec.name, bound))
    # an id the file's own argument wrote out is reported at that <arg>, not again at each node it reaches
    by_argument = {f.frames for f in facts.findings if f.code == "INVALID_FRAME_ID" and f.message.startswith(ARGUMENT)}
    # robot_state_publisher's frame_prefix is judged with the robot it prefixes (one finding where it is set)
    own = {k: v for k, v in flat.items() if k != "frame_prefix"} if os.path.basename(spec.executable or "") in RSP_EXECUTABLES else flat
    facts.findings.extend(f for f in parameter_findings(own, lines, facts.path, spec.line, spec.name or spec.executable or "", ros2=ros_version == 2)
                          if f.frames not in by_argument)
    for key, value in flat.items() if spec.package else ():
        scan = scan_frame_finding(spec.package or "", key, value, Location(facts.path, lines.get(key, spec.line)))
        if scan is not None:
            facts.findings.append(scan)
    camera = camera_frame_parameter(spec.package, flat)
    if camera is not None:  # the frame a camera driver stamps its images with, checked against the subsystem's tree
        facts.data_frames.append(DataFrame(flat[camera], "Image", Location(facts.path, lines.get(camera, spec.line))))
    exe = os.path.basename(spec.executable or "")
    if exe.startswith(STP):
        loc = Location(facts.path, spec.args_line or spec.line)
        if spec.package == "tf":
            flavor = "tf"
        else:
            flavor = "tf2_ros2" if ros_version == 2 else "tf2_ros1"
        params = flatten(spec.parameters)
        if not spec.arguments and "frame_id" in params:
            edge, findings = static_transform_from_parameters(params, loc)
        else:
            edge, findings = static_transform_edge(spec.arguments, flavor, loc)
            findings.extend(_named_angles(spec, flavor, loc))
        if ros_version == 1:
            edge, findings = _inserted_by_ros1(edge, findings)
        # a frame id made in a variable (kitti_odometry_replayer's `f"{frame_prefix}/"` + "p0") is fixed where it is made
        facts.findings.extend(replace(f, location=Location(facts.path, spec.value_lines[f.frames[0]]))
                              if f.code == "INVALID_FRAME_ID" and f.frames and f.frames[0] in spec.value_lines else f for f in findings)
        if edge is not None:
            if spec.rotation_line is not None and spec.rotation_line != loc.line:
                edge = replace(edge, rotation_at=Location(facts.path, spec.rotation_line))  # the line a wrong rotation is fixed at
            facts.edges.append(edge)
            # `name="odom_to_map"` on a node that publishes map -> odom: the name or the arguments are reversed
            reversed_name = reversed_name_finding(spec.name, edge.parent, edge.child, loc) if spec.name else None
            if reversed_name is not None:
                facts.findings.append(reversed_name)
    elif exe in RSP_EXECUTABLES:
        _robot_state_publisher(spec, facts, ctx, loc)
    elif spec.complete and (frames := _modelled_broadcast(spec.package, exe, {**flatten(spec.rosparams), **flat})) is not None:
        # a node's broadcast, not a fixed transform: it names the node (and where its parent frame is given, if it is)
        given = [lines[k] for k in lines if k in _PARENT_KEYS and flat.get(k) == frames[0] and lines[k] != spec.line]
        facts.edges.append(Edge(frames[0], frames[1], False, None, None, (loc,), (spec.name or exe,),
                                parent_at=Location(facts.path, given[0]) if given else None))


# robot_localization's filters: world_frame -> base_link_frame on /tf (world_frame is odom_frame by default); with
# world_frame the map frame, map -> odom, computed from the odometry another node publishes
_STATE_ESTIMATORS = frozenset({"ekf_localization_node", "ukf_localization_node", "ekf_node", "ukf_node"})

# Odometry, localisation and sensor driver nodes of other packages and the transform they broadcast by default, as
# their sources read it: (parent parameter, its default, child parameter, its default, the parameter that turns the
# broadcast off or None). A driver's odom -> base_link beside a launch file's base_footprint -> base_link gives
# base_link two parents (YaleIGVC's segway_rmp_node); an IMU driver told to broadcast base_link -> imu_link beside a
# description's fixed joint sends one edge both on /tf and /tf_static (orne_navigation's mpu6050_serial_to_imu).
_BROADCASTING_NODES: dict[tuple[str, str], tuple[str, str, str, str, str | None]] = {
    ("segway_rmp", "segway_rmp_node"): ("odom_frame_id", "odom", "frame_id", "base_link", "broadcast_tf"),
    ("robot_pose_ekf", "robot_pose_ekf"): ("output_frame", "odom_combined", "base_footprint_frame", "base_footprint", None),
    ("laser_scan_matcher", "laser_scan_matcher_node"): ("fixed_frame", "world", "base_frame", "base_link", "publish_tf"),
    ("rf2o_laser_odometry", "rf2o_laser_odometry_node"): ("odom_frame_id", "odom", "base_frame_id", "base_link", "publish_tf"),
    ("rosaria", "RosAria"): ("odom_frame", "odom", "base_link_frame", "base_link", None),
    ("mpu6050_serial_to_imu", "mpu6050_serial_to_imu_node"): ("tf_parent_frame_id", "imu_base", "tf_frame_id", "imu_link", "broadcast_tf"),
    # localisation and SLAM: map -> odom; a launch file's own static map -> odom beside them is a second publisher
    # of the edge (pandora's move_base.launch beside slam_gmapping)
    ("gmapping", "slam_gmapping"): ("map_frame", "map", "odom_frame", "odom", "transform_publish_period"),
    ("amcl", "amcl"): ("global_frame_id", "map", "odom_frame_id", "odom", "tf_broadcast"),
    ("nav2_amcl", "amcl"): ("global_frame_id", "map", "odom_frame_id", "odom", "tf_broadcast"),
    ("fake_localization", "fake_localization"): ("global_frame_id", "map", "odom_frame_id", "odom", None),
    **{("slam_toolbox", exe): ("map_frame", "map", "odom_frame", "odom", "transform_publish_period")
       for exe in ("async_slam_toolbox_node", "sync_slam_toolbox_node", "localization_slam_toolbox_node", "lifelong_slam_toolbox_node")},
}


# the parameters naming the parent frame of a modelled broadcast
_PARENT_KEYS = frozenset({"world_frame", "map_frame", "odom_frame"} | {v[0] for v in _BROADCASTING_NODES.values()})


def _modelled_broadcast(package: str | None, exe: str, params: Mapping[str, Any]) -> tuple[str, str] | None:
    """The parent and child a well-known node started with ``params`` (all of them known) broadcasts on /tf: a
    robot_localization filter (with the defaults odom -> base_link, which gives base_link a second parent beside a
    description rooted at base_footprint: orne_navigation's EKF without ``base_link_frame: base_footprint``), or an
    odometry node of :data:`_BROADCASTING_NODES`. None for another node, a broadcast turned off, a frame the launch
    computes at run time, or a transform to itself."""
    if package == "robot_localization" and exe in _STATE_ESTIMATORS:
        flag: str | None = "publish_tf"
        names = {k: params.get(f"{k}_frame", k) for k in ("map", "odom", "base_link")}
        world = params.get("world_frame", names["odom"])
        if not all(isinstance(v, str) and v for v in (*names.values(), world)):
            return None
        frames = (names["map"], names["odom"]) if world == names["map"] and world != names["odom"] else (world, names["base_link"])
        if frames[0] == frames[1]:
            return None
    elif package is not None and (package, exe) in _BROADCASTING_NODES:
        parent_key, parent_default, child_key, child_default, flag = _BROADCASTING_NODES[(package, exe)]
        parent, child = params.get(parent_key, parent_default), params.get(child_key, child_default)
        if not (isinstance(parent, str) and isinstance(child, str) and parent and child) or parent == child:
            return None
        frames = (parent.lstrip("/"), child.lstrip("/"))
    else:
        return None
    # a switch set false, or a publishing period of zero (gmapping, slam_toolbox)
    if flag is not None and str(params.get(flag, True)).lower() in ("false", "0", "0.0"):
        return None
    return frames


def _placeholders(value: Any) -> Any:
    """A value of the robot's environment inside a parameter (a frame name) is a placeholder there."""
    if isinstance(value, str):
        return choices_as_placeholders(value)
    if isinstance(value, Mapping):
        return {k: _placeholders(v) for k, v in value.items()}
    return value


def flatten(params: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in params.items():
        key = f"{prefix}{k}"
        if isinstance(v, Mapping):
            out.update(flatten(v, key + "."))
        else:
            out[key] = v
    return out


def _robot_state_publisher(spec: NodeSpec, facts: FileFacts, ctx: ScanContext, loc: Location) -> None:
    params = flatten(spec.parameters)
    desc = params.get("robot_description")
    prefix = params.get("frame_prefix")
    if "frame_prefix" in params and not isinstance(prefix, str):
        prefix = "{frame_prefix}"  # set to what only the launch knows (a namespace): a placeholder bound at match time
    elif prefix is None and "tf_prefix" in params:
        tf_prefix = params["tf_prefix"]
        # ROS 1 joins tf_prefix with '/'
        prefix = "{tf_prefix}/" if not isinstance(tf_prefix, str) else tf_prefix.strip("/") + "/" if tf_prefix.strip("/") else ""
    if isinstance(desc, str) and desc.strip().endswith(DESCRIPTION_SUFFIXES):
        desc = DescriptionRef(desc.strip())
    if "robot_description" in params and not isinstance(desc, DescriptionRef):
        facts.findings.append(Finding(
            "PARSE_ERROR", "robot_state_publisher's robot_description is built from something the scan cannot resolve "
            "(a package outside the scanned tree, or a value known only at launch time); its joints are not checked", (), loc))
    if not isinstance(desc, DescriptionRef):
        return
    start = len(facts.edges)
    add_description(desc, facts, ctx, loc, str(prefix) if isinstance(prefix, str) else "")
    # this node publishes them: a second robot whose frames collide with another's gets its frame_prefix here
    loaded = Location(facts.path, spec.param_lines.get("frame_prefix") or spec.param_lines.get("robot_description") or spec.params_line or spec.line)
    facts.edges[start:] = [replace(e, loaded_at=loaded) for e in facts.edges[start:]]


def add_description(desc: DescriptionRef, facts: FileFacts, ctx: ScanContext, loc: Location, prefix: str = "") -> None:
    """Expand a robot_description file and add the edges robot_state_publisher would publish.
    A path the robot's environment chooses (``turtlebot3_$TURTLEBOT3_MODEL.urdf``) is expanded once
    per file it can name, each a variant of its own."""
    if choice_names(desc.path):
        _add_alternatives(desc, facts, ctx, loc, prefix)
        return
    rel = ctx.source_file(desc.path) if os.path.isabs(desc.path) else None
    if rel is None:
        facts.findings.append(Finding(
            "PARSE_ERROR", f"robot_description file '{desc.path}' is not in the scanned tree; its joints are not checked", (), loc))
        return
    res = expand_robot(rel, dict(desc.args), ctx, prefix, loc)
    facts.partial = facts.partial or res.partial  # a robot built without a package: its tree is not whole
    facts.edges.extend(res.edges)
    facts.sim_sensors.extend(res.sensors)
    facts.findings.extend(_prefix_findings(res.findings, prefix, loc))
    for f in res.files:
        if f not in facts.uses:
            facts.uses.append(f)


def _prefix_findings(findings: list[Finding], prefix: str, loc: Location) -> list[Finding]:
    """A frame_prefix tf2 would mangle is one finding where it is set, not one per joint of the robot."""
    problem = frame_id_problem(prefix + "base_link") if prefix else None
    if problem is None or frame_id_problem("base_link") is not None:
        return findings
    caused = [f for f in findings if f.code == "INVALID_FRAME_ID" and all(
        fr.startswith(prefix) and frame_id_problem(fr[len(prefix):] or "x") is None for fr in f.frames)]
    if not caused:
        return findings
    frames = sorted({fr for f in caused for fr in f.frames})
    one = Finding("INVALID_FRAME_ID", f"robot_state_publisher's frame_prefix is '{prefix}', so every frame of its robot is named like '{frames[0]}': "
                  + problem.replace("frame id 'base_link'", "").replace(f"frame id '{prefix}base_link'", "such a name").strip(),
                  tuple(frames[:3]), loc)
    return [f for f in findings if f not in caused] + [one]


def _add_alternatives(desc: DescriptionRef, facts: FileFacts, ctx: ScanContext, loc: Location, prefix: str) -> None:
    directory, name = os.path.split(desc.path)
    where = ctx.rel(directory) if os.path.isabs(directory) and not choice_names(directory) else None
    pattern = choice_pattern(name)
    found = []
    if where is not None and ctx.inside(where):
        d = ctx.abs_str(where) if where else ctx.root
        try:
            names = sorted(os.listdir(d))
        except OSError:
            names = []
        found = [(m.groupdict(), os.path.join(d, n)) for n in names if (m := pattern.fullmatch(n)) and os.path.isfile(os.path.join(d, n))]
    if not found:
        shown = choices_as_placeholders(desc.path)
        facts.findings.append(Finding(
            "PARSE_ERROR", f"robot_description file '{shown}' depends on {', '.join(choice_names(desc.path))} from the robot's environment and no file "
            "in the scanned tree matches; pass --env NAME=VALUE; its joints are not checked", (), loc))
        return
    for choice, path in found[:MAX_ALTERNATIVES]:
        alt = FileFacts(facts.path)
        add_description(DescriptionRef(path, desc.args), alt, ctx, loc, prefix)
        key = tuple(sorted(choice.items()))
        facts.variants.setdefault(key, []).extend(alt.edges)
        facts.findings.extend(alt.findings)
        facts.uses.extend(u for u in alt.uses if u not in facts.uses)


def add_include(path: str | None, written: str, line: int, facts: FileFacts, ctx: ScanContext, args: dict[str, str] | None = None) -> None:
    """Record an included launch file with the arguments passed to it, or say why what it starts is not checked."""
    rel = ctx.source_file(path)
    if rel is None:
        facts.findings.append(Finding("PARSE_ERROR", f"included launch file '{written}' is not in the scanned tree; what it starts is not checked", (),
                                      Location(facts.path, line)))
        # what it starts is unknown, like a node the scan cannot see into: the launch's tree is not the whole tree
        package = re.match(r"\$\(find(?:-pkg-share)? ([\w-]+)\)", written)
        facts.unseen_includes.append(LaunchedNode(package.group(1) if package else "", os.path.basename(written), Location(facts.path, line)))
        return
    facts.includes.append(rel)
    if args:
        facts.include_args[rel] = args


_PREFIX_ARG = re.compile(r"prefix|namespace|^ns$|(?:robot|uuv|vehicle|uav|model)_?name$", re.I)


def names_a_prefix(arg: str) -> bool:
    """An argument that prefixes frame names (``namespace``, ``tf_prefix``, ``frame_prefix``...): when only the
    launch knows its value, the names built from it are placeholders, bound against the live names."""
    return _PREFIX_ARG.search(arg) is not None


def description_from_command(words: Sequence[str | None]) -> DescriptionRef | None:
    """``xacro FILE a:=1`` (also ``$(find xacro)/xacro``, ``rosrun xacro xacro``, ``cat FILE``);
    words the scan cannot know (None, or holding an unknown part) are left out, except that an
    argument naming a prefix whose value only the launch knows (``namespace:=<a launch-time expression>``)
    is given the placeholder ``{namespace}``: the names built from it are patterns in the expected tree."""
    known: list[str] = [w for w in words if w is not None and "\x01" not in w]
    path = next((w for w in known if w.endswith(DESCRIPTION_SUFFIXES)), None)
    if path is None:
        return None
    args: dict[str, str] = {}
    for i, w in enumerate(words):
        if w is None or ":=" not in w:
            continue
        k, _, v = w.partition(":=")
        if "\x01" in k or not k:
            continue
        following = words[i + 1] if i + 1 < len(words) else ""
        if "\x01" in v or (not v and (following is None or following == "\x01")):
            if names_a_prefix(k):
                args[k] = "{" + k + "}"
        else:
            args[k] = v
    return DescriptionRef(path, tuple(args.items()))


# Text shlex would split exactly like str.split(): no quotes or escapes, no whitespace beyond its own.
_SHELL_PLAIN = re.compile(r"[^'\"\\\x0b\x0c\x1c-\x1f]*")


def written_words(text: str | None) -> list[str]:
    """An ``args`` attribute's words as written, a substitution (``$(arg roll)``) one word."""
    return re.findall(r"(?:\$\([^()]*\)|[^\s$]|\$(?!\())+", text or "")


def shell_split(text: str) -> list[str]:
    """``shlex.split(text)`` (ValueError on an unclosed quote), without shlex for plain text."""
    if text.isascii() and _SHELL_PLAIN.fullmatch(text):
        return text.split()
    return shlex.split(text)


def split_command(text: str) -> list[str]:
    try:
        return shell_split(text)
    except ValueError:
        return text.split()


# --- static_transform_publisher -----------------------------------------------------------------
_FLAGS = ("--x", "--y", "--z", "--qx", "--qy", "--qz", "--qw", "--roll", "--pitch", "--yaw", "--frame-id", "--child-frame-id")


def _num(v: str | None) -> float | None:
    """The value of a numeric argument; None when it is not one, or is infinite (no angle or offset)."""
    if v is None:
        return None
    try:
        f = float(v)
    except ValueError:
        return None
    return None if math.isinf(f) else f


def is_number_text(v: str | None) -> bool:
    """A static_transform_publisher argument written as a number (NaN and infinities included: they are values, if
    bad ones, not frame names)."""
    return v is not None and re.fullmatch(r"[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?|[-+]?(nan|inf)", v.strip(), re.I) is not None


def _inserted_by_ros1(edge: Edge | None, findings: list[Finding]) -> tuple[Edge | None, list[Finding]]:
    """A ROS 1 static transform as tf2 stores it: BufferCore::setTransform strips a leading '/' from both
    frames (tf's and tf2_ros's publishers alike), so the tf-era fully qualified '/base_link' is the frame
    'base_link' and the tree works. The slash still goes out on /tf_static as written, and tf2 has deprecated it
    since Hydro: a hint (info), not an error (openni2_launch, scan_tools and LCAS removed theirs)."""
    kept = [_tolerated_slash(f) if f.code == "INVALID_FRAME_ID" and f.frames and f.frames[0].startswith("/")
            and frame_id_problem(f.frames[0].lstrip("/")) is None else f for f in findings]
    if edge is not None:
        edge = replace(edge, parent=edge.parent.lstrip("/") or edge.parent, child=edge.child.lstrip("/") or edge.child)
    return edge, kept


def _tolerated_slash(f: Finding) -> Finding:
    frame = f.frames[0]
    return f.with_(severity=Severity.INFO, message=(
        f"frame id '{frame}' has a leading '/': ROS 1 tf2 strips it when storing the transform, so the tree has "
        f"'{frame.lstrip('/')}', but the slash goes out on /tf_static as written and tf2 deprecates it since Hydro "
        f"(lookups of '{frame}' fail, ROS 2 rejects it): write '{frame.lstrip('/')}'"))


def static_transform_edge(args: Sequence[str | None], flavor: str, loc: Location) -> tuple[Edge | None, list[Finding]]:
    """Read static_transform_publisher arguments the way the given implementation does.

    ``flavor``: ``tf`` (ROS 1 tf: ``x y z yaw pitch roll parent child period`` or the quaternion form
    plus period, on /tf), ``tf2_ros1`` (8 args: yaw/pitch/roll, 9+: quaternion), ``tf2_ros2``
    (``--x ... --frame-id`` flags, or the deprecated positional forms).
    """
    args = [a.strip() if isinstance(a, str) else a for a in args]
    who = "tf static_transform_publisher" if flavor == "tf" else "tf2_ros static_transform_publisher"
    if flavor == "tf2_ros2" and any(isinstance(a, str) and a.startswith("--") for a in args):
        return _flag_form(args, loc)
    n = len(args)
    if flavor == "tf":
        if n == 9:
            return _positional(args[0:3], args[3:6], None, args[6], args[7], False, loc)
        if n == 10:
            return _positional(args[0:3], None, args[3:7], args[7], args[8], False, loc)
        usage = "9 (x y z yaw pitch roll parent child period_ms) or 10 (quaternion form) arguments"
        return None, [Finding("PARSE_ERROR", f"{who} takes {usage}, got {n}", (), loc)]
    if n == 8:
        return _positional(args[0:3], args[3:6], None, args[6], args[7], True, loc)
    if n >= 9:
        if n == 9 and not is_number_text(args[6]) and args[6] is not None and is_number_text(args[8]):
            parent, child, period = args[6], args[7], args[8]
            return None, [Finding(
                "INVALID_TRANSFORM",
                f"{who} got 9 arguments, which it reads as 'x y z qx qy qz qw parent child': qw = '{parent}' is not a number, so it "
                f"publishes '{child}' -> '{period}' instead of '{parent}' -> '{child}'. The trailing period {period} is the ROS 1 tf form; "
                "drop it to use the yaw/pitch/roll form",
                tuple(x for x in (parent, child) if x), loc)]
        return _positional(args[0:3], None, args[3:7], args[7], args[8], True, loc)
    if n == 1 and flavor == "tf2_ros1":
        return None, []  # the transform comes from a parameter name
    return None, [Finding("PARSE_ERROR", f"{who} takes 8 (x y z yaw pitch roll parent child) or 9 (quaternion form) arguments, got {n}", (), loc)]


def _positional(xyz: Sequence[str | None], ypr: Sequence[str | None] | None, quat: Sequence[str | None] | None,
                parent: str | None, child: str | None, static: bool, loc: Location) -> tuple[Edge | None, list[Finding]]:
    t = [_num(v) for v in xyz]
    translation = (t[0], t[1], t[2]) if all(v is not None for v in t) else None
    rotation = None
    if ypr is not None:
        r = [_num(v) for v in ypr]
        if r[0] is not None and r[1] is not None and r[2] is not None:
            rotation = ypr_to_quaternion(r[0], r[1], r[2])
    elif quat is not None:
        q = [_num(v) for v in quat]
        if all(v is not None for v in q):
            rotation = (q[0], q[1], q[2], q[3])  # type: ignore[assignment]
    edge, findings = _edge(parent, child, static, translation, rotation, loc)  # type: ignore[arg-type]
    if rotation == (1.0, 0.0, 0.0, 0.0) and parent and child:
        findings.append(_identity_w_first(parent, child, loc))
    return edge, findings


_ARG_WORD = re.compile(r"\$\(arg\s+([\w-]+)\)")


def argument_rotation_line(written: Sequence[str], values: Mapping[str, Any], lines: Mapping[str, int]) -> int | None:
    """A static_transform_publisher whose rotation is a launch argument (``args="0 0 0 $(arg yaw) 0 0 a b"``): the
    line of the ``<arg>`` whose non-zero value turns it (see :func:`turning_argument_line`)."""
    if len(written) not in (8, 9, 10):
        return None
    angles = []
    for word in written[3:6]:
        m = _ARG_WORD.fullmatch(word)
        angles.append((values.get(m.group(1)), lines.get(m.group(1))) if m else (word, None))
    return turning_argument_line(angles)


def turning_argument_line(angles: Iterable[tuple[Any, int | None]]) -> int | None:
    """A static transform's angles, each its value and the line of the launch argument giving it (None: written on
    the node): the first argument line whose non-zero value turns the transform, the line to change; None when an
    angle is unknown, when none turns it, or when an angle written out on the node turns it too (the node's line
    then says as much)."""
    turning = []
    for value, line in angles:
        if isinstance(value, str):
            if not is_number_text(value):
                return None
            value = float(value)
        elif not isinstance(value, (int, float)):
            return None
        if float(value) != 0.0:
            if line is None:
                return None
            turning.append(line)
    return turning[0] if turning else None


def _named_angles(spec: NodeSpec, flavor: str, loc: Location) -> list[Finding]:
    """The yaw, pitch, roll form given angles named for other axes (lolo_common's ``$(arg roll) $(arg pitch)
    $(arg yaw)`` where the tool takes yaw first): judged on the arguments as written."""
    n = len(spec.arguments)
    ypr = n == 9 if flavor == "tf" else n == 8
    if not ypr or len(spec.written) != n:
        return []
    found = euler_slot_finding("static_transform_publisher", spec.written[3:6], loc, ("yaw", "pitch", "roll"))
    return [found] if found is not None else []


def _identity_w_first(parent: str, child: str, loc: Location) -> Finding:
    """The quaternion form given ``1 0 0 0``: read as qx qy qz qw it is a half turn about x, the identity written w
    first (zeabus' DVL and pressure sensor hung upside down under the robot). A warning: the half turn may be meant."""
    return Finding(
        "INCORRECT_TRANSFORM",
        f"static transform {parent} -> {child}: the quaternion '1 0 0 0' is read as qx qy qz qw, a half turn about x "
        f"('{child}' upside down), not the identity, which is '0 0 0 1' in this order; if the identity was meant, w comes last",
        (parent, child), loc, severity=Severity.WARNING)


def _edge(parent: str | None, child: str | None, static: bool, translation: tuple[float, float, float] | None,
          rotation: tuple[float, float, float, float] | None, loc: Location) -> tuple[Edge | None, list[Finding]]:
    if parent is None or child is None:
        return None, []  # a frame name the scan cannot know (unresolved substitution)
    findings = transform_findings(parent, child, translation, rotation, loc, "static transform")
    if not parent or not child:
        return None, findings
    return Edge(parent, child, static, translation, rotation, (loc,)), findings


def _flag_form(args: Sequence[str | None], loc: Location) -> tuple[Edge | None, list[Finding]]:
    values: dict[str, str | None] = {}
    i = 0
    while i < len(args):
        a = args[i]
        if isinstance(a, str) and a.startswith("--"):
            flag, eq, val = a.partition("=")
            if flag not in _FLAGS:
                return None, [Finding("PARSE_ERROR", f"tf2_ros static_transform_publisher: unknown flag '{flag}'", (), loc)]
            if eq:
                values[flag] = val
            else:
                values[flag] = args[i + 1] if i + 1 < len(args) else ""
                i += 1
        i += 1
    has_q = any(k in values for k in ("--qx", "--qy", "--qz", "--qw"))
    has_rpy = any(k in values for k in ("--roll", "--pitch", "--yaw"))
    if has_q and has_rpy:
        return None, [Finding("INVALID_TRANSFORM", "tf2_ros static_transform_publisher mixes --qx/--qy/--qz/--qw with --roll/--pitch/--yaw; "
                              "the node refuses to start", (), loc)]

    def get(k: str, default: float) -> float | None:
        return _num(values[k]) if k in values else default

    t = (get("--x", 0.0), get("--y", 0.0), get("--z", 0.0))
    translation = (t[0], t[1], t[2]) if all(v is not None for v in t) else None
    rotation: tuple[float, float, float, float] | None
    if has_q:
        q = (get("--qx", 0.0), get("--qy", 0.0), get("--qz", 0.0), get("--qw", 1.0))
        rotation = (q[0], q[1], q[2], q[3]) if all(v is not None for v in q) else None  # type: ignore[assignment]
    else:
        r = (get("--roll", 0.0), get("--pitch", 0.0), get("--yaw", 0.0))
        rotation = ypr_to_quaternion(r[2], r[1], r[0]) if all(v is not None for v in r) else None  # type: ignore[arg-type]
    parent = values.get("--frame-id", "")
    child = values.get("--child-frame-id", "")
    return _edge(parent, child, True, translation, rotation, loc)  # type: ignore[arg-type]


def static_transform_from_parameters(params: Mapping[str, Any], loc: Location) -> tuple[Edge | None, list[Finding]]:
    """The ROS 2 parameters form: ``frame_id``, ``child_frame_id``, ``translation.x``, ``rotation.w``..."""

    def num(key: str, default: float) -> float | None:
        v = params.get(key, default)
        try:
            return float(v)
        except (TypeError, ValueError):
            return None

    t = [num(f"translation.{a}", 0.0) for a in "xyz"]
    q = [num(f"rotation.{a}", 1.0 if a == "w" else 0.0) for a in "xyzw"]
    translation = (t[0], t[1], t[2]) if all(v is not None for v in t) else None
    rotation = (q[0], q[1], q[2], q[3]) if all(v is not None for v in q) else None
    parent, child = params.get("frame_id", ""), params.get("child_frame_id", "")
    return _edge(parent if isinstance(parent, str) else None, child if isinstance(child, str) else None, True,
                 translation, rotation, loc)  # type: ignore[arg-type]
