"""Board diagrams: a position of a replay, as a small inline SVG, with what changed marked.

:func:`board_of` draws a replay's :class:`~judge.engine.trace.Position` as a :class:`Board`
(language-free): the part of the position a board shows, so that two boards are equal when
they look the same. :func:`marked` marks on a board what changed since the previous board of
the page (:data:`NEW`: a card that arrived in its zone, :data:`GONE`: a card that left it,
shown struck through where it was, :data:`CHANGED`: a card whose power, down or frozen state
changed), in text decorations that read without colour, in grey-scale print too.

A ruling page draws all its boards on one :class:`Layout` (:func:`layout_for`): the zones
that hold a card in any of them, in a fixed order, three to a row, the same for both players
(player 2 above, player 1 below), each row of boxes as tall as it needs to be in the fullest
board. What does not change between the boards of a page (the boxes, the players' and the
zones' names, the ▲ that marks where the top of a pile is listed) is drawn once, by
:func:`frame_svg`, as an SVG ``<g>`` in a hidden ``<svg>`` at the top of the replay; each board
(:func:`render_svg`) shows it with ``<use>`` and adds only what is its own: the turn player's
mark (●), the count of a pile's cards (from two), the card labels (a down card marked ↓, a
frozen one ❄) with their change marks, a SIGNI's power (``5000→8000`` when it changed) and the
cards under it; :class:`Painter` draws once what several boards draw alike. The main
deck and the life cloth are listed from the top card, an LRIG stack (the LRIG zone, an assist
LRIG zone) from the LRIG on top, after a ▲. The card names are in the page's key to the cards,
not in every board, so that a long replay stays within a phone page (docs/site.md, "The
replay on a ruling page"). The text is 11.5 units high on a board 344 units wide: at least 11
pixels on a phone 390 pixels wide.

The styling lives in the site's stylesheet (classes only); the rules for what the frame draws
(``path.bx``, ``g.zn``, ``text.ph``) name no ancestor, since Chromium matches
the rules of the copies that ``<use>`` shows within the ``<use>`` alone.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from html import escape

from judge.engine.state import FIELD_ZONES, LRIG_STACK_ZONES, ON_FIELD, PLAYERS, SIGNI_ZONES
from judge.engine.trace import Position
from judge.engine.visibility import sees
from judge.langs import LANGS, N_
from judge.narrate import Narrator
from judge.narrate.cards import short_names

#: The order zones are drawn in (three to a row), when they hold a card in some board.
ORDER = ("lrig", "assist1", "assist2", "key", "signi1", "signi2", "signi3", "seed1", "seed2",
         "seed3", "trap1", "trap2", "trap3", "cheer", "deck", "life", "hand", "ener", "trash",
         "check", "lrig_deck", "lrig_trash")
#: Zones whose SIGNI show a power: the SIGNI zones and the cheer zone.
POWER_ZONES = (*SIGNI_ZONES, "cheer")
UNDER = {"signi1": "under1", "signi2": "under2", "signi3": "under3"}
#: Zones listed from their top card, after a ▲: piles (top first in the position) and LRIG
#: stacks (the LRIG on top last in the position, first on the board).
TOP_ZONES = ("deck", "life", *LRIG_STACK_ZONES)
#: Zones whose count of cards a board shows (from two cards: one label is one card); the
#: cards of an LRIG stack, a Key zone or a SIGNI zone are few enough to see.
COUNTED = ("deck", "life", "hand", "ener", "trash", "check", "lrig_deck", "lrig_trash")
COLUMNS = 3
WIDTH = 344
GAP = 4
BOX_W = (WIDTH - 4 - GAP * (COLUMNS - 1)) // COLUMNS  # 110
LINE = 14  # a line of text (11.5 units high)
NAME = 12  # from a box's top to its name's baseline
MAX_LINES = 3
CHAR_W = 6.7  # a Latin character of a label, at 11.5 units
TOP_W = 11  # the ▲ before the top card

#: The change marks (:func:`marked`).
NEW = "nw"
GONE = "gn"
CHANGED = "cg"


#: Who may look at a face-down card on the field (:data:`CardView.hidden`): its owner only
#: (a Seed, a Trap), or nobody (a Charm).
OWNER = "owner"
NOBODY = "nobody"


@dataclass(frozen=True)
class CardView:
    label: str
    down: bool = False
    frozen: bool = False
    power: int | None = None
    #: a face-down card on the field: who may look at it (:data:`OWNER`, :data:`NOBODY`)
    hidden: str = ""
    #: the keywords a SIGNI on the field has from effects, not printed (or printed but lost)
    given: tuple[str, ...] = ()
    #: a SIGNI on the field that has lost its abilities
    lost: bool = False
    #: a SIGNI on the field in a cross state (with the partner its Cross icon names)
    crossed: bool = False
    #: what changed since the previous board: "", NEW, GONE or CHANGED
    mark: str = ""
    #: the power on the previous board, when it changed
    was: int | None = None
    #: on the board of a rule-processing check: the kinds whose condition the card meets
    rule: tuple[str, ...] = ()


@dataclass(frozen=True)
class Board:
    turn: int
    turn_player: str
    phase: str
    attack_step: str
    zones: tuple[tuple[str, str, tuple[CardView, ...]], ...]  # (player, zone, cards)
    winner: str | None = None
    #: on the board of a rule-processing check: (player, zone, kind) of a zone that meets a
    #: kind's condition as a whole (an empty main deck: the refresh)
    conditions: tuple[tuple[str, str, str], ...] = ()
    #: (player, SIGNI zone, kind) of each marker on a zone: a virus, a gate
    #: (judge/engine/mechanics/markers.py), drawn as its mark (:data:`MARKER_MARKS`)
    markers: tuple[tuple[str, str, str], ...] = ()

    def __hash__(self) -> int:
        """The hash of its fields (as the dataclass's own), worked out once: boards key the
        tables a page's painter draws from, and hashing every card of every zone at each
        look-up was a tenth of the time of a page's replay."""
        known: int | None = self.__dict__.get("_hash")
        if known is None:
            known = hash((self.turn, self.turn_player, self.phase, self.attack_step,
                          self.zones, self.winner, self.conditions, self.markers))
            object.__setattr__(self, "_hash", known)
        return known

    def __getstate__(self) -> dict[str, object]:
        """Without the remembered hash, which another process's strings would not give."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def cards(self, player: str, zone: str) -> tuple[CardView, ...]:
        for p, z, cards in self.zones:
            if p == player and z == zone:
                return cards
        return ()


def board_of(position: Position, printed: Mapping[str, Iterable[str]] | None = None) -> Board:
    """What a board shows of a position: every zone's labels (an LRIG stack from the LRIG on
    top), down and frozen marks, the power of a SIGNI on the field, a face-down card on the
    field with who may look at it (:func:`judge.engine.visibility.sees`), the keywords a
    SIGNI has that ``printed`` (card id -> its printed keywords) does not give it, or all of
    them once it lost its abilities, whether it lost them, the turn, the phase and the
    winner."""
    printed = printed or {}
    zones = []
    for player in PLAYERS:
        for zone in (*ORDER, "under1", "under2", "under3"):
            field = zone in FIELD_ZONES
            on = zone in ON_FIELD
            cards = tuple(
                CardView(c.label, c.down, c.frozen, c.power if on else None,
                         (OWNER if sees(player, player, zone, True) else NOBODY)
                         if c.face_down and field else "",
                         tuple(k for k in c.keywords
                               if c.lost or k not in printed.get(c.card, ())) if on else (),
                         c.lost, on and c.crossed)
                for c in position.zone(player, zone))
            if zone in LRIG_STACK_ZONES:
                cards = cards[::-1]
            zones.append((player, zone, cards))
    markers = tuple((player, zone, kind) for player in PLAYERS
                    for zone, _, kind in (m.partition(":")
                                          for m in position.player(player).markers))
    return Board(position.turn, position.turn_player, position.phase, position.attack_step,
                 tuple(zones), position.winner, markers=markers)


def at_check(board: Board, acts: Iterable[tuple[str, str]]) -> Board:
    """``board`` as the board of a rule-processing check: each card a kind acts on marked
    with that kind (``acts``: (kind, card label), as ``rule_check`` events list them), and
    for the refresh, which acts on a player, that player's main deck (:data:`RULE_MARK`)."""
    by_card: dict[str, list[str]] = {}
    zones: list[tuple[str, str, str]] = []
    for kind, target in acts:
        if kind == "refresh" and target in PLAYERS:
            zones.append((target, "deck", kind))
        else:
            by_card.setdefault(target, []).append(kind)
    return replace(board, conditions=tuple(zones), zones=tuple(
        (p, z, tuple(replace(c, rule=tuple(by_card[c.label])) if c.label in by_card else c
                     for c in cards))
        for p, z, cards in board.zones))


def marked(board: Board, previous: Board | None) -> Board:
    """``board`` with what changed since ``previous`` marked: a card in a zone it was not in
    (:data:`NEW`), a card still in its zone whose power, down or frozen state changed
    (:data:`CHANGED`, with its power before), and, after the cards of each zone, the cards that
    were there and are not any more (:data:`GONE`). Without a previous board, nothing is
    marked."""
    if previous is None:
        return board
    before = {c.label: (p, z, c) for p, z, cards in previous.zones for c in cards}
    zones = []
    for player, zone, cards in board.zones:
        shown = []
        here = set()
        for card in cards:
            here.add(card.label)
            old = before.get(card.label)
            if old is None or old[:2] != (player, zone):
                shown.append(replace(card, mark=NEW))
            elif _looks(old[2]) != _looks(card):
                was = old[2].power if old[2].power != card.power else None
                shown.append(replace(card, mark=CHANGED, was=was))
            else:
                shown.append(card)
        zones.append((player, zone, _with_gone(shown, previous.cards(player, zone), here)))
    return replace(board, zones=tuple(zones))


def _looks(card: CardView) -> tuple[object, ...]:
    """What a change of marks :data:`CHANGED` on a card that stayed in its zone."""
    return (card.down, card.frozen, card.power, card.hidden, card.given, card.lost,
            card.crossed)


def _with_gone(shown: list[CardView], before: Sequence[CardView],
               here: set[str]) -> tuple[CardView, ...]:
    """``shown`` with the cards of ``before`` that are not ``here`` any more put back, struck
    (:data:`GONE`), where they were: before the first card that followed them and is still
    there (the top of a pile stays the top), else at the end."""
    out = list(shown)
    for i, card in enumerate(before):
        if card.label in here:
            continue
        after = next((c.label for c in before[i + 1:] if c.label in here), None)
        at = next((j for j, c in enumerate(out) if c.label == after), len(out))
        out.insert(at, CardView(card.label, mark=GONE))
    return tuple(out)


def unmarked(board: Board) -> Board:
    """``board`` without its change marks (what two boards compare as)."""
    return replace(board, zones=tuple(
        (p, z, tuple(replace(c, mark="", was=None) for c in cards if c.mark != GONE))
        for p, z, cards in board.zones))


def zones_used(boards: Iterable[Board]) -> tuple[str, ...]:
    """The zones to draw for a series of boards: those holding a card in any of them (for
    either player), in a fixed order; both players get the same layout."""
    boards = list(boards)
    used = {z for b in boards for p, z, cards in b.zones if cards}
    used |= {z for b in boards for _, z, _ in b.markers}
    used |= {z for z, u in UNDER.items() if u in used}
    return tuple(z for z in ORDER if z in used) or ("lrig",)


#: The marks after a card's label, and what they stand for (the page's key explains them).
DOWN_MARK = "\u2193"  # ↓
FROZEN_MARK = "\u2744"  # ❄
TOP_MARK = "\u25b2"  # ▲
#: face down, only its owner may look at it (a Seed, a Trap); face down, nobody may (a Charm)
OWNER_MARK = "\u25a1"  # □
NOBODY_MARK = "\u25a0"  # ■
GIVEN_MARK = "\u2605"  # ★ has a keyword from an effect
LOST_MARK = "\u2298"  # ⊘ has lost its abilities
CROSS_MARK = "\u21c4"  # ⇄ in a cross state
#: a marker on a SIGNI zone, at the box's top right: a virus ☣, a gate ⛩
MARKER_MARKS = {"virus": "\u2623", "gate": "\u26e9"}
#: on the board of a rule-processing check: meets a kind's condition (after a card's label; an
#: empty main deck that refreshes shows ``0!`` where a pile shows its count)
RULE_MARK = "!"
_HIDDEN_MARKS = {"": "", OWNER: OWNER_MARK, NOBODY: NOBODY_MARK}
#: A card in the page's key with the keywords effects give it on its boards.
GIVEN_KEY = N_("%(name)s (%(mark)s %(keywords)s)")
#: The id of the frame's ``<g>``: one frame per page.
FRAME_ID = "bf"
#: The id of one player's side of the frame (boxes, zones' names, ▲), drawn for both.
SIDE_ID = "bs"
HEAD = 16  # a player's name line
PLAYER_GAP = 8  # below a player's last row


def card_text(card: CardView) -> str:
    """A card's label with its marks: ``T1``, ``T1↓``, ``T1↓❄``, ``X□`` (face down, seen by
    its owner), ``C■`` (seen by nobody), ``S★`` (a keyword from an effect), ``S⊘`` (lost its
    abilities), ``A⇄`` (in a cross state), ``P1!`` (meets a condition of rule processing on the
    board of a check)."""
    return card.label + (DOWN_MARK if card.down else "") + \
        (FROZEN_MARK if card.frozen else "") + _HIDDEN_MARKS[card.hidden] + \
        (GIVEN_MARK if card.given else "") + (LOST_MARK if card.lost else "") + \
        (CROSS_MARK if card.crossed else "") + (RULE_MARK if card.rule else "")


def _text_width(zone: str) -> float:
    """The width a box of ``zone`` has for its cards' labels."""
    return BOX_W - 6 - (TOP_W if zone in TOP_ZONES else 0)


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


def _text_origin(zone: str, x: int, y: int) -> tuple[int, int]:
    """Where the first line of the cards' labels starts in the box of ``zone`` at ``x, y``."""
    return x + 3 + (TOP_W if zone in TOP_ZONES else 0), y + NAME + LINE


def hit_areas(board: Board, layout: Layout) -> list[dict[str, object]]:
    """Where a tap on ``board`` drawn on ``layout`` lands: every box (``player``, ``zone``
    and its rectangle ``x, y, w, h`` in the board's units), then every card label shown in
    it (its ``label`` too, over the box's): the rectangle its text takes, as wide as the
    labels are laid out (:func:`_lines`), the line's height from above its baseline. The
    sandbox lays these over its drawing so that the drawing itself can be tapped."""
    out: list[dict[str, object]] = []
    cards_out: list[dict[str, object]] = []
    for player, _, zone, x, y, h in layout.boxes:
        out.append({"player": player, "zone": zone, "x": x, "y": y, "w": BOX_W, "h": h})
        lx, ly = _text_origin(zone, x, y)
        for line in _lines(board.cards(player, zone), _text_width(zone))[:MAX_LINES]:
            cx = float(lx)
            for card in line:
                w = (len(card_text(card)) + 1) * CHAR_W
                if card.mark != GONE:
                    cards_out.append({"player": player, "zone": zone, "label": card.label,
                                      "x": round(cx, 1), "y": ly - LINE + 3,
                                      "w": round(w, 1), "h": LINE})
                cx += w
            ly += LINE
    return out + cards_out


def _signi(cards: Sequence[CardView]) -> CardView | None:
    """The SIGNI in a SIGNI zone (a card that left it aside), when it shows a power."""
    here = [c for c in cards if c.mark != GONE and c.power is not None]
    return here[0] if here else None


def _box_lines(board: Board, player: str, zone: str) -> int:
    """How many text lines the box of ``zone`` needs below its name on ``board``."""
    cards = board.cards(player, zone)
    count = max(1, min(len(_lines(cards, _text_width(zone))), MAX_LINES))
    if zone in POWER_ZONES and _signi(cards) is not None:
        count += 1
    if zone in UNDER and board.cards(player, UNDER[zone]):
        count += 1
    return count


def _box_height(lines: int) -> int:
    return NAME + LINE * lines + 5


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
    """The layout that fits every board in ``boards`` (with their change marks)."""
    boards = list(boards)
    zones = zones_used(boards)
    n_rows = (len(zones) + COLUMNS - 1) // COLUMNS
    # both players' sides alike, so that the frame draws one side's boxes and names twice
    rows = tuple(max((_box_lines(b, player, z) for b in boards for player in ("p2", "p1")
                      for z in zones[r * COLUMNS:(r + 1) * COLUMNS]), default=1)
                 for r in range(n_rows))
    return Layout(zones, (rows, rows))


def frame_svg(layout: Layout, n: Narrator, shared: str = "") -> str:
    """The hidden ``<svg>`` holding what every board of the page shares: the boxes, the
    players' names, the zones' names and the ▲ of the piles and stacks listed from the top, in
    the page's language, and the boxes several boards draw alike (``shared``:
    :meth:`Painter.defs`) (markup; escaped here)."""
    paths: list[str] = []
    texts: list[str] = []
    heads = {player: head_y for player, head_y, *_ in layout.boxes}
    for player, _, zone, x, y, h in layout.boxes:
        if player != "p2":
            continue  # player 1's side is the same, lower: drawn with <use> below
        paths.append(f"M{x} {y}h{BOX_W}v{h}h-{BOX_W}z")
        texts.append(f'<text x="{x + 3}" y="{y + NAME}">{escape(n.board_zone_name(zone))}'
                     "</text>")
        if zone in TOP_ZONES:
            texts.append(f'<text x="{x + 3}" y="{y + NAME + LINE}">{TOP_MARK}</text>')
    names = "".join(f'<text class="ph" x="14" y="{y + 12}">{escape(n.player(p))}</text>'
                    for p, y in heads.items())
    lower = f'<use href="#{SIDE_ID}" y="{heads["p1"]}"/>' if "p1" in heads else ""
    # the frame with the turn player's mark (●), for each player: what a board shows first
    turns = "".join(f'<g id="{FRAME_ID}-{p}"><use href="#{FRAME_ID}"/><text class="ph" '
                    f'x="2" y="{y + 12}">\u25cf</text></g>' for p, y in heads.items())
    # the zones' names and the ▲ take the frame's muted colour (class "zn", inherited)
    return ('<svg class="board frame" aria-hidden="true"><defs>'
            f'<g id="{FRAME_ID}" class="zn"><g id="{SIDE_ID}"><path class="bx" '
            f'd="{"".join(paths)}"/>{"".join(texts)}</g>{lower}{names}</g>{turns}{shared}'
            "</defs></svg>")


def render_svg(board: Board, layout: Layout, *, labelledby: str = "", label: str = "") -> str:
    """The board as an ``<svg>`` element on the page's frame (markup; escaped here), named
    by the element with id ``labelledby`` (its caption) or else by ``label``; every box drawn
    in full (:class:`Painter` shares the boxes boards have in common)."""
    return Painter(layout, ()).svg(board, labelledby=labelledby, label=label)


class Painter:
    """Draws the boards of one page on its layout, sharing what they draw alike. A board
    drawn twice on the page (the same moment in the replays of two groups of rule sets) is
    drawn once, in the page's frame, as ``<g id="wN">``, and each copy shows it with
    ``<use href="#wN">``; a box that two different boards draw alike (the same cards, marks,
    count and power: most boxes, from one moment of a replay to the next) likewise, as
    ``<g id="zN">``. So a replay of a dozen boards stays within a phone page. ``boards`` are
    all the boards the page will draw, in order."""

    def __init__(self, layout: Layout, boards: Iterable[Board]) -> None:
        self.layout = layout
        self._drawn: dict[Board, str] = {}  # each board's inside, drawn once for every language
        self._defs: str | None = None
        uses: dict[Board, int] = {}
        for board in boards:
            uses[board] = uses.get(board, 0) + 1
        counts: dict[str, int] = {}
        # each board's boxes, drawn once: counted here, then put together by _draw
        self._box_svgs = {board: self._boxes(board) for board in uses}
        for board in uses:
            for box in self._box_svgs[board]:
                if box:
                    counts[box] = counts.get(box, 0) + 1
        self.shared = {box: f"z{i}" for i, box in
                       enumerate(b for b, count in counts.items() if count > 1)}
        self.whole = {board: f"w{i}" for i, board in
                      enumerate(b for b, count in uses.items() if count > 1)}

    def _boxes(self, board: Board) -> list[str]:
        return [_box_svg(board, player, zone, x, y)
                for player, _, zone, x, y, _ in self.layout.boxes]

    def _inside(self, board: Board) -> str:
        """What a board draws on the frame: its boxes."""
        drawn = self._drawn.get(board)
        if drawn is None:
            drawn = self._drawn[board] = self._draw(board)
        return drawn

    def _draw(self, board: Board) -> str:
        parts = []
        boxes = self._box_svgs.get(board)
        for box in boxes if boxes is not None else self._boxes(board):
            shared = self.shared.get(box)
            parts.append(f'<use href="#{shared}"/>' if shared else box)
        return "".join(parts)

    def defs(self) -> str:
        """The shared boxes and boards, for the frame's ``<defs>``."""
        if self._defs is None:
            self._defs = "".join(f'<g id="{i}">{box}</g>' for box, i in self.shared.items()) + \
                "".join(f'<g id="{i}">{self._inside(board)}</g>'
                        for board, i in self.whole.items())
        return self._defs

    def svg(self, board: Board, *, labelledby: str = "", label: str = "") -> str:
        """``board`` as an ``<svg>`` on the page's frame (see :func:`render_svg`); its text
        alternative, the cards in each zone, is read off it by the page's script
        (:data:`BOARD_WORDS`)."""
        name = (f'aria-labelledby="{escape(labelledby, quote=True)}"' if labelledby
                else f'aria-label="{escape(label, quote=True)}"')
        whole = self.whole.get(board)
        inside = f'<use href="#{whole}"/>' if whole else self._inside(board)
        players = {player for player, *_ in self.layout.boxes}
        frame = f"{FRAME_ID}-{board.turn_player}" if board.turn_player in players else FRAME_ID
        return (f'<svg class="board" viewBox="0 0 {WIDTH} {self.layout.height}" role="img" '
                f'{name}><use href="#{frame}"/>{inside}</svg>')


def _box_svg(board: Board, player: str, zone: str, x: int, y: int) -> str:
    """What a board draws in the box of ``zone``: the count, the cards' labels with their
    marks, a SIGNI's power, the cards under it (markup; empty for an empty box)."""
    parts: list[str] = []
    cards = list(board.cards(player, zone))
    under = board.cards(player, UNDER[zone]) if zone in UNDER else ()
    count = sum(1 for c in cards if c.mark != GONE)
    if any(p == player and z == zone for p, z, _ in board.conditions):
        parts.append(f'<text class="zc rp" x="{x + BOX_W - 3}" y="{y + NAME}">'
                     f"{count}{RULE_MARK}</text>")
    elif count > 1 and zone in COUNTED:
        parts.append(f'<text class="zc" x="{x + BOX_W - 3}" y="{y + NAME}">{count}</text>')
    marks = "".join(MARKER_MARKS[k] for p, z, k in board.markers if p == player and z == zone)
    if marks:  # a SIGNI zone: never counted, so the top right is free
        parts.append(f'<text class="zc mk" x="{x + BOX_W - 3}" y="{y + NAME}">{marks}</text>')
    lines = _lines(cards, _text_width(zone))
    shown = lines[:MAX_LINES]
    more = sum(len(line) for line in lines[MAX_LINES:])
    lx, ly = _text_origin(zone, x, y)
    for j, line in enumerate(shown):
        items = [_card(card) for card in line]
        if more and j == len(shown) - 1:
            items.append(f"+{more}")
        parts.append(f'<text x="{lx}" y="{ly}">{" ".join(items)}</text>')
        ly += LINE
    if not shown:
        ly += LINE
    signi = _signi(cards) if zone in POWER_ZONES else None
    if signi is not None:
        if signi.was is not None:
            parts.append(f'<text class="pw {CHANGED}" x="{x + 3}" y="{ly}">'
                         f"{signi.was}\u2192{signi.power}</text>")
        else:
            parts.append(f'<text class="pw" x="{x + 3}" y="{ly}">{signi.power}</text>')
        ly += LINE
    if under:
        labels = " ".join(_card(c) for c in under)
        parts.append(f'<text class="un" x="{x + 3}" y="{ly}">+ {labels}</text>')
    return "".join(parts)


def _card(card: CardView) -> str:
    """A card's label and marks, in a ``<tspan>`` with a class when it is down or frozen or
    changed since the previous board."""
    text = escape(card_text(card))
    classes = [c for c, on in (("dn", card.down), ("fz", card.frozen), (card.mark, card.mark),
                               ("rp", bool(card.rule))) if on]
    return f'<tspan class="{" ".join(classes)}">{text}</tspan>' if classes else text


def card_key(boards: Iterable[Board], n: Narrator) -> list[tuple[str, str]]:
    """(label, what the card is in a few words, in the page's language) of every named card
    on ``boards``, in label order: the page's key to the labels the boards and the sentences
    show (:func:`judge.narrate.cards.short_names`)."""
    boards = list(boards)
    labels = sorted({c.label for b in boards for _, _, cards in b.zones for c in cards},
                    key=label_order)
    names = short_names(n, labels)
    given: dict[str, list[str]] = {}
    for b in boards:
        for _, _, cards in b.zones:
            for c in cards:
                for word in c.given:
                    if word not in given.setdefault(c.label, []):
                        given[c.label].append(word)
    terms = n.tables.keyword_terms

    def named(label: str) -> str:
        words = given.get(label)
        if not words:
            return names[label]
        return n._(GIVEN_KEY, name=names[label], mark=GIVEN_MARK,
                   keywords=n.join(n.term(terms.get(w, ""), w) for w in sorted(words)))

    return [(label, named(label)) for label in labels if label in names]


def marks_used(boards: Iterable[Board]) -> frozenset[str]:
    """Which of the marks the page's legend explains only when a board shows them appear on
    ``boards``: :data:`OWNER`, :data:`NOBODY` (face-down cards), ``given`` (a keyword from an
    effect), ``lost`` (lost abilities), ``crossed`` (a cross state), ``rule`` (a condition of
    rule processing, on the board of a check), ``virus`` and ``gate`` (a marker on a zone)."""
    out: set[str] = set()
    for b in boards:
        for _, _, cards in b.zones:
            for c in cards:
                if c.hidden:
                    out.add(c.hidden)
                if c.given:
                    out.add("given")
                if c.lost:
                    out.add("lost")
                if c.crossed:
                    out.add("crossed")
                if c.rule:
                    out.add("rule")
        if b.conditions:
            out.add("rule")
        out.update(kind for _, _, kind in b.markers)
    return frozenset(out)


def label_order(label: str) -> tuple[str, int, str]:
    head = label.rstrip("0123456789")
    digits = label[len(head):]
    return (head, int(digits) if digits else -1, label)


#: The words a board's text alternative is made of (``site_templates/assets/site.js`` reads the
#: position off the board as it is drawn and says it with these: whose turn it is, each
#: player's side, zone by zone, the cards there now with their marks in words, as the page's
#: legend words the marks; the build writes them, in every language, into the site's copy of
#: that script: :func:`with_board_words`, once for every page rather than in each).
BOARD_WORDS: dict[str, str] = {
    "turn": N_("%(player)s's turn"),
    "side": N_("%(player)s:"),
    "zone": N_("%(zone)s: %(cards)s"),
    "card": N_("%(card)s (%(states)s)"),
    "power": N_("power %(power)s"),
    "under": N_("under it: %(cards)s"),
    "empty": N_("empty"),
    "rule": N_("meets a condition of rule processing"),
    "run": N_("%(first)s to %(last)s"),
    "more": N_("%(count)s more cards"),
}


#: The legend of a page's boards, which ``site.js`` writes from these words under the card key
#: (once in the site rather than in every page: about 1 KB a ruling at three pages): each mark
#: after a card's label or on a zone, in order, with what it means; a mark keyed by one of
#: :func:`marks_used`'s names is explained only on a page whose boards show it (the page's
#: ``<p class="legend" data-marks="...">`` lists them), the others always.
LEGEND_MARKS: tuple[tuple[str, str, str], ...] = (
    ("", DOWN_MARK, N_("down")),
    ("", FROZEN_MARK, N_("frozen")),
    ("", TOP_MARK, N_("top card first")),
    (OWNER, OWNER_MARK, N_("face down: only its owner may look at it")),
    (NOBODY, NOBODY_MARK, N_("face down: nobody may look at it")),
    ("given", GIVEN_MARK, N_("has a keyword from an effect")),
    ("lost", LOST_MARK, N_("has lost its abilities")),
    ("crossed", CROSS_MARK, N_("in a cross state")),
    ("virus", MARKER_MARKS["virus"], N_("a virus on the zone")),
    ("gate", MARKER_MARKS["gate"], N_("a gate on the zone")),
)
#: The rest of the legend: its opening, the marks of a check of rule processing (on a page
#: whose boards show one: ``rule``), and the three ways a card is marked since the previous board.
LEGEND_WORDS: dict[str, str] = {
    "on": N_("On the boards:"),
    "rule": N_("at a check of rule processing: meets the condition of a kind (the sentence "
               "above says which); 0! an empty main deck that refreshes"),
    "since": N_("since the previous board:"),
    "nw": N_("arrived"),
    "gn": N_("left"),
    "cg": N_("changed (power before→now, down, frozen, face up or down, keywords, abilities, "
             "cross state)"),
}


#: What ``site.js`` holds in place of the words until the build writes them in.
WORDS_PLACEHOLDER = "{} /* the board words of every language: judge build */"


def board_words(n: Narrator) -> dict[str, object]:
    """:data:`BOARD_WORDS` in ``n``'s language, with the list separator and the full stop, and
    the legend's words (``legend``: :data:`LEGEND_WORDS` and :data:`LEGEND_MARKS`)."""
    words = {key: n._(message) for key, message in BOARD_WORDS.items()}
    words.update(sep=n.join(["", ""]), stop=n.sentence_end(), rule_mark=RULE_MARK)
    legend: dict[str, object] = {key: n._(message) for key, message in LEGEND_WORDS.items()}
    legend["marks"] = [[key, mark, n._(message)] for key, mark, message in LEGEND_MARKS]
    return {**words, "legend": legend}


def with_board_words(script: str,
                     page_words: Mapping[str, Mapping[str, object]] | None = None) -> str:
    """``site.js`` with :func:`board_words` of every language (by the pages' ``lang``) in
    place of :data:`WORDS_PLACEHOLDER`: about 1 KB a language, once for the site; with
    ``page_words`` of that language besides (what else the script writes into a ruling page:
    :meth:`judge.site.context.SiteModel.script_words`)."""
    if WORDS_PLACEHOLDER not in script:
        raise ValueError("site.js has lost the place of the board words")
    table = {lang: {**board_words(Narrator(lang, {})), **(page_words or {}).get(lang, {})}
             for lang in LANGS}
    text = json.dumps(table, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return script.replace(WORDS_PLACEHOLDER, text, 1)
