"""ROS-Industrial's frames at an arm's end: ``flange`` with x out of the flange (REP-103), ``tool0`` with z out of
it (the controller's tool frame), "out" being along the axis of the last revolute joint. The slips, from real
support packages: abb_experimental's IRB120 and kuka_experimental's KR210 ``tool0`` left with link_6's axes, kroshu's
KR16 and Motoman's GP4 ``flange`` carrying the controller's tool rotation."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from physframe_ros.core.rotations import ALL_ROTATIONS
from physframe_ros.scan.context import ScanContext
from physframe_ros.scan.description import expand_robot, parse_urdf_file

# abb_irb120_support's macro, expanded: joint_6 turns about link_6's x; flange sits on it, tool0 below the flange
ABB = """\
<robot name="irb120">
  <link name="link_5"/>
  <link name="link_6"/>
  <link name="flange"/>
  <link name="tool0"/>
  <joint name="joint_6" type="revolute">
    <origin xyz="0.302 0 0" rpy="0 0 0"/>
    <parent link="link_5"/><child link="link_6"/>
    <axis xyz="AXIS"/>
    <limit effort="0" lower="-7" upper="7" velocity="7"/>
  </joint>
  <joint name="link_6-flange" type="fixed">
    <origin xyz="0.072 0 0" rpy="FLANGE"/>
    <parent link="link_6"/><child link="flange"/>
  </joint>
  <joint name="link_6-tool0" type="fixed">
    <origin xyz="0 0 0" rpy="TOOL0"/>
    <parent link="flange"/><child link="tool0"/>
  </joint>
</robot>
"""


def _found(axis: str = "1 0 0", flange: str = "0 0 0", tool0: str = "0 1.5707963 0") -> list[tuple[int | None, tuple[str, ...], str]]:
    offset = " ".join(str(0.072 * float(a)) for a in axis.split())  # the flange sits on the axis
    text = ABB.replace("AXIS", axis).replace('"0.072 0 0"', f'"{offset}"').replace("FLANGE", flange).replace("TOOL0", tool0)
    facts = parse_urdf_file(text, "urdf/irb120.urdf")
    return [(f.location.line if f.location else None, f.frames, f.message) for f in facts.findings
            if f.code == "INCORRECT_TRANSFORM"]


def test_the_conventional_arm_is_quiet() -> None:
    assert _found() == []
    assert _found(axis="-1 0 0") == []  # KUKA writes its last axis negative: only the axis is judged, not its sign


def test_tool0_left_with_the_links_axes() -> None:
    """abb_experimental's IRB120 before 'Fix incorrect orientation of tool0 frame': tool0 identity on the flange."""
    [(line, frames, message)] = _found(tool0="0 0 0")
    assert (line, frames) == (16, ("flange", "tool0"))
    assert "'tool0' has its z along link_6's z, across the axis of the arm's last joint 'joint_6' (link_6's x)" in message
    assert message.endswith('its joint\'s rotation would be rpy="0 1.5708 0"')  # the fix's own rpy


def test_a_flange_with_the_controllers_tool_rotation() -> None:
    """Motoman's GP4 before PR 478: the flange turned by the OEM tool rotation (180, -90, 0 degrees); tool0 below the
    reported flange is left to it (one change fixes both)."""
    [(line, frames, message)] = _found(flange="3.1415927 -1.5707963 0", tool0="0 0 0")
    assert (line, frames) == (12, ("link_6", "flange"))
    assert "'flange' has its x along link_6's z" in message


def test_the_fix_points_out_of_the_flange() -> None:
    """kroshu's KR16: joint_a6 turns about z and the flange sits 0.153 m down it, turned by pitch pi; the suggested
    quarter turn points x down the axis, away from the arm, as the maintainers' fix (pitch pi/2) does."""
    text = ABB.replace("AXIS", "0 0 1").replace('xyz="0.072 0 0" rpy="FLANGE"', 'xyz="0 0 -0.153" rpy="0 3.1415927 0"')
    text = text.replace("TOOL0", "0 -1.5707963 0")
    [message] = [f.message for f in parse_urdf_file(text, "r.urdf").findings if f.code == "INCORRECT_TRANSFORM"]
    assert message.endswith('rpy="0 1.5708 0"')


def test_a_tool_frame_off_the_last_axis_is_a_tools_own() -> None:
    """moveit_pro's grinding cell names its grinder's tip tool0, 0.35 m to the side of the wrist's axis: an
    application tool frame, not the flange's all-zeros one."""
    text = ABB.replace("AXIS", "1 0 0").replace("FLANGE", "0 0 0").replace('xyz="0 0 0" rpy="TOOL0"', 'xyz="0.1 0.35 0" rpy="0 0 0"')
    assert [f for f in parse_urdf_file(text, "r.urdf").findings if f.code == "INCORRECT_TRANSFORM"] == []


@pytest.mark.parametrize("axis", ["1 0 0", "0 1 0", "0 0 -1"])
def test_every_orthogonal_tool0_is_judged_by_its_z(axis: str) -> None:
    """Over all 24 rotations of tool0 on a flange whose x is the axis: reported exactly when tool0's z is not along
    the axis (16 of 24), for any axis the last joint has (the flange is then judged too; tool0 is only reported
    under a quiet flange)."""
    along = [abs(float(a)) > 0.5 for a in axis.split()].index(True)
    flange = {0: "0 0 0", 1: "0 0 1.5707963", 2: "0 -1.5707963 0"}[along]  # the flange's x onto the axis
    reported = 0
    for rot in ALL_ROTATIONS:
        rpy = " ".join(repr(a) for a in rot.rpy())
        z_along = abs(rot.matrix()[0][2]) == 1  # tool0's z in flange axes lies along the flange's x
        found = _found(axis=axis, flange=flange, tool0=rpy)
        assert bool(found) != z_along, (rot, found)
        reported += bool(found)
    assert reported == 16


def test_a_wrist_reached_through_a_moving_joint_or_a_tilt_is_not_judged() -> None:
    assert _found(tool0="0 0.3 0") == []  # a tilted tool0: not one of the 24
    prismatic = ABB.replace('"link_6-tool0" type="fixed"', '"link_6-tool0" type="prismatic"')
    text = prismatic.replace("AXIS", "1 0 0").replace("FLANGE", "0 0 0").replace("TOOL0", "0 0 0")
    assert [f for f in parse_urdf_file(text, "r.urdf").findings if "ROS-Industrial" in f.message] == []


def test_a_ros2_control_macro_reading_a_driver_config_of_a_package_outside_the_tree(tmp_path: Path) -> None:
    """kroshu's descriptions: the ros2_control macro reads ``$(find kuka_kss_rsi_driver)/config/driver_config.yaml``
    with ``xacro.load_yaml`` for its hardware parameters. Without that package the values are unknown, the robot is
    still built and its flange judged."""
    (tmp_path / "r.urdf.xacro").write_text(textwrap.dedent("""\
        <robot name="kr16" xmlns:xacro="http://wiki.ros.org/xacro">
          <xacro:property name="rsi_config" value="$(find kuka_kss_rsi_driver)/config/driver_config.yaml"/>
          <xacro:property name="cfg" value="${xacro.load_yaml(rsi_config)}"/>
          <ros2_control name="kr16" type="system">
            <hardware><param name="client_ip">${cfg['client_ip']}</param><param name="port">${cfg['rsi']['port']}</param></hardware>
          </ros2_control>
          <link name="link_5"/><link name="link_6"/><link name="flange"/>
          <joint name="joint_a6" type="revolute">
            <parent link="link_5"/><child link="link_6"/><axis xyz="0 0 1"/>
            <limit effort="0" lower="-6" upper="6" velocity="6"/>
          </joint>
          <joint name="link6-flange" type="fixed">
            <parent link="link_6"/><child link="flange"/><origin xyz="0 0 -0.153" rpy="0 ${pi} 0"/>
          </joint>
        </robot>
        """))
    res = expand_robot("r.urdf.xacro", {}, ScanContext(str(tmp_path), {}), "", None)
    assert {(e.parent, e.child) for e in res.edges} == {("link_5", "link_6"), ("link_6", "flange")}
    found = [(f.code, f.location and f.location.line) for f in res.findings]
    assert ("INCORRECT_TRANSFORM", 12) in found
    assert any(f.code == "PARSE_ERROR" and "kuka_kss_rsi_driver" in f.message for f in res.findings)
