"""REP-103 in code: camera data (Image, CompressedImage, CameraInfo, a camera's IMU samples) is in an
optical frame, x right, y down, z forward. A driver that names both a camera body frame and its optical
frame (``zed_camera_frame`` and ``zed_camera_optical_frame``) and stamps its images with the body frame
publishes them rotated: image_geometry, depth projection and RViz place every pixel on the wrong axes.

The body frame's rotation to its optical twin is known from the names (REP-103's ``_optical`` suffix) or,
when the code broadcasts the edge, from its rotation: an edge that says the two frames share their axes
(identity) makes the "body" frame optical itself, so nothing is reported. A frame with no optical twin
named anywhere in the file is never reported from the file alone: whether it is optical is not known. Across
a subsystem, a camera link (``camera_link``, ``front_camera_link``: the name camera drivers and descriptions
give the body frame, x forward) that no transform of the tree places is a warning: nothing makes it optical.
"""

from __future__ import annotations

import re
from typing import Iterable

from ...core.conventions import OPTICAL, Conventions
from ...core.findings import Finding, Location, Severity
from ...core.rotations import FLU, RDF, OrthoRotation
from ...core.tree import Edge

# Messages whose data lie in the camera's optical axes; an IMU counts once the code names an optical
# twin of its frame (a camera's IMU reports in the optical axes, which is why the twin exists).
CAMERA_DATA = frozenset({"Image", "CompressedImage", "CameraInfo", "Imu"})
_SUFFIXES = ("_frame", "_link")
# a camera's body link by name: camera_link, cam0_link, camera_color_link, and a depth or colour camera's own
# (social_sim's center_depth_link)
_CAMERA_LINK = re.compile(r"(?:^|[/_])(?:(?:web)?cam(?:era)?|depth|rgb|color)(?:_?\d+)?(?:_[a-z0-9]+)*_link$", re.I)


# Camera frames of robot descriptions most workspaces do not hold, which drivers stamp by name: Aldebaran's NAO and
# Pepper (nao_description, pepper_description) give each camera an x-forward CameraTop_frame and its REP-103 twin
# CameraTop_optical_frame (naoqi_driver stamped images and camera infos with the body frames until it was fixed).
_WELL_KNOWN_BODY = re.compile(r"^(?:.*/)?Camera(?:Top|Bottom|Depth|Stereo)_frame$")
_WELL_KNOWN_DESCRIPTIONS = "NAO's and Pepper's descriptions (nao_description, pepper_description) name"


def well_known_twin(frame: str) -> str | None:
    """The optical twin a well-known robot description gives the camera body frame ``frame``, else None."""
    return frame[: -len("_frame")] + "_optical_frame" if _WELL_KNOWN_BODY.match(frame) else None


def optical_twins(frame: str) -> tuple[str, ...]:
    """The names REP-103 practice gives the optical frame of body frame ``frame``."""
    base = frame
    for s in _SUFFIXES:
        if frame.endswith(s) and len(frame) > len(s):
            base = frame[: -len(s)]
            break
    return tuple(dict.fromkeys((f"{base}_optical_frame", f"{base}_optical", f"{frame}_optical", f"{base}_optical_link")))


def _edge_rotation(edges: Iterable[Edge], parent: str, child: str, tolerance: float = 1e-3) -> OrthoRotation | None:
    """The orthogonal rotation of a known parent -> child edge (either way round), or None."""
    for e in edges:
        if e.rotation is None:
            continue
        if (e.parent, e.child) == (parent, child):
            return OrthoRotation.from_quaternion(e.rotation, tolerance)
        if (e.parent, e.child) == (child, parent):
            rot = OrthoRotation.from_quaternion(e.rotation, tolerance)
            return rot.inverse() if rot is not None else None
    return None


def camera_frame_finding(
    type_name: str, var: str, frame: str, known: Iterable[str], edges: Iterable[Edge], conventions: Conventions, loc: Location,
    seen_in: str = "the code also names", fate: str = "is published",
) -> Finding | None:
    """INCORRECT_TRANSFORM when camera data ``var`` (of ``type_name``; "" for a driver's data) is stamped with ``frame``,
    a body frame whose optical twin is ``known`` (or a well-known description's); None when ``frame`` is optical, has no
    known twin or an edge makes it optical. ``seen_in`` says where the twin was seen, ``fate`` what becomes of the data."""
    if type_name not in CAMERA_DATA or not frame or conventions.classify(frame).cls.name == OPTICAL:
        return None
    names = set(known)
    twin = next((t for t in optical_twins(frame) if t in names and conventions.classify(t).cls.name == OPTICAL), None)
    if twin is None and (twin := well_known_twin(frame)) is not None:
        seen_in = _WELL_KNOWN_DESCRIPTIONS
    if twin is None:
        return None
    edges = list(edges)
    rot = _edge_rotation(edges, frame, twin)
    if rot is not None and rot.apply(FLU) != RDF:
        return None  # the code's own edge says the two frames are not body and optical (identity: both optical)
    how = f"the broadcast {frame} -> {twin} turns {FLU} into {RDF}" if rot is not None else "REP-103 names it the optical frame of the body frame"
    what = "its angular velocity and acceleration" if type_name == "Imu" else "its pixels (and the intrinsics that project them)"
    return Finding(
        "INCORRECT_TRANSFORM",
        (f"{type_name} '{var}' {fate}" if var else f"{type_name} data {fate}")
        + f" in '{frame}', a camera body frame ({FLU}: x forward, y left, z up), while {seen_in} "
        f"its optical frame '{twin}' ({how}): {what} are in the optical axes, {RDF} (x right, y down, z forward), so "
        f"consumers place the data rotated; stamp it with '{twin}'",
        (frame, twin),
        loc,
    )


UNPLACED = "unplaced_frame"  # Finding.details key: judged by a name no transform places (a macro alone cannot know)


def camera_link_finding(type_name: str, frame: str, edges: Iterable[Edge], conventions: Conventions, loc: Location) -> Finding | None:
    """A warning when camera data is stamped with a camera link (``camera_link``: a body frame by name) that no
    transform of the tree places, so nothing says it is optical; None for other names or a frame the tree places."""
    if type_name not in CAMERA_DATA or type_name == "Imu" or not _CAMERA_LINK.search(frame):
        return None
    if conventions.classify(frame).cls.name == OPTICAL or any(e.child == frame or e.parent == frame for e in edges):
        return None
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{type_name} data is published in '{frame}', named as a camera's body frame ({FLU}: x forward, y left, z up, as "
        f"camera drivers and descriptions name their links), and no transform of the tree places it: camera data is in "
        f"the optical axes, {RDF} (x right, y down, z forward). Stamp it with an optical child of '{frame}' turned by "
        "rpy (-pi/2, 0, -pi/2), or publish that turn if this link is the optical frame",
        (frame,), loc, severity=Severity.WARNING, details={UNPLACED: frame},
    )
