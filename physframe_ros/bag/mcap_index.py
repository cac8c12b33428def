"""Read an MCAP file message by message through its indexes, skipping whatever is damaged.

``rosbags`` reads a chunk record by record and stops quietly at the first damaged one,
so zeroed bytes early in a chunk hide every message after them. The summary section
at the end of the file lists every chunk (its offset, compression and the offsets of
its message indexes), and each chunk's message index gives the offset of each message
inside the chunk: with them each message is read on its own, and a damaged one (or a
chunk that does not decompress) costs only itself.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Callable, Iterator

from .chunks import ChunkMessages, merge_in_time
from .recovery import RecoveredMessage, mcap_decompress

_MAGIC = b"\x89MCAP0\r\n"
_U16 = struct.Struct("<H").unpack_from
_U32 = struct.Struct("<I").unpack_from
_U64 = struct.Struct("<Q").unpack_from
_FOOTER = 1 + 8 + 20  # opcode, length, summary_start, summary_offset_start, crc
_DATA_END = b"\x0f" + (4).to_bytes(8, "little")  # a DataEnd record's opcode and length (its crc follows)
_SUMMARY_SEARCH = 1 << 24  # how far before the footer a displaced summary is looked for


class IndexUnusable(Exception):
    """The summary section or footer cannot be read: the file has to be walked from the front."""


@dataclass(frozen=True)
class _Chunk:
    start: int  # message_start_time (ns)
    offset: int  # of the chunk record in the file
    length: int
    index_offsets: tuple[tuple[int, int], ...]  # (channel id, offset of its message index record)
    compression: str
    uncompressed_size: int


def _string(data: bytes, pos: int) -> tuple[str, int]:
    size = _U32(data, pos)[0]
    end = pos + 4 + size
    if end > len(data):
        raise IndexUnusable("string runs past its record")
    return data[pos + 4 : end].decode(), end


class McapIndex:
    """The summary of one MCAP file: its channels and chunks."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.channels: dict[int, tuple[str, str]] = {}  # id -> (topic, schema name)
        self.chunks: list[_Chunk] = []
        self.counts: dict[int, int] = {}  # channel id -> messages, as the Statistics record counts them
        self._indexed: dict[int, int] | None = None  # the same, as the message indexes count them (read on demand)
        with path.open("rb") as bio:
            size = self.size = bio.seek(0, 2)
            if size < 8 + _FOOTER + 8:
                raise IndexUnusable("too short for a footer")
            bio.seek(size - 8 - _FOOTER)
            footer = bio.read(_FOOTER + 8)
            if footer[-8:] != _MAGIC or footer[0] != 0x02:
                raise IndexUnusable("no footer")
            start = _U64(footer, 9)[0]
            end = size - 8 - _FOOTER
            try:
                if not 8 <= start < end:
                    raise IndexUnusable("no summary section")
                bio.seek(start)
                self._read_summary(bio.read(end - start))
            except IndexUnusable:
                # bytes added or cut before the summary shift it away from where the footer says: writers end
                # the data section with a DataEnd record, and the summary follows it up to the footer
                bio.seek(max(0, end - _SUMMARY_SEARCH))
                tail = bio.read(end - max(0, end - _SUMMARY_SEARCH))
                at = tail.rfind(_DATA_END)
                if at < 0:
                    raise
                self.channels, self.chunks, self.counts = {}, [], {}
                self._read_summary(tail[at + len(_DATA_END) + 4 :])

    def _read_summary(self, data: bytes) -> None:
        schemas: dict[int, str] = {}
        try:
            # a record running past the summary (a damaged length) ends the walk: the records before it stand
            for op, body in _mcap_records(data):
                try:
                    _schema_or_channel(op, body, schemas, self.channels)
                except (struct.error, UnicodeDecodeError, IndexUnusable):
                    # one damaged Schema or Channel record: its channel goes unnamed and hidden() compares the
                    # Statistics counts with the chunk's copy, instead of the whole summary being given up
                    continue
                if op == 0x08:
                    self.chunks.append(self._chunk_index(body))
                elif op == 0x0B:
                    self.counts = _channel_counts(body)
        except (struct.error, UnicodeDecodeError) as exc:
            raise IndexUnusable(f"damaged summary: {exc}") from None
        if not self.chunks:
            raise IndexUnusable("no chunk index")

    @staticmethod
    def _chunk_index(body: bytes) -> _Chunk:
        start, _end, offset, length = struct.unpack_from("<4Q", body, 0)
        map_size = _U32(body, 32)[0]
        entries = tuple(struct.unpack_from("<HQ", body, 36 + i) for i in range(0, map_size, 10))
        pos = 36 + map_size + 8  # past message_index_length
        compression, pos = _string(body, pos)
        _compressed, uncompressed = struct.unpack_from("<QQ", body, pos)
        return _Chunk(start, offset, length, entries, compression, uncompressed)

    def hidden(self, wanted: Callable[[str, str], bool], maybe: Callable[[str, str], bool]) -> dict[int, tuple[str, str, bool]]:
        """Channels the Statistics record counts whose summary Channel record is missing or not ``wanted``,
        compared with the copy the writer put in the first chunk that holds their messages: a damaged summary
        record hides all their messages from a reader of the summary. Where that chunk, or its copy, is
        damaged too, a channel with no summary record, or one that is ``maybe`` wanted (TF by topic or by
        schema alone), counts: its messages are not read as TF whatever it named (an intact file has the copy).
        So does one whose two copies disagree and are both damaged (the ROS 1 reader's rule), and a channel
        the message indexes count but no record names (a damaged channel id).
        Channel id -> (topic, schema, whether the chunk's copy names them); ("", "", False) for a channel no
        record names."""
        out: dict[int, tuple[str, str, bool]] = {}
        copies: dict[int, dict[int, tuple[str, str]] | None] = {}  # chunk offset -> its channels (None: unreadable)
        indexed = self.indexed_counts()
        with self.path.open("rb") as bio:
            for cid in sorted(self.counts.keys() | indexed.keys()):
                n = max(self.counts.get(cid, 0), indexed.get(cid, 0))
                named = self.channels.get(cid)
                # a record with neither a TF topic nor a TF schema is another channel, not one damage away from TF
                if not n or (named is not None and (wanted(*named) or not maybe(*named))):
                    continue
                chunk = next((c for c in self.chunks if any(ch == cid for ch, _ in c.index_offsets)), None)
                if chunk is not None and chunk.offset not in copies:
                    records = self._records(bio, chunk)
                    copies[chunk.offset] = _chunk_channels(records) if records is not None else None
                found = copies.get(chunk.offset) if chunk is not None else None  # None: no chunk, or unreadable
                copy = found.get(cid) if found is not None else None
                if copy is not None and copy != named and wanted(*copy):
                    out[cid] = (*copy, True)
                elif copy is None:  # no record names it, or the chunk or its copy is damaged too
                    out[cid] = (*(named or ("", "")), False)
                elif copy != named and (named is not None or maybe(*copy)):
                    # the two copies disagree, both damaged (or the summary's lost and the chunk's damaged): one
                    # is TF by topic or schema, so the channel may be; named by the fields that make TF if any
                    pair = (named or copy, copy)
                    merged = next((m for m in ((pair[0][0], pair[1][1]), (pair[1][0], pair[0][1])) if wanted(*m)), pair[0])
                    out[cid] = (*merged, False)
        return out

    def indexed_counts(self) -> dict[int, int]:
        """Messages per channel as the chunks' MessageIndex records list them: a second count beside the
        Statistics record, read without decompressing any chunk (once: :meth:`hidden` and the reader both ask)."""
        if self._indexed is None:
            self._indexed = self._read_indexed_counts()
        return self._indexed

    def _read_indexed_counts(self) -> dict[int, int]:
        counts: dict[int, int] = {}
        with self.path.open("rb") as bio:
            for chunk in self.chunks:
                for channel, at in chunk.index_offsets:
                    try:
                        bio.seek(at)
                        head = bio.read(9 + 6)
                        if len(head) < 15 or head[0] != 0x07:
                            continue
                        entries = min(_U32(head, 11)[0], _U64(head, 1)[0] - 6) // 16
                        counts[channel] = counts.get(channel, 0) + max(0, entries)
                    except (OSError, OverflowError, ValueError, struct.error):
                        continue
        return counts

    def messages(self, bio: BinaryIO, chunk: _Chunk) -> list[tuple[int, int, RecoveredMessage]]:
        """The readable messages of one chunk as (log time, offset, message); the caller counts what is missing."""
        indexed: list[tuple[int, int, int]] = []  # (log time, offset in the chunk's records, channel)
        for channel, at in chunk.index_offsets:
            bio.seek(at)
            head = bio.read(9)
            if len(head) < 9 or head[0] != 0x07:
                continue  # a damaged message index: its messages count as lost against the bag's totals
            body = bio.read(min(_U64(head, 1)[0], self.size - at))  # a damaged length is never allocated
            if len(body) < 6:
                continue
            size = min(_U32(body, 2)[0], len(body) - 6)
            indexed += [(*struct.unpack_from("<QQ", body, 6 + i), channel) for i in range(0, size - size % 16, 16)]
        if not indexed:
            return []
        records = self._records(bio, chunk)
        if records is None:
            return []
        out = []
        for stamp, offset, channel in indexed:
            message = self._message(records, offset, channel, stamp)
            if message is not None:
                out.append((stamp, chunk.offset + offset, message))
        return out

    def _records(self, bio: BinaryIO, chunk: _Chunk) -> bytes | None:
        bio.seek(chunk.offset)
        raw = bio.read(max(0, min(chunk.length, self.size - chunk.offset)))
        try:
            if len(raw) < 9 + 36 or raw[0] != 0x06:
                return None
            clen = _U32(raw, 9 + 28)[0]
            pos = 9 + 32 + clen
            rlen = _U64(raw, pos)[0]
            data = raw[pos + 8 : pos + 8 + rlen]
            return mcap_decompress(data, chunk.compression, chunk.uncompressed_size)
        except Exception:  # a chunk that does not decompress: all its messages are lost
            return None

    def _message(self, records: bytes, offset: int, channel: int, stamp: int) -> RecoveredMessage | None:
        if offset + 9 + 22 > len(records) or records[offset] != 0x05:
            return None
        length = _U64(records, offset + 1)[0]
        start = offset + 9
        if length < 22 or start + length > len(records):
            return None
        cid, _seq, log_time = struct.unpack_from("<HIQ", records, start)
        named = self.channels.get(cid)
        if cid != channel or log_time != stamp or named is None:
            return None
        return named[0], named[1], log_time, records[start + 22 : start + length]


def _channel_counts(body: bytes) -> dict[int, int]:
    """channel_message_counts of a Statistics record (u64 messages, u16 schemas, 4 x u32, 2 x u64 times, then the map)."""
    pos = 8 + 2 + 16 + 16
    size = _U32(body, pos)[0]
    end = min(pos + 4 + size, len(body))
    return {cid: n for cid, n in (struct.unpack_from("<HQ", body, i) for i in range(pos + 4, end - 9, 10))}


def _mcap_records(data: bytes) -> Iterator[tuple[int, bytes]]:
    """(opcode, body) of each record in ``data``, up to one whose length runs past the end (damaged: the
    records before it stand)."""
    pos = 0
    while pos + 9 <= len(data):
        op, length = data[pos], _U64(data, pos + 1)[0]
        body = data[pos + 9 : pos + 9 + length]
        if len(body) != length:
            return
        pos += 9 + length
        yield op, body


def _schema_or_channel(op: int, body: bytes, schemas: dict[int, str], channels: dict[int, tuple[str, str]]) -> None:
    """A Schema record (its name by id) or a Channel record (id -> topic and its schema's name)."""
    if op == 0x03:
        schemas[_U16(body, 0)[0]] = _string(body, 2)[0]
    elif op == 0x04:
        channels[_U16(body, 0)[0]] = (_string(body, 4)[0], schemas.get(_U16(body, 2)[0], ""))


def _chunk_channels(records: bytes) -> dict[int, tuple[str, str]]:
    """The Channel records (with their Schema's name) in a chunk's records, as far as they can be walked."""
    schemas: dict[int, str] = {}
    channels: dict[int, tuple[str, str]] = {}
    try:
        for op, body in _mcap_records(records):
            _schema_or_channel(op, body, schemas, channels)
    except (struct.error, UnicodeDecodeError, IndexUnusable):  # a damaged record: the ones before it stand
        pass
    return channels


def read_indexed(files: list[Path]) -> Iterator[RecoveredMessage]:
    """Every readable message of the files in time order; chunks are decompressed only when their turn comes."""
    indexes = [McapIndex(f) for f in files]  # IndexUnusable for any: the caller keeps what it had
    handles = [f.open("rb") for f in files]

    def reader(n: int, chunk: _Chunk) -> Callable[[], ChunkMessages]:
        def read() -> ChunkMessages:
            try:
                found = indexes[n].messages(handles[n], chunk)
            except (OSError, OverflowError, ValueError, struct.error):  # offsets past any file: the chunk is lost
                return []
            return [(stamp, offset + (n << 48), message) for stamp, offset, message in found]

        return read

    try:
        yield from merge_in_time([(c.start, reader(n, c)) for n, idx in enumerate(indexes) for c in idx.chunks])
    finally:
        for h in handles:
            h.close()
