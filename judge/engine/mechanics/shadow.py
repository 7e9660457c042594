"""Shadow (シャドウ, 暗影): this SIGNI cannot be chosen by the opponent's effects.

Rule: an effect of the opponent that chooses cards (a target table, or cards a ruling names
for such an effect) cannot choose a SIGNI with Shadow: it is not offered, and a named one is
left out (``fizzle``, ``cannot-be-chosen``). Effects that do not choose still act on it (a
target with ``all = true``: "all your opponent's SIGNI get -3000"), and so do its own
player's effects.

Hook: ``unchoosable``, read by :func:`judge.engine.continuous.unchoosable` when
:func:`judge.engine.targets.resolve_targets` builds the candidates.

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 暗影 (not the target of the
opponent's effects; effects that do not name targets still apply).
"""

from __future__ import annotations

from typing import Final

from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite

MECHANICS: Final = (
    Mechanic(id="shadow", term="shadow", source=cite(CHINESE_RULES, "shadow"), unchoosable=True),
)
