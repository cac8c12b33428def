from __future__ import annotations

import pytest

from physframe_ros.core.crosscheck import crosscheck, match_live
from physframe_ros.core.expected import DataFrame, ExpectedTree, ExpectedTreeError, Lookup, PartialEdge, Variant
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
        data_frames=[DataFrame("camera", "Image", Location("src/image_publisher.cpp", 159))],
    )


def test_round_trip_yaml(tmp_path):
    path = tmp_path / "expected.yaml"
    declared().save(path, "physframe 0.1.0")
    back = ExpectedTree.load(path)
    assert back.edges == declared().edges
    assert back.lookups == declared().lookups
    assert back.partial_edges == declared().partial_edges
    assert back.data_frames == declared().data_frames
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
    # every frame robot.urdf declares is absent: one finding at that file, not one per frame
    assert f == [("EXPECTED_FRAME_MISSING", ("imu_link", "laser"))]
    f = sorted((x.code, x.frames) for x in crosscheck(declared(), [Edge("odom", "base_link"), Edge("base_link", "laser", True, (0.2, 0, 0.3), I)]))
    assert f == [("EXPECTED_FRAME_MISSING", ("imu_link",))]
    f = [
        (x.code, x.frames)
        for x in crosscheck(
            declared(), [Edge("base_link", "laser", True, (0.2, 0, 0.3), I), Edge("base_link", "imu_link", True, (0, 0, 0.1), I), Edge("odom", "x")]
        )
    ]
    assert ("EXPECTED_EDGE_MISSING", ("odom", "base_link")) in f


# --- variants and placeholders ---------------------------------------------------------------------
R90 = (-0.5, 0.5, -0.5, 0.5)  # an optical frame's rotation


def _urdf_edge(parent, child, line, file="urdf/burger.urdf", t=(0.0, 0.0, 0.1), r=I, static=True):
    return Edge(parent, child, static, t if static else None, r if static else None, (Location(file, line),))


def models():
    """Two robot models of one bringup, names under the launch's namespace placeholder."""
    odom = Edge("{namespace}odom", "{namespace}base_footprint", False, sources=(Location("src/odometry.cpp", 218),))
    burger = [odom, _urdf_edge("{namespace}base_footprint", "{namespace}base_link", 52),
              _urdf_edge("{namespace}base_link", "{namespace}base_scan", 170), _urdf_edge("{namespace}base_link", "{namespace}caster_back_link", 141)]
    waffle = [odom, _urdf_edge("{namespace}base_footprint", "{namespace}base_link", 54, "urdf/waffle.urdf"),
              _urdf_edge("{namespace}base_link", "{namespace}base_scan", 203, "urdf/waffle.urdf"),
              _urdf_edge("{namespace}base_link", "{namespace}camera_link", 234, "urdf/waffle.urdf"),
              _urdf_edge("{namespace}camera_link", "{namespace}camera_rgb_optical_frame", 272, "urdf/waffle.urdf", r=R90)]
    nav = [Edge("map", "odom", False, sources=(Location("src/amcl.cpp", 10),))]
    return ExpectedTree(
        [*burger, *waffle[1:], *nav], [], [],
        [Variant("bringup TURTLEBOT3_MODEL=burger", burger, "bringup.launch.py", {"TURTLEBOT3_MODEL": "burger"}),
         Variant("bringup TURTLEBOT3_MODEL=waffle", waffle, "bringup.launch.py", {"TURTLEBOT3_MODEL": "waffle"}),
         Variant("nav.launch.py", nav, "nav.launch.py")])


def live_of(edges, prefix=""):
    from physframe_ros.core.frame_patterns import bind

    return [Edge(bind(e.parent, {"namespace": prefix}), bind(e.child, {"namespace": prefix}), e.static, e.translation, e.rotation,
                 publishers=("/rsp",)) for e in edges]


def test_the_variant_that_explains_the_live_tree_is_chosen_and_named():
    tree = models()
    for prefix in ("", "robot1/"):
        match, found = match_live(tree, live_of(tree.variants[0].edges, prefix))
        assert found == [], found
        assert match.variant.name == "bringup TURTLEBOT3_MODEL=burger"
        assert match.describe() == "variant 'bringup TURTLEBOT3_MODEL=burger'" + (f" with namespace = {prefix!r}" if prefix else "")
    match, found = match_live(tree, live_of(tree.variants[1].edges))
    assert (match.variant.choice, found) == ({"TURTLEBOT3_MODEL": "waffle"}, [])


def test_two_robots_under_two_prefixes_are_two_bindings_of_one_variant():
    tree = models()
    burger = tree.variants[0].edges
    live = live_of(burger, "robot1/") + live_of(burger, "robot2/")
    match, found = match_live(tree, live)
    assert found == []
    assert match.describe().endswith("namespace = 'robot1/', 'robot2/'")
    # robot2's laser has the wrong parent: one finding, on robot2's frame, at the URDF line
    live = [e for e in live if e.child != "robot2/base_scan"] + [Edge("robot2/base_footprint", "robot2/base_scan", True, (0, 0, 0.1), I)]
    found = crosscheck(tree, live)
    assert [(f.code, f.frames, str(f.location)) for f in found] == [
        ("PARENT_MISMATCH", ("robot2/base_scan", "robot2/base_link", "robot2/base_footprint"), "urdf/burger.urdf:170")]
    assert "publish it under 'robot2/base_link'" in found[0].message
    assert found[0].details["variant"].startswith("variant 'bringup TURTLEBOT3_MODEL=burger'")


def test_a_sibling_variants_frames_are_unexpected_another_subsystems_are_not():
    tree = models()
    live = live_of(tree.variants[0].edges) + [Edge("map", "odom")]
    assert crosscheck(tree, live) == []  # nav runs beside the bringup
    live.append(Edge("base_footprint", "camera_link", True, (0, 0, 0), I))  # only the waffle declares it
    assert [(f.code, f.frames) for f in crosscheck(tree, live)] == [("UNEXPECTED_EDGE", ("base_footprint", "camera_link"))]


def test_a_changed_value_names_the_line_and_both_rotations_as_rpy():
    tree = models()
    live = live_of(tree.variants[1].edges)
    live = [e if e.child != "camera_rgb_optical_frame" else Edge(e.parent, e.child, True, e.translation, I) for e in live]
    (f,) = crosscheck(tree, live)
    assert (f.code, str(f.location)) == ("STATIC_VALUE_MISMATCH", "urdf/waffle.urdf:272")
    assert "rotation rpy (0, 0, 0) where rpy (-1.5708, 0, -1.5708) is declared (120 deg apart)" in f.message
    assert "change the publisher, or urdf/waffle.urdf:272" in f.message


def test_version_1_files_still_load_and_version_2_round_trips(tmp_path):
    p = tmp_path / "v1.yaml"
    p.write_text("format: physframe-expected-tree\nversion: 1\nedges:\n  - {parent: a, child: b, static: true, translation: [0, 0, 0], "
                 "rotation: [0, 0, 0, 1], sources: [{file: r.urdf, line: 3}]}\n")
    old = ExpectedTree.load(p)
    assert [v.name for v in old.candidates()] == ["all declared edges"] and old.variants == []
    assert crosscheck(old, [Edge("a", "b", True, (0, 0, 0), I)]) == []
    models().save(tmp_path / "v2.yaml")
    back = ExpectedTree.load(tmp_path / "v2.yaml")
    assert back.variants == models().variants
    assert back.edges == models().edges
