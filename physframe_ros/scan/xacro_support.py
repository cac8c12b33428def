"""xacro through the real ``xacro`` package, with ``$(find pkg)`` resolved inside the scanned tree.

xacro resolves packages through ament_index, which a source tree has no entry in; its resolver is
swapped for one that looks the package up among the scanned packages. Anything that still cannot be
resolved becomes a PARSE_ERROR finding naming the file and, where the text shows it, the line.
Joints in the expanded document have no source line, so each is mapped back to the ``<joint>``
element (often inside a macro) whose name template produces it.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from ..core.findings import Finding, Location
from ..core.tree import Edge
from .context import ScanContext
from .model import FileFacts
from .urdf import parse_urdf_file, robot_edges
from .xml_lines import XmlError, XmlNode, parse_xml

_FIND_SHARE = re.compile(r"\$\(find-pkg-share\s+")
_TEMPLATE_PART = re.compile(r"\$\{[^}]*\}|\$\([^)]*\)")


class _UnresolvedPackage(Exception):
    def __init__(self, package: str) -> None:
        super().__init__(package)
        self.package = package


@dataclass
class XacroResult:
    edges: list[Edge] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # relative paths of the xacro files read


def parse_xacro_file(text: str, rel_path: str, ctx: ScanContext) -> FileFacts:
    """A xacro file on its own, with its own argument defaults (launch files may pass others)."""
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    if "<robot" not in text:
        return facts  # a fragment of macros/properties meant to be included
    res = expand_robot(rel_path, {}, ctx, "", None)
    facts.edges.extend(res.edges)
    facts.findings.extend(res.findings)
    return facts


def expand_robot(rel_path: str, args: dict[str, str], ctx: ScanContext, prefix: str, referenced_at: Location | None) -> XacroResult:
    """Expand a xacro (or plain URDF) with launch-file ``args`` and return the edges it declares."""
    res = XacroResult(files=[rel_path])
    abs_path = ctx.abs_str(rel_path)
    if not rel_path.endswith(".xacro"):
        plain = _plain_urdf(abs_path, rel_path, prefix)
        if plain is not None:  # no xacro in it: read directly, with exact lines
            res.edges, res.findings = plain
            return res
    try:
        robot, included = _expand_cached(abs_path, tuple(sorted(args.items())), _mtime(abs_path), ctx)
    except Exception as exc:  # xacro raises many kinds; all mean "this description could not be built"
        res.findings.append(_failure(exc, rel_path, abs_path, ctx, referenced_at))
        return res
    for f in included:
        rel = ctx.rel(f)
        if rel is not None and rel not in res.files:
            res.files.append(rel)
    locate = _joint_locator([ctx.abs_str(f) for f in res.files], rel_path, ctx)
    res.edges, res.findings = robot_edges(robot, locate, prefix)
    return res


def _plain_urdf(abs_path: str, rel_path: str, prefix: str) -> tuple[list[Edge], list[Finding]] | None:
    try:
        with open(abs_path, encoding="utf-8", errors="replace") as fh:
            text = fh.read()
    except OSError:
        return None  # xacro reports it
    if "xacro" in text or "$(" in text:
        return None
    facts = parse_urdf_file(text, rel_path, prefix)
    return facts.edges, facts.findings


def _failure(exc: Exception, rel_path: str, abs_path: str, ctx: ScanContext, referenced_at: Location | None) -> Finding:
    inner = getattr(exc, "exc", None)  # XacroException wraps what our resolver raised
    unresolved = exc if isinstance(exc, _UnresolvedPackage) else inner if isinstance(inner, _UnresolvedPackage) else None
    if unresolved is not None:
        where = _find_text_line(abs_path, f"{unresolved.package})") or Location(rel_path, None)
        return Finding(
            "PARSE_ERROR",
            f"{rel_path}: xacro needs package '{unresolved.package}', which is not in the scanned tree; its joints are not checked "
            "(scan the workspace that holds it too)",
            (), _relocate(where, ctx))
    msg = " ".join(str(exc).split()) or type(exc).__name__
    loc = referenced_at or Location(rel_path, getattr(exc, "lineno", None))
    return Finding("PARSE_ERROR", f"{rel_path}: xacro failed: {msg}", (), loc)


@lru_cache(maxsize=32)
def _expand_cached(abs_path: str, args: tuple[tuple[str, str], ...], _mtime_ns: int, ctx: ScanContext) -> tuple[XmlNode, list[str]]:
    """One expansion per description and argument set: many launch files load the same robot."""
    return _expand(abs_path, dict(args), ctx)


def _expand(abs_path: str, args: dict[str, str], ctx: ScanContext) -> tuple[XmlNode, list[str]]:
    import xacro
    import xacro.substitution_args as sa

    def find(package: str) -> str:
        d = ctx.package_dir(package)
        if d is None:
            raise _UnresolvedPackage(package)
        return d

    original_resolve = sa.resolve_args

    def resolve(arg_str: Any, context: Any = None, filename: Any = None) -> Any:
        if isinstance(arg_str, str):
            arg_str = _FIND_SHARE.sub("$(find ", arg_str)  # ROS 2 spelling seen in xacro files
        return original_resolve(arg_str, context, filename)

    def env(name: str) -> str:
        raise sa.SubstitutionException(f"$(env {name}): the robot's environment is not known to a static scan")

    def optenv(name: str, default: str = "") -> str:
        return default  # the robot's environment is not the scanning machine's

    saved = (sa._eval_find, sa._eval_dict.get("find"), sa.resolve_args, xacro.all_includes, sa._eval_env, sa._eval_optenv,
             sa._eval_dict.get("env"), sa._eval_dict.get("optenv"))
    sa._eval_find = sa._eval_dict["find"] = find
    sa._eval_env = sa._eval_dict["env"] = env
    sa._eval_optenv = sa._eval_dict["optenv"] = optenv
    sa.resolve_args = resolve
    xacro.all_includes = []
    try:
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            doc = xacro.process_file(abs_path, mappings=dict(args), verbosity=0)
        return _from_dom(doc.documentElement), [os.path.abspath(f) for f in xacro.all_includes]
    finally:
        (sa._eval_find, sa._eval_dict["find"], sa.resolve_args, xacro.all_includes, sa._eval_env, sa._eval_optenv,
         sa._eval_dict["env"], sa._eval_dict["optenv"]) = saved


def _from_dom(el: Any) -> XmlNode:
    """xacro's DOM as an XmlNode, without writing and re-parsing the text (lines: see the locator)."""
    node = XmlNode(el.tagName, {k: v for k, v in el.attributes.items()}, 0)
    stack = [(el, node)]
    while stack:
        dom, out = stack.pop()
        for c in dom.childNodes:
            if c.nodeType == c.ELEMENT_NODE:
                child = XmlNode(c.tagName, {k: v for k, v in c.attributes.items()}, 0)
                out.children.append(child)
                stack.append((c, child))
    return node


def _relocate(loc: Location, ctx: ScanContext) -> Location:
    rel = ctx.rel(loc.file) if os.path.isabs(loc.file) else loc.file
    return Location(rel or loc.file, loc.line)


def _find_text_line(abs_path: str, needle: str) -> Location | None:
    try:
        with open(abs_path, encoding="utf-8", errors="replace") as fh:
            for i, line in enumerate(fh, 1):
                if needle in line:
                    return Location(abs_path, i)
    except OSError:
        pass
    return None


@lru_cache(maxsize=256)
def _joint_templates(abs_path: str, _mtime_ns: int) -> tuple[tuple[re.Pattern[str], int, int], ...]:
    """(name pattern, literal length, line) of every <joint name=...> element in a source file."""
    try:
        with open(abs_path, encoding="utf-8", errors="replace") as fh:
            root = parse_xml(fh.read())
    except (OSError, XmlError):
        return ()
    out = []
    for j in root.iter():
        if j.tag not in ("joint", "xacro:joint") or not j.get("name") or (j.find("parent") is None and j.find("child") is None):
            continue
        name = j.get("name") or ""
        literal = _TEMPLATE_PART.split(name)
        pattern = ".*?".join(re.escape(p) for p in literal)
        out.append((re.compile(pattern), sum(len(p) for p in literal) + (1000 if len(literal) == 1 else 0), j.line))
    return tuple(out)


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def _joint_locator(abs_files: list[str], main_rel: str, ctx: ScanContext) -> Callable[[XmlNode], Location]:
    stamps = {f: _mtime(f) for f in abs_files}  # a file edited since it was cached is read again

    def locate(node: XmlNode) -> Location:
        name = node.get("name") or ""
        best: tuple[int, str, int] | None = None
        for f in abs_files:
            for pattern, score, line in _joint_templates(f, stamps[f]):
                if pattern.fullmatch(name) and (best is None or score > best[0]):
                    best = (score, f, line)
        if best is None:
            return Location(main_rel, None)
        return Location(ctx.rel(best[1]) or main_rel, best[2])

    return locate
