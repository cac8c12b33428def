"""C++ (ROS 1 and ROS 2) frame analysis over tree-sitter-cpp.

Only functions whose text mentions a tf API, a message or a rotation builder are walked,
statement by statement in source order (flow-insensitive like PhysFrame: branches are
all taken, loops once). Constant strings, numbers and rotations are evaluated; everything
else is unknown (None). Two passes over those functions: the first only learns class
members and parameter defaults (constructors usually run before callbacks but may come
later in the file), the second reports. Calls to functions of the same file are followed
once each (their result is memoised), which carries rotations across calls (R12-R15).
"""

from __future__ import annotations

import math
import operator
import re
from dataclasses import replace
from functools import cached_property, lru_cache
from typing import Any, Callable, Mapping, Sequence

import tree_sitter_cpp
from tree_sitter import Language, Node, Parser

from ...core.conventions import Conventions
from ...core.findings import Finding, Severity
from ..frame_ids import frame_id_finding, frame_variable, is_header_field
from ..model import FileFacts
from .action_goals import unframed_goals
from .angle_units import cpp_degrees
from .angle_units import finding as degrees_finding
from .angles import rpy_slots
from .calls import CALL_DEPTH, STEP_BUDGET, Budget
from .conversions import utm_axes_finding
from .cpp_macros import blank_macros, first_branches
from .facts import (
    FactSink,
    TreeMessages,
    camera_info_reloaded,
    last_name,
    message_kind,
    package_of,
    param_default,
    placeless,
    setpoint_publishers,
    slot_name_finding,
    static_broadcaster_names,
)
from .guards import Guard
from .headers import HeaderCopies, aliased_members, blank_keeping_lines, code_only, member_declarations, mentions_header, plain_members, type_aliases
from .helpers import PackageSources, callers_leave_child_unset, closing
from .marker_arrays import default_markers
from .mixed_axes import mixed_axes_findings
from .param_schemas import param_structs, params_declarations, params_record, unknown_prefix
from .pcl_clouds import frameless_clouds
from .px4_axes import px4_flip_findings
from .quaternion_args import cpp_swapped, quaternion_aliases, quaternion_members
from .quaternion_args import finding as swapped_quaternion_finding
from .realtime import is_realtime_publisher, is_static_topic, message_type, realtime_publisher
from .values import (
    AXES_BY_USE,
    HEADER,
    HEADER_BY_USE,
    IDENTITY_ROT,
    ODOMETRY,
    PX4_QUATERNION_FIELDS,
    REALTIME_PUBLISHER,
    STAMPED,
    TF1_STAMPED,
    TF_MESSAGE,
    TOP_ROT,
    TRANSFORM,
    UNSET,
    Heading,
    ListValue,
    Literal,
    ParamRef,
    Record,
    Rot,
    TfValue,
    Value,
    as_number,
    as_vector,
    basis,
    binary_number,
    component,
    concat,
    fresh,
    heading_field,
    heading_reading,
    is_transform,
    literal_line,
    negated,
    px4_component,
    rot_from_axis_angle,
    rot_from_matrix,
    rot_from_quaternion,
    rot_from_rpy,
    rot_inverse,
    rot_mul,
    tf_message,
)
from .walker import MATH, MISSING, SHARED_API, Call, FileWalk, Missing, Result, Walker, apply_math, launch_into
from .zero_start import cpp_may_start_at_zero, cpp_zero_start

# Statements whose body may not run: loops (a do-while runs once) and an if's branches (a switch's cases are left:
# one writing in every case, default included, frames every path).
_LOOPS = frozenset({"for_statement", "for_range_loop", "while_statement"})

# Messages whose header carries a stamp only: an empty frame_id is their normal state.
_TIME_SETTERS = frozenset({"fromNSec", "fromSec", "fromBoost"})  # ROS 1 ros::Time's setters
# library calls that only read their first arguments, by how many: mrs_lib's `set_mutexed(mutex, value, target)`
# copies the value into the target (the MRS VINS republisher's odometry, copied aside before it is published)
_READ_ONLY_ARGS = {"set_mutexed": 2}
_STRING_LITERALS = frozenset({"string_literal", "concatenated_string", "raw_string_literal"})
_LANGUAGE = Language(tree_sitter_cpp.language())
_PARSER = Parser(_LANGUAGE)

# Function bodies worth walking: anything else cannot produce a frame fact.
_RELEVANT = re.compile(
    rb"sendTransform|lookupTransform|canTransform|ransform|publish|Publish|frame|Matrix3x3|setRPY|uaternion|"
    rb"AngleAxis|Matrix3|Mat_|param|Parameter|Stamped|Odometry|NavSatFix|Scan|Imu|Cloud|Image|orientation|LLtoUTM|UTMtoLL"
)
# Functions that may give members their values (constructors, parameter reads, `name_ = `,
# `this->name =`, `m_name =`): only these are walked in the first pass.
_LEARNS = re.compile(rb"param|Parameter|\w_\s*(?:=[^=]|\()|this->\w+\s*=[^=]|\bm_\w+\s*=[^=]|:\s*\w+_?\s*\(")
# The same test as a few searches that each start at a literal (re then skips ahead quickly);
# the lookbehinds stand for the leading \w and \b.
_LEARNS_PARTS = tuple(re.compile(p) for p in (
    rb"_(?<=\w_)\s*(?:=[^=]|\()", rb"this->\w+\s*=[^=]", rb"m_(?<!\wm_)\w+\s*=[^=]", rb":\s*\w+_?\s*\("))


def _learns(text: bytes) -> bool:
    """``_LEARNS.search(text) is not None``, faster."""
    return b"param" in text or b"Parameter" in text or any(p.search(text) for p in _LEARNS_PARTS)
_NUMBER_INT = re.compile(r"-?0[xXbB][0-9a-fA-F]+|-?\d+")
_STATIC_BROADCASTER = re.compile(
    r"StaticTransformBroadcaster\s*>*\s*[*&]?\s*(\w+)\s*[;={(,)]"
    r"|(\w+)\s*=\s*(?:std::|boost::)?make_(?:shared|unique)\s*<\s*[\w:]*StaticTransformBroadcaster"
    r"|(\w+)\s*(?:=|\.reset\()\s*new\s+[\w:]*StaticTransformBroadcaster"
)
_HEADER_EXTS = (".h", ".hh", ".hpp", ".hxx")
_WRITES_STRING = re.compile(r'[={]\s*"')  # a header worth reading for its constants (`std::string frame_ = "map";`, `frame_{"map"}`)
_LIBRARY: dict[tuple[str, int], _CppFile] = {}  # package files parsed for their helpers, most recent last
_LIBRARY_SIZE = 128
_POINTER_SUFFIXES = ("SharedPtr", "ConstSharedPtr", "UniquePtr", "ConstPtr", "Ptr", "WeakPtr")
_ROT_TYPES = frozenset(
    {"Matrix3x3", "Quaternion", "Quaterniond", "Quaternionf", "Matrix3d", "Matrix3f", "Matrix4d", "Matrix4f",
     "Mat", "Mat_", "Matx33d", "Matx33f", "Matx44d", "Matx44f", "AngleAxisd", "AngleAxisf", "RotationMatrix"}
)  # fmt: skip
_TF_TYPES = frozenset({"Transform", "Isometry3d", "Isometry3f", "Affine3d", "Affine3f"})
_VECTOR_TYPES = frozenset({"Vector3", "Vector3d", "Vector3f", "Point3d", "Point3f", "Vec3d", "Vec3f"})
# types a call named for them builds (`tf2::Quaternion(...)`, `std::string(...)`), besides the messages
_BUILT_TYPES = _ROT_TYPES | _TF_TYPES | _VECTOR_TYPES | {"StampedTransform", "string"}
_UNIT_VECTORS = {"UnitX": (1.0, 0.0, 0.0), "UnitY": (0.0, 1.0, 0.0), "UnitZ": (0.0, 0.0, 1.0)}
# Methods and free functions whose result is their receiver / first argument, as far as frames go.
_PASS_METHODS = frozenset(
    {"finished", "normalized", "toRotationMatrix", "matrix", "rotation", "getBasis", "linear", "get", "c_str", "str",
     "value", "as_string", "getRotation"}
)  # fmt: skip
_PASS_FUNCTIONS = frozenset({"move", "forward", "string", "toMsg", "static_cast", "const_cast"})
_INVERSE = frozenset({"inverse", "transpose", "t", "inv", "conjugate", "inverseTimes"})


_EMPTY_HEADER_TEMPORARY = re.compile(r"(?:std_msgs::(?:msg::)?)?Header\s*(?:\(\s*\)|\{\s*\})")
_SOURCE_FILE = re.compile(r"\.(?:cpp|cc|cxx|c\+\+)$", re.IGNORECASE)


def _constant(value: Value) -> Value:
    """The part of an argument worth binding in a callee: constants only (hashable, shareable)."""
    return value if isinstance(value, (str, float, Rot)) else None



def analyze_cpp(
    text: str,
    rel_path: str,
    conventions: Conventions | None = None,
    headers: Sequence[str] = (),
    helpers: Sequence[tuple[str, str]] = (),
    package: PackageSources | None = None,
    launched: Mapping[str, str] | None = None,
) -> FileFacts:
    """Frame facts of one C++ file. Never raises: failures become a PARSE_ERROR finding.
    ``headers``: the text of the file's own headers, for the message members they declare; ``helpers``:
    (path, text) of the package's files that may define functions it calls (headers, their sources);
    ``package``: all C++ sources of the package, for message helpers and parameter declarations no
    include leads to (see :mod:`.helpers`), or None; ``launched``: the parameters a launch file gives the node
    (they stand where the code reads the parameter, in place of its default)."""
    lines = text.count("\n") + 1
    try:
        walk = _CppFile(text, FactSink(rel_path, lines, conventions), headers, helpers, package)
        launch_into(walk, launched)
        return walk.run()
    except Exception as exc:  # a scanner must survive any input; report it and move on
        sink = FactSink(rel_path, lines, conventions)
        sink.parse_error(1, f"C++ analysis failed ({type(exc).__name__}: {exc}); file skipped")
        return sink.facts


#: ``scan_.image_ptr``, ``this->scan_->cloud``: a message held in a member of a member
_NESTED_MEMBER = re.compile(r"\*?\s*((?:this\s*->\s*)?(?!this\b)(\w+)\s*(?:\.|->)\s*)(\w+)")

#: A method named for publishing one message (``publishGNSS``, ``publish_odometry``): a publisher wrapper.
_PUBLISH_WRAPPER = re.compile(r"publish(?:[A-Z]|_[a-z])\w*$")


def _line(node: Node) -> int:
    return node.start_point[0] + 1


_MESSAGE_INITIALIZATION = re.compile(r"^(?:\w+::)*MessageInitialization::(\w+)$")


def _message_initialization(text: str) -> bool | None:
    """Whether a rosidl ``MessageInitialization::X`` constructor argument leaves a quaternion all zero (ZERO, SKIP)
    rather than the identity; None when the argument is something else."""
    m = _MESSAGE_INITIALIZATION.match(text.strip())
    return None if m is None else m.group(1) in ("ZERO", "SKIP")


def _text(node: Node | None, src: bytes) -> str:
    """The node's source text; ``src`` is what the tree was parsed from (``node.text`` builds the same
    bytes through a memoryview and a slice object, several times slower)."""
    return src[node.start_byte : node.end_byte].decode("utf-8", "replace") if node is not None else ""


@lru_cache(maxsize=4096)
def _short_type(text: str) -> str:
    """``sensor_msgs::msg::NavSatFix::SharedPtr`` -> ``NavSatFix``; ``sensor_msgs::ImagePtr`` -> ``Image``;
    ``std::shared_ptr<T>`` -> ``T``."""
    inner = re.search(r"(?:shared_ptr|unique_ptr|make_shared|make_unique)\s*<\s*([^<>]+)>", text)
    if inner:
        text = inner.group(1)
    text = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", text)).strip(" &*")
    parts = [p for p in re.split(r"::|\s+", text) if p and p not in ("const", "struct", "typename", "volatile")]
    if len(parts) >= 2 and parts[-1] in _POINTER_SUFFIXES:
        return parts[-2]
    # ROS 1's generated typedefs beside each message: `sensor_msgs::ImagePtr`, `nav_msgs::OdometryConstPtr`
    if len(parts) >= 2 and parts[0].endswith("_msgs") and (m := re.fullmatch(r"(\w+?)(?:Const)?Ptr", parts[-1])):
        return m.group(1)
    return parts[-1] if parts else ""


def _declarator_name(node: Node | None, src: bytes) -> str | None:
    while node is not None and node.type in ("reference_declarator", "pointer_declarator", "array_declarator", "init_declarator", "parenthesized_declarator"):
        nxt = node.child_by_field_name("declarator")
        if nxt is None:
            nxt = next((c for c in node.named_children if c.type in ("identifier", "field_identifier")), None)
        node = nxt
    if node is not None and node.type in ("identifier", "field_identifier"):
        return _text(node, src)
    return None


def _function_name(fn: Node, src: bytes) -> str | None:
    decl = fn.child_by_field_name("declarator")
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    if decl is None:
        return None
    name = decl.child_by_field_name("declarator")
    if name is None:
        return None
    if name.type == "qualified_identifier":
        return _text(name, src).split("::")[-1].strip()
    return _text(name, src)


_READ_INTO_FRAME = r"(?:frame_id|frame)[ \t]*=[ \t]*{}[ \t]*;"  # `mag.header.frame_id = mag_frame_id;`, of a name
_FRAME_FIELD_READ = re.compile(_READ_INTO_FRAME.format(r"(\w+)"))
_STRING_MEMBER = re.compile(r"^[ \t]*(?:std::)?string[ \t]+(\w+)[ \t]*;", re.MULTILINE)  # `std::string mag_frame_id;`
_NODELET_CLASS = re.compile(r"\bclass\s+(\w+)\s*(?:final\s*)?:\s*(?:public\s+)?nodelet::Nodelet\b")


class _CppFile(FileWalk):
    def __init__(
        self, text: str, sink: FactSink, headers: Sequence[str] = (), helpers: Sequence[tuple[str, str]] = (), package: PackageSources | None = None
    ) -> None:
        super().__init__(sink, static_broadcaster_names(text, _STATIC_BROADCASTER), setpoint_publishers(text))
        self.text = text
        # classes deriving from nodelet::Nodelet: their getName() is the nodelet's fully qualified name
        self.nodelets = frozenset(
            name for t in (text, *headers) if "nodelet::Nodelet" in t for name in _NODELET_CLASS.findall(t)
        )
        self.headers = headers
        self.helpers = helpers
        self.package = package
        self.messages = package.messages if package is not None else TreeMessages()
        self.library: dict[str, tuple[_CppFile, Node] | None] = {}  # helper name -> its file and definition
        self.library_files: dict[str, _CppFile] = {}
        self.file_scope: set[int] = set()  # ids of the message Records declared at file scope of a source file
        self.src = blank_macros(text.encode("utf-8", "replace"))
        self.functions: dict[str, Node | None] = {}
        # What each syntax node says, by node id: functions are walked more than once (both passes,
        # each argument context), and reading a node through tree-sitter costs more than a lookup.
        self.paths: dict[int, tuple[str, list[str]] | None] = {}
        self.shapes: dict[int, Any] = {}
        self.clouds: dict[int, frozenset[str]] = {}  # function node id -> its PCL clouds never given a header

    def source_text(self) -> str:
        return self.text

    def member_texts(self) -> list[str]:
        return self.code_texts

    def function_shape(self, fn: Node) -> tuple[list[tuple[int, str, str, Node | None]], list[tuple[str, Node]], Node | None]:
        """:func:`_function_shape` of ``fn``, read once."""
        shapes = self.shapes
        return shapes[fn.id] if fn.id in shapes else shapes.setdefault(fn.id, _function_shape(fn, self.src))

    def parse(self) -> Node:
        tree = _PARSER.parse(self.src)
        root = tree.root_node
        if root.has_error and b"#" in self.src:
            # #if branches that each open or close a block: read the first branch of each
            first = first_branches(self.src)
            retry = _PARSER.parse(first)
            if not retry.root_node.has_error:
                self.src, tree, root = first, retry, retry.root_node
        self.tree = tree  # its nodes live as long as the tree
        return root

    def run(self) -> FileFacts:
        root = self.parse()
        if root.has_error:
            self._parse_error(root)
        functions = self._collect(root)
        self._default_markers(functions)
        if b"header" in self.src and b"2)" in self.src:  # a vector read by index (`r.gyro(2)`, `q[2]`) and a header
            for fn in functions:
                text = self.function_texts.setdefault(fn.id, _text(fn, self.src))  # the walk reads it again
                for finding in mixed_axes_findings(text, _line(fn), self.sink.facts.path):
                    self.sink.add(finding)
        for goal in unframed_goals(self.text):
            self.sink.add(Finding("MISSING_FRAME", goal.message(), (), self.sink.loc(goal.line)))
        for flipped in px4_flip_findings(self.text, self.sink.facts.path):
            self.sink.add(flipped)
        if cpp_may_start_at_zero(self.src):
            spans = [(fn.start_point[0] + 1, fn.end_point[0] + 1) for fn in functions]
            for zero in cpp_zero_start(blank_keeping_lines(self.text), spans, self.sink.facts.path):
                self.sink.add(zero)
        # (a member declared a quaternion in a header may be assigned a braced list here, naming no type)
        if b"Quaternion" in self.src or b"setValue" in self.src or b"Rot3" in self.src or re.search(rb"=\s*\{[^;]*\.w\b", self.src):
            declared = {k: v for h in (self.text, *self.headers) for k, v in member_declarations(h).items()}
            for found in cpp_swapped(self.text, quaternion_aliases((self.text, *self.headers)), quaternion_members(declared)):
                self.sink.add(swapped_quaternion_finding(found, self.sink.loc(found.line)))
        if b"deg" in self.src or b"Deg" in self.src or b"180" in self.src:
            for degrees in cpp_degrees(self.text):
                self.sink.add(degrees_finding(degrees, self.sink.loc(degrees.line)))
        self._header_constants()
        self._unwritten_frame_members()
        self._message_members()
        src = self.src
        relevant = [f for f in functions if _RELEVANT.search(src, f.start_byte, f.end_byte)]  # literals only: pos/endpos is a slice
        try:
            for fn in relevant:
                if _learns(src[fn.start_byte : fn.end_byte]):
                    _Run(self, emit=False).function(fn)
            if self.package is not None and b"get_parameter" in src:
                # a ROS 2 node reads parameters its base class declares in another file of the package
                for name, value in self.package.parameters().items():
                    self.params.setdefault(name, value)
            for fn in relevant:
                self.call(fn)
            self._check_published_members()
            self.finish()
        except Budget:
            self.sink.parse_error(1, f"analysis stopped after {STEP_BUDGET} steps; later functions not analysed")
        return self.sink.facts

    def _message_members(self) -> None:
        """Message members of the class: declared in this file or in its own headers."""
        in_source = {name for name, v in self.members.items() if isinstance(v, Record)} if _SOURCE_FILE.search(self.sink.facts.path) else set()
        for header in self.headers:
            in_source -= member_declarations(header).keys()
            for name, type_text in {**aliased_members(header), **member_declarations(header)}.items():
                short = _short_type(type_text)
                kind = message_kind(short, package_of(type_text)) or (STAMPED if self.messages.is_stamped(short, type_text) else None)
                if kind in (ODOMETRY, TRANSFORM, STAMPED) and name not in self.members:
                    self.members[name] = Record(kind, short, name, 0, local=False, ros1=_ros1_message(type_text))
                elif short == "CvImage" and name not in self.members:  # its toImageMsg gives images its header
                    self.members[name] = Record(STAMPED, short, name, 0, local=False)
                elif kind == TF_MESSAGE and name not in self.members:
                    self.members[name] = tf_message(short, name, 0, local=False)
            if self.messages.stamped:  # the package's own stamped types, written without its namespace
                for name, type_text in plain_members(header).items():
                    if name not in self.members and self.messages.is_stamped(type_text, type_text):
                        self.members[name] = Record(STAMPED, type_text, name, 0, local=False)
        self._params_structs()
        self.member_names = {id(v): name for name, v in self.members.items() if isinstance(v, Record)}
        # a class declared in a source file has all its methods here: no other file can set its messages
        self.source_members = in_source
        if _SOURCE_FILE.search(self.sink.facts.path):
            # a message at file scope of a .cpp: no other file can set its frame unless it is declared extern
            for name, v in self.globals.items():
                if isinstance(v, Record) and v.kind in (ODOMETRY, TRANSFORM, STAMPED) and not re.search(rf"\bextern\b[^;]*\b{re.escape(name)}\b", self.text):
                    self.member_names[id(v)] = name
                    self.file_scope.add(id(v))

    def _default_markers(self, functions: list[Node]) -> None:
        """MarkerArrays resized and sent on with markers never filled (read on each function's text)."""
        if b"MarkerArray" not in self.src:
            return
        for fn in functions:
            body = self.src[fn.start_byte : fn.end_byte]
            if b"MarkerArray" in body and b"resize" in body:
                for found in default_markers(body.decode("utf-8", "replace"), _line(fn)):
                    self.sink.add(Finding("MISSING_FRAME", found.message(), (), self.sink.loc(found.line)))

    def _params_structs(self) -> None:
        """``Params params_;`` of generate_parameter_library: its fields hold the package schema's defaults; a struct
        whose constructor reads parameters into its fields: they hold the defaults it gives."""
        for name, held in param_structs([self.text, *self.headers], self.params).items():
            if not isinstance(self.members.get(name), Record):
                self.members[name] = held
        if self.package is None:
            return
        declared = params_declarations([self.text, *self.headers])
        schemas = self.package.schemas() if declared else {}
        for name, namespace in declared.items():
            rec = params_record(schemas, namespace, name)
            if rec is not None and not isinstance(self.members.get(name), Record):
                self.members[name] = rec

    @cached_property
    def code_texts(self) -> list[str]:
        """The file and its headers without comments and strings (what the member checks read), made once."""
        return [code_only(t) for t in (self.text, *self.headers)]

    def _check_published_members(self) -> None:
        """Once every method is walked: a member message published with a frame no method of the file sets."""
        texts = self.code_texts
        for rec, line in self.published_members:
            name = self.member_names[id(rec)]
            file_scope = id(rec) in self.file_scope
            if (self.globals if file_scope else self.members).get(name) is not rec or rec.escaped or name in self.unknown_members:
                continue  # replaced as a whole, or handed to code we do not follow
            if rec.kind == TF_MESSAGE:
                continue  # its transforms were checked where it was published, as a broadcast
            if _assigned_whole(name, texts):
                continue  # `map_static = *msg;` / `this->odom_ = *msg;` in a callback: it may carry a frame
            where = "file" if file_scope else "source" if name in self.source_members else None
            self.sink.member_published(rec, name, line, texts, where)

    def _parse_error(self, root: Node) -> None:
        node = root
        while True:
            bad = next((c for c in node.children if c.has_error or c.is_missing or c.type == "ERROR"), None)
            if bad is None or bad.type == "ERROR" or bad.is_missing:
                node = bad or node
                break
            node = bad
        what = f"missing '{node.type}'" if node.is_missing else f"cannot parse '{_text(node, self.src)[:40].splitlines()[0] if _text(node, self.src) else ''}'"
        # Without the preprocessor and the headers tree-sitter misreads code that compiles (macros,
        # #if branches): a note, not a finding; what it recovered is analysed as usual.
        self.sink.note(_line(node), f"C++ the parser could not read ({what}); the rest of the file is analysed")

    def _collect(self, root: Node) -> list[Node]:
        """Functions anywhere at namespace/class level; file constants, member defaults and #defines."""
        out: list[Node] = []
        stack = [root]
        run = _Run(self, emit=False)
        while stack:
            node = stack.pop()
            for child in reversed(node.named_children):
                t = child.type
                if t == "function_definition":
                    out.append(child)
                    name = _function_name(child, self.src)
                    if name:
                        self.functions[name] = None if name in self.functions else child
                elif t in ("namespace_definition", "class_specifier", "struct_specifier", "template_declaration", "linkage_specification"):
                    stack.append(child)
                elif t in ("declaration_list", "field_declaration_list", "preproc_ifdef", "preproc_if", "preproc_else", "preproc_elif"):
                    stack.append(child)
                elif t == "ERROR":
                    # what tree-sitter kept of a broken function: its body still holds facts
                    stack.append(child)
                    out.extend(c for c in child.named_children if c.type == "compound_statement")
                elif t in ("declaration", "field_declaration"):
                    spec = child.child_by_field_name("type")
                    if spec is not None and spec.type in ("class_specifier", "struct_specifier") and spec.child_by_field_name("body") is not None:
                        stack.append(spec)  # `class Pose { ... } pose;`: a class defined where its one object is declared
                    run.declaration(child, self.globals if t == "declaration" else self.members)
                elif t == "preproc_def":
                    self._define(child)
        out.reverse()
        return sorted(out, key=lambda n: n.start_byte)

    def _define(self, node: Node) -> None:
        """``#define ODOM_FRAME "odom"`` / ``#define HALF_PI 1.5708``."""
        value, macro = node.child_by_field_name("value"), node.child_by_field_name("name")
        if value is None or macro is None:
            return
        m = re.fullmatch(r'\s*"([^"\\]*)"\s*', _text(value, self.src))
        if m:
            name = _text(macro, self.src)
            self.globals[name] = m.group(1)
            if frame_variable(name):  # `#define ODOM_FRAME "/odom"`
                self.sink.add(frame_id_finding(m.group(1), self.sink.loc(_line(node)), name))
            return
        try:
            self.globals[_text(macro, self.src)] = float(_text(value, self.src).strip().rstrip("fFlL"))
        except ValueError:
            pass

    def call(self, fn: Node, args: tuple[Value, ...] = ()) -> Value:
        """Analyse a function (reporting) once per distinct constant arguments, memoising its result.

        Constant arguments (frame names, numbers, rotations) are bound to the parameters, so a
        helper such as ``send_mount("base_link", "laser")`` declares the edge of each call.
        """
        # keyed by position: same-named methods of different classes are different functions
        return self.follow(fn.start_byte, args, lambda: _Run(self, emit=True).function(fn, args))

    def call_into(self, fn: Node, args: tuple[Value, ...]) -> tuple[bool, Value]:
        """``call``, where arguments may be the caller's messages: the helper writes into them (``fill(img)``),
        so each call is walked anew. (False, None) when recursion or depth bounds it out."""
        if not any(isinstance(a, Record) for a in args):
            return True, self.call(fn, args)
        site = fn.start_byte
        if site in self.active or len(self.active) >= CALL_DEPTH:
            return False, None
        self.active.append(site)
        try:
            return True, _Run(self, emit=True).function(fn, args)
        finally:
            self.active.pop()

    def helper(self, name: str) -> tuple[_CppFile, Node] | None:
        """The one definition of function ``name``: in this file, else in the package files that may hold it."""
        fn = self.functions.get(name)
        if fn is not None or name in self.functions:
            return (self, fn) if fn is not None else None  # None: defined twice here, which one runs is unknown
        if name not in self.library:
            found = []
            for path, text in self.helpers:
                if name not in text or not _defines(name, path, text):
                    continue  # never defined there: not worth a parse
                lib = self.library_file(path, text)
                fn = lib.functions.get(name)
                if fn is not None:
                    found.append((lib, fn))
            if not found and self.package is not None:
                # a message helper of the package no include leads to (a header relying on its .cpp's includes)
                body = self.package.helper(name)
                if body:
                    lib = self.library_file(f"<package helper {name}>", body)
                    fn = lib.functions.get(name)
                    if fn is not None:
                        found.append((lib, fn))
            self.library[name] = found[0] if len(found) == 1 else None
        return self.library[name]

    def library_file(self, path: str, text: str) -> _CppFile:
        """Another file of the package, its functions and constants collected (not walked). Parsed once per
        process while it is among the last few used: the files of one package share their headers."""
        lib = self.library_files.get(path)
        if lib is None:
            key = (path, hash(text))
            lib = _LIBRARY.pop(key, None)
            if lib is None:
                lib = _CppFile(text, FactSink(path, 0))
                lib._collect(lib.parse())
            _LIBRARY[key] = lib
            while len(_LIBRARY) > _LIBRARY_SIZE:
                del _LIBRARY[next(iter(_LIBRARY))]
            lib.steps = 0  # its walks count against this file's analysis, afresh
            lib.messages = self.messages
            lib.sink.facts.findings.clear()  # what its helpers report is not this file's
            self.library_files[path] = lib
        return lib

    def set_elsewhere(self, rec: Record) -> bool:
        """A file-scope message (``history_cloud = make_shared<...>()`` in ``main``) whose header another function of
        the file writes (``history_cloud->header.frame_id = ...`` in a helper ``main`` calls)."""
        return rec.local and rec.name in self.globals and mentions_header([self.text], rec.name)

    @cached_property
    def type_aliases(self) -> dict[str, str]:
        """``typedef sensor_msgs::msg::NavSatFix NavSatFixMsg;`` / ``using ImuMsg = sensor_msgs::msg::Imu;`` in the file
        or its own headers: the alias -> the namespaced type it names (septentrio's driver declares its messages so)."""
        return type_aliases((self.text, *self.headers))

    @cached_property
    def px4(self) -> bool:
        """The file or its own headers use px4_msgs, whose quaternions are w first."""
        return "px4_msgs" in self.text or any("px4_msgs" in h for h in self.headers)

    @cached_property
    def camera_info_kept(self) -> bool:
        """getCameraInfo may give back a framed CameraInfo: the file, its headers or another source of its package
        store one with ``setCameraInfo`` (gazebo_ros_camera_utils, with its frame) and none replaces it by loading a
        calibration (:func:`camera_info_reloaded`). A manager made with a calibration URL loads it on first use;
        avt_vimba_camera frames that and stores it back, so it alone replaces nothing. Looked up once per file."""
        def mentioned(word: str) -> bool:
            return word in self.text or any(word in h for h in self.headers) or (self.package is not None and self.package.mentions(word))
        if not mentioned("setCameraInfo"):
            return False
        return not mentioned("loadCameraInfo") or not camera_info_reloaded(
            [self.text, *self.headers, *(self.package.read() if self.package is not None else ())])

    def _header_constants(self) -> None:
        """String and number constants and member defaults the own headers write out (``std::string
        camera_name_ = "zed";``): the class's values before any method runs."""
        for path, text in self.helpers:
            if path.endswith(_HEADER_EXTS) and _WRITES_STRING.search(text):
                lib = self.library_file(path, text)
                for scope, into in ((lib.members, self.members), (lib.globals, self.globals)):
                    for k, v in scope.items():
                        if isinstance(v, float) or (isinstance(v, str) and v):  # "": set at run time
                            into.setdefault(k, v)

    def _unwritten_frame_members(self) -> None:
        """``std::string`` members named for a frame that no code of the class ever writes, so they stay empty:
        every other mention is a read into a frame field (hokuyo3d: ``nh.param("mag_frame_id", imu_frame_id, ...)``
        read the parameter into the IMU's member, and ``mag.header.frame_id = mag_frame_id`` stayed ""). Any other
        mention (a parameter read into it, an initializer, a reference handed out) leaves a member out."""
        own = [self.text, *self.headers]
        # only members this file writes into a frame field are candidates: the finding is at such a write, or at a
        # parameter misread that leaves it empty
        read_here = set(_FRAME_FIELD_READ.findall(self.text))
        declared = {n for t in own if "string" in t for n in _STRING_MEMBER.findall(t) if n in read_here and frame_variable(n) and self.members.get(n) is None}
        if not declared:
            return
        own_code = [blank_keeping_lines(t) for t in own]
        # the package's sources that define methods of this file's classes: only they can write the members (a
        # `main` elsewhere with a local of the same name cannot)
        classes = set(_METHOD_OF.findall(self.text))
        methods: list[str] | None = None
        for name in sorted(declared):
            # the file and its headers first (the usual answer, cheap), then the other sources of its classes
            if not all(_only_read(name, t) for t in own_code):
                continue
            if self.package is not None and methods is None:
                methods = [blank_keeping_lines(t) for t in self.package.read() if t != self.text and any(f"{c}::" in t for c in classes)]
            if not all(_only_read(name, t) for t in methods or ()):
                continue
            misread = re.search(rf"""\bparam\w*\s*(?:<[^<>;]*>)?\s*\(\s*"(?:~?\w*/)?{name}"\s*,\s*(\w+)""", self.text)
            if misread is None:
                self.unwritten.add(name)  # reported where a message's frame is written from it
                continue
            self.sink.add(Finding(
                "MISSING_FRAME",
                f"parameter '{name}' is read into '{misread.group(1)}', not into the member '{name}', which nothing else "
                f"writes: every frame written from '{name}' is empty, and '{misread.group(1)}' is overwritten",
                (), self.sink.loc(self.text.count("\n", 0, misread.start()) + 1),
            ))


def _only_read(name: str, text: str) -> bool:
    """Each mention of ``name`` in ``text`` is its declaration ``std::string name;`` or a read into a frame field;
    in a function with a parameter of that name, the bare name is the parameter (roboracing's tag_detection assigned
    the frame to its by-value parameter ``camera_frame``, never to the member)."""
    text = _unshadowed(name, text)
    kept = rf"^[ \t]*(?:std::)?string[ \t]+{name}[ \t]*;|" + _READ_INTO_FRAME.format(name)
    return len(re.findall(rf"\b{name}\b", text)) == len(re.findall(kept, text, re.MULTILINE))


_TIMEOUT = re.compile(r"Duration|duration|timeout|seconds|\d\s*s\b|ms\b")  # a lookup's wait: tf2's fourth argument
_METHOD_OF = re.compile(r"\b(\w+)::\w+\s*\(")  # `tag_detection::publishPointCloud(`: a method of class tag_detection


def _unshadowed(name: str, text: str) -> str:
    """``text`` with the parameter lists and bodies of functions taking a parameter ``name`` blanked of the bare name
    (``this->name`` is still the member; an initializer list between them, ``: name(name)``, is kept)."""
    if not re.search(rf"\b{name}\s*[,)=]", text):
        return text
    out, pos = [], 0
    declared = re.compile(rf"[\w>](?:\s*[&*]+\s*|\s+[&*]*\s*){name}\s*(?:=.*)?$", re.DOTALL)  # a type, then the name
    for m in re.finditer(r"\(([^(){};]*)\)\s*(?:const\s*)?(?:(?::[^{;]*)?\{|;)", text):
        if name not in m.group(1) or not any(declared.search(p.strip()) for p in m.group(1).split(",")):
            continue  # no parameter of that name: a call's arguments, or another function
        if text[m.end() - 1] == ";":  # a declaration: only its parameter list names it
            out += [text[pos : m.start(1)], re.sub(rf"\b{name}\b", " " * len(name), m.group(1))]
            pos = m.end(1)
            continue
        body_end = closing(text, m.end(), "{}", limit=None)
        out += [text[pos : m.start(1)], re.sub(rf"\b{name}\b", " " * len(name), m.group(1)), text[m.end(1) : m.end()],
                re.sub(rf"(?<!->)(?<!\.)\b{name}\b", " " * len(name), text[m.end() : body_end])]
        pos = body_end
    return "".join(out) + text[pos:]



class _Run(Walker[Node]):
    """One walk of one function body."""

    f: _CppFile

    def __init__(self, file: _CppFile, emit: bool) -> None:
        super().__init__(file, emit)
        self.copies = HeaderCopies()
        self.given: dict[str, Record] = {}  # parameters bound to the caller's messages
        self.fn: Node | None = None  # the function walked
        # markers stored by index into an array the walk does not hold (`(*tmp).markers[i] = m;`), by the array's name
        self.stored_markers: dict[str, list[Record]] = {}

    def text(self, node: Node | None) -> str:
        return _text(node, self.f.src)

    def is_member(self, name: str) -> bool:
        return name not in self.env  # C++ names members without `this->`

    def nodelet_pointers(self, node: Node) -> frozenset[str]:
        if not self.f.nodelets:
            return frozenset()
        kinds = "|".join(map(re.escape, self.f.nodelets))
        return frozenset(re.findall(rf"\b(?:{kinds})\s*[*&]\s*(\w+)", self.function_text(node)))

    def walked_text(self) -> str:
        return _text(self.fn, self.f.src) if self.fn is not None and self.fn.type == "function_definition" else ""

    def function_text(self, node: Node) -> str:
        up = node.parent
        while up is not None and up.type != "function_definition":
            up = up.parent
        if up is None:
            return ""
        texts = self.f.function_texts
        return texts[up.id] if up.id in texts else texts.setdefault(up.id, _text(up, self.f.src))

    def function_text_before(self, node: Node) -> str:
        up = node.parent
        while up is not None and up.type != "function_definition":
            up = up.parent
        return self.f.src[up.start_byte : node.start_byte].decode("utf-8", "replace") if up is not None else ""

    def conditions(self, node: Node) -> list[str]:
        out: list[str] = []
        child: Node | None = None
        up: Node | None = node  # the node itself too: `ns.empty() ? "odom" : ns + "/odom"`
        while up is not None and up.type not in ("function_definition", "lambda_expression", "translation_unit"):
            cond = up.child_by_field_name("condition") if up.type in ("if_statement", "conditional_expression") else None
            if cond is not None and (child is None or cond.id != child.id):
                out.append(_text(cond, self.f.src))
            child, up = up, up.parent
        return out

    def branches(self, node: Node) -> list[tuple[str, bool]]:
        out: list[tuple[str, bool]] = []
        child: Node = node
        up = node.parent
        while up is not None and up.type not in ("function_definition", "lambda_expression", "translation_unit"):
            if up.type in ("if_statement", "conditional_expression"):
                cond, then = up.child_by_field_name("condition"), up.child_by_field_name("consequence")
                alternative = up.child_by_field_name("alternative")
                if cond is not None and child.id != cond.id:
                    if then is not None and then.id == child.id:
                        out.append((_text(cond, self.f.src), True))
                    elif alternative is not None and alternative.id == child.id:
                        out.append((_text(cond, self.f.src), False))
            child, up = up, up.parent
        return out

    def guards(self, node: Node) -> list[Guard]:
        out: list[Guard] = []
        child: Node = node
        up = node.parent
        while up is not None and up.type not in ("function_definition", "lambda_expression", "translation_unit"):
            then = up.child_by_field_name("consequence") if up.type == "if_statement" else None
            alternative = up.child_by_field_name("alternative") if then is not None else None
            if up.type in _LOOPS and up.child_by_field_name("body") is not None:
                out.append(Guard("loop", up.start_point[0] + 1, up.end_point[0] + 1, self.head(up)))
            elif then is not None and child.id in (then.id, alternative.id if alternative is not None else None):
                branch = alternative if child.id == then.id else then
                other = (branch.start_point[0] + 1, branch.end_point[0] + 1) if branch is not None else None
                out.append(Guard("if", up.start_point[0] + 1, up.end_point[0] + 1, self.head(up), other))
            child, up = up, up.parent
        return out

    def head(self, statement: Node) -> str:
        """A statement's first line up to its block (``for (auto b : samples_)``), decoded alone."""
        src = self.f.src
        end = src.find(b"\n", statement.start_byte, statement.end_byte)
        return src[statement.start_byte : end if end >= 0 else statement.end_byte].decode("utf-8", "replace").split("{")[0].strip()

    def branch_condition(self, node: Node) -> str | None:
        child: Node = node
        up = node.parent
        while up is not None and up.type not in ("function_definition", "lambda_expression", "translation_unit"):
            if up.type == "if_statement":
                then, cond = up.child_by_field_name("consequence"), up.child_by_field_name("condition")
                if then is None or cond is None or then.id != child.id:
                    return None
                text = _text(cond, self.f.src).strip()
                return text[1:-1].strip() if text.startswith("(") and text.endswith(")") else text
            child, up = up, up.parent
        return None

    # --- statements ---------------------------------------------------------------------
    def function(self, fn: Node, args: tuple[Value, ...] = ()) -> Value:
        if fn.type == "compound_statement":  # a body recovered from a syntax error
            self.block([fn])
            return None
        self.fn = fn
        self.span = (_line(fn), fn.end_point[0] + 1)
        params, inits, body = self.f.function_shape(fn)
        self.parameters(params, args)
        for name, expr in inits:
            zeroed = _message_initialization(_text(expr, self.f.src))
            if zeroed is not None:  # `odom_(rosidl_runtime_cpp::MessageInitialization::ZERO)`: built, not copied
                member = self.lookup(name)
                if isinstance(member, Record):
                    member.ros1 = member.ros1 or zeroed
                continue
            value = self.eval(expr)
            if isinstance(value, Record) and not value.name:
                value.name = name  # `_occGrid(new nav_msgs::OccupancyGrid)`
            self.store(name, value)
            if self.emit:  # `m_worldFrameId("/map")`: a frame member's id written out where it is initialised
                self.declared_frame(name, expr, value, _line(expr))
        if body is not None:
            self.block([body])
        self.end_of_function()
        if self.emit:
            self.child_left_unset()
        copies = self.copies
        for line, how in copies.pending.values():
            self.f.sink.add(Finding("MISSING_FRAME", f"{how} with an empty one: the message goes out with no frame", (), self.f.sink.loc(line)))
        # the enclosing message's publication is not seen here: warnings
        for found, fld in ((copies.replaced_frame, "header.frame_id"), (copies.replaced_child, "child_frame_id")):
            for line, how in found.values():
                code = "MISSING_FRAME" if fld == "header.frame_id" else "MISSING_CHILD_FRAME"
                self.f.sink.add(Finding(code, f"{how} with one whose {fld} is empty, and this function sets none after it: "
                                        "the transform goes out with no frame wherever the message is published", (),
                                        self.f.sink.loc(line), severity=Severity.WARNING))
        return self.result()

    def child_left_unset(self) -> None:
        """A function that builds a transform or odometry message, sets its header.frame_id and returns it with
        no child_frame_id, which no caller in the package gives it either (unitree_ros' ``generateOdometryMsg``,
        EduArt's ``Sensor::getTransformMsg``; or a library's, like libpointmatcher_ros'
        ``pointMatcherTransformationToOdomMsg``, that nothing in its package calls)."""
        rec = self.results[0] if self.results else None
        if (not isinstance(rec, Record) or any(r is not rec for r in self.results) or rec.type_name not in ("Odometry", "TransformStamped")
                or not rec.local or rec.escaped or not self.span[0] <= rec.line <= self.span[1] or rec.get("header.frame_id") is UNSET):
            return
        child = rec.get("child_frame_id")
        if child == "" and rec.child_line:  # oxts_ros2_driver's wrap_odometry: `msg.child_frame_id = "";`, the line to change
            line: int | None = rec.child_line
            how = 'child_frame_id set to ""'
        elif child is UNSET:
            line, how = self.copies.written.get(rec.name), "child_frame_id never set"
        else:
            return
        name = _function_name(self.fn, self.f.src) if self.fn is not None else None
        package = self.f.package
        if line is None or name is None or package is None:
            return
        if not callers_leave_child_unset([blank_keeping_lines(t) for t in (self.f.text, *self.f.headers)] + [package.code()], name):
            return
        why = ("tf2 rejects a transform whose child_frame_id is empty" if rec.type_name == "TransformStamped"
               else "an odometry's twist is given in its child_frame_id, so no subscriber can tell which frame it is in")
        self.f.sink.add(Finding(
            "MISSING_CHILD_FRAME", f"{rec.type_name} '{rec.name}' gets its header.frame_id in {name}(), which returns it with "
            f"{how}, and no caller in the package sets it either: {why}. Set child_frame_id here, or take "
            "it as a parameter", (), self.f.sink.loc(line), severity=Severity.WARNING))

    def parameters(self, params: list[tuple[int, str, str, Node | None]], args: tuple[Value, ...]) -> None:
        """Bind constant arguments; other rotation-typed parameters are rotations typed top (R13),
        so constant factors multiplied with them still count (R15)."""
        for i, name, short, default in params:
            value = args[i] if i < len(args) else None
            if value is None and default is not None:
                value = self.eval(default)
                if self.emit and default.type in _STRING_LITERALS and frame_variable(name):  # `const std::string& frame = "/map"`
                    self.f.sink.add(frame_id_finding(value, self.f.sink.loc(_line(default)), f"default of parameter '{name}'"))
                if value == "" and not args and frame_variable(name):
                    # walked alone, `frame_id = ""` says "pass me one": unknown; a call that leaves it out binds ""
                    value = None
            if isinstance(value, Record):
                self.given[name] = value
            self.env[name] = self.typed(short, value)

    def store(self, name: str, value: Value) -> None:
        given = self.given.get(name)
        if given is not None and value is not given:
            given.escaped = True  # the helper may write into another message from here on: the caller's is unknown
        super().store(name, value)

    def nested(self, node: Node) -> Sequence[Node]:
        return node.named_children  # blocks, if/for/while/switch bodies, try: their statements

    # statement handlers (the STATEMENTS table): each returns the statements nested in it, walked next
    def s_declaration(self, node: Node) -> Sequence[Node]:
        self.declaration(node, self.env)
        return ()

    def s_expression(self, node: Node) -> Sequence[Node]:
        for c in node.named_children:
            self.eval(c)
        return ()

    def s_return(self, node: Node) -> Sequence[Node]:
        value = node.named_children[0] if node.named_child_count else None
        if value is not None and (value.type == "null" or (value.type == "identifier" and _text(value, self.f.src) == "NULL")):
            return ()  # `return nullptr;` when there is nothing to give: no message, not an unknown one
        result = self.eval(value) if value is not None else None
        self.results.append(result)
        if self.emit and isinstance(result, Record):
            self.f.sink.camera_returned(result)
        return ()

    def s_condition(self, node: Node) -> Sequence[Node]:
        for c in node.named_children:
            if c.type == "declaration":
                self.declaration(c, self.env)
            else:
                self.eval(c)
        return ()

    def s_switch(self, node: Node) -> Sequence[Node]:
        """Cases are all taken like branches, but a local given a different string in each case (tango_ros's
        ``toFrameId``: ``case ..._DEVICE: name = "device"; ... default: name = "unknown";``) holds the case's
        value, which only the switch's operand decides: unknown after the switch, not the last case's."""
        self.block(node.named_children)
        for name in _case_dependent_strings(node, self.f.src):
            if name in self.env:
                self.env[name] = None
        return ()

    def s_skip(self, node: Node) -> Sequence[Node]:
        """A local class or function: walked where it is called, not where it is defined."""
        return ()

    def declaration(self, node: Node, scope: dict[str, Value]) -> None:
        shapes = self.f.shapes
        key = node.id
        type_text, short, items = shapes[key] if key in shapes else shapes.setdefault(key, _declaration_shape(node, self.f.src))
        if short[:1].isupper() and "::" not in type_text and short in self.f.type_aliases:  # `NavSatFixMsg msg;`
            type_text = self.f.type_aliases[short]
            short = _short_type(type_text)
        # written once: file scope and class bodies by the first pass, function bodies by the reporting walk
        report = self.emit or scope is not self.env
        for what, child, name, value_node, line in items:
            if what == "default_value":  # `std::string frame_ = "map";` / `std::string frame_{"map"};` in a class
                if child.type == "initializer_list":
                    scope[name] = self.initialised(short, type_text, name, child, 0, False)
                else:
                    scope[name] = self.typed(short, self.eval(child))
                    if report:
                        self.declared_frame(name, child, scope[name], _line(child))
            elif what == "vexing":
                self.vexing(child, short, type_text, scope)
            elif value_node is None:
                value = self.default(short, name, line, scope is self.env, type_text)
                if scope is self.env:
                    scope[name] = value
                else:
                    scope.setdefault(name, value)
            else:
                scope[name] = self.initialised(short, type_text, name, value_node, line, scope is self.env)
                if report:
                    self.declared_frame(name, value_node, scope[name], line)

    def declared_frame(self, name: str, node: Node, value: Value, line: int) -> None:
        """``static char UAV_FRAME_ID[] = "/uav/enu";``, ``std::string frame_id = "/" + name;``: a variable
        named for a frame declared with an invalid id, reported where it is written."""
        if frame_variable(name):
            self.frame_checked(name, node, value, node.type in _STRING_LITERALS, line)

    def initialised(self, short: str, type_text: str, name: str, value_node: Node, line: int, local: bool) -> Value:
        """The value of ``T x(args)``, ``T x{args}`` or ``T x = expr``."""
        if value_node.type in ("argument_list", "initializer_list"):
            args = value_node.named_children
            if value_node.type == "initializer_list" and not args:
                value = self.default(short, name, line, local, type_text)
            else:
                value = self.construct(short, type_text, args, line)
        else:
            self.bind = (value_node.id, name)
            value = self.eval(value_node)
            self.bind = None
            if short == "TransformStamped" and local and not isinstance(value, Record):
                arg = _to_msg_argument(value_node, self.f.src)
                if arg is not None and self.is_stamped_transform(arg):
                    value = self.stamped_transform_msg(line)
        value = self.typed(short, value)
        if isinstance(value, Record) and not value.name:
            value.name = name
        return value

    def is_stamped_transform(self, name: str) -> bool:
        """``name`` is a ``tf2::Stamped<tf2::Transform>`` by its declaration in the walked function: written out, or
        ``auto name = f(...)`` with ``f`` declared returning one in the file or its headers. (tf2's other one-argument
        toMsg into a TransformStamped is the identity on a TransformStamped: that one keeps its child frame.)"""
        fn = self.fn
        if fn is None:
            return False
        body = _text(fn, self.f.src)
        n = re.escape(name)
        declared = re.compile(rf"Stamped\s*<\s*(?:tf2::)?Transform\s*>\s*&?\s*{n}\b")
        if declared.search(body):
            return True
        if self.is_member(name) and name not in self.env and any(declared.search(t) for t in (self.f.text, *self.f.headers)):
            return True  # a member of that type (norlab_imu_tools' `tf2::Stamped<tf2::Transform> transform_;`)
        made = re.search(rf"\bauto\s*&?\s*{n}\s*=\s*(?:\w+(?:::|\.|->))*(\w+)\s*\(", body)
        if made is None:
            return False
        returns = re.compile(rf"Stamped\s*<\s*(?:tf2::)?Transform\s*>\s*(?:\w+::)*{re.escape(made.group(1))}\s*\(")
        return any(returns.search(t) for t in (self.f.text, *self.f.headers))

    @staticmethod
    def stamped_transform_msg(line: int) -> Record:
        """``TransformStamped t = tf2::toMsg(stamped)``: the one toMsg giving a TransformStamped converts a
        ``tf2::Stamped<tf2::Transform>``, which has a frame_id and a stamp but no child frame: tf2 fills the
        header and the transform, never child_frame_id."""
        rec = Record(TRANSFORM, "TransformStamped", "", line)
        rec.set("header.frame_id", None)
        rec.set("transform", None)
        return rec

    def vexing(self, decl: Node, short: str, type_text: str, scope: dict[str, Value]) -> None:
        """``Eigen::Quaterniond q(m);``, ``Imu copy(m);`` parse as function declarations; inside a body they are
        constructions."""
        params = decl.child_by_field_name("parameters")
        name = _declarator_name(decl.child_by_field_name("declarator"), self.f.src)
        if scope is not self.env or params is None or not name:
            return
        if short not in _ROT_TYPES | _TF_TYPES and message_kind(short, package_of(type_text)) is None:
            return
        args = []
        for p in params.named_children:
            t = p.child_by_field_name("type")
            if p.type != "parameter_declaration" or p.child_by_field_name("declarator") is not None or t is None or t.type != "type_identifier":
                return
            args.append(t)
        scope[name] = self.typed(short, self.construct(short, type_text, args, _line(decl)))

    def default(self, short: str, name: str, line: int, local: bool, type_text: str = "") -> Value:
        if local and _std_header(short, type_text):
            return Record(HEADER, short, name, line)
        if short == "CvImage":  # `cv_bridge::CvImage img;`: its header is empty until the code sets it
            return Record(STAMPED, short, name, line, local=local)
        kind = (message_kind(short, package_of(type_text)) or (STAMPED if self.f.messages.is_stamped(short, type_text) else None)
                or (_message_type(type_text) if local and not self.f.messages.is_plain(short, type_text) else None))
        if kind == TF_MESSAGE:
            return tf_message(short, name, line, local)
        if kind is not None:
            return Record(kind, short, name, line, local=local, ros1=_ros1_message(type_text))
        if short in _ROT_TYPES:
            return TOP_ROT
        if short in _TF_TYPES:
            return TfValue()
        if short == "StampedTransform":  # `tf::StampedTransform t;` then t.frame_id_, t.child_frame_id_, t.setRotation(...)
            rec = Record(TRANSFORM, TF1_STAMPED, name, line, local=local)
            rec.set("transform", TfValue())
            return rec
        if short in ("vector", "array"):
            return ListValue()
        return None

    @staticmethod
    def typed(short: str, value: Value) -> Value:
        """Unknown values of rotation types are rotations typed top (R13), not plain unknowns."""
        if value is None:
            if short in _ROT_TYPES:
                return TOP_ROT
            if short in _TF_TYPES:
                return TfValue(TOP_ROT)
        return value

    # --- names --------------------------------------------------------------------------
    def path(self, node: Node) -> tuple[str, list[str]] | None:
        """``this->t_.header.frame_id`` -> ("t_", ["header", "frame_id"]) (shared: callers must not change it)."""
        key = node.id
        paths = self.f.paths
        p = paths[key] if key in paths else paths.setdefault(key, self._path(node, self.f.src))
        if p is None or _ANY_ELEMENT not in p[1]:
            return p
        # `odomMsgs[r].header.frame_id`: one element of a C array of messages (`T x[N]`, `x = new T[n]`) stands
        # for every element; any other index that is not a constant (a vector's, a string array's) is unknown
        if p[1][0] == _ANY_ELEMENT and _ANY_ELEMENT not in p[1][1:] and isinstance(self.lookup(p[0]), Record):
            return p[0], p[1][1:]
        return None

    def written_path(self, node: Node) -> tuple[str, list[str]] | None:
        return self.path(node) or self._path(node, self.f.src)

    @staticmethod
    def _path(node: Node, src: bytes) -> tuple[str, list[str]] | None:
        fields: list[str] = []
        while True:
            t = node.type
            if t == "field_expression":
                fld = node.child_by_field_name("field")
                arg = node.child_by_field_name("argument")
                if fld is None or arg is None:
                    return None
                fields.append(_text(fld, src))
                node = arg
            elif t in ("parenthesized_expression", "pointer_expression") and node.named_child_count == 1:
                node = node.named_children[0]
            elif t == "subscript_expression":  # `msg_.transforms[0]`: a constant index only
                arg, idx = node.child_by_field_name("argument"), node.child_by_field_name("indices")
                index = idx.named_children if idx is not None else []
                if arg is None or len(index) != 1:
                    return None
                constant = index[0].type == "number_literal" and _text(index[0], src).isdigit()
                fields.append(_text(index[0], src) if constant else _ANY_ELEMENT)
                node = arg
            elif t == "call_expression" and (element := _element_call(node, src)) is not None:  # `transforms.front()`
                fields.append(element)
                fn = node.child_by_field_name("function")
                arg = fn.child_by_field_name("argument") if fn is not None else None
                if arg is None:
                    return None
                node = arg
            elif t == "identifier":
                fields.append(_text(node, src))
                break
            elif t == "this":
                break
            else:
                return None
        fields.reverse()
        if not fields:
            return None
        return fields[0], fields[1:]

    # --- expressions --------------------------------------------------------------------

    def e_number(self, node: Node) -> Value:
        shapes = self.f.shapes
        key = node.id
        return shapes[key] if key in shapes else shapes.setdefault(key, self._number(node, self.f.src))

    @staticmethod
    def _number(node: Node, src: bytes) -> Value:
        text = _text(node, src).replace("'", "").rstrip("fFlLuU")
        try:
            return float(int(text, 0)) if _NUMBER_INT.fullmatch(text) else float(text)
        except ValueError:
            return None

    def e_string(self, node: Node) -> Value:
        shapes = self.f.shapes
        key = node.id
        if key not in shapes:
            text = self._string(node, self.f.src)
            shapes[key] = Literal(text, self.f.sink.facts.path, _line(node)) if isinstance(text, str) else text
        return shapes[key]

    @staticmethod
    def _string(node: Node, src: bytes) -> Value:
        parts = []
        for c in node.named_children:
            if c.type == "string_content":
                parts.append(_text(c, src))
            elif c.type == "escape_sequence":
                parts.append(_text(c, src).encode().decode("unicode_escape", "replace"))
            else:
                return None
        return "".join(parts)

    def e_concat(self, node: Node) -> Value:
        return concat([self.eval(c) for c in node.named_children])

    def e_identifier(self, node: Node) -> Value:
        shapes = self.f.shapes
        key = node.id
        name = shapes[key] if key in shapes else shapes.setdefault(key, _text(node, self.f.src))
        value = self.lookup(name)
        return self.f.params.get(value.name) if isinstance(value, ParamRef) else value

    def e_qualified(self, node: Node) -> Value:
        name = _text(node, self.f.src).split("::")[-1].strip()
        return self.lookup(name)

    def e_paren(self, node: Node) -> Value:
        return self.eval(node.named_children[0]) if node.named_child_count else None

    def e_compound(self, node: Node) -> Value:
        """``std::string{"os_sensor"}``: a braced temporary of one string is that string;
        ``geometry_msgs::msg::TransformStamped{}``: a message built empty, as ``T x;`` builds it."""
        value = node.child_by_field_name("value")
        if value is not None and value.named_child_count == 0:
            type_text = _text(node.child_by_field_name("type"), self.f.src)
            return self.construct(_short_type(type_text), type_text, [], _line(node))
        if value is not None and value.named_child_count == 1:
            inner = self.eval(value.named_children[0])
            return inner if isinstance(inner, str) else None
        return None

    def e_unary(self, node: Node) -> Value:
        op = node.child_by_field_name("operator")
        value = self.eval(node.child_by_field_name("argument"))
        if op is not None and op.type == "-":
            return negated(value)
        if op is not None and op.type == "+" and isinstance(value, (float, Heading)):
            return value
        return None

    def e_binary(self, node: Node) -> Value:
        shapes = self.f.shapes
        key = node.id
        op, left_node, right_node = shapes[key] if key in shapes else shapes.setdefault(key, _binary_shape(node))
        left, right = self.eval(left_node), self.eval(right_node)
        if op == "+" and isinstance(left, str) and isinstance(right, str):
            return concat((left, right))
        if op == "+" and left is None and isinstance(right, str) and unknown_prefix(self.text(left_node), right):
            return right
        if op == "*":
            if isinstance(left, Rot) and isinstance(right, Rot):
                return rot_mul(left, right)
            if isinstance(left, TfValue) and isinstance(right, TfValue):
                return TfValue(rot_mul(left.rot or TOP_ROT, right.rot or TOP_ROT))
        return binary_number(op, left, right)

    def e_assign(self, node: Node) -> Value:
        shapes = self.f.shapes
        key = node.id
        shape = shapes[key] if key in shapes else shapes.setdefault(key, _assign_shape(node, self.f.src))
        left, right, op, bind = shape
        if left is None:
            return None
        if bind is not None:
            self.bind = bind
        value = self.eval(right)
        self.bind = None
        if self.emit and right is not None:
            if op == "=":
                self.assigned(left, right, value, right.type in _STRING_LITERALS, _line(left))
                self.marker_stored(left, value)
            else:  # `q.x *= -1`: no component copied or written out, only a frame id grown (`frame_ += "/x"`)
                self.frame_written(left, right, value, right.type in _STRING_LITERALS, _line(left))
            self.header_written(left, right, value)
        if op == "*=":
            current = self.eval(left)
            value = rot_mul(current, value) if isinstance(current, Rot) and isinstance(value, Rot) else None
        elif op == "+=":  # `frame_ += "_camera_link"`: the value grows from the current one, which it replaces
            current = self.eval(left)
            value = concat((current, value)) if isinstance(current, str) and isinstance(value, str) else None
            name = _text(left, self.f.src) if left.type == "identifier" else ""
            if isinstance(value, str) and name and not self.emit and name not in self.env:
                self.f.members[name] = value
                return value
        elif op != "=":
            value = None
        self.assign(left, value, _line(left))
        return value

    def header_written(self, left: Node, right: Node, value: Value) -> None:
        """``msg.header.frame_id = ...`` sets a message's frame; ``msg.header = h`` with a header whose frame_id
        was never set overwrites it (reported at the end of the function unless set again)."""
        p = self.path(left)
        if p is None:
            return
        if p[1][-2:] == ["header", "frame_id"]:
            self.copies.frame_set(".".join([p[0], *p[1][:-2]]), _line(left), value if isinstance(value, str) else None)
        elif p[1][-1:] == ["child_frame_id"]:
            self.copies.child_set(".".join([p[0], *p[1][:-1]]))
        elif p[1] and is_transform(value) and isinstance(value, Record) and value.get("header.frame_id") is UNSET and value.get("child_frame_id") is UNSET:
            self.copies.replaced(".".join([p[0], *p[1]]), _line(left), f"'{_text(left, self.f.src)} = {_text(right, self.f.src)[:80]}'")
        elif p[1][-1:] == ["header"] and isinstance(value, Record) and _empty_header(value):
            self.copies.overwrite(".".join([p[0], *p[1][:-1]]), _line(left), f"'{_text(left, self.f.src)} = {value.name}'")

    def e_comma(self, node: Node) -> Value:
        """``m << 1, 0, 0, ...`` (Eigen comma initializer, ``cv::Mat_<float>(3,3) << ...``)."""
        items: list[Node] = []
        cur: Node | None = node
        while cur is not None and cur.type == "comma_expression":
            left = cur.child_by_field_name("left")
            if left is not None:
                items.append(left)
            cur = cur.child_by_field_name("right")
        if cur is not None:
            items.append(cur)
        first = items[0] if items else None
        op = first.child_by_field_name("operator") if first is not None and first.type == "binary_expression" else None
        if first is None or op is None or op.type != "<<":
            for it in items:
                self.eval(it)
            return None
        target = first.child_by_field_name("left")
        values = [self.eval(first.child_by_field_name("right"))] + [self.eval(it) for it in items[1:]]
        nums = [v for v in values if isinstance(v, float)]
        if len(nums) == len(values) and len(nums) in (9, 16):
            n = 3 if len(nums) == 9 else 4
            rot = rot_from_matrix([nums[i * n : i * n + 3] for i in range(3)])
        else:
            rot = TOP_ROT
        if target is not None and target.type != "call_expression":
            self.assign(target, rot)
        return rot

    def e_field(self, node: Node) -> Value:
        p = self.path(node)
        if p is None:
            return None
        base, fields = p
        value = self.lookup(base)
        if isinstance(value, Record) and fields:
            got = value.get(".".join(fields))
            return None if got is UNSET else got
        if fields and value is None and heading_field(fields[-1]) and (not self.is_member(base) or heading_reading(fields[-1])):
            return Heading()  # `m.relPosHeading` of a message handed in, `inspva_->azimuth` of one kept: a compass heading
        return value if not fields else None

    def e_element(self, node: Node) -> Value:
        """``msg.transforms[0]``: the element of a TFMessage's transforms, else the value at the path."""
        element = self.element(node)
        if element is not None:
            return element
        if self.f.px4 and (p := self.path(node)) is not None and len(p[1]) >= 2 and p[1][-2] in PX4_QUATERNION_FIELDS and p[1][-1] in "0123":
            return px4_component(int(p[1][-1]))  # `msg->q[0]` of a px4_msgs VehicleOdometry: w
        return self.e_field(node)

    def element(self, node: Node) -> Value:
        """``msg.transforms[0]`` / ``msg.transforms.front()``: the element of a TFMessage's transforms, made when
        missing so that a reference bound to it (``auto & t = msg.transforms.front();``) writes into the message."""
        p = self.path(node)
        if p is None or not p[1]:
            return None
        holder = self.lookup(p[0])
        return holder.element(".".join(p[1])) if isinstance(holder, Record) else None

    def e_lambda(self, node: Node) -> Value:
        body = node.child_by_field_name("body")
        if body is not None:
            self.block([body])
        return None

    def e_init_list(self, node: Node) -> Value:
        return ListValue([self.eval(c) for c in node.named_children])

    def e_cast(self, node: Node) -> Value:
        return self.eval(node.child_by_field_name("value"))

    def e_new(self, node: Node) -> Value:
        type_text = _text(node.child_by_field_name("type"), self.f.src)
        args = node.child_by_field_name("arguments")
        return self.construct(_short_type(type_text), type_text, args.named_children if args is not None else [], _line(node))

    # --- calls --------------------------------------------------------------------------
    def e_call(self, node: Node) -> Value:
        shapes = self.f.shapes
        key = node.id
        shape = shapes[key] if key in shapes else shapes.setdefault(key, _call_shape(node, self.f.src))
        if shape is None:
            return None
        is_method, call = shape
        if is_method and call.name in _ELEMENT_METHODS and not call.args:
            element = self.element(node)
            if element is not None:
                return element
        if is_method:
            if rpy_slots(call.name) is not None or call.name == "setEuler":
                self.euler_slots(call.name, call.args, call.line)
            return self.method(call)
        if rpy_slots(call.name) is not None:
            self.euler_slots(call.name, call.args, call.line)
        return self.function_call(node, call)

    def into_frame(self, call: Call[Node], frame_at: int, out_at: int) -> Value:
        """laser_geometry's ``transformLaserScanToPointCloud(target, scan, cloud, tf)``, pcl_ros'
        ``transformPointCloud(target, in, out, tf)``: the output is stamped with the target frame, as if written here
        (localmap_creator's ``"/base_link"`` went out as the cloud's frame)."""
        for i, a in enumerate(call.args):
            if i != out_at:
                self.eval(a)
        out, frame = call.args[out_at], call.args[frame_at]
        p = self.path(out)
        value = self.eval(frame)
        if p is not None and isinstance(self.lookup(p[0]), Record):
            self.assign_path(p[0], [*p[1], "header", "frame_id"], value, call.line)
            if self.emit:
                self.frame_checked(f"{_text(out, self.f.src)}.header.frame_id", frame, value, frame.type in _STRING_LITERALS, call.line)
        return None

    def function_call(self, node: Node, call: Call[Node]) -> Value:
        name, args = call.name, call.args
        # pcl_ros' (target, in, out, listener) form; its (target, transform, in, out) form leaves `out` in `in`'s frame
        if name == "transformPointCloud" and len(args) == 4 and _LISTENER.search(_text(args[3], self.f.src)):
            return self.into_frame(call, 0, 2)
        if name == "toPCL" and len(args) == 2 and self.emit:  # pcl_conversions::toPCL(header, cloud.header) copies the frame_id too
            p = self.path(args[1])
            if p is not None and p[1][-1:] == ["header"] and _empty_header(self.eval(args[0])):
                self.copies.overwrite(".".join([p[0], *p[1][:-1]]), call.line, f"'{_text(node, self.f.src)}'")
        if name in ("toROSMsg", "fromPCL") and len(args) == 2 and self.from_frameless_cloud(args[0]):
            # the message takes the cloud's empty header: its frame is what the function sets after the call
            msg = self.message_arg(args[1])
            if msg is not None:
                p = self.path(args[1])
                if self.emit and p is not None:
                    self.copies.overwrite(p[0], call.line, f"'{_text(node, self.f.src)}' (a PCL cloud made here, whose header.frame_id is never set)")
                return None
        fills = _FILLS_DATA.get(name)
        if fills is not None and (len(args) == fills[1] if fills[1] else len(args) > fills[0]):
            for i, a in enumerate(args):  # the message argument is left as it is: not escaped, its header still unset
                if i != fills[0]:
                    self.eval(a)
            return None
        handler = _FUNCTIONS.get(name)
        if handler is not None:
            value = handler(self, call)
            if not isinstance(value, Missing):
                return value
        short = _short_type(call.callee)
        if (message_kind(short, package_of(call.callee)) or short in _BUILT_TYPES
                or (not args and _std_header(short, call.callee.replace(" ", "")))):
            return self.construct(short, call.callee, args, call.line)
        special = self.api(call)
        if not isinstance(special, Missing):
            return special
        return self.user_call(call)

    def from_frameless_cloud(self, arg: Node) -> bool:
        """``*map_ptr`` / ``cloud``: a PCL cloud the walked function made fresh and never gave a header."""
        fn = self.fn  # None for a body recovered from a syntax error: no declarations to read
        if fn is None:
            return False
        p = self.path(arg)
        if p is None or p[1]:
            return False
        clouds = self.f.clouds
        if fn.id not in clouds:
            clouds[fn.id] = frameless_clouds(self.f.src[fn.start_byte : fn.end_byte].decode("utf-8", "replace"))
        return p[0] in clouds[fn.id]

    def cv_image(self, ctor: Node, line: int) -> Value:
        """``cv_bridge::CvImage(header, encoding, mat).toImageMsg()``: the Image gets the header given."""
        fn, arglist = ctor.child_by_field_name("function"), ctor.child_by_field_name("arguments")
        if fn is None or arglist is None or _short_type(_text(fn, self.f.src)) != "CvImage":
            self.eval(ctor)
            return None
        return self.cv_image_of(arglist.named_children, "", line)

    def cv_image_of(self, args: Sequence[Node], name: str, line: int) -> Value:
        """A ``cv_bridge::CvImage`` built from ``args``: with none, its header is empty until the code sets it;
        ``(header, encoding, mat)`` with ``std_msgs::Header()`` or a Header whose frame_id was never set makes an
        Image with an empty frame; any other header is not known here."""
        if not args:
            return Record(STAMPED, "CvImage", name, line)
        header = self.eval(args[0])
        empty = _EMPTY_HEADER_TEMPORARY.fullmatch(_text(args[0], self.f.src)) is not None or _empty_header(header)
        for a in args[1:]:
            self.eval(a)
        if empty:
            return Record(STAMPED, "Image", name, line)
        if not isinstance(header, Record) or header.kind != HEADER or header.escaped:
            return None
        frame = header.get("frame_id")
        if not (isinstance(frame, str) and frame):
            return None
        # a Header built here with a known frame (naoqi_driver's `header.frame_id = msg_frameid_`): the Image carries it
        image = Record(STAMPED, "Image", name, line, local=header.local)
        image.set("header.frame_id", frame)
        image.frame_line = literal_line(frame, self.f.sink.facts.path) or 0
        return image

    # free functions the analysis knows by name (the _FUNCTIONS table); MISSING when the form does not apply
    def f_make_shared(self, c: Call[Node]) -> Result:
        if c.template is None:
            return MISSING
        type_text = _text(c.template, self.f.src).strip()
        type_text = type_text[1:-1] if type_text.startswith("<") and type_text.endswith(">") else type_text  # one pair: `<A<B>>`
        return self.construct(_short_type(type_text), type_text, c.args, c.line)

    def f_pass(self, c: Call[Node]) -> Result:
        if c.n < 1:
            return "" if c.name == "string" else MISSING  # `std::string()`: the empty string
        value = self.eval(c.args[0])
        if c.name == "toMsg" and c.n == 2:
            package = self.f.package
            if (c.callee == "toMsg" and self.message_arg(c.args[1]) is not None and package is not None
                    and package.leaves_frames("toMsg", 2)):
                # realsense_hardware_interface's own `toMsg(rs2_imu, imu)` overloads fill the data, never the header
                self.escape(c.args[1], keeps_frames=True)
                return None
            self.assign(c.args[1], value)
        return value

    def f_utm(self, c: Call[Node]) -> Result:
        """gps_common's LLtoUTM / UTMtoLL: judged for the order a point's x and y take its northing and easting; the
        call is then walked as any other."""
        if self.emit:
            self.f.sink.add(utm_axes_finding(c.name, [_text(a, self.f.src) for a in c.args], self.f.sink.loc(c.line)))
        return MISSING

    def f_convert(self, c: Call[Node]) -> Result:
        if c.n != 2:
            return MISSING
        value = self.eval(c.args[0])
        first = c.args[0]
        if (c.name == "convert" and first.type == "identifier" and isinstance(self.message_arg(c.args[1]), Record)
                and self.is_stamped_transform(_text(first, self.f.src))):
            # tf2::convert(a, b) is fromMsg(toMsg(a), b): a TransformStamped rebuilt from the Stamped<Transform>,
            # child_frame_id empty (norlab_imu_tools set it once in the constructor; every convert wiped it)
            value = self.stamped_transform_msg(c.line)
        self.assign(c.args[1], value)
        return None

    def f_eigen_to_transform(self, c: Call[Node]) -> Result:
        if c.n != 1:
            return MISSING
        # tf2_eigen: a TransformStamped whose header and child_frame_id are empty until the code sets them
        self.eval(c.args[0])
        rec = Record(TRANSFORM, "TransformStamped", "", c.line)
        rec.set("transform", None)
        return rec

    def f_rpy(self, c: Call[Node]) -> Result:
        return self.rpy(c.args, c.line) if c.n == 3 else MISSING

    def f_yaw(self, c: Call[Node]) -> Result:
        if c.n != 1:
            return MISSING
        value = self.eval(c.args[0])
        self.yaw_given(value, c.line)
        yaw = as_number(value)
        return rot_from_rpy(0.0, 0.0, yaw) if yaw is not None else TOP_ROT

    def f_math(self, c: Call[Node]) -> Result:
        if c.n != 1:
            return MISSING
        return apply_math(c.name, self.eval(c.args[0]))

    def f_atan2(self, c: Call[Node]) -> Result:
        if c.n != 2:
            return MISSING
        a, b = as_number(self.eval(c.args[0])), as_number(self.eval(c.args[1]))
        return math.atan2(a, b) if a is not None and b is not None else None

    def f_unit(self, c: Call[Node]) -> Result:
        return _UNIT_VECTORS[c.name]

    def f_identity(self, c: Call[Node]) -> Result:
        owner = _short_type(c.callee.rsplit("::", 1)[0]) if "::" in c.callee else ""
        if owner in _TF_TYPES:
            return TfValue(IDENTITY_ROT, (0.0, 0.0, 0.0))
        return IDENTITY_ROT

    def method(self, call: Call[Node]) -> Value:
        special = self.api(call)
        if not isinstance(special, Missing):
            return special
        if call.name == "transformLaserScanToPointCloud" and call.n >= 4:
            return self.into_frame(call, 0, 2)
        receiver = call.receiver
        if call.name.startswith("set__") and call.n == 1 and receiver is not None:
            return self.field_setter(call, receiver)
        if call.name == "toImageMsg" and not call.args and receiver is not None and receiver.type == "call_expression":
            return self.cv_image(receiver, call.line)
        target = self.eval(receiver) if receiver is not None else None
        if call.name == "toImageMsg" and isinstance(target, Record) and target.type_name in ("CvImage", "Image"):
            if not call.args:
                return target  # the Image gets the CvImage's header
            filled = self.message_arg(call.args[0]) if call.n == 1 else None
            if isinstance(filled, Record):  # `cv_image.toImageMsg(msg)` (ROS 2): msg gets the CvImage's header
                if not target.local and mentions_header([self.f.text, *self.f.headers], target.name):
                    filled.set("header", None)  # a member whose header some method may set
                else:
                    for key, held in target.fields.items():
                        if key == "header" or key.startswith("header."):
                            filled.set(key, held)
                return None
        if isinstance(target, Record) and target.type_name == TF1_STAMPED and isinstance(target.get("transform"), TfValue):
            target = target.get("transform")  # a tf::StampedTransform is a tf::Transform: setRotation, getOrigin... act on that
        getter = _GETTERS.get(call.name)
        if getter is not None:
            value = getter(self, call, target)
            if not isinstance(value, Missing):
                return value
        if receiver is None or self.own_message_getter(call.name):
            # `sr.GetImuData()`, spot_ros2's `camera_->stitch(left, right)`: the one method of that name this file
            # defines, returning a message
            return self.user_call(call)
        if call.name in _TIME_SETTERS and (stamp := self.path(receiver)) is not None and stamp[1][-2:] == ["header", "stamp"]:
            self.assign_path(stamp[0], stamp[1], None)  # `msg.header.stamp.fromNSec(t)`: the header is used, stamped
            return None
        setter = _SETTERS.get(call.name)
        hands_message = any(self.message_arg(a) is not None for a in call.args)
        if setter is None and hands_message and self.emit and self.f.helper(call.name) is not None:
            return self.user_call(call)  # `api_.frameToImage(frame, img)`: a helper of the package fills img
        if setter is None and call.n == 1 and _PUBLISH_WRAPPER.match(call.name) and call.name not in self.f.functions:
            given = self.message_arg(call.args[0])
            if isinstance(given, Record) and given.local and given.kind in (ODOMETRY, STAMPED, TRANSFORM):
                # `publishers.publishGNSS(gnss)` (mrs_multirotor_simulator): a publisher wrapper defined in no file of the
                # package sends the message as it is, a frame included
                self.published(given, call)
                return None
        if setter is None or isinstance(setter(self, call, target), Missing):
            # read the package's definitions only for a call that hands over a message (most calls hand none)
            keeps = hands_message and self.f.package is not None and self.f.package.leaves_frames(call.name)
            for a in call.args:  # arguments may hold lambdas (timer callbacks) and nested tf calls
                self.eval(a)
                self.escape(a, keeps)
            self.frame_arguments(call.name, call.args)
        return None

    def frame_arguments(self, name: str, args: Sequence[Node]) -> None:
        """A string literal passed where a function or constructor of the package takes a frame (lidar_localization's
        ``std::make_shared<CloudPublisher>(nh, topic, "/velo_link", 100)``, its parameter ``frame_id``): a frame id,
        checked where it is written whatever the function does with it."""
        package = self.f.package
        if not self.emit or package is None or not args:
            return
        for i, parameter in package.frame_parameters(name, len(args)):
            arg = args[i]
            if arg.type not in _STRING_LITERALS:
                continue
            value, line = self.eval(arg), arg.start_point[0] + 1
            sink = self.f.sink
            if any(f.code == "INVALID_FRAME_ID" and f.frames == (value,) and f.location is not None and f.location.line == line
                   for f in sink.facts.findings):
                continue  # the walk of the function already reported it here
            sink.add(frame_id_finding(value, sink.loc(line), f"argument '{parameter}' of {name}()"))

    def field_setter(self, call: Call[Node], receiver: Node) -> Value:
        """rosidl's generated setters, ``msg.header.set__frame_id(id)``: the field assignment they stand for."""
        arg = call.args[0]
        value = self.eval(arg)
        p = self.path(receiver)
        if p is None:
            return None
        base, fields = p
        fields = [*fields, call.name[len("set__"):]]
        self.assign_path(base, fields, value)
        holder = self.lookup(base)
        if self.emit and is_header_field(fields):
            self.frame_checked(".".join([base, *fields]), arg, value, arg.type in _STRING_LITERALS, call.line)
        return holder if not fields[:-1] else None  # a setter returns the message it sets, for chained calls

    # methods that compute a value from their receiver (the _GETTERS table); MISSING when the form does not apply
    def m_inverse(self, c: Call[Node], target: Value) -> Result:
        if c.n != 0:
            return MISSING
        if isinstance(target, Rot):
            return rot_inverse(target)
        if isinstance(target, TfValue):
            return TfValue(rot_inverse(target.rot) if target.rot is not None else TOP_ROT)
        return None

    def m_empty_header(self, c: Call[Node], target: Value) -> Result:
        """Library calls that return a new message whose header is empty: the old cv_bridge's
        ``CvBridge::cvToImgMsg(ipl_image, encoding)``, and camera_info_manager's ``getCameraInfo()`` (the
        calibration file it loads holds no frame: the driver must set it)."""
        type_name, arity = _EMPTY_HEADER_METHODS[c.name]
        if c.n not in arity:
            return MISSING
        for a in c.args:
            self.eval(a)
        if c.name == "getCameraInfo" and self.f.camera_info_kept:
            return None  # the manager returns what setCameraInfo gave it, which may carry a frame
        return Record(STAMPED, type_name, "", c.line)

    def m_pass(self, c: Call[Node], target: Value) -> Result:
        if c.n != 0:
            return self.m_param_value(c, target) if c.name == "as_string" else MISSING
        if isinstance(target, TfValue) and c.name in ("getRotation", "getBasis", "rotation", "linear"):
            return target.rot
        return self.f.params.get(target.name) if isinstance(target, ParamRef) else target

    def m_element(self, c: Call[Node], target: Value) -> Result:
        if c.n != 2 or not isinstance(target, Rot) or target.exact is None:
            return MISSING
        i, j = as_number(self.eval(c.args[0])), as_number(self.eval(c.args[1]))
        if i is not None and j is not None and 0 <= i < 3 and 0 <= j < 3:
            return target.exact[int(i)][int(j)]
        return None

    def m_component(self, c: Call[Node], target: Value) -> Result:
        if c.n != 0 or not isinstance(target, Rot):
            return MISSING
        return component(target, c.name[-1].lower())

    def m_param_value(self, c: Call[Node], target: Value) -> Result:
        return self.f.params.get(target.name) if isinstance(target, ParamRef) else MISSING

    # methods that change their receiver (the _SETTERS table); MISSING when the form does not apply
    def s_euler(self, c: Call[Node], target: Value) -> Result:
        into = last_name(_text(c.receiver, self.f.src)) if c.receiver is not None else ""
        rot = self.rpy(c.args, c.line, into) if c.name == "setRPY" else self.rpy(list(reversed(c.args)), c.line, into)
        self.update(c, target, rot)
        if self.emit and into:
            self.conversion_rotation(into, rot, c.line)
        return None

    def s_value(self, c: Call[Node], target: Value) -> Result:
        n = c.n
        if n not in (4, 9):
            return MISSING
        vals = [as_number(self.eval(a)) for a in c.args]
        nums = [v for v in vals if v is not None]
        if len(nums) != n:
            rot = TOP_ROT
        else:
            rot = rot_from_quaternion(nums) if n == 4 else rot_from_matrix([nums[0:3], nums[3:6], nums[6:9]])
        self.update(c, target, rot)
        return None

    def s_rotation(self, c: Call[Node], target: Value) -> Result:
        if c.n != 1:
            return MISSING
        value = self.eval(c.args[0])
        if isinstance(target, TfValue):
            target.rot = basis(value) if isinstance(value, Rot) else TOP_ROT
        return None

    def s_origin(self, c: Call[Node], target: Value) -> Result:
        if c.n != 1 or not isinstance(target, TfValue):
            return MISSING
        vec = as_vector(self.eval(c.args[0]))
        target.origin = (vec[0], vec[1], vec[2]) if vec is not None and len(vec) == 3 else None
        return None

    def s_identity(self, c: Call[Node], target: Value) -> Result:
        if c.n != 0:
            return MISSING
        if isinstance(target, TfValue):
            target.rot, target.origin = IDENTITY_ROT, (0.0, 0.0, 0.0)
        else:
            self.update(c, target, IDENTITY_ROT)
        return None

    def s_get_rotation(self, c: Call[Node], target: Value) -> Result:
        if c.n != 1:
            return MISSING
        if isinstance(target, Rot):
            self.assign(c.args[0], target)
        elif isinstance(target, TfValue):
            self.assign(c.args[0], target.rot)
        return None

    def s_push_back(self, c: Call[Node], target: Value) -> Result:
        if c.n != 1:
            return MISSING
        if isinstance(target, ListValue):
            target.items.append(self.eval(c.args[0]))
            return None
        into = self.path(c.receiver) if self.emit and c.receiver is not None else None
        if into is not None and into[1][-1:] == ["poses"]:
            self.f.sink.pushed_pose(self.eval(c.args[0]), _text(c.receiver, self.f.src), c.line)
            return None
        holder = self.lookup(into[0]) if into is not None and into[1] == ["markers"] else None
        if isinstance(holder, Record) and holder.type_name == "MarkerArray":  # not an InteractiveMarkerControl's
            marker = self.eval(c.args[0])
            # a DELETE or DELETEALL marker draws nothing: RViz never reads its pose
            if not (isinstance(marker, Record) and re.search(rf"\b{re.escape(marker.name)}\s*(?:\.|->)\s*action\s*=\s*[\w:.]*DELETE",
                                                             self.f.text)):
                self.f.sink.pushed_marker(marker, _text(c.receiver, self.f.src), c.line)
            return None
        return MISSING

    def s_reset(self, c: Call[Node], target: Value) -> Result:
        """``pub_.reset(new realtime_tools::RealtimePublisher<T>(...))``: the smart pointer now holds that object."""
        if c.n != 1 or c.receiver is None:
            return MISSING
        value = self.eval(c.args[0])
        if not isinstance(value, Record):
            return MISSING
        self.assign(c.receiver, value)
        return None

    def update(self, c: Call[Node], target: Value, rot: Rot) -> None:
        if isinstance(target, TfValue):
            target.rot = rot
        elif c.receiver is not None:
            self.assign(c.receiver, rot)

    # tf and parameter APIs, called as methods or free functions (the API table, beside SHARED_API's)
    def h_send_transform(self, c: Call[Node]) -> Result:
        if c.n < 1:
            return MISSING
        value = self.eval(c.args[0]) if c.n == 1 else self.construct("StampedTransform", "", c.args, c.line)
        receiver = c.receiver
        if self.emit:
            static = receiver is not None and (self.path(receiver) or ("", []))[0] in self.f.static_broadcasters
            if receiver is not None and receiver.type == "field_expression":
                static = static or _text(receiver.child_by_field_name("field"), self.f.src) in self.f.static_broadcasters
            self.broadcast(value, static, c.line, c.args[0])
        return None

    def h_publish(self, c: Call[Node]) -> Result:
        """``publish(msg)``; image_transport's CameraPublisher ``publish(image, info)`` sends both."""
        if self.emit and c.receiver is not None:
            for a in c.args[:2]:
                self.nested_member_message(a, c.line)
            array = self.path(c.args[0]) if c.n else None
            for marker in self.stored_markers.pop(array[0], []) if array is not None and not array[1] else []:
                self.published(marker, c)
        topic = self.eval(c.args[0]) if c.n >= 2 else None  # read once: a topic name, or the first of two messages
        if c.n == 2 and c.receiver is None and isinstance(topic, str) and isinstance(message := self.eval(c.args[1]), Record):
            self.published(message, c)  # the node's own `publish<NavSatFixMsg>("/navsatfix", msg)`: a topic and a message
            return None
        if c.n < 2 or isinstance(topic, str):
            return Walker.h_publish(self, c)
        for value in (topic, self.eval(c.args[1])):  # image_transport's publish(image, info)
            self.published(value, c)
        return None

    def marker_stored(self, left: Node, value: Value) -> None:
        """``(*tmp).markers[i] = m;`` (mader's clearMarkerArray): a marker the walk built, stored into an array it
        does not hold, is published with the array; a frame written through the array's elements afterwards
        (``tmp.markers[i].header.frame_id = ...``) frames the stored copies."""
        p = self.written_path(left)
        if p is None or "markers" not in p[1]:
            return
        if p[1][-2:] == ["markers", _ANY_ELEMENT] and isinstance(value, Record) and value.local and value.type_name == "Marker":
            self.stored_markers.setdefault(p[0], []).append(value)
        elif "header" in p[1]:
            self.stored_markers.pop(p[0], None)

    def nested_member_message(self, arg: Node, line: int) -> None:
        """``camera_pub_.publish(scan_.image_ptr, ...)`` (ouster_decoder): a message held in a member of a member,
        declared by another class of the package (``sensor_msgs::ImagePtr image_ptr;`` in lidar.h) and made
        fresh there, whose header no code of the package ever touches: it goes out with an empty frame."""
        m = _NESTED_MEMBER.fullmatch(self.text(arg).strip())
        package = self.f.package
        if m is None or package is None or isinstance(self.lookup(m.group(2)), Record) or isinstance(self.eval(arg), Record):
            return  # a field of a message the walk holds (`odom.pose`) is that message's business
        name = m.group(3)
        texts = [*self.f.code_texts, package.code()]  # the class headers the file reads, and every source of the package
        declared = {t for text in texts for t in re.findall(rf"^[ \t]*((?:\w+::)*\w+)[ \t]+{name}[ \t]*;", text, re.MULTILINE)}
        kinds = {message_kind(_short_type(t), package_of(t)) for t in declared}
        if len(declared) != 1 or not kinds <= {STAMPED, ODOMETRY, TRANSFORM} or mentions_header(texts, name) or _assigned_whole(name, texts, True):
            return
        short = re.sub(r"(?:Const)?(?:Shared|Unique)?Ptr$", "", _short_type(next(iter(declared))))
        self.f.sink.add(Finding(
            "MISSING_FRAME",
            f"{short} '{m.group(1)}{name}' is published with header.frame_id never set: '{name}' is declared as {next(iter(declared))} "
            "and no code of the package touches its header, so subscribers and tf2 cannot tell which frame the data is in",
            (), self.f.sink.loc(line), severity=Severity.WARNING))

    def h_unlock_and_publish(self, c: Call[Node]) -> Result:
        """realtime_tools ``pub->unlockAndPublish()``: sends the message the publisher owns (``pub->msg_``)."""
        if c.n or c.receiver is None:
            return MISSING
        publisher = self.eval(c.receiver)
        if self.emit and isinstance(publisher, Record) and publisher.kind == REALTIME_PUBLISHER:
            static = is_static_topic(publisher) or "static" in self.text(c.receiver).lower()
            message = publisher.get("msg_")
            self.f.sink.publish(message, c.line, static=static)
            if isinstance(message, Record) and not message.local:
                self.member_publisher_message(self.text(c.receiver).removeprefix("this->").strip(), message, c.line)
        return None

    def member_publisher_message(self, name: str, message: Record, line: int) -> None:
        """The message a member realtime publisher owns (``ft_publisher_->msg_``), sent with a frame no method of the
        file or its headers writes (pr2_ethercat_drivers' WrenchStamped: only its stamp): as a member message."""
        f = self.f
        if message.kind == TF_MESSAGE:
            return  # its transforms were checked where it was sent, as a broadcast
        texts = f.code_texts
        if not any(re.search(rf"RealtimePublisher[^;{{}}]*\b{re.escape(name)}\s*;", t) for t in texts):
            return  # not a member the class declares where the scan reads it (a member initialised to NULL is fine)
        if any(re.search(rf"\b{re.escape(name)}\s*->\s*msg_\b(?!\s*\.)", t) for t in texts):
            return  # the message is referred to (`auto & m = pub_->msg_;`) or replaced whole: it may get a frame there
        f.sink.member_published(message, f"{name}->msg_", line, texts, "source" if name in f.source_members else None)

    def h_try_publish(self, c: Call[Node]) -> Result:
        """realtime_tools ``pub->try_publish(msg)`` (the newer API): a publish, on /tf_static if made there."""
        if c.n != 1 or c.receiver is None:
            return MISSING
        if self.emit and is_static_topic(self.eval(c.receiver)):
            self.f.sink.publish(self.eval(c.args[0]), c.line, static=True)
            return None
        return self.h_publish(c)

    def h_get_params(self, c: Call[Node]) -> Result:
        """generate_parameter_library ``param_listener_->get_params()``: the schema's defaults (one schema only)."""
        if c.n or self.f.package is None:
            return MISSING
        return params_record(self.f.package.schemas(), None, "")

    def h_push(self, c: Call[Node]) -> Result:
        """``push(msg, pub)``: gazebo_plugins' PubQueue, a queue wrapper that publishes later."""
        if c.n != 2 or "pub" not in _text(c.args[1], self.f.src).lower():
            return MISSING
        self.published(self.eval(c.args[0]), c)
        return None

    def h_lookup(self, c: Call[Node]) -> Result:
        n = c.n
        if n < 2:
            return MISSING
        values = [self.eval(a) for a in c.args]
        # the advanced form is (target, target_time, source, source_time, fixed_frame, ...)
        advanced = n >= 5 and not isinstance(values[1], str) and (isinstance(values[2], str) or c.name == "lookupTransform")
        # tf2_ros::Buffer's lookupTransform(target, source, time[, timeout]) returns the transform; tf's listener fills a
        # fourth argument, a StampedTransform
        tf2 = c.name == "lookupTransform" and (n == 3 or (n == 4 and _TIMEOUT.search(_text(c.args[3], self.f.src)) is not None))
        self.looked_up(c, values[0], values[2 if advanced else 1], time_travel=advanced, tf2=tf2)
        return None

    def h_transform_data(self, c: Call[Node]) -> Result:
        if c.n < 2:
            return MISSING
        target, data = self.eval(c.args[0]), self.eval(c.args[1])
        self.transformed(target, data, c.line, c.args[0])
        for out in c.args[2:]:  # ROS 1 tf's transformPose(target, in, out): tf fills out, header included
            self.escape(out)
        return None

    def h_transform(self, c: Call[Node]) -> Result:
        if c.receiver is None or c.n < 2:
            return MISSING
        args = c.args
        data = self.eval(args[0])
        target_node = args[2] if c.n >= 3 and not isinstance(self.eval(args[1]), str) else args[1]
        self.transformed(self.eval(target_node), data, c.line, target_node)
        if c.n >= 3:
            self.escape(args[1])  # tf2's transform(in, out, target): tf2 sets out's header
        return None

    def h_parameter_value(self, c: Call[Node]) -> Result:
        return self.eval(c.args[0]) if c.n == 1 else MISSING

    def h_get_parameter(self, c: Call[Node]) -> Result:
        n = c.n
        if n < 1:
            return MISSING
        # a name computed at run time (`node_name + "/frame"`) still leaves the default as the value
        pname = self.eval(c.args[0])
        if n >= 3 or (n == 2 and c.name in ("get_parameter", "getParam", "getParamCached")):
            default = param_default(self.eval(c.args[2]), pname) if n >= 3 else None
            self.keep_param(pname, default, c.line)
            self.assign(c.args[1], self.f.params.get(pname, default) if isinstance(pname, str) else default)
            return None
        if n == 2:  # value-returning form: param<T>(name, default), get_parameter_or(name, default)
            return self.param_value(pname, param_default(self.eval(c.args[1]), pname), c.line)
        return ParamRef(pname) if isinstance(pname, str) else None

    def user_call(self, c: Call[Node]) -> Value:
        target = self.f.helper(c.name) if self.emit else None
        messages = [self.message_arg(a) for a in c.args]
        if target is not None and any(m is not None for m in messages):
            # a helper that fills the caller's message through a reference: walk it on that message
            values = tuple(m if m is not None else _constant(self.eval(a)) for a, m in zip(c.args, messages))
            with self.f.sink.call_site(c.line):
                followed, result = target[0].call_into(target[1], values)
            if followed:
                self.frame_arguments(c.name, c.args)
                return self.adopt(fresh(result), target[0], c.line, c.name)
        read_only = _READ_ONLY_ARGS.get(c.name, 0)
        for a in c.args[read_only:]:
            self.escape(a)
        values = tuple(_constant(self.eval(a)) for a in c.args)
        self.frame_arguments(c.name, c.args)
        if target is None or (target[0] is not self.f and not _returns_message(target[1], target[0].src)):
            return None  # another file's helper matters here only for the message it returns or fills
        lib, fn = target
        # a call leaving out a frame parameter whose default is "" binds it: walked as a call, reported here
        constants = any(v is not None for v in values) or _omits_empty_frame(fn, lib, len(values))
        return self.adopt(self.enter(c.line, constants, lambda: lib.call(fn, values if constants else ())), lib, c.line, c.name)

    def own_message_getter(self, name: str) -> bool:
        target = self.f.helper(name) if self.emit else None
        return target is not None and target[0] is self.f and _returns_message(target[1], self.f.src)

    def adopt(self, result: Value, where: _CppFile, line: int, helper: str = "") -> Value:
        """A helper's result for this caller (already a copy): built at the call when the helper is in another file
        (whose name the finding gives: the frame is set there or after the call)."""
        if isinstance(result, Record) and where is not self.f:
            return replace(result, name="", line=line, made_by=f"{helper}() in {where.sink.facts.path}" if helper else "")
        return result

    def message_arg(self, arg: Node) -> Record | None:
        """The message an argument hands over whole (``msg``, ``&msg``), or None."""
        p = self.path(arg)
        if p is None or p[1]:
            return None
        value = self.lookup(p[0])
        return value if isinstance(value, Record) else None

    def escape(self, arg: Node, keeps_frames: bool = False) -> None:
        """A message handed to code we do not follow may get its frame set there: ``fill(msg)``,
        ``fill(&msg)``, ``fill(msg.get())`` (a smart pointer's object), ``fill(std::move(msg))``.
        ``keeps_frames``: every definition of the callee in the package is known to write no header or frame
        field, so only the message's other fields become unknown."""
        while arg.type == "call_expression":
            fn, call_args = arg.child_by_field_name("function"), arg.child_by_field_name("arguments")
            inner = call_args.named_children if call_args is not None else []
            if fn is not None and fn.type == "field_expression" and not inner:
                receiver = fn.child_by_field_name("argument")  # msg.get(), msg_ptr->release()
            elif fn is not None and _text(fn, self.f.src).split("::")[-1] in ("move", "ref", "addressof") and len(inner) == 1:
                receiver = inner[0]
            else:
                return
            if receiver is None:
                return
            arg = receiver
        p = self.path(arg)
        if p is None:
            return
        value = self.lookup(p[0])
        if isinstance(value, Record):
            if not p[1] and keeps_frames:
                for key in [k for k in value.fields if not k.startswith("header") and k != "child_frame_id"]:
                    value.set(key, None)
            elif not p[1]:
                value.escaped = True
            else:  # `transformEigenToMsg(tr, msg.transform)`: that part is filled there, to a value not known
                value.set(".".join(p[1]), None)

    def construct(self, short: str, type_text: str, args: Sequence[Node], line: int) -> Value:
        """A constructor call or declaration ``T x(args)`` of a type the analysis knows."""
        kind = message_kind(short, package_of(type_text))
        if short == "string" and not args:
            return ""  # `std::string{}`
        if short == "CvImage":
            return self.cv_image_of(args, "", line)
        if not args and _std_header(short, type_text):
            return Record(HEADER, short, "", line)  # `auto header = std_msgs::msg::Header();`: empty, as declared
        if kind == TF_MESSAGE and not args:
            return tf_message(short, "", line)
        if kind is not None:
            zeroed = _message_initialization(_text(args[0], self.f.src)) if len(args) == 1 else None
            if zeroed is not None:
                return Record(kind, short, "", line, ros1=zeroed or _ros1_message(type_text))
            if len(args) == 1 and args[0].type == "new_expression":
                made = self.eval(args[0])  # `NavSatFixPtr fix(new NavSatFix)`: the pointer holds what `new` made
                return made if isinstance(made, Record) else Record(kind, short, "", line, escaped=True)
            values = [self.eval(a) for a in args]
            copied = values[0] if len(values) == 1 else None
            if isinstance(copied, Record) and copied.type_name == short:
                return fresh(copied)  # `Imu copy(m)` of a message the walk built: its fields
            # a copy of another (`Imu(*msg)`) or aggregate initialisation may carry the frame: trust only default construction
            return Record(kind, short, "", line, escaped=bool(args))
        n = len(args)
        if short == "StampedTransform" and n == 4:
            rec = Record(TRANSFORM, TF1_STAMPED, "", line)
            tf = self.eval(args[0])
            rec.set("transform", tf if isinstance(tf, TfValue) else TfValue(TOP_ROT))
            rec.set("header.frame_id", self.eval(args[2]))
            rec.set("child_frame_id", self.eval(args[3]))
            if self.emit:
                src = self.f.src
                self.f.sink.add(slot_name_finding(_text(args[2], src), _text(args[3], src), self.f.sink.loc(line), _text(args[0], src)))
            return rec
        if short in ("string", "basic_string"):
            return self.eval(args[0]) if n == 1 else None
        values = [self.eval(a) for a in args]  # evaluated whatever the type: lambdas in them are walked
        self.frame_arguments(short, args)
        if is_realtime_publisher(short):
            msg_type = message_type(type_text)
            msg = self.default(_short_type(msg_type), "msg_", line, False, msg_type) if msg_type else None
            return realtime_publisher(msg, values, line)
        build = _CONSTRUCTORS.get(short)
        return build(values) if build is not None else None


def _numbers(values: list[Value]) -> list[float] | None:
    nums = [v for v in values if isinstance(v, float)]
    return nums if len(nums) == len(values) else None


def _vector(values: list[Value]) -> Value:
    nums = _numbers(values)
    return (nums[0], nums[1], nums[2]) if nums is not None and len(nums) == 3 else None


def _transform(values: list[Value]) -> Value:
    """``tf2::Transform(rotation, origin)``, ``Eigen::Isometry3d(rotation)``."""
    rot = basis(values[0]) if values and isinstance(values[0], Rot) else TOP_ROT
    origin = as_vector(values[1]) if len(values) >= 2 else None
    return TfValue(rot, (origin[0], origin[1], origin[2]) if origin is not None and len(origin) == 3 else None)


def _rotation(values: list[Value]) -> Rot:
    """A rotation type built from one rotation, or from 9 numbers (row-major), else typed top."""
    if len(values) == 1 and isinstance(values[0], Rot):
        return values[0]
    nums = _numbers(values)
    if nums is not None and len(nums) == 9:
        return rot_from_matrix([nums[0:3], nums[3:6], nums[6:9]])
    return TOP_ROT


def _axis_angle(axis: Value, angle: Value) -> Rot:
    vec, a = as_vector(axis), as_number(angle)
    return rot_from_axis_angle(a, vec) if vec is not None and a is not None else TOP_ROT


def _tf_quaternion(values: list[Value]) -> Rot:
    """``tf2::Quaternion(x, y, z, w)``, ``tf2::Quaternion(axis, angle)``."""
    nums = _numbers(values)
    if nums is not None and len(nums) == 4:
        return rot_from_quaternion(nums)
    if len(values) == 2:
        return _axis_angle(values[0], values[1])
    return _rotation(values)


def _eigen_quaternion(values: list[Value]) -> Rot:
    """``Eigen::Quaterniond(w, x, y, z)``: Eigen takes w first."""
    nums = _numbers(values)
    if nums is not None and len(nums) == 4:
        return rot_from_quaternion((nums[1], nums[2], nums[3], nums[0]))
    return _rotation(values)


def _angle_axis(values: list[Value]) -> Rot:
    """``Eigen::AngleAxisd(angle, axis)``."""
    return _axis_angle(values[1], values[0]) if len(values) == 2 else _rotation(values)


# Value types built from their constructor's arguments, by short type name.
_CONSTRUCTORS: dict[str, Callable[[list[Value]], Value]] = {
    **dict.fromkeys(_VECTOR_TYPES, _vector),
    **dict.fromkeys(_TF_TYPES, _transform),
    **dict.fromkeys(_ROT_TYPES, _rotation),
    "Quaternion": _tf_quaternion,
    "Quaterniond": _eigen_quaternion,
    "Quaternionf": _eigen_quaternion,
    "AngleAxisd": _angle_axis,
    "AngleAxisf": _angle_axis,
}


def _function_shape(fn: Node, src: bytes) -> tuple[list[tuple[int, str, str, Node | None]], list[tuple[str, Node]], Node | None]:
    """A function's parameters (position, name, short type, default of an optional one), its
    member initializers ``name_(expr)`` and its body."""
    decl = fn.child_by_field_name("declarator")
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_name("declarator")
    plist = decl.child_by_field_name("parameters") if decl is not None else None
    params: list[tuple[int, str, str, Node | None]] = []
    for i, p in enumerate(plist.named_children if plist is not None else ()):
        name = _declarator_name(p.child_by_field_name("declarator"), src)
        if not name:
            continue
        default = p.child_by_field_name("default_value") if p.type == "optional_parameter_declaration" else None
        params.append((i, name, _short_type(_text(p.child_by_field_name("type"), src)), default))
    inits: list[tuple[str, Node]] = []
    for init in (c for c in fn.named_children if c.type == "field_initializer_list"):
        for fi in init.named_children:
            name = next((_text(c, src) for c in fi.named_children if c.type == "field_identifier"), None)
            init_args = next((c for c in fi.named_children if c.type in ("argument_list", "initializer_list")), None)
            if name and init_args is not None and init_args.named_child_count == 1:
                inits.append((name, init_args.named_children[0]))
    return params, inits, fn.child_by_field_name("body")


def _omits_empty_frame(fn: Node, lib: _CppFile, given: int) -> bool:
    """A call giving ``given`` arguments leaves out a frame parameter of ``fn`` whose default is ``""``
    (oculus_ros2's ``publishFan(ping)`` of ``publishFan(ping, const std::string& frame_id = "")``)."""
    return any(i >= given and default is not None and default.type in _STRING_LITERALS and _text(default, lib.src) == '""'
               and frame_variable(name) for i, name, _, default in lib.function_shape(fn)[0])


@lru_cache(maxsize=8192)
def _defines(name: str, path: str, text: str) -> bool:
    """Whether ``text`` (the file at ``path``) may define function ``name``: ``name(...) ... {`` with no ``;``
    between the parameters and the brace (a call or a declaration has one first)."""
    start = text.find(name)
    while start >= 0:
        end = start + len(name)
        before = text[start - 1] if start else " "
        if not (before.isalnum() or before == "_") and text[end:end + 64].lstrip().startswith("("):
            close = text.find(")", end)
            brace, semi = text.find("{", close), text.find(";", close)
            if close >= 0 and brace >= 0 and (semi < 0 or brace < semi):
                return True
        start = text.find(name, end)
    return False


def _case_dependent_strings(switch: Node, src: bytes) -> list[str]:
    """The plain variables a switch's cases set to two or more different string literals."""
    body = switch.child_by_field_name("body")
    seen: dict[str, set[str]] = {}
    for case in body.named_children if body is not None else ():
        if case.type != "case_statement":
            continue
        for stmt in case.named_children:
            expr = stmt.named_children[0] if stmt.type == "expression_statement" and stmt.named_child_count else None
            if expr is None or expr.type != "assignment_expression":
                continue
            left, right = expr.child_by_field_name("left"), expr.child_by_field_name("right")
            if left is not None and right is not None and left.type == "identifier" and right.type in _STRING_LITERALS:
                seen.setdefault(_text(left, src), set()).add(_text(right, src))
    return [name for name, values in seen.items() if len(values) > 1]


def _returns_message(fn: Node, src: bytes) -> bool:
    """Whether a function's declared result is a message the checks track (``std::unique_ptr<Image>``)."""
    type_text = _text(fn.child_by_field_name("type"), src)
    return message_kind(_short_type(type_text)) is not None or _message_type(type_text) is not None


def _empty_header(value: Value) -> bool:
    """A ``std_msgs::Header`` built here whose frame_id was never set."""
    return isinstance(value, Record) and value.kind == HEADER and value.local and not value.escaped and value.get("frame_id") is UNSET


# a ROS package's namespace: lowercase words joined by underscores (`mocap_msgs`, px-ros-pkg's `px_comm`), which the
# namespaces of C++ libraries (std, cv, pcl, boost, Eigen) are not
_PACKAGE_NAMESPACE = re.compile(r"^(?:::)?[a-z][a-z0-9]*(?:_[a-z0-9]+)+::(?:msg::)?[A-Z]\w*$")


def _message_type(type_text: str) -> str | None:
    """``mocap_msgs::msg::Markers`` (HEADER_BY_USE), ``px_comm::OpticalFlow`` (AXES_BY_USE): a message of a package
    outside the type list, whether it has a header learnt from the code's use of ``x.header``; None for another type."""
    short = _short_type(type_text)
    if "<" in type_text or placeless(short):
        return None
    if "_msgs::" in type_text:
        return HEADER_BY_USE
    return AXES_BY_USE if _PACKAGE_NAMESPACE.match(type_text.strip()) is not None else None


_LISTENER = re.compile(r"(?i)listener|buffer|\btf_?\b|tf_$")


def _std_header(short: str, type_text: str) -> bool:
    """``std_msgs::Header`` / ``std_msgs::msg::Header``: a header the code builds, empty until it writes it."""
    return short == "Header" and type_text.startswith("std_msgs::")


def _ros1_message(type_text: str) -> bool:
    """``geometry_msgs::TransformStamped``, ``nav_msgs::Odometry``, ``sensor_msgs::Imu`` (ROS 1 C++) rather than
    ``nav_msgs::msg::Odometry``."""
    return re.match(r"(?:geometry|nav|visualization|sensor)_msgs::", type_text) is not None and "::msg::" not in type_text


def _declaration_shape(node: Node, src: bytes) -> tuple[str, str, list[tuple[str, Node, str, Node | None, int]]]:
    """A declaration's type text, short type and (what, node, name, value node, line) per declarator:
    what is "default_value" (a member's default), "vexing" (``T x(args)``) or "declarator"."""
    type_text = _text(node.child_by_field_name("type"), src)
    items: list[tuple[str, Node, str, Node | None, int]] = []
    for i, child in enumerate(node.children):
        field = node.field_name_for_child(i)
        if field == "default_value":
            name = _declarator_name(node.child_by_field_name("declarator"), src)
            if name:
                items.append((field, child, name, None, 0))
        elif field == "declarator":
            if child.type == "function_declarator":
                items.append(("vexing", child, "", None, 0))
                continue
            name = _declarator_name(child, src)
            if name:
                value_node = child.child_by_field_name("value") if child.type == "init_declarator" else None
                items.append((field, child, name, value_node, _line(child)))
    return type_text, _short_type(type_text), items


def _binary_shape(node: Node) -> tuple[str, Node | None, Node | None]:
    op_node = node.child_by_field_name("operator")
    return op_node.type if op_node is not None else "", node.child_by_field_name("left"), node.child_by_field_name("right")


def _assign_shape(node: Node, src: bytes) -> tuple[Node | None, Node | None, str, tuple[int, str] | None]:
    """An assignment's (left, right, operator, binding of ``x = call(...)``)."""
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    op_node = node.child_by_field_name("operator")
    op = op_node.type if op_node is not None else "="
    bind = (right.id, _text(left, src)) if left is not None and right is not None and right.type == "call_expression" and left.type == "identifier" else None
    return left, right, op, bind


def _call_shape(node: Node, src: bytes) -> tuple[bool, Call[Node]] | None:
    """A call's parts: whether it is a method call, and the call (receiver None for ``this->f()``)."""
    func = node.child_by_field_name("function")
    args_node = node.child_by_field_name("arguments")
    args = [a for a in args_node.named_children if a.type != "comment"] if args_node is not None else []  # a comment is no argument
    if func is None:
        return None
    line = _line(node)
    if func.type == "field_expression":
        method_node = func.child_by_field_name("field")
        receiver = func.child_by_field_name("argument")
        if method_node is not None and method_node.type == "template_method":
            method_node = method_node.child_by_field_name("name")
        if receiver is not None and receiver.type == "this":
            receiver = None
        return True, Call(_text(method_node, src), receiver, args, line, node.id)
    text = _text(func, src)
    name_node = func
    while name_node.type == "qualified_identifier" and name_node.child_by_field_name("name") is not None:
        name_node = name_node.child_by_field_name("name")  # type: ignore[assignment]
    template = None
    if name_node.type == "template_function":
        template = name_node.child_by_field_name("arguments")
        name_node = name_node.child_by_field_name("name") or name_node
    return False, Call(_text(name_node, src), None, args, line, node.id, callee=text, template=template)


_ELEMENT_METHODS = {"front": "0", "back": "-1"}


def _assigned_whole(name: str, texts: Sequence[str], of_any_object: bool = False) -> bool:
    """Some text assigns the message ``name`` (or an element of it) whole from a value that may carry a frame
    (``odom_ = *msg;``, ``odoms_[i] = *msg;``; with ``of_any_object``, also as any object's field,
    ``img->image = std::move(msg);``); a fresh default one (``= new Odometry[n]``, ``= Odometry()``) carries none."""
    owner = r"(?:(?<![\w.>])|(?<=[.>]))" if of_any_object else r"(?:(?<![\w.>])|\bthis\s*->\s*)"
    pattern = re.compile(rf"{owner}{re.escape(name)}\s*(?:\[[^\]\n]*\]\s*)?=(?!=)\s*"
                         rf"(new\b|[\w:]+\s*(?:<[^;=()]*>)?\s*(?:\(\s*\)|\{{\s*\}})\s*;)?")
    return any(m.group(1) is None for t in texts for m in pattern.finditer(t))


#: the field of a path that indexes with a value not known statically (`x[r]`)
_ANY_ELEMENT = "[]"


def _element_call(node: Node, src: bytes) -> str | None:
    """``x.front()`` / ``x.back()``: the index it stands for in a path, else None."""
    fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    if fn is None or fn.type != "field_expression" or args is None or args.named_child_count:
        return None
    return _ELEMENT_METHODS.get(_text(fn.child_by_field_name("field"), src))


def _to_msg_argument(node: Node, src: bytes) -> str | None:
    """``x`` of ``tf2::toMsg(x)`` / ``toMsg(x)`` (one argument, a name), else None."""
    if node.type != "call_expression":
        return None
    fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
    if fn is None or args is None or args.named_child_count != 1 or _text(fn, src).replace(" ", "") not in ("toMsg", "tf2::toMsg"):
        return None
    arg = args.named_children[0]
    return _text(arg, src) if arg.type == "identifier" else None


def _table(handler: Callable[..., Result], *names: str) -> dict[str, Callable[..., Result]]:
    return dict.fromkeys(names, handler)


# Free functions by name: rotation builders, conversions, math.
_FUNCTIONS: dict[str, Callable[[_Run, Call[Node]], Result]] = {
    **_table(_Run.f_make_shared, "make_shared", "make_unique", "allocate_shared"),
    **_table(_Run.f_pass, *_PASS_FUNCTIONS),
    **_table(_Run.f_convert, "fromMsg", "convert", "quaternionTFToMsg", "transformTFToMsg", "quaternionMsgToTF", "transformMsgToTF"),
    "eigenToTransform": _Run.f_eigen_to_transform,
    **_table(_Run.f_utm, "LLtoUTM", "UTMtoLL"),
    **_table(_Run.f_rpy, "createQuaternionMsgFromRollPitchYaw", "createQuaternionFromRPY"),
    **_table(_Run.f_yaw, "createQuaternionMsgFromYaw", "createQuaternionFromYaw"),
    **_table(_Run.f_math, *MATH),
    "atan2": _Run.f_atan2,
    **_table(_Run.f_unit, *_UNIT_VECTORS),
    **_table(_Run.f_identity, "Identity", "getIdentity", "eye"),
}
# Functions that fill a message's data but never its header: name -> (the message argument, the argument count
# the form takes, 0 for any): sensor_msgs::fillImage(image, encoding, ...) sets encoding, size and data;
# octomap_msgs' binaryMapToMsg(tree, msg) and its kin fill the map
_FILLS_DATA = {"fillImage": (0, 0), **{n: (1, 2) for n in ("binaryMapToMsg", "fullMapToMsg", "binaryMapToMsgData", "fullMapToMsgData")}}
# Methods whose value comes from their receiver (tried first, with or without a receiver).
# method -> (the message it returns with an empty header, the argument counts it takes)
_EMPTY_HEADER_METHODS = {"cvToImgMsg": ("Image", (1, 2)), "getCameraInfo": ("CameraInfo", (0,))}
_GETTERS: dict[str, Callable[[_Run, Call[Node], Value], Result]] = {
    **_table(_Run.m_inverse, *_INVERSE),
    **_table(_Run.m_pass, *_PASS_METHODS),
    **_table(_Run.m_element, "at", "operator()"),
    **_table(_Run.m_component, "x", "y", "z", "w", "getX", "getY", "getZ", "getW"),
    "get_value": _Run.m_param_value,
    **_table(_Run.m_empty_header, *_EMPTY_HEADER_METHODS),
}
# Methods that change their receiver.
_SETTERS: dict[str, Callable[[_Run, Call[Node], Value], Result]] = {
    **_table(_Run.s_euler, "setRPY", "setEulerYPR", "setEulerZYX"),
    "setValue": _Run.s_value,
    **_table(_Run.s_rotation, "setRotation", "setBasis"),
    "setOrigin": _Run.s_origin,
    "setIdentity": _Run.s_identity,
    "getRotation": _Run.s_get_rotation,
    **_table(_Run.s_push_back, "push_back", "emplace_back"),
    "reset": _Run.s_reset,
}
_Run.API = {
    **SHARED_API,
    "publish": _Run.h_publish,
    "sendTransform": _Run.h_send_transform,
    "push": _Run.h_push,
    "unlockAndPublish": _Run.h_unlock_and_publish,
    "try_publish": _Run.h_try_publish,
    "get_params": _Run.h_get_params,
    **_table(_Run.h_lookup, "lookupTransform", "canTransform", "waitForTransform"),
    **_table(_Run.h_transform_data, "transformPoint", "transformPose", "transformVector", "transformQuaternion", "transformPointCloud"),
    "transform": _Run.h_transform,
    "ParameterValue": _Run.h_parameter_value,
    **_table(_Run.h_get_parameter, "get_parameter", "getParam", "get_parameter_or", "param", "getParamCached", "get_parameter_or_set"),
}

_Run.kind = operator.attrgetter("type")
_Run.STATEMENTS = {
    "declaration": _Run.s_declaration,
    "expression_statement": _Run.s_expression,
    "return_statement": _Run.s_return,
    "condition_clause": _Run.s_condition,
    "switch_statement": _Run.s_switch,
    "function_definition": _Run.s_skip,
    "class_specifier": _Run.s_skip,
    "struct_specifier": _Run.s_skip,
}
_Run.EXPRESSIONS = {
    "number_literal": _Run.e_number,
    "string_literal": _Run.e_string,
    "concatenated_string": _Run.e_concat,
    "identifier": _Run.e_identifier,
    "type_identifier": _Run.e_identifier,
    "qualified_identifier": _Run.e_qualified,
    "parenthesized_expression": _Run.e_paren,
    "unary_expression": _Run.e_unary,
    "binary_expression": _Run.e_binary,
    "assignment_expression": _Run.e_assign,
    "comma_expression": _Run.e_comma,
    "call_expression": _Run.e_call,
    "field_expression": _Run.e_field,
    "subscript_expression": _Run.e_element,
    "lambda_expression": _Run.e_lambda,
    "initializer_list": _Run.e_init_list,
    "cast_expression": _Run.e_cast,
    "new_expression": _Run.e_new,
    "pointer_expression": _Run.e_paren,
    "compound_literal_expression": _Run.e_compound,
}
