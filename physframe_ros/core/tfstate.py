"""The state of a TF stream (live /tf or a bag) and its evaluation into findings.

Both the monitor node and ``physframe replay`` feed transforms in with the time
they were received (ROS clock or bag time) and call ``evaluate(now)``
periodically. Memory is one record per edge and per distinct problem, whatever
the number of messages, and the number of edges is bounded too: a dynamic edge
silent for ``evict_after`` is forgotten (its counts kept in aggregate), at most
``max_edges`` are tracked (TOO_MANY_EDGES when a new one would pass that), and
new frame names that keep appearing (ids or timestamps in names) are FRAME_CHURN.
"""

from __future__ import annotations

import math
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable

from .checks import check_tree, transform_findings
from .conventions import Conventions
from .crosscheck import Match, fold_into_conventions, match_live
from .expected import ExpectedTree
from .findings import Finding, TimeSpan
from .rotations import DEFAULT_TOLERANCE
from .tfmessage import Transform, decode_cdr, decode_ros1
from .tree import Edge

MAX_PUBLISHERS_PER_EDGE = 8
# held back for ``expected_grace`` after the first transform: the robot's publishers start one by one
GRACE_CODES = frozenset({"EXPECTED_FRAME_MISSING", "EXPECTED_EDGE_MISSING"})
# FRAME_CHURN: at least CHURN_NAMES new edges in each of CHURN_WINDOWS consecutive windows of
# CHURN_WINDOW seconds. A robot starting up brings all its frames within one or two windows;
# names with ids or timestamps in them keep coming window after window.
CHURN_WINDOW = 10.0
CHURN_NAMES = 10
CHURN_WINDOWS = 3
CHURN_EXAMPLES = 5


@dataclass(frozen=True)
class StateConfig:
    """Timing thresholds (seconds of the stream's own clock)."""

    edge_timeout: float = 1.0  # a dynamic edge counts as current for this long after its last message
    stale_timeout: float = 1.0  # an established dynamic edge silent this long (and 5 periods) is stale
    established_after: float = 1.0  # an edge published over a shorter span is a transient, never stale
    future_tolerance: float = 0.5  # stamps further ahead than this are FUTURE_TIMESTAMP
    old_threshold: float = 10.0  # stamps older than this are OLD_TIMESTAMP (tf2's default cache time)
    event_hold: float = 2.0  # a per-message problem stays active this long after it was last seen
    tolerance: float = DEFAULT_TOLERANCE  # radians, for the orthogonal rotation abstraction
    evict_after: float = 300.0  # a dynamic edge silent this long is forgotten (counted in evicted_edges)
    max_edges: int = 10_000  # edges tracked at most; past it the longest-silent dynamic ones make room

    def __post_init__(self) -> None:
        for name, value in self.__dict__.items():
            if not (isinstance(value, (int, float)) and value >= 0 and math.isfinite(value)):
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        if self.max_edges < 1:
            raise ValueError(f"max_edges must be at least 1, got {self.max_edges!r}")


@dataclass(slots=True)
class EdgeStats:
    """One parent -> child edge as seen on one kind of topic (static or dynamic)."""

    parent: str
    child: str
    static: bool
    values: tuple[float, ...]
    first_receive: float
    last_receive: float
    last_stamp: float
    count: int = 1
    delay_sum: float = 0.0
    delay_max: float = -math.inf
    gap_max: float = 0.0
    first_stamp: float = math.nan  # with last_stamp: the time interval tf2 can serve over this edge
    changes: int = 0  # static edges: how often a new message changed the value
    publishers: set[Hashable] = field(default_factory=set)
    topics: set[str] = field(default_factory=set)
    # the Edge last built from this record; reused while values and publisher names stay the same
    edge: Edge | None = None

    @property
    def mean_interval(self) -> float | None:
        if self.count < 2:
            return None
        return (self.last_receive - self.first_receive) / (self.count - 1)

    @property
    def rate(self) -> float | None:
        iv = self.mean_interval
        return 1.0 / iv if iv else None

    def to_dict(self, now: float, name_of: Callable[[Hashable], str] = str) -> dict[str, Any]:
        """tf2_monitor-style statistics (static edges are reported as static, not as a rate)."""
        out: dict[str, Any] = {
            "parent": self.parent,
            "child": self.child,
            "static": self.static,
            "messages": self.count,
            "first_receive": round(self.first_receive, 6),
            "last_receive": round(self.last_receive, 6),
            "topics": sorted(self.topics),
            "publishers": sorted(name_of(p) for p in self.publishers),
        }
        if self.static:
            out["pattern"] = "static"
            return out
        rate = self.rate
        out["rate_hz"] = round(rate, 3) if rate else None
        out["delay_mean"] = round(self.delay_sum / self.count, 6)
        out["delay_max"] = round(self.delay_max, 6)
        out["gap_max"] = round(self.gap_max, 6)
        iv = self.mean_interval
        if iv is None:
            out["pattern"] = "single message"
        elif now - self.last_receive > max(5 * iv, 1.0):
            out["pattern"] = "stopped"
        elif self.gap_max > 5 * iv:
            out["pattern"] = "bursty"
        else:
            out["pattern"] = "periodic"
        return out


@dataclass(slots=True)
class _Event:
    finding: Finding
    first: float
    last: float
    count: int = 1


class TfState:
    """Ingest transforms as they arrive; ``evaluate(now)`` gives the findings active at ``now``."""

    def __init__(self, conventions: Conventions | None = None, config: StateConfig | None = None) -> None:
        self.conventions = conventions or Conventions()
        self.config = config or StateConfig()
        self.edges: dict[tuple[str, str, bool], EdgeStats] = {}
        self._events: dict[tuple[Any, ...], _Event] = {}
        self.transforms_received = 0
        self.messages_received = 0
        self.invalid_transforms = 0
        self.decode_errors = 0
        self.first_receive: float | None = None  # when the first valid transform arrived
        self.last_snapshot: list[Edge] = []
        self.expected_match: Match | None = None  # the expected variant the last evaluation chose
        # bounds: what was forgotten or refused, in aggregate
        self.evicted_edges = 0
        self.evicted_messages = 0
        self.refused_edges = 0  # new edges not tracked: max_edges reached and none silent to make room
        self._limit_hit: tuple[float, float] | None = None  # (first, last) time max_edges was reached
        self._next_evict = -math.inf
        self._full_until = -math.inf
        # FRAME_CHURN: new edges per CHURN_WINDOW bucket, the last few, and how many in all
        self._new_edges: deque[list[int]] = deque(maxlen=CHURN_WINDOWS + 1)  # [bucket, count]
        self._new_names: deque[str] = deque(maxlen=CHURN_EXAMPLES)
        self.new_edges_total = 0
        self.lost_messages: dict[str, int] = {}  # topic -> messages the transport says it lost
        self._lost_last: tuple[float, float] | None = None

    # --- ingestion ---------------------------------------------------------------------
    def ingest_cdr(self, data: bytes, receive_time: float, static: bool, publisher: Hashable = None, topic: str = "/tf") -> None:
        """A raw CDR TFMessage as an rclpy ``raw=True`` subscription or rosbag2 delivers it."""
        self.add_transforms(decode_cdr(data), receive_time, static, publisher, topic)

    def ingest_ros1(self, data: bytes, receive_time: float, static: bool, publisher: Hashable = None, topic: str = "/tf") -> None:
        self.add_transforms(decode_ros1(data), receive_time, static, publisher, topic)

    def add_transforms(self, transforms: Iterable[Transform], receive_time: float, static: bool, publisher: Hashable = None, topic: str = "/tf") -> None:
        """The per-message hot path: cheap checks inline, the thorough ones on new edges only."""
        self.messages_received += 1
        edges = self.edges
        future_tol = self.config.future_tolerance
        old_thr = self.config.old_threshold
        n = 0
        for parent, child, stamp, values in transforms:
            n += 1
            e = edges.get((parent, child, static))
            tx, ty, tz, qx, qy, qz, qw = values
            s = tx + ty + tz
            q2 = qx * qx + qy * qy + qz * qz + qw * qw
            if e is None or s - s != 0.0 or not (-0.01 < q2 - 1.0 < 0.01):
                e = self._first_or_invalid(parent, child, stamp, values, static, receive_time, publisher, topic)
                if e is None:
                    continue
            else:
                gap = receive_time - e.last_receive
                if gap > e.gap_max:
                    e.gap_max = gap
                e.count += 1
                if not static and stamp == e.last_stamp:
                    self._event("REPEATED_DATA", (parent, child), receive_time, publisher, stamp)
                elif static and values != e.values:
                    e.changes += 1
                e.values = values
                e.last_receive = receive_time
                e.last_stamp = stamp
                if publisher not in e.publishers and len(e.publishers) < MAX_PUBLISHERS_PER_EDGE:
                    e.publishers.add(publisher)
                if topic not in e.topics:
                    e.topics.add(topic)
            if not static:
                delay = receive_time - stamp
                e.delay_sum += delay
                if delay > e.delay_max:
                    e.delay_max = delay
                if delay < -future_tol:
                    self._event("FUTURE_TIMESTAMP", (parent, child), receive_time, publisher, -delay)
                elif delay > old_thr:
                    self._event("OLD_TIMESTAMP", (parent, child), receive_time, publisher, delay)
        self.transforms_received += n

    def _first_or_invalid(
        self,
        parent: str,
        child: str,
        stamp: float,
        values: tuple[float, ...],
        static: bool,
        now: float,
        publisher: Hashable,
        topic: str,
    ) -> EdgeStats | None:
        """A transform for a new edge, or one with bad values: run the full per-transform checks."""
        problems = transform_findings(parent, child, values[:3], values[3:], what=f"transform on {topic}")
        dropped = False
        for f in problems:
            self._events_add(f, now, publisher)
            if f.code != "INVALID_FRAME_ID":
                dropped = True  # tf2 drops these; it only rewrites invalid ids
        if dropped:
            self.invalid_transforms += 1
            return None
        if len(self.edges) >= self.config.max_edges and (now < self._full_until or not self._make_room(now)):
            self.refused_edges += 1
            return None
        e = EdgeStats(parent, child, static, values, now, now, stamp, first_stamp=stamp, publishers={publisher}, topics={topic})
        self.edges[(parent, child, static)] = e
        if self.first_receive is None:
            self.first_receive = now
        self._count_new(child, now)
        return e

    def _count_new(self, child: str, now: float) -> None:
        self.new_edges_total += 1
        self._new_names.append(child)
        bucket = math.floor(now / CHURN_WINDOW)
        buckets = self._new_edges
        if buckets and buckets[-1][0] == bucket:
            buckets[-1][1] += 1
        else:
            buckets.append([bucket, 1])

    def _make_room(self, now: float) -> bool:
        """max_edges reached: forget the longest-silent quarter of the dynamic edges no longer in the tree.
        A scan for every max_edges / 4 new edges keeps the cost per new edge small."""
        first = self._limit_hit[0] if self._limit_hit else now
        self._limit_hit = (first, now)
        window = self.config.edge_timeout
        quiet = [e for e in self.edges.values() if not e.static and not self._alive(e, now, window)]
        if not quiet:  # every edge is current: refuse new ones for a moment rather than scan again for each
            self._full_until = now + window / 10
            return False
        quiet.sort(key=lambda e: e.last_receive)
        for e in quiet[: max(1, self.config.max_edges // 4)]:
            self._forget(e)
        return True

    def _forget(self, e: EdgeStats) -> None:
        del self.edges[(e.parent, e.child, e.static)]
        self.evicted_edges += 1
        self.evicted_messages += e.count

    def _evict(self, now: float) -> None:
        """Forget dynamic edges silent for evict_after; run every tenth of it, not every evaluation."""
        after = self.config.evict_after
        if now < self._next_evict:
            return
        self._next_evict = now + after / 10
        gone = [e for e in self.edges.values() if not e.static and now - e.last_receive > after]
        for e in gone:
            self._forget(e)
        if len(gone) > len(self.edges):
            self.edges = dict(self.edges)  # a dict never shrinks its table; a copy is sized for what is left

    def messages_lost(self, topic: str, count: int, now: float) -> None:
        """The transport reports ``count`` more messages on ``topic`` lost before they reached us."""
        if count <= 0:
            return
        self.lost_messages[topic] = self.lost_messages.get(topic, 0) + count
        self._lost_last = (self._lost_last[0] if self._lost_last else now, now)

    def _event(self, code: str, frames: tuple[str, ...], now: float, publisher: Hashable, amount: float) -> None:
        key = (code, frames)
        ev = self._events.get(key)
        if ev is not None:
            ev.last = now
            ev.count += 1
            return
        parent, child = frames
        if code == "REPEATED_DATA":
            msg = f"transform {parent} -> {child} was published again with the same stamp ({amount:.3f} s); tf2 drops the repeat"
        elif code == "FUTURE_TIMESTAMP":
            msg = f"transform {parent} -> {child} is stamped {amount:.2f} s ahead of the receiver's clock; check the publisher's clock, or use_sim_time"
        else:
            msg = f"transform {parent} -> {child} is stamped {amount:.2f} s behind the receiver's clock; tf2 discards data older than its 10 s cache"
        self._events_add(Finding(code, msg, frames), now, publisher)

    def _events_add(self, finding: Finding, now: float, publisher: Hashable) -> None:
        key = (finding.code, finding.frames)
        ev = self._events.get(key)
        if ev is None:
            self._events[key] = _Event(finding.with_(publishers=(publisher,)) if publisher is not None else finding, now, now)
        else:
            ev.last = now
            ev.count += 1

    # --- evaluation ----------------------------------------------------------------------
    def _alive(self, e: EdgeStats, now: float, window: float) -> bool:
        if e.static:
            return True
        iv = e.mean_interval or 0.0
        return now - e.last_receive <= max(window, 3.0 * iv)

    def _established(self, e: EdgeStats) -> bool:
        return e.count >= 3 and e.last_receive - e.first_receive >= self.config.established_after

    def current_edges(self, now: float, window: float | None = None) -> tuple[list[EdgeStats], list[EdgeStats]]:
        """(edges in the tree now, established dynamic edges that went silent with nothing replacing them)."""
        window = self.config.edge_timeout if window is None else window
        alive: list[EdgeStats] = []
        quiet: list[EdgeStats] = []  # dynamic only: static edges are always alive
        for e in self.edges.values():
            (alive if self._alive(e, now, window) else quiet).append(e)
        has_alive_parent = {e.child for e in alive}
        silent: dict[str, EdgeStats] = {}
        for e in quiet:
            if e.child in has_alive_parent or not self._established(e):
                continue
            best = silent.get(e.child)
            if best is None or e.last_receive > best.last_receive:
                silent[e.child] = e  # tf2 keeps the last parent it heard of
        return alive, list(silent.values())

    def snapshot(self, now: float, window: float | None = None, name_of: Callable[[Hashable], str] = str) -> list[Edge]:
        """The tree as a tf2 listener holds it at ``now``, one Edge per parent -> child."""
        return self._snapshot(*self.current_edges(now, window), name_of)

    def _snapshot(self, alive: list[EdgeStats], silent: list[EdgeStats], name_of: Callable[[Hashable], str]) -> list[Edge]:
        merged: dict[tuple[str, str], Edge] = {}
        names: dict[Hashable, str] = {}  # one name_of call per publisher, not per edge
        # static first: where an edge is on both topics, the tree shows its static value
        for e in sorted(alive + silent, key=lambda x: not x.static):
            pubs = set()
            for p in e.publishers:
                if p is not None:
                    name = names.get(p)
                    if name is None:
                        name = names[p] = name_of(p)
                    pubs.add(name)
            old = merged.get((e.parent, e.child))
            if old is not None:
                merged[(e.parent, e.child)] = Edge(old.parent, old.child, True, old.translation, old.rotation, (), tuple(sorted(pubs | set(old.publishers))))
                continue
            v = e.values
            edge = e.edge
            names_now = tuple(sorted(pubs))
            if edge is None or edge.publishers != names_now or edge.translation != v[:3] or edge.rotation != v[3:]:
                edge = e.edge = Edge(e.parent, e.child, e.static, (v[0], v[1], v[2]), (v[3], v[4], v[5], v[6]), (), names_now)
            merged[(e.parent, e.child)] = edge
        return list(merged.values())

    def evaluate(
        self,
        now: float,
        window: float | None = None,
        name_of: Callable[[Hashable], str] = str,
        expected: ExpectedTree | None = None,
        expected_grace: float = 0.0,
    ) -> list[Finding]:
        """Every finding active at ``now`` (stream clock), with publishers named by ``name_of``;
        with ``expected``, also where the tree departs from what the sources declare, except that
        expected frames and edges are not reported missing before ``expected_grace`` seconds after
        the first transform (nor before any, when a grace is given).
        The tree it checked is left in ``last_snapshot``."""
        window = self.config.edge_timeout if window is None else window
        self._evict(now)
        alive, silent = self.current_edges(now, window)
        edges = self.last_snapshot = self._snapshot(alive, silent, name_of)
        findings = check_tree(edges, self.conventions, self.config.tolerance)
        if expected is not None:
            waiting = expected_grace > 0 and (self.first_receive is None or now - self.first_receive < expected_grace)
            self.expected_match, crossed = match_live(expected, edges)
            findings.extend(f for f in fold_into_conventions(findings, crossed) if not (waiting and f.code in GRACE_CODES))
        findings.extend(self._stale(silent, now, name_of))
        findings.extend(self._static_dynamic(alive, name_of))
        hold = max(self.config.event_hold, window)
        findings.extend(self._bounds(now, hold))
        for key, ev in list(self._events.items()):
            if now - ev.last > hold:
                del self._events[key]  # cleared; forgetting it keeps memory bounded
                continue
            f = ev.finding
            findings.append(f.with_(time=TimeSpan(ev.first, ev.last, ev.count), publishers=tuple(name_of(p) for p in f.publishers)))
        return findings

    def _stale(self, silent: list[EdgeStats], now: float, name_of: Callable[[Hashable], str]) -> Iterable[Finding]:
        for e in silent:
            iv = e.mean_interval or 0.0
            quiet = now - e.last_receive
            if quiet <= max(self.config.stale_timeout, 5.0 * iv):
                continue
            rate = f" (it came at {1.0 / iv:.1f} Hz)" if iv > 0 else ""
            yield Finding(
                "STALE_TRANSFORM",
                f"dynamic transform {e.parent} -> {e.child} has not been updated for {quiet:.1f} s{rate}; "
                f"lookups of '{e.child}' at the current time fail with an extrapolation error",
                (e.parent, e.child),
                publishers=tuple(sorted(name_of(p) for p in e.publishers if p is not None)),
                details={"last_update": round(e.last_receive, 6)},
            )

    def _static_dynamic(self, alive: list[EdgeStats], name_of: Callable[[Hashable], str]) -> Iterable[Finding]:
        for dyn in alive:
            parent, child = dyn.parent, dyn.child
            st = None if dyn.static else self.edges.get((parent, child, True))
            if st is None:
                continue
            pubs = tuple(sorted({name_of(p) for p in st.publishers | dyn.publishers if p is not None}))
            yield Finding(
                "STATIC_DYNAMIC_CONFLICT",
                f"transform {parent} -> {child} is published on both {'/'.join(sorted(st.topics))} and "
                f"{'/'.join(sorted(dyn.topics))}: tf2 mixes a static and a dynamic value for one edge",
                (parent, child),
                publishers=pubs,
            )

    def _bounds(self, now: float, hold: float) -> Iterable[Finding]:
        """FRAME_CHURN, TOO_MANY_EDGES and TF_MESSAGES_LOST: what keeps the state bounded, or incomplete."""
        bucket = math.floor(now / CHURN_WINDOW)
        recent = {b: n for b, n in self._new_edges}
        closed = range(bucket - CHURN_WINDOWS, bucket)
        if all(recent.get(b, 0) >= CHURN_NAMES for b in closed):
            n = sum(recent.get(b, 0) for b in closed)
            examples = ", ".join(f"'{x}'" for x in self._new_names)
            yield Finding(
                "FRAME_CHURN",
                f"new frame names keep appearing: {n} new edges in the last {CHURN_WINDOWS * CHURN_WINDOW:g} s "
                f"({self.new_edges_total} in all), latest child frames {examples}; names with ids or timestamps in them "
                f"grow every tf2 buffer without bound (physframe forgets edges silent for {self.config.evict_after:g} s)",
                details={"new_edges": n, "new_edges_total": self.new_edges_total, "examples": list(self._new_names)},
            )
        if self._limit_hit is not None and now - self._limit_hit[1] <= hold:
            yield Finding(
                "TOO_MANY_EDGES",
                f"more than {self.config.max_edges} TF edges: the longest-silent dynamic edges were forgotten early "
                f"({self.evicted_edges} forgotten in all) and {self.refused_edges} new edges were not tracked because every "
                f"tracked edge is still current; findings on untracked edges are missed",
                details={"max_edges": self.config.max_edges, "evicted_edges": self.evicted_edges, "refused_edges": self.refused_edges},
            )
        if self._lost_last is not None and now - self._lost_last[1] <= hold:
            lost = ", ".join(f"{n} on {t}" for t, n in sorted(self.lost_messages.items()))
            yield Finding(
                "TF_MESSAGES_LOST",
                f"the transport lost TF messages before they reached the monitor ({lost} so far): the tree and the "
                "findings may miss transforms; a publisher floods /tf or the monitor is too slow",
                time=TimeSpan(*self._lost_last, sum(self.lost_messages.values())),
                details={"lost": dict(self.lost_messages)},
            )

    def stats(self, now: float, name_of: Callable[[Hashable], str] = str, records: Iterable[EdgeStats] | None = None) -> list[dict[str, Any]]:
        """Per-edge statistics of ``records`` (default: every tracked edge), sorted by edge."""
        chosen = self.edges.values() if records is None else records
        return [e.to_dict(now, name_of) for e in sorted(chosen, key=lambda e: (e.parent, e.child, e.static))]


class FindingTracker:
    """Follows findings across evaluations: what appeared, what cleared, and when each was active.

    ``keep_history`` (replay) remembers every finding ever active, up to ``max_history`` distinct
    ones (past that, new ones are only counted per code in ``not_kept``); without it (the live
    node) a finding is forgotten once it clears, so memory follows what is active now."""

    def __init__(self, keep_history: bool = True, max_history: int = 10_000) -> None:
        self.active: dict[tuple[Any, ...], Finding] = {}
        self.spans: dict[tuple[Any, ...], TimeSpan] = {}
        self.latest: dict[tuple[Any, ...], Finding] = {}
        self.keep_history = keep_history
        self.max_history = max_history
        self.not_kept: dict[str, int] = {}  # code -> evaluations x findings past max_history

    def update(self, findings: Iterable[Finding], now: float) -> tuple[list[Finding], list[Finding]]:
        """Record one evaluation; returns (appeared, cleared)."""
        current: dict[tuple[Any, ...], Finding] = {}
        for f in findings:
            current.setdefault(f.key, f)
        appeared = [f for k, f in current.items() if k not in self.active]
        cleared = [f for k, f in self.active.items() if k not in current]
        if not self.keep_history:
            for f in cleared:
                self.spans.pop(f.key, None)
                self.latest.pop(f.key, None)
        for k, f in current.items():
            span = self.spans.get(k)
            if span is None and len(self.spans) >= self.max_history:
                self.not_kept[f.code] = self.not_kept.get(f.code, 0) + 1
                continue
            if f.time is not None:  # a per-message problem: the state counts its messages
                prev = self.latest.get(k)
                seen = prev.time.count if prev is not None and prev.time is not None and k in self.active else 0
                added, first, last = max(f.time.count - seen, 0), f.time.first, f.time.last
            else:  # a tree problem: count the evaluations it was active in
                added, first, last = 1, now, now
            self.spans[k] = TimeSpan(first, last, added) if span is None else TimeSpan(min(span.first, first), max(span.last, last), span.count + added)
            self.latest[k] = f
        self.active = current
        return appeared, cleared

    def history(self) -> list[Finding]:
        """Every finding ever active (up to ``max_history``), with the span over which it was active."""
        return [f.with_(time=self.spans[k]) for k, f in self.latest.items()]
