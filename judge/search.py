"""``judge search``: a Whoosh index of the rulings' texts in three languages.

The index lives in ``build/search/`` under the corpus root, with ``stamp.json`` beside
Whoosh's files: the index format version, the corpus fingerprint (a hash of every ruling and
data file, :func:`judge.corpus.fingerprint`) and a SHA-256 of each index file. Before a search
the stamp is checked; a missing, stale or damaged index (a file changed, missing or unreadable)
is rebuilt from the corpus, in a temporary folder that then replaces the old one.

One document per ruling: its id, tags, rule sets and glossary terms as keywords; the titles
(twice, so that they weigh more) and bodies (answer, question, explanation) of every language,
read by :func:`judge.search_analysis.text_analyzer` into two fields, ``text`` for the Latin
words and word pairs and ``cjk`` for the CJK character pairs (neither keeps positions); and the
title and body of each language stored for the results. A query word is looked for whatever
its language; glossary terms are expanded to their names in all three languages
(:mod:`judge.search_query`). The query objects are built here, not by Whoosh's parser. Fields
by script rather than by language keep the query small: a token is one term, not six.
"""

from __future__ import annotations

import hashlib
import heapq
import json
import os
import shutil
import tempfile
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from whoosh import index as whoosh_index
from whoosh import query as wq
from whoosh.fields import ID, KEYWORD, STORED, TEXT, Schema

from judge.corpus import Corpus, Ruling, Term, load_corpus, load_glossary
from judge.corpus import fingerprint as corpus_fingerprint
from judge.engine.rulesets import load_rulesets
from judge.errors import JudgeError
from judge.scenario.model import LANGS
from judge.search_analysis import (
    TOKEN_PATTERN,
    fold,
    is_cjk,
    is_pair,
    normalize,
    text_analyzer,
    tokens,
)
from judge.search_query import (
    And,
    Expand,
    Field,
    Glossary,
    Node,
    Not,
    Or,
    QueryError,
    Text,
    expand,
    parse,
    show,
)

#: Bump when the schema or the analyzers change: the stamp then no longer matches.
INDEX_VERSION = "4"
#: The Whoosh field suffix of each language.
LANG_FIELDS: dict[str, str] = {"ja": "ja", "en": "en", "zh-Hans": "zh"}
STAMP = "stamp.json"
#: At most this many matches are scored (in index order); beyond it the ranking covers only
#: those and the total is a lower bound. Far above the corpus; it bounds the time of a query
#: that matches nearly everything in a very large index.
MAX_SCORED = 2000
BODY_FIELDS = ("answer", "question", "explanation")  # the answer first: snippets start there
MARK = "**"


class SearchError(JudgeError):
    """The search index cannot be built or read."""


# ---------------------------------------------------------------------- documents and schema


@dataclass(frozen=True)
class SearchDoc:
    """What the index holds of one ruling."""

    id: str
    path: str
    titles: Mapping[str, str]  # lang -> title
    bodies: Mapping[str, str]  # lang -> answer, question and explanation
    tags: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()

    @classmethod
    def from_ruling(cls, ruling: Ruling) -> SearchDoc:
        titles: dict[str, str] = {}
        bodies: dict[str, str] = {}
        for lang in LANGS:
            title = ruling.text("title", lang, fallback=False)
            body = "\n".join(t for f in BODY_FIELDS if (t := ruling.text(f, lang, False)))
            if title:
                titles[lang] = title
            if body:
                bodies[lang] = body
        scenario = ruling.scenario
        return cls(id=ruling.id, path=ruling.path, titles=titles, bodies=bodies,
                   tags=scenario.tags, rules=scenario.rulesets, terms=scenario.terms)

    def fields(self) -> dict[str, Any]:
        titles = [self.titles[lang] for lang in LANGS if lang in self.titles]
        bodies = [self.bodies[lang] for lang in LANGS if lang in self.bodies]
        out: dict[str, Any] = {"id": self.id, "path": self.path, "tag": ",".join(self.tags),
                               "rules": ",".join(self.rules), "term": ",".join(self.terms),
                               "text": "\n".join([*titles, *titles, *bodies])}
        out["cjk"] = out["text"]
        for lang, suffix in LANG_FIELDS.items():
            if lang in self.titles:
                out[f"title_{suffix}"] = self.titles[lang]
            if lang in self.bodies:
                out[f"body_{suffix}"] = self.bodies[lang]
        return out


def schema() -> Any:
    stored: dict[str, Any] = {}
    for suffix in LANG_FIELDS.values():
        stored[f"title_{suffix}"] = STORED()
        stored[f"body_{suffix}"] = STORED()
    return Schema(id=ID(stored=True, unique=True), path=STORED(),
                  tag=KEYWORD(stored=True, commas=True, lowercase=True),
                  rules=KEYWORD(stored=True, commas=True),
                  term=KEYWORD(stored=True, commas=True),
                  text=TEXT(analyzer=text_analyzer("words"), phrase=False),
                  cjk=TEXT(analyzer=text_analyzer("cjk"), phrase=False), **stored)


# ---------------------------------------------------------------------- building and stamps


def index_dir(root: Path) -> Path:
    return root / "build" / "search"


def build_index(docs: Iterable[SearchDoc], folder: Path, *, corpus: str = "",
                procs: int = 1, limitmb: int = 256) -> int:
    """Index ``docs`` into ``folder``, replacing what is there only once the new index is
    complete. ``corpus`` is the fingerprint written to the stamp. Returns the document count."""
    folder = folder.resolve()
    folder.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(dir=folder.parent, prefix=f".{folder.name}.", suffix=".tmp"))
    try:
        ix = whoosh_index.create_in(str(tmp), schema())
        writer = ix.writer(procs=procs, limitmb=limitmb, multisegment=procs > 1)
        count = 0
        for doc in docs:
            writer.add_document(**doc.fields())
            count += 1
        writer.commit()
        ix.close()
        stamp = {"version": INDEX_VERSION, "corpus": corpus, "docs": count,
                 "files": _file_hashes(tmp)}
        (tmp / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n",
                                 encoding="utf-8")
        old = folder.with_name(f".{folder.name}.old-{os.getpid()}")
        if folder.exists():
            if old.exists():
                shutil.rmtree(old)
            folder.rename(old)
        tmp.rename(folder)
        if old.exists():
            shutil.rmtree(old, ignore_errors=True)
        return count
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _file_hashes(folder: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.name != STAMP:
            out[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def stamp_problem(folder: Path, corpus: str) -> str:
    """Why the index in ``folder`` cannot be used for the corpus with fingerprint ``corpus``
    (empty when it can)."""
    stamp_path = folder / STAMP
    if not folder.is_dir():
        return "no index yet"
    try:
        stamp = json.loads(stamp_path.read_text(encoding="utf-8"))
        files = dict(stamp["files"])
        version, built_for = stamp["version"], stamp["corpus"]
    except (OSError, ValueError, KeyError, TypeError):
        return "the index stamp is missing or unreadable"
    if version != INDEX_VERSION:
        return "the index was built by another version"
    if built_for != corpus:
        return "the corpus changed"
    if files != _file_hashes(folder):
        return "the index files are damaged"
    return ""


def ensure_index(root: Path, folder: Path | None = None, *, rebuild: bool = False,
                 corpus: Corpus | None = None) -> str:
    """Make sure ``folder`` (default ``root/build/search``) holds a usable index of the corpus
    at ``root``; rebuild it if not. Returns why it was rebuilt, or an empty string."""
    folder = folder or index_dir(root)
    current = corpus.fingerprint if corpus else corpus_fingerprint(root)
    problem = "rebuild requested" if rebuild else stamp_problem(folder, current)
    if problem:
        corpus = corpus or load_corpus(root, replay=False)
        build_index((SearchDoc.from_ruling(r) for r in corpus.rulings), folder,
                    corpus=corpus.fingerprint)
    return problem


# ---------------------------------------------------------------------- results


@dataclass(frozen=True)
class Hit:
    id: str
    title: str
    snippet: str  # matches between ** marks
    rules: tuple[str, ...]
    tags: tuple[str, ...]
    path: str
    score: float
    lang: str  # the language of title and snippet (Japanese when the chosen one is missing)

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "snippet": self.snippet,
                "rules": list(self.rules), "tags": list(self.tags), "path": self.path,
                "score": round(self.score, 4), "lang": self.lang}


@dataclass(frozen=True)
class SearchResult:
    query: str  # as read, with the expansions (search_query.show)
    lang: str
    total: int
    hits: tuple[Hit, ...] = ()
    rebuilt: str = ""  # why the index was rebuilt first, if it was
    capped: bool = False  # more than MAX_SCORED rulings match: total is a lower bound

    def to_dict(self) -> dict[str, Any]:
        return {"query": self.query, "lang": self.lang, "total": self.total,
                "capped": self.capped, "results": [h.to_dict() for h in self.hits]}


def detect_lang(query: str) -> str:
    """A guess at the query's language: kana -> ja, other CJK -> zh-Hans, else en."""
    folded = fold(query)
    if any("\u3041" <= c <= "\u309f" for c in folded):
        return "ja"
    if any("\u3400" <= c <= "\u9fff" or "\uf900" <= c <= "\ufaff" for c in folded):
        return "zh-Hans"
    return "en"


# ---------------------------------------------------------------------- searching


@dataclass
class _Built:
    query: Any
    highlight: set[str] = field(default_factory=set)


class SearchIndex:
    """An open index; keep one open to run many queries."""

    def __init__(self, folder: Path, glossary: Iterable[Term] | Glossary | None = None,
                 rulesets: Sequence[str] | None = None) -> None:
        try:
            self.ix = whoosh_index.open_dir(str(folder))
            self.searcher = self.ix.searcher()
        except Exception as exc:  # Whoosh raises many kinds on a damaged index
            raise SearchError(f"cannot open the search index in {folder}: {exc}") from exc
        if glossary is None:
            glossary = load_glossary().values()
        self.glossary = glossary if isinstance(glossary, Glossary) else Glossary(glossary)
        self.rulesets = tuple(rulesets if rulesets is not None else load_rulesets())
        self.analyzer = text_analyzer()
        self.words = text_analyzer("words")  # for snippets: CJK runs are found as text

    def close(self) -> None:
        self.searcher.close()
        self.ix.close()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def doc_count(self) -> int:
        return int(self.searcher.doc_count())

    # -------------------------------------------------------------- query building

    def build(self, text: str, *, tags: Sequence[str] = (), rules: str | None = None,
              term: str | None = None) -> tuple[Node, _Built]:
        """Parse, check and expand a query, and add the option filters."""
        node = expand(parse(text), self.glossary) if text.strip() else None
        extra: list[Node] = [Field("tag", t) for t in tags]
        if rules:
            extra.append(Field("rules", rules))
        if term:
            extra.append(Field("term", term))
        if node is None and not extra:
            raise QueryError("the query is empty")
        nodes = ([node] if node is not None else []) + extra
        whole: Node = nodes[0] if len(nodes) == 1 else And(tuple(nodes))
        built = _Built(None)
        built.query = self._node(whole, built, negated=False)
        if built.query is None:
            raise QueryError(f"nothing to search for in {text!r} (only common words?)")
        if not _has_positive(whole):
            built.query = wq.And([wq.Every(), built.query])
        return whole, built

    def _node(self, node: Node, built: _Built, negated: bool) -> Any:
        if isinstance(node, Text):
            return self._text(node.text, built, negated)
        if isinstance(node, Expand):
            term = self.glossary.terms[node.term]
            forms = [node.text, *(term.names[lang] for lang in LANGS if lang in term.names)]
            subs = [q for f in forms if (q := self._text(f, built, negated)) is not None]
            return _any_of(subs)
        if isinstance(node, Field):
            return self._field(node)
        if isinstance(node, Not):
            inner = self._node(node.node, built, not negated)
            return wq.Not(inner) if inner is not None else None
        subs = [q for n in node.nodes if (q := self._node(n, built, negated)) is not None]
        if not subs:
            return None
        if len(subs) == 1:
            return subs[0]
        return wq.And(subs) if isinstance(node, And) else wq.Or(subs)

    def _text(self, text: str, built: _Built, negated: bool) -> Any:
        """``text`` in any language: a term; for a CJK run, the character pairs that cover it
        (a phrase of them would cost far more and rarely find less); for several words, their
        word pairs."""
        toks = tokens(self.analyzer, text)
        if not toks:
            return None
        words = [t[0] for t in toks]
        pairs = [w for w in words if is_pair(w)]
        if pairs and not any(is_cjk(w) for w in words):
            # a phrase of words: its word pairs (WordPairFilter)
            words = pairs
        if not negated:
            # Latin tokens as searched; CJK runs whole, so that only full matches are marked
            built.highlight.update(w for w in words if not is_cjk(w))
            built.highlight.update(m.group(0) for m in TOKEN_PATTERN.finditer(fold(text))
                                   if is_cjk(m.group(0)))
        if len(words) == 1:
            return _leaf(words[0])
        return wq.And([_leaf(w) for w in dict.fromkeys(words)])

    def _field(self, node: Field) -> Any:
        value = node.value
        if node.name == "tag":
            return wq.Term("tag", value.lower())
        if node.name == "rules":
            if value not in self.rulesets:
                raise QueryError(f"unknown rule set {value!r} (valid: "
                                 f"{', '.join(self.rulesets)})")
            return wq.Term("rules", value)
        if node.name == "term":
            term = self.glossary.resolve(value)
            if term is None:
                raise QueryError(f"{value!r} is not a glossary term (see data/glossary.toml)")
            return wq.Term("term", term.id)
        if value.endswith("*"):
            return wq.Prefix("id", value[:-1].lower())
        return wq.Term("id", value.lower())

    # -------------------------------------------------------------- searching

    def search(self, text: str, *, lang: str | None = None, tags: Sequence[str] = (),
               rules: str | None = None, term: str | None = None,
               limit: int = 10, snippets: bool = True,
               max_scored: int | None = MAX_SCORED) -> SearchResult:
        node, built = self.build(text, tags=tags, rules=rules, term=term)
        chosen = lang or detect_lang(text)
        if chosen not in LANG_FIELDS:
            raise QueryError(f"unknown language {chosen!r} (valid: {', '.join(LANG_FIELDS)})")
        top, total, capped = self.collect(built.query, limit, max_scored)
        hits = tuple(self._hit(docnum, score, chosen, built, snippets) for score, docnum in top)
        return SearchResult(query=show(node), lang=chosen, total=total, hits=hits,
                            capped=capped)

    def collect(self, query: Any, limit: int, max_scored: int | None = MAX_SCORED,
                ) -> tuple[list[tuple[float, int]], int, bool]:
        """Score the matches of ``query`` (the first ``max_scored`` of them, in index order)
        and keep the best ``limit``. Returns (score, docnum) best first, the number of
        matches seen, and whether the cap stopped the count.

        Whoosh's own collectors are not used: their matcher replacement can drop matching
        documents from both the ranking and the count."""
        heap: list[tuple[float, int]] = []
        total = 0
        context = self.searcher.context()
        for sub, offset in self.searcher.leaf_searchers():
            matcher = query.matcher(sub, context)
            while matcher.is_active():
                item = (float(matcher.score()), -(offset + int(matcher.id())))
                if len(heap) < limit:
                    heapq.heappush(heap, item)
                elif item > heap[0]:
                    heapq.heapreplace(heap, item)
                total += 1
                if max_scored is not None and total >= max_scored:
                    return _best(heap), total, True
                matcher.next()
        return _best(heap), total, False

    def _hit(self, docnum: int, score: float, lang: str, built: _Built, snippets: bool) -> Hit:
        stored = self.searcher.stored_fields(docnum)
        shown = lang if stored.get(f"title_{LANG_FIELDS[lang]}") else "ja"
        suffix = LANG_FIELDS[shown]
        body = str(stored.get(f"body_{suffix}", ""))
        snippet = ""
        if snippets:
            snippet = make_snippet(body, self.words, built.highlight, wide=shown == "en")
        return Hit(id=str(stored["id"]), title=str(stored.get(f"title_{suffix}", "")),
                   snippet=snippet, rules=_split(stored.get("rules")),
                   tags=_split(stored.get("tag")), path=str(stored.get("path", "")),
                   score=score, lang=shown)


def _leaves(query: Any) -> frozenset[Any]:
    """The terms a term or an And of terms requires."""
    if isinstance(query, wq.And):
        return frozenset(query.subqueries)
    return frozenset([query])


def _any_of(subs: list[Any]) -> Any:
    """Or of ``subs``, leaving out any that requires everything another one requires (it can
    only match where that one matches): the forms of a glossary term often overlap."""
    kept: list[Any] = []
    for q in subs:
        need = _leaves(q)
        if any(_leaves(k) <= need for k in kept):
            continue
        kept = [k for k in kept if not need <= _leaves(k)] + [q]
    if not kept:
        return None
    return kept[0] if len(kept) == 1 else wq.Or(kept)


def _leaf(word: str) -> Any:
    """A query token: a CJK pair is a term of ``cjk``, one CJK character the start of such a
    term (see :mod:`judge.search_analysis`), anything else a term of ``text``."""
    if is_cjk(word):
        return wq.Prefix("cjk", word) if len(word) == 1 else wq.Term("cjk", word)
    return wq.Term("text", word)


def _has_positive(node: Node) -> bool:
    """Whether the query needs something to be present (not only absent)."""
    if isinstance(node, Not):
        return False
    if isinstance(node, And):
        return any(_has_positive(n) for n in node.nodes)
    if isinstance(node, Or):
        return all(_has_positive(n) for n in node.nodes)
    return True


def _best(heap: list[tuple[float, int]]) -> list[tuple[float, int]]:
    """(score, docnum), the highest score first; equal scores in index (id) order."""
    return [(score, -negated) for score, negated in sorted(heap, reverse=True)]


def _split(value: object) -> tuple[str, ...]:
    return tuple(v for v in str(value or "").split(",") if v)


# ---------------------------------------------------------------------- snippets


def match_spans(text: str, analyzer: Any, terms: set[str]) -> list[tuple[int, int]]:
    """The character ranges of ``text`` that match ``terms``, merged: Latin words and word
    pairs by token, CJK runs (folded) wherever the folded text holds them."""
    latin = {t for t in terms if not is_cjk(t)}
    spans = [(s, e) for (w, _p, s, e) in tokens(analyzer, text, mode="index")
             if w in latin] if latin else []
    runs = [t for t in terms if is_cjk(t)]
    if runs:
        folded, starts, ends = normalize(text)
        for run in runs:
            at = folded.find(run)
            while at >= 0:
                spans.append((starts[at], ends[at + len(run) - 1]))
                at = folded.find(run, at + 1)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


def make_snippet(text: str, analyzer: Any, terms: set[str], *, wide: bool = True) -> str:
    """A window of ``text`` (about 160 characters of English or 80 of CJK text) around the
    most matches, the matches between ``**`` marks, ``…`` where text was cut."""
    flat = " ".join(text.split())
    width = 160 if wide else 80
    spans = match_spans(flat, analyzer, terms) if terms else []
    if not spans:
        return flat[:width] + ("…" if len(flat) > width else "")
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
    parts: list[str] = ["…" if start > 0 else ""]
    pos = start
    for s, e in spans:
        if e <= start or s >= end:
            continue
        s, e = max(s, start), min(e, end)
        parts += [flat[pos:s], MARK, flat[s:e], MARK]
        pos = e
    parts.append(flat[pos:end])
    parts.append("…" if end < len(flat) else "")
    return "".join(parts)


# ---------------------------------------------------------------------- the command


def search(text: str, *, root: Path, folder: Path | None = None, lang: str | None = None,
           tags: Sequence[str] = (), rules: str | None = None, term: str | None = None,
           limit: int = 10, rebuild: bool = False) -> SearchResult:
    """Search the corpus at ``root``, first rebuilding its index if needed (or if it turns out
    unreadable). Raises :class:`QueryError` for a query that cannot be read."""
    folder = folder or index_dir(root)
    rebuilt = ensure_index(root, folder, rebuild=rebuild)
    for attempt in range(2):
        try:
            with SearchIndex(folder) as ix:
                result = ix.search(text, lang=lang, tags=tags, rules=rules, term=term,
                                   limit=limit)
            return SearchResult(result.query, result.lang, result.total, result.hits,
                                rebuilt=rebuilt, capped=result.capped)
        except JudgeError as exc:
            if not isinstance(exc, SearchError) or attempt:
                raise
        except Exception as exc:  # a damaged index that the stamp did not catch
            if attempt:
                raise SearchError(f"the search index in {folder} is unreadable: {exc}") \
                    from exc
        rebuilt = ensure_index(root, folder, rebuild=True) and "the index was unreadable"
    raise SearchError("unreachable")  # pragma: no cover


def iter_lines(result: SearchResult, *, color: bool = False) -> Iterator[str]:
    """The text output of ``judge search``."""
    import click

    for i, hit in enumerate(result.hits, 1):
        rules = ", ".join(hit.rules)
        yield f"{i}. {hit.id}  [{rules}]"
        yield f"   {hit.title}"
        if hit.snippet:
            snippet = hit.snippet
            if color:
                pieces = snippet.split(MARK)
                snippet = "".join(click.style(p, bold=True) if k % 2 else p
                                  for k, p in enumerate(pieces))
            yield f"   {snippet}"
    shown = len(result.hits)
    if result.total == 0:
        yield f"no ruling matches {result.query}"
    else:
        more = f" (showing {shown})" if shown < result.total else ""
        noun = "ruling matches" if result.total == 1 else "rulings match"
        at_least = "at least " if result.capped else ""
        yield f"{at_least}{result.total} {noun}{more}"
