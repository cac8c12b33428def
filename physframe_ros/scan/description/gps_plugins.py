"""A simulated GNSS receiver's reference heading: hector_gazebo_plugins' GPS maps the Gazebo world onto latitude and
longitude turned by ``<referenceHeading>`` (degrees). At 0 the world's x axis points north and y west (NWU); REP-105's
earth-referenced frames are ENU (x east), and navsat_transform_node reads the fixes so, which takes 90. Written as 0
(the plugin's default, so a choice), the fixes and the odometry of the same robot disagree by a quarter turn
(warthog_description's GPS, fixed to 90 as Husky's and Jackal's were)."""

from __future__ import annotations

from typing import Callable, Iterator

from ...core.findings import Finding, Location, Severity
from ..xml_lines import XmlNode

_GPS_PLUGINS = ("hector_gazebo_ros_gps",)


def gps_heading_findings(root: XmlNode, locate: Callable[[XmlNode], Location]) -> Iterator[Finding]:
    """INCORRECT_TRANSFORM (warning) at each hector GPS plugin whose ``<referenceHeading>`` is written as 0."""
    for plugin in root.iter("plugin"):
        if not any(name in (plugin.get("filename") or "") for name in _GPS_PLUGINS):
            continue
        heading = next((el for el in plugin.children if el.tag == "referenceHeading"), None)
        try:
            value = float(heading.text.strip()) if heading is not None else None
        except ValueError:
            continue
        if value is None or value % 360.0 != 0.0:
            continue
        yield Finding(
            "INCORRECT_TRANSFORM",
            f"GPS plugin '{plugin.get('name') or plugin.get('filename')}' has <referenceHeading>{heading.text.strip()}</referenceHeading>"  # type: ignore[union-attr]
            ": hector's GPS then puts the world's x axis north and y west (NWU), so its fixes disagree with the ENU world "
            "REP-105 and navsat_transform_node assume (x east) by a quarter turn; 90 puts x east",
            (), locate(heading), severity=Severity.WARNING,  # type: ignore[arg-type]
        )
