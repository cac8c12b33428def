"""A sensor's description package holds macros no file of it calls (hector_sensors_description's
camera360, whose left optical frame was turned back to its link by rpy (pi/2, 0, pi/2)): each macro is
expanded on its own, with its parameters left open, and the rotations it writes out are judged; so is a file
of joints that takes its names from the file including it."""

from __future__ import annotations

from pathlib import Path

from scan.trees import write_tree

from physframe_ros.scan.scanner import scan

PACKAGE = """\
    <package format="3"><name>cam_description</name><version>0.0.0</version><description>x</description>
    <maintainer email="a@b.c">a</maintainer><license>BSD</license></package>
    """
MACROS = """\
    <?xml version="1.0"?>
    <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
      <xacro:property name="M_PI" value="3.1415926535897931"/>
      <xacro:macro name="stereo_cam" params="name parent *origin baseline">
        <joint name="${name}_joint" type="fixed">
          <xacro:insert_block name="origin"/>
          <parent link="${parent}"/>
          <child link="${name}_link"/>
        </joint>
        <link name="${name}_link"/>
        <joint name="${name}_left_optical_joint" type="fixed">
          <origin xyz="0 ${baseline/2} 0" rpy="${M_PI/2} 0 ${M_PI/2}"/>
          <parent link="${name}_link"/>
          <child link="${name}_left_optical_frame"/>
        </joint>
        <link name="${name}_left_optical_frame"/>
        <joint name="${name}_right_optical_joint" type="fixed">
          <origin xyz="0 ${-baseline/2} 0" rpy="${-M_PI/2} 0 ${-M_PI/2}"/>
          <parent link="${name}_link"/>
          <child link="${name}_right_optical_frame"/>
        </joint>
        <link name="${name}_right_optical_frame"/>
      </xacro:macro>
      <xacro:macro name="mono_cam" params="name parent optical_rpy">
        <joint name="${name}_optical_joint" type="fixed">
          <origin xyz="0 0 0" rpy="${optical_rpy}"/>
          <parent link="${parent}"/>
          <child link="${name}_optical_frame"/>
        </joint>
        <link name="${name}_optical_frame"/>
      </xacro:macro>
      <xacro:macro name="head_cam" params="name">
        <joint name="${name}_tilt_joint" type="fixed">
          <origin xyz="0 0 ${head_height}" rpy="0 ${15 * deg_to_rad} 0"/>
          <parent link="head_link"/>
          <child link="${name}_link"/>
        </joint>
        <link name="${name}_link"/>
        <joint name="${name}_optical_frame_joint" type="fixed">
          <origin xyz="0 0 0" rpy="${-pi/1} 0.0 ${-pi/2}"/>
          <parent link="${name}_link"/>
          <child link="${name}_optical_frame"/>
        </joint>
        <link name="${name}_optical_frame"/>
      </xacro:macro>
    </robot>
    """
ROBOT = """\
    <?xml version="1.0"?>
    <robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
      <xacro:include filename="$(find cam_description)/urdf/cam.urdf.xacro"/>
      <link name="base_link"/>
      <xacro:stereo_cam name="front" parent="base_link" baseline="0.1">
        <origin xyz="0.2 0 0.3" rpy="0 0 0"/>
      </xacro:stereo_cam>
    </robot>
    """


def _rotations(root: Path) -> list[tuple[str, int | None, tuple[str, ...]]]:
    return [(f.location.file, f.location.line, f.frames) for f in scan([root], jobs=1).findings
            if f.code == "INCORRECT_TRANSFORM" and f.location]


def test_a_macro_nothing_calls_is_judged_on_its_own(tmp_path: Path) -> None:
    # the left turn is wrong; the right one is REP-103's; a rotation given by a parameter is the caller's
    # reemc's head camera: deg_to_rad and head_height come from the includer, the optical roll is -pi, not -pi/2
    write_tree(tmp_path, {"package.xml": PACKAGE, "urdf/cam.urdf.xacro": MACROS})
    found, head = scan([tmp_path], jobs=1).findings
    assert (found.code, found.location and found.location.line) == ("INCORRECT_TRANSFORM", 11)
    assert found.frames == ("{name}_link", "{name}_left_optical_frame")
    assert "macro 'stereo_cam' expanded on its own" in found.message
    assert (head.code, head.location and head.location.line, head.frames) == ("INCORRECT_TRANSFORM", 39, ("{name}_link", "{name}_optical_frame"))


def test_a_macro_a_robot_calls_is_reported_once_with_the_robot_names(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.xml": PACKAGE, "urdf/cam.urdf.xacro": MACROS, "urdf/robot.urdf.xacro": ROBOT})
    # the head camera no robot calls is still judged alone
    assert _rotations(tmp_path) == [("urdf/cam.urdf.xacro", 11, ("base_link", "front_link", "front_left_optical_frame")),
                                    ("urdf/cam.urdf.xacro", 39, ("{name}_link", "{name}_optical_frame"))]


FRAGMENT = """\
    <?xml version="1.0"?>
    <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
      <xacro:property name="link_depth" value="${name}_depth_frame"/>
      <joint name="${name}_joint" type="fixed">
        <origin xyz="${laser_origin}"/>
        <parent link="${parent_link}"/>
        <child link="${name}_link"/>
      </joint>
      <link name="${name}_link"/>
      <joint name="${name}_depth_joint" type="fixed">
        <origin rpy="${-pi/2} 0 ${-pi/2}"/>
        <parent link="${name}_link"/>
        <child link="${link_depth}"/>
      </joint>
      <link name="${link_depth}"/>
      <joint name="${name}_depth_optical_joint" type="fixed">
        <origin rpy="${-pi/2} 0 ${-pi/2}"/>
        <parent link="${link_depth}"/>
        <child link="${name}_depth_optical_frame"/>
      </joint>
      <link name="${name}_depth_optical_frame"/>
    </robot>
    """


def test_a_fragment_that_takes_its_names_from_the_including_file(tmp_path: Path) -> None:
    # create_autonomy's astra.xacro: ${name} and ${laser_origin} come from the robot that includes it (only under
    # a launch argument); the depth frame, named as a body frame, is turned into optical axes and turned again
    write_tree(tmp_path, {"package.xml": PACKAGE, "urdf/sensors/astra.xacro": FRAGMENT})
    assert _rotations(tmp_path) == [("urdf/sensors/astra.xacro", 10, ("{name}_link", "{name}_depth_frame", "{name}_depth_optical_frame"))]


# robotnik_sensors: every sensor macro is included by all_sensors.urdf.xacro, which the package's viewer loads with
# a sensor chosen by launch argument (none by default: no joint is built); the viper's optical joint kept rpy 0 0 0
# (its REP-103 turn commented out), and it calls an inertia macro only its includer brings; a thermal camera's
# plugin frame starts with '/'
VIPER = """\
    <?xml version="1.0"?>
    <robot xmlns:xacro="http://wiki.ros.org/xacro">
      <xacro:macro name="sensor_viper" params="prefix parent *origin">
        <joint name="${prefix}_base_joint" type="fixed">
          <xacro:insert_block name="origin"/>
          <parent link="${parent}"/>
          <child link="${prefix}_base_link"/>
        </joint>
        <link name="${prefix}_base_link">
          <inertial><xacro:solid_cuboid_inertia m="0.8" w="0.05" h="0.18" d="0.03"/></inertial>
        </link>
        <joint name="${prefix}_optical_joint" type="fixed">
          <!--origin xyz="0 0 0" rpy="-1.570796 0 -1.570796" /-->
          <origin xyz="0 0 0" rpy="0 0 0"/>
          <parent link="${prefix}_base_link"/>
          <child link="${prefix}_optical_frame"/>
        </joint>
        <link name="${prefix}_optical_frame"/>
        <gazebo reference="${prefix}_base_link">
          <sensor type="camera" name="thermal">
            <plugin name="thermal_camera_controller" filename="libgazebo_ros_camera.so">
              <frameName>/${prefix}_optical_link</frameName>
            </plugin>
          </sensor>
        </gazebo>
      </xacro:macro>
    </robot>
    """
ALL_SENSORS = """\
    <?xml version="1.0"?>
    <robot xmlns:xacro="http://wiki.ros.org/xacro">
      <xacro:include filename="$(find cam_description)/urdf/inertia.urdf.xacro"/>
      <xacro:include filename="$(find cam_description)/urdf/viper.urdf.xacro"/>
    </robot>
    """
INERTIA = """\
    <?xml version="1.0"?>
    <robot xmlns:xacro="http://wiki.ros.org/xacro">
      <xacro:macro name="solid_cuboid_inertia" params="m w h d"><mass value="${m}"/></xacro:macro>
    </robot>
    """
VIEWER = """\
    <?xml version="1.0"?>
    <robot name="view_sensor" xmlns:xacro="http://wiki.ros.org/xacro">
      <xacro:include filename="$(find cam_description)/urdf/all_sensors.urdf.xacro"/>
      <xacro:arg name="sensor" default=""/>
      <link name="world"/>
      <xacro:if value="${'$(arg sensor)' != ''}">
        <xacro:element xacro:name="$(arg sensor)" prefix="s" parent="world"><origin xyz="0 0 0"/></xacro:element>
      </xacro:if>
    </robot>
    """
VIEW_LAUNCH = """\
    <launch>
      <param name="robot_description" command="$(find xacro)/xacro '$(find cam_description)/launch/view.urdf.xacro'"/>
      <node name="robot_state_publisher" pkg="robot_state_publisher" type="robot_state_publisher"/>
    </launch>
    """


def test_macros_a_loaded_robot_includes_but_never_calls(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.xml": PACKAGE, "urdf/viper.urdf.xacro": VIPER, "urdf/all_sensors.urdf.xacro": ALL_SENSORS,
                          "urdf/inertia.urdf.xacro": INERTIA, "launch/view.urdf.xacro": VIEWER, "launch/view.launch": VIEW_LAUNCH})
    found = {(f.code, f.location.line) for f in scan([tmp_path], jobs=1).findings if f.location and f.location.file == "urdf/viper.urdf.xacro"}
    assert ("INCORRECT_TRANSFORM", 12) in found  # the optical joint: FLU under its camera link
    slash = [f for f in scan([tmp_path], jobs=1).findings if f.code == "INVALID_FRAME_ID"]
    assert [(f.location and f.location.line, f.frames) for f in slash] == [(22, ("/{prefix}_optical_link",))]
    assert "frame id '/{prefix}_optical_link' has a leading '/'" in slash[0].message


# talos' xtion macro takes its optical joints' origins from a macro its includer names (`<xacro:call
# macro="calibration_origin"/>`): alone, that origin is unknown, not the identity
CALIBRATED = """\
    <?xml version="1.0"?>
    <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
      <xacro:macro name="xtion" params="name parent">
        <joint name="${name}_rgb_joint" type="fixed">
          <origin xyz="0 -0.025 0" rpy="0 0 0"/>
          <parent link="${parent}"/>
          <child link="${name}_rgb_link"/>
        </joint>
        <link name="${name}_rgb_link"/>
        <joint name="${name}_rgb_optical_frame_joint" type="fixed">
          <xacro:call macro="calibration_origin"/>
          <parent link="${name}_rgb_link"/>
          <child link="${name}_rgb_optical_frame"/>
        </joint>
        <link name="${name}_rgb_optical_frame"/>
      </xacro:macro>
    </robot>
    """
# ROBOTIS-OP3's gazebo extensions, a file of the robot that names its camera link: read alone, no joint places it
GAZEBO_ONLY = """\
    <?xml version="1.0"?>
    <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
      <gazebo reference="head_link">
        <sensor type="camera" name="camera">
          <plugin name="camera_controller" filename="libgazebo_ros_camera.so"><frameName>cam_link</frameName></plugin>
        </sensor>
      </gazebo>
    </robot>
    """
OP3 = """\
    <?xml version="1.0"?>
    <robot name="op3" xmlns:xacro="http://www.ros.org/wiki/xacro">
      <xacro:include filename="$(find cam_description)/urdf/op3.gazebo.xacro"/>
      <link name="head_link"/>
      <joint name="cam" type="fixed"><origin rpy="-1.5707963 0 -1.5707963"/><parent link="head_link"/><child link="cam_link"/></joint>
      <link name="cam_link"/>
    </robot>
    """


def test_an_origin_from_a_macro_of_the_includer_is_unknown(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.xml": PACKAGE, "urdf/xtion.urdf.xacro": CALIBRATED})
    assert _rotations(tmp_path) == []


def test_a_file_of_a_loaded_robot_is_read_alone_only_for_its_macros(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.xml": PACKAGE, "urdf/op3.gazebo.xacro": GAZEBO_ONLY, "urdf/op3.urdf.xacro": OP3,
                          "launch/op3.launch": VIEW_LAUNCH.replace("launch/view.urdf.xacro", "urdf/op3.urdf.xacro")})
    # the robot places cam_link, optical under the head the camera renders from; read alone the gazebo file would say
    # that no transform places it
    assert [f for f in scan([tmp_path], jobs=1).findings if f.code != "SENSOR_NULL"] == []


# vizzy's eye cameras (after the fix): the plugin macro stamps `${prefix}_camera_vision_link`, an optical link that
# head.urdf.xacro places; alone, the macro cannot tell that nothing places it
EYE_PLUGIN = """\
    <?xml version="1.0"?>
    <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
      <xacro:macro name="camera_plugin" params="prefix">
        <gazebo reference="${prefix}_camera_link">
          <sensor type="camera" name="${prefix}_camera">
            <plugin name="camera_controller" filename="libgazebo_ros_camera.so">
              <frameName>${prefix}_camera_vision_link</frameName>
            </plugin>
          </sensor>
        </gazebo>
      </xacro:macro>
    </robot>
    """


def test_a_plugin_macro_alone_does_not_judge_frames_other_files_place(tmp_path: Path) -> None:
    write_tree(tmp_path, {"package.xml": PACKAGE, "plugins/ros.gazebo.xacro": EYE_PLUGIN})
    assert scan([tmp_path], jobs=1).findings == []
