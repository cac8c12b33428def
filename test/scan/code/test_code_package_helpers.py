"""Helpers defined in another file of the package: a header's inline method that fills the caller's
message through a reference (avt_vimba_camera: ``api_.frameToImage(frame, img)`` -> ``sensor_msgs::fillImage``,
which never touches the header), and a function of the source file named like an included header that
returns a message (zed: ``sl_tools::imageToROSmsg(img, frameId, t)`` in ``sl_tools.cpp``). Image and
camera_info go out together through image_transport's CameraPublisher: both are checked."""

from __future__ import annotations

from pathlib import Path

from scan.trees import write_tree

from physframe_ros.scan.code import analyze_cpp
from physframe_ros.scan.code.helpers import _may_frame_parameters
from physframe_ros.scan.scanner import scan

API = """\
#include <sensor_msgs/fill_image.h>
class VimbaApi
{
public:
  bool frameToImage(const FramePtr frame, sensor_msgs::Image& image)
  {
    std::string encoding = sensor_msgs::image_encodings::MONO8;
    sensor_msgs::fillImage(image, encoding, frame->height(), frame->width(), frame->step(), frame->data());
    return true;
  }
  bool frameToStampedImage(const FramePtr frame, sensor_msgs::Image& image)
  {
    image.header.frame_id = frame_id_;
    return frameToImage(frame, image);
  }
};
"""

CAMERA = """\
#include <avt_vimba_camera/vimba_api.h>

void MonoCamera::frameCallback(const FramePtr& frame)
{
  sensor_msgs::Image img;
  if (api_.frameToImage(frame, img)) {
    sensor_msgs::CameraInfo ci = info_man_->getCameraInfo();
    ci.header.stamp = img.header.stamp = ros::Time::now();
    pub_.publish(img, ci);
  }
}

void MonoCamera::stampedCallback(const FramePtr& frame)
{
  sensor_msgs::Image img;
  api_.frameToStampedImage(frame, img);
  pub_.publish(img, info_man_->getCameraInfo());
}

void MonoCamera::updateCameraInfo(const avt_vimba_camera::AvtVimbaCameraConfig& config)
{
  sensor_msgs::CameraInfo ci = info_man_->getCameraInfo();
  ci.header.frame_id = config.frame_id;
  info_man_->setCameraInfo(ci);  // as the real driver does: getCameraInfo gives back this frame
}
"""


def _codes(facts: object) -> list[tuple[str, int | None]]:
    return [(f.code, f.location.line if f.location else None) for f in facts.findings]  # type: ignore[attr-defined]


def test_a_header_method_that_fills_the_image_but_not_its_header() -> None:
    facts = analyze_cpp(CAMERA, "src/mono_camera.cpp", helpers=[("include/avt_vimba_camera/vimba_api.h", API)])
    assert _codes(facts) == [("MISSING_FRAME", 9)]
    assert "Image 'img'" in facts.findings[0].message
    # the helper is not in the package: the image was handed to code not followed, nothing is said
    assert _codes(analyze_cpp(CAMERA, "src/mono_camera.cpp")) == []


TOOLS_HPP = """\
#include <sensor_msgs/msg/image.hpp>
namespace tools {
std::unique_ptr<sensor_msgs::msg::Image> toImage(const Mat & img, const std::string & frameId);
std::unique_ptr<sensor_msgs::msg::Image> toBareImage(const Mat & img);
}
"""

TOOLS_CPP = """\
#include "tools.hpp"
namespace tools {
std::unique_ptr<sensor_msgs::msg::Image> toImage(const Mat & img, const std::string & frameId)
{
  auto msg = std::make_unique<sensor_msgs::msg::Image>();
  msg->header.frame_id = frameId;
  return msg;
}
std::unique_ptr<sensor_msgs::msg::Image> toBareImage(const Mat & img)
{
  auto msg = std::make_unique<sensor_msgs::msg::Image>();
  msg->height = img.rows;
  return msg;
}
}
"""

NODE = """\
#include "tools.hpp"

void Node::publishImages(const Mat & mat)
{
  auto framed = tools::toImage(mat, frame_id_);
  image_pub_->publish(std::move(framed));
  auto bare = tools::toBareImage(mat);
  image_pub_->publish(std::move(bare));
}
"""


def test_a_message_returned_by_a_function_of_the_package_source_named_like_the_header(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "pkg", {
        "package.xml": "<package format='3'><name>cam_node</name></package>",
        "src/tools/include/tools.hpp": TOOLS_HPP,
        "src/tools/src/tools.cpp": TOOLS_CPP,
        "src/node/node.cpp": NODE,
    })
    result = scan([root], jobs=1)
    found = [(f.code, f.location.file if f.location else None, f.location.line if f.location else None) for f in result.findings]
    # the bare image goes out with no frame; the one whose frame the helper sets (to a value not known) does not
    assert found == [("MISSING_FRAME", "src/node/node.cpp", 8)]
    assert "built at line 7 by toBareImage() in src/tools/src/tools.cpp" in result.findings[0].message


def test_a_helper_that_may_replace_the_message_it_was_given_is_not_followed() -> None:
    # zed-ros-wrapper's sl_tools::imagesToROSmsg: `if (!msg) msg = make_shared<Image>();` then fills `msg`,
    # which (branches all taken) is no longer the caller's message
    tools = """\
void imagesToROSmsg(sensor_msgs::ImagePtr msg, const std::string & frameId)
{
  if (!msg) {
    msg = boost::make_shared<sensor_msgs::Image>();
  }
  msg->header.frame_id = frameId;
}
"""
    node = """\
void Node::publishStereo()
{
  sensor_msgs::ImagePtr stereo = boost::make_shared<sensor_msgs::Image>();
  sl_tools::imagesToROSmsg(stereo, frame_id_);
  pub_.publish(stereo);
}
"""
    assert _codes(analyze_cpp(node, "src/node.cpp", helpers=[("src/tools/sl_tools.cpp", tools)])) == []


# lidar_localization (Ren Qian's framework, forked as modular_mapping_and_localization_framework) before its tf2
# fix: publisher and listener wrappers of the package take the frames as constructor parameters, and the flows
# pass them written out with a leading '/'; topics beside them keep theirs.
CLOUD_PUBLISHER_CPP = """\
#include "lidar_localization/publisher/cloud_publisher.hpp"
namespace lidar_localization {
CloudPublisher::CloudPublisher(ros::NodeHandle& nh,
                               std::string topic_name,
                               std::string frame_id,
                               size_t buff_size)
    :nh_(nh), frame_id_(frame_id) {
    publisher_ = nh_.advertise<sensor_msgs::PointCloud2>(topic_name, buff_size);
}
void CloudPublisher::Publish(CloudData::CLOUD_PTR&  cloud_ptr_input, double time) {
    sensor_msgs::PointCloud2Ptr cloud_ptr_output(new sensor_msgs::PointCloud2());
    pcl::toROSMsg(*cloud_ptr_input, *cloud_ptr_output);
    cloud_ptr_output->header.frame_id = frame_id_;
    publisher_.publish(*cloud_ptr_output);
}
}
"""
TF_LISTENER_CPP = """\
namespace lidar_localization {
TFListener::TFListener(ros::NodeHandle& nh, std::string base_frame_id, std::string child_frame_id)
    :nh_(nh), base_frame_id_(base_frame_id), child_frame_id_(child_frame_id) {
}
}
"""
FLOW_CPP = """\
#include "lidar_localization/data_pretreat/data_pretreat_flow.hpp"
namespace lidar_localization {
DataPretreatFlow::DataPretreatFlow(ros::NodeHandle& nh, std::string cloud_topic) {
    cloud_sub_ptr_ = std::make_shared<CloudSubscriber>(nh, "/kitti/velo/pointcloud", 100000);
    lidar_to_imu_ptr_ = std::make_shared<TFListener>(nh, "/imu_link", "velo_link");
    cloud_pub_ptr_ = std::make_shared<CloudPublisher>(nh, cloud_topic, "/velo_link", 100);
    CloudPublisher other(nh, "/other", "velo link", 1);
}
}
"""


def test_a_literal_passed_where_a_package_constructor_takes_a_frame(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "pkg", {
        "package.xml": "<package format='2'><name>lidar_localization</name></package>",
        "src/publisher/cloud_publisher.cpp": CLOUD_PUBLISHER_CPP,
        "src/tf_listener/tf_listener.cpp": TF_LISTENER_CPP,
        "src/data_pretreat/data_pretreat_flow.cpp": FLOW_CPP,
    })
    found = [(f.code, f.location.line if f.location else None, f.frames, f.message) for f in scan([root], jobs=1).findings]
    assert [(code, line, frames) for code, line, frames, _ in found] == [
        ("INVALID_FRAME_ID", 5, ("/imu_link",)), ("INVALID_FRAME_ID", 6, ("/velo_link",)), ("INVALID_FRAME_ID", 7, ("velo link",))]
    assert found[1][3].startswith("argument 'frame_id' of CloudPublisher(): frame id '/velo_link' has a leading '/'")
    assert found[0][3].startswith("argument 'base_frame_id' of TFListener()")


# realsense_hardware_interface before its fix: the package's own two-argument toMsg overloads fill an Imu's data
# and never its header; the five-argument one frames an Odometry. An Imu filled by one and published goes out
# with no frame.
RS2_UTIL_CPP = """\
#include "realsense_hardware_interface/util.hpp"
namespace realsense_hardware_interface
{
void toMsg(const rs2_quaternion & quat, geometry_msgs::msg::Quaternion & msg)
{
  msg.x = quat.x;
  msg.w = quat.w;
}
void toMsg(const rs2_imu & imu, sensor_msgs::msg::Imu & msg)
{
  toMsg(imu.orientation, msg.orientation);
  msg.angular_velocity.x = imu.angular_velocity.x;
}
void toMsg(const rs2_pose & pose, const std::string & joint, const std::string & frame, rclcpp::Time stamp, nav_msgs::msg::Odometry & msg)
{
  msg.header.frame_id = frame;
  msg.child_frame_id = joint;
}
}
"""
RS2_IMU_CPP = """\
#include "realsense_hardware_interface/rs2_imu_publisher.hpp"
namespace realsense_hardware_interface
{
controller_interface::return_type Rs2ImuPublisher::update()
{
  const auto rs2_imu = handle_->getValue();
  sensor_msgs::msg::Imu imu;
  toMsg(rs2_imu, imu);
  imu_pub_->publish(imu);
  return controller_interface::return_type::OK;
}
}
"""


def test_a_message_filled_by_the_package_own_to_msg_overload_keeps_its_empty_header(tmp_path: Path) -> None:
    files = {"package.xml": "<package format='3'><name>realsense_hardware_interface</name></package>",
             "src/util.cpp": RS2_UTIL_CPP, "src/rs2_imu_publisher.cpp": RS2_IMU_CPP}
    found = [(f.code, f.location.line if f.location else None) for f in scan([write_tree(tmp_path / "a", files)], jobs=1).findings]
    assert found == [("MISSING_FRAME", 9)]
    framed = {**files, "src/util.cpp": RS2_UTIL_CPP.replace("  msg.angular_velocity.x", "  msg.header.frame_id = imu.frame;\n  msg.angular_velocity.x")}
    assert scan([write_tree(tmp_path / "b", framed)], jobs=1).findings == []


# soccer_vision_3d_rviz_markers (before its fix): the node publishes markers that functions of the package's
# conversion module build and never frame; the fix copies the incoming message's header into each marker.
CONVERSION_PY = """\
from visualization_msgs.msg import Marker


def field_boundary_to_marker(msg):
    marker = Marker()
    marker.type = Marker.LINE_STRIP
    marker.points = msg.points
    return marker


def framed_marker(msg):
    marker = Marker()
    marker.header = msg.header
    return marker
"""
VISUALIZER_PY = """\
import rclpy
from rclpy.node import Node
from soccer_vision_3d_rviz_markers.conversion import field_boundary_to_marker, framed_marker
from visualization_msgs.msg import Marker


class SoccerVision3DMarkers(Node):

    def field_boundary_cb(self, msg):
        marker = field_boundary_to_marker(msg)
        self.field_boundary_publisher.publish(marker)

    def framed_cb(self, msg):
        self.framed_publisher.publish(framed_marker(msg))

    def stamped_cb(self, msg):
        marker = field_boundary_to_marker(msg)
        marker.header.frame_id = 'base_footprint'
        self.stamped_publisher.publish(marker)
"""


def test_a_message_built_by_a_function_imported_from_another_module_of_the_package(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "soccer_vision_3d_rviz_markers", {
        "package.xml": "<package format='3'><name>soccer_vision_3d_rviz_markers</name><export><build_type>ament_python</build_type></export></package>",
        "setup.py": "from setuptools import setup\nsetup(name='soccer_vision_3d_rviz_markers')\n",
        "soccer_vision_3d_rviz_markers/__init__.py": "",
        "soccer_vision_3d_rviz_markers/conversion.py": CONVERSION_PY,
        "soccer_vision_3d_rviz_markers/visualizer.py": VISUALIZER_PY,
    })
    found = [(f.code, f.location.file if f.location else None, f.location.line if f.location else None, f.message)
             for f in scan([root], jobs=1).findings]
    assert [(code, file, line) for code, file, line, _ in found] == [("MISSING_FRAME", "soccer_vision_3d_rviz_markers/visualizer.py", 11)]
    assert "built at line 10 by field_boundary_to_marker() in soccer_vision_3d_rviz_markers/conversion.py" in found[0][3]


def test_a_function_of_a_catkin_package_module_imported_with_a_star(tmp_path: Path) -> None:
    # insta360_ros_driver's live_processing.py (before its fix): `from insta360_ros_driver.tools import *`, the module
    # in src/insta360_ros_driver/tools.py (catkin's package_dir), whose compress_image_to_msg stamps only the time
    script = ("import rospy\nfrom sensor_msgs.msg import CompressedImage, CameraInfo\nfrom insta360_ros_driver.tools import *\n\n"
              "def cb(img, stamp):\n    msg = field_boundary_to_marker(img)\n    pub.publish(msg)\n")
    root = write_tree(tmp_path / "insta360_ros_driver", {
        "package.xml": "<package format='2'><name>insta360_ros_driver</name><buildtool_depend>catkin</buildtool_depend></package>",
        "src/insta360_ros_driver/__init__.py": "",
        "src/insta360_ros_driver/tools.py": CONVERSION_PY,
        "scripts/live_processing.py": script,
    })
    found = [(f.code, f.location.file if f.location else None, f.location.line if f.location else None) for f in scan([root], jobs=1).findings]
    assert found == [("MISSING_FRAME", "scripts/live_processing.py", 7)]


# mas_navigation's force_field_recovery (before its fix): a method of the file that stamps and publishes the cloud it
# is handed, called with "/map"; the method is followed for the message and its frame argument is still checked.
FORCE_FIELD = """\
#include <sensor_msgs/PointCloud2.h>
void ForceFieldRecovery::runBehavior()
{
    sensor_msgs::PointCloud2 cloud;
    sensor_msgs::PointCloud2 ros_obstacle_cloud = publishCloud(cloud, map_cloud_pub_, "/map");
}
sensor_msgs::PointCloud2 ForceFieldRecovery::publishCloud(sensor_msgs::PointCloud2 cloud, ros::Publisher &cloud_pub, std::string frame_id)
{
    cloud.header.frame_id = frame_id;
    cloud_pub.publish(cloud);
    return cloud;
}
"""


def test_a_frame_literal_handed_to_a_followed_method_of_the_file(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "mcr_recovery_behaviors", {
        "package.xml": "<package format='2'><name>mcr_recovery_behaviors</name></package>",
        "src/force_field_recovery.cpp": FORCE_FIELD,
    })
    found = [(f.code, f.location.line if f.location else None, f.message) for f in scan([root], jobs=1).findings if f.code == "INVALID_FRAME_ID"]
    assert [(code, line) for code, line, _ in found] == [("INVALID_FRAME_ID", 5)]
    assert found[0][2].startswith("argument 'frame_id' of publishCloud(): frame id '/map'")


ODOMETRY_HELPER = """\
bool SobitProOdometry::odom(int32_t steer_position, const double dt, nav_msgs::Odometry prev_odom, nav_msgs::Odometry* result_odom)
{
    double deg = position_calculation(steer_position);  // a number handed on frames nothing
    nav_msgs::Odometry calculation_odom = *result_odom;
    // Change euler (prev_odom)
    calculation_odom.pose.pose.position.x = prev_odom.pose.pose.position.x + dt * deg;
    *result_odom = calculation_odom;
    return true;
}
"""


def test_a_helper_that_copies_a_message_out_and_back_leaves_its_frames() -> None:
    """sobit_pro's odometry helper: the result copied out, its pose changed, written back whole; a number handed on
    and a parameter named in a comment frame nothing. Writing another parameter or the header over it may."""
    assert not _may_frame_parameters(ODOMETRY_HELPER)
    assert _may_frame_parameters(ODOMETRY_HELPER.replace("*result_odom = calculation_odom;", "*result_odom = prev_odom;"))
    framed = "calculation_odom.header.frame_id = \"odom\";\n    calculation_odom.pose.pose.position.x"
    assert _may_frame_parameters(ODOMETRY_HELPER.replace("calculation_odom.pose.pose.position.x", framed))
    assert _may_frame_parameters(ODOMETRY_HELPER.replace("position_calculation(steer_position)", "fill(*result_odom)"))


MEMBER_COPY_HEADER = """\
#include <nav_msgs/Odometry.h>
class SobitProMain {
  public:
    void control_wheel();
  private:
    ros::Publisher pub_odometry;
    nav_msgs::Odometry result_odom;
    nav_msgs::Odometry prev_odom;
};
"""


def test_a_member_message_copied_into_another_is_still_the_one_published() -> None:
    """``prev_odom = result_odom;`` copies: result_odom, never framed, is what goes out."""
    source = """\
#include "sobit_pro_control/sobit_pro_main.hpp"
void SobitProMain::control_wheel(){
    prev_odom.pose.pose.orientation.w = 1;
    while (ros::ok()) {
        prev_odom = result_odom;
        pub_odometry.publish(result_odom);
    }
}
"""
    facts = analyze_cpp(source, "src/sobit_pro_main.cpp", headers=[MEMBER_COPY_HEADER])
    assert _codes(facts) == [("MISSING_FRAME", 6), ("MISSING_CHILD_FRAME", 6)]
