"""``physframe scan`` on real public ROS repositories: precision against judged findings, coverage, parse
errors and time (issue 11's real-code evaluation loop).

    .venv/bin/python benchmarks/realworld.py [--repo NAME]... [--jobs N] [--json OUT]
    .venv/bin/python benchmarks/realworld.py --bugs [--bugs-file FILE] [--repo NAME]...

Runs the physframe_ros importable by the interpreter that runs this script, so another worktree's
scanner is measured with ``/work/wt/X/.venv/bin/python /path/to/benchmarks/realworld.py``.

* ``realworld/manifest.yaml``: repositories at pinned commits. Each must be a git mirror under
  ``$PHYSFRAME_MIRRORS`` (default /work/.mirror/<owner>+<name>/repo, bare or with a .git, where the search
  tool's ``fetch`` puts it); the commit's files are written from ``git cat-file --batch`` into
  ``$PHYSFRAME_REALWORLD_CACHE`` (default ~/.cache/physframe-realworld/<owner>+<name>/<commit>), never into
  this repository; blobs the mirror lacks (its largest files: meshes, bags) are left out and counted.
* Each export is scanned in its own process (``physframe scan --format json --jobs 1``; the repositories
  run ``--jobs`` at a time), so a crash or a hang costs one repository and is reported as such; the time
  is that command's wall time, interpreter start-up included.
* ``realworld/judged*.yaml`` (judged.yaml and one file per line of work): verdicts (true / false / debatable) on findings, keyed by repository, file,
  line and code (optionally frames). A finding matches a judgement of the same file and code at the same
  line, else at the nearest line within 3 (so a finding moved by a scanner change keeps its verdict).
* Printed per repository and in total: errors and warnings; precision strict (true / judged) and lenient
  (true-or-debatable / judged), for errors and for warnings separately; findings not judged yet (file:line,
  code, message); judged findings no longer reported (the true ones listed: lost recall); frames extracted
  (edges, lookups, partial edges: broadcasts and lookups with one frame named and the other known
  only at run time, and data frames: frames the code stamps on the data it publishes), flagging TF-heavy
  repositories (>= 5 tf2 API calls in the code the scanner reads) with none of the four; C++ syntax
  PARSE_ERRORs and C++ files not read in full over the C++ files the code analysis reads;
  other PARSE_ERRORs; seconds per repository; totals per set (tuning / holdout) of the manifest.

``--bugs``: recall on known bugs (``realworld/bugs.yaml``): each entry is scanned at its buggy commit
(found = a finding with the expected code in the file within 3 lines of the buggy line) and at its fixed
commit (still reported = a finding with that code in the same file within 3 lines of the buggy line mapped
through ``git diff -U0 buggy fixed`` for that file; a line inside a changed hunk maps to the start of the
hunk's new lines, and a renamed file is followed). An entry's ``scan_path`` scans only that subdirectory, with
the repository as its ``--workspace`` (what ``--workspace auto`` finds in a clone).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Iterable

import yaml

HERE = Path(__file__).resolve().parent
MANIFEST = HERE / "realworld" / "manifest.yaml"
JUDGED = sorted((HERE / "realworld").glob("judged*.yaml"))  # judged.yaml, and judged-<topic>.yaml per line of work
BUGS = HERE / "realworld" / "bugs.yaml"
MIRRORS = Path(os.environ.get("PHYSFRAME_MIRRORS", "/work/.mirror"))
CACHE = Path(os.environ.get("PHYSFRAME_REALWORLD_CACHE", Path.home() / ".cache" / "physframe-realworld"))
SCAN_TIMEOUT = 900.0  # seconds one repository may take before it counts as a failure
LINE_SLACK = 3
MISSING_LIST = ".physframe-realworld-missing-blobs"  # in each export: the paths whose blobs the mirror lacks
VERDICTS = ("true", "false", "debatable")
CPP_EXT = (".cpp", ".cc", ".cxx", ".c++", ".h", ".hh", ".hpp", ".hxx", ".h++", ".ipp", ".inl", ".tpp")
TF_API = re.compile(
    r"sendTransform|send_transform|lookupTransform|lookup_transform|canTransform|can_transform|waitForTransform"
    r"|TransformBroadcaster|transformPose|transformPoint|->transform\(|buffer\.transform\(|tf_buffer_?->transform\("
    r"|<\s*tf2_msgs::(?:msg::)?TFMessage\s*>|<\s*tf::tfMessage\s*>"  # TF published as a message (e.g. realtime_tools)
)
CPP_UNREAD = re.compile(r"C\+\+ syntax error|C\+\+ the parser could not read|C\+\+ analysis failed|longer than .* s and was stopped|internal error")
TF_HEAVY = 5  # tf2 API calls in a repository's code from which on a scan with no frame is a coverage failure


# --- data ---------------------------------------------------------------------------------------------
@dataclass
class Repo:
    repo: str
    commit: str
    kind: str = ""
    ros: int = 0
    why: str = ""
    group: str = "tuning"  # the manifest's set: tuning or holdout

    @property
    def slug(self) -> str:
        return self.repo.replace("/", "+")


@dataclass
class Found:
    """One finding of the scan, as the JSON report gives it, with its verdict once judged."""

    code: str
    severity: str
    file: str
    line: int
    frames: list[str]
    message: str
    verdict: str | None = None
    reason: str = ""


@dataclass
class RepoResult:
    repo: str
    commit: str
    kind: str
    group: str = "tuning"  # the manifest's set: tuning or holdout
    seconds: float = 0.0
    failure: str = ""  # why the scan produced no report (crash, timeout, export failed)
    findings: list[Found] = field(default_factory=list)
    edges: int = 0
    lookups: int = 0
    partial: int = 0  # broadcasts and lookups with one frame known (the expected tree's partial_edges)
    data: int = 0  # frames stamped on published data (the expected tree's data_frames), by frame and type
    tf_api_calls: int = 0
    cpp_files: int = 0  # C++ files the scanner discovers
    cpp_analysed: int = 0  # of those, the ones the code analysis parses (they mention tf)
    cpp_syntax_errors: int = 0  # files with a C++ syntax PARSE_ERROR finding in the report
    cpp_unread: int = 0  # analysed files the parser could not read in full (a PARSE_ERROR finding or a note)
    other_parse_errors: int = 0
    missing_blobs: int = 0  # files the mirror lacks (large binaries), left out of the export
    matched: set[int] = field(default_factory=set)  # judgements that matched a finding of this scan
    gone: list[Judgement] = field(default_factory=list)  # judgements no finding of this scan matches

    def of(self, severity: str) -> list[Found]:
        return [f for f in self.findings if f.severity == severity]

    @property
    def tf_heavy(self) -> bool:
        return self.tf_api_calls >= TF_HEAVY

    @property
    def coverage_failure(self) -> bool:
        return not self.failure and self.tf_heavy and self.edges + self.lookups + self.partial + self.data == 0


# --- mirrors and exports ------------------------------------------------------------------------------
def mirror_of(repo: str) -> Path:
    """The git directory of a fetched repository: a bare mirror, or the .git of a snapshot with a work tree."""
    base = MIRRORS / repo.replace("/", "+") / "repo"
    return base / ".git" if (base / ".git").is_dir() else base


def git(repo: str, *args: str) -> str:
    return subprocess.run(["git", "--git-dir", str(mirror_of(repo)), *args], check=True, capture_output=True, text=True).stdout


def export(repo: str, commit: str) -> Path:
    """The tree of ``repo`` at ``commit`` in the cache (exported once, atomically). Mirrors may lack their
    largest blobs (meshes, bags, images), so files are written one by one from ``git cat-file --batch``
    and a missing blob is left out (counted in the cache's MISSING_BLOBS file); submodules are skipped."""
    dest = CACHE / repo.replace("/", "+") / commit
    if dest.is_dir():
        return dest
    if not mirror_of(repo).is_dir():
        raise RuntimeError(f"no mirror at {mirror_of(repo)} (bring it with the search tool's fetch github:{repo})")
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{commit[:12]}-", dir=dest.parent))
    try:
        missing = _write_tree(repo, commit, tmp)
        (tmp / MISSING_LIST).write_text("".join(f"{m}\n" for m in missing))
        os.rename(tmp, dest)
    except (subprocess.CalledProcessError, OSError, ValueError) as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        if dest.is_dir():
            return dest  # another worker exported the same commit first (two bugs of one fix, scanned at once)
        err = getattr(exc, "stderr", b"") or b""
        raise RuntimeError(f"export of {repo}@{commit[:12]} failed: {err.decode(errors='replace').strip() or exc}") from None
    return dest


def _write_tree(repo: str, commit: str, dest: Path) -> list[str]:
    """Write the files of ``commit`` under ``dest``; the paths whose blobs the mirror lacks."""
    listing = subprocess.run(["git", "--git-dir", str(mirror_of(repo)), "ls-tree", "-r", "-z", "--full-tree", commit],
                             check=True, capture_output=True).stdout
    entries: list[tuple[bytes, bytes, str]] = []  # (mode, sha, path)
    for row in filter(None, listing.split(b"\0")):
        meta, raw_path = row.split(b"\t", 1)
        mode, kind, sha = meta.split()
        if kind == b"blob":
            entries.append((mode, sha, raw_path.decode(errors="surrogateescape")))
    out = subprocess.run(["git", "--git-dir", str(mirror_of(repo)), "cat-file", "--batch"], input=b"".join(sha + b"\n" for _, sha, _ in entries),
                         check=True, capture_output=True).stdout
    missing: list[str] = []
    pos = 0
    for mode, _sha, path in entries:
        eol = out.index(b"\n", pos)
        header = out[pos:eol].split()
        pos = eol + 1
        if header[-1] == b"missing":
            missing.append(path)
            continue
        size = int(header[2])
        data, pos = out[pos:pos + size], pos + size + 1
        target = dest / path
        if ".." in Path(path).parts:
            raise ValueError(f"unsafe path {path!r} in the tree")
        target.parent.mkdir(parents=True, exist_ok=True)
        if mode == b"120000":  # a symlink: kept only when it points inside the tree
            link = data.decode(errors="replace")
            if not os.path.isabs(link) and (target.parent / link).resolve().is_relative_to(dest.resolve()):
                os.symlink(link, target)
            continue
        target.write_bytes(data)
    return missing


# --- scanning -----------------------------------------------------------------------------------------
def scanner_env() -> tuple[dict[str, str], str]:
    """Environment that makes the child import the same physframe_ros as this interpreter, and its path."""
    import physframe_ros

    pkg_parent = str(Path(physframe_ros.__file__).resolve().parent.parent)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([pkg_parent, *filter(None, [env.get("PYTHONPATH")])])
    return env, pkg_parent


def run_scan(tree: Path, workspace: Path | None = None) -> tuple[dict[str, Any] | None, dict[str, Any] | None, float, str]:
    """(JSON report, expected tree, seconds, failure) of ``physframe scan`` on ``tree`` in a child process;
    ``workspace``: the repository around ``tree`` (what ``--workspace auto`` finds in a clone, by its .git)."""
    env, _ = scanner_env()
    with tempfile.TemporaryDirectory(prefix="physframe-rw-") as tmp:
        report, expected = Path(tmp, "report.json"), Path(tmp, "expected.yaml")
        cmd = [sys.executable, "-m", "physframe_ros.cli", "scan", str(tree), "--format", "json", "-o", str(report),
               "--expected-out", str(expected), "--no-progress", "--jobs", "1"]
        if workspace is not None and workspace != tree:
            cmd += ["--workspace", str(workspace)]
        t0 = time.perf_counter()
        try:
            proc = subprocess.run(cmd, cwd=tmp, env=env, capture_output=True, text=True, timeout=SCAN_TIMEOUT)
        except subprocess.TimeoutExpired:
            return None, None, time.perf_counter() - t0, f"timed out after {SCAN_TIMEOUT:g} s"
        seconds = time.perf_counter() - t0
        if proc.returncode not in (0, 1) or not report.exists():
            tail = (proc.stderr.strip().splitlines() or ["(no output)"])[-1]
            return None, None, seconds, f"exit {proc.returncode}: {tail}"
        data = json.loads(report.read_text())
        exp = yaml.safe_load(expected.read_text()) if expected.exists() else None
        return data, exp, seconds, ""


def found_of(report: dict[str, Any]) -> list[Found]:
    out = []
    for f in report.get("findings", []):
        loc = f.get("location") or {}
        out.append(Found(f["code"], f["severity"], loc.get("file") or "", int(loc.get("line") or 0), list(f.get("frames") or []), f.get("message", "")))
    return out


def cpp_reading(tree: Path) -> tuple[int, int, list[str]] | None:
    """(C++ files the scanner discovers, those its code analysis parses because they mention tf, those of
    them it could not read in full), through the scanner's own discovery and per-file parser; None when
    those internals are not importable as expected. A file counts as not read in full when its parse
    gives a PARSE_ERROR finding or a note about a C++ syntax error (the channel differs between versions)."""
    try:
        from physframe_ros.scan.code import mentions_tf
        from physframe_ros.scan.context import ScanContext
        from physframe_ros.scan.discovery import discover
        from physframe_ros.scan.scanner import parse_file

        ws = discover([tree])
        ctx = ScanContext(str(ws.root), {name: p.path for name, p in ws.packages.items()})
        files = [f.path for f in ws.files if f.kind == "cpp"]
        analysed = [rel for rel in files if mentions_tf((ws.root / rel).read_text(errors="replace"))]
        unread = []
        for rel in analysed:
            ff = parse_file(rel, "cpp", ctx)
            said = [f.message for f in ff.findings if f.code == "PARSE_ERROR"] + list(getattr(ff, "notes", []))
            if any(CPP_UNREAD.search(m) for m in said):
                unread.append(rel)
    except (ImportError, AttributeError, TypeError, OSError):
        return None
    return len(files), len(analysed), unread


def tf_api_calls(tree: Path) -> int:
    """tf2 API calls in the C++ and Python the scanner reads (its discovery skips what it skips, e.g. tests);
    every such file of the tree when that is not importable."""
    try:
        from physframe_ros.scan.discovery import discover

        ws = discover([tree])
        files = [ws.root / f.path for f in ws.files if f.kind in ("cpp", "python")]
    except (ImportError, AttributeError, TypeError, OSError):
        files = [p for p in tree.rglob("*") if p.is_file() and (p.suffix.lower() in CPP_EXT or p.suffix == ".py")]
    n = 0
    for p in files:
        try:
            n += len(TF_API.findall(p.read_text(errors="replace")))
        except OSError:
            continue
    return n


def scan_repo(r: Repo) -> RepoResult:
    res = RepoResult(r.repo, r.commit, r.kind, r.group)
    try:
        tree = export(r.repo, r.commit)
    except RuntimeError as exc:
        res.failure = str(exc)
        return res
    res.missing_blobs = len((tree / MISSING_LIST).read_text().splitlines()) if (tree / MISSING_LIST).exists() else 0
    report, expected, res.seconds, res.failure = run_scan(tree)
    res.tf_api_calls = tf_api_calls(tree)
    if report is None:
        return res
    res.findings = found_of(report)
    exp = expected or {}
    res.edges = len(exp.get("edges") or report.get("tree", {}).get("edges") or [])
    res.lookups = len(exp.get("lookups") or [])
    res.partial = len(exp.get("partial_edges") or [])
    res.data = len({(d.get("frame"), d.get("type")) for d in exp.get("data_frames") or []})
    parse_errors = [f for f in res.findings if f.code == "PARSE_ERROR"]
    syntax_files = {f.file for f in parse_errors if f.file.lower().endswith(CPP_EXT) and CPP_UNREAD.search(f.message)}
    res.cpp_syntax_errors = len(syntax_files)
    res.other_parse_errors = sum(1 for f in parse_errors if f.file not in syntax_files)
    reading = cpp_reading(tree)
    if reading is not None:
        res.cpp_files, res.cpp_analysed, unread = reading
        res.cpp_unread = len(unread)
    return res


# --- judgements ---------------------------------------------------------------------------------------
@dataclass
class Judgement:
    file: str
    line: int
    code: str
    verdict: str
    reason: str
    frames: tuple[str, ...] = ()


def load_judged(paths: list[Path]) -> dict[str, list[Judgement]]:
    out: dict[str, list[Judgement]] = {}
    for path in paths:
        if path.exists():
            _load_judged(path, out)
    return out


def _load_judged(path: Path, out: dict[str, list[Judgement]]) -> None:
    data = yaml.safe_load(path.read_text()) or {}
    for repo, entries in data.items():
        for e in entries or ():
            verdict = e.get("verdict")
            verdict = {True: "true", False: "false"}.get(verdict, verdict)  # YAML reads true/false as booleans
            if verdict not in VERDICTS:
                raise SystemExit(f"{path}: {repo} {e.get('file')}:{e.get('line')}: verdict must be one of {VERDICTS}, not {verdict!r}")
            out.setdefault(repo, []).append(Judgement(str(e.get("file") or ""), int(e.get("line") or 0), str(e["code"]), verdict, str(e.get("reason", "")),
                                                      tuple(e.get("frames") or ())))


def apply_judgements(res: RepoResult, judged: list[Judgement]) -> None:
    """The judgement of the same file and code at the same line, else at the nearest line within
    LINE_SLACK; one judgement covers every finding at its place (e.g. one per frame of a joint); an entry
    with ``frames`` only findings naming those frames."""
    res.matched = judge_findings(res.findings, judged)
    res.gone = [j for i, j in enumerate(judged) if i not in res.matched]


def judge_findings(findings: list[Found], judged: list[Judgement]) -> set[int]:
    """Give each error and warning its judgement (see apply_judgements); the indices of the judgements used."""
    matched: set[int] = set()
    for f in findings:
        if f.severity not in ("error", "warning"):
            continue
        near = [(abs(j.line - f.line), i) for i, j in enumerate(judged)
                if j.file == f.file and j.code == f.code and abs(j.line - f.line) <= LINE_SLACK and (not j.frames or set(j.frames) == set(f.frames))]
        if near:
            j = judged[min(near)[1]]
            f.verdict, f.reason = j.verdict, j.reason
            matched.add(min(near)[1])
    return matched


# --- printing -----------------------------------------------------------------------------------------
def precision(items: list[Found]) -> tuple[int, int, int, int]:
    """(judged, true, true-or-debatable, all)"""
    judged = [f for f in items if f.verdict]
    return len(judged), sum(f.verdict == "true" for f in judged), sum(f.verdict in ("true", "debatable") for f in judged), len(items)


def pct(num: int, den: int) -> str:
    return f"{100 * num / den:5.1f}%" if den else "    - "


def prec_cell(items: list[Found]) -> str:
    n, t, td, total = precision(items)
    if not total:
        return "-"
    unjudged = f" ({total - n} unjudged)" if total - n else ""
    return f"{t}/{n} strict {pct(t, n).strip()}, T|D {td}/{n} {pct(td, n).strip()}{unjudged}"


def print_results(results: list[RepoResult], scanner_path: str) -> None:
    print(f"physframe_ros from {scanner_path}; {len(results)} repositories")
    print("cpp = C++ files the code analysis reads (they mention tf); cppPE = of them with a C++ syntax PARSE_ERROR finding;")
    print("unrd = of them not read in full (a PARSE_ERROR or a note); othPE = other PARSE_ERROR findings")
    print()
    hdr = (f"{'repository':44} {'sec':>6} {'E':>3} {'W':>3} {'edges':>5} {'lkups':>5} {'part':>4} {'data':>4} {'tfapi':>5} "
           f"{'cpp':>5} {'cppPE':>5} {'unrd':>5} {'othPE':>5}  notes")
    print(hdr)
    print("-" * len(hdr))
    for r in results:
        notes = []
        if r.failure:
            notes.append(f"FAILED: {r.failure}")
        if r.coverage_failure:
            notes.append("TF-HEAVY, NO FRAME")
        if r.missing_blobs:
            notes.append(f"{r.missing_blobs} large blobs absent from the mirror")
        print(f"{r.repo:44} {r.seconds:6.1f} {len(r.of('error')):3} {len(r.of('warning')):3} "
              f"{r.edges:5} {r.lookups:5} {r.partial:4} {r.data:4} {r.tf_api_calls:5} "
              f"{r.cpp_analysed:5} {r.cpp_syntax_errors:5} {r.cpp_unread:5} {r.other_parse_errors:5}  {'; '.join(notes)}")
    print()
    print("precision per repository (judged findings only):")
    for r in results:
        if r.of("error") or r.of("warning"):
            print(f"  {r.repo:44} errors: {prec_cell(r.of('error'))}")
            print(f"  {'':44} warnings: {prec_cell(r.of('warning'))}")
    unjudged = [(r, f) for r in results for f in r.findings if f.severity in ("error", "warning") and not f.verdict]
    if unjudged:
        print()
        print(f"findings not judged yet ({len(unjudged)}):")
        for r, f in unjudged:
            print(f"  {r.repo} {f.file}:{f.line} {f.severity} {f.code} [{', '.join(f.frames)}] {f.message}")
    gone_true = [(r, j) for r in results if not r.failure for j in r.gone if j.verdict == "true"]
    if gone_true:
        print()
        print(f"findings judged true that this scan no longer reports ({len(gone_true)}):")
        for r, j in gone_true:
            print(f"  {r.repo} {j.file}:{j.line} {j.code}: {j.reason}")
    print()
    print_totals(results, "TOTAL")
    for name in sorted({r.group for r in results}):
        if len({r.group for r in results}) > 1:
            print()
            print_totals([r for r in results if r.group == name], f"TOTAL of the {name} set")


def totals(results: list[RepoResult]) -> dict[str, Any]:
    errors = [f for r in results for f in r.of("error")]
    warnings = [f for r in results for f in r.of("warning")]
    ne, te, tde, _ = precision(errors)
    nw, tw, tdw, _ = precision(warnings)
    analysed = sum(r.cpp_analysed for r in results)
    syntax = sum(r.cpp_syntax_errors for r in results)
    return {
        "repositories": len(results),
        "failures": [r.repo for r in results if r.failure],
        "errors": len(errors), "errors_judged": ne, "errors_true": te, "errors_true_or_debatable": tde,
        "warnings": len(warnings), "warnings_judged": nw, "warnings_true": tw, "warnings_true_or_debatable": tdw,
        "repos_without_findings": sum(1 for r in results if not r.failure and not (r.of("error") or r.of("warning"))),
        **{f"gone_{v}": sum(1 for r in results if not r.failure for j in r.gone if j.verdict == v) for v in VERDICTS},
        "tf_heavy": sum(1 for r in results if r.tf_heavy),
        "tf_heavy_without_frames": [r.repo for r in results if r.coverage_failure],
        "edges": sum(r.edges for r in results), "lookups": sum(r.lookups for r in results), "partial": sum(r.partial for r in results),
        "data_frames": sum(r.data for r in results),
        "cpp_files": sum(r.cpp_files for r in results), "cpp_analysed": analysed, "cpp_syntax_errors": syntax,
        "cpp_syntax_repos": sum(1 for r in results if r.cpp_syntax_errors),
        "cpp_unread": sum(r.cpp_unread for r in results), "cpp_unread_repos": sum(1 for r in results if r.cpp_unread),
        "other_parse_errors": sum(r.other_parse_errors for r in results),
        "seconds": sum(r.seconds for r in results), "max_seconds": max((r.seconds for r in results), default=0.0),
    }


def print_totals(results: list[RepoResult], title: str) -> None:
    t = totals(results)
    print(title)
    print(f"  repositories {t['repositories']}, failures {len(t['failures'])} {t['failures'] or ''}")
    for kind in ("errors", "warnings"):
        n, true, td = t[f"{kind}_judged"], t[f"{kind}_true"], t[f"{kind}_true_or_debatable"]
        print(f"  {kind:8} {t[kind]:4}: judged {n}, true {true}, true-or-debatable {td}"
              f"  -> precision strict {pct(true, n).strip()}, true-or-debatable {pct(td, n).strip()}")
    print(f"  repositories with no error or warning: {t['repos_without_findings']}")
    print(f"  judged findings no longer reported: {t['gone_true']} true, {t['gone_debatable']} debatable, {t['gone_false']} false")
    print(f"  frames: {t['edges']} edges, {t['lookups']} lookups, {t['partial']} partial edges, {t['data_frames']} data frames; "
          f"TF-heavy repositories {t['tf_heavy']}, of them with no frame: "
          f"{len(t['tf_heavy_without_frames'])} {t['tf_heavy_without_frames'] or ''}")
    rate = pct(t["cpp_syntax_errors"], t["cpp_analysed"]).strip()
    print(f"  C++ syntax PARSE_ERROR: {t['cpp_syntax_errors']} of {t['cpp_analysed']} analysed C++ files ({rate}; "
          f"{t['cpp_files']} C++ files in all) in {t['cpp_syntax_repos']} repositories; other PARSE_ERROR: {t['other_parse_errors']}")
    unread = pct(t["cpp_unread"], t["cpp_analysed"]).strip()
    print(f"  C++ files the parser could not read in full (PARSE_ERROR or note): {t['cpp_unread']} of {t['cpp_analysed']} ({unread}) "
          f"in {t['cpp_unread_repos']} repositories")
    print(f"  time: {t['seconds']:.1f} s in all, max {t['max_seconds']:.1f} s per repository")


# --- known bugs ---------------------------------------------------------------------------------------
@dataclass
class Bug:
    id: str
    repo: str
    buggy: str
    fixed: str
    code: str
    file: str
    line: int
    summary: str = ""
    scan_path: str = ""  # the subdirectory to scan (the package that holds the bug); "" = the whole repository


@dataclass
class BugResult:
    id: str
    repo: str
    code: str
    found: bool | None = None  # None: not measured (failure)
    still_at_fix: bool | None = None
    fixed_place: str = ""
    failure: str = ""
    buggy_codes: dict[str, list[int]] = field(default_factory=dict)  # what the scan of the buggy file says: lines by code


def load_bugs(path: Path) -> list[Bug]:
    data = yaml.safe_load(path.read_text()) or []
    if isinstance(data, dict):
        data = data.get("bugs") or []
    bugs = []
    for e in data:
        try:
            bugs.append(Bug(str(e["id"]), str(e["repo"]), str(e["buggy"]), str(e["fixed"]), str(e["code"]), str(e["file"]), int(e["line"]),
                            str(e.get("summary", "")), str(e.get("scan_path") or "").strip("/")))
        except (KeyError, TypeError, ValueError) as exc:
            print(f"{path}: entry {e.get('id') if isinstance(e, dict) else e!r} skipped: missing or bad field {exc}", file=sys.stderr)
    return bugs


def map_line(repo: str, buggy: str, fixed: str, file: str, line: int) -> tuple[str, int]:
    """Where ``file:line`` at ``buggy`` is at ``fixed``: the file followed through a rename, the line
    shifted by the hunks above it; a line inside a changed hunk maps to the start of the hunk's new side."""
    new_file = file
    for row in git(repo, "diff", "-M", "--name-status", buggy, fixed).splitlines():
        parts = row.split("\t")
        if parts[0].startswith("R") and len(parts) == 3 and parts[1] == file:
            new_file = parts[2]
    shift = 0
    for m in re.finditer(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@", git(repo, "diff", "-M", "-U0", buggy, fixed, "--", file, new_file), re.M):
        old_start, old_len = int(m[1]), int(m[2] if m[2] is not None else 1)
        new_start, new_len = int(m[3]), int(m[4] if m[4] is not None else 1)
        old_end = old_start + old_len - 1 if old_len else old_start
        if old_len and old_start <= line <= old_end:
            return new_file, new_start
        if (old_len and old_end < line) or (not old_len and old_start < line):
            shift += new_len - old_len
    return new_file, line + shift


def in_repo(report: dict[str, Any], tree: Path) -> list[Found]:
    """The report's findings with paths relative to the repository exported at ``tree``. A scan reports
    them relative to its root, which is the scanned folder, or the package holding it when the folder is
    inside one (a package.xml at the repository's top makes the root the repository)."""
    findings = found_of(report)
    root = Path(report.get("root") or tree).resolve()
    base = tree.resolve()
    for f in findings:
        if f.file and not Path(f.file).is_absolute():
            try:
                f.file = (root / f.file).relative_to(base).as_posix()
            except ValueError:
                pass  # outside the export: left as reported
    return findings


def near(findings: Iterable[Found], code: str, file: str, line: int) -> bool:
    return any(f.code == code and f.file == file and abs(f.line - line) <= LINE_SLACK for f in findings)


def check_bug(b: Bug) -> BugResult:
    res = BugResult(b.id, b.repo, b.code)
    try:
        buggy_tree, fixed_tree = export(b.repo, b.buggy), export(b.repo, b.fixed)
        fixed_file, fixed_line = map_line(b.repo, b.buggy, b.fixed, b.file, b.line)
    except (RuntimeError, subprocess.CalledProcessError) as exc:
        res.failure = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
        return res
    res.fixed_place = f"{fixed_file}:{fixed_line}"
    report, _, _, failure = run_scan(buggy_tree / b.scan_path, buggy_tree)
    if report is None:
        res.failure = f"buggy scan: {failure}"
        return res
    buggy = in_repo(report, buggy_tree)
    res.found = near(buggy, b.code, b.file, b.line)
    for f in buggy:
        if f.file == b.file and f.code != "PARSE_ERROR":
            res.buggy_codes.setdefault(f.code, []).append(f.line)
    report, _, _, failure = run_scan(fixed_tree / b.scan_path, fixed_tree)
    if report is None:
        res.failure = f"fixed scan: {failure}"
        return res
    res.still_at_fix = near(in_repo(report, fixed_tree), b.code, fixed_file, fixed_line)
    return res


def run_bugs(path: Path, names: list[str], jobs: int, json_out: str | None) -> int:
    if not path.exists():
        print(f"{path}: no known-bugs list (the known-bugs branch writes it)", file=sys.stderr)
        return 2
    bugs = [b for b in load_bugs(path) if selected(b.repo, names) or selected(b.id, names)]
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        results = list(pool.map(check_bug, bugs))
    _, scanner_path = scanner_env()
    print(f"physframe_ros from {scanner_path}; {len(bugs)} known bugs from {path}")
    print()
    for b, r in zip(bugs, results):
        if r.failure:
            status = f"FAILED: {r.failure}"
        else:
            status = ("FOUND" if r.found else "missed") + ("; STILL REPORTED at fix " if r.still_at_fix else "; gone at fix ") + r.fixed_place
            if not r.found and r.buggy_codes:
                status += "; in that file instead: " + ", ".join(f"{c} at {','.join(map(str, sorted(ls)[:6]))}" for c, ls in sorted(r.buggy_codes.items()))
        print(f"  {b.id:36} {b.repo:36} {b.code:28} {b.file}:{b.line}  {status}")
    measured = [r for r in results if not r.failure]
    found = sum(1 for r in measured if r.found)
    still = sum(1 for r in measured if r.still_at_fix)
    still_found = sum(1 for r in measured if r.found and r.still_at_fix)
    elsewhere = sum(1 for r in measured if not r.found and r.code in r.buggy_codes)
    print()
    print(f"TOTAL recall {found}/{len(measured)} ({pct(found, len(measured)).strip()}) of the measured bugs; "
          f"{len(results) - len(measured)} not measured (failures)")
    print(f"      missed, but the expected code is reported elsewhere in the same file: {elsewhere}")
    print(f"      still reported at the fixed commit: {still} (of them found at the buggy commit: {still_found})")
    if json_out:
        Path(json_out).write_text(json.dumps({"scanner": scanner_path, "bugs": [asdict(r) for r in results],
                                              "recall": [found, len(measured)], "still_at_fix": still}, indent=2))
    return 0


# --- main ---------------------------------------------------------------------------------------------
def selected(name: str, names: list[str]) -> bool:
    return not names or any(n.lower() in name.lower() for n in names)


def load_manifest(path: Path) -> list[Repo]:
    data = yaml.safe_load(path.read_text())
    return [Repo(str(e["repo"]), str(e["commit"]), str(e.get("kind", "")), int(e.get("ros", 0)), str(e.get("why", "")), str(e.get("set", "tuning")))
            for e in data["repos"]]


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--repo", action="append", default=[], metavar="NAME", help="only repositories (or bug ids) whose name contains NAME (repeatable)")
    p.add_argument("--jobs", "-j", type=int, default=2, help="repositories scanned at once (each scan runs one process; default 2)")
    p.add_argument("--json", metavar="OUT", help="also write the results as JSON")
    p.add_argument("--bugs", action="store_true", help="known-bugs mode: recall at the buggy commits, still-reported at the fixes")
    p.add_argument("--bugs-file", default=str(BUGS), metavar="FILE", help=f"known bugs list (default {BUGS.relative_to(HERE.parent)})")
    p.add_argument("--manifest", default=str(MANIFEST), metavar="FILE")
    p.add_argument("--judged", action="append", metavar="FILE", help="verdicts (repeatable; default: realworld/judged*.yaml)")
    args = p.parse_args()
    if args.bugs:
        return run_bugs(Path(args.bugs_file), args.repo, max(1, args.jobs), args.json)
    repos = [r for r in load_manifest(Path(args.manifest)) if selected(r.repo, args.repo)]
    judged = load_judged([Path(j) for j in args.judged] if args.judged else JUDGED)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = list(pool.map(scan_repo, repos))
    for r in results:
        apply_judgements(r, judged.get(r.repo, []))
    _, scanner_path = scanner_env()
    print_results(results, scanner_path)
    if args.json:
        rows = [asdict(r) | {"tf_heavy": r.tf_heavy, "coverage_failure": r.coverage_failure, "matched": sorted(r.matched)} for r in results]
        by_set = {name: totals([r for r in results if r.group == name]) for name in sorted({r.group for r in results})}
        Path(args.json).write_text(json.dumps({"scanner": scanner_path, "totals": totals(results), "totals_by_set": by_set, "repositories": rows}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
