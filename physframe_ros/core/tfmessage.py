"""Fast decoders for serialized ``tf2_msgs/TFMessage`` (ROS 2 CDR and ROS 1), no ROS needed.

Going through rclpy message objects costs about 40 us per transform; walking the
bytes with ``struct`` is an order of magnitude cheaper, which is what lets one
Python process keep up with a busy robot's /tf.

Each decoded transform is a tuple ``(parent, child, stamp_seconds, values)`` with
``values = (tx, ty, tz, qx, qy, qz, qw)``.
"""

from __future__ import annotations

import math
import struct
from dataclasses import dataclass
from typing import Any, Callable, Sequence

Transform = tuple[str, str, float, tuple[float, ...]]

_MIN_CDR_TRANSFORM = 8 + 5 + 5 + 56  # stamp, two empty strings, 7 doubles
_MIN_ROS1_TRANSFORM = 12 + 4 + 4 + 56

_LE_U32 = struct.Struct("<I").unpack_from
_BE_U32 = struct.Struct(">I").unpack_from
_LE_STAMP = struct.Struct("<iI").unpack_from
_BE_STAMP = struct.Struct(">iI").unpack_from
_LE_7D = struct.Struct("<7d").unpack_from
_BE_7D = struct.Struct(">7d").unpack_from
_ROS1_HEADER = struct.Struct("<III").unpack_from
_NSEC = 1_000_000_000  # builtin_interfaces/Time.nanosec is below this; rclpy refuses to build a larger one


class TfDecodeError(ValueError):
    """The bytes are not a well-formed TFMessage; ``offset`` is where reading broke."""

    def __init__(self, message: str, offset: int) -> None:
        super().__init__(f"{message} (at byte {offset})")
        self.offset = offset


# A publisher sends the same frame ids message after message, so the byte layout of its
# TFMessages repeats: one Struct per layout unpacks a whole message in a single C call.
# Keyed by (length, encoding, count); the string lengths the Struct assumes are checked
# against the ones it unpacked, so a different layout of equal length falls back to the
# field-by-field walk. Bounded: cleared when full.
_MAX_LAYOUTS = 512
_ROS1 = 256  # encoding key of ROS 1 messages (CDR keys are the encapsulation byte, 0..3)


@dataclass
class _Layout:
    unpack: Callable[[Any, int], tuple[Any, ...]]
    sizes: tuple[int, ...]  # the string length fields it assumes: every frame_id, then every child_frame_id
    stride: int  # unpacked items per transform
    first: int  # item index of the first transform's stamp seconds
    # the frame ids last seen in this layout, raw and decoded: the same publisher sends the same
    # names, so comparing bytes replaces decoding them (and the str objects keep their hashes)
    raw_names: tuple[bytes, ...] = ()
    names: tuple[tuple[str, str], ...] = ()


_LAYOUTS: dict[tuple[int, int, int], _Layout] = {}


def _build_layout(transforms: list[Transform], encoding: int) -> _Layout:
    ros1 = encoding == _ROS1
    fmt = ["<" if ros1 or encoding in (1, 3) else ">", "I" if ros1 else "4x I"]  # [encapsulation header,] count
    pos = 8  # CDR alignment counts from the start of the data, 4 bytes before the payload
    parents: list[int] = []
    children: list[int] = []
    for parent, child, _, _ in transforms:
        pad = 0 if ros1 else -pos & 3
        fmt.append(f"{pad}x {'III' if ros1 else 'iI'}")  # ROS 1 header: seq, then an unsigned stamp
        pos += pad + 8
        for name, sizes in ((parent, parents), (child, children)):
            raw = len(name.encode())
            pad = 0 if ros1 else -pos & 3
            # CDR strings end in a NUL, unpacked with the name so the fast path can check it is there
            fmt.append(f"{pad}x I {raw}s" if ros1 else f"{pad}x I {raw + 1}s")
            sizes.append(raw if ros1 else raw + 1)
            pos += pad + 4 + raw + (0 if ros1 else 1)
        pad = 0 if ros1 else (4 - pos) & 7
        fmt.append(f"{pad}x 7d")
        pos += pad + 56
    return _Layout(struct.Struct(" ".join(fmt)).unpack_from, tuple(parents + children), 14 if ros1 else 13, 2 if ros1 else 1)


def _decode_layout(data: bytes | bytearray | memoryview, key: tuple[int, int, int]) -> list[Transform] | None:
    """The fast path: None when no layout is known for ``key`` or the known one does not fit."""
    lay = _LAYOUTS.get(key)
    if lay is None:
        return None
    t = lay.unpack(data, 0)
    end, k, b = len(t), lay.stride, lay.first  # per transform from b: sec, nsec, len, name, len, name, 7 doubles
    if t[b + 2 : end : k] + t[b + 4 : end : k] != lay.sizes or max(t[b + 1 : end : k]) >= _NSEC:
        return None  # the walk gives the precise error, or decodes another layout of equal length
    raw = t[b + 3 : end : k] + t[b + 5 : end : k]
    if raw != lay.raw_names:
        half = len(raw) // 2
        cdr = key[1] != _ROS1
        if cdr and not all(r.endswith(b"\0") for r in raw):
            return None
        try:
            lay.names = tuple((p[:-1].decode(), c[:-1].decode()) if cdr else (p.decode(), c.decode()) for p, c in zip(raw[:half], raw[half:]))
        except UnicodeDecodeError:
            return None
        lay.raw_names = raw
    return [(p, c, sec + nsec * 1e-9, t[i : i + 7]) for (p, c), sec, nsec, i in zip(lay.names, t[b:end:k], t[b + 1 : end : k], range(b + 6, end, k))]


def _decode_cached(data: bytes | bytearray | memoryview, key: tuple[int, int, int], walk: Callable[[Any], list[Transform]]) -> list[Transform]:
    fast = _decode_layout(data, key)
    if fast is not None:
        return fast
    out = walk(data)
    if out:
        if len(_LAYOUTS) >= _MAX_LAYOUTS:
            _LAYOUTS.clear()
        _LAYOUTS[key] = _build_layout(out, key[1])
    return out


def decode_cdr(data: bytes | bytearray | memoryview) -> list[Transform]:
    """Decode a CDR-serialized TFMessage (as rclpy ``raw=True`` and rosbag2 hand it over)."""
    n = len(data)
    if n < 8 or data[1] > 3:
        return _decode_cdr_walk(data)  # which raises the precise error
    return _decode_cached(data, (n, data[1], (_LE_U32 if data[1] in (1, 3) else _BE_U32)(data, 4)[0]), _decode_cdr_walk)


def _decode_cdr_walk(data: bytes | bytearray | memoryview) -> list[Transform]:
    """Field by field, with a precise error for malformed input."""
    n = len(data)
    if n < 8:
        raise TfDecodeError(f"TFMessage of {n} bytes is shorter than its header", 0)
    kind = data[1]
    if kind in (1, 3):  # CDR_LE, PL_CDR_LE
        u32, stamp_of, values_of = _LE_U32, _LE_STAMP, _LE_7D
    elif kind in (0, 2):
        u32, stamp_of, values_of = _BE_U32, _BE_STAMP, _BE_7D
    else:
        raise TfDecodeError(f"unknown CDR encapsulation 0x{data[0]:02x}{data[1]:02x}", 0)
    count = u32(data, 4)[0]
    if count * _MIN_CDR_TRANSFORM > n - 8:
        raise TfDecodeError(f"TFMessage claims {count} transforms but has only {n} bytes", 4)
    out: list[Transform] = []
    append = out.append
    pos = 8
    try:
        for _ in range(count):
            pos = (pos + 3) & ~3  # payload starts at 4, so absolute 4-alignment is payload alignment
            sec, nsec = stamp_of(data, pos)
            if nsec >= _NSEC:
                raise TfDecodeError(f"stamp nanosec {nsec} is not below 10^9", pos + 4)
            pos += 8
            parent, end = _cdr_string(data, pos, u32, "frame_id")
            pos = (end + 3) & ~3
            child, end = _cdr_string(data, pos, u32, "child_frame_id")
            pos = end + ((4 - end) & 7)  # 8-alignment relative to the payload at offset 4
            append((parent, child, sec + nsec * 1e-9, values_of(data, pos)))
            pos += 56
    except struct.error:
        raise TfDecodeError(f"TFMessage truncated in transform {len(out) + 1} of {count}", pos) from None
    except UnicodeDecodeError:
        raise TfDecodeError(f"frame id in transform {len(out) + 1} is not UTF-8", pos) from None
    return out


def _cdr_string(data: bytes | bytearray | memoryview, pos: int, u32: Callable[..., tuple[int]], what: str) -> tuple[str, int]:
    """The string whose length field is at ``pos`` (length counts its NUL terminator), and where it ends."""
    size = u32(data, pos)[0]
    start, end = pos + 4, pos + 4 + size
    if size == 0 or end > len(data):
        raise TfDecodeError(f"bad {what} length", pos)
    if data[end - 1] != 0:
        raise TfDecodeError(f"{what} is not NUL-terminated", end - 1)
    return bytes(data[start : end - 1]).decode(), end


def decode_ros1(data: bytes | bytearray | memoryview) -> list[Transform]:
    """Decode a ROS 1 serialized ``tf2_msgs/TFMessage`` or ``tf/tfMessage`` (same layout)."""
    n = len(data)
    if n < 4:
        return _decode_ros1_walk(data)
    return _decode_cached(data, (n, _ROS1, _LE_U32(data, 0)[0]), _decode_ros1_walk)


def _decode_ros1_walk(data: bytes | bytearray | memoryview) -> list[Transform]:
    """Field by field, with a precise error for malformed input."""
    n = len(data)
    if n < 4:
        raise TfDecodeError(f"tfMessage of {n} bytes is shorter than its count", 0)
    count = _LE_U32(data, 0)[0]
    if count * _MIN_ROS1_TRANSFORM > n - 4:
        raise TfDecodeError(f"tfMessage claims {count} transforms but has only {n} bytes", 0)
    out: list[Transform] = []
    append = out.append
    pos = 4
    try:
        for _ in range(count):
            _seq, sec, nsec = _ROS1_HEADER(data, pos)
            if nsec >= _NSEC:
                raise TfDecodeError(f"stamp nsec {nsec} is not below 10^9", pos + 8)
            pos += 12
            size = _LE_U32(data, pos)[0]
            pos += 4
            if pos + size > n:
                raise TfDecodeError("bad frame_id length", pos - 4)
            parent = bytes(data[pos : pos + size]).decode()
            pos += size
            size = _LE_U32(data, pos)[0]
            pos += 4
            if pos + size > n:
                raise TfDecodeError("bad child_frame_id length", pos - 4)
            child = bytes(data[pos : pos + size]).decode()
            pos += size
            append((parent, child, sec + nsec * 1e-9, _LE_7D(data, pos)))
            pos += 56
    except struct.error:
        raise TfDecodeError(f"tfMessage truncated in transform {len(out) + 1} of {count}", pos) from None
    except UnicodeDecodeError:
        raise TfDecodeError(f"frame id in transform {len(out) + 1} is not UTF-8", pos) from None
    return out


def encode_cdr(transforms: Sequence[Transform]) -> bytes:
    """Serialize a TFMessage to little-endian CDR (for tests, demos and benchmarks)."""
    buf = bytearray(b"\x00\x01\x00\x00")
    buf += struct.pack("<I", len(transforms))
    for parent, child, stamp, values in transforms:
        buf += b"\x00" * ((-len(buf)) & 3)
        sec = math.floor(stamp)
        buf += struct.pack("<iI", sec, round((stamp - sec) * 1e9) % 1_000_000_000)
        for name in (parent, child):
            buf += b"\x00" * ((-len(buf)) & 3)
            raw = name.encode() + b"\x00"
            buf += struct.pack("<I", len(raw)) + raw
        buf += b"\x00" * ((4 - len(buf)) & 7)
        buf += struct.pack("<7d", *values)
    return bytes(buf)


def encode_ros1(transforms: list[Transform]) -> bytes:
    """Serialize a ROS 1 tfMessage (for tests and benchmarks)."""
    buf = bytearray(struct.pack("<I", len(transforms)))
    for seq, (parent, child, stamp, values) in enumerate(transforms):
        sec = math.floor(stamp)
        buf += struct.pack("<III", seq, sec, round((stamp - sec) * 1e9) % 1_000_000_000)
        for name in (parent, child):
            raw = name.encode()
            buf += struct.pack("<I", len(raw)) + raw
        buf += struct.pack("<7d", *values)
    return bytes(buf)
