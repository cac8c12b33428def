"""A node that publishes one ``TfSource`` over real DDS, as robot_state_publisher and a driver would:
static edges once on /tf_static (TRANSIENT_LOCAL, depth 1, like tf2's StaticTransformBroadcaster),
dynamic ones on /tf at ``rate`` Hz with the current stamp (plus ``stamp_offset``)."""

from __future__ import annotations

from typing import Any, Iterable

from geometry_msgs.msg import TransformStamped
from rclpy.duration import Duration
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from tf2_msgs.msg import TFMessage

from .robot import TfEdge, TfSource

STATIC_QOS = QoSProfile(depth=1, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.TRANSIENT_LOCAL)
DYNAMIC_QOS = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.VOLATILE)


def transform_msg(edge: TfEdge, values: Iterable[float], stamp: Any) -> TransformStamped:
    tx, ty, tz, qx, qy, qz, qw = values
    t = TransformStamped()
    t.header.stamp = stamp
    t.header.frame_id = edge.parent
    t.child_frame_id = edge.child
    t.transform.translation.x, t.transform.translation.y, t.transform.translation.z = tx, ty, tz
    t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z, t.transform.rotation.w = qx, qy, qz, qw
    return t


class TfSourceNode(Node):
    def __init__(
        self,
        source: TfSource,
        rate: float = 20.0,
        stamp_offset: float = 0.0,
        static_topic: str = "/tf_static",
        dynamic_topic: str = "/tf",
        **kwargs: Any,
    ) -> None:
        super().__init__(source.node_name, **kwargs)
        self.source = source
        self.stamp_offset = stamp_offset
        self._t0 = self.get_clock().now()
        if source.static:
            self._static_pub = self.create_publisher(TFMessage, static_topic, STATIC_QOS)
            stamp = self.get_clock().now().to_msg()
            self._static_pub.publish(TFMessage(transforms=[transform_msg(e, e.at(0.0), stamp) for e in source.static]))
        self._timer = None
        if source.dynamic:
            self._dynamic_pub = self.create_publisher(TFMessage, dynamic_topic, DYNAMIC_QOS)
            self._timer = self.create_timer(1.0 / rate, self.publish_dynamic)

    def publish_dynamic(self) -> None:
        now = self.get_clock().now()
        t = (now - self._t0).nanoseconds * 1e-9
        stamp = (now + Duration(nanoseconds=round(self.stamp_offset * 1e9))).to_msg() if self.stamp_offset else now.to_msg()
        self._dynamic_pub.publish(TFMessage(transforms=[transform_msg(e, e.at(t), stamp) for e in self.source.dynamic]))

    def stop(self) -> None:
        """Stop publishing on /tf (the edge goes silent, as when a driver dies)."""
        if self._timer is not None:
            self._timer.cancel()

