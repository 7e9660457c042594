"""``judge check --jobs N``: loading and replaying the rulings in forked worker processes.

A ruling costs about as much to load (parse, validate) as its replays do, so both are shared
out: worker ``k`` of ``n`` loads the files ``k, k + n, k + 2n, ...`` of the run (in the order
:func:`judge.scenario.load.discover` gives), sends the parent what it needs of each (a
:class:`Head`, or the file's error), and waits. The parent then does what needs every file at
once (the ruling ids used twice, the ``related`` ids that name no ruling) exactly as a run in
one process does, sends each worker the (ruling, rule set) pairs of its own files, and
collects their results. Results and errors come out in the order a run in one process gives
them, so the output is the same byte for byte whatever ``N`` is; only the JUnit times differ,
as they do between any two runs.

The workers are made with ``os.fork`` after the engine and the loader are imported, so a
worker starts with nothing to import; where there is no ``fork`` (Windows), the run stays in
one process. Messages go through pipes, pickled: :class:`Head` tuples, errors as their fields,
:class:`~judge.check.Result` values.
"""

from __future__ import annotations

import os
import pickle
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NamedTuple

from judge.errors import FieldError, ScenarioError

#: A worker is worth its fork (a few milliseconds) from about this many files on.
FILES_PER_JOB = 24
#: The automatic choice never uses more workers than this.
MAX_AUTO_JOBS = 8


def usable_cpus() -> int:
    """The CPUs this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not on Linux
        return os.cpu_count() or 1


def default_jobs(files: int) -> int:
    """The number of processes ``judge check`` uses when ``--jobs`` is not given: one per
    usable CPU (at most MAX_AUTO_JOBS), but no more than one per FILES_PER_JOB files, and one
    where the platform cannot fork."""
    if not hasattr(os, "fork"):  # pragma: no cover - Windows
        return 1
    return max(1, min(usable_cpus(), MAX_AUTO_JOBS, files // FILES_PER_JOB))


class Head(NamedTuple):
    """What the parent needs of a ruling a worker loaded: where it is in the run (``at``, its
    file's index), its id, path as shown and rule sets, its ``related`` ids, and its file
    (read again for the line an error names: errors are rare, and a ruling that loads is not
    scanned for lines)."""

    at: int
    id: str
    path: str
    rulesets: tuple[str, ...]
    related: tuple[str, ...]
    file: str

    @property
    def id_line(self) -> int:
        return self._line("id")

    @property
    def related_line(self) -> int:
        return self._line("related")

    def _line(self, field: str) -> int:
        from judge.scenario.locate import LineIndex
        from judge.tomlfile import read_file

        return LineIndex(read_file(Path(self.file), self.path)).line(field)


#: A file a worker could not load: its index, its error's class and fields, and the ids the
#: file seems to declare.
Failed = tuple[int, type[ScenarioError], str, int, str, str, tuple[str, ...], frozenset[str]]


def pack_error(index: int, exc: ScenarioError, written: set[str]) -> Failed:
    err = exc.error
    return (index, type(exc), exc.path, exc.line, err.field, err.message, err.valid,
            frozenset(written))


def unpack_error(failed: Failed) -> tuple[ScenarioError, set[str]]:
    _, cls, path, line, field, message, valid, written = failed
    return cls(path, line, FieldError(field, message, valid)), set(written)


@dataclass
class _Worker:
    pid: int
    inbox: IO[bytes]  # the parent reads this
    outbox: IO[bytes]  # the parent writes this


def _send(fh: IO[bytes], value: object) -> None:
    pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
    fh.flush()


class Pool:
    """``jobs`` forked workers sharing out the files of one ``judge check`` run.

    ``load(index)`` runs in a worker: it returns the loaded ruling (kept there for its replays)
    with its :class:`Head`, or a :data:`Failed` record. ``replay(ruling, rules)`` runs in a
    worker on a ruling it loaded. Use as a context manager: leaving it ends the workers."""

    def __init__(self, count: int, jobs: int, load: Callable[[int], tuple[Any, Head | Failed]],
                 replay: Callable[[Any, str], Any]) -> None:
        self.count = count
        self.workers: list[_Worker] = []
        self._load = load
        self._replay = replay
        for k in range(min(jobs, count)):
            self.workers.append(self._fork(k, min(jobs, count)))

    def _fork(self, k: int, n: int) -> _Worker:
        down_r, down_w = os.pipe()  # parent -> worker
        up_r, up_w = os.pipe()  # worker -> parent
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            code = 1
            try:
                os.close(down_w)
                os.close(up_r)
                for other in self.workers:  # the pipes of the workers forked before
                    other.inbox.close()
                    other.outbox.close()
                with os.fdopen(down_r, "rb") as inbox, os.fdopen(up_w, "wb") as outbox:
                    self._serve(range(k, self.count, n), inbox, outbox)
                code = 0
            finally:
                os._exit(code)
        os.close(down_r)
        os.close(up_w)
        return _Worker(pid, os.fdopen(up_r, "rb"), os.fdopen(down_w, "wb"))

    def _serve(self, mine: range, inbox: IO[bytes], outbox: IO[bytes]) -> None:
        loaded: dict[int, Any] = {}
        heads: list[Head | Failed] = []
        for index in mine:
            ruling, head = self._load(index)
            if ruling is not None:
                loaded[index] = ruling
            heads.append(head)
        _send(outbox, heads)
        tasks: list[tuple[int, str]] = pickle.load(inbox)
        _send(outbox, [self._replay(loaded[index], rules) for index, rules in tasks])

    def heads(self) -> list[Head | Failed]:
        """What every worker loaded, in the order of the files."""
        out: list[Head | Failed | None] = [None] * self.count
        for worker in self.workers:
            for head in pickle.load(worker.inbox):
                out[head[0]] = head
        assert all(h is not None for h in out)
        return [h for h in out if h is not None]

    def results(self, tasks: Sequence[tuple[int, str]]) -> Iterator[Any]:
        """The results of ``tasks`` (file index, rule set), in their order."""
        n = len(self.workers)
        shares: list[list[tuple[int, str]]] = [[] for _ in range(n)]
        for task in tasks:
            shares[task[0] % n].append(task)
        for worker, share in zip(self.workers, shares, strict=True):
            _send(worker.outbox, share)
        done: list[list[Any]] = []
        for worker in self.workers:
            done.append(pickle.load(worker.inbox))
        taken = [0] * n
        for index, _ in tasks:
            k = index % n
            yield done[k][taken[k]]
            taken[k] += 1

    def close(self) -> None:
        for worker in self.workers:
            worker.inbox.close()
            worker.outbox.close()
        for worker in self.workers:
            os.waitpid(worker.pid, 0)
        self.workers = []

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

