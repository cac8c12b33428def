"""Mined implicit conventions (PhysFrame Appendix B) and the check that applies them to a tree.

A rule says "transforms parent -> child usually have no rotation" (``null_rotation``),
"... no displacement" (``null_displacement``) or "projects with A -> B usually also
have C -> D" (``co_occurrence``), with the z-score that measured how usual. File::

    format: physframe-mined-conventions
    version: 1
    p0: 0.9
    threshold: 1.0
    rules:
      - {kind: null_rotation, parent: map, child: odom, n: 13, e: 13, z: 1.2}
      - {kind: co_occurrence, parent: base_link, child: left_wheel,
         other_parent: base_link, other_child: right_wheel, n: 5, e: 5, z: 1.05}
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Iterable, Mapping

from .findings import Finding
from .tree import Edge
from .yamlfile import read_yaml

FORMAT = "physframe-mined-conventions"
VERSION = 1
KINDS = ("null_rotation", "null_displacement", "co_occurrence")
ZERO_ROTATION = 1e-6  # |qx|, |qy|, |qz| below this is no rotation (the data set's own definition)


class MinedConventionsError(ValueError):
    """The file is not a mined-conventions file this version reads; the message names it."""


@dataclass(frozen=True)
class MinedRule:
    kind: str
    parent: str
    child: str
    n: int
    e: int
    z: float
    other_parent: str = ""
    other_child: str = ""

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        if self.kind != "co_occurrence":
            del d["other_parent"], d["other_child"]
        d["z"] = round(self.z, 3)
        return d


def z_score(n: int, e: int, p0: float) -> float:
    """Engler et al.'s z: how far the observed ratio e/n sits above the expected p0."""
    return (e / n - p0) / math.sqrt(p0 * (1.0 - p0) / n)


def has_rotation(rotation: Iterable[float]) -> bool:
    x, y, z, _w = rotation
    return max(abs(x), abs(y), abs(z)) >= ZERO_ROTATION


def has_displacement(translation: Iterable[float]) -> bool:
    return any(v != 0.0 for v in translation)


def save_rules(rules: list[MinedRule], path: str | Path, p0: float, threshold: float, sources: list[str]) -> None:
    import yaml

    data = {
        "format": FORMAT,
        "version": VERSION,
        "p0": p0,
        "threshold": threshold,
        "sources": sources,
        "rules": [r.to_dict() for r in rules],
    }
    Path(path).write_text("# Implicit TF conventions mined by physframe mine\n" + yaml.safe_dump(data, sort_keys=False, width=120), encoding="utf-8")


def load_rules(path: str | Path) -> list[MinedRule]:
    data = read_yaml(path, MinedConventionsError)
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise MinedConventionsError(f"{path}: not a mined-conventions file (missing 'format: {FORMAT}')")
    try:
        rules = [MinedRule(**r) for r in data.get("rules") or ()]
    except TypeError as exc:
        raise MinedConventionsError(f"{path}: malformed rule: {exc}") from None
    bad = sorted({r.kind for r in rules} - set(KINDS))
    if bad:
        raise MinedConventionsError(f"{path}: unknown rule kinds {bad}; known: {list(KINDS)}")
    return rules


def check_mined(edges: Iterable[Edge], rules: Iterable[MinedRule]) -> list[Finding]:
    """Convention findings (info) where static edges break what most projects do."""
    edges = list(edges)
    by_pair = {(e.parent, e.child): e for e in edges}
    out: list[Finding] = []
    for r in rules:
        e = by_pair.get((r.parent, r.child))
        if e is None:
            continue
        how_usual = f"{r.e} of {r.n} projects (z = {r.z:.2f})"
        if r.kind == "null_rotation" and e.static and e.rotation is not None and has_rotation(e.rotation):
            out.append(
                Finding(
                    "NULL_ROTATION_EXPECTED",
                    f"{r.parent} -> {r.child} is rotated, but {how_usual} declare it with no rotation",
                    (r.parent, r.child),
                    e.location,
                )
            )
        elif r.kind == "null_displacement" and e.static and e.translation is not None and has_displacement(e.translation):
            out.append(
                Finding(
                    "NULL_DISPLACEMENT_EXPECTED",
                    f"{r.parent} -> {r.child} is displaced, but {how_usual} declare it with no displacement",
                    (r.parent, r.child),
                    e.location,
                )
            )
        elif r.kind == "co_occurrence" and (r.other_parent, r.other_child) not in by_pair:
            out.append(
                Finding(
                    "CO_OCCURRENCE_MISSING",
                    f"{r.parent} -> {r.child} is declared without {r.other_parent} -> {r.other_child}, which {how_usual} declare alongside it",
                    (r.parent, r.child, r.other_parent, r.other_child),
                    e.location,
                )
            )
    return out
