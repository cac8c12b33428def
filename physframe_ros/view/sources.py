"""What ``physframe view`` can draw: a bag (replayed), an expected-tree file, or the live monitor's tree."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping, Sequence

from ..core import Conventions, Edge, ExpectedTree, ExpectedTreeError, Finding, check_tree
from ..report.html import edges_seen


class ViewError(Exception):
    """A source that cannot be drawn; ``str()`` is a one-line reason naming it."""


@dataclass
class Drawing:
    edges: list[Edge]
    findings: list[Finding]
    title: str
    labels: dict[tuple[str, str], str] = field(default_factory=dict)
    error: str | None = None  # the source broke part-way; the drawing holds what was read before


def from_report(report: Mapping[str, Any], title: str) -> Drawing:
    """A contract JSON report (replay's, or the node's ``~/get_tree``): its tree, or every edge replay saw."""
    stats = report.get("edges_stats") or []
    edges = edges_seen(stats) or [Edge.from_dict(e) for e in (report.get("tree") or {}).get("edges", [])]
    labels = {(r["parent"], r["child"]): f"{r['rate_hz']:.0f} Hz" for r in stats if not r.get("static") and r.get("rate_hz")}
    return Drawing(edges, [Finding.from_dict(f) for f in report.get("findings", [])], title, labels)


def from_bag(path: str, topics: Sequence[str] = ()) -> Drawing:
    from ..bag import BagError, TopicSelection, open_bag
    from ..replay import replay

    try:
        with open_bag(path, TopicSelection(tuple(topics)) if topics else None) as bag:
            result = replay(bag)
    except BagError as exc:
        raise ViewError(str(exc)) from None
    drawing = from_report(result.report(), path)
    lost = [f.message for f in result.findings if f.code == "BAG_MESSAGES_LOST"]
    drawing.error = str(result.error) if result.error is not None else (lost[0] if lost else None)
    return drawing


def from_expected(path: str) -> Drawing:
    try:
        tree = ExpectedTree.load(path)
    except ExpectedTreeError as exc:
        raise ViewError(str(exc)) from None
    return Drawing(tree.edges, check_tree(tree.edges, Conventions()), path)


def from_live(node: str, timeout: float) -> Drawing:
    """Ask the running monitor for its tree over its ``~/get_tree`` service (std_srvs/Trigger)."""
    report = live_report(node, timeout)
    return from_report(report, f"live tree of {service_name(node).rsplit('/', 1)[0]}")


def service_name(node: str) -> str:
    return (node if node.startswith("/") else "/" + node).rstrip("/") + "/get_tree"


def live_report(node: str, timeout: float) -> dict[str, Any]:
    """The JSON report a running monitor answers on its ``~/get_tree`` service."""
    os.environ.setdefault("ROS_AUTOMATIC_DISCOVERY_RANGE", "LOCALHOST")  # never look beyond this machine unless told
    try:
        import rclpy
        from rclpy.executors import SingleThreadedExecutor
        from std_srvs.srv import Trigger
    except ImportError as exc:
        raise ViewError(f"--live needs rclpy and std_srvs (a sourced ROS 2, or the project's .venv): {exc}") from None
    service = service_name(node)
    context = rclpy.Context()
    rclpy.init(context=context)
    try:
        client_node = rclpy.create_node("physframe_view", context=context)
        try:
            client: Any = client_node.create_client(Trigger, service)
            if not client.wait_for_service(timeout_sec=timeout):
                raise ViewError(f"service {service} is not available after {timeout:g} s: is the monitor running (physframe monitor), with this ROS_DOMAIN_ID?")
            future = client.call_async(Trigger.Request())
            executor = SingleThreadedExecutor(context=context)
            executor.add_node(client_node)
            executor.spin_until_future_complete(future, timeout_sec=timeout)
            executor.shutdown()
            response = future.result()
            if response is None:
                raise ViewError(f"service {service} did not answer within {timeout:g} s")
            if not response.success:
                raise ViewError(f"service {service} refused: {response.message}")
            try:
                report = json.loads(response.message)
            except json.JSONDecodeError as exc:
                raise ViewError(f"service {service} answered something that is not the JSON report: {exc}") from None
        finally:
            client_node.destroy_node()
    finally:
        rclpy.shutdown(context=context)
    if not isinstance(report, dict):
        raise ViewError(f"service {service} answered JSON that is not a report object")
    return report


def load(source: str | None, live: bool, node: str, timeout: float, topics: Sequence[str] = ()) -> Drawing:
    if live:
        return from_live(node, timeout)
    if source is None:
        raise ViewError("nothing to draw: give a bag, an expected-tree file, or --live")
    path = Path(source)
    if path.name == "metadata.yaml":
        return from_bag(str(path.parent), topics)
    if path.suffix in (".yaml", ".yml") and path.is_file():
        return from_expected(source)
    return from_bag(source, topics)
