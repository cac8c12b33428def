"""``physframe demo``: a simulated robot with injected TF faults and the monitor, over real DDS on loopback."""

from __future__ import annotations

import argparse
import os
import sys
import time

from ..core.findings import TimeSpan

DESCRIPTION = """\
Start a simulated robot that publishes a clean 42-frame REP-105 tree over DDS (map -> odom ->
base_footprint -> base_link, wheels, lidar, IMU, GPS, an RGB-D camera with optical frames, an arm),
three faulty publishers (a MAVROS-style cycle fcu -> fcu_frd -> fcu, a rear camera optical frame with
the identity rotation, an IMU filter giving imu_link a second parent), and the physframe monitor
node in the same process. The monitor logs each finding as a WARN/ERROR line naming the frames (the
loop, attached to nothing else, also shows as a DISCONNECTED_TREE warning); after --duration seconds
the active findings are printed and the demo exits 0.

DDS stays on this machine (ROS_AUTOMATIC_DISCOVERY_RANGE=LOCALHOST) on a domain of its own."""

EPILOG = """\
examples:
  physframe demo                     # about 5 s, prints the injected faults
  physframe demo --no-faults         # the clean robot alone: no finding
  physframe demo --duration 60 --domain-id 42   # leave it running; rqt on domain 42 sees /diagnostics
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--duration", type=float, default=5.0, help="seconds to run (default 5)")
    parser.add_argument("--no-faults", action="store_true", help="publish the clean robot only")
    parser.add_argument("--domain-id", type=int, default=None, help="ROS_DOMAIN_ID to use (default: one picked from this process id, 1-100)")
    parser.add_argument("--eval-period", type=float, default=1.0, help="monitor evaluation period in seconds (default 1)")


def run(args: argparse.Namespace) -> int:
    if args.duration <= 0 or args.eval_period <= 0:
        print("physframe demo: --duration and --eval-period must be > 0", file=sys.stderr)
        return 2
    domain = args.domain_id if args.domain_id is not None else os.getpid() % 100 + 1
    if not 0 <= domain <= 101:
        print(f"physframe demo: --domain-id {domain} is outside 0..101 (Fast DDS's port range)", file=sys.stderr)
        return 2
    # before rclpy is imported: DDS must not leave loopback
    os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"
    os.environ["ROS_DOMAIN_ID"] = str(domain)
    try:
        import rclpy
        from rclpy.executors import ExternalShutdownException, SingleThreadedExecutor
        from rclpy.parameter import Parameter

        from ..node.monitor import MonitorNode
        from .sim import TfSourceNode
    except ImportError as exc:
        print(f"physframe demo: needs ROS 2 (rclpy, tf2_msgs): {exc}; run scripts/bootstrap and use .venv/bin/physframe", file=sys.stderr)
        return 2
    from ..report.text import format_time_findings
    from .robot import CLEAN_ROBOT, FAULTS

    sources = [CLEAN_ROBOT] if args.no_faults else [CLEAN_ROBOT, *FAULTS]
    print(f"demo: ROS_DOMAIN_ID={domain}, loopback only; robot {CLEAN_ROBOT.node_name} ({len(CLEAN_ROBOT.frames)} frames)"
          + ("" if args.no_faults else f" + faulty publishers {', '.join(s.node_name for s in FAULTS)}"), flush=True)
    rclpy.init(args=[], domain_id=domain)
    executor = SingleThreadedExecutor()
    try:
        monitor = MonitorNode(parameter_overrides=[Parameter("eval_period", value=args.eval_period)])
        nodes = [monitor, monitor.replies, *(TfSourceNode(s) for s in sources)]
        for n in nodes:
            executor.add_node(n)
        start = monitor.now()
        end = time.monotonic() + args.duration
        while time.monotonic() < end:
            executor.spin_once(timeout_sec=0.1)
        report = monitor.report()
        print(f"\nactive findings after {args.duration:g} s ({report['stats']['frames']} frames, "
              f"{report['stats']['transforms_received']} transforms received):")
        # times as seconds since the demo started, not ROS epoch seconds
        sys.stdout.write(format_time_findings([f.with_(time=_since(f.time, start)) for f in monitor.active]))
    except (KeyboardInterrupt, ExternalShutdownException):
        pass
    finally:
        executor.shutdown()
        rclpy.try_shutdown()
    return 0


def _since(span: TimeSpan | None, start: float) -> TimeSpan | None:
    return None if span is None else TimeSpan(span.first - start, span.last - start, span.count)
