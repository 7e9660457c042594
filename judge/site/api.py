"""The site's downloads for other tools: a static JSON API and the SQLite database.

``judge build`` writes them into ``api/`` of the new site, from the corpus it has loaded (the
traces of phase 1: nothing is replayed again), before the search index and the swap:

- ``api/rulings.json``: every ruling in one list (id, titles, answers, tags, terms, rule sets,
  sources, whether it passes, the addresses of its pages and of its own file);
- ``api/rulings/<id>.json.gz``: one ruling (its texts in every language, sources, and under
  each rule set the first branch's trace in the JSON form of :meth:`Trace.to_dict`, which
  :meth:`Trace.from_dict` reads back, and the branch reaching each listed outcome),
  gzip-compressed (:func:`gz`);
- ``api/coverage.json``: the table ``judge coverage --json`` prints for the corpus, whose
  lists of rulings the coverage page of every language shows (one copy, not three);
- ``api/judge.db.gz``: the database ``judge db`` writes (:func:`judge.db.build` on the same
  corpus, so the same bytes once decompressed), gzip-compressed;
- ``api/README.md``, ``api/database.md``, ``api/events.md``: the project's docs/api.md,
  docs/database.md and docs/events.md, which describe them.

Every address in a file is relative to that file, as in HTML (``urljoin(file_url, href)``).
The JSON is compact (no indentation), keys sorted, UTF-8, and compressed without a name or a
time in the gzip header: the same corpus gives the same bytes. The positions after every step
are most of a ruling's file and repeat from step to step: compressed, the files and the
database are a fifth to a tenth of their size, the largest part of the site's bytes saved.
``version`` (:data:`API_VERSION`) changes whenever a field changes meaning or goes away.
docs/api.md describes every field.
"""

from __future__ import annotations

import gzip
import json
import posixpath
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from judge import __version__
from judge.corpus import Corpus
from judge.coverage import compute as compute_coverage
from judge.db import build as build_database
from judge.errors import JudgeError
from judge.langs import LANGS, TEXT_FIELDS
from judge.paths import project_root
from judge.site.load import RulingData, RulingSummary, SiteInput
from judge.sources import Document, rests_on_official

#: The API's version: bumped when a field changes meaning or is removed (adding one does not).
#: 2: a rule set whose trace is another's of the same ruling has ``trace`` null and names that
#: rule set in ``same_trace``. 3: the rulings' files and the database are gzip-compressed
#: (``rulings/<id>.json.gz``, ``judge.db.gz``), and the addresses name them so.
API_VERSION = 3
#: The folder of the site that holds the downloads.
FOLDER = "api"
DATABASE = "judge.db.gz"
#: ``judge coverage --json`` of the corpus: the coverage page's lists of rulings, one file
#: for its three languages (read by its script), and for other tools.
COVERAGE_FILE = "coverage.json"
#: The database as ``judge db`` writes it, before it is compressed into :data:`DATABASE`.
_DATABASE_RAW = "judge.db"
#: The project's documents copied beside the files they describe (name in the site: source).
DOCS: dict[str, str] = {"README.md": "docs/api.md", "database.md": "docs/database.md",
                        "events.md": "docs/events.md"}


@dataclass
class ApiReport:
    files: int = 0
    json_bytes: int = 0  # rulings.json, coverage.json and every rulings/<id>.json.gz, as written
    database_bytes: int = 0  # judge.db.gz
    largest: tuple[int, str] = (0, "")  # the largest ruling file: bytes, id
    sizes: dict[str, int] = field(default_factory=dict)  # file (under api/) -> bytes


def dumps(value: Any) -> bytes:
    """The API's JSON: compact, keys sorted, UTF-8, one final newline."""
    return (json.dumps(value, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
            + "\n").encode("utf-8")


def gz(data: bytes) -> bytes:
    """A file of the API gzip-compressed: no file name or time in the header, so the same
    bytes give the same file (``gunzip``, :func:`gzip.decompress` read it)."""
    return gzip.compress(data, compresslevel=9, mtime=0)


def gz_writer(out: IO[bytes]) -> gzip.GzipFile:
    """:func:`gz` as a stream written into ``out``, for a file made in pieces (the quiz's
    banks) or too large to hold (the database)."""
    return gzip.GzipFile(filename="", mode="wb", fileobj=out, compresslevel=6, mtime=0)


def write_api(site: SiteInput, root: Path,
              made: Mapping[str, Path] | None = None, written: bool = False,
              database: bool = True) -> ApiReport:
    """Write ``api/`` into the site folder ``root``; returns what was written. ``made``:
    rulings whose file is copied from the folder of a part (``judge build --shard``) rather
    than made again. ``written``: the rulings' own files are already there (the build writes
    each beside its pages, :func:`judge.site.build.render_pages`), and are only counted.
    Without ``database`` the database is left to the caller (:func:`write_database`; the
    build makes it in the quiz's process, :func:`judge.quiz.site.make_quiz`), which then
    counts it (:func:`count_database`)."""
    folder = root / FOLDER
    (folder / "rulings").mkdir(parents=True, exist_ok=True)
    report = ApiReport()

    def write(name: str, data: bytes) -> None:
        (folder / name).write_bytes(data)
        count(name, len(data))

    def count(name: str, size: int) -> None:
        report.files += 1
        report.json_bytes += size
        report.sizes[name] = size

    corpus = site.corpus
    entries = []
    for data in site.rulings:
        entries.append(summary(data, "rulings.json", corpus.sources))
        name = ruling_file(data.id)
        if made and data.id in made:
            body = (made[data.id] / FOLDER / name).read_bytes()
        elif written:
            size = (folder / name).stat().st_size
            count(name, size)
            report.largest = max(report.largest, (size, data.id))
            continue
        else:
            body = gz(dumps(ruling_document(site.full(data.id), corpus.sources)))
        write(name, body)
        report.largest = max(report.largest, (len(body), data.id))
    write("rulings.json", dumps({
        "version": API_VERSION, "generator": f"wixoss-judge {__version__}",
        "corpus_fingerprint": corpus.fingerprint, "database": DATABASE,
        "rulesets": [{"id": rs.id, "start": rs.start, "title": dict(rs.title),
                      "summary": dict(rs.summary), "sources": [str(c) for c in rs.sources]}
                     for rs in corpus.rulesets.values()],
        "sources": {doc.id: _document(doc) for doc in corpus.sources.values()},
        "rulings": entries,
    }))
    coverage = site.coverage if site.coverage is not None else compute_coverage(corpus)
    write(COVERAGE_FILE, dumps(coverage.to_dict()))
    if database:
        write_database(site.replayed_corpus, root)
        count_database(report, root)
    for name, source in DOCS.items():
        path = project_root() / source
        if not path.is_file():
            raise JudgeError(f"{source} is missing: the site's api/{name} is a copy of it")
        shutil.copyfile(path, folder / name)
    return report


def write_database(corpus: Corpus, root: Path) -> None:
    """Write ``api/judge.db.gz`` into the site folder ``root``: the database of ``corpus``
    (loaded with its replays) as ``judge db`` writes it, gzip-compressed."""
    folder = root / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    raw = folder / _DATABASE_RAW
    build_database(corpus, raw)
    with raw.open("rb") as unpacked, (folder / DATABASE).open("wb") as out, \
            gz_writer(out) as packed:
        shutil.copyfileobj(unpacked, packed, 1 << 20)
    raw.unlink()
    (folder / DATABASE).chmod(0o644)  # a site is read by a server


def count_database(report: ApiReport, root: Path) -> None:
    """Add the database written into the site folder ``root`` to ``report``."""
    report.database_bytes = report.sizes[DATABASE] = (root / FOLDER / DATABASE).stat().st_size


def ruling_file(ruling_id: str) -> str:
    """A ruling's file, under ``api/`` (gzip-compressed JSON, :func:`gz`)."""
    return f"rulings/{ruling_id}.json.gz"


def _link(here: str, target: str) -> str:
    """``target`` (a path from the site root) relative to the file ``here`` (from the root)."""
    depth = here.count("/")
    return "../" * depth + target


def _pages(data: RulingSummary, here: str) -> dict[str, str]:
    return {lang: _link(here, f"{lang}/rulings/{data.id}/") for lang in LANGS}


def _texts(data: RulingSummary, name: str) -> dict[str, str]:
    """One text field in the languages the ruling has it in (no fallback)."""
    texts = data.texts.get(name, {})
    return {lang: texts[lang] for lang in LANGS if texts.get(lang)}


def _document(doc: Document) -> dict[str, Any]:
    """A document of the source registry (``data/sources.toml``), as ``rulings.json`` lists
    it (not where the project's own copy lies)."""
    return {"titles": dict(doc.titles), "authority": doc.authority, "date": doc.date,
            "url": doc.url, "note": dict(doc.note),
            "sections": {sid: dict(sec.names) for sid, sec in doc.sections.items()}}


def _citations(data: RulingSummary) -> list[dict[str, str]]:
    """The ruling's citations, as ids of the registry (``rulings.json``)."""
    return [{"source": c.source, "section": c.section} for c in data.sources]


def _sources(data: RulingData, registry: Mapping[str, Document]) -> list[dict[str, Any]]:
    """The ruling's citations resolved, each on its own (``rulings/<id>.json.gz``): the
    document's titles, authority, date and address, and the names of the section cited."""
    out = []
    for c in data.scenario.sources:
        doc = registry[c.source]
        section = doc.sections.get(c.section)
        out.append({"source": c.source, "section": c.section, "titles": dict(doc.titles),
                    "section_names": dict(section.names) if section else {},
                    "authority": doc.authority, "date": doc.date, "url": doc.url})
    return out


def summary(data: RulingSummary, here: str, registry: Mapping[str, Document]) -> dict[str, Any]:
    """A ruling's entry in ``rulings.json`` (``here``: that file, from the site root)."""
    return {
        "id": data.id, "topic": data.topic,
        "titles": _texts(data, "title"), "answers": _texts(data, "answer"),
        "tags": list(data.tags), "terms": list(data.terms), "rulesets": list(data.rulesets),
        "sources": _citations(data), "official": rests_on_official(data.sources, registry),
        "passes": not data.failing,
        "pages": _pages(data, f"{FOLDER}/{here}"), "json": ruling_file(data.id),
    }


def shared_traces(data: RulingData) -> dict[str, dict[str, Any] | str | None]:
    """Each rule set's first-branch trace in its JSON form; or, when a later rule set of the
    ruling logged the very same trace (all but its ``rules``), that rule set's id: the file
    gives each trace once, under the latest rule set that makes it (as the page shows it),
    and rule sets that change nothing for the ruling point to it (``same_trace``)."""
    out: dict[str, dict[str, Any] | str | None] = {}
    holder: dict[str, str] = {}  # the trace without its rule set -> the latest that made it
    for rules in reversed(data.scenario.rulesets):
        rep = data.ruling.replays.get(rules)
        if rep is None or not rep.traces:
            out[rules] = None
            continue
        trace = rep.first.to_dict()
        key = json.dumps({k: v for k, v in trace.items() if k != "rules"}, sort_keys=True)
        if key in holder:
            out[rules] = holder[key]
        else:
            holder[key] = rules
            out[rules] = trace
    return out


def ruling_document(data: RulingData, registry: Mapping[str, Document]) -> dict[str, Any]:
    """``api/rulings/<id>.json.gz``: the ruling, and its trace under each of its rule sets."""
    sc = data.scenario
    here = f"{FOLDER}/{ruling_file(data.id)}"
    results = {r.rules: r for r in data.results}
    replays: dict[str, Any] = {}
    traces = shared_traces(data)
    for rules in sc.rulesets:
        rep = data.ruling.replays.get(rules)
        result = results.get(rules)
        replays[rules] = {
            "passes": bool(result and result.ok),
            "failures": list(result.failures) if result else [],
            "branches": rep.branch_count if rep else 0,
            "cut": rep.cut if rep else False, "stopped": rep.stopped if rep else False,
            "trace": traces[rules] if isinstance(traces[rules], dict) else None,
        }
        if isinstance(traces[rules], str):
            replays[rules]["same_trace"] = traces[rules]
    outcomes = []
    for view in data.outcomes:
        rep = data.ruling.replays.get(view.rules)
        trace = rep.traces[view.branch] if rep is not None and view.branch is not None \
            else None
        outcomes.append({
            "expectation": view.expectation, "rules": view.rules,
            "name": view.outcome.name, "names": dict(view.outcome.names),
            "branch": view.branch,
            "choices": trace.to_dict()["choices"] if trace is not None else [],
            "final": trace.final.to_dict() if trace is not None else None,
        })
    return {
        "version": API_VERSION, "id": data.id, "topic": data.topic,
        "path": data.ruling.path,
        "texts": {lang: texts for lang in LANGS
                  if (texts := {name: sc.texts[name][lang] for name in TEXT_FIELDS
                                if sc.texts.get(name, {}).get(lang)})},
        "tags": list(sc.tags), "terms": list(sc.terms), "related": list(sc.related),
        "rulesets": list(sc.rulesets), "sources": _sources(data, registry),
        "official": rests_on_official(sc.sources, registry), "passes": not data.failing,
        "pages": _pages(data, here), "json": posixpath.basename(here),
        "index": "../rulings.json",
        "replays": replays, "outcomes": outcomes,
    }
