"""Where real drivers keep their frame names (issue 11's coverage failures): each test is a small fixture
written from the idiom of a repository where the scanner extracted no frame at all."""

from __future__ import annotations

from pathlib import Path

from scan.trees import write_tree

from physframe_ros.scan.code import analyze_cpp
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
    facts = analyze_cpp(ZED_SOURCE, "zed_components/src/zed_camera/src/zed_camera_component_main.cpp", headers=[ZED_HEADER])
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
