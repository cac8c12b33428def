"""INVALID_FRAME_ID where no transform is built: header literals and parameter defaults, in the
real idioms of the known bugs (visualization_tutorials' marker, cob's rospy marker, fake_localization's
``param(name, member_, std::string("/map"))``, nmea_navsat_driver's ``rospy.get_param``)."""

from __future__ import annotations

from physframe_ros.scan.code import analyze_cpp, analyze_python

MARKER_CPP = """\
#include <visualization_msgs/Marker.h>
int main(int argc, char** argv)
{
  ros::NodeHandle n;
  ros::Publisher marker_pub = n.advertise<visualization_msgs::Marker>("visualization_marker", 1);
  while (ros::ok())
  {
    visualization_msgs::Marker marker;
    marker.header.frame_id = "/my_frame";
    marker.header.stamp = ros::Time::now();
    marker_pub.publish(marker);
  }
}
"""

PARAMS_CPP = """\
class FakeOdomNode
{
  public:
    FakeOdomNode(void)
    {
      ros::NodeHandle private_nh("~");
      private_nh.param("odom_frame_id", odom_frame_id_, std::string("odom"));
      private_nh.param("global_frame_id", global_frame_id_, std::string("/map"));
      private_nh.param(node_name_ + "/camera_frame", camera_frame_, std::string("/camera"));
      private_nh.param("topic", topic_, std::string("/odom"));
      m_particleCloud.header.frame_id = global_frame_id_;
    }
};
"""

MARKER_PY = """\
import rospy
from visualization_msgs.msg import Marker

def publish_goals(pub, goals):
    for name, pose in goals.items():
        marker_arrow = Marker()
        marker_arrow.header.stamp = rospy.Time.now()
        marker_arrow.header.frame_id = "/map"
        marker_arrow.ns = "/" + name
        pub.publish(marker_arrow)

class Driver:
    def __init__(self):
        self.frame_id = rospy.get_param('~frame_id', '/gps')
        self.topic = rospy.get_param('~topic', '/fix')
"""


def _invalid(facts: object) -> list[tuple[int | None, tuple[str, ...]]]:
    return sorted((f.location.line if f.location else None, f.frames) for f in facts.findings if f.code == "INVALID_FRAME_ID")  # type: ignore[attr-defined]


def test_header_literal_with_leading_slash_in_cpp() -> None:
    facts = analyze_cpp(MARKER_CPP, "basic_shapes.cpp")
    assert _invalid(facts) == [(9, ("/my_frame",))]
    assert "marker.header.frame_id" in facts.findings[0].message


def test_frame_parameter_defaults_in_cpp_named_or_computed() -> None:
    facts = analyze_cpp(PARAMS_CPP, "fake_localization.cpp")
    # the default is reported where it is written, not again where the member is used; a computed
    # name keeps its default as the value but is not known to name a frame, so it is not checked
    assert _invalid(facts) == [(8, ("/map",))]


def test_header_literal_and_get_param_default_in_python() -> None:
    facts = analyze_python(MARKER_PY, "visualize_navigation_goals.py")
    assert _invalid(facts) == [(8, ("/map",)), (14, ("/gps",))]


def test_valid_literals_and_non_frame_parameters_are_not_reported() -> None:
    text = MARKER_CPP.replace('"/my_frame"', '"my_frame"')
    assert _invalid(analyze_cpp(text, "basic_shapes.cpp")) == []
    assert _invalid(analyze_python(MARKER_PY.replace('"/map"', '"map"').replace("'/gps'", "'gps'"), "goals.py")) == []



def test_percent_formatting_builds_a_frame_id() -> None:
    # nmea_navsat_driver's "%s/%s" % (prefix, frame_id) with an empty tf prefix gives '/gps'
    text = (
        "import rospy\n"
        "from geometry_msgs.msg import TransformStamped\n"
        "def send(br):\n"
        "    prefix = ''\n"
        "    frame = rospy.get_param('~frame_id', 'gps')\n"
        "    t = TransformStamped()\n"
        "    t.header.frame_id = 'base_link'\n"
        "    t.child_frame_id = '%s/%s' % (prefix, frame)\n"
        "    br.sendTransform(t)\n"
        "    u = TransformStamped()\n"
        "    u.header.frame_id = 'base_link'\n"
        "    u.child_frame_id = '%s/%d' % (prefix, 3)\n"
        "    br.sendTransform(u)\n"
    )
    assert _invalid(analyze_python(text, "driver.py")) == [(8, ("/gps",))]  # where the id is built, the line to change


NMEA_GET_FRAME_ID = """\
import rospy


class RosNMEADriver(object):
    @staticmethod
    def get_frame_id():
        frame_id = rospy.get_param('~frame_id', 'gps')
        if frame_id[0] != "/":
            prefix = ""
            prefix_param = rospy.search_param('tf_prefix')
            if prefix_param:
                prefix = rospy.get_param(prefix_param)
                if prefix[0] != "/":
                    prefix = "/%s" % prefix
            return "%s/%s" % (prefix, frame_id)
        else:
            return frame_id

    def get_ros2_frame_id(self):
        frame_id = self.declare_parameter('frame_id', 'gps').value
        prefix = self.declare_parameter('tf_prefix', '').value
        if len(prefix):
            return '%s/%s' % (prefix, frame_id)
        return frame_id

    @staticmethod
    def get_fixed_frame_id():
        frame_id = rospy.get_param('~frame_id', 'gps')
        prefix = ""
        prefix_param = rospy.search_param('tf_prefix')
        if prefix_param:
            prefix = rospy.get_param(prefix_param)
            return "%s/%s" % (prefix, frame_id)
        else:
            return frame_id
"""


def test_a_frame_getter_joining_a_prefix_left_empty_on_some_path() -> None:
    """nmea_navsat_driver's get_frame_id before its fix: ``prefix = ""`` changed only inside a branch, then
    ``"%s/%s" % (prefix, frame_id)``: '/gps' when no tf_prefix exists. Its fix joins only where the prefix was read;
    its ROS 2 branch joins only when ``len(prefix)``."""
    found = analyze_python(NMEA_GET_FRAME_ID, "src/libnmea_navsat_driver/driver.py").findings
    assert [(f.code, f.location.line if f.location else None) for f in found] == [("INVALID_FRAME_ID", 15)]
    assert 'prefix is "" from line 9 on and changes only inside a branch' in found[0].message


def test_prefix_joins_in_every_python_form() -> None:
    from physframe_ros.scan.frame_ids import _joined_prefix

    for text in ('tf_prefix + "/base"', '"%s/%s" % (tf_prefix, f)', "'%s/base' % self.tf_prefix", 'f"{prefix}/{frame}"',
                 '"{}/{}".format(prefix, frame)'):
        assert _joined_prefix(text) is not None, text
    assert _joined_prefix('"%s_%s" % (prefix, f)') is None and _joined_prefix('"base"') is None


# carla ros-bridge's sensor.py (before PR #117): the transform is filled in a method that returns it, and
# sent by a base class's method the scan does not see; the literal is the line to change.
CARLA_SENSOR_PY = """\
from geometry_msgs.msg import TransformStamped


class Sensor(Actor):
    def get_tf_msg(self):
        tf_msg = TransformStamped()
        tf_msg.header = self.get_msg_header()
        tf_msg.header.frame_id = "/map"
        tf_msg.child_frame_id = self.get_frame_id()
        tf_msg.transform = self.get_current_ros_transfrom()
        return tf_msg
"""


def test_an_invalid_frame_written_into_a_transform_is_reported_where_it_is_written() -> None:
    found = [(f.code, f.location.line if f.location else None, f.frames) for f in analyze_python(CARLA_SENSOR_PY, "carla_ros_bridge/sensor.py").findings]
    assert found == [("INVALID_FRAME_ID", 8, ("/map",))]


# innopolis_vtol_dynamics (before 34ac6cd): a file-scope constant; ueye_cam (before 79f1337): "/" + frame_name_.
CONSTANTS_CPP = """\
#include <sensor_msgs/Image.h>
#define ODOM_FRAME "/odom"
static char GLOBAL_FRAME_ID[] = "world";
static char UAV_FRAME_ID[] = "/uav/enu";
static const char kWrenchInBaseFrame[] = "~/wrench_in_base_frame";
class Cam {
  std::string frame_name_;
  std::string target_frame_ = "/map";
  sensor_msgs::Image ros_image_;
 public:
  void setup() {
    ros_image_.header.frame_id = "/" + frame_name_;
    std::string m_frameId = "/laser";
    std::string topic = "/" + frame_name_;
  }
};
"""

CONSTANTS_PY = """\
MAP_FRAME = "/map"


class Node:
    def __init__(self):
        self.frame_id = "/" + rospy.get_param("~frame", "gps")
        self.base_frame = f"/{ns}/base_link"
        self.target_frame = "/map"
        self.child_frame = "base_link"
"""


def _invalid_lines(facts: object) -> list[int | None]:
    return sorted(f.location.line for f in facts.findings if f.code == "INVALID_FRAME_ID" and f.location)  # type: ignore[attr-defined]


def test_a_variable_named_for_a_frame_written_with_an_invalid_id_is_reported_where_it_is_written() -> None:
    # #define, file-scope char array, "/" + name into a header, a camelCase member; not a lookup's target
    # frame (ROS 1 tf resolves '/map' there), not a name for data in a frame (a topic), not a plain topic
    assert _invalid_lines(analyze_cpp(CONSTANTS_CPP, "src/node.cpp")) == [2, 4, 12, 13]
    assert _invalid_lines(analyze_python(CONSTANTS_PY, "scripts/node.py")) == [1, 6, 7]


# tue_robocup's robot_skills/head.py (before PR #1128): a frame passed by keyword, built on "/".
KEYWORDS_PY = """\
class Head:
    def selfreset(self, timeout=0):
        reset_goal = VectorStamped(x=10, frame_id="/" + self.robot_name + "/base_link")
        header = Header(frame_id="/map", stamp=now)
        fine = Header(frame_id=self.frame)
        tf = self.buffer.lookup_transform(target_frame="/map", source_frame="base_link", time=now)
        return self.look_at_point(reset_goal, timeout=timeout)
"""


def test_a_frame_passed_by_keyword_is_checked_where_it_is_written() -> None:
    # a lookup's target_frame keyword is a lookup, checked by the lookup rules: tf2's Buffer rejects "/map" (line 6)
    assert _invalid_lines(analyze_python(KEYWORDS_PY, "robot_skills/head.py")) == [3, 4, 6]


# octomap_server's constructor (before its fix): the default world frame in the member initializer list,
# then read as a parameter's default and stamped on the published markers.
OCTOMAP = """\
OctomapServer::OctomapServer(ros::NodeHandle private_nh_)
: m_nh(),
  m_worldFrameId("/map"), m_baseFrameId("base_footprint"),
  m_res(0.05)
{
  m_nh_private.param("frame_id", m_worldFrameId, m_worldFrameId);
}
void OctomapServer::publish() {
  visualization_msgs::Marker m;
  m.header.frame_id = m_worldFrameId;
  pub.publish(m);
}
"""


def test_a_frame_member_initialised_with_an_invalid_id_is_reported_at_the_initializer_once() -> None:
    assert _invalid(analyze_cpp(OCTOMAP, "src/OctomapServer.cpp")) == [(3, ("/map",))]


# ouster-sdk's os1_cloud_node.cpp (before its fix): frames joined onto a tf_prefix whose default is empty.
OUSTER = """\
int main(int argc, char** argv) {
    ros::NodeHandle nh("~");
    auto tf_prefix = nh.param("tf_prefix", std::string{});
    auto sensor_frame = tf_prefix + "/os1_sensor";
    auto imu_frame = tf_prefix.empty() ? "os1_imu" : tf_prefix + "/os1_imu";
    std::string lidar_frame = tf_prefix + "os1_lidar";
    std::string ns = nh.param("ns", std::string{});
    std::string base_frame = ns + "/base_link";
}
"""


def test_a_frame_joined_onto_an_empty_prefix_with_a_slash_is_reported_where_it_is_built() -> None:
    # an empty default means "no prefix" only for a prefix: the namespace's empty default stays unknown
    ((line, frames),) = _invalid(analyze_cpp(OUSTER, "src/os1_cloud_node.cpp"))
    assert (line, frames) == (4, ("/os1_sensor",))


# grvc-ual's ual_backend_gazebo_light.cpp (before its fix): the namespace's slashes stripped, then "/base_link"
# joined on, which leaves '/base_link' in the root namespace; rc_genicam_camera's namespace joined on whole
# (always a leading '/'); the guarded form, which handles the empty namespace; grvc-ual's fix, which strips
# the slashes off the joined frame; teraranger_array's hub, which strips the namespace's slash only after joining
# it into each range's frame; cougars-ros2's seatrac_ahrs_convertor, the namespace converted to a string first.
NAMESPACE_CPP = """\
void BackendGazeboLight::initHomeFrame() {
    std::string ns = ros::this_node::getNamespace();
    while ((ns.length() > 0) && (ns[0] == '/')) {
        ns.erase(0,1);  // Remove all leading '/'
    }
    uav_frame_id_ = ns + "/base_link";
    uav_home_frame_id_ = ns + "/odom";
}
void GenICamCamera::onInit() {
    std::string ns = ros::this_node::getNamespace();
    frame_id_ = ns + "camera";
    child_frame_ = ros::this_node::getNamespace() + "/imu";
}
void Guarded::init() {
    std::string ns = nh_.getNamespace();
    ns.erase(0, 1);
    if (!ns.empty()) {
        base_frame_ = ns + "/base_link";
    } else {
        base_frame_ = "base_link";
    }
}
void TerarangerHubOne::init() {
    ns_ = ros::this_node::getNamespace();
    range.header.frame_id = ns_ + '_' + frame_id + boost::lexical_cast<std::string>(i);
    measure.header.frame_id = "base_" + ns_.erase(0,1);  // the slash removed only after the ranges' frames
}
void BackendGazeboLight::initHomeFrameFixed() {
    std::string ns = ros::this_node::getNamespace();
    uav_frame_id_ = ns + "/base_link";
    while (uav_frame_id_[0]=='/') {
        uav_frame_id_.erase(0,1);
    }
}
void SeatracAhrsConvertor::modem_callback() {
    t.child_frame_id = std::string(this->get_namespace()) + ".modem";
}
"""

NAMESPACE_PY = """\
from rclpy.node import Node


class Bridge(Node):
    def __init__(self):
        super().__init__('bridge')
        self.odom_frame = self.get_namespace() + '/odom'
        self.base_frame = f"{self.get_namespace()}/base_link" if self.get_namespace() != '/' else 'base_link'
"""


def test_a_frame_built_on_the_node_namespace_is_reported_unless_the_empty_case_is_handled() -> None:
    facts = analyze_cpp(NAMESPACE_CPP, "src/ual_backend_gazebo_light.cpp")
    assert _invalid(facts) == [(6, ()), (7, ()), (11, ()), (12, ()), (25, ()), (36, ())]
    assert all(f.level.name == "WARNING" for f in facts.findings)
    assert "built on the node's namespace" in facts.findings[0].message
    assert _invalid(analyze_python(NAMESPACE_PY, "bridge/bridge.py")) == [(7, ())]


# camera_aravis' camera_aravis_nodelet.cpp (before its fix): a static callback stamps images with the nodelet's
# fully qualified name, through a pointer to the nodelet; a link's getName() is a plain name.
NODELET_HEADER = """\
namespace camera_aravis {
class CameraAravisNodelet : public nodelet::Nodelet
{
  static void newBufferReady(ArvStream *p_stream, CameraAravisNodelet *p_can, std::string frame_id);
};
}
"""

NODELET_CPP = """\
void CameraAravisNodelet::newBufferReady(ArvStream *p_stream, CameraAravisNodelet *p_can, std::string frame_id)
{
    sensor_msgs::ImagePtr msg_ptr = (*(p_can->p_buffer_pools_[stream_id]))[p_buffer];
    if (frame_id.empty()) {
      msg_ptr->header.frame_id = p_can->getName();
    } else {
      msg_ptr->header.frame_id = p_can->getName() + '/' + frame_id;
    }
    marker_.header.frame_id = link->getName();
    pose_.header.frame_id = ros::this_node::getName() + "_base";
}
"""

# duckietown's apriltag_detector_node.py (before its fix): each tag's frame formatted onto '/'.
APRILTAG_PY = """\
import rospy
import tf


class AprilTagDetector:
    def _detect(self, msg):
        for tag in self.tags:
            self._tf_bcaster.sendTransform(
                p.tolist(),
                q.tolist(),
                msg.header.stamp,
                '/tag/{:s}'.format(str(tag.tag_id)),
                msg.header.frame_id
            )
"""


def test_a_frame_named_for_the_node_or_formatted_onto_a_slash_is_reported() -> None:
    facts = analyze_cpp(NODELET_CPP, "src/camera_aravis_nodelet.cpp", headers=[NODELET_HEADER])
    assert _invalid_lines(facts) == [5, 7, 10]  # not the link's name
    assert "the node's namespace or name" in facts.findings[0].message
    assert _invalid_lines(analyze_cpp(NODELET_CPP, "src/camera_aravis_nodelet.cpp")) == [10]  # the pointer's class unknown
    assert _invalid_lines(analyze_python(APRILTAG_PY, "src/apriltag_detector_node.py")) == [12]


# iai_kinect2's kinect2_definitions.h (before its fix): a header of #defines only.
KINECT2 = """\
#pragma once
#define K2_TOPIC_BASE          "kinect2_head/"
#define K2_TF_RGB_FRAME        "/head_mount_kinect2_rgb_optical_frame"
"""


def test_a_header_defining_a_frame_with_a_leading_slash_is_read_and_reported() -> None:
    from physframe_ros.scan.code import mentions_tf

    assert mentions_tf(KINECT2)
    assert _invalid(analyze_cpp(KINECT2, "include/kinect2_definitions.h")) == [(3, ("/head_mount_kinect2_rgb_optical_frame",))]


def test_a_number_turned_into_text_as_a_frame_id() -> None:
    """ros2/demos' cam2image (before #433): each image stamped with its publish counter."""
    text = """\
void Cam2Image::convert_frame_to_message(const cv::Mat & frame, size_t frame_id, sensor_msgs::msg::Image & msg)
{
  msg.height = frame.rows;
  msg.header.frame_id = std::to_string(frame_id);
  msg.header.frame_id = "camera_" + std::to_string(index);
}
"""
    facts = analyze_cpp(text, "image_tools/src/cam2image.cpp")
    (found,) = [f for f in facts.findings if f.code == "INVALID_FRAME_ID"]
    assert found.location is not None and found.location.line == 4
    assert "a number turned into text" in found.message


def test_an_invalid_id_written_in_the_broadcast_itself_is_reported_there_beside_other_uses() -> None:
    """loam_livox's laser_mapping.hpp (before its PR #41): "/camera_init" on the odometry header, and again
    written out in the StampedTransform it broadcasts: each place is one to change."""
    text = """\
void publish(const ros::Time& t) {
  nav_msgs::Odometry odomAftMapped;
  odomAftMapped.header.frame_id = "/camera_init";
  odomAftMapped.child_frame_id = "/aft_mapped";
  pub.publish(odomAftMapped);
  static tf::TransformBroadcaster br;
  tf::Transform transform;
  transform.setRotation(tf::Quaternion(0, 0, 0, 1));
  br.sendTransform(tf::StampedTransform(transform, t, "/camera_init", "/aft_mapped"));
}
"""
    assert sorted(_invalid(analyze_cpp(text, "source/laser_mapping.hpp"))) == [
        (3, ("/camera_init",)), (4, ("/aft_mapped",)), (9, ("/aft_mapped",)), (9, ("/camera_init",))]


def test_a_name_that_is_no_prefix_with_an_empty_default_is_not_reported() -> None:
    """tue_robocup's Robot: every robot is built with its name; the signature's default "" is never used."""
    text = """\
class Robot(object):
    def __init__(self, robot_name="", wait_services=False):
        self.robot_name = robot_name
        self.base_link_frame = self.robot_name + '/base_link'
"""
    assert _invalid(analyze_python(text, "src/robot_skills/robot.py")) == []


def test_a_literal_wrapped_in_a_string_constructor_is_checked_as_the_literal() -> None:
    """ego-planner's odom_visualization.cpp (before its fix): poseROS.header.frame_id = string("/world")."""
    text = """\
void odom_callback(const nav_msgs::Odometry::ConstPtr& msg) {
  geometry_msgs::PoseStamped poseROS;
  poseROS.header = msg->header;
  poseROS.header.frame_id = string("/world");
  pose_pub.publish(poseROS);
  geometry_msgs::PoseStamped ok;
  ok.header.frame_id = std::string("world");
  pose_pub.publish(ok);
}
"""
    assert _invalid(analyze_cpp(text, "src/odom_visualization.cpp")) == [(4, ("/world",))]


PLUGIN_CONFIG = """\
class JoyPose6D(RVizViewController):
    def __init__(self, name, args):
        self.frame_id = self.getArg('frame_id', '/map')
        self.pose_topic = self.getArg('pose', '/pose')
        self.base_frame = args.get('base_frame', 'base_link')
        self.target_frame = args.get('target_frame', '/map')
        self.world_frame = config.setdefault('world_frame', '/world')
"""


def test_frame_keys_read_from_a_configuration_with_a_literal_default() -> None:
    # jsk_teleop_joy's JoyPose6D before its fix: a plugin argument read like a parameter; a topic, a valid frame and a
    # ROS 1 lookup frame (resolved by tf) are not reported
    facts = analyze_python(PLUGIN_CONFIG, "joy_pose_6d.py")
    assert [(f.code, f.location and f.location.line, f.frames) for f in facts.findings] == [
        ("INVALID_FRAME_ID", 3, ("/map",)), ("INVALID_FRAME_ID", 7, ("/world",))]


LOCALMAP_SCAN2PCL = """\
void SCAN_TO_PCL::scanCallback(const sensor_msgs::LaserScan::ConstPtr& scan){
	sensor_msgs::PointCloud2 cloud;
	try{
		projector_.transformLaserScanToPointCloud("/base_link", *scan, cloud, tfListener_);
		point_cloud_publisher_.publish(cloud);
	}
	catch(tf::TransformException ex){
		ROS_ERROR("%s",ex.what());
	}
	sensor_msgs::PointCloud2 good;
	projector_.transformLaserScanToPointCloud("base_link", *scan, good, tfListener_);
	pub_.publish(good);
	sensor_msgs::PointCloud2 out;
	pcl_ros::transformPointCloud("/odom", good, out, listener_);
	pub_.publish(out);
	pcl_ros::transformPointCloud("/odom", transform, good, out);
}
"""


def test_a_cloud_transformed_into_a_target_frame_is_stamped_with_it() -> None:
    """localmap_creator's scan2pcl: laser_geometry's transformLaserScanToPointCloud("/base_link", ...) stamps the
    cloud it publishes '/base_link'; pcl_ros' transformPointCloud(target, in, out, listener) alike. Its (target,
    transform, in, out) form leaves the output in the input's frame."""
    facts = analyze_cpp(LOCALMAP_SCAN2PCL, "src/scan2pcl.cpp")
    assert _invalid(facts) == [(4, ("/base_link",)), (14, ("/odom",))]
    assert [(d.frame, d.location.line if d.location else None) for d in facts.data_frames] == [("/base_link", 4), ("base_link", 11), ("/odom", 14)]


# cnc-turtlebots' DriveSearchPattern behaviour (before its fix): a move_base goal's frame id assigned the number 1,
# which std::string takes as the character 0x01. A number into a field merely named for a frame (an index) is not one.
SEARCH_PATTERN = """\
#include <move_base_msgs/MoveBaseAction.h>
void DriveSearchPattern::run(void* msg)
{
    move_base_msgs::MoveBaseGoal goal;
    goal.target_pose.pose.orientation.w = 1;
    goal.target_pose.header.frame_id = 1;
    goal.target_pose.header.stamp = ros::Time::now();
    int frame_id = 1;
    send(goal);
}
"""


def test_a_number_written_into_a_frame_id() -> None:
    found = [(f.code, f.location.line if f.location else None, f.message) for f in analyze_cpp(SEARCH_PATTERN, "src/DriveSearchPattern.cpp").findings]
    assert [(code, line) for code, line, _ in found] == [("INVALID_FRAME_ID", 6)]
    assert found[0][2].startswith("goal.target_pose.header.frame_id = 1: a number written into a frame id")
    python = "from geometry_msgs.msg import PoseStamped\np = PoseStamped()\np.header.frame_id = 0\npub.publish(p)\n"
    assert [(f.code, f.location.line if f.location else None) for f in analyze_python(python, "x.py").findings] == [("INVALID_FRAME_ID", 3)]


# A frame written out with a leading '/' where a function of the file (or of another module of the package) takes
# a parameter named for a frame, passed by position; a topic in a parameter named for one is not a frame.
POSITIONAL = """\
from visualization_msgs.msg import Marker

def make_marker(frame_id, ns):
    m = Marker()
    m.header.frame_id = frame_id
    m.pose.orientation.w = 1.0
    return m

class Viz:
    def marker(self, frame, ns):
        return make_marker(frame, ns)

    def run(self):
        pub.publish(make_marker("/map", "a"))
        pub.publish(self.marker("/odom", "b"))
        pub.publish(make_marker("map", "/topic"))
"""


def test_a_frame_literal_passed_by_position_to_a_function_taking_a_frame() -> None:
    found = [(f.code, f.location.line if f.location else None, f.message) for f in analyze_python(POSITIONAL, "viz.py").findings]
    assert [(code, line) for code, line, _ in found] == [("INVALID_FRAME_ID", 14), ("INVALID_FRAME_ID", 15)]
    assert found[0][2].startswith("make_marker(frame_id=...): frame id '/map' has a leading '/'")


# patrolling_sim's ROS 2 port (before its fix): "/map" looked up through a tf2 Buffer, which fails on the slash;
# ROS 1 tf's listener (four arguments in C++, camelCase in Python) stripped it and is left alone.
TF2_LOOKUP = """\
void PatrolAgent::getRobotPose() {
  std::string sframe = "/map";
  std::string dframe = "base_link";
  geometry_msgs::msg::TransformStamped t = tf_buffer_->lookupTransform(sframe, dframe, tf2::TimePointZero);
  listener.lookupTransform("/map", "/base_link", ros::Time(0), tr);
  auto u = tf_buffer_->lookupTransform("/odom", dframe, rclcpp::Time(0), rclcpp::Duration::from_seconds(3));
}
"""


def test_a_leading_slash_looked_up_through_tf2() -> None:
    found = [(f.code, f.location.line if f.location else None, f.frames) for f in analyze_cpp(TF2_LOOKUP, "src/PatrolAgent.cpp").findings]
    # the variable's literal is the line to change, not the lookup it reaches
    assert found == [("INVALID_FRAME_ID", 2, ("/map",)), ("INVALID_FRAME_ID", 6, ("/odom",))]
    python = 't = tf_buffer.lookup_transform("/odom", "base_link", rospy.Time(0))\n(p, q) = listener.lookupTransform("/map", "/base_link", rospy.Time(0))\n'
    assert [(f.code, f.location.line if f.location else None) for f in analyze_python(python, "x.py").findings] == [("INVALID_FRAME_ID", 1)]


# McGill's AUV controls (2014, before its fix): a space typed for an underscore in the frame it waits for
SPACE_LOOKUP = """\
void Controls::estimate(std::string frame) {
  tf::TransformListener tf_listener;
  const std::string targetFrame = "/robot/rotation center";
  tf_listener.waitForTransform(targetFrame, frame, ros::Time(0), ros::Duration(0.4));
}
"""


def test_a_frame_with_whitespace_looked_up_through_tf_or_tf2() -> None:
    [found] = analyze_cpp(SPACE_LOOKUP, "src/controls.cpp").findings
    assert (found.code, found.location.line if found.location else None, found.frames) == ("INVALID_FRAME_ID", 3, ("/robot/rotation center",))
    assert "at line 4" in found.message and "whitespace" in found.message
    python = 't = tf_buffer.lookup_transform("map", "base link", rospy.Time(0))\n'
    assert [(f.code, f.location.line if f.location else None) for f in analyze_python(python, "x.py").findings] == [("INVALID_FRAME_ID", 1)]


LITERAL_IN_A_VARIABLE = """\
void Mapper::publish() {
  std::string sframe = "/map";  // a name with no 'frame' word: only its use says it is one
  sensor_msgs::PointCloud2 cloud;
  cloud.header.frame_id = sframe;
  pub_.publish(cloud);
  marker.header.frame_id = sframe;
}
"""


def test_a_leading_slash_held_in_a_variable_is_reported_at_its_literal() -> None:
    facts = analyze_cpp(LITERAL_IN_A_VARIABLE, "src/mapper.cpp")
    assert [(f.code, f.location.line if f.location else None, f.frames) for f in facts.findings] == [("INVALID_FRAME_ID", 2, ("/map",))]
    assert facts.findings[0].message.startswith("'sframe', written into cloud.header.frame_id at line 4: frame id '/map' has a leading '/'")
    python = "def cb(msg):\n    where = '/odom'\n    c = PointCloud2()\n    c.header.frame_id = where\n    pub.publish(c)\n"
    assert [(f.code, f.location.line if f.location else None) for f in analyze_python(python, "x.py").findings] == [("INVALID_FRAME_ID", 2)]
    # a default read under a computed name, on the line that writes it: said as a write of that line
    python = "class D:\n    def __init__(self):\n        self.odom_frame = rospy.get_param(rospy.get_name() + '/odom_frame', '/odom')\n"
    (found,) = analyze_python(python, "x.py").findings
    assert (found.location.line if found.location else None, found.message.split(":")[0]) == (3, "self.odom_frame")


MORSE_ODOMETRY = """\
import logging; logger = logging.getLogger("morse." + __name__)
import rospy
from nav_msgs.msg import Odometry
from morse.middleware.ros import ROSPublisherTF, mathutils

class OdometryPublisher(ROSPublisherTF):
    ros_class = Odometry
    default_frame_id = '/odom'
    topic_name = '/odom'

    class Defaults:
        base_frame = 'base_footprint'
"""


def test_a_class_attribute_named_for_a_frame_is_checked_where_it_is_written() -> None:
    """MORSE's ROS publishers kept their default frames in class attributes (``default_frame_id = '/odom'``), read by a
    base class; a topic name is no frame."""
    found = [(f.code, f.location.line if f.location else None) for f in analyze_python(MORSE_ODOMETRY, "odometry.py").findings]
    assert found == [("INVALID_FRAME_ID", 8)]
