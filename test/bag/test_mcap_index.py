"""The index-based MCAP reader reads what rosbags reads from an intact bag, and skips only the damaged messages."""

from __future__ import annotations

import struct
from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.fuzzbags import robot_messages
from bag.tfbags import robot_with, write_bag, write_rosbag2, write_split_rosbag2

from physframe_ros.bag import BagError, open_bag
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


def _summary_records(raw: bytes) -> list[tuple[int, int, int]]:
    """(offset, opcode, length) of each record of an MCAP file's summary section."""
    start = struct.unpack_from("<Q", raw, len(raw) - 8 - 29 + 9)[0]  # the footer's summary_start
    out, pos = [], start
    while raw[pos] != 0x02:  # up to the footer
        length = struct.unpack_from("<Q", raw, pos + 1)[0]
        out.append((pos, raw[pos], length))
        pos += 9 + length
    return out


def _read_and_lost(path: Path) -> tuple[int, dict[str, int]]:
    try:
        with open_bag(path) as bag:
            try:
                read = sum(1 for _ in bag.messages())
            except BagError:
                read = -1  # the reader gave up (exit 2): nothing is lost silently then
            return read, {x.topic: x.lost for x in bag.info.losses}
    except BagError:  # given up at opening, e.g. /tf's schema record lost: "no TF topics", listing /tf [__schemaless__]
        return -1, {}


@pytest.mark.parametrize(
    ("opcode", "records", "head", "compression"),
    [(0x04, 3, 12, None), (0x03, 2, 6, "storage")],  # Channel: id, schema id, topic; Schema: id, name
    ids=["channel", "schema-zstd"],
)
def test_every_bit_of_a_summary_channel_or_schema_record_flipped_loses_nothing_silently(
    tmp_path: Path, opcode: int, records: int, head: int, compression: str | None
) -> None:
    """A summary Channel record damaged (opcode, id, topic, schema id) hides its messages, or another
    channel's, from a reader of the summary; the copy in the chunk names them, so they are read or reported.
    A Schema record's name length running past its record (a zstd fuzz case: /chatter's schema) cost the
    whole summary, and with it the /tf counts."""
    seed = next(write_rosbag2(robot_messages(2.0), tmp_path / "b", compression=compression).glob("*.mcap")).read_bytes()
    whole = 128
    case = tmp_path / "case.mcap"
    found = [pos for pos, op, _ in _summary_records(seed) if op == opcode]
    assert len(found) == records
    silent = []
    for pos in found:
        for at in range(pos, pos + 9 + head + len("/tf_static")):  # opcode, length, the fields, the first string
            for bit in range(8):
                raw = bytearray(seed)
                raw[at] ^= 1 << bit
                case.write_bytes(bytes(raw))
                read, lost = _read_and_lost(case)
                if read >= 0 and read + sum(lost.values()) < whole:
                    silent.append((at, bit, read, lost))
    assert silent == []


def test_a_damaged_summary_record_whose_chunk_is_unreadable_too_counts_its_messages_lost(tmp_path: Path) -> None:
    """zstd chunks: the summary's /tf_static record gets a damaged topic and the only chunk does not
    decompress: no copy names the channel, but its schema is TF and its chunk is lost, so its messages are."""
    seed = next(write_rosbag2(robot_messages(2.0), tmp_path / "b", compression="storage").glob("*.mcap")).read_bytes()
    raw = bytearray(seed)
    summary = _summary_records(seed)
    pos = next(pos for pos, op, _ in summary if op == 0x04 and b"/tf_static" in seed[pos : pos + 80])
    topic = raw.index(b"/tf_static", pos)
    raw[topic : topic + 10] = b"/tf_qtatic"
    chunk_index = next(pos for pos, op, _ in summary if op == 0x08)
    chunk = struct.unpack_from("<Q", seed, chunk_index + 9 + 16)[0]  # chunk_start_offset
    records = chunk + 9 + 8 + 8 + 8 + 4 + 4 + len("zstd") + 8  # past the chunk's header fields: its zstd frame
    raw[records : records + 16] = bytes(16)
    case = tmp_path / "case.mcap"
    case.write_bytes(bytes(raw))
    read, lost = _read_and_lost(case)
    assert read <= 0 and sum(lost.values()) == 128
    assert lost["(channel 2 of case.mcap: /tf_qtatic, tf2_msgs/msg/TFMessage in the summary, maybe TF, damaged; its chunk holds no intact copy)"] == 2


def test_one_damaged_schema_record_costs_only_its_own_channel_name(tmp_path: Path) -> None:
    """A zstd fuzz case: /chatter's Schema record names a string longer than the record. The summary is not
    given up for it: the chunk index and the Statistics counts stand (without them, a chunk rosbags cannot
    read lost /tf's 126 messages silently), and only /chatter's schema goes unnamed."""
    seed = next(write_rosbag2(robot_messages(2.0), tmp_path / "b", compression="storage").glob("*.mcap")).read_bytes()
    raw = bytearray(seed)
    schema = [pos for pos, op, _ in _summary_records(seed) if op == 0x03][1]
    assert raw[schema + 11] == len("std_msgs/msg/String")
    raw[schema + 11] ^= 0x40  # bit 6 of its name's length, as in the kept case
    case = tmp_path / "case.mcap"
    case.write_bytes(bytes(raw))
    index = McapIndex(case)
    assert index.counts == {1: 126, 2: 2, 3: 1} and len(index.chunks) == 1
    assert index.channels == {1: ("/tf", "tf2_msgs/msg/TFMessage"), 2: ("/tf_static", "tf2_msgs/msg/TFMessage"), 3: ("/chatter", "")}


def test_a_summary_record_running_past_the_summary_costs_only_itself(tmp_path: Path) -> None:
    """A replay-mcap fuzz case: the last SummaryOffset record's length runs past the summary. The records
    before it (the chunk index, the Statistics) stand; the whole summary was given up for it, and with it
    /tf_static's count, so its 2 messages (their summary Channel record damaged too) went unreported."""
    seed = next(write_rosbag2(robot_messages(2.0), tmp_path / "b").glob("*.mcap")).read_bytes()
    raw = bytearray(seed)
    summary = _summary_records(seed)
    last, _op, _length = summary[-1]
    raw[last + 2] = 0x08  # its length grows by 2048 bytes: past the footer
    case = tmp_path / "case.mcap"
    case.write_bytes(bytes(raw))
    index = McapIndex(case)
    assert index.counts == {1: 126, 2: 2, 3: 1} and len(index.chunks) == 1


def test_both_copies_of_a_channel_damaged_in_different_fields_count_its_messages_lost(tmp_path: Path) -> None:
    """A replay-mcap fuzz case: the summary's /tf record has a damaged topic ('\\x0ftf'), the chunk's copy an
    intact topic but a damaged schema name ('TF]essage'): neither copy is TF alone, their fields together are."""
    seed = next(write_rosbag2(robot_messages(2.0), tmp_path / "b").glob("*.mcap")).read_bytes()
    raw = bytearray(seed)
    summary_start = _summary_records(seed)[0][0]
    topic = raw.index(b"\x03\x00\x00\x00/tf\x03", summary_start) + 4
    raw[topic] ^= 0x20  # '/' -> '\x0f'
    name = raw.index(b"tf2_msgs/msg/TFMessage")  # the chunk's Schema record comes first in the file
    assert name < summary_start
    raw[name + len("tf2_msgs/msg/TF")] ^= 0x10  # 'M' -> ']'
    case = tmp_path / "case.mcap"
    case.write_bytes(bytes(raw))
    read, lost = _read_and_lost(case)
    assert read == 2 and sum(lost.values()) == 126


@pytest.mark.parametrize("summary_damage", ["lost", "schema"], ids=["summary-record-lost", "summary-schema-lost"])
def test_a_tf_static_channel_damaged_in_both_copies_counts_its_messages_lost(tmp_path: Path, summary_damage: str) -> None:
    """zstd fuzz cases: /tf_static's summary Channel record is lost (its opcode damaged) or names no schema (its
    schema id damaged), and the chunk's Schema record is damaged ('TFMussage'): no copy is TF, both disagree."""
    seed = next(write_rosbag2(robot_messages(2.0), tmp_path / "b").glob("*.mcap")).read_bytes()
    raw = bytearray(seed)
    summary = _summary_records(seed)
    pos = next(pos for pos, op, _ in summary if op == 0x04 and b"/tf_static" in seed[pos : pos + 80])
    if summary_damage == "lost":
        raw[pos] = 0x7F  # an opcode no reader knows: the record is skipped
    else:
        raw[pos + 9 + 2] ^= 0x40  # its schema id: no Schema record has it
    name = raw.index(b"tf2_msgs/msg/TFMessage")  # the chunk's Schema record, before the summary
    raw[name + len("tf2_msgs/msg/TFM")] ^= 0x10  # 'e' -> 'u'
    case = tmp_path / "case.mcap"
    case.write_bytes(bytes(raw))
    read, lost = _read_and_lost(case)
    assert read < 0 or read + sum(lost.values()) >= 128


def test_messages_indexed_under_a_channel_no_record_names_count_lost(tmp_path: Path) -> None:
    """A zstd fuzz case: the Statistics record is damaged (no counts), the chunk does not decompress and /tf's
    chunk index entry names channel 0: the message index still counts its 126 messages."""
    seed = next(write_rosbag2(robot_messages(2.0), tmp_path / "b", compression="storage").glob("*.mcap")).read_bytes()
    raw = bytearray(seed)
    summary = _summary_records(seed)
    stats = next(pos for pos, op, _ in summary if op == 0x0B)
    raw[stats] = 0x7B  # its opcode damaged: no counts
    chunk_index = next(pos for pos, op, _ in summary if op == 0x08)
    entries = chunk_index + 9 + 32 + 4  # the message index offsets map: (u16 channel, u64 offset) each
    for at in range(entries, entries + 30, 10):
        if struct.unpack_from("<H", raw, at)[0] == 1:
            struct.pack_into("<H", raw, at, 0)
    chunk = struct.unpack_from("<Q", seed, chunk_index + 9 + 16)[0]
    records = chunk + 9 + 8 + 8 + 8 + 4 + 4 + len("zstd") + 8
    raw[records : records + 16] = bytes(16)
    case = tmp_path / "case.mcap"
    case.write_bytes(bytes(raw))
    index = McapIndex(case)
    assert index.counts == {} and index.indexed_counts()[0] == 126
    _read, lost = _read_and_lost(case)
    assert sum(lost.values()) >= 128


def test_the_message_indexes_count_what_the_statistics_count(tmp_path: Path) -> None:
    """Two counts per channel in the summary, read without decompressing a chunk: the Statistics record's and
    the message indexes' (the reader takes the larger, so one damaged count does not hide a loss)."""
    index = McapIndex(next(write_rosbag2(robot_messages(2.0), tmp_path / "b", compression="storage").glob("*.mcap")))
    assert index.counts == index.indexed_counts() == {1: 126, 2: 2, 3: 1}


def test_a_summary_shifted_by_bytes_added_before_it_is_found_after_the_data_end_record(tmp_path: Path) -> None:
    """4096 bytes duplicated inside the chunk: every offset the footer and the summary hold is off, rosbags
    reads what it can and counts only that; the summary, found after the DataEnd record, still counts 126."""
    seed = next(write_rosbag2(robot_messages(2.0), tmp_path / "b").glob("*.mcap")).read_bytes()
    raw = bytearray(seed)
    raw[8000:8000] = raw[12000 : 12000 + 4096]
    case = tmp_path / "case.mcap"
    case.write_bytes(bytes(raw))
    assert McapIndex(case).counts == {1: 126, 2: 2, 3: 1}
    read, lost = _read_and_lost(case)
    assert read < 0 or read + sum(lost.values()) >= 128
