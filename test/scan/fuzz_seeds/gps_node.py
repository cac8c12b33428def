import math

import rclpy
from geometry_msgs.msg import TransformStamped
from rclpy.node import Node
from tf2_ros import StaticTransformBroadcaster, TransformBroadcaster


class Gps(Node):
    def __init__(self):
        super().__init__("gps")
        self.frame = self.declare_parameter("frame", "gps_link").value
        self.br = TransformBroadcaster(self)
        self.static = StaticTransformBroadcaster(self)
        t = TransformStamped()
        t.header.frame_id = "base_link"
        t.child_frame_id = self.frame
        t.transform.rotation.z = math.sin(math.pi / 4)
        t.transform.rotation.w = math.cos(math.pi / 4)
        self.static.sendTransform(t)

    def tick(self, x):
        t = TransformStamped()
        t.header.frame_id = "map"
        t.child_frame_id = f"{self.frame}_fix"
        t.transform.translation.x = x
        self.br.sendTransform(t)
        self.buffer.lookup_transform("map", "base_link", rclpy.time.Time())
