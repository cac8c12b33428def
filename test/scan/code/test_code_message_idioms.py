"""Message idioms from the known bugs: a message of a type outside the type list whose header the code
uses (mocap4ros2's ``Markers``: stamp set, frame_id set on another message by a copy-paste), and a
message returned by cv_bridge's ``cv2_to_imgmsg`` (vector_ros_driver), whose header is empty."""

from __future__ import annotations

from physframe_ros.scan.code import analyze_cpp, analyze_python, mentions_tf

MOCAP = """\
void ViconDriverNode::process_frame()
{
  mocap_msgs::msg::RigidBodies rigid_bodies_msg;
  rigid_bodies_msg.header.stamp = now();
  rigid_bodies_msg.header.frame_id = frame_id_;
  mocap_msgs::msg::Markers markers_msg;
  markers_msg.header.stamp = now();
  rigid_bodies_msg.header.frame_id = frame_id_;
  markers_msg.frame_number = frameCount_++;
  markers_pub_->publish(markers_msg);
  rigid_bodies_pub_->publish(rigid_bodies_msg);
  sensor_msgs::msg::JointState js;
  js.header.stamp = now();
  js_pub_->publish(js);
  my_msgs::msg::Status status;
  status.level = 1;
  status_pub_->publish(status);
}
"""

CAMERA = """\
import rospy, cv_bridge, numpy
from sensor_msgs.msg import Image

class Camera(object):
    def publish_camera_feed(self):
        bridge = cv_bridge.CvBridge()
        while not rospy.is_shutdown():
            image = bridge.cv2_to_imgmsg(numpy.asarray(self.latest_image), encoding="rgb8")
            self.image_publisher.publish(image)
            ok = bridge.cv2_to_imgmsg(self.latest_image, "bgr8")
            ok.header.frame_id = self.image_frame_id
            self.image_publisher.publish(ok)
            # yolo_ros' debug_node after its PR #84: the conversion given the input's header
            self.image_publisher.publish(bridge.cv2_to_imgmsg(self.latest_image, encoding="bgr8", header=self.msg.header))
            self.image_publisher.publish(bridge.cv2_to_imgmsg(self.latest_image, "bgr8", self.msg.header))
"""


def _found(facts: object, code: str) -> list[int | None]:
    return sorted(f.location.line for f in facts.findings if f.code == code and f.location)  # type: ignore[attr-defined]


def test_header_inferred_from_use_on_a_custom_message() -> None:
    # JointState's header carries a stamp only; Status shows no header at all
    facts = analyze_cpp(MOCAP, "mocap_vicon_driver.cpp")
    assert _found(facts, "MISSING_FRAME") == [10]
    # whether a type the scanner does not know needs its frame_id is not known: a warning
    assert [f.level.value for f in facts.findings] == ["warning"]


ROBOMASTER = """\
import robomaster_msgs.msg
from robomaster_msgs.msg import Detection, MotorStatus
from sensor_msgs.msg import JointState

class Vision:
    def has_detected_people(self, values):
        msg = robomaster_msgs.msg.Detection()
        msg.header.stamp = self.clock.now().to_msg()
        self.vision_pub.publish(msg)

    def has_detected_robots(self, values):
        msg = Detection()
        msg.header.stamp = self.clock.now().to_msg()
        msg.header.frame_id = self.camera_frame
        self.vision_pub.publish(msg)

    def status(self):
        msg = MotorStatus()
        msg.header.stamp = self.clock.now().to_msg()
        self.status_pub.publish(msg)
        plain = Detection()
        self.vision_pub.publish(plain)
"""


def test_header_inferred_from_use_in_python() -> None:
    """robomaster_ros' vision module: a Detection of the project's own robomaster_msgs, its stamp written and its frame
    never, as C++ reads ``*_msgs`` types; a status type and a message whose header the code never touches are not."""
    facts = analyze_python(ROBOMASTER, "vision.py")
    assert _found(facts, "MISSING_FRAME") == [9]
    assert [f.level.value for f in facts.findings] == ["warning"]


def test_cv_bridge_conversion_has_an_empty_header() -> None:
    assert mentions_tf(CAMERA.replace("ok.header.frame_id", "ok.header.stamp"))  # the scanner reads the file at all
    assert _found(analyze_python(CAMERA, "camera.py"), "MISSING_FRAME") == [9]


TF_PUBLISHER_CPP = """\
void Relay::tick()
{
  geometry_msgs::msg::TransformStamped t;
  t.header.frame_id = "odom";
  t.child_frame_id = "base_link";
  t.transform.rotation.w = 1.0;
  tf2_msgs::msg::TFMessage msg;
  msg.transforms.push_back(t);
  tf_pub_->publish(msg);
  geometry_msgs::msg::TransformStamped s;
  s.header.frame_id = "base_link";
  s.child_frame_id = "";
  tf2_msgs::msg::TFMessage smsg;
  smsg.transforms.push_back(s);
  tf_static_pub_->publish(smsg);
}
"""

TF_PUBLISHER_PY = """\
from tf2_msgs.msg import TFMessage
from geometry_msgs.msg import TransformStamped

def tick(pub):
    t = TransformStamped()
    t.header.frame_id = 'map'
    t.child_frame_id = 'odom'
    t.transform.rotation.w = 1.0
    pub.publish(TFMessage([t]))
"""


def test_a_tf_message_published_is_a_broadcast() -> None:
    facts = analyze_cpp(TF_PUBLISHER_CPP, "relay.cpp")
    assert [(e.parent, e.child, e.static) for e in facts.edges] == [("odom", "base_link", False)]
    assert _found(facts, "MISSING_CHILD_FRAME") == [15]
    facts = analyze_python(TF_PUBLISHER_PY, "relay.py")
    assert [(e.parent, e.child, e.static) for e in facts.edges] == [("map", "odom", False)]


def test_odometry_published_with_one_frame_as_parent_and_child() -> None:
    text = """\
void Odom::publish()
{
  nav_msgs::msg::Odometry odom;
  odom.header.frame_id = "world";
  odom.child_frame_id = "world";
  odom_pub_->publish(odom);
  nav_msgs::msg::Odometry good;
  good.header.frame_id = "odom";
  good.child_frame_id = "base_link";
  odom_pub_->publish(good);
}
"""
    assert _found(analyze_cpp(text, "odom.cpp"), "REDUNDANT_TRANSFORM") == [6]


def test_eigen_to_transform_returns_empty_frames() -> None:
    text = """\
void Sim::tick(const Eigen::Isometry3d& pose)
{
  geometry_msgs::TransformStamped transform = tf2::eigenToTransform(pose);
  transform.header.frame_id = base_frame;
  transform.child_frame_id = camera_frame;
  broadcaster.sendTransform(transform);
  broadcaster.sendTransform(tf2::eigenToTransform(pose));
}
"""
    facts = analyze_cpp(text, "sim.cpp")
    assert sorted((f.code, f.location.line) for f in facts.findings if f.location) == [("MISSING_CHILD_FRAME", 7), ("MISSING_FRAME", 7)]


def test_pose_pushed_into_a_path_without_its_frame() -> None:
    text = """\
bool NavfnPlanner::getPlanFromPotential(nav_msgs::msg::Path & plan)
{
  plan.header.frame_id = global_frame_;
  for (int i = len - 1; i >= 0; --i) {
    geometry_msgs::msg::PoseStamped pose;
    pose.pose.position.x = world_x;
    pose.pose.orientation.w = 1.0;
    plan.poses.push_back(pose);
    geometry_msgs::msg::PoseStamped good;
    good.header = plan.header;
    plan.poses.push_back(good);
  }
  return !plan.poses.empty();
}
"""
    facts = analyze_cpp(text, "navfn_planner.cpp")
    assert [(f.code, f.location.line, f.level.value) for f in facts.findings if f.location] == [("MISSING_FRAME", 5, "warning")]


def test_a_pose_filled_by_tf_transform_pose_is_not_unset() -> None:
    # hector_trajectory_server: tf_.transformPose(target, pose_source_, pose_out) fills pose_out's header
    text = """\
void addCurrentTfPoseToTrajectory()
{
  geometry_msgs::PoseStamped pose_out;
  tf_.transformPose(p_target_frame_name_, pose_source_, pose_out);
  trajectory_.trajectory.poses.push_back(pose_out);
}
"""
    assert analyze_cpp(text, "hector_trajectory_server.cpp").findings == []


def test_a_header_copy_overwrites_a_frame_set_before() -> None:
    # velodyne_pointcloud's transform.cc: the cloud's frame is set, then pcl_conversions::toPCL(header, cloud.header)
    # copies a header whose frame_id was never set over it
    text = """\
void Transform::processScan(const velodyne_msgs::VelodyneScan::ConstPtr &scanMsg)
{
  for (size_t next = 0; next < scanMsg->packets.size(); ++next)
  {
    inPc_.header.frame_id = scanMsg->header.frame_id;
    std_msgs::Header header;
    header.stamp = scanMsg->packets[next].stamp;
    pcl_conversions::toPCL(header, inPc_.header);
    header.stamp = scanMsg->packets[next].stamp;
    pcl_conversions::toPCL(header, tfPc_.header);
    tfPc_.header.frame_id = config_.frame_id;
    std_msgs::Header full;
    full.frame_id = "velodyne";
    outPc_.header.frame_id = config_.frame_id;
    pcl_conversions::toPCL(full, outPc_.header);
  }
}
"""
    facts = analyze_cpp(text, "transform.cc")
    assert [(f.code, f.location.line) for f in facts.findings if f.location] == [("MISSING_FRAME", 8)]
    assert "line 5" in facts.findings[0].message


def test_a_bare_header_published_is_a_time_signal() -> None:
    text = """\
void VisionReconfigure::projectorCallback()
{
  std_msgs::Header rh;
  rh.stamp = ros::Time::now();
  pub_projector_.publish(rh);
}
"""
    assert analyze_cpp(text, "vision_reconfigure.cpp").findings == []


# ROS 1 C++ cv_bridge idioms of the PhysFrame corpus (rockin_logger, mbzirc_task2's image_clipper,
# door_detection_smr's RGBD_cropped_creator): the Image carries the header handed to CvImage.
CV_BRIDGE_CPP = """\
#include <ros/ros.h>
#include <cv_bridge/cv_bridge.h>
#include <image_transport/image_transport.h>
#include <sensor_msgs/image_encodings.h>

void publishImage(image_transport::Publisher& image_pub, const cv::Mat& image, const ros::Time& now)
{
  sensor_msgs::ImagePtr image_msg = cv_bridge::CvImage(std_msgs::Header(), "bgr8", image).toImageMsg();
  image_msg->header.stamp = now;
  image_pub.publish(image_msg);
}

void clip(const sensor_msgs::ImageConstPtr& msg, image_transport::Publisher& pub, const cv::Mat& clip_img)
{
  sensor_msgs::ImagePtr clip_msg = cv_bridge::CvImage(std_msgs::Header(), "bgr8", clip_img).toImageMsg();
  clip_msg->header = msg->header;
  pub.publish(clip_msg);
}

void cropped(image_transport::Publisher& img_pub, const cv::Mat& img_cropped)
{
  std_msgs::Header header;
  header.stamp = ros::Time::now();
  img_pub.publish(cv_bridge::CvImage(header, sensor_msgs::image_encodings::BGR8, img_cropped).toImageMsg());
}

void framed(image_transport::Publisher& img_pub, const cv::Mat& img, const std::string& frame)
{
  std_msgs::Header header;
  header.frame_id = frame;
  img_pub.publish(cv_bridge::CvImage(header, "mono8", img).toImageMsg());
}

void copied(const sensor_msgs::ImageConstPtr& msg, image_transport::Publisher& img_pub, const cv::Mat& img)
{
  img_pub.publish(cv_bridge::CvImage(msg->header, "mono8", img).toImageMsg());
}
"""


def test_cpp_cv_bridge_image_from_an_empty_header_is_published_without_a_frame() -> None:
    # pheeno_ros's camera node names no tf API: the conversion itself makes the file worth reading
    assert mentions_tf('msg = cv_bridge::CvImage(std_msgs::Header(), "bgr8", cv_image).toImageMsg();\npub.publish(msg);')
    assert mentions_tf("sensor_msgs::CameraInfo c_info;\nchatter_pub.publish(c_info);")
    facts = analyze_cpp(CV_BRIDGE_CPP, "rockin_logger/src/rockin_logger.cpp")
    # the stamp alone (line 9) gives no frame; a header copied (16), set (31) or taken from the input (37) does
    assert [(f.code, f.location.line if f.location else None, f.level.value) for f in facts.findings] == [
        ("MISSING_FRAME", 10, "error"),
        ("MISSING_FRAME", 24, "error"),
    ]


def test_a_method_called_through_a_member_pointer_returns_its_message() -> None:
    """spot_ros2's image_stitcher.cpp: ``camera_->stitch(left, right)`` is the one ``stitch`` the file defines,
    which returns ``cv_bridge::CvImage(std_msgs::msg::Header{}, ...).toImageMsg()``: the stitched image went
    out with no frame."""
    text = """\
Image::SharedPtr MiddleCamera::stitch(const std::shared_ptr<const Image>& left, const std::shared_ptr<const Image>& right) {
  return cv_bridge::CvImage(std_msgs::msg::Header{}, "bgr8", result_.getMat(cv::ACCESS_READ)).toImageMsg();
}
void ImageStitcher::callback(const std::shared_ptr<const Image>& left, const std::shared_ptr<const Image>& right) {
  const auto image_stitched = camera_->stitch(left, right);
  camera_handle_->publish(*image_stitched, info_stitched);
}
void ImageStitcher::fixed(const std::shared_ptr<const Image>& left, const std::shared_ptr<const Image>& right) {
  auto image_stitched = camera_->stitch(left, right);
  image_stitched->header.frame_id = camera_handle_->getCameraFrame();
  camera_handle_->publish(*image_stitched, info_stitched);
}
"""
    facts = analyze_cpp(text, "spot_driver/src/image_stitcher/image_stitcher.cpp")
    assert [(f.code, f.location.line if f.location else None) for f in facts.findings] == [("MISSING_FRAME", 6)]


# PX4's offboard example as the corpus copies it (PX4_Drone, velocity_marker_tracker): a setpoint PoseStamped
# with no frame sent to MAVROS, whose setpoint plugins read it in their own mav_frame. Data on another
# topic is still checked.
PX4_OFFBOARD_CPP = """\
#include <ros/ros.h>
#include <geometry_msgs/PoseStamped.h>

int main(int argc, char **argv)
{
    ros::init(argc, argv, "offb_node");
    ros::NodeHandle nh;
    ros::Publisher local_pos_pub = nh.advertise<geometry_msgs::PoseStamped>
            ("mavros/setpoint_position/local", 10);
    ros::Publisher target_pub = nh.advertise<geometry_msgs::PoseStamped>("target_pose", 10);
    ros::Rate rate(20.0);
    geometry_msgs::PoseStamped pose;
    pose.pose.position.x = 0;
    pose.pose.position.z = 2;
    for(int i = 100; ros::ok() && i > 0; --i){
        local_pos_pub.publish(pose);
        ros::spinOnce();
        rate.sleep();
    }
    target_pub.publish(pose);
    return 0;
}
"""

PX4_OFFBOARD_PY = """\
import rospy
from geometry_msgs.msg import PoseStamped

class Offboard:
    def __init__(self):
        self.setpoint_pub = rospy.Publisher('/mavros/setpoint_position/local', PoseStamped, queue_size=10)
        self.goal_pub = rospy.Publisher('goal', PoseStamped, queue_size=10)

    def step(self):
        pose = PoseStamped()
        pose.pose.position.z = 2.0
        self.setpoint_pub.publish(pose)
        self.goal_pub.publish(pose)
"""


def test_mavros_setpoints_are_commands_whose_frame_is_not_checked() -> None:
    """The setpoints MAVROS reads are not checked; the same pose published as data elsewhere is (no frame, and in ROS 1
    the zero quaternion of an orientation never set)."""
    facts = analyze_cpp(PX4_OFFBOARD_CPP, "px4_offboard/src/offb_node.cpp")
    assert sorted((f.code, f.location.line if f.location else None) for f in facts.findings) == [("INVALID_TRANSFORM", 20), ("MISSING_FRAME", 20)]
    facts = analyze_python(PX4_OFFBOARD_PY, "px4_offboard/scripts/offboard.py")
    assert sorted((f.code, f.location.line if f.location else None) for f in facts.findings) == [("INVALID_TRANSFORM", 13), ("MISSING_FRAME", 13)]


# air_manipulator's image_pub: an image_transport CameraPublisher sends the image and its CameraInfo.
CAMERA_PUBLISHER_CPP = """\
#include <ros/ros.h>
#include <cv_bridge/cv_bridge.h>
#include <image_transport/image_transport.h>

void loop(image_transport::CameraPublisher& pub, cv::VideoCapture& cap, sensor_msgs::CameraInfoPtr info)
{
  cv::Mat frame;
  sensor_msgs::ImagePtr image;
  cap >> frame;
  image = cv_bridge::CvImage(std_msgs::Header(), "bgr8", frame).toImageMsg();
  image->header.stamp = ros::Time::now();
  info->header.stamp = ros::Time::now();
  pub.publish(image, info);
}
"""


def test_camera_publisher_checks_the_image_it_sends_beside_the_info() -> None:
    facts = analyze_cpp(CAMERA_PUBLISHER_CPP, "image_pub/src/image_pub.cpp")
    assert [(f.code, f.location.line if f.location else None) for f in facts.findings] == [("MISSING_FRAME", 13)]


# luxonis/depthai-ros depthai_ros_driver/src/dai_nodes/sensors/img_pub.cpp:156-216: the class's own
# publish(img) overloads take its `Image` struct (image and info pointers filled by a converter), not a
# sensor_msgs Image; the ROS publishers are imgPub / infoPub.
DEPTHAI = """\
std::shared_ptr<Image> ImagePublisher::convertData(const std::shared_ptr<dai::ADatatype>& data) {
    auto img = std::make_shared<Image>();
    auto rawMsg = converter->toRosMsgRawPtr(std::dynamic_pointer_cast<dai::ImgFrame>(data), info);
    img->image = std::make_unique<sensor_msgs::msg::Image>(rawMsg);
    return img;
}
void ImagePublisher::publish(const std::shared_ptr<dai::ADatatype>& data) {
    if(rclcpp::ok()) {
        auto img = convertData(data);
        publish(img);
    }
}
void ImagePublisher::send_empty() {
    sensor_msgs::msg::Image empty;
    imgPub->publish(empty);
}
"""


def test_a_bare_publish_call_is_the_code_s_own_function_not_a_ros_publisher() -> None:
    facts = analyze_cpp(DEPTHAI, "depthai_ros_driver/src/dai_nodes/sensors/img_pub.cpp")
    # only the publisher object's publish of a message with no frame is reported
    assert [(f.code, f.location.line) for f in facts.findings] == [("MISSING_FRAME", 15)]


def test_a_helper_whose_returns_are_not_all_known_returns_an_unknown_message() -> None:
    """LAM_SLAM's resize.cpp: the helper returns the converted image (its header copied from the input by
    toCvCopy, not known here) and, only when conversion failed, an empty Image: not an empty frame on every path."""
    text = """\
sensor_msgs::Image::ConstPtr Resize::handleImage(const sensor_msgs::Image::ConstPtr& imgMsg) {
  cv_bridge::CvImagePtr outImage = nullptr;
  try {
    outImage = cv_bridge::toCvCopy(imgMsg, imgMsg->encoding);
  } catch (cv_bridge::Exception& e) {
    ROS_ERROR_STREAM("Failed to convert ROS image into CV image: " << e.what());
  }
  if (outImage) {
    return outImage->toImageMsg();
  } else {
    return boost::make_shared<sensor_msgs::Image>();
  }
}

sensor_msgs::ImagePtr blank() {
  return boost::make_shared<sensor_msgs::Image>();
}

void Resize::imageCallback(const sensor_msgs::ImageConstPtr& imgMsg) {
  auto newImgMsg = handleImage(imgMsg);
  pub_.publish(newImgMsg);
  auto empty = blank();
  pub_.publish(empty);
}
"""
    assert _found(analyze_cpp(text, "resize.cpp"), "MISSING_FRAME") == [23]


def test_a_file_scope_message_returned_by_a_helper_is_checked_where_it_is_published() -> None:
    """Robotic's rectangle_node.cpp: getPath() fills the file-scope Path's poses and returns it; main publishes
    getPath() as the plan, and no line of the file sets the Path's frame. The same Path given a frame is clean."""
    text = """\
#include <nav_msgs/Path.h>
ros::Publisher thePublisher;
nav_msgs::Path path;

nav_msgs::Path getPath() {
    geometry_msgs::PoseStamped pose1;
    pose1.header.frame_id = "map";
    path.poses.push_back(pose1);
    return path;
}

int main(int argc, char *argv[]) {
    ros::NodeHandle nh;
    thePublisher = ros::Publisher(nh.advertise<nav_msgs::Path>("plan", 1000));
    thePublisher.publish(getPath());
    return 0;
}
"""
    assert _found(analyze_cpp(text, "rectangle_node.cpp"), "MISSING_FRAME") == [15]
    framed = text.replace("    return path;", '    path.header.frame_id = "map";\n    return path;')
    assert _found(analyze_cpp(framed, "rectangle_node.cpp"), "MISSING_FRAME") == []


def test_the_old_cv_bridge_conversion_gives_an_image_with_an_empty_header() -> None:
    """ua-ros-pkg's saliency_track.cpp (ROS before Electric): ``bridge_.cvToImgMsg(&out, "passthrough")`` makes
    a new Image; the code copies the input's stamp but not its frame and publishes it."""
    text = """\
void SaliencyTracker::imageCallback(const sensor_msgs::ImageConstPtr& msg) {
    IplImage out_msg = saliency_;
    sensor_msgs::Image::Ptr saliency_msg = bridge_.cvToImgMsg(&out_msg, "passthrough");
    saliency_msg->header.stamp = msg->header.stamp;
    saliency_img_pub.publish(saliency_msg);
    sensor_msgs::Image::Ptr framed = bridge_.cvToImgMsg(&out_msg, "passthrough");
    framed->header = msg->header;
    saliency_img_pub.publish(framed);
}
"""
    assert _found(analyze_cpp(text, "saliency_track.cpp"), "MISSING_FRAME") == [5]


def test_a_header_access_left_in_a_comment_sets_no_frame() -> None:
    """AutoNavQuad's FileReader.cpp: the file-scope Imu gets a stamp and data, ``//    Imu.header.frame_id;``
    stays a comment, and the Imu is published with no frame."""
    text = """\
#include "sensor_msgs/Imu.h"
sensor_msgs::Imu Imu;
int main(int argc, char **argv) {
  ros::NodeHandle n;
  ros::Publisher chatter_pub = n.advertise<sensor_msgs::Imu>("IMUdatafile", 1);
  while (ros::ok()) {
    Imu.header.seq=0;
    Imu.header.stamp.nsec=Tokens[0];
//    Imu.header.frame_id;
    Imu.linear_acceleration.x=accX;
    chatter_pub.publish(Imu);
  }
}
"""
    assert _found(analyze_cpp(text, "FileReader.cpp"), "MISSING_FRAME") == [11]
    uncommented = text.replace("//    Imu.header.frame_id;", '    Imu.header.frame_id = frame_param;')
    assert _found(analyze_cpp(uncommented, "FileReader.cpp"), "MISSING_FRAME") == []


def test_a_smart_pointer_initialised_with_new_holds_the_new_message() -> None:
    """gps_umd's gpsd_client (client.cpp:191-239): ``NavSatFixPtr fix(new NavSatFix)`` gets a stamp and a
    position, never a frame, and is published; the same pointer made from a copy of the input is unknown."""
    text = """\
class C {
  ros::Publisher pub;
  void process(double lat) {
    sensor_msgs::NavSatFixPtr fix(new sensor_msgs::NavSatFix);
    fix->header.stamp = ros::Time::now();
    fix->latitude = lat;
    pub.publish(fix);
    boost::shared_ptr<sensor_msgs::Imu> imu(new sensor_msgs::Imu());
    imu->header.stamp = ros::Time::now();
    pub.publish(imu);
    sensor_msgs::NavSatFixPtr cast = sensor_msgs::NavSatFixPtr(new sensor_msgs::NavSatFix);
    pub.publish(cast);
  }
  void copy(const sensor_msgs::NavSatFixConstPtr& in) {
    sensor_msgs::NavSatFixPtr out(new sensor_msgs::NavSatFix(*in));
    pub.publish(out);
  }
};
"""
    assert _found(analyze_cpp(text, "client.cpp"), "MISSING_FRAME") == [7, 10, 12]


def test_a_cv_image_held_in_a_variable_gives_its_header_to_the_image() -> None:
    """The cv_bridge tutorial's idiom (``CvImage out; out.encoding = ...; out.image = ...;
    pub.publish(out.toImageMsg())``) with the header line left out: the Image has no frame. A header copied
    from the input, or a CvImagePtr from toCvCopy (the input's header), is fine."""
    text = """\
void Node::callback(const sensor_msgs::ImageConstPtr& msg) {
  cv_bridge::CvImage out_msg;
  out_msg.encoding = sensor_msgs::image_encodings::BGR8;
  out_msg.image = result;
  image_pub_.publish(out_msg.toImageMsg());
  cv_bridge::CvImage ok;
  ok.header = msg->header;
  ok.encoding = "bgr8";
  image_pub_.publish(ok.toImageMsg());
  cv_bridge::CvImagePtr cv_ptr = cv_bridge::toCvCopy(msg, "bgr8");
  image_pub_.publish(cv_ptr->toImageMsg());
  cv_bridge::CvImage dbg(std_msgs::Header(), "mono8", gray);
  image_pub_.publish(dbg.toImageMsg());
  cv_bridge::CvImagePtr made(new cv_bridge::CvImage);
  made->image = gray;
  image_pub_.publish(made->toImageMsg());
}
"""
    assert _found(analyze_cpp(text, "node.cpp"), "MISSING_FRAME") == [5, 13, 16]


def test_a_default_tf_stamped_transform_takes_its_frames_from_its_members() -> None:
    """LOAM (laserOdometry.cpp:416-420, :1018-1020) and its forks: ``tf::StampedTransform t;`` gets
    ``t.frame_id_`` and ``t.child_frame_id_``, then setRotation / setOrigin (a tf::Transform's), and is sent."""
    text = """\
int main(int argc, char** argv) {
  tf::TransformBroadcaster tfBroadcaster;
  tf::StampedTransform laserOdometryTrans;
  laserOdometryTrans.frame_id_ = "camera_init";
  laserOdometryTrans.child_frame_id_ = "camera";
  while (ros::ok()) {
    laserOdometryTrans.stamp_ = ros::Time::now();
    laserOdometryTrans.setRotation(tf::Quaternion(0, 0, 0, 1));
    laserOdometryTrans.setOrigin(tf::Vector3(1.0, 0.0, 0.0));
    tfBroadcaster.sendTransform(laserOdometryTrans);
  }
  tf::StampedTransform nothing;
  tfBroadcaster.sendTransform(nothing);
}
"""
    facts = analyze_cpp(text, "laserOdometry.cpp")
    assert [(e.parent, e.child, e.translation, e.rotation) for e in facts.edges] == [("camera_init", "camera", (1.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))]
    assert sorted((f.code, f.location.line) for f in facts.findings if f.location) == [("MISSING_CHILD_FRAME", 13), ("MISSING_FRAME", 13)]


# wavelab/ximea_camera before its fix: the CameraInfo camera_info_manager loads from the calibration file has
# no frame (the file format holds none), and the driver published it as it came.
XIMEA_CPP = """\
#include <sensor_msgs/CameraInfo.h>
#include <camera_info_manager/camera_info_manager.h>
class ximea_ros_driver {
  sensor_msgs::CameraInfo cam_info_;
  ros::Publisher cam_info_pub_;
  boost::shared_ptr<camera_info_manager::CameraInfoManager> cam_info_manager_;
 public:
  void publishCamInfo(const ros::Time &now);
};
void ximea_ros_driver::publishCamInfo(const ros::Time &now)
{
  cam_info_ = cam_info_manager_->getCameraInfo();
  cam_info_pub_.publish(cam_info_);
}
"""

CAMERA_INFO_PY = """\
class Node:
    def publish_info(self, stamp):
        info = self.manager.getCameraInfo()
        info.header.stamp = stamp
        self.info_pub.publish(info)
"""


def test_camera_info_from_camera_info_manager_has_no_frame() -> None:
    found = [(f.code, f.location.line if f.location else None) for f in analyze_cpp(XIMEA_CPP, "src/ximea_ros_driver.cpp").findings]
    assert found == [("MISSING_FRAME", 13)]
    py = [(f.code, f.location.line if f.location else None) for f in analyze_python(CAMERA_INFO_PY, "node.py").findings]
    assert py == [("MISSING_FRAME", 5)]


def test_camera_info_manager_given_a_message_elsewhere_may_hold_a_frame() -> None:
    # gazebo_ros_camera_utils: setCameraInfo(msg) with msg.header.frame_id set; getCameraInfo gives it back
    given = XIMEA_CPP + "void init(camera_info_manager::CameraInfoManager& m, sensor_msgs::CameraInfo& c) { m.setCameraInfo(c); }\n"
    assert analyze_cpp(given, "src/ximea_ros_driver.cpp").findings == []
    assert analyze_python(CAMERA_INFO_PY + "\n    def init(self, c):\n        self.manager.setCameraInfo(c)\n", "node.py").findings == []


def test_camera_info_stored_then_replaced_by_a_loaded_calibration_has_no_frame() -> None:
    # magazino/pylon_camera before 56c0091: a framed CameraInfo is stored with setCameraInfo, then
    # loadCameraInfo(url) replaces it with the calibration file's (no frame), which spin() publishes
    loaded = XIMEA_CPP + (
        "void init(camera_info_manager::CameraInfoManager& m, sensor_msgs::CameraInfo& c, const std::string& url) {\n"
        "  m.setCameraInfo(c);\n  m.loadCameraInfo(url);\n}\n"
    )
    assert [(f.code, f.location.line if f.location else None) for f in analyze_cpp(loaded, "src/ximea_ros_driver.cpp").findings] == [("MISSING_FRAME", 13)]
    py = CAMERA_INFO_PY + "\n    def init(self, c):\n        self.manager.setCameraInfo(c)\n        self.manager.loadCameraInfo()\n"
    assert [(f.code, f.location.line if f.location else None) for f in analyze_python(py, "node.py").findings] == [("MISSING_FRAME", 5)]
    # avt_vimba_camera: a calibration loaded, then framed and stored again in the same function
    stored_again = XIMEA_CPP + (
        "void update(camera_info_manager::CameraInfoManager& m, const std::string& url, const std::string& f) {\n"
        "  m.loadCameraInfo(url);\n  sensor_msgs::CameraInfo ci = m.getCameraInfo();\n  ci.header.frame_id = f;\n"
        "  m.setCameraInfo(ci);\n}\n"
    )
    assert analyze_cpp(stored_again, "src/ximea_ros_driver.cpp").findings == []


# wolfgang_robot's webots_robot_controller.py (before its fix): a stub's early return left above the real body.
WEBOTS_STUB = """\
from geometry_msgs.msg import PointStamped

class RobotController:
    def get_pressure_message(self):
        return FootPressure(), PointStamped()
        left = FootPressure()
        cop = PointStamped()
        cop.header.frame_id = "l_sole"
        return left, cop

    def publish_pressure(self):
        left, cop = self.get_pressure_message()
        self.pub_left.publish(left)
        self.cop_pub.publish(cop)
"""


def test_code_after_an_early_return_never_runs() -> None:
    facts = analyze_python(WEBOTS_STUB, "webots_robot_controller.py")
    (missing,) = [f for f in facts.findings if f.code == "MISSING_FRAME"]
    assert missing.location is not None and missing.location.line == 14
    assert "PointStamped 'cop' (built at line 5) is published with header.frame_id never set" in missing.message
    # without the stub's return, the real body sets the frame
    fixed = analyze_python(WEBOTS_STUB.replace("        return FootPressure(), PointStamped()\n", ""), "c.py")
    assert not [f for f in fixed.findings if f.code == "MISSING_FRAME"]


def test_tf2_to_msg_of_a_stamped_transform_has_no_child_frame() -> None:
    """neonavigation's tf_projection.cpp (before its fix): tf2::toMsg(tf2::Stamped<tf2::Transform>) fills the
    header and the transform, never child_frame_id; the broadcast went out with it empty."""
    header = "class TfProjectionNode {\n  tf2::Stamped<tf2::Transform> project(const tf2::Stamped<tf2::Transform>& a);\n};\n"
    text = """\
class TfProjectionNode {
  void process() {
    const auto result = project(trans, trans_target);
    geometry_msgs::TransformStamped trans_out = tf2::toMsg(result);
    trans_out.header.stamp = trans.stamp_;
    tf_broadcaster_.sendTransform(trans_out);
  }
  void fixed() {
    tf2::Stamped<tf2::Transform> result;
    geometry_msgs::TransformStamped out = tf2::toMsg(result);
    out.child_frame_id = frames_["target"];
    tf_broadcaster_.sendTransform(out);
  }
  void identity(const geometry_msgs::TransformStamped& in) {
    geometry_msgs::TransformStamped same = tf2::toMsg(in);
    tf_broadcaster_.sendTransform(same);
  }
};
"""
    facts = analyze_cpp(text, "src/tf_projection.cpp", headers=[header])
    # tf2's toMsg of a TransformStamped is the identity: its child frame is whatever the input had
    assert [(f.code, f.location.line if f.location else None) for f in facts.findings] == [("MISSING_CHILD_FRAME", 6)]


def test_tf2_convert_of_a_stamped_transform_member_wipes_the_child_frame() -> None:
    """norlab_imu_tools' imu_and_wheel_odom_node.cpp: the child frame is set once in the constructor, and
    tf2::convert(transform_, transform_msg_), which is fromMsg(toMsg(a), b), rebuilds the message without it."""
    text = """\
class ImuAndWheelOdomNode : public rclcpp::Node {
public:
  ImuAndWheelOdomNode() {
    transform_.frame_id_ = p_odom_frame_;
    transform_msg_.child_frame_id = p_base_frame_;
  }
  void imuMsgCallback(const sensor_msgs::msg::Imu& imu_msg) {
    transform_.setRotation(current_attitude);
    tf2::convert(transform_, transform_msg_);
    tfBroadcaster->sendTransform(transform_msg_);
  }
  void fixed() {
    tf2::convert(transform_, transform_msg_);
    transform_msg_.child_frame_id = p_base_frame_;
    tfBroadcaster->sendTransform(transform_msg_);
  }
private:
  std::string p_odom_frame_ = "odom";
  std::string p_base_frame_ = "base_link";
  tf2::Stamped<tf2::Transform> transform_;
  geometry_msgs::msg::TransformStamped transform_msg_;
};
"""
    facts = analyze_cpp(text, "src/imu_and_wheel_odom_node.cpp")
    assert [(f.code, f.location.line if f.location else None) for f in facts.findings] == [("MISSING_CHILD_FRAME", 10)]


def test_a_fresh_pcl_cloud_converted_with_to_ros_msg_has_no_frame() -> None:
    """lidarslam_ros2's graph_based_slam (before its fix): the map cloud made fresh and grown with `+=`
    (PCL's concatenation keeps the left cloud's empty frame), converted and published with no frame."""
    text = """\
void GraphBasedSlamComponent::doPoseAdjustment(lidarslam_ros2_msgs::msg::MapArray map_array_msg)
{
    pcl::PointCloud<pcl::PointXYZI>::Ptr map_ptr(new pcl::PointCloud<pcl::PointXYZI>());
    for (int i = 0; i < n; i++) {
        pcl::PointCloud<pcl::PointXYZI>::Ptr cloud_ptr(new pcl::PointCloud<pcl::PointXYZI>());
        pcl::fromROSMsg(map_array_msg.submaps[i].cloud, *cloud_ptr);
        *map_ptr += *cloud_ptr;
    }
    sensor_msgs::msg::PointCloud2::Ptr map_msg_ptr(new sensor_msgs::msg::PointCloud2);
    pcl::toROSMsg(*map_ptr, *map_msg_ptr);
    modified_map_pub_->publish(*map_msg_ptr);
}
void others(const sensor_msgs::PointCloud2& in)
{
    pcl::PointCloud<pcl::PointXYZ> pts;
    pts.push_back(p);
    sensor_msgs::PointCloud2 out;
    pcl::toROSMsg(pts, out);
    out.header.frame_id = "map";
    pub.publish(out);
    sensor_msgs::PointCloud2 before;
    before.header.frame_id = "map";
    pcl::toROSMsg(pts, before);
    pub.publish(before);
    pcl::PointCloud<pcl::PointXYZ> converted;
    pcl::fromROSMsg(in, converted);
    sensor_msgs::PointCloud2 back;
    pcl::toROSMsg(converted, back);
    pub.publish(back);
}
"""
    facts = analyze_cpp(text, "src/graph_based_slam_component.cpp")
    found = [(f.code, f.location.line if f.location else None) for f in facts.findings]
    # a frame set after the conversion stands; one set before it is overwritten; a converted cloud carries its frame
    assert found == [("MISSING_FRAME", 11), ("MISSING_FRAME", 23)]


def test_fresh_pcl_clouds_declared_together() -> None:
    """phoxi_camera (before 'fix normal_map'): ``pcl::PointCloud<pcl::PointXYZ> cloud, normals;`` declares two fresh
    clouds; the points cloud was framed after its conversion, the normals cloud published with none."""
    text = """\
void publish_frame(pho::api::PFrame MyFrame)
{
    pcl::PointCloud <pcl::PointXYZ> cloud, normals;
    cloud.push_back(pcl::PointXYZ(1.0f, 2.0f, 3.0f));
    normals.push_back(pcl::PointXYZ(0.0f, 0.0f, 1.0f));
    sensor_msgs::PointCloud2 output_cloud;
    sensor_msgs::PointCloud2 output_normals;
    pcl::toROSMsg(cloud, output_cloud);
    pcl::toROSMsg(normals, output_normals);
    output_cloud.header.frame_id = "map";
    pub_cloud.publish(output_cloud);
    pub_normals.publish(output_normals);
}
"""
    found = [(f.code, f.location.line if f.location else None) for f in analyze_cpp(text, "src/phoxi_camera_node.cpp").findings]
    assert found == [("MISSING_FRAME", 12)]


def test_a_cloud_loaded_from_a_pcd_file_has_no_frame() -> None:
    """pcl_apps' PCD loader (before its PR #51): a pcl::PCLPointCloud2 loaded from a PCD file, which holds no frame,
    converted with fromPCL and published. A cloud filled from a message (toPCL) carries that message's frame."""
    text = """\
PcdLoaderComponent::PcdLoaderComponent(const rclcpp::NodeOptions & options)
: Node("pcd_loader", options)
{
  pcl::PCLPointCloud2 cloud;
  int result = pcl::io::loadPCDFile(file_path, cloud);
  if (result == 0) {
    sensor_msgs::msg::PointCloud2 msg;
    pcl_conversions::fromPCL(cloud, msg);
    pub_->publish(msg);
  }
}
void Relay::callback(const sensor_msgs::msg::PointCloud2 & in)
{
  pcl::PCLPointCloud2 cloud;
  pcl_conversions::toPCL(in, cloud);
  sensor_msgs::msg::PointCloud2 out;
  pcl_conversions::fromPCL(cloud, out);
  pub_->publish(out);
}
"""
    found = [(f.code, f.location.line if f.location else None) for f in analyze_cpp(text, "src/pcd_loader_component.cpp").findings]
    assert found == [("MISSING_FRAME", 9)]


def test_other_packages_stamped_types_are_known_by_their_package() -> None:
    """Autoware.AI's obj_reproj (before its PR #310): jsk's BoundingBoxArray built by a helper with its boxes
    and no frame. darknet_ros_msgs' BoundingBox has no header at all: the short name alone says nothing."""
    text = """\
#include <jsk_recognition_msgs/BoundingBoxArray.h>
static jsk_recognition_msgs::BoundingBoxArray convertJskBoundingBoxArray(const cv_tracker::obj_label& obj_label)
{
  jsk_recognition_msgs::BoundingBoxArray ret;
  for (unsigned int i = 0; i < obj_label.obj_id.size(); ++i) {
    ret.boxes.push_back(box_of(obj_label, i));
  }
  return ret;
}
static void publish(const cv_tracker::obj_label& obj_label_msg)
{
  jsk_recognition_msgs::BoundingBoxArray boxes = convertJskBoundingBoxArray(obj_label_msg);
  jsk_bounding_box_pub.publish(boxes);
  darknet_ros_msgs::BoundingBox box;
  box.probability = 0.5;
  box_pub.publish(box);
}
"""
    assert mentions_tf(text)
    assert _found(analyze_cpp(text, "nodes/obj_reproj/obj_reproj.cpp"), "MISSING_FRAME") == [13]
    python = """\
from vision_msgs.msg import Detection2DArray
from darknet_ros_msgs.msg import BoundingBox

def publish(self, results):
    detections = Detection2DArray()
    detections.detections = results
    self.pub.publish(detections)
    self.box_pub.publish(BoundingBox())
"""
    assert mentions_tf(python)
    assert _found(analyze_python(python, "detector.py"), "MISSING_FRAME") == [7]
    # cob_fiducials' fiducials.cpp (before 4c21481): the DetectionArray a helper of the file fills with detections
    # and no header; people_msgs' People, framed, is not reported
    cob = """\
void CobFiducialsNode::colorImageCallback() {
  cob_object_detection_msgs::DetectionArray detection_array;
  detectFiducials(detection_array, color_mat_8U3_);
  detect_fiducials_pub_.publish(detection_array);
  people_msgs::People people;
  people.header.frame_id = received_frame_id_;
  people_pub_.publish(people);
}
bool CobFiducialsNode::detectFiducials(cob_object_detection_msgs::DetectionArray& detection_array, cv::Mat& color_image) {
  cob_object_detection_msgs::Detection fiducial_instance;
  fiducial_instance.pose.header.frame_id = received_frame_id_;
  detection_array.detections.push_back(fiducial_instance);
  return true;
}
"""
    assert mentions_tf(cob)
    assert _found(analyze_cpp(cob, "ros/src/fiducials.cpp"), "MISSING_FRAME") == [4]


def test_an_nmea_sentence_is_stamped_data() -> None:
    # etherbotix_python's gps_publisher (before its fix): nmea_navsat_driver's topic driver stamps the NavSatFix it
    # makes with the Sentence's frame, so an empty one reaches the fix
    python = """\
import rospy
from nmea_msgs.msg import Sentence


class GPSPublisher:
    def run(self):
        while not rospy.is_shutdown():
            packet = self.getPacket()
            if packet:
                s = Sentence()
                s.header.stamp = rospy.Time.now()
                s.sentence = packet.params.rstrip()
                self.publisher.publish(s)
"""
    assert mentions_tf(python)
    assert _found(analyze_python(python, "nodes/gps_publisher.py"), "MISSING_FRAME") == [13]


CLOUDS = """\
import copy
import rospy
from std_msgs.msg import Header
from sensor_msgs import point_cloud2 as pc2
from sensor_msgs.msg import Image, PointCloud2
from geometry_msgs.msg import PoseStamped

class Detector(object):
    def publish(self, points, image):
        header = Header()
        header.stamp = rospy.Time.now()
        cloud = pc2.create_cloud_xyz32(header, points)
        self.cloud_pub.publish(cloud)
        named = Header(stamp=rospy.Time.now())
        named_cloud = pc2.create_cloud_xyz32(named, points)
        named.frame_id = self.frame_id
        self.cloud_pub.publish(named_cloud)
        self.cloud_pub.publish(pc2.create_cloud(self.scan.header, self.fields, points))
        self.image_pub.publish(self.bridge.cv2_to_imgmsg(image, "bgr8", header))
        pose = PoseStamped()
        pose.pose.orientation.w = 1.0
        self.pose_pub.publish(copy.deepcopy(pose))
"""


def test_python_messages_made_from_a_header_or_copied() -> None:
    # the cloud and the image hold the header they are given, the very object (a frame set on it later counts);
    # a header from elsewhere is unknown; a deep copy has the fields of the original
    assert _found(analyze_python(CLOUDS, "detector.py"), "MISSING_FRAME") == [13, 19, 22]


COPIES_CPP = """\
void Driver::publish(const sensor_msgs::msg::Imu::SharedPtr incoming)
{
  sensor_msgs::msg::Imu imu;
  imu.header.stamp = now();
  sensor_msgs::msg::Imu copy(imu);
  imu_pub_->publish(copy);
  sensor_msgs::msg::Imu relayed(*incoming);
  imu_pub_->publish(relayed);
  sensor_msgs::msg::Imu braced{imu};
  braced.header.frame_id = frame_id_;
  imu_pub_->publish(braced);
}
"""


def test_cpp_copy_of_a_message_built_here_keeps_its_fields() -> None:
    # `Imu copy(imu)` parses as a function declaration; a copy of a received message may carry its frame
    assert _found(analyze_cpp(COPIES_CPP, "driver.cpp"), "MISSING_FRAME") == [6]


SONAR_CPP = """\
class Sonar : public rclcpp::Node
{
  cv_bridge::CvImage cv_image_;
  nav_msgs::msg::Odometry odom_;
  rclcpp::Publisher<nav_msgs::msg::Odometry>::SharedPtr odom_pub_;
public:
  Sonar() : Node("sonar"), odom_(rosidl_runtime_cpp::MessageInitialization::ZERO)
  {
    odom_.child_frame_id = "base_link";
  }
  sensor_msgs::msg::LaserScan scan()
  {
    sensor_msgs::msg::LaserScan msg;
    msg.header.set__stamp(now());
    msg.header.set__frame_id(frame_id_);
    return msg;
  }
  sensor_msgs::msg::Image image()
  {
    sensor_msgs::msg::Image msg;
    cv_image_.toImageMsg(msg);
    return msg;
  }
  void tick()
  {
    scan_pub_->publish(scan());
    image_pub_->publish(image());
    odom_pub_->publish(odom_);
  }
};
"""


def test_ros2_setters_cv_bridge_fill_and_zero_initialised_members() -> None:
    # ping360_sonar: rosidl's set__frame_id is a write; cv_bridge's toImageMsg(msg) gives msg the CvImage's header,
    # never set here; raspimouse2: a member built with MessageInitialization::ZERO is built, not copied
    facts = analyze_cpp(SONAR_CPP, "sonar.cpp")
    assert _found(facts, "MISSING_FRAME") == [27, 28]


HISTORY_CPP = """\
pcl::PointCloud<pcl::PointXYZRGB>::Ptr history_cloud;
pcl::PointCloud<pcl::PointXYZRGB>::Ptr trail_cloud;

int createMsg(opt_msgs::TrackArray & track_msg)
{
  track_msg.header.frame_id = saved_frame;
  history_cloud->header.frame_id = saved_frame;
  trail_cloud->header.stamp = 0;
  return 1;
}

int main(int argc, char ** argv)
{
  history_cloud = boost::make_shared<pcl::PointCloud<pcl::PointXYZRGB> >();
  trail_cloud = boost::make_shared<pcl::PointCloud<pcl::PointXYZRGB> >();
  while (ros::ok())
  {
    opt_msgs::TrackArray track_msg;
    createMsg(track_msg);
    history_pub.publish(history_cloud);
    trail_pub.publish(trail_cloud);
  }
}
"""


def test_a_global_built_in_main_and_filled_by_a_function_of_the_file() -> None:
    # open_ptrack's tracker_filter_node after its fix: the helper main calls sets the global cloud's frame; a stamp
    # alone gives none
    assert _found(analyze_cpp(HISTORY_CPP, "tracker_filter_node.cpp"), "MISSING_FRAME") == [21]


OCTOMAP_CPP = """\
void OctomapManager::publishAll()
{
  octomap_msgs::Octomap binary_map, full_map, framed_map;
  generateOctomapMsg(binary_map);
  octomap_msgs::binaryMapToMsg(*octree_, binary_map);
  octomap_msgs::fullMapToMsg(*octree_, full_map);
  framed_map.header.frame_id = world_frame_;
  octomap_msgs::binaryMapToMsg(*octree_, framed_map);
  binary_map_pub_.publish(binary_map);
  full_map_pub_.publish(full_map);
  framed_map_pub_.publish(framed_map);
}
"""


def test_octomap_conversions_fill_the_map_but_not_its_header() -> None:
    # volumetric_mapping before its fix; the map handed to a helper of the code's own may get its frame there
    assert _found(analyze_cpp(OCTOMAP_CPP, "octomap_manager.cc"), "MISSING_FRAME") == [10]


GOALS_CPP = """\
void Explore::makePlan()
{
  move_base_msgs::MoveBaseGoal goal;
  goal.target_pose.pose.position = target_position;
  goal.target_pose.pose.orientation.w = 1.;
  move_base_client_.sendGoal(goal, [this](const actionlib::SimpleClientGoalState& status, const ResultConstPtr& r) {});
  move_base_msgs::MoveBaseGoal framed;
  framed.target_pose.header.frame_id = global_frame_;
  move_base_client_.sendGoal(framed);
  move_base_msgs::MoveBaseGoal filled;
  fillGoal(filled);
  move_base_client_.sendGoal(filled);
  nav2_msgs::action::NavigateToPose::Goal nav_goal;
  nav_goal.pose.pose.position.x = 1.0;
  client_->async_send_goal(nav_goal, options);
}
"""
GOALS_PY = """\
goal = MoveBaseGoal()
goal.target_pose.pose.position.x = x
client.send_goal(goal)
nav_goal = NavigateToPose.Goal()
nav_goal.pose = pose_stamped
self.nav_client.send_goal_async(nav_goal)
"""


def test_navigation_goals_sent_with_their_pose_frame_never_set() -> None:
    # m-explore's Explore::makePlan before its fix; a goal whose frame is set, or that a helper fills, is not reported
    assert _found(analyze_cpp(GOALS_CPP, "explore.cpp"), "MISSING_FRAME") == [6, 15]
    assert _found(analyze_python(GOALS_PY, "explore.py"), "MISSING_FRAME") == [3]


WAYPOINT_GOALS = """\
class Waypoint {
 public:
  bool readCsv(const std::vector<double>& input_data) {
    goal.target_pose.pose.position.x = input_data[0];
    goal.target_pose.pose.orientation.w = input_data[6];
    return true;
  }
  move_base_msgs::MoveBaseGoal goal;
};
void GoalSender::sendGoalPoint() {
  now_waypoint->goal.target_pose.header.stamp = ros::Time::now(); // others writed by Waypoint class
  move_base_client.sendGoal(now_waypoint->goal); // send waypoint
}
"""


def test_a_goal_held_by_a_waypoint_and_only_stamped() -> None:
    """fifth_robot_pkg's goal_sender: each waypoint's MoveBaseGoal is filled from a CSV with no frame, only its stamp
    is set before ``sendGoal(now_waypoint->goal)``; once the frame is written it is not reported."""
    assert _found(analyze_cpp(WAYPOINT_GOALS, "goal_sender_node.cpp"), "MISSING_FRAME") == [12]
    framed = WAYPOINT_GOALS.replace("    return true;", '    goal.target_pose.header.frame_id = "map";\n    return true;')
    assert _found(analyze_cpp(framed, "goal_sender_node.cpp"), "MISSING_FRAME") == []


PARTICLE_CLOUD = """\
#include <geometry_msgs/PoseArray.h>
class Particle {
  public:
    Particle() {
        pub_p_poses = nh.advertise<geometry_msgs::PoseArray>("p_poses", 100);
        pose.header.frame_id = "map";  // chibi21_a: the frame went to the single pose, not the particle array
    }
    void process() { pub_p_poses.publish(poses); }
  private:
    ros::Publisher pub_p_poses;
    geometry_msgs::PoseStamped pose;
    geometry_msgs::PoseArray poses;
};
"""


def test_a_pose_array_is_stamped_data() -> None:
    facts = analyze_cpp(PARTICLE_CLOUD, "src/amcl.cpp")
    assert [(f.code, f.location.line if f.location else None) for f in facts.findings] == [("MISSING_FRAME", 8)]
    assert "PoseArray member 'poses'" in facts.findings[0].message
    fixed = PARTICLE_CLOUD.replace('pose.header.frame_id = "map";', 'poses.header.frame_id = "map";')
    assert analyze_cpp(fixed, "src/amcl.cpp").findings == []


# septentrio_gnss_driver before "Fix empty headers": its messages are declared through typedefs of its own header and
# sent by its own publish<M>(topic, msg); the NavSatFix never got a header (the Imu beside it copies one)
SEPTENTRIO_TYPES = """\
typedef sensor_msgs::msg::NavSatFix NavSatFixMsg;
using ImuMsg = sensor_msgs::msg::Imu;
"""
SEPTENTRIO = """\
#include <septentrio_gnss_driver/communication/message_handler.hpp>
void MessageHandler::assembleNavSatFix()
{
    NavSatFixMsg msg;
    msg.latitude = deg2rad(last_pvtgeodetic_.latitude);
    publish<NavSatFixMsg>("/navsatfix", msg);
}
void MessageHandler::assembleImu()
{
    ImuMsg msg;
    msg.header = last_imu_header_;
    publish<ImuMsg>("/imu", msg);
}
"""


def test_a_message_typedef_and_the_node_s_own_topic_publish() -> None:
    facts = analyze_cpp(SEPTENTRIO, "src/septentrio_gnss_driver/communication/message_handler.cpp", headers=[SEPTENTRIO_TYPES])
    assert [(f.code, f.location.line) for f in facts.findings if f.location] == [("MISSING_FRAME", 6)]
    assert "NavSatFix 'msg'" in facts.findings[0].message
    # without the typedef the type is unknown, and a publish of the code's own without a topic is not a ROS publish
    assert analyze_cpp(SEPTENTRIO, "a.cpp").findings == []
    assert analyze_cpp(SEPTENTRIO.replace('"/navsatfix", msg', "msg"), "a.cpp", headers=[SEPTENTRIO_TYPES]).findings == []


MUTEXED = """\
void Republisher::odometryCallback(const nav_msgs::Odometry::ConstPtr& odom) {
  nav_msgs::Odometry odom_transformed;
  odom_transformed.header = odom->header;
  odom_transformed.header.frame_id = world_frame_;
  mrs_lib::set_mutexed(mtx_odom_init_, odom_transformed, odom_init_);
  publisher_odom_.publish(odom_transformed);
}
"""


def test_a_library_call_that_only_reads_the_message_leaves_it_known() -> None:
    """mrs_vins_republisher: mrs_lib's set_mutexed(mutex, value, target) copies the odometry aside, so its missing
    child frame is still known at the publish; a call the scan cannot see into (`fill(odom)`) may set it."""
    assert _found(analyze_cpp(MUTEXED, "republisher.cpp"), "MISSING_CHILD_FRAME") == [6]
    unknown = MUTEXED.replace("mrs_lib::set_mutexed(mtx_odom_init_, odom_transformed, odom_init_)", "fill(mtx_odom_init_, odom_transformed)")
    assert _found(analyze_cpp(unknown, "republisher.cpp"), "MISSING_CHILD_FRAME") == []


KALIBR_BAGCREATER = """\
import rosbag
import cv2
import sensor_msgs.msg
from sensor_msgs.msg import Imu


def loadImageToRosMsg(filename, camfolder):
    image_np = cv2.imread(filename, cv2.IMREAD_GRAYSCALE)
    rosimage = sensor_msgs.msg.Image()
    rosimage.header.stamp = timestamp
    rosimage.height = image_np.shape[0]
    return rosimage


def main(parsed):
    bag = rosbag.Bag(parsed.output_bag, 'w')
    for filename in files:
        image_msg = loadImageToRosMsg(filename, 'cam0')
        bag.write('/cam0/image_raw', image_msg, timestamp)
    imu = Imu()
    imu.header.stamp = timestamp
    imu.header.frame_id = 'imu0'
    bag.write('/imu0', imu, timestamp)
    log.write('done')
"""

KALIBR_CPP = """\
void record(rosbag::Bag & bag) {
  sensor_msgs::Imu imu;
  imu.header.stamp = ros::Time::now();
  bag.write("/imu0", imu.header.stamp, imu);
}
"""


def test_a_message_written_into_a_bag_is_data_published() -> None:
    """kalibr's bag creator wrote its images with no frame (`bag.write(topic, msg, t)`; C++ rosbag takes
    `(topic, time, msg)`); the IMU it framed and a log file's `write` are left alone."""
    found = [(f.code, f.location.line if f.location else None) for f in analyze_python(KALIBR_BAGCREATER, "python/kalibr_bagcreater").findings
             if f.code == "MISSING_FRAME"]
    assert found == [("MISSING_FRAME", 19)]
    found = [(f.code, f.location.line if f.location else None) for f in analyze_cpp(KALIBR_CPP, "src/record.cpp").findings
             if f.code == "MISSING_FRAME"]
    assert found == [("MISSING_FRAME", 4)]
