"""Who published a transform: the publisher GID of each message mapped to its node through the ROS graph.

tf2 listeners cannot tell ("Authority undetectable"); rclpy's ``MessageInfo``
carries the writer's GID and ``get_publishers_info_by_topic`` lists the GIDs of
every publisher with its node. Names are looked up when an unknown GID shows up,
at most every ``min_interval`` seconds, and kept: a node that has since left the
graph is still named in later findings.
"""

from __future__ import annotations

import time
from typing import Any, Callable, Hashable, Iterable, Sequence

# What rmw reports for an endpoint whose participant's node list has not arrived yet.
UNKNOWN_NODE = "_NODE_NAME_UNKNOWN_"


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
