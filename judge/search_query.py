"""The query language of ``judge search``: parsing and glossary expansion.

Syntax (docs/search.md)::

    refresh trash                 both words (AND is implied)
    refresh OR 重构               either
    refresh NOT battle            the first without the second (also: refresh -battle)
    "main deck"                   a phrase (also “...” and 「...」)
    (draw OR mill) refresh        grouping
    tag:refresh rules:2014-07 term:trash id:refresh-*

The query is NFKC-normalised before it is read, so full-width letters, digits, colons and
parentheses work. A query that cannot be read raises :class:`QueryError` with a one-line
message. :func:`expand` then replaces every glossary term found among the words with an
:class:`Expand` node that the search turns into "this text, or the term's name in Japanese,
English or Chinese".
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass

from judge.corpus import Term
from judge.errors import JudgeError
from judge.search_analysis import TOKEN_PATTERN, fold, is_cjk, normalize, text_analyzer, tokens

#: The fields of the query syntax, and the other spellings accepted for them.
FIELDS = ("tag", "rules", "term", "id")
FIELD_ALIASES = {"tags": "tag", "rule": "rules", "ruleset": "rules", "terms": "term"}
OPERATORS = ("AND", "OR", "NOT")
_QUOTES = {'"': '"', "“": "”", "「": "」", "『": "』"}
_FIELD = re.compile(r"^([A-Za-z][A-Za-z_-]*):(.*)$", re.S)


class QueryError(JudgeError):
    """A search query that cannot be read."""


# ---------------------------------------------------------------------- the syntax tree


@dataclass(frozen=True)
class Text:
    """A word, or a quoted phrase (``phrase``)."""

    text: str
    phrase: bool = False


@dataclass(frozen=True)
class Field:
    """``name:value``; name is one of :data:`FIELDS`."""

    name: str
    value: str


@dataclass(frozen=True)
class Expand:
    """Glossary term ``term`` as written in the query (``text``)."""

    text: str
    term: str


@dataclass(frozen=True)
class Not:
    node: Node


@dataclass(frozen=True)
class And:
    nodes: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    nodes: tuple[Node, ...]


Node = Text | Field | Expand | Not | And | Or


def show(node: Node) -> str:
    """The query as read, for messages and ``--json`` (``term→id`` marks an expansion)."""
    if isinstance(node, Text):
        return f'"{node.text}"' if node.phrase else node.text
    if isinstance(node, Field):
        return f"{node.name}:{node.value}"
    if isinstance(node, Expand):
        return f"{node.text}→{node.term}"
    if isinstance(node, Not):
        return f"NOT {show(node.node)}"
    joiner = " AND " if isinstance(node, And) else " OR "
    return "(" + joiner.join(show(n) for n in node.nodes) + ")"


# ---------------------------------------------------------------------- lexing and parsing


@dataclass(frozen=True)
class _Tok:
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
            field = _FIELD.match(word)
            if field and not field.group(1)[0].isdigit():
                name = field.group(1).lower()
                name = FIELD_ALIASES.get(name, name)
                if name not in FIELDS:
                    raise QueryError(f"unknown field {field.group(1)!r} in {word!r} "
                                     f"(valid: {', '.join(FIELDS)})")
                value = field.group(2)
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


_EXAMPLE = {"tag": "refresh", "rules": "2014-07", "term": "trash", "id": "refresh-steps"}


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
        while (tok := self.peek()) is not None and not (tok.kind == ")" or
                                                         (tok.kind == "op" and tok.text == "OR")):
            if tok.kind == "op" and tok.text == "AND":
                self.take()
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
        return nodes[0] if len(nodes) == 1 else And(tuple(nodes))

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


# ---------------------------------------------------------------------- glossary expansion


class Glossary:
    """The glossary's names and aliases, folded and stemmed the way the index reads text."""

    def __init__(self, terms: Iterable[Term]) -> None:
        self.terms = {t.id: t for t in terms}
        self.latin: dict[tuple[str, ...], str] = {}
        self.cjk: dict[str, str] = {}
        analyzer = text_analyzer()
        for term in self.terms.values():
            for form in term.forms:
                folded = fold(form)
                if is_cjk(folded):
                    if len(folded) >= 2:
                        self.cjk.setdefault(folded, term.id)
                    continue
                key = tuple(t[0] for t in tokens(analyzer, form))
                if key and (len(key) > 1 or len(key[0]) > 1):
                    self.latin.setdefault(key, term.id)
        self.longest_latin = max((len(k) for k in self.latin), default=0)
        self.longest_cjk = max((len(k) for k in self.cjk), default=0)
        self._analyzer = analyzer

    def resolve(self, text: str) -> Term | None:
        """The term whose id, name or alias is ``text`` (folded; English stemmed)."""
        if text in self.terms:
            return self.terms[text]
        folded = fold(text)
        for term in self.terms.values():
            if folded == term.id or any(folded == fold(f) for f in term.forms):
                return term
        key = self.key(text)
        term_id = self.latin.get(key) if key else None
        return self.terms[term_id] if term_id else None

    def key(self, text: str) -> tuple[str, ...]:
        return tuple(t[0] for t in tokens(self._analyzer, text))


def expand(node: Node, glossary: Glossary) -> Node:
    """Replace glossary terms among the words of ``node`` by :class:`Expand` nodes."""
    if isinstance(node, And):
        return _and(_expand_sequence(list(node.nodes), glossary))
    if isinstance(node, Or):
        return Or(tuple(expand(n, glossary) for n in node.nodes))
    if isinstance(node, Not):
        return Not(expand(node.node, glossary))
    if isinstance(node, Text):
        return _and(_expand_sequence([node], glossary))
    return node


def _and(nodes: list[Node]) -> Node:
    return nodes[0] if len(nodes) == 1 else And(tuple(nodes))


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
        # the longest run of plain Latin words that spells a glossary name
        match = 0
        term_id = ""
        run: list[str] = []
        for j in range(i, min(len(nodes), i + max(glossary.longest_latin, 1))):
            nxt = nodes[j]
            if not isinstance(nxt, Text) or nxt.phrase or is_cjk(nxt.text):
                break
            run.append(nxt.text)
            found = glossary.latin.get(glossary.key(" ".join(run)))
            if found:
                match, term_id = j + 1 - i, found
        if match:
            out.append(Expand(" ".join(run[:match]), term_id))
            i += match
            continue
        out.extend(_expand_word(node.text, glossary))
        i += 1
    return out


def _expand_word(word: str, glossary: Glossary) -> list[Node]:
    """Split one word around the glossary names written inside it: CJK runs by substring
    (longest name first), Latin runs as whole words. The pieces left over stay words. Names
    are matched on the folded word; the pieces keep the word's own spelling."""
    folded, starts, ends = normalize(word)
    runs = list(TOKEN_PATTERN.finditer(folded))
    if len(runs) <= 1 and not is_cjk(folded):
        return [Text(word)]
    found: list[tuple[int, int, str]] = []  # folded start, end, term id
    for match in runs:
        run, base = match.group(0), match.start()
        if not is_cjk(run):
            term_id = glossary.latin.get(glossary.key(run)) if len(run) > 1 else None
            if term_id:
                found.append((base, match.end(), term_id))
            continue
        i = 0
        while i < len(run):
            for size in range(min(glossary.longest_cjk, len(run) - i), 1, -1):
                term_id = glossary.cjk.get(run[i:i + size])
                if term_id:
                    found.append((base + i, base + i + size, term_id))
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
        rest = original(pos, start)
        if rest.strip():
            pieces.append(Text(rest.strip()))
        pieces.append(Expand(original(start, end), term_id))
        pos = end
    rest = original(pos, len(folded))
    if rest.strip():
        pieces.append(Text(rest.strip()))
    return pieces
