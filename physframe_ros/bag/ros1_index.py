"""Read a ROS 1 bag message by message through its index, skipping whatever is damaged.

The index at the end of a v2.0 bag lists every chunk (its position and time span);
after each chunk come its index data records, the time and offset of each of its
messages. With them each message is read on its own, so a damaged record or a chunk
that does not decompress costs only its own messages, where ``rosbags`` stops at
the first damaged chunk.
"""

from __future__ import annotations

import bz2
import contextlib
import struct
from collections import Counter
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from .chunks import ChunkMessages, merge_in_time
from .recovery import RecoveredMessage, ros1_connection, ros1_header, ros1_record

_MAGIC = b"#ROSBAG V2.0\n"
_U32 = struct.Struct("<I").unpack_from
_U64 = struct.Struct("<Q").unpack_from
_TIME = struct.Struct("<II").unpack_from


class Ros1IndexUnusable(Exception):
    """The bag header or index cannot be read: the file has to be walked from the front."""


def _ns(raw: bytes) -> int:
    sec, nsec = _TIME(raw)
    return sec * 1_000_000_000 + nsec


def _decompress(compression: bytes, data: bytes) -> bytes:
    if compression == b"bz2":
        return bz2.decompress(data)
    if compression == b"lz4":
        import lz4.frame  # type: ignore[import-untyped]

        return bytes(lz4.frame.decompress(data))
    if compression != b"none":
        raise ValueError(f"unknown chunk compression {compression!r}")
    return data


class Ros1Index:
    """The index of one ROS 1 bag: its connections and the position and start time of each chunk."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.connections: dict[int, tuple[str, str]] = {}
        self.chunks: list[tuple[int, int]] = []  # (start time ns, position of the chunk record)
        self.counts: Counter[int] = Counter()  # messages per connection id, as the chunk infos count them
        self.first_chunk: dict[int, int] = {}  # connection id -> position of the first chunk the chunk infos put it in
        self.damaged_infos = False  # a chunk info record of the index could not be read
        try:
            with path.open("rb") as bio:
                if bio.read(len(_MAGIC)) != _MAGIC:
                    raise Ros1IndexUnusable("bad magic")
                bio.seek(_index_position(bio))
                while (record := ros1_record(bio)) is not None:
                    header, data, missing = record
                    if missing:
                        raise Ros1IndexUnusable("the index is cut short")
                    if header.get("op") == b"\x07":
                        ros1_connection(header, data, self.connections)
                    elif header.get("op") == b"\x06":
                        position = _field(header, "chunk_pos", 8)
                        if position is None:
                            self.damaged_infos = True  # the chunks are found by walking them (below)
                            continue
                        start = header.get("start_time", b"")
                        self.chunks.append((_ns(start) if len(start) == 8 else 0, position))
                        for i in range(0, len(data) - len(data) % 8, 8):
                            conn = _U32(data, i)[0]
                            self.counts[conn] += _U32(data, i + 4)[0]
                            self.first_chunk.setdefault(conn, position)
                    else:
                        self.damaged_infos = True  # a record of the index whose op field is damaged
                if self.damaged_infos:
                    self._walk_chunks(bio)
        except Ros1IndexUnusable:
            raise
        except Exception as exc:  # lengths, missing fields, struct: the index is damaged
            raise Ros1IndexUnusable(f"{type(exc).__name__}: {exc}") from None
        if not self.chunks:
            raise Ros1IndexUnusable("no chunk in the index")

    def _walk_chunks(self, bio: BinaryIO) -> None:
        """With a chunk info damaged, the chunks as the records after the bag header hold them: each chunk
        and its index data records (connection, and the time of each message: the chunk's start)."""
        known = {position for _start, position in self.chunks}
        bio.seek(len(_MAGIC))
        first = ros1_record(bio)  # the bag header record (padded: the first chunk follows it)
        bio.seek(bio.tell() if first is not None and first[0].get("op") == b"\x03" else len(_MAGIC) + _HEADER_RECORD_SIZE)
        chunk_at: int | None = None
        for at, header, data in _chunks_then_index(bio):
            op = header.get("op")
            if op == b"\x05":
                chunk_at = at
            elif op == b"\x04" and chunk_at is not None:
                conn = _field(header, "conn", 4)
                if conn is not None:
                    self.first_chunk.setdefault(conn, chunk_at)
                if chunk_at not in known and len(data) >= 8:
                    known.add(chunk_at)
                    self.chunks.append((_ns(data[:8]), chunk_at))
            else:
                break  # the index: every chunk is behind
        self.chunks.sort()

    def indexed_counts(self) -> Counter[int]:
        """Messages per connection id as the index data records after each chunk list them: a second
        source beside the chunk infos, read without reading the chunks themselves."""
        counts: Counter[int] = Counter()
        with self.path.open("rb") as bio:
            size = bio.seek(0, 2)
            for _start, position in self.chunks:
                try:
                    bio.seek(position)
                    bio.seek(_U32(bio.read(4))[0], 1)  # past the chunk's header
                    data_size = _U32(bio.read(4))[0]
                    if bio.tell() + data_size > size:
                        continue
                    bio.seek(data_size, 1)  # past its data
                    while (record := ros1_record(bio)) is not None and record[0].get("op") == b"\x04":
                        conn, count = _field(record[0], "conn", 4), _field(record[0], "count", 4)
                        if conn is not None:  # 12 bytes per message: the data says how many when the count field lies
                            counts[conn] += max(count or 0, len(record[1]) // 12)
                except Exception:  # damaged records after this chunk: what was counted stands
                    continue
        return counts

    def hidden(self, wanted: Callable[[str, str], bool], maybe: Callable[[str, str], bool]) -> dict[int, tuple[str, str, bool]]:
        """Connections whose record in the index disagrees with the copy at the start of their first chunk
        (a writer puts one in each) so that only the chunk's copy is ``wanted``: a damaged topic or type
        there hides all their messages from a reader of the index. Where that chunk, or its copy, is damaged
        too, a record that is ``maybe`` wanted (TF by its topic or by its type alone) counts: its messages are
        not read as TF whatever it named (an intact bag always has the copy). Connection id -> (topic, type, whether the chunk's copy names them)."""
        out: dict[int, tuple[str, str, bool]] = {}
        copies: dict[int, dict[int, tuple[str, str]] | None] = {}  # chunk position -> its connections (None: unreadable)
        with self.path.open("rb") as bio:
            for conn, named in self.connections.items():
                position = self.first_chunk.get(conn)
                if position is None or wanted(*named):
                    continue
                if position not in copies:
                    try:
                        copies[position] = self._chunk_connections(bio, position)
                    except Exception:  # the chunk is damaged too: nothing to compare with, and its messages are lost
                        copies[position] = None
                found = copies[position]
                copy = found.get(conn) if found is not None else None
                if copy is not None and copy != named and wanted(*copy):
                    out[conn] = (*copy, True)
                elif (copy is None or copy != named) and maybe(*named):
                    out[conn] = (*named, False)  # the chunk, or its copy of the record, is damaged too (they disagree)
        return out

    @staticmethod
    def _chunk_connections(bio: BinaryIO, position: int) -> dict[int, tuple[str, str]]:
        """The connection records inside the chunk at ``position``, each found by its op field rather than by
        walking the chunk from its start: a damaged length before it does not hide it."""
        bio.seek(position)
        record = ros1_record(bio)
        if record is None or record[0].get("op") != b"\x05" or record[2]:
            raise ValueError("no whole chunk record here")
        data = _decompress(record[0].get("compression", b"none"), record[1])
        found: dict[int, tuple[str, str]] = {}
        at = data.find(_CONNECTION_OP)
        while at >= 0:
            with contextlib.suppress(Exception):  # a damaged record: the copies of the others still count
                start = _record_start(data, at)
                if start is not None:
                    hlen = _U32(data, start)[0]
                    dlen = _U32(data, start + 4 + hlen)[0]
                    ros1_connection(ros1_header(data[start + 4 : start + 4 + hlen]), data[start + 8 + hlen : start + 8 + hlen + dlen], found)
            at = data.find(_CONNECTION_OP, at + 1)
        return found

    @property
    def orphans(self) -> Counter[int]:
        """Messages per connection id the chunk infos count but no connection record names."""
        return Counter({conn: n for conn, n in self.counts.items() if conn not in self.connections and n})

    def messages(self, bio: BinaryIO, position: int, unnamed: Counter[int]) -> ChunkMessages:
        """The readable messages of the chunk at ``position`` as (time, offset, message); ``unnamed``
        counts per connection id the messages whose connection record (so their topic) is lost."""
        bio.seek(position)
        record = ros1_record(bio)
        if record is None or record[0].get("op") != b"\x05" or record[2]:
            return []
        header, data, _ = record
        indexed: list[tuple[int, int, int]] = []  # (time ns, offset in the chunk's data, connection)
        try:
            while (after := ros1_record(bio)) is not None and after[0].get("op") == b"\x04":
                conn = _U32(after[0]["conn"])[0]
                raw = after[1]
                indexed += [(_ns(raw[i : i + 8]), _U32(raw, i + 8)[0], conn) for i in range(0, len(raw) - len(raw) % 12, 12)]
        except Exception:  # damaged index data records: the entries read before them stand
            pass
        try:
            data = _decompress(header.get("compression", b"none"), data)
        except Exception:  # a chunk that does not decompress, or of an unknown compression: all its messages are lost
            return []
        out = []
        for stamp, offset, conn in indexed:
            if conn not in self.connections:
                unnamed[conn] += 1
                continue
            message = self._message(data, offset, conn, stamp)
            if message is not None:
                out.append((stamp, position + offset, message))
        return out

    def _message(self, data: bytes, offset: int, conn: int, stamp: int) -> RecoveredMessage | None:
        try:
            hlen = _U32(data, offset)[0]
            header = ros1_header(data[offset + 4 : offset + 4 + hlen])
            dlen = _U32(data, offset + 4 + hlen)[0]
            start = offset + 8 + hlen
            if header.get("op") != b"\x02" or _U32(header["conn"])[0] != conn or _ns(header["time"]) != stamp or start + dlen > len(data):
                return None
        except (struct.error, KeyError, UnicodeDecodeError):
            return None
        named = self.connections.get(conn)
        return None if named is None else (named[0], named[1], stamp, data[start : start + dlen])


def read_ros1_indexed(path: Path, unnamed: Counter[int]) -> Iterator[RecoveredMessage]:
    """Every readable message of the bag in time order; chunks are read only when their turn comes.
    ``unnamed`` counts the messages of connections whose topic is lost (see :meth:`Ros1Index.messages`)."""
    unnamed.clear()
    index = Ros1Index(path)  # Ros1IndexUnusable: the caller keeps what it had
    with path.open("rb") as bio:

        def reader(position: int) -> Callable[[], ChunkMessages]:
            def read() -> ChunkMessages:
                try:
                    return index.messages(bio, position, unnamed)
                except Exception:  # a chunk record or its index records damaged beyond reading: the chunk is lost
                    return []

            return read

        yield from merge_in_time([(start, reader(position)) for start, position in index.chunks])


_DATA_OPS = (b"\x02", b"\x03", b"\x04", b"\x05")  # message data, bag header, index data, chunk: never in the index
_HEADER_RECORD_SIZE = 4096  # writers pad the bag header record to this many bytes, so the first chunk follows it there


def _index_position(bio: BinaryIO) -> int:
    """Where the index starts: the bag header says so; when the header is damaged, the first connection or chunk
    info record met walking the chunks and their index data records from the first chunk is the index."""
    start = bio.tell()
    try:
        first = ros1_record(bio)
        after = bio.tell() if first is not None else start + _HEADER_RECORD_SIZE
        if first is not None and first[0].get("op") == b"\x03" and len(first[0].get("index_pos", b"")) == 8:
            said = int(_U64(first[0]["index_pos"])[0])
            if said < bio.seek(0, 2):  # and it holds a connection or chunk info record: a damaged position does not
                bio.seek(said)
                record = ros1_record(bio)
                if record is not None and record[0].get("op") not in _DATA_OPS:  # a connection or chunk info, maybe damaged
                    return said
    except Exception:  # the header record's own lengths are damaged
        after = start + _HEADER_RECORD_SIZE
    for position in dict.fromkeys((after, start + _HEADER_RECORD_SIZE)):
        bio.seek(position)
        try:
            for at, header, _data in _chunks_then_index(bio):
                if header.get("op") not in (b"\x05", b"\x04"):
                    return at  # past the chunks and their index data: the index (its first record maybe damaged)
        except Exception:
            continue
    raise Ros1IndexUnusable("no bag header record, and no index after the chunks")


def _chunks_then_index(bio: BinaryIO) -> Iterator[tuple[int, dict[str, bytes], bytes]]:
    """(position, header fields, data) of the whole records from where ``bio`` stands: the chunks and their
    index data records, then the first record of anything else (the index), where the walk ends."""
    while True:
        at = bio.tell()
        record = ros1_record(bio)
        if record is None or record[2]:
            return
        yield at, record[0], record[1]
        if record[0].get("op") not in (b"\x05", b"\x04"):
            return


def _field(header: dict[str, bytes], name: str, size: int) -> int | None:
    """An integer field of a record header; when a damaged length before it swallowed it into another
    field's value, found there by its name."""
    raw = header.get(name)
    if raw is None:
        key = name.encode() + b"="
        raw = next((v[v.index(key) + len(key) :] for v in header.values() if key in v), None)
    if raw is None or len(raw) < size:
        return None
    return int.from_bytes(raw[:size], "little")


_CONNECTION_OP = b"\x04\x00\x00\x00op=\x07"  # the op field of a connection record header
_FIELDS_BEFORE_OP = 300  # writers put op first (rosbags) or after conn (rosbag's sorted map); topic names are short


def _record_start(data: bytes, op_at: int) -> int | None:
    """Where the record whose header holds the op field at ``op_at`` starts: the header length before it
    must cover a run of well-formed fields that includes that op field."""
    for start in range(op_at - 4, max(-1, op_at - 4 - _FIELDS_BEFORE_OP), -1):
        end = start + 4 + _U32(data, start)[0]
        if not op_at < end <= len(data) - 4:
            continue
        pos, hit = start + 4, False
        while pos + 4 <= end:
            hit = hit or pos == op_at
            size = _U32(data, pos)[0]
            if size == 0 or pos + 4 + size > end or b"=" not in data[pos + 4 : pos + 4 + size]:
                break
            pos += 4 + size
        if pos == end and hit:
            return start
    return None
