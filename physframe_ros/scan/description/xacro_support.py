"""xacro through the real ``xacro`` package, with ``$(find pkg)`` resolved inside the scanned tree.

xacro resolves packages through ament_index, which a source tree has no entry in; its resolver is
swapped for one that looks the package up among the scanned packages. Anything that still cannot be
resolved becomes a PARSE_ERROR finding naming the file and, where the text shows it, the line.
Joints in the expanded document have no source line, so each is mapped back to the ``<joint>``
element (often inside a macro) whose name template produces it.
"""

from __future__ import annotations

import contextlib
import glob
import io
import math
import os
import re
from collections import ChainMap
from contextlib import ExitStack
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, Callable, Iterator, Mapping

from ...core.checks import check_tree
from ...core.conventions import default_conventions
from ...core.findings import Finding, Location
from ...core.tree import Edge
from ..code.optical import UNPLACED
from ..context import MAX_FILE_BYTES, ReadRefused, ScanContext
from ..controllers import controller_edges
from ..model import FileFacts, SimSensor
from ..safe_eval import BUILTINS, MATH, MAX_STR, MAX_WEIGHT, ExpressionLimit, UnsafeExpression, evaluate, safe_functions, weight
from ..source_text import decode_source
from ..xml_lines import XmlError, XmlNode, parse_xml
from .camera_plugins import CAMERA_SENSORS, FRAME_TAGS, gazebo_sensors, is_camera_sensor
from .inserted_blocks import doubled_origins
from .urdf import parse_urdf_file, robot_edges

_FIND_SHARE = re.compile(r"\$\(find-pkg-share\s+")
_TEMPLATE_PART = re.compile(r"\$\{[^}]*\}|\$\([^)]*\)")

# Bounds of one expansion: real descriptions stay far below them (the largest in ros2-kilted expands
# to ~5k elements); a few hundred hostile bytes would otherwise reach gigabytes.
MAX_XACRO_FILES = 1000
MAX_YAML_BYTES = 1 << 20
MAX_EVALUATIONS = 500_000
MAX_EXPANDED_CHARS = 64_000_000
MAX_EXPANDED_ELEMENTS = 1_000_000
MAX_MACRO_DEPTH = 100


class _UnresolvedPackage(Exception):
    def __init__(self, package: str) -> None:
        super().__init__(package)
        self.package = package


@dataclass
class XacroResult:
    edges: list[Edge] = field(default_factory=list)
    findings: list[Finding] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # relative paths of the xacro files read
    partial: bool = False  # built without a package outside the tree: not the whole robot
    sensors: list[SimSensor] = field(default_factory=list)  # its simulated lidars, IMUs and sonars


def parse_xacro_file(text: str, rel_path: str, ctx: ScanContext) -> FileFacts:
    """A xacro file on its own, with its own argument defaults (launch files may pass others)."""
    facts = FileFacts(rel_path, lines=text.count("\n") + 1)
    if "<robot" not in text:
        return facts  # a fragment of macros/properties meant to be included
    res = expand_robot(rel_path, {}, ctx, "", None)
    facts.edges.extend(res.edges)
    facts.findings.extend(res.findings)
    facts.partial = res.partial
    facts.sim_sensors.extend(res.sensors)
    _switch_variants(text, rel_path, ctx, facts)
    if not res.edges and "xacro:macro" in text:
        facts.findings.extend(macro_findings(text, rel_path, ctx))
    elif not res.edges and any(f.code == "PARSE_ERROR" and _UNDEFINED.search(f.message) for f in res.findings):
        facts.findings.extend(fragment_findings(text, rel_path, ctx))
    return facts


MAX_MACROS_ALONE = 12  # macros of one file expanded on their own
# a parameter that names something (a frame, a link, a topic): left open as the text "{name}"; any other gets
# NaN, so a pose computed from it is unknown, never a made-up identity
_NAME_PARAM = re.compile(r"(?:^|_)(?:name|prefix|suffix|parent|child|link|frame|id|topic|ns|namespace|robot|camera|sensor|base)(?:_|$)")
MACRO_ALONE = "macro_alone"  # Finding.details key: found in a macro expanded on its own (the scanner drops a repeat)


def macro_findings(text: str, rel_path: str, ctx: ScanContext) -> list[Finding]:
    """Rotation findings (REP-103 optical frames, camera plugin frames) of the joints a file of macros defines
    that nothing in the file calls (a sensor's description package): each macro is called on its own with its
    parameters left open (names as ``{name}``, numbers NaN, blocks as an unknown ``<origin>``), so only the
    rotations the macro itself writes out are judged."""
    try:
        root = parse_xml(text)
    except XmlError:
        return []
    out: list[Finding] = []
    for macro in [el for el in root.iter() if el.tag == "xacro:macro" and el.get("name") and _judged(el)][:MAX_MACROS_ALONE]:
        name = macro.get("name") or ""
        attrs, blocks = [], []
        for param in (macro.get("params") or "").split():
            if param.startswith("*"):
                blocks.append('<origin xyz="nan nan nan" rpy="nan nan nan"/>' if not param.startswith("**") else "<content/>")
            elif "=" not in param:  # `x:=1`, `x:=^|1`: the macro's own default applies
                attrs.append(f'{param}="{_placeholder(param)}"')
        call = f'<xacro:{name} {" ".join(attrs)}>{"".join(blocks)}</xacro:{name}>'
        out.extend(_alone(root, rel_path, ctx, call, f"macro '{name}' expanded on its own: {{...}} stands for what a caller passes"))
    return out


def fragment_findings(text: str, rel_path: str, ctx: ScanContext) -> list[Finding]:
    """The same for a file of joints that takes its names and values from the file that includes it (create_autonomy's
    astra.xacro: ``${name}``, ``${parent_link}``): expanded with those left open."""
    if not _judged_text(text):
        return []
    try:
        root = parse_xml(text)
    except XmlError:
        return []
    return _alone(root, rel_path, ctx, "", "expanded on its own: {...} stands for what the including file defines")


def _alone(root: XmlNode, rel_path: str, ctx: ScanContext, call: str, note: str) -> list[Finding]:
    """The rotation findings at lines of ``rel_path`` of the robot that ``call`` builds after including the file."""
    abs_path = ctx.abs_str(rel_path)
    robot = _expand_alone(abs_path, call, ctx)
    if robot is None:
        return []
    edges, findings = robot_edges(robot, _placeholder_locator(root, rel_path, _JointLocator([abs_path], rel_path, ctx)), "")
    return [replace(f, message=f"{f.message} ({note})", details={**f.details, MACRO_ALONE: rel_path})
            for f in [*findings, *check_tree(edges, default_conventions())]
            if (f.code == "INCORRECT_TRANSFORM" or (f.code == "INVALID_FRAME_ID" and "Gazebo plugin" in f.message))
            and UNPLACED not in f.details  # the frames other files of the robot place are not known here
            and f.location is not None and f.location.file == rel_path and f.location.line]


# properties an including file usually defines; any other name the macro needs from its includer is NaN
_INCLUDER_CONSTANTS = {"M_PI": math.pi, "PI": math.pi, "deg_to_rad": math.pi / 180, "DEG_TO_RAD": math.pi / 180, "M_PI_2": math.pi / 2}
_UNDEFINED = re.compile(r"name '(\w+)' is not defined")
MAX_INCLUDER_NAMES = 8


def _expand_alone(abs_path: str, call: str, ctx: ScanContext) -> XmlNode | None:
    """The robot that ``call`` (a macro of ``abs_path``) builds alone, the properties it takes from its includer
    defined (known constants by value, others NaN); None when xacro still fails."""
    given: dict[str, str] = {}
    for _ in range(MAX_INCLUDER_NAMES + 1):
        props = "".join(f'<xacro:property name="{k}" value="{v}"/>' for k, v in given.items())
        wrapper = (f'<robot name="physframe_macro" xmlns:xacro="http://www.ros.org/wiki/xacro">{props}'
                   f'<xacro:include filename="{os.path.basename(abs_path)}"/>{call}</robot>')
        try:
            return _expand(abs_path, {}, ctx, wrapper, absent=True)[0]  # its includer's macros are not known here
        except Exception as exc:  # xacro raises many kinds; a macro that needs its caller's values says nothing alone
            missing = _UNDEFINED.search(str(exc))
            if missing is None or missing.group(1) in given:
                return None
            given[missing.group(1)] = _placeholder(missing.group(1))
    return None


def _placeholder(name: str) -> str:
    """What a name the includer or the caller gives stands for: a known constant, ``{name}`` for a name, else NaN."""
    if name in _INCLUDER_CONSTANTS:
        return repr(_INCLUDER_CONSTANTS[name])
    return f"{{{name}}}" if _NAME_PARAM.search(name.lower()) else "nan"


def _judged_text(text: str) -> bool:
    """The text form of :func:`_judged`, for a whole file."""
    return "optical" in text or "<sensor:" in text or any(f'type="{t}"' in text for t in CAMERA_SENSORS)


def _judged(macro: XmlNode) -> bool:
    """A macro with something those checks judge: an optical frame, a camera sensor (expanding costs a xacro run)."""
    for el in macro.iter():
        if el.tag in ("parent", "child") and "optical" in (el.get("link") or ""):
            return True
        if is_camera_sensor(el):
            return True
    return False


def _placeholder_locator(root: XmlNode, rel_path: str, fallback: Callable[[XmlNode], Location]) -> Callable[[XmlNode], Location]:
    """Joints and camera frame elements of a macro expanded with ``{param}`` placeholders, found by their
    template written the same way (``${name}_${left}_joint`` is ``{name}_{left}_joint``), which tells apart
    templates that differ only in the parameter they use."""
    lines: dict[tuple[str, str], int] = {}
    for el in root.iter():
        kind = _located_kind(el)
        if kind is not None:
            template = (el.text.strip() if kind == "frame" else el.get("name") or "").replace("${", "{")
            lines.setdefault((kind, template), el.line)

    def locate(node: XmlNode) -> Location:
        kind = _located_kind(node)
        line = lines.get((kind or "", node.text.strip() if kind == "frame" else node.get("name") or ""))
        return Location(rel_path, line) if line is not None else fallback(node)

    return locate


# <xacro:arg name="use_camera" default="false"/> ... <xacro:if value="$(arg use_camera)">
_BOOL_ARG = re.compile(r"""<xacro:arg\s+name\s*=\s*["'](\w+)["']\s+default\s*=\s*["'](true|false|True|False|0|1)["']""")
_CONDITION = re.compile(r"""<xacro:(?:if|unless)\s+value\s*=\s*["'][^"']*\$\(arg\s+(\w+)\)""")


def _switch_variants(text: str, rel_path: str, ctx: ScanContext, facts: FileFacts) -> None:
    """A boolean argument a robot's own ``xacro:if`` switches on (a camera, a gripper): the robot with it
    flipped is a variant beside the default, when the trees differ. One argument, the first such."""
    switched = set(_CONDITION.findall(text))
    arg = next(((name, default) for name, default in _BOOL_ARG.findall(text) if name in switched), None)
    if arg is None or not facts.edges:
        return
    name, default = arg
    flipped = "false" if default.lower() in ("true", "1") else "true"
    other = expand_robot(rel_path, {name: flipped}, ctx, "", None)
    if not other.edges or {(e.parent, e.child) for e in other.edges} == {(e.parent, e.child) for e in facts.edges}:
        return
    facts.variants = {((name, default.lower() if default.isalpha() else default),): facts.edges, ((name, flipped),): other.edges}
    facts.edges = []


def expand_robot(rel_path: str, args: dict[str, str], ctx: ScanContext, prefix: str, referenced_at: Location | None) -> XacroResult:
    """Expand a xacro (or plain URDF) with launch-file ``args`` and return the edges it declares."""
    res = XacroResult(files=[rel_path])
    abs_path = ctx.abs_str(rel_path)
    res.findings.extend(_doubled_origins(abs_path, _mtime(abs_path), ctx, rel_path))
    if not rel_path.endswith(".xacro"):
        plain = _plain_urdf(abs_path, rel_path, prefix, ctx)
        if plain is not None:  # no xacro in it: read directly, with exact lines
            res.edges, res.findings, res.sensors = plain.edges, plain.findings, plain.sim_sensors
            return res
    args, assumed, absent = dict(args), 0, None
    while True:
        try:
            robot, included = _expand_cached(abs_path, tuple(sorted(args.items())), _mtime(abs_path), ctx, absent is not None)
            break
        except Exception as exc:  # xacro raises many kinds; all mean "this description could not be built"
            # a package outside the scan (a sensor's description): the robot is built without what it gives, once
            if isinstance(_cause(exc), _UnresolvedPackage) and absent is None:
                absent = exc
                continue
            # `$(arg veh)` with no <xacro:arg> declaring it: whoever runs xacro passes it (duckietown's launch files);
            # expanded with veh:=veh the rest is still checked, its names standing for whatever is passed
            missing = _UNDEFINED_ARG.search(" ".join(str(exc).split()))
            if missing is None or missing.group(1) in args or assumed == MAX_ASSUMED_ARGS:
                res.findings.append(_failure(absent or exc, rel_path, abs_path, ctx, referenced_at))
                return res
            args[missing.group(1)] = _assumed_value(_read_text(abs_path, ctx) or "", missing.group(1))
            assumed += 1
    for f in included:
        rel = ctx.rel(f)
        if rel is not None and rel not in res.files:
            res.files.append(rel)
    locate = _JointLocator([ctx.abs_str(f) for f in res.files], rel_path, ctx, robot)
    own = res.findings
    res.edges, res.findings = robot_edges(robot, locate, prefix, lambda loc: _origin_of(loc, ctx), locate.rotation_at)
    res.findings[:0] = own
    res.sensors = gazebo_sensors(robot, locate, prefix)
    res.edges.extend(_control_plugin_edges(robot, ctx, res.files))
    for rel in res.files[1:]:
        res.findings.extend(_doubled_origins(ctx.abs_str(rel), _mtime(ctx.abs_str(rel)), ctx, rel))
    if absent is not None:
        # links the left-out macros would have made are unknown, not missing
        res.partial = True
        res.findings = [_failure(absent, rel_path, abs_path, ctx, referenced_at, built=True),
                        *(f for f in res.findings if f.code not in ("MISSING_FRAME", "MISSING_CHILD_FRAME"))]
    return res


def _control_plugin_edges(robot: XmlNode, ctx: ScanContext, files: list[str]) -> list[Edge]:
    """The odometry edge of each drive controller in the YAML file a Gazebo ros2_control plugin of the robot loads
    (``<plugin filename="gz_ros2_control-system"><parameters>$(find pkg)/config/controllers.yaml</parameters>``): it
    runs whenever the robot is simulated, beside the robot's own joints. The file joins ``files``."""
    out: list[Edge] = []
    for plugin in robot.iter("plugin"):
        for param in plugin.findall("parameters"):
            path = param.text.strip()
            rel = ctx.source_file(path) if path.endswith((".yaml", ".yml")) else None
            text = _read_text(ctx.abs_str(rel), ctx) if rel is not None else None
            if rel is None or text is None:
                continue
            out.extend(controller_edges(text, rel))
            if rel not in files:
                files.append(rel)
    return out


@lru_cache(maxsize=256)
def _doubled_origins(abs_path: str, _mtime_ns: int, ctx: ScanContext, rel_path: str) -> tuple[Finding, ...]:
    """Macros of one xacro file that insert a block as the origin of two chained joints (read once per file)."""
    text = _read_text(abs_path, ctx)
    if text is None or "insert_block" not in text:
        return ()
    try:
        return tuple(doubled_origins(parse_xml(text), rel_path))
    except XmlError:
        return ()  # the expansion reports what is wrong with it


MAX_ASSUMED_ARGS = 8  # undeclared xacro arguments given an assumed value, per description; one more is a PARSE_ERROR
_UNDEFINED_ARG = re.compile(r"Undefined substitution argument (\w+)")


def _assumed_value(text: str, arg: str) -> str:
    """A value for undeclared xacro argument ``arg``: the first literal the file compares it with, directly or through
    the macro parameter it is passed as (``model="$(arg model)"`` ... ``${model in ['DB18', 'DB19']}``), so a
    branch of the robot is built; else its own name."""
    names = {arg, *re.findall(rf"""(\w+)\s*=\s*["']\$\(arg\s+{re.escape(arg)}\)["']""", text)}
    alternatives = "|".join(re.escape(n) for n in sorted(names))
    compared = re.search(rf"""\$\{{\s*(?:{alternatives})\s*(?:==|in)\s*\[?\s*['"]([\w./-]+)['"]""", text)
    return compared.group(1) if compared is not None else arg


def needs_xacro(text: str) -> bool:
    """A description xacro must expand first, whatever its file name (many ``.urdf`` files hold
    ``<xacro:arg>`` and ``${...}`` and are run through xacro by their launch files)."""
    return "xacro" in text or "$(" in text or "${" in text


def _plain_urdf(abs_path: str, rel_path: str, prefix: str, ctx: ScanContext) -> FileFacts | None:
    text = _read_text(abs_path, ctx)
    if text is None:
        return None  # the expansion reports it
    if needs_xacro(text):
        return None
    return parse_urdf_file(text, rel_path, prefix)


def _failure(exc: Exception, rel_path: str, abs_path: str, ctx: ScanContext, referenced_at: Location | None,
             built: bool = False) -> Finding:
    """The PARSE_ERROR for a description xacro could not build; ``built``: it was built without the package named."""
    cause = _cause(exc)
    if isinstance(cause, _UnresolvedPackage):
        where = _find_text_line(abs_path, f"{cause.package})", ctx) or Location(rel_path, None)
        outcome = ("the robot is checked without what its files give (links they add are unknown)" if built
                   else "its joints are not checked")
        return Finding(
            "PARSE_ERROR",
            f"{rel_path}: xacro needs package '{cause.package}', which is not in the scanned tree; {outcome} "
            "(scan the workspace that holds it too)",
            (), _relocate(where, ctx))
    loc = referenced_at or Location(rel_path, getattr(exc, "lineno", None))
    if isinstance(cause, _Refused):
        return Finding("PARSE_ERROR", f"{rel_path}: xacro tried to read {cause.what}, which is {cause.reason}; "
                       "its joints are not checked", (), loc)
    if isinstance(cause, (_Limit, ExpressionLimit)):
        return Finding("PARSE_ERROR", f"{rel_path}: xacro expansion stopped at a limit ({cause}); its joints are not checked", (), loc)
    if isinstance(cause, UnsafeExpression):
        return Finding("PARSE_ERROR", f"{rel_path}: xacro expression not evaluated: {cause} (a scan never runs code from the tree); "
                       "its joints are not checked", (), loc)
    msg = re.sub(r"<class '(?:\w+\.)*(\w+)'>", r"\1", " ".join(str(exc).split())) or type(exc).__name__
    said = " ".join(str(cause).split())
    if cause is not exc and said and msg.count(said) > 1:  # xacro repeats the wrapped error after its own text
        head, _, tail = msg.rpartition(" " + said)
        msg = head + tail
    return Finding("PARSE_ERROR", f"{rel_path}: xacro failed: {msg}", (), loc)


def _cause(exc: BaseException) -> BaseException:
    """What went wrong under xacro's wrapping (XacroException keeps it in ``exc``, nested per expression)."""
    for _ in range(100):
        inner = getattr(exc, "exc", None)
        if not isinstance(inner, BaseException):
            break
        exc = inner
    return exc


@lru_cache(maxsize=32)
def _expand_cached(abs_path: str, args: tuple[tuple[str, str], ...], _mtime_ns: int, ctx: ScanContext,
                   absent: bool = False) -> tuple[XmlNode, list[str]]:
    """One expansion per description and argument set: many launch files load the same robot."""
    return _expand(abs_path, dict(args), ctx, absent=absent)


def _expand(abs_path: str, args: dict[str, str], ctx: ScanContext, text: str | None = None,
            absent: bool = False) -> tuple[XmlNode, list[str]]:
    """``abs_path`` expanded, or ``text`` expanded as if it were that file (includes resolve from its folder).
    ``absent``: packages not in the tree are left out (their includes read nothing, their macros' calls are dropped)."""
    import xml.dom.minidom

    import xacro

    with ExitStack() as stack:
        for target, name, value in _sandbox(xacro, ctx, _Budget(), absent):
            stack.enter_context(_patched(target, name, value))
        with contextlib.redirect_stderr(io.StringIO()), contextlib.redirect_stdout(io.StringIO()):
            if text is None:
                doc = xacro.process_file(abs_path, mappings=dict(args), verbosity=0)
            else:
                xacro.init_stacks(abs_path)
                doc = legacy_tags(xml.dom.minidom.parseString(text))
                xacro.process_doc(doc, mappings=dict(args), verbosity=0)
        return _from_dom(doc.documentElement), [os.path.abspath(f) for f in xacro.all_includes]


# ROS 1 xacro before Jade read these tags without the xacro: prefix (PR2's descriptions, stdr_simulator's);
# xacro 2 ignores them, so a property they define is undefined where it is used. Each is known by the
# attribute it must have, so an element of the robot that happens to share a name is left alone.
_LEGACY_TAGS = {"property": "name", "macro": "name", "include": "filename", "insert_block": "name", "if": "value", "unless": "value"}


def legacy_tags(doc: Any) -> Any:
    """The DOM with the un-prefixed xacro tags of old ROS 1 files renamed ``xacro:...``, as xacro read them then."""
    stack = [doc.documentElement]
    while stack:
        el = stack.pop()
        attr = _LEGACY_TAGS.get(el.tagName)
        if attr is not None and el.hasAttribute(attr):
            el.tagName = el.nodeName = f"xacro:{el.tagName}"
        stack.extend(c for c in el.childNodes if c.nodeType == c.ELEMENT_NODE)
    return doc


@contextlib.contextmanager
def _patched(target: Any, name: str, value: Any) -> Iterator[None]:
    """``target.name`` set to ``value`` for the block: xacro looks its functions up in its module
    globals at call time, so replacing them there is enough."""
    saved = getattr(target, name)
    setattr(target, name, value)
    try:
        yield
    finally:
        setattr(target, name, saved)


class _Refused(Exception):
    """xacro tried to read something the scan does not read (outside the tree, not a regular file)."""

    def __init__(self, what: str, reason: str) -> None:
        super().__init__(f"{what}: {reason}")
        self.what, self.reason = what, reason


class _Limit(Exception):
    """The expansion grew past a bound (a doubling property, a recursive macro)."""


@dataclass
class _Budget:
    """Work one expansion may do: evaluations, characters produced, macro elements copied, files read."""

    evaluations: int = 0
    chars: int = 0
    elements: int = 0
    files: int = 0
    body_sizes: dict[int, int] = field(default_factory=dict)

    def spend(self, kind: str, amount: int, limit: int, what: str) -> None:
        total = getattr(self, kind) + amount
        setattr(self, kind, total)
        if total > limit:
            raise _Limit(what)


# where `$(find pkg)` points for a package not in the tree, when the robot is built without it: no file is there
_ABSENT = os.path.join(os.sep, "\x00absent")
#: what a value read from a package not in the tree reads as: a name built from it is one xacro builds (unknown)
ABSENT_TEXT = "$(absent)"


class _AbsentValue(str):
    """Any item of a YAML file of a package not in the tree: unknown, the same unknown all the way down
    (``${xacro.load_yaml(cfg)['client_ip']}``); used as a number it fails, and the robot is not checked, as before."""

    def __getitem__(self, key: Any) -> _AbsentValue:  # type: ignore[override]
        return self


def _sandbox(xacro: Any, ctx: ScanContext, budget: _Budget, absent: bool = False) -> list[tuple[Any, str, Any]]:
    """The replacements that make xacro read only the scanned tree and evaluate only through
    :mod:`.safe_eval`: (module, name, value). ``absent``: a package not in the tree is left out."""
    import xml.dom.minidom

    import xacro.substitution_args as sa
    import yaml

    def read(path: str, limit: int = MAX_FILE_BYTES) -> bytes:
        budget.spend("files", 1, MAX_XACRO_FILES, f"more than {MAX_XACRO_FILES} files read")
        try:
            return ctx.read_bytes(path, limit)
        except ReadRefused as exc:
            raise _Refused(_shown(path, ctx), str(exc)) from None

    def parse(inp: Any, filename: Any = None) -> Any:
        if inp is not None:
            return original_parse(inp, filename)
        path = os.path.join(xacro.root_dir, filename)
        try:
            data = read(path)
        except OSError as exc:
            xacro.filestack.pop()  # as xacro does: the file that failed to open is not "in" the error
            raise xacro.XacroException(f"{exc.strerror}: {filename}", exc=exc) from None
        return legacy_tags(xml.dom.minidom.parseString(data))

    def include_files(filename_spec: Any, symbols: Any) -> Iterator[str]:
        spec = str(xacro.abs_filename_spec(eval_text(filename_spec, symbols)))
        if re.search("[*[?]+", spec):
            base = spec[:re.search("[*[?]", spec).start()].rpartition(os.sep)[0]  # type: ignore[union-attr]
            if not ctx.inside(base or os.sep):
                raise _Refused(_shown(spec, ctx), "outside the scanned tree; not read")
            names = sorted(glob.glob(spec))[:MAX_XACRO_FILES]
            if not names:
                xacro.warning(xacro.include_no_matches_msg.format(spec))
        elif absent and spec.startswith(_ABSENT):
            names = []  # a file of a package not in the tree: its macros' calls are dropped (see macro_call)
        else:
            names = [spec]
        for name in names:
            xacro.all_includes.append(name)
            yield name

    def load_yaml(filename: str) -> Any:
        path = str(xacro.abs_filename_spec(filename))
        if absent and path.startswith(_ABSENT):
            return _AbsentValue(ABSENT_TEXT)  # a package's YAML not in the tree (a driver's config a ros2_control macro reads)
        for unit in xacro.ConstructUnits:  # xacro's unit tags (!degrees ...), whose values go through safe_eval
            yaml.SafeLoader.add_constructor(unit.value.tag, unit.constructor)
        data = read(path, MAX_YAML_BYTES)
        xacro.filestack.append(path)
        try:
            doc = yaml.safe_load(data)
        finally:
            xacro.filestack.pop()
        xacro.all_includes.append(path)
        if weight(doc) > MAX_WEIGHT:  # aliases can make a small file a huge value
            raise _Limit(f"{_shown(path, ctx)} holds more than {MAX_WEIGHT} items and characters")
        return xacro.YamlListWrapper.wrap(doc)

    dotted = (xacro.NameSpace, xacro.YamlDictWrapper)

    def safe_eval(expr: str, globals: Any, locals: Any = None) -> Any:
        return evaluate(expr, globals if locals is None else ChainMap(locals, globals), dotted)

    def eval_text(text: Any, symbols: Any) -> Any:
        """xacro's eval_text with each part bounded before the parts are joined."""
        budget.spend("evaluations", 1, MAX_EVALUATIONS, f"more than {MAX_EVALUATIONS} evaluations")
        results = []
        size = 0
        lex = xacro.QuickLexer(xacro.LEXER)
        lex.lex(text)
        while lex.peek():
            kind, token = lex.next()
            if kind == lex.EXPR:
                try:
                    value = safe_eval(eval_text(token[2:-1], symbols), symbols)
                except Exception as exc:
                    raise xacro.XacroException(exc=exc, suffix=os.linesep + f"when evaluating expression '{token[2:-1]}'") from None
            elif kind == lex.EXTENSION:
                value = xacro.eval_extension(f"$({eval_text(token[2:-1], symbols)})")
            elif kind == lex.TEXT:
                value = token
            else:
                value = token[1:]
            size += weight(value, MAX_STR)
            if size > MAX_STR:
                raise _Limit(f"a value longer than {MAX_STR} characters")
            results.append(value)
        out = results[0] if len(results) == 1 else "".join(map(str, results))
        budget.spend("chars", size, MAX_EXPANDED_CHARS, f"more than {MAX_EXPANDED_CHARS} characters produced")
        return out

    def resolve_macro(fullname: str, macros: Any, symbols: Any) -> Any:
        found = original_resolve_macro(fullname, macros, symbols)
        body = found[2].body
        if len(xacro.macrostack) >= MAX_MACRO_DEPTH:
            raise _Limit(f"macros nested more than {MAX_MACRO_DEPTH} deep")
        if id(body) not in budget.body_sizes:
            budget.body_sizes[id(body)] = len(body.getElementsByTagName("*")) + 1
        budget.spend("elements", budget.body_sizes[id(body)], MAX_EXPANDED_ELEMENTS, f"more than {MAX_EXPANDED_ELEMENTS} elements")
        return found

    def find(package: str) -> str:
        d = ctx.package_dir(package)
        if d is None:
            if absent:
                return os.path.join(_ABSENT, package)
            raise _UnresolvedPackage(package)
        return d

    def macro_call(node: Any, macros: Any, symbols: Any) -> Any:
        try:
            return original_macro_call(node, macros, symbols)
        except xacro.XacroException as exc:
            if not absent or not str(exc).startswith("unknown macro name"):
                raise
            # a macro of a package not in the tree (or of a macro's includer): what it builds is unknown; inside a
            # joint it gives the origin (talos' `<xacro:call macro="calibration_origin"/>`), so that is unknown too
            parent = node.parentNode
            unknown = None
            if getattr(parent, "tagName", "") == "joint" and not any(getattr(c, "tagName", "") == "origin" for c in parent.childNodes):
                unknown = node.ownerDocument.createElement("origin")
                unknown.setAttribute("xyz", "nan nan nan")
                unknown.setAttribute("rpy", "nan nan nan")
            xacro.replace_node(node, by=unknown)
            return True

    def resolve(arg_str: Any, context: Any = None, filename: Any = None) -> Any:
        if isinstance(arg_str, str):
            arg_str = _FIND_SHARE.sub("$(find ", arg_str)  # ROS 2 spelling seen in xacro files
        return original_resolve(arg_str, context, filename)

    def env(name: str) -> str:
        raise sa.SubstitutionException(f"$(env {name}): the robot's environment is not known to a static scan")

    def optenv(name: str, default: str = "") -> str:
        return default  # the robot's environment is not the scanning machine's

    def arg_eval(s: str, context: dict[str, Any]) -> str:
        """``$(eval ...)``: names are the functions below, math, then the arguments."""
        args = context.setdefault("arg", {})
        functions = {**MATH, **safe_functions(arg=lambda name: sa.convert_value(sa._eval_arg(name, args=args), "auto"),
                                     dirname=lambda: sa._eval_dirname(context.get("filename")), env=env, optenv=optenv, find=find)}
        return str(evaluate(s, _ArgNames(functions, args, sa.convert_value)))

    original_parse, original_resolve, original_resolve_macro = xacro.parse, sa.resolve_args, xacro.resolve_macro
    original_macro_call = xacro.handle_macro_call
    return [
        (xacro, "parse", parse), (xacro, "get_include_files", include_files), (xacro, "load_yaml", load_yaml),
        (xacro, "safe_eval", safe_eval), (xacro, "eval_text", eval_text), (xacro, "resolve_macro", resolve_macro),
        (xacro, "handle_macro_call", macro_call),
        (xacro, "_global_symbols", _xacro_globals(xacro, load_yaml)), (xacro, "all_includes", []),
        (sa, "_eval", arg_eval), (sa, "resolve_args", resolve),
        (sa, "_eval_find", find), (sa, "_eval_env", env), (sa, "_eval_optenv", optenv),
    ]


class _ArgNames(Mapping[str, Any]):
    """The names of ``$(eval ...)``: functions first, then the xacro arguments (typed as xacro types them)."""

    def __init__(self, functions: dict[str, Any], args: dict[str, Any], convert: Callable[[Any, str], Any]) -> None:
        self.functions, self.args, self.convert = functions, args, convert

    def __getitem__(self, key: str) -> Any:
        if key in self.functions:
            return self.functions[key]
        return self.convert(self.args[key], "auto")

    def __iter__(self) -> Iterator[str]:
        return iter({**self.functions, **self.args})

    def __len__(self) -> int:
        return len(self.functions) + len(self.args)


def _xacro_globals(xacro: Any, load_yaml: Callable[[str], Any]) -> dict[str, Any]:
    """What xacro offers expressions (its ``create_global_symbols``), with every function a safe one."""

    def namespace(items: dict[str, Any]) -> Any:
        ns = xacro.NameSpace()
        dict.update(ns, items)
        return ns

    def quiet(*_args: Any, **_kwargs: Any) -> str:
        return ""  # xacro's message functions print; a scan has nowhere to show them

    def fatal(*args: Any) -> None:
        raise xacro.XacroException(" ".join(map(str, args)))

    own = safe_functions(load_yaml=load_yaml, abs_filename=xacro.abs_filename_spec, dotify=xacro.YamlDictWrapper,
                arg=lambda name: xacro.substitution_args_context["arg"][name], tokenize=xacro.tokenize, fatal=fatal,
                message=quiet, warning=quiet, error=quiet, print_location=quiet)
    direct = {k: BUILTINS[k] for k in ("list", "dict", "map", "len", "str", "float", "int", "bool", "True", "False", "min", "max",
                                        "round", "sorted", "range")}
    return {**direct, **MATH, "math": namespace(MATH), "python": namespace(BUILTINS), "xacro": namespace(own),
            "load_yaml": own["load_yaml"], "abs_filename": own["abs_filename"], "dotify": own["dotify"]}


def _shown(path: str, ctx: ScanContext) -> str:
    """A path as a report names it: relative inside the tree, as written outside."""
    rel = ctx.rel(path)
    return rel if rel is not None and ctx.inside(path) else str(path)


def _from_dom(el: Any) -> XmlNode:
    """xacro's DOM as an XmlNode, without writing and re-parsing the text (lines: see the locator); an
    element's text is its own text and CDATA, as expat gives it (``<frameName>camera_optical</frameName>``)."""
    node = XmlNode(el.tagName, {k: v for k, v in el.attributes.items()}, 0)
    stack = [(el, node)]
    while stack:
        dom, out = stack.pop()
        for c in dom.childNodes:
            if c.nodeType == c.ELEMENT_NODE:
                child = XmlNode(c.tagName, {k: v for k, v in c.attributes.items()}, 0)
                out.children.append(child)
                stack.append((c, child))
            elif c.nodeType in (c.TEXT_NODE, c.CDATA_SECTION_NODE):
                out.text += c.data
    return node


def _relocate(loc: Location, ctx: ScanContext) -> Location:
    rel = ctx.rel(loc.file) if os.path.isabs(loc.file) else loc.file
    return Location(rel or loc.file, loc.line)


def _read_text(abs_path: str, ctx: ScanContext) -> str | None:
    """A description file of the tree as text; None for what the scan does not read (see ScanContext.read_bytes)."""
    try:
        return decode_source(ctx.read_bytes(abs_path), "xacro")
    except OSError:
        return None


def _find_text_line(abs_path: str, needle: str, ctx: ScanContext) -> Location | None:
    for i, line in enumerate((_read_text(abs_path, ctx) or "").splitlines(), 1):
        if needle in line:
            return Location(abs_path, i)
    return None


def _located_kind(el: XmlNode) -> str | None:
    """What a description element is located as: a "joint", a "link" or a Gazebo "sensor" (by its name template), or
    a plugin's "frame" element, a GPS plugin's heading or ArduPilot's world mapping (by its text); None for anything
    else."""
    if el.tag in FRAME_TAGS or el.tag in ("referenceHeading", "gazeboXYZToNED"):
        return "frame"
    if el.tag in ("joint", "xacro:joint"):
        return "joint"
    if el.tag == "sensor":
        return "sensor"
    return "link" if el.tag in ("link", "xacro:link") else None


@dataclass(frozen=True)
class _Templates:
    """A source file's named elements of one kind: names written out in full (name -> line) and name templates
    (``${name}_joint``: pattern, literal length, line)."""

    literal: dict[str, int]
    patterns: tuple[tuple[re.Pattern[str], int, int], ...]
    macros: dict[int, str]  # by line: the macro an element is written in ("" outside any)
    every: dict[str, tuple[int, ...]]  # names written out in full -> the lines of each element so named, in order
    raw: dict[int, str]  # by line: a template as written (``${name}_joint``)


@lru_cache(maxsize=256)
def _source_root(abs_path: str, _mtime_ns: int, ctx: ScanContext) -> XmlNode | None:
    """A description source file's elements as written (before xacro), parsed once for every locator table; None
    when it cannot be read or parsed."""
    text = _read_text(abs_path, ctx)
    try:
        return parse_xml(text) if text is not None else None
    except XmlError:
        return None


@lru_cache(maxsize=256)
def _joint_templates(abs_path: str, _mtime_ns: int, ctx: ScanContext) -> dict[str, _Templates]:
    """Of a source file, by kind (as :func:`_located_kind` gives them): its <joint name=...> and <link name=...>
    elements by their names, and the elements naming a camera plugin's frame (``<frameName>``) by their text. Names
    written out in full are looked up directly (a robot of a thousand links stays fast)."""
    root = _source_root(abs_path, _mtime_ns, ctx)
    if root is None:
        return {}
    literal: dict[str, dict[str, int]] = {}
    every: dict[str, dict[str, tuple[int, ...]]] = {}
    patterns: dict[str, list[tuple[re.Pattern[str], int, int]]] = {}
    macros: dict[int, str] = {}
    raw: dict[int, str] = {}
    for j, macro in _with_macro(root):
        kind = _located_kind(j)
        if kind == "joint" and j.find("parent") is None and j.find("child") is None:
            continue  # a joint reference (a transmission's), not a kinematic joint
        if kind is None:
            continue
        name = j.text.strip() if kind == "frame" else j.get("name") or ""
        if not name:
            continue
        parts = _TEMPLATE_PART.split(name)
        macros[j.line] = macro
        if len(parts) == 1:
            literal.setdefault(kind, {}).setdefault(name, j.line)
            named = every.setdefault(kind, {})
            named[name] = (*named.get(name, ()), j.line)
        else:
            patterns.setdefault(kind, []).append((re.compile(".*?".join(re.escape(p) for p in parts)), sum(len(p) for p in parts), j.line))
            raw[j.line] = name
    return {k: _Templates(literal.get(k, {}), tuple(patterns.get(k, ())), macros, every.get(k, {}), raw) for k in {*literal, *patterns}}


def _with_macro(root: XmlNode) -> Iterator[tuple[XmlNode, str]]:
    """Every element with the name of the xacro macro it is written in ("" outside any), in document order."""
    stack = [(root, "")]
    while stack:
        el, macro = stack.pop()
        yield el, macro
        inner = el.get("name") or "" if el.tag == "xacro:macro" else macro
        stack.extend((c, inner) for c in reversed(el.children))


@lru_cache(maxsize=256)
def _called_macros(abs_path: str, _mtime_ns: int, ctx: ScanContext) -> frozenset[str]:
    """The macros a source file calls (``<xacro:name .../>``, ``<xacro:call macro="name"/>``)."""
    calls = _macro_calls(abs_path, _mtime_ns, ctx)
    return frozenset({el.tag[len("xacro:"):] for el in calls} | {el.get("macro") or "" for el in calls if el.tag == "xacro:call"})


@lru_cache(maxsize=256)
def _macro_calls(abs_path: str, _mtime_ns: int, ctx: ScanContext) -> tuple[XmlNode, ...]:
    """A source file's macro calls as written (``<xacro:generic_camera name="bottom" ...>``)."""
    root = _source_root(abs_path, _mtime_ns, ctx)
    if root is None:
        return ()
    return tuple(el for el in root.iter() if el.tag.startswith("xacro:") and el.tag[len("xacro:"):] not in _NOT_CALLS)


# `<frameName>${frame_id}</frameName>`: a camera frame that is a macro parameter, written at the macro's calls
_BARE_PARAM = re.compile(r"\$\{\s*(\w+)\s*\}")
_NOT_CALLS = frozenset({"macro", "property", "include", "if", "unless", "arg", "insert_block", "element", "attribute"})


@lru_cache(maxsize=256)
def _frame_arguments(abs_path: str, _mtime_ns: int, ctx: ScanContext) -> tuple[frozenset[tuple[str, str]], tuple[tuple[str, str, str, str, int], ...]]:
    """Of a source file: the (macro, parameter) pairs whose parameter alone names a camera plugin's frame
    (``<frameName>${frame_id}</frameName>``), and every macro call's (caller macro or "", macro, attribute,
    value, line)."""
    root = _source_root(abs_path, _mtime_ns, ctx)
    if root is None:
        return frozenset(), ()
    params: set[tuple[str, str]] = set()
    calls: list[tuple[str, str, str, str, int]] = []
    for macro in [root, *root.iter("xacro:macro")]:
        name = macro.get("name") or "" if macro is not root else ""
        stack = macro.children[::-1]
        while stack:  # this macro's own elements in document order, not those of a macro defined inside it
            el = stack.pop()
            if el.tag == "xacro:macro":
                continue
            if el.tag in FRAME_TAGS and (m := _BARE_PARAM.fullmatch(el.text.strip())) is not None and name:
                params.add((name, m.group(1)))
            elif el.tag.startswith("xacro:") and el.tag[len("xacro:"):] not in _NOT_CALLS:
                calls.extend((name, el.tag[len("xacro:"):], k, v, el.attr_line(k)) for k, v in el.attrib.items())
            stack.extend(el.children[::-1])
    return frozenset(params), tuple(calls)


def _frame_calls(found: list[tuple[frozenset[tuple[str, str]], tuple[tuple[str, str, str, str, int], ...]]]) -> list[tuple[int, str, int]]:
    """(file index, value, line) of the macro call arguments that name a camera plugin's frame, through macros that
    hand a parameter on whole (PR2's ``wge100_camera_v0`` passes ``frame_id="${frame_id}"`` to its gazebo macro)."""
    params = set().union(*(p for p, _ in found))
    grew = True
    while grew:
        grew = False
        for _, calls in found:
            for caller, macro, attr, value, _ in calls:
                m = _BARE_PARAM.fullmatch(value.strip())
                if caller and m is not None and (macro, attr) in params and (caller, m.group(1)) not in params:
                    params.add((caller, m.group(1)))
                    grew = True
    return [(i, value, line) for i, (_, calls) in enumerate(found) for _, macro, attr, value, line in calls
            if (macro, attr) in params and _BARE_PARAM.fullmatch(value.strip()) is None]


def _mtime(path: str) -> int:
    try:
        return os.stat(path).st_mtime_ns
    except OSError:
        return 0


def _joint_written_at(root: XmlNode | None, line: int | None) -> XmlNode | None:
    """The ``<joint>`` element a source file (its parsed ``root``) writes at ``line``."""
    return next((j for j in root.iter() if j.line == line and _located_kind(j) == "joint"), None) if root is not None else None


def _origin_of(joint: Location, ctx: ScanContext) -> Location:
    """Where the source file writes the ``<origin>`` of the ``<joint>`` element at ``joint`` (pr2_simulator's
    ``rpy="0 90 0"``, the line to change); the joint's own place when it has none of its own."""
    abs_path = ctx.abs_str(joint.file)
    el = _joint_written_at(_source_root(abs_path, _mtime(abs_path), ctx), joint.line)
    origin = el.find("origin") if el is not None else None
    return replace(joint, line=origin.line) if origin is not None else joint


class _JointLocator:
    """Where a description's joints, links and camera frame elements are written in its source files.

    ``expanded``: the robot the files build; a name written out in full in several elements of one file (Baxter's
    hand cameras each naming ``head_camera``) is found element by element when the robot has as many, in order. A
    name a macro builds from its arguments (``${name}_joint``) is found in the macro some call instantiates to exactly
    that name (tum_simulator's generic_camera called with name="bottom", not its sonar macro's ``${name}_joint``), and
    a rotation the call passes in (``<origin>`` as a block, ``origin_rpy="0 3.14159 0"``) is located at the call."""

    def __init__(self, abs_files: list[str], main_rel: str, ctx: ScanContext, expanded: XmlNode | None = None) -> None:
        self.files, self.main_rel, self.ctx = abs_files, main_rel, ctx
        self.stamps = {f: _mtime(f) for f in abs_files}  # a file edited since it was cached is read again
        self.nth: dict[int, tuple[int, int]] = {}  # an expanded element -> its place among those so named, how many
        if expanded is not None:
            places: dict[tuple[str, str], list[XmlNode]] = {}
            for el in expanded.iter():
                kind = _located_kind(el)
                if kind is not None:
                    places.setdefault((kind, el.text.strip() if kind == "frame" else el.get("name") or ""), []).append(el)
            self.nth = {id(el): (i, len(same)) for same in places.values() if len(same) > 1 for i, el in enumerate(same)}
        self._frame_calls: list[tuple[int, str, int]] | None = None
        self._called: frozenset[str] | None = None
        self._calls: dict[str, list[tuple[str, XmlNode]]] | None = None  # macro -> its calls: (file, call element)
        self.by_call: dict[int, tuple[str, XmlNode, str, int]] = {}  # element -> (call file, call, macro file, line)

    def __call__(self, node: XmlNode) -> Location:
        ctx, stamps = self.ctx, self.stamps
        kind = _located_kind(node)
        name = node.text.strip() if kind == "frame" else node.get("name") or ""
        if self._called is None:
            self._called = frozenset().union(*(_called_macros(f, stamps[f], ctx) for f in self.files))
        best: tuple[int, str, int] | None = None
        for f in self.files:
            found = _joint_templates(f, stamps[f], ctx).get(kind or "")
            if found is None:
                continue
            if name in found.literal:  # a name written out in full beats any template
                if best is None or 1000 + len(name) > best[0]:
                    lines = found.every[name]
                    i, count = self.nth.get(id(node), (0, 0))
                    best = (1000 + len(name), f, lines[i] if count == len(lines) else found.literal[name])
                continue
            for pattern, score, line in found.patterns:
                if not pattern.fullmatch(name):
                    continue
                # a template of a macro something calls beats the same template in a macro nothing calls (reemc's
                # stereo_camera and back_camera macros write the same `${name}_optical_frame_joint`), and one a call
                # instantiates to this very name beats both
                macro = found.macros.get(line, "")
                score += 500 if not macro or macro in self._called else 0
                call = self._instantiating_call(macro, found.raw[line], name) if macro else None
                score += 300 if call is not None else 0
                if best is None or score > best[0]:
                    best = (score, f, line)
                    if call is not None:
                        self.by_call[id(node)] = (*call, f, line)
                    else:
                        self.by_call.pop(id(node), None)
        if kind == "frame":  # a frame a macro takes whole from its caller: the call's argument is the line to change
            if self._frame_calls is None:
                self._frame_calls = _frame_calls([_frame_arguments(f, stamps[f], ctx) for f in self.files])
            for i, value, line in self._frame_calls:
                literal = _TEMPLATE_PART.split(value)
                score = 2000 + sum(len(p) for p in literal)
                if re.fullmatch(".*?".join(re.escape(p) for p in literal), name) and (best is None or score > best[0]):
                    best = (score, self.files[i], line)
        if best is None:
            return Location(self.main_rel, None)
        return Location(ctx.rel(best[1]) or self.main_rel, best[2])

    def _instantiating_call(self, macro: str, template: str, name: str) -> tuple[str, XmlNode] | None:
        """The call of ``macro`` whose literal arguments turn ``template`` into ``name``, if one does; an argument
        ``$(arg x)`` counts as the default the call's file declares for x (rm_description's
        ``frame_id="$(arg camera_optical_frame)"``)."""
        if self._calls is None:
            self._calls = {}
            for f in self.files:
                for el in _macro_calls(f, self.stamps[f], self.ctx):
                    self._calls.setdefault(el.tag[len("xacro:"):], []).append((f, el))
        for f, el in self._calls.get(macro, ()):
            defaults = _arg_defaults(f, self.stamps[f], self.ctx)

            def argument(m: re.Match[str], el: XmlNode = el, defaults: Mapping[str, str] = defaults) -> str:
                value = _XACRO_ARG.sub(lambda a: defaults.get(a.group(1), "$"), el.get(m.group(1)) or "$")
                return value if "$" not in value else "\0"  # not a name character: no match
            if _BARE_PARAM.sub(argument, template) == name:
                return f, el
        return None

    def rotation_at(self, node: XmlNode) -> Location | None:
        """Where the call that built joint ``node`` writes the rotation it passes the macro: the ``<origin>`` block it
        gives, or the argument a ``rpy="${param}"`` takes; None when the macro writes its own rotation."""
        found = self.by_call.get(id(node))
        if found is None:
            return None
        call_file, call, macro_file, line = found
        root = _source_root(macro_file, self.stamps[macro_file], self.ctx)
        joint = _joint_written_at(root, line)
        if root is None or joint is None:
            return None
        rel = self.ctx.rel(call_file) or self.main_rel
        origin = joint.find("origin")
        if origin is not None:
            m = _BARE_PARAM.fullmatch((origin.get("rpy") or "").strip())
            return Location(rel, call.attr_line(m.group(1))) if m is not None and call.get(m.group(1)) is not None else None
        block = next((c.get("name") for c in joint.children if c.tag == "xacro:insert_block"), None)
        blocks = _block_params(root, call.tag[len("xacro:"):])
        passed = [c for c in call.children if not c.tag.startswith("xacro:")]
        if block is None or block not in blocks or blocks.index(block) >= len(passed):
            return None
        given = passed[blocks.index(block)]
        return Location(rel, given.line) if given.tag == "origin" else None


_XACRO_ARG = re.compile(r"\$\(\s*arg\s+(\w+)\s*\)")


@lru_cache(maxsize=256)
def _arg_defaults(abs_path: str, _mtime_ns: int, ctx: ScanContext) -> dict[str, str]:
    """A source file's ``<xacro:arg name default>`` declarations with literal defaults."""
    root = _source_root(abs_path, _mtime_ns, ctx)
    if root is None:
        return {}
    return {el.get("name") or "": d for el in root.iter("xacro:arg") if "$" not in (d := el.get("default") or "$")}


def _block_params(root: XmlNode, macro: str) -> list[str]:
    """The block parameters of ``macro`` as its definition in ``root`` lists them (``params="name *origin"``), in order."""
    for m in root.iter("xacro:macro"):
        if m.get("name") == macro:
            return [p.lstrip("*") for p in (m.get("params") or "").split() if p.startswith("*")]
    return []
