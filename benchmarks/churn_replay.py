"""Replay of a bag whose frame names keep changing, beside the same bag with stable names.

    .venv/bin/python benchmarks/churn_replay.py [--names 1000000] [--seconds 100]

Writes two MCAP bags in a temporary directory (deleted afterwards): both hold a robot
(map -> odom -> base_link at 50 Hz) and ``--names`` transforms world -> object_N, 10 per
TFMessage, spread evenly over ``--seconds`` of bag time. In the churn bag every N is new
(names with an id in them); in the peer bag N cycles over 10 names. Each is replayed by
``replay()`` in its own process. Prints wall time, transforms/s and peak memory
(ru_maxrss) of both, and the ratios. Targets: peak memory bounded (independent of the
number of names) and the churn bag not 83x slower than its peer (the figure before edges
were evicted and capped). No asserts.
"""

from __future__ import annotations

import argparse
import json
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from physframe_ros.core.tfmessage import encode_cdr  # noqa: E402

START = 1_700_000_000.0
I = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)


def build(path: Path, names: int, seconds: float, distinct: bool) -> None:
    from rosbags.rosbag2 import Writer
    from rosbags.rosbag2.enums import StoragePlugin
    from rosbags.typesys import Stores, get_typestore

    typestore = get_typestore(Stores.ROS2_HUMBLE)
    messages = names // 10
    with Writer(path, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        tf = writer.add_connection("/tf", "tf2_msgs/msg/TFMessage", typestore=typestore)
        robot_every = max(1, round(messages / (seconds * 50)))  # the robot at about 50 Hz
        for m in range(messages):
            t = START + m * seconds / messages
            batch = [("world", f"object_{m * 10 + k if distinct else k}", t, I) for k in range(10)]
            if m % robot_every == 0:
                batch += [("map", "odom", t, I), ("odom", "base_link", t, I)]
            writer.write(tf, int(t * 1e9), encode_cdr(batch))


def child(path: str) -> None:
    from physframe_ros.bag import open_bag
    from physframe_ros.replay import replay

    t0 = time.perf_counter()
    with open_bag(path) as bag:
        result = replay(bag)
        codes = sorted({f.code for f in result.findings})
    out = {
        "seconds": time.perf_counter() - t0,
        "transforms": result.stats["transforms_received"],
        "edges_at_end": len(result.edge_stats),
        "codes": codes,
        "maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
    }
    print(json.dumps(out))


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--names", type=int, default=1_000_000)
    ap.add_argument("--seconds", type=float, default=100.0)
    ap.add_argument("--child", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(args.child)
        return 0
    work = Path(tempfile.mkdtemp(prefix="physframe_churn_"))
    try:
        results = {}
        for kind, distinct in (("stable names (peer)", False), ("churned names", True)):
            bag = work / ("churn" if distinct else "stable")
            t0 = time.perf_counter()
            build(bag, args.names, args.seconds, distinct)
            built = time.perf_counter() - t0
            out = subprocess.run([sys.executable, __file__, "--child", str(bag)], capture_output=True, text=True, check=True)
            r = results[kind] = json.loads(out.stdout.splitlines()[-1])
            print(f"{kind:20}: {r['transforms']:,} transforms in {r['seconds']:.1f} s = {r['transforms'] / r['seconds']:,.0f}/s, "
                  f"peak {r['maxrss_mb']:.0f} MB, {r['edges_at_end']} edges kept at the end, codes {', '.join(r['codes']) or '-'} "
                  f"(bag written in {built:.0f} s)", flush=True)
            shutil.rmtree(bag)
        peer, churn = results["stable names (peer)"], results["churned names"]
        print(f"churn / peer: {churn['seconds'] / peer['seconds']:.1f}x the time, {churn['maxrss_mb'] / peer['maxrss_mb']:.2f}x the peak memory "
              f"({args.names:,} distinct names over {args.seconds:g} s of bag time)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
