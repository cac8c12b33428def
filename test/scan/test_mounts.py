"""One sensor mount written twice, in a robot description and in a launch file, with different rotations."""

from __future__ import annotations

from pathlib import Path

from scan.trees import write_tree

from physframe_ros.core.findings import Location
from physframe_ros.scan.scanner import scan

_PACKAGE = """\
    <package format="2"><name>{name}</name><version>0.1.0</version><description>robot</description>
    <maintainer email="a@b.c">a</maintainer><license>MIT</license><buildtool_depend>catkin</buildtool_depend></package>
"""


def _robot(joint_rpy: str) -> str:
    return f"""\
        <?xml version="1.0"?>
        <robot name="elderly_bot">
          <link name="base_footprint"/>
          <link name="base_link"/>
          <joint name="base_joint" type="fixed">
            <parent link="base_footprint"/>
            <child link="base_link"/>
            <origin xyz="0 0 0.07" rpy="0 0 0"/>
          </joint>
          <link name="laser"/>
          <joint name="base_link_to_laser" type="fixed">
            <parent link="base_link"/>
            <child link="laser"/>
            <origin xyz="0 0 0.23" rpy="{joint_rpy}"/>
          </joint>
        </robot>
        """


def _bringup(args: str) -> str:
    return f"""\
        <launch>
          <param name="robot_description" command="cat $(find elderly_bot)/urdf/elderly_bot.urdf" />
          <node pkg="rplidar_ros" type="rplidarNode" name="rplidar">
            <param name="frame_id" value="laser" />
          </node>
          <!-- the lidar's motor faces backward -->
          <node pkg="tf" type="static_transform_publisher" name="base_link_to_laser"
                args="{args} base_link laser 100" />
        </launch>
        """


def _mount_findings(root: Path) -> list[tuple[str, Location | None, str]]:
    return [(f.code, f.location, f.message) for f in scan([root], jobs=1).findings if "more than a calibration" in f.message]


def test_a_lidar_rolled_in_the_urdf_but_yawed_in_the_bringup_is_reported_at_the_tilted_one(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "package.xml": _PACKAGE.format(name="elderly_bot"),
        "urdf/elderly_bot.urdf": _robot("3.14159265359 0 0"),
        "launch/bringup.launch": _bringup("0 0 0.23 3.14159 0 0"),
    })
    [(code, loc, message)] = _mount_findings(tmp_path)
    assert code == "INCORRECT_TRANSFORM"
    assert loc == Location("urdf/elderly_bot.urdf", 11)  # its joint: the upside-down one: upright mounts turned about z are the usual
    assert "base_link -> laser is turned by" in message and "rpy = (3.1416, 0, 0)" in message
    assert "at launch/bringup.launch:8" in message and "apart, more than a calibration" in message


def test_a_description_rpy_copied_into_yaw_pitch_roll_arguments_says_so(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "package.xml": _PACKAGE.format(name="elderly_bot"),
        "urdf/elderly_bot.urdf": _robot("1.530796327 0.0 0.04"),
        "launch/bringup.launch": _bringup("0 0 0.23 1.530796327 0.0 0.04"),
    })
    [(_, loc, message)] = _mount_findings(tmp_path)
    assert loc is not None and loc.file == "urdf/elderly_bot.urdf"
    assert "static_transform_publisher takes yaw pitch roll" in message


def test_one_mount_written_alike_or_calibrated_a_few_degrees_apart_is_no_finding(tmp_path: Path) -> None:
    same = write_tree(tmp_path / "same", {
        "package.xml": _PACKAGE.format(name="elderly_bot"),
        "urdf/elderly_bot.urdf": _robot("0 0 3.14159265359"),
        "launch/bringup.launch": _bringup("0 0 0.23 3.14159 0 0"),
    })
    calibrated = write_tree(tmp_path / "calibrated", {
        "package.xml": _PACKAGE.format(name="elderly_bot"),
        "urdf/elderly_bot.urdf": _robot("0 0.05 3.05"),
        "launch/bringup.launch": _bringup("0 0 0.23 3.14159 0 0"),
    })
    assert _mount_findings(same) == []
    assert _mount_findings(calibrated) == []


def test_two_packages_may_mount_a_frame_of_one_name_differently(tmp_path: Path) -> None:
    # two robots of one repository: one's description and the other's bringup are no two views of one mount
    write_tree(tmp_path, {
        "robot_a/package.xml": _PACKAGE.format(name="robot_a"),
        "robot_a/urdf/elderly_bot.urdf": _robot("3.14159265359 0 0"),
        "robot_b/package.xml": _PACKAGE.format(name="robot_b"),
        "robot_b/launch/bringup.launch": _bringup("0 0 0.23 3.14159 0 0").replace("$(find elderly_bot)", "$(find robot_b)"),
    })
    assert _mount_findings(tmp_path) == []


def test_a_launch_file_is_compared_with_the_robots_it_loads_only(tmp_path: Path) -> None:
    # a package's two robot models (NAO and Pepper), or a simulation launch file that loads no description, may turn
    # one frame name differently by design: only a launch file and the robot it loads are one robot
    write_tree(tmp_path, {
        "package.xml": _PACKAGE.format(name="elderly_bot"),
        "urdf/elderly_bot.urdf": _robot("3.14159265359 0 0"),
        "urdf/elderly_bot_mk2.urdf": _robot("0 0 3.14159265359"),
        "launch/bringup.launch": _bringup("0 0 0.23 3.14159 0 0").replace("elderly_bot.urdf", "elderly_bot_mk2.urdf"),
        "launch/sim.launch": """\
            <launch>
              <node pkg="tf" type="static_transform_publisher" name="base_link_to_laser" args="0 0 0.23 1.5708 0 0 base_link laser 100" />
            </launch>
            """,
    })
    assert _mount_findings(tmp_path) == []


# ugv_description's simulated lidar: the URDF turns the Gazebo sensor a half turn on 360lidar_link (the RPLidar C1
# is mounted backward), gz-sim stamps its scans with the scoped name <model>/<link>/<sensor>, and the cartographer
# launch file places that frame with a static transform that forgot the turn
def _ugv(sensor_pose: str, frame_element: str = "") -> str:
    return f"""\
        <?xml version="1.0"?>
        <robot name="ugv" xmlns:xacro="http://www.ros.org/wiki/xacro">
          <link name="base_link"/>
          <link name="RPLidarC1_v1_1"/>
          <joint name="lidar_mount" type="fixed">
            <parent link="base_link"/>
            <child link="RPLidarC1_v1_1"/>
            <origin xyz="0 0 0.1" rpy="0 0 0"/>
          </joint>
          <link name="360lidar_link"/>
          <joint name="360lidar_joint" type="fixed">
            <parent link="RPLidarC1_v1_1"/>
            <child link="360lidar_link"/>
            <origin xyz="-0.0278 0 0.0331" rpy="0 0 3.141592653589793"/>
          </joint>
          <gazebo reference="360lidar_link">
            <sensor name="gpu_lidar" type="gpu_lidar">
              <pose>{sensor_pose}</pose>
              <topic>ugv/lidar</topic>{frame_element}
            </sensor>
          </gazebo>
        </robot>
        """


def _cartographer(args: str) -> str:
    return f"""\
        import os
        from ament_index_python.packages import get_package_share_directory
        from launch import LaunchDescription
        from launch_ros.actions import Node
        import xacro


        def generate_launch_description():
            urdf = os.path.join(get_package_share_directory("ugv_description"), "urdf", "ugv.xacro")
            return LaunchDescription([
                Node(package="robot_state_publisher", executable="robot_state_publisher",
                     parameters=[{{"robot_description": xacro.process_file(urdf).toxml()}}]),
                Node(package="tf2_ros", executable="static_transform_publisher", name="lidar_static_tf",
                     arguments=[{args}]),
            ])
        """


def _sensor_findings(root: Path) -> list[tuple[Location | None, str]]:
    return [(f.location, f.message) for f in scan([root], jobs=1).findings if "simulated" in f.message]


def test_a_static_transform_to_a_simulated_lidar_frame_turned_otherwise_than_the_sensor(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "package.xml": _PACKAGE.format(name="ugv_description"),
        "urdf/ugv.xacro": _ugv("0 0 0 0 0 3.141592653589793"),
        "launch/cartographer.launch.py": _cartographer('"0", "0", "0", "0", "0", "0", "360lidar_link", "ugv/base_link/gpu_lidar"'),
    })
    [(loc, message)] = _sensor_findings(tmp_path)
    assert loc == Location("launch/cartographer.launch.py", 14)
    assert "360lidar_link -> ugv/base_link/gpu_lidar is turned with no rotation here" in message
    assert "simulated gpu_lidar sensor 'gpu_lidar'" in message and "mounts that sensor by <-x,-y,z>" in message


def test_the_fixed_static_transform_and_one_from_a_frame_above_the_sensor_link_agree(tmp_path: Path) -> None:
    write_tree(tmp_path, {
        "package.xml": _PACKAGE.format(name="ugv_description"),
        "urdf/ugv.xacro": _ugv("0 0 0 0 0 3.141592653589793"),
        "launch/cartographer.launch.py": _cartographer('"0", "0", "0", "3.14159", "0", "0", "360lidar_link", "ugv/base_link/gpu_lidar"'),
        "launch/from_base.launch.py": _cartographer('"0", "0", "0", "0", "0", "0", "base_link", "ugv/base_link/gpu_lidar"'),
    })
    # from base_link the mount's half turn and the joint's cancel: identity is right there
    assert _sensor_findings(tmp_path) == []


def test_a_plugin_frame_name_through_the_description_above_the_sensor_link(tmp_path: Path) -> None:
    frame = "\n              <plugin name=\"scan\" filename=\"libgazebo_ros_ray_sensor.so\"><frame_name>laser</frame_name></plugin>"
    write_tree(tmp_path, {
        "package.xml": _PACKAGE.format(name="ugv_description"),
        "urdf/ugv.xacro": _ugv("0 0 0 0 0 0", frame),
        "launch/cartographer.launch.py": _cartographer('"0", "0", "0", "0", "0", "0", "RPLidarC1_v1_1", "laser"'),
        "launch/scoped.launch.py": _cartographer('"0", "0", "0", "0", "0", "0", "360lidar_link", "ugv/base_link/gpu_lidar"'),
    })
    [(loc, message)] = _sensor_findings(tmp_path)  # a sensor with a plugin frame stamps no scoped name
    assert loc == Location("launch/cartographer.launch.py", 14)
    assert "which the description fixes by <-x,-y,z> (rpy 0, 0, 3.142) under 'RPLidarC1_v1_1'" in message
