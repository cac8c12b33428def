"""Rotations named for a conversion between two axis conventions (oxts_ros2_driver's ``q_ned_enu.setRPY(180.0 *
NAV_CONST::DEG2RADS, 0, -90.0 * NAV_CONST::DEG2RADS)``: a yaw sign slip), and unit factors known by their name."""

from __future__ import annotations

import math

from physframe_ros.core.findings import Location
from physframe_ros.core.rotations import ALL_ROTATIONS, OrthoRotation
from physframe_ros.scan.code import analyze_cpp, analyze_python
from physframe_ros.scan.code.conversions import conversion_finding, conversion_pair
from physframe_ros.scan.code.values import named_number

OXTS = """\
#include <tf2/LinearMath/Quaternion.h>
void OxtsDriver::wrap_imu(const NComRxC *nrx, sensor_msgs::msg::Imu &msg)
{
  // NED to ENU rotation
  auto q_ned_enu = tf2::Quaternion();
  q_ned_enu.setRPY(180.0*NAV_CONST::DEG2RADS,0,-90.0*NAV_CONST::DEG2RADS);
  imu_o = q_vat * veh_o * q_ned_enu;
}
"""


def test_names_give_the_two_conventions() -> None:
    assert conversion_pair("q_ned_enu") == frozenset({"ned", "enu"})
    assert conversion_pair("nedToEnu") == frozenset({"ned", "enu"})
    assert conversion_pair("NED2ENU") == frozenset({"ned", "enu"})
    assert conversion_pair("R_frd_flu") == frozenset({"frd", "flu"})
    assert conversion_pair("q_rot") is None
    assert conversion_pair("tuned_enum") is None  # words, not substrings
    assert conversion_pair("q_ned") is None


def test_only_the_rotation_between_the_conventions_passes_of_the_24() -> None:
    loc = Location("a.cpp", 1)
    expected = {
        "q_ned_enu": {OrthoRotation.from_rpy(math.pi, 0.0, math.pi / 2)},
        "q_frd_to_flu": {OrthoRotation.from_rpy(math.pi, 0.0, 0.0)},
        "q_ned_nwu": {OrthoRotation.from_rpy(math.pi, 0.0, 0.0)},
        "enu_from_nwu": {OrthoRotation.from_rpy(0.0, 0.0, math.pi / 2), OrthoRotation.from_rpy(0.0, 0.0, -math.pi / 2)},
    }
    for name, good in expected.items():
        for rot in ALL_ROTATIONS:
            assert (conversion_finding(name, rot, loc) is None) == (rot in good), (name, rot)
    assert all(conversion_finding("q_ned_flu", rot, loc) is None for rot in ALL_ROTATIONS)  # a world and a body frame: no constant


def test_oxts_yaw_sign_slip_and_its_fix() -> None:
    (f,) = analyze_cpp(OXTS, "src/ros_ncom_wrapper.cpp").findings
    assert f.code == "INCORRECT_TRANSFORM" and f.location == Location("src/ros_ncom_wrapper.cpp", 6) and f.severity.value == "warning"
    assert "NED <-> ENU swaps x and y and negates z" in f.message
    assert analyze_cpp(OXTS.replace(",-90.0*", ",90.0*"), "src/ros_ncom_wrapper.cpp").findings == []
    py = "from tf.transformations import quaternion_from_euler\nimport math\nQ_NED_ENU = quaternion_from_euler(math.pi, 0, -math.pi / 2)\n"
    assert [x.location.line for x in analyze_python(py, "n.py").findings if x.location] == [3]
    assert analyze_python(py.replace("-math.pi / 2", "math.pi / 2"), "n.py").findings == []


def test_unit_factors_known_by_name() -> None:
    assert named_number("NAV_CONST::DEG2RADS") == math.pi / 180
    assert named_number("kDegToRad") == math.pi / 180
    assert named_number("DEG_TO_RAD") == math.pi / 180
    assert named_number("RAD2DEG") == 180 / math.pi
    assert named_number("M_PI") == math.pi
    assert named_number("degree") is None


UBLOX = """\
void UbloxFirmware8::callbackNavRelPosNed(const ublox_msgs::NavRELPOSNED &m)
{
  imu_.header.frame_id = frame_id;
  double heading = static_cast<double>(m.relPosHeading) * 1e-5 / 180.0 * M_PI;
  tf::Quaternion orientation;
  orientation.setRPY(0, 0, heading);
  imu_.orientation.x = orientation[0];
  imu_pub.publish(imu_);
}
"""


def test_a_compass_heading_given_as_the_yaw() -> None:
    """u-blox's navheading: relPosHeading (clockwise from north) made the Imu's yaw as it was, then as
    -heading - pi/2 (a half turn off); pi/2 - heading is the yaw. The heading of the robot's own state is no input."""
    def found(cpp: str) -> list[tuple[int | None, str]]:
        return [(f.location.line if f.location else None, f.message.split(",")[0]) for f in analyze_cpp(cpp, "src/node.cpp").findings
                if "compass heading" in f.message]

    assert found(UBLOX) == [(6, "the yaw given here is the heading itself")]
    off = UBLOX.replace("double heading = static_cast", "double heading = - (static_cast").replace("* M_PI;", "* M_PI) - M_PI_2;")
    assert found(off) == [(6, "the yaw given here is -heading - pi/2")]
    fixed = UBLOX.replace("orientation.setRPY(0, 0, heading);", "orientation.setRPY(0, 0, M_PI_2 - heading);")
    assert found(fixed) == []
    assert found(UBLOX.replace("m.relPosHeading", "heading_")) == []
    # a NED attitude built to be converted later (microstrain's ned_to_vehicle quaternion, oxts' roll, pitch, heading)
    assert found(UBLOX.replace("tf::Quaternion orientation;\n  orientation.setRPY", "tf::Quaternion ned_to_vehicle;\n  ned_to_vehicle.setRPY")) == []
    assert found(UBLOX.replace("setRPY(0, 0, heading)", "setRPY(m.roll, m.pitch, heading)")) == []
    py = ("from tf.transformations import quaternion_from_euler\nimport math\n\ndef cb(self, msg):\n"
          "    q = quaternion_from_euler(0, 0, math.radians(msg.heading))\n    self.pub.publish(q)\n")
    assert [f.location.line for f in analyze_python(py, "gps.py").findings if "compass heading" in f.message and f.location] == [5]
    fixed_py = py.replace("math.radians(msg.heading)", "math.pi / 2 - math.radians(msg.heading)")
    assert [f for f in analyze_python(fixed_py, "gps.py").findings if "compass heading" in f.message] == []
