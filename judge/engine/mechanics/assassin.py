"""Assassin (【アサシン】, 暗杀): this SIGNI attacks as if no SIGNI were in front of it.

Rule: an attack by a SIGNI with Assassin is never blocked: there is no battle, and it damages
the opponent (so with no life cloth left, it wins), printed or given by an effect this turn.

Hook: ``unblocked``, read by :func:`judge.engine.battle.signi_attack`.

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 暗杀; WIXOSS TCG Wiki
"間違えやすいルール" (2014), アサシン.
"""

from __future__ import annotations

from typing import Final

from judge.engine.mechanics import Mechanic
from judge.engine.sources import MISTAKEN_RULES, cite

MECHANICS: Final = (
    Mechanic(id="assassin", term="assassin", source=cite(MISTAKEN_RULES, "assassin"),
             unblocked=True),
)
