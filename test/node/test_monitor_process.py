"""`physframe monitor` as its own process: the shipped params file, an extra namespaced TF topic,
the graph naming a publisher in another process, and a clean Ctrl-C."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from physframe_ros.demo.robot import TfEdge, TfSource

pytestmark = [pytest.mark.ros, pytest.mark.slow]
REPO = Path(__file__).resolve().parents[2]


def test_cli_monitor_process_extra_topic_and_ctrl_c(ros_domain_id):
    rclpy = pytest.importorskip("rclpy")
    pytest.importorskip("tf2_msgs.msg")
    from rclpy.context import Context
    from rclpy.executors import SingleThreadedExecutor
    from rclpy.node import Node
    from std_srvs.srv import Trigger

    from physframe_ros.demo.sim import TfSourceNode

    cmd = [sys.executable, "-m", "physframe_ros.cli", "monitor", "--ros-args", "--params-file", str(REPO / "config" / "monitor.yaml"),
           "-p", "eval_period:=0.2", "-p", "tf_topics:=[/robot1/tf]"]
    # SIGINT as a terminal leaves it: a runner started in the background (colcon test) leaves it ignored
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ),
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    ctx = Context()
    rclpy.init(context=ctx, domain_id=ros_domain_id)
    executor = SingleThreadedExecutor(context=ctx)
    try:
        robot = TfSourceNode(TfSource("robot1_localization", dynamic=(TfEdge("robot1/odom", "robot1/map"),)), dynamic_topic="/robot1/tf", context=ctx)
        probe = Node("probe", context=ctx)
        client = probe.create_client(Trigger, "/physframe_monitor/get_tree")
        for n in (robot, probe):
            executor.add_node(n)
        report: dict = {}
        end = time.monotonic() + 20.0
        # the graph may list a publisher's endpoint before its node name: naming is eventually consistent
        while time.monotonic() < end and not (report.get("findings") and report["findings"][0].get("publishers") == ["/robot1_localization"]):
            executor.spin_once(timeout_sec=0.1)
            if client.service_is_ready():
                future = client.call_async(Trigger.Request())
                executor.spin_until_future_complete(future, timeout_sec=2.0)
                if future.done():
                    report = json.loads(future.result().message)
            assert proc.poll() is None, proc.communicate()[1]
        assert [f["code"] for f in report.get("findings", [])] == ["INCORRECT_FRAME_ORDER_IN_TREE"], report
        finding = report["findings"][0]
        assert finding["frames"] == ["robot1/odom", "robot1/map"]
        assert finding["publishers"] == ["/robot1_localization"]
        assert report["edges_stats"][0]["topics"] == ["/robot1/tf"]
    finally:
        executor.shutdown()
        rclpy.try_shutdown(context=ctx)
        proc.send_signal(signal.SIGINT)
        try:
            _, err = proc.communicate(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            _, err = proc.communicate()
    assert proc.returncode == 0, err
    assert "Traceback" not in err
    assert "watching /tf, /tf_static, /robot1/tf" in err
    assert "[ERROR]" in err and "INCORRECT_FRAME_ORDER_IN_TREE (robot1/odom, robot1/map)" in err
    assert "parameter" not in err  # the shipped params file is read without complaint
