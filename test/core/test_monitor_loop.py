"""The node and replay drive one core loop: the same recorded TF and sensor data, evaluated on a node's timer or
by replay's bag clock, give the same findings, and a fault shorter than the gap between evaluations is seen by both."""

from __future__ import annotations

from typing import Callable

import pytest
from bag.databags import data_robot_with, sensor_message, sensor_messages
from bag.tfbags import START, inject_cycle

from physframe_ros.core import StateConfig, encode_cdr
from physframe_ros.core.findings import Finding
from physframe_ros.core.monitor_loop import MonitorLoop
from physframe_ros.core.stamped import StampedType, stamped_type

PERIOD = 1.0
CONFIG = StateConfig(edge_timeout=0.5)  # shorter than the evaluation period: the case node and replay used to differ on

Event = tuple[float, Callable[[MonitorLoop, float], None]]  # (bag time, what arrives then)


def recorded() -> tuple[dict[str, StampedType], list[Event]]:
    """20 s of the sensor robot, /scan stamped in a frame the tree lacks, and odom -> map for 0.3 s between two evaluations."""
    pytest.importorskip("rosbags")
    from rosbags.typesys import Stores, get_typestore

    typestore = get_typestore(Stores.ROS2_HUMBLE)
    robot = data_robot_with("unknown_frame", 20.0)
    inject_cycle(robot.tf, at=12.1, length=0.3)
    events: list[Event] = []
    for m in robot.tf.sorted():
        raw, static, topic = encode_cdr(m.transforms), m.topic == "/tf_static", m.topic
        events.append((START + m.t, lambda loop, t, raw=raw, static=static, topic=topic: loop.state.ingest_cdr(raw, t, static, None, topic)))
    for t, s, i in sensor_messages(robot):
        raw = bytes(typestore.serialize_cdr(sensor_message(typestore, s, t, i), s.msgtype))
        events.append((START + t, lambda loop, t, raw=raw, topic=s.topic: loop.data.ingest(topic, raw, t)))
    topics = {s.topic: kind for s in robot.sensors if (kind := stamped_type(s.msgtype)) is not None}
    return topics, sorted(events, key=lambda e: e[0])


def new_loop(topics: dict[str, StampedType]) -> MonitorLoop:
    loop = MonitorLoop(PERIOD, config=CONFIG)
    for topic, kind in topics.items():
        loop.data.add_topic(topic, kind)
    return loop


def node_style(topics: dict[str, StampedType], events: list[Event]) -> list[Finding]:
    """A timer firing every PERIOD from the first message on, messages arriving in between (as rclpy interleaves them)."""
    loop = new_loop(topics)
    tick = events[0][0] + PERIOD
    for t, arrive in events:
        while tick <= t:
            loop.evaluate(tick)
            tick += PERIOD
        arrive(loop, t)
    loop.evaluate(events[-1][0])
    return loop.history()


def replay_style(topics: dict[str, StampedType], events: list[Event]) -> list[Finding]:
    loop = new_loop(topics)
    for t, arrive in events:
        loop.advance(t)
        arrive(loop, t)
    loop.finish()
    return loop.history()


def test_node_and_replay_driving_give_the_same_findings() -> None:
    topics, events = recorded()
    live, bag = node_style(topics, events), replay_style(topics, events)
    assert [(f.code, f.frames, f.topic, f.time) for f in live] == [(f.code, f.frames, f.topic, f.time) for f in bag]
    assert {(f.code, f.topic) for f in live} == {("CYCLE_IN_FRAME_TREE", None), ("UNKNOWN_DATA_FRAME", "/scan")}
    (cycle,) = [f for f in live if f.code == "CYCLE_IN_FRAME_TREE"]
    assert cycle.frames == ("map", "odom")
    assert cycle.time is not None and 12.1 <= cycle.time.first - START <= 13.0 + 1e-6
