"""Costs: a payment, told part by part (ener by colour, down, Exceed) with the cards paid."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.langs import N_
from judge.narrate.base import tells
from judge.narrate.words import OTHER_MESSAGES

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "pay": N_("%(player)s pays %(cost)s for %(source)s: %(paid)s."),
}

VARIANTS: dict[str, str] = {
    "pay:nosource": N_("%(player)s pays %(cost)s: %(paid)s."),
    "pay:free": N_("%(player)s pays nothing for %(source)s."),
    "pay:nocards": N_("%(player)s pays the cost of %(source)s: %(cost)s."),
    # a grow told with its cost (judge.narrate.order): how it was paid follows
    "pay:grow": N_("%(player)s grows into %(card)s, paying %(cost)s: %(paid)s."),
    "pay:grow:free": N_("%(player)s grows into %(card)s, paying %(cost)s."),
}


@tells(ev.Pay)
def _pay(n: Narrator, e: ev.Pay, v: dict[str, Any], msg: str | None) -> str:
    paid = [n._(OTHER_MESSAGES["paid:card"], card=n.card(p.card),
                colour=n.colour(p.colour)) for p in e.paid]
    paid.extend(n.card(label) for label in e.exceed)
    v.update(cost=n.cost(e.cost), paid=n.join(paid),
             source=n.card(e.source.card) if e.source is not None and e.source.card
             and e.source.which is None else n.ability(e.source))
    if not paid:
        msg = VARIANTS["pay:free" if e.cost.free else "pay:nocards"]
    elif e.source is None:
        msg = VARIANTS["pay:nosource"]
    return n.say(msg, v, e)
