"""What ``judge search`` finds: one document per ruling, glossary term, kind of rule
processing and rule-change timeline entry (the four result kinds of docs/search.md).

Only :func:`corpus_documents` reads the corpus (and imports the rules engine and the message
catalogues to do so); a search itself never imports this module's dependencies.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from types import MappingProxyType
from typing import Any, NamedTuple

from judge.langs import LANGS

BODY_FIELDS = ("answer", "question", "explanation")

#: The glossary terms a searcher brings to each kind of rule processing besides the kind's own
#: (its ``term``). The kind's name and definition are its declaration's (``name`` and
#: ``description`` in judge/engine/rule_processing/, translated by the catalogues), as on the
#: site's processing page.
PROCESSING_TERMS: dict[str, tuple[str, ...]] = {
    "power": ("power", "banish", "signi"),
    "excess": ("exceed-level-limit", "level", "limit", "trash"),
    "under": ("charm", "accessory", "rise", "trash"),
    "check": ("check-zone", "crush", "life-burst", "ener-zone"),
    "refresh": ("refresh", "main-deck", "trash", "life-cloth"),
    "resona": ("resona", "lrig-deck"),
    "key": ("key", "lrig-trash"),
    "upper_limit": ("key", "accessory", "trash", "lrig-trash"),
    "limiting": ("limiting-condition", "lrig-type", "centre-lrig"),
    "lrig_type": ("lrig-type", "assist-lrig", "centre-lrig", "lrig-trash"),
}
#: The empty texts of a document without them (shared: it cannot be changed).
NONE: Mapping[str, str] = MappingProxyType({})
#: Words that every rule-change entry is found by, beside its own title and summary.
CHANGE_WORDS = "ルール変更 改定 rule change revision 规则变更 修订"


class SearchDoc(NamedTuple):
    """One result the index holds.

    ``titles`` and ``bodies`` (the text shown under the title: a ruling's answer, a term's or
    a kind's definition, a rule change's summary) by language; ``questions`` and
    ``explanations`` are indexed but not shown; ``keywords`` (a ruling's id, tags and the
    names of the terms it lists; a term's aliases) are indexed with a low weight; ``label``
    is shown beside the id."""

    id: str
    path: str
    titles: Mapping[str, str]
    bodies: Mapping[str, str] = NONE
    tags: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    terms: tuple[str, ...] = ()
    kind: str = "ruling"
    questions: Mapping[str, str] = NONE
    explanations: Mapping[str, str] = NONE
    keywords: str = ""
    label: str = ""
    #: a ruling's basis: ``official`` (it cites an official or officially quoted document) or
    #: ``community``; empty for the other kinds
    basis: str = ""


def _texts(listing: Any, name: str) -> dict[str, str]:
    """A text field by language, without the marks of interpretations (the sentence stays)."""
    from judge.sources import strip_marks

    texts = listing.texts.get(name, {})
    return {lang: strip_marks(t) for lang in LANGS if (t := texts.get(lang))}


def ruling_doc(listing: Any, path: str, glossary: Mapping[str, Any],
               registry: Mapping[str, Any] | None = None) -> SearchDoc:
    """The document of a ruling at ``path`` from what it lists: its id, texts, tags, terms,
    rule sets and citations, as its :class:`~judge.scenario.model.Scenario` or the site's
    summary of it (:class:`judge.site.load.RulingSummary`) hold them; ``registry`` (the
    source registry) tells whether it rests on official text."""
    from judge.sources import rests_on_official

    names = [n for t in listing.terms if t in glossary
             for n in glossary[t].names.values()]
    # the id too: its authors sum the ruling up in it (cost-exact-payment-no-overpaying)
    keywords = " ".join([listing.id.replace("-", " "),
                         *(t.replace("-", " ") for t in listing.tags), *names])
    return SearchDoc(id=listing.id, path=path, titles=_texts(listing, "title"),
                     bodies=_texts(listing, "answer"), questions=_texts(listing, "question"),
                     explanations=_texts(listing, "explanation"), tags=tuple(listing.tags),
                     rules=tuple(listing.rulesets), terms=tuple(listing.terms),
                     keywords=keywords,
                     basis="official" if rests_on_official(listing.sources, registry or {})
                     else "community")


def term_docs(terms: Iterable[Any]) -> Iterator[SearchDoc]:
    """A document per glossary term (:class:`judge.corpus.Term`): its names, its definition,
    its aliases."""
    for term in terms:
        yield SearchDoc(id=f"term:{term.id}", path="data/glossary.toml", kind="term",
                        titles=dict(term.names), bodies=dict(term.definition),
                        terms=(term.id,), keywords=" ".join(term.aliases),
                        label=term.main and f"main ruling {term.main}")


def processing_docs(glossary: Mapping[str, Any]) -> Iterator[SearchDoc]:
    """A document per kind of rule processing: its number and name, its one-sentence
    definition (the declaration's ``name`` and ``description``, translated), its term and
    those of :data:`PROCESSING_TERMS`."""
    from judge.engine.rule_processing import TABLE
    from judge.i18n import gettext_for

    rule = glossary.get("rule-processing")
    for kind in TABLE:
        related = tuple(dict.fromkeys(
            (*((kind.term,) if kind.term else ()), *PROCESSING_TERMS.get(kind.id, ()))))
        titles = {lang: f"{kind.number}. {gettext_for(lang, kind.name)}" for lang in LANGS}
        definition = {lang: gettext_for(lang, kind.description) for lang in LANGS}
        words = [*(rule.names.values() if rule else ()), *(rule.aliases if rule else ())]
        words += [n for t in related if t in glossary for n in glossary[t].names.values()]
        yield SearchDoc(id=f"processing:{kind.id}", path="judge/engine/rule_processing/",
                        kind="processing", titles=titles, bodies=definition,
                        terms=("rule-processing", *related), keywords=" ".join(words),
                        label=f"kind {kind.number}")


def change_docs(rulesets: Iterable[Any],
                registry: Mapping[str, Any] | None = None) -> Iterator[SearchDoc]:
    """A document per dated rule set (:class:`judge.engine.rulesets.RuleSet`): the change it
    brought, as the timeline shows it, found also by the titles of the documents it cites
    (``registry``: :func:`judge.sources.load_sources`)."""
    registry = registry or {}
    for rs in rulesets:
        cited = dict.fromkeys(c.partition("#")[0] for c in rs.sources)
        titles = [t for c in cited if c in registry for t in registry[c].titles.values()]
        yield SearchDoc(id=f"change:{rs.id}", path="data/rulesets.toml", kind="change",
                        titles=dict(rs.title), bodies=dict(rs.summary), rules=(rs.id,),
                        keywords=" ".join([CHANGE_WORDS, rs.id, *titles]),
                        label=f"from {rs.start}")


def corpus_documents(root: Path) -> tuple[list[SearchDoc], list[Any], list[str]]:
    """Every document of the corpus at ``root``, the glossary terms and the rule set ids."""
    from judge.corpus import load_corpus

    return documents(load_corpus(root, replay=False))


def documents(corpus: Any, listed: Iterable[Any] | None = None
              ) -> tuple[list[SearchDoc], list[Any], list[str]]:
    """Every document of a loaded corpus (:class:`judge.corpus.Corpus`), in the order both
    indexes number them (rulings by id, glossary terms, kinds of rule processing, rule
    changes), the glossary terms and the rule set ids. ``listed``: the rulings as summaries
    already made, in order of id (``judge build``'s, which has no need to load each file
    again); without it, the corpus' rulings."""
    glossary = dict(corpus.glossary)
    if listed is None:
        docs = [ruling_doc(r.scenario, r.path, glossary, corpus.sources)
                for r in corpus.rulings]
    else:
        docs = [ruling_doc(d, d.path, glossary, corpus.sources) for d in listed]
    docs += term_docs(glossary.values())
    docs += processing_docs(glossary)
    docs += change_docs(corpus.rulesets.values(), corpus.sources)
    return docs, list(glossary.values()), list(corpus.rulesets)
