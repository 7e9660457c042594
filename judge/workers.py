"""``judge check --jobs N``: loading and replaying the rulings in N processes.

A ruling costs about as much to load (parse, validate) as its replays do, and rulings differ
a lot in both, so the files are handed out as the processes ask for them: the parent writes
every file's index (largest file first) into one pipe that all of them read, four bytes at a
time; each process, the parent included, takes the next index, loads that file, replays the
ruling under the rule sets the options select, and takes another, until the pipe is empty.
A process kept busy elsewhere on the machine takes fewer files, and no one waits for the
slowest share. Each worker then sends the parent, in one message, what it needs of each file
it loaded (a :class:`Head`, or the file's error) and the results. The parent does what needs
every file at once (the ruling ids used twice, the ``related`` ids that name no ruling)
exactly as a run in one process does; it reports the results of the rulings that pass those
checks and drops the others' (rare: no process waits for those checks). Results and errors
come out in the order a run in one process gives them, so the output is the same byte for
byte whatever ``N`` is; only the JUnit times differ, as they do between any two runs.

The N - 1 workers are made with ``os.fork`` after the engine and the loader are imported, so
a worker starts with nothing to import; where there is no ``fork`` (Windows), the run stays
in one process. Messages go one way, from each worker to the parent, through a pipe,
pickled: :class:`Head` tuples, errors as their fields, :class:`~judge.check.Result` values.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, NamedTuple

from judge.errors import FieldError, FormatWarning, ScenarioError

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
    #: what the file should change, which did not stop it from loading (judge.errors)
    warnings: tuple[FormatWarning, ...] = ()

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


#: A file index in the queue: four bytes. The parent writes whole indices, at most PIPE_BUF
#: bytes at a time (a write the kernel never splits), so a read of four bytes gets one.
_INDEX = 4
_CHUNK = 1024  # indices per write: 4096 bytes, not more than PIPE_BUF on any POSIX system


def _fill(fd: int, order: Sequence[int]) -> None:
    for at in range(0, len(order), _CHUNK):
        data = b"".join(i.to_bytes(_INDEX, "little") for i in order[at:at + _CHUNK])
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]


class Pool:
    """``jobs`` processes (this one and ``jobs - 1`` forked workers) sharing out the files of
    one ``judge check`` run through a queue of file indices.

    ``load(index)`` returns the loaded ruling with its :class:`Head` (or None with a
    :data:`Failed` record); each process replays each ruling it loaded under each rule set
    ``wanted(head)`` names, right after loading it. No process waits for the parent's checks
    across files: a ruling those refuse (an id used twice, an unknown ``related`` id) is
    rare, and its results are dropped. ``sizes`` (bytes per file) orders the queue, largest
    first, so that the last files handed out are small ones. Use as a context manager:
    leaving it ends the workers."""

    def __init__(self, count: int, jobs: int, load: Callable[[int], tuple[Any, Head | Failed]],
                 wanted: Callable[[Head], list[str]], replay: Callable[[Any, str], Any],
                 sizes: Sequence[int] | None = None) -> None:
        self.count = count
        self.workers: list[_Worker] = []
        self._load = load
        self._wanted = wanted
        self._replay = replay
        self._done: dict[tuple[int, str], Any] = {}
        order = list(range(count))
        if sizes is not None:
            order.sort(key=lambda i: -sizes[i])  # stable: files of one size in run order
        queue_r, queue_w = os.pipe()
        self._queue: int | None = queue_r
        try:
            for _ in range(min(jobs, count) - 1):  # this process is one of the jobs
                self.workers.append(self._fork(queue_w))
            _fill(queue_w, order)
        finally:
            os.close(queue_w)  # the workers read to its end

    def _fork(self, queue_w: int) -> _Worker:
        up_r, up_w = os.pipe()  # worker -> parent
        pid = os.fork()
        if pid == 0:  # the worker: never returns
            code = 1
            try:
                os.close(up_r)
                os.close(queue_w)
                for other in self.workers:  # the pipes of the workers forked before
                    other.inbox.close()
                with os.fdopen(up_w, "wb") as outbox:
                    _send(outbox, self._serve())
                code = 0
            finally:
                os._exit(code)
        os.close(up_w)
        return _Worker(pid, os.fdopen(up_r, "rb"))

    def _serve(self) -> tuple[list[Head | Failed], dict[tuple[int, str], Any]]:
        """Take files from the queue until it is empty: load each, replay what loaded."""
        heads: list[Head | Failed] = []
        done: dict[tuple[int, str], Any] = {}
        queue = self._queue
        assert queue is not None
        while True:
            record = os.read(queue, _INDEX)
            if not record:
                return heads, done
            assert len(record) == _INDEX, "the queue holds whole indices"
            ruling, head = self._load(int.from_bytes(record, "little"))
            heads.append(head)
            if ruling is not None and isinstance(head, Head):
                for rules in self._wanted(head):
                    done[(head.at, rules)] = self._replay(ruling, rules)

    def heads(self) -> list[Head | Failed]:
        """What every process loaded, in the order of the files (this process takes its
        share of the files first)."""
        import pickle

        out: list[Head | Failed | None] = [None] * self.count
        mine = self._serve()
        for heads, done in [mine, *(pickle.load(w.inbox) for w in self.workers)]:
            for head in heads:
                out[head[0]] = head
            self._done.update(done)
        assert all(h is not None for h in out)
        return [h for h in out if h is not None]

    def results(self, tasks: Sequence[tuple[int, str]]) -> Iterator[Any]:
        """The results of ``tasks`` (file index, rule set), in their order."""
        for task in tasks:
            yield self._done[task]

    def close(self) -> None:
        if self._queue is not None:
            os.close(self._queue)
            self._queue = None
        for worker in self.workers:
            worker.inbox.close()
        for worker in self.workers:
            os.waitpid(worker.pid, 0)
        self.workers = []

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
