"""A rotation that starts as the zero quaternion in the node's own state.

A node that keeps its orientation in members (``orientation_w_``, ``self.quaternion``), fills them from a
callback and copies them into a broadcast or a published pose elsewhere sends (0, 0, 0, 0) until the first message
arrives when every component starts at 0: no rotation at all, which tf2 rejects ("invalid quaternion") and filters
turn into NaN (rbcar_sim's odometry, zeroed in its constructor and filled from the IMU; PalouseRobosub's
``self.quaternion = Quaternion()``, a ROS 1 message whose fields all default to 0). Read from the file's text: the
members a rotation is copied from, and every value they are given.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from ...core.findings import Finding, Location, Severity

_QUATERNION_SLOTS = ("x", "y", "z", "w")
# `odom_trans.transform.rotation.w = orientation_w_;`, `pose->orientation.x = this->qx_;`
_CPP_WRITE = re.compile(
    r"(?P<target>[\w\]\[.>-]+?)\s*(?:\.|->)\s*(?P<kind>rotation|orientation)\s*\.\s*(?P<comp>[xyzw])\s*=\s*"
    r"(?:this->)?(?P<member>[A-Za-z_]\w*)\s*;"
)
# the cheap test before a file is read for it: some quaternion's w copied from a name (`rotation.w = orientation_w_;`)
_CPP_W_FROM_NAME = re.compile(rb"(?:rotation|orientation)\s*\.\s*w\s*=\s*(?:this->)?[A-Za-z_]\w*\s*;")
_CPP_ASSIGN = r"(?<![\w.>])(?:this->)?{name}\s*=(?!=)\s*(?P<value>[^;{{}}]*);"
_CPP_INIT = r"[:,]\s*{name}\s*[({{]\s*(?P<value>[^(){{}};]*)[)}}]"
_ZERO = re.compile(r"[+-]?(?:0+\.?0*|\.0+)(?:[eE][+-]?\d+)?[fFlL]?")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?[fFlL]?")


@dataclass(frozen=True)
class Write:
    """``target.kind.comp = member`` (comp "*" for a whole quaternion copied from one member)."""

    target: str
    kind: str
    comp: str
    member: str
    line: int


@dataclass(frozen=True)
class Given:
    """A value a member is given: ``zero`` (0, or a ROS 1 Quaternion()), ``literal`` (some other constant) or neither."""

    member: str
    text: str
    line: int
    zero: bool
    literal: bool


def _function_of(line: int, spans: Sequence[tuple[int, int]]) -> tuple[int, int] | None:
    """The innermost function span holding ``line``."""
    inside = [s for s in spans if s[0] <= line <= s[1]]
    return min(inside, key=lambda s: s[1] - s[0]) if inside else None


def zero_start_findings(writes: Sequence[Write], given: Sequence[Given], spans: Sequence[tuple[int, int]], path: str) -> Iterator[Finding]:
    """INVALID_TRANSFORM (warning) where the members a rotation is copied from all start at 0, given no other
    constant and not set in the function that copies them: reported at the start value of ``w``."""
    groups: dict[tuple[str, str, tuple[int, int] | None], dict[str, Write]] = {}
    for w in writes:
        groups.setdefault((w.target, w.kind, _function_of(w.line, spans)), {})[w.comp] = w
    by_member: dict[str, list[Given]] = {}
    for g in given:
        by_member.setdefault(g.member, []).append(g)
    for (target, kind, span), comps in groups.items():
        slots = ("*",) if "*" in comps else _QUATERNION_SLOTS
        if not all(s in comps for s in slots) or len({comps[s].member for s in slots}) != len(slots):
            continue
        members = [comps[s].member for s in slots]
        values = [by_member.get(m, []) for m in members]
        if any(not vs or any(v.literal and not v.zero for v in vs) or not any(v.zero for v in vs) for vs in values):
            continue
        if span is not None and any(span[0] <= v.line <= span[1] for vs in values for v in vs):
            continue  # set where it is copied: the start value never reaches the copy
        w_values = values[-1]
        start = min((v for v in w_values if v.zero), key=lambda v: v.line)
        later = [v for v in w_values if not v.zero]
        copy = comps[slots[-1]]
        names = members[0] if len(members) == 1 else ", ".join(members)
        if later:
            until = f"until {members[-1]} is set from {later[0].text} (line {later[0].line})"
        else:
            until = f"and nothing gives {'it' if len(members) == 1 else 'them'} another value"
        yield Finding(
            "INVALID_TRANSFORM",
            f"{names} start{'s' if len(members) == 1 else ''} as the zero quaternion (x, y, z, w) = (0, 0, 0, 0) here, "
            f"{until}; {target}.{kind} copies it at line {copy.line}, so until then it is no rotation at all: tf2 "
            f"rejects such a transform and filters turn it into NaN. Start the orientation at the identity (w = 1)",
            (), Location(path, start.line), severity=Severity.WARNING,
        )


def _line_at(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def _given(member: str, value: str, line: int) -> Given:
    value = value.strip()
    # `a_ = b_ = 0.0;`: the value is the last of the chain
    value = re.split(r"(?<![=!<>])=(?!=)", value)[-1].strip()
    literal = _NUMBER.fullmatch(value) is not None
    return Given(member, value, line, literal and _ZERO.fullmatch(value) is not None, literal)


def cpp_may_start_at_zero(src: bytes) -> bool:
    """Whether a C++ source copies a quaternion's w from a name at all: the only files :func:`cpp_zero_start` reads."""
    return _CPP_W_FROM_NAME.search(src) is not None


def cpp_zero_start(text: str, spans: Sequence[tuple[int, int]], path: str) -> Iterator[Finding]:
    """The C++ form: four scalar members copied into ``rotation``/``orientation`` x, y, z, w. ``text`` has its
    comments and strings blanked with its lines kept; ``spans`` are the functions' first and last lines."""
    writes = [Write(m.group("target"), m.group("kind"), m.group("comp"), m.group("member"), _line_at(text, m.start("comp")))
              for m in _CPP_WRITE.finditer(text)]
    if not writes:
        return
    given: list[Given] = []
    for name in {w.member for w in writes}:
        for form in (_CPP_ASSIGN, _CPP_INIT):
            for m in re.finditer(form.format(name=re.escape(name)), text):
                given.append(_given(name, m.group("value"), _line_at(text, m.start())))
    yield from zero_start_findings(writes, given, spans, path)


def _self_attr(node: ast.AST) -> str | None:
    return node.attr if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self" else None


def _python_given(name: str, value: ast.expr, line: int, ros1: bool) -> Given:
    text = ast.unparse(value)
    if isinstance(value, ast.Call) and (getattr(value.func, "id", None) or getattr(value.func, "attr", None)) == "Quaternion":
        numbers = [a.value for a in [*value.args, *(k.value for k in value.keywords)] if isinstance(a, ast.Constant)]
        if len(numbers) == len(value.args) + len(value.keywords) and all(isinstance(n, (int, float)) for n in numbers):
            # a ROS 1 message's unset fields are 0; a ROS 2 Quaternion() is the identity (w defaults to 1)
            w_given = len(value.args) == 4 or any(k.arg == "w" for k in value.keywords)
            zero = not any(numbers) and (ros1 or w_given)
            return Given(name, text, line, zero, True)
        return Given(name, text, line, False, False)
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        value = value.operand
    if isinstance(value, ast.Constant) and isinstance(value.value, (int, float)) and not isinstance(value.value, bool):
        return Given(name, text, line, value.value == 0, True)
    return Given(name, text, line, False, False)


def python_zero_start(tree: ast.Module, ros1: bool, path: str) -> Iterator[Finding]:
    """The Python form: ``t.transform.rotation = self.q`` or its four components from ``self`` attributes."""
    writes: list[Write] = []
    given: list[Given] = []
    spans = [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))]
    for node in ast.walk(tree):
        if not isinstance(node, ast.Assign):
            continue
        for target in node.targets:
            source = _self_attr(node.value)
            if isinstance(target, ast.Attribute) and source is not None:
                if target.attr in ("rotation", "orientation"):
                    writes.append(Write(ast.unparse(target.value), target.attr, "*", source, node.lineno))
                elif target.attr in _QUATERNION_SLOTS and isinstance(target.value, ast.Attribute) and target.value.attr in ("rotation", "orientation"):
                    writes.append(Write(ast.unparse(target.value.value), target.value.attr, target.attr, source, node.lineno))
            name = _self_attr(target)
            if name is not None:
                given.append(_python_given(name, node.value, node.lineno, ros1))
    if writes:
        wanted = {w.member for w in writes}
        yield from zero_start_findings(writes, [g for g in given if g.member in wanted], spans, path)
