"""Before the first turn: deck checks, the opening hand, the redraw and the life cloth.

Sources: WIXOSS TCG Wiki "間違えやすいルール" (ゲームの準備; ライフバースト: exactly 20 cards
with a Life Burst in that era) and the Chinese wiki "WIXOSS/游戏规则" (基本规则: a main deck of
exactly 40 cards, at most 20 of them with a Life Burst since the DIVA format; a LRIG deck of at
most 10 cards with a level-0 LRIG; one copy of each LRIG-deck card; 卡牌种类: Pieces take none of
the LRIG deck's ten places but have two places of their own, and only a deck with assist LRIGs
may hold them: **interpretation**, at most two Pieces beside the ten cards, and only in a
format with assist LRIGs, Diva Selection).

- The winner of rock-paper-scissors goes first; they do not choose.
- Each player shuffles and draws five cards; each may redraw once: return any number of cards,
  shuffle, and draw as many. A second redraw is not allowed.
- Then each puts seven cards from the top of the main deck into the life cloth, and the first
  player's first turn begins.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine.cards import CardDef
from judge.engine.formats import DEFAULT, FORMATS
from judge.engine.placement import LRIG_DECK_TYPES, MAIN_DECK_TYPES
from judge.engine.rulesets import RuleSet
from judge.engine.state import PLAYERS
from judge.errors import IllegalAction

if TYPE_CHECKING:
    from judge.engine.game import Game

MAIN_DECK_SIZE: Final = 40
BURST_COUNT: Final = 20
LRIG_DECK_MAX: Final = 10
#: Pieces a LRIG deck may hold beside its ten cards (Diva Selection only).
PIECES_MAX: Final = 2
OPENING_HAND: Final = 5
LIFE_CLOTH: Final = 7


def deck_problems(main: Sequence[CardDef], lrig: Sequence[CardDef], rules: RuleSet,
                  fmt: str = DEFAULT) -> list[str]:
    """What makes a pair of decks illegal, as sentences a judge can read (empty: legal), in
    the format ``fmt`` (:data:`judge.engine.formats.FORMATS`)."""
    out: list[str] = []
    if len(main) != MAIN_DECK_SIZE:
        out.append(f"the main deck has {len(main)} cards; it must have exactly "
                   f"{MAIN_DECK_SIZE}")
    wrong = sorted({c.id for c in main if c.type not in MAIN_DECK_TYPES})
    if wrong:
        out.append(f"these cards belong in the LRIG deck, not the main deck: "
                   f"{', '.join(wrong)}")
    bursts = sum(1 for c in main if c.has_burst)
    if rules.burst_count == "exactly" and bursts != BURST_COUNT:
        out.append(f"{bursts} main-deck cards have a Life Burst; under {rules.id} exactly "
                   f"{BURST_COUNT} must")
    if rules.burst_count == "at_most" and bursts > BURST_COUNT:
        out.append(f"{bursts} main-deck cards have a Life Burst; at most {BURST_COUNT} may")
    pieces = sum(1 for c in lrig if c.type == "piece")
    if len(lrig) - pieces > LRIG_DECK_MAX:
        out.append(f"the LRIG deck has {len(lrig) - pieces} cards besides its Pieces; at most "
                   f"{LRIG_DECK_MAX} are allowed")
    if pieces and not FORMATS[fmt].assists:
        allowed = ", ".join(f.id for f in FORMATS.values() if f.assists)
        out.append(f"the LRIG deck holds {pieces} Piece(s); Pieces are allowed only in a "
                   f"format with assist LRIGs ({allowed})")
    elif pieces > PIECES_MAX:
        out.append(f"the LRIG deck holds {pieces} Pieces; at most {PIECES_MAX} are allowed "
                   f"beside its {LRIG_DECK_MAX} cards")
    wrong = sorted({c.id for c in lrig if c.type not in LRIG_DECK_TYPES})
    if wrong:
        out.append(f"these cards belong in the main deck, not the LRIG deck: "
                   f"{', '.join(wrong)}")
    if not any(c.type == "lrig" and c.level == 0 for c in lrig):
        out.append("the LRIG deck has no level-0 LRIG to start with")
    twice = sorted(name for name, n in Counter(c.id for c in lrig).items() if n > 1)
    if twice:
        out.append(f"the LRIG deck holds more than one copy of: {', '.join(twice)}")
    return out


def start_game(game: Game, first: str) -> None:
    """Rock-paper-scissors is won by ``first``, who goes first. Each player checks their
    decks, puts a level-0 LRIG into the LRIG zone, shuffles and draws five cards."""
    state = game.state
    if state.phase != "setup" or any(state.zone(p, "hand") for p in PLAYERS):
        raise IllegalAction("not-setup", "the game has already started")
    for p in PLAYERS:
        problems = deck_problems([c.card for c in state.zone(p, "deck")],
                                 [c.card for c in state.zone(p, "lrig_deck")], game.rules,
                                 state.format)
        if problems:
            raise IllegalAction("illegal-deck", f"{p}: " + "; ".join(problems))
    state.first_player = first
    state.turn_player = first
    game.emit(ev.GameStart, cause="game", player=first, first=first)
    for p in (first, "p2" if first == "p1" else "p1"):
        if not state.zone(p, "lrig"):
            level0 = next(c for c in state.zone(p, "lrig_deck")
                          if c.card.type == "lrig" and c.card.level == 0)
            game.move(level0, "lrig", "game", "start")
        game.shuffle(p, "game")
        for _ in range(OPENING_HAND):
            game.move(state.zone(p, "deck")[0], "hand", "game", "draw")


def redraw(game: Game, player: str, labels: Sequence[str]) -> None:
    """Return any number of cards from the opening hand, shuffle, and draw as many; once."""
    state = game.state
    if state.phase != "setup":
        raise IllegalAction("not-setup", "a redraw is only made before the first turn")
    if not state.zone(player, "hand"):
        raise IllegalAction("not-setup", f"{player} has not drawn an opening hand")
    if player in state.redrawn:
        raise IllegalAction("redraw-twice", f"{player} has already redrawn")
    cards = [game.card(label) for label in labels]
    for inst in cards:
        if inst.zone.zone != "hand" or inst.owner != player:
            raise IllegalAction("not-in-hand", f"{inst.label} is not in {player}'s hand")
    state.redrawn.add(player)
    for inst in cards:
        game.move(inst, "deck", "game", "redraw")
    game.shuffle(player, "game")
    for _ in cards:
        game.move(state.zone(player, "deck")[0], "hand", "game", "draw")
    game.emit(ev.Redraw, cause="game", player=player, count=len(cards))


def begin_game(game: Game) -> None:
    """Seven life cloth each from the top of the main deck; then the first player's first turn
    begins (:func:`judge.engine.turn.begin_turn`)."""
    state = game.state
    for p in (state.first_player, "p2" if state.first_player == "p1" else "p1"):
        for _ in range(LIFE_CLOTH):
            deck = state.zone(p, "deck")
            if not deck:
                break
            game.move(deck[0], "life", "game", "life_cloth")
    state.turn = 0
    state.turn_player = "p2" if state.first_player == "p1" else "p1"
