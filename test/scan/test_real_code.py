"""Rules learnt from real repositories (issue 11): each fixture is written from an idiom that gave a
false alarm on real code, and each test also shows the real bug next to it is still found."""

from __future__ import annotations

from pathlib import Path

import pytest

from physframe_ros.cli import main
from physframe_ros.scan.scanner import scan

FIXTURES = Path(__file__).parent / "fixtures" / "real_code"


def _found(result_findings: list, code: str | None = None) -> set[tuple[str, str | None, int | None]]:
    return {(f.code, f.location and f.location.file, f.location and f.location.line) for f in result_findings
            if code is None or f.code == code}


def test_test_code_is_skipped_unless_asked_for(capsys: pytest.CaptureFixture[str]) -> None:
    default = scan([FIXTURES / "tested_driver"], jobs=1)
    assert _found(default.findings) == {("MISSING_CHILD_FRAME", "src/odom_node.cpp", 7)}
    assert default.files == 1
    with_tests = scan([FIXTURES / "tested_driver"], jobs=1, include_tests=True)
    assert {file for _, file, _ in _found(with_tests.findings)} == {
        "src/odom_node.cpp", "src/odom_node_test.cpp", "test/test_odom.cpp", "tests/test_broadcast.py"}
    assert main(["scan", "--include-tests", "--format", "json", "--no-progress", str(FIXTURES / "tested_driver")]) == 1
    assert '"test/test_odom.cpp"' in capsys.readouterr().out
    # a test file named on the command line is read: the user asked for it
    named = scan([FIXTURES / "tested_driver/test/test_odom.cpp"], jobs=1)
    assert {file for _, file, _ in _found(named.findings)} == {"test/test_odom.cpp"}


def test_cpp_the_parser_cannot_read_is_a_note_not_a_finding(tmp_path: Path) -> None:
    (tmp_path / "node.cpp").write_text(
        "void f()\n{\n  goal_ = typename ActionT::Goal();\n  tf2::Transform t;\n  br.sendTransform(t);\n}\n"
        "void g()\n{\n  int ** rows = new int *[n](;\n}\n")
    result = scan([tmp_path], jobs=1)
    assert [f for f in result.findings if f.code == "PARSE_ERROR"] == []
    assert len(result.notes) == 1 and "node.cpp:" in result.notes[0] and "not findings" in result.notes[0]


def test_lookups_are_unreachable_only_in_a_complete_system() -> None:
    result = scan([FIXTURES / "rover_ws"], jobs=1)
    # rover.launch starts the whole robot and only known nodes: amcl gives map -> odom, the diff drive
    # controller odom -> base_link; the one lookup no one can answer is the misspelt laser frame.
    # localizer_example.launch (one node of a robot) and replay.launch (a bag publishes the tree) are
    # not complete systems, and the two camera descriptions are robots of their own, not two trees.
    assert _found(result.findings) == {("LOOKUP_UNREACHABLE", "rover_nav/src/laser_filter.cpp", 5)}
    by_name = {s.name: s for s in result.subsystems}
    assert by_name["rover_bringup/launch/rover.launch"].complete
    assert not by_name["rover_nav/launch/replay.launch"].complete
    assert by_name["rover_nav/launch/localizer_example.launch"].complete and not by_name["rover_nav/launch/localizer_example.launch"].has_body
    assert {"description rover_description/urdf/d435.urdf", "description rover_description/urdf/d455.urdf"} <= set(by_name)


def test_descriptions_as_real_packages_write_them() -> None:
    result = scan([FIXTURES / "arm_description"], jobs=1)
    # not reported: Gazebo's joint to 'world' inside <gazebo>; the links of a fragment meant to be
    # included elsewhere; names only xacro builds (${namespace}base_link) in a .urdf with xacro markup;
    # the IMU at the base's origin is a hint (info), not a warning; an <origin> that cannot be read
    # is a PARSE_ERROR and the joint's transform is unknown, never identity
    assert {(f.code, f.location and f.location.file, f.level.value) for f in result.findings if f.level.value != "info"} == set()
    assert {(f.code, f.location and f.location.file) for f in result.findings} == {
        ("SENSOR_NULL", "urdf/arm.urdf"), ("PARSE_ERROR", "urdf/arm.urdf")}
    edges = {(e.parent, e.child): e for e in result.expected.edges}
    assert ("world", "base_link") not in edges
    assert edges[("base_link", "tool0")].translation is None and edges[("base_link", "tool0")].rotation is None
    assert ("camera_link", "camera_optical") in edges and not any("${" in p + c for p, c in edges)
    assert any("gripper_extras.urdf" in n for n in result.notes)


def test_launch_file_names_real_packages_use() -> None:
    from physframe_ros.scan.discovery import classify

    assert [classify(n) for n in ("robot.launch.py", "robot_launch.py", "robot-launch.py", "robot.py")] == [
        "launch_py", "launch_py", "launch_py", "python"]


def test_launch_conditions_arguments_and_paths_as_bringups_write_them() -> None:
    result = scan([FIXTURES / "rover_launch"], jobs=1)
    # if/unless and IfCondition/UnlessCondition on the arguments' defaults: the simulator's mounts do not
    # run, so laser and camera_link have one parent each (no MULTIPLE_PARENTS)
    assert [f for f in result.findings if f.level.value != "info"] == []
    by_name = {s.name: s for s in result.subsystems}
    robot = {(e.parent, e.child) for e in by_name["rover_bringup/launch/robot.launch"].edges}
    # pass_all_args hands laser_frame:=laser to sensors.launch
    assert robot == {("base_link", "laser"), ("laser", "laser_cover")}
    camera = {(e.parent, e.child) for e in by_name["rover_bringup/launch/camera-launch.py"].edges}
    # *-launch.py is a launch file; ThisLaunchFileDir() finds the included file
    assert camera == {("base_link", "camera_link"), ("camera_link", "camera_optical_frame")}


def test_an_unreadable_sdf_pose_is_unknown_not_identity(tmp_path: Path) -> None:
    (tmp_path / "rover.sdf").write_text(
        '<sdf version="1.9"><model name="rover">\n'
        '  <link name="base_link"/>\n'
        '  <link name="lidar"><pose>0.1 0 0.2</pose></link>\n'  # three numbers: SDFormat wants six
        '  <joint name="lidar_joint" type="fixed"><parent>base_link</parent><child>lidar</child></joint>\n'
        '</model></sdf>\n')
    result = scan([tmp_path], jobs=1)
    assert [(f.code, f.location and f.location.line) for f in result.findings] == [("PARSE_ERROR", 3)]
    (edge,) = [e for e in result.expected.edges if (e.parent, e.child) == ("base_link", "lidar")]
    assert edge.translation is None and edge.rotation is None
