"""Kind 4, ``check``: a crushed card left in the check zone goes to the ener zone.

Rule: a card crushed from the life cloth that has no Life Burst, or whose Life Burst was not
used (declined, or dropped because the turn or the game ended), goes to the ener zone. A card
whose burst was used goes there right after the burst, as part of the crush
(:mod:`judge.engine.bursts`), not by rule processing.

Sources: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 4; WIXOSS TCG
Wiki "間違えやすいルール" (2014), クラッシュ.
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
    check = side.zones["check"]
    if not check:
        return NOTHING
    return [proposal("check", card, "ener") for card in check
            if card.crushed and card.burst != "pending"]


KIND: Final[Kind] = Kind(id="check", number=4, name=N_("a crushed card left in the check zone"),
            description=N_("A crushed card in the check zone whose Life Burst is absent or not "
                           "used is put into the ener zone."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-4"), look=look, term="check-zone")
