"""Turning what the analyzers saw (broadcasts, lookups, publishes) into edges, lookups and findings.

Shared by the C++ and the Python front end, so both report the same problems the same way.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Iterable, Iterator

from ...core.checks import SCAN_ON_EDGE, frame_id_problem, invalid_values, scan_in_optical, transform_findings
from ...core.conventions import OPTICAL, SENSOR, Conventions, default_conventions
from ...core.expected import DataFrame, Lookup, PartialEdge
from ...core.findings import Finding, Location, Severity
from ...core.frame_patterns import without_placeholders
from ...core.tree import Edge
from ..frame_ids import frame_id_finding, names_frame
from ..model import FileFacts
from .guards import Guard
from .headers import mentions_field, mentions_header
from .optical import CAMERA_DATA, camera_frame_finding
from .values import (
    AXES_BY_USE,
    HEADER,
    HEADER_BY_USE,
    ODOMETRY,
    STAMPED,
    TF_MESSAGE,
    TRANSFORM,
    UNSET,
    ListValue,
    Record,
    axes_written,
    frame_value,
    literal_line,
)

# Message types that carry a header whose frame_id must be set before publishing.
_STAMPED_TYPES = frozenset(
    {
        "NavSatFix", "LaserScan", "MultiEchoLaserScan", "Imu", "PointCloud2", "PointCloud", "Image",
        "CompressedImage", "CameraInfo", "Range", "MagneticField", "FluidPressure", "Temperature",
        "RelativeHumidity", "Illuminance", "OccupancyGrid", "Path", "GridCells", "Marker",
    }
)  # fmt: skip


_POSE_TYPES = frozenset({"PoseStamped", "PoseWithCovarianceStamped", "PoseArray", "TransformStamped"})
_CAMERA_WORD = re.compile(r"cam|kinect|realsense|xtion|astra", re.IGNORECASE)


def camera_body(frame: str, conventions: Conventions) -> bool:
    """A frame named for a camera but not as its optical frame (``camera``, ``camera_link``, ``usb_cam``)."""
    info = conventions.classify(frame.lstrip("/"))
    return info.cls.name == SENSOR and _CAMERA_WORD.search(info.base) is not None


def _named(rec: Record) -> str:
    """``Image 'img'``, or ``an Image`` for a message built inline in the call that publishes it."""
    return f"{rec.type_name} '{rec.name}'" if rec.name else f"an {rec.type_name}" if rec.type_name[:1] in "AEIOU" else f"a {rec.type_name}"


# A publisher made on a MAVROS setpoint topic (``nh.advertise<PoseStamped>("mavros/setpoint_position/local", 10)``,
# ``rospy.Publisher("/mavros/setpoint_raw/local", ...)``): a command, not data (C++ and Python alike).
_SETPOINT_PUBLISHER = re.compile(
    r"((?:self\.|this->)?\w+)\s*=\s*[^;\n=]*?(?:advertise|Publisher|create_publisher)\s*(?:<[^;>]*>)?\s*\([^;)]*?[\"']([^\"'\n]*setpoint[^\"'\n]*)[\"']"
)


def setpoint_publishers(text: str) -> frozenset[str]:
    """Names of the publishers a file makes on MAVROS setpoint topics (the last component: ``pub_``, ``local_pos_pub``).
    MAVROS's setpoint plugins read the pose or velocity in the frame their ``mav_frame`` parameter names and never
    look at header.frame_id, so an empty frame on these commands is the usual idiom (PX4's offboard example)."""
    if "setpoint" not in text:
        return frozenset()
    return frozenset(last_name(m.group(1)) for m in _SETPOINT_PUBLISHER.finditer(text))


_LOADS_CALIBRATION = re.compile(r"\bloadCameraInfo\s*\(")
# where the function holding a call ends: a line at column 0 (C++'s closing brace, Python's next top-level
# statement) or a Python method's next `def`
_FUNCTION_END = re.compile(r"^(?:\S|[ \t]{1,4}def\b)", re.MULTILINE)


def camera_info_reloaded(texts: Iterable[str]) -> bool:
    """Some ``loadCameraInfo(url)`` (camera_info_manager) replaces what ``setCameraInfo`` stored with a calibration's
    CameraInfo, which holds no frame, and stores nothing after it in its function (pylon_camera: a framed
    CameraInfo stored, then a calibration loaded over it). avt_vimba_camera loads, then frames and stores the
    result again in the same function: what the manager gives back keeps a frame."""
    for text in texts:
        for m in _LOADS_CALIBRATION.finditer(text):
            end = _FUNCTION_END.search(text, text.find("\n", m.end()) + 1)
            if "setCameraInfo" not in text[m.end() : end.start() if end is not None else len(text)]:
                return True
    return False


def last_name(expr: str) -> str:
    """``self.pub`` / ``this->pub_`` / ``node.pub`` -> the last name."""
    return re.split(r"\.|->", expr.strip())[-1].strip()


def static_broadcaster_names(text: str, pattern: re.Pattern[str]) -> set[str]:
    """Variables holding a StaticTransformBroadcaster: ``pattern`` runs only on the lines naming the class (fast)."""
    names: set[str] = set()
    start = text.find("StaticTransformBroadcaster")
    while start >= 0:
        lo, hi = text.rfind("\n", 0, start) + 1, text.find("\n", start)
        line = text[lo : hi if hi >= 0 else len(text)]
        names.update(n for m in pattern.finditer(line) for n in m.groups() if n)
        start = text.find("StaticTransformBroadcaster", hi if hi >= 0 else len(text))
    return names


# geometry_msgs' stamped types: spatial data whose frame_id says where it is. Other *Stamped types
# (a package's own WheelOdomStamped of wheel speeds) may carry a header only for its stamp.
_GEOMETRY_STAMPED = frozenset(
    {
        "PoseStamped", "PointStamped", "Vector3Stamped", "QuaternionStamped", "PoseWithCovarianceStamped",
        "TwistWithCovarianceStamped", "AccelWithCovarianceStamped", "WrenchStamped", "PolygonStamped",
        "InertiaStamped", "PoseArray",
    }
)  # fmt: skip

# Commands, not data: a velocity or joystick command with an empty frame_id means "in the robot's
# own frame" by convention (cmd_vel consumers ignore the header), so their header is not checked.
_COMMAND_TYPES = frozenset({"TwistStamped", "AccelStamped", "AckermannDriveStamped", "Joy", "JoyFeedbackArray"})


# Stamped messages of other packages, by package: spatial data whose frame_id says where it is. Known by the
# package the code names (`vision_msgs::msg::Detection2DArray`, `from vision_msgs.msg import ...`), never by the
# short name alone: darknet_ros_msgs' BoundingBox has no header at all.
_PACKAGE_STAMPED = {
    "vision_msgs": frozenset({"Detection2D", "Detection2DArray", "Detection3D", "Detection3DArray", "BoundingBox3DArray"}),
    "jsk_recognition_msgs": frozenset({"BoundingBox", "BoundingBoxArray", "PolygonArray"}),
    "stereo_msgs": frozenset({"DisparityImage"}),
    "radar_msgs": frozenset({"RadarScan", "RadarTracks"}),
    "derived_object_msgs": frozenset({"Object", "ObjectArray"}),
    # nmea_navsat_driver's topic driver stamps the NavSatFix it makes with the Sentence's frame
    "nmea_msgs": frozenset({"Sentence"}),
    "octomap_msgs": frozenset({"Octomap", "OctomapWithPose"}),
    "visualization_msgs": frozenset({"ImageMarker"}),
    "map_msgs": frozenset({"OccupancyGridUpdate"}),
    # perception and robot-base packages whose messages carry a header in the frame of their data
    "people_msgs": frozenset({"People", "PositionMeasurement", "PositionMeasurementArray"}),
    "cob_object_detection_msgs": frozenset({"DetectionArray", "Detection"}),
    "ar_track_alvar_msgs": frozenset({"AlvarMarkers", "AlvarMarker"}),
    "darknet_ros_msgs": frozenset({"BoundingBoxes"}),
    "autoware_msgs": frozenset({"DetectedObjectArray", "DetectedObject"}),
    "spencer_tracking_msgs": frozenset({"TrackedPersons", "DetectedPersons"}),
    "irobot_create_msgs": frozenset({"HazardDetectionVector", "HazardDetection", "IrIntensityVector", "IrIntensity",
                                     "WheelVels", "WheelTicks"}),
}


_PACKAGE = re.compile(r"\b(\w+_msgs)\s*(?:::|\.|/)")


@dataclass(frozen=True)
class TreeMessages:
    """The message types the scanned tree defines (``package/Type``): stamped data, and the others (no header, or
    a header that only stamps the time); and the package of the file read, which its own types are written
    without (``ClusterList cluster_list;`` in package ars_40X)."""

    stamped: frozenset[str] = frozenset()
    plain: frozenset[str] = frozenset()
    package: str | None = None

    def is_stamped(self, short: str, type_text: str) -> bool:
        return bool(self.stamped) and self._key(short, type_text) in self.stamped

    def is_plain(self, short: str, type_text: str) -> bool:
        """A type of the tree whose header, if any, says nothing of space: its use of a header is no evidence."""
        return bool(self.plain) and self._key(short, type_text) in self.plain

    def _key(self, short: str, type_text: str) -> str:
        m = re.search(rf"\b(\w+)\s*(?:::|\.|/)\s*(?:msg\s*(?:::|\.)\s*)?{re.escape(short)}\b", type_text)
        return f"{m.group(1) if m else self.package}/{short}"


def package_of(type_text: str | None) -> str | None:
    """The message package a type is written with (``vision_msgs::msg::Detection2DArray``, a Python module
    ``vision_msgs.msg``), or None."""
    m = _PACKAGE.search(type_text) if type_text else None
    return m.group(1) if m else None


_NO_FRAME_NEEDED = frozenset({
    "JointState", "DiagnosticArray", "BatteryState", "JointTrajectory", "MultiDOFJointTrajectory", "JointTrajectoryControllerState",
    "JointControllerState", "TimeReference", "Clock", "Joy", "JoyFeedbackArray", "Header", "DynamicJointState", "InterfaceValue",
    "GoalStatusArray", "MotorState", "ControllerState", "ModelStates", "LinkStates", "AudioData",
})  # fmt: skip
_STAMP_ONLY_SUFFIXES = ("ActionGoal", "ActionResult", "Feedback", "Status", "StatusArray", "Statistics", "Metrics", "Diagnostics", "Event", "Log",
                        "Param", "Parameter", "Parameters")  # motor feedback, parameter values: no place in space


def placeless(short: str) -> bool:
    """A message type whose header carries a stamp only (joint states, diagnostics, feedback, parameters, mav_msgs'
    CommandTrajectory: a command whose consumer reads no frame): an empty frame_id is its normal state."""
    return short in _NO_FRAME_NEEDED or short.endswith(_STAMP_ONLY_SUFFIXES) or short.startswith("Command")


# a message type named for something placed in space: a detection, a pose, a box, a track, a map...
_SPATIAL_NAME = re.compile(r"Detection|Pose|Point|Marker|Box|Object|Obstacle|Track|Path|Trajectory|Cloud|Scan|Map|Landmark|Polygon|Target")


def spatial_name(short: str) -> bool:
    """A message type of another package that Python code builds is judged by its header only when its name says it
    holds something placed in space (robomaster_msgs' ``Detection``); a ``BoolStamped``, a ``PowerState`` or an
    ``AudioBuffer`` carries a stamp only. C++ judges any ``*_msgs`` type but those of :func:`placeless`."""
    return _SPATIAL_NAME.search(short) is not None and not placeless(short) and short not in _COMMAND_TYPES


@lru_cache(maxsize=4096)
def message_kind(type_name: str, package: str | None = None) -> str | None:
    """The kind of a message type given by its last name component, or None when not tracked; ``package`` (the
    package the code names it with) tells other packages' stamped types (``jsk_recognition_msgs``' BoundingBoxArray)."""
    name = type_name.split("::")[-1].split(".")[-1].split("/")[-1]
    for suffix in ("ConstPtr", "SharedPtr", "UniquePtr", "Ptr"):
        if name.endswith(suffix) and name != suffix:
            name = name[: -len(suffix)]
    if name in _COMMAND_TYPES:
        return None
    if name == "TransformStamped":
        return TRANSFORM
    if name == "Odometry":
        return ODOMETRY
    if name in ("TFMessage", "tfMessage"):  # tfMessage: ROS 1's tf/tfMessage
        return TF_MESSAGE
    if name in _STAMPED_TYPES or name in _GEOMETRY_STAMPED or name == "CvImage":  # cv_bridge's: toImageMsg() gives it its header
        return STAMPED
    if package is not None and name in _PACKAGE_STAMPED.get(package, ()):
        return STAMPED
    return None


# --- naming: <a>_to_<b> / <b>_in_<a> --------------------------------------------------
# Convention: `a_to_b` names the transform whose header.frame_id is a and child_frame_id
# is b, which is what tf2's lookupTransform(a, b) returns and what a parent -> child
# broadcast a -> b sends; `b_in_a` (b's pose in a) is the same transform.
_NAME_PREFIXES = ("tf_", "t_", "transform_", "trans_", "msg_", "tr_")
_NAME_SUFFIXES = ("_tf", "_msg", "_transform", "_stamped", "_t", "_trans", "_tr")


def named_frames(var: str) -> tuple[str, str] | None:
    """``(frame_id, child)`` fragments a variable name promises, or None when it names no transform."""
    name = re.split(r"\.|->", var)[-1].strip("_").lower()
    if name.count("_to_") == 1:
        a, b = name.split("_to_")
    elif name.count("_in_") == 1:
        b, a = name.split("_in_")
    else:
        return None
    for p in _NAME_PREFIXES:
        if a.startswith(p) and len(a) > len(p):
            a = a[len(p) :]
    for s in _NAME_SUFFIXES:
        if b.endswith(s) and len(b) > len(s):
            b = b[: -len(s)]
    return (a, b) if a and b and a != b else None


def _fragment_matches(fragment: str, frame: str, first: bool) -> bool:
    """Whether the ``first`` (``a`` of ``a_to_b``) or second fragment of a name stands for ``frame``; more words may
    come before the first one's frame (``static_tf_pub_world_to_gazebo_world``) or after the second one's."""
    f = frame.lstrip("/").lower()
    if f == fragment or f.startswith(fragment + "_") or f.endswith("/" + fragment) or f.endswith("_" + fragment):
        return True
    return fragment.endswith("_" + f) if first else fragment.startswith(f + "_")


def reversed_name_finding(var: str, parent: str, child: str, location: Location) -> Finding | None:
    named = named_frames(var)
    if named is None or not parent or not child:
        return None
    a, b = named
    forward = _fragment_matches(a, parent, True) and _fragment_matches(b, child, False)
    backward = _fragment_matches(a, child, True) and _fragment_matches(b, parent, False)
    if not backward or forward or ("_in_" not in var.lower() and _downwards(parent, child)):
        return None
    return Finding(
        "REVERSED_NAME",
        f"'{var}' reads as the transform {child} -> {parent} (header.frame_id '{child}', child_frame_id '{parent}', as "
        f"tf2's lookupTransform({child}, {parent}) returns it) but holds {parent} -> {child}: the name or the frames are reversed",
        (parent, child),
        location,
    )


def _level(frame: str) -> int | None:
    """A frame's place in REP-105's tree: earth 0, map 1, odom 2, the body 3, a sensor below it 4."""
    cls = default_conventions().classify(frame).cls
    return cls.order if cls.order is not None else 4 if cls.name in (SENSOR, OPTICAL) else None


def _downwards(parent: str, child: str) -> bool:
    """``parent -> child`` goes down REP-105's tree (map -> odom, base_link -> camera). There a name ``a_to_b`` that
    reads the other way is its other reading (the pose of a in b, ``camera_to_base_link`` on base_link -> camera:
    IGVC22-23's fix), not a reversal: reporting it would have the user turn a right tree upside down. ``b_in_a``
    has one reading only."""
    p, c = _level(parent), _level(child)
    return p is not None and c is not None and p < c


def _quaternion_never_set(rec: Record, path: str) -> bool:
    """No code wrote the quaternion at ``path`` (``transform.rotation``, ``pose.pose.orientation``), anything
    holding it, or a component of it (an unknown value is written too)."""
    parts = path.split(".")
    holders = (".".join(parts[: i + 1]) for i in range(len(parts)))
    return all(rec.get(p) is UNSET for p in (*holders, *(f"{path}.{a}" for a in "xyzw")))


def _orientation_unwritten(texts: Iterable[str], member: str, marker: bool) -> bool:
    """Nothing in the texts may write the orientation of member ``member``: no use of its ``pose`` other than its
    position and covariance (``m.pose.pose.orientation = q``, ``poseTFToMsg(p, m.pose.pose)`` may set it). An odometry's
    must have its position filled (a pose filled but for its orientation: mrs_uav_odometry's innovation); a marker's
    shape may be given by its points alone (grid_map's region, a LINE_STRIP)."""
    n = re.escape(member)
    if marker:
        other = re.compile(rf"\b{n}\s*(?:\.|->)\s*pose\b(?!\s*\.\s*position\b)")
        return not any(other.search(t) for t in texts)
    other = re.compile(rf"\b{n}\s*(?:\.|->)\s*pose\b(?!\s*\.\s*(?:covariance\b|pose\s*\.\s*position\b))")
    position = re.compile(rf"\b{n}\s*(?:\.|->)\s*pose\s*\.\s*pose\s*\.\s*position\b")
    return any(position.search(t) for t in texts) and not any(other.search(t) for t in texts)


_MARKER_HINT = "RViz assumes the identity and shows 'Uninitialized quaternion' on the marker (set w = 1)"


# a transform's own frame slots read off it (`stf.child_frame_id_`, `t.header.frame_id`): what owns them
_OWNER = re.compile(r"^\s*([A-Za-z_]\w*)\s*(?:\.|->)\s*(?:header\s*\.\s*)?(?:child_)?frame_id_?\s*$")


def _names(word: str, text: str) -> bool:
    """``text`` names ``word`` as a word of its own: ``base_frame_``, ``GetBaseFrameId()``, ``GetBaselinkFrameId()``
    (camelCase split, and base_link/base_footprint written as one word)."""
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", text).lower().replace("baselink", "base_link").replace("basefootprint", "base_footprint")
    return re.search(rf"(?:^|[^a-z]){word}(?=$|[^a-z])", words) is not None


# a variable named for a world-fixed frame, and one named for a frame on the robot (REP-105: the fixed
# frames are the robot's ancestors, never its children)
_FIXED_NAMES = ("fixed", "world", "global", "map", "odom")
_ROBOT_NAMES = ("imu", "base", "laser", "lidar", "camera", "sensor", "body", "robot", "gps")


def slot_name_finding(parent_text: str, child_text: str, location: Location, transform_text: str = "") -> Finding | None:
    """``StampedTransform(tf, t, frame_id_, parent_frame_id_)``: a value named parent passed as the child
    (or one named child as the parent) while the other slot's name does not say the same; or one named for
    a world-fixed frame passed as the child of one named for a frame on the robot (imu_tools'
    ``StampedTransform(transform, stamp, imu_frame_, fixed_frame_)``), unless the transform is an inverse
    (``transform.inverse()``, ``t_inv``): a tree turned upside down on purpose (imu_tools' ``reverse_tf``)."""
    if any(_OWNER.match(t) for t in (parent_text, child_text)):
        # a frame read off another transform's slots: both off one (`stf.child_frame_id_, stf.frame_id_`) is an
        # inverse on purpose, one off another is a chain (`optical.header.frame_id = ts.child_frame_id`)
        return None
    parent_in_child = _names("parent", child_text) and not _names("parent", parent_text)
    child_in_parent = _names("child", parent_text) and not _names("child", child_text)
    # (written-out names are judged by the tree, REP-105's order check, with the values themselves)
    named = not any(t.lstrip().startswith(('"', "'")) for t in (parent_text, child_text)) and "inv" not in transform_text.lower()
    fixed_in_child = named and (any(_names(w, child_text) for w in _FIXED_NAMES) and any(_names(w, parent_text) for w in _ROBOT_NAMES)
                      and not any(_names(w, parent_text) for w in _FIXED_NAMES) and not any(_names(w, child_text) for w in _ROBOT_NAMES))
    if fixed_in_child and not parent_in_child and not child_in_parent:
        # map/odom under the robot's base by name is the order REP-105 forbids, the code the tree's own check gives the
        # same edge when the values are known (rf2o's base_frame_id -> odom_frame_id); other pairs (imu under fixed) are
        # a naming question
        rep105 = any(_names(w, child_text) for w in ("map", "odom")) and any(_names(w, parent_text) for w in ("base", "body", "robot"))
        return Finding(
            "INCORRECT_FRAME_ORDER_IN_TREE" if rep105 else "REVERSED_NAME",
            f"'{child_text}' is passed as the child frame of '{parent_text}': the names say a world-fixed frame hangs under "
            "a frame on the robot; REP-105 makes the fixed frames (map, odom, world) the robot's ancestors, so the parent "
            "and child look swapped",
            (),
            location,
            severity=Severity.WARNING,
        )
    if not parent_in_child and not child_in_parent:
        return None
    what = f"'{child_text}' is passed as the child frame" if parent_in_child else f"'{parent_text}' is passed as the parent frame"
    return Finding(
        "REVERSED_NAME",
        f"{what} (parent '{parent_text}', child '{child_text}'): the names say the frames are swapped, so the transform "
        "is published upside down in the tree",
        (),
        location,
    )


def param_default(value: Any, name: Any = None) -> Any:
    """A parameter's written default as the analysis may use it: an empty string is no frame but
    "set me" (the launch file or a guard such as ``if (!frame_.empty())`` decides), so it is unknown;
    except for a prefix (``tf_prefix``), where empty is the usual value: no prefix."""
    if value == "" and not (isinstance(name, str) and "prefix" in name.lower()):
        return None
    return value


def keep_param(params: dict[str, Any], sink: FactSink | None, pname: Any, default: Any, line: int) -> None:
    """A parameter's default is its value unless a launch file says otherwise: kept in ``params``, and
    checked as a frame id (into ``sink``, when given) when the parameter's name says it is one."""
    if not isinstance(pname, str) or default is None:
        return
    params.setdefault(pname, default)
    if sink is not None and names_frame(pname) and not (isinstance(default, str) and sink.reported_invalid((default,))):
        # an id reported where it was written (a member's initializer) is not reported again where it is read
        sink.add(frame_id_finding(default, sink.loc(line), f"parameter '{pname}' default"))


class FactSink:
    """Collects one file's facts; the front ends call it at each broadcast, lookup and publish."""

    def __init__(self, path: str, lines: int, conventions: Conventions | None = None) -> None:
        self.facts = FileFacts(path, lines=lines)
        self.conventions = conventions or default_conventions()
        self.sites: list[int] = []  # lines of the calls, outermost first, that passed constants into the helper being walked
        # (type, variable, header frame, where stamped, what happens to it: "is published", "is built and returned")
        self.camera_data: list[tuple[str, str, str, Location, str]] = []
        self.transformed: list[tuple[str, Location]] = []  # frames of stamped data handed to tf2 to transform, and where
        # (parent, where the transform is sent) -> where this file wrote its header.frame_id: the line to change
        self.parent_written: dict[tuple[str, Location], Location] = {}

    @contextmanager
    def call_site(self, line: int) -> Iterator[None]:
        """While a helper called with constant arguments is walked: its broadcasts belong to this call."""
        self.sites.append(line)
        try:
            yield
        finally:
            self.sites.pop()

    @contextmanager
    def own_site(self) -> Iterator[None]:
        """While a helper publishes a message it built itself: the helper's line is the one to change, not the call's."""
        saved, self.sites = self.sites, []
        try:
            yield
        finally:
            self.sites = saved

    def loc(self, line: int) -> Location:
        return Location(self.facts.path, line)

    def site(self, line: int) -> Location:
        """Where a use at ``line`` is reported: the outermost call that named its constants, when in a helper."""
        return self.loc(self.sites[0] if self.sites else line)

    def finish(self, known_frames: set[str], image_poses: bool = False) -> None:
        """Once the file is walked: camera data stamped with a body frame whose optical twin the file names; with
        ``image_poses`` (the file estimates poses from images), those poses sent or published under a camera body frame."""
        names = known_frames | {f for e in self.facts.edges for f in (e.parent, e.child)}
        for type_name, var, frame, loc, fate in self.camera_data:
            self.add(camera_frame_finding(type_name, var, frame, names, self.facts.edges, self.conventions, loc, fate=fate))
        if image_poses:
            placed: list[tuple[str | None, Location | None]] = [(e.parent, e.location) for e in self.facts.edges]
            placed += [(p.parent, p.location) for p in self.facts.partial_edges]
            placed += [(d.frame, d.location) for d in self.facts.data_frames if d.type in _POSE_TYPES]
            placed += [(frame, loc) for frame, loc in self.transformed]  # a pose stamped and transformed into another frame
            for posed, at in dict.fromkeys(placed):
                if posed and at is not None and camera_body(posed, self.conventions):
                    at = self.parent_written.get((posed, at), at)
                    self.add(Finding(
                        "INCORRECT_TRANSFORM",
                        f"this file estimates poses from images or reads a marker detector's (solvePnP, ArUco, AprilTag), which come in the camera's optical "
                        f"axes (x right, y down, z forward), and sends or publishes poses in '{posed}', a camera body frame by "
                        f"REP-103's naming (x forward, z up): unless the code turns them, they land rotated; use the optical frame "
                        f"the image is stamped with",
                        (posed,), at, severity=Severity.WARNING,
                    ))

    def parse_error(self, line: int, message: str) -> None:
        """PARSE_ERROR (info): the file could not be read in full; ``message`` says why and what was kept."""
        self.add(Finding("PARSE_ERROR", f"{self.facts.path}:{line}: {message}", (), self.loc(line)))

    def note(self, line: int, message: str) -> None:
        """A remark that is no finding: the code is fine, the scanner's reading of it is partial."""
        self.facts.notes.append(f"{self.facts.path}:{line}: {message}")

    def add(self, finding: Finding | None) -> None:
        if finding is not None and finding not in self.facts.findings:
            self.facts.findings.append(finding)

    def reported_invalid(self, frames: tuple[str, ...], owner: str | None = None, at: int | None = None) -> bool:
        """An INVALID_FRAME_ID for ``frames`` already given; with ``owner``, one given where a field of that
        message was written (``t.header.frame_id = "/odom"``), not for another message naming the same id; with
        ``at``, one given at that line of this file."""
        return any(f.code == "INVALID_FRAME_ID" and f.frames == frames and (owner is None or f.message.startswith(f"{owner}."))
                   and (at is None or f.location == self.loc(at)) for f in self.facts.findings)

    # --- broadcasts ---------------------------------------------------------------------
    def broadcast(self, value: Any, static: bool, line: int) -> None:
        """``sendTransform(value)``: a transform message, a list of them, or a tf::StampedTransform record."""
        items = value.items if isinstance(value, ListValue) else [value]
        for item in items:
            if isinstance(item, Record) and item.kind == TRANSFORM:
                self._transform(item, static, line)
            else:
                self.facts.unknown_broadcasts += 1

    def _transform(self, rec: Record, static: bool, line: int) -> None:
        loc = self.loc(line)
        sources: tuple[Location, ...] = (loc,)
        if self.sites:
            # the outermost call names the frames; the helper's own line is the second source
            loc = self.loc(self.sites[0])
            sources = (loc, self.loc(line))
        parent, child = frame_value(rec.get("header.frame_id")), frame_value(rec.get("child_frame_id"))
        if not rec.local or rec.escaped:
            # fields may have been set where we did not look: only trust what is known
            parent = None if parent == "" and rec.get("header.frame_id") is UNSET else parent
            child = None if child == "" and rec.get("child_frame_id") is UNSET else child
        rot = rec.rotation()
        quat = rot.quaternion() if rot is not None else None
        translation = rec.translation()
        what = f"transform '{rec.name}'" + (f" (sent at line {line} by the helper called here)" if self.sites else "")
        if rec.ros1 and rec.local and not rec.escaped and _quaternion_never_set(rec, "transform.rotation"):
            self.add(Finding(
                "INVALID_TRANSFORM",
                f"{what} (a ROS 1 {rec.type_name} built at line {rec.line}) is broadcast with its rotation never assigned: "
                "a ROS 1 message's quaternion defaults to (0, 0, 0, 0), which is no rotation; tf drops or mangles it",
                tuple(f for f in (parent, child) if f),
                loc,
            ))
        if parent is not None and child is not None:
            for f in transform_findings(parent, child, translation, quat, loc, what):
                if f.code != "INVALID_FRAME_ID" or not (rec.name and self.reported_invalid(f.frames, rec.name)):
                    self.add(f)  # an invalid frame written out where the transform is filled is reported there
        else:
            self._missing(parent, child, loc, what)
        if parent is None or child is None:
            self.facts.unknown_broadcasts += 1
            self._partial(parent, child, "static" if static else "broadcast", loc)
        if not parent or not child or parent.lstrip("/") == child.lstrip("/"):
            return
        valid_quat = quat if quat is not None and invalid_values(None, quat) is None else None
        # the axis verdict is the tree's (core check_tree): it sees the mounts around this edge
        constant_part = rot.ortho if valid_quat is None and rot is not None and rot.partial else None
        # in the tree as tf2 stores it: BufferCore::setTransform strips a leading '/' (reported above), so '/laser' is
        # the 'laser' a launch file's static transform also names (wato_f1tenth's two parents)
        rotation_at = self.loc(rec.rotation_line) if rec.rotation_line and not self.sites and not rec.made_by else None
        child_line = literal_line(child, self.facts.path) if not self.sites else None
        child_at = self.loc(child_line) if child_line is not None and child_line != line else None
        named_at = self.loc(rec.child_line) if rec.child_line and rec.child_line != line and not self.sites and not rec.made_by else None
        edge = Edge(parent.lstrip("/") or parent, child.lstrip("/") or child, static, translation, valid_quat, sources,
                    constant_part=constant_part, rotation_at=rotation_at, child_at=child_at, named_at=named_at)
        if edge in self.facts.edges:
            return  # the same helper reached again with other arguments that do not matter here
        self.facts.edges.append(edge)
        if rec.frame_line and rec.frame_line != line and not self.sites and not rec.made_by:
            self.parent_written[(edge.parent, loc)] = self.loc(rec.frame_line)
        self.add(reversed_name_finding(rec.name, parent, child, loc))

    def _partial(self, parent: str | None, child: str | None, kind: str, loc: Location) -> None:
        """One frame known (a name), the other known only at run time (None): kept, outside the tree."""
        if (parent is None) != (child is None) and (parent or child):
            if kind == "lookup":  # as for whole lookups: ROS 1 tf resolved "/map" to "map"
                parent, child = parent and parent.lstrip("/"), child and child.lstrip("/")
            edge = PartialEdge(parent, child, kind, loc)
            if edge not in self.facts.partial_edges:
                self.facts.partial_edges.append(edge)

    def _missing(self, parent: str | None, child: str | None, loc: Location, what: str) -> None:
        if parent == "":
            frames = (child,) if child else ()
            self.add(Finding("MISSING_FRAME", f"{what} is broadcast with header.frame_id never set (empty); tf2 drops it", frames, loc))
        if child == "":
            frames = (parent,) if parent else ()
            self.add(Finding("MISSING_CHILD_FRAME", f"{what} is broadcast with child_frame_id never set (empty); tf2 drops it", frames, loc))

    # --- lookups ------------------------------------------------------------------------
    def lookup(self, target: Any, source: Any, line: int, bound_to: str | None = None, time_travel: bool = False, tf2: bool = False,
               distinct: bool = False) -> None:
        """``lookupTransform(target, source)``: the result has header.frame_id target, child source.
        ``time_travel``: tf2's ``lookupTransform(target, t1, source, t2, fixed)``, where target and
        source may be one frame (how it moved between t1 and t2). ``tf2``: a tf2 Buffer's lookup, which fails on a
        frame id with a leading '/' (patrolling_sim's ROS 2 port looked up "/map")."""
        t, s = frame_value(target), frame_value(source)
        if tf2:
            for frame in (f for f in (t, s) if f and f.startswith("/") and frame_id_problem(f.lstrip("/")) is None):
                self._looked_up_invalid(
                    frame, " through tf2", line, "tf2's Buffer rejects a frame id that starts with '/' in a lookup (ROS 1's tf "
                    f"listener stripped it; tf2 does not), so the lookup fails: write '{frame.lstrip('/')}'", Severity.WARNING)
        for frame in (f for f in (t, s) if f and any(c.isspace() for c in without_placeholders(f))):
            # a typo (`"/robot/rotation center"` for rotation_center): no broadcaster's frame has a space
            self._looked_up_invalid(frame, "", line, "the frame id contains whitespace, which no tf frame has (frame ids are "
                                    "letters, digits and _ . / -), so the lookup never succeeds")
        if t is None or s is None or not t or not s:
            self._partial(t, s, "lookup", self.loc(line))
            return
        loc = self.loc(line)
        # ROS 1 tf resolved "/map" to "map"; the tree holds the names without the slash
        lookup = Lookup(t.lstrip("/") or t, s.lstrip("/") or s, loc)
        if lookup not in self.facts.lookups:
            self.facts.lookups.append(lookup)
        if t == s and not time_travel and not distinct:  # distinct: the code looks up only when the two names differ
            self.add(Finding("REDUNDANT_TRANSFORM", f"lookup of the transform from '{s}' to itself: always identity, probably a wrong frame name", (t,), loc))
        if bound_to:
            self.add(reversed_name_finding(bound_to, t, s, loc))

    def _looked_up_invalid(self, frame: str, how: str, line: int, problem: str, severity: Severity | None = None) -> None:
        """INVALID_FRAME_ID for a frame a lookup at ``line`` names, at its literal when the lookup is handed a variable
        holding it (the literal is the line to change)."""
        at = literal_line(frame, self.facts.path)
        self.add(Finding("INVALID_FRAME_ID", f"lookup of '{frame}'{how}" + (f" at line {line}" if at not in (None, line) else "")
                         + f": {problem}", (frame,), self.loc(at or line), severity=severity))

    # --- published data -----------------------------------------------------------------
    def member_published(self, rec: Record, name: str, line: int, texts: list[str], where: str | None = None) -> None:
        """A message held in member ``name``, published here, whose frame no method of the file (nor its headers:
        ``texts``, whose writes the walks may not show) ever sets: a warning, another file of the class may set it.
        No other file can set a message declared at file scope of a source file (``where`` "file"), a Python module's
        global (``where`` "module"), nor a member of a class declared in a source file (``where`` "source"): an error then."""
        frame_unset = rec.get("header.frame_id") is UNSET and not mentions_header(texts, name)
        child_unset = rec.kind in (ODOMETRY, TRANSFORM) and rec.get("child_frame_id") is UNSET and not mentions_field(texts, name, "child_frame_id")
        for unset, code, fld in ((frame_unset, "MISSING_FRAME", "header.frame_id"), (child_unset, "MISSING_CHILD_FRAME", "child_frame_id")):
            if not unset:
                continue
            if where == "file":
                what = (f"{rec.type_name} '{name}' (declared at file scope, line {rec.line}) is published with {fld} "
                        "set nowhere in this file: it goes out empty")
            elif where == "module":
                what = (f"{rec.type_name} '{name}' (a module global, built at line {rec.line}) is published with {fld} set "
                        "nowhere in this file: it goes out empty")
            elif where == "class":
                what = (f"{rec.type_name} member '{name}' (built at line {rec.line}) is published with {fld} set by no "
                        "method of this file: it goes out empty (if a class in another file sets it, ignore this)")
            elif where == "source":
                what = (f"{rec.type_name} member '{name}' of a class declared in this source file is published with {fld} "
                        "set by none of its methods: it goes out empty")
            else:
                what = (f"{rec.type_name} member '{name}' is published with {fld} set by no method of this file or its "
                        "headers: it goes out empty (if another file of the class sets it, ignore this)")
            self.add(Finding(code, what, (), self.loc(line), severity=None if where in ("file", "module", "source") else Severity.WARNING))
        marker = rec.type_name == "Marker"
        pose = "pose.pose.orientation" if rec.kind == ODOMETRY else "pose.orientation" if marker else None
        if pose and rec.ros1 and _quaternion_never_set(rec, pose) and _orientation_unwritten(texts, name, marker):
            self.add(Finding(
                "INVALID_TRANSFORM",
                f"{rec.type_name} member '{name}' is published with its pose orientation set by no method of this file"
                + ("" if where in ("file", "module", "source") else " or its headers")
                + ": a ROS 1 message's quaternion defaults to (0, 0, 0, 0), which is no rotation; "
                + (_MARKER_HINT if marker else
                   "consumers (robot_localization, RViz) reject or mangle it (set w = 1 where the message is made)"),
                (), self.loc(line), severity=Severity.INFO if marker else Severity.WARNING,
            ))

    def camera_returned(self, rec: Record) -> None:
        """Camera data a helper builds, frames and returns for another function to publish (naoqi_driver's
        ``createCameraInfoTOPVGA()``): its frame is judged at the line that writes it, as a published one is."""
        frame = rec.get("header.frame_id")
        if rec.type_name in CAMERA_DATA and rec.local and not rec.escaped and rec.frame_line and isinstance(frame, str) and frame:
            self.camera_data.append((rec.type_name, rec.name, frame, self.loc(rec.frame_line), "is built and returned"))

    def pushed_pose(self, value: Any, container: str, line: int) -> None:
        """``plan.poses.push_back(pose)``: a stamped pose stored into a path with its frame never set. Reported where
        the pose is built (where the header is to be set), as a warning: some consumers read only the path's header."""
        if not isinstance(value, Record) or value.kind != STAMPED or not value.local or value.escaped or value.get("header.frame_id") is not UNSET:
            return
        self.add(
            Finding(
                "MISSING_FRAME",
                f"{value.type_name} '{value.name}' is stored into {container} at line {line} with header.frame_id never set: "
                "whoever reads the poses one by one (a controller, tf2's transform) cannot tell their frame",
                (),
                self.loc(value.line),
                severity=Severity.WARNING,
            )
        )

    def pushed_marker(self, value: Any, container: str, line: int) -> None:
        """``markers.markers.push_back(marker)``: a ROS 1 Marker stored into an array with its pose never assigned (its
        shape given by points, robot_calibration's SPHERE_LIST): the hint a published one gets, where it is stored."""
        if (not isinstance(value, Record) or value.type_name != "Marker" or not value.ros1 or not value.local or value.escaped
                or not _quaternion_never_set(value, "pose.orientation")):
            return
        self.add(Finding(
            "INVALID_TRANSFORM",
            f"Marker '{value.name}' (a ROS 1 Marker built at line {value.line}) is stored into {container} with its pose "
            f"orientation never assigned: a ROS 1 message's quaternion defaults to (0, 0, 0, 0), which is no rotation; {_MARKER_HINT}",
            (), self.loc(line), severity=Severity.INFO))

    def framed_on_some_paths(self, value: Record, skipped: Guard, line: int, member: str | None = None) -> None:
        """A message published at ``line`` whose frame is written only inside ``skipped`` (a loop, a branch);
        ``member``: the member holding it, whose frame no other code of the file writes."""
        how = "does not run (nothing to loop over)" if skipped.kind == "loop" else "is not taken"
        what = (f"{value.type_name} member '{member}' is published with header.frame_id written only inside" if member
                else f"{_named(value)} (built at line {value.line}) is published with header.frame_id written only inside")
        when = (f"until that {'loop' if skipped.kind == 'loop' else 'branch'} first runs" if member
                else f"whenever that {'loop' if skipped.kind == 'loop' else 'branch'} {how}")
        self.add(Finding(
            "MISSING_FRAME",
            f"{what} '{skipped.text}' at line {skipped.line}: {when}, "
            "it goes out with an empty frame id, which subscribers and tf2 cannot place; set the frame before it",
            (), self.site(line), severity=Severity.WARNING))

    def publish(self, value: Any, line: int, static: bool = False) -> None:
        """``pub.publish(msg)``; ``static``: the publisher's name says /tf_static (for a TFMessage)."""
        if isinstance(value, Record) and value.kind == TF_MESSAGE:
            transforms = value.get("transforms")
            self.broadcast(transforms if isinstance(transforms, ListValue) else None, static, line)
            return
        if isinstance(value, Record) and value.kind != HEADER:
            stamped = value.get("header.frame_id")
            if isinstance(stamped, str) and stamped:
                # a wrong frame is fixed where it is written: there, when this file wrote it outside a helper call
                written = value.frame_line and not value.made_by and not self.sites
                where = self.loc(value.frame_line) if written else self.site(line)
                data_frame = DataFrame(stamped, value.type_name, where)
                if data_frame not in self.facts.data_frames:
                    self.facts.data_frames.append(data_frame)
                if not value.escaped and value.type_name in CAMERA_DATA:
                    self.camera_data.append((value.type_name, value.name, stamped, where, "is published"))
                if value.type_name == "LaserScan" and scan_in_optical(stamped, self.conventions):
                    self.add(Finding("INCORRECT_TRANSFORM", f"{_named(value)} is published in '{stamped}', {SCAN_ON_EDGE}; stamp it "
                                     "with the camera's body frame", (stamped,), where))
        if not isinstance(value, Record) or not value.local or value.escaped or value.kind == HEADER:
            return  # a bare std_msgs Header published is a time signal: no frame is needed
        if value.kind in (HEADER_BY_USE, AXES_BY_USE) and not any(k == "header" or k.startswith("header.") for k in value.fields):
            return  # nothing says this type has a header
        if value.kind == AXES_BY_USE and len(axes_written(value.fields)) < 2:
            return  # nothing says it holds data in space (motor outputs, RC channels, a barometer)
        loc, built = self.site(line), f"built at line {value.line}" + (f" by {value.made_by}" if value.made_by else "")
        frame = value.get("header.frame_id")
        if frame is UNSET or frame == "":
            how = "never set" if frame is UNSET else 'set to ""'
            inferred = value.kind in (HEADER_BY_USE, AXES_BY_USE)
            # a Vector3Stamped whose header the code never writes (not even the stamp) is often a plain triple
            # with no frame (mavros landing_target: a target's size); poses and points always have one
            unused = value.type_name == "Vector3Stamped" and not any(k == "header" or k.startswith("header.") for k in value.fields)
            self.add(
                Finding(
                    "MISSING_FRAME",
                    f"{_named(value)} ({built}) is published with header.frame_id {how}: "
                    "subscribers and tf2 cannot tell which frame the data is in"
                    + (" (a message type the scanner does not know: if its header carries only a stamp, ignore this)" if inferred else "")
                    + (" (the code writes nothing of its header, not even the stamp: if it carries no spatial quantity, ignore this)" if unused else ""),
                    (),
                    loc,
                    # whether this message's frame_id matters is not shown: a warning, never an error
                    severity=Severity.WARNING if inferred or unused else None,
                )
            )
        if value.kind in (ODOMETRY, TRANSFORM):
            child = value.get("child_frame_id")
            if child is UNSET or child == "":
                how = "never set" if child is UNSET else 'set to ""'
                parent = frame_value(frame)
                self.add(
                    Finding(
                        "MISSING_CHILD_FRAME",
                        f"{_named(value)} ({built}) is published with child_frame_id {how}: "
                        "the frame its pose and twist describe is unknown",
                        (parent,) if parent else (),
                        loc,
                    )
                )
            elif isinstance(child, str) and child and child == frame:
                self.add(
                    Finding(
                        "REDUNDANT_TRANSFORM",
                        f"{_named(value)} ({built}) is published with header.frame_id and "
                        f"child_frame_id both '{child}': the pose of a frame in itself is always identity; one of them is the wrong frame",
                        (child,),
                        loc,
                    )
                )
        marker, imu = value.type_name == "Marker", value.type_name == "Imu"
        pose = ("pose.pose.orientation" if value.kind == ODOMETRY or value.type_name == "PoseWithCovarianceStamped" else
                "pose.orientation" if marker or value.type_name == "PoseStamped" else "orientation" if imu else None)
        # an IMU without an orientation estimate says so with orientation_covariance[0] = -1 (sensor_msgs/Imu)
        unknown = imu and any(k == "orientation_covariance" or k.startswith("orientation_covariance.") for k in value.fields)
        if pose is not None and value.ros1 and value.local and not value.escaped and not unknown and _quaternion_never_set(value, pose):
            self.add(Finding(
                "INVALID_TRANSFORM",
                f"{_named(value)} (a ROS 1 {value.type_name} built at line {value.line}) is published with its "
                f"{'orientation' if imu else 'pose orientation'} never assigned: a ROS 1 message's quaternion defaults to "
                "(0, 0, 0, 0), which is no rotation; "
                + (_MARKER_HINT if marker else
                   "filters (robot_localization, imu_filter_madgwick) read it as a rotation and produce NaN (set it, or mark "
                   "it unknown with orientation_covariance[0] = -1 as sensor_msgs/Imu asks)" if imu else
                   "consumers (robot_localization, RViz) reject or mangle it (set w = 1 for an unknown heading)"),
                tuple(f for f in (frame_value(frame), frame_value(value.get("child_frame_id"))) if f),
                self.loc(line),  # where the message is built and sent, not a call that named constants for it
                # a marker's is a hint: RViz shows it as meant (its maintainers call such quaternions common, not errors)
                severity=Severity.INFO if marker else Severity.WARNING,
            ))
