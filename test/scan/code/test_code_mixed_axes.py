"""A device's vectors turned into ROS axes beside one copied as the device gives it, under one header: the um6
drivers (ros-drivers/um6 and clearpathrobotics/imu_um6) published roll, pitch, yaw (and the magnetometer) in the
sensor's NED axes beside the ENU gyro and accelerometer, all stamped with the IMU's header."""

from __future__ import annotations

from physframe_ros.scan.code import analyze_cpp, analyze_python

UM6 = """\
void publishMsgs(um6::Registers& r, ros::NodeHandle* n, const std_msgs::Header& header) {
  if (imu_pub.getNumSubscribers() > 0) {
    sensor_msgs::Imu imu_msg;
    imu_msg.header = header;
    // NED -> ENU conversion.
    imu_msg.angular_velocity.x = r.gyro.get_scaled(1);
    imu_msg.angular_velocity.y = r.gyro.get_scaled(0);
    imu_msg.angular_velocity.z = -r.gyro.get_scaled(2);
    imu_pub.publish(imu_msg);
  }
  if (mag_pub.getNumSubscribers() > 0) {
    geometry_msgs::Vector3Stamped mag_msg;
    mag_msg.header = header;
    mag_msg.vector.x = r.mag.get_scaled(1);
    mag_msg.vector.y = r.mag.get_scaled(0);
    mag_msg.vector.z = -r.mag.get_scaled(2);
    mag_pub.publish(mag_msg);
  }
  if (rpy_pub.getNumSubscribers() > 0) {
    geometry_msgs::Vector3Stamped rpy_msg;
    rpy_msg.header = header;
    rpy_msg.vector.x = r.euler.get_scaled(0);
    rpy_msg.vector.y = r.euler.get_scaled(1);
    rpy_msg.vector.z = r.euler.get_scaled(2);
    rpy_pub.publish(rpy_msg);
  }
}
"""
IMU_UM6 = """\
import math
class Um6Drv(object):
    def um6_data_cb(self, data):
        self.imu_data.header.stamp = rospy.Time.now()
        self.imu_data.angular_velocity.x = math.radians(data['DATA_ANGULAR_VEL'][1])
        self.imu_data.angular_velocity.y = math.radians(data['DATA_ANGULAR_VEL'][0])
        self.imu_data.angular_velocity.z = -math.radians(data['DATA_ANGULAR_VEL'][2])
        self.imu_pub.publish(self.imu_data)

        self.rpy_data.header = self.imu_data.header
        self.rpy_data.vector.x = math.radians(data['DATA_ROLL_PITCH_YAW'][0])
        self.rpy_data.vector.y = math.radians(data['DATA_ROLL_PITCH_YAW'][1])
        self.rpy_data.vector.z = math.radians(data['DATA_ROLL_PITCH_YAW'][2])
        self.rpy_pub.publish(self.rpy_data)
"""


def _mixed(findings: list) -> list[int | None]:  # type: ignore[type-arg]
    return [f.location.line for f in findings if "the device's axes as it gives them" in f.message]


def test_a_vector_left_in_the_device_axes_beside_converted_ones() -> None:
    facts = analyze_cpp(UM6, "src/main.cpp")
    assert _mixed(facts.findings) == [22]
    message = next(f.message for f in facts.findings if f.location and f.location.line == 22)
    assert "rpy_msg.vector's x, y, z are r.euler.get_scaled's 0, 1, 2" in message and "turned NED to ENU" in message
    assert _mixed(analyze_python(IMU_UM6, "nodes/imu_um6_node.py").findings) == [11]


def test_the_fixes_and_unrelated_vectors_pass() -> None:
    fixed = UM6.replace("r.euler.get_scaled(0);\n    rpy_msg.vector.y = r.euler.get_scaled(1);\n    rpy_msg.vector.z = r.euler.get_scaled(2)",
                        "r.euler.get_scaled(1);\n    rpy_msg.vector.y = r.euler.get_scaled(0);\n    rpy_msg.vector.z = -r.euler.get_scaled(2)")
    assert _mixed(analyze_cpp(fixed, "src/main.cpp").findings) == []
    # another header (an ECEF vector of its own frame), or another device's data: not the same axes' business
    assert _mixed(analyze_cpp(UM6.replace("rpy_msg.header = header;", "rpy_msg.header = ecef_header;"), "a.cpp").findings) == []
    assert _mixed(analyze_cpp(UM6.replace("r.euler.get_scaled", "gps.vel.get_scaled"), "a.cpp").findings) == []
    assert _mixed(analyze_python(IMU_UM6.replace("self.rpy_data.header = self.imu_data.header", "self.rpy_data.header = h"), "a.py").findings) == []
