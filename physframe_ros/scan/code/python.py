"""Python (rclpy and rospy) frame analysis over the standard ``ast``; the code is never run.

Same model as the C++ analyzer: functions that mention tf, messages or rotations are
walked statement by statement, constants are evaluated, everything else is unknown.
A first pass learns ``self.`` attributes and parameter defaults, the second reports;
calls to functions and methods of the same file are followed once each.
"""

from __future__ import annotations

import ast
import math
import re
from dataclasses import replace
from typing import Callable, Iterator, Mapping, Sequence

from ...core.conventions import Conventions
from ...core.findings import Finding
from ..frame_ids import empty_prefix_finding, frame_id_finding, frame_variable, maybe_empty_prefix_finding, tests_prefix
from ..model import FileFacts
from .action_goals import unframed_goals
from .angle_units import finding as degrees_finding
from .angle_units import python_degrees
from .angles import rpy_slots, shifted_components_finding
from .calls import STEP_BUDGET, Budget
from .facts import (
    FactSink,
    TreeMessages,
    camera_info_reloaded,
    message_kind,
    package_of,
    param_default,
    setpoint_publishers,
    slot_name_finding,
    spatial_name,
    static_broadcaster_names,
)
from .guards import Guard
from .mixed_axes import mixed_axes_findings
from .own_euler import documented_order, first_component_line, quaternion_functions, returned_order
from .px4_axes import px4_flip_findings
from .python2 import as_python3
from .quaternion_args import finding as swapped_quaternion_finding
from .quaternion_args import python_swapped
from .raw_counts import finding as raw_counts_finding
from .raw_counts import python_raw_quaternions
from .values import (
    HEADER,
    HEADER_BY_USE,
    IDENTITY_ROT,
    NAMED_NUMBERS,
    ODOMETRY,
    PX4_QUATERNION_FIELDS,
    STAMPED,
    TF_MESSAGE,
    TOP_ROT,
    TRANSFORM,
    UNSET,
    Heading,
    ListValue,
    Literal,
    ParamRef,
    QuatList,
    Record,
    Rot,
    TfValue,
    Value,
    as_matrix,
    as_number,
    as_vector,
    binary_number,
    component_order,
    concat,
    fresh,
    heading_field,
    heading_reading,
    negated,
    px4_component,
    rot_from_components,
    rot_from_euler_axes,
    rot_from_matrix,
    rot_from_quaternion,
    rot_from_rpy,
    rot_inverse,
    rot_mul,
    tf_message,
)
from .walker import MATH, MISSING, SHARED_API, Call, FileWalk, Missing, Path, Result, Scope, Walker, apply_math, launch_into
from .zero_start import python_zero_start

_RELEVANT = re.compile(
    r"sendTransform|lookup_?[tT]ransform|can_?[tT]ransform|ransform|publish|frame|quaternion|Quaternion|euler|"
    r"param|Stamped|Odometry|NavSatFix|Scan|Imu|Cloud|Image|array|matrix|Rotation|mat2|quat|orientation"
)
# Functions that may give attributes or parameters their values: only these are walked in the first pass.
_LEARNS = re.compile(r"param|self\.\w+\s*(?::[^=\n]*)?=[^=]|\bglobal\s")
_PUBLISH_WRAPPER = re.compile(r"publish(?:[A-Z]|_[a-z])\w*$")  # `publish_imu`, `publishOdom`: a method that sends a message
_STATIC_BROADCASTER = re.compile(r"((?:self\.)?\w+)\s*(?::\s*[\w.]+\s*)?=\s*[\w.]*StaticTransformBroadcaster\s*\(")
# cv_bridge conversions: the message they return has an empty header (cv_bridge has no frame to give it)
# and camera_info_manager_py's getCameraInfo(): the calibration file it loads holds no frame
_EMPTY_HEADER_CONVERSIONS = {"cv2_to_imgmsg": "Image", "cv2_to_compressed_imgmsg": "CompressedImage", "getCameraInfo": "CameraInfo"}
_RECOVERY_ATTEMPTS = 5
_LOOKUPS = {"lookup_transform", "lookupTransform", "can_transform", "canTransform", "wait_for_transform", "waitForTransform",
            "lookup_transform_full", "can_transform_full", "wait_for_transform_async", "wait_for_transform_full_async"}  # fmt: skip



#: A module of the scanned package by its dotted name as imported (``pkg.conversion``): its path and text, or None.
ModuleSource = Callable[[str], "tuple[str, str] | None"]


def analyze_python(text: str, rel_path: str, conventions: Conventions | None = None, tree: ast.Module | None = None,
                   messages: TreeMessages | None = None, modules: ModuleSource | None = None,
                   launched: Mapping[str, str] | None = None) -> FileFacts:
    """Frame facts of one Python file. Never raises: failures become a PARSE_ERROR finding.
    ``tree``: the file's syntax tree when the caller has parsed it already (it is only read); ``messages``: the
    stamped message types the scanned tree defines; ``modules``: the package's other modules, for the functions
    the file imports from them; ``launched``: the parameters a launch file gives the node."""
    lines = text.count("\n") + 1
    sink = FactSink(rel_path, lines, conventions)
    try:
        if tree is None:
            tree, text = _parse(text, rel_path, sink)
        if tree is not None:
            walk = _PyFile(text, sink, messages or TreeMessages(), modules)
            launch_into(walk, launched)
            walk.run(tree)
    except Exception as exc:  # a scanner must survive any input; report it and move on
        sink.parse_error(1, f"Python analysis failed ({type(exc).__name__}: {exc}); file skipped")
    return sink.facts


def _parse(text: str, rel_path: str, sink: FactSink) -> tuple[ast.Module | None, str]:
    """Parse, and the text parsed. Python 2 source is read through :func:`as_python3` (same lines), and is no
    error. On another syntax error, report it and retry with the offending lines blanked (keeps what can be kept)."""
    try:
        return ast.parse(text, filename=rel_path), text
    except SyntaxError:
        text = as_python3(text) or text
    except (RecursionError, MemoryError, ValueError) as exc:
        sink.parse_error(1, f"cannot parse ({type(exc).__name__}); file skipped")
        return None, text
    lines = text.split("\n")
    for attempt in range(_RECOVERY_ATTEMPTS + 1):
        try:
            parsed = "\n".join(lines)
            return ast.parse(parsed, filename=rel_path), parsed
        except SyntaxError as exc:
            line = exc.lineno or 1
            if attempt == 0:
                sink.parse_error(line, f"Python syntax error ({exc.msg}); the rest of the file is analysed as recovered")
            if not 1 <= line <= len(lines):
                return None, text
            lines[line - 1] = ""
        except (RecursionError, MemoryError, ValueError) as exc:
            sink.parse_error(1, f"cannot parse ({type(exc).__name__}); file skipped")
            return None, text
    return None, text


def _dotted(node: ast.AST) -> str:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
    elif isinstance(node, ast.Call):
        parts.append(_dotted(node.func) + "()")
    return ".".join(reversed(parts))


class _PyFile(FileWalk):
    def __init__(self, text: str, sink: FactSink, messages: TreeMessages, modules: ModuleSource | None = None) -> None:
        super().__init__(sink, static_broadcaster_names(text, _STATIC_BROADCASTER), setpoint_publishers(text))
        self.messages = messages
        self.module_source = modules
        self.library: dict[str, _PyFile | None] = {}  # dotted module name -> that module of the package, read
        self.star_modules: list[str] = []  # `from pkg.tools import *`: the names it binds are that module's
        self._globals_of: dict[int, frozenset[str]] = {}  # function node id -> the names it declares global
        self.lines = text.split("\n")
        # Quaternion, quat2mat, from_quat, tf's sendTransform(t, q, ...): the swapped-order check's calls
        self.mentions_quaternions = "uat" in text or "sendTransform" in text
        self.mentions_rotations = ".rotation" in text or ".orientation" in text
        self.mentions_degrees = "deg" in text or "Deg" in text or "180" in text  # an angle in degrees handed to radians
        # getCameraInfo gives back what setCameraInfo stored, maybe with a frame, unless a loaded calibration replaced it
        self.camera_info_kept = "setCameraInfo" in text and not camera_info_reloaded([text])
        self.px4 = "px4_msgs" in text  # its messages' quaternions are w first
        self.mentions_vectors = "header" in text and "2]" in text  # a device's vector read by index, and a header
        self.mentions_unpack = "unpack" in text  # a device's raw registers unpacked (into a quaternion?)
        self.mentions_goals = "Goal" in text  # a navigation goal sent (the lines are joined again only then)
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef | None] = {}
        self.aliases: dict[str, str] = {}  # `from m import f as g`: g -> f
        self.scalar_first: set[str] = set()  # module aliases and functions whose quaternions are w, x, y, z
        self.origins: dict[str, str] = {}  # `from vision_msgs.msg import Detection2DArray`: the name -> its module
        self.modules: dict[str, str] = {}  # `import tf_transformations as tft`: tft -> tf_transformations
        self.tree = ast.Module(body=[], type_ignores=[])
        self._parents: dict[int, ast.AST] | None = None
        self.ros1 = False  # a rospy node: its messages' quaternions default to (0, 0, 0, 0), not rclpy's identity
        # the file's own Euler-to-quaternion functions -> the order of what they return (None: not known)
        self.own_quaternions: dict[str, str | None] = {}

    def imports(self, tree: ast.Module) -> None:
        """What the module's imports bind: aliased functions by their own name, and Christoph Gohlke's
        ``transformations`` (the pip module, not ``tf.transformations``), whose quaternions are w-first."""
        for node in tree.body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    bound = a.asname or a.name.split(".")[0]
                    self.modules[bound] = a.name if a.asname else bound
                    if a.name == "transformations":
                        self.scalar_first.add(a.asname or a.name)
            elif isinstance(node, ast.ImportFrom) and node.module:
                for a in node.names:
                    if a.name == "*":
                        self.star_modules.append(node.module)
                        continue
                    self.origins[a.asname or a.name] = node.module
                    if a.asname:
                        self.aliases[a.asname] = a.name
                    if node.module == "transformations":
                        self.scalar_first.add(a.asname or a.name)
        roots = {m.split(".")[0] for m in (*self.modules.values(), *self.origins.values())}
        self.ros1 = "rospy" in roots and "rclpy" not in roots

    def module_of(self, func: ast.expr) -> str | None:
        """The module a called name comes from, by the file's imports (``tft.quat2mat`` with ``import
        transforms3d.quaternions as tft``: ``transforms3d.quaternions``); None when not imported."""
        if isinstance(func, ast.Name):
            return self.origins.get(func.id)
        if not isinstance(func, ast.Attribute):
            return None
        head, _, rest = _dotted(func.value).partition(".")
        # `from tf import transformations`: the receiver is the submodule tf.transformations, not tf
        base = self.modules.get(head) or (f"{self.origins[head]}.{self.aliases.get(head, head)}" if head in self.origins else None)
        return f"{base}.{rest}" if base and rest else base

    def swapped_quaternions(self, tree: ast.Module) -> None:
        """Quaternions given another's components in the other library's order (:mod:`.quaternion_args`)."""
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                func = node.func
                called = _dotted(func.value) if isinstance(func, ast.Attribute) else _dotted(func)
                found = python_swapped(node, self.module_of(func), called in self.scalar_first)
                if found is not None:
                    self.sink.add(swapped_quaternion_finding(found, self.sink.loc(found.line)))

    def parents(self) -> dict[int, ast.AST]:
        """Each node's parent, by the node's id, made on first use (only a joined prefix asks)."""
        if self._parents is None:
            self._parents = {id(child): node for node in ast.walk(self.tree) for child in ast.iter_child_nodes(node)}
        return self._parents

    def run(self, tree: ast.Module) -> None:
        self.tree = tree
        self.imports(tree)
        if self.mentions_quaternions:
            self.swapped_quaternions(tree)
            own = quaternion_functions(tree)
            self.own_quaternions = {name: returned_order(fn) for name, fn in own.items()}
            for name, fn in own.items():
                self.documented_order(fn, self.own_quaternions[name])
        if self.mentions_degrees:
            for degrees in python_degrees(tree):
                self.sink.add(degrees_finding(degrees, self.sink.loc(degrees.line)))
        if self.mentions_vectors:
            for fn in _outer_functions(tree):
                text = self.function_texts.setdefault(id(fn), self.source(fn))  # the walk reads it again
                for finding in mixed_axes_findings(text, fn.lineno, self.sink.facts.path):
                    self.sink.add(finding)
        for flipped in px4_flip_findings(self.source_text(), self.sink.facts.path) if self.px4 else ():
            self.sink.add(flipped)
        for zero in python_zero_start(tree, self.ros1, self.sink.facts.path) if self.mentions_rotations else ():
            self.sink.add(zero)
        if self.mentions_unpack:
            for raw in python_raw_quaternions(tree):
                self.sink.add(raw_counts_finding(raw, self.sink.loc(raw.line)))
        for goal in unframed_goals("\n".join(self.lines)) if self.mentions_goals else ():
            self.sink.add(Finding("MISSING_FRAME", goal.message(), (), self.sink.loc(goal.line)))
        functions = self.collect_functions(tree)
        relevant = [f for f in functions if _RELEVANT.search(self.source(f))]
        try:
            _Run(self, emit=False, env=self.globals).block(tree.body)
            for fn in relevant:
                if _LEARNS.search(self.source(fn)):
                    _Run(self, emit=False, declared=fn).block(reachable(fn.body))
            self.member_names = {id(v): name for name, v in self.members.items() if isinstance(v, Record) and v.kind in (ODOMETRY, TRANSFORM, STAMPED)}
            top = _Run(self, emit=True, env=self.globals)
            top.block(tree.body)
            top.end_of_function()
            for fn in relevant:
                self.call(fn)
            self._check_published_members()
            self.finish()
        except Budget:
            self.sink.parse_error(1, f"analysis stopped after {STEP_BUDGET} steps; later functions not analysed")

    def publishes_parameter(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
        """A method named for publishing (``publish_imu(self, msg)``) whose body publishes its one parameter and never
        touches that parameter's frames."""
        params = [a.arg for a in fn.args.args]
        if not _PUBLISH_WRAPPER.match(fn.name) or len(params) != 2 or params[0] != "self":
            return False
        text, p = self.source(fn), re.escape(params[1])
        return (re.search(rf"\.publish\(\s*{p}\s*\)", text) is not None
                and re.search(rf"\b{p}\s*(?:\.\s*(?:header|child_frame_id)|=(?!=))", text) is None)

    def declared_globals(self, fn: ast.AST) -> frozenset[str]:
        """The names a function declares ``global`` (read once per function: it may be walked many times)."""
        key = id(fn)
        if key not in self._globals_of:
            self._globals_of[key] = frozenset(n for g in ast.walk(fn) if isinstance(g, ast.Global) for n in g.names)
        return self._globals_of[key]

    def collect_functions(self, tree: ast.Module) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
        """Every function and method of the module, in line order; ``functions`` maps a name defined once to it."""
        functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        stack: list[ast.stmt] = list(tree.body)
        while stack:  # statements only: expressions cannot hold a def
            node = stack.pop()
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                functions.append(node)
                self.functions[node.name] = None if node.name in self.functions else node
            for block in _STATEMENT_BLOCKS:
                stack.extend(getattr(node, block, ()))
            for handler in getattr(node, "handlers", ()):
                stack.extend(handler.body)
        functions.sort(key=lambda f: f.lineno)
        return functions

    def imported_function(self, name: str) -> tuple[_PyFile, ast.FunctionDef | ast.AsyncFunctionDef] | None:
        """A function the file imports from another module of its package (soccer_vision_3d_rviz_markers'
        ``from soccer_vision_3d_rviz_markers.conversion import field_boundary_to_marker``, or a star import), defined
        there once: that module is read (not walked) on first use."""
        module = self.origins.get(name)
        for candidate in [module] if module is not None else self.star_modules:
            lib = self.package_module(candidate)
            fn = lib.functions.get(self.aliases.get(name, name)) if lib is not None else None
            if lib is not None and fn is not None:
                return lib, fn
        return None

    def package_module(self, module: str) -> _PyFile | None:
        """The module of the package imported as ``module``, its functions and constants collected; None when the
        package has no such module (another package's, a library's) or it does not parse."""
        if module in self.library or self.module_source is None:
            return self.library.get(module)
        self.library[module] = None
        found = self.module_source(module)
        if found is None:
            return None
        try:
            tree = ast.parse(found[1], filename=found[0])
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
        lib = _PyFile(found[1], FactSink(found[0], 0), self.messages)
        lib.tree = tree
        lib.imports(tree)
        lib.collect_functions(tree)
        _Run(lib, emit=False, env=lib.globals).block(tree.body)  # its constants
        self.library[module] = lib
        return lib

    def _check_published_members(self) -> None:
        """Once every method is walked: a member message (``self._odom_msg = Odometry()`` in ``__init__``), or a module
        global one (rebuilt under ``global`` or built at module level), published with a frame no function of the file
        sets, and never replaced whole by one that may carry it."""
        if not self.published_members:
            return
        text = "\n".join(self.lines)
        for rec, line in self.published_members:
            name = self.member_names[id(rec)]
            held = self.members.get(name) if name in self.members else self.globals.get(name)  # a module global: globals
            if held is not rec or rec.escaped or name in self.unknown_members or _assigned_whole(name, text):
                continue
            self.sink.member_published(rec, name, line, [text], "class" if name.startswith("self.") else "module")

    def source_text(self) -> str:
        return "\n".join(self.lines)

    def documented_order(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, order: str | None) -> None:
        """An Euler-to-quaternion function returning its quaternion in the other order than its docstring promises
        (rocket_league's stand-in for tf.transformations: "quat = [x, y, z, w]", w computed into q[0]): callers
        follow the docstring."""
        promised = documented_order(fn)
        if order is None or promised is None or promised == order:
            return
        self.sink.add(Finding(
            "INCORRECT_TRANSFORM",
            f"{fn.name}() is documented to return the quaternion as {', '.join(promised)} but computes it as "
            f"{', '.join(order)}: code that follows its docstring reads "
            f"{'w as x' if order == 'wxyz' else 'x as w'}, a different rotation; return it in the order documented",
            (), self.sink.loc(first_component_line(fn))))

    def source(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
        return "\n".join(self.lines[fn.lineno - 1 : fn.end_lineno or fn.lineno])

    def call(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, bound: tuple[tuple[str, Value], ...] = ()) -> Value:
        """Analyse a function (reporting) once per distinct constant arguments, memoising its result."""

        def analyse() -> Value:
            run = _Run(self, emit=True, declared=fn)
            run.span = (fn.lineno, fn.end_lineno or fn.lineno)
            run.env.update(_defaults(fn, run, self.sink))
            run.env.update(bound)
            run.block(reachable(fn.body))
            run.end_of_function()
            return run.result()

        return self.follow((fn.lineno, fn.col_offset), bound, analyse)


class _Run(Walker[ast.AST]):
    f: _PyFile

    def __init__(self, file: _PyFile, emit: bool, env: Scope | None = None, declared: ast.AST | None = None) -> None:
        super().__init__(file, emit, env)
        # `global odom_msg` in the function walked: a message it builds there is the module's, which another function
        # (a timer) may publish; it is learnt like a class member, from the first pass
        self.declared_global = file.declared_globals(declared) if declared is not None else frozenset()

    def text(self, node: ast.AST | None) -> str:
        return ast.unparse(node) if node is not None else ""

    def published(self, value: Value, call: Call[ast.AST]) -> None:
        if (not self.module and isinstance(value, Record) and value.kind in (ODOMETRY, TRANSFORM, STAMPED)
                and self.f.globals.get(value.name) is value):
            self.f.member_names.setdefault(id(value), value.name)  # built at module level, published by a function
        super().published(value, call)

    def is_member(self, name: str) -> bool:
        return not self.module and (name.startswith("self.") or name in self.declared_global)

    def walked_text(self) -> str:
        return "\n".join(self.f.lines[self.span[0] - 1 : self.span[1]]) if self.span[0] > 0 else ""

    def function_text(self, node: ast.AST) -> str:
        up = self.enclosing_function(node)
        if up is None:
            return ""
        texts = self.f.function_texts
        return texts[id(up)] if id(up) in texts else texts.setdefault(id(up), self.f.source(up))

    def function_text_before(self, node: ast.AST) -> str:
        up = self.enclosing_function(node)
        if up is None:
            return ""
        return "\n".join(self.function_text(node).split("\n")[: getattr(node, "lineno", up.lineno) - up.lineno])

    def conditions(self, node: ast.AST) -> list[str]:
        parents = self.f.parents()
        out: list[str] = []
        child: ast.AST | None = None
        up: ast.AST | None = node  # the node itself too: `f"{ns}/odom" if ns else "odom"`
        while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            if isinstance(up, (ast.If, ast.IfExp)) and up.test is not child:
                out.append(ast.unparse(up.test))
            child, up = up, parents.get(id(up))
        return out

    def branches(self, node: ast.AST) -> list[tuple[str, bool]]:
        parents = self.f.parents()
        out: list[tuple[str, bool]] = []
        child, up = node, parents.get(id(node))
        while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            if isinstance(up, ast.If) and up.test is not child:
                out.append((ast.unparse(up.test), any(s is child for s in up.body)))
            elif isinstance(up, ast.IfExp) and up.test is not child:
                out.append((ast.unparse(up.test), up.body is child))
            child, up = up, parents.get(id(up))
        return out

    def guards(self, node: ast.AST) -> list[Guard]:
        parents = self.f.parents()
        out: list[Guard] = []
        child, up = node, parents.get(id(node))
        while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            if isinstance(up, (ast.For, ast.AsyncFor, ast.While)) and any(s is child for s in up.body):
                head = f"for {ast.unparse(up.target)} in {ast.unparse(up.iter)}" if not isinstance(up, ast.While) else f"while {ast.unparse(up.test)}"
                out.append(Guard("loop", up.lineno, up.end_lineno or up.lineno, head))
            elif isinstance(up, ast.If) and child is not up.test:
                branch = up.orelse if any(s is child for s in up.body) else up.body
                other = (branch[0].lineno, branch[-1].end_lineno or branch[-1].lineno) if branch else None
                out.append(Guard("if", up.lineno, up.end_lineno or up.lineno, f"if {ast.unparse(up.test)}", other))
            child, up = up, parents.get(id(up))
        return out

    def branch_condition(self, node: ast.AST) -> str | None:
        parents = self.f.parents()
        child, up = node, parents.get(id(node))
        while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            if isinstance(up, ast.If):
                return ast.unparse(up.test) if any(s is child for s in up.body) else None
            child, up = up, parents.get(id(up))
        return None

    # --- statements ---------------------------------------------------------------------
    # statement handlers (the STATEMENTS table): each returns the statements nested in it, walked next
    def s_assign(self, node: ast.Assign) -> list[ast.stmt]:
        self.assign_stmt(node.targets, node.value)
        return []

    def s_ann_assign(self, node: ast.AnnAssign) -> list[ast.stmt]:
        if node.value is not None:
            self.assign_stmt([node.target], node.value)
        return []

    def s_aug_assign(self, node: ast.AugAssign) -> list[ast.stmt]:
        value = self.eval(node.value)
        current = self.eval(node.target)
        if isinstance(node.op, (ast.MatMult, ast.Mult)) and isinstance(current, Rot) and isinstance(value, Rot):
            self.assign(node.target, rot_mul(current, value))
        else:
            self.assign(node.target, binary_number(_OPS.get(type(node.op), ""), current, value))
        return []

    def s_expr(self, node: ast.Expr) -> list[ast.stmt]:
        self.eval(node.value)
        return []

    def s_class(self, node: ast.ClassDef) -> list[ast.stmt]:
        """A class body's string constants named for a frame (MORSE's ``default_frame_id = '/odom'``): a frame id written
        out, checked where it is written; the class's own names are not the module's, so nothing else is kept."""
        if self.emit:
            for stmt in node.body:
                if isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
                    for target in stmt.targets:
                        if isinstance(target, ast.Name):
                            self.frame_written(target, stmt.value, stmt.value.value, True, stmt.lineno)
        return [stmt for stmt in node.body if isinstance(stmt, ast.ClassDef)]

    def s_return(self, node: ast.Return) -> list[ast.stmt]:
        value = self.eval(node.value) if node.value is not None else None
        self.results.append(value)
        if self.emit and isinstance(value, Record):
            self.f.sink.camera_returned(value)
        if self.emit and node.value is not None and (value is None or (isinstance(value, str) and value.startswith("/"))):
            self.frame_returned(node, node.value, value)
        return []

    def frame_returned(self, node: ast.Return, returned: ast.expr, value: Value) -> None:
        """A frame getter returning a prefix joined with '/' where the prefix may be empty (nmea_navsat_driver's
        get_frame_id: "%s/%s" % (prefix, frame_id)); `if len(prefix): return ...` handles the empty case."""
        fn = self.enclosing_function(node)
        if fn is None or not frame_variable(fn.name):
            return
        text = self.text(returned)
        if any(tests_prefix(text, c) for c in self.conditions(node)):
            return
        sink, where = self.f.sink, f"{fn.name}() returns"
        sink.add(empty_prefix_finding(text, value, sink.loc(node.lineno), where) if value is not None else
                 maybe_empty_prefix_finding(text, lambda name: self.empty_before(node, name), sink.loc(node.lineno), where))

    def empty_before(self, node: ast.stmt, name: str) -> int | None:
        """The line of the assignment ``name = ""`` that is the last one to ``name`` in the blocks leading to ``node``
        (assignments nested in a branch before it do not count: they run only on some paths); None otherwise."""
        parents = self.f.parents()
        child: ast.AST = node
        up = parents.get(id(node))
        while up is not None and not isinstance(up, ast.Module):
            for body in (getattr(up, f, None) for f in ("body", "orelse", "finalbody")):
                if not isinstance(body, list) or child not in body:
                    continue
                for stmt in reversed(body[: body.index(child)]):
                    if isinstance(stmt, ast.Assign) and any(ast.unparse(t) == name for t in stmt.targets):
                        empty = isinstance(stmt.value, ast.Constant) and stmt.value.value == ""
                        return stmt.lineno if empty else None
            if isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
                return None
            child, up = up, parents.get(id(up))
        return None

    def enclosing_function(self, node: ast.AST) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
        parents = self.f.parents()
        up = parents.get(id(node))
        while up is not None and not isinstance(up, (ast.FunctionDef, ast.AsyncFunctionDef)):
            up = parents.get(id(up))
        return up

    def s_if(self, node: ast.If | ast.While) -> list[ast.stmt]:
        self.eval(node.test)
        return [*reachable(node.body), *reachable(node.orelse)]

    def s_for(self, node: ast.For | ast.AsyncFor) -> list[ast.stmt]:
        return [*reachable(node.body), *reachable(node.orelse)]

    def s_with(self, node: ast.With | ast.AsyncWith) -> list[ast.stmt]:
        return reachable(node.body)

    def s_try(self, node: ast.Try) -> list[ast.stmt]:
        inner = reachable(node.body)
        for h in node.handlers:
            inner.extend(reachable(h.body))
        return [*inner, *reachable(node.orelse), *reachable(node.finalbody)]

    def assign_stmt(self, targets: list[ast.expr], value_node: ast.expr) -> None:
        first = targets[0]
        if isinstance(value_node, ast.Call) and isinstance(first, (ast.Name, ast.Attribute)):
            self.bind = (id(value_node), _dotted(first))
        value = self.eval(value_node)
        self.bind = None
        if self.emit:
            for target in targets:
                self.assigned(target, value_node, value, isinstance(value_node, ast.Constant), target.lineno)
        for target in targets:
            if isinstance(target, (ast.Tuple, ast.List)):
                items: list[Value] = []
                if isinstance(value, QuatList):
                    items = [value.item(i) for i in range(4)]
                elif isinstance(value, ListValue):
                    items = list(value.items)
                for i, elt in enumerate(target.elts):
                    self.assign(elt, items[i] if i < len(items) else None)
            else:
                self.assign(target, value, target.lineno)

    # --- names --------------------------------------------------------------------------
    def path(self, node: ast.AST) -> Path | None:
        return self._path(node, False)

    def written_path(self, node: ast.AST) -> Path | None:
        return self._path(node, True)

    def _path(self, node: ast.AST, through_index: bool) -> Path | None:
        """``self.t.header.frame_id`` -> ("self.t", ["header", "frame_id"]); ``through_index``: also
        ``markers[i].header.frame_id`` (any element "[]", a constant index its digits)."""
        fields: list[str] = []
        while isinstance(node, ast.Attribute) or (through_index and isinstance(node, ast.Subscript)):
            if isinstance(node, ast.Subscript):
                index = node.slice
                fields.append(str(index.value) if isinstance(index, ast.Constant) and isinstance(index.value, int) else "[]")
            else:
                fields.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        fields.reverse()
        base = node.id
        if base in ("self", "cls") and fields:
            base, fields = f"self.{fields[0]}", fields[1:]
        return base, fields

    # --- expressions --------------------------------------------------------------------

    # expression handlers (the EXPRESSIONS table)
    def e_constant(self, node: ast.Constant) -> Value:
        v = node.value
        if isinstance(v, str):
            return Literal(v, self.f.sink.facts.path, node.lineno)
        if isinstance(v, (int, float)) and not isinstance(v, bool):
            return float(v)
        return None

    def e_name(self, node: ast.Name) -> Value:
        return self.lookup(node.id)

    def e_unary(self, node: ast.UnaryOp) -> Value:
        v = self.eval(node.operand)
        if isinstance(node.op, ast.USub):
            return negated(v)
        return v if isinstance(node.op, ast.UAdd) and isinstance(v, (float, Heading)) else None

    def e_binary(self, node: ast.BinOp) -> Value:
        left, right = self.eval(node.left), self.eval(node.right)
        if isinstance(node.op, ast.Add) and isinstance(left, str) and isinstance(right, str):
            return concat((left, right))
        if isinstance(node.op, ast.Mod) and isinstance(left, str):
            return percent_format(left, right)
        if isinstance(node.op, ast.MatMult):
            return self.matmul(left, right)
        if isinstance(node.op, ast.Mult) and isinstance(left, Rot) and isinstance(right, Rot):
            return rot_mul(left, right)  # scipy Rotation composition
        return binary_number(_OPS.get(type(node.op), ""), left, right)

    def e_fstring(self, node: ast.JoinedStr) -> Value:
        return concat([self.eval(v.value) if isinstance(v, ast.FormattedValue) else self.eval(v) for v in node.values])

    def e_list(self, node: ast.List | ast.Tuple) -> Value:
        return ListValue([self.eval(e) for e in node.elts])

    def e_children(self, node: ast.AST) -> Value:
        """``a if c else b``, ``a and b``, ``a < b``: no value, but calls inside still run."""
        for child in ast.iter_child_nodes(node):
            self.eval(child)
        return None

    def e_attribute(self, node: ast.Attribute) -> Value:
        if node.attr in NAMED_NUMBERS and isinstance(node.value, ast.Name) and node.value.id in ("math", "np", "numpy"):
            return NAMED_NUMBERS[node.attr]
        p = self.path(node)
        if p is not None:
            base, fields = p
            holder = self.lookup(base)
            if not fields:
                return holder
            if isinstance(holder, Record):
                got = holder.get(".".join(fields))
                return None if got is UNSET else got
            if holder is None and heading_field(fields[-1]) and (base != "self" or (len(fields) > 1 and heading_reading(fields[-1]))):
                return Heading()  # `msg.heading` of a message handed in, `self.ins.azimuth` of one kept: a compass heading
        obj = self.eval(node.value)
        if node.attr in ("value", "string_value"):
            if isinstance(obj, ParamRef):
                return self.f.params.get(obj.name)
            return obj if isinstance(obj, (str, float)) else None
        if node.attr == "T" and isinstance(obj, Rot):
            return rot_inverse(obj)
        return None

    def e_subscript(self, node: ast.Subscript) -> Value:
        obj = self.eval(node.value)
        index = as_number(self.eval(node.slice))
        if index is None or index != int(index):
            return None
        i = int(index)
        if isinstance(obj, QuatList):
            return obj.item(i)
        if isinstance(obj, ListValue) and -len(obj.items) <= i < len(obj.items):
            return obj.items[i]
        if obj is None and self.f.px4 and isinstance(node.value, ast.Attribute) and node.value.attr in PX4_QUATERNION_FIELDS:
            return px4_component(i)  # `msg.q[0]` of a px4_msgs VehicleOdometry: w
        return None

    def matmul(self, left: Value, right: Value) -> Value:
        """``a @ b`` / ``np.dot``: a matrix product, so an unknown operand is a top rotation (R15)."""
        if isinstance(left, Rot) or isinstance(right, Rot):
            return rot_mul(left if isinstance(left, Rot) else TOP_ROT, right if isinstance(right, Rot) else TOP_ROT)
        return None

    # --- calls --------------------------------------------------------------------------
    def e_call(self, node: ast.Call) -> Value:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else self.f.aliases.get(func.id, func.id) if isinstance(func, ast.Name) else ""
        receiver = func.value if isinstance(func, ast.Attribute) else None
        call: Call[ast.AST] = Call(name, receiver, node.args, node.lineno, id(node), {k.arg: k.value for k in node.keywords if k.arg})
        if (rpy_slots(name) is not None or name == "setEuler") and not call.kwargs:
            self.euler_slots(name, call.args, call.line)
        if self.emit and call.kwargs:
            self.frame_keywords(call)
        special = self.h_get_param(call) if _config_read(call) else self.api(call)  # config reads: `getArg('frame_id', '/map')`
        if not isinstance(special, Missing):
            return special
        module = _dotted(receiver) if receiver is not None else self.f.origins.get(name)
        kind = message_kind(name, package_of(module)) or (STAMPED if module and self.f.messages.is_stamped(name, f"{module}.{name}") else None)
        if kind is None and module and (package_of(module) or "").endswith("_msgs") and spatial_name(name):
            kind = HEADER_BY_USE  # robomaster_msgs' Detection: a header, if the code writes one
        if kind is not None:
            return self.message(call, kind)
        if name in self.f.own_quaternions and (receiver is None or (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"))):
            return self.own_quaternion(call)
        builder = _BUILDERS.get(name)
        if builder is not None:
            built = builder(self, call)
            if not isinstance(built, Missing):
                return built
        obj = self.eval(receiver) if receiver is not None else None
        method = _METHODS.get(name)
        if method is not None:
            value = method(self, call, obj)
            if not isinstance(value, Missing):
                return value
        return self.user_call(call)

    def frame_keywords(self, c: Call[ast.AST]) -> None:
        """``Header(frame_id="/map")``, ``VectorStamped(x=10, frame_id="/" + robot + "/base_link")``: a keyword
        argument named for a frame written out invalid, reported where it is written."""
        for key, node in c.kwargs.items():
            if frame_variable(key):
                value = node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None
                self.frame_checked(f"{c.name}({key}=...)", node, value, isinstance(node, ast.Constant), c.line)

    def message(self, c: Call[ast.AST], kind: str) -> Value:
        """``Odometry(child_frame_id="base")``, ``TFMessage([t])``, ``TFMessage(transforms=[t])``."""
        if kind == TF_MESSAGE:
            rec = tf_message(c.name, "", c.line)
            given = c.args[0] if c.args else c.kwargs.get("transforms")
            if given is not None:
                rec.set("transforms", self.eval(given))
            return rec
        rec = Record(kind, c.name, "", c.line, escaped=bool(c.args), ros1=self.f.ros1)  # positional arguments: a copy or unknown fields
        for key, value in c.kwargs.items():
            rec.set(key, self.eval(value))
        return rec

    def user_call(self, c: Call[ast.AST]) -> Value:
        receiver = c.receiver
        fn = self.f.functions.get(c.name)
        is_own = receiver is None or (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"))
        values = [self.eval(a) for a in c.args]
        named = {k: self.eval(v) for k, v in c.kwargs.items()}
        if (fn is not None and not is_own and len(values) == 1 and not named and isinstance(values[0], Record)
                and values[0].kind in (ODOMETRY, TRANSFORM, STAMPED) and self.f.publishes_parameter(fn)):
            # `node.publish_imu(imu_msg)`: a method of the file that only publishes the message it is handed
            # (ros2_icm20948's driver node): the message goes out as it is, from here
            self.published(values[0], c)
            return None
        for value in [*values, *named.values()]:
            if isinstance(value, Record):
                value.escaped = True
        if fn is None and receiver is None and self.emit:
            found = self.f.imported_function(c.name)
            if found is None:
                return None
            self.frame_arguments(c, found[1], skip_self=False)
            return self.imported_call(c, found, values, named)
        if fn is None or not is_own or not self.emit:
            return None
        self.frame_arguments(c, fn, skip_self=receiver is not None)
        bound = _bind(fn, values, named, skip_self=receiver is not None)
        return self.enter(c.line, bool(bound), lambda: self.f.call(fn, bound))

    def frame_arguments(self, c: Call[ast.AST], fn: ast.FunctionDef | ast.AsyncFunctionDef, skip_self: bool) -> None:
        """A string literal passed by position where the function takes a parameter named for a frame
        (``make_marker("/map", ...)`` with ``def make_marker(frame_id, ...)``): checked as the frame id it is."""
        params = [a.arg for a in fn.args.posonlyargs + fn.args.args][1 if skip_self else 0 :]
        for param, arg in zip(params, c.args):
            if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and frame_variable(param):
                self.frame_checked(f"{c.name}({param}=...)", arg, arg.value, True, arg.lineno)

    def imported_call(self, c: Call[ast.AST], found: tuple[_PyFile, ast.FunctionDef | ast.AsyncFunctionDef], values: list[Value],
                      named: dict[str, Value]) -> Value:
        """A function of another module of the package: walked there; a message it returns counts as built at the
        call, and a finding about it names the function and its module ("built at line 70 by
        field_boundary_to_marker() in soccer_vision_3d_rviz_markers/conversion.py")."""
        lib, fn = found
        lib.steps = self.f.steps  # its walk counts against this file's budget
        try:
            result = lib.call(fn, _bind(fn, values, named, skip_self=False))
        finally:
            self.f.steps = lib.steps
            lib.sink.facts.findings.clear()  # what it reports is its own file's, found when that file is scanned
        if isinstance(result, Record):
            return replace(result, name="", line=c.line, local=True, made_by=f"{c.name}() in {lib.sink.facts.path}")
        return fresh(result)

    # methods on a value (the _METHODS table)
    def m_parameter_value(self, c: Call[ast.AST], obj: Value) -> Result:
        return obj if isinstance(obj, (ParamRef, str)) else MISSING

    def m_append(self, c: Call[ast.AST], obj: Value) -> Result:
        if not isinstance(obj, ListValue) or c.n != 1:
            return MISSING
        value = self.eval(c.args[0])
        obj.items.extend(value.items if c.name == "extend" and isinstance(value, ListValue) else [value])
        return None

    # tf, publish and parameter APIs (the API table, beside SHARED_API's)
    def h_send_transform(self, c: Call[ast.AST]) -> Result:
        n = c.n
        if n < 1 and "transform" not in c.kwargs:
            return MISSING
        if n == 5:  # ROS 1 tf: sendTransform(translation, rotation, time, child, parent)
            args = c.args
            rec = Record(TRANSFORM, "tf.TransformBroadcaster", "", c.line)
            origin, quat = as_vector(self.eval(args[0])), self.eval(args[1])
            rot = quat.rot if isinstance(quat, QuatList) else _as_rot(quat, "xyzw")
            rec.set("transform", TfValue(rot, (origin[0], origin[1], origin[2]) if origin is not None and len(origin) == 3 else None))
            rec.set("child_frame_id", self.eval(args[3]))
            rec.set("header.frame_id", self.eval(args[4]))
            rec.rotation_line = getattr(args[1], "lineno", c.line)
            value: Value = rec
            frames_line = getattr(args[3], "lineno", c.line)  # a call over lines: where its frames are written, the line to change
            if self.emit:
                self.f.sink.add(slot_name_finding(ast.unparse(args[4]), ast.unparse(args[3]), self.f.sink.loc(frames_line), ast.unparse(args[1])))
                for slot, field_name, arg in (("child", "child_frame_id", args[3]), ("parent", "header.frame_id", args[4])):
                    if not isinstance(arg, ast.Constant):  # a literal is checked with the edge it names
                        self.frame_checked(f"sendTransform({slot})", arg, rec.get(field_name), False, getattr(arg, "lineno", c.line))
            self.broadcast(value, self.static_receiver(c.receiver), frames_line, c.args[0])  # selfie_f1tenth's swapped child and parent
            return None
        at = c.args[0] if n else c.kwargs["transform"]
        self.broadcast(self.eval(at), self.static_receiver(c.receiver), c.line, at)
        return None

    def h_lookup(self, c: Call[ast.AST]) -> Result:
        n, kwargs = c.n, c.kwargs
        if c.receiver is None or not (n >= 2 or {"target_frame", "source_frame"} <= set(kwargs)):
            return MISSING
        values = [self.eval(a) for a in c.args]
        target = self.eval(kwargs["target_frame"]) if "target_frame" in kwargs else values[0]
        full = c.name.endswith("_full") or c.name.endswith("full_async")
        if "source_frame" in kwargs:
            source = self.eval(kwargs["source_frame"])
        else:
            source = values[2] if full and n >= 3 else values[1] if n >= 2 else None
        self.looked_up(c, target, source, time_travel=full, tf2="_" in c.name)  # tf2_ros' snake_case API; tf's is camelCase
        return None

    def h_transform(self, c: Call[ast.AST]) -> Result:
        if c.receiver is None or c.n < 2:
            return MISSING
        first, second = self.eval(c.args[0]), self.eval(c.args[1])
        data, target = (second, first) if c.name != "transform" else (first, second)
        self.transformed(target, data, c.line, c.args[0] if c.name != "transform" else c.args[1])
        return None

    def h_declare_parameters(self, c: Call[ast.AST]) -> Result:
        if c.n < 2:
            return MISSING
        ns = self.eval(c.args[0])
        entries = self.eval(c.args[1])
        if isinstance(entries, ListValue):
            for entry in entries.items:
                if isinstance(entry, ListValue) and len(entry.items) >= 2 and isinstance(entry.items[0], str):
                    key = f"{ns}.{entry.items[0]}" if isinstance(ns, str) and ns else entry.items[0]
                    if isinstance(param_default(entry.items[1]), (str, float)):
                        self.f.params.setdefault(key, entry.items[1])
        return None

    def h_get_parameter(self, c: Call[ast.AST]) -> Result:
        if c.n < 1:
            return MISSING
        pname = self.eval(c.args[0])
        return ParamRef(pname) if isinstance(pname, str) else None

    def h_get_param(self, c: Call[ast.AST]) -> Result:
        """``rospy.get_param(name, default)``."""
        if c.n < 1:
            return MISSING
        pname = self.eval(c.args[0])
        return self.param_value(pname, param_default(self.eval(c.args[1]), pname) if c.n >= 2 else None, c.line)

    def static_receiver(self, receiver: ast.AST | None) -> bool:
        if receiver is None:
            return False
        if isinstance(receiver, ast.Call):
            return _dotted(receiver.func).endswith("StaticTransformBroadcaster")
        p = self.path(receiver)
        return p is not None and not p[1] and p[0] in self.f.static_broadcasters

    def numbers(self, args: Sequence[ast.AST]) -> list[float] | None:
        vals = [as_number(self.eval(a)) for a in args]
        nums = [v for v in vals if v is not None]
        return nums if len(nums) == len(vals) else None

    # numpy, tf_transformations, transforms3d, scipy and message builders (the _BUILDERS table)
    def b_euler(self, c: Call[ast.AST]) -> Result:
        if c.n < 3:
            return MISSING
        axes = self.eval(c.kwargs["axes"]) if "axes" in c.kwargs else (self.eval(c.args[3]) if c.n >= 4 else "sxyz")
        if axes in ("sxyz", "rzyx"):  # the third or the first angle is the yaw; a heading alone (the others constant)
            yaw, others = (c.args[2], c.args[:2]) if axes == "sxyz" else (c.args[0], c.args[1:3])
            if all(as_number(self.eval(a)) is not None for a in others):
                self.yaw_given(self.eval(yaw), c.line)
        rpy = self.numbers(c.args[:3])
        rot = rot_from_euler_axes(rpy[0], rpy[1], rpy[2], axes) if rpy is not None and isinstance(axes, str) else TOP_ROT
        if rpy is None and axes == "sxyz" and isinstance(heading := self.eval(c.args[2]), Heading):
            rot = Rot(heading=heading, heading_line=c.line)  # a full attitude from the data: judged where it is written out
        if c.name == "quaternion_from_euler":
            return QuatList(rot, self.tf_order(c))
        return QuatList(rot, "wxyz") if c.name == "euler2quat" else rot

    def own_quaternion(self, c: Call[ast.AST]) -> Value:
        """A call of the file's own Euler-to-quaternion function: its quaternion in the order its body computes
        (:mod:`.own_euler`); a rotation with nothing known when that order is not known."""
        order = self.f.own_quaternions[c.name]
        if order is None:
            return TOP_ROT
        rpy = self.numbers(c.args[:3]) if c.n >= 3 else None
        return QuatList(rot_from_rpy(*rpy) if rpy is not None else TOP_ROT, order)

    def b_array(self, c: Call[ast.AST]) -> Result:
        if c.n < 1:
            return MISSING
        value = self.eval(c.args[0])
        m = as_matrix(value)
        if m is not None and len(m) in (3, 4) and all(len(r) == len(m) for r in m):
            return rot_from_matrix(m)
        return value

    def b_eye(self, c: Call[ast.AST]) -> Result:
        return IDENTITY_ROT if c.n >= 1 and self.numbers(c.args[:1]) in ([3.0], [4.0]) else MISSING

    def b_dot(self, c: Call[ast.AST]) -> Result:
        if c.n == 2:
            return self.matmul(self.eval(c.args[0]), self.eval(c.args[1]))
        if c.name == "dot" and c.n == 1 and c.receiver is not None:
            return self.matmul(self.eval(c.receiver), self.eval(c.args[0]))
        return MISSING

    def b_inverse(self, c: Call[ast.AST]) -> Result:
        if c.n > 1:
            return MISSING
        value = self.eval(c.args[0]) if c.n == 1 else self.eval(c.receiver) if c.receiver is not None else None
        if isinstance(value, Rot):
            return rot_inverse(value)
        if isinstance(value, QuatList):
            return QuatList(rot_inverse(value.rot), value.order)
        return None

    def b_quaternion_multiply(self, c: Call[ast.AST]) -> Result:
        if c.n != 2:
            return MISSING
        a, b = self.eval(c.args[0]), self.eval(c.args[1])
        order = self.tf_order(c) if c.name == "quaternion_multiply" else "wxyz"
        return QuatList(rot_mul(_as_rot(a, order), _as_rot(b, order)), order)

    def b_quaternion_inverse(self, c: Call[ast.AST]) -> Result:
        if c.n != 1:
            return MISSING
        order = "wxyz" if c.name.startswith("q") else self.tf_order(c)
        return QuatList(rot_inverse(_as_rot(self.eval(c.args[0]), order)), order)

    def b_quaternion_matrix(self, c: Call[ast.AST]) -> Result:
        if c.n != 1:
            return MISSING
        return _as_rot(self.eval(c.args[0]), self.tf_order(c) if c.name == "quaternion_matrix" else "wxyz")

    def b_quaternion_from_matrix(self, c: Call[ast.AST]) -> Result:
        if c.n != 1:
            return MISSING
        value = self.eval(c.args[0])
        return QuatList(value if isinstance(value, Rot) else TOP_ROT, self.tf_order(c) if c.name == "quaternion_from_matrix" else "wxyz")

    def tf_order(self, c: Call[ast.AST]) -> str:
        """The order of a ``*quaternion*`` function's quaternions: x, y, z, w for tf's transformations, w, x, y, z
        for the ``transformations`` module it was copied from."""
        called = _dotted(c.receiver) if c.receiver is not None else c.name
        return "wxyz" if called in self.f.scalar_first else "xyzw"

    def b_from_euler(self, c: Call[ast.AST]) -> Result:
        if c.n < 2:
            return MISSING
        seq, angles = self.eval(c.args[0]), as_vector(self.eval(c.args[1]))
        flag = c.kwargs.get("degrees")
        degrees = isinstance(flag, ast.Constant) and flag.value is True
        if seq == "xyz" and angles is not None and len(angles) == 3:  # lower case: extrinsic x, y, z = roll, pitch, yaw
            r, p, y = (math.radians(a) for a in angles) if degrees else angles
            return rot_from_rpy(r, p, y)
        return TOP_ROT

    def b_from_quat(self, c: Call[ast.AST]) -> Result:
        return _as_rot(self.eval(c.args[0]), "xyzw") if c.n == 1 else MISSING

    def b_from_matrix(self, c: Call[ast.AST]) -> Result:
        if c.n != 1:
            return MISSING
        value = self.eval(c.args[0])
        return value if isinstance(value, Rot) else TOP_ROT

    def b_kdl_rpy(self, c: Call[ast.AST]) -> Result:
        """PyKDL's ``Rotation.RPY(roll, pitch, yaw)``: about the fixed x, y, z axes, as tf's setRPY."""
        if c.receiver is None or not _dotted(c.receiver).endswith("Rotation") or c.n != 3:
            return MISSING
        return self.rpy(c.args, c.line)

    def b_as_quat(self, c: Call[ast.AST]) -> Result:
        if c.receiver is None:
            return MISSING
        value = self.eval(c.receiver)
        return QuatList(value, "xyzw") if isinstance(value, Rot) else None

    def b_as_matrix(self, c: Call[ast.AST]) -> Result:
        if c.receiver is None:
            return MISSING
        value = self.eval(c.receiver)
        return value if isinstance(value, Rot) else None

    def b_math(self, c: Call[ast.AST]) -> Result:
        if c.n != 1 or not (c.receiver is None or _dotted(c.receiver) in ("math", "np", "numpy")):
            return MISSING
        return apply_math(c.name, self.eval(c.args[0]))

    def b_quaternion(self, c: Call[ast.AST]) -> Result:
        if c.n == 1 and isinstance(c.args[0], ast.Starred) and not c.kwargs:
            # `Quaternion(*quat)`: the sequence's items as x, y, z, w, whatever order it holds them in
            value = self.eval(c.args[0].value)
            if isinstance(value, QuatList):
                return value.rot if value.order == "xyzw" else rot_from_components([value.item(i) for i in range(4)])
            return _as_rot(value, "xyzw")
        if c.n != 4 and not c.kwargs:
            return MISSING
        comps = [self.field(c, i, a, 1.0 if a == "w" else 0.0) for i, a in enumerate("xyzw")]
        shifted = component_order(comps)
        if shifted is not None:
            if self.emit:
                written = ", ".join([*map(self.text, c.args), *(f"{k}={self.text(v)}" for k, v in c.kwargs.items())])
                self.f.sink.add(shifted_components_finding(f"{c.name}({written})", shifted, self.f.sink.loc(c.line)))
            return TOP_ROT
        return rot_from_components(comps)

    def b_vector3(self, c: Call[ast.AST]) -> Result:
        if c.n != 3 and not c.kwargs:
            return MISSING
        vals = [self.field(c, i, a, 0.0) for i, a in enumerate("xyz")]
        nums = [v for v in vals if isinstance(v, float)]
        return tuple(nums) if len(nums) == len(vals) else None

    def field(self, c: Call[ast.AST], i: int, name: str, default: float) -> Value:
        """A message constructor's field: by keyword, else by position, else the message default."""
        if name in c.kwargs:
            return self.eval(c.kwargs[name])
        return self.eval(c.args[i]) if i < c.n else default

    def b_transform(self, c: Call[ast.AST]) -> Result:
        if not c.kwargs:
            return MISSING
        rot, origin = self.eval(c.kwargs.get("rotation")), self.eval(c.kwargs.get("translation"))
        vec = origin if isinstance(origin, tuple) and len(origin) == 3 else None
        return TfValue(rot if isinstance(rot, Rot) else TOP_ROT, (vec[0], vec[1], vec[2]) if vec is not None else None)

    def b_header(self, c: Call[ast.AST]) -> Result:
        rec = Record(HEADER, c.name, "", c.line)
        for key, value in c.kwargs.items():
            rec.set(key, self.eval(value))
        return rec

    def b_empty_header(self, c: Call[ast.AST]) -> Result:
        """cv_bridge's conversions and camera_info_manager_py's getCameraInfo: the message they return has an
        empty header (cv_bridge has no frame to give it; a calibration file holds none), unless the conversion is
        given one (``cv2_to_imgmsg(img, "bgr8", header=msg.header)``, cv_bridge since Melodic)."""
        if c.receiver is None:
            return MISSING
        if c.name == "getCameraInfo" and self.f.camera_info_kept:
            return None
        return self.with_header(c, _EMPTY_HEADER_CONVERSIONS[c.name], c.kwargs.get("header", c.args[2] if c.n >= 3 else None))

    def b_cloud(self, c: Call[ast.AST]) -> Result:
        """point_cloud2's ``create_cloud(header, fields, points)`` and ``create_cloud_xyz32(header, points)``
        (sensor_msgs in ROS 1, sensor_msgs_py in ROS 2): the cloud holds the header it is given."""
        if not (self.called_module(c) or "").endswith("point_cloud2"):
            return MISSING
        return self.with_header(c, "PointCloud2", c.kwargs.get("header", c.args[0] if c.args else None))

    def with_header(self, c: Call[ast.AST], type_name: str, header: ast.AST | None) -> Value:
        """A library's new message whose header is ``header`` (the same object, as Python shares it): empty when
        none is given, the fields of a header this code built, unknown otherwise."""
        for a in (*c.args, *c.kwargs.values()):
            if a is not header:
                self.eval(a)
        rec = Record(STAMPED, type_name, "", c.line)
        if header is None or (isinstance(header, ast.Constant) and header.value is None):
            return rec
        given = self.eval(header)
        if not isinstance(given, Record) or given.kind != HEADER or not given.local or given.escaped:
            return None  # the header given: its frame is not known here
        rec.set("header", given)
        return rec

    def b_msgify(self, c: Call[ast.AST]) -> Result:
        """ros_numpy's ``msgify(Image, array, '32FC1')``: a new message of the class given, its header empty."""
        if not (self.called_module(c) or "").startswith("ros_numpy") or not c.args or not isinstance(c.args[0], ast.Name):
            return MISSING
        for a in c.args[1:]:
            self.eval(a)
        name = self.f.aliases.get(c.args[0].id, c.args[0].id)
        kind = message_kind(name, package_of(self.f.origins.get(c.args[0].id)))
        return Record(kind, name, "", c.line) if kind in (STAMPED, ODOMETRY) else None

    def b_copy(self, c: Call[ast.AST]) -> Result:
        """``copy.deepcopy(msg)`` / ``copy.copy(msg)``: a message with the fields of the one copied."""
        if self.called_module(c) != "copy" or c.n != 1:
            return MISSING
        return fresh(self.eval(c.args[0]))

    def called_module(self, c: Call[ast.AST]) -> str | None:
        """The module a call's function comes from, by the file's imports (``point_cloud2.create_cloud`` with
        ``from sensor_msgs_py import point_cloud2``: ``sensor_msgs_py.point_cloud2``)."""
        receiver = c.receiver
        return self.f.module_of(ast.Attribute(receiver, c.name) if isinstance(receiver, ast.expr) else ast.Name(c.name))


_CONFIG_GETTERS = frozenset({"get", "getArg", "get_arg", "getParam", "get_config", "getConfig", "setdefault"})


def _config_read(c: Call[ast.AST]) -> bool:
    """A method reading a frame-named key of a configuration with a literal default, as a parameter read is: a
    plugin's ``self.getArg('frame_id', '/map')`` (jsk_teleop_joy), a dict's ``config.get('base_frame', 'base')``."""
    if c.receiver is None or c.n != 2 or c.kwargs or c.name not in _CONFIG_GETTERS:
        return False
    key, default = c.args
    return (isinstance(key, ast.Constant) and isinstance(key.value, str) and frame_variable(key.value)
            and isinstance(default, ast.Constant) and isinstance(default.value, str))


def _bind(fn: ast.FunctionDef | ast.AsyncFunctionDef, values: list[Value], named: dict[str, Value], skip_self: bool) -> tuple[tuple[str, Value], ...]:
    """Constant arguments by parameter name (``self`` skipped for method calls), for the callee's walk."""
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if skip_self and params:
        params = params[1:]
    pairs = [*zip(params, values), *((k, v) for k, v in named.items() if k in params or any(a.arg == k for a in fn.args.kwonlyargs))]
    return tuple(sorted((k, v) for k, v in pairs if isinstance(v, (str, float, Rot, QuatList))))


def _defaults(fn: ast.FunctionDef | ast.AsyncFunctionDef, run: _Run, sink: FactSink | None = None) -> dict[str, Value]:
    """Parameter default values that are constants (``def send(child, parent='base_link')``); with ``sink``, a
    frame id written out as the default of a parameter named for a frame is checked at its line
    (``def visualize_point(self, pts, publisher, frame='/map')``: Platooning-F1Tenth's markers)."""
    positional = fn.args.posonlyargs + fn.args.args
    pairs = list(zip(positional[len(positional) - len(fn.args.defaults) :], fn.args.defaults))
    pairs += [(a, d) for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None]
    out: dict[str, Value] = {}
    for arg, default in pairs:
        value = run.eval(default)
        if isinstance(value, (str, float)):
            out[arg.arg] = value
        if sink is not None and isinstance(default, ast.Constant) and isinstance(value, str) and frame_variable(arg.arg):
            sink.add(frame_id_finding(value, sink.loc(default.lineno), f"default of parameter '{arg.arg}' of {fn.name}()"))
    return out


def percent_format(template: str, args: Value) -> str | None:
    """``"%s/%s" % (prefix, frame)`` when every argument is a known string and every placeholder is ``%s``."""
    values = args.items if isinstance(args, ListValue) else [args]
    if not all(isinstance(v, str) for v in values) or template.replace("%%", "").count("%") != template.count("%s") or template.count("%s") != len(values):
        return None
    # built as a concatenation, so the same size cap holds ("%s%s" % (a, a) in a loop doubles)
    pieces = template.replace("%%", "\0").split("%s")
    return concat([p for i, piece in enumerate(pieces) for p in ((piece.replace("\0", "%"),) + ((values[i],) if i < len(values) else ()))])


def _as_rot(value: Value, order: str) -> Rot:
    if isinstance(value, QuatList):
        return value.rot
    if isinstance(value, Rot):
        return value
    vec = as_vector(value)
    if vec is not None and len(vec) == 4:
        return rot_from_quaternion(vec if order == "xyzw" else (vec[1], vec[2], vec[3], vec[0]))
    return TOP_ROT


_STATEMENT_BLOCKS = ("body", "orelse", "finalbody")
_TRY_NODES: tuple[type, ...] = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))  # try/except* since 3.11
_OPS: dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}


def _assigned_whole(name: str, text: str) -> bool:
    """``self.odom = msg`` somewhere: the member is replaced by a message that may carry its frames; a fresh one
    built with no arguments (``self.odom = Odometry()``) carries none, nor does ``None``."""
    pattern = re.compile(rf"(?<![\w.]){re.escape(name)}\s*=(?!=)\s*((?:[\w.]+\(\s*\)|None)\s*(?:#.*)?$)?", re.MULTILINE)
    return any(m.group(1) is None for m in pattern.finditer(text))


_ENDS_BLOCK = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def reachable(statements: list[ast.stmt]) -> list[ast.stmt]:
    """The statements up to the first that leaves the block: code left after an early ``return`` (a stub's
    ``return Msg(), Msg()`` above the real body) never runs, and must not stand for what the function does."""
    for i, stmt in enumerate(statements):
        if isinstance(stmt, _ENDS_BLOCK):
            return statements[: i + 1]
    return list(statements)


def _table(handler: Callable[..., Result], *names: str) -> dict[str, Callable[..., Result]]:
    return dict.fromkeys(names, handler)


_Run.STATEMENTS = {
    ast.Assign: _Run.s_assign,
    ast.AnnAssign: _Run.s_ann_assign,
    ast.AugAssign: _Run.s_aug_assign,
    ast.Expr: _Run.s_expr,
    ast.ClassDef: _Run.s_class,
    ast.Return: _Run.s_return,
    ast.If: _Run.s_if,
    ast.While: _Run.s_if,
    ast.For: _Run.s_for,
    ast.AsyncFor: _Run.s_for,
    ast.With: _Run.s_with,
    ast.AsyncWith: _Run.s_with,
    **dict.fromkeys(_TRY_NODES, _Run.s_try),
}
_Run.kind = type
_Run.EXPRESSIONS = {
    ast.Constant: _Run.e_constant,
    ast.Name: _Run.e_name,
    ast.Attribute: _Run.e_attribute,
    ast.UnaryOp: _Run.e_unary,
    ast.BinOp: _Run.e_binary,
    ast.JoinedStr: _Run.e_fstring,
    ast.List: _Run.e_list,
    ast.Tuple: _Run.e_list,
    ast.Subscript: _Run.e_subscript,
    ast.Call: _Run.e_call,
    ast.IfExp: _Run.e_children,
    ast.BoolOp: _Run.e_children,
    ast.Compare: _Run.e_children,
}
# Rotation, vector and message builders by the called name.
def _outer_functions(tree: ast.Module) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module's functions and its classes' methods (not functions nested in them: their text is their outer's)."""
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            yield node
        elif isinstance(node, ast.ClassDef):
            stack.extend(node.body)


_BUILDERS: dict[str, Callable[[_Run, Call[ast.AST]], Result]] = {
    **_table(_Run.b_euler, "quaternion_from_euler", "euler2quat", "euler2mat", "euler_matrix"),
    **_table(_Run.b_array, "array", "asarray", "matrix", "asmatrix"),
    **_table(_Run.b_eye, "eye", "identity"),
    **_table(_Run.b_dot, "dot", "matmul"),
    **_table(_Run.b_inverse, "inv", "transpose", "pinv"),
    **_table(_Run.b_quaternion_multiply, "quaternion_multiply", "qmult"),
    **_table(_Run.b_quaternion_inverse, "quaternion_inverse", "quaternion_conjugate", "qinverse", "qconjugate"),
    **_table(_Run.b_quaternion_matrix, "quaternion_matrix", "quat2mat"),
    **_table(_Run.b_quaternion_from_matrix, "quaternion_from_matrix", "mat2quat"),
    "from_euler": _Run.b_from_euler,
    "from_quat": _Run.b_from_quat,
    **_table(_Run.b_from_matrix, "from_matrix", "from_dcm"),
    **_table(_Run.b_as_quat, "as_quat", "GetQuaternion"),  # scipy's Rotation, PyKDL's Rotation: x, y, z, w
    "RPY": _Run.b_kdl_rpy,
    **_table(_Run.b_as_matrix, "as_matrix", "as_dcm"),
    **_table(_Run.b_math, *MATH),
    "Quaternion": _Run.b_quaternion,
    "Vector3": _Run.b_vector3,
    "Transform": _Run.b_transform,
    "Header": _Run.b_header,
    **_table(_Run.b_empty_header, *_EMPTY_HEADER_CONVERSIONS),
    **_table(_Run.b_cloud, "create_cloud", "create_cloud_xyz32"),
    **_table(_Run.b_copy, "deepcopy", "copy"),
    "msgify": _Run.b_msgify,
}
# Methods on a value the walk holds (a parameter, a list).
_METHODS: dict[str, Callable[[_Run, Call[ast.AST], Value], Result]] = {
    **_table(_Run.m_parameter_value, "get_parameter_value", "get_value"),
    **_table(_Run.m_append, "append", "extend"),
}
_Run.API = {
    **SHARED_API,
    "sendTransform": _Run.h_send_transform,
    **_table(_Run.h_lookup, *_LOOKUPS),
    **_table(_Run.h_transform, "transform", "transformPoint", "transformPose"),
    "declare_parameters": _Run.h_declare_parameters,
    **_table(_Run.h_get_parameter, "get_parameter", "get_parameter_or"),
    **_table(_Run.h_get_param, "get_param", "search_param"),
}
