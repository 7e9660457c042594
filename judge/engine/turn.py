"""Turn structure: phases, the steps of the attack phase, and moving through them.

Sources: Chinese wiki "WIXOSS/游戏规则" (游戏流程: up, draw, ener, grow, main, attack, end; the
attack phase's ARTS step, SIGNI attack step and LRIG attack step) and WIXOSS TCG Wiki
"間違えやすいルール" (アタックフェイズ, エンドフェイズ); the 2014-06-20 refresh revision for the
draw phase.

- Up phase: the turn player's LRIG and SIGNI are upped; a frozen card is unfrozen instead.
- Draw phase: two cards, one on the first player's first turn.
- Attack phase: "at the start of the attack phase" abilities resolve first; then the ARTS step,
  where the turn player may use ARTS, then the non-turn player; once the turn player has passed
  they cannot use ARTS again in that step; then the SIGNI attack step, then the LRIG attack step.
- End phase: the turn player with seven or more cards in hand puts cards into the trash down
  to six; the non-turn player never does.
- The end of a turn (after the end phase, or at once when the turn player's second refresh
  ends it: the notice of 2014-08-27): waiting triggered abilities and Life Bursts are removed
  unresolved, effects until end of turn expire, and the other player's turn begins with its up
  phase. **Interpretation** (docs/rules-model.md): a turn ended by a second refresh ends at once.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine import phase_starts, setup, triggers
from judge.engine.ops import allowed_draws, instead, replacement
from judge.engine.state import (
    ATTACK_STEPS,
    CHEER,
    LRIG_STACK_ZONES,
    PHASES,
    SIGNI_ZONES,
    other,
)
from judge.errors import EngineError

if TYPE_CHECKING:
    from judge.engine.game import Game

HAND_LIMIT: Final = 6
#: The triggers that the start of a phase fires for the turn player's centre LRIG and SIGNI
#: (the Chinese rules page: the attack phase begins with its effects; the end phase handles
#: the effects that trigger in it before the opponent's turn).
PHASE_TRIGGERS: Final = {"main": "main_phase_start", "attack": "attack_phase_start",
                         "end": "end_phase_start",
                         # issue 30, family 3 (judge/engine/phase_starts.py)
                         **phase_starts.PHASE_TRIGGERS}


def enter_phase(game: Game, phase: str) -> None:
    """Begin ``phase`` and do what the game does at its start, then settle."""
    state = game.state
    state.phase = phase
    state.attack_step = ""
    state.arts_priority = ""
    tp = state.turn_player
    game.emit(ev.Phase, cause="game", player=tp, phase=phase)
    if phase in phase_starts.BEFORE_ACTION and \
            not phase_starts.resolve_first(game, PHASE_TRIGGERS[phase]):
        return  # the game ended, or the turn, while they resolved
    if phase == "up":
        for zone in (*LRIG_STACK_ZONES, *SIGNI_ZONES, CHEER):
            for inst in state.zone(tp, zone):
                if inst.frozen:
                    inst.frozen = False
                else:
                    inst.down = False
        game.flags_changed()
    elif phase == "draw":
        draw_phase(game)
    if phase in PHASE_TRIGGERS and phase not in phase_starts.BEFORE_ACTION:
        for inst in [*state.zone(tp, "lrig")[-1:], *state.signi(tp)]:
            triggers.queue(game, inst, (PHASE_TRIGGERS[phase],))
    if phase == "attack":
        game.settle()
        if state.phase == "attack" and state.turn_player == tp and not state.winner:
            enter_attack_step(game, "arts")
        return
    if phase == "end":
        # the end phase's triggered abilities resolve first, the hand limit is the last thing
        # of the turn (interpretation: docs/rules-model.md)
        game.settle()
        if state.phase != "end" or state.turn_player != tp or state.winner:
            return
        hand = state.zone(tp, "hand")
        if len(hand) > HAND_LIMIT:
            excess = len(hand) - HAND_LIMIT
            picked = game.choose(tp, "discard", [c.label for c in hand], excess, excess,
                                 prompt=f"put cards from the hand into the trash down to "
                                        f"{HAND_LIMIT}")
            for label in picked:
                game.move(game.card(label), "trash", "game", "hand_limit")
    game.settle()


def enter_attack_step(game: Game, step: str) -> None:
    state = game.state
    state.attack_step = step
    state.arts_priority = state.turn_player if step == "arts" else ""
    game.emit(ev.AttackStep, cause="game", player=state.turn_player, attack_step=step)
    if step in phase_starts.STEP_TRIGGERS:
        phase_starts.resolve_first(game, phase_starts.STEP_TRIGGERS[step])


def draw_phase(game: Game) -> None:
    """Draw two cards (one on the first player's first turn). From 2014-07 on, if the first
    draw empties the deck the second is not drawn, and the refresh follows the drawing
    (wixoss.81.la "リフレッシュ", 2014-06-20 revision); under 2014-04 it interrupts. A draw limit
    in force counts these draws; a replacement of the draw phase's draw does its operations
    instead (one effect of its controller), and nothing is drawn."""
    state = game.state
    tp = state.turn_player
    repl = replacement(game, "draw_phase", tp)
    if repl is not None:
        instead(game, repl, "draw_phase", tp, None, "game")
        return
    wanted = 1 if state.turn == 1 and tp == state.first_player else 2
    wanted = allowed_draws(game, tp, wanted, None, "game")
    made = 0
    for _ in range(wanted):
        deck = state.zone(tp, "deck")
        if not deck:
            break
        game.move(deck[0], "hand", "game", "draw")
        made += 1
    state.players[tp].draws += made
    if made < wanted:
        game.emit(ev.Skipped, cause="game", player=tp, verb="draw", wanted=wanted, done=made)


def next_stop(game: Game) -> None:
    """Move on by one: the next attack step inside the attack phase, else the next phase (the
    end phase leads to the other player's turn)."""
    state = game.state
    if state.phase == "setup":
        setup.begin_game(game)
        begin_turn(game, state.first_player)
        return
    phase = state.phase
    if phase == "attack":
        step = _NEXT_STEP.get(state.attack_step)
        if step is not None:
            enter_attack_step(game, step)
            return
    if phase == "end":
        end_turn(game, "end_phase")
        return
    enter_phase(game, _NEXT_PHASE[phase])


#: Each attack step but the last -> the next (ATTACK_STEPS in order).
_NEXT_STEP: Final = dict(zip(ATTACK_STEPS, ATTACK_STEPS[1:], strict=False))
#: Each phase but the last -> the next (PHASES in order).
_NEXT_PHASE: Final = dict(zip(PHASES, PHASES[1:], strict=False))


def advance(game: Game, to: str | None = None) -> None:
    """Move on by one stop, or keep going until phase (or attack step) ``to`` begins; it stops
    early only if the game ends on the way."""
    for _ in range(4 * (len(PHASES) + len(ATTACK_STEPS))):
        if game.state.winner:
            return
        next_stop(game)
        if to is None or game.state.phase == to or game.state.attack_step == to:
            return
    raise EngineError(f"{to!r} never began")  # pragma: no cover - phases cycle


def pass_arts(game: Game, player: str) -> bool:
    """The player with priority in the ARTS step passes. Returns whether the step ended."""
    state = game.state
    if player == state.turn_player:
        state.arts_priority = other(player)
        game.emit(ev.ArtsPass, cause="game", player=player)
        return False
    game.emit(ev.ArtsPass, cause="game", player=player)
    enter_attack_step(game, "signi")
    return True


def end_turn(game: Game, reason: str) -> None:
    """End the turn: waiting triggered abilities and Life Bursts are removed unresolved when it
    ends early (interpretation, see docs/rules-model.md), effects until end of turn expire, and
    the other player's turn begins."""
    game.drop_waiting(reason)
    state = game.state
    game.emit(ev.TurnEnd, cause="game", player=state.turn_player, turn=state.turn,
              reason=reason)
    if state.lasting:  # effects end: what rule processing reads may change
        game.dirty = True
    state.expire_lasting(state.turn)
    begin_turn(game, other(state.turn_player))


def begin_turn(game: Game, player: str) -> None:
    """``player``'s turn begins: the turn number goes up, both players' refresh counts start
    again, and the up phase begins."""
    state = game.state
    state.turn += 1
    state.turn_player = player
    state.ener_done = state.grown = False
    state.used_once.clear()
    state.changes += 1
    for ps in state.players.values():
        ps.refreshes = 0
        ps.draws = 0
        ps.attacks.clear()
    game.emit(ev.TurnBegin, cause="game", player=player, turn=state.turn)
    if not game.plain:  # constant abilities and effects in force may read the turn
        game.dirty = True
    enter_phase(game, "up")
