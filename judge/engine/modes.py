"""Modes ("choose one", "choose two"): which of a card's or an ability's modes its player
picks, and the operations they make.

Rule: the modes are chosen when the card or ability is used, after declaring the use and
before paying the cost and choosing targets (WIXOSS TCG Wiki "間違えやすいルール", 2014, コスト:
declare, choose modes, pay costs, choose targets); for a triggered ability, when it begins to
resolve, before its cost. ``choose`` different modes are picked (choice ``mode``; the options
``mode1``, ``mode2``, ... name the modes in printed order); the picked modes resolve in
printed order, after the card's operations outside its modes, as one effect (WIXOSS glossary
"ルール処理", 2020: one effect is the whole text of one use, all its modes included). A mode
whose target has gone does nothing; the player does not pick another.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine.cards import MAX_MODES, Ability, CardDef, Op
from judge.engine.events import AbilityRef

if TYPE_CHECKING:
    from judge.engine.game import Game

#: The answers of a choice of modes: ``mode1`` is the first mode printed.
MODE_WORDS: Final = tuple(f"mode{n}" for n in range(1, MAX_MODES + 1))


def choose_modes(game: Game, player: str, effect: tuple[Op, ...],
                 modes: tuple[tuple[Op, ...], ...], choose: int,
                 about: AbilityRef) -> tuple[Op, ...]:
    """The operations of the modes ``player`` picks (choice ``mode``, ``choose`` of them,
    each at most once), in printed order, after the other operations."""
    if not modes:
        return effect
    words = list(MODE_WORDS[:len(modes)])
    picked = game.choose(player, "mode", words, choose, choose,
                         prompt=f"choose {choose} of the modes of {about}", about=about)
    out = list(effect)
    for i, word in enumerate(words):
        if word in picked:
            out.extend(modes[i])
    return tuple(out)


def card_ops(game: Game, player: str, card: CardDef, about: AbilityRef) -> tuple[Op, ...]:
    """What an ARTS or Spell does when used: its effect and the modes its player picks."""
    return choose_modes(game, player, card.effect, card.modes, card.choose, about)


def ability_ops(game: Game, player: str, ability: Ability, about: AbilityRef
                ) -> tuple[Op, ...]:
    """What an ability does: its effect and the modes its player picks."""
    return choose_modes(game, player, ability.effect, ability.modes, ability.choose, about)
