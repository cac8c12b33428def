"""The index-based MCAP reader reads what rosbags reads from an intact bag, and skips only the damaged messages."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import robot_with, write_bag, write_rosbag2, write_split_rosbag2

from physframe_ros.bag import open_bag
from physframe_ros.bag.mcap_index import IndexUnusable, McapIndex, read_indexed


def tf_only(messages):
    return [(topic, stamp * 1e-9, bytes(data)) for topic, _type, stamp, data in messages if topic.startswith("/tf")]


def through_rosbags(path: Path):
    with open_bag(path) as bag:
        return [(topic, t, bytes(data)) for topic, t, _s, data, _f in bag.messages()]


@pytest.mark.parametrize("compression", [None, "storage"])
def test_intact_bag_reads_the_same_messages_in_the_same_order(tmp_path: Path, compression: str | None) -> None:
    bag = write_rosbag2(robot_with("cycle"), tmp_path / "b", compression=compression)
    ours = tf_only(read_indexed(sorted(bag.glob("*.mcap"))))
    assert len(ours) == 2412 and ours == through_rosbags(bag)


def test_split_bag_is_merged_in_time_order(tmp_path: Path) -> None:
    bag = write_split_rosbag2(robot_with(None), tmp_path / "split", storage="mcap")
    ours = tf_only(read_indexed(sorted(bag.glob("*.mcap"))))
    assert [s for _, s, _ in ours] == sorted(s for _, s, _ in ours)
    assert ours == through_rosbags(bag)


def test_damaged_messages_are_skipped_one_by_one(tmp_path: Path) -> None:
    bag = write_bag(robot_with(None), tmp_path, "mcap")
    f = next(bag.glob("*.mcap"))
    intact = tf_only(read_indexed([f]))
    raw = bytearray(f.read_bytes())
    raw[40_000:40_100] = bytes(100)  # one or two message records
    f.write_bytes(bytes(raw))
    ours = tf_only(read_indexed([f]))
    assert len(intact) - 2 <= len(ours) < len(intact)
    assert sum(m not in intact for m in ours) <= 1  # a record whose header survived but whose data was zeroed


def test_a_file_without_its_summary_is_not_read_this_way(tmp_path: Path) -> None:
    bag = write_bag(robot_with(None), tmp_path, "mcap")
    f = next(bag.glob("*.mcap"))
    f.write_bytes(f.read_bytes()[:-100])
    with pytest.raises(IndexUnusable):
        McapIndex(f)
