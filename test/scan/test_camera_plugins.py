"""REP-103 in robot descriptions: a Gazebo camera plugin stamps its images with an optical frame. The
classic slip: ``<frameName>camera_link</frameName>`` on the sensor attached to camera_link itself, whose
axes are the body's (Gazebo renders along the link's x axis), instead of an optical child turned by rpy
(-pi/2, 0, -pi/2)."""

from __future__ import annotations

from pathlib import Path

from physframe_ros.scan.description import parse_urdf_file
from physframe_ros.scan.scanner import scan

ROBOT = """\
<robot name="bot">
  <link name="base_link"/>
  <link name="camera_link"/>
  <link name="camera_optical_frame"/>
  <link name="camera_turned"/>
  <joint name="camera_joint" type="fixed">
    <parent link="base_link"/><child link="camera_link"/>
    <origin xyz="0.1 0 0.2" rpy="0 0 0"/>
  </joint>
  <joint name="camera_optical_joint" type="fixed">
    <parent link="camera_link"/><child link="camera_optical_frame"/>
    <origin xyz="0 0 0" rpy="-1.5707963 0 -1.5707963"/>
  </joint>
  <joint name="camera_turned_joint" type="fixed">
    <parent link="camera_link"/><child link="camera_turned"/>
    <origin xyz="0 0 0" rpy="0 0 1.5707963"/>
  </joint>
  <gazebo reference="camera_link">
    <sensor type="camera" name="front">
      <plugin name="front_controller" filename="libgazebo_ros_camera.so">
        <frameName>FRAME</frameName>
      </plugin>
    </sensor>
  </gazebo>
  <gazebo reference="base_link">
    <sensor type="ray" name="lidar">
      <plugin name="lidar" filename="libgazebo_ros_laser.so"><frameName>base_link</frameName></plugin>
    </sensor>
  </gazebo>
</robot>
"""


def _found(frame: str) -> list[tuple[str, int | None, tuple[str, ...]]]:
    facts = parse_urdf_file(ROBOT.replace("FRAME", frame), "urdf/bot.urdf")
    return [(f.code, f.location.line if f.location else None, f.frames) for f in facts.findings]


def test_camera_plugin_frame_is_the_sensor_link_itself() -> None:
    assert _found("camera_link") == [("INCORRECT_TRANSFORM", 21, ("camera_link",))]


def test_a_camera_turned_by_its_own_pose_renders_along_the_links_z() -> None:
    """Baxter's hand cameras after their fix: `<camera><pose>` rpy (0, -pi/2, pi/2) turns the rendering onto the
    link's z axis, x right and y down, so the link itself is the optical frame."""
    turned = ROBOT.replace('<sensor type="camera" name="front">',
                           '<sensor type="camera" name="front"><camera><pose>0 0 0 0 -1.5707963 1.5707963</pose></camera>')
    assert parse_urdf_file(turned.replace("FRAME", "camera_link"), "urdf/bot.urdf").findings == []


def test_camera_plugin_frame_fixed_with_another_rotation() -> None:
    # reported at the joint that turns it the wrong way (the line to change; navigation2_tutorials' sam_bot
    # had rpy "-pi/2 0 -pi" on its depth frame), the plugin's line named in the message
    facts = parse_urdf_file(ROBOT.replace("FRAME", "camera_turned"), "urdf/bot.urdf")
    assert [(f.code, f.location.line if f.location else None, f.frames) for f in facts.findings] == [
        ("INCORRECT_TRANSFORM", 14, ("camera_link", "camera_turned"))
    ]
    assert "the plugin names it at line 21" in facts.findings[0].message


def test_camera_plugin_frame_optical_or_not_fixed_by_the_description() -> None:
    assert _found("camera_optical_frame") == []
    assert _found("base_link") == [("INCORRECT_TRANSFORM", 21, ("camera_link", "base_link"))]  # a frame above the link
    assert _found("elsewhere_frame") == []  # not in the description: its rotation is unknown


def test_a_camera_plugin_stamping_a_camera_link_the_robot_never_defines() -> None:
    """car_demo's Prius: each camera on its own ``front_camera_link``, every plugin stamping ``camera_link``, a link
    the robot does not have. Named as a camera's body frame and placed by nothing: a warning at the plugin's frame."""
    found = parse_urdf_file(ROBOT.replace("FRAME", "rear_camera_link"), "urdf/bot.urdf").findings
    assert [(f.code, f.level.name, f.location.line if f.location else None) for f in found] == [("INCORRECT_TRANSFORM", "WARNING", 21)]
    assert "'rear_camera_link', named as a camera's body frame" in found[0].message


def test_a_camera_plugin_in_a_xacro_description_is_checked_and_located(tmp_path) -> None:
    """Through xacro too (the element text survives the expansion); the finding points at the joint's line
    in the source file."""
    from physframe_ros.scan.scanner import scan

    head = '<robot name="bot" xmlns:xacro="http://ros.org/wiki/xacro">\n  <xacro:property name="half_pi" value="1.5707963"/>'
    xacro = ROBOT.replace("FRAME", "camera_turned").replace('<robot name="bot">', head, 1)
    xacro = xacro.replace('rpy="0 0 1.5707963"', 'rpy="0 0 ${half_pi}"')
    (tmp_path / "bot.urdf.xacro").write_text(xacro)
    found = [(f.code, f.location.line if f.location else None) for f in scan([str(tmp_path)]).findings if f.code == "INCORRECT_TRANSFORM"]
    assert found == [("INCORRECT_TRANSFORM", 15)]


def test_a_xacro_camera_plugin_on_its_own_link_points_at_the_frame_element(tmp_path) -> None:
    from physframe_ros.scan.scanner import scan

    xacro = ROBOT.replace("FRAME", "camera_link").replace('<robot name="bot">', '<robot name="bot" xmlns:xacro="http://ros.org/wiki/xacro">', 1)
    (tmp_path / "bot.urdf.xacro").write_text(xacro)
    found = [(f.code, f.location.line if f.location else None) for f in scan([str(tmp_path)]).findings if f.code == "INCORRECT_TRANSFORM"]
    assert found == [("INCORRECT_TRANSFORM", 21)]


def test_the_sensor_pose_turns_the_camera_within_its_link() -> None:
    """Gazebo renders along the sensor's x axis, which its ``<pose>`` turns within the link: an optical frame of the
    link is wrong for a camera yawed to look sideways; a tilted (non-orthogonal) camera is not judged."""
    def found(frame: str, pose: str) -> list[tuple[str, int | None]]:
        text = ROBOT.replace("FRAME", frame).replace('<sensor type="camera" name="front">', f'<sensor type="camera" name="front"><pose>{pose}</pose>')
        return [(f.code, f.location.line if f.location else None) for f in parse_urdf_file(text, "urdf/bot.urdf").findings]

    assert found("camera_optical_frame", "0 0 0 0 0 1.5707963") == [("INCORRECT_TRANSFORM", 10)]
    assert found("camera_optical_frame", "0 0 0 0 0 0") == []
    assert found("camera_link", "0 0 0 0 0.3 0") == []
    assert found("camera_link", "0 0 0 0 0 ${yaw}") == []


MODEL = """\
<sdf version="1.6">
  <model name="bot">
    <link name="base_link"/>
    <link name="camera_link">
      <sensor name="rgb" type="camera">
        <plugin name="rgb_driver" filename="libgazebo_ros_camera.so">
          <frame_name>FRAME</frame_name>
        </plugin>
      </sensor>
    </link>
    <joint name="camera_joint" type="fixed">
      <parent>base_link</parent><child>camera_link</child>
    </joint>
  </model>
</sdf>
"""

DESCRIPTION = """\
<robot name="bot">
  <link name="base_link"/>
  <link name="camera_link"/>
  <link name="rgb_frame"/>
  <joint name="camera_joint" type="fixed">
    <parent link="base_link"/><child link="camera_link"/>
    <origin xyz="0.1 0 0.2" rpy="CAMERA"/>
  </joint>
  <joint name="rgb_joint" type="fixed">
    <parent link="camera_link"/><child link="rgb_frame"/>
    <origin xyz="0 0 0" rpy="RGB"/>
  </joint>
</robot>
"""
OPTICAL_RPY = "-1.5707963 0 -1.5707963"


def _across(tmp_path, frame: str, camera: str = "0 0 0", rgb: str = "0 0 0", urdf: bool = True) -> list[tuple[str, int | None]]:
    from physframe_ros.scan.scanner import scan

    (tmp_path / "models").mkdir(exist_ok=True)
    (tmp_path / "models" / "model.sdf").write_text(MODEL.replace("FRAME", frame))
    if urdf:
        (tmp_path / "bot.urdf").write_text(DESCRIPTION.replace("CAMERA", camera).replace("RGB", rgb))
    return [(f.location.file, f.location.line) for f in scan([str(tmp_path)]).findings if f.code == "INCORRECT_TRANSFORM" and f.location]


def test_a_model_camera_stamping_a_frame_the_urdf_fixes_unturned(tmp_path) -> None:
    """neuronbot2: the SDF model's camera on camera_link stamps ``rgb_frame``, a frame only the URDF (which tf
    publishes) defines, fixed to camera_link with no rotation: reported at the plugin's frame line."""
    assert _across(tmp_path, "rgb_frame") == [("models/model.sdf", 7)]
    assert _across(tmp_path, "rgb_frame", rgb=OPTICAL_RPY) == []


def test_a_model_camera_stamping_its_own_link_is_judged_by_the_urdf(tmp_path) -> None:
    """neuronbot2's Kinect stamps ``camera_link``, the link it renders from: wrong while the URDF fixes camera_link
    like the model does, right once the URDF turns camera_link into optical axes from base_link (the fix), so it is
    reported at the URDF's joint."""
    assert _across(tmp_path, "camera_link") == [("bot.urdf", 5)]
    assert _across(tmp_path, "camera_link", camera=OPTICAL_RPY) == []


# ros2_turtlebot3_waffle_intel_realsense: the model's depth camera renders from realsense_link; the URDF that tf
# publishes fixes the frame it stamps under a 'camera_link' the model does not have, with no rotation
APART = """\
<robot name="bot">
  <link name="base_link"/>
  <link name="camera_link"/>
  <link name="realsense_depth_frame"/>
  <joint name="depth_joint" type="fixed">
    <parent link="camera_link"/><child link="realsense_depth_frame"/>
    <origin xyz="0.005 0.028 0.013" rpy="RPY"/>
  </joint>
</robot>
"""


def test_a_model_camera_stamping_a_frame_the_urdf_places_apart_from_the_model(tmp_path) -> None:
    """No frame above it is the model's: the URDF alone judges it, as the live check would, against the camera body
    frame above it; reported at the URDF joint (whose origin the fix turns)."""
    from physframe_ros.scan.scanner import scan

    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "model.sdf").write_text(MODEL.replace("FRAME", "realsense_depth_frame").replace("camera_link", "realsense_link"))

    def found(rpy: str) -> list[tuple[str, int | None]]:
        (tmp_path / "bot.urdf").write_text(APART.replace("RPY", rpy))
        return [(f.location.file, f.location.line) for f in scan([str(tmp_path)]).findings if f.code == "INCORRECT_TRANSFORM" and f.location]

    assert found("0 0 0") == [("bot.urdf", 5)]
    assert found(OPTICAL_RPY) == []


def test_a_model_camera_on_its_own(tmp_path) -> None:
    assert _across(tmp_path, "camera_link", urdf=False) == [("models/model.sdf", 7)]
    assert _across(tmp_path, "nowhere_frame", urdf=False) == []


# PR2's pr2_description before 67964b3 (2010): a rosbuild package (manifest.xml), the Gazebo 0.x sensor form
# (<sensor:camera>, <controller:gazebo_ros_camera>), and the frame handed whole through two macros from the robot file.
WGE100_GAZEBO = """\
<robot xmlns:sensor="http://playerstage.sourceforge.net/gazebo/xmlschema/#sensor"
       xmlns:controller="http://playerstage.sourceforge.net/gazebo/xmlschema/#controller"
       xmlns:xacro="http://ros.org/wiki/xacro">
  <xacro:macro name="wge100_camera_gazebo_v0" params="name frame_id">
    <gazebo reference="${name}_frame">
      <sensor:camera name="${name}_sensor">
        <controller:gazebo_ros_camera name="${name}_controller" plugin="libgazebo_ros_camera.so">
          <frameName>${frame_id}</frameName>
        </controller:gazebo_ros_camera>
      </sensor:camera>
    </gazebo>
  </xacro:macro>
</robot>
"""
WGE100 = """\
<robot xmlns:xacro="http://ros.org/wiki/xacro">
  <include filename="$(find pr2_description)/urdf/wge100_camera.gazebo.xacro" />
  <xacro:macro name="wge100_camera_v0" params="name parent frame_id *origin">
    <joint name="${name}_frame_joint" type="fixed">
      <insert_block name="origin" />
      <parent link="${parent}"/>
      <child link="${name}_frame"/>
    </joint>
    <link name="${name}_frame"/>
    <joint name="${name}_optical_frame_joint" type="fixed">
      <origin xyz="0 0 0" rpy="${-M_PI/2} 0.0 ${-M_PI/2}" />
      <parent link="${name}_frame" />
      <child link="${name}_optical_frame"/>
    </joint>
    <link name="${name}_optical_frame"/>
    <xacro:wge100_camera_gazebo_v0 name="${name}" frame_id="${frame_id}"/>
  </xacro:macro>
</robot>
"""
PR2 = """\
<robot name="pr2" xmlns:xacro="http://ros.org/wiki/xacro">
  <property name="M_PI" value="3.1415926535897931" />
  <include filename="$(find pr2_description)/urdf/wge100_camera.urdf.xacro" />
  <link name="base_link"/>
  <xacro:wge100_camera_v0 name="l_forearm_cam" parent="base_link"
                          frame_id="FRAME">
    <origin xyz=".135 0 .044" rpy="0 0 0" />
  </xacro:wge100_camera_v0>
</robot>
"""


def test_an_old_gazebo_camera_whose_frame_a_macro_call_names(tmp_path) -> None:
    """The finding points at the robot file's ``frame_id=`` argument, the line PR2's fix changed; the optical frame
    the macro makes is right."""
    from physframe_ros.scan.scanner import scan

    pkg = tmp_path / "pr2_description"
    (pkg / "urdf").mkdir(parents=True)
    (pkg / "robots").mkdir()
    (pkg / "manifest.xml").write_text("<package><description>PR2</description></package>\n")
    (pkg / "CMakeLists.txt").write_text("rosbuild_init()\n")
    (pkg / "urdf" / "wge100_camera.gazebo.xacro").write_text(WGE100_GAZEBO)
    (pkg / "urdf" / "wge100_camera.urdf.xacro").write_text(WGE100)

    def found(frame: str) -> list[tuple[str | None, int | None]]:
        (pkg / "robots" / "pr2.urdf.xacro").write_text(PR2.replace("FRAME", frame))
        return [(f.location.file, f.location.line) for f in scan([str(tmp_path)]).findings if f.code == "INCORRECT_TRANSFORM" and f.location]

    assert found("l_forearm_cam_frame") == [("pr2_description/robots/pr2.urdf.xacro", 6)]
    assert found("l_forearm_cam_optical_frame") == []


ARM = """\
<robot name="arm" xmlns:xacro="http://www.ros.org/wiki/xacro">
  <link name="base"/>
  <link name="forearm"/>
  <link name="hand_camera"/>
  <link name="hand_range"/>
  <link name="hand_camera_optical"/>
  <joint name="wrist" type="revolute">
    <parent link="base"/><child link="forearm"/>
    <axis xyz="0 0 1"/><limit lower="-1" upper="1" effort="1" velocity="1"/>
  </joint>
  <joint name="hand_camera_joint" type="fixed">
    <parent link="forearm"/><child link="hand_camera"/>
  </joint>
  <joint name="hand_range_joint" type="fixed">
    <parent link="forearm"/><child link="hand_range"/>
  </joint>
  <joint name="hand_camera_optical_joint" type="fixed">
    <parent link="hand_camera"/><child link="hand_camera_optical"/>
    <origin xyz="0 0 0" rpy="-1.5707963 0 -1.5707963"/>
  </joint>
  <gazebo reference="hand_range">
    <sensor type="ray" name="ir">
      <plugin name="ir" filename="libgazebo_ros_laser.so"><frameName>base</frameName></plugin>
    </sensor>
  </gazebo>
  <gazebo reference="hand_range">
    <sensor type="ray" name="ir2">
      <plugin name="ir2" filename="libgazebo_ros_laser.so"><frameName>base</frameName></plugin>
    </sensor>
  </gazebo>
  <gazebo reference="hand_camera">
    <sensor type="camera" name="cam">
      <plugin name="cam" filename="libgazebo_ros_camera.so"><frameName>hand_camera_optical</frameName></plugin>
    </sensor>
  </gazebo>
</robot>
"""


def test_a_sensor_stamping_a_frame_across_a_movable_joint(tmp_path: Path) -> None:
    """Baxter's hand range finders stamped ``base`` (and its hand cameras ``head_camera``): a joint that moves lies
    between the sensor and the frame its data is placed in. A frame fixed to the sensor's link (the camera's optical
    child) is fine. Each of two plugins naming the same frame is reported at its own line, also through xacro."""
    (tmp_path / "package.xml").write_text('<package format="3"><name>arm</name><version>0.0.0</version><description>d</description>'
                                          '<maintainer email="a@b.c">m</maintainer><license>MIT</license></package>\n')
    (tmp_path / "urdf").mkdir()
    (tmp_path / "urdf" / "arm.urdf.xacro").write_text(ARM)
    found = [(f.code, f.location.line if f.location else None, f.frames) for f in scan([tmp_path], jobs=1).findings
             if f.code == "INCORRECT_TRANSFORM"]
    assert found == [("INCORRECT_TRANSFORM", 23, ("hand_range", "base")), ("INCORRECT_TRANSFORM", 28, ("hand_range", "base"))]
