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
