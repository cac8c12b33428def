from __future__ import annotations

import math
import struct

import pytest
from hypothesis import given
from hypothesis import strategies as st

from physframe_ros.core.tfmessage import TfDecodeError, decode_cdr, decode_ros1, encode_cdr, encode_ros1

names = st.text(alphabet=st.characters(min_codepoint=33, max_codepoint=0x2FF), min_size=0, max_size=12)
floats = st.floats(allow_nan=False, width=64)
transform = st.tuples(names, names, st.integers(0, 2**31 - 1).map(float), st.tuples(*[floats] * 7))


@given(st.lists(transform, max_size=6))
def test_cdr_round_trip(transforms):
    assert decode_cdr(encode_cdr(transforms)) == transforms


@given(st.lists(transform, max_size=6))
def test_ros1_round_trip(transforms):
    assert decode_ros1(encode_ros1(transforms)) == transforms


def test_nan_values_survive_decoding():
    (t,) = decode_cdr(encode_cdr([("a", "b", 1.5, (math.nan, 0, 0, 0, 0, 0, 1))]))
    assert math.isnan(t[3][0]) and t[2] == 1.5


def test_matches_rosbags_reference_serializer():
    from rosbags.typesys import Stores, get_typestore

    store = get_typestore(Stores.ROS2_HUMBLE)
    TFMessage = store.types["tf2_msgs/msg/TFMessage"]
    TransformStamped = store.types["geometry_msgs/msg/TransformStamped"]
    Header = store.types["std_msgs/msg/Header"]
    Time = store.types["builtin_interfaces/msg/Time"]
    Transform = store.types["geometry_msgs/msg/Transform"]
    Vector3 = store.types["geometry_msgs/msg/Vector3"]
    Quaternion = store.types["geometry_msgs/msg/Quaternion"]
    msgs = []
    expected = []
    for i, (p, c) in enumerate([("odom", "base_link"), ("base_link", "camera_color_optical_frame"), ("x", "yz")]):
        vals = (0.1 * i, 0.2, 0.3, -0.5, 0.5, -0.5, 0.5)
        msgs.append(TransformStamped(Header(Time(100 + i, 500_000_000), p), c, Transform(Vector3(*vals[:3]), Quaternion(*vals[3:]))))
        expected.append((p, c, 100 + i + 0.5, vals))
    raw = store.serialize_cdr(TFMessage(msgs), "tf2_msgs/msg/TFMessage")
    assert decode_cdr(raw) == expected
    assert bytes(raw) == encode_cdr(expected)
    ros1 = store.cdr_to_ros1(raw, "tf2_msgs/msg/TFMessage")
    assert decode_ros1(ros1) == expected


@pytest.mark.parametrize("cut", [0, 3, 9, 20, 40, 90])
def test_truncated_bytes_raise_with_offset(cut):
    raw = encode_cdr([("odom", "base_link", 1.0, (0, 0, 0, 0, 0, 0, 1))] * 2)
    with pytest.raises(TfDecodeError) as err:
        decode_cdr(raw[:cut])
    assert "byte" in str(err.value)


def test_absurd_count_is_rejected_before_allocating():
    with pytest.raises(TfDecodeError, match="claims"):
        decode_cdr(b"\x00\x01\x00\x00" + struct.pack("<I", 2**31))
    with pytest.raises(TfDecodeError, match="claims"):
        decode_ros1(struct.pack("<I", 2**31))


def test_bad_string_length_and_encoding():
    raw = bytearray(encode_cdr([("odom", "base_link", 1.0, (0, 0, 0, 0, 0, 0, 1))]))
    raw[16:20] = struct.pack("<I", 10_000)
    with pytest.raises(TfDecodeError, match="frame_id length"):
        decode_cdr(bytes(raw))
    raw = bytearray(encode_cdr([("odom", "base_link", 1.0, (0, 0, 0, 0, 0, 0, 1))]))
    raw[20] = 0xFF
    with pytest.raises(TfDecodeError, match="UTF-8"):
        decode_cdr(bytes(raw))
    with pytest.raises(TfDecodeError, match="encapsulation"):
        decode_cdr(b"\x00\x07\x00\x00\x00\x00\x00\x00")


def test_big_endian_cdr():
    le = encode_cdr([("a", "b", 2.0, (1, 2, 3, 0, 0, 0, 1))])
    # re-encode by hand as big endian: same layout, swapped words
    be = bytearray(b"\x00\x00\x00\x00") + struct.pack(">I", 1)
    be += struct.pack(">iI", 2, 0) + struct.pack(">I", 2) + b"a\x00" + b"\x00\x00" + struct.pack(">I", 2) + b"b\x00"
    be += b"\x00" * ((4 - len(be)) & 7) + struct.pack(">7d", 1, 2, 3, 0, 0, 0, 1)
    assert decode_cdr(bytes(be)) == decode_cdr(le)


def _good_then(mutate):
    """A good message decoded first (so its layout is cached), then the same bytes changed by ``mutate``."""
    raw = encode_cdr([("odom", "base_link", 1.0, (0, 0, 0, 0, 0, 0, 1))])
    assert decode_cdr(raw)[0][:2] == ("odom", "base_link")
    bad = bytearray(raw)
    mutate(bad)
    return bytes(bad)


def test_string_without_nul_terminator_is_rejected():
    # "odom\0" sits at bytes 20..24: replace its NUL; the cached fast layout must not accept it either
    with pytest.raises(TfDecodeError, match="frame_id is not NUL-terminated"):
        decode_cdr(_good_then(lambda b: b.__setitem__(24, ord("x"))))
    # "base_link\0" at bytes 32..41
    with pytest.raises(TfDecodeError, match="child_frame_id is not NUL-terminated"):
        decode_cdr(_good_then(lambda b: b.__setitem__(41, ord("x"))))


def test_nanosec_of_a_second_or_more_is_rejected():
    with pytest.raises(TfDecodeError, match="nanosec 1000000000"):
        decode_cdr(_good_then(lambda b: b.__setitem__(slice(12, 16), struct.pack("<I", 10**9))))
    ros1 = bytearray(encode_ros1([("odom", "base_link", 1.0, (0, 0, 0, 0, 0, 0, 1))]))
    assert decode_ros1(bytes(ros1))
    ros1[12:16] = struct.pack("<I", 2**32 - 1)
    with pytest.raises(TfDecodeError, match="nsec 4294967295"):
        decode_ros1(bytes(ros1))
