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
from typing import Any, Callable

from ...core.conventions import Conventions
from ..frame_ids import frame_id_finding, is_header_field
from ..model import FileFacts
from .angles import RPY_APIS, euler_slot_finding, is_vector_component, scalar_in_vector_slot
from .calls import STEP_BUDGET, BoundedCalls, Budget
from .facts import FactSink, keep_param, message_kind, param_default, slot_name_finding, static_broadcaster_names
from .values import (
    NAMED_NUMBERS,
    STAMPED,
    TF_MESSAGE,
    TOP_ROT,
    TRANSFORM,
    UNSET,
    Component,
    ListValue,
    ParamRef,
    QuatList,
    Record,
    Rot,
    TfValue,
    as_matrix,
    as_number,
    as_vector,
    binary_number,
    concat,
    fresh,
    is_transform,
    rot_from_matrix,
    rot_from_quaternion,
    rot_from_rpy,
    rot_inverse,
    rot_mul,
    tf_message,
)

_RELEVANT = re.compile(
    r"sendTransform|lookup_?[tT]ransform|can_?[tT]ransform|ransform|publish|frame|quaternion|Quaternion|euler|"
    r"param|Stamped|Odometry|NavSatFix|Scan|Imu|Cloud|Image|array|matrix|Rotation|mat2|quat"
)
# Functions that may give attributes or parameters their values: only these are walked in the first pass.
_LEARNS = re.compile(r"param|self\.\w+\s*(?::[^=\n]*)?=[^=]")
_STATIC_BROADCASTER = re.compile(r"((?:self\.)?\w+)\s*(?::\s*[\w.]+\s*)?=\s*[\w.]*StaticTransformBroadcaster\s*\(")
# cv_bridge conversions: the message they return has an empty header (cv_bridge has no frame to give it)
_EMPTY_HEADER_CONVERSIONS = {"cv2_to_imgmsg": "Image", "cv2_to_compressed_imgmsg": "CompressedImage"}
_EVAL_DEPTH = 120
_RECOVERY_ATTEMPTS = 5
_IDENTITY = rot_from_quaternion((0.0, 0.0, 0.0, 1.0))
_MATH: dict[str, Callable[[float], float]] = {
    "sin": math.sin,
    "cos": math.cos,
    "sqrt": math.sqrt,
    "radians": math.radians,
    "deg2rad": math.radians,
    "fabs": math.fabs,
    "abs": abs,
}
_LOOKUPS = {"lookup_transform", "lookupTransform", "can_transform", "canTransform", "wait_for_transform", "waitForTransform",
            "lookup_transform_full", "can_transform_full", "wait_for_transform_async", "wait_for_transform_full_async"}  # fmt: skip



def analyze_python(text: str, rel_path: str, conventions: Conventions | None = None, tree: ast.Module | None = None) -> FileFacts:
    """Frame facts of one Python file. Never raises: failures become a PARSE_ERROR finding.
    ``tree``: the file's syntax tree when the caller has parsed it already (it is only read)."""
    lines = text.count("\n") + 1
    sink = FactSink(rel_path, lines, conventions)
    try:
        if tree is None:
            tree = _parse(text, rel_path, sink)
        if tree is not None:
            _PyFile(text, sink).run(tree)
    except Exception as exc:  # a scanner must survive any input; report it and move on
        sink.parse_error(1, f"Python analysis failed ({type(exc).__name__}: {exc}); file skipped")
    return sink.facts


def _parse(text: str, rel_path: str, sink: FactSink) -> ast.Module | None:
    """Parse; on a syntax error report it and retry with the offending lines blanked (keeps what can be kept)."""
    lines = text.split("\n")
    for attempt in range(_RECOVERY_ATTEMPTS + 1):
        try:
            return ast.parse("\n".join(lines), filename=rel_path)
        except SyntaxError as exc:
            line = exc.lineno or 1
            if attempt == 0:
                sink.parse_error(line, f"Python syntax error ({exc.msg}); the rest of the file is analysed as recovered")
            if not 1 <= line <= len(lines):
                return None
            lines[line - 1] = ""
        except (RecursionError, MemoryError, ValueError) as exc:
            sink.parse_error(1, f"cannot parse ({type(exc).__name__}); file skipped")
            return None
    return None


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


class _PyFile(BoundedCalls):
    def __init__(self, text: str, sink: FactSink) -> None:
        super().__init__()
        self.lines = text.split("\n")
        self.sink = sink
        self.globals: dict[str, Any] = {}
        self.unknown_members: set[str] = set()  # attributes some method sets to a value not known statically
        self.members: dict[str, Any] = {}
        self.params: dict[str, Any] = {}
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef | None] = {}
        self.static_broadcasters = static_broadcaster_names(text, _STATIC_BROADCASTER)

    def run(self, tree: ast.Module) -> None:
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
        relevant = [f for f in functions if _RELEVANT.search(self.source(f))]
        try:
            _Run(self, emit=False, env=self.globals).block(tree.body)
            for fn in relevant:
                if _LEARNS.search(self.source(fn)):
                    _Run(self, emit=False).block(fn.body)
            _Run(self, emit=True, env=self.globals).block(tree.body)
            for fn in relevant:
                self.call(fn)
        except Budget:
            self.sink.parse_error(1, f"analysis stopped after {STEP_BUDGET} steps; later functions not analysed")

    def source(self, fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str:
        return "\n".join(self.lines[fn.lineno - 1 : fn.end_lineno or fn.lineno])

    def call(self, fn: ast.FunctionDef | ast.AsyncFunctionDef, bound: tuple[tuple[str, Any], ...] = ()) -> Any:
        """Analyse a function (reporting) once per distinct constant arguments, memoising its result."""

        def analyse() -> Any:
            run = _Run(self, emit=True)
            run.env.update(_defaults(fn, run))
            run.env.update(bound)
            run.block(fn.body)
            distinct = [r for i, r in enumerate(run.results) if r is not None and r not in run.results[:i]]
            return distinct[0] if len(distinct) == 1 else None

        return self.follow((fn.lineno, fn.col_offset), bound, analyse)


_MISSING = object()


class _Run:
    def __init__(self, file: _PyFile, emit: bool, env: dict[str, Any] | None = None) -> None:
        self.f = file
        self.emit = emit
        self.module = env is not None
        self.env: dict[str, Any] = env if env is not None else {}
        self.results: list[Any] = []
        self.depth = 0
        self.bind: tuple[int, str] | None = None

    # --- statements ---------------------------------------------------------------------
    def block(self, body: list[ast.stmt]) -> None:
        stack: list[ast.stmt] = list(reversed(body))
        f = self.f
        while stack:
            node: Any = stack.pop()  # Any: mypy does not narrow on type identity
            f.steps += 1
            if f.steps > STEP_BUDGET:
                raise Budget()
            t = type(node)
            if t is ast.Assign:
                self.assign_stmt(node.targets, node.value)
            elif t is ast.AnnAssign:
                if node.value is not None:
                    self.assign_stmt([node.target], node.value)
            elif t is ast.AugAssign:
                value = self.eval(node.value)
                current = self.eval(node.target)
                if isinstance(node.op, (ast.MatMult, ast.Mult)) and isinstance(current, Rot) and isinstance(value, Rot):
                    self.assign(node.target, rot_mul(current, value))
                else:
                    self.assign(node.target, binary_number(_OPS.get(type(node.op), ""), current, value))
            elif t is ast.Expr:
                self.eval(node.value)
            elif t is ast.Return:
                self.results.append(self.eval(node.value) if node.value is not None else None)
            elif t is ast.If or t is ast.While:
                self.eval(node.test)
                stack.extend(reversed(node.body + node.orelse))
            elif t is ast.For or t is ast.AsyncFor:
                stack.extend(reversed(node.body + node.orelse))
            elif t is ast.With or t is ast.AsyncWith:
                stack.extend(reversed(node.body))
            elif t in _TRY_NODES:
                inner: list[ast.stmt] = list(getattr(node, "body", []))
                for h in getattr(node, "handlers", []):
                    inner.extend(h.body)
                inner += getattr(node, "orelse", []) + getattr(node, "finalbody", [])
                stack.extend(reversed(inner))

    def assign_stmt(self, targets: list[ast.expr], value_node: ast.expr) -> None:
        first = targets[0]
        if isinstance(value_node, ast.Call) and isinstance(first, (ast.Name, ast.Attribute)):
            self.bind = (id(value_node), _dotted(first))
        value = self.eval(value_node)
        self.bind = None
        if self.emit:
            for target in targets:
                if isinstance(value_node, ast.Constant):
                    self.header_literal(target, value)
                p = self.path(target)
                if p is not None and is_vector_component(p[1]):
                    self.f.sink.add(scalar_in_vector_slot([p[0], *p[1]], ast.unparse(value_node), self.f.sink.loc(target.lineno)))
        for target in targets:
            if isinstance(target, (ast.Tuple, ast.List)):
                items: list[Any] = []
                if isinstance(value, QuatList):
                    items = [value.item(i) for i in range(4)]
                elif isinstance(value, ListValue):
                    items = list(value.items)
                for i, elt in enumerate(target.elts):
                    self.assign(elt, items[i] if i < len(items) else None)
            else:
                self.assign(target, value)

    def header_literal(self, target: ast.expr, value: Any) -> None:
        """``marker.header.frame_id = "/map"``: a frame id written out in full where it is used."""
        p = self.path(target)
        if p is not None and is_header_field(p[1]) and not is_transform(self.lookup(p[0])):
            self.f.sink.add(frame_id_finding(value, self.f.sink.loc(target.lineno), ".".join([p[0], *p[1]])))

    def keep_param(self, pname: Any, default: Any, line: int) -> None:
        keep_param(self.f.params, self.f.sink if self.emit else None, pname, default, line)

    # --- names --------------------------------------------------------------------------
    def path(self, node: ast.AST) -> tuple[str, list[str]] | None:
        fields: list[str] = []
        while isinstance(node, ast.Attribute):
            fields.append(node.attr)
            node = node.value
        if not isinstance(node, ast.Name):
            return None
        fields.reverse()
        base = node.id
        if base in ("self", "cls") and fields:
            base, fields = f"self.{fields[0]}", fields[1:]
        return base, fields

    def lookup(self, name: str) -> Any:
        for scope in (self.env, self.f.members):
            if name in scope:
                return scope[name]
        if name in self.f.globals:
            value = self.f.globals[name]
            if isinstance(value, Record):
                value.local = False  # a module global seen from a function: any function may fill or rebind it
            return value
        return NAMED_NUMBERS.get(name)

    def store(self, name: str, value: Any) -> None:
        """Locals live in the walk; ``self.`` attributes are learnt in the first pass and shadowed in the second."""
        if self.module or not name.startswith("self.") or self.emit:
            self.env[name] = _keep_type(self.env.get(name, self.f.members.get(name)), value)
        elif value is None or (value == "" and name in self.f.unknown_members):
            # set somewhere to what the analysis cannot know: an empty initial value says nothing
            self.f.unknown_members.add(name)
            if self.f.members.get(name) == "":
                del self.f.members[name]
        else:
            old = self.f.members.get(name)
            if not (isinstance(old, str) and isinstance(value, str)):
                if isinstance(value, Record):
                    value.local = False  # other methods may set its fields before it is published
                self.f.members[name] = _keep_type(old, value)

    def assign(self, target: ast.AST, value: Any) -> None:
        p = self.path(target)
        if p is None:
            return
        base, fields = p
        if isinstance(value, Record) and not value.name:
            value.name = ".".join([base, *fields])
        if not fields:
            self.store(base, value)
            return
        holder = self.lookup(base)
        if isinstance(holder, Record):
            holder.set(".".join(fields), value)

    # --- expressions --------------------------------------------------------------------
    def eval(self, node: ast.AST | None) -> Any:
        if node is None:
            return None
        f = self.f
        f.steps += 1  # inlined step()
        if f.steps > STEP_BUDGET:
            raise Budget()
        if self.depth > _EVAL_DEPTH:
            return None
        # Any exception ends the whole file's analysis (nothing below catches one and goes on),
        # so the depth need not be restored on the way out.
        self.depth += 1
        value = self._eval(node)
        self.depth -= 1
        return value

    def _eval(self, node: Any) -> Any:  # an ast.AST; Any: mypy does not narrow on type identity
        # ast.parse makes nodes of the exact classes: type identity is isinstance, without the calls
        t = type(node)
        if t is ast.Constant:
            v = node.value
            if isinstance(v, str):
                return v
            if isinstance(v, (int, float)) and not isinstance(v, bool):
                return float(v)
            return None
        if t is ast.Name:
            return self.lookup(node.id)
        if t is ast.Attribute:
            return self.attribute(node)
        if t is ast.UnaryOp:
            v = self.eval(node.operand)
            if isinstance(v, float) and isinstance(node.op, (ast.USub, ast.UAdd)):
                return -v if isinstance(node.op, ast.USub) else v
            return None
        if t is ast.BinOp:
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
        if t is ast.JoinedStr:
            parts = [self.eval(v.value) if isinstance(v, ast.FormattedValue) else self.eval(v) for v in node.values]
            return concat(parts)
        if t is ast.List or t is ast.Tuple:
            return ListValue([self.eval(e) for e in node.elts])
        if t is ast.Subscript:
            return self.subscript(node)
        if t is ast.Call:
            return self.call(node)
        if t is ast.IfExp or t is ast.BoolOp or t is ast.Compare:
            for child in ast.iter_child_nodes(node):
                self.eval(child)
        return None

    def attribute(self, node: ast.Attribute) -> Any:
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
        obj = self.eval(node.value)
        if node.attr in ("value", "string_value"):
            if isinstance(obj, ParamRef):
                return self.f.params.get(obj.name)
            return obj if isinstance(obj, (str, float)) else None
        if node.attr == "T" and isinstance(obj, Rot):
            return rot_inverse(obj)
        return None

    def subscript(self, node: ast.Subscript) -> Any:
        obj = self.eval(node.value)
        index = as_number(self.eval(node.slice))
        if index is None or index != int(index):
            return None
        i = int(index)
        if isinstance(obj, QuatList):
            return obj.item(i)
        if isinstance(obj, ListValue) and -len(obj.items) <= i < len(obj.items):
            return obj.items[i]
        return None

    def matmul(self, left: Any, right: Any) -> Any:
        """``a @ b`` / ``np.dot``: a matrix product, so an unknown operand is a top rotation (R15)."""
        if isinstance(left, Rot) or isinstance(right, Rot):
            return rot_mul(left if isinstance(left, Rot) else TOP_ROT, right if isinstance(right, Rot) else TOP_ROT)
        return None

    # --- calls --------------------------------------------------------------------------
    def call(self, node: ast.Call) -> Any:
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        receiver = func.value if isinstance(func, ast.Attribute) else None
        args = node.args
        kwargs = {k.arg: k.value for k in node.keywords if k.arg}
        line = node.lineno
        if self.emit and (name in RPY_APIS or name == "setEuler") and not kwargs:
            self.f.sink.add(euler_slot_finding(name, [ast.unparse(a) for a in args], self.f.sink.loc(line)))
        special = self.api(node, name, receiver, args, kwargs, line)
        if special is not _MISSING:
            return special
        if name in _EMPTY_HEADER_CONVERSIONS and receiver is not None:
            for a in args:
                self.eval(a)
            return Record(STAMPED, _EMPTY_HEADER_CONVERSIONS[name], "", line)
        kind = message_kind(name)
        if kind == TF_MESSAGE:  # TFMessage(), TFMessage([t]), TFMessage(transforms=[t])
            rec = tf_message(name, "", line)
            given = args[0] if args else kwargs.get("transforms")
            if given is not None:
                rec.set("transforms", self.eval(given))
            return rec
        if kind is not None:
            rec = Record(kind, name, "", line, escaped=bool(args))  # positional arguments: a copy or unknown fields
            for key, value in kwargs.items():
                rec.set(key, self.eval(value))
            return rec
        built = self.rotation_call(name, receiver, args, kwargs)
        if built is not _MISSING:
            return built
        if name == "Header":
            rec = Record("header", name, "", line)
            for key, value in kwargs.items():
                rec.set(key, self.eval(value))
            return rec
        obj = self.eval(receiver) if receiver is not None else None
        if name in ("get_parameter_value", "get_value") and isinstance(obj, (ParamRef, str)):
            return obj
        if name in ("append", "extend") and isinstance(obj, ListValue) and len(args) == 1:
            value = self.eval(args[0])
            obj.items.extend(value.items if name == "extend" and isinstance(value, ListValue) else [value])
            return None
        fn = self.f.functions.get(name)
        is_own = receiver is None or (isinstance(receiver, ast.Name) and receiver.id in ("self", "cls"))
        values = [self.eval(a) for a in args]
        named = {k: self.eval(v) for k, v in kwargs.items()}
        for value in [*values, *named.values()]:
            if isinstance(value, Record):
                value.escaped = True
        if fn is not None and is_own and self.emit:
            bound = _bind(fn, values, named, skip_self=receiver is not None)
            if not bound:
                return fresh(self.f.call(fn, bound))
            with self.f.sink.call_site(line):  # what the helper broadcasts is reported where its frames are named
                return fresh(self.f.call(fn, bound))
        return None

    def api(self, node: ast.Call, name: str, receiver: ast.expr | None, args: list[ast.expr], kwargs: dict[str, ast.expr], line: int) -> Any:
        n = len(args)
        if name == "sendTransform" and (n >= 1 or "transform" in kwargs):
            if n == 5:  # ROS 1 tf: sendTransform(translation, rotation, time, child, parent)
                value: Any = Record(TRANSFORM, "tf.TransformBroadcaster", "", line)
                origin, quat = as_vector(self.eval(args[0])), self.eval(args[1])
                rot = quat.rot if isinstance(quat, QuatList) else _quat_from_list(quat)
                value.set("transform", TfValue(rot, (origin[0], origin[1], origin[2]) if origin is not None and len(origin) == 3 else None))
                value.set("child_frame_id", self.eval(args[3]))
                value.set("header.frame_id", self.eval(args[4]))
                if self.emit:
                    self.f.sink.add(slot_name_finding(ast.unparse(args[4]), ast.unparse(args[3]), self.f.sink.loc(line)))
            else:
                value = self.eval(args[0] if n else kwargs["transform"])
            if self.emit:
                self.f.sink.broadcast(value, self.static_receiver(receiver), line)
            return None
        if name == "publish" and n >= 1:
            value = self.eval(args[-1])
            if self.emit:
                self.f.sink.publish(value, line, static=receiver is not None and "static" in ast.unparse(receiver).lower())
            return None
        if name in _LOOKUPS and receiver is not None and (n >= 2 or {"target_frame", "source_frame"} <= set(kwargs)):
            values = [self.eval(a) for a in args]
            target = self.eval(kwargs["target_frame"]) if "target_frame" in kwargs else values[0]
            full = name.endswith("_full") or name.endswith("full_async")
            if "source_frame" in kwargs:
                source = self.eval(kwargs["source_frame"])
            else:
                source = values[2] if full and n >= 3 else values[1] if n >= 2 else None
            if self.emit:
                bound = self.bind[1] if self.bind is not None and self.bind[0] == id(node) else None
                self.f.sink.lookup(target, source, line, bound, time_travel=full)
            return None
        if name in ("transform", "transformPoint", "transformPose") and receiver is not None and n >= 2:
            first, second = self.eval(args[0]), self.eval(args[1])
            data, target = (second, first) if name != "transform" else (first, second)
            if self.emit and isinstance(data, Record):
                self.f.sink.lookup(target, data.get("header.frame_id"), line)
            return None
        if name == "declare_parameter" and n >= 1:
            pname = self.eval(args[0])
            default = param_default(self.eval(args[1]) if n >= 2 else self.eval(kwargs.get("value")))
            if isinstance(pname, str) and isinstance(default, (str, float)):
                self.keep_param(pname, default, line)
                return default
            return ParamRef(pname) if isinstance(pname, str) else None
        if name == "declare_parameters" and n >= 2:
            ns = self.eval(args[0])
            entries = self.eval(args[1])
            if isinstance(entries, ListValue):
                for entry in entries.items:
                    if isinstance(entry, ListValue) and len(entry.items) >= 2 and isinstance(entry.items[0], str):
                        key = f"{ns}.{entry.items[0]}" if isinstance(ns, str) and ns else entry.items[0]
                        if isinstance(param_default(entry.items[1]), (str, float)):
                            self.f.params.setdefault(key, entry.items[1])
            return None
        if name in ("get_parameter", "get_parameter_or") and n >= 1:
            pname = self.eval(args[0])
            if not isinstance(pname, str):
                return None
            return ParamRef(pname)
        if name in ("get_param", "search_param") and n >= 1:  # rospy.get_param(name, default)
            pname, default = self.eval(args[0]), param_default(self.eval(args[1])) if n >= 2 else None
            self.keep_param(pname, default, line)
            return self.f.params.get(pname, default) if isinstance(pname, str) else default
        return _MISSING

    def static_receiver(self, receiver: ast.expr | None) -> bool:
        if receiver is None:
            return False
        if isinstance(receiver, ast.Call):
            return _dotted(receiver.func).endswith("StaticTransformBroadcaster")
        p = self.path(receiver)
        return p is not None and not p[1] and p[0] in self.f.static_broadcasters

    def numbers(self, args: list[ast.expr]) -> list[float] | None:
        vals = [as_number(self.eval(a)) for a in args]
        return [v for v in vals if v is not None] if all(v is not None for v in vals) else None

    def rotation_call(self, name: str, receiver: ast.expr | None, args: list[ast.expr], kwargs: dict[str, ast.expr]) -> Any:
        """numpy, tf_transformations, transforms3d and scipy rotation builders and algebra."""
        n = len(args)
        axes = self.eval(kwargs.get("axes")) if "axes" in kwargs else (self.eval(args[3]) if n >= 4 else "sxyz")
        if name in ("quaternion_from_euler", "euler2quat", "euler2mat", "euler_matrix") and n >= 3:
            rpy = self.numbers(args[:3])
            rot = rot_from_rpy(*rpy) if rpy is not None and axes == "sxyz" else TOP_ROT
            if name == "quaternion_from_euler":
                return QuatList(rot, "xyzw")
            return QuatList(rot, "wxyz") if name == "euler2quat" else rot
        if name in ("array", "asarray", "matrix", "asmatrix") and n >= 1:
            value = self.eval(args[0])
            m = as_matrix(value)
            if m is not None and len(m) in (3, 4) and all(len(r) == len(m) for r in m):
                return rot_from_matrix(m)
            return value
        if name in ("eye", "identity") and n >= 1 and self.numbers(args[:1]) in ([3.0], [4.0]):
            return _IDENTITY
        if name in ("dot", "matmul") and n == 2:
            return self.matmul(self.eval(args[0]), self.eval(args[1]))
        if name == "dot" and n == 1 and receiver is not None:
            return self.matmul(self.eval(receiver), self.eval(args[0]))
        if name in ("inv", "transpose", "pinv") and n <= 1:
            value = self.eval(args[0]) if n == 1 else self.eval(receiver) if receiver is not None else None
            if isinstance(value, Rot):
                return rot_inverse(value)
            if isinstance(value, QuatList):
                return QuatList(rot_inverse(value.rot), value.order)
            return None
        if name in ("quaternion_multiply", "qmult") and n == 2:
            a, b = self.eval(args[0]), self.eval(args[1])
            order = "xyzw" if name == "quaternion_multiply" else "wxyz"
            ra, rb = _as_rot(a, order), _as_rot(b, order)
            return QuatList(rot_mul(ra, rb), order)
        if name in ("quaternion_inverse", "quaternion_conjugate", "qinverse", "qconjugate") and n == 1:
            order = "wxyz" if name.startswith("q") else "xyzw"
            return QuatList(rot_inverse(_as_rot(self.eval(args[0]), order)), order)
        if name in ("quaternion_matrix", "quat2mat") and n == 1:
            return _as_rot(self.eval(args[0]), "xyzw" if name == "quaternion_matrix" else "wxyz")
        if name in ("quaternion_from_matrix", "mat2quat") and n == 1:
            value = self.eval(args[0])
            return QuatList(value if isinstance(value, Rot) else TOP_ROT, "xyzw" if name == "quaternion_from_matrix" else "wxyz")
        if name == "from_euler" and n >= 2:
            seq, angles = self.eval(args[0]), as_vector(self.eval(args[1]))
            degrees = isinstance(kwargs.get("degrees"), ast.Constant) and getattr(kwargs["degrees"], "value", False) is True
            if seq == "xyz" and angles is not None and len(angles) == 3:  # lower case: extrinsic x, y, z = roll, pitch, yaw
                r, p, y = (math.radians(a) for a in angles) if degrees else angles
                return rot_from_rpy(r, p, y)
            return TOP_ROT
        if name == "from_quat" and n == 1:
            return _as_rot(self.eval(args[0]), "xyzw")
        if name in ("from_matrix", "from_dcm") and n == 1:
            value = self.eval(args[0])
            return value if isinstance(value, Rot) else TOP_ROT
        if name == "as_quat" and receiver is not None:
            value = self.eval(receiver)
            return QuatList(value, "xyzw") if isinstance(value, Rot) else None
        if name in ("as_matrix", "as_dcm") and receiver is not None:
            value = self.eval(receiver)
            return value if isinstance(value, Rot) else None
        if name in _MATH and n == 1 and (receiver is None or _dotted(receiver) in ("math", "np", "numpy")):
            v = as_number(self.eval(args[0]))
            try:
                return float(_MATH[name](v)) if v is not None else None
            except ValueError:
                return None
        if name == "Quaternion" and (n == 4 or kwargs):
            comps = [self.eval(kwargs[a]) if a in kwargs else (self.eval(args[i]) if i < n else (1.0 if a == "w" else 0.0)) for i, a in enumerate("xyzw")]
            return _rot_from_components(comps)
        if name == "Vector3" and (n == 3 or kwargs):
            vals = [self.eval(kwargs[a]) if a in kwargs else (self.eval(args[i]) if i < n else 0.0) for i, a in enumerate("xyz")]
            return tuple(vals) if all(isinstance(v, float) for v in vals) else None
        if name == "Transform" and kwargs:
            rot, origin = self.eval(kwargs.get("rotation")), self.eval(kwargs.get("translation"))
            return TfValue(rot if isinstance(rot, Rot) else TOP_ROT, origin if isinstance(origin, tuple) else None)
        return _MISSING


def _bind(fn: ast.FunctionDef | ast.AsyncFunctionDef, values: list[Any], named: dict[str, Any], skip_self: bool) -> tuple[tuple[str, Any], ...]:
    """Constant arguments by parameter name (``self`` skipped for method calls), for the callee's walk."""
    params = [a.arg for a in fn.args.posonlyargs + fn.args.args]
    if skip_self and params:
        params = params[1:]
    pairs = [*zip(params, values), *((k, v) for k, v in named.items() if k in params or any(a.arg == k for a in fn.args.kwonlyargs))]
    return tuple(sorted((k, v) for k, v in pairs if isinstance(v, (str, float, Rot, QuatList))))


def _defaults(fn: ast.FunctionDef | ast.AsyncFunctionDef, run: _Run) -> dict[str, Any]:
    """Parameter default values that are constants (``def send(child, parent='base_link')``)."""
    positional = fn.args.posonlyargs + fn.args.args
    pairs = list(zip(positional[len(positional) - len(fn.args.defaults) :], fn.args.defaults))
    pairs += [(a, d) for a, d in zip(fn.args.kwonlyargs, fn.args.kw_defaults) if d is not None]
    out = {}
    for arg, default in pairs:
        value = run.eval(default)
        if isinstance(value, (str, float)):
            out[arg.arg] = value
    return out


def percent_format(template: str, args: Any) -> str | None:
    """``"%s/%s" % (prefix, frame)`` when every argument is a known string and every placeholder is ``%s``."""
    values = args.items if isinstance(args, ListValue) else [args]
    if not all(isinstance(v, str) for v in values) or template.replace("%%", "").count("%") != template.count("%s") or template.count("%s") != len(values):
        return None
    # built as a concatenation, so the same size cap holds ("%s%s" % (a, a) in a loop doubles)
    pieces = template.replace("%%", "\0").split("%s")
    return concat([p for i, piece in enumerate(pieces) for p in ((piece.replace("\0", "%"),) + ((values[i],) if i < len(values) else ()))])


def _keep_type(old: Any, value: Any) -> Any:
    if value is None and isinstance(old, Rot):
        return TOP_ROT
    return value


def _as_rot(value: Any, order: str) -> Rot:
    if isinstance(value, QuatList):
        return value.rot
    if isinstance(value, Rot):
        return value
    vec = as_vector(value)
    if vec is not None and len(vec) == 4:
        return rot_from_quaternion(vec if order == "xyzw" else (vec[1], vec[2], vec[3], vec[0]))
    return TOP_ROT


def _quat_from_list(value: Any) -> Rot:
    return _as_rot(value, "xyzw")


def _rot_from_components(comps: list[Any]) -> Rot:
    if all(isinstance(c, float) for c in comps):
        return rot_from_quaternion(comps)
    if all(isinstance(c, Component) for c in comps) and len({c.rot for c in comps}) == 1 and [c.axis for c in comps] == list("xyzw"):
        return comps[0].rot
    return TOP_ROT


_STATEMENT_BLOCKS = ("body", "orelse", "finalbody")
_TRY_NODES: tuple[type, ...] = (ast.Try, *((ast.TryStar,) if hasattr(ast, "TryStar") else ()))  # try/except* since 3.11
_OPS: dict[type, str] = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.Pow: "**"}
