"""What well-known nodes publish on /tf, for nodes a launch file starts whose sources are not scanned.

A launch file that starts a node the scan cannot see into (a driver, Gazebo, a bag player) runs a
system the scan does not know completely: that node may publish any frame, so no lookup in it can be
called unreachable. The nodes below are known: either they publish no transform at all, or the
transforms they publish by default are listed (parameters may rename the frames; the defaults are
what a lookup of REP-105 names meets). ``robot_state_publisher`` and ``static_transform_publisher``
are read from their description and arguments by the launch parsers, so their edges are already in
the subsystem.
"""

from __future__ import annotations

from .model import LaunchedNode

#: (parent, child) pairs a node may publish.
Publishes = tuple[tuple[str, str], ...]

_MAP_ODOM: Publishes = (("map", "odom"),)
_ODOM_BASE: Publishes = (("odom", "base_link"), ("odom", "base_footprint"))
_LOCALIZATION: Publishes = (*_MAP_ODOM, *_ODOM_BASE)

# By package: every executable of these packages.
_PACKAGES: dict[str, Publishes] = {
    "robot_state_publisher": (),
    "rclcpp_components": (),  # the container: its composable nodes are nodes of their own
    "joint_state_publisher": (),
    "joint_state_publisher_gui": (),
    "rviz": (),
    "rviz2": (),
    "rqt_gui": (),
    "map_server": (),
    "nav2_map_server": (),
    "nav2_lifecycle_manager": (),
    "nav2_controller": (),
    "nav2_planner": (),
    "nav2_behaviors": (),
    "nav2_bt_navigator": (),
    "nav2_waypoint_follower": (),
    "nav2_velocity_smoother": (),
    "nav2_smoother": (),
    "nav2_collision_monitor": (),
    "move_base": (),
    "teleop_twist_keyboard": (),
    "teleop_twist_joy": (),
    "joy": (),
    "joy_linux": (),
    "twist_mux": (),
    "topic_tools": (),
    "image_view": (),
    "image_proc": (),
    "depthimage_to_laserscan": (),
    "pointcloud_to_laserscan": (),
    "amcl": _MAP_ODOM,
    "nav2_amcl": _MAP_ODOM,
    "slam_toolbox": _MAP_ODOM,
    "gmapping": _MAP_ODOM,
    "slam_gmapping": _MAP_ODOM,
    "hector_mapping": _LOCALIZATION,
    "cartographer_ros": _LOCALIZATION,
    "fake_localization": _MAP_ODOM,
    # robot_localization: world_frame -> base_link_frame, world_frame odom (default) or map (YAML)
    "robot_localization": _LOCALIZATION,
    # ros2_control: the diff drive / mecanum / tricycle controllers publish odom -> base_link
    "controller_manager": _ODOM_BASE,
}
_TF_TOOLS = frozenset({"tf", "tf2_ros"})
_TF_TOOL_EXECUTABLES = frozenset({"static_transform_publisher", "tf_echo", "view_frames", "tf_monitor", "buffer_server"})


def known_publishes(node: LaunchedNode) -> Publishes | None:
    """What the node publishes on /tf by default, or None when the scan does not know the node."""
    if node.package in _TF_TOOLS:
        return () if node.executable in _TF_TOOL_EXECUTABLES else None
    if node.package == "nodelet":  # ROS 1's manager, like the components container; a nodelet it loads is its plugin's
        return () if node.executable == "nodelet" else None
    return _PACKAGES.get(node.package)
