"""Reading the header of stamped messages from their bytes, and deciding which types have one."""

from __future__ import annotations

import pytest

from physframe_ros.core.stamped import HeaderError, definition_has_header, read_header_cdr, read_header_ros1, stamped_type

pytest.importorskip("rosbags")


def _odometry(store: str, frame: str, child: str) -> tuple[bytes, bool]:
    from rosbags.typesys import Stores, get_typestore

    ts = get_typestore(Stores[store])
    msg = ts.types["nav_msgs/msg/Odometry"]
    Header, Time = ts.types["std_msgs/msg/Header"], ts.types["builtin_interfaces/msg/Time"]
    hargs = {"stamp": Time(sec=1_700_000_012, nanosec=250_000_000), "frame_id": frame}
    if store == "ROS1_NOETIC":
        hargs["seq"] = 7
    geo = {n: ts.types[f"geometry_msgs/msg/{n}"] for n in ("PoseWithCovariance", "TwistWithCovariance", "Pose", "Twist", "Point", "Quaternion", "Vector3")}
    import numpy as np

    pose = geo["PoseWithCovariance"](pose=geo["Pose"](position=geo["Point"](x=1.0, y=0.0, z=0.0), orientation=geo["Quaternion"](x=0.0, y=0.0, z=0.0, w=1.0)),
                                     covariance=np.zeros(36))
    twist = geo["TwistWithCovariance"](twist=geo["Twist"](linear=geo["Vector3"](x=0.0, y=0.0, z=0.0), angular=geo["Vector3"](x=0.0, y=0.0, z=0.0)),
                                       covariance=np.zeros(36))
    m = msg(header=Header(**hargs), child_frame_id=child, pose=pose, twist=twist)
    if store == "ROS1_NOETIC":
        return bytes(ts.serialize_ros1(m, "nav_msgs/msg/Odometry")), True
    return bytes(ts.serialize_cdr(m, "nav_msgs/msg/Odometry")), False


@pytest.mark.parametrize("store", ["ROS2_HUMBLE", "ROS1_NOETIC"])
@pytest.mark.parametrize("frame", ["odom", "", "a_rather_long_frame_name_x"])
def test_header_and_child_frame_of_real_odometry(store: str, frame: str) -> None:
    raw, ros1 = _odometry(store, frame, "base_link")
    h = (read_header_ros1 if ros1 else read_header_cdr)(raw, child=True)
    assert h.frame_id == frame and h.child_frame_id == "base_link"
    assert h.stamp == pytest.approx(1_700_000_012.25)


def test_truncated_message_is_a_header_error() -> None:
    raw, _ = _odometry("ROS2_HUMBLE", "odom", "base_link")
    with pytest.raises(HeaderError, match="frame_id"):
        read_header_cdr(raw[:17])
    with pytest.raises(HeaderError):
        read_header_ros1(b"\x00" * 8)


def test_definitions_decide_which_types_have_a_header() -> None:
    ros1_odometry = "# This represents an estimate\nHeader header\nstring child_frame_id\n====\nMSG: std_msgs/Header\nuint32 seq\n"
    assert definition_has_header(ros1_odometry) is True
    assert definition_has_header("int8 MODE=1  # a constant first\nstd_msgs/Header header\n") is True
    assert definition_has_header("builtin_interfaces/Time stamp\nstring frame_id\n") is False
    assert definition_has_header("") is None
    # a definition's verdict wins over the table; non-spatial types are never data
    assert stamped_type("my_msgs/msg/Blob", True) is not None and stamped_type("sensor_msgs/msg/Image", False) is None
    assert stamped_type("diagnostic_msgs/msg/DiagnosticArray", True) is None
    assert stamped_type("nav_msgs/msg/Odometry").child and stamped_type("sensor_msgs/CameraInfo").image  # type: ignore[union-attr]
