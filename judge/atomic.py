"""Advisory locks that mark a temporary file or folder as held by a running build.

``judge build`` and ``judge db`` write beside their output and clean up what killed runs left
there; a leftover that a live process still holds must not be removed. Each run holds an
exclusive ``flock`` on what it writes; the kernel drops the lock when the process ends,
however it ends (SIGKILL included), so a leftover without a lock is safe to remove.
"""

from __future__ import annotations

import os
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - not on POSIX: no locks, nothing is busy
    fcntl = None  # type: ignore[assignment]


def lock_fd(fd: int) -> bool:
    """Take an exclusive advisory lock on an open descriptor; False where locks are not
    available or another process holds it."""
    if fcntl is None:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        return False
    return True


def lock_path(path: Path) -> int | None:
    """An open descriptor of ``path`` holding an exclusive lock (None where it cannot be)."""
    if fcntl is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    if not lock_fd(fd):
        os.close(fd)
        return None
    return fd


def busy(path: Path) -> bool:
    """Whether a running process holds ``path`` (see :func:`lock_path`)."""
    if fcntl is None:
        return False
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(fd)  # and with it the lock just taken
    return False
