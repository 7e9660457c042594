"""Where a command may write, and how: the one home of the output-path policy (issue 25).

Every command that writes where the user says (``judge build`` and ``judge serve --out``,
``judge db --out``, ``judge search --index``, ``judge check --junit``) claims the path here
first (:func:`claim`). It is written only:

- where nothing exists;
- where what exists was made by this tool, as each kind of output tells (:class:`Kind`): a
  site is a folder holding the ``.judge-site`` file; a search index is a folder holding only
  the files the index writes; a database is a SQLite file whose header carries judge db's
  application id (:data:`judge.db.APPLICATION_ID`; or, from before it, whose ``meta`` table
  holds ``schema_version`` and ``judge_version``); a JUnit report is an XML file whose root
  is ``<testsuite name="judge-check"``; an empty folder is anyone's;
- or where the user passes ``--force``.

Otherwise :class:`OutputError`, one line naming the path and saying to pass ``--force``.
Never, even with ``--force``:

- something that is not a regular file or a folder (a FIFO, a device, a socket): writing
  there would block, or write into a device;
- a folder where a file is wanted, or a file where a folder is wanted;
- a folder holding ``.git`` (or ``.hg``, ``.svn``): a working copy;
- a path that is, holds or lies inside what the command reads (the rulings, the data);
- for a folder: the current folder, the corpus or the project, or a folder holding them.

A symbolic link at the path is never followed: with ``--force`` the link itself is replaced
and what it points to is left as it was.

Writing: into a temporary file or folder beside the target (``.NAME.XXXXXXXX.tmp``), held by
an advisory lock while it is written (:mod:`judge.atomic`), then renamed over the target in
one step (:func:`write_file`, :func:`replace_folder`). A new file gets the permissions of any
new file (0666 less the umask: 0644 under the usual umask 022), a new folder 0777 less the
umask; a replaced one keeps the permissions it had. What a killed run left beside the target
is found by its name and removed by the next run (:func:`leftovers`), never what a running
one holds. On SIGTERM the command stops as on Ctrl-C, removing its temporary files
(:func:`stop_on_sigterm`).
"""

from __future__ import annotations

import contextlib
import errno
import functools
import os
import re
import signal
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from types import FrameType
from typing import NamedTuple

from judge.atomic import busy, lock_fd, lock_path
from judge.errors import JudgeError, printable


class OutputError(JudgeError):
    """An output path that must not be written (or cannot be); nothing was written."""


#: Folders that make a folder a working copy of a version control system.
WORKING_COPY = (".git", ".hg", ".svn")
FORCE = "pass --force to replace it"


class Kind(NamedTuple):
    """What a command writes. ``foreign(path)`` says why the existing regular file, or the
    existing non-empty folder, at ``path`` was not made by this tool ("" when it was)."""

    action: str  # "build into", "write the database to": in messages, before the path
    folder: bool
    foreign: Callable[[Path], str]


class Target(NamedTuple):
    """A claimed output path: absolute, its last part not followed."""

    path: Path
    kind: Kind
    exists: bool  # something is there (a link included)
    mode: int | None  # the permissions of the regular file or folder replaced, if any
    link: bool  # a symbolic link is there (replaced with --force)


def shown(path: Path) -> str:
    """A path as a message shows it: on one line, whatever its name holds."""
    return printable(str(path))


def absolute(path: Path) -> Path:
    """``path`` made absolute without following its last part (a link stays a link)."""
    try:
        if path.name in ("", ".."):
            return path.resolve()
        return path.parent.resolve() / path.name
    except (OSError, RuntimeError, ValueError) as exc:  # a loop of links, a NUL byte
        raise OutputError(f"cannot write to {shown(path)}: {exc}") from None


def _within(path: Path, folder: Path) -> bool:
    return path == folder or folder in path.parents


def corpus_inputs(root: Path) -> list[Path]:
    """What the commands that read a corpus read: its rulings and the data folder."""
    from judge.paths import data_dir

    return [root / "rulings", data_dir()]


def _real(path: Path) -> Path | None:
    """``path`` with every link followed (None when it cannot be resolved)."""
    try:
        return Path(path).resolve()
    except (OSError, RuntimeError, ValueError):
        return None


def claim(path: Path, kind: Kind, *, force: bool = False, inputs: Iterable[Path] = (),
          roots: Iterable[Path] = ()) -> Target:
    """Check that ``path`` may be written as ``kind`` (see the module); raises
    :class:`OutputError` when not. ``inputs``: the files and folders the command reads;
    ``roots``: folders an output folder must not replace or hold (besides the current
    folder and the project)."""
    target = absolute(path)
    where = shown(target)
    for source in filter(None, map(_real, inputs)):
        if target == source:
            how = "it is being read"
        elif _within(target, source):
            how = f"it lies inside {shown(source)}, which is being read"
        elif _within(source, target):
            how = f"it holds {shown(source)}, which is being read"
        else:
            continue
        raise OutputError(f"refusing to {kind.action} {where}: {how} (what a command "
                          "reads is never replaced)")
    if kind.folder:
        from judge.paths import project_root

        named = [(Path.cwd(), "the current folder"), (project_root(), "the project"),
                 *((root, "the corpus") for root in roots)]
        for path, name in named:
            keep = _real(path)
            if keep is not None and _within(keep, target):
                how = f"it is {name}" if keep == target else f"it holds {name} ({shown(keep)})"
                raise OutputError(f"refusing to {kind.action} {where}: {how}")
    try:
        info = target.lstat()
    except FileNotFoundError:
        return Target(target, kind, exists=False, mode=None, link=False)
    except OSError as exc:  # a part of the path is a file, a name too long, no permission
        raise OutputError(f"cannot {kind.action} {where}: {exc.strerror}") from None
    if stat.S_ISLNK(info.st_mode):
        if not force:
            raise OutputError(f"refusing to replace {where}: it is a symbolic link (pass "
                              "--force to replace the link itself; what it points to is left "
                              "alone)")
        return Target(target, kind, exists=True, mode=None, link=True)
    mode = stat.S_IMODE(info.st_mode)
    if stat.S_ISDIR(info.st_mode):
        if not kind.folder:
            raise OutputError(f"refusing to {kind.action} {where}: it is a folder")
        try:
            names = sorted(os.listdir(target))
        except OSError as exc:
            raise OutputError(f"cannot {kind.action} {where}: {exc.strerror}") \
                from None
        held = [n for n in WORKING_COPY if n in names]
        if held:
            raise OutputError(f"refusing to replace {where}: it holds {held[0]} (a working "
                              "copy, never replaced)")
        if names and not force:
            reason = kind.foreign(target)
            if reason:
                raise OutputError(f"refusing to replace {where}: it is not empty and {reason}; "
                                  f"{FORCE}")
        return Target(target, kind, exists=True, mode=mode, link=False)
    if not stat.S_ISREG(info.st_mode):
        raise OutputError(f"refusing to {kind.action} {where}: it is "
                          f"{_file_type(info.st_mode)}, not a regular file")
    if kind.folder:
        raise OutputError(f"refusing to {kind.action} {where}: it is a file, not a "
                          "folder")
    if not force:
        reason = kind.foreign(target)
        if reason:
            raise OutputError(f"refusing to replace {where}: {reason}; {FORCE}")
    return Target(target, kind, exists=True, mode=mode, link=False)


def _file_type(mode: int) -> str:
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "a special file"  # pragma: no cover - every other kind is named above


# ---------------------------------------------------------------------- what this tool made


def head(path: Path, size: int) -> bytes:
    """The first ``size`` bytes of the regular file ``path`` (never blocks, never follows a
    link; empty when it cannot be read)."""
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
                     | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return b""
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return b""
        return os.read(fd, size)
    except OSError:
        return b""
    finally:
        os.close(fd)


def only_files(names: Iterable[str], what: str) -> Callable[[Path], str]:
    """A folder that holds nothing but regular files with these ``names`` (``what`` writes
    them)."""
    allowed = frozenset(names)

    def foreign(folder: Path) -> str:
        others = sorted(p.name for p in folder.iterdir()
                        if p.name not in allowed or p.is_symlink() or not p.is_file())
        if not others:
            return ""
        more = f" and {len(others) - 3} more" if len(others) > 3 else ""
        return (f"holds what {what} does not write "
                f"({', '.join(printable(n) for n in others[:3])}{more})")

    return foreign


# ---------------------------------------------------------------------- writing


#: The characters of a temporary name's random part (as :mod:`tempfile` draws them).
_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789_"


def temp_name(target: Path, suffix: str = ".tmp") -> Path:
    """A fresh name beside ``target``: ``.NAME.XXXXXXXX`` and ``suffix``."""
    tag = "".join(_ALPHABET[byte % len(_ALPHABET)] for byte in os.urandom(8))
    return target.with_name(f".{target.name}.{tag}{suffix}")


def leftover_names(target: Path, suffixes: str = "tmp") -> re.Pattern[str]:
    """The names :func:`temp_name` gives beside ``target`` (``suffixes``: a regular
    expression of the suffixes, without the dot)."""
    return re.compile(rf"\.{re.escape(target.name)}\.[a-z0-9_]{{8}}\.(?:{suffixes})")


def leftovers(target: Path, suffixes: str = "tmp", folders: bool = False) -> list[Path]:
    """What killed runs left beside ``target``: files (or ``folders``) with the temporary
    names, never a link, and none that a running process holds."""
    pattern = leftover_names(target, suffixes)
    try:
        entries = sorted(target.parent.iterdir())
    except OSError:
        return []
    return [p for p in entries if pattern.fullmatch(p.name) and not p.is_symlink()
            and (p.is_dir() if folders else p.is_file()) and not busy(p)]


def remove(path: Path) -> None:
    """Remove a file, a link or a folder tree (whatever is there; no error if nothing is)."""
    if path.is_symlink() or not path.is_dir():
        with contextlib.suppress(FileNotFoundError):
            path.unlink()
        return
    import shutil  # here: only a folder's replacement needs it

    shutil.rmtree(path, ignore_errors=True)


def failed(target: Target, exc: OSError) -> OutputError:
    """The error of an output that could not be written."""
    return OutputError(f"cannot {target.kind.action} {shown(target.path)}: "
                       f"{exc.strerror or exc}")


def make_parent(target: Target) -> None:
    try:
        target.path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise failed(target, exc) from None


def temp_file(target: Target) -> tuple[int, Path, bool]:
    """A new file beside ``target``, open for writing and locked (so that a concurrent run's
    clean-up leaves it alone; False where locks are not available), with the permissions the
    target will have: those of the file it replaces, else those of any new file (the kernel
    applies the umask)."""
    make_parent(target)
    flags = os.O_RDWR | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) \
        | getattr(os, "O_CLOEXEC", 0)
    for _ in range(100):
        path = temp_name(target.path)
        try:
            fd = os.open(path, flags, 0o666)
        except FileExistsError:
            continue
        except OSError as exc:
            raise failed(target, exc) from None
        try:
            if target.mode is not None:
                os.fchmod(fd, target.mode)
        except OSError:
            pass
        return fd, path, lock_fd(fd)
    raise OutputError(f"cannot {target.kind.action} {shown(target.path)}: no free temporary "
                      "name beside it")


def temp_folder(target: Target, suffix: str = ".tmp") -> tuple[Path, int | None]:
    """A new folder beside ``target`` and the descriptor holding its lock; permissions as
    :func:`temp_file` gives them."""
    make_parent(target)
    for _ in range(100):
        path = temp_name(target.path, suffix)
        try:
            os.mkdir(path, 0o777)
        except FileExistsError:
            continue
        except OSError as exc:
            raise failed(target, exc) from None
        if target.mode is not None:
            with contextlib.suppress(OSError):
                path.chmod(target.mode)
        return path, lock_path(path)
    raise OutputError(f"cannot {target.kind.action} {shown(target.path)}: no free temporary "
                      "name beside it")


def write_file(target: Target, data: bytes) -> None:
    """Write ``data`` to the claimed file: a temporary file beside it, renamed into place
    (the lock is held until then). First, the temporary files that killed runs left beside
    it are removed."""
    for stale in leftovers(target.path):
        stale.unlink(missing_ok=True)
    fd, tmp, _ = temp_file(target)
    try:
        view = memoryview(data)
        while view:
            view = view[os.write(fd, view):]
        os.replace(tmp, target.path)
    except OSError as exc:
        tmp.unlink(missing_ok=True)
        raise failed(target, exc) from None
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    finally:
        os.close(fd)


def replace_folder(new: Path, target: Target) -> None:
    """Put the complete folder ``new`` where the claimed folder is: in one step when nothing
    is there or the system can exchange the two (``renameat2``), otherwise by renaming the
    previous one aside first. The previous one (or the link) is then removed."""
    out = target.path
    if not os.path.lexists(out):
        os.replace(new, out)
        return
    if exchange(new, out):
        remove(new)  # ``new`` now holds what was there
        return
    aside = temp_name(out, ".old")
    os.replace(out, aside)
    try:
        os.replace(new, out)
    except BaseException:
        os.replace(aside, out)
        raise
    remove(aside)


#: Linux ``renameat2``: the two paths relative to the current folder, and the flag that
#: exchanges them (``<linux/fs.h>``).
AT_FDCWD = -100
RENAME_EXCHANGE = 2


@functools.cache
def _renameat2() -> Callable[..., int] | None:
    """libc's ``renameat2`` (glibc 2.28 and later, musl 1.1.24), or None."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes  # here: only a folder's replacement needs it

    try:
        function = ctypes.CDLL(None, use_errno=True).renameat2
    except (OSError, AttributeError):
        return None
    function.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p,
                         ctypes.c_uint]
    function.restype = ctypes.c_int
    return function


def exchange(a: Path, b: Path) -> bool:
    """Exchange two existing paths in one system call; False (nothing done) when the system
    or the filesystem cannot, so that the caller falls back to two renames."""
    function = _renameat2()
    if function is None:
        return False
    if function(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) == 0:
        return True
    import ctypes

    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.ENOTSUP, errno.EOPNOTSUPP):
        return False  # an old kernel, or a filesystem without RENAME_EXCHANGE
    raise OSError(code, os.strerror(code), str(a), None, str(b))


# ---------------------------------------------------------------------- SIGTERM


class Terminated(BaseException):
    """SIGTERM arrived: raised in the main thread, like KeyboardInterrupt for Ctrl-C, so that
    every ``finally`` removes its temporary files before the process ends."""


@contextlib.contextmanager
def stop_on_sigterm() -> Iterator[None]:
    """While the block runs, SIGTERM raises :class:`Terminated` in this process (in a child
    forked meanwhile it ends the child at once, as by default). Nothing changes outside the
    main thread (where ``signal.signal`` refuses; told so rather than by importing
    ``threading``, which every command would pay for), or where the signal already has a
    handler of its own."""
    if not hasattr(signal, "SIGTERM") or signal.getsignal(signal.SIGTERM) is not signal.SIG_DFL:
        yield
        return
    owner = os.getpid()

    def terminated(signum: int, frame: FrameType | None) -> None:
        if os.getpid() != owner:  # a forked worker: end as SIGTERM ends a process
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            os.kill(os.getpid(), signal.SIGTERM)
            return
        raise Terminated

    try:
        signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def die_of_sigterm() -> None:
    """End the process as SIGTERM ends it (its parent sees the signal), once the clean-up
    is done."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    os.kill(os.getpid(), signal.SIGTERM)
    signal.pause()  # pragma: no cover - the signal ends the process first
