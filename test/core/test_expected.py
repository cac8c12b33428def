from __future__ import annotations

import pytest

from physframe_ros.core.expected import ExpectedTree, ExpectedTreeError, Lookup, PartialEdge, crosscheck
from physframe_ros.core.findings import Location
from physframe_ros.core.tree import Edge

I = (0.0, 0.0, 0.0, 1.0)


def declared():
    return ExpectedTree(
        [
            Edge("odom", "base_link", False, sources=(Location("src/odom.cpp", 88),)),
            Edge("base_link", "laser", True, (0.2, 0, 0.3), I, (Location("urdf/robot.urdf", 40),)),
            Edge("base_link", "imu_link", True, (0, 0, 0.1), I, (Location("urdf/robot.urdf", 50),)),
        ],
        [Lookup("odom", "laser", Location("src/nav.cpp", 3))],
        partial_edges=[PartialEdge("odom", None, "broadcast", Location("src/imu_filter.cpp", 347))],
    )


def test_round_trip_yaml(tmp_path):
    path = tmp_path / "expected.yaml"
    declared().save(path, "physframe 0.1.0")
    back = ExpectedTree.load(path)
    assert back.edges == declared().edges
    assert back.lookups == declared().lookups
    assert back.partial_edges == declared().partial_edges
    assert back.frames == ["odom", "base_link", "imu_link", "laser"]


def test_bad_files_name_the_file(tmp_path):
    p = tmp_path / "x.yaml"
    p.write_text("just: text\n")
    with pytest.raises(ExpectedTreeError, match=r"x\.yaml: not a physframe expected tree"):
        ExpectedTree.load(p)
    p.write_text("format: physframe-expected-tree\nversion: 1\nedges: [{parent: a}]\n")
    with pytest.raises(ExpectedTreeError, match="malformed"):
        ExpectedTree.load(p)
    with pytest.raises(ExpectedTreeError, match="cannot read"):
        ExpectedTree.load(tmp_path / "missing.yaml")


def test_crosscheck_codes():
    live = [
        Edge("odom", "base_link"),
        Edge("base_link", "laser", True, (0.25, 0, 0.3), I, publishers=("/rsp",)),
        Edge("map", "imu_link"),
        Edge("base_link", "extra"),
    ]
    f = sorted((x.code, x.frames) for x in crosscheck(declared(), live))
    assert f == [
        ("PARENT_MISMATCH", ("imu_link", "base_link", "map")),
        ("STATIC_VALUE_MISMATCH", ("base_link", "laser")),
        ("UNEXPECTED_EDGE", ("base_link", "extra")),
    ]
    f = sorted((x.code, x.frames) for x in crosscheck(declared(), [Edge("odom", "base_link")]))
    assert f == [("EXPECTED_FRAME_MISSING", ("imu_link",)), ("EXPECTED_FRAME_MISSING", ("laser",))]
    f = [
        (x.code, x.frames)
        for x in crosscheck(
            declared(), [Edge("base_link", "laser", True, (0.2, 0, 0.3), I), Edge("base_link", "imu_link", True, (0, 0, 0.1), I), Edge("odom", "x")]
        )
    ]
    assert ("EXPECTED_EDGE_MISSING", ("odom", "base_link")) in f
