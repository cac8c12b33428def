#include <rclcpp/rclcpp.hpp>
#include <tf2/LinearMath/Quaternion.h>
#include <tf2_ros/transform_broadcaster.h>
#include <geometry_msgs/msg/transform_stamped.hpp>

class Odom : public rclcpp::Node {
public:
  Odom() : Node("odom"), br_(this) {
    odom_frame_ = declare_parameter("odom_frame", "odom");
    base_frame_ = std::string("base") + "_link";
  }
  void publish(double x, double yaw) {
    geometry_msgs::msg::TransformStamped t;
    t.header.stamp = now();
    t.header.frame_id = odom_frame_;
    t.child_frame_id = base_frame_;
    tf2::Quaternion q;
    q.setRPY(0, 0, yaw + M_PI / 2);
    t.transform.rotation.x = q.x(); t.transform.rotation.w = q.w();
    t.transform.translation.x = x;
    br_.sendTransform(t);
    auto cam = tf_buffer_->lookupTransform("camera_optical", "base_link", tf2::TimePointZero);
  }
private:
  tf2_ros::TransformBroadcaster br_;
  std::string odom_frame_, base_frame_;
};
