"""A camera or range sensor whose name says where it looks, mounted to look elsewhere.

``bottom_camera``, ``ceiling_camera_link``, ``rear_camera_optical_frame``: the name is the author's statement of the
mount, and a rotation that turns the sensor's line of sight away from it is a sign slip or a half turn about the wrong
axis (tum_simulator's downward AR.Drone camera at pitch -pi/2 looked at the sky; rob_box's ceiling camera at pitch pi
looked backward). The line of sight is z for an optical frame (REP-103: z forward), x or z for a sensor frame that
may be either; it is judged in the robot's REP-105 body frame, through fixed orthogonal rotations only (a tilted or moving mount is
never judged).
"""

from __future__ import annotations

import math
import re
from typing import Any, Iterable, Mapping

from .conventions import BASE, OPTICAL, Conventions
from .findings import Finding, Severity
from .rotations import DEFAULT_TOLERANCE, DIR_WORDS, FLU, IDENTITY, RDF, OrthoRotation, quaternion_to_matrix
from .tree import Edge, rotated_ancestors

# direction words of a name -> the direction (rotations' F/L/U numbering: 1 forward, 3 up; negative the opposite)
_DIRECTION_WORDS = {
    "down": -3, "downward": -3, "downwards": -3, "bottom": -3,
    "up": 3, "upward": 3, "upwards": 3, "ceiling": 3,
    "rear": -1, "back": -1, "backward": -1, "backwards": -1,
}
_WORDS = {-3: "down", 3: "up", -1: "backward"}
_AXIS = ("x", "y", "z")
# what looks along an axis: cameras (any optical frame is one) and range finders; not laser scanners, which sweep a
# plane and are named for where they sit ("bottom_laser" scans forward)
_VIEWER = re.compile(r"camera|cam(?![a-z])|rgb|depth|realsense|d4\d\d|l515|zed|oak|astra|kinect|xtion|sonar|ultrasonic|range"
                     r"|tof(?![a-z])|altimeter", re.I)
_TOKEN = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")
_GLUED = re.compile(rf"({'|'.join(_DIRECTION_WORDS)})(?:cam|camera)")  # ardrone's "bottomcam"
_OPTICAL_TURN = FLU.rotation_to(RDF)


def named_direction(frame_base: str) -> int | None:
    """The one direction the words of a frame's name give (``bottom_camera_link`` -> down), or None (none, or two)."""
    words = [m.group(1) if (m := _GLUED.fullmatch(t.lower())) else t.lower() for t in _TOKEN.findall(frame_base)]
    dirs = {_DIRECTION_WORDS[w] for w in words if w in _DIRECTION_WORDS}
    return dirs.pop() if len(dirs) == 1 else None


def facing_findings(parents: Mapping[str, Edge], conventions: Conventions, tolerance: float = DEFAULT_TOLERANCE
                    ) -> Iterable[Finding]:
    """INCORRECT_TRANSFORM warnings for direction-named cameras and range finders looking elsewhere. ``parents``: each
    frame's one static parent edge (a moving mount looks anywhere). Only the end of a sensor's chain is judged (a
    realsense ``camera_bottom_screw_frame`` carries the camera, it does not look): a frame named optical by its z; a
    sensor body with optical frames below it through them (its data's axes), by the body's name when theirs gives no
    direction; a sensor frame with nothing below it by x or z, either (it may be optical in all but name: smarc's
    ``camera_down_link``, z down)."""
    below: dict[str, list[str]] = {}
    for child, e in parents.items():
        below.setdefault(e.parent, []).append(child)
    for frame in parents:
        info = conventions.classify(frame)
        want = named_direction(info.base)
        if want is None:
            continue
        children = below.get(frame, [])
        judged: list[tuple[str, tuple[int, ...]]]
        if info.cls.name == OPTICAL:
            judged = [(frame, (2,))]
        elif not _VIEWER.search(info.base) or any(conventions.classify(c).cls.name != OPTICAL for c in children):
            continue
        elif children:
            judged = [(c, (2,)) for c in children if named_direction(conventions.classify(c).base) is None]
        else:
            judged = [(frame, (0, 2))]
        for seen, axes in judged:
            f = _facing(seen, frame, want, axes, parents, conventions, tolerance)
            if f is not None:
                yield f


def _facing(seen: str, named: str, want: int, axes: tuple[int, ...], parents: Mapping[str, Edge], conventions: Conventions,
            tolerance: float) -> Finding | None:
    """The finding when no line of sight ``axes`` of ``seen`` (``named`` gives the direction ``want``) is that
    direction in the body frame; for rear and back, only when one looks forward (a rear camera may look down)."""
    for frame, rotation, path in rotated_ancestors(seen, IDENTITY, parents, tolerance):
        if conventions.classify(frame).cls.name != BASE:
            continue
        dirs = rotation.apply(FLU).dirs
        sights = [dirs[a] for a in axes]
        if want in sights or (abs(want) == 1 and -want not in sights):
            return None
        chain = [*path, frame]
        edge = _culprit(chain, parents, conventions, tolerance)
        if conventions.expected_rotation(edge.parent, edge.child) is not None:
            return None  # a turn convention fixes (body -> optical): the axis check reports it there
        axis = (f"{_AXIS[axes[0]]} (the line of sight of an optical frame, REP-103)" if axes == (2,) else
                "x and z (its line of sight as a sensor body, or as an optical frame)")
        looks = " and ".join(f"{_AXIS[a]} {DIR_WORDS[d]}" for a, d in zip(axes, sights))
        return _mount_warning(
            f"'{named}' is named for looking {_WORDS[want]}, but {seen}'s {axis} point{'s' if len(axes) == 1 else ''} "
            f"elsewhere in {frame}{_through(chain)}: {looks} (rotation {rotation} from {frame}); a sign slip or a half "
            f"turn about the wrong axis in the mount {edge.parent} -> {edge.child}",
            chain, edge, {"named": _WORDS[want], "looks": [DIR_WORDS[d] for d in sights], "rotation": str(rotation)})
    return None


def _through(chain: list[str]) -> str:
    """`` through a -> b`` for the frames between a sensor and the body frame (``chain`` runs sensor first)."""
    return f" through {' -> '.join(reversed(chain[1:-1]))}" if len(chain) > 2 else ""


def _mount_warning(message: str, chain: list[str], edge: Edge, details: dict[str, Any]) -> Finding:
    """An INCORRECT_TRANSFORM warning about a sensor's mount, at the rotation of ``edge``, naming the chain."""
    return Finding("INCORRECT_TRANSFORM", message, tuple(reversed(chain)), edge.rotation_location, severity=Severity.WARNING,
                   publishers=edge.publishers, details=details)


def _culprit(chain: list[str], parents: Mapping[str, Edge], conventions: Conventions, tolerance: float) -> Edge:
    """The mount to change: from the sensor up, the first edge that turns anything beyond the optical turn REP-103
    fixes (also a camera frame's own turn so, off a frame other than the body: ardrone's ``ardrone_base_bottomcam``
    under its ``bottom_link``), else the one hanging off the body frame."""
    edges = [parents[f] for f in chain[:-1]]
    for i, e in enumerate(edges):
        turn = OrthoRotation.from_quaternion(e.rotation, tolerance) if e.rotation is not None else None
        expected = conventions.expected_rotation(e.parent, e.child)
        if (turn is None or turn == IDENTITY or (expected is not None and turn == expected.rotation)
                or (i == 0 and turn == _OPTICAL_TURN and conventions.classify(e.parent).cls.name != BASE)):
            continue
        return e
    return edges[-1]


# a fixed camera looking this far above the horizon is unusual enough to ask about its pitch's sign (up to 60 degrees:
# one looking nearly straight up is meant to, and is judged by its name when it says so)
_TILT_UP = (5.0, 60.0)


def tilted_up_findings(parents: Mapping[str, Edge], conventions: Conventions) -> Iterable[Finding]:
    """INCORRECT_TRANSFORM warnings for a camera fixed on the robot's body looking 5 to 60 degrees above the horizon,
    usually the sign of its pitch taken the aerospace way (nose down negative), where REP-103's positive pitch turns x
    down (slam_bringup's D435 at pitch -0.349 looked 20 degrees up; GOFIRST's ZED at -0.52). ``parents``: each frame's
    one static parent edge. Judged: optical frames (z) and camera frames with nothing below them that are body-like
    (x, with z mostly up); never a name that says where it looks (:func:`facing_findings` judges those)."""
    below = {e.parent for e in parents.values()}
    for frame in parents:
        info = conventions.classify(frame)
        if named_direction(info.base) is not None:
            continue
        if info.cls.name == OPTICAL:
            axis = 2
        elif _VIEWER.search(info.base) and frame not in below and info.cls.name != OPTICAL:
            axis = 0
        else:
            continue
        f = _tilted_up(frame, axis, parents, conventions)
        if f is not None:
            yield f


def _tilted_up(seen: str, axis: int, parents: Mapping[str, Edge], conventions: Conventions) -> Finding | None:
    matrix: list[list[float]] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    chain, frame = [seen], seen
    while conventions.classify(frame).cls.name != BASE:
        up = parents.get(frame)
        if up is None or up.rotation is None or up.parent in chain or len(chain) > 64:
            return None  # no body within 64 fixed mounts: not a camera on the robot (and no walk through a loop)
        step = quaternion_to_matrix(up.rotation)
        matrix = [[sum(step[i][k] * matrix[k][j] for k in range(3)) for j in range(3)] for i in range(3)]
        frame = up.parent
        chain.append(frame)
    if len(chain) < 2:
        return None
    sight = [matrix[i][axis] for i in range(3)]
    if axis == 0 and matrix[2][2] < 0.5:
        return None  # z not mostly up: a camera frame optical in all but name, whose x is no line of sight
    elevation = math.degrees(math.asin(max(-1.0, min(1.0, sight[2]))))
    if not _TILT_UP[0] < elevation < _TILT_UP[1]:
        return None
    edges = [parents[f] for f in chain[:-1]]
    edge = next((e for e in edges if e.rotation is not None and OrthoRotation.from_quaternion(e.rotation) is None), edges[-1])
    what = "z, the line of sight of an optical frame" if axis == 2 else "x, the line of sight of a camera's body frame"
    return _mount_warning(
        f"'{seen}' looks {elevation:.0f} degrees above the horizontal of {frame}{_through(chain)} (its {what}): a camera "
        f"fixed on a robot usually looks level or down, and REP-103's pitch turns x down for a positive angle, so a camera "
        f"tilted down by a has pitch +a; a negative pitch (nose down negative, the aerospace habit) tilts it up: check "
        f"the sign in the mount {edge.parent} -> {edge.child}",
        chain, edge, {"elevation_degrees": round(elevation, 1)})
