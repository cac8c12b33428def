-- a 2D configuration that reads wheel odometry, its base left as the published frame
include "map_builder.lua"
include "trajectory_builder.lua"

options = {
  tracking_frame = "imu_link", -- imu_link, or base_footprint in simulation
  map_frame = "map",
  odom_frame = 'odom',
  published_frame = "base_footprint",
  use_odometry = true,
  provide_odom_frame = false,
  publish_frame_projected_to_2d = true,
  map_builder = MAP_BUILDER,
  trajectory_builder = TRAJECTORY_BUILDER,
  num_laser_scans = 1,
  lookup_transform_timeout_sec = 0.2,
}

MAP_BUILDER.use_trajectory_builder_2d = true
TRAJECTORY_BUILDER_2D.min_range = 0.12
return options
