"""Crush and Life Bursts: life cloth into the check zone, and the bursts that wait there.

- A crush puts the top life cloth into the check zone, marked as crushed; if the card has a
  Life Burst, the burst waits (``burst = "pending"``). A crush is not damage: with no life cloth
  it does nothing (damage with none left is a win: :func:`judge.engine.ops.deal_damage`).
- Once rule processing has settled, waiting Life Bursts resolve one at a time
  (:meth:`judge.engine.game.Game.settle`), the turn player's crushed cards first; a player
  with several orders them (choice ``burst_order``: the defender orders them) and decides
  whether to use each (choice ``use``: a Life Burst is optional). A Life Burst is one effect
  controlled by the crushed card's owner, and its limiting condition does not stop it.
- After a used burst the card goes to the ener zone as the last part of the crush (verb
  ``after_burst``, cause ``game``); a card with no burst, or whose burst was not used, goes
  there by rule processing kind 4 (:mod:`judge.engine.rule_processing.check_zone`).

Sources: WIXOSS TCG Wiki "間違えやすいルール" (2014), ライフバースト and クラッシュ; Chinese
wiki "WIXOSS/游戏规则" (undated), attack phase.
**Interpretation**: waiting Life Bursts resolve before waiting triggered abilities.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import events as ev
from judge.engine.events import AbilityRef
from judge.engine.state import other

if TYPE_CHECKING:
    from judge.engine.game import Game


def crush(game: Game, player: str, cause: str, source: AbilityRef | None) -> bool:
    """Crush ``player``'s top life cloth; whether there was one."""
    life = game.state.zone(player, "life")
    if not life:
        return False
    inst = life[0]
    inst.crushed = True
    game.move(inst, "check", cause, "crush", source=source)
    inst.crushed = True
    inst.burst = "pending" if inst.card.has_burst else ""
    return True


def next_burst(game: Game) -> bool:
    """Resolve one crushed card's Life Burst, if one waits; with several, their owner orders
    them. Returns whether one was resolved (or declined)."""
    players = game.state.players
    if not players["p1"].zones["check"] and not players["p2"].zones["check"]:
        return False
    for player in (game.state.turn_player, other(game.state.turn_player)):
        waiting = [c for c in game.state.zone(player, "check") if c.burst == "pending"]
        if not waiting:
            continue
        inst = game.choose_card(player, "burst_order", waiting,
                                prompt="which Life Burst resolves next")
        inst.burst = "done"
        burst = AbilityRef.life_burst(inst.label)
        used = game.yes_no(player, "use", f"use the Life Burst of {inst.label}?", about=burst)
        game.emit(ev.Burst, cause="game", player=player, card=inst.label, used=used)
        if used:
            game.resolve_effect(inst.card.life_burst, player, inst, burst)
            if inst.zone.zone == "check":
                # after its burst, the crushed card goes to the ener zone as part of the
                # crush (WIXOSS TCG Wiki, クラッシュ); kind 4 is for a burst not used
                game.move(inst, "ener", "game", "after_burst")
        return True
    return False


def drop(game: Game, reason: str) -> None:
    """Every Life Burst still waiting is removed unresolved (``trigger_dropped``, ability
    ``LABEL#burst``); its card then goes to the ener zone by rule processing kind 4."""
    for player in (game.state.turn_player, other(game.state.turn_player)):
        for inst in game.state.zone(player, "check"):
            if inst.burst == "pending":
                inst.burst = "done"
                game.emit(ev.TriggerDropped, cause="game", player=player, card=inst.label,
                          ability=AbilityRef.life_burst(inst.label),
                          reason=reason)
