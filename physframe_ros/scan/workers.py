"""Worker processes that parse scanned files, each file bounded in wall-clock time and memory.

A parser stuck in C code (tree-sitter, expat, a regular expression) cannot be interrupted from
inside its process, and a file that makes a parser allocate without bound must not take the
machine with it. So files are parsed in worker processes with an address-space limit
(RLIMIT_AS), each result sent back as soon as it is ready; a worker whose current file runs past
the time limit is killed, as is one that dies. That costs only that file (a PARSE_ERROR naming
it and the limit); the rest of its batch goes to a fresh worker.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import time
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import Any, Callable, Iterator

from ..core.findings import Finding, Location
from .context import ScanContext
from .model import FileFacts

MEMORY_LIMIT = 1 << 30  # bytes of address space a worker may add to what it has at start
Job = tuple[str, str, dict[str, str] | None]  # (relative path, kind, launch arguments)
Parse = Callable[[str, str, ScanContext, dict[str, str] | None], FileFacts]


def _limit_memory(extra: int) -> None:
    """RLIMIT_AS = the address space in use now + ``extra`` (Linux; elsewhere only the time limit holds)."""
    try:
        import resource

        with open("/proc/self/statm") as fh:
            in_use = int(fh.read().split()[0]) * os.sysconf("SC_PAGE_SIZE")
        _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        limit = in_use + extra
        if hard == resource.RLIM_INFINITY or limit < hard:
            resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    except (ImportError, OSError, ValueError):
        pass


def _worker_main(conn: Connection, parse: Parse, ctx: ScanContext, memory_limit: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's: it stops the workers
    _limit_memory(memory_limit)
    parent = os.getppid()
    while True:
        try:
            while not conn.poll(1.0):
                if os.getppid() != parent:  # the scan was killed: its pipe may never close (siblings hold it)
                    return
            jobs = conn.recv()
        except (EOFError, OSError):
            return
        if jobs is None:
            return
        for rel, kind, args in jobs:
            conn.send(parse(rel, kind, ctx, args))


@dataclass
class _Worker:
    process: Any
    conn: Connection
    jobs: list[Job] = field(default_factory=list)
    done: int = 0  # results received of ``jobs``
    deadline: float = 0.0  # when the current file's time is up

    @property
    def busy(self) -> bool:
        return self.done < len(self.jobs)


class WorkerPool:
    """Up to ``size`` workers (started when first needed). :meth:`parse` yields one FileFacts per job."""

    def __init__(self, parse: Parse, ctx: ScanContext, size: int, timeout: float, memory_limit: int = MEMORY_LIMIT) -> None:
        self.parse_fn, self.ctx, self.size, self.timeout, self.memory_limit = parse, ctx, max(1, size), timeout, memory_limit
        method = "fork" if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else "spawn"
        self.mp: Any = multiprocessing.get_context(method)
        self.workers: list[_Worker] = []

    def __enter__(self) -> WorkerPool:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def close(self) -> None:
        for w in self.workers:
            self._stop(w, kill=w.busy)
        self.workers = []

    def parse_one(self, job: Job) -> FileFacts:
        return next(self.parse([[job]]))

    def parse(self, batches: list[list[Job]]) -> Iterator[FileFacts]:
        queue = deque(b for b in batches if b)
        while queue or any(w.busy for w in self.workers):
            for w in list(self.workers):
                if not w.busy and queue:
                    self._give(w, queue.popleft())
            while queue and len(self.workers) < self.size:
                self._give(self._start(), queue.popleft())
            busy = [w for w in self.workers if w.busy]
            now = time.monotonic()
            ready = wait([w.conn for w in busy], timeout=max(0.0, min(w.deadline for w in busy) - now))
            for w in busy:
                if w.conn in ready:
                    yield from self._receive(w, queue)
                elif time.monotonic() >= w.deadline:
                    yield self._give_up(w, queue, f"parsing took longer than {self.timeout:g} s and was stopped")

    def _receive(self, w: _Worker, queue: deque[list[Job]]) -> Iterator[FileFacts]:
        try:
            ff = w.conn.recv()
        except (EOFError, OSError):
            w.process.join(1)
            code = w.process.exitcode
            how = f"signal {signal.Signals(-code).name}" if code is not None and code < 0 else f"exit status {code}"
            yield self._give_up(w, queue, f"the parser process died ({how}), most likely at the memory limit of "
                                          f"{self.memory_limit >> 20} MB")
            return
        w.done += 1
        w.deadline = time.monotonic() + self.timeout
        yield ff

    def _give_up(self, w: _Worker, queue: deque[list[Job]], why: str) -> FileFacts:
        """The current file of ``w`` is not checked; the worker is replaced and the rest of its batch re-run."""
        rel = w.jobs[w.done][0]
        rest = w.jobs[w.done + 1:]
        self._stop(w, kill=True)
        self.workers.remove(w)
        if rest:
            queue.appendleft(rest)
        return FileFacts(rel, findings=[Finding("PARSE_ERROR", f"{rel}: {why}; the file is not checked", (), Location(rel))])

    def _start(self) -> _Worker:
        parent, child = self.mp.Pipe()
        p = self.mp.Process(target=_worker_main, args=(child, self.parse_fn, self.ctx, self.memory_limit), daemon=True)
        p.start()
        child.close()
        w = _Worker(p, parent)
        self.workers.append(w)
        return w

    def _give(self, w: _Worker, jobs: list[Job]) -> None:
        try:
            w.conn.send(jobs)
        except (OSError, ValueError):  # it died while idle: a fresh one takes the batch
            self._stop(w, kill=True)
            self.workers.remove(w)
            w = self._start()
            w.conn.send(jobs)
        w.jobs, w.done = jobs, 0
        w.deadline = time.monotonic() + self.timeout

    @staticmethod
    def _stop(w: _Worker, kill: bool) -> None:
        try:
            if kill:
                w.process.kill()
            else:
                w.conn.send(None)
        except (OSError, ValueError):
            pass
        w.process.join(2)
        if w.process.is_alive():
            w.process.kill()
            w.process.join()
        w.conn.close()
