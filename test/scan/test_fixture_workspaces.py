"""Each fixture workspace under test/scan/fixtures yields exactly its finding at its file:line."""

from __future__ import annotations

from pathlib import Path

import pytest

from physframe_ros.core.expected import ExpectedTree
from physframe_ros.core.findings import Severity
from physframe_ros.scan.scanner import scan

FIXTURES = Path(__file__).parent / "fixtures"


def _line_of(path: Path, needle: str) -> int:
    for i, line in enumerate(path.read_text().splitlines(), 1):
        if needle in line:
            return i
    raise AssertionError(f"{needle!r} not in {path}")


def _summary(root: Path) -> list[tuple[str, str, int | None]]:
    result = scan([root], jobs=1)
    return [(f.code, f.location.file if f.location else "", f.location.line if f.location else None) for f in result.findings]


def test_realsense_like_xacro_with_correct_optical_frames_is_clean() -> None:
    assert _summary(FIXTURES / "realsense_ok") == []


def test_optical_joint_at_rpy_zero_is_an_incorrect_transform_at_the_macro_joint() -> None:
    macro = FIXTURES / "realsense_bad/rs_description/urdf/_depth_camera.urdf.xacro"
    result = scan([FIXTURES / "realsense_bad"], jobs=1)
    assert [(f.code, f.location and f.location.file, f.location and f.location.line) for f in result.findings] == [
        ("INCORRECT_TRANSFORM", "rs_description/urdf/_depth_camera.urdf.xacro", _line_of(macro, '"${name}_color_optical_joint"'))
    ]
    f = result.findings[0]
    assert f.frames == ("front_camera_color_frame", "front_camera_color_optical_frame")  # xacro arg default applied
    assert "RDF" in f.message and "FLU" in f.message


def test_ros1_static_transform_odom_map_breaks_rep105_order() -> None:
    launch = FIXTURES / "ros1_reversed/mower_bringup/launch/frames.launch"
    assert _summary(FIXTURES / "ros1_reversed") == [
        ("INCORRECT_FRAME_ORDER_IN_TREE", "mower_bringup/launch/frames.launch", _line_of(launch, "odom map 100"))
    ]


def test_ros2_python_launch_flag_form_optical_frame() -> None:
    launch = FIXTURES / "ros2_flags/scout_bringup/launch/sensor_mounts.launch.py"
    result = scan([FIXTURES / "ros2_flags"], jobs=1)
    assert [(f.code, f.location and f.location.line) for f in result.findings] == [
        ("INCORRECT_TRANSFORM", _line_of(launch, '"--roll", "-1.5708"'))
    ]
    edges = {(e.parent, e.child): e for e in result.expected.edges}
    # the flag form with a LaunchConfiguration default: --z comes from DeclareLaunchArgument
    assert edges[("base_link", "lidar_link")].translation == (0.12, 0.0, 0.32)
    assert edges[("base_link", "front_camera_link")].static


def test_sdf_frame_attached_to_itself_is_a_cycle() -> None:
    sdf = FIXTURES / "sdf_self/crane_gazebo/models/crane/model.sdf"
    result = scan([FIXTURES / "sdf_self"], jobs=1)
    assert [(f.code, f.location and f.location.line, f.frames) for f in result.findings] == [
        ("CYCLE_IN_FRAME_TREE", _line_of(sdf, 'attached_to="camera_mount"'), ("camera_mount",))
    ]
    edges = {(e.parent, e.child) for e in result.expected.edges}
    assert {("base_link", "boom"), ("boom", "hook_mount"), ("hook_mount", "gripper::palm"), ("gripper::palm", "gripper::tool_center")} <= edges


def test_two_launch_files_give_base_link_two_parents() -> None:
    loc_launch = FIXTURES / "two_parents/rover_localization/launch/localization.launch.py"
    result = scan([FIXTURES / "two_parents"], jobs=1)
    assert [(f.code, f.location and f.location.file, f.location and f.location.line) for f in result.findings] == [
        ("MULTIPLE_PARENTS_IN_FRAME_TREE", "rover_localization/launch/localization.launch.py", _line_of(loc_launch, '"--frame-id", "odom"'))
    ]
    f = result.findings[0]
    assert f.frames == ("base_link", "base_footprint", "odom")
    assert "rover_description/urdf/rover.urdf:" in f.message


def test_each_launch_file_alone_has_no_conflict(tmp_path: Path) -> None:
    """Without the bringup that starts both, the two parents never meet: no finding."""
    import shutil

    shutil.copytree(FIXTURES / "two_parents", tmp_path / "ws")
    (tmp_path / "ws/rover_bringup/launch/bringup.launch.py").unlink()
    assert _summary(tmp_path / "ws") == []


def test_clean_bringup_has_no_error_and_its_expected_tree_lists_every_edge(tmp_path: Path) -> None:
    root = FIXTURES / "clean_bringup"
    result = scan([root], jobs=1)
    assert [f for f in result.findings if f.level == Severity.ERROR] == []
    assert [f.code for f in result.findings] == []
    out = tmp_path / "expected.yaml"
    result.expected.save(out)
    tree = ExpectedTree.load(out)
    edges = {(e.parent, e.child): e for e in tree.edges}
    urdf_joints = {
        ("base_footprint", "base_link"), ("base_link", "left_wheel_link"), ("base_link", "right_wheel_link"), ("base_link", "caster_link"),
        ("base_link", "lidar_link"), ("base_link", "imu_link"), ("base_link", "camera_link"), ("camera_link", "camera_depth_frame"),
        ("camera_depth_frame", "camera_depth_optical_frame"), ("camera_link", "camera_color_frame"), ("camera_color_frame", "camera_color_optical_frame"),
    }
    assert urdf_joints <= set(edges)
    assert ("map", "odom") in edges  # static transform of the nav launch
    for key in urdf_joints | {("map", "odom")}:
        assert edges[key].sources, key
    assert edges[("base_link", "left_wheel_link")].static is False
    assert edges[("camera_color_frame", "camera_color_optical_frame")].rotation == pytest.approx((-0.5, 0.5, -0.5, 0.5))
    sensors = root / "diffbot_description/urdf/sensors.xacro"
    assert edges[("base_link", "imu_link")].sources[0].file == "diffbot_description/urdf/sensors.xacro"
    assert edges[("base_link", "imu_link")].sources[0].line == _line_of(sensors, '<joint name="imu_joint"')
    nav = root / "diffbot_bringup/launch/nav.launch.py"
    assert edges[("map", "odom")].sources[0].line == _line_of(nav, '"--frame-id", "map"')
    bringup = next(s for s in tree.subsystems if s["name"] == "diffbot_bringup/launch/bringup.launch.py")
    assert "diffbot_bringup/launch/nav.launch.py" in bringup["files"]
    assert "diffbot_perception/src/self_filter.cpp" in bringup["files"]  # via CMakeLists add_executable
