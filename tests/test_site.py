"""The static site: built from a three-ruling fixture corpus and from the real corpus.

Every page parses (balanced tags, one ``<html lang>``), exists in the three languages, links
only to pages and anchors that exist (and outside the site only from the sources), carries
reciprocal hreflang alternates and a language switcher. Builds are byte-identical and atomic.
"""

from __future__ import annotations

import hashlib
import html
import json
import posixpath
import re
import shutil
import threading
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from markupsafe import escape

from judge.cli import cli
from judge.corpus import load_corpus
from judge.coverage import CATEGORIES, compute
from judge.engine.rule_processing import KINDS as RULE_KINDS
from judge.i18n import LANGS, NATIVE_NAMES, gettext_for
from judge.narrate import RULE_KIND_NAMES
from judge.paths import project_root
from judge.site import build as build_module
from judge.site.board import FRAME_ID
from judge.site.build import BuildError, RulingsFailed, build_site
from judge.site.sections import Words
from judge.site.serve import start_server, watch
from judge.sources import load_sources, rests_on_official

FIXTURE = project_root() / "tests" / "fixtures" / "site_corpus"
#: The corpus of tests/test_coverage.py, whose replays go through phases and attack steps.
COVERAGE_FIXTURE = project_root() / "tests" / "fixtures" / "corpus"
#: The only addresses outside the site a page may link to: the registry's (data/sources.toml).
SOURCE_URLS = {d.url for d in load_sources().values() if d.url}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
#: Elements whose end tag HTML lets us leave out; the site always writes them, so none here.
OPTIONAL_END: set[str] = set()


# ---------------------------------------------------------------------------- parsing


@dataclass
class Page:
    path: str  # relative to the site root, e.g. "en/rulings/x/index.html"
    lang: str | None = None
    ids: set[str] = field(default_factory=set)
    links: list[tuple[str, str, bool]] = field(default_factory=list)  # (tag, url, in sources)
    alternates: dict[str, str] = field(default_factory=dict)
    switcher: dict[str, str] = field(default_factory=dict)  # label -> href
    current: list[str] = field(default_factory=list)  # the switcher's page language, unlinked
    errors: list[str] = field(default_factory=list)
    text: str = ""
    labelledby: list[str] = field(default_factory=list)  # ids named by aria-labelledby


class StrictParser(HTMLParser):
    """Collects ids and links and checks that every element is closed in order."""

    def __init__(self, page: Page) -> None:
        super().__init__(convert_charrefs=True)
        self.page = page
        self.stack: list[str] = []
        self.sources_depth: int | None = None
        self.langs_depth: int | None = None
        self.doctype = False
        self.in_svg = 0

    def handle_decl(self, decl: str) -> None:
        self.doctype = decl.lower() == "doctype html"

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._start(tag, dict(attrs))
        if tag not in VOID:
            self.stack.append(tag)
            if tag == "svg":
                self.in_svg += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in VOID and not self.in_svg:
            self.page.errors.append(f"self-closing <{tag}/> outside SVG")
        self._start(tag, dict(attrs))

    def _start(self, tag: str, attrs: dict[str, str | None]) -> None:
        page = self.page
        if tag == "html":
            if page.lang is not None:
                page.errors.append("two <html> elements")
            page.lang = attrs.get("lang") or ""
        if attrs.get("id"):
            ident = str(attrs["id"])
            if ident in page.ids:
                page.errors.append(f"duplicate id {ident}")
            page.ids.add(ident)
        page.labelledby += (attrs.get("aria-labelledby") or "").split()
        classes = (attrs.get("class") or "").split()
        if "sources" in classes and self.sources_depth is None:
            self.sources_depth = len(self.stack)
        if "langs" in classes and tag == "nav":
            self.langs_depth = len(self.stack)
        for key in ("href", "src", "action"):
            if attrs.get(key) is not None:
                url = str(attrs[key])
                page.links.append((tag, url, self.sources_depth is not None))
                if url.startswith("https://"):
                    if "noopener" not in (attrs.get("rel") or ""):
                        page.errors.append(f"external link without rel=noopener: {url}")
        if tag == "link" and attrs.get("rel") == "alternate":
            page.alternates[str(attrs.get("hreflang"))] = str(attrs.get("href"))
        if tag == "a" and self.langs_depth is not None:
            self._lang_link = str(attrs.get("href"))

    def handle_endtag(self, tag: str) -> None:
        if tag in VOID:
            self.page.errors.append(f"end tag for void element </{tag}>")
            return
        if not self.stack:
            self.page.errors.append(f"</{tag}> with nothing open")
            return
        top = self.stack.pop()
        if top != tag:
            self.page.errors.append(f"</{tag}> closes <{top}>")
            return
        if tag == "svg":
            self.in_svg -= 1
        depth = len(self.stack)
        if self.sources_depth is not None and depth <= self.sources_depth:
            self.sources_depth = None
        if self.langs_depth is not None and depth <= self.langs_depth:
            self.langs_depth = None

    def handle_data(self, data: str) -> None:
        self.page.text += data
        if self.langs_depth is not None and data.strip() and self.stack[-1:] == ["a"]:
            self.page.switcher[data.strip()] = self._lang_link
        if self.langs_depth is not None and data.strip() and self.stack[-1:] == ["b"]:
            self.page.current.append(data.strip())

    def close(self) -> None:
        super().close()
        if self.stack:
            self.page.errors.append(f"unclosed elements: {self.stack}")
        if not self.doctype:
            self.page.errors.append("no <!doctype html>")


_PARSED: dict[Path, dict[str, Page]] = {}


def parse_site(root: Path) -> dict[str, Page]:
    """Every page of a built site, parsed (once per site)."""
    if root in _PARSED:
        return _PARSED[root]
    pages = {}
    for path in sorted(root.rglob("*.html")):
        rel = path.relative_to(root).as_posix()
        page = Page(rel)
        parser = StrictParser(page)
        parser.feed(path.read_text(encoding="utf-8"))
        parser.close()
        pages[rel] = page
    _PARSED[root] = pages
    return pages


def resolve(page: str, url: str) -> tuple[str, str]:
    """A relative URL from ``page`` -> (site path of the target file, fragment)."""
    address, _, fragment = url.partition("#")
    address = address.partition("?")[0]
    if not address:
        return page, fragment
    base = posixpath.dirname(page)
    target = posixpath.normpath(posixpath.join(base, address))
    if address.endswith("/") or address in (".", "./"):
        target = posixpath.join(target, "index.html") if target != "." else "index.html"
    return target, fragment


def tree_digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


# ---------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="module")
def fixture_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fixture") / "site"
    build_site(out, root=FIXTURE)
    return out


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus") / "site"
    build_site(out, root=project_root())
    return out


@pytest.fixture(params=["fixture", "corpus"])
def site(request: pytest.FixtureRequest) -> Iterator[Path]:
    yield request.getfixturevalue(f"{request.param}_site")


# ---------------------------------------------------------------------------- structure


def test_a_list_of_rulings_writes_three_rule_sets_in_a_row_as_a_span() -> None:
    """Beside each title in a list of rulings: a run of three or more rule sets in the
    corpus's order as its first and last, in the page's language; the rest named one by
    one, as the ruling page's captions name them all."""
    rulesets = load_corpus(FIXTURE).rulesets
    ids = list(rulesets)
    assert ids[:4] == ["2014-04", "2014-07", "2014-09", "current"]
    en, ja, zh = (Words(lang, rule_sets=rulesets) for lang in ("en", "ja", "zh-Hans"))
    assert en.rule_span(ids[:4]) == "2014-04–current"
    assert ja.rule_span(ids[:4]) == "2014-04〜現行"
    assert zh.rule_span(ids[1:4]) == "2014-07至" + rulesets["current"].short_name("zh-Hans")
    assert en.rule_span(ids[2:4]) == "2014-09 · current" == en.rules(ids[2:4])
    assert en.rule_span(["2014-04", "2014-09", "current"]) == "2014-04 · 2014-09 · current"
    assert en.rule_span(["2014-04"]) == "2014-04" and en.rule_span([]) == ""


def test_pages_parse_strictly(site: Path) -> None:
    pages = parse_site(site)
    assert len(pages) > 20
    problems = {path: page.errors for path, page in pages.items() if page.errors}
    assert not problems, problems
    for path, page in pages.items():
        expected = path.split("/")[0] if "/" in path else "en"
        assert page.lang == expected, (path, page.lang)
        missing = set(page.labelledby) - page.ids
        assert not missing, f"{path}: aria-labelledby names no element: {missing}"


def test_every_page_exists_in_three_languages(site: Path) -> None:
    keys = {lang: {p.relative_to(site / lang).as_posix() for p in (site / lang).rglob("*.html")}
            for lang in LANGS}
    assert keys["ja"] == keys["en"] == keys["zh-Hans"]
    assert {"index.html", "glossary/index.html", "processing/index.html",
            "coverage/index.html", "timeline/index.html", "tags/index.html",
            "search/index.html", "rulings/index.html"} <= keys["en"]
    assert (site / "index.html").is_file() and (site / "assets" / "site.css").is_file()


def test_titles_name_the_page_once(fixture_site: Path) -> None:
    """A tab's title is the page's name and then the site's, never the site's name twice
    (the home page is named after the site)."""
    for path in sorted(fixture_site.rglob("*.html")):
        html = path.read_text(encoding="utf-8")
        title = html[html.index("<title>") + 7:html.index("</title>")]
        parts = title.split(" · ")
        assert title.strip() and len(parts) == len(set(parts)), (path, title)


def test_internal_links_and_anchors_resolve(site: Path) -> None:
    pages = parse_site(site)
    broken = []
    for path, page in pages.items():
        for _tag, url, in_sources in page.links:
            if url.startswith(("https://", "http://")):
                assert in_sources, f"{path}: external link outside the sources: {url}"
                assert url in SOURCE_URLS, f"{path}: {url} is no address of data/sources.toml"
                continue
            assert "://" not in url and not url.startswith(("//", "javascript:", "data:")), url
            target, fragment = resolve(path, url)
            if target.endswith(".html"):
                if target not in pages:
                    broken.append(f"{path}: {url} -> {target}")
                elif fragment and fragment not in pages[target].ids:
                    broken.append(f"{path}: {url} -> no #{fragment} in {target}")
            elif not (site / target).is_file():
                broken.append(f"{path}: {url} -> {target}")
    assert not broken, broken[:20]


def test_hreflang_alternates_are_reciprocal(site: Path) -> None:
    pages = parse_site(site)
    for path, page in pages.items():
        assert set(page.alternates) == {*LANGS, "x-default"}, path
        for lang in LANGS:
            target, _ = resolve(path, page.alternates[lang])
            assert target.startswith(f"{lang}/") or (path == "index.html"), (path, target)
            back, _ = resolve(target, pages[target].alternates[page.lang or "en"]) \
                if path != "index.html" else (path, "")
            if path != "index.html":
                assert back == path, (path, target, back)
        default, _ = resolve(path, page.alternates["x-default"])
        assert default in pages, (path, default)


def test_language_switcher_leads_to_the_same_page(site: Path) -> None:
    pages = parse_site(site)
    labels = {NATIVE_NAMES[lang]: lang for lang in LANGS}
    assert set(labels) == {"日本語", "English", "简体中文"}
    for path, page in pages.items():
        if path == "index.html":
            continue
        # the page's own language named (not linked), a link to each other one
        lang = path.split("/")[0]
        assert page.current == [NATIVE_NAMES[lang]], (path, page.current)
        assert set(page.switcher) == set(labels) - {NATIVE_NAMES[lang]}, (path, page.switcher)
        key = path.split("/", 1)[1]
        for label, href in page.switcher.items():
            target, _ = resolve(path, href)
            assert target == f"{labels[label]}/{key}", (path, label, target)


def test_search_box_on_every_page_and_search_page(fixture_site: Path) -> None:
    for path in fixture_site.glob("*/**/index.html"):
        text = path.read_text(encoding="utf-8")
        if path.parent.name == "search":  # the search page's own box instead of the header's
            assert text.count('type="search" name="q"') == 1 and 'class="find"' not in text
            continue
        # every other page: the header's link to the search page, which site.js makes a box
        assert text.count('<a class="find" href="') == 1 and 'type="search"' not in text, path
        target, _ = resolve(str(path.relative_to(fixture_site)),
                            text.split('<a class="find" href="')[1].split('"')[0])
        assert target == f"{path.relative_to(fixture_site).parts[0]}/search/index.html", path
    for lang in LANGS:
        text = (fixture_site / lang / "search" / "index.html").read_text(encoding="utf-8")
        assert 'id="search"' in text and f'data-lang="{lang}"' in text
        assert '<form class="search search-main" role="search" action="../rulings/"' in text
        # without JavaScript: straight to the list of every ruling with its answer
        assert '<noscript><meta http-equiv="refresh" content="0; url=../rulings/">' \
            '</noscript>' in text
        strings = json.loads(text.split('<script type="application/json" id="search-strings">'
                                        )[1].split("</script>")[0])
        assert {"ruleset", "more", "none", "count", "corrected", "kind_term"} <= set(strings)
        assert strings["ruleset"] == gettext_for(lang, "Rule set")
        assert '<link rel="stylesheet" href="../../assets/search.css">' in text
    home = read(fixture_site, "en", "")
    assert '<a class="find" href="search/">Search</a>' in home
    # one script on every page but the search page's own: assets/site.js, deferred
    assert "search.css" not in home and "search.js" not in home
    assert home.count("<script") == 1
    assert '<script src="../assets/site.js" defer></script>' in home


# ---------------------------------------------------------------------------- content


def read(site: Path, lang: str, key: str) -> str:
    return (site / lang / key / "index.html").read_text(encoding="utf-8")


def test_what_site_js_writes_into_a_page_is_in_the_script_once(fixture_site: Path) -> None:
    """The boards' legend, the rule-set chips' titles, the "Try it" button's label and the
    header's search box are written by site.js from one table in the site's copy of the
    script, in each language; a ruling page holds only their places."""
    script = (fixture_site / "assets" / "site.js").read_text(encoding="utf-8")
    found = re.search(r"var BOARD_WORDS\s*=\s*", script)
    assert found, "site.js without its table"
    table, _ = json.JSONDecoder().raw_decode(script, found.end())
    assert sorted(table) == sorted(LANGS)
    for lang, words in table.items():
        assert words["search"] == gettext_for(lang, "Search rulings"), lang
        assert words["try"] == gettext_for(lang, "Try it: edit and replay"), lang
        assert words["loading"] == gettext_for(lang, "Loading the engine…"), lang
        assert words["legend"]["on"] == gettext_for(lang, "On the boards:"), lang
        assert [m[1] for m in words["legend"]["marks"]][:3] == ["\u2193", "\u2744", "\u25b2"]
    assert table["en"]["rulesets"]["2014-07"] == "Refresh revision of 1 July 2014"
    assert table["ja"]["rulesets"]["2014-07"] != table["en"]["rulesets"]["2014-07"]
    assert table["en"]["size"].endswith("MB to download the first time)")
    en = read(fixture_site, "en", "rulings/fixture-mill-refresh")
    for words in ("On the boards", "Try it", "Search rulings", "Refresh revision"):
        assert words not in en, words
    assert '<p class="small legend"></p>' in en  # no mark beyond ↓ ❄ ▲ on its boards
    assert '<a class="find" href="../../search/">Search</a>' in en
    assert re.search(r'<button data-sandbox="rulings/refresh/fixture-mill-refresh.toml"'
                     r'[^>]* hidden></button>', en)


def test_the_scripts_are_published_without_their_comments(fixture_site: Path) -> None:
    """What the browser downloads is each script without comments and indentation (a first
    search loads search-engine.js and site.js): a third smaller, the same code."""
    from judge.site.build import published_script, site_assets

    scripts = [p for p in site_assets() if p.suffix == ".js"]
    assert {p.name for p in scripts} >= {"site.js", "search-engine.js", "search.js"}
    for source in scripts:
        text = source.read_text(encoding="utf-8")
        published = (fixture_site / "assets" / source.name).read_text(encoding="utf-8")
        assert len(published) < 0.8 * len(text), source.name
        assert not re.search(r"^\s*//|/\*\*", published, re.M), source.name
        if source.name != "site.js":  # site.js also gets the words of the pages
            assert published == published_script(text), source.name
    # comments go, strings stay: a "//" or "/*" inside a string is kept
    assert published_script('var a = "x // y /* z */"; // gone\n') == 'var a="x // y /* z */";'


def test_ruling_page_content(fixture_site: Path) -> None:
    en = read(fixture_site, "en", "rulings/fixture-mill-refresh")
    assert "<h2>Question</h2>" in en and "<h2>Answer</h2>" in en
    # the search reads the corpus, not the pages: no markup left for an HTML indexer
    assert "data-pagefind" not in en
    # sources from the registry: authority label, title, date, sections, link where public
    notice = "https://www.takaratomy.co.jp/products/wixoss/library/rule/140625/"
    assert f'<span class="auth auth-official">official</span> <a href="{notice}" ' \
           'rel="noopener">Takara Tomy: change to the deck refresh rule (from 1 July 2014)</a> ' \
           '<span class="date">2014-06-25</span>' in en
    assert '<span class="auth auth-official-quoted">official, as quoted</span> WIXOSS official ' \
           'Twitter: revision of the refresh rule (from 1 July 2014) <span class="date">' \
           '2014-06-20</span><br><span class="secs">§ after the revision: the refresh once one ' \
           'effect has resolved</span>' in en
    assert 'class="basis basis-official"' in en and "Rests on official text" in en
    # a table per group of rule sets: the answer changed in 2014-07
    assert "<caption>2014-04</caption>" in en
    assert "<caption>2014-07 · 2014-09 · current</caption>" in en
    ja = read(fixture_site, "ja", "rulings/fixture-mill-refresh")
    assert '<span class="auth auth-official-quoted">公式（引用）</span> WIXOSS公式Twitter' in ja
    # the replay: narrated steps and a board after each
    assert "Step 1: Player 1 resolves an effect" in en
    assert "The refresh puts l1 from Player 1&#39;s Life Cloth into their trash." in en
    boards = en.count('<svg class="board" ')
    # each named by its caption, or by its step's heading where a caption would repeat it
    named = re.findall(r'<svg class="board" [^>]*aria-labelledby="([^"]+)"', en)
    assert boards >= 3 and len(named) == boards
    for name in named:
        assert re.search(f'<(figcaption|h3) id="{name}">[^<]+</', en), name
    # the board after step 1 under the earlier rule sets: its caption was the heading
    assert '<h3 id="h1-1">Step 1: Player 1 resolves an effect</h3>' in en
    assert '<figcaption id="b1-1-1">' not in en and 'aria-labelledby="h1-1"' in en
    # what every board shares is drawn once, and each board shows it
    assert en.count(f'<g id="{FRAME_ID}" class="zn">') == 1
    assert en.count(f'<use href="#{FRAME_ID}-p') == boards
    assert "Player 1's main deck" not in en.split(f'id="{FRAME_ID}"', 1)[1].split("</svg>")[0]
    # the refresh is drawn at its key moment, marked against the board before
    assert "After the refresh of Player 1" in en and '<tspan class="nw">' in en
    assert "The same position as in the first replay above." in en
    # the glossary terms with their three names, the page's own without a lang of its own
    assert '<span lang="zh-Hans">重构</span>' in en and '<span lang="ja">リフレッシュ</span>' in en
    assert '<span lang="en">' not in en.split('<section id="terms">')[1].split("</section>")[0]
    assert '<span lang="ja">リフレッシュ</span> · refresh · <span lang="zh-Hans">' in en
    # related: linked (a related id that names no ruling is refused by the loader)
    assert 'href="../fixture-two-returners/"' in en
    assert "プレイヤー1のメインデッキ" in ja and "再現" in ja


def test_main_ruling_carries_its_terms_names_and_aliases(corpus_site: Path) -> None:
    """A term's main ruling names the term, its other names and its aliases in the page's
    language ("This ruling explains: ...")."""
    corpus = load_corpus(project_root(), replay=False)
    mains = {t.id: t for t in corpus.glossary.values() if t.main}
    assert mains, "no glossary term names its main ruling"
    for term in mains.values():
        for lang in LANGS:
            page = read(corpus_site, lang, f"rulings/{term.main}")
            block = page[page.index('<p class="explains"'):]
            block = block[:block.index("</p>")]
            assert f'href="../../glossary/#t-{term.id}"' in block
            for name in term.names.values():
                assert str(escape(name)) in block, (term.id, lang, name)
            for alias in (*term.alias_by_lang.get(lang, ()), *term.alias_by_lang.get("", ())):
                assert str(escape(alias)) in block, (term.id, lang, alias)
    others = [p for p in (corpus_site / "en" / "rulings").glob("*/index.html")
              if p.parent.name not in {t.main for t in mains.values()}]
    assert others and not any('class="explains"' in p.read_text(encoding="utf-8")
                              for p in others)


def test_glossary_lists_aliases_and_main_rulings(corpus_site: Path) -> None:
    corpus = load_corpus(project_root(), replay=False)
    for lang in LANGS:
        page = read(corpus_site, lang, "glossary")
        for term in corpus.glossary.values():
            start = page.index(f'<section class="term" id="t-{term.id}" '
                               f'data-result="term:{term.id}">')
            entry = page[start:page.index("</section>", start)]
            assert "<section" not in entry[1:], "a result section holds another"
            for alias in term.aliases:
                assert f">{str(escape(alias))}</span>" in entry, (lang, term.id, alias)
            if term.main:
                assert f'href="../rulings/{term.main}/"' in entry, (lang, term.id)
            assert "<h2" in entry and "data-pagefind" not in entry
            if term.definition:
                assert '<div class="md"' in entry


def test_processing_and_timeline_entries_are_results(fixture_site: Path) -> None:
    for lang in LANGS:
        processing = read(fixture_site, lang, "processing")
        for kind in RULE_KINDS:
            start = processing.index(f'<section id="kind-{kind}" data-result="processing:'
                                     f'{kind}">')
            entry = processing[start:processing.index("</section>", start)]
            description = entry.split("</h3>", 1)[1].split("<p>", 1)[1].split("</p>")[0]
            assert description.strip(), (lang, kind)
            assert f"<span>{gettext_for(lang, RULE_KIND_NAMES[kind])}</span>" \
                in html.unescape(entry)
        timeline = read(fixture_site, lang, "timeline")
        for rs in ("2014-04", "2014-07", "2014-09", "current"):
            assert f'<section class="change" id="rs-{rs}" data-result="change:{rs}">' \
                in timeline


def test_rulings_index_lists_every_ruling_by_topic_with_its_answer(corpus_site: Path) -> None:
    """Where the search box leads without JavaScript: every ruling, by topic, its answer."""
    corpus = load_corpus(project_root(), replay=False)
    for lang in LANGS:
        page = read(corpus_site, lang, "rulings")
        assert page.count('<dt id="r-') == len(corpus.rulings)
        official = 0
        for ruling in corpus.rulings:
            start = page.index(f'<dt id="r-{ruling.id}"')
            entry = page[start:page.index("</dd>", start)]
            assert f'href="{ruling.id}/"' in entry
            # the ruling's basis: a badge and the class the "only official" box keeps
            rests = rests_on_official(ruling.scenario.sources, corpus.sources)
            official += rests
            assert (f'<dt id="r-{ruling.id}" class="official">' in entry) == rests
            assert ('<dd class="official">' in entry) == rests
            answer = ruling.scenario.texts.get("answer", {})
            text = answer.get(lang) or answer.get("ja", "")
            first = re.split(r"[*`\[\]_]", text)[0][:12]
            assert html.escape(first, quote=False) in html.unescape(entry) or \
                first in html.unescape(entry), (lang, ruling.id, first)
        topics = re.findall(r'<section id="topic-([^"]+)">', page)
        assert topics and topics == sorted(topics)
        assert '<input type="checkbox" id="only-official">' in page
        assert page.count('class="basis basis-official"') == official > 0


def test_tag_names_are_distinct(corpus_site: Path) -> None:
    """The search page's filters and the tag lists show a tag by its name in the page's
    language, so two tags must not share a name in any language."""
    for lang in LANGS:
        owners: dict[str, set[str]] = {}
        for page in (corpus_site / lang / "rulings").glob("*/index.html"):
            text = page.read_text(encoding="utf-8")
            for link in re.finditer(r'<a class="tag" href="[^"]*/tags/([^"/]+)/">#([^<]*)</a>',
                                    text):
                tag, name = link.groups()
                owners.setdefault(name, set()).add(tag)
        assert owners, lang
        shared = {name: tags for name, tags in owners.items() if len(tags) > 1}
        assert not shared, f"{lang}: one name for several tags: {shared}"


def test_untranslated_texts_fall_back_to_japanese(fixture_site: Path) -> None:
    zh = read(fixture_site, "zh-Hans", "rulings/fixture-mill-refresh")
    assert zh.count("尚未翻译：以日语显示。") == 4  # title, question, answer, explanation
    assert '<h1 lang="ja">' in zh
    assert zh.count('<div class="md" lang="ja">') >= 2  # the answer and the explanation
    en = read(fixture_site, "en", "rulings/fixture-mill-refresh")
    assert "Not yet translated" not in en


def test_outcomes_are_shown(fixture_site: Path) -> None:
    en = read(fixture_site, "en", "rulings/fixture-two-returners")
    # English headings begin with a capital, whatever the ruling writes
    for name in ("Both return", "Only r1 returns", "Only r2 returns", "Neither returns"):
        assert f"<h3>{name} " in en, name
    outcomes = en[en.index('id="outcomes"'):]
    assert outcomes.count('<svg class="board"') == 4
    assert "Player 1 resolves the ability of r2 first." in outcomes
    assert "Player 1 does not use the ability of r2." in outcomes
    # outcome names in the page's language; a missing one falls back to Japanese, marked
    ja = read(fixture_site, "ja", "rulings/fixture-two-returners")
    ja_outcomes = ja[ja.index('id="outcomes"'):]
    for name in ("両方戻る", "r1だけ戻る", "r2だけ戻る", "どちらも戻らない"):
        assert f"<h3>{name} " in ja_outcomes, name
    assert "両方戻る、r1だけ戻る" in ja  # the answer table's list of legal outcomes
    zh = read(fixture_site, "zh-Hans", "rulings/fixture-two-returners")
    zh_outcomes = zh[zh.index('id="outcomes"'):]
    assert "<h3>两张都返回 " in zh_outcomes
    assert '<h3><span lang="ja">r1だけ戻る</span> ' in zh_outcomes
    assert zh_outcomes.count('class="untranslated"') == 1
    # the key to the card labels, once per page (the boards carry labels only): after the
    # answer, before the facts under each rule set and the replay (a phone's reading order)
    key = en[en.index('<p class="small card-key"'):]
    assert en.index('id="answer"') < en.index('class="small card-key"') < \
        en.index('id="rulesets"') < en.index('id="replay"')
    key = key[:key.index("</p>")]
    assert "<b>r1</b>" in key and "<b>r2</b>" in key, key
    assert "<title>" not in en[en.index('id="replay"'):]


def test_injected_markdown_is_harmless_on_the_page(fixture_site: Path) -> None:
    class Markup(HTMLParser):
        def __init__(self) -> None:
            super().__init__()
            self.found: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            own = tag == "script" and (dict(attrs).get("src") or "") == "../../../assets/site.js"
            if tag in ("script", "iframe", "object", "embed", "img", "style", "frame") \
                    and not own:  # the site's own script, in the head of every page
                self.found.append(tag)
            for name, value in attrs:
                text = (value or "").lower()
                if name.startswith("on") or name == "style" or "javascript:" in text \
                        or "evil.example" in text or text.startswith("data:"):
                    self.found.append(f"{tag} {name}={value}")

    for lang in LANGS:
        parser = Markup()
        parser.feed(read(fixture_site, lang, "rulings/fixture-injection"))
        assert not parser.found, (lang, parser.found)
    en = read(fixture_site, "en", "rulings/fixture-injection")
    assert "Draw &lt;img src=x onerror=alert(1)&gt;" in en  # shown as text, not markup
    # a marked interpretation keeps its own Markdown, loses the markup around it
    assert '<span class="interpretation">A <strong>marked</strong> <b>reading</b> . ' \
           '<small class="interp-label">this project\'s interpretation</small></span>' in en


def test_interpretations_are_marked_in_the_page_language(fixture_site: Path) -> None:
    labels = {"ja": "本プロジェクトの解釈", "en": "this project's interpretation",
              "zh-Hans": "本项目的解读"}
    for lang, label in labels.items():
        page = read(fixture_site, lang, "rulings/fixture-two-returners")
        assert page.count('<span class="interpretation">') == 1
        assert f'<small class="interp-label">{label}</small></span>' in page
        assert "{.interpretation}" not in page
        # the note under the sources says what the label means; no source is an interpretation
        notes = {"ja": "「本プロジェクトの解釈」と示した文", "en": "Sentences marked “this project",
                 "zh-Hans": "标有“本项目的解读”的句子"}
        assert notes[lang] in page
        assert 'class="basis basis-community"' in page
    without = read(fixture_site, "en", "rulings/fixture-mill-refresh")
    assert 'class="interpretation"' not in without and "Sentences marked" not in without


def test_index_pages(fixture_site: Path) -> None:
    timeline = read(fixture_site, "en", "timeline")
    changed = timeline[timeline.index('id="rs-2014-07"'):timeline.index('id="rs-2014-09"')]
    assert "fixture-mill-refresh" in changed
    processing = read(fixture_site, "en", "processing")
    kind = processing[processing.index('id="kind-refresh"'):]
    assert "fixture-mill-refresh" in kind[:kind.index("</section>")]
    glossary = read(fixture_site, "zh-Hans", "glossary")
    assert 'id="t-refresh"' in glossary and "重构" in glossary
    tag = read(fixture_site, "en", "tags/deck-out")
    assert "fixture-mill-refresh" in tag
    home = read(fixture_site, "ja", "")
    assert "rulesets/2014-09/" in home and "topics/refresh/" in home
    root = (fixture_site / "index.html").read_text(encoding="utf-8")
    for lang in LANGS:
        assert f'href="{lang}/"' in root


def test_ruling_pages_are_small(corpus_site: Path) -> None:
    """Issue #4: a ruling page under 30 KB of HTML and CSS, for a judge's phone; every page
    of the corpus, in every language (Japanese pages are the largest: 3 bytes a character)."""
    css = (corpus_site / "assets" / "site.css").stat().st_size
    sizes = {p.relative_to(corpus_site).as_posix(): p.stat().st_size + css
             for p in corpus_site.glob("*/rulings/*/index.html")}
    assert len(sizes) == 3 * len(list((project_root() / "rulings").rglob("*.toml")))
    large = {page: size for page, size in sizes.items() if size >= 30_000}
    assert not large, f"ruling pages of 30 KB or more with the stylesheet: {large}"


# ---------------------------------------------------------------------------- coverage page


class CoverageParser(HTMLParser):
    """The coverage page: per row (``<tr id="cov-<section>-<item>">``) its count cells
    (``td.n.<name>``), the rulings its lists link to (``ul.ids.<name>``) and whether it shows
    the "no ruling yet" marker; per summary row (``sum-<section>``) the rows it links to."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.rows: dict[str, dict[str, Any]] = {}
        self.summary: dict[str, list[str]] = {}
        self.row: str | None = None
        self.cell: str | None = None
        self.list: str | None = None
        self.sum: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        classes = a.get("class", "").split()
        self.cell = None  # a count is the text right at the start of its cell
        if tag == "tr" and a.get("id", "").startswith("cov-"):
            self.row = a["id"]
            self.rows[self.row] = {"counts": {}, "lists": {}, "none": False}
        elif tag == "tr" and a.get("id", "").startswith("sum-"):
            self.sum = a["id"][4:]
            self.summary[self.sum] = []
        elif self.sum and tag == "a" and a.get("href", "").startswith("#cov-"):
            self.summary[self.sum].append(a["href"][1:])
        elif self.row and tag == "td" and "n" in classes:
            self.cell = classes[1]
            self.rows[self.row]["counts"][self.cell] = ""
        elif self.row and tag == "ul" and "ids" in classes:
            self.list = classes[1]
            self.rows[self.row]["lists"][self.list] = []
        elif self.row and self.list and tag == "a":
            self.rows[self.row]["lists"][self.list].append(a["href"].split("/")[-2])
        elif self.row and tag == "strong" and "none" in classes:
            self.rows[self.row]["none"] = True

    def handle_endtag(self, tag: str) -> None:
        if tag == "tr":
            self.row = self.sum = None
        elif tag == "ul":
            self.list = None
        elif tag == "td":
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.row and self.cell:
            self.rows[self.row]["counts"][self.cell] += data


def parse_coverage(html: str) -> CoverageParser:
    parser = CoverageParser()
    parser.feed(html)
    parser.close()
    return parser


@pytest.fixture(scope="module")
def coverage_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("coverage") / "site"
    build_site(out, root=COVERAGE_FIXTURE)
    return out


@pytest.mark.parametrize("which", ["coverage", "fixture"])
def test_coverage_page_shows_the_numbers_of_judge_coverage(which: str,
                                                           request: pytest.FixtureRequest) -> None:
    """Every language's coverage page has, row for row, the counts and rulings that
    ``judge coverage --json`` prints for the same corpus, and marks the rows with none."""
    site: Path = request.getfixturevalue(f"{which}_site")
    root = COVERAGE_FIXTURE if which == "coverage" else FIXTURE
    result = CliRunner().invoke(cli, ["coverage", "--json", "--corpus", str(root)])
    assert result.exit_code == 0, result.output
    expected = json.loads(result.output)
    assert expected == compute(load_corpus(root)).to_dict()
    # the lists of rulings: one file for the three languages, what judge coverage --json
    # prints, which every page names (its script reads it: test_browser)
    assert json.loads((site / "api" / "coverage.json").read_text(encoding="utf-8")) == expected
    for lang in LANGS:
        html = read(site, lang, "coverage")
        page = parse_coverage(html)
        assert ngettext_count(html, expected["rulings"])
        assert 'data-src="../../api/coverage.json"' in html, lang
        assert 'data-rulings="../rulings/"' in html, lang
        wanted_rows = {f"cov-{cat}-{row['item']}" for cat, _ in CATEGORIES
                       for row in expected["sections"][cat]}
        assert set(page.rows) == wanted_rows, lang
        for cat, _heading in CATEGORIES:
            for row in expected["sections"][cat]:
                shown = page.rows[f"cov-{cat}-{row['item']}"]
                counts = {k: int(v.split()[0]) for k, v in shown["counts"].items()}
                where = (lang, cat, row["item"])
                assert counts["all"] == row["count"], where
                # a "Show" list where the row has rulings, filled from api/coverage.json
                assert ("all" in shown["lists"]) == bool(row["rulings"]), where
                assert shown["none"] == (row["count"] == 0), where
                if cat == "term":
                    assert counts["ev"] == len(row["from_events"]), where
                    assert counts["tm"] == len(row["from_terms"]), where
                if cat == "ruleset":
                    assert counts["diff"] == len(row["differs"]), where
                    assert ("diff" in shown["lists"]) == bool(row["differs"]), where
            assert page.summary[cat][0] == f"cov-{cat}"  # the section, then its missing rows
            assert page.summary[cat][1:] == [f"cov-{cat}-{item}"
                                             for item in expected["missing"][cat]], (lang, cat)
    # the figures differ between the two corpora, so the test compares something
    if which == "coverage":
        assert expected["sections"]["attack-step"][0]["count"] > 0
        assert expected["missing"]["phase"]


def ngettext_count(html: str, rulings: int) -> bool:
    """The page says how many rulings the table counts."""
    return any(f"{rulings}{unit}" in html for unit in (" rulings.", " ruling.", "件", "条"))


def test_coverage_page_is_translated_and_linked(fixture_site: Path) -> None:
    pages = parse_site(fixture_site)
    marker = {"ja": "まだ裁定はありません。", "en": "No ruling yet.", "zh-Hans": "暂无裁定。"}
    for lang in LANGS:
        html = read(fixture_site, lang, "coverage")
        assert marker[lang] in html
        for kind, message in RULE_KIND_NAMES.items():
            assert f'#kind-{kind}">' in html and gettext_for(lang, message) in html, (lang, kind)
        # a developer page: from the maintainers' page (which every page's footer links
        # to) and the processing page's text, not from the menu
        maintainers = read(fixture_site, lang, "maintainers")
        assert '<a href="../coverage/">' in maintainers
        assert 'href="../coverage/"' not in html.split('<nav class="menu"')[1].split("</nav>")[0]
        processing = read(fixture_site, lang, "processing")
        assert processing.count('href="../coverage/"') == 1
        for path, page in pages.items():
            if path.startswith(f"{lang}/"):
                assert any(resolve(path, url)[0] == f"{lang}/maintainers/index.html"
                           for _t, url, _s in page.links), path
    ja = read(fixture_site, "ja", "coverage")
    assert "<h1>網羅状況</h1>" in ja and "リフレッシュ" in ja and "No ruling yet" not in ja
    zh = read(fixture_site, "zh-Hans", "coverage")
    assert "<h1>覆盖情况</h1>" in zh and "重构" in zh


# ---------------------------------------------------------------------------- builds


def test_rebuild_is_byte_identical(fixture_site: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    build_site(again, root=FIXTURE)
    assert tree_digest(again) == tree_digest(fixture_site)


def failing_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURE, corpus)
    ruling = corpus / "rulings" / "refresh" / "fixture-mill-refresh.toml"
    text = ruling.read_text(encoding="utf-8")
    bad = text.replace('trash = ["l1"]', 'trash = ["l2"]')
    assert bad != text
    ruling.write_text(bad, encoding="utf-8")
    return corpus


def test_failing_ruling_stops_the_build_and_keeps_the_site(tmp_path: Path) -> None:
    out = tmp_path / "out" / "site"
    build_site(out, root=FIXTURE)
    before = tree_digest(out)
    corpus = failing_corpus(tmp_path)
    with pytest.raises(RulingsFailed) as info:
        build_site(out, root=corpus)
    report = "\n".join(info.value.lines)
    assert "FAIL rulings/refresh/fixture-mill-refresh.toml" in report
    assert report.endswith("passed, 3 failed")
    assert tree_digest(out) == before
    assert sorted(p.name for p in out.parent.iterdir()) == ["site"]  # no temporary left
    # --allow-failing builds it, with a visible notice on that ruling's pages
    build_site(out, root=corpus, allow_failing=True)
    for lang in LANGS:
        page = read(out, lang, "rulings/fixture-mill-refresh")
        assert 'class="failing" role="alert"' in page
        assert "expect at line" in page
    assert 'class="failing"' not in read(out, "en", "rulings/fixture-two-returners")


def test_error_while_writing_keeps_the_previous_site(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "site"
    build_site(out, root=FIXTURE)
    before = tree_digest(out)
    calls = {"n": 0}
    real = build_module.render

    def flaky(template: str, lang: str, context: dict[str, object]) -> str:
        calls["n"] += 1
        if calls["n"] > 10:
            raise BuildError("disk full (simulated)")
        return real(template, lang, context)

    monkeypatch.setattr(build_module, "render", flaky)
    with pytest.raises(BuildError, match="simulated"):
        build_site(out, root=FIXTURE)
    assert tree_digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_cli_build_and_i18n_status(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "cli-site"
    result = runner.invoke(cli, ["build", "--corpus", str(FIXTURE), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "built" in result.output and (out / "en" / "index.html").is_file()
    result = runner.invoke(cli, ["build", "--corpus", str(failing_corpus(tmp_path)),
                                 "--out", str(out)])
    assert result.exit_code == 1
    assert "FAIL" in result.output
    result = runner.invoke(cli, ["i18n-status", "--corpus", str(FIXTURE)])
    assert result.exit_code == 0, result.output
    assert "zh-Hans: 5 ruling text(s)" in result.output  # 4 texts and an outcome's name
    assert "fixture-two-returners: expect[0].outcomes[1].name" in result.output
    assert "fixture-mill-refresh: explanation" in result.output
    assert "en: 0 ruling text(s)" in result.output
    # every kind of visible string is counted: the registry's, the rule sets', card names
    assert "0 source text(s), 0 rule-set text(s), 0 card name(s), 0 tag or topic name(s)" \
        in result.output
    counted = re.search(r"counted: rulings (\d+), glossary (\d+), sources (\d+), rulesets (\d+), "
                        r"cards (\d+), tags (\d+), catalogue (\d+)", result.output)
    assert counted and all(int(n) > 0 for n in counted.groups()), result.output


def test_serve_serves_and_rebuilds(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURE, corpus)
    out = tmp_path / "site"
    build_site(out, root=corpus)
    server = start_server(out, 0)
    try:
        port = server.server_address[1]
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/en/", timeout=10) as response:
            assert b"WIXOSS rulings" in response.read()
        rebuilt = threading.Event()

        def rebuild() -> None:
            build_site(out, root=corpus)
            rebuilt.set()

        stop = threading.Event()
        watcher = threading.Thread(target=watch, args=(rebuild, corpus, stop, 0.05))
        watcher.start()
        time.sleep(0.2)
        ruling = corpus / "rulings" / "effects" / "fixture-two-returners.toml"
        ruling.write_text(ruling.read_text(encoding="utf-8").replace(
            "Two milled SIGNI", "Two milled SIGNI (edited)"), encoding="utf-8")
        assert rebuilt.wait(20)
        stop.set()
        watcher.join(5)
        url = f"http://127.0.0.1:{port}/en/rulings/fixture-two-returners/"
        with urllib.request.urlopen(url, timeout=10) as response:
            assert b"Two milled SIGNI (edited)" in response.read()
    finally:
        server.shutdown()
        server.server_close()


def test_build_refuses_to_replace_a_folder_it_did_not_build(tmp_path: Path) -> None:
    precious = tmp_path / "precious"
    precious.mkdir()
    (precious / "notes.txt").write_text("keep me", encoding="utf-8")
    with pytest.raises(BuildError, match="not built by judge build"):
        build_site(precious, root=FIXTURE)
    assert (precious / "notes.txt").read_text(encoding="utf-8") == "keep me"
    with pytest.raises(BuildError, match="refusing to build into"):
        build_site(FIXTURE, root=FIXTURE)
    with pytest.raises(BuildError, match="refusing to build into"):
        build_site(project_root(), root=FIXTURE)


def test_finish_hook_sees_the_complete_site_before_the_swap(tmp_path: Path) -> None:
    out = tmp_path / "site"
    seen: list[Path] = []

    def finish(folder: Path) -> None:
        assert folder != out and (folder / "en" / "search" / "index.html").is_file()
        (folder / "extra.txt").write_text("index", encoding="utf-8")
        seen.append(folder)

    build_site(out, root=FIXTURE, finish=finish)
    assert seen and (out / "extra.txt").is_file() and not seen[0].exists()


def test_pages_rendered_by_several_processes_are_the_same_bytes(fixture_site: Path,
                                                                 tmp_path: Path) -> None:
    """A large site is rendered by forked worker processes; the pages must not depend on
    which process wrote them. Run in a fresh interpreter (no other threads, as judge build
    requires before it forks), with the size threshold lowered to the fixture corpus."""
    import subprocess
    import sys

    out = tmp_path / "site"
    script = (
        "import sys; from pathlib import Path\n"
        "import judge.site.build as b\n"
        "b.PARALLEL_MIN_PAGES = 0\n"
        "r = b.build_site(Path(sys.argv[1]), root=Path(sys.argv[2]), jobs=2)\n"
        "print(r.processes, r.pages)\n")
    done = subprocess.run([sys.executable, "-c", script, str(out), str(FIXTURE)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    processes, pages = map(int, done.stdout.split())
    assert processes == 2 and pages == len(list(fixture_site.rglob("*.html")))
    assert tree_digest(out) == tree_digest(fixture_site)


def test_only_the_assets_the_pages_load_are_published(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A hidden file, a subfolder or a file of another kind in site_templates/assets is not
    published, and a symbolic link there stops the build (it could point anywhere)."""
    from judge.site import build

    assets = tmp_path / "assets"
    assets.mkdir()
    (assets / "site.css").write_text("body{}", encoding="utf-8")
    (assets / "site.js").write_text("", encoding="utf-8")
    (assets / ".site.css.swp").write_text("secret", encoding="utf-8")
    (assets / "notes.txt").write_text("secret", encoding="utf-8")
    (assets / "old").mkdir()
    (assets / "old" / "x.js").write_text("secret", encoding="utf-8")
    monkeypatch.setattr(build, "assets_dir", lambda: assets)
    assert [p.name for p in build.site_assets()] == ["site.css", "site.js"]
    (assets / "env.js").symlink_to("/proc/self/environ")
    with pytest.raises(build.BuildError, match="symbolic link"):
        build.site_assets()
