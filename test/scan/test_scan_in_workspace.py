"""One package scanned inside its repository (``--workspace``): the launch files and robot descriptions of the other
packages that it includes and loads are read, and only its own findings are reported. The idiom is mycobot_ros':
its MoveIt package's demo.launch publishes ``world -> joint1`` while the robot_description it loads from
mycobot_description already gives joint1 the parent g_base."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from physframe_ros.cli import main
from physframe_ros.scan.discovery import discover, find_workspace
from physframe_ros.scan.scanner import scan

URDF = textwrap.dedent("""\
    <?xml version="1.0"?>
    <robot name="firefighter">
      <link name="g_base"/>
      <link name="joint1"/>
      <link name="camera_link"/>
      <joint name="g_base_to_joint1" type="fixed">
        <parent link="g_base"/>
        <child link="joint1"/>
        <origin xyz="0 0 0" rpy="0 0 0"/>
      </joint>
      <joint name="camera_joint" type="fixed">
        <parent link="joint1"/>
        <child link="camera_link"/>
        <origin xyz="0 0 0.1" rpy="0 0 0"/>
      </joint>
    </robot>
    """)

DEMO = textwrap.dedent("""\
    <launch>
      <arg name="load_robot_description" default="true"/>
      <!-- If needed, broadcast static tf for robot root -->
      <node pkg="tf2_ros" type="static_transform_publisher" name="virtual_joint_broadcaster_0" args="0 0 0 0 0 0 world joint1" />
      <include file="$(find mycobot_280_moveit)/launch/planning_context.launch">
        <arg name="load_robot_description" value="$(arg load_robot_description)"/>
      </include>
      <node name="robot_state_publisher" pkg="robot_state_publisher" type="robot_state_publisher" />
      <include file="$(find mycobot_bringup)/launch/camera.launch"/>
    </launch>
    """)

PLANNING_CONTEXT = textwrap.dedent("""\
    <launch>
      <arg name="load_robot_description" default="false"/>
      <param if="$(arg load_robot_description)" name="robot_description" textfile="$(find mycobot_description)/urdf/firefighter.urdf"/>
    </launch>
    """)

# the other package's launch file: what it publishes joins the tree; its own problems are not reported here
CAMERA = textwrap.dedent("""\
    <launch>
      <node pkg="tf2_ros" type="static_transform_publisher" name="camera_tf" args="0 0 0 0 0 0 joint1 camera_link" />
      <node pkg="tf2_ros" type="static_transform_publisher" name="bad" args="0 0 0 0 0 0 /map /odom" />
    </launch>
    """)


def _repo(tmp_path: Path) -> Path:
    files = {
        "mycobot_description/package.xml": "<package><name>mycobot_description</name><buildtool_depend>catkin</buildtool_depend></package>",
        "mycobot_description/urdf/firefighter.urdf": URDF,
        "mycobot_bringup/package.xml": "<package><name>mycobot_bringup</name><buildtool_depend>catkin</buildtool_depend></package>",
        "mycobot_bringup/launch/camera.launch": CAMERA,
        "mycobot_280/mycobot_280_moveit/package.xml": "<package><name>mycobot_280_moveit</name><buildtool_depend>catkin</buildtool_depend></package>",
        "mycobot_280/mycobot_280_moveit/launch/demo.launch": DEMO,
        "mycobot_280/mycobot_280_moveit/launch/planning_context.launch": PLANNING_CONTEXT,
    }
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    (tmp_path / ".git").mkdir()
    return tmp_path


def test_the_package_alone_cannot_see_the_description_it_loads(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    result = scan([repo / "mycobot_280/mycobot_280_moveit"], jobs=1)
    assert not [f for f in result.findings if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert any("not in the scanned tree" in f.message for f in result.findings)


def test_in_its_workspace_the_other_packages_are_read_and_only_its_findings_reported(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    result = scan([repo / "mycobot_280/mycobot_280_moveit"], jobs=1, workspace=repo)
    two = [f for f in result.findings if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert [(f.location.file, f.location.line) for f in two if f.location] == [("mycobot_280/mycobot_280_moveit/launch/demo.launch", 4)]
    assert "'g_base' (from mycobot_description/urdf/firefighter.urdf:6)" in two[0].message
    # camera.launch's camera_tf repeats the URDF's camera joint (a conflict located there) and names '/map': not this package's
    assert all(f.location is None or f.location.file.startswith("mycobot_280/") for f in result.findings)
    assert {(e.parent, e.child) for e in result.expected.edges} >= {("g_base", "joint1"), ("world", "joint1"), ("joint1", "camera_link")}


def test_discovery_indexes_the_workspace_packages_but_reads_only_the_paths(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    ws = discover([repo / "mycobot_280/mycobot_280_moveit"], workspace=repo)
    assert ws.root == repo.resolve() and ws.targets == ("mycobot_280/mycobot_280_moveit",)
    assert set(ws.packages) == {"mycobot_description", "mycobot_bringup", "mycobot_280_moveit"}
    assert all(f.path.startswith("mycobot_280/mycobot_280_moveit/") for f in ws.files)
    assert find_workspace(repo / "mycobot_280/mycobot_280_moveit") == repo
    with pytest.raises(ValueError, match="not inside it"):
        discover([repo / "mycobot_280"], workspace=repo / "mycobot_description")


def test_cli_finds_the_repository_by_default(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = _repo(tmp_path)
    code = main(["scan", str(repo / "mycobot_280/mycobot_280_moveit"), "--format", "json", "--no-progress"])
    out = capsys.readouterr()
    report = json.loads(out.out)
    assert code == 1 and [f["code"] for f in report["findings"] if f["severity"] == "error"] == ["MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert report["root"] == str(repo.resolve()) and "read with the packages of the workspace" in out.err
    assert main(["scan", str(repo / "mycobot_280/mycobot_280_moveit"), "--workspace", "none", "--no-progress"]) == 0
    assert main(["scan", str(repo / "mycobot_280"), "--workspace", str(repo / "nowhere")]) == 2
    assert "not a directory" in capsys.readouterr().err


def test_auto_leaves_a_package_that_names_nothing_outside_alone(tmp_path: Path) -> None:
    repo = _repo(tmp_path)
    (repo / "mycobot_bringup/launch/camera.launch").write_text(CAMERA.replace("/map", "map"))
    ws = discover([repo / "mycobot_bringup"], workspace="auto")
    assert ws.root == (repo / "mycobot_bringup").resolve() and ws.targets == ("",)
    # a package the workspace does not hold either (gazebo_ros) is no reason to widen the scan
    (repo / "mycobot_bringup/launch/sim.launch").write_text('<launch><include file="$(find gazebo_ros)/launch/empty_world.launch"/></launch>')
    assert discover([repo / "mycobot_bringup"], workspace="auto").targets == ("",)


def test_a_urdf_the_build_generates_from_its_xacro_is_read_from_the_xacro(tmp_path: Path) -> None:
    """NaviGator's upload_urdf.launch loads ``$(find navigator_gazebo)/urdf/navigator.urdf``, which catkin's
    ``xacro_add_files(urdf/navigator.urdf.xacro INSTALL DESTINATION urdf)`` generates at build time: the source tree
    holds only the xacro, and that is what is read."""
    repo = _repo(tmp_path)
    xacro = URDF.replace('<robot name="firefighter">', '<robot name="firefighter" xmlns:xacro="http://www.ros.org/wiki/xacro">')
    (repo / "mycobot_description/urdf/firefighter.urdf").unlink()
    (repo / "mycobot_description/urdf/firefighter.urdf.xacro").write_text(xacro)
    result = scan([repo / "mycobot_280/mycobot_280_moveit"], jobs=1, workspace=repo)
    assert [f.code for f in result.findings if f.level.value == "error"] == ["MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert not any("not in the scanned tree" in f.message and "firefighter" in f.message for f in result.findings)
