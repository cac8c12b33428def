"""Live stamped topics for the monitor: found in the graph, sampled, their headers handed to the core.

A monitor must not cost the robot: each data topic is subscribed only for a short
window every few seconds (best effort, depth 1, raw bytes: only the header is
read), so a 30 Hz camera costs a few messages per sample, not a stream of images.
The graph is looked at before every sample, so topics that appear later are
picked up. Which types have a header: the message class's own field list when
the type is importable (rosidl introspection), else the core's table.
"""

from __future__ import annotations

import importlib
from fnmatch import fnmatchcase
from typing import Any, Callable, Mapping

from rclpy.node import Node
from rclpy.qos import HistoryPolicy, QoSProfile, ReliabilityPolicy

from ..core.datacheck import DataState
from ..core.stamped import HeaderError, StampedType, stamped_type
from .publishers import HAS_MESSAGE_INFO, PublisherNames

SAMPLE_QOS = QoSProfile(depth=1, history=HistoryPolicy.KEEP_LAST, reliability=ReliabilityPolicy.BEST_EFFORT)
HEADER_TYPES = ("std_msgs/Header", "std_msgs/msg/Header")


def message_class(msgtype: str) -> Any | None:
    """``sensor_msgs/msg/Image`` -> the Python class, or None when the package is not installed."""
    pkg, _, name = msgtype.rpartition("/")
    pkg = pkg.split("/", 1)[0]
    try:
        return getattr(importlib.import_module(f"{pkg}.msg"), name)
    except (ImportError, AttributeError, ValueError):
        return None


def live_stamped_type(msgtype: str, cls: Any | None) -> StampedType | None:
    """The reading of a live topic's type: its class's first field where the class exists, else the table."""
    verdict = None
    if cls is not None and hasattr(cls, "get_fields_and_field_types"):
        fields = list(cls.get_fields_and_field_types().values())
        verdict = bool(fields) and fields[0] in HEADER_TYPES
    return stamped_type(msgtype, verdict)


class DataSampler:
    """Every ``period`` seconds: refresh the topic list, subscribe each data topic for ``window`` seconds."""

    def __init__(
        self,
        node: Node,
        data: DataState,
        names: PublisherNames,
        patterns: tuple[str, ...],
        period: float,
        window: float,
        skip: Callable[[str], bool],
    ) -> None:
        self.node, self.data, self.names, self.patterns, self.skip = node, data, names, patterns, skip
        self._classes: dict[str, Any] = {}  # topic -> message class, for the data topics
        self._ignored: set[tuple[str, str]] = set()  # (topic, type) pairs seen not to be data topics
        self._subs: list[Any] = []
        self._bad: set[str] = set()
        self._ticks = 0
        self._every = max(round(period / window), 1)
        node.create_timer(window, self._tick)

    def _tick(self) -> None:
        """Runs every window: open the subscriptions on the first tick of a period, close them on the next."""
        if self._subs:
            for sub in self._subs:
                self.node.destroy_subscription(sub)
            self._subs = []
        if self._ticks % self._every == 0:
            self.discover()
            self._subs = [self._subscribe(topic, cls) for topic, cls in self._classes.items()]
        self._ticks += 1

    def discover(self) -> None:
        for topic, types in self.node.get_topic_names_and_types():
            if topic in self._classes or self.skip(topic) or not types or not any(fnmatchcase(topic, p) for p in self.patterns):
                continue
            msgtype = types[0]
            if (topic, msgtype) in self._ignored:
                continue
            cls = message_class(msgtype)
            kind = live_stamped_type(msgtype, cls)
            if kind is None or cls is None:
                if kind is not None:
                    self.node.get_logger().warning(f"data topic {topic} [{msgtype}] cannot be subscribed: its message package is not installed")
                self._ignored.add((topic, msgtype))
                continue
            self.data.add_topic(topic, kind)
            self.names.watch(topic)
            self._classes[topic] = cls
            self.node.get_logger().info(f"checking the frames of {topic} [{kind.msgtype}] (sampled)")

    def _subscribe(self, topic: str, cls: Any) -> Any:
        data, clock, log = self.data, self.node.get_clock(), self.node.get_logger()

        def on_message(raw: bytes, info: Mapping[str, Any]) -> None:
            try:
                data.ingest(topic, raw, clock.now().nanoseconds * 1e-9, publisher=self.names.gid_of(info) if info else None)
            except HeaderError as exc:
                data.decode_errors += 1
                if topic not in self._bad:  # once per topic
                    self._bad.add(topic)
                    log.error(f"cannot read the header of a message on {topic}: {exc}; further errors are only counted")

        callback = on_message if HAS_MESSAGE_INFO else lambda raw: on_message(raw, {})
        return self.node.create_subscription(cls, topic, callback, SAMPLE_QOS, raw=True)
