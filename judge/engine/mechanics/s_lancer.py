"""S-Lancer (【Sランサー】, S枪兵): as Lancer, but with no life cloth left it deals damage.

Rule: when this SIGNI banishes a SIGNI in battle, damage the opponent: crush one life cloth or,
with none left, win the game. A triggered ability of its own, waiting and resolving as Lancer
does (:mod:`judge.engine.mechanics.lancer`); its name is ``S1#s-lancer``.

Hook: the ``ability``, triggered by ``banishes_in_battle``.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: S枪兵.
"""

from __future__ import annotations

from typing import Final

from judge.engine.cards import Ability, Op
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite

MECHANICS: Final = (
    Mechanic(id="s-lancer", term="s-lancer", source=cite(CHINESE_RULES, "s-lancer"),
             ability=Ability("auto", (Op("damage", who="opponent"),),
                             trigger="banishes_in_battle", keyword="s-lancer")),
)
