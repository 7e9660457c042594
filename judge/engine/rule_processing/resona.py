"""Kind 6, ``resona``: a Resona outside the LRIG deck, the LRIG trash and the SIGNI zones returns
to the LRIG deck.

Rule: a Resona is played as a SIGNI; anywhere else than its homes (an effect that puts it into
the trash, the hand, under a SIGNI, ...) it goes back to its owner's LRIG deck. Its homes are
the placement table's (:data:`judge.engine.placement.HOMES`).

Source: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 6.
**Interpretation**: applied under every rule set, though the older lists are shorter
(docs/rules-model.md).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from judge.engine.placement import HOMES
from judge.engine.rule_processing.base import Kind, Proposal, Side, out_of_home
from judge.engine.sources import GLOSSARY_RULE_PROCESSING, cite
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game

#: Where a Resona belongs: its homes in the placement table.
RESONA_ZONES: Final = HOMES["resona"]


def look(game: Game, side: Side) -> Sequence[Proposal]:
    return out_of_home(side, "resona", "resona", RESONA_ZONES, "lrig_deck")


KIND: Final[Kind] = Kind(id="resona", number=6, name=N_("a Resona outside its zones"),
            description=N_("A Resona anywhere but the LRIG deck, the LRIG trash or a SIGNI "
                           "zone returns to the LRIG deck."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-6"), look=look, term="resona")
