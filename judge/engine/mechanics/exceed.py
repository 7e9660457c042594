"""Exceed (エクシード, 超越): a cost paid with cards from under its player's LRIG.

Rule: Exceed N puts N cards from under its player's LRIG (a LRIG stack but its top card) into
the LRIG trash; its player chooses which (kind ``exceed``). With fewer than N such cards the
cost cannot be paid. It is a part of a cost (``exceed = 1`` in a cost table, ``exceed:1`` in
its text form), paid with the rest of the cost, after the ener.

Which LRIG: in the All Star and Key Selection formats a player has one LRIG, the centre LRIG,
so the cards are those under it. In the Diva Selection format a player also has assist LRIGs,
and the Chinese rules page says nearly every "LRIG" of card texts became "main LRIG" there,
Exceed being the exception. **Interpretation**: the exception means Exceed still reads
"LRIG", so the cards under the assist LRIGs pay it too (:mod:`judge.engine.formats`,
``exceed_from_assists``); the formats are not dated by any source, and the engine has Diva
Selection from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: :func:`problem` and :func:`pay`, called by :mod:`judge.engine.payment` for a cost with
an Exceed part; :func:`under_lrigs`, the cards that may pay.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 超越; effect types: 起; 分身 (副分身: "LRIG"
became "main LRIG", Exceed the exception).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine.events import AbilityRef
from judge.engine.formats import FORMATS
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import LRIG_STACK_ZONES, CardInstance
from judge.langs import N_, NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS: Final = (
    Mechanic(id="exceed", term="exceed", source=cite(CHINESE_RULES, "exceed"), keyword=False,
             verbs={"exceed": NP_("%(card)s goes from %(from)s to %(to)s to pay Exceed.",
                                  "%(card)s go from %(from)s to %(to)s to pay Exceed.")},
             choices={"exceed": N_("cards to pay Exceed with")},
             cost_parts={"exceed": N_("Exceed %(count)s")}),
)


def under_lrigs(game: Game, player: str) -> list[CardInstance]:
    """The cards that may pay ``player``'s Exceed: under the centre LRIG, and in a format
    whose Exceed reaches them, under the assist LRIGs."""
    zones = game.state.players[player].zones
    if not FORMATS[game.state.format].exceed_from_assists:
        return zones["lrig"][:-1]
    return [c for zone in LRIG_STACK_ZONES for c in zones[zone][:-1]]


def problem(game: Game, player: str, count: int) -> str | None:
    """Why ``player`` cannot pay Exceed ``count`` now, or None."""
    if len(under_lrigs(game, player)) < count:
        where = "its LRIGs" if FORMATS[game.state.format].exceed_from_assists \
            else "the centre LRIG"
        return f"fewer than {count} cards under {where} for Exceed"
    return None


def pay(game: Game, player: str, count: int, name: AbilityRef) -> list[str]:
    """Pay Exceed ``count`` for ``name``: the labels of the cards put into the LRIG trash."""
    under = [c.label for c in under_lrigs(game, player)]
    exceeded = list(game.choose(player, "exceed", under, count, count,
                                prompt=f"Exceed {count}"))
    for label in exceeded:
        game.move(game.card(label), "lrig_trash", "cost", "exceed", source=name)
    return exceeded
