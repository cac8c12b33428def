"""PCL clouds a function builds from nothing, whose header it never sets.

``pcl::toROSMsg(cloud, msg)`` copies the PCL cloud's header into the message: a cloud made fresh
(``pcl::PointCloud<T>::Ptr map(new pcl::PointCloud<T>)``) and filled point by point or by ``*map += *part``
(PCL's concatenation keeps the left cloud's frame) has an empty ``header.frame_id``, and so has the message
(lidarslam_ros2's modified map), as has a ``pcl::PCLPointCloud2`` loaded from a PCD file, which holds no frame,
and converted with ``fromPCL`` (pcl_apps' PCD loader). Read on the function's text: a cloud used in any other way (handed to a
filter, a transform, ``fromROSMsg``, its header touched) may have been given a frame and is left alone.
"""

from __future__ import annotations

import re

from .headers import blank_keeping_lines

_CLOUD_TYPE = r"(?:pcl::PointCloud\s*<[^;<>]*(?:<[^;<>]*>)?[^;<>]*>|pcl::PCLPointCloud2\b)"
# `pcl::PointCloud<T>::Ptr map(new pcl::PointCloud<T>())`, `... map = std::make_shared<...>()`, `pcl::PointCloud<T> map;`
_FRESH = re.compile(
    rf"{_CLOUD_TYPE}\s*::\s*Ptr\s+(\w+)\s*(?:\(\s*new\s+{_CLOUD_TYPE}\s*(?:\(\s*\))?\s*\)|=\s*(?:boost|std)::make_shared\s*<\s*{_CLOUD_TYPE}\s*>\s*\(\s*\))\s*;"
    rf"|{_CLOUD_TYPE}\s+(\w+(?:\s*,\s*\w+)*)\s*;"  # `pcl::PointCloud<T> cloud, normals;` declares both
)
# what a use may be and still leave the header alone (the name's own text is matched before `after`)
_FILLS = re.compile(
    r"\s*(?:->|\.)\s*(?:points\b|push_back\s*\(|emplace_back\s*\(|width\b|height\b|is_dense\b|resize\s*\(|reserve\s*\(|"
    r"clear\s*\(|size\s*\(|empty\s*\(|begin\s*\(|end\s*\()|\s*\+=|\s*\["
)
# what reads a cloud, or fills its points and leaves its header empty (a PCD or PLY file holds no frame)
_READ_CALL = re.compile(r"\b(toROSMsg|fromPCL|savePCDFile\w*|savePLYFile\w*|loadPCDFile|loadPLYFile)\s*\(([^;()]*)$")


def frameless_clouds(body: str) -> frozenset[str]:
    """The PCL clouds of one function (``body``: its text) made fresh and never given a header."""
    if "pcl::PointCloud" not in body and "pcl::PCLPointCloud2" not in body:
        return frozenset()
    code = blank_keeping_lines(body)
    out: set[str] = set()
    for m in _FRESH.finditer(code):
        for name in re.split(r"\s*,\s*", m.group(1) or m.group(2)):
            if all(_harmless(code, u) for u in re.finditer(rf"(?<![\w.>])\*?\s*{re.escape(name)}\b", code[m.end() :])):
                out.add(name)
    return frozenset(out)


def _harmless(code: str, use: re.Match[str]) -> bool:
    """A use that fills points or reads the cloud: its own ``+=`` concatenation, toROSMsg's first argument."""
    text = use.string
    if _FILLS.match(text, use.end()):
        return True
    call = _READ_CALL.search(text[max(0, use.start() - 200) : use.start()])
    if call is None:
        return False
    return call.group(1) not in ("toROSMsg", "fromPCL") or "," not in call.group(2)  # the cloud is the conversion's input
