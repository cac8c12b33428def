"""Fuzz the scanner's parsers: mutated real-looking files, counting tracebacks and hangs.

    .venv/bin/python benchmarks/fuzz_scan.py [--cases 100000] [--seconds 0] [--target xacro ...] [--seed 1]

Targets: one per parser (xacro with the YAML it loads, urdf, sdf, ROS 1 and ROS 2 launch XML,
launch YAML, Python launch files, C++ and Python code analysis) and the xacro expression
evaluator on its own. Each case is a seed file (test/scan/fuzz_seeds, the scan fixtures, the
demo workspace) mutated at the byte or token level, or spliced with another seed of its kind,
parsed in-process through ``scanner.parse_file`` as a scan would. Counted per target:

* tracebacks: an exception out of the parser (parse_file reports it as "internal error");
* hangs: a case that takes longer than ``--hang`` seconds (default 5);
* limits: cases stopped at one of the scanner's bounds (a PARSE_ERROR naming a limit), which is
  the intended outcome for hostile input and printed for information.

Failing cases are written to ``--crashes`` (default /tmp/physframe-fuzz-scan) for replay.
``test/scan/test_fuzz_scan.py`` runs the same cases for a few seconds through hypothesis.
"""

from __future__ import annotations

import argparse
import random
import signal
import sys
import tempfile
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from physframe_ros.scan.context import ScanContext  # noqa: E402
from physframe_ros.scan.discovery import classify  # noqa: E402
from physframe_ros.scan.safe_eval import BUILTINS, MATH, ExpressionLimit, UnsafeExpression, evaluate  # noqa: E402
from physframe_ros.scan.scanner import parse_file  # noqa: E402

SEED_DIRS = [ROOT / "test/scan/fuzz_seeds", ROOT / "test/scan/fixtures", ROOT / "physframe_ros/examples/demo_ws"]
#: target -> file name the case is written as (its kind follows from the name, as in a scan)
TARGETS = {
    "xacro": "arm.urdf.xacro", "urdf": "robot.urdf", "sdf": "world.sdf", "launch_ros1": "bringup.launch",
    "launch_xml": "bringup.launch.xml", "launch_yaml": "bringup.launch.yaml", "launch_py": "bringup.launch.py",
    "cpp": "node.cpp", "python": "node.py", "cartographer_lua": "cartographer.lua", "expression": "",
}
# Tokens that reach parser corners: substitutions, xacro, entities, encodings, deep nesting, huge numbers.
TOKENS = [
    b"${", b"}", b"$(", b")", b"$(eval ", b"$(arg x)", b"$(find arm_description)", b"$(var robot)", b"$(env HOME)",
    b"${pi/2}", b"${radians(90)}", b"${'x' * 10**9}", b"${9**9**9}", b"${().__class__}", b"${python.type(1)}",
    b"${xacro.load_yaml('/etc/passwd')}", b"${[x for x in range(10**6)]}", b"<xacro:include filename='/etc/hostname'/>",
    b"<xacro:include filename='limits.yaml'/>", b"<xacro:macro name='m' params='a *b'>", b"</xacro:macro>", b"<xacro:m a='1'/>",
    b"<xacro:if value='${a}'>", b"</xacro:if>", b"<xacro:property name='p' value='${p}${p}'/>", b"<!DOCTYPE r [<!ENTITY e 'x'>]>",
    b"&e;", b"&#27;", b"&#0;", b"<![CDATA[", b"]]>", b"<?xml version='1.0' encoding='UTF-16'?>", b"\xef\xbb\xbf", b"\xff\xfe",
    b"# -*- coding: latin-1 -*-\n", b"# coding: utf-32\n", b"\x00", b"\x1b[2J", b"\xc3\x28", b"\xed\xa0\x80",
    b"((((((((((((((((((((", b"[[[[[[[[[[[[[[[[", b"a = a + a\n", b"x = [x, x]\n", b"std::string s = s + s;\n",
    b"1e308", b"-0.0", b"nan", b"inf", b"0x7fffffffffffffff", b"99999999999999999999999999999999",
    b"sendTransform(t)", b"lookupTransform(\"a\", \"b\", 0)", b"lookup_transform('a', 'b', 0)", b"child_frame_id = ",
    b"frame_id = ", b"static_transform_publisher", b"robot_state_publisher", b"Node(", b"LaunchConfiguration('x')",
    b"IncludeLaunchDescription(", b"- node:", b"- include:", b"  args: ", b"!!python/object/apply:os.system ['true']",
    b"&a [*a, *a]", b"*a", b"<joint name='j' type='fixed'><parent link='a'/><child link='b'/></joint>",
    b"<link name='a'/>", b"<frame name='f' attached_to='f'/>", b"<pose relative_to='x'>1 2 3</pose>", b"'", b'"', b"\n", b"\t",
]
EXPRESSIONS = [
    "pi/2", "radians(90)", "a == 'b'", "a + '_link'", "n * 2 if n > 1 else 0", "xs[1:]", "d['k']", "d.get('z', 1)",
    "[x * 2 for x in xs]", "' '.join(str(x) for x in xs)", "a.upper()", "'%s_%d' % (a, n)", "f'{a}_x'", "max(xs)",
    "sum(xs)", "list(map(int, xs))", "round(sqrt(2), 3)", "not a or n", "1 < n <= 3", "'0 0 1'.split()", "len(range(n))",
    "2 ** n", "n << 3", "-n", "~n", "{a: n}", "{n, n}", "(a, n)", "abs(-n)", "sorted(xs, reverse=True)", "d.items()",
]
EXPRESSION_TOKENS = ["(", ")", "[", "]", "{", "}", ",", ".", "*", "**", "+", "-", "/", "//", "%", "<<", "if", "else", "for",
                     "in", "lambda", "__class__", "_x", "a", "n", "xs", "d", "10**9", "'x'", "range(10**6)", "open", "getattr",
                     ":", "=", "not", "and", "or", "!r", "{a:>9}", "\\", "'''", "\x00", " "]


@dataclass
class Tally:
    cases: int = 0
    tracebacks: int = 0
    hangs: int = 0
    limits: int = 0
    seconds: float = 0.0
    examples: list[str] = field(default_factory=list)


class _Hang(Exception):
    pass


def seeds(target: str) -> list[bytes]:
    """Real files of the target's kind from the seed directories."""
    if target == "expression":
        return [e.encode() for e in EXPRESSIONS]
    kind = classify(TARGETS[target])
    out = []
    for d in SEED_DIRS:
        for p in sorted(d.rglob("*")):
            if p.is_file() and classify(p.name) == kind and p.stat().st_size < 20_000:
                if target in ("launch_ros1", "launch_xml") and (b"<launch" not in p.read_bytes()):
                    continue
                out.append(p.read_bytes())
    return out


def mutate(data: bytes, others: list[bytes], rng: random.Random, tokens: list[bytes] = TOKENS) -> bytes:
    """One to eight random edits: byte flips, inserted tokens, deleted or repeated slices, splices."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 8)):
        op = rng.randrange(7)
        pos = rng.randint(0, len(out))
        if op == 0 and out:
            out[min(pos, len(out) - 1)] = rng.randrange(256)
        elif op <= 2:
            out[pos:pos] = rng.choice(tokens)
        elif op == 3:
            del out[pos:pos + rng.randint(1, 64)]
        elif op == 4:
            chunk = out[pos:pos + rng.randint(1, 64)]
            out[pos:pos] = chunk * rng.randint(1, 8)
        elif op == 5 and others:
            other = rng.choice(others)
            start = rng.randint(0, len(other))
            out[pos:pos] = other[start:start + rng.randint(1, 400)]
        else:
            del out[pos:]
    return bytes(out[:200_000])


class Runner:
    """Runs cases of one target in a scratch tree, the way a scan parses a file."""

    def __init__(self, target: str, root: Path, hang_seconds: float = 5.0) -> None:
        self.target, self.root, self.hang_seconds = target, root, hang_seconds
        (root / "arm_description" / "urdf").mkdir(parents=True, exist_ok=True)
        (root / "arm_description" / "launch").mkdir(parents=True, exist_ok=True)
        (root / "arm_description" / "package.xml").write_text("<package><name>arm_description</name></package>\n")
        (root / "limits.yaml").write_bytes((ROOT / "test/scan/fuzz_seeds/limits.yaml").read_bytes())
        self.ctx = ScanContext(str(root), {"arm_description": "arm_description"})
        self.name = TARGETS[target]

    def run(self, data: bytes) -> str | None:
        """None when the case went as it should; else "traceback: ..." or "hang"; "limit" when a bound stopped it."""
        old = signal.signal(signal.SIGALRM, self._alarm)
        signal.setitimer(signal.ITIMER_REAL, self.hang_seconds)
        try:
            return self._evaluate(data) if self.target == "expression" else self._parse(data)
        except _Hang:
            return "hang"
        finally:
            signal.setitimer(signal.ITIMER_REAL, 0)
            signal.signal(signal.SIGALRM, old)

    @staticmethod
    def _alarm(_sig: int, _frame: object) -> None:
        raise _Hang()

    def _parse(self, data: bytes) -> str | None:
        (self.root / self.name).write_bytes(data)
        facts = parse_file(self.name, classify(self.name) or "", self.ctx)
        for f in facts.findings:
            if "internal error" in f.message:
                return "traceback: " + f.message
            if f.code == "PARSE_ERROR" and ("limit" in f.message or "nested too deeply" in f.message):
                return "limit"
        return None

    @staticmethod
    def _evaluate(data: bytes) -> str | None:
        names = {**BUILTINS, **MATH, "a": "left", "n": 3, "xs": [1.0, 2.0], "d": {"k": "v"}}
        try:
            evaluate(data.decode("utf-8", errors="replace"), names)
        except ExpressionLimit:
            return "limit"
        except (UnsafeExpression, SyntaxError, NameError, TypeError, ValueError, ArithmeticError, LookupError, AttributeError,
                RecursionError):
            pass  # what a wrong expression raises; xacro reports it as a PARSE_ERROR
        except _Hang:
            raise
        except Exception as exc:
            return f"traceback: {type(exc).__name__}: {exc}"
        return None


def cases(target: str, rng: random.Random) -> Iterator[bytes]:
    pool = seeds(target)
    tokens = [t.encode() for t in EXPRESSION_TOKENS] if target == "expression" else TOKENS
    while True:
        yield mutate(rng.choice(pool), pool, rng, tokens)


def fuzz(target: str, count: int, seconds: float, rng: random.Random, crashes: Path | None, hang: float,
         progress: Callable[[Tally], None] | None = None) -> Tally:
    tally = Tally()
    scratch = "/dev/shm" if Path("/dev/shm").is_dir() else None  # writing each case to disk costs more than parsing it
    with tempfile.TemporaryDirectory(prefix=f"fuzz-{target}-", dir=scratch) as tmp:
        runner = Runner(target, Path(tmp), hang)
        t0 = time.perf_counter()
        for data in cases(target, rng):
            outcome = runner.run(data)
            tally.cases += 1
            if outcome == "limit":
                tally.limits += 1
            elif outcome is not None:
                if outcome == "hang":
                    tally.hangs += 1
                else:
                    tally.tracebacks += 1
                if len(tally.examples) < 5:
                    tally.examples.append(outcome[:200])
                if crashes is not None:
                    crashes.mkdir(parents=True, exist_ok=True)
                    (crashes / f"{target}-{tally.cases}{Path(runner.name).suffix or '.txt'}").write_bytes(data)
            tally.seconds = time.perf_counter() - t0
            if progress is not None and tally.cases % 1000 == 0:
                progress(tally)
            if tally.cases >= count or (seconds and tally.seconds >= seconds):
                break
    return tally


def main() -> int:
    # the expression target calls the evaluator directly, outside the scanner's own filter: ast's warnings
    # about a mutated expression ("invalid decimal literal") are not findings
    warnings.simplefilter("ignore", SyntaxWarning)
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=100_000, help="cases per target (default 100000)")
    ap.add_argument("--seconds", type=float, default=0.0, help="stop each target after this long (default: no limit)")
    ap.add_argument("--target", action="append", choices=sorted(TARGETS), help="fuzz only these (repeatable; default all)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--hang", type=float, default=5.0, help="seconds after which a case counts as a hang (default 5)")
    ap.add_argument("--crashes", type=Path, default=Path(tempfile.gettempdir()) / "physframe-fuzz-scan")
    args = ap.parse_args()
    total = Tally()
    fewest = None
    print(f"{'target':<12} {'cases':>9} {'cases/s':>9} {'tracebacks':>10} {'hangs':>6} {'limits':>7}")
    for target in args.target or list(TARGETS):
        t = fuzz(target, args.cases, args.seconds, random.Random(f"{args.seed}-{target}"), args.crashes, args.hang)
        print(f"{target:<12} {t.cases:>9,} {t.cases / max(t.seconds, 1e-9):>9,.0f} {t.tracebacks:>10} {t.hangs:>6} {t.limits:>7}",
              flush=True)
        for ex in t.examples:
            print(f"    {ex}")
        total.cases += t.cases
        total.tracebacks += t.tracebacks
        total.hangs += t.hangs
        fewest = t.cases if fewest is None else min(fewest, t.cases)
    target_met = total.tracebacks == 0 and total.hangs == 0 and (fewest or 0) >= 100_000
    print(f"total: {total.cases:,} cases, {total.tracebacks} tracebacks, {total.hangs} hangs"
          f" (target: >= 100,000 cases per target, 0 tracebacks, 0 hangs{'' if target_met else ': NOT met'})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
