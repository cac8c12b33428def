"""The live monitor node: rebuilds the TF tree from /tf and /tf_static and reports its frame problems.

Thin on purpose: bytes go to the core's ``TfState`` (a struct-based CDR decoder,
not rclpy message objects, so a busy robot's /tf keeps up), findings come from
``TfState.evaluate`` on a timer, and the node only logs, publishes
``/diagnostics`` and answers ``~/get_tree``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import heapq
import json
import sys
import time
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from rcl_interfaces.msg import ParameterDescriptor
from rclpy.executors import ExternalShutdownException
from rclpy.node import Node
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from std_srvs.srv import Trigger
from tf2_msgs.msg import TFMessage

from ..core.findings import Finding, Severity, sort_findings
from ..core.report import report_dict
from ..core.tfmessage import TfDecodeError
from ..core.tfstate import EdgeStats, FindingTracker, TfState
from .diagnostics import diagnostic_array
from .params import PARAMETERS, MonitorSettings, settings_from
from .publishers import PublisherNames

NODE_NAME = "physframe_monitor"

RELEASE_AFTER_EVICTIONS = 1000  # forgotten edges between two returns of freed memory to the system
MAX_REPLY_EDGES = 1000  # ~/get_tree lists this many edges (and findings) at most, then says how many it left out

try:  # Iron and newer: rclpy.event_handler; Humble: rclpy.qos_event
    from rclpy.event_handler import SubscriptionEventCallbacks
except ImportError:  # pragma: no cover - Humble
    from rclpy.qos_event import SubscriptionEventCallbacks  # type: ignore[no-redef]

try:  # Iron and newer hand callbacks the publisher's GID; Humble does not (publishers stay unnamed there)
    from rclpy.subscription import MessageInfo  # noqa: F401

    HAS_MESSAGE_INFO = True
except ImportError:
    HAS_MESSAGE_INFO = False


def tf_qos(static: bool) -> QoSProfile:
    """What tf2's TransformListener uses, so every broadcaster matches (static ones latch)."""
    durability = DurabilityPolicy.TRANSIENT_LOCAL if static else DurabilityPolicy.VOLATILE
    return QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE, durability=durability)


def release_memory() -> None:
    """Give freed heap back to the system (glibc keeps it otherwise), so RSS falls once churned edges are forgotten."""
    gc.collect()
    name = ctypes.util.find_library("c")
    if name:
        try:
            ctypes.CDLL(name).malloc_trim(0)
        except (OSError, AttributeError):  # not glibc: the memory is still reused by this process
            pass


def describe(f: Finding) -> str:
    """One log line: code, frames, the message, and who published it."""
    pubs = f" [published by {', '.join(f.publishers)}]" if f.publishers else ""
    return f"{f.code} ({', '.join(f.frames)}): {f.message}{pubs}"


class MonitorNode(Node):
    def __init__(self, node_name: str = NODE_NAME, **kwargs: Any) -> None:
        super().__init__(node_name, **kwargs)
        for p in PARAMETERS:
            # dynamic typing: `-p eval_period:=1` (an integer) and empty lists must not kill the node;
            # settings_from checks every value and says what it did with a bad one
            self.declare_parameter(p.name, p.default, ParameterDescriptor(description=p.meaning, dynamic_typing=True))
        self.settings: MonitorSettings = settings_from({p.name: self.get_parameter(p.name).value for p in PARAMETERS})
        for err in self.settings.errors:
            self.get_logger().error(err)
        self.state = TfState(self.settings.conventions, self.settings.config)
        self.tracker = FindingTracker(keep_history=False)  # live: memory follows what is active
        self.active: list[Finding] = []
        self.last_eval_ms = 0.0
        self._released_at = 0  # state.evicted_edges when memory was last given back
        self.names = PublisherNames(self.get_publishers_info_by_topic, [t for t, _ in self.settings.tf_topics])
        self._bad_topics: set[str] = set()
        for topic, static in self.settings.tf_topics:
            self._subscribe(topic, static)
        self._diagnostics = self.create_publisher(DiagnosticArray, "/diagnostics", 10)
        self.create_service(Trigger, "~/get_tree", self._get_tree)
        self.create_timer(self.settings.eval_period, self.evaluate)
        topics = ", ".join(t for t, _ in self.settings.tf_topics)
        against = f"; cross-checking against {self.settings.expected_path}" if self.settings.expected is not None else ""
        self.get_logger().info(f"watching {topics}; evaluating every {self.settings.eval_period:g} s{against}")

    def now(self) -> float:
        """The node clock in seconds: ROS time, so use_sim_time is honoured."""
        return self.get_clock().now().nanoseconds * 1e-9

    def _subscribe(self, topic: str, static: bool) -> None:
        """A raw TF subscription that also hears of messages the transport lost (TF_MESSAGES_LOST)."""
        state = self.state

        def lost(info: Any) -> None:
            state.messages_lost(topic, int(info.total_count_change), self.now())

        events = SubscriptionEventCallbacks(message_lost=lost)
        try:
            self.create_subscription(TFMessage, topic, self._on_tf(topic, static), tf_qos(static), raw=True, event_callbacks=events)
        except Exception as exc:  # an RMW without the message-lost event (rclpy's UnsupportedEventTypeError)
            self.get_logger().warning(f"{topic}: this RMW does not report lost messages ({exc}); TF_MESSAGES_LOST is not available")
            self.create_subscription(TFMessage, topic, self._on_tf(topic, static), tf_qos(static), raw=True)

    # --- the hot path: one call per TFMessage -------------------------------------------
    def _on_tf(self, topic: str, static: bool) -> Callable[..., None]:
        state, names, clock = self.state, self.names, self.get_clock()

        def ingest(data: bytes, gid: Hashable) -> None:
            if gid is not None and gid not in names.names:
                names.see(gid)
            try:
                state.ingest_cdr(data, clock.now().nanoseconds * 1e-9, static, gid, topic)
            except TfDecodeError as exc:
                state.decode_errors += 1
                if topic not in self._bad_topics:  # once per topic; the count is in ~/get_tree
                    self._bad_topics.add(topic)
                    self.get_logger().error(f"undecodable TFMessage on {topic} from {names.name_of(gid)}: {exc}; further errors are only counted")

        if not HAS_MESSAGE_INFO:
            return lambda data: ingest(data, None)

        def with_info(data: bytes, info: Mapping[str, Any]) -> None:
            gid_info = info.get("publisher_gid")
            ingest(data, bytes(gid_info["data"]) if gid_info else None)

        return with_info

    # --- evaluation ---------------------------------------------------------------------
    def evaluate(self) -> None:
        """Find the active problems, log what appeared or cleared, publish /diagnostics."""
        t0 = time.perf_counter()
        now = self.now()
        name_of = self.names.name_of
        findings = self.state.evaluate(now, name_of=name_of, expected=self.settings.expected)
        edges = self.state.last_snapshot
        findings = sort_findings(self.settings.policy.apply(findings))
        appeared, cleared = self.tracker.update(findings, now)
        # with the span each has been active over (tree findings carry no time of their own)
        self.active = [f.with_(time=self.tracker.spans.get(k, f.time)) for k, f in self.tracker.active.items()]
        log = self.get_logger()
        for f in appeared:
            if f.level == Severity.ERROR:
                log.error(describe(f))
            elif f.level == Severity.WARNING:
                log.warning(describe(f))
            else:
                log.info(describe(f))
        for f in cleared:
            log.info(f"cleared: {f.code} ({', '.join(f.frames)})")
        frames = {fr for e in edges for fr in (e.parent, e.child)}
        self._diagnostics.publish(diagnostic_array(self.active, self.get_clock().now().to_msg(), self.get_name(), len(frames), len(edges)))
        self.last_eval_ms = (time.perf_counter() - t0) * 1e3
        if self.state.evicted_edges - self._released_at >= RELEASE_AFTER_EVICTIONS:
            self._released_at = self.state.evicted_edges
            self.state.conventions.clear_caches()
            release_memory()

    def report(self) -> dict[str, Any]:
        """The contract JSON of the live tree with the active findings and ingest statistics.

        The tree is the one the last evaluation checked (no second walk over the edges), and past
        MAX_REPLY_EDGES edges or findings the reply lists the first ones and counts the rest, so a
        churning stream cannot make it large or slow: ingestion waits while it is built."""
        now = self.now()
        s = self.state
        edges = s.last_snapshot
        findings = sort_findings(self.active)
        stats = {
            "transforms_received": s.transforms_received,
            "messages_received": s.messages_received,
            "invalid_transforms": s.invalid_transforms,
            "decode_errors": s.decode_errors,
            "last_eval_ms": round(self.last_eval_ms, 3),
            "frames": len({fr for e in edges for fr in (e.parent, e.child)}),
            "edges": len(edges),
            "tracked_edges": len(s.edges),
            "evicted_edges": s.evicted_edges,
            "evicted_messages": s.evicted_messages,
            "refused_edges": s.refused_edges,
            "lost_messages": dict(s.lost_messages),
        }
        records: Iterable[EdgeStats] = s.edges.values()
        if len(s.edges) > MAX_REPLY_EDGES:
            records = heapq.nsmallest(MAX_REPLY_EDGES, records, key=lambda e: (e.parent, e.child, e.static))
        extra: dict[str, Any] = {"stats": stats, "edges_stats": s.stats(now, self.names.name_of, records)}
        if len(edges) > MAX_REPLY_EDGES or len(findings) > MAX_REPLY_EDGES or len(s.edges) > MAX_REPLY_EDGES:
            extra["truncated"] = {
                "limit": MAX_REPLY_EDGES,
                "edges": len(edges),
                "findings": len(findings),
                "edges_stats": len(s.edges),
            }
        return report_dict(findings[:MAX_REPLY_EDGES], edges[:MAX_REPLY_EDGES], **extra)

    def _get_tree(self, request: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        response.success = True
        response.message = json.dumps(self.report())
        return response


def main(args: Sequence[str] | None = None) -> int:
    """``ros2 run physframe_ros monitor`` and ``physframe monitor``; Ctrl-C exits 0 without a traceback."""
    rclpy.init(args=list(args) if args is not None else sys.argv)
    node = None
    try:
        node = MonitorNode()
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
    return 0


if __name__ == "__main__":
    sys.exit(main())
