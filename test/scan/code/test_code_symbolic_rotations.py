"""Rotation conventions on symbolic values, from the known bugs' idioms: turtle_tf's
``setRPY(msg->theta, 0, 0)``, navigation's ``setEuler(angle, 0, 0)``, the Azure Kinect driver's
``setRPY(yaw, roll, pitch)``, xsens' ``orientation.x = d['Q0']``, myahrs' parent frame passed as the
child, gl_depth_sim's ROS 1 TransformStamped broadcast with no rotation."""

from __future__ import annotations

from physframe_ros.scan.code import analyze_cpp, analyze_python

TURTLE = """\
void poseCallback(const turtlesim::PoseConstPtr& msg){
  static tf::TransformBroadcaster br;
  tf::Transform transform;
  transform.setOrigin( tf::Vector3(msg->x, msg->y, 0.0) );
  tf::Quaternion q;
  q.setRPY(msg->theta, 0, 0);
  transform.setRotation(q);
  br.sendTransform(tf::StampedTransform(transform, ros::Time::now(), "world", turtle_name));
}
void set_angle(geometry_msgs::PoseStamped* pose, double angle)
{
  tf2::Quaternion q;
  q.setEuler( angle, 0, 0 );
  tf2::convert(q, pose->pose.orientation);
}
void imu(tf2::Matrix3x3 imu_matrix)
{
  double yaw, pitch, roll;
  imu_matrix.getEulerYPR(yaw, pitch, roll);
  tf2::Quaternion imu_rotation;
  imu_rotation.setRPY(
      yaw + angles::from_degrees(90),
      roll + angles::from_degrees(-84),
      pitch);
}
void fine(double roll, double pitch, double yaw, double theta, double angle)
{
  tf2::Quaternion q;
  q.setRPY(roll, pitch, yaw);
  q.setRPY(0, 0, theta);
  q.setRPY(angle, 0, 0);
  q.setRPY(theta, 0.1, 0);
  q.setEuler(0, 0, 0);
}
"""

SWAPPED = """\
void MyAhrs::publish()
{
  broadcaster_.sendTransform(tf::StampedTransform(tf::Transform(tf::createQuaternionFromRPY(roll, pitch, yaw),
                                                                tf::Vector3(0.0, 0.0, 0.0)),
                                                  ros::Time::now(), frame_id_, parent_frame_id_));
  broadcaster_.sendTransform(tf::StampedTransform(tf::Transform(q, v), ros::Time::now(), parent_frame_id_, frame_id_));
}
void example(tf2_ros::TransformBroadcaster& broadcaster, std::string base_frame, std::string camera_frame)
{
  geometry_msgs::TransformStamped transform;
  transform.header.frame_id = base_frame;
  transform.header.stamp = ros::Time::now();
  transform.child_frame_id = camera_frame;
  broadcaster.sendTransform(transform);
  geometry_msgs::msg::TransformStamped ros2;
  ros2.header.frame_id = base_frame;
  ros2.child_frame_id = camera_frame;
  broadcaster.sendTransform(ros2);
  geometry_msgs::TransformStamped set;
  set.header.frame_id = base_frame;
  set.child_frame_id = camera_frame;
  set.transform.rotation.w = 1.0;
  broadcaster.sendTransform(set);
  tf2::Transform unknown;
  geometry_msgs::TransformStamped filled;
  filled.transform = tf2::toMsg(unknown);
  filled.header.frame_id = base_frame;
  filled.child_frame_id = camera_frame;
  broadcaster.sendTransform(filled);
}
tf::StampedTransform stamped_transform_inverse(tf::StampedTransform stf) {
  return tf::StampedTransform(stf.inverse(), stf.stamp_, stf.child_frame_id_, stf.frame_id_);
}
"""

XSENS = """\
def spin_once(imu_msg, orient_data, q):
    if 'Q0' in orient_data:
        imu_msg.orientation.x = orient_data['Q0']
        imu_msg.orientation.y = orient_data['Q1']
        imu_msg.orientation.z = orient_data['Q2']
        imu_msg.orientation.w = orient_data['Q3']
    imu_msg.orientation.x = q[0]
    imu_msg.orientation.w = orient_data['Q0']
    imu_msg.orientation.x = q0  # q0..q3 is x, y, z, w in much code: a plain name says nothing
    t = tf.transformations.quaternion_from_euler(heading, 0, 0)
"""


def _found(facts: object, code: str) -> list[int | None]:
    return sorted(f.location.line for f in facts.findings if f.code == code and f.location)  # type: ignore[attr-defined]


def test_heading_in_roll_slot_seteuler_and_permuted_names() -> None:
    facts = analyze_cpp(TURTLE, "turtle_tf_broadcaster.cpp")
    assert _found(facts, "INCORRECT_TRANSFORM") == [6, 13, 21]
    assert "theta" in facts.findings[0].message and "roll slot" in facts.findings[0].message
    # names, not values: a remap of axes can be deliberate, so these are warnings
    assert {f.level.value for f in facts.findings} == {"warning"}


def test_parent_passed_as_child_and_ros1_rotation_never_set() -> None:
    facts = analyze_cpp(SWAPPED, "myahrs_driver.cpp")
    assert _found(facts, "REVERSED_NAME") == [3]
    # only the ROS 1 message whose rotation is never set: a rotation from an unknown tf2::Transform is written;
    # an inverse reads both frames off one transform and swaps them on purpose
    assert _found(facts, "INVALID_TRANSFORM") == [14]


def test_scalar_first_component_into_x_in_python() -> None:
    facts = analyze_python(XSENS, "mtnode.py")
    assert _found(facts, "INCORRECT_TRANSFORM") == [3, 10]


# ardrone_autonomy's IMU (issue #113): the angles are named for their axes, rotX / rotY / rotZ.
ARDRONE = """\
void publish_imu(const LegacyNavdata& legacynavdata_msg)
{
    tf::Quaternion q;
    q.setRPY(legacynavdata_msg.rotZ * _DEG2RAD, legacynavdata_msg.rotY * _DEG2RAD, legacynavdata_msg.rotX * _DEG2RAD);
    tf::quaternionTFToMsg(q, imu_msg.orientation);
}
"""

# vins_fusion_ros2's visualization.cpp: every component copied from x(); spot_ros' ros_helpers.py: x, y, z
# copied from the body rotation and w never written.
VINS = """\
nav_msgs::msg::Odometry toMsg(const OdomData & msg)
{
  nav_msgs::msg::Odometry odometry;
  odometry.pose.pose.orientation.x = msg.orientation.x();
  odometry.pose.pose.orientation.y = msg.orientation.x();
  odometry.pose.pose.orientation.z = msg.orientation.x();
  odometry.pose.pose.orientation.w = msg.orientation.x();
  return odometry;
}
void ned_to_enu(geometry_msgs::Quaternion & out, const Eigen::Quaterniond & q)
{
  out.x = q.y();
  out.orientation.x = q.y();
  out.orientation.y = q.x();
  out.orientation.z = -q.z();
  out.orientation.w = q.w();
}
"""

SPOT = """\
def GetOdomFromState(state):
    pose_odom_msg = PoseWithCovariance()
    tform_body = get_odom_tform_body(state)
    pose_odom_msg.pose.orientation.x = tform_body.rotation.x
    pose_odom_msg.pose.orientation.y = tform_body.rotation.y
    pose_odom_msg.pose.orientation.z = tform_body.rotation.z
    return pose_odom_msg


def fixed(state):
    pose = PoseWithCovariance()
    tform_body = get_odom_tform_body(state)
    pose.pose.orientation.x = tform_body.rotation.x
    pose.pose.orientation.y = tform_body.rotation.y
    pose.pose.orientation.z = tform_body.rotation.z
    pose.pose.orientation.w = tform_body.rotation.w
    return pose
"""


def test_angles_named_for_their_axis_in_the_wrong_euler_slot() -> None:
    facts = analyze_cpp(ARDRONE, "ardrone_driver.cpp")
    assert _found(facts, "INCORRECT_TRANSFORM") == [4]
    assert "'legacynavdata_msg.rotZ * _DEG2RAD' (a yaw) is in the roll slot" in facts.findings[0].message


def test_kdl_rpy_takes_roll_pitch_yaw() -> None:
    """applanix_driver's publisher.py: PyKDL.Rotation.RPY(pitch, roll, 90 - heading), roll and pitch swapped as a
    'NED to ENU conversion'; KDL's Rotation::RPY in C++ takes them in the same order."""
    py = ("import PyKDL\nfrom math import radians as RAD\n\n\ndef navigation_handler(self, data):\n"
          "    orient = PyKDL.Rotation.RPY(RAD(data.pitch), RAD(data.roll), RAD(90 - data.heading)).GetQuaternion()\n"
          "    return orient\n")
    facts = analyze_python(py, "publisher.py")
    assert _found(facts, "INCORRECT_TRANSFORM") == [6]
    assert "'RAD(data.pitch)' (a pitch) is in the roll slot" in facts.findings[0].message
    cpp = ("void f(const Att& a) {\n  KDL::Rotation r = KDL::Rotation::RPY(a.roll, a.pitch, a.yaw);\n"
           "  tf::Quaternion q;\n  q.setRPY(a.roll, a.pitch, a.yaw);\n}\n")
    assert _found(analyze_cpp(cpp, "kdl.cpp"), "INCORRECT_TRANSFORM") == []


def test_one_component_copied_into_several_is_reported_once_and_a_deliberate_swap_is_not() -> None:
    facts = analyze_cpp(VINS, "visualization.cpp")
    # a NED -> ENU swap (x <- y, y <- x, z <- -z) takes each component once: not reported
    assert _found(facts, "INVALID_TRANSFORM") == [5] and len(facts.findings) == 1
    assert "msg.orientation.x() is copied into x, y, z, w" in facts.findings[0].message


# jsk_topic_tools' pose_stamped_publisher before PR #1650: q[2] went into x again, z was never written
JSK = """\
def main():
    pose = PoseStamped()
    q = eulerToQuaternion(roll, pitch, yaw)
    pose.pose.orientation.x = q[0]
    pose.pose.orientation.y = q[1]
    pose.pose.orientation.x = q[2]
    pose.pose.orientation.w = q[3]
    pub.publish(pose)
    fixed = PoseStamped()
    fixed.pose.orientation.x = 0.0
    fixed.pose.orientation.x = q[0]
    fixed.pose.orientation.y = q[1]
    fixed.pose.orientation.w = q[3]
    pub.publish(fixed)
"""


def test_one_slot_written_from_two_components_and_another_never() -> None:
    # a constant overwritten by a component is no copy-paste slip between two components
    facts = analyze_python(JSK, "pose_stamped_publisher.py")
    assert _found(facts, "INCORRECT_TRANSFORM") == [6]
    (slip,) = [f for f in facts.findings if f.code == "INCORRECT_TRANSFORM"]
    assert "written twice, from q[0] (line 4) and then q[2] (line 6), and z never" in slip.message


def test_the_write_that_breaks_the_component_order_is_the_one_reported() -> None:
    """DJI's Guidance SDK node: w = q[0] shows the w-first order, so z = q[1] (meant for x) is the slip, not the
    later z = q[3]."""
    text = """\
void imu_callback(imu* imu_data) {
  geometry_msgs::TransformStamped g_imu;
  g_imu.header.frame_id = "guidance";
  g_imu.transform.rotation.w = imu_data->q[0];
  g_imu.transform.rotation.z = imu_data->q[1];
  g_imu.transform.rotation.y = imu_data->q[2];
  g_imu.transform.rotation.z = imu_data->q[3];
  imu_pub.publish(g_imu);
}
"""
    assert _found(analyze_cpp(text, "src/GuidanceNode.cpp"), "INCORRECT_TRANSFORM") == [5]


def test_vector_part_copied_with_w_never_written() -> None:
    facts = analyze_python(SPOT, "ros_helpers.py")
    assert _found(facts, "INVALID_TRANSFORM") == [6]
    assert {f.level.value for f in facts.findings} == {"warning"}


# imu_tools' imu_filter_madgwick before c23657f: the orientation is broadcast with the IMU's frame as the
# parent of the fixed frame ("odom" by default).
MADGWICK = """\
void ImuFilter::publishTransform(const ImuMsg::ConstPtr& imu_msg_raw)
{
  tf::Transform transform;
  if (reverse_tf_)
  {
    tf_broadcaster_.sendTransform( tf::StampedTransform( transform.inverse(),
                     imu_msg_raw->header.stamp,
                     fixed_frame_,
                     imu_frame_) );
  }
  else {
    tf_broadcaster_.sendTransform( tf::StampedTransform( transform,
                     imu_msg_raw->header.stamp,
                     imu_frame_,
                     fixed_frame_) );
  }
  tf_broadcaster_.sendTransform(tf::StampedTransform(transform, stamp, "base_link", "odom"));
  // imu_complementary_filter's reverse_tf: the inverse, turned upside down on purpose
  tf_broadcaster_.sendTransform(tf::StampedTransform(transform.inverse(), stamp, imu_msg_raw->header.frame_id, fixed_frame_));
}
"""


def test_a_fixed_frame_named_as_the_child_of_a_robot_frame() -> None:
    facts = analyze_cpp(MADGWICK, "imu_filter.cpp")
    assert _found(facts, "REVERSED_NAME") == [12]
    assert "'fixed_frame_' is passed as the child frame of 'imu_frame_'" in facts.findings[0].message
    # written-out names are the tree's to judge (REP-105 order), not the names'
    assert _found(facts, "INCORRECT_FRAME_ORDER_IN_TREE") == []


def test_odom_named_as_the_child_of_the_base_breaks_rep105_order() -> None:
    # mrpt_navigation's rawlog_play_node: the odometry broadcast with its frames' slots swapped
    text = """\
bool RawlogPlayNode::nextEntry() {
    mrpt_bridge::convert(robotPose, transform);
    tf_broadcaster_.sendTransform(tf::StampedTransform(transform, msg_odom_.header.stamp, base_frame_, odom_frame_));
    return false;
}
"""
    facts = analyze_cpp(text, "rawlog_play_node.cpp")
    assert [(f.code, f.level.name, f.location.line if f.location else None) for f in facts.findings] == [
        ("INCORRECT_FRAME_ORDER_IN_TREE", "WARNING", 3)
    ]


# slaghuis/drone_mavsdk's drone_node.cpp: a `t` in an odometry callback lambda copies q.x into w, and a
# second `t` later in the same function is the identity; one name, two messages.
MAVSDK = """\
void DroneNode::init()
{
  _telemetry->subscribe_odometry([this](mavsdk::Telemetry::Odometry odometry) {
      geometry_msgs::msg::TransformStamped t;
      t.header.frame_id = "odom";
      t.child_frame_id = "base_link";
      t.transform.rotation.x = odometry.q.x;
      t.transform.rotation.y = odometry.q.y;
      t.transform.rotation.z = odometry.q.z;
      t.transform.rotation.w = odometry.q.x;
      tf_broadcaster_->sendTransform(t);
  });
  geometry_msgs::msg::TransformStamped t;
  t.transform.rotation.x = 0;
  t.transform.rotation.y = 0;
  t.transform.rotation.z = 0;
  t.transform.rotation.w = 1;
}
"""


def test_two_messages_under_one_name_in_one_function_are_two_quaternions() -> None:
    facts = analyze_cpp(MAVSDK, "src/drone_node.cpp")
    assert _found(facts, "INVALID_TRANSFORM") == [10]


# RoverRobotics' roverrobotics_ros1 driver before PR #27: a twist-only ROS 1 Odometry whose orientation is
# never assigned goes out as (0, 0, 0, 0).
ROVER = """\
void RobotDriver::publishOdometry(const ros::TimerEvent &event) {
  nav_msgs::Odometry odom_msg;
  odom_msg.header.frame_id = "odom";
  odom_msg.child_frame_id = "base_link";
  odom_msg.twist.twist.linear.x = data.linear_vel;
  robot_odom_publisher_.publish(odom_msg);
}
void fixed(const ros::TimerEvent &event) {
  nav_msgs::Odometry odom_msg;
  odom_msg.header.frame_id = "odom";
  odom_msg.child_frame_id = "base_link";
  odom_msg.pose.pose.orientation.w = 1.0;
  robot_odom_publisher_.publish(odom_msg);
}
void ros2(const rclcpp::TimerBase &event) {
  nav_msgs::msg::Odometry odom_msg;
  odom_msg.header.frame_id = "odom";
  odom_msg.child_frame_id = "base_link";
  robot_odom_publisher_->publish(odom_msg);
}
"""


def test_ros1_odometry_published_with_no_orientation() -> None:
    # ROS 2 messages default to the identity quaternion: only the ROS 1 one is reported
    assert _found(analyze_cpp(ROVER, "src/driver.cpp"), "INVALID_TRANSFORM") == [6]


# webots_ros2's imu_device.py (before PR #215): roll, pitch and yaw written into x, y and z, w never.
WEBOTS = """\
def step(self):
    msg = Imu()
    roll, pitch, yaw = self.inertial_unit.getRollPitchYaw()
    msg.orientation.x = roll
    msg.orientation.y = pitch
    msg.orientation.z = yaw
    self.publisher.publish(msg)


def identity(self):
    msg = Imu()
    msg.orientation.x = 0.0
    msg.orientation.y = 0.0
    msg.orientation.z = 0.0
    self.publisher.publish(msg)
"""


def test_xyz_written_without_w_whatever_their_source() -> None:
    # three constant zeros with the default w are the ROS 2 identity: not reported
    facts = analyze_python(WEBOTS, "imu_device.py")
    assert _found(facts, "INVALID_TRANSFORM") == [6]
    (invalid,) = [f for f in facts.findings if f.code == "INVALID_TRANSFORM"]
    assert "x, y and z are written (roll, pitch, yaw) but w is never set" in invalid.message


# OrbbecSDK_ROS1's setDefaultIMUMessage (before its fix): the "unknown" orientation written as four zeros.
ORBBEC = """\
void OBCameraNode::setDefaultIMUMessage(sensor_msgs::Imu& imu_msg) {
  imu_msg.header.frame_id = "imu_link";
  imu_msg.orientation.x = 0.0;
  imu_msg.orientation.y = 0.0;
  imu_msg.orientation.z = 0.0;
  imu_msg.orientation.w = 0.0;
}
void OBCameraNode::identity(sensor_msgs::Imu& imu_msg) {
  imu_msg.orientation.x = 0.0;
  imu_msg.orientation.y = 0.0;
  imu_msg.orientation.z = 0.7071068;
  imu_msg.orientation.w = 0.7071068f;
}
void InteractiveControl::make(visualization_msgs::InteractiveMarkerControl& control) {
  control.orientation.w = 1;
  control.orientation.x = 1;
  control.orientation.y = 0;
  control.orientation.z = 0;
}
"""


def test_constant_zero_quaternion() -> None:
    # the interactive markers tutorials' (1, 0, 0, 1) is normalised by the server: not reported
    facts = analyze_cpp(ORBBEC, "src/ob_camera_node.cpp")
    assert _found(facts, "INVALID_TRANSFORM") == [6]
    (invalid,) = [f for f in facts.findings if f.code == "INVALID_TRANSFORM"]
    assert "imu_msg.orientation is written as the zero quaternion" in invalid.message
    assert "write the identity (0, 0, 0, 1)" in invalid.message


# osr-rover-code's rover.py (before its fix): a new Odometry's orientation written (0, 0, 1, 1), meant as a yaw;
# a message handed in (not made here), a marker control, a sign flipped in place (lsd_slam's `q.x *= -1`) and a
# unit constant are left alone.
OSR = """\
import rospy
from nav_msgs.msg import Odometry
from visualization_msgs.msg import InteractiveMarkerControl


class Rover(object):
    def __init__(self):
        self.odometry = Odometry()
        self.odometry.header.frame_id = "odom"
        self.odometry.pose.pose.orientation.z = 1.
        self.odometry.pose.pose.orientation.w = 1.
        control = InteractiveMarkerControl()
        control.orientation.w = 1
        control.orientation.x = 1
        ok = Odometry()
        ok.pose.pose.orientation.z = 0.7071068
        ok.pose.pose.orientation.w = 0.7071068

    def fill(self, odom):
        odom.pose.pose.orientation.z = 1.
        odom.pose.pose.orientation.w = 1.
"""

LSD_SLAM = """\
void ROSOutput3DWrapper::publishKeyframe(Frame* kf)
{
  geometry_msgs::PoseStamped pMsg;
  pMsg.pose.orientation.x = camToWorld.so3().unit_quaternion().x();
  pMsg.pose.orientation.y = camToWorld.so3().unit_quaternion().y();
  pMsg.pose.orientation.z = camToWorld.so3().unit_quaternion().z();
  pMsg.pose.orientation.w = camToWorld.so3().unit_quaternion().w();
  if (pMsg.pose.orientation.w < 0)
  {
    pMsg.pose.orientation.x *= -1;
    pMsg.pose.orientation.y *= -1;
    pMsg.pose.orientation.z *= -1;
    pMsg.pose.orientation.w *= -1;
  }
  pMsg.header.frame_id = "world";
  pose_publisher.publish(pMsg);
}
"""


def test_a_new_message_quaternion_of_constants_not_of_unit_length() -> None:
    facts = analyze_python(OSR, "ROS/osr/src/rover.py")
    assert _found(facts, "INVALID_TRANSFORM") == [11]
    assert "orientation of a new Odometry is written as constants (z = 1.0, w = 1.0; the others 0): |q| = 1.41" in facts.findings[0].message
    assert _found(analyze_cpp(LSD_SLAM, "src/ROSOutput3DWrapper.cpp"), "INVALID_TRANSFORM") == []


# flock2's detect_aruco.py (before its fix): Gohlke's transformations module (not tf's copy) returns w-first
# quaternions, written into x, y, z, w in order; tf.transformations' are x, y, z, w and are right.
FLOCK2 = """\
import transformations
import tf.transformations as tft
from transforms3d.euler import euler2quat as quaternion_from_euler
from geometry_msgs.msg import Quaternion, TransformStamped


def matrix_to_tf(T):
    t = transformations.translation_from_matrix(T)
    q = transformations.quaternion_from_matrix(T)
    return t, q


class Node:
    def publish_tf(self, t, q, stamp, child, parent):
        msg = TransformStamped()
        msg.header.frame_id = parent
        msg.child_frame_id = child
        msg.transform.rotation = Quaternion(x=q[0], y=q[1], z=q[2], w=q[3])
        self._tf_pub.publish(msg)

    def detect(self, Tbo, stamp):
        t, q = matrix_to_tf(Tbo)
        self.publish_tf(t, q, stamp, child='base_link', parent='odom')
        r = tft.quaternion_from_matrix(Tbo)
        ok = Quaternion(x=r[0], y=r[1], z=r[2], w=r[3])
        e = quaternion_from_euler(self.roll, self.pitch, self.yaw)
        shifted = Quaternion(x=e[0], y=e[1], z=e[2], w=e[3])
"""


def test_w_first_components_written_into_x_y_z_w_in_order() -> None:
    facts = analyze_python(FLOCK2, "src/detect_aruco.py")
    found = sorted((f.location.line if f.location else 0, f.message) for f in facts.findings if f.code == "INCORRECT_TRANSFORM")
    # transformations' quaternion through the helper, and transforms3d's euler2quat imported under tf's name
    assert [line for line, _ in found] == [18, 27]
    assert "Quaternion(x=q[0], y=q[1], z=q[2], w=q[3]): the x, y, z, w slots take the components (w, x, y, z)" in found[0][1]


# pedsim_ros' poseFrom2DVelocity (before its fix): the model turned upright by a quarter roll, the heading in the
# pitch slot of the package's own rpyToQuaternion(roll, pitch, yaw); beside a small tilt theta may be any angle.
PEDSIM = """\
geometry_msgs::Quaternion poseFrom2DVelocity(const double vx, const double vy) {
  const double theta = std::atan2(vy, vx);
  return rpyToQuaternion(M_PI / 2.0, theta + (M_PI / 2.0), 0.0);
}
geometry_msgs::Quaternion fixed(const double theta) {
  return rpyToQuaternion(M_PI / 2.0, 0.0, theta + (M_PI / 2.0));
}
geometry_msgs::Quaternion tilted(const double theta) {
  return rpyToQuaternion(0.1, theta, 0.0);
}
"""


def test_a_heading_in_the_pitch_slot_of_an_rpy_named_function_beside_an_upright_turn() -> None:
    facts = analyze_cpp(PEDSIM, "pedsim_utils/geometry.cpp")
    assert _found(facts, "INCORRECT_TRANSFORM") == [3]
    assert "'theta + (M_PI / 2.0)' (a yaw) is in the pitch slot" in facts.findings[0].message


PX4_ODOMETRY = """\
#include <px4_msgs/msg/vehicle_odometry.hpp>
void OffboardControl::odometryCallback(const px4_msgs::msg::VehicleOdometry::SharedPtr msg)
{
  nav_msgs::msg::Odometry odom_msg;
  odom_msg.header.frame_id = "odom";
  odom_msg.child_frame_id = "base_link";
  odom_msg.pose.pose.orientation.x = msg->q[0];
  odom_msg.pose.pose.orientation.y = msg->q[1];
  odom_msg.pose.pose.orientation.z = msg->q[2];
  odom_msg.pose.pose.orientation.w = msg->q[3];
  odom_pub_->publish(odom_msg);
}
"""


def test_a_px4_quaternion_is_w_first() -> None:
    """mr-radio-localization's PX4 bridge copied VehicleOdometry.q (w, x, y, z) into x, y, z, w."""
    facts = analyze_cpp(PX4_ODOMETRY, "src/offboard_control.cpp")
    assert _found(facts, "INCORRECT_TRANSFORM") == [7]
    assert "px4_msgs' q" in facts.findings[0].message
    fixed = PX4_ODOMETRY.replace("q[0];\n  odom_msg.pose.pose.orientation.y = msg->q[1]", "q[1];\n  odom_msg.pose.pose.orientation.y = msg->q[2]")
    fixed = fixed.replace("z = msg->q[2];\n  odom_msg.pose.pose.orientation.w = msg->q[3]", "z = msg->q[3];\n  odom_msg.pose.pose.orientation.w = msg->q[0]")
    # the order fixed, the attitude is still PX4's NED one (the fix left that: test_code_known_bug_idioms)
    [left] = [f for f in analyze_cpp(fixed, "src/offboard_control.cpp").findings if f.code == "INCORRECT_TRANSFORM"]
    assert "is NED" in left.message and "w first" in left.message
    # a file with no px4_msgs: q is whatever array it is
    assert _found(analyze_cpp(PX4_ODOMETRY.replace("px4_msgs", "my_msgs"), "src/offboard_control.cpp"), "INCORRECT_TRANSFORM") == []
    python = """\
from px4_msgs.msg import VehicleAttitude
from geometry_msgs.msg import PoseStamped

class Bridge(Node):
    def attitude_cb(self, msg):
        pose = PoseStamped()
        pose.header.frame_id = 'map'
        pose.pose.orientation.x = msg.q[0]
        pose.pose.orientation.y = msg.q[1]
        pose.pose.orientation.z = msg.q[2]
        pose.pose.orientation.w = msg.q[3]
        self.pub.publish(pose)
"""
    assert _found(analyze_python(python, "bridge.py"), "INCORRECT_TRANSFORM") == [8]


IXBLUE = """\
sensor_msgs::ImuPtr ROSPublisher::toImuMsg(const Data::BinaryNav& navData)
{
    sensor_msgs::ImuPtr res = boost::make_shared<sensor_msgs::Imu>();
    res->orientation.x = navData.attitudeQuaternion.get().q0;
    res->orientation.y = navData.attitudeQuaternion.get().q1;
    res->orientation.z = navData.attitudeQuaternion.get().q2;
    res->orientation.w = navData.attitudeQuaternion.get().q3;
    return res;
}
void ok(const Attitude& att, const mavlink_attitude_quaternion_t& m, geometry_msgs::msg::Pose& p, geometry_msgs::msg::Pose& r)
{
    p.orientation.w = att.q0;
    p.orientation.x = att.q1;
    p.orientation.y = att.q2;
    p.orientation.z = att.q3;
    r.orientation.x = m.q2;
    r.orientation.y = m.q3;
    r.orientation.z = m.q4;
    r.orientation.w = m.q1;
}
void own(geometry_msgs::Pose& p)
{
    p.orientation.x = q0;  // the file's own variables: q0 may hold x (AutoNavQuad's q0 = imu->orientation.x)
    p.orientation.y = q1;
    p.orientation.z = q2;
    p.orientation.w = q3;
}
"""

MAVLINK_PY = """\
def on_attitude(self, m):
    msg = Imu()
    msg.orientation.x = m.q1
    msg.orientation.y = m.q2
    msg.orientation.z = m.q3
    msg.orientation.w = m.q4
    self.pub.publish(msg)
"""


def test_a_quaternion_of_numbered_fields_is_scalar_first() -> None:
    """ixblue_ins_stdbin_driver: the INS attitude's fields q0..q3 are q0 + q1 i + q2 j + q3 k, copied into x, y, z, w
    in that order; MAVLink's q1..q4 likewise put the scalar first. Copied with the scalar into w, nothing is reported."""
    facts = analyze_cpp(IXBLUE, "ros_publisher.cpp")
    (found,) = [f for f in facts.findings if f.code == "INCORRECT_TRANSFORM"]
    assert found.location is not None and found.location.line == 4
    assert "q0 is the scalar part" in found.message and found.severity is not None and found.severity.value == "warning"
    (py,) = [f for f in analyze_python(MAVLINK_PY, "mavlink_bridge.py").findings if f.code == "INCORRECT_TRANSFORM"]
    assert py.location is not None and py.location.line == 3 and "q1 is the scalar part" in py.message
