"""Damaged bags through the CLI: what can be read is checked, what was lost is said, and nothing crashes."""

from __future__ import annotations

import contextlib
import io
import json
import sqlite3
import struct
from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import robot_with, write_bag

from physframe_ros.cli import main


def cli(*argv: str) -> tuple[int, dict, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main(["replay", *argv, "--format", "json", "--no-progress"])
    return status, json.loads(out.getvalue()) if out.getvalue() else {}, err.getvalue()


def test_zeroed_bytes_in_an_mcap_are_a_loss_finding_and_what_precedes_is_still_checked(tmp_path: Path) -> None:
    bag = write_bag(robot_with("cycle"), tmp_path, "mcap")  # the cycle at t = 12 s
    data = next(bag.glob("*.mcap"))
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 3 : len(raw) // 3 + 512] = bytes(512)  # past the cycle, inside the chunk
    data.write_bytes(bytes(raw))
    status, report, err = cli(str(bag))
    assert status == 1, err
    lost = [f for f in report["findings"] if f["code"] == "BAG_MESSAGES_LOST"]
    assert len(lost) == 1 and lost[0]["severity"] == "error" and lost[0]["category"] == "input"
    (topic,) = lost[0]["details"]["topics"]
    counts = lost[0]["details"]["topics"]["/tf"]
    # read again through the chunk's message index: only the messages under the zeroed bytes are lost
    assert topic == "/tf" and counts["listed"] == 2410 and 2400 <= counts["read"] < 2410
    assert "message by message" in report["bag"]["recovered"]
    assert str(bag) in lost[0]["message"] and f"/tf: {counts['lost']} of 2410 lost" in lost[0]["message"]
    assert lost[0]["location"]["file"] == str(bag)
    assert "CYCLE_IN_FRAME_TREE" in {f["code"] for f in report["findings"]}


def test_huge_record_length_in_an_mcap_is_one_line_and_exit_2(tmp_path: Path) -> None:
    bag = write_bag(robot_with(None), tmp_path, "mcap")
    data = next(bag.glob("*.mcap"))
    raw = bytearray(data.read_bytes())
    raw[9:17] = struct.pack("<Q", 2**64 - 1)  # the header record's length, right after the magic
    data.write_bytes(bytes(raw))
    status, _report, err = cli(str(data))
    assert status == 2
    assert err.count("\n") == 1 and str(data) in err and "byte 8" in err and "Traceback" not in err


def test_null_data_in_a_db3_is_counted_as_lost(tmp_path: Path) -> None:
    bag = write_bag(robot_with(None), tmp_path, "db3")
    db = next(bag.glob("*.db3"))
    with sqlite3.connect(db) as con:  # a damaged file can hold NULL where the schema says NOT NULL
        con.execute("PRAGMA writable_schema = ON")
        con.execute("UPDATE sqlite_master SET sql = replace(sql, 'data BLOB NOT NULL', 'data BLOB') WHERE name = 'messages'")
    with sqlite3.connect(db) as con:
        con.execute("UPDATE messages SET data = NULL WHERE id IN (100, 101, 102)")
    status, report, err = cli(str(bag))
    assert status == 1, err
    (lost,) = [f for f in report["findings"] if f["code"] == "BAG_MESSAGES_LOST"]
    assert lost["details"]["topics"]["/tf"]["lost"] == 3


def test_damaged_compressed_chunk_is_one_line_with_the_partial_report(tmp_path: Path) -> None:
    from bag.tfbags import write_rosbag2

    bag = write_rosbag2(robot_with("cycle"), tmp_path / "zstd", compression="storage")
    data = next(bag.glob("*.mcap"))
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 2 : len(raw) // 2 + 64] = bytes(64)
    data.write_bytes(bytes(raw))
    status, report, err = cli(str(bag))
    assert status in (1, 2) and "Traceback" not in err
    assert status == 2 or any(f["code"] == "BAG_MESSAGES_LOST" for f in report["findings"])
    if status == 2:
        assert err.startswith(f"physframe replay: {bag}") and "the report below covers what was read before" in err


def test_zeroed_bytes_in_a_ros1_bag_cost_only_the_messages_under_them(tmp_path: Path) -> None:
    from bag.tfbags import write_rosbag1

    bag = write_rosbag1(robot_with("cycle"), tmp_path / "robot.bag")
    raw = bytearray(bag.read_bytes())
    raw[len(raw) // 5 : len(raw) // 5 + 512] = bytes(512)  # inside the one chunk, before the cycle
    bag.write_bytes(bytes(raw))
    status, report, err = cli(str(bag))
    assert status == 1, err
    (lost,) = [f for f in report["findings"] if f["code"] == "BAG_MESSAGES_LOST"]
    assert 0 < lost["details"]["topics"]["/tf"]["lost"] <= 5
    assert "CYCLE_IN_FRAME_TREE" in {f["code"] for f in report["findings"]}
    assert "message by message" in report["bag"]["recovered"]


def test_a_chunk_that_does_not_decompress_is_a_loss_of_all_its_messages(tmp_path: Path) -> None:
    from bag.tfbags import write_rosbag1

    bag = write_rosbag1(robot_with(None), tmp_path / "robot.bag", compression="lz4")
    raw = bytearray(bag.read_bytes())
    raw[len(raw) // 5 : len(raw) // 5 + 512] = bytes(512)
    bag.write_bytes(bytes(raw))
    status, report, err = cli(str(bag))
    assert status == 1 and "Traceback" not in err  # the one lz4 chunk holds the whole bag
    (lost,) = [f for f in report["findings"] if f["code"] == "BAG_MESSAGES_LOST"]
    tf = lost["details"]["topics"]["/tf"]
    assert tf["listed"] == 2400 and tf["read"] + tf["lost"] == 2400 and tf["lost"] > 0


def test_messages_of_a_lost_ros1_connection_record_are_a_loss(tmp_path: Path) -> None:
    from bag.tfbags import write_rosbag1

    bag = write_rosbag1(robot_with(None), tmp_path / "robot.bag")
    raw = bytearray(bag.read_bytes())
    topic = raw.rindex(b"topic=/tf_static")  # the index's connection record of /tf_static: now connection 77
    conn = raw.rindex(b"conn=", 0, topic)
    raw[conn + 5 : conn + 9] = (77).to_bytes(4, "little")
    bag.write_bytes(bytes(raw))
    status, report, err = cli(str(bag))
    assert status == 1, err
    (lost,) = [f for f in report["findings"] if f["code"] == "BAG_MESSAGES_LOST"]
    assert "(connection 1: its topic is lost with its connection record): 2 of 2 lost" in lost["message"]
