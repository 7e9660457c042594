"""``judge check`` in several processes: parsing rulings on a second CPU during the imports.

Before it can load a ruling, ``judge check`` imports the engine and the loader and reads the
data files: about a tenth of a second in which one process works and any other CPU waits.
Parsing the rulings' TOML needs none of that, so when the run is to use several processes
(:mod:`judge.workers`), :func:`start` forks a child first, with only the TOML parser and
:mod:`judge.tomlfile` imported, which reads and parses the files (every check of
:func:`judge.tomlfile.read_file` and :func:`judge.tomlfile.parse`) one after the other and
writes each one's text and table, pickled, to memory it shares with the parent. When the
parent is ready to load (:meth:`Preparser.collect`), it tells the child to stop after the
file at hand, takes what was parsed by then, and the processes that load the rulings use
those tables instead of parsing the files again (:func:`judge.scenario.file.load_one`). A
file the child could not read or parse is left out: it is read again where it is loaded,
and gives the same error as in a run of one process. What is checked and reported is the
same; only where the parsing happens changes.

With ``--jobs 1`` (or too few files for more processes, or no ``fork``), nothing of this runs:
the run stays in one process.
"""

from __future__ import annotations

import mmap
import os
import select
from pathlib import Path
from typing import Any

from judge.paths import default_rulings, discover

#: The shared memory for the parsed files (reserved, not used: pages are made as they are
#: written). Past it, the child stops; the files left are parsed where they are loaded.
SHARED_BYTES = 256 * 1024 * 1024
_SIZE = 8  # bytes of a record's length


class Preparser:
    """A child process parsing ``files`` until :meth:`collect` (see the module docstring)."""

    def __init__(self, files: list[Path]) -> None:
        self.files = files  # the run's files, found once (judge.check takes them from here)
        self._buffer = mmap.mmap(-1, SHARED_BYTES)  # anonymous: shared with the child
        stop_r, self._stop = os.pipe()  # parent -> child: stop (written or closed)
        self._done, done_w = os.pipe()  # child -> parent: how many bytes it wrote
        self.pid = os.fork()
        if self.pid == 0:  # the child: never returns
            code = 1
            try:
                os.close(self._stop)
                os.close(self._done)
                used = _parse(files, self._buffer, stop_r)
                os.write(done_w, used.to_bytes(_SIZE, "little"))
                code = 0
            finally:
                os._exit(code)
        os.close(stop_r)
        os.close(done_w)

    def collect(self) -> Parsed:
        """Stop the child after its file at hand; what it parsed, still pickled (each
        process that loads a file unpickles its table: :meth:`Parsed.take`). Only once."""
        if self._buffer.closed:
            return Parsed({})
        os.close(self._stop)
        data = b""
        while len(data) < _SIZE:
            chunk = os.read(self._done, _SIZE - len(data))
            if not chunk:  # the child died: every file is parsed where it is loaded
                break
            data += chunk
        os.close(self._done)
        os.waitpid(self.pid, 0)
        used = int.from_bytes(data, "little") if len(data) == _SIZE else 0
        out: dict[str, bytes] = {}
        buffer = self._buffer
        at = 0
        while at < used:
            size = int.from_bytes(buffer[at:at + _SIZE], "little")
            name_size = int.from_bytes(buffer[at + _SIZE:at + 2 * _SIZE], "little")
            start = at + 2 * _SIZE
            out[buffer[start:start + name_size].decode()] = buffer[start + name_size:
                                                                   at + _SIZE + size]
            at += _SIZE + size
        buffer.close()
        return Parsed(out)

    def close(self) -> None:
        """End the child without taking what it parsed (a run that stops before loading)."""
        if not self._buffer.closed:
            os.close(self._stop)
            os.close(self._done)
            os.waitpid(self.pid, 0)
            self._buffer.close()


class Parsed:
    """The files a :class:`Preparser` parsed, each as its pickled (text, table): unpickled
    by :meth:`take` in the process that loads the file, so that the parent does not
    unpickle every table before the workers start."""

    def __init__(self, records: dict[str, bytes]) -> None:
        self._records = records

    def __len__(self) -> int:
        return len(self._records)

    def take(self, name: str) -> tuple[str, dict[str, Any]] | None:
        """The text and table of the file ``name`` (as ``str(path)``), or None when the
        child did not parse it; each file only once."""
        record = self._records.pop(name, None)
        if record is None:
            return None
        import pickle  # here: a run in one process (--jobs 1) never imports it

        text, raw = pickle.loads(record)
        return text, raw


def _parse(files: list[Path], buffer: mmap.mmap, stop: int) -> int:
    """Parse ``files`` into ``buffer`` until ``stop`` is readable; the bytes written."""
    import pickle

    from judge.tomlfile import parse, read_file

    poll = select.poll()
    poll.register(stop, select.POLLIN)
    at = 0
    for path in files:
        if poll.poll(0):
            break
        name = str(path)
        try:
            text = read_file(path, name)
            raw, _ = parse(text, name)
        except Exception:  # the process that loads it reports why
            continue
        key = name.encode()
        record = (len(key).to_bytes(_SIZE, "little") + key
                  + pickle.dumps((text, raw), protocol=pickle.HIGHEST_PROTOCOL))
        if at + _SIZE + len(record) > len(buffer):
            break
        buffer[at:at + _SIZE] = len(record).to_bytes(_SIZE, "little")
        buffer[at + _SIZE:at + _SIZE + len(record)] = record
        at += _SIZE + len(record)
    return at


#: ``judge check``'s options as :func:`begin` reads them, before click is imported: the flags
#: and the options that take a value (a test checks these against the command in judge/cli.py).
CHECK_FLAGS = frozenset({"-v", "--verbose", "--force"})
CHECK_VALUED = frozenset({"--rules", "-k", "--junit", "-j", "--jobs"})
_JOBS = frozenset({"-j", "--jobs"})

#: The child :func:`begin` started, with the paths and ``--jobs`` it was started for.
_early: tuple[list[Path], int | None, Preparser] | None = None


def begin(argv: list[str]) -> None:
    """Start the parsing child of a ``judge check`` before click and the command line module
    are imported (the console script, :mod:`judge.launch`, calls this first): ``argv`` is the
    command line after ``judge``. Its paths and ``--jobs`` are read here only as far as this
    is sure of them; anything unusual (an unknown option, ``--help``, a bad number) starts
    nothing, and the command starts its child as usual. :func:`start` hands this child over
    when the paths and jobs click gives are the same, and ends it otherwise."""
    global _early
    read = _check_args(argv)
    if read is None:
        return
    paths, jobs = read
    early = _start(paths, jobs)
    if early is not None:
        _early = (paths, jobs, early)


def _check_args(argv: list[str]) -> tuple[list[Path], int | None] | None:
    """The paths and ``--jobs`` of a ``judge check`` command line, or None when ``argv`` is
    not one or this cannot be sure of what click will make of it (a misreading costs only
    time: :func:`start` compares what click gives)."""
    if not argv or argv[0] != "check":
        return None
    paths: list[Path] = []
    jobs: int | None = None
    args = iter(argv[1:])
    only_paths = False
    for arg in args:
        if only_paths or not arg.startswith("-"):
            paths.append(Path(arg))
            continue
        if arg == "--":
            only_paths = True
            continue
        if arg in CHECK_FLAGS:
            continue
        if arg in CHECK_VALUED:
            name, value = arg, next(args, None)
        elif arg.startswith("--"):
            name, _, value = arg.partition("=")
        else:
            name, value = arg[:2], arg[2:]
        if name not in CHECK_VALUED or not value:
            return None  # not an option read here: click says what it means
        if name in _JOBS:
            if not value.isdigit() or int(value) < 1:
                return None
            jobs = int(value)
    return paths or default_rulings(), jobs


def start(paths: list[Path], jobs: int | None) -> Preparser | None:
    """A :class:`Preparser` for the files of a ``judge check`` of ``paths`` when the run is to
    use more than one process (``jobs``: as ``--jobs`` gives it); None otherwise. The child
    :func:`begin` started for the same paths and jobs, when there is one."""
    global _early
    if _early is not None:
        early_paths, early_jobs, early = _early
        _early = None
        if early_paths == paths and early_jobs == jobs:
            return early
        early.close()
    return _start(paths, jobs)


def discard() -> None:
    """End the child :func:`begin` started if no command took it (click refused the command
    line, say)."""
    global _early
    if _early is not None:
        _early[2].close()
        _early = None


def _start(paths: list[Path], jobs: int | None) -> Preparser | None:
    if not hasattr(os, "fork") or not hasattr(select, "poll"):  # pragma: no cover - Windows
        return None
    if jobs is not None and jobs < 2:
        return None
    from judge.workers import default_jobs

    try:
        files = list(discover(paths))
    except Exception:  # the run meets it again where it looks for the files, and says so
        return None
    if len(files) < 2 or (jobs if jobs is not None else default_jobs(len(files))) < 2:
        return None
    return Preparser(files)
