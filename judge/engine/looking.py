"""Looking at, revealing and searching the main deck (issue 30, family 2): the operations
``look``, ``reveal_until`` and ``search``.

Who may see what is the point of all three. The main deck is face down and nobody looks at
it (:mod:`judge.engine.visibility`); an effect that looks lets exactly the players it says
see the cards, and each card seen is logged as a ``look`` event naming who saw it
(``seen_by``: the player who looks, or ``both``):

- ``look``: the player whose effect it is looks at the top ``count`` cards of the main deck
  of ``who`` (only that player sees them); of those, the cards its ``target`` table matches
  may be taken (``count`` of them, or up to that with ``up_to``) into ``zone`` (default the
  hand; ``deck_top``: back on top of that deck once the others are placed, format 9), shown
  to both players first with ``reveal``; the others go where ``rest`` says:
  ``top`` or ``bottom`` of that deck in the order the player chooses (choice ``order``, the
  card nearest the top first; ``bottom`` when not said), the ``trash``, or back into the
  deck, which is then shuffled (``shuffle``). A ``look`` without a target takes nothing:
  "look at the top three cards and put them back in any order" is ``rest = "top"``.
  With ``from = "hand"`` (format 9) it looks at the whole hand of ``who`` instead ("look at
  your opponent's hand"): the cards taken go into ``zone`` (not the hand), the others stay.
- ``reveal_until``: cards are turned face up from the top, one at a time, for both players,
  until ``target.count`` cards its target matches are revealed (or the deck is out); those go
  into ``zone``, the other revealed cards where ``rest`` says (default the trash).
- ``search``: the player looks at the whole main deck of ``who``, takes the cards its target
  matches (shown to both with ``reveal``) into ``zone``, and that deck is shuffled.

The sources (001, 003, 004) describe none of these texts: they are card text, which comes
before the rules (001, 卡牌的效果处理及其他规则), and what they say about hidden zones is
what :mod:`judge.engine.visibility` models. What they do give holds inside these effects too:
the main deck may run out while cards are revealed and put into the trash, and the refresh
then waits for the effect to end (000, during an effect) except under the launch rules, where
it interrupts at once (:meth:`judge.engine.game.Game.move`). Each ruling that uses one of
these operations marks its reading of the card text as an interpretation.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine.cards import LOOK_OPS, LOOK_ZONES, RESTS, Op, Target
from judge.engine.events import AbilityRef
from judge.engine.state import CardInstance
from judge.engine.targets import players_for

if TYPE_CHECKING:
    from judge.engine.game import Game

__all__ = ["LOOK_OPS", "LOOK_ZONES", "RESTS", "look", "order", "reveal_until", "search"]
CAUSE: Final = "effect"


def _seen(game: Game, cards: list[CardInstance], looker: str, seen_by: str,
          name: AbilityRef) -> None:
    for inst in cards:
        game.emit(ev.Look, cause=CAUSE, player=looker, card=inst.label, source=name,
                  from_zone=inst.zone, seen_by=seen_by)


def _matches(game: Game, target: Target, inst: CardInstance, controller: str,
             source: CardInstance | None) -> bool:
    """Whether the target table of a looking operation matches ``inst`` (a card of a main
    deck: no cross state)."""
    return (target.card_type is None or inst.card.type == target.card_type) and (
        target.filter.empty or target.filter.admits(game, inst, frozenset(), controller,
                                                    source))


def _take(game: Game, op: Op, controller: str, source: CardInstance | None,
          among: list[CardInstance]) -> list[CardInstance]:
    """The cards of ``among`` that the operation's target matches and its player takes."""
    target = op.target
    if target is None:
        return []
    fits = [c for c in among if _matches(game, target, c, controller, source)]
    count = min(target.count, len(fits))
    picked = game.choose(controller, "target", [c.label for c in fits],
                         min_count=0 if target.up_to else count, max_count=count,
                         prompt=f"take {'up to ' if target.up_to else ''}{target.count} of "
                                "the cards looked at")
    return [game.card(label) for label in picked]


def _put(game: Game, op: Op, controller: str, taken: list[CardInstance], rest: list[CardInstance],
         player: str, name: AbilityRef) -> None:
    """The cards taken into ``zone`` (shown to both first with ``reveal``), then the rest;
    with ``zone = "deck_top"`` the rest first, then the cards taken on top of the deck, in
    the order the player chooses ("put one on top and the rest on the bottom")."""
    if op.reveal and op.name != "reveal_until":
        _seen(game, taken, controller, "both", name)
    on_top = op.zone == "deck_top"
    if not on_top:
        for inst in taken:
            game.move(inst, op.zone or "hand", CAUSE, op.name, source=name)
    where = op.rest or ("trash" if op.name == "reveal_until" else
                        "shuffle" if op.name == "search" else "bottom")
    if where == "trash":
        for inst in rest:
            game.move(inst, "trash", CAUSE, op.name, source=name)
    elif where == "shuffle":
        game.shuffle(player, CAUSE)
    else:
        _to_deck(game, order(game, controller, rest, where), where, name)
    if on_top:
        _to_deck(game, order(game, controller, taken, "top"), "top", name)


def _to_deck(game: Game, ordered: list[CardInstance], where: str, name: AbilityRef) -> None:
    """Put ``ordered`` (top first) on the ``top`` or ``bottom`` of its owner's deck: each card
    in turn on the bottom (or, from the last, on top), so the order chosen is the order the
    cards then have."""
    for inst in ordered if where == "bottom" else reversed(ordered):
        game.move(inst, "deck", CAUSE, f"deck_{where}", source=name, top=where == "top")


def order(game: Game, player: str, cards: list[CardInstance], where: str) -> list[CardInstance]:
    """The order ``player`` puts ``cards`` in, top first (choice ``order``, one card at a
    time; the last card is not asked about)."""
    left = list(cards)
    out: list[CardInstance] = []
    while len(left) > 1:
        label = game.choose(player, "order", [c.label for c in left],
                            prompt=f"which card goes next, from the top, onto the {where} of "
                                   "the deck")[0]
        inst = game.card(label)
        out.append(inst)
        left.remove(inst)
    return out + left


def _done(game: Game, op: Op, taken: int, seen: int) -> bool:
    game.acted = taken
    target = op.target
    if target is None:
        return seen >= 1
    return taken >= (1 if target.up_to else target.count)


def look(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> bool:
    done = True
    for player in players_for(op.who, controller):
        if op.look_from == "hand":  # the whole hand; what is not taken stays there
            seen = list(game.state.zone(player, "hand"))
            _seen(game, seen, controller, controller, name)
            taken = _take(game, op, controller, source, seen)
            _put(game, op, controller, taken, [], player, name)
            done = _done(game, op, len(taken), len(seen)) and done
            continue
        seen = list(game.state.zone(player, "deck")[:op.count])
        _seen(game, seen, controller, controller, name)
        taken = _take(game, op, controller, source, seen)
        _put(game, op, controller, taken, [c for c in seen if c not in taken], player, name)
        done = _done(game, op, len(taken), len(seen)) and done
    return done


def reveal_until(game: Game, op: Op, controller: str, source: CardInstance | None,
                 name: AbilityRef) -> bool:
    target = op.target
    assert target is not None  # the loader requires it
    done = True
    for player in players_for(op.who, controller):
        revealed: list[CardInstance] = []
        found: list[CardInstance] = []
        for inst in list(game.state.zone(player, "deck")):
            _seen(game, [inst], controller, "both", name)
            revealed.append(inst)
            if _matches(game, target, inst, controller, source):
                found.append(inst)
                if len(found) == target.count:
                    break
        _put(game, op, controller, found, [c for c in revealed if c not in found], player,
             name)
        done = _done(game, op, len(found), len(revealed)) and done
    return done


def search(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> bool:
    done = True
    for player in players_for(op.who, controller):
        seen = list(game.state.zone(player, "deck"))
        _seen(game, seen, controller, controller, name)
        taken = _take(game, op, controller, source, seen)
        _put(game, op, controller, taken, [], player, name)
        done = _done(game, op, len(taken), len(seen)) and done
    return done
