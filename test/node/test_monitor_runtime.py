"""The monitor while it runs: `ros2 param set` (the SetParameters service it calls), ~/reload, and the
grace before expected frames are reported missing. Real rclpy over real DDS, as test_monitor_e2e."""

from __future__ import annotations

import time

import pytest

from physframe_ros.core.expected import ExpectedTree
from physframe_ros.core.tree import Edge
from physframe_ros.demo.robot import TfEdge, TfSource

pytestmark = [pytest.mark.ros, pytest.mark.slow]

BAD_ORDER = TfSource("bad_localization", dynamic=(TfEdge("odom", "map"),))


def test_ignore_codes_set_at_run_time_clears_the_finding_and_a_bad_code_is_refused(harness):
    harness.publish(BAD_ORDER)
    harness.settle({"physframe: INCORRECT_FRAME_ORDER_IN_TREE"})
    (bad,) = harness.set_parameters(ignore_codes=["NOT_A_CODE"])
    assert not bad.successful and "NOT_A_CODE" in bad.reason and "ignore_codes" in bad.reason
    (ok,) = harness.set_parameters(ignore_codes=["INCORRECT_FRAME_ORDER_IN_TREE"])
    assert ok.successful, ok.reason
    harness.settle({"physframe: tree"})
    assert any(m == "cleared: INCORRECT_FRAME_ORDER_IN_TREE (odom, map)" for m in harness.log_lines())


def test_severity_and_frames_set_at_run_time(harness):
    harness.publish(BAD_ORDER)
    harness.settle({"physframe: INCORRECT_FRAME_ORDER_IN_TREE"})
    (ok,) = harness.set_parameters(severity_overrides=["INCORRECT_FRAME_ORDER_IN_TREE=info"])
    assert ok.successful, ok.reason
    harness.wait_for(lambda: harness.statuses()[0].level == b"\x00", what="the finding at OK level")
    (ok,) = harness.set_parameters(ignore_frames=["map"])
    assert ok.successful, ok.reason
    harness.settle({"physframe: tree"})


def test_eval_period_and_timeouts_set_at_run_time_and_bad_values_refused(harness):
    harness.publish(BAD_ORDER)
    harness.settle({"physframe: INCORRECT_FRAME_ORDER_IN_TREE"})
    results = harness.set_parameters(eval_period=-1.0)
    assert [(r.successful, r.reason) for r in results] == [(False, "eval_period: -1.0 is not a number >= 0")]
    (refused,) = harness.set_parameters(tf_topics=["/robot1/tf"])
    assert not refused.successful and "tf_topics" in refused.reason and "restart" in refused.reason
    ok = harness.set_parameters(eval_period=0.5, stale_timeout=2.0)
    assert all(r.successful for r in ok)
    assert harness.monitor.state.config.stale_timeout == 2.0
    with harness._lock:
        start = len(harness.arrays)
    time.sleep(2.1)
    with harness._lock:
        published = len(harness.arrays) - start
    assert 3 <= published <= 6, f"{published} /diagnostics arrays in 2.1 s at eval_period 0.5"


def test_expected_tree_set_at_run_time_and_reload_reads_the_file_again(harness, tmp_path):
    from std_srvs.srv import Trigger

    path = tmp_path / "expected.yaml"
    ExpectedTree([Edge("odom", "base_link"), Edge("base_link", "laser_link", True)]).save(path)
    harness.publish(TfSource("odometry", dynamic=(TfEdge("odom", "base_link"),)))
    harness.settle({"physframe: tree"})
    (bad,) = harness.set_parameters(expected_tree=str(tmp_path / "nope.yaml"))
    assert not bad.successful and "nope.yaml" in bad.reason
    results = harness.set_parameters(expected_grace=0.0, expected_tree=str(path))  # one by one, as ros2 param set
    assert all(r.successful for r in results), [r.reason for r in results]
    harness.settle({"physframe: EXPECTED_FRAME_MISSING"})
    # the scan is run again and now expects what the robot publishes
    ExpectedTree([Edge("odom", "base_link")]).save(path)
    resp = harness.call(Trigger, "/physframe_monitor/reload", Trigger.Request())
    assert resp.success and f"expected tree {path} (1 edges)" in resp.message
    harness.settle({"physframe: tree"})
    path.write_text("edges: [oops\n")
    resp = harness.call(Trigger, "/physframe_monitor/reload", Trigger.Request())
    assert not resp.success and str(path) in resp.message and "kept the files read before" in resp.message
    harness.settle({"physframe: tree"})  # still cross-checked against the last good file


def test_expected_frames_wait_for_the_grace_after_the_first_transform(harness_factory, tmp_path):
    path = tmp_path / "expected.yaml"
    ExpectedTree([Edge("odom", "base_link"), Edge("base_link", "laser_link", True)]).save(path)
    h = harness_factory(expected_tree=str(path), expected_grace=1.5)
    time.sleep(1.0)  # evaluations with no TF at all: nothing is missing yet
    h.wait_for(lambda: len(h.arrays) >= 3, what="evaluations")
    assert h.status_names() == {"physframe: tree"}
    h.publish(TfSource("odometry", dynamic=(TfEdge("odom", "base_link"),)))
    h.wait_for(lambda: h.get_tree()["stats"]["edges"] == 1, what="the first edge")
    first_tf = time.monotonic()
    h.wait_for(lambda: h.status_names() == {"physframe: EXPECTED_FRAME_MISSING"}, what="the missing frame after the grace")
    assert time.monotonic() - first_tf > 1.0
    assert [f["frames"] for f in h.get_tree()["findings"]] == [["laser_link"]]
