"""Accessory (アクセ, 附属): a SIGNI with the printed Accessory keyword attached to another
SIGNI by an effect, giving that SIGNI what it grants; at most one per SIGNI.

Rule: a card may be attached as an Accessory only if it lists the printed keyword
``accessory`` (Chinese rules page, 附属: a SIGNI that has Accessory is put onto the fitting
SIGNI by an effect). The ``attach`` operation attaches a named card from the controller's hand
to a SIGNI on the field; a card that is not in that hand (``not-in-hand``), has no Accessory
keyword (``not-accessory``) or a SIGNI that is not on the field (``not-on-field``) is not
attached (``fizzle``). While attached, the Accessory gives the SIGNI it is attached to the
keywords its ``grants`` lists (the Accessory ability written on it: 附属 again); as a SIGNI of
its own, out of play, it has none of them. A SIGNI with more than one Accessory is over its
upper limit: its player chooses which go to the trash (rule processing kind 8,
:mod:`judge.engine.rule_processing.upper_limits`), and an Accessory whose SIGNI left the field
goes to the trash (kind 3).

Date: the first dated source naming Accessory is the 2020 glossary (kinds 3 and 8); the engine
has it from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: :func:`attach`, the ``attach`` operation (:data:`judge.engine.ops.OPERATIONS`);
:func:`granted`, read by :meth:`judge.engine.game.Game.keywords`.

Sources: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kinds 3 and 8;
Chinese wiki "WIXOSS/游戏规则" (undated), 附属. **Interpretation**: nothing in the sources lets
an Accessory come from anywhere but the hand; what an Accessory grants is modelled as keywords.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine.cards import Op
from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import UNDER_ZONES, CardInstance
from judge.engine.targets import op_targets
from judge.langs import NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS: Final = (
    Mechanic(id="accessory", term="accessory", source=cite(GLOSSARY_RULE_PROCESSING, "kind-8"),
             verbs={"accessory": NP_("%(card)s is attached to a SIGNI as its Accessory.",
                                     "%(card)s are attached to a SIGNI as its Accessory.")},
             since="2020", since_note=f"first named by {GLOSSARY_RULE_PROCESSING}; also "
             f"{CHINESE_RULES}, 附属",
             card_fields=("grants",), ops=("attach",)),
)


def attach(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> None:
    """Attach a card from the controller's hand; a card that is not there, or has no
    Accessory keyword, is not attached."""
    card = game.card(op.card)
    for inst in op_targets(game, op, controller, source):
        if card.zone.zone != "hand" or card.zone.player != controller:
            game.emit(ev.Fizzle, cause="effect", player=card.owner, card=card.label,
                      source=name, reason="not-in-hand")
            continue
        if "accessory" not in card.card.keywords:
            game.emit(ev.Fizzle, cause="effect", player=card.owner, card=card.label,
                      source=name, reason="not-accessory")
            continue
        if not game.on_field(inst) or inst.zone.zone not in UNDER_ZONES:
            game.emit(ev.Fizzle, cause="effect", player=inst.owner, card=inst.label,
                      source=name, reason="not-on-field")
            continue
        game.attach(card, inst, "accessory", "effect", name)


def granted(game: Game, inst: CardInstance) -> frozenset[str]:
    """The keywords the Accessories attached to ``inst`` give it."""
    under = UNDER_ZONES.get(inst.zone.zone)
    if under is None:
        return frozenset()
    out: set[str] = set()
    for card in game.state.zone(inst.zone.player, under):
        if card.card.grants and card.attach == "accessory" and \
                game.attached_to.get(card.label) == (inst.label, inst.epoch):
            out.update(card.card.grants)
    return frozenset(out)
