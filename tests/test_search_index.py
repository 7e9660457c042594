"""The site's search index (``search-index/``, judge/search/static.py), without a browser
(tests/test_browser.py searches in Chromium, tests/test_search_parity.py compares the site's
ranking with judge search's).

Built from the three-ruling fixture corpus by ``judge build``: the same documents, rows and
tokens as judge search's FTS5 index (every instance of every token read back equal to what
FTS5 holds), one fragment per result and language holding the text of that language's page
and nothing else (no alias lists, no folded forms, no index helpers), the glossary and the
definition in the meta file; ``judge build --no-search`` leaves it out; the same site gives
the same index, byte for byte; the search page loads the engine and the index from the site.
"""

from __future__ import annotations

import gzip
import hashlib
import html
import json
import re
import sqlite3
import subprocess
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from judge.cli import cli
from judge.i18n import LANGS
from judge.paths import project_root
from judge.search import build_index
from judge.search.definition import definition
from judge.search.documents import corpus_documents
from judge.search.index import COLUMNS, DB
from judge.search.static import BLOCK, FORMAT, fnv, postings_of, shown_of
from judge.site.build import build_site
from judge.site.searchindex import FOLDER

FIXTURE = project_root() / "tests" / "fixtures" / "site_corpus"
RULINGS = 3  # in the fixture corpus
ENGINE = project_root() / "site_templates" / "assets" / "search-engine.js"


def digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def read(folder: Path, name: str) -> Any:
    return json.loads(gzip.decompress((folder / (name + ".gz")).read_bytes()))


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("search") / "site"
    report = build_site(out, root=FIXTURE, search=True)
    assert report.search is not None and report.search.docs > RULINGS
    return out


@pytest.fixture(scope="module")
def fts(tmp_path_factory: pytest.TempPathFactory) -> sqlite3.Connection:
    """judge search's index of the same corpus."""
    folder = tmp_path_factory.mktemp("fts") / "search"
    docs, terms, rulesets = corpus_documents(FIXTURE)
    build_index(docs, folder, glossary=terms, rulesets=rulesets)
    return sqlite3.connect(folder / DB)


def test_the_index_holds_the_same_rows_and_tokens_as_judge_search(
        site: Path, fts: sqlite3.Connection) -> None:
    """Every instance (token, row, column, place) of the FTS5 index is in the site's
    postings, and nothing else (but the starts of tokens, X*, which FTS5 finds with its
    prefix index); each row's length is FTS5's."""
    index = site / FOLDER
    meta = read(index, "meta.json")
    rows = int(fts.execute("SELECT count(*) FROM docs").fetchone()[0])
    assert meta["docs"] == rows and meta["format"] == FORMAT
    fts.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, fts, 'instance')")
    instances: dict[str, set[tuple[int, int, int]]] = {}
    for term, doc, col, offset in fts.execute("SELECT term, doc, col, offset FROM temp.v"):
        instances.setdefault(term, set()).add((doc, COLUMNS.index(col), offset))
    assert sum(len(v) for v in instances.values()) == meta["tokens"]
    for token, wanted in instances.items():
        found = {(row, col, pos) for row, cols in postings_of(token, index).items()
                 for col, positions in cols.items() for pos in positions}
        assert found == wanted, token
    # every shard holds only its own tokens, and a start X* for each CJK character
    for shard in sorted((index / "s").glob("*.json.gz")):
        n = int(shard.name.split(".")[0], 16)
        for token in read(index, f"s/{shard.name.removesuffix('.json.gz')}.json"):
            assert fnv(token) % meta["shards"] == n
            assert token in instances or (token.endswith("*") and len(token) == 2), token


def test_postings_past_16_bits(tmp_path: Path) -> None:
    """A result longer than a 16-bit number holds: its posting lists (kept as 16-bit arrays
    while they fit) become 32-bit, and the lists written hold every place, with the starts of
    its CJK tokens."""
    from judge.search.documents import SearchDoc
    from judge.search.static import write_index

    long = " ".join(["card"] * 70_000 + ["refresh", "重构"])
    docs = [SearchDoc(id="r1", path="", titles={"en": "card"}, bodies={"en": long}),
            SearchDoc(id="r2", path="", titles={"en": "refresh card"})]
    write_index(docs, tmp_path, glossary=[], rulesets=[])
    assert postings_of("refresh", tmp_path) == {1: {2: [70_000]}, 2: {0: [0]}}
    assert postings_of("card", tmp_path) == {1: {0: [0], 2: list(range(70_000))},
                                             2: {0: [1]}}
    assert postings_of("重*", tmp_path) == {1: {2: [70_001]}}
    assert postings_of("构_", tmp_path) == {1: {2: [70_002]}}


def test_index_files_are_the_json_encoder_s() -> None:
    """The files' JSON, posting lists written from a table of numerals, is what the json
    module writes of the same data (keys sorted, no spaces, arrays as lists)."""
    from array import array

    from judge.search.static import _json

    shard = {"構_": array("H", [1, 0, 65535, 7]), "a\"b\\": array("i", [70_000, 2**31 - 1]),
             "é\n": array("H"), "b": {"f": "b/1-0.json"}, "\u2028x": array("H", [3])}
    for data in (shard, {"b": {"f": "b/1-0.json"}}, {}, shard["構_"], [[1, "ルール", None]],
                 {"z": 1.5, "a": [True, "\x00"]}):
        assert _json(data) == json.dumps(data, ensure_ascii=False, separators=(",", ":"),
                                         sort_keys=True, default=list)


def test_fnv_is_the_hash_the_page_computes() -> None:
    """FNV-1a over UTF-16 code units, low byte first: the shard the page looks a token up
    in (search-engine.js, fnv) is the one the build wrote it to."""
    tokens = ["", "a", "refresh", "重构", "构_", "り*", "tag_refresh", "\U0001f600", "é"]
    script = (f"const {{fnv}} = require({json.dumps(str(ENGINE))});"
              f"console.log(JSON.stringify({json.dumps(tokens)}.map(fnv)));")
    done = subprocess.run(["node", "-e", script], capture_output=True, text=True, check=True)
    assert json.loads(done.stdout) == [fnv(t) for t in tokens]
    assert fnv("") == 0x811C9DC5 and fnv("a") == 0x2B24D044


def test_the_meta_file_holds_the_definition_and_the_glossary(site: Path) -> None:
    meta = read(site / FOLDER, "meta.json")
    assert meta["definition"] == definition()
    names = {names["en"] for _id, names, _main in meta["glossary"]["terms"]}
    assert "refresh" in names
    # each term's main ruling and glossary entry, by row
    ids = read(site / FOLDER, "ids.json")
    main, entry = meta["terms"]["refresh"]
    assert ids[entry - 1] == "id_term_refresh"
    assert meta["kinds"][0] == [1, "ruling"] and meta["block"] == BLOCK
    assert [k for _row, k in meta["kinds"]] == ["ruling", "term", "processing", "change"]


def test_fragments_hold_only_the_text_of_the_page_in_its_language(site: Path) -> None:
    """What a result shows: its title and answer as its page in that language shows them,
    no alias list, no folded form, no piece of another language."""
    docs, _terms, _rulesets = corpus_documents(FIXTURE)
    index = site / FOLDER
    for lang in LANGS:
        for row, doc in enumerate(docs, 1):
            shown = shown_of(row, lang, index)
            assert shown["id"] == doc.id and shown["kind"] == doc.kind
            if doc.titles.get(lang):
                assert shown["lang"] == lang
                assert shown["title"] == doc.titles[lang]
                assert shown["text"] == doc.bodies.get(lang, "")
            if doc.kind == "ruling":
                assert shown["href"] == f"rulings/{doc.id}/"
                page = (site / lang / shown["href"] / "index.html").read_text(encoding="utf-8")
                text = html.unescape(re.sub(r"<[^>]+>", "", page))
                assert shown["title"] in text
                # the answer's sentences are on the page (its markup aside)
                first = re.split(r"[。.]", shown["text"])[0]
                assert first and first in text, (lang, doc.id)
            assert "·" not in shown["text"] and doc.keywords not in shown["text"]
        term = shown_of([d.id for d in docs].index("term:refresh") + 1, lang, index)
        assert term["href"] == "glossary/#t-refresh"
        assert 'id="t-refresh"' in (site / lang / "glossary" / "index.html").read_text(
            encoding="utf-8")


def test_facets_name_the_filters_values_in_the_page_language(site: Path) -> None:
    ja = read(site / FOLDER, "ja/facets.json")
    en = read(site / FOLDER, "en/facets.json")
    assert [v for v, _name, _n in ja["rules"]] == sorted(v for v, _name, _n in ja["rules"])
    assert ["refresh", "リフレッシュ"] in [[v, name] for v, name, _n in ja["term"]]
    assert ["refresh", "refresh"] in [[v, name] for v, name, _n in en["term"]]
    assert all(n > 0 for _v, _name, n in en["tag"])


def test_cli_builds_the_index_unless_no_search(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "site"
    result = runner.invoke(cli, ["build", "--corpus", str(FIXTURE), "--out", str(out),
                                 "--no-search"])
    assert result.exit_code == 0, result.output
    assert not (out / FOLDER).exists()
    offline = json.loads((out / "offline" / "en.json").read_text(encoding="utf-8"))
    assert not any(f.startswith(FOLDER) for f in offline["files"])
    result = runner.invoke(cli, ["build", "--corpus", str(FIXTURE), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "search index:" in result.output
    assert (out / FOLDER / "meta.json.gz").is_file()


def test_the_same_site_gives_the_same_index(site: Path, tmp_path: Path) -> None:
    again = tmp_path / "site"
    build_site(again, root=FIXTURE, search=True)
    assert digest(again / FOLDER) == digest(site / FOLDER)


def test_search_page_loads_the_engine_and_the_index_of_the_site(site: Path) -> None:
    for lang in LANGS:
        page = (site / lang / "search" / "index.html").read_text(encoding="utf-8")
        assert f'data-index="../../{FOLDER}/"' in page
        assert '<script src="../../assets/search-engine.js" defer></script>' in page
        assert page.index("search-engine.js") < page.index("assets/search.js")
    assert (site / "assets" / "search-engine.js").is_file()


#: The engine in Node over a site's index, each shard refused the first time it is asked for:
#: the search fails; the same search again asks for those shards again (a rejected load is not
#: kept) and finds what an engine that never failed finds.
REFUSED_ONCE = """
const fs = require("fs"), path = require("path"), zlib = require("zlib");
const [engineFile, folder, query, lang] = process.argv.slice(1);
const { Engine } = require(engineFile);
const read = (name) =>
  JSON.parse(zlib.gunzipSync(fs.readFileSync(path.join(folder, name + ".gz"))));
const asked = {};
const flaky = (name) => {
  asked[name] = (asked[name] || 0) + 1;
  return name.startsWith("s/") && asked[name] === 1
    ? Promise.reject(new Error(name + ": refused")) : Promise.resolve(read(name));
};
(async () => {
  const meta = read("meta.json");
  const engine = new Engine(meta, flaky);
  let first = null;
  try {
    await engine.search(query, lang);
    first = "found";
  } catch (error) {
    first = error.message;
  }
  const again = await engine.search(query, lang);
  const clean = await new Engine(meta, (name) => Promise.resolve(read(name))).search(query, lang);
  const shards = Object.keys(asked).filter((name) => name.startsWith("s/"));
  console.log(JSON.stringify({ first, again: again.rows, clean: clean.rows,
    twice: shards.filter((name) => asked[name] === 2).length, shards: shards.length }));
})();
"""


@pytest.mark.parametrize(("query", "lang"), [("refresh", "en"), ("リフレッシュ", "ja")])
def test_a_shard_that_failed_is_asked_for_again_by_the_next_search(
        site: Path, query: str, lang: str) -> None:
    """The search page's next keystroke after a failed request (issue 28: a file that could
    not be fetched was kept as failed, and the page never found anything again)."""
    done = subprocess.run(["node", "-e", REFUSED_ONCE, str(ENGINE), str(site / FOLDER), query,
                           lang], capture_output=True, text=True, check=True)
    out = json.loads(done.stdout)
    assert out["first"].endswith(": refused")
    assert out["again"] == out["clean"] != []
    assert out["twice"] >= 1 and out["shards"] >= 1


def test_the_search_phase_in_its_own_process_writes_the_same_bytes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """judge build writes the search index in a process forked for it (build.Phase), so that
    its postings leave with that process: the files are those the build's own process writes,
    and what goes wrong there stops the build with the one line it would give here."""
    import os

    from judge.search import static
    from judge.site import build
    from judge.site.load import load_streamed
    from judge.site.searchindex import write_search

    # a thread another test left running would make the phase run here: this test is about
    # the forked path
    monkeypatch.setattr(build.threading, "active_count", lambda: 1)
    assert build.Phase.start("a phase", os.getpid, None).finish() != os.getpid()
    site = load_streamed(FIXTURE)
    forked, here = tmp_path / "forked", tmp_path / "here"
    report = build.Phase.start("the search index", lambda: write_search(site, forked),
                               None).finish()
    assert report.docs > RULINGS
    write_search(site, here)
    assert digest(forked) == digest(here) != {}

    def full(*args: object, **kwargs: object) -> None:
        raise OSError(28, "No space left on device", str(tmp_path / "x.gz"))

    monkeypatch.setattr(static, "write_index", full)
    with pytest.raises(build.BuildError) as caught:
        build.Phase.start("the search index", lambda: write_search(site, forked), None).finish()
    assert str(caught.value) == f"{tmp_path / 'x.gz'}: No space left on device"

    def bug(*args: object, **kwargs: object) -> None:
        raise KeyError("term")

    monkeypatch.setattr(static, "write_index", bug)
    with pytest.raises(build.BuildError) as caught:
        build.Phase.start("the search index", lambda: write_search(site, forked), None).finish()
    assert str(caught.value) == "the search index was not made: KeyError: 'term'"
