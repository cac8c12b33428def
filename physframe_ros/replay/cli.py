"""``physframe replay BAG``: the live monitor's checks over the TF and stamped data of a recorded bag."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ..bag import DEFAULT_TF_TOPICS, BagError, TfBag, TopicSelection
from ..bag.reader import ALL_DATA
from ..core import Conventions, ExpectedTree, ExpectedTreeError, FindingPolicy
from ..core.datacheck import DataOptions
from ..report.text import use_colour, write_text
from .driver import ReplayOptions, ReplayResult, replay
from .progress import ProgressBar
from .summary import format_replay

DESCRIPTION = """\
Check the TF data of a ROS 1 or ROS 2 bag offline: the same checks as the live
monitor (cycles, two parents, REP-105 order, axis conventions of optical/NED/FRD
frames, NaN, stale and future-stamped transforms, /tf vs /tf_static conflicts...)
run over the bag's /tf and /tf_static with bag time as the clock. The tree is
evaluated every --period seconds of bag time, so short faults (a 200 ms
re-parenting) are caught; each finding says when it was first and last active.

Every stamped topic (a std_msgs/Header first: images, scans, clouds, IMU, GPS,
odometry...) is read too, only as far as its header: its frame_id must be a frame
of the tree, connected to the fixed frame, transformable at its stamps, an optical
frame for camera data; a bag with stamped topics and no TF is still replayed.

BAG is a rosbag2 directory (metadata.yaml; sqlite3 or MCAP, split or compressed),
a single .db3 or .mcap file, or a ROS 1 .bag (tf2_msgs/TFMessage or tf/tfMessage).
A bag cut short is read as far as it goes: the error names the byte where it
broke and the report covers everything before it."""

EPILOG = """\
examples:
  physframe replay run.mcap                              # text summary, exit 1 on any error finding
  physframe replay run_dir/ --format html -o report.html # tree drawing, findings, timeline, edge stats
  physframe replay run.bag --start 60 --end 90           # seconds after the bag's first message
  physframe replay run.mcap --start @1700000060          # '@' = absolute bag time (epoch seconds)
  physframe replay run.mcap --expected expected.yaml     # compare with `physframe scan --expected-out`
  physframe replay run.mcap --topic '/robot1/tf*'        # only one robot's TF topics
  physframe replay run.mcap --data-topics '/camera/*' /scan # check only these stamped topics' frames
  physframe replay run.mcap --no-data                     # TF only
  physframe replay run.mcap --severity DISCONNECTED_TREE=info --ignore REPEATED_DATA

times: findings carry bag time in JSON (time.first/last, with bag.start beside them);
the text and HTML reports show seconds after the bag's start.

exit status: 0 no error finding, 1 at least one error finding, 2 unreadable bag or bad
usage (one line on stderr naming the file; a bag that breaks midway still gets the
report of what was read before), 130 interrupted by Ctrl-C (after printing what was found)"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("bag", metavar="BAG", help="rosbag2 directory, .db3, .mcap or ROS 1 .bag")
    p.add_argument("--format", choices=("text", "json", "html"), default="text", help="report format (default: text)")
    p.add_argument("-o", "--output", metavar="FILE", help="write the report here instead of stdout (html: default BAGNAME_tf_report.html; '-' for stdout)")
    p.add_argument("--expected", metavar="FILE", help="expected tree from `physframe scan --expected-out`: adds the crosscheck findings")
    p.add_argument("--expected-grace", type=float, default=3.0, metavar="S",
                   help="seconds of bag time after the first transform before an expected frame or edge is missing (default: 3.0, as the node)")
    p.add_argument("--period", type=float, default=1.0, metavar="S", help="evaluate the tree every S seconds of bag time (default: 1.0)")
    p.add_argument("--start", metavar="T", help="begin at T seconds after the bag's start, or at absolute bag time @T")
    p.add_argument("--end", metavar="T", help="stop at T (same forms as --start)")
    p.add_argument(
        "--topic", action="append", metavar="PATTERN",
        help=f"TF topic glob to read, repeatable ('*' matches '/' too; default: {' '.join(DEFAULT_TF_TOPICS)}); "
        "topics ending in tf_static are latched static transforms",
    )
    data = p.add_mutually_exclusive_group()
    data.add_argument(
        "--data-topics", nargs="+", metavar="GLOB",
        help="stamped topics whose header.frame_id is checked against the tree (default: every topic whose type starts with a std_msgs/Header)",
    )
    data.add_argument("--no-data", action="store_true", help="read only the TF topics")
    p.add_argument("--fixed-frame", metavar="FRAME", default="", help="frame data must be transformable to (default: the root of the largest tree)")
    p.add_argument("--conventions", metavar="FILE", help="YAML with extra frame classes or per-frame classes (as the monitor's conventions_file)")
    p.add_argument("--ignore", action="append", default=[], metavar="CODE", help="drop findings with this code (repeatable)")
    p.add_argument("--ignore-frame", action="append", default=[], metavar="FRAME", help="drop findings naming this frame (repeatable)")
    p.add_argument("--severity", action="append", default=[], metavar="CODE=LEVEL", help="override a code's severity: error, warning or info")
    bar = p.add_mutually_exclusive_group()
    bar.add_argument("--progress", action="store_true", default=None, help="progress bar on stderr (default: when stderr is a terminal)")
    bar.add_argument("--no-progress", dest="progress", action="store_false")


def parse_time(text: str | None, origin: float | None, what: str) -> float | None:
    """'12.5' -> origin + 12.5; '@1700000012.5' -> that absolute bag time."""
    if text is None:
        return None
    absolute = text.startswith("@")
    try:
        value = float(text[1:] if absolute else text)
    except ValueError:
        raise ValueError(f"{what} {text!r} is not a number of seconds (or @absolute seconds)") from None
    if absolute:
        return value
    if origin is None:
        raise ValueError(f"{what} {text!r} is relative to the bag's start, which this damaged bag does not record: give @absolute seconds")
    return origin + value


def build_options(args: argparse.Namespace, bag: TfBag) -> ReplayOptions:
    """Everything from the command line except the bag; ValueError/ExpectedTreeError with a one-line reason."""
    expected = ExpectedTree.load(args.expected) if args.expected else None
    conventions = Conventions.load(args.conventions) if args.conventions else None
    return ReplayOptions(
        period=args.period,
        start=parse_time(args.start, bag.info.start, "--start"),
        end=parse_time(args.end, bag.info.start, "--end"),
        expected=expected,
        expected_grace=args.expected_grace,
        conventions=conventions,
        policy=FindingPolicy.from_strings(args.ignore, args.ignore_frame, args.severity),
        data=DataOptions(fixed_frame=args.fixed_frame.strip()),
    )


def render(result: ReplayResult, fmt: str, colour: bool) -> str:
    if fmt == "json":
        return json.dumps(result.report(), indent=2) + "\n"
    if fmt == "html":
        from ..report.html import replay_page

        return replay_page(result.report())
    return format_replay(result, colour)


def run(args: argparse.Namespace) -> int:
    selection = TopicSelection(tuple(args.topic)) if args.topic else TopicSelection()
    data = None if args.no_data else TopicSelection(tuple(args.data_topics)) if args.data_topics else ALL_DATA
    bag = TfBag(args.bag, selection, data)
    try:
        bag.open()
    except BagError as exc:
        print(f"physframe replay: {exc}", file=sys.stderr)
        return 2
    try:
        try:
            options = build_options(args, bag)
        except (ValueError, ExpectedTreeError) as exc:
            print(f"physframe replay: {exc}", file=sys.stderr)
            return 2
        show = args.progress if args.progress is not None else sys.stderr.isatty()
        bar = None
        if show and bag.info.start is not None and bag.info.end is not None:
            bar = ProgressBar(options.start or bag.info.start, options.end or bag.info.end)
        result = replay(bag, options, bar)
        if bar is not None:
            bar.done()
    finally:
        bag.close()
    if result.error is not None:
        print(f"physframe replay: {result.error}; the report below covers what was read before", file=sys.stderr)
    for note in result.notes:
        print(f"physframe replay: warning: {note}", file=sys.stderr)
    out = args.output
    if args.format == "html" and not out:
        out = str(Path(args.bag).with_suffix("").name) + "_tf_report.html"
        print(f"physframe replay: HTML report written to {out}", file=sys.stderr)
    colour = args.format == "text" and not out and use_colour(sys.stdout)
    write_text(render(result, args.format, colour), out)
    if result.interrupted:
        print("physframe replay: interrupted; the report covers the bag up to the last message read", file=sys.stderr)
        return 130
    return result.exit_status
