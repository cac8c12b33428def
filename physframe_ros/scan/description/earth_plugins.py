"""Simulator plugins that map the Gazebo world onto the earth. The world is ENU (REP-103: x east, y north, z up), and
a plugin that hands positions or headings to something earth-referenced turns it by a parameter the description sets.

hector_gazebo_plugins' GPS maps the world onto latitude and longitude turned by ``<referenceHeading>`` (degrees). At 0
the world's x axis points north and y west (NWU); REP-105's earth-referenced frames are ENU (x east), and
navsat_transform_node reads the fixes so, which takes 90. Written as 0 (the plugin's default, so a choice), the fixes
and the odometry of the same robot disagree by a quarter turn (warthog_description's GPS, fixed to 90 as Husky's and
Jackal's were).

ArduPilot's plugin turns the world into the autopilot's NED frame by the pose ``<gazeboXYZToNED>``: from ENU that is
exactly one rotation, rpy (pi, 0, pi/2), the one x/y swap with z flipped. A roll of pi alone (ardupilot_gazebo's iris
model before its issue 58, copied into many drone repositories) gives x east, y south, z down, and ArduPilot's heading,
GPS and compass come out a quarter turn off.
"""

from __future__ import annotations

from typing import Callable, Iterator

from ...core.findings import Finding, Location, Severity
from ...core.rotations import ENU, NED, OrthoRotation
from ..xml_lines import XmlNode
from .sdf_pose import read_pose

Locator = Callable[[XmlNode], Location]

_GPS_PLUGINS = ("hector_gazebo_ros_gps",)
_ENU_WORDS = {1: "east", -1: "west", 2: "north", -2: "south", 3: "up", -3: "down"}


def earth_mapping_findings(root: XmlNode, locate: Locator) -> Iterator[Finding]:
    """The plugins under ``root`` (a URDF's ``<gazebo>`` extensions, an SDF model) whose mapping of the world onto the
    earth is not ENU's."""
    for plugin in root.iter("plugin"):
        yield from _gps_heading(plugin, locate)
        yield from _ardupilot_ned(plugin, locate)


def _gps_heading(plugin: XmlNode, locate: Locator) -> Iterator[Finding]:
    """INCORRECT_TRANSFORM (warning) at a hector GPS plugin whose ``<referenceHeading>`` is written as 0."""
    if not any(name in (plugin.get("filename") or "") for name in _GPS_PLUGINS):
        return
    heading = next((el for el in plugin.children if el.tag == "referenceHeading"), None)
    try:
        value = float(heading.text.strip()) if heading is not None else None
    except ValueError:
        return
    if heading is None or value is None or value % 360.0 != 0.0:
        return
    yield Finding(
        "INCORRECT_TRANSFORM",
        f"GPS plugin '{plugin.get('name') or plugin.get('filename')}' has <referenceHeading>{heading.text.strip()}</referenceHeading>"
        ": hector's GPS then puts the world's x axis north and y west (NWU), so its fixes disagree with the ENU world "
        "REP-105 and navsat_transform_node assume (x east) by a quarter turn; 90 puts x east",
        (), locate(heading), severity=Severity.WARNING,
    )


def _ardupilot_ned(plugin: XmlNode, locate: Locator) -> Iterator[Finding]:
    """INCORRECT_TRANSFORM at an ArduPilot plugin whose ``<gazeboXYZToNED>`` turns the ENU world into axes other than NED."""
    pose_el = next((el for el in plugin.children if el.tag == "gazeboXYZToNED"), None)
    pose, _ = read_pose(pose_el) if pose_el is not None and "$" not in pose_el.text else (None, None)
    turn = OrthoRotation.from_matrix(pose[0]) if pose is not None else None
    if pose_el is None or turn is None or turn.apply(ENU) == NED:
        return  # a tilted or unreadable value says nothing of the axes
    axes = ", ".join(f"{axis} {_ENU_WORDS[d]}" for axis, d in zip("xyz", turn.apply(ENU).dirs))
    yield Finding(
        "INCORRECT_TRANSFORM",
        f"ArduPilot plugin '{plugin.get('name') or plugin.get('filename')}' maps the Gazebo world to NED with "
        f"<gazeboXYZToNED>{' '.join(pose_el.text.split())}</gazeboXYZToNED>, which turns the ENU world (REP-103: x east, "
        f"y north, z up) into {axes}, not NED (x north, y east, z down): ArduPilot reads the vehicle's heading, GPS and "
        "compass turned from the simulated world; ENU to NED is rpy (pi, 0, pi/2): 0 0 0 3.141593 0 1.570796",
        (), locate(pose_el),
    )
