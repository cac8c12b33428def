from __future__ import annotations

import pytest

from physframe_ros.core.conventions import Conventions
from physframe_ros.core.rotations import OrthoRotation

C = Conventions()


@pytest.mark.parametrize(
    "frame, cls, robot",
    [
        ("map", "map", ""),
        ("odom", "odom", ""),
        ("base_link", "base", ""),
        ("base_footprint", "base", ""),
        ("earth", "earth", ""),
        ("robot1/odom", "odom", "robot1/"),
        ("robot1_base_link", "base", "robot1_"),
        ("/ns/robot2/map", "map", "ns/robot2/"),  # tf2 strips the leading slash
        ("map_1", "map", "_1"),
        ("camera_color_optical_frame", "optical", ""),
        ("camera_depth_optical_frame", "optical", ""),
        ("odom_ned", "ned", ""),
        ("base_link_frd", "frd", ""),
        ("fcu_frd", "frd", ""),
        ("laser", "sensor", ""),
        ("imu_link", "sensor", ""),
        ("gps", "sensor", ""),
        ("left_wheel_link", "other", ""),
        ("fcu", "other", ""),
    ],
)
def test_classification(frame, cls, robot):
    info = C.classify(frame)
    assert info.cls.name == cls
    assert info.robot == robot


def test_expected_rotations_for_rigid_relations():
    assert str(C.expected_rotation("camera_link", "camera_color_optical_frame").rotation) == "<z,-x,-y>"
    assert str(C.expected_rotation("camera_color_optical_frame", "camera_link").rotation) == "<-y,-z,x>"
    assert str(C.expected_rotation("odom", "odom_ned").rotation) == "<y,x,-z>"
    assert str(C.expected_rotation("base_link", "base_link_frd").rotation) == "<x,-y,-z>"
    assert str(C.expected_rotation("fcu_frd", "fcu").rotation) == "<x,-y,-z>"
    assert str(C.expected_rotation("base_footprint", "base_link").rotation) == "<x,y,z>"


@pytest.mark.parametrize(
    "parent, child",
    [("odom", "base_link"), ("map", "odom"), ("base_link", "laser"), ("base_link", "camera_link"), ("map", "camera_optical_frame"), ("a_ned", "b_frd")],
)
def test_free_relations_are_not_checked(parent, child):
    assert C.expected_rotation(parent, child) is None


def test_user_overrides_from_yaml_mapping():
    conv = Conventions.from_dict(
        {
            "classes": {"optical": {"patterns": ["_lens$"]}, "gimbal": {"patterns": ["^gimbal"], "axes": "FRD"}},
            "frames": {"weird_cam": "optical"},
        }
    )
    assert conv.classify("front_lens").cls.name == "optical"
    assert conv.classify("camera_color_optical_frame").cls.name == "optical"  # built-in patterns kept
    assert conv.classify("weird_cam").cls.name == "optical"
    assert str(conv.classify("gimbal_1").axes) == "FRD"
    with pytest.raises(ValueError, match="unknown classes"):
        Conventions.from_dict({"frames": {"x": "nope"}})
    with pytest.raises(ValueError):
        Conventions.from_dict({"classes": {"bad": {"patterns": ["("]}}})


def test_expected_uses_orthogonal_rotation_type():
    exp = C.expected_rotation("camera_link", "camera_optical_frame")
    assert isinstance(exp.rotation, OrthoRotation)
    assert "x right, y down, z forward" in exp.rule
