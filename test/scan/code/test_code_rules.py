"""The analyzers' rules one by one, on short snippets: naming, same-frame, invalid values, missing
frames, message escape, transform lists, ROS 1 Python forms and lookups."""

from __future__ import annotations

import math

import pytest
from code_helpers import codes, verdicts

from physframe_ros.core.conventions import Conventions
from physframe_ros.scan.code import analyze_cpp, analyze_python, mentions_tf
from physframe_ros.scan.code.facts import _STAMPED_TYPES, named_frames


def _cpp(body: str, head: str = "") -> str:
    return f"{head}\nvoid tick(tf2_ros::TransformBroadcaster & br, tf2_ros::Buffer & buffer, rclcpp::Publisher<X>::SharedPtr pub)\n{{\n{body}\n}}\n"


def _line(text: str, needle: str, nth: int = 1) -> int:
    return [i for i, line in enumerate(text.splitlines(), 1) if needle in line][nth - 1]


def _codes(facts: object) -> list[tuple[str, int | None]]:
    return sorted((f.code, f.location.line if f.location else None) for f in facts.findings)  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("map_to_odom", ("map", "odom")),
        ("odom_in_map", ("map", "odom")),
        ("self.tf_map_to_base_link", ("map", "base_link")),
        ("T_world_to_camera_msg", ("world", "camera")),
        ("base_in_odom_", ("odom", "base")),
        ("transform", None),
        ("map_to_map", None),
        ("a_to_b_to_c", None),
    ],
)
def test_named_frames_convention(name: str, expected: tuple[str, str] | None) -> None:
    # a_to_b: header.frame_id a, child b (lookupTransform(a, b)); b_in_a is the same transform
    assert named_frames(name) == expected


def test_reversed_name_on_cpp_lookup_both_spellings() -> None:
    text = _cpp(
        '  auto map_to_base = buffer.lookupTransform("base_link", "map", tf2::TimePointZero);\n'
        '  auto base_in_map = buffer.lookupTransform("map", "base_link", tf2::TimePointZero);\n'
        '  auto odom_in_base = buffer.lookupTransform("odom", "base_link", tf2::TimePointZero);'
    )
    facts = analyze_cpp(text, "nav.cpp")
    assert _codes(facts) == [("REVERSED_NAME", _line(text, "map_to_base")), ("REVERSED_NAME", _line(text, "odom_in_base"))]
    assert [(lk.target, lk.source) for lk in facts.lookups] == [("base_link", "map"), ("map", "base_link"), ("odom", "base_link")]


def test_same_frame_broadcast_is_redundant_and_not_an_edge() -> None:
    text = _cpp('  geometry_msgs::msg::TransformStamped t;\n  t.header.frame_id = "base_link";\n  t.child_frame_id = "base_link";\n  br.sendTransform(t);')
    facts = analyze_cpp(text, "self.cpp")
    assert _codes(facts) == [("REDUNDANT_TRANSFORM", _line(text, "sendTransform"))]
    assert facts.edges == []


def test_invalid_ids_and_values_from_constants() -> None:
    text = _cpp(
        "  geometry_msgs::msg::TransformStamped t;\n"
        '  t.header.frame_id = "/odom";\n'
        '  t.child_frame_id = "base link";\n'
        "  t.transform.rotation.x = 0.0;\n  t.transform.rotation.y = 0.0;\n  t.transform.rotation.z = 0.0;\n  t.transform.rotation.w = 0.0;\n"
        "  br.sendTransform(t);"
    )
    facts = analyze_cpp(text, "bad.cpp")
    line = _line(text, "sendTransform")
    # each invalid id at the line that writes it out (the line to change), not again at the broadcast
    assert _codes(facts) == [("INVALID_FRAME_ID", _line(text, '"/odom"')), ("INVALID_FRAME_ID", _line(text, '"base link"')), ("INVALID_TRANSFORM", line)]
    (edge,) = facts.edges
    assert (edge.parent, edge.child, edge.rotation) == ("odom", "base link", None)  # stored as tf2 stores it; a zero quaternion is no rotation
    unit = analyze_cpp(text.replace("rotation.w = 0.0", "rotation.w = 1.0"), "bad.cpp")
    assert unit.edges[0].rotation == (0.0, 0.0, 0.0, 1.0)  # the ids' problem does not hide the rotation


def test_a_tf_transform_normalises_the_quaternion_it_is_given() -> None:
    """Create_PointCloud-ROS: ``transform.setRotation(tf::Quaternion(-1, 0, 0, 1))`` (|q| = 1.414) sends the
    unit rotation (LinearMath builds the basis with 2/|q|^2), so it is no INVALID_TRANSFORM; a zero one is."""
    body = (
        "  tf::Transform transform;\n  transform.setOrigin(tf::Vector3(0.1, 0.0, 0.2));\n"
        "  transform.setRotation(tf::Quaternion(-1, 0, 0, 1));\n"
        '  br.sendTransform(tf::StampedTransform(transform, ros::Time::now(), "base_link", "cloud_frame"));\n'
        '  br.sendTransform(tf::StampedTransform(tf::Transform(tf::Quaternion(0, 0, 1, 1), tf::Vector3(0, 0, 0)), ros::Time::now(), "base_link", "top"));'
    )
    facts = analyze_cpp(_cpp(body), "broadcaster.cpp")
    assert _codes(facts) == []
    half = math.sqrt(0.5)
    rotations = {e.child: e.rotation for e in facts.edges}
    assert rotations["cloud_frame"] == pytest.approx((-half, 0.0, 0.0, half))
    assert rotations["top"] == pytest.approx((0.0, 0.0, half, half))
    zero = analyze_cpp(_cpp(body.replace("(-1, 0, 0, 1)", "(0, 0, 0, 0)")), "broadcaster.cpp")
    assert [f.code for f in zero.findings] == ["INVALID_TRANSFORM"]


def test_missing_and_empty_frames_on_a_broadcast() -> None:
    text = _cpp('  geometry_msgs::msg::TransformStamped t;\n  t.header.frame_id = "";\n  br.sendTransform(t);')
    facts = analyze_cpp(text, "empty.cpp")
    line = _line(text, "sendTransform")
    assert _codes(facts) == [("MISSING_CHILD_FRAME", line), ("MISSING_FRAME", line)]
    assert facts.edges == []


def test_message_handed_to_other_code_is_not_reported() -> None:
    text = _cpp(
        "  sensor_msgs::msg::Imu imu;\n  fill_header(imu);\n  pub->publish(imu);\n"
        "  sensor_msgs::msg::Imu raw;\n  raw.linear_acceleration.z = 9.8;\n  pub->publish(raw);"
    )
    assert _codes(analyze_cpp(text, "imu.cpp")) == [("MISSING_FRAME", _line(text, "publish(raw)"))]


def test_header_copied_from_input_is_not_reported() -> None:
    text = _cpp("  sensor_msgs::msg::LaserScan out;\n  out.header = in->header;\n  pub->publish(out);")
    assert _codes(analyze_cpp(text, "scan.cpp")) == []


def test_vector_of_transforms_and_lambda_timer() -> None:
    text = _cpp(
        "  std::vector<geometry_msgs::msg::TransformStamped> all;\n"
        "  geometry_msgs::msg::TransformStamped a;\n"
        '  a.header.frame_id = "base_link";\n  a.child_frame_id = "imu_link";\n  all.push_back(a);\n'
        "  timer_ = node->create_wall_timer(10ms, [&]() {\n"
        "    geometry_msgs::msg::TransformStamped b;\n"
        '    b.header.frame_id = "base_link";\n    b.child_frame_id = "laser";\n    all.push_back(b);\n'
        "    br.sendTransform(all);\n  });"
    )
    facts = analyze_cpp(text, "multi.cpp")
    line = _line(text, "sendTransform")
    got = [(e.parent, e.child, e.location.line if e.location else None) for e in facts.edges]
    assert got == [("base_link", "imu_link", line), ("base_link", "laser", line)]


def test_eigen_quaternion_takes_w_first() -> None:
    # Eigen::Quaterniond(w, x, y, z): the FLU -> FRD half turn about x written in Eigen order is right...
    good = _cpp(
        "  Eigen::Quaterniond q(0.0, 1.0, 0.0, 0.0);\n  geometry_msgs::msg::TransformStamped t;\n"
        '  t.header.frame_id = "base_link";\n  t.child_frame_id = "base_link_frd";\n'
        "  t.transform.rotation = tf2::toMsg(q);\n  br.sendTransform(t);"
    )
    assert verdicts(analyze_cpp(good, "frd.cpp")) == []
    # ...and the ROS order (x, y, z, w) in Eigen's constructor is the identity
    bad = good.replace("q(0.0, 1.0, 0.0, 0.0)", "q(1.0, 0.0, 0.0, 0.0)")
    assert [f.code for f in verdicts(analyze_cpp(bad, "frd.cpp"))] == ["INCORRECT_TRANSFORM"]


def test_python_ros1_tf_broadcaster_argument_order() -> None:
    text = (
        "import rospy, tf\nfrom tf.transformations import quaternion_from_euler\n\n\n"
        "def loop():\n"
        "    br = tf.TransformBroadcaster()\n"
        "    br.sendTransform((0.1, 0.0, 0.2), quaternion_from_euler(0, 0, 0), rospy.Time.now(), 'laser', 'base_link')\n"
    )
    facts = analyze_python(text, "laser_tf.py")
    (edge,) = facts.edges  # ROS 1 tf takes the child before the parent
    assert (edge.parent, edge.child, edge.translation, edge.rotation) == ("base_link", "laser", (0.1, 0.0, 0.2), (0.0, 0.0, 0.0, 1.0))
    assert facts.findings == []


def test_python_odometry_child_frame_and_rospy_params() -> None:
    text = (
        "import rospy\nfrom nav_msgs.msg import Odometry\n\n\n"
        "def publish(pub):\n"
        "    odom_frame = rospy.get_param('~odom_frame', 'odom')\n"
        "    msg = Odometry()\n"
        "    msg.header.frame_id = odom_frame\n"
        "    pub.publish(msg)\n"
        "    good = Odometry(child_frame_id='base_link')\n"
        "    good.header.frame_id = odom_frame\n"
        "    pub.publish(good)\n"
    )
    facts = analyze_python(text, "odom.py")
    # the orientations, never set, are rospy's (0, 0, 0, 0): a warning on each odometry
    assert _codes(facts) == [("INVALID_TRANSFORM", 9), ("INVALID_TRANSFORM", 12), ("MISSING_CHILD_FRAME", 9)]
    assert next(f for f in facts.findings if f.code == "MISSING_CHILD_FRAME").frames == ("odom",)


def test_python_lookup_keywords_and_buffer_transform() -> None:
    text = (
        "from geometry_msgs.msg import PoseStamped\n\n\n"
        "class Nav:\n"
        "    def __init__(self):\n"
        "        self.global_frame = self.declare_parameter('global_frame', 'map').value\n\n"
        "    def step(self):\n"
        "        self.buffer.lookup_transform(target_frame=self.global_frame, source_frame='base_link', time=Time())\n"
        "        goal = PoseStamped()\n"
        "        goal.header.frame_id = 'odom'\n"
        "        in_map = self.buffer.transform(goal, self.global_frame)\n"
        "        self.buffer.lookup_transform_full('map', Time(), 'odom', Time(), 'odom')\n"
    )
    facts = analyze_python(text, "nav.py")
    assert [(lk.target, lk.source, lk.location.line if lk.location else None) for lk in facts.lookups] == [
        ("map", "base_link", 9),
        ("map", "odom", 12),
        ("map", "odom", 13),
    ]
    assert facts.findings == []


def test_user_conventions_reach_the_axis_check() -> None:
    text = _cpp(
        "  geometry_msgs::msg::TransformStamped t;\n"
        '  t.header.frame_id = "cam_body";\n  t.child_frame_id = "cam_lens";\n'
        "  t.transform.rotation.w = 1.0;\n  br.sendTransform(t);"
    )
    assert verdicts(analyze_cpp(text, "c.cpp")) == []
    conv = Conventions.from_dict({"frames": {"cam_lens": "optical"}})
    assert [f.code for f in verdicts(analyze_cpp(text, "c.cpp", conv), conv)] == ["INCORRECT_TRANSFORM"]


def test_mentions_tf_prefilter() -> None:
    assert mentions_tf("br.sendTransform(t);")
    assert mentions_tf("msg.header.frame_id = 'x'")
    assert mentions_tf("tf2::Matrix3x3 m(1,0,0,0,1,0,0,0,1);")
    assert mentions_tf("q = quaternion_from_euler(0, 0, 1)")
    assert not mentions_tf("int main() { return add(1, 2); }")
    assert not mentions_tf("def parse_args(argv):\n    return argv[1:]\n")


@pytest.mark.parametrize("type_name", sorted(_STAMPED_TYPES))
def test_every_stamped_data_type_passes_the_prefilter_when_named_with_its_package(type_name: str) -> None:
    """A file that builds the message and never writes frame_id (the bug itself) still gets analysed;
    the bare word does not (Image, Path and Range are everywhere)."""
    assert mentions_tf(f"pkg_msgs::{type_name} m;") and mentions_tf(f"pkg_msgs::msg::{type_name}::SharedPtr m;")
    assert mentions_tf(f"from pkg_msgs.msg import Foo, {type_name}\n")
    if type_name in ("Image", "Path", "Range", "Marker", "Temperature"):
        assert not mentions_tf(f"from pathlib import Path\n{type_name} = 1\n")


def test_same_method_name_in_two_classes_both_analysed() -> None:
    text = (
        'class A { std::string parent_ = "map"; void publish(); };\n'
        "class B { void publish(); };\n"
        "void A::publish() {\n  geometry_msgs::msg::TransformStamped t;\n  t.header.frame_id = this->parent_;\n"
        '  t.child_frame_id = "odom";\n  br_.sendTransform(t);\n}\n'
        "void B::publish() {\n  geometry_msgs::msg::TransformStamped t;\n"
        '  t.header.frame_id = "odom";\n  t.child_frame_id = "base_link";\n  br_.sendTransform(t);\n}\n'
    )
    facts = analyze_cpp(text, "two.cpp")
    assert [(e.parent, e.child) for e in facts.edges] == [("map", "odom"), ("odom", "base_link")]  # in-class default via this->


def test_python_rotation_returned_by_a_method_reaches_the_broadcast() -> None:
    text = (
        "import numpy as np\nfrom tf_transformations import quaternion_from_matrix\n\n\n"
        "class Cam:\n"
        "    def body_to_optical(self):\n"
        "        return np.array([[0, 0, 1], [-1, 0, 0], [0, -1, 0]])\n\n"
        "    def publish(self):\n"
        "        t = TransformStamped()\n"
        "        t.header.frame_id = 'camera_link'\n"
        "        t.child_frame_id = 'camera_depth_optical_frame'\n"
        "        q = quaternion_from_matrix(self.body_to_optical().T)\n"
        "        t.transform.rotation.x, t.transform.rotation.y, t.transform.rotation.z, t.transform.rotation.w = q\n"
        "        self.static_broadcaster.sendTransform(t)\n"
    )
    facts = analyze_python(text, "cam.py")
    assert [(f.code, f.location.line if f.location else None) for f in verdicts(facts)] == [("INCORRECT_TRANSFORM", 15)]
    fixed = analyze_python(text.replace("self.body_to_optical().T", "self.body_to_optical()"), "cam.py")
    assert verdicts(fixed) == [] and len(fixed.edges) == 1


def test_ros1_tf_listener_lookup_with_leading_slashes() -> None:
    text = 'void f(tf::TransformListener & listener) {\n  tf::StampedTransform tr;\n  listener.lookupTransform("/map", "/base_link", ros::Time(0), tr);\n}\n'
    facts = analyze_cpp(text, "old.cpp")
    assert [(lk.target, lk.source, lk.location.line if lk.location else None) for lk in facts.lookups] == [("map", "base_link", 3)]


def test_member_rotation_times_parameter_reaches_the_broadcast() -> None:
    text = (
        "class Cam {\n public:\n  Cam() { slam_to_ros_ = tf2::Matrix3x3(0, 0, 1, -1, 0, 0, 0, -1, 0); }\n"
        "  void on_pose(const tf2::Matrix3x3 & R) {\n"
        "    tf2::Matrix3x3 rot = slam_to_ros_ * R;\n    tf2::Quaternion q;\n    rot.getRotation(q);\n"
        '    geometry_msgs::msg::TransformStamped t;\n    t.header.frame_id = "map";\n    t.child_frame_id = "camera_link";\n'
        "    t.transform.rotation = tf2::toMsg(q);\n    br_->sendTransform(t);\n  }\n"
        " private:\n  tf2::Matrix3x3 slam_to_ros_;\n};\n"
    )
    facts = analyze_cpp(text, "cam.cpp")
    # reported where the rotation is written into the transform, the line to change
    assert codes(facts) == [("INCORRECT_TRANSFORM", _line(text, "t.transform.rotation ="))]
    back = text.replace("slam_to_ros_ * R;", "slam_to_ros_ * R * slam_to_ros_.transpose();")
    assert verdicts(analyze_cpp(back, "cam.cpp")) == []


def test_free_rotations_with_other_constant_turns_are_not_reported() -> None:
    # an IMU mounted upside down: the constant half turn about x is part of the mount, not a convention change
    text = (
        "void f(const tf2::Quaternion & imu_orientation) {\n"
        "  tf2::Quaternion flip;\n  flip.setRPY(M_PI, 0, 0);\n"
        "  tf2::Quaternion q = imu_orientation * flip;\n"
        '  geometry_msgs::msg::TransformStamped t;\n  t.header.frame_id = "odom";\n  t.child_frame_id = "base_link";\n'
        "  t.transform.rotation = tf2::toMsg(q);\n  br_->sendTransform(t);\n}\n"
    )
    assert verdicts(analyze_cpp(text, "imu.cpp")) == []
    # ...but the FLU -> RDF camera turn on the same free edge is the ORB-SLAM2 bug
    rdf = text.replace("flip.setRPY(M_PI, 0, 0)", "flip.setRPY(-M_PI_2, 0, -M_PI_2)").replace('"base_link"', '"camera_link"')
    assert [f.code for f in verdicts(analyze_cpp(rdf, "cam.cpp"))] == ["INCORRECT_TRANSFORM"]


def test_copied_messages_are_not_reported() -> None:
    text = _cpp(
        "  sensor_msgs::msg::Imu copy(*msg);\n  copy.angular_velocity.z = 0.0;\n  pub->publish(copy);\n"
        "  auto other = sensor_msgs::msg::Imu(*msg);\n  pub->publish(other);\n"
        "  sensor_msgs::msg::Imu blank{};\n  pub->publish(blank);"
    )
    assert _codes(analyze_cpp(text, "imu.cpp")) == [("MISSING_FRAME", _line(text, "publish(blank)"))]


def test_member_message_filled_in_another_method_is_not_reported() -> None:
    text = (
        "class Gps:\n"
        "    def __init__(self):\n        self.fix = NavSatFix()\n\n"
        "    def on_timer(self):\n        self.fix.latitude = 1.0\n        self.pub.publish(self.fix)\n\n"
        "    def configure(self, frame):\n        self.fix.header.frame_id = frame\n"
    )
    assert analyze_python(text, "gps.py").findings == []


def test_helper_called_with_constant_frames_declares_each_edge() -> None:
    text = (
        "void send_mount(tf2_ros::StaticTransformBroadcaster & br, const std::string & child, double yaw = 0.0)\n{\n"
        "  geometry_msgs::msg::TransformStamped t;\n"
        '  t.header.frame_id = "base_link";\n'
        "  t.child_frame_id = child;\n"
        "  tf2::Quaternion q;\n  q.setRPY(0, 0, yaw);\n  t.transform.rotation = tf2::toMsg(q);\n"
        "  br.sendTransform(t);\n}\n\n"
        "void publish_mounts(tf2_ros::StaticTransformBroadcaster & br)\n{\n"
        '  send_mount(br, "imu_link");\n  send_mount(br, "laser", M_PI);\n  send_mount(br, "laser", M_PI);\n}\n'
    )
    facts = analyze_cpp(text, "mounts.cpp")
    line = _line(text, "sendTransform")
    # each edge is located at the call that names its frames; the helper's sendTransform is the second source
    got = [(e.parent, e.child, e.static, e.rotation, [s.line for s in e.sources]) for e in facts.edges]
    assert got == [
        ("base_link", "imu_link", True, (0.0, 0.0, 0.0, 1.0), [_line(text, 'send_mount(br, "imu_link")'), line]),
        ("base_link", "laser", True, (0.0, 0.0, 1.0, 0.0), [_line(text, 'send_mount(br, "laser"'), line]),
    ]
    assert facts.findings == []


def test_python_helper_called_with_constant_frames_declares_each_edge() -> None:
    text = (
        "class Mounts:\n"
        "    def send(self, child, parent='base_link', yaw=0.0):\n"
        "        t = TransformStamped()\n"
        "        t.header.frame_id = parent\n"
        "        t.child_frame_id = child\n"
        "        self.static_broadcaster.sendTransform(t)\n\n"
        "    def publish_all(self):\n"
        "        self.send('imu_link')\n"
        "        self.send('gps_link', parent='base_footprint')\n"
    )
    facts = analyze_python(text, "mounts.py")
    assert [(e.parent, e.child) for e in facts.edges] == [("base_link", "imu_link"), ("base_footprint", "gps_link")]
    assert facts.findings == []


def test_a_ros1_python_broadcast_over_lines_is_located_at_its_frames() -> None:
    """selfie_f1tenth's steering simulator: sendTransform over four lines with child and parent swapped, so base_link
    is broadcast as odom's parent; the edge is where the frames are written (the line to change), not where the
    call starts."""
    source = """\
import rospy, tf
tf_br = tf.TransformBroadcaster()
def step(state, now):
    tf_br.sendTransform((state.x, state.y, 0),
                        tf.transformations.quaternion_from_euler(0, 0, state.th),
                        now,
                        'odom', 'base_link')
"""
    facts = analyze_python(source, "scripts/main.py")
    assert [(e.parent, e.child, e.location.line if e.location else None) for e in facts.edges] == [("base_link", "odom", 7)]
