"""The odometry transform drive controllers publish, from their YAML configuration.

ros_control's ``diff_drive_controller`` (ROS 1 and ros2_control), ``ackermann_steering_controller`` and
ros2_control's ``tricycle_controller`` publish ``odom_frame_id -> base_frame_id`` on /tf (defaults ``odom``
and ``base_link``) unless ``enable_odom_tf`` is false. A configuration that leaves ``base_frame_id`` at its
default beside a description rooted at ``base_footprint`` gives ``base_link`` two parents (raspimouse_sim):
the edge is placed at the controller's key, the line to change, or at ``base_frame_id`` when it is written out.
A robot description's Gazebo ros2_control plugin names such a file in its ``<parameters>``: the controller runs
with the robot (sobit_light's ``base_frame_id: base_link`` beside its ``base_footprint -> base_link`` joint).

ROS 1 keeps the parameters beside ``type``; ros2_control names the type under
``controller_manager: ros__parameters:`` and the parameters under ``<controller>: ros__parameters:``.
"""

from __future__ import annotations

from typing import Iterator

import yaml

from ..core.findings import Location
from ..core.tree import Edge

_DRIVES = frozenset({
    "diff_drive_controller/DiffDriveController", "ackermann_steering_controller/AckermannSteeringController",
    "tricycle_controller/TricycleController",
})
_OFF = frozenset({"false", "False", "FALSE", "no", "off"})


def controller_edges(text: str, rel_path: str) -> list[Edge]:
    """The odometry edge of each drive controller the YAML ``text`` configures, at the controller's line."""
    if not any(drive in text for drive in _DRIVES):
        return []  # the common case, without a YAML parse
    try:
        root = yaml.compose(text, Loader=yaml.SafeLoader)
    except (yaml.YAMLError, RecursionError):
        return []  # a file YAML cannot read says nothing here; its frame ids are read line by line
    if not isinstance(root, yaml.MappingNode):
        return []
    out = []
    for key, params in _controllers(root, set()):
        ros2 = _mapping(_get(_own_section(root, key.value), "ros__parameters"))
        values = {**_scalars(params), **_scalars(ros2)}
        if values.get("enable_odom_tf") in _OFF:
            continue
        parent, child = values.get("odom_frame_id", "odom"), values.get("base_frame_id", "base_link")
        if parent and child and parent != child and "$" not in parent + child:
            # a base frame written out is the line to change when the base has another parent
            written = _key_line(ros2, "base_frame_id") or _key_line(params, "base_frame_id")
            out.append(Edge(parent, child, False, None, None, (Location(rel_path, key.start_mark.line + 1),),
                            child_at=Location(rel_path, written) if written else None))
    return out


def _controllers(node: yaml.Node, seen: set[int], depth: int = 0) -> Iterator[tuple[yaml.ScalarNode, yaml.MappingNode]]:
    """(key, mapping) of every mapping, at any depth, whose ``type`` is a drive controller; each mapping is read
    once (aliases share nodes: a few lines of anchors would otherwise be walked exponentially often)."""
    if not isinstance(node, yaml.MappingNode) or depth > 16 or id(node) in seen:
        return
    seen.add(id(node))
    for k, v in node.value:
        if isinstance(k, yaml.ScalarNode) and isinstance(v, yaml.MappingNode) and id(v) not in seen:
            if _scalars(v).get("type") in _DRIVES:
                seen.add(id(v))
                yield k, v
            else:
                yield from _controllers(v, seen, depth + 1)


def _own_section(root: yaml.MappingNode, name: str) -> yaml.Node | None:
    """The top-level section of controller ``name``: ``name:``, or under a node namespace (``/robot1/name:``,
    ``/**/name:``)."""
    return _get(root, name) or next((v for k, v in root.value if isinstance(k, yaml.ScalarNode) and k.value.rstrip("/").split("/")[-1] == name), None)


def _get(node: yaml.Node | None, key: str) -> yaml.Node | None:
    if not isinstance(node, yaml.MappingNode):
        return None
    return next((v for k, v in node.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)


def _key_line(node: yaml.MappingNode | None, key: str) -> int | None:
    """The line of ``key`` in a mapping (1-based), if it holds it."""
    if node is None:
        return None
    return next((k.start_mark.line + 1 for k, _ in node.value if isinstance(k, yaml.ScalarNode) and k.value == key), None)


def _mapping(node: yaml.Node | None) -> yaml.MappingNode | None:
    return node if isinstance(node, yaml.MappingNode) else None


def _scalars(node: yaml.MappingNode | None) -> dict[str, str]:
    if node is None:
        return {}
    return {k.value: v.value for k, v in node.value if isinstance(k, yaml.ScalarNode) and isinstance(v, yaml.ScalarNode)}
