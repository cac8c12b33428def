"""The cross-check: the live (or replayed) tree against the tree the sources declare.

The expected tree may hold several variants (robot models a launch argument or environment variable
chooses) and frame names with placeholders (``{namespace}base_link``). Matching picks the variant and
the placeholder bindings that best explain the live tree (most declared frames present, then fewest
absent) and reports against that variant only: a burger is not missing the waffle's camera. Each
finding names the declaring file:line and says what to change.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Sequence

from .expected import ExpectedTree, Variant
from .findings import Finding, Location
from .frame_patterns import NameSet, bind, bindings
from .rotations import quaternion_angle, quaternion_to_rpy
from .tree import Edge, frames_of, parents_by_child

TRANSLATION_TOLERANCE = 1e-3  # metres
ROTATION_TOLERANCE = 1e-3  # radians


@dataclass(frozen=True)
class VariantScore:
    name: str
    matched: int  # declared frames (bound) the live tree has
    missing: int  # declared frames it lacks
    bindings: tuple[tuple[tuple[str, str], ...], ...]

    @property
    def key(self) -> tuple[int, int]:
        return (self.matched, -self.missing)


@dataclass(frozen=True)
class Match:
    """The variant and bindings chosen for a live tree, with every variant's score."""

    variant: Variant
    bindings: tuple[tuple[tuple[str, str], ...], ...]
    scores: tuple[VariantScore, ...]

    def describe(self) -> str:
        """``variant 'robot.launch.py TURTLEBOT3_MODEL=burger' with namespace = 'robot1/', 'robot2/'`` (bindings
        to the empty prefix are not shown)."""
        text = f"variant '{self.variant.name}'"
        values: dict[str, list[str]] = {}
        for b in self.bindings:
            for var, value in b:
                values.setdefault(var, [])
                if value not in values[var]:
                    values[var].append(value)
        shown = {var: vs for var, vs in values.items() if vs != [""]}  # an empty prefix is the name as written
        if shown:
            text += " with " + "; ".join(f"{var} = {', '.join(repr(v) for v in vs)}" for var, vs in shown.items())
        return text


_CHOSEN: list[tuple[ExpectedTree, frozenset[str], Match]] = []  # the last few choices: a live tree rarely changes its frames
CHOSEN_KEPT = 4


def choose(expected: ExpectedTree, live_frames: set[str]) -> Match:
    """The variant (and its bindings) that best explains the live frames; the first on a tie.
    Remembered for the same expected tree and frames: the node evaluates the same tree every period."""
    key = frozenset(live_frames)
    for tree, frames, match in _CHOSEN:
        if tree is expected and frames == key:
            return match
    match = _choose(expected, live_frames)
    _CHOSEN.insert(0, (expected, key, match))
    del _CHOSEN[CHOSEN_KEPT:]
    return match


def _choose(expected: ExpectedTree, live_frames: set[str]) -> Match:
    best: tuple[Variant, VariantScore] | None = None
    scores = []
    for v in expected.candidates():
        names = frames_of(v.edges)
        found = bindings(names, live_frames)
        bound = {bind(n, b) for b in found for n in names}
        score = VariantScore(v.name, len(bound & live_frames), len(bound - live_frames), tuple(tuple(sorted(b.items())) for b in found))
        scores.append(score)
        if best is None or score.key > best[1].key:
            best = (v, score)
    assert best is not None  # candidates() is never empty
    return Match(best[0], best[1].bindings, tuple(scores))


def match_live(expected: ExpectedTree, live: Iterable[Edge]) -> tuple[Match, list[Finding]]:
    """The chosen variant and the findings against it."""
    live = list(live)
    match = choose(expected, set(frames_of(live)))
    return match, check_variant(expected, match, live)


def fold_into_conventions(tree_findings: list[Finding], crossed: list[Finding]) -> list[Finding]:
    """A static rotation that differs from its declaration and breaks an axis convention is one problem:
    the convention finding (INCORRECT_TRANSFORM) gets the declaring line and value, the value finding goes."""
    # its frames end with the edge: (parent, child), or (anchor, parent, child) through a chain
    broken = {f.frames[-2:]: i for i, f in enumerate(tree_findings) if f.code == "INCORRECT_TRANSFORM" and f.location is None}
    out = []
    for f in crossed:
        i = broken.get(f.frames[:2]) if f.code == "STATIC_VALUE_MISMATCH" else None
        if i is None:
            out.append(f)
            continue
        conv = tree_findings[i]
        tree_findings[i] = conv.with_(message=f"{conv.message}; {f.message}", location=f.location, details={**conv.details, **f.details})
    return out


def crosscheck(expected: ExpectedTree, live: Iterable[Edge]) -> list[Finding]:
    """Compare a live (or replayed) tree with the tree the sources declare."""
    return match_live(expected, live)[1]


def check_variant(expected: ExpectedTree, match: Match, live: list[Edge]) -> list[Finding]:
    """The findings of the live tree against one variant with its bindings."""
    live_frames = set(frames_of(live))
    declared = _instances(match)
    chosen = match.variant
    # frames other subsystems declare (they may run beside it); the chosen one's siblings are alternatives to it
    others = NameSet(e.child for v in expected.candidates()
                     if v is not chosen and (not chosen.subsystem or v.subsystem != chosen.subsystem) for e in v.edges)
    findings = [*_missing_frames(declared, live_frames), *_edge_findings(declared, live, live_frames),
                *_unexpected(declared, live, others)]
    named = match.describe()
    return [f.with_(details={**f.details, "variant": named}) for f in findings]


@dataclass(frozen=True)
class VariantDiff:
    """``physframe diff``: one variant against the live tree."""

    match: Match  # this variant with the bindings the live tree supports
    chosen: bool  # the variant matching picks
    agreeing: int  # declared edges the live tree has, with the declared parent and (static) value
    declared: int  # declared edges, bound
    findings: list[Finding]


def compare(expected: ExpectedTree, live: Iterable[Edge]) -> list[VariantDiff]:
    """Every variant against the live tree, the chosen one first."""
    live = list(live)
    picked = choose(expected, set(frames_of(live)))
    out = []
    for v, score in zip(expected.candidates(), picked.scores):
        match = Match(v, score.bindings, picked.scores)
        findings = check_variant(expected, match, live)
        declared = _instances(match)
        wrong = {f.frames[:2] for f in findings if f.code in ("STATIC_VALUE_MISMATCH", "EXPECTED_EDGE_MISSING")}
        wrong |= {(f.frames[1], f.frames[0]) for f in findings if f.code == "PARENT_MISMATCH"}
        live_pairs = {(e.parent, e.child) for e in live}
        agreeing = sum(1 for e in declared if (e.parent, e.child) in live_pairs and (e.parent, e.child) not in wrong)
        out.append(VariantDiff(match, v is picked.variant, agreeing, len(declared), findings))
    out.sort(key=lambda d: not d.chosen)
    return out


def _instances(match: Match) -> list[Edge]:
    """The chosen variant's edges with each binding applied (one copy per robot), each edge once."""
    out: dict[tuple[str, str], Edge] = {}
    for b in match.bindings or ((),):
        mapping = dict(b)
        for e in match.variant.edges:
            p, c = bind(e.parent, mapping), bind(e.child, mapping)
            out.setdefault((p, c), Edge(p, c, e.static, e.translation, e.rotation, e.sources, e.publishers))
    return list(out.values())


def _missing_frames(declared: list[Edge], live_frames: set[str]) -> list[Finding]:
    """One finding per absent frame, except that when every frame one file declares is absent (a
    camera's xacro whose driver is not running) they are one finding at that file."""
    declarer: dict[str, Edge] = {}
    for e in declared:
        declarer[e.child] = declarer.get(e.child) or e
    for e in declared:
        declarer.setdefault(e.parent, e)  # a root: declared where it is first used
    by_file: dict[str, list[str]] = {}
    for frame in frames_of(declared):
        loc = declarer[frame].location
        by_file.setdefault(loc.file if loc else "", []).append(frame)
    out = []
    for file, frames in by_file.items():
        absent = [f for f in frames if f not in live_frames]
        if file and len(frames) >= 2 and len(absent) == len(frames):
            locs = [loc for f in frames for loc in declarer[f].sources if loc.file == file]
            first = min(locs, key=lambda x: x.line or 0)
            out.append(Finding(
                "EXPECTED_FRAME_MISSING",
                f"{len(frames)} frames declared by {first} are absent: {', '.join(frames)}; no transform names any of them: "
                "is the node that publishes them running?", tuple(frames), first))
            continue
        for f in absent:
            e = declarer[f]
            out.append(Finding("EXPECTED_FRAME_MISSING", f"frame '{f}' is declared{_at(e)} but no transform names it", (f,), e.location))
    return out


def _edge_findings(declared: list[Edge], live: list[Edge], live_frames: set[str]) -> Iterable[Finding]:
    live_parents = parents_by_child(live)
    for e in declared:
        if e.child not in live_frames or e.parent not in live_frames:
            continue
        lp = live_parents.get(e.child, [])
        if not lp:
            yield Finding("EXPECTED_EDGE_MISSING",
                          f"transform {e.parent} -> {e.child} is declared{_at(e)} but '{e.child}' has no parent in the live tree",
                          (e.parent, e.child), e.location)
            continue
        same = [x for x in lp if x.parent == e.parent]
        if not same:
            got = ", ".join(sorted({x.parent for x in lp}))
            by = _by(lp)
            yield Finding(
                "PARENT_MISMATCH",
                f"'{e.child}' has parent '{got}' in the live tree{by} but is declared{_at(e)} as a child of '{e.parent}': "
                f"publish it under '{e.parent}', or change the declared parent to '{got}'",
                (e.child, e.parent, got), e.location, publishers=tuple(p for x in lp for p in x.publishers))
            continue
        mismatch = _value_mismatch(e, same[0])
        if mismatch:
            yield mismatch


def _unexpected(declared: list[Edge], live: list[Edge], others: NameSet) -> Iterable[Finding]:
    """Live edges the chosen variant does not declare and no other subsystem does either (an edge
    only a sibling variant declares is unexpected: that variant is not what runs)."""
    pairs = {(e.parent, e.child) for e in declared}
    children = {e.child for e in declared}
    for x in live:
        if (x.parent, x.child) in pairs or x.child in children or x.child in others:
            continue
        yield Finding("UNEXPECTED_EDGE", f"live transform {x.parent} -> {x.child}{_by([x])} is declared by no scanned source",
                      (x.parent, x.child), publishers=x.publishers)


def _at(e: Edge) -> str:
    return f" at {e.location}" if e.location else ""


def _by(edges: Sequence[Edge]) -> str:
    names = list(dict.fromkeys(p for x in edges for p in x.publishers))
    return f" (published by {', '.join(names)})" if names else ""


def _value_mismatch(expected: Edge, live: Edge) -> Finding | None:
    if not (expected.static and live.static):
        return None
    parts = []
    if expected.translation is not None and live.translation is not None:
        d = math.dist(expected.translation, live.translation)
        if d > TRANSLATION_TOLERANCE:
            parts.append(f"translation {_vec(live.translation)} where {_vec(expected.translation)} is declared ({d:.4g} m apart)")
    if expected.rotation is not None and live.rotation is not None:
        a = quaternion_angle(expected.rotation, live.rotation)
        if a > ROTATION_TOLERANCE:
            parts.append(f"rotation rpy {_vec(quaternion_to_rpy(live.rotation))} where rpy {_vec(quaternion_to_rpy(expected.rotation))} "
                         f"is declared ({math.degrees(a):.3g} deg apart)")
    if not parts:
        return None
    where = expected.location or Location("the declaration")
    return Finding(
        "STATIC_VALUE_MISMATCH",
        f"static transform {live.parent} -> {live.child}{_by([live])} has {' and '.join(parts)}{_at(expected)}: "
        f"change the publisher, or {where} if the robot is right",
        (live.parent, live.child),
        expected.location,
        publishers=live.publishers,
    )


def _vec(v: Iterable[float]) -> str:
    return "(" + ", ".join(_num(c) for c in v) + ")"


def _num(c: float) -> str:
    text = f"{c:.4f}".rstrip("0").rstrip(".")  # 0.1 mm, 1e-4 rad: below what a description writes
    return "0" if text in ("-0", "") else text
