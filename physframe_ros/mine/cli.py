"""``physframe mine``: implicit conventions from tables of static transforms."""

from __future__ import annotations

import argparse
import sys

from .. import __version__
from ..core.mined import save_rules
from .miner import MineError, mine, read_csv

DESCRIPTION = """\
Mine implicit TF conventions (PhysFrame, Appendix B) from CSV tables of static transforms
declared in many projects: transforms that usually have no rotation, no displacement, or
usually come with another transform. Each rule is kept when its z-score
z = (e/n - p0) / sqrt(p0 (1 - p0) / n) exceeds --threshold, where n counts the projects
that declare the premise and e those that also satisfy the conclusion.
The rules file feeds `physframe scan --mined FILE`, which reports
NULL_ROTATION_EXPECTED, NULL_DISPLACEMENT_EXPECTED and CO_OCCURRENCE_MISSING (info)."""

EPILOG = """\
examples:
  physframe mine shared/data/static_transforms.csv -o conventions.yaml
  physframe mine table.csv --threshold 2 --p0 0.85 --skip-examples

CSV columns needed: repo, parent, child, x, y, z, qx, qy, qz, qw (file is used by --skip-examples)."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("csv", nargs="+", metavar="CSV", help="static-transform tables (one row per declaration)")
    parser.add_argument("-o", "--output", default="conventions.yaml", help="rules file to write (default: %(default)s)")
    parser.add_argument("--p0", type=float, default=0.9, help="expected likelihood of a conclusion (paper: 0.9; its SQL used 0.85)")
    parser.add_argument("--threshold", type=float, default=1.0, help="keep rules with z above this (paper evaluates 1, 2, 5, 10; default %(default)s)")
    parser.add_argument("--min-support", type=int, default=3, help="ignore premises seen in fewer projects (default %(default)s)")
    parser.add_argument("--skip-examples", action="store_true", help="drop rows from test/demo/example/sample/tutorial files")


def run(args: argparse.Namespace) -> int:
    if not 0.0 < args.p0 < 1.0:
        print("physframe mine: --p0 must be between 0 and 1", file=sys.stderr)
        return 2
    observations = []
    try:
        for path in args.csv:
            observations += read_csv(path, args.skip_examples)
    except MineError as exc:
        print(f"physframe mine: {exc}", file=sys.stderr)
        return 2
    rules = mine(observations, args.p0, args.threshold, args.min_support)
    save_rules(rules, args.output, args.p0, args.threshold, [str(p) for p in args.csv])
    projects = len({o.project for o in observations})
    kinds = {k: sum(1 for r in rules if r.kind == k) for k in ("null_rotation", "null_displacement", "co_occurrence")}
    print(
        f"physframe {__version__}: {len(observations)} transforms from {projects} projects -> {len(rules)} rules "
        f"({', '.join(f'{n} {k}' for k, n in kinds.items())}) written to {args.output}"
    )
    for r in rules[:5]:
        extra = f" with {r.other_parent} -> {r.other_child}" if r.kind == "co_occurrence" else ""
        print(f"  z={r.z:5.2f}  {r.kind:17s} {r.parent} -> {r.child}{extra}  ({r.e}/{r.n} projects)")
    return 0
