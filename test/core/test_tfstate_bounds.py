"""TfState stays bounded when frame names churn: eviction, FRAME_CHURN, the edge cap, and lost messages."""

from __future__ import annotations

import gc
import tracemalloc

from physframe_ros.core.findings import Finding, TimeSpan
from physframe_ros.core.tfstate import FindingTracker, StateConfig, TfState

I = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)


def churn(st: TfState, names: int, per_second: float, t0: float = 0.0, every: float = 1.0) -> float:
    """``names`` new children of world (each published once), evaluating every ``every`` s; returns the end time."""
    t = t0
    next_eval = t0 + every
    for i in range(names):
        t = t0 + i / per_second
        while t >= next_eval:
            st.evaluate(next_eval)
            next_eval += every
        st.add_transforms([("world", f"obj_{i}", t, I)], t, False, "churner", "/tf")
    return t


def codes(findings: list[Finding]) -> set[str]:
    return {f.code for f in findings}


def test_silent_dynamic_edges_are_evicted_with_counts_kept_and_statics_stay():
    st = TfState(config=StateConfig(evict_after=30.0))
    st.add_transforms([("base_link", "laser", 0.0, I)], 0.0, True)
    for k in range(3):
        st.add_transforms([("odom", "base_link", k * 0.1, I)], k * 0.1, False)
    end = churn(st, 200, 100.0, t0=1.0)
    assert len(st.edges) == 202
    st.evaluate(end + 31.0)
    assert set(st.edges) == {("base_link", "laser", True)}
    assert st.evicted_edges == 201 and st.evicted_messages == 203
    assert st.stats(end + 31.0)[0]["child"] == "laser"


def test_frame_churn_needs_new_names_window_after_window():
    st = TfState()
    # a robot starting up: 500 frames within one second is not churn
    st.add_transforms([("base_link", f"link_{i}", 0.0, I) for i in range(500)], 0.0, True)
    for t in range(1, 60):
        assert "FRAME_CHURN" not in codes(st.evaluate(float(t)))
    # then 2 new names a second, for 40 s
    end = churn(st, 80, 2.0, t0=60.0)
    (f,) = [f for f in st.evaluate(end) if f.code == "FRAME_CHURN"]
    assert f.severity.value == "warning" and f.category == "temporal"
    assert "'obj_79'" in f.message and "new frame names keep appearing" in f.message
    assert f.details["examples"][-1] == "obj_79"
    # it clears once names stop coming
    assert "FRAME_CHURN" not in codes(st.evaluate(end + 40.0))


def test_one_new_name_every_few_seconds_is_not_churn():
    st = TfState()
    end = churn(st, 30, 0.5)
    assert "FRAME_CHURN" not in codes(st.evaluate(end))


def test_edge_cap_makes_room_from_silent_edges_then_refuses_and_reports():
    st = TfState(config=StateConfig(max_edges=100, evict_after=1e6))
    end = churn(st, 1000, 50.0)
    assert len(st.edges) <= 100
    assert st.evicted_edges >= 900 and st.refused_edges == 0
    found = [f for f in st.evaluate(end) if f.code == "TOO_MANY_EDGES"]
    assert found and "more than 100 TF edges" in found[0].message
    # 200 edges at once, all current: the cap refuses the ones past it, and says so
    st2 = TfState(config=StateConfig(max_edges=100))
    st2.add_transforms([("world", f"robot_{i}", 0.0, I) for i in range(200)], 0.0, False)
    assert len(st2.edges) == 100 and st2.refused_edges == 100
    (f,) = [f for f in st2.evaluate(0.5) if f.code == "TOO_MANY_EDGES"]
    assert f.details["refused_edges"] == 100
    assert "TOO_MANY_EDGES" not in codes(st2.evaluate(10.0))


def test_memory_of_churned_names_is_bounded_and_released():
    """20k names here (benchmarks/soak.py runs 100k through the real node)."""
    gc.collect()
    tracemalloc.start()
    try:
        base = tracemalloc.get_traced_memory()[0]
        st = TfState(config=StateConfig(evict_after=5.0))
        end = churn(st, 20_000, 2000.0)
        peak = tracemalloc.get_traced_memory()[1] - base
        st.evaluate(end + 6.0)
        st.evaluate(end + 60.0)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0] - base
    finally:
        tracemalloc.stop()
    assert peak < 30e6, f"peak {peak / 1e6:.1f} MB"
    assert len(st.edges) == 0
    # what stays is the conventions' bounded frame-name caches (FRAME_CACHE names)
    assert after < 16e6, f"{after / 1e6:.1f} MB still held after eviction"


def test_lost_messages_become_a_finding_with_counts():
    st = TfState()
    st.messages_lost("/tf", 0, 1.0)
    assert "TF_MESSAGES_LOST" not in codes(st.evaluate(1.0))
    st.messages_lost("/tf", 12, 1.0)
    st.messages_lost("/tf_static", 1, 1.5)
    (f,) = [f for f in st.evaluate(2.0) if f.code == "TF_MESSAGES_LOST"]
    assert "12 on /tf" in f.message and "1 on /tf_static" in f.message and f.time.count == 13
    assert "TF_MESSAGES_LOST" not in codes(st.evaluate(10.0))


def test_tracker_history_is_bounded_and_live_tracker_forgets_cleared():
    replay = FindingTracker(max_history=10)
    for i in range(30):
        replay.update([Finding("SENSOR_NULL", "x", (f"s{i}",))], float(i))
    assert len(replay.history()) == 10 and replay.not_kept == {"SENSOR_NULL": 20}
    live = FindingTracker(keep_history=False)
    for i in range(30):
        live.update([Finding("SENSOR_NULL", "x", (f"s{i}",), time=TimeSpan(i, i))], float(i))
    assert len(live.spans) == 1 and len(live.latest) == 1
