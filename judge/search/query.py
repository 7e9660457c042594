"""The query language of ``judge search``: parsing, glossary expansion, common words.

Syntax (docs/search.md)::

    refresh trash                 both words, ranked by how many match (see below)
    refresh AND trash             both words, strictly
    refresh OR 重构               either
    refresh NOT battle            the first without the second (also: refresh -battle)
    "main deck"                   a phrase (also “...” and 「...」)
    (draw OR mill) refresh        grouping
    tag:refresh rules:2014-07 term:trash kind:term id:refresh-*

Words written next to each other without an operator make a *soft* AND (``And(soft=True)``):
the search ranks first what holds all of them and then what holds most, so that a question
typed as a sentence still finds its answer. ``AND`` between them makes it strict.

The query is NFKC-normalised before it is read, so full-width letters, digits, colons and
parentheses work. A query that cannot be read raises :class:`QueryError` with a one-line
message. Then, in this order (:mod:`judge.search.engine`): unknown English words are
corrected (:func:`correct`), glossary names and aliases become :class:`Expand` nodes
(:func:`expand`: "this text, or the term's name in Japanese, English or Chinese"), and
:func:`refine` leaves out the common words of each language (``the``, ``what``; は, ですか;
的, 怎么) and cuts Japanese and Chinese runs into the pieces that are looked for.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable, Mapping
from functools import lru_cache
from typing import Any, NamedTuple

from judge.errors import JudgeError
from judge.langs import LANGS
from judge.search.analysis import (
    TOKEN_PATTERN,
    edit_distance,
    fold,
    is_cjk,
    latin_token,
    normalize,
    script,
    script_runs,
)
from judge.search.definition import definition

#: The fields of the query syntax, and the other spellings accepted for them.
FIELDS = ("tag", "rules", "term", "kind", "id", "basis")
FIELD_ALIASES = {"tags": "tag", "rule": "rules", "ruleset": "rules", "terms": "term",
                 "kinds": "kind", "type": "kind"}
#: The kinds of result (docs/search.md, "Result kinds").
KINDS = ("ruling", "term", "processing", "change")
#: What a ruling rests on (``basis:official``: at least one official or quoted source).
BASES = ("official", "community")
OPERATORS = ("AND", "OR", "NOT")
_QUOTES = {'"': '"', "“": "”", "「": "」", "『": "』"}
_FIELD = re.compile(r"^([A-Za-z][A-Za-z_-]*):(.*)$", re.S)


class QueryError(JudgeError):
    """A search query that cannot be read."""


def quote(text: str) -> str:
    """``text`` quoted for a message, with control and format characters escaped."""
    from judge.search.output import sanitize

    return "'" + sanitize(text) + "'"


# ---------------------------------------------------------------------- the syntax tree


# The nodes are named tuples, not dataclasses: a search in a fresh process creates them at
# import time, and a named tuple class costs a tenth of a dataclass to make.


class Text(NamedTuple):
    """A word, or a quoted phrase (``phrase``). ``fragment``: a piece of a longer word (what
    is left around a glossary name), so that its edges may be particles."""

    text: str
    phrase: bool = False
    fragment: bool = False


class Field(NamedTuple):
    """``name:value``; name is one of :data:`FIELDS`."""

    name: str
    value: str


class Expand(NamedTuple):
    """Glossary term ``term`` as written in the query (``text``)."""

    text: str
    term: str


class Not(NamedTuple):
    node: Node


class And(NamedTuple):
    """All of ``nodes``; ``soft``: written without ``AND``, ranked by how many match."""

    nodes: tuple[Node, ...]
    soft: bool = False


class Or(NamedTuple):
    nodes: tuple[Node, ...]


Node = Text | Field | Expand | Not | And | Or


def show(node: Node) -> str:
    """The query as read, for messages and ``--json`` (``term→id`` marks an expansion; the
    words of a soft AND are separated by spaces, of a strict one by ``AND``)."""
    if isinstance(node, Text):
        return f'"{node.text}"' if node.phrase else node.text
    if isinstance(node, Field):
        return f"{node.name}:{node.value}"
    if isinstance(node, Expand):
        return f"{node.text}→{node.term}"
    if isinstance(node, Not):
        return f"NOT {show(node.node)}"
    joiner = " OR " if isinstance(node, Or) else " " if node.soft else " AND "
    return "(" + joiner.join(show(n) for n in node.nodes) + ")"


# ---------------------------------------------------------------------- lexing and parsing


class _Tok(NamedTuple):
    kind: str  # "word", "phrase", "field", "op", "(", ")", "-"
    text: str
    value: str = ""


def _lex(query: str) -> list[_Tok]:
    out: list[_Tok] = []
    i, n = 0, len(query)
    while i < n:
        c = query[i]
        if c.isspace():
            i += 1
        elif c in "()":
            out.append(_Tok(c, c))
            i += 1
        elif c in _QUOTES:
            text, i = _quoted(query, i)
            out.append(_Tok("phrase", text))
        elif c == "-" and i + 1 < n and not query[i + 1].isspace() and query[i + 1] != "-":
            out.append(_Tok("-", c))
            i += 1
        elif c == "+" and i + 1 < n and not query[i + 1].isspace():
            i += 1
        else:
            j = i
            while j < n and not query[j].isspace() and query[j] not in "()" \
                    and query[j] not in _QUOTES:
                j += 1
            word = query[i:j]
            i = j
            match = _FIELD.match(word)
            if match and not match.group(1)[0].isdigit():
                name = match.group(1).lower()
                name = FIELD_ALIASES.get(name, name)
                if name not in FIELDS:
                    raise QueryError(f"unknown field {quote(match.group(1))} in {quote(word)} "
                                     f"(valid: {', '.join(FIELDS)})")
                value = match.group(2)
                if not value and i < n and query[i] in _QUOTES:
                    value, i = _quoted(query, i)
                if not value.strip():
                    raise QueryError(f"{name}: needs a value, e.g. {name}:{_EXAMPLE[name]}")
                out.append(_Tok("field", name, value.strip()))
            elif word in OPERATORS:
                out.append(_Tok("op", word))
            else:
                out.append(_Tok("word", word))
    return out


_EXAMPLE = {"basis": "official", "tag": "refresh", "rules": "2014-07", "term": "trash",
            "kind": "term",
            "id": "refresh-steps"}


def _quoted(query: str, i: int) -> tuple[str, int]:
    close = _QUOTES[query[i]]
    end = query.find(close, i + 1)
    if end < 0:
        raise QueryError(f"the quote {query[i]} at character {i + 1} is never closed")
    text = query[i + 1:end].strip()
    if not text:
        raise QueryError(f"the quotes at character {i + 1} hold nothing")
    return text, end + 1


class _Parser:
    def __init__(self, toks: list[_Tok]) -> None:
        self.toks = toks
        self.i = 0

    def peek(self) -> _Tok | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> _Tok:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def parse(self) -> Node:
        node = self.or_expr()
        tok = self.peek()
        if tok is not None:  # only a ")" can stop or_expr early
            raise QueryError("a ')' has no matching '('")
        return node

    def or_expr(self) -> Node:
        nodes = [self.and_expr()]
        while (tok := self.peek()) is not None and tok.kind == "op" and tok.text == "OR":
            self.take()
            nodes.append(self.and_expr("OR"))
        return nodes[0] if len(nodes) == 1 else Or(tuple(nodes))

    def and_expr(self, after: str = "") -> Node:
        nodes: list[Node] = []
        explicit = False
        while (tok := self.peek()) is not None and not (tok.kind == ")" or
                                                         (tok.kind == "op" and tok.text == "OR")):
            if tok.kind == "op" and tok.text == "AND":
                self.take()
                explicit = True
                if not nodes:
                    raise QueryError("'AND' needs a search term before it")
                if (nxt := self.peek()) is None or nxt.kind == ")" or \
                        (nxt.kind == "op" and nxt.text in ("AND", "OR")):
                    raise QueryError("'AND' needs a search term after it")
                continue
            nodes.append(self.unary())
        if not nodes:
            if after:
                raise QueryError(f"'{after}' needs a search term after it")
            tok = self.peek()
            if tok is not None and tok.kind == "op":
                raise QueryError(f"'{tok.text}' needs a search term before it")
            if tok is not None and tok.kind == ")":
                raise QueryError("a ')' has no matching '(' or the parentheses are empty")
            raise QueryError("the query is empty")
        return nodes[0] if len(nodes) == 1 else And(tuple(nodes), soft=not explicit)

    def unary(self) -> Node:
        tok = self.take()
        if (tok.kind == "op" and tok.text == "NOT") or tok.kind == "-":
            nxt = self.peek()
            if nxt is None or nxt.kind == ")" or (nxt.kind == "op" and nxt.text != "NOT"):
                raise QueryError(f"'{tok.text}' needs a search term after it")
            return Not(self.unary())
        if tok.kind == "(":
            node = self.or_expr()
            close = self.peek()
            if close is None or close.kind != ")":
                raise QueryError("a '(' is never closed")
            self.take()
            return node
        if tok.kind == "field":
            return Field(tok.text, tok.value)
        if tok.kind == "phrase":
            return Text(tok.text, phrase=True)
        return Text(tok.text)


def parse(query: str) -> Node:
    """Read a query; raises :class:`QueryError` with a one-line message."""
    text = unicodedata.normalize("NFKC", query).strip()
    if not text:
        raise QueryError("the query is empty")
    return _Parser(_lex(text)).parse()


# ---------------------------------------------------------------------- the glossary


class GlossaryTerm(NamedTuple):
    """What the search needs of a glossary term: its names and its main ruling."""

    id: str
    names: Mapping[str, str]
    main: str = ""


@lru_cache(maxsize=4096)
def latin_key(text: str) -> tuple[str, ...]:
    """The tokens of the Latin words of ``text`` (how a name or a run of query words is
    compared: folded, British spelling, stemmed)."""
    return tuple(latin_token(m.group(0)) for m in TOKEN_PATTERN.finditer(fold(text))
                 if not is_cjk(m.group(0)))


@lru_cache(maxsize=4096)
def cjk_key(text: str) -> str:
    """``text`` folded, with everything but letters, digits and CJK characters left out
    (``【ランサー】`` and ``ランサー`` are one name)."""
    return "".join(m.group(0) for m in TOKEN_PATTERN.finditer(fold(text)))


class Glossary:
    """The glossary's names and aliases, folded and stemmed the way the index reads text, and
    the language each is written in (``""`` when several languages write it so)."""

    def __init__(self, terms: Iterable[Any] = ()) -> None:
        self.terms: dict[str, GlossaryTerm] = {}
        latin: dict[tuple[str, ...], tuple[str, set[str]]] = {}
        cjk: dict[str, tuple[str, set[str]]] = {}
        for term in terms:
            self.terms[term.id] = GlossaryTerm(term.id, dict(term.names),
                                               str(getattr(term, "main", "") or ""))
            for form, lang in _forms(term):
                if is_cjk(form):
                    key = cjk_key(form)
                    if len(key) >= 2:
                        entry = cjk.setdefault(key, (term.id, set()))
                        if entry[0] == term.id:
                            entry[1].add(lang)
                    continue
                lkey = latin_key(form)
                if lkey and (len(lkey) > 1 or len(lkey[0]) > 1):
                    entry = latin.setdefault(lkey, (term.id, set()))
                    if entry[0] == term.id:
                        entry[1].add(lang)
        self.latin = {k: v[0] for k, v in latin.items()}
        self.latin_lang = {k: _one(v[1]) for k, v in latin.items()}
        self.cjk = {k: v[0] for k, v in cjk.items()}
        self.cjk_lang = {k: _one(v[1]) for k, v in cjk.items()}
        self._finish()

    def _finish(self) -> None:
        self.longest_latin = max((len(k) for k in self.latin), default=0)
        self.longest_cjk = max((len(k) for k in self.cjk), default=0)
        self.words = frozenset(w for k in self.latin for w in k)

    # ------------------------------------------------------------------ storing

    def data(self) -> dict[str, Any]:
        """A JSON-ready form (kept in the index, so that a search need not read the TOML)."""
        return {"terms": [[t.id, t.names, t.main] for t in self.terms.values()],
                "latin": [[list(k), v, self.latin_lang[k]] for k, v in self.latin.items()],
                "cjk": [[k, v, self.cjk_lang[k]] for k, v in self.cjk.items()]}

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> Glossary:
        out = cls()
        out.terms = {i: GlossaryTerm(i, dict(names), main) for i, names, main in data["terms"]}
        out.latin = {tuple(k): v for k, v, _lang in data["latin"]}
        out.latin_lang = {tuple(k): lang for k, _v, lang in data["latin"]}
        out.cjk = {k: v for k, v, _lang in data["cjk"]}
        out.cjk_lang = {k: lang for k, _v, lang in data["cjk"]}
        out._finish()
        return out

    # ------------------------------------------------------------------ looking up

    def resolve(self, text: str) -> GlossaryTerm | None:
        """The term whose id, name or alias is ``text`` (folded; English stemmed)."""
        if text in self.terms:
            return self.terms[text]
        folded = fold(text)
        if folded in self.terms:
            return self.terms[folded]
        term_id = self.cjk.get(cjk_key(text)) if is_cjk(text) else self.latin.get(
            latin_key(text))
        return self.terms[term_id] if term_id else None

    def key(self, text: str) -> tuple[str, ...]:
        return latin_key(text)

    def lang_of(self, text: str) -> str:
        """The language of the glossary form ``text`` ("" when unknown or shared)."""
        if is_cjk(text):
            return self.cjk_lang.get(cjk_key(text), "")
        return self.latin_lang.get(latin_key(text), "")


def _forms(term: Any) -> Iterable[tuple[str, str]]:
    """(form, language) of every name and alias of a term ("" for a neutral alias)."""
    for lang in LANGS:
        if term.names.get(lang):
            yield term.names[lang], lang
    by_lang: Mapping[str, Iterable[str]] = getattr(term, "alias_by_lang", {}) or {}
    seen: set[str] = set()
    for lang, words in by_lang.items():
        for word in words:
            seen.add(word)
            yield word, lang
    for word in getattr(term, "aliases", ()):
        if word not in seen:
            yield word, ""


def _one(langs: set[str]) -> str:
    real = langs - {""}
    return next(iter(real)) if len(real) == 1 else ""


# ---------------------------------------------------------------------- glossary expansion


#: The most words written apart that are looked for together as a Japanese or Chinese
#: glossary name.
JOINED_WORDS = 4


def expand(node: Node, glossary: Glossary) -> Node:
    """Replace glossary terms among the words of ``node`` by :class:`Expand` nodes."""
    if isinstance(node, And):
        return _and(_expand_sequence(list(node.nodes), glossary), node.soft)
    if isinstance(node, Or):
        return Or(tuple(expand(n, glossary) for n in node.nodes))
    if isinstance(node, Not):
        return Not(expand(node.node, glossary))
    if isinstance(node, Text):
        return _and(_expand_sequence([node], glossary), True)
    return node


def _and(nodes: list[Node], soft: bool) -> Node:
    return nodes[0] if len(nodes) == 1 else And(tuple(nodes), soft)


def _expand_sequence(nodes: list[Node], glossary: Glossary) -> list[Node]:
    out: list[Node] = []
    i = 0
    while i < len(nodes):
        node = nodes[i]
        if not isinstance(node, Text):
            out.append(expand(node, glossary))
            i += 1
            continue
        if node.phrase:
            term = glossary.resolve(node.text)
            out.append(Expand(node.text, term.id) if term else node)
            i += 1
            continue
        match, term_id = _named_run(nodes, i, glossary)
        if match:
            out.append(Expand(" ".join(n.text for n in nodes[i:i + match]
                                       if isinstance(n, Text)), term_id))
            i += match
            continue
        out.extend(_expand_word(node.text, glossary))
        i += 1
    return out


def _named_run(nodes: list[Node], i: int, glossary: Glossary) -> tuple[int, str]:
    """The longest run of plain words from ``nodes[i]`` that spells a glossary name, as
    (how many words, term id), (0, "") for none: Latin words as written, with spaces; two or
    more words the first of which is Japanese or Chinese, written together
    (リフレッシュ 2回目: リフレッシュ2回目, at most :data:`JOINED_WORDS`)."""
    first = nodes[i]
    cjk = isinstance(first, Text) and is_cjk(first.text)
    most = JOINED_WORDS if cjk else max(glossary.longest_latin, 1)
    match, term_id = 0, ""
    run: list[str] = []
    for j in range(i, min(len(nodes), i + most)):
        nxt = nodes[j]
        if not isinstance(nxt, Text) or nxt.phrase or (not cjk and is_cjk(nxt.text)):
            break
        run.append(nxt.text)
        if cjk:
            found = glossary.cjk.get(cjk_key("".join(run))) if j > i else None
        else:
            found = glossary.latin.get(glossary.key(" ".join(run)))
        if found:
            match, term_id = j + 1 - i, found
    return match, term_id


def _expand_word(word: str, glossary: Glossary) -> list[Node]:
    """Split one word around the glossary names written inside it: CJK runs by substring
    (longest name first), Latin runs as whole words. The pieces left over stay words. Names
    are matched on the folded word; the pieces keep the word's own spelling."""
    folded, starts, ends = normalize(word)
    runs = list(TOKEN_PATTERN.finditer(folded))
    if len(runs) <= 1 and not is_cjk(folded):
        return [Text(word)]
    whole = "".join(m.group(0) for m in runs)
    if is_cjk(whole) and whole in glossary.cjk:
        return [Expand(word, glossary.cjk[whole])]
    found: list[tuple[int, int, str]] = []  # folded start, end, term id
    for run, at in _segments(folded, runs):
        if not is_cjk(run):
            term_id = glossary.latin.get(glossary.key(run)) if len(run) > 1 else None
            if term_id:
                found.append((at[0], at[-1] + 1, term_id))
            continue
        i = 0
        while i < len(run):
            for size in range(min(glossary.longest_cjk, len(run) - i), 1, -1):
                term_id = glossary.cjk.get(run[i:i + size])
                if term_id and not _inflection(word, starts[at[i]], ends[at[i + size - 1]]):
                    found.append((at[i], at[i + size - 1] + 1, term_id))
                    i += size
                    break
            else:
                i += 1
    if not found:
        return [Text(word)]

    def original(start: int, end: int) -> str:
        return word[starts[start]:ends[end - 1]] if end > start else ""

    pieces: list[Node] = []
    pos = 0
    for start, end, term_id in found:
        while start > pos and folded[start - 1] == " ":
            start -= 1  # the ordinal or kana the fold made spaces belong to the name
        rest = original(pos, start)
        if rest.strip():
            pieces.append(Text(rest.strip(), fragment=True))
        pieces.append(Expand(original(start, end), term_id))
        pos = end
    rest = original(pos, len(folded))
    if rest.strip():
        pieces.append(Text(rest.strip(), fragment=True))
    return pieces


def _inflection(word: str, start: int, end: int) -> bool:
    """Whether ``word[start:end]`` is hiragana as typed, right after a Han character: the
    inflection of a verb (the えな of 使えない), where no glossary name is looked for, as the
    common-word step leaves such a run out."""
    typed = unicodedata.normalize("NFKC", word[start:end])
    before = unicodedata.normalize("NFKC", word[:start])
    return bool(typed) and bool(before) and script(before[-1]) == "han" and all(
        script(c) == "hira" for c in typed)


def _segments(folded: str, runs: list[re.Match[str]]) -> list[tuple[str, list[int]]]:
    """The runs of a folded word where glossary names are looked for, each with the folded
    position of each of its characters: a number written beside a CJK run (nothing but
    spaces between: the ordinal left out of 第2次) joins it, as a name's key joins them
    (``2回目のりふれっしゅ``, `` 2次重构``)."""
    out: list[tuple[str, list[int]]] = []
    joins = False
    for i, match in enumerate(runs):
        run, start = match.group(0), match.start()
        at = list(range(start, match.end()))
        if i and joins and not folded[runs[i - 1].end():start].strip(" ") and (
                (run.isdigit() and is_cjk(out[-1][0])) or is_cjk(run)):
            out[-1] = (out[-1][0] + run, out[-1][1] + at)
        else:
            out.append((run, at))
        joins = run.isdigit() or is_cjk(run)
    return out


# ---------------------------------------------------------------------- typo correction


def correct(node: Node, fix: Callable[[str], str | None]) -> tuple[Node, list[tuple[str, str]]]:
    """``node`` with every plain word that ``fix`` corrects replaced by its correction, and
    the (typed, corrected) pairs. ``fix`` returns None for a word it leaves alone."""
    fixes: list[tuple[str, str]] = []

    def walk(n: Node) -> Node:
        if isinstance(n, Text) and not n.phrase:
            better = fix(n.text)
            if better and better != n.text:
                fixes.append((n.text, better))
                return Text(better)
            return n
        if isinstance(n, Not):
            return Not(walk(n.node))
        if isinstance(n, And):
            return And(tuple(walk(c) for c in n.nodes), n.soft)
        if isinstance(n, Or):
            return Or(tuple(walk(c) for c in n.nodes))
        return n

    return walk(node), fixes


def han_pair(text: str) -> bool:
    """Whether ``text`` (folded) is two Han characters: a piece that a slip of one character
    may have made unknown (``[typos] han`` of the definition)."""
    return len(text) == 2 and script(text[0]) == "han" and script(text[1]) == "han"


def glossary_han_pairs(glossary: Glossary) -> list[str]:
    """Every pair of neighbouring Han characters written inside a glossary name or alias of
    any language (folded), in code-point order: the known words a misspelt pair is compared
    with."""
    return sorted({key[i:i + 2] for key in glossary.cjk for i in range(len(key) - 1)
                   if han_pair(key[i:i + 2])})


def suggest_han(pair: str, pairs: Iterable[tuple[str, int]],
                unknown: Callable[[str], bool]) -> str | None:
    """The pair of ``pairs`` ((pair, results holding it) in code-point order) that differs
    from ``pair`` in exactly one character, a character that no result holds
    (``unknown(char)``: a slip, not a word the corpus does not write): the one in most
    results, then the first; None when there is none."""
    slips = [unknown(pair[0]), unknown(pair[1])]
    if not any(slips):
        return None
    best: tuple[str, int] | None = None
    for candidate, docs in pairs:
        same = [candidate[0] == pair[0], candidate[1] == pair[1]]
        if same[0] != same[1] and slips[same.index(False)] and (
                best is None or docs > best[1]):
            best = (candidate, docs)
    return best[0] if best else None


def kana_piece(text: str) -> bool:
    """Whether ``text`` (folded) is kana only: a piece whose slip may be looked for among the
    glossary's kana names (``[typos] kana_min_length`` of the definition)."""
    return bool(text) and all(script(c) in ("hira", "kata") for c in text)


def suggest_kana(piece: str, keys: Iterable[str]) -> str | None:
    """The glossary form of ``keys`` (folded names and aliases) written in kana only that is
    closest to the folded kana ``piece`` within its limit (``[typos]``: ``edits[0]`` below
    ``long`` characters, ``edits[1]`` from it; among equals the first in code-point order),
    or None."""
    typos = definition()["typos"]
    limit = int(typos["edits"][0] if len(piece) < typos["long"] else typos["edits"][1])
    best: tuple[int, str] | None = None
    for key in keys:
        if key == piece or not kana_piece(key):
            continue
        distance = edit_distance(piece, key, limit)
        if distance <= limit and (best is None or (distance, key) < best):
            best = (distance, key)
    return best[1] if best else None


def katakana_runs(word: str) -> list[tuple[bool, str]]:
    """``word`` (NFKC) cut into its runs of katakana (``True``; the prolonged sound mark
    belongs to them) and the rest (``False``), in order: the pieces whose slips
    ``[typos] kana_min_length`` looks for."""
    out: list[tuple[bool, str]] = []
    for char in word:
        kata = script(char) == "kata"
        if out and out[-1][0] == kata:
            out[-1] = (kata, out[-1][1] + char)
        else:
            out.append((kata, char))
    return out


def katakana(text: str) -> str:
    """``text`` with its hiragana written in katakana (how a correction of a word typed in
    katakana is shown)."""
    return "".join(chr(ord(c) + 0x60) if 0x3041 <= ord(c) <= 0x3096 else c for c in text)


# ---------------------------------------------------------------------- common words

_WORDS = definition()

#: English words a question is written with but that say nothing about a ruling
#: (``[english] stop`` of the definition). They are left out of a query's words, never out of
#: a quoted phrase or a glossary name.
EN_STOP = frozenset(_WORDS["english"]["stop"])
#: Question words that ask for a kind of thing the rulings name (who: a player), each looked
#: for as that word instead of being left out (``hints`` of ``[english]``, ``[japanese]`` and
#: ``[chinese]``).
EN_HINTS: dict[str, str] = _WORDS["english"].get("hints", {})
JA_HINTS: dict[str, str] = _WORDS["japanese"].get("hints", {})
ZH_HINTS: tuple[tuple[str, str], ...] = tuple(sorted(_WORDS["chinese"].get("hints", {}).items()))
#: Japanese function words and endings (hiragana), cut from the ends of a hiragana run that
#: is part of a longer word, longest first.
JA_STOP = tuple(sorted(set(_WORDS["japanese"]["stop"]), key=lambda w: (-len(w), w)))
#: The Japanese passive (``[japanese] passive``): kept with the word before it.
JA_PASSIVE: str = _WORDS["japanese"]["passive"]
#: Japanese kanji words that only make a question (何, 誰, 場合, 時...), left out when they are
#: a whole run of a Japanese query.
JA_HAN_STOP = frozenset(_WORDS["japanese"]["han_stop"])
#: Chinese question words and particles, left out wherever they are in a run.
ZH_STOP = tuple(sorted(set(_WORDS["chinese"]["stop"]), key=lambda w: (-len(w), w)))
#: Chinese characters left out only at the start of a run (会怎样: 会) or at its end, and those
#: left out when they are all that is left of a run (重构时: 时).
ZH_LEADING = frozenset(_WORDS["chinese"]["leading"])
ZH_TRAILING = frozenset(_WORDS["chinese"]["trailing"])
ZH_WHOLE = frozenset(_WORDS["chinese"]["whole"])
#: Han runs of this many characters or more are looked for as their pairs (``[cjk]``).
PAIRS_FROM: int = _WORDS["cjk"]["pairs_from"]


def refine(node: Node, han: str = "") -> Node | None:
    """``node`` without common words, its Japanese and Chinese runs cut into the pieces that
    are looked for (None when nothing is left). Phrases and glossary names stay whole; the
    pieces of one word join the soft AND around them.

    ``han``: the language a run of Han characters is read in, ``ja`` or ``zh-Hans`` (the
    language of the page or ``--lang``; a query with kana is Japanese): a Japanese run loses
    only the kanji words of a question when they are the whole run (何, 場合, 時), a Chinese
    run its question words and particles wherever they are (什么, 的, 了) and a few
    characters at its ends (会, 时); ``""`` applies both."""
    if isinstance(node, Text):
        pieces = _pieces(node, han)
        if not pieces:
            return None
        return pieces[0] if len(pieces) == 1 else And(tuple(pieces), soft=True)
    if isinstance(node, And):
        out: list[Node] = []
        before: Node | None = None
        for child in node.nodes:
            passive = _passive_after(before, child) if node.soft else None
            before = child
            if passive is not None:
                out.append(passive)
            done = refine(child, han)
            if done is None:
                continue
            if node.soft and isinstance(done, And) and done.soft:
                out.extend(done.nodes)
            else:
                out.append(done)
        if not out:
            return None
        return out[0] if len(out) == 1 else And(tuple(out), node.soft)
    if isinstance(node, Or):
        kept = [d for c in node.nodes if (d := refine(c, han)) is not None]
        if not kept:
            return None
        return kept[0] if len(kept) == 1 else Or(tuple(kept))
    if isinstance(node, Not):
        inner = refine(node.node, han)
        return Not(inner) if inner is not None else None
    return node


def _passive(kind: str, run: str, after: str, following: str) -> Text | None:
    """The phrase of a verb (the katakana or kanji run ``run``) and the passive that the
    hiragana run ``following`` starts with (``[japanese] passive``), or None."""
    if kind in ("kata", "han") and after == "hira" and following.startswith(JA_PASSIVE):
        return Text(run + JA_PASSIVE, phrase=True)
    return None


def _passive_after(before: Node | None, node: Node) -> Text | None:
    """The passive phrase of a glossary name or word and the Japanese piece after it
    (``アタック`` and ``されない``: ``"アタックされ"``), or None."""
    if not isinstance(node, Text) or node.phrase or not node.fragment or not isinstance(
            before, (Text, Expand)) or (isinstance(before, Text) and before.phrase):
        return None
    runs, following = script_runs(before.text), script_runs(node.text)
    if not runs or not following:
        return None
    return _passive(runs[-1][0], runs[-1][1], following[0][0], following[0][1])


def _pieces(node: Text, han: str = "") -> list[Node]:
    if node.phrase:
        return [node]
    if not is_cjk(node.text):
        words = [m.group(0) for m in TOKEN_PATTERN.finditer(fold(node.text))]
        if any(w not in EN_STOP for w in words):
            return [node]
        return [Text(EN_HINTS[w]) for w in words if w in EN_HINTS]
    runs = script_runs(node.text)
    mixed = node.fragment or len({kind for kind, _run in runs}) > 1
    out: list[Node] = []
    previous = ""
    for i, (kind, run) in enumerate(runs):
        after, previous = previous, kind
        if i + 1 < len(runs):
            passive = _passive(kind, run, *runs[i + 1])
        else:
            passive = None
        if kind == "latin":
            if fold(run) not in EN_STOP:
                out.append(Text(run))
            elif fold(run) in EN_HINTS:
                out.append(Text(EN_HINTS[fold(run)]))
        elif kind == "kata":
            out.append(Text(run))
            if passive:
                out.append(passive)
        elif kind == "hira":
            if after == "han":
                continue  # okurigana: 使えますか is looked for as 使
            rest = _strip_ja(run) if mixed else ("" if run in JA_STOP else run)
            if len(rest) >= (3 if mixed else 2):
                out.append(Text(rest))
        else:
            if han != "zh-Hans" and run in JA_HAN_STOP:
                if run in JA_HINTS:
                    out.append(Text(JA_HINTS[run]))
                continue
            for piece in ([run] if han == "ja" else _strip_zh(run, han)):
                out.extend(Text(p) for p in _han_pieces(piece))
            if han != "ja":
                out.extend(Text(hint) for word, hint in ZH_HINTS if word in run)
            if passive:
                out.append(passive)
    return out


def _strip_ja(run: str) -> str:
    changed = True
    while run and changed:
        changed = False
        for stop in JA_STOP:
            if run.startswith(stop):
                run, changed = run[len(stop):], True
                break
            if run.endswith(stop):
                run, changed = run[:-len(stop)], True
                break
    return run


def _strip_zh(run: str, han: str = "") -> list[str]:
    pieces = [run]
    for stop in ZH_STOP:
        pieces = [p for piece in pieces for p in piece.split(stop) if p]
    out = []
    for piece in pieces:
        while piece and piece[0] in ZH_LEADING:
            piece = piece[1:]
        while piece and piece[-1] in ZH_TRAILING:
            piece = piece[:-1]
        if piece and piece not in ZH_WHOLE and (han or piece not in JA_HAN_STOP):
            out.append(piece)
    return out


def _han_pieces(run: str) -> list[str]:
    """A run of ``[cjk] pairs_from`` (3) or more Han characters that is no glossary name, cut
    into pairs (most Chinese and many Japanese words have two characters); shorter runs stay
    whole."""
    if len(run) < PAIRS_FROM:
        return [run]
    out = [run[i:i + 2] for i in range(0, len(run) - 1, 2)]
    if len(run) % 2:
        out.append(run[-2:])
    return out
