"""``physframe view``: a bag, an expected tree or the live monitor drawn to SVG, DOT and PDF."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import robot_with, write_bag

from physframe_ros.cli import main
from physframe_ros.core import Edge, ExpectedTree

SVG_G = "{http://www.w3.org/2000/svg}g"


def _frames(svg: bytes | str) -> dict[str, str]:
    root = ET.fromstring(svg)
    return {g.get("data-frame") or "": g.get("class") or "" for g in root.iter(SVG_G) if g.get("data-frame")}


@pytest.fixture(scope="module")
def faulty_bag(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_bag(robot_with("cycle"), tmp_path_factory.mktemp("view"), "db3")


def test_bag_to_svg_shows_every_edge_ever_seen_with_the_loop_marked(faulty_bag: Path, tmp_path: Path) -> None:
    out = tmp_path / "frames.svg"
    assert main(["view", str(faulty_bag), "-o", str(out)]) == 0
    frames = _frames(out.read_bytes())
    assert set(frames) == {"map", "odom", "base_link", "laser", "imu_link", "camera_link", "camera_optical_frame"}
    assert "faulty error" in frames["map"] and "faulty" in frames["odom"] and "faulty" not in frames["laser"]
    text = out.read_text()
    assert 'data-parent="odom" data-child="map"' in text  # the 0.5 s loop edge is drawn though it is gone at the end
    assert "50 Hz" in text


def test_bag_to_dot_and_stdout(faulty_bag: Path, tmp_path: Path, capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    out = tmp_path / "frames.dot"
    assert main(["view", str(faulty_bag), "-o", str(out)]) == 0
    dot = out.read_text()
    assert dot.startswith("digraph") and '"odom" -> "map"' in dot and "style=dashed" in dot
    capsysbinary.readouterr()
    assert main(["view", str(faulty_bag), "-o", "-", "--format", "dot"]) == 0
    assert capsysbinary.readouterr().out.decode() == dot


def test_bag_to_pdf(faulty_bag: Path, tmp_path: Path) -> None:
    pytest.importorskip("cairosvg")
    out = tmp_path / "frames.pdf"
    assert main(["view", str(faulty_bag), "-o", str(out)]) == 0
    data = out.read_bytes()
    assert data.startswith(b"%PDF-") and len(data) > 1000


def test_pdf_without_cairosvg_says_what_to_install(faulty_bag: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "cairosvg", None)  # import now fails as if it were not installed
    assert main(["view", str(faulty_bag), "-o", str(tmp_path / "x.pdf")]) == 2
    err = capsys.readouterr().err
    assert "pip install cairosvg" in err and "libcairo2" in err and err.count("\n") == 1


def test_expected_tree_is_drawn_with_its_tree_checks(tmp_path: Path) -> None:
    tree = ExpectedTree([
        Edge("base_link", "camera_link", True, (0.1, 0, 0), (0, 0, 0, 1)),
        Edge("camera_link", "camera_optical_frame", True, (0, 0, 0), (0, 0, 0, 1)),  # not RDF
    ])
    path = tmp_path / "expected.yaml"
    tree.save(path)
    out = tmp_path / "expected.svg"
    assert main(["view", str(path), "-o", str(out)]) == 0
    frames = _frames(out.read_bytes())
    assert set(frames) == {"base_link", "camera_link", "camera_optical_frame"}
    assert "faulty" in frames["camera_optical_frame"] and "faulty" not in frames["base_link"]


def test_bad_sources_and_outputs_are_one_line_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["view", str(tmp_path / "nope.mcap")]) == 2
    assert "nope.mcap: no such file" in capsys.readouterr().err
    bad = tmp_path / "tree.yaml"
    bad.write_text("[1, 2\n")
    assert main(["view", str(bad), "-o", str(tmp_path / "t.svg")]) == 2
    assert str(bad) in capsys.readouterr().err
    assert main(["view", str(bad), "-o", str(tmp_path / "t.png")]) == 2
    assert "cannot tell the format" in capsys.readouterr().err
    assert main(["view"]) == 2
    assert "nothing to draw" in capsys.readouterr().err


SERVER = textwrap.dedent(
    """
    import json, sys
    import rclpy
    from rclpy.executors import ExternalShutdownException
    from std_srvs.srv import Trigger

    report = json.loads(sys.argv[1])
    rclpy.init()
    node = rclpy.create_node("physframe_monitor")

    def get_tree(request, response):
        response.success = True
        response.message = json.dumps(report)
        return response

    node.create_service(Trigger, "~/get_tree", get_tree)
    print("ready", flush=True)
    try:
        rclpy.spin(node)
    except (KeyboardInterrupt, ExternalShutdownException):  # the test ends us with SIGTERM
        pass
    """
)


@pytest.mark.ros
def test_live_tree_comes_from_the_monitor_service(ros_domain_id: int, tmp_path: Path) -> None:
    pytest.importorskip("rclpy")
    pytest.importorskip("std_srvs")
    report = {
        "tool": {"name": "physframe", "version": "0"},
        "findings": [{"code": "MULTIPLE_PARENTS_IN_FRAME_TREE", "message": "two parents", "frames": ["base_link", "map", "odom"],
                      "severity": "error", "time": {"first": 3.0, "last": 4.0, "count": 2}}],
        "tree": {"frames": ["map", "odom", "base_link"], "edges": [
            {"parent": "map", "child": "odom", "static": False}, {"parent": "odom", "child": "base_link", "static": False},
            {"parent": "map", "child": "base_link", "static": False}]},
        "stats": {"transforms_received": 10},
    }
    server = subprocess.Popen([sys.executable, "-c", SERVER, json.dumps(report)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None and server.stdout.readline().strip() == "ready"
        out = tmp_path / "live.svg"
        proc = subprocess.run(
            [sys.executable, "-m", "physframe_ros.cli", "view", "--live", "--timeout", "20", "-o", str(out)],
            capture_output=True, text=True, timeout=90,
        )
        assert proc.returncode == 0, proc.stderr
        frames = _frames(out.read_bytes())
        assert set(frames) == {"map", "odom", "base_link"} and "faulty" in frames["base_link"]
        missing = subprocess.run(
            [sys.executable, "-m", "physframe_ros.cli", "view", "--live", "--node", "other_monitor", "--timeout", "1", "-o", str(out)],
            capture_output=True, text=True, timeout=60,
        )
        assert missing.returncode == 2 and "/other_monitor/get_tree is not available" in missing.stderr
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:  # rclpy can stall in DDS teardown on a loaded machine; the stand-in has answered
            server.kill()
            server.wait(timeout=20)


def test_topic_choice_limits_what_a_bag_drawing_shows(tmp_path: Path) -> None:
    from bag.tfbags import START, Msg, write_rosbag2

    identity = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
    msgs = [
        Msg(0.0, "/robot1/tf", [("robot1/odom", "robot1/base_link", START, identity)]),
        Msg(0.1, "/robot2/tf", [("robot2/odom", "robot2/base_link", START + 0.1, identity)]),
    ]
    bag = write_rosbag2(msgs, tmp_path / "two_robots")
    out = tmp_path / "robot2.svg"
    assert main(["view", str(bag), "--topic", "/robot2/*", "-o", str(out)]) == 0
    assert set(_frames(out.read_bytes())) == {"robot2/odom", "robot2/base_link"}


def test_bag_that_lost_messages_is_drawn_and_said_with_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bag = write_bag(robot_with("cycle"), tmp_path, "mcap")
    data = next(bag.glob("*.mcap"))
    raw = bytearray(data.read_bytes())
    raw[len(raw) // 3 : len(raw) // 3 + 512] = bytes(512)
    data.write_bytes(bytes(raw))
    out = tmp_path / "frames.svg"
    assert main(["view", str(bag), "-o", str(out)]) == 2
    err = capsys.readouterr().err
    assert "TF messages the bag's index lists could not be read" in err and "the drawing shows what was read before" in err
    assert "faulty error" in _frames(out.read_bytes())["map"]  # the cycle is still found and drawn
