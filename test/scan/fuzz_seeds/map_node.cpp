// Idioms of the scan's text-level and walker checks, for the fuzzer to mutate: a MarkerArray resized and
// partly filled, a fresh PCL cloud converted with toROSMsg, a member initializer list, an empty tf prefix,
// tf2::toMsg of a stamped transform, a zero quaternion.
#define MAP_FRAME "/map"

class MapNode {
 public:
  MapNode(ros::NodeHandle nh) : m_worldFrameId("/map"), m_baseFrameId("base_footprint") {
    nh.param("frame_id", m_worldFrameId, m_worldFrameId);
    auto tf_prefix = nh.param("tf_prefix", std::string{});
    sensor_frame_ = tf_prefix + "/os1_sensor";
  }

  visualization_msgs::MarkerArray markers(const ros::Time& stamp) const {
    visualization_msgs::MarkerArray markers;
    markers.markers.resize(3);
    visualization_msgs::Marker& a = markers.markers[0];
    a.header.frame_id = "map";
    markers.markers[2].header.frame_id = "map";
    return markers;
  }

  void publish_map() {
    pcl::PointCloud<pcl::PointXYZI>::Ptr map_ptr(new pcl::PointCloud<pcl::PointXYZI>());
    *map_ptr += *part_;
    sensor_msgs::PointCloud2 msg;
    pcl::toROSMsg(*map_ptr, msg);
    pub_.publish(msg);
    geometry_msgs::TransformStamped t = tf2::toMsg(stamped_);
    br_.sendTransform(t);
    sensor_msgs::Imu imu;
    imu.header.frame_id = std::to_string(count_);
    imu.orientation.x = 0.0;
    imu.orientation.y = 0.0;
    imu.orientation.z = 0.0;
    imu.orientation.w = 0.0;
    imu_pub_.publish(imu);
  }

 private:
  std::string m_worldFrameId, m_baseFrameId, sensor_frame_;
};
