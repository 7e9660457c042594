"""Kind 7, ``key``: a Key outside the LRIG deck, the LRIG trash and the Key zone goes to the LRIG
trash.

Rule: a Key anywhere else than its homes (the placement table's,
:data:`judge.engine.placement.HOMES`) is put into its owner's LRIG trash.

Source: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 7.
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

#: Where a Key belongs: its homes in the placement table.
KEY_ZONES: Final = HOMES["key"]


def look(game: Game, side: Side) -> Sequence[Proposal]:
    return out_of_home(side, "key", "key", KEY_ZONES, "lrig_trash")


KIND: Final[Kind] = Kind(id="key", number=7, name=N_("a Key outside its zones"),
            description=N_("A Key anywhere but the LRIG deck, the LRIG trash or the LRIG zone is "
                           "put into the LRIG trash."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-7"), look=look, term="key")
