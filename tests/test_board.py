"""Board diagrams (judge/site/board.py): one frame per page, every board's text in its boxes.

A ruling page draws the boxes, players' names and zones' names once (the frame) and each board
adds its cards on top of it, so the frame must fit every board of the page: Hypothesis makes
boards with random cards in random zones, and every label, count, power and "under" line must
land inside the box of its zone, below the zone's name, on the shared layout.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from judge.narrate import Narrator
from judge.site.board import (
    BOX_W,
    DOWN_MARK,
    FRAME_ID,
    FROZEN_MARK,
    ORDER,
    UNDER,
    Board,
    CardView,
    card_key,
    card_text,
    frame_svg,
    layout_for,
    render_svg,
)

_TEXT = re.compile(r'<text(?: class="(\w+)")? x="(\d+)" y="(\d+)">')
SIGNI = ("signi1", "signi2", "signi3")

labels = st.sampled_from(["a", "d1", "d12", "e7", "M", "SP", "T1", "ABC9", "x99", "L"])
cards = st.builds(CardView, labels, st.booleans(), st.booleans(), st.none())
signi = st.builds(CardView, labels, st.booleans(), st.booleans(),
                  st.sampled_from([0, 1000, 8000, 12000, 30000]))
piles = st.dictionaries(st.sampled_from([*ORDER, *UNDER.values()]),
                        st.lists(cards, min_size=1, max_size=13), max_size=5)


@st.composite
def boards(draw: st.DrawFn) -> Board:
    zones = []
    for player in ("p1", "p2"):
        for zone, pile in draw(piles).items():
            if zone in SIGNI:
                pile = [draw(signi)]
            zones.append((player, zone, tuple(pile)))
    return Board(draw(st.integers(1, 9)), draw(st.sampled_from(["p1", "p2"])), "main", "",
                 tuple(zones))


@settings(max_examples=200, deadline=None)
@given(st.lists(boards(), min_size=1, max_size=4))
def test_every_text_of_every_board_is_inside_its_box(page: list[Board]) -> None:
    layout = layout_for(page)
    boxes = layout.boxes
    heads = {head_y + 10 for _, head_y, *_ in boxes}
    for board in page:
        svg = render_svg(board, layout, labelledby="cap")
        assert svg.startswith(f'<svg class="board" viewBox="0 0 344 {layout.height}" ')
        assert f'<use href="#{FRAME_ID}"/>' in svg and 'aria-labelledby="cap"' in svg
        for cls, xs, ys in _TEXT.findall(svg):
            x, y = int(xs), int(ys)
            if cls == "ph":  # the turn player's mark, on that player's name line
                assert x == 2 and y in heads
                continue
            # the box of this column whose top is the last one above the text
            column = [(by, h) for _, _, _, bx, by, h in boxes if bx <= x < bx + BOX_W]
            top, height = max((by, h) for by, h in column if by < y)
            if cls == "zc":  # the count, on the zone's name line
                assert y == top + 9
            else:  # cards, power and what is under: below the name, inside the box
                assert top + 20 <= y <= top + height, (cls, x, y, top, height)


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
    assert all(h >= 24 for *_, h in layout.boxes)


def test_frame_has_names_once_and_boards_only_their_own() -> None:
    n = Narrator("en", {})
    board = Board(3, "p1", "main", "", (
        ("p1", "signi1", (CardView("S1", down=True, power=8000),)),
        ("p1", "under1", (CardView("c1"),)),
        ("p1", "trash", (CardView("t1"), CardView("t2", frozen=True))),
        ("p2", "lrig", (CardView("M"),)),
    ))
    layout = layout_for([board])
    assert layout.zones == ("lrig", "signi1", "trash")
    frame = frame_svg(layout, n)
    assert frame.count(f'<g id="{FRAME_ID}">') == 1 and 'aria-hidden="true"' in frame
    assert frame.count(">Player 1</text>") == frame.count(">Player 2</text>") == 1
    assert frame.count(">trash</text>") == 2 and frame.count('class="zn"') == 6
    svg = render_svg(board, layout, label="after the attack")
    assert 'aria-label="after the attack"' in svg
    assert "trash" not in svg and "Player" not in svg  # the names are the frame's
    assert f'<tspan class="dn">S1{DOWN_MARK}</tspan>' in svg
    assert f'<tspan class="fz">t2{FROZEN_MARK}</tspan>' in svg
    assert ">8000</text>" in svg and "+ c1" in svg
    assert card_text(CardView("x", down=True, frozen=True)) == f"x{DOWN_MARK}{FROZEN_MARK}"


def test_frame_escapes_the_names() -> None:
    class Odd(Narrator):
        def zone_name(self, zone: str) -> str:
            return "<b>&"

    frame = frame_svg(layout_for([]), Odd("en", {}))
    assert "&lt;b&gt;&amp;" in frame and "<b>" not in frame


def test_card_key_lists_named_cards_in_label_order() -> None:
    from judge.engine.cards import CardDef

    def named(name: str) -> CardDef:
        return CardDef(id=name, name=name, type="signi", names={"en": name, "ja": name})

    n = Narrator("en", {"d10": named("ten"), "d2": named("two"), "M": named("centre")})
    board = Board(1, "p1", "main", "", (
        ("p1", "deck", (CardView("d10"), CardView("d2"), CardView("x1"))),
        ("p2", "lrig", (CardView("M"),)),
    ))
    assert card_key([board, board], n) == [("M", "centre"), ("d2", "two"), ("d10", "ten")]
