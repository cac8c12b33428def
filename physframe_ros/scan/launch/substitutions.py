"""``$(...)`` substitutions of XML and YAML launch files (ROS 1 roslaunch and ROS 2 launch), resolved
statically: arguments from their defaults, packages inside the scanned tree, and ``$(eval ...)`` through the
scan's own expression interpreter (safe_eval: never Python's ``eval``)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Iterator, Mapping

from ..context import ScanContext
from ..safe_eval import BUILTINS, MATH, ExpressionLimit, UnsafeExpression, evaluate, safe_functions
from .common import names_a_prefix, shell_split

_INNER = re.compile(r"\$\(([^()]*)\)")
# roslaunch's `$(eval ...)` is the whole attribute; its expression may hold parentheses (`arg('x')`)
_WHOLE_EVAL = re.compile(r"^\s*\$\(eval\s+(.*)\)\s*$", re.DOTALL)
# a value the robot chooses (an environment variable's choice marker, a required name's `{name}`): no value yet
_PLACEHOLDER = re.compile(r"\x02|\{\w+\}")
#: ``$(command ...)`` keeps its text for the caller (robot_description from xacro) behind this mark.
COMMAND_MARK = "\x00command:"
_UNKNOWN = "\x01"
_ARG_CONDITION = re.compile(r"^\s*\$\((?:arg|var)\s+([\w-]+)\)\s*$")


@dataclass
class Substituter:
    ctx: ScanContext
    file_dir: str  # absolute directory of the launch file, for $(dirname)
    args: dict[str, str | None] = field(default_factory=dict)  # None: declared without a default
    given: dict[str, str] = field(default_factory=dict)  # passed by an including launch file
    lines: dict[str, int] = field(default_factory=dict)  # where the value an argument has is written (its <arg>)
    # boolean arguments declared here with a default -> their line and the other value: choices the file offers
    flags: dict[str, tuple[int, str]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self.args.update(self.given)  # ROS 2: passed arguments are launch configurations, declared or not

    def declare(self, name: str, default: str | None, fixed: bool = False) -> None:
        """An ``<arg>``: a value passed by the includer wins over the default, never over a fixed value."""
        if name in self.given and not fixed:
            self.args[name] = self.given[name]
        elif default is None and names_a_prefix(name):
            # a required argument naming a robot or prefix (uuv_simulator's `<arg name="uuv_name"/>`), read on its
            # own: the names built from it are patterns, `/{uuv_name}/base_link`, as the includer's value will fill
            self.args[name] = "{" + name + "}"
        else:
            self.args[name] = self(default) if default is not None else None

    def offer(self, name: str, line: int) -> None:
        """An argument declared at ``line`` with a default: a switch of the file when that default is a boolean."""
        default = truth(self.args.get(name))
        if default is not None:
            self.flags[name] = (line, "false" if default else "true")

    def boolean_defaults(self) -> dict[str, str]:
        """The offered boolean arguments with their defaults ("true" or "false")."""
        return {name: "false" if flipped == "true" else "true" for name, (_, flipped) in self.flags.items()}

    def switches(self, if_text: str | None, unless_text: str | None) -> dict[str, tuple[int, str]]:
        """The offered boolean arguments an ``if``/``unless`` is, whole (``if="$(arg gmapping)"``, ``$(var slam)``)."""
        names = (m.group(1) for text in (if_text, unless_text) if (m := _ARG_CONDITION.match(text or "")))
        return {n: self.flags[n] for n in names if n in self.flags}

    def passed(self, arg_elements: list[tuple[str | None, str | None]]) -> dict[str, str]:
        """``<arg name value>`` children of an include, resolved (unknown values are left out)."""
        out = {}
        for name, value in arg_elements:
            resolved = self(value)
            if name and resolved is not None:
                out[name] = resolved
        return out

    def skips(self, if_text: str | None, unless_text: str | None) -> bool:
        """True when an ``if``/``unless`` attribute is known to turn the element off with the arguments'
        values (defaults, or what an includer passes); a condition the scan cannot resolve keeps it."""
        for text, wanted in ((if_text, True), (unless_text, False)):
            value = truth(self(text)) if text is not None else None
            if value is not None and value != wanted:
                return True
        return False

    def all_args(self) -> dict[str, str]:
        """Every argument known here, for ``<include pass_all_args="true">``."""
        return {k: v for k, v in self.args.items() if v is not None}

    def __call__(self, text: str | None) -> str | None:
        """The resolved text, or None when some part cannot be known before the launch runs."""
        if text is None:
            return None
        out = self._resolve(text)
        return None if _UNKNOWN in out else out

    def tokens(self, text: str | None) -> list[str | None]:
        """Whitespace-separated words after substitution; None for a word the scan cannot know."""
        if text is None:
            return []
        resolved = self._resolve(text)
        try:
            words = shell_split(resolved)  # roslaunch splits args and commands like a shell: quotes group words
        except ValueError:
            words = resolved.split()
        # ``name:=<unknown>`` keeps its name: a xacro argument the launch fills in becomes a placeholder
        return [w if _UNKNOWN not in w or (":=" in w and _UNKNOWN not in w.partition(":=")[0]) else None for w in words]

    def _resolve(self, text: str) -> str:
        whole = _WHOLE_EVAL.match(text)
        if whole:  # ROS 2 substitutes inside it first (`$(eval '$(var ns)' == '/')`)
            body = self._resolve(whole.group(1))
            return _UNKNOWN if _UNKNOWN in body else self._eval(body)
        for _ in range(50):  # innermost first, so $(find $(arg pkg)) works; bounded against odd input
            m = _INNER.search(text)
            if m is None:
                return text
            value = self._one(m.group(1).strip())
            text = text[: m.start()] + (_UNKNOWN if value is None else value) + text[m.end():]
        return _UNKNOWN

    def _one(self, expr: str) -> str | None:
        parts = expr.split(None, 1)
        if not parts:
            return None
        cmd, rest = parts[0], (parts[1].strip() if len(parts) > 1 else "")
        if cmd in ("arg", "var"):
            return self.args.get(rest)
        if cmd in ("find", "find-pkg-share", "find-pkg-prefix"):
            return self.ctx.package_dir(rest)
        if cmd == "dirname":
            return self.file_dir
        if cmd in ("env", "optenv"):
            # the robot's environment is not the scanning machine's: a value given with --env, a written
            # default, or a choice the descriptions it names are expanded over
            name, _, default = rest.partition(" ")
            if name in self.ctx.env or not (default or cmd == "optenv"):
                return self.ctx.env_value(name)
            return default.strip()
        if cmd == "command":
            return COMMAND_MARK + rest.strip().strip("'\"")
        if cmd == "anon":
            return f"{rest}_anon"
        if cmd == "eval":
            value = self._eval(rest)
            return None if value == _UNKNOWN else value
        return None  # anything newer: not evaluated

    def _eval(self, expr: str) -> str:
        """roslaunch's ``$(eval expr)``: the arguments by bare name or ``arg('name')``, typed as roslaunch types them
        ('true' a bool, '2' an int), ``optenv`` its default; the value as text, or _UNKNOWN when some argument
        or the environment is not known (or the expression is not one the interpreter evaluates)."""
        if "__" in expr:
            return _UNKNOWN  # roslaunch refuses these too

        def arg(name: str) -> object:
            value = self.args.get(name)
            if value is None or _UNKNOWN in value or _PLACEHOLDER.search(value):
                raise _Unknown(name)
            return _typed(value)

        def optenv(name: str, default: str = "") -> str:
            return self.ctx.env[name] if name in self.ctx.env else default

        def unknown(*_: object) -> str:
            raise _Unknown()

        names = {**BUILTINS, **MATH, "true": True, "false": False,
                 **safe_functions(arg=arg, optenv=optenv, env=unknown, find=lambda pkg: self.ctx.package_dir(pkg) or unknown(),
                                  anon=lambda name: f"{name}_anon", dirname=lambda: self.file_dir)}
        known = {k: v for k, v in self.args.items() if k not in names}
        try:
            return str(evaluate(expr, _Names(names, known, arg)))
        except (_Unknown, UnsafeExpression, ExpressionLimit, SyntaxError, ArithmeticError, LookupError, TypeError, ValueError, NameError,
                RecursionError):
            return _UNKNOWN


class _Unknown(Exception):
    """An ``$(eval)`` needs a value the scan does not know."""


def _typed(value: str) -> object:
    """An argument's value as roslaunch's ``$(eval)`` sees it (its ``convert_value(v, 'auto')``)."""
    low = value.strip().lower()
    if low in ("true", "false"):
        return low == "true"
    for kind in (int, float):
        try:
            return kind(value)
        except ValueError:
            pass
    return value


class _Names(Mapping[str, object]):
    """The names of an ``$(eval)``: its functions, then the launch file's arguments (typed on use)."""

    def __init__(self, functions: Mapping[str, object], args: Mapping[str, str | None], arg: Callable[[str], object]) -> None:
        self.functions, self.args, self.arg = functions, args, arg

    def __getitem__(self, key: str) -> object:
        if key in self.functions:
            return self.functions[key]
        if key in self.args:
            return self.arg(key)
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter({**self.functions, **self.args})

    def __len__(self) -> int:
        return len(self.functions) + len(self.args)


def truth(value: str | None) -> bool | None:
    """A launch condition's value as roslaunch and ros2 launch read it (true/false, 1/0), else None."""
    if value is None:
        return None
    low = value.strip().lower()
    return True if low in ("true", "1") else False if low in ("false", "0") else None
