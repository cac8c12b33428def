"""The sqlite page walker against files sqlite itself wrote: every value kind, overflow chains, cut and garbled files."""

from __future__ import annotations

import random
import sqlite3
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from physframe_ros.bag.sqlite_pages import PageError, SqliteFile, varint

INTS = [0, 1, -1, 127, -128, 32767, -32768, 2**23 - 1, -(2**23), 2**31 - 1, -(2**31), 2**47 - 1, -(2**47), 2**63 - 1, -(2**63)]


def _database(path: Path, page_size: int = 4096, encoding: str = "UTF-8", big: int = 20_000) -> dict[int, tuple[object, ...]]:
    """A table of every value kind (blobs large enough to overflow); returns the rows by rowid as sqlite reads them."""
    con = sqlite3.connect(path)
    con.execute(f"PRAGMA page_size={page_size}")
    con.execute(f"PRAGMA encoding='{encoding}'")
    con.execute("CREATE TABLE t(id INTEGER PRIMARY KEY, i INTEGER, f REAL, s TEXT, b BLOB, n)")
    rng = random.Random(7)
    rows = []
    for k, value in enumerate(INTS):
        blob = rng.randbytes(rng.choice([0, 5, 300, big, 3 * big]))
        rows.append((k + 1, value, value / 3.0, "ωx" * (k * 40), blob, None))
    con.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)", rows)
    con.commit()
    got = {r[0]: r for r in con.execute("SELECT id, i, f, s, b, n FROM t")}
    con.close()
    return got


@pytest.mark.parametrize(("page_size", "encoding"), [(512, "UTF-8"), (4096, "UTF-16le"), (65536, "UTF-16be"), (1024, "UTF-8")])
def test_rows_equal_what_sqlite_reads(tmp_path: Path, page_size: int, encoding: str) -> None:
    path = tmp_path / "t.db"
    want = _database(path, page_size, encoding)
    pages = SqliteFile(path.read_bytes())
    assert pages.page_size == page_size and not pages.truncated
    got = {}
    for cell, values in pages.rows():
        if len(values) == 6:  # sqlite_master rows have 5 columns
            assert values[0] is None  # INTEGER PRIMARY KEY: stored as NULL, the rowid is the value
            got[cell.rowid] = (cell.rowid, *values[1:])
    assert got == want


def test_cut_file_gives_the_rows_before_the_cut_and_none_whose_overflow_is_lost(tmp_path: Path) -> None:
    path = tmp_path / "t.db"
    want = _database(path, 1024)
    data = path.read_bytes()
    seen_partial = False
    for cut in range(100, len(data), 997):
        pages = SqliteFile(data[:cut])
        got = {c.rowid: (c.rowid, *v[1:]) for c, v in pages.rows() if len(v) == 6}
        assert all(want[rowid] == row for rowid, row in got.items())
        seen_partial |= 0 < len(got) < len(want)
        assert pages.truncated or cut % 1024 == 0
    assert seen_partial


def test_varint_edges() -> None:
    assert varint(b"\x7f", 0, 1) == (127, 1)
    assert varint(b"\x81\x00", 0, 2) == (128, 2)
    assert varint(b"\xff" * 9, 0, 9) == (-1, 9)  # nine bytes: 64 bits, two's complement


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"", "file ends inside the sqlite3 header"),
        (b"SQLite format 3\x00" + b"\x00" * 10, "ends inside the sqlite3 header"),
        (b"PK\x03\x04" + b"\x00" * 200, "not an sqlite3 file"),
        (b"SQLite format 3\x00\x03\x00" + b"\x00" * 200, "page size 768"),
    ],
)
def test_bad_headers_raise_page_error(data: bytes, message: str) -> None:
    with pytest.raises(PageError, match=message):
        SqliteFile(data)


@pytest.fixture(scope="module")
def real_db(tmp_path_factory: pytest.TempPathFactory) -> bytes:
    path = tmp_path_factory.mktemp("db") / "t.db"
    _database(path, 512, big=3000)
    return path.read_bytes()


def _walk(data: bytes) -> int:
    try:
        pages = SqliteFile(data)
    except PageError:
        return -1
    return sum(1 for _ in pages.rows())


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_garbled_files_never_crash_or_hang(real_db: bytes, data: st.DataObject) -> None:
    """Random bytes written over a real file (headers, pointers, varints, overflow links): PageError or fewer rows."""
    garbled = bytearray(real_db[: data.draw(st.integers(0, len(real_db)))])
    for _ in range(data.draw(st.integers(1, 40))):
        if not garbled:
            break
        at = data.draw(st.integers(0, len(garbled) - 1))
        chunk = data.draw(st.binary(min_size=1, max_size=8))
        garbled[at : at + len(chunk)] = chunk
    _walk(bytes(garbled))


@settings(max_examples=100, deadline=None)
@given(st.binary(min_size=0, max_size=4000), st.sampled_from([b"\x02\x00", b"\x00\x01", b"\x10\x00"]))
def test_random_bytes_after_a_header_never_crash(rest: bytes, page_size: bytes) -> None:
    _walk(b"SQLite format 3\x00" + page_size + rest)
