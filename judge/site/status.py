"""``judge i18n-status``: what is not yet translated, per language, among every string a page
shows.

Counted, for English and Chinese (Japanese is the source language that every other falls back
to, so a missing Japanese text is a loading error, not a status line):

- ruling texts: title, question, answer, explanation, and the names of listed outcomes;
- the glossary: each term's name and definition;
- the source registry (``data/sources.toml``): each document's title and note, each section's
  name (the registry refuses a missing language, so these count but are never missing unless
  the registry is read from elsewhere);
- the rule sets: each one's title and summary (the timeline, the rule-set pages and chips);
- card names (the card key of a replay): a card of the library or of a ruling whose name is
  one text for every language, or lacks this language (a card with no name is shown by its
  label alone, in no language);
- tag and topic names: each must be named by the catalogues or the glossary, or it is shown
  as its id;
- the interface catalogues (a message without a translation, or a fuzzy one): authority
  labels, the interpretation label, outcome and timeline rows, narration, headings.

On the site every fallback shows a "not yet translated" notice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.corpus import Corpus
from judge.engine.cards import CardDef
from judge.i18n import catalog, catalogue_problems
from judge.langs import LANGS, TEXT_FIELDS

#: The kinds of string counted, in the order the report lists them.
CATEGORIES = ("rulings", "glossary", "sources", "rulesets", "cards", "tags", "catalogue")


@dataclass
class Missing:
    lang: str
    rulings: list[str] = field(default_factory=list)  # "path: id: field"
    glossary: list[str] = field(default_factory=list)  # "term: name|definition"
    sources: list[str] = field(default_factory=list)  # "source: title|note|sections.ID"
    rulesets: list[str] = field(default_factory=list)  # "rule set: title|summary"
    cards: list[str] = field(default_factory=list)  # "card (ruling): name"
    tags: list[str] = field(default_factory=list)  # "tag: ID" or "topic: ID" shown as its id
    catalogue: list[str] = field(default_factory=list)
    #: category -> how many strings of that kind a page may show in this language
    counted: dict[str, int] = field(default_factory=dict)

    @property
    def count(self) -> int:
        return sum(len(getattr(self, c)) for c in CATEGORIES)

    @property
    def total(self) -> int:
        return sum(self.counted.values())


def _check(m: Missing, category: str, texts: dict[str, str] | None, item: str) -> None:
    m.counted[category] = m.counted.get(category, 0) + 1
    if not texts or not texts.get(m.lang):
        getattr(m, category).append(item)


def _card(m: Missing, cid: str, card: CardDef, where: str) -> None:
    """A card's name: a table of languages, one string for all (then missing), or none at all
    (the card is shown by its label alone, in no language: not counted)."""
    if not card.names and card.name == cid:
        return
    how = "" if card.names else " (one string for every language)"
    _check(m, "cards", dict(card.names), f"{cid} ({where}): name{how}")


def missing(corpus: Corpus) -> list[Missing]:
    out = []
    for lang in LANGS:
        if lang == "ja":
            continue
        m = Missing(lang)
        for ruling in corpus.rulings:
            for name in TEXT_FIELDS:
                texts = ruling.scenario.texts.get(name)
                if texts:
                    _check(m, "rulings", texts, f"{ruling.path}: {ruling.id}: {name}")
            for i, exp in enumerate(ruling.scenario.expectations):
                for j, outcome in enumerate(exp.outcomes):
                    how = "" if outcome.names else " (one string for every language)"
                    _check(m, "rulings", outcome.names, f"{ruling.path}: {ruling.id}: "
                                                        f"expect[{i}].outcomes[{j}].name{how}")
            for cid, card in corpus.inline_cards(ruling).items():
                _card(m, cid, card, ruling.id)
        for term in corpus.glossary.values():
            _check(m, "glossary", dict(term.names), f"{term.id}: name")
            if term.definition:
                _check(m, "glossary", dict(term.definition), f"{term.id}: definition")
        for doc in corpus.sources.values():
            _check(m, "sources", dict(doc.titles), f"{doc.id}: title")
            if doc.note:
                _check(m, "sources", dict(doc.note), f"{doc.id}: note")
            for section in doc.sections.values():
                _check(m, "sources", dict(section.names), f"{doc.id}: sections.{section.id}")
        for rs in corpus.rulesets.values():
            _check(m, "rulesets", rs.title, f"{rs.id}: title")
            _check(m, "rulesets", rs.summary, f"{rs.id}: summary")
        for cid, card in corpus.cards.items():
            if corpus.card_files.get(cid):  # the library's own cards (not the built-in filler)
                _card(m, cid, card, corpus.card_files[cid])
        # a tag or topic is named by the catalogue (its name is then a message, checked with
        # the catalogue) or by the glossary; one named by neither is shown as its id
        from judge.site.context import TAG_NAMES
        from judge.site.topics import TOPIC_NAMES

        names = {lang: "named"}
        tags = dict.fromkeys(t for r in corpus.rulings for t in r.scenario.tags)
        for tag in sorted(tags):
            _check(m, "tags", names if tag in TAG_NAMES or tag in corpus.glossary else None,
                   f"tag: {tag} (shown as its id)")
        for topic in sorted({r.topic for r in corpus.rulings}):
            _check(m, "tags", names if topic in TOPIC_NAMES else None,
                   f"topic: {topic} (shown as its id)")
        m.catalogue = catalogue_problems(lang)
        m.counted["catalogue"] = sum(1 for message in catalog(lang) if message.id)
        out.append(m)
    return out


def report_lines(result: list[Missing]) -> list[str]:
    lines = []
    for m in result:
        lines.append(f"{m.lang}: {len(m.rulings)} ruling text(s), {len(m.glossary)} glossary "
                     f"entr{'y' if len(m.glossary) == 1 else 'ies'}, {len(m.sources)} source "
                     f"text(s), {len(m.rulesets)} rule-set text(s), {len(m.cards)} card "
                     f"name(s), {len(m.tags)} tag or topic name(s), {len(m.catalogue)} "
                     f"interface message(s) not yet translated, "
                     f"of {m.total} strings a page may show")
        lines.append("  counted: " + ", ".join(f"{c} {m.counted.get(c, 0)}" for c in CATEGORIES))
        lines.extend(f"  ruling   {item}" for item in m.rulings)
        lines.extend(f"  glossary {item}" for item in m.glossary)
        lines.extend(f"  source   {item}" for item in m.sources)
        lines.extend(f"  ruleset  {item}" for item in m.rulesets)
        lines.extend(f"  card     {item}" for item in m.cards)
        lines.extend(f"  tag      {item}" for item in m.tags)
        lines.extend(f"  message  {item}" for item in m.catalogue)
    return lines
