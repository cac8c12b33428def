"""Frame ids written as Gazebo plugin parameters in a robot description (``<frameName>/imu_link</frameName>``,
``<robotBaseFrame>``, ``<frame_id>``): the plugin stamps its messages or broadcasts with them, so each is checked
as INVALID_FRAME_ID at its line, as a launch file's frame parameters are."""

from __future__ import annotations

from dataclasses import replace
from typing import Callable, Iterator

from ...core.findings import Finding, Location
from ...core.frame_patterns import bind, variables
from ..frame_ids import frame_id_finding, names_frame, snake_case
from ..xml_lines import XmlNode

_NOWHERE = Location("")


def plugin_frame_findings(root: XmlNode, locate: Callable[[XmlNode], Location]) -> Iterator[Finding]:
    """Every ``<plugin>`` under ``root`` (a URDF's ``<gazebo>`` extensions, an SDF model): its parameter elements
    named like a frame (in camelCase or snake_case), with a plain text value."""
    for plugin in root.iter("plugin"):
        name = plugin.get("name") or plugin.get("filename") or ""
        for el in plugin.iter():
            if el is plugin or el.children or not names_frame(snake_case(el.tag)):
                continue
            # a macro expanded on its own holds its parameters as `{prefix}`: what is written around them is judged
            text = el.text.strip()
            judged = bind(text, dict.fromkeys(variables(text), "x"))
            finding = frame_id_finding(judged, _NOWHERE, f"Gazebo plugin '{name}' <{el.tag}>")
            if finding is not None:  # located only then: a xacro element's line is found by searching the file
                yield replace(finding, location=locate(el), message=finding.message.replace(judged, text),
                              frames=(text,))
