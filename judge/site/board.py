"""Board diagrams: the position after a step, as a small inline SVG.

:func:`snapshot` freezes a game's zones into a :class:`Board` (language-free);
:func:`render_svg` draws it in one language: both players (player 2 above, player 1 below),
each zone as a box with its name and the labels of its cards, each card's name as its
``<title>`` (a tooltip, and what a screen reader announces). Zones that stay empty in every
board of a replay are left out (``zones_used``), so the diagrams stay small and keep one
layout from one step to the next. The styling lives in the site's stylesheet (classes only).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

from judge.engine.game import Game
from judge.engine.state import PLAYERS, SIGNI_ZONES
from judge.narrate import Narrator

#: The order zones are drawn in (four to a row), when they hold a card in some board.
ORDER = ("lrig", "assist1", "assist2", "key", "signi1", "signi2", "signi3", "deck", "life",
         "hand", "ener", "trash", "check", "lrig_deck", "lrig_trash")
UNDER = {"signi1": "under1", "signi2": "under2", "signi3": "under3"}
COLUMNS = 4
WIDTH = 344
BOX_W = 82
GAP = 4
LINE = 11
MAX_LINES = 3
CHAR_W = 6.0


@dataclass(frozen=True)
class CardView:
    label: str
    down: bool = False
    frozen: bool = False
    power: int | None = None


@dataclass(frozen=True)
class Board:
    turn: int
    turn_player: str
    phase: str
    attack_step: str
    zones: tuple[tuple[str, str, tuple[CardView, ...]], ...]  # (player, zone, cards)
    winner: str | None = None

    def cards(self, player: str, zone: str) -> tuple[CardView, ...]:
        for p, z, cards in self.zones:
            if p == player and z == zone:
                return cards
        return ()


def snapshot(game: Game) -> Board:
    state = game.state
    zones = []
    for player in PLAYERS:
        for zone in (*ORDER, "under1", "under2", "under3"):
            cards = tuple(
                CardView(c.label, c.down, c.frozen,
                         game.power(c) if zone in SIGNI_ZONES else None)
                for c in state.zone(player, zone))
            zones.append((player, zone, cards))
    return Board(state.turn, state.turn_player, state.phase, state.attack_step, tuple(zones),
                 state.winner)


def zones_used(boards: Iterable[Board]) -> tuple[str, ...]:
    """The zones to draw for a series of boards: those holding a card in any of them (for
    either player), in a fixed order; both players get the same layout."""
    used = {z for b in boards for p, z, cards in b.zones if cards}
    used |= {z for z, u in UNDER.items() if u in used}
    return tuple(z for z in ORDER if z in used) or ("lrig",)


def _lines(cards: Sequence[CardView], width: float) -> list[list[CardView]]:
    lines: list[list[CardView]] = []
    line: list[CardView] = []
    used = 0.0
    for card in cards:
        w = (len(card.label) + 1) * CHAR_W
        if line and used + w > width:
            lines.append(line)
            line, used = [], 0.0
        line.append(card)
        used += w
    if line:
        lines.append(line)
    return lines


def render_svg(board: Board, n: Narrator, zones: Sequence[str], caption: str) -> str:
    """The board as an ``<svg>`` element (markup; every text is escaped here)."""
    parts: list[str] = []
    boxes: list[str] = []
    y = 0
    for player in ("p2", "p1"):
        head = n.player(player) + (" ●" if board.turn_player == player else "")
        parts.append(f'<text class="ph" x="2" y="{y + 10}">{escape(head)}</text>')
        y += 14
        row_h = 0
        for i, zone in enumerate(zones):
            col = i % COLUMNS
            if col == 0 and i:
                y += row_h + GAP
                row_h = 0
            x = col * (BOX_W + GAP) + 2
            h = _box(parts, board, n, player, zone, x, y)
            boxes.append(f"M{x} {y}h{BOX_W}v{h}h-{BOX_W}z")
            row_h = max(row_h, h)
        y += row_h + 8
    label = escape(caption, quote=True)
    return (f'<svg class="board" viewBox="0 0 {WIDTH} {y}" role="img" aria-label="{label}">'
            f'<path d="{"".join(boxes)}"/>' + "".join(parts) + "</svg>")


def _box(parts: list[str], board: Board, n: Narrator, player: str, zone: str, x: int,
         y: int) -> int:
    cards = list(board.cards(player, zone))
    under = board.cards(player, UNDER[zone]) if zone in UNDER else ()
    parts.append(f'<text class="zn" x="{x + 3}" y="{y + 9}">{escape(n.zone_name(zone))}</text>')
    if cards and zone not in SIGNI_ZONES:
        parts.append(f'<text class="zc" x="{x + BOX_W - 3}" y="{y + 9}">{len(cards)}</text>')
    lines = _lines(cards, BOX_W - 6)
    shown = lines[:MAX_LINES]
    more = sum(len(line) for line in lines[MAX_LINES:])
    ly = y + 9 + LINE
    for j, line in enumerate(shown):
        items = [_card(n, card) for card in line]
        if more and j == len(shown) - 1:
            items.append(f"+{more}")
        parts.append(f'<text x="{x + 3}" y="{ly}">{" ".join(items)}</text>')
        ly += LINE
    if not shown:
        ly += LINE
    if zone in SIGNI_ZONES and cards and cards[0].power is not None:
        parts.append(f'<text class="pw" x="{x + 3}" y="{ly}">{cards[0].power}</text>')
        ly += LINE
    if under:
        labels = " ".join(_card(n, c) for c in under)
        parts.append(f'<text class="un" x="{x + 3}" y="{ly}">+ {labels}</text>')
        ly += LINE
    return ly - LINE + 4 - y


def _card(n: Narrator, card: CardView) -> str:
    """A card label; with a ``<tspan>`` when it has a name (its ``<title>``) or is down or
    frozen (a class, and a word in the title)."""
    name = n.card_name(card.label) or ""
    classes = [c for c, on in (("dn", card.down), ("fz", card.frozen)) if on]
    if not name and not classes:
        return escape(card.label)
    marks = n.card_state(card.down, card.frozen)
    title = " ".join(t for t in (name, marks) if t)
    cls = f' class="{" ".join(classes)}"' if classes else ""
    return f"<tspan{cls}><title>{escape(title)}</title>{escape(card.label)}</tspan>"
