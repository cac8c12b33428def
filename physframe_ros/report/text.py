"""Plain-text reports for terminals and CI logs."""

from __future__ import annotations

import os
import sys
from collections import defaultdict
from pathlib import Path
from typing import Callable, Iterable, Sequence, TextIO

from ..core.findings import Finding, Severity, sort_findings
from ..core.printable import printable
from ..core.report import summary_line

_COLOURS = {Severity.ERROR: "\033[31m", Severity.WARNING: "\033[33m", Severity.INFO: "\033[36m"}
_RESET = "\033[0m"


def use_colour(stream: TextIO) -> bool:
    return hasattr(stream, "isatty") and stream.isatty() and "NO_COLOR" not in os.environ


def severity_label(level: Severity, colour: bool) -> str:
    text = level.value.upper()
    return f"{_COLOURS[level]}{text}{_RESET}" if colour else text


def format_time_findings(findings: Iterable[Finding], colour: bool = False, origin: float = 0.0) -> str:
    """Live and replay findings: most severe first, each with the time it was active (relative to ``origin``)."""
    lines = []
    for f in sort_findings(findings):
        when = ""
        if f.time is not None:
            first, last = f.time.first - origin, f.time.last - origin
            when = f" [t={first:.3f}" + (f"..{last:.3f}" if last != first else "") + f", x{f.time.count}]"
        pubs = f" (publishers: {', '.join(f.publishers)})" if f.publishers else ""
        lines.append(f"{severity_label(f.level, colour)} {f.code}{when}: {printable(f.message + pubs)}")
    lines.append(summary_line(findings))
    return "\n".join(lines) + "\n"


def format_source_findings(findings: Iterable[Finding], source_lines: Callable[[str], Sequence[str]] | None = None,
                           colour: bool = False) -> str:
    """Scan findings grouped by file, each with its source line and a caret under the column.
    ``source_lines``: the lines of a file named by a finding (the scanner's own reader: only files it
    would read, within its limits); no source lines without it."""
    by_file: dict[str, list[Finding]] = defaultdict(list)
    findings = list(findings)
    for f in sort_findings(findings):
        by_file[f.location.file if f.location else ""].append(f)
    out = []
    for file in sorted(by_file, key=lambda x: (x == "", x)):
        out.append(printable(file) if file else "(no source location)")
        lines = source_lines(file) if source_lines is not None and file else []
        for f in sorted(by_file[file], key=lambda x: (x.location.line or 0) if x.location else 0):
            where = f"{f.location.line}" if f.location and f.location.line else "-"
            if f.location and f.location.column:
                where += f":{f.location.column}"
            out.append(f"  {where}: {severity_label(f.level, colour)} {f.code}: {printable(f.message)}")
            line_no = f.location.line if f.location else None
            src = lines[line_no - 1].rstrip("\r\n").expandtabs(4) if line_no and 0 < line_no <= len(lines) else ""
            if src.strip() and src.isprintable() and "\ufffd" not in src:  # binary "lines" would garble the terminal
                out.append(f"      {src}")
                col = (f.location.column or 0) if f.location else 0
                indent = col - 1 if col else len(src) - len(src.lstrip())
                out.append("      " + " " * max(indent, 0) + "^")
        out.append("")
    out.append(summary_line(findings))
    return "\n".join(out) + "\n"


def write_text(text: str, output: str | None) -> None:
    if output and output != "-":
        Path(output).write_text(text, encoding="utf-8")
    else:
        sys.stdout.write(text)
