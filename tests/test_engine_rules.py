"""Unit tests, one rule at a time, written with the table DSL of conftest.py.

Each test lays out the zones, acts through the engine's actions and checks zones and events.
The rules come from the seed documents listed in docs/rules-model.md (the refresh page with
the 2014-07-01 and 2014-09-01 changes, the rule-processing page of 2020, the
commonly-mistaken-rules page and the Chinese rules page).
"""

from __future__ import annotations

import pytest
from conftest import Table, op

from judge.engine import events as ev

ALL_RULES = ("2014-04", "2014-07", "2014-09", "current")
AFTER_EFFECT = ("2014-07", "2014-09", "current")
LAUNCH_ERA_EMPTY_TRASH = ("2014-04", "2014-07", "2014-09")
TURN_ENDS = ("2014-09", "current")
TURN_GOES_ON = ("2014-04", "2014-07")


def lrig3(t: Table, player: str = "p1", deck: bool = True) -> Table:
    """A level-3 centre LRIG (limit 7, LRIG type Tama) and, unless ``deck`` is false, five
    cards in the main deck (so that no refresh gets in the way)."""
    t.put(player, "lrig", f"L0{player}:lrig-white-0", f"L3{player}:lrig-white-3")
    return t.put(player, "deck", f"z{player}*5") if deck else t


# ====================================================================== refresh


@pytest.mark.parametrize("rules", ALL_RULES)
def test_refresh_makes_deck_from_trash_then_trashes_one_life_kept_apart(rules: str) -> None:
    t = Table(rules)
    t.p1(deck=["d1"], trash=["t1", "t2"], life=["B:burst-draw-signi", "l2"])
    t.effect("p1", op("mill", count=1))
    # the new deck is the old trash; the life cloth goes to the trash after the shuffle,
    # so it is not part of the new deck, and its Life Burst is not used
    t.assert_zones("p1", deck={"t1", "t2", "d1"}, trash=["B"], life=["l2"], hand=[])
    t.assert_events({"type": "move", "card": "d1", "verb": "mill"},
                    {"type": "shuffle", "player": "p1"},
                    {"type": "move", "card": "B", "from": "p1.life", "to": "p1.trash",
                     "verb": "refresh_life", "cause": "rule"},
                    {"type": "refresh", "player": "p1", "count": 1, "deck_size": 3,
                     "life_moved": True})
    t.assert_no_event(type="burst")
    assert t.state.players["p1"].refreshes == 1


def test_refresh_with_no_life_cloth_only_makes_the_deck() -> None:
    t = Table("current").p1(deck=["d1"], trash=["t1"], life=[])
    t.effect("p1", op("mill", count=1))
    t.assert_zones("p1", deck={"t1", "d1"}, trash=[], life=[])
    t.assert_events({"type": "refresh", "player": "p1", "life_moved": False})


def test_refresh_is_rule_processing() -> None:
    t = Table("current").p1(deck=["d1"], trash=["t1"], life=["l1"])
    t.effect("p1", op("mill", count=1))
    t.assert_events({"type": "rule_check", "kinds": ["refresh"]},
                    {"type": "refresh", "cause": "rule"})
    assert all(e.cause == "rule" for e in t.events(verb="refresh"))


def test_current_refresh_needs_a_card_in_the_trash() -> None:
    t = Table("current").p1(deck=["d1"], trash=[], life=["l1", "l2"], hand=["h1"])
    t.effect("p1", op("draw", count=1))
    # main deck 0 and trash 0: no refresh, the game goes on
    t.assert_zones("p1", deck=[], trash=[], life=["l1", "l2"], hand=["h1", "d1"])
    t.assert_events({"type": "refresh_waits", "player": "p1", "reason": "empty-trash"})
    t.assert_no_event(type="refresh")
    # once a card reaches the trash, the refresh happens
    t.effect("p1", op("discard", target="h1"))
    t.assert_zones("p1", deck=["h1"], trash=["l1"], life=["l2"], hand=["d1"])
    t.assert_events({"type": "refresh", "player": "p1", "deck_size": 1})


@pytest.mark.parametrize("rules", LAUNCH_ERA_EMPTY_TRASH)
def test_launch_era_empty_trash_puts_life_into_trash_and_rebuilds_from_it(rules: str) -> None:
    t = Table(rules).p1(deck=["d1"], trash=[], life=["l1", "l2"])
    t.effect("p1", op("draw", count=1))
    # the life cloth goes to the trash first, and the deck is made from the trash
    t.assert_zones("p1", deck=["l1"], trash=[], life=["l2"], hand=["d1"])
    t.assert_events({"type": "move", "card": "l1", "to": "p1.trash", "verb": "refresh_life"},
                    {"type": "move", "card": "l1", "to": "p1.deck", "verb": "refresh"},
                    {"type": "refresh", "player": "p1", "life_moved": True})


@pytest.mark.parametrize("rules", ALL_RULES)
def test_empty_deck_trash_and_life_waits_for_a_card_in_the_trash(rules: str) -> None:
    t = Table(rules).p1(deck=["d1"], trash=[], life=[], hand=["h1"])
    t.effect("p1", op("draw", count=1))
    t.assert_zones("p1", deck=[], trash=[], hand=["h1", "d1"])
    t.assert_no_event(type="refresh")
    t.assert_events({"type": "refresh_waits", "player": "p1"})
    t.effect("p1", op("discard", target="d1"))
    t.assert_zones("p1", deck=["d1"], trash=[])


def test_2014_04_refresh_interrupts_the_effect() -> None:
    t = Table("2014-04").p1(deck=["d1"], trash=["t1", "t2"], life=["l1", "l2"])
    t.effect("p1", op("draw", count=2))
    # the refresh happens between the two draws, and the second draw comes from the new deck
    hand = t.zone("p1", "hand")
    assert hand[0] == "d1" and hand[1] in ("t1", "t2") and len(hand) == 2
    t.assert_zones("p1", deck=1, trash=["l1"], life=["l2"])
    draws = t.events(type="move", verb="draw")
    refresh = t.index(type="refresh")
    assert t.game.log.index(draws[0]) < refresh < t.game.log.index(draws[1])
    assert refresh < t.index(type="effect_end")
    t.assert_no_event(type="skipped")


@pytest.mark.parametrize("rules", AFTER_EFFECT)
def test_refresh_waits_until_the_effect_has_resolved(rules: str) -> None:
    t = Table(rules).p1(deck=["d1"], trash=["t1", "t2"], life=["l1", "l2"])
    t.effect("p1", op("draw", count=2))
    # the second card is simply not drawn; the refresh follows the effect
    t.assert_zones("p1", hand=["d1"], deck={"t1", "t2"}, trash=["l1"], life=["l2"])
    t.assert_events({"type": "skipped", "verb": "draw", "wanted": 2, "done": 1},
                    {"type": "effect_end"},
                    {"type": "refresh", "player": "p1"})


def test_2014_04_draw_phase_draws_the_second_card_after_the_refresh() -> None:
    t = Table("2014-04", phase="up").p1(deck=["d1"], trash=["t1"], life=["l1", "l2"])
    t.advance()
    assert t.state.phase == "draw"
    # drawing t1 emptied the deck again and refreshed again (no limit before 2014-09)
    t.assert_zones("p1", hand=["d1", "t1"], deck=["l1"], trash=["l2"], life=[])
    assert len(t.events(type="refresh")) == 2


@pytest.mark.parametrize("rules", AFTER_EFFECT)
def test_draw_phase_does_not_draw_the_second_card(rules: str) -> None:
    t = Table(rules, phase="up").p1(deck=["d1"], trash=["t1", "t2"], life=["l1", "l2"])
    t.advance()
    assert t.state.phase == "draw"
    t.assert_zones("p1", hand=["d1"], deck={"t1", "t2"}, trash=["l1"], life=["l2"])
    t.assert_events({"type": "phase", "phase": "draw"},
                    {"type": "skipped", "verb": "draw", "wanted": 2, "done": 1},
                    {"type": "refresh", "player": "p1"})
    t.advance()
    assert t.state.phase == "ener"


def test_first_players_first_turn_draws_one_card() -> None:
    t = Table("current", turn=1, phase="up").p1(deck=["d*3"])
    t.advance("draw")
    t.assert_zones("p1", hand=["d1"], deck=["d2", "d3"])


@pytest.mark.parametrize("rules", TURN_ENDS)
def test_turn_players_second_refresh_ends_the_turn(rules: str) -> None:
    t = Table(rules).p1(deck=["d1"], trash=["t1"], life=["l1", "l2"], hand=["h1"])
    t.p2(deck=["e*3"])
    t.refreshed("p1", 1)
    t.effect("p1", op("mill", count=1))
    t.assert_events({"type": "refresh", "player": "p1", "count": 2},
                    {"type": "turn_end", "player": "p1", "turn": 3,
                     "reason": "second_refresh"},
                    {"type": "turn_begin", "player": "p2", "turn": 4})
    assert (t.state.turn, t.state.turn_player, t.state.phase) == (4, "p2", "up")
    assert t.state.players["p1"].refreshes == 0


@pytest.mark.parametrize("rules", TURN_ENDS)
def test_first_refresh_does_not_end_the_turn(rules: str) -> None:
    t = Table(rules).p1(deck=["d1"], trash=["t1"], life=["l1", "l2"])
    t.effect("p1", op("mill", count=1))
    assert (t.state.turn, t.state.turn_player, t.state.phase) == (3, "p1", "main")
    t.assert_no_event(type="turn_end")


@pytest.mark.parametrize("rules", TURN_GOES_ON)
def test_second_refresh_does_not_end_the_turn_before_2014_09(rules: str) -> None:
    t = Table(rules).p1(deck=["d1"], trash=["t1"], life=["l1", "l2"])
    t.refreshed("p1", 1)
    t.effect("p1", op("mill", count=1))
    assert (t.state.turn, t.state.turn_player, t.state.phase) == (3, "p1", "main")
    assert t.state.players["p1"].refreshes == 2
    t.assert_no_event(type="turn_end")


@pytest.mark.parametrize("rules", ALL_RULES)
def test_non_turn_player_has_no_refresh_limit(rules: str) -> None:
    t = Table(rules).p1(deck=["d*3"])
    t.p2(deck=["e1"], trash=["u1"], life=["m1", "m2"])
    t.refreshed("p2", 1)
    t.effect("p1", op("mill", who="opponent", count=1))
    t.assert_events({"type": "refresh", "player": "p2", "count": 2})
    assert (t.state.turn, t.state.turn_player) == (3, "p1")
    t.assert_no_event(type="turn_end")


@pytest.mark.parametrize("rules", TURN_ENDS)
def test_second_refresh_in_the_draw_phase_ends_the_turn(rules: str) -> None:
    t = Table(rules, phase="up").p1(deck=["d1"], trash=["t1"], life=["l1"])
    t.p2(deck=["e*3"])
    t.refreshed("p1", 1)
    t.advance()
    t.assert_events({"type": "turn_end", "player": "p1", "reason": "second_refresh"})
    assert t.state.turn_player == "p2"


# ====================================================================== rule processing


def test_kind_1_power_zero_is_banished_by_rule() -> None:
    t = lrig3(Table("current")).p1(signi1="S1:signi-2")
    t.effect("p1", op("power", target="S1", amount=-5000))
    t.assert_zones("p1", signi1=[], ener=["S1"])
    t.assert_events({"type": "power", "card": "S1", "power": 0},
                    {"type": "rule_check", "kinds": ["power"]},
                    {"type": "banish", "card": "S1", "cause": "rule", "to": "p1.ener"})


def test_kind_1_positive_power_stays() -> None:
    t = lrig3(Table("current")).p1(signi1="S1:signi-2")
    t.effect("p1", op("power", target="S1", amount=-4000))
    t.assert_zones("p1", signi1=["S1"])
    t.assert_no_event(type="rule_check")


def test_kind_2_level_above_the_lrig_goes_to_the_trash() -> None:
    t = lrig3(Table("current")).p1(signi1="S1:signi-2")
    t.effect("p1", op("level", target="S1", amount=2))
    t.assert_zones("p1", signi1=[], trash=["S1"])
    t.assert_events({"type": "rule_check", "kinds": ["excess"]},
                    {"type": "move", "card": "S1", "cause": "rule", "verb": "excess"})
    t.assert_no_event(type="banish")


def test_kind_3_charm_goes_to_the_trash_when_its_signi_leaves() -> None:
    t = lrig3(Table("current")).p1(signi1="S1:signi-2")
    t.put("p1", "under1", "C1", attach="charm")
    t.effect("p1", op("banish", target="S1"))
    t.assert_zones("p1", ener=["S1"], under1=[], trash=["C1"])
    t.assert_events({"type": "banish", "card": "S1", "cause": "effect"},
                    {"type": "rule_check", "kinds": ["under"]},
                    {"type": "move", "card": "C1", "cause": "rule", "verb": "under"})


def test_kind_3_charm_placed_by_an_effect_follows_its_signi() -> None:
    t = lrig3(Table("current"), deck=False).p1(deck=["d*3"], signi1="S1:signi-2")
    t.effect("p1", op("charm", target="S1"))
    t.assert_zones("p1", under1=["d1"], deck=["d2", "d3"])
    t.effect("p1", op("to_hand", target="S1"))
    t.assert_zones("p1", hand=["S1"], under1=[], trash=["d1"])


def test_kind_4_crushed_card_without_burst_goes_to_the_ener_zone() -> None:
    t = Table("current").p1(life=["l1", "l2"])
    t.crush("p1")
    t.assert_zones("p1", life=["l2"], check=[], ener=["l1"])
    t.assert_events({"type": "move", "card": "l1", "to": "p1.check", "verb": "crush"},
                    {"type": "rule_check", "kinds": ["check"]},
                    {"type": "move", "card": "l1", "to": "p1.ener", "cause": "rule"})


def test_kind_5_refresh_listed_in_rule_check() -> None:
    t = Table("current").p1(deck=["d1"], trash=["t1"])
    t.effect("p1", op("draw"))
    t.assert_events({"type": "rule_check", "kinds": ["refresh"]})


def test_kind_6_resona_outside_its_zones_returns_to_the_lrig_deck() -> None:
    t = lrig3(Table("current")).define("resona-2", type="resona", level=2, power=5000)
    t.p1(signi1="R:resona-2")
    t.effect("p1", op("to_hand", target="R"))
    t.assert_zones("p1", hand=[], lrig_deck=["R"])
    t.assert_events({"type": "move", "card": "R", "to": "p1.hand", "cause": "effect"},
                    {"type": "rule_check", "kinds": ["resona"]},
                    {"type": "move", "card": "R", "to": "p1.lrig_deck", "cause": "rule"})


def test_kind_7_key_outside_its_zones_goes_to_the_lrig_trash() -> None:
    t = lrig3(Table("current")).define("key-1", type="key", colour="white")
    t.p1(key="K:key-1")
    t.effect("p1", op("to_hand", target="K"))
    t.assert_zones("p1", hand=[], key=[], lrig_trash=["K"])
    t.assert_events({"type": "rule_check", "kinds": ["key"]},
                    {"type": "move", "card": "K", "to": "p1.lrig_trash", "cause": "rule"})


@pytest.mark.parametrize("keep,gone", [("S1", "H1"), ("H1", "S1")])
def test_kind_8_zone_upper_limit_the_player_chooses(keep: str, gone: str) -> None:
    t = lrig3(Table("current")).p1(signi1="S1:signi-2", hand=["H1"])
    t.answer("p1", "over_limit", gone)
    t.effect("p1", op("place", target="H1", zone="signi1"))
    t.assert_zones("p1", signi1=[keep], trash=[gone])
    t.assert_events({"type": "choice", "kind": "over_limit", "options": ["S1", "H1"]},
                    {"type": "rule_check", "kinds": ["upper_limit"]})


def test_kind_8_two_accessories_on_one_signi() -> None:
    t = lrig3(Table("current")).define("acc", type="signi", level=1, power=1000,
                                       keywords=["accessory"])
    t.p1(signi1="S1:signi-2", hand=["A1:acc", "A2:acc"])
    t.answer("p1", "over_limit", "A1")
    t.effect("p1", op("attach", target="S1", card="A1"), op("attach", target="S1", card="A2"))
    t.assert_zones("p1", under1=["A2"], trash=["A1"])


def test_only_a_card_with_the_accessory_keyword_is_attached_and_grants_keywords() -> None:
    t = lrig3(Table("current")).define("acc", type="signi", level=1, power=1000,
                                       keywords=["accessory"], grants=["assassin"])
    t.p1(signi1="S1:signi-2", signi2="S2:signi-2", hand=["A1:acc", "P"])
    t.effect("p1", op("attach", target="S2", card="P"), op("attach", target="S1", card="A1"))
    t.assert_zones("p1", under1=["A1"], under2=[], hand=["P"])
    t.assert_events({"type": "fizzle", "card": "P", "reason": "not-accessory"})
    assert "assassin" in t.game.keywords(t.game.card("S1"))
    assert "assassin" not in t.game.keywords(t.game.card("S2"))
    t.effect("p1", op("to_hand", target="S1"))  # the Accessory goes; so does what it grants
    t.assert_zones("p1", under1=[], trash=["A1"])


def test_kind_9_limiting_condition_not_met_goes_to_the_trash() -> None:
    t = lrig3(Table("current")).define("hanayo-signi", type="signi", level=1, power=3000,
                                       limiting="Hanayo")
    t.p1(hand=["H1:hanayo-signi"])
    t.effect("p1", op("put_onto_field", target="H1", ignore_conditions=True))
    t.assert_zones("p1", signi1=[], trash=["H1"])
    t.assert_events({"type": "rule_check", "kinds": ["limiting"]})


def test_put_onto_field_checks_the_limiting_condition() -> None:
    t = lrig3(Table("current")).define("hanayo-signi", type="signi", level=1, power=3000,
                                       limiting="Hanayo")
    t.p1(hand=["H1:hanayo-signi"])
    t.effect("p1", op("put_onto_field", target="H1"))
    t.assert_zones("p1", hand=["H1"], signi1=[])
    t.assert_events({"type": "fizzle", "card": "H1"})


def test_kind_10_two_lrigs_of_one_type_the_assist_stack_goes() -> None:
    t = Table("current").define("hanayo-1", type="lrig", level=1, limit=2, lrig_type="Hanayo")
    t.define("hanayo-2", type="lrig", level=2, limit=5, lrig_type="Hanayo", name="Hanayo II")
    t.p1(lrig=["L0:lrig-white-0", "L3:lrig-white-3"], assist1=["A1:hanayo-1"],
         lrig_deck=["N:hanayo-2"])
    # the centre LRIG becomes a Hanayo, like the assist LRIG
    t.effect("p1", op("place", target="N", zone="lrig"))
    t.assert_zones("p1", lrig=["L0", "L3", "N"], assist1=[], lrig_trash=["A1"])
    t.assert_events({"type": "rule_check", "kinds": ["lrig_type"]})


def test_kind_10_set_up_directly() -> None:
    t = Table("current").define("tama-1", type="lrig", level=1, limit=2, lrig_type="Tama")
    t.p1(lrig=["L3:lrig-white-3"], assist2=["A0:lrig-white-0", "A1:tama-1"])
    t.settle()
    t.assert_zones("p1", assist2=[], lrig_trash={"A0", "A1"}, lrig=["L3"])


def test_no_rule_processing_in_the_middle_of_one_effect() -> None:
    t = lrig3(Table("current"), deck=False).p1(signi1="S1:signi-2", deck=["d*3"])
    t.effect("p1", op("power", target="S1", amount=-5000), op("power", target="S1",
                                                                amount=3000))
    # 0 in the middle, 3000 at the end: the check after the effect sees a positive power
    t.assert_zones("p1", signi1=["S1"])
    t.assert_no_event(type="rule_check")


# ---------------------------------------------------------------- simultaneity


def test_rule_processing_applies_at_the_same_time_refresh_and_banish() -> None:
    """The rule-processing page's example: banish-to-trash in force, one effect makes the SIGNI
    power 0 and empties the deck; the refresh uses the trash as it was, the SIGNI goes to the
    trash, not into the new deck."""
    t = lrig3(Table("current"), deck=False).p1(deck=["d1"], trash=["t1"], life=["l1", "l2"],
                                   signi1="S1:signi-2")
    t.effect("p1", op("banish_to_trash", who="self"))
    t.effect("p1", op("power", target="S1", amount=-5000), op("mill", count=1))
    t.assert_zones("p1", deck={"t1", "d1"}, trash={"l1", "S1"}, signi1=[], life=["l2"])
    checks = t.events(type="rule_check")
    assert [e.pattern_value("kinds") for e in checks] == [["power", "refresh"]]
    t.assert_events({"type": "refresh", "player": "p1", "deck_size": 2},
                    {"type": "banish", "card": "S1", "to": "p1.trash", "cause": "rule"})


def test_a_card_leaving_the_trash_at_the_same_time_is_not_refreshed_current() -> None:
    """Main deck 0 and the only card in the trash is a Resona that kind 6 returns to the LRIG
    deck at the same time: there is nothing to refresh with (current rules need a card in the
    trash), so no refresh happens and no life cloth moves. (Regression: the engine used to
    apply the launch-era empty-trash procedure here and shuffle the Resona into the deck.)"""
    t = Table("current").define("resona-2", type="resona", level=2, power=5000)
    t.p1(deck=["d1"], trash=["R:resona-2"], life=["l1", "l2"])
    t.effect("p1", op("draw"))
    t.assert_zones("p1", deck=[], trash=[], life=["l1", "l2"], lrig_deck=["R"], hand=["d1"])
    t.assert_no_event(type="refresh")
    t.assert_events({"type": "rule_check", "kinds": ["resona"]},
                    {"type": "refresh_waits", "player": "p1"})


@pytest.mark.parametrize("life,deck", [(["l1", "l2"], ["l1"]), ([], [])])
def test_a_card_leaving_the_trash_at_the_same_time_is_not_refreshed_launch_era(
        life: list[str], deck: list[str]) -> None:
    """The same under 2014-07: the launch-era procedure builds the deck from the life cloth
    alone, never from the Resona; with no life cloth either, nothing happens (this used to
    crash the engine)."""
    t = Table("2014-07").define("resona-2", type="resona", level=2, power=5000)
    t.p1(deck=["d1"], trash=["R:resona-2"], life=life)
    t.effect("p1", op("draw"))
    t.assert_zones("p1", deck=deck, trash=[], lrig_deck=["R"], hand=["d1"])


@pytest.mark.parametrize("first,where", [("power", "ener"), ("limiting", "trash")])
def test_two_kinds_moving_one_card_its_owner_chooses(first: str, where: str) -> None:
    t = lrig3(Table("current")).define("hanayo-signi", type="signi", level=1, power=2000,
                                       limiting="Hanayo")
    t.p1(hand=["H1:hanayo-signi"])
    t.answer("p1", "zone", "signi1").answer("p1", "rule_order", first)
    t.effect("p1", op("put_onto_field", target="H1", ignore_conditions=True),
             op("power", target="H1", amount=-2000))
    t.assert_zones("p1", signi1=[], **{where: ["H1"]})
    t.assert_events({"type": "choice", "player": "p1", "kind": "rule_order",
                     "options": ["power", "limiting"], "picked": [first]})
    if first == "power":
        t.assert_events({"type": "banish", "card": "H1", "cause": "rule"})
    else:
        t.assert_no_event(type="banish")


def test_rule_order_is_chosen_by_the_cards_owner_not_the_turn_player() -> None:
    t = lrig3(lrig3(Table("current")), "p2").define("hanayo-signi", type="signi", level=1,
                                                    power=2000, limiting="Hanayo")
    t.p2(hand=["E1:hanayo-signi"])
    t.answer("p2", "zone", "signi2").answer("p2", "rule_order", "limiting")
    t.effect("p1", op("put_onto_field", target="E1", ignore_conditions=True),
             op("power", target="E1", amount=-2000))
    t.assert_zones("p2", trash=["E1"])


def test_two_kinds_sending_a_card_to_the_same_place_need_no_choice() -> None:
    """Limiting mismatch and a level above the LRIG's both put the SIGNI into the trash: the
    owner's choice is only asked when the places differ."""
    t = lrig3(Table("current")).define("hanayo-signi", type="signi", level=1, power=2000,
                                       limiting="Hanayo")
    t.p1(hand=["H1:hanayo-signi"], signi2="S2", signi3="S3")
    t.effect("p1", op("put_onto_field", target="H1", ignore_conditions=True),
             op("level", target="H1", amount=3))
    t.assert_zones("p1", signi1=[], trash=["H1"])
    # one move; the rule check names both kinds that applied to it
    t.assert_events({"type": "rule_check", "kinds": ["excess", "limiting"]},
                    {"type": "move", "card": "H1", "to": "p1.trash", "cause": "rule"})
    t.assert_no_event(type="choice")


# ---------------------------------------------------------------- excess order


def _excess_table() -> Table:
    t = lrig3(Table("current"))  # level 3, limit 7
    return t.p1(signi1="S1:signi-3", signi2="S2:signi-2", signi3="S3:signi-2")


def test_excess_a_level_above_the_lrig_then_b_level_changed() -> None:
    t = _excess_table()
    t.effect("p1", op("level", target="S1", amount=1), op("level", target="S2", amount=1),
             op("limit", amount=-3))
    # A: S1 (level 4 > 3); then 3 + 2 > 4: B: S2 (its level changed); then 2 <= 4
    t.assert_zones("p1", signi1=[], signi2=[], signi3=["S3"], trash=["S1", "S2"])
    t.assert_no_event(type="choice")


def test_excess_b_before_c_even_when_another_would_suffice() -> None:
    t = _excess_table()
    t.effect("p1", op("level", target="S3", amount=-1), op("limit", amount=-2))
    # 3 + 2 + 1 = 6 > 5: only S3's level changed, so S3 goes, without a choice
    t.assert_zones("p1", signi1=["S1"], signi2=["S2"], signi3=[], trash=["S3"])
    t.assert_no_event(type="choice")


@pytest.mark.parametrize("pick", ["S1", "S2", "S3"])
def test_excess_c_the_player_chooses_among_the_others(pick: str) -> None:
    t = _excess_table()
    t.answer("p1", "excess", pick)
    t.effect("p1", op("limit", amount=-1))  # 7 > 6
    t.assert_zones("p1", trash=[pick])
    t.assert_events({"type": "choice", "kind": "excess", "options": ["S1", "S2", "S3"]})


def test_excess_one_at_a_time_until_within_the_limit() -> None:
    t = _excess_table()
    t.answer("p1", "excess", "S2").answer("p1", "excess", "S3")
    t.effect("p1", op("limit", amount=-4))  # 7 > 3: S2 (5 > 3), then S3 (3 <= 3)
    t.assert_zones("p1", signi1=["S1"], trash=["S2", "S3"])


def test_grow_to_a_lower_level_can_cause_an_excess() -> None:
    t = Table("2014-09", phase="grow")  # under current a grow never goes down
    t.p1(lrig=["L3:lrig-white-3"], lrig_deck=["L1:lrig-white-1"], signi1="S1:signi-2",
         signi2="S2:signi-1", deck=["d*3"])
    t.define("lrig-white-1b", type="lrig", level=1, limit=2, lrig_type="Tama")
    t.grow("L1")
    # level 1, limit 2: S1 (level 2) is above the level and goes first; S2 stays
    t.assert_zones("p1", lrig=["L3", "L1"], signi1=[], signi2=["S2"], trash=["S1"])


# ====================================================================== triggered abilities


def test_banished_by_an_effect_triggers() -> None:
    t = lrig3(Table("current"), deck=False)
    t.p1(signi1="S1:banished-by-effect-draw-signi", deck=["d*3"])
    t.effect("p1", op("banish", target="S1"))
    t.assert_zones("p1", ener=["S1"], hand=["d1"])
    t.assert_events({"type": "banish", "card": "S1", "cause": "effect"},
                    {"type": "trigger", "ability": "S1#0", "trigger": "banished_by_effect"},
                    {"type": "effect_begin", "ability": "S1#0"})


def test_banished_by_rule_processing_does_not_trigger_by_effect_abilities() -> None:
    t = lrig3(Table("current"), deck=False)
    t.p1(signi1="S1:banished-by-effect-draw-signi", deck=["d*3"])
    t.effect("p1", op("power", target="S1", amount=-5000))
    t.assert_zones("p1", ener=["S1"], hand=[])
    t.assert_events({"type": "banish", "card": "S1", "cause": "rule"})
    t.assert_no_event(type="trigger")


def test_banished_trigger_fires_for_a_rule_banish() -> None:
    t = lrig3(Table("current"), deck=False)
    t.define("any-banish-draw", type="signi", level=1, power=1000,
             abilities=[{"kind": "auto", "trigger": "banished", "effect": [{"op": "draw"}]}])
    t.p1(signi1="S1:any-banish-draw", deck=["d1", "d2"])
    t.effect("p1", op("power", target="S1", amount=-1000))
    t.assert_zones("p1", hand=["d1"])


@pytest.mark.parametrize("turn_player,first", [("p1", "S1#0"), ("p2", "E1#0")])
def test_triggered_abilities_turn_player_first(turn_player: str, first: str) -> None:
    t = lrig3(lrig3(Table("current", turn_player=turn_player), deck=False), "p2", deck=False)
    t.p1(signi1="S1:banished-by-effect-draw-signi", deck=["d*2"])
    t.p2(signi1="E1:banished-by-effect-draw-signi", deck=["e*2"])
    # the opponent's SIGNI is banished (and its ability triggers) first in the effect
    order = ["E1", "S1"] if turn_player == "p1" else ["S1", "E1"]
    t.effect(turn_player, op("banish", target=order))
    begins = [str(e.ability) for e in t.events(type="effect_begin")
              if isinstance(e, ev.EffectBegin) and str(e.ability) in ("S1#0", "E1#0")]
    assert begins[0] == first and len(begins) == 2
    t.assert_zones("p1", hand=["d1"]).assert_zones("p2", hand=["e1"])


@pytest.mark.parametrize("first", ["S1#0", "S2#0"])
def test_a_player_orders_their_own_triggered_abilities(first: str) -> None:
    t = lrig3(Table("current"), deck=False).p1(signi1="S1:banished-by-effect-draw-signi",
                                   signi2="S2:banished-by-effect-draw-signi", deck=["d*3"])
    t.answer("p1", "trigger_order", first)
    t.effect("p1", op("banish", target=["S1", "S2"]))
    begins = [str(e.ability) for e in t.events(type="effect_begin")
              if isinstance(e, ev.EffectBegin)][1:]
    assert begins[0] == first


@pytest.mark.parametrize("rules", ALL_RULES)
def test_trigger_is_lost_when_the_card_left_the_trash(rules: str) -> None:
    """The commonly-mistaken-rules page: the mill empties the deck, the refresh comes first and
    shuffles the SIGNI back into the deck, so its ability can no longer be used."""
    t = Table(rules).p1(deck=["d1", "R:trash-return-signi"], trash=["t1"], life=["l1", "l2"])
    t.effect("p1", op("mill", count=2))
    t.assert_zones("p1", hand=[], deck={"t1", "d1", "R"}, trash=["l1"])
    t.assert_events({"type": "trigger", "ability": "R#0"},
                    {"type": "refresh", "player": "p1"},
                    {"type": "trigger_lost", "ability": "R#0", "reason": "left-trash"})
    t.assert_no_event(type="effect_begin", ability="R#0")


def test_optional_trigger_used() -> None:
    t = Table("current").p1(deck=["R:trash-return-signi", "d1", "d2"])
    t.answer("p1", "use", "yes")
    t.effect("p1", op("mill", count=1))
    t.assert_zones("p1", hand=["R"], trash=[])


def test_optional_trigger_declined() -> None:
    t = Table("current").p1(deck=["R:trash-return-signi", "d1", "d2"])
    t.answer("p1", "use", "no")
    t.effect("p1", op("mill", count=1))
    t.assert_zones("p1", hand=[], trash=["R"])
    t.assert_events({"type": "trigger_declined", "ability": "R#0", "player": "p1"})
    t.assert_no_event(type="effect_begin", ability="R#0")


def test_refresh_comes_before_a_waiting_trigger() -> None:
    t = Table("current").p1(deck=["R:trash-return-signi"], trash=["t1"], life=["l1"])
    t.effect("p1", op("mill", count=1))
    assert t.index(type="refresh") < t.index(type="trigger_lost")


# ====================================================================== Life Burst and damage


def test_life_burst_used_then_to_the_ener_zone() -> None:
    t = Table("current", turn_player="p2").p1(life=["B:burst-draw-signi", "l2"],
                                              deck=["d1", "d2"])
    t.answer("p1", "use", "yes")
    t.damage("p1")
    t.assert_zones("p1", life=["l2"], check=[], ener=["B"], hand=["d1"])
    t.assert_events({"type": "move", "card": "B", "to": "p1.check", "verb": "crush"},
                    {"type": "burst", "card": "B", "used": True},
                    {"type": "effect_begin", "ability": "B#burst"},
                    {"type": "move", "card": "d1", "to": "p1.hand"},
                    {"type": "move", "card": "B", "to": "p1.ener", "cause": "game",
                     "verb": "after_burst"})
    # a used burst's card goes to the ener zone as part of the crush, not by rule processing
    t.assert_no_event(type="rule_check", kinds=["check"])


def test_life_burst_not_used_then_to_the_ener_zone() -> None:
    t = Table("current", turn_player="p2").p1(life=["B:burst-draw-signi", "l2"],
                                              deck=["d1", "d2"])
    t.answer("p1", "use", "no")
    t.damage("p1")
    t.assert_zones("p1", life=["l2"], check=[], ener=["B"], hand=[])
    t.assert_events({"type": "burst", "card": "B", "used": False},
                    {"type": "move", "card": "B", "to": "p1.ener", "cause": "rule"})


def test_two_life_bursts_their_owner_orders_them() -> None:
    t = Table("current", turn_player="p2").p1(life=["B1:burst-draw-signi",
                                                    "B2:burst-draw-signi", "l3"],
                                              deck=["d*4"])
    t.answer("p1", "burst_order", "B2")
    t.crush("p1", 2)
    bursts = [e.card for e in t.events(type="burst")]
    assert bursts == ["B2", "B1"]
    t.assert_zones("p1", ener={"B1", "B2"}, hand=["d1", "d2"], life=["l3"])


@pytest.mark.parametrize("rules", ALL_RULES)
def test_damage_with_no_life_cloth_ends_the_game(rules: str) -> None:
    t = Table(rules).p2(life=[])
    t.damage("p2")
    assert t.state.winner == "p1"
    t.assert_events({"type": "game_over", "player": "p2", "winner": "p1"})
    t.illegal("game-over", "advance")


def test_damage_with_life_cloth_does_not_end_the_game() -> None:
    t = Table("current").p2(life=["m1"])
    t.damage("p2")
    assert t.state.winner is None
    t.assert_zones("p2", life=[], ener=["m1"])


def test_crush_with_no_life_cloth_is_not_damage() -> None:
    t = Table("current").p2(life=[])
    t.crush("p2")
    assert t.state.winner is None
    t.assert_no_event(type="game_over")


# ====================================================================== illegal actions


def test_spell_outside_the_main_phase() -> None:
    t = Table("current", phase="attack").p1(hand=["X:spell-draw-2"], deck=["d*3"])
    t.illegal("not-main-phase", "use", "X")


def test_spell_in_the_opponents_main_phase() -> None:
    t = Table("current", turn_player="p2").p1(hand=["X:spell-draw-2"], deck=["d*3"])
    t.illegal("not-main-phase", "use", "X")


def test_spell_in_the_main_phase_resolves_then_goes_to_the_trash() -> None:
    t = Table("current").p1(hand=["X:spell-draw-2"], deck=["d*3"])
    t.use("X")
    t.assert_zones("p1", hand=["d1", "d2"], trash=["X"], check=[])


def test_spell_not_in_the_hand() -> None:
    t = Table("current").p1(trash=["X:spell-draw-2"], deck=["d*3"])
    t.illegal("not-in-hand", "use", "X")


def test_arts_timing() -> None:
    t = Table("current", phase="grow").p1(lrig_deck=["A:arts-banish-to-trash"])
    t.illegal("arts-timing", "use", "A")


def test_arts_in_the_opponents_main_phase_is_refused() -> None:
    t = Table("current", turn_player="p2").p1(lrig_deck=["A:arts-banish-to-trash"])
    t.illegal("arts-timing", "use", "A")


def test_arts_in_the_opponents_attack_phase_is_allowed() -> None:
    """In the ARTS step the non-turn player may use an attack-timing ARTS once the turn player
    has passed."""
    t = Table("current", turn_player="p2", phase="attack")
    t.define("attack-arts", type="arts", colour="black", timing=["attack"],
             effect=[{"op": "banish_to_trash", "who": "opponent"}])
    t.p1(lrig_deck=["A:attack-arts"])
    t.state.attack_step, t.state.arts_priority = "arts", "p2"
    t.illegal("not-your-priority", "pass_arts", "p1")
    t.illegal("arts-timing", "use", "A")
    t.state.arts_priority = "p1"
    t.use("A")
    t.assert_zones("p1", lrig_trash=["A"])
    t.assert_events({"type": "lasting", "player": "p2", "kind": "banish_to_trash"})


def test_arts_not_in_the_lrig_deck() -> None:
    t = Table("current").p1(lrig_trash=["A:arts-banish-to-trash"])
    t.illegal("not-in-lrig-deck", "use", "A")


def test_a_signi_is_not_usable() -> None:
    t = Table("current").p1(hand=["S"])
    t.illegal("not-usable", "use", "S")


def _grow_table(phase: str = "grow", rules: str = "current") -> Table:
    t = Table(rules, phase=phase)
    t.define("tama-0", type="lrig", level=0, limit=0, lrig_type="Tama", name="Tama")
    t.define("tama-1", type="lrig", level=1, limit=2, lrig_type="Tama", name="Tama")
    t.define("tama-2", type="lrig", level=2, limit=5, lrig_type="Tama", name="Tama II")
    t.define("hanayo-1", type="lrig", level=1, limit=2, lrig_type="Hanayo", name="Hanayo")
    t.define("other-0", type="lrig", level=0, limit=0, lrig_type="Tama", name="Other")
    return t


def test_grow_up_one_level() -> None:
    t = _grow_table().p1(lrig=["L0:lrig-white-0"], lrig_deck=["N:lrig-white-1"])
    t.grow("N")
    t.assert_zones("p1", lrig=["L0", "N"], lrig_deck=[])


def test_grow_two_levels_is_refused() -> None:
    t = _grow_table().p1(lrig=["L0:lrig-white-0"], lrig_deck=["N:lrig-white-2"])
    t.illegal("grow-level", "grow", "N")


def test_grow_to_another_lrig_type_is_refused() -> None:
    t = _grow_table().p1(lrig=["L0:lrig-white-0"], lrig_deck=["N:hanayo-1"])
    t.illegal("grow-type", "grow", "N")


def test_grow_to_the_same_name_is_refused() -> None:
    t = _grow_table().p1(lrig=["L1:tama-1"], lrig_deck=["N:tama-0"])
    t.illegal("grow-same-name", "grow", "N")


def test_grow_to_an_equal_level_of_another_name_is_allowed_under_2014_only() -> None:
    t = _grow_table(rules="2014-09").p1(lrig=["L0:tama-0"], lrig_deck=["N:other-0"])
    t.grow("N")
    t.assert_zones("p1", lrig=["L0", "N"])
    t = _grow_table().p1(lrig=["L0:tama-0"], lrig_deck=["N:other-0"])
    t.illegal("grow-level", "grow", "N")


def test_grow_down_is_refused_under_current_only() -> None:
    t = _grow_table(rules="2014-04").p1(lrig=["L2:tama-2"], lrig_deck=["N:hanayo-1", "M:tama-0"])
    t.grow("M")
    t.assert_zones("p1", lrig=["L2", "M"])
    t = _grow_table().p1(lrig=["L2:tama-2"], lrig_deck=["M:tama-0"])
    err = t.illegal("grow-level", "grow", "M")
    assert "exactly one level up" in str(err)


def test_grow_outside_the_grow_phase_is_refused() -> None:
    t = _grow_table(phase="main").p1(lrig=["L0:lrig-white-0"], lrig_deck=["N:lrig-white-1"])
    t.illegal("not-grow-phase", "grow", "N")


def test_grow_from_outside_the_lrig_deck_is_refused() -> None:
    t = _grow_table().p1(lrig=["L0:lrig-white-0"], lrig_trash=["N:lrig-white-1"])
    t.illegal("not-in-lrig-deck", "grow", "N")


def test_play_a_signi() -> None:
    t = lrig3(Table("current")).p1(hand=["S:signi-3"])
    t.play("S", "signi2")
    t.assert_zones("p1", signi2=["S"], hand=[])
    t.assert_events({"type": "move", "card": "S", "verb": "play", "cause": "game"})


def test_play_a_signi_above_the_lrigs_level_is_refused() -> None:
    t = lrig3(Table("current")).p1(hand=["S:signi-4"])
    err = t.illegal("cannot-play", "play", "S")
    assert "level" in str(err)


def test_play_a_signi_over_the_limit_is_refused() -> None:
    t = lrig3(Table("current")).p1(signi1="S1:signi-3", signi2="S2:signi-3", hand=["S:signi-2"])
    err = t.illegal("cannot-play", "play", "S")
    assert "limit" in str(err)


def test_play_a_signi_with_another_limiting_condition_is_refused() -> None:
    t = lrig3(Table("current")).define("hanayo-signi", type="signi", level=1, power=3000,
                                       limiting="Hanayo")
    t.p1(hand=["S:hanayo-signi"])
    err = t.illegal("cannot-play", "play", "S")
    assert "limiting" in str(err)


def test_play_with_no_empty_zone_is_refused() -> None:
    t = Table("current").p1(lrig=["L:lrig-white-4"], signi1="S1", signi2="S2", signi3="S3",
                            hand=["S4"])
    t.illegal("no-empty-zone", "play", "S4")


def test_play_into_a_taken_zone_is_refused() -> None:
    t = lrig3(Table("current")).p1(signi1="S1", hand=["S2"])
    t.illegal("zone-taken", "play", "S2", "signi1")


def test_play_outside_the_main_phase_is_refused() -> None:
    t = lrig3(Table("current", phase="attack")).p1(hand=["S"])
    t.illegal("not-main-phase", "play", "S")


def test_play_from_outside_the_hand_is_refused() -> None:
    t = lrig3(Table("current"), deck=False).p1(trash=["S"], deck=["d1"])
    t.illegal("not-in-hand", "play", "S")


def test_remove_a_signi_not_on_the_field_is_refused() -> None:
    t = lrig3(Table("current")).p1(hand=["S"])
    t.illegal("not-on-field", "remove", "S")


def test_remove_puts_the_signi_into_the_trash() -> None:
    t = lrig3(Table("current"), deck=False).p1(signi1="S", deck=["d1"])
    t.remove("S")
    t.assert_zones("p1", trash=["S"], signi1=[])


def test_remove_is_once_a_turn_under_current_and_unlimited_before() -> None:
    for rules, second in (("2014-07", None), ("current", "remove-done")):
        t = lrig3(Table(rules), deck=False).p1(signi1="S1", signi2="S2", signi3="S3",
                                               deck=["d1"])
        t.remove("S1", "S2")
        if second:
            t.illegal(second, "remove", "S3")
            t.assert_zones("p1", trash=["S1", "S2"], signi3=["S3"])
        else:
            t.remove("S3")
            t.assert_zones("p1", trash=["S1", "S2", "S3"])


def test_a_resona_cannot_be_removed() -> None:
    t = lrig3(Table("current"), deck=False).define(
        "resona-1", type="resona", level=1, power=3000)
    t.p1(signi1="R:resona-1", signi2="S", deck=["d1"])
    t.illegal("cannot-remove", "remove", "R")
    t.assert_zones("p1", signi1=["R"], signi2=["S"], trash=[])


def test_activate_without_such_an_ability_is_refused() -> None:
    t = lrig3(Table("current")).p1(signi1="S")
    t.illegal("no-such-ability", "activate", "S", 0)


def test_advance_to_a_phase_that_never_begins_in_time() -> None:
    t = Table("current", phase="main").p1(deck=["d*9"]).p2(deck=["e*9"])
    t.advance("main")  # through end, the opponent's turn ... to the next main phase
    assert (t.state.turn, t.state.turn_player, t.state.phase) == (4, "p2", "main")


def test_end_phase_hand_limit_six() -> None:
    t = Table("current", phase="attack").p1(hand=["h*8"], deck=["d*3"])
    t.p2(deck=["e*3"])
    t.answer("p1", "discard", "h1", "h2")
    t.advance("end")
    t.assert_zones("p1", hand=["h3", "h4", "h5", "h6", "h7", "h8"], trash=["h1", "h2"])


# ====================================================================== the quiet test


def test_a_quiet_side_is_one_where_every_kind_finds_nothing(monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """``rule_processing.base.quiet`` skips the looks when it says a side is quiet: after
    every event of random games and of the corpus' replays (any state a check may meet, and
    more), every look finds nothing on such a side (a look that finds nothing changes nothing,
    so asking them here changes no game). The games are watched through ``Game.watch``, as
    the runner's Tracer watches them: compiled (setup.py), the engine calls its own functions
    directly, so a test cannot wrap ``rule_processing.check`` itself."""
    from pathlib import Path

    from judge.data import load_rulesets
    from judge.engine import rule_processing
    from judge.engine.driver import Action, play_random_game
    from judge.engine.events import Event
    from judge.engine.game import Game
    from judge.engine.rule_processing.base import quiet, side
    from judge.engine.trace import Tracer
    from judge.scenario import run
    from judge.scenario.load import discover, load_path

    seen = {"quiet": 0, "looked": 0}

    def look(game: Game) -> None:
        seen["looked"] += 1
        for p in ("p1", "p2"):
            if quiet(game, p):
                seen["quiet"] += 1
                cards = side(game, p)
                for kind in rule_processing.LOOKING:
                    assert kind.look is not None
                    assert not kind.look(game, cards), (kind.id, p, game.log[-1])

    class Watching(Tracer):
        def see(self, event: Event) -> None:
            look(self.game)
            super().see(event)

    def watch(game: Game, action: Action) -> None:
        if game.watch is None:
            game.watch = lambda event: look(game)

    for rules in load_rulesets().values():
        for seed in range(5):
            play_random_game(rules, seed, turns=8, on_action=watch)
    monkeypatch.setattr(run, "Tracer", Watching)
    root = Path(__file__).resolve().parent.parent
    for path in discover([root / "rulings"]):
        scenario = load_path(path)
        for rules_id in scenario.rulesets:
            run.replay(scenario, rules_id)
    assert seen["quiet"] > seen["looked"] // 2
