"""The monitor's parameters: one table (name, default, meaning) and how its values become core objects.

No ROS import here: the node declares these, the launch file builds overrides
with ``launch_overrides`` and ``log_level_arguments``, docs and ``physframe monitor --help``
print the table, and the tests check ``config/monitor.yaml`` against it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Mapping

from ..core.conventions import Conventions
from ..core.datacheck import DataOptions
from ..core.expected import ExpectedTree, ExpectedTreeError
from ..core.findings import FindingPolicy
from ..core.rotations import DEFAULT_TOLERANCE
from ..core.tfstate import StateConfig

NODE_NAME = "physframe_monitor"
STANDARD_TOPICS = (("/tf", False), ("/tf_static", True))
LOG_LEVELS = ("debug", "info", "warn", "error", "fatal")
# read once when the node starts (its subscriptions); every other parameter can change at run time
STARTUP_ONLY = frozenset({"tf_topics", "data_topics", "data_sample_period", "data_sample_window"})


@dataclass(frozen=True)
class ParamSpec:
    name: str
    default: Any  # float, str or list[str]; the type every value must have
    meaning: str


PARAMETERS: tuple[ParamSpec, ...] = (
    ParamSpec("tf_topics", [], "extra TF topics besides /tf and /tf_static (e.g. /robot1/tf); a name ending in tf_static is read as static"),
    ParamSpec("eval_period", 1.0, "seconds between evaluations: findings, log lines and /diagnostics"),
    ParamSpec("edge_timeout", 1.0, "seconds a dynamic edge stays in the tree after its last message (longer for slow edges: 3 periods)"),
    ParamSpec("stale_timeout", 1.0, "seconds of silence (and at least 5 periods) after which an established dynamic edge is STALE_TRANSFORM"),
    ParamSpec("future_tolerance", 0.5, "seconds a stamp may be ahead of the node's clock before FUTURE_TIMESTAMP"),
    ParamSpec("old_threshold", 10.0, "seconds a stamp may be behind the node's clock before OLD_TIMESTAMP (tf2's cache time)"),
    ParamSpec("event_hold", 2.0, "seconds a per-message problem (NaN, empty frame id, bad stamp) stays active after it was last seen"),
    ParamSpec("evict_after", 300.0, "seconds after which a silent dynamic edge is forgotten (memory stays bounded when frame names churn)"),
    ParamSpec("max_edges", 10000, "edges tracked at most; past it the longest-silent dynamic edges are forgotten early (TOO_MANY_EDGES)"),
    ParamSpec("rotation_tolerance", DEFAULT_TOLERANCE, "radians: a rotation this close to one of the 24 axis-aligned ones is checked against axis conventions"),
    ParamSpec("conventions_file", "", "YAML with extra frame classes or per-frame classes (see Conventions.from_dict); empty: built-in REP-103/105 rules"),
    ParamSpec("expected_tree", "", "expected tree YAML from `physframe scan --expected-out`; the live tree is cross-checked against it"),
    ParamSpec("expected_grace", 3.0, "seconds after the first TF message before an expected frame or edge is reported missing"),
    ParamSpec("ignore_codes", [], "finding codes never reported, e.g. [REPEATED_DATA]"),
    ParamSpec("ignore_frames", [], "frames whose findings are never reported"),
    ParamSpec("severity_overrides", [], "CODE=level items (level error, warning or info), e.g. [DISCONNECTED_TREE=info]"),
    ParamSpec("data_topics", ["*"], "globs of stamped topics (a std_msgs/Header first) whose header.frame_id is checked against the tree; [] turns it off"),
    ParamSpec("data_sample_period", 5.0, "seconds between samples of the data topics (each sample subscribes best-effort, depth 1, then unsubscribes)"),
    ParamSpec("data_sample_window", 0.5, "seconds each sample of the data topics lasts"),
    ParamSpec("fixed_frame", "", "frame stamped data must be transformable to; empty: the root of the largest tree"),
)

PARAMETER_DEFAULTS: dict[str, Any] = {p.name: p.default for p in PARAMETERS}


@dataclass(frozen=True)
class ParamError:
    """A value not used: which parameter, what is wrong with it, and what the node does instead."""

    name: str
    problem: str
    fallback: str

    def __str__(self) -> str:
        return f"parameter {self.name}: {self.problem}; {self.fallback}"

    @property
    def reason(self) -> str:
        """Why ``ros2 param set`` is refused (the old value stays, so no fallback is named)."""
        return f"{self.name}: {self.problem}"


@dataclass
class MonitorSettings:
    """Everything the node needs, read from parameter values; ``errors`` are one-line reasons for values not used."""

    tf_topics: tuple[tuple[str, bool], ...] = STANDARD_TOPICS  # (topic, static)
    eval_period: float = 1.0
    config: StateConfig = field(default_factory=StateConfig)
    policy: FindingPolicy = field(default_factory=FindingPolicy)
    conventions: Conventions = field(default_factory=Conventions)
    expected: ExpectedTree | None = None
    expected_path: str = ""
    expected_grace: float = 3.0
    data_topics: tuple[str, ...] = ("*",)
    data_sample_period: float = 5.0
    data_sample_window: float = 0.5
    data: DataOptions = field(default_factory=DataOptions)
    errors: list[ParamError] = field(default_factory=list)


def _number(values: Mapping[str, Any], name: str, errors: list[ParamError]) -> float:
    default = float(PARAMETER_DEFAULTS[name])
    v = values.get(name, default)
    if v is None:
        return default
    # ints are accepted: `-p eval_period:=1` arrives as an integer
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v < 0:
        errors.append(ParamError(name, f"{v!r} is not a number >= 0", f"using {default}"))
        return default
    return float(v)


def _strings(values: Mapping[str, Any], name: str, errors: list[ParamError]) -> list[str]:
    v = values.get(name)
    if v is None or v == "":
        return []
    if isinstance(v, str):  # a single item given as a plain string
        v = [v]
    if not isinstance(v, (list, tuple)) or not all(isinstance(x, str) for x in v):
        errors.append(ParamError(name, f"{v!r} is not a list of strings", "ignored"))
        return []
    return [x.strip() for x in v if x.strip()]


def _string(values: Mapping[str, Any], name: str, errors: list[ParamError]) -> str:
    v = values.get(name)
    if v is None:
        return ""
    if not isinstance(v, str):
        errors.append(ParamError(name, f"{v!r} is not a string", "ignored"))
        return ""
    return v.strip()


def settings_from(values: Mapping[str, Any]) -> MonitorSettings:
    """Read parameter values (missing ones take their default); a bad value is reported and replaced, never fatal."""
    errors: list[ParamError] = []
    s = MonitorSettings(errors=errors)
    topics = list(STANDARD_TOPICS)
    for t in _strings(values, "tf_topics", errors):
        t = t if t.startswith("/") or t.startswith("~") else "/" + t
        if t not in (x for x, _ in topics):
            topics.append((t, t.endswith("tf_static")))
    s.tf_topics = tuple(topics)
    s.eval_period = _number(values, "eval_period", errors)
    if s.eval_period <= 0:
        errors.append(ParamError("eval_period", "must be > 0", "using 1.0"))
        s.eval_period = 1.0
    s.config = StateConfig(
        edge_timeout=_number(values, "edge_timeout", errors),
        stale_timeout=_number(values, "stale_timeout", errors),
        future_tolerance=_number(values, "future_tolerance", errors),
        old_threshold=_number(values, "old_threshold", errors),
        event_hold=_number(values, "event_hold", errors),
        tolerance=_number(values, "rotation_tolerance", errors),
        evict_after=_number(values, "evict_after", errors),
        max_edges=max(1, int(_number(values, "max_edges", errors))),
    )
    try:
        s.policy = FindingPolicy.from_strings(
            _strings(values, "ignore_codes", errors), _strings(values, "ignore_frames", errors), _strings(values, "severity_overrides", errors)
        )
    except ValueError as exc:
        errors.append(ParamError("ignore_codes/severity_overrides", str(exc), "no codes ignored or overridden"))
    s.expected_grace = _number(values, "expected_grace", errors)
    s.data_topics = tuple(_strings(values, "data_topics", errors)) if "data_topics" in values else ("*",)
    s.data_sample_period = _number(values, "data_sample_period", errors) or 5.0
    s.data_sample_window = min(_number(values, "data_sample_window", errors) or 0.5, s.data_sample_period)
    # a frame a sampled topic used stays in use until later samples have had their chance to refresh it
    # (a sample can come back empty: a best-effort reader may match the writer only after its window)
    s.data = DataOptions(fixed_frame=_string(values, "fixed_frame", errors), hold=3.0 * s.data_sample_period + s.data_sample_window)
    conventions_file = _string(values, "conventions_file", errors)
    if conventions_file:
        try:
            s.conventions = Conventions.load(conventions_file)
        except ValueError as exc:
            errors.append(ParamError("conventions_file", str(exc), "using the built-in conventions"))
    s.expected_path = _string(values, "expected_tree", errors)
    if s.expected_path:
        try:
            s.expected = ExpectedTree.load(s.expected_path)
        except ExpectedTreeError as exc:
            errors.append(ParamError("expected_tree", str(exc), "no cross-check"))
    return s


def launch_overrides(expected_tree: str, tf_topics: str) -> dict[str, Any]:
    """Parameter overrides from the launch arguments; empty arguments leave the params file's values alone."""
    out: dict[str, Any] = {}
    if expected_tree.strip():
        out["expected_tree"] = expected_tree.strip()
    topics = [t.strip() for t in tf_topics.strip().strip("[]").replace(",", " ").split() if t.strip().strip("'\"")]
    if topics:
        out["tf_topics"] = [t.strip("'\"") for t in topics]
    return out


def log_level_arguments(level: str) -> list[str]:
    """--ros-args for the launch file's log_level: the node's own logger only (rcl and rmw keep theirs)."""
    return ["--log-level", f"{NODE_NAME}:={level}"]


def parameter_table() -> str:
    """The parameter table as plain text, for ``--help``."""
    width = max(len(p.name) for p in PARAMETERS)
    return "\n".join(f"  {p.name:<{width}}  {_show(p.default):<6}  {p.meaning}" for p in PARAMETERS)


def _show(v: Any) -> str:
    if isinstance(v, str):
        return repr(v)
    return str(v)
