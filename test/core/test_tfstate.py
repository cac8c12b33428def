"""TfState over synthetic streams: each fault yields exactly its code, the clean stream yields none."""

from __future__ import annotations

import math
import tracemalloc

from physframe_ros.core.tfmessage import encode_cdr
from physframe_ros.core.tfstate import FindingTracker, StateConfig, TfState

I = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)
OPT = (0.0, 0.0, 0.0, -0.5, 0.5, -0.5, 0.5)
STATIC = [
    ("base_link", "laser", 0.0, (0.2, 0, 0.3, 0, 0, 0, 1)),
    ("base_link", "camera_link", 0.0, (0.3, 0, 0.2, 0, 0, 0, 1)),
    ("camera_link", "camera_color_optical_frame", 0.0, OPT),
]


def run(extra=None, until=5.0, rate=20.0, stop_odom_at=None):
    """A clean robot on a virtual clock; ``extra(t)`` returns (transforms, static, publisher) to add."""
    st = TfState()
    st.ingest_cdr(encode_cdr(STATIC), 0.0, True, "rsp", "/tf_static")
    t = 0.0
    while t <= until:
        if stop_odom_at is None or t < stop_odom_at:
            st.ingest_cdr(encode_cdr([("map", "odom", t, I), ("odom", "base_link", t, I)]), t, False, "nav", "/tf")
        if extra:
            for transforms, static, pub in extra(t):
                st.ingest_cdr(encode_cdr(transforms), t, static, pub, "/tf_static" if static else "/tf")
        t = round(t + 1.0 / rate, 6)
    return st


def active(st, now):
    return sorted((f.code, f.frames) for f in st.evaluate(now))


def test_clean_stream_has_no_findings():
    assert active(run(), 5.0) == []


def test_second_publisher_reparenting_names_both():
    st = run(lambda t: [([("map", "base_link", t, I)], False, "rogue")] if 2.0 <= t < 2.2 else [])
    f = [x for x in st.evaluate(2.5)]
    assert [(x.code, x.frames) for x in f] == [("MULTIPLE_PARENTS_IN_FRAME_TREE", ("base_link", "map", "odom"))]
    assert f[0].publishers == ("nav", "rogue")
    assert active(st, 5.0) == []  # the transient re-parenting is over


def test_transient_cycle_appears_and_clears_without_stale():
    st = run(lambda t: [([("base_link", "map", t, I)], False, "bad")] if 2.0 <= t < 2.5 else [], until=6.0)
    assert ("CYCLE_IN_FRAME_TREE", ("base_link", "map", "odom")) in active(st, 2.6)
    assert active(st, 6.0) == []


def test_stopped_edge_is_stale():
    st = run(stop_odom_at=2.0, until=5.0)
    assert active(st, 5.0) == [("STALE_TRANSFORM", ("map", "odom")), ("STALE_TRANSFORM", ("odom", "base_link"))]


def test_future_and_old_stamps_and_repeats():
    st = run(lambda t: [([("base_link", "wheel", t + 10.0, I)], False, "p")] if t > 1 else [])
    assert active(st, 5.0) == [("FUTURE_TIMESTAMP", ("base_link", "wheel"))]
    st = run(lambda t: [([("base_link", "wheel", t - 20.0, I)], False, "p")] if t > 1 else [])
    assert active(st, 5.0) == [("OLD_TIMESTAMP", ("base_link", "wheel"))]
    st = run(lambda t: [([("base_link", "wheel", 1.0, I)], False, "p")] if t > 1 else [])
    assert ("REPEATED_DATA", ("base_link", "wheel")) in active(st, 5.0)


def test_invalid_values_and_ids_are_dropped_like_tf2():
    bad = [("base_link", "gps", 1.0, (math.nan, 0, 0, 0, 0, 0, 1)), ("base_link", "", 1.0, I), ("", "x", 1.0, I), ("base_link", "base_link", 1.0, I)]
    st = run(lambda t: [(bad, False, "p")] if t == 1.0 else [], until=5.0)
    assert active(st, 2.0) == [
        ("INVALID_TRANSFORM", ("base_link", "gps")),
        ("MISSING_CHILD_FRAME", ("base_link",)),
        ("MISSING_FRAME", ("x",)),
        ("REDUNDANT_TRANSFORM", ("base_link",)),
    ]
    assert st.invalid_transforms == 4
    assert "gps" not in {e.child for e in st.snapshot(2.0)}
    assert active(st, 4.0) == []  # per-message problems clear after event_hold


def test_static_and_dynamic_conflict():
    st = run(lambda t: [([("base_link", "laser", t, (0.2, 0, 0.3, 0, 0, 0, 1))], False, "p")])
    assert active(st, 5.0) == [("STATIC_DYNAMIC_CONFLICT", ("base_link", "laser"))]


def test_wrong_optical_rotation_on_static():
    st = run(lambda t: [([("camera_link", "camera_color_optical_frame", 0.0, I)], True, "rsp2")] if t == 0 else [])
    assert ("INCORRECT_TRANSFORM", ("camera_link", "camera_color_optical_frame")) in active(st, 5.0)


def test_tracker_spans_and_appear_clear():
    tracker = FindingTracker()
    log = []
    for end in (1.0, 2.0, 3.0, 4.0, 5.0, 6.0):
        # evaluate as replay does: after the data up to that time, before later data
        st = run(lambda t: [([("base_link", "map", t, I)], False, "bad")] if 2.0 <= t < 2.5 else [], until=end)
        appeared, cleared = tracker.update(st.evaluate(end), end)
        log += [("+", f.code, end) for f in appeared] + [("-", f.code, end) for f in cleared]
    assert log == [("+", "CYCLE_IN_FRAME_TREE", 2.0), ("-", "CYCLE_IN_FRAME_TREE", 4.0)]
    (hist,) = tracker.history()
    assert (hist.time.first, hist.time.last, hist.time.count) == (2.0, 3.0, 2)


def test_stats_show_static_as_static():
    st = run()
    stats = {(s["parent"], s["child"]): s for s in st.stats(5.0)}
    assert stats[("base_link", "laser")]["pattern"] == "static"
    assert "rate_hz" not in stats[("base_link", "laser")]
    assert abs(stats[("odom", "base_link")]["rate_hz"] - 20.0) < 0.5


def test_memory_per_edge_is_bounded():
    st = TfState(config=StateConfig())
    msg = encode_cdr([(f"f{i}", f"f{i + 1}", 0.0, I) for i in range(20)])
    for k in range(2_000):
        st.ingest_cdr(msg, k * 0.01, False, "p")
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    for k in range(2_000, 20_000):
        st.ingest_cdr(msg, k * 0.01, False, "p")
    grown = tracemalloc.get_traced_memory()[0] - before
    tracemalloc.stop()
    assert grown < 50_000, grown
    assert len(st.edges) == 20
