"""A node's own Euler-to-quaternion function, read for the order of what it returns (orange_ros2's motor driver
wrote the Wikipedia version, w first, and indexed it as x, y, z, w; its fix indexes 1, 2, 3, 0)."""

from __future__ import annotations

import ast
import math

import transforms3d.euler as t3d_euler
from hypothesis import given
from hypothesis import strategies as st

from physframe_ros.scan.code import analyze_python
from physframe_ros.scan.code.own_euler import _block, quaternion_functions, returned_order

WIKIPEDIA = """\
import math
def quaternion_from_euler(self, roll, pitch, yaw):
    cy = math.cos(yaw * 0.5)
    sy = math.sin(yaw * 0.5)
    cp = math.cos(pitch * 0.5)
    sp = math.sin(pitch * 0.5)
    cr = math.cos(roll * 0.5)
    sr = math.sin(roll * 0.5)

    q = [0] * 4
    q[0] = cy * cp * cr + sy * sp * sr
    q[1] = cy * cp * sr - sy * sp * cr
    q[2] = sy * cp * sr + cy * sp * cr
    q[3] = sy * cp * cr - cy * sp * sr
    return q
"""
# the ROS 2 tf2 tutorial's (static_turtle_tf2_broadcaster.py)
TUTORIAL = """\
import math
import numpy as np
def quaternion_from_euler(ai, aj, ak):
    ai /= 2.0
    aj /= 2.0
    ak /= 2.0
    return [0.0, 0.0, 0.0, 1.0]
def quaternion_from_euler2(ai, aj, ak):
    ai = ai / 2.0
    aj = aj / 2.0
    ak = ak / 2.0
    ci = math.cos(ai)
    si = math.sin(ai)
    cj = math.cos(aj)
    sj = math.sin(aj)
    ck = math.cos(ak)
    sk = math.sin(ak)
    cc = ci*ck
    cs = ci*sk
    sc = si*ck
    ss = si*sk

    q = np.empty((4, ))
    q[0] = cj*sc - sj*cs
    q[1] = cj*ss + sj*cc
    q[2] = cj*cs - sj*sc
    q[3] = cj*cc + sj*ss

    return q
"""

ORANGE = WIKIPEDIA.replace("import math\n", "import math\nfrom geometry_msgs.msg import TransformStamped\nclass Driver:\n").replace(
    "\ndef ", "\n    def ").replace("\n    ", "\n        ").replace("\n        def", "\n    def") + """\
    def publish(self, x, y, theta):
        t = TransformStamped()
        t.header.frame_id = "odom"
        t.child_frame_id = "base_footprint"
        rotation = self.quaternion_from_euler(0, 0, theta)
        t.transform.rotation.x = rotation[0]
        t.transform.rotation.y = rotation[1]
        t.transform.rotation.z = rotation[2]
        t.transform.rotation.w = rotation[3]
        self.br.sendTransform(t)
"""


def _orders(text: str) -> dict[str, str | None]:
    return {name: returned_order(fn) for name, fn in quaternion_functions(ast.parse(text)).items()}


def test_the_order_each_version_returns() -> None:
    assert _orders(WIKIPEDIA) == {"quaternion_from_euler": "wxyz"}
    # the augmented assignments of the first are not modelled (unknown); the second is the tutorial's body
    assert _orders(TUTORIAL) == {"quaternion_from_euler": None, "quaternion_from_euler2": "xyzw"}


def test_other_conventions_and_other_code_stay_unknown() -> None:
    yaw_first = WIKIPEDIA.replace("roll, pitch, yaw", "yaw, pitch, roll")  # angles taken in another order
    assert _orders(yaw_first) == {"quaternion_from_euler": None}
    logged = WIKIPEDIA.replace("    q = [0] * 4\n", "    print(cy)\n    q = [0] * 4\n")
    assert _orders(logged) == {"quaternion_from_euler": None}
    looped = WIKIPEDIA.replace("    return q\n", "    while True:\n        pass\n")
    assert _orders(looped) == {"quaternion_from_euler": None}
    assert _orders("def quat_norm(q):\n    return q\n") == {}  # not three angles


@given(st.floats(-math.pi, math.pi), st.floats(-1.5, 1.5), st.floats(-math.pi, math.pi))
def test_the_evaluated_body_is_transforms3d_quaternion(roll: float, pitch: float, yaw: float) -> None:
    # the reading of the body (never run) gives transforms3d's w-first quaternion of the same angles, any angles
    (fn,) = quaternion_functions(ast.parse(WIKIPEDIA)).values()
    q = _block(fn.body, {"roll": roll, "pitch": pitch, "yaw": yaw}, [0])
    expected = t3d_euler.euler2quat(roll, pitch, yaw, "sxyz")
    assert isinstance(q, list) and all(abs(a - b) < 1e-9 for a, b in zip(q, expected))


def test_orange_ros2_indexes_its_w_first_quaternion_as_x_first() -> None:
    findings = [f for f in analyze_python(ORANGE, "orange_bringup/motor_driver_node.py").findings if "slots take" in f.message]
    assert [f.location.line for f in findings if f.location] == [23]
    assert "components (w, x, y, z)" in findings[0].message
    fixed = ORANGE.replace("rotation[0]\n", "rotation[1]\n", 1).replace(".y = rotation[1]", ".y = rotation[2]").replace(
        ".z = rotation[2]", ".z = rotation[3]").replace(".w = rotation[3]", ".w = rotation[0]")
    assert [f for f in analyze_python(fixed, "m.py").findings if "slots take" in f.message] == []


def test_a_docstring_promising_the_other_order() -> None:
    """purdue-arc/rocket_league's stand-in for tf.transformations: documented x, y, z, w, computed w first; reported
    at the line writing the first component. The same body documented w first, or not at all, is no finding."""
    def found(doc: str) -> list[tuple[str, int | None]]:
        text = WIKIPEDIA.replace("def quaternion_from_euler(self, roll, pitch, yaw):\n",
                                 f'def quaternion_from_euler(roll, pitch, yaw):\n    """{doc}"""\n')
        return [(f.code, f.location.line if f.location else None) for f in analyze_python(text, "external/transformations.py").findings]

    assert found("Converts euler roll, pitch, yaw to quaternion (w in last place)\n    quat = [x, y, z, w]") == [("INCORRECT_TRANSFORM", 13)]
    assert found("Returns [w, x, y, z].") == [] and found("Converts euler angles to a quaternion.") == []
