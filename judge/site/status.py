"""``judge i18n-status``: what is not yet translated, per language.

Ruling texts (title, question, answer, explanation, and the names of listed outcomes) and the
glossary (each term's name and
definition) are checked for English and Chinese; Japanese is the source language that every
other falls back to, so a missing Japanese text is a loading error, not a status line. The
interface catalogues are checked too (a message without a translation, or a fuzzy one). On
the site every fallback shows a "not yet translated" notice.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.corpus import Corpus
from judge.i18n import catalogue_problems
from judge.langs import LANGS, TEXT_FIELDS


@dataclass
class Missing:
    lang: str
    rulings: list[str] = field(default_factory=list)  # "path: id: field"
    glossary: list[str] = field(default_factory=list)  # "term: name|definition"
    catalogue: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        return len(self.rulings) + len(self.glossary) + len(self.catalogue)


def missing(corpus: Corpus) -> list[Missing]:
    out = []
    for lang in LANGS:
        if lang == "ja":
            continue
        m = Missing(lang)
        for ruling in corpus.rulings:
            for name in TEXT_FIELDS:
                texts = ruling.scenario.texts.get(name)
                if texts and not texts.get(lang):
                    m.rulings.append(f"{ruling.path}: {ruling.id}: {name}")
            for i, exp in enumerate(ruling.scenario.expectations):
                for j, outcome in enumerate(exp.outcomes):
                    if not outcome.names.get(lang):
                        how = "" if outcome.names else " (one string for every language)"
                        m.rulings.append(f"{ruling.path}: {ruling.id}: "
                                         f"expect[{i}].outcomes[{j}].name{how}")
        for term in corpus.glossary.values():
            if not term.names.get(lang):
                m.glossary.append(f"{term.id}: name")
            if term.definition and not term.definition.get(lang):
                m.glossary.append(f"{term.id}: definition")
        m.catalogue = catalogue_problems(lang)
        out.append(m)
    return out


def report_lines(result: list[Missing]) -> list[str]:
    lines = []
    for m in result:
        lines.append(f"{m.lang}: {len(m.rulings)} ruling text(s), {len(m.glossary)} glossary "
                     f"entr{'y' if len(m.glossary) == 1 else 'ies'}, {len(m.catalogue)} "
                     f"interface message(s) not yet translated")
        lines.extend(f"  ruling   {item}" for item in m.rulings)
        lines.extend(f"  glossary {item}" for item in m.glossary)
        lines.extend(f"  message  {item}" for item in m.catalogue)
    return lines
