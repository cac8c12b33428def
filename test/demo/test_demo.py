"""`physframe demo`: the injected faults come out as ERROR lines naming their frames and publishers,
the clean robot alone yields nothing, and the demo exits 0 (the README's first command)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from physframe_ros.demo.robot import CLEAN_ROBOT, FAULTS

pytestmark = [pytest.mark.ros, pytest.mark.slow]


def run_demo(*args: str) -> subprocess.CompletedProcess[str]:
    pytest.importorskip("rclpy")
    pytest.importorskip("tf2_msgs.msg")
    return subprocess.run([sys.executable, "-m", "physframe_ros.cli", "demo", *args], capture_output=True, text=True, timeout=60)


def test_demo_prints_injected_faults(ros_domain_id):
    r = run_demo("--duration", "3", "--eval-period", "0.5", "--domain-id", str(ros_domain_id))
    assert r.returncode == 0, r.stderr
    log = r.stderr
    assert "[ERROR]" in log and "CYCLE_IN_FRAME_TREE (fcu, fcu_frd)" in log and "/demo_mavros" in log
    assert "INCORRECT_TRANSFORM (rear_camera_link, rear_camera_optical_frame)" in log and "(-0.5, 0.5, -0.5, 0.5)" in log
    assert "MULTIPLE_PARENTS_IN_FRAME_TREE (imu_link, base_link, odom)" in log and "/demo_imu_filter" in log
    summary = r.stdout.split("active findings", 1)[1]
    for code in ("CYCLE_IN_FRAME_TREE", "INCORRECT_TRANSFORM", "MULTIPLE_PARENTS_IN_FRAME_TREE"):
        assert f"ERROR {code}" in summary
    assert "3 errors" in summary


def test_demo_clean_robot_has_no_finding(ros_domain_id):
    r = run_demo("--duration", "2.5", "--eval-period", "0.5", "--no-faults", "--domain-id", str(ros_domain_id))
    assert r.returncode == 0, r.stderr
    assert "[WARN]" not in r.stderr and "[ERROR]" not in r.stderr, r.stderr
    assert f"({len(CLEAN_ROBOT.frames)} frames" in r.stdout
    assert r.stdout.rstrip().endswith("no findings")


def test_each_fault_has_its_own_publisher_node():
    # each fault comes from its own node, so the monitor can name the culprit
    names = [s.node_name for s in (CLEAN_ROBOT, *FAULTS)]
    assert len(set(names)) == len(names)
