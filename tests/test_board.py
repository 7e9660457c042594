"""Board diagrams (judge/site/board.py): one frame per page, every board's text in its boxes,
what changed since the previous board marked, piles and stacks listed from the top, and boxes
and boards drawn once when several boards draw them alike.

A ruling page draws the boxes, players' names, zones' names and ▲ marks once (the frame) and
each board adds its cards on top of it, so the frame must fit every board of the page:
Hypothesis makes boards with random cards in random zones, marked against random previous
boards, and every label, count, power and "under" line must land inside the box of its zone,
below the zone's name, on the shared layout.
"""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.engine.state import PLAYERS, ZONES, ZoneRef
from judge.engine.trace import CardState, PlayerPosition, Position
from judge.langs import LANGS
from judge.narrate import Narrator
from judge.paths import project_root
from judge.site.board import (
    BOX_W,
    CHANGED,
    CROSS_MARK,
    DOWN_MARK,
    FRAME_ID,
    FROZEN_MARK,
    GIVEN_MARK,
    GONE,
    LINE,
    LOST_MARK,
    NAME,
    NEW,
    NOBODY,
    NOBODY_MARK,
    ORDER,
    OWNER,
    OWNER_MARK,
    POWER_ZONES,
    SIDE_ID,
    TOP_MARK,
    TOP_W,
    TOP_ZONES,
    UNDER,
    Board,
    CardView,
    Painter,
    board_of,
    card_key,
    card_text,
    frame_svg,
    layout_for,
    marked,
    marks_used,
    render_svg,
    unmarked,
    with_board_words,
)

_TEXT = re.compile(r'<text(?: class="([\w ]+)")? x="(\d+)" y="(\d+)">')

labels = st.sampled_from(["a", "d1", "d12", "e7", "M", "SP", "T1", "ABC9", "x99", "L"])
hidden = st.sampled_from(["", OWNER, NOBODY])
given_words = st.sampled_from([(), ("lancer",), ("assassin", "lancer")])
cards = st.builds(CardView, labels, st.booleans(), st.booleans(), st.none(), hidden)
signi = st.builds(CardView, labels, st.booleans(), st.booleans(),
                  st.sampled_from([0, 1000, 8000, 12000, 30000]), st.just(""), given_words,
                  st.booleans())
piles = st.dictionaries(st.sampled_from([*ORDER, *UNDER.values()]),
                        st.lists(cards, min_size=1, max_size=13, unique_by=lambda c: c.label),
                        max_size=5)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    """A board whose labels are unique, as a ruling's are."""
    zones = []
    seen: set[str] = set()
    for player in ("p1", "p2"):
        for zone, pile in draw(piles).items():
            if zone in POWER_ZONES:
                pile = [draw(signi)]
            pile = [c for c in pile if c.label not in seen]
            seen |= {c.label for c in pile}
            if pile:
                zones.append((player, zone, tuple(pile)))
    return Board(draw(st.integers(1, 9)), draw(st.sampled_from(["p1", "p2"])), "main", "",
                 tuple(zones))


@st.composite
def pages(draw: st.DrawFn) -> list[Board]:
    """The boards of a page, each marked against the one before."""
    plain = draw(st.lists(boards(), min_size=1, max_size=4))
    return [marked(b, plain[i - 1] if i else None) for i, b in enumerate(plain)]


@settings(max_examples=200, deadline=None)
@given(pages())
def test_every_text_of_every_board_is_inside_its_box(page: list[Board]) -> None:
    layout = layout_for(page)
    boxes = layout.boxes
    for board in page:
        svg = render_svg(board, layout, labelledby="cap")
        assert svg.startswith(f'<svg class="board" viewBox="0 0 344 {layout.height}" ')
        # the frame with the turn player's mark
        assert f'<use href="#{FRAME_ID}-{board.turn_player}"/>' in svg
        assert 'aria-labelledby="cap"' in svg and 'class="ph"' not in svg
        for cls, xs, ys in _TEXT.findall(svg):
            x, y = int(xs), int(ys)
            # the box of this column whose top is the last one above the text
            column = [(bx, by, h) for _, _, _, bx, by, h in boxes if bx <= x < bx + BOX_W]
            left, top, height = max(((bx, by, h) for bx, by, h in column if by < y),
                                    key=lambda b: b[1])
            assert left < x < left + BOX_W
            if cls == "zc":  # the count, on the zone's name line
                assert y == top + NAME
            else:  # cards, power and what is under: below the name, inside the box
                assert top + NAME + LINE <= y <= top + height, (cls, x, y, top, height)


@given(st.lists(boards(), min_size=1, max_size=3))
def test_the_layout_draws_each_used_zone_for_both_players(page: list[Board]) -> None:
    layout = layout_for(page)
    used = {z for b in page for _, z, pile in b.zones if pile}
    for zone in layout.zones:
        assert zone in used or UNDER.get(zone) in used or layout.zones == ("lrig",)
    for zone in ORDER:
        if zone in used:
            assert zone in layout.zones
    drawn = [(player, zone) for player, _, zone, *_ in layout.boxes]
    assert drawn == [(p, z) for p in ("p2", "p1") for z in layout.zones]
    assert all(h >= NAME + LINE for *_, h in layout.boxes)
    assert layout.rows[0] == layout.rows[1]  # both sides alike


@settings(max_examples=200, deadline=None)
@given(boards(), boards())
def test_marks_say_what_arrived_left_and_changed(before: Board, after: Board) -> None:
    shown = marked(after, before)
    where = {c.label: (p, z, c) for p, z, cs in before.zones for c in cs}
    for player, zone, pile in shown.zones:
        here = [c for c in pile if c.mark != GONE]
        assert [c.label for c in here] == [c.label for c in after.cards(player, zone)]
        for card in here:
            old = where.get(card.label)
            if old is None or old[:2] != (player, zone):
                assert card.mark == NEW
            elif (old[2].down, old[2].frozen, old[2].power, old[2].hidden, old[2].given,
                  old[2].lost) != (card.down, card.frozen, card.power, card.hidden,
                                   card.given, card.lost):
                assert card.mark == CHANGED
                assert card.was == (old[2].power if old[2].power != card.power else None)
            else:
                assert card.mark == ""
        gone = {c.label for c in pile if c.mark == GONE}
        assert gone == {c.label for c in before.cards(player, zone)} - \
            {c.label for c in here}
    assert unmarked(shown) == after
    assert marked(after, None) == after  # the first board of a page marks nothing


def test_gone_cards_stay_where_they_were() -> None:
    """A crush takes the top two life cloth: they are shown struck at the top, where they
    were, the card left below them."""
    before = Board(5, "p1", "attack", "signi", (
        ("p2", "life", (CardView("k1"), CardView("k2"), CardView("k3"))),))
    after = Board(5, "p1", "attack", "signi", (
        ("p2", "life", (CardView("k3"),)),
        ("p2", "check", (CardView("k1"), CardView("k2")))))
    shown = marked(after, before)
    assert [(c.label, c.mark) for c in shown.cards("p2", "life")] == \
        [("k1", GONE), ("k2", GONE), ("k3", "")]
    assert [(c.label, c.mark) for c in shown.cards("p2", "check")] == \
        [("k1", NEW), ("k2", NEW)]
    svg = render_svg(shown, layout_for([shown]), label="after the crush")
    assert f'<tspan class="{GONE}">k1</tspan> <tspan class="{GONE}">k2</tspan> k3' in svg
    assert f'<tspan class="{NEW}">k1</tspan>' in svg


def test_a_power_change_shows_before_and_after() -> None:
    before = Board(3, "p1", "main", "", (("p1", "signi1", (CardView("S1", power=5000),)),))
    after = Board(3, "p1", "main", "", (
        ("p1", "signi1", (CardView("S1", down=True, power=8000),)),))
    svg = render_svg(marked(after, before), layout_for([after]), label="x")
    assert f'<tspan class="dn {CHANGED}">S1{DOWN_MARK}</tspan>' in svg
    assert '>5000\u21928000</text>' in svg and f'class="pw {CHANGED}"' in svg


def _position(zones: dict[str, list[str]]) -> Position:
    sides = []
    for player in PLAYERS:
        mine = {z[3:]: labels for z, labels in zones.items() if z.startswith(player)}
        sides.append(PlayerPosition(player, tuple(
            tuple(CardState(label, "filler", 1) for label in mine.get(zone, ()))
            for zone in ZONES)))
    return Position(3, "p1", "main", "", tuple(sides))


def test_piles_and_stacks_are_listed_from_the_top() -> None:
    """The main deck and the life cloth from the top card (the position's order); an LRIG
    stack from the LRIG on top (the last in the position); a ▲ in the frame before them."""
    board = board_of(_position({"p1.deck": ["d1", "d2"], "p1.life": ["l1", "l2"],
                                "p1.lrig": ["L0", "L1", "L2"]}))
    assert [c.label for c in board.cards("p1", "deck")] == ["d1", "d2"]
    assert [c.label for c in board.cards("p1", "lrig")] == ["L2", "L1", "L0"]
    layout = layout_for([board])
    frame = frame_svg(layout, Narrator("en", {}))
    assert frame.count(TOP_MARK) == len([z for z in layout.zones if z in TOP_ZONES])
    svg = render_svg(board, layout, label="x")
    x = next(bx for p, _, z, bx, *_ in layout.boxes if (p, z) == ("p1", "lrig"))
    assert f'<text x="{x + 3 + TOP_W}" y=' in svg and ">L2 L1 L0</text>" in svg
    assert ZoneRef.parse("p1.lrig").zone in TOP_ZONES


def test_frame_has_names_once_and_boards_only_their_own() -> None:
    n = Narrator("en", {})
    board = Board(3, "p1", "main", "", (
        ("p1", "signi1", (CardView("S1", down=True, power=8000),)),
        ("p1", "under1", (CardView("c1"),)),
        ("p1", "trash", (CardView("t1"), CardView("t2", frozen=True))),
        ("p2", "lrig", (CardView("M"),)),
        ("p2", "assist1", (CardView("A"),)),
    ))
    layout = layout_for([board])
    assert layout.zones == ("lrig", "assist1", "signi1", "trash")
    frame = frame_svg(layout, n)
    assert frame.count(f'<g id="{FRAME_ID}" class="zn">') == 1 and 'aria-hidden="true"' in frame
    assert frame.count(">Player 1</text>") == frame.count(">Player 2</text>") == 1
    # one side's boxes and names, drawn for both players (the sides are alike)
    assert frame.count(">trash</text>") == 1 and frame.count(">assist LRIG 1</text>") == 1
    assert frame.count(f'<use href="#{SIDE_ID}" y="') == 1
    assert layout.rows[0] == layout.rows[1]
    # the frame with each player's turn mark, which a board shows first
    heads = {p: y for p, y, *_ in layout.boxes}
    for player, y in heads.items():
        assert (f'<g id="{FRAME_ID}-{player}"><use href="#{FRAME_ID}"/><text class="ph" '
                f'x="2" y="{y + 12}">\u25cf</text></g>') in frame
    svg = render_svg(board, layout, label="after the attack")
    assert 'aria-label="after the attack"' in svg
    assert "trash" not in svg and "Player" not in svg  # the names are the frame's
    assert f'<tspan class="dn">S1{DOWN_MARK}</tspan>' in svg
    assert f'<tspan class="fz">t2{FROZEN_MARK}</tspan>' in svg
    assert ">8000</text>" in svg and "+ c1" in svg
    assert 'class="zc"' in svg and ">2</text>" in svg  # the trash's count; one label, none
    assert card_text(CardView("x", down=True, frozen=True)) == f"x{DOWN_MARK}{FROZEN_MARK}"


def test_frame_escapes_the_names() -> None:
    class Odd(Narrator):
        def board_zone_name(self, zone: str) -> str:
            return "<b>&"

    frame = frame_svg(layout_for([]), Odd("en", {}))
    assert "&lt;b&gt;&amp;" in frame and "<b>" not in frame


def test_the_board_words_are_in_the_sites_script_once_not_in_each_frame() -> None:
    """The words of the boards' text alternatives: written into site.js for every language
    (read there by the page's lang), none left in a page's frame."""
    script = (project_root() / "site_templates" / "assets" / "site.js").read_text(
        encoding="utf-8")
    written = with_board_words(script)
    table = json.loads(re.search(r"var BOARD_WORDS = (\{.*\});", written).group(1))
    assert sorted(table) == sorted(LANGS)
    assert table["en"]["turn"] == "%(player)s's turn" and table["en"]["stop"] == "."
    assert table["ja"]["empty"] != table["en"]["empty"] != table["zh-Hans"]["empty"]
    assert all(w["rule_mark"] == "!" for w in table.values())
    with pytest.raises(ValueError, match="board words"):
        with_board_words(written)  # the place is used once: a second call finds none
    assert "data-words" not in frame_svg(layout_for([]), Narrator("en", {}))


def _expand(svg: str, defs: str) -> str:
    """A board with every ``<use>`` of a shared box or board replaced by what it shows."""
    shared = dict(re.findall(r'<g id="([zw]\d+)">(.*?)</g>(?=<g id="[zw]\d+">|$)', defs))
    while (m := re.search(r'<use href="#([zw]\d+)"/>', svg)) is not None:
        svg = svg[:m.start()] + shared[m.group(1)] + svg[m.end():]
    return svg


@settings(max_examples=100, deadline=None)
@given(pages())
def test_a_painter_draws_what_render_svg_draws_sharing_what_boards_repeat(
        page: list[Board]) -> None:
    page = page + page[:2]  # boards drawn twice, as by two groups of rule sets
    layout = layout_for(page)
    painter = Painter(layout, page)
    defs = painter.defs()
    for board in page:
        assert _expand(painter.svg(board, label="x"), defs) == \
            render_svg(board, layout, label="x")
    assert len(painter.whole) == len({b for b in page if page.count(b) > 1})
    once = Painter(layout, page[:1])
    assert once.defs() == "" and once.svg(page[0], label="x") == \
        render_svg(page[0], layout, label="x")


def test_card_key_lists_named_cards_in_label_order_by_short_name() -> None:
    from judge.engine.cards import CardDef

    def named(name: str) -> CardDef:
        return CardDef(id=name, name=name, type="signi", names={"en": name, "ja": name})

    n = Narrator("en", {"d10": named("ten"), "d2": named("two"), "M": named("centre")})
    board = Board(1, "p1", "main", "", (
        ("p1", "deck", (CardView("d10"), CardView("d2"), CardView("x1"))),
        ("p2", "lrig", (CardView("M"),)),
    ))
    assert card_key([board, board], n) == [("M", "centre"), ("d2", "two"), ("d10", "ten")]


def _state(label: str, card: str = "x", **kw: object) -> CardState:
    return CardState(label, card, 1, **kw)  # type: ignore[arg-type]


def test_seeds_traps_charms_and_the_cheer_zone_are_drawn_with_who_may_look() -> None:
    """A Seed and a Trap are drawn face down in their own boxes, marked as seen by their
    owner only; a Charm under a SIGNI as seen by nobody; a SIGNI in the cheer zone with its
    power (visibility.py; 001, 种子, 陷阱; 003, チャーム)."""
    zones = {"signi1": (_state("S", power=5000),), "under1": (_state("C", face_down=True),),
             "seed2": (_state("X", face_down=True),), "trap3": (_state("T", face_down=True),),
             "cheer": (_state("Y", power=3000),), "deck": (_state("d", face_down=True),)}
    p1 = PlayerPosition("p1", tuple(zones.get(z, ()) for z in ZONES))
    p2 = PlayerPosition("p2", tuple(() for _ in ZONES))
    board = board_of(Position(1, "p1", "main", "", (p1, p2)))
    assert [c.hidden for c in board.cards("p1", "under1")] == [NOBODY]
    assert [c.hidden for c in board.cards("p1", "seed2")] == [OWNER]
    assert [c.hidden for c in board.cards("p1", "trap3")] == [OWNER]
    assert [c.hidden for c in board.cards("p1", "deck")] == [""]  # a pile: not marked
    assert [c.power for c in board.cards("p1", "cheer")] == [3000]
    layout = layout_for([board])
    assert {"seed2", "trap3", "cheer"} <= set(layout.zones)
    svg = render_svg(board, layout, label="x")
    assert f"X{OWNER_MARK}" in svg and f"T{OWNER_MARK}" in svg and f"C{NOBODY_MARK}" in svg
    assert ">3000</text>" in svg
    assert marks_used([board]) == {OWNER, NOBODY}
    for lang, seed in (("en", "Seed 2"), ("ja", "シード2"), ("zh-Hans", "种子2")):
        frame = frame_svg(layout, Narrator(lang, {}))
        assert f">{seed}</text>" in frame


def test_given_keywords_and_lost_abilities_are_marked_and_named_in_the_key() -> None:
    """A keyword the card does not print is marked ★ and named in the card key; a printed
    one is not; a SIGNI that lost its abilities is marked ⊘, and a keyword it has after that
    counts as given even when printed."""
    from judge.engine.cards import CardDef

    zones = {"signi1": (_state("A", "plain", power=5000, keywords=("lancer",)),),
             "signi2": (_state("B", "printed", power=5000, keywords=("lancer",)),),
             "signi3": (_state("C", "printed", power=5000, keywords=("lancer",), lost=True),)}
    p1 = PlayerPosition("p1", tuple(zones.get(z, ()) for z in ZONES))
    p2 = PlayerPosition("p2", tuple(() for _ in ZONES))
    board = board_of(Position(1, "p1", "main", "", (p1, p2)), {"printed": ("lancer",)})
    assert [board.cards("p1", z)[0].given for z in ("signi1", "signi2", "signi3")] == \
        [("lancer",), (), ("lancer",)]
    assert card_text(board.cards("p1", "signi3")[0]) == f"C{GIVEN_MARK}{LOST_MARK}"
    assert marks_used([board]) == {"given", "lost"}
    card = CardDef(id="plain", name="plain", type="signi", names={"en": "Plain", "ja": "P"})
    key = dict(card_key([board], Narrator("en", {"A": card})))
    assert key["A"].endswith(f"({GIVEN_MARK} Lancer)"), key
    before = board_of(Position(1, "p1", "main", "", (p1._replace(zones=tuple(
        tuple(c._replace(keywords=(), lost=False) for c in cards) for cards in p1.zones)),
        p2)), {"printed": ("lancer",)})
    assert marked(board, before).cards("p1", "signi1")[0].mark == CHANGED


def test_a_cross_state_is_marked_and_its_change_too() -> None:
    """Two SIGNI in a cross state are marked ⇄ (003, クロス); when the state ends (one of
    them lost its abilities, say), the board after marks both as changed."""
    def board(crossed: bool) -> Board:
        zones = {"signi1": (_state("A", power=5000, crossed=crossed),),
                 "signi2": (_state("B", power=5000, crossed=crossed),)}
        p1 = PlayerPosition("p1", tuple(zones.get(z, ()) for z in ZONES))
        p2 = PlayerPosition("p2", tuple(() for _ in ZONES))
        return board_of(Position(1, "p1", "main", "", (p1, p2)))

    crossed, apart = board(True), board(False)
    assert card_text(crossed.cards("p1", "signi1")[0]) == f"A{CROSS_MARK}"
    assert marks_used([crossed]) == {"crossed"} and marks_used([apart]) == set()
    after = marked(apart, crossed)
    assert [after.cards("p1", z)[0].mark for z in ("signi1", "signi2")] == [CHANGED, CHANGED]
    assert CROSS_MARK in render_svg(crossed, layout_for([crossed]), label="x")


# ---------------------------------------------------------------------------- contrast


def _css_colours() -> tuple[dict[str, str], str]:
    css = (project_root() / "site_templates" / "assets" / "site.css").read_text(encoding="utf-8")
    variables = dict(re.findall(r"--([\w-]+):(#[0-9a-fA-F]{6}|#[0-9a-fA-F]{3})\b", css))
    return variables, css


def _colour(value: str, variables: dict[str, str]) -> tuple[int, int, int]:
    found = re.fullmatch(r"var\(--([\w-]+)\)", value.strip())
    hexa = variables[found.group(1)] if found else value.strip()
    if len(hexa) == 4:  # #fff
        hexa = "#" + "".join(c * 2 for c in hexa[1:])
    return int(hexa[1:3], 16), int(hexa[3:5], 16), int(hexa[5:7], 16)


def _luminance(rgb: tuple[int, int, int]) -> float:
    """Relative luminance (WCAG 2)."""
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.03928 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: tuple[int, int, int], b: tuple[int, int, int]) -> float:
    light, dark = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def test_the_marks_of_a_board_read_at_4_5_to_1_on_its_boxes() -> None:
    """A card that left its zone (struck through, .gn), one that arrived or changed, one that
    meets a condition of rule processing (.rp), and a SIGNI's power: each colour at least
    4.5:1 against the boxes' fill (path.bx, the --soft colour) and the page (--bg), computed
    from the stylesheet."""
    variables, css = _css_colours()
    fill = re.search(r"path\.bx\{fill:([^;}]+)", css)
    assert fill is not None
    box, page = _colour(fill.group(1), variables), _colour("var(--bg)", variables)
    for selector in (".gn", ".nw", ".cg", ".rp", "text.pw"):
        rule = re.search(re.escape(selector) + r"\{[^}]*color:([^;}]+)", css)
        assert rule is not None, selector
        colour = _colour(rule.group(1), variables)
        for ground in (box, page):
            assert contrast(colour, ground) >= 4.5, (selector, rule.group(1),
                                                     contrast(colour, ground))
