"""The demo robot as data (no ROS): a clean REP-105 mobile manipulator and the faults the demo injects.

The clean robot is also the test fixture for "a correct ~40-frame robot yields no
finding", so it must stay correct by every convention the checks know:
map -> odom -> base_footprint -> base_link, FLU body and sensor frames, RGB-D
optical frames at (-0.5, 0.5, -0.5, 0.5) from their FLU camera frames (REP-103),
no sensor sitting exactly on base_link.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..core.rotations import Quaternion, quaternion_from_axis_angle, quaternion_multiply
from ..core.tree import Vector

IDENTITY: Quaternion = (0.0, 0.0, 0.0, 1.0)
OPTICAL: Quaternion = (-0.5, 0.5, -0.5, 0.5)  # FLU camera frame -> RDF optical frame
YAW_180: Quaternion = (0.0, 0.0, 1.0, 0.0)
ROLL_180: Quaternion = (1.0, 0.0, 0.0, 0.0)  # FLU -> FRD (MAVROS fcu -> fcu_frd)


@dataclass(frozen=True)
class TfEdge:
    """One parent -> child transform. Dynamic edges move: a joint spins about ``spin_axis``;
    a base drives a circle of ``circle_radius`` at ``spin_rate`` rad/s (odometry)."""

    parent: str
    child: str
    translation: Vector = (0.0, 0.0, 0.0)
    rotation: Quaternion = IDENTITY
    spin_axis: Vector | None = None
    spin_rate: float = 0.0
    circle_radius: float = 0.0

    def at(self, t: float) -> tuple[float, float, float, float, float, float, float]:
        """(tx, ty, tz, qx, qy, qz, qw) at time ``t`` seconds."""
        x, y, z = self.translation
        q = self.rotation
        angle = self.spin_rate * t
        if self.circle_radius:
            x += self.circle_radius * math.sin(angle)
            y += self.circle_radius * (1.0 - math.cos(angle))
            q = quaternion_multiply(q, quaternion_from_axis_angle((0.0, 0.0, 1.0), angle))
        elif self.spin_axis is not None:
            q = quaternion_multiply(q, quaternion_from_axis_angle(self.spin_axis, angle))
        return (x, y, z, *q)


@dataclass(frozen=True)
class TfSource:
    """What one node publishes: latched edges on /tf_static and moving ones on /tf."""

    node_name: str
    static: tuple[TfEdge, ...] = ()
    dynamic: tuple[TfEdge, ...] = ()

    @property
    def frames(self) -> set[str]:
        return {f for e in (*self.static, *self.dynamic) for f in (e.parent, e.child)}


Y_AXIS: Vector = (0.0, 1.0, 0.0)
Z_AXIS: Vector = (0.0, 0.0, 1.0)


def _rgbd_camera(prefix: str, parent: str, mount: Vector) -> tuple[TfEdge, ...]:
    """A RealSense-style camera: body frame, one FLU frame per imager and IMU, each with its optical frame."""
    edges = [TfEdge(parent, f"{prefix}_link", mount)]
    for stream, offset in (
        ("color", (0.0, 0.015, 0.0)),
        ("depth", (0.0, 0.0, 0.0)),
        ("infra1", (0.0, 0.0, 0.0)),
        ("infra2", (0.0, -0.05, 0.0)),
        ("accel", (-0.01, -0.017, 0.02)),
        ("gyro", (-0.01, -0.017, 0.02)),
    ):
        frame = f"{prefix}_{stream}_frame"
        edges.append(TfEdge(f"{prefix}_link", frame, offset))
        edges.append(TfEdge(frame, f"{prefix}_{stream}_optical_frame", (0.0, 0.0, 0.0), OPTICAL))
    return tuple(edges)


#: A differential-drive base with a lidar, an IMU, a GPS, sonars, an RGB-D camera and a 4-joint arm
#: with a wrist camera: 42 frames, like robot_state_publisher plus localization would publish them.
CLEAN_ROBOT = TfSource(
    "demo_robot",
    static=(
        TfEdge("base_footprint", "base_link", (0.0, 0.0, 0.1)),
        TfEdge("base_link", "chassis_link", (0.0, 0.0, 0.05)),
        TfEdge("chassis_link", "top_plate_link", (0.0, 0.0, 0.25)),
        TfEdge("base_link", "front_caster_link", (0.25, 0.0, -0.05)),
        TfEdge("base_link", "rear_caster_link", (-0.25, 0.0, -0.05)),
        TfEdge("base_link", "bumper_front_link", (0.32, 0.0, 0.0)),
        TfEdge("base_link", "bumper_rear_link", (-0.32, 0.0, 0.0), YAW_180),
        TfEdge("top_plate_link", "lidar_mount_link", (0.1, 0.0, 0.02)),
        TfEdge("lidar_mount_link", "laser_link", (0.0, 0.0, 0.06)),
        TfEdge("base_link", "imu_link", (0.0, 0.0, 0.12)),
        TfEdge("top_plate_link", "gps_link", (-0.15, 0.0, 0.1)),
        TfEdge("base_link", "sonar_front_link", (0.3, 0.0, 0.08)),
        TfEdge("base_link", "sonar_rear_link", (-0.3, 0.0, 0.08), YAW_180),
        TfEdge("top_plate_link", "camera_mount_link", (0.2, 0.0, 0.05)),
        *_rgbd_camera("camera", "camera_mount_link", (0.02, 0.0, 0.03)),
        TfEdge("top_plate_link", "arm_base_link", (0.0, 0.0, 0.01)),
        TfEdge("wrist_link", "gripper_link", (0.08, 0.0, 0.0)),
        TfEdge("gripper_link", "gripper_left_finger_link", (0.04, 0.02, 0.0)),
        TfEdge("gripper_link", "gripper_right_finger_link", (0.04, -0.02, 0.0)),
        TfEdge("wrist_link", "wrist_camera_link", (0.03, 0.0, 0.04)),
        TfEdge("wrist_camera_link", "wrist_camera_optical_frame", (0.0, 0.0, 0.0), OPTICAL),
    ),
    dynamic=(
        TfEdge("map", "odom", (0.5, -0.2, 0.0), spin_axis=Z_AXIS, spin_rate=0.01),  # localization drift correction
        TfEdge("odom", "base_footprint", circle_radius=2.0, spin_rate=0.2),
        TfEdge("base_link", "left_wheel_link", (0.0, 0.2, 0.0), spin_axis=Y_AXIS, spin_rate=2.0),
        TfEdge("base_link", "right_wheel_link", (0.0, -0.2, 0.0), spin_axis=Y_AXIS, spin_rate=2.0),
        TfEdge("arm_base_link", "shoulder_link", (0.0, 0.0, 0.05), spin_axis=Z_AXIS, spin_rate=0.3),
        TfEdge("shoulder_link", "upper_arm_link", (0.0, 0.0, 0.1), spin_axis=Y_AXIS, spin_rate=0.2),
        TfEdge("upper_arm_link", "forearm_link", (0.3, 0.0, 0.0), spin_axis=Y_AXIS, spin_rate=-0.2),
        TfEdge("forearm_link", "wrist_link", (0.25, 0.0, 0.0), spin_axis=Y_AXIS, spin_rate=0.4),
    ),
)

#: The faults the demo injects, each from its own node so the monitor names the culprit.
FAULTS: tuple[TfSource, ...] = (
    # MAVROS-style loop: fcu -> fcu_frd and back (correct FLU->FRD rotations, wrong structure)
    TfSource("demo_mavros", dynamic=(TfEdge("fcu", "fcu_frd", rotation=ROLL_180), TfEdge("fcu_frd", "fcu", rotation=ROLL_180))),
    # a rear camera whose optical frame was left with the identity rotation (must be RDF)
    TfSource(
        "demo_rear_camera",
        static=(
            TfEdge("base_link", "rear_camera_link", (-0.3, 0.0, 0.3), YAW_180),
            TfEdge("rear_camera_link", "rear_camera_optical_frame", (0.0, 0.0, 0.0), IDENTITY),
        ),
    ),
    # an IMU filter that also publishes imu_link, under odom: a second parent
    TfSource("demo_imu_filter", dynamic=(TfEdge("odom", "imu_link", (0.0, 0.0, 0.22), spin_axis=Z_AXIS, spin_rate=0.2),)),
)
