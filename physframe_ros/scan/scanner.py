"""The scan, end to end: discovery -> per-file parsing (in worker processes, each file bounded in time
and memory) -> subsystems -> tree checks -> findings and the expected tree.

Scanned code is only ever read: Python through ``ast``, C++ through tree-sitter, launch files as text
or syntax trees, xacro through its own processor with every expression evaluated by
:mod:`.safe_eval`. Only regular files inside the scan root are read. Nothing touches the network.
"""

from __future__ import annotations

import ast
import gc
import os
import sys
import time
import warnings
from collections import defaultdict
from contextlib import ExitStack, contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterable, Iterator, TextIO

from ..core.conventions import Conventions
from ..core.expected import ExpectedTree
from ..core.findings import Finding, FindingPolicy, Location, sort_findings
from .code import CPP_UNAVAILABLE, analyze_cpp, analyze_python, mentions_tf
from .code.facts import TreeMessages
from .code.headers import INCLUDE, MAX_HEADER_BYTES, PackageIndex, implementation_of, index_package, own_headers
from .code.helpers import PackageSources, helper_sources, package_of
from .context import ReadRefused, ScanContext
from .description import MACRO_ALONE, model_camera_findings, needs_xacro, parse_sdf_file, parse_urdf_file, parse_xacro_file
from .discovery import SourceFile, Workspace, classify, discover
from .executables import executable_sources
from .launch import parse_launch_py_file, parse_launch_xml_file, parse_launch_yaml_file, parse_params_yaml
from .launch.cartographer import parse_cartographer_lua
from .messages import tree_message_types
from .model import FileFacts
from .mounts import mount_disagreements, robots_loaded, simulated_sensor_mounts
from .source_text import decode_source
from .subsystems import LAUNCH_KINDS, LaunchChoice, Subsystem, build_subsystems, check_subsystems, merge_edges
from .workers import MEMORY_LIMIT, Job, WorkerPool

FILE_TIMEOUT = 10.0  # seconds one file may take before it becomes a PARSE_ERROR
PARALLEL_BYTES = 1 << 20  # below this one worker is faster than several
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
def parse_file(rel: str, kind: str, ctx: ScanContext, launch_args: dict[str, str] | None = None) -> FileFacts:
    """Facts of one file; never raises: what goes wrong becomes a PARSE_ERROR finding.
    ``launch_args``: for a launch file, the arguments an including launch file passes; for a node's sources, the
    parameters a launch file gives that node.
    Time and memory are bounded by the worker running it (see :mod:`.workers`)."""
    try:
        data = ctx.read_bytes(rel)
    except ReadRefused as exc:
        return FileFacts(rel, findings=[Finding("PARSE_ERROR", f"{rel}: {exc}", (), Location(rel))])
    except OSError as exc:
        return FileFacts(rel, findings=[Finding("PARSE_ERROR", f"{rel}: cannot read: {exc.strerror}", (), Location(rel))])
    text = decode_source(data, kind)
    del data
    if kind in ("cpp", "python") and not mentions_tf(text):
        return FileFacts(rel, lines=text.count("\n") + 1)  # nothing the code analysis could find
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # ast's SyntaxWarnings about scanned code would land on the user's terminal
            return _dispatch(text, rel, kind, ctx, launch_args or {})
    except RecursionError:
        why = "nested too deeply to analyse"
    except MemoryError:
        why = f"analysing it needs more than the memory limit of {MEMORY_LIMIT >> 20} MB"
    except Exception as exc:  # a parser bug must cost one file, never the scan
        why = f"internal error while parsing ({type(exc).__name__}: {exc}); please report it"
    return FileFacts(rel, lines=text.count("\n") + 1, findings=[Finding(
        "PARSE_ERROR", f"{rel}: {why}; the file is not checked", (), Location(rel))])


def _dispatch(text: str, rel: str, kind: str, ctx: ScanContext, launch_args: dict[str, str]) -> FileFacts:
    if kind == "cpp":
        if analyze_cpp is None:
            return FileFacts(rel, lines=text.count("\n") + 1)
        headers, helpers = _own_code(text, rel, ctx)
        pkg = package_of(rel, ctx.packages.values())
        package = _package_sources(ctx, pkg) if pkg is not None else None
        return analyze_cpp(text, rel, headers=headers, helpers=helpers, package=package, launched=launch_args)
    if kind == "python":
        return analyze_python(text, rel, messages=TreeMessages(*tree_message_types(ctx)), modules=_python_modules(rel, ctx),
                              launched=launch_args)
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
        if not needs_xacro(text):
            return parse_urdf_file(text, rel)
        expanded = parse_xacro_file(text, rel, ctx)
        if expanded.edges or not any(f.code == "PARSE_ERROR" for f in expanded.findings):
            return expanded
        # xacro could not build it (e.g. an include from a package outside the scan, or a fragment
        # meant to be included elsewhere): what the file declares itself, its xacro-built names
        # unknown, and why (a note for a fragment, a finding for a robot of its own)
        fragment = parse_urdf_file(text, rel)
        failures = [f for f in expanded.findings if f.code == "PARSE_ERROR"]
        if fragment.partial and fragment.notes:
            fragment.notes[-1] += "; " + "; ".join(f.message for f in failures)
        else:
            fragment.findings.extend(failures)
        return fragment
    if kind == "xacro":
        return parse_xacro_file(text, rel, ctx)
    if kind == "sdf":
        return parse_sdf_file(text, rel)
    if kind == "cartographer_lua":
        return parse_cartographer_lua(text, rel)
    return FileFacts(rel)


MAX_OWN_HEADERS = 24  # headers followed per C++ file, includes of includes too
MAX_HELPER_BYTES = 2 << 20  # text of other files read per C++ file for the helpers it calls


@lru_cache(maxsize=8192)
def _is_file(root: str, rel: str) -> bool:
    """Whether ``rel`` is a file under ``root``: the files of a package ask for the same headers."""
    return os.path.isfile(os.path.join(root, rel))


def _python_modules(rel: str, ctx: ScanContext) -> Callable[[str], tuple[str, str] | None]:
    """The modules of the file's package by their dotted names as imported: ``pkg.conversion`` is
    ``<package>/pkg/conversion.py`` (ament_python), ``<package>/src/pkg/conversion.py`` (catkin) or a module
    beside the file; a name found nowhere in the package is another package's."""
    pkg = package_of(rel, ctx.packages.values())
    roots = [os.path.dirname(rel), *([pkg, os.path.join(pkg, "src")] if pkg is not None else [])]

    def find(module: str) -> tuple[str, str] | None:
        parts = module.split(".")
        for root in roots:
            for candidate in (os.path.join(root, *parts) + ".py", os.path.join(root, *parts, "__init__.py")):
                candidate = os.path.normpath(candidate)
                if candidate != rel and _is_file(ctx.root, candidate):
                    try:
                        return candidate, decode_source(ctx.read_bytes(candidate), "python")
                    except OSError:
                        return None  # unreadable, outside the tree or too large: its functions stay unknown
        return None

    return find


@lru_cache(maxsize=8)
def _package_sources(ctx: ScanContext, pkg: str) -> PackageSources:
    """Every C++ source of a package, read once per worker on first use: for the message helpers and
    parameter declarations no include leads to (a header that relies on its .cpp's includes)."""
    texts: list[str] = []

    def read_one(path: str) -> str:
        try:
            return decode_source(ctx.read_bytes(path), "cpp")
        except OSError:
            return ""  # unreadable, outside the tree or too large: what it holds stays unknown

    def read() -> list[str]:
        if not texts:
            texts.extend(helper_sources(ctx.root, pkg, read_one))
        return texts

    def read_yaml() -> list[str]:
        return helper_sources(ctx.root, pkg, read_one, (".yaml", ".yml"))

    own = next((name for name, rel in ctx.packages.items() if rel == pkg), None)
    return PackageSources(read, read_yaml, TreeMessages(*tree_message_types(ctx), own))


@lru_cache(maxsize=64)
def _package_index(root: str, package_dir: str) -> PackageIndex:
    return index_package(root, package_dir)


_FOUND: dict[tuple[str, tuple[str, ...], tuple[str, ...]], dict[str, str | None]] = {}  # per package: include -> tree header


@lru_cache(maxsize=1024)
def _includes(ctx: ScanContext, path: str, body: str, include_dirs: tuple[str, ...]) -> list[str]:
    """The tree headers ``body`` (the file at ``path``) includes: the files of a package share their headers."""
    # `#include <pkg/x.h>` is pkg's: only the packages an include names are searched, not every package of the tree
    named = {inc.split("/", 1)[0] for inc in INCLUDE.findall(body)}
    dirs = sorted({d for name, d in ctx.packages.items() if name in named} | {package_of(path, ctx.packages.values()) or ""})
    found = _FOUND.setdefault((ctx.root, tuple(dirs), include_dirs), {})
    return own_headers(body, path, lambda p: _is_file(ctx.root, p), dirs, include_dirs, found)


def _own_code(text: str, rel: str, ctx: ScanContext) -> tuple[list[str], list[tuple[str, str]]]:
    """The headers a C++ file includes from its package, includes of includes too (for its class's members),
    and the package's files that may define the helpers it calls: those headers and the one source file
    named like each (``sl_tools.hpp`` -> ``sl_tools.cpp``), as (path, text). Read like every scanned file:
    inside the tree, regular files, bounded."""
    pkg = package_of(rel, ctx.packages.values())
    index = _package_index(ctx.root, pkg) if pkg is not None else PackageIndex()
    headers: list[tuple[str, str]] = []
    seen = {rel}
    todo = [(rel, text)]
    while todo and len(headers) < MAX_OWN_HEADERS:
        path, body = todo.pop(0)
        for inc in _includes(ctx, path, body, index.include_dirs):
            if inc in seen or len(headers) >= MAX_OWN_HEADERS:
                continue
            seen.add(inc)
            try:
                h = decode_source(ctx.read_bytes(inc, MAX_HEADER_BYTES), "cpp")
            except OSError:
                continue  # unreadable, outside the tree or too large: its members stay unknown
            headers.append((inc, h))
            todo.append((inc, h))
    helpers = list(headers)
    budget = MAX_HELPER_BYTES - sum(len(h) for _, h in headers)
    for inc, _ in headers:
        impl = implementation_of(inc, index)
        if impl is None or impl in seen:
            continue
        seen.add(impl)
        try:
            body = decode_source(ctx.read_bytes(impl, MAX_HEADER_BYTES), "cpp")
        except OSError:
            continue
        budget -= len(body)
        if budget < 0:
            break
        helpers.append((impl, body))
    return [h for _, h in headers], helpers


# --- the whole scan ---------------------------------------------------------------------------------
CODE_KINDS = frozenset({"cpp", "python"})
MAX_INSTANCE_READS = 3  # parameter sets a node's source is read with, across the scan's launch files; then its defaults


def scan(
    paths: Iterable[str | Path],
    exclude: Iterable[str] = (),
    conventions: Conventions | None = None,
    policy: FindingPolicy | None = None,
    jobs: int | None = None,
    timeout: float = FILE_TIMEOUT,
    progress: TextIO | None = None,
    include_tests: bool = False,
    launch: str | None = None,
    launch_args: dict[str, str] | None = None,
    env: dict[str, str] | None = None,
    workspace: str | Path | None = None,
) -> ScanResult:
    """Scan files and directories. ``jobs`` None: one process for small trees, all cores (up to 8)
    for large ones. ``progress``: a stream for a progress bar, shown once the scan runs over 2 s.
    ``include_tests``: also read test folders and gtest/pytest files (skipped by default).
    ``launch`` (``PKG/FILE`` or a path in the tree) with ``launch_args`` and the robot's ``env``: the
    expected tree of that launch alone, as started with them (ValueError when it is not in the tree).
    ``workspace``: the repository or workspace around the paths, whose other packages their launch files may
    include and load (only what they reach is read, and only findings in the paths are reported)."""
    t0 = time.perf_counter()
    ws = discover(paths, exclude, include_tests, workspace)
    ctx = ScanContext(str(ws.root), {name: p.path for name, p in ws.packages.items()}, dict(env or {}))
    chosen = LaunchChoice(find_launch(ws, launch), dict(launch_args or {}), dict(env or {})) if launch else None
    kinds = {f.path: f.kind for f in ws.files}
    if jobs is None:
        jobs = min(os.cpu_count() or 1, 8) if sum(f.size for f in ws.files) >= PARALLEL_BYTES else 1
    bar = _Progress(progress, len(ws.files), t0)
    facts: dict[str, FileFacts] = {}  # only files that hold something: memory follows the frames, not the files
    reread: dict[tuple[str, tuple[tuple[str, str], ...]], FileFacts] = {}
    with ExitStack() as stack:
        stack.enter_context(_young_gc_threshold(GC_YOUNG_THRESHOLD))  # forked workers inherit it
        pool = stack.enter_context(WorkerPool(parse_file, ctx, jobs, timeout))
        # Robot descriptions last: those a launch file loads were already expanded with its arguments.
        first = [f for f in ws.files if f.kind not in DESCRIPTION_KINDS]
        for ff in _parse_files(first, pool, jobs, bar):
            _keep(ff, facts)
        loaded = {u for ff in facts.values() for u in ff.uses}
        # a file a loaded robot includes but takes no joint from (a sensor package's macros, all included by one
        # file and called by none with a working argument) is read on its own too: its macros alone
        placed = {e.location.file for ff in facts.values() for edges in (ff.edges, *ff.variants.values()) for e in edges
                  if e.location is not None}
        rest = [f for f in ws.files if f.kind in DESCRIPTION_KINDS and (f.path not in loaded or f.path not in placed)]
        for ff in _parse_files(rest, pool, jobs, bar):
            if ff.path in loaded:  # read again only for the macros no robot calls: the robot that loads it says the rest
                ff = FileFacts(ff.path, lines=ff.lines, findings=[f for f in ff.findings if MACRO_ALONE in f.details])
            _keep(ff, facts)
        bar.done()
        facts = {f.path: facts[f.path] for f in ws.files if f.path in facts}  # the files' order, however they were parsed
        for ff in _workspace_includes(facts, kinds, pool):
            _keep(ff, facts)

        instances: dict[str, int] = defaultdict(int)  # a node's source read with launched parameters -> how many times

        def reparse(path: str, args: dict[str, str]) -> FileFacts:
            key = (path, tuple(sorted(args.items())))
            if path not in kinds:
                return FileFacts(path)  # included with arguments but not a file the scan reads (or not in the tree)
            if key not in reread:
                if kinds[path] in CODE_KINDS:
                    if instances[path] >= MAX_INSTANCE_READS and path in facts:
                        return facts[path]  # rtabmap's CoreWrapper, launched with fifteen parameter sets: its defaults
                    instances[path] += 1
                reread[key] = pool.parse_one((path, kinds[path], args))
            return reread[key]

        subsystems = build_subsystems(ws, facts, kinds, executable_sources(ws), reparse, chosen)
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
    for finding in mount_disagreements(all_edges, robots_loaded(facts, subsystems, kinds)):
        findings.setdefault(finding.key, finding)
    for finding in simulated_sensor_mounts(all_edges, facts.values()):
        findings.setdefault(finding.key, finding)
    for finding in model_camera_findings(facts.values(), {p for p, k in kinds.items() if k in ("urdf", "xacro")}):
        findings.setdefault(finding.key, finding)
    if ws.targets != ("",):  # the workspace's other packages were read for what the paths use: their own findings are not asked for
        findings = {k: f for k, f in findings.items() if f.location is None or ws.in_targets(f.location.file)}
    # a macro expanded on its own repeats, with placeholder names, what a robot of the tree that calls it found
    called = {(f.code, f.location) for f in findings.values() if MACRO_ALONE not in f.details}
    findings = {k: f for k, f in findings.items() if MACRO_ALONE not in f.details or (f.code, f.location) not in called}
    lookups = list(dict.fromkeys(lk for s in subsystems for lk in s.lookups))
    partial = list(dict.fromkeys(pe for ff in facts.values() for pe in ff.partial_edges))
    data_frames = list(dict.fromkeys(d for ff in facts.values() for d in ff.data_frames))
    expected = ExpectedTree(all_edges, lookups, [s.to_dict() for s in subsystems if s.edges or s.lookups],
                            [v for s in subsystems if s.edges for v in s.expected_variants()], partial, data_frames)
    result_findings = sort_findings((policy or FindingPolicy()).apply(findings.values()))
    notes = [CPP_UNAVAILABLE] if CPP_UNAVAILABLE and any(f.kind == "cpp" for f in ws.files) else []
    notes.extend(_summary(sorted(n for ff in facts.values() for n in ff.notes)))
    if ws.targets != ("",):
        notes.append(f"read with the packages of the workspace {ws.root} that the scanned paths include or load; paths are "
                     "relative to it, and findings are reported for the scanned paths only (--workspace none: the paths alone)")
    return ScanResult(ws.root, result_findings, expected, subsystems, len(ws.files), bar.lines, time.perf_counter() - t0, notes)


MAX_WORKSPACE_INCLUDES = 64  # launch files of the workspace's other packages read for the scanned paths' includes


def _workspace_includes(facts: dict[str, FileFacts], kinds: dict[str, str], pool: WorkerPool) -> Iterator[FileFacts]:
    """Launch files of the workspace's other packages that the scanned launch files include (includes of includes
    too), parsed as the scanned ones are; ``kinds`` learns them, so a launch with arguments reads them again."""
    pending = [inc for ff in facts.values() for inc in ff.includes if inc not in kinds]
    read = 0
    while pending and read < MAX_WORKSPACE_INCLUDES:
        rel = pending.pop()
        kind = classify(os.path.basename(rel), rel)
        if rel in kinds or kind not in LAUNCH_KINDS:
            continue
        kinds[rel] = kind
        read += 1
        ff = pool.parse_one((rel, kind, {}))
        pending.extend(inc for inc in ff.includes if inc not in kinds)
        yield ff


def find_launch(ws: Workspace, spec: str) -> str:
    """``PKG/FILE`` (a launch file of package PKG, found by name or path tail) or a path in the tree."""
    launches = [f.path for f in ws.files if f.kind in LAUNCH_KINDS]
    if spec in launches:
        return spec
    pkg_name, _, name = spec.partition("/")
    pkg = ws.packages.get(pkg_name)
    if pkg is not None and name:
        inside = [p for p in launches if pkg.path == "" or p.startswith(pkg.path + "/")]
        hits = [p for p in inside if p.endswith("/" + name) or os.path.basename(p) == name]
        if len(hits) == 1:
            return hits[0]
        if len(hits) > 1:
            raise ValueError(f"--launch {spec}: {len(hits)} launch files match ({', '.join(hits)}); give the path")
        raise ValueError(f"--launch {spec}: package {pkg_name} has no launch file {name} in the scanned tree"
                         + (f" (it has {', '.join(sorted(os.path.basename(p) for p in inside)[:8])})" if inside else ""))
    raise ValueError(f"--launch {spec}: no package '{pkg_name}' and no launch file at that path in the scanned tree")


def _summary(file_notes: list[str], shown: int = 3) -> list[str]:
    """One line for the files' notes: how many, and the first few in full."""
    if not file_notes:
        return []
    more = f" (and {len(file_notes) - shown} more)" if len(file_notes) > shown else ""
    return [f"{len(file_notes)} partly read file(s), not findings: " + "; ".join(file_notes[:shown]) + more]


def _keep(ff: FileFacts, facts: dict[str, FileFacts]) -> None:
    if (ff.edges or ff.lookups or ff.findings or ff.nodes or ff.includes or ff.unseen_includes or ff.uses or ff.notes or ff.unknown_broadcasts or ff.variants
            or ff.partial_edges or ff.data_frames or ff.camera_sensors or ff.sim_sensors):
        facts[ff.path] = ff


def _parse_files(files: list[SourceFile], pool: WorkerPool, jobs: int, bar: _Progress) -> Iterator[FileFacts]:
    # One worker: one kind after the other, so each parser's code and tables stay in the CPU caches
    # (~20% faster than alternating per package). Several: big files first, so one large file does
    # not finish the scan alone. Batches keep IPC cheap. The caller restores the files' order.
    ordered = sorted(files, key=lambda f: f.kind) if jobs == 1 else sorted(files, key=lambda f: -f.size)
    size = max(1, min(BATCH_FILES, -(-len(ordered) // jobs)))  # a few files still go to every worker
    batches: list[list[Job]] = [[(f.path, f.kind, None) for f in ordered[i:i + size]] for i in range(0, len(ordered), size)]
    for ff in pool.parse(batches):
        bar.step(1, ff.lines)
        yield ff


def source_lines(root: Path) -> Callable[[str], list[str]]:
    """The lines of a scanned file for the text report: read as the scan reads (regular files inside
    the root, within the size limit, in their declared encoding); none for anything else."""
    ctx = ScanContext(str(root))

    def lines(rel: str) -> list[str]:
        try:
            return decode_source(ctx.read_bytes(rel), classify(os.path.basename(rel), rel) or "").split("\n")  # numbered as the parsers number them
        except OSError:
            return []
    return lines


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
