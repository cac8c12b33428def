"""Who published a transform: the publisher GID of each message mapped to its node through the ROS graph.

tf2 listeners cannot tell ("Authority undetectable"); rclpy's ``MessageInfo``
carries the writer's GID and ``get_publishers_info_by_topic`` lists the GIDs of
every publisher with its node. Names are looked up when an unknown GID shows up,
at most every ``min_interval`` seconds, and kept: a node that has since left the
graph is still named in later findings.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

# What rmw reports for an endpoint whose participant's node list has not arrived yet.
UNKNOWN_NODE = "_NODE_NAME_UNKNOWN_"


try:  # Iron and newer hand callbacks the publisher's GID; Humble does not (publishers stay unnamed there)
    from rclpy.subscription import MessageInfo  # noqa: F401

    HAS_MESSAGE_INFO = True
except ImportError:
    HAS_MESSAGE_INFO = False


class PublisherNames:
    def __init__(
        self,
        lookup: Callable[[str], Iterable[Any]],
        topics: Sequence[str],
        min_interval: float = 0.5,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._lookup = lookup  # Node.get_publishers_info_by_topic
        self._topics = tuple(topics)
        self._min_interval = min_interval
        self._clock = clock
        self._last_refresh = -float("inf")
        self.names: dict[bytes, str] = {}

    def watch(self, topic: str) -> None:
        """Name the publishers of this topic too (a data topic found later)."""
        if topic not in self._topics:
            self._topics += (topic,)

    def gid_of(self, info: Mapping[str, Any]) -> Hashable:
        """The publisher's GID from a message's info (rclpy's MessageInfo), looked up in the graph when new."""
        gid_info = info.get("publisher_gid")
        gid = bytes(gid_info["data"]) if gid_info else None
        if gid is not None and gid not in self.names:
            self.see(gid)
        return gid

    def see(self, gid: Hashable) -> None:
        """Called for a GID not in ``names`` yet (cheap check by the caller on the hot path)."""
        if isinstance(gid, bytes) and gid not in self.names:
            self.refresh()

    def refresh(self, force: bool = False) -> None:
        now = self._clock()
        if not force and now - self._last_refresh < self._min_interval:
            return
        self._last_refresh = now
        for topic in self._topics:
            for info in self._lookup(topic):
                if info.node_name == UNKNOWN_NODE:
                    continue  # endpoint discovered before its node (rmw's discovery info lags): ask again later
                ns = info.node_namespace.rstrip("/")
                self.names[bytes(info.endpoint_gid)] = f"{ns}/{info.node_name}"

    def name_of(self, gid: Hashable) -> str:
        """The publishing node's full name, or the GID in hex when the graph never showed it."""
        if gid is None:
            return "unknown"
        if not isinstance(gid, bytes):
            return str(gid)
        name = self.names.get(gid)
        if name is None:
            self.refresh()
            name = self.names.get(gid)
        return name if name is not None else "gid:" + gid.hex()
