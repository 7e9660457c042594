"""Registration count (登録者数, 登录数): a count a player gains through LRIG and ARTS effects;
cards get stronger while it reaches a number.

Rule: each player has a registration count (``setup.registrations``; 0 unless said). The
``registrations`` operation makes ``who`` (its player by default) gain ``amount`` more; only
a LRIG's or an ARTS's effect has it, so a card of another type whose effects hold it is refused
when the ruling is loaded (the page names LRIG and ARTS effects as what gains the count). A
card reads it with the tally ``registrations`` of a condition: ``{ tally = "registrations",
at_least = 5 }`` is "while your registration count is 5 or more" (a constant ability's
``while``, an ``if``), computed again whenever the count changes. **Interpretation**: the count
only grows (the page names no way to lose it, so the operation takes a positive amount), and it
is each player's own (a card reads its player's count unless its ``who`` says otherwise).

Not in the sources, so not modelled: a cap on the count, its start value in a real game (0
here), and the exact thresholds of the cards (each card's ``at_least`` says its own).

Date: the Chinese rules page gives it as a mechanic of the Key Selection format (key环境),
undated; the engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: :func:`gain`, the ``registrations`` operation (:data:`judge.engine.ops.OPERATIONS`);
the card types that may have it (:data:`judge.engine.cards.OP_CARD_TYPES`, checked by
:func:`judge.engine.cards.parse_card`); the tally
(:mod:`judge.engine.tallies`); the event kind :class:`Registrations`.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 登录数（登録者数）.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine.cards import Op
from judge.engine.events import AbilityRef, Event, event_kind
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.targets import players_for
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game
    from judge.engine.state import CardInstance


@event_kind("registrations")
class Registrations(Event):
    """``player`` gains ``amount`` registrations (by an effect); ``registrations`` is their
    count now."""

    amount: int
    registrations: int


MECHANICS: Final = (
    Mechanic(id="registrations", term="registrations", keyword=False,
             source=cite(CHINESE_RULES, "registrations"),
             events={"registrations": N_("%(player)s gains %(amount)s registrations: "
                                         "%(registrations)s in all.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it (Key "
             "Selection format)", ops=("registrations",)),
)


def gain(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> None:
    """The ``registrations`` operation: ``who`` gains ``amount`` registrations."""
    for player in players_for(op.who, controller):
        state = game.state.players[player]
        state.registrations += op.amount
        game.state.changes += 1
        game.emit(Registrations, cause="effect", player=player, source=name,
                  amount=op.amount, registrations=state.registrations)
