"""A class model across files, kept small: message members a C++ file's own headers declare, and the
member messages the file publishes, checked once every method of the file has been walked.

``nav_msgs::Odometry pose_msg_;`` in ``gazebo_ros_p3d.h`` and ``pub_Queue->push(this->pose_msg_,
this->pub_)`` in the .cpp: the member's ``child_frame_id`` is set by no method of the file (nor by
the header's inline code), so the odometry goes out with it empty. Other files may still set it (a
base class, a second .cpp of the class): such findings are warnings.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable

_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.MULTILINE)
# `nav_msgs::Odometry pose_msg_;` / `private: sensor_msgs::msg::Imu imu_msg_;` (no initializer, no pointer)
_MEMBER = re.compile(r"^[ \t]*(?:(?:private|public|protected)[ \t]*:[ \t]*)?((?:\w+::)+\w+)[ \t]+(\w+)[ \t]*;", re.MULTILINE)
# `std::string mMapFrameId = "map";` / `std::string frame_{"odom"};` / `const std::string base_("base_link");`
_STRING_MEMBER = re.compile(
    r'^[ \t]*(?:const[ \t]+)?(?:std::)?string[ \t]+(\w+)[ \t]*(?:=[ \t]*"([^"\\\n]*)"|\{[ \t]*"([^"\\\n]*)"[ \t]*\}|\([ \t]*"([^"\\\n]*)"[ \t]*\))[ \t]*;',
    re.MULTILINE,
)
MAX_HEADER_BYTES = 512 * 1024


def own_headers(text: str, rel_path: str, exists: Callable[[str], bool], package_dirs: Iterable[str]) -> list[str]:
    """Scan-root-relative paths of the headers ``text`` includes that live in the scanned tree: next to
    the file, or under a package's ``include/`` (``#include "gazebo_plugins/gazebo_ros_p3d.h"``)."""
    here = os.path.dirname(rel_path)
    # beside the file, the sibling include/ of its src/ (`src/zed_camera/{src,include}`), a package's include/
    dirs = [here, os.path.join(os.path.dirname(here), "include"), *(os.path.join(d, "include") for d in package_dirs)]
    out: list[str] = []
    for inc in _INCLUDE.findall(text):
        if not inc.endswith((".h", ".hh", ".hpp", ".hxx")):
            continue
        for d in dirs:
            cand = os.path.normpath(os.path.join(d, inc))
            if not cand.startswith("..") and exists(cand):
                out.append(cand)
                break
    return out


def member_declarations(header_text: str) -> dict[str, str]:
    """Member name -> declared type text, for declarations of namespaced types in a header."""
    return {name: type_text for type_text, name in _MEMBER.findall(header_text)}


def member_string_defaults(header_text: str) -> dict[str, str]:
    """Member name -> the string its declaration in a header initialises it to (C++11 member defaults):
    the class's frame names when its methods live in the .cpp (``std::string mOdomFrameId = "odom";``).
    An empty default is left out: another .cpp of the class may set the member, so "" says nothing."""
    found = ((m.group(1), next(g for g in m.groups()[1:] if g is not None)) for m in _STRING_MEMBER.finditer(header_text))
    return {name: value for name, value in found if value}


def mentions_field(texts: Iterable[str], member: str, field: str) -> bool:
    """Some text writes ``member.field`` or ``member->field`` (inline code in a header, say)."""
    pattern = re.compile(rf"\b{re.escape(member)}\s*(?:\.|->)\s*{re.escape(field)}\b")
    return any(pattern.search(t) for t in texts)


def mentions_header(texts: Iterable[str], member: str) -> bool:
    """Some text touches ``member.header`` other than its stamp or seq (which never give it a frame):
    ``m.header.frame_id = ...``, ``m.header = h``, ``fill(m.header)``."""
    pattern = re.compile(rf"\b{re.escape(member)}\s*(?:\.|->)\s*header\b(?!\s*\.\s*(?:stamp|seq)\b)")
    return any(pattern.search(t) for t in texts)


@dataclass
class HeaderCopies:
    """One function walk's header writes: where a message's ``header.frame_id`` was set, and header copies
    that overwrite it with a header whose frame_id was never set (``pcl_conversions::toPCL(h, cloud.header)``
    after ``cloud.header.frame_id = ...``). An overwrite the function sets right again is no finding."""

    written: dict[str, int] = field(default_factory=dict)  # message path -> line its header.frame_id was set
    pending: dict[str, tuple[int, str]] = field(default_factory=dict)  # message path -> (line, what overwrote it)

    def frame_set(self, owner: str, line: int) -> None:
        self.written[owner] = line
        self.pending.pop(owner, None)

    def overwrite(self, owner: str, line: int, how: str) -> None:
        if owner in self.written:
            self.pending[owner] = (line, f"{how} overwrites the header.frame_id of '{owner}' set at line {self.written[owner]}")
