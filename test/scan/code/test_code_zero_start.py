"""A rotation kept in the node's members that starts as (0, 0, 0, 0) and is broadcast before the first message fills
it: rbcar_sim's odometry (its orientation members zeroed in the constructor, filled by the IMU callback) and
PalouseRobosub's ``self.quaternion = Quaternion()`` (a ROS 1 message: every field 0)."""

from __future__ import annotations

from physframe_ros.scan.code import analyze_cpp, analyze_python

RBCAR = """\
#include <ros/ros.h>
#include <tf/transform_broadcaster.h>
#include <sensor_msgs/Imu.h>
class RbcarControllerClass {
public:
  RbcarControllerClass(ros::NodeHandle h) {
    orientation_x_ = 0.0; orientation_y_ = 0.0; orientation_z_ = 0.0; orientation_w_ = 0.0;
    imu_sub_ = h.subscribe("/imu_data", 1, &RbcarControllerClass::imuCallback, this);
  }
  void PublishOdometry() {
    geometry_msgs::TransformStamped odom_trans;
    odom_trans.header.stamp = ros::Time::now();
    odom_trans.header.frame_id = "odom";
    odom_trans.child_frame_id = "base_footprint";
    odom_trans.transform.rotation.x = orientation_x_;
    odom_trans.transform.rotation.y = orientation_y_;
    odom_trans.transform.rotation.z = orientation_z_;
    odom_trans.transform.rotation.w = orientation_w_;
    odom_broadcaster.sendTransform(odom_trans);
  }
  void imuCallback(const sensor_msgs::Imu &imu_msg) {
    orientation_x_ = imu_msg.orientation.x;
    orientation_y_ = imu_msg.orientation.y;
    orientation_z_ = imu_msg.orientation.z;
    orientation_w_ = imu_msg.orientation.w;
  }
  double orientation_x_, orientation_y_, orientation_z_, orientation_w_;
  tf::TransformBroadcaster odom_broadcaster;
  ros::Subscriber imu_sub_;
};
"""

PALOUSE = """\
import rospy
import tf2_ros
from geometry_msgs.msg import Quaternion, QuaternionStamped, TransformStamped


class SubTfBroadcaster:
    def __init__(self, child_frame):
        self.sub = rospy.Subscriber('orientation', QuaternionStamped, self.orientation_callback)
        self.br = tf2_ros.TransformBroadcaster()
        self.child_frame = child_frame
        self.quaternion = Quaternion()
        self.update_tf_tree()

    def orientation_callback(self, orientation):
        self.quaternion = orientation.quaternion
        self.update_tf_tree()

    def update_tf_tree(self):
        t = TransformStamped()
        t.header.stamp = rospy.Time.now()
        t.header.frame_id = "world"
        t.child_frame_id = self.child_frame
        t.transform.rotation = self.quaternion
        self.br.sendTransform(t)
"""


def _zero_starts(findings: object) -> list[int]:
    return [f.location.line for f in findings if "start" in f.message and f.code == "INVALID_TRANSFORM" and f.location]  # type: ignore[attr-defined]


def test_cpp_members_zeroed_in_the_constructor_are_reported_at_the_start_value() -> None:
    facts = analyze_cpp(RBCAR, "src/rbcar_robot_control.cpp")
    (found,) = [f for f in facts.findings if "start as the zero quaternion" in f.message]
    assert found.location is not None and found.location.line == 7 and found.severity is not None
    assert "until orientation_w_ is set from imu_msg.orientation.w (line 25)" in found.message
    assert "odom_trans.transform.rotation copies it at line 18" in found.message


def test_cpp_identity_start_or_a_copy_set_where_it_is_made_is_fine() -> None:
    identity = RBCAR.replace("orientation_w_ = 0.0;", "orientation_w_ = 1.0;")
    assert _zero_starts(analyze_cpp(identity, "src/rbcar_robot_control.cpp").findings) == []
    # the copy reads members its own function sets first: the zeros never reach it
    same_function = RBCAR.replace("    odom_trans.transform.rotation.x = orientation_x_;",
                                  "    orientation_x_ = q.x(); orientation_y_ = q.y(); orientation_z_ = q.z(); orientation_w_ = q.w();\n"
                                  "    odom_trans.transform.rotation.x = orientation_x_;")
    assert _zero_starts(analyze_cpp(same_function, "src/rbcar_robot_control.cpp").findings) == []


def test_python_ros1_quaternion_message_starts_at_zero() -> None:
    (line,) = _zero_starts(analyze_python(PALOUSE, "src/sensors/sub_tf_broadcaster.py").findings)
    assert line == 11


def test_python_ros2_or_identity_quaternion_is_fine() -> None:
    # rclpy's Quaternion() is the identity: w defaults to 1
    ros2 = PALOUSE.replace("import rospy\n", "import rclpy\n").replace("rospy.Time.now()", "self.get_clock().now().to_msg()")
    assert _zero_starts(analyze_python(ros2, "sub_tf_broadcaster.py").findings) == []
    identity = PALOUSE.replace("Quaternion()", "Quaternion(0, 0, 0, 1)")
    assert _zero_starts(analyze_python(identity, "sub_tf_broadcaster.py").findings) == []


def test_python_scalar_attributes_zeroed() -> None:
    zeroed = "        self.qx = self.qy = 0.0\n        self.qz = 0\n        self.qw = 0.0\n"
    scalars = PALOUSE.replace("        self.quaternion = Quaternion()\n", zeroed).replace(
        "        t.transform.rotation = self.quaternion\n",
        "        t.transform.rotation.x = self.qx\n        t.transform.rotation.y = self.qy\n"
        "        t.transform.rotation.z = self.qz\n        t.transform.rotation.w = self.qw\n").replace(
        "        self.quaternion = orientation.quaternion\n", "        self.qw = orientation.quaternion.w\n")
    assert _zero_starts(analyze_python(scalars, "sub_tf_broadcaster.py").findings) == [13]
