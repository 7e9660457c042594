"""Sources, interpretations, the "rests on official text" filter and the timeline in a real
browser, at 1280 and 390 px wide (Playwright driving Debian's Chromium, as tests/test_browser.py;
with ``CI`` set a missing browser fails instead of skipping).

The real corpus is built once for this module, with its search index, and served on
127.0.0.1.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest
from test_browser import TIMEOUT_MS, search_results

from judge.corpus import load_corpus
from judge.data import load_rulesets
from judge.paths import project_root
from judge.site.build import build_site
from judge.site.serve import start_server
from judge.sources import rests_on_official

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Locator, Page

WIDTHS = (1280, 390)
#: cites an official quote and community pages, and marks an interpretation
MIXED = "rulings/refresh-empty-trash/"
#: cites an official notice with a link, and the official Twitter quote without one
OFFICIAL = "rulings/triggered-draw-with-empty-deck/"


@pytest.fixture(scope="module")
def site_url(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    out = tmp_path_factory.mktemp("browser-sources") / "site"
    build_site(out, root=project_root(), allow_failing=True, search=True)
    server = start_server(out, 0)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture(params=WIDTHS, ids=lambda w: f"{w}px")
def tab(request: pytest.FixtureRequest, browser: Browser) -> Iterator[Page]:
    width = request.param
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  service_workers="block")
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    yield page
    context.close()
    assert not errors, errors


def width_of(page: Page) -> int:
    return int(page.viewport_size["width"]) if page.viewport_size else 0


def inside(page: Page, selector: str) -> None:
    """Every element matching ``selector`` is shown and fits the width of the window."""
    found = page.locator(selector)
    assert found.count() > 0, selector
    for i in range(found.count()):
        item = found.nth(i)
        assert item.is_visible(), (selector, i)
        box = item.bounding_box()
        assert box is not None, (selector, i)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width_of(page) + 1, (selector, i, box)


def no_sideways_scroll(page: Page) -> None:
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= width_of(page) + 1, f"the page scrolls sideways: {scroll}px"


def test_authority_labels_dates_and_links(tab: Page, site_url: str) -> None:
    tab.goto(f"{site_url}/en/{OFFICIAL}")
    inside(tab, "#sources .auth")
    labels = tab.locator("#sources .auth").all_inner_texts()
    assert "official" in labels and "official, as quoted" in labels, labels
    notice = tab.locator("#sources li", has_text="Takara Tomy")
    assert notice.locator("a").get_attribute("href", timeout=TIMEOUT_MS).startswith(
        "https://www.takaratomy.co.jp/")
    assert "2014-06-25" in notice.inner_text()
    tweet = tab.locator("#sources li", has_text="Twitter")
    assert tweet.locator("a").count() == 0 and "2014-06-20" in tweet.inner_text()
    inside(tab, ".basis-official")
    # the same labels in Japanese and Chinese
    tab.goto(f"{site_url}/ja/{OFFICIAL}")
    assert "公式（引用）" in tab.locator("#sources .auth").all_inner_texts()
    tab.goto(f"{site_url}/zh-Hans/{MIXED}")
    labels = tab.locator("#sources .auth").all_inner_texts()
    assert "官方（引用）" not in labels and "社区" in labels, labels
    assert "无日期" in tab.locator("#sources").inner_text()  # an undated wiki page
    no_sideways_scroll(tab)


def test_interpretations_are_labelled(tab: Page, site_url: str) -> None:
    for lang, label in (("en", "this project's interpretation"), ("ja", "本プロジェクトの解釈"),
                        ("zh-Hans", "本项目的解读")):
        tab.goto(f"{site_url}/{lang}/{MIXED}")
        inside(tab, "#explanation .interp-label")
        assert tab.locator("#explanation .interp-label").first.inner_text() == label
        style = tab.locator("#explanation .interpretation").first.evaluate(
            "e => getComputedStyle(e).borderBottomStyle")
        assert style == "dashed"
        assert "{.interpretation}" not in tab.content()
    no_sideways_scroll(tab)


def test_the_ruling_list_keeps_only_rulings_on_official_text(tab: Page, site_url: str) -> None:
    corpus = load_corpus(project_root(), replay=False)
    official = {r.id for r in corpus.rulings if rests_on_official(r.scenario.sources,
                                                                  corpus.sources)}
    assert 0 < len(official) < len(corpus.rulings)
    tab.goto(f"{site_url}/en/rulings/")
    shown = tab.locator(".answers dt:visible")
    assert shown.count() == len(corpus.rulings)
    tab.locator("#only-official").check()
    shown = tab.locator(".answers dt:visible")
    assert shown.count() == len(official)
    ids = {(shown.nth(i).get_attribute("id") or "")[2:] for i in range(shown.count())}
    assert ids == official
    assert not tab.locator("#r-attacking-is-optional").is_visible()
    inside(tab, ".answers dt:visible .basis-official")
    tab.locator("#only-official").uncheck()
    assert tab.locator(".answers dt:visible").count() == len(corpus.rulings)
    no_sideways_scroll(tab)


def test_search_filters_by_sources(tab: Page, site_url: str) -> None:
    tab.goto(f"{site_url}/en/search/?q=refresh")
    everything = search_results(tab)
    tab.locator("#search details.filters summary").click()
    tab.locator("fieldset[data-filter='Sources'] input").first.wait_for()
    values = [v.strip().rsplit(" ", 1)[0] for v in
              tab.locator("fieldset[data-filter='Sources'] label").all_inner_texts()]
    assert values == ["community only", "official text"], values
    def tick(shown: str) -> Locator:
        return tab.locator("fieldset[data-filter='Sources'] label",
                           has_text=shown).locator("input")

    tick("official text").check()
    official = search_results(tab)
    assert 0 < len(official) < len(everything)
    assert tab.locator(".result .basis-official").count() == len(official)
    tick("official text").uncheck()
    tick("community only").check()
    community = search_results(tab)
    assert community and not set(community) & set(official)
    assert tab.locator(".result .basis-official").count() == 0


def test_the_timeline_shows_each_change_before_and_after(tab: Page, site_url: str) -> None:
    tab.goto(f"{site_url}/en/timeline/")
    change = tab.locator("#rs-2014-09")
    row = change.locator("#ch-2014-09-second-refresh-ends-turn")
    row.scroll_into_view_if_needed()
    assert row.is_visible()
    # the answer before and after, side by side, as sentences; the facts folded under them
    sides = row.locator(".answers-side .side").all_inner_texts()
    assert "It is turn 3." in sides[0] and "It is turn 4." in sides[1], sides
    row.locator("details.fold summary").click()
    cells = row.locator("tbody tr", has_text="Turn").first.locator("td")
    assert [cells.nth(i).inner_text() for i in range(2)] == ["3", "4"]
    display = cells.first.evaluate("e => getComputedStyle(e).display")
    before = cells.nth(0).evaluate("e => getComputedStyle(e, '::before').content")
    after = cells.nth(1).evaluate("e => getComputedStyle(e, '::before').content")
    text = row.inner_text()
    if width_of(tab) <= 480:
        # on a phone each cell is a line of its own, named by its rule set and date
        assert display == "block"
        titles = load_rulesets()
        assert (before, after) == (f'"{titles["2014-07"].title["en"]} (2014-07-01) "',
                                   f'"{titles["2014-09"].title["en"]} (from 2014-09-01) "')
    else:
        assert display == "table-cell" and before in ("none", "normal")
        # the dates that matter for this change only: the rule set before it and this one
        assert "2014-07-01" in text and "from 2014-09-01" in text
    assert "2014-04" not in text
    # every change the rule sets record has its section, the launch rules none of rows
    assert tab.locator(".change").count() == 4
    assert tab.locator("#rs-2014-04 .changed").count() == 0
    for rs in ("2014-07", "2014-09", "current"):
        assert tab.locator(f"#rs-{rs} .changed").count() > 0, rs
    no_sideways_scroll(tab)
