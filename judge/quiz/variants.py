"""Variants of a question: the same ruling with other numbers in its set-up.

:func:`changes` lists what may change in a ruling's set-up, each a
:class:`~judge.quiz.bank.Change`: one card more or fewer in a main deck that holds some, one
life cloth more or fewer, a SIGNI on the field with the power of another SIGNI there (and
1000 above it: where battles and power checks turn), and the other player as the turn player.
:func:`changed` makes the changed scenario; the bank replays it (when :func:`matters` says
the change could change the outcome) and keeps it only if its replay is valid and its outcome
tells differently from the other variants' (:mod:`judge.quiz.bank`).
Nothing here runs the engine.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from typing import Final

from judge.engine import events as ev
from judge.engine.state import ON_FIELD
from judge.engine.trace import Trace
from judge.quiz.bank import Change
from judge.scenario.model import Placement, Scenario

#: At most this many power changes per ruling (the first SIGNI on the field first).
MAX_POWER_CHANGES: Final = 4
#: The most life cloth a variant gives a player (the most a game starts with).
MAX_LIFE: Final = 7
#: The prefix of the labels of cards a variant adds (no ruling uses it: labels are checked
#: to be unused before one is made).
NEW_LABEL: Final = "qz"


def _count(scenario: Scenario, player: str, zone: str) -> list[Placement]:
    return [p for p in scenario.setup.placements if p.player == player and p.zone == zone]


def changes(scenario: Scenario) -> Iterator[Change]:
    """What a variant may change in ``scenario``'s set-up, in a fixed order."""
    for player in ("p1", "p2"):
        deck = _count(scenario, player, "deck")
        if len(deck) > 1:
            yield Change("deck", player, len(deck) - 1)
        if deck:
            yield Change("deck", player, len(deck) + 1)
    for player in ("p1", "p2"):
        life = _count(scenario, player, "life")
        if life:
            yield Change("life", player, len(life) - 1)
        if life and len(life) < MAX_LIFE:
            yield Change("life", player, len(life) + 1)
    signi = [p for p in scenario.setup.placements if p.zone in ON_FIELD
             and not p.attach and scenario.cards.get(p.card) is not None
             and scenario.cards[p.card].power is not None]
    made = 0
    for p in signi:
        own = scenario.cards[p.card].power
        values: list[int] = []
        for other in signi:
            power = scenario.cards[other.card].power
            if other is p or power is None:
                continue
            values += [power, power + 1000]
        for value in dict.fromkeys(values):
            if value != own and made < MAX_POWER_CHANGES:
                made += 1
                yield Change("power", p.label, value)
    yield Change("turn_player", "", "p2" if scenario.setup.turn_player == "p1" else "p1")


def _touched(trace: Trace, player: str, zone: str) -> bool:
    where = f"{player}.{zone}"
    return any(str(getattr(e, "from_zone", None)) == where or
               str(getattr(e, "to_zone", None)) == where for e in trace.events)


def matters(change: Change, traces: Iterable[Trace]) -> bool:
    """Whether ``change`` could change the outcome of the ruling whose replays are ``traces``
    (a shortcut: the bank does not replay a variant that cannot, whose answer would differ
    only by the card it adds or takes away). The engine reads a main deck's or a life cloth's
    size only when a card leaves or enters it, a refresh happens or a game ends, and a
    power only in a battle or a power check."""
    traces = list(traces)
    if change.kind in ("deck", "life"):
        return any(_touched(t, change.subject, change.kind) or any(
            e.type in ("refresh", "refresh_waits", "skipped", "game_over")
            for e in t.events) for t in traces)
    if change.kind == "power":
        return any(isinstance(e, ev.Battle | ev.Power) or
                   (isinstance(e, ev.RuleCheck) and "power" in e.kinds)
                   for t in traces for e in t.events)
    return True


def changed(scenario: Scenario, change: Change) -> Scenario | None:
    """``scenario`` with ``change`` made (None when it cannot be made)."""
    setup = scenario.setup
    placements = list(setup.placements)
    cards = dict(scenario.cards)
    if change.kind in ("deck", "life"):
        assert isinstance(change.value, int)
        zone = _count(scenario, change.subject, change.kind)
        if change.value < len(zone):
            placements.remove(zone[-1])  # the bottom card
        else:
            used = {p.label for p in placements}
            label = next(f"{NEW_LABEL}{i}" for i in range(1, 100) if f"{NEW_LABEL}{i}" not in used)
            last = zone[-1]
            placements.insert(placements.index(last) + 1, dataclasses.replace(last, label=label))
    elif change.kind == "power":
        assert isinstance(change.value, int)
        place = next(p for p in placements if p.label == change.subject)
        card_id = f"{place.card}~{change.value}"
        cards[card_id] = dataclasses.replace(cards[place.card], id=card_id, power=change.value)
        placements[placements.index(place)] = dataclasses.replace(place, card=card_id)
    elif change.kind == "turn_player":
        player = str(change.value)
        first = player if setup.turn % 2 == 1 else ("p2" if player == "p1" else "p1")
        return dataclasses.replace(scenario, setup=dataclasses.replace(
            setup, turn_player=player, first_player=first))
    else:
        return None
    return dataclasses.replace(scenario, cards=cards, setup=dataclasses.replace(
        setup, placements=tuple(placements)))
