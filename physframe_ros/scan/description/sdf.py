"""SDFormat 1.4+ models -> edges, with the frame-graph rules of libsdformat's pose frame semantics.

Each model scope has frames: ``__model__``, links, joints, ``<frame>`` elements and nested models.
``attached_to`` and ``relative_to`` name frames of the same scope (``inner::link`` reaches into a
nested model); both graphs must be acyclic (a frame attached to itself is a cycle), must name
existing frames, and names must be unique among siblings and not reserved (``world``, ``__x__``).
TF edges: every joint (parent link -> child link) and every ``<frame>`` (what it is attached to ->
the frame); nested model frames are scoped with ``::``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Iterator

from ...core.checks import frame_id_problem, transform_findings
from ...core.findings import Finding, Location
from ...core.rotations import matrix_to_quaternion
from ...core.tree import Edge
from ..model import CameraSensor, FileFacts, parse_document
from ..xml_lines import XmlNode
from .camera_plugins import camera_sensors_of, placed_sensors_of
from .earth_plugins import earth_mapping_findings
from .plugin_frames import plugin_frame_findings
from .sdf_pose import IDENTITY_POSE, Pose, read_pose

MODEL = "__model__"


@dataclass
class _Frame:
    name: str
    kind: str  # link, joint, frame, model
    line: int
    attached_to: str  # for links and models: themselves / their canonical link
    relative_to: str
    pose: Pose | None  # None: written but unreadable, so unknown (never identity)
    node: XmlNode


@dataclass
class _Scope:
    prefix: str  # "" or "outer::inner::"
    frames: dict[str, _Frame] = field(default_factory=dict)
    canonical: str = ""
    nested: dict[str, _Scope] = field(default_factory=dict)


_STAGE_WORLD = re.compile(r"\A(?:\ufeff)?\s*(?:#|[A-Za-z_])")  # a Stage world starts with a comment or a statement, never '<'


def parse_sdf_file(text: str, rel_path: str) -> FileFacts:
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    if rel_path.lower().endswith(".world") and _STAGE_WORLD.match(text):
        return facts  # Stage's .world format (stage_ros), not SDFormat: it holds no tf frames
    root = parse_document(facts, text, "SDF", "sdf", lenient_comments=True)
    if root is None:
        return facts
    models = root.findall("model") + [m for w in root.findall("world") for m in w.findall("model")]
    for m in models:
        scope = _build_scope(m, "", facts)
        _check_and_emit(scope, facts)
        facts.camera_sensors.extend(_cameras(scope, facts))
        for name, link in _links(scope):
            facts.sim_sensors.extend(placed_sensors_of(link.node, name, lambda el: _loc(facts, el.line)))
    facts.findings.extend(plugin_frame_findings(root, lambda el: _loc(facts, el.line)))
    facts.findings.extend(earth_mapping_findings(root, lambda el: _loc(facts, el.line)))
    return facts


def _loc(facts: FileFacts, line: int) -> Location:
    return Location(facts.path, line)


def _build_scope(model: XmlNode, prefix: str, facts: FileFacts) -> _Scope:
    scope = _Scope(prefix)
    what = f"model '{prefix}{model.get('name', '')}'".replace("::'", "'")
    for el in model.children:
        if el.tag not in ("link", "joint", "frame", "model"):
            continue
        name = el.get("name", "")
        if not name:
            facts.findings.append(Finding("PARSE_ERROR", f"<{el.tag}> without a name in {what}", (), _loc(facts, el.line)))
            continue
        if name == "world" or (name.startswith("__") and name.endswith("__")):
            facts.findings.append(Finding("INVALID_FRAME_ID", f"{el.tag} name '{name}' in {what} is reserved by SDFormat (world and __*__ names)",
                                          (prefix + name,), _loc(facts, el.line)))
            continue
        if name in scope.frames:
            first = scope.frames[name]
            facts.findings.append(Finding("INVALID_FRAME_ID", f"{el.tag} name '{name}' in {what} is already used by the {first.kind} at line {first.line}; "
                                          "sibling names must be unique", (prefix + name,), _loc(facts, el.line)))
            continue
        pose_el = el.find("pose")
        pose, problem = read_pose(pose_el)
        if problem:
            facts.findings.append(Finding("PARSE_ERROR", f"{el.tag} '{name}' in {what}: {problem}", (), _loc(facts, pose_el.line if pose_el else el.line)))
        rel_to = (pose_el.get("relative_to") or "").strip() if pose_el is not None else ""
        if el.tag == "frame":
            attached = (el.get("attached_to") or "").strip() or MODEL
            relative = rel_to or attached
        elif el.tag == "joint":
            attached = el.child_text("child") or ""
            relative = rel_to or attached
        else:  # links and nested models hang off the model frame by default
            attached = name
            relative = rel_to or MODEL
        scope.frames[name] = _Frame(name, el.tag, el.line, attached, relative, pose, el)
        if el.tag == "link" and not scope.canonical:
            scope.canonical = name
        if el.tag == "model":
            scope.nested[name] = _build_scope(el, f"{prefix}{name}::", facts)
    explicit = (model.get("canonical_link") or "").strip()
    if explicit:
        scope.canonical = explicit
    return scope


def _links(scope: _Scope) -> Iterator[tuple[str, _Frame]]:
    """The model's links with their scoped names, nested models included."""
    for f in scope.frames.values():
        if f.kind == "link":
            yield scope.prefix + f.name, f
    for nested in scope.nested.values():
        yield from _links(nested)


def _cameras(scope: _Scope, facts: FileFacts) -> Iterator[CameraSensor]:
    """The camera sensors of the model's links (judged once every description is read)."""
    for name, f in _links(scope):
        for sensor, el, mount in camera_sensors_of(f.node):
            yield CameraSensor(sensor.get("name") or "", name, el.text.strip(), mount, _loc(facts, el.line))


def _known(scope: _Scope, name: str) -> bool:
    if name == MODEL or name in scope.frames:
        return True
    head, sep, rest = name.partition("::")
    return bool(sep) and head in scope.nested and _known(scope.nested[head], rest)


def _check_and_emit(scope: _Scope, facts: FileFacts) -> None:
    bad: set[str] = set()  # frames on a cycle or pointing nowhere: no edge, no pose
    for graph, attr in (("attached_to", "attached_to"), ("relative_to", "relative_to")):
        reported_cycles: set[frozenset[str]] = set()
        for f in scope.frames.values():
            if (f.kind in ("link", "model") and attr == "attached_to") or f.name in bad:
                continue  # links are their own attachment; frames already reported stay quiet
            target = getattr(f, attr)
            if not target:
                code = "MISSING_CHILD_FRAME" if f.kind == "joint" else "MISSING_FRAME"
                facts.findings.append(Finding(code, f"joint '{scope.prefix}{f.name}' has no <child>", (scope.prefix + f.name,), _loc(facts, f.line)))
                bad.add(f.name)
                continue
            if not _known(scope, target):
                facts.findings.append(Finding(
                    "MISSING_CHILD_FRAME" if f.kind == "joint" else "MISSING_FRAME",
                    f"{f.kind} '{scope.prefix}{f.name}': {'child' if f.kind == 'joint' and attr == 'attached_to' else graph} names '{target}', "
                    "which is not a frame of this model; libsdformat rejects the model",
                    (scope.prefix + f.name, target), _loc(facts, f.line)))
                bad.add(f.name)
                continue
            loop = _follow(scope, f.name, attr)
            if loop is not None and frozenset(loop) not in reported_cycles:
                reported_cycles.add(frozenset(loop))
                first = min((scope.frames[n] for n in loop), key=lambda x: x.line)
                path = " -> ".join(scope.prefix + n for n in [*loop, loop[0]])
                facts.findings.append(Finding(
                    "CYCLE_IN_FRAME_TREE", f"SDFormat {graph} graph has a cycle {path}: "
                    + ("a frame cannot be attached to itself" if len(loop) == 1 else "every frame must lead to the model frame"),
                    tuple(scope.prefix + n for n in loop), _loc(facts, first.line)))
            if loop is not None:
                bad.update(loop)
    poses: dict[str, Pose | None] = {}
    for f in scope.frames.values():
        if f.name in bad:
            continue
        loc = _loc(facts, f.line)
        if f.kind == "joint":
            parent = (f.node.child_text("parent") or "").strip()
            child = f.attached_to
            if parent != "world" and not _known(scope, parent):
                facts.findings.append(Finding("MISSING_FRAME", f"joint '{scope.prefix}{f.name}' names parent '{parent}', which is not a frame of this model",
                                              (scope.prefix + f.name, parent), loc))
                continue
            static = (f.node.get("type") or "") == "fixed"
            p_name = parent if parent == "world" else _tf_name(scope, parent)
            c_name = _tf_name(scope, child)
            _emit(facts, p_name, c_name, static, _relative(scope, parent, child, poses, bad) if static else None, loc, f"SDF joint '{f.name}'")
        elif f.kind == "frame":
            parent = f.attached_to
            _emit(facts, _tf_name(scope, parent), scope.prefix + f.name, True, _relative(scope, parent, f.name, poses, bad), loc, f"SDF frame '{f.name}'")
    for nested in scope.nested.values():
        _check_and_emit(nested, facts)


def _follow(scope: _Scope, start: str, attr: str) -> list[str] | None:
    """The cycle reached from ``start`` along ``attr`` (within this scope), or None."""
    seen: list[str] = []
    cur = start
    while cur in scope.frames and cur != MODEL:
        if cur in seen:
            return seen[seen.index(cur):]
        seen.append(cur)
        f = scope.frames[cur]
        nxt = getattr(f, attr)
        if f.kind in ("link", "model") and attr == "attached_to":
            return None
        cur = nxt
    return None


def _tf_name(scope: _Scope, name: str) -> str:
    """The TF frame a graph node stands for: __model__ is its canonical link, a joint its child link."""
    if name == MODEL:
        return scope.prefix + scope.canonical if scope.canonical else scope.prefix.rstrip(":")
    f = scope.frames.get(name)
    if f is not None and f.kind == "joint":
        return _tf_name(scope, f.attached_to)
    if f is not None and f.kind == "model":
        nested = scope.nested[name]
        return nested.prefix + nested.canonical
    return scope.prefix + name


def _emit(facts: FileFacts, parent: str, child: str, static: bool, value: Pose | None, loc: Location, what: str) -> None:
    translation = rotation = None
    if static and value is not None:
        translation = value[1]
        rotation = matrix_to_quaternion(value[0])
    findings = transform_findings(parent, child, translation, rotation, loc, what)
    # '::' scopes nested models in SDFormat and in the frame ids simulators publish; tf2 accepts it
    facts.findings.extend(f for f in findings if not (f.code == "INVALID_FRAME_ID" and _scoped_ok(f.frames[0])))
    if parent and child and parent != child:
        facts.edges.append(Edge(parent, child, static, translation, rotation, (loc,)))


def _scoped_ok(frame: str) -> bool:
    return "::" in frame and all(p and frame_id_problem(p) is None for p in frame.split("::"))


def _in_model(scope: _Scope, name: str, poses: dict[str, Pose | None], bad: set[str], depth: int = 0) -> Pose | None:
    """Pose of a frame in the model frame, along relative_to (None when unknown or cyclic)."""
    if name == MODEL:
        return IDENTITY_POSE
    if name in poses:
        return poses[name]
    f = scope.frames.get(name)
    if f is None or name in bad or depth > 64:
        return None
    poses[name] = None  # guards against cycles the checks above did not cut
    base = _in_model(scope, f.relative_to, poses, bad, depth + 1) if f.relative_to != name else None
    poses[name] = None if base is None or f.pose is None else _compose(base, f.pose)
    return poses[name]


def _relative(scope: _Scope, parent: str, child: str, poses: dict[str, Pose | None], bad: set[str]) -> Pose | None:
    if parent == "world":
        return None
    a = _in_model(scope, parent, poses, bad)
    b = _in_model(scope, child, poses, bad)
    if a is None or b is None:
        return None
    ra, ta = a
    inv_r = tuple(tuple(ra[j][i] for j in range(3)) for i in range(3))
    d = tuple(b[1][k] - ta[k] for k in range(3))
    t = tuple(sum(inv_r[i][k] * d[k] for k in range(3)) for i in range(3))
    return (_matmul(inv_r, b[0]), (t[0], t[1], t[2]))


def _compose(a: Pose, b: Pose) -> Pose:
    ra, ta = a
    rb, tb = b
    t = tuple(ta[i] + sum(ra[i][k] * tb[k] for k in range(3)) for i in range(3))
    return (_matmul(ra, rb), (t[0], t[1], t[2]))


def _matmul(a: tuple[tuple[float, ...], ...], b: tuple[tuple[float, ...], ...]) -> tuple[tuple[float, ...], ...]:
    return tuple(tuple(sum(a[i][k] * b[k][j] for k in range(3)) for j in range(3)) for i in range(3))
