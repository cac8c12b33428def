"""Cartographer's Lua configuration (``options = { map_frame = "map", published_frame = "odom", ... }``): the frames
its node broadcasts, read as text, never run.

Cartographer publishes ``map_frame -> published_frame``, or ``map_frame -> odom_frame -> published_frame`` with
``provide_odom_frame``. Its documentation and every configuration it ships that reads odometry
(``use_odometry = true``, turtlebot's, taurob's) set ``published_frame`` to the odometry's frame: the node giving
the odometry also broadcasts ``odom -> base_link``, so a ``published_frame`` that is the base gives the base a
second parent (roverrobotics_ros2's ``published_frame = "base_footprint"`` beside robot_localization's
``odom -> base_footprint``).
"""

from __future__ import annotations

import re

from ...core.conventions import BASE, default_conventions
from ...core.findings import Finding, Location, Severity
from ..frame_ids import parameter_findings
from ..model import FileFacts

# `  published_frame = "base_link",  -- comment`; `provide_odom_frame = false,`
_ASSIGNMENT = re.compile(r"""^[ \t]*(\w+)[ \t]*=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)'|(true|false))[ \t]*,?[ \t]*(?:--.*)?$""", re.MULTILINE)
_FRAME_KEYS = ("map_frame", "tracking_frame", "published_frame", "odom_frame")


def is_cartographer_config(text: str) -> bool:
    """A Lua file that configures cartographer_ros' node (other Lua, a game's or a tool's, is not read)."""
    return "published_frame" in text and "tracking_frame" in text


def parse_cartographer_lua(text: str, rel_path: str) -> FileFacts:
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    if not is_cartographer_config(text):
        return facts
    values: dict[str, str | bool] = {}
    lines: dict[str, int] = {}
    for m in _ASSIGNMENT.finditer(text):
        key = m.group(1)
        if key in values:
            continue  # the first `options` table is the one the node reads; later ones are rare overrides
        values[key] = m.group(4) == "true" if m.group(4) else (m.group(2) if m.group(2) is not None else m.group(3) or "")
        lines[key] = text.count("\n", 0, m.start()) + 1
    frames = {k: v for k, v in values.items() if k in _FRAME_KEYS and isinstance(v, str)}
    facts.findings.extend(parameter_findings(frames, lines, rel_path, 1, kind="cartographer option", ros2=True))
    published, odom = frames.get("published_frame"), frames.get("odom_frame", "odom")
    if (values.get("use_odometry") is True and values.get("provide_odom_frame") is False and published
            and published != odom and default_conventions().classify(published.lstrip("/")).cls.name == BASE):
        world = frames.get("map_frame", "map")
        facts.findings.append(Finding(
            "MULTIPLE_PARENTS_IN_FRAME_TREE",
            f"cartographer broadcasts {world} -> {published} (published_frame, with provide_odom_frame = false) while it reads "
            f"odometry (use_odometry = true), whose source broadcasts {odom} -> {published}: '{published}' gets two parents, "
            f"and tf2 keeps whichever arrived last; with odometry, published_frame is the odometry's frame "
            f"(published_frame = \"{odom}\", as cartographer's own configurations with odometry have it)",
            (published, world, odom), Location(rel_path, lines["published_frame"]), severity=Severity.WARNING,
        ))
    return facts
