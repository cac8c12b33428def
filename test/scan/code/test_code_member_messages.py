"""Messages held in class members, declared in the class's own header and published through a queue
wrapper (gazebo_ros_p3d: ``nav_msgs::Odometry pose_msg_;`` in the header, ``pub_Queue->push(this->pose_msg_,
this->pub_)``), checked once every method of the file is walked."""

from __future__ import annotations

from pathlib import Path

from physframe_ros.scan.code import analyze_cpp
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
  this->pose_msg_.pose.pose.position.x = pose.pos.x;
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
