"""Cards changing zone: moves by verb (one sentence for a run of identical moves), draws and
mills cut short by an empty deck, shuffles and banishes."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.langs import N_, NP_
from judge.narrate.base import fill, tells
from judge.narrate.rules import RULE_KIND_NAMES

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "move": "%(card)s is put from %(from)s into %(to)s.",  # singular of MOVE_MESSAGES["*"]
    "skipped": N_("The main deck of %(player)s is empty: only %(done)s of %(wanted)s cards "
                  "(%(how)s); the rest is skipped."),
    "banish": N_("%(card)s is banished and goes from %(from)s to %(to)s."),
    "shuffle": N_("The main deck of %(player)s is shuffled."),
    "look": N_("%(player)s looks at %(card)s of %(from)s."),
}

VARIANTS: dict[str, str] = {
    "look:both": N_("%(card)s of %(from)s is revealed to both players."),
    "banish:effect": N_("%(card)s is banished by an effect and goes from %(from)s to %(to)s."),
    "banish:rule": N_("%(card)s is banished by rule processing and goes from %(from)s to "
                      "%(to)s."),
    "banish:battle": N_("%(card)s is banished in battle and goes from %(from)s to %(to)s."),
    "skipped:draw": N_("The main deck of %(player)s is empty: %(player)s draws only %(done)s "
                       "of the %(wanted)s cards."),
    "skipped:mill": N_("The main deck of %(player)s is empty: only %(done)s of the %(wanted)s "
                       "cards are put into the trash."),
    "skipped:ener_charge": N_("The main deck of %(player)s is empty: only %(done)s of the "
                              "%(wanted)s cards are put into the Ener Zone."),
}

#: Sentences for moves, by verb, with the verbs of the mechanics (:func:`messages`); other
#: verbs use ``EVENT_MESSAGES["move"]``.
MOVE_MESSAGES: dict[str, tuple[str, str]] = {
    "draw": NP_("%(player)s draws %(card)s.",
        "%(player)s draws %(card)s."),
    "mill": NP_("%(card)s is put from the top of %(from)s into %(to)s.",
        "%(card)s are put from the top of %(from)s into %(to)s."),
    "ener_charge": NP_("Ener Charge: %(card)s is put from the top of %(from)s into %(to)s.",
        "Ener Charge: %(card)s are put from the top of %(from)s into %(to)s."),
    "discard": NP_("%(card)s is discarded from %(from)s into %(to)s.",
        "%(card)s are discarded from %(from)s into %(to)s."),
    "put_onto_field": NP_("%(card)s is put from %(from)s onto the field, into %(to)s.",
        "%(card)s are put from %(from)s onto the field, into %(to)s."),
    "crush": NP_("%(card)s is crushed from %(from)s into %(to)s.",
        "%(card)s are crushed from %(from)s into %(to)s."),
    "use": NP_("%(player)s uses %(card)s, which goes from %(from)s to %(to)s.",
        "%(player)s uses %(card)s, which go from %(from)s to %(to)s."),
    "used": NP_("The used %(card)s goes from %(from)s to %(to)s.",
        "The used %(card)s go from %(from)s to %(to)s."),
    "play": NP_("%(player)s plays %(card)s from %(from)s into %(to)s.",
        "%(player)s plays %(card)s from %(from)s into %(to)s."),
    "grow": NP_("%(player)s grows into %(card)s.",
        "%(player)s grows into %(card)s."),
    "remove": NP_("%(player)s removes %(card)s, which goes from %(from)s to %(to)s.",
        "%(player)s removes %(card)s, which go from %(from)s to %(to)s."),
    "hand_limit": NP_("%(card)s goes from %(from)s to %(to)s for the hand limit.",
        "%(card)s go from %(from)s to %(to)s for the hand limit."),
    "ener_phase": NP_("%(player)s puts %(card)s from %(from)s into %(to)s in the ener phase.",
        "%(player)s puts %(card)s from %(from)s into %(to)s in the ener phase."),
    "pay": NP_("%(card)s goes from %(from)s to %(to)s to pay a cost.",
        "%(card)s go from %(from)s to %(to)s to pay a cost."),
    "start": NP_("%(card)s is put into %(to)s as the level 0 LRIG.",
        "%(card)s are put into %(to)s as level 0 LRIGs."),
    "redraw": NP_("%(card)s is returned from %(from)s to %(to)s for the redraw.",
        "%(card)s are returned from %(from)s to %(to)s for the redraw."),
    "life_cloth": NP_("%(card)s is put from the top of %(from)s into %(to)s.",
        "%(card)s are put from the top of %(from)s into %(to)s."),
    "after_burst": NP_("After the Life Burst, %(card)s goes from %(from)s to %(to)s.",
        "After the Life Burst, %(card)s go from %(from)s to %(to)s."),
    "refresh": NP_("The refresh puts %(card)s from %(from)s into %(to)s.",
        "The refresh puts %(card)s from %(from)s into %(to)s."),
    "refresh_life": NP_("The refresh puts %(card)s from %(from)s into %(to)s.",
        "The refresh puts %(card)s from %(from)s into %(to)s."),
    "deck_bottom": NP_("%(card)s is put on the bottom of %(to)s.",
        "%(card)s are put on the bottom of %(to)s."),
    "deck_top": NP_("%(card)s is put back on top of %(to)s.",
        "%(card)s are put back on top of %(to)s."),
    "*": NP_("%(card)s is put from %(from)s into %(to)s.",
        "%(card)s are put from %(from)s into %(to)s."),
    "rule": NP_("Rule processing (%(kind)s) puts %(card)s from %(from)s into %(to)s.",
        "Rule processing (%(kind)s) puts %(card)s from %(from)s into %(to)s."),
}

#: Verbs told by the generic move sentence (``MOVE_MESSAGES["*"]``): the zones say it all.
GENERIC_MOVE_VERBS = ("trash", "to_ener", "to_hand", "to_deck", "place", "banish", "look",
                      "reveal_until", "search")

#: Short names of move verbs, for sentences that name the operation.
VERB_NAMES: dict[str, str] = {
    "draw": N_("drawing"),
    "mill": N_("putting from the main deck into the trash"),
    "ener_charge": N_("Ener Charge"),
}

def same_move(a: ev.Move, b: ev.Move) -> bool:
    """Two moves told as one sentence when they follow each other."""
    return (a.verb, a.cause, a.source, a.from_zone, a.to_zone, a.player) == \
        (b.verb, b.cause, b.source, b.from_zone, b.to_zone, b.player)


@tells(ev.Move)
def _move(n: Narrator, e: ev.Move, v: dict[str, Any], msg: str | None) -> str:
    verb = e.verb
    moves = n.tables.moves
    pair = MOVE_MESSAGES["*"]
    if verb in moves and verb not in ("rule", "*"):
        pair = moves[verb]
    elif verb in RULE_KIND_NAMES or e.cause == "rule":
        pair = MOVE_MESSAGES["rule"]
        v["kind"] = n.rule_kind(verb)
    template = n.ngettext(pair[0], pair[1], max(1, v["_n"]))
    return fill(template, v)


@tells(ev.Look)
def _look(n: Narrator, e: ev.Look, v: dict[str, Any], msg: str | None) -> str:
    return n.say(VARIANTS["look:both"] if e.seen_by == "both" else msg, v, e)


@tells(ev.Skipped)
def _skipped(n: Narrator, e: ev.Skipped, v: dict[str, Any], msg: str | None) -> str:
    v.update(done=e.done, wanted=e.wanted,
             how=n._(VERB_NAMES[e.verb]) if e.verb in VERB_NAMES else e.verb)
    return n.say(VARIANTS.get(f"skipped:{e.verb}", msg), v, e)


@tells(ev.Banish)
def _banish(n: Narrator, e: ev.Banish, v: dict[str, Any], msg: str | None) -> str:
    return n.say(VARIANTS.get(f"banish:{e.cause}", msg), v, e)
