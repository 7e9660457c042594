"""Accessory (アクセ): a card attached to a SIGNI from the hand, at most one per SIGNI.

Rule: the ``attach`` operation attaches a named card from the controller's hand to a SIGNI on
the field as its Accessory; a card that is not in that hand, or a SIGNI that is not on the
field, is not attached (``fizzle``). A SIGNI with more than one Accessory is over its upper
limit: its player chooses which go to the trash (rule processing kind 8,
:mod:`judge.engine.rule_processing.upper_limits`), and an Accessory whose SIGNI left the field
goes to the trash (kind 3). A card may list ``accessory`` as a keyword; as a printed keyword it
is recorded only.

Hook: :func:`attach`, the ``attach`` operation (:data:`judge.engine.ops.OPERATIONS`).

Sources: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kinds 3 and 8.
**Interpretation**: nothing in the seeds lets an Accessory come from anywhere but the hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import events as ev
from judge.engine.cards import Op
from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.sources import GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import CardInstance
from judge.engine.targets import op_targets
from judge.langs import NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS = (
    Mechanic(id="accessory", term="accessory", source=cite(GLOSSARY_RULE_PROCESSING, "kind-8"),
             verbs={"accessory": NP_("%(card)s is attached to a SIGNI as its Accessory.",
                                     "%(card)s are attached to a SIGNI as its Accessory.")}),
)


def attach(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> None:
    """Attach a card from the controller's hand; a card that is not there is not attached."""
    card = game.card(op.card)
    for inst in op_targets(game, op, controller, source):
        if card.zone.zone != "hand" or card.zone.player != controller:
            game.emit(ev.Fizzle, cause="effect", player=card.owner, card=card.label,
                      source=name, reason="not-in-hand")
            continue
        if not game.on_field(inst):
            game.emit(ev.Fizzle, cause="effect", player=inst.owner, card=inst.label,
                      source=name, reason="not-on-field")
            continue
        game.attach(card, inst, "accessory", "effect", name)
