"""Replay of real bags holding sensor data beside TF (.mcap, .db3, ROS 1 .bag): each fault in the frames the
data uses gives exactly its code, topic, frames and time span; the clean bag gives nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.databags import DATA_START, data_robot_with, write_data_bag
from bag.tfbags import START

from physframe_ros.bag import open_bag
from physframe_ros.cli import main
from physframe_ros.replay import replay

END = 20.0  # seconds of bag
SLACK = 1.05  # one evaluation period (and the sensors' 50-200 ms grid)

# fault -> {(code, topic): (frames, first, last)}, times in seconds after START
EXPECTED: dict[str | None, dict[tuple[str, str | None], tuple[tuple[str, ...], float, float]]] = {
    None: {},
    "unknown_frame": {("UNKNOWN_DATA_FRAME", "/scan"): (("base_laser",), DATA_START, END)},
    "empty_frame": {("MISSING_FRAME", "/imu"): ((), DATA_START, END)},
    "slash_frame": {("INVALID_FRAME_ID", "/gps/fix"): (("/gps",), DATA_START, END)},
    "non_optical": {("INCORRECT_TRANSFORM", "/camera/image_raw"): (("base_link", "camera_link"), DATA_START, END)},
    # depthimage_to_laserscan told an optical output frame: the scan plane stands on edge
    "scan_in_optical": {("INCORRECT_TRANSFORM", "/scan"): (("camera_optical_frame",), DATA_START, END)},
    "odom_no_child": {("MISSING_CHILD_FRAME", "/odom"): (("odom",), DATA_START, END)},
    "odom_reversed": {("PARENT_MISMATCH", "/odom"): (("base_link", "odom"), DATA_START, END)},
    "odom_other_child": {("UNKNOWN_DATA_FRAME", "/odom"): (("base_footprint",), DATA_START, END)},
    # stamps 2.5 s behind: those before TF's first transform (map -> odom at 0.05 s) cannot be transformed
    "lagging": {("DATA_TRANSFORM_UNAVAILABLE", "/points"): (("laser", "map"), DATA_START - 2.5, 0.05)},
    "future": {("FUTURE_TIMESTAMP", "/imu"): (("imu_link",), DATA_START, END)},
    "disconnected": {
        ("DATA_FRAME_DISCONNECTED", "/sonar"): (("sonar", "map"), DATA_START, END),
        ("DISCONNECTED_TREE", None): (("map", "sonar_mount"), 0.5, END),
    },
    "static_resent": {("STATIC_REPUBLISHED", None): (("camera_link", "imu_link", "laser"), 0.0, END)},
    "static_changed": {("STATIC_REPUBLISHED", None): (("base_link", "gps"), 0.5, 10.0)},
}


@pytest.mark.parametrize("kind", ["mcap", "db3", "bag"])
@pytest.mark.parametrize("fault", list(EXPECTED))
def test_each_data_fault_gives_exactly_its_code_topic_frames_and_times(tmp_path: Path, kind: str, fault: str | None) -> None:
    robot = data_robot_with(fault, END)
    if fault == "static_changed":
        robot.tf.messages[-1].t = 10.0  # within the shorter bag
    with open_bag(write_data_bag(robot, tmp_path, kind)) as bag:
        result = replay(bag)
    assert result.error is None and not result.notes
    got = {(f.code, f.topic): f for f in result.findings}
    assert set(got) == set(EXPECTED[fault]), [f.message for f in result.findings]
    for key, (frames, first, last) in EXPECTED[fault].items():
        f = got[key]
        assert f.frames == frames, f.message
        assert f.time is not None
        assert abs(f.time.first - START - first) <= SLACK, (key, f.time)
        assert abs(f.time.last - START - last) <= SLACK, (key, f.time)
        assert all(fr in f.message for fr in frames if fr != "map"), f.message
        if f.topic:
            assert f.topic in f.message
    topics = {t["topic"]: t for t in result.data_topics}
    assert set(topics) >= {"/camera/image_raw", "/camera/camera_info", "/scan", "/points", "/imu", "/gps/fix", "/odom"}
    assert topics["/scan"]["type"] == "sensor_msgs/LaserScan" and topics["/scan"]["rate_hz"] == pytest.approx(10.0)


def test_unknown_frame_names_the_closest_frames(tmp_path: Path) -> None:
    with open_bag(write_data_bag(data_robot_with("unknown_frame", END), tmp_path, "mcap")) as bag:
        (f,) = replay(bag).findings
    assert f.details["closest"][0] == "laser" and "'laser'" in f.message


def test_odometry_with_another_child_names_the_trees_child(tmp_path: Path) -> None:
    with open_bag(write_data_bag(data_robot_with("odom_other_child", END), tmp_path, "mcap")) as bag:
        (f,) = replay(bag).findings
    assert "child_frame_id 'base_footprint' in 'odom'; the TF tree has 'odom' -> 'base_link'" in f.message


def test_html_report_has_the_topics_table_and_marks_data_frames(tmp_path: Path) -> None:
    from physframe_ros.report.html import replay_page

    with open_bag(write_data_bag(data_robot_with("unknown_frame", END), tmp_path, "mcap")) as bag:
        page = replay_page(replay(bag).report())
    assert "<h2>Stamped topics (7)</h2>" in page and "<td>sensor_msgs/PointCloud2</td>" in page
    assert 'class="frame data" data-frame="camera_optical_frame"' in page
    assert 'class="frame faulty error data" data-frame="base_laser"' in page  # the unknown frame, drawn on its own
    assert "<br>/scan</td>" in page  # the finding's topic


def test_lagging_topic_reports_its_transformable_share(tmp_path: Path) -> None:
    with open_bag(write_data_bag(data_robot_with("lagging", END), tmp_path, "mcap")) as bag:
        result = replay(bag)
    points = next(t for t in result.data_topics if t["topic"] == "/points")
    # 5 Hz from 1.0 s, stamped 2.5 s behind: the 8 messages stamped before 0.05 s are lost, of 95
    assert points["transformable"] == pytest.approx(87 / 95, abs=1e-3)
    assert points["frames"] == ["laser"]


def test_bag_without_tf_is_a_normal_replay_with_warnings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_data_bag(data_robot_with("no_tf", END), tmp_path, "mcap")
    status = main(["replay", str(path), "--format", "json", "--no-progress"])
    out, err = capsys.readouterr()
    assert status == 0, err
    report = json.loads(out)
    assert "no TF topic" in " ".join(report["notes"])
    codes = {(f["code"], f["severity"], f["topic"]) for f in report["findings"]}
    assert ("UNKNOWN_DATA_FRAME", "warning", "/scan") in codes
    assert {c for c, _, _ in codes} == {"UNKNOWN_DATA_FRAME"} and {s for _, s, _ in codes} == {"warning"}
    scan = next(t for t in report["data_topics"] if t["topic"] == "/scan")
    assert scan["frames"] == ["laser"] and scan["transformable"] == 0.0  # nothing to transform with


def test_no_data_reads_only_tf(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = write_data_bag(data_robot_with("unknown_frame", END), tmp_path, "bag")
    assert main(["replay", str(path), "--no-data", "--no-progress"]) == 0
    assert main(["replay", str(path), "--data-topics", "/imu", "/odom", "--no-progress"]) == 0
    assert main(["replay", str(path), "--data-topics", "/sc*", "--no-progress"]) == 1
    out = capsys.readouterr().out
    assert "UNKNOWN_DATA_FRAME" in out and "/scan" in out
