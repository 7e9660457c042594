"""Rendering ruling texts: the work grows with a text's length, and each text is rendered once.

Issue 25: texts that ``judge check`` passed stalled the build (``[a](`` written 8,000 times:
73 s; 8,000 reference links: 289 s for one render, each text rendered about four times).
How fast rendering is now is measured by ``benchmarks/render.py``; these tests count work
instead of timing it: the Python lines run while rendering (where the old link search spent
its time, one line per character it walked), and the characters the HTML parser is asked to
search for the end of a tag.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from types import FrameType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown import htmlparser

from judge.i18n import LANGS
from judge.paths import project_root
from judge.site import context, markup
from judge.site.context import SiteModel
from judge.site.load import load
from judge.site.markup import MAX_LINK_BRACKETS, render_markdown

FIXTURE = project_root() / "tests" / "fixtures" / "site_corpus"
WATCHED = (str(Path(markup.__file__).parent), str(Path(htmlparser.__file__).parent))


class TooMuchWork(Exception):
    pass


def lines_run(text: str, cap: int) -> int:
    """Python lines of judge.site and of Python-Markdown run to render ``text`` (stops with
    :class:`TooMuchWork` past ``cap``, so that a quadratic renderer fails fast)."""
    count = 0

    def local(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        nonlocal count
        if event == "line":
            count += 1
            if count > cap:
                raise TooMuchWork(f"more than {cap} lines")
        return local

    def outer(frame: FrameType, event: str, arg: Any) -> Callable[..., Any] | None:
        return local if frame.f_code.co_filename.startswith(WATCHED) else None

    render_markdown("warm up [a](b)")
    sys.settrace(outer)
    try:
        render_markdown(text)
    finally:
        sys.settrace(None)
    return count


def references(n: int) -> str:
    return " ".join(f"[l{i}][r{i}]" for i in range(n)) + "\n\n" + "\n".join(
        f"[r{i}]: ../x{i}/" for i in range(n))


HOSTILE: dict[str, Callable[[int], str]] = {
    "unclosed-link": lambda n: "[a](" * n,
    "reference-links": references,
    "unclosed-image": lambda n: "![a](" * n,
    "unclosed-bracket": lambda n: "[a " * n,
    "nested-unclosed": lambda n: "[[x] " * n,
    "parens-in-address": lambda n: "[a](" + "(a" * n,
}


@pytest.mark.parametrize("shape", HOSTILE)
def test_rendering_work_grows_with_the_length(shape: str) -> None:
    """Four times the text, about four times the lines run (a search that walks the rest of
    the text from every bracket runs sixteen times as many)."""
    small = lines_run(HOSTILE[shape](300), cap=2_000_000)
    large = lines_run(HOSTILE[shape](1200), cap=small * 7)
    assert large <= small * 6, (small, large)


@contextmanager
def tag_search() -> Iterator[list[int]]:
    """Characters the HTML parser reads looking for the end of a start tag."""
    searched = [0]
    parser = htmlparser.htmlparser.HTMLParser
    original = parser.check_for_whole_start_tag

    def counting(self: Any, i: int) -> int:
        found = htmlparser.htmlparser.locatestarttagend_tolerant.match(self.rawdata, i)
        searched[0] += found.end() - i if found else 0
        return int(original(self, i))

    parser.check_for_whole_start_tag = counting
    try:
        yield searched
    finally:
        parser.check_for_whole_start_tag = original


@pytest.mark.parametrize("text", ["<a " * 2000, "x <b>bold</b> " + "<a " * 2000,
                                  "<ruby>x<rt>y</rt></ruby> <i " * 1000])
def test_a_tag_that_cannot_end_is_not_searched_to_the_end(text: str) -> None:
    with tag_search() as searched:
        render_markdown(text)
    assert searched[0] <= 4 * len(text), (searched[0], len(text))


def test_raw_html_still_renders() -> None:
    with tag_search() as searched:
        out = render_markdown("a <kbd>k</kbd> and <ruby>字<rt>じ</rt></ruby> 1 < 2")
    assert "<kbd>k</kbd>" in out and "<ruby>字<rt>じ</rt></ruby>" in out and "1 &lt; 2" in out
    assert searched[0] > 0


@pytest.mark.parametrize(("text", "html"), [
    ("[a](../x/)", '<a href="../x/" rel="noopener">a</a>'),
    ('[a](../x/ "the title")', '<a href="../x/" title="the title" rel="noopener">a</a>'),
    ("[a [b] c](../x/)", '<a href="../x/" rel="noopener">a [b] c</a>'),
    ('[a](<../x/> "t")', '<a href="../x/" title="t" rel="noopener">a</a>'),
    ("[a][r]\n\n[r]: ../y/", '<a href="../y/" rel="noopener">a</a>'),
    ("[r]\n\n[r]: ../y/", '<a href="../y/" rel="noopener">r</a>'),
    ("[a](https://e.org/w_(y))", '<a href="https://e.org/w_(y)" rel="noopener">a</a>'),
    ("[a" + "[b]" * (MAX_LINK_BRACKETS // 2 - 1) + "](../x/)", '<a href="../x/"'),
])
def test_links_render(text: str, html: str) -> None:
    assert html in render_markdown(text, allow_external=True)


def test_a_link_text_past_the_bound_is_shown_as_written() -> None:
    text = "[a" + "[b]" * (MAX_LINK_BRACKETS // 2 + 1) + "](../x/)"
    out = render_markdown(text)
    assert "<a " not in out and "](../x/)" in out


def test_each_text_is_rendered_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every page of every language built from the model: each text (or, for a text with a
    marked interpretation, each text and label) is rendered once."""
    rendered: list[tuple[str, str]] = []
    original = markup.render_markdown

    def counting(text: str, **options: Any) -> str:
        rendered.append((text, options.get("interpretation", "")))
        return original(text, **options)

    monkeypatch.setattr(markup, "render_markdown", counting)
    monkeypatch.setattr(context, "render_markdown", counting, raising=False)  # if imported
    model = SiteModel.build(load(FIXTURE))
    for spec in model.pages():
        for lang in LANGS:
            model.context(spec, lang)
    assert rendered, "no text rendered"
    assert len(rendered) == len(set(rendered)), [k for k in rendered if rendered.count(k) > 1][:3]
    texts = {t for data in model.site.rulings for name, by_lang in data.scenario.texts.items()
             if name != "title" for t in by_lang.values()}
    assert {t for t, _ in rendered} == texts


# ------------------------------------------------------------------ plain texts, written directly

def markdown_output(text: str) -> str:
    """What Python-Markdown itself makes of ``text`` (before sanitizing)."""
    md = markup._markdown()
    md.reset()
    return str(md.convert(text))


#: Characters of plain prose in the three languages, and the whitespace Markdown handles.
PROSE = "ab Z.,:;!?'\"()/%-=+1あ、。「」（）\u3000\u00a0\n"
#: ... with Markdown's syntax among them.
SYNTAX = PROSE + "*_`[]{}<>&|#\\\t\r1. - > ="


@given(st.one_of(st.text(PROSE, max_size=30), st.text(SYNTAX, max_size=30),
                 st.text(max_size=12)))
@settings(max_examples=500, deadline=None)
def test_a_plain_text_is_written_as_markdown_writes_it(text: str) -> None:
    """The direct way (``plain_html``) never differs from Python-Markdown for a text it
    accepts, nor the page's HTML from the cleaned Markdown; it declines every other text."""
    plain = markup.plain_html(text)
    if plain is not None:
        assert plain == markdown_output(text)
    assert render_markdown(text) == markup.markdown_html(text)


@pytest.mark.parametrize("text", ["One sentence.", "First line\nsecond line.",
                                  "A paragraph.\n\nAnother one.", "\nA text in newlines.\n\n",
                                  "相手のシグニ1体をバニッシュする。\n\n「効果」（注）"])
def test_plain_texts_take_the_direct_way(text: str) -> None:
    assert markup.plain_html(text) == markdown_output(text)


@pytest.mark.parametrize("text", ["**bold**", "a_b", "1. first", "- item", "# title",
                                  "> quote", "code:\n\n    indented", "line  \nbreak",
                                  "a & b", "[s]{.interpretation}", "a\n\n\nb", "x\n===",
                                  "\u3000indented", "a | b"])
def test_texts_with_markdown_are_left_to_markdown(text: str) -> None:
    assert markup.plain_html(text) is None


def test_the_project_texts_render_the_same_either_way() -> None:
    """Every text of the project's rulings gives the same HTML with the direct way as through
    Python-Markdown; most of them are plain."""
    from judge.corpus import load_corpus

    texts = {t for r in load_corpus(replay=False).rulings
             for field in r.scenario.texts.values() for t in field.values()}
    assert {t: render_markdown(t) for t in texts} == {t: markup.markdown_html(t) for t in texts}
    assert sum(markup.plain_html(t) is not None for t in texts) > len(texts) / 2
