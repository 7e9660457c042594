"""Reading one TOML file safely: the only place rulings and data files are read from disk.

Whatever a file holds, the result is either its parsed table with a :class:`LineIndex` or a
:class:`~judge.errors.ScenarioError` naming the file and a line: never a traceback, a hang or
a read of something that is not a regular file. What is checked, in order (the limits are
in :mod:`judge.limits`):

1. the path is a regular file (a FIFO, a device or a folder would block or make no sense);
2. it holds at most ``MAX_FILE_BYTES`` bytes;
3. it is UTF-8 (a leading byte-order mark is allowed and dropped);
4. it is TOML 1.0 (a syntax error gives the line the parser names);
5. its arrays and tables nest at most ``MAX_NESTING`` deep (the parser itself recurses, so
   a file of thousands of ``[`` would otherwise end in a ``RecursionError``).

The parser is ``tomli`` 2.3 where it is installed (a dependency: its wheels are compiled with
mypyc and parse the corpus about twice as fast as the standard library, which is what
``judge check`` spends most of its loading time on; issue 11), else the standard library's
``tomllib`` (the browser sandbox). Both are the same code, reading TOML 1.0: ``tomli`` 2.4
and later read TOML 1.1, which the rulings do not use, so the dependency stops before it.
tests/test_tomlfile.py holds the two to the same tables and the same errors.
"""

from __future__ import annotations

import os
import re
import stat
from itertools import compress
from pathlib import Path
from typing import TYPE_CHECKING, Any

from judge.errors import FieldError, ScenarioError
from judge.limits import MAX_FILE_BYTES, MAX_NESTING
from judge.scenario.locate import LineIndex

if TYPE_CHECKING:
    import tomllib as toml
else:
    try:
        import tomli as toml
    except ImportError:  # pragma: no cover - the browser sandbox has only the standard library
        import tomllib as toml

BOM = "\ufeff"


def shown_path(path: Path) -> str:
    """``path`` as a user reads it: relative to the current folder when it lies inside."""
    try:
        rel = os.path.relpath(path)
    except ValueError:  # pragma: no cover - another drive on Windows
        return str(path)
    return str(path) if rel.startswith("..") else rel


def unreadable(shown: str, exc: OSError,
               error: type[ScenarioError] = ScenarioError) -> ScenarioError:
    """The error for a file the system would not let us read (``shown``: its path as the
    user reads it)."""
    return error(shown, 1, FieldError("", f"cannot read the file: {exc.strerror or exc}"))


def read_file(path: Path, shown: str | None = None,
              error: type[ScenarioError] = ScenarioError) -> str:
    """The text of a regular UTF-8 file of at most ``MAX_FILE_BYTES`` bytes."""
    shown = shown or shown_path(path)
    try:
        info = os.stat(path)
    except OSError as exc:
        raise unreadable(shown, exc, error) from None
    if not stat.S_ISREG(info.st_mode):
        raise error(shown, 1, FieldError("", "not a regular file (rulings and data "
                                                     "files are ordinary .toml files)"))
    if info.st_size > MAX_FILE_BYTES:
        raise error(shown, 1, FieldError(
            "", f"the file has {info.st_size} bytes, more than the limit of {MAX_FILE_BYTES} "
                "(docs/limits.md)"))
    try:
        with open(path, "rb") as fh:
            data = fh.read(MAX_FILE_BYTES + 1)
    except OSError as exc:
        raise unreadable(shown, exc, error) from None
    if len(data) > MAX_FILE_BYTES:  # it grew while being read
        raise error(shown, 1, FieldError(
            "", f"the file has more than {MAX_FILE_BYTES} bytes (docs/limits.md)"))
    return decode(data, shown, error)


def decode(data: bytes, shown: str, error: type[ScenarioError] = ScenarioError) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        raise error(shown, line, FieldError(
            "", f"not UTF-8 text: byte 0x{data[exc.start]:02x} cannot be decoded "
                "(save the file as UTF-8)")) from None


def parse(text: str, shown: str, error: type[ScenarioError] = ScenarioError
          ) -> tuple[dict[str, Any], LineIndex]:
    """Parse TOML text; a leading byte-order mark is dropped."""
    if text.startswith(BOM):
        text = text[len(BOM):]
    try:
        raw = toml.loads(text)
    except toml.TOMLDecodeError as exc:
        message = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc))
        # "(at end of document)": the last line; "Expected newline or end of document after
        # a statement (at line 3, ...)" names its line like any other message
        line = len(text.splitlines()) or 1 if "(at end of document)" in str(exc) \
            else _toml_line(exc)
        raise error(shown, line, FieldError("", f"TOML syntax: {message}")) from None
    except RecursionError:
        raise error(shown, _deepest_line(text), FieldError(
            "", f"arrays or tables nest more than {MAX_NESTING} deep")) from None
    if _depth(raw) > MAX_NESTING:
        raise error(shown, _deepest_line(text), FieldError(
            "", f"arrays or tables nest more than {MAX_NESTING} deep")) from None
    return raw, LineIndex(text)


def read_toml(path: Path, shown: str | None = None,
              error: type[ScenarioError] = ScenarioError) -> tuple[dict[str, Any], LineIndex]:
    """Read and parse one file (see the module docstring for what is checked); problems are
    raised as ``error`` (a data file's reader passes :class:`~judge.errors.DataError`)."""
    shown = shown or shown_path(path)
    return parse(read_file(path, shown, error), shown, error)


def _toml_line(exc: toml.TOMLDecodeError) -> int:
    match = re.search(r"line (\d+)", str(exc))
    return int(match.group(1)) if match else 1


def _depth(value: Any) -> int:
    """How deep arrays and tables nest (a value inside them is one level deeper), without
    recursion: level by level, only the arrays and tables of each level are looked into.
    Stops at the first level deeper than ``MAX_NESTING``."""
    depth = 1
    level = [value]
    while True:
        below: list[Any] = []
        for item in level:
            if isinstance(item, dict):
                below.extend(item.values())
            elif isinstance(item, list):
                below.extend(item)
        if not below:
            return depth
        depth += 1
        if depth > MAX_NESTING:
            return depth
        # the arrays and tables among them, picked without a Python step per value
        # (the parser makes plain dicts and lists)
        level = list(compress(below, map(_CONTAINER, map(type, below))))
        if not level:
            return depth


_CONTAINER = frozenset((dict, list)).__contains__


def _deepest_line(text: str) -> int:
    """The line with the most opening brackets: where a too-deep nesting is written."""
    best, best_line = -1, 1
    for number, line in enumerate(text.splitlines(), start=1):
        count = line.count("[") + line.count("{")
        if count > best:
            best, best_line = count, number
    return best_line
