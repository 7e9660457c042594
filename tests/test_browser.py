"""The site in a real browser: Playwright driving Debian's Chromium, headless.

The site is built once per session from the real corpus, with its search index, into a
temporary folder and served by ``judge serve``'s server (``http.server``) on 127.0.0.1 on a
free port. The tests open the home page, switch language on a ruling, search in the three
languages (and across them) and open the refresh ruling from the results, read the results
(the answer with the words found marked, the rule sets as badges, glossary entries, kinds of
rule processing and rule changes among them), ask questions, misspell, type kana and
full-width letters, keep the query across a switch of language, follow the search box
without JavaScript to the list of every ruling, read a replay's steps and board diagrams,
and check a phone-width screenshot of a ruling page.

Chromium is ``/usr/bin/chromium`` (``apt-get install chromium``; ``playwright install`` is
never used). When it or the ``playwright`` package is missing the tests are skipped, except
when the environment variable ``CI`` is set: then they fail, so CI cannot pass without them.
"""

from __future__ import annotations

import json
import struct
import sys
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import quote

import pytest
from conftest import watched_tab

from judge.i18n import gettext_for
from judge.paths import project_root
from judge.site.api import API_VERSION
from judge.site.board import FRAME_ID, SIDE_ID, TOP_MARK
from judge.site.build import build_site
from judge.site.context import SEARCH_STRINGS
from judge.site.serve import start_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

RULING = "rulings/refresh-steps/"
#: An attack that crushes two life cloth with Life Bursts, in one step
CRUSH = "rulings/double-crush-defender-orders-the-bursts/"
TIMEOUT_MS = 20_000
PHONE = {"width": 360, "height": 740}


# ---------------------------------------------------------------------------- fixtures
# (``browser``, one Chromium for every browser test module, is in conftest.py)


@pytest.fixture(scope="session")
def site_folder(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The real corpus's site with its search index."""
    out = tmp_path_factory.mktemp("browser") / "site"
    # a ruling another change breaks is test_site's business; here it is only marked
    build_site(out, root=project_root(), allow_failing=True, search=True)
    return out


@pytest.fixture(scope="session")
def base_url(site_folder: Path) -> Iterator[str]:
    """The site served on 127.0.0.1 (at the server's root)."""
    server = start_server(site_folder, 0)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with watched_tab(browser, TIMEOUT_MS, viewport={"width": 1000, "height": 800},
                     service_workers="block") as tab:
        yield tab


# ---------------------------------------------------------------------------- helpers


def search_results(page: Page, more: bool = True) -> list[str]:
    """The result links drawn once the search is done (after asking for more until every
    result is on the page, with ``more``)."""
    box = page.locator("#search")
    page.wait_for_function("() => document.getElementById('search')"
                           ".getAttribute('data-state') === 'done'")
    for _ in range(30):
        button = page.locator("#search .more")
        if not more or not button.is_visible():
            break
        count = page.locator(".result").count()
        button.click()
        page.wait_for_function("n => document.querySelectorAll('.result').length > n "
                               "&& document.getElementById('search').getAttribute("
                               "'data-state') === 'done'", arg=count)
    assert box.get_attribute("data-state") == "done"
    return [a.get_attribute("href") or "" for a in
            page.locator(".result-link").element_handles()]


def result_ids(page: Page, more: bool = False) -> list[str]:
    search_results(page, more=more)
    return [li.get_attribute("data-id") or "" for li in page.locator(".result").element_handles()]


def search_for(page: Page, base_url: str, lang: str, query: str, more: bool = False
               ) -> list[str]:
    """Open the search page of ``lang`` with ``?q=query``; the ids of the first results (of
    all, with ``more``)."""
    page.goto(f"{base_url}/{lang}/search/?q={quote(query)}")
    return result_ids(page, more)


def png_pixels(data: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows (unfiltered bytes) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, header = 8, b"", b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and colour in (2, 6) and interlace == 0, "unexpected PNG format"
    bpp = 3 if colour == 2 else 4
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows: list[bytes] = []
    previous = bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            left = line[i - bpp] if i >= bpp else 0
            up = previous[i]
            if kind == 1:
                line[i] = (line[i] + left) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + up) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (left + up) // 2) & 0xFF
            elif kind == 4:
                corner = previous[i - bpp] if i >= bpp else 0
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                best = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + best) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows


# ---------------------------------------------------------------------------- tests


def test_home_page(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/")
    page.locator("a[hreflang=ja]").first.click()
    page.wait_for_url(f"{base_url}/ja/")
    assert page.locator("html").get_attribute("lang") == "ja"
    assert page.locator("h1").first.inner_text().strip()
    assert page.locator("form.search input[name=q]").is_visible()
    # browse: the refresh topic, then the ruling
    page.locator("a[href='topics/refresh/']").first.click()
    page.wait_for_url(f"{base_url}/ja/topics/refresh/")
    page.locator(f"a[href$='{RULING}']").first.click()
    page.wait_for_url(f"{base_url}/ja/{RULING}")
    assert page.locator("h1").inner_text().strip()


def test_switching_language_lands_on_the_same_ruling(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/ja/{RULING}")
    title_ja = page.locator("h1").inner_text()
    for lang, label in (("en", "English"), ("zh-Hans", "简体中文"), ("ja", "日本語")):
        page.locator("nav.langs").get_by_text(label, exact=True).click()
        page.wait_for_url(f"{base_url}/{lang}/{RULING}")
        assert page.locator("html").get_attribute("lang") == lang
        assert page.locator("#replay").count() == 1
    assert page.locator("h1").inner_text() == title_ja


@pytest.mark.parametrize(("lang", "query"), [
    ("ja", "リフレッシュ"), ("en", "refresh"), ("zh-Hans", "重构"),
    # across languages, through the glossary names every ruling page carries
    ("ja", "重构"), ("en", "リフレッシュ"), ("zh-Hans", "refresh"),
])
def test_search_opens_the_refresh_ruling(page: Page, base_url: str, lang: str,
                                         query: str) -> None:
    page.goto(f"{base_url}/{lang}/")
    page.locator("form.search input[name=q]").fill(query)
    page.locator("form.search input[name=q]").press("Enter")
    page.wait_for_url(f"{base_url}/{lang}/search/?q=*")
    results = search_results(page)
    assert page.locator("#q").input_value() == query  # from ?q=
    wanted = f"/{lang}/{RULING}"
    # the bare term: its main ruling first, then its glossary entry
    assert results[:2] == [wanted, f"/{lang}/glossary/#t-refresh"], (query, lang, results[:5])
    assert all(r.startswith(f"/{lang}/") for r in results)
    page.locator(f".result-link[href='{wanted}']").click()
    page.wait_for_url(f"{base_url}{wanted}")
    assert page.locator("#replay section.step").count() >= 1


def test_the_search_page_has_one_search_box(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/en/search/")
    assert page.locator("input[type=search]").count() == 1
    assert page.locator("#q").is_visible()
    assert page.evaluate("() => document.activeElement.id") == "q"
    assert page.evaluate("() => window.judgeSearch.debounceMs") <= 100


def test_results_show_the_answer_marked_and_rule_sets_as_badges(page: Page,
                                                                base_url: str) -> None:
    for lang, query, answer, now in (("en", "refresh", "You refresh.", "current"),
                                     ("ja", "リフレッシュ", "を行います。", "現行")):
        search_for(page, base_url, lang, query)
        first = page.locator(".result").first
        assert first.get_attribute("data-id") == "refresh-steps"
        text = first.locator(".result-answer").inner_text()
        assert answer in text, text  # the ruling's answer, in the page's language
        marks = [m.lower() for m in first.locator(".result-answer mark").all_inner_texts()]
        assert marks and all(query.lower() in m for m in marks), marks
        badges = first.locator(".badges .badge").all_inner_texts()
        # each rule set by its short name in the page's language
        assert badges == ["2014-04", "2014-07", "2014-09", now], badges
        # the rule sets and tags are badges, not text in the snippet
        shown = first.locator(".result-answer").inner_text() + \
            " ".join(first.locator(".result-excerpt").all_inner_texts())
        assert "2014-04 2014-07" not in shown and "#" not in shown, shown
        for snippet in page.locator(".result-answer, .result-excerpt").all_inner_texts():
            assert "2014-04 2014-07 2014-09 current" not in snippet, snippet


def test_glossary_processing_and_rule_changes_are_results(page: Page, base_url: str) -> None:
    ids = search_for(page, base_url, "en", "refresh", more=True)
    assert {"term:refresh", "processing:refresh", "change:2014-09"} <= set(ids), ids
    term = page.locator(".result[data-id='term:refresh']")
    assert term.locator(".kind").inner_text() == "Glossary"
    # the definition, cut around the word found as judge search cuts it, the word marked
    assert "second refresh that turn" in term.locator(".result-answer").inner_text()
    assert term.locator(".result-answer mark").all_inner_texts() == ["refresh"]
    term.locator(".result-link").click()
    page.wait_for_url(f"{base_url}/en/glossary/#t-refresh")
    assert page.locator("#t-refresh .aliases").inner_text().strip()
    ids = search_for(page, base_url, "ja", "レゾナ ルリグデッキ")
    assert "processing:resona" in ids, ids


@pytest.mark.parametrize(("lang", "query", "wanted"), [
    # a question: its common words left out, and the words looked up one by one
    ("en", "what happens when my deck runs out during an effect", "refresh-during-effect"),
    ("ja", "効果の途中でデッキが0枚になったらどうなりますか", "refresh-during-effect"),
    ("zh-Hans", "效果处理途中主牌组没了怎么办", "refresh-during-effect"),
    # a fan word (an alias), kana and width folded
    ("en", "deck out", "refresh-steps"),
    ("ja", "りふれっしゅ", "refresh-steps"),
    ("ja", "ﾘﾌﾚｯｼｭ", "refresh-steps"),
    ("en", "ＰＩＣＫ　ＵＰ", "refresh-pick-up-loop"),
])
def test_questions_aliases_kana_and_width(page: Page, base_url: str, lang: str, query: str,
                                          wanted: str) -> None:
    ids = search_for(page, base_url, lang, query)
    assert wanted in ids[:3], (query, ids)


def test_site_ranking_on_the_judged_subset_meets_the_targets(browser: Browser,
                                                             base_url: str) -> None:
    """The queries of benchmarks/relevance-queries.toml marked test = true, typed into each
    language's search page as the site benchmark types them (benchmarks/relevance_site.py):
    the site's ranking meets the same targets as judge search's (tests/test_relevance.py)."""
    sys.path.insert(0, str(project_root() / "benchmarks"))
    from relevance import TARGET_HIT1, TARGET_HIT3, evaluate, load_queries
    from relevance_site import run_query

    pages: dict[str, Page] = {}

    def search(query: str, lang: str) -> list[str]:
        if lang not in pages:
            tab = browser.new_context(service_workers="block").new_page()
            tab.goto(f"{base_url}/{lang}/search/")
            tab.wait_for_function("() => window.judgeSearch !== undefined")
            pages[lang] = tab
        return run_query(pages[lang], query)

    try:
        report = evaluate(search, load_queries(subset=True), engine="site")
    finally:
        for tab in pages.values():
            tab.context.close()
    shown = "\n".join(report.lines())
    assert report.hit_at(1) >= TARGET_HIT1, shown
    assert report.hit_at(3) >= TARGET_HIT3, shown
    assert not [o for o in report.outcomes if o.error], shown


def test_a_misspelt_term_is_corrected(page: Page, base_url: str) -> None:
    for query in ("refrsh", "assasin"):
        ids = search_for(page, base_url, "en", query)
        status = page.locator("#search .status").inner_text()
        assert "results for" in status and "No ruling matches" in status, status
        assert ids[0] in ("refresh-steps", "term:refresh",
                          "assassin-attacks-past-the-signi-in-front", "term:assassin"), ids
    search_for(page, base_url, "en", "zzzxqv")
    assert "No ruling matches" in page.locator("#search .status").inner_text()
    assert page.locator(".result").count() == 0


def test_the_query_stays_in_the_address_and_across_languages(page: Page,
                                                             base_url: str) -> None:
    page.goto(f"{base_url}/en/search/")
    page.locator("#q").press_sequentially("life burst", delay=20)
    search_results(page, more=False)
    page.wait_for_url(f"{base_url}/en/search/?q=life+burst")
    assert page.locator(".result").count() > 0
    page.locator("nav.langs").get_by_text("日本語", exact=True).click()
    page.wait_for_url(f"{base_url}/ja/search/?q=life*burst")
    assert page.locator("#q").input_value() == "life burst"
    assert search_results(page, more=False)
    page.locator("nav.langs").get_by_text("简体中文", exact=True).click()
    page.wait_for_url(f"{base_url}/zh-Hans/search/?q=life*burst")
    assert page.locator("#q").input_value() == "life burst"


def test_without_javascript_the_search_box_leads_to_every_ruling(browser: Browser,
                                                                 base_url: str) -> None:
    context = browser.new_context(java_script_enabled=False)
    context.set_default_timeout(TIMEOUT_MS)
    try:
        tab = context.new_page()
        tab.goto(f"{base_url}/en/")
        # the header holds a link to the search page where site.js puts the search box
        assert tab.locator("header form.search").count() == 0
        tab.locator("header a.find").click()
        tab.wait_for_url(f"{base_url}/en/rulings/")  # through the search page's <noscript>
        answers = tab.locator("dl.answers dd")
        rulings = len(list((project_root() / "rulings").rglob("*.toml")))
        assert tab.locator("dl.answers dt").count() == rulings
        assert answers.count() == rulings
        entry = tab.locator("#r-refresh-steps")
        assert entry.locator("a").first.get_attribute("href") == "refresh-steps/"
        assert "You refresh." in tab.locator("#r-refresh-steps + dd").inner_text()
        assert tab.locator("section[id^=topic-] h2").count() >= 3
        # the search page's own box leads there too
        tab.goto(f"{base_url}/ja/search/")
        tab.wait_for_url(f"{base_url}/ja/rulings/")
    finally:
        context.close()


def test_search_filters_by_tag_rule_set_and_term(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/en/search/?q=refresh")
    everything = len(search_results(page))
    page.locator("#search details.filters summary").click()
    page.locator("fieldset[data-filter='Rule set'] input").first.wait_for()
    names = [n.strip() for n in page.locator(".filters legend").all_inner_texts()]
    assert {"Rule set", "Tag", "Term"} <= set(names), names
    page.locator("input[name='Rule set'][value='2014-04']").check()
    narrowed = search_results(page)
    assert 0 < len(narrowed) < everything
    # as rules:2014-04 in the query: the rulings of that rule set and its timeline entry (a
    # glossary entry holds no rule set)
    assert all("/rulings/" in r or r.endswith("/timeline/#rs-2014-04") for r in narrowed), \
        narrowed


def test_search_filters_are_in_the_page_language(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/ja/search/?q=リフレッシュ")
    search_results(page, more=False)
    page.locator("#search details.filters summary").click()
    page.locator("fieldset[data-filter='用語'] input").first.wait_for()
    names = [n.strip() for n in page.locator(".filters legend").all_inner_texts()]
    assert {"ルールセット", "タグ", "用語"} <= set(names), names
    values = page.locator("fieldset[data-filter='用語'] label").all_inner_texts()
    assert any(v.strip().startswith("リフレッシュ") for v in values), values
    # a rule set by its short name; ticking it filters by the rule set's id
    sets = [v.strip() for v in
            page.locator("fieldset[data-filter='ルールセット'] label").all_inner_texts()]
    assert any(v.startswith("現行") for v in sets) and \
        not any(v.startswith("current") for v in sets), sets
    assert page.locator("fieldset[data-filter='ルールセット'] input[value='current']").count() == 1


def test_search_page_without_an_index_says_so(page: Page, base_url: str) -> None:
    page.route("**/search-index/meta.json.gz", lambda route: route.fulfill(status=404))
    page.goto(f"{base_url}/en/search/?q=refresh")
    notice = page.locator("#search .notice")
    notice.wait_for()
    assert "without its search index" in notice.inner_text()


@pytest.mark.parametrize(("lang", "query", "files", "how"), [
    ("ja", "リフレッシュ", "**/search-index/s/*.json.gz", "abort"),  # a shard of the words
    ("zh-Hans", "重构", "**/search-index/meta.json.gz", "500"),  # the meta file
    ("en", "refresh", "**/search-index/en/*.json.gz", "abort"),  # the results' blocks
])
def test_an_index_file_that_cannot_be_fetched_is_said_and_asked_for_again(
        page: Page, base_url: str, lang: str, query: str, files: str, how: str) -> None:
    """A file of the index that fails (the network gone, a server error), its second try
    too: the page says so in its language and is no longer busy; once the file comes
    through, the next keystroke finds the results without a reload."""
    refused: list[str] = []

    def refuse(route: Any) -> None:
        refused.append(route.request.url)
        if how == "abort":
            route.abort()
        else:
            route.fulfill(status=500, body="server error")

    page.route(files, refuse)
    page.goto(f"{base_url}/{lang}/search/")
    page.locator("#q").fill(query)
    page.wait_for_function("() => document.getElementById('search')"
                           ".getAttribute('data-state') === 'failed'")
    said = gettext_for(lang, SEARCH_STRINGS["unreachable"])
    assert said != SEARCH_STRINGS["unreachable"] or lang == "en"
    assert page.locator("#search .status").inner_text() == said
    assert page.locator(".result").count() == 0
    assert page.locator("#search .notice").count() == 0  # not "built without its index"
    assert any(refused.count(url) >= 2 for url in refused), refused  # tried twice

    page.unroute(files)
    page.locator("#q").press_sequentially(" ")  # the next keystroke: the same words
    ids = result_ids(page)
    assert ids
    assert page.locator("#search .status").inner_text() != said
    # the results a page that never failed draws
    page.goto(f"{base_url}/{lang}/search/?q={quote(query)}")
    assert result_ids(page) == ids


def test_more_results_and_filters_that_cannot_be_fetched_keep_what_is_drawn(
        page: Page, base_url: str) -> None:
    """"More results" and the filters fail without their files: the page says so, keeps the
    results drawn, and the next click fetches them."""
    said = gettext_for("ja", SEARCH_STRINGS["unreachable"])
    page.goto(f"{base_url}/ja/search/?q={quote('リフレッシュ')}")
    first = result_ids(page)
    assert len(first) == 10
    count = page.locator("#search .status").inner_text()
    blocks = "**/search-index/ja/*.json.gz"  # what the results show, and the filters' values
    page.route(blocks, lambda route: route.abort())
    page.locator("#search .more").click()
    page.wait_for_function("() => document.getElementById('search')"
                           ".getAttribute('data-state') === 'failed'")
    assert page.locator("#search .status").inner_text() == said
    assert [li.get_attribute("data-id") for li in
            page.locator(".result").element_handles()] == first
    assert page.locator("#search .more").is_visible()
    page.locator("#search .filters summary").click()
    page.wait_for_function("() => !document.querySelector('#search .filters').open")
    assert page.locator("#search .filters fieldset").count() == 0
    assert page.locator("#search .status").inner_text() == said

    page.unroute(blocks)
    page.locator("#search .more").click()
    page.wait_for_function("() => document.querySelectorAll('.result').length > 10 && "
                           "document.getElementById('search').getAttribute('data-state') "
                           "=== 'done'")
    ids = [li.get_attribute("data-id") for li in page.locator(".result").element_handles()]
    assert ids[:10] == first and len(set(ids)) == len(ids) > 10
    assert page.locator("#search .status").inner_text() == count
    page.locator("#search .filters summary").click()
    page.locator("#search .filters fieldset").first.wait_for()


def test_replay_steps_and_diagrams(page: Page, base_url: str) -> None:
    told: dict[str, list[str]] = {}
    for lang in ("en", "ja"):
        page.goto(f"{base_url}/{lang}/{RULING}")
        replay = page.locator("#replay details[open]").first
        steps = replay.locator("section.step")
        assert steps.count() >= 2
        titles = [t.strip() for t in steps.locator("h3").all_inner_texts()]
        assert all(titles), titles
        sentences = [s.strip() for s in replay.locator("section.step ol li").all_inner_texts()]
        assert sentences and all(sentences), sentences
        told[lang] = sentences
        boards = replay.locator("figure svg")
        assert boards.count() >= 2
        box = boards.first.bounding_box()
        assert box is not None and box["width"] > 100 and box["height"] > 50
        assert boards.first.locator("text").count() > 3  # zone names, counts, card labels
    assert any("refresh" in s.lower() for s in told["en"]), told["en"]
    assert any("リフレッシュ" in s for s in told["ja"]), told["ja"]


def test_boards_show_the_shared_frame(page: Page, base_url: str) -> None:
    """Each board draws the page's frame (boxes, players' and zones' names) through <use>;
    the frame must be drawn, styled (light boxes, not the default black fill) and be most of
    what distinguishes a board from an empty one."""
    page.goto(f"{base_url}/ja/{RULING}")
    board = page.locator("#replay details[open] figure svg.board").nth(1)
    board.scroll_into_view_if_needed()
    assert page.locator(f"#{FRAME_ID}").count() == 1
    width, height, rows = png_pixels(board.screenshot())
    bpp = len(rows[0]) // width
    pixels = [row[x:x + bpp] for row in rows for x in range(0, len(row), bpp)]
    dark = sum(1 for p in pixels if max(p[:3]) < 60)
    assert dark < len(pixels) // 10, f"{dark} of {len(pixels)} pixels nearly black: unstyled?"
    board.evaluate("svg => svg.querySelector('use').remove()")
    _, _, bare = png_pixels(board.screenshot())
    changed = sum(1 for a, b in zip(rows, bare, strict=True)
                  for x in range(0, len(a), bpp) if a[x:x + bpp] != b[x:x + bpp])
    assert changed > len(pixels) // 5, f"the frame changes only {changed} pixels"


def test_ruling_page_at_phone_width_is_not_blank(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport=PHONE, device_scale_factor=1,
                                  service_workers="block")
    try:
        tab = context.new_page()
        tab.goto(f"{base_url}/en/{RULING}")
        widths = tab.evaluate("() => [document.documentElement.scrollWidth,"
                              " document.documentElement.clientWidth]")
        assert widths[0] <= PHONE["width"] and widths[0] <= widths[1], \
            f"the page is wider than the phone: {widths}"
        shot = tab.screenshot(full_page=False)
    finally:
        context.close()
    width, height, rows = png_pixels(shot)
    assert (width, height) == (PHONE["width"], PHONE["height"])
    bpp = len(rows[0]) // width
    colours: set[bytes] = set()
    background = rows[0][:bpp]
    inked = 0
    for row in rows:
        for x in range(0, len(row), bpp):
            pixel = row[x:x + bpp]
            colours.add(pixel)
            inked += pixel != background
    assert len(colours) > 16, f"only {len(colours)} colours: a blank page?"
    assert inked > width * height // 50, f"only {inked} pixels differ from the background"
    assert len(shot) > 5_000


# ---------------------------------------------------------------------------- navigation
# issue 12, items 7-9: the language switcher keeps the reader's place, the maintainers'
# section, a header that fits a phone, the downloads, and offline use. Each at a desktop and
# a phone width.

WIDTHS = (1280, 390)
#: The header's height on a phone (390 px wide) stays within this, in every language.
HEADER_MAX_PX = 120


def fresh_tab(browser: Browser, width: int,
              workers: Literal["allow", "block"]) -> Iterator[Page]:
    """A page in a fresh context ``width`` px wide; ``workers`` is Playwright's
    ``service_workers`` ("allow" as in a browser, or "block")."""
    with watched_tab(browser, TIMEOUT_MS, viewport={"width": width, "height": 800},
                     service_workers=workers) as tab:
        yield tab


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def wide(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A page at each width, without the service worker: the worker fetches a language's
    whole search as soon as a page opens, hundreds of requests that only the offline tests
    are about, and that would otherwise race every other test's page loads."""
    yield from fresh_tab(browser, request.param, "block")


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def keeping(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A page at each width with the service worker allowed, as in a judge's browser."""
    yield from fresh_tab(browser, request.param, "allow")


def switch(tab: Page, label: str) -> None:
    tab.locator("nav.langs").get_by_text(label, exact=True).click()


def on_screen(tab: Page, ident: str) -> bool:
    return bool(tab.evaluate(
        "id => { const e = document.getElementById(id); if (!e) return false;"
        " const r = e.getBoundingClientRect();"
        " return r.height > 0 && r.bottom > 0 && r.top < window.innerHeight; }", ident))


def to_top(tab: Page, ident: str) -> None:
    tab.evaluate("id => document.getElementById(id).scrollIntoView()", ident)


def header_back(tab: Page) -> None:
    """What a reader does to reach the switcher from the middle of a page: scroll up a
    little, and the header comes back (at the top of the window) without leaving the place."""
    tab.mouse.move(200, 400)
    tab.mouse.wheel(0, -60)
    tab.wait_for_selector("header.top.pinned")


def test_switching_language_keeps_the_anchor(wide: Page, base_url: str) -> None:
    wide.goto(f"{base_url}/en/glossary/#t-refresh")
    header_back(wide)
    switch(wide, "日本語")
    wide.wait_for_url(f"{base_url}/ja/glossary/#t-refresh")
    assert on_screen(wide, "t-refresh")
    # having scrolled to another term, the reader's place is that term
    terms = wide.evaluate("() => Array.from(document.querySelectorAll('section.term'),"
                          " s => s.id)")
    other = terms[terms.index("t-refresh") + 12]
    to_top(wide, other)
    header_back(wide)
    switch(wide, "简体中文")
    wide.wait_for_url(f"{base_url}/zh-Hans/glossary/#{other}")
    assert on_screen(wide, other)


def test_switching_language_keeps_the_open_replay(wide: Page, base_url: str) -> None:
    """The reader opens the folded replay under 2014-04 and reads its first step: the other
    language's page opens at that step, with that replay open."""
    wide.goto(f"{base_url}/en/{RULING}")
    folded = wide.locator("details#replay-2014-04")
    assert folded.get_attribute("open") is None
    folded.locator("summary").click()
    to_top(wide, "replay-2014-04-1")
    header_back(wide)
    switch(wide, "日本語")
    wide.wait_for_url(f"{base_url}/ja/{RULING}#replay-2014-04-1")
    assert wide.locator("details#replay-2014-04").get_attribute("open") is not None
    assert on_screen(wide, "replay-2014-04-1")
    # the anchor is still on screen: switching again keeps it
    header_back(wide)
    switch(wide, "English")
    wide.wait_for_url(f"{base_url}/en/{RULING}#replay-2014-04-1")
    assert on_screen(wide, "replay-2014-04-1")
    # at the top of the page there is no place to keep
    wide.goto(f"{base_url}/en/{RULING}")
    switch(wide, "简体中文")
    wide.wait_for_url(f"{base_url}/zh-Hans/{RULING}")


def test_switching_language_keeps_the_query(wide: Page, base_url: str) -> None:
    wide.goto(f"{base_url}/en/search/?q=refresh")
    search_results(wide, more=False)
    switch(wide, "日本語")
    wide.wait_for_url(f"{base_url}/ja/search/?q=refresh")
    assert wide.locator("#q").input_value() == "refresh"
    assert search_results(wide, more=False)[0] == f"/ja/{RULING}"


def test_without_javascript_the_switcher_is_a_plain_link(browser: Browser,
                                                         base_url: str) -> None:
    for width in WIDTHS:
        context = browser.new_context(java_script_enabled=False,
                                      viewport={"width": width, "height": 800})
        context.set_default_timeout(TIMEOUT_MS)
        try:
            tab = context.new_page()
            tab.goto(f"{base_url}/en/glossary/#t-refresh")
            link = tab.locator("nav.langs a[lang=ja]")
            assert link.get_attribute("href") == "../../ja/glossary/"
            link.click()
            tab.wait_for_url(f"{base_url}/ja/glossary/")
            assert tab.locator("html").get_attribute("lang") == "ja"
        finally:
            context.close()


def header_height(tab: Page) -> float:
    return float(tab.evaluate("() => document.querySelector('header.top')"
                              ".getBoundingClientRect().height"))


def test_the_header_fits_a_phone(browser: Browser, base_url: str) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  service_workers="block")
    try:
        tab = context.new_page()
        for lang in ("ja", "en", "zh-Hans"):
            for key in ("", RULING, "search/", "glossary/"):
                tab.goto(f"{base_url}/{lang}/{key}")
                height = header_height(tab)
                assert height <= HEADER_MAX_PX, (lang, key, height)
                width = tab.evaluate("() => document.documentElement.scrollWidth")
                assert width <= 390, (lang, key, width)
    finally:
        context.close()


def test_the_coverage_page_is_in_the_maintainers_section(wide: Page, base_url: str) -> None:
    for lang, maintainers in (("en", "For maintainers"), ("ja", "保守・開発者向け")):
        wide.goto(f"{base_url}/{lang}/{RULING}")
        assert wide.locator("nav.menu a[href$='coverage/']").count() == 0
        wide.locator("footer").get_by_text(maintainers, exact=True).click()
        wide.wait_for_url(f"{base_url}/{lang}/maintainers/")
        wide.locator("#developer-pages a[href='../coverage/']").click()
        wide.wait_for_url(f"{base_url}/{lang}/coverage/")
        assert wide.locator("table.coverage").count() >= 5
        # a row's "Show" lists its rulings, read from api/coverage.json (one file for the
        # three languages), as links to their pages in this language
        row = wide.locator("table.coverage tr:has(ul.ids.all)").first
        row_id = row.get_attribute("id") or ""
        category, item = next((c, row_id[len(f"cov-{c}-"):]) for c in (
            "rule-processing", "attack-step", "phase", "ruleset", "term")
            if row_id.startswith(f"cov-{c}-"))
        table = json.loads(wide.evaluate(
            "() => fetch('../../api/coverage.json').then(r => r.text())"))
        wanted = next(r["rulings"] for r in table["sections"][category] if r["item"] == item)
        assert wanted
        row.locator("details summary").first.click()
        links = row.locator("ul.ids.all a")
        links.first.wait_for()
        assert links.all_inner_texts() == wanted
        links.first.click()
        wide.wait_for_url(f"{base_url}/{lang}/rulings/{wanted[0]}/")


def test_the_downloads_are_offered_and_read_back(wide: Page, base_url: str) -> None:
    wide.goto(f"{base_url}/en/")
    wide.locator("footer").get_by_text("For maintainers", exact=True).click()
    wide.wait_for_url(f"{base_url}/en/maintainers/")
    assert wide.locator("#downloads h2").inner_text() == "Downloads"
    links = {a.inner_text().strip(): a.get_attribute("href") or ""
             for a in wide.locator("#downloads a").element_handles()}
    read = wide.evaluate("""async hrefs => {
        const get = async href => fetch(new URL(href, location.href));
        // the rulings' files and the database are gzip-compressed: what a tool reads back
        const gunzip = async response => new Response(
            response.body.pipeThrough(new DecompressionStream("gzip")));
        const index = await (await get(hrefs.index)).json();
        const entry = index.rulings[0];
        const ruling = await (await gunzip(await get(new URL(entry.json,
            new URL(hrefs.index, location.href)).href))).json();
        const db = new Uint8Array(await (await gunzip(await get(hrefs.db))).arrayBuffer());
        const readme = await (await get(hrefs.readme)).text();
        return {version: index.version, count: index.rulings.length, id: ruling.id,
                entry: entry.id, sets: Object.keys(ruling.replays),
                events: ruling.replays[entry.rulesets.at(-1)].trace.events.length,
                // an earlier rule set that replays alike points to the later one's trace
                shared: entry.rulesets.filter(rules => ruling.replays[rules].trace === null)
                    .map(rules => ruling.replays[ruling.replays[rules].same_trace].trace
                         .events.length),
                db: String.fromCharCode(...db.slice(0, 15)), readme: readme.slice(0, 60)};
    }""", {"index": links["api/rulings.json"], "db": links["judge.db.gz"],
           "readme": links["README.md"]})
    rulings = len(list((project_root() / "rulings").rglob("*.toml")))
    assert read["version"] == API_VERSION and read["count"] == rulings
    assert read["id"] == read["entry"] and read["sets"] and read["events"] > 0
    assert all(n > 0 for n in read["shared"])
    assert read["db"] == "SQLite format 3"
    assert read["readme"].startswith("# Downloads for other tools")
    example = [href for text, href in links.items() if text.startswith("api/rulings/")]
    assert example and example[0].endswith(f"/{read['id']}.json.gz")


# ---------------------------------------------------------------------------- offline


@pytest.fixture
def host(site_folder: Path, tmp_path: Path) -> Iterator[tuple[str, Any]]:
    """The site served from a folder of its own server (``/site/``), beside a file outside
    it (``/outside.txt``): the worker's scope is the site's folder, not the host."""
    root = tmp_path / "host"
    root.mkdir()
    (root / "site").symlink_to(site_folder, target_is_directory=True)
    (root / "outside.txt").write_text("not the site\n", encoding="utf-8")
    server = start_server(root, 0)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/site/", server
    finally:
        server.shutdown()
        server.server_close()


CACHED = """async () => {
    const out = {};
    for (const name of await caches.keys()) {
        const cache = await caches.open(name);
        const entries = [];
        for (const request of await cache.keys()) {
            const response = await cache.match(request);
            entries.push([request.url, (await response.blob()).size]);
        }
        out[name] = entries;
    }
    return out;
}"""


def test_after_a_first_visit_the_site_reads_and_searches_offline(
        keeping: Page, host: tuple[str, Any]) -> None:
    wide = keeping
    site, server = host
    wide.goto(f"{site}en/{RULING}")
    title = wide.locator("h1").inner_text()
    wide.wait_for_selector("html[data-offline=kept]")
    scope = wide.evaluate("() => navigator.serviceWorker.getRegistration()"
                          ".then(r => r.scope)")
    assert scope == site
    # a request outside the site goes through untouched and is never kept
    assert wide.evaluate("() => fetch('/outside.txt').then(r => r.text())") == \
        "not the site\n"
    cached = wide.evaluate(CACHED)
    assert len(cached) == 1
    name, entries = next(iter(cached.items()))
    assert name.startswith("wixoss-judge /site/ ")
    urls = {url for url, _ in entries}
    assert all(url.startswith(site) for url in urls), sorted(urls)[:5]
    assert {f"{site}en/{RULING}", f"{site}en/search/", f"{site}en/rulings/",
            f"{site}offline/en.json"} <= urls
    # of the other languages only their "offline" page, kept at the install
    assert not any(("/ja/" in url or "/zh-Hans/" in url) and not url.endswith("/offline/")
                   or "/api/" in url for url in urls)
    assert {f"{site}ja/offline/", f"{site}zh-Hans/offline/"} <= urls

    # no network at all: the server is gone and the browser offline
    server.shutdown()
    server.server_close()
    wide.context.set_offline(True)
    wide.reload()
    assert wide.locator("h1").inner_text() == title
    assert wide.locator("#replay section.step").count() >= 1
    # the search: the page, its scripts and the index come from the cache
    wide.goto(f"{site}en/search/?q=refresh")
    results = search_results(wide, more=False)
    assert results[:2] == [f"/site/en/{RULING}", "/site/en/glossary/#t-refresh"], results
    wide.locator(".result-link[href='/site/en/glossary/#t-refresh']").click()
    wide.wait_for_url(f"{site}en/glossary/#t-refresh")
    assert on_screen(wide, "t-refresh")
    # a ruling never opened: its answer in the list of every ruling
    wide.goto(f"{site}en/rulings/second-refresh-ends-turn/")
    wide.wait_for_url(f"{site}en/rulings/#r-second-refresh-ends-turn")
    assert wide.locator("#r-second-refresh-ends-turn + dd").inner_text().strip()
    # any other page never opened: the page that says what works offline
    wide.goto(f"{site}en/tags/")
    assert wide.locator("h1").inner_text() == "Offline"
    assert wide.locator("main a[href='../search/']").count() == 1


# ---------------------------------------------------------------------------- boards




def open_at(browser: Browser, base_url: str, width: int, path: str) -> Page:
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  device_scale_factor=1, service_workers="block")
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    tab.goto(f"{base_url}/{path}")
    return tab


#: A board's elements of a kind, with those of the boxes and boards it shows through <use>
#: (the page's frame holds what several boards share).
SHOWN = """(svg, selector) => {
    const out = [];
    const walk = node => {
        for (const el of node.querySelectorAll('*')) {
            if (el.matches(selector)) out.push(el);
            if (el.tagName === 'use') {
                const shown = document.getElementById(el.getAttribute('href').slice(1));
                if (shown && shown.id !== '""" + FRAME_ID + """') walk(shown);
            }
        }
    };
    walk(svg);
    return out;
}"""


def shown(figure: Locator, selector: str, what: str) -> list[Any]:
    """``what`` (a JavaScript expression of ``t``) for each element matching ``selector`` that
    the board of ``figure`` shows."""
    return figure.locator("svg.board").evaluate(
        f"(svg, sel) => ({SHOWN})(svg, sel).map(t => {what})", selector)


def captions(tab: Page) -> list[str]:
    """Each board's name in the open replay, as a screen reader gets it: the text its
    aria-labelledby names (its caption, or the step's heading when a caption would repeat it)."""
    return [c.strip() for c in tab.locator("#replay details[open] svg.board:not(.frame)")
            .evaluate_all("ss => ss.map(s => document.getElementById("
                          "s.getAttribute('aria-labelledby')).textContent)")]


@pytest.mark.parametrize("width", WIDTHS)
def test_an_attack_is_drawn_at_the_crush_and_after_each_burst(browser: Browser, base_url: str,
                                                              width: int) -> None:
    """One step (an attack with Double Crush) drawn at its key moments: the two crushed cards
    in the check zone, then after each Life Burst, then after the step; the cards that
    arrived underlined, those that left struck through where they were, a down SIGNI
    overlined, as the browser draws them."""
    tab = open_at(browser, base_url, width, f"en/{CRUSH}")
    try:
        told = captions(tab)
        assert told[1:4] == ["After the crush", "After the Life Burst of k2",
                             "After the Life Burst of k1"], told
        assert told[4].startswith("Step 1: attack with S1"), told
        crush = tab.locator("#replay details[open] figure").nth(1)
        crush.scroll_into_view_if_needed()
        box = crush.locator("svg").bounding_box()
        assert box is not None and box["width"] > 300 and box["height"] > 200
        marks = shown(crush, "tspan", "[t.textContent, t.getAttribute('class'), "
                      "getComputedStyle(t).textDecorationLine, getComputedStyle(t).fontWeight]")
        arrived = [m for m in marks if m[1] == "nw"]
        left = [m for m in marks if m[1] == "gn"]
        changed = [m for m in marks if "cg" in m[1].split()]
        assert [m[0] for m in arrived] == ["k1", "k2"], marks
        assert [m[0] for m in left] == ["k1", "k2"], marks
        assert [m[0] for m in changed] == ["S1\u2193"], marks
        assert all(m[2] == "underline" and int(m[3]) >= 700 for m in arrived), arrived
        assert all(m[2] == "line-through" for m in left), left
        assert all(m[2] == "overline" for m in changed), changed
        # the marks read without colour: the page explains them in words
        legend = tab.locator("#replay .legend").inner_text()
        for words in ("arrived", "left", "changed", "top card first"):
            assert words in legend, legend
    finally:
        tab.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_a_refresh_is_drawn_at_its_moment(browser: Browser, base_url: str,
                                          width: int) -> None:
    tab = open_at(browser, base_url, width, f"en/{RULING}")
    try:
        assert "After the refresh of Player 1" in captions(tab), captions(tab)
        figure = tab.locator("#replay details[open] figure",
                             has_text="After the refresh of Player 1").first
        figure.scroll_into_view_if_needed()
        new = shown(figure, "tspan.nw", "t.textContent")
        assert "l1" in new and "t1" in new, new  # the life cloth trashed, the trash reshuffled
        assert (figure.locator("svg").bounding_box() or {}).get("height", 0) > 150
    finally:
        tab.context.close()


@pytest.mark.parametrize("width", WIDTHS)
def test_piles_and_stacks_show_their_top(browser: Browser, base_url: str, width: int) -> None:
    """The frame draws ▲ before the first card of each main deck, life cloth and LRIG stack
    (one side of boxes, drawn for both players), and the first card's label starts right
    after it, on the same line."""
    tab = open_at(browser, base_url, width, f"ja/{CRUSH}")
    try:
        frame = tab.locator(f"#{FRAME_ID}")
        names = frame.evaluate("g => [...g.querySelectorAll('text')].map(t => t.textContent)")
        for zone in ("メインデッキ", "ライフクロス", "ルリグゾーン"):
            assert names.count(zone) == 1, names  # one side, drawn for both players
        assert names.count(TOP_MARK) == 3, names
        assert frame.locator(f"use[href='#{SIDE_ID}']").count() == 1
        board = tab.locator("#replay details[open] figure svg.board").first
        board.scroll_into_view_if_needed()
        # the top mark and the deck's first card on one line, the card after the mark
        tops = tab.evaluate("""id => [...document.getElementById(id).querySelectorAll('text')]
            .filter(t => t.textContent === '\u25b2')
            .map(t => [+t.getAttribute('x'), +t.getAttribute('y')])""", FRAME_ID)
        lines = shown(tab.locator("#replay details[open] figure").first, "text",
                      "[+t.getAttribute('x'), +t.getAttribute('y'), t.textContent]")
        starts = {(x, y): text for x, y, text in lines}
        deck = [starts.get((x + 11, y)) for x, y in tops]
        assert "e1 e2 e3 e4" in deck and "k1 k2 k3" in deck, (tops, lines)
    finally:
        tab.context.close()


def test_board_labels_are_at_least_11_px_on_a_phone(browser: Browser, base_url: str) -> None:
    """At 390 px wide, every text of every board (its own and the frame's it shows) is drawn
    at 11 px or more: the font size times the board's scale on the screen."""
    for lang in ("en", "ja", "zh-Hans"):
        tab = open_at(browser, base_url, 390, f"{lang}/{CRUSH}")
        try:
            sizes = tab.evaluate("""id => {
                const board = document.querySelector('#replay details[open] svg.board');
                const scale = board.getBoundingClientRect().width / board.viewBox.baseVal.width;
                const own = [...document.querySelectorAll('#replay details[open] svg.board text')];
                const frame = [...document.querySelectorAll('svg.frame text')];
                return [scale, own.length, frame.length,
                        ...[...own, ...frame].map(t =>
                            parseFloat(getComputedStyle(t).fontSize) * scale)];
            }""", FRAME_ID)
        finally:
            tab.context.close()
        scale, own, frame, *px = sizes
        assert own > 10 and frame > 20, sizes[:3]
        assert 0.9 < scale < 1.0, scale  # the board fills the phone's width
        assert min(px) >= 11, (lang, min(px))


@pytest.mark.parametrize("width", WIDTHS)
def test_the_card_key_names_each_card_by_a_short_name(browser: Browser, base_url: str,
                                                      width: int) -> None:
    tab = open_at(browser, base_url, width, f"en/{CRUSH}")
    try:
        key = tab.locator(".card-key").inner_text()
        for label, name in (("S1", "SIGNI with Double Crush"),
                            ("k1", "SIGNI with a draw burst"),
                            ("k2", "SIGNI with an Ener Charge burst"),
                            ("L", "Red LRIG, level 4")):
            assert f"{label} {name}" in key, key
        assert "put the top card" not in key and "Life Burst:" not in key, key
        assert tab.locator(".card-key").is_visible()
    finally:
        tab.context.close()
