"""Blank the macros tree-sitter cannot read before C++ is parsed, keeping every byte offset.

tree-sitter parses C++ without running the preprocessor, so a macro that expands to nothing
(``FOO_PUBLIC``), to an attribute (``RCPPUTILS_TSA_GUARDED_BY(m_)``) or to a whole declaration
without a semicolon (``EIGEN_MAKE_ALIGNED_OPERATOR_NEW``, ``PLUGINLIB_EXPORT_CLASS(a, b)``) is a
syntax error that costs the code around it. None of them carries a frame fact, so each is
replaced by spaces of the same length (newlines kept): lines and columns stay those of the file.
"""

from __future__ import annotations

import re

# Export, visibility and attribute macros: ``MY_PKG_PUBLIC``, ``FOO_EXPORT``, ``BAR_LOCAL``, ``X_API``, ``Y_UNUSED``.
_EXPORT = (rb"[A-Z][A-Z0-9_]*_(?:PUBLIC|PUBLIC_TYPE|EXPORT|LOCAL|API|DLLAPI|DECL|DECLSPEC|HIDDEN|VISIBLE|DEPRECATED|"
           rb"UNUSED|MAYBE_UNUSED|NODISCARD|WARN_UNUSED_RESULT|FORCE_INLINE|FORCEINLINE|NOINLINE)")
# Clang thread-safety annotations, bare or prefixed (``RCPPUTILS_TSA_GUARDED_BY``, ``ABSL_GUARDED_BY``).
_ANNOTATION = (rb"(?:[A-Z][A-Z0-9]*_)*(?:GUARDED_BY|PT_GUARDED_BY|REQUIRES|REQUIRES_SHARED|EXCLUDES|ACQUIRE|ACQUIRE_SHARED|"
               rb"RELEASE|RELEASE_SHARED|TRY_ACQUIRE|ACQUIRED_BEFORE|ACQUIRED_AFTER|CAPABILITY|SCOPED_CAPABILITY|"
               rb"RETURN_CAPABILITY|ASSERT_CAPABILITY|NO_THREAD_SAFETY_ANALYSIS|LOCKABLE|SCOPED_LOCKABLE|LOCKS_EXCLUDED|"
               rb"EXCLUSIVE_LOCKS_REQUIRED|SHARED_LOCKS_REQUIRED|UNLOCK_FUNCTION|EXCLUSIVE_LOCK_FUNCTION)")
_INLINE = re.compile(rb"\b(?:" + _EXPORT + rb"|" + _ANNOTATION + rb")\b")
# A macro alone on its line, with or without arguments and without a semicolon: it expands to
# declarations (``EIGEN_MAKE_ALIGNED_OPERATOR_NEW``, ``RCLCPP_SMART_PTR_DEFINITIONS(Foo)``,
# ``PLUGINLIB_EXPORT_CLASS(a, b)``, ``RCLCPP_COMPONENTS_REGISTER_NODE(Foo)``).
_ALONE = re.compile(rb"^[ \t]*([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)[ \t]*(\(|//|/\*|\r?$)", re.MULTILINE)
# ``extern "C" {`` and its ``}`` inside ``#ifdef __cplusplus`` ... ``#endif``: unbalanced braces to a parser
# that reads both sides of every #if.
_EXTERN_C = re.compile(rb"^[ \t]*#[ \t]*if(?:def[ \t]+__cplusplus|[ \t]+defined[ \t]*\(?[ \t]*__cplusplus[ \t]*\)?)[ \t]*\r?\n"
                       rb"([ \t]*(?:extern[ \t]+\"C\"\s*\{|\})[ \t]*(?://[^\n]*)?)\r?\n[ \t]*#[ \t]*endif", re.MULTILINE)
# Qt's access-specifier macros: ``Q_SIGNALS:`` is a section of its own, ``public Q_SLOTS:`` qualifies one.
_QT_SECTION = re.compile(rb"\b(Q_SIGNALS|signals)[ \t]*:|\b(?:public|private|protected)[ \t]+(Q_SLOTS|slots)\b")
# ``SIGNAL(valueChanged(int))``: a signature, not an expression; ``template class Foo<Bar>;``: an explicit
# instantiation tree-sitter-cpp does not know. Neither holds a frame fact.
_QT_SIGNATURE = re.compile(rb"\b(?:SIGNAL|SLOT)[ \t]*\(")
_EXPLICIT_INSTANTIATION = re.compile(rb"^[ \t]*(?:extern[ \t]+)?template[ \t]+(?:class|struct)[ \t]+[^;{}()]+;", re.MULTILINE)
# Forms tree-sitter-cpp misreads although they compile: ``const T& x (expr);`` (read as a function
# declaration: the parentheses become braces, same meaning here) and ``new T*[n]`` (the ``*`` goes).
_REF_PAREN_INIT = re.compile(rb"^[ \t]*const[ \t]+[\w:<>, ]+?[ \t]*&[ \t]*\w+[ \t]*(\()", re.MULTILINE)
_NEW_POINTER_ARRAY = re.compile(rb"\bnew[ \t]+(?:unsigned[ \t]+)?[\w:]+[ \t]*(\*+)[ \t]*\[")
# ``(unsigned(a) - unsigned(b))``: a functional cast to a built-in type first in parentheses reads as a C cast
# ``(unsigned ...)`` and breaks the function (pr2_ethercat_drivers' wg06.cpp); the type goes, the value stays
_PAREN_FUNCTIONAL_CAST = re.compile(rb"\([ \t]*(unsigned|signed|int|long|short|char|float|double|bool)[ \t]*\((?![ \t]*[*&])")
_COMMENT_OR_STRING = re.compile(rb'"(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\'|//[^\n]*|/\*.*?\*/', re.DOTALL)
# printf format macros between string literals (``"%" PRIu32 " bytes"``): the literals still concatenate
_FORMAT_MACRO = re.compile(rb"\b(?:PRI|SCN)[diouxX](?:8|16|32|64|MAX|PTR|LEAST(?:8|16|32|64)|FAST(?:8|16|32|64))\b")
# ``ATTRIBUTE_ALIGNED16(class) Vector3`` (tf2's LinearMath): the class keyword stays
_ALIGNED_CLASS = re.compile(rb"\bATTRIBUTE_ALIGNED(?:16|64|128)[ \t]*\([ \t]*(class|struct)[ \t]*\)")
# ``Q_ARG(Type, value)``: a type where an expression goes; the value alone stays
_QT_ARG = re.compile(rb"\bQ_(?:RETURN_)?ARG[ \t]*\(")
_HAS_INCLUDE = re.compile(rb"\b__has_include(?:_next)?[ \t]*\(")
# What may end the text before a declaration-level macro: a statement, a block, a label, a declarator.
_BOUNDARY = frozenset(b";{}:)")


def blank_macros(src: bytes) -> bytes:
    """``src`` with the macros above replaced by spaces; the input itself when none occurs."""
    if not _has_candidates(src):
        return src
    out = bytearray(src)
    for m in _EXTERN_C.finditer(src):
        _blank(out, m.start(1), m.end(1))
    for m in _QT_SECTION.finditer(src):
        if m.group(1):
            out[m.start(1) : m.end(1)] = b"public".ljust(m.end(1) - m.start(1))  # a section of its own: keep the ':' valid
        else:
            _blank(out, m.start(2), m.end(2))
    for m in _QT_SIGNATURE.finditer(src):
        close = _balanced(src, m.end() - 1)
        if close is not None:
            _blank(out, m.end(), close - 1)
    for m in _FORMAT_MACRO.finditer(src):
        _blank(out, m.start(), m.end())
    for m in _ALIGNED_CLASS.finditer(src):
        _blank(out, m.start(), m.start(1))
        _blank(out, m.end(1), m.end())
    for m in _QT_ARG.finditer(src):
        close = _balanced(src, m.end() - 1)
        comma = src.find(b",", m.end(), close) if close is not None else -1
        if comma >= 0 and src.count(b"(", m.end(), comma) == src.count(b")", m.end(), comma):
            _blank(out, m.end(), comma + 1)
    for m in _EXPLICIT_INSTANTIATION.finditer(src):
        _blank(out, m.start(), m.end())
    for m in _HAS_INCLUDE.finditer(src):
        end = _balanced(src, m.end() - 1)
        if end is not None:
            _blank(out, m.start(), end)
            out[m.start()] = ord("1")  # ``#if __has_include(<x>)``: any constant keeps the #if well-formed
    for m in _REF_PAREN_INIT.finditer(src):
        close = _balanced(src, m.start(1))
        if close is not None and src[_skip_space(src, close, newlines=False):].startswith(b";"):
            out[m.start(1)], out[close - 1] = ord("{"), ord("}")
    for m in _NEW_POINTER_ARRAY.finditer(src):
        _blank(out, m.start(1), m.end(1))
    for m in _PAREN_FUNCTIONAL_CAST.finditer(src):
        _blank(out, m.start(1), m.end(1))
    for m in _INLINE.finditer(src):
        if _in_directive(src, m.start()):
            continue  # the #define that declares the macro stays as written
        end = m.end()
        after = _skip_space(src, end)
        if after < len(src) and src[after] in b",;)=]}" and not m.group().endswith(b"UNUSED"):
            continue  # a constant in an expression (``RMW_QOS_POLICY_DURABILITY_TRANSIENT_LOCAL,``), not an attribute
        if after < len(src) and src[after] == ord("("):
            close = _balanced(src, after)
            if close is None:
                continue
            end = close
        _blank(out, m.start(), end)
    view = bytearray(out)  # what _after_boundary reads: comments blanked too
    for m in _COMMENT_OR_STRING.finditer(src):
        if m.group().startswith(b"/"):
            _blank(view, m.start(), m.end())
    for m in _ALONE.finditer(src):
        start = m.start(1)
        end = m.end(1)
        if m.group(2) == b"(":
            close = _balanced(src, m.end(2) - 1)
            if close is None:
                continue
            end = close
        rest = _skip_space(src, end, newlines=False)
        if rest < len(src) and src[rest] not in b"\r\n/":
            continue  # followed by more code on its line (``FOO(x);``, ``FOO(x) {``): a call or a declaration
        following = _skip_space(src, rest)
        if following < len(src) and not _starts_declaration(src[following]):
            continue  # ``TEST_F(Fixture, name) {`` (a function), ``CHECK_EQ(a, b)\n << "why";`` (an expression)
        if not _after_boundary(view, start):
            continue  # inside an expression or an argument list
        _blank(out, start, end)
        _blank(view, start, end)
    return bytes(out)


_CONDITIONAL = re.compile(rb"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b", re.MULTILINE)


def first_branches(src: bytes) -> bytes:
    """``src`` with every ``#elif``/``#else`` branch and the conditional directives themselves blanked:
    one consistent reading for code whose #if branches each open or close a block, or split an
    expression, which no parser reads in both at once."""
    out = bytearray(src)
    stack: list[bool] = []  # per open #if: is the current branch blanked
    start: int | None = None
    for m in _CONDITIONAL.finditer(src):
        kind = m.group(1)
        line_end = src.find(b"\n", m.end())
        line_end = len(src) if line_end < 0 else line_end
        if start is not None:
            _blank(out, start, m.start())
            start = None
        if kind in (b"if", b"ifdef", b"ifndef"):
            stack.append(False)
        elif kind in (b"elif", b"else") and stack:
            stack[-1] = True
        elif kind == b"endif" and stack:
            stack.pop()
        _blank(out, m.start(), line_end)
        if any(stack):
            start = line_end
    if start is not None:
        _blank(out, start, len(src))
    return bytes(out)


def _starts_declaration(c: int) -> bool:
    """What may follow a declaration-level macro: the next declaration or statement, a directive, a
    comment, the end of the enclosing block."""
    return chr(c).isalpha() or c in b"_}#/~[:"


def _has_candidates(src: bytes) -> bool:
    return (b"__cplusplus" in src or b"__has_include" in src or b"Q_S" in src or b"new" in src or b"const" in src
            or b"template" in src or b"signals" in src or b"slots" in src or b"SIGNAL" in src or b"PRI" in src
            or b"ATTRIBUTE_ALIGNED" in src or b"Q_ARG" in src or _PAREN_FUNCTIONAL_CAST.search(src) is not None
            or _INLINE.search(src) is not None
            or _ALONE.search(src) is not None)


def _blank(out: bytearray, start: int, end: int) -> None:
    for i in range(start, end):
        if out[i] not in (10, 13):
            out[i] = 32


def _skip_space(src: bytes, i: int, newlines: bool = True) -> int:
    space = b" \t\r\n" if newlines else b" \t"
    while i < len(src) and src[i] in space:
        i += 1
    return i


def _balanced(src: bytes, open_at: int) -> int | None:
    """The offset after the parenthesis closing the one at ``open_at`` (strings and chars skipped)."""
    depth = 0
    i = open_at
    n = len(src)
    while i < n:
        c = src[i]
        if c in (34, 39):  # " or '
            i += 1
            while i < n and src[i] != c:
                i += 2 if src[i] == 92 else 1
        elif c == 40:
            depth += 1
        elif c == 41:
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return None


def _in_directive(src: bytes, i: int) -> bool:
    line_start = src.rfind(b"\n", 0, i) + 1
    return src[line_start:i].lstrip().startswith(b"#")


def _after_boundary(src: bytes | bytearray, i: int) -> bool:
    """True when the code before ``i`` ends a statement or declaration (or is a directive or comment line)."""
    j = i - 1
    while j >= 0:
        line_start = src.rfind(b"\n", 0, j + 1) + 1
        line = src[line_start : j + 1]
        stripped = line.strip()
        comment = stripped.find(b"//")
        if comment > 0 and b'"' not in stripped[comment:]:
            stripped = stripped[:comment].rstrip()  # a trailing comment
        if not stripped or stripped.startswith((b"#", b"//", b"*", b"/*")):
            j = line_start - 2  # a blank, directive or comment line: look at the line above
            continue
        return stripped[-1] in _BOUNDARY or stripped.endswith(b"*/")
    return True
