"""Kind 3, ``under``: a card under a SIGNI zone that no longer belongs to the SIGNI there goes to
the trash.

Rule: a card under a SIGNI (a Charm, an Accessory, any card put under it) belongs to that SIGNI
as the object it was when the card was put there (:meth:`judge.engine.game.Game.attach`); when
the SIGNI leaves the field, or another takes its place, the card goes to the trash (a card of
the LRIG deck to the LRIG trash).

Sources: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 3; Chinese wiki
"WIXOSS/游戏规则" (undated), 魅饰 and 规则处理 3.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from judge.engine.placement import home_trash
from judge.engine.rule_processing.base import NOTHING, Kind, Proposal, Side, proposal
from judge.engine.sources import GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import UNDER_ZONES
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


def look(game: Game, side: Side) -> Sequence[Proposal]:
    zones = side.zones
    if not zones["under1"] and not zones["under2"] and not zones["under3"]:
        return NOTHING
    out: list[Proposal] = []
    for signi_zone, under_zone in UNDER_ZONES.items():
        under = zones[under_zone]
        if not under:
            continue
        holder = zones[signi_zone]
        for card in under:
            held = game.attached_to.get(card.label)
            if not holder or held != (holder[0].label, holder[0].epoch):
                out.append(proposal("under", card, home_trash(card.card)))
    return out


KIND: Final[Kind] = Kind(id="under", number=3, name=N_("cards under a SIGNI that left the field"),
            description=N_("Cards under or attached to a SIGNI that left the field are put "
                           "into the trash."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-3"), look=look)
