"""Fuzzing the CDR decoder and the bag readers: seed bags written with rosbags, damaged at random, run through the CLI.

A target is a seed (a small real bag of a robot with a cycle, or encoded TFMessages) and
a way to run one damaged copy of it. Damage is one of: truncation, a zeroed range, bit
flips, a huge length field written over 4 or 8 bytes, a range of bytes (a record or a few)
duplicated or removed. Each case runs in this process under a wall-clock alarm: replay
targets open the bag and run the replay driver as ``physframe replay`` does, without
rendering a report; view targets run ``physframe view`` through the CLI's ``main``
(output discarded). Each case is classified:

* ``ok``: exit 0/1/2 (or, for the decoder, transforms or a ``TfDecodeError``);
* ``traceback``: any exception escaping the CLI or decoder;
* ``hang``: the alarm fired;
* ``bad_exit``: an exit status other than 0, 1, 2;
* ``silent_loss``: the TF messages read (decoded or counted undecodable) plus those the
  replay reports lost (BAG_MESSAGES_LOST) are fewer than the seed holds, and the bag was
  not reported unreadable (exit 2): data lost silently.

Used by ``test/bag/test_fuzz.py`` (a few seconds) and ``benchmarks/fuzz.py`` (long runs).
"""

from __future__ import annotations

import contextlib
import io
import os
import random
import shutil
import signal
import struct
import sys
import traceback
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from types import FrameType
from typing import Callable

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from tfbags import clean_robot, inject_cycle, write_rosbag1, write_rosbag2  # noqa: E402

from physframe_ros.bag import BagError, TfBag, TopicSelection  # noqa: E402
from physframe_ros.bag.reader import ALL_DATA  # noqa: E402
from physframe_ros.cli import main as cli_main  # noqa: E402
from physframe_ros.core.datacheck import DataOptions  # noqa: E402
from physframe_ros.core.tfmessage import TfDecodeError, decode_cdr, decode_ros1, encode_cdr, encode_ros1  # noqa: E402
from physframe_ros.replay.driver import ReplayOptions, replay  # noqa: E402

CASE_TIMEOUT = 10  # seconds of wall clock before a case counts as a hang
OUTCOMES = ("ok", "traceback", "hang", "bad_exit", "silent_loss")


class _Hang(BaseException):
    """Raised by the alarm; a BaseException so no ``except Exception`` in the code under test swallows it."""


def _alarm(_sig: int, _frame: FrameType | None) -> None:
    raise _Hang()


# --- damage -------------------------------------------------------------------------------
def damage(data: bytes, rng: random.Random) -> tuple[bytes, str]:
    """One random kind of damage; returns the damaged bytes and what was done."""
    n = len(data)
    kind = rng.choice(("truncate", "zero", "flip", "huge", "duplicate", "remove"))
    b = bytearray(data)
    if kind == "truncate":
        at = rng.randrange(n)
        return bytes(b[:at]), f"truncated at {at}"
    if kind == "zero":
        at, size = rng.randrange(n), rng.choice((1, 8, 64, 512, 4096))
        b[at : at + size] = bytes(len(b[at : at + size]))
        return bytes(b), f"zeroed {size} at {at}"
    if kind == "flip":
        spots = [(rng.randrange(n), rng.randrange(8)) for _ in range(rng.choice((1, 2, 8)))]
        for at, bit in spots:
            b[at] ^= 1 << bit
        return bytes(b), "flipped bits (byte, bit) " + " ".join(f"{at}:{bit}" for at, bit in spots)
    if kind in ("duplicate", "remove"):  # a record's worth of bytes (or a few records) repeated or cut out
        at, size = rng.randrange(n), rng.choice((4, 13, 64, 200, 1000, 4096))
        if kind == "remove":
            del b[at : at + size]
            return bytes(b), f"removed {size} at {at}"
        to = rng.randrange(n)
        b[to:to] = b[at : at + size]
        return bytes(b), f"duplicated {size} from {at} at {to}"
    at = rng.randrange(max(1, n - 8))
    width = rng.choice((4, 8))
    b[at : at + width] = struct.pack("<I" if width == 4 else "<Q", rng.choice((2**31, 2**32 - 1, 2**62, 2**64 - 1)) if width == 8 else 2**32 - 1)
    return bytes(b), f"huge {width}-byte length at {at}"


# --- targets ------------------------------------------------------------------------------
@dataclass
class Tally:
    cases: int = 0
    outcomes: Counter[str] = field(default_factory=Counter)
    exits: Counter[int] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)  # outcome -> the first few cases

    def add(self, outcome: str, what: str) -> None:
        self.cases += 1
        self.outcomes[outcome] += 1
        if outcome != "ok":
            self.examples.setdefault(outcome, [])
            if len(self.examples[outcome]) < 20:
                self.examples[outcome].append(what)


@dataclass
class Target:
    name: str
    run_one: Callable[[random.Random], tuple[str, str]]  # -> (outcome, description)
    cleanup: Callable[[], None] = lambda: None


def robot_messages(duration: float) -> list:  # type: ignore[type-arg]
    robot = clean_robot(duration)
    inject_cycle(robot, at=duration / 2, length=0.3)
    return robot.sorted()


def decoder_target(seed: int = 0) -> Target:
    """Damaged CDR and ROS 1 TFMessages: transforms or TfDecodeError, nothing else."""
    rng0 = random.Random(seed)
    names = ["odom", "base_link", "camera_color_optical_frame", "x", "map"]
    seeds = []
    for _ in range(20):
        size = rng0.randrange(1, 4)
        msg = [(rng0.choice(names), rng0.choice(names), rng0.uniform(0, 2e9), tuple(rng0.uniform(-1, 1) for _ in range(7))) for _ in range(size)]
        seeds.append((encode_cdr(msg), decode_cdr))
        seeds.append((encode_ros1(msg), decode_ros1))

    def run_one(rng: random.Random) -> tuple[str, str]:
        data, decode = rng.choice(seeds)
        decode(data)  # the good one first, so its layout is cached and the fast path is fuzzed too
        bad, what = damage(data, rng)
        try:
            out = decode(bad)
        except TfDecodeError:
            return "ok", what
        except Exception:
            return "traceback", f"{what}: {bad.hex()}: {traceback.format_exc(limit=3)}"
        for _p, _c, stamp, values in out:
            if len(values) != 7 or not isinstance(stamp, float):
                return "traceback", f"{what}: malformed transform {bad.hex()}"
        return "ok", what

    return Target("cdr-decoder", run_one)


def _run_cli(argv: list[str]) -> tuple[int, str]:
    """``physframe ARGV`` in this process, output discarded: (exit status, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = cli_main(argv)
    except SystemExit as exc:
        status = exc.code if isinstance(exc.code, int) else 2
    return status, err.getvalue()


def run_replay(path: Path, held: int) -> tuple[int, str]:
    """What ``physframe replay PATH`` does, without rendering a report: (exit status, "silent ..." if the loss
    oracle fails). The oracle: messages read (decoded or counted undecodable) + messages reported lost >=
    ``held``, the seed's TF messages, unless the bag is unreadable (exit 2)."""
    bag = TfBag(path, TopicSelection(), ALL_DATA)
    try:
        bag.open()
    except BagError:
        return 2, ""
    try:
        result = replay(bag, ReplayOptions(data=DataOptions()))
    finally:
        bag.close()
    status = result.exit_status
    if status == 2:
        return status, ""
    read = result.stats["messages_received"] + result.stats["decode_errors"]
    lost = sum(x.lost for x in bag.info.losses)
    if read + lost < held:
        return status, f"silent loss: {read} of {held} TF messages read, {lost} reported lost"
    return status, ""


def bag_target(kind: str, workdir: Path, command: str = "replay", duration: float = 2.0, bare: bool = False, crashes: Path | None = None) -> Target:
    """``kind``: mcap, mcap-zstd (compressed chunks), db3, bag, bag-lz4, bag-bz2; one seed bag, damaged per case.
    ``bare``: a rosbag2 seed is read as its lone .mcap/.db3 file, without metadata.yaml (whose parsing
    by rosbags costs most of a case), so its own counts (MCAP summary, messages table) are all there is."""
    seed_dir = workdir / f"seed_{kind}"
    messages = robot_messages(duration)
    if kind.startswith("bag"):
        compression = kind.split("-")[1] if "-" in kind else None
        path = write_rosbag1(messages, workdir / f"seed_{kind}.bag", compression=compression)
        data_file = path
    else:
        storage = "sqlite3" if kind == "db3" else "mcap"
        path = write_rosbag2(messages, seed_dir, storage=storage, compression="storage" if kind == "mcap-zstd" else None)
        data_file = next(f for f in path.iterdir() if f.suffix in (".mcap", ".db3"))
    tf_messages = len(messages)
    seed = data_file.read_bytes()
    case_dir = workdir / f"case_{kind}"
    if path.is_dir() and not bare:
        shutil.copytree(path, case_dir)
        case_path, case_file = case_dir, case_dir / data_file.name
    else:
        case_dir.mkdir()
        case_path = case_file = case_dir / data_file.name

    kept = 0

    def keep(outcome: str, what: str, bad: bytes) -> str:
        """A failing case's damaged file, written under ``crashes`` (the seeds differ from run to run, so
        the damage alone does not reproduce it); the first 20 per target."""
        nonlocal kept
        if crashes is None or kept >= 20:
            return what
        kept += 1
        out = crashes / f"{command}-{kind}"
        out.mkdir(parents=True, exist_ok=True)
        path = out / f"{outcome}-{kept}{data_file.suffix}"
        path.write_bytes(bad)
        return f"{what} [{path}]"

    def run_one(rng: random.Random) -> tuple[str, str]:
        outcome, what, bad = run_case(rng)
        return outcome, (keep(outcome, what, bad) if outcome != "ok" else what)

    def run_case(rng: random.Random) -> tuple[str, str, bytes]:
        bad, what = damage(seed, rng)
        what = f"{kind}: {what}"
        case_file.write_bytes(bad)
        for stale in case_dir.glob("*-journal"):  # sqlite may leave one behind
            stale.unlink()
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(CASE_TIMEOUT)
        try:
            if command == "view":
                status, err = _run_cli(["view", str(case_path), "-o", os.devnull, "--format", "svg"])
            else:
                status, err = run_replay(case_path, tf_messages)
        except _Hang:
            return "hang", what, bad
        except BaseException:
            return "traceback", f"{what}: {traceback.format_exc(limit=4)}", bad
        finally:
            signal.alarm(0)
        if status not in (0, 1, 2):
            return "bad_exit", f"{what}: exit {status}: {err[-300:]}", bad
        if err.startswith("silent"):
            return "silent_loss", f"{what}: {err}", bad
        return "ok", what + f" -> exit {status}", bad

    return Target(f"{command}-{kind}", run_one)


BAG_KINDS = ("mcap", "mcap-zstd", "db3", "bag", "bag-lz4", "bag-bz2")


def run(target: Target, cases: int | None, seconds: float | None, seed: int, tally: Tally | None = None) -> Tally:
    """Run ``target`` for ``cases`` cases or ``seconds`` of wall clock, whichever ends first."""
    import time

    tally = tally or Tally()
    rng = random.Random(seed)
    end = None if seconds is None else time.monotonic() + seconds
    while (cases is None or tally.cases < cases) and (end is None or time.monotonic() < end):
        outcome, what = target.run_one(rng)
        tally.add(outcome, what)
        if outcome == "ok" and "-> exit " in what:
            tally.exits[int(what.rsplit("-> exit ", 1)[1])] += 1
    return tally
