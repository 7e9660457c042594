"""One check, one moment: a round of rule processing that applies several kinds, or one kind to
several cards or players, is one group of the trace, drawn as one board at the check (every
condition visible and marked) and one board once every kind has applied, and told as one
moment ("At the same time, ...") in every language: on the ruling page and in the sandbox.

The rulings are found in the replays (every ruling whose page shows such a check), not
listed here: a ruling added later is held to the same.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache

import pytest

from judge.corpus import Corpus, Ruling, load_corpus
from judge.engine import events as ev
from judge.engine.rule_processing import BY_ID
from judge.engine.state import PLAYERS
from judge.engine.trace import Trace
from judge.i18n import LANGS, gettext_for
from judge.paths import project_root
from judge.site.load import load_ruling
from judge.site.replay import AFTER_CHECK, AT_CHECK
from judge.site.sandbox import render_sections, replay_text
from judge.site.sections import MOMENT_NAMES

#: How each language says that the kinds apply at once (narration's "rule_check:together").
AT_ONCE = {"en": "At the same time", "ja": "同時に", "zh-Hans": "同时"}
#: Rulings the issue names, which the corpus must keep: the refresh told before the power-0
#: SIGNI was banished, a board with the SIGNI still on the field after the refresh.
NAMED = ("power-zero-and-refresh-at-once", "banish-replaced-and-refresh-at-once",
         "empty-main-deck-refresh-both-players")


@cache
def corpus() -> Corpus:
    return load_corpus()


@dataclass(frozen=True)
class Moment:
    """A check of a page's trace that acts on several things at once."""

    ruling: Ruling
    rules: tuple[str, ...]
    trace: Trace
    check: ev.RuleCheck


def together(check: ev.RuleCheck) -> bool:
    """Two or more kinds at once, or one kind on two or more cards or players."""
    return len(check.kinds) >= 2 or len(getattr(check, "acts", ())) >= 2


def moments() -> Iterator[Moment]:
    """Every such check of every page's replays (the first branch of each group of rule
    sets: what the page tells and draws)."""
    for ruling in corpus().rulings:
        for group in load_ruling(ruling).replays:
            if group.trace is None:
                continue
            for e in group.trace.events:
                if isinstance(e, ev.RuleCheck) and together(e):
                    yield Moment(ruling, group.rules, group.trace, e)


@cache
def found() -> tuple[Moment, ...]:
    return tuple(moments())


def ruling_ids() -> list[str]:
    return sorted({m.ruling.id for m in found()})


def test_the_corpus_has_such_moments_and_the_named_ones() -> None:
    assert set(NAMED) <= set(ruling_ids()), ruling_ids()
    assert any(len(m.check.kinds) >= 2 for m in found())


def test_each_check_is_one_group_of_its_trace_holding_what_it_does() -> None:
    """The group holds the rule_check with the kinds and what each acts on, the owner's
    choice of order where one card would go to two places, and every move the kinds make;
    its positions show every condition at once, then every kind applied."""
    for m in found():
        group = m.trace.check_at(m.check.seq)
        where = f"{m.ruling.id} under {'/'.join(m.rules)}"
        assert group is not None and group.at == m.check.seq, where
        inside = m.trace.events[group.start:group.end]
        assert {a.kind for a in m.check.acts} >= set(m.check.kinds), where
        before, after = group.before.position, group.after.position
        by_card: dict[str, list[str]] = {}
        for act in m.check.acts:
            if act.kind == "refresh" and act.target in PLAYERS:
                assert not before.zone(act.target, "deck"), (where, act)
                assert any(isinstance(e, ev.Refresh | ev.Instead) and e.player == act.target
                           for e in inside), (where, act)
            else:
                by_card.setdefault(act.target, []).append(act.kind)
                zone, _ = before.find(act.target)
                moved = [e for e in inside if e.card == act.target and
                         isinstance(e, ev.Move | ev.Banish | ev.Replaced | ev.Instead)]
                assert moved or after.find(act.target)[0] == zone, (where, act)
        # where two kinds would send one card to two places, its owner's choice of the order,
        # asked while the kinds looked: in the group, before its rule_check
        orders = [e for e in m.trace.events[group.start:group.at]
                  if isinstance(e, ev.Choice) and e.kind == "rule_order"]
        for choice in orders:
            card = next(c for c, kinds in by_card.items()
                        if set(map(str, choice.options)) <= set(kinds))
            assert choice.player == before.find(card)[0].player, (where, choice)
        if m.ruling.id == "two-kinds-one-card-owner-chooses-order":
            assert orders and all(k in BY_ID for o in orders for k in map(str, o.options))


_FIGURE = re.compile(r'<figure>(?P<svg><svg class="board".*?</svg>)'
                     r'(?:<figcaption id="[^"]*">(?P<caption>.*?)</figcaption>)?</figure>', re.S)
_SENTENCE = re.compile(r"<li[^>]*>(.*?)</li>", re.S)
_SHARED = re.compile(r'<g id="(?P<id>[wz]\d+)">(?P<inside>.*?)</g>', re.S)
_USE = re.compile(r'<use href="#([wz]\d+)"/>')


def drawn(svg: str, shared: dict[str, str]) -> str:
    """What a board draws: its markup with the boxes and boards it shares with others (the
    frame's ``<g id="zN">``, ``<g id="wN">``) put in place of their ``<use>``."""
    while _USE.search(svg):
        svg = _USE.sub(lambda m: shared[m.group(1)], svg)
    return svg


def check_replay_html(text: str, m: Moment, lang: str) -> None:
    """The replay sections ``text`` (a ruling page's, or the sandbox's) show ``m`` as one
    moment in ``lang``: a sentence telling the kinds at once, then a board at the check that
    marks every card a kind acts on (``P1!``) and every empty main deck that refreshes
    (``0!``), then a board after rule processing."""
    at_caption = html.escape(gettext_for(lang, MOMENT_NAMES[AT_CHECK]), quote=True)
    after_caption = html.escape(gettext_for(lang, MOMENT_NAMES[AFTER_CHECK]), quote=True)
    shared = {g["id"]: g["inside"] for g in _SHARED.finditer(text)}
    figures = list(_FIGURE.finditer(text))
    at = [f for f in figures if f["caption"] == at_caption]
    assert at, f"{m.ruling.id} ({lang}): no board at the check"
    cards = [a.target for a in m.check.acts
             if not (a.kind == "refresh" and a.target in PLAYERS)]
    decks = sum(1 for a in m.check.acts if a.kind == "refresh" and a.target in PLAYERS)
    for figure in at:
        board = drawn(figure["svg"], shared)
        marked = set(re.findall(r'<tspan class="[^"]*\brp\b[^"]*">([A-Za-z][\w-]*)[^<]*!'
                                r'</tspan>', board))
        empty = len(re.findall(r'<text class="zc rp"[^>]*>0!</text>', board))
        if set(cards) <= marked and empty >= decks:
            break
    else:
        raise AssertionError(f"{m.ruling.id} ({lang}): no board at the check marks {cards} "
                             f"and {decks} empty main deck(s)")
    # told at once, before that board; the board after rule processing follows it
    told = [html.unescape(re.sub(r"<[^>]+>", "", s))
            for s in _SENTENCE.findall(text[:figure.start()])]
    assert told and told[-1 - _choices_after(m)].startswith(AT_ONCE[lang]), \
        (m.ruling.id, lang, told[-3:])
    later = [f["caption"] for f in figures if f.start() > figure.start()]
    assert after_caption in later, (m.ruling.id, lang, later)


def _choices_after(m: Moment) -> int:
    """The sentences told after the kinds at once and before the board at the check: the
    choices the kinds asked while they looked."""
    group = m.trace.check_at(m.check.seq)
    assert group is not None
    return sum(1 for e in m.trace.events[group.start:group.at]
               if isinstance(e, ev.Choice | ev.RefreshWaits))


@pytest.mark.parametrize("lang", LANGS)
def test_the_page_draws_the_check_and_tells_it_at_once(lang: str) -> None:
    for m in found():
        check_replay_html(render_sections(load_ruling(m.ruling), lang), m, lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_sandbox_shows_the_same_moment(lang: str) -> None:
    """The sandbox's answer for the ruling's file (what its worker runs under Pyodide)."""
    root = project_root()
    for rid in ruling_ids():
        ruling = next(r for r in corpus().rulings if r.id == rid)
        text = (root / ruling.path).read_text(encoding="utf-8")
        answer = replay_text(text, ruling.path, lang)
        assert answer["ok"], answer["report"]
        for m in found():
            if m.ruling.id == rid:
                check_replay_html(answer["html"], m, lang)
