"""A judge's order: a compound action told summary first, then its parts.

The engine logs what it does in the order it does it: a refresh moves the trash into the main
deck, shuffles it, puts a life cloth into the trash, and only then logs that the refresh is
complete; a grow pays its cost before the LRIG grows; a round of rule processing asks its
choices while its kinds look, before its ``rule_check``. A judge tells the same action the
other way round: what happens first, then how. :func:`judge_order` reorders a run of events
so (nothing is added or lost, and no event moves out of its action):

- a refresh (``refresh``) comes before the moves and the shuffle it is made of;
- a round of rule processing (``rule_check``: the kinds at once, what each acts on) comes
  before the choices its kinds asked (the owner's order of two kinds, which SIGNI goes for
  the limit) and the waits they logged;
- a payment (``pay``: the cost and what paid it) comes before the choice of the cards that
  pay it and their moves; a grow comes before its payment, and its sentence tells the
  payment (:class:`Compound`: the ``pay`` event is told in it, the payment's choice and the
  ener cards moved follow);
- an attack that crushes life cloth says how many (:class:`Compound`: the crushes and the
  Life Bursts follow, card by card);
- a Life Burst used begins with the sentence that it is used: its ``effect_begin`` is not
  told again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from judge.engine import events as ev
from judge.engine import mechanics
from judge.engine.events import AbilityRef, Event
from judge.engine.rule_processing import TABLE as RULE_KIND_TABLE

#: The choices a round of rule processing asks before its ``rule_check``: the owner's order
#: of two kinds that would move one card to two places, and the kinds' own (kind 2: which
#: SIGNI goes for the limit; kind 8: which cards go over an upper limit).
RULE_CHOICES = frozenset({"rule_order", *(k.choice for k in RULE_KIND_TABLE if k.choice)})
#: The choices of the cards that pay a cost: ener (``pay``), and the mechanics' that are a
#: part of a cost (Exceed's).
_PAY_CHOICES = frozenset({"pay", *(c for m in mechanics.all_mechanics() if m.cost_parts
                                   for c in m.choices)})
#: The moves a refresh is made of.
_REFRESH_VERBS = ("refresh", "refresh_life")
#: What ends an attack: the crushes after it are its own until one of these.
_ATTACK_ENDS = (ev.Attack, ev.Step, ev.Phase, ev.AttackStep, ev.TurnEnd, ev.GameOver)


@dataclass(frozen=True)
class Compound:
    """A compound action told summary first: ``head`` (a grow, an attack) with what its
    sentence takes from its parts: ``merged``, events its sentence tells (a grow's payment,
    not told again), ``crushes``, the life cloth an attack crushes (told after it)."""

    head: Event
    merged: tuple[Event, ...] = ()
    crushes: int = 0


Item = Event | Compound


def judge_order(events: Sequence[Event]) -> list[Item]:
    """``events`` in a judge's order (see the module's docstring)."""
    out: list[Event] = list(events)
    _summaries_first(out)
    items: list[Item] = []
    for i, e in enumerate(out):
        if isinstance(e, ev.EffectBegin) and e.ability.is_burst and i and \
                isinstance(out[i - 1], ev.Burst) and out[i - 1].card == e.ability.card:
            continue  # "uses the Life Burst of k1" said it
        if isinstance(e, ev.Move) and e.verb == "grow" and i + 1 < len(out) and \
                isinstance(out[i + 1], ev.Pay) and _pays_for(out[i + 1], e):
            items.append(Compound(e, merged=(out[i + 1],)))
            continue
        if isinstance(e, ev.Pay) and items and isinstance(items[-1], Compound) and \
                e in items[-1].merged:
            continue
        if isinstance(e, ev.Attack):
            crushes = _crushes(out, i)
            if crushes:
                items.append(Compound(e, crushes=crushes))
                continue
        items.append(e)
    return items


def _summaries_first(out: list[Event]) -> None:
    """Move each refresh, round of rule processing and grow before its parts, in place."""
    i = 0
    while i < len(out):
        e = out[i]
        start = i
        if isinstance(e, ev.Refresh):
            while start and _refresh_part(out[start - 1], e):
                start -= 1
        elif isinstance(e, ev.RuleCheck):
            while start and _looked(out[start - 1]):
                start -= 1
        elif isinstance(e, ev.Pay):
            while start and _cost_part(out[start - 1], e):
                start -= 1
        elif isinstance(e, ev.Move) and e.verb == "grow":
            # its payment was moved before how it was paid: [pay, choice, moves, grow]
            j = i - 1
            while j >= 0 and not isinstance(out[j], ev.Pay) and _cost_part(out[j], out[j]):
                j -= 1
            if j >= 0 and _pays_for(out[j], e):
                # the grow, then its payment (told in its sentence), then how it was paid
                out[j:i + 1] = [e, out[j], *out[j + 1:i]]
            i += 1
            continue
        if start < i:
            out[start:i + 1] = [e, *out[start:i]]
        i += 1


def _looked(e: Event) -> bool:
    """An event a round of rule processing logs while its kinds look: a choice they ask, a
    refresh that waits."""
    return isinstance(e, ev.RefreshWaits) or (isinstance(e, ev.Choice) and
                                              e.kind in RULE_CHOICES)


def _refresh_part(e: Event, refresh: ev.Refresh) -> bool:
    if isinstance(e, ev.Move):
        return e.verb in _REFRESH_VERBS and e.player == refresh.player
    return isinstance(e, ev.Shuffle) and e.cause == "rule" and e.player == refresh.player


def _pays_for(pay: Event, grow: ev.Move) -> bool:
    return isinstance(pay, ev.Pay) and pay.source == AbilityRef.of_card(grow.card or "")


def _cost_part(e: Event, pay: Event) -> bool:
    """A move that pays ``pay``'s cost (``pay`` itself: any move that pays a cost), or the
    choice of the cards that pay it."""
    if isinstance(e, ev.Move):
        return e.cause == "cost" and (e.source == pay.source or e is pay)
    return isinstance(e, ev.Choice) and e.kind in _PAY_CHOICES and \
        (e.player == pay.player or e is pay)


def _crushes(events: Sequence[Event], at: int) -> int:
    """How many life cloth the attack at ``events[at]`` crushes as its damage."""
    attacker = events[at].card
    count = 0
    for e in events[at + 1:]:
        if isinstance(e, _ATTACK_ENDS):
            break
        if isinstance(e, ev.Move) and e.verb == "crush" and e.cause == "battle" and \
                e.source is not None and e.source.card == attacker:
            count += 1
    return count
