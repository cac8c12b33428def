"""Ctrl-C on `ros2 launch physframe_ros monitor.launch.py`, repeated: how many stops were clean.

Clean: exit status 0, no traceback, every process of the launch gone within 5 s. The launch runs in
its own process group and gets SIGINT as a terminal's Ctrl-C sends it (to the whole group, so the node
gets the terminal's SIGINT and then the one launch forwards), while this process publishes the demo
robot's TF (45 frames at 20 Hz) so the node is busy as beside a robot. The peer, measured in the same run, is
the same node under the same launch with rclpy's default signal handling and the usual
`spin / except KeyboardInterrupt / finally destroy_node` (what monitor.py did before).

    .venv/bin/python benchmarks/ctrl_c.py [--runs 20] [--no-peer] [--late-sigint]

--late-sigint sends the node a second SIGINT 0, 5, 10 ... ms after the Ctrl-C (one delay per run),
as when launch's forwarded SIGINT arrives while the node shuts down: the race the issue met.

Needs `scripts/bootstrap --with-launch` (colcon, ros2 launch); builds a workspace in a temporary folder.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "test" / "node"))

os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"  # before rclpy is imported
from colcon_workspace import RosCommand, build_workspace, missing_tools, ros_env  # noqa: E402

PEER_NODE = """
import sys, rclpy
from rclpy.executors import ExternalShutdownException
from physframe_ros.node.monitor import MonitorNode
rclpy.init(args=sys.argv)
node = None
try:
    node = MonitorNode()
    rclpy.spin(node)
except (KeyboardInterrupt, ExternalShutdownException):
    pass
finally:
    if node is not None:
        node.destroy_node()
    rclpy.try_shutdown()
"""

PEER_LAUNCH = """
import sys
from launch import LaunchDescription
from launch.actions import ExecuteProcess

def generate_launch_description():
    return LaunchDescription([ExecuteProcess(cmd=[sys.executable, {script!r}], output="screen")])
"""


@contextmanager
def robot_tf(domain: int) -> Iterator[None]:
    """The demo robot's TF published from this process (real rclpy, loopback DDS) until the block ends."""
    import rclpy
    from rclpy.context import Context
    from rclpy.executors import SingleThreadedExecutor

    from physframe_ros.demo.robot import CLEAN_ROBOT
    from physframe_ros.demo.sim import TfSourceNode

    context = Context()
    rclpy.init(context=context, domain_id=domain)
    executor = SingleThreadedExecutor(context=context)
    node = TfSourceNode(CLEAN_ROBOT, context=context)
    executor.add_node(node)
    stop = threading.Event()

    def spin() -> None:
        while not stop.is_set():
            executor.spin_once(timeout_sec=0.05)

    spinner = threading.Thread(target=spin, daemon=True)
    spinner.start()
    try:
        yield
    finally:
        stop.set()
        spinner.join(timeout=5.0)
        executor.shutdown()
        node.destroy_node()
        rclpy.try_shutdown(context=context)


def stop_once(ws: Path, command: str, ready: str, domain: int, tmp: Path, late_sigint: float | None) -> tuple[bool, str]:
    cmd = RosCommand(ws, command, ros_env(domain, tmp))
    if not cmd.wait_for_output(ready, 60.0):
        cmd.kill()
        return False, "never started:\n" + cmd.output[-2000:]
    time.sleep(0.5)  # a few timer callbacks in, as a user's Ctrl-C would be
    rc, seconds = cmd.ctrl_c(timeout=5.0, late_sigint=late_sigint)
    out = cmd.output
    if rc != 0 or "Traceback" in out or "KeyboardInterrupt" in out or "process has died" in out:
        return False, f"exit {rc} after {seconds:.1f} s:\n{out[-2000:]}"
    return True, ""


def measure(ws: Path, command: str, ready: str, runs: int, label: str, tmp: Path, domain: int, late: bool) -> int:
    clean = 0
    first_failure = ""
    for i in range(runs):
        ok, why = stop_once(ws, command, ready, domain, tmp, 0.005 * i if late else None)
        clean += ok
        first_failure = first_failure or why
        print(f"  {label} run {i + 1:2d}: {'clean' if ok else 'NOT clean'}", flush=True)
    if first_failure:
        print(f"  {label}: first unclean stop: {first_failure}")
    return clean


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--no-peer", action="store_true", help="only the monitor's own launch file")
    parser.add_argument("--late-sigint", action="store_true", help="a second SIGINT to the node 0, 5, 10 ... ms after each Ctrl-C")
    args = parser.parse_args()
    why = missing_tools()
    if why:
        print(f"ctrl_c: {why}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="physframe_ctrl_c_") as d:
        tmp = Path(d)
        ws = build_workspace(tmp / "ws")
        if ws.build.returncode != 0:
            print(ws.build.stdout + ws.build.stderr, file=sys.stderr)
            return 2
        print(f"colcon build: {ws.build_seconds:.1f} s")
        domain = 60 + os.getpid() % 30
        with robot_tf(domain):
            ours_cmd = "ros2 launch physframe_ros monitor.launch.py"
            ours = measure(ws.root, ours_cmd, "evaluating every", args.runs, "monitor.launch.py", tmp, domain, args.late_sigint)
            peer = None
            if not args.no_peer:
                (tmp / "peer_node.py").write_text(PEER_NODE)
                (tmp / "peer.launch.py").write_text(PEER_LAUNCH.format(script=str(tmp / "peer_node.py")))
                peer_cmd = f"ros2 launch {tmp / 'peer.launch.py'}"
                peer = measure(ws.root, peer_cmd, "evaluating every", args.runs, "peer (rclpy default handling)", tmp, domain, args.late_sigint)
    versus = f"; peer with rclpy's default handling {peer}/{args.runs}" if peer is not None else ""
    late = " with a late second SIGINT" if args.late_sigint else ""
    print(f"clean Ctrl-C stops of ros2 launch{late}: monitor.launch.py {ours}/{args.runs}{versus}")
    return 0 if ours == args.runs else 1


if __name__ == "__main__":
    sys.exit(main())
