"""The question bank told in one language: what the quiz page, the JSON bank and ``judge quiz``
show.

Every text comes from the ruling pages' own wording: the position is drawn as a ruling page
draws its set-up (:mod:`judge.site.board`), the steps are the replay's step titles and the
choices the question fixes are told as the replay tells them (:mod:`judge.narrate`), and an
answer is the sentences a ruling page gives an expectation's facts
(:func:`judge.site.sections.fact_sentences`: those of
:func:`~judge.site.sections.answer_sentences` without headings), for the facts in which the
answers differ.
The answers are in an order fixed by the variant's key (not the right one first). Nothing here
runs the engine.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Mapping
from typing import Any

from judge.engine.rulesets import RuleSet
from judge.i18n import N_, NP_, gettext_for, ngettext_for
from judge.narrate import Narrator, scenario_cards
from judge.quiz.bank import Answer, Bank, Variant
from judge.quiz.mistakes import BY_ID as MISTAKES
from judge.site.board import Board, Layout, Painter, board_of, frame_svg, layout_for
from judge.site.load import printed_keywords
from judge.site.sections import Words, fact_sentences

#: The bank's JSON format: bumped when a field changes meaning or goes away.
BANK_VERSION = 1

QUESTION = N_("What happens?")
#: A variant's main deck, by its number of cards (singular, plural).
DECK_CHANGE = NP_("Variant: %(player)s's main deck holds %(num)d card.",
                  "Variant: %(player)s's main deck holds %(num)d cards.")
CHANGES = {
    "life": N_("Variant: %(player)s has %(value)s life cloth."),
    "power": N_("Variant: the power of %(card)s is %(value)s."),
    "turn_player": N_("Variant: it is %(player)s's turn."),
}
SOURCES = {
    "rules": N_("This was the answer under the %(rules)s rules."),
    "branch": N_("This is what happens after another choice: %(choices)s"),
    "mistake": N_("This is what happens when a rule is broken."),
}
FORMATS = {"all-star": N_("All Star"), "key-selection": N_("Key Selection"),
           "diva-selection": N_("Diva Selection")}


def order(variant: Variant) -> list[int]:
    """The answers' order on the page: fixed by the variant's key, so the same bank gives the
    same page."""
    def rank(i: int) -> str:
        return hashlib.sha256(f"{variant.key}/{i}".encode()).hexdigest()
    return sorted(range(len(variant.answers)), key=rank)


def answer_text(variant: Variant, answer: Answer, L: Words, n: Narrator) -> str:
    """An answer as the sentences of the facts in which the answers differ."""
    return " ".join(fact_sentences(variant.told(answer), L, n))


def feedback(variant: Variant, answer: Answer, L: Words, n: Narrator) -> dict[str, Any]:
    """Why a wrong answer is wrong: where it comes from and the rule it breaks."""
    values: dict[str, str] = {}
    if answer.source == "rules":
        values["rules"] = L.rules([answer.rules])
    elif answer.source == "branch":
        values["choices"] = " ".join(n.event(e) for e in answer.choices)
    why = L._(SOURCES[answer.source], **values) if answer.source in SOURCES else ""
    return {"why": why, "breaks": [L._(MISTAKES[m].rule) for m in answer.breaks],
            "mistake": answer.breaks[0] if answer.breaks else ""}


class Boards:
    """The language-free part of the last variant's board (the board, its layout and its
    :class:`Painter`), kept for the next language: the site writes the three languages' banks
    side by side, variant by variant (:func:`judge.quiz.site.write_quiz`), and each draws the
    same set-up on the same layout."""

    def __init__(self) -> None:
        self._last: tuple[Variant, Board, Layout, Painter] | None = None

    def of(self, variant: Variant) -> tuple[Board, Layout, Painter]:
        if self._last is None or self._last[0] is not variant:
            setup = board_of(variant.trace.positions[0], printed_keywords(variant.scenario))
            layout = layout_for([setup])
            self._last = (variant, setup, layout, Painter(layout, [setup]))
        return self._last[1:]


def variant_entry(variant: Variant, lang: str, rulesets: Mapping[str, RuleSet],
                  glossary: Mapping[str, Mapping[str, str]] | None = None,
                  board: bool = True, boards: Boards | None = None) -> dict[str, Any]:
    """One question as asked in ``lang`` (``board``: with the set-up drawn as SVG; ``boards``:
    where the board of this variant drawn for another language may be kept)."""
    sc = variant.scenario
    L = Words(lang, rule_sets=rulesets)
    n = Narrator(lang, scenario_cards(sc), glossary, steps={s.index: s for s in sc.steps})
    svg = ""
    if board:
        setup, layout, painter = (boards or Boards()).of(variant)
        # the frame (drawn once a page) and the board on it, as a ruling page draws them
        svg = frame_svg(layout, n, painter.defs()) + painter.svg(setup, label=n.step_title(None))
    change = ""
    if variant.change is not None:
        c = variant.change
        player = n.player(c.subject or str(c.value))
        change = ngettext_for(lang, *DECK_CHANGE, int(c.value)) % {
            "player": player, "num": c.value} if c.kind == "deck" else \
            L._(CHANGES[c.kind], player=player, card=n.card(c.subject), value=c.value)
    answers = []
    for i in order(variant):
        a = variant.answers[i]
        answers.append({"text": answer_text(variant, a, L, n), "right": a.right,
                        "source": a.source, **feedback(variant, a, L, n)})
    title = sc.texts.get("title", {})
    return {
        "id": variant.key, "ruling": variant.ruling,
        "title": title.get(lang) or title.get("ja", ""),
        "rules": variant.rules, "rules_label": L.rules([variant.rules]),
        "format": sc.setup.format, "format_label": L._(FORMATS.get(sc.setup.format,
                                                                    sc.setup.format)),
        "difficulty": variant.difficulty, "change": change, "board": svg,
        "steps": [n.step_title(s) for s in sc.steps],
        "choices": [n.event(e) for e in variant.choices],
        "question": L._(QUESTION), "answers": answers,
    }


def bank_json(bank: Bank, lang: str, rulesets: Mapping[str, RuleSet],
              topics: Mapping[str, str], topic_names: Mapping[str, str],
              glossary: Mapping[str, Mapping[str, str]] | None = None,
              board: bool = True) -> dict[str, Any]:
    """The whole bank in ``lang``: ``topics`` maps a ruling to its topic, ``topic_names`` a
    topic to its name in ``lang``."""
    return {"version": BANK_VERSION, "lang": lang,
            "questions": list(bank_entries(bank, lang, rulesets, topics, topic_names,
                                           glossary, board)),
            "labels": {"question": gettext_for(lang, QUESTION)}}


def bank_entries(bank: Bank, lang: str, rulesets: Mapping[str, RuleSet],
                 topics: Mapping[str, str], topic_names: Mapping[str, str],
                 glossary: Mapping[str, Mapping[str, str]] | None = None,
                 board: bool = True, boards: Boards | None = None
                 ) -> Iterator[dict[str, Any]]:
    """The questions of :func:`bank_json`, made one at a time (the site writes them so;
    ``boards``: shared with the other languages' questions made side by side)."""
    for v in bank.variants:
        entry = variant_entry(v, lang, rulesets, glossary, board, boards)
        topic = topics.get(v.ruling, "")
        entry["topic"] = topic
        entry["topic_label"] = topic_names.get(topic, topic)
        yield entry
