"""Messages of independently readable chunks, merged into time order without reading every chunk first."""

from __future__ import annotations

import heapq
from typing import Callable, Iterator

from .recovery import RecoveredMessage

ChunkMessages = list[tuple[int, int, RecoveredMessage]]  # (log time ns, a unique tie-breaker, message)


def merge_in_time(chunks: list[tuple[int, Callable[[], ChunkMessages]]]) -> Iterator[RecoveredMessage]:
    """``chunks`` = (start time, reader of its readable messages). A chunk is read only when its start
    time comes before every message pending, so memory holds the chunks that overlap, not the bag."""
    order = sorted(range(len(chunks)), key=lambda i: chunks[i][0])
    pending: ChunkMessages = []
    k = 0
    while k < len(order) or pending:
        while k < len(order) and (not pending or chunks[order[k]][0] <= pending[0][0]):
            for item in chunks[order[k]][1]():
                heapq.heappush(pending, item)
            k += 1
        if pending:
            yield heapq.heappop(pending)[2]
