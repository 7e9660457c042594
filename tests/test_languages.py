"""Nothing in the wrong language: every visible string of a built page is in the page's language.

The whole corpus is built once; every page of every language tree is read as a browser shows
it (text, and the ``title``, ``aria-label``, ``placeholder`` and ``alt`` attributes; not scripts,
styles or the head but its title). Text inside an element that declares another language
(``lang="ja"`` on the glossary's three names, on a fallback text shown with its "not yet
translated" notice, on the language switcher) is that language's, and card names quoted in
《》 are proper names; everything else must be in the page's language:

- a Japanese or Chinese page holds no English word (Latin letters, three or more, no digit)
  outside :data:`ALLOWED_LATIN`, so an English sentence or label left untranslated fails;
- an English page holds no kana or Han character;
- a Chinese page holds no kana (Japanese text left untranslated).

Code-like tokens (``S1``, ``2014-04``, ``wixoss.81.la``: anything with a digit, a dot or
``#``) are not words of a language; the boards' test checks that no internal id is shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from judge.langs import LANGS
from judge.paths import project_root
from judge.site.build import build_site

#: The Latin words and phrases a Japanese or Chinese page may show, each with why: proper
#: names, and the ids and commands a reader sees as such. Everything else in Latin letters is
#: an untranslated English word. (The one place these exceptions are listed.)
ALLOWED_LATIN: dict[str, str] = {
    "WIXOSS TCG Wiki": "the name of a fan wiki (a source)",
    "TCG Wiki": "that wiki's short name",
    "Wiki": "written in Latin letters in Japanese and Chinese too (Wikiページ, 中文wiki)",
    "wiki": "the same, in lower case",
    "WIXOSS": "the game's name",
    "Twitter": "the service the official account wrote on",
    "TAKARA TOMY": "the publisher's name as Chinese pages write it",
    "DIVA": "the name of a play format (DIVA環境, DIVA环境)",
    "key环境": "the Key Selection format as Chinese players write it",
    "BET": "a keyword as Chinese cards print it (赌币（BET）)",
    "judge coverage": "the name of the command that prints the coverage table",
    "JavaScript": "the name of the language the search page needs",
    "judge db": "the name of the command that writes the database (the downloads)",
    "SQLite": "the name of the database format offered for download",
    "JSON API": "the name of the static API offered for download",
    "JSON": "the name of a file format, written so in Japanese and Chinese too",
    "gzip": "the name of the compression the downloads use (and of Python's module for it)",
    "gunzip": "the name of the command that decompresses the downloads",
    "Python": "the name of the language whose gzip module opens the downloads",
}
_ALLOWED_PHRASES = re.compile("|".join(
    rf"(?<![A-Za-z0-9_.#/\-]){re.escape(p)}(?![A-Za-z0-9_.#/\-])"
    for p in sorted(ALLOWED_LATIN, key=len, reverse=True)))
#: A word of Latin letters: three or more, with no digit, dot, #, / or - touching it (those
#: make ids, addresses and labels). Japanese and Chinese do not separate words by spaces, so
#: only ASCII characters count as touching.
LATIN_WORD = re.compile(r"(?<![A-Za-z0-9_.#/\-])[A-Za-z][A-Za-z'’]{2,}(?![A-Za-z0-9_.#/\-])")
KANA_RUN = re.compile(r"\S*[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9f]\S*")
CJK_RUN = re.compile(r"\S*[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]\S*")
#: Proper names an English page may quote in Japanese: card names in 《》, and the one-character
#: ability icons printed on cards (【自】, 【常】, 【起】, 【出】).
QUOTED_NAME = re.compile(r"《[^》]*》|【[自常起出]】")
VISIBLE_ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
SKIPPED = frozenset({"script", "style", "template",
                     # code: ids and commands (the coverage page's item ids); the boards'
                     # test checks that no ruling text or sentence shows one
                     "code", "kbd", "samp", "pre"})
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr", "use", "path", "rect", "line", "circle"})


class Visible(HTMLParser):
    """The visible strings of a page, each with the language it is declared to be in."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[tuple[str, str, bool]] = []  # (tag, lang, skipped)
        self.strings: list[tuple[str, str]] = []  # (text, lang)
        self.in_head = False

    @property
    def lang(self) -> str:
        return self.stack[-1][1] if self.stack else ""

    @property
    def skipped(self) -> bool:
        return bool(self.stack) and self.stack[-1][2]

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        lang = values.get("lang") or self.lang
        skipped = self.skipped or tag in SKIPPED or (self.in_head and tag != "title")
        if tag == "head":
            self.in_head = True
        if not skipped:
            for name in VISIBLE_ATTRIBUTES:
                if values.get(name):
                    self.strings.append((values[name] or "", lang))
        if tag not in VOID and not tag.endswith("/"):
            self.stack.append((tag, lang, skipped))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if not self.skipped:
            for name in VISIBLE_ATTRIBUTES:
                if values.get(name):
                    self.strings.append((values[name] or "", values.get("lang") or self.lang))

    def handle_endtag(self, tag: str) -> None:
        if tag == "head":
            self.in_head = False
        for i in range(len(self.stack) - 1, -1, -1):
            if self.stack[i][0] == tag:
                del self.stack[i:]
                break

    def handle_data(self, data: str) -> None:
        if data.strip() and not self.skipped:
            self.strings.append((data, self.lang))


def visible_strings(page: str) -> list[tuple[str, str]]:
    parser = Visible()
    parser.feed(page)
    return parser.strings


def wrong_language(text: str, lang: str) -> list[str]:
    """The parts of ``text``, shown on a page in ``lang``, that are in another language."""
    text = QUOTED_NAME.sub(" ", text)
    if lang == "en":
        return CJK_RUN.findall(text)
    found = LATIN_WORD.findall(_ALLOWED_PHRASES.sub(" ", text))
    if lang == "zh-Hans":
        found += KANA_RUN.findall(text)
    return found


def pages(site: Path, lang: str) -> Iterator[Path]:
    yield from sorted(p for p in (site / lang).rglob("*.html") if "pagefind" not in p.parts)


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("languages") / "site"
    build_site(out, root=project_root())
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_no_page_shows_another_language(built: Path, lang: str) -> None:
    problems: dict[str, set[str]] = {}
    for path in pages(built, lang):
        for text, declared in visible_strings(path.read_text(encoding="utf-8")):
            if declared != lang:
                continue
            for word in wrong_language(text, lang):
                problems.setdefault(word, set()).add(str(path.relative_to(built)))
    report = [f"{word!r} on {len(where)} page(s), e.g. {sorted(where)[0]}"
              for word, where in sorted(problems.items(), key=lambda kv: -len(kv[1]))]
    assert not report, f"{len(report)} strings in another language:\n" + "\n".join(report[:60])


def test_the_heuristic_sees_what_it_must() -> None:
    """Each rule on made-up pages: what must fail and what must pass."""
    def found(page: str, lang: str) -> list[str]:
        return [w for text, declared in visible_strings(page) if declared == lang
                for w in wrong_language(text, lang)]

    ja = '<html lang="ja"><body><p>リフレッシュ（Engine reading: the rest）</p></body></html>'
    assert found(ja, "ja") == ["Engine", "reading", "the", "rest"]
    assert found('<html lang="ja"><p>S1と《THREE OUT》、wixoss.81.la、2014-04、WIXOSS</p>',
                 "ja") == []
    assert found('<html lang="ja"><p>WIXOSS TCG Wiki「間違えやすいルール」、TCG の Wikis</p>',
                 "ja") == ["TCG", "Wikis"]
    assert found('<html lang="ja"><p>未翻訳のrefreshがある</p>', "ja") == ["refresh"]
    assert found('<html lang="ja"><p><span lang="en">refresh</span> (community)</p>',
                 "ja") == ["community"]
    assert found('<html lang="en"><p>Refresh (リフレッシュ) <span lang="ja">重构</span></p>',
                 "en") == ["(リフレッシュ)"]
    assert found('<html lang="en"><p title="ルール">x</p><p>《リフレッシュ・エンド》</p>',
                 "en") == ["ルール"]
    assert found('<html lang="zh-Hans"><p>重构（デッキ切れ） community</p>', "zh-Hans") == \
        ["community", "重构（デッキ切れ）"]
    assert found('<html lang="en"><p>a triggered ability (【自】), <code>自</code></p>',
                 "en") == []
    assert found('<html lang="zh-Hans"><script>var x = "english words";</script>'
                 '<p>重构</p></html>', "zh-Hans") == []
