"""Garbage and half-written files never break a parser: the worst outcome is a PARSE_ERROR that
names the file, never an internal error."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from physframe_ros.scan.context import ScanContext
from physframe_ros.scan.discovery import classify
from physframe_ros.scan.scanner import parse_file

# Pieces of every format the parsers read, recombined in any order (half-open tags, self
# references, unresolved substitutions, wrong types).
FRAGMENTS = [
    "<launch>", "</launch>", "<group>", "</group>", "<arg name='x' default='$(arg x)'/>",
    "<include file='$(find p)/a.launch'><arg name='x' value='1'/></include>",
    "<node pkg='tf2_ros' type='static_transform_publisher' args='0 0 0 0 0 0 a b'/>", "<node pkg='tf' type='static_transform_publisher' args=\"1 2\"/>",
    "<param name='robot_description' command=\"xacro '$(find p)/a.xacro'\"/>", "<node pkg='robot_state_publisher' exec='robot_state_publisher'/>",
    "<robot name='r'>", "</robot>", "<link name='a'/>", "<joint name='j' type='fixed'><parent link='a'/><child link=''/><origin rpy='x y'/></joint>",
    "<xacro:macro name='m' params='n'><link name='${n}'/></xacro:macro>", "<xacro:m n='q'/>",
    "<sdf version='1.9'>", "</sdf>", "<model name='m'>", "</model>", "<frame name='f' attached_to='f'/>", "<pose relative_to='x' degrees='true'>1 2</pose>",
    "Node(package='tf2_ros', executable='static_transform_publisher', arguments=['--x', LaunchConfiguration('z'), '--frame-id'])",
    "IncludeLaunchDescription(PythonLaunchDescriptionSource(x), launch_arguments=y.items())", "x = x\n", "DeclareLaunchArgument('z', default_value=[1, 2])",
    "Node(parameters=[{'robot_description': Command(['xacro ', x])}], executable='robot_state_publisher')",
    "launch:\n- node: {pkg: tf2_ros, exec: static_transform_publisher, args: [a]}\n", "- include: {file: 1, arg: 2}\n",
    "$(", ")", "${", "'", '"', "\n", " ", "::", "__model__",
]
NAMES = ["a.launch", "a.launch.xml", "a.launch.py", "a.launch.yaml", "a.urdf", "a.xacro", "a.sdf"]


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(parts=st.lists(st.sampled_from(FRAGMENTS) | st.text(max_size=8), max_size=12), name=st.sampled_from(NAMES))
def test_no_parser_fails_on_malformed_input(tmp_path_factory: pytest.TempPathFactory, parts: list[str], name: str) -> None:
    root = tmp_path_factory.getbasetemp() / "fuzz"
    root.mkdir(exist_ok=True)
    (root / name).write_text("".join(parts))
    facts = parse_file(name, classify(name) or "", ScanContext(str(root), {"p": ""}))
    internal = [f.message for f in facts.findings if "internal error" in f.message]
    assert internal == []
    assert all(f.location is not None and f.location.file == name for f in facts.findings if f.code == "PARSE_ERROR")


def test_text_report_shows_no_binary_source_lines(tmp_path: Path) -> None:
    from physframe_ros.core.findings import Finding, Location
    from physframe_ros.report.text import format_source_findings
    from physframe_ros.scan.scanner import source_lines

    (tmp_path / "bad.urdf").write_bytes(b"\x00\x9f\xff<robot\x07\n")
    (tmp_path / "ok.urdf").write_text("<robot name='r'>\n")
    text = format_source_findings([Finding("PARSE_ERROR", "x", (), Location("bad.urdf", 1)), Finding("PARSE_ERROR", "y", (), Location("ok.urdf", 1))],
                                  source_lines(tmp_path))
    assert "\x00" not in text and "\ufffd" not in text and "\x07" not in text
    assert "<robot name='r'>" in text
