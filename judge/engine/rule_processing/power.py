"""Kind 1, ``power``: a SIGNI whose power is 0 or less is banished.

Rule: it goes to the ener zone as any banished SIGNI does, or where a replacement in force
sends it instead (``banish_to_trash``: to the trash, logged with a ``replaced`` event as for an
effect's banish; a replacement that does something else instead leaves it on the field); the
move is a ``banish`` event with cause ``rule``, so abilities that trigger on being banished
"by an effect" do not trigger. A SIGNI that an effect in force says cannot be banished is not
banished by this kind either: card text comes before the rules (Chinese wiki "WIXOSS/游戏规则",
卡牌的效果处理及其他规则).

Sources: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 1 and the
commentary (moves by rule processing are not effects); Chinese wiki "WIXOSS/游戏规则"
(undated), 规则处理 1.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from judge.engine.rule_processing.base import NOTHING, Kind, Proposal, Side, proposal
from judge.engine.sources import GLOSSARY_RULE_PROCESSING, cite
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


def look(game: Game, side: Side) -> Sequence[Proposal]:
    if min(side.powers, default=1) > 0:
        return NOTHING
    return [proposal("power", card, game.banish_destination(card), banish=True)
            for card, power in zip(side.signi, side.powers, strict=True)
            if power <= 0 and not game.cannot(card, "be_banished")]


KIND: Final[Kind] = Kind(id="power", number=1, name=N_("power 0 or less"),
            description=N_("A SIGNI with power 0 or less is banished."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-1"), look=look, term="power")
