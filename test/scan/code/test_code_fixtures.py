"""Each realistic fixture yields exactly its finding, at the right line, and the edges it declares."""

from __future__ import annotations

import pytest
from code_helpers import FIXTURES, analyze_fixture, codes, line_of, verdicts

from physframe_ros.core.checks import check_tree
from physframe_ros.core.conventions import Conventions
from physframe_ros.core.rotations import OrthoRotation
from physframe_ros.scan.code.cpp_macros import blank_macros


def test_mavros_like_pair_forms_a_cycle_only_together() -> None:
    plugin = analyze_fixture("mavros_like/odom_plugin.cpp")
    bridge = analyze_fixture("mavros_like/frd_bridge.cpp")
    assert codes(plugin) == [] and codes(bridge) == []
    (a,) = plugin.edges
    (b,) = bridge.edges
    assert (a.parent, a.child, a.static) == ("fcu", "fcu_frd", True)  # static broadcaster member, constants from static const / constexpr
    assert a.location is not None and a.location.line == line_of("mavros_like/odom_plugin.cpp", "sendTransform(frd)")
    assert (b.parent, b.child, b.static) == ("fcu_frd", "fcu", False)  # #define and member initializer list
    assert b.location is not None and b.location.line == line_of("mavros_like/frd_bridge.cpp", "sendTransform(t)")
    # both rotations are the FLU <-> FRD half turn about x, so the axes are right: only the loop is wrong
    assert a.rotation is not None and OrthoRotation.from_quaternion(a.rotation) == OrthoRotation.parse("<x,-y,-z>")
    assert b.rotation is not None and OrthoRotation.from_quaternion(b.rotation) == OrthoRotation.parse("<x,-y,-z>")
    tree = check_tree([a, b], Conventions())
    assert [f.code for f in tree] == ["CYCLE_IN_FRAME_TREE"]
    assert set(tree[0].frames) == {"fcu", "fcu_frd"}
    assert check_tree([a], Conventions()) == [] and check_tree([b], Conventions()) == []


def test_gps_driver_without_frame_id() -> None:
    facts = analyze_fixture("gps_driver.cpp")
    # reported at the publish call; the message names the line the message was built
    assert codes(facts) == [("MISSING_FRAME", line_of("gps_driver.cpp", "fix_pub_->publish(std::move(fix))"))]
    assert f"built at line {line_of('gps_driver.cpp', 'make_unique<sensor_msgs::msg::NavSatFix>')}" in facts.findings[0].message
    assert "NavSatFix" in facts.findings[0].message and "header.frame_id" in facts.findings[0].message


def test_orb_slam_like_conversion_never_undone() -> None:
    facts = analyze_fixture("orb_slam_like.cpp")
    line = line_of("orb_slam_like.cpp", "sendTransform")
    assert codes(facts) == [("INCORRECT_TRANSFORM", line)]
    finding = verdicts(facts)[0]
    assert finding.frames == ("map", "camera_link")
    assert "RDF" in finding.message and "FLU" in finding.message and "<z,-x,-y>" in finding.message
    (edge,) = facts.edges
    assert (edge.parent, edge.child, edge.rotation) == ("map", "camera_link", None)  # not constant: not on the edge


def test_orb_slam_like_fixed_twin_is_clean() -> None:
    facts = analyze_fixture("orb_slam_like_fixed.cpp")
    assert codes(facts) == []
    assert [(e.parent, e.child) for e in facts.edges] == [("map", "camera_link")]


def test_wheel_odometry_ros1_params_and_missing_child_frame() -> None:
    facts = analyze_fixture("wheel_odometry.cpp")
    (edge,) = facts.edges  # private_nh.param(name, member, std::string(default)) and param<std::string>(name, member, default)
    assert (edge.parent, edge.child, edge.static) == ("odom", "base_footprint", False)
    assert edge.location is not None and edge.location.line == line_of("wheel_odometry.cpp", "sendTransform")
    publish = line_of("wheel_odometry.cpp", "odom_pub_.publish(odom)")
    # the fixture's odometry also never gets an orientation: (0, 0, 0, 0) in ROS 1, a warning
    assert codes(facts) == [("INVALID_TRANSFORM", publish), ("MISSING_CHILD_FRAME", publish)]
    by_code = {f.code: f for f in facts.findings}
    assert by_code["MISSING_CHILD_FRAME"].frames == ("odom",) and by_code["INVALID_TRANSFORM"].level.value == "warning"


def test_lookups_and_same_frame_lookup() -> None:
    facts = analyze_fixture("lookup_follower.cpp")
    assert [(lk.target, lk.source) for lk in facts.lookups] == [("map", "base_link"), ("map", "base_link"), ("base_link", "base_link")]
    assert codes(facts) == [("REDUNDANT_TRANSFORM", line_of("lookup_follower.cpp", '"base_link", tf2::TimePointZero'))]


def test_python_reversed_name() -> None:
    facts = analyze_fixture("reversed_name_node.py")
    line = line_of("reversed_name_node.py", "sendTransform(map_to_odom)")
    assert codes(facts) == [("REVERSED_NAME", line)]  # odom_in_map and base_in_odom are named the right way round
    assert facts.findings[0].frames == ("odom", "map")
    assert [(e.parent, e.child) for e in facts.edges] == [("map", "odom"), ("odom", "map")]
    assert [(lk.target, lk.source) for lk in facts.lookups] == [("odom", "base_link")]


def test_python_static_broadcaster_with_parameters() -> None:
    facts = analyze_fixture("laser_static_publisher.py")
    assert codes(facts) == []
    (edge,) = facts.edges
    assert (edge.parent, edge.child, edge.static) == ("base_link", "laser", True)
    assert edge.translation == (0.12, 0.0, 0.25)
    assert edge.rotation is not None and OrthoRotation.from_quaternion(edge.rotation) == OrthoRotation.parse("<-x,-y,z>")
    assert edge.location is not None and edge.location.line == line_of("laser_static_publisher.py", "sendTransform(t)")


def test_syntax_errors_keep_what_was_recovered() -> None:
    cpp = analyze_fixture("broken.cpp")
    # tree-sitter also misreads C++ that compiles: a note naming the line, never a finding
    assert codes(cpp) == []
    line = line_of("broken.cpp", "(a + ;")
    assert cpp.notes == [f"broken.cpp:{line}: C++ the parser could not read (cannot parse '= (a +'); the rest of the file is analysed"]
    assert [(e.parent, e.child) for e in cpp.edges] == [("odom", "base_link")]
    py = analyze_fixture("broken.py")
    assert codes(py) == [("PARSE_ERROR", line_of("broken.py", "def unfinished(:"))]
    assert [(e.parent, e.child) for e in py.edges] == [("odom", "base_link")]


def test_macros_of_real_drivers_cost_nothing() -> None:
    # export and visibility macros, EIGEN_MAKE_ALIGNED_OPERATOR_NEW, thread-safety annotations,
    # __has_include, extern "C" under #ifdef __cplusplus, Qt sections, registration macros without a
    # semicolon, `const T & x (e);` and `new T *[n]`: none may cost the file (no note), and lines stay exact
    facts = analyze_fixture("real_macros.cpp")
    assert facts.notes == [] and codes(facts) == []
    (edge,) = facts.edges
    assert (edge.parent, edge.child, edge.translation) == ("base_link", "laser", (0.1, 0.0, 0.0))
    assert edge.location is not None and edge.location.line == line_of("real_macros.cpp", "sendTransform(t)")


def test_macro_blanking_keeps_offsets_and_leaves_code_alone() -> None:
    src = (FIXTURES / "real_macros.cpp").read_bytes()
    blanked = blank_macros(src)
    assert len(blanked) == len(src) and blanked.count(b"\n") == src.count(b"\n")
    kept = b'ROS_INFO_ONCE(x);\nmode = RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL;\nTEST_F(Fixture, name)\n{\n  f(a,\n    MY_MACRO(b));\n}\n'
    assert blank_macros(kept) == kept


@pytest.mark.parametrize("name", ["unknown_values.cpp", "unknown_values.py"])
def test_unknown_or_conventional_frames_are_never_errors(name: str) -> None:
    # a header copied from the input, a parameter with no default, a field set under a guard, a
    # message filled by a helper (`prepare(msg.get())`, `fill(&msg)`), tf2's transform(in, out, target),
    # velocity and joystick commands with an empty frame_id, a package's own *Stamped type with no
    # spatial content, tf2's time-travel lookup of one frame, a member or module global set elsewhere
    # to a value known only at run time (its empty initial value says nothing), a parameter whose
    # default is "" (set by the launch file, used under `if (!frame_.empty())`):
    # nothing is reported but the odometry whose child_frame_id is never set anywhere
    facts = analyze_fixture(name)
    assert codes(facts) == [("MISSING_CHILD_FRAME", line_of(name, "publish(odom)"))]


def test_preprocessor_branches_that_split_code_are_read_one_branch_at_a_time() -> None:
    # #if inside a call, Qt's signals:/slots:/SIGNAL(...), explicit template instantiation, a CHECK
    # macro streamed on the next line: the file is read whole, with its lines where they were
    facts = analyze_fixture("real_preprocessor.cpp")
    assert facts.notes == [] and codes(facts) == []
    (edge,) = facts.edges
    assert (edge.parent, edge.child) == ("base_link", "imu_link")
    assert edge.location is not None and edge.location.line == line_of("real_preprocessor.cpp", "sendTransform(t)")


def test_braced_string_defaults_name_frames() -> None:
    facts = analyze_fixture("braced_defaults.cpp")
    assert codes(facts) == []
    assert [(e.parent, e.child) for e in facts.edges] == [("os_sensor", "os_lidar")]
