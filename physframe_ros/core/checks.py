"""Checks on a frame tree and on single transforms; the same for live, replay and scan.

Each check returns findings whose messages name the frames, the convention and,
for axis errors, the rotation that would be right.
"""

from __future__ import annotations

import math
import re
from collections import defaultdict
from typing import Iterable, Mapping, Sequence

from .conventions import BASE, EARTH, MAP, ODOM, OPTICAL, OTHER, SENSOR, WORLD_CLASSES, Conventions
from .facing import facing_findings, tilted_up_findings
from .findings import Finding, Location, Severity
from .frame_patterns import without_placeholders
from .rotations import DEFAULT_TOLERANCE, FLU, IDENTITY, RDF, AxisTriple, OrthoRotation, format_rotation
from .tree import Edge, ancestors, components, cycle_path, parents_by_child, rotated_ancestors, strongly_connected

REP105 = "REP-105 order is earth -> map -> odom -> base_link"
_WORLD = re.compile(r"(?:.*/)?world")
# tf2 accepts names made of these; anything else is rewritten or rejected somewhere downstream.
_VALID_FRAME_ID = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9_./\-]*$")
QUATERNION_NORM_TOLERANCE = 1e-2  # tf2 BufferCore's own threshold on |q|^2 - 1


# --- single transforms ---------------------------------------------------------------
#: why a LaserScan must not be stamped in an optical frame (the code, parameter and data checks say it alike)
SCAN_ON_EDGE = ("an optical frame (REP-103: x right, y down, z forward): a LaserScan's ranges lie in its frame's x-y plane, "
                "here the vertical plane through the camera's axis, so costmaps and SLAM read the scan standing on edge")


def scan_in_optical(frame: str, conventions: Conventions) -> bool:
    """A LaserScan's frame that is an optical frame by name (its scan plane then stands on edge)."""
    return conventions.classify(frame.strip().lstrip("/")).cls.name == OPTICAL


def frame_id_problem(frame: str) -> str | None:
    """Why tf2 would mangle or reject this (non-empty) frame id, or None when it is fine. A
    placeholder the launch fills in (``{namespace}base_link``) is checked as the name without it."""
    frame = without_placeholders(frame) if "{" in frame else frame
    if not frame:
        return None
    if frame.startswith("/"):
        return f"frame id '{frame}' has a leading '/': tf2 strips it on insert and rejects it in lookups"
    if frame != frame.strip() or any(c.isspace() for c in frame):
        return f"frame id '{frame}' contains whitespace"
    if not _VALID_FRAME_ID.match(frame):
        return f"frame id '{frame}' has characters outside [A-Za-z0-9_./-]"
    return None


def transform_findings(
    parent: str,
    child: str,
    translation: Sequence[float] | None,
    rotation: Sequence[float] | None,
    location: Location | None = None,
    what: str = "transform",
) -> list[Finding]:
    """The per-transform problems tf2 would drop or mangle the transform for."""
    out: list[Finding] = []
    if not parent:
        out.append(Finding("MISSING_FRAME", f"{what} to '{child}' has an empty frame_id (header.frame_id); tf2 drops it", (child,) if child else (), location))
    if not child:
        out.append(Finding("MISSING_CHILD_FRAME", f"{what} from '{parent}' has an empty child_frame_id; tf2 drops it", (parent,) if parent else (), location))
    for frame in (parent, child):
        problem = frame and frame_id_problem(frame)
        if problem:
            out.append(Finding("INVALID_FRAME_ID", problem, (frame,), location))
    if parent and parent == child:
        out.append(Finding("REDUNDANT_TRANSFORM", f"{what} from '{parent}' to itself: tf2 ignores self transforms", (parent,), location))
    bad = invalid_values(translation, rotation)
    if bad:
        out.append(Finding("INVALID_TRANSFORM", f"{what} {parent} -> {child}: {bad}; tf2 drops it", (parent, child), location))
    return out


def invalid_values(translation: Sequence[float] | None, rotation: Sequence[float] | None) -> str | None:
    values = [*(translation or ()), *(rotation or ())]
    if any(not math.isfinite(v) for v in values):
        which = []
        if translation and any(not math.isfinite(v) for v in translation):
            which.append("translation")
        if rotation and any(not math.isfinite(v) for v in rotation):
            which.append("rotation")
        return f"{' and '.join(which)} contains NaN or infinity"
    if rotation is not None:
        n2 = sum(c * c for c in rotation)
        if abs(n2 - 1.0) >= QUATERNION_NORM_TOLERANCE:
            return f"quaternion is not unit length (|q| = {math.sqrt(n2):.4g})"
    return None


# --- the tree ------------------------------------------------------------------------
def check_tree(edges: Iterable[Edge], conventions: Conventions, tolerance: float = DEFAULT_TOLERANCE) -> list[Finding]:
    """Structural and axis checks over one tree (a live snapshot or one subsystem's declared edges)."""
    edges = [e for e in edges if e.parent and e.child]
    out: list[Finding] = []
    loops = strongly_connected(edges)
    in_loop = {f: i for i, comp in enumerate(loops) for f in comp}
    for comp in loops:
        out.append(_cycle_finding(comp, edges))
    parents = parents_by_child(e for e in edges if e.parent != e.child)
    out.extend(_multiple_parents(parents, conventions))
    out.extend(_map_beside_odom(parents, conventions))
    out.extend(_order(parents, conventions, in_loop))
    out.extend(_disconnected(edges, conventions, acyclic=not loops))
    static_parents = {c: pe[0] for c, pe in parents.items() if len(pe) == 1 and pe[0].static}
    inverted = any(_scanner_mount(e, conventions, tolerance, static_parents) == _HALF_ROLL for e in edges)
    for e in edges:
        if e.parent == e.child:
            out.append(
                Finding(
                    "REDUNDANT_TRANSFORM",
                    f"transform from '{e.parent}' to itself: tf2 ignores self transforms",
                    (e.parent,),
                    e.location,
                    publishers=e.publishers,
                )
            )
            continue
        f = axis_finding(e, conventions, tolerance, static_parents) or partial_axis_finding(e, conventions) or _near_optical(e, conventions, tolerance)
        if f:
            out.append(f)
        f = _optical_twice(e, conventions, tolerance, static_parents) or _turned_like_optical(e, conventions, tolerance)
        if f:
            out.append(f)
        f = _sensor_null(e, conventions) or _world_tilted(e, conventions) or (None if inverted else _flipped_sensor(e, conventions, tolerance, static_parents))
        if f:
            out.append(f)
    out.extend(facing_findings(static_parents, conventions, tolerance))
    out.extend(tilted_up_findings(static_parents, conventions))
    return out


def static_dynamic_conflicts(edges: Iterable[Edge]) -> list[Finding]:
    """One edge declared both static (/tf_static) and dynamic (/tf) in one system: tf2 keeps the static
    value forever and mixes in the dynamic one, so lookups through the edge flip between the two."""
    static: dict[tuple[str, str], Edge] = {}
    dynamic: dict[tuple[str, str], Edge] = {}
    for e in edges:
        (static if e.static else dynamic).setdefault((e.parent, e.child), e)
    out: list[Finding] = []
    for key, dyn in dynamic.items():
        st = static.get(key)
        if st is None:
            continue
        # reported at the publisher added beside the design: a static one of a launch file or code next to a node's
        # dynamic broadcast (qcar_gazebo's placeholder odom -> base), else the dynamic one beside the robot description;
        # and at the dynamic one when it re-sends the static value, a constant mount put on /tf at rate (RunAwayRobot's
        # wall follower broadcasting base_link -> laser as its launch file's static publisher does)
        resent = dyn.location is not None and _same_value(st, dyn)
        at_static = st.location is not None and not st.location.file.endswith(MODEL_SUFFIXES) and not resent
        if at_static:
            where = f" and broadcast as dynamic at {dyn.location} (/tf)" if dyn.location else " and broadcast as dynamic (/tf)"
            message = f"transform {dyn.parent} -> {dyn.child} is declared static here (/tf_static){where}"
        else:
            where = f" at {st.location}" if st.location else ""
            message = f"transform {dyn.parent} -> {dyn.child} is declared static{where} (/tf_static) and broadcast as dynamic here (/tf)"
        fix = "this broadcast re-sends the static value of a fixed mount: drop it" if resent else "publish it one way"
        out.append(Finding("STATIC_DYNAMIC_CONFLICT", f"{message}: tf2 mixes a static and a dynamic value for one edge; {fix}",
                           key, st.location if at_static else dyn.location))
    return out


def _same_value(a: Edge, b: Edge, tolerance: float = 1e-6) -> bool:
    """Both edges hold one known value (a rotation either sign of its quaternion)."""
    if a.translation is None or b.translation is None or a.rotation is None or b.rotation is None:
        return False
    if any(abs(x - y) > tolerance for x, y in zip(a.translation, b.translation)):
        return False
    return min(max(abs(x - y) for x, y in zip(a.rotation, b.rotation)), max(abs(x + y) for x, y in zip(a.rotation, b.rotation))) <= tolerance


def _cycle_finding(comp: list[str], edges: list[Edge]) -> Finding:
    path = cycle_path(comp, edges)
    loop_edges = [e for e in edges if e.parent in comp and e.child in comp]
    loc = next((e.location for e in loop_edges if e.location), None)
    pubs = tuple(sorted({p for e in loop_edges for p in e.publishers}))
    frames = tuple(path[:-1]) if len(path) > 1 and path[0] == path[-1] else tuple(path)
    return Finding(
        "CYCLE_IN_FRAME_TREE",
        f'the parent links form a loop {" -> ".join(path)}: tf2 cannot resolve lookups through it ("contains a loop")',
        frames,
        loc,
        publishers=pubs,
    )


# robot descriptions and simulation models (a launch file's robot_description names only the first two kinds)
MODEL_SUFFIXES = (".urdf", ".xacro", ".sdf", ".world")
_LAUNCH_FILE = re.compile(r"\.launch(?:\.(?:py|xml|ya?ml))?$|_launch\.py$|(?:^|/)launch/[^/]*\.py$")


def _world_placeholder(pe: list[Edge], conventions: Conventions) -> Edge | None:
    """The one declaration hanging a frame of the robot (a body, sensor or unclassified frame) under a world frame
    (map, odom, world, earth) when the other parents are frames of the robot: that mount's stand-in."""
    if conventions.classify(pe[0].child).cls.name in WORLD_CLASSES:
        return None
    world = [e for e in pe if e.location and conventions.classify(e.parent).cls.name in WORLD_CLASSES]
    if len(world) != 1 or any(conventions.classify(e.parent).cls.name in WORLD_CLASSES for e in pe if e is not world[0]):
        return None
    return world[0]


def _multiple_parents(parents: dict[str, list[Edge]], conventions: Conventions) -> Iterable[Finding]:
    for child, pe in parents.items():
        distinct = sorted({e.parent for e in pe})
        if len(distinct) < 2:
            continue
        by_parent: dict[str, list[Edge]] = defaultdict(list)
        for e in pe:
            by_parent[e.parent].append(e)
        described = []
        for p in distinct:
            pubs = sorted({x for e in by_parent[p] for x in e.publishers})
            srcs = sorted({str(s) for e in by_parent[p] for s in e.sources})
            who = ", ".join([*pubs, *srcs])  # live: the nodes; scanned: the lines (and the node a launch file starts)
            described.append(f"'{p}'" + (f" (from {who})" if who else ""))
        # point at the second declaration: the first one is usually the intended parent; beside a robot
        # description's joint, at the other publisher (a controller's odometry, a launch file's static transform);
        # beside a launched node's broadcast (a driver's odometry, modelled or read in its scanned sources), at the
        # launch file's hand-written transform (YaleIGVC's base_footprint -> base_link beside segway_rmp_node)
        placed = sorted((e.child_at or e.location, i) for i, e in enumerate(pe) if e.location)  # declarations in file order
        locs = [loc for loc, _ in placed]
        outside = [loc for loc in locs if not loc.file.endswith(MODEL_SUFFIXES)]
        nodes = {e.child_at or e.location for e in pe if e.publishers and e.location}
        fixed = [e.location for e in pe if not e.publishers and e.location and _LAUNCH_FILE.search(e.location.file)]
        loaders = {e.loaded_at for e in pe}
        two_robots = None not in loaders and len(loaders) > 1
        note = ""
        if nodes and fixed:
            loc: Location | None = min(fixed)
        elif (frozen := _frozen_in_world(pe, conventions)) is not None:
            loc = frozen.location
            note = (f"; {frozen.parent} -> {child} fixes '{child}' in a world frame where a node's code moves it: "
                    "a placeholder for the estimate")
        elif outside and len(outside) < len(locs):
            loc = outside[0]
        elif two_robots:
            # two robot_state_publishers' descriptions name one frame (ai_worker's leader and follower arms): the
            # second node is where a frame_prefix keeps the robots apart (the node of the second declaration)
            loc = pe[placed[min(1, len(placed) - 1)][1]].loaded_at if placed else None
        elif (shortcut := _shortcut(pe, parents)) is not None:
            loc = shortcut[0].child_at or shortcut[0].location
            note = f"; {shortcut[0].parent} -> {child} skips '{shortcut[1]}', which is itself below '{shortcut[0].parent}'"
        elif (placeholder := _world_placeholder(pe, conventions)) is not None:
            # a robot-side frame hung under a world frame beside its mount on the robot (rio's `map -> awr1843aop`
            # identity beside `bmi088 -> awr1843aop`): the world one is the stand-in to remove
            loc = placeholder.child_at or placeholder.location
        elif (orphan := _orphan_parent(child, pe, parents)) is not None:
            loc = orphan.child_at or orphan.location
            note = (f"; '{orphan.parent}' is in no other transform, so {orphan.parent} -> {child} hangs the tree from a "
                    "frame of its own: parent and child are probably swapped there")
        else:
            loc = locs[1] if len(locs) > 1 else (locs[0] if locs else None)
        yield Finding(
            "MULTIPLE_PARENTS_IN_FRAME_TREE",
            f"'{child}' has {len(distinct)} parents: {', '.join(described)}; "
            "a tf tree gives each frame one parent, and tf2 silently keeps whichever arrived last" + note
            + ("; two robot_state_publishers publish these robots: give one a frame_prefix, or fix the description" if two_robots else ""),
            (child, *distinct),
            loc,
            publishers=tuple(sorted({x for e in pe for x in e.publishers})),
        )


_CODE_FILE = re.compile(r"\.(?:c|cc|cpp|cxx|h|hh|hpp|hxx|py)$", re.IGNORECASE)


def _frozen_in_world(pe: list[Edge], conventions: Conventions) -> Edge | None:
    """The one fixed transform a launch file writes from a world frame (map, odom, earth) when a node's code
    broadcasts another parent of the same frame at run time (kr_autonomous_flight's static `quadrotor/vio_odom ->
    quadrotor` beside the UKF nodelet's odometry broadcast): a frame that moves, pinned by a stand-in. A fixed mount
    under a frame of the robot beside a code broadcast from a world frame (wato_f1tenth's `base_link -> laser` beside
    its particle filter's `map -> laser`) is the right one, and not this."""
    fixed = [e for e in pe if e.static and e.location and _LAUNCH_FILE.search(e.location.file)
             and conventions.classify(e.parent).cls.name in WORLD_CLASSES]
    moving = [e for e in pe if not e.static and e.location and _CODE_FILE.search(e.location.file) and not _LAUNCH_FILE.search(e.location.file)]
    return fixed[0] if len(fixed) == 1 and moving else None


def _orphan_parent(child: str, pe: list[Edge], parents: dict[str, list[Edge]]) -> Edge | None:
    """The one declaration whose parent appears in no other transform (no parent of its own, no other child) while
    the other parents are part of the tree: a frame that only this edge names is most likely its child, written in
    the parent's place (McGill's AUV depth node: tf's ``sendTransform(..., "/horizon", "/floating_horizon")``, child
    first, beside the tree's ``raw_horizon -> horizon``)."""
    def alone(frame: str) -> bool:
        return frame not in parents and not any(e.parent == frame for c, es in parents.items() if c != child for e in es)

    lonely = {e.parent for e in pe if alone(e.parent)}
    if len(lonely) != 1 or len({e.parent for e in pe}) - len(lonely) < 1:
        return None
    return next((e for e in pe if e.parent in lonely and e.location), None)


def _shortcut(pe: list[Edge], parents: dict[str, list[Edge]]) -> tuple[Edge, str] | None:
    """The one declaration whose parent is an ancestor of another declared parent, with that parent: it skips the
    frames between (staubli's legacy ``link_6 -> tool0`` beside ``link_6 -> flange -> tool0``), the one left over."""
    def above(frame: str) -> set[str]:
        out: set[str] = set()
        while frame in parents and parents[frame][0].parent not in out:
            frame = parents[frame][0].parent
            out.add(frame)
        return out

    ancestors = {p: above(p) for p in {e.parent for e in pe}}
    skipping = [(e, other) for e in pe if e.location for other in sorted(ancestors) if other != e.parent and e.parent in ancestors[other]]
    return skipping[0] if len({e.parent for e, _ in skipping}) == 1 else None


def _map_beside_odom(parents: dict[str, list[Edge]], conventions: Conventions) -> Iterable[Finding]:
    """A body frame given a map (or earth) parent beside its odom parent: the localiser or scan matcher publishes its
    pose of the body straight under the map, where REP-105 has it publish map -> odom (stretch_ros' laser_scan_matcher
    with fixed_frame map beside the driver's odom -> base_link). Reported where the map edge is declared, besides the two
    parents; a live tree's reparenting is the two parents alone (its timing findings name the publishers)."""
    for child, pe in parents.items():
        ci = conventions.classify(child)
        if ci.cls.name != BASE:
            continue
        odom = next((e for e in pe if conventions.classify(e.parent).cls.name == ODOM), None)
        above = next((e for e in pe if conventions.classify(e.parent).cls.name in (MAP, EARTH)), None)
        if odom is None or above is None or above.location is None:
            continue
        yield Finding(
            "INCORRECT_FRAME_ORDER_IN_TREE",
            f"'{above.parent}' is made a parent of '{child}' beside '{odom.parent}' -> '{child}': {REP105}, so a localiser "
            f"publishes {above.parent} -> {odom.parent} (its estimate of {child} in {above.parent} composed with the inverse "
            f"of {odom.parent} -> {child}), never {above.parent} -> {child}",
            (above.parent, odom.parent, child),
            above.parent_at or above.location,
            publishers=above.publishers,
        )


def _order(parents: dict[str, list[Edge]], conventions: Conventions, in_loop: dict[str, int]) -> Iterable[Finding]:
    reported = set()
    for child in list(parents):
        ci = conventions.classify(child)
        if ci.order is None:
            continue
        if (ci.cls.name in WORLD_CLASSES or ci.cls.name == BASE) and child not in in_loop:
            yield from _below_a_sensor(child, parents, conventions)
        for anc in ancestors(child, parents):
            ai = conventions.classify(anc)
            if ai.order is None or (ai.robot and ci.robot and ai.robot != ci.robot):
                continue
            if anc in in_loop and in_loop.get(child) == in_loop[anc]:
                continue  # reported as a cycle; the order is meaningless inside a loop
            # one class above itself (base_link -> base_footprint, world -> baxter/world): REP-105 orders classes only
            if ai.order <= ci.order or (anc, child) in reported:
                continue
            reported.add((anc, child))
            edge = next((e for e in parents[child]), None)
            direct = edge is not None and edge.parent == anc
            how = "is the parent of" if direct else "is above"
            # REP-105 names 'earth'; a 'world' frame is read as earth by custom only (Gazebo's and MoveIt's
            # world sits anywhere): a warning, where the frames REP-105 names are an error
            custom = [f for f in (anc, child) if _WORLD.fullmatch(f)]
            yield Finding(
                "INCORRECT_FRAME_ORDER_IN_TREE",
                f"'{anc}' {how} '{child}': {REP105}, so '{child}' must be above '{anc}'"
                + (f" (REP-105 does not name '{custom[0]}'; it is read as earth by custom)" if custom else ""),
                (anc, child),
                (edge.named_at or edge.location) if edge else None,  # where a swapped pair is written
                publishers=edge.publishers if edge else (),
                severity=Severity.WARNING if custom else None,
            )


# a sensor's mount by its name: `camera_link`, `laser_frame`, a bare `laser` or `imu`; not a SLAM system's own fixed
# frame that only names its sensor (laser_scan_matcher's `scan_matcher`, LOAM's `camera_init`)
_SENSOR_MOUNT = re.compile(r"(?:_link|_frame)$|^(?:laser|imu|camera|lidar|gps|velodyne|kinect|sonar|radar|hokuyo)\d*$")


def _sensor_mount(frame: str, conventions: Conventions) -> bool:
    cls = conventions.classify(frame).cls.name
    return cls == OPTICAL or (cls == SENSOR and _SENSOR_MOUNT.search(frame.rpartition("/")[2]) is not None)


def _below_a_sensor(child: str, parents: dict[str, list[Edge]], conventions: Conventions) -> Iterable[Finding]:
    """A world-fixed frame (earth, world, map, odom) below a sensor or optical frame of the same robot
    (``static_transform_publisher ... camera_rgb_optical_frame world``), or the robot's body frame right below one
    (IGVC22-23's ``camera base_link``): REP-105 makes the fixed frames the ancestors of the robot, and the body
    the parent of its sensors, so parent and child are swapped. A warning: a camera-only rig, or visual odometry
    tracking the camera, can root the tree at the camera on purpose."""
    ci = conventions.classify(child)
    body = ci.cls.name == BASE
    above = [e.parent for e in parents.get(child, ())] if body else ancestors(child, parents)
    anc = next((a for a in above if _sensor_mount(a, conventions)), None)
    if anc is None:
        return
    robots = (conventions.classify(anc).robot or anc.rpartition("/")[0], ci.robot or child.rpartition("/")[0])
    if all(robots) and robots[0] != robots[1]:
        return  # another robot's frames: a multi-robot tree joins them anyhow
    edge = next((e for e in parents[child]), None)
    how = "is the parent of" if edge is not None and edge.parent == anc else "is above"
    rule = ("REP-105 hangs a robot's sensors below its body frame" if body else
            "REP-105's fixed frames (earth, map, odom) are the ancestors of the robot and its sensors")
    yield Finding(
        "INCORRECT_FRAME_ORDER_IN_TREE",
        f"'{anc}', a sensor frame, {how} '{child}', {'the body frame' if body else 'a world-fixed frame'}: {rule}, so "
        f"'{child}' must be above '{anc}' (parent and child swapped?)",
        (anc, child),
        (edge.named_at or edge.location) if edge else None,
        publishers=edge.publishers if edge else (),
        severity=Severity.WARNING,
    )


def _disconnected(edges: list[Edge], conventions: Conventions, acyclic: bool) -> Iterable[Finding]:
    if acyclic and len({e.parent for e in edges} - {e.child for e in edges}) <= 1:
        return  # a loop-free graph with one root is connected: skip the union-find
    comps = components(edges)
    if len(comps) < 2:
        return
    has_parent = {e.child for e in edges}
    by_robot: dict[str, list[tuple[str, set[str]]]] = defaultdict(list)
    for comp in comps:
        roots = sorted(comp - has_parent) or [min(comp)]
        robots = {conventions.classify(f).robot for f in comp if conventions.classify(f).order is not None}
        by_robot[min(robots) if robots else ""].append((roots[0], comp))
    for robot, group in sorted(by_robot.items()):
        if len(group) < 2:
            continue
        group.sort(key=lambda g: -len(g[1]))
        roots = [r for r, _ in group]
        sizes = ", ".join(f"'{r}' ({len(c)} frames)" for r, c in group)
        loc = next((e.location for e in edges if e.location and e.parent in roots), None)
        yield Finding(
            "DISCONNECTED_TREE",
            f"the frames form {len(group)} separate trees rooted at {sizes}" + (f" for robot '{robot}'" if robot else "") + "; lookups between them fail",
            tuple(roots),
            loc,
        )


def axis_finding(
    edge: Edge, conventions: Conventions, tolerance: float = DEFAULT_TOLERANCE, static_parents: Mapping[str, Edge] | None = None
) -> Finding | None:
    """INCORRECT_TRANSFORM when an orthogonal rotation contradicts the frames' axis conventions.

    With ``static_parents`` (child -> its one static parent edge), a frame under an
    unclassified mount (``camera_link -> camera_mount -> camera_optical_frame``) is judged
    by its orientation accumulated from the first ancestor whose class fixes its axes,
    so a rotated mount undone by its child is not an error.
    """
    if edge.rotation is None:
        return None
    direct = conventions.expected_rotation(edge.parent, edge.child)
    if direct is None:
        return None
    actual = OrthoRotation.from_quaternion(edge.rotation, tolerance)
    if actual is None:
        return None  # not orthogonal: the paper's top, never a convention finding
    anchor, expected, via = edge.parent, direct, ""
    if static_parents is not None and conventions.classify(edge.parent).cls.name == OTHER:
        chain = _accumulate(edge, actual, conventions, tolerance, static_parents)
        if chain is not None:
            anchor, actual, path = chain
            expected = conventions.expected_rotation(anchor, edge.child) or direct
            via = f" (through {' -> '.join(path)})"
    if actual == expected.rotation:
        return None
    got_axes = actual.apply(expected.parent_axes)
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{edge.child} is {got_axes} relative to {anchor}{via} (rotation {actual}); {expected.rule}: "
        f"expected {expected.child_axes} relative to {expected.parent_axes} {anchor}, rotation {expected.rotation}, "
        f"{format_rotation(expected.rotation.quaternion())}",
        (anchor, edge.child) if anchor == edge.parent else (anchor, edge.parent, edge.child),
        edge.rotation_location,
        publishers=edge.publishers,
        details={"actual": str(actual), "expected": str(expected.rotation), "expected_quaternion": list(expected.rotation.quaternion())},
    )


# how far a camera body -> optical rotation may stray from REP-103's turn and still be that turn mistyped (-1.517 for -pi/2)
_NEAR_OPTICAL = math.radians(15.0)


def _near_optical(edge: Edge, conventions: Conventions, tolerance: float) -> Finding | None:
    """A camera's body -> optical rotation a few degrees off the one REP-103 fixes (squirrel_robotino's kinect at
    rpy (-1.517, 0, -1.517)): not orthogonal, so :func:`axis_finding` says nothing, but close enough to the optical
    turn to be it mistyped or rounded, and the images' rays come out that many degrees off."""
    if edge.rotation is None or OrthoRotation.from_quaternion(edge.rotation, tolerance) is not None:
        return None
    if conventions.classify(edge.parent).cls.name != SENSOR or conventions.classify(edge.child).cls.name != OPTICAL:
        return None
    expected = conventions.expected_rotation(edge.parent, edge.child)
    if expected is None or OrthoRotation.from_quaternion(edge.rotation, _NEAR_OPTICAL) != expected.rotation:
        return None
    want = expected.rotation.quaternion()
    norm = math.sqrt(sum(c * c for c in edge.rotation))
    dot = abs(sum(a * b for a, b in zip(edge.rotation, want))) / norm
    off = math.degrees(2.0 * math.acos(min(1.0, dot)))
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{edge.child} is turned {off:.1f} degrees away from the optical turn relative to {edge.parent}: {expected.rule}, "
        f"exactly rotation {expected.rotation}, {format_rotation(want)} (an angle mistyped or rounded, like -1.517 for -pi/2, "
        "tilts every ray of the camera's data by as much)",
        (edge.parent, edge.child),
        edge.rotation_location,
        severity=Severity.WARNING,
        publishers=edge.publishers,
        details={"degrees_off": round(off, 2), "expected_quaternion": list(want)},
    )


def partial_axis_finding(edge: Edge, conventions: Conventions) -> Finding | None:
    """PhysFrame's R8 on a rotation known only through its constant factors (R15, ``edge.constant_part``).

    Where convention fixes the rotation (camera body -> optical, FLU -> FRD), the constant
    part must turn the parent's axes into the child's. Where it leaves the rotation free
    (map -> camera_link: any pose), a constant part that turns the parent's axes into the
    camera convention RDF while the child is not an optical frame is the ORB-SLAM2 bug:
    the conversion into the camera convention is never undone. Other constant turns in a
    free rotation (an upside-down IMU, a yawed mount) are legitimate and not reported; an
    identity constant part says nothing (the unknown factors may hold the whole rotation).
    """
    part, parent, child = edge.constant_part, edge.parent, edge.child
    if part is None or edge.rotation is not None or part == IDENTITY:
        return None
    pi, ci = conventions.classify(parent), conventions.classify(child)
    if pi.axes is None or ci.axes is None:
        return None
    got = part.apply(pi.axes)
    expected = conventions.expected_rotation(parent, child)
    if expected is not None:
        if got == expected.child_axes:
            return None
        rule, want = expected.rule, expected.child_axes
    else:
        if got != RDF or ci.axes == RDF or (ci.cls.name in WORLD_CLASSES and pi.cls.name in WORLD_CLASSES):
            return None
        rule, want = f"'{child}' is {ci.axes} by REP-103 ({ci.cls.description})", ci.axes
    fix = pi.axes.rotation_to(got).inverse()
    return Finding(
        "INCORRECT_TRANSFORM",
        f"the constant rotations in {parent} -> {child} turn {pi.axes} {parent} axes into {got} (rotation {part}) "
        f"and nothing turns them back: {rule}, so {child} must come out {want}; "
        f"append the inverse of the constant part ({fix}, {format_rotation(fix.quaternion())})",
        (parent, child),
        edge.rotation_location,
        publishers=edge.publishers,
        details={"constant_part": str(part), "child_axes": str(got), "expected_axes": str(want)},
    )


def _optical_twice(edge: Edge, conventions: Conventions, tolerance: float, static_parents: Mapping[str, Edge]) -> Finding | None:
    """A camera body frame given the optical rotation, and its optical frame given it again
    (``astra_link -> astra_depth_frame`` rpy -pi/2 0 -pi/2, then ``astra_depth_frame ->
    astra_depth_optical_frame`` the same: create_autonomy). Each edge alone looks right or free;
    together the optical frame is turned twice from the camera's body axes. Reported at the body
    frame's edge, the rotation to remove. (A mount not named for a sensor is judged by
    :func:`axis_finding` through :func:`_accumulate`.)"""
    if edge.rotation is None or conventions.classify(edge.child).cls.name != OPTICAL:
        return None
    up = static_parents.get(edge.parent)
    if up is None or up.rotation is None:
        return None
    body, mount = conventions.classify(edge.parent), conventions.classify(up.parent)
    if body.cls.name != SENSOR or mount.cls.name in (OPTICAL, *WORLD_CLASSES) or mount.axes is None or body.axes != mount.axes:
        return None
    expected = conventions.expected_rotation(edge.parent, edge.child)
    if expected is None:
        return None
    turn = expected.rotation
    if OrthoRotation.from_quaternion(edge.rotation, tolerance) != turn or OrthoRotation.from_quaternion(up.rotation, tolerance) != turn:
        return None
    got = (turn @ turn).apply(mount.axes)
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{edge.parent} is turned into optical axes ({turn}) relative to {up.parent}, and {edge.child} turns them again, "
        f"so {edge.child} is {got} relative to {up.parent}; {expected.rule}, one turn from the camera's body axes. "
        f"{edge.parent} is named as a body frame (x forward): give its joint no rotation",
        (up.parent, edge.parent, edge.child),
        up.rotation_location,
        publishers=up.publishers,
    )


_CAMERA_NAME = re.compile(r"cam|kinect|realsense|rgb|depth", re.I)


def _turned_like_optical(edge: Edge, conventions: Conventions, tolerance: float) -> Finding | None:
    """A frame under a camera's body frame turned z forward, as only an optical frame is, but with x and y not
    right and down (cdt_challenge's ``camera_link -> image_frame`` quaternion 0.5 0.5 0.5 0.5: x left, y up, the
    image upside down). Frames not named optical are judged only when so turned: nothing else points z forward."""
    if edge.rotation is None:
        return None
    body, child = conventions.classify(edge.parent), conventions.classify(edge.child)
    if body.cls.name != SENSOR or body.axes != FLU or child.cls.name != OTHER or not _CAMERA_NAME.search(body.base):
        return None
    actual = OrthoRotation.from_quaternion(edge.rotation, tolerance)
    if actual is None:
        return None
    got = actual.apply(FLU)
    if str(got)[2] != "F" or got == RDF:
        return None
    turn = FLU.rotation_to(RDF)
    return _rotation_warning(
        edge,
        f"{edge.child} is {got} relative to {edge.parent} (rotation {actual}): turned z forward as an optical frame is, but "
        f"its axes are {got.describe()}; REP-103 optical frames are x right, y down, z forward, rotation {turn}, {format_rotation(turn.quaternion())}: "
        "images in it are turned in their plane",
    )


def _rotation_warning(edge: Edge, message: str) -> Finding:
    """An INCORRECT_TRANSFORM warning about the edge's rotation, where the rotation is written."""
    return Finding("INCORRECT_TRANSFORM", message, (edge.parent, edge.child), edge.rotation_location, severity=Severity.WARNING,
                   publishers=edge.publishers)


def _accumulate(
    edge: Edge, rotation: OrthoRotation, conventions: Conventions, tolerance: float, static_parents: Mapping[str, Edge]
) -> tuple[str, OrthoRotation, list[str]] | None:
    """(anchor, rotation anchor -> edge.child, frames passed) up static orthogonal edges through
    unclassified frames; None when the chain breaks (dynamic or non-orthogonal edge, a loop)
    or the anchor's relation to the child is free."""
    for frame, carried, path in rotated_ancestors(edge.parent, rotation, static_parents, tolerance):
        if conventions.classify(frame).cls.name != OTHER:
            return (frame, carried, path[::-1]) if conventions.expected_rotation(frame, edge.child) else None
    return None


_Z_UP_WORLD = re.compile(r"^(?:map|odom|world|enu|utm)$")  # REP-105's z-up world-fixed frames (earth, ECEF, is not)
_TILT_COS = math.cos(math.radians(45))


def _z_tilt(q: Sequence[float] | None) -> float | None:
    """The angle in degrees between a child's z axis and its parent's, for a rotation tipping z more than 45 degrees;
    None for a smaller tilt (a drift in roll or pitch) or no rotation."""
    if q is None:
        return None
    norm = math.sqrt(sum(c * c for c in q))
    if not math.isfinite(norm) or norm < 1e-9:
        return None
    x, y = q[0] / norm, q[1] / norm
    z_up = 1.0 - 2.0 * (x * x + y * y)  # the child's z axis, seen in the parent, dotted with the parent's z
    return None if z_up > _TILT_COS else math.degrees(math.acos(max(-1.0, min(1.0, z_up))))


def _world_tilted(edge: Edge, conventions: Conventions) -> Finding | None:
    """Two z-up world-fixed frames (map, odom, utm, world) joined by a rotation that tips z over: REP-105's map and
    odom keep z up, so between them (and utm, ENU) only a heading turns (smarc_navigation's utm -> map turned
    z down with a rotating-axes Euler triple). Likewise REP-120's base_footprint, on the ground under the robot with z
    up, tipped over under a world frame or one of no class (LiDAR-SLAM-Simulation's body -> base_footprint at pitch pi)."""
    parent, child = conventions.classify(edge.parent), conventions.classify(edge.child)
    worlds = _Z_UP_WORLD.match(parent.base) and _Z_UP_WORLD.match(child.base)
    # (under another body frame the axis check judges it; under a sensor, a calibration's chain may tip anything)
    footprint = child.base == "base_footprint" and (parent.cls.name == OTHER or parent.cls.name in WORLD_CLASSES)
    if not (worlds or footprint) or (tilt := _z_tilt(edge.rotation)) is None:
        return None
    rule = ("REP-105's world-fixed frames (map, odom; utm and world east-north-up) all keep z up, so the transform between "
            "two of them turns only about z (a heading)") if worlds else (
            "REP-120's base_footprint is the robot's shadow on the ground, z up, so it turns only about z from the frame "
            "above it")
    return _rotation_warning(edge, f"{edge.child} is tilted relative to {edge.parent}: its z axis is {tilt:.0f} degrees from "
                                   f"{edge.parent}'s; {rule}")


# laser scanners (a scan's forward x), and the half turn about y that flips both x and z; not cameras, whose frame is
# often optical in all but name, and z down is then a camera looking at the ground (mrs_uav_general's brick camera)
_LASER = re.compile(r"laser|lidar|scan|velodyne|ouster|hokuyo|rplidar|livox|rslidar", re.I)
_HALF_PITCH = OrthoRotation.from_rpy(0.0, math.pi, 0.0)
_HALF_ROLL = OrthoRotation.from_rpy(math.pi, 0.0, 0.0)


def _scanner_mount(edge: Edge, conventions: Conventions, tolerance: float, static_parents: Mapping[str, Edge]) -> OrthoRotation | None:
    """The orthogonal rotation of a laser scanner's mount on the robot: on a body frame or a frame of no class above
    it, or on another frame of the scanner's own that sits on one unturned (Virtuoso's ``wamv/lidar_wamv_link ->
    lidar_front``, its mount link identity on ``wamv/base_link``)."""
    if edge.rotation is None:
        return None
    parent, child = conventions.classify(edge.parent), conventions.classify(edge.child)
    if child.cls.name != SENSOR or not _LASER.search(child.base):
        return None
    if parent.cls.name == SENSOR and _LASER.search(parent.base):
        up = static_parents.get(edge.parent)
        if (up is None or up.rotation is None or conventions.classify(up.parent).cls.name not in (BASE, OTHER)
                or OrthoRotation.from_quaternion(up.rotation, tolerance) != IDENTITY):
            return None
    elif parent.cls.name not in (BASE, OTHER):
        return None
    return OrthoRotation.from_quaternion(edge.rotation, tolerance)


def _flipped_sensor(edge: Edge, conventions: Conventions, tolerance: float, static_parents: Mapping[str, Edge]) -> Finding | None:
    """A laser scanner mounted on the robot with a half turn in pitch: x backward and z down, turned back and upside
    down at once, where a scanner facing backward is a half turn in yaw and one hung upside down a half turn in roll
    (leobot's Hokuyo at rpy 0 pi 0, rosbot_xl's lidar at 0 3.14 0). Mounts from a sensor's own frame (a calibration
    chain) and world poses are not judged; nor a robot that hangs another scanner upside down (a half turn in roll):
    its rear one is then upside down and turned back on purpose (neobotix' rear SICK at rpy pi 0 pi)."""
    if _scanner_mount(edge, conventions, tolerance, static_parents) != _HALF_PITCH:
        return None
    return _rotation_warning(
        edge,
        f"{edge.child} is mounted on {edge.parent} with a half turn in pitch (rotation {_HALF_PITCH}): its x axis points "
        "backward and its z axis down, so the scanner is turned back and upside down at once (its scan mirrored); "
        "a scanner facing backward is a half turn in yaw (rpy 0 0 pi), one hung upside down a half turn in roll (rpy pi 0 0)",
    )


def _sensor_null(edge: Edge, conventions: Conventions) -> Finding | None:
    if not edge.static or edge.translation is None or edge.rotation is None:
        return None
    p, c = conventions.classify(edge.parent), conventions.classify(edge.child)
    if p.cls.name != BASE or c.cls.name != SENSOR:
        return None
    if any(v != 0.0 for v in edge.translation) or OrthoRotation.from_quaternion(edge.rotation, 1e-9) != IDENTITY:
        return None
    return Finding(
        "SENSOR_NULL",
        f"sensor frame '{edge.child}' sits exactly on '{edge.parent}' (zero translation and rotation): usually a placeholder mount that was never measured",
        (edge.parent, edge.child),
        edge.location,
        publishers=edge.publishers,
    )


def camera_axes(name: str, parents: Mapping[str, Edge], conventions: Conventions, tolerance: float = DEFAULT_TOLERANCE
                ) -> tuple[str, OrthoRotation] | None:
    """REP-103 for camera data stamped in ``name`` (not named optical): the first FLU frame above it and its rotation
    from there, when every rotation on the way is a known orthogonal one and the result is not the optical axes of
    a camera looking level (RDF ahead, or turned about z to a side or back); None when it is optical, or not known.
    ``parents``: each frame's one parent edge. Only a camera's own
    body frame fixes the rotation: the data frame named as one (``camera_link``), or one above it. Under the robot's
    body a frame of no class is mounted at any angle (a downward camera), and under a world frame it has a pose."""
    own = conventions.classify(name).cls.name
    if own == OPTICAL:
        return None  # named optical: the tree check judges its rotation
    for frame, rotation, _ in rotated_ancestors(name, IDENTITY, parents, tolerance):
        info = conventions.classify(frame)
        if info.cls.name not in (OTHER, OPTICAL) and info.axes == FLU:
            if info.cls.name in WORLD_CLASSES or SENSOR not in (own, info.cls.name) or _optical_level(rotation.apply(FLU)):
                return None
            return frame, rotation
    return None


def _optical_level(axes: AxisTriple) -> bool:
    """Optical axes of a camera looking level, ahead (RDF) or to a side or back (NavigatorII's starboard camera, BDR):
    y down, z along the view; a body frame turned so was turned for its images."""
    return axes.dirs[1] == -3 and abs(axes.dirs[2]) in (1, 2)
