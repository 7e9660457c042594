"""The loader's quick test of rule-set dates (judge.scenario.load ``_eras_clear``) reads the
same dates as the uses that name their fields (judge.engine.eras)."""

from __future__ import annotations

from judge.data import card_library
from judge.engine import eras
from judge.engine.formats import FORMATS
from judge.engine.state import ZONES


def test_card_dates_are_the_dates_of_card_uses() -> None:
    cards = card_library().cards
    assert cards
    for card in cards.values():
        assert eras.card_dates(card) == {u.since for u in eras.card_uses(card, "x")}


def test_zone_and_format_dates_are_those_of_their_uses() -> None:
    for zone in ZONES:
        assert list(eras.zone_dates(zone)) == [u.since for u in eras.zone_uses(zone, "x")]
    for fmt in FORMATS:
        assert list(eras.format_dates(fmt)) == [u.since for u in eras.format_use(fmt, "x")]
