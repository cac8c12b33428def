"""Long fuzz runs of the CDR decoder and the bag readers (replay and view) on damaged bags.

    .venv/bin/python benchmarks/fuzz.py [--seconds S] [--cases N] [--targets cdr-decoder,replay-mcap,...] [--seed K] [--bare]

Seeds are small real bags written with rosbags at start (a REP-105 robot with a short
map <-> odom cycle; MCAP plain and zstd-chunked, sqlite3, ROS 1 plain, lz4 and bz2) in a
temporary directory (in /dev/shm where there is one) deleted afterwards. Each case damages
one seed (truncation, zeroed range, bit flips, huge length, a byte range duplicated or
removed) and runs the replay driver (or ``physframe view``) on it in this process (see
test/bag/fuzzbags.py). Per target it prints cases, cases/s, tracebacks, hangs,
unexpected exit codes, damaged bags that lost messages without saying so, the exit status
counts, and the first examples of each failure. The decoder's own rate is the peer figure
every bag target's rate stands beside. Goal: >= 10^5 cases per target, all failures 0.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "test" / "bag"))

from fuzzbags import BAG_KINDS, Target, bag_target, decoder_target, run  # noqa: E402


def targets(workdir: Path, args: argparse.Namespace) -> dict[str, Target]:
    out = {"cdr-decoder": decoder_target()}
    for kind in BAG_KINDS:
        out[f"replay-{kind}"] = bag_target(kind, workdir / kind, bare=args.bare, crashes=args.crashes)
    out["view-mcap"] = bag_target("mcap", workdir / "view-mcap", command="view", crashes=args.crashes)
    out["view-bag"] = bag_target("bag", workdir / "view-bag", command="view", crashes=args.crashes)
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seconds", type=float, default=60.0, help="wall-clock seconds per target (default 60)")
    ap.add_argument("--cases", type=int, default=None, help="stop a target after this many cases")
    ap.add_argument("--targets", default="", help="comma-separated target names (default: all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--crashes", type=Path, default=Path(tempfile.gettempdir()) / "physframe-fuzz-bags",
                    help="where the damaged files of failing cases are kept, 20 per target (default %(default)s)")
    ap.add_argument("--bare", action="store_true", help="rosbag2 seeds as their lone .mcap/.db3 file, without metadata.yaml (several times faster)")
    args = ap.parse_args()
    shm = Path("/dev/shm")  # the damaged copy is rewritten per case: keep it in memory
    workdir = Path(tempfile.mkdtemp(prefix="physframe_fuzz_", dir=shm if shm.is_dir() else None))
    try:
        for sub in (*BAG_KINDS, "view-mcap", "view-bag"):
            (workdir / sub).mkdir()
        chosen = targets(workdir, args)
        if args.targets:
            chosen = {k: v for k, v in chosen.items() if k in args.targets.split(",")}
        print(f"{'target':18} {'cases':>8} {'cases/s':>8} {'traceback':>9} {'hang':>5} {'bad_exit':>8} {'silent_loss':>11}  exits")
        failures = 0
        for name, target in chosen.items():
            t0 = time.monotonic()
            tally = run(target, args.cases, args.seconds, args.seed)
            rate = tally.cases / (time.monotonic() - t0)
            o = tally.outcomes
            exits = " ".join(f"{k}:{v}" for k, v in sorted(tally.exits.items()))
            print(f"{name:18} {tally.cases:8d} {rate:8.1f} {o['traceback']:9d} {o['hang']:5d} {o['bad_exit']:8d} {o['silent_loss']:11d}  {exits}", flush=True)
            for outcome, examples in tally.examples.items():
                failures += o[outcome]
                for ex in examples:
                    print(f"    {outcome}: {ex.strip()[:1500]}")
        return 1 if failures else 0
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
