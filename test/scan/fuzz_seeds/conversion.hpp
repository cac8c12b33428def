#include <nav_msgs/msg/odometry.hpp>
#include <geometry_msgs/msg/transform_stamped.hpp>
inline nav_msgs::msg::Odometry generateOdometryMsg(State &state, rclcpp::Time now, std::string frame_id) {
  nav_msgs::msg::Odometry odom;
  odom.header.frame_id = frame_id;
  odom.header.stamp = now;
  odom.twist.twist.linear.x = state.velocity[0];
  return odom;
}
template<typename T>
geometry_msgs::msg::TransformStamped Conv::toTransform(const T& pose, const std::string& frame_id) {
  geometry_msgs::msg::TransformStamped t;
  t.header.frame_id = extrinsics_.GetBaselinkFrameId();
  t.child_frame_id = extrinsics_.GetWorldFrameId();
  return t;
}
void Driver::publish() {
  auto odom = generateOdometryMsg(state_, now(), odom_frame_);
  odom_pub_->publish(odom);
  *out_ = generateOdometryMsg(state_, now(), odom_frame_);
  tf_broadcaster_->sendTransform(toTransform(pose_, "map"));
}
