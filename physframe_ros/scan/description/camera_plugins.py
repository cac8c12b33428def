"""REP-103 in robot descriptions: the frame a Gazebo camera plugin stamps its images with is an optical frame.

Gazebo renders a camera looking along the +x axis of the link the sensor is attached to (``<gazebo
reference="camera_link">``), a body frame: x forward, y left, z up. The plugin stamps every image and
camera_info with its frame parameter (``<frameName>``, ``<frame_name>``, ``<gz_frame_id>``...); that frame
must be the optical one, x right, y down, z forward, i.e. the body turned by rpy (-pi/2, 0, -pi/2). A
frame that is the sensor's link itself, or a link fixed to it with a known rotation that is not that turn,
publishes the images rotated. Only a rotation the description fixes is judged: a frame built by xacro, one
defined elsewhere or reached through a movable joint says nothing.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable

from ...core.conventions import OPTICAL, Conventions
from ...core.findings import Finding, Location
from ...core.rotations import FLU, IDENTITY, RDF, OrthoRotation
from ...core.tree import Edge
from ..xml_lines import XmlNode

Locator = Callable[[XmlNode], Location]

CAMERA_SENSORS = frozenset({"camera", "depth", "multicamera", "wideanglecamera", "rgbd_camera", "depth_camera", "rgbd"})
FRAME_TAGS = ("frameName", "frame_name", "gz_frame_id", "ignition_frame_id", "optical_frame_id")


def _frame_of(sensor: XmlNode) -> XmlNode | None:
    """The element naming the frame a camera sensor's plugin (or the sensor itself, for gz) stamps images with."""
    return next((el for el in sensor.iter() if el.tag in FRAME_TAGS and el.text.strip()), None)


def _down(top: str, bottom: str, parent: dict[str, Edge], tolerance: float) -> OrthoRotation | None:
    """The fixed rotation from ``top`` down to its descendant ``bottom`` through static edges; None if none."""
    rot, cur = IDENTITY, bottom
    for _ in range(len(parent) + 1):
        e = parent.get(cur)
        if e is None or not e.static or e.rotation is None:
            return None
        step = OrthoRotation.from_quaternion(e.rotation, tolerance)
        if step is None:
            return None
        rot, cur = step @ rot, e.parent
        if cur == top:
            return rot
    return None


def _rotation_to(link: str, frame: str, edges: list[Edge], tolerance: float = 1e-3) -> OrthoRotation | None:
    """The fixed rotation from ``link`` to ``frame`` (below or above it) through static edges; None when not fixed."""
    if frame == link:
        return IDENTITY
    parent = {e.child: e for e in edges}
    below = _down(link, frame, parent, tolerance)
    if below is not None:
        return below
    above = _down(frame, link, parent, tolerance)
    return above.inverse() if above is not None else None


@lru_cache(maxsize=1)
def default_conventions() -> Conventions:
    """The REP conventions descriptions are judged by (one instance for every check of the process)."""
    return Conventions()


def camera_plugin_findings(robot: XmlNode, edges: list[Edge], locate: Locator, prefix: str = "") -> list[Finding]:
    """INCORRECT_TRANSFORM for each camera sensor whose plugin frame is not optical relative to its link."""
    conventions = default_conventions()
    out: list[Finding] = []
    for gz in robot.findall("gazebo"):
        link = (gz.get("reference") or "").strip()
        if not link or "$" in link:
            continue
        for sensor in gz.findall("sensor"):
            if sensor.get("type") not in CAMERA_SENSORS:
                continue
            el = _frame_of(sensor)
            if el is None:
                continue
            frame = el.text.strip()
            if "$" in frame or conventions.classify(prefix + link).cls.name == OPTICAL:
                continue
            rot = _rotation_to(prefix + link, prefix + frame, edges)
            if rot is None or rot.apply(FLU) == RDF:
                continue
            axes = rot.apply(FLU)
            plugin = locate(el)
            # the line to change: the joint that turns a direct child the wrong way, else the plugin's frame
            joint = next((e.sources[0] for e in edges if e.parent == prefix + link and e.child == prefix + frame and e.sources), None)
            if rot == IDENTITY:
                how, fix = "the sensor's link itself", f"give the plugin a child frame of '{link}' turned by rpy (-pi/2, 0, -pi/2)"
            else:
                how, fix = f"fixed to it with rotation {rot}", f"turn '{frame}' by rpy (-pi/2, 0, -pi/2) from '{link}'"
            at = f" (the plugin names it at line {plugin.line})" if joint is not None and plugin.line else ""
            out.append(Finding(
                "INCORRECT_TRANSFORM",
                f"camera sensor '{sensor.get('name', '')}' on link '{link}' stamps its images in '{frame}'{at} ({how}), which is {axes} "
                f"relative to the link; Gazebo renders along the link's x axis and REP-103 camera data is in an optical frame, "
                f"{RDF} (x right, y down, z forward): {fix}",
                tuple(dict.fromkeys((prefix + link, prefix + frame))),
                joint if joint is not None else plugin,
            ))
    return out
