"""MarkerArrays whose ``resize`` makes markers the function never fills.

``markers.markers.resize(5)`` makes five default Markers, each with an empty ``header.frame_id``. When the
function then fills ``markers[0]``, ``[1]``, ``[3]`` and ``[4]`` only (hdl_graph_slam), or none of them (a fill
call commented out: eband_local_planner), the array goes out with markers RViz cannot place: it reports an
error for each and, in ROS 2, tf2 rejects the empty frame.

Read on the function's text, not walked: only the plain idiom is judged. Any other use of the array (an index
computed at run time, a loop over its markers, the array handed to a helper) may fill the markers, and the
function is left alone.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .headers import blank_keeping_lines

_RESIZE = re.compile(r"\b(\w+)\s*(?:\.|->)\s*markers\s*\.\s*resize\s*\(([^;()]*(?:\([^;()]*\)[^;()]*)*)\)\s*;")
_FIELD_OF = re.compile(r"(?:\.|->|::)\s*$")
_ELEMENT = re.compile(r"\s*(?:\.|->)\s*markers\s*(?:\[\s*(\d+)\s*\]|\.\s*(?:size|empty)\s*\(\s*\))")
_PUBLISH_OPEN, _CLOSE = re.compile(r"\bpublish\s*\(\s*\*?\s*$"), re.compile(r"\s*\)")
_RETURN, _END = re.compile(r"\breturn\s+$"), re.compile(r"\s*;")
_MAX_MARKERS = 1000  # a larger constant count is no hand-filled array


@dataclass(frozen=True)
class DefaultMarkers:
    """A finding's facts: the array, the resize line, the count (None: computed), the markers left default
    (empty: all of them), and where the array leaves the function (a publish line, or None for a return)."""

    array: str
    resize_line: int
    count: int | None
    unfilled: tuple[int, ...]
    published_line: int | None

    @property
    def line(self) -> int:
        """Where a user acts: the resize when some markers are filled (its count is off), else the publish."""
        return self.resize_line if self.unfilled or self.published_line is None else self.published_line

    def message(self) -> str:
        made = f"resized to {self.count}" if self.count is not None else "resized"
        left = (f"marker{'s' if len(self.unfilled) > 1 else ''} {', '.join(map(str, self.unfilled))} of them "
                f"{'are' if len(self.unfilled) > 1 else 'is'} never filled") if self.unfilled else "none of its markers is filled"
        out = (f"published at line {self.published_line}" if self.published_line is not None
               else "returned to be published")
        return (f"MarkerArray '{self.array}' is {made} at line {self.resize_line} but {left} before it is {out}: "
                "a default Marker has an empty header.frame_id, which RViz cannot place and tf2 rejects")


def _line(text: str, pos: int, first_line: int) -> int:
    return first_line + text.count("\n", 0, pos)


def default_markers(body: str, first_line: int) -> list[DefaultMarkers]:
    """The MarkerArrays of one function (``body``: its text, starting at ``first_line``) resized and sent on
    with markers never filled."""
    if "resize" not in body or "markers" not in body:
        return []
    code = blank_keeping_lines(body)
    out: list[DefaultMarkers] = []
    for m in _RESIZE.finditer(code):
        found = _judge(code, m, first_line)
        if found is not None:
            out.append(found)
    return out


def _judge(code: str, resize: re.Match[str], first_line: int) -> DefaultMarkers | None:
    name = resize.group(1)
    declared = re.search(rf"\bMarkerArray\s+{re.escape(name)}\s*;", code[: resize.start()])
    if declared is None:
        return None  # a member or a parameter: other code may fill it
    if re.search(rf"\b{re.escape(name)}\b", code[declared.end() : resize.start()]):
        return None  # used before the resize (markers pushed first, say)
    count_text = resize.group(2).strip()
    count = int(count_text) if count_text.isdigit() and 0 < int(count_text) <= _MAX_MARKERS else None
    if count is None and count_text.isdigit():
        return None
    filled: set[int] = set()
    published: int | None = None
    returned = False
    use = re.compile(rf"\b{re.escape(name)}\b")
    for u in use.finditer(code, resize.end()):
        before = code[max(0, u.start() - 40) : u.start()]
        if _FIELD_OF.search(before):
            continue  # a field of something else (`markers.markers`: the array's own field)
        element = _ELEMENT.match(code, u.end())
        if element is not None:
            if element.group(1) is not None:
                filled.add(int(element.group(1)))
            continue
        if _PUBLISH_OPEN.search(before) and _CLOSE.match(code, u.end()):
            published = _line(code, u.start(), first_line) if published is None else published
            continue
        if _RETURN.search(before) and _END.match(code, u.end()):
            returned = True
            continue
        return None  # any other use may fill the markers
    if published is None and not returned:
        return None
    if count is None:
        if filled:
            return None
        unfilled: tuple[int, ...] = ()
    else:
        missing = tuple(i for i in range(count) if i not in filled)
        if filled and not missing:
            return None
        unfilled = missing if filled else ()
    return DefaultMarkers(name, _line(code, resize.start(), first_line), count, unfilled, published)
