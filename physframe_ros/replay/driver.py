"""Replay a bag's TF and stamped data through the core, with bag time as the clock.

The driver runs the live monitor's own loop (:class:`MonitorLoop`) on recorded
data: every message goes in with the bag's receive time (stamps come from the
data), and the loop evaluates every ``period`` seconds of bag time, tracking one
finding per problem with when it was first and last active and how often.
"""

from __future__ import annotations

import time as wallclock
from dataclasses import dataclass, field
from typing import Any, Callable

from ..bag import ROS1, BagError, TfBag, is_tf_type
from ..bag.reader import Loss
from ..core import Conventions, Edge, ExpectedTree, Finding, FindingPolicy, StateConfig, TfDecodeError
from ..core.datacheck import DataOptions, topic_table
from ..core.findings import Location
from ..core.monitor_loop import MonitorLoop
from ..core.report import exit_status, report_dict
from ..core.stamped import HeaderError

MAX_DECODE_NOTES = 5  # the first few undecodable messages are named; the rest only counted

Progress = Callable[[float, int], None]  # (bag time now, transforms so far)


@dataclass
class ReplayOptions:
    period: float = 1.0  # seconds of bag time between evaluations
    start: float | None = None  # absolute bag time (s); None: from the first message
    end: float | None = None  # absolute bag time (s), exclusive; None: to the last message
    expected: ExpectedTree | None = None
    expected_grace: float = 3.0  # bag seconds after the first transform before expected frames are missing (as the node)
    conventions: Conventions | None = None
    state_config: StateConfig | None = None
    policy: FindingPolicy = field(default_factory=FindingPolicy)
    data: DataOptions | None = None  # checks on the stamped topics' frames (which topics: the bag's selection)

    def __post_init__(self) -> None:
        if not self.period > 0:
            raise ValueError(f"period must be > 0 s, got {self.period}")
        if self.start is not None and self.end is not None and self.end <= self.start:
            raise ValueError(f"the window is empty: end {self.end:.3f} s is not after start {self.start:.3f} s")


@dataclass
class ReplayResult:
    findings: list[Finding]  # every finding ever active, with the bag-time span it was active over
    edges: list[Edge]  # the tree as a listener held it at the end of the replay
    edge_stats: list[dict[str, Any]]
    stats: dict[str, Any]
    bag: dict[str, Any]
    data_topics: list[dict[str, Any]] = field(default_factory=list)  # per stamped topic: type, count, rate, frames, share transformable
    error: BagError | None = None  # the bag broke here; everything before it is in the result
    interrupted: bool = False  # Ctrl-C: the result holds what was read until then
    notes: list[str] = field(default_factory=list)  # one line each: undecodable messages and such
    expected_variant: str | None = None  # the expected tree's variant the end of the bag matched, named

    @property
    def origin(self) -> float:
        """Bag time that reports show as t = 0."""
        return float(self.bag.get("start") or 0.0)

    def report(self) -> dict[str, Any]:
        """The contract's JSON report, plus replay statistics and what was read from which bag."""
        extra: dict[str, Any] = {"stats": self.stats, "edges_stats": self.edge_stats, "bag": self.bag, "data_topics": self.data_topics}
        if self.error is not None:
            extra["error"] = str(self.error)
        if self.interrupted:
            extra["interrupted"] = True
        if self.notes:
            extra["notes"] = self.notes
        if self.expected_variant is not None:
            extra["expected_variant"] = self.expected_variant
        return report_dict(self.findings, self.edges, **extra)

    @property
    def exit_status(self) -> int:
        return 2 if self.error is not None else exit_status(self.findings)


def lost_finding(path: object, losses: list[Loss]) -> Finding:
    """BAG_MESSAGES_LOST: the bag's index lists more TF messages than could be read."""
    what = "; ".join(f"{x.topic}: {x.lost} of {x.listed} lost ({x.read} read)" for x in losses)
    return Finding(
        "BAG_MESSAGES_LOST",
        f"{path}: {sum(x.lost for x in losses)} TF messages the bag's index lists could not be read ({what}); "
        "the findings miss whatever they held",
        location=Location(str(path)),
        details={"topics": {x.topic: {"listed": x.listed, "read": x.read, "lost": x.lost} for x in losses}},
    )


def replay(bag: TfBag, options: ReplayOptions | None = None, progress: Progress | None = None) -> ReplayResult:
    """Run the checks over the bag's TF and stamped topics; a :class:`BagError` mid-way ends the replay early, not with an exception.
    A bag that lost messages or broke is replayed once more, skipping only its damaged messages, where it allows that."""
    result = _replay_once(bag, options or ReplayOptions(), progress)
    if (result.error is not None or bag.info.losses) and not result.interrupted and bag.reread_past_damage():
        again = _replay_once(bag, options or ReplayOptions(), progress)
        if again.stats["messages_received"] >= result.stats["messages_received"]:  # else the first read got further
            result = again
    return result


def _replay_once(bag: TfBag, opts: ReplayOptions, progress: Progress | None) -> ReplayResult:
    loop = MonitorLoop(opts.period, opts.conventions, opts.state_config, opts.policy, opts.expected, opts.data, opts.expected_grace)
    state, data = loop.state, loop.data
    for topic, kind in bag.data_topics.items():
        data.add_topic(topic, kind)
    ros1 = bag.format == ROS1
    ingest = state.ingest_ros1 if ros1 else state.ingest_cdr
    notes: list[str] = []

    def note(problem: str) -> None:
        if len(notes) < MAX_DECODE_NOTES:
            notes.append(f"{bag.path}: {problem}")

    def feed(topic: str, t: float, static: bool, raw: bytes) -> None:
        if topic in data.topics:
            try:
                data.ingest(topic, raw, t, ros1)
            except HeaderError as exc:
                data.decode_errors += 1
                note(f"skipped a message on {topic} at bag time {t:.3f} s whose header cannot be read: {exc}")
            return
        try:
            ingest(raw, t, static, None, topic)
        except TfDecodeError as exc:
            state.decode_errors += 1
            note(f"skipped an undecodable TF message on {topic} at bag time {t:.3f} s: {exc}")

    error: BagError | None = None
    interrupted = False
    first: float | None = None
    t0 = wallclock.perf_counter()
    try:
        if opts.start is not None:
            loop.start_at(opts.start)
            # a listener that joins at `start` still receives the latched /tf_static of earlier publishers
            for topic, t, static, raw, _ in bag.messages(None, opts.start, static_only=True):
                feed(topic, t, static, raw)
        count = 0
        for topic, t, static, raw, _ in bag.messages(opts.start, opts.end):
            if first is None:
                first = opts.start if opts.start is not None else t
            loop.advance(t)
            feed(topic, t, static, raw)
            count += 1
            if progress is not None and not count & 255:
                progress(t, state.transforms_received)
    except BagError as exc:
        error = exc
    except KeyboardInterrupt:
        interrupted = True
    wall = wallclock.perf_counter() - t0
    loop.finish()
    last = loop.last_message
    end = last if last is not None else (opts.start or 0.0)
    stats = {
        "transforms_received": state.transforms_received,
        "messages_received": state.messages_received,
        "data_messages": data.messages_received,
        "invalid_transforms": state.invalid_transforms,
        "decode_errors": state.decode_errors + data.decode_errors,
        "evicted_edges": state.evicted_edges,
        "evicted_messages": state.evicted_messages,
        "refused_edges": state.refused_edges,
        "evaluations": loop.evaluations,
        "period": opts.period,
        "wall_time_s": round(wall, 3),
        "transforms_per_s": round(state.transforms_received / wall) if wall > 0 else None,
    }
    if not bag.tf_topics and error is None:  # a bag that broke early may simply not have shown its TF topics
        notes.append(f"{bag.path}: the bag has no TF topic; its stamped topics' frames are listed but cannot be resolved")
    info = bag.info
    bag_dict: dict[str, Any] = {
        "path": info.path,
        "storage": info.storage,
        "start": info.start if info.start is not None else first,
        "end": info.end if info.end is not None else last,
        "duration": round(info.end - info.start, 6) if info.start is not None and info.end is not None else None,
        "window": {"start": first, "end": last},
        "topics": [t.to_dict() for t in info.topics],
        "tf_topics": bag.tf_topics,
        "messages": state.messages_received + data.messages_received,
    }
    if info.recovered:
        bag_dict["recovered"] = info.recovered
    for other in info.topics:
        held = f"its {other.messages} messages" if other.messages is not None else "its messages"
        if bag.selection.matches(other.name) and not is_tf_type(other.msgtype):
            notes.append(f"{bag.path}: topic {other.name} has type {other.msgtype}, not tf2_msgs/TFMessage or tf/tfMessage: {held} were skipped")
        elif is_tf_type(other.msgtype) and not bag.selection.matches(other.name):
            notes.append(f"{bag.path}: topic {other.name} holds TF messages but does not match {bag.selection}: {held} were skipped (--topic reads it)")
    for code, n in sorted(loop.tracker.not_kept.items()):
        notes.append(f"{bag.path}: more than {loop.tracker.max_history} distinct findings: {n} occurrences of {code} on further frames not kept")
    lost = opts.policy.apply([lost_finding(bag.path, info.losses)] if info.losses else [])
    return ReplayResult(
        findings=loop.history() + lost,
        edges=state.snapshot(end, loop.window),
        edge_stats=state.stats(end),
        stats=stats,
        bag=bag_dict,
        data_topics=topic_table(data.topics),
        error=error,
        interrupted=interrupted,
        notes=notes,
        expected_variant=state.expected_match.describe() if state.expected_match is not None else None,
    )
