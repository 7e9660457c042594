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
  (:data:`KIND_WEIGHTS`); a query that is only a glossary term puts that term's main ruling
  first and its glossary entry second.
"""

from __future__ import annotations

import heapq
import json
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, NamedTuple

from judge.errors import JudgeError
from judge.langs import LANGS
from judge.search.analysis import (
    TOKEN_PATTERN,
    edit_distance,
    fold,
    is_cjk,
    latin_token,
    match_spans,
    query_tokens,
    typo_limit,
)
from judge.search.index import COLUMNS, DB, meta_token
from judge.search.query import (
    BASES,
    EN_STOP,
    KINDS,
    And,
    Expand,
    Field,
    Glossary,
    Node,
    Not,
    Or,
    QueryError,
    Text,
    correct,
    expand,
    parse,
    quote,
    refine,
    show,
)

#: BM25 weight of each FTS5 column (index.COLUMNS order): titles, questions and answers
#: count more than explanations, and keyword lists (tags, term names, aliases) less.
COLUMN_WEIGHTS = {"title": 4.0, "question": 2.0, "answer": 2.0, "explanation": 1.0,
                  "keywords": 0.5, "meta": 0.0}
#: Scores of the other kinds of result are multiplied by these (rulings: 1).
KIND_WEIGHTS = {"ruling": 1.0, "term": 0.6, "processing": 0.8, "change": 0.8}
#: The share of the query's words a result holds is raised to this power.
COORDINATION = 2
#: Two neighbouring words of a query also count as a phrase when at most this many tokens
#: (English words, CJK character pairs) come between them in a text.
NEAR = 3
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


# ---------------------------------------------------------------------- query plans


class Plan:
    """A query made ready for SQLite."""

    def __init__(self) -> None:
        self.concepts: list[str] = []  # the words: alternatives, coordinated
        self.near: list[tuple[int, int, str]] = []  # neighbouring words, close together
        self.musts: list[str] = []  # filters and strict parts
        self.nots: list[str] = []
        self.highlight: set[str] = set()
        self.bare_term = ""  # the query is this glossary term and nothing else

    def match(self, keep: set[int] | None = None, common: frozenset[int] = frozenset()
              ) -> str:
        """The MATCH expression of every result (empty when only NOT parts are left); with
        ``keep``, of those holding one of these words (by their index in ``concepts``).
        Neighbouring words both in ``common`` are not looked for close together."""
        parts = []
        concepts = [c for i, c in enumerate(self.concepts) if keep is None or i in keep]
        near = [e for i, j, e in self.near if (keep is None or i in keep or j in keep)
                and not (i in common and j in common)]
        if concepts:
            words = [*concepts, *near]
            parts.append(words[0] if len(words) == 1 else "(" + " OR ".join(words) + ")")
        parts += self.musts
        if not parts:
            return ""
        return " AND ".join(parts) + "".join(f" NOT {n}" for n in self.nots)

    def complete(self) -> str:
        """The MATCH expression of the results that hold every word."""
        parts = [*self.concepts, *self.musts]
        return " AND ".join(parts) + "".join(f" NOT {n}" for n in self.nots)


def _phrase(tokens: list[str]) -> str:
    prefix = bool(tokens) and tokens[-1].endswith("*")
    words = [t.rstrip("*") for t in tokens]
    return f'"{" ".join(words)}"' + (" *" if prefix else "")


# ---------------------------------------------------------------------- the index


class SearchIndex:
    """An open index; keep one open to run many queries."""

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
        except (sqlite3.Error, KeyError, ValueError) as exc:
            raise SearchError(f"cannot open the search index in {folder}: {exc}") from exc
        self._error = sqlite3.Error
        if glossary is None:
            self.glossary = Glossary.from_data(json.loads(stored_glossary))
        else:
            self.glossary = glossary if isinstance(glossary, Glossary) else Glossary(glossary)
        self.rulesets = tuple(rulesets if rulesets is not None else stored_rulesets)
        self._vocab: list[tuple[str, str, int]] | None = None
        self._docs = self.doc_count
        self._weights = ", ".join(str(COLUMN_WEIGHTS[c]) for c in COLUMNS)

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

    def suggest(self, word: str) -> str | None:
        """The word of the index closest to ``word`` within its typo limit (the one in the
        most results among equals), or None."""
        folded = fold(word)
        limit = typo_limit(folded)
        if not limit:
            return None
        if self._vocab is None:
            self._vocab = [(w, t, n) for w, t, n in
                           self.db.execute("SELECT word, token, docs FROM vocab")]
        best: tuple[int, int, str] | None = None
        for candidate, _token, docs in self._vocab:
            if abs(len(candidate) - len(folded)) > limit:
                continue
            distance = edit_distance(folded, candidate, limit)
            if distance <= limit and (best is None or (distance, -docs, candidate) < best):
                best = (distance, -docs, candidate)
        return best[2] if best else None

    def _fix(self, word: str) -> str | None:
        folded = fold(word)
        if not (folded.isascii() and folded.isalpha()) or len(folded) < 5 \
                or folded in EN_STOP:
            return None
        token = latin_token(folded)
        if token in self.glossary.words or self._known(token):
            return None
        return self.suggest(folded)

    # -------------------------------------------------------------- query plans

    def plan(self, text: str, *, tags: Sequence[str] = (), rules: str | None = None,
             term: str | None = None, kind: str | None = None, official: bool = False,
             ) -> tuple[Node | None, Plan, list[tuple[str, str]]]:
        """Read a query: parse, correct, expand, leave out common words, add the option
        filters. Returns the node as read, its plan and the corrections made."""
        node = parse(text) if text.strip() else None
        fixes: list[tuple[str, str]] = []
        if node is not None:
            node, fixes = correct(node, self._fix)
            node = refine(expand(node, self.glossary))
            if node is None and not (tags or rules or term or kind or official):
                raise QueryError(f"nothing to search for in {quote(text)} (only common words?)")
        extra: list[Node] = [Field("tag", t) for t in tags]
        if rules:
            extra.append(Field("rules", rules))
        if term:
            extra.append(Field("term", term))
        if kind:
            extra.append(Field("kind", kind))
        if official:
            extra.append(Field("basis", "official"))
        if node is None and not extra:
            raise QueryError("the query is empty")
        plan = Plan()
        children: Sequence[Node] = ()
        if isinstance(node, And) and node.soft:
            children = node.nodes
        elif node is not None:
            children = (node,)
        previous, at = "", -1
        for child in children:
            if isinstance(child, Not):
                plan.nots.append(self._match(child.node, plan, negated=True))
            elif isinstance(child, Field):
                plan.musts.append(self._match(child, plan))
            else:
                plan.concepts.append(self._match(child, plan))
                # two neighbouring words of the query, as written, close together in a text
                # count again: "hand limit" ranks "the hand limit" above "hand ... limit"
                written = self._text(child.text, Plan(), True) \
                    if isinstance(child, Text | Expand) else ""
                if previous and written:
                    plan.near.append((at, len(plan.concepts) - 1,
                                      f"NEAR({previous} {written}, {NEAR})"))
                previous, at = written, len(plan.concepts) - 1
        plan.musts += [self._match(f, plan) for f in extra]
        if len(children) == 1 and isinstance(children[0], Expand) and not plan.musts:
            plan.bare_term = children[0].term
        shown = node if not extra else And(tuple(([node] if node else []) + extra), soft=True)
        return shown, plan, fixes

    def _match(self, node: Node, plan: Plan, negated: bool = False) -> str:
        if isinstance(node, Text):
            return self._text(node.text, plan, negated)
        if isinstance(node, Expand):
            term = self.glossary.terms[node.term]
            forms = [node.text, *(term.names[lang] for lang in LANGS if lang in term.names)]
            phrases = list(dict.fromkeys(p for f in forms if (p := self._text(f, plan, negated))))
            return phrases[0] if len(phrases) == 1 else "(" + " OR ".join(phrases) + ")"
        if isinstance(node, Field):
            return self._field(node)
        if isinstance(node, Not):
            raise QueryError(f"{quote(show(node))} needs something to search for beside it "
                             "(NOT cannot stand alone inside OR or parentheses)")
        if isinstance(node, Or):
            return "(" + " OR ".join(self._match(n, plan, negated) for n in node.nodes) + ")"
        positive = [self._match(n, plan, negated) for n in node.nodes if not isinstance(n, Not)]
        negative = [self._match(n.node, plan, not negated) for n in node.nodes
                    if isinstance(n, Not)]
        if not positive:
            raise QueryError(f"{quote(show(node))} needs something to search for beside NOT")
        return "(" + " AND ".join(positive) + "".join(f" NOT {n}" for n in negative) + ")"

    def _text(self, text: str, plan: Plan, negated: bool) -> str:
        tokens = query_tokens(text)
        if not tokens:
            return '"_"'  # nothing can match (punctuation only)
        if not negated:
            latin = [t for t in tokens if not is_cjk(t)]
            # a phrase of English words is marked where its words follow each other
            plan.highlight.update([" ".join(latin)] if len(latin) == len(tokens) > 1
                                  else latin)
            plan.highlight.update(m.group(0) for m in TOKEN_PATTERN.finditer(fold(text))
                                  if is_cjk(m.group(0)))
        return _phrase(tokens)

    def _field(self, node: Field) -> str:
        value = node.value
        if node.name == "rules" and value not in self.rulesets:
            raise QueryError(f"unknown rule set {quote(value)} (valid: "
                             f"{', '.join(self.rulesets)})")
        if node.name == "term":
            term = self.glossary.resolve(value)
            if term is None:
                raise QueryError(f"{quote(value)} is not a glossary term "
                                 "(see data/glossary.toml)")
            value = term.id
        if node.name == "kind" and value.lower() not in KINDS:
            raise QueryError(f"unknown kind {quote(value)} (valid: {', '.join(KINDS)})")
        if node.name == "basis" and value.lower() not in BASES:
            raise QueryError(f"unknown basis {quote(value)} (valid: {', '.join(BASES)})")
        if node.name == "id" and value.endswith("*"):
            return f'meta : "{meta_token("id", value[:-1])}" *'
        return f'meta : "{meta_token(node.name, value)}"'

    # -------------------------------------------------------------- searching

    def search(self, text: str, *, lang: str | None = None, tags: Sequence[str] = (),
               rules: str | None = None, term: str | None = None, kind: str | None = None,
               limit: int = 10, snippets: bool = True, official: bool = False) -> SearchResult:
        node, plan, fixes = self.plan(text, tags=tags, rules=rules, term=term, kind=kind,
                                      official=official)
        chosen = lang or detect_lang(text, self.glossary, self.charsets)
        if chosen not in LANGS:
            raise QueryError(f"unknown language {quote(chosen)} (valid: {', '.join(LANGS)})")
        try:
            top, total, complete = self.collect(plan, limit)
            hits = self._hits(top, chosen, plan, snippets)
        except self._error as exc:
            raise SearchError(f"the search index cannot run {quote(text)}: {exc}") from exc
        return SearchResult(query=show(node) if node is not None else "", lang=chosen,
                            total=total, hits=hits, complete=complete,
                            words=len(plan.concepts), corrections=tuple(fixes))

    def collect(self, plan: Plan, limit: int) -> tuple[list[tuple[float, int]], int, int]:
        """Rank every match of ``plan`` and keep the best ``limit``: (score, rowid) best
        first, the number of matches and the number that hold every word.

        A result's score is its BM25 times the coordination factor and its kind's weight,
        neither more than 1, so no result scores above its BM25. The best matches by BM25 are
        taken first (four times ``limit``, at least 50) and scored: when the ``limit``-th best
        score among them is above what an untaken match could reach (the BM25 of the last one
        taken, times the coordination of every word found anywhere), that is the ranking of
        every match; otherwise every match is scored. Scoring only what can still rank keeps
        a query that matches nearly everything cheap; tests/test_search.py checks that both
        ways give one ranking."""
        match = plan.match()
        if not match:  # only NOT parts: everything else, in id order
            where = " AND ".join("rowid NOT IN (SELECT rowid FROM fts WHERE fts MATCH ?)"
                                 for _ in plan.nots)
            rows = self.db.execute(f"SELECT rowid FROM docs WHERE {where} ORDER BY rowid",
                                   plan.nots).fetchall()
            return [(0.0, r[0]) for r in rows[:limit]], len(rows), len(rows)
        total = self._count(match)
        n = len(plan.concepts)
        complete = total if n < 2 else self._count(plan.complete())
        counts = [self._count(c) for c in plan.concepts] if n >= 2 else [total]
        found = sum(1 for k in counts if k)
        # a word in more than half of all results weighs nothing (BM25 gives it an IDF of
        # nearly 0) unless every word found is that common: the others are scored alone, and
        # the results holding only common words come after them, in coordination order
        weighty = {i for i, k in enumerate(counts) if 0 < k <= self._docs / 2}
        common = frozenset(i for i, k in enumerate(counts) if k > self._docs / 2)
        scoring, candidates = match, total
        if n >= 2 and weighty and len(weighty) < found:
            scoring = plan.match(keep=weighty, common=common)
            candidates = self._count(scoring)
        elif n >= 2 and common:
            scoring = plan.match(common=common)  # same matches, fewer NEAR phrases
        first = self._boosted(plan, scoring)
        pinned: list[tuple[float, int]] = []
        if first:
            rows = self.db.execute(
                f"SELECT rowid, -bm25(fts, {self._weights}) FROM fts WHERE fts MATCH ? AND "
                f"rowid IN ({', '.join('?' * len(first))})", (scoring, *first)).fetchall()
            pinned = sorted(self._score(plan, rows), key=lambda item: first.index(item[1]))
        want = limit - len(pinned)
        taken = self.db.execute(
            f"SELECT rowid, -bm25(fts, {self._weights}) FROM fts WHERE fts MATCH ? "
            "ORDER BY 2 DESC, rowid LIMIT ?", (scoring, max(4 * limit, 50))).fetchall()
        held = self._held(plan, [r for r, _bm in taken])
        scored = [item for item in self._score(plan, taken, held) if item[1] not in first]
        if len(taken) < candidates and want > 0:
            # the best an untaken match can do: the last BM25 taken, times the coordination
            # of every word found anywhere (all but one once each match holding all is taken)
            most = found if found < n or sum(1 for c in held.values() if c == n) < complete \
                else n - 1
            bound = taken[-1][1] * ((most / n) ** COORDINATION if n >= 2 else 1.0)
            if len(scored) < want or scored[want - 1][0] <= bound:
                # no: score every match (one more pass, each word's matches read once)
                taken = self.db.execute(
                    f"SELECT rowid, -bm25(fts, {self._weights}) FROM fts WHERE fts MATCH ?",
                    (scoring,)).fetchall()
                held = self._held(plan, [r for r, _bm in taken])
                scored = [item for item in self._score(plan, taken, held, want + len(first))
                          if item[1] not in first]
        top = (pinned + scored)[:limit]
        if len(top) < limit and candidates < total:
            rest = [r for (r,) in self.db.execute(
                "SELECT rowid FROM fts WHERE fts MATCH ?",
                (f"({match}) NOT {plan.match(keep=weighty)}",))]
            held = self._held(plan, rest)
            rest.sort(key=lambda r: (-held[r], r))
            top += [(0.0, r) for r in rest[:limit - len(top)]]
        return top, total, complete

    def _count(self, match: str) -> int:
        return int(self.db.execute("SELECT count(*) FROM fts WHERE fts MATCH ?",
                                   (match,)).fetchone()[0])

    def _boosted(self, plan: Plan, match: str) -> list[int]:
        """The rows a bare glossary term puts first (its main ruling, then its entry), those
        of them that match."""
        if not plan.bare_term:
            return []
        term = self.glossary.terms[plan.bare_term]
        ids = [i for i in (term.main, f"term:{term.id}") if i]
        found = dict(self.db.execute(
            f"SELECT id, rowid FROM docs WHERE id IN ({', '.join('?' * len(ids))})", ids))
        rows = [found[i] for i in ids if i in found]
        if not rows:
            return []
        matching = {r for (r,) in self.db.execute(
            f"SELECT rowid FROM fts WHERE fts MATCH ? AND rowid IN "
            f"({', '.join('?' * len(rows))})", (match, *rows))}
        return [r for r in rows if r in matching]

    def _held(self, plan: Plan, rowids: list[int]) -> dict[int, int]:
        """How many of the query's words each of ``rowids`` holds."""
        n = len(plan.concepts)
        if n < 2 or not COORDINATION:
            return dict.fromkeys(rowids, n)
        held = dict.fromkeys(rowids, 0)
        for concept in plan.concepts:
            if len(rowids) <= 500:
                found = self.db.execute(
                    f"SELECT rowid FROM fts WHERE fts MATCH ? AND rowid IN "
                    f"({', '.join('?' * len(rowids))})", (concept, *rowids))
            else:  # many rows: all of the word's, then those taken
                found = self.db.execute("SELECT rowid FROM fts WHERE fts MATCH ?", (concept,))
            for (rowid,) in found:
                if rowid in held:
                    held[rowid] += 1
        return held

    def _score(self, plan: Plan, taken: list[tuple[int, float]],
               held: dict[int, int] | None = None, best: int = 0) -> list[tuple[float, int]]:
        """(score, rowid) of the rows taken, best first (equal scores in id order); only the
        ``best`` first when it is given."""
        if not taken:
            return []
        rowids = [r for r, _bm in taken]
        if held is None:
            held = self._held(plan, rowids)
        kinds = dict(self.db.execute(
            f"SELECT rowid, kind FROM docs WHERE rowid IN ({', '.join('?' * len(rowids))})",
            rowids)) if len(rowids) <= 500 else dict(
            self.db.execute("SELECT rowid, kind FROM docs WHERE kind != 'ruling'"))
        n = len(plan.concepts)
        out = []
        for rowid, bm in taken:
            factor = (held[rowid] / n) ** COORDINATION if n >= 2 else 1.0
            weight = KIND_WEIGHTS.get(kinds.get(rowid, "ruling"), 1.0)
            out.append((float(bm) * factor * weight, rowid))
        if best:
            return heapq.nsmallest(best, out, key=lambda item: (-item[0], item[1]))
        out.sort(key=lambda item: (-item[0], item[1]))
        return out

    def _hits(self, top: list[tuple[float, int]], lang: str, plan: Plan,
              snippets: bool) -> tuple[Hit, ...]:
        if not top:
            return ()
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
                                       plan.highlight, wide=shown == "en")
            out.append(Hit(id=rid, title=titles.get(shown, ""), snippet=snippet.marked(),
                           rules=_split(rules), tags=_split(tags), path=path, score=score,
                           lang=shown, kind=kind, label=label, text=snippet.text,
                           marks=snippet.marks))
        return tuple(out)


def _split(value: object) -> tuple[str, ...]:
    return tuple(v for v in str(value or "").split(",") if v)


# ---------------------------------------------------------------------- snippets


def make_snippet(text: str, terms: set[str], *, wide: bool = True) -> Snippet:
    """A window of ``text`` (about 240 characters of English or 120 of CJK text, the whole
    text when shorter) around the most matches of ``terms``, ``…`` where it was cut."""
    flat = " ".join(text.split())
    width = 240 if wide else 120
    spans = match_spans(flat, terms) if terms else []
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
