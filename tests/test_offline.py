"""Offline use (judge/site/offline.py, site_templates/sw.js): what the service worker is told
to keep for each language, its version, and how ``judge serve`` serves it; and, in Chromium,
a returning visitor after a rebuild (the new page and search on the first load, the new
worker taking over). tests/test_browser.py goes offline in Chromium and searches."""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import shutil
import subprocess
import threading
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from judge.langs import LANGS
from judge.paths import project_root
from judge.site.build import build_site
from judge.site.offline import PAGES, SERVICE_WORKER, files_digest, kept_files, site_version
from judge.site.serve import start_server

FIXTURE = project_root() / "tests" / "fixtures" / "site_corpus"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("offline") / "site"
    build_site(out, root=FIXTURE, search=True)
    return out


def test_each_language_keeps_its_search_and_the_pages_it_leads_to(site: Path) -> None:
    for lang in LANGS:
        listed = json.loads((site / "offline" / f"{lang}.json").read_text(encoding="utf-8"))
        files = listed["files"]
        assert listed["lang"] == lang and files == sorted(files) == kept_files(site, lang)
        assert {f"{lang}/{key}" for key in PAGES} <= set(files)
        assert {"assets/site.css", "assets/site.js", "assets/search.js",
                "assets/search.css"} <= set(files)
        # the search: its engine, every file of the index that every language reads, and
        # what the results show in this language (not in the others)
        assert "assets/search-engine.js" in files
        index = {p.relative_to(site).as_posix() for p in (site / "search-index").rglob("*")
                 if p.is_file()}
        kept = {f for f in files if f.startswith("search-index/")}
        assert kept == {f for f in index if f.split("/")[1] in (lang, *(
            part for part in {f.split("/")[1]} if part not in LANGS))}
        assert "search-index/meta.json.gz" in kept and any(f.startswith("search-index/s/")
                                                           for f in kept)
        assert any(f.startswith(f"search-index/{lang}/") for f in kept)
        assert not any(f.startswith(tuple(f"search-index/{other}/" for other in LANGS
                                          if other != lang)) for f in kept)
        # nothing of another language, nothing outside the site, no download
        assert not any(f.startswith(tuple(f"{other}/" for other in LANGS if other != lang))
                       for f in files)
        assert not any(f.startswith(("api/", "/", "..")) for f in files)
        size = sum((site / f / "index.html").stat().st_size if f.endswith("/")
                   else (site / f).stat().st_size for f in files)
        assert listed["bytes"] == size
        assert listed["digest"] == files_digest(site, files)


def test_a_kept_files_change_changes_its_languages_list(site: Path, tmp_path: Path) -> None:
    """A worker still in control after a rebuild keeps a language anew when its list is not
    the one it kept: a change to any kept file, even of the same size, changes the list."""
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    files = kept_files(copy, "en")
    before = files_digest(copy, files)
    page = copy / "en" / "glossary" / "index.html"
    text = page.read_bytes()
    page.write_bytes(text.replace(b"<title>", b"<title>" + b"x", 1)[:len(text)])
    assert files_digest(copy, files) != before
    assert files_digest(copy, files) == files_digest(copy, kept_files(copy, "en"))


def test_the_worker_carries_the_build_version(site: Path, tmp_path: Path) -> None:
    script = (site / SERVICE_WORKER).read_text(encoding="utf-8")
    version = site_version(site)
    assert f'var VERSION = "{version}";' in script and len(version) == 20
    assert "__JUDGE_" not in script
    assert f"var LANGS = {json.dumps(list(LANGS))};" in script
    # a change to any page gives another version; the same site, the same one
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURE, corpus)
    ruling = corpus / "rulings" / "effects" / "fixture-two-returners.toml"
    ruling.write_text(ruling.read_text(encoding="utf-8").replace(
        "Two milled SIGNI", "Two milled SIGNI (edited)"), encoding="utf-8")
    other = tmp_path / "other"
    build_site(other, root=corpus, search=True)
    assert site_version(other) != version
    assert f'var VERSION = "{site_version(other)}";' in \
        (other / SERVICE_WORKER).read_text(encoding="utf-8")


def test_two_builds_with_the_index_are_the_same_bytes(site: Path, tmp_path: Path) -> None:
    again = tmp_path / "again"
    build_site(again, root=FIXTURE, search=True)
    files = sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file())
    assert files == sorted(p.relative_to(again).as_posix() for p in again.rglob("*")
                           if p.is_file())
    different = [f for f in files if (site / f).read_bytes() != (again / f).read_bytes()]
    assert not different, different[:10]  # pages, api/ (judge.db too), index, sw.js


def test_judge_serve_serves_the_worker_as_javascript_at_the_root(site: Path) -> None:
    server = start_server(site, 0)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        for path, wanted in (("/sw.js", "text/javascript"),
                             ("/assets/site.js", "text/javascript"),
                             ("/offline/en.json", "application/json"),
                             ("/api/rulings.json", "application/json"),
                             ("/api/judge.db.gz", "application/gzip"),
                             ("/search-index/meta.json.gz", "application/gzip")):
            with urllib.request.urlopen(base + path, timeout=10) as response:
                assert response.headers["Content-Type"].split(";")[0] == wanted, path
                body = response.read()
            assert body == (site / path.lstrip("/")).read_bytes()
    finally:
        server.shutdown()
        server.server_close()


def test_the_worker_asks_for_every_file_of_the_site_again(site: Path) -> None:
    """No file of the site is named after its content (the search index keeps its names from
    one build to the next), so the worker serves none from its cache while online: every rule
    but the pinned Pyodide's is "network" (asked for again, past the HTTP cache)."""
    script = (site / SERVICE_WORKER).read_text(encoding="utf-8")
    strategies = re.findall(r'name: "([\w-]+)", strategy: "(\w+)"', script)
    assert ("search", "network") in strategies and ("pages", "network") in strategies
    assert [name for name, how in strategies if how == "cache"] == ["pyodide"], strategies
    assert 'cache: "no-cache"' in script


#: Runs the site's sw.js in Node with a stand-in browser (caches, fetch, Request) and keeps two
#: languages of 300 files each at the same time (as a new build's worker carries over what the
#: previous one kept): prints how many requests were open at most and the order of the cache's
#: writes.
KEEP_IN_NODE = r"""
const fs = require("fs");
const writes = [];
let open = 0, most = 0;
class Request { constructor(url) { this.url = typeof url === "string" ? url : url.url; } }
const response = (body) => ({ ok: true, status: 200, clone() { return response(body); },
  text: async () => body, json: async () => JSON.parse(body) });
const cache = { match: async () => undefined, put: async (request) => {
  writes.push(typeof request === "string" ? request : request.url); } };
const self = { registration: { scope: "http://host/" }, addEventListener() {} };
const caches = { open: async () => cache, keys: async () => ["x"], has: async () => true };
async function fetch(request) {
  const url = typeof request === "string" ? request : request.url;
  const list = /offline\/(\w+)\.json$/.exec(url);
  if (list) {
    const files = Array.from({ length: 300 }, (_, i) => `search-index/${list[1]}/${i}.json.gz`);
    return response(JSON.stringify({ files }));
  }
  open += 1; most = Math.max(most, open);
  await new Promise((resolve) => setTimeout(resolve, 1));
  open -= 1;
  return response("{}");
}
eval(fs.readFileSync(process.argv[1], "utf8") +
     "\n;Promise.all([keepLanguage('en'), keepLanguage('ja')])" +
     ".then(() => console.log(JSON.stringify({ most, writes })));");
"""


def test_the_worker_keeps_a_language_a_few_files_at_a_time(site: Path) -> None:
    """A language's search is hundreds of files (thousands for a large corpus). Asked for all at
    once, Chromium refuses them (net::ERR_INSUFFICIENT_RESOURCES) and the search page's own
    requests, which pass through the worker, fail with them: the first search never came. The
    worker asks for at most four at a time, however many languages it keeps at once, keeps
    every file, and each language's list after its files."""
    if shutil.which("node") is None:
        pytest.fail("this test needs Node (node 20) to run the site's service worker")

    done = subprocess.run(["node", "-e", KEEP_IN_NODE, str(site / SERVICE_WORKER)],
                          capture_output=True, text=True, check=True, timeout=60)
    got = json.loads(done.stdout)
    assert 1 < got["most"] <= 4, got["most"]
    writes = got["writes"]
    assert len(writes) == 602
    for lang in ("en", "ja"):
        kept = [w for w in writes if f"/{lang}/" in w or w.endswith(f"/{lang}.json")]
        assert kept[-1] == f"http://host/offline/{lang}.json"
        assert sorted(kept[:-1]) == sorted(f"http://host/search-index/{lang}/{i}.json.gz"
                                           for i in range(300))


#: Runs the site's sw.js in Node with a stand-in browser whose server answers every request with
#: a 500, and asks the worker for a search-index file it kept and for one it did not: prints the
#: two answers' status and body.
SERVER_ERROR_IN_NODE = r"""
const fs = require("fs");
class Request { constructor(url) { this.url = typeof url === "string" ? url : url.url; } }
const response = (status, body) => ({ ok: status < 400, status, type: "basic",
  redirected: false, clone() { return response(status, body); }, text: async () => body });
const keptUrl = "http://host/search-index/en/s/1f.json.gz";
const cache = { match: async (url) => (url === keptUrl ? response(200, "kept") : undefined),
  put: async () => { throw new Error("a failed answer was stored"); } };
const handlers = {};
const self = { registration: { scope: "http://host/" },
  addEventListener(name, f) { handlers[name] = f; } };
const caches = { open: async () => cache, keys: async () => [], has: async () => true };
async function fetch() { return response(500, "server error"); }
eval(fs.readFileSync(process.argv[1], "utf8"));
async function ask(url) {
  let answer;
  const event = { request: Object.assign(new Request(url), { mode: "cors", method: "GET" }),
    respondWith(p) { answer = p; }, waitUntil() {} };
  handlers.fetch(event);
  const got = await answer;
  return { status: got.status, body: await got.text() };
}
Promise.all([ask(keptUrl), ask("http://host/search-index/en/s/2a.json.gz")])
  .then((answers) => console.log(JSON.stringify(answers)));
"""


def test_a_server_error_gives_the_kept_copy(site: Path) -> None:
    """A search-index file the worker kept is served from what it kept when the server fails
    (a 500), as it is when the network fails, rather than the error: a judge who kept the
    search for offline use still finds, whatever the server does. A file never kept gets the
    server's error, and an error is never stored."""
    if shutil.which("node") is None:
        pytest.fail("this test needs Node (node 20) to run the site's service worker")

    done = subprocess.run(["node", "-e", SERVER_ERROR_IN_NODE, str(site / SERVICE_WORKER)],
                          capture_output=True, text=True, check=True, timeout=60)
    kept, never = json.loads(done.stdout)
    assert kept == {"status": 200, "body": "kept"}
    assert never == {"status": 500, "body": "server error"}


# ---------------------------------------------------------------------------- a returning visitor
# issue 25, item 6: after a rebuild, the first load of a returning visitor (whose browser
# keeps the old files with a Last-Modified of two days before, and whose service worker
# holds the previous build) shows the new page and searches the new index. Every wait is on
# an event or a promise, with its own timeout: a hang fails in seconds, not minutes.

#: Milliseconds any one navigation or wait may take before the test fails.
WAIT_MS = 15_000
RULING_FILE = "rulings/effects/fixture-two-returners.toml"
RULING_PAGE = "en/rulings/fixture-two-returners/"
OLD_TITLE = "Two milled SIGNI that may return to the hand"
NEW_TITLE = "Two milled SIGNI that may come back to the hand"
#: A word no page holds before the rebuild: the rebuilt answer says it.
NEW_WORD = "quincunx"
TWO_DAYS_AGO = time.time() - 2 * 86_400


class PlainHandler(http.server.SimpleHTTPRequestHandler):
    """A static host that says nothing of caching (only Last-Modified), as many do: the
    browser then keeps a file for a while of its own accord (a tenth of its age)."""

    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map,
                      ".js": "text/javascript", ".json": "application/json"}

    def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
        pass


@contextmanager
def serving(folder: Path, kind: str) -> Iterator[str]:
    if kind == "judge serve":
        server: http.server.ThreadingHTTPServer = start_server(folder, 0)
    else:
        server = http.server.ThreadingHTTPServer(
            ("127.0.0.1", 0), functools.partial(PlainHandler, directory=str(folder)))
        threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


def age(folder: Path, when: float) -> None:
    for path in folder.rglob("*"):
        os.utime(path, (when, when), follow_symlinks=False)


#: Resolves once the worker of a new build is installed and waits for the site's pages to
#: close (waiting on its state changes); rejects after the timeout, or if there is none.
NEW_WORKER_WAITS = """(ms) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no new worker installed after " + ms +
                                                    " ms")), ms);
    const done = () => { clearTimeout(timer); resolve(true); };
    navigator.serviceWorker.getRegistration().then(r => r.update().then(() => {
        const worker = r.waiting || r.installing;
        if (!worker) {
            throw new Error("no new worker: " + (r.active && r.active.state));
        }
        const check = () => {
            if (worker.state === "installed") { done(); }
            if (worker.state === "redundant") { reject(new Error("the new worker failed")); }
        };
        worker.addEventListener("statechange", check);
        check();
    })).catch(error => { clearTimeout(timer); reject(error); });
})"""

#: The build of the worker in control of the page (it answers a message), once one is;
#: rejects after the timeout.
BUILD = """(ms) => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("no worker in control after " + ms +
                                                    " ms")), ms);
    const container = navigator.serviceWorker;
    container.addEventListener("message", event => {
        if ((event.data || {}).type === "version") {
            clearTimeout(timer);
            resolve(event.data.version);
        }
    });
    const ask = () => container.controller &&
        container.controller.postMessage({ type: "version" });
    container.addEventListener("controllerchange", ask);
    ask();
})"""


@contextmanager
def activation(context: Any) -> Iterator[Any]:
    """Around the closing of the site's last page: a blank tab (no page of the site, so it
    holds nothing back) that, on leaving, has seen the waiting worker become the active one,
    through the browser's own record of its workers (the DevTools protocol). The browser
    activates it a moment after the last page has gone; a page of the site opened before then
    would still be the previous worker's, and hold the new one back."""
    blank = context.new_page()
    states: dict[str, str] = {}

    def updated(event: dict[str, Any]) -> None:
        for version in event["versions"]:
            states[version["versionId"]] = version["status"]

    session = context.new_cdp_session(blank)
    session.on("ServiceWorker.workerVersionUpdated", updated)
    session.send("ServiceWorker.enable")  # the browser answers with every worker it knows
    deadline = time.monotonic() + WAIT_MS / 1000
    waiting: list[str] = []
    while not waiting:  # its answer comes as events, a moment after the call returns
        assert time.monotonic() < deadline, f"no waiting worker among {states}"
        blank.wait_for_timeout(20)
        waiting = [v for v, status in states.items() if status == "installed"]
    assert len(waiting) == 1, states
    yield blank
    deadline = time.monotonic() + WAIT_MS / 1000
    while states[waiting[0]] != "activated":
        assert time.monotonic() < deadline, f"the new worker is still {states[waiting[0]]}"
        blank.wait_for_timeout(20)  # lets the protocol's events in
    session.detach()


def search(tab: Any, base: str, query: str) -> list[str]:
    tab.goto(f"{base}en/search/?q={query}", timeout=WAIT_MS)
    tab.wait_for_function("() => document.getElementById('search')"
                          ".getAttribute('data-state') === 'done'", timeout=WAIT_MS)
    return [li.get_attribute("data-id") or "" for li in tab.locator(".result").element_handles()]


@pytest.mark.parametrize("kind", ["judge serve", "a plain static host"])
def test_a_returning_visitor_sees_the_rebuilt_page_and_search_on_the_first_load(
        browser: Any, tmp_path: Path, kind: str) -> None:
    corpus = tmp_path / "corpus"
    shutil.copytree(FIXTURE, corpus)
    out = tmp_path / "site"
    build_site(out, root=corpus, search=True)
    age(out, TWO_DAYS_AGO)
    context = browser.new_context(viewport={"width": 1000, "height": 800})
    context.set_default_timeout(WAIT_MS)
    context.set_default_navigation_timeout(WAIT_MS)
    errors: list[str] = []
    try:
        with serving(out, kind) as base:
            tab = context.new_page()
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            # the first visit: the page, then the worker keeps it and the language's search
            tab.goto(base + RULING_PAGE)
            assert tab.locator("h1").inner_text() == OLD_TITLE
            tab.wait_for_selector("html[data-offline=kept]")
            assert search(tab, base, NEW_WORD) == []
            assert "fixture-two-returners" in search(tab, base, "milled")
            tab.goto(base + RULING_PAGE)  # once more, now through the worker
            assert tab.locator("h1").inner_text() == OLD_TITLE

            ruling = corpus / RULING_FILE
            text = ruling.read_text(encoding="utf-8")
            ruling.write_text(text.replace(OLD_TITLE, NEW_TITLE).replace(
                "so there are four results.", f"so there are four results ({NEW_WORD}).",
            ), encoding="utf-8")
            build_site(out, root=corpus, search=True)
            version = site_version(out)

            # the first load after the rebuild: the new page, the new index, while the
            # previous build's worker is still in control
            tab.goto(base + RULING_PAGE)
            assert tab.locator("h1").inner_text() == NEW_TITLE
            previous = tab.evaluate(BUILD, WAIT_MS)
            assert previous != version
            tab.wait_for_selector("html[data-offline=kept]")  # the language, kept anew
            assert search(tab, base, NEW_WORD) == ["fixture-two-returners"]
            # ... which keeps the new page and the new index for offline use
            context.set_offline(True)
            tab.goto(base + RULING_PAGE)
            assert tab.locator("h1").inner_text() == NEW_TITLE
            assert search(tab, base, NEW_WORD) == ["fixture-two-returners"]
            context.set_offline(False)

            # the new build's worker installs, waits for the site's pages to close, then
            # takes over: what it keeps is the new build, the previous cache is gone
            assert tab.evaluate(NEW_WORKER_WAITS, WAIT_MS)
            with activation(context) as blank:
                tab.close()
            tab = blank
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.goto(base + RULING_PAGE)
            assert tab.locator("h1").inner_text() == NEW_TITLE
            assert tab.evaluate(BUILD, WAIT_MS) == version
            tab.wait_for_selector("html[data-offline=kept]")
            names = tab.evaluate("() => caches.keys()")
            assert [n for n in names if not n.split(" ")[-1].startswith("pyodide-")] == \
                [f"wixoss-judge / {version}"], names
            kept = tab.evaluate("url => caches.match(url).then(r => r && r.text())",
                                base + RULING_PAGE)
            assert kept and NEW_TITLE in kept
            # it carried over the pages and the language the previous worker had kept
            urls = tab.evaluate("name => caches.open(name).then(c => c.keys())"
                                ".then(keys => keys.map(r => r.url))", names[0])
            assert {base + RULING_PAGE, base + "offline/en.json", base + "en/search/",
                    base + "search-index/meta.json.gz"} <= set(urls)
        # no server: the new build's page and index, from the new worker's cache
        context.set_offline(True)
        tab.goto(base + RULING_PAGE)
        assert tab.locator("h1").inner_text() == NEW_TITLE
        assert search(tab, base, NEW_WORD) == ["fixture-two-returners"]
    finally:
        context.close()
    assert not errors, errors


def test_offline_a_language_never_visited_shows_its_offline_page(browser: Any,
                                                                 site: Path) -> None:
    """After a visit in English only, without a network, the language chooser's other
    languages open their own "offline" page (kept at the install), in the site's style."""
    context = browser.new_context(viewport={"width": 390, "height": 800})
    context.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    try:
        with serving(site, "judge serve") as base:
            tab = context.new_page()
            tab.on("pageerror", lambda exc: errors.append(str(exc)))
            tab.goto(base + RULING_PAGE)
            tab.wait_for_selector("html[data-offline=kept]")
            tab.wait_for_function("navigator.serviceWorker.controller !== null")
            context.set_offline(True)
            for lang, title in (("ja", "オフライン"), ("zh-Hans", "离线")):
                tab.goto(base + RULING_PAGE.replace("en/", f"{lang}/", 1))
                assert tab.locator("html").get_attribute("lang") == lang
                assert tab.locator("h1").inner_text() == title
                # the site's own stylesheet, from the cache
                assert tab.evaluate("getComputedStyle(document.body).fontFamily") != \
                    "Times New Roman"
                assert tab.locator("link[rel=stylesheet]").count() >= 1
    finally:
        context.close()
    assert not errors, errors
