"""Statements that may not run the writes they hold: a loop's body, an ``if``'s branch.

A message whose frame is written only there, and which is published after them, goes out with an empty frame id
whenever the loop does not run or the condition does not hold (gpd_utils' grasp candidates, framed from the first
candidate only when there is one; an ArUco detector's PoseArray, framed only when the marker it looks for is seen).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Callable, Sequence

# a condition about a frame (`if (have_frame_)`): the code chooses what to send when none is configured
_ABOUT_FRAME = re.compile(r"frame", re.IGNORECASE)
# a condition that holds on the first call (`if (!initialized_)`, `if self.first:`): a member framed there keeps it
FIRST_TIME = re.compile(r"init|first|once|start", re.IGNORECASE)
# the container of a loop: `i < v_.size()`, `: samples_)`, `in self.detections`
_LOOPED = re.compile(r"<\s*([\w.>\-]+?)\s*(?:\.|->)\s*size\s*\(\s*\)|:\s*\*?([\w.>\-]+?)\s*\)\s*$|\bin\s+([\w.]+)\s*$")


@dataclass(frozen=True)
class Guard:
    """One such statement, by its lines."""

    kind: str  # "loop" or "if"
    line: int  # where the statement starts
    end: int  # where it ends
    text: str  # its head as written (``for (auto board : pc_samples_)``), for the message
    other: tuple[int, int] | None = None  # an if's other branch (its first and last line); None when it has none

    def holds(self, line: int) -> bool:
        return self.line <= line <= self.end


def looped_over(guard: Guard) -> str | None:
    """The container a loop walks, as written: ``v_`` in ``for (unsigned i=0; i < v_.size(); i++)``,
    ``for (auto b : samples_)``, ``for d in self.detections``."""
    m = _LOOPED.search(guard.text) if guard.kind == "loop" else None
    return next((g for g in m.groups() if g), None) if m else None


def fills(container: str, text: str) -> bool:
    """``text`` (a function's code) adds to ``container``: ``v_.push_back(msg)``, ``self.poses.append(p)``."""
    return re.search(rf"(?<![\w.]){re.escape(container)}\s*(?:\.|->)\s*(?:push_back|emplace_back|append|insert)\s*\(", text) is not None


def skipped_by(writes: Sequence[tuple[int, tuple[Guard, ...]] | None], declared: int, published: int, name: str,
               filled: Callable[[str], bool] = lambda container: False) -> Guard | None:
    """``writes``: each write of the frame, as its line and the guards around it (innermost first), or None for one the
    walk cannot place (a helper filling the header), taken as written on every path.

    The statement that, when it does not run, leaves a message declared at line ``declared`` and published at
    line ``published`` without a frame: every write of its frame sits in a loop or branch that holds neither
    line (an ``if`` whose other branch also writes it covers both ways). An ``if`` testing the message itself (the
    zed wrapper's ``if (pcMsg->width != width)`` on a message just made) is its initialisation, taken on every path;
    one naming a frame (``if (have_frame_)``, ``if self.frame:``) is the code choosing to send it unframed when there is
    none configured.
    A loop over a container the function fills before it (``filled``: tracking's ``v_.push_back(msg)`` above its loop
    over ``v_``) runs. The outermost such statement of the first write; None when some write reaches the publish on
    every path."""
    lines = [w[0] for w in writes if w is not None]
    itself = re.compile(rf"\b{re.escape(name.split('.')[-1].split('->')[-1])}\b") if name else None
    found: Guard | None = None
    for write in writes:
        if write is None:
            return None
        blocking = [g for g in write[1] if not g.holds(published) and not g.holds(declared)
                    and not (g.kind == "if" and g.other is not None and any(g.other[0] <= n <= g.other[1] for n in lines))
                    and not (g.kind == "if" and ((itself is not None and itself.search(g.text)) or _ABOUT_FRAME.search(g.text)))
                    and not (g.kind == "loop" and (container := looped_over(g)) is not None and filled(container))]
        if not blocking:
            return None
        found = found or blocking[-1]
    return found
