"""ROS 2 Python launch files, read with ``ast`` and never executed.

Every ``Node(...)``, ``IncludeLaunchDescription(...)`` and ``DeclareLaunchArgument(...)`` call in the
file is read, wherever it sits (a list, a variable, a helper function). Their arguments are evaluated
by a small interpreter that knows the launch substitutions (``LaunchConfiguration`` -> the declared
default, ``PathJoinSubstitution``, ``FindPackageShare``, ``Command``, ``ParameterValue``,
``os.path.join``, ``get_package_share_directory``, ``ThisLaunchFileDir``...) and treats everything else
as unknown. An action under ``condition=IfCondition(x)`` / ``UnlessCondition(x)`` that the arguments'
values switch off is skipped; a condition the scan cannot resolve keeps it.
"""

from __future__ import annotations

import ast
import itertools
import os
from dataclasses import dataclass, field
from typing import Any

from ...core.findings import Finding, Location
from ..context import ScanContext
from ..model import FileFacts, LaunchedNode
from .common import (
    DescriptionRef,
    NodeSpec,
    add_include,
    add_node,
    description_from_command,
    is_number_text,
    names_a_prefix,
    split_command,
    turning_argument_line,
)
from .params_yaml import node_parameters
from .substitutions import truth


class _Unknown:
    """A value only the running launch system knows."""

    def __repr__(self) -> str:
        return "UNKNOWN"


UNKNOWN: Any = _Unknown()
_SOURCES = frozenset({"PythonLaunchDescriptionSource", "XMLLaunchDescriptionSource", "YAMLLaunchDescriptionSource",
                      "AnyLaunchDescriptionSource", "FrontendLaunchDescriptionSource"})
_SHARE = frozenset({"FindPackageShare", "get_package_share_directory", "FindPackage", "FindPackagePrefix", "get_package_prefix"})


def _name(func: ast.expr) -> str:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return ""


def _dotted(func: ast.expr) -> str:
    if isinstance(func, ast.Attribute):
        return _dotted(func.value) + "." + func.attr
    return func.id if isinstance(func, ast.Name) else ""


@dataclass
class _Interp:
    ctx: ScanContext
    abs_file: str
    assigns: dict[str, list[tuple[int, ast.expr]]] = field(default_factory=dict)
    args: dict[str, Any] = field(default_factory=dict)
    given: dict[str, str] = field(default_factory=dict)  # passed by an including launch file
    choices: dict[str, list[str]] = field(default_factory=dict)  # DeclareLaunchArgument(choices=[...])
    arg_lines: dict[str, int] = field(default_factory=dict)  # where an argument's default (the value used) is written
    depth: int = 0

    def eval(self, node: ast.expr | None, line: int = 1 << 30) -> Any:
        if node is None or self.depth > 40:
            return UNKNOWN
        self.depth += 1
        try:
            return self._eval(node, line)
        finally:
            self.depth -= 1

    def _eval(self, node: ast.expr, line: int) -> Any:
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.List, ast.Tuple)):
            return [self.eval(e, line) for e in node.elts]
        if isinstance(node, ast.Dict):
            out = {}
            for k, v in zip(node.keys, node.values):
                key = self.eval(k, line) if k is not None else UNKNOWN
                if isinstance(key, str):
                    out[key] = self.eval(v, line)
            return out
        if isinstance(node, ast.JoinedStr):
            return _concat([self.eval(v.value if isinstance(v, ast.FormattedValue) else v, line) for v in node.values])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            a, b = self.eval(node.left, line), self.eval(node.right, line)
            if isinstance(a, list) and isinstance(b, list):
                return a + b
            return _concat([a, b])
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Div):  # Path(share) / "urdf" / "robot.urdf"
            return _join([self.eval(node.left, line), self.eval(node.right, line)])
        if isinstance(node, ast.Name):
            if node.id == "__file__":
                return self.abs_file
            return self._name_value(node.id, line)
        if isinstance(node, ast.Call):
            return self._call(node, line)
        if isinstance(node, ast.Subscript) and _dotted(node.value) in ("os.environ", "environ"):  # os.environ['TURTLEBOT3_MODEL']
            return self._env(node.slice, None, line)
        return UNKNOWN

    def _env(self, name_node: ast.expr | None, default: ast.expr | None, line: int) -> Any:
        """The robot's environment: a value given with --env, else a written default, else a choice
        the descriptions it names are expanded over."""
        name = self.eval(name_node, line)
        if not isinstance(name, str):
            return UNKNOWN
        if name in self.ctx.env or default is None:
            return self.ctx.env_value(name)
        return self.eval(default, line)

    def _name_value(self, name: str, line: int) -> Any:
        cands = self.assigns.get(name)
        if not cands:
            return UNKNOWN
        before = [c for c in cands if c[0] < line]
        lineno, expr = (before or cands)[-1]
        return self.eval(expr, lineno)

    def _call(self, node: ast.Call, line: int) -> Any:
        name = _name(node.func)
        kw = {k.arg: k.value for k in node.keywords if k.arg}
        first = node.args[0] if node.args else None
        if name == "LaunchConfiguration":
            key = self.eval(first or kw.get("variable_name"), line)
            if isinstance(key, str) and key in self.args:
                return self.args[key]
            return self.eval(kw["default"], line) if "default" in kw else UNKNOWN
        if name == "ThisLaunchFileDir":
            return os.path.dirname(self.abs_file)
        if name == "ThisLaunchFile":
            return self.abs_file
        if name == "EnvironmentVariable":
            return self._env(first or kw.get("name"), kw.get("default_value"), line)
        if _dotted(node.func) in ("os.environ.get", "environ.get", "os.getenv", "getenv"):
            return self._env(first or kw.get("key"), node.args[1] if len(node.args) > 1 else kw.get("default"), line)
        if name == "PathJoinSubstitution":
            parts = self.eval(first, line)
            return _join(parts if isinstance(parts, list) else [parts])
        if _dotted(node.func).endswith("path.join"):
            return _join([self.eval(a, line) for a in node.args])
        if _dotted(node.func) in ("os.path.dirname", "path.dirname"):
            v = self.eval(first, line)
            return os.path.dirname(v) if isinstance(v, str) else UNKNOWN
        if name in _SHARE:
            pkg = self.eval(first or kw.get("package"), line)
            d = self.ctx.package_dir(pkg) if isinstance(pkg, str) else None
            return d if d is not None else UNKNOWN
        if name == "Command":
            parts = self.eval(first or kw.get("command"), line)
            text = _concat(parts if isinstance(parts, list) else [parts], unknown_ok=True)
            return description_from_command(split_command(text)) or UNKNOWN
        if name == "PythonExpression":  # only a Python string literal once substituted: '"' + ns + '/odom"'
            parts = self.eval(first or kw.get("expression"), line)
            expr = _concat(parts if isinstance(parts, list) else [parts])
            value = _string_literal(expr) if isinstance(expr, str) else None
            return value if value is not None else UNKNOWN
        if name in ("ParameterValue", "str", "TextSubstitution", "Path", "PurePath") or name in _SOURCES:
            return self.eval(first or kw.get("value") or kw.get("text") or kw.get("launch_file_path"), line)
        if isinstance(node.func, ast.Attribute) and node.func.attr == "items" and not node.args:  # launch_arguments={...}.items()
            v = self.eval(node.func.value, line)
            return v if isinstance(v, dict) else UNKNOWN
        if isinstance(node.func, ast.Attribute) and node.func.attr == "split" and not node.args:  # "0 0 0 ... map odom".split()
            v = self.eval(node.func.value, line)
            return v.split() if isinstance(v, str) else UNKNOWN
        if isinstance(node.func, ast.Attribute) and node.func.attr in ("read", "read_text", "toxml", "toprettyxml"):
            return self._read(node.func.value, line)
        return UNKNOWN

    def _read(self, inner: ast.expr, line: int) -> Any:
        """``open(p).read()``, ``Path(p).read_text()``, ``xacro.process_file(p, mappings=...).toxml()``."""
        if isinstance(inner, ast.Name):  # f.read() after `with open(p) as f` or `doc = xacro.process_file(p)`
            cands = [c for c in self.assigns.get(inner.id, ()) if c[0] <= line]
            inner = cands[-1][1] if cands else inner
        if not isinstance(inner, ast.Call) or not inner.args:
            return UNKNOWN
        name = _name(inner.func)
        path = self.eval(inner.args[0], line)
        if not isinstance(path, str):
            return UNKNOWN
        if name in ("open", "Path"):
            return DescriptionRef(path)
        if name in ("process_file", "process"):
            kw = {k.arg: k.value for k in inner.keywords if k.arg}
            mappings = self.eval(kw.get("mappings"), line) if "mappings" in kw else {}
            pairs = tuple((k, v) for k, v in mappings.items() if isinstance(v, str)) if isinstance(mappings, dict) else ()
            return DescriptionRef(path, pairs)
        return UNKNOWN


def _concat(parts: list[Any], unknown_ok: bool = False) -> Any:
    out = []
    for p in parts:
        if isinstance(p, list):
            p = _concat(p, unknown_ok)
        if isinstance(p, (int, float)) and not isinstance(p, bool):
            p = str(p)
        if not isinstance(p, str):
            if unknown_ok:
                p = " \x01 "  # keeps the words around an unknown part readable (e.g. xacro args)
            else:
                return UNKNOWN
        out.append(p)
    return "".join(out)


def _string_literal(expr: str) -> str | None:
    """The string a Python expression that is a string literal stands for: ``"/odom"``, or an f-string with no
    field to fill once substituted (``f"/p0"``: kitti_odometry_replayer's prefix); None for anything to evaluate."""
    try:
        value = ast.literal_eval(expr)
    except (ValueError, SyntaxError, MemoryError, RecursionError):
        try:
            tree = ast.parse(expr.strip(), mode="eval")
        except (SyntaxError, ValueError, MemoryError, RecursionError):
            return None
        body = tree.body
        if isinstance(body, ast.JoinedStr) and all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in body.values):
            return "".join(v.value for v in body.values if isinstance(v, ast.Constant) and isinstance(v.value, str))
        return None
    return value if isinstance(value, str) else None


def _join(parts: list[Any]) -> Any:
    strs = [p if isinstance(p, str) else _concat(p) if isinstance(p, list) else UNKNOWN for p in parts]
    if not strs or any(not isinstance(s, str) for s in strs):
        return UNKNOWN
    return os.path.join(*strs)


def parse_launch_py_file(text: str, rel_path: str, ctx: ScanContext, launch_args: dict[str, str] | None = None,
                         tree: ast.Module | None = None) -> FileFacts:
    """``tree``: the file's syntax tree when the caller has parsed it already (it is only read)."""
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    if tree is None:
        try:
            tree = ast.parse(text, filename=rel_path)
        except SyntaxError as exc:
            facts.findings.append(Finding("PARSE_ERROR", f"{rel_path}: Python syntax error: {exc.msg}; launch file skipped", (),
                                          Location(rel_path, exc.lineno)))
            return facts
    # arguments passed by an includer are launch configurations even where the file declares none
    interp = _Interp(ctx, ctx.abs_str(rel_path), args=dict(launch_args or {}), given=dict(launch_args or {}))
    calls: list[ast.Call] = []
    for node in _walk(tree):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            interp.assigns.setdefault(node.targets[0].id, []).append((node.lineno, node.value))
        elif isinstance(node, ast.withitem) and isinstance(node.optional_vars, ast.Name):  # with open(p) as f
            interp.assigns.setdefault(node.optional_vars.id, []).append((node.context_expr.lineno, node.context_expr))
        elif isinstance(node, ast.Call):
            calls.append(node)
    for lst in interp.assigns.values():
        lst.sort(key=lambda c: c[0])
    calls.sort(key=lambda c: (c.lineno, c.col_offset))
    for call in calls:
        if _name(call.func) == "DeclareLaunchArgument":
            _declare(call, interp)
    facts.arg_choices = {k: v for k, v in interp.choices.items() if k not in interp.given}
    off = _switched_off(calls, interp, facts)
    for call in calls:
        if id(call) in off:
            continue
        name = _name(call.func)
        if name == "Node":
            _node(call, interp, facts, ctx)
        elif name == "ComposableNode":  # runs inside a container; its sources are the plugin's library
            kw = {k.arg: k.value for k in call.keywords if k.arg}
            package, plugin = interp.eval(kw.get("package"), call.lineno), interp.eval(kw.get("plugin"), call.lineno)
            if isinstance(package, str) and isinstance(plugin, str):
                facts.nodes.append(LaunchedNode(package, plugin, Location(facts.path, call.lineno)))
        elif name == "IncludeLaunchDescription":
            _include(call, interp, facts, ctx)
    return facts


def _switched_off(calls: list[ast.Call], interp: _Interp, facts: FileFacts) -> set[int]:
    """Calls under ``condition=IfCondition(x)`` / ``UnlessCondition(x)`` whose value the arguments' defaults
    (or what an includer passes) decide off, with everything nested in them (a ``GroupAction``'s actions). A condition
    that is a boolean argument declared here with a default is a switch of the file (``facts.switches``)."""
    off: set[int] = set()
    for call in calls:
        cond = next((k.value for k in call.keywords if k.arg == "condition"), None)
        if not isinstance(cond, ast.Call) or _name(cond.func) not in ("IfCondition", "UnlessCondition") or not cond.args:
            continue
        value = interp.eval(cond.args[0], call.lineno)
        value = truth(value) if isinstance(value, str) else value if isinstance(value, bool) else None
        arg = _configuration(cond.args[0], interp)
        if value is not None and arg is not None and arg not in interp.given and arg in interp.arg_lines:
            facts.switches.setdefault(arg, (interp.arg_lines[arg], "false" if value else "true"))
        if value is not None and value != (_name(cond.func) == "IfCondition"):
            off.update(id(n) for n in ast.walk(call) if isinstance(n, ast.Call))
    return off


_LEAVES = (ast.Constant, ast.Name, ast.expr_context)  # hold no assignment, with-item or call


def _walk(tree: ast.AST) -> list[ast.AST]:
    """The nodes in ``ast.walk``'s order (breadth first); names and constants are not looked into."""
    out = [tree]
    i = 0
    while i < len(out):
        node = out[i]
        i += 1
        if isinstance(node, _LEAVES):
            continue
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, ast.AST):
                out.append(value)
            elif isinstance(value, list):
                out.extend(v for v in value if isinstance(v, ast.AST))
    return out


def _declare(call: ast.Call, interp: _Interp) -> None:
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    name = interp.eval(call.args[0] if call.args else kw.get("name"), call.lineno)
    if not isinstance(name, str):
        return
    default = kw.get("default_value") or (call.args[1] if len(call.args) > 1 else None)
    choices = interp.eval(kw["choices"], call.lineno) if "choices" in kw else None
    if isinstance(choices, list) and all(isinstance(c, str) for c in choices):
        interp.choices[name] = choices
    if name in interp.given:
        interp.args[name] = interp.given[name]
        return
    value = interp.eval(default, call.lineno) if default is not None else UNKNOWN
    if isinstance(value, list):
        value = _concat(value)
    interp.args[name] = value
    if default is not None:
        interp.arg_lines[name] = default.lineno


def _configuration(v: ast.expr, interp: _Interp) -> str | None:
    """The launch argument ``LaunchConfiguration('tf_pitch')`` names, also through a variable assigned it above."""
    if isinstance(v, ast.Name) and interp.assigns.get(v.id):
        v = interp.assigns[v.id][-1][1]
    if isinstance(v, ast.Call) and _name(v.func) == "LaunchConfiguration" and v.args and isinstance(v.args[0], ast.Constant):
        return v.args[0].value if isinstance(v.args[0].value, str) else None
    return None


_ROTATION_FLAGS = frozenset({"--roll", "--pitch", "--yaw", "--qx", "--qy", "--qz", "--qw"})


def _written_words(written: ast.expr | None) -> list[tuple[str, int]]:
    """A node's arguments as written, word by word with their lines: a string's words, an expression one word
    (``LaunchConfiguration('roll')``, for names that tell an angle)."""
    if not isinstance(written, ast.List):
        return []
    return [(w, e.lineno) for e in written.elts
            for w in (e.value.split() if isinstance(e, ast.Constant) and isinstance(e.value, str) else [ast.unparse(e)])]


def _rotation_line(written: ast.expr | None, words: list[tuple[str, int]], interp: _Interp) -> int | None:
    """Where a static transform's rotation is written in an argument list over several lines: the default of the
    launch argument that turns it (LiDAR-SLAM-Simulation's ``DeclareLaunchArgument('tf_pitch', default_value=
    '3.14159274')``), else its first rotation flag, or the fourth positional value (x y z come first)."""
    if not isinstance(written, ast.List):
        return None
    elts = written.elts
    flags = any(isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.startswith("--") for e in elts)
    values = ([v for f, v in itertools.pairwise(elts) if isinstance(f, ast.Constant) and f.value in _ROTATION_FLAGS and f.value != "--qw"]
              if flags else elts[3:6] if len(elts) in (8, 9) else [])
    angles = []
    for v in values:
        name = _configuration(v, interp)
        if name is not None:
            angles.append((interp.args.get(name), interp.arg_lines.get(name)))
        else:
            angles.append((v.value if isinstance(v, ast.Constant) else None, None))
    turned = turning_argument_line(angles)
    if turned is not None:
        return turned
    flag = next((e.lineno for e in elts if isinstance(e, ast.Constant) and e.value in _ROTATION_FLAGS), None)
    if flag is not None or flags:
        return flag
    return words[3][1] if len(words) > 3 else None


def _value_lines(written: ast.expr | None, interp: _Interp, line: int) -> dict[str, int]:
    """The words of the arguments that variables of the file hold, each with the line of the variable's last
    assignment before the node (``p0_frame_id = PythonExpression([...])``)."""
    out: dict[str, int] = {}
    for e in written.elts if isinstance(written, ast.List) else ():
        made = [c for c in interp.assigns.get(e.id, []) if c[0] < line] if isinstance(e, ast.Name) else []
        value = interp.eval(e, line) if made else None
        for word in value.split() if isinstance(value, str) else ():
            out.setdefault(word, made[-1][0])
    return out


def _node(call: ast.Call, interp: _Interp, facts: FileFacts, ctx: ScanContext) -> None:
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    line = call.lineno

    def text(*keys: str) -> str | None:
        for k in keys:
            if k in kw:
                v = interp.eval(kw[k], line)
                v = _concat(v) if isinstance(v, list) else v
                return v if isinstance(v, str) else None
        return None

    arguments: list[str | None] = []
    raw_args = interp.eval(kw.get("arguments"), line) if "arguments" in kw else []
    for a in raw_args if isinstance(raw_args, list) else [UNKNOWN]:
        v = _concat(a) if isinstance(a, list) else a
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            v = str(v)
        arguments.extend(v.split() if isinstance(v, str) else [None])
    params: dict[str, Any] = {}
    raw_params = interp.eval(kw.get("parameters"), line) if "parameters" in kw else []
    complete = isinstance(raw_params, list)  # every entry a dictionary, or a parameter file the scan reads
    node_name = text("name", "node_name") or ""
    param_files: dict[str, Location] = {}
    for p in raw_params if isinstance(raw_params, list) else []:
        read = node_parameters(ctx, p, node_name) if isinstance(p, str) and p.endswith((".yaml", ".yml")) else None
        if read is not None:
            p = read.values
            param_files.update(read.lines)
        if isinstance(p, dict):
            params.update({k: None if v is UNKNOWN else v for k, v in p.items()})  # None: set, value unknown
        else:
            complete = False
    param_lines = {k.value: k.lineno for d in ast.walk(kw["parameters"]) if isinstance(d, ast.Dict)
                   for k in d.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)} if "parameters" in kw else {}
    written_list = kw.get("arguments")
    words = _written_words(written_list)
    # where the arguments are written: in a list over several lines, the line of the first that names something (a
    # static transform's parent frame, the line to change), not the list's first line
    named = [e for e in written_list.elts if isinstance(e, ast.Constant) and isinstance(e.value, str) and e.value.strip()
             and not e.value.startswith("-") and not is_number_text(e.value)] if isinstance(written_list, ast.List) else []
    args_line = named[0].lineno if named else kw["arguments"].lineno if "arguments" in kw else None
    spec = NodeSpec(text("package"), text("executable", "node_executable"), line, node_name, arguments, params,
                    args_line, param_lines, complete, written=[w for w, _ in words], rotation_line=_rotation_line(written_list, words, interp),
                    value_lines=_value_lines(written_list, interp, line), params_line=kw["parameters"].lineno if "parameters" in kw else None,
                    param_files=param_files)
    add_node(spec, facts, ctx, ros_version=2)


def _include(call: ast.Call, interp: _Interp, facts: FileFacts, ctx: ScanContext) -> None:
    kw = {k.arg: k.value for k in call.keywords if k.arg}
    src = call.args[0] if call.args else kw.get("launch_description_source")
    path = interp.eval(src, call.lineno)
    if isinstance(path, list):  # a list of substitutions is their concatenation: [ThisLaunchFileDir(), "/x.launch.py"]
        path = _concat(path)
    passed: dict[str, str] = {}
    raw = interp.eval(kw.get("launch_arguments"), call.lineno) if "launch_arguments" in kw else []
    pairs = raw.items() if isinstance(raw, dict) else [p for p in raw if isinstance(p, list) and len(p) == 2] if isinstance(raw, list) else []
    for k, v in pairs:
        v = _concat(v) if isinstance(v, list) else v
        if isinstance(k, str) and isinstance(v, (str, int, float)):
            passed[k] = str(v)
        elif isinstance(k, str) and names_a_prefix(k):  # one robot of several (a loop's f'TB3_{i}'): a placeholder
            passed[k] = "{" + k + "}"
    if isinstance(path, str):
        add_include(path, path, call.lineno, facts, ctx, passed)
    else:
        add_include(None, "(a path known only at launch time)", call.lineno, facts, ctx)
