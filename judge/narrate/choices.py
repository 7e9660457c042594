"""Choices: what a player decides, told as the decision itself ("Player 2 resolves the Life
Burst of k2 first", "Player 1 targets T1"), by kind; the names of the kinds of choice.

A ``use`` choice about an ability is told as using it or not ("Player 2 uses the Life Burst of
k2"); the event right after it that says the same (the ``burst`` event of that Life Burst,
or the ``trigger_declined`` of that ability) is then not told again
(:func:`repeats`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.langs import N_
from judge.narrate.base import tells
from judge.narrate.battle import VARIANTS as BATTLE_VARIANTS

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    # a kind without a sentence of its own (one a mechanic declares at run time)
    "choice": N_("%(player)s chooses %(picked)s as %(kind)s."),
}

VARIANTS: dict[str, str] = {
    "choice:none": N_("%(player)s chooses nothing as %(kind)s."),
    "choice:use:yes": N_("%(player)s uses %(ability)s."),
    "choice:use:no": N_("%(player)s does not use %(ability)s."),
    "choice:use:yes:unnamed": N_("%(player)s chooses to use it."),
    "choice:use:no:unnamed": N_("%(player)s chooses not to use it."),
}

#: The sentence of each kind of choice (:data:`judge.engine.choices.CHOICE_KINDS`), with what
#: was picked and, for a kind that allows it, with nothing picked.
CHOICE_MESSAGES: dict[str, tuple[str, str]] = {
    "target": (N_("%(player)s targets %(picked)s."),
               N_("%(player)s chooses no target.")),
    "zone": (N_("%(player)s chooses %(picked)s for the SIGNI."),
             N_("%(player)s chooses no SIGNI zone.")),
    "trigger_order": (N_("%(player)s resolves %(picked)s first."),
                      N_("%(player)s chooses no ability to resolve first.")),
    "burst_order": (N_("%(player)s resolves the Life Burst of %(picked)s first."),
                    N_("%(player)s chooses no Life Burst to resolve first.")),
    "rule_order": (N_("%(player)s chooses the rule processing that applies first: %(picked)s."),
                   N_("%(player)s chooses no rule processing to apply first.")),
    "excess": (N_("%(player)s chooses %(picked)s to go to the trash for the excess."),
               N_("%(player)s chooses no SIGNI for the excess.")),
    "over_limit": (N_("%(player)s chooses %(picked)s to go to the trash for the upper "
                      "limit."),
                   N_("%(player)s chooses no card for the upper limit.")),
    "discard": (N_("%(player)s chooses %(picked)s to discard."),
                N_("%(player)s chooses no card to discard.")),
    "pay": (N_("%(player)s chooses to pay with %(picked)s."),
            N_("%(player)s chooses no ener to pay with.")),
    "exceed": (N_("%(player)s chooses %(picked)s to pay Exceed."),
               N_("%(player)s chooses no card to pay Exceed.")),
    "guard": (N_("%(player)s chooses to guard with %(picked)s."),
              N_("%(player)s does not guard.")),
    "cut_in": (N_("%(player)s chooses to use %(picked)s with Spell Cut-In."),
               N_("%(player)s uses no ARTS with Spell Cut-In.")),
    "order": (N_("%(player)s puts %(picked)s next, counting from the top."),
              N_("%(player)s chooses no card to put next.")),
}

#: The names of choice kinds, with those of the mechanics (:func:`messages`): what a choice
#: of a kind without a sentence of its own is about.
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
    "mode": N_("modes"),
    "replace": N_("which replacement applies"),
    "order": N_("the order of the cards put back into the main deck"),
}

BURST_NOT_USED = BATTLE_VARIANTS["burst:no"]

#: An answer that means "nothing" where a choice offers it as an option.
NOTHING = "none"


def used(e: ev.Choice) -> bool | None:
    """For a ``use`` choice, whether the player used it (None for other kinds)."""
    if e.kind != "use" or len(e.picked) != 1 or e.picked[0] not in ("yes", "no"):
        return None
    return e.picked[0] == "yes"


def repeats(choice: ev.Choice, e: ev.Event) -> bool:
    """Whether ``e``, right after ``choice``, says again what the choice's sentence said:
    the Life Burst used or not, the ability declined."""
    use = used(choice)
    about = choice.about
    if use is None or about is None:
        return False
    if isinstance(e, ev.Burst):
        return about.is_burst and e.card == about.card and e.used == use
    if isinstance(e, ev.TriggerDeclined):
        return not use and e.ability == about
    return False


@tells(ev.Choice)
def _choice(n: Narrator, e: ev.Choice, v: dict[str, Any], msg: str | None) -> str:
    kind = e.kind
    use = used(e)
    if use is not None:
        if e.about is None:
            return n.say(VARIANTS[f"choice:use:{'yes' if use else 'no'}:unnamed"], v, e)
        if e.about.is_burst:  # told as the Life Burst used or not (battle.py's sentences)
            v["card"] = n.card(e.about.card)
            return n.say(n.tables.events["burst"] if use else BURST_NOT_USED, v, e)
        v["ability"] = n.ability(e.about)
        return n.say(VARIANTS[f"choice:use:{'yes' if use else 'no'}"], v, e)
    picked = [p for p in e.picked if p != NOTHING]
    v["picked"] = n.join(n.pick(p, kind) for p in picked)
    if kind in CHOICE_MESSAGES:
        return n.say(CHOICE_MESSAGES[kind][0 if picked else 1], v, e)
    choices = n.tables.choices
    v["kind"] = n._(choices[kind]) if kind in choices else kind
    return n.say(msg if picked else VARIANTS["choice:none"], v, e)
