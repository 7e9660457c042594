"""Replays that show the rules as they happen, in Chromium at 1280 and 390 px (issue 26).

- one check, one moment: on the pages (and in the sandbox, under Pyodide) a check that
  applies several kinds is told "At the same time" and drawn once at the check, every
  condition marked and said by the board's text alternative, and once after it;
- a judge's order: a refresh told summary first;
- the rule behind each step: a link to where the kind is stated, with its source, and back;
- the timeline as answers: the answer before and after side by side, readable on a phone,
  the facts folded under them with the card key;
- the page's order on a phone: answer, card key, the facts (folded when long), the replay;
  English row headings with a capital, Japanese and Chinese with their own full stop;
- a favicon, dates that do not wrap, a Chinese word for the Key Selection, struck cards at
  4.5:1, a board's text alternative listing each zone's cards.

Needs Chromium (tests/conftest.py's ``browser``); the sandbox test needs
``node_modules/pyodide`` too: without them the tests skip, or fail when ``CI`` is set.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import unavailable
from test_board import contrast
from test_one_moment import check_replay_html, found, ruling_ids

from judge.paths import project_root
from judge.site import sandbox_build
from judge.site.build import build_site
from judge.site.serve import start_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

WIDTHS = (1280, 390)
TIMEOUT_MS = 20_000
#: The first request to the sandbox starts Pyodide: generous, for a loaded machine.
START_MS = 120_000
AT_ONCE = "rulings/power-zero-and-refresh-at-once/"
BOTH = "rulings/empty-main-deck-refresh-both-players/"
#: A page whose facts under each rule set run past a phone's screen.
LONG = "rulings/refresh-timing-history/"


@pytest.fixture(scope="module")
def site(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("replay") / "site"
    build_site(out, root=project_root(), allow_failing=True)
    return out


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    server = start_server(site, 0)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def tab(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    """A page at each width (no service worker: its downloads would race the page's)."""
    context = browser.new_context(viewport={"width": request.param, "height": 800},
                                  service_workers="block")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    missing: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("response", lambda r: missing.append(r.url) if r.status == 404 else None)
    yield page
    context.close()
    assert not errors, f"script errors on the page: {errors}"
    assert not missing, f"not found: {missing}"


def width_of(page: Page) -> int:
    return int(page.viewport_size["width"]) if page.viewport_size else 0


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= width_of(page) + 1


def top(page: Page, selector: str) -> float:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return float(box["y"])


def description(page: Page, figure: Any) -> str:
    """The text alternative a screen reader reads after a board's caption."""
    return str(figure.locator("svg.board").evaluate(
        "svg => { const id = svg.getAttribute('aria-describedby');"
        " const d = id && document.getElementById(id); return d ? d.textContent : ''; }"))


# ---------------------------------------------------------------------------- one moment


def test_a_check_is_one_moment_drawn_at_the_check_and_after(tab: Page, base_url: str) -> None:
    tab.goto(f"{base_url}/en/{AT_ONCE}")
    replay = tab.locator("#replay details[open]")
    captions = replay.locator("figcaption").all_inner_texts()
    at = [i for i, c in enumerate(captions) if c.startswith("At the check of rule processing")]
    assert len(at) == 1 and captions[at[0] + 1].startswith("After rule processing"), captions
    figure = replay.locator("figure").nth(at[0])
    assert figure.is_visible()
    # the power-0 SIGNI and the empty main deck, both marked on the one board
    marked = figure.locator("tspan.rp").all_text_contents()
    assert "P1!" in marked, marked
    assert "0!" in figure.locator("text.zc.rp").all_text_contents()
    said = description(tab, figure)
    assert "SIGNI zone 1: P1 (meets a condition of rule processing, power 0)" in said, said
    assert "Main deck: empty (meets a condition of rule processing)" in said, said
    # told at once, before the board; the refresh summary first, then its cards
    told = [t.strip() for t in replay.locator("section.step li").all_inner_texts()]
    first = next(i for i, t in enumerate(told) if t.startswith("At the same time"))
    assert "P1 (power 0 or less)" in told[first] and "Player 1 (refresh)" in told[first]
    assert told[first + 1].startswith("Player 1 refreshes: the trash becomes")
    assert told[first + 2].startswith("The refresh puts t1")
    assert told[-1].startswith("P1 is banished by rule processing")
    after = replay.locator("figure").nth(at[0] + 1)
    assert "P1" in description(tab, after) and "Ener Zone: P1" in description(tab, after)
    no_sideways_scroll(tab)


def test_both_players_refresh_in_one_moment_in_every_language(tab: Page,
                                                              base_url: str) -> None:
    for lang, at_once in (("en", "At the same time"), ("ja", "同時に"), ("zh-Hans", "同时")):
        tab.goto(f"{base_url}/{lang}/{BOTH}")
        figure = tab.locator("#replay details[open] figure:has(text.zc.rp)")
        assert figure.count() == 1, lang
        assert figure.locator("text.zc.rp").all_text_contents() == ["0!", "0!"]
        told = tab.locator("#replay details[open] li").all_inner_texts()
        assert any(t.startswith(at_once) for t in told), (lang, told)


def test_the_sandbox_shows_each_check_as_one_moment(browser: Browser, base_url: str) -> None:
    """Under Pyodide: "Try it" draws the page's moment as the page does, and the sandbox's
    answer for every ruling with such a check passes the one-moment test."""
    reason = sandbox_build.missing_reason()
    if reason:
        unavailable(reason)
    root = project_root()
    for width in WIDTHS:
        context = browser.new_context(viewport={"width": width, "height": 900},
                                      service_workers="block")
        context.set_default_timeout(30_000)
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda exc, seen=errors: seen.append(str(exc)))
        try:
            page.goto(f"{base_url}/en/{AT_ONCE}")
            page.click("button[data-sandbox]")
            page.wait_for_function(
                "() => { const s = document.querySelector('.sandbox');"
                " return s && Number(s.getAttribute('data-replays')) >= 1; }",
                timeout=START_MS)
            output = page.locator(".sb-output details[open]")
            captions = output.locator("figcaption").all_inner_texts()
            assert any(c.startswith("At the check of rule processing") for c in captions)
            figure = output.locator("figure:has(tspan.rp)")
            assert "P1!" in figure.locator("tspan.rp").all_text_contents()
            assert "meets a condition of rule processing" in description(page, figure)
            link = output.locator("span.rule a").first
            assert link.get_attribute("href") == "../../processing/#kind-power"
            if width == WIDTHS[0]:  # the corpus's every such check, once
                for rid in ruling_ids():
                    ruling = next(m.ruling for m in found() if m.ruling.id == rid)
                    text = (root / ruling.path).read_text(encoding="utf-8")
                    answer = page.evaluate(
                        "a => window.judgeSandbox.ask({type: 'replay', text: a[0], path: a[1],"
                        " lang: 'en'}).then(r => r.value)", [text, ruling.path])
                    assert answer["ok"], (rid, answer["report"])
                    for m in found():
                        if m.ruling.id == rid:
                            check_replay_html(answer["html"], m, "en")
        finally:
            context.close()
        assert not errors, errors


# ---------------------------------------------------------------------------- rules


def test_a_step_links_to_its_rule_and_the_rule_back_to_the_step(tab: Page,
                                                                base_url: str) -> None:
    tab.goto(f"{base_url}/en/{AT_ONCE}")
    sentence = tab.locator("#replay details[open] li", has_text="At the same time")
    note = sentence.locator("span.rule")
    assert "WIXOSS glossary: Rule processing § kind 1, kind 5, property 3" in note.inner_text()
    note.locator("a", has_text="rule processing 1").click()
    tab.wait_for_url("**/en/processing/#kind-power")
    kind = tab.locator("#kind-power")
    assert kind.is_visible() and "power 0 or less" in kind.inner_text()
    assert "kind 1" in kind.locator(".sources").inner_text()
    back = kind.locator("a[href*='power-zero-and-refresh-at-once']")
    assert back.get_attribute("href", timeout=TIMEOUT_MS).endswith("#rule-kind-power")
    back.click()
    tab.wait_for_url("**/power-zero-and-refresh-at-once/#rule-kind-power")
    assert tab.locator("#rule-kind-power").evaluate(
        "e => e.closest('li').textContent").startswith("At the same time")
    no_sideways_scroll(tab)


# ---------------------------------------------------------------------------- timeline


def test_the_timeline_sets_the_answers_side_by_side(tab: Page, base_url: str) -> None:
    tab.goto(f"{base_url}/en/timeline/")
    change = tab.locator("#ch-2014-07-refresh-before-triggered-ability")
    sides = change.locator(".answers-side .side")
    assert sides.count() == 2
    before, after = (sides.nth(i).bounding_box() for i in (0, 1))
    assert before is not None and after is not None
    assert before["x"] + before["width"] <= after["x"] + 1 and abs(before["y"] - after["y"]) < 2
    assert "Player 1's main deck holds 1 card." in sides.nth(0).inner_text()
    assert "Player 1's main deck holds 2 cards." in sides.nth(1).inner_text()
    assert "Rules at launch" in sides.nth(0).inner_text()
    # the facts folded under the answers, with the key to their labels when they need one
    table = change.locator("table.diff")
    assert not table.is_visible()
    change.locator("details.fold summary").click()
    assert table.is_visible()
    labels = table.locator("td").evaluate_all("tds => tds.map(t => t.dataset.label)")
    assert all(label and "2014-04 · 2014-04" not in label for label in labels), labels
    keyed = tab.locator("details.fold .card-key")
    assert keyed.count() > 0
    no_sideways_scroll(tab)


# ---------------------------------------------------------------------------- a phone's order


def test_a_ruling_page_reads_answer_cards_facts_replay(tab: Page, base_url: str) -> None:
    tab.goto(f"{base_url}/en/{LONG}")
    order = [top(tab, s) for s in ("#answer", ".card-key", "#rulesets", "#replay")]
    assert order == sorted(order), order
    # the long facts are folded: the replay is not pushed down by them
    fold = tab.locator("#rulesets details.fold")
    assert fold.count() == 1 and fold.get_attribute("open") is None
    first_board = top(tab, "#replay details[open] figure")
    fold.locator("summary").click()
    assert top(tab, "#replay details[open] figure") > first_board
    headings = tab.locator("#rulesets th[scope=row]").all_inner_texts()
    assert headings and all(h[:1].isupper() or not h[:1].isalpha() for h in headings), headings
    no_sideways_scroll(tab)


def test_under_a_signi_row_headings_begin_with_a_capital(tab: Page, base_url: str) -> None:
    tab.goto(f"{base_url}/en/rulings/cards-under-signi-go-to-trash/")
    headings = tab.locator("#rulesets th[scope=row]").all_inner_texts()
    assert any(h.startswith("Under Player") for h in headings), headings


def test_japanese_and_chinese_key_and_legend_end_with_their_full_stop(tab: Page,
                                                                      base_url: str) -> None:
    for lang in ("ja", "zh-Hans"):
        tab.goto(f"{base_url}/{lang}/{AT_ONCE}")
        for selector in (".card-key", "#replay .legend"):
            text = tab.locator(selector).inner_text().strip()
            assert text.endswith("。") and not text.endswith("."), (lang, selector, text)


# ---------------------------------------------------------------------------- smaller things


def test_every_page_has_a_favicon_and_no_request_fails(tab: Page, base_url: str) -> None:
    """The tab fixture fails the test on any 404 (a browser asks /favicon.ico otherwise)."""
    for path in ("en/", f"ja/{AT_ONCE}", "zh-Hans/timeline/"):
        tab.goto(f"{base_url}/{path}")
        href = tab.locator("link[rel=icon]").get_attribute("href")
        assert href and href.endswith("assets/favicon.svg")
        status = tab.evaluate("h => fetch(h).then(r => [r.status, r.headers.get("
                              "'content-type')])", href)
        assert status[0] == 200 and "svg" in status[1], status


def test_home_page_dates_stay_on_one_line(tab: Page, base_url: str) -> None:
    for lang in ("en", "ja", "zh-Hans"):
        tab.goto(f"{base_url}/{lang}/")
        dates = tab.locator("main .sets")
        assert dates.count() > 0
        lines = dates.evaluate_all("ds => ds.map(d => [d.textContent, d.getClientRects()"
                                   ".length, getComputedStyle(d).whiteSpace])")
        assert all(n == 1 and ws == "nowrap" for _, n, ws in lines), lines
        no_sideways_scroll(tab)


def test_the_chinese_glossary_names_the_key_selection_in_chinese(tab: Page,
                                                                 base_url: str) -> None:
    tab.goto(f"{base_url}/zh-Hans/glossary/#t-format")
    definition = tab.locator("#t-format .md").inner_text()
    assert "钥匙环境" in definition and "key" not in definition.lower(), definition
    # the community's word stays an alias a search finds
    assert "key环境" in tab.locator("#t-format .aliases").inner_text()


def test_left_cards_read_at_4_5_to_1(tab: Page, base_url: str) -> None:
    tab.goto(f"{base_url}/en/{AT_ONCE}")
    left = tab.locator("#replay details[open] tspan.gn").first
    colour = left.evaluate("e => getComputedStyle(e).fill")
    box = tab.locator("svg.board.frame path.bx").evaluate("e => getComputedStyle(e).fill")

    def rgb(text: str) -> tuple[int, int, int]:
        r, g, b = (int(x) for x in text[text.index("(") + 1:text.index(")")].split(",")[:3])
        return r, g, b

    assert contrast(rgb(colour), rgb(box)) >= 4.5, (colour, box)


def test_a_boards_text_alternative_lists_each_zones_cards(tab: Page, base_url: str) -> None:
    for lang, words in (("en", ("Player 2's turn.", "Player 1:", "SIGNI zone 1: P1 (power "
                                "5000).", "Main deck: d1 to d3.", "Trash: t1.")),
                        ("ja", ("プレイヤー2のターン。", "シグニゾーン1：P1（パワー5000）。")),
                        ("zh-Hans", ("玩家2的回合。", "精灵区1：P1（力量5000）。"))):
        tab.goto(f"{base_url}/{lang}/{AT_ONCE}")
        setup = tab.locator("#replay details[open] figure").first
        said = description(tab, setup)
        for word in words:
            assert word in said, (lang, word, said)
        # every board of the page has one, the outcomes' too
        assert tab.locator("svg.board:not(.frame):not([aria-describedby])").count() == 0


def test_a_virus_is_drawn_on_its_zone_and_said(tab: Page, base_url: str) -> None:
    """A marker on a SIGNI zone (issue 30, round three) is drawn in its box, explained by the
    legend and said by the board's text alternative, in every language."""
    for lang, legend, said_words in (
            ("en", "a virus on the zone", "SIGNI zone 1: D1 (power 3000), a virus on the zone."),
            ("ja", "ゾーンにウィルスがある", "ゾーンにウィルスがある"),
            ("zh-Hans", "区域上有病毒", "区域上有病毒")):
        tab.goto(f"{base_url}/{lang}/rulings/constant-ability-reads-a-virus-set-now/")
        last = tab.locator("#replay details[open] figure").last
        assert "\u2623" in last.locator("text.mk").all_text_contents()
        said = description(tab, last)
        assert said_words in said, (lang, said)
        assert f"\u2623 {legend}" in tab.locator(".legend").first.inner_text(), lang
