"""The SVG tree, the DOT text and the timeline: well-formed, every frame drawn, problems marked where they are."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from physframe_ros.core import Edge, Finding, TimeSpan
from physframe_ros.report.dot import tree_dot
from physframe_ros.report.html import timeline_svg
from physframe_ros.report.svg import Marks, tree_svg

NS = {"s": "http://www.w3.org/2000/svg"}
ROBOT = [
    Edge("map", "odom"),
    Edge("odom", "base_link"),
    Edge("base_link", "laser", static=True),
    Edge("base_link", "camera_link", static=True),
    Edge("camera_link", "camera_optical_frame", static=True),
]


def _groups(svg: str, cls: str) -> list[ET.Element]:
    root = ET.fromstring(svg)
    return [g for g in root.iter(f"{{{NS['s']}}}g") if cls in (g.get("class") or "").split()]


def test_every_frame_is_an_element_and_faulty_ones_carry_their_severity() -> None:
    findings = [Finding("INCORRECT_TRANSFORM", "optical frame not RDF", ("camera_link", "camera_optical_frame"))]
    svg = tree_svg(ROBOT, findings)
    frames = {g.get("data-frame"): set((g.get("class") or "").split()) for g in _groups(svg, "frame")}
    assert set(frames) == {"map", "odom", "base_link", "laser", "camera_link", "camera_optical_frame"}
    assert {f for f, c in frames.items() if "faulty" in c} == {"camera_link", "camera_optical_frame"}
    assert "error" in frames["camera_optical_frame"]
    edges = {(g.get("data-parent"), g.get("data-child")): g for g in _groups(svg, "edge")}
    assert "faulty" in (edges[("camera_link", "camera_optical_frame")].get("class") or "")
    assert "faulty" not in (edges[("base_link", "camera_link")].get("class") or "")


def test_static_edges_are_dashed_and_dynamic_ones_solid() -> None:
    svg = tree_svg(ROBOT)
    for g in _groups(svg, "edge"):
        path = g.find("s:path", NS)
        assert path is not None
        assert (path.get("stroke-dasharray") is not None) == ("static" in (g.get("class") or ""))


def test_parents_are_drawn_above_children() -> None:
    svg = tree_svg(ROBOT)
    y = {}
    for g in _groups(svg, "frame"):
        rect = g.find("s:rect", NS)
        assert rect is not None
        y[g.get("data-frame")] = float(rect.get("y") or 0)
    assert y["map"] < y["odom"] < y["base_link"] < y["camera_link"] < y["camera_optical_frame"]


def test_loops_self_edges_odd_names_and_long_chains_still_draw() -> None:
    edges = [Edge("a", "b"), Edge("b", "a"), Edge("c", "c"), Edge("x<&\"y", "z")]
    edges += [Edge(f"link{i}", f"link{i + 1}") for i in range(1500)]  # deeper than Python's recursion limit
    missing = Finding("EXPECTED_FRAME_MISSING", "gps is declared but never published", ("gps",))
    svg = tree_svg(edges, [missing])
    frames = {g.get("data-frame") for g in _groups(svg, "frame")}
    assert {"a", "b", "c", 'x<&"y', "z", "gps", "link0", "link1500"} <= frames


def test_multiple_parents_mark_only_the_links_into_the_child() -> None:
    edges = [*ROBOT, Edge("map", "base_link")]
    marks = Marks.of([Finding("MULTIPLE_PARENTS_IN_FRAME_TREE", "two parents", ("base_link", "map", "odom"))], edges)
    assert set(marks.edges) == {("map", "base_link"), ("odom", "base_link")}


def test_dot_has_every_frame_and_edge_with_styles_and_escapes_quotes() -> None:
    findings = [Finding("CYCLE_IN_FRAME_TREE", "loop", ("map", "odom"))]
    dot = tree_dot([*ROBOT, Edge("odom", "map"), Edge('we"ird', "map")], findings, {("map", "odom"): "10 Hz"}, title="run.mcap")
    assert dot.startswith("digraph tf_tree {") and dot.rstrip().endswith("}")
    assert '"camera_link" -> "camera_optical_frame" [style=dashed];' in dot
    assert '"map" -> "odom" [style=solid, color="#c62828", penwidth=2, label="10 Hz"];' in dot
    assert '"we\\"ird" -> "map"' in dot
    assert '"odom" [color="#c62828"' in dot and 'tooltip="CYCLE_IN_FRAME_TREE"' in dot


def test_timeline_has_one_bar_per_timed_finding() -> None:
    findings = [
        Finding("CYCLE_IN_FRAME_TREE", "loop", ("map", "odom"), time=TimeSpan(112.0, 113.0, 2)),
        Finding("STALE_TRANSFORM", "stale", ("odom", "base_link"), time=TimeSpan(130.0, 140.0, 10)),
        Finding("INCORRECT_TRANSFORM", "static: no time", ("a", "b")),
    ]
    svg = timeline_svg(findings, 100.0, 140.0)
    bars = _groups(svg, "span")
    assert [g.get("data-code") for g in bars] == ["CYCLE_IN_FRAME_TREE", "STALE_TRANSFORM"]
    rects = [g.find("s:rect", NS) for g in bars]
    x = [float(r.get("x") or 0) for r in rects if r is not None]
    assert x[0] < x[1]


def test_an_empty_tree_says_so() -> None:
    svg = tree_svg([])
    assert _groups(svg, "frame") == [] and "no frames" in svg
