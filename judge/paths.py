"""Where the project's data lives. ``JUDGE_DATA`` overrides the folder beside the package."""

from __future__ import annotations

import os
from collections.abc import Iterator
from functools import cache
from pathlib import Path


@cache
def project_root() -> Path:
    return Path(__file__).resolve().parent.parent


def default_rulings() -> list[Path]:
    """What ``judge check`` checks when given no path: ``rulings`` in the current folder, or
    else this project's own."""
    local = Path("rulings")
    return [local if local.is_dir() else project_root() / "rulings"]


def data_dir() -> Path:
    env = os.environ.get("JUDGE_DATA")
    return Path(env) if env else project_root() / "data"


#: What :func:`discover` looks for: ``*.toml`` in any case (the loader refuses a name in
#: upper case with one line, rather than this skipping it in silence).
PATTERN = "*.[tT][oO][mM][lL]"


def discover(paths: list[Path]) -> Iterator[Path]:
    """Ruling files under ``paths``: files as given, folders searched for ``*.toml`` (in any
    case). Entries named so that are not folders are yielded even when they are not regular
    files, so that the loader reports them instead of skipping them in silence. In each
    folder given, the files come in order of their paths, the symbolic links after the
    others: where a link repeats a ruling, the link is the one reported as the copy. (Here,
    beside the light path helpers, so that ``judge check`` finds its files before importing
    the loader; :mod:`judge.scenario.load` gives it too.)"""
    for path in paths:
        if path.is_dir():
            found = sorted(p for p in path.rglob(PATTERN) if not p.is_dir())
            yield from sorted(found, key=os.path.islink)  # stable: path order kept
        else:
            yield path
