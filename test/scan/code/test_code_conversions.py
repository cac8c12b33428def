"""Rotations named for a conversion between two axis conventions (oxts_ros2_driver's ``q_ned_enu.setRPY(180.0 *
NAV_CONST::DEG2RADS, 0, -90.0 * NAV_CONST::DEG2RADS)``: a yaw sign slip), and unit factors known by their name."""

from __future__ import annotations

import math
import random

import transforms3d.quaternions as t3d

from physframe_ros.core.findings import Finding, Location
from physframe_ros.core.rotations import ALL_ROTATIONS, OrthoRotation
from physframe_ros.scan.code import analyze_cpp, analyze_python
from physframe_ros.scan.code.conversions import _rearrangements, conversion_finding, conversion_pair, converts_to, rearranged_finding
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


# novatel_oem7_driver's ins_handler.cpp (before its ENU fix): the INS attitude with the azimuth (clockwise from north)
# negated as the yaw, written straight into the Imu; oxts' driver builds the same NED attitude and converts it first
NOVATEL = """\
void INSHandler::publishImuMsg(sensor_msgs::Imu::Ptr imu)
{
  if (inspva_)
  {
    tf2::Quaternion tf_orientation;
    tf_orientation.setRPY(
                       degreesToRadians(inspva_->roll),
                      -degreesToRadians(inspva_->pitch),
                      -degreesToRadians(inspva_->azimuth));
    imu->orientation = tf2::toMsg(tf_orientation);
  }
  imu_pub_.publish(imu);
}
"""

OXTS_CONVERTED = """\
void RosNComWrapper::wrap_imu(const NComRxC *nrx)
{
  auto veh_o = tf2::Quaternion();
  veh_o.setRPY(DEG2RADS * nrx->mRoll, DEG2RADS * nrx->mPitch, DEG2RADS * nrx->mHeading);
  auto q_ned_enu = tf2::Quaternion();
  q_ned_enu.setRPY(M_PI, 0, M_PI / 2);
  auto imu_o = q_ned_enu * veh_o;
  msg.orientation = tf2::toMsg(imu_o);
  pub.publish(msg);
}
"""

APPLANIX = """\
import PyKDL
from math import radians as RAD
from geometry_msgs.msg import Quaternion


class ApplanixPublisher(object):
    def navigation_handler(self, data):
        orient = PyKDL.Rotation.RPY(RAD(data.roll), RAD(data.pitch), RAD(data.heading)).GetQuaternion()
        odom = Odometry()
        odom.pose.pose.orientation = Quaternion(*orient)
        self.pub_odom.publish(odom)
"""


def test_a_full_ned_attitude_written_out_as_it_is() -> None:
    """Roll, pitch and a compass heading (an INS's azimuth too) from the data, written into a message's orientation
    with nothing converting them: a NED attitude published as an ENU one. Converted first (a product with a NED ->
    ENU rotation, oxts), or with the yaw pi/2 - heading, it is not reported."""
    def found(findings: list[Finding]) -> list[tuple[int | None, str]]:
        return [(f.location.line if f.location else None, f.message.split(",")[0]) for f in findings if "compass heading" in f.message]

    assert found(analyze_cpp(NOVATEL, "src/ins_handler.cpp").findings) == [(6, "the yaw given here is -heading")]
    assert found(analyze_cpp(NOVATEL.replace("-degreesToRadians(inspva_->azimuth)", "M_PI_2 - degreesToRadians(inspva_->azimuth)"),
                             "src/ins_handler.cpp").findings) == []
    assert found(analyze_cpp(OXTS_CONVERTED, "src/ros_ncom_wrapper.cpp").findings) == []
    assert found(analyze_python(APPLANIX, "publisher.py").findings) == [(8, "the yaw given here is the heading itself")]
    fixed = APPLANIX.replace("RAD(data.heading)", "RAD(90 - data.heading)")
    assert found(analyze_python(fixed, "publisher.py").findings) == []


# sbg_ros2_driver before PR #16: the ENU branch negates y and z (an NWU attitude); inertial-sense-ros: x and y swapped
# with w written before the branch (a right-forward-up body); the um7 driver's `tf_ned_to_enu` likewise
SBG = """\
const sbg_driver::msg::SbgEkfQuat MessageWrapper::createSbgEkfQuatMessage(const SbgLogEkfQuatData& ref_log_ekf_quat) const
{
  sbg_driver::msg::SbgEkfQuat  ekf_quat_message;
  if (m_use_enu_)
  {
    ekf_quat_message.quaternion.x = ref_log_ekf_quat.quaternion[1];
    ekf_quat_message.quaternion.y = -ref_log_ekf_quat.quaternion[2];
    ekf_quat_message.quaternion.z = -ref_log_ekf_quat.quaternion[3];
    ekf_quat_message.quaternion.w = ref_log_ekf_quat.quaternion[0];
  }
  else
  {
    ekf_quat_message.quaternion.x = ref_log_ekf_quat.quaternion[1];
    ekf_quat_message.quaternion.y = ref_log_ekf_quat.quaternion[2];
    ekf_quat_message.quaternion.z = ref_log_ekf_quat.quaternion[3];
    ekf_quat_message.quaternion.w = ref_log_ekf_quat.quaternion[0];
  }
  return ekf_quat_message;
}
"""
INERTIAL_SENSE = """\
void InertialSenseROS::INS2_callback(const ins_2_t* const msg)
{
  odom_msg.pose.pose.orientation.w = msg->qn2b[0];
  if (LTCF == NED)
  {
    odom_msg.pose.pose.orientation.x = msg->qn2b[1];
    odom_msg.pose.pose.orientation.y = msg->qn2b[2];
    odom_msg.pose.pose.orientation.z = msg->qn2b[3];
  }
  else if (LTCF == ENU)
  {
    odom_msg.pose.pose.orientation.x = msg->qn2b[2];
    odom_msg.pose.pose.orientation.y = msg->qn2b[1];
    odom_msg.pose.pose.orientation.z = -msg->qn2b[3];
  }
  odom_pub_.publish(odom_msg);
}
"""
UM7 = """\
from sensor_msgs.msg import Imu
def publish_msgs(self, r):
    imu_msg = Imu()
    imu_msg.header.frame_id = "imu_link"
    if self.tf_ned_to_enu:
        imu_msg.orientation.x = r.quat.get_scaled(2)
        imu_msg.orientation.y = r.quat.get_scaled(1)
        imu_msg.orientation.z = -r.quat.get_scaled(3)
        imu_msg.orientation.w = r.quat.get_scaled(0)
    self.imu_pub.publish(imu_msg)
"""


def _rearranged(findings: list[Finding]) -> list[tuple[int | None, str]]:
    return [(f.location.line if f.location else None, f.message) for f in findings if "rearranges the components" in f.message]


def test_a_ned_quaternion_rearranged_into_an_enu_branch() -> None:
    ((line, message),) = _rearranged(analyze_cpp(SBG, "src/message_wrapper.cpp").findings)
    assert line == 6 and "under `m_use_enu_`" in message and "body axes FLU in a world of axes NWU" in message
    ((line, message),) = _rearranged(analyze_cpp(INERTIAL_SENSE, "src/inertial_sense_ros.cpp").findings)
    assert line == 12 and "w = msg->qn2b[0]" in message and "body axes RFU in a world of axes ENU" in message
    ((line, message),) = _rearranged(analyze_python(UM7, "um7/main.py").findings)
    assert line == 6 and "body axes RFU" in message


def test_the_other_branches_and_real_conversions_pass() -> None:
    assert _rearranged(analyze_cpp(SBG.replace("m_use_enu_", "!m_use_enu_"), "a.cpp").findings) == []
    # converting ENU into NED is the same half turn about the diagonal: a rearrangement cannot do it either
    ((_, message),) = _rearranged(analyze_cpp(SBG.replace("m_use_enu_", "m_use_ned_"), "a.cpp").findings)
    assert "ENU attitude of an FLU body" in message and "body FRD in world NED" in message
    assert _rearranged(analyze_python(UM7.replace("tf_ned_to_enu", "use_raw"), "a.py").findings) == []
    identity = UM7.replace("get_scaled(2)", "get_scaled(1)", 1).replace("y = r.quat.get_scaled(1)", "y = r.quat.get_scaled(2)")
    assert _rearranged(analyze_python(identity.replace("-r.quat", "r.quat"), "a.py").findings) == []
    # the sbg fix: the components kept, then turned by a quaternion (no rearrangement left to judge)
    fixed = SBG.replace("ekf_quat_message.quaternion.x = ref_log_ekf_quat.quaternion[1];\n    ekf_quat_message.quaternion.y = -",
                        "ekf_quat_message.quaternion.x = q_enu.x();\n    ekf_quat_message.quaternion.y = -", 1)
    assert _rearranged(analyze_cpp(fixed, "a.cpp").findings) == []
    # a branch that leaves a slot is judged with what is written before any branch, never with a sibling branch's write
    w_line = "odom_msg.pose.pose.orientation.w = msg->qn2b[0];\n"
    z_line = "    odom_msg.pose.pose.orientation.z = msg->qn2b[3];\n"
    sibling = INERTIAL_SENSE.replace("  " + w_line, "").replace(z_line, z_line + "    " + w_line)
    assert sibling.count("orientation.w") == 1 and _rearranged(analyze_cpp(sibling, "a.cpp").findings) == []


def test_the_conditions_that_name_a_conversion() -> None:
    assert converts_to("m_use_enu_") == "enu" and converts_to("LTCF == ENU") == "enu" and converts_to("tf_ned_to_enu") == "enu"
    assert converts_to("self.frame == 'ned'") == "ned" and converts_to("use_enu_to_ned") == "ned"
    assert converts_to("!use_enu") is None and converts_to("not self.enu") is None and converts_to("frame != ENU") is None
    assert converts_to("tuned_enum") is None and converts_to("use_raw") is None


def test_no_rearrangement_turns_a_ned_frd_attitude_into_enu_flu() -> None:
    # every rearrangement of components is a * q * b for two of the 24 rotations (checked against transforms3d's
    # product on random quaternions); none is NED -> ENU with FRD -> FLU, whose world turn has sqrt(2)/2 components
    table = _rearrangements()
    assert len(table) == 96  # the signed permutations in SO(4), up to the sign of q
    rng = random.Random(7)
    for key, (a, b) in table.items():
        q = [rng.uniform(-1, 1) for _ in range(4)]  # x, y, z, w
        rearranged = {slot: sign * q["xyzw".index(src)] for slot, (src, sign) in zip("xyzw", key)}
        qa, qb = a.quaternion(), b.quaternion()
        product = t3d.qmult(t3d.qmult([qa[3], *qa[:3]], [q[3], *q[:3]]), [qb[3], *qb[:3]])  # w first
        expected = [product[1], product[2], product[3], product[0]]
        sign = 1 if abs(expected[3] - rearranged["w"]) < 1e-9 else -1
        assert all(abs(sign * expected[i] - rearranged[s]) < 1e-9 for i, s in enumerate("xyzw")), key
    ned_to_enu = OrthoRotation.from_rpy(math.pi, 0.0, math.pi / 2)
    frd_to_flu = OrthoRotation.from_rpy(math.pi, 0.0, 0.0)
    assert all((a, b) != (ned_to_enu, frd_to_flu) for a, b in table.values())
    loc = Location("a.cpp", 1).__class__
    for key in table:
        slots = {slot: (("-" if sign < 0 else "") + f"q.{src}()", 1) for slot, (src, sign) in zip("xyzw", key)}
        f = rearranged_finding("o.orientation", "use_enu", slots, 1, lambda n: loc("a.cpp", n))
        assert (f is None) == (key == (("x", 1), ("y", 1), ("z", 1), ("w", 1))), key


def test_utm_northing_and_easting_into_x_and_y() -> None:
    """novatel_oem7_driver's bestpos_handler.cpp (before PR 18): gps_common::LLtoUTM(lat, lon, northing, easting, zone)
    filled the Odometry's x with the northing; the fixed call hands pt.y, pt.x. UTMtoLL reads them in the same order."""
    cpp = """\
void UTMPointFromGnss(geometry_msgs::Point& pt, double lat, double lon, double hgt)
{
  pt.z = hgt;
  std::string zone;
  gps_common::LLtoUTM(lat, lon, pt.x, pt.y, zone);
}
void fixed(geometry_msgs::Point& pt, double lat, double lon)
{
  std::string zone;
  gps_common::LLtoUTM(lat, lon, pt.y, pt.x, zone);
  UTMtoLL(odom->pose.pose.position.y, odom->pose.pose.position.x, zone, lat, lon);
  UTMtoLL(odom->pose.pose.position.x, odom->pose.pose.position.y, zone, lat, lon);
}
"""
    found = [(f.location.line if f.location else None, f.message.split(":")[0]) for f in analyze_cpp(cpp, "src/bestpos_handler.cpp").findings]
    assert found == [(5, "LLtoUTM's northing and easting slots get 'pt.x' and 'pt.y'"),
                     (12, "UTMtoLL's northing and easting slots get 'odom->pose.pose.position.x' and 'odom->pose.pose.position.y'")]
