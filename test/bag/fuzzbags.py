"""Fuzzing the CDR decoder and the bag readers: seed bags written with rosbags, damaged at random, run through the CLI.

A target is a seed (a small real bag of a robot with a cycle, or encoded TFMessages) and
a way to run one damaged copy of it. Damage is one of: truncation, a zeroed range, bit
flips, or a huge length field written over 4 or 8 bytes. Each case runs in this process
(``physframe replay`` / ``physframe view`` through the CLI's ``main``, output discarded)
under a wall-clock alarm, and is classified:

* ``ok``: exit 0/1/2 (or, for the decoder, transforms or a ``TfDecodeError``);
* ``traceback``: any exception escaping the CLI or decoder;
* ``hang``: the alarm fired;
* ``bad_exit``: an exit status other than 0, 1, 2;
* ``silent_loss``: fewer TF messages read (or counted as undecodable) than the seed holds,
  yet no error line, no BAG_MESSAGES_LOST finding and no note (undecodable messages, a TF
  topic of another type): data lost silently.

Used by ``test/bag/test_fuzz.py`` (a few seconds) and ``benchmarks/fuzz.py`` (long runs).
"""

from __future__ import annotations

import contextlib
import io
import json
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

from physframe_ros.cli import main as cli_main  # noqa: E402
from physframe_ros.core.tfmessage import TfDecodeError, decode_cdr, decode_ros1, encode_cdr, encode_ros1  # noqa: E402

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
    kind = rng.choice(("truncate", "zero", "flip", "huge"))
    b = bytearray(data)
    if kind == "truncate":
        at = rng.randrange(n)
        return bytes(b[:at]), f"truncated at {at}"
    if kind == "zero":
        at, size = rng.randrange(n), rng.choice((1, 8, 64, 512, 4096))
        b[at : at + size] = bytes(len(b[at : at + size]))
        return bytes(b), f"zeroed {size} at {at}"
    if kind == "flip":
        spots = [rng.randrange(n) for _ in range(rng.choice((1, 2, 8)))]
        for at in spots:
            b[at] ^= 1 << rng.randrange(8)
        return bytes(b), f"flipped bits at {spots}"
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
            if len(self.examples[outcome]) < 5:
                self.examples[outcome].append(what)


@dataclass
class Target:
    name: str
    run_one: Callable[[random.Random], tuple[str, str]]  # -> (outcome, description)
    cleanup: Callable[[], None] = lambda: None


def _robot_messages(duration: float) -> list:  # type: ignore[type-arg]
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


def bag_target(kind: str, workdir: Path, command: str = "replay", duration: float = 2.0) -> Target:
    """``kind``: mcap, mcap-zstd (compressed chunks), db3, bag, bag-lz4, bag-bz2; one seed bag, damaged per case."""
    seed_dir = workdir / f"seed_{kind}"
    messages = _robot_messages(duration)
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
    if path.is_dir():
        shutil.copytree(path, case_dir)
        case_path, case_file = case_dir, case_dir / data_file.name
    else:
        case_dir.mkdir()
        case_path = case_file = case_dir / data_file.name

    def run_one(rng: random.Random) -> tuple[str, str]:
        bad, what = damage(seed, rng)
        what = f"{kind}: {what}"
        case_file.write_bytes(bad)
        for stale in case_dir.glob("*-journal"):  # sqlite may leave one behind
            stale.unlink()
        out, err = io.StringIO(), io.StringIO()
        if command == "view":
            argv = ["view", str(case_path), "-o", os.devnull, "--format", "svg"]
        else:
            argv = ["replay", str(case_path), "--format", "json", "--no-progress"]
        status: int | None = None
        signal.signal(signal.SIGALRM, _alarm)
        signal.alarm(CASE_TIMEOUT)
        try:
            with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                status = cli_main(argv)
        except _Hang:
            return "hang", what
        except SystemExit as exc:
            status = exc.code if isinstance(exc.code, int) else 2
        except BaseException:
            return "traceback", f"{what}: {traceback.format_exc(limit=4)}"
        finally:
            signal.alarm(0)
        if status not in (0, 1, 2):
            return "bad_exit", f"{what}: exit {status}: {err.getvalue()[-300:]}"
        if command == "replay" and status in (0, 1):
            report = json.loads(out.getvalue())
            read = report["stats"]["messages_received"] + report["stats"]["decode_errors"]
            told = "error" in report or "notes" in report or any(f["code"] == "BAG_MESSAGES_LOST" for f in report["findings"])
            if read < tf_messages and not told:
                return "silent_loss", f"{what}: {read} of {tf_messages} TF messages read, nothing said"
        return "ok", what + f" -> exit {status}"

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
