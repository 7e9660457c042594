"""Double Crush and Triple Crush (【ダブルクラッシュ】, 【トリプルクラッシュ】; 双/三重击溃).

Rule: the damage of an attack by a card with Double Crush crushes two life cloth at once, with
Triple Crush three; with fewer left, as many as there are (one life cloth and Double Crush does
not win). Damage with no life cloth left wins, whatever the count. The crushed cards' Life
Bursts wait together and their owner orders them. Triple Crush wins over Double Crush.

Hook: ``crushes``, read by :func:`judge.engine.battle.crush_count`.

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 双/三重击溃; WIXOSS TCG Wiki
"間違えやすいルール" (2014), クラッシュ and ダブルクラッシュ.
"""

from __future__ import annotations

from typing import Final

from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite

MECHANICS: Final = (
    Mechanic(id="double-crush", term="double-crush", source=cite(CHINESE_RULES, "double-crush"),
             crushes=2),
    Mechanic(id="triple-crush", term="triple-crush", source=cite(CHINESE_RULES, "double-crush"),
             crushes=3),
)
