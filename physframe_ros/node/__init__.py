"""The live monitor node (rclpy). Only ``cli`` and ``params`` import without ROS; ``monitor`` needs rclpy."""
