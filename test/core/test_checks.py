from __future__ import annotations

import math
from typing import Sequence

from physframe_ros.core.checks import check_tree, frame_id_problem, transform_findings
from physframe_ros.core.conventions import Conventions
from physframe_ros.core.findings import Finding, Location, Severity
from physframe_ros.core.rotations import ALL_ROTATIONS, OrthoRotation, rpy_to_quaternion
from physframe_ros.core.tree import Edge

C = Conventions()
I = (0.0, 0.0, 0.0, 1.0)
OPT = (-0.5, 0.5, -0.5, 0.5)
Z = (0.0, 0.0, 0.0)


def codes(findings):
    return sorted((f.code, f.frames) for f in findings)


def clean_robot():
    return [
        Edge("map", "odom", False, Z, I),
        Edge("odom", "base_footprint", False, Z, I),
        Edge("base_footprint", "base_link", True, (0, 0, 0.1), I),
        Edge("base_link", "laser", True, (0.2, 0, 0.3), I),
        Edge("base_link", "camera_link", True, (0.3, 0, 0.2), I),
        Edge("camera_link", "camera_color_optical_frame", True, Z, OPT),
        Edge("base_link", "imu_link", True, (0, 0, 0.05), I),
    ]


def test_clean_robot_has_no_findings():
    assert check_tree(clean_robot(), C) == []


def test_cycle_names_the_loop_and_suppresses_order():
    f = check_tree([Edge("fcu", "fcu_frd", rotation=(1, 0, 0, 0)), Edge("fcu_frd", "fcu", rotation=(1, 0, 0, 0))], C)
    assert codes(f) == [("CYCLE_IN_FRAME_TREE", ("fcu", "fcu_frd"))]
    assert "fcu -> fcu_frd -> fcu" in f[0].message
    f = check_tree([Edge("odom", "base_link"), Edge("base_link", "odom")], C)
    assert [x.code for x in f] == ["CYCLE_IN_FRAME_TREE"]


def test_multiple_parents_names_parents_and_publishers():
    f = check_tree([Edge("odom", "base_link", publishers=("/a",)), Edge("map", "base_link", publishers=("/b",)), Edge("map", "odom")], C)
    assert codes(f) == [("MULTIPLE_PARENTS_IN_FRAME_TREE", ("base_link", "map", "odom"))]
    assert "/a" in f[0].message and "/b" in f[0].message
    assert f[0].publishers == ("/a", "/b")


def test_multiple_parents_point_at_the_publisher_beside_a_description():
    """A controller's odometry (controller.yaml) against the URDF's base_joint: the YAML is the line to change,
    whatever the files' order; between two descriptions (or two publishers) the second one."""
    joint = Edge("base_footprint", "base_link", True, (0, 0, 0), (0, 0, 0, 1), (Location("urdf/body.urdf.xacro", 7),))
    odom = Edge("odom", "base_link", False, None, None, (Location("a_control/config/controller.yaml", 17),))
    (found,) = [f for f in check_tree([joint, odom], Conventions()) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found.location == Location("a_control/config/controller.yaml", 17)
    other = Edge("map", "base_link", True, (0, 0, 0), (0, 0, 0, 1), (Location("urdf/other.urdf", 3),))
    (found,) = [f for f in check_tree([joint, other], Conventions()) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found.location == Location("urdf/other.urdf", 3)


def test_multiple_parents_point_at_the_joint_that_skips_a_frame():
    """staubli's macros kept a legacy link_6 -> tool0 beside link_6 -> flange -> tool0: the joint from the ancestor
    skips flange, the one left over, reported wherever it is written."""
    def joint(parent: str, child: str, line: int) -> Edge:
        return Edge(parent, child, True, Z, I, (Location("urdf/tx90_macro.xacro", line),))

    edges = [joint("base_link", "link_6", 200), joint("link_6", "tool0", 214), joint("link_6", "flange", 230), joint("flange", "tool0", 238)]
    (found,) = [f for f in check_tree(edges, C) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found.location == Location("urdf/tx90_macro.xacro", 214)
    assert found.message.endswith("; link_6 -> tool0 skips 'flange', which is itself below 'link_6'")
    (found,) = [f for f in check_tree(edges[:1] + edges[2:] + edges[1:2], C) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found.location == Location("urdf/tx90_macro.xacro", 214)


def test_multiple_parents_point_at_a_world_frame_stand_in_for_a_mount():
    """rio's sensors.launch hung its radar under `map` (an identity placeholder, line 36) and its IMU-to-radar mount
    gave it `bmi088` (line 64): the world parent is the one to remove, whichever comes first. Two world parents, or a
    world frame's own parents, are left to the other rules (the second declaration)."""
    def stp(parent: str, child: str, line: int) -> Edge:
        return Edge(parent, child, True, Z, I, (Location("launch/sensors.launch", line),))

    for edges in ([stp("map", "awr1843aop", 36), stp("bmi088", "awr1843aop", 64)],
                  [stp("bmi088", "awr1843aop", 36), stp("map", "awr1843aop", 64)]):
        (found,) = [f for f in check_tree(edges, C) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
        assert found.location == next(e.location for e in edges if e.parent == "map")
    (found,) = [f for f in check_tree([stp("map", "base_link", 3), stp("odom", "base_link", 9)], C) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found.location == Location("launch/sensors.launch", 9)


def test_multiple_parents_point_at_a_fixed_pose_in_a_world_frame_beside_a_nodes_broadcast():
    """kr_autonomous_flight's estimation.launch fixed `quadrotor/vio_odom -> quadrotor` while the UKF nodelet it starts
    broadcasts `quadrotor/odom -> quadrotor` from its odometry: the static one pins a moving frame. wato_f1tenth's
    static mount `base_link -> laser` beside its particle filter's `map -> laser` is the right one: the code's, as before."""
    ukf = Edge("quadrotor/odom", "quadrotor", False, sources=(Location("fla_ukf/src/fla_ukf_nodelet.cpp", 235),))
    pinned = Edge("quadrotor/vio_odom", "quadrotor", True, Z, I, (Location("estimation_launch/launch/estimation.launch", 57),))
    (found,) = [f for f in check_tree([ukf, pinned], C) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found.location == Location("estimation_launch/launch/estimation.launch", 57)
    assert "fixes 'quadrotor' in a world frame where a node's code moves it" in found.message
    pf = Edge("map", "laser", False, sources=(Location("pf/pf/node.py", 7),))
    mount = Edge("base_link", "laser", True, Z, I, (Location("pf/launch/pf.launch.py", 8),))
    (found,) = [f for f in check_tree([pf, mount], C) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found.location == Location("pf/pf/node.py", 7)


def test_multiple_parents_point_at_a_parent_no_other_transform_names():
    """McGill's AUV depth node sent tf's `sendTransform(t, q, now, "/horizon", "/floating_horizon")`, child first, so
    horizon got floating_horizon (named nowhere else) beside the tree's raw_horizon -> horizon: the lone parent is
    the swapped edge, whichever is declared first. Both parents alone: the second declaration in file order, as before."""
    tree = Edge("robot", "raw_horizon", False, sources=(Location("tf/src/tf_broadcaster.cpp", 31),))
    raw = Edge("raw_horizon", "horizon", False, sources=(Location("tf/src/tf_broadcaster.cpp", 45),))
    depth = Edge("floating_horizon", "horizon", False, sources=(Location("depth/scripts/depth", 70),))
    for edges in ([tree, raw, depth], [depth, tree, raw]):
        (found,) = [f for f in check_tree(edges, C) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
        assert found.location == Location("depth/scripts/depth", 70)
        assert "'floating_horizon' is in no other transform" in found.message and "probably swapped" in found.message
    (found,) = [f for f in check_tree([raw, depth], C) if f.code == "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    assert found.location == Location("tf/src/tf_broadcaster.cpp", 45) and "no other transform" not in found.message


def test_a_declared_map_parent_of_the_body_beside_odom_is_out_of_rep105_order():
    """stretch_ros' laser_scan_matcher with fixed_frame map beside the driver's odom -> base_link: besides the two
    parents, the map edge is out of REP-105's order, reported where its parent is given (the node's fixed_frame)."""
    driver = Edge("odom", "base_link", False, sources=(Location("nodes/stretch_driver", 539),), publishers=("stretch_driver",))
    matcher = Edge("map", "base_link", False, sources=(Location("launch/stretch_scan_matcher.launch", 4),), publishers=("laser_scan_matcher_node",),
                   parent_at=Location("launch/stretch_scan_matcher.launch", 9))
    found = {f.code: f for f in check_tree([driver, matcher], C)}
    assert sorted(found) == ["INCORRECT_FRAME_ORDER_IN_TREE", "MULTIPLE_PARENTS_IN_FRAME_TREE"]
    order = found["INCORRECT_FRAME_ORDER_IN_TREE"]
    assert order.location == Location("launch/stretch_scan_matcher.launch", 9) and order.frames == ("map", "odom", "base_link")
    assert "publishes map -> odom" in order.message
    # a live tree's reparenting (no declared sources) is the two parents alone
    assert codes(check_tree([Edge("odom", "base_link"), Edge("map", "base_link")], C)) == [("MULTIPLE_PARENTS_IN_FRAME_TREE", ("base_link", "map", "odom"))]


def test_reversed_order_direct_and_through_intermediate():
    f = check_tree([Edge("odom", "map")], C)
    assert codes(f) == [("INCORRECT_FRAME_ORDER_IN_TREE", ("odom", "map"))]
    assert "REP-105" in f[0].message
    f = check_tree([Edge("base_link", "x"), Edge("x", "odom")], C)
    assert codes(f) == [("INCORRECT_FRAME_ORDER_IN_TREE", ("base_link", "odom"))]


def test_order_is_per_robot_prefix():
    ok = [Edge("map", "robot1/odom"), Edge("robot1/odom", "robot1/base_link"), Edge("map", "robot2/odom"), Edge("robot2/odom", "robot2/base_link")]
    assert check_tree(ok, C) == []
    bad = [Edge("robot1/base_link", "robot1/odom"), Edge("robot2/odom", "robot2/base_link")]
    assert codes(check_tree(bad, C)) == [("INCORRECT_FRAME_ORDER_IN_TREE", ("robot1/base_link", "robot1/odom"))]


def test_base_footprint_either_side_of_base_link():
    assert check_tree([Edge("odom", "base_link"), Edge("base_link", "base_footprint")], C) == []
    assert check_tree([Edge("odom", "base_footprint"), Edge("base_footprint", "base_link")], C) == []


def test_wrong_optical_rotation_gives_the_right_one():
    edges = clean_robot()
    edges[5] = Edge("camera_link", "camera_color_optical_frame", True, Z, I, (Location("urdf/cam.xacro", 12),))
    f = check_tree(edges, C)
    assert codes(f) == [("INCORRECT_TRANSFORM", ("camera_link", "camera_color_optical_frame"))]
    msg = f[0].message
    assert "camera_color_optical_frame is FLU relative to camera_link" in msg
    assert "x right, y down, z forward" in msg
    assert "(-0.5, 0.5, -0.5, 0.5)" in msg and "rpy = (-1.5708, 0, -1.5708)" in msg
    assert f[0].location == Location("urdf/cam.xacro", 12)


def test_non_orthogonal_rotation_is_never_an_axis_finding():
    tilted = (math.sin(0.15), 0, 0, math.cos(0.15))
    assert check_tree([Edge("camera_link", "camera_optical_frame", True, Z, tilted)], C) == []


def _q_mul(a: tuple[float, ...], b: tuple[float, ...]) -> tuple[float, float, float, float]:
    ax, ay, az, aw = a
    bx, by, bz, bw = b
    return (aw * bx + ax * bw + ay * bz - az * by, aw * by - ax * bz + ay * bw + az * bx,
            aw * bz + ax * by - ay * bx + az * bw, aw * bw - ax * bx - ay * by - az * bz)


def test_an_optical_turn_a_few_degrees_off_is_a_warning_over_all_24_rotations():
    """squirrel_robotino's kinect: rpy (-1.517, 0, -1.517), 4.4 degrees off REP-103's optical turn. Of the 24
    orthogonal rotations tilted by 5 degrees only the optical turn itself is reported as near it; 1 degree off is the
    turn (no finding), 20 degrees off is a mount of its own (nothing said)."""
    typo = rpy_to_quaternion(-1.517, 0.0, -1.517)
    (f,) = check_tree([Edge("kinect_rgb_frame", "kinect_rgb_optical_frame", True, Z, typo)], C)
    assert (f.code, f.level.name) == ("INCORRECT_TRANSFORM", "WARNING")
    assert f.message.startswith("kinect_rgb_optical_frame is turned 4.4 degrees away from the optical turn relative to kinect_rgb_frame")
    for rot in ALL_ROTATIONS:
        for degrees, reported in ((1.0, False), (5.0, rot.quaternion() == OrthoRotation.from_quaternion(OPT).quaternion()), (20.0, False)):
            half = math.radians(degrees) / 2
            tilted = _q_mul(rot.quaternion(), (math.sin(half), 0.0, 0.0, math.cos(half)))
            found = [x for x in check_tree([Edge("camera_link", "camera_optical_frame", True, Z, tilted)], C) if "degrees away" in x.message]
            assert bool(found) == reported, (rot, degrees)


def test_ned_and_frd_twins():
    assert check_tree([Edge("odom", "odom_ned", True, Z, (0.70710678, 0.70710678, 0, 0))], C) == []
    f = check_tree([Edge("odom", "odom_ned", True, Z, I)], C)
    assert codes(f) == [("INCORRECT_TRANSFORM", ("odom", "odom_ned"))]
    assert check_tree([Edge("base_link", "base_link_frd", True, Z, (1, 0, 0, 0))], C) == []


def test_disconnected_trees_and_multi_robot_exemption():
    f = check_tree([Edge("odom", "base_link"), Edge("world", "table")], C)
    assert codes(f) == [("DISCONNECTED_TREE", ("odom", "world"))]
    multi = [Edge("robot1/odom", "robot1/base_link"), Edge("robot2/odom", "robot2/base_link")]
    assert check_tree(multi, C) == []


def test_sensor_null_and_redundant():
    f = check_tree([Edge("base_link", "laser", True, Z, I)], C)
    assert codes(f) == [("SENSOR_NULL", ("base_link", "laser"))]
    f = check_tree([Edge("base_link", "base_link", True, Z, I)], C)
    assert codes(f) == [("REDUNDANT_TRANSFORM", ("base_link",))]


def test_transform_findings():
    assert transform_findings("a", "b", Z, I) == []
    assert [f.code for f in transform_findings("", "b", Z, I)] == ["MISSING_FRAME"]
    assert [f.code for f in transform_findings("a", "", Z, I)] == ["MISSING_CHILD_FRAME"]
    assert [f.code for f in transform_findings("a", "b", (math.nan, 0, 0), I)] == ["INVALID_TRANSFORM"]
    assert [f.code for f in transform_findings("a", "b", Z, (0, 0, 0, 2))] == ["INVALID_TRANSFORM"]
    assert [f.code for f in transform_findings("a", "b", Z, (0, 0, 0, math.inf))] == ["INVALID_TRANSFORM"]
    assert [f.code for f in transform_findings("/a", "b", Z, I)] == ["INVALID_FRAME_ID"]


def test_frame_id_problems():
    assert frame_id_problem("base_link") is None
    assert frame_id_problem("robot1/base_link") is None
    assert "leading '/'" in frame_id_problem("/map")
    assert "whitespace" in frame_id_problem("base link")
    assert "characters" in frame_id_problem("base#link")


def test_ten_thousand_frames_is_fine():
    edges = [Edge(f"f{i // 2}", f"f{i}", True, Z, I) for i in range(1, 10_000)]
    assert check_tree(edges, C) == []
    edges.append(Edge("f9999", "f0"))
    assert [f.code for f in check_tree(edges, C)] == ["CYCLE_IN_FRAME_TREE"]


def test_optical_frame_judged_through_an_unclassified_mount():
    rdf_mount = [Edge("base_link", "camera_link", True, (0.3, 0, 0.2), I), Edge("camera_link", "bracket_link", True, Z, OPT)]
    # the mount already turned the axes: an identity optical joint below it is right
    assert check_tree([*rdf_mount, Edge("bracket_link", "camera_optical_frame", True, Z, I)], C) == []
    # turning them again is wrong, and the message names the anchor and the path
    (f,) = check_tree([*rdf_mount, Edge("bracket_link", "camera_optical_frame", True, Z, OPT)], C)
    assert f.code == "INCORRECT_TRANSFORM" and f.frames == ("camera_link", "bracket_link", "camera_optical_frame")
    assert "camera_optical_frame is UBR relative to camera_link (through bracket_link)" in f.message
    # a straight mount: the usual optical rotation below it is right
    straight = [Edge("camera_link", "bracket_link", True, Z, I), Edge("bracket_link", "camera_optical_frame", True, Z, OPT)]
    assert check_tree(straight, C) == []


def test_optical_rotation_given_twice_is_reported_at_the_body_frame():
    # create_autonomy's astra.xacro: astra_depth_frame, a body frame by name, gets the optical turn, and
    # astra_depth_optical_frame gets it again
    edges = [
        Edge("base_link", "astra_link", True, (0.1, 0, 0.2), I),
        Edge("astra_link", "astra_depth_frame", True, Z, OPT, (Location("urdf/sensors/lasers/astra.xacro", 41),)),
        Edge("astra_depth_frame", "astra_depth_optical_frame", True, Z, OPT, (Location("urdf/sensors/lasers/astra.xacro", 48),)),
    ]
    (f,) = check_tree(edges, C)
    assert f.code == "INCORRECT_TRANSFORM" and f.level.name == "ERROR"
    assert f.frames == ("astra_link", "astra_depth_frame", "astra_depth_optical_frame")
    assert f.location == Location("urdf/sensors/lasers/astra.xacro", 41)
    assert "astra_depth_frame is turned into optical axes" in f.message and "astra_depth_optical_frame turns them again" in f.message
    # the usual layout, body frame straight and one optical turn, is right
    edges[1] = Edge("astra_link", "astra_depth_frame", True, Z, I)
    assert check_tree(edges, C) == []


def test_a_camera_child_turned_z_forward_but_not_optical_over_all_24_rotations():
    """cdt_challenge_2021's launch file: camera_link -> image_frame with quaternion 0.5 0.5 0.5 0.5, z forward as an
    optical frame but x left and y up. Of the 24 rotations exactly the three z-forward ones other than the optical
    turn are reported; a frame named optical is judged by the convention check, a non-camera parent not at all."""
    from physframe_ros.core.rotations import ALL_ROTATIONS, FLU

    flagged = []
    for rot in ALL_ROTATIONS:
        found = [f for f in check_tree([Edge("camera_link", "image_frame", True, Z, rot.quaternion())], C) if f.code == "INCORRECT_TRANSFORM"]
        if found:
            assert found[0].level.name == "WARNING" and "turned z forward as an optical frame is" in found[0].message
            flagged.append(str(rot.apply(FLU)))
    assert sorted(flagged) == ["DLF", "LUF", "URF"]
    (f,) = check_tree([Edge("camera_link", "image_frame", True, Z, (0.5, 0.5, 0.5, 0.5))], C)
    assert "its axes are x left, y up, z forward" in f.message
    assert check_tree([Edge("arm_link", "image_frame", True, Z, (0.5, 0.5, 0.5, 0.5))], C) == []
    assert check_tree([Edge("lidar_link", "points_frame", True, Z, (0.5, 0.5, 0.5, 0.5))], C) == []


def test_non_orthogonal_mount_falls_back_to_the_direct_check():
    tilted = (math.sin(0.2), 0, 0, math.cos(0.2))
    edges = [Edge("camera_link", "bracket_link", True, Z, tilted), Edge("bracket_link", "camera_optical_frame", True, Z, I)]
    assert codes(check_tree(edges, C)) == [("INCORRECT_TRANSFORM", ("bracket_link", "camera_optical_frame"))]


def test_order_of_a_world_frame_is_a_warning_and_one_class_under_itself_is_no_finding():
    # 3D-Mapping-Navigation-of-Quadrotors: identity map -> world for RViz; REP-105 names 'earth', not 'world'
    f = check_tree([Edge("map", "world"), Edge("world", "base_link")], C)
    assert [(x.code, x.frames, x.level.value) for x in f] == [("INCORRECT_FRAME_ORDER_IN_TREE", ("map", "world"), "warning")]
    assert "does not name 'world'" in f[0].message
    # the frames REP-105 names stay an error, also beside a world frame
    f = check_tree([Edge("world", "odom"), Edge("odom", "map")], C)
    assert [(x.code, x.frames, x.level.value) for x in f] == [("INCORRECT_FRAME_ORDER_IN_TREE", ("odom", "map"), "error")]
    # human_dialogue's two-robot simulation: a namespaced robot's own world inside the global one
    assert check_tree([Edge("world", "baxter/world"), Edge("world", "odom_combined")], C) == []


def test_a_world_fixed_frame_below_a_sensor_frame_is_a_warning():
    # moveit_tutorials' obstacle_avoidance_demo.launch (before PR #633): `... camera_rgb_optical_frame world`
    f = check_tree([Edge("camera_rgb_optical_frame", "world", True, Z, I), Edge("world", "panda_link0", True, Z, I)], C)
    assert [(x.code, x.frames, x.level.value) for x in f] == [
        ("INCORRECT_FRAME_ORDER_IN_TREE", ("camera_rgb_optical_frame", "world"), "warning")]
    assert "a sensor frame, is the parent of 'world', a world-fixed frame" in f[0].message
    # through a mount, and once per fixed frame: the nearest sensor frame above it
    f = check_tree([Edge("camera_link", "camera_depth_frame"), Edge("camera_depth_frame", "odom"), Edge("odom", "map")], C)
    assert ("INCORRECT_FRAME_ORDER_IN_TREE", ("camera_depth_frame", "odom")) in codes(f)
    assert ("INCORRECT_FRAME_ORDER_IN_TREE", ("camera_link", "odom")) not in codes(f)
    # the usual tree, and another robot's sensor, say nothing
    assert check_tree(clean_robot(), C) == []
    assert check_tree([Edge("robot1/camera_link", "robot2/odom")], C) == []


def test_the_body_frame_right_below_a_sensor_frame_is_a_warning():
    # IGVC22-23's ranger.launch (before its fix): `static_transform_publisher -0.5 0 1.2 0 0 0 camera base_link 1`
    f = check_tree([Edge("odom", "camera", False), Edge("camera", "base_link", False, Z, I), Edge("base_link", "laser", True, (0.1, 0.0, 0.2), I)], C)
    assert [(x.code, x.frames, x.level.value) for x in f] == [("INCORRECT_FRAME_ORDER_IN_TREE", ("camera", "base_link"), "warning")]
    assert "'camera', a sensor frame, is the parent of 'base_link', the body frame: REP-105 hangs a robot's sensors below" in f[0].message
    # a body frame further down, below another body frame, is that frame's: reported once, where it hangs from the sensor
    f = check_tree([Edge("camera", "base_footprint"), Edge("base_footprint", "base_link")], C)
    assert codes(f) == [("INCORRECT_FRAME_ORDER_IN_TREE", ("camera", "base_footprint"))]


def test_a_slam_system_fixed_frame_named_for_its_sensor_is_no_sensor_mount():
    # ae-scoot's hmap_slam.launch: laser_scan_matcher's own world frame glued above map
    assert check_tree([Edge("scan_matcher", "map", True, Z, I)], C) == []
    assert check_tree([Edge("camera_init", "map", True, Z, I)], C) == []


def test_camera_axes_judge_only_what_a_camera_body_fixes():
    """REP-103 from the tree, as the live data check and the scan use it: a frame named as a camera body or hung
    under one must be optical; a frame of no class under the robot body is a mount at any angle (iarc's downward
    camera), and one under a world frame has a pose (a calibration demo's `world -> usb_cam`)."""
    from physframe_ros.core.checks import camera_axes

    def parents(*edges):
        return {e.child: e for e in edges}

    yaw = (0.0, 0.0, 1.0, 0.0)
    assert camera_axes("orsens_camera", parents(Edge("base_link", "orsens_camera", True, Z, I)), C)[0] == "base_link"
    assert camera_axes("image", parents(Edge("base_link", "camera_link", True, Z, I), Edge("camera_link", "image", True, Z, I)), C)[0] == "camera_link"
    assert camera_axes("image", parents(Edge("base_link", "camera_link", True, Z, I), Edge("camera_link", "image", True, Z, OPT)), C) is None
    assert camera_axes("usb_cam", parents(Edge("world", "usb_cam", True, Z, I)), C) is None
    assert camera_axes("bottom_view", parents(Edge("base_link", "bottom_view", True, Z, yaw)), C) is None
    # NavigatorII's starboard camera, stamped in `starboard_cam` turned x back, y down, z right: the optical axes of a
    # camera looking to starboard; each level view is optical, a frame with y up or z vertical is not
    for rpy, optical in (((-math.pi / 2, 0, math.pi), True), ((-math.pi / 2, 0, 0), True), ((-math.pi / 2, 0, math.pi / 2), True),
                         ((math.pi / 2, 0, math.pi / 2), False), ((0, math.pi / 2, 0), False)):
        found = camera_axes("starboard_cam", parents(Edge("base_link", "starboard_cam", True, Z, rpy_to_quaternion(*rpy))), C)
        assert (found is None) == optical, rpy


def test_a_base_footprint_tipped_over_under_a_frame_of_no_class() -> None:
    """LiDAR-SLAM-Simulation: body -> base_footprint at pitch pi; REP-120's footprint keeps z up. A heading is fine, a
    sensor parent (a calibration chain) is not judged so, and under base_link the axis check alone speaks."""
    flipped = rpy_to_quaternion(0.0, math.pi, 0.0)

    def turns(parent: str, q: tuple[float, float, float, float]) -> list[str]:
        return [f.message for f in check_tree([Edge(parent, "base_footprint", True, Z, q)], C) if f.code == "INCORRECT_TRANSFORM"]

    (message,) = turns("body", flipped)
    assert "REP-120's base_footprint" in message and "180 degrees" in message
    assert turns("body", rpy_to_quaternion(0.0, 0.0, math.pi)) == []
    assert turns("camera_link", flipped) == []
    (axis,) = turns("base_link", flipped)
    assert "REP-120" not in axis


def test_a_laser_scanner_mounted_with_a_half_turn_in_pitch() -> None:
    """leobot's Hokuyo at rpy 0 pi 0 and rosbot_xl's lidar at 0 3.14 0: turned back and upside down at once. Of the 24
    orthogonal mounts of a laser scanner on the robot, only that one is reported; a half turn in yaw (facing back) or
    roll (hung upside down) is a mount like any other. An IMU, a camera (whose frame may be optical in all but name: z
    down looks at the ground) and a sensor's own calibration chain are free."""
    conv = Conventions()
    half_pitch = OrthoRotation.from_rpy(0.0, math.pi, 0.0)

    def flipped(parent: str, child: str, rot: OrthoRotation) -> list[str]:
        edge = Edge(parent, child, True, (0.1, 0.0, 0.2), rot.quaternion(), (Location("robot.urdf", 17),))
        return [f.message for f in check_tree([edge], conv) if "half turn in pitch" in f.message]

    for rot in ALL_ROTATIONS:
        for parent, child in (("base_link", "laser_link"), ("cover_link", "laser"), ("base_link", "rear_rplidar")):
            assert bool(flipped(parent, child, rot)) == (rot == half_pitch), (parent, child, rot)
    assert flipped("base_link", "imu_link", half_pitch) == []
    assert flipped("fcu", "brick_cam_uav1", half_pitch) == []
    assert flipped("camera_link", "camera_depth_frame", half_pitch) == []
    assert flipped("map", "laser", half_pitch) == []
    # neobotix' MPO-700 hangs both SICKs upside down: the front one at rpy pi 0 0, the rear one at pi 0 pi (= 0 pi 0)
    front = Edge("base_link", "sick_laser_front_link", True, (0.36, 0.0, 0.18), rpy_to_quaternion(3.14, 0.0, 0.0), (Location("mpo.xacro", 61),))
    back = Edge("base_link", "sick_laser_back_link", True, (-0.36, 0.0, 0.18), rpy_to_quaternion(3.14, 0.0, 3.14), (Location("mpo.xacro", 65),))
    assert [f for f in check_tree([front, back], conv) if "half turn in pitch" in f.message] == []
    assert [f.location for f in check_tree([back], conv) if "half turn in pitch" in f.message] == [Location("mpo.xacro", 65)]
    (message,) = flipped("base_link", "laser_link", OrthoRotation.from_rpy(0.0, 3.14159, 0.0) or half_pitch)
    assert "x axis points backward and its z axis down" in message and "rpy 0 0 pi" in message


def test_a_laser_scanner_flipped_on_its_own_unturned_mount_link() -> None:
    """Virtuoso's lidar launch: ``wamv/base_link -> wamv/lidar_wamv_link`` unturned, then ``lidar_wamv_link ->
    lidar_front`` at pitch -pi: the scanner's own frame below its mount link, turned back and upside down relative to
    the boat. Under a mount link that is itself turned, the chain is a calibration's, not judged."""
    conv = Conventions()
    here = (Location("launch/lidar.launch.py", 41),)
    mount = Edge("wamv/base_link", "wamv/lidar_wamv_link", True, (0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0), (Location("launch/lidar.launch.py", 35),))
    front = Edge("wamv/lidar_wamv_link", "lidar_front", True, (0.0, 0.0, 0.0), rpy_to_quaternion(0.0, -3.14159, 0.0), here)
    assert [f.location for f in check_tree([mount, front], conv) if "half turn in pitch" in f.message] == [here[0]]
    turned = Edge("wamv/base_link", "wamv/lidar_wamv_link", True, (0.0, 0.0, 0.0), rpy_to_quaternion(0.0, 0.0, 1.5708), mount.sources)
    assert [f for f in check_tree([turned, front], conv) if "half turn in pitch" in f.message] == []


def test_a_camera_named_for_where_it_looks_is_judged_by_its_line_of_sight() -> None:
    """tum_simulator's downward AR.Drone camera mounted at pitch -pi/2 looked at the sky, rob_box's ceiling camera at
    pitch pi looked backward. Over the 24 orthogonal mounts, a camera named down/bottom/up/ceiling is reported unless its
    line of sight (z of its optical frame) is that direction; one named rear/back only when it looks forward. Names
    that give no direction, or two, and tilted mounts, are never judged."""
    conv = Conventions()
    want = {"bottom": (0.0, 0.0, -1.0), "ceiling": (0.0, 0.0, 1.0), "downward": (0.0, 0.0, -1.0), "rear": (-1.0, 0.0, 0.0)}

    def facing(name: str, mount: Sequence[float]) -> list[Finding]:
        edges = [Edge("base_link", f"{name}_camera_link", True, (0.1, 0.0, 0.2), tuple(mount), (Location("robot.urdf", 20),)),
                 Edge(f"{name}_camera_link", f"{name}_camera_optical_frame", True, Z, OPT, (Location("robot.urdf", 30),))]
        return [f for f in check_tree(edges, conv) if "is named for looking" in f.message]

    for rot in ALL_ROTATIONS:
        sight = tuple(float(v) for v in (row[0] for row in rot.matrix()))  # the camera body's x in base_link
        for name, direction in want.items():
            expected = sight == (1.0, 0.0, 0.0) if name == "rear" else sight != direction
            found = facing(name, rot.quaternion())
            assert bool(found) == expected, (name, rot)
            assert all(f.severity == Severity.WARNING and f.location == Location("robot.urdf", 20) for f in found)
    (f,) = facing("bottom", rpy_to_quaternion(0.0, -math.pi / 2, 0.0))
    assert f.message.startswith("'bottom_camera_optical_frame' is named for looking down, but bottom_camera_optical_frame's z")
    assert "elsewhere in base_link through bottom_camera_link: z up" in f.message
    assert facing("bottom", rpy_to_quaternion(0.0, 1.2, 0.0)) == []  # tilted: not judged
    for name in ("front_camera", "rear_down_camera", "back_plate"):
        assert [f for f in check_tree([Edge("base_link", name, True, Z, I)], conv) if "named for" in f.message] == []
    # a sensor frame with nothing below it may be a body (x) or optical in all but name (z): either may look so
    for rot in ALL_ROTATIONS:
        x, z = (tuple(float(row[c]) for row in rot.matrix()) for c in (0, 2))
        leaf = [f for f in check_tree([Edge("base_link", "camera_down_link", True, Z, rot.quaternion())], conv) if "named for" in f.message]
        assert bool(leaf) == ((0.0, 0.0, -1.0) not in (x, z)), rot
    # a frame that carries the camera does not look (realsense's camera_bottom_screw_frame -> camera_link)
    screw = [Edge("base_link", "camera_bottom_screw_frame", True, Z, I), Edge("camera_bottom_screw_frame", "camera_link", True, Z, I)]
    assert [f for f in check_tree(screw, conv) if "named for" in f.message] == []
    # ardrone's `ardrone_base_bottomcam`, turned from its `bottom_link` as REP-103 turns an optical frame: the mount
    # to change is bottom_link's
    glued = [Edge("base_link", "bottom_link", True, Z, rpy_to_quaternion(0.0, -math.pi / 2, 0.0), (Location("q.xacro", 40),)),
             Edge("bottom_link", "ardrone_base_bottomcam", True, Z, OPT, (Location("cam.xacro", 9),))]
    assert [f.location for f in check_tree(glued, conv) if "named for looking down" in f.message] == [Location("q.xacro", 40)]


def test_a_fixed_camera_looking_above_the_horizon() -> None:
    """slam_bringup's D435 at pitch -0.349 (nose down negative, the aerospace way) looked 20 degrees up, GOFIRST's ZED
    at -0.52 30 degrees: a warning at the tilted mount. Level, down-looking, vertical and moving cameras, a name that
    says where the camera looks and a camera frame optical in all but name (its x level) are left alone."""
    conv = Conventions()

    def tilted(pitch: float, name: str = "d435_front_link", static: bool = True, optical_child: bool = False) -> list[Finding]:
        edges = [Edge("base_link", "sensor_plate", True, Z, I, (Location("r.xacro", 5),)),
                 Edge("sensor_plate", name, static, Z, rpy_to_quaternion(0.0, pitch, 0.0), (Location("r.xacro", 9),))]
        if optical_child:
            edges.append(Edge(name, name.replace("_link", "_optical_frame"), True, Z, OPT, (Location("r.xacro", 14),)))
        return [f for f in check_tree(edges, conv) if "above the horizontal" in f.message]

    (f,) = tilted(-0.349)
    assert f.severity == Severity.WARNING and f.location == Location("r.xacro", 9)
    assert f.message.startswith("'d435_front_link' looks 20 degrees above the horizontal of base_link through sensor_plate")
    assert [g.message.split("'")[1] for g in tilted(-0.52, "zed2i_camera_link", optical_child=True)] == ["zed2i_camera_optical_frame"]
    for pitch in (0.0, 0.349, 1.2, -1.2, -math.pi / 2, -0.05):
        assert tilted(pitch) == [], pitch
    assert tilted(-0.349, static=False) == []
    assert tilted(-0.349, "ceiling_camera_link") == []  # named: judged by its name
    assert tilted(-0.349, "imu_link") == []  # no camera
    # optical in all but name (x right, z forward) turned up about its x: its x stays level, nothing said
    sideways = [Edge("base_link", "cam_mount", True, Z, rpy_to_quaternion(-math.pi / 2 - 0.3, 0.0, -math.pi / 2)),
                Edge("cam_mount", "front_cam", True, Z, I)]
    assert [f for f in check_tree(sideways, conv) if "above the horizontal" in f.message] == []
