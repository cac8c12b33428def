"""Message types the scanned tree defines (``msg/ClusterList.msg``): those with a ``Header header`` field
that carry spatial data are stamped data, checked like the stamped types of the common packages wherever
the code builds them. A header on data with no place in space (ESC telemetry, a goal given as a map node
id, timing metrics) only stamps the time: its empty frame is no bug."""

from __future__ import annotations

import os
import re
from functools import lru_cache

from .context import ScanContext

MAX_MSG_BYTES = 64 << 10
# a field line, not a comment: `std_msgs/Header header`, `Header header` (ROS 1 resolves it to std_msgs)
_HEADER_FIELD = re.compile(r"^[ \t]*(?:std_msgs/)?Header[ \t]+header\b", re.M)
_FIELD_TYPE = re.compile(r"^[ \t]*([A-Za-z][\w/]*)(?:\[\d*\])?[ \t]+\w", re.M)
# a real-valued field named for an axis: `float32 velocity_x`, `float64 z` (a quantity in the header's frame)
_AXIS_FIELD = re.compile(r"^[ \t]*float(?:32|64)(?:\[\d*\])?[ \t]+(?:\w+_)?([xyz])[ \t]*(?:#.*)?$", re.M)
# a real-valued field of polar coordinates: `float64 range` beside `float64 azimuth` (a radar target in the sensor's frame)
_POLAR_FIELD = re.compile(r"^[ \t]*float(?:32|64)(?:\[\d*\])?[ \t]+(range|distance|azimuth|bearing|elevation)[ \t]*(?:#.*)?$", re.M)
# packages whose messages place data in space; the few of them that do not are listed apart
_SPATIAL_PACKAGES = frozenset({
    "geometry_msgs", "sensor_msgs", "nav_msgs", "visualization_msgs", "shape_msgs", "stereo_msgs", "vision_msgs",
    "octomap_msgs", "mesh_msgs", "grid_map_msgs", "pcl_msgs",
})
_NOT_SPATIAL = frozenset({"sensor_msgs/JointState", "sensor_msgs/BatteryState", "sensor_msgs/Joy", "sensor_msgs/JoyFeedback",
                          "sensor_msgs/JoyFeedbackArray", "sensor_msgs/TimeReference"})


@lru_cache(maxsize=8)
def tree_message_types(ctx: ScanContext) -> tuple[frozenset[str], frozenset[str]]:
    """``package/Type`` for the messages the packages of the tree define: those whose definition has a header
    and spatial content (a field of a geometric package's type, or of a message of the tree that has one, or
    real-valued fields named for two axes, or a distance beside an angle), and the others."""
    fields: dict[str, list[str]] = {}  # package/Type -> the types of its fields, qualified
    headers: set[str] = set()
    axes: set[str] = set()  # messages with real-valued fields of two or more axes
    polar: set[str] = set()  # messages with a distance and an angle (with a header or held by one)
    for name, rel in ctx.packages.items():
        msg_dir = f"{rel}/msg" if rel else "msg"
        try:
            with os.scandir(ctx.abs_str(msg_dir)) as entries:
                files = [e.name for e in entries if e.name.endswith(".msg") and e.is_file(follow_symlinks=False)]
        except OSError:
            continue  # no msg directory
        for fname in files:
            try:
                text = ctx.read_bytes(f"{msg_dir}/{fname}", MAX_MSG_BYTES).decode("utf-8", "replace")
            except OSError:
                continue  # outside the tree or too large: its fields stay unknown
            key = f"{name}/{fname[:-4]}"
            fields[key] = [t if "/" in t else f"{name}/{t}" for t in _FIELD_TYPE.findall(text)]
            coords = set(_POLAR_FIELD.findall(text))
            if coords & {"range", "distance"} and coords & {"azimuth", "bearing", "elevation"}:
                polar.add(key)  # ainstein_radar's RadarTarget: range, azimuth, elevation
            if _HEADER_FIELD.search(text):
                headers.add(key)
                if len(set(_AXIS_FIELD.findall(text))) >= 2:
                    axes.add(key)  # px-ros-pkg's OpticalFlow: velocity_x, velocity_y in the sensor's frame
    spatial: dict[str, bool] = {}

    def is_spatial(t: str, depth: int = 0) -> bool:
        if t not in spatial:
            spatial[t] = False  # a message that holds itself is no evidence of anything
            pkg = t.partition("/")[0]
            spatial[t] = ((pkg in _SPATIAL_PACKAGES and t not in _NOT_SPATIAL) or t in polar
                          or (depth < 16 and any(is_spatial(f, depth + 1) for f in fields.get(t, ()))))
        return spatial[t]

    stamped = frozenset(t for t in headers if t in axes or t in polar or any(is_spatial(f) for f in fields[t] if f != "std_msgs/Header"))
    return stamped, frozenset(fields) - stamped
