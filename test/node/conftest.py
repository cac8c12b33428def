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


class MonitorHarness:
    def __init__(self, domain_id: int, params: dict[str, Any]) -> None:
        import rclpy
        from diagnostic_msgs.msg import DiagnosticArray
        from rcl_interfaces.msg import Log
        from rclpy.context import Context
        from rclpy.executors import SingleThreadedExecutor
        from rclpy.node import Node
        from rclpy.parameter import Parameter
        from std_srvs.srv import Trigger

        from physframe_ros.node.monitor import MonitorNode

        self.context = Context()
        rclpy.init(context=self.context, domain_id=domain_id)
        self.executor = SingleThreadedExecutor(context=self.context)
        self.monitor = MonitorNode(context=self.context, parameter_overrides=[Parameter(k, value=v) for k, v in params.items()])
        self.probe = Node("physframe_test_probe", context=self.context)
        self._lock = threading.Lock()
        self.arrays: list[Any] = []
        self.logs: list[Any] = []
        self.probe.create_subscription(DiagnosticArray, "/diagnostics", self._on_diag, 10)
        self.probe.create_subscription(Log, "/rosout", self._on_log, 1000)
        self.client = self.probe.create_client(Trigger, "/physframe_monitor/get_tree")
        self._trigger = Trigger
        self.nodes: list[Any] = []
        self._stop = threading.Event()
        for n in (self.monitor, self.probe):
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

    def get_tree(self) -> dict[str, Any]:
        assert self.client.wait_for_service(timeout_sec=5.0), "~/get_tree not offered"
        future = self.client.call_async(self._trigger.Request())
        end = time.monotonic() + 5.0
        while not future.done() and time.monotonic() < end:
            time.sleep(0.02)
        assert future.done(), "~/get_tree did not answer"
        resp = future.result()
        assert resp.success
        return json.loads(resp.message)

    def log_lines(self, level: int | None = None) -> list[str]:
        with self._lock:
            return [m.msg for m in self.logs if level is None or m.level == level]

    def close(self) -> None:
        import rclpy

        self._stop.set()
        self._thread.join(timeout=5.0)
        self.executor.shutdown()
        for n in (*self.nodes, self.monitor, self.probe):
            n.destroy_node()
        rclpy.try_shutdown(context=self.context)


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
