"""Query plans: what a query is looked for as, the same for SQLite FTS5 and the site's index.

A query, once read (:mod:`judge.search.query`: parsed, corrected, expanded, refined), becomes a
:class:`Plan`: its *words* (``concepts``: each an expression of phrases, the alternatives the
ranking coordinates), the phrases of two neighbouring words close together (``near``), the
strict parts (``musts``: filters, ``AND``) and what must not be there (``nots``). An
expression is built of :class:`Phrase`, :class:`Near`, :class:`AnyOf` and :class:`AllOf`;
:func:`fts` writes it in FTS5's query syntax for ``judge search``, and the site's search
(``search-engine.js``) builds the same expressions and evaluates them over its index files.
Both write the plan the same way (:meth:`Plan.describe`), which the parity test compares.

Nothing here reads the index: whether a word is known and what it may be corrected to are
asked of the caller (``known`` and ``suggest`` of :func:`make_plan`).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable, Sequence
from typing import NamedTuple

from judge.langs import LANGS
from judge.search.analysis import PREFIX, fold, is_cjk, latin_token, query_tokens
from judge.search.definition import definition
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
    han_pair,
    kana_piece,
    katakana,
    katakana_runs,
    parse,
    quote,
    refine,
    show,
    suggest_kana,
)

#: Two neighbouring words of a query also count as a phrase within this many tokens.
NEAR = int(definition()["ranking"]["near"])
#: ... and when either word is Japanese or Chinese (its tokens are characters, not words).
NEAR_CJK = int(definition()["ranking"]["near_cjk"])
#: The column of the filters' tokens (``tag_refresh``, ``kind_ruling``).
META = "meta"


class Phrase(NamedTuple):
    """Tokens next to each other, the last one only as the start of a token (``prefix``), in
    every column but ``meta`` or only in the ``meta`` column (``column``)."""

    tokens: tuple[str, ...]
    prefix: bool = False
    column: str = ""


class Near(NamedTuple):
    """Two phrases in one column, at most ``distance`` tokens between them."""

    left: Phrase
    right: Phrase
    distance: int


class AnyOf(NamedTuple):
    nodes: tuple[Expr, ...]


class AllOf(NamedTuple):
    """Every one of ``nodes`` and none of ``nots``."""

    nodes: tuple[Expr, ...]
    nots: tuple[Expr, ...] = ()


Expr = Phrase | Near | AnyOf | AllOf
#: A phrase nothing matches (a word of punctuation only).
NOTHING = Phrase(("_",))


def fts(expr: Expr) -> str:
    """``expr`` in FTS5's query syntax."""
    if isinstance(expr, Phrase):
        body = '"' + " ".join(expr.tokens) + '"' + (" *" if expr.prefix else "")
        return f"{expr.column} : {body}" if expr.column else body
    if isinstance(expr, Near):
        return f"NEAR({fts(expr.left)} {fts(expr.right)}, {expr.distance})"
    if isinstance(expr, AnyOf):
        if len(expr.nodes) == 1:
            return fts(expr.nodes[0])
        return "(" + " OR ".join(fts(n) for n in expr.nodes) + ")"
    return "(" + " AND ".join(fts(n) for n in expr.nodes) + \
        "".join(f" NOT {fts(n)}" for n in expr.nots) + ")"


def meta_token(name: str, value: str) -> str:
    """The ``meta`` column's token of a filter value (``tag``, ``refresh``: ``tag_refresh``)."""
    out = []
    for char in value.lower():
        out.append(char if ("0" <= char <= "9" or "a" <= char <= "z") else "_")
    return f"{name}_" + "".join(out)


class Plan:
    """A query made ready for the index (see the module)."""

    def __init__(self) -> None:
        self.concepts: list[Expr] = []  # the words: alternatives, coordinated
        self.near: list[tuple[int, int, Near]] = []  # neighbouring words, close together
        self.musts: list[Expr] = []  # filters and strict parts
        self.nots: list[Expr] = []
        self.highlight: set[str] = set()
        self.bare_term = ""  # the query is this glossary term and nothing else
        self.terms: list[str] = []  # the glossary terms its words name, in order

    def query(self, keep: set[int] | None = None) -> AllOf | None:
        """The expression of every result (None when only NOT parts are left); with ``keep``,
        of those holding one of these words (by their index in ``concepts``)."""
        concepts = [c for i, c in enumerate(self.concepts) if keep is None or i in keep]
        parts: list[Expr] = []
        if concepts:
            parts.append(AnyOf(tuple(concepts)))
        parts += self.musts
        if not parts:
            return None
        return AllOf(tuple(parts), tuple(self.nots))

    def nears(self, keep: set[int] | None = None, common: frozenset[int] = frozenset()
              ) -> list[Near]:
        """The neighbouring words looked for close together: with ``keep``, those of which one
        is kept; never two ``common`` ones. (A text holding them close together holds both
        words: they only add to the score, :meth:`judge.search.engine.SearchIndex.collect`.)"""
        return [e for i, j, e in self.near if (keep is None or i in keep or j in keep)
                and not (i in common and j in common)]

    def complete(self) -> AllOf:
        """The expression of the results that hold every word."""
        return AllOf((*self.concepts, *self.musts), tuple(self.nots))

    def describe(self) -> str:
        """The plan in one line (FTS5 syntax), as both sides write it."""
        top = self.query()
        words = " | ".join(fts(c) for c in self.concepts)
        near = " | ".join(fts(n) for n in self.nears())
        return (f"{top_fts(top) if top else ''} ; near: {near} ; words: {words} ; "
                f"term: {self.bare_term} ; terms: {' '.join(self.terms)}")


def near_distance(left: Phrase, right: Phrase) -> int:
    """How many tokens may come between two neighbouring words found close together: ``near``
    tokens, ``near_cjk`` when either word is Japanese or Chinese."""
    return NEAR_CJK if any(is_cjk(t) for t in (*left.tokens, *right.tokens)) else NEAR


def top_fts(expr: AllOf) -> str:
    """The top expression of a plan in FTS5's syntax: its parts joined by ``AND`` without
    parentheses around the whole, then each ``NOT``."""
    return " AND ".join(fts(n) for n in expr.nodes) + \
        "".join(f" NOT {fts(n)}" for n in expr.nots)


def phrase_of(text: str, tokens: list[str] | None = None) -> Phrase:
    """The phrase a query text is looked for as (its :func:`query_tokens`)."""
    tokens = list(query_tokens(text) if tokens is None else tokens)
    if not tokens:
        return NOTHING
    prefix = tokens[-1].endswith(PREFIX)
    if prefix:
        tokens[-1] = tokens[-1][:-len(PREFIX)]
    return Phrase(tuple(tokens), prefix)


def highlights(text: str, tokens: list[str] | None = None) -> list[str]:
    """What a query text marks in a snippet: its Latin tokens (a phrase of them joined by
    spaces, marked where they follow each other) and its folded CJK runs."""
    from judge.search.analysis import TOKEN_PATTERN

    tokens = query_tokens(text) if tokens is None else tokens
    latin = [t for t in tokens if not is_cjk(t)]
    out = [" ".join(latin)] if len(latin) == len(tokens) > 1 else latin
    out += [m.group(0) for m in TOKEN_PATTERN.finditer(fold(text)) if is_cjk(m.group(0))]
    return out


class Planner:
    """Turns queries into plans for one index: its glossary, its rule sets, and its
    vocabulary (``known(token)``: whether any result holds the English token;
    ``suggest(word)``: the index word closest to a misspelt one, or None)."""

    def __init__(self, glossary: Glossary, rulesets: Sequence[str],
                 known: Callable[[str], bool], suggest: Callable[[str], str | None],
                 known_han: Callable[[str], bool] | None = None,
                 suggest_han: Callable[[str], str | None] | None = None,
                 holds: Callable[[str], bool] | None = None) -> None:
        self.glossary = glossary
        self.rulesets = tuple(rulesets)
        self.known = known
        self.suggest = suggest
        self.known_han = known_han
        self.suggest_han = suggest_han
        self.holds = holds
        #: the glossary's names and aliases (folded), in code-point order
        self.kana_keys = sorted(k for k in glossary.cjk if kana_piece(k))

    def fix_kana(self, word: str) -> str | None:
        """The word with each of its katakana runs of ``[typos] kana_min_length`` characters
        or more that is no glossary form and that no result holds (as the phrase of its
        tokens) replaced by the closest glossary form written in kana
        (:func:`judge.search.query.suggest_kana`), in katakana; None when nothing changes."""
        least = int(definition()["typos"].get("kana_min_length", 0))
        if self.holds is None or not least:
            return None
        out, changed = [], False
        for kind, run in katakana_runs(word):
            if kind and len(run) >= least and fold(run) not in self.glossary.cjk \
                    and not self.holds(run):
                better = suggest_kana(fold(run), self.kana_keys)
                if better is not None:
                    run, changed = katakana(better), True
            out.append(run)
        return "".join(out) if changed else None

    def fix_dash(self, word: str) -> str | None:
        """The word with each dash between two katakana runs (``[fold] long_marks``) read
        as the prolonged sound mark only where results hold the runs so joined
        (``ライフバ-スト``); else as nothing where results hold the runs written together
        (``ルリグ-デッキ``: ``ルリグデッキ``), else as a space (two words); None when the
        word holds no such dash."""
        if self.holds is None:
            return None
        marks = definition()["fold"]["long_marks"]
        runs = katakana_runs(unicodedata.normalize("NFKC", word))
        out, changed = [run for _, run in runs], False
        for i in range(1, len(runs) - 1):
            if runs[i][0] or len(runs[i][1]) != 1 or runs[i][1] not in marks \
                    or not (runs[i - 1][0] and runs[i + 1][0]):
                continue
            left, right = runs[i - 1][1], runs[i + 1][1]
            if self.holds(left + "\u30fc" + right):
                continue
            out[i], changed = ("" if self.holds(left + right) else " "), True
        return "".join(out) if changed else None

    def fix_homophone(self, word: str) -> str | None:
        """The word with each common slip of a kanji for another of the same reading
        (``[typos] homophones``: ``会わ`` for ``合わ``) replaced, where no result holds the
        slip and results hold its replacement; None when nothing changes."""
        if self.holds is None:
            return None
        out = word
        for typed, meant in definition()["typos"].get("homophones", []):
            if typed in out and not self.holds(typed) and self.holds(meant):
                out = out.replace(typed, meant)
        return out if out != word else None

    def fix_han(self, word: str, swaps: dict[str, str]) -> str | None:
        """The correction of a piece of a refined query that is two Han characters no result
        holds (``[typos] han`` of the definition): a pair of a glossary name or alias one
        character away, or None. ``swaps``: the characters replaced in the query's pieces
        before this one, each by its replacement: a piece holding one of them is corrected
        the same way (破怀时 is 破怀 and 怀时: 破坏, then 坏时), and a new replacement is added."""
        folded = fold(word)
        if self.known_han is None or self.suggest_han is None or not han_pair(folded) \
                or not definition()["typos"].get("han", False) or self.known_han(folded):
            return None
        swapped = "".join(swaps.get(c, c) for c in folded)
        if swapped != folded:
            return swapped
        better = self.suggest_han(folded)
        if better is not None:
            for typed, meant in zip(folded, better, strict=True):
                if typed != meant:
                    swaps[typed] = meant
        return better

    def fix(self, word: str) -> str | None:
        """The correction of a word: an English word of five letters or more (the
        definition's ``[typos] min_length``), not a common word, that neither the glossary
        nor the index knows."""
        folded = fold(word)
        if not (folded.isascii() and folded.isalpha()) \
                or len(folded) < int(definition()["typos"]["min_length"]) or folded in EN_STOP:
            return None
        token = latin_token(folded)
        if token in self.glossary.words or self.known(token):
            return None
        return self.suggest(folded)

    def plan(self, text: str, *, han: str = "", tags: Sequence[str] = (),
             rules: str | None = None, term: str | None = None, kind: str | None = None,
             official: bool = False) -> tuple[Node | None, Plan, list[tuple[str, str]]]:
        """Read a query: parse, correct, expand, leave out common words (``han``: the
        language of its Han characters, :func:`judge.search.query.refine`), add the option
        filters. Returns the node as read, its plan and the corrections made."""
        node = parse(text) if text.strip() else None
        fixes: list[tuple[str, str]] = []
        if node is not None:
            node, fixes = correct(node, self.fix)
            node, more = correct(node, self.fix_dash)
            fixes += more
            node, more = correct(node, self.fix_kana)
            fixes += more
            node, more = correct(node, self.fix_homophone)
            fixes += more
            node = refine(expand(node, self.glossary), han)
            if node is not None:
                swaps: dict[str, str] = {}
                node, more = correct(node, lambda w: self.fix_han(w, swaps))
                fixes += more
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
        previous: Phrase | None = None
        at = -1
        for child in children:
            if isinstance(child, Not):
                plan.nots.append(self.expr(child.node, plan, negated=True))
            elif isinstance(child, Field):
                plan.musts.append(self.expr(child, plan))
            else:
                plan.concepts.append(self.expr(child, plan))
                if isinstance(child, Expand):
                    plan.terms.append(child.term)
                # two neighbouring words of the query, as written, close together in a text
                # count again: "hand limit" ranks "the hand limit" above "hand ... limit"
                written = phrase_of(child.text) if isinstance(child, Text | Expand) else None
                if previous is not None and written is not None:
                    plan.near.append((at, len(plan.concepts) - 1,
                                      Near(previous, written, near_distance(previous, written))))
                previous, at = written, len(plan.concepts) - 1
        plan.musts += [self.expr(f, plan) for f in extra]
        if len(children) == 1 and isinstance(children[0], Expand) and not plan.musts:
            plan.bare_term = children[0].term
        shown = node if not extra else And(tuple(([node] if node else []) + extra), soft=True)
        return shown, plan, fixes

    def expr(self, node: Node, plan: Plan, negated: bool = False) -> Expr:
        if isinstance(node, Text):
            return self.text(node.text, plan, negated)
        if isinstance(node, Expand):
            term = self.glossary.terms[node.term]
            forms = [node.text, *(term.names[lang] for lang in LANGS if lang in term.names)]
            phrases = list(dict.fromkeys(self.text(f, plan, negated) for f in forms))
            return phrases[0] if len(phrases) == 1 else AnyOf(tuple(phrases))
        if isinstance(node, Field):
            return self.field(node)
        if isinstance(node, Not):
            raise QueryError(f"{quote(show(node))} needs something to search for beside it "
                             "(NOT cannot stand alone inside OR or parentheses)")
        if isinstance(node, Or):
            return AnyOf(tuple(self.expr(n, plan, negated) for n in node.nodes))
        positive = [self.expr(n, plan, negated) for n in node.nodes if not isinstance(n, Not)]
        negative = [self.expr(n.node, plan, not negated) for n in node.nodes
                    if isinstance(n, Not)]
        if not positive:
            raise QueryError(f"{quote(show(node))} needs something to search for beside NOT")
        return AllOf(tuple(positive), tuple(negative))

    def text(self, text: str, plan: Plan, negated: bool) -> Phrase:
        tokens = query_tokens(text)
        phrase = phrase_of(text, tokens)
        if not negated and phrase != NOTHING:
            plan.highlight.update(highlights(text, tokens))
        return phrase

    def field(self, node: Field) -> Phrase:
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
            return Phrase((meta_token("id", value[:-1]),), True, META)
        return Phrase((meta_token(node.name, value),), False, META)
