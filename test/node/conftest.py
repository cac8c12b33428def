"""A monitor node and real publishers in one ROS context over real DDS (loopback, own domain per test).

The executor spins in a background thread; the test talks to the monitor only
through the graph: the /diagnostics topic, /rosout, and the ~/get_tree service.
"""

from __future__ import annotations

import json
import threading
import time
from typing import Any, Callable, Iterator

import pytest

FAST_PARAMS = {"eval_period": 0.2, "stale_timeout": 0.5, "edge_timeout": 0.5, "event_hold": 0.5}


class RosProbe:
    """Real publishers and a probe node in one ROS context over real DDS; it sees the monitor (in this
    process or another) only through the graph: /diagnostics, /rosout and its services."""

    def __init__(self, domain_id: int, nodes: Callable[[Any], list[Any]] = lambda context: []) -> None:
        import rclpy
        from diagnostic_msgs.msg import DiagnosticArray
        from rcl_interfaces.msg import Log
        from rclpy.context import Context
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.node import Node
        from std_srvs.srv import Trigger

        self.context = Context()
        rclpy.init(context=self.context, domain_id=domain_id)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.nodes: list[Any] = nodes(self.context)
        self.probe = Node("physframe_test_probe", context=self.context)
        self._lock = threading.Lock()
        self.arrays: list[Any] = []
        self.logs: list[Any] = []
        self.probe.create_subscription(DiagnosticArray, "/diagnostics", self._on_diag, 10)
        self.probe.create_subscription(Log, "/rosout", self._on_log, 1000)
        self.client = self.probe.create_client(Trigger, "/physframe_monitor/get_tree")
        self._trigger = Trigger
        self._stop = threading.Event()
        for n in (*self.nodes, self.probe):
            self.executor.add_node(n)
        self._thread = threading.Thread(target=self._spin, daemon=True)
        self._thread.start()

    def _spin(self) -> None:
        while not self._stop.is_set():
            self.executor.spin_once(timeout_sec=0.05)

    def _on_diag(self, msg: Any) -> None:
        with self._lock:
            self.arrays.append(msg)

    def _on_log(self, msg: Any) -> None:
        if msg.name == "physframe_monitor":
            with self._lock:
                self.logs.append(msg)

    # --- publishers ---------------------------------------------------------------------
    def publish(self, source: Any, **kwargs: Any) -> Any:
        from physframe_ros.demo.sim import TfSourceNode

        return self.add_node(TfSourceNode(source, context=self.context, **kwargs))

    def add_node(self, node: Any) -> Any:
        """Spin a node of this harness's context (created with ``context=harness.context``)."""
        self.nodes.append(node)
        self.executor.add_node(node)
        return node

    # --- observations -------------------------------------------------------------------
    def statuses(self) -> list[Any]:
        """The statuses of the latest /diagnostics array."""
        with self._lock:
            return list(self.arrays[-1].status) if self.arrays else []

    def status_names(self) -> set[str]:
        return {s.name for s in self.statuses()}

    def wait_for(self, predicate: Callable[[], bool], timeout: float = 8.0, what: str = "condition") -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if predicate():
                return
            time.sleep(0.05)
        raise AssertionError(f"timed out after {timeout} s waiting for {what}; last /diagnostics: {self.status_names()}")

    def settle(self, names: set[str], hold: float = 0.8, timeout: float = 8.0) -> list[Any]:
        """Wait until the latest /diagnostics holds exactly ``names`` and keeps holding them for ``hold`` seconds."""
        self.wait_for(lambda: self.status_names() == names, timeout, f"/diagnostics == {names}")
        with self._lock:
            start = len(self.arrays)
        self.wait_for(lambda: len(self.arrays) >= start + round(hold / 0.2), timeout, "further evaluations")
        with self._lock:
            later = [{s.name for s in a.status} for a in self.arrays[start:]]
        assert all(n == names for n in later), f"/diagnostics changed while it should hold {names}: {later}"
        return self.statuses()

    def call(self, srv_type: Any, name: str, request: Any, timeout: float = 5.0) -> Any:
        """A service of the monitor, called from the probe (the executor thread delivers the answer)."""
        client = self.client if name == "/physframe_monitor/get_tree" else self.probe.create_client(srv_type, name)
        assert client.wait_for_service(timeout_sec=timeout), f"{name} not offered"
        future = client.call_async(request)
        end = time.monotonic() + timeout
        while not future.done() and time.monotonic() < end:
            time.sleep(0.02)
        assert future.done(), f"{name} did not answer"
        return future.result()

    def get_tree(self) -> dict[str, Any]:
        resp = self.call(self._trigger, "/physframe_monitor/get_tree", self._trigger.Request())
        assert resp.success
        return json.loads(resp.message)

    def set_parameters(self, **values: Any) -> list[Any]:
        """What `ros2 param set /physframe_monitor NAME VALUE` does: one SetParameters call; the results."""
        from rcl_interfaces.srv import SetParameters
        from rclpy.parameter import Parameter

        request = SetParameters.Request(parameters=[Parameter(k, value=v).to_parameter_msg() for k, v in values.items()])
        return list(self.call(SetParameters, "/physframe_monitor/set_parameters", request).results)

    def node_names(self) -> list[str]:
        return self.probe.get_node_names()

    def log_lines(self, level: int | None = None) -> list[str]:
        with self._lock:
            return [m.msg for m in self.logs if level is None or m.level == level]

    def close(self) -> None:
        import rclpy

        self._stop.set()
        self._thread.join(timeout=5.0)
        self.executor.shutdown()
        for n in (*self.nodes, self.probe):
            n.destroy_node()
        rclpy.try_shutdown(context=self.context)


class MonitorHarness(RosProbe):
    """The monitor node itself in the probe's context."""

    def __init__(self, domain_id: int, params: dict[str, Any]) -> None:
        from rclpy.parameter import Parameter

        from physframe_ros.node.monitor import MonitorNode

        def monitor(context: Any) -> list[Any]:
            self.monitor = MonitorNode(context=context, parameter_overrides=[Parameter(k, value=v) for k, v in params.items()])
            return [self.monitor, self.monitor.replies]

        super().__init__(domain_id, monitor)


@pytest.fixture
def ros_probe(ros_domain_id: int) -> Iterator[RosProbe]:
    pytest.importorskip("rclpy")
    pytest.importorskip("tf2_msgs.msg")
    probe = RosProbe(ros_domain_id)
    yield probe
    probe.close()


@pytest.fixture
def harness_factory(ros_domain_id: int) -> Iterator[Callable[..., MonitorHarness]]:
    pytest.importorskip("rclpy")
    pytest.importorskip("tf2_msgs.msg")
    made: list[MonitorHarness] = []

    def make(**params: Any) -> MonitorHarness:
        h = MonitorHarness(ros_domain_id, {**FAST_PARAMS, **params})
        made.append(h)
        return h

    yield make
    for h in made:
        h.close()


@pytest.fixture
def harness(harness_factory: Callable[..., MonitorHarness]) -> MonitorHarness:
    return harness_factory()
