"""Figures of the browser sandbox (issue 14; docs/site.md, "The sandbox").

Builds the corpus's site without its search index (or uses ``--site DIR``), serves it on
127.0.0.1 and measures in Chromium (``/usr/bin/chromium``):

- from the click on "Try it" to the first replay shown, with an empty cache (cold) and again
  in the same browser after a first use (warm: the HTTP cache and the service worker's);
- the bytes the sandbox transfers on a cold first use (every response after the click);
- a replay after an edit, for every ruling of the corpus: the ruling's text, with one card
  more in a hand, put in the editor, until its replay is shown (median and worst). The
  issue's target is under 200 ms; the anchor is the same
  :func:`judge.site.sandbox.replay_text` natively in this Python, run in turns with the
  browser's, ruling by ruling (the browser first for one ruling, the native replay first for
  the next): the median and spread of the paired ratios, with the load (benchmarks/paired.py).

- the start (issue 31): from the click to the first replay, cold (a fresh browser context:
  nothing kept) and warm (a new page of the same context after a first use: what a reload
  or an offline start does, the service worker's files and the bytecode the worker kept in
  IndexedDB, sandbox-worker.js), each paired with Pyodide's own bare start in the same
  context state (a worker that only loads Pyodide from the site, nothing of this project):
  the median and spread of the paired ratios over ``--starts`` rounds, the load, and the
  issue's target, a warm start within 2 s; and a warm start paired with the same start
  after the kept bytecode is deleted, which says what keeping it buys.

It prints the figures; it is not a test::

    python benchmarks/sandbox.py [--site DIR] [--corpus DIR] [--rulings N] [--starts N]

``--corpus DIR``: a folder holding ``rulings/`` (default: the project's).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent))

import paired  # noqa: E402

from judge.paths import project_root
from judge.scenario.load import discover
from judge.site import sandbox
from judge.site.build import build_site
from judge.site.serve import start_server

TARGET_MS = 200
#: The issue's target for a warm start (after a reload, or offline), in ms.
WARM_TARGET_MS = 2000
#: Pyodide's bare start in a worker: only its loader and its files, from the site (ms).
BARE = """async (base) => {
    const code = 'importScripts("' + base + '/pyodide/pyodide.js");' +
        'loadPyodide({indexURL: "' + base + '/pyodide/"}).then(() => postMessage("up"));';
    const start = performance.now();
    const worker = new Worker(URL.createObjectURL(new Blob([code], {type: "text/javascript"})));
    await new Promise((resolve) => { worker.onmessage = resolve; });
    worker.terminate();
    return performance.now() - start;
}"""
#: Put a text in the editor and wait for its replay; the milliseconds, as the page sees them.
EDIT = """async ([text, path]) => {
    const box = window.judgeSandbox.open(document.querySelector('button[data-sandbox]'));
    const panel = document.querySelector('.sandbox');
    const before = Number(panel.getAttribute('data-replays'));
    box.path = path;
    const start = performance.now();
    box.edit(text);
    while (Number(panel.getAttribute('data-replays')) === before) {
        await new Promise(r => setTimeout(r, 2));
    }
    return [performance.now() - start, panel.getAttribute('data-state')];
}"""


def edited(text: str) -> str:
    """A ruling with one edit: a card more at the end of player 1's hand (or a new hand)."""
    head = "[setup.p1]\n"
    if head not in text:
        return text + "\n"
    body = text.split(head, 1)[1]
    lines = body.split("\n")
    for i, line in enumerate(lines):
        if line.startswith("[") or line.startswith("[["):
            break
        if line.startswith("hand = [") and line.rstrip().endswith("]"):
            inner = line[len("hand = ["):line.rstrip().rindex("]")].strip()
            lines[i] = 'hand = [' + (inner + ', ' if inner else '') + '"zz1"]'
            return text.split(head, 1)[0] + head + "\n".join(lines)
    return text.replace(head, head + 'hand = ["zz1"]\n', 1)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--site", type=Path, help="a built site (default: build one)")
    parser.add_argument("--corpus", type=Path, default=None,
                        help="a folder holding rulings/ (default: the project)")
    parser.add_argument("--rulings", type=int, default=0, help="only the first N rulings")
    parser.add_argument("--starts", type=int, default=3,
                        help="rounds of cold and warm starts, each paired with a bare one")
    args = parser.parse_args()
    root = args.corpus.resolve() if args.corpus else project_root()
    print(paired.machine())
    with tempfile.TemporaryDirectory() as tmp:
        site = args.site
        if site is None:
            site = Path(tmp) / "site"
            report = build_site(site, root=root)
            if report.sandbox is None or report.sandbox.missing:
                sys.exit(report.sandbox.missing if report.sandbox else "no sandbox")
        measure(site, root, args.rulings, args.starts)


def first_ruling(site: Path) -> str:
    """The address of the first English ruling page of ``site`` (``en/rulings/ID/``)."""
    page = min((site / "en" / "rulings").glob("*/index.html"))
    return page.parent.relative_to(site).as_posix() + "/"


def first_use(page: Page, base: str, site: Path, network: bool) -> tuple[float, int]:
    """Click "Try it" and wait for the first replay: (ms, bytes of the site's files the
    page and its worker received after the click; with ``network``, only those the service
    worker did not answer)."""
    page.goto(base + "/" + first_ruling(site))
    page.wait_for_load_state("networkidle")
    sizes: dict[str, int] = {}  # each file once (the service worker's fetch and its answer)

    def count(response: Any) -> None:
        path = response.url[len(base):].split("?")[0]
        file = site / path.lstrip("/")
        if file.is_file() and response.status == 200 and \
                not (network and response.from_service_worker):
            sizes[path] = file.stat().st_size

    page.context.on("response", count)
    start = time.perf_counter()
    page.click("button[data-sandbox]")
    page.wait_for_function("document.querySelector('.sandbox[data-replays]') !== null",
                           timeout=180_000)
    ms = (time.perf_counter() - start) * 1000
    page.context.remove_listener("response", count)
    return ms, sum(sizes.values())


def bare_start(context: Any, base: str, site: Path) -> float:
    """Pyodide's own start in a worker of a page of ``site``, in ``context`` (ms)."""
    page = context.new_page()
    page.goto(base + "/" + first_ruling(site))
    ms = float(page.evaluate(BARE, base))
    page.close()
    return ms


def starts(browser: Any, base: str, site: Path, rounds: int) -> list[str]:
    """The start figures (see the module): paired ratio lines, and the kept bytecode's use."""
    cold, warm, kept = paired.Pairs(), paired.Pairs(), paired.Pairs()
    used: list[str] = []
    for i in range(rounds):
        fresh = [browser.new_context(service_workers="allow") for _ in range(2)]
        try:
            sandbox_context, bare_context = fresh if i % 2 == 0 else fresh[::-1]
            page = sandbox_context.new_page()
            cold_ms, _ = first_use(page, base, site, False)
            cold_bare = bare_start(bare_context, base, site)
            page.wait_for_function("document.documentElement.getAttribute("
                                   "'data-sandbox-offline') === 'kept'", timeout=180_000)
            page.wait_for_timeout(1000)  # the worker keeps the bytecode after its answer
            page.close()
            page = sandbox_context.new_page()
            warm_ms, _ = first_use(page, base, site, True)
            used.append(page.locator(".sandbox").get_attribute("data-compiled") or "")
            # the same warm start without the kept bytecode: what keeping it buys
            page.evaluate("new Promise(r => { const q = indexedDB.deleteDatabase("
                          "'wixoss-judge-sandbox'); q.onsuccess = q.onerror = q.onblocked = r; })")
            page.close()
            page = sandbox_context.new_page()
            unkept_ms, _ = first_use(page, base, site, True)
            page.close()
            warm_bare = bare_start(sandbox_context, base, site)
            cold.add(cold_ms, cold_bare)
            warm.add(warm_ms, warm_bare)
            kept.add(warm_ms, unkept_ms)
        finally:
            for context in fresh:
                context.close()
    return [
        paired.ratio_line("start, cold (click to first replay, nothing kept) / Pyodide's bare "
                          "start, cold", cold, unit="ms"),
        paired.ratio_line("start, warm (a new page after a first use) / Pyodide's bare start, "
                          "warm", warm, unit="ms"),
        paired.ratio_line("start, warm with the kept bytecode / without it (IndexedDB "
                          "cleared)", kept, unit="ms"),
        f"  warm start: median {statistics.median(warm.project):,.0f} ms, worst "
        f"{max(warm.project):,.0f} ms; target <= {WARM_TARGET_MS} ms: "
        f"{'met' if max(warm.project) <= WARM_TARGET_MS else 'MISSED'}; kept bytecode at "
        f"the warm starts: {used}",
    ]


def measure(site: Path, root: Path, limit: int, rounds: int = 3) -> None:
    server = start_server(site, 0)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    items = [(p.relative_to(root).as_posix(), p.read_text(encoding="utf-8"))
             for p in discover([root / "rulings"])]
    if limit:
        items = items[:limit]
    pairs = paired.Pairs()
    worst = (0.0, "")
    states: dict[str, int] = {}
    browser_ms: list[float] = []
    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium",
                                                 headless=True)
            start_lines = starts(browser, base, site, rounds) if rounds else []
            context = browser.new_context(service_workers="allow")
            page = context.new_page()
            cold, transferred = first_use(page, base, site, False)
            page.wait_for_function("document.documentElement.getAttribute("
                                   "'data-sandbox-offline') === 'kept'", timeout=180_000)
            page.close()
            page = context.new_page()
            warm, warm_bytes = first_use(page, base, site, True)

            def in_browser(text: str, path: str) -> float:
                ms, state = page.evaluate(EDIT, [text, path])
                states[state] = states.get(state, 0) + 1
                return float(ms)

            def natively(text: str, path: str) -> float:
                start = time.perf_counter()
                sandbox.replay_text(text, path, "en")
                return (time.perf_counter() - start) * 1000

            for i, (path, text) in enumerate(items):
                text = edited(text)
                if i % 2:
                    native = natively(text, path)
                    ms = in_browser(text, path)
                else:
                    ms = in_browser(text, path)
                    native = natively(text, path)
                pairs.add(ms, native)
                browser_ms.append(ms)
                worst = max(worst, (ms, path))
            browser.close()
    finally:
        server.shutdown()
        server.server_close()
    ms = sorted(browser_ms)
    print(f"click to first replay, cold cache: {cold:,.0f} ms "
          f"({transferred / 1024:,.0f} KiB transferred)")
    print(f"click to first replay, warm cache (same browser, service worker): {warm:,.0f} ms "
          f"({warm_bytes / 1024:,.0f} KiB not from the service worker; load "
          f"{paired.load():.2f})")
    print(f"replay after an edit, {len(ms)} rulings: median {statistics.median(ms):.0f} ms, "
          f"90th percentile {ms[int(len(ms) * 0.9)]:.0f} ms, worst {worst[0]:.0f} ms "
          f"({worst[1]}); target < {TARGET_MS} ms: "
          f"{sum(t < TARGET_MS for t in ms)}/{len(ms)} within")
    print(paired.ratio_line(f"replay after an edit in the browser (Pyodide) / the same natively "
                            f"(CPython {sys.version.split()[0]}), ruling by ruling", pairs,
                            unit="ms"))
    print(f"  answers: {states}")
    for line in start_lines:
        print(line)


if __name__ == "__main__":
    main()
