"""``physframe``: one command, several jobs. Each subcommand lives in its own module and is
imported only when used, so ``physframe scan`` works without rclpy and starts fast."""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from . import __version__

# name -> (module, one-line help). A module provides add_arguments(parser) and run(args) -> int.
COMMANDS: dict[str, tuple[str, str]] = {
    "scan": ("physframe_ros.scan.cli", "static scan of ROS / ROS 2 source trees (URDF, xacro, SDF, launch, C++, Python)"),
    "replay": ("physframe_ros.replay.cli", "check the TF data of a ROS 1 or ROS 2 bag offline"),
    "diff": ("physframe_ros.diff.cli", "cross-check a bag or the live tree against the expected tree (a table per variant; for CI)"),
    "view": ("physframe_ros.view.cli", "draw a tree (bag, expected tree, or --live) with its findings marked"),
    "monitor": ("physframe_ros.node.cli", "run the live monitor node (same as `ros2 run physframe_ros monitor`)"),
    "mine": ("physframe_ros.mine.cli", "mine implicit conventions (z-score) from tables of static transforms"),
    "demo": ("physframe_ros.demo.cli", "start a simulated robot with injected TF faults and the monitor, print the findings"),
}

EPILOG = """\
examples:
  physframe scan --example                          # the bundled workspace with planted frame bugs
  physframe scan src/ --expected-out expected.yaml   # find frame bugs in a workspace
  physframe replay run.mcap --format html -o report.html
  physframe diff expected.yaml run.mcap              # the cross-check alone, exit 1 on a difference
  physframe view run.mcap -o frames.svg
  physframe monitor --ros-args -p eval_period:=0.5
  physframe demo                                    # a robot with injected faults, live
  physframe mine static_transforms.csv -o conventions.yaml && physframe scan src/ --mined conventions.yaml

exit status (scan, replay): 0 no error finding, 1 at least one error, 2 bad usage or unreadable input
exit status (diff): 0 the tree agrees with the expected tree's chosen variant, 1 it differs, 2 bad usage
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="physframe",
        description="Find physical frame-of-reference bugs in ROS robots: in source, in bags, and live.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"physframe {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name and module_name.startswith(exc.name):
                continue  # this command is not part of this build
            raise
        p = sub.add_parser(
            name,
            help=help_text,
            description=getattr(module, "DESCRIPTION", help_text),
            epilog=getattr(module, "EPILOG", None),
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv and argv[0] == "monitor":
        # rclpy parses --ros-args itself; argparse must not see them
        from .node.cli import run_monitor

        return run_monitor(argv[1:])
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "_run", None):
        parser.print_help()
        return 2
    try:
        return int(args._run(args) or 0)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
