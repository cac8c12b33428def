"""Where real drivers keep their frame names (issue 11's coverage failures): each test is a small fixture
written from the idiom of a repository where the scanner extracted no frame at all."""

from __future__ import annotations

from pathlib import Path

from scan.trees import write_tree

from physframe_ros.scan.code import analyze_cpp
from physframe_ros.scan.code.helpers import message_helpers
from physframe_ros.scan.scanner import scan

# stereolabs/zed-ros2-wrapper: the frame names are member defaults in the class header
# (zed_camera_component.hpp), the base frame is the camera name plus a suffix, built with `+=`
# (zed_camera_component_main.cpp:1657-1658), and one transform is a shared_ptr sent as `*msg`.
ZED_HEADER = """\
namespace stereolabs {
class ZedCamera : public rclcpp::Node {
private:
  std::string mCameraName = "zed";             // Default camera name
  std::string mBaseFrameId;
  std::string mMapFrameId = "map";
  std::string mOdomFrameId{"odom"};
  std::string mUnsetFrameId = "";
  std::unique_ptr<tf2_ros::TransformBroadcaster> mTfBroadcaster;
};
}
"""

ZED_SOURCE = """\
#include "zed_camera_component.hpp"
namespace stereolabs {
void ZedCamera::getPosTrackingParams()
{
  mBaseFrameId = mCameraName;
  mBaseFrameId += "_camera_link";
  sl_tools::getParam(shared_from_this(), "pos_tracking.map_frame", mMapFrameId, mMapFrameId, " * Map frame id: ");
}
void ZedCamera::publishOdomTF(rclcpp::Time t)
{
  geometry_msgs::msg::TransformStamped transformStamped;
  transformStamped.header.stamp = t;
  transformStamped.header.frame_id = mOdomFrameId;
  transformStamped.child_frame_id = mBaseFrameId;
  mTfBroadcaster->sendTransform(transformStamped);
}
void ZedCamera::publishMapTF()
{
  auto transformStamped = std::make_shared<geometry_msgs::msg::TransformStamped>();
  transformStamped->header.frame_id = mMapFrameId;
  transformStamped->child_frame_id = mCameraName + "_odom";
  mTfBroadcaster->sendTransform(*transformStamped);
}
void ZedCamera::publishUnset()
{
  geometry_msgs::msg::TransformStamped unset;
  unset.header.frame_id = mUnsetFrameId;
  unset.child_frame_id = mOdomFrameId;
  mTfBroadcaster->sendTransform(unset);
}
}
"""


def test_member_defaults_in_the_class_header_name_the_frames() -> None:
    header = ("zed_components/src/zed_camera/include/zed_camera_component.hpp", ZED_HEADER)
    facts = analyze_cpp(ZED_SOURCE, "zed_components/src/zed_camera/src/zed_camera_component_main.cpp", headers=[ZED_HEADER], helpers=[header])
    assert sorted((e.parent, e.child, e.sources[0].line) for e in facts.edges) == [("map", "zed_odom", 22), ("odom", "zed_camera_link", 15)]
    # an empty header default says nothing (another .cpp of the class may set the member): no MISSING_FRAME
    assert facts.findings == []
    # without the header the names are unknown: no edge, no finding
    bare = analyze_cpp(ZED_SOURCE, "zed_camera_component_main.cpp")
    assert bare.edges == [] and bare.findings == []


def test_the_header_is_found_in_the_include_folder_beside_src(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "zed_components/package.xml": "<package format='3'><name>zed_components</name></package>",
        "zed_components/src/zed_camera/include/zed_camera_component.hpp": ZED_HEADER,
        "zed_components/src/zed_camera/src/zed_camera_component_main.cpp": ZED_SOURCE,
    })  # fmt: skip
    result = scan([root])
    assert {(e.parent, e.child) for e in result.expected.edges} == {("map", "zed_odom"), ("odom", "zed_camera_link")}


# ouster-lidar/ouster-ros: the TransformStamped is built by a helper of another file of the package
# (src/os_ros.cpp:183-195) and broadcast from a header with frame names from brace-initialised parameter
# defaults (src/os_transforms_broadcaster.h:31-32, 79-90), on /tf_static or /tf as a parameter chooses.
OUSTER_HELPER = """\
#include "ouster_ros/os_ros.h"
namespace ouster_ros {
geometry_msgs::TransformStamped transform_to_tf_msg(
    const mat4d& mat, const std::string& frame,
    const std::string& child_frame, ros::Time timestamp) {
    Eigen::Affine3d aff;
    aff.linear() = mat.block<3, 3>(0, 0);  // a brace in a comment: {
    geometry_msgs::TransformStamped msg = tf2::eigenToTransform(aff);
    msg.header.stamp = timestamp;
    msg.header.frame_id = frame;
    msg.child_frame_id = child_frame;
    return msg;
}
}
"""

OUSTER_DECLARATION = """\
namespace ouster_ros {
geometry_msgs::TransformStamped transform_to_tf_msg(
    const mat4d& mat, const std::string& frame,
    const std::string& child_frame, ros::Time timestamp);
}
"""

OUSTER_BROADCASTER = """\
#pragma once
#include <tf2_ros/static_transform_broadcaster.h>
#include <tf2_ros/transform_broadcaster.h>
namespace ouster_ros {
class OusterTransformsBroadcaster {
   public:
    void parse_parameters(ros::NodeHandle& pnh) {
        sensor_frame = pnh.param("sensor_frame", std::string{"os_sensor"});
        lidar_frame = pnh.param("lidar_frame", std::string{"os_lidar"});
    }
    void broadcast_transforms(const SensorInfo& info) {
        auto now = ros::Time::now();
        static_tf_bcast.sendTransform(transform_to_tf_msg(
            info.lidar_to_sensor_transform, sensor_frame, lidar_frame, now));
    }
    void broadcast_transforms(const SensorInfo& info, const ros::Time& ts) {
        tf_bcast.sendTransform(transform_to_tf_msg(
            info.lidar_to_sensor_transform, sensor_frame, lidar_frame, ts));
    }
   private:
    tf2_ros::StaticTransformBroadcaster static_tf_bcast;
    tf2_ros::TransformBroadcaster tf_bcast;
    std::string lidar_frame;
    std::string sensor_frame;
};
}
"""


def test_a_message_helper_of_another_file_of_the_package_is_followed(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "ouster-ros/package.xml": "<package format='3'><name>ouster_ros</name></package>",
        "ouster-ros/include/ouster_ros/os_ros.h": OUSTER_DECLARATION,
        "ouster-ros/src/os_ros.cpp": OUSTER_HELPER,
        "ouster-ros/src/os_transforms_broadcaster.h": OUSTER_BROADCASTER,
    })  # fmt: skip
    result = scan([root])
    assert sorted((e.parent, e.child, e.static, e.sources[0].line) for e in result.expected.edges) == [
        ("os_sensor", "os_lidar", False, 17),
        ("os_sensor", "os_lidar", True, 13),
    ]
    # one program choosing /tf_static or /tf at run time is no STATIC_DYNAMIC_CONFLICT
    assert [f.code for f in result.findings if f.code != "PARSE_ERROR"] == []
    # the helper outside the package (or absent) is a call not followed: nothing is extracted
    alone = analyze_cpp(OUSTER_BROADCASTER, "src/os_transforms_broadcaster.h")
    assert alone.edges == [] and alone.findings == []


def test_only_one_definition_returning_a_message_is_a_helper() -> None:
    twice = OUSTER_HELPER + OUSTER_HELPER.replace("ouster_ros", "other")
    assert list(message_helpers([OUSTER_HELPER, OUSTER_DECLARATION])) == ["transform_to_tf_msg"]
    assert message_helpers([twice]) == {}
    assert message_helpers(["std::string frame_of(int i) {\n  return \"map\";\n}\n"]) == {}


# mavlink/mavros mavros_extras/src/plugins/landing_target.cpp:424-429: a target's size in a Vector3Stamped
# whose header the code never writes; wind_estimation.cpp:72-83: a wind velocity stamped but with no frame.
MAVROS_PLUGIN = """\
void LandingTargetPlugin::handle_landing_target(const LANDING_TARGET & land_target)
{
  geometry_msgs::msg::Vector3Stamped tg_size_msg;
  tg_size_msg.vector.x = target_size_x;
  tg_size_msg.vector.y = target_size_y;
  tg_size_msg.vector.z = 0.0;
  lt_marker_pub->publish(tg_size_msg);

  auto twist_cov = geometry_msgs::msg::TwistWithCovarianceStamped();
  twist_cov.header.stamp = node->now();
  twist_cov.twist.twist.linear.x = speed * std::sin(course);
  wind_pub->publish(twist_cov);

  geometry_msgs::msg::PoseStamped pose;
  pose.pose.position.z = 2;
  local_pos_pub->publish(pose);
}
"""


def test_a_vector3_stamped_whose_header_is_never_written_is_only_a_warning() -> None:
    facts = analyze_cpp(MAVROS_PLUGIN, "mavros_extras/src/plugins/landing_target.cpp")
    assert [(f.code, f.location.line if f.location else None, f.level.value) for f in facts.findings] == [
        ("MISSING_FRAME", 7, "warning"),
        ("MISSING_FRAME", 12, "error"),
        ("MISSING_FRAME", 16, "error"),  # a pose always has a frame, header written or not
    ]


# CCNYRoboticsLab/imu_tools imu_filter_madgwick/src/imu_filter_ros.cpp: the fixed frame is a parameter with
# a fallback in an `if` (:45-46), the IMU frame comes from each incoming message (:178), and the filter
# broadcasts fixed -> imu (:340-347) and looks up fixed <- imu (:434).
IMU_FILTER = """\
ImuFilterRos::ImuFilterRos(ros::NodeHandle nh, ros::NodeHandle nh_private)
{
    if (!nh_private_.getParam("fixed_frame", fixed_frame_))
        fixed_frame_ = "odom";
}

void ImuFilterRos::imuCallback(const ImuMsg::ConstPtr& imu_msg_raw)
{
    imu_frame_ = imu_msg_raw->header.frame_id;
    publishTransform(imu_msg_raw);
}

void ImuFilterRos::publishTransform(const ImuMsg::ConstPtr& imu_msg_raw)
{
    geometry_msgs::TransformStamped transform;
    transform.header.stamp = imu_msg_raw->header.stamp;
    transform.header.frame_id = fixed_frame_;
    transform.child_frame_id = imu_frame_;
    transform.transform.rotation.w = 1.0;
    tf_broadcaster_.sendTransform(transform);
}

void ImuFilterRos::publishRawMsg(const ImuMsg::ConstPtr& imu_msg)
{
    geometry_msgs::TransformStamped transform;
    transform = tf_buffer_.lookupTransform(fixed_frame_, imu_msg->header.frame_id, imu_msg->header.stamp);
}
"""


def test_a_frame_known_only_at_run_time_leaves_a_partial_edge(tmp_path: Path) -> None:
    facts = analyze_cpp(IMU_FILTER, "imu_filter_madgwick/src/imu_filter_ros.cpp")
    assert facts.edges == [] and facts.lookups == [] and facts.findings == []
    assert [(p.parent, p.child, p.kind, p.location.line if p.location else None) for p in facts.partial_edges] == [
        ("odom", None, "broadcast", 20),
        ("odom", None, "lookup", 26),
    ]
    root = write_tree(tmp_path, {"imu_filter_madgwick/src/imu_filter_ros.cpp": IMU_FILTER})
    exported = scan([root]).expected.to_dict()
    assert exported["edges"] == [] and [(p["parent"], p["child"], p["kind"]) for p in exported["partial_edges"]] == [
        ("odom", None, "broadcast"),
        ("odom", None, "lookup"),
    ]


# Ekumen-OS/beluga: the base class declares the frame parameters in one file (beluga_amcl/src/ros2_common.cpp:36-42)
# and the node reads them in another (amcl_node.cpp:629-634) into a message built as `T{}`.
BELUGA_COMMON = """\
BaseAMCLNode::BaseAMCLNode(const std::string& node_name, const rclcpp::NodeOptions& options)
    : rclcpp_lifecycle::LifecycleNode(node_name, "", options) {
  {
    auto descriptor = rcl_interfaces::msg::ParameterDescriptor();
    descriptor.description = "The name of the coordinate frame published by the localization system.";
    this->declare_parameter("global_frame_id", rclcpp::ParameterValue("map"), descriptor);
  }
  {
    auto descriptor = rcl_interfaces::msg::ParameterDescriptor();
    this->declare_parameter("odom_frame_id", rclcpp::ParameterValue("odom"), descriptor);
  }
}
"""

BELUGA_NODE = """\
void AmclNode::laser_callback(sensor_msgs::msg::LaserScan::ConstSharedPtr laser_scan) {
  if (enable_tf_broadcast_) {
    auto message = geometry_msgs::msg::TransformStamped{};
    message.header.stamp = laser_scan->header.stamp;
    message.header.frame_id = get_parameter("global_frame_id").as_string();
    message.child_frame_id = get_parameter("odom_frame_id").as_string();
    message.transform = tf2::toMsg(map_to_odom_transform);
    tf_broadcaster_->sendTransform(message);
  }
}
"""


def test_parameters_the_package_declares_in_another_file_have_their_default(tmp_path: Path) -> None:
    root = write_tree(tmp_path, {
        "beluga_amcl/package.xml": "<package format='3'><name>beluga_amcl</name></package>",
        "beluga_amcl/src/ros2_common.cpp": BELUGA_COMMON,
        "beluga_amcl/src/amcl_node.cpp": BELUGA_NODE,
    })  # fmt: skip
    result = scan([root])
    assert [(e.parent, e.child, e.sources[0].file, e.sources[0].line) for e in result.expected.edges] == [
        ("map", "odom", "beluga_amcl/src/amcl_node.cpp", 8)
    ]
    assert result.findings == []
    # a name the package declares with two defaults says nothing
    other = BELUGA_COMMON.replace('ParameterValue("map")', 'ParameterValue("world")').replace("BaseAMCLNode", "OtherNode")
    root2 = write_tree(tmp_path / "two", {
        "beluga_amcl/package.xml": "<package format='3'><name>beluga_amcl</name></package>",
        "beluga_amcl/src/ros2_common.cpp": BELUGA_COMMON,
        "beluga_amcl/src/other_node.cpp": other,
        "beluga_amcl/src/amcl_node.cpp": BELUGA_NODE,
    })  # fmt: skip
    assert scan([root2]).expected.edges == []


# ros-perception/image_pipeline: every tf2 call takes its frames from incoming messages; the one frame the
# source names is image_publisher's default data frame (image_publisher.cpp:65, :154, :159).
IMAGE_PUBLISHER = """\
ImagePublisher::ImagePublisher(const rclcpp::NodeOptions & options)
: rclcpp::Node("ImagePublisher", options)
{
  pub_ = image_transport::create_camera_publisher(this, "image_raw");
  frame_id_ = this->declare_parameter("frame_id", std::string("camera"));
}

void ImagePublisher::doWork()
{
  sensor_msgs::msg::Image::SharedPtr out_img = cv_bridge::CvImage(std_msgs::msg::Header(), "bgr8", image_).toImageMsg();
  out_img->header.frame_id = frame_id_;
  out_img->header.stamp = rclcpp::Clock().now();
  camera_info_.header.frame_id = out_img->header.frame_id;
  pub_.publish(*out_img, camera_info_);
}

void ImageRotateNode::imageCallback(const sensor_msgs::msg::Image::ConstSharedPtr & msg)
{
  sensor_msgs::msg::Image::SharedPtr out_img = cv_bridge::CvImage(msg->header, msg->encoding, out_image).toImageMsg();
  out_img->header.frame_id = msg->header.frame_id + "_rotated";
  img_pub_.publish(out_img);
}
"""


def test_frames_stamped_on_published_data_are_data_frames(tmp_path: Path) -> None:
    """A frame known only as the header of data the code publishes is extracted as a data frame (by type),
    not as an edge; a frame taken from incoming data is not known and is left out."""
    facts = analyze_cpp(IMAGE_PUBLISHER, "image_publisher/src/image_publisher.cpp")
    assert facts.edges == [] and facts.findings == []
    # located where the frame is written out (the parameter's default, the line to change), not at the publish
    assert [(d.frame, d.type, d.location.line if d.location else None) for d in facts.data_frames] == [("camera", "Image", 5)]
    root = write_tree(tmp_path, {"image_publisher/src/image_publisher.cpp": IMAGE_PUBLISHER})
    result = scan([root])
    assert result.expected.frames == [] and [(d["frame"], d["type"]) for d in result.expected.to_dict()["data_frames"]] == [("camera", "Image")]


# CIS' SCM-ROS2-driver (before its fix): a header made by value-initialisation, framed, then copied into a member image
SCM_RGB = """\
void RGBNode::pubImage(uint8_t * data)
{
    auto header = std_msgs::msg::Header();
    header.frame_id = "camera";
    header.stamp = this->get_clock()->now();
    imgMsg_ = sensor_msgs::msg::Image();
    imgMsg_.header = header;
    imgMsg_.width = width_;
    imgPub_->publish(std::move(imgMsg_));
}
"""


def test_a_frame_written_into_a_header_that_the_message_copies_is_located_there() -> None:
    """`auto header = std_msgs::msg::Header();` is an empty header like a declared one; the data frame it gives the
    image is located where the header's frame is written (the line the fix changed), not at the copy or the publish."""
    facts = analyze_cpp(SCM_RGB, "src/rgb_driver.cpp")
    assert [(d.frame, d.type, d.location.line if d.location else None) for d in facts.data_frames] == [("camera", "Image", 4)]


# Intermodalics/tango_ros (tango_ros_node.cpp:186-227): a frame name chosen by a switch over an enum; the
# default case's "unknown" is one case's value, not what every call returns.
TANGO_FRAMES = """\
std::string toFrameId(const TangoCoordinateFrameType& tango_frame_type) {
  std::string string_frame_type;
  switch(tango_frame_type) {
    case TANGO_COORDINATE_FRAME_AREA_DESCRIPTION:
      string_frame_type = "area_description";
      break;
    case TANGO_COORDINATE_FRAME_DEVICE:
      string_frame_type = "device";
      break;
    default:
      string_frame_type = "unknown";
      break;
  }
  return string_frame_type;
}
void TangoRosNode::PublishStaticTransforms() {
  geometry_msgs::TransformStamped device_T_imu;
  device_T_imu.header.frame_id = toFrameId(TANGO_COORDINATE_FRAME_DEVICE);
  device_T_imu.child_frame_id = toFrameId(TANGO_COORDINATE_FRAME_AREA_DESCRIPTION);
  device_T_imu.transform.rotation.w = 1;
  tf_static_broadcaster_.sendTransform(device_T_imu);
}
void pick(int i) {
  std::string frame;
  switch (i) {
    case 0: frame = "map"; break;
    case 1: frame = "map"; break;
  }
  geometry_msgs::TransformStamped t;
  t.header.frame_id = frame;
  t.child_frame_id = "odom";
  t.transform.rotation.w = 1;
  tf_static_broadcaster_.sendTransform(t);
}
"""


def test_a_string_each_case_of_a_switch_sets_differently_is_unknown_after_it() -> None:
    facts = analyze_cpp(TANGO_FRAMES, "tango_ros_node.cpp")
    # not 'unknown' -> 'unknown' (a self transform): which case runs is the caller's enum
    assert [f for f in facts.findings if f.code == "REDUNDANT_TRANSFORM"] == []
    # every case giving the same string keeps it
    assert [(e.parent, e.child) for e in facts.edges if e.child == "odom"] == [("map", "odom")]


# b-it-bots mas_perception (scene_segmentation_node.cpp:170-182): the target frame is a parameter whose default
# is the cloud's frame, and the lookups into it run only when the two differ.
GUARDED_LOOKUPS = """\
void SceneSegmentationNode::findPlane() {
  std::string frame_id_ = "base_link";
  std::string target_frame_id;
  nh_.param("target_frame_id", target_frame_id, frame_id_);
  geometry_msgs::PoseStamped pose;
  pose.header.frame_id = frame_id_;
  if (target_frame_id != frame_id_) {
    transform_listener_.waitForTransform(target_frame_id, frame_id_, ros::Time(0), ros::Duration(0.1));
    geometry_msgs::PoseStamped pose_transformed;
    transform_listener_.transformPose(target_frame_id, pose, pose_transformed);
  }
  transform_listener_.waitForTransform(target_frame_id, frame_id_, ros::Time(0), ros::Duration(0.1));
}
"""


def test_a_lookup_guarded_by_the_frames_differing_is_no_self_lookup() -> None:
    facts = analyze_cpp(GUARDED_LOOKUPS, "scene_segmentation_node.cpp")
    # only the unguarded lookup, with the parameter at its default, looks base_link up in itself
    assert [(f.code, f.location.line) for f in facts.findings] == [("REDUNDANT_TRANSFORM", 12)]


ROBOTX_HEADER = """\
#include <ros/ros.h>
class robotx_localization
{
public:
    robotx_localization();
private:
    struct parameters
    {
        std::string robot_frame;
        std::string publish_frame;
        int publish_rate;
        parameters()
        {
            ros::param::param<std::string>(ros::this_node::getName()+"/robot_frame", robot_frame, "base_link");
            ros::param::param<std::string>(ros::this_node::getName()+"/publish_frame", publish_frame, "map");
            ros::param::param<int>(ros::this_node::getName()+"/publish_rate", publish_rate, 100);
        }
    };
    const parameters params_;
    tf2_ros::TransformBroadcaster broadcaster_;
};
"""

ROBOTX_SOURCE = """\
#include <robotx_localization.h>
void robotx_localization::update_tf_()
{
    geometry_msgs::TransformStamped transform_stamped;
    transform_stamped.header.stamp = ros::Time::now();
    transform_stamped.header.frame_id = params_.publish_frame;
    transform_stamped.child_frame_id = params_.robot_frame;
    transform_stamped.transform.rotation.w = 1.0;
    broadcaster_.sendTransform(transform_stamped);
}
"""


def test_a_parameter_struct_filled_by_its_own_constructor() -> None:
    """robotx_packages keeps its parameters in a struct whose constructor reads them (``parameters() {
    ros::param::param<std::string>(getName() + "/robot_frame", robot_frame, "base_link"); }``): its fields hold the
    defaults, unless the launch file gives the parameter."""
    edges = analyze_cpp(ROBOTX_SOURCE, "src/robotx_localization.cpp", headers=[ROBOTX_HEADER]).edges
    assert [(e.parent, e.child) for e in edges] == [("map", "base_link")]
    launched = analyze_cpp(ROBOTX_SOURCE, "src/robotx_localization.cpp", headers=[ROBOTX_HEADER], launched={"robot_frame": "base_footprint"}).edges
    assert [(e.parent, e.child) for e in launched] == [("map", "base_footprint")]
