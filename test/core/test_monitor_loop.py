"""The node and replay drive one core loop: the same recorded TF, evaluated on a node's timer or by replay's
bag clock, gives the same findings, and a fault shorter than the gap between evaluations is seen by both."""

from __future__ import annotations

from bag.tfbags import START, Msg, clean_robot, inject_cycle

from physframe_ros.core import StateConfig, encode_cdr
from physframe_ros.core.findings import Finding
from physframe_ros.core.monitor_loop import MonitorLoop

PERIOD = 1.0
CONFIG = StateConfig(edge_timeout=0.5)  # shorter than the evaluation period: the case node and replay used to differ on


def recorded() -> list[Msg]:
    robot = clean_robot(20.0)
    inject_cycle(robot, at=12.1, length=0.3)  # odom -> map for 0.3 s, between two evaluations
    return robot.sorted()


def node_style(messages: list[Msg]) -> list[Finding]:
    """A timer firing every PERIOD from the first message on, messages arriving in between (as rclpy interleaves them)."""
    loop = MonitorLoop(PERIOD, config=CONFIG)
    tick = START + messages[0].t + PERIOD
    for m in messages:
        t = START + m.t
        while tick <= t:
            loop.evaluate(tick)
            tick += PERIOD
        loop.state.ingest_cdr(encode_cdr(m.transforms), t, m.topic == "/tf_static", None, m.topic)
    loop.evaluate(START + messages[-1].t)
    return loop.history()


def replay_style(messages: list[Msg]) -> list[Finding]:
    loop = MonitorLoop(PERIOD, config=CONFIG)
    for m in messages:
        t = START + m.t
        loop.advance(t)
        loop.state.ingest_cdr(encode_cdr(m.transforms), t, m.topic == "/tf_static", None, m.topic)
    loop.finish()
    return loop.history()


def test_node_and_replay_driving_give_the_same_findings() -> None:
    messages = recorded()
    live, bag = node_style(messages), replay_style(messages)
    assert [(f.code, f.frames, f.time) for f in live] == [(f.code, f.frames, f.time) for f in bag]
    (cycle,) = [f for f in live if f.code == "CYCLE_IN_FRAME_TREE"]
    assert cycle.frames == ("map", "odom")
    assert cycle.time is not None and 12.1 <= cycle.time.first - START <= 13.0 + 1e-6
    assert {f.code for f in live} == {"CYCLE_IN_FRAME_TREE"}
