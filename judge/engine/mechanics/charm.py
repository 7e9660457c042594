"""Charm (チャーム, 魅饰): a card put face down under a SIGNI, belonging to it.

Rule: the ``charm`` operation puts the top card of the controller's main deck face down under
a SIGNI on the field as its Charm; with no such SIGNI or an empty main deck it does nothing
(``fizzle``, reason ``no-signi-or-deck``). When the SIGNI leaves the field, its Charm goes to the
trash by rule processing (kind 3, :mod:`judge.engine.rule_processing.attachments`). Nobody may
look at a Charm, not even its owner (:mod:`judge.engine.visibility`). Card texts that say
【Charm】 are written with this operation and with the condition ``charm`` ("while this SIGNI
has a Charm": :func:`judge.engine.conditions.has_charm`). Charm is no keyword a card has (the
sources give a Charm no ability of its own), so ``keywords = ["charm"]`` is refused.

Hook: :func:`charm`, the ``charm`` operation (:data:`judge.engine.ops.OPERATIONS`).

Sources: WIXOSS TCG Wiki "間違えやすいルール" (2014), チャーム; Chinese wiki "WIXOSS/游戏规则"
(undated), 魅饰 and rule processing 3.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine.cards import Op
from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.sources import MISTAKEN_RULES, cite
from judge.engine.state import CardInstance
from judge.engine.targets import op_targets
from judge.langs import NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS: Final = (
    Mechanic(id="charm", term="charm", source=cite(MISTAKEN_RULES, "charm"), keyword=False,
             verbs={"charm": NP_("%(card)s is put from %(from)s under a SIGNI as its Charm.",
                                 "%(card)s are put from %(from)s under a SIGNI as its Charm.")}),
)


def charm(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        deck = game.state.zone(controller, "deck")
        if not game.on_field(inst) or not deck:
            game.emit(ev.Fizzle, cause="effect", player=inst.owner, card=inst.label,
                      source=name, reason="no-signi-or-deck")
            continue
        game.attach(deck[0], inst, "charm", "effect", name)
