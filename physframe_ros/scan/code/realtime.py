"""realtime_tools ``RealtimePublisher<T>``: the publisher of ros2_control controllers and ROS 1 controllers.

A controller makes the publisher in one method and fills the message it owns there::

    tf_odom_pub_.reset(new realtime_tools::RealtimePublisher<tf::tfMessage>(root_nh, "/tf", 100));
    tf_odom_pub_->msg_.transforms[0].child_frame_id = base_frame_id_;
    tf_odom_pub_->msg_.transforms[0].header.frame_id = odom_frame_id_;

and sends it from the real-time loop in another: ``if (tf_odom_pub_->trylock()) { ...;
tf_odom_pub_->unlockAndPublish(); }``. The publisher is a class member, so the frames set in ``init``
reach the ``update`` that publishes them through the class model. A ``TFMessage`` sent this way is a tf
broadcast; on a topic naming ``tf_static`` a static one. (The newer API, ``try_publish(msg)`` with a
message member of the class, is a plain publish.)
"""

from __future__ import annotations

import re
from typing import Sequence

from .values import REALTIME_PUBLISHER, Record, Value

_TEMPLATE = re.compile(r"RealtimePublisher\w*\s*<\s*(.+)>\s*$", re.DOTALL)
_TYPES = frozenset({"RealtimePublisher", "RealtimePublisherShared"})


def is_realtime_publisher(short: str) -> bool:
    return short in _TYPES


def message_type(type_text: str) -> str:
    """``realtime_tools::RealtimePublisher<nav_msgs::msg::Odometry>`` -> ``nav_msgs::msg::Odometry``."""
    m = _TEMPLATE.search(type_text.strip())
    return m.group(1).strip() if m else ""


def realtime_publisher(message: Value, args: Sequence[Value], line: int) -> Record:
    """The publisher, owning ``message`` as ``msg_``; ``args``: the constructor's arguments (a topic among them)."""
    topic = next((a for a in args if isinstance(a, str)), None)
    return Record(REALTIME_PUBLISHER, "RealtimePublisher", "", line, local=False, fields={"msg_": message, "topic": topic})


def is_static_topic(publisher: Value) -> bool:
    """The publisher was made on /tf_static."""
    topic = publisher.get("topic") if isinstance(publisher, Record) and publisher.kind == REALTIME_PUBLISHER else None
    return isinstance(topic, str) and "tf_static" in topic
