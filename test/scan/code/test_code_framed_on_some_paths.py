"""A message whose frame is written only inside a loop or one branch, and published after it: the frame is empty
whenever the loop does not run or the branch is not taken (pal-robotics' gpd_utils: the grasp candidates' PoseArray
framed from the first candidate only when there is one; an ArUco node framing its PoseArray only when the marker it
looks for is seen; cam_lidar_calibration's board cloud framed inside the loop over its samples)."""

from __future__ import annotations

from physframe_ros.core.findings import Location
from physframe_ros.scan.code import analyze_cpp, analyze_python

CANDIDATES = """\
void TabletopCloudCandidates::publish(smach_c::UserData& user_data)
{
  std::vector<geometry_msgs::PoseStamped> grasp_cand;
  user_data.getPropertyValue("grasp_candidates", grasp_cand);

  geometry_msgs::PoseArray grasp_candidates_pose = geometry_msgs::PoseArray();
  if (grasp_cand.size() > 0)
  {
    grasp_candidates_pose.header = grasp_cand.at(0).header;
    for (auto grasp : grasp_cand)
      grasp_candidates_pose.poses.push_back(grasp.pose);
  }
  grasp_candidates_pub.publish(grasp_candidates_pose);
}

void ArucoDetect::imageCallback(const sensor_msgs::ImageConstPtr& msg)
{
  geometry_msgs::PoseArray pose_array_msg;
  for (size_t i = 0; i < markerIds.size(); i++)
  {
    if (markerIds[i] == desired_aruco_marker_id)
    {
      pose_array_msg.header.stamp = msg->header.stamp;
      pose_array_msg.header.frame_id = msg->header.frame_id;
      pose_array_msg.poses.push_back(pose);
    }
  }
  pose_array_pub.publish(pose_array_msg);
}
"""

FRAMED_EVERY_WAY = """\
void Either::publish(bool simulated)
{
  geometry_msgs::PoseArray poses;
  if (simulated) {
    poses.header.frame_id = "odom";
  } else if (calibrated_) {
    poses.header.frame_id = "map";
  } else {
    poses.header.frame_id = "base_link";
  }
  pub_.publish(poses);
}

void Before::publish(const std::vector<geometry_msgs::Pose>& found)
{
  geometry_msgs::PoseArray poses;
  poses.header.frame_id = "map";
  for (const auto& p : found) {
    poses.header.stamp = ros::Time::now();
    poses.header.frame_id = "odom";
    poses.poses.push_back(p);
  }
  pub_.publish(poses);
}

void Inside::publish(const std::vector<geometry_msgs::Pose>& found)
{
  for (const auto& p : found) {
    geometry_msgs::PoseStamped pose;
    if (valid_) {
      pose.header.frame_id = "map";
      pub_.publish(pose);
    }
  }
}

void Helper::publish()
{
  geometry_msgs::PoseStamped pose;
  if (ready_) {
    pose.pose.position.x = 1.0;
  }
  fillHeader(pose.header);
  pub_.publish(pose);
}
"""

PYTHON = """\
import rospy
from geometry_msgs.msg import PoseArray


class Detector:
    def publish(self, detections):
        msg = PoseArray()
        for d in detections:
            msg.header = d.header
            msg.poses.append(d.pose)
        self.pub.publish(msg)

    def both(self, found):
        msg = PoseArray()
        if found:
            msg.header.frame_id = "map"
        else:
            msg.header.frame_id = "odom"
        self.pub.publish(msg)
"""


def _skipped(findings: list) -> list[tuple[Location | None, str]]:
    return [(f.location, f.message) for f in findings if "written only inside" in f.message]


def test_a_frame_written_only_in_a_branch_or_a_loop_is_empty_when_it_does_not_run() -> None:
    found = _skipped(analyze_cpp(CANDIDATES, "src/tabletop_cloud_candidates_sm.cpp").findings)
    assert [loc for loc, _ in found] == [Location("src/tabletop_cloud_candidates_sm.cpp", 13), Location("src/tabletop_cloud_candidates_sm.cpp", 28)]
    first, second = (message for _, message in found)
    assert "PoseArray 'grasp_candidates_pose' (built at line 6)" in first and "'if (grasp_cand.size() > 0)' at line 7" in first
    assert "branch is not taken" in first
    # the outermost statement that may not run: the loop over the markers
    assert "'for (size_t i = 0; i < markerIds.size(); i++)' at line 19" in second and "loop does not run" in second
    assert all(f.level.name == "WARNING" for f in analyze_cpp(CANDIDATES, "src/t.cpp").findings if "written only inside" in f.message)


def test_a_frame_written_on_every_path_before_the_publish_is_no_finding() -> None:
    # both branches of an if-else chain, a write before the loop, a publish inside the guard, a helper filling the header
    assert _skipped(analyze_cpp(FRAMED_EVERY_WAY, "src/either.cpp").findings) == []


def test_python_loops_and_branches_alike() -> None:
    found = _skipped(analyze_python(PYTHON, "scripts/detector.py").findings)
    assert [loc for loc, _ in found] == [Location("scripts/detector.py", 11)]
    assert "'for d in detections' at line 8" in found[0][1]


HELPER_BRANCH = """\
void StereoNodelet::fillImage(sensor_msgs::Image& image)
{
  if (cam_.IsConnected() && captureRunning_) {
    image.header.frame_id = frame_id_;
  }
}

void StereoNodelet::devicePoll()
{
  sensor_msgs::Image image;
  fillImage(image);
  pub_.publish(image);
}
"""


def test_a_helper_framing_the_message_in_its_own_branch_is_not_the_callers_path() -> None:
    # the helper's branch is judged where the helper is walked alone, not at each caller's publish
    assert _skipped(analyze_cpp(HELPER_BRANCH, "src/stereo_nodelet.cpp").findings) == []


ZED = """\
void ZedCamera::publishPointCloud()
{
  auto pcMsg = std::make_unique<sensor_msgs::msg::PointCloud2>();
  if (pcMsg->width != width || pcMsg->height != height) {
    pcMsg->header.frame_id = mPointCloudFrameId;
    pcMsg->width = width;
    pcMsg->height = height;
  }
  mPubCloud->publish(std::move(pcMsg));
}
"""


def test_a_branch_testing_the_message_itself_is_its_initialisation() -> None:
    # stereolabs' zed wrapper: a message just made always has width 0, so the branch is always taken
    assert _skipped(analyze_cpp(ZED, "src/zed_camera_component.cpp").findings) == []


GATED = """\
void peopleCallback(const people_msgs::People &people_in)
{
  float mindist = FLT_MAX;
  nav_msgs::Odometry ninebot_measured_position;
  for (int i = 0; i < people_in.people.size(); ++i) {
    if (dist < MARGIN && mindist > dist) {
      mindist = dist;
      ninebot_measured_position.header.frame_id = "map";
    }
  }
  if (mindist < MARGIN) pub_pot.publish(ninebot_measured_position);
}

void Planner::publishPlan(const std::vector<geometry_msgs::PoseStamped>& path)
{
  nav_msgs::Path gui_path;
  if (!path.empty()) {
    gui_path.header.frame_id = path[0].header.frame_id;
  }
  if (plan_pub_.getNumSubscribers() > 0) {
    plan_pub_.publish(gui_path);
  }
}
void ArucoDetect::detect()
{
  geometry_msgs::msg::PoseArray pose_array_msg;
  if (markerIds.size() > 0) {
    for (size_t i = 0; i < markerIds.size(); i++) {
      if (markerIds[i] == desired_aruco_marker_id) {
        pose_array_msg.header.frame_id = "aruco_marker";
      }
    }
    pose_array_pub->publish(pose_array_msg);
  }
}
"""


def test_a_publish_under_its_own_condition_may_need_the_frame_written() -> None:
    # tms_ss_pot's ninebot_cropper publishes only when the branch that frames the message ran; navfn's plan is
    # published to whoever listens, framed or not; an ArUco node's publish under the condition that holds its marker
    # loop too is taken whether or not the wanted marker framed it
    found = _skipped(analyze_cpp(GATED, "src/ninebot_cropper.cpp").findings)
    assert [loc for loc, _ in found] == [Location("src/ninebot_cropper.cpp", 21), Location("src/ninebot_cropper.cpp", 33)]


FILLED = """\
void Tracker::callback(const pointcloud_msgs::PointCloud2_Segments& msg)
{
  pointcloud_msgs::PointCloud2_Segments c_;
  v_.push_back(msg);
  for (unsigned i = 0; i < v_.size(); i++) {
    c_.header.frame_id = msg.header.frame_id;
  }
  pub.publish(c_);
}
"""


def test_a_loop_over_a_container_the_function_just_filled_runs() -> None:
    # pointcloud2_cluster_tracking's fix frames its segments in the loop over the window it pushed the scan into
    assert _skipped(analyze_cpp(FILLED, "src/tracking.cpp").findings) == []


# amslabtech's chibi25_a: the goal member takes the path's header only once the robot nears the current goal
MEMBER_GOAL = """\
class LocalGoalCreator : public rclcpp::Node
{
public:
  void process()
  {
    double goal_distance = 1.5;
    if (target_distance_ < goal_distance) {
      goal_index_ += index_step_;
      goal_.header = path_.header;
      goal_.point = path_.poses[goal_index_].pose.position;
    }
    local_goal_pub_->publish(goal_);
  }
private:
  rclcpp::Publisher<geometry_msgs::msg::PointStamped>::SharedPtr local_goal_pub_;
  geometry_msgs::msg::PointStamped goal_;
  nav_msgs::msg::Path path_;
};
"""

MEMBER_FRAMED_ELSEWHERE_OR_FIRST = """\
class Framed : public rclcpp::Node
{
public:
  Framed() { goal_.header.frame_id = "map"; }
  void process()
  {
    if (near_) {
      goal_.header = path_.header;
    }
    goal_pub_->publish(goal_);
  }
  void once()
  {
    if (!initialized_) {
      start_.header = path_.header;
      initialized_ = true;
    }
    start_pub_->publish(start_);
  }
private:
  geometry_msgs::msg::PointStamped goal_;
  geometry_msgs::msg::PointStamped start_;
  nav_msgs::msg::Path path_;
};
"""

MEMBER_PYTHON = """\
class Tracker(Node):
    def __init__(self):
        super().__init__('tracker')
        self.target = PointStamped()
        self.pub = self.create_publisher(PointStamped, 'target', 1)

    def on_detection(self, det):
        if det.confidence > 0.5:
            self.target.header = det.header
            self.target.point = det.center
        self.pub.publish(self.target)
"""


def test_a_member_framed_only_in_a_branch_goes_out_empty_until_the_branch_first_runs() -> None:
    found = _skipped(analyze_cpp(MEMBER_GOAL, "src/local_goal_creator.cpp").findings)
    assert [loc for loc, _ in found] == [Location("src/local_goal_creator.cpp", 12)]
    assert "PointStamped member 'goal_'" in found[0][1] and "'if (target_distance_ < goal_distance)' at line 7" in found[0][1]
    assert "until that branch first runs" in found[0][1]
    python = _skipped(analyze_python(MEMBER_PYTHON, "tracker/tracker.py").findings)
    assert [loc for loc, _ in python] == [Location("tracker/tracker.py", 11)] and "member 'self.target'" in python[0][1]


def test_a_member_framed_in_another_method_or_on_the_first_call_is_no_finding() -> None:
    assert _skipped(analyze_cpp(MEMBER_FRAMED_ELSEWHERE_OR_FIRST, "src/framed.cpp").findings) == []
