"""The expected tree of what runs: robot models the environment or a launch argument chooses are
variants, names a launch prefixes are placeholders (TurtleBot3's idioms, in small)."""

from __future__ import annotations

from pathlib import Path

import pytest
from scan.trees import write_tree

from physframe_ros.core.crosscheck import match_live
from physframe_ros.core.tree import Edge
from physframe_ros.scan.scanner import scan

URDF = """\
    <?xml version="1.0" ?>
    <robot name="bot_{model}" xmlns:xacro="http://ros.org/wiki/xacro">
      <xacro:arg name="namespace" default=""/>
      <xacro:property name="namespace" value="$(arg namespace)"/>
      <link name="${{namespace}}base_footprint"/>
      <link name="${{namespace}}base_link"/>
      <link name="${{namespace}}base_scan"/>
      <joint name="${{namespace}}base_joint" type="fixed">
        <parent link="${{namespace}}base_footprint"/>
        <child link="${{namespace}}base_link"/>
        <origin xyz="0 0 0.010" rpy="0 0 0"/>
      </joint>
      <joint name="${{namespace}}scan_joint" type="fixed">
        <parent link="${{namespace}}base_link"/>
        <child link="${{namespace}}base_scan"/>
        <origin xyz="{scan_x} 0 0.17" rpy="0 0 0"/>
      </joint>
      {extra}
    </robot>
    """
CAMERA = """<link name="${namespace}camera_link"/>
      <joint name="${namespace}camera_joint" type="fixed">
        <parent link="${namespace}base_link"/>
        <child link="${namespace}camera_link"/>
        <origin xyz="0.07 0 0.08"/>
      </joint>"""

STATE_PUBLISHER = """\
    import os
    from ament_index_python.packages import get_package_share_directory
    from launch import LaunchDescription
    from launch.substitutions import Command, LaunchConfiguration, PythonExpression
    from launch_ros.actions import Node


    def generate_launch_description():
        MODEL = os.environ['BOT_MODEL']
        namespace = LaunchConfiguration('namespace')
        urdf = os.path.join(get_package_share_directory('bot_description'), 'urdf', 'bot_' + MODEL + '.urdf')
        robot_desc = Command(['xacro ', urdf, ' namespace:=',
                              PythonExpression(['"', namespace, '" + "/" if "', namespace, '" != "" else ""'])])
        return LaunchDescription([
            Node(package='robot_state_publisher', executable='robot_state_publisher',
                 parameters=[{'robot_description': robot_desc}]),
        ])
    """


def _workspace(tmp_path: Path) -> Path:
    return write_tree(tmp_path / "ws", {
        "bot_description/package.xml": "<package><name>bot_description</name></package>",
        "bot_description/urdf/bot_small.urdf": URDF.format(model="small", scan_x="-0.032", extra=""),
        "bot_description/urdf/bot_large.urdf": URDF.format(model="large", scan_x="-0.064", extra=CAMERA),
        "bot_bringup/package.xml": "<package><name>bot_bringup</name></package>",
        "bot_bringup/launch/state_publisher.launch.py": STATE_PUBLISHER,
    })


def test_models_the_environment_chooses_are_variants_with_placeholder_names(tmp_path: Path) -> None:
    result = scan([_workspace(tmp_path)], jobs=1)
    assert [f for f in result.findings if f.code != "PARSE_ERROR"] == []
    variants = {v.name: v for v in result.expected.variants}
    assert sorted(variants) == ["bot_bringup/launch/state_publisher.launch.py BOT_MODEL=large",
                                "bot_bringup/launch/state_publisher.launch.py BOT_MODEL=small"]
    small = variants["bot_bringup/launch/state_publisher.launch.py BOT_MODEL=small"]
    assert small.choice == {"BOT_MODEL": "small"}
    assert sorted((e.parent, e.child, str(e.location)) for e in small.edges) == [
        ("{namespace}base_footprint", "{namespace}base_link", "bot_description/urdf/bot_small.urdf:8"),
        ("{namespace}base_link", "{namespace}base_scan", "bot_description/urdf/bot_small.urdf:13"),
    ]
    # one expected tree for robot1/ and for no namespace; the large model's camera is not missing on the small one
    for prefix in ("", "robot1/"):
        live = [Edge(f"{prefix}base_footprint", f"{prefix}base_link", True, (0, 0, 0.01), (0, 0, 0, 1)),
                Edge(f"{prefix}base_link", f"{prefix}base_scan", True, (-0.032, 0, 0.17), (0, 0, 0, 1))]
        match, found = match_live(result.expected, live)
        assert (match.variant.name, found) == (small.name, [])


def test_launch_and_env_choose_one_variant(tmp_path: Path) -> None:
    ws = _workspace(tmp_path)
    result = scan([ws], jobs=1, launch="bot_bringup/state_publisher.launch.py", env={"BOT_MODEL": "large"})
    assert [(v.name, v.choice) for v in result.expected.variants] == [
        ("bot_bringup/launch/state_publisher.launch.py BOT_MODEL=large", {"BOT_MODEL": "large"})]
    assert "{namespace}camera_link" in result.expected.frames
    with pytest.raises(ValueError, match=r"package bot_bringup has no launch file nope\.launch\.py"):
        scan([ws], jobs=1, launch="bot_bringup/nope.launch.py")


def test_a_frame_prefix_only_the_launch_knows_is_a_placeholder(tmp_path: Path) -> None:
    ws = write_tree(tmp_path / "ws", {
        "arm/package.xml": "<package><name>arm</name></package>",
        "arm/urdf/arm.urdf": """\
            <robot name="arm"><link name="base"/><link name="tool0"/>
              <joint name="j" type="fixed"><parent link="base"/><child link="tool0"/></joint></robot>
            """,
        "arm/launch/arm.launch.py": """\
            import os
            from launch import LaunchDescription
            from launch.substitutions import LaunchConfiguration
            from launch_ros.actions import Node
            def generate_launch_description():
                urdf = os.path.join(os.path.dirname(__file__), '..', 'urdf', 'arm.urdf')
                with open(urdf) as f:
                    desc = f.read()
                return LaunchDescription([Node(package='robot_state_publisher', executable='robot_state_publisher',
                    parameters=[{'robot_description': desc, 'frame_prefix': LaunchConfiguration('prefix')}])])
            """,
    })
    result = scan([ws], jobs=1)
    assert [(e.parent, e.child) for e in result.expected.variants[0].edges] == [("{frame_prefix}base", "{frame_prefix}tool0")]
    live = [Edge(f"{p}/base", f"{p}/tool0", True, (0, 0, 0), (0, 0, 0, 1)) for p in ("left", "right")]
    match, found = match_live(result.expected, live)
    assert found == [] and match.describe().endswith("frame_prefix = 'left/', 'right/'")


def test_a_launch_argument_with_choices_is_one_variant_per_value(tmp_path: Path) -> None:
    arm = """\
        <robot name="arm" xmlns:xacro="http://ros.org/wiki/xacro">
          <xacro:arg name="gripper" default="none"/>
          <link name="base"/><link name="tool0"/>
          <joint name="j" type="fixed"><parent link="base"/><child link="tool0"/><origin xyz="0 0 0.1"/></joint>
          <xacro:if value="${'$(arg gripper)' == 'hand'}">
            <link name="hand"/>
            <joint name="h" type="fixed"><parent link="tool0"/><child link="hand"/></joint>
          </xacro:if>
        </robot>
        """
    ws = write_tree(tmp_path / "ws", {
        "arm/package.xml": "<package><name>arm</name></package>",
        "arm/urdf/arm.urdf.xacro": arm,
        "arm/launch/view.launch.py": """\
            from launch import LaunchDescription
            from launch.actions import DeclareLaunchArgument
            from launch.substitutions import Command, LaunchConfiguration, PathJoinSubstitution
            from launch_ros.actions import Node
            from launch_ros.substitutions import FindPackageShare
            def generate_launch_description():
                desc = Command(['xacro ', PathJoinSubstitution([FindPackageShare('arm'), 'urdf', 'arm.urdf.xacro']),
                                ' gripper:=', LaunchConfiguration('gripper')])
                return LaunchDescription([
                    DeclareLaunchArgument('gripper', default_value='none', choices=['none', 'hand']),
                    Node(package='robot_state_publisher', executable='robot_state_publisher', parameters=[{'robot_description': desc}])])
            """,
    })
    result = scan([ws], jobs=1)
    variants = {v.name: sorted(e.child for e in v.edges) for v in result.expected.variants}
    assert variants == {"arm/launch/view.launch.py gripper=hand": ["hand", "tool0"], "arm/launch/view.launch.py gripper=none": ["tool0"]}


def test_a_frame_prefix_tf2_mangles_is_one_finding_where_it_is_set(tmp_path: Path) -> None:
    """TurtleBot3 simulation's idiom: PythonExpression(["'", frame_prefix, "/'"]) with an empty prefix gives '/'."""
    ws = write_tree(tmp_path / "ws", {
        "bot/package.xml": "<package><name>bot</name></package>",
        "bot/urdf/bot.urdf": """\
            <robot name="bot"><link name="base_footprint"/><link name="base_link"/><link name="base_scan"/>
              <joint name="a" type="fixed"><parent link="base_footprint"/><child link="base_link"/><origin xyz="0 0 0.01"/></joint>
              <joint name="b" type="fixed"><parent link="base_link"/><child link="base_scan"/><origin xyz="0 0 0.17"/></joint></robot>
            """,
        "bot/launch/rsp.launch.py": """\
            import os
            from launch import LaunchDescription
            from launch.substitutions import LaunchConfiguration, PythonExpression
            from launch_ros.actions import Node
            def generate_launch_description():
                frame_prefix = LaunchConfiguration('frame_prefix', default='')
                with open(os.path.join(os.path.dirname(__file__), '..', 'urdf', 'bot.urdf')) as f:
                    desc = f.read()
                return LaunchDescription([Node(package='robot_state_publisher', executable='robot_state_publisher',
                    parameters=[{'robot_description': desc, 'frame_prefix': PythonExpression(["'", frame_prefix, "/'"])}])])
            """,
    })
    found = [f for f in scan([ws], jobs=1).findings if f.code == "INVALID_FRAME_ID"]
    assert [(str(f.location), f.frames) for f in found] == [("bot/launch/rsp.launch.py:9", ("/base_footprint", "/base_link", "/base_scan"))]
    assert "frame_prefix is '/'" in found[0].message and "leading '/'" in found[0].message


def test_a_robots_own_xacro_if_on_a_boolean_argument_is_a_variant(tmp_path: Path) -> None:
    ws = write_tree(tmp_path / "ws", {
        "bot/package.xml": "<package><name>bot</name></package>",
        "bot/urdf/bot.urdf.xacro": """\
            <robot name="bot" xmlns:xacro="http://ros.org/wiki/xacro">
              <xacro:arg name="use_camera" default="false"/>
              <link name="base_link"/><link name="laser"/>
              <joint name="l" type="fixed"><parent link="base_link"/><child link="laser"/><origin xyz="0 0 0.2"/></joint>
              <xacro:if value="$(arg use_camera)">
                <link name="camera_link"/>
                <joint name="c" type="fixed"><parent link="base_link"/><child link="camera_link"/><origin xyz="0.1 0 0.3"/></joint>
              </xacro:if>
            </robot>
            """,
    })
    result = scan([ws], jobs=1)
    variants = {v.name: (v.choice, sorted(e.child for e in v.edges)) for v in result.expected.variants}
    assert variants == {"description bot/urdf/bot.urdf.xacro use_camera=false": ({"use_camera": "false"}, ["laser"]),
                        "description bot/urdf/bot.urdf.xacro use_camera=true": ({"use_camera": "true"}, ["camera_link", "laser"])}
    live = [Edge("base_link", "laser", True, (0, 0, 0.2), (0, 0, 0, 1))]
    match, found = match_live(result.expected, live)
    assert (match.variant.choice, found) == ({"use_camera": "false"}, [])
