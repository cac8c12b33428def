"""Findings: what every check produces, with their codes, categories and severities (docs/findings.md)."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from enum import Enum
from typing import Any, Iterable, Mapping


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Sort key: errors first."""
        return {"error": 0, "warning": 1, "info": 2}[self.value]


@dataclass(frozen=True)
class CodeInfo:
    code: str
    category: str
    severity: Severity
    summary: str


def _codes(*rows: tuple[str, str, Severity, str]) -> dict[str, CodeInfo]:
    return {r[0]: CodeInfo(*r) for r in rows}


E, W, I = Severity.ERROR, Severity.WARNING, Severity.INFO

#: Every finding code, in the order of docs/findings.md (which describes each one for users).
CODES: dict[str, CodeInfo] = _codes(
    ("CYCLE_IN_FRAME_TREE", "tree", E, "the parent links form a loop"),
    ("MULTIPLE_PARENTS_IN_FRAME_TREE", "tree", E, "one child frame is given two or more parents"),
    ("INCORRECT_FRAME_ORDER_IN_TREE", "tree", E, "REP-105 order earth -> map -> odom -> base_link is broken"),
    ("DISCONNECTED_TREE", "tree", W, "frames that should be connected form separate trees"),
    ("INCORRECT_TRANSFORM", "transform", E, "axis convention broken"),
    ("REDUNDANT_TRANSFORM", "transform", W, "parent and child are the same frame"),
    ("MISSING_FRAME", "transform", E, "data is published or a transform built with an empty frame_id"),
    ("MISSING_CHILD_FRAME", "transform", E, "a transform or odometry message without child_frame_id"),
    ("INVALID_FRAME_ID", "transform", W, "leading '/', whitespace or other characters tf2 rejects or rewrites"),
    ("INVALID_TRANSFORM", "transform", E, "NaN or infinite values, quaternion far from unit length"),
    ("SENSOR_NULL", "transform", W, "a sensor frame sits exactly on its body frame"),
    ("REVERSED_NAME", "naming", W, "a transform named <a>_to_<b> or <b>_in_<a> goes the other way, or a frame named parent is passed as the child"),
    ("STALE_TRANSFORM", "temporal", W, "a dynamic transform stopped being updated"),
    ("FUTURE_TIMESTAMP", "temporal", W, "stamps ahead of the receiver's clock"),
    ("OLD_TIMESTAMP", "temporal", W, "stamps far behind the receiver's clock"),
    ("REPEATED_DATA", "temporal", I, "the same edge published again with the same stamp"),
    ("STATIC_DYNAMIC_CONFLICT", "temporal", W, "one edge is published on both /tf and /tf_static"),
    ("FRAME_CHURN", "temporal", W, "new frame names keep appearing (ids or timestamps in frame names)"),
    ("EXPECTED_FRAME_MISSING", "crosscheck", W, "the static scan expects a frame the live tree lacks"),
    ("EXPECTED_EDGE_MISSING", "crosscheck", W, "the static scan expects an edge the live tree lacks"),
    ("UNEXPECTED_EDGE", "crosscheck", I, "a live edge no scanned source declares"),
    ("PARENT_MISMATCH", "crosscheck", E, "live parent differs from the declared parent"),
    ("STATIC_VALUE_MISMATCH", "crosscheck", E, "a live static transform differs from its declared value"),
    ("LOOKUP_UNREACHABLE", "crosscheck", E, "code looks up a transform between frames the tree does not connect"),
    ("NULL_ROTATION_EXPECTED", "convention", I, "mined convention: this edge usually has no rotation"),
    ("NULL_DISPLACEMENT_EXPECTED", "convention", I, "mined convention: this edge usually has no displacement"),
    ("CO_OCCURRENCE_MISSING", "convention", I, "mined convention: a frame that usually comes with this one is missing"),
    ("UNKNOWN_DATA_FRAME", "data", E, "a stamped topic's header.frame_id is a frame the TF tree never defines (warning when there is no TF)"),
    ("DATA_FRAME_DISCONNECTED", "data", W, "a data frame exists but cannot be transformed to the fixed frame"),
    ("DATA_TRANSFORM_UNAVAILABLE", "data", W, "messages stamped outside the interval TF can serve for their frame"),
    ("STATIC_REPUBLISHED", "temporal", W, "/tf_static transforms re-sent at a steady rate, or a static edge that changes value"),
    ("PARSE_ERROR", "input", I, "a file the scanner could not read, parse or resolve"),
    ("TOO_MANY_EDGES", "input", W, "more TF edges than the monitor tracks: silent ones forgotten early, new ones untracked"),
    ("TF_MESSAGES_LOST", "input", W, "the transport lost TF messages before they reached the monitor"),
    ("BAG_MESSAGES_LOST", "input", E, "a bag's index lists TF messages that could not be read"),
)


@dataclass(frozen=True, order=True)
class Location:
    file: str
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        if self.line is None:
            return self.file
        return f"{self.file}:{self.line}" + (f":{self.column}" if self.column is not None else "")

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"file": self.file, "line": self.line}
        if self.column is not None:
            out["column"] = self.column
        return out


@dataclass(frozen=True)
class TimeSpan:
    """When a finding was active (seconds, bag or ROS time) and how often it was seen."""

    first: float
    last: float
    count: int = 1

    def to_dict(self) -> dict[str, Any]:
        return {"first": round(self.first, 6), "last": round(self.last, 6), "count": self.count}


@dataclass(frozen=True)
class Finding:
    code: str
    message: str
    frames: tuple[str, ...] = ()
    location: Location | None = None
    time: TimeSpan | None = None
    severity: Severity | None = None  # None: the code's default
    publishers: tuple[str, ...] = ()
    topic: str | None = None  # the data topic a finding about stamped messages comes from
    details: Mapping[str, Any] = field(default_factory=dict, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.code not in CODES:
            raise ValueError(f"unknown finding code {self.code!r}")
        if self.severity is None:
            object.__setattr__(self, "severity", CODES[self.code].severity)

    @property
    def category(self) -> str:
        return CODES[self.code].category

    @property
    def level(self) -> Severity:
        assert self.severity is not None
        return self.severity

    @property
    def key(self) -> tuple[str, tuple[str, ...], Location | None, str | None]:
        """Identity of a finding across evaluations: the same problem at the same place (and topic)."""
        return (self.code, self.frames, self.location, self.topic)

    def with_(self, **changes: Any) -> Finding:
        return replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "code": self.code,
            "severity": self.level.value,
            "category": self.category,
            "frames": list(self.frames),
            "message": self.message,
            "location": self.location.to_dict() if self.location else None,
            "time": self.time.to_dict() if self.time else None,
            "topic": self.topic,
        }
        if self.publishers:
            out["publishers"] = list(self.publishers)
        if self.details:
            out["details"] = dict(self.details)
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Finding:
        loc = data.get("location")
        tm = data.get("time")
        return cls(
            code=data["code"],
            message=data.get("message", ""),
            frames=tuple(data.get("frames", ())),
            location=Location(loc["file"], loc.get("line"), loc.get("column")) if loc else None,
            time=TimeSpan(tm["first"], tm["last"], tm.get("count", 1)) if tm else None,
            severity=Severity(data["severity"]) if "severity" in data else None,
            publishers=tuple(data.get("publishers", ())),
            topic=data.get("topic"),
            details=data.get("details", {}),
        )


def sort_findings(findings: Iterable[Finding]) -> list[Finding]:
    """Errors first, then by place, time and code: a stable order for every report."""
    return sorted(
        findings,
        key=lambda f: (
            f.level.rank,
            f.location.file if f.location else "",
            f.location.line or 0 if f.location else 0,
            f.time.first if f.time else 0.0,
            f.code,
            f.frames,
            f.topic or "",
        ),
    )


@dataclass
class FindingPolicy:
    """User choices applied to every finding: codes and frames to ignore, severity overrides."""

    ignore_codes: frozenset[str] = frozenset()
    ignore_frames: frozenset[str] = frozenset()
    severity_overrides: Mapping[str, Severity] = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = [c for c in (*self.ignore_codes, *self.severity_overrides) if c not in CODES]
        if unknown:
            raise ValueError(f"unknown finding code(s): {', '.join(sorted(unknown))}")

    @classmethod
    def from_strings(cls, ignore_codes: Iterable[str] = (), ignore_frames: Iterable[str] = (), severity: Iterable[str] = ()) -> FindingPolicy:
        """``severity`` items are ``CODE=level`` (e.g. ``DISCONNECTED_TREE=info``)."""
        overrides: dict[str, Severity] = {}
        for item in severity:
            if not item.strip():
                continue
            code, sep, level = item.partition("=")
            if not sep:
                raise ValueError(f"severity override {item!r} is not CODE=error|warning|info")
            try:
                overrides[code.strip()] = Severity(level.strip().lower())
            except ValueError:
                raise ValueError(f"severity override {item!r}: level must be error, warning or info") from None
        return cls(
            frozenset(c.strip() for c in ignore_codes if c.strip()),
            frozenset(f.strip() for f in ignore_frames if f.strip()),
            overrides,
        )

    def apply(self, findings: Iterable[Finding]) -> list[Finding]:
        out = []
        for f in findings:
            if f.code in self.ignore_codes or any(fr in self.ignore_frames for fr in f.frames):
                continue
            level = self.severity_overrides.get(f.code)
            out.append(f.with_(severity=level) if level is not None and level != f.severity else f)
        return out
