"""Which bag topics carry TF data, whether a topic is the latched static one, and which carry stamped data."""

from __future__ import annotations

from dataclasses import dataclass
from fnmatch import fnmatchcase
from functools import lru_cache
from typing import Any

from ..core.stamped import StampedType, definition_has_header, stamped_type

DEFAULT_TF_TOPICS = ("/tf", "/tf_static", "*/tf", "*/tf_static")
ALL_TOPICS = ("*",)

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


def header_verdict(msgtype: str, definition: Any, ros1: bool) -> bool | None:
    """Whether ``msgtype``'s first field is a std_msgs/Header: from the bag's own definition (a ROS 1
    connection's or an MCAP/rosbag2 ``.msg`` schema), else from rosbags' type store; None when neither knows it."""
    text = getattr(definition, "data", definition)
    fmt = getattr(getattr(definition, "format", None), "name", "MSG")  # rosbags: MSG, IDL or NONE
    if fmt == "MSG" and isinstance(text, str) and text.strip():
        verdict = definition_has_header(text)
        if verdict is not None:
            return verdict
    fields = _typestore(ros1).fielddefs.get(msgtype if "/msg/" in msgtype else msgtype.replace("/", "/msg/", 1))
    if not fields or not fields[1]:
        return None
    _, (_, kind) = fields[1][0]
    return kind == "std_msgs/msg/Header"


@lru_cache(maxsize=2)
def _typestore(ros1: bool) -> Any:
    from rosbags.typesys import Stores, get_typestore

    return get_typestore(Stores.ROS1_NOETIC if ros1 else Stores.LATEST)


def stamped_kind(msgtype: str, definition: Any, ros1: bool) -> StampedType | None:
    """How to read the header of a bag topic of this type, or None when it has none (TF topics included)."""
    if is_tf_type(msgtype):
        return None
    return stamped_type(msgtype, header_verdict(msgtype, definition, ros1))
