"""The site's search page in Chromium (Playwright, /usr/bin/chromium), on the real corpus's site
(issue #28: one search on two surfaces; results a judge reads):

- the page runs the same search as ``search-engine.js`` in Node, which tests/test_search_parity
  holds to ``judge search``: the results drawn are the engine's, in its order;
- a query in characters Japanese and Chinese share is searched in the language of the page it
  is typed on, as ``judge search --lang`` searches it;
- excerpts hold only text of the result's own page, in the page's language, with the words
  found marked: no alias lists, no folded forms, nothing of the index;
- counts count distinct results.

tests/test_browser.py has the rest of the search page (filters, corrections, the address,
offline use).
"""

from __future__ import annotations

import gzip
import html
import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

import pytest
from conftest import watched_tab

from judge.paths import project_root
from judge.search import search
from judge.search.documents import corpus_documents
from judge.search.static import shown_of
from judge.site.build import build_site
from judge.site.searchindex import FOLDER
from judge.site.serve import start_server

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

ROOT = project_root()
NODE = ROOT / "benchmarks" / "search_node.js"
TIMEOUT_MS = 20_000
#: Queries of each language, typed on that language's page and compared with the engine's
#: results in Node: terms, fan words, questions, typos, width and kana, the syntax.
QUERIES = {
    "en": ["refresh", "life burst", "what happens when my deck runs out during an effect",
           "refersh", "colored cost", "NTP refresh", "hand size limit", "guard signi",
           "\"main deck\"", "refresh NOT battle", "tag:refresh draw", "ＰＩＣＫ ＵＰ",
           "リフレッシュ", "重构"],
    "ja": ["リフレッシュ", "りふれっしゅ", "ﾘﾌﾚｯｼｭ", "ライフバーストは使わなくてもいいですか",
           "第二次リフレッシュ", "先攻", "終了", "攻撃時", "ガード シグニ", "アサシン", "refresh",
           "ﾗｲﾌﾊﾞ-ｽﾄ 使わない", "アタックされない応援シグニ"],
    "zh-Hans": ["重构", "第二次重构回合会结束吗", "攻击时", "先攻", "终了", "生命爆发 顺序",
                "枪兵", "效果处理途中主牌组没了怎么办", "リフレッシュ", "能量可以多付吗"],
}


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("search-page") / "site"
    build_site(out, root=ROOT, allow_failing=True, search=True)
    return out


@pytest.fixture(scope="module")
def base_url(site: Path) -> Iterator[str]:
    server = start_server(site, 0)
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    with watched_tab(browser, TIMEOUT_MS, service_workers="block") as tab:
        yield tab


def fragment(site: Path, lang: str, row: int) -> dict[str, Any]:
    return shown_of(row, lang, site / FOLDER)


def drawn(page: Page, base_url: str, lang: str, query: str) -> list[str]:
    page.goto(f"{base_url}/{lang}/search/?q={quote(query)}")
    page.wait_for_function("() => document.getElementById('search')"
                           ".getAttribute('data-state') === 'done'")
    return [li.get_attribute("data-id") or "" for li in
            page.locator(".result").element_handles()]


def node(site: Path, asked: list[tuple[str, str]]) -> list[dict[str, Any]]:
    done = subprocess.run(["node", str(NODE), str(site / FOLDER), "10",
                           str(site / "assets" / "search-engine.js")],
                          input=json.dumps(asked), capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout))


def test_the_page_draws_the_engines_results_in_its_order(page: Page, base_url: str,
                                                         site: Path) -> None:
    asked = [(q, lang) for lang, queries in QUERIES.items() for q in queries]
    expected = node(site, asked)
    for (query, lang), wanted in zip(asked, expected, strict=True):
        ids = drawn(page, base_url, lang, query)
        rows = wanted.get("rows", [])
        assert ids == [fragment(site, lang, r)["id"] for r in rows], (lang, query)
        status = page.locator("#search .status").inner_text()
        if rows and not wanted.get("corrections") and wanted["complete"]:
            # "57 results for ...", "“...”の結果：57件": the number of results matched
            assert str(wanted["total"]) in re.findall(r"\d+", status.replace(query, "")), \
                (lang, query, status)


def test_shared_characters_are_searched_in_the_page_language(page: Page, base_url: str,
                                                             tmp_path: Path) -> None:
    """終了 and 攻撃時 read as Japanese on /ja/ (終了 is one word; 時 of 攻撃時 is the
    question's) and as Chinese on /zh-Hans/ (了 is a particle; 時 stays), as judge search reads
    them with --lang; the two readings find different results."""
    folder = tmp_path / "index"
    for query in ("終了", "攻撃時"):
        found = {}
        for lang in ("ja", "zh-Hans"):
            cli = [h.id for h in search(query, root=ROOT, folder=folder, lang=lang).hits]
            assert drawn(page, base_url, lang, query) == cli, (query, lang)
            found[lang] = cli
        assert found["ja"] != found["zh-Hans"], query


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def test_excerpts_hold_only_the_text_of_the_result_page_in_its_language(
        page: Page, base_url: str, site: Path) -> None:
    """Every excerpt of the first results, on each language's page and for queries in every
    language, is a piece of the answer (definition, summary) of the result in the page's
    language, which its own page shows; the words found are marked; no alias list, no
    folded form, nothing of another language's text."""
    docs, _terms, _rulesets = corpus_documents(ROOT)
    by_id = {d.id: d for d in docs}
    for lang in ("zh-Hans", "ja", "en"):
        for query in ("枪兵", "重构", "refresh", "ランサー", "生命爆发 顺序"):
            ids = drawn(page, base_url, lang, query)
            assert ids, (lang, query)
            marked = 0
            for item in page.locator(".result").element_handles():
                rid = item.get_attribute("data-id") or ""
                doc = by_id[rid]
                answer = item.query_selector(".result-answer")
                assert answer is not None
                text = answer.inner_text()
                body = _plain(doc.bodies.get(lang) or doc.bodies.get("ja", ""))
                pieces = [p for p in text.split("…") if p.strip()]
                assert pieces and all(_plain(p) in body for p in pieces), (lang, query, rid,
                                                                           text)
                assert "·" not in text and doc.keywords not in text
                marked += len(answer.query_selector_all("mark"))
                link = item.query_selector(".result-link")
                assert link is not None
                href = link.get_attribute("href") or ""
                assert href.startswith(f"/{lang}/"), href
                target = site / href.split("#")[0].lstrip("/") / "index.html"
                shown = _plain(html.unescape(re.sub(r"<[^>]+>", " ",
                                                    target.read_text(encoding="utf-8"))))
                first = _plain(pieces[0])[:20]
                assert first in shown or first in _plain(body), (href, first)
            assert marked, (lang, query)  # the words found are marked somewhere


def test_counts_count_distinct_results(page: Page, base_url: str, site: Path) -> None:
    rulings = len(list((ROOT / "rulings").rglob("*.toml")))
    for lang, query in (("en", "refresh"), ("zh-Hans", "重构 规则"), ("ja", "カード")):
        drawn(page, base_url, lang, query)
        status = page.locator("#search .status").inner_text()
        number = re.search(r"\d+", status)
        while page.locator("#search .more").is_visible():
            count = page.locator(".result").count()
            page.locator("#search .more").click()
            page.wait_for_function("n => document.querySelectorAll('.result').length > n",
                                   arg=count)
        ids = [li.get_attribute("data-id") for li in
               page.locator(".result").element_handles()]
        assert len(ids) == len(set(ids))
        meta = json.loads(gzip.decompress((site / FOLDER / "meta.json.gz").read_bytes()))
        assert len(ids) <= meta["docs"]
        if number is not None:
            assert int(number.group(0)) == len(ids), (lang, query, status)
        assert sum(1 for i in ids if i and ":" not in i) <= rulings
