"""The refresh, and when it happens under each rule set.

The refresh (WIXOSS glossary "リフレッシュ", quoted by wixoss.81.la, 2020-05-17, and the
mistaken rules page, which agree): every card of the trash is put into the main deck and the
deck is shuffled; then the top life cloth, if any, goes to the trash without its Life Burst,
kept out of the new deck. An empty main deck is not a loss.

Each rule-set flag about the refresh is read here, once:

- ``refresh_timing`` (:attr:`RuleSet.refresh_interrupts`, read in :func:`after_move`):
  ``interrupt`` (2014-04) refreshes the moment the main deck is empty and a refresh can
  happen, even inside an effect or between the draws of the draw phase, and the interrupted
  action goes on (WIXOSS TCG Wiki "間違えやすいルール", 2014, and the pre-revision rule quoted
  with the notice of 2014-06-20); ``after_effect`` (2014-07 on) leaves it to rule processing
  kind 5 (:mod:`judge.engine.rule_processing.refresh`), which is never checked inside one
  effect (notice of 2014-06-20).
- ``refresh_needs_trash`` (read in :func:`can_refresh`): with an empty trash there is no
  refresh (glossary, 2020); when false, an empty trash makes the refresh put a life cloth into
  the trash first and build the new deck from it (launch-era procedure, mistaken rules page).
- ``second_refresh_ends_turn`` (read in :func:`refresh`): the turn player's second refresh in
  a turn ends that turn (notice of 2014-08-27), once the round of rule processing that made it
  is over (:meth:`judge.engine.game.Game.settle`).

Effects in force may say a player cannot refresh (``cannot`` ``refresh``): the main deck stays
empty (``refresh_waits``, ``cannot-refresh``) until the effect ends, and the refresh happens
at the first check after that; no player loses for an empty main deck. A replacement of the
refresh (``replace`` with event ``refresh``) does its operations instead: the refresh does not
happen and is not counted (the second refresh that ends a turn is a refresh that happened:
**interpretation**), and while the main deck stays empty it is not made again
(``refresh-replaced``) until a card has been in the deck.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import events as ev
from judge.engine import triggers
from judge.engine.ops import instead, replacement
from judge.engine.state import CardInstance, ZoneRef

if TYPE_CHECKING:
    from judge.engine.game import Game


def can_refresh(game: Game, player: str) -> bool:
    """Whether ``player`` refreshes now: an empty main deck and something to refresh with."""
    state = game.state
    if state.zone(player, "deck"):
        return False
    if player in game.refresh_replaced or game.player_cannot(player, "refresh"):
        return False
    if state.zone(player, "trash"):
        return True
    return not game.rules.refresh_needs_trash and bool(state.zone(player, "life"))


def refresh_if_possible(game: Game, player: str) -> None:
    if can_refresh(game, player):
        refresh(game, player)


def after_move(game: Game, old: ZoneRef, new: ZoneRef, verb: str) -> None:
    """Under ``interrupt`` (2014-04), refresh the moment a move makes it possible: a card
    leaving the main deck empties it, or a card reaches the trash of a player whose main deck
    is empty."""
    if old.zone == "deck" and not game.state.ref(old):
        refresh_if_possible(game, old.player)
    elif new.zone == "trash" and verb != "refresh_life":
        refresh_if_possible(game, new.player)


def refresh(game: Game, player: str, snapshot: list[CardInstance] | None = None) -> None:
    """Refresh ``player``: the trash (``snapshot``, the trash as it was at a rule-processing
    check, if given) becomes the new main deck, shuffled; then one life cloth goes to the
    trash. With an empty trash under the launch-era rules, the life cloth goes to the trash
    first and the deck is made from it. A replacement in force does its operations instead."""
    repl = replacement(game, "refresh", player)
    if repl is not None:
        game.refresh_replaced.add(player)
        instead(game, repl, "refresh", player, None, "rule")
        return
    life_moved = False
    trash = list(snapshot if snapshot is not None else game.state.zone(player, "trash"))
    if not trash:
        life = game.state.zone(player, "life")
        first_life = life[0]
        game.move(first_life, "trash", "rule", "refresh_life")
        life_moved = True
        trash = [first_life]  # not a card that rule processing is moving elsewhere
    for inst in trash:
        game.move(inst, "deck", "rule", "refresh")
    game.shuffle(player, "rule")
    if not life_moved and game.state.zone(player, "life"):
        game.move(game.state.zone(player, "life")[0], "trash", "rule", "refresh_life")
        life_moved = True
    ps = game.state.players[player]
    ps.refreshes += 1
    game.emit(ev.Refresh, cause="rule", player=player, count=ps.refreshes,
              deck_size=len(game.state.zone(player, "deck")), life_moved=life_moved)
    if (game.rules.second_refresh_ends_turn and player == game.state.turn_player
            and ps.refreshes == 2):
        game.turn_ending = "second_refresh"
    triggers.notify_refresh(game, player)
