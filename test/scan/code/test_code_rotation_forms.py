"""Every supported way of writing a constant rotation, for all 24 orthogonal rotations, is abstracted
to the same OrthoRotation the core computes (PhysFrame's R12), and products and inverses follow R14.

The code text is generated per rotation, analysed, and the broadcast edge's quaternion compared."""

from __future__ import annotations

import math
from typing import Callable

import pytest
import transforms3d.euler as t3e
from code_helpers import verdicts
from hypothesis import given
from hypothesis import strategies as st

from physframe_ros.core.rotations import ALL_ROTATIONS, OrthoRotation
from physframe_ros.scan.code import analyze_cpp, analyze_python
from physframe_ros.scan.code.values import rot_from_euler_axes


def _angle(v: float, pi: str, half_pi_neg: str) -> str:
    for value, text in ((0.0, "0"), (math.pi / 2, f"{pi} / 2"), (-math.pi / 2, half_pi_neg), (math.pi, pi), (-math.pi, f"-{pi}")):
        if abs(v - value) < 1e-9:
            return text
    raise AssertionError(v)


def _rpy(r: OrthoRotation, lang: str) -> str:
    pi, neg = ("M_PI", "-M_PI_2") if lang == "cpp" else ("math.pi", "-math.pi / 2")
    return ", ".join(_angle(a, pi, neg) for a in r.rpy())


def _entries(r: OrthoRotation) -> str:
    return ", ".join(str(v) for row in r.matrix() for v in row)


def _rows(r: OrthoRotation) -> str:
    return "[" + ", ".join("[" + ", ".join(str(v) for v in row) + "]" for row in r.matrix()) + "]"


def _partner(r: OrthoRotation) -> OrthoRotation:
    return ALL_ROTATIONS[(ALL_ROTATIONS.index(r) * 5 + 3) % 24]


def _axis_angle(r: OrthoRotation) -> tuple[float, tuple[float, float, float]]:
    x, y, z, w = r.quaternion()
    angle = 2 * math.acos(max(-1.0, min(1.0, w)))
    s = math.sqrt(max(0.0, 1 - w * w))
    return angle, (x / s, y / s, z / s) if s > 1e-9 else (1.0, 0.0, 0.0)


_Q_TO_MSG = "t.transform.rotation = tf2::toMsg(q);"
_QE_TO_MSG = "t.transform.rotation.x = qe.x();\n  t.transform.rotation.y = qe.y();\n  t.transform.rotation.z = qe.z();\n  t.transform.rotation.w = qe.w();"

CPP_FORMS: dict[str, Callable[[OrthoRotation], tuple[str, str]]] = {
    "tf2::Matrix3x3(9 values)": lambda r: (f"tf2::Matrix3x3 m({_entries(r)});\n  tf2::Quaternion q;\n  m.getRotation(q);", _Q_TO_MSG),
    "tf2::Quaternion::setRPY": lambda r: (f"tf2::Quaternion q;\n  q.setRPY({_rpy(r, 'cpp')});", _Q_TO_MSG),
    "tf2::Matrix3x3::setRPY": lambda r: (f"tf2::Matrix3x3 m;\n  m.setRPY({_rpy(r, 'cpp')});\n  tf2::Quaternion q;\n  m.getRotation(q);", _Q_TO_MSG),
    "tf::Quaternion(x, y, z, w)": lambda r: (
        "tf::Quaternion q({});".format(", ".join(repr(c) for c in r.quaternion())),
        "tf::quaternionTFToMsg(q, t.transform.rotation);",
    ),
    "Eigen::Matrix3d << ...": lambda r: (f"Eigen::Matrix3d m;\n  m << {_entries(r)};\n  Eigen::Quaterniond qe(m);", _QE_TO_MSG),
    "Eigen::Quaterniond(w, x, y, z)": lambda r: (
        "Eigen::Quaterniond qe({});".format(", ".join(repr(c) for c in (r.quaternion()[3], *r.quaternion()[:3]))),
        _QE_TO_MSG,
    ),
    "Eigen::AngleAxisd": lambda r: (
        "Eigen::Quaterniond qe(Eigen::AngleAxisd({!r}, Eigen::Vector3d({})));".format(_axis_angle(r)[0], ", ".join(repr(c) for c in _axis_angle(r)[1])),
        _QE_TO_MSG,
    ),
    "cv::Mat_ << ... and at()": lambda r: (
        f"cv::Mat R = (cv::Mat_<double>(3, 3) << {_entries(r)});\n  tf2::Matrix3x3 m("
        + ", ".join(f"R.at<double>({i}, {j})" for i in range(3) for j in range(3))
        + ");\n  tf2::Quaternion q;\n  m.getRotation(q);",
        _Q_TO_MSG,
    ),
    "product with inverse": lambda r: (
        f"tf2::Matrix3x3 a({_entries(r @ _partner(r))});\n  tf2::Matrix3x3 b({_entries(_partner(r))});\n"
        "  tf2::Matrix3x3 m = a * b.inverse();\n  tf2::Quaternion q;\n  m.getRotation(q);",
        _Q_TO_MSG,
    ),
    "transpose of the inverse": lambda r: (
        f"tf2::Matrix3x3 a({_entries(r.inverse())});\n  tf2::Quaternion q;\n  a.transpose().getRotation(q);",
        _Q_TO_MSG,
    ),
}


def _cpp_program(form: str, r: OrthoRotation) -> str:
    build, assign = CPP_FORMS[form](r)
    return (
        "#include <tf2_ros/static_transform_broadcaster.h>\n\n"
        "void publish_mount(tf2_ros::StaticTransformBroadcaster & br)\n{\n"
        f"  {build}\n"
        "  geometry_msgs::msg::TransformStamped t;\n"
        '  t.header.frame_id = "mount_a";\n'
        '  t.child_frame_id = "mount_b";\n'
        f"  {assign}\n"
        "  br.sendTransform(t);\n}\n"
    )


_PY_COMPONENTS_XYZW = (
    "\n    t.transform.rotation.x = q[0]\n    t.transform.rotation.y = q[1]\n    t.transform.rotation.z = q[2]\n    t.transform.rotation.w = q[3]"
)
_PY_COMPONENTS_WXYZ = (
    "\n    t.transform.rotation.w = q[0]\n    t.transform.rotation.x = q[1]\n    t.transform.rotation.y = q[2]\n    t.transform.rotation.z = q[3]"
)

PY_FORMS: dict[str, Callable[[OrthoRotation], str]] = {
    "numpy array + quaternion_from_matrix": lambda r: f"R = np.array({_rows(r)})\n    q = quaternion_from_matrix(R)" + _PY_COMPONENTS_XYZW,
    "quaternion_from_euler": lambda r: f"q = quaternion_from_euler({_rpy(r, 'py')})" + _PY_COMPONENTS_XYZW,
    "transforms3d euler2quat (w first)": lambda r: f"q = euler2quat({_rpy(r, 'py')})" + _PY_COMPONENTS_WXYZ,
    "transforms3d mat2quat (w first)": lambda r: f"q = mat2quat(numpy.array({_rows(r)}))" + _PY_COMPONENTS_WXYZ,
    "scipy Rotation": lambda r: f"q = Rotation.from_matrix(np.array({_rows(r)})).as_quat()" + _PY_COMPONENTS_XYZW,
    "matmul with transpose": lambda r: (
        f"A = np.array({_rows(r @ _partner(r))})\n    B = np.array({_rows(_partner(r))})\n    q = quaternion_from_matrix(A @ B.T)" + _PY_COMPONENTS_XYZW
    ),
    "np.dot with inv": lambda r: (
        f"A = np.array({_rows(r @ _partner(r))})\n    B = np.array({_rows(_partner(r))})\n    q = quaternion_from_matrix(np.dot(A, np.linalg.inv(B)))"
        + _PY_COMPONENTS_XYZW
    ),
    "Quaternion message kwargs": lambda r: "t.transform.rotation = Quaternion({})".format(", ".join(f"{k}={v!r}" for k, v in zip("xyzw", r.quaternion()))),
}


def _py_program(form: str, r: OrthoRotation) -> str:
    return (
        "import math\nimport numpy as np\n\n\n"
        "def publish_mount(broadcaster):\n"
        "    t = TransformStamped()\n"
        "    t.header.frame_id = 'mount_a'\n"
        "    t.child_frame_id = 'mount_b'\n"
        f"    {PY_FORMS[form](r)}\n"
        "    broadcaster.sendTransform(t)\n"
    )


@pytest.mark.parametrize("form", list(CPP_FORMS))
def test_cpp_forms_agree_with_core_for_all_24(form: str) -> None:
    wrong = []
    for r in ALL_ROTATIONS:
        facts = analyze_cpp(_cpp_program(form, r), "mount.cpp")
        got = [OrthoRotation.from_quaternion(e.rotation) if e.rotation is not None else None for e in facts.edges]
        if got != [r] or facts.findings:
            wrong.append((str(r), got, [f.code for f in facts.findings]))
    assert wrong == []


@pytest.mark.parametrize("form", list(PY_FORMS))
def test_python_forms_agree_with_core_for_all_24(form: str) -> None:
    wrong = []
    for r in ALL_ROTATIONS:
        facts = analyze_python(_py_program(form, r), "mount.py")
        got = [OrthoRotation.from_quaternion(e.rotation) if e.rotation is not None else None for e in facts.edges]
        if got != [r] or facts.findings:
            wrong.append((str(r), got, [f.code for f in facts.findings]))
    assert wrong == []


def test_non_orthogonal_rotation_is_top_and_never_a_finding() -> None:
    text = _cpp_program("tf2::Quaternion::setRPY", OrthoRotation.parse("<x,y,z>")).replace("q.setRPY(0, 0, 0)", "q.setRPY(0, 0, 0.3)")
    assert "setRPY(0, 0, 0.3)" in text
    text = text.replace('"mount_b"', '"camera_optical_frame"').replace('"mount_a"', '"camera_link"')
    facts = analyze_cpp(text, "tilted.cpp")
    (edge,) = facts.edges
    assert edge.rotation is not None and OrthoRotation.from_quaternion(edge.rotation) is None
    assert facts.findings == []


def test_wrong_constant_optical_rotation_is_reported_with_the_right_one() -> None:
    text = (
        _cpp_program("tf2::Matrix3x3(9 values)", OrthoRotation.parse("<x,y,z>"))
        .replace('"mount_a"', '"camera_link"')
        .replace('"mount_b"', '"camera_color_optical_frame"')
    )
    facts = analyze_cpp(text, "camera.cpp")
    assert [f.code for f in verdicts(facts)] == ["INCORRECT_TRANSFORM"]
    assert "<z,-x,-y>" in verdicts(facts)[0].message  # the rotation REP-103 wants
    right = text.replace("m(1, 0, 0, 0, 1, 0, 0, 0, 1)", "m(0, 0, 1, -1, 0, 0, 0, -1, 0)")
    assert verdicts(analyze_cpp(right, "camera.cpp")) == []


def test_rotation_returned_by_a_function_of_the_file() -> None:
    text = """
tf2::Quaternion optical_rotation()
{
  tf2::Quaternion q;
  q.setRPY(-M_PI_2, 0.0, -M_PI_2);
  return q;
}

void publish(tf2_ros::StaticTransformBroadcaster & br)
{
  geometry_msgs::msg::TransformStamped t;
  t.header.frame_id = "camera_link";
  t.child_frame_id = "camera_optical_frame";
  t.transform.rotation = tf2::toMsg(optical_rotation().inverse());
  br.sendTransform(t);
}
"""
    facts = analyze_cpp(text, "camera.cpp")
    assert [f.code for f in verdicts(facts)] == ["INCORRECT_TRANSFORM"]  # the inverse of the right rotation
    fixed = analyze_cpp(text.replace("optical_rotation().inverse()", "optical_rotation()"), "camera.cpp")
    assert verdicts(fixed) == [] and fixed.edges[0].static


# bosch_imu_driver's node (before its fix): the BNO055's fused quaternion registers copied as raw 16-bit counts,
# beside acceleration and rates divided by their scale factors; the fix divides by 2^14. A float unpacked ('f')
# and a scaled count are not reported.
BNO055 = """\
import struct as st
import rospy
from sensor_msgs.msg import Imu

imu_data = Imu()
imu_data.header.frame_id = 'imu_link'
imu_data.orientation.w = float(st.unpack('h', st.pack('BB', buf[24], buf[25]))[0])
imu_data.orientation.x = float(st.unpack('h', st.pack('BB', buf[26], buf[27]))[0])
imu_data.orientation.y = float(st.unpack('h', st.pack('BB', buf[28], buf[29]))[0])
imu_data.orientation.z = float(st.unpack('h', st.pack('BB', buf[30], buf[31]))[0])
imu_data.linear_acceleration.x = float(st.unpack('h', st.pack('BB', buf[32], buf[33]))[0]) / acc_fact
pub_data.publish(imu_data)
scaled = Imu()
scaled.orientation.w = float(st.unpack('h', st.pack('BB', buf[24], buf[25]))[0]) / 16384.0
floats = Imu()
floats.orientation.w = st.unpack('<f', raw[0:4])[0]
"""


def test_a_quaternion_filled_with_raw_integer_counts() -> None:
    found = [(f.code, f.location.line if f.location else None, f.message) for f in analyze_python(BNO055, "nodes/bosch_imu_node.py").findings
             if f.code == "INVALID_TRANSFORM"]
    assert [(code, line) for code, line, _ in found] == [("INVALID_TRANSFORM", 7)]
    assert found[0][2].startswith("imu_data.orientation takes raw integer counts as the device sends them")


@given(st.floats(-4.0, 4.0), st.floats(-4.0, 4.0), st.floats(-4.0, 4.0), st.sampled_from(sorted(t3e._AXES2TUPLE)))
def test_euler_angles_in_any_of_the_24_conventions_agree_with_transforms3d(ai: float, aj: float, ak: float, axes: str) -> None:
    exact = rot_from_euler_axes(ai, aj, ak, axes).exact
    assert exact is not None
    assert [v for row in exact for v in row] == pytest.approx(t3e.euler2mat(ai, aj, ak, axes).ravel().tolist(), abs=1e-9)


def test_an_unknown_euler_convention_has_no_value() -> None:
    assert rot_from_euler_axes(0.1, 0.2, 0.3, "qxyz").exact is None
    assert rot_from_euler_axes(0.1, 0.2, 0.3, "sxxy").exact is None  # two turns about one axis in a row
