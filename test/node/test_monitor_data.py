"""The monitor checks the frames of live stamped topics over real DDS: real sensor_msgs publishers, one stamped
in a frame the tree lacks, one with an empty frame, a camera image in a non-optical frame and a clean GPS.
Each fault is reported exactly, on /diagnostics with its topic, and logged once."""

from __future__ import annotations

from typing import Any

import pytest

from physframe_ros.demo.robot import TfEdge, TfSource

pytestmark = [pytest.mark.ros, pytest.mark.slow]

ERROR = 40
SAMPLING = {"data_sample_period": 1.0, "data_sample_window": 0.5}
# topic -> (type name, frame_id it is stamped with)
SENSORS = {
    "/scan": ("LaserScan", "base_laser"),  # the tree calls it 'laser'
    "/imu": ("Imu", ""),
    "/camera/image_raw": ("Image", "camera_link"),  # should be camera_optical_frame
    "/gps/fix": ("NavSatFix", "gps"),  # clean
}
ROBOT = TfSource(
    "robot_state_publisher",
    static=(
        TfEdge("base_link", "laser", (0.2, 0.0, 0.3)),
        TfEdge("base_link", "camera_link", (0.25, 0.0, 0.2)),
        TfEdge("base_link", "gps", (0.0, -0.1, 0.5)),
    ),
    dynamic=(TfEdge("odom", "base_link"),),
)


def sensor_node(context: Any) -> Any:
    import sensor_msgs.msg as sm
    from rclpy.node import Node

    node = Node("sensor_drivers", context=context)
    pubs = [(node.create_publisher(getattr(sm, kind), topic, 10), getattr(sm, kind), frame) for topic, (kind, frame) in SENSORS.items()]

    def publish() -> None:
        stamp = node.get_clock().now().to_msg()
        for pub, cls, frame in pubs:
            msg = cls()
            msg.header.stamp = stamp
            msg.header.frame_id = frame
            if cls is sm.Image:
                msg.height, msg.width, msg.encoding, msg.step, msg.data = 8, 8, "mono8", 8, bytes(64)
            pub.publish(msg)

    node.create_timer(0.05, publish)
    return node


def values_of(status: Any) -> dict[str, str]:
    return {kv.key: kv.value for kv in status.values}


def test_live_data_frames_are_checked(harness_factory):
    harness = harness_factory(**SAMPLING)
    harness.publish(ROBOT)
    harness.add_node(sensor_node(harness.context))
    expected = {"physframe: UNKNOWN_DATA_FRAME", "physframe: MISSING_FRAME", "physframe: INCORRECT_TRANSFORM"}
    statuses = harness.settle(expected, hold=2.0, timeout=20.0)
    by_code = {s.name.split(": ", 1)[1]: s for s in statuses}
    unknown = values_of(by_code["UNKNOWN_DATA_FRAME"])
    assert unknown["topic"] == "/scan" and unknown["frames"] == "base_laser"
    assert "'laser'" in by_code["UNKNOWN_DATA_FRAME"].message  # the closest frame as a hint
    assert values_of(by_code["MISSING_FRAME"])["topic"] == "/imu"
    optical = values_of(by_code["INCORRECT_TRANSFORM"])
    assert optical["topic"] == "/camera/image_raw" and optical["frames"] == "base_link,camera_link"
    assert optical["publishers"] == "/sensor_drivers"
    report = harness.get_tree()
    assert sorted((f["code"], f["topic"]) for f in report["findings"]) == [
        ("INCORRECT_TRANSFORM", "/camera/image_raw"),
        ("MISSING_FRAME", "/imu"),
        ("UNKNOWN_DATA_FRAME", "/scan"),
    ]
    topics = {t["topic"]: t for t in report["data_topics"]}
    assert topics["/gps/fix"]["frames"] == ["gps"] and topics["/gps/fix"]["transformable"] == 1.0
    # sampled, not followed: 20 Hz for several seconds, but only the messages of short windows arrived
    assert 0 < topics["/gps/fix"]["messages"]
    for code in ("UNKNOWN_DATA_FRAME", "MISSING_FRAME", "INCORRECT_TRANSFORM"):
        logged = [m for m in harness.log_lines(ERROR) if m.startswith(code)]
        assert len(logged) == 1, (code, harness.log_lines())
    assert not [m for m in harness.log_lines() if m.startswith("cleared:")]


def test_static_transforms_resent_at_a_rate_name_their_publisher(harness_factory):
    from rclpy.node import Node
    from tf2_msgs.msg import TFMessage

    from physframe_ros.demo.sim import STATIC_QOS, transform_msg

    harness = harness_factory(**SAMPLING)
    node = Node("ros1_style_static_publisher", context=harness.context)
    pub = node.create_publisher(TFMessage, "/tf_static", STATIC_QOS)
    edges = (TfEdge("base_link", "laser", (0.2, 0.0, 0.3)), TfEdge("base_link", "imu_link", (0.0, 0.0, 0.1)))
    node.create_timer(0.1, lambda: pub.publish(TFMessage(transforms=[transform_msg(e, e.at(0.0), node.get_clock().now().to_msg()) for e in edges])))
    harness.add_node(node)
    (status,) = harness.settle({"physframe: STATIC_REPUBLISHED"}, timeout=10.0)
    values = values_of(status)
    assert values["frames"] == "imu_link,laser" and values["publishers"] == "/ros1_style_static_publisher"
    assert "/tf_static" in status.message and "Hz" in status.message
