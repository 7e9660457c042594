"""Line numbers for fields of a TOML file.

``tomllib`` gives values without positions, so this scans the text once and maps each dotted
field path (``steps[2].ops[0].op``) to the line where it is written. It understands table
headers, arrays of tables, dotted keys and items of multi-line arrays; anything else falls back
to the line of the nearest enclosing field, which is what an error message needs.
"""

from __future__ import annotations

import re

_HEADER = re.compile(r"^\s*(\[\[?)\s*([^\]]+?)\s*\]\]?\s*(#.*)?$")
_KEY = re.compile(r"^\s*((?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*')"
                  r"(?:\s*\.\s*(?:[A-Za-z0-9_\-]+|\"[^\"]*\"|'[^']*'))*)\s*=\s*(.*)$")

# a key inside an inline table; the look-behind makes it start only at a word's first
# character, so a long run of letters is scanned once instead of once per letter
_INNER_KEY = re.compile(r"(?<![A-Za-z0-9_\-])([A-Za-z0-9_\-]+)\s*=")
_KEY_PART = re.compile(r"\"[^\"]*\"|'[^']*'|[A-Za-z0-9_\-]+")
_BARE_KEY = re.compile(r"[A-Za-z0-9_\-]+")


def _split_key(key: str) -> list[str]:
    if _BARE_KEY.fullmatch(key):  # the common case: one bare key
        return [key]
    return [p.strip("\"'") for p in _KEY_PART.findall(key)]


def _join(parts: list[str]) -> str:
    out = ""
    for part in parts:
        if part.startswith("["):
            out += part
        else:
            out += ("." if out else "") + part
    return out


def _top_level_items(text: str) -> int:
    """How many array items start on this line (commas and braces at depth 0)."""
    items, depth, quote, fresh = 0, 0, "", True
    for ch in text:
        if quote:
            if ch == quote:
                quote = ""
            continue
        if ch in "\"'":
            quote = ch
            if depth == 0 and fresh:
                items, fresh = items + 1, False
            continue
        if ch in "{[":
            if depth == 0 and fresh:
                items, fresh = items + 1, False
            depth += 1
        elif ch in "}]":
            depth -= 1
        elif ch == "," and depth == 0:
            fresh = True
        elif ch == "#" and depth == 0:
            break
        elif not ch.isspace() and depth == 0 and fresh:
            items, fresh = items + 1, False
    return items


class LineIndex:
    """Maps field paths to 1-based line numbers. The text is scanned when a line is first
    asked for (a data file that holds no error is never scanned)."""

    def __init__(self, text: str) -> None:
        self._text: str | None = text
        self._lines: dict[str, int] = {}

    @property
    def lines(self) -> dict[str, int]:
        """Field path -> line, for every field the scan found."""
        if self._text is not None:
            text, self._text = self._text, None
            self._scan(text)
        return self._lines

    def _scan(self, text: str) -> None:
        lines = self._lines
        counters: dict[str, int] = {}
        prefix: list[str] = []
        array_path: str | None = None
        array_item = 0
        depth = 0
        for number, line in enumerate(text.splitlines(), start=1):
            stripped = line.strip()
            if not stripped or stripped[0] == "#":
                continue
            if array_path is not None and depth > 0:
                if stripped.startswith(("{", "\"", "'")) or stripped[:1].isdigit():
                    lines.setdefault(f"{array_path}[{array_item}]", number)
                    self._inline(f"{array_path}[{array_item}]", stripped, number)
                    array_item += _top_level_items(stripped)
                depth += stripped.count("[") - stripped.count("]")
                if depth <= 0:
                    array_path = None
                continue
            # a key line has "="; a header line starts with "[" (both patterns begin with
            # \s*, and str.strip drops the same white space): most lines need one match
            key = _KEY.match(line) if "=" in stripped else None
            if key is None:
                header = _HEADER.match(line) if stripped[0] == "[" else None
                if header is None:
                    continue
                parts = _split_key(header.group(2))
                if header.group(1) == "[[":
                    path = self._resolve(parts[:-1], counters)
                    path = f"{path}.{parts[-1]}" if path else parts[-1]
                    lines.setdefault(path, number)  # the array itself: its first item
                    count = counters.get(path, -1) + 1
                    counters[path] = count
                    path = f"{path}[{count}]"
                else:
                    path = self._resolve(parts, counters)
                prefix = [path]
                lines.setdefault(path, number)
                continue
            path = _join(prefix + _split_key(key.group(1)))
            lines.setdefault(path, number)
            value = key.group(2).strip()
            self._inline(path, value, number)
            if value.startswith("["):
                depth = value.count("[") - value.count("]")
                if depth > 0:
                    array_path, array_item = path, 0

    def _resolve(self, parts: list[str], counters: dict[str, int]) -> str:
        """A header like ``[expect.zones.p1]`` inside ``[[expect]]`` refers to its last item."""
        path = ""
        for part in parts:
            path = f"{path}.{part}" if path else part
            if path in counters:
                path = f"{path}[{counters[path]}]"
        return path

    def _inline(self, path: str, value: str, number: int) -> None:
        lines = self._lines
        if "=" in value:  # an inner key is "NAME ="
            for inner in _INNER_KEY.finditer(value):
                lines.setdefault(f"{path}.{inner.group(1)}", number)
        if value.startswith("[") and "{" in value:
            for i in range(value.count("{")):
                lines.setdefault(f"{path}[{i}]", number)

    def line(self, field: str) -> int:
        """The line of ``field``, or of its nearest enclosing field that has one, or 1."""
        lines = self.lines
        path = field
        while path:
            if path in lines:
                return lines[path]
            cut = max(path.rfind("."), path.rfind("["))
            if cut <= 0:
                break
            path = path[:cut]
        return lines.get(path, 1)
