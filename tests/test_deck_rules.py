"""The deck check (judge.engine.setup.deck_problems): Pieces beside the LRIG deck's ten cards,
only in a format with assist LRIGs (docs/game-flow.md, "Deck check")."""

from __future__ import annotations

from judge.data import load_rulesets
from judge.engine.cards import CardDef, parse_card
from judge.engine.setup import deck_problems


def _deck(pieces: int, others: int = 10) -> tuple[list[CardDef], list[CardDef]]:
    main = [parse_card(f"s{i}", {"type": "signi", "level": 1, "power": 1000}, "x")
            for i in range(20)]
    main += [parse_card(f"b{i}", {"type": "signi", "level": 1, "power": 1000,
                                  "life_burst": [{"op": "draw", "count": 1}]},
                       "x")
             for i in range(20)]
    lrig = [parse_card("l0", {"type": "lrig", "level": 0, "limit": 0, "colour": "white",
                              "lrig_type": "T"}, "x")]
    lrig += [parse_card(f"a{i}", {"type": "arts", "effect": [{"op": "draw", "count": 1}]}, "x")
             for i in range(others - 1)]
    lrig += [parse_card(f"p{i}", {"type": "piece"}, "x") for i in range(pieces)]
    return main, lrig


def test_two_pieces_beside_ten_cards_in_diva_selection() -> None:
    current = load_rulesets()["current"]
    assert deck_problems(*_deck(2), current, "diva-selection") == []
    # the ten places are the other cards': an eleventh card is too many, Pieces or not
    assert "at most 10" in " ".join(deck_problems(*_deck(0, 11), current, "diva-selection"))
    assert "3 Pieces; at most 2" in " ".join(deck_problems(*_deck(3), current, "diva-selection"))


def test_no_pieces_without_assist_lrigs() -> None:
    current = load_rulesets()["current"]
    for fmt in ("all-star", "key-selection"):
        problems = deck_problems(*_deck(1), current, fmt)
        assert len(problems) == 1 and "diva-selection" in problems[0], problems
