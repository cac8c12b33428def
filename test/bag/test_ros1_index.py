"""The index-based ROS 1 reader reads what rosbags reads from an intact bag, and skips only the damaged messages."""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import robot_with, write_rosbag1

from physframe_ros.bag import BagError, open_bag
from physframe_ros.bag.ros1_index import Ros1Index, Ros1IndexUnusable, read_ros1_indexed


def ours(path: Path, unnamed: Counter[int] | None = None) -> list[tuple[str, float, bytes]]:
    return [(topic, stamp * 1e-9, bytes(data)) for topic, _type, stamp, data in read_ros1_indexed(path, Counter() if unnamed is None else unnamed)]


@pytest.mark.parametrize("compression", [None, "lz4", "bz2"])
def test_intact_bag_reads_the_same_messages_in_the_same_order(tmp_path: Path, compression: str | None) -> None:
    bag = write_rosbag1(robot_with("cycle"), tmp_path / "r.bag", compression=compression)
    with open_bag(bag) as b:
        theirs = [(topic, t, bytes(data)) for topic, t, _s, data, _f in b.messages()]
    assert len(theirs) == 2412 and ours(bag) == theirs


def test_damaged_messages_are_skipped_one_by_one(tmp_path: Path) -> None:
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    intact = ours(bag)
    raw = bytearray(bag.read_bytes())
    raw[40_000:40_100] = bytes(100)
    bag.write_bytes(bytes(raw))
    damaged = ours(bag)
    assert len(intact) - 2 <= len(damaged) < len(intact)


def test_a_bag_cut_short_has_no_usable_index(tmp_path: Path) -> None:
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    bag.write_bytes(bag.read_bytes()[: bag.stat().st_size // 2])
    with pytest.raises(Ros1IndexUnusable):
        Ros1Index(bag)


def test_messages_whose_connection_record_is_lost_are_counted(tmp_path: Path) -> None:
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    raw = bytearray(bag.read_bytes())
    index_pos = raw.rindex(b"topic=/tf_static")  # the /tf_static connection record of the index at the end
    conn_field = raw.rindex(b"conn=", 0, index_pos)
    raw[conn_field + 5 : conn_field + 9] = (77).to_bytes(4, "little")  # it now describes a connection no message uses
    bag.write_bytes(bytes(raw))
    unnamed: Counter[int] = Counter()
    read = ours(bag, unnamed)
    assert unnamed == Counter({1: 2}) and len(read) == 2400


@pytest.mark.parametrize(("field", "damaged"), [(b"topic=/tf_static", b"topic=/tf_statik"), (b"type=tf2_msgs/TFMessage", b"type=tf2_msgs/TFMessagf")])
@pytest.mark.parametrize("compression", [None, "lz4", "bz2"])
def test_a_connection_record_damaged_in_the_index_is_reported_from_its_copy_in_the_chunk(
    tmp_path: Path, compression: str | None, field: bytes, damaged: bytes
) -> None:
    """A bit flip in the index's copy of a connection record (topic or type) hides its messages from the
    reader; the writer's copy at the start of the chunk still names them, so they are reported lost."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag", compression=compression)
    whole = len(ours(bag))
    raw = bytearray(bag.read_bytes())
    at = raw.rindex(field)  # the index's copy at the end (the chunk's copy is compressed, or earlier in the file)
    if field.startswith(b"topic="):  # the record's header names the topic readers use; its data repeats it
        at = raw.rindex(field, 0, at)
    raw[at : at + len(field)] = damaged
    bag.write_bytes(bytes(raw))
    with open_bag(bag) as b:
        read = Counter(topic for topic, *_ in b.messages())
        assert sum(read.values()) < whole
        lost = {x.topic.split(" ")[0]: x.lost for x in b.info.losses}
        assert sum(read.values()) + sum(lost.values()) == whole and set(lost) <= {"/tf", "/tf_static"}
        assert all("its copy in the chunk names" in x.topic for x in b.info.losses)


def test_an_intact_bag_has_no_hidden_connection(tmp_path: Path) -> None:
    bag = write_rosbag1(robot_with("cycle"), tmp_path / "r.bag", compression="lz4")
    tf = ("/tf", "/tf_static")
    assert Ros1Index(bag).hidden(lambda topic, msgtype: topic in tf and msgtype == "tf2_msgs/TFMessage", lambda topic, msgtype: topic in tf) == {}


def test_the_chunk_copy_is_found_past_a_damaged_record_length(tmp_path: Path) -> None:
    """Two damages: the index's /tf_static record, and the length of the first record of the chunk, so the
    chunk cannot be walked from its start; the /tf_static copy is found by its op field all the same."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    whole = len(ours(bag))
    raw = bytearray(bag.read_bytes())
    at = raw.rindex(b"topic=/tf_static", 0, raw.rindex(b"topic=/tf_static"))  # the index record's header
    raw[at : at + 16] = b"topic=/tf_statik"
    first = raw.index(b"\x04\x00\x00\x00op=\x07")  # the chunk's first connection record (the /tf one)
    raw[first - 4 : first] = (0xF0F0F0F0).to_bytes(4, "little")
    bag.write_bytes(bytes(raw))
    tf_type = "tf2_msgs/TFMessage"
    assert Ros1Index(bag).hidden(lambda topic, msgtype: topic == "/tf_static", lambda topic, msgtype: msgtype == tf_type)[1] == ("/tf_static", tf_type, True)
    with open_bag(bag) as b:
        read = sum(1 for _ in b.messages())
        assert read + sum(x.lost for x in b.info.losses) >= whole
        assert any(x.topic.startswith("/tf_static (connection 1") for x in b.info.losses)


def test_a_tf_connection_the_front_reader_met_damaged_is_counted_from_the_index(tmp_path: Path) -> None:
    """The bag header damaged (rosbags cannot use the index: the bag is read from the front) and the chunk's
    copy of the /tf record with a damaged type: the reader skips /tf, and the intact index still lists it."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    whole = len(ours(bag))
    raw = bytearray(bag.read_bytes())
    at = raw.index(b"type=tf2_msgs/TFMessage")  # the chunk's copy comes first in the file
    raw[at : at + 23] = b"type=tf2_msGs/TFMessage"
    count = raw.index(b"conn_count=")
    raw[count + 11 : count + 15] = (7).to_bytes(4, "little")
    bag.write_bytes(bytes(raw))
    with open_bag(bag) as b:
        read = Counter(topic for topic, *_ in b.messages())
        lost = {x.topic: x.lost for x in b.info.losses}
        assert b.info.recovered and read["/tf"] == 0 and lost["/tf"] == whole - read["/tf_static"]


def test_a_damaged_index_record_whose_chunk_is_unreadable_too_counts_its_messages_lost(tmp_path: Path) -> None:
    """lz4: the index's /tf_static record gets a damaged topic and the compressed chunk does not decompress:
    no copy names the connection, but its type is TF and its chunk is lost, so its messages are reported lost."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag", compression="lz4")
    whole = len(ours(bag))
    raw = bytearray(bag.read_bytes())
    at = raw.rindex(b"topic=/tf_static", 0, raw.rindex(b"topic=/tf_static"))
    raw[at : at + 16] = b"topic=/tf_qtatic"
    chunk = raw.index(b"compression=lz4")
    raw[chunk + 200 : chunk + 264] = bytes(64)
    bag.write_bytes(bytes(raw))
    with open_bag(bag) as b, pytest.raises(BagError, match="LZ4F_decompress"):
        for _ in b.messages():
            pytest.fail("the only chunk does not decompress")
    lost = {x.topic: x.lost for x in b.info.losses}
    assert sum(lost.values()) == whole
    assert lost["(connection 1: /tf_qtatic, tf2_msgs/TFMessage in the index, maybe TF, damaged; its chunk holds no intact copy)"] == 2


@pytest.mark.parametrize("damage", ["index_pos field", "index_pos value", "header record length"])
def test_the_index_is_found_after_the_chunks_when_the_bag_header_is_damaged(tmp_path: Path, damage: str) -> None:
    """The bag header record says where the index starts; with it damaged, the index is the first connection or
    chunk info record after the chunks and their index data (the header record is padded to 4096 bytes)."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    intact = Ros1Index(bag)
    raw = bytearray(bag.read_bytes())
    if damage == "index_pos field":
        at = raw.index(b"index_pos=")
        raw[at : at + 5] = b"indez"
    elif damage == "index_pos value":
        at = raw.index(b"index_pos=") + len(b"index_pos=")
        raw[at + 7] ^= 0x80  # past the end of any file
    else:
        raw[13:17] = (0xFFFFFF).to_bytes(4, "little")
    bag.write_bytes(bytes(raw))
    found = Ros1Index(bag)
    assert (found.connections, found.chunks, found.counts) == (intact.connections, intact.chunks, intact.counts)


def test_a_damaged_index_record_whose_chunk_copy_is_damaged_too_counts_its_messages_lost(tmp_path: Path) -> None:
    """The index's /tf record with a damaged topic, and the chunk's copy of it unreadable: the record's type is
    still TF and no intact copy names it otherwise, so its messages (read under a topic that is not TF) are lost."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    whole = len(ours(bag))
    raw = bytearray(bag.read_bytes())
    tf = [m.start() for m in re.finditer(rb"topic=/tf(?!_static)", raw)]  # chunk copy: header, data; index: header, data
    raw[tf[-2] + 6 : tf[-2] + 7] = b"o"  # '/tf' -> 'otf' in the index's record header
    first = raw.index(b"\x04\x00\x00\x00op=\x07")  # the chunk's first connection record: the /tf one
    raw[first + 4 : first + 8] = b"oq=\x07"  # its op field: no longer a connection record
    bag.write_bytes(bytes(raw))
    with open_bag(bag) as b:
        read = Counter(topic for topic, *_ in b.messages())
        lost = {x.topic: x.lost for x in b.info.losses}
    assert read["/tf"] == 0 and sum(read.values()) + sum(lost.values()) >= whole
    assert lost["(connection 0: otf, tf2_msgs/TFMessage in the index, maybe TF, damaged; its chunk holds no intact copy)"] == whole - read["/tf_static"]


def test_a_damaged_chunk_info_leaves_the_chunks_found_by_walking_them(tmp_path: Path) -> None:
    """A chunk info record of the index with a damaged field name: its chunk is found where the records after
    the bag header hold it, with its connections from the index data records that follow it."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    intact, whole = Ros1Index(bag), len(ours(bag))
    raw = bytearray(bag.read_bytes())
    at = raw.rindex(b"chunk_pos=")
    raw[at : at + 9] = b"chunk_poz"
    bag.write_bytes(bytes(raw))
    index = Ros1Index(bag)
    assert index.damaged_infos and [p for _, p in index.chunks] == [p for _, p in intact.chunks]
    assert index.first_chunk == intact.first_chunk and len(ours(bag)) == whole


def test_an_index_data_record_with_a_damaged_field_length_still_counts(tmp_path: Path) -> None:
    """The 'ver' field's length damaged so that it swallows conn and count: they are found by their names,
    and the 12 bytes per message of its data count the messages whatever the count field says."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    intact = Ros1Index(bag).indexed_counts()
    raw = bytearray(bag.read_bytes())
    ver = raw.index(b"ver=", raw.index(b"\x04\x00\x00\x00op=\x04")) - 4  # the first index data record's 'ver' field
    raw[ver : ver + 4] = (int.from_bytes(raw[ver : ver + 4], "little") + 9 + 4).to_bytes(4, "little")
    bag.write_bytes(bytes(raw))
    assert Ros1Index(bag).indexed_counts() == intact


def test_both_copies_of_a_record_damaged_differently_count_its_messages_lost(tmp_path: Path) -> None:
    """The /tf record's type damaged in the index and, differently, in the chunk: neither copy is TF, but they
    disagree (an intact bag's copies are the same) and the topic is TF, so the messages are counted lost."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag")
    whole = len(ours(bag))
    raw = bytearray(bag.read_bytes())
    types = [m.start() for m in re.finditer(rb"type=tf2_msgs/TFMessage", raw)]  # chunk: /tf, /tf_static; index: the same
    raw[types[0] : types[0] + 23] = b"type=tf2_msgs/TFMEssage"
    raw[types[2] : types[2] + 23] = b"type=tf2_msgs/TFMesqage"
    bag.write_bytes(bytes(raw))
    with open_bag(bag) as b:
        read = Counter(topic for topic, *_ in b.messages())
        lost = {x.topic: x.lost for x in b.info.losses}
    assert read["/tf"] == 0 and sum(read.values()) + sum(lost.values()) >= whole


def test_an_index_whose_first_record_lost_its_op_field_is_still_the_index(tmp_path: Path) -> None:
    """The first connection record of the index with its op field's name damaged ('ot='): the bag header's
    index_pos still points there, and the messages that record named are read from the front or reported lost."""
    bag = write_rosbag1(robot_with(None), tmp_path / "r.bag", compression="lz4")
    whole = len(ours(bag))
    raw = bytearray(bag.read_bytes())
    at = raw.rindex(b"op=\x07", 0, raw.rindex(b"op=\x07"))  # the index's two connection records end the file: /tf's
    raw[at : at + 3] = b"ot="
    bag.write_bytes(bytes(raw))
    index = Ros1Index(bag)  # usable: only the /tf connection record is lost with its op field
    assert set(index.connections) == {1} and sum(index.counts.values()) == whole
    with open_bag(bag) as b:
        read = 0
        with contextlib.suppress(BagError):  # exit 2 is never silent
            read = sum(1 for _ in b.messages())
        lost = sum(x.lost for x in b.info.losses)
    assert read + lost >= whole

