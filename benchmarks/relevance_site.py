"""The site's half of the relevance benchmark, and the search page's weight and speed.

``benchmarks/relevance.py --engine site`` imports :func:`site_search_runner` from here: called
with the corpus root (or a site folder that ``judge build`` wrote), it is a context manager
that builds the site with its search index when needed, serves it on 127.0.0.1, opens each
language's search page once in Chromium (Playwright, ``/usr/bin/chromium``, as the browser
tests do) and yields ``search(query, lang) -> [result id, ...]``: the query is put in the
search page's box as if typed, and the ids are those of the results the page draws, best
first (a ruling id, ``term:ID``, ``processing:KIND`` or ``change:RULESET``; see
``site_templates/assets/search.js``)::

    with site_search_runner(Path(".")) as search:
        search("refresh", "en")   # ['refresh-steps', 'term:refresh', ...]

Run as a script, it prints the search page's weight and speed as benchmarks/search.py
measures them (the first search's bytes at the browser context, the service worker included;
the last keystroke to the results on a warm page)::

    python benchmarks/relevance_site.py [--site DIR] [--relevance]

and, with ``--relevance``, the judged query set through :func:`site_search_runner`
(``benchmarks/relevance.py``'s figures for the site).
"""

from __future__ import annotations

import argparse
import contextlib
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.site.build import MARKER, build_site  # noqa: E402
from judge.site.serve import start_server  # noqa: E402

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]
#: Milliseconds a query may take before it counts as finding nothing.
QUERY_TIMEOUT_MS = 15_000
#: Queries typed for the timing, per language (after the warm-up ones).
TYPED = {
    "en": ["refresh", "life burst", "double crush", "rule processing", "lancer", "guard",
           "main deck", "grow", "banish", "trash"],
    "ja": ["リフレッシュ", "ライフバースト", "ルール処理", "ランサー", "ガード", "バニッシュ",
           "メインデッキ", "グロウ", "トラッシュ", "アサシン"],
    "zh-Hans": ["重构", "生命爆发", "规则处理", "枪兵", "防御", "破坏", "主牌组", "成长",
                "废弃区", "暗杀"],
}

Search = Callable[[str, str], list[str]]

# Runs one query in the page: puts it in the box as typing does, and waits for the page to
# draw the results of that very query (search.js dispatches "judge:results").
_RUN_QUERY = """([query, timeout]) => new Promise((resolve, reject) => {
  const box = document.getElementById("search");
  const input = document.querySelector("form.search-main input[name=q]");
  const timer = setTimeout(() => reject(new Error("no results drawn for " + query)), timeout);
  const done = (event) => {
    if (event.detail.query !== query) return;
    box.removeEventListener("judge:results", done);
    clearTimeout(timer);
    resolve(event.detail.ids);
  };
  box.addEventListener("judge:results", done);
  input.value = query;
  input.dispatchEvent(new Event("input", { bubbles: true }));
})"""

@contextlib.contextmanager
def _site(path: Path) -> Iterator[Path]:
    """A built site with its index: ``path`` itself if it is one, else one built from the
    corpus at ``path`` into a temporary folder."""
    path = path.resolve()
    if (path / MARKER).is_file() and (path / "search-index" / "meta.json.gz").is_file():
        yield path
        return
    with tempfile.TemporaryDirectory(prefix="judge-relevance-site-") as work:
        out = Path(work) / "site"
        build_site(out, root=path, allow_failing=True, search=True)
        yield out


@contextlib.contextmanager
def _browser() -> Iterator[Browser]:
    from playwright.sync_api import sync_playwright

    if not CHROMIUM.exists():
        raise SystemExit(f"the site benchmark needs Chromium at {CHROMIUM} "
                         "(apt-get install chromium)")
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                             args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@contextlib.contextmanager
def _served(site: Path) -> Iterator[str]:
    server = start_server(site, 0)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


def _open_search(browser: Browser, base: str, lang: str) -> Page:
    page = browser.new_context().new_page()
    page.goto(f"{base}/{lang}/search/")
    page.wait_for_function("() => window.judgeSearch !== undefined")
    return page


def run_query(page: Page, query: str) -> list[str]:
    """The ids of the results the search page draws for ``query``."""
    return [str(i) for i in page.evaluate(_RUN_QUERY, [query, QUERY_TIMEOUT_MS])]


@contextlib.contextmanager
def site_search_runner(path: Path = ROOT) -> Iterator[Search]:
    """``search(query, lang) -> result ids`` on the site's search pages in Chromium; ``path``
    is the corpus root (the site is built with its index into a temporary folder) or a site
    folder built by ``judge build`` with its index."""
    with _site(Path(path)) as site, _browser() as browser, _served(site) as base:
        yield _searcher(browser, base)


def _searcher(browser: Browser, base: str) -> Search:
    pages: dict[str, Page] = {}

    def search(query: str, lang: str) -> list[str]:
        if lang not in pages:
            pages[lang] = _open_search(browser, base, lang)
        return run_query(pages[lang], query)

    return search


# ---------------------------------------------------------------------- measurements


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a site built with its index "
                        "(default: build the corpus's into a temporary folder)")
    parser.add_argument("--relevance", action="store_true",
                        help="also run the judged query set (benchmarks/relevance.py)")
    args = parser.parse_args(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from search import measure_site

    with _site(args.site or ROOT) as site:
        measure_site(f"the site in {site}", site, 200, len(TYPED["en"]))
        if args.relevance:
            from relevance import evaluate, load_queries

            with _browser() as browser, _served(site) as base:
                report = evaluate(_searcher(browser, base), load_queries(), engine="site")
                print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
