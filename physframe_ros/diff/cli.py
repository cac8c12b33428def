"""``physframe diff EXPECTED (BAG | --live)``: where the tree that runs departs from the tree the sources declare."""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from ..core.crosscheck import VariantDiff, compare
from ..core.expected import ExpectedTree, ExpectedTreeError
from ..core.findings import FindingPolicy
from ..core.printable import printable
from ..core.tree import Edge, frames_of

DESCRIPTION = """\
Cross-check a TF tree that ran (a bag, or the tree a running monitor holds) against the expected
tree `physframe scan --expected-out` wrote, and nothing else: no convention or timing checks.

The expected tree may hold several variants (robot models a launch argument or an environment
variable such as TURTLEBOT3_MODEL chooses: `physframe scan` keeps them apart unless --launch with
--arg/--env picks one) and frame names with placeholders ({namespace}base_link, bound to
robot1/base_link, robot2/base_link or base_link). diff picks the variant and bindings that best
explain the tree that ran (most declared frames present, then fewest absent), prints one row per
variant (the chosen one marked *), then each difference from the chosen variant with the source
line that declares it and what to change.

From a bag, every edge the bag ever held counts (static values as last published); a frame of
the expected tree is missing when no message names it anywhere in the bag."""

EPILOG = """\
examples:
  physframe scan src/ --expected-out expected.yaml && physframe diff expected.yaml run.mcap
  physframe diff expected.yaml run.mcap --variant 'robot.launch.py TURTLEBOT3_MODEL=burger'   # CI: this model, no other
  physframe diff expected.yaml --live --node /physframe_monitor
  physframe diff expected.yaml run.mcap --format json --ignore UNEXPECTED_EDGE

columns: agree = declared edges present with the declared parent and value / declared edges;
missing = absent frames + edges; parent, value, unexpected = PARENT_MISMATCH,
STATIC_VALUE_MISMATCH, UNEXPECTED_EDGE findings (docs/findings.md).

exit status: 0 the chosen variant agrees with the tree that ran, 1 it differs, 2 bad usage,
an unreadable expected tree or bag, or a monitor that does not answer"""


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("expected", metavar="EXPECTED", help="expected tree YAML from `physframe scan --expected-out`")
    p.add_argument("bag", nargs="?", metavar="BAG", help="rosbag2 directory, .db3, .mcap or ROS 1 .bag")
    p.add_argument("--live", action="store_true", help="the tree of a running monitor (its ~/get_tree service; needs rclpy)")
    p.add_argument("--node", default="physframe_monitor", help="monitor node for --live (default: physframe_monitor)")
    p.add_argument("--timeout", type=float, default=5.0, metavar="S", help="seconds to wait for the monitor (default: 5)")
    p.add_argument("--topic", action="append", metavar="PATTERN", help="for a bag: TF topic glob to read, repeatable (as physframe replay --topic)")
    p.add_argument("--variant", metavar="NAME", help="check against this variant (its name as the table shows it) instead of the best match")
    p.add_argument("--ignore", action="append", default=[], metavar="CODE", help="drop differences with this code (repeatable)")
    p.add_argument("--format", choices=("text", "json"), default="text", help="report format (default: text)")


def run(args: argparse.Namespace) -> int:
    if bool(args.bag) == bool(args.live):
        print("physframe diff: give either BAG or --live (see --help)", file=sys.stderr)
        return 2
    try:
        expected = ExpectedTree.load(args.expected)
        policy = FindingPolicy.from_strings(args.ignore, [], [])
    except (ExpectedTreeError, ValueError) as exc:
        print(f"physframe diff: {exc}", file=sys.stderr)
        return 2
    names = [v.name for v in expected.candidates()]
    if args.variant is not None and args.variant not in names:
        print(f"physframe diff: {args.expected} has no variant {args.variant!r}; it has: {', '.join(repr(n) for n in names)}", file=sys.stderr)
        return 2
    try:
        live, source = _live_tree(args)
    except _SourceError as exc:
        print(f"physframe diff: {exc}", file=sys.stderr)
        return 2
    rows = compare(expected, live)
    if args.variant is not None:
        rows = [_pick(r, r.match.variant.name == args.variant) for r in rows]
        rows.sort(key=lambda r: not r.chosen)
    rows = [VariantDiff(r.match, r.chosen, r.agreeing, r.declared, policy.apply(r.findings)) for r in rows]
    if args.format == "json":
        print(json.dumps(_json(rows, args.expected, source, live), indent=2))
    else:
        print(_text(rows, args.expected, source, live), end="")
    chosen = next(r for r in rows if r.chosen)
    return 1 if chosen.findings else 0


class _SourceError(Exception):
    pass


def _pick(row: VariantDiff, chosen: bool) -> VariantDiff:
    return VariantDiff(row.match, chosen, row.agreeing, row.declared, row.findings)


def _live_tree(args: argparse.Namespace) -> tuple[list[Edge], str]:
    from ..view.sources import ViewError, from_bag, live_report, service_name

    try:
        if args.live:  # the monitor's tree as it holds it now, static values included
            report = live_report(args.node, args.timeout)
            return [Edge.from_dict(e) for e in (report.get("tree") or {}).get("edges", [])], f"live tree of {service_name(args.node).rsplit('/', 1)[0]}"
        drawing = from_bag(args.bag, args.topic or ())
    except (ViewError, KeyError, TypeError, ValueError) as exc:
        raise _SourceError(str(exc)) from None
    if drawing.error:
        print(f"physframe diff: warning: {drawing.error}; the diff covers what was read", file=sys.stderr)
    return _with_values(drawing.edges, args), args.bag


def _with_values(seen: list[Edge], args: argparse.Namespace) -> list[Edge]:
    """Every edge the bag held, static ones with the values they were last published with."""
    from ..bag import TopicSelection, open_bag
    from ..replay import replay

    with open_bag(args.bag, TopicSelection(tuple(args.topic)) if args.topic else None) as bag:
        final = {(e.parent, e.child): e for e in replay(bag).edges}
    return [final.get((e.parent, e.child), e) for e in seen]


def _counts(row: VariantDiff) -> dict[str, int]:
    def n(*codes: str) -> int:
        return sum(len(f.frames) if f.code == "EXPECTED_FRAME_MISSING" else 1 for f in row.findings if f.code in codes)

    return {"missing": n("EXPECTED_FRAME_MISSING", "EXPECTED_EDGE_MISSING"), "parent": n("PARENT_MISMATCH"),
            "value": n("STATIC_VALUE_MISMATCH"), "unexpected": n("UNEXPECTED_EDGE")}


def _text(rows: list[VariantDiff], path: str, source: str, live: list[Edge]) -> str:
    lines = [printable(f"{path}: {len(rows)} variant(s); {source}: {len(frames_of(live))} frames / {len(live)} edges"), ""]
    table = [("", "variant", "agree", "missing", "parent", "value", "unexpected")]
    for r in rows:
        c = _counts(r)
        table.append(("*" if r.chosen else "", printable(r.match.describe()), f"{r.agreeing}/{r.declared}",
                      str(c["missing"]), str(c["parent"]), str(c["value"]), str(c["unexpected"])))
    widths = [max(len(row[i]) for row in table) for i in range(len(table[0]))]
    lines += ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in table]
    chosen = next(r for r in rows if r.chosen)
    lines.append("")
    if not chosen.findings:
        lines.append(printable(f"the tree agrees with {chosen.match.describe()}: no difference"))
    else:
        lines.append(printable(f"{len(chosen.findings)} difference(s) from {chosen.match.describe()}:"))
        for f in chosen.findings:
            where = f"{f.location}: " if f.location else ""
            lines.append(printable(f"  {f.code}: {where}{f.message}"))
    return "\n".join(lines) + "\n"


def _json(rows: list[VariantDiff], path: str, source: str, live: list[Edge]) -> dict[str, Any]:
    return {
        "expected": path,
        "source": source,
        "frames": len(frames_of(live)),
        "edges": len(live),
        "variants": [{"name": r.match.variant.name, "match": r.match.describe(), "chosen": r.chosen, "agreeing": r.agreeing,
                      "declared": r.declared, **_counts(r), "findings": [f.to_dict() for f in r.findings]} for r in rows],
    }
