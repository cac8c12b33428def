"""generate_parameter_library schemas: the defaults a ``Params`` struct's fields hold.

ros2_controllers' diff_drive_controller reads its frame names as ``params_.odom_frame_id`` from a struct
generated out of ``src/diff_drive_controller_parameter.yaml``::

    diff_drive_controller:
      odom_frame_id: {type: string, default_value: odom, ...}

The YAML's top-level key is the C++ namespace of the generated ``Params``; nested groups become nested
structs (``params_.kinematics.base``). A launch file or parameter file may override a default: the value
is the one a node started without overrides uses, as for ``declare_parameter`` defaults.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Iterable, Mapping

import yaml

from .values import PARAMS, Record, Value

MAX_SCHEMA_BYTES = 256 * 1024
# `Params params_;` / `diff_drive_controller::Params params_;` (a member or a file-scope declaration)
_PARAMS_DECL = re.compile(r"^[ \t]*(?:(\w+)::)?Params[ \t]+(\w+)[ \t]*;", re.MULTILINE)


def looks_like_schema(text: str) -> bool:
    """A cheap test before parsing: schemas give each parameter a ``type`` and usually a ``default_value``."""
    return "default_value" in text and len(text) <= MAX_SCHEMA_BYTES


def schema_defaults(text: str) -> tuple[str, dict[str, Value]] | None:
    """(namespace, dotted parameter name -> default) of one schema; None when the text is not one.
    Only non-empty string and number defaults are kept (frame names, and numbers the angle checks may use):
    an empty default is a value the user must give (pose_broadcaster's ``frame_id``, validated ``not_empty``)."""
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return None
    if not isinstance(data, dict) or len(data) != 1:
        return None
    (namespace, body), = data.items()
    if not isinstance(namespace, str) or not isinstance(body, dict):
        return None
    out: dict[str, Value] = {}
    if not _flatten(body, "", out, 0):
        return None
    return namespace, out


def _flatten(node: dict[Any, Any], prefix: str, out: dict[str, Value], depth: int) -> bool:
    """True when ``node`` holds at least one parameter (a mapping with a ``type``)."""
    found = False
    for key, value in node.items():
        if not isinstance(key, str) or key.startswith("__") or not isinstance(value, dict) or depth > 8:
            continue  # `__map_joints`: one group per entry of another parameter, names known only at run time
        name = prefix + key
        if "type" in value:
            found = True
            default = value.get("default_value")
            if isinstance(default, str) and default:  # "" (often with a not_empty validator): the user must set it
                out[name] = default
            elif isinstance(default, (int, float)) and not isinstance(default, bool):
                out[name] = float(default)
        else:
            found = _flatten(value, name + ".", out, depth + 1) or found
    return found


def parse_schemas(texts: Iterable[str]) -> dict[str, dict[str, Value]]:
    """Namespace -> defaults, for the texts that are schemas."""
    out: dict[str, dict[str, Value]] = {}
    for text in texts:
        parsed = schema_defaults(text) if looks_like_schema(text) else None
        if parsed is not None:
            out.setdefault(parsed[0], {}).update(parsed[1])
    return out


def params_record(schemas: dict[str, dict[str, Value]], namespace: str | None, name: str) -> Record | None:
    """The ``Params`` struct of ``namespace`` (or the package's one schema when the type is not qualified)."""
    if namespace is not None and namespace in schemas:
        defaults = schemas[namespace]
    elif namespace is None and len(schemas) == 1:
        defaults = next(iter(schemas.values()))
    else:
        return None
    return Record(PARAMS, "Params", name, 0, local=False, fields=dict(defaults))


def params_declarations(texts: Iterable[str]) -> dict[str, str | None]:
    """Variable name -> the namespace qualifying its ``Params`` type (None when unqualified)."""
    return {name: ns or None for text in texts for ns, name in _PARAMS_DECL.findall(text)}


_PREFIX_NAME = re.compile(r"(?:^|[\w.>-]*[._>])?\w*prefix_?$", re.IGNORECASE)
_FRAME_NAME = re.compile(r"[A-Za-z][\w/]*")


def unknown_prefix(left_text: str, right: str) -> bool:
    """``tf_prefix + params_.odom_frame_id`` with the prefix computed at run time (ros2_controllers resolve
    ``tf_frame_prefix`` against the node's namespace, empty in the root namespace): the frame is taken as
    the unprefixed name, its value in a node started without a namespace or prefix. Only a name that reads
    as a prefix and a right side that reads as a frame name (not ``"/"``) qualify."""
    return _PREFIX_NAME.fullmatch(left_text.strip()) is not None and _FRAME_NAME.fullmatch(right) is not None


# A hand-written parameter struct whose constructor reads the node's parameters into its fields (robotx_packages'
# `struct parameters { std::string robot_frame; parameters() { ros::param::param<std::string>(ros::this_node::getName()
# + "/robot_frame", robot_frame, "base_link"); } };` held in `const parameters params_;`): its fields hold the defaults.
_STRUCT_HEAD = re.compile(r"\b(?:struct|class)\s+(\w+)\s*(?::[^{;()]*)?\{")
_STRING_READ = re.compile(
    r"\bparam\s*(?:<[^<>()]*>)?\s*\(\s*(?P<key>[^;]*?),\s*(?P<field>\w+)\s*,\s*(?:std::string\s*\(\s*)?\"(?P<default>[^\"\n]*)\"\s*\)?\s*\)\s*;"
)
_KEY = re.compile(r"\"/?~?([\w/]*?)\"\s*$")  # the key's last literal: `getName() + "/robot_frame"` -> robot_frame


_BRACE = re.compile(r"[{}]")


def _block(text: str, open_at: int) -> str:
    """The text between the brace at ``open_at`` and its match (to the end when unbalanced)."""
    depth = 0
    for m in _BRACE.finditer(text, open_at):
        depth += 1 if m.group() == "{" else -1
        if depth == 0:
            return text[open_at + 1 : m.start()]
    return text[open_at + 1 :]


@lru_cache(maxsize=512)
def _struct_reads(text: str) -> tuple[tuple[str, tuple[tuple[str, str, str], ...]], ...]:
    """Of one text: (struct name, ((field, parameter, default), ...)) for each struct whose constructor reads string
    parameters into its fields. Cached: a package's headers come with each of its sources."""
    if "param" not in text or _STRING_READ.search(text) is None:
        return ()
    out = []
    for head in _STRUCT_HEAD.finditer(text):
        name = head.group(1)
        # its constructor's body, written in the struct (the first `name() {` after the head)
        ctor = re.compile(rf"\b{re.escape(name)}\s*\(\s*\)\s*(?::[^{{;]*)?\{{").search(text, head.end())
        if ctor is None:
            continue
        reads = []
        for read in _STRING_READ.finditer(_block(text, ctor.end() - 1)):
            key = _KEY.search(read.group("key"))
            reads.append((read.group("field"), key.group(1).rpartition("/")[2] if key else "", read.group("default")))
        if reads:
            out.append((name, tuple(reads)))
    return tuple(out)


def param_structs(texts: Iterable[str], given: Mapping[str, Value] | None = None) -> dict[str, Record]:
    """Members (or file-scope variables) of a struct type whose constructor reads string parameters into its own
    fields with defaults: name -> a record of those fields (``params_.robot_frame`` is "base_link"). ``given``: the
    values a launch file gives the node's parameters by name (None: known only at launch time), which win."""
    texts = list(texts)
    given = given or {}
    defaults: dict[str, dict[str, Value]] = {}
    for text in texts:
        for name, reads in _struct_reads(text):
            defaults.setdefault(name, {}).update((f, given[param] if param in given else default) for f, param, default in reads)
    out: dict[str, Record] = {}
    for type_name, fields in defaults.items():
        declared = re.compile(rf"^[ \t]*(?:const[ \t]+)?{re.escape(type_name)}[ \t]+(\w+)[ \t]*;", re.MULTILINE)
        for text in texts:
            for member in declared.findall(text):
                out[member] = Record(PARAMS, type_name, member, 0, local=False, fields=dict(fields))
    return out
