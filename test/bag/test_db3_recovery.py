"""A rosbag2 .db3 that sqlite refuses (cut short) is read from its pages: the messages before the cut, then the error."""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import START, Msg, clean_robot, inject_cycle, write_rosbag2, write_split_rosbag2

from physframe_ros.bag import BagError, open_bag
from physframe_ros.cli import main

Message = tuple[str, float, bool, bytes, str]


@pytest.fixture(scope="module")
def cycle_bag(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The clean robot with a map <-> odom cycle at 12 s, as a rosbag2 directory with one .db3."""
    robot = clean_robot()
    inject_cycle(robot)
    return write_rosbag2(robot, tmp_path_factory.mktemp("db3") / "cycle", "sqlite3")


@pytest.fixture(scope="module")
def originals(cycle_bag: Path) -> list[Message]:
    with open_bag(cycle_bag) as bag:
        assert bag.info.recovered is None  # intact: read through sqlite
        return list(bag.messages())


def _db3(bag: Path) -> Path:
    return next(bag.glob("*.db3"))


def _cut(bag: Path, at: float | int, to: Path) -> Path:
    data = _db3(bag).read_bytes()
    to.write_bytes(data[: at if isinstance(at, int) else int(len(data) * at)])
    return to


def _read_until_error(path: Path) -> tuple[list[Message], BagError | None]:
    got: list[Message] = []
    try:
        with open_bag(path) as bag:
            for m in bag.messages():
                got.append(m)
    except BagError as exc:
        return got, exc
    return got, None


def _check_subset(got: list[Message], originals: list[Message]) -> None:
    """In time order, and every message one the bag really held at that time (none twice, none invented)."""
    assert [t for _, t, _, _, _ in got] == sorted(t for _, t, _, _, _ in got)
    assert not Counter(got) - Counter(originals)


def test_intact_db3_still_reads_through_sqlite(cycle_bag: Path, originals: list[Message]) -> None:
    with open_bag(_db3(cycle_bag)) as bag:
        assert bag.info.recovered is None and bag.info.storage == "rosbag2 sqlite3"
        assert list(bag.messages()) == originals
    assert len(originals) == 2412  # everything but /chatter


@pytest.mark.parametrize("kind", ["file", "dir"])
def test_cut_db3_yields_the_messages_before_the_cut_then_names_file_and_byte(tmp_path: Path, cycle_bag: Path, originals: list[Message], kind: str) -> None:
    if kind == "dir":  # the cut .db3 beside its metadata.yaml
        bag = tmp_path / "bag"
        bag.mkdir()
        (bag / "metadata.yaml").write_bytes((cycle_bag / "metadata.yaml").read_bytes())
        cut = _cut(cycle_bag, 0.6, bag / _db3(cycle_bag).name)
        opened = bag
    else:
        cut = opened = _cut(cycle_bag, 0.6, tmp_path / "cut.db3")
    with open_bag(opened) as bag_:
        assert bag_.info.recovered and "pages were read directly" in bag_.info.recovered
        assert bag_.tf_topics == ["/tf", "/tf_static"] and bag_.info.start == pytest.approx(START)
    got, err = _read_until_error(opened)
    assert len(originals) * 0.45 < len(got) < len(originals) * 0.75
    _check_subset(got, originals)
    assert got == originals[: len(got)]  # the pages before the cut hold the first messages: a prefix
    assert err is not None
    text = str(err)
    size = cut.stat().st_size
    assert text.startswith(f"{cut}: truncated or damaged") and f"file ends at byte {size} of " in text
    assert f"{len(got)} messages recovered" in text and f"after {len(got)} TF messages" in text and "\n" not in text


def test_replay_of_a_cut_db3_prints_the_error_and_the_partial_report(tmp_path: Path, cycle_bag: Path, capsys: pytest.CaptureFixture[str]) -> None:
    cut = _cut(cycle_bag, 0.6, tmp_path / "cut.db3")  # the cut falls at about t = 23 s, after the cycle at 12 s
    assert main(["replay", str(cut), "--format", "json"]) == 2
    captured = capsys.readouterr()
    err_lines = captured.err.strip().splitlines()
    assert len(err_lines) == 1 and str(cut) in err_lines[0] and "file ends at byte" in err_lines[0] and "t=+2" in err_lines[0]
    report = json.loads(captured.out)
    assert [f["code"] for f in report["findings"]] == ["CYCLE_IN_FRAME_TREE"]
    assert 12.0 <= report["findings"][0]["time"]["first"] - START <= 13.05
    assert report["error"] and "without sqlite" in report["bag"]["recovered"]


def test_random_bytes_with_an_sqlite_header_give_one_clean_line(tmp_path: Path, cycle_bag: Path, capsys: pytest.CaptureFixture[str]) -> None:
    junk = tmp_path / "junk.db3"
    junk.write_bytes(b"SQLite format 3\x00" + os.urandom(50_000))
    header_only = tmp_path / "header_only.db3"  # a valid header (page size and all), then garbage pages
    header_only.write_bytes(_db3(cycle_bag).read_bytes()[:100] + os.urandom(40_000))
    for path in (junk, header_only):
        assert main(["replay", str(path)]) == 2
        captured = capsys.readouterr()
        assert captured.err.count("\n") == 1 and str(path) in captured.err and "Traceback" not in captured.err


def test_twenty_cuts_give_bag_errors_and_consistent_subsets(tmp_path: Path, cycle_bag: Path, originals: list[Message]) -> None:
    size = _db3(cycle_bag).stat().st_size
    cuts = sorted({int(size * (i + 0.5) / 20) + i * 37 for i in range(19)} | {size - 700})  # odd offsets, one in the last page
    assert len(cuts) == 20
    previous: Counter[Message] = Counter()
    for n, at in enumerate(cuts):
        got, err = _read_until_error(_cut(cycle_bag, at, tmp_path / f"cut{n}.db3"))  # anything but BagError fails here
        assert err is not None, at
        _check_subset(got, originals)
        assert not previous - Counter(got), at  # a longer file never loses what a shorter one gave
        previous = Counter(got)
    assert len(previous) > len(originals) * 0.9


def test_sqlite_breaking_midway_goes_on_from_the_pages_without_repeats(tmp_path: Path, cycle_bag: Path, originals: list[Message]) -> None:
    cut = _cut(cycle_bag, 0.99, tmp_path / "late.db3")  # the index at the front survives: sqlite opens it, then breaks
    got: list[Message] = []
    with open_bag(cut) as bag:
        assert bag.info.recovered is None
        with pytest.raises(BagError, match="file ends at byte"):
            for m in bag.messages():
                got.append(m)
        assert bag.info.recovered
    _check_subset(got, originals)
    assert len(got) > len(originals) * 0.95


def _zero_topics_table(db3: Path) -> None:
    con = sqlite3.connect(db3)
    (root,) = con.execute("SELECT rootpage FROM sqlite_master WHERE name = 'topics'").fetchone()
    (page_size,) = con.execute("PRAGMA page_size").fetchone()
    con.close()
    data = bytearray(db3.read_bytes())
    data[(root - 1) * page_size : root * page_size] = bytes(page_size)
    db3.write_bytes(bytes(data[: int(len(data) * 0.6)]))


def test_lost_topics_table_is_named_from_metadata_only_when_unambiguous(tmp_path: Path) -> None:
    only_tf = [Msg(0.01 * i, "/tf", [("odom", "base_link", START + 0.01 * i, (0, 0, 0, 0, 0, 0, 1))]) for i in range(500)]
    one = write_rosbag2(only_tf, tmp_path / "one", "sqlite3", extra_topics=False)
    _zero_topics_table(_db3(one))
    got, err = _read_until_error(one)
    assert 200 < len(got) < 500 and {m[0] for m in got} == {"/tf"}
    assert err is not None and "file ends at byte" in str(err)

    three = write_rosbag2(clean_robot(5.0), tmp_path / "three", "sqlite3")  # /tf, /tf_static, /chatter: ambiguous
    _zero_topics_table(_db3(three))
    got, err = _read_until_error(three)
    assert got == [] and err is not None and "topics table is lost" in str(err) and str(_db3(three)) in str(err)


def test_split_bag_with_its_last_file_cut(tmp_path: Path) -> None:
    from bag.tfbags import Robot

    robot = clean_robot(10.0)
    bag = write_split_rosbag2(Robot(robot.sorted(), 10.0), tmp_path / "split", "sqlite3", at=5.0)
    with open_bag(bag) as b:
        whole = list(b.messages())
    second = sorted(bag.glob("*.db3"))[1]
    second.write_bytes(second.read_bytes()[: second.stat().st_size // 2])
    got, err = _read_until_error(bag)
    _check_subset(got, whole)
    assert got[-1][1] > START + 5.0 and len(got) < len(whole)
    assert got == whole[: len(got)]
    assert err is not None and str(err).startswith(f"{second}: truncated or damaged")


def test_message_compressed_db3(tmp_path: Path) -> None:
    bag = write_rosbag2(clean_robot(5.0), tmp_path / "zstd", "sqlite3", compression="message")
    with open_bag(bag) as b:
        whole = list(b.messages())
    db3 = _db3(bag)
    db3.write_bytes(db3.read_bytes()[: db3.stat().st_size * 6 // 10])
    got, err = _read_until_error(bag)
    assert got and got == whole[: len(got)] and err is not None


def test_rows_whose_topic_id_is_damaged_are_reported_lost(tmp_path: Path) -> None:
    """A damaged topic_id cell (a number naming no topic; NULL likewise): sqlite still reads the file, but the
    rows have no topic. Each lost message is reported once: against its topic where metadata.yaml counts it,
    as rows of the file where nothing else does."""
    robot = clean_robot(2.0)
    bag = write_rosbag2(robot, tmp_path / "bag", "sqlite3", extra_topics=False)
    with sqlite3.connect(_db3(bag)) as db:
        db.execute("UPDATE messages SET topic_id = 99 WHERE id IN (7, 9)")  # as a damaged cell reads (NOT NULL stops NULL here)
    with open_bag(bag) as b:
        read = list(b.messages())
        assert b.info.recovered is None and len(read) == len(robot.messages) - 2
        assert [(x.topic, x.lost) for x in b.info.losses] == [("/tf", 2)]
    (bag / "metadata.yaml").unlink()
    with open_bag(_db3(bag)) as b:
        assert len(list(b.messages())) == len(robot.messages) - 2
        assert [(x.topic, x.lost) for x in b.info.losses] == [(f"({_db3(bag).name}: rows whose topic id is damaged)", 2)]


@pytest.mark.parametrize(("column", "damaged"), [("type", "tf2_msgs/mqg/TFMessage"), ("name", "/tf\x00static"), ("both", "")])
def test_a_lone_db3_whose_topics_row_is_tf_but_for_a_damaged_field_counts_its_rows_lost(tmp_path: Path, column: str, damaged: str) -> None:
    """Without metadata.yaml nothing names the topics a second time: a /tf_static row whose type (or a TF-typed row
    whose name) is a few characters from TF is damage, and its messages rows are reported lost, not skipped."""
    bag = write_rosbag2(clean_robot(5.0), tmp_path / "b", "sqlite3")
    lone = next(bag.glob("*.db3"))
    with sqlite3.connect(lone) as db:
        if column == "both":
            db.execute("UPDATE topics SET name = '/tf_stbtic', type = 'tf2_msgs/msg/TFMessagf' WHERE name = '/tf_static'")
        else:
            db.execute(f"UPDATE topics SET {column} = ? WHERE name = '/tf_static'", (damaged,))
    with open_bag(lone) as b:
        read = Counter(topic for topic, *_ in b.messages())
        lost = [x for x in b.info.losses if "TF but for one damaged field" in x.topic]
    assert "/tf_static" not in read and [x.lost for x in lost] == [2]


def test_a_message_row_whose_topic_id_reads_null_in_a_not_null_column_is_counted_lost(tmp_path: Path) -> None:
    """A damaged topic_id cell can read NULL although the column is declared NOT NULL, and sqlite then takes
    `topic_id IS NULL` for false: the row is found by its type instead and reported lost."""
    bag = write_rosbag2(clean_robot(5.0), tmp_path / "b", "sqlite3")
    lone = next(bag.glob("*.db3"))
    with open_bag(lone) as b:
        whole = sum(1 for _ in b.messages())
    with contextlib.closing(sqlite3.connect(lone)) as db:  # drop NOT NULL, write the NULL, put NOT NULL back
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = replace(sql, 'topic_id INTEGER NOT NULL', 'topic_id INTEGER') WHERE name = 'messages'")
        db.commit()
    with contextlib.closing(sqlite3.connect(lone)) as db:
        db.execute("UPDATE messages SET topic_id = NULL WHERE id = (SELECT min(id) FROM messages WHERE topic_id = 1)")
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = replace(sql, 'topic_id INTEGER,', 'topic_id INTEGER NOT NULL,') WHERE name = 'messages'")
        db.commit()
    with open_bag(lone) as b:
        read = sum(1 for _ in b.messages())
        lost = {x.topic: x.lost for x in b.info.losses}
    assert lost == {f"({lone.name}: rows whose topic id is damaged)": 1} and read == whole - 1


def test_a_lone_db3_counts_rows_without_a_topic_beside_a_shortfall_of_its_own_counts(tmp_path: Path) -> None:
    """One /tf row whose data reads NULL (a shortfall against the table's own count of /tf) and another whose
    topic_id names no topic: with no metadata.yaml the first does not explain the second; both are lost."""
    bag = write_rosbag2(clean_robot(5.0), tmp_path / "b", "sqlite3")
    lone = next(bag.glob("*.db3"))
    with contextlib.closing(sqlite3.connect(lone)) as db:
        db.execute("PRAGMA writable_schema = ON")
        db.execute("UPDATE sqlite_master SET sql = replace(sql, 'data BLOB NOT NULL', 'data BLOB') WHERE name = 'messages'")
        db.commit()
    with contextlib.closing(sqlite3.connect(lone)) as db:
        db.execute("UPDATE messages SET data = NULL WHERE id = (SELECT min(id) FROM messages WHERE topic_id = 1)")
        db.execute("UPDATE messages SET topic_id = 99 WHERE id = (SELECT max(id) FROM messages WHERE topic_id = 1)")
        db.commit()
    with open_bag(lone) as b:
        for _ in b.messages():
            pass
        lost = {x.topic: x.lost for x in b.info.losses}
    assert lost == {"/tf": 1, f"({lone.name}: rows whose topic id is damaged)": 1}
