"""The static scanner: from a ROS / ROS 2 source tree to frame findings and the expected tree."""
