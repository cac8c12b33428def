"""Replay of real bags (.mcap, .db3, ROS 1 .bag): each injected fault gives exactly its codes, frames and times."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("rosbags")

from bag.tfbags import START, robot_with, write_bag

from physframe_ros.bag import open_bag
from physframe_ros.replay import ReplayOptions, ReplayResult, replay

PERIOD = 1.0
SLACK = 0.05  # stamps and evaluation instants are on a 10-20 ms grid


# fault -> {code: (frames, first, last)} with the bag times (s after START) when the fault really was there
EXPECTED: dict[str | None, dict[str, tuple[tuple[str, ...], float, float]]] = {
    None: {},
    "cycle": {"CYCLE_IN_FRAME_TREE": (("map", "odom"), 12.0, 12.5)},
    "reparent": {"MULTIPLE_PARENTS_IN_FRAME_TREE": (("base_link", "map", "odom"), 15.0, 15.2)},
    "wrong_optical": {"INCORRECT_TRANSFORM": (("camera_link", "camera_optical_frame"), 0.3, 40.0)},
    "stop": {"STALE_TRANSFORM": (("odom", "base_link"), 30.0, 40.0)},
    "future": {"FUTURE_TIMESTAMP": (("map", "odom"), 20.0, 22.0)},
    "nan": {"INVALID_TRANSFORM": (("odom", "base_link"), 25.0, 25.02)},
}


def run_replay(path: Path, **options: object) -> ReplayResult:
    with open_bag(path) as bag:
        return replay(bag, ReplayOptions(**options))  # type: ignore[arg-type]


@pytest.mark.parametrize("kind", ["mcap", "db3", "bag"])
@pytest.mark.parametrize("fault", list(EXPECTED))
def test_each_fault_gives_exactly_its_codes_frames_and_times(tmp_path: Path, kind: str, fault: str | None) -> None:
    result = run_replay(write_bag(robot_with(fault), tmp_path, kind))
    assert result.error is None
    got = {f.code: f for f in result.findings}
    assert set(got) == set(EXPECTED[fault]), [f.message for f in result.findings]
    for code, (frames, first, last) in EXPECTED[fault].items():
        f = got[code]
        assert f.frames == frames
        assert f.time is not None
        # the fault is reported within one evaluation period of when it really began and ended
        assert abs(f.time.first - START - first) <= PERIOD + SLACK, (code, f.time)
        assert abs(f.time.last - START - last) <= PERIOD + SLACK, (code, f.time)
        assert f.time.count >= 1
        assert frames[0] in f.message and frames[-1] in f.message


def test_clean_bag_stats_say_static_not_a_rate(tmp_path: Path) -> None:
    result = run_replay(write_bag(robot_with(None), tmp_path, "mcap"))
    by_edge = {(r["parent"], r["child"]): r for r in result.edge_stats}
    optical = by_edge[("camera_link", "camera_optical_frame")]
    assert optical["pattern"] == "static" and "rate_hz" not in optical
    odom = by_edge[("odom", "base_link")]
    assert odom["rate_hz"] == pytest.approx(50.0, rel=0.01) and odom["pattern"] == "periodic"
    assert odom["delay_mean"] == pytest.approx(0.0, abs=1e-6)
    assert result.stats["transforms_received"] == 4 + 2000 + 400
    assert result.stats["evaluations"] >= 39
    assert {e.child for e in result.edges} == {"odom", "base_link", "laser", "imu_link", "camera_link", "camera_optical_frame"}


def test_shorter_period_pins_a_short_fault_closer(tmp_path: Path) -> None:
    result = run_replay(write_bag(robot_with("cycle"), tmp_path, "mcap"), period=0.25)
    (cycle,) = [f for f in result.findings if f.code == "CYCLE_IN_FRAME_TREE"]
    assert cycle.time is not None
    assert abs(cycle.time.first - START - 12.0) <= 0.25 + SLACK
    assert cycle.time.count > 1  # seen in several evaluations


def test_window_excludes_faults_outside_it_but_static_transforms_still_latch(tmp_path: Path) -> None:
    robot = robot_with("cycle")
    from bag.tfbags import inject_wrong_optical

    inject_wrong_optical(robot)
    path = write_bag(robot, tmp_path, "bag")
    after = run_replay(path, start=START + 14.0)
    codes = {f.code for f in after.findings}
    assert "CYCLE_IN_FRAME_TREE" not in codes
    # the optical frame was latched on /tf_static at t=0.3, before the window
    assert "INCORRECT_TRANSFORM" in codes
    assert min(f.time.first for f in after.findings if f.time) >= START + 14.0
    before = run_replay(path, end=START + 11.0)
    assert {f.code for f in before.findings} == {"INCORRECT_TRANSFORM"}
    assert before.bag["window"]["end"] < START + 11.0
    around = run_replay(path, start=START + 11.5, end=START + 13.0)
    assert "CYCLE_IN_FRAME_TREE" in {f.code for f in around.findings}


def test_interrupt_keeps_what_was_found_so_far(tmp_path: Path) -> None:
    path = write_bag(robot_with("cycle"), tmp_path, "mcap")

    def stop_at_20_s(bag_time: float, transforms: int) -> None:
        if bag_time > START + 20.0:
            raise KeyboardInterrupt

    with open_bag(path) as bag:
        result = replay(bag, ReplayOptions(), progress=stop_at_20_s)
    assert result.interrupted and result.error is None
    assert [f.code for f in result.findings] == ["CYCLE_IN_FRAME_TREE"]
    assert result.bag["window"]["end"] < START + 25.0
    assert result.report()["interrupted"] is True


def test_undecodable_message_is_skipped_with_a_note(tmp_path: Path) -> None:
    from rosbags.rosbag2 import Writer
    from rosbags.typesys import Stores, get_typestore

    from physframe_ros.core import encode_cdr

    path = tmp_path / "junk"
    with Writer(path, version=9) as writer:
        tf = writer.add_connection("/tf", "tf2_msgs/msg/TFMessage", typestore=get_typestore(Stores.ROS2_HUMBLE))
        writer.write(tf, int(START * 1e9), encode_cdr([("odom", "base_link", START, (0, 0, 0, 0, 0, 0, 1))]))
        writer.write(tf, int(START * 1e9) + 10**8, b"\x00\x01\x00\x00\xff\xff\x00\x00garbage")
        writer.write(tf, int(START * 1e9) + 2 * 10**8, encode_cdr([("odom", "base_link", START + 0.2, (0, 0, 0, 0, 0, 0, 1))]))
    result = run_replay(path)
    assert result.stats["decode_errors"] == 1 and result.stats["transforms_received"] == 2
    assert len(result.notes) == 1 and "/tf" in result.notes[0] and str(path) in result.notes[0]
    assert result.exit_status == 0


def test_truncated_bag_gives_the_error_and_the_report_of_what_came_before(tmp_path: Path) -> None:
    whole = write_bag(robot_with("cycle"), tmp_path, "bag")
    data = whole.read_bytes()
    cut = tmp_path / "cut.bag"
    cut.write_bytes(data[: int(len(data) * 0.6)])  # the cut falls at about t = 24 s
    result = run_replay(cut)
    assert result.error is not None and str(cut) in str(result.error) and "byte" in str(result.error)
    assert [f.code for f in result.findings] == ["CYCLE_IN_FRAME_TREE"]
    assert result.exit_status == 2
    report = result.report()
    assert report["error"] == str(result.error) and report["findings"][0]["code"] == "CYCLE_IN_FRAME_TREE"


def test_a_day_of_silence_in_the_bag_does_not_cost_a_day_of_evaluations(tmp_path: Path) -> None:
    from bag.tfbags import Msg, write_rosbag2

    tf = [("odom", "base_link", START, (0, 0, 0, 0, 0, 0, 1))]
    msgs = [Msg(i * 0.1, "/tf", [(p, c, START + i * 0.1, v) for p, c, _, v in tf]) for i in range(30)]
    msgs += [Msg(86400.0 + i * 0.1, "/tf", [(p, c, START + 86400.0 + i * 0.1, v) for p, c, _, v in tf]) for i in range(30)]
    result = run_replay(write_rosbag2(msgs, tmp_path / "gap"))
    assert result.stats["evaluations"] < 200
    (stale,) = [f for f in result.findings if f.code == "STALE_TRANSFORM"]
    assert stale.time is not None and stale.time.first - START < 5.0
