"""Amounts taken from what an effect did or from what is in play (issue 30).

An operation's number may be multiplied when its turn comes (``for_each``):

- ``"done"``: by the cards the operation just before it acted on ("draw a card for each card
  discarded this way", "as many as were banished": each operation counts what it did,
  ``Game.acted``; a skipped operation acted on none);
- ``"paid"``: by the cards discarded for the cost of the ability, ARTS or Spell that
  resolves (a cost whose count varies: ``discard = { count = 0, at_most = 3 }``,
  :class:`judge.engine.costs.Cost`);
- a count table, the counting part of a condition (``{ zone = "hand" }``,
  ``{ zone = "ener", colours = true }`` "for each colour among your ener"): by the cards it
  counts, or their different colours (colourless is no colour: Chinese wiki "WIXOSS/游戏规则",
  无色).

The number multiplied is the operation's ``count`` (``draw``, ``mill``, ``ener_charge``,
``crush``), its target's ``count`` (``discard``) or its ``amount`` (``power``, ``level``,
``limit``, ``coins``). A constant ability's operation with a count table is multiplied anew
whenever the layer is computed ("+1000 for each card in your hand"); a lasting effect's is
multiplied once, when it begins, and keeps that amount.

``keep`` on ``discard`` ("discard until you have N cards in your hand"): the player discards
as many cards as they have above N, chosen by them; with N or fewer, none.

The sources describe none of these texts; each is card text the rules leave to the card
(Chinese wiki, 卡牌的效果处理及其他规则: card text comes before the rules), and each ruling
that uses one marks its reading as an interpretation.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Final

from judge.engine.conditions import Condition, parse_count
from judge.engine.state import other
from judge.errors import FieldError
from judge.ids import quote

if TYPE_CHECKING:
    from judge.engine.cards import Op
    from judge.engine.game import Game
    from judge.engine.state import CardInstance

#: What ``for_each`` may say besides a count table.
FOR_EACH_WORDS: Final = ("done", "paid")
#: The operations whose number ``for_each`` multiplies, and which number: ``count``,
#: ``target`` (its target's count) or ``amount``.
FOR_EACH_OPS: Final[dict[str, str]] = {
    "draw": "count", "mill": "count", "ener_charge": "count", "crush": "count",
    "discard": "target", "power": "amount", "level": "amount", "limit": "amount",
    "coins": "amount"}


@dataclass(frozen=True, slots=True)
class ForEach:
    """What an operation's number is multiplied by: ``word`` (``done``, ``paid``) or
    ``count`` (a condition's counting part, read with :meth:`Condition.measure`)."""

    word: str = ""
    count: Condition | None = None

    @property
    def derived(self) -> bool:
        """Whether its count reads power, level or abilities (refused in a constant
        ability, whose layer computes them)."""
        return self.count is not None and self.count.derived


def parse_for_each(raw: Any, where: str, card_types: tuple[str, ...]) -> ForEach:
    """``"done"``, ``"paid"`` or a count table (:func:`judge.engine.conditions.parse_count`)."""
    if isinstance(raw, str):
        if raw not in FOR_EACH_WORDS:
            raise FieldError(where, f"unknown value {quote(raw)} (or a count table such as "
                                    "{ zone = \"hand\" })", FOR_EACH_WORDS)
        return ForEach(word=raw)
    return ForEach(count=parse_count(raw, where, card_types))


def factor(game: Game, each: ForEach, controller: str, source: CardInstance | None,
           acted: int, paid: int, crossed: frozenset[str] = frozenset()) -> int:
    """The number ``each`` stands for now."""
    if each.word == "done":
        return acted
    if each.word == "paid":
        return paid
    assert each.count is not None
    return each.count.measure(game, controller, crossed, source)


def scaled(game: Game, op: Op, controller: str, source: CardInstance | None, acted: int,
           paid: int) -> Op:
    """``op`` with its number multiplied as its ``for_each`` says, and a ``discard`` with
    ``keep`` made a discard of the cards above it (see the module); the returned operation
    has neither left."""
    if op.keep is not None:
        target = op.target
        assert target is not None
        hand = sum(len(game.state.zone(p, "hand")) for p in
                   ((controller,) if target.who == "self" else (other(controller),)))
        return replace(op, keep=None, target=replace(target, count=max(0, hand - op.keep)))
    each = op.for_each
    assert each is not None
    n = factor(game, each, controller, source, acted, paid, game.crossed())
    which = FOR_EACH_OPS[op.name]
    if which == "count":
        return replace(op, for_each=None, count=op.count * n)
    if which == "target":
        assert op.target is not None
        return replace(op, for_each=None, target=replace(op.target, count=op.target.count * n))
    return replace(op, for_each=None, amount=op.amount * n)
