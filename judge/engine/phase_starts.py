"""Triggers at the start of the other phases and of the ARTS step (issue 30, family 3).

Rule: an ``auto`` ability may trigger when its player's up, draw, ener or grow phase begins
(``up_phase_start``, ``draw_phase_start``, ``ener_phase_start``, ``grow_phase_start``) or
when a step of its player's attack phase begins (``arts_step_start``,
``signi_attack_step_start``, ``lrig_attack_step_start``); like the
abilities at the start of the main, attack and end phases it works from the field (the turn
player's centre LRIG and SIGNI). The turn structure is the Chinese rules page's (游戏流程: up,
draw, ener, grow, main, attack with its ARTS step, SIGNI attack step and LRIG attack step,
end).

The start comes first: such an ability resolves before what the phase does (the up phase's
upping, the draw phase's draw) and before anyone may act in it (no attack is declared in a
step before its start abilities have resolved). The sources say this of the
attack phase only: its start abilities resolve before any ARTS of the ARTS step may be used
(commonly mistaken rules, アタックフェイズ). **Interpretation**: the other phases and the ARTS
step begin the same way; no source describes an ability at the start of those phases (rulings
``draw-phase-start-resolves-before-the-draw``, ``up-phase-start-resolves-before-the-up``,
``signi-attack-step-start-resolves-before-the-attacks``,
``lrig-attack-step-start-comes-after-the-signi-attacks``).

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 游戏流程; WIXOSS TCG Wiki "間違えやすいルール"
(pre-2014-09), アタックフェイズ.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import triggers

if TYPE_CHECKING:
    from judge.engine.game import Game

#: Phase -> the trigger its start fires.
PHASE_TRIGGERS: Final = {"up": "up_phase_start", "draw": "draw_phase_start",
                         "ener": "ener_phase_start", "grow": "grow_phase_start"}
#: Phases whose start abilities resolve before the phase's own game action.
BEFORE_ACTION: Final = frozenset(PHASE_TRIGGERS)
#: Attack step -> the trigger its start fires.
STEP_TRIGGERS: Final = {"arts": "arts_step_start", "signi": "signi_attack_step_start",
                        "lrig": "lrig_attack_step_start"}


def resolve_first(game: Game, trigger: str) -> bool:
    """Queue the abilities of the turn player's centre LRIG and SIGNI that ``trigger``
    fires and resolve them (with the rule processing around them) before the phase or step
    goes on; whether it still goes on (the same turn, phase and step, no winner)."""
    state = game.state
    tp = state.turn_player
    phase, step, turn = state.phase, state.attack_step, state.turn
    for inst in [*state.zone(tp, "lrig")[-1:], *state.signi(tp)]:
        triggers.queue(game, inst, (trigger,))
    if not game.pending:
        return True
    game.settle()
    return not state.winner and (state.turn, state.phase, state.attack_step) == \
        (turn, phase, step)
