"""The live monitor node: rebuilds the TF tree from /tf and /tf_static and reports its frame problems.

Thin on purpose: bytes go to the core's ``MonitorLoop`` (a struct-based CDR decoder,
not rclpy message objects, so a busy robot's /tf keeps up; sampled stamped topics
through ``DataSampler``), the loop evaluates on a timer with ROS time, and the node
only logs, publishes ``/diagnostics`` and answers ``~/get_tree``.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import heapq
import json
import signal
import sys
import threading
import time
from typing import Any, Callable, Hashable, Iterable, Mapping, Sequence

import rclpy
from diagnostic_msgs.msg import DiagnosticArray
from rcl_interfaces.msg import ParameterDescriptor, SetParametersResult
from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
from rclpy.impl.implementation_singleton import rclpy_implementation
from rclpy.node import Node
from rclpy.parameter import Parameter
from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
from rclpy.signals import SignalHandlerOptions
from std_srvs.srv import Trigger
from tf2_msgs.msg import TFMessage

from ..core.datacheck import topic_table
from ..core.findings import Finding, Severity, sort_findings
from ..core.monitor_loop import MonitorLoop
from ..core.printable import printable
from ..core.report import report_dict
from ..core.tfmessage import TfDecodeError
from ..core.tfstate import EdgeStats
from .data_topics import DataSampler
from .diagnostics import diagnostic_array
from .params import NODE_NAME, PARAMETER_DEFAULTS, PARAMETERS, STARTUP_ONLY, MonitorSettings, settings_from
from .publishers import HAS_MESSAGE_INFO, PublisherNames

RELEASE_AFTER_EVICTIONS = 1000  # forgotten edges between two returns of freed memory to the system
MAX_REPLY_EDGES = 1000  # ~/get_tree lists this many edges (and findings) at most, then says how many it left out

try:  # Iron and newer: rclpy.event_handler; Humble: rclpy.qos_event
    from rclpy.event_handler import SubscriptionEventCallbacks
except ImportError:  # pragma: no cover - Humble
    from rclpy.qos_event import SubscriptionEventCallbacks  # type: ignore[no-redef]

# how long a Ctrl-C waits at most for the spin loop to notice it
STOP_POLL = 0.1

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
    topic = f" on {f.topic}" if f.topic else ""
    return printable(f"{f.code} ({', '.join(f.frames)}){topic}: {f.message}{pubs}")


class MonitorNode(Node):
    def __init__(self, node_name: str = NODE_NAME, **kwargs: Any) -> None:
        super().__init__(node_name, **kwargs)
        for p in PARAMETERS:
            # dynamic typing: `-p eval_period:=1` (an integer) and empty lists must not kill the node;
            # settings_from checks every value and says what it did with a bad one
            self.declare_parameter(p.name, p.default, ParameterDescriptor(description=p.meaning, dynamic_typing=True))
        self.settings: MonitorSettings = settings_from(self._parameter_values())
        for err in self.settings.errors:
            self.get_logger().error(str(err))
        st = self.settings
        # live: the tracker's memory follows what is active, not every finding ever seen
        self.loop = MonitorLoop(st.eval_period, st.conventions, st.config, st.policy, st.expected, st.data, st.expected_grace, keep_history=False)
        self.state = self.loop.state
        self.active: list[Finding] = []
        self.last_eval_ms = 0.0
        self._released_at = 0  # state.evicted_edges when memory was last given back
        self.names = PublisherNames(self.get_publishers_info_by_topic, [t for t, _ in self.settings.tf_topics])
        self._bad_topics: set[str] = set()
        self._variant_logged: str | None = None  # the expected variant last logged as matched
        for topic, static in self.settings.tf_topics:
            self._subscribe(topic, static)
        if st.data_topics:
            tf_names = {t for t, _ in st.tf_topics}
            self.sampler = DataSampler(self, self.loop.data, self.names, st.data_topics, st.data_sample_period, st.data_sample_window, tf_names.__contains__)
        self._diagnostics = self.create_publisher(DiagnosticArray, "/diagnostics", 10)
        # ~/get_tree lives on a hidden node of its own, which main() spins in a thread of its own: rclpy serves a
        # node from one executor, and this node's may be busy with a /tf backlog or an evaluation for a second
        self.replies = Node(f"_{self.get_name()}_replies", namespace=self.get_namespace(), context=self.context,
                            use_global_arguments=False, enable_rosout=False, start_parameter_services=False)
        self.replies.create_service(Trigger, f"{self.get_fully_qualified_name()}/get_tree", self._get_tree)
        self.create_service(Trigger, "~/reload", self._reload)
        self._timer = self.create_timer(self.settings.eval_period, self.evaluate)
        self.add_on_set_parameters_callback(self._on_set_parameters)
        topics = ", ".join(t for t, _ in self.settings.tf_topics)
        if st.data_topics:
            topics += f" and samples of the stamped topics {' '.join(st.data_topics)} every {st.data_sample_period:g} s"
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
            ingest(data, names.gid_of(info))

        return with_info

    # --- evaluation ---------------------------------------------------------------------
    def evaluate(self) -> None:
        """Find the active problems, log what appeared or cleared, publish /diagnostics."""
        t0 = time.perf_counter()
        result = self.loop.evaluate(self.now(), self.names.name_of)
        self.active, edges = result.active, result.edges
        log = self.get_logger()
        for f in result.appeared:
            if f.level == Severity.ERROR:
                log.error(describe(f))
            elif f.level == Severity.WARNING:
                log.warning(describe(f))
            else:
                log.info(describe(f))
        for f in result.cleared:
            log.info(printable(f"cleared: {f.code} ({', '.join(f.frames)})" + (f" on {f.topic}" if f.topic else "")))
        frames = {fr for e in edges for fr in (e.parent, e.child)}
        match = self.state.expected_match if self.loop.expected is not None else None
        variant = match.describe() if match is not None else None
        if variant != self._variant_logged and variant is not None:
            log.info(printable(f"expected tree: the live tree matches {variant}"))
        self._variant_logged = variant
        self._diagnostics.publish(diagnostic_array(self.active, self.get_clock().now().to_msg(), self.get_name(), len(frames), len(edges),
                                                   variant))
        self.last_eval_ms = (time.perf_counter() - t0) * 1e3
        log.debug(f"evaluated {len(frames)} frames / {len(edges)} edges in {self.last_eval_ms:.2f} ms: {len(self.active)} findings active")
        if self.state.evicted_edges - self._released_at >= RELEASE_AFTER_EVICTIONS:
            self._released_at = self.state.evicted_edges
            self.state.conventions.clear_caches()
            release_memory()

    # --- parameters at run time ---------------------------------------------------------
    def _parameter_values(self) -> dict[str, Any]:
        return {p.name: self.get_parameter(p.name).value for p in PARAMETERS}

    def _on_set_parameters(self, params: list[Parameter]) -> SetParametersResult:
        """``ros2 param set``: a bad value is refused with its reason and the old one stays."""
        changed = {p.name: p.value for p in params if p.name in PARAMETER_DEFAULTS}
        if not changed:
            return SetParametersResult(successful=True)
        fixed = sorted(STARTUP_ONLY & changed.keys())
        if fixed:
            return SetParametersResult(successful=False, reason=f"{', '.join(fixed)}: read when the node starts; restart it to change")
        # the new values alone: a bad value given at start-up (already logged and replaced) must not block later changes
        problems = settings_from(changed).errors
        if problems:
            return SetParametersResult(successful=False, reason="; ".join(e.reason for e in problems))
        self._apply(settings_from({**self._parameter_values(), **changed}))
        self.get_logger().info("parameters set: " + ", ".join(f"{k}={v!r}" for k, v in changed.items()))
        return SetParametersResult(successful=True)

    def _reload(self, request: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        """``~/reload``: read the expected tree and conventions files again (edited since, or written by a new scan)."""
        s = settings_from(self._parameter_values())
        problems = [e for e in s.errors if e.name in ("expected_tree", "conventions_file")]
        response.success = not problems
        if problems:
            response.message = "; ".join(e.reason for e in problems) + "; kept the files read before"
            self.get_logger().error(f"reload: {response.message}")
            return response
        self._apply(s)
        expected = f"expected tree {s.expected_path} ({len(s.expected.edges)} edges)" if s.expected is not None else "no expected tree"
        conventions = self.get_parameter("conventions_file").value or "built-in conventions"
        response.message = f"reloaded: {expected}, {conventions}"
        self.get_logger().info(response.message)
        return response

    def _apply(self, s: MonitorSettings) -> None:
        """Use new settings from the next evaluation on (the TF topics stay those of start-up)."""
        old, self.settings = self.settings, s
        self.loop.reconfigure(s.eval_period, s.conventions, s.config, s.policy, s.expected, s.data, s.expected_grace)
        if s.eval_period != old.eval_period:
            self.destroy_timer(self._timer)
            self._timer = self.create_timer(s.eval_period, self.evaluate)

    def report(self) -> dict[str, Any]:
        """The contract JSON of the live tree with the active findings and ingest statistics.

        The tree is the one the last evaluation checked (no second walk over the edges), and past
        MAX_REPLY_EDGES edges or findings the reply lists the first ones and counts the rest, so a
        churning stream cannot make it large or slow: ingestion waits while it is built."""
        # called from the replies thread while ingestion and evaluation go on: read each shared container
        # once, by a copy CPython makes without running Python code (atomic under the GIL)
        now = self.now()
        s = self.state
        edges = s.last_snapshot
        findings = sort_findings(self.active)
        tracked = list(s.edges.values())
        stats = {
            "transforms_received": s.transforms_received,
            "messages_received": s.messages_received,
            "invalid_transforms": s.invalid_transforms,
            "decode_errors": s.decode_errors,
            "last_eval_ms": round(self.last_eval_ms, 3),
            "frames": len({fr for e in edges for fr in (e.parent, e.child)}),
            "edges": len(edges),
            "data_messages": self.loop.data.messages_received,
            "tracked_edges": len(tracked),
            "evicted_edges": s.evicted_edges,
            "evicted_messages": s.evicted_messages,
            "refused_edges": s.refused_edges,
            "lost_messages": dict(s.lost_messages),
        }
        records: Iterable[EdgeStats] = tracked
        if len(tracked) > MAX_REPLY_EDGES:
            records = heapq.nsmallest(MAX_REPLY_EDGES, tracked, key=lambda e: (e.parent, e.child, e.static))
        extra: dict[str, Any] = {
            "stats": stats,
            "edges_stats": s.stats(now, self.names.name_of, records),
            "data_topics": topic_table(dict(self.loop.data.topics), self.names.name_of)[:MAX_REPLY_EDGES],
        }
        if len(edges) > MAX_REPLY_EDGES or len(findings) > MAX_REPLY_EDGES or len(tracked) > MAX_REPLY_EDGES:
            extra["truncated"] = {
                "limit": MAX_REPLY_EDGES,
                "edges": len(edges),
                "findings": len(findings),
                "edges_stats": len(tracked),
            }
        return report_dict(findings[:MAX_REPLY_EDGES], edges[:MAX_REPLY_EDGES], **extra)

    def _get_tree(self, request: Trigger.Request, response: Trigger.Response) -> Trigger.Response:
        response.success = True
        response.message = json.dumps(self.report())
        return response

    def destroy_node(self) -> None:
        self.replies.destroy_node()
        super().destroy_node()


def main(args: Sequence[str] | None = None) -> int:
    """``ros2 run physframe_ros monitor`` and ``physframe monitor``; Ctrl-C exits 0 without a traceback.

    A Ctrl-C under ``ros2 launch`` reaches the node twice (the terminal signals the whole process
    group, then launch forwards its own SIGINT), the second often while the node shuts down. rclpy's
    handler would raise KeyboardInterrupt wherever that lands, destroy_node included; so rclpy installs
    none, and SIGINT/SIGTERM only ask the spin loop to stop: shutdown runs once, quietly. Once it has
    begun SIGINT is ignored: Python's exit restores the default action, which would kill the process
    (exit -2) if a late SIGINT landed while DDS tears down.
    """
    stop = threading.Event()
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda signum, frame: stop.set())
    try:
        rclpy.init(args=list(args) if args is not None else sys.argv, signal_handler_options=SignalHandlerOptions.NO)
    except rclpy_implementation.RCLError as exc:  # e.g. --log-level verbose
        print(f"{NODE_NAME}: bad ROS arguments: {str(exc).splitlines()[0]}", file=sys.stderr)
        return 2
    node = None
    replies: threading.Thread | None = None
    try:
        node = MonitorNode()
        replies = threading.Thread(target=_spin, args=(node.replies, stop), name="get_tree", daemon=True)
        replies.start()
        _spin(node, stop)
    finally:
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        stop.set()
        if replies is not None:
            replies.join(timeout=5 * STOP_POLL)
        if node is not None:
            node.destroy_node()
        rclpy.try_shutdown()
    return 0


def _spin(node: Node, stop: threading.Event) -> None:
    """Spin ``node`` on an executor of its own until ``stop`` is set or the context shuts down."""
    executor = SingleThreadedExecutor()
    executor.add_node(node)
    try:
        while not stop.is_set() and rclpy.ok():
            executor.spin_once(timeout_sec=STOP_POLL)
    except ExternalShutdownException:
        pass
    finally:
        executor.shutdown()


if __name__ == "__main__":
    sys.exit(main())
