"""What the C++ and the Python analyzer share, once the syntax is turned into values and calls.

A front end (``cpp.py`` over tree-sitter, ``python.py`` over ``ast``) knows how its syntax spells a
name, a field path, a call and its arguments; this module knows what to do with them: the scopes of
one walk (locals, class members learnt in the first pass, file globals), the tf, publish and
parameter APIs once their arguments are values, the frame facts they emit, and following a call
into a function of the same file. API handlers are looked up by the call's name in a table, so a
name costs one dict lookup and an API is written once for both languages where it is the same.
"""

from __future__ import annotations

import math
import re
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Callable, ClassVar, Generic, Hashable, Mapping, Sequence, TypeVar, Union

from ...core.findings import Finding
from ..frame_ids import (
    empty_prefix_finding,
    frame_id_finding,
    frame_variable,
    is_header_field,
    namespace_holders,
    namespace_joined_finding,
    number_as_frame_finding,
    slash_joined_finding,
    strips_leading,
    tests_prefix,
    tf_switch,
)
from ..model import LAUNCH_TIME
from .angles import QuaternionWrites, euler_slot_finding, is_vector_component, reads_px4_attitude, scalar_in_vector_slot, writes_quaternion
from .calls import STEP_BUDGET, BoundedCalls, Budget
from .conversions import conversion_finding, conversion_words, converts_to, heading_finding
from .facts import FactSink, keep_param, last_name, param_default, slot_name_finding
from .guards import FIRST_TIME, Guard, fills, skipped_by
from .headers import header_mentions
from .values import (
    HEADER,
    PARAMS,
    TOP_ROT,
    UNSET,
    Component,
    Heading,
    Literal,
    ParamRef,
    QuatList,
    Record,
    Rot,
    TfValue,
    Value,
    as_number,
    field_of,
    fresh,
    literal_line,
    named_number,
    rot_from_rpy,
)

N = TypeVar("N")  # a syntax node of the front end
# a condition on who listens: a publish under it is taken whatever the message holds
_SUBSCRIBERS = re.compile(r"getNumSubscribers|get_subscription_count|get_num_connections|num_subscribers|has_subscribers", re.IGNORECASE)
EVAL_DEPTH = 120  # nested expressions evaluated (deeper ones are unknown)
#: ``this->t_.header.frame_id`` / ``self.t.header.frame_id`` -> ("t_", ["header", "frame_id"])
Path = tuple[str, list[str]]
Scope = dict[str, Value]


class Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: What a handler returns when the call is not the form it handles: the call is then analysed as any other.
MISSING = Missing()
Result = Union[Value, Missing]
#: An API handler: (walker, call) -> value of the call, or MISSING.
Handler = Callable[[Any, "Call[Any]"], Result]


# `a != b` between two names or member paths, as a condition reads
_UNEQUAL = re.compile(r"([\w.>\-]+)\s*!=\s*([\w.>\-]+)")


@dataclass
class Call(Generic[N]):
    """A call as the syntax wrote it: ``receiver.name(args, kwargs)``."""

    name: str
    receiver: N | None
    args: Sequence[N]
    line: int
    key: Hashable  # the call node's identity: ``x = lookupTransform(...)`` binds the result to x
    kwargs: dict[str, N] = field(default_factory=dict)
    callee: str = ""  # the called expression as written (``tf2::Quaternion``, ``np.array``)
    template: N | None = None  # C++ template arguments (``make_shared<T>``)

    @property
    def n(self) -> int:
        return len(self.args)


class FileWalk(BoundedCalls):
    """What every walk of one file shares: the sink, globals, class members, parameter defaults."""

    def __init__(self, sink: FactSink, static_broadcasters: set[str], command_publishers: frozenset[str] = frozenset()) -> None:
        super().__init__()
        self.sink = sink
        self.command_publishers = command_publishers  # publishers of commands whose consumer ignores header.frame_id
        self.globals: Scope = {}
        self.members: Scope = {}
        self.params: Scope = {}
        self.launched: frozenset[str] = frozenset()  # the values of the parameters a launch file gives the node
        # tf switches the launch file turns off (``publish_tf: false``) and the variables read from them
        self.switched_off: set[str] = set()
        self.unknown_members: set[str] = set()  # members some method sets to a value not known statically
        self.static_broadcasters = static_broadcasters
        self.unwritten: set[str] = set()  # string members named for a frame that nothing writes (C++: always "")
        self.function_texts: dict[int, str] = {}  # function node key -> its text (read once per file)
        self.member_names: dict[int, str] = {}  # id of a member message Record -> the member's name
        self.published_members: list[tuple[Record, int]] = []

    def source_text(self) -> str:
        """The file's text as the analysis reads it."""
        raise NotImplementedError

    @cached_property
    def px4_attitude(self) -> bool:
        """The file reads PX4's world-frame attitude (its ``q`` is NED over FRD, w first)."""
        return reads_px4_attitude(self.source_text())

    def member_texts(self) -> list[str]:
        """The code in which a member message's header may be written: the file, and a C++ class's headers."""
        return [self.source_text()]

    def set_elsewhere(self, rec: Record) -> bool:
        """Whether another function of the file may have set the header of ``rec``, a message the walk built."""
        return False

    def finish(self) -> None:
        """Once the file is walked: the checks that need every frame name it holds (camera data, REP-103)."""
        scopes = (self.members, self.globals, self.params)
        image_poses = _POSE_FROM_IMAGE.search(self.source_text()) is not None
        self.sink.finish({v for scope in scopes for v in scope.values() if isinstance(v, str) and v}, image_poses)


def launch_into(walk: FileWalk, launched: Mapping[str, str] | None) -> None:
    """A launch file's parameters for the node, under the names code reads them by (``frame_id``, ``~frame_id``); its
    tf switches turned off leave out the broadcasts under a condition on them."""
    given: dict[str, str | None] = {k: None if v == LAUNCH_TIME else Off(v) if tf_switch(k) and v.lower() in ("false", "0") else v
                                    for k, v in (launched or {}).items()}
    walk.switched_off = {k.split(".")[-1] for k, v in given.items() if isinstance(v, Off)}
    walk.params.update({name: v for k, v in given.items() for name in (k, "~" + k)})
    walk.launched = frozenset(v for k, v in given.items() if v is not None and not tf_switch(k))


class Off(str):
    """The value of a tf switch a launch file turns off (``publish_tf: false``), followed into the variables read
    from it."""

    __slots__ = ()


def _unwrapped(text: str) -> str:
    """``((a && b))`` -> ``a && b``: the parentheses around the whole, and only those."""
    text = text.strip()
    while text.startswith("(") and text.endswith(")"):
        depth = 0
        for i, ch in enumerate(text):
            depth += {"(": 1, ")": -1}.get(ch, 0)
            if depth == 0 and i < len(text) - 1:
                return text  # `(a) && (b)`: the first pair closes before the end
        text = text[1:-1].strip()
    return text


# one term of a condition: `publish_tf_`, `!publish_tf_`, `not self.publish_tf`, `guessFrameId_.empty()`,
# `!this->guess_frame_.empty()`
_TERM = re.compile(r"^(!\s*|not\s+)?((?:this\s*->\s*|self\.)?[A-Za-z_]\w*)(\s*(?:\.|->)\s*empty\s*\(\s*\))?$")


# OpenCV's and the AprilTag library's pose estimates: a marker's or a board's pose in the camera's optical axes; and
# the marker detectors' messages that carry them (ros2_aruco's ArucoMarkers, fiducial_msgs', apriltag_ros')
_POSE_FROM_IMAGE = re.compile(r"\b(?:(?:solvePnP(?:Ransac|Generic)?|estimatePose(?:SingleMarkers|Board|CharucoBoard)|estimate_tag_pose)\s*\("
                              r"|(?:ArucoMarkers|FiducialTransformArray|AprilTagDetectionArray)\b)")
_NUMBER_LITERAL = re.compile(r"\s*[-+]?\d+(?:\.\d*)?[uUlLfF]*\s*")
# a string literal wrapped in a string constructor: `std::string("/world")`, `string{"/map"}`
_WRAPPED_LITERAL = re.compile(r"""\s*(?:std\s*::\s*)?string\s*[({]\s*"[^"\n]*"\s*[)}]\s*""")


class Walker(Generic[N]):
    """One walk of one function body (or of a module's top level, ``env`` given)."""

    #: name -> handler of the tf, publish and parameter APIs; each front end adds its own to SHARED_API.
    API: ClassVar[dict[str, Handler]] = {}

    def __init__(self, file: FileWalk, emit: bool, env: Scope | None = None) -> None:
        self.f = file
        self.emit = emit
        self.module = env is not None
        self.env: Scope = env if env is not None else {}
        self.results: list[Value] = []
        self.depth = 0
        self.bind: tuple[Hashable, str] | None = None  # (call node key, variable) for `x = lookupTransform(...)`
        self.quats = QuaternionWrites(px4_attitude=file.px4_attitude)
        self.span = (0, -1)  # the lines of the function walked (none known: empty)
        # message path -> (text, line) last written into its header.frame_id, and into its child_frame_id
        self.named_frames: dict[str, list[tuple[str, int] | None]] = {}

    #: node kind -> the front end's handler turning such a node into a value
    EXPRESSIONS: ClassVar[dict[Hashable, Callable[[Any, Any], Value]]] = {}
    #: a node's kind, the key of EXPRESSIONS (tree-sitter's ``node.type``, ``ast``'s class); a plain
    #: callable set on the class (no method: this is the hottest call of the analysis)
    kind: Callable[[Any], Hashable]

    def eval(self, node: N | None) -> Value:
        if node is None:
            return None
        f = self.f
        f.steps += 1  # inlined step(): this is the hottest function of the analysis
        if f.steps > STEP_BUDGET:
            raise Budget()
        if self.depth > EVAL_DEPTH:
            return None
        handler = self.EXPRESSIONS.get(self.kind(node))
        if handler is None:
            return None
        # Any exception ends the whole file's analysis (nothing below catches one and goes on),
        # so the depth need not be restored on the way out.
        self.depth += 1
        value = handler(self, node)
        self.depth -= 1
        return value

    def block(self, statements: Sequence[N]) -> None:
        """Walk statements in source order, each once (flow-insensitive: every branch taken, loops once)."""
        stack = list(reversed(statements))
        f = self.f
        table = self.STATEMENTS
        while stack:
            node = stack.pop()
            f.steps += 1
            if f.steps > STEP_BUDGET:
                raise Budget()
            handler = table.get(self.kind(node))
            inner = handler(self, node) if handler is not None else self.nested(node)
            if inner:
                stack.extend(reversed(inner))

    # --- the syntax side ------------------------------------------------------------------
    #: statement kind -> handler that walks the statement and returns the statements nested in it
    STATEMENTS: ClassVar[dict[Hashable, Callable[[Any, Any], Sequence[Any]]]] = {}

    def nested(self, node: N) -> Sequence[N]:
        """The statements inside a node of a kind STATEMENTS does not hold (none, unless the front end says)."""
        return ()


    def path(self, node: N) -> Path | None:
        raise NotImplementedError

    def written_path(self, node: N) -> Path | None:
        """What an assignment writes, also through an index the walk cannot follow (``markers[i].header.frame_id``)."""
        return self.path(node)

    def text(self, node: N | None) -> str:
        """The node's source text ("" for none)."""
        raise NotImplementedError

    def is_member(self, name: str) -> bool:
        """A name stored into is a class member (learnt in the first pass), not a local of the walk."""
        raise NotImplementedError

    def conditions(self, node: N) -> list[str]:
        """The texts of the conditions the node sits under, innermost first (``if (!ns.empty())``)."""
        raise NotImplementedError

    def branches(self, node: N) -> list[tuple[str, bool]]:
        """The ``if`` (and ``?:``) conditions the node sits under, innermost first, each with True when the node is in
        the branch taken when the condition holds, False in the other."""
        raise NotImplementedError

    def branch_condition(self, node: N) -> str | None:
        """The condition of the innermost ``if`` whose then-branch holds the node (None in an else-branch or outside
        any ``if``)."""
        raise NotImplementedError

    def function_text(self, node: N) -> str:
        """The text of the function holding the node ("" at file scope)."""
        raise NotImplementedError

    def slash_stripped(self, where: str, node: N) -> bool:
        """The node's function strips the leading '/' off the frame written (grvc-ual's fix: ``while
        (uav_frame_id_[0] == '/') uav_frame_id_.erase(0, 1);``)."""
        return strips_leading(last_name(where), self.function_text(node))

    def nodelet_pointers(self, node: N) -> frozenset[str]:
        """Names in the node's function that point to a nodelet the file defines (C++ only)."""
        return frozenset()

    def namespace_names(self, node: N) -> dict[str, bool]:
        """Names the node's function assigns a node namespace to (``std::string ns = getNamespace();``), and whether
        it strips their slashes before the node (teraranger's ``ns_.erase(0,1)`` came after the frames it joined)."""
        return namespace_holders(self.function_text_before(node))

    def function_text_before(self, node: N) -> str:
        """The text of the node's function up to the node ("" at file scope)."""
        raise NotImplementedError

    # --- scopes ---------------------------------------------------------------------------
    def lookup(self, name: str) -> Value:
        env = self.env
        if name in env:
            return env[name]
        members = self.f.members
        if name in members:
            value = members[name]
            if isinstance(value, Literal) and name in self.f.unknown_members:
                return str(value)  # cloisim's frame_id_("camera_link") is overwritten by a name built at run time: not its line
            return value
        globals_ = self.f.globals
        if name in globals_:
            value = globals_[name]
            if isinstance(value, Record):
                value.local = False  # a file global seen from a function: any function may fill or rebind it
            return value
        return named_number(name)

    def store(self, name: str, value: Value) -> None:
        """Locals live in the walk; class members are learnt in the first pass and shadowed in the second."""
        f = self.f
        if self.emit or not self.is_member(name):
            self.env[name] = self.keep_type(self.env[name] if name in self.env else f.members.get(name), value)
        elif value is None or (value == "" and name in f.unknown_members):
            # set somewhere to what the analysis cannot know (``global_frame_ = costmap->getGlobalFrameID()``):
            # an empty initial value ("" in the initializer list) says nothing about the frame used
            f.unknown_members.add(name)
            if f.members.get(name) == "":
                del f.members[name]
        else:
            old = f.members.get(name)
            if isinstance(value, Record) and f.member_names.get(id(value), name) != name:
                value = fresh(value)  # `prev_odom = result_odom;` copies one member message into another: two messages
            # the first string (the default) wins, but for a value a launch file gives the node's parameter
            if not (isinstance(old, str) and isinstance(value, str)) or value in f.launched:
                if isinstance(value, Record):
                    value.local = False  # other methods may set its fields before it is published
                    if isinstance(old, Record) and id(old) in f.member_names:  # `odom_ = new Odometry[n]`: still the member
                        f.member_names[id(value)] = name
                f.members[name] = self.keep_type(old, value)

    @staticmethod
    def keep_type(old: Value, value: Value) -> Value:
        """An unknown stored over a rotation or a transform is still one, typed top (R13)."""
        if value is None and isinstance(old, Rot):
            return TOP_ROT
        if value is None and isinstance(old, TfValue):
            return TfValue(TOP_ROT)
        if value is None and isinstance(old, Record) and old.kind == PARAMS:
            return old  # `params_ = param_listener_->get_params()` refreshes the struct the schema describes
        return value

    def assign(self, target: N, value: Value, line: int = 0) -> None:
        p = self.path(target)
        if p is not None:
            if isinstance(value, Off):  # `pub_map_odom_ = ...` read from a switch the launch file turns off
                self.f.switched_off.add(p[1][-1] if p[1] else p[0])
            self.assign_path(*p, value, line=line)
            if line and p[1] and p[1][-1] in ("header", "frame_id"):
                self.place_frame_write(p[0], p[1], target, line)
            rot = value.rot if isinstance(value, QuatList) else value
            if line and isinstance(rot, Rot) and self.emit:
                self.conversion_rotation(p[1][-1] if p[1] else p[0], rot, line)

    def place_frame_write(self, base: str, fields: list[str], target: N, line: int) -> None:
        """The loops and branches around a write of a message's frame (or whole header) just made."""
        holder = self.lookup(base)
        if (isinstance(holder, Record) and holder.frame_writes and holder.frame_writes[-1] is None
                and field_of(holder, fields) in ("header", "header.frame_id")):
            holder.frame_writes[-1] = (line, tuple(self.guards(target)))

    def guards(self, node: N) -> list[Guard]:
        """The loops and ``if`` branches holding the node in its function, innermost first."""
        return []

    def conversion_rotation(self, name: str, rot: Rot, line: int) -> None:
        """A constant rotation held by a variable named for a conversion between two axis conventions
        (``q_ned_enu``, ``nedToEnu``, ``R_frd_flu``): it must be the rotation between them, either way round."""
        if rot.ortho is None or rot.exact is None:
            return
        self.f.sink.add(conversion_finding(name, rot.ortho, self.f.sink.loc(line)))

    def assign_path(self, base: str, fields: list[str], value: Value, line: int = 0) -> None:
        """``base.fields = value`` (a bare ``base`` when there are no fields), written at ``line`` when known."""
        if isinstance(value, Record) and not value.name:
            value.name = ".".join([base, *fields])
        if not fields:
            self.store(base, value)
            return
        holder = self.lookup(base)
        if isinstance(holder, Record):
            path = field_of(holder, fields)
            holder.set(path, value)
            if line and (path == "header.frame_id" or (path == "frame_id" and holder.kind == HEADER)):
                # a wrong frame is reported where it is written, the line to change: its literal's, when one of this file
                holder.frame_line = literal_line(value, self.f.sink.facts.path) or line
            elif path == "header" and isinstance(value, Record) and value.kind == HEADER and value.frame_line:
                holder.frame_line = value.frame_line  # `img.header = header;`: the frame was written into `header`
            elif line and path == "child_frame_id":
                holder.child_line = line
            elif line and (path == "transform.rotation" or (path.startswith("transform.rotation.") and not holder.rotation_line)):
                holder.rotation_line = line  # a wrong rotation is fixed where it is written
        elif isinstance(holder, TfValue) and fields == ["rotation"] and isinstance(value, Rot):
            holder.rot = value

    def result(self) -> Value:
        """The function's return value when every return gave the same known one; one unknown return
        (``return outImage->toImageMsg();`` beside a fallback ``return make_shared<Image>();``) makes it unknown."""
        if any(r is None for r in self.results):
            return None
        distinct = [r for i, r in enumerate(self.results) if r not in self.results[:i]]
        return distinct[0] if len(distinct) == 1 else None

    # --- facts about assignments ----------------------------------------------------------
    def assigned(self, target: N, source: N, value: Value, literal: bool, line: int) -> None:
        """What ``target = source`` says (reporting walks): a frame id written out in full where it is used
        (``literal``: the source is a literal), a quaternion component copied."""
        self.frame_written(target, source, value, literal, line)
        self.component_copy(target, source, value, line)
        self.attitude_written(target, value, line)

    def frame_written(self, target: N, source: N, value: Value, literal: bool, line: int) -> None:
        """``marker.header.frame_id = "/map"``, ``t.child_frame_id = "/base"``, ``frame_id_ = "/laser"``,
        ``_BASEC.MAP_FRAME = "/map"`` (a configuration's attribute): a frame id written out in full into a header
        or a variable or field named for a frame, reported at that line (the one to change), for a transform too;
        ``frame_id = "/" + name``: one that starts with '/' whatever is joined."""
        p = self.written_path(target)
        if p is None or not (is_header_field(p[1]) or frame_variable(p[1][-1] if p[1] else p[0])):
            return
        slot = 0 if p[1][-2:] == ["header", "frame_id"] else 1 if p[1][-1:] == ["child_frame_id"] else None
        if slot is not None:
            owner = ".".join([p[0], *p[1][: -2 + slot]])
            self.named_frames.setdefault(owner, [None, None])[slot] = (self.text(source), line)
            if isinstance(value, float) and _NUMBER_LITERAL.fullmatch(self.text(source)):
                self.f.sink.add(Finding(
                    "INVALID_FRAME_ID",
                    f"{shown_path(p)} = {self.text(source)}: a number written into a frame id (C++'s std::string takes it as the "
                    f"one character with that code, Python's message fails to serialise): write the frame's name",
                    (), self.f.sink.loc(line)))
                return
        self.frame_checked(shown_path(p), source, value, literal, line)

    def frame_checked(self, where: str, source: N, value: Value, literal: bool, line: int) -> None:
        """A frame id written into ``where``: invalid as a literal, or built on a literal starting with '/'."""
        sink = self.f.sink
        text = "" if literal else self.text(source)
        if literal or _WRAPPED_LITERAL.fullmatch(text):  # `string("/world")` is the literal it wraps
            sink.add(frame_id_finding(value, sink.loc(line), where))
        elif isinstance(value, Literal) and value.startswith("/") and (at := literal_line(value, sink.facts.path)) is not None:
            # `std::string sframe = "/map";` written into a header further down: reported at the literal, once (a literal
            # handed to a followed helper is the call's, reported with the argument). Only the slash: a bare Header's
            # frame_id may carry any text (a status line), and its variable's name did not say frame
            if not sink.sites and not sink.reported_invalid((value,), at=at):
                sink.add(frame_id_finding(value, sink.loc(at), where if at == line else f"'{text}', written into {where} at line {line}"))
        else:
            joined = empty_prefix_finding(text, value, sink.loc(line), where)
            if joined is None and ("+" in text or "ame" in text):  # a join, or getName()/get_namespace() (the function is read)
                joined = namespace_joined_finding(text, self.namespace_names(source), sink.loc(line), where, self.nodelet_pointers(source))
            if joined is not None and (any(tests_prefix(text, c) for c in self.conditions(source)) or self.slash_stripped(where, source)):
                joined = None  # `if (!ns.empty()) frame = ns + "/odom"`: the empty case is handled
            sink.add(slash_joined_finding(text, sink.loc(line), where) or joined or number_as_frame_finding(text, sink.loc(line), where)
                     or self.unwritten_finding(where, text, line))

    def unwritten_finding(self, where: str, text: str, line: int) -> Finding | None:
        """A message's frame written from a string member that nothing ever writes: it is empty."""
        name = last_name(text)
        if name != text.strip().removeprefix("this->") or name not in self.f.unwritten or not is_header_field(where.split(".")):
            return None
        return Finding("MISSING_FRAME", f"{where} = {text}: '{name}' is declared but no code of the class ever gives it a value "
                       "(no parameter read, assignment or initializer), so the frame id is empty: subscribers and tf2 cannot "
                       "tell which frame the data is in; read its parameter into it", (), self.f.sink.loc(line))

    def component_copy(self, target: N, source: N, value: Value, line: int) -> None:
        """``orientation.x = q.w``: checked by the name of what is copied; the function's writes into each
        quaternion are kept for :meth:`end_of_function`."""
        p = self.path(target)
        if p is None:
            return
        fields = p[1]
        if not writes_quaternion(fields):
            return  # the hot path: most assignments write no quaternion
        text = self.text(source)
        if is_vector_component(fields):
            self.f.sink.add(scalar_in_vector_slot([p[0], *fields], text, self.f.sink.loc(line)))
        holder = self.lookup(p[0])
        made_here = isinstance(holder, Record) and not holder.escaped and self.span[0] <= holder.line <= self.span[1]
        condition = self.branch_condition(source)
        converting = condition if condition is not None and converts_to(condition) is not None else None
        self.quats.write(id(holder), [p[0], *fields], text, line, holder.type_name if made_here and isinstance(holder, Record) else None, value,
                         converting, converting is not None or bool(self.conditions(source)))

    def end_of_function(self) -> None:
        """Checks over the whole function once it is walked (reporting walks): its quaternion writes, and the names
        written into each message's frame and child (beam_slam's ``odom.header.frame_id = GetBaselinkFrameId();
        odom.child_frame_id = GetWorldFrameId();``), judged as a StampedTransform's slots are."""
        for finding in self.quats.findings(self.f.sink.loc):
            self.f.sink.add(finding)
        body = None
        for frame, child in self.named_frames.values():
            if frame is not None and child is not None:
                body = self.walked_text() if body is None else body
                self.f.sink.add(slot_name_finding(frame[0], child[0], self.f.sink.loc(frame[1]), body))

    def walked_text(self) -> str:
        """The text of the function walked (front ends give it; none known: empty)."""
        return ""

    def euler_slots(self, api: str, args: Sequence[N], line: int) -> None:
        if self.emit:
            self.f.sink.add(euler_slot_finding(api, [self.text(a) for a in args], self.f.sink.loc(line)))

    # --- following calls ------------------------------------------------------------------
    def enter(self, line: int, constants: bool, analyse: Callable[[], Value]) -> Value:
        """A call into a function of the file; with constant arguments what the helper broadcasts is
        reported where its frames are named (the call site)."""
        if not constants:
            return self.returned(analyse())
        with self.f.sink.call_site(line):
            return self.returned(analyse())

    def returned(self, result: Value) -> Value:
        """A helper's result for this caller: a copy, except a member or file-scope message the helper returns
        (``return path;``), which stays itself so that publishing it is checked like publishing the member."""
        return result if isinstance(result, Record) and id(result) in self.f.member_names else fresh(result)

    # --- APIs, once their arguments are values --------------------------------------------
    def api(self, call: Call[N]) -> Result:
        handler = self.API.get(call.name)
        return handler(self, call) if handler is not None else MISSING

    def arg(self, call: Call[N], i: int, keyword: str | None = None) -> Value:
        """Argument ``i`` or the keyword argument, evaluated; None when neither is given."""
        if i < call.n:
            return self.eval(call.args[i])
        if keyword is not None and keyword in call.kwargs:
            return self.eval(call.kwargs[keyword])
        return None

    def keep_param(self, pname: Value, default: Value, line: int) -> None:
        keep_param(self.f.params, self.f.sink if self.emit else None, pname, default, line)

    def broadcast(self, value: Value, static: bool, line: int, at: N | None = None) -> None:
        """A transform sent; ``at``: the call's node, for the conditions it sits under."""
        if self.emit and not (at is not None and (self.f.switched_off or self.f.launched) and self.turned_off(at)):
            self.f.sink.broadcast(value, static, line)

    def turned_off(self, node: N) -> bool:
        """The node sits in a branch the parameters its launch file gives rule out: under a switch it turns off
        (hector_mapping's ``if (p_pub_map_odom_transform_)``, given ``pub_map_odom_transform: false``; the switch's
        name or a variable read from it), or on the side of an emptiness test a given frame decides (rtabmap's
        ``if (!guessFrameId_.empty()) {...} else {...}``, given ``guess_frame_id: odom``)."""
        for cond, taken in self.branches(node):
            holds = self.decided(cond)
            if holds is not None and holds != taken:
                return True
        return False

    def decided(self, cond: str) -> bool | None:
        """Whether a condition holds given the launch file's parameters: a conjunction of switches (``publish_tf_``,
        ``!x``) and emptiness tests of frames (``frame.empty()``, ``not self.frame``); None when it depends on more."""
        if "||" in cond or re.search(r"\bor\b", cond):
            return None  # a disjunction: one unknown term can make it hold
        terms = [_unwrapped(t) for t in re.split(r"&&|\band\b", _unwrapped(cond))]
        values = [self.decided_term(t) for t in terms]
        if any(v is False for v in values):
            return False
        return True if values and all(v is True for v in values) else None

    def decided_term(self, term: str) -> bool | None:
        """One term of :meth:`decided`: a switch (or a variable read from one), or a frame's emptiness test."""
        m = _TERM.match(term)
        if m is None:
            return None
        negated, name, empty = bool(m.group(1)), m.group(2), bool(m.group(3))
        short = re.split(r"\.|->", name)[-1]
        if not empty and any(flag in short for flag in self.f.switched_off):
            return negated  # the switch is off
        value = self.lookup(short) if short in self.f.members or short in self.env else None
        if isinstance(value, str) and value and value in self.f.launched:
            return empty == negated  # a launched frame is not empty: `x` holds, `x.empty()` does not
        return None

    def looked_up(self, call: Call[N], target: Value, source: Value, time_travel: bool = False, tf2: bool = False) -> None:
        """``lookupTransform(target, source)``: bound to the variable it is assigned to, for its name; ``tf2``: the call
        is tf2's Buffer's, which rejects a leading '/' where ROS 1's tf listener stripped it."""
        if self.emit:
            bound = self.bind[1] if self.bind is not None and self.bind[0] == call.key else None
            distinct = target == source and bool(call.args) and self.compared_unequal(call.args[0])
            self.f.sink.lookup(target, source, call.line, bound, time_travel=time_travel, tf2=tf2, distinct=distinct)

    def compared_unequal(self, target: N) -> bool:
        """The target frame's expression is tested unequal to another in a condition the call sits under
        (mas_perception's ``if (target_frame_id != frame_id_)`` around lookups and transforms into it, the target a
        parameter whose default is the source): the code has the equal case in hand."""
        name = self.text(target).strip()
        return any(name in (m[1], m[2]) for cond in self.conditions(target) for m in _UNEQUAL.finditer(cond))

    def transformed(self, target: Value, data: Value, line: int, target_node: N) -> None:
        """``buffer.transform(data, target)``: a lookup from the data's frame."""
        if self.emit and isinstance(data, Record):
            source = data.get("header.frame_id")
            self.f.sink.lookup(target, source, line, distinct=target == source and self.compared_unequal(target_node))
            if isinstance(source, str) and source:
                self.f.sink.transformed.append((source, self.f.sink.loc(line)))

    def param_value(self, pname: Value, default: Value, line: int) -> Value:
        """``param(name, default)`` / ``rospy.get_param(name, default)``: the value a launch file gave, else
        the default; a name computed at run time still leaves the default as the value."""
        self.keep_param(pname, default, line)
        return self.f.params.get(pname, default) if isinstance(pname, str) else default

    def published(self, value: Value, call: Call[N]) -> None:
        """A message published; ``static``: the publisher's name says /tf_static (for a TFMessage)."""
        if self.emit:
            if last_name(self.text(call.receiver)) in self.f.command_publishers:
                return  # a MAVROS setpoint: the plugin reads it in its own mav_frame, never header.frame_id
            if isinstance(value, Record) and self.f.set_elsewhere(value):
                return  # a global built here and filled by a function it calls: its frame is not known
            # a message the helper builds and never frames is the helper's to fix, not its caller's (whose arguments
            # name the frames a helper does set)
            unframed_here = (isinstance(value, Record) and value.local and self.span[0] <= value.line <= self.span[1]
                             and value.get("header.frame_id") is UNSET)
            with self.f.sink.own_site() if unframed_here else nullcontext():
                self.f.sink.publish(value, call.line, static="static" in self.text(call.receiver).lower())
            if isinstance(value, Record) and value.frame_writes and call.args:
                self.framed_on_some_paths(value, call)
            if isinstance(value, Record) and id(value) in self.f.member_names:
                self.f.published_members.append((value, call.line))

    def framed_on_some_paths(self, value: Record, call: Call[N]) -> None:
        """A message this function builds, published with its frame written only inside a loop or one branch before
        (see guards.skipped_by); or a member message whose only frame writes in the file are those, in this function
        (chibi25a's goal, given the path's header only once the robot nears it: published empty until then)."""
        if value.escaped or value.get("header.frame_id") in (UNSET, ""):
            return
        member = self.f.member_names.get(id(value))
        writes: list[tuple[int, tuple[Guard, ...]] | None]
        if member is not None:
            # every write of its header in the file and its headers is one this walk placed here, none before
            writes = list(dict.fromkeys(w for w in value.frame_writes if w is not None and self.span[0] <= w[0] <= self.span[1]))
            if (self.f.members.get(member) is not value or member in self.f.unknown_members or not writes
                    or header_mentions(self.f.member_texts(), member) != len(writes)):
                return
            declared = self.span[0]
        elif value.local and self.span[0] <= value.line <= self.span[1]:
            # a write in a helper the walk followed is framed there on its own paths: taken as made on every path
            writes = [w if w is not None and self.span[0] <= w[0] <= self.span[1] else None for w in value.frame_writes]
            declared = value.line
        else:
            return
        before = self.function_text_before(call.args[0])
        skipped = skipped_by(writes, declared, call.line, member or value.name, lambda container: fills(container, before))
        # a publish under its own condition (`if (mindist < MARGIN)`, set where the frame is) may be taken only when the
        # frame was written; one gated on subscribers is not
        written = [w[0] for w in writes if w is not None]
        gated = any(g.kind == "if" and not g.holds(declared) and not any(g.holds(n) for n in written)
                    and not _SUBSCRIBERS.search(g.text) for g in self.guards(call.args[0]))
        # a member framed on the first call (`if (!initialized_)`) keeps that frame for every later publish
        if skipped is not None and not gated and not (member and FIRST_TIME.search(skipped.text)):
            self.f.sink.framed_on_some_paths(value, skipped, call.line, member)

    def h_publish(self, call: Call[N]) -> Result:
        if call.n < 1 or call.receiver is None:
            return MISSING  # a ROS publisher is an object: a bare publish(x) is a function of the code's own
        values = [self.eval(a) for a in call.args]
        # image_transport's CameraPublisher: publish(image, info[, stamp]) sends both messages
        messages = [v for v in values[:2] if isinstance(v, Record)] if call.n > 1 else []
        for value in messages or values[-1:]:
            self.published(value, call)
        return None

    def h_bag_write(self, call: Call[N]) -> Result:
        """rosbag's ``bag.write(topic, msg, t)`` (Python) and ``bag.write(topic, time, msg)`` (C++): a message written
        into a bag is data its readers take as published (kalibr's bag creator wrote its images and IMU samples with
        no frame). Only on a receiver named for a bag: other ``write`` calls are files and streams."""
        if call.receiver is None or call.n < 2 or "bag" not in last_name(self.text(call.receiver)).lower():
            return MISSING
        values = [self.eval(a) for a in call.args]
        message = next((v for v in values[1:] if isinstance(v, Record)), None)
        if message is not None:
            self.published(message, call)
        return None

    def h_declare_parameter(self, call: Call[N]) -> Result:
        if call.n < 1:
            return MISSING
        pname = self.eval(call.args[0])
        default = param_default(self.arg(call, 1, "value"), pname)
        if isinstance(default, ParamRef):
            default = None
        self.keep_param(pname, default, call.line)
        value = self.f.params.get(pname, default) if isinstance(pname, str) else default  # a launch file's value first
        return value if value is not None else (ParamRef(pname) if isinstance(pname, str) else None)

    def yaw_given(self, value: Value, line: int) -> None:
        """A compass heading handed in as a yaw: REP-103's yaw turns counterclockwise from east (ENU), a heading
        clockwise from north (NED), so only ``pi/2 - heading`` is the yaw (u-blox's navheading published
        ``relPosHeading`` as the yaw, then ``-heading - pi/2``, a half turn off)."""
        if self.emit and isinstance(value, Heading):
            self.f.sink.add(heading_finding(value, self.f.sink.loc(line)))

    def rpy(self, args: Sequence[N], line: int = 0, into: str = "") -> Rot:
        """Roll, pitch, yaw; at ``line`` (a call), a heading-only orientation (roll and pitch constant) is judged,
        unless the quaternion it fills is named for NED or FRD axes (``ned_to_vehicle_quaternion``: converted later)."""
        values: list[Value] = [self.eval(a) for a in args[:3]]
        vals = [as_number(v) for v in values]
        named_ned = bool(conversion_words(into) & {"ned", "frd"})
        if line and len(vals) == 3 and vals[0] is not None and vals[1] is not None and not named_ned:
            self.yaw_given(values[2], line)
        if len(vals) == 3 and vals[0] is not None and vals[1] is not None and vals[2] is not None:
            return rot_from_rpy(vals[0], vals[1], vals[2])
        if line and len(values) == 3 and isinstance(values[2], Heading) and not named_ned:
            return Rot(heading=values[2], heading_line=line)  # judged where it is written out (attitude_written)
        return TOP_ROT

    def attitude_written(self, target: N, value: Value, line: int) -> None:
        """A full attitude from the data (roll, pitch and a compass heading as the yaw: a NED attitude) written as it is
        into a message's orientation (novatel_oem7's ``imu->orientation = tf2::toMsg(q)`` after ``q.setRPY(roll, -pitch,
        -azimuth)``): nothing converted it to ENU on the way, so the heading is judged at the line building it. One
        built to be converted (oxts, microstrain multiply it first) loses the mark in the product."""
        rot = value.rot if isinstance(value, (QuatList, Component)) else value
        if not (isinstance(rot, Rot) and rot.heading is not None and self.emit):
            return
        p = self.written_path(target)
        fields = p[1] if p is not None else []
        if "orientation" in fields[-2:] or "rotation" in fields[-2:]:
            self.f.sink.add(heading_finding(rot.heading, self.f.sink.loc(rot.heading_line)))


def shown_path(p: Path) -> str:
    """A written path as the code reads: ``markers[i].header.frame_id`` (any element), ``transforms[0]``."""
    return p[0] + "".join("[i]" if f == "[]" else f"[{f}]" if f.isdigit() else f".{f}" for f in p[1])


#: One-argument math both languages call by name (``std::sin``, ``math.sin``, ``np.deg2rad``).
MATH: dict[str, Callable[[float], float]] = {
    "sin": math.sin,
    "cos": math.cos,
    "sqrt": math.sqrt,
    "atan": math.atan,
    **dict.fromkeys(("radians", "deg2rad", "degreesToRadians", "degToRad", "deg_to_rad", "from_degrees"), math.radians),
    "fabs": math.fabs,
    "abs": abs,
}


def apply_math(name: str, value: Value) -> Value:
    """``MATH[name](value)`` on a constant; None when unknown or outside the function's domain. A heading converted to
    radians stays a heading."""
    if isinstance(value, Heading) and MATH.get(name) is math.radians:
        return Heading(math.radians(value.slope), math.radians(value.intercept))
    if not isinstance(value, float):
        return None
    try:
        return float(MATH[name](value))
    except ValueError:
        return None


#: The APIs both languages spell the same way.
SHARED_API: dict[str, Handler] = {
    "publish": Walker.h_publish,
    "write": Walker.h_bag_write,
    "declare_parameter": Walker.h_declare_parameter,
}
