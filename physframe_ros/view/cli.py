"""``physframe view``: draw a TF tree with its findings marked, like view_frames but without graphviz."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .render import FORMATS, PDF_HELP, render
from .sources import ViewError, load

DESCRIPTION = """\
Draw a TF tree with the frames and edges that findings name in colour (error red,
warning orange, info blue); static edges dashed, dynamic solid.

SOURCE is a bag (replayed as `physframe replay` does: every edge the bag ever held,
with rates), or an expected-tree YAML from `physframe scan --expected-out` (tree
checks applied); or use --live to ask a running monitor for its tree over its
~/get_tree service."""

EPILOG = f"""\
examples:
  physframe view run.mcap -o frames.svg
  physframe view expected.yaml -o expected.dot && dot -Tpng expected.dot > expected.png
  physframe view --live -o live.pdf                  # from the running physframe_monitor
  physframe view --live --node /robot1/physframe_monitor -o -

formats follow the -o suffix (.svg, .dot, .pdf; default frames.svg; '-o -' writes SVG
to stdout, or --format). {PDF_HELP}.

exit status: 0 drawn, 2 the source cannot be read or drawn, or a bag broke part-way (one line on
stderr; the drawing then shows what was read before)"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("source", nargs="?", metavar="SOURCE", help="bag (dir, .db3, .mcap, .bag) or expected-tree .yaml")
    p.add_argument("--topic", action="append", metavar="PATTERN", help="for a bag: TF topic glob to read, repeatable (as physframe replay --topic)")
    p.add_argument("--live", action="store_true", help="draw the tree of a running monitor (needs rclpy)")
    p.add_argument("--node", default="physframe_monitor", help="monitor node name for --live (default: physframe_monitor)")
    p.add_argument("--timeout", type=float, default=5.0, metavar="S", help="seconds to wait for the monitor's service (default: 5)")
    p.add_argument("-o", "--output", default="frames.svg", metavar="FILE", help="output file (.svg, .dot, .pdf) or '-' for stdout")
    p.add_argument("--format", choices=FORMATS, help="output format (default: from the -o suffix)")


def run(args: argparse.Namespace) -> int:
    if args.live and args.source:
        print("physframe view: give either SOURCE or --live, not both", file=sys.stderr)
        return 2
    fmt = args.format or (Path(args.output).suffix.lstrip(".").lower() if args.output != "-" else "svg")
    if fmt not in FORMATS:
        print(f"physframe view: cannot tell the format of {args.output!r}: use .svg, .dot or .pdf, or --format", file=sys.stderr)
        return 2
    try:
        drawing = load(args.source, args.live, args.node, args.timeout, args.topic or ())
        data = render(drawing, fmt)
    except ViewError as exc:
        print(f"physframe view: {exc}", file=sys.stderr)
        return 2
    if args.output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.flush()
    else:
        Path(args.output).write_bytes(data)
        print(f"physframe view: wrote {args.output}", file=sys.stderr)
    if drawing.error:
        print(f"physframe view: {drawing.error}; the drawing shows what was read before", file=sys.stderr)
        return 2
    return 0
