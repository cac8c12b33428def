"""Frame names as they will be at run time: ``{prefix}base_link`` stands for ``base_link``, ``robot1/base_link``...

The scan writes a placeholder where a name depends on something only the launch knows (a
``frame_prefix`` or a xacro argument such as ``namespace`` that a launch argument fills in). Matching
binds each placeholder to the values the live tree shows: the values that explain the most frames.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass
from typing import Iterable, Mapping

_VAR = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")
MAX_INSTANCES = 16  # bindings tried per variant: a tree with many robots still checks in bounded time

Binding = Mapping[str, str]


def variables(name: str) -> list[str]:
    return list(dict.fromkeys(_VAR.findall(name)))


def is_pattern(name: str) -> bool:
    return _VAR.search(name) is not None


def placeholder(var: str) -> str:
    return "{" + var + "}"


_VAR_SEP = re.compile(r"\{[A-Za-z_][A-Za-z0-9_]*\}/?")


def without_placeholders(name: str) -> str:
    """The name as it runs with every placeholder empty (no namespace): ``{frame_prefix}/base_link`` is ``base_link``."""
    return _VAR_SEP.sub("", name)


def bind(name: str, binding: Binding) -> str:
    """The name with every placeholder the binding knows replaced (the others stay as written)."""
    return _VAR.sub(lambda m: binding.get(m.group(1), m.group(0)), name)


@dataclass(frozen=True)
class _OneVar:
    """A name with a single placeholder, split around it: ``head{var}tail``."""

    var: str
    head: str
    tail: str

    def value_in(self, frame: str) -> str | None:
        """The placeholder's value when ``frame`` is this name, if it is a plausible prefix: empty, or
        a word without spaces that a '/' or '_' separates from the rest (``robot1/``, ``TB3_1``, ``left_``),
        not an arbitrary piece of another frame's name."""
        if len(frame) < len(self.head) + len(self.tail) or not (frame.startswith(self.head) and frame.endswith(self.tail)):
            return None
        value = frame[len(self.head):len(frame) - len(self.tail)]
        if value == "":
            return value
        if any(c.isspace() for c in value):
            return None
        separated = value[-1] in "/_" or (self.tail[:1] in ("/", "_", "") and (value[0] in "/_" or self.head[-1:] in ("/", "_", "")))
        return value if separated else None


def _split(name: str) -> _OneVar | None:
    found = list(_VAR.finditer(name))
    if len(found) != 1:
        return None
    m = found[0]
    return _OneVar(m.group(1), name[:m.start()], name[m.end():])


def bindings(names: Iterable[str], live_frames: set[str]) -> list[dict[str, str]]:
    """The bindings of the placeholders in ``names`` that the live frames support: for each
    placeholder, every value explaining at least half as many names as the best value does (two
    robots under ``robot1/`` and ``robot2/`` are two bindings). A placeholder nothing supports is
    bound to the empty string, the name as written without a prefix."""
    names = list(dict.fromkeys(names))
    support: dict[str, dict[str, set[str]]] = {}
    all_vars: list[str] = []
    for n in names:
        all_vars.extend(v for v in variables(n) if v not in all_vars)
        one = _split(n)
        if one is None:
            continue  # two placeholders in one name: bound through the other names
        per_var = support.setdefault(one.var, {})
        for f in live_frames:
            value = one.value_in(f)
            if value is not None:
                per_var.setdefault(value, set()).add(n)
    choices: list[list[str]] = []
    for v in all_vars:
        counts = {value: len(ns) for value, ns in support.get(v, {}).items()}
        best = max(counts.values(), default=0)
        keep = sorted(value for value, c in counts.items() if best and c * 2 >= best and (c >= 2 or best == 1))
        choices.append(keep or [""])
    return [dict(zip(all_vars, combo)) for combo in itertools.islice(itertools.product(*choices), MAX_INSTANCES)]


class NameSet:
    """Frame names, some of them patterns, asked whether a live name is one of them (with any binding)."""

    def __init__(self, names: Iterable[str]) -> None:
        self.plain: set[str] = set()
        self.patterns: list[_OneVar | re.Pattern[str]] = []
        for n in dict.fromkeys(names):  # variants repeat each other's names
            if not is_pattern(n):
                self.plain.add(n)
                continue
            one = _split(n)
            if one is not None:
                if one not in self.patterns:
                    self.patterns.append(one)
            else:
                parts = _VAR.split(n)  # literal, var, literal, var, ...
                self.patterns.append(re.compile("".join(re.escape(p) if i % 2 == 0 else ".*" for i, p in enumerate(parts))))

    def __contains__(self, frame: object) -> bool:
        if not isinstance(frame, str):
            return False
        if frame in self.plain:
            return True
        for p in self.patterns:
            if isinstance(p, _OneVar):
                if p.value_in(frame) is not None:
                    return True
            elif p.fullmatch(frame):
                return True
        return False
