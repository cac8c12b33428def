"""Python 2 source read as Python 3, line for line.

Much ROS 1 code is Python 2 (rospy on Kinetic and Melodic): one in twelve of the ROS Python files of
the realworld repositories does not parse as Python 3, most for a ``print`` statement, and a file
that does not parse is not analysed. The statements Python 3 dropped are rewritten token by token,
each within its own lines, so every line number still points at the source:

- ``print x, y`` / ``print >>f, x`` -> ``print(x, y)`` / ``print(x, file=f)``; ``exec code`` likewise
- ``except E, e:`` -> ``except E as e:``; ``raise E, msg`` -> ``raise E(msg)``
- ``<>`` -> ``!=``, ``0777`` -> ``0o777``, ``10L`` -> ``10``, ```x``` -> ``repr(x)``
- ``async`` and ``await`` as names (``async = ApproximateTimeSynchronizer(...)``) -> ``async_``, ``await_``
- tabs in indentation expanded to Python 2's 8 columns (a file mixing tabs and spaces)
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import NamedTuple

_COMPOUND = frozenset({"if", "elif", "else", "for", "while", "try", "except", "finally", "with", "def", "class"})
_STATEMENTS = frozenset({"print", "exec"})
_LEADING_TABS = re.compile(r"^[ \t]+")
_OCTAL = re.compile(r"0[0-7]+")


class _Edit(NamedTuple):
    start: tuple[int, int]
    end: tuple[int, int]
    text: str


def as_python3(text: str) -> str | None:
    """The text with Python 2's statements rewritten (same lines), or None when it cannot be tokenized."""
    lines = [_LEADING_TABS.sub(lambda m: m.group().expandtabs(8), line) for line in text.split("\n")]
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines)).readline))
    except (tokenize.TokenError, SyntaxError, ValueError):
        return None
    edits = _edits(tokens, names_free="async def" not in text)
    for edit in sorted(edits, key=lambda e: e.start, reverse=True):
        (r0, c0), (r1, c1) = edit.start, edit.end
        if r0 != r1:
            continue  # every edit is within one line
        line = lines[r0 - 1]
        lines[r0 - 1] = line[:c0] + edit.text + line[c1:]
    return "\n".join(lines)


def _edits(tokens: list[tokenize.TokenInfo], names_free: bool) -> list[_Edit]:
    edits: list[_Edit] = []
    statement: list[tokenize.TokenInfo] = []  # the logical line so far
    for prev, tok in zip([None, *tokens], tokens):
        if prev is not None and prev.string == "0" and tok.type == tokenize.NUMBER and tok.start == prev.end and tok.string.isdigit():
            edits.append(_Edit(prev.start, tok.end, "0o" + tok.string))  # `0777`, read as 0 then 777
        if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            edits.extend(_statement_edits(statement))
            statement = []
        elif tok.type not in (tokenize.NL, tokenize.COMMENT, tokenize.INDENT, tokenize.DEDENT):
            statement.append(tok)
        edits.extend(_token_edits(tok, names_free))
    edits.extend(_backticks(tokens))
    return edits


def _token_edits(tok: tokenize.TokenInfo, names_free: bool) -> list[_Edit]:
    if tok.type == tokenize.NAME and names_free and tok.string in ("async", "await"):
        return [_Edit(tok.start, tok.end, tok.string + "_")]
    if tok.type == tokenize.NUMBER and _OCTAL.fullmatch(tok.string):
        return [_Edit(tok.start, tok.end, "0o" + tok.string[1:])]
    if tok.type == tokenize.NAME and tok.string in ("L", "l") and tok.start[1] > 0 and tok.line[tok.start[1] - 1].isdigit():
        return [_Edit(tok.start, tok.end, "")]  # `12L`: the number's long suffix
    return []


def _statement_edits(statement: list[tokenize.TokenInfo]) -> list[_Edit]:
    """Edits of one logical line: its simple statements start at its first token, after ``;`` and after the
    ``:`` of a one-line compound statement (``if x: print y``)."""
    edits: list[_Edit] = []
    starts, depth = [0], 0
    compound = bool(statement) and statement[0].string in _COMPOUND
    for i, tok in enumerate(statement):
        if tok.type == tokenize.OP and tok.string in "([{":
            depth += 1
        elif tok.type == tokenize.OP and tok.string in ")]}":
            depth -= 1
        elif depth == 0 and tok.type == tokenize.OP and (tok.string == ";" or (tok.string == ":" and compound)):
            starts.append(i + 1)
            compound = i + 1 < len(statement) and statement[i + 1].string in _COMPOUND
        elif depth == 0 and tok.type == tokenize.OP and tok.string == "<" and i + 1 < len(statement):
            nxt = statement[i + 1]
            if nxt.string == ">" and nxt.start == tok.end:
                edits.append(_Edit(tok.start, nxt.end, "!="))
    bounds = [*starts[1:], len(statement)]
    for begin, end in zip(starts, bounds):
        part = statement[begin:end]
        if part and part[-1].string == ";":
            part = part[:-1]
        edits.extend(_simple_statement(part))
    return edits


def _simple_statement(part: list[tokenize.TokenInfo]) -> list[_Edit]:
    if not part:
        return []
    head = part[0]
    if head.type == tokenize.NAME and head.string in _STATEMENTS:
        return _call_statement(part)
    if head.string == "except" or head.string == "raise":
        comma = _top_level_comma(part)
        if comma is None:
            return []
        if head.string == "except" and part[-1].string == ":" and comma + 2 == len(part) - 1:
            return [_Edit(part[comma].start, part[comma].end, " as ")]
        if head.string == "raise" and comma >= 2:
            return [_Edit(part[comma].start, part[comma].end, "("), _Edit(part[-1].end, part[-1].end, ")")]
    return []


def _call_statement(part: list[tokenize.TokenInfo]) -> list[_Edit]:
    """``print x, y`` -> ``print(x, y)``; a statement already written as a call (``print(x)``, ``print (x)``) or
    the name used otherwise (``print = log``, ``print.x``) is left alone."""
    head = part[0]
    if len(part) > 1 and part[1].type == tokenize.OP and part[1].string in ("(", "=", ".", ","):
        if part[1].string != "(" or _closes_at_end(part, 1):
            return []
    if len(part) == 1:
        return [_Edit(head.end, head.end, "()")]
    args, edits, stream = part[1:], [], ""
    if args[0].string == ">>":  # print >>f, x
        comma = _top_level_comma(args)
        target = args[1:comma] if comma is not None else args[1:]
        stream = "file=" + "".join(t.string for t in target)
        edits.append(_Edit(args[0].start, (args[comma] if comma is not None else args[-1]).end, ""))
        args = args[comma + 1 :] if comma is not None else []
    if args and args[-1].string == ",":  # `print x,`: Python 2's "no newline"
        edits.append(_Edit(args[-1].start, args[-1].end, ""))
        args = args[:-1]
    last = args[-1] if args else part[-1]
    close = (", " + stream if args else stream) + ")" if stream else ")"
    return [*edits, _Edit(head.end, head.end, "("), _Edit(last.end, last.end, close)]


def _closes_at_end(part: list[tokenize.TokenInfo], open_at: int) -> bool:
    """The bracket opened at ``open_at`` closes at the statement's last token: ``print (x)`` is a call."""
    depth = 0
    for i in range(open_at, len(part)):
        s = part[i].string
        if part[i].type == tokenize.OP and s in "([{":
            depth += 1
        elif part[i].type == tokenize.OP and s in ")]}":
            depth -= 1
            if depth == 0:
                return i == len(part) - 1
    return False


def _top_level_comma(part: list[tokenize.TokenInfo]) -> int | None:
    depth = 0
    for i, tok in enumerate(part):
        if tok.type != tokenize.OP:
            continue
        if tok.string in "([{":
            depth += 1
        elif tok.string in ")]}":
            depth -= 1
        elif tok.string == "," and depth == 0:
            return i
    return None


def _backticks(tokens: list[tokenize.TokenInfo]) -> list[_Edit]:
    """```x``` -> ``repr(x)``, pairing the backticks of one line."""
    ticks = [t for t in tokens if t.type == tokenize.ERRORTOKEN and t.string == "`"]
    edits: list[_Edit] = []
    for a, b in zip(ticks[::2], ticks[1::2]):
        if a.start[0] == b.start[0]:
            edits += [_Edit(a.start, a.end, "repr("), _Edit(b.start, b.end, ")")]
    return edits
