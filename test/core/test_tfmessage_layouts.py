"""The layout cache of ``decode_cdr``: a repeated layout is unpacked in one call, and never misread."""

from __future__ import annotations

import struct

import pytest

from physframe_ros.core import TfDecodeError, decode_cdr, encode_cdr
from physframe_ros.core.tfmessage import _LAYOUTS, _decode_cdr_walk

Q = (0.0, 0.0, 0.6, 0.8)


def _msg(names: list[tuple[str, str]], stamp: float = 5.25) -> list[tuple[str, str, float, tuple[float, ...]]]:
    return [(p, c, stamp + i, (float(i), 2.0, 3.0, *Q)) for i, (p, c) in enumerate(names)]


def test_second_message_of_a_layout_takes_the_cached_struct_and_decodes_the_same() -> None:
    first = _msg([("odom", "base_link"), ("base_link", "laser")])
    second = _msg([("odom", "base_link"), ("base_link", "laser")], stamp=9.5)
    data = encode_cdr(second)
    decode_cdr(encode_cdr(first))
    assert (len(data), 1, 2) in _LAYOUTS
    assert decode_cdr(data) == _decode_cdr_walk(data) == second


def test_same_length_with_other_string_lengths_is_not_misread() -> None:
    a = _msg([("abcd", "e"), ("x", "y")])
    b = _msg([("a", "bcde"), ("x", "y")])  # same total size, names split differently
    assert len(encode_cdr(a)) == len(encode_cdr(b))
    assert decode_cdr(encode_cdr(a)) == a
    assert decode_cdr(encode_cdr(b)) == b


def test_same_layout_other_names_and_big_endian() -> None:
    decode_cdr(encode_cdr(_msg([("map", "odom")])))
    assert decode_cdr(encode_cdr(_msg([("abc", "efgh")]))) == _msg([("abc", "efgh")])
    le = encode_cdr(_msg([("map", "odom")]))
    # the same message in big-endian CDR: swap every field's byte order
    be = bytearray(b"\x00\x00\x00\x00") + struct.pack(">I", 1)
    be += struct.pack(">iI", 5, 250_000_000) + struct.pack(">I", 4) + b"map\x00" + struct.pack(">I", 5) + b"odom\x00"
    be += b"\x00" * ((4 - len(be)) & 7) + struct.pack(">7d", 0.0, 2.0, 3.0, *Q)
    assert len(be) == len(le)
    for _ in range(2):  # second time through the cached big-endian layout
        assert decode_cdr(bytes(be)) == _msg([("map", "odom")])


def test_garbage_with_a_cached_length_still_raises() -> None:
    good = encode_cdr(_msg([("odom", "base_link")]))
    decode_cdr(good)
    bad = bytearray(good)
    bad[16:20] = struct.pack("<I", 200)  # frame_id length now runs past the end
    with pytest.raises(TfDecodeError):
        decode_cdr(bytes(bad))


def test_ros1_layouts_are_cached_and_checked_the_same_way() -> None:
    from physframe_ros.core import decode_ros1, encode_ros1

    a = _msg([("abcd", "e"), ("odom", "base_link")])
    b = _msg([("a", "bcde"), ("odom", "base_link")], stamp=7.5)
    assert len(encode_ros1(a)) == len(encode_ros1(b))
    for m in (a, a, b, b, a):
        assert decode_ros1(encode_ros1(m)) == m
    bad = bytearray(encode_ros1(a))
    bad[16:20] = struct.pack("<I", 300)  # first frame_id length now runs past the end
    with pytest.raises(TfDecodeError):
        decode_ros1(bytes(bad))
