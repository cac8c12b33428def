"""Angles in degrees handed to functions that take radians, from real idioms: cit_adis_imu's IMU node (the yaw
converted, the pitch beside it not), spot_ros2's ``quaternion_from_euler(0.0, 0.0, math.degrees(yaw))``; Azure
Kinect's ``setEuler(0, angles::from_degrees(-7.3), 0)`` and conversions written out are right."""

from __future__ import annotations

import pytest

from physframe_ros.scan.code import analyze_cpp, analyze_python
from physframe_ros.scan.code.angle_units import degrees_argument

CIT_ADIS = """\
void ImuNode::spin(const ImuData & data, double angular_z_deg)
{
  tf::Quaternion q = tf::createQuaternionFromRPY(data.angular_deg[1], 0.0, deg_to_rad(angular_z_deg));
  tf::quaternionTFToMsg(q, output_msg.orientation);
  depth_rotation.setEuler(0, angles::from_degrees(-7.3), 0);
  tf2::Quaternion r;
  r.setRPY(roll_deg * M_PI / 180.0, 0, yaw);
  r.setRPY(0, 0, heading * 180.0 / M_PI);
}
"""

SPOT = """\
import math
from tf_transformations import quaternion_from_euler


def pose(yaw, pitch_degrees):
    [qx, qy, qz, qw] = quaternion_from_euler(0.0, 0.0, math.degrees(yaw))
    a = quaternion_from_euler(0.0, math.radians(pitch_degrees), yaw)
    b = quaternion_from_euler(0.0, pitch_degrees, yaw)
    return qx, qy, qz, qw, a, b
"""


def _found(facts) -> list[tuple[int | None, str]]:  # type: ignore[no-untyped-def]
    return [(f.location.line if f.location else None, f.level.name) for f in facts.findings if f.code == "INCORRECT_TRANSFORM"]


def test_cpp_angles_in_degrees_given_to_rpy() -> None:
    facts = analyze_cpp(CIT_ADIS, "src/imu_node.cpp")
    assert _found(facts) == [(3, "WARNING"), (8, "WARNING")]
    assert "'data.angular_deg[1]' is named as an angle in degrees" in facts.findings[0].message


def test_python_angles_in_degrees_given_to_quaternion_from_euler() -> None:
    facts = analyze_python(SPOT, "spot_driver/command_spot_driver.py")
    assert _found(facts) == [(6, "WARNING"), (8, "WARNING")]
    assert "'math.degrees(yaw)' is converted to degrees here" in facts.findings[0].message


@pytest.mark.parametrize(
    ("argument", "converted"),
    [
        ("yaw_deg", False), ("msg.headingDeg", False), ("angle_degrees", False), ("RAD2DEG(yaw)", True),
        ("np.rad2deg(a)", True), ("a * 180 / M_PI", True),
        ("deg2rad(yaw_deg)", None), ("yaw_deg * DEG_TO_RAD", None), ("angles::from_degrees(x)", None),
        ("degree_of_freedom_count", None), ("default_yaw", None), ("yaw", None), ("pkg.deg_x * pi / 180", None),
    ],
)
def test_degrees_argument(argument: str, converted: bool | None) -> None:
    found = degrees_argument("setRPY", argument, 1)
    assert (found.converted if found else None) == converted
