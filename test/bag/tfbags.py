"""Real bags for the tests: one clean REP-105 robot, fault injectors, and writers for .db3, .mcap and ROS 1 .bag.

The robot is scripted as a list of TF messages (bag time relative to ``START``);
each fault injector edits that list, so every faulty bag is the clean robot plus
exactly one fault. Writers put the bytes of the core's encoders straight into the
``rosbags`` writers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from physframe_ros.core import encode_cdr, encode_ros1
from physframe_ros.core.tfmessage import Transform

START = 1_700_000_000.0  # bag time of the first message (s)
DURATION = 40.0
OPTICAL = (-0.5, 0.5, -0.5, 0.5)  # FLU camera body -> RDF optical frame (REP-103)
IDENTITY = (0.0, 0.0, 0.0, 1.0)
TFMESSAGE_MSG = "geometry_msgs/TransformStamped[] transforms\n"


@dataclass(order=True)
class Msg:
    t: float  # seconds after START: receive (bag) time
    topic: str = field(compare=False)
    transforms: list[Transform] = field(compare=False)


@dataclass
class Robot:
    messages: list[Msg]
    duration: float = DURATION

    def sorted(self) -> list[Msg]:
        return sorted(self.messages)


def _yaw(theta: float) -> tuple[float, float, float, float]:
    return (0.0, 0.0, math.sin(theta / 2), math.cos(theta / 2))


def _periodic(parent: str, child: str, rate: float, t0: float, t1: float, values: Callable[[float], tuple[float, ...]], topic: str = "/tf",
              stamp_offset: float = 0.0) -> list[Msg]:
    out = []
    n = round((t1 - t0) * rate)
    for i in range(n):
        t = t0 + i / rate
        out.append(Msg(t, topic, [(parent, child, START + t + stamp_offset, values(t))]))
    return out


def clean_robot(duration: float = DURATION) -> Robot:
    """map -> odom -> base_link (dynamic) with a laser, an IMU and a camera with its optical frame (static).

    The static transforms come from two publishers, as on a real robot: robot_state_publisher
    (the URDF's fixed joints) and the camera driver (its optical frame), at different times.
    """
    msgs: list[Msg] = [
        Msg(0.0, "/tf_static", [
            ("base_link", "laser", START, (0.20, 0.0, 0.30, *IDENTITY)),
            ("base_link", "imu_link", START, (0.0, 0.05, 0.10, *IDENTITY)),
            ("base_link", "camera_link", START, (0.25, 0.0, 0.20, *IDENTITY)),
        ]),
        Msg(0.3, "/tf_static", [("camera_link", "camera_optical_frame", START + 0.3, (0.0, 0.01, 0.0, *OPTICAL))]),
    ]
    msgs += _periodic("odom", "base_link", 50.0, 0.01, duration, lambda t: (0.1 * t, 0.0, 0.0, *_yaw(0.01 * t)))
    msgs += _periodic("map", "odom", 10.0, 0.05, duration, lambda t: (1.0, 2.0, 0.0, *_yaw(0.1)))
    return Robot(msgs, duration)


# --- fault injectors: each edits the clean robot in place ----------------------------------------------
def inject_cycle(robot: Robot, at: float = 12.0, length: float = 0.5) -> None:
    """A localization node that also publishes odom -> map for ``length`` seconds: map <-> odom loop."""
    robot.messages += _periodic("odom", "map", 20.0, at, at + length, lambda t: (-1.0, -2.0, 0.0, *_yaw(-0.1)))


def inject_reparent(robot: Robot, at: float = 15.0, length: float = 0.2) -> None:
    """A second publisher gives base_link the parent map for ``length`` seconds while odom -> base_link goes on."""
    robot.messages += _periodic("map", "base_link", 50.0, at, at + length, lambda t: (1.0, 2.0, 0.0, *IDENTITY))


def inject_wrong_optical(robot: Robot) -> None:
    """The camera driver publishes its optical frame with no rotation (FLU instead of RDF)."""
    for m in robot.messages:
        if m.topic == "/tf_static":
            m.transforms = [(p, c, s, (*v[:3], *IDENTITY)) if c == "camera_optical_frame" else (p, c, s, v) for p, c, s, v in m.transforms]


def inject_stop(robot: Robot, at: float = 30.0) -> None:
    """Odometry dies: odom -> base_link is not published after ``at``."""
    robot.messages = [m for m in robot.messages if not (m.t >= at and any(c == "base_link" and p == "odom" for p, c, _, _ in m.transforms))]


def inject_future(robot: Robot, at: float = 20.0, length: float = 2.0, ahead: float = 5.0) -> None:
    """map -> odom stamped ``ahead`` seconds in the future for ``length`` seconds (a node with a wrong clock)."""
    for m in robot.messages:
        if at <= m.t < at + length:
            m.transforms = [(p, c, s + ahead, v) if c == "odom" else (p, c, s, v) for p, c, s, v in m.transforms]


def inject_nan(robot: Robot, at: float = 25.0) -> None:
    """One odom -> base_link message with NaN in its translation."""
    for m in robot.messages:
        if m.t >= at and any(c == "base_link" for _, c, _, _ in m.transforms):
            m.transforms = [(p, c, s, (math.nan, *v[1:])) if c == "base_link" else (p, c, s, v) for p, c, s, v in m.transforms]
            return


# --- writers ---------------------------------------------------------------------------
def write_rosbag2(robot: Robot | list[Msg], path: Path, storage: str = "mcap", compression: str | None = None, extra_topics: bool = True) -> Path:
    """A rosbag2 directory (metadata.yaml + one .mcap or .db3 file); ``storage`` is "mcap" or "sqlite3";
    ``compression`` (zstd) per "message", whole "file", or MCAP chunks ("storage")."""
    from rosbags.rosbag2 import Writer
    from rosbags.rosbag2.enums import CompressionFormat, CompressionMode, StoragePlugin
    from rosbags.typesys import Stores, get_typestore

    typestore = get_typestore(Stores.ROS2_HUMBLE)
    messages = robot.sorted() if isinstance(robot, Robot) else sorted(robot)
    plugin = StoragePlugin.MCAP if storage == "mcap" else StoragePlugin.SQLITE3
    writer = Writer(path, version=9, storage_plugin=plugin)
    if compression:
        writer.set_compression(CompressionMode[compression.upper()], CompressionFormat.ZSTD)
    with writer:
        conns = {}
        for topic in sorted({m.topic for m in messages}):
            conns[topic] = writer.add_connection(topic, "tf2_msgs/msg/TFMessage", typestore=typestore)
        if extra_topics:  # a bag always holds more than TF; the reader must pass it by
            chatter = writer.add_connection("/chatter", "std_msgs/msg/String", typestore=typestore)
            writer.write(chatter, int(START * 1e9) + 1, b"\x00\x01\x00\x00\x03\x00\x00\x00hi\x00")
        for m in messages:
            writer.write(conns[m.topic], round((START + m.t) * 1e9), encode_cdr(m.transforms))
    return path


def ros1_typestore(msgtype: str = "tf2_msgs/msg/TFMessage"):  # type: ignore[no-untyped-def]
    """Noetic's store plus the TF message (rosbags' ROS 1 store lacks it), under ``msgtype``."""
    from rosbags.typesys import Stores, get_types_from_msg, get_typestore

    typestore = get_typestore(Stores.ROS1_NOETIC)
    typestore.register(get_types_from_msg(TFMESSAGE_MSG, msgtype))
    return typestore


def write_rosbag1(robot: Robot | list[Msg], path: Path, msgtype: str = "tf2_msgs/msg/TFMessage", compression: str | None = None) -> Path:
    """A ROS 1 .bag; ``msgtype`` "tf/msg/tfMessage" makes an old tf-era bag."""
    from rosbags.rosbag1 import Writer

    typestore = ros1_typestore(msgtype)
    messages = robot.sorted() if isinstance(robot, Robot) else sorted(robot)
    writer = Writer(path)
    if compression:
        writer.set_compression(Writer.CompressionFormat[compression.upper()])
    with writer:
        conns = {topic: writer.add_connection(topic, msgtype, typestore=typestore) for topic in sorted({m.topic for m in messages})}
        for m in messages:
            writer.write(conns[m.topic], round((START + m.t) * 1e9), encode_ros1(m.transforms))
    return path


def write_bag(robot: Robot | list[Msg], directory: Path, kind: str) -> Path:
    """``kind``: "mcap" or "db3" (rosbag2 directories) or "bag" (ROS 1)."""
    if kind == "bag":
        return write_rosbag1(robot, directory / "robot.bag")
    return write_rosbag2(robot, directory / f"robot_{kind}", storage="mcap" if kind == "mcap" else "sqlite3")


FAULTS: dict[str, Callable[[Robot], None]] = {
    "cycle": inject_cycle,
    "reparent": inject_reparent,
    "wrong_optical": inject_wrong_optical,
    "stop": inject_stop,
    "future": inject_future,
    "nan": inject_nan,
}


def robot_with(fault: str | None) -> Robot:
    robot = clean_robot()
    if fault is not None:
        FAULTS[fault](robot)
    return robot


def write_split_rosbag2(robot: Robot, path: Path, storage: str = "sqlite3", at: float = DURATION / 2) -> Path:
    """A rosbag2 split in two storage files at bag time ``at``, as ``ros2 bag record --max-bag-duration`` leaves it."""
    import yaml

    messages = robot.sorted()
    first = write_rosbag2([m for m in messages if m.t < at], path.with_name(path.name + "_a"), storage, extra_topics=False)
    second = write_rosbag2([m for m in messages if m.t >= at], path.with_name(path.name + "_b"), storage, extra_topics=False)
    path.mkdir()
    meta_a = yaml.safe_load((first / "metadata.yaml").read_text())["rosbag2_bagfile_information"]
    meta_b = yaml.safe_load((second / "metadata.yaml").read_text())["rosbag2_bagfile_information"]
    suffix = ".mcap" if storage == "mcap" else ".db3"
    names = [f"{path.name}_0{suffix}", f"{path.name}_1{suffix}"]
    for src, name in zip((first, second), names):
        next(src.glob(f"*{suffix}")).rename(path / name)
    counts_b = {t["topic_metadata"]["name"]: t["message_count"] for t in meta_b["topics_with_message_count"]}
    for t in meta_a["topics_with_message_count"]:
        t["message_count"] += counts_b.pop(t["topic_metadata"]["name"], 0)
    meta_a["topics_with_message_count"] += [t for t in meta_b["topics_with_message_count"] if t["topic_metadata"]["name"] in counts_b]
    meta_a["relative_file_paths"] = names
    meta_a["message_count"] += meta_b["message_count"]
    end = meta_b["starting_time"]["nanoseconds_since_epoch"] + meta_b["duration"]["nanoseconds"]
    meta_a["duration"]["nanoseconds"] = end - meta_a["starting_time"]["nanoseconds_since_epoch"]
    meta_a["files"] = [dict(f, path=name) for f, name in zip(meta_a.get("files", []) + meta_b.get("files", []), names)]
    (path / "metadata.yaml").write_text(yaml.safe_dump({"rosbag2_bagfile_information": meta_a}))
    for d in (first, second):
        for f in d.iterdir():
            f.unlink()
        d.rmdir()
    return path
