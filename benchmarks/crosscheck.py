"""The cross-check on real robots (issue 10's done-when): scan a public repository, write the bag its
chosen variant would record, replay it against the expected tree; then plant five differences.

    .venv/bin/python benchmarks/crosscheck.py [--case NAME]... [--keep DIR]

For each case of ``crosscheck/manifest.yaml`` (a repository at a pinned commit, exported from its mirror
as benchmarks/realworld.py does; never committed here):

1. ``physframe scan`` writes the expected tree (robot models as variants, prefixes as placeholders);
2. the bag holds what robot_state_publisher and the bringup's nodes publish for the chosen variant, one
   robot per prefix: the variant's static edges on /tf_static with the values our own parser read from
   the description, its movable edges on /tf at 20 Hz for 6 s (their values are joint states: identity);
3. ``physframe replay --expected`` must report no finding and name the variant; ``physframe diff`` must
   exit 0;
4. five bags each with one planted difference (missing frame, extra edge, wrong parent, changed static
   value, wrong optical rotation) must each give exactly one finding, with the declaring file:line where
   a declaration exists (an extra edge has none).

The peer figure printed beside it: the same clean bag replayed against the expected tree read as one
merged tree of every declared edge (how a version 1 reader, and physframe before variants, saw it).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

sys.path.insert(0, str(Path(__file__).resolve().parent))
from realworld import export, scanner_env

from physframe_ros.core import encode_cdr
from physframe_ros.core.expected import ExpectedTree, Variant
from physframe_ros.core.frame_patterns import bind, variables
from physframe_ros.core.tree import Edge, frames_of

MANIFEST = Path(__file__).resolve().parent / "crosscheck" / "manifest.yaml"
START = 1_700_000_000.0
SECONDS = 6.0  # longer than the replay's expected_grace (3 s)
RATE = 20.0
IDENTITY = (0.0, 0.0, 0.0, 1.0)
PLANTS = ("missing frame", "extra edge", "wrong parent", "changed static value", "wrong optical rotation")


@dataclass
class Outcome:
    case: str
    bag: str
    findings: list[dict[str, Any]]
    variant: str | None
    diff_status: int
    seconds: float
    plant: str = ""  # what was planted, in words


def physframe(*args: str) -> subprocess.CompletedProcess[str]:
    env, _ = scanner_env()
    return subprocess.run([sys.executable, "-m", "physframe_ros.cli", *args], env=env, capture_output=True, text=True, timeout=600)


def robot_edges(variant: Variant, prefixes: list[str]) -> list[Edge]:
    """The variant's edges with each robot's prefix bound to every placeholder (names as they run)."""
    out: dict[tuple[str, str], Edge] = {}
    for prefix in prefixes:
        for e in variant.edges:
            names = variables(e.parent) + variables(e.child)
            binding = {v: prefix for v in names}
            p, c = bind(e.parent, binding), bind(e.child, binding)
            out.setdefault((p, c), Edge(p, c, e.static, e.translation, e.rotation))
    return list(out.values())


def leaves(edges: list[Edge]) -> list[Edge]:
    """Static edges whose child has no child of its own, whose parent has a parent: safe to plant on."""
    parents = {e.parent for e in edges}
    children = {e.child: e for e in edges}
    return [e for e in edges if e.static and e.child not in parents and e.parent in children and e.translation is not None]


def plant(edges: list[Edge], what: str) -> tuple[list[Edge], str] | None:
    """``edges`` with one difference planted; None when the robot has no edge to plant it on."""
    cands = [e for e in leaves(edges) if "optical" not in e.child]
    by_child = {e.child: e for e in edges}
    if what == "missing frame" and cands:
        gone = cands[-1]
        return [e for e in edges if e is not gone], f"{gone.child} not published"
    if what == "extra edge" and cands:
        root = frames_of(edges)[0]
        return [*edges, Edge(root, "physframe_planted_sensor", True, (0.1, 0.0, 0.2), IDENTITY)], f"{root} -> physframe_planted_sensor added"
    if what == "wrong parent":
        for e in reversed(cands):
            grand = by_child.get(e.parent)
            if grand is not None:
                return [replace(x, parent=grand.parent) if x is e else x for x in edges], f"{e.child} under {grand.parent}, not {e.parent}"
    if what == "changed static value" and cands:
        e = cands[0]
        t = e.translation or (0.0, 0.0, 0.0)
        moved = (t[0], t[1], t[2] + 0.05)
        return [replace(x, translation=moved) if x is e else x for x in edges], f"{e.parent} -> {e.child} z + 5 cm"
    if what == "wrong optical rotation":
        optical = [e for e in edges if e.static and e.child.endswith("optical_frame") and e.rotation is not None]
        if optical:
            e = optical[0]
            return [replace(x, rotation=IDENTITY) if x is e else x for x in edges], f"{e.parent} -> {e.child} left unrotated"
    return None


def write_bag(edges: list[Edge], path: Path) -> Path:
    """A rosbag2 (MCAP) with /tf_static once at the start and the movable edges on /tf at RATE."""
    from rosbags.rosbag2 import Writer
    from rosbags.rosbag2.enums import StoragePlugin
    from rosbags.typesys import Stores, get_typestore

    typestore = get_typestore(Stores.ROS2_HUMBLE)
    if path.exists():  # a kept run's bag from before
        shutil.rmtree(path)
    static = [(e.parent, e.child, START, (*(e.translation or (0.0, 0.0, 0.0)), *(e.rotation or IDENTITY))) for e in edges if e.static]
    moving = [e for e in edges if not e.static]
    with Writer(path, version=9, storage_plugin=StoragePlugin.MCAP) as writer:
        tf_static = writer.add_connection("/tf_static", "tf2_msgs/msg/TFMessage", typestore=typestore)
        tf = writer.add_connection("/tf", "tf2_msgs/msg/TFMessage", typestore=typestore)
        writer.write(tf_static, int(START * 1e9), encode_cdr(static))  # type: ignore[arg-type]
        for i in range(int(SECONDS * RATE)):
            t = START + 0.01 + i / RATE
            if moving:
                writer.write(tf, round(t * 1e9), encode_cdr([(e.parent, e.child, t, (0.0, 0.0, 0.0, *IDENTITY)) for e in moving]))
    return path


def replay(bag: Path, expected: Path, case: str, plant_text: str = "") -> Outcome:
    t0 = time.perf_counter()
    proc = physframe("replay", str(bag), "--expected", str(expected), "--format", "json", "--no-progress")
    seconds = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"replay of {bag} failed: {proc.stderr.strip()}")
    report = json.loads(proc.stdout)
    diff = physframe("diff", str(expected), str(bag))
    return Outcome(case, bag.name, report["findings"], report.get("expected_variant"), diff.returncode, seconds, plant_text)


def run_case(case: dict[str, Any], work: Path) -> tuple[list[Outcome], int, float]:
    tree = export(case["repo"], case["commit"])
    expected = work / f"{case['name']}.expected.yaml"
    t0 = time.perf_counter()
    proc = physframe("scan", str(tree), *case.get("scan", []), "--expected-out", str(expected), "--no-progress", "--format", "json", "-o",
                     str(work / f"{case['name']}.scan.json"))
    scan_s = time.perf_counter() - t0
    if proc.returncode not in (0, 1):
        raise RuntimeError(f"scan of {case['name']} failed: {proc.stderr.strip()}")
    tree_file = ExpectedTree.load(expected)
    variant = next((v for v in tree_file.candidates() if v.name == case["variant"]), None)
    if variant is None:
        raise RuntimeError(f"{case['name']}: no variant {case['variant']!r}; the scan gave {[v.name for v in tree_file.candidates()]}")
    edges = robot_edges(variant, case.get("prefixes", [""]))
    out = [replay(write_bag(edges, work / f"{case['name']}_clean"), expected, case["name"], "none")]
    merged = work / f"{case['name']}.merged.yaml"
    ExpectedTree(tree_file.edges, tree_file.lookups).save(merged)
    peer = replay(work / f"{case['name']}_clean", merged, case["name"])
    for what in PLANTS:
        planted = plant(edges, what)
        if planted is None:
            out.append(Outcome(case["name"], what, [], None, -1, 0.0, "n/a: the robot has no such frame"))
            continue
        bag = write_bag(planted[0], work / f"{case['name']}_{what.replace(' ', '_')}")
        out.append(replay(bag, expected, case["name"], planted[1]))
        out[-1].bag = what
    return out, len(peer.findings), scan_s


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--case", action="append", help="run only this case (repeatable)")
    ap.add_argument("--keep", metavar="DIR", help="write the expected trees and bags here and keep them")
    args = ap.parse_args()
    cases = [c for c in yaml.safe_load(MANIFEST.read_text())["cases"] if not args.case or c["name"] in args.case]
    with tempfile.TemporaryDirectory(prefix="physframe-crosscheck-") as tmp:
        work = Path(args.keep or tmp)
        work.mkdir(parents=True, exist_ok=True)
        failures = 0
        for case in cases:
            outcomes, peer, scan_s = run_case(case, work)
            print(f"\n== {case['name']} ({case['repo']} @ {case['commit'][:10]}): {case['what']}")
            print(f"   scan {scan_s:.1f} s; bag written for {case['variant']!r}, robots {case.get('prefixes')}")
            for o in outcomes:
                want = 0 if o.bag.endswith("_clean") else 1
                ok = o.plant.startswith("n/a") or (len(o.findings) == want and (want == 0) == (o.diff_status == 0))
                failures += not ok
                label = "clean" if o.bag.endswith("_clean") else o.bag
                print(f"   {'ok  ' if ok else 'FAIL'} {label:24} {len(o.findings)} finding(s), diff exit {o.diff_status}; planted: {o.plant}")
                for f in o.findings:
                    loc = f.get("location") or {}
                    where = f"{loc.get('file')}:{loc.get('line')}" if loc else "(no declaration)"
                    print(f"          {f['code']} at {where}: {f['message'][:220]}")
                if label == "clean":
                    print(f"          replay names: {o.variant}")
                    print(f"          peer: the same bag against the merged tree (version 1 reading): {peer} finding(s)")
        print(f"\n{failures} check(s) failed")
        return 1 if failures else 0


if __name__ == "__main__":
    raise SystemExit(main())
