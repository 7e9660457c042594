"""What a text of the corpus may hold: the one rule for ruling texts and glossary texts.

A ruling's title, question, answer and explanation, and a glossary term's names, aliases and
definition are shown on pages, stored in the database and indexed for search. So each one:

- is not blank: a blank title is a link nobody can see, a blank translation hides the
  Japanese text a page would otherwise fall back to, a blank name matches every space;
- holds no control character but tab, line feed and carriage return (U+0000 to U+001F and
  U+007F to U+009F): TOML lets ``"\\u0000"`` through, and a NUL would reach the HTML as it is;
- has at most :data:`judge.limits.MAX_TEXT_CHARS` characters, the bound under which
  rendering it as Markdown stays within a fixed multiple of rendering plain text
  (docs/limits.md, ``benchmarks/render.py``).

>>> text_problem("ok"), text_problem("  "), text_problem("a\\x00b")[:40]
('', 'blank (write the text, or leave the field out)', 'holds the control character U+0000 at ch')
"""

from __future__ import annotations

import re
from typing import Any

from judge.errors import FieldError
from judge.ids import quote
from judge.limits import MAX_TEXT_CHARS

#: The control characters no text may hold (tab, line feed and carriage return may be).
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]")
ALLOWED_CONTROLS = "tab, line feed and carriage return"


def text_problem(text: str, limit: int = MAX_TEXT_CHARS) -> str:
    """What is wrong with ``text`` (empty when nothing is)."""
    if len(text) > limit:
        return (f"{len(text)} characters, more than the limit of {limit} for one text "
                "(docs/limits.md)")
    if not text.strip():
        return "blank (write the text, or leave the field out)"
    found = CONTROL.search(text)
    if found is not None:
        return (f"holds the control character U+{ord(found.group()):04X} at character "
                f"{found.start() + 1} (a text may hold no control character but "
                f"{ALLOWED_CONTROLS})")
    return ""


def check_text(value: Any, where: str) -> str:
    """``value`` if it is a text that :func:`text_problem` finds nothing wrong with; a
    :class:`~judge.errors.FieldError` naming ``where`` otherwise."""
    if not isinstance(value, str):
        raise FieldError(where, f"expected text, got {quote(value)}")
    problem = text_problem(value)
    if problem:
        raise FieldError(where, problem)
    return value
