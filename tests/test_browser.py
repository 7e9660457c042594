"""The site in a real browser: Playwright driving Debian's Chromium, headless.

The site is built once per session from the real corpus, with its Pagefind index, into a
temporary folder and served by ``judge serve``'s server (``http.server``) on 127.0.0.1 on a
free port. The tests open the home page, switch language on a ruling, search in the three
languages (and across them) and open the refresh ruling from the results, read a replay's
steps and board diagrams, and check a phone-width screenshot of a ruling page.

Chromium is ``/usr/bin/chromium`` (``apt-get install chromium``; ``playwright install`` is
never used). When it or the ``playwright`` package is missing the tests are skipped, except
when the environment variable ``CI`` is set: then they fail, so CI cannot pass without them.
"""

from __future__ import annotations

import os
import struct
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from judge.paths import project_root
from judge.site.build import build_site
from judge.site.searchindex import index_site
from judge.site.serve import start_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
RULING = "rulings/refresh-steps/"
TIMEOUT_MS = 20_000
PHONE = {"width": 360, "height": 740}


def unavailable(reason: str) -> None:
    """Skip, or fail when CI is set (CI installs Chromium: a skip there would hide a gap)."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run the browser tests (.ci/run installs Chromium)",
                    pytrace=False)
    pytest.skip(reason)


# ---------------------------------------------------------------------------- fixtures


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is not installed (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        unavailable(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def base_url(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The real corpus's site with its search index, served on 127.0.0.1."""
    out = tmp_path_factory.mktemp("browser") / "site"
    # a ruling another change breaks is test_site's business; here it is only marked
    build_site(out, root=project_root(), allow_failing=True, finish=index_site)
    server = start_server(out, 0)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    context.set_default_timeout(TIMEOUT_MS)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert not errors, f"script errors on the page: {errors}"


# ---------------------------------------------------------------------------- helpers


def search_results(page: Page) -> list[str]:
    """The result links shown, after asking for more until every result is on the page."""
    page.wait_for_selector(".pagefind-ui__result-link")
    for _ in range(20):
        more = page.locator(".pagefind-ui__button")
        if more.count() == 0:
            break
        more.first.click()
    # each result shows its link once its part of the index has been fetched
    page.wait_for_function("() => document.querySelectorAll('.pagefind-ui__result-link').length"
                           " === document.querySelectorAll('.pagefind-ui__result').length")
    return [a.get_attribute("href") or "" for a in
            page.locator(".pagefind-ui__result-link").element_handles()]


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
    assert page.locator(".pagefind-ui__search-input").input_value() == query  # from ?q=
    wanted = f"/{lang}/{RULING}"
    assert wanted in results, f"{query!r} in {lang}: {results}"
    assert all(r.startswith(f"/{lang}/rulings/") for r in results)
    page.locator(f".pagefind-ui__result-link[href='{wanted}']").click()
    page.wait_for_url(f"{base_url}{wanted}")
    assert page.locator("#replay section.step").count() >= 1


def test_search_filters_by_tag_rule_set_and_term(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/en/search/?q=refresh")
    everything = len(search_results(page))
    names = [n.strip() for n in page.locator(".pagefind-ui__filter-name").all_inner_texts()]
    assert {"Rule set", "Tag", "Term"} <= set(names), names
    before = page.locator(".pagefind-ui__message").inner_text().strip()
    page.locator(".pagefind-ui__filter-name", has_text="Rule set").click()
    page.locator("input[name='Rule set'][value='2014-04']").check()
    page.wait_for_function("text => (document.querySelector('.pagefind-ui__message') || {})"
                           ".textContent.trim() !== text", arg=before)
    narrowed = search_results(page)
    assert 0 < len(narrowed) < everything


def test_search_filters_are_in_the_page_language(page: Page, base_url: str) -> None:
    page.goto(f"{base_url}/ja/search/?q=リフレッシュ")
    search_results(page)
    names = [n.strip() for n in page.locator(".pagefind-ui__filter-name").all_inner_texts()]
    assert {"ルールセット", "タグ", "用語"} <= set(names), names
    page.locator(".pagefind-ui__filter-name", has_text="用語").click()
    values = page.locator(".pagefind-ui__filter-value").all_inner_texts()
    assert any(v.startswith("リフレッシュ") for v in values), values


def test_search_page_without_an_index_says_so(page: Page, base_url: str) -> None:
    page.route("**/pagefind/pagefind-ui.js", lambda route: route.fulfill(status=404))
    page.goto(f"{base_url}/en/search/?q=refresh")
    notice = page.locator("#search .notice")
    notice.wait_for()
    assert "without its search index" in notice.inner_text()


def test_replay_steps_and_diagrams(page: Page, base_url: str) -> None:
    told: dict[str, list[str]] = {}
    for lang in ("en", "ja"):
        page.goto(f"{base_url}/{lang}/{RULING}")
        replay = page.locator("#replay details[open]").first
        steps = replay.locator("section.step")
        assert steps.count() >= 2
        titles = [t.strip() for t in steps.locator("h3").all_inner_texts()]
        assert all(titles), titles
        sentences = [s.strip() for s in replay.locator("ol.events li").all_inner_texts()]
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
    assert page.locator("#board-frame").count() == 1
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
    context = browser.new_context(viewport=PHONE, device_scale_factor=1)
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
