"""Board diagrams: the position after a step, as a small inline SVG.

:func:`board_of` draws a replay's :class:`~judge.engine.trace.Position` as a :class:`Board`
(language-free): the part of the position a board shows, so that two boards are equal when
they look the same. A ruling page
draws all its boards on one :class:`Layout` (:func:`layout_for`): the zones that hold a card in
any of them, in a fixed order, the same for both players (player 2 above, player 1 below), each
row of boxes as tall as it needs to be in the fullest board. What does not change between the
boards of a page (the boxes, the players' names and the zones' names) is drawn once, by
:func:`frame_svg`, as an SVG ``<g>`` in a hidden ``<svg>`` at the top of the replay; each board
(:func:`render_svg`) shows it with ``<use>`` and adds only what is its own: the turn player's
mark (●), the card counts, the card labels (a down card marked ↓, a frozen one ❄), a SIGNI's
power and the cards under it. The card names are in the page's key to the cards and in the
narration (a card's full name at its first mention), not in every board, so that a long
replay stays within a phone page (docs/site.md, "The replay on a ruling page").
The styling lives in the site's stylesheet (classes only); the rules for what the frame draws
(``path.bx``, ``text.zn``, ``text.ph``) name no ancestor, since Chromium matches the rules
of the copies that ``<use>`` shows within the ``<use>`` alone.
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from html import escape

from judge.engine.state import PLAYERS, SIGNI_ZONES
from judge.engine.trace import Position
from judge.narrate import Narrator
from judge.narrate.cards import short_names

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


def board_of(position: Position) -> Board:
    """What a board shows of a position: every zone's labels, down and frozen marks, the
    power of a SIGNI on the field, the turn, the phase and the winner."""
    zones = []
    for player in PLAYERS:
        for zone in (*ORDER, "under1", "under2", "under3"):
            cards = tuple(
                CardView(c.label, c.down, c.frozen, c.power if zone in SIGNI_ZONES else None)
                for c in position.zone(player, zone))
            zones.append((player, zone, cards))
    return Board(position.turn, position.turn_player, position.phase, position.attack_step,
                 tuple(zones), position.winner)


def zones_used(boards: Iterable[Board]) -> tuple[str, ...]:
    """The zones to draw for a series of boards: those holding a card in any of them (for
    either player), in a fixed order; both players get the same layout."""
    used = {z for b in boards for p, z, cards in b.zones if cards}
    used |= {z for z, u in UNDER.items() if u in used}
    return tuple(z for z in ORDER if z in used) or ("lrig",)


#: The marks after a card's label, and what they stand for (the page's key explains them).
DOWN_MARK = "\u2193"  # ↓
FROZEN_MARK = "\u2744"  # ❄
#: The id of the frame's ``<g>``: one frame per page.
FRAME_ID = "board-frame"
HEAD = 14  # a player's name line
PLAYER_GAP = 8  # below a player's last row


def card_text(card: CardView) -> str:
    """A card's label with its marks: ``T1``, ``T1↓``, ``T1↓❄``."""
    return card.label + (DOWN_MARK if card.down else "") + (FROZEN_MARK if card.frozen else "")


def _lines(cards: Sequence[CardView], width: float) -> list[list[CardView]]:
    lines: list[list[CardView]] = []
    line: list[CardView] = []
    used = 0.0
    for card in cards:
        w = (len(card_text(card)) + 1) * CHAR_W
        if line and used + w > width:
            lines.append(line)
            line, used = [], 0.0
        line.append(card)
        used += w
    if line:
        lines.append(line)
    return lines


def _box_lines(board: Board, player: str, zone: str) -> int:
    """How many text lines the box of ``zone`` needs below its name on ``board``."""
    cards = board.cards(player, zone)
    count = max(1, min(len(_lines(cards, BOX_W - 6)), MAX_LINES))
    if zone in SIGNI_ZONES and cards and cards[0].power is not None:
        count += 1
    if zone in UNDER and board.cards(player, UNDER[zone]):
        count += 1
    return count


def _box_height(lines: int) -> int:
    return 9 + LINE * lines + 4


@dataclass(frozen=True)
class Layout:
    """Where every box is, for all the boards of a page (language-free)."""

    zones: tuple[str, ...]
    #: per player (p2, p1), per row of boxes, the text lines of its tallest box
    rows: tuple[tuple[int, ...], tuple[int, ...]]

    @property
    def boxes(self) -> tuple[tuple[str, int, str, int, int, int], ...]:
        """(player, y of the player's name, zone, x, y, height) of every box."""
        return self._placed[0]

    @property
    def height(self) -> int:
        """The height of a board drawn on this layout."""
        return self._placed[1]

    @functools.cached_property
    def _placed(self) -> tuple[tuple[tuple[str, int, str, int, int, int], ...], int]:
        """The boxes and the height, worked out once (every board of the page reads them)."""
        out = []
        y = 0
        for player, rows in zip(("p2", "p1"), self.rows, strict=True):
            head_y = y
            y += HEAD
            for r, lines in enumerate(rows):
                for c, zone in enumerate(self.zones[r * COLUMNS:(r + 1) * COLUMNS]):
                    out.append((player, head_y, zone, c * (BOX_W + GAP) + 2, y,
                                _box_height(lines)))
                y += _box_height(lines) + GAP
            y += PLAYER_GAP - GAP
        return tuple(out), y


def layout_for(boards: Iterable[Board]) -> Layout:
    """The layout that fits every board in ``boards``."""
    boards = list(boards)
    zones = zones_used(boards)
    n_rows = (len(zones) + COLUMNS - 1) // COLUMNS
    rows = tuple(
        tuple(max((_box_lines(b, player, z) for b in boards
                   for z in zones[r * COLUMNS:(r + 1) * COLUMNS]), default=1)
              for r in range(n_rows))
        for player in ("p2", "p1"))
    return Layout(zones, (rows[0], rows[1]))


def frame_svg(layout: Layout, n: Narrator) -> str:
    """The hidden ``<svg>`` holding what every board of the page shares: the boxes, the
    players' names and the zones' names, in the page's language (markup; escaped here)."""
    paths: list[str] = []
    texts: list[str] = []
    heads: set[str] = set()
    for player, head_y, zone, x, y, h in layout.boxes:
        if player not in heads:
            heads.add(player)
            texts.append(f'<text class="ph" x="12" y="{head_y + 10}">'
                         f"{escape(n.player(player))}</text>")
        paths.append(f"M{x} {y}h{BOX_W}v{h}h-{BOX_W}z")
        texts.append(f'<text class="zn" x="{x + 3}" y="{y + 9}">{escape(n.zone_name(zone))}'
                     "</text>")
    return (f'<svg class="board frame" aria-hidden="true" focusable="false"><defs>'
            f'<g id="{FRAME_ID}"><path class="bx" d="{"".join(paths)}"/>{"".join(texts)}</g>'
            "</defs></svg>")


def render_svg(board: Board, layout: Layout, *, labelledby: str = "", label: str = "") -> str:
    """The board as an ``<svg>`` element on the page's frame (markup; escaped here), named
    by the element with id ``labelledby`` (its caption) or else by ``label``."""
    name = (f'aria-labelledby="{escape(labelledby, quote=True)}"' if labelledby
            else f'aria-label="{escape(label, quote=True)}"')
    parts = [f'<use href="#{FRAME_ID}"/>']
    boxes = layout.boxes
    heads = {player: head_y for player, head_y, *_ in boxes}
    if board.turn_player in heads:
        parts.append(f'<text class="ph" x="2" y="{heads[board.turn_player] + 10}">\u25cf</text>')
    for player, _, zone, x, y, _ in boxes:
        _box(parts, board, player, zone, x, y)
    return (f'<svg class="board" viewBox="0 0 {WIDTH} {layout.height}" role="img" {name}>'
            + "".join(parts) + "</svg>")


def _box(parts: list[str], board: Board, player: str, zone: str, x: int, y: int) -> None:
    cards = list(board.cards(player, zone))
    under = board.cards(player, UNDER[zone]) if zone in UNDER else ()
    if cards and zone not in SIGNI_ZONES:
        parts.append(f'<text class="zc" x="{x + BOX_W - 3}" y="{y + 9}">{len(cards)}</text>')
    lines = _lines(cards, BOX_W - 6)
    shown = lines[:MAX_LINES]
    more = sum(len(line) for line in lines[MAX_LINES:])
    ly = y + 9 + LINE
    for j, line in enumerate(shown):
        items = [_card(card) for card in line]
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
        labels = " ".join(_card(c) for c in under)
        parts.append(f'<text class="un" x="{x + 3}" y="{ly}">+ {labels}</text>')


def _card(card: CardView) -> str:
    """A card's label and marks, in a ``<tspan>`` with a class when it is down or frozen."""
    text = escape(card_text(card))
    classes = [c for c, on in (("dn", card.down), ("fz", card.frozen)) if on]
    return f'<tspan class="{" ".join(classes)}">{text}</tspan>' if classes else text


def card_key(boards: Iterable[Board], n: Narrator) -> list[tuple[str, str]]:
    """(label, what the card is in a few words, in the page's language) of every named card
    on ``boards``, in label order: the page's key to the labels the boards and the sentences
    show (:meth:`~judge.narrate.Narrator.card_short`)."""
    labels = sorted({c.label for b in boards for _, _, cards in b.zones for c in cards},
                    key=_label_order)
    names = short_names(n, labels)
    return [(label, names[label]) for label in labels if label in names]


def _label_order(label: str) -> tuple[str, int, str]:
    head = label.rstrip("0123456789")
    digits = label[len(head):]
    return (head, int(digits) if digits else -1, label)
