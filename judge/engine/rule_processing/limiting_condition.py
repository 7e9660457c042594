"""Kind 9, ``limiting``: a SIGNI or Key whose limiting condition does not match the centre LRIG's
LRIG type goes to the trash.

Rule: a SIGNI on the field or a Key in the Key zone with a limiting condition other than the
centre LRIG's LRIG type (after a grow into another type, say) is put into the trash (a Key into
the LRIG trash). A Life Burst's limiting condition does not stop the burst: that is not rule
processing (:mod:`judge.engine.bursts`).

Sources: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 9; Chinese wiki
"WIXOSS/游戏规则" (undated), 规则处理 9; WIXOSS TCG Wiki "間違えやすいルール" (2014), 限定条件.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from judge.engine.placement import home_trash
from judge.engine.rule_processing.base import NOTHING, Kind, Proposal, Side, proposal
from judge.engine.sources import GLOSSARY_RULE_PROCESSING, cite
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


def look(game: Game, side: Side) -> Sequence[Proposal]:
    if not side.signi and not side.zones["key"]:
        return NOTHING
    lrig_type = side.lrig_type
    return [proposal("limiting", card, home_trash(card.card))
            for card in (*side.signi, *side.zones["key"])
            if card.card.limiting and card.card.limiting != lrig_type]


KIND: Final[Kind] = Kind(id="limiting", number=9, name=N_("limiting condition not met"),
            description=N_("A card whose limiting condition does not match the centre LRIG's "
                           "type is put into its trash."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-9"), look=look, term="limiting-condition")
