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

Rendering time grows with a text's length, never with its square (issue 25). Python-Markdown's
link patterns (``[text](address)``, ``[text][ref]``, ``[ref]``, and their ``![image]`` forms)
look for the bracket or parenthesis that closes each ``[`` and ``(`` by walking the rest of the
block, again after every link they replace: an answer of ``[a](`` written 8,000 times took over
a minute, 8,000 reference links almost five. Here they are replaced (:class:`_Link` and its
kin) by the same patterns with a bounded search: a link's text holds at most
:data:`MAX_LINK_BRACKETS` brackets and its address at most as many parentheses; past that the
bracket is shown as written. What Python-Markdown and the standard library's HTML parser still
do in more than linear time is bounded by the length of one text
(:data:`judge.limits.MAX_TEXT_CHARS`, checked by ``judge check``); ``benchmarks/render.py``
measures both (docs/limits.md).
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
from markdown.htmlparser import HTMLExtractor
from markdown.inlinepatterns import (
    ImageInlineProcessor,
    ImageReferenceInlineProcessor,
    InlineProcessor,
    LinkInlineProcessor,
    ReferenceInlineProcessor,
    ShortImageReferenceInlineProcessor,
    ShortReferenceInlineProcessor,
)
from markdown.preprocessors import HtmlBlockPreprocessor
from markdown.util import AtomicString

from judge.sources import MARK_RE, has_interpretation

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


#: Brackets a link's text (``[...]``) may hold, and parentheses its address (``(...)``), the
#: closing one included: the search for the closing one stops there, so that it costs a
#: bounded number of steps per ``[`` whatever follows (eight nested or successive pairs).
MAX_LINK_BRACKETS = 17
#: (the next bracket, the closing one when no other comes first)
_BRACKETS = (re.compile(r"[\[\]]"), re.compile(r"[^\[\]]*+\]"))
_PARENS = (re.compile(r"[()]"), re.compile(r"[^()]*+\)"))


class _Found:
    """What :func:`closing` found in the text it was last asked about: the link patterns
    (reference, link, short reference) ask about each ``[`` of a text in turn, and while
    none of them replaces anything the text is the same object."""

    text: str | None = None
    ends: dict[tuple[int, str], int | None] = {}


def closing(data: str, index: int, marks: tuple[re.Pattern[str], re.Pattern[str]] = _BRACKETS,
            limit: int = MAX_LINK_BRACKETS) -> int | None:
    """The index just past the bracket that closes the one opened just before ``index``, or
    None when it does not close within ``limit`` brackets (a nested pair counts two)."""
    next_mark, plain = marks
    simple = plain.match(data, index)
    if simple is not None:  # no other bracket first: the usual case
        return simple.end()
    if _Found.text is not data:
        _Found.text, _Found.ends = data, {}
    key = (index, next_mark.pattern)
    if key in _Found.ends:
        return _Found.ends[key]
    depth = 1
    pos = index
    end: int | None = None
    for _ in range(limit):
        found = next_mark.search(data, pos)
        if found is None:
            break
        depth += 1 if found.group() in "[(" else -1
        pos = found.end()
        if depth == 0:
            end = pos
            break
    _Found.ends[key] = end
    return end


class _Bounded(LinkInlineProcessor):  # type: ignore[misc]  # markdown is untyped
    """Python-Markdown's link text and address, found with :func:`closing` (the rest of its
    link handling as it is)."""

    def getText(self, data: str, index: int) -> tuple[str, int, bool]:  # noqa: N802
        end = closing(data, index)
        if end is None:
            return "", len(data), False
        return data[index:end - 1], end, True

    def getLink(self, data: str, index: int  # noqa: N802
                ) -> tuple[str, str | None, int, bool]:
        angled = self.RE_LINK.match(data, pos=index)
        if angled is None:  # no "(" here
            return "", None, index, False
        if angled.group(1):  # [text](<address> "title")
            title = angled.group(2)[1:-1] if angled.group(2) else None
            return self._cleaned(angled.group(1)[1:-1], title, angled.end(0))
        end = closing(data, angled.end(), _PARENS)
        if end is None:
            return "", None, index, False
        href, title = _split_title(data[angled.end():end - 1])
        return self._cleaned(href, title, end)

    def _cleaned(self, href: str, title: str | None, end: int
                 ) -> tuple[str, str | None, int, bool]:
        if title is not None:
            title = self.RE_TITLE_CLEAN.sub(" ", self.unescape(title.strip()))
        return self.unescape(href).strip(), title, end, True


def _split_title(inside: str) -> tuple[str, str | None]:
    """``address "title"`` (or ``'title'``) -> (address, title); a title starts at the first
    quote of the kind that ends the parentheses' text."""
    body = inside.rstrip()
    if len(body) >= 2 and body[-1] in "\"'":
        first = body.find(body[-1])
        if first < len(body) - 1:
            return body[:first], body[first + 1:-1]
    return inside, None


class _Link(_Bounded):
    pass


class _Image(_Bounded, ImageInlineProcessor):  # type: ignore[misc]
    pass


class _Reference(_Bounded, ReferenceInlineProcessor):  # type: ignore[misc]
    pass


class _ShortReference(_Bounded, ShortReferenceInlineProcessor):  # type: ignore[misc]
    pass


class _ImageReference(_Bounded, ImageReferenceInlineProcessor):  # type: ignore[misc]
    pass


class _ShortImageReference(_Bounded, ShortImageReferenceInlineProcessor):  # type: ignore[misc]
    pass


#: Python-Markdown's link patterns by name, with their priority, and what replaces each.
BOUNDED: dict[str, tuple[type[_Bounded], int]] = {
    "reference": (_Reference, 170), "link": (_Link, 160), "image_link": (_Image, 150),
    "image_reference": (_ImageReference, 140), "short_reference": (_ShortReference, 130),
    "short_image_ref": (_ShortImageReference, 125),
}


class _Extractor(HTMLExtractor):  # type: ignore[misc]
    """Python-Markdown's raw HTML finder, told at once that a ``<`` with no ``>`` after it
    starts no tag: the standard library's parser (Python 3.11, 3.12) reads the rest of the
    text to find that out, again for every such ``<``; ``<a `` written 8,000 times took 17 s."""

    _ends: tuple[str | None, int] = (None, -1)  # (the text, where its last ">" is)

    def parse_starttag(self, i: int) -> int:
        text, last = self._ends
        if text is not self.rawdata:
            text = self.rawdata
            last = text.rfind(">")
            self._ends = (text, last)
        if last < i:  # no tag can end: what the parser concludes after reading to the end
            self.handle_data(text[i:i + 1])
            return i + 1
        return int(super().parse_starttag(i))


class _HtmlBlocks(HtmlBlockPreprocessor):  # type: ignore[misc]
    def run(self, lines: list[str]) -> list[str]:
        parser = _Extractor(self.md)
        parser.feed("\n".join(lines))
        parser.close()
        return "".join(parser.cleandoc).split("\n")


class _Marks(markdown.Extension):  # type: ignore[misc]
    def extendMarkdown(self, md: markdown.Markdown) -> None:  # noqa: N802
        # before the reference and link patterns (170, 160), which would take the brackets
        md.inlinePatterns.register(_Interpretation(md), "interpretation", 175)
        for name, (bounded, priority) in BOUNDED.items():
            # the same pattern, in the same place (registering a name again replaces it)
            pattern = md.inlinePatterns[name].pattern
            md.inlinePatterns.register(bounded(pattern, md), name, priority)
        md.preprocessors.register(_HtmlBlocks(md), "html_block", 20)


@cache
def _markdown() -> markdown.Markdown:
    return markdown.Markdown(extensions=["tables", "sane_lists", _Marks()],
                             output_format="html")


#: What makes a text more than plain paragraphs to Markdown: a character of its inline syntax
#: (emphasis, code, links, raw HTML and entities, escapes, tables, the interpretation mark), or a
#: line that could open a block (a list, heading, quote, rule or indented code) or end in a line
#: break, or a character its whitespace handling rewrites.
_NOT_PLAIN = re.compile(r"[\\`*_\[\]{}<>&|#\x00-\x09\x0b-\x1f\x7f\x85\u2028\u2029]"
                        r"|^[\d\-+=>]|^[^\S\n]|[^\S\n]$", re.MULTILINE)


def plain_html(text: str) -> str | None:
    """The HTML Python-Markdown makes of ``text`` when it is plain paragraphs (lines of text
    without any of Markdown's syntax, paragraphs parted by one empty line): each paragraph as
    a ``<p>``, written directly; ``None`` for any other text. Most ruling texts are plain, and
    parsing them was a large part of a ruling page's time; ``tests/test_render.py`` checks
    that both give the same for every text this accepts."""
    body = text.strip("\n")
    if not body or "\n\n\n" in body or _NOT_PLAIN.search(body):
        return None
    return "\n".join(f"<p>{p}</p>" for p in body.split("\n\n"))


def render_markdown(text: str, *, allow_external: bool = False, interpretation: str = "") -> str:
    """Markdown -> sanitized HTML; ``interpretation`` is the label shown after each sentence
    marked as this project's interpretation (none when empty)."""
    plain = plain_html(text)
    if plain is None:
        return markdown_html(text, allow_external=allow_external, interpretation=interpretation)
    # plain paragraphs come out of the cleaner as they went in (no tag but ours, no ``&<>``),
    # but for a no-break space, which it writes ``&nbsp;``
    return sanitize(plain, allow_external=allow_external) if "\u00a0" in plain else plain


def markdown_html(text: str, *, allow_external: bool = False, interpretation: str = "") -> str:
    """:func:`render_markdown` through Python-Markdown and the cleaner, whatever the text."""
    md = _markdown()
    md.reset()
    marks = md.inlinePatterns["interpretation"]
    assert isinstance(marks, _Interpretation)
    marks.label = interpretation
    return sanitize(_CLASS_NOTATION.sub("&lt;", str(md.convert(text))),
                    allow_external=allow_external)


#: A ``<`` before a capital letter: a SIGNI class as English card texts write it
#: (``<Weapon>``, ``<Ancient Weapon>``), never a tag the allow-list keeps (they are lower case),
#: so it is text; as raw HTML it would be dropped by the sanitizer, class and all. (In a code
#: span Python-Markdown has already escaped it.)
_CLASS_NOTATION = re.compile(r"<(?=/?[A-Z])")


class RenderedTexts:
    """Each ruling text's HTML, rendered once per build and shown by every page that holds
    it (a ruling's page and the list of all rulings, in its own language and as the fallback
    of the others). The label of a marked interpretation is in the page's language, so a text
    with a mark is rendered once per label; any other, once. A build that streams its rulings
    keeps only the latest texts (the HTML of every text of 10,000 rulings in three languages
    is a quarter of a gigabyte), so the list of all rulings renders its answers again."""

    def __init__(self, keep: int = 0) -> None:
        """``keep``: how many texts to keep (the latest rendered; 0: all of them)."""
        self._html: dict[tuple[str, str], str] = {}
        self._keep = keep

    def html(self, text: str, interpretation: str = "") -> str:
        key = (text, interpretation if has_interpretation(text) else "")
        out = self._html.get(key)
        if out is None:
            out = self._html[key] = render_markdown(text, interpretation=key[1])
            if self._keep and len(self._html) > self._keep:
                del self._html[next(iter(self._html))]
        return out

    def __len__(self) -> int:
        return len(self._html)


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
            pieces.append(f'<a href="{html.escape(self.href[tid])}">'
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
