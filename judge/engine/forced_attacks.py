"""Forced attacks: "this SIGNI must attack if able", "your opponent's SIGNI must attack"
(issue 30, family 5).

Rule: declaring an attack is the player's choice; no SIGNI must attack (commonly mistaken
rules, アタック宣言). A card's text comes before the rules (Chinese rules page, 卡牌的效果处理及
其他规则), and the sources name an effect that forces the opponent to attack (Chinese rules
page, 钥匙: a Key modelled on the LRIG Iona). The ``must_attack`` operation (``target``; an
effect in force, or a constant ability) makes the SIGNI it names attack if able: while one
of the turn player's SIGNI under it could attack now (in a main SIGNI zone, up, no "can't
attack" and no attack limit reached in force), the turn player cannot end the SIGNI attack
step, nor leave the main phase or the ARTS step past it (``advance``, refused with
``must-attack``). The SIGNI attack step itself still comes after the ARTS step as always.

**Interpretation**: "if able" is read as the attack rules of the moment (it is up, nothing in
force forbids it, its attack limit is not reached); a SIGNI that is down, or one in the cheer
zone (it needs a SIGNI to attack: mistaken rules and the Chinese rules page say nothing of
forcing it), is not obliged. The order of the attacks stays the player's. Rulings
``must-attack-signi-attacks-before-the-step-ends``, ``must-attack-does-not-oblige-a-down-signi``.

Sources: WIXOSS TCG Wiki "間違えやすいルール" (pre-2014-09), アタック宣言; Chinese wiki
"WIXOSS/游戏规则" (undated), 钥匙 and 卡牌的效果处理及其他规则.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import battle
from judge.engine.state import SIGNI_ZONES

if TYPE_CHECKING:
    from judge.engine.game import Game


def obliged(game: Game) -> list[str]:
    """The labels of the turn player's SIGNI that must attack and could attack now."""
    layer = game.layer()
    if layer is None or not layer.must_attack:
        return []
    state = game.state
    out = []
    for zone in SIGNI_ZONES:
        for inst in state.zone(state.turn_player, zone):
            if inst.label in layer.must_attack and not inst.down and \
                    not game.cannot(inst, "attack"):
                left = battle.attacks_left(game, inst)
                if left is None or left > 0:
                    out.append(inst.label)
    return out


def leaves_signi_step(game: Game, to: str | None) -> bool:
    """Whether an ``advance`` to ``to`` (None: one stop) from now would end the SIGNI attack
    step or skip it: from that step itself, or to the LRIG attack step or the end phase from
    the main phase or the ARTS step."""
    state = game.state
    if state.phase == "attack" and state.attack_step == "signi":
        return True
    return to in ("lrig", "end") and (state.phase == "main" or (
        state.phase == "attack" and state.attack_step in ("", "arts")))
