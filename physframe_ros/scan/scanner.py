"""The scan, end to end: discovery -> per-file parsing (in worker processes for large trees, with a time
bound per file) -> subsystems -> tree checks -> findings and the expected tree.

Scanned code is only ever read: Python through ``ast``, C++ through tree-sitter, launch files as text
or syntax trees, xacro through its own processor. Nothing touches the network.
"""

from __future__ import annotations

import ast
import gc
import os
import signal
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO, Iterable, Iterator, TextIO

from ..core.conventions import Conventions
from ..core.expected import ExpectedTree
from ..core.findings import Finding, FindingPolicy, Location, sort_findings
from .code import CPP_UNAVAILABLE, analyze_cpp, analyze_python, mentions_tf
from .code.headers import MAX_HEADER_BYTES, own_headers
from .context import ScanContext
from .discovery import SourceFile, discover
from .executables import executable_sources
from .launch_py import parse_launch_py_file
from .launch_ros1 import parse_launch_xml_file
from .launch_xml_yaml import parse_launch_yaml_file
from .model import FileFacts
from .params_yaml import parse_params_yaml
from .sdf import parse_sdf_file
from .subsystems import Subsystem, build_subsystems, check_subsystems, merge_edges
from .urdf import parse_urdf_file
from .xacro_support import parse_xacro_file

FILE_TIMEOUT = 10.0  # seconds one file may take before it becomes a PARSE_ERROR
MAX_FILE_BYTES = 4 << 20  # generated sources this large are not hand-written frame code
PARALLEL_BYTES = 1 << 20  # below this a pool costs more than it saves
BATCH_FILES = 24
GC_YOUNG_THRESHOLD = 10_000  # allocations between collections of the youngest generation while parsing
DESCRIPTION_KINDS = frozenset({"urdf", "xacro"})


@dataclass
class ScanResult:
    root: Path
    findings: list[Finding]
    expected: ExpectedTree
    subsystems: list[Subsystem]
    files: int = 0
    lines: int = 0
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)  # one-line remarks for stderr


class _Timeout(Exception):
    pass


@contextmanager
def _deadline(seconds: float) -> Iterator[None]:
    """Interrupt a parser that runs too long (SIGALRM: only in a main thread, which workers are)."""
    if seconds <= 0 or threading.current_thread() is not threading.main_thread() or not hasattr(signal, "setitimer"):
        yield
        return

    def on_alarm(_sig: int, _frame: object) -> None:
        raise _Timeout()

    old = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


@contextmanager
def _young_gc_threshold(young: int) -> Iterator[None]:
    """Collect the youngest generation after ``young`` allocations instead of Python's 700 while files
    are parsed: syntax trees and interpreter values are many short-lived objects, and collecting
    them that often (and the older generations with them) cost ~5% of a scan. Restored after."""
    old = gc.get_threshold()
    gc.set_threshold(max(young, old[0]), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


# --- per file (runs in workers) ---------------------------------------------------------------------
_CTX: ScanContext | None = None
_TIMEOUT = FILE_TIMEOUT


def _init_worker(ctx: ScanContext, timeout: float) -> None:
    global _CTX, _TIMEOUT
    _CTX, _TIMEOUT = ctx, timeout
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the parent handles Ctrl-C


def parse_file(rel: str, kind: str, ctx: ScanContext, timeout: float = FILE_TIMEOUT, launch_args: dict[str, str] | None = None) -> FileFacts:
    """Facts of one file; never raises: what goes wrong becomes a PARSE_ERROR finding.
    ``launch_args``: for a launch file, the arguments an including launch file passes."""
    try:
        with open(os.path.join(ctx.root, rel), "rb") as fh:
            data = _read_head(fh, MAX_FILE_BYTES + 1)
        if len(data) > MAX_FILE_BYTES:
            return FileFacts(rel, findings=[Finding("PARSE_ERROR", f"{rel}: larger than {MAX_FILE_BYTES >> 20} MB; skipped", (), Location(rel))])
    except OSError as exc:
        return FileFacts(rel, findings=[Finding("PARSE_ERROR", f"{rel}: cannot read: {exc.strerror}", (), Location(rel))])
    text = data.decode("utf-8", errors="replace")
    if kind in ("cpp", "python") and not mentions_tf(text):
        return FileFacts(rel, lines=text.count("\n") + 1)  # nothing the code analysis could find
    try:
        with _deadline(timeout):
            return _dispatch(text, rel, kind, ctx, launch_args or {})
    except _Timeout:
        return FileFacts(rel, lines=text.count("\n") + 1, findings=[Finding(
            "PARSE_ERROR", f"{rel}: parsing took longer than {timeout:g} s and was stopped; the file is not checked", (), Location(rel))])
    except RecursionError:
        return FileFacts(rel, lines=text.count("\n") + 1, findings=[Finding(
            "PARSE_ERROR", f"{rel}: nested too deeply to analyse; the file is not checked", (), Location(rel))])
    except Exception as exc:  # a parser bug must cost one file, never the scan
        return FileFacts(rel, lines=text.count("\n") + 1, findings=[Finding(
            "PARSE_ERROR", f"{rel}: internal error while parsing ({type(exc).__name__}: {exc}); please report it", (), Location(rel))])


def _read_head(fh: BinaryIO, limit: int) -> bytes:
    """``fh.read(limit)``, without the buffer of ``limit`` bytes that costs more than reading a small file."""
    want = min(os.fstat(fh.fileno()).st_size, limit - 1) + 1  # one byte more tells the file grew
    data = fh.read(want)
    if len(data) == want < limit:
        data += fh.read(limit - want)  # larger than its size said (or a special file): the rest, up to the limit
    return data


def _dispatch(text: str, rel: str, kind: str, ctx: ScanContext, launch_args: dict[str, str]) -> FileFacts:
    if kind == "cpp":
        if analyze_cpp is None:
            return FileFacts(rel, lines=text.count("\n") + 1)
        return analyze_cpp(text, rel, headers=_own_header_texts(text, rel, ctx))
    if kind == "python":
        return analyze_python(text, rel)
    if kind == "launch_py":
        if not mentions_tf(text):
            return parse_launch_py_file(text, rel, ctx, launch_args)
        # launch files are Python too: they may broadcast or look up. One parse for both readers
        # (on a syntax error each reports it its own way).
        try:
            tree: ast.Module | None = ast.parse(text, filename=rel)
        except SyntaxError:
            tree = None
        facts = parse_launch_py_file(text, rel, ctx, launch_args, tree)
        code = analyze_python(text, rel, tree=tree)
        facts.edges.extend(code.edges)
        facts.lookups.extend(code.lookups)
        facts.findings.extend(code.findings)
        return facts
    if kind == "launch_xml":
        return parse_launch_xml_file(text, rel, ctx, launch_args)
    if kind == "launch_yaml":
        return parse_launch_yaml_file(text, rel, ctx, launch_args)
    if kind == "params_yaml":
        return parse_params_yaml(text, rel)
    if kind == "urdf":
        return parse_urdf_file(text, rel)
    if kind == "xacro":
        return parse_xacro_file(text, rel, ctx)
    if kind == "sdf":
        return parse_sdf_file(text, rel)
    return FileFacts(rel)


def _own_header_texts(text: str, rel: str, ctx: ScanContext) -> list[str]:
    """The text of the headers a C++ file includes from the scanned tree (for its class's message members)."""
    out = []
    for path in own_headers(text, rel, lambda p: os.path.isfile(ctx.abs_str(p)), ctx.packages.values()):
        try:
            with open(ctx.abs_str(path), "rb") as fh:
                out.append(fh.read(MAX_HEADER_BYTES).decode("utf-8", errors="replace"))
        except OSError:
            continue  # unreadable: its members stay unknown
    return out


def _parse_batch(batch: list[tuple[str, str]]) -> list[FileFacts]:
    assert _CTX is not None
    return [parse_file(rel, kind, _CTX, _TIMEOUT) for rel, kind in batch]


# --- the whole scan ---------------------------------------------------------------------------------
def scan(
    paths: Iterable[str | Path],
    exclude: Iterable[str] = (),
    conventions: Conventions | None = None,
    policy: FindingPolicy | None = None,
    jobs: int | None = None,
    timeout: float = FILE_TIMEOUT,
    progress: TextIO | None = None,
    include_tests: bool = False,
) -> ScanResult:
    """Scan files and directories. ``jobs`` None: one process for small trees, all cores (up to 8)
    for large ones. ``progress``: a stream for a progress bar, shown once the scan runs over 2 s.
    ``include_tests``: also read test folders and gtest/pytest files (skipped by default)."""
    t0 = time.perf_counter()
    ws = discover(paths, exclude, include_tests)
    ctx = ScanContext(str(ws.root), {name: p.path for name, p in ws.packages.items()})
    kinds = {f.path: f.kind for f in ws.files}
    if jobs is None:
        jobs = min(os.cpu_count() or 1, 8) if sum(f.size for f in ws.files) >= PARALLEL_BYTES else 1
    bar = _Progress(progress, len(ws.files), t0)
    facts: dict[str, FileFacts] = {}  # only files that hold something: memory follows the frames, not the files
    with ExitStack() as stack:
        stack.enter_context(_young_gc_threshold(GC_YOUNG_THRESHOLD))  # forked workers inherit it
        pool = None
        if jobs > 1 and len(ws.files) >= 2 * BATCH_FILES:
            pool = stack.enter_context(ProcessPoolExecutor(max_workers=jobs, initializer=_init_worker, initargs=(ctx, timeout)))
        # Robot descriptions last: those a launch file loads were already expanded with its arguments.
        first = [f for f in ws.files if f.kind not in DESCRIPTION_KINDS]
        for ff in _parse_files(first, ctx, pool, jobs, timeout, bar):
            _keep(ff, facts)
        loaded = {u for ff in facts.values() for u in ff.uses}
        rest = [f for f in ws.files if f.kind in DESCRIPTION_KINDS and f.path not in loaded]
        for ff in _parse_files(rest, ctx, pool, jobs, timeout, bar):
            _keep(ff, facts)
    bar.done()
    facts = {f.path: facts[f.path] for f in ws.files if f.path in facts}  # the files' order, however they were parsed
    reread: dict[tuple[str, tuple[tuple[str, str], ...]], FileFacts] = {}

    def reparse(path: str, args: dict[str, str]) -> FileFacts:
        key = (path, tuple(sorted(args.items())))
        if key not in reread:
            reread[key] = parse_file(path, kinds[path], ctx, timeout, args)
        return reread[key]

    subsystems = build_subsystems(ws, facts, kinds, executable_sources(ws), reparse)
    findings: dict[object, Finding] = {}
    for path, problem in ws.problems:
        problem_finding = Finding("PARSE_ERROR", f"{path}: {problem}", (), Location(path))
        findings.setdefault(problem_finding.key, problem_finding)
    for ff in facts.values():
        for finding in ff.findings:
            findings.setdefault(finding.key, finding)
    for finding in check_subsystems(subsystems, conventions or Conventions()):
        findings.setdefault(finding.key, finding)
    all_edges = merge_edges(e for s in subsystems for e in s.edges)
    lookups = list(dict.fromkeys(lk for s in subsystems for lk in s.lookups))
    expected = ExpectedTree(all_edges, lookups, [s.to_dict() for s in subsystems if s.edges or s.lookups])
    result_findings = sort_findings((policy or FindingPolicy()).apply(findings.values()))
    notes = [CPP_UNAVAILABLE] if CPP_UNAVAILABLE and any(f.kind == "cpp" for f in ws.files) else []
    notes.extend(_summary(sorted(n for ff in facts.values() for n in ff.notes)))
    return ScanResult(ws.root, result_findings, expected, subsystems, len(ws.files), bar.lines, time.perf_counter() - t0, notes)


def _summary(file_notes: list[str], shown: int = 3) -> list[str]:
    """One line for the files' notes: how many, and the first few in full."""
    if not file_notes:
        return []
    more = f" (and {len(file_notes) - shown} more)" if len(file_notes) > shown else ""
    return [f"{len(file_notes)} partly read file(s), not findings: " + "; ".join(file_notes[:shown]) + more]


def _keep(ff: FileFacts, facts: dict[str, FileFacts]) -> None:
    if ff.edges or ff.lookups or ff.findings or ff.nodes or ff.includes or ff.uses or ff.notes or ff.unknown_broadcasts:
        facts[ff.path] = ff


def _parse_files(files: list[SourceFile], ctx: ScanContext, pool: ProcessPoolExecutor | None, jobs: int, timeout: float,
                 bar: _Progress) -> Iterator[FileFacts]:
    if pool is None:
        # One kind after the other: each parser's code and tables stay in the CPU caches (~20% faster
        # than alternating per package). The caller restores the files' order.
        for f in sorted(files, key=lambda f: f.kind):
            ff = parse_file(f.path, f.kind, ctx, timeout)
            bar.step(1, ff.lines)
            yield ff
        return
    # Big files first so one large file does not finish the scan alone; batches keep IPC cheap.
    ordered = sorted(files, key=lambda f: -f.size)
    batches = [[(f.path, f.kind) for f in ordered[i:i + BATCH_FILES]] for i in range(0, len(ordered), BATCH_FILES)]
    pending: dict[Future[list[FileFacts]], list[tuple[str, str]]] = {}
    for batch in batches:
        pending[pool.submit(_parse_batch, batch)] = batch
        if len(pending) >= jobs * 4:  # a bounded number in flight: memory stays flat
            yield from _collect(pending, bar)
    while pending:
        yield from _collect(pending, bar)


def _collect(pending: dict[Future[list[FileFacts]], list[tuple[str, str]]], bar: _Progress) -> Iterator[FileFacts]:
    done, _ = wait(list(pending), return_when=FIRST_COMPLETED)
    for fut in done:
        batch = pending.pop(fut)
        try:
            results = fut.result()
        except Exception as exc:  # a worker died (e.g. a C extension crashed): lose the batch, not the scan
            results = [FileFacts(rel, findings=[Finding("PARSE_ERROR", f"{rel}: the parser process failed ({type(exc).__name__}); not checked", (),
                                                        Location(rel))]) for rel, _ in batch]
        bar.step(len(results), sum(ff.lines for ff in results))
        yield from results


class _Progress:
    """``scanning 1200/5000 files 24% 80k lines/s`` on one rewritten line of stderr, after 2 s."""

    def __init__(self, stream: TextIO | None, total: int, t0: float) -> None:
        self.stream, self.total, self.t0 = stream, total, t0
        self.files = self.lines = 0
        self.shown = False
        self.last = 0.0

    def step(self, files: int, lines: int) -> None:
        self.files += files
        self.lines += lines
        if self.stream is None:
            return
        now = time.perf_counter()
        if now - self.t0 < 2.0 or now - self.last < 0.2:
            return
        self.last = now
        self.shown = True
        rate = self.lines / max(now - self.t0, 1e-9)
        pct = 100 * self.files // max(self.total, 1)
        self.stream.write(f"\rscanning {self.files}/{self.total} files {pct:3d}% {rate / 1000:.0f}k lines/s ")
        self.stream.flush()

    def done(self) -> None:
        if self.shown and self.stream is not None:
            self.stream.write("\r" + " " * 60 + "\r")
            self.stream.flush()


def progress_stream() -> TextIO | None:
    """stderr when it is a terminal (a progress bar in CI logs is noise)."""
    return sys.stderr if sys.stderr.isatty() else None
