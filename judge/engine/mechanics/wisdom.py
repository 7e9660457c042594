"""Wisdom (英知, 英知=X): the total level of the wisdom SIGNI on the field, which wisdom cards
read.

Rule: a SIGNI with the keyword ``wisdom`` (printed in ``keywords``, or given by an effect) is a
wisdom SIGNI. The wisdom count, "英知=X", is the sum of the levels of the wisdom SIGNI on the
field, each at its level now (effects that change a level change it). A card reads it with the
tally ``wisdom`` of a condition (``{ tally = "wisdom", at_least = 7 }``) or of a ``for_each``
count. **Interpretation**: whose field: the player's own (``who = "self"``, the default), as
cards say "your" wisdom; ``who = "both"`` reads both fields. Whether "英知=X" on a card is
exactly X or X or more is the card's own text: a ruling writes ``at_least``, ``at_most`` or
both.

The levels come from the layer of continuous effects, so the tally is *derived*: a constant
ability's condition or count and the ``while`` of an effect in force may not read it (the layer
would depend on itself; refused when the ruling is loaded, docs/coverage.md); an ``if`` and the
``for_each`` of a one-shot effect may.

Date: the Chinese rules page lists it among every format's mechanics (全环境), undated; the
engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: the keyword (no hook of its own: :mod:`judge.engine.tallies` reads it).

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 英知=X.
"""

from __future__ import annotations

from typing import Final

from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite

MECHANICS: Final = (
    Mechanic(id="wisdom", term="wisdom", source=cite(CHINESE_RULES, "wisdom"),
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it (every "
             "format)"),
)
