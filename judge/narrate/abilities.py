"""Abilities and effects: an effect resolving, an ability triggering, waiting, lost, declined
or dropped, an operation that does nothing; the names of the triggers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.langs import N_
from judge.narrate.base import tells

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "effect_begin": N_("%(ability)s begins to resolve."),
    "effect_end": N_("%(ability)s has resolved."),
    "fizzle": N_("The operation does nothing to %(card)s (%(reason)s)."),
    "trigger": N_("%(ability)s triggers (%(trigger)s) and waits to resolve."),
    "trigger_lost": N_("%(ability)s can no longer be used (%(reason)s)."),
    "trigger_declined": N_("%(player)s does not use %(ability)s."),
    "trigger_dropped": N_("%(ability)s is removed without resolving (%(reason)s)."),
}

VARIANTS: dict[str, str] = {
    "fizzle:nocard": N_("The operation does nothing (%(reason)s)."),
}

#: What each trigger (:data:`judge.engine.cards.TRIGGERS`) watches for, as a clause.
TRIGGER_NAMES: dict[str, str] = {
    "put_into_trash_from_deck": N_("put from the main deck into the trash"),
    "put_into_trash": N_("put into the trash"),
    "banished": N_("banished"),
    "banished_by_effect": N_("banished by an effect"),
    "leaves_field": N_("left the field"),
    "leaves_field_by_effect": N_("left the field because of an effect"),
    "on_play": N_("put onto the field"),
    "crushed": N_("crushed"),
    "owner_refreshes": N_("its owner refreshed"),
    "attacks": N_("it attacks"),
    "attack_phase_start": N_("the attack phase began"),
    "banishes_in_battle": N_("it banished a SIGNI in battle"),
}


@tells(ev.EffectBegin, ev.EffectEnd, ev.TriggerDeclined)
def _ability(n: Narrator, e: ev.EffectBegin | ev.EffectEnd | ev.TriggerDeclined,
             v: dict[str, Any], msg: str | None) -> str:
    v["ability"] = n.ability(e.ability)
    return n.say(msg, v, e)


@tells(ev.TriggerLost, ev.TriggerDropped)
def _gone(n: Narrator, e: ev.TriggerLost | ev.TriggerDropped, v: dict[str, Any],
          msg: str | None) -> str:
    v.update(ability=n.ability(e.ability), reason=n.reason(e.reason))
    return n.say(msg, v, e)


@tells(ev.Trigger)
def _trigger(n: Narrator, e: ev.Trigger, v: dict[str, Any], msg: str | None) -> str:
    v.update(ability=n.ability(e.ability),
             trigger=n._(TRIGGER_NAMES[e.trigger]) if e.trigger in TRIGGER_NAMES
             else e.trigger)
    return n.say(msg, v, e)


@tells(ev.Fizzle)
def _fizzle(n: Narrator, e: ev.Fizzle, v: dict[str, Any], msg: str | None) -> str:
    v["reason"] = n.reason(e.reason)
    if not e.card:
        msg = VARIANTS["fizzle:nocard"]
    return n.say(msg, v, e)
