"""Recollect (召还): an ARTS with an extra cost that, paid when it is used, sends the ARTS back
to the LRIG deck after its effect instead of to the LRIG trash.

Rule: an ARTS whose definition has ``recollect`` (a cost table) may, when its player uses it,
pay that cost on top of its own; the player chooses (kind ``use``, about ``A#recollect``),
and is asked only when the extra cost can be paid then. Paid, the ARTS goes from the check
zone to its owner's LRIG deck once its effect has resolved (verb ``recollect``), so it can be
used again; not paid, it goes to the LRIG trash as any used ARTS. Cost changes and
modifications in force change the ARTS's own cost, not the recollect cost
(**interpretation**). The Chinese rules page says the extra cost is paid "when the effect is
processed"; the engine asks right after the ARTS's own cost, before its targets are chosen,
as one part of its use (**interpretation**).

Date: only the undated Chinese rules page describes it; the engine has it from the
``current`` rule set (:mod:`judge.engine.eras`).

Hooks: :func:`offer`, called by :func:`judge.engine.actions.use` after the cost is paid; the
use then puts a recollected ARTS into the LRIG deck (verb ``recollect``).

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 卡牌的效果处理及其他规则: 召还.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.payment import pay, problem
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import CardInstance
from judge.langs import NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS: Final = (
    Mechanic(id="recollect", term="recollect", source=cite(CHINESE_RULES, "encore"), keyword=False,
             verbs={"recollect": NP_(
                 "Encore: %(card)s goes from %(from)s back to %(to)s.",
                 "Encore: %(card)s go from %(from)s back to %(to)s.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it",
             card_fields=("recollect",)),
)


def offer(game: Game, inst: CardInstance) -> bool:
    """Let the player of the ARTS ``inst`` pay its recollect cost now; whether they did."""
    cost = inst.card.recollect
    if cost is None or problem(game, inst.owner, cost, inst) is not None:
        return False
    name = AbilityRef.keyword_ability(inst.label, "recollect")
    if not game.yes_no(inst.owner, "use", f"pay the recollect cost {cost}?", about=name):
        return False
    pay(game, inst.owner, cost, inst, name)
    return True
