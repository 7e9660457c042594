"""Searching the index: query plans, ranking, typo correction, snippets.

A query (:mod:`judge.search.query`) becomes one FTS5 ``MATCH`` expression over the index of
:mod:`judge.search.index`. Every result that matches is ranked, none is left out:

- the *words* of the query (what was written side by side: words, phrases, glossary names,
  groups) are alternatives, and a result's score is its BM25 over the weighted columns
  (title 4, question and answer 2, explanation 1, keywords 0.5) times the square of the share
  of the words it holds (coordination), so that what holds every word comes first but a
  question never finds nothing because one of its words is missing;
- filters (``tag:``, ``rules:``, ``term:``, ``kind:``, ``id:``), ``AND`` and ``NOT`` are strict;
- glossary entries, kinds of rule processing and rule changes weigh a little less than rulings
  (:data:`KIND_WEIGHTS`), and the main ruling of a glossary term the query names a little
  more (:data:`MAIN_WEIGHT`); a query that is only a glossary term puts that term's main
  ruling first and its glossary entry second.
"""

from __future__ import annotations

import heapq
import json
import unicodedata
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from judge.errors import JudgeError
from judge.langs import LANGS
from judge.search.analysis import (
    TOKEN_PATTERN,
    Highlight,
    deletions,
    edit_distance,
    fold,
    is_cjk,
    typo_limit,
)
from judge.search.definition import definition
from judge.search.index import COLUMNS, DB
from judge.search.plan import Plan, Planner, fts, phrase_of, top_fts
from judge.search.query import Glossary, Node, QueryError, quote, show, suggest_han

_RANKING = definition()["ranking"]
#: BM25 weight of each FTS5 column (index.COLUMNS order): titles, questions and answers
#: count more than explanations, and keyword lists (tags, term names, aliases) less.
COLUMN_WEIGHTS: dict[str, float] = dict(zip(_RANKING["columns"], _RANKING["weights"],
                                            strict=True))
#: Scores of the other kinds of result are multiplied by these (rulings: 1).
KIND_WEIGHTS: dict[str, float] = dict(_RANKING["kinds"])
#: The score of the main ruling of a glossary term the query names (beside other words) is
#: multiplied by this.
MAIN_WEIGHT = float(_RANKING["main"])
#: The share of the query's words a result holds is raised to this power.
COORDINATION = int(_RANKING["coordination"])
#: A word in more than this share of all results is common (see :meth:`SearchIndex.collect`).
COMMON = float(_RANKING["common"])
#: Characters of a snippet of English, and of Japanese or Chinese.
SNIPPET_WIDE = int(definition()["snippets"]["wide"])
SNIPPET_NARROW = int(definition()["snippets"]["narrow"])
MARK = "**"


class SearchError(JudgeError):
    """The search index cannot be built or read."""


# ---------------------------------------------------------------------- results


class Snippet(NamedTuple):
    """A piece of a text and the ranges in it that match the query."""

    text: str
    marks: tuple[tuple[int, int], ...] = ()

    def marked(self, start: str = MARK, end: str = MARK) -> str:
        out, pos = [], 0
        for s, e in self.marks:
            out += [self.text[pos:s], start, self.text[s:e], end]
            pos = e
        out.append(self.text[pos:])
        return "".join(out)


class Hit(NamedTuple):
    id: str
    title: str
    snippet: str  # matches between ** marks
    rules: tuple[str, ...]
    tags: tuple[str, ...]
    path: str
    score: float
    lang: str  # the language of title and snippet (Japanese when the chosen one is missing)
    kind: str = "ruling"
    label: str = ""  # "kind 5", "from 2014-09-01", "main ruling refresh-steps"
    text: str = ""  # the snippet without marks
    marks: tuple[tuple[int, int], ...] = ()  # the matches in ``text``

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "kind": self.kind, "title": self.title,
                "snippet": self.snippet, "text": self.text,
                "marks": [list(m) for m in self.marks], "rules": list(self.rules),
                "tags": list(self.tags), "label": self.label, "path": self.path,
                "score": round(self.score, 4), "lang": self.lang}


class SearchResult(NamedTuple):
    query: str  # as read, with the expansions (query.show)
    lang: str
    total: int  # results that hold at least one word (and pass every filter)
    hits: tuple[Hit, ...] = ()
    rebuilt: str = ""  # why the index was rebuilt first, if it was
    complete: int = 0  # results that hold every word
    words: int = 0  # how many words the query was read as
    corrections: tuple[tuple[str, str], ...] = ()  # (typed, searched for) of corrected words

    @property
    def did_you_mean(self) -> str:
        """The query with its corrections ("" when nothing was corrected)."""
        return ", ".join(f"{better} (for {typed})" for typed, better in self.corrections)

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "lang": self.lang, "total": self.total,
                "complete": self.complete, "words": self.words,
                "did_you_mean": [{"typed": t, "searched": b} for t, b in self.corrections],
                "results": [h.to_dict() for h in self.hits]}


def detect_lang(query: str, glossary: Glossary | None = None,
                charsets: dict[str, str] | None = None) -> str:
    """A guess at the query's language: kana -> ja; other CJK -> the language of the glossary
    names it holds, else of the Han characters only one language's texts use, else zh-Hans;
    anything else -> en."""
    folded = fold(query)
    if any("\u3041" <= c <= "\u309f" for c in folded):
        return "ja"
    han = [c for c in folded if "\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff"]
    if not han:
        return "en"
    if glossary is not None:
        langs = {glossary.lang_of(m.group(0)) for m in TOKEN_PATTERN.finditer(folded)
                 if is_cjk(m.group(0))}
        langs.discard("")
        if len(langs) == 1:
            return next(iter(langs))
    if charsets:
        ja = sum(1 for c in han if c in charsets.get("ja", ""))
        zh = sum(1 for c in han if c in charsets.get("zh-Hans", ""))
        if ja > zh:
            return "ja"
    return "zh-Hans"


def han_lang(query: str, lang: str, glossary: Glossary | None = None,
             charsets: dict[str, str] | None = None) -> str:
    """The language the Han characters of ``query`` are read in: Japanese when it holds
    kana, else ``lang`` (the page's language, ``--lang``) when that is Japanese or Chinese,
    else :func:`detect_lang`'s guess."""
    if any("\u3041" <= c <= "\u30ff" for c in unicodedata.normalize("NFKC", query)):
        return "ja"
    if lang in ("ja", "zh-Hans"):
        return lang
    guess = detect_lang(query, glossary, charsets)
    return guess if guess in ("ja", "zh-Hans") else "zh-Hans"


# ---------------------------------------------------------------------- the index


class SearchIndex:
    """An open index; keep one open to run many queries."""

    #: A query with at most this many matches is ranked in Python (see :meth:`collect`).
    small = 1000

    def __init__(self, folder: Path, glossary: Iterable[Any] | Glossary | None = None,
                 rulesets: Sequence[str] | None = None) -> None:
        import sqlite3

        path = Path(folder) / DB
        if not path.is_file():
            raise SearchError(f"cannot open the search index in {folder}: no {DB}")
        try:
            self.db = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True,
                                      check_same_thread=False)
            meta = dict(self.db.execute("SELECT key, value FROM meta").fetchall())
            stored_glossary = meta["glossary"]
            self.charsets: dict[str, str] = json.loads(meta.get("charsets", "{}"))
            stored_rulesets = json.loads(meta["rulesets"])
            #: (pair, results holding it) of the glossary's Han pairs (index.han_pairs)
            self.han_pairs: list[tuple[str, int]] = [
                (pair, docs) for pair, docs in json.loads(meta.get("han_pairs", "[]"))]
        except (sqlite3.Error, KeyError, ValueError) as exc:
            raise SearchError(f"cannot open the search index in {folder}: {exc}") from exc
        self._error = sqlite3.Error
        if glossary is None:
            self.glossary = Glossary.from_data(json.loads(stored_glossary))
        else:
            self.glossary = glossary if isinstance(glossary, Glossary) else Glossary(glossary)
        self.rulesets = tuple(rulesets if rulesets is not None else stored_rulesets)
        self._docs = self.doc_count
        self._weights = ", ".join(str(COLUMN_WEIGHTS[c]) for c in COLUMNS)
        self.planner = Planner(self.glossary, self.rulesets, self._known, self.suggest,
                               self._known_han, self.suggest_han, self._holds)
        self._kinds: dict[int, str] = dict(
            self.db.execute("SELECT rowid, kind FROM docs WHERE kind != 'ruling'").fetchall())
        self._kind_weights = {rowid: KIND_WEIGHTS.get(kind, 1.0)
                              for rowid, kind in self._kinds.items()}
        #: (first row, last row, weight) of each run of rows of a kind weighing less than 1
        self._kind_runs: list[tuple[int, int, float]] = []
        for rowid, kind in sorted(self._kinds.items()):
            weight = KIND_WEIGHTS.get(kind, 1.0)
            runs = self._kind_runs
            if runs and runs[-1][1] == rowid - 1 and runs[-1][2] == weight:
                runs[-1] = (runs[-1][0], rowid, weight)
            elif weight != 1.0:
                runs.append((rowid, rowid, weight))

    def close(self) -> None:
        self.db.close()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def doc_count(self) -> int:
        return int(self.db.execute("SELECT count(*) FROM docs").fetchone()[0])

    # -------------------------------------------------------------- typos

    def _known(self, token: str) -> bool:
        row = self.db.execute("SELECT 1 FROM vocab WHERE token = ? LIMIT 1", (token,))
        return row.fetchone() is not None

    def _known_han(self, pair: str) -> bool:
        """Whether any result holds the pair of Han characters ``pair`` (one token)."""
        return self._count(f'"{pair}"') > 0

    def _holds(self, text: str) -> bool:
        """Whether any result holds the query text ``text`` (as the phrase of its tokens)."""
        phrase = phrase_of(text)
        return bool(phrase.tokens) and self._count(fts(phrase)) > 0

    def suggest_han(self, pair: str) -> str | None:
        """The glossary's pair of Han characters that a misspelt ``pair`` stands for
        (:func:`judge.search.query.suggest_han`), or None."""
        return suggest_han(pair, self.han_pairs, lambda char: self._count(f'"{char}" *') == 0)

    def suggest(self, word: str) -> str | None:
        """The word of the index closest to ``word`` within its typo limit (the one in the
        most results among equals, then the first in order), or None."""
        folded = fold(word)
        limit = typo_limit(folded)
        if not limit:
            return None
        variants = sorted(deletions(folded, limit))
        candidates = self.db.execute(
            "SELECT DISTINCT vocab.word, vocab.token, vocab.docs FROM deletion JOIN vocab "
            "ON vocab.word = deletion.word WHERE deletion.variant IN "
            f"({', '.join('?' * len(variants))})", variants).fetchall()
        best: tuple[int, int, str] | None = None
        for candidate, _token, docs in candidates:
            if abs(len(candidate) - len(folded)) > limit:
                continue
            distance = edit_distance(folded, candidate, limit)
            if distance <= limit and (best is None or (distance, -docs, candidate) < best):
                best = (distance, -docs, candidate)
        return best[2] if best else None

    # -------------------------------------------------------------- query plans

    def plan(self, text: str, *, han: str = "", tags: Sequence[str] = (),
             rules: str | None = None, term: str | None = None, kind: str | None = None,
             official: bool = False) -> tuple[Node | None, Plan, list[tuple[str, str]]]:
        """Read a query (:meth:`judge.search.plan.Planner.plan`)."""
        return self.planner.plan(text, han=han, tags=tags, rules=rules, term=term, kind=kind,
                                 official=official)

    # -------------------------------------------------------------- searching

    def search(self, text: str, *, lang: str | None = None, tags: Sequence[str] = (),
               rules: str | None = None, term: str | None = None, kind: str | None = None,
               limit: int = 10, snippets: bool = True, official: bool = False) -> SearchResult:
        chosen = lang or detect_lang(text, self.glossary, self.charsets)
        if chosen not in LANGS:
            raise QueryError(f"unknown language {quote(chosen)} (valid: {', '.join(LANGS)})")
        node, plan, fixes = self.plan(text, han=han_lang(text, chosen, self.glossary,
                                                         self.charsets),
                                      tags=tags, rules=rules, term=term, kind=kind,
                                      official=official)
        try:
            top, total, complete = self.collect(plan, limit)
            hits = self._hits(top, chosen, plan, snippets)
        except self._error as exc:
            raise SearchError(f"the search index cannot run {quote(text)}: {exc}") from exc
        return SearchResult(query=show(node) if node is not None else "", lang=chosen,
                            total=total, hits=hits, complete=complete,
                            words=len(plan.concepts), corrections=tuple(fixes))

    def collect(self, plan: Plan, limit: int, path: str | None = None
                ) -> tuple[list[tuple[float, int]], int, int]:
        """Rank every match of ``plan`` and keep the best ``limit``: (score, rowid) best
        first, the number of matches and the number that hold every word.

        The ranking (docs/search.md, "The search, defined once"; ``search-engine.js`` computes
        the same from the site's index files):

        1. The matches: every result holding one of the query's words and passing its filters,
           ``AND`` and ``NOT`` parts.
        2. A word in more than half of all results (``[ranking] common``) is common: unless
           every word found is common, the results are scored by the other words only, and
           the results holding nothing but common words come after all others, those
           holding more of the words first, then by row.
        3. A result's score: FTS5's bm25() of the words scored, plus bm25() of each pair of
           neighbouring words found close together (:attr:`Plan.near`, never two common
           ones), times the coordination factor (:func:`coordination`), its kind's weight and,
           for the main ruling of a glossary term the query names, :data:`MAIN_WEIGHT`.
        4. Best score first, equal scores by row; a query that is a glossary term and nothing
           else puts the term's main ruling, then its glossary entry, first.

        The pairs are scored by queries of their own, not inside the words' query: there,
        FTS5 counts the words of a pair whose other word is missing from a text, or is not
        next to the words of its phrase, as found in that text, and sometimes a word's places
        in another text it looked at before.

        A query with at most :attr:`small` matches is ranked in Python from every score; one
        with more by SQLite, which returns only the top (``path``: ``"python"`` or ``"sql"``
        to choose; both give the same ranking, which tests/test_search_parity.py checks)."""
        query = plan.query()
        if query is None:  # only NOT parts: everything else, in id order
            where = " AND ".join("rowid NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)"
                                 for _ in plan.nots)
            rows = self.db.execute(f"SELECT rowid FROM docs WHERE {where} ORDER BY rowid",
                                   [fts(n) for n in plan.nots]).fetchall()
            return [(0.0, r[0]) for r in rows[:limit]], len(rows), len(rows)
        match = top_fts(query)
        n = len(plan.concepts)
        total = self._count(match)
        small = total <= self.small if path is None else path == "python"
        holders = [self._rows(fts(c)) for c in plan.concepts] if n >= 2 and small else []
        if holders and not plan.musts and not plan.nots:
            complete = len(set.intersection(*holders))
        else:
            complete = total if n < 2 else self._count(top_fts(plan.complete()))
        counts = [len(h) for h in holders] if holders else \
            [self._count(fts(c)) for c in plan.concepts] if n >= 2 else [total]
        found = sum(1 for k in counts if k)
        weighty = {i for i, k in enumerate(counts) if 0 < k <= self._docs * COMMON}
        common = frozenset(i for i, k in enumerate(counts) if k > self._docs * COMMON)
        keep = weighty if n >= 2 and weighty and len(weighty) < found else None
        scoring = top_fts(plan.query(keep) or query)
        nears = plan.nears(keep, common)
        first = self._boosted(plan)
        if small:
            top, scored = self._rank_here(plan, scoring, nears, holders, first, limit)
        else:
            top, scored = self._rank_in_sql(plan, scoring, nears, first, limit)
        if len(top) < limit and scored < total:
            # the results holding nothing but common words: those holding more words first
            rest = self._rows(f"({match}) NOT ({scoring})")
            holders = holders or [self._rows(fts(c)) for c in plan.concepts]
            held = {r: sum(1 for h in holders if r in h) for r in rest}
            top += [(0.0, r) for r in sorted(rest, key=lambda r: (-held[r], r))
                    [:limit - len(top)]]
        return top, total, complete

    def _rank_here(self, plan: Plan, scoring: str, nears: Sequence[Any],
                   holders: list[set[int]], first: list[int], limit: int
                   ) -> tuple[list[tuple[float, int]], int]:
        """The ranking of a query with few matches: every score read, ranked in Python
        (:meth:`_ranking` tells what each score is). Returns the top and how many results
        were scored."""
        n = len(plan.concepts)
        scores = dict(self.db.execute(
            f"SELECT rowid, -bm25(fts, {self._weights}) FROM fts WHERE fts MATCH ?",
            (scoring,)).fetchall())
        for near in nears:
            for rowid, bonus in self.db.execute(
                    f"SELECT rowid, -bm25(fts, {self._weights}) FROM fts WHERE fts MATCH ?",
                    (fts(near),)):
                if rowid in scores:
                    scores[rowid] += bonus
        counted: dict[int, int] = {}
        for rows in holders:
            for rowid in rows:
                counted[rowid] = counted.get(rowid, 0) + 1
        factors = [coordination(k, n) if n >= 2 else 1.0 for k in range(n + 1)]
        weights = self._kind_weights
        mains = self._mains(plan)
        # (-score, row): the best first, equal scores by row
        ranked = [(-(float(bm) * factors[counted.get(rowid, 0) if n >= 2 else 0]
                     * weights.get(rowid, 1.0) * (MAIN_WEIGHT if rowid in mains else 1.0)),
                   rowid) for rowid, bm in scores.items()]
        first = [r for r in first if r in scores]
        pinned = sorted((item for item in ranked if item[1] in first),
                        key=lambda item: first.index(item[1]))
        best = heapq.nsmallest(limit, [item for item in ranked if item[1] not in first]
                               if first else ranked)
        return [(-s, rowid) for s, rowid in (pinned + best)[:limit]], len(scores)

    def _rank_in_sql(self, plan: Plan, scoring: str, nears: Sequence[Any], first: list[int],
                     limit: int) -> tuple[list[tuple[float, int]], int]:
        """The ranking of a query with many matches, computed by SQLite in one statement
        (:meth:`_ranking`) that returns only the top. Returns the top and how many results
        were scored."""
        ranking, params = self._ranking(plan, scoring, nears)
        pinned: list[tuple[float, int]] = []
        if first:
            marks = ", ".join("?" * len(first))
            found = {r: s for r, s in self.db.execute(
                f"{ranking} AND fts.rowid IN ({marks})", (*params, *first))}
            first = [r for r in first if r in found]
            pinned = [(found[r], r) for r in first]
        besides = f" AND fts.rowid NOT IN ({', '.join('?' * len(first))})" if first else ""
        shown = [(score, rowid) for rowid, score in self.db.execute(
            f"{ranking}{besides} ORDER BY 2 DESC, 1 LIMIT ?", (*params, *first, limit))]
        return (pinned + shown)[:limit], self._count(scoring)

    def _ranking(self, plan: Plan, scoring: str, nears: Sequence[Any]
                 ) -> tuple[str, list[Any]]:
        """The SQL that scores every result of ``scoring`` (rowid, score) as
        :meth:`collect` describes, in one statement: bm25() of the words, plus each pair's
        bm25() (a query of its own, joined), times the coordination factor of the words the
        result holds (each looked up once), its kind's weight and, for the main ruling of a
        term the query names, :data:`MAIN_WEIGHT`. Each operation in the order
        ``search-engine.js`` does it, so the numbers are the same."""
        n = len(plan.concepts)
        params: list[Any] = []
        ctes = []
        for k, near in enumerate(nears):
            ctes.append(f"near{k} AS MATERIALIZED (SELECT rowid AS r, -bm25(fts, "
                        f"{self._weights}) AS b FROM fts WHERE fts MATCH ?)")
            params.append(fts(near))
        score = f"(-bm25(fts, {self._weights}))"
        for k in range(len(nears)):
            score = (f"({score} + coalesce((SELECT b FROM near{k} WHERE near{k}.r = "
                     f"fts.rowid), 0.0))")
        if n >= 2:
            held = " + ".join("(fts.rowid IN (SELECT rowid FROM fts WHERE fts MATCH ?))"
                              for _ in plan.concepts)
            params += [fts(c) for c in plan.concepts]
            cases = " ".join(f"WHEN {k} THEN ?" for k in range(n + 1))
            params += [coordination(k, n) for k in range(n + 1)]
            score = f"({score} * (CASE {held} {cases} END))"
        else:
            score = f"({score} * ?)"
            params.append(1.0)
        if self._kind_runs:
            cases = " ".join("WHEN fts.rowid BETWEEN ? AND ? THEN ?" for _ in self._kind_runs)
            params += [x for run in self._kind_runs for x in run]
            score = f"({score} * (CASE {cases} ELSE 1.0 END))"
        mains = sorted(self._mains(plan))
        if mains:
            score = (f"({score} * (CASE WHEN fts.rowid IN ({', '.join('?' * len(mains))}) "
                     "THEN ? ELSE 1.0 END))")
            params += [*mains, MAIN_WEIGHT]
        params.append(scoring)
        head = f"WITH {', '.join(ctes)} " if ctes else ""
        return (f"{head}SELECT fts.rowid, {score} FROM fts WHERE fts MATCH ?", params)

    def _count(self, match: str) -> int:
        return int(self.db.execute("SELECT count(*) FROM fts WHERE fts MATCH ?",
                                   (match,)).fetchone()[0])

    def _rows(self, match: str) -> set[int]:
        return {r for (r,) in self.db.execute("SELECT rowid FROM fts WHERE fts MATCH ?",
                                               (match,))}

    def _mains(self, plan: Plan) -> set[int]:
        """The rows of the main rulings of the glossary terms a query names beside other
        words (none for a bare term: :meth:`_boosted` puts its main ruling first)."""
        if plan.bare_term:
            return set()
        ids = {m for m in (self.glossary.terms[t].main for t in plan.terms) if m}
        if not ids:
            return set()
        return {r for (r,) in self.db.execute(
            f"SELECT rowid FROM docs WHERE id IN ({', '.join('?' * len(ids))})", sorted(ids))}

    def _boosted(self, plan: Plan) -> list[int]:
        """The rows a bare glossary term puts first (its main ruling, then its entry), those
        the index holds (the ranking keeps those that are scored)."""
        if not plan.bare_term:
            return []
        term = self.glossary.terms[plan.bare_term]
        ids = [i for i in (term.main, f"term:{term.id}") if i]
        found = dict(self.db.execute(
            f"SELECT id, rowid FROM docs WHERE id IN ({', '.join('?' * len(ids))})", ids))
        return [found[i] for i in ids if i in found]

    def _hits(self, top: list[tuple[float, int]], lang: str, plan: Plan,
              snippets: bool) -> tuple[Hit, ...]:
        if not top:
            return ()
        marks = Highlight(plan.highlight)
        rows = {r[0]: r for r in self.db.execute(
            "SELECT rowid, id, kind, path, rules, tags, label, titles, bodies FROM docs "
            f"WHERE rowid IN ({', '.join('?' * len(top))})", [rowid for _s, rowid in top])}
        out = []
        for score, rowid in top:
            _r, rid, kind, path, rules, tags, label, titles_json, bodies_json = rows[rowid]
            titles, bodies = json.loads(titles_json), json.loads(bodies_json)
            shown = lang if titles.get(lang) else "ja" if titles.get("ja") else \
                next(iter(titles), lang)
            snippet = Snippet("")
            if snippets:
                snippet = make_snippet(bodies.get(shown) or bodies.get("ja", ""),
                                       marks, wide=shown == "en")
            out.append(Hit(id=rid, title=titles.get(shown, ""), snippet=snippet.marked(),
                           rules=_split(rules), tags=_split(tags), path=path, score=score,
                           lang=shown, kind=kind, label=label, text=snippet.text,
                           marks=snippet.marks))
        return tuple(out)


def coordination(held: int, words: int) -> float:
    """The coordination factor of a result holding ``held`` of the query's ``words``: their
    share multiplied by itself :data:`COORDINATION` times (so that the site computes the same
    number, operation for operation)."""
    share = held / words
    factor = 1.0
    for _ in range(COORDINATION):
        factor *= share
    return factor


def _split(value: object) -> tuple[str, ...]:
    return tuple(v for v in str(value or "").split(",") if v)


# ---------------------------------------------------------------------- snippets


def make_snippet(text: str, terms: set[str] | Highlight, *, wide: bool = True) -> Snippet:
    """A window of ``text`` (about 240 characters of English or 120 of CJK text, ``[snippets]``
    of the definition; the whole
    text when shorter) around the most matches of ``terms``, ``…`` where it was cut."""
    flat = " ".join(text.split())
    width = SNIPPET_WIDE if wide else SNIPPET_NARROW
    marker = terms if isinstance(terms, Highlight) else Highlight(terms)
    spans = marker.spans(flat) if marker.latin or marker.phrases or marker.runs else []
    if len(flat) <= width:
        return Snippet(flat, tuple(spans))
    if not spans:
        return Snippet(flat[:width] + "…")
    best, best_count = 0, 0
    for i, (start, _end) in enumerate(spans):
        count = sum(1 for s, e in spans[i:] if e <= start + width)
        if count > best_count:
            best, best_count = i, count
    lead = width // 5
    start = max(0, spans[best][0] - lead)
    if wide and start > 0:
        space = flat.rfind(" ", 0, start + 1)
        start = space + 1 if space >= 0 and start - space < 20 else start
    end = min(len(flat), start + width)
    if wide and end < len(flat):
        space = flat.find(" ", end)
        end = space if 0 <= space < end + 20 else end
    head = "…" if start > 0 else ""
    body = flat[start:end]
    marks = tuple((max(s, start) - start + len(head), min(e, end) - start + len(head))
                  for s, e in spans if e > start and s < end)
    return Snippet(head + body + ("…" if end < len(flat) else ""), marks)


# ---------------------------------------------------------------------- the command


def search(text: str, *, root: Path, folder: Path | None = None, lang: str | None = None,
           tags: Sequence[str] = (), rules: str | None = None, term: str | None = None,
           kind: str | None = None, limit: int = 10, rebuild: bool = False,
           official: bool = False, force: bool = False) -> SearchResult:
    """Search the corpus at ``root``, first rebuilding its index if needed (or if it turns out
    unreadable; ``force``: even into a folder that does not hold an index, see
    :mod:`judge.outputs`). Raises :class:`QueryError` for a query that cannot be read."""
    from judge.search.index import ensure_index, index_dir

    folder = folder or index_dir(root)
    rebuilt = ensure_index(root, folder, rebuild=rebuild, force=force)
    for attempt in range(2):
        try:
            with SearchIndex(folder) as ix:
                result = ix.search(text, lang=lang, tags=tags, rules=rules, term=term,
                                   kind=kind, limit=limit, official=official)
            return SearchResult(result.query, result.lang, result.total, result.hits,
                                rebuilt=rebuilt, complete=result.complete,
                                words=result.words, corrections=result.corrections)
        except JudgeError as exc:
            if not isinstance(exc, SearchError) or attempt:
                raise
        rebuilt = ensure_index(root, folder, rebuild=True, force=force) and \
            "the index was unreadable"
    raise SearchError("unreachable")  # pragma: no cover
