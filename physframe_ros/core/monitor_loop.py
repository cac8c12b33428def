"""The monitor's loop, the same for the live node and ``physframe replay``: ingest, evaluate, policy, tracker.

The adapter supplies the clock: the node calls :meth:`MonitorLoop.evaluate` from
its timer with ROS time, replay calls :meth:`MonitorLoop.advance` with bag time
before each message, which evaluates at every period boundary passed. Either
way an edge counts as present for ``max(edge_timeout, period)`` after its last
message, so a fault shorter than the period between two evaluations is still
seen, live as in a bag.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Hashable

from .conventions import Conventions
from .datacheck import DataOptions, DataState
from .expected import ExpectedTree
from .findings import Finding, FindingPolicy, sort_findings
from .tfstate import FindingTracker, StateConfig, TfState
from .tree import Edge

SILENT_SKIP = 60.0  # seconds without a message after which periodic evaluations stop until the next one

NameOf = Callable[[Hashable], str]


@dataclass
class Evaluation:
    active: list[Finding]  # the findings active now, each with the span it has been active over
    appeared: list[Finding]
    cleared: list[Finding]
    edges: list[Edge]  # the tree that was checked


class MonitorLoop:
    """TF (and stamped data) in, one tracked list of findings out."""

    def __init__(
        self,
        period: float,
        conventions: Conventions | None = None,
        config: StateConfig | None = None,
        policy: FindingPolicy | None = None,
        expected: ExpectedTree | None = None,
        data: DataOptions | None = None,
        expected_grace: float = 0.0,
        keep_history: bool = True,
    ) -> None:
        self.state = TfState(conventions, config)
        self.data = DataState(self.state, data)
        self.tracker = FindingTracker(keep_history)  # replay reports every finding ever active; live, what is active
        self.reconfigure(period, self.state.conventions, self.state.config, policy, expected, self.data.options, expected_grace)
        self.evaluations = 0
        self._next: float | None = None  # the next periodic evaluation (advance only)
        self._last_message: float | None = None

    def reconfigure(
        self,
        period: float,
        conventions: Conventions,
        config: StateConfig,
        policy: FindingPolicy | None,
        expected: ExpectedTree | None,
        data: DataOptions,
        expected_grace: float,
    ) -> None:
        """New settings from the next evaluation on; the tree, the data seen and the tracked findings stay."""
        if not period > 0:
            raise ValueError(f"period must be > 0 s, got {period}")
        self.period = period
        self.state.conventions, self.state.config = conventions, config
        self.data.options = data
        self.policy = policy or FindingPolicy()
        self.expected = expected
        # expected frames are not missing before the robot's publishers have had time to start
        self.expected_grace = expected_grace

    @property
    def window(self) -> float:
        """An edge seen between two evaluations must still be in the tree at the next one."""
        return max(self.state.config.edge_timeout, self.period)

    def evaluate(self, now: float, name_of: NameOf = str) -> Evaluation:
        """Evaluate the tree and the data at ``now`` (the stream's clock) and track what appeared or cleared."""
        findings = self.state.evaluate(now, self.window, name_of=name_of, expected=self.expected, expected_grace=self.expected_grace)
        edges = self.state.last_snapshot
        findings.extend(self.data.evaluate(now, edges, self.window, name_of))
        findings = sort_findings(self.policy.apply(findings))
        appeared, cleared = self.tracker.update(findings, now)
        self.evaluations += 1
        active = [f.with_(time=self.tracker.spans.get(k, f.time)) for k, f in self.tracker.active.items()]
        return Evaluation(active, appeared, cleared, edges)

    def advance(self, t: float, name_of: NameOf = str) -> None:
        """Replay's clock: evaluate at every period boundary up to a message received at ``t``."""
        if self._next is None:
            self._next = t + self.period
        while t >= self._next:
            self.evaluate(self._next, name_of)
            self._next += self.period
            last = self._last_message
            if last is not None and self._next - last > SILENT_SKIP and t - self._next > self.period:
                # deep in a silent stretch nothing changes any more: skip to the next message, not 1e6 evaluations
                self._next += (t - self._next) // self.period * self.period
        self._last_message = t

    def start_at(self, t: float) -> None:
        """Replay from ``t`` (a window's start) rather than from the first message."""
        self._next = t + self.period

    def finish(self, name_of: NameOf = str) -> None:
        """Replay's end: the state at the last message, which may fall between two periods."""
        last = self._last_message
        if last is not None and self._next is not None and (self.evaluations == 0 or last > self._next - self.period):
            self.evaluate(last, name_of)

    @property
    def last_message(self) -> float | None:
        return self._last_message

    def history(self) -> list[Finding]:
        """Every finding ever active, with the span over which it was active."""
        return self.tracker.history()
