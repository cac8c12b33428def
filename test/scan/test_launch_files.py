"""Launch files of every kind: static_transform_publisher forms, robot_state_publisher, includes."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan.trees import write_tree as _write

from physframe_ros.core.findings import Location
from physframe_ros.core.rotations import ypr_to_quaternion
from physframe_ros.scan.context import ScanContext
from physframe_ros.scan.launch.common import static_transform_edge
from physframe_ros.scan.scanner import scan

LOC = Location("launch/x.launch", 3)


def _package(name: str, catkin: bool = False) -> str:
    tool = "catkin" if catkin else "ament_cmake"
    return f"<package format=\"3\"><name>{name}</name><version>0.0.1</version><description>d</description>" \
           f"<maintainer email=\"a@b.c\">m</maintainer><license>MIT</license><buildtool_depend>{tool}</buildtool_depend></package>\n"


# --- static_transform_publisher argument forms ---------------------------------------------------
def test_tf_ros1_yaw_pitch_roll_with_period_is_on_tf() -> None:
    edge, findings = static_transform_edge("0.1 0 0.2 1.5708 0 0 base_link laser 100".split(), "tf", LOC)
    assert findings == [] and edge is not None
    assert (edge.parent, edge.child, edge.static) == ("base_link", "laser", False)
    assert edge.translation == (0.1, 0.0, 0.2)
    assert edge.rotation == pytest.approx(ypr_to_quaternion(1.5708, 0, 0))


def test_tf_ros1_quaternion_form() -> None:
    edge, _ = static_transform_edge("0 0 0 0 0 0.7071068 0.7071068 base_link laser 50".split(), "tf", LOC)
    assert edge is not None and edge.rotation == (0.0, 0.0, 0.7071068, 0.7071068)


def test_the_identity_written_w_first_is_a_half_turn_warning() -> None:
    """zeabus' robot_frame.launch: "0 0 -0.1 1 0 0 0 robot dvl 40" meant the identity and hung the DVL upside down."""
    edge, findings = static_transform_edge("0 0 -0.1 1 0 0 0 robot dvl 40".split(), "tf", LOC)
    assert edge is not None and edge.rotation == (1.0, 0.0, 0.0, 0.0)
    assert [(f.code, f.level.name) for f in findings] == [("INCORRECT_TRANSFORM", "WARNING")]
    assert "'1 0 0 0' is read as qx qy qz qw, a half turn about x" in findings[0].message
    for right in ("0 0 -0.1 0 0 0 1 robot dvl 40", "0 0 -0.1 1 0 0 robot dvl 40"):
        assert static_transform_edge(right.split(), "tf", LOC)[1] == []


def test_angles_named_for_other_axes_in_the_yaw_pitch_roll_form(tmp_path: Path) -> None:
    """lolo_common's upload_lolo_auv.launch (before its fix): the spawn pose's roll, pitch, yaw handed on in that
    order to static_transform_publisher, which takes yaw first."""
    launch = """<launch>
  <arg name="roll" default="0.0"/>
  <arg name="pitch" default="0.0"/>
  <arg name="yaw" default="0.0"/>
  <node pkg="tf" type="static_transform_publisher" name="world_map_bc" args="0 0 0 $(arg roll) $(arg pitch) $(arg yaw) world lolo/map 50" />
  <node pkg="tf" type="static_transform_publisher" name="world_odom_bc" args="0 0 0 $(arg yaw) $(arg pitch) $(arg roll) world lolo/odom 50" />
</launch>
"""
    root = _write(tmp_path / "lolo", {"package.xml": _package("lolo_common", catkin=True), "launch/upload.launch": launch})
    found = [(f.code, f.location.line if f.location else None, f.message) for f in scan([root], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(code, line) for code, line, _ in found] == [("INCORRECT_TRANSFORM", 5)]
    assert "'$(arg roll)' (a roll) is in the yaw slot; '$(arg yaw)' (a yaw) is in the roll slot" in found[0][2]
    assert "takes (yaw, pitch, roll), the angles about (Z, Y, X)" in found[0][2]
    python = """from launch import LaunchDescription
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

def generate_launch_description():
    return LaunchDescription([
        Node(package='tf2_ros', executable='static_transform_publisher',
             arguments=['0', '0', '0', LaunchConfiguration('roll'), '0', LaunchConfiguration('yaw'), 'world', 'map']),
        Node(package='tf2_ros', executable='static_transform_publisher',
             arguments=['0 0 0', LaunchConfiguration('yaw'), '0', LaunchConfiguration('roll'), 'world', 'odom']),
    ])
"""
    root = _write(tmp_path / "py", {"package.xml": _package("lp"), "launch/s.launch.py": python})
    found = [(f.code, f.location.line if f.location else None) for f in scan([root], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]
    assert found == [("INCORRECT_TRANSFORM", 8)]


def test_a_python_launch_frame_made_in_a_variable_is_reported_where_it_is_made(tmp_path: Path) -> None:
    """kitti_odometry_replayer_ros2's load_urdf.launch.py: ``f"{frame_prefix}/"`` with the default empty prefix
    makes the child frame '/p0'; the line to change is the variable's, not the node's argument list."""
    python = """from launch import LaunchDescription
from launch.substitutions import LaunchConfiguration, PythonExpression
from launch_ros.actions import Node

def generate_launch_description():
    frame_prefix = LaunchConfiguration("frame_prefix", default="")
    frame_prefix_with_slash = PythonExpression(['f"', frame_prefix, '/"'])
    p0_frame_id = PythonExpression(['f"', frame_prefix_with_slash, 'p0"'])
    return LaunchDescription([
        Node(package="tf2_ros", executable="static_transform_publisher",
             arguments=["--frame-id", "map",
                        "--child-frame-id", p0_frame_id]),
        Node(package="tf2_ros", executable="static_transform_publisher",
             arguments=["--frame-id", "map", "--child-frame-id", "/p1"]),
    ])
"""
    root = _write(tmp_path / "kitti", {"package.xml": _package("ros2_kitti_description"), "launch/load_urdf.launch.py": python})
    found = [(f.frames, f.location.line if f.location else None) for f in scan([root], jobs=1).findings if f.code == "INVALID_FRAME_ID"]
    assert found == [(("/p0",), 8), (("/p1",), 14)]


def test_two_robots_descriptions_naming_one_frame_point_at_the_second_publisher(tmp_path: Path) -> None:
    """ai_worker's leader and follower: each launch file starts a robot_state_publisher, the leader's (in a namespace,
    but /tf is global) without a frame_prefix, so arm_base_link has the leader's world and the follower's base_link as
    parents. The leader's node, where a frame_prefix keeps the robots apart, is the line to change."""
    def urdf(parent: str) -> str:
        return (f'<robot name="r"><link name="{parent}"/><link name="arm_base_link"/>'
                f'<joint name="j" type="fixed"><parent link="{parent}"/><child link="arm_base_link"/></joint></robot>')
    python = """from launch import LaunchDescription
from launch.actions import GroupAction
from launch.substitutions import Command
from launch_ros.actions import Node, PushRosNamespace
from launch_ros.substitutions import FindPackageShare


def generate_launch_description():
    follower_rsp = Node(package="robot_state_publisher", executable="robot_state_publisher",
                        parameters=[{"robot_description": Command(["xacro ", FindPackageShare("arm"), "/urdf/follower.urdf"])}])
    leader_rsp = Node(
        package="robot_state_publisher",
        executable="robot_state_publisher",
        output="both",
        parameters=[{"robot_description": Command(["xacro ", FindPackageShare("arm"), "/urdf/leader.urdf"])}],
    )
    return LaunchDescription([follower_rsp, GroupAction(actions=[PushRosNamespace("leader"), leader_rsp])])
"""
    root = _write(tmp_path / "ws", {
        "arm/package.xml": _package("arm"),
        "arm/urdf/follower.urdf": urdf("base_link"),
        "arm/urdf/leader.urdf": urdf("world"),
        "arm/launch/both.launch.py": python,
    })
    found = [f for f in scan([root], jobs=1).findings if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert [(f.location.file, f.location.line) for f in found if f.location] == [("arm/launch/both.launch.py", 15)]
    assert "two robot_state_publishers publish these robots: give one a frame_prefix" in found[0].message


def test_a_scan_matcher_told_to_publish_under_map_beside_odometry(tmp_path: Path) -> None:
    """stretch_ros' stretch_scan_matcher.launch: laser_scan_matcher with fixed_frame map broadcasts map -> base_link
    beside the base's odom -> base_link; the fixed_frame parameter is the line to change."""
    launch = """<launch>
  <node pkg="tf2_ros" type="static_transform_publisher" name="odom_stub" args="0 0 0 0 0 0 odom base_link"/>
  <node pkg="laser_scan_matcher" type="laser_scan_matcher_node" name="laser_scan_matcher_node" output="screen">
    <remap from="scan" to="scan_filtered"/>
    <param name="max_iterations" value="10"/>
    <param name="fixed_frame" value="map"/>
  </node>
</launch>
"""
    root = _write(tmp_path / "stretch", {"package.xml": _package("stretch_core", catkin=True), "launch/scan_matcher.launch": launch})
    found = [(f.code, f.location.line if f.location else None) for f in scan([root], jobs=1).findings if f.code == "INCORRECT_FRAME_ORDER_IN_TREE"]
    assert found == [("INCORRECT_FRAME_ORDER_IN_TREE", 6)]


def test_a_required_robot_name_argument_gives_patterns(tmp_path: Path) -> None:
    """uuv_simulator's publish_body_sname.launch (before "FIX Vector for static frame publisher"): read on its own,
    the vehicle's name is a required argument; the NED body frame got a yaw of pi where FRD needs a roll of pi."""
    launch = """<launch>
  <arg name="uuv_name" />
  <group ns="$(arg uuv_name)">
    <node pkg="tf2_ros" type="static_transform_publisher" name="sname_frame_publisher"
          args="0 0 0 3.141592653589793 0 0 $(arg uuv_name)/base_link $(arg uuv_name)/base_link_ned" />
  </group>
</launch>
"""
    root = _write(tmp_path / "uuv", {"package.xml": _package("uuv_assistants", catkin=True), "launch/publish_body_sname.launch": launch})
    result = scan([root], jobs=1)
    found = [f for f in result.findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(f.location and f.location.line, f.frames) for f in found] == [(5, ("base_link", "base_link_ned"))]
    assert "FRD" in found[0].message
    assert {(e.parent, e.child) for e in result.expected.edges} == {("{uuv_name}/base_link", "{uuv_name}/base_link_ned")}
    fixed = launch.replace("3.141592653589793 0 0", "0 0 3.141592653589793")
    root = _write(tmp_path / "fixed", {"package.xml": _package("uuv_assistants", catkin=True), "launch/publish_body_sname.launch": fixed})
    assert [f for f in scan([root], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"] == []


def test_a_rotation_from_a_launch_argument_is_reported_at_its_default(tmp_path: Path) -> None:
    """LiDAR-SLAM-Simulation's stage2_navigation.launch.py (before its fix): body -> base_footprint took its pitch of pi
    from DeclareLaunchArgument('tf_pitch', default_value='3.14159274'), the line to change; the same in ROS 1 XML."""
    python = """from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node
def generate_launch_description():
    tf_pitch = LaunchConfiguration('tf_pitch')
    tf_roll = LaunchConfiguration('tf_roll')
    return LaunchDescription([
        DeclareLaunchArgument('tf_roll', default_value='0.0'),
        DeclareLaunchArgument('tf_pitch', default_value='3.14159274'),
        Node(package='tf2_ros', executable='static_transform_publisher', name='body_to_base_footprint',
             arguments=['--x', '0', '--y', '0', '--z', '-0.3',
                        '--roll', tf_roll, '--pitch', tf_pitch, '--yaw', '0',
                        '--frame-id', 'body', '--child-frame-id', 'base_footprint']),
    ])
"""
    xml = """<launch>
  <arg name="yaw" default="0"/>
  <arg name="pitch" default="3.14159274"/>
  <node pkg="tf2_ros" type="static_transform_publisher" name="body_to_base_footprint"
        args="0 0 -0.3 $(arg yaw) $(arg pitch) 0 body base_footprint"/>
  <arg name="cam_yaw" default="-1.5707963"/>
  <node pkg="tf2_ros" type="static_transform_publisher" name="fcu_to_optflow"
        args="0 0 -0.1 $(arg cam_yaw) 0 -3.14159265 fcu optflow_optical"/>
</launch>
"""
    root = _write(tmp_path / "sim", {"package.xml": _package("robot_navigation"), "launch/stage2.launch.py": python,
                                     "launch/stage2.launch": xml})
    found = sorted((f.location.file, f.location.line) for f in scan([root], jobs=1).findings if f.code == "INCORRECT_TRANSFORM" and f.location)
    # mrs_uav_general's optical flow camera: a yaw from an argument and a roll written on the node, reported there
    assert found == [("launch/stage2.launch", 3), ("launch/stage2.launch", 8), ("launch/stage2.launch.py", 10)]


def test_tf2_ros_trailing_period_is_read_as_quaternion_form_and_reported() -> None:
    edge, findings = static_transform_edge("0 0 0 0 0 0 map odom 100".split(), "tf2_ros1", LOC)
    assert edge is None
    assert [f.code for f in findings] == ["INVALID_TRANSFORM"]
    assert "'odom' -> '100'" in findings[0].message and "trailing period" in findings[0].message


def test_tf2_ros_ros2_flags_with_quaternion_and_missing_frame_id() -> None:
    edge, findings = static_transform_edge(["--qz", "1", "--qw", "0", "--child-frame-id", "laser"], "tf2_ros2", LOC)
    assert edge is None
    assert [f.code for f in findings] == ["MISSING_FRAME"]


def test_tf2_ros_ros2_flags_mixing_forms_is_refused() -> None:
    _, findings = static_transform_edge(["--qz", "1", "--yaw", "0", "--frame-id", "a", "--child-frame-id", "b"], "tf2_ros2", LOC)
    assert [f.code for f in findings] == ["INVALID_TRANSFORM"]


def test_same_frame_static_transform_is_redundant() -> None:
    _, findings = static_transform_edge("0 0 0 0 0 0 base_link base_link".split(), "tf2_ros2", LOC)
    assert [f.code for f in findings] == ["REDUNDANT_TRANSFORM"]


def test_wrong_argument_count_is_a_parse_error() -> None:
    _, findings = static_transform_edge("0 0 0 base_link".split(), "tf2_ros2", LOC)
    assert [f.code for f in findings] == ["PARSE_ERROR"]


def test_unknown_frame_value_gives_no_edge_and_no_finding() -> None:
    assert static_transform_edge(["0", "0", "0", "0", "0", "0", None, "laser"], "tf2_ros2", LOC) == (None, [])


# --- whole launch files -------------------------------------------------------------------------
def test_ros1_launch_args_include_and_xacro_robot_description(tmp_path: Path) -> None:
    ws = _write(tmp_path, {
        "arm/package.xml": _package("arm", catkin=True),
        "arm/urdf/arm.urdf.xacro": """
            <robot name="arm" xmlns:xacro="http://www.ros.org/wiki/xacro">
              <xacro:arg name="tool" default="gripper"/>
              <link name="base_link"/>
              <link name="$(arg tool)_link"/>
              <joint name="tool_joint" type="fixed">
                <parent link="base_link"/>
                <child link="$(arg tool)_link"/>
                <origin xyz="0 0 0.5"/>
              </joint>
            </robot>
            """,
        "arm/launch/description.launch": """
            <launch>
              <arg name="tool" default="camera"/>
              <param name="robot_description" command="$(find xacro)/xacro --inorder '$(find arm)/urdf/arm.urdf.xacro' tool:=$(arg tool)"/>
              <node pkg="robot_state_publisher" type="robot_state_publisher" name="rsp"/>
            </launch>
            """,
        "arm/launch/bringup.launch": """
            <launch>
              <include file="$(find arm)/launch/description.launch"/>
              <node pkg="tf2_ros" type="static_transform_publisher" name="odom_base" args="0 0 0 0 0 0 map odom 100"/>
            </launch>
            """,
    })
    result = scan([ws], jobs=1)
    # xacro is not in the tree: $(find xacro)/xacro is only the program name
    assert [(f.code, f.location.file, f.location.line) for f in result.findings if f.location] == [
        ("INVALID_TRANSFORM", "arm/launch/bringup.launch", 3)
    ]
    edges = {(e.parent, e.child): e for e in result.expected.edges}
    assert ("base_link", "camera_link") in edges  # the launch file's arg overrides the xacro default
    assert ("base_link", "gripper_link") not in edges
    assert edges[("base_link", "camera_link")].sources == (Location("arm/urdf/arm.urdf.xacro", 5),)
    names = [s.name for s in result.subsystems]
    assert names == ["arm/launch/bringup.launch"]


def test_ros2_xml_and_yaml_launch(tmp_path: Path) -> None:
    ws = _write(tmp_path, {
        "cam/package.xml": _package("cam"),
        "cam/urdf/cam.urdf": """
            <robot name="cam">
              <link name="base_link"/><link name="cam_link"/>
              <joint name="j" type="fixed"><parent link="base_link"/><child link="cam_link"/><origin xyz="0.1 0 0"/></joint>
            </robot>
            """,
        "cam/launch/cam.launch.xml": """
            <launch>
              <arg name="ns" default="left"/>
              <node pkg="robot_state_publisher" exec="robot_state_publisher">
                <param name="robot_description" value="$(command 'cat $(find-pkg-share cam)/urdf/cam.urdf')"/>
                <param name="frame_prefix" value="$(var ns)/"/>
              </node>
              <include file="$(find-pkg-share cam)/launch/tf.launch.yaml"/>
            </launch>
            """,
        "cam/launch/tf.launch.yaml": """
            launch:
            - arg:
                name: parent
                default: left/cam_link
            - node:
                pkg: tf2_ros
                exec: static_transform_publisher
                args: "--frame-id $(var parent) --child-frame-id left/cam_optical_frame --yaw -1.5708 --roll -1.5708"
            """,
    })
    result = scan([ws], jobs=1)
    assert result.findings == []
    edges = {(e.parent, e.child): e for e in result.expected.edges}
    assert ("left/base_link", "left/cam_link") in edges  # frame_prefix applied
    opt = edges[("left/cam_link", "left/cam_optical_frame")]
    assert opt.sources == (Location("cam/launch/tf.launch.yaml", 8),)  # the args line


def test_ros2_python_parameters_form_and_xacro_process_file(tmp_path: Path) -> None:
    ws = _write(tmp_path, {
        "bot/package.xml": _package("bot"),
        "bot/urdf/bot.xacro": """
            <robot name="bot" xmlns:xacro="http://www.ros.org/wiki/xacro">
              <xacro:arg name="lidar_z" default="0.3"/>
              <link name="base_link"/><link name="laser"/>
              <joint name="laser_joint" type="fixed"><parent link="base_link"/><child link="laser"/><origin xyz="0 0 $(arg lidar_z)"/></joint>
            </robot>
            """,
        "bot/launch/bot.launch.py": """
            import os
            from pathlib import Path
            import xacro
            from ament_index_python.packages import get_package_share_directory
            from launch import LaunchDescription
            from launch_ros.actions import Node

            CAMERA = "camera_link"

            def generate_launch_description():
                path = str(Path(get_package_share_directory("bot")) / "urdf" / "bot.xacro")
                doc = xacro.process_file(path, mappings={"lidar_z": "0.5"})
                return LaunchDescription([
                    Node(package="robot_state_publisher", executable="robot_state_publisher",
                         parameters=[{"robot_description": doc.toxml()}]),
                    Node(package="tf2_ros", executable="static_transform_publisher",
                         parameters=[{"frame_id": "laser", "child_frame_id": "laser", "translation.x": 0.0}]),
                    Node(package="tf2_ros", executable="static_transform_publisher",
                         arguments=f"0.1 0 {0.2} 0 0 0 base_link {CAMERA}".split()),
                ])
            """,
    })
    result = scan([ws], jobs=1)
    assert [(f.code, f.location and f.location.line) for f in result.findings] == [("REDUNDANT_TRANSFORM", 16)]
    edges = {(e.parent, e.child): e for e in result.expected.edges}
    assert edges[("base_link", "laser")].translation == (0.0, 0.0, 0.5)
    assert edges[("base_link", "camera_link")].translation == (0.1, 0.0, 0.2)  # positional form from an f-string


def test_launch_include_outside_the_tree_is_reported_not_fatal(tmp_path: Path) -> None:
    ws = _write(tmp_path, {
        "a/package.xml": _package("a"),
        "a/launch/a.launch.py": """
            from launch import LaunchDescription
            from launch.actions import IncludeLaunchDescription
            from launch.launch_description_sources import PythonLaunchDescriptionSource
            from launch_ros.substitutions import FindPackageShare
            from launch.substitutions import PathJoinSubstitution

            def generate_launch_description():
                return LaunchDescription([IncludeLaunchDescription(PythonLaunchDescriptionSource(
                    PathJoinSubstitution([FindPackageShare("nav2_bringup"), "launch", "navigation_launch.py"])))])
            """,
    })
    result = scan([ws], jobs=1)
    assert [(f.code, f.location and f.location.line) for f in result.findings] == [("PARSE_ERROR", 8)]


def test_context_maps_share_paths_to_the_source_package(tmp_path: Path) -> None:
    _write(tmp_path, {"p/package.xml": _package("p"), "p/config/urdf/r.urdf": "<robot name='r'/>"})
    ctx = ScanContext(str(tmp_path), {"p": "p"})
    assert ctx.locate_share_path("p", "urdf/r.urdf") == str(tmp_path / "p/config/urdf/r.urdf")
    assert ctx.locate_share_path("q", "x") is None
    assert ctx.rel(tmp_path.parent) is None
    # $(find p)/urdf/r.urdf after an install rule that copied config/urdf to share/p/urdf
    assert ctx.source_file(str(tmp_path / "p/urdf/r.urdf")) == "p/config/urdf/r.urdf"
    assert ctx.source_file(str(tmp_path / "p/urdf/missing.urdf")) is None


def test_arguments_passed_to_included_launch_files_reach_their_xacro(tmp_path: Path) -> None:
    ws = _write(tmp_path, {
        "cam/package.xml": _package("cam"),
        "cam/urdf/cam.urdf.xacro": """
            <robot name="cam" xmlns:xacro="http://www.ros.org/wiki/xacro">
              <xacro:arg name="side" default="front"/>
              <link name="base_link"/><link name="$(arg side)_camera_link"/>
              <joint name="j" type="fixed"><parent link="base_link"/><child link="$(arg side)_camera_link"/></joint>
            </robot>
            """,
        "cam/launch/camera.launch.py": """
            from launch import LaunchDescription
            from launch.actions import DeclareLaunchArgument
            from launch.substitutions import Command, LaunchConfiguration, PathJoinSubstitution
            from launch_ros.actions import Node
            from launch_ros.substitutions import FindPackageShare

            def generate_launch_description():
                xacro_file = PathJoinSubstitution([FindPackageShare("cam"), "urdf", "cam.urdf.xacro"])
                return LaunchDescription([
                    DeclareLaunchArgument("side", default_value="front"),
                    Node(package="robot_state_publisher", executable="robot_state_publisher",
                         parameters=[{"robot_description": Command(["xacro ", xacro_file, " side:=", LaunchConfiguration("side")])}]),
                ])
            """,
        "cam/launch/rear.launch.py": """
            from launch import LaunchDescription
            from launch.actions import IncludeLaunchDescription
            from launch.launch_description_sources import PythonLaunchDescriptionSource
            from launch_ros.substitutions import FindPackageShare
            from launch.substitutions import PathJoinSubstitution

            def generate_launch_description():
                camera = PathJoinSubstitution([FindPackageShare("cam"), "launch", "camera.launch.py"])
                return LaunchDescription([
                    IncludeLaunchDescription(PythonLaunchDescriptionSource(camera), launch_arguments={"side": "rear"}.items()),
                ])
            """,
        "cam/launch/both.launch.xml": """
            <launch>
              <include file="$(find-pkg-share cam)/launch/camera.launch.py"><arg name="side" value="left"/></include>
              <include file="$(find-pkg-share cam)/launch/rear.launch.py"/>
            </launch>
            """,
    })
    result = scan([ws], jobs=1)
    by_name = {s.name: {e.child for e in s.edges} for s in result.subsystems}
    assert by_name == {"cam/launch/both.launch.xml": {"left_camera_link", "rear_camera_link"}}
    assert {e.child for e in result.expected.edges} == {"left_camera_link", "rear_camera_link"}


def test_a_launch_file_including_itself_with_growing_arguments_terminates(tmp_path: Path) -> None:
    ws = _write(tmp_path, {
        "loop/package.xml": _package("loop", catkin=True),
        "loop/launch/loop.launch": """
            <launch>
              <arg name="ns" default="r"/>
              <node pkg="tf2_ros" type="static_transform_publisher" args="0 0 0 0 0 0 $(arg ns)/base_link $(arg ns)/laser"/>
              <include file="$(find loop)/launch/loop.launch"><arg name="ns" value="$(arg ns)x"/></include>
            </launch>
            """,
    })
    result = scan([ws], jobs=1)
    [sub] = result.subsystems
    assert 2 <= len(sub.edges) <= 17


# one fixed joint, base_link -> tool0 (line 3 of the file as written)
ARM_URDF = """
            <robot name="arm">
              <link name="base_link"/><link name="tool0"/>
              <joint name="flange" type="fixed"><parent link="base_link"/><child link="tool0"/><origin xyz="0 0 0.4"/></joint>
            </robot>
            """


def test_ros1_tf_prefix_and_textfile_description(tmp_path: Path) -> None:
    ws = _write(tmp_path, {
        "arm/package.xml": _package("arm", catkin=True),
        "arm/urdf/arm.urdf": ARM_URDF,
        "arm/launch/two_arms.launch": """
            <launch>
              <group ns="left">
                <param name="tf_prefix" value="left"/>
                <param name="robot_description" textfile="$(find arm)/urdf/arm.urdf"/>
                <node pkg="robot_state_publisher" type="robot_state_publisher" name="rsp"/>
              </group>
            </launch>
            """,
    })
    result = scan([ws], jobs=1)
    assert result.findings == []
    [edge] = result.expected.edges
    assert (edge.parent, edge.child, edge.translation) == ("left/base_link", "left/tool0", (0.0, 0.0, 0.4))
    assert edge.sources == (Location("arm/urdf/arm.urdf", 3),)  # a plain URDF: its own line


def test_ros1_description_param_named_by_an_argument_is_the_robot_description(tmp_path: Path) -> None:
    """talos_description's upload.launch: `<param name="$(arg parameter_name)" command="xacro ...">` with the
    argument's default robot_description loads the robot a robot_state_publisher started elsewhere reads."""
    ws = _write(tmp_path, {
        "arm/package.xml": _package("arm", catkin=True),
        "arm/urdf/arm.urdf": ARM_URDF,
        "arm/launch/upload.launch": """
            <launch>
              <arg name="parameter_name" default="robot_description"/>
              <param name="$(arg parameter_name)" textfile="$(find arm)/urdf/arm.urdf"/>
            </launch>
            """,
    })
    result = scan([ws], jobs=1)
    assert [(e.parent, e.child) for e in result.expected.edges] == [("base_link", "tool0")]


def test_ros1_static_transforms_with_tf_era_slashes_are_the_stripped_frames(tmp_path: Path) -> None:
    """ROS 1 tf and tf2 strip a leading '/' when a transform is inserted (tf2 BufferCore::setTransform): the
    fully qualified names of tf-era launch files (AutoNavQuad's 'world /map') are a hint, not an error (the slash
    still goes out on /tf_static, deprecated since Hydro), and '/base_link' in one file is the same frame as
    'base_link' in another (one parent, not two trees)."""
    ws = _write(tmp_path, {
        "quad/package.xml": _package("quad", catkin=True),
        "quad/launch/world.launch": """
            <launch>
              <node pkg="tf" type="static_transform_publisher" name="world_to_map" args="0.0 0.0 0.0 0.0 0.0 0.0 world /map 100" />
              <node pkg="tf2_ros" type="static_transform_publisher" name="map_to_odom" args="0 0 0 0 0 0 /map odom" />
              <node pkg="tf" type="static_transform_publisher" name="bad" args="0 0 0 0 0 0 odom 'base link' 100" />
            </launch>
            """,
    })
    result = scan([ws], jobs=1)
    assert sorted((e.parent, e.child) for e in result.expected.edges) == [("map", "odom"), ("odom", "base link"), ("world", "map")]
    # whitespace is still reported: tf2 stores that name as written and no lookup of 'base_link' finds it
    assert sorted((f.frames, f.level.name, f.location.line if f.location else None) for f in result.findings if f.code == "INVALID_FRAME_ID") == [
        (("/map",), "INFO", 2), (("/map",), "INFO", 3), (("base link",), "WARNING", 4)]
    assert "ROS 1 tf2 strips it when storing the transform, so the tree has 'map'" in next(f.message for f in result.findings if f.frames == ("/map",))
    assert not [f for f in result.findings if f.code == "DISCONNECTED_TREE"]


def test_a_static_transform_publisher_whose_name_reverses_its_frames_is_a_reversed_name(tmp_path: Path) -> None:
    """``name="map_to_odom"`` on a node that publishes odom -> map (a warning: the name or the arguments are
    reversed); gazebo2rviz's ``static_tf_pub_world_to_gazebo_world`` publishing gazebo_world -> world, more words
    before the first frame; a name that agrees, or names no transform, is nothing. ``a_to_b`` also reads as "the pose
    of a in b": on a transform going down REP-105's tree it is that reading, not a reversal (RAS-2016's
    ``odom_to_map`` on map -> odom; IGVC22-23's ``camera_to_base_link`` on base_link -> camera, the fix of a camera
    made base_link's parent)."""
    ws = _write(tmp_path, {
        "robot/package.xml": _package("robot", catkin=True),
        "robot/launch/static_tf.launch": """<launch>
  <node pkg="tf" type="static_transform_publisher" name="map_to_odom" args="0 0 0 0 0 0 /odom /map 100" />
  <node pkg="tf" type="static_transform_publisher" name="base_to_laser" args="0 0 0.2 0 0 0 base_link laser 100" />
  <node pkg="tf" type="static_transform_publisher" name="laser_mount" args="0 0 0.2 0 0 0 base_link sonar 100" />
  <node name="static_tf_pub_world_to_gazebo_world" pkg="tf2_ros" type="static_transform_publisher" args="0 0 0  0 0 0 1 gazebo_world world" />
  <node name="static_tf_pub_map_to_odom_frame" pkg="tf2_ros" type="static_transform_publisher" args="0 0 0 0 0 0 map odom" />
  <node pkg="tf" type="static_transform_publisher" name="odom_to_map" args="0 0 0 0 0 0 /map /odom 100" />
  <node pkg="tf" type="static_transform_publisher" name="camera_to_base_link" args="0.5 0 1.2 0 0 0 1 base_link camera 100"/>
</launch>
""",
    })
    found = [(f.code, f.severity.value, f.location.line if f.location else None) for f in scan([ws]).findings if f.code == "REVERSED_NAME"]
    assert found == [("REVERSED_NAME", "warning", 2), ("REVERSED_NAME", "warning", 5)]


def test_a_camera_driver_stamping_a_body_frame_whose_optical_twin_the_tree_holds(tmp_path: Path) -> None:
    """NaviGator's idiom (its camera launch files before PR #469): usb_cam given the body frame while the robot's
    description has the optical frame turned (-pi/2, 0, -pi/2) from it. Judged in the launch file's subsystem."""
    ws = _write(tmp_path, {
        "boat/package.xml": _package("boat", catkin=True),
        "boat/urdf/boat.urdf": """
            <robot name="boat">
              <link name="base_link"/>
              <link name="front_cam"/>
              <link name="front_cam_optical"/>
              <joint name="front_cam_joint" type="fixed">
                <parent link="base_link"/><child link="front_cam"/><origin xyz="1 0 0.5"/>
              </joint>
              <joint name="front_cam_optical_joint" type="fixed">
                <parent link="front_cam"/><child link="front_cam_optical"/><origin rpy="-1.5707963 0 -1.5707963"/>
              </joint>
            </robot>
            """,
        "boat/launch/bringup.launch": """
            <launch>
              <param name="robot_description" textfile="$(find boat)/urdf/boat.urdf"/>
              <node pkg="robot_state_publisher" type="robot_state_publisher" name="rsp"/>
              <node pkg="usb_cam" type="usb_cam_node" name="front">
                <param name="camera_frame_id" value="front_cam"/>
              </node>
              <node pkg="usb_cam" type="usb_cam_node" name="optical">
                <param name="camera_frame_id" value="front_cam_optical"/>
              </node>
            </launch>
            """,
    })
    result = scan([ws], jobs=1)
    (found,) = [f for f in result.findings if f.code == "INCORRECT_TRANSFORM"]
    assert (found.location.file, found.location.line) == ("boat/launch/bringup.launch", 5)  # type: ignore[union-attr]
    assert found.frames == ("front_cam", "front_cam_optical")
    assert "Image data is published in 'front_cam', a camera body frame" in found.message
    assert "while the tree also has its optical frame 'front_cam_optical'" in found.message


def test_ros1_launch_files_named_xml_in_a_launch_folder_are_read_and_odd_includes_never_crash(tmp_path: Path) -> None:
    """mir_robot's mir_navigation: start_planner.launch includes launch/move_base.xml with arguments. roslaunch
    includes any file: an .xml of a launch folder is read as a launch file (unless it holds no <launch>), and an
    included file the scan does not read is skipped, arguments or not (it crashed the scan with a KeyError)."""
    ws = _write(tmp_path, {
        "nav/package.xml": _package("nav", catkin=True),
        "nav/launch/start_planner.launch": """
            <launch>
              <include file="$(find nav)/launch/move_base.xml"><arg name="global_frame" value="map"/></include>
              <include file="$(find nav)/launch/notes.txt"><arg name="x" value="1"/></include>
            </launch>
            """,
        "nav/launch/move_base.xml": """
            <launch>
              <arg name="global_frame" default="map"/>
              <node pkg="map_server" type="map_server" name="map_server"><param name="frame_id" value="/map"/></node>
            </launch>
            """,
        "nav/launch/layout.xml": "<config><frame>/map</frame></config>\n",
        "nav/launch/notes.txt": "not a launch file\n",
    })
    result = scan([ws], jobs=1)
    assert [(f.code, f.location.file, f.location.line) for f in result.findings if f.location] == [
        ("INVALID_FRAME_ID", "nav/launch/move_base.xml", 3)
    ]


def test_a_frame_argument_whose_default_is_invalid_is_reported_at_the_argument(tmp_path: Path) -> None:
    """openni_launch's openni.launch (before its PR #19): the frame ids built on an empty tf_prefix start with '/'.
    Reported at the <arg> that writes them (the line to change), not again at the node of the same file."""
    ws = _write(tmp_path, {
        "cam/package.xml": _package("cam", catkin=True),
        "cam/launch/openni.launch": """
            <launch>
              <arg name="camera" default="camera" />
              <arg name="tf_prefix" default="" />
              <arg name="rgb_frame_id" default="$(arg tf_prefix)/$(arg camera)_rgb_optical_frame" />
              <arg name="target_frame" default="/map" />
              <arg name="trajectory_source_frame_name" default="/base_link" />
              <node pkg="openni_camera" type="openni_node" name="driver">
                <param name="rgb_frame_id" value="$(arg rgb_frame_id)" />
              </node>
            </launch>
            """,
    })
    found = [(f.code, f.location.line, f.frames) for f in scan([ws], jobs=1).findings if f.location]
    # ROS 1 tf resolves '/map' in lookups: a lookup's frame is not checked
    assert found == [("INVALID_FRAME_ID", 4, ("/camera_rgb_optical_frame",))]


# --- drive controllers configured in YAML ----------------------------------------------------------
_MOUSE_URDF = """\
    <robot name="mouse">
      <link name="base_footprint"/>
      <link name="base_link"/>
      <joint name="base_joint" type="fixed">
        <parent link="base_footprint"/><child link="base_link"/>
        <origin xyz="0 0 0.01" rpy="0 0 0"/>
      </joint>
    </robot>
    """


_ROS2_CONTROL_PLUGIN = """\
      <gazebo>
        <plugin filename="ign_ros2_control-system" name="ign_ros2_control::IgnitionROS2ControlPlugin">
          <parameters>$(find light_control)/config/ros_controllers.yaml</parameters>
        </plugin>
      </gazebo>
    </robot>
"""


def _mouse(tmp_path: Path, controllers: str) -> list[tuple[str, int | None]]:
    _write(tmp_path, {
        "mouse_control/package.xml": _package("mouse_control", catkin=True),
        "mouse_control/config/controller.yaml": controllers,
        "mouse_control/launch/control.launch": """\
            <launch>
              <rosparam file="$(find mouse_control)/config/controller.yaml" command="load"/>
              <param name="robot_description" textfile="$(find mouse_control)/urdf/mouse.urdf"/>
              <node name="spawner" pkg="controller_manager" type="spawner" args="joint_state_controller diff_drive_controller"/>
              <node name="robot_state_publisher" pkg="robot_state_publisher" type="robot_state_publisher"/>
            </launch>
            """,
        "mouse_control/urdf/mouse.urdf": _MOUSE_URDF,
    })
    return [(f.location.file, f.location.line) for f in scan([tmp_path], jobs=1).findings
            if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE" and f.location]


def test_a_diff_drive_controller_left_at_base_link_beside_a_base_footprint_root(tmp_path: Path) -> None:
    """raspimouse_sim: the controller publishes odom -> base_link (its default base_frame_id) while the URDF gives
    base_link the parent base_footprint; the YAML loaded by the launch file is the line to change."""
    ros1 = """\
        mouse:
          joint_state_controller:
            type: joint_state_controller/JointStateController
          diff_drive_controller:
            type: "diff_drive_controller/DiffDriveController"
            left_wheel: left_wheel_joint
        """
    assert _mouse(tmp_path, ros1) == [("mouse_control/config/controller.yaml", 4)]


def test_a_drive_controller_given_the_root_or_no_odometry_transform(tmp_path: Path) -> None:
    fixed = """\
        diff_drive_controller:
          type: diff_drive_controller/DiffDriveController
          base_frame_id: base_footprint
        """
    assert _mouse(tmp_path, fixed) == []
    off = fixed.replace("base_frame_id: base_footprint", "enable_odom_tf: false")
    assert _mouse(tmp_path, off) == []


def test_ros2_control_names_the_type_under_the_controller_manager(tmp_path: Path) -> None:
    from physframe_ros.scan.controllers import controller_edges

    text = (
        "controller_manager:\n  ros__parameters:\n    update_rate: 50\n    diff_drive_base_controller:\n"
        "      type: diff_drive_controller/DiffDriveController\n\n"
        "diff_drive_base_controller:\n  ros__parameters:\n    base_frame_id: base_footprint\n    odom_frame_id: odom\n"
    )
    (edge,) = controller_edges(text, "config/controllers.yaml")
    assert (edge.parent, edge.child, edge.static, edge.sources) == ("odom", "base_footprint", False, (Location("config/controllers.yaml", 4),))
    assert controller_edges("a: [unclosed\n  Controller", "x.yaml") == []


def test_a_gazebo_ros2_control_plugin_runs_the_controllers_its_parameters_name(tmp_path: Path) -> None:
    """sobit_light: the robot's xacro loads its controllers through the Gazebo ros2_control plugin's <parameters>;
    the diff drive controller's base_frame_id base_link gives base_link a second parent beside the robot's
    base_footprint -> base_link joint, reported at that line."""
    controllers = """\
        controller_manager:
          ros__parameters:
            update_rate: 10
            diff_controller:
              type: "diff_drive_controller/DiffDriveController"

        diff_controller:
          ros__parameters:
            odom_frame_id: odom
            base_frame_id: base_link
            enable_odom_tf: true
        """
    _write(tmp_path, {
        "light_control/package.xml": _package("light_control"),
        "light_control/config/ros_controllers.yaml": controllers,
        "light_description/package.xml": _package("light_description"),
        # the mouse robot, rooted at base_footprint, with the plugin
        "light_description/urdf/light.urdf.xacro": _MOUSE_URDF.replace("    </robot>\n", _ROS2_CONTROL_PLUGIN),
    })
    found = [(f.location.file, f.location.line) for f in scan([tmp_path], jobs=1).findings
             if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE" and f.location]
    assert found == [("light_control/config/ros_controllers.yaml", 10)]


def test_controller_yaml_aliases_are_read_once() -> None:
    """A few lines of anchors, each level naming the one below ten times, are 10^30 mappings when walked as a
    tree: every mapping is read once, so this returns at once."""
    from physframe_ros.scan.controllers import controller_edges

    levels = ["a0: &a0 {type: diff_drive_controller/DiffDriveController}"]
    levels += [f"a{i}: &a{i} {{" + ", ".join(f"k{j}: *a{i - 1}" for j in range(10)) + "}" for i in range(1, 30)]
    assert [(e.parent, e.child) for e in controller_edges("\n".join(levels) + "\n", "bomb.yaml")] == [("odom", "base_link")]


def _ekf(tmp_path: Path, rosparam: str) -> list[tuple[str, int | None]]:
    _write(tmp_path, {
        "bot_bringup/package.xml": _package("bot_bringup", catkin=True),
        "bot_bringup/urdf/bot.urdf": _MOUSE_URDF,
        "bot_bringup/config/ekf.yaml": "base_link_frame: base_footprint\n",
        "bot_bringup/launch/bringup.launch": f"""\
            <launch>
              <param name="robot_description" textfile="$(find bot_bringup)/urdf/bot.urdf"/>
              <node name="robot_state_publisher" pkg="robot_state_publisher" type="robot_state_publisher"/>
              <node pkg="robot_localization" type="ekf_localization_node" name="ekf">
                {rosparam}
              </node>
            </launch>
            """,
    })
    return [(f.location.file, f.location.line) for f in scan([tmp_path], jobs=1).findings
            if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE" and f.location]


def test_a_robot_localization_filter_left_at_base_link_beside_a_base_footprint_root(tmp_path: Path) -> None:
    """orne_navigation: the EKF's base_link_frame defaults to base_link, so it publishes odom -> base_link while the
    URDF gives base_link the parent base_footprint. Its parameters must all be known: a file may set the frame."""
    assert _ekf(tmp_path / "a", "<rosparam>\n  two_d_mode: true\n  frequency: 40\n</rosparam>") == [("bot_bringup/launch/bringup.launch", 4)]
    assert _ekf(tmp_path / "b", "<rosparam>\n  base_link_frame: base_footprint\n</rosparam>") == []
    assert _ekf(tmp_path / "c", "<rosparam>\n  publish_tf: false\n</rosparam>") == []
    assert _ekf(tmp_path / "d", '<rosparam command="load" file="$(find bot_bringup)/config/ekf.yaml"/>') == []
    # a body too large to read here may set the frame as well as a file may
    assert _ekf(tmp_path / "e", "<rosparam>\n" + "  two_d_mode: true\n" * 4000 + "</rosparam>") == []


def test_an_odometry_driver_left_at_its_default_frames_beside_a_static_parent(tmp_path: Path) -> None:
    """YaleIGVC 2014: segway_rmp_node broadcasts odom -> base_link by default while the same launch file fixes
    base_footprint -> base_link. The second parent is reported at the fixed transform and names the node; a driver
    told another child frame, or not to broadcast, gives base_link no second parent."""
    def found(params: str, root: Path) -> list[tuple[int | None, str]]:
        _write(root, {
            "bot_bringup/package.xml": _package("bot_bringup", catkin=True),
            "bot_bringup/launch/test.launch": f"""\
                <launch>
                  <node pkg="segway_rmp" type="segway_rmp_node" name="segway_rmp_node" args="_serial_port:=/dev/ttyUSB1">{params}</node>
                  <node pkg="tf" type="static_transform_publisher" name="fp" args="0 0 -0.25 0 0 0 base_footprint base_link 1000"/>
                </launch>
                """,
        })
        return [(f.location.line if f.location else None, f.message) for f in scan([root], jobs=1).findings
                if f.code in ("MULTIPLE_PARENTS_IN_FRAME_TREE", "STATIC_DYNAMIC_CONFLICT")]

    (only,) = found("", tmp_path / "a")
    assert only[0] == 3 and "'odom' (from segway_rmp_node, bot_bringup/launch/test.launch:2)" in only[1]
    assert found('<param name="frame_id" value="base_footprint"/>', tmp_path / "b") == []
    assert found('<param name="broadcast_tf" value="false"/>', tmp_path / "c") == []


def _node_beside_fixed(package: str, node: str, fixed: str, tool: str = "tf") -> dict[str, str]:
    """A launch file ``<package>/launch/<package>.launch`` starting ``node`` (an element's text) on line 2 and, on
    line 3, a ``static_transform_publisher`` of ``tool`` with the arguments ``fixed`` (tf's get a period)."""
    period = " 100" if tool == "tf" else ""
    return {
        f"{package}/package.xml": _package(package, catkin=True),
        f"{package}/launch/{package}.launch": (
            f'<launch>\n  {node}\n  <node pkg="{tool}" type="static_transform_publisher" name="fixed" args="{fixed}{period}"/>\n</launch>\n'),
    }


def _driver_sources(package: str, executable: str, parent: str, child: str) -> dict[str, str]:
    """A driver package whose node's sources broadcast ``parent -> child`` on line 4 of ``src/<executable>.cpp``."""
    return {
        f"{package}/package.xml": _package(package, catkin=True),
        f"{package}/CMakeLists.txt": f"project({package})\nadd_executable({executable} src/{executable}.cpp)\n",
        f"{package}/src/{executable}.cpp": (
            "#include <tf/transform_broadcaster.h>\nvoid Node::publishOdom(const tf::Transform& t)\n{\n"
            f'  odom_broadcaster_.sendTransform(tf::StampedTransform(t, ros::Time::now(), "{parent}", "{child}"));\n}}\n'),
    }


def test_a_static_stand_in_beside_the_drivers_scanned_broadcast_is_reported_at_the_launch_file(tmp_path: Path) -> None:
    """YaleIGVC 2014 carries segway_rmp's sources: the code's odom -> base_link stands for the node, and the second
    parent is still reported at the launch file's hand-written base_footprint -> base_link, the line to remove."""
    _write(tmp_path, {
        **_driver_sources("segway_rmp", "segway_rmp_node", "odom", "base_link"),
        **_node_beside_fixed("bringup", '<node pkg="segway_rmp" type="segway_rmp_node" name="segway_rmp_node"/>',
                             "0 0 -0.25 0 0 0 base_footprint base_link"),
    })
    (only,) = [f for f in scan([tmp_path], jobs=1).findings if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert only.location == Location("bringup/launch/bringup.launch", 3)
    assert "segway_rmp/src/segway_rmp_node.cpp:4" in only.message


@pytest.mark.parametrize(("node", "params", "conflict"), [
    ('pkg="amcl" type="amcl"', "", True),
    ('pkg="amcl" type="amcl"', '<param name="tf_broadcast" value="false"/>', False),
    ('pkg="amcl" type="amcl"', '<param name="odom_frame_id" value="odom_combined"/>', False),
    ('pkg="gmapping" type="slam_gmapping"', '<param name="odom_frame" value="odom"/>', True),
    ('pkg="gmapping" type="slam_gmapping"', '<param name="transform_publish_period" value="0.0"/>', False),
    ('pkg="fake_localization" type="fake_localization"', "", True),
    ('pkg="fake_localization" type="fake_localization"', "", "tf2_ros"),
])
def test_a_static_map_to_odom_beside_a_localisation_node(tmp_path: Path, node: str, params: str, conflict: bool | str) -> None:
    """pandora_navigation's move_base.launch, run with gmapping: a fixed map -> odom (tf's static_transform_publisher
    sends it on /tf, tf2_ros' on /tf_static) beside a node that broadcasts map -> odom by default (amcl,
    slam_gmapping, fake_localization): lookups jump between the two values."""
    tool = conflict if isinstance(conflict, str) else "tf"
    _write(tmp_path, _node_beside_fixed("nav", f'<node {node} name="localiser">{params}</node>', "0 0 0 0 0 0 map odom", tool))
    found = [(f.code, f.location) for f in scan([tmp_path], jobs=1).findings
             if f.code in ("STATIC_DYNAMIC_CONFLICT", "MULTIPLE_PARENTS_IN_FRAME_TREE")]
    assert found == ([("STATIC_DYNAMIC_CONFLICT", Location("nav/launch/nav.launch", 3))] if conflict else [])


def test_a_switch_that_starts_a_second_publisher_is_turned(tmp_path: Path) -> None:
    """pandora_navigation: ``gmapping:=true`` includes slam_gmapping (map -> odom) and tells the included move_base.launch
    to start its own static map -> odom. The defaults run one publisher; the switch turned runs both, reported at the
    fixed one with the argument that turns it on."""
    _write(tmp_path, {
        "nav/package.xml": _package("nav", catkin=True),
        "nav/launch/sim.launch": """\
<launch>
  <arg name="gmapping" default="false"/>
  <arg name="rviz" default="true"/>
  <include file="$(find nav)/launch/gmapping.launch" if="$(arg gmapping)"/>
  <include file="$(find nav)/launch/move_base.launch">
    <arg name="gmapping" value="$(arg gmapping)"/>
  </include>
  <node pkg="rviz" type="rviz" name="rviz" if="$(arg rviz)"/>
</launch>
""",
        "nav/launch/gmapping.launch": '<launch>\n  <node pkg="gmapping" type="slam_gmapping" name="slam_gmapping"/>\n</launch>\n',
        "nav/launch/move_base.launch": """\
<launch>
  <arg name="gmapping" default="false"/>
  <group if="$(arg gmapping)">
    <node pkg="tf" type="static_transform_publisher" name="map2odom" args="0 0 0 0 0 0 map odom 100"/>
  </group>
</launch>
""",
    })
    (only,) = [f for f in scan([tmp_path], jobs=1).findings if f.code == "STATIC_DYNAMIC_CONFLICT"]
    assert only.location == Location("nav/launch/move_base.launch", 4)
    assert only.message.startswith("launched with gmapping:=true (the argument at nav/launch/sim.launch:2): transform map -> odom")


def test_a_launch_file_its_includers_start_with_a_switch_turned_is_also_run_as_itself(tmp_path: Path) -> None:
    """NaviGator: simulation.launch includes master.launch with simulation:=true, which leaves out the hardware cameras;
    on the boat master.launch runs with its default false, and its usb_cam stamps the images in the camera's body frame
    beside the description's optical twin. master.launch is checked as itself too."""
    _write(tmp_path, {
        "boat/package.xml": _package("boat", catkin=True),
        "boat/urdf/boat.urdf": """\
<robot name="boat">
  <link name="base_link"/><link name="front_cam"/><link name="front_cam_optical"/>
  <joint name="cam" type="fixed"><parent link="base_link"/><child link="front_cam"/><origin xyz="1 0 0.5" rpy="0 0 0"/></joint>
  <joint name="cam_optical" type="fixed"><parent link="front_cam"/><child link="front_cam_optical"/>
    <origin xyz="0 0 0" rpy="-1.5707963 0 -1.5707963"/></joint>
</robot>
""",
        "boat/launch/simulation.launch": """\
<launch>
  <include file="$(find boat)/launch/master.launch">
    <arg name="simulation" value="true"/>
  </include>
</launch>
""",
        "boat/launch/master.launch": """\
<launch>
  <arg name="simulation" default="False"/>
  <param name="robot_description" textfile="$(find boat)/urdf/boat.urdf"/>
  <node pkg="robot_state_publisher" type="robot_state_publisher" name="robot_state_publisher"/>
  <include file="$(find boat)/launch/camera.launch">
    <arg name="simulation" value="$(arg simulation)"/>
  </include>
</launch>
""",
        "boat/launch/camera.launch": """\
<launch>
  <arg name="simulation" default="False"/>
  <node pkg="usb_cam" type="usb_cam_node" name="front_cam_driver" unless="$(arg simulation)">
    <param name="camera_frame_id" value="front_cam"/>
  </node>
</launch>
""",
    })
    result = scan([tmp_path], jobs=1)
    assert "boat/launch/master.launch" in [s.name for s in result.subsystems]
    (found,) = [f for f in result.findings if f.code == "INCORRECT_TRANSFORM"]
    assert found.location == Location("boat/launch/camera.launch", 4) and "'front_cam_optical'" in found.message


def test_a_python_launch_switch(tmp_path: Path) -> None:
    """The same in a ROS 2 Python launch file: ``slam:=true`` starts slam_toolbox (map -> odom) beside the file's own
    static map -> odom, which the default runs alone."""
    python = """\
from launch import LaunchDescription
from launch.actions import DeclareLaunchArgument
from launch.conditions import IfCondition
from launch.substitutions import LaunchConfiguration
from launch_ros.actions import Node

def generate_launch_description():
    slam = LaunchConfiguration('slam')
    return LaunchDescription([
        DeclareLaunchArgument('slam', default_value='false'),
        Node(package='slam_toolbox', executable='async_slam_toolbox_node', parameters=[{'use_sim_time': True}],
             condition=IfCondition(slam)),
        Node(package='tf2_ros', executable='static_transform_publisher',
             arguments=['0', '0', '0', '0', '0', '0', 'map', 'odom']),
    ])
"""
    _write(tmp_path, {"nav/package.xml": _package("nav"), "nav/launch/nav.launch.py": python})
    (only,) = [f for f in scan([tmp_path], jobs=1).findings if f.code == "STATIC_DYNAMIC_CONFLICT"]
    assert only.location == Location("nav/launch/nav.launch.py", 14)  # its arguments
    assert only.message.startswith("launched with slam:=true (the argument at nav/launch/nav.launch.py:10)")


@pytest.mark.parametrize(("name", "extra", "second_parent"), [
    ("name='ekf_filter_node', ", "", True),
    ("name='ekf_filter_node', ", "    publish_tf: false\n", False),
    ("", "", False),  # unnamed: the node's own default name may pick another section of the file
])
def test_a_ros2_nodes_parameter_file_in_the_tree_gives_its_values(tmp_path: Path, name: str, extra: str, second_parent: bool) -> None:
    """robot_localization's EKF configured by the package's own YAML: the file's section for the node (and ``/**``)
    is read, so its broadcast odom -> base_link is modelled and meets the launch file's base_footprint -> base_link."""
    python = f"""\
import os
from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch_ros.actions import Node

def generate_launch_description():
    config = os.path.join(get_package_share_directory('bot'), 'config', 'ekf.yaml')
    return LaunchDescription([
        Node(package='robot_localization', executable='ekf_node', {name}parameters=[config]),
        Node(package='tf2_ros', executable='static_transform_publisher',
             arguments=['0', '0', '0.1', '0', '0', '0', 'base_footprint', 'base_link']),
    ])
"""
    yaml_text = f"/**:\n  ros__parameters:\n    use_sim_time: true\nekf_filter_node:\n  ros__parameters:\n    odom_frame: odom\n" \
                f"    base_link_frame: base_link\n    world_frame: odom\n{extra}other_node:\n  ros__parameters:\n    publish_tf: false\n"
    _write(tmp_path, {"bot/package.xml": _package("bot"), "bot/launch/bot.launch.py": python, "bot/config/ekf.yaml": yaml_text})
    found = [f.code for f in scan([tmp_path], jobs=1).findings if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found == (["MULTIPLE_PARENTS_IN_FRAME_TREE"] if second_parent else [])


def test_a_ros2_xml_launch_switch(tmp_path: Path) -> None:
    """ROS 2 XML: ``if="$(var slam)"`` on slam_toolbox beside the file's static map -> odom."""
    xml = """\
<launch>
  <arg name="slam" default="false"/>
  <node pkg="slam_toolbox" exec="async_slam_toolbox_node" name="slam" if="$(var slam)">
    <param name="use_sim_time" value="true"/>
  </node>
  <node pkg="tf2_ros" exec="static_transform_publisher" name="fixed" args="0 0 0 0 0 0 map odom"/>
</launch>
"""
    _write(tmp_path, {"nav/package.xml": _package("nav"), "nav/launch/nav.launch.xml": xml})
    (only,) = [f for f in scan([tmp_path], jobs=1).findings if f.code == "STATIC_DYNAMIC_CONFLICT"]
    assert (only.location, only.message.split(":")[0]) == (Location("nav/launch/nav.launch.xml", 6), "launched with slam")


def test_a_switch_of_an_included_file_its_includer_leaves_alone(tmp_path: Path) -> None:
    """soccerbot's localization.launch: ``fake_localization`` (default true, not passed by the robot's launch) starts
    robot_pose_ekf when false, beside a static odom -> base_footprint that always runs. The node's parameter file is in
    the tree, so its parameters are known and its broadcast is modelled."""
    _write(tmp_path, {
        "bot/package.xml": _package("bot", catkin=True),
        "bot/config/ekf.yaml": "freq: 30.0\nodom_used: true\nimu_used: true\n",
        "bot/launch/bot.launch": '<launch>\n  <include file="$(find bot)/launch/localization.launch"/>\n</launch>\n',
        "bot/launch/localization.launch": """\
<launch>
  <arg name="fake_localization" default="true"/>
  <node pkg="robot_pose_ekf" type="robot_pose_ekf" name="robot_pose_ekf" unless="$(arg fake_localization)">
    <rosparam file="$(find bot)/config/ekf.yaml" command="load"/>
    <param name="output_frame" value="odom"/>
  </node>
  <node pkg="tf" type="static_transform_publisher" name="fixed" args="0 0 0 0 0 0 odom base_footprint 100"/>
</launch>
""",
    })
    found = [(f.code, f.location) for f in scan([tmp_path], jobs=1).findings if f.code == "STATIC_DYNAMIC_CONFLICT"]
    assert found == [("STATIC_DYNAMIC_CONFLICT", Location("bot/launch/localization.launch", 7))]


def test_a_nodes_parameter_file_outside_the_tree_leaves_its_broadcast_unknown(tmp_path: Path) -> None:
    """A parameter file the scan cannot read may turn the broadcast off or rename its frames: nothing is modelled."""
    _write(tmp_path, _node_beside_fixed(
        "nav", '<node pkg="amcl" type="amcl" name="amcl"><rosparam file="$(find other)/amcl.yaml" command="load"/></node>',
        "0 0 0 0 0 0 map odom"))
    assert [f for f in scan([tmp_path], jobs=1).findings if f.code == "STATIC_DYNAMIC_CONFLICT"] == []


def test_an_imu_driver_told_to_broadcast_a_fixed_mount(tmp_path: Path) -> None:
    """orne_navigation's orne_beta.launch: mpu6050_serial_to_imu_node (broadcast_tf true by default) given
    tf_parent_frame_id base_link and tf_frame_id imu_link sends on /tf the edge a fixed mount (there the robot's
    description, here an included launch file) already gives on /tf_static."""
    def found(params: str, root: Path) -> list[str]:
        _write(root, {
            "bot_bringup/package.xml": _package("bot_bringup", catkin=True),
            "bot_bringup/launch/bot.launch": f"""\
                <launch>
                  <node pkg="mpu6050_serial_to_imu" type="mpu6050_serial_to_imu_node" name="imu_node">{params}</node>
                  <include file="$(find bot_bringup)/launch/mount.launch"/>
                </launch>
                """,
            "bot_bringup/launch/mount.launch": """\
                <launch>
                  <node pkg="tf2_ros" type="static_transform_publisher" name="imu_tf" args="0 0 0.1 0 0 0 base_link imu_link"/>
                </launch>
                """,
        })
        return [f.code for f in scan([root], jobs=1).findings if f.code in ("MULTIPLE_PARENTS_IN_FRAME_TREE", "STATIC_DYNAMIC_CONFLICT")]

    told = '<param name="tf_parent_frame_id" value="base_link"/><param name="tf_frame_id" value="imu_link"/>'
    assert found(told, tmp_path / "a") == ["STATIC_DYNAMIC_CONFLICT"]
    assert found(told + '<param name="broadcast_tf" value="false"/>', tmp_path / "b") == []
    assert found("", tmp_path / "c") == ["MULTIPLE_PARENTS_IN_FRAME_TREE"]  # its default imu_base -> imu_link


def test_a_modelled_odometry_node_whose_sources_are_scanned_is_not_counted_twice(tmp_path: Path) -> None:
    """A workspace carrying robot_pose_ekf's own sources (jaguar-bot, VehicleControl): the code's broadcast stands for
    the node, so the launch file's output_frame does not add a second parent of base_footprint beside it; where the
    launch file renames the frame the code reads by default, the node broadcasts the launch file's."""
    _write(tmp_path, {
        **_driver_sources("robot_pose_ekf", "robot_pose_ekf", "odom_combined", "base_footprint"),
        "robot_pose_ekf/example.launch": """\
<launch>
  <node pkg="robot_pose_ekf" type="robot_pose_ekf" name="robot_pose_ekf">
    <param name="output_frame" value="odom"/>
  </node>
</launch>
""",
    })
    result = scan([tmp_path], jobs=1)
    assert [f.message for f in result.findings if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"] == []
    (launched,) = [s for s in result.subsystems if s.launched]
    assert [(e.parent, e.child) for e in launched.edges] == [("odom", "base_footprint")]


def test_ros2_control_parameters_under_a_node_namespace() -> None:
    from physframe_ros.scan.controllers import controller_edges

    text = (
        "/**/controller_manager:\n  ros__parameters:\n    diff_cont:\n      type: diff_drive_controller/DiffDriveController\n"
        "/**/diff_cont:\n  ros__parameters:\n    base_frame_id: base_footprint\n"
    )
    assert [(e.parent, e.child) for e in controller_edges(text, "config/my_controllers.yaml")] == [("odom", "base_footprint")]


def test_a_ros2_launch_argument_giving_a_frame_prefix_a_leading_slash(tmp_path: Path) -> None:
    """kachaka-api's bridge launch: `<arg name="frame_prefix" default="/"/>`, handed to composable nodes that paste it in
    front of every frame; reported once, at the argument. A ROS 2 frame argument written with a slash is checked too."""
    ws = _write(tmp_path, {
        "bridge/package.xml": _package("bridge"),
        "bridge/launch/bridge.launch.xml": """
            <launch>
              <arg name="frame_prefix"
                   default="/" />
              <arg name="odom_frame" default="/odom"/>
              <arg name="robot_prefix" default="/"/>
              <node_container pkg="rclcpp_components" exec="component_container_mt" name="container">
                <composable_node pkg="bridge" plugin="bridge::OdometryComponent" name="odometry">
                  <param name="frame_prefix" value="$(var frame_prefix)" />
                </composable_node>
              </node_container>
            </launch>
            """,
    })
    found = sorted((f.location.line if f.location else None, f.frames) for f in scan([ws], jobs=1).findings if f.code == "INVALID_FRAME_ID")
    assert found == [(2, ("/",)), (4, ("/odom",))]


CLOISIM_CAMERA = """\
#include <sensor_msgs/msg/image.hpp>
#include <image_transport/image_transport.hpp>

class CameraBase : public rclcpp::Node
{
public:
  CameraBase() : Node("camera"), frame_id_("camera_link") {}
  void InitializeCameraPublish()
  {
    msg_img_.header.frame_id = frame_id_;
    pub_ = image_transport::create_camera_publisher(this, "image_raw");
  }
  void UpdatePublishingData(const sensor_msgs::msg::CameraInfo & info)
  {
    msg_img_.header.stamp = now();
    pub_.publish(msg_img_, info);
  }

private:
  std::string frame_id_;
  sensor_msgs::msg::Image msg_img_;
  image_transport::CameraPublisher pub_;
};
"""


def test_camera_data_stamped_with_a_camera_link_no_transform_places(tmp_path: Path) -> None:
    """cloisim_ros' camera (before e6db391): images stamped ``camera_link``, a camera's body frame by name, with no
    optical frame anywhere. A warning where the frame is written out (line 7), not at the publish in another method;
    a description that places ``camera_link`` leaves the verdict to the tree."""
    ws = _write(tmp_path, {"sim_camera/package.xml": _package("sim_camera"), "sim_camera/src/camera_base.cpp": CLOISIM_CAMERA})
    found = [f for f in scan([ws], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(f.level.name, f.location.file if f.location else None, f.location.line if f.location else None) for f in found] == [
        ("WARNING", "sim_camera/src/camera_base.cpp", 7)]
    assert "Image data is published in 'camera_link', named as a camera's body frame" in found[0].message
    # a depth camera's own link by name too (social_sim's center_depth_link), a webcam's (uos' calvin_robot); an
    # optical frame is fine
    for frame, reported in (("center_depth_link", True), ("rgb_link", True), ("webcam_link", True), ("depth_optical_frame", False),
                            ("base_link", False)):
        source = CLOISIM_CAMERA.replace('"camera_link"', f'"{frame}"')
        other = _write(tmp_path.parent / f"{tmp_path.name}-{frame}", {"c/package.xml": _package("c"), "c/src/camera_base.cpp": source})
        assert bool([f for f in scan([other], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]) == reported, frame
    (tmp_path / "sim_camera/CMakeLists.txt").write_text("project(sim_camera)\nadd_executable(camera_base src/camera_base.cpp)\n")
    (tmp_path / "sim_camera/urdf").mkdir()
    (tmp_path / "sim_camera/urdf/cam.urdf").write_text(
        '<robot name="cam"><link name="base_link"/><link name="camera_link"/><joint name="j" type="fixed">'
        '<parent link="base_link"/><child link="camera_link"/><origin rpy="-1.5707963 0 -1.5707963"/></joint></robot>\n')
    (tmp_path / "sim_camera/launch").mkdir()
    (tmp_path / "sim_camera/launch/sim.launch").write_text(
        '<launch>\n  <param name="robot_description" textfile="$(find sim_camera)/urdf/cam.urdf"/>\n'
        '  <node pkg="robot_state_publisher" type="robot_state_publisher" name="rsp"/>\n'
        '  <node pkg="sim_camera" type="camera_base" name="camera"/>\n</launch>\n')
    assert [f for f in scan([ws], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"] == []


def test_a_camera_driver_stamping_a_frame_the_tree_places_unturned(tmp_path: Path) -> None:
    """usb_cam given camera_frame_id 'front_cam', which the robot's description fixes under base_link with no
    rotation and no optical child: the images are FLU by the tree (the live monitor's rule, on the declared tree).
    A description that turns the frame by the optical rotation is right."""
    urdf = """
        <robot name="boat">
          <link name="base_link"/><link name="front_cam"/>
          <joint name="front_cam_joint" type="fixed">
            <parent link="base_link"/><child link="front_cam"/><origin xyz="1 0 0.5" rpy="ROTATION"/>
          </joint>
        </robot>
        """
    launch = """
        <launch>
          <param name="robot_description" textfile="$(find boat)/urdf/boat.urdf"/>
          <node pkg="robot_state_publisher" type="robot_state_publisher" name="rsp"/>
          <node pkg="usb_cam" type="usb_cam_node" name="front">
            <param name="camera_frame_id" value="front_cam"/>
          </node>
        </launch>
        """
    ws = _write(tmp_path, {"boat/package.xml": _package("boat", catkin=True), "boat/urdf/boat.urdf": urdf.replace("ROTATION", "0 0 0"),
                           "boat/launch/bringup.launch": launch})
    found = [f for f in scan([ws], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(f.location.file if f.location else None, f.location.line if f.location else None, f.frames) for f in found] == [
        ("boat/launch/bringup.launch", 5, ("base_link", "front_cam"))]
    assert "which the tree (boat/urdf/boat.urdf:3) makes FLU relative to FLU 'base_link' (no rotation)" in found[0].message
    (tmp_path / "boat/urdf/boat.urdf").write_text(urdf.replace("ROTATION", "-1.5707963 0 -1.5707963"))
    assert [f for f in scan([ws], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"] == []


def test_a_static_transform_over_several_lines_is_reported_at_its_frames(tmp_path: Path) -> None:
    """okmr_auv's static_transforms.launch.py (before its fix): the arguments written over several lines, the frames
    last, the camera's optical frame made base_link's parent; reported at the frames' line, the one to change."""
    python = """from launch import LaunchDescription
from launch_ros.actions import Node

def generate_launch_description():
    return LaunchDescription([
        Node(
            package='tf2_ros',
            executable='static_transform_publisher',
            arguments=[
                '0', '0', '0',
                '0', '0', '0',
                'camera_imu_optical_frame', 'base_link'
            ]
        ),
    ])
"""
    root = _write(tmp_path / "okmr", {"package.xml": _package("okmr_navigation"), "launch/static_transforms.launch.py": python})
    found = [(f.code, f.location.line if f.location else None) for f in scan([root], jobs=1).findings if f.code == "INCORRECT_FRAME_ORDER_IN_TREE"]
    assert found == [("INCORRECT_FRAME_ORDER_IN_TREE", 12)]


def test_two_world_fixed_frames_joined_by_a_tilt(tmp_path: Path) -> None:
    """REP-105's map and odom (and utm, world) keep z up: between two of them only a heading turns. smarc's
    publish_gps_pose.py turned map upside down under utm (x = 1); a heading of any angle is fine."""
    launch = """<launch>
  <node pkg="tf2_ros" type="static_transform_publisher" name="a" args="0 0 0 0 0 3.14159 utm map" />
  <node pkg="tf2_ros" type="static_transform_publisher" name="b" args="0 0 0 0.7 0 0 map odom" />
  <node pkg="tf2_ros" type="static_transform_publisher" name="c" args="0 0 0 0 0 0 1 earth world" />
  <node pkg="tf2_ros" type="static_transform_publisher" name="d" args="0 0 0 0 0 0 earth map2" />
</launch>
"""
    root = _write(tmp_path / "w", {"package.xml": _package("w", catkin=True), "launch/a.launch": launch})
    found = [(f.code, f.location.line if f.location else None, f.message) for f in scan([root], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(code, line) for code, line, _ in found] == [("INCORRECT_TRANSFORM", 2)]
    assert found[0][2].startswith("map is tilted relative to utm: its z axis is 180 degrees from utm's")


def test_a_slam_node_alone_beside_a_sensor_mount_is_no_second_tree(tmp_path: Path) -> None:
    """The paper corpus' los_slam: slam_gmapping (map -> odom) and a static base_link -> laser, the odometry coming
    from a driver another launch file starts: the node's default broadcast is no tree of its own."""
    _write(tmp_path, _node_beside_fixed("slam", '<node pkg="gmapping" type="slam_gmapping" name="slam_gmapping"/>', "0.1 0 0.2 0 0 0 base_link laser"))
    assert [f.message for f in scan([tmp_path], jobs=1).findings if f.code == "DISCONNECTED_TREE"] == []


# --- roslaunch $(eval) and conditional parameters ------------------------------------------------
def test_roslaunch_eval_is_evaluated_by_the_scan_interpreter(tmp_path: Path) -> None:
    from physframe_ros.scan.launch.substitutions import Substituter

    sub = Substituter(ScanContext(str(tmp_path)), str(tmp_path))
    sub.declare("robot_name", "$(optenv TIANBOT_NAME /)")
    sub.declare("lidar", "osight_lidar")
    sub.declare("rate", "10")
    sub.declare("robot", None)
    assert sub("$(eval robot_name=='/')") == "True"
    assert sub("$(eval 'osight' in arg('lidar') and rate * 2 == 20)") == "True"
    assert sub.skips(None, "$(eval robot_name == '/')") and not sub.skips("$(eval robot_name == '/')", None)
    # an argument with no value, the environment, and what the interpreter refuses stay unknown (the element is kept)
    for unknown in ("$(eval robot == 'a')", "$(eval env('HOME') == '/')", "$(eval ().__class__)", "$(eval open('x'))"):
        assert sub(unknown) is None
    assert not sub.skips(None, "$(eval robot == 'a')")


def test_a_ros1_parameter_turned_off_by_eval_or_set_again_in_the_node_is_not_checked(tmp_path: Path) -> None:
    """tianbot's lidar include (a ROS 1 `.launch.xml`) and rmtt_ros's AprilTag detector, after their fixes: the
    '//laser' and '//camera_link' values are used only with a robot namespace; by default the bare frame is."""
    ws = _write(tmp_path, {
        "p/package.xml": _package("p", catkin=True),
        "p/launch/includes/lidar.launch.xml": """\
            <launch>
              <arg name="robot_name" default="$(optenv TIANBOT_NAME /)"/>
              <arg name="frame_id" default="laser"/>
              <node pkg="osight_lidar" type="osight_lidar_node" name="osight_lidar">
                <param name="frame_id" type="string" value="$(arg frame_id)"/>
                <param unless="$(eval robot_name=='/')" name="frame_id" type="string" value="$(arg robot_name)/$(arg frame_id)"/>
              </node>
            </launch>
            """,
        "p/launch/detection.launch": """\
            <launch>
              <arg name="ns" default="$(optenv RMTT_NAMESPACE /)"/>
              <group ns="$(arg ns)">
                <param name="apriltag_ros/camera_frame" type="str" value="$(arg ns)/camera_link"/>
                <node pkg="apriltag_ros" type="apriltag_ros_continuous_node" name="apriltag_ros">
                  <param if="$(eval ns=='/')" name="camera_frame" type="str" value="camera_link"/>
                </node>
              </group>
            </launch>
            """,
    })
    assert [f for f in scan([ws], jobs=1).findings if f.code == "INVALID_FRAME_ID"] == []
    # before the fixes: the namespaced value always
    (Path(ws) / "p/launch/includes/lidar.launch.xml").write_text((Path(ws) / "p/launch/includes/lidar.launch.xml").read_text()
                                                                  .replace('unless="$(eval robot_name==\'/\')" ', ""))
    (Path(ws) / "p/launch/detection.launch").write_text((Path(ws) / "p/launch/detection.launch").read_text().replace("ns=='/'", "ns=='x'"))
    found = sorted((f.location.file, f.location.line) for f in scan([ws], jobs=1).findings if f.code == "INVALID_FRAME_ID" and f.location)
    assert found == [("p/launch/detection.launch", 4), ("p/launch/includes/lidar.launch.xml", 6)]
