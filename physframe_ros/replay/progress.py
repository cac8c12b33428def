"""A one-line progress bar on stderr: how far into the bag, and how fast transforms go through."""

from __future__ import annotations

import sys
import time
from typing import TextIO

WIDTH = 24


class ProgressBar:
    """Redrawn at most every ``interval`` seconds of wall time; ``done()`` ends the line."""

    def __init__(self, start: float, end: float, stream: TextIO | None = None, interval: float = 0.2) -> None:
        self.start = start
        self.span = max(end - start, 1e-9)
        self.stream = stream or sys.stderr
        self.interval = interval
        self.t0 = time.perf_counter()
        self._next = self.t0
        self._drawn = False

    def __call__(self, bag_time: float, transforms: int) -> None:
        now = time.perf_counter()
        if now < self._next:
            return
        self._next = now + self.interval
        frac = min(max((bag_time - self.start) / self.span, 0.0), 1.0)
        rate = transforms / (now - self.t0) if now > self.t0 else 0.0
        bar = "#" * int(frac * WIDTH)
        self.stream.write(
            f"\r[{bar:<{WIDTH}}] {frac * 100:5.1f}%  t=+{bag_time - self.start:.1f}/{self.span:.1f} s  "
            f"{transforms:,} transforms  {rate:,.0f} transforms/s"
        )
        self.stream.flush()
        self._drawn = True

    def done(self) -> None:
        if self._drawn:
            self.stream.write("\n")
            self.stream.flush()
