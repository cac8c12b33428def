"""Messages held in class members, declared in the class's own header and published through a queue
wrapper (gazebo_ros_p3d: ``nav_msgs::Odometry pose_msg_;`` in the header, ``pub_Queue->push(this->pose_msg_,
this->pub_)``), checked once every method of the file is walked."""

from __future__ import annotations

from pathlib import Path

from scan.trees import write_tree

from physframe_ros.scan.code import analyze_cpp, analyze_python
from physframe_ros.scan.code.headers import own_headers
from physframe_ros.scan.scanner import scan

HEADER = """\
#include <nav_msgs/Odometry.h>
namespace gazebo
{
class GazeboRosP3D : public ModelPlugin
{
  private: nav_msgs::Odometry pose_msg_;
  private: nav_msgs::Odometry other_msg_;
  private: std::string frame_name_;
  private: PubQueue<nav_msgs::Odometry>::Ptr pub_Queue;
};
}
"""

SOURCE = """\
#include "gazebo_plugins/gazebo_ros_p3d.h"
namespace gazebo
{
void GazeboRosP3D::Load()
{
  this->other_msg_.child_frame_id = this->link_name_;
}
void GazeboRosP3D::UpdateChild()
{
  this->pose_msg_.header.frame_id = this->frame_name_;
  this->pose_msg_.pose.pose.position.x = pose.pos.x; this->pose_msg_.pose.pose.orientation.w = pose.rot.w;
  this->pub_Queue->push(this->pose_msg_, this->pub_);
  this->other_msg_.header.frame_id = this->frame_name_;
  this->pub_Queue->push(this->other_msg_, this->pub_);
}
}
"""


def test_member_odometry_published_with_no_child_frame_anywhere_in_the_class() -> None:
    facts = analyze_cpp(SOURCE, "gazebo_plugins/src/gazebo_ros_p3d.cpp", headers=[HEADER])
    assert [(f.code, f.location.line if f.location else None, f.level.value) for f in facts.findings] == [("MISSING_CHILD_FRAME", 12, "warning")]
    # without the header the member's type is unknown: nothing is said
    assert analyze_cpp(SOURCE, "gazebo_plugins/src/gazebo_ros_p3d.cpp").findings == []


def test_own_headers_are_found_under_the_package_include_folder(tmp_path: Path) -> None:
    pkg = tmp_path / "gazebo_plugins"
    (pkg / "include" / "gazebo_plugins").mkdir(parents=True)
    (pkg / "src").mkdir()
    (pkg / "package.xml").write_text("<package format='3'><name>gazebo_plugins</name></package>")
    (pkg / "include" / "gazebo_plugins" / "gazebo_ros_p3d.h").write_text(HEADER)
    (pkg / "src" / "gazebo_ros_p3d.cpp").write_text(SOURCE)
    assert own_headers(SOURCE, "src/gazebo_ros_p3d.cpp", lambda p: (pkg / p).is_file(), [""]) == ["include/gazebo_plugins/gazebo_ros_p3d.h"]
    result = scan([pkg], jobs=1)
    assert [(f.code, f.location.file if f.location else None) for f in result.findings if f.code == "MISSING_CHILD_FRAME"] == [
        ("MISSING_CHILD_FRAME", "src/gazebo_ros_p3d.cpp")
    ]


def test_a_bare_include_of_a_header_under_include_pkg_is_found(tmp_path: Path) -> None:
    """ROS-MSCL: ``#include "microstrain_3dm.h"`` finds include/ros_mscl/microstrain_3dm.h, as CMake's
    ``include_directories(include/${PROJECT_NAME})`` does, so the member's type is known."""
    pkg = tmp_path / "gazebo_plugins"
    (pkg / "include" / "gazebo_plugins").mkdir(parents=True)
    (pkg / "src").mkdir()
    (pkg / "package.xml").write_text("<package format='3'><name>gazebo_plugins</name></package>")
    (pkg / "include" / "gazebo_plugins" / "gazebo_ros_p3d.h").write_text(HEADER)
    (pkg / "src" / "gazebo_ros_p3d.cpp").write_text(SOURCE.replace('"gazebo_plugins/gazebo_ros_p3d.h"', '"gazebo_ros_p3d.h"'))
    result = scan([pkg], jobs=1)
    assert [(f.code, f.location.file if f.location else None) for f in result.findings if f.code == "MISSING_CHILD_FRAME"] == [
        ("MISSING_CHILD_FRAME", "src/gazebo_ros_p3d.cpp")
    ]


# A single-file ROS 1 node holding its message at file scope (marker_tracker_node.cpp in the PhysFrame
# corpus): only the stamp and seq are ever written before the publish.
GLOBAL_SOURCE = """\
#include <ros/ros.h>
#include <geometry_msgs/PoseStamped.h>

ros::Publisher bodyAxisPositionPublisher;
geometry_msgs::PoseStamped ps,lastMarkerPose;

void markerPoseReceived(const geometry_msgs::PoseStampedConstPtr& msg)
{
   geometry_msgs::PoseStamped markerPose = *msg;
   ps.pose.position.x = (markerPose.pose.position.z - 2.5)/2;
   lastMarkerPose = markerPose;
}

int main(int argc, char **argv)
{
  ros::init(argc, argv, "marker_tracker_node");
  ros::NodeHandle nodeHandle;
  bodyAxisPositionPublisher = nodeHandle.advertise<geometry_msgs::PoseStamped>("/CLDrone/body_axis_position/local",10);
  ps.pose.orientation.w = 1;
  while(ros::ok())
  {
    ps.header.seq++;
    ps.header.stamp = ros::Time::now();
    bodyAxisPositionPublisher.publish(ps);
    ros::spinOnce();
  }
  return 0;
}
"""


def _found(text: str, path: str = "marker_tracker/src/marker_tracker_node.cpp") -> list[tuple[str, int | None, str]]:
    return [(f.code, f.location.line if f.location else None, f.level.value) for f in analyze_cpp(text, path).findings]


def test_file_scope_message_of_a_source_file_published_with_no_frame_is_an_error() -> None:
    assert _found(GLOBAL_SOURCE) == [("MISSING_FRAME", 24, "error")]


def test_file_scope_message_whose_frame_is_set_extern_or_in_a_header_is_not_reported() -> None:
    assert _found(GLOBAL_SOURCE.replace("ps.header.seq++;", 'ps.header.frame_id = "base_link";')) == []
    # a header copied in whole may carry a frame
    assert _found(GLOBAL_SOURCE.replace("ps.header.seq++;", "ps.header = markerHeader;")) == []
    # assigned whole from a received message in a callback (RAS-2016's brain.cpp: map_static = *msg)
    assert _found(GLOBAL_SOURCE.replace("lastMarkerPose = markerPose;", "ps = markerPose;")) == []
    # declared extern: another file may set it
    assert _found(GLOBAL_SOURCE.replace("ros::Publisher bodyAxis", "extern geometry_msgs::PoseStamped ps;\nros::Publisher bodyAxis")) == []
    # a header's globals are shared with other files
    assert _found(GLOBAL_SOURCE, "marker_tracker/include/marker_tracker/node.h") == []


# Stage's stageros.cpp as the se306p1 project (PhysFrame corpus) carries it: the class is declared in the
# source file, one Odometry per robot in an array made with `new T[n]`, each element filled and published
# through `odomMsgs[r]`, child_frame_id never set.
STAGE_SOURCE = """\
#include <ros/ros.h>
#include <nav_msgs/Odometry.h>

class StageNode
{
  private:
    nav_msgs::Odometry *odomMsgs;
    std::vector<ros::Publisher> odom_pubs_;
    size_t numRobots;
  public:
    StageNode(size_t n);
    void WorldCallback();
};

StageNode::StageNode(size_t n) : numRobots(n)
{
  this->odomMsgs = new nav_msgs::Odometry[numRobots];
}

void StageNode::WorldCallback()
{
  for (size_t r = 0; r < this->numRobots; r++)
  {
    this->odomMsgs[r].pose.pose.position.x = 1.0;
    this->odomMsgs[r].header.frame_id = "odom";
    this->odom_pubs_[r].publish(this->odomMsgs[r]);
  }
}
"""


def test_an_array_of_messages_in_a_class_declared_in_the_source_file_is_an_error() -> None:
    assert _found(STAGE_SOURCE, "stage/src/stageros.cpp") == [("MISSING_CHILD_FRAME", 26, "error")]
    # a C array member too
    c_array = STAGE_SOURCE.replace("nav_msgs::Odometry *odomMsgs;", "nav_msgs::Odometry odomMsgs[8];").replace(
        "this->odomMsgs = new nav_msgs::Odometry[numRobots];", ""
    )
    assert _found(c_array, "stage/src/stageros.cpp") == [("MISSING_CHILD_FRAME", 26, "error")]


def test_an_array_element_written_through_any_index_sets_the_field_for_all() -> None:
    fixed = STAGE_SOURCE.replace('header.frame_id = "odom";', 'header.frame_id = "odom";\n    odomMsgs[r].child_frame_id = "base_link";')
    assert _found(fixed, "stage/src/stageros.cpp") == []


def test_a_member_message_assigned_whole_from_a_received_one_is_not_reported() -> None:
    relay = STAGE_SOURCE.replace("void WorldCallback();", "void WorldCallback();\n    void cb(const nav_msgs::Odometry::ConstPtr& m) { odomMsgs[0] = *m; }")
    assert _found(relay, "stage/src/stageros.cpp") == []
    header_class = STAGE_SOURCE.replace("nav_msgs::Odometry *odomMsgs;", "nav_msgs::Odometry odomMsgs[8];").replace(
        "this->odomMsgs = new nav_msgs::Odometry[numRobots];", ""
    )
    # declared in a header, another file of the class may set it: a warning
    assert _found(header_class, "stage/include/stage/stageros.h") == [("MISSING_CHILD_FRAME", 26, "warning")]


# husarion's panther_driver driver_node.py (before its fix): the wheel odometry member built in __init__ with
# its frame, published by a timer callback, and its child_frame_id set nowhere.
PANTHER = """\
import rospy
from nav_msgs.msg import Odometry

class PantherDriverNode:
    def __init__(self, name):
        self._odom_msg = Odometry()
        self._odom_msg.header.frame_id = 'odom'
        self._pose_msg = Odometry()
        self._pose_msg.header.frame_id = 'odom'
        self._pose_msg.child_frame_id = 'base_link'
        self._copied = Odometry()
        self._odom_pub = rospy.Publisher('odom/wheel', Odometry, queue_size=1)

    def _odom_cb(self, msg):
        self._copied = msg

    def _publish_odom_cb(self):
        self._odom_msg.header.stamp = rospy.Time.now()
        self._odom_msg.pose.pose.position.x = self._robot_pos[0]; self._odom_msg.pose.pose.orientation.w = 1.0
        self._odom_pub.publish(self._odom_msg)
        self._pose_pub.publish(self._pose_msg)
        self._copy_pub.publish(self._copied)
"""


def test_python_member_odometry_published_with_no_child_frame_anywhere_in_the_file() -> None:
    facts = analyze_python(PANTHER, "panther_driver/src/driver_node.py")
    ((code, line, message),) = [(f.code, f.location.line if f.location else None, f.message) for f in facts.findings]
    assert (code, line) == ("MISSING_CHILD_FRAME", 20)
    assert "Odometry member 'self._odom_msg' (built at line 6) is published with child_frame_id set by no method of this file" in message


# ohm_tsd_slam's ThreadGrid (before its fix): the map held through a raw pointer member made in the initializer
# list, handed whole to a service response, published with its stamp only.
OHM_HEADER = """\
class ThreadGrid {
  nav_msgs::OccupancyGrid* _occGrid;
  ros::Publisher _gridPub;
};
"""
OHM_SOURCE = """\
ThreadGrid::ThreadGrid(obvious::TsdGrid* grid, ros::NodeHandle* nh) : _occGrid(new nav_msgs::OccupancyGrid), _grid(*grid)
{
  _occGrid->info.resolution = 0.05;
}
bool ThreadGrid::getMapServCallBack(nav_msgs::GetMap::Request& req, nav_msgs::GetMap::Response& res)
{
  res.map = *_occGrid;
  return true;
}
void ThreadGrid::eventLoop()
{
  _occGrid->header.stamp = ros::Time::now();
  _gridPub.publish(*_occGrid);
}
"""


def test_a_raw_pointer_member_made_with_new_and_published_with_no_frame() -> None:
    facts = analyze_cpp(OHM_SOURCE, "src/ThreadGrid.cpp", headers=[OHM_HEADER])
    ((code, line, message),) = [(f.code, f.location.line if f.location else None, f.message) for f in facts.findings]
    assert (code, line) == ("MISSING_FRAME", 13)
    assert "OccupancyGrid member '_occGrid' is published with header.frame_id set by no method" in message
    assert analyze_cpp(OHM_SOURCE.replace("header.stamp", "header.frame_id"), "src/ThreadGrid.cpp", headers=[OHM_HEADER]).findings == []


# hokuyo3d's hokuyo3d.cpp (before its fix): the magnetometer's frame parameter read into the IMU's member, so the
# MagneticField's member frame is never given a value.
HOKUYO3D = """\
class hokuyo3d_node
{
public:
    void cbAux(const vssp::header &header, const vssp::aux_header &aux_header, const boost::shared_array<vssp::aux> &auxs)
    {
        imu.header.frame_id = imu_frame_id;
        pubImu.publish(imu);
        mag.header.frame_id = mag_frame_id;
        pubMag.publish(mag);
    }
    hokuyo3d_node() : nh("~")
    {
        nh.param("frame_id", frame_id, std::string("hokuyo3d"));
        nh.param("imu_frame_id", imu_frame_id, frame_id + "_imu");
        nh.param("mag_frame_id", imu_frame_id, frame_id + "_mag");
    }
private:
    ros::NodeHandle nh;
    ros::Publisher pubImu;
    ros::Publisher pubMag;
    sensor_msgs::Imu imu;
    sensor_msgs::MagneticField mag;
    std::string frame_id;
    std::string imu_frame_id;
    std::string mag_frame_id;
};
"""


def test_a_frame_member_nothing_writes_is_empty_and_a_parameter_read_into_another_member_is_the_line_to_change() -> None:
    facts = analyze_cpp(HOKUYO3D, "src/hokuyo3d.cpp")
    assert [(f.code, f.level.name, f.location.line if f.location else None) for f in facts.findings] == [("MISSING_FRAME", "ERROR", 15)]
    assert "parameter 'mag_frame_id' is read into 'imu_frame_id', not into the member 'mag_frame_id'" in facts.findings[0].message
    # with no parameter named for it at all, the frame write is the line reported
    unread = HOKUYO3D.replace('        nh.param("mag_frame_id", imu_frame_id, frame_id + "_mag");\n', "")
    assert [(f.code, f.location.line if f.location else None) for f in analyze_cpp(unread, "src/hokuyo3d.cpp").findings] == [("MISSING_FRAME", 8)]
    # the fix: read into its own member, which then has a value
    fixed = HOKUYO3D.replace('nh.param("mag_frame_id", imu_frame_id', 'nh.param("mag_frame_id", mag_frame_id')
    assert analyze_cpp(fixed, "src/hokuyo3d.cpp").findings == []


LIMO_IMU = """\
class SerialRead {
 public:
  sensor_msgs::Imu GetImuData();
 private:
  sensor_msgs::Imu imu_data_;
  sensor_msgs::Imu mag_data_;
};

sensor_msgs::Imu SerialRead::GetImuData() {
  imu_data_.header.stamp = ros::Time::now();
  imu_data_.orientation.w = 1.0;
  return imu_data_;
}

sensor_msgs::Imu SerialRead::GetMagData() {
  mag_data_.header.frame_id = "imu_link";
  return mag_data_;
}

int main(int argc, char* argv[]) {
  SerialRead sr;
  ros::Publisher imu_pub = nh.advertise<sensor_msgs::Imu>("/imu", 10, true);
  while (ros::ok()) {
    auto imu_msg = sr.GetImuData();
    imu_pub.publish(imu_msg);
    imu_pub.publish(sr.GetMagData());
  }
}
"""


def test_a_member_returned_by_a_getter_of_the_class_and_published_by_main() -> None:
    # limo_ros' mpu6050_imu: main publishes what the class's getter returns, a member whose frame nothing sets
    facts = analyze_cpp(LIMO_IMU, "mpu6050_imu.cpp")
    assert [(f.code, f.location and f.location.line) for f in facts.findings] == [("MISSING_FRAME", 25)]


# gkv_ros_driver's parser (before its fix): module globals rebuilt by the subscriber callback under `global`, and
# published by timer callbacks; the odometry never gets a child frame. A module-level message framed by a function
# and one framed nowhere, published by a function.
GKV = """\
import rospy
from nav_msgs.msg import Odometry
from sensor_msgs.msg import Imu

odom_msg = None
imu_msg = None
status = Imu()
framed = Imu()

def callback(data):
    global odom_msg, imu_msg
    odom_msg = Odometry()
    odom_msg.header.stamp = rospy.Time.now()
    odom_msg.header.frame_id = 'gkv_odom_link'
    imu_msg = Imu()
    imu_msg.header.frame_id = 'gkv_imu_link'
    framed.header.frame_id = 'gkv_imu_link'

def publish_odom_msg(_):
    global odom_msg
    if odom_msg:
        pub_odom.publish(odom_msg)

def publish_imu_msg(_):
    if imu_msg:
        pub_imu.publish(imu_msg)
        pub_imu.publish(status)
        pub_imu.publish(framed)
"""


def test_python_module_globals_published_by_another_function() -> None:
    facts = analyze_python(GKV, "scripts/gkv_custom_data_parser.py")
    found = sorted((f.code, f.location.line if f.location else None, f.message) for f in facts.findings if f.code.startswith("MISSING"))
    assert [(code, line) for code, line, _ in found] == [("MISSING_CHILD_FRAME", 22), ("MISSING_FRAME", 27)]
    assert "Odometry 'odom_msg' (a module global, built at line 12) is published with child_frame_id set nowhere in this file" in found[0][2]
    assert "Imu 'status' (a module global, built at line 7)" in found[1][2]
    fixed = GKV.replace("    imu_msg = Imu()", "    odom_msg.child_frame_id = 'base_footprint'\n    status.header.frame_id = 'gkv'\n    imu_msg = Imu()")
    assert [f for f in analyze_python(fixed, "scripts/gkv_custom_data_parser.py").findings if f.code.startswith("MISSING")] == []


# roboracing-software's tag_detection (before its fix): the constructor assigns the frame to its by-value parameter
# `camera_frame`, which hides the member of that name; the member stays empty and the cloud goes out with no frame.
# A main of the package has a local of the same name; `this->camera_frame = ...` or an initializer is the member's.
TAG_HEADER = """\
class tag_detection {
public:
    tag_detection(std::string camera_frame, const std::string &pointcloud);
private:
    ros::Publisher pub_pointcloud;
    std::string camera_frame;
};
"""
TAG_SOURCE = """\
#include "tag_detection.h"
tag_detection::tag_detection(std::string camera_frame, const std::string& pointcloud) {
    ros::NodeHandle n;
    camera_frame = "/camera_optical";
}
void tag_detection::publishPointCloud(pcl::PointCloud<pcl::PointXYZ> &cloud) {
    sensor_msgs::PointCloud2 outmsg;
    pcl::toROSMsg(cloud, outmsg);
    outmsg.header.frame_id = camera_frame;
    pub_pointcloud.publish(outmsg);
}
"""
TAG_MAIN = """\
int main(int argc, char** argv) {
    std::string camera_frame, pointcloud;
    nhp.getParam("/camera_frame", camera_frame);
    tag_detection tagDetection(camera_frame, pointcloud);
}
"""


def test_a_frame_member_hidden_by_a_parameter_of_the_same_name_is_never_written(tmp_path: Path) -> None:
    files = {"package.xml": "<package format='2'><name>rr_evgp</name></package>", "src/tag_detection.h": TAG_HEADER,
             "src/tag_detection.cpp": TAG_SOURCE, "src/start_tag_detection.cpp": TAG_MAIN}
    root = write_tree(tmp_path / "a", files)
    found = [(f.code, f.location.file if f.location else None, f.location.line if f.location else None) for f in scan([root], jobs=1).findings]
    assert ("MISSING_FRAME", "src/tag_detection.cpp", 9) in found
    fixed = write_tree(tmp_path / "b", {**files, "src/tag_detection.cpp": TAG_SOURCE.replace("    camera_frame = ", "    this->camera_frame = ")})
    assert not [f for f in scan([fixed], jobs=1).findings if f.code == "MISSING_FRAME"]


# ros2_icm20948's driver (before its fix): the node class's publish_imu / publish_mag only publish what they are
# handed; main fills the messages with a stamp and data and calls them on the node object.
ICM20948 = """\
import rclpy
from rclpy.node import Node
import sensor_msgs.msg


class DriverNode(Node):
    def __init__(self):
        super().__init__('driver_node')
        self.imu_publisher = self.create_publisher(sensor_msgs.msg.Imu, '/imu/data_raw', 10)
        self.mag_publisher = self.create_publisher(sensor_msgs.msg.MagneticField, '/imu/mag_raw', 10)

    def publish_imu(self, msg):
        self.imu_publisher.publish(msg)

    def publish_mag(self, msg):
        msg.header.frame_id = 'imu_link'
        self.mag_publisher.publish(msg)


def main(args=None):
    node = DriverNode()
    imu_msg = sensor_msgs.msg.Imu()
    mag_msg = sensor_msgs.msg.MagneticField()
    imu_msg.header.stamp = node.get_clock().now().to_msg()
    imu_msg.orientation_covariance[0] = -1
    node.publish_imu(imu_msg)
    mag_msg.header.stamp = imu_msg.header.stamp
    node.publish_mag(mag_msg)
"""


def test_a_message_handed_to_a_method_of_the_file_that_only_publishes_it() -> None:
    found = [(f.code, f.location.line if f.location else None) for f in analyze_python(ICM20948, "ros2_icm20948/driver.py").findings]
    assert found == [("MISSING_FRAME", 26)]


MRS_ODOMETRY = """\
#include <nav_msgs/Odometry.h>
namespace mrs_uav_odometry
{
class Odometry : public nodelet::Nodelet {
  ros::Publisher     pub_odom_main_inno_;
  nav_msgs::Odometry odom_main_inno_;
  void mainTimer(const ros::TimerEvent &event);
  void callbackMavrosOdometry(const nav_msgs::OdometryConstPtr &msg);
};
void Odometry::mainTimer(const ros::TimerEvent &event) {
  odom_main_inno_.header.frame_id = "uav1/local_origin";
  odom_main_inno_.child_frame_id = "uav1/fcu";
  pub_odom_main_inno_.publish(odom_main_inno_);
}
void Odometry::callbackMavrosOdometry(const nav_msgs::OdometryConstPtr &msg) {
  odom_main_inno_.pose.pose.position.x = innovation(0);
  odom_main_inno_.pose.pose.position.y = innovation(1);
  odom_main_inno_.twist.twist.linear.x = innovation(0);
}
}
"""


def test_a_member_odometry_whose_pose_is_filled_but_for_its_orientation() -> None:
    """mrs_uav_odometry's innovation: a ROS 1 Odometry member whose position the callbacks fill and whose orientation no
    method writes goes out with (0, 0, 0, 0)."""
    (found,) = analyze_cpp(MRS_ODOMETRY, "src/odometry.cpp").findings
    assert (found.code, found.location.line if found.location else None) == ("INVALID_TRANSFORM", 13)
    assert "pose orientation set by no method of this file" in found.message
    # the orientation set anywhere, the pose copied whole, or a ROS 2 message (its w defaults to 1): nothing to say
    for fixed in (MRS_ODOMETRY.replace("  odom_main_inno_.twist", "  odom_main_inno_.pose.pose.orientation.w = 1.0;\n  odom_main_inno_.twist"),
                  MRS_ODOMETRY.replace("  odom_main_inno_.twist", "  odom_main_inno_.pose.pose = msg->pose.pose;\n  odom_main_inno_.twist"),
                  MRS_ODOMETRY.replace("nav_msgs::Odometry odom_main_inno_", "nav_msgs::msg::Odometry odom_main_inno_")):
        assert analyze_cpp(fixed, "src/odometry.cpp").findings == []


GRID_MAP_REGION = """\
#include <visualization_msgs/Marker.h>
namespace grid_map_visualization {
class MapRegionVisualization {
  visualization_msgs::Marker marker_;
  ros::Publisher publisher_;
  bool initialize();
  bool visualize(const grid_map::GridMap& map);
};
bool MapRegionVisualization::initialize() {
  marker_.ns = "map_region";
  marker_.type = visualization_msgs::Marker::LINE_STRIP;
  marker_.scale.x = 0.01;
  marker_.points.resize(5);
  return true;
}
bool MapRegionVisualization::visualize(const grid_map::GridMap& map) {
  marker_.header.frame_id = map.getFrameId();
  marker_.points[0].x = map.getPosition().x();
  publisher_.publish(marker_);
  return true;
}
}
"""


def test_a_member_marker_whose_orientation_no_method_writes_is_a_hint() -> None:
    """grid_map's region marker: a LINE_STRIP given by its points, its pose orientation never set ((0, 0, 0, 0) in ROS 1):
    RViz takes the identity and warns, hence a hint (info), as for a local marker."""
    (found,) = analyze_cpp(GRID_MAP_REGION, "src/visualizations/MapRegionVisualization.cpp").findings
    assert (found.code, found.location.line if found.location else None, found.level.value) == ("INVALID_TRANSFORM", 19, "info")
    fixed = GRID_MAP_REGION.replace("  marker_.points.resize(5);", "  marker_.points.resize(5);\n  marker_.pose.orientation.w = 1.0;")
    assert analyze_cpp(fixed, "src/visualizations/MapRegionVisualization.cpp").findings == []
