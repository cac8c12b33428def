"""Group what runs together and check one expected tree per group.

A subsystem starts at a top-level launch file (one no scanned launch file includes) and holds the
launch files it includes, the robot descriptions they load and the sources of the nodes they start.
Files no launch file reaches form one subsystem per package, so their bugs are still found. The tree
checks run per subsystem: two launch files that give ``base_link`` two parents only conflict when
something launches both.
"""

from __future__ import annotations

import os
from collections import defaultdict
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Mapping

from ..core.checks import camera_axes, check_tree, static_dynamic_conflicts
from ..core.conventions import Conventions
from ..core.expected import DataFrame, Lookup, PartialEdge, Variant
from ..core.findings import Finding, Location, Severity
from ..core.frame_patterns import is_pattern, without_placeholders
from ..core.rotations import FLU, IDENTITY, RDF
from ..core.tree import Edge, components, frames_of, single_parents
from .code.optical import CAMERA_DATA, camera_frame_finding, camera_link_finding
from .discovery import Workspace
from .executables import ExecutableMap
from .known_nodes import known_publishes
from .launch.substitutions import truth
from .model import LAUNCH_TIME, FileFacts, LaunchedNode

LAUNCH_KINDS = frozenset({"launch_py", "launch_xml", "launch_yaml"})
DESCRIPTION_KINDS = frozenset({"urdf", "xacro", "sdf"})
MAX_VARIANTS = 16  # distinct argument sets per launch file: bounds a file that includes itself with growing args


@dataclass
class Subsystem:
    name: str  # the top-level launch file, "package <name>" or "description <path>"
    launched: bool  # True when a launch file says these run together
    files: list[str] = field(default_factory=list)
    edges: list[Edge] = field(default_factory=list)
    lookups: list[Lookup] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)  # file-level findings of the files as this subsystem reads them
    # What decides whether the tree seen is the whole tree (see ``complete``):
    unknown_nodes: list[LaunchedNode] = field(default_factory=list)  # started, neither scanned nor known
    unknown_broadcasts: int = 0  # broadcasts in its code whose frames the analysis could not resolve
    known_edges: list[tuple[str, str]] = field(default_factory=list)  # what well-known nodes it starts publish
    has_body: bool = False  # loads a robot description: the robot itself is there, not only a node of it
    description: bool = False  # one robot description on its own: the whole of that robot
    # edges only one choice of the robot's environment runs (a robot model), by choice; ``edges`` holds them all
    variants: dict[tuple[tuple[str, str], ...], list[Edge]] = field(default_factory=dict)
    common: list[Edge] = field(default_factory=list)  # the edges every variant runs
    data_frames: list[DataFrame] = field(default_factory=list)  # frames its code and launch files stamp on data
    # its code's broadcasts with one frame known only at run time (a map frame read from a service)
    open_broadcasts: list[PartialEdge] = field(default_factory=list)
    choice: dict[str, str] = field(default_factory=dict)  # the launch arguments and environment the user chose (--arg, --env)
    partial_robot: bool = False  # a robot it loads was built without a package outside the tree
    # the same launch with one boolean argument turned the other way (``gmapping:=true``): what each starts
    switched: list[tuple[Switch, Subsystem]] = field(default_factory=list)

    @property
    def complete(self) -> bool:
        """True when every transform publisher in it is known: a launch file whose nodes are all
        scanned or well known and whose broadcasts all resolve, or a robot description on its own.
        A package's loose files never are: they run beside nodes the scan does not see."""
        if self.description:
            return True
        return self.launched and not self.unknown_nodes and not self.unknown_broadcasts and not self.partial_robot

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "files": self.files, "frames": frames_of(self.edges)}

    def trees(self) -> list[tuple[dict[str, str], list[Edge]]]:
        """Each whole tree it can run as, with the choice that selects it: one per variant, or its edges."""
        if not self.variants:
            return [(dict(self.choice), self.edges)]
        return [({**self.choice, **dict(key)}, merge_edges([*self.common, *edges])) for key, edges in sorted(self.variants.items())]

    def expected_variants(self) -> list[Variant]:
        out = []
        for choice, edges in self.trees():
            label = " ".join(f"{k}={v}" for k, v in choice.items())
            out.append(Variant(f"{self.name} {label}" if label else self.name, edges, self.name, choice))
        return out


def merge_edges(edges: Iterable[Edge]) -> list[Edge]:
    """One edge per declaration value; the same transform declared in several places keeps all sources."""
    merged: dict[tuple[object, ...], Edge] = {}
    for e in edges:
        key = (e.parent, e.child, e.static, e.translation and tuple(round(v, 9) for v in e.translation),
               e.rotation and tuple(round(v, 9) for v in e.rotation), e.constant_part)
        old = merged.get(key)
        if old is None:
            merged[key] = e
        else:
            srcs = old.sources + tuple(s for s in e.sources if s not in old.sources)
            # the nodes a launch file models stay named (amcl's map -> odom, merged with a broadcast the code gives the
            # same unknown value): a modelled broadcast is no fixed transform
            pubs = old.publishers + tuple(p for p in e.publishers if p not in old.publishers)
            merged[key] = replace(old, sources=srcs, publishers=pubs)
    return list(merged.values())


#: Re-reads a launch file with the arguments an including launch file passes it.
Reparse = Callable[[str, dict[str, str]], FileFacts]


@dataclass(frozen=True)
class Switch:
    """A boolean launch argument turned from its default: ``file`` read with ``name:=value``."""

    file: str
    name: str
    value: str
    line: int  # its <arg>

    def __str__(self) -> str:
        return f"{self.name}:={self.value} (the argument at {self.file}:{self.line})"


MAX_SWITCHES = 8  # switched launches tried per top-level launch file: each is one more closure


@dataclass(frozen=True)
class LaunchChoice:
    """``physframe scan --launch PKG/FILE --arg k:=v --env K=V``: the one launch that runs, as the user starts it."""

    launch: str  # the launch file, relative to the scan root
    args: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)


def build_subsystems(ws: Workspace, facts: dict[str, FileFacts], kinds: dict[str, str], exes: ExecutableMap,
                     reparse: Reparse | None = None, chosen: LaunchChoice | None = None) -> list[Subsystem]:
    """``facts`` holds the files with something in them; descriptions a launch file loads are in
    that launch file's facts (expanded with its arguments), not on their own. Included launch files
    that get arguments are read again with them through ``reparse``. With ``chosen``, only that
    launch file, with its arguments: one subsystem."""
    launches = [p for p, k in kinds.items() if k in LAUNCH_KINDS and p in facts]
    included = {inc for p in launches for inc in facts[p].includes}
    by_name: dict[str, list[str]] = defaultdict(list)  # file name -> paths, for ROS 1 script nodes
    for p in kinds:
        by_name[os.path.basename(p)].append(p)
    covered: set[str] = set()
    out: list[Subsystem] = []
    if chosen is not None:
        reach = _Reach()
        members = _closure(chosen.launch, facts, exes, ws, by_name, reparse, reach, chosen.args)
        sub = _assemble(chosen.launch, True, members)
        sub.unknown_nodes, sub.known_edges = reach.unknown, list(dict.fromkeys(reach.known))
        sub.has_body = any(f.uses for f in members.values())
        sub.choice = {**chosen.args, **chosen.env}
        return [sub]
    # top-level launch files first; then any launch file only reachable through an include cycle; then a launch file its
    # includers start with a switch turned against its default, run as itself too (NaviGator's master.launch: its
    # simulation.launch passes simulation:=true, the robot runs it with its default false and its hardware cameras)
    launch_facts = [facts[q] for q in launches]
    overridden = sorted(p for p in included if p in facts and _switch_overridden(p, facts[p], launch_facts))
    tops = [*sorted(p for p in launches if p not in included), *sorted(launches)]
    for i, top in enumerate([*tops, *overridden]):
        if top in covered and i < len(tops):
            continue
        reach = _Reach()
        members = _closure(top, facts, exes, ws, by_name, reparse, reach)
        # a node's sources read only with its launched parameters are also checked as the code stands, with its defaults
        # (rf2o's reversed odom broadcast, which its launch file turns off)
        covered.update(f.path for f in members.values() if f.path not in reach.bound)
        sub = _by_argument(top, facts[top], facts, exes, ws, by_name, reparse, reach) or _assemble(top, True, members)
        sub.unknown_nodes, sub.known_edges = reach.unknown, list(dict.fromkeys(reach.known))
        if reparse is not None:
            sub.switched = [(s, _assemble(top, True, _closure(top, facts, exes, ws, by_name, reparse, _Reach(), flip=s)))
                            for s in _switches(members)]
        sub.has_body = any(f.uses for f in members.values()) or any(kinds.get(f.path) in DESCRIPTION_KINDS for f in members.values())
        out.append(sub)
    leftovers: dict[str, list[str]] = defaultdict(list)
    for p in sorted(facts):
        if p in covered:
            continue
        if kinds.get(p) in DESCRIPTION_KINDS:
            # each standalone description is its own robot: alternatives in one package never merge
            sub = _assemble(f"description {p}", False, {p: facts[p]})
            sub.description = not facts[p].partial
            sub.has_body = True
            out.append(sub)
            continue
        pkg = ws.package_of(p)
        leftovers[f"package {pkg.name}" if pkg else "files outside any package"].append(p)
    for name, paths in sorted(leftovers.items()):
        out.append(_assemble(name, False, {p: facts[p] for p in paths}))
    return out


def _switch_overridden(path: str, own: FileFacts, launches: Iterable[FileFacts]) -> bool:
    """Some includer passes ``path`` one of its boolean arguments with a default turned the other way."""
    for f in launches:
        args = f.include_args.get(path, {})
        for name, default in own.boolean_args.items():
            given = truth(args.get(name))
            if given is not None and given != truth(default):
                return True
    return False


def _switches(members: Mapping[str, FileFacts]) -> list[Switch]:
    """The boolean arguments with a default that the launch's files declare and no includer sets, each turned."""
    out = {(f.path, name): Switch(f.path, name, value, line) for f in members.values() for name, (line, value) in f.switches.items()}
    return list(out.values())[:MAX_SWITCHES]


def _by_argument(top: str, top_facts: FileFacts, facts: dict[str, FileFacts], exes: ExecutableMap, ws: Workspace,
                 by_name: dict[str, list[str]], reparse: Reparse | None, reach: _Reach) -> Subsystem | None:
    """A top-level launch file whose argument declares the values it takes (``ur_type``, choices
    ur3 ... ur30): one variant per value, when the trees they run differ."""
    if reparse is None or not top_facts.arg_choices:
        return None
    arg, values = next(iter(top_facts.arg_choices.items()))
    runs = {((arg, v),): _assemble(top, True, _closure(top, facts, exes, ws, by_name, reparse, _Reach(), {arg: v}))
            for v in values[:MAX_VARIANTS]}
    if len({tuple(sorted((e.parent, e.child, e.translation, e.rotation) for e in r.edges)) for r in runs.values()}) < 2:
        return None
    sub = _assemble(top, True, {})
    sub.files = sorted({f for r in runs.values() for f in r.files})
    sub.variants = {k: r.edges for k, r in runs.items()}
    sub.edges = merge_edges(e for r in runs.values() for e in r.edges)
    sub.lookups = list(dict.fromkeys(lk for r in runs.values() for lk in r.lookups))
    sub.findings = list({f.key: f for r in runs.values() for f in r.findings}.values())
    sub.data_frames = list(dict.fromkeys(d for r in runs.values() for d in r.data_frames))
    sub.open_broadcasts = list(dict.fromkeys(b for r in runs.values() for b in r.open_broadcasts))
    sub.unknown_broadcasts = max(r.unknown_broadcasts for r in runs.values())
    return sub


@dataclass
class _Reach:
    """The nodes a launch file starts that the scan cannot see into, and what known ones publish."""

    unknown: list[LaunchedNode] = field(default_factory=list)
    known: list[tuple[str, str]] = field(default_factory=list)
    bound: set[str] = field(default_factory=set)  # sources read only with a launched node's parameters


def _closure(top: str, facts: dict[str, FileFacts], exes: ExecutableMap, ws: Workspace, by_name: dict[str, list[str]],
             reparse: Reparse | None, reach: _Reach, top_args: dict[str, str] | None = None, flip: Switch | None = None,
             ) -> dict[str, FileFacts]:
    """Every file the top-level launch file starts, with the facts it has in this launch: an
    included file given arguments is read with them (once per distinct set); ``flip``: one file's boolean argument
    the other way, where no includer sets it."""
    members: dict[str, FileFacts] = {}
    seen: set[tuple[str, tuple[tuple[str, str], ...]]] = set()
    stack: list[tuple[str, dict[str, str]]] = [(top, dict(top_args or {}))]
    variants: dict[str, int] = defaultdict(int)
    drivers: dict[str, dict[str, tuple[str, ...]]] = {}  # source file -> child -> the launched node its broadcast is
    renamed: dict[str, set[str]] = defaultdict(set)  # source file -> children whose frames the launch file's parameters rename
    instances: dict[tuple[str, tuple[tuple[str, str], ...]], LaunchedNode] = {}  # a source read with a node's parameters -> the node
    unbound: set[str] = set()  # sources some node of the launch runs with their defaults
    while stack:
        p, args = stack.pop()
        if flip is not None and p == flip.file and flip.name not in args:
            args = {**args, flip.name: flip.value}
        key = (p, tuple(sorted(args.items())))
        if key in seen or variants[p] >= MAX_VARIANTS:
            continue
        seen.add(key)
        f = facts.get(p)
        if args and reparse is not None:
            f = reparse(p, args)
        if f is None:
            continue
        if key in instances and p in facts:
            f = _as_launched(facts[p], f, instances[key])
        if p in renamed:
            f = replace(f, edges=[e for e in f.edges if e.child not in renamed[p]])
        if p in drivers:
            f = replace(f, edges=[replace(e, publishers=drivers[p][e.child]) if e.child in drivers[p] and not e.publishers else e
                                  for e in f.edges])
        variants[p] += 1
        stack.extend((inc, f.include_args.get(inc, {})) for inc in reversed(f.includes))
        reach.unknown.extend(f.unseen_includes)
        modelled: list[Edge] = []
        node_edges = [e for e in f.edges if e.publishers]  # broadcasts the launch file models for the nodes it starts
        for node in f.nodes:
            srcs = exes.get((node.package, node.executable))
            if srcs is None:  # ROS 1 script node: a file of that name in the package
                pkg = ws.packages.get(node.package)
                srcs = [c for c in by_name.get(node.executable, ()) if pkg is not None and (pkg.path == "" or c.startswith(pkg.path + "/"))]
            # a node whose broadcast is modelled from its package's defaults (robot_pose_ekf) and whose sources are in
            # the tree too: where the code gives the edge in full, the code's edge stands, not a second copy of it
            mine = [e for e in node_edges if e.publishers == (node.name or node.executable,) and e.location == node.location]
            if mine:
                coded = {(e.parent, e.child) for s in srcs if s in facts for e in facts[s].edges}
                same = [e for e in mine if (e.parent, e.child) in coded]
                modelled.extend(same)
                for s in srcs:  # the code's edge is the node's broadcast: it names the node, as the model did
                    drivers.setdefault(s, {}).update((e.child, e.publishers) for e in same)
                    # the code reads its defaults where the launch file gives the node other frames (jaguar-bot's
                    # robot_pose_ekf told output_frame odom): the modelled edge stands for the node
                    renamed[s].update(e.child for e in mine if e not in same and any(c == e.child for _, c in coded))
            known = known_publishes(node)
            if known is not None:
                reach.known.extend(known)
            elif not srcs:
                reach.unknown.append(node)
            # each instance's sources read with the parameters the launch gives it (perseus' camera_frame from its YAML)
            bound = {k: v if v is not None else LAUNCH_TIME for k, v, _ in node.params}
            for s in srcs:
                if s in facts:
                    stack.append((s, bound))
                    if bound:
                        instances[(s, tuple(sorted(bound.items())))] = node
                        reach.bound.add(s)
                    else:
                        unbound.add(s)
        members[p if variants[p] == 1 else f"{p} ({', '.join(f'{k}:={v}' for k, v in key[1])})"] = (
            replace(f, edges=[e for e in f.edges if e not in modelled]) if modelled else f)
    reach.bound -= unbound
    return members


def _as_launched(default: FileFacts, bound: FileFacts, node: LaunchedNode) -> FileFacts:
    """A node's source read with the parameters a launch file gives it: a problem the defaults do not have at that line
    comes from a launched value, and is reported where that value is written, the code's line named (perseus' ArUco
    poses stamped ``camera_link``, which its YAML gives ``camera_frame``). A lookup the launch turns into one from a
    frame to itself is its configuration (hector_mapping given ``odom_frame: base_link`` to run without odometry)."""
    sites = {(f.code, f.location) for f in default.findings}  # what the code has wrong whatever it is given
    given = {v: (k, loc) for k, v, loc in node.params if v}
    findings = []
    for f in bound.findings:
        if (f.code, f.location) in sites or f.code == "REDUNDANT_TRANSFORM":
            continue  # the code's own (reported once, from its defaults), or two frames the launch makes one on purpose
        value = next((fr for fr in f.frames if fr in given), None)
        if value is not None:
            k, loc = given[value]
            f = f.with_(location=loc, message=f"{node.name or node.executable} ({node.location}) is given {k}: '{value}' "
                                              f"here; in its code: {f.message} ({f.location})")
        findings.append(f)
    # data stamped with a launched frame is judged against the tree where that frame is given (iarc's usb_cam told
    # camera_frame_id bottom_cam, which the launch file turns z up)
    data = [replace(d, location=given[d.frame][1]) if d.frame in given else d for d in bound.data_frames]
    return replace(bound, findings=findings, data_frames=data)


def _assemble(name: str, launched: bool, members: dict[str, FileFacts]) -> Subsystem:
    sub = Subsystem(name, launched, sorted({f.path for f in members.values()}))
    edges: list[Edge] = []
    for f in members.values():
        edges.extend(f.edges)
        sub.common.extend(f.edges)
        for key, alt in f.variants.items():
            sub.variants.setdefault(key, []).extend(alt)
            edges.extend(alt)
        sub.lookups.extend(f.lookups)
        sub.findings.extend(f.findings)
        sub.data_frames.extend(f.data_frames)
        sub.open_broadcasts.extend(pe for pe in f.partial_edges if pe.kind == "broadcast" and (pe.parent is None) != (pe.child is None))
        sub.partial_robot = sub.partial_robot or f.partial
        sub.unknown_broadcasts += f.unknown_broadcasts
    sub.edges = merge_edges(edges)
    sub.common = merge_edges(sub.common)
    sub.variants = {k: merge_edges(v) for k, v in sub.variants.items()}
    return sub


def check_subsystems(subsystems: Iterable[Subsystem], conventions: Conventions) -> list[Finding]:
    """Tree checks and LOOKUP_UNREACHABLE per subsystem, each problem once."""
    out: dict[object, Finding] = {}
    subsystems = list(subsystems)
    # each tree's frames with one parent, read once for the camera data checks (when there is camera data)
    cameras = any(d.type in CAMERA_DATA for sub in subsystems for d in sub.data_frames)
    parents = [single_parents(sub.edges) if cameras else {} for sub in subsystems]
    for f in _camera_data_placed_elsewhere(subsystems, parents, conventions) if cameras else ():
        out.setdefault(f.key, f)
    for sub, sub_parents in zip(subsystems, parents):
        for f in sub.findings:
            out.setdefault(f.key, f)
        joined = _joined_components(sub)
        # each variant is checked as the tree it is: two robot models never give one link two parents
        tree_findings = {f.key: f for _, edges in sub.trees() for f in check_tree(_unprefixed(edges), conventions)}
        for f in tree_findings.values():
            if f.code == "DISCONNECTED_TREE" and (not sub.complete or len(_beyond_node_defaults(sub, joined)) < 2):
                continue  # trees only a node outside the scan, or a well-known node, may join
            if f.code == "SENSOR_NULL":
                # in source a sensor at its body's origin is mostly by design (an IMU at the centre, an SDF
                # sensor whose pose sits on its <sensor>): a hint, where the live tree's is a warning
                f = f.with_(severity=Severity.INFO)
            out.setdefault(f.key, f)
        for f in _unreachable(sub, joined):
            out.setdefault(f.key, f)
        for f in static_dynamic_conflicts(_two_ways_across_files(sub.edges)):
            out.setdefault(f.key, f)
        for f in _fixed_and_broadcast(sub) if sub.launched else ():
            out.setdefault(f.key, f)
        for f in _camera_data_frames(sub, sub_parents, conventions):
            out.setdefault(f.key, f)
        for switch, alt in sub.switched:
            for f in _conflicts(alt, conventions):
                if f.key not in out:
                    out[f.key] = f.with_(message=f"launched with {switch}: {f.message}")
    return list(out.values())


#: What turning a switch can add: two publishers of one frame. What it removes (a lookup left unreachable, a tree in
#: two parts) is what the switch is for.
_CONFLICTS = frozenset({"MULTIPLE_PARENTS_IN_FRAME_TREE", "CYCLE_IN_FRAME_TREE", "STATIC_DYNAMIC_CONFLICT"})


def _conflicts(sub: Subsystem, conventions: Conventions) -> Iterable[Finding]:
    """The publishers that meet in a launch run with a switch turned (gmapping's map -> odom beside a static one)."""
    for _, edges in sub.trees():
        yield from (f for f in check_tree(_unprefixed(edges), conventions) if f.code in _CONFLICTS)
    yield from static_dynamic_conflicts(_two_ways_across_files(sub.edges))
    yield from _fixed_and_broadcast(sub)


def _camera_data_frames(sub: Subsystem, parents: Mapping[str, Edge], conventions: Conventions) -> list[Finding]:
    """Camera data stamped with a body frame whose optical twin the subsystem's tree holds (a launch file's
    ``usb_cam`` given ``camera_frame_id: front_cam`` beside a description with ``front_cam_optical``); ``parents``:
    :func:`~physframe_ros.core.tree.single_parents` of its tree."""
    cameras = [d for d in sub.data_frames if d.type in CAMERA_DATA]
    if not cameras:
        return []
    names = frames_of(sub.edges)
    out = [camera_frame_finding(d.type, "", d.frame, names, sub.edges, conventions, d.location or Location(sub.name), "the tree also has")
           or camera_link_finding(d.type, d.frame, sub.edges, conventions, d.location or Location(sub.name))
           or _placed_not_optical(d, parents, conventions, Location(sub.name))
           for d in dict.fromkeys(cameras)]
    return [f for f in out if f is not None]


def _camera_data_placed_elsewhere(subsystems: list[Subsystem], parents: list[dict[str, Edge]], conventions: Conventions
                                  ) -> Iterable[Finding]:
    """Camera data a launch file stamps with a frame its own tree does not hold, judged in the trees of the other
    subsystems that place it (a bringup runs them together: WATonomous' panorama cameras, launched in
    sensor_interfacing, stamp frames only the car's description places, unturned under the roof mount). Every tree
    that places the frame must find it not optical: one that makes it optical may be the one that runs beside.
    ``parents``: :func:`~physframe_ros.core.tree.single_parents` of each subsystem's tree."""
    placed: dict[str, list[dict[str, Edge]]] = {}
    for sub_parents in parents:
        for child in sub_parents:
            placed.setdefault(child, []).append(sub_parents)
    for sub in subsystems:
        own = frames_of(sub.edges)
        for d in dict.fromkeys(d for d in sub.data_frames if d.type in CAMERA_DATA and d.frame not in own):
            found = [_placed_not_optical(d, tree, conventions, Location(sub.name)) for tree in placed.get(d.frame, ())]
            judged = [f for f in found if f is not None]
            if judged and len(judged) == len(found):
                yield judged[0]


def _placed_not_optical(d: DataFrame, parents: Mapping[str, Edge], conventions: Conventions, fallback: Location) -> Finding | None:
    """Camera data stamped in a frame the subsystem's tree places with known rotations, not optical relative to the
    body frame above it (the live check's rule on the declared tree): a launch file's ``usb_cam`` given
    ``camera_link`` that the description fixes unturned under ``base_link``."""
    if d.type not in CAMERA_DATA or d.type == "Imu":
        return None
    found = camera_axes(d.frame, parents, conventions)
    if found is None:
        return None
    body, rotation = found
    edge = parents[d.frame]
    where = f"{edge.sources[0]}" if edge.sources else "the tree"
    return Finding(
        "INCORRECT_TRANSFORM",
        f"{d.type} data is stamped in '{d.frame}', which the tree ({where}) makes {rotation.apply(FLU)} relative to {FLU} "
        f"'{body}' ({'no rotation' if rotation == IDENTITY else f'rotation {rotation}'}); REP-103: camera data is in an optical "
        f"frame, {RDF} (x right, y down, z forward) relative to the body: stamp it with a child of '{d.frame}' turned by "
        "rpy (-pi/2, 0, -pi/2)",
        (body, d.frame), d.location or fallback,
    )


def _in_launch_file(loc: Location | None) -> bool:
    name = os.path.basename(loc.file) if loc is not None else ""
    return name.endswith(".launch") or ".launch." in name


def _fixed_and_broadcast(sub: Subsystem) -> Iterable[Finding]:
    """A fixed transform a launch file publishes (static_transform_publisher; tf's sends it on /tf at its period) to a
    child that a node the same launch starts also broadcasts on /tf, from the same parent or from one known only at run
    time (rvc_commander's placeholder map -> odom_link beside its localisation node's map correction): tf2 takes
    whichever came last, and lookups through the child jump between the fixed and the estimated value. A pair on
    /tf_static and /tf is static_dynamic_conflicts' finding; another known parent, check_tree's two parents."""
    # a file that also broadcasts from the frame to one known only at run time chooses the direction at run time
    # (ar_pose's `reverse_transform`: marker -> camera, or camera -> marker): no second parent for sure
    both_ways = {(b.location.file if b.location else None, b.parent) for b in sub.open_broadcasts if b.child is None}
    broadcasts: list[tuple[str | None, str | None, Location | None]] = [
        (b.child, None, b.location) for b in sub.open_broadcasts
        if b.child is not None and (b.location.file if b.location else None, b.child) not in both_ways]
    for e in sub.edges:
        if not e.static:
            # code's broadcasts, and a launched node's modelled one (amcl's map -> odom beside a placeholder)
            broadcasts.extend((e.child, e.parent, s) for s in e.sources if e.publishers or not _in_launch_file(s))
    for e in sub.edges:
        if e.publishers or not any(_in_launch_file(s) for s in e.sources):
            continue  # a launched node's modelled broadcast (robot_localization's, a driver's odometry) is no fixed transform
        found = next(((parent, where) for child, parent, where in broadcasts
                      if child == e.child and (parent is None or (parent == e.parent and not e.static))), None)
        if found is None:
            continue
        parent, where = found
        whose = "" if parent is not None else f" (its parent is known only at run time: if it is not '{e.parent}', {e.child} has two parents)"
        yield Finding(
            "STATIC_DYNAMIC_CONFLICT",
            f"transform {e.parent} -> {e.child} is published fixed here and {e.child} is also broadcast by a node this launch "
            f"starts{f' at {where}' if where is not None else ''}{whose}: tf2 takes whichever came last, so lookups through "
            f"{e.child} jump between the fixed and the broadcast value; drop the fixed one (a placeholder) or the broadcast",
            (e.parent, e.child),
            next(s for s in e.sources if _in_launch_file(s)),
            severity=Severity.WARNING,
        )


def _two_ways_across_files(edges: list[Edge]) -> list[Edge]:
    """The edges, without the pairs one source file sends both static and dynamic: there the two ways are a
    run-time choice of one program (ouster-ros: ``broadcast_transforms(info)`` on /tf_static when
    ``publish_static_tf``, ``broadcast_transforms(info, ts)`` on /tf otherwise), not two publishers. A launch file
    that starts a broadcasting node beside a static publisher of the same edge starts two programs: kept."""
    files: dict[tuple[str, str, bool], set[str]] = {}
    for e in edges:
        if not _modelled(e):  # a launched node's modelled broadcast is another program
            files.setdefault((e.parent, e.child, e.static), set()).update(loc.file for loc in e.sources[:1])
    one_file = {(p, c) for (p, c, static), names in files.items() if static and len(names | files.get((p, c, False), set())) == 1 and (p, c, False) in files}
    return [e for e in edges if (e.parent, e.child) not in one_file]


def _unprefixed(edges: list[Edge]) -> list[Edge]:
    """The tree as it runs without a namespace: placeholders empty, so ``{namespace}base_footprint``
    meets the ``base_footprint`` a node's code names (the locations stay those of the declarations)."""
    if not any(is_pattern(e.parent) or is_pattern(e.child) for e in edges):
        return edges
    return [replace(e, parent=without_placeholders(e.parent), child=without_placeholders(e.child)) for e in edges]


def _joined_components(sub: Subsystem) -> list[set[str]]:
    """The subsystem's trees, with the transforms its well-known nodes publish joining them."""
    known = [Edge(p, c, False) for p, c in sub.known_edges]
    return components([*sub.edges, *known]) if known else components(sub.edges)


def _beyond_node_defaults(sub: Subsystem, joined: list[set[str]]) -> list[set[str]]:
    """The trees, less those only a launched node's modelled broadcast makes (slam_gmapping's map -> odom): such a
    node expects the rest of the system (the odometry of a driver another launch file starts), not a tree of its own."""
    modelled = {f for e in sub.edges if _modelled(e) for f in (e.parent, e.child)}
    other = {f for e in sub.edges if not _modelled(e) for f in (e.parent, e.child)}
    return [c for c in joined if not (c <= modelled and not c & other)]


def _modelled(e: Edge) -> bool:
    """The broadcast a launch file's node is known to send by its defaults (it names the node, at the launch line)."""
    return bool(e.publishers) and any(_in_launch_file(s) for s in e.sources)


def _unreachable(sub: Subsystem, joined: list[set[str]]) -> Iterable[Finding]:
    """LOOKUP_UNREACHABLE only in a complete subsystem: a lookup is evidence that some node publishes
    its frames, so only where every publisher is known can the scan say none does. A frame no one
    publishes is reported only where the robot itself (its description) is part of what runs: a
    launch file for one node of a robot is not the whole robot."""
    if not sub.complete:
        return
    # tf2 connects two frames when they share a tree: one component lookup per frame, not a search per lookup
    component = {f: i for i, comp in enumerate(joined) for f in comp}
    frames = set(component)
    for lk in sub.lookups:
        if not lk.target or not lk.source or lk.target == lk.source:
            continue  # empty and self lookups are the code analysis' findings
        if lk.target in component and component[lk.target] == component.get(lk.source):
            continue
        missing = [f for f in (lk.target, lk.source) if f not in frames]
        if missing and not sub.has_body:
            continue
        why = (f"no scanned source publishes {' or '.join(repr(m) for m in missing)}" if missing
               else "they sit in separate trees")
        where = f"launch file {sub.name}" if sub.launched else sub.name
        yield Finding(
            "LOOKUP_UNREACHABLE",
            f"code looks up the transform '{lk.target}' <- '{lk.source}', but in what {where} runs no transform chain connects them ({why}); "
            "the lookup will throw",
            (lk.target, lk.source), lk.location if isinstance(lk.location, Location) else None)
