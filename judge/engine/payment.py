"""Paying costs in a game: which ener cards, downing, Exceed, discarding; and cost changes
in force.

The arithmetic of costs lives in :mod:`judge.engine.costs`; this module asks the player which
cards to pay with (a choice of kind ``pay``, each option the cards joined by ``+``) and moves
them (cause ``cost``); Exceed is :mod:`judge.engine.mechanics.exceed`. A cost is checked whole
before any part of it is paid.

While an effect in force says a player cannot pay with colourless ener (``cannot``
``pay_with_colourless``: "cards without colour in your ener zone cannot pay costs"), the
cards of their ener zone with no printed colour pay nothing; a colourless card with multi ener
has no colour either (**interpretation**: the effect names cards without colour, and multi
ener gives a card no colour: Chinese wiki, 无色, 万花色). A discard part puts cards from the
hand into the trash (the player chooses which, choice ``discard``); a ``remove_virus`` part
removes viruses from the opponent's SIGNI zones (:mod:`judge.engine.mechanics.virus`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import events as ev
from judge.engine.costs import Cost, assign, change_cost, payable, payments
from judge.engine.events import AbilityRef, CardSet, Paid
from judge.engine.mechanics import exceed, virus
from judge.engine.state import CardInstance
from judge.errors import IllegalAction

if TYPE_CHECKING:
    from judge.engine.game import Game


def effective_cost(game: Game, player: str, base: Cost) -> Cost:
    """``base`` after the cost changes in force for ``player`` (changes first, in timestamp
    order, the last winning; then modifications: WIXOSS TCG Wiki,
    コストを変更する、あるいは修正する効果の優先順位), those of lasting effects and of constant
    abilities alike."""
    layer = game.layer()
    if layer is not None:
        items = sorted(layer.costs.get(player, ()))
        changes = [dict(a) for _, kind, a in items if kind == "cost_change"]
        mods = [dict(a) for _, kind, a in items if kind == "cost_modify"]
    else:
        lasting = [x for x in game.state.lasting if x.player == player]
        changes = [dict(x.amounts) for x in lasting if x.kind == "cost_change"]
        mods = [dict(x.amounts) for x in lasting if x.kind == "cost_modify"]
    if not changes and not mods:
        return base
    return change_cost(base, changes, mods)


def ener_cards(game: Game, player: str) -> list[CardInstance]:
    """The cards of ``player``'s ener zone that may pay now."""
    ener = game.state.zone(player, "ener")
    if game.player_cannot(player, "pay_with_colourless"):
        return [c for c in ener if any(colour != "colourless" for colour in c.card.colour)]
    return ener


def discardable(game: Game, player: str, cost: Cost) -> list[CardInstance]:
    """The cards of the hand a discard part may take."""
    hand = game.state.zone(player, "hand")
    if not cost.discard_class:
        return list(hand)
    return [c for c in hand if c.card.type == "signi" and c.card.card_class == cost.discard_class]


def problem(game: Game, player: str, cost: Cost, source: CardInstance | None) -> str | None:
    """Why ``player`` cannot pay ``cost`` now, or None."""
    if cost.ener_total and not payable(ener_cards(game, player), cost):
        return f"the ener zone cannot pay {cost} exactly"
    if cost.down and (source is None or source.down):
        return "the card to down is already down"
    if cost.discard and len(discardable(game, player, cost)) < cost.discard:
        return f"the hand has fewer than {cost.discard} cards to discard"
    if cost.remove_virus and len(virus.removable(game, player)) < cost.remove_virus:
        return f"the opponent's SIGNI zones hold fewer than {cost.remove_virus} viruses"
    if cost.exceed:
        return exceed.problem(game, player, cost.exceed)
    return None


def pay(game: Game, player: str, cost: Cost, source: CardInstance | None,
        name: AbilityRef) -> int:
    """Pay ``cost`` whole, or raise IllegalAction("cannot-pay") having paid nothing. Returns
    how many cards were discarded for it (what ``for_each = "paid"`` counts)."""
    why = problem(game, player, cost, source)
    if why:
        raise IllegalAction("cannot-pay", f"{name}: {why}")
    if cost.free:
        return 0
    paid: dict[str, str] = {}
    if cost.ener_total:
        ener = ener_cards(game, player)
        ways = payments(ener, cost)  # each a tuple of labels, offered as a CardSet
        labels = ways[0] if len(ways) == 1 else game.choose(
            player, "pay", [CardSet(w) for w in ways], prompt=f"pay {cost} for {name}")[0].labels
        cards = [game.card(label) for label in labels]
        paid = assign(cards, cost) or {}
        for card in cards:
            game.move(card, "trash", "cost", "pay", source=name)
    if cost.down and source is not None:
        source.down = True
        game.flags_changed()
        game.emit(ev.Down, cause="cost", player=source.owner, card=source.label, source=name)
    picked: tuple[str, ...] = ()
    if cost.discard or cost.discard_max:
        options = discardable(game, player, cost)
        most = max(cost.discard, cost.discard_max)
        picked = game.choose(player, "discard", [c.label for c in options], cost.discard,
                             most, prompt=f"discard {cost.discard}" +
                             (f" to {most}" if most > cost.discard else "") + f" for {name}")
        for label in picked:
            game.move(game.card(label), "trash", "cost", "pay", source=name)
    if cost.remove_virus:
        virus.pay(game, player, cost.remove_virus, name)
    exceeded = exceed.pay(game, player, cost.exceed, name) if cost.exceed else []
    game.emit(ev.Pay, cause="cost", player=player, source=name, cost=cost,
              paid=tuple(map(Paid, paid, paid.values())),
              exceed=tuple(exceeded))
    return len(picked)
