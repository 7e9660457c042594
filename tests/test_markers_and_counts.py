"""The later formats' markers and counts (issue 30, round three): viruses and gates on SIGNI
zones, the registration count, and the ``tally`` that reads them.

What a judge relies on: bad values are refused on one line naming the field; a registration
gained by a SIGNI's effect is refused (only LRIG and ARTS effects gain it); a file of format 8
that uses any of it is refused; positions keep the markers and the count and read back from
their text and JSON forms; random games set, remove and count them.
"""

from __future__ import annotations

import pytest
from conftest import load_error

from judge.data import load_rulesets
from judge.engine import events as ev
from judge.engine.driver import card_pool, play_random_game
from judge.engine.trace import Position
from judge.scenario.load import load_text
from judge.scenario.run import replay

HEAD = '''format_version = 9
id = "x"
rulesets = ["current"]
[title]
ja = "x"
[cards.x]
type = "signi"
level = 1
power = 1000
CARD
[setup]
turn = 3
SETUP
[setup.p1]
deck = ["d*5"]
lrig = ["L:lrig-white-4"]
signi1 = "X:x"
[setup.p2]
deck = ["e*5"]
lrig = ["M:lrig-red-4"]
signi1 = "D:signi-2"
STEPS
[[expect]]
'''


def text(card: str = "", setup: str = "", steps: str = "") -> str:
    return HEAD.replace("CARD", card).replace("SETUP", setup).replace("STEPS", steps)


error_of = load_error


def effect(ops: str) -> str:
    return f'[[steps]]\naction = "effect"\nplayer = "p1"\nops = [{ops}]\n'


@pytest.mark.parametrize(("body", "where", "says"), [
    (text(steps=effect('{ op = "set_virus", zone = "signi4" }')), "steps[0].ops[0].zone",
     "unknown value"),
    (text(steps=effect('{ op = "set_virus", zone = "signi2", count = 2 }')),
     "steps[0].ops[0].count", "acts on that one zone"),
    (text(steps=effect('{ op = "set_gate", who = "self" }')), "steps[0].ops[0]", "who"),
    (text(steps=effect('{ op = "registrations", amount = 0 }')), "steps[0].ops[0].amount",
     "1 or more"),
    (text(card='[[cards.x.abilities]]\nkind = "on_play"\neffect = [{ op = "registrations", '
               'amount = 1 }]'), "cards.x.abilities[0].effect[0].op", "lrig or arts"),
    (text(steps=effect('{ op = "draw", if = { tally = "virus", zone = "ener", '
                       'at_least = 1 } }')), "steps[0].ops[0].if.zone", "tally"),
    (text(steps=effect('{ op = "draw", if = { tally = "virus" } }')),
     "steps[0].ops[0].if.at_least", "missing"),
    (text(steps=effect('{ op = "draw", for_each = { tally = "level" } }')),
     "steps[0].ops[0].for_each.tally", "unknown value"),
    (text(steps=effect('{ op = "banish", target = { who = "opponent", on_marker = "key" } }')),
     "steps[0].ops[0].target.on_marker", "virus, gate"),
    (text(setup='markers = { p2 = { virus = ["signi1", "signi1"] } }'),
     "setup.markers.p2.virus[1]", "listed twice"),
    (text(setup='markers = { p2 = { seed = ["signi1"] } }'), "setup.markers.p2", "seed"),
    (text(setup='registrations = { p1 = -1 }'), "setup.registrations.p1", "-1"),
    # wisdom sums levels, which the layer computes: not in what the layer holds
    (text(card='[[cards.x.abilities]]\nkind = "const"\nwhile = { tally = "wisdom", '
               'at_least = 3 }\neffect = [{ op = "power", target = "this", amount = 1000 }]'),
     "cards.x.abilities[0].while", "cannot read power, level or abilities"),
    (text(steps=effect('{ op = "banish", target = { who = "opponent", heaven = 1 } }')),
     "steps[0].ops[0].target.heaven", "true or false"),
])
def test_bad_values_are_refused_on_one_line(body: str, where: str, says: str) -> None:
    message = error_of(body)
    assert f"{where}" in message and says in message, message


@pytest.mark.parametrize("body", [
    text(steps=effect('{ op = "set_virus" }')),
    text(steps=effect('{ op = "registrations", amount = 1 }')),
    text(setup='markers = { p2 = { gate = ["signi1"] } }'),
    text(steps=effect('{ op = "draw", if = { tally = "gate", at_least = 1 } }')),
    text(card='[[cards.x.abilities]]\nkind = "action"\ncost = { remove_virus = 1 }\n'
              'effect = [{ op = "draw" }]'),
])
def test_a_file_of_format_8_that_uses_them_is_refused(body: str) -> None:
    message = error_of(body.replace("format_version = 9", "format_version = 8"))
    assert "format 9" in message, message


def test_positions_keep_the_markers_and_the_count() -> None:
    scenario = load_text(text(setup='markers = { p2 = { gate = ["signi3"] } }\n'
                                    'registrations = { p1 = 2 }',
                              steps=effect('{ op = "set_virus", zone = "signi1" }, '
                                           '{ op = "registrations", amount = 3 }')), "x.toml")
    trace = replay(scenario, scenario.rulesets[0]).traces[0]
    last = trace.positions[-1]
    assert last.player("p2").markers == ("signi1:virus", "signi3:gate")
    assert last.player("p1").registrations == 5
    assert "registrations 5" in last.to_text()
    assert "markers signi1:virus+signi3:gate" in last.to_text()
    assert Position.from_text(last.to_text()) == last
    assert Position.from_dict(last.to_dict()) == last


def test_a_removal_takes_the_chosen_virus_and_none_is_left_to_take() -> None:
    scenario = load_text(text(setup='markers = { p2 = { virus = ["signi2"] } }',
                              steps=effect('{ op = "remove_virus" }, '
                                           '{ op = "remove_virus" }, '
                                           '{ op = "draw", if_done = true }')), "x.toml")
    trace = replay(scenario, scenario.rulesets[0]).traces[0]
    kinds = [e.type for e in trace.events]
    assert "virus_removed" in kinds
    assert any(e.type == "fizzle" and e.to_dict().get("detail", {}).get("reason") ==
               "no-marker" for e in trace.events)
    assert any(e.type == "op_skipped" for e in trace.events)  # nothing removed: no draw
    assert trace.positions[-1].player("p2").markers == ()


MARKER_CARDS = ("s2vs", "s3vb", "s2rg", "a-gate", "s2ws", "s2ha")


def test_random_games_set_remove_and_count_markers() -> None:
    """Random games set viruses and gates, remove a virus for a boost, gain registrations,
    read wisdom, put a cross pair in heaven, and play every generated card of this
    vocabulary."""
    assert set(MARKER_CARDS) <= set(card_pool())
    rules = list(load_rulesets().values())
    wanted = {"virus_set", "virus_removed", "virus_removed:cost", "gate_set", "registrations",
              "heaven", *MARKER_CARDS}
    seen: set[str] = set()
    for seed in range(600):  # heaven needs a cross pair side by side: rarer than the rest
        if wanted <= seen:
            break
        game = play_random_game(rules[-1], seed, turns=20).game
        for e in game.log:
            seen.add(e.type)
            if e.type == "virus_removed":
                seen.add(f"virus_removed:{e.cause}")
            if isinstance(e, ev.EffectBegin) and e.card is not None:
                seen.add(game.card(e.card).card.id)
            elif isinstance(e, ev.Move) and e.to_zone is not None and \
                    e.to_zone.zone.startswith("signi") and e.card is not None:
                seen.add(game.card(e.card).card.id)
    assert wanted <= seen, sorted(wanted - seen)
    assert rules


HEAVEN = '''format_version = 9
id = "h"
rulesets = ["current"]
[title]
ja = "h"
[cards.ha]
type = "signi"
level = 2
power = 5000
cross = { partner = "hb", side = "right" }
[cards.hb]
type = "signi"
level = 2
power = 5000
cross = { partner = "ha", side = "left" }
[setup]
turn = 5
phase = "attack"
attack_step = "signi"
[setup.p1]
deck = ["d*5"]
life = ["l*3"]
lrig = ["L:lrig-white-4"]
signi1 = "A:ha"
signi2 = { card = "B:hb", down = true }
[setup.p2]
deck = ["e*5"]
life = ["m*3"]
lrig = ["M:lrig-red-4"]
[[steps]]
action = "attack"
card = "A"
STEPS
[[expect]]
'''


def test_heaven_is_a_state_of_the_object_and_leaves_with_it() -> None:
    """A and B enter heaven; B returned to the hand and played again is a new object, not in
    heaven, while A still is (the source names no end: it lasts while it is on the field)."""
    steps = (effect('{ op = "to_hand", target = "B" }') +
             effect('{ op = "put_onto_field", target = "B" }') +
             effect('{ op = "draw", if = { zone = "signi", heaven = true, at_least = 2 } }') +
             effect('{ op = "mill", if = { zone = "signi", heaven = true, at_least = 1 } }'))
    scenario = load_text(HEAVEN.replace("STEPS", steps), "h.toml")
    trace = replay(scenario, scenario.rulesets[0]).traces[0]
    entered = [e.card for e in trace.events if e.type == "heaven"]
    assert entered == ["A", "B"]
    kinds = [e.type for e in trace.events]
    assert "op_skipped" in kinds  # not two in heaven any more: no draw
    last = trace.positions[-1]
    assert len(last.zone("p1", "trash")) == 1  # A still is: the mill happens


def test_boards_draw_the_markers_on_their_zones() -> None:
    """A board shows each marker at the top right of its SIGNI zone's box (a zone with a
    marker and no card is drawn too), and the page's legend explains the marks it uses."""
    from judge.site.board import (
        MARKER_MARKS,
        Painter,
        board_of,
        layout_for,
        marks_used,
        zones_used,
    )

    scenario = load_text(text(setup='markers = { p2 = { gate = ["signi3"] } }',
                              steps=effect('{ op = "set_virus", zone = "signi1" }')), "x.toml")
    trace = replay(scenario, scenario.rulesets[0]).traces[0]
    board = board_of(trace.positions[-1])
    assert board.markers == (("p2", "signi1", "virus"), ("p2", "signi3", "gate"))
    assert "signi3" in zones_used([board])  # no card there, but a gate
    assert marks_used([board]) >= {"virus", "gate"}
    svg = Painter(layout_for([board]), [board]).svg(board, label="b")
    assert svg.count('class="zc mk"') == 2
    assert MARKER_MARKS["virus"] in svg and MARKER_MARKS["gate"] in svg
    before = board_of(trace.positions[0])
    assert not before.markers or before.markers == (("p2", "signi3", "gate"),)


@pytest.mark.parametrize(("body", "where"), [
    (text(setup='markers = { p2 = { virus = ["signi1"] } }'), "setup.markers.p2.virus"),
    (text(setup='registrations = { p1 = 1 }'), "setup.registrations.p1"),
    (text(steps=effect('{ op = "draw", if = { tally = "gate", at_least = 1 } }')),
     "steps[0].ops[0]"),
    (text(steps=effect('{ op = "banish", target = { who = "opponent", heaven = true } }')),
     "steps[0].ops[0]"),
    (text(card='keywords = ["wisdom"]'), "cards.x.keywords[0]"),
    (text(card='[[cards.x.abilities]]\nkind = "const"\nwhile = { tally = "registrations", '
               'at_least = 1 }\neffect = [{ op = "power", target = "this", amount = 1000 }]'),
     "cards.x.abilities[0].while"),
])
def test_a_rule_set_before_the_mechanics_refuses_them(body: str, where: str) -> None:
    """The sources date none of them: the engine has them from the current rule set, and an
    earlier one refuses a ruling that lays them out or reads them, naming the field."""
    message = error_of(body.replace('rulesets = ["current"]', 'rulesets = ["2014-09"]'))
    assert f": {where}" in message and "not part of rule set 2014-09" in message, message
