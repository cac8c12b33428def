"""``physframe scan``: the command line of the static scanner."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from ..core.conventions import Conventions
from ..core.printable import printable

DESCRIPTION = """\
Find frame-of-reference bugs in a ROS 1 / ROS 2 source tree before anything runs, and write the
TF tree the sources declare.

Reads, never executes: package.xml (packages), URDF and xacro (robot_state_publisher edges),
SDFormat (links, joints, frames), launch files (ROS 1 XML, ROS 2 Python/XML/YAML:
static_transform_publisher, robot_state_publisher, includes, nodes), parameter YAML and
cartographer's Lua configuration (frame options), and C++/Python code (broadcasts, lookups,
constant rotations). Files started together by a top-level launch file form
one subsystem; the tree checks (cycles, two parents, REP-105 order, axis conventions, lookups that
cannot resolve) run per subsystem.

The expected tree (--expected-out) keeps robot models a launch argument (choices=[...]) or the
robot's environment (TURTLEBOT3_MODEL) chooses as variants, not one merged tree, and writes names a
launch prefixes as placeholders ({namespace}base_link) that the node, replay and `physframe diff`
bind to the live names (robot1/base_link). --launch PKG/FILE with --arg and --env writes the tree of
that one launch as started.

Safe on a hostile tree: only regular files inside the scan root are read (no symlink, include,
load_yaml or $(find) leads outside; FIFOs and devices are never opened; files over 4 MB are
skipped); nothing is executed (xacro ${...} and $(eval) go through a restricted evaluator, never
Python's eval; $(env) is not read); each file is parsed in a worker process with a time limit
(--timeout) and a 1 GB memory limit. What is refused or over a limit is a PARSE_ERROR naming the
file. See docs/scan.md, "Safety on hostile trees"."""

EPILOG = """\
examples:
  physframe scan src/                                   # text report grouped by file
  physframe scan --example                              # try it on the bundled demo workspace
  physframe scan src/ --expected-out expected.yaml      # tree for `physframe replay --expected` and the node
                                                        # (robot models chosen by an argument or $ENV stay variants)
  physframe scan src/ --launch turtlebot3_bringup/robot.launch.py --env TURTLEBOT3_MODEL=burger --expected-out burger.yaml
                                                        # the tree of that launch alone, one model
  physframe scan src/ --format sarif -o physframe.sarif # for GitHub code scanning
  physframe scan src/ --format json --ignore DISCONNECTED_TREE --exclude 'third_party/*'
  physframe scan src/my_robot_bringup                   # one package; $(find my_robot_description) is read from the
                                                        # enclosing repository or workspace (--workspace auto)

exit status: 0 no error finding, 1 at least one error, 2 bad usage or unreadable input
"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("paths", nargs="*", metavar="PATH", help="workspace, package directories or single files (default: .)")
    p.add_argument("--example", action="store_true", help="scan the demo workspace bundled with physframe")
    p.add_argument("--format", choices=("text", "json", "sarif"), default="text", help="report format (default: text)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the report here instead of stdout")
    p.add_argument("--expected-out", metavar="FILE", help="write the expected TF tree (YAML, see docs/scan.md)")
    p.add_argument("--launch", metavar="PKG/FILE", help="the expected tree of this launch file alone (e.g. turtlebot3_bringup/robot.launch.py), "
                   "as started with --arg and --env; without it every top-level launch file is a subsystem and robot models stay variants")
    p.add_argument("--arg", action="append", default=[], metavar="NAME:=VALUE", help="a launch argument of --launch (repeatable), e.g. model:=waffle")
    p.add_argument("--env", action="append", default=[], metavar="NAME=VALUE", help="the robot's environment (repeatable), e.g. TURTLEBOT3_MODEL=burger; "
                   "the scanner's own environment is never read")
    p.add_argument("--workspace", metavar="DIR", default="auto", help="the repository or colcon/catkin workspace the paths belong to: launch "
                   "files and robot descriptions of its other packages that the paths include or load ($(find pkg), FindPackageShare) are "
                   "read too, and findings are still reported for the paths only. Default 'auto': the enclosing git repository or "
                   "workspace, when the paths name a package it holds and they do not; 'none': the paths alone")
    p.add_argument("--exclude", action="append", default=[], metavar="GLOB", help="skip paths matching GLOB (relative path or name; repeatable)")
    p.add_argument("--include-tests", action="store_true", help="also scan test/ and tests/ folders and gtest/pytest files (skipped by default)")
    p.add_argument("--conventions", metavar="FILE", help="YAML frame conventions overriding the built-in REP-103/105 rules")
    p.add_argument("--mined", metavar="FILE", help="conventions from `physframe mine`: report static transforms that depart from them (info)")
    p.add_argument("--ignore", action="append", default=[], metavar="CODE", help="drop findings with this code (repeatable)")
    p.add_argument("--ignore-frame", action="append", default=[], metavar="FRAME", help="drop findings naming this frame (repeatable)")
    p.add_argument("--severity", action="append", default=[], metavar="CODE=LEVEL", help="override a code's severity, e.g. DISCONNECTED_TREE=info")
    p.add_argument("--jobs", "-j", type=int, default=None, metavar="N", help="worker processes (default: 1 for small trees, all cores for large)")
    p.add_argument("--timeout", type=float, default=10.0, metavar="S", help="seconds one file may take before its worker is stopped and the file reported "
                   "(default 10)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def example_path() -> Path:
    return Path(__file__).resolve().parent.parent / "examples" / "demo_ws"


def _pairs(items: list[str], sep: str, flag: str) -> dict[str, str]:
    out = {}
    for item in items:
        name, found, value = item.partition(sep)
        if not found or not name.strip():
            raise ValueError(f"{flag} {item!r}: expected NAME{sep}VALUE")
        out[name.strip()] = value
    return out


def run(args: argparse.Namespace) -> int:
    from ..core.findings import FindingPolicy
    from ..core.mined import check_mined, load_rules
    from ..core.report import exit_status, report_dict
    from ..report.sarif import sarif_dict
    from ..report.text import format_source_findings, use_colour, write_text
    from .scanner import progress_stream, scan, source_lines

    paths = list(args.paths)
    if args.example:
        paths.append(str(example_path()))
    if not paths:
        paths = ["."]
    try:
        policy = FindingPolicy.from_strings(args.ignore, args.ignore_frame, args.severity)
        conventions = Conventions.load(args.conventions) if args.conventions else Conventions()
        mined = load_rules(args.mined) if args.mined else None
        launch_args = _pairs(args.arg, ":=", "--arg")
        env = _pairs(args.env, "=", "--env")
        if launch_args and not args.launch:
            raise ValueError("--arg needs --launch: the launch file the arguments are given to")
    except ValueError as exc:
        print(f"physframe scan: {exc}", file=sys.stderr)
        return 2
    unreadable = [p for p in paths if os.path.exists(p) and not os.access(p, os.R_OK)]
    if unreadable:
        print(f"physframe scan: {unreadable[0]}: permission denied", file=sys.stderr)
        return 2
    if args.jobs is not None and args.jobs < 1:
        print("physframe scan: --jobs must be at least 1", file=sys.stderr)
        return 2
    workspace = None if args.workspace == "none" else args.workspace
    if workspace not in (None, "auto") and not os.path.isdir(workspace):
        print(f"physframe scan: --workspace {workspace}: not a directory", file=sys.stderr)
        return 2
    try:
        result = scan(paths, args.exclude, conventions, policy, args.jobs, args.timeout, None if args.no_progress else progress_stream(),
                      include_tests=args.include_tests, launch=args.launch, launch_args=launch_args, env=env,
                      workspace=workspace)
    except (FileNotFoundError, ValueError) as exc:
        print(f"physframe scan: {exc}", file=sys.stderr)
        return 2
    if mined:
        result.findings.extend(policy.apply(check_mined(result.expected.edges, mined)))
    for note in result.notes:
        print(f"physframe scan: note: {printable(note)}", file=sys.stderr)
    if result.files == 0:
        print(f"physframe scan: note: no URDF, xacro, SDF, launch, C++ or Python files under {', '.join(paths)}", file=sys.stderr)
    if args.format == "json":
        data = report_dict(result.findings, result.expected.edges, root=str(result.root),
                           lookups=[lk.to_dict() for lk in result.expected.lookups], subsystems=result.expected.subsystems,
                           data_frames=[d.to_dict() for d in result.expected.data_frames],
                           stats={"files": result.files, "lines": result.lines, "seconds": round(result.seconds, 3)})
        text = json.dumps(data, indent=2) + "\n"
    elif args.format == "sarif":
        text = json.dumps(sarif_dict(result.findings), indent=2) + "\n"
    else:
        colour = not args.output and use_colour(sys.stdout)
        text = format_source_findings(result.findings, source_lines(result.root), colour)
        text += f"scanned {result.files} files, {result.lines} lines in {result.seconds:.2f} s\n"
    try:
        write_text(text, args.output)
        if args.expected_out:
            from .. import __version__

            result.expected.save(args.expected_out, generator=f"physframe {__version__}")
    except OSError as exc:
        print(f"physframe scan: cannot write {exc.filename}: {exc.strerror}", file=sys.stderr)
        return 2
    return exit_status(result.findings)
