"""What changes on the field without a move: power, level and limit, effects in force and the
replacements they make, downing, upping and freezing."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.engine.state import ZoneRef
from judge.langs import N_
from judge.narrate import texts
from judge.narrate.base import tells
from judge.narrate.words import OTHER_MESSAGES, signed

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "power": N_("%(card)s gets %(amount)s power: its power is now %(power)s."),
    "level": N_("The level of %(card)s changes by %(amount)s to %(level)s."),
    "limit": N_("The limit of %(player)s changes by %(amount)s to %(limit)s."),
    "lasting": N_("An effect is in force until %(until)s."),
    "replaced": N_("%(card)s would be banished, but an effect in force sends it to "
                   "%(instead)s instead."),
    "down": N_("%(card)s is downed."),
    "up": N_("%(card)s is upped."),
    "freeze": N_("%(card)s is frozen."),
}

VARIANTS: dict[str, str] = {
    "lasting:banish_to_trash": N_("Until the end of the turn, SIGNI of %(player)s that would "
                                  "be banished go to the trash instead."),
    "lasting:keyword": N_("Until the end of the turn, %(card)s has %(keyword)s."),
    "lasting:cost_change": N_("Until the end of the turn, ARTS and Spells of %(player)s cost "
                              "%(cost)s instead."),
    "lasting:cost_modify": N_("Until the end of the turn, the costs of ARTS and Spells of "
                              "%(player)s change by %(cost)s."),
}


@tells(ev.Power)
def _power(n: Narrator, e: ev.Power, v: dict[str, Any], msg: str | None) -> str:
    v.update(amount=signed(e.amount), power=e.power)
    return n.say(msg, v, e)


@tells(ev.Level)
def _level(n: Narrator, e: ev.Level, v: dict[str, Any], msg: str | None) -> str:
    v.update(amount=signed(e.amount), level=e.level)
    return n.say(msg, v, e)


@tells(ev.Limit)
def _limit(n: Narrator, e: ev.Limit, v: dict[str, Any], msg: str | None) -> str:
    v.update(amount=signed(e.amount), limit=e.limit)
    return n.say(msg, v, e)


@tells(ev.Lasting)
def _lasting(n: Narrator, e: ev.Lasting, v: dict[str, Any], msg: str | None) -> str:
    what, until = e.kind, e.until
    own = texts.lasting_message(what, until)
    if own is not None:  # the card-text vocabulary, or a duration beyond the turn
        return texts.tell_lasting(n, e, v, own)
    v.update(until=n._(OTHER_MESSAGES[f"until:{until}"])
             if f"until:{until}" in OTHER_MESSAGES else until)
    if f"lasting:{what.name}" in VARIANTS:
        msg = VARIANTS[f"lasting:{what.name}"]
        v["keyword"] = n.term(n.tables.keyword_terms.get(what.keyword, ""), what.keyword)
        v["cost"] = n.ener(what.amounts)
    return n.say(msg, v, e)


@tells(ev.Replaced)
def _replaced(n: Narrator, e: ev.Replaced, v: dict[str, Any], msg: str | None) -> str:
    owner = e.player or (e.to_zone.player if e.to_zone is not None else "p1")
    v["instead"] = n.zone(ZoneRef(owner, e.instead))
    return n.say(msg, v, e)
