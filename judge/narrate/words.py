"""The words sentences are made of: players, zones, cards, abilities, costs, reasons, lists
and the other small messages narration shares; the glossary's names of terms."""

from __future__ import annotations

from functools import cache
from typing import Any

from judge.data import load_glossary
from judge.langs import N_

#: Free-text reasons the engine gives (fizzles, waiting refreshes, lost triggers, turn ends).
REASON_NAMES: dict[str, str] = {
    "not-on-field": N_("it is not on the field"),
    "no-empty-zone": N_("there is no empty SIGNI zone"),
    "level-above-lrig": N_("its level is above the LRIG's level"),
    "over-limit": N_("the total level would be above the LRIG's limit"),
    "signi-cap": N_("an effect in force caps the number of SIGNI its player may have on the "
                    "field"),
    "limiting-mismatch": N_(
        "its limiting condition does not match the centre LRIG's LRIG type"),
    "no-signi-or-deck": N_("no SIGNI, or no card in the main deck"),
    "not-in-hand": N_("it is not in the hand"),
    "empty-trash": N_("the trash is empty"),
    "empty-trash-no-life": N_("the trash is empty and there is no life cloth"),
    "left-trash": N_("its card left the trash"),
    "left-hand": N_("its card left the hand"),
    "left-ener": N_("its card left the ener zone"),
    "left-field": N_("its card left the field"),
    "end_phase": N_("after the end phase"),
    "second_refresh": N_("the turn player's second refresh this turn"),
    "game_over": N_("the game is over"),
    "damage": N_("damage with no life cloth left"),
    "target-gone": N_("the target has left its zone since it was chosen"),
    "not-signi": N_("it is not a SIGNI"),
    "resisted": N_("it is not affected by this player's effects"),
    "cannot-be-chosen": N_("it cannot be chosen by this player's effects"),
    "cannot-be-banished": N_("it cannot be banished"),
    "cannot-be-trashed": N_("it cannot be put into the trash by effects"),
    "cannot-pay": N_("its cost cannot be paid"),
    "cannot-use": N_("an effect in force says its player cannot use it"),
    "not-usable": N_("it is not an ARTS or a Spell"),
    "cannot-refresh": N_("an effect in force says the player cannot refresh"),
    "refresh-replaced": N_("the refresh was replaced and the main deck is still empty"),
    "not-done": N_("the part before it was not done"),
    "condition": N_("its condition does not hold"),
    "not-accessory": N_("it has no Accessory keyword"),
    "not-a-seed": N_("it is not a Seed"),
    "signi-in-zone": N_("a SIGNI is in that SIGNI zone"),
    "already-riding": N_("the centre LRIG already rides a SIGNI"),
    "no-same-name": N_("no card of that SIGNI's name is there"),
    "no-rise-material": N_("the SIGNI it rises on is not on the field"),
    "token-label-taken": N_("a craft ARTS with that label has been made already"),
    "marker-present": N_("that SIGNI zone already holds one"),
    "no-marker": N_("that SIGNI zone holds none"),
}

OTHER_MESSAGES: dict[str, str] = {
    "player:p1": N_("Player 1"),
    "player:p2": N_("Player 2"),
    "zone:player": N_("%(player)s's %(zone)s"),
    "zone:same": N_("their %(zone)s"),
    "zone:key": N_("Key zone"),
    "zone:assist": N_("assist LRIG zone %(n)s"),
    "zone:assist:board": N_("assist LRIG %(n)s"),
    "zone:seed:board": N_("Seed %(n)s"),
    "zone:trap:board": N_("Trap %(n)s"),
    "zone:signi": N_("SIGNI zone %(n)s"),
    "zone:under": N_("under the SIGNI of SIGNI zone %(n)s"),
    "zone:seed": N_("Seed place on SIGNI zone %(n)s"),
    "zone:trap": N_("Trap place on SIGNI zone %(n)s"),
    "zone:player:under": N_("under %(player)s's SIGNI in SIGNI zone %(n)s"),
    "ability": N_("the ability of %(card)s"),
    "ability:n": N_("ability %(n)s of %(card)s"),
    "ability:burst": N_("the Life Burst of %(card)s"),
    "ability:keyword": N_("the %(keyword)s of %(card)s"),
    "ability:card": N_("the effect of %(card)s"),
    "ability:player": N_("an effect of %(player)s"),
    "ability:in_force": N_("the effect in force"),
    "list:sep": N_(", "),
    "none": N_("none"),
    "until:end_of_turn": N_("the end of the turn"),
    "until:end_of_next_turn": N_("the end of its controller's next turn"),
    "until:while": N_("no set time: while its condition holds"),
    "duration:end_of_turn": N_("Until the end of the turn"),
    "duration:end_of_next_turn": N_("Until the end of its controller's next turn"),
    "duration:while": N_("As long as its condition holds"),
    "mode": N_("mode %(n)s"),
    "colour:or": N_("%(a)s or %(b)s"),
    "cost:discard": N_("discarding %(count)s cards"),
    "cost:discard:class": N_("discarding %(count)s SIGNI of the class %(class)s"),
    "colour:white": N_("white"),
    "colour:red": N_("red"),
    "colour:blue": N_("blue"),
    "colour:green": N_("green"),
    "colour:black": N_("black"),
    "cost:part": N_("%(colour)s %(count)s"),
    "cost:down": N_("down"),
    "cost:free": N_("nothing"),
    "paid:card": N_("%(card)s as %(colour)s"),
    "setup": N_("Set-up"),
}

COLOUR_TERMS: dict[str, str] = {"colourless": "colourless"}


def signed(amount: Any) -> str:
    """A change with its sign: ``+3000``, ``−5000`` (a minus sign), ``±0``."""
    try:
        value = int(amount)
    except (TypeError, ValueError):
        return str(amount)
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "±0"


@cache
def glossary_names() -> dict[str, dict[str, str]]:
    """Term id -> language -> name, from ``data/glossary.toml`` (see :mod:`judge.data`)."""
    return {tid: dict(term.names) for tid, term in load_glossary().items()}
