"""The sandbox in Chromium: "Try it" on a ruling page and the blank sandbox page, running
this package under Pyodide from the built site (no other host is ever asked).

A reader opens the sandbox, sees the ruling replayed as on the page, edits it with a
control and by typing, sees the replay and judge check's lines change, breaks it and sees
the error at its line, downloads the blank ruling (which ``judge check`` passes); a runaway
effect stops at the engine's limit; after a first use the sandbox works offline; and the
whole corpus replays in the browser with the same traces, byte for byte, as natively.

Needs Chromium (tests/conftest.py's ``browser``) and ``node_modules/pyodide`` (``npm ci``,
which ./dev runs): without them the tests skip, or fail when ``CI`` is set.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from conftest import unavailable
from test_editor import ENGINE_CODES
from test_sandbox import HOSTILE_SOURCE, RULING, hostile_ruling, runaway

from judge.paths import project_root
from judge.scenario.load import discover
from judge.site import sandbox, sandbox_build
from judge.site.build import build_site
from judge.site.editor import edit
from judge.site.serve import start_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

RULING_PAGE = "rulings/first-refresh-does-not-end-turn/"
#: The first request starts Pyodide: generous, for a loaded CI machine.
START_MS = 120_000
WIDTHS = (1280, 390)


@pytest.fixture(scope="module")
def site(browser: Browser, tmp_path_factory: pytest.TempPathFactory) -> Path:
    reason = sandbox_build.missing_reason()
    if reason:
        unavailable(reason)
    out = tmp_path_factory.mktemp("sandbox") / "site"
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


@pytest.fixture(params=WIDTHS, ids=[f"w{w}" for w in WIDTHS])
def width(request: pytest.FixtureRequest) -> int:
    return int(request.param)


def new_page(browser: Browser, width: int = 1280, **options: Any) -> tuple[Any, Page,
                                                                          list[str], list[str]]:
    """A fresh context and page; the addresses it requested and its script errors."""
    # the service worker only where a test allows it: its fetching of a language's search
    # would race the sandbox's own downloads
    options.setdefault("service_workers", "block")
    context = browser.new_context(viewport={"width": width, "height": 900},
                                  accept_downloads=True, **options)
    context.set_default_timeout(30_000)
    page = context.new_page()
    requests: list[str] = []
    errors: list[str] = []
    context.on("request", lambda r: requests.append(r.url))
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    return context, page, requests, errors


def wait_replay(page: Page, count: int) -> str:
    """Wait for the ``count``-th answer shown (data-replays counts them); its state."""
    page.wait_for_function(
        "n => { const s = document.querySelector('.sandbox');"
        " return s && Number(s.getAttribute('data-replays')) >= n; }", arg=count,
        timeout=START_MS)
    return page.locator(".sandbox").get_attribute("data-state") or ""


def add_card(page: Page, player: str, zone: str, card: str) -> None:
    """Add a card from the board's palette."""
    page.select_option(".sb-add-player", player)
    page.select_option(".sb-add-zone", zone)
    page.select_option(".sb-palette", card)
    page.click(".sb-add")


def replays(page: Page) -> int:
    return int(page.locator(".sandbox").get_attribute("data-replays") or 0)


def open_sandbox(page: Page, address: str) -> str:
    """Open ``address``, click its sandbox button, wait for the first replay; its state."""
    page.goto(address)
    page.click("button[data-sandbox]")
    return wait_replay(page, 1)


def report(page: Page) -> str:
    return page.locator(".sb-report").text_content() or ""  # folded in a details element


def test_try_it_replays_the_ruling_as_the_page_and_an_edit_changes_it(
        browser: Browser, site: Path, base_url: str, width: int) -> None:
    context, page, requests, errors = new_page(browser, width)
    try:
        page.goto(f"{base_url}/en/{RULING_PAGE}")
        page.wait_for_load_state("networkidle")
        assert not [u for u in requests if "/pyodide/" in u or "/sandbox/" in u], \
            "the sandbox is loaded before a click"
        button = page.locator("button[data-sandbox]")
        assert button.is_visible()
        # the button says what a first use downloads: the files the sandbox lists
        listed = json.loads((site / "sandbox" / "files.json").read_text(encoding="utf-8"))
        total = sum((site / name).stat().st_size for name in listed["files"])
        assert f"({total / 1e6:.1f} MB to download the first time)" in button.inner_text()
        button.click()
        assert wait_replay(page, 1) == "ok"
        assert report(page) == "4 passed, 0 failed"
        # the narrated steps read as on the static page
        static = page.locator("#replay details[open] section.step").all_inner_texts()
        mine = page.locator("#sb-replay details[open] section.step").all_inner_texts()
        assert mine == static and len(mine) >= 3
        assert page.locator("#sb-replay svg").count() == page.locator("#replay svg").count()
        board = page.locator(".sb-output").inner_text()
        # the board: one more card (the filler, a plain SIGNI) in player 1's hand
        add_card(page, "p1", "hand", "")
        assert wait_replay(page, 2) == "fail"  # the edit (a worker's answer), then its replay
        assert 'hand = ["h1", "S1"]' in page.locator(".sb-text").input_value()
        assert "unexpected S1" in report(page) and report(page).endswith("0 passed, 4 failed")
        assert "S1" in page.locator(".sb-output").inner_text()
        assert page.locator(".sb-output").inner_text() != board
        # the rule set control
        page.select_option(".sb-rules", "2014-04")
        assert wait_replay(page, 3) == "fail"
        assert report(page).endswith("0 passed, 1 failed")
        # typing: a broken value, shown at its line
        text = page.locator(".sb-text").input_value()
        page.fill(".sb-text", text.replace("turn = 3\n", 'turn = "three"\n', 1))
        assert wait_replay(page, 4) == "error"
        assert report(page).startswith(f"Error: {RULING}:31: setup.turn: ")
        assert page.locator(".sb-lines mark.sb-bad").inner_text() == "31"
        assert page.locator(".sb-text").get_attribute("aria-invalid") == "true"
        page.click(".sb-reset")
        assert wait_replay(page, 5) == "ok"
        # the sandbox fits the window (no sideways scrolling of the page)
        assert page.evaluate("document.documentElement.scrollWidth") <= width + 1
        outside = [u for u in requests if not u.startswith(base_url) and
                   not u.startswith(("blob:", "data:"))]
        assert not outside, f"requests outside the site: {outside}"
    finally:
        context.close()
    assert not errors, errors


def test_the_blank_sandbox_downloads_a_ruling_judge_check_accepts(
        browser: Browser, base_url: str, tmp_path: Path) -> None:
    context, page, _, errors = new_page(browser, 390)
    try:
        assert open_sandbox(page, f"{base_url}/ja/sandbox/") == "ok"
        assert page.locator(".sb-text").input_value() == sandbox.vocabulary()["blank"]
        with page.expect_download() as info:
            page.click(".sb-download")
        download = info.value
        assert download.suggested_filename == f"{sandbox.BLANK_ID}.toml"
        target = tmp_path / "rulings" / download.suggested_filename
        target.parent.mkdir()
        download.save_as(target)
        done = subprocess.run([sys.executable, "-m", "judge.cli", "check", "rulings"],
                              cwd=tmp_path, capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stdout
        assert done.stdout.splitlines()[-1] == "3 passed, 0 failed"
        # a runaway effect: the engine's limit stops it, with its message, and the tab lives
        page.fill(".sb-text", runaway(sandbox.vocabulary()["blank"]))
        assert wait_replay(page, 2) == "fail"
        assert "more than 20000 events in one replay (limit; see docs/limits.md)" in \
            report(page)
        assert page.evaluate("1 + 1") == 2
    finally:
        context.close()
    assert not errors, errors


def test_the_drawn_board_is_tapped_like_its_rows_at_a_phone_width(
        browser: Browser, base_url: str) -> None:
    context, page, _, errors = new_page(browser, 390)
    try:
        assert open_sandbox(page, f"{base_url}/ja/sandbox/") == "ok"
        drawing = page.locator(".sb-board .sb-setup svg")
        assert drawing.get_attribute("role") == "group"
        # a card in the drawing: picked as its chip in the rows picks it
        page.locator(".sb-setup rect.sb-hitcard[data-label='S1']").click()
        assert page.locator(".sb-cardpanel").get_attribute("data-label") == "S1"
        assert page.locator(".sb-chip[data-label='S1']").get_attribute("aria-pressed") == \
            "true"
        assert page.locator(".sb-setup rect.sb-hitcard[data-label='S1']").get_attribute(
            "aria-pressed") == "true"
        assert page.locator(".sb-setup rect.sb-hitcard[data-label='S1']").get_attribute(
            "aria-label") == "S1 シグニ (example-signi)"
        # a zone, from the keyboard: it becomes where "Add" puts a card
        zone = page.locator(".sb-setup rect.sb-hitzone[data-player='p2'][data-zone='trash']")
        assert zone.get_attribute("aria-label") == "プレイヤー2: トラッシュ"
        zone.focus()
        page.keyboard.press("Enter")
        assert page.locator(".sb-add-player").input_value() == "p2"
        assert page.locator(".sb-add-zone").input_value() == "trash"
        assert page.evaluate("document.activeElement.getAttribute('data-zone')") == "trash"
        page.click(".sb-add")
        assert wait_replay(page, 2) == "ok"  # the file states nothing of player 2's trash
        # the filler into player 2's trash: the file the rows' form would have made
        assert page.locator(".sb-text").input_value() == edit(
            sandbox.vocabulary()["blank"], "add", {"player": "p2", "zone": "trash", "card": ""})
        assert page.evaluate("document.documentElement.scrollWidth") <= 391
    finally:
        context.close()
    assert not errors, errors


def test_the_sandbox_works_offline_after_its_first_use(browser: Browser,
                                                        base_url: str) -> None:
    context, page, _, errors = new_page(browser, service_workers="allow")
    try:
        assert open_sandbox(page, f"{base_url}/en/{RULING_PAGE}") == "ok"
        page.wait_for_function("document.documentElement.getAttribute("
                               "'data-sandbox-offline') === 'kept'", timeout=START_MS)
        page.wait_for_function("navigator.serviceWorker.controller !== null")
        context.set_offline(True)
        page.reload()
        page.click("button[data-sandbox]")
        assert wait_replay(page, 1) == "ok"
        assert report(page) == "4 passed, 0 failed"
    finally:
        context.close()
    assert not errors, errors


def links_module() -> Any:
    """benchmarks/links.py: the sandbox's link fragments made in Python."""
    import importlib.util

    path = project_root() / "benchmarks" / "links.py"
    spec = importlib.util.spec_from_file_location("bench_links", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def shared_link(page: Page) -> str:
    """Click "Copy link" and read the link the field then holds."""
    page.click(".sb-share")
    page.wait_for_function("document.querySelector('.sandbox').hasAttribute('data-link')")
    return page.locator(".sandbox").get_attribute("data-link") or ""


def test_a_shared_link_reopens_the_edited_position_in_a_fresh_browser(
        browser: Browser, base_url: str) -> None:
    context, page, _, errors = new_page(browser, 390)
    try:
        assert open_sandbox(page, f"{base_url}/en/{RULING_PAGE}") == "ok"
        assert "#try=" not in page.url  # the ruling as written: a plain address
        add_card(page, "p1", "hand", "")
        assert wait_replay(page, 2) == "fail"
        edited = page.locator(".sb-text").input_value()
        link = shared_link(page)
        assert link.startswith(f"{base_url}/en/{RULING_PAGE}#try=2.") and len(link) < 300
        # the address bar carries the position too (a reload or a bookmark keeps it)
        page.wait_for_function("h => window.location.hash === h", arg=link[link.index("#"):])
    finally:
        context.close()
    assert not errors, errors
    context, page, _, errors = new_page(browser, 390)
    try:
        page.goto(link)
        assert wait_replay(page, 1) == "fail"  # opened and replayed without a click
        assert page.locator(".sb-text").input_value() == edited
        assert "unexpected S1" in report(page)
        assert page.locator("#sb-results tr.sb-differs").count() >= 1
        # undoing the edits gives the plain address back
        page.click(".sb-reset")
        assert wait_replay(page, 2) == "ok"
        page.wait_for_function("window.location.hash === ''")
    finally:
        context.close()
    assert not errors, errors


def test_links_with_script_payloads_only_ever_show_text(browser: Browser,
                                                         base_url: str) -> None:
    """A link is data for the ruling loader: payloads in every text field (both forms of
    link), markup in place of the code, and a link that is not deflate run no script."""
    links = links_module()
    hostile = hostile_ruling()
    base = (project_root() / HOSTILE_SOURCE).read_text(encoding="utf-8")
    page_path = f"rulings/{Path(HOSTILE_SOURCE).stem}/"
    cases = [
        (f"ja/{page_path}{links.fragment(hostile, base)}", hostile, ""),
        (f"zh-Hans/{page_path}{links.fragment(hostile)}", hostile, ""),
        (f"en/sandbox/{links.fragment(hostile)}", hostile, ""),
        (f"en/{page_path}#try=1.<img src=x onerror=window.__pwned=4>", base, "could not"),
        (f"ja/{page_path}#try=1.AAAA", base, "読み取れません"),  # base64url, not deflate
    ]
    context, page, _, errors = new_page(browser, 390)
    dialogs: list[str] = []
    page.on("dialog", lambda d: (dialogs.append(d.message), d.dismiss()))
    try:
        for address, text, notice in cases:
            page.goto(f"{base_url}/{address}")
            assert wait_replay(page, 1) == "ok", address
            assert page.locator(".sb-text").input_value() == text
            assert notice in page.locator(".sb-status").inner_text()
            if text is hostile:
                assert "<script>window.__pwned=1</script>" in \
                    page.locator(".sb-output").inner_text()  # shown, as text
            assert page.evaluate("window.__pwned === undefined"), address
            assert page.locator(".sb-output script, .sb-output img").count() == 0
    finally:
        context.close()
    assert not dialogs and not errors, (dialogs, errors)


def test_propose_opens_the_repositorys_new_file_page_with_the_file(
        browser: Browser, base_url: str) -> None:
    """With a repository set (site.toml; here put on the button as the build would), the
    link proposes the ruling as it replays: a variant of a corpus ruling under a new id, in
    its topic's folder; a version that fails its expectations is not offered."""
    from urllib.parse import parse_qs, urlsplit

    new_file = "https://github.com/judges/wixoss/new/main"
    context, page, _, errors = new_page(browser, 390)
    try:
        page.goto(f"{base_url}/en/{RULING_PAGE}")
        page.evaluate("url => document.querySelector('button[data-sandbox]')"
                      ".setAttribute('data-propose', url)", new_file)
        page.click("button[data-sandbox]")
        assert wait_replay(page, 1) == "ok"
        link = page.locator("a.sb-propose")
        link.wait_for(state="visible")
        href = link.get_attribute("href") or ""
        assert href.startswith(new_file + "?filename=") and link.get_attribute("target") == \
            "_blank"
        query = parse_qs(urlsplit(href).query)
        variant = "first-refresh-does-not-end-turn-variant"
        assert query["filename"] == [f"rulings/refresh/{variant}.toml"]
        text = page.locator(".sb-text").input_value()
        assert query["value"] == [text.replace('id = "first-refresh-does-not-end-turn"',
                                               f'id = "{variant}"')]
        add_card(page, "p1", "hand", "")  # the expectations fail now: nothing to propose
        assert wait_replay(page, 2) == "fail"
        assert link.is_hidden()
    finally:
        context.close()
    assert not errors, errors


#: What the judge taps, from an empty board, and the board edit each is (judge.site.editor).
TAPS: list[tuple[str, dict[str, Any]]] = [
    ("add", {"player": "p1", "zone": "lrig", "card": "lrig-white-0"}),
    ("add", {"player": "p1", "zone": "deck", "card": ""}),
    ("add", {"player": "p1", "zone": "deck", "card": ""}),
    ("add", {"player": "p2", "zone": "lrig", "card": "lrig-red-4"}),
    ("add", {"player": "p2", "zone": "hand", "card": ""}),
    ("move", {"label": "S3", "player": "p2", "zone": "deck"}),
    ("state", {"label": "L1", "down": True, "frozen": False}),
    ("card", {"label": "S1", "field": "power", "value": 3000}),
    ("step", {"action": "effect", "player": "p1", "op": "draw", "count": 2}),
    ("operation", {"op": "mill", "count": 1}),
    # an operation on a card, with its amount: the fields the menu shows for it
    ("operation", {"op": "power", "target": "S1", "amount": -2000}),
]


def tap(page: Page, op: str, args: dict[str, Any]) -> None:
    """Make one of :data:`TAPS` on the board, as a judge does, and wait for its replay."""
    before = replays(page)
    if op == "add":
        add_card(page, args["player"], args["zone"], args["card"])
    elif op == "move":
        page.click(f".sb-chip[data-label='{args['label']}']")
        page.select_option(".sb-move-player", args["player"])
        page.select_option(".sb-move-zone", args["zone"])
        page.click(".sb-move")
    elif op == "state":
        page.click(f".sb-chip[data-label='{args['label']}']")
        page.check(".sb-down")
    elif op == "card":
        page.click(f".sb-chip[data-label='{args['label']}']")
        page.fill(".sb-power", str(args["value"]))
        page.click(".sb-set")
    elif op == "operation":
        page.select_option(".sb-action", "effect")
        page.select_option(".sb-step-op", args["op"])
        assert page.locator(".sb-step-count").is_visible() == ("count" in args)
        assert page.locator(".sb-step-amount").is_visible() == ("amount" in args)
        if "target" in args:
            page.select_option(".sb-step-target", args["target"])
        for name in ("count", "amount"):
            if name in args:
                page.fill(f".sb-step-{name}", str(args[name]))
        page.click(".sb-addop")
    else:
        page.select_option(".sb-action", args["action"])
        page.select_option(".sb-step-player", args["player"])
        page.select_option(".sb-step-op", args["op"])
        page.fill(".sb-step-count", str(args["count"]))
        page.click(".sb-addstep")
    wait_replay(page, before + 1)


@pytest.mark.parametrize("lang", ["ja", "en", "zh-Hans"])
def test_a_position_built_by_tapping_replays_and_its_link_reopens_it(
        browser: Browser, base_url: str, lang: str) -> None:
    context, page, _, errors = new_page(browser, 390)
    try:
        assert open_sandbox(page, f"{base_url}/{lang}/sandbox/") == "ok"
        page.click(".sb-empty")
        wait_replay(page, 2)
        assert page.locator(".sb-chip").count() == 0
        expected = edit(sandbox.vocabulary()["blank"], "empty", {})
        for op, args in TAPS:
            tap(page, op, args)
            expected = edit(expected, op, args)
        # the board's file is the one the edits give natively, and it replays
        assert page.locator(".sb-text").input_value() == expected
        assert page.locator(".sandbox").get_attribute("data-state") == "ok"
        chips = page.locator(".sb-side[data-player='p2'] .sb-zonerow[data-zone='deck'] .sb-chip")
        assert chips.all_inner_texts()[0].startswith("S3 ")
        assert page.locator(".sb-chip[data-label='L1']").inner_text().endswith(" ↓")
        assert page.locator(".sb-steplist li").count() == 1
        # the set-up drawn as the ruling page draws it (the replay's first board), its ids
        # left to the replay's copy
        assert page.locator(".sb-board figure.sb-setup svg").count() == 1
        assert page.evaluate("() => { const ids = [...document.querySelectorAll('[id]')]"
                             ".map(e => e.id); return ids.length === new Set(ids).size; }")
        shown = page.locator(".sb-board").inner_text() + page.locator(
            "#sb-results").inner_text()
        if lang != "en":  # every label in the glossary's terms: no engine code
            assert not ENGINE_CODES.search(shown), ENGINE_CODES.findall(shown)
        assert page.evaluate("document.documentElement.scrollWidth") <= 391
        link = shared_link(page)
        assert f"/{lang}/sandbox/#try=2." in link and len(link) < 2000
    finally:
        context.close()
    assert not errors, errors
    context, page, _, errors = new_page(browser, 390)
    try:
        page.goto(link)
        assert wait_replay(page, 1) == "ok"
        assert page.locator(".sb-text").input_value() == expected
        assert page.locator(".sb-chip").count() == 5
    finally:
        context.close()
    assert not errors, errors


#: Rulings per request in the corpus test (each request must answer within the sandbox's
#: per-request timeout).
BATCH = 16


def test_the_whole_corpus_replays_in_pyodide_with_the_native_traces(
        browser: Browser, base_url: str) -> None:
    """Every ruling under each of its rule sets: ``judge replay --json``'s trace and every
    branch of the full exploration, compared by SHA-256 of the same JSON text."""
    root = project_root()
    items = [(p.relative_to(root).as_posix(), p.read_text(encoding="utf-8"))
             for p in discover([root / "rulings"])]
    assert len(items) > 200
    native = sandbox.corpus_digests(items)
    context, page, _, errors = new_page(browser)
    try:
        assert open_sandbox(page, f"{base_url}/en/{RULING_PAGE}") == "ok"
        browser_digests: list[dict[str, Any]] = []
        for start in range(0, len(items), BATCH):
            batch = [list(item) for item in items[start:start + BATCH]]
            browser_digests += page.evaluate(
                "items => window.judgeSandbox.ask({type: 'digests', items: items})"
                ".then(a => a.value)", batch)
    finally:
        context.close()
    assert not errors, errors
    assert len(browser_digests) == len(native)
    differ = [n["path"] for n, b in zip(native, browser_digests, strict=True) if n != b]
    assert not differ, f"traces differ in the browser: {differ[:10]}"
    assert sum(len(r["branches"]) for n in native for r in n["rules"].values()) > 500
