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
from functools import lru_cache
from typing import Callable, Iterable, Sequence

INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*[<"]([^>"\n]+)[>"]', re.MULTILINE)
# `nav_msgs::Odometry pose_msg_;` / `private: sensor_msgs::msg::Imu imu_msg_;` / `nav_msgs::OccupancyGrid* _occGrid;`
# (no initializer: a raw pointer member is made with `new` in the constructor)
# with a default member initializer too (mrover's `sensor_msgs::ImagePtr mLeftImgMsg = boost::make_shared<sensor_msgs::Image>();`)
_MEMBER = re.compile(r"^[ \t]*(?:(?:private|public|protected)[ \t]*:[ \t]*)?((?:\w+::)+\w+)(?:[ \t]*\*[ \t]*|[ \t]+)(\w+)"
                     r"[ \t]*(?:=[^;{}\n]*|\{[^;{}\n]*\})?[ \t]*;", re.MULTILINE)
MAX_HEADER_BYTES = 512 * 1024


def own_headers(
    text: str,
    rel_path: str,
    exists: Callable[[str], bool],
    package_dirs: Iterable[str],
    include_dirs: Iterable[str] = (),
    found: dict[str, str | None] | None = None,
) -> list[str]:
    """Scan-root-relative paths of the headers ``text`` includes that live in the scanned tree: next to
    the file, under a package's ``include/`` (``#include "gazebo_plugins/gazebo_ros_p3d.h"``) or under
    ``include_dirs`` (the package's other ``include`` folders, which CMake adds). ``found``: where each
    include was found outside the file's folder, kept by the caller for the files sharing those folders."""
    here = os.path.dirname(rel_path)
    found = {} if found is None else found
    shared: list[str] | None = None
    out: list[str] = []
    for inc in INCLUDE.findall(text):
        if not inc.endswith((".h", ".hh", ".hpp", ".hxx")):
            continue
        local = os.path.normpath(os.path.join(here, inc))
        if not local.startswith("..") and exists(local):
            out.append(local)
            continue
        if inc not in found:
            shared = shared if shared is not None else [*(os.path.join(d, "include") for d in package_dirs), *include_dirs]
            cands = (os.path.normpath(os.path.join(d, inc)) for d in shared)
            found[inc] = next((c for c in cands if not c.startswith("..") and exists(c)), None)
        hit = found[inc]
        if hit is not None:
            out.append(hit)
    return out


@dataclass(frozen=True)
class PackageIndex:
    """A package's ``include`` folders (then their subfolders) and C++ sources by file stem (scan-root-relative paths)."""

    include_dirs: tuple[str, ...] = ()
    sources: dict[str, tuple[str, ...]] = field(default_factory=dict)


MAX_INDEXED = 20_000  # directory entries looked at per package: a vendored SDK must not stall a scan
_SOURCE_EXTS = (".cpp", ".cc", ".cxx")


def index_package(root: str, package_dir: str) -> PackageIndex:
    """The ``include`` folders and sources of the package at ``package_dir`` (relative to ``root``); symlinked
    folders are not followed (os.walk), build products are skipped."""
    includes: list[str] = []
    named: list[str] = []  # include/<pkg>/: CMake's `include_directories(include/${PROJECT_NAME})` makes `#include "x.h"` find it
    sources: dict[str, list[str]] = {}
    seen = 0
    for d, dirs, files in os.walk(os.path.join(root, package_dir)):
        dirs[:] = sorted(x for x in dirs if x not in ("build", "install", "log", ".git", "test", "tests"))
        rel = os.path.relpath(d, root)
        rel = "" if rel == "." else rel
        seen += len(dirs) + len(files)
        if seen > MAX_INDEXED:
            break
        if os.path.basename(d) == "include":
            includes.append(rel)
        elif os.path.basename(os.path.dirname(d)) == "include":
            named.append(rel)
        for name in files:
            stem, ext = os.path.splitext(name)
            if ext in _SOURCE_EXTS:
                sources.setdefault(stem, []).append(os.path.join(rel, name))
    return PackageIndex(tuple(includes + named), {k: tuple(v) for k, v in sources.items()})


def implementation_of(header: str, index: PackageIndex) -> str | None:
    """The one source file of the package named like ``header`` (``sl_tools.hpp`` -> ``src/sl_tools.cpp``)."""
    found = index.sources.get(os.path.splitext(os.path.basename(header))[0], ())
    return found[0] if len(found) == 1 else None


@lru_cache(maxsize=256)
def member_declarations(header_text: str) -> dict[str, str]:
    """Member name -> declared type text, for declarations of namespaced types in a header."""
    return {name: type_text for type_text, name in _MEMBER.findall(header_text)}


_ALIAS = re.compile(r"\busing[ \t]+(\w+)[ \t]*=[ \t]*((?:\w+::)+\w+)[ \t]*;")
_TYPEDEF = re.compile(r"\btypedef[ \t]+((?:\w+::)+\w+)[ \t]+(\w+)[ \t]*;")


def type_aliases(texts: Sequence[str]) -> dict[str, str]:
    """Alias -> namespaced type, for ``using A = ns::T;`` and ``typedef ns::T A;`` in any of ``texts``."""
    out: dict[str, str] = {}
    for text in texts:
        out.update(_aliases_in(text))
    return out


@lru_cache(maxsize=512)
def _aliases_in(text: str) -> tuple[tuple[str, str], ...]:
    """One text's aliases (a header is read for every source that includes it)."""
    if "using" not in text and "typedef" not in text:
        return ()
    return (*_ALIAS.findall(text), *((alias, target) for target, alias in _TYPEDEF.findall(text)))
_PLAIN_MEMBER = re.compile(r"^[ \t]*(\w+)[ \t]+(\w+)[ \t]*;", re.MULTILINE)


@lru_cache(maxsize=256)
def plain_members(header_text: str) -> dict[str, str]:
    """Member name -> type, for members of a type written without a namespace (``ClusterList cluster_list;``)."""
    return {name: type_text for type_text, name in _PLAIN_MEMBER.findall(header_text)}


@lru_cache(maxsize=256)
def aliased_members(header_text: str) -> dict[str, str]:
    """Member name -> aliased type text, for members declared through a ``using`` alias of the header
    (``using ControllerStateMsgTf = tf2_msgs::msg::TFMessage;`` then ``ControllerStateMsgTf tf_msg_;``)."""
    aliases = dict(_ALIAS.findall(header_text))
    if not aliases:
        return {}
    return {name: aliases[alias] for name, alias in plain_members(header_text).items() if alias in aliases}


_COMMENT_OR_STRING = re.compile(r"//[^\n]*|/\*.*?\*/|\"(?:\\.|[^\"\\\n])*\"", re.DOTALL)


@lru_cache(maxsize=64)
def code_only(text: str) -> str:
    """C++ text with its comments blanked (strings kept): ``// m.header.frame_id;`` left in a comment sets nothing."""
    return _COMMENT_OR_STRING.sub(lambda m: m.group() if m.group().startswith('"') else " ", text)


def blank_keeping_lines(text: str) -> str:
    """C++ text with its comments and string literals blanked and its line breaks kept (line numbers still
    count): a fill left in a comment fills nothing, a name inside a string is no use of it."""
    return _COMMENT_OR_STRING.sub(lambda m: "\n" * m.group().count("\n") or " ", text)


def mentions_field(texts: Iterable[str], member: str, field: str) -> bool:
    """Some text writes ``member.field`` or ``member->field`` (inline code in a header, say)."""
    pattern = re.compile(rf"\b{re.escape(member)}\s*(?:\[[^\]\n]*\]\s*)?(?:\.|->)\s*{re.escape(field)}\b")
    return any(pattern.search(t) for t in texts)


def header_mentions(texts: Iterable[str], member: str) -> int:
    """How often the texts touch ``member.header`` other than its stamp or seq (which never give it a frame):
    ``m.header.frame_id = ...``, ``m.header = h``, ``fill(m.header)``."""
    pattern = re.compile(rf"\b{re.escape(member)}\s*(?:\[[^\]\n]*\]\s*)?(?:\.|->)\s*header\b(?!\s*\.\s*(?:stamp|seq)\b)")
    return sum(len(pattern.findall(t)) for t in texts)


def mentions_header(texts: Iterable[str], member: str) -> bool:
    """Some text touches ``member.header`` other than its stamp or seq."""
    return header_mentions(texts, member) > 0


@dataclass
class HeaderCopies:
    """One function walk's header writes: where a message's ``header.frame_id`` was set, and header copies
    that overwrite it with a header whose frame_id was never set (``pcl_conversions::toPCL(h, cloud.header)``
    after ``cloud.header.frame_id = ...``). An overwrite the function sets right again is no finding."""

    written: dict[str, int] = field(default_factory=dict)  # message path -> line its header.frame_id was set
    pending: dict[str, tuple[int, str]] = field(default_factory=dict)  # message path -> (line, what overwrote it)
    # a transform inside another message replaced whole by one with empty frames (`state.t = tf2::eigenToTransform(e)`):
    # path -> (line, what replaced it), until its header.frame_id / child_frame_id is set again
    replaced_frame: dict[str, tuple[int, str]] = field(default_factory=dict)
    replaced_child: dict[str, tuple[int, str]] = field(default_factory=dict)
    frames: dict[str, str] = field(default_factory=dict)  # message path -> the frame last set, when known

    def frame_set(self, owner: str, line: int, frame: str | None = None) -> None:
        self.written[owner] = line
        if frame is None:
            self.frames.pop(owner, None)
        else:
            self.frames[owner] = frame
        self.pending.pop(owner, None)
        self.replaced_frame.pop(owner, None)

    def child_set(self, owner: str) -> None:
        self.replaced_child.pop(owner, None)

    def replaced(self, owner: str, line: int, how: str) -> None:
        """``owner`` (a transform inside a message), whose frame the function set, replaced by one with no frames."""
        if owner in self.written:
            frame = f" to '{self.frames[owner]}'" if owner in self.frames else ""
            what = f"{how} replaces the whole transform '{owner}' (its header.frame_id was set{frame} at line {self.written[owner]})"
            self.replaced_frame[owner] = (line, what)
            self.replaced_child[owner] = (line, what)

    def overwrite(self, owner: str, line: int, how: str) -> None:
        if owner in self.written:
            self.pending[owner] = (line, f"{how} overwrites the header.frame_id of '{owner}' set at line {self.written[owner]}")
