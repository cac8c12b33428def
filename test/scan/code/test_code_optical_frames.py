"""REP-103 in driver code: camera data stamped with a body frame whose optical twin the code also names
(the ZED X One wrapper: ``_camImgFrameId = _cameraName + "_camera_frame"`` next to ``_camOptFrameId =
_cameraName + "_camera_optical_frame"``, the camera name a member default in the class header, the image
built by a helper that takes the frame and published with its camera_info)."""

from __future__ import annotations

from pathlib import Path

from scan.trees import write_tree

from physframe_ros.core.conventions import Conventions
from physframe_ros.core.findings import Location
from physframe_ros.core.tree import Edge
from physframe_ros.scan.code import analyze_cpp, analyze_python
from physframe_ros.scan.code.optical import camera_frame_finding, optical_twins
from physframe_ros.scan.scanner import scan

HEADER = """\
#include <sensor_msgs/msg/image.hpp>
class CameraOne : public rclcpp::Node
{
  void initFrames();
  void publishImages();
  void publishImage(const image_transport::CameraPublisher & pub, const std::string & frameId);
  std::string _cameraName = "cam_one";
  std::string _camImgFrameId;
  std::string _camOptFrameId;
};
"""

SOURCE = """\
#include "camera_one.hpp"

void CameraOne::initFrames()
{
  _camImgFrameId = _cameraName + "_camera_frame";
  _camOptFrameId = _cameraName + "_camera_optical_frame";
}

void CameraOne::publishImages()
{
  publishImage(_pubColor, _camImgFrameId);
  publishImage(_pubGray, _camOptFrameId);
}

void CameraOne::publishImage(const image_transport::CameraPublisher & pub, const std::string & frameId)
{
  auto image = std::make_unique<sensor_msgs::msg::Image>();
  image->header.frame_id = frameId;
  pub.publish(std::move(image), _camInfoMsg);
}
"""


def _codes(facts: object) -> list[tuple[str, int | None]]:
    return [(f.code, f.location.line if f.location else None) for f in facts.findings]  # type: ignore[attr-defined]


def test_image_stamped_with_the_body_frame_whose_optical_twin_the_class_names() -> None:
    facts = analyze_cpp(SOURCE, "src/camera_one.cpp", headers=[HEADER], helpers=[("include/camera_one.hpp", HEADER)])
    # reported at the call that names the frame, not in the helper; the optical call is fine
    assert _codes(facts) == [("INCORRECT_TRANSFORM", 11)]
    f = facts.findings[0]
    assert f.frames == ("cam_one_camera_frame", "cam_one_camera_optical_frame")
    assert "stamp it with 'cam_one_camera_optical_frame'" in f.message
    # without the header the camera name, and so every frame, is unknown: nothing is said
    assert _codes(analyze_cpp(SOURCE, "src/camera_one.cpp")) == []


def test_a_body_frame_with_no_optical_twin_named_is_not_reported() -> None:
    source = SOURCE.replace('  _camOptFrameId = _cameraName + "_camera_optical_frame";\n', "")
    assert _codes(analyze_cpp(source, "src/camera_one.cpp", headers=[HEADER], helpers=[("include/camera_one.hpp", HEADER)])) == []


def test_the_rule_on_names_and_on_a_broadcast_edge() -> None:
    conv, loc = Conventions(), Location("a.cpp", 3)
    assert optical_twins("camera_link")[0] == "camera_optical_frame"
    assert "camera_link_optical" in optical_twins("camera_link")
    known = {"camera_link", "camera_optical_frame"}
    assert camera_frame_finding("CameraInfo", "info", "camera_link", known, [], conv, loc) is not None
    assert camera_frame_finding("CameraInfo", "info", "camera_optical_frame", known, [], conv, loc) is None
    assert camera_frame_finding("PointCloud2", "cloud", "camera_link", known, [], conv, loc) is None
    # an edge whose rotation is the body -> optical turn confirms it; one with no rotation says both are optical
    turn = Edge("camera_link", "camera_optical_frame", True, (0.0, 0.0, 0.0), (-0.5, 0.5, -0.5, 0.5))
    same = Edge("camera_link", "camera_optical_frame", True, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    found = camera_frame_finding("Imu", "imu", "camera_link", known, [turn], conv, loc)
    assert found is not None and "turns FLU into RDF" in found.message
    assert camera_frame_finding("Imu", "imu", "camera_link", known, [same], conv, loc) is None


def test_scan_finds_the_class_header_in_another_include_folder_of_the_package(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "pkg", {
        "package.xml": "<package format='3'><name>cam_driver</name></package>",
        "src/camera/include/camera_one.hpp": HEADER,
        "src/camera/src/camera_one.cpp": SOURCE,
    })
    result = scan([root], jobs=1)
    assert [(f.code, f.location.file if f.location else None, f.location.line if f.location else None) for f in result.findings] == [
        ("INCORRECT_TRANSFORM", "src/camera/src/camera_one.cpp", 11)
    ]


def test_python_camera_node_stamps_images_with_the_body_frame() -> None:
    source = '''\
import rclpy
from sensor_msgs.msg import Image

BODY = "front_camera_link"
OPTICAL = "front_camera_link_optical"


class Camera(rclpy.node.Node):
    def on_frame(self, data):
        img = Image()
        img.header.frame_id = BODY
        self.pub.publish(img)
        info = self.info
        self.tf_pub.publish(info)
'''
    facts = analyze_python(source, "cam/camera.py")
    assert _codes(facts) == [("INCORRECT_TRANSFORM", 4)]  # where the frame is written out, not the publish below
    assert facts.findings[0].frames == ("front_camera_link", "front_camera_link_optical")


def test_a_member_literal_overwritten_at_run_time_is_reported_where_the_frame_is_written(tmp_path: Path) -> None:
    """cloisim_ros before e6db391: ``frame_id_("camera_link")`` in the initializer list, overwritten in Init by a name
    built at run time in another method; the scanner keeps the literal as the frame, but the line to change is the
    header write."""
    source = """\
#include <sensor_msgs/msg/image.hpp>
class CameraBase : public rclcpp::Node
{
public:
  CameraBase() : Node("camera"), frame_id_("camera_link") {}
  void InitializeInfo() { frame_id_ = GetPartsName() + "_" + GetFrameId("camera_link"); }
  void InitializePublish()
  {
    msg_img_.header.frame_id = frame_id_;
  }
  void Publish() { pub_.publish(msg_img_); }

private:
  std::string frame_id_;
  sensor_msgs::msg::Image msg_img_;
  image_transport::Publisher pub_;
};
"""
    def lines(text: str, root: Path) -> list[int | None]:
        write_tree(root, {"sim_camera/package.xml": "<package format='2'><name>sim_camera</name></package>",
                          "sim_camera/src/camera_base.cpp": text})
        return [f.location.line if f.location else None for f in scan([root], jobs=1).findings if f.code == "INCORRECT_TRANSFORM"]

    assert lines(source, tmp_path / "a") == [9]
    # never overwritten: the initializer is the line to change
    assert lines(source.replace('frame_id_ = GetPartsName() + "_" + GetFrameId("camera_link");', ""), tmp_path / "b") == [5]


NAOQI_CAMERA = """\
#include <cv_bridge/cv_bridge.h>
CameraPublisher::CameraPublisher(int camera_source)
  : camera_info_(camera_info_definitions::getCameraInfo(camera_source))
{
  if (camera_source == AL::kTopCamera)
  {
    msg_frameid_ = "CameraTop_frame";
  }
  else if (camera_source == AL::kBottomCamera)
  {
    msg_frameid_ = "CameraBottom_frame";
  }
}

void CameraPublisher::publish()
{
  cv::Mat img(value[1], value[0], cv_mat_type_);
  std_msgs::Header header;
  header.frame_id = msg_frameid_;
  header.stamp = ros::Time::now();
  cv_bridge::CvImage cv_img(header, msg_colorspace_, img);
  pub_image_.publish(cv_img);
  pub_camera_.publish(camera_info_);
}
"""

NAOQI_INFO = """\
inline sensor_msgs::CameraInfo createCameraInfoTOPVGA()
{
  sensor_msgs::CameraInfo cam_info_msg;

  cam_info_msg.header.frame_id = "CameraTop_frame";
  cam_info_msg.width = 640;
  return cam_info_msg;
}
"""


def test_naoqi_camera_body_frames_of_a_description_outside_the_workspace() -> None:
    """naoqi_driver stamped NAO's and Pepper's images (through a Header handed to cv_bridge::CvImage) and camera infos
    (built and returned by helpers) with the x-forward CameraTop_frame, whose optical twin CameraTop_optical_frame the
    robots' descriptions (not in the driver's repository) define. Reported at the literal that names the frame."""
    image = analyze_cpp(NAOQI_CAMERA, "src/publishers/camera.cpp")
    assert [(f.code, f.location.line if f.location else None, f.frames) for f in image.findings] == [
        ("INCORRECT_TRANSFORM", 7, ("CameraTop_frame", "CameraTop_optical_frame"))]
    assert "nao_description" in image.findings[0].message
    info = analyze_cpp(NAOQI_INFO, "src/publishers/camera_info_definitions.hpp")
    assert [(f.location.line if f.location else None, f.frames) for f in info.findings] == [(5, ("CameraTop_frame", "CameraTop_optical_frame"))]
    assert "CameraInfo 'cam_info_msg' is built and returned in 'CameraTop_frame'" in info.findings[0].message
    fixed = analyze_cpp(NAOQI_INFO.replace('"CameraTop_frame"', '"CameraTop_optical_frame"'), "src/publishers/camera_info_definitions.hpp")
    assert fixed.findings == []
    # a helper returning an Odometry, or camera data in a frame of no well-known description: nothing to say
    assert analyze_cpp(NAOQI_INFO.replace('"CameraTop_frame"', '"head_camera"'), "src/info.hpp").findings == []


def test_a_laser_scan_stamped_with_an_optical_frame() -> None:
    """A LaserScan's ranges lie in its frame's x-y plane: in an optical frame that plane stands on edge."""
    py = ("from sensor_msgs.msg import LaserScan\n\ndef publish(self):\n    scan = LaserScan()\n"
          "    scan.header.frame_id = 'camera_depth_optical_frame'\n    self.pub.publish(scan)\n")
    facts = analyze_python(py, "scripts/fake_scan.py")
    assert [(f.code, f.location.line if f.location else None) for f in facts.findings] == [("INCORRECT_TRANSFORM", 5)]
    assert analyze_python(py.replace("_optical_frame", "_frame"), "scripts/fake_scan.py").findings == []


APRILTAG = """\
#include <tf/transform_broadcaster.h>
TagDetector::TagDetector(ros::NodeHandle pnh)
{
  if (!pnh.getParam("camera_frame", camera_tf_frame_))
  {
    camera_tf_frame_ = "camera";
  }
}

Eigen::Matrix4d TagDetector::getRelativeTransform(std::vector<cv::Point3d> objectPoints, std::vector<cv::Point2d> imagePoints)
{
  cv::Mat rvec, tvec;
  cv::solvePnP(objectPoints, imagePoints, cameraMatrix, distCoeffs, rvec, tvec);
  return wRo;
}

void TagDetector::detectTags(const cv_bridge::CvImagePtr& image)
{
  tf::Stamped<tf::Transform> tag_transform;
  tf_pub_.sendTransform(tf::StampedTransform(tag_transform, image->header.stamp,
                                             camera_tf_frame_,
                                             detection_names[i]));
}
"""


def test_poses_estimated_from_images_sent_under_a_camera_body_frame() -> None:
    """apriltag_ros broadcast each tag under its `camera_frame` parameter, "camera" by default: a camera body frame by
    REP-103's naming, while solvePnP gives the tag's pose in the image's optical axes."""
    found = [(f.code, f.location.line if f.location else None, f.frames) for f in analyze_cpp(APRILTAG, "src/common_functions.cpp").findings
             if "estimates poses from images" in f.message]
    assert found == [("INCORRECT_TRANSFORM", 20, ("camera",))]
    optical = APRILTAG.replace('"camera";', '"camera_optical_frame";')
    assert [f for f in analyze_cpp(optical, "src/common_functions.cpp").findings if "estimates poses" in f.message] == []
    no_estimate = APRILTAG.replace("cv::solvePnP(", "cv::projectPoints(")
    assert [f for f in analyze_cpp(no_estimate, "src/common_functions.cpp").findings if "estimates poses" in f.message] == []


AR4_ARUCO = """\
import rclpy
from rclpy.node import Node
from geometry_msgs.msg import TransformStamped
from ros2_aruco_interfaces.msg import ArucoMarkers
from tf2_ros import TransformBroadcaster


class CalibrationArucoPublisher(Node):
    def __init__(self):
        super().__init__("calibration_aruco_publisher")
        self.tf_broadcaster = TransformBroadcaster(self)
        self.subscription = self.create_subscription(ArucoMarkers, "/aruco_markers", self.handle_aruco_markers, 1)

    def handle_aruco_markers(self, msg: ArucoMarkers):
        cal_marker_pose = msg.poses[0]
        t = TransformStamped()
        t.header.stamp = self.get_clock().now().to_msg()
        t.header.frame_id = "camera_color_frame"
        t.child_frame_id = "calibration_aruco"
        t.transform.translation.x = cal_marker_pose.position.x
        t.transform.rotation = cal_marker_pose.orientation
        self.tf_broadcaster.sendTransform(t)
"""


def test_a_marker_detectors_poses_sent_under_a_camera_body_frame_are_reported_where_the_frame_is_written() -> None:
    """ar4_hand_eye_calibration re-broadcast ros2_aruco's marker pose (in the optical axes) under the RealSense body
    frame camera_color_frame; the fix names camera_color_optical_frame."""
    found = [(f.code, f.location.line if f.location else None) for f in analyze_python(AR4_ARUCO, "scripts/calibration_aruco_publisher.py").findings
             if "reads a marker detector's" in f.message]
    assert found == [("INCORRECT_TRANSFORM", 18)]
    fixed = AR4_ARUCO.replace('"camera_color_frame"', '"camera_color_optical_frame"')
    assert [f for f in analyze_python(fixed, "scripts/calibration_aruco_publisher.py").findings if f.code == "INCORRECT_TRANSFORM"] == []
