"""Filters on a card's state and amounts from what an effect did (issue 30, families 1 and 4).

What each filter and amount does is told by the rulings that use them (rulings/filters/,
rulings/amounts/); here: what the loader refuses (a constant ability may not read what its
own layer computes), and that random games use every new card of the driver's pool.
"""

from __future__ import annotations

import pytest
from conftest import load_error

from judge.data import load_rulesets
from judge.engine import events as ev
from judge.engine.driver import card_pool, play_random_game

HEAD = '''format_version = 9
id = "x"
rulesets = ["current"]
[title]
ja = "x"
[cards.x]
type = "signi"
level = 1
power = 1000
BODY
[setup]
[setup.p1]
signi1 = "X:x"
[[expect]]
'''


def error_of(body: str) -> str:
    return load_error(HEAD.replace("BODY", body))


@pytest.mark.parametrize(("body", "where"), [
    ('[[cards.x.abilities]]\nkind = "const"\neffect = [{ op = "power", target = '
     '{ who = "opponent", power_at_most = 3000 }, amount = -1000 }]',
     "cards.x.abilities[0].effect[0].target"),
    ('[[cards.x.abilities]]\nkind = "const"\nwhile = { this_is = { power_at_least = 5000 } }\n'
     'effect = [{ op = "power", target = "this", amount = 1000 }]',
     "cards.x.abilities[0].while"),
    ('[[cards.x.abilities]]\nkind = "const"\neffect = [{ op = "power", target = "this", '
     'amount = 1000, for_each = { zone = "signi", level_at_least = 2 } }]',
     "cards.x.abilities[0].effect[0].for_each"),
    ('[[cards.x.abilities]]\nkind = "auto"\ntrigger = "banished"\neffect = [{ op = "power", '
     'target = "this", amount = 1000, while = { zone = "signi", has_abilities = false, '
     'at_least = 1 } }]', "cards.x.abilities[0].effect[0].while"),
])
def test_what_the_layer_computes_is_not_read_by_what_it_holds(body: str, where: str) -> None:
    """Power, level and abilities come out of the layer of continuous effects: a constant
    ability's target, condition or count, and the while of an effect in force, may not read
    them. One line, naming the field."""
    text = error_of(body)
    assert "\n" not in text
    assert f": {where}: " in text and "cannot read power, level or abilities" in text


@pytest.mark.parametrize(("body", "where", "says"), [
    ('[[cards.x.abilities]]\nkind = "const"\neffect = [{ op = "power", target = "this", '
     'amount = 1000, for_each = "done" }]', "cards.x.abilities[0].effect[0].for_each",
     "a constant ability resolves nothing"),
    ('life_burst = [{ op = "draw", for_each = "twice" }]', "cards.x.life_burst[0].for_each",
     "unknown value 'twice'"),
    ('life_burst = [{ op = "draw", for_each = { colours = true } }]',
     "cards.x.life_burst[0].for_each.zone", "missing"),
    ('life_burst = [{ op = "discard", keep = 2, count = 1 }]', "cards.x.life_burst[0].keep",
     "not with a target or a count"),
    ('life_burst = [{ op = "discard", target = "X", for_each = "done" }]',
     "cards.x.life_burst[0].for_each", "a discard of named cards has no count"),
    ('life_burst = [{ op = "banish", target = { power_at_most = "that" } }]',
     "cards.x.life_burst[0].target.power_at_most", "(valid: this, trigger)"),
    ('life_burst = [{ op = "draw", if = { zone = "signi", same_class = true, colours = true } '
     '}]', "cards.x.life_burst[0].if.same_class", "not their colours"),
    ('life_burst = [{ op = "draw", if = { this_is = { zone = "hand" } } }]',
     "cards.x.life_burst[0].if.this_is.zone", "unknown field"),
    ('[[cards.x.abilities]]\nkind = "action"\ncost = { discard = { count = 2, at_most = 2 } }'
     '\neffect = []', "cards.x.abilities[0].cost.discard.at_most", "more than the count"),
    # families 2, 3 and 5: looking, triggers on other cards' events, the target "trigger"
    ('life_burst = [{ op = "look", target = { type = "signi" } }]',
     "cards.x.life_burst[0].count", "how many cards from the top"),
    ('life_burst = [{ op = "look", count = 3, target = "X" }]',
     "cards.x.life_burst[0].target", "not card labels"),
    ('life_burst = [{ op = "look", count = 3, target = { who = "opponent" } }]',
     "cards.x.life_burst[0].target.who", "say whose deck with the operation's who"),
    ('life_burst = [{ op = "search", reveal = true }]', "cards.x.life_burst[0].target",
     "search needs a target table"),
    ('life_burst = [{ op = "reveal_until", target = { type = "signi" }, rest = "hand" }]',
     "cards.x.life_burst[0].rest", "(valid: bottom, top, trash, shuffle)"),
    ('life_burst = [{ op = "look", count = 2, zone = "signi1" }]',
     "cards.x.life_burst[0].zone", "(valid: hand, ener, trash, deck_top)"),
    ('life_burst = [{ op = "search", target = { type = "signi" }, rest = "top" }]',
     "cards.x.life_burst[0].rest", "unknown field"),
    ('[[cards.x.abilities]]\nkind = "auto"\ntrigger = "banished"\nwhose = "own"\n'
     'effect = [{ op = "draw" }]', "cards.x.abilities[0].whose",
     "only these triggers watch another card"),
    ('life_burst = [{ op = "banish", target = "trigger" }]', "cards.x.life_burst[0].target",
     "only an auto ability's effect has one"),
    ('[[cards.x.abilities]]\nkind = "action"\neffect = [{ op = "down", target = "trigger" }]',
     "cards.x.abilities[0].effect[0].target", "only an auto ability's effect has one"),
    ('[[cards.x.abilities]]\nkind = "const"\neffect = [{ op = "cannot", target = "trigger", '
     'what = "attack" }]', "cards.x.abilities[0].effect[0].target", "not on labels or"),
])
def test_the_new_fields_refuse_bad_values_on_one_line(body: str, where: str,
                                                      says: str) -> None:
    text = error_of(body)
    assert "\n" not in text
    assert f": {where}: " in text and says in text, text


#: The driver's cards that use the vocabulary of issue 30's families 1 and 4.
STATE_CARDS = ("s2pt", "s3tb", "s2lk", "s1nm", "s2ch", "s2fz", "s1pd", "s3cl", "sp-each",
               "a-vanilla", "a-keep")


def test_random_games_use_every_card_of_the_state_vocabulary() -> None:
    """Each generated card of the vocabulary resolves an effect (an ability, or its use) in
    some random game, or (a card with only a constant ability) is on the field while the
    layer reads it: random games exercise every new item."""
    pool = card_pool()
    assert set(STATE_CARDS) <= set(pool)
    rules = list(load_rulesets().values())
    seen: set[str] = set()
    for seed in range(120):  # the pool grows with each family: stop once all are seen
        if seen >= set(STATE_CARDS):
            break
        game = play_random_game(rules[seed % len(rules)], seed, turns=20).game
        for e in game.log:
            if isinstance(e, ev.EffectBegin) and e.card is not None:
                seen.add(game.card(e.card).card.id)
            elif isinstance(e, ev.Move) and e.to_zone.zone.startswith("signi"):
                card = game.card(e.card).card
                if all(a.kind == "const" for a in card.abilities):
                    seen.add(card.id)
    assert set(STATE_CARDS) <= seen, sorted(set(STATE_CARDS) - seen)
