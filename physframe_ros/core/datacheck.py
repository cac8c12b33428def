"""The frames stamped data uses, checked against the TF tree: the same code for the node and replay.

Each message of a stamped topic gives its header (``stamped.py``: a few bytes read,
never the image or cloud behind them). Per-message problems (empty or invalid
frame ids, stamps far from the receiver's clock) are counted as they come; the
rest is judged at each evaluation against the tree: frames the tree never
defines, frames not connected to the fixed frame, stamps TF cannot serve, camera
data outside an optical frame, odometry that contradicts the tree, and
/tf_static re-sent or changed. Memory: one record per topic and frame, and a
bounded sorted array of stamps per topic and frame.
"""

from __future__ import annotations

import difflib
import math
from array import array
from bisect import bisect_left, bisect_right, insort
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, Mapping

from .checks import SCAN_ON_EDGE, camera_axes, frame_id_problem, scan_in_optical
from .findings import Finding, Severity, TimeSpan
from .rotations import FLU, IDENTITY, RDF
from .stamped import Header, StampedType, read_header_cdr, read_header_ros1
from .tfstate import MAX_PUBLISHERS_PER_EDGE, TfState, _Event
from .tree import Edge, components

NameOf = Callable[[Hashable], str]
MAX_FRAMES_PER_TOPIC = 64  # distinct frame ids remembered per topic (a topic normally uses one)


@dataclass(frozen=True)
class DataOptions:
    fixed_frame: str = ""  # the frame data must be transformable to; "": the root of the largest tree
    min_unavailable_share: float = 0.01  # a few messages before TF starts are normal; report from this share
    max_stamps: int = 100_000  # per topic and frame; the oldest half is dropped when full
    static_resends: int = 3  # a static edge sent this often at a steady rate is STATIC_REPUBLISHED
    hold: float = 0.0  # seconds a frame use or per-message problem stays active (at least event_hold); sampled topics need more


@dataclass(slots=True)
class FrameUse:
    """One frame as one topic uses it: receive times, and the stamps sorted."""

    first: float
    last: float
    count: int = 0
    problem: str | None = None  # why tf2 would mangle the name (checked once per name)
    stamps: array = field(default_factory=lambda: array("d"))

    def add(self, receive_time: float, stamp: float, limit: int) -> None:
        self.count += 1
        self.last = receive_time
        st = self.stamps
        if not st or stamp >= st[-1]:
            st.append(stamp)
        else:
            insort(st, stamp)
        if len(st) > limit:
            del st[: len(st) // 2]


@dataclass
class TopicRecord:
    topic: str
    kind: StampedType
    count: int = 0
    first: float = math.nan
    last: float = math.nan
    frames: dict[str, FrameUse] = field(default_factory=dict)
    children: dict[tuple[str, str], FrameUse] = field(default_factory=dict)  # (frame, child) pairs of odometry
    publishers: set[Hashable] = field(default_factory=set)
    untracked: int = 0  # messages in frames beyond MAX_FRAMES_PER_TOPIC
    # per frame: (messages TF can serve, messages checked) at the last evaluation
    transformable: dict[str, tuple[int, int]] = field(default_factory=dict)

    def to_dict(self, name_of: NameOf = str) -> dict[str, Any]:
        rate = (self.count - 1) / (self.last - self.first) if self.count > 1 and self.last > self.first else None
        ok = sum(a for a, _ in self.transformable.values())
        total = sum(b for _, b in self.transformable.values())
        return {
            "topic": self.topic,
            "type": self.kind.msgtype,
            "messages": self.count,
            "rate_hz": round(rate, 3) if rate else None,
            "frames": sorted(self.frames),
            "child_frames": sorted({c for _, c in self.children}),
            "transformable": round(ok / total, 4) if total else None,
            "publishers": sorted(name_of(p) for p in self.publishers if p is not None),
            **({"untracked_frame_messages": self.untracked} if self.untracked else {}),
        }


class DataState:
    """Stamped topics beside a :class:`TfState`; ``evaluate`` judges them against its tree."""

    def __init__(self, tf: TfState, options: DataOptions | None = None) -> None:
        self.tf = tf
        self.options = options or DataOptions()
        self.topics: dict[str, TopicRecord] = {}
        self._events: dict[tuple[Any, ...], _Event] = {}
        self.messages_received = 0
        self.decode_errors = 0

    def add_topic(self, topic: str, kind: StampedType) -> None:
        if topic not in self.topics:
            self.topics[topic] = TopicRecord(topic, kind)

    # --- ingestion ---------------------------------------------------------------------
    def ingest(self, topic: str, data: bytes | bytearray | memoryview, receive_time: float, ros1: bool = False, publisher: Hashable = None) -> Header:
        """One serialized message of a topic given to ``add_topic``; raises ``HeaderError`` on bad bytes."""
        rec = self.topics[topic]
        h = (read_header_ros1 if ros1 else read_header_cdr)(data, rec.kind.child)
        self.messages_received += 1
        if not rec.count:
            rec.first = receive_time
        rec.count += 1
        rec.last = receive_time
        if publisher not in rec.publishers and len(rec.publishers) < MAX_PUBLISHERS_PER_EDGE:
            rec.publishers.add(publisher)
        frame = h.frame_id
        use = rec.frames.get(frame)
        if use is None:
            use = FrameUse(receive_time, receive_time, problem=frame_id_problem(frame) if frame else None)
            if len(rec.frames) < MAX_FRAMES_PER_TOPIC:
                rec.frames[frame] = use
            else:  # checked, but not remembered: memory stays bounded whatever a topic sends
                rec.untracked += 1
        use.add(receive_time, h.stamp, self.options.max_stamps)
        what = f"{rec.kind.msgtype} on {topic}"
        if not frame:
            message = f"{what} has an empty header.frame_id: tf2 and rviz cannot place its data in any frame"
            self._event("MISSING_FRAME", topic, (), receive_time, publisher, message)
        elif use.problem:
            self._event("INVALID_FRAME_ID", topic, (frame,), receive_time, publisher, f"{use.problem} (header.frame_id of {what})")
        if rec.kind.child:
            self._child(rec, h, receive_time, publisher)
        delay = receive_time - h.stamp
        cfg = self.tf.config
        if delay < -cfg.future_tolerance:
            self._event("FUTURE_TIMESTAMP", topic, (frame,), receive_time, publisher,
                        f"{what} is stamped {-delay:.2f} s ahead of the receiver's clock (frame '{frame}'); check the publisher's clock or use_sim_time")
        elif delay > cfg.old_threshold:
            self._event("OLD_TIMESTAMP", topic, (frame,), receive_time, publisher,
                        f"{what} is stamped {delay:.2f} s behind the receiver's clock (frame '{frame}'); tf2's 10 s cache can no longer transform it")
        return h

    def _child(self, rec: TopicRecord, h: Header, receive_time: float, publisher: Hashable) -> None:
        child = h.child_frame_id or ""
        pair = (h.frame_id, child)
        use = rec.children.get(pair)
        if use is None:
            use = FrameUse(receive_time, receive_time, problem=frame_id_problem(child) if child else None)
            if len(rec.children) < MAX_FRAMES_PER_TOPIC:
                rec.children[pair] = use
        use.count += 1
        use.last = receive_time
        what = f"{rec.kind.msgtype} on {rec.topic}"
        if not child:
            self._event("MISSING_CHILD_FRAME", rec.topic, (h.frame_id,) if h.frame_id else (), receive_time, publisher,
                        f"{what} has an empty child_frame_id: the frame whose pose it gives in '{h.frame_id}' is unnamed")
        elif use.problem:
            self._event("INVALID_FRAME_ID", rec.topic, (child,), receive_time, publisher, f"{use.problem} (child_frame_id of {what})")

    def _event(self, code: str, topic: str, frames: tuple[str, ...], now: float, publisher: Hashable, message: str) -> None:
        key = (code, topic, frames)
        ev = self._events.get(key)
        if ev is not None:
            ev.last = now
            ev.count += 1
            return
        pubs = (publisher,) if publisher is not None else ()
        self._events[key] = _Event(Finding(code, message, frames, publishers=pubs, topic=topic), now, now)  # type: ignore[arg-type]

    # --- evaluation ----------------------------------------------------------------------
    def evaluate(self, now: float, edges: list[Edge], window: float, name_of: NameOf = str) -> list[Finding]:
        """Findings about the data at ``now``, judged against ``edges`` (the tree a listener holds now)."""
        hold = max(self.tf.config.event_hold, window, self.options.hold)
        findings = list(self._static_findings(name_of))
        for key, ev in list(self._events.items()):
            if now - ev.last > hold:
                del self._events[key]
                continue
            f = ev.finding
            findings.append(f.with_(time=TimeSpan(ev.first, ev.last, ev.count), publishers=tuple(name_of(p) for p in f.publishers)))
        if not self.topics:
            return findings
        tree = _Tree(edges, {f for (p, c, _) in self.tf.edges for f in (p, c)}, self.options.fixed_frame)
        for rec in self.topics.values():
            pubs = tuple(sorted(name_of(p) for p in rec.publishers if p is not None))
            for frame, use in rec.frames.items():
                name = frame[1:] if frame.startswith("/") else frame  # tf2 strips a leading slash
                if name and now - use.last <= hold:
                    findings.extend(f.with_(publishers=pubs, topic=rec.topic) for f in self._frame_findings(rec, name, use, tree, now, window))
            for (frame, child), use in rec.children.items():
                if child and frame and now - use.last <= hold:
                    pair = self._pair_findings(rec, frame.lstrip("/"), child.lstrip("/"), use, tree)
                    findings.extend(f.with_(publishers=pubs, topic=rec.topic) for f in pair)
        return findings

    def _frame_findings(self, rec: TopicRecord, name: str, use: FrameUse, tree: _Tree, now: float, window: float) -> Iterable[Finding]:
        what = f"{rec.kind.msgtype} on {rec.topic}"
        span = TimeSpan(use.first, use.last, use.count)
        if name not in tree.known:
            rec.transformable[name] = (0, len(use.stamps))
            yield tree.unknown(name, f"{what} is stamped in frame '{name}'", span)
            return
        if tree.fixed and tree.component.get(name) != tree.component.get(tree.fixed):
            rec.transformable[name] = (0, len(use.stamps))
            yield Finding(
                "DATA_FRAME_DISCONNECTED",
                f"{what} is stamped in frame '{name}', which the TF tree does not connect to the fixed frame '{tree.fixed}': "
                f"transforming it to '{tree.fixed}' fails",
                (name, tree.fixed),
                time=span,
            )
            return
        f = self._unavailable(rec, name, use, tree, now, window)
        if f is not None:
            yield f
        if rec.kind.image:
            f = self._not_optical(rec, name, tree)
            if f is not None:
                yield f.with_(time=span)
        elif rec.kind.msgtype == "sensor_msgs/LaserScan" and scan_in_optical(name, self.tf.conventions):
            yield Finding(
                "INCORRECT_TRANSFORM",
                f"{what} is stamped in '{name}', {SCAN_ON_EDGE}; stamp it with the camera's body frame (depthimage_to_laserscan's "
                "output_frame)",
                (name,),
                time=span,
            )

    def _unavailable(self, rec: TopicRecord, name: str, use: FrameUse, tree: _Tree, now: float, window: float) -> Finding | None:
        """What a tf2 message filter drops: stamps before the chain's first transform or after its last."""
        stamps = use.stamps
        total = len(stamps)
        lo, hi = -math.inf, math.inf
        for p, c in tree.path(name):
            e = self.tf.edges.get((p, c, False))
            if e is not None and (p, c, True) not in self.tf.edges:
                lo, hi = max(lo, e.first_stamp), min(hi, e.last_stamp)
        below = bisect_left(stamps, lo) if lo > -math.inf else 0
        # stamps after the chain's last transform but within the window may still be served: a filter waits
        above_from = bisect_right(stamps, hi) if hi < math.inf else total
        above_to = bisect_right(stamps, now - window)
        above = max(above_to - above_from, 0)
        bad = below + above
        rec.transformable[name] = (total - bad, total)
        if not bad or bad < self.options.min_unavailable_share * total:
            return None
        first = stamps[0] if below else stamps[above_from]
        last = stamps[above_to - 1] if above else stamps[below - 1]
        sides = []
        if below:
            sides.append(f"{below} before the first transform ({lo:.3f})")
        if above:
            sides.append(f"{above} after the last ({hi:.3f})")
        return Finding(
            "DATA_TRANSFORM_UNAVAILABLE",
            f"{bad} of {total} messages of {rec.kind.msgtype} on {rec.topic} ({100.0 * bad / total:.1f}%) are stamped where TF cannot transform "
            f"'{name}' to '{tree.fixed}': {' and '.join(sides)}; a tf2 message filter drops them (extrapolation)",
            (name, tree.fixed),
            time=TimeSpan(first, last, bad),
            details={"share_unavailable": round(bad / total, 4), "interval": [lo, hi]},
        )

    def _not_optical(self, rec: TopicRecord, name: str, tree: _Tree) -> Finding | None:
        """REP-103: camera data is in an optical frame, RDF relative to the FLU body frame above it."""
        found = camera_axes(name, tree.parents, self.tf.conventions, self.tf.config.tolerance)
        if found is None:
            return None
        frame, rotation = found
        axes = rotation.apply(FLU)
        optical = f"{name.removesuffix('_link')}_optical_frame"
        return Finding(
            "INCORRECT_TRANSFORM",
            f"{rec.kind.msgtype} on {rec.topic} is stamped in '{name}', which is {axes} relative to {FLU} '{frame}' "
            f"({'no rotation' if rotation == IDENTITY else f'rotation {rotation}'}); "
            f"REP-103: camera data is in an optical frame, {RDF} (x right, y down, z forward) relative to the body, e.g. '{optical}'",
            (frame, name),
            details={"actual": str(rotation), "expected": str(FLU.rotation_to(RDF))},
        )

    def _pair_findings(self, rec: TopicRecord, frame: str, child: str, use: FrameUse, tree: _Tree) -> Iterable[Finding]:
        """Odometry's (frame, child) against the tree: the child must exist and hang below the frame."""
        span = TimeSpan(use.first, use.last, use.count)
        if child not in tree.known:
            below = sorted(c for c, e in tree.parents.items() if e.parent == frame)
            has = f"; the TF tree has {', '.join(f'{frame!r} -> {c!r}' for c in below)}" if below else ""
            yield tree.unknown(child, f"{rec.kind.msgtype} on {rec.topic} gives the pose of child_frame_id '{child}' in '{frame}'{has}", span)
            return
        if frame not in tree.known or frame in tree.ancestors(child):
            return
        up = tree.parents.get(child)
        has = f"the TF tree has '{up.parent}' -> '{child}'" if up is not None else f"'{child}' is a root of the TF tree"
        yield Finding(
            "PARENT_MISMATCH",
            f"{rec.kind.msgtype} on {rec.topic} gives the pose of '{child}' in '{frame}', but {has} and '{frame}' is not above it: "
            "the odometry and the transforms describe different trees",
            (frame, child),
            time=span,
        )

    def _static_findings(self, name_of: NameOf) -> Iterable[Finding]:
        """/tf_static re-sent at a steady rate (per publisher), and static edges that change value."""
        resent: dict[tuple[frozenset[Hashable], tuple[str, ...]], list[Any]] = {}
        for e in self.tf.edges.values():
            if not e.static:
                continue
            pubs = tuple(sorted(name_of(p) for p in e.publishers if p is not None))
            if e.changes:
                yield Finding(
                    "STATIC_REPUBLISHED",
                    f"static transform {e.parent} -> {e.child} changed value {e.changes} time(s) on {'/'.join(sorted(e.topics))}: "
                    "tf2 keeps one static value for all times; a moving transform belongs on /tf",
                    (e.parent, e.child),
                    time=TimeSpan(e.first_receive, e.last_receive, e.changes),
                    publishers=pubs,
                )
            iv = e.mean_interval
            if e.count >= self.options.static_resends and iv and e.gap_max <= 3.0 * iv:
                resent.setdefault((frozenset(e.publishers), tuple(sorted(e.topics))), []).append(e)
        for (_, topics), group in resent.items():
            group.sort(key=lambda x: (x.parent, x.child))
            count = max(x.count for x in group)
            span = max(x.last_receive for x in group) - min(x.first_receive for x in group)
            rate = (count - 1) / span if span > 0 else 0.0
            pubs = tuple(sorted({name_of(p) for x in group for p in x.publishers if p is not None}))
            who = f"by {', '.join(pubs)}" if pubs else "(the recording does not say by whom)"
            names = ", ".join(f"{x.parent} -> {x.child}" for x in group[:4]) + (f" and {len(group) - 4} more" if len(group) > 4 else "")
            yield Finding(
                "STATIC_REPUBLISHED",
                f"{len(group)} static transform(s) ({names}) were sent {count} times on {'/'.join(topics)} at {rate:.1f} Hz {who}: "
                "/tf_static is latched, so each transform needs sending once (StaticTransformBroadcaster); re-sending loads every listener",
                tuple(sorted({x.child for x in group})),
                time=TimeSpan(min(x.first_receive for x in group), max(x.last_receive for x in group), count),
                publishers=pubs,
            )


class _Tree:
    """The tree one evaluation judges data against: every frame ever defined, the current parent links and components."""

    def __init__(self, edges: list[Edge], known: set[str], fixed: str) -> None:
        self.known = known
        self.parents: dict[str, Edge] = {}
        for e in edges:
            self.parents.setdefault(e.child, e)
        comps = components(edges)
        self.component = {f: i for i, comp in enumerate(comps) for f in comp}
        if not fixed and comps:
            has_parent = set(self.parents)
            largest = max(comps, key=lambda c: (len(c), -len(min(c)), sorted(c)[0]))
            fixed = min(largest - has_parent, default=min(largest))
        self.fixed = fixed

    def ancestors(self, frame: str) -> list[str]:
        out: list[str] = []
        e = self.parents.get(frame)
        while e is not None and e.parent not in out and e.parent != frame:
            out.append(e.parent)
            e = self.parents.get(e.parent)
        return out

    def path(self, frame: str) -> list[tuple[str, str]]:
        """The (parent, child) edges a lookup between ``frame`` and the fixed frame passes."""
        up = [frame, *self.ancestors(frame)]
        fixed_up = [self.fixed, *self.ancestors(self.fixed)]
        common = set(up) & set(fixed_up)
        out = []
        for chain in (up, fixed_up):
            for child in chain:
                if child in common:
                    break
                e = self.parents.get(child)
                if e is not None:
                    out.append((e.parent, child))
        return out

    def unknown(self, name: str, what: str, span: TimeSpan) -> Finding:
        hints = _closest(name, self.known)
        hint = f"; closest frames in the tree: {', '.join(repr(h) for h in hints)}" if hints else ""
        if not self.known:
            return Finding(
                "UNKNOWN_DATA_FRAME",
                f"{what}, but no transform was received at all (no TF), so no frame can be resolved",
                (name,),
                time=span,
                severity=Severity.WARNING,  # nothing to check against: a note, not an error
            )
        return Finding(
            "UNKNOWN_DATA_FRAME",
            f"{what}, a frame the TF tree never defines{hint}: rviz reports \"frame '{name}' does not exist\" and tf2 message filters drop every message",
            (name,),
            time=span,
            details={"closest": hints},
        )


def _closest(name: str, known: Iterable[str], n: int = 3) -> list[str]:
    """Frames whose names contain or resemble ``name`` (``laser`` -> ``base_laser_link``)."""
    known = sorted(known)
    near = [k for k in known if name in k or k in name]
    near.sort(key=lambda k: -difflib.SequenceMatcher(None, name, k).ratio())
    for k in difflib.get_close_matches(name, known, n, 0.4):
        if k not in near:
            near.append(k)
    return near[:n]


def topic_table(records: Mapping[str, TopicRecord], name_of: NameOf = str) -> list[dict[str, Any]]:
    return [records[t].to_dict(name_of) for t in sorted(records)]
