"""Mine null-rotation, null-displacement and co-occurrence conventions from a table of static transforms.

Counting is per project, not per row: a repository that repeats one declaration in
eighteen launch files is one observation (see shared/data/README.md, "Caveats").
"""

from __future__ import annotations

import csv
import math
from collections import defaultdict
from dataclasses import dataclass
from itertools import permutations
from pathlib import Path
from typing import Iterable

from ..core.mined import MinedRule, has_displacement, has_rotation, z_score

REQUIRED = ("repo", "parent", "child", "x", "y", "z", "qx", "qy", "qz", "qw")
EXAMPLE_PATH_WORDS = ("test", "demo", "example", "sample", "tutorial")


class MineError(ValueError):
    """A table the miner cannot read; the message names the file and row."""


@dataclass(frozen=True)
class Observation:
    project: str
    parent: str
    child: str
    rotated: bool
    displaced: bool


def read_csv(path: str | Path, skip_examples: bool = False) -> list[Observation]:
    """Rows of a static-transform table (columns as in shared/data/static_transforms.csv)."""
    out = []
    try:
        with open(path, newline="", encoding="utf-8") as fh:
            reader = csv.DictReader(fh)
            missing = [c for c in REQUIRED if c not in (reader.fieldnames or ())]
            if missing:
                raise MineError(f"{path}: missing columns {', '.join(missing)}")
            for line, row in enumerate(reader, start=2):
                if skip_examples and any(w in row.get("file", "").lower() for w in EXAMPLE_PATH_WORDS):
                    continue
                try:
                    t = [float(row[k]) for k in ("x", "y", "z")]
                    q = [float(row[k]) for k in ("qx", "qy", "qz", "qw")]
                except ValueError:
                    raise MineError(f"{path}:{line}: non-numeric transform value") from None
                if not all(math.isfinite(v) for v in t + q):
                    raise MineError(f"{path}:{line}: NaN or infinite transform value")
                out.append(Observation(row["repo"], row["parent"].lstrip("/"), row["child"].lstrip("/"), has_rotation(q), has_displacement(t)))
    except OSError as exc:
        raise MineError(f"{path}: cannot read: {exc.strerror}") from None
    return out


def mine(observations: Iterable[Observation], p0: float = 0.9, threshold: float = 1.0, min_support: int = 3) -> list[MinedRule]:
    """Rules whose z-score exceeds ``threshold``, strongest first.

    A project counts once per (parent, child); it supports "no rotation" only when
    none of its declarations of that pair is rotated.
    """
    rotated: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
    displaced: dict[tuple[str, str], dict[str, bool]] = defaultdict(dict)
    pairs_of: dict[str, set[tuple[str, str]]] = defaultdict(set)
    for o in observations:
        sig = (o.parent, o.child)
        rotated[sig][o.project] = rotated[sig].get(o.project, False) or o.rotated
        displaced[sig][o.project] = displaced[sig].get(o.project, False) or o.displaced
        pairs_of[o.project].add(sig)
    rules: list[MinedRule] = []

    def consider(kind: str, sig: tuple[str, str], n: int, e: int, other: tuple[str, str] = ("", "")) -> None:
        if n >= min_support:
            z = z_score(n, e, p0)
            if z > threshold:
                rules.append(MinedRule(kind, sig[0], sig[1], n, e, z, other[0], other[1]))

    for sig, projects in rotated.items():
        n = len(projects)
        consider("null_rotation", sig, n, sum(1 for r in projects.values() if not r))
        consider("null_displacement", sig, n, sum(1 for d in displaced[sig].values() if not d))
    projects_with: dict[tuple[str, str], set[str]] = defaultdict(set)
    for project, sigs in pairs_of.items():
        for sig in sigs:
            projects_with[sig].add(project)
    frequent = [s for s, p in projects_with.items() if len(p) >= min_support]
    for a, b in permutations(frequent, 2):
        n = len(projects_with[a])
        consider("co_occurrence", a, n, len(projects_with[a] & projects_with[b]), b)
    rules.sort(key=lambda r: (-r.z, r.kind, r.parent, r.child, r.other_parent, r.other_child))
    return rules
