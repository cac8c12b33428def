"""PX4's local world frame is NED; ROS's world frames are ENU, (y, x, -z). The PX4 offboard visualizer (copied into
px4-mpc) turned the local position and velocity by (x, -y, -z), the FRD -> FLU flip of body-frame vectors, and
published the result in ``map``: north-west-up."""

from __future__ import annotations

from physframe_ros.scan.code import analyze_cpp, analyze_python

VISUALIZER = """\
from px4_msgs.msg import VehicleAttitude, VehicleLocalPosition, TrajectorySetpoint, VehicleAngularVelocity

class PX4Visualizer(Node):
    def vehicle_local_position_callback(self, msg):
        # TODO: handle NED->ENU transformation
        self.vehicle_local_position[0] = msg.x
        self.vehicle_local_position[1] = -msg.y
        self.vehicle_local_position[2] = -msg.z
        self.vehicle_local_velocity[0] = msg.vx
        self.vehicle_local_velocity[1] = -msg.vy
        self.vehicle_local_velocity[2] = -msg.vz

    def trajectory_setpoint_callback(self, msg):
        self.setpoint_position[0] = msg.position[1]
        self.setpoint_position[1] = msg.position[0]
        self.setpoint_position[2] = -msg.position[2]

    def vehicle_angular_velocity_callback(self, msg):
        self.vehicle_angular_velocity[0] = msg.xyz[0]
        self.vehicle_angular_velocity[1] = -msg.xyz[1]
        self.vehicle_angular_velocity[2] = -msg.xyz[2]
"""

CPP = """\
#include <px4_msgs/msg/vehicle_odometry.hpp>
void Bridge::odometryCallback(const px4_msgs::msg::VehicleOdometry::SharedPtr msg) {
  pose_.pose.position.x = msg->position[0];
  pose_.pose.position.y = -msg->position[1];
  pose_.pose.position.z = -msg->position[2];
  pose_pub_->publish(pose_);
}
"""


def test_a_ned_position_turned_by_the_body_flip_is_reported_where_it_is_written() -> None:
    found = [(f.code, f.location.line if f.location else None) for f in analyze_python(VISUALIZER, "visualizer.py").findings
             if f.code == "INCORRECT_TRANSFORM"]
    # the setpoint is converted right (y, x, -z); angular rates are body-frame, where (x, -y, -z) is FRD -> FLU
    assert found == [("INCORRECT_TRANSFORM", 6), ("INCORRECT_TRANSFORM", 9)]


def test_cpp_and_indexed_fields() -> None:
    (found,) = [f for f in analyze_cpp(CPP, "src/bridge.cpp").findings if f.code == "INCORRECT_TRANSFORM"]
    assert found.location is not None and found.location.line == 3
    assert "in ROS's ENU world frames it is (y, x, -z)" in found.message


def test_outside_px4_code_nothing_is_said() -> None:
    assert analyze_python(VISUALIZER.replace("px4_msgs", "my_msgs"), "visualizer.py").findings == []


def test_a_ros_pose_given_px4s_position_as_it_is_or_mirrored() -> None:
    """ROS2_offboard_drone_control put VehicleOdometry's position as it is into a pose in `map` (NED read as ENU);
    mr-radio-localization's offboard nodes negated z alone, "it is NED, change to Z UP": (x, y, -z) is a mirror
    image, which no rotation gives. The code's own variables (a planner working in NED) are not judged."""
    def found(mapping: tuple[str, str, str], target: str = "odom_msg.pose.pose.position") -> list[str]:
        text = CPP.replace("pose_.pose.position.x = msg->position[0]", f"{target}.x = static_cast<double>({mapping[0]})")
        text = text.replace("pose_.pose.position.y = -msg->position[1]", f"{target}.y = static_cast<double>({mapping[1]})")
        text = text.replace("pose_.pose.position.z = -msg->position[2]", f"{target}.z = static_cast<double>({mapping[2]})")
        return [f.message for f in analyze_cpp(text, "src/bridge.cpp").findings if f.code == "INCORRECT_TRANSFORM"]

    (as_is,) = found(("msg->position[0]", "msg->position[1]", "msg->position[2]"))
    assert "as it is" in as_is and "(y, x, -z)" in as_is
    (mirrored,) = found(("msg->position[0]", "msg->position[1]", "-msg->position[2]"))
    assert "(x, y, -z), a mirror image" in mirrored
    assert found(("msg->position[1]", "msg->position[0]", "-msg->position[2]")) == []  # NED -> ENU
    assert found(("msg->position[0]", "msg->position[1]", "msg->position[2]"), "vehicle_position_") == []
