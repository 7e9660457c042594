"""``judge check --jobs N``: loading and replaying the rulings in forked worker processes.

A ruling costs about as much to load (parse, validate) as its replays do, so both are shared
out: worker ``k`` of ``n`` loads the files ``k, k + n, k + 2n, ...`` of the run (in the order
:func:`judge.scenario.load.discover` gives), sends the parent what it needs of each (a
:class:`Head`, or the file's error), then replays the rulings it loaded under the rule sets
the options select, and sends the results. Meanwhile the parent does what needs every file at
once (the ruling ids used twice, the ``related`` ids that name no ruling) exactly as a run in
one process does; it reports the results of the rulings that pass those checks and drops
the others' (rare: a worker does not wait for the parent, so no worker waits for another).
Results and errors come out in the order a run in one process gives them, so the output is
the same byte for byte whatever ``N`` is; only the JUnit times differ, as they do between
any two runs.

The workers are made with ``os.fork`` after the engine and the loader are imported, so a
worker starts with nothing to import; where there is no ``fork`` (Windows), the run stays in
one process. Messages go one way, from each worker to the parent, through a pipe, pickled:
:class:`Head` tuples, errors as their fields, :class:`~judge.check.Result` values.
"""

from __future__ import annotations

import os
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


def _send(fh: IO[bytes], value: object) -> None:
    import pickle  # here: a run in one process (--jobs 1) never imports it

    pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
    fh.flush()


class Pool:
    """``jobs`` forked workers sharing out the files of one ``judge check`` run.

    In a worker, ``load(index)`` returns the loaded ruling with its :class:`Head` (or None
    with a :data:`Failed` record); the worker sends the heads of its files, then replays each
    ruling it loaded under each rule set ``wanted(head)`` names and sends the results. It
    does not wait for the parent's checks across files: a ruling those refuse (an id used
    twice, an unknown ``related`` id) is rare, and its results are dropped. Use as a context
    manager: leaving it ends the workers."""

    def __init__(self, count: int, jobs: int, load: Callable[[int], tuple[Any, Head | Failed]],
                 wanted: Callable[[Head], list[str]], replay: Callable[[Any, str], Any]) -> None:
        self.count = count
        self.workers: list[_Worker] = []
        self._load = load
        self._wanted = wanted
        self._replay = replay
        n = min(jobs, count)
        for k in range(n):
            self.workers.append(self._fork(range(k, count, n)))

    def _fork(self, mine: range) -> _Worker:
        up_r, up_w = os.pipe()  # worker -> parent
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            code = 1
            try:
                os.close(up_r)
                for other in self.workers:  # the pipes of the workers forked before
                    other.inbox.close()
                with os.fdopen(up_w, "wb") as outbox:
                    self._serve(mine, outbox)
                code = 0
            finally:
                os._exit(code)
        os.close(up_w)
        return _Worker(pid, os.fdopen(up_r, "rb"))

    def _serve(self, mine: range, outbox: IO[bytes]) -> None:
        loaded: list[tuple[Any, Head]] = []
        heads: list[Head | Failed] = []
        for index in mine:
            ruling, head = self._load(index)
            if ruling is not None and isinstance(head, Head):
                loaded.append((ruling, head))
            heads.append(head)
        _send(outbox, heads)
        _send(outbox, {(head.at, rules): self._replay(ruling, rules)
                       for ruling, head in loaded for rules in self._wanted(head)})

    def heads(self) -> list[Head | Failed]:
        """What every worker loaded, in the order of the files."""
        import pickle

        out: list[Head | Failed | None] = [None] * self.count
        for worker in self.workers:
            for head in pickle.load(worker.inbox):
                out[head[0]] = head
        assert all(h is not None for h in out)
        return [h for h in out if h is not None]

    def results(self, tasks: Sequence[tuple[int, str]]) -> Iterator[Any]:
        """The results of ``tasks`` (file index, rule set), in their order."""
        import pickle

        done: dict[tuple[int, str], Any] = {}
        for worker in self.workers:
            done.update(pickle.load(worker.inbox))
        for task in tasks:
            yield done[task]

    def close(self) -> None:
        for worker in self.workers:
            worker.inbox.close()
        for worker in self.workers:
            os.waitpid(worker.pid, 0)
        self.workers = []

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
