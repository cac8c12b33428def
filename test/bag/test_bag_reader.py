"""The bag adapter on real bags written with rosbags: every storage kind, topic selection, bad input."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import (
    START,
    Msg,
    clean_robot,
    write_rosbag1,
    write_rosbag2,
    write_split_rosbag2,
)

from physframe_ros.bag import CDR, ROS1, BagError, NoTfTopics, TopicSelection, open_bag
from physframe_ros.core import decode_cdr, decode_ros1


def _read_all(path: Path, selection: TopicSelection | None = None) -> list[tuple[str, float, bool, bytes, str]]:
    with open_bag(path, selection) as bag:
        return list(bag.messages())



@pytest.fixture(scope="module")
def robot() -> list[Msg]:
    return clean_robot(duration=5.0).sorted()


@pytest.mark.parametrize(
    "kind",
    ["mcap", "sqlite3", "mcap-message-zstd", "sqlite3-file-zstd", "mcap-storage-zstd", "split-sqlite3", "split-mcap"],
)
def test_rosbag2_kinds_yield_every_tf_message_in_time_order(tmp_path: Path, robot: list[Msg], kind: str) -> None:
    storage, _, rest = kind.partition("-")
    if storage == "split":
        from bag.tfbags import Robot

        path = write_split_rosbag2(Robot(list(robot), 5.0), tmp_path / "bag", storage=rest, at=2.5)
    else:
        compression = rest.split("-")[0] if rest else None
        path = write_rosbag2(robot, tmp_path / "bag", storage=storage, compression=compression)
    msgs = _read_all(path)
    assert len(msgs) == len(robot)  # /chatter passed by
    times = [t for _, t, _, _, _ in msgs]
    assert times == sorted(times)
    assert times[0] == pytest.approx(START)
    topic, _, static, data, fmt = msgs[0]
    assert (topic, static, fmt) == ("/tf_static", True, CDR)
    assert {c for _, c, _, _ in decode_cdr(data)} == {"laser", "imu_link", "camera_link"}
    assert all(not s for tp, _, s, _, _ in msgs if tp == "/tf")


def test_single_mcap_and_db3_files_open_without_their_directory(tmp_path: Path, robot: list[Msg]) -> None:
    for storage, suffix in (("mcap", ".mcap"), ("sqlite3", ".db3")):
        directory = write_rosbag2(robot, tmp_path / storage, storage=storage)
        single = next(directory.glob(f"*{suffix}"))
        assert len(_read_all(single)) == len(robot)


@pytest.mark.parametrize("msgtype", ["tf2_msgs/msg/TFMessage", "tf/msg/tfMessage"])
@pytest.mark.parametrize("compression", [None, "bz2", "lz4"])
def test_ros1_bags_of_tf2_and_old_tf_messages(tmp_path: Path, robot: list[Msg], msgtype: str, compression: str | None) -> None:
    path = write_rosbag1(robot, tmp_path / "run.bag", msgtype=msgtype, compression=compression)
    with open_bag(path) as bag:
        msgs = list(bag.messages())
        assert bag.info.storage == "rosbag1"
        assert bag.info.start == pytest.approx(START)
    assert len(msgs) == len(robot)
    topic, _t, static, data, fmt = msgs[0]
    assert fmt == ROS1 and static and topic == "/tf_static"
    assert decode_ros1(data)[0][:2] == ("base_link", "laser")


def test_window_and_static_only(tmp_path: Path, robot: list[Msg]) -> None:
    path = write_rosbag2(robot, tmp_path / "bag")
    with open_bag(path) as bag:
        window = list(bag.messages(START + 1.0, START + 2.0))
        statics = list(bag.messages(None, START + 1.0, static_only=True))
    assert window and all(START + 1.0 <= t < START + 2.0 for _, t, _, _, _ in window)
    assert [topic for topic, *_ in statics] == ["/tf_static", "/tf_static"]


def test_namespaced_tf_topics_are_found_and_can_be_chosen(tmp_path: Path) -> None:
    msgs = [
        Msg(0.0, "/robot1/tf_static", [("robot1/base_link", "robot1/laser", START, (0.1, 0, 0, 0, 0, 0, 1))]),
        Msg(0.1, "/robot1/tf", [("robot1/odom", "robot1/base_link", START + 0.1, (0, 0, 0, 0, 0, 0, 1))]),
        Msg(0.2, "/robot2/tf", [("robot2/odom", "robot2/base_link", START + 0.2, (0, 0, 0, 0, 0, 0, 1))]),
        Msg(0.3, "/tf_debug", [("a", "b", START + 0.3, (0, 0, 0, 0, 0, 0, 1))]),
    ]
    path = write_rosbag2(msgs, tmp_path / "ns")
    everything = _read_all(path)
    assert [(tp, s) for tp, _, s, _, _ in everything] == [("/robot1/tf_static", True), ("/robot1/tf", False), ("/robot2/tf", False)]
    robot1 = _read_all(path, TopicSelection(("/robot1/*",)))
    assert {tp for tp, *_ in robot1} == {"/robot1/tf_static", "/robot1/tf"}


def test_bag_without_tf_lists_its_topics(tmp_path: Path) -> None:
    path = write_rosbag2([], tmp_path / "empty")  # only /chatter
    with pytest.raises(NoTfTopics) as err:
        open_bag(path)
    text = str(err.value)
    assert str(path) in text and "/chatter [std_msgs/msg/String]" in text and "\n" not in text


def test_tf_topic_with_another_type_is_skipped(tmp_path: Path, robot: list[Msg]) -> None:
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import Stores, get_typestore

    from physframe_ros.core import encode_cdr

    typestore = get_typestore(Stores.ROS2_HUMBLE)
    path = tmp_path / "mixed"
    with Writer(path, version=9) as writer:
        tf = writer.add_connection("/tf", "tf2_msgs/msg/TFMessage", typestore=typestore)
        odd = writer.add_connection("/robot3/tf", "std_msgs/msg/String", typestore=typestore)
        writer.write(odd, int(START * 1e9), b"\x00\x01\x00\x00\x03\x00\x00\x00hi\x00")
        writer.write(tf, int(START * 1e9) + 1, encode_cdr([("odom", "base_link", START, (0, 0, 0, 0, 0, 0, 1))]))
    assert [tp for tp, *_ in _read_all(path)] == ["/tf"]


def test_missing_and_unknown_paths_give_one_line_errors(tmp_path: Path) -> None:
    with pytest.raises(BagError, match="no such file"):
        open_bag(tmp_path / "nope.mcap")
    junk = tmp_path / "notes.txt"
    junk.write_text("hello")
    with pytest.raises(BagError, match="not a bag"):
        open_bag(junk)
    fake = tmp_path / "fake.mcap"
    fake.write_bytes(b"this is no mcap file at all")
    with pytest.raises(BagError) as err:
        list(open_bag(fake).messages())
    assert str(fake) in str(err.value) and "byte 0" in str(err.value)


@pytest.mark.parametrize("kind", ["mcap", "mcap-dir", "bag"])
def test_truncated_bag_yields_what_precedes_the_cut_then_names_the_byte(tmp_path: Path, robot: list[Msg], kind: str) -> None:
    if kind.startswith("mcap"):
        whole = next(write_rosbag2(robot, tmp_path / "whole").glob("*.mcap"))
    else:
        whole = write_rosbag1(robot, tmp_path / "whole.bag")
    data = whole.read_bytes()
    cut = whole if kind == "mcap-dir" else tmp_path / f"cut.{kind}"  # in its directory, beside metadata.yaml
    cut.write_bytes(data[: len(data) // 2])
    opened = whole.parent if kind == "mcap-dir" else cut
    got = []
    with pytest.raises(BagError) as err:
        with open_bag(opened) as bag:
            assert bag.info.recovered and "index" in bag.info.recovered
            for m in bag.messages():
                got.append(m)
    assert len(robot) * 0.3 < len(got) < len(robot)  # about half, in order, none invented
    assert [t for _, t, _, _, _ in got] == sorted(t for _, t, _, _, _ in got)
    text = str(err.value)
    assert text.startswith(f"{cut}: truncated or damaged") and "record at byte" in text and f"after {len(got)} TF messages" in text
