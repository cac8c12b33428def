"""Idioms of the twelfth to fourteenth known-bug lists, each written from the real code: a message handed to a publisher
wrapper of another package (mrs_multirotor_simulator's ``publishers.publishGNSS(gnss)``), a frame id written
through an index (cmu exploration's ``markers[i].header.frame_id = "/map"``), a header stamped through
``ros::Time``'s setters (Hydra's ``msg.header.stamp.fromNSec(t)``), a file that only stamps members its header
declares (cv_camera) and the package's own stamped message types (ars_40X's ``msg/ClusterList.msg``)."""

from __future__ import annotations

from pathlib import Path

from physframe_ros.scan.code import analyze_cpp, analyze_python, mentions_tf
from physframe_ros.scan.code.helpers import PackageSources
from physframe_ros.scan.scanner import scan


def _found(facts, code: str) -> list[int | None]:  # type: ignore[no-untyped-def]
    return [f.location.line if f.location else None for f in facts.findings if f.code == code]


GNSS = """\
void Api::callbackOdom(const nav_msgs::Odometry::ConstPtr odom) {
  sensor_msgs::NavSatFix gnss;
  gnss.header.stamp = odom->header.stamp;
  gnss.latitude = lat;
  common_handlers_->publishers.publishGNSS(gnss);
  sensor_msgs::NavSatFix rtk;
  rtk.header.stamp = odom->header.stamp;
  publishRtk(rtk);
}

void Api::publishRtk(sensor_msgs::NavSatFix& fix) {
  fix.header.frame_id = "gps";
  rtk_pub_.publish(fix);
}
"""


def test_a_message_handed_to_a_publisher_wrapper_no_file_defines_is_published() -> None:
    # publishRtk is the file's own: followed, and it sets the frame
    assert _found(analyze_cpp(GNSS, "src/hw_api_plugin.cpp"), "MISSING_FRAME") == [5]


MARKERS_CPP = """\
void SegProc::publish() {
  visualization_msgs::MarkerArray objects;
  objects.markers.resize(n);
  for (int i = 0; i < n; i++) {
    objects.markers[i].header.frame_id = "/map";
    objects.markers[i].ns = "object";
  }
  pub_.publish(objects);
}
"""

MARKERS_PY = """\
from visualization_msgs.msg import MarkerArray, Marker

def publish(pub, n):
    objects = MarkerArray()
    objects.markers = [Marker() for _ in range(n)]
    for i in range(n):
        objects.markers[i].header.frame_id = '/map'
    objects.markers[0].header.frame_id = '/odom'
    pub.publish(objects)
"""


def test_a_frame_id_written_through_an_index_is_checked_where_it_is_written() -> None:
    facts = analyze_cpp(MARKERS_CPP, "src/segmentationProc.cpp")
    assert _found(facts, "INVALID_FRAME_ID") == [5]
    assert facts.findings[0].message.startswith("objects.markers[i].header.frame_id: frame id '/map'")
    py = analyze_python(MARKERS_PY, "scripts/segproc.py")
    assert _found(py, "INVALID_FRAME_ID") == [7, 8]
    assert [f.message.split(":")[0] for f in py.findings] == ["objects.markers[i].header.frame_id", "objects.markers[0].header.frame_id"]


MESH = """\
void DsgSender::sendGraph(const DynamicSceneGraph& graph, uint64_t timestamp_ns) {
  mesh_msgs::TriangleMeshStamped msg;
  msg.header.stamp.fromNSec(timestamp_ns);
  msg.mesh = kimera_pgmo::PolygonMeshToTriangleMeshMsg(*graph.getMeshVertices(), *graph.getMeshFaces());
  mesh_pub_.publish(msg);
}
"""


def test_a_header_stamped_through_ros_time_setters_is_a_used_header() -> None:
    """``msg.header.stamp.fromNSec(t)`` uses the header as ``msg.header.stamp = t`` does: a message type the
    scanner does not know, its frame never set, is a warning."""
    facts = analyze_cpp(MESH, "src/dsg_streaming_interface.cpp")
    assert _found(facts, "MISSING_FRAME") == [5]
    assert facts.findings[0].level.name == "WARNING"


def test_a_file_that_only_stamps_members_is_read() -> None:
    """cv_camera's capture.cpp names no message type: its members are declared in capture.h."""
    assert mentions_tf("  info_.header.stamp = now;\n  bridge_.header.stamp = now;\n")


def _package(root: Path, header_field: str) -> None:
    pkg = root / "ars_40X"
    (pkg / "msg").mkdir(parents=True)
    (pkg / "src").mkdir()
    (pkg / "include" / "ars_40X").mkdir(parents=True)
    (pkg / "package.xml").write_text("<package format=\"2\"><name>ars_40X</name><version>1.0.0</version></package>\n")
    (pkg / "msg" / "ClusterList.msg").write_text(f"{header_field}\n\nars_40X/Cluster[] clusters\n")
    (pkg / "msg" / "Cluster.msg").write_text("uint32 id\ngeometry_msgs/Point position\n")
    (pkg / "include" / "ars_40X" / "cluster_list_ros.hpp").write_text(
        "#include \"ars_40X/ClusterList.h\"\nnamespace ars_40X {\nclass ClusterListROS {\n public:\n  void send();\n private:\n"
        "  ros::Publisher clusters_pub_;\n  ClusterList cluster_list;\n};\n}\n")
    (pkg / "src" / "cluster_list_ros.cpp").write_text(
        "#include \"ars_40X/cluster_list_ros.hpp\"\nnamespace ars_40X {\nvoid ClusterListROS::send() {\n"
        "  cluster_list.header.stamp = ros::Time::now();\n  clusters_pub_.publish(cluster_list);\n}\n}\n")
    (pkg / "src" / "detections.py").write_text(
        "from ars_40X.msg import ClusterList, Cluster\n\n\ndef send(pub, stamp):\n    msg = ClusterList()\n"
        "    msg.header.stamp = stamp\n    pub.publish(msg)\n    c = Cluster()\n    pub.publish(c)\n")


def test_the_trees_own_stamped_message_types(tmp_path: Path) -> None:
    """ars_40X's ClusterList has a header (msg/ClusterList.msg): a member published with only its stamp set is
    reported (a warning: another file of the class may set it), a local message in Python too (an error)."""
    _package(tmp_path, "std_msgs/Header header")
    found = sorted((f.location.file, f.location.line, f.level.name) for f in scan([str(tmp_path)]).findings
                   if f.code == "MISSING_FRAME" and f.location)
    assert found == [("ars_40X/src/cluster_list_ros.cpp", 5, "WARNING"), ("ars_40X/src/detections.py", 7, "ERROR")]


def test_a_tree_message_without_a_header_is_not_stamped(tmp_path: Path) -> None:
    _package(tmp_path, "# std_msgs/Header header (not sent)\nuint64 stamp_ns")
    assert [f for f in scan([str(tmp_path)]).findings if f.code == "MISSING_FRAME"] == []


def test_a_tree_message_whose_header_only_stamps_the_time_is_not_stamped_data(tmp_path: Path) -> None:
    """mavros' ESCTelemetry, rtabmap's Goal (a map node id): a header on data with no place in space."""
    _package(tmp_path, "std_msgs/Header header")
    (tmp_path / "ars_40X" / "msg" / "Cluster.msg").write_text("uint32 id\nfloat32 rpm\nstring label\n")
    assert [f for f in scan([str(tmp_path)]).findings if f.code == "MISSING_FRAME"] == []


def test_a_tree_message_with_no_place_in_space_is_no_evidence_of_a_frame(tmp_path: Path) -> None:
    """A type of another package is taken as stamped data when the code uses its header; one the tree defines
    without spatial content (mavros' Param) is not, however its header is used."""
    msgs = tmp_path / "robot_msgs"
    (msgs / "msg").mkdir(parents=True)
    (msgs / "package.xml").write_text("<package format=\"2\"><name>robot_msgs</name><version>1.0.0</version></package>\n")
    (msgs / "msg" / "Param.msg").write_text("std_msgs/Header header\nstring param_id\nfloat64 value\n")
    (msgs / "msg" / "Range.msg").write_text("std_msgs/Header header\ngeometry_msgs/Point origin\nfloat64 range\n")
    node = tmp_path / "robot_driver"
    (node / "src").mkdir(parents=True)
    (node / "package.xml").write_text("<package format=\"2\"><name>robot_driver</name><version>1.0.0</version></package>\n")
    (node / "src" / "driver.cpp").write_text(
        "void Driver::send() {\n  robot_msgs::Param p;\n  p.header.stamp = ros::Time::now();\n  param_pub_.publish(p);\n"
        "  other_msgs::Reading r;\n  r.header.stamp = ros::Time::now();\n  reading_pub_.publish(r);\n"
        "  robot_msgs::Range g;\n  g.header.stamp = ros::Time::now();\n  range_pub_.publish(g);\n}\n")
    found = sorted((f.location.line, f.level.name) for f in scan([str(tmp_path)]).findings if f.code == "MISSING_FRAME" and f.location)
    assert found == [(7, "WARNING"), (10, "ERROR")]


def _decoder(root: Path, lidar_cpp: str) -> list[tuple[str, int | None, str]]:
    pkg = root / "ouster_decoder"
    (pkg / "src").mkdir(parents=True)
    (pkg / "package.xml").write_text("<package format=\"2\"><name>ouster_decoder</name><version>1.0.0</version></package>\n")
    (pkg / "src" / "lidar.h").write_text(
        "#include <sensor_msgs/Image.h>\nstruct LidarScan {\n  sensor_msgs::ImagePtr image_ptr;\n  void Allocate(int rows, int cols);\n};\n")
    (pkg / "src" / "lidar.cpp").write_text("#include \"lidar.h\"\n" + lidar_cpp)
    (pkg / "src" / "decoder.cpp").write_text(
        "#include \"lidar.h\"\nvoid Decoder::PublishAndReset() {\n  std_msgs::Header header;\n  header.frame_id = lidar_frame_;\n"
        "  cinfo_msg_->header = header;\n  camera_pub_.publish(scan_.image_ptr, cinfo_msg_);\n}\n")
    return [(f.location.file, f.location.line, f.level.name) for f in scan([str(root)]).findings if f.code == "MISSING_FRAME" and f.location]


def test_a_message_held_by_a_member_of_another_class_of_the_package(tmp_path: Path) -> None:
    """ouster_decoder: LidarScan (lidar.h) holds the image, made fresh in lidar.cpp and never given a header;
    the decoder publishes ``scan_.image_ptr``: a warning at the publish."""
    fresh = "void LidarScan::Allocate(int rows, int cols) {\n  image_ptr = boost::make_shared<sensor_msgs::Image>();\n  image_ptr->height = rows;\n}\n"
    assert _decoder(tmp_path / "a", fresh) == [("ouster_decoder/src/decoder.cpp", 6, "WARNING")]
    framed = fresh.replace("  image_ptr->height = rows;\n", "  image_ptr->height = rows;\n  image_ptr->header.frame_id = \"os_lidar\";\n")
    assert _decoder(tmp_path / "b", framed) == []
    # depthai-ros: `img->image = std::move(msg);` hands it a message built elsewhere, which may carry a frame
    handed = fresh + "void fill(LidarScan* scan, sensor_msgs::ImagePtr msg) {\n  scan->image_ptr = msg;\n}\n"
    assert _decoder(tmp_path / "c", handed) == []


def _petra(root: Path, kalman_body: str) -> list[tuple[str, int | None]]:
    pkg = root / "petra"
    (pkg / "msg").mkdir(parents=True)
    (pkg / "src").mkdir()
    (pkg / "package.xml").write_text("<package format=\"2\"><name>petra</name><version>1.0.0</version></package>\n")
    (pkg / "msg" / "Person.msg").write_text("Header header\ngeometry_msgs/Point position_person\n")
    (pkg / "msg" / "People.msg").write_text("Header header\npetra/Person[] people\n")
    (pkg / "src" / "euclidean.cpp").write_text(
        "void EuclideanCorrelation::correlatePeople(petra::People *people, std::vector<petra::Leg> *legs){\n"
        "  for (int i = 0; i < people->people.size(); i++){\n    people->people[i].name = \"person\";\n  }\n}\n")
    (pkg / "src" / "kalman.cpp").write_text(
        "void KalmanCorrelation::correlatePeople(petra::People *people, std::vector<petra::Leg> *legs){\n" + kalman_body + "}\n")
    (pkg / "src" / "petra.cpp").write_text(
        "void Petra::timerCallback(const ros::TimerEvent& t){\n  petra::People people;\n"
        "  if (euclidean_){\n    this->correlationEuclidean->correlatePeople(&people, &legs);\n  } else {\n"
        "    this->correlationKalman->correlatePeople(&people, &legs);\n  }\n"
        "  people.header.stamp = ros::Time::now();\n  people_pub.publish(people);\n}\n")
    return [(f.location.file, f.location.line) for f in scan([str(root)]).findings if f.code == "MISSING_FRAME" and f.location]


def test_a_message_handed_to_methods_that_never_write_its_frames_keeps_them(tmp_path: Path) -> None:
    """petra: two classes define ``correlatePeople``, which of them runs is chosen at run time; neither writes the
    header of the message it is given (the persons' headers inside are theirs), so its empty frame stays known."""
    inner = "  for (int i = 0; i < people->people.size(); i++){\n    person.header = legs->at(i).header;\n  }\n"
    assert _petra(tmp_path / "a", inner) == [("petra/src/petra.cpp", 9)]
    assert _petra(tmp_path / "b", inner + "  people->header.frame_id = \"laser\";\n") == []
    assert _petra(tmp_path / "c", "  fill(people);\n") == []  # handed on: what fill does is not followed


def test_a_frame_named_attribute_of_a_configuration_is_checked() -> None:
    """pyrobot's locobot_config.py: ``_BASEC.MAP_FRAME = "/map"`` is stamped on goals and used in lookups later."""
    text = '_BASEC = CN()\n_BASEC.MAP_FRAME = "/map"\n_BASEC.ROSTOPIC_MOVE_BASE_GOAL = "/move_base_simple/goal"\ncfg.base.frame_id = "/base"\n'
    facts = analyze_python(text, "cfg/locobot_config.py")
    assert _found(facts, "INVALID_FRAME_ID") == [2, 4]


MADER = """\
void FasterRos::clearMarkerArray(visualization_msgs::MarkerArray* tmp, ros::Publisher* publisher)
{
  for (int i = 0; i < (*tmp).markers.size(); i++)
  {
    visualization_msgs::Marker m;
    m.type = visualization_msgs::Marker::ARROW;
    m.action = visualization_msgs::Marker::DELETE;
    (*tmp).markers[i] = m;
  }
  (*publisher).publish(*tmp);
}

void FasterRos::clearAll()
{
  clearMarkerArray(&traj_safe_colored_, &pub_traj_safe_colored_);
}
"""


def test_markers_stored_by_index_into_an_array_are_published_with_it() -> None:
    """mader: every marker of the array is replaced by a fresh one with no frame and the array is published; the
    helper that builds the markers is the line to change, not the call that hands it the array."""
    assert _found(analyze_cpp(MADER, "src/faster_ros.cpp"), "MISSING_FRAME") == [10]
    framed = MADER.replace("    m.type =", "    m.header.frame_id = \"world\";\n    m.type =")
    assert _found(analyze_cpp(framed, "src/faster_ros.cpp"), "MISSING_FRAME") == []
    through = MADER.replace("    (*tmp).markers[i] = m;\n", "    (*tmp).markers[i] = m;\n    (*tmp).markers[i].header.frame_id = \"world\";\n")
    assert _found(analyze_cpp(through, "src/faster_ros.cpp"), "MISSING_FRAME") == []


ROS_NUMPY = """\
import rospy
from sensor_msgs.msg import Image, PointCloud2
from ros_numpy import msgify


def segment(self, pc_msg, depth_img, cloud):
    depth_msg = msgify(Image, depth_img, '32FC1')
    self.depth_pub.publish(depth_msg)
    out = msgify(PointCloud2, cloud)
    out.header = pc_msg.header
    self.cloud_pub.publish(out)
"""


def test_ros_numpy_msgify_makes_a_message_with_an_empty_header() -> None:
    """traversability_estimation: the debug depth image from ``msgify`` went out with no frame."""
    assert _found(analyze_python(ROS_NUMPY, "scripts/cloud_segmentation"), "MISSING_FRAME") == [8]


BODY_FILTER = """\
void RobotBodyFilter::computeAndPublishBoundingSphere()
{
  visualization_msgs::Marker msg;
  msg.header.frame_id = this->filteringFrame;
  msg.pose.position.x = center[0];
  msg.type = visualization_msgs::Marker::SPHERE;
  this->boundingSphereMarkerPublisher.publish(msg);
  visualization_msgs::msg::Marker ros2;
  ros2.header.frame_id = this->filteringFrame;
  this->ros2Publisher->publish(ros2);
}
"""


def test_a_ros1_marker_published_with_its_orientation_never_set() -> None:
    """robot_body_filter: a ROS 1 Marker's quaternion defaults to (0, 0, 0, 0), which RViz takes as the identity with
    a warning on the marker: a hint; ROS 2's is w = 1."""
    facts = analyze_cpp(BODY_FILTER, "src/RobotBodyFilter.cpp")
    assert [(f.location.line if f.location else None, f.level.name) for f in facts.findings if f.code == "INVALID_TRANSFORM"] == [(7, "INFO")]


CALIBRATION_VIZ = """\
void show(ros::Publisher& pub, const std::vector<geometry_msgs::PointStamped>& points) {
  visualization_msgs::MarkerArray markers;
  visualization_msgs::Marker clear;
  clear.action = visualization_msgs::Marker::DELETEALL;
  markers.markers.push_back(clear);
  visualization_msgs::Marker msg;
  msg.header.frame_id = "base_link";
  msg.type = msg.SPHERE_LIST;
  for (size_t p = 0; p < points.size(); ++p)
    msg.points.push_back(points[p].point);
  markers.markers.push_back(msg);
  visualization_msgs::Marker placed;
  placed.header.frame_id = "base_link";
  placed.pose.orientation.w = 1.0;
  markers.markers.push_back(placed);
  visualization_msgs::InteractiveMarkerControl control;
  visualization_msgs::Marker box;
  control.markers.push_back(box);
  pub.publish(markers);
}
"""


def test_a_ros1_marker_stored_into_an_array_with_its_orientation_never_set() -> None:
    """robot_calibration's viz tool: SPHERE_LIST markers, their shape given by points, pushed into the published
    MarkerArray with the pose never assigned: the same hint, at the push. A DELETEALL marker draws nothing and an
    interactive marker control's markers are not a MarkerArray: neither is hinted."""
    facts = analyze_cpp(CALIBRATION_VIZ, "src/tools/viz.cpp")
    assert [(f.location.line if f.location else None, f.level.name) for f in facts.findings if f.code == "INVALID_TRANSFORM"] == [(11, "INFO")]


QUAD_SDK_IMU = """\
void RobotInterface::publishImu() {
  sensor_msgs::Imu msg;
  msg.header.frame_id = "imu";
  imu_pub_.publish(msg);
}

void RawImu::publish(double gx) {
  sensor_msgs::Imu raw;
  raw.header.frame_id = "imu";
  raw.angular_velocity.x = gx;
  raw.orientation_covariance[0] = -1;
  raw_pub_.publish(raw);
  sensor_msgs::msg::Imu ros2;
  ros2.header.frame_id = "imu";
  ros2_pub_->publish(ros2);
}
"""


def test_a_ros1_imu_published_with_its_orientation_never_set() -> None:
    """quad-sdk's robot interface published a default sensor_msgs/Imu: in ROS 1 its orientation is (0, 0, 0, 0), no
    rotation (fixed to w = 1). An IMU that marks its orientation unknown (covariance[0] = -1) and ROS 2's (w = 1) are
    fine."""
    facts = analyze_cpp(QUAD_SDK_IMU, "spirit_utils/src/robot_interface.cpp")
    found = [f for f in facts.findings if f.code == "INVALID_TRANSFORM"]
    assert [(f.location.line if f.location else None, f.level.name) for f in found] == [(4, "WARNING")]
    assert "orientation_covariance[0] = -1" in found[0].message


CHIBI_TARGET = """\
#include <ros/ros.h>
#include <geometry_msgs/PoseStamped.h>
int main(int argc, char** argv)
{
  ros::init(argc, argv, "set_target");
  ros::NodeHandle nh, local_nh("~");
  geometry_msgs::PoseStamped target;
  local_nh.getParam("X", target.pose.position.x);
  local_nh.getParam("Y", target.pose.position.y);
  target.header.frame_id = "odom";
  ros::Publisher target_pub = nh.advertise<geometry_msgs::PoseStamped>("/chibi18/target", 100);
  target_pub.publish(target);
}
"""


def test_a_ros1_pose_published_with_its_orientation_never_set() -> None:
    """chibi18_2's target: a PoseStamped given only a position goes out with (0, 0, 0, 0) in ROS 1, which transformPose
    and the planners reject; the fix sets w = 1."""
    found = [(f.code, f.location.line if f.location else None) for f in analyze_cpp(CHIBI_TARGET, "src/set_target.cpp").findings]
    assert found == [("INVALID_TRANSFORM", 12)]
    fixed = CHIBI_TARGET.replace('  target.header.frame_id = "odom";', '  target.header.frame_id = "odom";\n  target.pose.orientation.w = 1.0;')
    assert analyze_cpp(fixed, "src/set_target.cpp").findings == []


ROSPY_DEFAULTS = """\
import rospy
import tf2_ros
from geometry_msgs.msg import TransformStamped
from sensor_msgs.msg import Imu


def main(pub, br):
    t = TransformStamped()
    t.header.frame_id = "odom"
    t.child_frame_id = "base_link"
    t.transform.translation.x = 1.0
    br.sendTransform(t)
    imu = Imu()
    imu.header.frame_id = "imu_link"
    pub.publish(imu)
    ok = TransformStamped()
    ok.header.frame_id = "odom"
    ok.child_frame_id = "base_footprint"
    ok.transform.rotation.w = 1.0
    br.sendTransform(ok)
"""


def test_rospy_messages_default_their_quaternions_to_zero() -> None:
    """rospy's messages, like roscpp's, default a quaternion to (0, 0, 0, 0): a transform broadcast with no rotation
    is dropped by tf2, an Imu with no orientation is no rotation. rclpy's default to the identity."""
    found = [(f.location.line if f.location else None, f.level.name) for f in analyze_python(ROSPY_DEFAULTS, "scripts/odom.py").findings
             if f.code == "INVALID_TRANSFORM"]
    assert found == [(12, "ERROR"), (15, "WARNING")]
    rclpy = ROSPY_DEFAULTS.replace("import rospy", "import rclpy")
    assert [f for f in analyze_python(rclpy, "scripts/odom.py").findings if f.code == "INVALID_TRANSFORM"] == []


def test_unknown_types_named_for_feedback_parameters_or_commands_are_not_stamped_data() -> None:
    """A header the code stamps on mavros' Param, roboteq's motor Feedback or mav_msgs' CommandTrajectory says when,
    not where: their use of the header is no evidence of a frame (the paper corpus' mavros, Mini-Lab, rotors)."""
    text = "void Node::send() {\n" + "".join(
        f"  {t} m{i};\n  m{i}.header.stamp = ros::Time::now();\n  pub{i}_.publish(m{i});\n"
        for i, t in enumerate(("mavros_msgs::Param", "roboteq_msgs::Feedback", "mav_msgs::CommandTrajectory", "uwb_msgs::RangeInfo"))) + "}\n"
    assert _found(analyze_cpp(text, "src/node.cpp"), "MISSING_FRAME") == [13]  # the range info alone


UNITREE_CONVERSION = """\
#include <nav_msgs/msg/odometry.hpp>
inline nav_msgs::msg::Odometry generateOdometryMsg(
    UNITREE_LEGGED_SDK::HighState &highState,
    rclcpp::Time now,
    std::string frame_id) {
    nav_msgs::msg::Odometry odometryStateMsg;

    odometryStateMsg.header.frame_id = frame_id;
    odometryStateMsg.header.stamp = now;
    odometryStateMsg.twist.twist.linear.x = highState.velocity[0];
    return odometryStateMsg;
}
"""

UNITREE_DRIVER = """\
void UnitreeDriver::publish_odometry_() {
    nav_msgs::msg::Odometry odometryStateMsg = generateOdometryMsg(high_state_, now(), odom_frame_id_);
    odom_pub_->publish(odometryStateMsg);
}
"""


def _sources(*sources: str) -> PackageSources:
    return PackageSources(lambda: list(sources))


def test_a_helper_returns_odometry_framed_but_with_no_child_frame() -> None:
    """unitree_ros' conversion.hpp and libpointmatcher_ros' pointMatcherTransformationToOdomMsg: the builder sets
    header.frame_id and never child_frame_id, and its callers publish what it returns (or nothing in the package
    calls it: a library's API). Reported at the builder's header.frame_id line, a warning."""
    facts = analyze_cpp(UNITREE_CONVERSION, "include/unitree_ros/conversion.hpp", package=_sources(UNITREE_DRIVER))
    assert [(f.code, f.location.line if f.location else None, f.level.name) for f in facts.findings] == [("MISSING_CHILD_FRAME", 8, "WARNING")]
    head = "inline nav_msgs::msg::Odometry generateOdometryMsg("
    library = UNITREE_CONVERSION.replace(head, "template<typename T>\nnav_msgs::msg::Odometry Conv::generateOdometryMsg(")
    assert _found(analyze_cpp(library, "src/conversion.cpp", package=_sources()), "MISSING_CHILD_FRAME") == [9]


OXTS_WRAPPER = """\
std_msgs::msg::Header RosNComWrapper::wrap_header_ncom_time(const NComRxC *nrx)
{
  auto header = std_msgs::msg::Header();
  header.frame_id = "WGS84";
  return header;
}

nav_msgs::msg::Odometry RosNComWrapper::wrap_odometry(const NComRxC *nrx)
{
  auto msg = nav_msgs::msg::Odometry();
  msg.header = RosNComWrapper::wrap_header_ncom_time(nrx);

  msg.child_frame_id = "";
  msg.pose.pose.position.x = nrx->mLat;
  return msg;
}
"""

OXTS_NODE = """\
void NComPublisherNode::odometry() {
  auto msgOdometry = RosNComWrapper::wrap_odometry(this->nrx);
  pubOdometry_->publish(msgOdometry);
}
"""


def test_a_helper_returns_odometry_with_its_child_frame_set_empty() -> None:
    """oxts_ros2_driver's wrap_odometry: ``msg.child_frame_id = "";`` and the node publishes what it returns. Reported
    at that line, the one to change."""
    facts = analyze_cpp(OXTS_WRAPPER, "src/ros_ncom_wrapper.cpp", package=_sources(OXTS_NODE))
    found = [f for f in facts.findings if f.code == "MISSING_CHILD_FRAME"]
    assert [(f.location.line if f.location else None, f.level.name) for f in found] == [(13, "WARNING")]
    assert 'returns it with child_frame_id set to ""' in found[0].message


REDTAIL = """\
sensor_msgs::Image::ConstPtr CaffeRos::computeOutputs()
{
    if (cur_img_ == nullptr)
        return nullptr;
    auto img = *cur_img_;
    auto out_msg = boost::make_shared<sensor_msgs::Image>();
    out_msg->header.stamp.sec  = img.header.stamp.sec;
    out_msg->header.stamp.nsec = img.header.stamp.nsec;
    out_msg->encoding = "32FC1";
    return out_msg;
}

void CaffeRos::spin()
{
    while (ros::ok())
    {
        auto out_msg = computeOutputs();
        if (out_msg != nullptr)
            output_pub_.publish(out_msg);
    }
}
"""


def test_a_helper_returning_a_message_or_nullptr_gives_the_message() -> None:
    """redtail's caffe_ros: computeOutputs() returns nullptr when there is no image yet, else an Image given only the
    source's stamp; spin() publishes it with no frame. ``return nullptr`` is no message, not an unknown one."""
    assert _found(analyze_cpp(REDTAIL, "ros/packages/caffe_ros/src/caffe_ros.cpp"), "MISSING_FRAME") == [19]


def test_a_helper_whose_callers_set_the_child_frame_is_no_finding() -> None:
    given = UNITREE_DRIVER.replace("    odom_pub_", "    odometryStateMsg.child_frame_id = base_frame_id_;\n    odom_pub_")
    assert _found(analyze_cpp(UNITREE_CONVERSION, "include/unitree_ros/conversion.hpp", package=_sources(given)), "MISSING_CHILD_FRAME") == []
    # calls not followed: handed to another function, written through a pointer (robot_localization's navsat_transform)
    for handed_on in ("void A::f() { fill(generateOdometryMsg(s, now(), frame_)); }\n",
                      "bool A::prepare(nav_msgs::msg::Odometry * gps_odom) {\n  *gps_odom = generateOdometryMsg(s, now(), f_);\n}\n"):
        assert _found(analyze_cpp(UNITREE_CONVERSION, "include/unitree_ros/conversion.hpp", package=_sources(handed_on)), "MISSING_CHILD_FRAME") == []
    part = "void A::f() { response->point = generateOdometryMsg(s, now(), f_).pose.pose.position; }\n"  # a part used: no call sends it
    assert _found(analyze_cpp(UNITREE_CONVERSION, "include/unitree_ros/conversion.hpp", package=_sources(part)), "MISSING_CHILD_FRAME") == [8]
    with_child = UNITREE_CONVERSION.replace("    return", "    odometryStateMsg.child_frame_id = \"base_link\";\n    return")
    assert _found(analyze_cpp(with_child, "include/unitree_ros/conversion.hpp", package=_sources(UNITREE_DRIVER)), "MISSING_CHILD_FRAME") == []


BEAM_SLAM = """\
void InertialOdometry::RegisterImuMessage(const sensor_msgs::Imu& msg) {
  nav_msgs::Odometry odom_msg;
  odom_msg.header.stamp = msg.header.stamp;
  odom_msg.header.frame_id = extrinsics_.GetBaselinkFrameId();
  odom_msg.child_frame_id = extrinsics_.GetWorldFrameId();
  init_odom_publisher_.publish(odom_msg);
}
"""


def test_a_message_whose_frame_and_child_names_are_swapped() -> None:
    """beam_slam's inertial odometry: the pose of the base in the world, published with the base as its frame and the
    world as its child (getters of one config object name them); a transform's own slots read back are not judged."""
    facts = analyze_cpp(BEAM_SLAM, "bs_models/src/inertial_odometry.cpp")
    assert _found(facts, "REVERSED_NAME") == [4]
    copied = BEAM_SLAM.replace("extrinsics_.GetBaselinkFrameId()", "stf.child_frame_id").replace("extrinsics_.GetWorldFrameId()", "stf.header.frame_id")
    assert _found(analyze_cpp(copied, "bs_models/src/inertial_odometry.cpp"), "REVERSED_NAME") == []
    # depthai-ros' TFPublisher: the optical frame hangs under the camera frame another transform names as its child
    chained = BEAM_SLAM.replace("extrinsics_.GetBaselinkFrameId()", "ts.child_frame_id").replace("extrinsics_.GetWorldFrameId()", "optical_frame")
    assert _found(analyze_cpp(chained, "depthai_bridge/src/TFPublisher.cpp"), "REVERSED_NAME") == []
    py = ("def register(self, msg):\n    odom = Odometry()\n    odom.header.frame_id = self.extrinsics.get_baselink_frame_id()\n"
          "    odom.child_frame_id = self.extrinsics.get_world_frame_id()\n    self.pub.publish(odom)\n")
    assert _found(analyze_python(py, "inertial_odometry.py"), "REVERSED_NAME") == [3]


def test_methods_of_a_class_defined_where_its_object_is_declared() -> None:
    """ros_tms' mimamorukun node: `class MachinePose_s { MachinePose_s() { m_Odom.header.frame_id = "/odom"; } ... } mchn_pose;`."""
    text = """\
#include <nav_msgs/Odometry.h>
class MachinePose_s {
 public:
  MachinePose_s() {
    m_Odom.header.frame_id = "/odom";
  }
  nav_msgs::Odometry m_Odom;
} mchn_pose;
"""
    assert _found(analyze_cpp(text, "src/mimamorukun_node.cpp"), "INVALID_FRAME_ID") == [5]


def test_a_frame_written_out_as_a_parameter_default() -> None:
    """Platooning-F1Tenth's `def visualize_point(self, pts, publisher, frame='/map')`, and the C++ form."""
    py = "def visualize_point(self, pts, publisher, frame='/map', r=1.0):\n    marker = Marker()\n    marker.header.frame_id = frame\n"
    assert _found(analyze_python(py, "scripts/pure_pursuit.py"), "INVALID_FRAME_ID") == [1]
    cpp = ('void Viz::show(const Points& pts,\n               const std::string& frame = "/map") {\n'
           '  visualization_msgs::Marker m;\n  m.header.frame_id = frame;\n}\n')
    assert _found(analyze_cpp(cpp, "src/viz.cpp"), "INVALID_FRAME_ID") == [2]
    assert _found(analyze_python(py.replace("'/map'", "'map'"), "scripts/pure_pursuit.py"), "INVALID_FRAME_ID") == []


def test_a_broadcast_frame_with_a_slash_enters_the_tree_without_it(tmp_path: Path) -> None:
    """wato_f1tenth's particle filter sent '/map' -> '/laser' while its launch file published base_link -> laser:
    tf2 strips the slash on insert, so laser has two parents. The finding points where the code names its child
    frame (the line the fix changes), not at the sendTransform below it."""
    pkg = tmp_path / "pf"
    (pkg / "launch").mkdir(parents=True)
    (pkg / "pf").mkdir()
    (pkg / "package.xml").write_text("<package format=\"3\"><name>pf</name><buildtool_depend>ament_python</buildtool_depend></package>\n")
    (pkg / "setup.py").write_text("from setuptools import setup\nsetup(name='pf', entry_points={'console_scripts': ['pf = pf.node:main']})\n")
    (pkg / "pf" / "node.py").write_text(
        "from geometry_msgs.msg import TransformStamped\n\n\ndef publish_tf(self, pose):\n    t = TransformStamped()\n"
        "    t.header.frame_id = '/map'\n    t.child_frame_id = '/laser'\n    t.transform.rotation.w = 1.0\n    self.br.sendTransform(t)\n")
    (pkg / "launch" / "pf.launch.py").write_text(
        "from launch import LaunchDescription\nfrom launch_ros.actions import Node\n\n\ndef generate_launch_description():\n"
        "    return LaunchDescription([\n        Node(package='pf', executable='pf'),\n"
        "        Node(package='tf2_ros', executable='static_transform_publisher', arguments=['0', '0', '0', '0', '0', '0', 'base_link', 'laser']),\n"
        "    ])\n")
    found = [(f.location.file, f.location.line) for f in scan([str(tmp_path)]).findings
             if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE" and f.location]
    assert found == [("pf/pf/node.py", 7)]


def test_parent_and_child_swapped_are_reported_where_the_frames_are_named(tmp_path: Path) -> None:
    """rf2o_laser_odometry: `odom_trans.header.frame_id = base_frame_id; odom_trans.child_frame_id = odom_frame_id;`,
    sent seven lines below. The order finding points at the frames (the lines the fix swaps), not at sendTransform."""
    pkg = tmp_path / "rf2o"
    (pkg / "src").mkdir(parents=True)
    (pkg / "package.xml").write_text("<package format=\"2\"><name>rf2o</name><buildtool_depend>catkin</buildtool_depend></package>\n")
    (pkg / "src" / "odometry.cpp").write_text("""\
void CLaserOdometry2D::PublishResults()
{
    geometry_msgs::TransformStamped odom_trans;
    odom_trans.header.stamp = ros::Time::now();
    odom_trans.header.frame_id = "base_link";
    odom_trans.child_frame_id = "odom";
    odom_trans.transform.translation.x = robot_pose.x();
    odom_trans.transform.translation.y = robot_pose.y();
    odom_trans.transform.translation.z = 0.0;
    odom_trans.transform.rotation = tf::createQuaternionMsgFromYaw(yaw);
    odom_broadcaster.sendTransform(odom_trans);
}
""")
    found = [(f.location.file, f.location.line) for f in scan([str(tmp_path)]).findings
             if f.code == "INCORRECT_FRAME_ORDER_IN_TREE" and f.location]
    assert found == [("rf2o/src/odometry.cpp", 6)]


PX4FLOW = """\
void SerialComm::readCallback(const mavlink_optical_flow_t& flow)
{
    px_comm::OpticalFlow optFlowMsg;
    optFlowMsg.header.stamp = ros::Time(flow.time_usec / 1000000, flow.time_usec % 1000000);
    optFlowMsg.velocity_x = flow.flow_comp_m_x;
    optFlowMsg.velocity_y = flow.flow_comp_m_y;
    m_optFlowPub.publish(optFlowMsg);
}
"""


def test_a_message_of_a_package_not_named_msgs(tmp_path: Path) -> None:
    """px-ros-pkg's px4flow node publishes px_comm::OpticalFlow with only its stamp set. Scanned alone, the type's
    package is a ROS package namespace and its header is used: a warning. Scanned with px_comm, whose OpticalFlow.msg
    has a header and velocities along x and y, it is stamped data: an error. A library's type is no message."""
    assert [(f.code, f.location and f.location.line) for f in analyze_cpp(PX4FLOW, "SerialComm.cc").findings] == [("MISSING_FRAME", 7)]
    assert analyze_cpp(PX4FLOW.replace("px_comm::OpticalFlow", "cv::Mat"), "SerialComm.cc").findings == []
    # rosflight's fcu_common::OutputRaw: motor outputs, no axis written, so nothing says its frame matters
    outputs = PX4FLOW.replace("px_comm::OpticalFlow", "fcu_common::OutputRaw").replace("velocity_x", "values[0]").replace("velocity_y", "values[1]")
    assert analyze_cpp(outputs, "fcu_io.cpp").findings == []
    comm = tmp_path / "px_comm"
    (comm / "msg").mkdir(parents=True)
    (comm / "package.xml").write_text("<package format=\"2\"><name>px_comm</name><version>1.0.0</version></package>\n")
    (comm / "msg" / "OpticalFlow.msg").write_text(
        "Header header\n\nfloat32 ground_distance  # distance to ground in meters\nint16   flow_x\nint16   flow_y\n"
        "float32 velocity_x       # x-component of scaled optical flow in m/s\nfloat32 velocity_y\nuint8   quality\n")
    node = tmp_path / "px4flow_node"
    (node / "src").mkdir(parents=True)
    (node / "package.xml").write_text("<package format=\"2\"><name>px4flow_node</name><version>1.0.0</version></package>\n")
    (node / "src" / "SerialComm.cc").write_text(PX4FLOW)
    found = [(f.location.file, f.location.line, f.level.name) for f in scan([str(tmp_path)]).findings if f.code == "MISSING_FRAME" and f.location]
    assert found == [("px4flow_node/src/SerialComm.cc", 7, "ERROR")]


RADAR_FILTER = """\
RadarPassthroughFilter::RadarPassthroughFilter(ros::NodeHandle node_handle, ros::NodeHandle node_handle_private)
{
    pub_radar_data_ = nh_private_.advertise<ainstein_radar_msgs::RadarTargetArray>("radar_out", 10);
}

void RadarPassthroughFilter::radarDataCallback(const ainstein_radar_msgs::RadarTargetArray::ConstPtr& msg)
{
    ainstein_radar_msgs::RadarTargetArray msg_filt;
    data_conversions::pclCloudToRadarTargetArray(pcl_cloud_filt, msg_filt);
    msg_filt.header.stamp = msg->header.stamp;
    pub_radar_data_.publish(msg_filt);
}
"""

# the package's helper fills the targets only
RADAR_CONVERSIONS = """\
namespace ainstein_radar_filters {
class data_conversions {
  public:
    static void pclCloudToRadarTargetArray(const pcl::PointCloud<PointRadarTarget>& pcl_cloud,
                                           ainstein_radar_msgs::RadarTargetArray& target_array)
    {
      target_array.targets.clear();
      ainstein_radar_msgs::RadarTarget target;
      for (auto pcl_point : pcl_cloud.points)
      {
        pclPointToRadarTarget(pcl_point, target);
        target_array.targets.push_back(target);
      }
    }
};
}
"""


def test_a_message_of_polar_coordinates_is_placed_in_space(tmp_path: Path) -> None:
    """ainstein_radar's passthrough filter publishes a RadarTargetArray with only its stamp: its targets hold a range and
    angles in the radar's frame (RadarTarget.msg: range, azimuth, elevation), so it is stamped data. A message with a
    range and no angle (a battery's 'range' of charge) proves nothing."""
    msgs = tmp_path / "ainstein_radar_msgs"
    (msgs / "msg").mkdir(parents=True)
    (msgs / "package.xml").write_text("<package format=\"2\"><name>ainstein_radar_msgs</name><version>1.0.0</version></package>\n")
    (msgs / "msg" / "RadarTargetArray.msg").write_text("std_msgs/Header header\n\nRadarTarget[] targets\n")
    (msgs / "msg" / "RadarTarget.msg").write_text(
        "uint16 target_id    # ID of the target\nfloat64 snr\nfloat64 range       # Distance from sensor to target\n"
        "float64 speed\nfloat64 azimuth     # Angle of target relative to sensor within x-y plane\nfloat64 elevation\n")
    node = tmp_path / "ainstein_radar_filters"
    (node / "src").mkdir(parents=True)
    (node / "package.xml").write_text("<package format=\"2\"><name>ainstein_radar_filters</name><version>1.0.0</version></package>\n")
    (node / "src" / "radar_passthrough_filter.cpp").write_text('#include "ainstein_radar_filters/data_conversions.h"\n' + RADAR_FILTER)
    (node / "include" / "ainstein_radar_filters").mkdir(parents=True)
    (node / "include" / "ainstein_radar_filters" / "data_conversions.h").write_text(RADAR_CONVERSIONS)
    found = [(f.location.file, f.location.line, f.level.name) for f in scan([str(tmp_path)]).findings if f.code == "MISSING_FRAME" and f.location]
    assert found == [("ainstein_radar_filters/src/radar_passthrough_filter.cpp", 12, "ERROR")]
    (msgs / "msg" / "RadarTarget.msg").write_text("uint16 target_id\nfloat64 range\nfloat64 speed\n")
    assert [f for f in scan([str(tmp_path)]).findings if f.code == "MISSING_FRAME"] == []


RTIMULIB = """\
#include <ros/ros.h>
#include <sensor_msgs/Imu.h>
#include "RTIMULib.h"
int main(int argc, char **argv)
{
    ros::NodeHandle n;
    ros::Publisher imu_pub = n.advertise<sensor_msgs::Imu>("imu", 1);
    RTIMU *imu = RTIMU::createIMU(settings);
    sensor_msgs::Imu imu_msg;
    while (ros::ok())
    {
        RTIMU_DATA imu_data = imu->getIMUData();
        imu_msg.header.stamp = ros::Time::now();
        imu_msg.header.frame_id = "imu_link";
        imu_msg.orientation.x = imu_data.fusionQPose.x();
        imu_msg.orientation.y = imu_data.fusionQPose.y();
        imu_msg.orientation.z = imu_data.fusionQPose.z();
        imu_msg.orientation.w = imu_data.fusionQPose.scalar();
        imu_pub.publish(imu_msg);
    }
}
"""


def test_a_ned_librarys_attitude_copied_straight_into_an_imu() -> None:
    """rtimulib_ros copied RTIMULib's fusion quaternion (NED) into the Imu's orientation as it was; the fix swaps x and y
    and negates z."""
    found = [(f.code, f.location.line if f.location else None) for f in analyze_cpp(RTIMULIB, "src/rtimulib_ros.cpp").findings]
    assert found == [("INCORRECT_TRANSFORM", 15)]
    converted = (RTIMULIB.replace("orientation.x = imu_data.fusionQPose.x()", "orientation.x = imu_data.fusionQPose.y()")
                 .replace("orientation.y = imu_data.fusionQPose.y()", "orientation.y = imu_data.fusionQPose.x()")
                 .replace("orientation.z = imu_data.fusionQPose.z()", "orientation.z = -imu_data.fusionQPose.z()"))
    assert analyze_cpp(converted, "src/rtimulib_ros.cpp").findings == []


PX4_ODOMETRY = """\
#include <px4_msgs/msg/vehicle_odometry.hpp>
#include <geometry_msgs/msg/pose_stamped.hpp>
class PathPlanning : public rclcpp::Node {
  void vehicle_odometry_callback(const px4_msgs::msg::VehicleOdometry::UniquePtr msg)
  {
    vehicle_pose_.header.frame_id = "map";
    vehicle_pose_.pose.position.x = static_cast<double>(msg->position[0]);
    vehicle_pose_.pose.orientation.x = static_cast<double>(msg->q[1]);
    vehicle_pose_.pose.orientation.y = static_cast<double>(msg->q[2]);
    vehicle_pose_.pose.orientation.z = static_cast<double>(msg->q[3]);
    vehicle_pose_.pose.orientation.w = static_cast<double>(msg->q[0]);
    vehicle_pose_publisher_->publish(vehicle_pose_);
  }
  geometry_msgs::msg::PoseStamped vehicle_pose_;
};
"""


def test_px4s_attitude_copied_straight_into_a_ros_orientation() -> None:
    """ROS2_offboard_drone_control (and mr-radio-localization's offboard nodes) put VehicleOdometry's q, w first and
    NED over FRD, into a pose in `map` component for component: the order is right, the frame is not (REP-103
    orientations are ENU over FLU). Only in a file reading px4_msgs' attitude: elsewhere `q[0]` is anyone's."""
    found = [(f.code, f.location.line if f.location else None) for f in analyze_cpp(PX4_ODOMETRY, "src/path_planning.cpp").findings
             if f.code == "INCORRECT_TRANSFORM"]
    assert found == [("INCORRECT_TRANSFORM", 8)]
    elsewhere = PX4_ODOMETRY.replace("px4_msgs/msg/vehicle_odometry.hpp", "my_msgs/attitude.hpp").replace(
        "px4_msgs::msg::VehicleOdometry", "my_msgs::msg::Attitude")
    assert [f for f in analyze_cpp(elsewhere, "src/path_planning.cpp").findings if f.code == "INCORRECT_TRANSFORM"] == []


SONAR_VIEWER = """\
#include <sensor_msgs/msg/image.hpp>
void publishFan(const Ping& ping, const std::string& frame_id = "") {
  sensor_msgs::msg::Image img;
  img.header.stamp = ping.stamp;
  img.header.frame_id = frame_id;
  pub->publish(img);
}
void handlePing(const Ping& ping) {
  publishFan(ping);
  publishFan(ping, "sonar");
}
"""


def test_a_helper_frame_parameter_defaulting_to_empty_is_reported_where_a_call_leaves_it_out() -> None:
    """oculus_ros2's ``publishFan(ping, frame_id = "")``: the call that leaves the frame out publishes the sonar
    image with none, and is reported there; the helper alone, or called with a frame, says nothing (its default
    asks the caller for one)."""
    found = [(f.code, f.location.line if f.location else None) for f in analyze_cpp(SONAR_VIEWER, "src/sonar.cpp").findings]
    assert found == [("MISSING_FRAME", 9)]
    assert analyze_cpp(SONAR_VIEWER.replace("  publishFan(ping);\n", ""), "src/sonar.cpp").findings == []


def test_a_whole_header_copied_from_a_message_framed_field_by_field() -> None:
    """kr_autonomous_flight's UKF nodelet: `odom->header.frame_id = world_frame_id_;` then the broadcast's
    `transform_msg.header = odom->header;`: the header travels whole, frame included (for a pointer and a plain message)."""
    text = """\
void Ukf::imu_callback(const sensor_msgs::Imu &imu_msg) {
  auto odom = boost::make_shared<nav_msgs::Odometry>();
  odom->header.stamp = imu_msg.header.stamp;
  odom->header.frame_id = "world";
  odom->child_frame_id = "base_link";
  geometry_msgs::TransformStamped transform_msg;
  transform_msg.header = odom->header;
  transform_msg.child_frame_id = odom->child_frame_id;
  tf_broadcaster_.sendTransform(transform_msg);
}
"""
    for source in (text, text.replace("auto odom = boost::make_shared<nav_msgs::Odometry>();", "nav_msgs::Odometry o;").replace("odom->", "o.")):
        assert [(e.parent, e.child) for e in analyze_cpp(source, "src/ukf.cpp").edges] == [("world", "base_link")]
