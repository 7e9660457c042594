"""Exceed (エクシード, 超越): a cost paid with cards from under the centre LRIG.

Rule: Exceed N puts N cards from under the centre LRIG (its stack but the top card) into the
LRIG trash; its player chooses which (kind ``exceed``). With fewer than N cards under the LRIG
the cost cannot be paid. It is a part of a cost (``exceed = 1`` in a cost table, ``exceed:1``
in its text form), paid with the rest of the cost, after the ener.

Hooks: :func:`problem` and :func:`pay`, called by :mod:`judge.engine.payment` for a cost with
an Exceed part.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 超越; effect types: 起.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite
from judge.langs import N_, NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS = (
    Mechanic(id="exceed", term="exceed", source=cite(CHINESE_RULES, "exceed"), keyword=False,
             verbs={"exceed": NP_("%(card)s goes from %(from)s to %(to)s to pay Exceed.",
                                  "%(card)s go from %(from)s to %(to)s to pay Exceed.")},
             choices={"exceed": N_("cards to pay Exceed with")},
             cost_parts={"exceed": N_("Exceed %(count)s")}),
)


def problem(game: Game, player: str, count: int) -> str | None:
    """Why ``player`` cannot pay Exceed ``count`` now, or None."""
    if len(game.state.zone(player, "lrig")) - 1 < count:
        return f"fewer than {count} cards under the centre LRIG for Exceed"
    return None


def pay(game: Game, player: str, count: int, name: AbilityRef) -> list[str]:
    """Pay Exceed ``count`` for ``name``: the labels of the cards put into the LRIG trash."""
    under = [c.label for c in game.state.zone(player, "lrig")[:-1]]
    exceeded = list(game.choose(player, "exceed", under, count, count,
                                prompt=f"Exceed {count}"))
    for label in exceeded:
        game.move(game.card(label), "lrig_trash", "cost", "exceed", source=name)
    return exceeded
