"""physframe_ros: find physical frame-of-reference bugs in ROS robots, live, in bags and in source."""

__version__ = "0.1.0"
