"""The node's bounds over real DDS: ~/get_tree past its limit, and the edge cap with TOO_MANY_EDGES."""

from __future__ import annotations

import pytest

from physframe_ros.core.tfmessage import encode_cdr

pytestmark = [pytest.mark.ros, pytest.mark.slow]

I = (0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0)


def publish_static(harness, transforms):
    """One latched /tf_static message from a node of the harness, as robot_state_publisher sends it."""
    from rclpy.node import Node
    from tf2_msgs.msg import TFMessage

    from physframe_ros.node.monitor import tf_qos

    node = harness.add_node(Node("big_robot_state_publisher", context=harness.context))
    pub = node.create_publisher(TFMessage, "/tf_static", tf_qos(static=True))
    pub.publish(encode_cdr(transforms))
    return pub


def test_get_tree_lists_at_most_its_limit_and_counts_the_rest(harness):
    from physframe_ros.node.monitor import MAX_REPLY_EDGES

    n = MAX_REPLY_EDGES + 200
    publish_static(harness, [("base_link", f"link_{i:04d}", 0.0, I) for i in range(n)])
    harness.wait_for(lambda: harness.get_tree()["stats"]["edges"] == n, what=f"{n} edges")
    report = harness.get_tree()
    assert report["truncated"] == {"limit": MAX_REPLY_EDGES, "edges": n, "findings": 0, "edges_stats": n}
    assert len(report["tree"]["edges"]) == MAX_REPLY_EDGES and len(report["edges_stats"]) == MAX_REPLY_EDGES
    assert report["edges_stats"][0]["child"] == "link_0000" and report["stats"]["tracked_edges"] == n


def test_edge_cap_refuses_past_max_edges_and_says_so(harness_factory):
    harness = harness_factory(max_edges=50)
    publish_static(harness, [("base_link", f"link_{i:03d}", 0.0, I) for i in range(80)])
    harness.wait_for(lambda: "physframe: TOO_MANY_EDGES" in harness.status_names(), what="TOO_MANY_EDGES")
    stats = harness.get_tree()["stats"]
    assert stats["tracked_edges"] == 50 and stats["refused_edges"] == 30



def test_tf_subscriptions_listen_for_lost_messages(harness):
    """The RMW offers the message-lost event, so TF_MESSAGES_LOST can be reported (a flood that loses messages
    on loopback is not reproducible in a test; TfState's side is tested in test/core/test_tfstate_bounds.py)."""
    from rclpy.event_handler import QoSSubscriptionEventType

    for sub in harness.monitor.subscriptions:
        kinds = {h.event_type for h in sub.event_handlers}
        assert QoSSubscriptionEventType.RCL_SUBSCRIPTION_MESSAGE_LOST in kinds, sub.topic_name
