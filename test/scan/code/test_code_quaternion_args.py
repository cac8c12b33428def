"""A quaternion built from another one's components in the other library's order, from real idioms:
Autoware's ``boundingBoxToVertices`` (``Eigen::Quaterniond(pose.orientation.x, …, pose.orientation.w)``,
fixed by putting w first), victim_localization's ``convertToEigenQuaternoid`` (the same slip, from the
PhysFrame corpus), and the Python converters of tf_transformations, transforms3d, Gohlke's
``transformations`` (w first, as flock2 uses it correctly) and scipy. The right orders, a deliberate change
of axes and names from unknown modules are left alone."""

from __future__ import annotations

import pytest

from physframe_ros.core.findings import Location
from physframe_ros.scan.code import analyze_cpp, analyze_python
from physframe_ros.scan.code.quaternion_args import cpp_swapped, finding, half_angle_order, named_order

AUTOWARE = """\
std::vector<Eigen::Vector3d> boundingBoxToVertices(
  const geometry_msgs::msg::Pose & pose, const autoware_perception_msgs::msg::Shape & shape)
{
  const auto position = Eigen::Vector3d(pose.position.x, pose.position.y, pose.position.z);
  const auto orientation = Eigen::Quaterniond(
    pose.orientation.x, pose.orientation.y, pose.orientation.z, pose.orientation.w);
  std::vector<Eigen::Vector3d> vertices;
  vertices.push_back(orientation * Eigen::Vector3d(shape.dimensions.x, 0, 0) + position);
  return vertices;
}
"""

VICTIM = """\
static inline Eigen::Quaterniond convertToEigenQuaternoid(geometry_msgs::Quaternion p)
{
  Eigen::Quaterniond q(p.x, p.y, p.z, p.w);
  return q;
}
"""

RIGHT_CPP = """\
void convert(const geometry_msgs::Pose & pose, const Eigen::Quaterniond & e, tf::Quaternion & out)
{
  Eigen::Quaterniond a(pose.orientation.w, pose.orientation.x, pose.orientation.y, pose.orientation.z);
  tf2::Quaternion b(pose.orientation.x, pose.orientation.y, pose.orientation.z, pose.orientation.w);
  tf2::Quaternion c(e.x(), e.y(), e.z(), e.w());
  out.setValue(b.getX(), b.getY(), b.getZ(), b.getW());
  // NED to ENU: x and y swapped, z negated, on purpose
  tf2::Quaternion enu(pose.orientation.y, pose.orientation.x, -pose.orientation.z, pose.orientation.w);
  // two different sources: nothing says they are one quaternion
  Eigen::Quaterniond d(imu.x, other.y, imu.z, imu.w);
  // unqualified: Eigen's or tf's, by a using-directive elsewhere
  Quaternion e2(pose.orientation.x, pose.orientation.y, pose.orientation.z, pose.orientation.w);
}
"""

WRONG_CPP = """\
void wrong(const Eigen::Quaterniond & e, tf::Quaternion & out)
{
  tf2::Quaternion b(e.w(), e.x(), e.y(), e.z());
  out.setValue(e.w(), e.x(), e.y(), e.z());
  Eigen::Quaternion<double> q2{msg->orientation.x, msg->orientation.y, msg->orientation.z, msg->orientation.w};
}
"""

PYTHON = """\
import tf_transformations as tft
import transformations
from transforms3d.quaternions import quat2mat
from geometry_msgs.msg import Quaternion
from scipy.spatial.transform import Rotation as R
from my_utils import euler_from_quaternion


def convert(p, q):
    a = tft.euler_from_quaternion([q.w, q.x, q.y, q.z])
    b = quat2mat([q.x, q.y, q.z, q.w])
    c = transformations.quaternion_matrix([p.orientation.w, p.orientation.x, p.orientation.y, p.orientation.z])
    d = Quaternion(x=q.w, y=q.x, z=q.y, w=q.z)
    e = R.from_quat([q.w, q.x, q.y, q.z])
    f = R.from_quat([q.w, q.x, q.y, q.z], scalar_first=True)
    g = euler_from_quaternion([q.w, q.x, q.y, q.z])
    h = Quaternion(q.x, q.y, q.z, q.w)
    return a, b, c, d, e, f, g, h
"""


def _swapped(facts) -> list[tuple[int | None, str]]:  # type: ignore[no-untyped-def]
    return [(f.location.line if f.location else None, f.message) for f in facts.findings if f.code == "INCORRECT_TRANSFORM"]


def test_eigen_given_x_y_z_w_is_an_error_at_the_constructor() -> None:
    ((line, message),) = _swapped(analyze_cpp(AUTOWARE, "src/utils/geometry.cpp"))
    assert line == 5
    assert "takes a quaternion as (w, x, y, z) but is given one quaternion's (x, y, z, w)" in message
    assert "x as w, y as x, z as y, w as z" in message
    findings = [f for f in analyze_cpp(VICTIM, "include/utilities/pose_conversion.h").findings if f.code == "INCORRECT_TRANSFORM"]
    assert [(f.location.line if f.location else None, f.level.name) for f in findings] == [(3, "ERROR")]


def test_tf_given_w_first_is_an_error_and_the_right_orders_are_not() -> None:
    assert _swapped(analyze_cpp(RIGHT_CPP, "src/convert.cpp")) == []
    assert [line for line, _ in _swapped(analyze_cpp(WRONG_CPP, "src/wrong.cpp"))] == [3, 4, 5]


def test_python_converters_by_the_module_they_come_from() -> None:
    found = _swapped(analyze_python(PYTHON, "scripts/convert.py"))
    # c: Gohlke's transformations is w first; f: scipy told scalar_first; g: a module not known; h: right order
    assert [line for line, _ in found] == [10, 11, 13, 14]
    assert found[0][1].startswith("tft.euler_from_quaternion([q.w, q.x, q.y, q.z]): takes a quaternion as (x, y, z, w)")


F1TENTH = """\
from transforms3d import euler
from geometry_msgs.msg import Transform


def transforms(pose):
    t = Transform()
    q = euler.euler2quat(0.0, 0.0, pose[2])
    t.rotation.x = q[0]
    t.rotation.y = q[1]
    t.rotation.z = q[2]
    t.rotation.w = q[3]
    good = Transform()
    good.rotation.x = q[1]
    good.rotation.y = q[2]
    good.rotation.z = q[3]
    good.rotation.w = q[0]
    return t, good
"""


def test_slots_written_one_by_one_from_a_w_first_quaternion() -> None:
    """f1tenth_gym_ros: transforms3d's euler2quat is w first; copied as x = q[0] ... w = q[3] the rotation is
    another one. Reported at the x slot; the right copy (x = q[1] ... w = q[0]) is not."""
    found = _swapped(analyze_python(F1TENTH, "f1tenth_gym_ros/gym_bridge.py"))
    assert [line for line, _ in found] == [8]
    assert found[0][1].startswith("t.rotation: the x, y, z, w slots take the components (w, x, y, z)")


def test_a_submodule_imported_from_its_package_is_that_submodule() -> None:
    """``from tf import transformations`` makes ``transformations.f`` tf.transformations' f, not a name of tf."""
    text = "from tf import transformations as T\n\n\ndef yaw(q):\n    return T.euler_from_quaternion([q.w, q.x, q.y, q.z])[2]\n"
    assert [line for line, _ in _swapped(analyze_python(text, "scripts/yaw.py"))] == [5]


FLIGHTMARE = """\
using Scalar = double;
using Quaternion = Eigen::Quaternion<Scalar>;
typedef tf2::Quaternion TfQuat;

std::vector<Scalar> quaternionRos2Unity(const Quaternion ros_quat) {
  Quaternion unity_quat(ros_quat.y(), -ros_quat.z(), -ros_quat.x(),
                        ros_quat.w());
  TfQuat tq(q.w, q.y, q.x, -q.z);
  // right: w first into Eigen, w last into tf2, the axes turned on purpose
  Quaternion fixed(ros_quat.w(), -ros_quat.x(), -ros_quat.z(), -ros_quat.y());
  TfQuat enu(q.y, q.x, -q.z, q.w);
  return {unity_quat.x(), unity_quat.y(), unity_quat.z(), unity_quat.w()};
}
"""


def test_the_scalar_at_the_other_end_with_the_axes_rearranged_and_an_aliased_type() -> None:
    """flightmare's ROS-to-Unity conversion: `Quaternion` is Eigen's by the file's `using`, and its w-first constructor
    got (y, -z, -x, w): w last, whatever the axes' order. Its fix (w, -x, -z, -y) and an ENU swap into tf2 are left."""
    found = _swapped(analyze_cpp(FLIGHTMARE, "flightlib/src/common/math.cpp"))
    assert [line for line, _ in found] == [6, 8]
    assert found[0][1].startswith("Quaternion(ros_quat.y(), -ros_quat.z(), -ros_quat.x(), ros_quat.w()) (Quaternion is "
                                  "Eigen::Quaternion<Scalar> here): takes a quaternion as (w, x, y, z)")


BITBOTS_HEADER = """\
struct KickGoals {
  Eigen::Vector3d ball_position;
  Eigen::Quaterniond kick_direction;
  double kick_speed;
};
"""

BITBOTS = """\
void KickNode::executeCb(const bitbots_msgs::action::Kick::Goal & goal_msg) {
  KickGoals goals;
  goals.ball_position = {goal_msg.ball_position.x, goal_msg.ball_position.y, goal_msg.ball_position.z};
  goals.kick_direction = {goal_msg.kick_direction.x, goal_msg.kick_direction.y, goal_msg.kick_direction.z,
                          goal_msg.kick_direction.w};
  goals.kick_speed = goal_msg.kick_speed;
}
"""


def test_a_member_declared_a_quaternion_assigned_a_braced_list() -> None:
    """bitbots_dynamic_kick: `goals.kick_direction = {m.x, m.y, m.z, m.w}` into a member its header declares
    `Eigen::Quaterniond`, which takes w first; the file names no quaternion type. Its fix (w, x, y, z) is left."""
    found = _swapped(analyze_cpp(BITBOTS, "src/kick_node.cpp", headers=[BITBOTS_HEADER]))
    assert [line for line, _ in found] == [4]
    assert found[0][1].startswith("kick_direction = {goal_msg.kick_direction.x, goal_msg.kick_direction.y, "
                                  "goal_msg.kick_direction.z, goal_msg.kick_direction.w} (kick_direction is declared "
                                  "Eigen::Quaterniond): takes a quaternion as (w, x, y, z)")
    fixed = BITBOTS.replace("{goal_msg.kick_direction.x", "{goal_msg.kick_direction.w, goal_msg.kick_direction.x").replace(
        ",\n                          goal_msg.kick_direction.w}", "}")
    assert _swapped(analyze_cpp(fixed, "src/kick_node.cpp", headers=[BITBOTS_HEADER])) == []


@pytest.mark.parametrize(
    ("texts", "order"),
    [
        (["q.x", "q.y", "q.z", "q.w"], "xyzw"),
        (["q->w()", "q->x()", "q->y()", "q->z()"], "wxyz"),
        (["t.getW()", "t.getX()", "t.getY()", "t.getZ()"], "wxyz"),
        (["d['w']", "d['x']", "d['y']", "d['z']"], "wxyz"),
        (["-q.x", "-q.y", "-q.z", "q.w"], "xyzw"),
        (["a.x", "b.y", "a.z", "a.w"], None),
        (["q.x", "q.x", "q.z", "q.w"], None),
        (["x", "y", "z", "w"], None),
        (["q.x", "q.y", "q.z"], None),
    ],
)
def test_named_order(texts: list[str], order: str | None) -> None:
    assert named_order(texts) == order


KALMAN = """\
void update(const Eigen::VectorXd & dx, double norm_quat)
{
  if (norm_quat < 1e-10) {
    Eigen::Quaterniond dq = Eigen::Quaterniond(0, 0, 0, cos(norm_quat / 2));
    apply(dq);
  } else {
    Eigen::Quaterniond dq = Eigen::Quaterniond(
      sin(norm_quat / 2) * dx(0) / norm_quat,
      sin(norm_quat / 2) * dx(1) / norm_quat,
      sin(norm_quat / 2) * dx(2) / norm_quat,
      cos(norm_quat / 2));
    apply(dq);
  }
  // right: Eigen w first, tf x, y, z, w; a cosine inside a product decides nothing
  Eigen::Quaterniond yawq(cos(yawinit / 2), 0, 0, sin(yawinit / 2));
  tf::Quaternion rotate_(sin(theta_), 0, 0, std::cos(theta_));
  tf::Quaternion normal(0, v_z * cos(theta / 2), -v_y * cos(theta / 2), sin(theta / 2));
  Eigen::Quaternion<T> q_x_inv(cos(a[2] / T(2)), -sin(a[2] / T(2)), T(0), T(0));
}
"""


def test_an_angle_built_quaternion_tells_its_order_by_its_cosine() -> None:
    """kalman_filter_localization's EKF gave Eigen's w-first constructor (x, y, z, w) built from an angle: cos(θ/2), the
    scalar part, stood last. The right orders of ethzasl_msf, jsk_recognition and vins_fusion are left alone."""
    found = _swapped(analyze_cpp(KALMAN, "include/kalman_filter_localization/ekf.hpp"))
    assert [line for line, _ in found] == [4, 7]
    assert "but is given one built from an angle in (x, y, z, w) order (cos(θ/2), the scalar part w, stands last)" in found[0][1]


MAS = """\
import rospy
import tf


class PublishTf(object):
    def __init__(self):
        self.tf = tf.TransformBroadcaster()

    def execute(self, objects):
        for i, obj in enumerate(objects):
            p = obj.pose.pose.position
            q = obj.pose.pose.orientation
            self.tf.sendTransform((p.x, p.y, p.z), (q.w, q.x, q.y, q.z),
                                  rospy.Time.now(), 'object_%i' % i,
                                  obj.pose.header.frame_id)
            self.tf.sendTransform((p.x, p.y, p.z), (q.x, q.y, q.z, q.w), rospy.Time.now(), 'ok_%i' % i, 'map')
"""


def test_tf_send_transform_given_a_w_first_tuple() -> None:
    """mas_common_robotics' object detector broadcast each object with the rotation tuple (q.w, q.x, q.y, q.z); tf's
    ``sendTransform(translation, rotation, time, child, parent)`` takes x, y, z, w."""
    found = _swapped(analyze_python(MAS, "mcr_object_detection/ros/scripts/object_detector"))
    assert [line for line, _ in found] == [13]
    assert "takes a quaternion as (x, y, z, w) but is given one quaternion's (w, x, y, z)" in found[0][1]


@pytest.mark.parametrize(
    ("texts", "order"),
    [
        (["0", "0", "0", "cos(a / 2)"], "xyzw"),
        (["std::cos(a/2)", "0.0", "0.0", "std::sin(a/2)"], "wxyz"),
        (["math.cos(a)", "T(0)", "0.f", "math.sin(a)"], "wxyz"),
        (["cos(a) * b", "0", "0", "sin(a)"], None),
        (["cos(a)", "x", "0", "sin(a)"], None),
        (["0", "cos(a)", "0", "sin(a)"], None),
        (["cos(a)", "0", "0", "cos(b)"], None),
    ],
)
def test_half_angle_order(texts: list[str], order: str | None) -> None:
    assert half_angle_order(texts) == order


KIMERA = """\
void RosbagDataProvider::sendExternalOdometryToVio() {
  for (const nav_msgs::OdometryConstPtr& odom_msg : rosbag_data_.external_odom_) {
    gtsam::Pose3 odom_pose(gtsam::Rot3(odom_msg->pose.pose.orientation.x,
                                       odom_msg->pose.pose.orientation.y,
                                       odom_msg->pose.pose.orientation.z,
                                       odom_msg->pose.pose.orientation.w),
                           gtsam::Point3(odom_msg->pose.pose.position.x, odom_msg->pose.pose.position.y, 0.0));
    gtsam::Rot3 ok = gtsam::Rot3::Quaternion(q.w, q.x, q.y, q.z);
    Rot3 also_ok(q.w(), q.x(), q.y(), q.z());
  }
}
"""


def test_gtsam_rot3_takes_w_first() -> None:
    """Kimera-VIO-ROS: ``gtsam::Rot3(o.x, o.y, o.z, o.w)`` read an odometry quaternion into gtsam's (w, x, y, z)."""
    found = [(f.code, f.location.line) for f in analyze_cpp(KIMERA, "RosBagDataProvider.cpp").findings if f.location]
    assert found == [("INCORRECT_TRANSFORM", 3)]


# ethz-asl's sampling_based_control (omav interaction): the state stores the attitude w first, and Eigen's
# constructor from a 4-vector reads x, y, z, w
OMAV = """\
void Controller::toTrajectory(const Eigen::VectorXd& x, geometry_msgs::Transform& tf) {
  tf::quaternionEigenToMsg(Eigen::Quaterniond(x.segment<4>(
                               omav_state_description::
                                   MAV_ORIENTATION_W_WORLD)),
                           tf.rotation);
  Eigen::Quaterniond q_ok(x.segment<4>(omav_state_description::MAV_ORIENTATION_X_WORLD));
  Eigen::Quaterniond q_too(x.segment(QW, 4));
}
"""


def test_eigen_reading_a_w_first_segment_as_x_y_z_w() -> None:
    found = cpp_swapped(OMAV)
    assert [(f.line, f.start) for f in found] == [(2, "MAV_ORIENTATION_W_WORLD"), (7, "QW")]
    message = finding(found[0], Location("src/controller_interface.cpp", 2)).message
    assert "reads its coefficients as (x, y, z, w)" in message and "named for w" in message


# aerostack2's Gazebo odometry plugin before its fix: gz-math's Quaterniond::Set takes w first, and the model's
# orientation message was handed over x, y, z, w
AEROSTACK2 = """\
#include <gz/math/Quaternion.hh>
using namespace gz;
void OdometryPublisher::PostUpdate(const msgs::Odometry &msgm) {
  math::Quaterniond quat_earth;
  quat_earth.Set(
    msgm.pose().orientation().x(), msgm.pose().orientation().y(),
    msgm.pose().orientation().z(), msgm.pose().orientation().w());
  math::Quaterniond fixed;
  fixed.Set(msgm.pose().orientation().w(), msgm.pose().orientation().x(),
            msgm.pose().orientation().y(), msgm.pose().orientation().z());
  gz::math::Quaterniond built(q.x, q.y, q.z, q.w);
  ignition::math::Quaterniond ok(q.w, q.x, q.y, q.z);
  Eigen::Vector4d v;
  v.Set(q.x, q.y, q.z, q.w);
}
"""


def test_gazebo_math_quaternions_take_w_first() -> None:
    found = cpp_swapped(AEROSTACK2)
    assert sorted((f.line, f.takes, f.order) for f in found) == [(5, "wxyz", "xyzw"), (11, "wxyz", "xyzw")]
    assert any("quat_earth is a Gazebo math quaternion" in f.call for f in found)


def test_yarps_math_quaternion_takes_x_first() -> None:
    """yarp-devices-ros' map server: YARP's `math::Quaternion(x, y, z, w)` (`yarp::math::Quaternion`) is not Gazebo's."""
    yarp = """\
#include <yarp/math/Quaternion.h>
using namespace yarp;
void Map2D_nws_ros::publish(const nav_msgs::OccupancyGrid* map_ros) {
  math::Quaternion q(map_ros->info.origin.orientation.x, map_ros->info.origin.orientation.y,
                     map_ros->info.origin.orientation.z, map_ros->info.origin.orientation.w);
  yarp::math::Quaternion r(o.x, o.y, o.z, o.w);
  r.Set(o.x, o.y, o.z, o.w);
}
"""
    assert cpp_swapped(yarp) == []
    assert [f.line for f in cpp_swapped("#include <gz/math/Quaternion.hh>\n" + yarp)] == [5]  # in a Gazebo plugin, Gazebo's
