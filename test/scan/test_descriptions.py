"""Robot descriptions: URDF joints, xacro resolution inside the tree, SDFormat frame-graph rules."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from physframe_ros.core.findings import Location
from physframe_ros.core.rotations import rpy_to_quaternion
from physframe_ros.scan.context import ScanContext
from physframe_ros.scan.description import expand_robot, parse_sdf_file, parse_urdf_file

ARM_URDF = textwrap.dedent("""\
    <?xml version="1.0"?>
    <robot name="arm">
      <link name="base_link"/>
      <link name="shoulder"/>
      <link name="tool0"/>
      <joint name="shoulder_pan" type="revolute">
        <parent link="base_link"/>
        <child link="shoulder"/>
        <origin xyz="0 0 0.1" rpy="0 0 0"/>
        <limit lower="-3" upper="3" effort="10" velocity="1"/>
      </joint>
      <joint name="flange" type="fixed">
        <parent link="shoulder"/>
        <child link="tool0"/>
        <origin xyz="0 0 0.3" rpy="0 1.5707963 0"/>
      </joint>
      <joint name="camera_mount" type="fixed">
        <parent link="tool0"/>
        <child link="wrist_camera"/>
      </joint>
      <transmission name="t"><joint name="shoulder_pan"><hardwareInterface>x</hardwareInterface></joint></transmission>
    </robot>
    """)


def test_urdf_joints_become_edges_with_prefix_and_lines() -> None:
    facts = parse_urdf_file(ARM_URDF, "arm/urdf/arm.urdf", prefix="arm1/")
    edges = {(e.parent, e.child): e for e in facts.edges}
    assert set(edges) == {("arm1/base_link", "arm1/shoulder"), ("arm1/shoulder", "arm1/tool0"), ("arm1/tool0", "arm1/wrist_camera")}
    pan = edges[("arm1/base_link", "arm1/shoulder")]
    assert not pan.static and pan.rotation is None and pan.sources[0].line == 6
    flange = edges[("arm1/shoulder", "arm1/tool0")]
    assert flange.static and flange.translation == (0.0, 0.0, 0.3)
    assert flange.rotation == pytest.approx(rpy_to_quaternion(0, 1.5707963, 0))
    # a joint to an undefined link: urdfdom refuses the model
    assert [(f.code, f.location and f.location.line) for f in facts.findings] == [("MISSING_CHILD_FRAME", 17)]


def test_malformed_urdf_is_a_parse_error_with_line() -> None:
    facts = parse_urdf_file("<robot name='x'>\n<link name='a'>\n</robot>\n", "bad.urdf")
    assert [(f.code, f.location and f.location.line) for f in facts.findings] == [("PARSE_ERROR", 3)]


def test_a_robot_needing_a_package_outside_the_tree_is_checked_without_it(tmp_path: Path) -> None:
    """husky.urdf.xacro includes sensor mounts from packages of other repositories (lms1xx, velodyne_description):
    the robot is built without them, its own joints and camera plugins checked, the links those macros would add
    unknown rather than missing. The PARSE_ERROR at the include says so."""
    (tmp_path / "r.urdf.xacro").write_text(textwrap.dedent("""\
        <robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
          <link name="base_link"/>
          <xacro:include filename="$(find realsense2_description)/urdf/_d435.urdf.xacro"/>
          <xacro:sensor_d435 parent="base_link" name="camera"><origin xyz="0.1 0 0.2"/></xacro:sensor_d435>
          <link name="front_camera"/>
          <joint name="front_camera_joint" type="fixed">
            <parent link="base_link"/><child link="front_camera"/><origin xyz="0.2 0 0.3" rpy="0 0 0"/>
          </joint>
          <link name="bracket"/>
          <joint name="camera_bracket_joint" type="fixed">
            <parent link="camera_link"/><child link="bracket"/>
          </joint>
          <gazebo reference="front_camera">
            <sensor type="camera" name="front"><plugin name="c" filename="libgazebo_ros_camera.so">
              <frameName>front_camera</frameName>
            </plugin></sensor>
          </gazebo>
        </robot>
        """))
    res = expand_robot("r.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    assert {(e.parent, e.child) for e in res.edges} == {("base_link", "front_camera"), ("camera_link", "bracket")}
    found = [(f.code, f.location and f.location.line) for f in res.findings]
    assert ("PARSE_ERROR", 3) in found and ("INCORRECT_TRANSFORM", 15) in found  # the plugin frame, judged
    assert not any(code in ("MISSING_FRAME", "MISSING_CHILD_FRAME") for code, _ in found)  # camera_link: the macro's, unknown
    assert "the robot is checked without what its files give" in next(f.message for f in res.findings if f.code == "PARSE_ERROR")


def test_a_macro_inserting_one_origin_block_into_two_chained_joints(tmp_path: Path) -> None:
    """orne_box's sensor_imu macro (before its fix): the mount ``*origin`` inserted into base_link -> imu_link and again
    into imu_link -> imu, so the IMU's frame is offset and turned twice; reported in the macro's file, where the
    robot includes it. A macro inserting its block once, or into two joints side by side, is fine."""
    (tmp_path / "imu.urdf.xacro").write_text(textwrap.dedent("""\
        <robot xmlns:xacro="http://ros.org/wiki/xacro" name="sensor_imu">
          <xacro:macro name="sensor_imu" params="name parent *origin">
            <joint name="${name}_joint" type="fixed">
              <xacro:insert_block name="origin"/>
              <parent link="${parent}"/>
              <child link="${name}_link"/>
            </joint>
            <link name="${name}_link"/>
            <joint name="${name}_base_joint" type="fixed">
              <xacro:insert_block name="origin"/>
              <parent link="${name}_link"/>
              <child link="${name}"/>
            </joint>
            <link name="${name}"/>
          </xacro:macro>
          <xacro:macro name="twin_wheels" params="parent *origin">
            <joint name="left_joint" type="fixed"><xacro:insert_block name="origin"/><parent link="${parent}"/><child link="left"/></joint>
            <link name="left"/>
            <joint name="right_joint" type="fixed"><xacro:insert_block name="origin"/><parent link="${parent}"/><child link="right"/></joint>
            <link name="right"/>
          </xacro:macro>
        </robot>
        """))
    (tmp_path / "robot.urdf.xacro").write_text(textwrap.dedent("""\
        <robot name="orne_box" xmlns:xacro="http://ros.org/wiki/xacro">
          <xacro:include filename="imu.urdf.xacro"/>
          <link name="base_link"/>
          <xacro:sensor_imu name="imu" parent="base_link"><origin xyz="0.23 0 0.27" rpy="${-pi} 0 ${pi/2}"/></xacro:sensor_imu>
          <xacro:twin_wheels parent="base_link"><origin xyz="0 0 0.1"/></xacro:twin_wheels>
        </robot>
        """))
    res = expand_robot("robot.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    found = [(f.code, f.location.file if f.location else None, f.location.line if f.location else None, f.message) for f in res.findings]
    assert [(code, file, line) for code, file, line, _ in found] == [("INCORRECT_TRANSFORM", "imu.urdf.xacro", 10)]
    assert found[0][3].startswith("macro 'sensor_imu' inserts its block '*origin' as the origin of joint '${name}_joint' "
                                  "(${parent} -> ${name}_link) and again of joint '${name}_base_joint'")


def test_xacro_error_is_a_finding_not_a_crash(tmp_path: Path) -> None:
    (tmp_path / "r.xacro").write_text('<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">\n<link name="${undefined_prop}"/>\n</robot>\n')
    res = expand_robot("r.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    assert [f.code for f in res.findings] == ["PARSE_ERROR"]
    assert "undefined_prop" in res.findings[0].message


# duckietown's dt-duckiebot-interface before its fix: `$(arg veh)` and `$(arg model)` with no <xacro:arg> (the launch
# file passes them), every link named with a leading slash
DUCKIEBOT = """\
<robot name="duckiebot" xmlns:xacro="http://www.ros.org/wiki/xacro">
    <xacro:macro name="duckiebot" params="veh model">
        <link name="/${veh}/footprint"/>
        <xacro:if value="${model in ['DB18', 'DB19']}" >
            <link name="/${veh}/base"/>
            <joint name="${veh}_footprint_to_base" type="fixed">
                <parent link="/${veh}/footprint" />
                <child link="/${veh}/base" />
            </joint>
        </xacro:if>
    </xacro:macro>
    <xacro:duckiebot veh="$(arg veh)" model="$(arg model)" />
</robot>
"""


def test_undeclared_xacro_arguments_are_assumed_and_link_names_checked_at_their_link(tmp_path: Path) -> None:
    """An argument only the launch file gives takes the first value the file compares it with, else its own name,
    so the robot is still built; a link name tf2 rejects is reported at its <link> and at each joint naming it."""
    (tmp_path / "duckiebot.urdf.xacro").write_text(DUCKIEBOT)
    res = expand_robot("duckiebot.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    assert [(e.parent, e.child) for e in res.edges] == [("/veh/footprint", "/veh/base")]  # model 'DB18': the branch is built
    assert sorted((f.code, f.location.line if f.location else None, f.frames) for f in res.findings) == [
        ("INVALID_FRAME_ID", 3, ("/veh/footprint",)), ("INVALID_FRAME_ID", 5, ("/veh/base",)),
        ("INVALID_FRAME_ID", 6, ("/veh/base",)), ("INVALID_FRAME_ID", 6, ("/veh/footprint",))]


SDF = """\
<?xml version="1.0"?>
<sdf version="1.8">
  <model name="cart">
    <link name="chassis"/>
    <link name="chassis"/>
    <link name="world"/>
    <frame name="__lidar__" attached_to="chassis"/>
    <frame name="a" attached_to="b"/>
    <frame name="b" attached_to="a"/>
    <frame name="mast" attached_to="turret"/>
    <frame name="antenna" attached_to="chassis">
      <pose relative_to="nowhere">0 0 1 0 0 0</pose>
    </frame>
    <frame name="lidar_mount" attached_to="chassis">
      <pose degrees="true">0.2 0 0.5 0 0 90</pose>
    </frame>
    <joint name="caster" type="fixed">
      <parent>chassis</parent>
      <child>caster_wheel</child>
    </joint>
  </model>
</sdf>
"""


def _line(needle: str) -> int:
    return next(i for i, line in enumerate(SDF.splitlines(), 1) if needle in line)


def test_sdf_frame_graph_rules() -> None:
    facts = parse_sdf_file(SDF, "m/model.sdf")
    got = sorted((f.code, f.location.line if f.location else 0) for f in facts.findings)
    assert got == sorted([
        ("INVALID_FRAME_ID", _line('<link name="chassis"/>') + 1),  # duplicate sibling name
        ("INVALID_FRAME_ID", _line('<link name="world"/>')),  # reserved
        ("INVALID_FRAME_ID", _line('"__lidar__"')),  # reserved
        ("CYCLE_IN_FRAME_TREE", _line('<frame name="a"')),  # a -> b -> a
        ("MISSING_FRAME", _line('"mast"')),  # unknown attached_to
        ("MISSING_FRAME", _line('"antenna"')),  # unknown relative_to
        ("MISSING_CHILD_FRAME", _line('<joint name="caster"')),  # joint child is no frame of the model
    ])
    cycle = next(f for f in facts.findings if f.code == "CYCLE_IN_FRAME_TREE")
    assert set(cycle.frames) == {"a", "b"}
    edges = {(e.parent, e.child): e for e in facts.edges}
    mount = edges[("chassis", "lidar_mount")]
    assert mount.translation == pytest.approx((0.2, 0.0, 0.5))
    assert mount.rotation == pytest.approx(rpy_to_quaternion(0, 0, 1.5707963267948966))


@pytest.mark.parametrize("pose", ["0 0 0.2 0 1e3080 0", "0 0 nan 0 0 0", "inf 0 0 0 0 0"])
def test_an_sdf_pose_with_a_number_that_is_not_finite_is_unknown(pose: str) -> None:
    """Found by the scanner fuzzer: ``1e3080`` reads as inf, and math.cos(inf) raised inside the parser."""
    sdf = f'''<sdf version="1.8"><model name="crane">
  <link name="base_link"/>
  <link name="boom"><pose relative_to="base_link">{pose}</pose></link>
  <joint name="j" type="fixed"><parent>base_link</parent><child>boom</child></joint>
</model></sdf>
'''
    facts = parse_sdf_file(sdf, "m/model.sdf")
    assert [f.code for f in facts.findings] == ["PARSE_ERROR"] and "not finite" in facts.findings[0].message
    assert [(e.parent, e.child, e.translation, e.rotation) for e in facts.edges] == [("base_link", "boom", None, None)]


def test_xacro_uses_written_environment_defaults_not_the_scanning_machine(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("ROVER_LIDAR_FRAME", "from_this_machine")
    (tmp_path / "r.urdf.xacro").write_text(textwrap.dedent("""\
        <robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
          <link name="base_link"/>
          <link name="$(optenv ROVER_LIDAR_FRAME lidar_link)"/>
          <joint name="lidar_joint" type="fixed">
            <parent link="base_link"/>
            <child link="$(optenv ROVER_LIDAR_FRAME lidar_link)"/>
          </joint>
        </robot>
        """))
    res = expand_robot("r.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    assert [(e.parent, e.child) for e in res.edges] == [("base_link", "lidar_link")]
    assert res.findings == []


def test_a_urdf_with_xacro_markup_is_expanded_by_xacro(tmp_path: Path) -> None:
    """TurtleBot3's descriptions are ``.urdf`` files that their launch files run through xacro."""
    from physframe_ros.scan.scanner import scan

    (tmp_path / "package.xml").write_text("<package format='3'><name>bot_description</name></package>\n")
    (tmp_path / "bot.urdf").write_text(textwrap.dedent("""\
        <?xml version="1.0" ?>
        <robot name="bot" xmlns:xacro="http://ros.org/wiki/xacro">
          <xacro:arg name="namespace" default=""/>
          <xacro:property name="namespace" value="$(arg namespace)"/>
          <link name="${namespace}base_footprint"/>
          <link name="${namespace}base_link"/>
          <joint name="base_joint" type="fixed">
            <parent link="${namespace}base_footprint"/><child link="${namespace}base_link"/>
            <origin xyz="0 0 0.01" rpy="0 0 0"/>
          </joint>
        </robot>
        """))
    result = scan([tmp_path], jobs=1)
    assert [f for f in result.findings if f.level.value != "info"] == []
    assert [(e.parent, e.child, e.sources[0].line) for e in result.expected.edges] == [("base_footprint", "base_link", 7)]


def test_legacy_xacro_tags_without_the_prefix_are_read_as_ros1_xacro_read_them(tmp_path: Path) -> None:
    """raspimouse_sim (Kinetic) defines ``<property name="wheel_mass" .../>`` in an included file: xacro 2
    ignores the un-prefixed tag, and the robot would not expand. A ``<link>`` or ``<joint>`` is never renamed."""
    from physframe_ros.scan.scanner import scan

    (tmp_path / "package.xml").write_text("<package format='2'><name>mouse_description</name></package>\n")
    (tmp_path / "wheel.urdf.xacro").write_text(textwrap.dedent("""\
        <robot xmlns:xacro="http://ros.org/wiki/xacro">
          <property name="wheel_offset" value="0.04"/>
          <macro name="wheel" params="side reflect">
            <link name="${side}_wheel"/>
            <joint name="${side}_wheel_joint" type="continuous">
              <parent link="base_link"/><child link="${side}_wheel"/>
              <origin xyz="0 ${reflect * wheel_offset} 0" rpy="0 0 0"/>
            </joint>
          </macro>
        </robot>
        """))
    (tmp_path / "mouse.urdf.xacro").write_text(textwrap.dedent("""\
        <robot name="mouse" xmlns:xacro="http://ros.org/wiki/xacro">
          <include filename="$(find mouse_description)/wheel.urdf.xacro"/>
          <link name="base_link"/>
          <xacro:wheel side="left" reflect="1"/>
          <if value="true"><xacro:wheel side="right" reflect="-1"/></if>
        </robot>
        """))
    result = scan([tmp_path], jobs=1)
    assert [f for f in result.findings if f.code == "PARSE_ERROR"] == []
    assert sorted((e.parent, e.child) for e in result.expected.edges) == [("base_link", "left_wheel"), ("base_link", "right_wheel")]


def test_a_stage_world_file_is_not_read_as_sdformat() -> None:
    """stage_ros ships Stage's own .world format (`include "robots.inc"`, `# comments`): no frames, no parse error;
    a Gazebo .world (XML) is still SDFormat."""
    stage = '# A world containing objects\ninclude "pioneer.inc"\n\nwindow( size [ 635 666 ] )\n'
    assert parse_sdf_file(stage, "world/intense.world").findings == []
    broken = parse_sdf_file('<?xml version="1.0"?>\n<sdf version="1.6"><world name="w">\n', "worlds/empty.world")
    assert [f.code for f in broken.findings] == ["PARSE_ERROR"]


def test_frame_ids_of_gazebo_plugins_in_urdf_and_sdf() -> None:
    # gazebo_ros_imu's <frameName> and gazebo_ros_p3d's in ROS 1 descriptions, gz's <frame_id> in SDF; a body name
    # is a Gazebo link, not a tf frame
    urdf = textwrap.dedent("""\
        <robot name="r">
          <link name="base_link"/>
          <gazebo>
            <plugin name="imu_plugin" filename="libgazebo_ros_imu.so">
              <bodyName>/base_link</bodyName>
              <frameName>/imu_link</frameName>
            </plugin>
          </gazebo>
          <gazebo><plugin name="p3d" filename="libgazebo_ros_p3d.so"><frameName>world</frameName></plugin></gazebo>
        </robot>
        """)
    sdf = textwrap.dedent("""\
        <sdf version="1.9">
          <model name="m">
            <link name="base_link"/>
            <plugin filename="gz-sim-odometry-publisher-system" name="gz::sim::systems::OdometryPublisher">
              <odom_frame>odom</odom_frame>
              <robot_base_frame>/base_link</robot_base_frame>
            </plugin>
          </model>
        </sdf>
        """)
    found = [(f.location and f.location.line, f.frames) for f in parse_urdf_file(urdf, "r.urdf").findings if f.code == "INVALID_FRAME_ID"]
    assert found == [(6, ("/imu_link",))]
    found = [(f.location and f.location.line, f.frames) for f in parse_sdf_file(sdf, "m.sdf").findings if f.code == "INVALID_FRAME_ID"]
    assert found == [(6, ("/base_link",))]


def test_an_infinite_rpy_is_an_invalid_transform_not_a_crash() -> None:
    # a fuzzed xacro property (`M_PI = 3.14e30893`) made rpy infinite, and cos(inf) raises
    urdf = textwrap.dedent("""\
        <robot name="r"><link name="a"/><link name="b"/>
          <joint name="j" type="fixed"><parent link="a"/><child link="b"/><origin rpy="-inf 0 inf"/></joint>
        </robot>
        """)
    assert [(f.code, f.location and f.location.line) for f in parse_urdf_file(urdf, "r.urdf").findings] == [("INVALID_TRANSFORM", 2)]


def test_an_rpy_in_degrees_is_reported_at_its_origin() -> None:
    """pr2_simulator's dual_link: rpy="0 90 0" turns by 90 rad; 3.1416 and 6.2832 are radians."""
    text = textwrap.dedent("""\
        <robot name="r">
          <link name="link1"/><link name="link2"/><link name="link3"/>
          <joint name="link2_joint" type="continuous">
            <parent link="link1"/>
            <origin xyz="0 0 0" rpy="0 90 0"/>
            <child link="link2"/>
          </joint>
          <joint name="link3_joint" type="fixed">
            <parent link="link2"/><child link="link3"/><origin rpy="3.1416 0 6.2832"/>
          </joint>
        </robot>
        """)
    found = [(f.code, f.location.line if f.location else None, f.level.name) for f in parse_urdf_file(text, "urdf/r.urdf").findings]
    assert found == [("INCORRECT_TRANSFORM", 5, "WARNING")]


def test_an_rpy_in_degrees_in_a_xacro_macro_is_reported_at_its_origin(tmp_path: Path) -> None:
    """pr2_simulator's dual_link.urdf.xacro: the joint is written in a macro; its <origin>, 5 lines below the joint,
    is the line to change."""
    (tmp_path / "dual_link.urdf.xacro").write_text(textwrap.dedent("""\
        <robot name="dual" xmlns:xacro="http://www.ros.org/wiki/xacro">
          <link name="link1"/><link name="link2"/>
          <xacro:macro name="arm" params="name">
            <joint name="${name}_joint" type="fixed">
              <parent link="link1"/>
              <child link="link2"/>
              <axis xyz="0 1 0"/>
              <origin xyz="0 0 0.5" rpy="0 90 0"/>
            </joint>
          </xacro:macro>
          <xacro:arm name="link2"/>
        </robot>
        """))
    res = expand_robot("dual_link.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    assert [(f.code, f.location and f.location.line) for f in res.findings] == [("INCORRECT_TRANSFORM", 8)]


def test_a_description_whose_comments_hold_dashes_is_read() -> None:
    """hero_description's amigo SDF draws banners `<!------...------>`: ill-formed XML that SDFormat's and urdfdom's
    TinyXML read; its plugin's '/base_laser' is checked."""
    sdf = ('<sdf version="1.4">\n  <model name="amigo">\n    <!-------------- base laser -------------->\n    <link name="base">\n'
           '      <sensor name="laser" type="ray"><plugin name="laser" filename="libgazebo_ros_laser.so">\n'
           '        <frameName>/base_laser</frameName>\n      </plugin></sensor>\n    </link>\n  </model>\n</sdf>\n')
    found = [(f.code, f.location.line if f.location else None) for f in parse_sdf_file(sdf, "sdf/amigo.sdf").findings]
    assert found == [("INVALID_FRAME_ID", 6)]


def test_a_description_needing_more_undeclared_arguments_than_assumed_is_a_parse_error(tmp_path: Path) -> None:
    """Past MAX_ASSUMED_ARGS the expansion gives up with xacro's own error, never silently."""
    from physframe_ros.scan.description.xacro_support import MAX_ASSUMED_ARGS

    names = [f"a{i}" for i in range(MAX_ASSUMED_ARGS + 1)]
    links = "".join(f'<link name="$(arg {n})"/>' for n in names)
    (tmp_path / "r.urdf.xacro").write_text(f'<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">{links}</robot>\n')
    res = expand_robot("r.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    assert [f.code for f in res.findings] == ["PARSE_ERROR"]
    assert f"a{MAX_ASSUMED_ARGS}" in res.findings[0].message
    (tmp_path / "r.urdf.xacro").write_text(f'<robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">{links[: links.rindex("<link")]}</robot>\n')
    assert expand_robot("r.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None).findings == []


def test_a_joint_template_is_located_in_the_macro_the_robot_calls(tmp_path: Path) -> None:
    """reemc_description: back_camera.urdf.xacro and stereo_camera.urdf.xacro write the same joint template
    `${name}_optical_frame_joint`; the robot calls only the stereo macro, so its joint is located there."""
    for macro in ("back_camera", "stereo_camera"):
        (tmp_path / f"{macro}.urdf.xacro").write_text(textwrap.dedent(f"""\
            <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
              <xacro:macro name="{macro}" params="name parent">
                <link name="${{name}}_link"/>
                <joint name="${{name}}_optical_frame_joint" type="fixed">
                  <parent link="${{parent}}"/>
                  <child link="${{name}}_link"/>
                  <origin xyz="0 0 0" rpy="0 90 0"/>
                </joint>
              </xacro:macro>
            </robot>
            """))
    (tmp_path / "robot.urdf.xacro").write_text(textwrap.dedent("""\
        <robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
          <xacro:include filename="back_camera.urdf.xacro"/>
          <xacro:include filename="stereo_camera.urdf.xacro"/>
          <link name="head_link"/>
          <xacro:stereo_camera name="stereo" parent="head_link"/>
        </robot>
        """))
    res = expand_robot("robot.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    assert [(f.code, f.location and f.location.file, f.location and f.location.line) for f in res.findings] == [
        ("INCORRECT_TRANSFORM", "stereo_camera.urdf.xacro", 7)]


# warthog_description before PR #21: hector's GPS plugin with <referenceHeading>0</referenceHeading> puts the
# Gazebo world's x axis north (NWU); 90 puts it east, the ENU navsat_transform_node assumes
WARTHOG_GPS = """\
<robot name="warthog">
  <link name="base_link"/>
  <gazebo>
    <plugin name="gps_controller" filename="libhector_gazebo_ros_gps.so">
      <frameId>base_link</frameId>
      <referenceHeading>0</referenceHeading>
    </plugin>
  </gazebo>
</robot>
"""


def test_a_simulated_gps_whose_world_is_nwu() -> None:
    found = [f for f in parse_urdf_file(WARTHOG_GPS, "urdf/warthog.urdf").findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(f.location and f.location.line, f.severity.value) for f in found] == [(6, "warning")]
    assert "NWU" in found[0].message and "90 puts x east" in found[0].message
    assert parse_urdf_file(WARTHOG_GPS.replace(">0<", ">90<"), "urdf/warthog.urdf").findings == []
    assert parse_urdf_file(WARTHOG_GPS.replace("      <referenceHeading>0</referenceHeading>\n", ""), "urdf/warthog.urdf").findings == []
    sdf = ('<sdf version="1.6"><model name="w"><link name="base_link"/>'
           '<plugin name="gps" filename="libhector_gazebo_ros_gps.so"><referenceHeading>0</referenceHeading></plugin></model></sdf>')
    assert [f.code for f in parse_sdf_file(sdf, "models/w/model.sdf").findings] == ["INCORRECT_TRANSFORM"]


def test_a_rotation_a_macro_call_passes_in_is_located_at_the_call(tmp_path: Path) -> None:
    """tum_simulator: the generic_camera and sonar_sensor macros both write `${name}_joint` and the robot calls both;
    the call with name="bottom" makes `bottom_joint`, so that is the macro, and the `<origin>` block that call passes
    is the line to change. rob_box: `origin_rpy="0 3.14159 0"` given to the usb_camera macro, used as `rpy="${origin_rpy}"`."""
    for macro, extra in (("generic_camera", ""), ("sonar_sensor", "")):
        (tmp_path / f"{macro}.urdf.xacro").write_text(textwrap.dedent(f"""\
            <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
              <xacro:macro name="{macro}" params="name parent *origin">
                <joint name="${{name}}_joint" type="fixed">
                  <xacro:insert_block name="origin"/>
                  <parent link="${{parent}}"/>
                  <child link="${{name}}_link"/>
                </joint>
                <link name="${{name}}_link"/>{extra}
              </xacro:macro>
            </robot>
            """))
    (tmp_path / "usb_camera.urdf.xacro").write_text(textwrap.dedent("""\
        <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
          <xacro:macro name="usb_camera" params="name parent_link origin_xyz origin_rpy">
            <link name="${name}_link"/>
            <joint name="${name}_mount" type="fixed">
              <parent link="${parent_link}"/>
              <child link="${name}_link"/>
              <origin xyz="${origin_xyz}" rpy="${origin_rpy}"/>
            </joint>
            <link name="${name}_optical_frame"/>
            <joint name="${name}_optical_joint" type="fixed">
              <parent link="${name}_link"/>
              <child link="${name}_optical_frame"/>
              <origin xyz="0 0 0" rpy="${-pi/2} 0 ${-pi/2}"/>
            </joint>
          </xacro:macro>
        </robot>
        """))
    (tmp_path / "robot.urdf.xacro").write_text(textwrap.dedent("""\
        <robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
          <xacro:include filename="generic_camera.urdf.xacro"/>
          <xacro:include filename="sonar_sensor.urdf.xacro"/>
          <xacro:include filename="usb_camera.urdf.xacro"/>
          <link name="base_link"/>
          <xacro:sonar_sensor name="sonar" parent="base_link">
            <origin xyz="0 0 0" rpy="0 ${pi/2} 0"/>
          </xacro:sonar_sensor>
          <xacro:generic_camera name="bottom_cam" parent="base_link">
            <origin xyz="0.15 0 0" rpy="0 ${-pi/2} 0"/>
          </xacro:generic_camera>
          <xacro:usb_camera name="ceiling_camera" parent_link="base_link" origin_xyz="0 0 0.25"
                            origin_rpy="0 3.14159 0"/>
        </robot>
        """))
    res = expand_robot("robot.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    at = {e.child: (e.location, e.rotation_at) for e in res.edges}
    assert at["bottom_cam_link"] == (Location("generic_camera.urdf.xacro", 3), Location("robot.urdf.xacro", 10))
    assert at["sonar_link"] == (Location("sonar_sensor.urdf.xacro", 3), Location("robot.urdf.xacro", 7))
    assert at["ceiling_camera_link"] == (Location("usb_camera.urdf.xacro", 4), Location("robot.urdf.xacro", 13))
    assert at["ceiling_camera_optical_frame"] == (Location("usb_camera.urdf.xacro", 10), None)  # the macro's own rotation


def test_a_call_naming_its_frame_by_a_xacro_argument_is_matched_by_the_argument_default(tmp_path: Path) -> None:
    """rm_description: `camera_sensor` and `camera_optical_frame` both write `${frame_id}_joint`, and the robot calls
    each with `frame_id="$(arg ...)"`; the arguments' declared defaults tell which call made `camera_optical_frame_joint`,
    and its `rpy="1.57 0 1.57"` is the line to change."""
    (tmp_path / "camera.urdf.xacro").write_text(textwrap.dedent("""\
        <robot xmlns:xacro="http://www.ros.org/wiki/xacro">
          <xacro:macro name="camera_sensor" params="rpy frame_id parent">
            <joint name="${frame_id}_joint" type="fixed">
              <origin xyz="0 0 0" rpy="${rpy}"/>
              <parent link="${parent}"/>
              <child link="${frame_id}"/>
            </joint>
            <link name="${frame_id}"/>
          </xacro:macro>
          <xacro:macro name="camera_optical_frame" params="rpy frame_id parent">
            <joint name="${frame_id}_joint" type="fixed">
              <origin xyz="0 0 0" rpy="${rpy}"/>
              <parent link="${parent}"/>
              <child link="${frame_id}"/>
            </joint>
            <link name="${frame_id}"/>
          </xacro:macro>
        </robot>
        """))
    (tmp_path / "robot.urdf.xacro").write_text(textwrap.dedent("""\
        <robot name="r" xmlns:xacro="http://www.ros.org/wiki/xacro">
          <xacro:arg name="camera_link" default="camera_link"/>
          <xacro:arg name="camera_optical_frame" default="camera_optical_frame"/>
          <xacro:include filename="camera.urdf.xacro"/>
          <link name="pitch"/>
          <xacro:camera_sensor rpy="0 0 0" frame_id="$(arg camera_link)" parent="pitch"/>
          <xacro:camera_optical_frame frame_id="$(arg camera_optical_frame)" parent="pitch"
                                      rpy="1.57 0 1.57"/>
        </robot>
        """))
    res = expand_robot("robot.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    at = {e.child: (e.location, e.rotation_at) for e in res.edges}
    assert at["camera_optical_frame"] == (Location("camera.urdf.xacro", 11), Location("robot.urdf.xacro", 8))
    assert at["camera_link"] == (Location("camera.urdf.xacro", 3), Location("robot.urdf.xacro", 6))


# ardupilot_gazebo's iris model before its issue 58: the ArduPilot plugin's world-to-NED pose a roll of pi alone,
# which turns Gazebo's ENU world into x east, y south, z down; the fix adds the quarter yaw
IRIS_ARDUPILOT = """\
<?xml version="1.0"?>
<sdf version="1.9">
  <model name="iris_with_ardupilot">
    <link name="base_link"/>
    <plugin name="ArduPilotPlugin" filename="ArduPilotPlugin">
      <fdm_addr>127.0.0.1</fdm_addr>
      <modelXYZToAirplaneXForwardZDown>0 0 0 3.141593 0 0</modelXYZToAirplaneXForwardZDown>
      <gazeboXYZToNED>0 0 0 3.141593 0 0</gazeboXYZToNED>
    </plugin>
  </model>
</sdf>
"""


@pytest.mark.parametrize("element, wrong", [
    ("<gazeboXYZToNED>0 0 0 3.141593 0 0</gazeboXYZToNED>", True),
    ("<gazeboXYZToNED>0 0 0 3.141593 0 1.57079632</gazeboXYZToNED>", False),
    ('<gazeboXYZToNED degrees="true">0 0 0 180 0 90</gazeboXYZToNED>', False),  # today's models write degrees
    ("<gazeboXYZToNED>0 0 0 3.141593 0 -1.57079632</gazeboXYZToNED>", True),  # the other quarter: x south, y west
    ("<gazeboXYZToNED>0 0 0 0.3 0 0</gazeboXYZToNED>", False),  # not one of the 24 rotations: says nothing of the axes
])
def test_an_ardupilot_plugin_maps_the_enu_world_to_ned(element: str, wrong: bool) -> None:
    sdf = IRIS_ARDUPILOT.replace("<gazeboXYZToNED>0 0 0 3.141593 0 0</gazeboXYZToNED>", element)
    found = [f for f in parse_sdf_file(sdf, "models/iris/model.sdf").findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(f.location and f.location.line, f.severity.value) for f in found] == ([(8, "error")] if wrong else [])
    if element == "<gazeboXYZToNED>0 0 0 3.141593 0 0</gazeboXYZToNED>":
        assert "x east, y south, z down, not NED (x north, y east, z down)" in found[0].message
    plugin = sdf[sdf.index("<plugin"):sdf.index("</plugin>") + len("</plugin>")]
    urdf = f'<robot name="iris"><link name="base_link"/><gazebo>{plugin}</gazebo></robot>'
    assert len([f for f in parse_urdf_file(urdf, "urdf/iris.urdf").findings if f.code == "INCORRECT_TRANSFORM"]) == (1 if wrong else 0)


def test_an_sdf_models_lidar_and_imu_are_simulated_sensors_and_its_camera_is_not() -> None:
    """edu_simulation's Eduard: the lidar link's ray sensor stamps its scans with its plugin's frame name."""
    sdf = """\
<sdf version="1.6">
  <model name="eduard">
    <link name="chassis"/>
    <link name="lidar">
      <pose>0.115 0 0.12 0 0 0</pose>
      <sensor name="lidar" type="ray">
        <pose>0 0 0.01 0 0 3.141592654</pose>
        <plugin name="scan" filename="libgazebo_ros_ray_sensor.so"><frame_name>eduard/blue/laser</frame_name></plugin>
      </sensor>
      <sensor name="imu" type="imu"/>
      <sensor name="cam" type="camera"/>
    </link>
  </model>
</sdf>
"""
    sensors = parse_sdf_file(sdf, "model/eduard.sdf").sim_sensors
    assert [(s.name, s.type, s.link, s.frame, str(s.mount), s.location.line) for s in sensors] == [
        ("lidar", "ray", "lidar", "eduard/blue/laser", "<-x,-y,z>", 6), ("imu", "imu", "lidar", "", "<x,y,z>", 10)]
    assert sensors[0].stamps("eduard/blue/laser") and not sensors[0].stamps("eduard/blue/lidar")
    assert sensors[1].stamps("eduard/lidar/imu") and not sensors[1].stamps("imu")
