"""What checking the frames of live data topics costs the monitor node, over real DDS.

    .venv/bin/python benchmarks/data_topics.py [--seconds 20] [--width 1920 --height 1080]

One process publishes a robot's TF (20 Hz), a 30 Hz 1920x1080 rgb8 camera (sensor_msgs/Image,
6.2 MB a message) and a 10 Hz point cloud (sensor_msgs/PointCloud2, 100k points of 16 bytes). The
monitor node runs in its own process twice beside it: once with the data checks off
(``data_topics:=[]``), once with the defaults (every stamped topic, sampled: subscribed best effort,
depth 1, for 0.5 s every 5 s). Each prints the monitor's CPU time over the same wall time (user +
system, from /proc), as a share of one core, and the data messages it read (``~/get_tree``).
Loopback only, a domain id of its own. Figures only, no asserts; target: data checks <= 5% of a core.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def publishers(width: int, height: int, points: int) -> None:
    """The robot: TF, a camera and a lidar, published until killed."""
    import rclpy
    import sensor_msgs.msg as sm
    from rclpy.executors import ExternalShutdownException
    from rclpy.qos import qos_profile_sensor_data

    from physframe_ros.demo.robot import OPTICAL, TfEdge, TfSource
    from physframe_ros.demo.sim import TfSourceNode

    rclpy.init()
    robot = TfSourceNode(
        TfSource(
            "robot_state_publisher",
            static=(
                TfEdge("base_link", "camera_link", (0.2, 0.0, 0.3)),
                TfEdge("camera_link", "camera_optical_frame", rotation=OPTICAL),
                TfEdge("base_link", "lidar", (0.0, 0.0, 0.5)),
            ),
            dynamic=(TfEdge("odom", "base_link", circle_radius=1.0, spin_rate=0.2),),
        )
    )
    image = sm.Image(height=height, width=width, encoding="rgb8", step=3 * width, data=bytes(3 * width * height))
    image.header.frame_id = "camera_optical_frame"
    cloud = sm.PointCloud2(height=1, width=points, point_step=16, row_step=16 * points, is_dense=True, data=bytes(16 * points))
    cloud.header.frame_id = "lidar"
    cam = robot.create_publisher(sm.Image, "/camera/image_raw", qos_profile_sensor_data)
    lidar = robot.create_publisher(sm.PointCloud2, "/points", qos_profile_sensor_data)
    sent = {"image": 0, "cloud": 0}

    def shoot(msg: Any, pub: Any, key: str) -> None:
        msg.header.stamp = robot.get_clock().now().to_msg()
        pub.publish(msg)
        sent[key] += 1

    robot.create_timer(1 / 30, lambda: shoot(image, cam, "image"))
    robot.create_timer(1 / 10, lambda: shoot(cloud, lidar, "cloud"))
    t0 = time.monotonic()
    try:
        rclpy.spin(robot)
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    dt = time.monotonic() - t0
    print(json.dumps({"image_hz": sent["image"] / dt, "cloud_hz": sent["cloud"] / dt}), flush=True)


def cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime + stime


def get_tree(node: Any) -> dict[str, Any]:
    import rclpy
    from std_srvs.srv import Trigger

    client = node.create_client(Trigger, "/physframe_monitor/get_tree")
    if not client.wait_for_service(timeout_sec=10.0):
        return {}
    future = client.call_async(Trigger.Request())
    rclpy.spin_until_future_complete(node, future, timeout_sec=10.0)
    node.destroy_client(client)
    return json.loads(future.result().message) if future.done() else {}


def measure(args: argparse.Namespace, data: bool, probe: Any) -> dict[str, Any]:
    params = [] if data else ["-p", "data_topics:=[]"]
    cmd = [sys.executable, "-m", "physframe_ros.cli", "monitor", "--ros-args", *params]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        time.sleep(args.warmup)
        c0, t0 = cpu_seconds(proc.pid), time.monotonic()
        time.sleep(args.seconds)
        c1, t1 = cpu_seconds(proc.pid), time.monotonic()
        report = get_tree(probe)
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    topics = {t["topic"]: t["messages"] for t in report.get("data_topics", [])}
    stats = report.get("stats", {})
    findings = [f["code"] for f in report.get("findings", [])]
    return {"share": (c1 - c0) / (t1 - t0), "topics": topics, "transforms": stats.get("transforms_received"), "findings": findings}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seconds", type=float, default=20.0, help="measured wall time per run (default 20)")
    ap.add_argument("--warmup", type=float, default=6.0, help="seconds before measuring (discovery, first sample)")
    ap.add_argument("--width", type=int, default=1920)
    ap.add_argument("--height", type=int, default=1080)
    ap.add_argument("--points", type=int, default=100_000)
    ap.add_argument("--publishers", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args()
    os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
    os.environ.setdefault("ROS_DOMAIN_ID", str(60 + os.getpid() % 30))
    if args.publishers:
        publishers(args.width, args.height, args.points)
        return
    import rclpy

    pub = subprocess.Popen(
        [sys.executable, __file__, "--publishers", "--width", str(args.width), "--height", str(args.height), "--points", str(args.points)],
        stdout=subprocess.PIPE, text=True,
    )
    rclpy.init()
    probe = rclpy.create_node("physframe_bench_probe")
    try:
        time.sleep(2.0)
        off = measure(args, False, probe)
        on = measure(args, True, probe)
    finally:
        pub.terminate()
        out, _ = pub.communicate(timeout=20)
        probe.destroy_node()
        rclpy.try_shutdown()
    rates = json.loads(out.strip().splitlines()[-1]) if out.strip() else {}
    mb = 3 * args.width * args.height / 1e6
    print(f"publishers: {args.width}x{args.height} rgb8 image ({mb:.1f} MB) at {rates.get('image_hz', float('nan')):.1f} Hz, "
          f"{args.points:,}-point cloud ({16 * args.points / 1e6:.1f} MB) at {rates.get('cloud_hz', float('nan')):.1f} Hz, TF at 20 Hz")
    print(f"monitor, data checks off (data_topics:=[]):  {100 * off['share']:5.1f}% of one core  ({off['transforms']} transforms)")
    print(f"monitor, data checks on (sampled defaults):  {100 * on['share']:5.1f}% of one core  "
          f"(data messages read: {on['topics'] or 'none'}; findings: {', '.join(on['findings']) or 'none'})")
    print(f"  cost of the data checks: {100 * (on['share'] - off['share']):+.1f}% of one core over {args.seconds:.0f} s (target <= 5%)")


if __name__ == "__main__":
    main()
