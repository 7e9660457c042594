"""An action ability with a use timing of its own (起（攻击阶段）): when it may be used.

Rule: an action ability is used in its player's own main phase (WIXOSS TCG Wiki
"間違えやすいルール", 2014, 起動能力), unless it names a timing of its own: ``timing = "attack"``
is the Chinese rules page's example 起（攻击阶段）, used only in the ARTS step of either player's
attack phase, by the player who may use ARTS then; an ability without ``main`` among its
timings is not used in the main phase (the main phase is for effects that name no other timing:
主要阶段). Its costs and "once per turn" are those of any action ability. Using it does not end
its player's turn to use ARTS (**interpretation**: the source says ARTS and card effects of that
timing are used in the step, and the player passes when they are done).

Date: only the undated Chinese rules page describes a timing of an action ability; the 2014
page knows action abilities in the main phase only. The engine accepts a ``timing`` on an
action ability from the ``current`` rule set (:mod:`judge.engine.eras`).

Hook: :func:`judge.engine.actions.activate` reads ``Ability.timing``
(``actions._ability_timing``; reason code ``ability-timing``); the random driver proposes
these abilities in the ARTS step.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 效果文的格式; 攻击阶段; 主要阶段.
"""

from __future__ import annotations

from typing import Final

from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite

MECHANICS: Final = (
    Mechanic(id="action-timing", term="action-ability", source=cite(CHINESE_RULES, "effect-text"),
             keyword=False, since="2020",
             since_note=f"undated: only {CHINESE_RULES} describes it; the 2014 page knows "
             "action abilities in the main phase only",
             ability_fields=("timing",)),
)
