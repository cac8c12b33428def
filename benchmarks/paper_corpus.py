"""``physframe scan`` on the PhysFrame paper's corpus, beside the paper's own results (issue 11).

    .venv/bin/python benchmarks/paper_corpus.py [--project NAME]... [--jobs N] [--json OUT]
    .venv/bin/python benchmarks/paper_corpus.py --write-table SEED_TEXT   # regenerate the Table 6 data file
    .venv/bin/python benchmarks/paper_corpus.py --rejudge OUT.json         # reprint an earlier run with today's verdicts

The paper's artifact (github:anon-5SMHXS7Q/PhysFrame, fetched as a mirror under $PHYSFRAME_MIRRORS) holds
the evaluated projects as ``data/*.tar.gz`` (plus ``data/gps_umd`` as a plain folder). The artifact is
exported at a pinned commit into the cache of ``realworld.py``, each tarball is unpacked beside it, and each
project is scanned in its own process with the physframe_ros of the interpreter running this script
(``physframe scan --format json --jobs 1``; time is the command's wall time, start-up included, and the
start-up alone is printed as the baseline).

Printed per project: the paper's true and false positives (Table 6, ``paper_corpus_table6.csv``; a project
absent from Table 6 had none), our errors and warnings by code, time, failure; then the projects where the
paper found bugs and we report nothing, the count of those where we report at least one error, failures,
projects whose tarball the mirror lacks, and mean and max time.
"""

from __future__ import annotations

import argparse
import csv
import hashlib
import json
import re
import subprocess
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from realworld import MISSING_LIST, Found, export, found_of, judge_findings, load_judged, run_scan, scanner_env

ARTIFACT = "anon-5SMHXS7Q/PhysFrame"
ARTIFACT_COMMIT = "5870650af859447764717bfb5796f88d7c52a547"
TABLE6 = Path(__file__).resolve().parent / "paper_corpus_table6.csv"
JUDGED = Path(__file__).resolve().parent / "paper_corpus_judged.yaml"  # verdicts on our errors, keyed by project
SAMPLE_SEED = 12
# One project of Table 6: name, TP, FP, implicit warnings ("-", "0" or "a, b, c, d"), run time in s.
TABLE6_ROW = re.compile(r"(\S+) (\d+) (\d+) (-|\d+, \d+, \d+, \d+|\d+) (\d+)(?= |$)")


@dataclass
class PaperRow:
    tp: int
    fp: int
    implicit: str
    seconds: int


@dataclass
class ProjectResult:
    project: str
    paper_tp: int = 0
    paper_fp: int = 0
    paper_seconds: int | None = None
    seconds: float = 0.0
    failure: str = ""
    unavailable: bool = False  # the mirror lacks the tarball
    errors: dict[str, int] = field(default_factory=dict)
    warnings: dict[str, int] = field(default_factory=dict)
    error_findings: list[Found] = field(default_factory=list)

    @property
    def n_errors(self) -> int:
        return sum(self.errors.values())

    def verdicts(self, verdict: str | None) -> int:
        """Our errors with this verdict (None: not judged)."""
        return sum(f.verdict == verdict for f in self.error_findings)


# --- Table 6 ------------------------------------------------------------------------------------------
def parse_table6(text: str) -> dict[str, PaperRow]:
    """Table 6 of the paper as the seed text gives it: two projects per line, between its title and Appendix E."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("Table 6."))
    end = next(i for i, line in enumerate(lines) if line.startswith("Appendix E"))
    rows: dict[str, PaperRow] = {}
    for line in lines[start + 1:end]:
        line = line.split(" Total ")[0] if " Total " in line else ("" if line.startswith("Total") else line)
        for m in TABLE6_ROW.finditer(line):
            rows[m[1]] = PaperRow(int(m[2]), int(m[3]), m[4], int(m[5]))
    return rows


def write_table6(seed: Path, out: Path) -> None:
    rows = parse_table6(seed.read_text())
    with out.open("w", newline="") as fh:
        fh.write("# Table 6 of the PhysFrame paper (inconsistencies per project: true and false positives, implicit\n"
                 "# convention warnings for z=1,2,5,10 or '-' / '0', run time in s); projects absent had none.\n"
                 f"# Derived from the paper's text by benchmarks/paper_corpus.py --write-table: {len(rows)} projects, "
                 f"TP {sum(r.tp for r in rows.values())}, FP {sum(r.fp for r in rows.values())}.\n")
        w = csv.writer(fh)
        w.writerow(["project", "tp", "fp", "implicit_warnings", "runtime_s"])
        for name, r in rows.items():
            w.writerow([name, r.tp, r.fp, r.implicit, r.seconds])


def read_table6(path: Path) -> dict[str, PaperRow]:
    lines = [line for line in path.read_text().splitlines() if not line.startswith("#")]
    return {row["project"]: PaperRow(int(row["tp"]), int(row["fp"]), row["implicit_warnings"], int(row["runtime_s"])) for row in csv.DictReader(lines)}


# --- the corpus ---------------------------------------------------------------------------------------
def projects(tree: Path) -> tuple[dict[str, Path], list[str]]:
    """(project name -> tarball or folder, names whose tarball the mirror lacks)."""
    data = tree / "data"
    found = {p.name[: -len(".tar.gz")]: p for p in sorted(data.glob("*.tar.gz"))}
    found.update({p.name: p for p in sorted(data.iterdir()) if p.is_dir()})
    missing_list = tree / MISSING_LIST
    absent = [Path(line).name[: -len(".tar.gz")] for line in (missing_list.read_text().splitlines() if missing_list.exists() else [])
              if line.startswith("data/") and line.endswith(".tar.gz")]
    return found, absent


def unpacked(source: Path) -> Path:
    """The project's folder: a folder as it is, a tarball unpacked once beside the export."""
    if source.is_dir():
        return source
    dest = source.parent.parent / "unpacked" / source.name[: -len(".tar.gz")]
    if not dest.is_dir():
        dest.parent.mkdir(parents=True, exist_ok=True)
        tmp = Path(tempfile.mkdtemp(prefix=".unpack-", dir=dest.parent))
        # GNU tar drops leading '/' and refuses '..' members; no owners or modes from the archive.
        subprocess.run(["tar", "-xzf", str(source), "-C", str(tmp), "--no-same-owner", "--no-same-permissions"], check=True, capture_output=True)
        tmp.rename(dest)
    return dest


def scan_project(name: str, source: Path, paper: PaperRow | None) -> ProjectResult:
    res = ProjectResult(name, paper.tp if paper else 0, paper.fp if paper else 0, paper.seconds if paper else None)
    try:
        folder = unpacked(source)
    except (subprocess.CalledProcessError, OSError) as exc:
        res.failure = f"unpack failed: {getattr(exc, 'stderr', b'').decode(errors='replace').strip() or exc}"
        return res
    report, _, res.seconds, res.failure = run_scan(folder)
    for f in found_of(report or {}):
        bucket = res.errors if f.severity == "error" else res.warnings if f.severity == "warning" else None
        if bucket is not None:
            bucket[f.code] = bucket.get(f.code, 0) + 1
    res.error_findings = [f for f in found_of(report or {}) if f.severity == "error"]
    return res


def startup_seconds() -> float:
    with tempfile.TemporaryDirectory() as empty:
        _, _, seconds, _ = run_scan(Path(empty))
    return seconds


# --- verdicts -----------------------------------------------------------------------------------------
def judge(results: list[ProjectResult], path: Path) -> None:
    judged = load_judged([path])
    for r in results:
        judge_findings(r.error_findings, judged.get(r.project, []))


def print_sample(results: list[ProjectResult], size: int, seed: int) -> dict[str, object]:
    """A seeded random sample of our errors on the corpus, with their verdicts: the precision estimate.
    Each error draws a pseudo-random rank from the seed and its place (project, file, code, line); the
    lowest ranks are the sample, so a scanner change that adds or drops other errors keeps the rest of it."""
    pool = [(r.project, f) for r in results for f in r.error_findings]
    def rank(item: tuple[str, Found]) -> str:
        project, f = item
        return hashlib.sha256(f"{seed}:{project}:{f.file}:{f.code}:{f.line}".encode()).hexdigest()
    sample = sorted(pool, key=rank)[:size]
    print()
    print(f"sample of {len(sample)} of our {len(pool)} errors (seed {seed}), with their verdicts:")
    for project, f in sample:
        print(f"  {f.verdict or 'UNJUDGED':9} {project}/{f.file}:{f.line} {f.code}: {f.message[:150]}")
    n = [f for _, f in sample if f.verdict]
    t = sum(f.verdict == "true" for f in n)
    td = sum(f.verdict in ("true", "debatable") for f in n)
    strict = f"{100 * t / len(n):.1f}%" if n else "-"
    lenient = f"{100 * td / len(n):.1f}%" if n else "-"
    print(f"  judged {len(n)} of {len(sample)}: true {t}, debatable {td - t}, false {len(n) - td}; precision strict {strict}, lenient {lenient}")
    return {"sample": len(sample), "sample_judged": len(n), "sample_true": t, "sample_true_or_debatable": td}


# --- printing -----------------------------------------------------------------------------------------
def codes(counts: dict[str, int]) -> str:
    return " ".join(f"{c}:{n}" for c, n in sorted(counts.items())) or "-"


def print_results(results: list[ProjectResult], not_in_corpus: list[str], startup: float) -> dict[str, object]:
    print("judged = our errors judged true / false / debatable / not judged (paper_corpus_judged.yaml)")
    print(f"{'project':58} {'paperTP':>7} {'paperFP':>7} {'sec':>6} {'judged':>11}  our errors | our warnings")
    for r in results:
        status = f"{codes(r.errors)} | {codes(r.warnings)}"
        if r.unavailable or r.failure:
            status = "UNAVAILABLE (blob absent from the mirror)" if r.unavailable else f"FAILED: {r.failure}"
        judged = f"{r.verdicts('true')}/{r.verdicts('false')}/{r.verdicts('debatable')}/{r.verdicts(None)}" if r.error_findings else "-"
        print(f"{r.project:58} {r.paper_tp:7} {r.paper_fp:7} {r.seconds:6.2f} {judged:>11}  {status}")
    scanned = [r for r in results if not r.unavailable and not r.failure]
    buggy = [r for r in results if r.paper_tp > 0]
    buggy_scanned = [r for r in buggy if r in scanned]
    silent = [r for r in buggy_scanned if not r.errors and not r.warnings]
    with_error = [r for r in buggy_scanned if r.errors]
    times = [r.seconds for r in scanned]
    all_errors: Counter[str] = Counter()
    all_warnings: Counter[str] = Counter()
    for r in scanned:
        all_errors.update(r.errors)
        all_warnings.update(r.warnings)
    print()
    print(f"projects where the paper found bugs (TP >= 1) and we report nothing ({len(silent)}):")
    for r in silent:
        print(f"  {r.project} (paper TP {r.paper_tp})")
    unavailable = [r.project for r in results if r.unavailable]
    failures = [r.project for r in results if r.failure]
    totals = {
        "projects": len(results), "scanned": len(scanned), "unavailable": unavailable, "failures": failures,
        "paper_buggy_projects": len(buggy), "paper_buggy_scanned": len(buggy_scanned),
        "paper_buggy_with_our_error": len(with_error), "paper_buggy_with_nothing": len(silent),
        "our_errors": dict(all_errors), "our_warnings": dict(all_warnings),
        "projects_with_our_error": sum(1 for r in scanned if r.errors),
        "mean_seconds": sum(times) / len(times) if times else 0.0, "max_seconds": max(times, default=0.0),
        "max_project": max(scanned, key=lambda r: r.seconds).project if scanned else "",
        "startup_seconds": startup,
        "table6_not_in_corpus": not_in_corpus,
    }
    print()
    print("TOTAL")
    print(f"  projects {len(results)}: scanned {len(scanned)}, failures {len(failures)} {failures or ''}, "
          f"unavailable {len(unavailable)} {unavailable or ''}")
    print(f"  our errors {sum(all_errors.values())} ({codes(dict(all_errors))}) in {totals['projects_with_our_error']} projects; "
          f"warnings {sum(all_warnings.values())} ({codes(dict(all_warnings))})")
    print(f"  paper: TP >= 1 in {len(buggy)} projects ({len(buggy_scanned)} of them scanned here); we report >= 1 error in "
          f"{len(with_error)} of those, nothing at all in {len(silent)}")
    with_true = [r for r in with_error if r.verdicts("true")]
    unjudged = [r for r in with_error if not r.verdicts("true") and r.verdicts(None)]
    judged_not_true = [r for r in with_error if not r.verdicts("true") and not r.verdicts(None)]
    totals.update({"paper_buggy_with_true_error": len(with_true), "paper_buggy_error_unjudged": [r.project for r in unjudged],
                   "paper_buggy_error_none_true": [r.project for r in judged_not_true]})
    print(f"  of those {len(with_error)}: a true error (judged) in {len(with_true)}; errors none judged true, some not judged in "
          f"{len(unjudged)} {[r.project for r in unjudged] or ''}; every error judged and none true in {len(judged_not_true)} "
          f"{[r.project for r in judged_not_true] or ''}")
    print(f"  time per project: mean {totals['mean_seconds']:.2f} s, max {totals['max_seconds']:.2f} s ({totals['max_project']}); "
          f"start-up of an empty scan {startup:.2f} s (the paper: mean 52 s, max 1190 s)")
    if not_in_corpus:
        print(f"  Table 6 projects with no tarball in the artifact: {not_in_corpus}")
    return totals


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--project", action="append", default=[], metavar="NAME", help="only projects whose name contains NAME (repeatable)")
    p.add_argument("--jobs", "-j", type=int, default=2, help="projects scanned at once (default 2)")
    p.add_argument("--json", metavar="OUT", help="also write the results as JSON")
    p.add_argument("--rejudge", metavar="JSON", help="print again from a --json file of an earlier run, with the verdicts as they are now (no scan)")
    p.add_argument("--judged", default=str(JUDGED), help=f"verdicts on our errors (default {JUDGED.name})")
    p.add_argument("--sample", type=int, default=30, help="errors drawn at random for judging (default 30)")
    p.add_argument("--seed", type=int, default=SAMPLE_SEED, help=f"seed of that draw (default {SAMPLE_SEED})")
    p.add_argument("--commit", default=ARTIFACT_COMMIT, help="artifact commit (default: the pinned one)")
    p.add_argument("--write-table", metavar="SEED_TEXT", help=f"parse Table 6 from the paper's text into {TABLE6.name} and exit")
    args = p.parse_args()
    if args.write_table:
        write_table6(Path(args.write_table), TABLE6)
        print(f"wrote {TABLE6}")
        return 0
    table = read_table6(TABLE6)
    if args.rejudge:
        earlier = json.loads(Path(args.rejudge).read_text())
        results = [ProjectResult(**{**r, "error_findings": [Found(**f) for f in r["error_findings"]]}) for r in earlier["projects"]]
        judge(results, Path(args.judged))
        print(f"physframe_ros from {earlier['scanner']} (results of an earlier run: {args.rejudge})")
        print_results(results, earlier["totals"]["table6_not_in_corpus"], earlier["totals"]["startup_seconds"])
        print_sample(results, args.sample, args.seed)
        return 0
    try:
        tree = export(ARTIFACT, args.commit)
    except RuntimeError as exc:
        print(f"paper_corpus: {exc}", file=sys.stderr)
        return 2
    found, absent = projects(tree)
    names = sorted(set(found) | set(absent), key=str.lower)
    not_in_corpus = sorted(set(table) - set(names))
    names = [n for n in names if not args.project or any(s.lower() in n.lower() for s in args.project)]
    _, scanner_path = scanner_env()
    startup = startup_seconds()
    print(f"physframe_ros from {scanner_path}; PhysFrame artifact {args.commit[:12]}: {len(names)} projects")
    print()
    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = {n: pool.submit(scan_project, n, found[n], table.get(n)) for n in names if n in found}
    results = []
    for n in names:
        if n in futures:
            results.append(futures[n].result())
        else:
            paper = table.get(n)
            results.append(ProjectResult(n, paper.tp if paper else 0, paper.fp if paper else 0, paper.seconds if paper else None, unavailable=True))
    judge(results, Path(args.judged))
    totals = print_results(results, not_in_corpus, startup)
    totals.update(print_sample(results, args.sample, args.seed))
    print(f"  wall time of the whole run: {time.perf_counter() - t0:.1f} s with {args.jobs} at once")
    if args.json:
        Path(args.json).write_text(json.dumps({"scanner": scanner_path, "totals": totals, "projects": [asdict(r) for r in results]}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
