"""Crystal armament (血晶武装): a card of the same name stacked on a SIGNI by an effect.

Rule: the ``crystal_arm`` operation takes, for each of its target SIGNI on the field, one card
with that SIGNI's name from its controller's ``zone`` (the zone the card text describes:
``hand``, ``trash``, ``ener`` or ``deck``; the controller chooses among several) and stacks it
on the SIGNI (verb ``crystal_armament``): the SIGNI is crystal-armed (the filter key
``crystal_armed``) while that card is under it. A SIGNI with no card of its name there is not
crystal-armed (``fizzle``, ``no-same-name``). The stacked card belongs to the SIGNI as the
object it is now: when the SIGNI leaves the field, the state ends and rule processing kind 3
puts the card into the trash, as for any card under a SIGNI.

The Chinese rules page adds that the state is kept when the crystal-armed SIGNI becomes another
SIGNI by an effect. Nothing in this engine makes a SIGNI become another (no effect replaces a
SIGNI by another in place), so that part is not modelled (docs/coverage.md says so).

**Interpretations**: the card comes from the zone of the effect's controller; "the same name"
is the SIGNI's printed name (:func:`judge.engine.conditions.named`); the stacked card is face
up; a SIGNI may be armed more than once (each time one more card is stacked).

Date: only the undated Chinese rules page describes it, for the Key Selection format (the LRIG
Yuyuri); the engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: :func:`crystal_arm`, the ``crystal_arm`` operation (:data:`judge.engine.ops.OPERATIONS`);
:func:`crystal_armed`, read by the filter key ``crystal_armed``
(:class:`judge.engine.conditions.StateFilter`).

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 血晶武装.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine.cards import CRYSTAL_ZONES as CRYSTAL_ZONES
from judge.engine.cards import Op
from judge.engine.conditions import crystal_armed as crystal_armed
from judge.engine.conditions import named
from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import UNDER_ZONES, CardInstance
from judge.engine.targets import op_targets
from judge.langs import NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS: Final = (
    Mechanic(id="crystal-armament", term="crystal-armament",
             source=cite(CHINESE_RULES, "crystal-armament"), keyword=False,
             verbs={"crystal_armament": NP_(
                 "%(card)s is stacked from %(from)s on the SIGNI of its name: that SIGNI is "
                 "crystal-armed.",
                 "%(card)s are stacked from %(from)s on the SIGNI of their name: those SIGNI "
                 "are crystal-armed.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it (Key "
             "Selection format)",
             ops=("crystal_arm",)),
)


def crystal_arm(game: Game, op: Op, controller: str, source: CardInstance | None,
                name: AbilityRef) -> None:
    for signi in op_targets(game, op, controller, source):
        if not game.on_field(signi) or signi.zone.zone not in UNDER_ZONES:
            game.emit(ev.Fizzle, cause="effect", player=signi.owner, card=signi.label,
                      source=name, reason="not-on-field")
            continue
        same = [c for c in game.state.zone(controller, op.zone)
                if named(c.card, signi.card.name)]
        if not same:
            game.emit(ev.Fizzle, cause="effect", player=signi.owner, card=signi.label,
                      source=name, reason="no-same-name")
            continue
        label = game.choose(controller, "target", [c.label for c in same],
                            prompt=f"the card stacked on {signi.label}", about=name)[0]
        game.attach(game.card(label), signi, "crystal_armament", "effect", name)
