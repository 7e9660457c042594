"""Ruling texts: Markdown to HTML, sanitized, with glossary terms linked.

Ruling files are data that anyone may send in a pull request, so their Markdown is rendered by
Python-Markdown and then cleaned by nh3 with an allow-list: text formatting, lists, tables,
quotes and links; no script, style, event handler, frame, object, form or image, and no
``javascript:``/``data:`` URL. A link may point inside the site (a relative address) and, only
where the caller allows it, to an ``https://`` address outside, always with
``rel="noopener"``. Glossary terms are linked after cleaning, so the only markup this module
adds itself is its own links, and the mark of the project's interpretations:
``[a sentence]{.interpretation}`` (:data:`judge.sources.MARK_RE`) becomes
``<span class="interpretation">a sentence<small class="interp-label">LABEL</small></span>``,
the label in the page's language, the sentence's own Markdown (emphasis, links) kept.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any
from xml.etree import ElementTree

import markdown
import nh3
from markdown.inlinepatterns import InlineProcessor
from markdown.util import AtomicString

from judge.sources import MARK_RE

TAGS = frozenset({
    "p", "br", "em", "strong", "b", "i", "code", "pre", "ul", "ol", "li", "blockquote", "a",
    "hr", "table", "thead", "tbody", "tr", "th", "td", "sup", "sub", "del", "h3", "h4", "h5",
    "h6", "kbd", "small", "ruby", "rt", "rp", "span",
})
#: The only classes a text may carry: the interpretation mark and its label.
CLASSES: dict[str, set[str]] = {"span": {"interpretation"}, "small": {"interp-label"}}
ATTRIBUTES: dict[str, set[str]] = {"a": {"href", "title"}, "th": {"align"}, "td": {"align"},
                                   "ol": {"start"}}
#: Content removed together with the tag (everything else that is not allowed keeps its text).
DROP_WITH_CONTENT = frozenset({"script", "style", "iframe", "object", "embed", "template",
                               "noscript", "svg", "math", "textarea", "select", "frame",
                               "frameset", "applet"})
RELATIVE_HREF = re.compile(r"^(#[\w\-]*|(\.\.?/)*[\w\-.]+(/[\w\-.]*)*/?(#[\w\-]*)?|\.\.?/)$")
EXTERNAL_HREF = re.compile(r"^https://[^\s/?#\\]+\.[^\s/?#\\]+([/?#][^\s\\]*)?$")


def _filter(allow_external: bool) -> object:
    def attribute_filter(tag: str, attr: str, value: str) -> str | None:
        if tag == "a" and attr == "href":
            if RELATIVE_HREF.match(value) and not value.startswith("//"):
                return value
            if allow_external and EXTERNAL_HREF.match(value):
                return value
            return None
        return value
    return attribute_filter


def sanitize(fragment: str, *, allow_external: bool = False) -> str:
    """Clean an HTML fragment with the site's allow-list."""
    cleaned = str(nh3.clean(
        fragment, tags=set(TAGS), attributes={k: set(v) for k, v in ATTRIBUTES.items()},
        clean_content_tags=set(DROP_WITH_CONTENT), url_schemes={"https"},
        link_rel="noopener", strip_comments=True,
        allowed_classes={k: set(v) for k, v in CLASSES.items()},
        attribute_filter=_filter(allow_external)))  # type: ignore[arg-type]
    # a link whose address was refused keeps its text, not an empty <a>
    return re.sub(r'<a rel="noopener">(.*?)</a>', r"\1", cleaned, flags=re.S)


class _Interpretation(InlineProcessor):  # type: ignore[misc]  # markdown is untyped
    """``[sentence]{.interpretation}`` -> the marked sentence followed by its label."""

    def __init__(self, md: markdown.Markdown) -> None:
        super().__init__(MARK_RE.pattern, md)
        self.label = ""

    def handleMatch(self, m: re.Match[str], data: str) -> tuple[Any, int, int]:  # noqa: N802
        span = ElementTree.Element("span", {"class": "interpretation"})
        span.text = m.group(1) + " " if self.label else m.group(1)
        if self.label:
            small = ElementTree.SubElement(span, "small", {"class": "interp-label"})
            small.text = AtomicString(self.label)
        return span, m.start(0), m.end(0)


class _Marks(markdown.Extension):  # type: ignore[misc]
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802
        # before the reference and link patterns (170, 160), which would take the brackets
        md.inlinePatterns.register(_Interpretation(md), "interpretation", 175)


@cache
def _markdown() -> markdown.Markdown:
    return markdown.Markdown(extensions=["tables", "sane_lists", _Marks()],
                             output_format="html")


def render_markdown(text: str, *, allow_external: bool = False, interpretation: str = "") -> str:
    """Markdown -> sanitized HTML; ``interpretation`` is the label shown after each sentence
    marked as this project's interpretation (none when empty)."""
    md = _markdown()
    md.reset()
    marks = md.inlinePatterns["interpretation"]
    assert isinstance(marks, _Interpretation)
    marks.label = interpretation
    return sanitize(str(md.convert(text)), allow_external=allow_external)


# ---------------------------------------------------------------------------- term links


@dataclass(frozen=True)
class TermLinker:
    """Links the first mention of each term in each block (paragraph, list item, cell).

    ``names`` maps a term id to its name in the page's language; ``href`` gives the link of a
    term id. Latin names match whole words, case-insensitively, with an optional plural
    ending; Japanese and Chinese names match anywhere, longest first (so that ルリグトラッシュ
    is not taken for トラッシュ)."""

    names: Mapping[str, str]
    href: Mapping[str, str]

    @property
    def pattern(self) -> re.Pattern[str] | None:
        return _pattern(tuple(sorted(self.names.items())))

    def link(self, fragment: str) -> str:
        pattern = self.pattern
        if pattern is None:
            return fragment
        by_name = {_key(name): tid for tid, name in self.names.items()}
        out: list[str] = []
        linked: set[str] = set()
        skip = 0
        for token in re.split(r"(<[^>]*>)", fragment):
            if token.startswith("<"):
                name = re.match(r"</?\s*([a-zA-Z0-9]+)", token)
                tag = name.group(1).lower() if name else ""
                closing = token.startswith("</")
                if tag in ("a", "code", "pre", "kbd", "h3", "h4", "h5", "h6", "small"):
                    skip += -1 if closing else 1
                elif tag in ("p", "li", "td", "th", "blockquote", "dd") and not closing:
                    linked = set()
                out.append(token)
                continue
            if skip > 0 or not token:
                out.append(token)
                continue
            out.append(self._link_text(token, pattern, by_name, linked))
        return "".join(out)

    def _link_text(self, text: str, pattern: re.Pattern[str], by_name: Mapping[str, str],
                   linked: set[str]) -> str:
        pieces: list[str] = []
        at = 0
        for match in pattern.finditer(text):
            group = match.lastgroup
            tid = by_name.get(_key(match.group(group))) if group else None
            if tid is None or tid in linked or tid not in self.href:
                continue
            linked.add(tid)
            pieces.append(text[at:match.start()])
            pieces.append(f'<a class="term" href="{html.escape(self.href[tid])}">'
                          f"{match.group(0)}</a>")
            at = match.end()
        pieces.append(text[at:])
        return "".join(pieces)


def _key(name: str) -> str:
    return html.unescape(name).casefold()


def _is_latin(name: str) -> bool:
    return bool(re.fullmatch(r"[\x20-\x7e]+", name))


@cache
def _pattern(items: tuple[tuple[str, str], ...]) -> re.Pattern[str] | None:
    names = sorted({n for _, n in items if n}, key=lambda n: (-len(n), n))
    if not names:
        return None
    parts: list[str] = []
    for name in names:
        escaped = re.escape(html.escape(name, quote=False))
        if _is_latin(name):
            parts.append(rf"(?<![\w\-])(?P<n{len(parts)}>{escaped})(?:e?s)?(?![\w\-])")
        else:
            parts.append(f"(?P<n{len(parts)}>{escaped})")
    return re.compile("|".join(parts), re.IGNORECASE)
