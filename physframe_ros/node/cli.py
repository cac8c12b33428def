"""``physframe monitor``: the monitor node where the ros2 CLI is absent (e.g. a venv from scripts/bootstrap)."""

from __future__ import annotations

import argparse
import sys
from typing import Sequence

from .params import parameter_table

DESCRIPTION = """\
Run the live TF monitor node (physframe_monitor): it rebuilds the frame tree from /tf and /tf_static,
logs each frame problem once when it appears (WARN/ERROR) and once when it clears (INFO), publishes
/diagnostics, and answers ~/get_tree (std_srvs/Trigger) with the JSON report of the live tree.
Same node as `ros2 run physframe_ros monitor`; everything after --ros-args goes to rclpy.
Ctrl-C stops it with status 0."""

EPILOG = f"""\
parameters (-p NAME:=VALUE after --ros-args, or --params-file config/monitor.yaml; all but
tf_topics and the data_* sampling ones can be changed while it runs with `ros2 param set /physframe_monitor NAME VALUE`, and
~/reload (std_srvs/Trigger) reads expected_tree and conventions_file again):
{parameter_table()}

examples:
  physframe monitor
  physframe monitor --ros-args -p eval_period:=0.5 -p "ignore_codes:=[REPEATED_DATA]"
  physframe monitor --ros-args --params-file config/monitor.yaml -p expected_tree:=expected.yaml
  physframe monitor --ros-args -p use_sim_time:=true        # replaying a bag with --clock
  physframe monitor --ros-args --log-level physframe_monitor:=debug   # the node's own debug lines only
"""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("ros_args", nargs=argparse.REMAINDER, metavar="--ros-args ...", help="rclpy arguments (parameters, remappings, log level)")


def run(args: argparse.Namespace) -> int:
    return run_monitor(args.ros_args)


def run_monitor(argv: Sequence[str]) -> int:
    """Called by ``physframe_ros.cli`` with the raw arguments after ``monitor``, so rclpy sees --ros-args untouched."""
    argv = list(argv)
    before_ros = argv[: argv.index("--ros-args")] if "--ros-args" in argv else argv
    if "-h" in before_ros or "--help" in before_ros:
        parser = argparse.ArgumentParser(
            prog="physframe monitor", description=DESCRIPTION, epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter
        )
        add_arguments(parser)
        parser.print_help()
        return 0
    stray = [a for a in before_ros if a != "--"]
    if stray:
        print(f"physframe monitor: unexpected argument {stray[0]!r}; node options go after --ros-args (see --help)", file=sys.stderr)
        return 2
    try:
        from .monitor import main
    except ImportError as exc:
        print(
            f"physframe monitor: needs ROS 2 (rclpy, tf2_msgs, diagnostic_msgs, std_srvs): {exc}; "
            "run scripts/bootstrap and use .venv/bin/physframe, or source a ROS 2 installation",
            file=sys.stderr,
        )
        return 2
    return main(["physframe_monitor", *argv])
