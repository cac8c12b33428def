"""Readers for damaged bags: everything up to where a file breaks.

``rosbags`` opens an MCAP or ROS 1 bag through the index at its end, so a bag
cut short (a robot that lost power, a copy that did not finish) does not open at
all. These walkers read the records from the front instead, yield each message
as ``(topic, msgtype, log_time_ns, raw_bytes)`` in file order, and raise
:class:`BagError` with the byte offset where the file stops making sense.

sqlite refuses a cut rosbag2 ``.db3`` outright; :class:`Db3Recovery` reads its
pages directly (:mod:`.sqlite_pages`), picks the ``topics`` and ``messages`` rows
out by their column shapes and yields the messages in time order.
"""

from __future__ import annotations

import bz2
import contextlib
import mmap
import struct
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator

from .errors import BagError
from .sqlite_pages import MAGIC as SQLITE_MAGIC
from .sqlite_pages import Cell, PageError, SqliteFile, Value

RecoveredMessage = tuple[str, str, int, bytes]

_U16 = struct.Struct("<H").unpack_from
_U32 = struct.Struct("<I").unpack_from
_U64 = struct.Struct("<Q").unpack_from
_MCAP_MAGIC = b"\x89MCAP0\r\n"
_ROSBAG_MAGIC = b"#ROSBAG V2.0\n"


class _Truncated(Exception):
    """A record runs past the end of the data it is in."""


def _left(bio: BinaryIO) -> int:
    """Bytes from the current position to the end of the file."""
    here = bio.tell()
    end = bio.seek(0, 2)
    bio.seek(here)
    return end - here


def _read(bio: BinaryIO, size: int) -> bytes:
    """Exactly ``size`` bytes; a length field larger than the rest of the file is never allocated."""
    left = _left(bio)
    if size > left:
        raise _Truncated(f"file ends inside a record (wanted {size} bytes, {left} left)")
    data = bio.read(size)
    if len(data) != size:
        raise _Truncated(f"file ends inside a record (wanted {size} bytes, {len(data)} left)")
    return data


def _why(exc: Exception) -> str:
    if isinstance(exc, _Truncated):
        return str(exc)
    if isinstance(exc, KeyError):
        return f"a record lacks its {exc} field"
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def mcap_decompress(data: bytes, compression: str, size: int) -> bytes:
    if compression == "":
        return data
    if compression == "zstd":
        try:
            from compression import zstd  # type: ignore[import-not-found]  # Python >= 3.14
        except ImportError:
            from backports import zstd  # type: ignore[import-not-found,no-redef]  # what rosbags installs
        return bytes(zstd.decompress(data))
    if compression == "lz4":
        import lz4.frame  # type: ignore[import-untyped]

        return bytes(lz4.frame.decompress(data))
    raise ValueError(f"unsupported chunk compression {compression!r}")


def scan_mcap(path: Path, listed: Counter[str] | None = None) -> Iterator[RecoveredMessage]:
    """Walk an MCAP file's records from the start, into chunks, without its summary section;
    ``listed`` counts the messages per topic that the message index records after each chunk list."""
    schemas: dict[int, str] = {}
    channels: dict[int, tuple[str, str]] = {}
    with path.open("rb") as bio:
        if bio.read(8) != _MCAP_MAGIC:
            raise BagError(path, "not an MCAP file (bad magic)", "byte 0")
        offset = 8
        try:
            while True:
                offset = bio.tell()
                op = bio.read(1)
                if not op:
                    raise _Truncated("file ends without the MCAP footer")
                length = _U64(_read(bio, 8))[0]
                body = bio.read(min(length, _left(bio)))  # a huge length field is only as long as the file
                cut = len(body) < length
                if op[0] == 0x06:  # chunk: start, end, uncompressed size, crc, compression, records
                    clen = _U32(body, 28)[0]
                    compression = body[32 : 32 + clen].decode()
                    pos = 32 + clen
                    rlen = _U64(body, pos)[0]
                    if cut and compression:
                        raise _Truncated(f"file ends inside a {compression}-compressed chunk")
                    # an uncompressed chunk cut short still holds whole records up to the cut
                    records = mcap_decompress(body[pos + 8 : pos + 8 + rlen], compression, _U64(body, 16)[0])
                    yield from _mcap_records(records, schemas, channels, None)
                elif op[0] == 0x02 and not cut:  # footer: the file is complete after all
                    return
                elif not cut:
                    yield from _mcap_records(op + struct.pack("<Q", length) + body, schemas, channels, listed)
                if cut:
                    raise _Truncated(f"file ends inside a record (wanted {length} bytes, {len(body)} left)")
        except Exception as exc:  # struct, lengths, UTF-8, decompression (lz4, zstd), missing fields: all damage
            raise BagError(path, f"truncated or damaged: {_why(exc)}", f"record at byte {offset}") from None


def _mcap_records(
    data: bytes, schemas: dict[int, str], channels: dict[int, tuple[str, str]], listed: Counter[str] | None
) -> Iterator[RecoveredMessage]:
    pos, end = 0, len(data)
    while pos < end:
        if pos + 9 > end:
            raise _Truncated("record runs past the end of its chunk")
        op = data[pos]
        length = _U64(data, pos + 1)[0]
        start = pos + 9
        pos = start + length
        if pos > end:
            raise _Truncated("record runs past the end of its chunk")
        if op == 0x05:  # message: channel u16, sequence u32, log_time u64, publish_time u64, data
            cid = _U16(data, start)[0]
            channel = channels.get(cid)
            if channel is not None:
                yield channel[0], channel[1], _U64(data, start + 6)[0], data[start + 22 : pos]
        elif op == 0x07 and listed is not None:  # message index: channel u16, then (time, offset) pairs of 16 bytes
            channel = channels.get(_U16(data, start)[0])
            if channel is not None:
                listed[channel[0]] += _U32(data, start + 2)[0] // 16
        elif op == 0x03:  # schema: id u16, name string, ...
            size = _U32(data, start + 2)[0]
            schemas[_U16(data, start)[0]] = data[start + 6 : start + 6 + size].decode()
        elif op == 0x04:  # channel: id u16, schema id u16, topic string, ...
            size = _U32(data, start + 4)[0]
            topic = data[start + 8 : start + 8 + size].decode()
            channels[_U16(data, start)[0]] = (topic, schemas.get(_U16(data, start + 2)[0], ""))


def ros1_header(data: bytes) -> dict[str, bytes]:
    fields: dict[str, bytes] = {}
    pos = 0
    while pos + 4 <= len(data):
        size = _U32(data, pos)[0]
        name, _, value = data[pos + 4 : pos + 4 + size].partition(b"=")
        fields[name.decode()] = value
        pos += 4 + size
    return fields


def ros1_record(bio: BinaryIO) -> tuple[dict[str, bytes], bytes, int] | None:
    """(header fields, data, bytes of data missing because the file ends inside it)."""
    raw = bio.read(4)
    if not raw:
        return None
    if len(raw) != 4:
        raise _Truncated("file ends inside a record header length")
    header = ros1_header(_read(bio, _U32(raw)[0]))
    size = _U32(_read(bio, 4))[0]
    data = bio.read(min(size, _left(bio)))
    return header, data, size - len(data)


def scan_rosbag1(path: Path, listed: Counter[str] | None = None) -> Iterator[RecoveredMessage]:
    """Walk a ROS 1 bag (v2.0) record by record, into its chunks, ignoring the index at the end;
    ``listed`` counts the messages per topic that the index data records after each chunk list."""
    connections: dict[int, tuple[str, str]] = {}
    with path.open("rb") as bio:
        if bio.read(len(_ROSBAG_MAGIC)) != _ROSBAG_MAGIC:
            raise BagError(path, "not a ROS 1 bag v2.0 (bad magic line)", "byte 0")
        offset = len(_ROSBAG_MAGIC)
        try:
            while True:
                offset = bio.tell()
                record = ros1_record(bio)
                if record is None:
                    return
                header, data, missing = record
                op = header.get("op", b"\x00")[0]
                if missing and not (op == 0x05 and header.get("compression", b"none") == b"none"):
                    raise _Truncated(f"file ends inside a record (wanted {len(data) + missing} bytes, {len(data)} left)")
                if op == 0x05:  # chunk; an uncompressed one cut short still holds whole records up to the cut
                    compression = header.get("compression", b"none").decode()
                    if compression == "bz2":
                        data = bz2.decompress(data)
                    elif compression == "lz4":
                        import lz4.frame

                        data = lz4.frame.decompress(data)
                    elif compression != "none":
                        raise ValueError(f"unsupported chunk compression {compression!r}")
                    yield from _ros1_chunk(data, connections)
                    if missing:
                        raise _Truncated(f"file ends inside a chunk ({missing} bytes missing)")
                elif op == 0x07:
                    ros1_connection(header, data, connections)
                elif op == 0x04 and listed is not None:  # index data of the chunk before: conn, count
                    conn = connections.get(_U32(header["conn"])[0])
                    if conn is not None:
                        listed[conn[0]] += _U32(header["count"])[0]
        except Exception as exc:  # struct, lengths, UTF-8, decompression (bz2, lz4), missing header fields: all damage
            raise BagError(path, f"truncated or damaged: {_why(exc)}", f"record at byte {offset}") from None


def _ros1_chunk(data: bytes, connections: dict[int, tuple[str, str]]) -> Iterator[RecoveredMessage]:
    pos, end = 0, len(data)
    while pos < end:
        hlen = _U32(data, pos)[0]
        if pos + 8 + hlen > end:
            raise _Truncated("record runs past the end of its chunk")
        header = ros1_header(data[pos + 4 : pos + 4 + hlen])
        pos += 4 + hlen
        dlen = _U32(data, pos)[0]
        body = data[pos + 4 : pos + 4 + dlen]
        pos += 4 + dlen
        if pos > end:
            raise _Truncated("record runs past the end of its chunk")
        op = header.get("op", b"\x00")[0]
        if op == 0x02:  # message data: conn u32, time (sec u32, nsec u32)
            conn = connections.get(_U32(header["conn"])[0])
            if conn is not None:
                sec, nsec = struct.unpack("<II", header["time"])
                yield conn[0], conn[1], sec * 1_000_000_000 + nsec, body
        elif op == 0x07:
            ros1_connection(header, body, connections)


def ros1_connection(header: dict[str, bytes], data: bytes, connections: dict[int, tuple[str, str]]) -> None:
    details = ros1_header(data)
    connections[_U32(header["conn"])[0]] = (header["topic"].decode(), details.get("type", b"").decode())


# --- rosbag2 sqlite3 (.db3) ---------------------------------------------------------------
_INT_TYPES = frozenset({1, 2, 3, 4, 5, 6, 8, 9})  # serial types of integers (8, 9: the constants 0 and 1)


def is_sqlite_refusal(exc: BaseException) -> bool:
    """sqlite's verdict that a file is damaged ("database disk image is malformed", "file is not a database")."""
    text = f"{type(exc).__name__} {exc}".lower()
    return any(s in text for s in ("malformed", "not a database", "corrupterror", "notadberror"))


def has_sqlite_header(path: Path) -> bool:
    try:
        with path.open("rb") as bio:
            return bio.read(len(SQLITE_MAGIC)) == SQLITE_MAGIC
    except OSError:
        return False


def rosbag2_metadata(directory: Path) -> dict[str, Any]:
    """``rosbag2_bagfile_information`` of a bag directory's metadata.yaml ({} if it is missing or unreadable)."""
    meta = directory / "metadata.yaml"
    if not meta.is_file():
        return {}
    try:
        import yaml

        info = yaml.safe_load(meta.read_text(encoding="utf-8", errors="replace"))["rosbag2_bagfile_information"]
    except Exception:  # a damaged metadata.yaml is only a missing fallback here
        return {}
    return info if isinstance(info, dict) else {}


def metadata_topics(meta: dict[str, Any]) -> list[tuple[str, str, int | None]]:
    """(name, type, message count) of each topic a rosbag2 metadata.yaml lists."""
    listed: list[tuple[str, str, int | None]] = []
    for entry in meta.get("topics_with_message_count") or []:
        try:
            topic = entry["topic_metadata"]
            count = entry.get("message_count")
            listed.append((str(topic["name"]), str(topic["type"]), count if isinstance(count, int) and count >= 0 else None))
        except (KeyError, TypeError, AttributeError):
            continue
    return listed


def db3_files(path: Path) -> list[Path]:
    """The .db3 storage files of a bag: the file itself, or a directory's in metadata.yaml order."""
    if not path.is_dir():
        return [path] if path.suffix == ".db3" else []
    listed = rosbag2_metadata(path).get("relative_file_paths") or []
    files = [path / str(name) for name in listed if str(name).endswith(".db3") and (path / str(name)).is_file()]
    return files or sorted(path.glob("*.db3"))


def db3_unattributed_rows(path: Path) -> int:
    """Rows of the messages table whose topic_id names no topic (a damaged cell reads NULL or another
    number): sqlite still counts them, no reader can give them a topic. 0 where sqlite cannot tell."""
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            # typeof, not IS NULL: the columns are declared NOT NULL, so sqlite takes `IS NULL` for false whatever a
            # damaged cell holds; and `NOT IN` a list holding NULL is never true
            row = db.execute(
                "SELECT count(*) FROM messages WHERE typeof(topic_id) != 'integer' "
                "OR topic_id NOT IN (SELECT id FROM topics WHERE typeof(id) = 'integer')"
            ).fetchone()
    except Exception:  # sqlite refuses the file: the page reader counts what it can
        return 0
    return int(row[0]) if row and isinstance(row[0], int) else 0


def db3_topic_rows(path: Path) -> list[tuple[str, str, int]]:
    """(name, type, rows of the messages table) of each topic of a .db3, as sqlite reads them ([] where it cannot)."""
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True)) as db:
            rows = db.execute("SELECT t.name, t.type, count(m.topic_id) FROM topics t JOIN messages m ON m.topic_id = t.id GROUP BY t.id").fetchall()
    except Exception:
        return []
    return [(str(name), str(msgtype), int(n)) for name, msgtype, n in rows if isinstance(n, int)]


def _topic_row(cell: Cell, values: list[Value]) -> tuple[str, str] | None:
    """(name, type) of a rosbag2 ``topics`` row: id, name, type, serialization_format[, offered_qos_profiles[, hash]]."""
    if not 4 <= len(values) <= 6 or values[0] not in (None, cell.rowid) or not all(isinstance(v, str) for v in values[1:]):
        return None
    name, msgtype = values[1], values[2]
    assert isinstance(name, str) and isinstance(msgtype, str)
    if not name.startswith("/") or "/" not in msgtype:  # message_definitions rows start with a type, not a topic
        return None
    return name, msgtype


def _is_message_row(types: tuple[int, ...]) -> bool:
    """The shape of a rosbag2 ``messages`` row: id (NULL: the rowid), topic_id INTEGER, timestamp INTEGER, data BLOB."""
    return (
        len(types) == 4
        and (types[0] == 0 or types[0] in _INT_TYPES)
        and types[1] in _INT_TYPES
        and types[2] in _INT_TYPES
        and types[3] >= 12
        and types[3] % 2 == 0
    )


@dataclass
class _Db3Pages:
    """What the pages of one .db3 still hold."""

    path: Path
    pages: SqliteFile | None = None
    topics: dict[int, tuple[str, str]] = field(default_factory=dict)
    rows: list[tuple[int, int, int, Cell]] = field(default_factory=list)  # timestamp, rowid, topic_id, cell
    unnamed: int = 0  # message rows whose topic is lost with the topics table
    problem: str | None = None  # why the pages cannot be read at all
    mm: mmap.mmap | None = None

    def where(self, why: str) -> str:
        """Where the file breaks: the byte it ends at, or (not cut short) what sqlite said."""
        pages = self.pages
        if pages is None:
            return "byte 0"
        if not pages.truncated:
            return f"file of {pages.size} bytes, not cut short; sqlite: {why}"
        expected = pages.expected_size
        of = f" of {expected}" if expected and expected > pages.size else ""
        whole, part = divmod(pages.size, pages.page_size)
        return f"file ends at byte {pages.size}{of}, " + (f"inside page {whole + 1}" if part else f"after page {whole}")


def _read_db3(path: Path) -> _Db3Pages:
    found = _Db3Pages(path)
    try:
        with path.open("rb") as bio:
            found.mm = mmap.mmap(bio.fileno(), 0, access=mmap.ACCESS_READ)
        found.pages = SqliteFile(found.mm)
    except (OSError, ValueError) as exc:  # an empty file cannot be mapped; PageError is a ValueError
        found.problem = str(exc) if isinstance(exc, PageError) else f"cannot read it: {exc}"
        return found
    pages = found.pages
    seen: set[int] = set()  # a rowid twice (a stale page) counts once
    for cell in pages.cells():
        parsed = pages.record_types(cell)
        if parsed is None:
            continue
        types = parsed[0]
        if _is_message_row(types):
            values = pages.record(cell, 3)
            if values is not None and cell.rowid not in seen:
                seen.add(cell.rowid)
                topic_id, stamp = values[1], values[2]
                assert isinstance(topic_id, int) and isinstance(stamp, int)
                found.rows.append((stamp, cell.rowid, topic_id, cell))
        elif 4 <= len(types) <= 6 and cell.rowid not in found.topics:
            values = pages.record(cell)
            topic = _topic_row(cell, values) if values is not None else None
            if topic is not None:
                found.topics[cell.rowid] = topic
    return found


def _name_lost_topics(found: _Db3Pages, listed: list[tuple[str, str, int | None]]) -> None:
    """Give a topic id whose topics row is lost the one name metadata.yaml leaves for it, if there is exactly one."""
    unknown = {topic_id for _, _, topic_id, _ in found.rows} - set(found.topics)
    known = {name for name, _ in found.topics.values()}
    left = [(name, msgtype) for name, msgtype, count in listed if name not in known and count != 0]
    if len(unknown) == 1 and len(left) == 1:
        found.topics[unknown.pop()] = left[0]
    found.unnamed = sum(1 for _, _, topic_id, _ in found.rows if topic_id not in found.topics)


class Db3Recovery:
    """The rows a rosbag2's .db3 files still hold, read from their pages without sqlite; ``close()`` when done.

    Raises :class:`BagError` if no file holds a single rosbag2 row. :meth:`messages`
    yields the wanted messages in time order, then raises the :class:`BagError` that
    names the (first) broken file and the byte where it ends.
    """

    def __init__(self, path: Path, files: list[Path], why: str, keep: Callable[[str, str], bool]) -> None:
        self.path = path
        self.why = why
        self.keep = keep
        meta = rosbag2_metadata(path) if path.is_dir() else {}
        listed = metadata_topics(meta)
        self.compression = str(meta.get("compression_format") or "") if str(meta.get("compression_mode") or "").lower() == "message" else ""
        self.files = [_read_db3(f) for f in files]
        for found in self.files:
            _name_lost_topics(found, listed)
        if not any(found.rows or found.topics for found in self.files):
            self.close()
            problems = "; ".join(f"{f.path.name}: {f.problem}" if len(self.files) > 1 else f.problem for f in self.files if f.problem)
            raise BagError(path, f"cannot open: {why}; {problems or 'its pages hold no rosbag2 topics or messages either'}")
        if not any(found.topics for found in self.files):  # messages without a single topic name: nothing to give
            self.close()
            first = next(f for f in self.files if f.rows)
            where = first.where(why)
            raise BagError(
                first.path,
                f"truncated or damaged: its topics table is lost and metadata.yaml cannot name its topics unambiguously; {len(first.rows)} messages unusable",
                where,
            )
        stamps = [stamp for found in self.files for stamp, *_ in found.rows]
        self.start_ns = min(stamps) if stamps else None
        self.end_ns = max(stamps) if stamps else None

    @property
    def topics(self) -> list[tuple[str, str]]:
        """(name, type) of every topic whose topics row (or metadata.yaml) survived."""
        return sorted({topic for found in self.files for topic in found.topics.values()})

    @property
    def unnamed(self) -> int:
        return sum(found.unnamed for found in self.files)

    def messages(self) -> Iterator[RecoveredMessage]:
        wanted = []
        for index, found in enumerate(self.files):
            for stamp, rowid, topic_id, cell in found.rows:
                topic = found.topics.get(topic_id)
                if topic is not None and self.keep(*topic):
                    wanted.append((stamp, index, rowid, topic, cell))
        wanted.sort(key=lambda w: w[:3])  # time order; equal times in file and insertion order, as sqlite gives them
        recovered = lost = 0
        for stamp, index, _rowid, (name, msgtype), cell in wanted:
            pages = self.files[index].pages
            assert pages is not None
            values = pages.record(cell)
            data = values[3] if values is not None else None
            if isinstance(data, bytes) and self.compression:
                try:
                    data = mcap_decompress(data, self.compression, 0)
                except Exception:  # a damaged compressed message
                    data = None
            if not isinstance(data, bytes):
                lost += 1  # its overflow pages lie past the cut
                continue
            recovered += 1
            yield name, msgtype, stamp, data
        raise self._error(recovered, lost)

    def _error(self, recovered: int, lost: int) -> BagError:
        broken = [f for f in self.files if f.problem or f.pages is None or f.pages.truncated or f.unnamed] or self.files
        first = broken[0]
        if first.problem:
            reason = f"truncated or damaged: {first.problem}"
        elif first.unnamed and not first.topics:
            reason = f"truncated or damaged: its topics table is lost, so its {first.unnamed} messages cannot be given a topic"
            if recovered:
                reason += f" ({recovered} messages recovered from the other files)"
        else:
            reason = f"truncated or damaged: sqlite cannot read it; {recovered} messages recovered from its pages"
            if lost:
                reason += f", {lost} more lost with their overflow pages"
            if first.unnamed:
                reason += f", {first.unnamed} messages of topics lost with the topics table skipped"
        if len(broken) > 1:
            reason += f" ({len(broken) - 1} more broken files in the bag)"
        return BagError(first.path, reason, first.where(self.why))

    def close(self) -> None:
        for found in self.files:
            if found.mm is not None:
                found.mm.close()
                found.mm = None
