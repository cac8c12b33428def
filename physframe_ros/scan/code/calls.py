"""What both code analyzers share: calls followed into the file's own functions, memoised and bounded."""

from __future__ import annotations

from collections import Counter
from typing import Any, Callable, Hashable

CALL_DEPTH = 8  # calls followed into other functions of the file
CONTEXTS = 16  # distinct constant argument lists analysed per function
STEP_BUDGET = 400_000  # evaluation steps per file: one file can never stall the scan


class Budget(Exception):
    """A file used up its steps: its analysis stops there, the scan goes on."""


class BoundedCalls:
    """Each function is analysed once per distinct constant arguments; recursion, call depth and
    argument contexts are bounded (the paper's inter-procedural rules, made to terminate)."""

    def __init__(self) -> None:
        self.returns: dict[tuple[Hashable, Hashable], Any] = {}
        self.contexts: Counter[Hashable] = Counter()
        self.active: list[Hashable] = []
        self.steps = 0  # the hot loops count inline: `f.steps += 1; if f.steps > STEP_BUDGET: raise Budget()`

    def follow(self, site: Hashable, args: Hashable, analyse: Callable[[], Any]) -> Any:
        """``analyse()`` for the function at ``site`` with constant ``args``, memoised; None when bounded out."""
        key = (site, args)
        if key in self.returns:
            return self.returns[key]
        if site in self.active or len(self.active) >= CALL_DEPTH or self.contexts[site] >= CONTEXTS:
            return None
        self.contexts[site] += 1
        self.active.append(site)
        try:
            result = analyse()
        finally:
            self.active.pop()
        self.returns[key] = result
        return result

    def step(self) -> None:
        self.steps += 1
        if self.steps > STEP_BUDGET:
            raise Budget()
