"""Ingest speed of the monitor's hot path, beside its peers, in one run.

    .venv/bin/python benchmarks/ingest.py [--messages N] [--per-message K]

Measures, on the same serialized TFMessages (K transforms each, stamps advancing):

* physframe: CDR bytes -> ``TfState.ingest_cdr`` (decode + per-message checks + edge table),
  what the node does per message;
* rclpy ``deserialize_message(bytes, TFMessage)``: what an ordinary rclpy subscription pays
  before the callback even starts (skipped when rclpy/tf2_msgs are not importable);
* ROS 1 ``tf2_py.BufferCore.set_transform`` (C++ core), run by ``/usr/bin/python3`` when
  Debian's python3-tf2 is installed, on prebuilt message objects (no deserialization: a
  generous peer);

then the time of one ``TfState.evaluate`` on a 1,000-frame tree, and memory after 10x more
messages on the same edges (it must not grow). Figures are printed with ratios; targets are
in the issue (>= 20x rclpy, >= 2x BufferCore, evaluate <= 5 ms), never asserted here.
"""

from __future__ import annotations

import argparse
import gc
import math
import os
import struct
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from physframe_ros.core.tfmessage import Transform, encode_cdr, encode_ros1
from physframe_ros.core.tfstate import TfState

ROS1_PYTHON = "/usr/bin/python3"


def frame_names(k: int) -> list[tuple[str, str]]:
    """K parent -> child edges shaped like a robot: a chain of links with sensors hanging off them."""
    edges = [("odom", "base_link")]
    for i in range(1, k):
        parent = edges[(i - 1) // 3][1]
        edges.append((parent, f"link_{i}"))
    return edges


def make_messages(n: int, k: int, t0: float = 1000.0, period: float = 0.01, encode: Callable[[list[Transform]], bytes] = encode_cdr) -> list[bytes]:
    edges = frame_names(k)
    out = []
    for m in range(n):
        stamp = t0 + m * period
        a = 0.001 * m
        q = (0.0, 0.0, math.sin(a / 2), math.cos(a / 2))
        transforms: list[Transform] = [(p, c, stamp, (0.1 * i, 0.0, 0.05, *q)) for i, (p, c) in enumerate(edges)]
        out.append(encode(transforms))
    return out


def bench_physframe(messages: list[bytes], k: int, repeat: int) -> float:
    best = math.inf
    for _ in range(repeat):
        state = TfState()
        gc.collect()
        t = time.perf_counter()
        ingest = state.ingest_cdr
        recv = 1000.0
        for data in messages:
            ingest(data, recv, False, b"gid", "/tf")
            recv += 0.01
        best = min(best, time.perf_counter() - t)
    return len(messages) * k / best


def bench_rclpy(messages: list[bytes], k: int, repeat: int) -> float | None:
    try:
        from rclpy.serialization import deserialize_message
        from tf2_msgs.msg import TFMessage
    except ImportError as exc:
        print(f"  rclpy deserialize_message: skipped ({exc})")
        return None
    best = math.inf
    for _ in range(repeat):
        t = time.perf_counter()
        for data in messages:
            deserialize_message(data, TFMessage)
        best = min(best, time.perf_counter() - t)
    return len(messages) * k / best


_BUFFERCORE = r"""
import struct, sys, time
import genpy.dynamic, rospy, tf2_py
from geometry_msgs.msg import TransformStamped

# tf2_msgs/TFMessage from its definition, as rosbag does for types it lacks
cat = "geometry_msgs/TransformStamped[] transforms\n" + "=" * 80 + "\nMSG: geometry_msgs/TransformStamped\n" + TransformStamped._full_text
TFMessage = genpy.dynamic.generate_dynamic("tf2_msgs/TFMessage", cat)["tf2_msgs/TFMessage"]
blob = open(sys.argv[1], "rb").read()
messages, pos = [], 0
while pos < len(blob):
    (size,) = struct.unpack_from("<I", blob, pos)
    messages.append(blob[pos + 4 : pos + 4 + size])
    pos += 4 + size
k = len(TFMessage().deserialize(messages[0]).transforms)
full = only = float("inf")
for _ in range(int(sys.argv[2])):
    buf = tf2_py.BufferCore(rospy.Duration(10.0))
    t0 = time.perf_counter()
    for data in messages:  # what a ROS 1 Python listener does: deserialize, then set_transform each
        for t in TFMessage().deserialize(data).transforms:
            buf.set_transform(t, "bench")
    full = min(full, time.perf_counter() - t0)
    objects = [TFMessage().deserialize(data).transforms for data in messages]
    buf = tf2_py.BufferCore(rospy.Duration(10.0))
    t0 = time.perf_counter()
    for batch in objects:
        for t in batch:
            buf.set_transform(t, "bench")
    only = min(only, time.perf_counter() - t0)
n = len(messages) * k
print(n / full, n / only)
"""


def bench_buffercore(n: int, k: int, repeat: int) -> tuple[float, float] | None:
    """(bytes -> tree, set_transform alone) in transforms/s for ROS 1 tf2, or None when it is not installed."""
    if not os.path.exists(ROS1_PYTHON):
        print(f"  tf2_py BufferCore: skipped ({ROS1_PYTHON} not found)")
        return None
    probe = subprocess.run([ROS1_PYTHON, "-c", "import tf2_py, rospy, genpy, geometry_msgs.msg"], capture_output=True, text=True)
    if probe.returncode != 0:
        print("  tf2_py BufferCore: skipped (Debian python3-tf2 / python3-geometry-msgs not installed)")
        return None
    with tempfile.NamedTemporaryFile(suffix=".ros1") as f:
        for m in make_messages(n, k, encode=encode_ros1):
            f.write(struct.pack("<I", len(m)) + m)
        f.flush()
        r = subprocess.run([ROS1_PYTHON, "-c", _BUFFERCORE, f.name, str(repeat)], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        print(f"  tf2_py BufferCore: failed: {r.stderr.strip().splitlines()[-1] if r.stderr.strip() else r.returncode}")
        return None
    full, only = r.stdout.split()
    return float(full), float(only)


def bench_evaluate(frames: int, repeat: int) -> float:
    """Milliseconds for one evaluate() on a tree of ``frames`` frames (static and dynamic edges)."""
    state = TfState()
    edges = frame_names(frames)
    for i, (p, c) in enumerate(edges):
        static = i % 2 == 1
        for m in range(1 if static else 3):
            state.add_transforms([(p, c, 1000.0 + m * 0.05, (0.1, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0))], 1000.0 + m * 0.05, static, b"gid")
    now = 1000.1
    state.evaluate(now)  # warm the convention cache, as the node's first evaluation does
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        state.evaluate(now)
        times.append(time.perf_counter() - t)
    times.sort()
    return times[len(times) // 2] * 1e3


def memory_after(messages: list[bytes], rounds: int) -> int:
    """Bytes traced in the TfState after ingesting ``messages`` ``rounds`` times (stamps keep advancing)."""
    gc.collect()
    tracemalloc.start()
    base = tracemalloc.get_traced_memory()[0]
    state = TfState()
    recv = 1000.0
    for r in range(rounds):
        for data in messages:
            state.ingest_cdr(data, recv, False, b"gid", "/tf")
            recv += 0.01
        if r % 10 == 9:
            state.evaluate(recv)  # as the node's timer does; events older than event_hold are dropped
    state.evaluate(recv)
    gc.collect()
    used = tracemalloc.get_traced_memory()[0] - base
    tracemalloc.stop()
    del state
    return used


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--messages", type=int, default=2000, help="TFMessages per run (default 2000)")
    ap.add_argument("--per-message", type=int, default=50, help="transforms per TFMessage (default 50)")
    ap.add_argument("--repeat", type=int, default=3, help="runs per measurement; the best is kept")
    args = ap.parse_args()
    n, k = args.messages, args.per_message
    messages = make_messages(n, k)
    print(f"ingest: {n} TFMessages x {k} transforms, bytes -> tree, best of {args.repeat}")
    ours = bench_physframe(messages, k, args.repeat)
    print(f"  physframe TfState.ingest_cdr:       {ours:12,.0f} transforms/s")
    peer = bench_rclpy(messages, k, args.repeat)
    if peer:
        print(f"  rclpy deserialize_message:          {peer:12,.0f} transforms/s   physframe is {ours / peer:5.1f}x (target >= 20x)")
    bc = bench_buffercore(n, k, args.repeat)
    if bc:
        full, only = bc
        print("  ROS 1 tf2 listener path (genpy deserialize + BufferCore.set_transform):")
        print(f"                                      {full:12,.0f} transforms/s   physframe is {ours / full:5.1f}x (target >= 2x, floor 1x)")
        print("  ROS 1 BufferCore.set_transform alone (prebuilt messages, C++ core):")
        print(f"                                      {only:12,.0f} transforms/s   physframe is {ours / only:5.1f}x")

    ms = bench_evaluate(1000, 21)
    small = bench_evaluate(100, 21)
    print(f"evaluate: 1,000-frame tree {ms:.2f} ms (target <= 5 ms, floor 20 ms); 100-frame tree {small:.2f} ms; ratio {ms / small:.1f}x for 10x frames")

    # few transforms per message: tracemalloc slows every allocation, and the question is growth, not speed
    km = 10
    few = make_messages(100, km)
    m10 = memory_after(few, 100)  # 10k messages
    m100 = memory_after(few, 1000)  # 100k messages
    print(f"memory: {m10 / km:,.0f} B/edge after 10k messages, {m100 / km:,.0f} B/edge after 100k messages (ratio {m100 / max(m10, 1):.2f}: bounded)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
