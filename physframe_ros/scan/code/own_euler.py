"""A file's own Euler-to-quaternion function, and the order of the quaternion it returns.

ROS 2 has no ``tf_transformations`` by default, so nodes often write their own ``quaternion_from_euler``: the
tf2 tutorial's returns x, y, z, w, the Wikipedia version returns w, x, y, z (orange_ros2's motor driver), and the
code that indexes the result must follow the one it has. The function is read, never run: its arithmetic (the
sines and cosines of its angles, products and sums, the list it fills) is evaluated here on sample angles, and the
result compared with the quaternion of those angles in both orders.
"""

from __future__ import annotations

import ast
import math
import operator
import re
from collections.abc import Callable

from ...core.rotations import rpy_to_quaternion

# sample angles, distinct and away from any symmetry, handed to the function's three angle parameters in order
_SAMPLE = (0.3, -0.2, 0.7)
_TRIG: dict[str, Callable[[float], float]] = {"cos": math.cos, "sin": math.sin}
_BINARY: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
}
_STEPS = 200  # statements and expressions evaluated at most: a function of this kind has a few dozen


class _Unknown(Exception):
    """Something the evaluation does not model: the order stays unknown."""


def quaternion_functions(tree: ast.Module) -> dict[str, ast.FunctionDef | ast.AsyncFunctionDef]:
    """The module's functions and methods named for building a quaternion (``quaternion_from_euler``,
    ``euler_to_quaternion``, ``get_quaternion_from_euler``) that take at least three angles."""
    out = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and "quat" in node.name.lower():
            if len(_angle_parameters(node)) >= 3:
                out[node.name] = node
    return out


def _angle_parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    names = [a.arg for a in fn.args.args]
    return names[1:] if names[:1] in (["self"], ["cls"]) else names


def returned_order(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """``"xyzw"`` or ``"wxyz"``: the order of the quaternion ``fn`` returns for (roll, pitch, yaw) given in its first
    three angle parameters; None when it is another convention or the body does more than arithmetic."""
    params = _angle_parameters(fn)[:3]
    env: dict[str, object] = dict(zip(params, _SAMPLE))
    steps = [0]
    try:
        result = _block(fn.body, env, steps)
    except (_Unknown, ArithmeticError, ValueError, TypeError, IndexError):
        return None
    if not isinstance(result, list) or len(result) != 4 or not all(isinstance(v, float) for v in result):
        return None
    x, y, z, w = rpy_to_quaternion(*_SAMPLE)
    for order, expected in (("xyzw", (x, y, z, w)), ("wxyz", (w, x, y, z))):
        if any(all(abs(sign * e - v) < 1e-9 for e, v in zip(expected, result)) for sign in (1, -1)):
            return order
    return None


# what a docstring says of the order: `quat = [x, y, z, w]`, `(w in last place)`; `[w, x, y, z]`, `w first`
_SAYS_XYZW = re.compile(r"\bx\s*,\s*y\s*,\s*z\s*,\s*w\b|\bw\b[^.\n]{0,12}\b(?:last|end)\b", re.IGNORECASE)
_SAYS_WXYZ = re.compile(r"\bw\s*,\s*x\s*,\s*y\s*,\s*z\b|\bw\b[^.\n]{0,12}\bfirst\b", re.IGNORECASE)


def documented_order(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    """The order the function's docstring promises, when it names exactly one."""
    doc = ast.get_docstring(fn) or ""
    xyzw, wxyz = _SAYS_XYZW.search(doc) is not None, _SAYS_WXYZ.search(doc) is not None
    return "xyzw" if xyzw and not wxyz else "wxyz" if wxyz and not xyzw else None


def first_component_line(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """The line that writes the returned quaternion's first component (``q[0] = ...``), else the return's."""
    for node in ast.walk(fn):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(t := node.targets[0], ast.Subscript)
                and isinstance(t.slice, ast.Constant) and t.slice.value == 0):
            return node.lineno
    return next((n.lineno for n in ast.walk(fn) if isinstance(n, ast.Return)), fn.lineno)


def _block(body: list[ast.stmt], env: dict[str, object], steps: list[int]) -> object:
    for stmt in body:
        steps[0] += 1
        if steps[0] > _STEPS:
            raise _Unknown()
        if isinstance(stmt, ast.Return):
            return _value(stmt.value, env, steps)
        if isinstance(stmt, (ast.Expr, ast.Pass)) and not isinstance(getattr(stmt, "value", None), ast.Call):
            continue  # a docstring
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            _store(stmt.targets[0], _value(stmt.value, env, steps), env, steps)
        elif isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            _store(stmt.target, _value(stmt.value, env, steps), env, steps)
        else:
            raise _Unknown()
    raise _Unknown()


def _store(target: ast.expr, value: object, env: dict[str, object], steps: list[int]) -> None:
    if isinstance(target, ast.Name):
        env[target.id] = value
    elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, list) and len(value) == len(target.elts):
        for t, v in zip(target.elts, value):
            _store(t, v, env, steps)
    elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
        held, index = env.get(target.value.id), _value(target.slice, env, steps)
        if not isinstance(held, list) or not isinstance(index, float) or not index.is_integer():
            raise _Unknown()
        held[int(index)] = value
    else:
        raise _Unknown()


def _value(node: ast.expr | None, env: dict[str, object], steps: list[int]) -> object:
    steps[0] += 1
    if node is None or steps[0] > _STEPS:
        raise _Unknown()
    if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
        return float(node.value)
    if isinstance(node, ast.Name):
        if node.id not in env:
            raise _Unknown()
        value = env[node.id]
        return list(value) if isinstance(value, list) else value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        v = _number(node.operand, env, steps)
        return -v if isinstance(node.op, ast.USub) else v
    if isinstance(node, ast.BinOp):
        if isinstance(node.op, ast.Mult) and isinstance(node.left, ast.List):  # [0] * 4, [0.0] * 4
            return _value(node.left, env, steps) * int(_number(node.right, env, steps))  # type: ignore[operator]
        op = _BINARY.get(type(node.op))
        if op is None:
            raise _Unknown()
        return op(_number(node.left, env, steps), _number(node.right, env, steps))
    if isinstance(node, (ast.List, ast.Tuple)):
        return [_value(e, env, steps) for e in node.elts]
    if isinstance(node, ast.Call):
        return _call(node, env, steps)
    raise _Unknown()


def _number(node: ast.expr, env: dict[str, object], steps: list[int]) -> float:
    v = _value(node, env, steps)
    if not isinstance(v, float):
        raise _Unknown()
    return v


def _call(node: ast.Call, env: dict[str, object], steps: list[int]) -> object:
    """``math.cos(x)``, ``np.sin(x)``, ``cos(x)``; ``np.array([...])``, ``np.empty(4)`` / ``np.zeros((4,))``."""
    func = node.func
    name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
    if node.keywords or len(node.args) != 1:
        raise _Unknown()
    if name in _TRIG:
        return _TRIG[name](_number(node.args[0], env, steps))
    if name in ("array", "asarray", "list", "tuple"):
        value = _value(node.args[0], env, steps)
        if not isinstance(value, list):
            raise _Unknown()
        return value
    if name in ("empty", "zeros", "ones"):
        size = _value(node.args[0], env, steps)
        n = size[0] if isinstance(size, list) and len(size) == 1 else size
        if not isinstance(n, float) or n != 4.0:
            raise _Unknown()
        return [0.0] * 4
    raise _Unknown()
