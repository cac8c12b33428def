#include <sensor_msgs/Imu.h>
#include <geometry_msgs/Vector3Stamped.h>
typedef sensor_msgs::NavSatFix NavSatFixMsg;
using ImuMsg = sensor_msgs::Imu;

void publishMsgs(um6::Registers& r, const std_msgs::Header& header, bool tf_ned_to_enu)
{
  ImuMsg imu_msg;
  imu_msg.header = header;
  if (tf_ned_to_enu)
  {
    imu_msg.orientation.x = r.quat.get_scaled(2);
    imu_msg.orientation.y = r.quat.get_scaled(1);
    imu_msg.orientation.z = -r.quat.get_scaled(3);
    imu_msg.orientation.w = r.quat.get_scaled(0);
    imu_msg.angular_velocity.x = r.gyro.get_scaled(1);
    imu_msg.angular_velocity.y = r.gyro.get_scaled(0);
    imu_msg.angular_velocity.z = -r.gyro.get_scaled(2);
  }
  else if (LTCF == ENU)
  {
    imu_msg.orientation.x = r.quat.get_scaled(1);
    imu_msg.orientation.y = -r.quat.get_scaled(2);
  }
  publish<ImuMsg>("/imu", imu_msg);
  geometry_msgs::Vector3Stamped rpy_msg;
  rpy_msg.header = header;
  rpy_msg.vector.x = r.euler.get_scaled(0);
  rpy_msg.vector.y = r.euler.get_scaled(1);
  rpy_msg.vector.z = r.euler.get_scaled(2);
  rpy_pub.publish(rpy_msg);
  NavSatFixMsg fix;
  ns_ = ros::this_node::getNamespace();
  fix.header.frame_id = ns_ + '_' + frame_id;
  ns_.erase(0, 1);
  publish<NavSatFixMsg>("/navsatfix", fix);
}
