"""What ``judge search`` prints: text lines or JSON, with nothing raw that a terminal obeys.

Every text printed (titles, snippets, the query as read, ids) goes through :func:`sanitize`:
control characters (C0, DEL, C1), format characters (bidirectional overrides and isolates
U+202A–U+202E and U+2066–U+2069, zero-width characters, soft hyphens...), line and paragraph
separators, surrogates and private-use characters become visible escapes (``\\x1b``,
``\\u202e``). The only escape sequences written are this module's own: bold for the matched
words, and only when standard output is a terminal; otherwise the matches are written between
``**`` marks.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge.search.engine import Hit, SearchResult

#: Unicode categories never printed raw: control, format, surrogate, private use, line and
#: paragraph separators.
UNSAFE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Zl", "Zp"})
BOLD, NORMAL = "\x1b[1m", "\x1b[22m"
MARK = "**"
KIND_NAMES = {"term": "glossary", "processing": "rule processing", "change": "rule change"}


def _escape(char: str) -> str:
    code = ord(char)
    if code < 0x100:
        return f"\\x{code:02x}"
    if code < 0x10000:
        return f"\\u{code:04x}"
    return f"\\U{code:08x}"


def sanitize(text: str) -> str:
    """``text`` with every character a terminal could obey (or hide) written as an escape."""
    if text.isascii() and text.isprintable():
        return text
    return "".join(_escape(c) if unicodedata.category(c) in UNSAFE_CATEGORIES else c
                   for c in text)


def _marked(hit: Hit, color: bool) -> str:
    start, end = (BOLD, NORMAL) if color else (MARK, MARK)
    out, pos = [], 0
    for s, e in hit.marks:
        out += [sanitize(hit.text[pos:s]), start, sanitize(hit.text[s:e]), end]
        pos = e
    out.append(sanitize(hit.text[pos:]))
    return "".join(out)


def heading(hit: Hit) -> str:
    """A result's first line after its number: the id, the rule sets as labels and, for a
    result that is not a ruling, what it is."""
    parts = [sanitize(hit.id)]
    if hit.rules:
        parts.append("[" + ", ".join(sanitize(r) for r in hit.rules) + "]")
    if hit.kind != "ruling":
        what = KIND_NAMES.get(hit.kind, hit.kind)
        parts.append(f"({what}, {sanitize(hit.label)})" if hit.label else f"({what})")
    return "  ".join(parts)


def iter_lines(result: SearchResult, *, color: bool = False) -> Iterator[str]:
    """The text output of ``judge search``; ``color``: bold matches (for a terminal)."""
    if result.corrections:
        yield "did you mean: " + sanitize(result.did_you_mean)
    for i, hit in enumerate(result.hits, 1):
        yield f"{i}. {heading(hit)}"
        yield f"   {sanitize(hit.title)}"
        if hit.text:
            yield f"   {_marked(hit, color)}"
    shown = len(result.hits)
    if result.total == 0:
        yield f"no result matches {sanitize(result.query)}"
        return
    noun = "result matches" if result.total == 1 else "results match"
    line = f"{result.total} {noun}"
    if result.words > 1 and result.complete < result.total:
        line += f", {result.complete} with every word"
    if shown < result.total:
        line += f" (showing {shown})"
    yield line


def dumps(result: SearchResult) -> str:
    """``--json``: the result as JSON, with the characters :func:`sanitize` escapes written as
    JSON escapes (still valid JSON, and the same text once parsed). ``json`` itself escapes
    the C0 controls inside strings; a raw newline is the indentation's."""
    text = json.dumps(result.to_dict(), ensure_ascii=False, indent=1)
    out = []
    for char in text:
        if char >= "\x7f" and unicodedata.category(char) in UNSAFE_CATEGORIES:
            units = _utf16(char) if ord(char) >= 0x10000 else (ord(char),)
            out.append("".join(f"\\u{u:04x}" for u in units))
        else:
            out.append(char)
    return "".join(out)


def _utf16(char: str) -> tuple[int, ...]:
    code = ord(char) - 0x10000
    return 0xD800 + (code >> 10), 0xDC00 + (code & 0x3FF)
