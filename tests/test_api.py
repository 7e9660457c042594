"""The site's downloads for other tools (judge/site/api.py, docs/api.md), read back.

The real corpus's site is built once; its ``api/rulings.json`` and every
``api/rulings/<id>.json.gz`` are decompressed, parsed and checked against the corpus loaded
apart: every ruling with its texts, tags, terms, rule sets and sources, every address
leading to a file of the site, each trace reading back (``Trace.from_dict``) into the
corpus's own trace, the outcomes' branches the ones that reach them. ``api/judge.db.gz``
decompresses into the file ``judge db`` writes for the same corpus, byte for byte, and
writing the API runs the engine not once.
"""

from __future__ import annotations

import gzip
import json
import posixpath
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from judge.cli import cli
from judge.corpus import Corpus, load_corpus
from judge.coverage import compute
from judge.engine.trace import Trace
from judge.langs import LANGS, TEXT_FIELDS
from judge.paths import project_root
from judge.scenario.expect import state_diff
from judge.scenario.run import engine_runs
from judge.site.api import API_VERSION, DOCS, write_api
from judge.site.build import build_site
from judge.site.load import load
from judge.sources import rests_on_official

FIXTURE = project_root() / "tests" / "fixtures" / "site_corpus"


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus(project_root())


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("api") / "site"
    # a ruling another change breaks is test_site's business; here its "passes" is checked
    build_site(out, root=project_root(), allow_failing=True)
    return out


def read_json(path: Path) -> Any:
    data = path.read_bytes()
    return json.loads(gzip.decompress(data) if path.name.endswith(".gz") else data)


def ruling_files(site: Path) -> list[Path]:
    """The rulings' own files (gzip-compressed JSON)."""
    return sorted((site / "api" / "rulings").glob("*.json.gz"))


def ruling_id(path: Path) -> str:
    return path.name.removesuffix(".json.gz")


def resolve(site: Path, here: str, href: str) -> Path:
    """A relative address in the file ``here`` (from the site root) -> the file it names."""
    target = posixpath.normpath(posixpath.join(posixpath.dirname(here), href))
    assert not target.startswith(".."), (here, href)
    return site / target / "index.html" if href.endswith("/") else site / target


def citations(corpus: Corpus, rid: str) -> list[dict[str, str]]:
    return [{"source": c.source, "section": c.section}
            for c in corpus.ruling(rid).scenario.sources]


def test_index_lists_every_ruling(site: Path, corpus: Corpus) -> None:
    index = read_json(site / "api" / "rulings.json")
    assert index["version"] == API_VERSION
    assert index["corpus_fingerprint"] == corpus.fingerprint
    assert [rs["id"] for rs in index["rulesets"]] == list(corpus.rulesets)
    assert [e["id"] for e in index["rulings"]] == [r.id for r in corpus.rulings]
    assert resolve(site, "api/rulings.json", index["database"]).is_file()
    # the source registry, once, without where the project's own copies lie
    assert sorted(index["sources"]) == sorted(corpus.sources)  # keys sorted
    for doc_id, doc in index["sources"].items():
        known = corpus.sources[doc_id]
        assert doc == {"titles": dict(known.titles), "authority": known.authority,
                       "date": known.date, "url": known.url, "note": dict(known.note),
                       "sections": {k: dict(v.names) for k, v in known.sections.items()}}
    assert sum(e["official"] for e in index["rulings"]) > 0
    for entry in index["rulings"]:
        ruling = corpus.ruling(entry["id"])
        sc = ruling.scenario
        assert entry["titles"] == {lang: t for lang, t in sc.texts["title"].items() if t}
        assert entry["answers"] == {lang: t for lang, t in sc.texts.get("answer", {}).items()
                                    if t}
        assert entry["titles"]["ja"] and entry["answers"]["ja"]
        assert entry["tags"] == list(sc.tags) and entry["terms"] == list(sc.terms)
        assert entry["rulesets"] == list(sc.rulesets) and entry["topic"] == ruling.topic
        assert entry["sources"] == citations(corpus, ruling.id)
        assert entry["official"] == rests_on_official(sc.sources, corpus.sources)
        assert set(entry["pages"]) == set(LANGS)
        for lang, href in entry["pages"].items():
            page = resolve(site, "api/rulings.json", href)
            assert page == site / lang / "rulings" / ruling.id / "index.html" and page.is_file()
        assert resolve(site, "api/rulings.json", entry["json"]) == \
            site / "api" / "rulings" / f"{ruling.id}.json.gz"


def test_each_ruling_reads_back_into_the_corpus_traces(site: Path, corpus: Corpus) -> None:
    files = ruling_files(site)
    assert sorted(ruling_id(f) for f in files) == sorted(r.id for r in corpus.rulings)
    assert not list((site / "api" / "rulings").glob("*.json"))  # only the compressed form
    branches = shared = 0
    for path in files:
        doc = read_json(path)
        ruling = corpus.ruling(ruling_id(path))
        sc = ruling.scenario
        here = f"api/rulings/{path.name}"
        assert doc["version"] == API_VERSION and doc["id"] == ruling.id
        assert doc["path"] == ruling.path
        assert resolve(site, here, doc["index"]) == site / "api" / "rulings.json"
        assert resolve(site, here, doc["json"]) == path
        for lang, href in doc["pages"].items():
            assert resolve(site, here, href) == site / lang / "rulings" / ruling.id / "index.html"
        for lang in LANGS:
            wanted = {name: sc.texts[name][lang] for name in TEXT_FIELDS
                      if sc.texts.get(name, {}).get(lang)}
            assert doc["texts"].get(lang, {}) == wanted, (ruling.id, lang)
        assert [{"source": c["source"], "section": c["section"]}
                for c in doc["sources"]] == citations(corpus, ruling.id)
        for cited in doc["sources"]:  # each on its own: authority, date, address, names
            known = corpus.sources[cited["source"]]
            assert cited["titles"] == dict(known.titles) and set(cited["titles"]) == set(LANGS)
            assert (cited["authority"], cited["date"], cited["url"]) == \
                (known.authority, known.date, known.url)
            section = known.sections.get(cited["section"])
            assert cited["section_names"] == (dict(section.names) if section else {})
        assert doc["official"] == rests_on_official(sc.sources, corpus.sources)
        assert doc["related"] == list(sc.related)
        assert list(doc["replays"]) == list(sc.rulesets)
        for rules, rep in ruling.replays.items():
            shown = doc["replays"][rules]
            assert shown["branches"] == rep.branch_count and shown["cut"] == rep.cut
            branches += shown["branches"]
            assert shown["passes"] == (not shown["failures"])
            first = rep.first
            if shown["trace"] is None:  # the same trace as a later rule set's, given there
                holder = shown["same_trace"]
                assert sc.rulesets.index(holder) > sc.rulesets.index(rules), (ruling.id, rules)
                given = doc["replays"][holder]["trace"]
                assert given["rules"] == holder
                assert {**given, "rules": rules} == first.to_dict(), (ruling.id, rules)
                shared += 1
                continue
            assert "same_trace" not in shown
            trace = Trace.from_dict(shown["trace"])
            assert trace.to_dict() == shown["trace"]  # the JSON form round-trips
            assert trace.events == first.events, (ruling.id, rules)
            assert trace.positions == first.positions, (ruling.id, rules)
            assert trace.choices == first.choices and trace.problems == first.problems
            assert shown["trace"] == first.to_dict()
            # a trace is given under the latest rule set that makes it: no later one's is the same
            for later in sc.rulesets[sc.rulesets.index(rules) + 1:]:
                other = doc["replays"][later]["trace"]
                assert other is None or {**other, "rules": rules} != shown["trace"]
        assert doc["passes"] == all(r["passes"] for r in doc["replays"].values())
    assert branches >= len(files)
    assert shared, "rulings whose rule sets replay alike give their trace once"


def test_outcomes_name_the_branch_that_reaches_them(site: Path, corpus: Corpus) -> None:
    seen = 0
    for ruling in corpus.rulings:
        sc = ruling.scenario
        listed = [(i, o) for i, e in enumerate(sc.expectations) for o in e.outcomes]
        doc = read_json(site / "api" / "rulings" / f"{ruling.id}.json.gz")
        assert len(doc["outcomes"]) == len(listed), ruling.id
        for (index, outcome), shown in zip(listed, doc["outcomes"], strict=True):
            assert shown["expectation"] == index and shown["name"] == outcome.name
            assert shown["names"] == dict(outcome.names)
            assert shown["branch"] is not None, (ruling.id, outcome.name)
            trace = ruling.replays[shown["rules"]].traces[shown["branch"]]
            assert not state_diff(trace.final, outcome.state, sc.setup.seed is not None)
            assert shown["choices"] == trace.to_dict()["choices"]
            assert shown["final"] == trace.final.to_dict()
            seen += 1
    assert seen >= 4  # the corpus lists outcomes: the test checks something


def test_the_database_is_the_file_judge_db_writes(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(out, root=FIXTURE)
    result = CliRunner().invoke(cli, ["db", "--corpus", str(FIXTURE),
                                      "--out", str(tmp_path / "judge.db")])
    assert result.exit_code == 0, result.output
    packed = out / "api" / "judge.db.gz"
    built = gzip.decompress(packed.read_bytes())
    assert built[:16] == b"SQLite format 3\x00"
    assert built == (tmp_path / "judge.db").read_bytes()
    assert packed.stat().st_mode & 0o444 == 0o444  # readable by a server
    assert sorted(p.name for p in (out / "api").glob("judge.db*")) == ["judge.db.gz"]


def test_writing_the_api_replays_nothing(tmp_path: Path) -> None:
    site = load(FIXTURE)
    runs = engine_runs()
    report = write_api(site, tmp_path)
    assert engine_runs() == runs, "the API is written from the loaded traces"
    assert report.files == len(site.rulings) + 2  # and rulings.json, coverage.json
    assert json.loads((tmp_path / "api" / "coverage.json").read_bytes()) == \
        compute(site.corpus).to_dict()  # what judge coverage --json prints
    assert report.json_bytes == sum(p.stat().st_size for p in (tmp_path / "api").rglob("*")
                                    if p.name.endswith((".json", ".json.gz")))


def test_the_files_are_compact_sorted_json(site: Path) -> None:
    files = [p for p in (site / "api").rglob("*") if p.name.endswith((".json", ".json.gz"))]
    assert len(files) > len(ruling_files(site))  # the index and the quiz's banks too
    for path in files:
        data = path.read_bytes()
        if path.name.endswith(".gz"):  # compressed without a name or a time: same bytes
            assert data[3] & 0x08 == 0 and data[4:8] == b"\0\0\0\0", path
            data = gzip.decompress(data)
        value = json.loads(data)
        again = json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
        assert data == (again + "\n").encode("utf-8"), path  # one line, keys sorted
    index = (site / "api" / "rulings.json").read_text(encoding="utf-8")
    assert "リフレッシュ" in index and "\\u" not in index  # the characters, not escapes


def test_the_docs_travel_with_the_api_and_cover_its_fields(site: Path) -> None:
    for name, source in DOCS.items():
        assert (site / "api" / name).read_bytes() == (project_root() / source).read_bytes()
    doc = (project_root() / "docs" / "api.md").read_text(encoding="utf-8")
    index = read_json(site / "api" / "rulings.json")
    ruling = read_json(site / "api" / "rulings" / "refresh-steps.json.gz")
    replay = ruling["replays"]["current"]
    replays = [r for path in ruling_files(site)
               for r in read_json(path)["replays"].values()]
    fields = {*index, *index["rulings"][0], *ruling, *replay, *replay["trace"],
              *(key for r in replays for key in r)}
    undocumented = sorted(f for f in fields if not re.search(rf"`{re.escape(f)}`", doc))
    assert not undocumented, f"fields docs/api.md does not name: {undocumented}"
