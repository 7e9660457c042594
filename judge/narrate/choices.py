"""Choices: what a player is asked and what they pick; the names of the kinds of choice."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.langs import N_
from judge.narrate.base import tells
from judge.narrate.words import OTHER_MESSAGES

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "choice": N_("%(player)s chooses %(picked)s (%(kind)s)."),
}

VARIANTS: dict[str, str] = {}

#: The names of choice kinds, with those of the mechanics (:func:`messages`).
CHOICE_NAMES: dict[str, str] = {
    "target": N_("targets"),
    "zone": N_("SIGNI zone"),
    "trigger_order": N_("which triggered ability resolves next"),
    "burst_order": N_("which Life Burst resolves next"),
    "use": N_("whether to use it"),
    "rule_order": N_("which rule processing applies first"),
    "excess": N_("which SIGNI goes to the trash for the excess"),
    "over_limit": N_("which cards go over the upper limit"),
    "discard": N_("cards to discard"),
    "pay": N_("ener to pay with"),
    "cut_in": N_("ARTS to use with Spell Cut-In"),
}


@tells(ev.Choice)
def _choice(n: Narrator, e: ev.Choice, v: dict[str, Any], msg: str | None) -> str:
    kind = e.kind
    choices = n.tables.choices
    v.update(kind=n._(choices[kind]) if kind in choices else kind,
             picked=n.join(n.pick(p, kind) for p in e.picked) if e.picked
             else n._(OTHER_MESSAGES["none"]))
    if kind == "use" and e.about is not None:
        v["kind"] = n._(OTHER_MESSAGES["use:about"], ability=n.ability(e.about))
    return n.say(msg, v, e)
