"""Offline use without a browser (judge/site/offline.py, site_templates/sw.js): what the
service worker is told to keep for each language, its version, and how ``judge serve``
serves it. tests/test_browser.py goes offline in Chromium and searches."""

from __future__ import annotations

import json
import shutil
import urllib.request
from pathlib import Path

import pytest

from judge.langs import LANGS
from judge.paths import project_root
from judge.site.build import build_site
from judge.site.offline import PAGES, SERVICE_WORKER, kept_files, site_version
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
                             ("/api/judge.db", "application/vnd.sqlite3"),
                             ("/search-index/meta.json.gz", "application/gzip")):
            with urllib.request.urlopen(base + path, timeout=10) as response:
                assert response.headers["Content-Type"].split(";")[0] == wanted, path
                body = response.read()
            assert body == (site / path.lstrip("/")).read_bytes()
    finally:
        server.shutdown()
        server.server_close()
