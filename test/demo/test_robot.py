"""The demo robot as data, checked by the core alone (no ROS): the clean robot is clean by every
check, and each injected fault is exactly the finding the demo promises."""

from __future__ import annotations

from physframe_ros.core.checks import check_tree
from physframe_ros.core.conventions import Conventions
from physframe_ros.core.tree import Edge
from physframe_ros.demo.robot import CLEAN_ROBOT, FAULTS, TfSource


def edges_of(*sources: TfSource, t: float = 1.7) -> list[Edge]:
    out = []
    for s in sources:
        for static, group in ((True, s.static), (False, s.dynamic)):
            for e in group:
                v = e.at(0.0 if static else t)
                out.append(Edge(e.parent, e.child, static, v[:3], v[3:], (), (s.node_name,)))
    return out


def test_clean_robot_is_a_42_frame_rep105_tree_without_findings():
    assert len(CLEAN_ROBOT.frames) == 42
    for t in (0.0, 1.7, 12.3):  # moving joints never make it wrong
        assert check_tree(edges_of(CLEAN_ROBOT, t=t), Conventions()) == []


def test_each_fault_gives_its_finding():
    findings = check_tree(edges_of(CLEAN_ROBOT, *FAULTS), Conventions())
    got = {(f.code, f.frames) for f in findings}
    assert ("CYCLE_IN_FRAME_TREE", ("fcu", "fcu_frd")) in got
    assert ("INCORRECT_TRANSFORM", ("rear_camera_link", "rear_camera_optical_frame")) in got
    assert ("MULTIPLE_PARENTS_IN_FRAME_TREE", ("imu_link", "base_link", "odom")) in got
    # the loop is its own little tree: the only other consequence
    assert {c for c, _ in got} == {"CYCLE_IN_FRAME_TREE", "INCORRECT_TRANSFORM", "MULTIPLE_PARENTS_IN_FRAME_TREE", "DISCONNECTED_TREE"}
