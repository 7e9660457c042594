"""Relevance benchmark: does a search put what a judge would accept first?

Run from the repository root (a script; tests/test_relevance.py runs a subset of it)::

    python benchmarks/relevance.py                      # judge search (the CLI's engine)
    python benchmarks/relevance.py --engine site        # the site's search page (Chromium)
    python benchmarks/relevance.py --engine both
    python benchmarks/relevance.py --subset             # only the queries marked test = true
    python benchmarks/relevance.py --baseline /tmp/old  # also an older copy of the project

The judged query set is ``benchmarks/relevance-queries.toml``: each query with the language
it is asked in, its kind (bare term, question, fan word, typo, ...), the results a judge would
accept and a note saying why (see that file's header and docs/search.md). For each engine the
benchmark prints hit@1 (the first result is accepted), hit@3 (one of the first three is) and
MRR (mean of 1/rank of the first accepted result, 0 when none is in the first ten), overall,
per language and per kind, then every query whose first result is not accepted, with what
came instead. Targets (issue #28): hit@1 >= 0.90, hit@3 >= 0.97.

Plugging in another engine: :func:`evaluate` takes any callable ``search(query, lang)`` that
returns result ids, best first, and the queries (:func:`load_queries`), and returns a
:class:`Report`::

    from relevance import evaluate, load_queries
    report = evaluate(my_search, load_queries(), engine="mine")
    print("\\n".join(report.lines()))

A result id is a ruling id (``refresh-steps``), ``term:ID`` for a glossary entry,
``processing:KIND`` for a kind of rule processing and ``change:RULESET`` for a rule-change
timeline entry (ids beyond those are simply never accepted). ``--engine site`` imports
``site_search_runner`` from ``benchmarks/relevance_site.py`` (the site's half: the search page
in Chromium), which is called with the corpus root and returns such a callable; when it is
also a context manager it is entered for the run and left afterwards.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import subprocess
import sys
import tomllib
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from judge.langs import LANGS  # noqa: E402

QUERIES = Path(__file__).resolve().parent / "relevance-queries.toml"
KINDS = ("bare-term", "question", "combination", "fan-word", "spelling", "typo", "kana-width",
         "guess", "mixed", "numeral", "card-text")
#: The blind set (benchmarks/blind-queries.toml): written from the corpus alone by someone who
#: had read neither the ranking code nor QUERIES, as a guard that ranking work never looks at.
BLIND = Path(__file__).resolve().parent / "blind-queries.toml"
#: How many results of each query are looked at (MRR counts a find at rank 10 as 0.1).
DEPTH = 10
TARGET_HIT1 = 0.90
TARGET_HIT3 = 0.97

Search = Callable[[str, str], Sequence[str]]


@dataclass(frozen=True)
class Query:
    """One judged query: what is typed, in which language, and what a judge accepts."""

    q: str
    lang: str
    kind: str
    accept: tuple[str, ...]
    note: str
    test: bool = False
    #: a query the corpus has no answer for (accept is empty): listed, never scored
    gap: bool = False


def load_queries(path: Path = QUERIES, *, subset: bool = False) -> list[Query]:
    """The judged queries of ``path`` (only those marked ``test = true`` with ``subset``).
    Raises ValueError for a query without its fields or with an unknown language or kind."""
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    out: list[Query] = []
    for n, item in enumerate(raw.get("query", []), 1):
        try:
            query = Query(q=str(item["q"]), lang=str(item["lang"]), kind=str(item["kind"]),
                          accept=tuple(str(a) for a in item["accept"]),
                          note=str(item["note"]), test=bool(item.get("test", False)),
                          gap=bool(item.get("gap", False)))
        except KeyError as exc:
            raise ValueError(f"{path}: query {n} has no {exc.args[0]!r}") from None
        if query.lang not in LANGS:
            raise ValueError(f"{path}: query {n} ({query.q!r}): unknown language {query.lang!r}"
                             f" (valid: {', '.join(LANGS)})")
        if query.kind not in KINDS:
            raise ValueError(f"{path}: query {n} ({query.q!r}): unknown kind {query.kind!r}"
                             f" (valid: {', '.join(KINDS)})")
        if not query.accept and not query.gap:
            raise ValueError(f"{path}: query {n} ({query.q!r}) accepts nothing")
        if query.gap:
            if query.accept:
                raise ValueError(f"{path}: query {n} ({query.q!r}) is a gap but accepts results")
            continue  # nothing answers it: a gap in the corpus, not a ranking miss
        if query.test or not subset:
            out.append(query)
    return out


@dataclass(frozen=True)
class Outcome:
    query: Query
    results: tuple[str, ...]  # the first DEPTH result ids
    error: str = ""  # the engine refused the query (counted as no result)

    @property
    def rank(self) -> int | None:
        """The 1-based rank of the first accepted result, or None."""
        for i, rid in enumerate(self.results, 1):
            if rid in self.query.accept:
                return i
        return None


@dataclass
class Report:
    engine: str
    outcomes: list[Outcome] = field(default_factory=list)

    def _subset(self, lang: str | None = None, kind: str | None = None) -> list[Outcome]:
        return [o for o in self.outcomes if (lang is None or o.query.lang == lang)
                and (kind is None or o.query.kind == kind)]

    @staticmethod
    def _hit(outcomes: list[Outcome], k: int) -> float:
        if not outcomes:
            return 0.0
        return sum(1 for o in outcomes if (r := o.rank) is not None and r <= k) / len(outcomes)

    @staticmethod
    def _mrr(outcomes: list[Outcome]) -> float:
        if not outcomes:
            return 0.0
        return sum(1 / r for o in outcomes if (r := o.rank) is not None) / len(outcomes)

    def hit_at(self, k: int, *, lang: str | None = None, kind: str | None = None) -> float:
        return self._hit(self._subset(lang, kind), k)

    def mrr(self, *, lang: str | None = None, kind: str | None = None) -> float:
        return self._mrr(self._subset(lang, kind))

    @property
    def misses(self) -> list[Outcome]:
        """The queries whose first result is not accepted."""
        return [o for o in self.outcomes if o.rank != 1]

    def figures(self) -> dict[str, Any]:
        return {"engine": self.engine, "queries": len(self.outcomes),
                "hit@1": round(self.hit_at(1), 4), "hit@3": round(self.hit_at(3), 4),
                "mrr": round(self.mrr(), 4),
                "misses": [{"q": o.query.q, "lang": o.query.lang, "kind": o.query.kind,
                            "rank": o.rank, "accept": list(o.query.accept),
                            "got": list(o.results[:3]), "error": o.error}
                           for o in self.misses]}

    def lines(self) -> Iterator[str]:
        n = len(self.outcomes)
        yield (f"{self.engine}: {n} queries  hit@1 {self.hit_at(1):.3f}  "
               f"hit@3 {self.hit_at(3):.3f}  MRR {self.mrr():.3f}")
        for lang in LANGS:
            part = self._subset(lang=lang)
            if part:
                yield (f"  {lang:8} {len(part):3}  hit@1 {self._hit(part, 1):.3f}  "
                       f"hit@3 {self._hit(part, 3):.3f}  MRR {self._mrr(part):.3f}")
        for kind in KINDS:
            part = self._subset(kind=kind)
            if part:
                yield (f"  {kind:11} {len(part):3}  hit@1 {self._hit(part, 1):.3f}  "
                       f"hit@3 {self._hit(part, 3):.3f}  MRR {self._mrr(part):.3f}")
        misses = self.misses
        yield f"  misses at rank 1: {len(misses)}"
        for o in misses:
            where = f"rank {o.rank}" if o.rank else "not found"
            got = ", ".join(o.results[:3]) or (f"error: {o.error}" if o.error else "nothing")
            yield f"    [{o.query.lang} {o.query.kind}] {o.query.q!r}: {where}; got {got}"
            yield f"        wanted {', '.join(o.query.accept)}"


def evaluate(search: Search, queries: Sequence[Query], *, engine: str = "engine",
             depth: int = DEPTH) -> Report:
    """Run every query through ``search(query, lang)`` (result ids, best first) and score it.
    An exception from ``search`` counts as no result, with its message kept."""
    report = Report(engine)
    for query in queries:
        try:
            results = tuple(search(query.q, query.lang))[:depth]
            error = ""
        except Exception as exc:  # an engine that refuses a query found nothing
            results, error = (), f"{type(exc).__name__}: {exc}"
        report.outcomes.append(Outcome(query, results, error))
    return report


# ---------------------------------------------------------------------- the engines


def cli_search_runner(root: Path = ROOT, folder: Path | None = None) -> Search:
    """``judge search`` through its Python API (``judge.search.search``) on the corpus at
    ``root``, with the index in ``folder`` (default: the corpus's build/search)."""
    from judge.search import search

    def run(query: str, lang: str) -> list[str]:
        kwargs: dict[str, Any] = {"root": root, "lang": lang, "limit": DEPTH}
        if folder is not None:
            kwargs["folder"] = folder
        return [hit.id for hit in search(query, **kwargs).hits]

    return run


@contextlib.contextmanager
def _site_runner(root: Path) -> Iterator[Search]:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    try:
        from relevance_site import site_search_runner  # type: ignore[import-not-found]
    except ImportError as exc:
        raise SystemExit(
            "--engine site needs benchmarks/relevance_site.py with a function "
            "site_search_runner(root) -> search(query, lang) (the site's half of the "
            f"benchmark), and it cannot be imported: {exc}") from None
    runner = site_search_runner(root)
    if hasattr(runner, "__enter__"):
        with runner as entered:
            yield entered
    else:
        yield runner


def _baseline(code: Path, args: argparse.Namespace) -> dict[str, Any]:
    """The CLI engine's figures for an older copy of the project at ``code`` (its own
    ``judge`` package and corpus), run in a subprocess on this script's query set."""
    command = [sys.executable, str(Path(__file__).resolve()), "--engine", "cli", "--json",
               "--code", str(code), "--queries", str(args.queries)]
    if args.subset:
        command.append("--subset")
    env = dict(os.environ, PYTHONPATH=str(code))
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=3600)
    if done.returncode != 0:
        raise SystemExit(f"the baseline run in {code} failed:\n{done.stderr}")
    return dict(json.loads(done.stdout)[0])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--engine", choices=("cli", "site", "both"), default="cli")
    parser.add_argument("--subset", action="store_true",
                        help="only the queries marked test = true")
    parser.add_argument("--queries", type=Path, default=QUERIES, help="the judged query set")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="also run the CLI engine of an older copy of the project in DIR "
                             "(e.g. made with git archive), for before/after figures")
    parser.add_argument("--code", type=Path, metavar="DIR", help=argparse.SUPPRESS)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    parser.add_argument("--check", action="store_true",
                        help="exit with status 1 when an engine misses a target")
    args = parser.parse_args(argv)

    code = (args.code or ROOT).resolve()
    sys.path.insert(0, str(code))
    try:
        queries = load_queries(args.queries, subset=args.subset)
    except (ValueError, OSError, tomllib.TOMLDecodeError) as exc:
        print(f"Error: {exc}", file=sys.stderr)
        return 2
    reports: list[Report] = []
    if args.engine in ("cli", "both"):
        reports.append(evaluate(cli_search_runner(code), queries, engine="cli"))
    if args.engine in ("site", "both"):
        with _site_runner(code) as site:
            reports.append(evaluate(site, queries, engine="site"))
    figures = [r.figures() for r in reports]
    baseline = _baseline(args.baseline.resolve(), args) if args.baseline else None
    if args.json:
        print(json.dumps(figures + ([dict(baseline, engine="cli (baseline)")]
                                    if baseline else []), ensure_ascii=False, indent=1))
    else:
        for report in reports:
            print("\n".join(report.lines()))
        if baseline:
            print(f"baseline cli ({args.baseline}): hit@1 {baseline['hit@1']:.3f}  "
                  f"hit@3 {baseline['hit@3']:.3f}  MRR {baseline['mrr']:.3f}  "
                  f"({len(baseline['misses'])} misses at rank 1)")
            for report in reports:
                if report.engine == "cli":
                    print(f"cli against the baseline: hit@1 {report.hit_at(1):.3f} vs "
                          f"{baseline['hit@1']:.3f}, hit@3 {report.hit_at(3):.3f} vs "
                          f"{baseline['hit@3']:.3f}, MRR {report.mrr():.3f} vs "
                          f"{baseline['mrr']:.3f}")
        for report in reports:
            ok1, ok3 = report.hit_at(1) >= TARGET_HIT1, report.hit_at(3) >= TARGET_HIT3
            print(f"{report.engine}: target hit@1 >= {TARGET_HIT1}: "
                  f"{'met' if ok1 else 'MISSED'}; hit@3 >= {TARGET_HIT3}: "
                  f"{'met' if ok3 else 'MISSED'}")
    missed = any(r.hit_at(1) < TARGET_HIT1 or r.hit_at(3) < TARGET_HIT3 for r in reports)
    return 1 if args.check and missed else 0


if __name__ == "__main__":
    sys.exit(main())
