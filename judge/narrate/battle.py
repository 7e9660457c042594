"""Attacks: the steps of the attack phase, passing in the ARTS step, an attack, a battle and
a Life Burst used or not."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.langs import N_
from judge.narrate.base import tells

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "attack_negated": N_("The attack of %(card)s is negated: no battle and no damage."),
    "attack_step": N_("The %(step)s begins."),
    "arts_pass": N_("%(player)s passes in the ARTS step."),
    "attack": N_("%(card)s attacks from %(from)s."),
    "battle": N_("%(card)s (power %(attack_power)s) battles %(defender)s (power "
                 "%(defend_power)s); nothing happens to %(defender)s."),
    "burst": N_("%(player)s uses the Life Burst of %(card)s."),
}

VARIANTS: dict[str, str] = {
    # an attack told with the damage it does (judge.narrate.order): the crushes follow
    "attack:crush": N_("%(card)s attacks from %(from)s and crushes %(count)s of %(life)s."),
    "burst:no": N_("%(player)s does not use the Life Burst of %(card)s."),
    "battle:banished": N_("%(card)s (power %(attack_power)s) battles %(defender)s (power "
                          "%(defend_power)s); %(defender)s is banished."),
}


@tells(ev.AttackStep)
def _attack_step(n: Narrator, e: ev.AttackStep, v: dict[str, Any], msg: str | None) -> str:
    v["step"] = n.attack_step(e.attack_step)
    return n.say(msg, v, e)


@tells(ev.Battle)
def _battle(n: Narrator, e: ev.Battle, v: dict[str, Any], msg: str | None) -> str:
    v.update(defender=n.card(e.defender), attack_power=e.attack_power,
             defend_power=e.defend_power)
    if e.banished:
        msg = VARIANTS["battle:banished"]
    return n.say(msg, v, e)


@tells(ev.Burst)
def _burst(n: Narrator, e: ev.Burst, v: dict[str, Any], msg: str | None) -> str:
    if not e.used:
        msg = VARIANTS["burst:no"]
    return n.say(msg, v, e)
