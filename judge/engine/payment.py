"""Paying costs in a game: which ener cards, downing, Exceed; and cost changes in force.

The arithmetic of costs lives in :mod:`judge.engine.costs`; this module asks the player which
cards to pay with (a choice of kind ``pay``, each option the cards joined by ``+``) and moves
them (cause ``cost``); Exceed is :mod:`judge.engine.mechanics.exceed`. A cost is checked whole
before any part of it is paid.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import events as ev
from judge.engine.costs import Cost, assign, change_cost, payable, payments
from judge.engine.events import AbilityRef, CardSet, Paid
from judge.engine.mechanics import exceed
from judge.engine.state import CardInstance
from judge.errors import IllegalAction

if TYPE_CHECKING:
    from judge.engine.game import Game


def effective_cost(game: Game, player: str, base: Cost) -> Cost:
    """``base`` after the cost changes in force for ``player`` (changes first, then
    modifications: WIXOSS TCG Wiki, コストを変更する、あるいは修正する効果の優先順位)."""
    lasting = [x for x in game.state.lasting if x.player == player]
    changes = [dict(x.amounts) for x in lasting if x.kind == "cost_change"]
    mods = [dict(x.amounts) for x in lasting if x.kind == "cost_modify"]
    if not changes and not mods:
        return base
    return change_cost(base, changes, mods)


def problem(game: Game, player: str, cost: Cost, source: CardInstance | None) -> str | None:
    """Why ``player`` cannot pay ``cost`` now, or None."""
    if cost.ener_total and not payable(game.state.zone(player, "ener"), cost):
        return f"the ener zone cannot pay {cost} exactly"
    if cost.down and (source is None or source.down):
        return "the card to down is already down"
    if cost.exceed:
        return exceed.problem(game, player, cost.exceed)
    return None


def pay(game: Game, player: str, cost: Cost, source: CardInstance | None,
        name: AbilityRef) -> None:
    """Pay ``cost`` whole, or raise IllegalAction("cannot-pay") having paid nothing."""
    why = problem(game, player, cost, source)
    if why:
        raise IllegalAction("cannot-pay", f"{name}: {why}")
    if cost.free:
        return
    paid: dict[str, str] = {}
    if cost.ener_total:
        ener = game.state.zone(player, "ener")
        ways = payments(ener, cost)  # each a tuple of labels, offered as a CardSet
        labels = ways[0] if len(ways) == 1 else game.choose(
            player, "pay", [CardSet(w) for w in ways], prompt=f"pay {cost} for {name}")[0].labels
        cards = [game.card(label) for label in labels]
        paid = assign(cards, cost) or {}
        for card in cards:
            game.move(card, "trash", "cost", "pay", source=name)
    if cost.down and source is not None:
        source.down = True
        game.emit(ev.Down, cause="cost", player=source.owner, card=source.label, source=name)
    exceeded = exceed.pay(game, player, cost.exceed, name) if cost.exceed else []
    game.emit(ev.Pay, cause="cost", player=player, source=name, cost=cost,
              paid=tuple(map(Paid, paid, paid.values())),
              exceed=tuple(exceeded))
