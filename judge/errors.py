"""Error classes. Messages quote the bad input; the CLI turns them into one line."""

from __future__ import annotations

import unicodedata
from typing import NamedTuple

#: The longest field path and message an error line shows; longer ones are cut with "...".
MAX_FIELD = 120
MAX_MESSAGE = 600


def printable(text: str) -> str:
    """``text`` with control, format and other invisible characters (a newline, NUL, a
    right-to-left override, a lone surrogate from an undecodable file name) written as
    escapes, so that one error stays one line and shows what is really there.

    >>> printable("a\\nb\\u202ec")
    'a\\\\nb\\\\u202ec'
    """
    if text.isprintable():
        return text
    out = []
    for ch in text:
        if ch.isprintable() or ch == " ":
            out.append(ch)
        elif unicodedata.category(ch) == "Zs":
            out.append(" ")
        else:
            out.append(ch.encode("unicode_escape", "backslashreplace").decode("ascii")
                       if ord(ch) < 0xD800 or ord(ch) > 0xDFFF else f"\\udc{ord(ch) & 0xff:02x}")
    return "".join(out)


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


class JudgeError(Exception):
    """Base class of every error that wixoss-judge reports to a user."""


class FieldError(JudgeError):
    """A field of a data file holds something the engine cannot use.

    ``field`` is the dotted path of the field (``steps[2].op``); ``valid`` lists the accepted
    values when there is a closed set of them.
    """

    def __init__(self, field: str, message: str, valid: tuple[str, ...] | list[str] = ()) -> None:
        self.field = field
        self.message = message
        self.valid = tuple(valid)
        super().__init__(self.text())

    def text(self) -> str:
        field = _cut(printable(self.field), MAX_FIELD)
        message = _cut(printable(self.message), MAX_MESSAGE)
        out = f"{field}: {message}" if field else message
        if self.valid:
            shown = ", ".join(self.valid[:24])
            if len(self.valid) > 24:
                shown += ", ..."
            out += f" (valid: {shown})"
        return out


def unknown_field(where: str, key: str, allowed: tuple[str, ...] | list[str]) -> FieldError:
    """The error for a key that the table ``where`` does not have: names the closest field
    it has ("did you mean ...?") and every field it has."""
    from difflib import get_close_matches  # here: only a mistake needs it

    close = get_close_matches(key, list(allowed), n=1, cutoff=0.75) if isinstance(key, str) \
        else []
    hint = f" (did you mean `{close[0]}`?)" if close else ""
    return FieldError(f"{where}.{key}" if where else str(key), f"unknown field{hint}", allowed)


class FormatWarning(NamedTuple):
    """Something a ruling file should change, which does not stop it from being read (a file
    of an older format, a field read for the last versions before it is refused): shown as
    ``path:line: field: message`` by ``judge check``, never a failure. (A named tuple, not a
    dataclass: ``dataclasses`` imports ``inspect``, a tenth of a fresh ``judge search``.)"""

    path: str
    line: int
    field: str
    message: str

    def __str__(self) -> str:
        text = _cut(printable(self.message), MAX_MESSAGE)
        return f"{printable(self.path)}:{self.line}: {self.field}: {text}" if self.field \
            else f"{printable(self.path)}:{self.line}: {text}"


class ScenarioError(JudgeError):
    """A ruling file that cannot be used, located at ``path:line``."""

    def __init__(self, path: str, line: int, error: FieldError) -> None:
        self.path = path
        self.line = line
        self.error = error
        super().__init__(f"{printable(path)}:{line}: {error.text()}")


class DataError(ScenarioError):
    """A shared data file (``data/rulesets.toml``, ``data/glossary.toml``, a card file), not a
    ruling, that cannot be used."""


class ManyErrors(JudgeError):
    """Several files that cannot be used, each reported on its own line."""

    def __init__(self, errors: list[JudgeError]) -> None:
        self.errors = tuple(errors)
        super().__init__("\n".join(str(e) for e in self.errors))


class EngineError(JudgeError):
    """The engine reached a state its rules do not allow (a bug or an impossible set-up)."""


class IllegalAction(JudgeError):
    """A game action that the rules forbid. ``reason`` is a short stable code."""

    def __init__(self, reason: str, message: str) -> None:
        self.reason = reason
        super().__init__(f"{reason}: {message}")
