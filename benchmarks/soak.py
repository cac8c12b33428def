"""Soak: the real monitor node over real DDS while frame names churn, then quiet.

    .venv/bin/python benchmarks/soak.py [--names 100000] [--rate 1000] [--evict-after 30] [--domain N]

With ``--stable`` the same traffic repeats 10 names: the peer run that separates what
the node's state costs from what the traffic itself costs (DDS, rclpy, the allocator).

Starts ``physframe monitor`` as its own process (LOCALHOST discovery, its own
ROS_DOMAIN_ID, ``evict_after`` shortened so the run stays bounded, PYTHONMALLOC=malloc
as the launch file sets it; ``--pymalloc`` for Python's own allocator). This process publishes
a small robot (map -> odom -> base_link at 20 Hz) throughout and, after a settling
phase, ``--names`` distinct child frames of ``world`` (10 per TFMessage, ``--rate`` names
per second: names with an id in them, the real bug pattern), then only the robot again for
``evict_after`` + 20 s. A prober process calls ``~/get_tree`` about every second and
listens to /diagnostics. Prints the node's RSS at start (the peer figure: the same node
before any churn), peak and end beside the eviction time; ``~/get_tree`` latency (median,
max) and reply size per phase; the longest gap between /diagnostics messages; and what
the node says at the end (tracked / evicted edges, FRAME_CHURN seen). Targets: growth
<= 100 MB, released after the eviction time, every ``~/get_tree`` < 1 s. No asserts.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ["ROS_AUTOMATIC_DISCOVERY_RANGE"] = "LOCALHOST"  # never beyond this machine

from physframe_ros.core.tfmessage import encode_cdr  # noqa: E402

I = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def probe(stop_file: str) -> None:
    """The prober process: ~/get_tree about every second and /diagnostics arrivals, one JSON line each."""
    import rclpy
    from diagnostic_msgs.msg import DiagnosticArray
    from rclpy.node import Node
    from std_srvs.srv import Trigger

    rclpy.init()
    node = Node("soak_probe")
    client: Any = node.create_client(Trigger, "/physframe_monitor/get_tree")
    last_diag: list[float] = []
    codes: set[str] = set()

    def on_diag(msg: DiagnosticArray) -> None:
        now = time.time()
        gap = now - last_diag[0] if last_diag else 0.0
        last_diag[:] = [now]
        for s in msg.status:
            codes.add(s.name.replace("physframe: ", ""))
        print(json.dumps({"kind": "diag", "t": now, "gap": gap, "codes": sorted(codes)}), flush=True)

    node.create_subscription(DiagnosticArray, "/diagnostics", on_diag, 10)
    while not os.path.exists(stop_file):
        rclpy.spin_once(node, timeout_sec=0.05)
        if not client.service_is_ready():
            continue
        t0 = time.time()
        future = client.call_async(Trigger.Request())
        while not future.done() and time.time() - t0 < 10.0:
            rclpy.spin_once(node, timeout_sec=0.01)  # /diagnostics keep arriving meanwhile
        latency = time.time() - t0
        result = future.result() if future.done() else None
        if result is not None:
            msg = result.message
            report = json.loads(msg)
            print(json.dumps({"kind": "tree", "t": t0, "latency": latency, "bytes": len(msg), "stats": report["stats"],
                              "codes": sorted({f["code"] for f in report["findings"]}), "truncated": "truncated" in report}), flush=True)
        else:
            print(json.dumps({"kind": "tree", "t": t0, "latency": latency, "bytes": 0, "timeout": True}), flush=True)
        end = time.time() + 1.0
        while time.time() < end and not os.path.exists(stop_file):
            rclpy.spin_once(node, timeout_sec=0.05)
    node.destroy_node()
    rclpy.shutdown()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--names", type=int, default=100_000)
    ap.add_argument("--rate", type=float, default=1000.0, help="new names per second")
    ap.add_argument("--evict-after", type=float, default=30.0)
    ap.add_argument("--settle", type=float, default=10.0)
    ap.add_argument("--domain", type=int, default=os.getpid() % 100 + 1)
    ap.add_argument("--stable", action="store_true", help="peer run: the same traffic, but the names repeat (object_0..9)")
    ap.add_argument("--pymalloc", action="store_true", help="run the node with Python's own allocator, not PYTHONMALLOC=malloc as the launch file does")
    ap.add_argument("--probe", metavar="STOPFILE", help=argparse.SUPPRESS)
    args = ap.parse_args()
    os.environ["ROS_DOMAIN_ID"] = str(args.domain)
    if args.probe:
        probe(args.probe)
        return 0

    import rclpy
    from rclpy.node import Node
    from rclpy.qos import DurabilityPolicy, QoSProfile, ReliabilityPolicy
    from tf2_msgs.msg import TFMessage

    stop_file = f"/tmp/physframe_soak_{os.getpid()}.stop"
    node_cmd = [sys.executable, "-m", "physframe_ros.cli", "monitor", "--ros-args", "-p", f"evict_after:={args.evict_after}",
                "-p", "eval_period:=1.0", "--log-level", "physframe_monitor:=warn"]
    node_env = dict(os.environ) if args.pymalloc else {**os.environ, "PYTHONMALLOC": "malloc"}
    monitor = subprocess.Popen(node_cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=node_env)
    # the prober's lines go to a file: a pipe read only at the end fills (64 kB) and blocks the prober mid-run
    probe_log = tempfile.TemporaryFile("w+")
    prober = subprocess.Popen([sys.executable, __file__, "--probe", stop_file, "--domain", str(args.domain)], stdout=probe_log, text=True)
    rclpy.init()
    pub_node = Node("soak_churner")
    qos = QoSProfile(depth=100, reliability=ReliabilityPolicy.RELIABLE, durability=DurabilityPolicy.VOLATILE)
    pub = pub_node.create_publisher(TFMessage, "/tf", qos)
    samples: list[tuple[float, float]] = []  # (time, rss MB)
    phases: dict[str, float] = {}

    def tick(until: float, churn: tuple[int, int] | None = None) -> int:
        """Publish the robot at 20 Hz (and churned names, from churn = (next index, last)) until ``until``."""
        next_robot = time.time()
        index = churn[0] if churn else 0
        started = time.time()
        while time.time() < until:
            now = time.time()
            if now >= next_robot:
                pub.publish(encode_cdr([("map", "odom", now, I), ("odom", "base_link", now, I)]))
                next_robot += 0.05
                samples.append((now, rss_mb(monitor.pid)))
            if churn and index < churn[1]:
                due = churn[0] + int((now - started) * args.rate)
                while index < min(due, churn[1]):
                    batch = [("world", f"object_{i % 10 if args.stable else i}", now, I) for i in range(index, min(index + 10, churn[1]))]
                    pub.publish(encode_cdr(batch))
                    index += len(batch)
                if index >= churn[1]:
                    return index
            rclpy.spin_once(pub_node, timeout_sec=0.002)
        return index

    try:
        phases["start"] = time.time()
        tick(time.time() + args.settle)
        start_rss = rss_mb(monitor.pid)
        phases["churn"] = time.time()
        done = 0
        while done < args.names and monitor.poll() is None:
            done = tick(time.time() + 1e9, (done, args.names))
        phases["quiet"] = time.time()
        tick(time.time() + args.evict_after + 20.0)
        end_rss = rss_mb(monitor.pid)
        phases["end"] = time.time()
    finally:
        Path(stop_file).touch()
        prober.wait(timeout=30)
        probe_log.seek(0)
        lines = probe_log.read().splitlines()
        os.unlink(stop_file)
        monitor.terminate()
        err = monitor.communicate(timeout=30)[1]
        pub_node.destroy_node()
        rclpy.shutdown()
    records = [json.loads(x) for x in lines if x.startswith("{")]
    trees = [r for r in records if r["kind"] == "tree"]
    diags = [r for r in records if r["kind"] == "diag"]
    peak = max(m for _, m in samples)
    churn_s = phases["quiet"] - phases["churn"]
    kind = "repeating (peer run)" if args.stable else "churned"
    print(f"monitor node, {args.names} {kind} names at {args.names / churn_s:.0f} names/s ({churn_s:.0f} s), evict_after {args.evict_after:g} s, "
          f"then {phases['end'] - phases['quiet']:.0f} s quiet; domain {args.domain}; node allocator {'pymalloc' if args.pymalloc else 'PYTHONMALLOC=malloc'}")
    print(f"RSS MB: start {start_rss:.1f} (peer: before churn)  peak {peak:.1f} (+{peak - start_rss:.1f})  "
          f"end {end_rss:.1f} (+{end_rss - start_rss:.1f}) after {phases['end'] - phases['quiet']:.0f} s quiet >= evict_after {args.evict_after:g} s")
    for name, a, b in (("settle", phases["start"], phases["churn"]), ("churn", phases["churn"], phases["quiet"]), ("quiet", phases["quiet"], phases["end"])):
        got = [t for t in trees if a <= t["t"] < b]
        lat = [t["latency"] for t in got]
        if lat:
            print(f"~/get_tree {name:6}: {len(lat)} calls, latency median {statistics.median(lat) * 1e3:.0f} ms, max {max(lat) * 1e3:.0f} ms, "
                  f"reply max {max(t['bytes'] for t in got) / 1e3:.0f} kB, timeouts {sum(1 for t in got if t.get('timeout'))}")
        gaps = [d["gap"] for d in diags if a <= d["t"] < b and d["gap"]]
        if gaps:
            print(f"/diagnostics {name:6}: {len(gaps) + 1} messages, longest gap {max(gaps):.2f} s (eval_period 1 s)")
    last: dict[str, Any] = next((t for t in reversed(trees) if "stats" in t), {})
    seen = sorted({c for t in trees for c in t.get("codes", ())} | {c for d in diags for c in d["codes"]})
    if last:
        s = last["stats"]
        print(f"node at the end: tracked_edges {s.get('tracked_edges')}, evicted_edges {s.get('evicted_edges')}, refused {s.get('refused_edges')}, "
              f"messages {s['messages_received']}, lost {s.get('lost_messages')}")
    print(f"codes seen: {', '.join(seen) or 'none'}")
    if monitor.returncode not in (0, -15) or "Traceback" in err:
        print(f"monitor exited {monitor.returncode}: {err[-2000:]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
