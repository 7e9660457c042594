"""Kind 10, ``lrig_type``: an assist LRIG of the centre LRIG's LRIG type goes to the LRIG trash.

Rule: when the top card of an assist LRIG zone has the centre LRIG's LRIG type, that whole
assist stack is put into the LRIG trash (two LRIGs of one LRIG type on the field: the one that
is not the centre goes). Assist LRIGs exist only so that this kind can be expressed.

Source: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 10.
**Interpretation**: applied under every rule set, though the older lists are shorter
(docs/rules-model.md).
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
    lrig_type = side.lrig_type
    if not lrig_type:
        return NOTHING
    out: list[Proposal] = []
    for assist in ("assist1", "assist2"):
        stack = side.zones[assist]
        if stack and stack[-1].card.lrig_type == lrig_type:
            out.extend(proposal("lrig_type", card, "lrig_trash") for card in stack)
    return out


KIND: Final[Kind] = Kind(id="lrig_type", number=10, name=N_("two LRIGs of one LRIG type"),
            description=N_("When two LRIGs of the same LRIG type are on the field, the one that "
                           "is not the centre LRIG is put into the LRIG trash."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-10"), look=look, term="lrig-type")
