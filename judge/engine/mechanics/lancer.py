"""Lancer (【ランサー】, 枪兵): when this SIGNI banishes a SIGNI in battle, crush one of the
opponent's life cloth.

Rule: Lancer is a triggered ability (【自】) of its own. It crushes; it never deals damage, so
with no life cloth left nothing happens and the game goes on. As a triggered ability it waits,
like a printed one, until the battle's banish and that banish's rule processing are over, and
resolves in the turn player's order with the other waiting abilities. Its name in events and
choices is ``S1#lancer``.

Hook: the ``ability``, triggered by ``banishes_in_battle``, which
:func:`judge.engine.battle.signi_attack` fires when the SIGNI in front has been banished.

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 枪兵 (a triggered ability; not
damage, so no win); WIXOSS TCG Wiki "間違えやすいルール" (2014), バトル.
"""

from __future__ import annotations

from typing import Final

from judge.engine.cards import Ability, Op
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite

MECHANICS: Final = (
    Mechanic(id="lancer", term="lancer", source=cite(CHINESE_RULES, "lancer"),
             ability=Ability("auto", (Op("crush", who="opponent", count=1),),
                             trigger="banishes_in_battle", keyword="lancer")),
)
