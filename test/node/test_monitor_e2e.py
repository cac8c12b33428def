"""The monitor node end to end over real DDS: real rclpy publishers, the real /diagnostics topic,
/rosout and the ~/get_tree service. Each scenario must yield exactly its finding code with its frames."""

from __future__ import annotations

import math
import re
import time
from typing import Any

import pytest

from physframe_ros.demo.robot import CLEAN_ROBOT, IDENTITY, OPTICAL, ROLL_180, TfEdge, TfSource

pytestmark = [pytest.mark.ros, pytest.mark.slow]

ERROR, WARN, INFO = 40, 30, 20  # rcl_interfaces/Log levels


def values_of(status: Any) -> dict[str, str]:
    return {kv.key: kv.value for kv in status.values}


def only_status(harness: Any, code: str) -> tuple[Any, dict[str, Any]]:
    """Settle on exactly one finding, and check ~/get_tree reports the same one."""
    (status,) = harness.settle({f"physframe: {code}"})
    report = harness.get_tree()
    assert [f["code"] for f in report["findings"]] == [code]
    return status, report["findings"][0]


def test_mavros_style_cycle(harness):
    harness.publish(TfSource("mavros", dynamic=(TfEdge("fcu", "fcu_frd", rotation=ROLL_180), TfEdge("fcu_frd", "fcu", rotation=ROLL_180))))
    status, finding = only_status(harness, "CYCLE_IN_FRAME_TREE")
    assert status.level == b"\x02"  # ERROR
    assert set(values_of(status)["frames"].split(",")) == {"fcu", "fcu_frd"}
    assert values_of(status)["publishers"] == "/mavros"
    assert set(finding["frames"]) == {"fcu", "fcu_frd"}
    assert "fcu -> fcu_frd -> fcu" in status.message or "fcu_frd -> fcu -> fcu_frd" in status.message
    # logged once as ERROR although it was active over many evaluations
    errors = [m for m in harness.log_lines(ERROR) if "CYCLE_IN_FRAME_TREE" in m]
    assert len(errors) == 1 and "fcu_frd" in errors[0] and "/mavros" in errors[0]


def test_one_child_two_publishers_names_both(harness):
    harness.publish(TfSource("lidar_driver", static=(TfEdge("base_link", "laser_link", (0.1, 0.0, 0.2)),)))
    harness.publish(TfSource("rogue_localizer", dynamic=(TfEdge("odom", "laser_link", (1.0, 0.0, 0.2)),)))
    status, finding = only_status(harness, "MULTIPLE_PARENTS_IN_FRAME_TREE")
    assert values_of(status)["frames"] == "laser_link,base_link,odom"
    assert set(values_of(status)["publishers"].split(",")) == {"/lidar_driver", "/rogue_localizer"}
    assert "'base_link' (from /lidar_driver)" in status.message and "'odom' (from /rogue_localizer)" in status.message
    assert finding["frames"] == ["laser_link", "base_link", "odom"]


def test_reversed_odom_map(harness):
    harness.publish(TfSource("bad_localization", dynamic=(TfEdge("odom", "map"),)))
    status, finding = only_status(harness, "INCORRECT_FRAME_ORDER_IN_TREE")
    assert values_of(status)["frames"] == "odom,map"
    assert "REP-105" in status.message
    assert finding["frames"] == ["odom", "map"]


def test_optical_frame_with_identity_rotation(harness):
    harness.publish(TfSource("camera_driver", static=(TfEdge("camera_link", "camera_color_optical_frame", rotation=IDENTITY),)))
    status, finding = only_status(harness, "INCORRECT_TRANSFORM")
    assert values_of(status)["frames"] == "camera_link,camera_color_optical_frame"
    assert "(-0.5, 0.5, -0.5, 0.5)" in status.message  # the correct rotation is given
    assert finding["details"]["expected_quaternion"] == [-0.5, 0.5, -0.5, 0.5]


def test_optical_frame_with_correct_rotation(harness):
    harness.publish(TfSource("camera_driver", static=(TfEdge("camera_link", "camera_color_optical_frame", rotation=OPTICAL),)))
    harness.wait_for(lambda: harness.get_tree()["stats"]["edges"] == 1, what="the camera edge")
    (status,) = harness.settle({"physframe: tree"})
    assert status.level == b"\x00"
    assert harness.get_tree()["findings"] == []


def test_nan_translation(harness):
    harness.publish(TfSource("broken_driver", dynamic=(TfEdge("base_link", "laser_link", (math.nan, 0.0, 0.0)),)))
    status, finding = only_status(harness, "INVALID_TRANSFORM")
    assert values_of(status)["frames"] == "base_link,laser_link"
    assert "NaN" in status.message
    assert finding["frames"] == ["base_link", "laser_link"]
    report = harness.get_tree()
    assert report["tree"]["edges"] == []  # tf2 drops it, so does the tree
    assert report["stats"]["invalid_transforms"] > 0


def test_empty_child_frame_id(harness):
    harness.publish(TfSource("sloppy_driver", dynamic=(TfEdge("base_link", ""),)))
    status, finding = only_status(harness, "MISSING_CHILD_FRAME")
    assert values_of(status)["frames"] == "base_link"
    assert values_of(status)["publishers"] == "/sloppy_driver"
    assert finding["frames"] == ["base_link"]


def test_dynamic_edge_that_stops(harness):
    odometry = harness.publish(TfSource("odometry", dynamic=(TfEdge("odom", "base_link"),)))
    time.sleep(1.4)  # long enough to be an established 20 Hz edge
    harness.wait_for(lambda: harness.status_names() == {"physframe: tree"}, what="a healthy edge while it is published")
    odometry.stop()
    status, finding = only_status(harness, "STALE_TRANSFORM")
    assert values_of(status)["frames"] == "odom,base_link"
    assert "has not been updated" in status.message
    assert finding["frames"] == ["odom", "base_link"]


def test_stamps_ten_seconds_in_the_future_then_clear(harness):
    driver = harness.publish(TfSource("future_driver", dynamic=(TfEdge("odom", "base_link"),)), stamp_offset=10.0)
    status, finding = only_status(harness, "FUTURE_TIMESTAMP")
    assert values_of(status)["frames"] == "odom,base_link"
    ahead = re.search(r"stamped (\d+\.\d+) s ahead", status.message)
    assert ahead and 9.0 < float(ahead.group(1)) <= 10.01
    assert finding["frames"] == ["odom", "base_link"]
    driver.stamp_offset = 0.0  # the clock is fixed: the finding clears after event_hold
    harness.settle({"physframe: tree"})
    warns = [m for m in harness.log_lines(WARN) if "FUTURE_TIMESTAMP" in m]
    cleared = [m for m in harness.log_lines(INFO) if m.startswith("cleared: FUTURE_TIMESTAMP")]
    assert len(warns) == 1 and "odom" in warns[0] and "base_link" in warns[0]
    assert cleared == ["cleared: FUTURE_TIMESTAMP (odom, base_link)"]


def test_same_edge_on_tf_and_tf_static(harness):
    edge = TfEdge("base_link", "laser_link", (0.1, 0.0, 0.2))
    harness.publish(TfSource("confused_driver", static=(edge,), dynamic=(edge,)))
    status, finding = only_status(harness, "STATIC_DYNAMIC_CONFLICT")
    assert values_of(status)["frames"] == "base_link,laser_link"
    assert "/tf_static" in status.message
    assert finding["frames"] == ["base_link", "laser_link"] and finding["publishers"] == ["/confused_driver"]


def test_clean_rep105_robot_yields_nothing(harness):
    harness.publish(CLEAN_ROBOT)
    frames = len(CLEAN_ROBOT.frames)
    assert frames >= 40
    harness.wait_for(lambda: harness.get_tree()["stats"]["frames"] == frames, what=f"all {frames} frames")
    (status,) = harness.settle({"physframe: tree"}, hold=1.2)
    assert values_of(status)["frame_count"] == str(frames)
    report = harness.get_tree()
    assert report["findings"] == []
    assert set(report["tree"]["frames"]) == CLEAN_ROBOT.frames
    stats = report["stats"]
    assert stats["transforms_received"] > stats["messages_received"] > 0
    assert stats["decode_errors"] == 0 and stats["last_eval_ms"] > 0
    assert all(e["publishers"] == ["/demo_robot"] for e in report["edges_stats"])


def test_policy_parameters_ignore_and_override(harness_factory):
    h = harness_factory(severity_overrides=["INCORRECT_FRAME_ORDER_IN_TREE=warning"], ignore_frames=["fcu"])
    h.publish(TfSource("bad_localization", dynamic=(TfEdge("odom", "map"),)))
    h.publish(TfSource("mavros", dynamic=(TfEdge("fcu", "fcu_frd", rotation=ROLL_180), TfEdge("fcu_frd", "fcu", rotation=ROLL_180))))
    status, finding = only_status(h, "INCORRECT_FRAME_ORDER_IN_TREE")
    assert status.level == b"\x01" and finding["severity"] == "warning"


def test_undecodable_messages_counted_logged_once_and_monitor_keeps_going(harness):
    from rclpy.node import Node
    from tf2_msgs.msg import TFMessage

    from physframe_ros.core.tfmessage import encode_cdr

    good = encode_cdr([("base_link", "laser_link", 1.0, (0.1, 0.0, 0.2, 0.0, 0.0, 0.0, 1.0))])
    truncated = good[:4] + (5).to_bytes(4, "little") + good[8:]  # claims 5 transforms, holds 1
    garbler = harness.add_node(Node("garbler", context=harness.context))
    pub = garbler.create_publisher(TFMessage, "/tf", 100)
    garbler.create_timer(0.05, lambda: pub.publish(truncated))
    harness.publish(TfSource("odometry", dynamic=(TfEdge("odom", "base_link"),)))
    harness.wait_for(lambda: harness.get_tree()["stats"]["decode_errors"] >= 5, what="decode errors counted")
    harness.settle({"physframe: tree"})
    report = harness.get_tree()
    assert [(e["parent"], e["child"]) for e in report["tree"]["edges"]] == [("odom", "base_link")]
    errors = [m for m in harness.log_lines(ERROR) if "undecodable TFMessage on /tf" in m]
    assert len(errors) == 1 and "claims 5 transforms" in errors[0] and "/garbler" in errors[0]


def test_sim_time_is_honoured(harness_factory):
    from rclpy.node import Node
    from rclpy.parameter import Parameter
    from rosgraph_msgs.msg import Clock

    h = harness_factory(use_sim_time=True)
    clock_node = h.add_node(Node("simulator", context=h.context))
    clock_pub = clock_node.create_publisher(Clock, "/clock", 10)
    start = time.monotonic()

    def tick() -> None:
        t = 100.0 + time.monotonic() - start
        msg = Clock()
        msg.clock.sec, msg.clock.nanosec = int(t), int((t % 1.0) * 1e9)
        clock_pub.publish(msg)

    clock_node.create_timer(0.02, tick)
    # stamps in simulated time: 100 s, which the wall clock would call 55 years old (OLD_TIMESTAMP)
    h.publish(TfSource("sim_odometry", dynamic=(TfEdge("odom", "base_link"),)), parameter_overrides=[Parameter("use_sim_time", value=True)])
    h.wait_for(lambda: h.get_tree()["stats"]["edges"] == 1, what="the simulated edge")
    h.settle({"physframe: tree"})
    (edge,) = h.get_tree()["edges_stats"]
    assert 100.0 < edge["last_receive"] < 200.0  # received on the simulated clock
    assert abs(edge["delay_mean"]) < 0.5


def test_expected_tree_crosscheck(harness_factory, tmp_path):
    from physframe_ros.core.expected import ExpectedTree
    from physframe_ros.core.findings import Location
    from physframe_ros.core.tree import Edge

    path = tmp_path / "expected.yaml"
    ExpectedTree([Edge("odom", "base_link"), Edge("base_link", "laser_link", True, sources=(Location("urdf/robot.urdf", 12),))]).save(path)
    h = harness_factory(expected_tree=str(path), expected_grace=0.4)
    h.publish(TfSource("odometry", dynamic=(TfEdge("odom", "base_link"),)))
    status, finding = only_status(h, "EXPECTED_FRAME_MISSING")
    assert values_of(status)["frames"] == "laser_link"
    assert "urdf/robot.urdf:12" in status.message
    assert finding["location"] == {"file": "urdf/robot.urdf", "line": 12}


def test_findings_carry_the_span_they_were_active(harness):
    harness.publish(TfSource("bad_localization", dynamic=(TfEdge("odom", "map"),)))
    only_status(harness, "INCORRECT_FRAME_ORDER_IN_TREE")
    (finding,) = harness.get_tree()["findings"]
    span = finding["time"]
    assert span["last"] - span["first"] >= 0.6 and span["count"] >= 4  # seen over the settle period, every 0.2 s


def _two_robots(rsp: str, robot1_scan: bool = True, robot2_scan_parent: str = "robot2/base_link", robot2_lift: float = 0.0) -> Any:
    """What robot_state_publisher publishes for the small bot model under the robot1/ and robot2/ namespaces."""
    edges = [TfEdge("robot1/base_footprint", "robot1/base_link", (0.0, 0.0, 0.01)),
             TfEdge("robot2/base_footprint", "robot2/base_link", (0.0, 0.0, 0.01 + robot2_lift)),
             TfEdge(robot2_scan_parent, "robot2/base_scan", (-0.032, 0.0, 0.17))]
    if robot1_scan:
        edges.append(TfEdge("robot1/base_link", "robot1/base_scan", (-0.032, 0.0, 0.17)))
    return TfSource(rsp, static=tuple(edges))


def _scanned_expected_tree(tmp_path: Any) -> str:
    """The expected tree the scan writes for a bringup whose model BOT_MODEL chooses and whose URDF names ${namespace}."""
    from scan.test_variants import _workspace

    from physframe_ros.scan.scanner import scan

    path = tmp_path / "expected.yaml"
    scan([_workspace(tmp_path)], jobs=1).expected.save(path)
    return str(path)


def test_expected_tree_with_variants_matches_two_namespaced_robots(harness_factory, tmp_path):
    h = harness_factory(expected_tree=_scanned_expected_tree(tmp_path), expected_grace=0.4)
    h.publish(_two_robots("robot_state_publisher"))
    (status,) = h.settle({"physframe: tree"})
    variant = values_of(status)["expected_variant"]
    assert variant == "variant 'bot_bringup/launch/state_publisher.launch.py BOT_MODEL=small' with namespace = 'robot1/', 'robot2/'"
    assert variant in status.message
    assert any("the live tree matches " + variant in m for m in h.log_lines(INFO))
    diff = _diff_live(tmp_path / "expected.yaml")
    assert diff.returncode == 0, diff.stdout + diff.stderr
    assert "the tree agrees with " + variant in diff.stdout


def _diff_live(expected: Any) -> Any:
    """``physframe diff EXPECTED --live`` in its own process, against the monitor of this test's domain."""
    import subprocess
    import sys

    return subprocess.run([sys.executable, "-m", "physframe_ros.cli", "diff", str(expected), "--live", "--timeout", "20"],
                          capture_output=True, text=True, timeout=90)


def test_expected_tree_planted_differences_on_namespaced_robots(harness_factory, tmp_path):
    h = harness_factory(expected_tree=_scanned_expected_tree(tmp_path), expected_grace=0.4)
    h.publish(_two_robots("robot_state_publisher", robot1_scan=False, robot2_scan_parent="robot2/base_footprint", robot2_lift=0.05))
    statuses = h.settle({"physframe: EXPECTED_FRAME_MISSING", "physframe: PARENT_MISMATCH", "physframe: STATIC_VALUE_MISMATCH"})
    by_code = {values_of(s)["code"]: s for s in statuses}
    urdf = "bot_description/urdf/bot_small.urdf"
    assert values_of(by_code["EXPECTED_FRAME_MISSING"])["frames"] == "robot1/base_scan"
    assert f"{urdf}:13" in by_code["EXPECTED_FRAME_MISSING"].message
    assert values_of(by_code["PARENT_MISMATCH"])["frames"] == "robot2/base_scan,robot2/base_link,robot2/base_footprint"
    assert f"declared at {urdf}:13" in by_code["PARENT_MISMATCH"].message
    assert values_of(by_code["STATIC_VALUE_MISMATCH"])["frames"] == "robot2/base_footprint,robot2/base_link"
    assert f"{urdf}:8" in by_code["STATIC_VALUE_MISMATCH"].message and "(0.05 m apart)" in by_code["STATIC_VALUE_MISMATCH"].message
    assert all(values_of(s)["expected_variant"].endswith("namespace = 'robot1/', 'robot2/'") for s in statuses)
    diff = _diff_live(tmp_path / "expected.yaml")
    assert diff.returncode == 1, diff.stdout + diff.stderr
    assert "3 difference(s)" in diff.stdout and f"PARENT_MISMATCH: {urdf}:13" in diff.stdout
