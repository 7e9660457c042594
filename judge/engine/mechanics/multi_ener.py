"""Multi ener (マルチエナ, 万花色): in the ener zone, this card pays as any one colour.

Rule: a card with the printed keyword pays a coloured requirement of any colour, declared when
paying (the engine finds an assignment itself: :func:`judge.engine.costs.assign`). Only the
printed keyword counts: the ``keyword`` operation gives keywords to SIGNI on the field.

Hook: ``pays_any_colour``, read by :func:`judge.engine.costs.can_pay_as`.

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 万花色; WIXOSS TCG Wiki "間違えやすいルール"
(2014), コスト: マルチエナ.
"""

from __future__ import annotations

from typing import Final

from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite

MECHANICS: Final = (
    Mechanic(id="multi-ener", term="multi-ener", source=cite(CHINESE_RULES, "multi-ener"),
             pays_any_colour=True),
)
