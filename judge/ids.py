"""The one pattern of every id that becomes part of a path or an address.

A ruling id, a tag, a topic (a folder under ``rulings/``), a rule set id, a card id and a
glossary term id all end up in file names of the site, in URLs and in the database, so they
share one pattern: lowercase ASCII letters and digits in groups joined by single hyphens, at
most :data:`MAX_ID_LENGTH` characters, checked with a *full* match (``re.match("^...$")`` would
let a trailing newline through, and ``\\d`` accepts full-width and other Unicode digits).

>>> is_id("refresh-after-mill"), is_id("2014-04"), is_id("x\\n"), is_id("../x"), is_id("x１")
(True, True, False, False, False)

A card *label* (``d1``, ``S-lancer``) names a card within one ruling only; it never becomes a
path, but it is shown on pages, so it is plain ASCII too:

>>> is_label("d1"), is_label("<b>x"), is_label("\\u200bx")
(True, False, False)
"""

from __future__ import annotations

import datetime
import re

from judge.errors import FieldError
from judge.limits import MAX_QUOTED

#: Longest id (a permalink stays readable).
MAX_ID_LENGTH = 64
#: Longest card label.
MAX_LABEL_LENGTH = 32

ID_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*", re.ASCII)
LABEL_RE = re.compile(r"[A-Za-z][A-Za-z0-9_\-]*", re.ASCII)
#: Dates of sources and rule sets: ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``, ASCII digits.
DATE_RE = re.compile(r"[0-9]{4}(?:-[0-9]{2}(?:-[0-9]{2})?)?", re.ASCII)

ID_RULE = "lowercase a-z and 0-9 in groups joined by single hyphens, at most 64 characters"
LABEL_RULE = "ASCII letters, digits, - and _, starting with a letter, at most 32 characters"


def quote(value: object, limit: int = MAX_QUOTED) -> str:
    """``repr(value)``, cut to about ``limit`` characters so an error line stays one line.

    >>> quote("x" * 100)[:8], len(quote("x" * 100)) < 90
    ("'xxxxxxx", True)
    """
    text = repr(value)
    if len(text) <= limit:
        return text
    return f"{text[:limit]}... ({len(text)} characters)"


def is_id(value: object) -> bool:
    return (isinstance(value, str) and len(value) <= MAX_ID_LENGTH
            and ID_RE.fullmatch(value) is not None)


def is_label(value: object) -> bool:
    return (isinstance(value, str) and len(value) <= MAX_LABEL_LENGTH
            and LABEL_RE.fullmatch(value) is not None)


def is_date(value: object) -> bool:
    """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` naming a real month and day.

    >>> is_date("2014-07-01"), is_date("2014"), is_date("2020-13-45"), is_date("2021-02-29")
    (True, True, False, False)
    """
    if not isinstance(value, str) or DATE_RE.fullmatch(value) is None:
        return False
    parts = [int(p) for p in value.split("-")]
    if len(parts) >= 2 and not 1 <= parts[1] <= 12:
        return False
    if len(parts) == 3:
        try:
            datetime.date(*parts)
        except ValueError:
            return False
    return True


def check_id(value: object, where: str, what: str = "id") -> str:
    """``value`` if it is an id; otherwise a :class:`FieldError` at ``where``."""
    if not isinstance(value, str):
        raise FieldError(where, f"expected a {what} as text, got {quote(value)}")
    if not is_id(value):
        raise FieldError(where, f"{quote(value)} is not a valid {what} ({ID_RULE})")
    return value
