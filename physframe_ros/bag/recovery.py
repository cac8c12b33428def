"""Sequential readers for damaged bags: everything up to where a file breaks.

``rosbags`` opens an MCAP or ROS 1 bag through the index at its end, so a bag
cut short (a robot that lost power, a copy that did not finish) does not open at
all. These walkers read the records from the front instead, yield each message
as ``(topic, msgtype, log_time_ns, raw_bytes)`` in file order, and raise
:class:`BagError` with the byte offset where the file stops making sense.
"""

from __future__ import annotations

import bz2
import struct
from pathlib import Path
from typing import BinaryIO, Iterator

from .errors import BagError

RecoveredMessage = tuple[str, str, int, bytes]

_U16 = struct.Struct("<H").unpack_from
_U32 = struct.Struct("<I").unpack_from
_U64 = struct.Struct("<Q").unpack_from
_MCAP_MAGIC = b"\x89MCAP0\r\n"
_ROSBAG_MAGIC = b"#ROSBAG V2.0\n"


class _Truncated(Exception):
    """A record runs past the end of the data it is in."""


def _read(bio: BinaryIO, size: int) -> bytes:
    data = bio.read(size)
    if len(data) != size:
        raise _Truncated(f"file ends inside a record (wanted {size} bytes, {len(data)} left)")
    return data


def _mcap_decompress(data: bytes, compression: str, size: int) -> bytes:
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


def scan_mcap(path: Path) -> Iterator[RecoveredMessage]:
    """Walk an MCAP file's records from the start, into chunks, without its summary section."""
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
                body = bio.read(length)
                cut = len(body) < length
                if op[0] == 0x06:  # chunk: start, end, uncompressed size, crc, compression, records
                    clen = _U32(body, 28)[0]
                    compression = body[32 : 32 + clen].decode()
                    pos = 32 + clen
                    rlen = _U64(body, pos)[0]
                    if cut and compression:
                        raise _Truncated(f"file ends inside a {compression}-compressed chunk")
                    # an uncompressed chunk cut short still holds whole records up to the cut
                    records = _mcap_decompress(body[pos + 8 : pos + 8 + rlen], compression, _U64(body, 16)[0])
                    yield from _mcap_records(records, schemas, channels)
                elif op[0] == 0x02 and not cut:  # footer: the file is complete after all
                    return
                elif not cut:
                    yield from _mcap_records(op + struct.pack("<Q", length) + body, schemas, channels)
                if cut:
                    raise _Truncated(f"file ends inside a record (wanted {length} bytes, {len(body)} left)")
        except (_Truncated, struct.error, ValueError, OSError) as exc:
            raise BagError(path, f"truncated or damaged: {exc or type(exc).__name__}", f"record at byte {offset}") from None


def _mcap_records(data: bytes, schemas: dict[int, str], channels: dict[int, tuple[str, str]]) -> Iterator[RecoveredMessage]:
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
        elif op == 0x03:  # schema: id u16, name string, ...
            size = _U32(data, start + 2)[0]
            schemas[_U16(data, start)[0]] = data[start + 6 : start + 6 + size].decode()
        elif op == 0x04:  # channel: id u16, schema id u16, topic string, ...
            size = _U32(data, start + 4)[0]
            topic = data[start + 8 : start + 8 + size].decode()
            channels[_U16(data, start)[0]] = (topic, schemas.get(_U16(data, start + 2)[0], ""))


def _ros1_header(data: bytes) -> dict[str, bytes]:
    fields: dict[str, bytes] = {}
    pos = 0
    while pos + 4 <= len(data):
        size = _U32(data, pos)[0]
        name, _, value = data[pos + 4 : pos + 4 + size].partition(b"=")
        fields[name.decode()] = value
        pos += 4 + size
    return fields


def _ros1_record(bio: BinaryIO) -> tuple[dict[str, bytes], bytes, int] | None:
    """(header fields, data, bytes of data missing because the file ends inside it)."""
    raw = bio.read(4)
    if not raw:
        return None
    if len(raw) != 4:
        raise _Truncated("file ends inside a record header length")
    header = _ros1_header(_read(bio, _U32(raw)[0]))
    size = _U32(_read(bio, 4))[0]
    data = bio.read(size)
    return header, data, size - len(data)


def scan_rosbag1(path: Path) -> Iterator[RecoveredMessage]:
    """Walk a ROS 1 bag (v2.0) record by record, into its chunks, ignoring the index."""
    connections: dict[int, tuple[str, str]] = {}
    with path.open("rb") as bio:
        if bio.read(len(_ROSBAG_MAGIC)) != _ROSBAG_MAGIC:
            raise BagError(path, "not a ROS 1 bag v2.0 (bad magic line)", "byte 0")
        offset = len(_ROSBAG_MAGIC)
        try:
            while True:
                offset = bio.tell()
                record = _ros1_record(bio)
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
                    _ros1_connection(header, data, connections)
        except (_Truncated, struct.error, ValueError, OSError, EOFError) as exc:
            raise BagError(path, f"truncated or damaged: {exc or type(exc).__name__}", f"record at byte {offset}") from None


def _ros1_chunk(data: bytes, connections: dict[int, tuple[str, str]]) -> Iterator[RecoveredMessage]:
    pos, end = 0, len(data)
    while pos < end:
        hlen = _U32(data, pos)[0]
        if pos + 8 + hlen > end:
            raise _Truncated("record runs past the end of its chunk")
        header = _ros1_header(data[pos + 4 : pos + 4 + hlen])
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
            _ros1_connection(header, body, connections)


def _ros1_connection(header: dict[str, bytes], data: bytes, connections: dict[int, tuple[str, str]]) -> None:
    details = _ros1_header(data)
    connections[_U32(header["conn"])[0]] = (header["topic"].decode(), details.get("type", b"").decode())
