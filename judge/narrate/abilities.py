"""Abilities and effects: an effect resolving, an ability triggering, waiting, lost, declined
or dropped, an operation that does nothing; the names of the triggers."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.engine.mechanics.ride import GetOff, Ride
from judge.langs import N_
from judge.narrate.base import tells

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "effect_begin": N_("%(ability)s begins to resolve."),
    "effect_end": N_("%(ability)s has resolved."),
    "fizzle": N_("Nothing happens to %(card)s: %(reason)s."),
    "trigger": N_("%(ability)s (%(trigger)s) triggers and waits to resolve."),
    "trigger_lost": N_("%(ability)s can no longer be used: %(reason)s."),
    "trigger_declined": N_("%(player)s does not use %(ability)s."),
    "trigger_dropped": N_("%(ability)s never resolves: %(reason)s."),
}

VARIANTS: dict[str, str] = {
    "fizzle:nocard": N_("Nothing happens: %(reason)s."),
    "trigger_dropped:second_refresh": N_("%(ability)s never resolves: the turn ends with the "
                                         "turn player's second refresh."),
    "trigger_dropped:end_phase": N_("%(ability)s never resolves: the turn is over."),
    "trigger_dropped:game_over": N_("%(ability)s never resolves: the game is over."),
}

#: When each trigger (:data:`judge.engine.cards.TRIGGERS`) fires, as a clause of the card it
#: watches: the trigger's sentence says it after the ability, a card's short name after "that
#: triggers" (:mod:`judge.narrate.cards`).
TRIGGER_NAMES: dict[str, str] = {
    "put_into_trash_from_deck": N_("when it is put from the main deck into the trash"),
    "put_into_trash": N_("when it is put into the trash"),
    "banished": N_("when it is banished"),
    "banished_by_effect": N_("when it is banished by an effect"),
    "leaves_field": N_("when it leaves the field"),
    "leaves_field_by_effect": N_("when it leaves the field because of an effect"),
    "on_play": N_("when it is put onto the field"),
    "crushed": N_("when it is crushed"),
    "owner_refreshes": N_("when its owner refreshes"),
    "attacks": N_("when it attacks"),
    "attack_phase_start": N_("at the start of its player's attack phase"),
    "banishes_in_battle": N_("when it banishes a SIGNI in battle"),
    "uses_spell": N_("when a Spell is used"),
    "uses_arts": N_("when an ARTS is used"),
    "main_phase_start": N_("at the start of its player's main phase"),
    "end_phase_start": N_("at the start of its player's end phase"),
    "signi_enters": N_("when another SIGNI is put onto the field"),
    "signi_banished": N_("when another SIGNI is banished"),
    "signi_attacks": N_("when another SIGNI attacks"),
    "life_crushed": N_("when a life cloth is crushed"),
    "guard_used": N_("when a player guards"),
    "seed_blooms": N_("when a Seed blooms"),
    "trap_revealed": N_("when a Trap is revealed"),
    "coins_paid": N_("when a player pays coins for a BET"),
    "targeted": N_("when it becomes a target of an effect"),
    "life_cloth_moved": N_("when a card leaves a life cloth other than by a crush"),
    "up_phase_start": N_("at the start of its player's up phase"),
    "draw_phase_start": N_("at the start of its player's draw phase"),
    "ener_phase_start": N_("at the start of its player's ener phase"),
    "grow_phase_start": N_("at the start of its player's grow phase"),
    "arts_step_start": N_("at the start of its player's ARTS step"),
    "signi_attack_step_start": N_("at the start of its player's SIGNI attack step"),
    "lrig_attack_step_start": N_("at the start of its player's LRIG attack step"),
    "drive": N_("when its player's LRIG rides it (Drive)"),
}


@tells(Ride, GetOff)
def _ride(n: Narrator, e: Ride | GetOff, v: dict[str, Any], msg: str | None) -> str:
    v["signi"] = n.card(e.signi)
    return n.say(msg, v, e)


@tells(ev.EffectBegin, ev.EffectEnd, ev.TriggerDeclined)
def _ability(n: Narrator, e: ev.EffectBegin | ev.EffectEnd | ev.TriggerDeclined,
             v: dict[str, Any], msg: str | None) -> str:
    v["ability"] = n.ability(e.ability)
    return n.say(msg, v, e)


@tells(ev.TriggerLost, ev.TriggerDropped)
def _gone(n: Narrator, e: ev.TriggerLost | ev.TriggerDropped, v: dict[str, Any],
          msg: str | None) -> str:
    v.update(ability=n.ability(e.ability), reason=n.reason(e.reason))
    if isinstance(e, ev.TriggerDropped):
        msg = VARIANTS.get(f"trigger_dropped:{e.reason}", msg)
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
