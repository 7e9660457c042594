"""Kind 5, ``refresh``: a player whose main deck is empty refreshes.

Rule: when a player's main deck is empty and a refresh can happen
(:func:`judge.engine.refresh.can_refresh`), that player refreshes
(:func:`judge.engine.refresh.refresh`), as rule processing: so after the one effect that
emptied the deck has resolved, and before any waiting triggered ability. When it cannot happen
yet (an empty trash; an effect in force that says the player cannot refresh; a refresh
replaced while the deck stays empty), a ``refresh_waits`` event is logged once per wait, and
the refresh comes at the first check after that changes. Both players are looked at, the turn
player first; the refreshes of one check are made before its other moves, each from the trash
as it was at the check (see :func:`judge.engine.rule_processing.check`). Under the 2014-04
rules the refresh also interrupts anything (:func:`judge.engine.refresh.after_move`), so this
kind finds nothing left to do.

Sources: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 5; WIXOSS
glossary "リフレッシュ" (quoted by wixoss.81.la, 2020-05-17) and its commentary (a refresh comes
before waiting triggered abilities; with deck and trash both empty, nothing happens until a
card is in the trash); the refresh revision notice of 2014-06-20.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine.refresh import can_refresh
from judge.engine.rule_processing.base import Kind
from judge.engine.sources import GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import other
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


def refreshers(game: Game) -> list[str]:
    """The players who refresh now, the turn player first; a player who cannot yet is logged
    as waiting, once."""
    state = game.state
    players = state.players
    if players["p1"].zones["deck"] and players["p2"].zones["deck"] and \
            not game.refresh_waiting and not game.refresh_replaced:
        return []  # the usual case: nobody refreshes, nobody was waiting
    out: list[str] = []
    for p in (state.turn_player, other(state.turn_player)):
        if state.zone(p, "deck"):
            game.refresh_waiting.discard(p)
            if game.refresh_replaced:
                game.refresh_replaced.discard(p)
        elif can_refresh(game, p):
            out.append(p)
        elif p not in game.refresh_waiting:
            game.refresh_waiting.add(p)
            reason = "refresh-replaced" if p in game.refresh_replaced else \
                "cannot-refresh" if game.player_cannot(p, "refresh") else \
                "empty-trash" if state.zone(p, "life") or game.rules.refresh_needs_trash \
                else "empty-trash-no-life"
            game.emit(ev.RefreshWaits, cause="rule", player=p, reason=reason)
    return out


KIND: Final[Kind] = Kind(id="refresh", number=5, name=N_("refresh"),
            description=N_("A player whose main deck is empty refreshes: the trash is shuffled "
                           "into a new main deck, and one Life Cloth is put into the trash."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-5"), look=None, term="refresh")
