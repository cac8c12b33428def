"""Which bag topics carry TF data, and whether a topic is the latched static one."""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase

DEFAULT_TF_TOPICS = ("/tf", "/tf_static", "*/tf", "*/tf_static")

# ROS 2 bags name types pkg/msg/Name, ROS 1 bags pkg/Name (rosbags rewrites those to the ROS 2 form);
# tf/tfMessage is the ROS 1 tf package's message with the same layout as tf2_msgs/TFMessage.
TF_MESSAGE_TYPES = frozenset({"tf2_msgs/TFMessage", "tf/tfMessage"})


def normalize_type(msgtype: str) -> str:
    """``tf2_msgs/msg/TFMessage`` and ``tf2_msgs/TFMessage`` -> ``tf2_msgs/TFMessage``."""
    return msgtype.replace("/msg/", "/")


def is_tf_type(msgtype: str) -> bool:
    return normalize_type(msgtype) in TF_MESSAGE_TYPES


def is_static_topic(topic: str) -> bool:
    """``/tf_static`` and namespaced ``/robot1/tf_static`` hold latched transforms."""
    return topic.rstrip("/").rsplit("/", 1)[-1] == "tf_static"


@dataclass(frozen=True)
class TopicSelection:
    """Glob patterns (``fnmatch``; ``*`` also matches ``/``) of the TF topics to read."""

    patterns: tuple[str, ...] = DEFAULT_TF_TOPICS

    def matches(self, topic: str) -> bool:
        return any(fnmatchcase(topic, p) for p in self.patterns)

    def __str__(self) -> str:
        return ", ".join(self.patterns)
