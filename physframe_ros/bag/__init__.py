"""Bag adapter over ``rosbags``: raw TF messages of ROS 1 and ROS 2 bags for the core's decoders."""

from .errors import BagError, NoTfTopics
from .reader import CDR, ROS1, BagInfo, RawTfMessage, TfBag, TopicInfo, open_bag
from .topics import DEFAULT_TF_TOPICS, TopicSelection, is_static_topic, is_tf_type

__all__ = [
    "CDR",
    "DEFAULT_TF_TOPICS",
    "ROS1",
    "BagError",
    "BagInfo",
    "NoTfTopics",
    "RawTfMessage",
    "TfBag",
    "TopicInfo",
    "TopicSelection",
    "is_static_topic",
    "is_tf_type",
    "open_bag",
]
