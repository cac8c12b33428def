"""Expressions written in scanned files (xacro ``${...}``, ``$(eval ...)``), evaluated without Python's ``eval``.

An AST interpreter with a whitelist: literals, arithmetic, comparisons, boolean and conditional
expressions, subscripts, comprehensions, names looked up in the caller's symbol table, and calls
only of :class:`SafeFunction` values (math, a fixed set of harmless builtins, what the caller
provides) and of a fixed set of non-dunder str/list/dict methods. No attribute starting with
``_``, no lambdas, no other callables. Every value made is bounded (string length, item count,
integer size, comprehension steps) and checked *before* the operation that would build it, so a
file cannot make the scanner allocate gigabytes.
"""

from __future__ import annotations

import ast
import builtins
import math
import operator
import re
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Mapping

MAX_EXPR_CHARS = 100_000
MAX_STR = 1_000_000  # characters in one string
MAX_ITEMS = 100_000  # items in one container
MAX_WEIGHT = 2_000_000  # characters plus items in a nested value, shared parts counted each time
MAX_INT_BITS = 4096
MAX_STEPS = 200_000  # comprehension iterations in one evaluation


class UnsafeExpression(ValueError):
    """A construct the scan does not evaluate (it could run code or reach outside the expression)."""


class ExpressionLimit(ValueError):
    """A value would grow past a limit."""


@dataclass(frozen=True)
class SafeFunction:
    """A function an expression may call; its result is checked against the limits."""

    fn: Callable[..., Any]
    name: str

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.fn(*args, **kwargs)


@dataclass(frozen=True)
class _Method:
    obj: Any
    name: str


# --- limits ------------------------------------------------------------------------------------------
def weight(value: Any, budget: int = MAX_WEIGHT) -> int:
    """Characters plus items of ``value``, counting shared parts each time; stops past ``budget``."""
    total = 0
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, str):
            total += len(v)
        elif isinstance(v, dict):
            total += len(v)
            stack.extend(dict.keys(v))
            stack.extend(dict.values(v))
        elif isinstance(v, (list, tuple, set, frozenset)):
            total += len(v)
            stack.extend(v)
        else:
            total += 1
        if total > budget:
            return total
    return total


def check(value: Any) -> Any:
    """``value`` when it is within the limits, else ExpressionLimit."""
    if isinstance(value, str):
        if len(value) > MAX_STR:
            raise ExpressionLimit(f"a string would exceed {MAX_STR} characters")
    elif isinstance(value, int):
        if value.bit_length() > MAX_INT_BITS:
            raise ExpressionLimit(f"an integer would exceed {MAX_INT_BITS} bits")
    elif isinstance(value, (list, tuple, dict, set, frozenset)):
        if len(value) > MAX_ITEMS:
            raise ExpressionLimit(f"a container would exceed {MAX_ITEMS} items")
        if weight(value) > MAX_WEIGHT:
            raise ExpressionLimit(f"a value would exceed {MAX_WEIGHT} characters and items")
    return value


def _need(ok: bool, what: str) -> None:
    if not ok:
        raise ExpressionLimit(what)


def _sized(v: Any) -> int:
    return weight(v) if isinstance(v, (list, tuple, dict, set, frozenset)) else len(v) if isinstance(v, str) else 1


def _int_bits(v: Any) -> int:
    return abs(int(v)).bit_length() if isinstance(v, int) else 0


# --- operators, each checked before it runs -----------------------------------------------------------
def _add(a: Any, b: Any) -> Any:
    if isinstance(a, (str, list, tuple)) and isinstance(b, (str, list, tuple)):
        _need(_sized(a) + _sized(b) <= MAX_WEIGHT and len(a) + len(b) <= (MAX_STR if isinstance(a, str) else MAX_ITEMS),
              "a concatenation would exceed the size limit")
    return a + b


def _mul(a: Any, b: Any) -> Any:
    for seq, n in ((a, b), (b, a)):
        if isinstance(seq, (str, list, tuple)) and isinstance(n, int):
            _need(len(seq) * n <= (MAX_STR if isinstance(seq, str) else MAX_ITEMS) and _sized(seq) * n <= MAX_WEIGHT,
                  "a repetition would exceed the size limit")
    if isinstance(a, int) and isinstance(b, int):
        _need(_int_bits(a) + _int_bits(b) <= MAX_INT_BITS, f"an integer would exceed {MAX_INT_BITS} bits")
    return a * b


def _pow(a: Any, b: Any, mod: Any = None) -> Any:
    if mod is None and isinstance(a, int) and isinstance(b, int) and b > 0 and abs(a) > 1:
        _need(b <= MAX_INT_BITS and _int_bits(a) * b <= MAX_INT_BITS, f"a power would exceed {MAX_INT_BITS} bits")
    return pow(a, b) if mod is None else pow(a, b, mod)


def _lshift(a: Any, b: Any) -> Any:
    if isinstance(a, int) and isinstance(b, int) and a:
        _need(b <= MAX_INT_BITS and _int_bits(a) + b <= MAX_INT_BITS, f"a shift would exceed {MAX_INT_BITS} bits")
    return a << b


_PERCENT_SPEC = re.compile(r"%(?:\([^)]*\))?([-#0 +]*)(\*|\d*)(?:\.(\*|\d*))?[a-zA-Z%]")


def _mod(a: Any, b: Any) -> Any:
    if isinstance(a, str):  # printf-style formatting: widths and what is formatted bounded first
        for m in _PERCENT_SPEC.finditer(a):
            for part in (m.group(2), m.group(3)):
                _need(part != "*" and (not part or int(part) <= 10_000), "a format width would exceed the size limit")
        _need(len(a) + _sized(b) <= MAX_STR, "a formatted string would exceed the size limit")
        _need(not isinstance(b, dict) or all(isinstance(v, (str, int, float, bool)) or v is None for v in b.values()),
              "formatting takes plain values only")
    return a % b


_BINOPS: dict[type, Callable[[Any, Any], Any]] = {
    ast.Add: _add, ast.Sub: operator.sub, ast.Mult: _mul, ast.Div: operator.truediv, ast.FloorDiv: operator.floordiv,
    ast.Mod: _mod, ast.Pow: _pow, ast.LShift: _lshift, ast.RShift: operator.rshift, ast.BitAnd: operator.and_,
    ast.BitOr: operator.or_, ast.BitXor: operator.xor,
}
_UNARY: dict[type, Callable[[Any], Any]] = {ast.USub: operator.neg, ast.UAdd: operator.pos, ast.Not: operator.not_,
                                            ast.Invert: operator.invert}
_COMPARE: dict[type, Callable[[Any, Any], Any]] = {
    ast.Eq: operator.eq, ast.NotEq: operator.ne, ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt,
    ast.GtE: operator.ge, ast.Is: operator.is_, ast.IsNot: operator.is_not,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}


# --- methods of data values ---------------------------------------------------------------------------
_STR_METHODS = frozenset({
    "capitalize", "casefold", "count", "endswith", "find", "index", "isalnum", "isalpha", "isdecimal", "isdigit",
    "islower", "isnumeric", "isspace", "istitle", "isupper", "lower", "lstrip", "partition", "removeprefix",
    "removesuffix", "rfind", "rindex", "rpartition", "rsplit", "rstrip", "split", "splitlines", "startswith", "strip",
    "swapcase", "title", "upper", "join", "replace", "center", "ljust", "rjust", "zfill",
})
_SEQ_METHODS = frozenset({"count", "index"})
_DICT_METHODS = frozenset({"get", "keys", "values", "items"})


def _call_method(m: _Method, args: list[Any], kwargs: dict[str, Any]) -> Any:
    obj, name = m.obj, m.name
    if isinstance(obj, str):
        if name == "join" and args:
            parts = list(args[0]) if isinstance(args[0], (list, tuple, set, frozenset, dict, str)) else None
            _need(parts is not None and len(parts) <= MAX_ITEMS, "join takes a bounded sequence")
            assert parts is not None
            _need(sum(len(p) if isinstance(p, str) else 0 for p in parts) + len(obj) * len(parts) <= MAX_STR,
                  "a join would exceed the size limit")
            return obj.join(parts)
        if name == "replace" and len(args) >= 2 and isinstance(args[0], str) and isinstance(args[1], str):
            count = obj.count(args[0]) if args[0] else len(obj) + 1
            _need(len(obj) + count * len(args[1]) <= MAX_STR, "a replace would exceed the size limit")
        if name in ("center", "ljust", "rjust", "zfill") and args:
            _need(isinstance(args[0], int) and args[0] <= MAX_STR, "a padding width would exceed the size limit")
    method = getattr(obj, name)
    result = method(*args, **kwargs)
    if isinstance(obj, dict) and name in ("keys", "values", "items"):
        result = list(result)
    return result


def _attribute(obj: Any, name: str, dotted: tuple[type, ...]) -> Any:
    if name.startswith("_"):
        raise UnsafeExpression(f"attribute '{name}' is not evaluated by a scan")
    if (isinstance(obj, str) and name in _STR_METHODS) or (isinstance(obj, (list, tuple)) and name in _SEQ_METHODS):
        return _Method(obj, name)
    if isinstance(obj, dict) and name in _DICT_METHODS:
        return _Method(obj, name)
    if isinstance(obj, dotted) and isinstance(obj, dict):  # namespaces and dotified YAML: attribute access is item access
        try:
            return obj[name]
        except KeyError:
            raise AttributeError(f"no attribute '{name}'") from None
    raise UnsafeExpression(f"attribute '{name}' of a {type(obj).__name__} is not evaluated by a scan")


# --- builtins ---------------------------------------------------------------------------------------
def _iterable(v: Any) -> Iterable[Any]:
    if isinstance(v, (str, list, tuple, dict, set, frozenset, range)):
        _need(len(v) <= MAX_ITEMS, f"a container would exceed {MAX_ITEMS} items")
        return v
    raise UnsafeExpression(f"a {type(v).__name__} is not iterated by a scan")


def _range(*args: int) -> list[int]:
    r = range(*args)
    _need(len(r) <= MAX_ITEMS, f"a range would exceed {MAX_ITEMS} items")
    return list(r)


def _to_str(v: Any = "") -> str:
    _need(_sized(v) <= MAX_STR, "a string would exceed the size limit")
    return str(v)


def _to_repr(v: Any) -> str:
    _need(_sized(v) <= MAX_STR, "a string would exceed the size limit")
    return repr(v)


def _sum(values: Any, start: Any = 0) -> Any:
    items = list(_iterable(values))
    _need(all(isinstance(v, (int, float)) for v in [start, *items]), "sum takes numbers only")
    return math.fsum(items) + start if any(isinstance(v, float) for v in items) else sum(items, start)


def _apply(fn: Any, *iterables: Any) -> list[Any]:
    _need(isinstance(fn, SafeFunction), "map/filter take a permitted function")
    return [check(fn(*args)) for args in zip(*(_iterable(i) for i in iterables))]


def _filter(fn: Any, values: Any) -> list[Any]:
    items = list(_iterable(values))
    if fn is None:
        return [v for v in items if v]
    _need(isinstance(fn, SafeFunction), "filter takes a permitted function")
    return [v for v in items if fn(v)]


def _sorted(values: Any, key: Any = None, reverse: bool = False) -> list[Any]:
    _need(key is None or isinstance(key, SafeFunction), "sorted takes a permitted key function")
    return sorted(_iterable(values), key=key, reverse=reverse)


def _container(kind: type) -> Callable[..., Any]:
    def make(values: Any = ()) -> Any:
        return kind(_iterable(values))
    return make


def _dict(*args: Any, **kwargs: Any) -> dict[Any, Any]:
    return dict(*[_iterable(a) if not isinstance(a, dict) else a for a in args], **kwargs)


def _bounded_math(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    def call(*args: Any) -> Any:
        _need(all(not isinstance(a, int) or abs(a) <= 10_000 for a in args), f"math.{name} argument too large")
        return fn(*args)
    return call


def _math_functions() -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, v in vars(math).items():
        if name.startswith("_"):
            continue
        if callable(v):
            if name in ("factorial", "comb", "perm", "prod"):
                v = _bounded_math(name, v) if name != "prod" else (lambda values, start=1: _fn_prod(values, start))
            out[name] = SafeFunction(v, name)
        else:
            out[name] = v
    return out


def _fn_prod(values: Any, start: Any = 1) -> Any:
    result = start
    for v in _iterable(values):
        result = _mul(result, v)
    return result


def safe_functions(**fns: Callable[..., Any]) -> dict[str, SafeFunction]:
    return {name: SafeFunction(fn, name) for name, fn in fns.items()}


#: Math functions and constants, also by bare name (``${pi/2}``, ``${radians(90)}``) as xacro has them.
MATH: dict[str, Any] = _math_functions()
#: Harmless builtins, all returning bounded data.
BUILTINS: dict[str, Any] = {
    "True": True, "False": False, "None": None,
    **safe_functions(abs=abs, min=min, max=max, int=int, float=float, str=_to_str, repr=_to_repr, bool=bool, len=len, round=round,
            sorted=_sorted, list=_container(list), tuple=_container(tuple), set=_container(set), frozenset=_container(frozenset),
            dict=_dict, range=_range, zip=lambda *i: [tuple(t) for t in zip(*(_iterable(x) for x in i))],
            enumerate=lambda v, start=0: list(enumerate(_iterable(v), start)), reversed=lambda v: list(reversed(list(_iterable(v)))),
            sum=_sum, any=lambda v: any(_iterable(v)), all=lambda v: all(_iterable(v)), map=_apply, filter=_filter,
            divmod=divmod, pow=_pow, ord=ord, chr=chr, hex=hex, oct=oct, bin=bin, complex=complex,
            isinstance=lambda v, t: isinstance(v, tuple(_TYPES.get(x, ()) for x in (t if isinstance(t, tuple) else (t,))))),
}
_TYPES: dict[Any, Any] = {BUILTINS[n]: getattr(builtins, n) for n in ("int", "float", "str", "bool", "list", "tuple", "dict", "set")}


# --- the interpreter --------------------------------------------------------------------------------
_DATA = (str, int, float, complex, bool, type(None), list, tuple, dict, set, frozenset, SafeFunction, _Method)


class _Eval:
    def __init__(self, names: Mapping[str, Any], dotted: tuple[type, ...]) -> None:
        self.names = names
        self.dotted = dotted
        self.locals: list[dict[str, Any]] = []
        self.steps = 0

    def __call__(self, node: ast.AST) -> Any:
        method = getattr(self, "_" + type(node).__name__, None)
        if method is None:
            raise UnsafeExpression(f"{type(node).__name__} is not evaluated by a scan")
        return method(node)

    def _Expression(self, node: ast.Expression) -> Any:
        return self(node.body)

    def _Constant(self, node: ast.Constant) -> Any:
        if not isinstance(node.value, (str, int, float, complex, bool, type(None))):
            raise UnsafeExpression(f"{type(node.value).__name__} literals are not evaluated by a scan")
        return node.value

    def _Name(self, node: ast.Name) -> Any:
        name = node.id
        if name.startswith("__"):
            raise UnsafeExpression(f"name '{name}' is not evaluated by a scan")
        for scope in reversed(self.locals):
            if name in scope:
                return scope[name]
        try:
            value = self.names[name]
        except KeyError:
            raise NameError(f"name '{name}' is not defined") from None
        return self._data(value, name)

    def _data(self, value: Any, name: str) -> Any:
        if not isinstance(value, _DATA) and not isinstance(value, self.dotted):
            raise UnsafeExpression(f"'{name}' is a {type(value).__name__}, which a scan does not evaluate")
        return value

    def _Attribute(self, node: ast.Attribute) -> Any:
        return self._data(_attribute(self(node.value), node.attr, self.dotted), node.attr)

    def _Subscript(self, node: ast.Subscript) -> Any:
        obj = self(node.value)
        key = self(node.slice)
        if not isinstance(obj, (str, list, tuple, dict)):
            raise UnsafeExpression(f"a {type(obj).__name__} is not indexed by a scan")
        return self._data(obj[key], "an item")

    def _Slice(self, node: ast.Slice) -> slice:
        return slice(*(None if p is None else self(p) for p in (node.lower, node.upper, node.step)))

    def _BinOp(self, node: ast.BinOp) -> Any:
        op = _BINOPS.get(type(node.op))
        if op is None:
            raise UnsafeExpression(f"operator {type(node.op).__name__} is not evaluated by a scan")
        return check(op(self(node.left), self(node.right)))

    def _UnaryOp(self, node: ast.UnaryOp) -> Any:
        return _UNARY[type(node.op)](self(node.operand))

    def _BoolOp(self, node: ast.BoolOp) -> Any:
        value: Any = None
        for v in node.values:
            value = self(v)
            if isinstance(node.op, ast.And) != bool(value):
                return value
        return value

    def _Compare(self, node: ast.Compare) -> Any:
        left = self(node.left)
        for op, right_node in zip(node.ops, node.comparators):
            right = self(right_node)
            if not _COMPARE[type(op)](left, right):
                return False
            left = right
        return True

    def _IfExp(self, node: ast.IfExp) -> Any:
        return self(node.body) if self(node.test) else self(node.orelse)

    def _List(self, node: ast.List) -> Any:
        return check([self(e) for e in node.elts])

    def _Tuple(self, node: ast.Tuple) -> Any:
        return check(tuple(self(e) for e in node.elts))

    def _Set(self, node: ast.Set) -> Any:
        return check({self(e) for e in node.elts})

    def _Dict(self, node: ast.Dict) -> Any:
        if any(k is None for k in node.keys):
            raise UnsafeExpression("** in a dict literal is not evaluated by a scan")
        return check({self(k): self(v) for k, v in zip(node.keys, node.values) if k is not None})

    def _JoinedStr(self, node: ast.JoinedStr) -> Any:
        return check("".join(self(v) for v in node.values))

    def _FormattedValue(self, node: ast.FormattedValue) -> Any:
        if node.format_spec is not None:
            raise UnsafeExpression("format specifications are not evaluated by a scan")
        v = self(node.value)
        return _to_repr(v) if node.conversion == ord("r") else _to_str(v)

    def _Call(self, node: ast.Call) -> Any:
        fn = self(node.func)
        args: list[Any] = []
        for a in node.args:
            if isinstance(a, ast.Starred):
                args.extend(_iterable(self(a.value)))
            else:
                args.append(self(a))
        kwargs = {}
        for k in node.keywords:
            if k.arg is None:
                raise UnsafeExpression("** arguments are not evaluated by a scan")
            kwargs[k.arg] = self(k.value)
        if isinstance(fn, _Method):
            return check(_call_method(fn, args, kwargs))
        if isinstance(fn, SafeFunction):
            return check(fn(*args, **kwargs))
        raise UnsafeExpression(f"a {type(fn).__name__} is not called by a scan")

    def _comprehension(self, generators: list[ast.comprehension], emit: Callable[[], None]) -> None:
        scope: dict[str, Any] = {}
        self.locals.append(scope)
        try:
            self._loop(generators, 0, scope, emit)
        finally:
            self.locals.pop()

    def _loop(self, generators: list[ast.comprehension], i: int, scope: dict[str, Any], emit: Callable[[], None]) -> None:
        if i == len(generators):
            emit()
            return
        gen = generators[i]
        if gen.is_async:
            raise UnsafeExpression("async comprehensions are not evaluated by a scan")
        for item in list(_iterable(self(gen.iter))):
            self.steps += 1
            _need(self.steps <= MAX_STEPS, f"comprehensions would take more than {MAX_STEPS} steps")
            self._bind(gen.target, item, scope)
            if all(self(c) for c in gen.ifs):
                self._loop(generators, i + 1, scope, emit)

    def _bind(self, target: ast.expr, value: Any, scope: dict[str, Any]) -> None:
        if isinstance(target, ast.Name) and not target.id.startswith("__"):
            scope[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            items = list(_iterable(value))
            if len(items) != len(target.elts):
                raise ValueError(f"cannot unpack {len(items)} values into {len(target.elts)}")
            for t, v in zip(target.elts, items):
                self._bind(t, v, scope)
        else:
            raise UnsafeExpression("this comprehension target is not evaluated by a scan")

    def _collect(self, node: ast.ListComp | ast.SetComp | ast.GeneratorExp) -> list[Any]:
        out: list[Any] = []

        def emit() -> None:
            out.append(self(node.elt))
            _need(len(out) <= MAX_ITEMS, f"a container would exceed {MAX_ITEMS} items")
        self._comprehension(node.generators, emit)
        return out

    def _ListComp(self, node: ast.ListComp) -> Any:
        return check(self._collect(node))

    _GeneratorExp = _ListComp

    def _SetComp(self, node: ast.SetComp) -> Any:
        return check(set(self._collect(node)))

    def _DictComp(self, node: ast.DictComp) -> Any:
        out: dict[Any, Any] = {}

        def emit() -> None:
            out[self(node.key)] = self(node.value)
            _need(len(out) <= MAX_ITEMS, f"a container would exceed {MAX_ITEMS} items")
        self._comprehension(node.generators, emit)
        return check(out)


def evaluate(expr: str, names: Mapping[str, Any], dotted: tuple[type, ...] = ()) -> Any:
    """The value of the Python expression ``expr``; names are looked up in ``names`` (then nowhere else).

    ``dotted``: mapping types whose attributes are their items (namespaces, dotified YAML).
    Raises UnsafeExpression for what a scan does not evaluate, ExpressionLimit past a limit,
    SyntaxError and the ordinary Python errors (NameError, TypeError, ...) of a wrong expression."""
    expr = expr.strip()
    _need(len(expr) <= MAX_EXPR_CHARS, f"an expression longer than {MAX_EXPR_CHARS} characters is not evaluated")
    tree = ast.parse(expr, mode="eval")
    return _Eval(names, dotted)(tree)
