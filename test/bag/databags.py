"""Real bags with sensor data beside TF: the clean robot of ``tfbags`` plus camera, laser, cloud, IMU, GPS and
odometry topics, each a real message serialized by ``rosbags`` (CDR or ROS 1), and one-fault injectors.

A sensor is ``(topic, type, frame, rate)``; its messages run from ``DATA_START`` to the end of the bag,
stamped with their receive time unless a fault shifts them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Callable

from bag.tfbags import DURATION, IDENTITY, START, Msg, Robot, clean_robot, ros1_typestore

from physframe_ros.core import encode_cdr, encode_ros1

DATA_START = 1.0  # the sensors start after TF, as a launch file brings them up


@dataclass
class Sensor:
    topic: str
    msgtype: str
    frame: str
    rate: float
    child: str = ""  # Odometry's child_frame_id
    stamp_offset: float = 0.0  # seconds added to the receive time for the stamp
    size: int = 4  # image side / scan points


@dataclass
class DataRobot:
    tf: Robot
    sensors: list[Sensor] = field(default_factory=list)
    duration: float = DURATION


def sensors() -> list[Sensor]:
    return [
        Sensor("/camera/image_raw", "sensor_msgs/msg/Image", "camera_optical_frame", 10.0),
        Sensor("/camera/camera_info", "sensor_msgs/msg/CameraInfo", "camera_optical_frame", 10.0),
        Sensor("/scan", "sensor_msgs/msg/LaserScan", "laser", 10.0),
        Sensor("/points", "sensor_msgs/msg/PointCloud2", "laser", 5.0),
        Sensor("/imu", "sensor_msgs/msg/Imu", "imu_link", 20.0),
        Sensor("/gps/fix", "sensor_msgs/msg/NavSatFix", "gps", 5.0),
        Sensor("/odom", "nav_msgs/msg/Odometry", "odom", 20.0, child="base_link"),
    ]


def clean_data_robot(duration: float = DURATION) -> DataRobot:
    tf = clean_robot(duration)
    tf.messages.append(Msg(0.5, "/tf_static", [("base_link", "gps", START + 0.5, (0.0, -0.1, 0.5, *IDENTITY))]))
    return DataRobot(tf, sensors(), duration)


def _sensor(robot: DataRobot, topic: str) -> Sensor:
    return next(s for s in robot.sensors if s.topic == topic)


def _set(topic: str, **changes: Any) -> Callable[[DataRobot], None]:
    def inject(robot: DataRobot) -> None:
        i = robot.sensors.index(_sensor(robot, topic))
        robot.sensors[i] = replace(robot.sensors[i], **changes)

    return inject


def inject_static_resent(robot: DataRobot) -> None:
    """robot_state_publisher's fixed joints re-sent on /tf_static at 10 Hz (a ROS 1 habit)."""
    first = robot.tf.messages[0]
    robot.tf.messages += [Msg(0.1 * i, "/tf_static", first.transforms) for i in range(1, int(robot.duration * 10))]


def inject_static_changed(robot: DataRobot) -> None:
    """A node publishes base_link -> gps on /tf_static again with another value at 20 s."""
    robot.tf.messages.append(Msg(20.0, "/tf_static", [("base_link", "gps", START + 20.0, (0.0, -0.1, 0.7, *IDENTITY))]))


def inject_sonar_island(robot: DataRobot) -> None:
    """A sonar whose mount is published, but not attached to the robot."""
    robot.tf.messages.append(Msg(0.5, "/tf_static", [("sonar_mount", "sonar", START + 0.5, (0.1, 0.0, 0.0, *IDENTITY))]))
    robot.sensors.append(Sensor("/sonar", "sensor_msgs/msg/Range", "sonar", 10.0))


def remove_tf(robot: DataRobot) -> None:
    robot.tf.messages = []


DATA_FAULTS: dict[str, Callable[[DataRobot], None]] = {
    "unknown_frame": _set("/scan", frame="base_laser"),
    "empty_frame": _set("/imu", frame=""),
    "slash_frame": _set("/gps/fix", frame="/gps"),
    "non_optical": _set("/camera/image_raw", frame="camera_link"),
    "scan_in_optical": _set("/scan", frame="camera_optical_frame"),
    "odom_no_child": _set("/odom", child=""),
    "odom_reversed": _set("/odom", frame="base_link", child="odom"),
    "odom_other_child": _set("/odom", child="base_footprint"),
    "lagging": _set("/points", stamp_offset=-2.5),
    "future": _set("/imu", stamp_offset=2.0),
    "disconnected": inject_sonar_island,
    "static_resent": inject_static_resent,
    "static_changed": inject_static_changed,
    "no_tf": remove_tf,
}


def data_robot_with(fault: str | None, duration: float = DURATION) -> DataRobot:
    robot = clean_data_robot(duration)
    if fault is not None:
        DATA_FAULTS[fault](robot)
    return robot


# --- messages ----------------------------------------------------------------------------
def _default(typestore: Any, node: tuple[Any, Any]) -> Any:
    import numpy as np

    kind, spec = node
    if kind == 1:  # base
        name = spec[0]
        return "" if name == "string" else False if name == "bool" else 0.0 if name.startswith("float") else 0
    if kind == 2:  # a message
        return _message(typestore, spec, {})
    inner, count = spec
    if inner[0] == 1 and inner[1][0] != "string":
        dtype = {"float32": np.float32, "float64": np.float64, "uint8": np.uint8, "int8": np.int8}.get(inner[1][0], np.int32)
        return np.zeros(count if kind == 3 else 0, dtype=dtype)
    return [_default(typestore, inner) for _ in range(count if kind == 3 else 0)]


def _message(typestore: Any, msgtype: str, values: dict[str, Any]) -> Any:
    _, fields = typestore.fielddefs[msgtype]
    return typestore.types[msgtype](**{name: values[name] if name in values else _default(typestore, node) for name, node in fields})


def sensor_message(typestore: Any, s: Sensor, t: float, seq: int) -> Any:
    import numpy as np

    stamp = START + t + s.stamp_offset
    sec = math.floor(stamp)
    time = typestore.types["builtin_interfaces/msg/Time"](sec=sec, nanosec=round((stamp - sec) * 1e9) % 1_000_000_000)
    hvals: dict[str, Any] = {"stamp": time, "frame_id": s.frame}
    if "seq" in dict(typestore.fielddefs["std_msgs/msg/Header"][1]):
        hvals["seq"] = seq
    values: dict[str, Any] = {"header": _message(typestore, "std_msgs/msg/Header", hvals)}
    if s.msgtype.endswith("/Image"):
        values.update(height=s.size, width=s.size, encoding="mono8", step=s.size, data=np.full(s.size * s.size, 7, dtype=np.uint8))
    elif s.msgtype.endswith("/LaserScan"):
        values.update(ranges=np.ones(s.size, dtype=np.float32), range_max=10.0)
    elif s.msgtype.endswith("/PointCloud2"):
        values.update(height=1, width=s.size, point_step=12, row_step=12 * s.size, data=np.zeros(12 * s.size, dtype=np.uint8))
    elif s.msgtype.endswith("/Odometry"):
        values["child_frame_id"] = s.child
    return _message(typestore, s.msgtype, values)


def sensor_messages(robot: DataRobot) -> list[tuple[float, Sensor, int]]:
    out = []
    for s in robot.sensors:
        n = int((robot.duration - DATA_START) * s.rate)
        out += [(DATA_START + i / s.rate, s, i) for i in range(n)]
    return sorted(out, key=lambda x: (x[0], x[1].topic))


# --- writers -------------------------------------------------------------------------------
def write_data_bag(robot: DataRobot, directory: Path, kind: str) -> Path:
    """``kind``: "mcap" or "db3" (rosbag2 directories) or "bag" (ROS 1)."""
    if kind == "bag":
        return _write_ros1(robot, directory / "data.bag")
    return _write_ros2(robot, directory / f"data_{kind}", "mcap" if kind == "mcap" else "sqlite3")


def _write_ros2(robot: DataRobot, path: Path, storage: str) -> Path:
    from rosbags.rosbag2 import Writer
    from rosbags.rosbag2.enums import StoragePlugin
    from rosbags.typesys import Stores, get_typestore

    typestore = get_typestore(Stores.ROS2_HUMBLE)
    writer = Writer(path, version=9, storage_plugin=StoragePlugin.MCAP if storage == "mcap" else StoragePlugin.SQLITE3)
    with writer:
        _write_records(writer, typestore, robot, encode_cdr, typestore.serialize_cdr)
    return path


def _write_ros1(robot: DataRobot, path: Path) -> Path:
    from rosbags.rosbag1 import Writer

    typestore = ros1_typestore()
    writer = Writer(path)
    with writer:
        _write_records(writer, typestore, robot, encode_ros1, typestore.serialize_ros1)
    return path


def _write_records(writer: Any, typestore: Any, robot: DataRobot, encode_tf: Callable[..., Any], serialize: Callable[..., Any]) -> None:
    """TF and sensor messages into an open writer, in time order (TF first at equal times)."""
    tf = robot.tf.sorted()
    conns = {t: writer.add_connection(t, "tf2_msgs/msg/TFMessage", typestore=typestore) for t in sorted({m.topic for m in tf})}
    for s in robot.sensors:
        conns[s.topic] = writer.add_connection(s.topic, s.msgtype, typestore=typestore)
    records = [(m.t, 0, m.topic, encode_tf(m.transforms)) for m in tf]
    records += [(t, 1, s.topic, serialize(sensor_message(typestore, s, t, i), s.msgtype)) for t, s, i in sensor_messages(robot)]
    for t, _, topic, raw in sorted(records, key=lambda r: (r[0], r[1])):
        writer.write(conns[topic], round((START + t) * 1e9), bytes(raw))
