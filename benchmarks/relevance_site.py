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

Run as a script, it measures what issue #10 asks of the search page and prints it::

    python benchmarks/relevance_site.py [--site DIR] [--relevance]

- the bytes the first search downloads, in a browser with an empty cache: opening the search
  page with ``?q=`` until the results are drawn, everything counted (page, stylesheets,
  scripts, Pagefind's library and WebAssembly, index chunks, fragments), and the part that
  comes after the page has loaded when the query is typed instead (target: 200 KB);
- the time from the last keystroke to the results on a warm page (the index files for the
  words already fetched, as on a page where a judge has searched before), for queries typed
  key by key at 120 ms a key (kana and ideographs arrive at once, as from an input method):
  median, 90th percentile and worst (target: 150 ms);
- with ``--relevance``, the judged query set through :func:`site_search_runner`
  (``benchmarks/relevance.py``'s figures for the site).
"""

from __future__ import annotations

import argparse
import contextlib
import statistics
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
FIRST_SEARCH = {"ja": "リフレッシュ", "en": "refresh", "zh-Hans": "重构"}
TARGET_BYTES = 200_000
TARGET_MS = 150.0
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

# Times from the last keystroke (the last input event) to the results of the box's value.
_WATCH = """() => {
  window.__typed = null;
  const box = document.getElementById("search");
  const input = document.querySelector("form.search-main input[name=q]");
  input.addEventListener("input", () => { window.__last = performance.now(); });
  box.addEventListener("judge:results", (event) => {
    if (event.detail.query === input.value) {
      window.__typed = performance.now() - window.__last;
    }
  });
}"""


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


def first_search_bytes(browser: Browser, base: str, lang: str, query: str) -> dict[str, Any]:
    """Bytes downloaded by a browser with an empty cache: for the search page opened with
    ``?q=query`` until its results are drawn, by kind of file; and, on a page opened
    without a query, what typing the query then downloads."""
    out: dict[str, Any] = {}
    for how in ("address", "typed"):
        context = browser.new_context()
        page = context.new_page()
        sizes: dict[str, int] = {}
        after_load: list[int] = [0]
        loaded = [False]

        def finished(request: Any, sizes: dict[str, int] = sizes,
                     after_load: list[int] = after_load, loaded: list[bool] = loaded) -> None:
            size = request.sizes()["responseBodySize"] + request.sizes()["responseHeadersSize"]
            name = request.url.split("?")[0].rsplit("/", 2)
            kind = name[-1] if "." in name[-1] and "pf_" not in name[-1] else \
                (name[-2] if len(name) > 1 else name[-1])
            if kind.startswith("wasm."):
                kind = "wasm"
            elif not kind or kind in (lang, "search"):
                kind = "page"
            sizes[kind] = sizes.get(kind, 0) + size
            if loaded[0]:
                after_load[0] += size

        page.on("requestfinished", finished)
        if how == "address":
            page.goto(f"{base}/{lang}/search/?q={query}")
            page.wait_for_function("() => document.getElementById('search')"
                                   ".getAttribute('data-state') === 'done'")
        else:
            page.goto(f"{base}/{lang}/search/")
            page.wait_for_load_state("networkidle")
            loaded[0] = True
            run_query(page, query)
        page.wait_for_timeout(300)  # the last responses' sizes
        out[how] = {"total": sum(sizes.values()), "files": dict(sorted(sizes.items())),
                    "after_load": after_load[0]}
        context.close()
    return out


def typing_times(browser: Browser, base: str, lang: str) -> list[float]:
    """Milliseconds from the last keystroke to the drawn results, on a warm page."""
    page = _open_search(browser, base, lang)
    for query in TYPED[lang]:  # warm: each query's part of the index fetched once
        run_query(page, query)
    page.evaluate(_WATCH)
    box = page.locator("form.search-main input[name=q]")
    times: list[float] = []
    for query in TYPED[lang]:
        box.fill("")
        page.wait_for_timeout(100)
        if query.isascii():
            box.press_sequentially(query, delay=120)
        else:
            page.keyboard.insert_text(query)  # as an input method commits it
        page.wait_for_function("() => window.__typed !== null", timeout=QUERY_TIMEOUT_MS)
        times.append(float(page.evaluate("() => { const t = window.__typed;"
                                         " window.__typed = null; return t; }")))
    page.context.close()
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a site built with its index "
                        "(default: build the corpus's into a temporary folder)")
    parser.add_argument("--relevance", action="store_true",
                        help="also run the judged query set (benchmarks/relevance.py)")
    args = parser.parse_args(argv)
    with _site(args.site or ROOT) as site, _browser() as browser, _served(site) as base:
        print("first search, empty cache (bytes):")
        worst = 0
        for lang, query in FIRST_SEARCH.items():
            figures = first_search_bytes(browser, base, lang, query)
            address, typed = figures["address"], figures["typed"]
            worst = max(worst, address["total"])
            print(f"  {lang:8} {query!r}: page with ?q= {address['total']:,} "
                  f"(after the page loaded, typed: {typed['after_load']:,} of "
                  f"{typed['total']:,})")
            print("           " + ", ".join(f"{k} {v:,}" for k, v in address["files"].items()))
        print(f"  target {TARGET_BYTES:,}: {'met' if worst <= TARGET_BYTES else 'MISSED'}")
        print("last keystroke to results, warm page (ms):")
        every: list[float] = []
        for lang in TYPED:
            times = typing_times(browser, base, lang)
            every += times
            print(f"  {lang:8} median {statistics.median(times):.0f}  "
                  f"p90 {statistics.quantiles(times, n=10)[-1]:.0f}  max {max(times):.0f}")
        print(f"  all      median {statistics.median(every):.0f}  "
              f"p90 {statistics.quantiles(every, n=10)[-1]:.0f}  max {max(every):.0f}  "
              f"target {TARGET_MS:.0f}: {'met' if max(every) <= TARGET_MS else 'MISSED'}")
        if args.relevance:
            sys.path.insert(0, str(Path(__file__).resolve().parent))
            from relevance import evaluate, load_queries

            report = evaluate(_searcher(browser, base), load_queries(), engine="site")
            print("\n".join(report.lines()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
