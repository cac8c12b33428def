"""The header of any stamped message, read from its serialized bytes without deserializing the rest.

A message whose first field is ``std_msgs/Header`` starts the same way whatever
follows (an image, a point cloud): CDR has the 4-byte encapsulation header, then
``stamp.sec`` (int32), ``stamp.nanosec`` (uint32) and ``frame_id`` (uint32 length
with the NUL, bytes); ROS 1 has ``seq``, ``stamp`` (two uint32) and ``frame_id``
(uint32 length, bytes). ``nav_msgs/Odometry`` and ``geometry_msgs/TransformStamped``
carry ``child_frame_id`` right after the header. Whether a type has a header is
decided from the bag's own message definitions, or from a table of common types.
"""

from __future__ import annotations

import re
import struct
from typing import Iterable, NamedTuple

_LE_U32 = struct.Struct("<I").unpack_from
_BE_U32 = struct.Struct(">I").unpack_from
_LE_STAMP = struct.Struct("<iI").unpack_from
_BE_STAMP = struct.Struct(">iI").unpack_from
_ROS1_STAMP = struct.Struct("<II").unpack_from

#: Types whose serialized form has child_frame_id right after the header.
CHILD_FRAME_TYPES = frozenset({"nav_msgs/Odometry", "geometry_msgs/TransformStamped"})

#: Camera data: REP-103 puts it in an optical frame (z forward, x right, y down).
IMAGE_TYPES = frozenset({"sensor_msgs/Image", "sensor_msgs/CompressedImage", "sensor_msgs/CameraInfo", "stereo_msgs/DisparityImage"})

#: Common stamped types (first field std_msgs/Header), for live topics whose type cannot be introspected.
COMMON_HEADER_TYPES = frozenset(
    {
        *CHILD_FRAME_TYPES,
        *IMAGE_TYPES,
        "sensor_msgs/LaserScan",
        "sensor_msgs/MultiEchoLaserScan",
        "sensor_msgs/PointCloud",
        "sensor_msgs/PointCloud2",
        "sensor_msgs/Imu",
        "sensor_msgs/NavSatFix",
        "sensor_msgs/MagneticField",
        "sensor_msgs/Range",
        "sensor_msgs/FluidPressure",
        "sensor_msgs/Temperature",
        "sensor_msgs/RelativeHumidity",
        "sensor_msgs/Illuminance",
        "geometry_msgs/PoseStamped",
        "geometry_msgs/PoseWithCovarianceStamped",
        "geometry_msgs/PointStamped",
        "geometry_msgs/Vector3Stamped",
        "geometry_msgs/QuaternionStamped",
        "geometry_msgs/TwistStamped",
        "geometry_msgs/TwistWithCovarianceStamped",
        "geometry_msgs/AccelStamped",
        "geometry_msgs/AccelWithCovarianceStamped",
        "geometry_msgs/WrenchStamped",
        "geometry_msgs/PolygonStamped",
        "nav_msgs/Path",
        "nav_msgs/OccupancyGrid",
        "nav_msgs/GridCells",
        "visualization_msgs/Marker",
    }
)


#: Types with a header whose frame_id names no place (often left empty): never checked as data.
NON_SPATIAL_TYPES = frozenset(
    {
        "diagnostic_msgs/DiagnosticArray",
        "sensor_msgs/JointState",
        "sensor_msgs/TimeReference",
        "sensor_msgs/Joy",
        "sensor_msgs/BatteryState",
        "actionlib_msgs/GoalStatusArray",
        "std_msgs/Header",
    }
)


def normalize_type(msgtype: str) -> str:
    """``sensor_msgs/msg/Image`` and ``sensor_msgs/Image`` -> ``sensor_msgs/Image``."""
    return msgtype.replace("/msg/", "/")


class StampedType(NamedTuple):
    """How to read a stamped topic: its type and whether child_frame_id follows the header."""

    msgtype: str  # normalized, pkg/Name
    child: bool

    @property
    def image(self) -> bool:
        return self.msgtype in IMAGE_TYPES


def stamped_type(msgtype: str, definition_has_header: bool | None = None) -> StampedType | None:
    """The type's reading, or None when it has no header first. ``definition_has_header`` is the
    verdict of the message's own definition where one is known; otherwise the common table decides."""
    name = normalize_type(msgtype)
    if name in NON_SPATIAL_TYPES:
        return None
    has = definition_has_header if definition_has_header is not None else name in COMMON_HEADER_TYPES
    return StampedType(name, name in CHILD_FRAME_TYPES) if has else None


_FIELD = re.compile(r"^\s*([A-Za-z][\w/]*)(?:\[[^\]]*\]|<=\d+)?\s+([A-Za-z]\w*)\s*(=)?")


def definition_has_header(text: str) -> bool | None:
    """Whether a .msg-style definition (ROS 1 connection header, MCAP ``ros2msg`` schema) starts with a
    ``Header``; None when the text holds no field (an empty or IDL definition)."""
    for line in text.splitlines():
        line = line.split("#", 1)[0]
        if line.startswith("=" * 10):
            break  # the dependencies' definitions follow
        m = _FIELD.match(line)
        if m is None or m.group(3):  # not a field, or a constant
            continue
        return m.group(1) in ("Header", "std_msgs/Header", "std_msgs/msg/Header")
    return None


class Header(NamedTuple):
    stamp: float  # seconds
    frame_id: str
    child_frame_id: str | None  # only for types with one


class HeaderError(ValueError):
    """The bytes are too short or malformed for a header."""


def read_header_cdr(data: bytes | bytearray | memoryview, child: bool = False) -> Header:
    """The header (and child_frame_id) of a CDR-serialized stamped message."""
    n = len(data)
    if n < 16 or data[1] > 3:
        raise HeaderError(f"not a CDR stamped message ({n} bytes, encapsulation {bytes(data[:2]).hex() if n >= 2 else '?'})")
    little = data[1] in (1, 3)
    u32, stamp_of = (_LE_U32, _LE_STAMP) if little else (_BE_U32, _BE_STAMP)
    sec, nsec = stamp_of(data, 4)
    frame, pos = _cdr_string(data, 12, u32, "frame_id")
    child_id = None
    if child:
        child_id, _ = _cdr_string(data, (pos + 3) & ~3, u32, "child_frame_id")  # payload starts at 4: absolute alignment
    return Header(sec + nsec * 1e-9, frame, child_id)


def _cdr_string(data: bytes | bytearray | memoryview, pos: int, u32: object, what: str) -> tuple[str, int]:
    if pos + 4 > len(data):
        raise HeaderError(f"message ends before its {what}")
    size = u32(data, pos)[0]  # type: ignore[operator]
    end = pos + 4 + size
    if size == 0 or end > len(data):
        raise HeaderError(f"bad {what} length {size} at byte {pos}")
    return _text(data[pos + 4 : end - 1], what), end


def read_header_ros1(data: bytes | bytearray | memoryview, child: bool = False) -> Header:
    """The header (and child_frame_id) of a ROS 1 serialized stamped message."""
    if len(data) < 16:
        raise HeaderError(f"not a ROS 1 stamped message ({len(data)} bytes)")
    sec, nsec = _ROS1_STAMP(data, 4)
    frame, pos = _ros1_string(data, 12, "frame_id")
    child_id = _ros1_string(data, pos, "child_frame_id")[0] if child else None
    return Header(sec + nsec * 1e-9, frame, child_id)


def _ros1_string(data: bytes | bytearray | memoryview, pos: int, what: str) -> tuple[str, int]:
    if pos + 4 > len(data):
        raise HeaderError(f"message ends before its {what}")
    size = _LE_U32(data, pos)[0]
    end = pos + 4 + size
    if end > len(data):
        raise HeaderError(f"bad {what} length {size} at byte {pos}")
    return _text(data[pos + 4 : end], what), end


def _text(raw: bytes | bytearray | memoryview, what: str) -> str:
    try:
        return bytes(raw).decode()
    except UnicodeDecodeError:
        raise HeaderError(f"{what} is not UTF-8") from None


def stamped_topics(topics: Iterable[tuple[str, str, bool | None]]) -> dict[str, StampedType]:
    """(topic, type, definition verdict) -> the stamped ones and how to read them."""
    out: dict[str, StampedType] = {}
    for topic, msgtype, verdict in topics:
        st = stamped_type(msgtype, verdict)
        if st is not None:
            out[topic] = st
    return out
