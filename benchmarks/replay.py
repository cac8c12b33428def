"""End-to-end replay speed of ``physframe replay`` beside ``rosbags`` alone, on the same bag, in one run.

    .venv/bin/python benchmarks/replay.py [--small] [--storage mcap|sqlite3] [--keep DIR]

Builds a bag of a 60-frame robot publishing every transform at 1 kHz (one TFMessage of
60 transforms per millisecond, 85 s: 5.1M transforms; ``--small``: 10 s) plus its
/tf_static, written from raw CDR bytes straight into the rosbags writer in a temporary
directory that is deleted afterwards. Then, each in its own process:

* physframe: open + read + decode + TfState + an evaluation per second of bag time + the
  report, i.e. ``replay()`` as the CLI runs it;
* rosbags alone: read every message of the same bag and ``deserialize_cdr`` it into a
  TFMessage object (what a script built on rosbags pays before any check);
* rosbags raw read (no deserialization), as the floor both share.

``--camera`` adds a 30 Hz 320x240 camera topic in an optical frame: physframe reads each image's
header only (frame and stamp checks), rosbags deserializes it (the peer reads every topic).

Prints transforms/s with the ratio physframe / rosbags (target >= 3x, floor 1x), and peak
memory (ru_maxrss) of the physframe replay on the bag and on a bag a quarter as long:
the two must be about equal (memory independent of bag length). Figures only, no asserts.
"""

from __future__ import annotations

import argparse
import json
import math
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from physframe_ros.core.tfmessage import Transform, encode_cdr  # noqa: E402

FRAMES = 60
RATE = 1000.0
START = 1_700_000_000.0
CAMERA_RATE, CAMERA_W, CAMERA_H = 30.0, 320, 240


def robot_edges(k: int = FRAMES) -> list[tuple[str, str]]:
    """map -> odom -> base_link and a tree of links under it (three children per link), k edges in all."""
    edges = [("map", "odom"), ("odom", "base_link")]
    links = ["base_link"]
    while len(edges) < k:
        child = f"link_{len(edges)}"
        edges.append((links[(len(links) - 1) // 3], child))
        links.append(child)
    return edges


def camera_messages(typestore: Any, seconds: float) -> list[tuple[int, bytes]]:
    """A 30 Hz 320x240 mono8 camera in camera_optical_frame: (bag time ns, CDR bytes)."""
    import numpy as np

    Image, Header, Time = (typestore.types[f"{p}/msg/{n}"] for p, n in (("sensor_msgs", "Image"), ("std_msgs", "Header"), ("builtin_interfaces", "Time")))
    pixels = np.full(CAMERA_W * CAMERA_H, 128, dtype=np.uint8)
    out = []
    for i in range(int(seconds * CAMERA_RATE)):
        t = START + i / CAMERA_RATE
        stamp = Time(sec=int(t), nanosec=round((t - int(t)) * 1e9) % 1_000_000_000)
        img = Image(header=Header(stamp=stamp, frame_id="sensor_0_optical_frame"), height=CAMERA_H, width=CAMERA_W, encoding="mono8",
                    is_bigendian=0, step=CAMERA_W, data=pixels)
        out.append((int(t * 1e9) + 2, bytes(typestore.serialize_cdr(img, "sensor_msgs/msg/Image"))))
    return out


def build_bag(path: Path, seconds: float, storage: str, camera: bool = False) -> int:
    """Writes the bag (with ``camera``: and a camera topic beside TF); returns the number of transforms in it."""
    from rosbags.rosbag2 import Writer
    from rosbags.rosbag2.enums import StoragePlugin
    from rosbags.typesys import Stores, get_typestore

    typestore = get_typestore(Stores.ROS2_HUMBLE)
    edges = robot_edges()
    plugin = StoragePlugin.MCAP if storage == "mcap" else StoragePlugin.SQLITE3
    total = 0
    with Writer(path, version=9, storage_plugin=plugin) as writer:
        tf = writer.add_connection("/tf", "tf2_msgs/msg/TFMessage", typestore=typestore)
        tf_static = writer.add_connection("/tf_static", "tf2_msgs/msg/TFMessage", typestore=typestore)
        statics: list[Transform] = [("base_link", f"sensor_{i}", START, (0.1 * i, 0.0, 0.2, 0.0, 0.0, 0.0, 1.0)) for i in range(5)]
        statics.append(("sensor_0", "sensor_0_optical_frame", START, (0.0, 0.0, 0.0, -0.5, 0.5, -0.5, 0.5)))
        writer.write(tf_static, int(START * 1e9), encode_cdr(statics))
        total += len(statics)
        images = camera_messages(typestore, seconds) if camera else []
        cam = writer.add_connection("/camera/image_raw", "sensor_msgs/msg/Image", typestore=typestore) if camera else None
        n = int(seconds * RATE)
        for m in range(n):
            while cam is not None and images and images[0][0] <= int((START + m / RATE) * 1e9):
                writer.write(cam, *images.pop(0))
            t = START + m / RATE
            a = 0.001 * m
            q = (0.0, 0.0, math.sin(a / 2), math.cos(a / 2))
            writer.write(tf, int(t * 1e9) + 1, encode_cdr([(p, c, t, (0.01 * i, 0.0, 0.05, *q)) for i, (p, c) in enumerate(edges)]))
            total += len(edges)
    return total


# --- measurements, each run in a fresh process so ru_maxrss is its own ---------------------------
def measure_physframe(path: str) -> dict[str, Any]:
    import rosbags.rosbag2  # noqa: F401  # imported before the clock starts, as for the peer

    from physframe_ros.bag import open_bag
    from physframe_ros.replay import replay

    t0 = time.perf_counter()
    with open_bag(path) as bag:
        result = replay(bag)
        report = result.report()
    seconds = time.perf_counter() - t0
    return {
        "transforms": result.stats["transforms_received"],
        "data_messages": result.stats["data_messages"],
        "seconds": seconds,
        "findings": [f["code"] for f in report["findings"]],
    }


def measure_rosbags(path: str, deserialize: bool) -> dict[str, float]:
    from rosbags.rosbag2 import Reader
    from rosbags.typesys import Stores, get_typestore

    typestore = get_typestore(Stores.ROS2_HUMBLE)
    t0 = time.perf_counter()
    transforms = 0
    messages = 0
    with Reader(path) as reader:
        for conn, _, raw in reader.messages():
            messages += 1
            if deserialize:
                msg = typestore.deserialize_cdr(raw, conn.msgtype)
                if conn.topic in ("/tf", "/tf_static"):
                    transforms += len(msg.transforms)  # type: ignore[attr-defined]
    return {"transforms": transforms if deserialize else float("nan"), "messages": messages, "seconds": time.perf_counter() - t0}


def child(kind: str, path: str) -> None:
    if kind == "physframe":
        out = measure_physframe(path)
    else:
        out = measure_rosbags(path, deserialize=kind == "rosbags")
    out["maxrss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps(out))


def run_child(kind: str, path: Path) -> dict[str, Any]:
    proc = subprocess.run([sys.executable, __file__, "--child", kind, str(path)], capture_output=True, text=True, check=True)
    return json.loads(proc.stdout)  # type: ignore[no-any-return]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", action="store_true", help="10 s of bag (600k transforms) instead of 85 s (5.1M)")
    ap.add_argument("--storage", choices=("mcap", "sqlite3"), default="mcap")
    ap.add_argument("--camera", action="store_true", help=f"add a {CAMERA_RATE:.0f} Hz {CAMERA_W}x{CAMERA_H} camera topic (its frames are checked too)")
    ap.add_argument("--keep", metavar="DIR", help="build the bags here and keep them (default: a temporary directory)")
    ap.add_argument("--child", nargs=2, metavar=("KIND", "BAG"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.child:
        child(*args.child)
        return
    seconds = 10.0 if args.small else 85.0
    work = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="physframe-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        tag = f"{args.storage}{'_camera' if args.camera else ''}"
        long_bag, short_bag = work / f"long_{tag}", work / f"short_{tag}"
        for p in (long_bag, short_bag):
            if p.exists():
                shutil.rmtree(p)
        t0 = time.perf_counter()
        total = build_bag(long_bag, seconds, args.storage, args.camera)
        build_bag(short_bag, seconds / 4, args.storage, args.camera)
        camera = f" + a {CAMERA_RATE:.0f} Hz {CAMERA_W}x{CAMERA_H} camera" if args.camera else ""
        print(f"bag: {FRAMES} frames at {RATE:.0f} Hz for {seconds:.0f} s = {total:,} transforms{camera} ({args.storage}), "
              f"built in {time.perf_counter() - t0:.1f} s", flush=True)
        ours = run_child("physframe", long_bag)
        peer = run_child("rosbags", long_bag)
        raw = run_child("raw", long_bag)
        short = run_child("physframe", short_bag)
        ours_rate = ours["transforms"] / ours["seconds"]
        peer_rate = peer["transforms"] / peer["seconds"]
        assert ours["transforms"] == peer["transforms"] == total, (ours, peer, total)
        print(f"physframe replay (read + decode + checks + report): {ours_rate:12,.0f} transforms/s  ({ours['seconds']:.1f} s)")
        print(f"rosbags read + deserialize_cdr:                      {peer_rate:12,.0f} transforms/s  ({peer['seconds']:.1f} s)")
        print(f"  ratio physframe / rosbags: {ours_rate / peer_rate:.2f}x  (target >= 3x, floor 1x)")
        if args.camera:
            print(f"  of which camera images: {ours['data_messages']:,} read to their header by physframe, deserialized by rosbags; "
                  f"findings: {', '.join(ours['findings']) or 'none'}")
        print(f"rosbags raw read alone (no deserialization):         {total / raw['seconds']:12,.0f} transforms/s  ({raw['seconds']:.1f} s)")
        print(f"peak memory of the replay: {ours['maxrss_mb']:.0f} MB on {seconds:.0f} s of bag, "
              f"{short['maxrss_mb']:.0f} MB on {seconds / 4:.0f} s  (ratio {ours['maxrss_mb'] / short['maxrss_mb']:.2f}; "
              f"rosbags alone: {peer['maxrss_mb']:.0f} MB)")
    finally:
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
