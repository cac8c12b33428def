"""What the other C++ files of a package tell one file's analysis: message helpers and parameter defaults.

``transform_to_tf_msg(mat, frame, child, stamp)`` in ouster-ros' ``os_ros.cpp`` returns the
TransformStamped that ``os_transforms_broadcaster.h`` broadcasts with its own frame names. A file's
analysis follows such a call into the helper's text when the package defines the function once and its
return type is a message the analysis tracks; anything else stays a call it does not follow (unknown).

``declare_parameter("global_frame_id", rclcpp::ParameterValue("map"), descriptor)`` in beluga's
``ros2_common.cpp`` (the node's base class) gives ``get_parameter("global_frame_id")`` in
``amcl_node.cpp`` its default, when the package declares that parameter with one default only.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

from ..frame_ids import names_frame, snake_case
from .facts import TreeMessages, message_kind
from .headers import blank_keeping_lines
from .param_schemas import parse_schemas
from .values import Value

HELPER_SUFFIXES = (".cpp", ".cc", ".cxx", ".c++")
MAX_HELPER_CHARS = 20_000  # a helper longer than this is not a message builder worth following
# `geometry_msgs::TransformStamped transform_to_tf_msg(` / `static nav_msgs::msg::Odometry ns::make_odom(`
# at the start of a line: a definition (or declaration) of a free function or method returning a message type.
# `declare_parameter("name", "map")`, `declare_parameter<std::string>("name", std::string("map"))`,
# `declare_parameter("name", rclcpp::ParameterValue("map"), descriptor)`
_DECLARED = re.compile(
    r'declare_parameter\s*(?:<[^<>()]*>)?\s*\(\s*"([^"\\\n]+)"\s*,\s*(?:(?:rclcpp::)?ParameterValue\s*\(\s*)?'
    r'(?:(?:std::)?string\s*[({]\s*)?"([^"\\\n]*)"'
)
_DEFINITION = re.compile(r"^[ \t]*(?:(?:inline|static)[ \t]+)*((?:\w+::)+\w+)[ \t]+(?:\w+::)*(\w+)[ \t]*\(", re.MULTILINE)


def message_helpers(texts: Iterable[str]) -> dict[str, str]:
    """Function name -> the text of its one definition, for functions returning a tracked message type.
    A name defined more than once (overloads, one per class) is left out: which one runs is not known."""
    found: dict[str, str | None] = {}
    for text in texts:
        for m in _DEFINITION.finditer(text):
            if message_kind(m.group(1)) is None:
                continue
            body = _definition(text, m.start(), m.end())
            if body is None:
                continue  # a declaration, or a body that does not close
            name = m.group(2)
            found[name] = None if name in found else body
    return {name: body for name, body in found.items() if body is not None}


def declared_parameters(texts: Iterable[str]) -> dict[str, str]:
    """Parameter name -> its string default, for parameters declared with one non-empty default in ``texts``."""
    found: dict[str, set[str]] = {}
    for text in texts:
        for name, default in _DECLARED.findall(text):
            found.setdefault(name, set()).add(default)
    return {name: next(iter(defaults)) for name, defaults in found.items() if len(defaults) == 1 and "" not in defaults}


# a definition whose parameter list names a frame: `CloudPublisher::CloudPublisher(ros::NodeHandle& nh, std::string
# frame_id, size_t buff)` (an initializer list may follow before the body)
_FRAME_DEFINITION = re.compile(r"\b(\w+)[ \t]*\(([^(){};]*[fF]rame[^(){};]*)\)\s*(?:const\s*)?(?:override\s*)?(?::[^{;]*)?\{")
_PARAMETER = re.compile(r"\s*(?:const\s+)?[\w:]+(?:\s*<[\w:<>, ]*>)?(?:\s*const)?[\s*&]+(\w+)\s*(=[^,]*)?\s*")
_KEYWORDS = frozenset({"if", "while", "for", "switch", "catch", "return", "sizeof"})


@dataclass(frozen=True)
class FrameParameters:
    """One definition's parameters, by position, and which of them name a frame (``frame_id``, ``parentFrame``)."""

    names: tuple[str, ...]
    required: int  # the parameters before the first with a default
    frames: tuple[int, ...]

    def takes(self, n_args: int) -> bool:
        return self.required <= n_args <= len(self.names)


def frame_parameter_index(texts: Iterable[str]) -> dict[str, list[FrameParameters]]:
    """Function or constructor name -> its definitions in ``texts`` (comments and literals blanked) whose parameters
    name a frame: what a call site passes there is a frame id, however the function uses it."""
    out: dict[str, list[FrameParameters]] = {}
    for text in texts:
        for m in _FRAME_DEFINITION.finditer(text):
            if m.group(1) in _KEYWORDS:
                continue
            parts = _split_top_level(m.group(2))
            params = [_PARAMETER.fullmatch(p) for p in parts]
            if not parts or any(p is None for p in params):
                continue  # not a parameter list: a call, a condition
            names = tuple(p.group(1) for p in params if p is not None)
            defaults = [p.group(2) is not None for p in params if p is not None]
            required = defaults.index(True) if True in defaults else len(names)
            frames = tuple(i for i, n in enumerate(names) if names_frame(snake_case(n)))
            if frames:
                out.setdefault(m.group(1), []).append(FrameParameters(names, required, frames))
    return out


def _split_top_level(params: str) -> list[str]:
    """A parameter list split at its commas, not at those inside template arguments (``std::map<a, b> m``)."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(params):
        depth += {"<": 1, ">": -1}.get(c, 0)
        if c == "," and depth == 0:
            parts.append(params[start:i])
            start = i + 1
    parts.append(params[start:])
    return [p for p in parts if p.strip()] if params.strip() else []


@dataclass
class PackageSources:
    """The package's other C++ sources, read on first use (``read`` gives their texts)."""

    read: Callable[[], list[str]]
    read_yaml: Callable[[], list[str]] = list  # the package's YAML files, for generate_parameter_library schemas
    messages: TreeMessages = field(default_factory=TreeMessages)  # the stamped message types the scanned tree defines
    _helpers: dict[str, str] | None = field(default=None, repr=False)
    _parameters: dict[str, str] | None = field(default=None, repr=False)
    _schemas: dict[str, dict[str, Value]] | None = field(default=None, repr=False)
    _mentions: dict[str, bool] = field(default_factory=dict, repr=False)
    _leaves: dict[str, bool] = field(default_factory=dict, repr=False)
    _code: str | None = field(default=None, repr=False)
    _frame_parameters: dict[str, list[FrameParameters]] | None = field(default=None, repr=False)

    def helper(self, name: str) -> str | None:
        if self._helpers is None:
            self._helpers = message_helpers(self.read())
        return self._helpers.get(name)

    def parameters(self) -> dict[str, str]:
        if self._parameters is None:
            self._parameters = declared_parameters(self.read())
        return self._parameters

    def leaves_frames(self, name: str, n_args: int | None = None) -> bool:
        """Every definition of function ``name`` in the package's sources (one per class: petra's two
        ``correlatePeople``; with ``n_args``, the overloads taking that many arguments) is found and none writes a
        header or a frame field: a message handed to it keeps its frames. False when no definition is found, or
        one may write them."""
        key = f"{name}/{n_args}"
        if key not in self._leaves:
            bodies = [b for b in function_bodies(self.read(), name) if n_args is None or _arity(b) == n_args]
            self._leaves[key] = bool(bodies) and not any(_may_frame_parameters(b) for b in bodies)
        return self._leaves[key]

    def mentions(self, word: str) -> bool:
        """Some C++ source of the package holds ``word`` (``setCameraInfo``)."""
        if word not in self._mentions:
            self._mentions[word] = any(word in text for text in self.read())
        return self._mentions[word]

    def frame_parameters(self, name: str, n_args: int) -> tuple[tuple[int, str], ...]:
        """The positions (and names) of the parameters naming a frame that every definition of ``name`` taking
        ``n_args`` arguments agrees on; none when no such definition is found or they disagree (overloads)."""
        if self._frame_parameters is None:
            self._frame_parameters = frame_parameter_index([self.code()])
        found = {tuple((i, d.names[i]) for i in d.frames if i < n_args) for d in self._frame_parameters.get(name, ()) if d.takes(n_args)}
        return found.pop() if len(found) == 1 else ()

    def code(self) -> str:
        """All the C++ sources of the package in one text, comments and string literals blanked (read once)."""
        if self._code is None:
            self._code = "\n".join(blank_keeping_lines(t) for t in self.read())
        return self._code

    def schemas(self) -> dict[str, dict[str, Value]]:
        """generate_parameter_library schemas of the package: namespace -> parameter defaults."""
        if self._schemas is None:
            self._schemas = parse_schemas(self.read_yaml())
        return self._schemas


def _arity(definition: str) -> int:
    """How many parameters a function definition's text declares."""
    return len(_split_top_level(definition[definition.find("(") + 1 : definition.find(")")]))


# a parameter of a type that holds no message (`int32_t steer_position`, `const double dt`): handing it on frames nothing
_SCALAR_PARAMETER = re.compile(r"(?:const\s+)?(?:unsigned\s+)?(?:u?int\w*|float|double|bool|size_t|char|long|short)\s*[&*]?\s*\w+\s*(?:=[^,]*)?\)?$")


def _may_frame_parameters(definition: str) -> bool:
    """A function definition that may write the frames of a message it is given: a parameter's ``header`` or
    ``child_frame_id`` touched, the parameter assigned whole, or handed on to another call."""
    definition = blank_keeping_lines(definition)  # `// Change euler (prev_odom)` hands nothing on
    params = definition[definition.find("(") + 1 : definition.find("{")]
    names = [m.group(1) for part in params.split(",")
             if not _SCALAR_PARAMETER.match(part.strip()) and (m := re.search(r"(\w+)\s*(?:\[\s*\])?\s*(?:=[^,]*)?\)?\s*(?:const\s*)?$", part.strip()))]
    body = definition[definition.find("{"):]
    for n in names:
        p = re.escape(n)
        if _touches_frames(body, p):
            return True
        for m in re.finditer(rf"(?:\*\s*|(?<![\w.>])){p}\s*=(?!=)\s*(\w+)?\s*(;)?", body):
            if not (m.group(1) and m.group(2) and _round_trip(body, m.group(1), p)):
                return True
    return False


def _round_trip(body: str, local: str, param: str) -> bool:
    """``T copy = *result; ... *result = copy;`` (sobit_pro's odometry): a local copied out of the parameter and
    written back whole, whose header and child frame nothing touches in between: the frames go back as they came."""
    v = re.escape(local)
    return (len(re.findall(rf"(?<![\w.>]){v}\s*=(?!=)", body)) == 1
            and re.search(rf"\b{v}\s*=\s*\*?\s*{param}\s*;", body) is not None
            and not _touches_frames(body, v))


def _touches_frames(body: str, name: str) -> bool:
    """``name`` (escaped for a pattern) has its ``header`` or ``child_frame_id`` touched, or is handed on to a call."""
    return re.search(rf"\b{name}\s*(?:->|\.)\s*(?:header|child_frame_id)\b|[(,]\s*[*&]?\s*{name}\s*[,)]", body) is not None


_RECEIVER = r"(?:[\w\]\[]+\s*(?:\.|->|::)\s*)*"  # `sensor->`, `this->sensors_[i].`, `conversion::`
# `auto v = obj.f(`, `v = *f(`, `T v(f(`
_ASSIGNED = re.compile(rf"(?:(\w+)\s*=|[\w:>]\s+(\w+)\s*[({{])\s*(?:\*\s*)?{_RECEIVER}$")
_PREPROCESSOR = re.compile(r"^[ \t]*#.*$", re.MULTILINE)
_SENT = re.compile(rf"\b(?:publish|sendTransform|push_back|emplace_back)\s*\(\s*{_RECEIVER}$")
# `nav_msgs::Odometry A::f(`, `public: static Odometry f(`, `template<typename T> Odometry A::f(`
_DECLARED_HEAD = re.compile(r"(?:\w+\s*:(?!:)\s*)?(?:template\s*<[^;{}]*?>\s*)?(?:(?:inline|static|virtual|const)\s+)*[\w:<>,]+\s*[&*]?\s*(?:\w+::)*")


def callers_leave_child_unset(texts: Iterable[str], name: str) -> bool:
    """Every call of function ``name`` in ``texts`` (a package's C++ code, comments and literals blanked)
    publishes its result as it is or keeps it in a variable no code gives a ``child_frame_id``; or nothing
    calls it (a library's function, for other packages to publish). A call whose result goes elsewhere
    (returned, handed to another function) is not followed: False."""
    texts = list(texts)
    kept: set[str] = set()
    for text in texts:
        for m in re.finditer(rf"(?<![\w~])({re.escape(name)})\s*\(", text):
            start = max(text.rfind(c, 0, m.start()) for c in ";{}") + 1
            head = _PREPROCESSOR.sub("", text[max(start, m.start() - 400) : m.start()]).strip()  # a statement's head, bounded
            if _DECLARED_HEAD.fullmatch(head) and head.split()[0] not in ("return", "else", "case"):
                continue  # its definition or a declaration
            if re.match(r"\s*(?:\.|->)", text[closing(text, m.end()) :]):
                continue  # `f(p).pose.pose.position`: a part of the message is used, none is sent
            assigned = _ASSIGNED.search(head)
            if assigned is not None and not head.startswith("*"):
                kept.add(assigned.group(1) or assigned.group(2))
            elif _SENT.search(head) is None:
                return False  # returned, handed to a call, or written through a pointer (`*out = f(p)`): not followed
    for v in kept:
        child = re.compile(rf"\b{re.escape(v)}\s*(?:\.|->)\s*(?:child_frame_id\s*=(?!=)|set__child_frame_id\b)")
        if any(child.search(t) for t in texts):
            return False
    return True


def closing(text: str, after_open: int, pair: str = "()", limit: int | None = MAX_HELPER_CHARS) -> int:
    """The index just past the bracket of ``pair`` closing the one opened before ``after_open`` (the text's end if it
    does not close within ``limit`` characters, or at all)."""
    depth, steps = 1, {pair[0]: 1, pair[1]: -1}
    for i in range(after_open, len(text) if limit is None else min(len(text), after_open + limit)):
        depth += steps.get(text[i], 0)
        if depth == 0:
            return i + 1
    return len(text)


def function_bodies(texts: Iterable[str], name: str) -> list[str]:
    """The text of every definition of function ``name`` (any class) in ``texts`` (a body too long to read is
    left out, as a declaration is)."""
    call = re.compile(rf"\b{re.escape(name)}[ \t]*\(")
    out = []
    for text in texts:
        for m in call.finditer(text):
            line_start = text.rfind("\n", 0, m.start()) + 1
            if not re.match(r"[ \t]*(?:[\w:<>,*& \t]+[ \t*&])?(?:\w+::)*$", text[line_start:m.start()]):
                continue  # a call inside an expression, not a definition's head
            body = _definition(text, m.start(), m.end())
            if body is not None:
                out.append(body)
    return out


def _definition(text: str, start: int, params_open: int) -> str | None:
    """The text from ``start`` to the brace closing the function body; None for a declaration (``;``
    before the body) or a body longer than MAX_HELPER_CHARS."""
    depth, i, end = 1, params_open, min(len(text), start + MAX_HELPER_CHARS)
    while i < end and depth:  # the parameter list
        depth += {"(": 1, ")": -1}.get(text[i], 0)
        i += 1
    brace = text.find("{", i, end)
    if brace < 0 or ";" in text[i:brace]:
        return None
    depth, i = 0, brace
    while i < end:
        c = text[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return text[start : i + 1]
        elif text.startswith("//", i):  # nor one inside a comment
            i = text.find("\n", i)
            if i < 0:
                return None
        elif text.startswith("/*", i):
            i = text.find("*/", i)
            if i < 0:
                return None
        elif c in "\"'":  # a brace inside a literal does not count
            close = text.find(c, i + 1, end)
            while close > 0 and text[close - 1] == "\\":
                close = text.find(c, close + 1, end)
            if close < 0:
                return None
            i = close
        i += 1
    return None


def package_of(rel: str, package_dirs: Iterable[str]) -> str | None:
    """The directory of the package holding ``rel`` (the deepest one), or None outside every package."""
    best = None
    for d in package_dirs:
        if (d == "" or rel.startswith(d + "/")) and (best is None or len(d) > len(best)):
            best = d
    return best


def helper_sources(root: str, package_dir: str, read: Callable[[str], str], suffixes: tuple[str, ...] = HELPER_SUFFIXES) -> list[str]:
    """The text of the package's files ending in ``suffixes`` (C++ sources by default; ``read`` takes a
    root-relative path; unreadable ones are skipped by it returning "")."""
    out = []
    top = os.path.join(root, package_dir)
    for d, dirs, files in os.walk(top):  # os.walk does not follow symlinked directories
        dirs[:] = sorted(x for x in dirs if x not in ("build", "install", "log", ".git", "test", "tests"))
        for name in sorted(files):
            if name.endswith(suffixes):
                text = read(os.path.relpath(os.path.join(d, name), root))
                if text:
                    out.append(text)
    return out
