"""Bad input for the later mechanics' fields: each is one located line naming the field and,
where the choices are a closed set, the valid ones (docs/scenario-format.md). The fields:
``setup.format`` and ``setup.coins``, the Seed, Trap and cheer zones, the card fields
``recollect``, ``bet``, ``token``, ``trap``, ``rise``, ``summon`` and ``grants``, the
``make_token`` operation's card, ``expect.coins`` and ``expect.visible``, and mechanics used
under a rule set that predates them (judge/engine/eras.py)."""

from __future__ import annotations

import pytest
from conftest import load_error

from judge.scenario.load import load_text

HEAD = '''id = "kw-test"
rulesets = RULESETS

[title]
ja = "t"

[setup]
turn = 3
turn_player = "p1"
SETUP
[setup.p1]
deck = ["d*3"]
lrig = ["L0:lrig-white-0", "L3:lrig-white-3"]
ZONES
CARDS
STEPS
[[expect]]
EXPECT
'''


def ruling(*, rulesets: str = '["current"]', setup: str = "", zones: str = "", cards: str = "",
           steps: str = "", expect: str = 'phase = "main"') -> str:
    return (HEAD.replace("RULESETS", rulesets).replace("SETUP", setup)
            .replace("ZONES", zones).replace("CARDS", cards).replace("STEPS", steps)
            .replace("EXPECT", expect))


error_of = load_error


def line_of(text: str, fragment: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if fragment in line)


CARD_SIGNI = '[cards.s]\ntype = "signi"\nlevel = 1\npower = 1000\n'
CARD_ARTS = '[cards.a]\ntype = "arts"\n'

CASES = [
    # (name, the ruling, the line's fragment, what the message starts with after the line,
    #  words it must contain)
    ("format-unknown", ruling(setup='format = "diva"\n'), 'format = "diva"',
     "setup.format: unknown value 'diva' (valid: all-star, key-selection, diva-selection)", ()),
    ("format-before-its-date", ruling(rulesets='["2014-09"]',
                                      setup='format = "diva-selection"\n'),
     'format = "diva-selection"', "setup.format: diva-selection is not part of rule set 2014-09",
     ("valid:",)),
    ("coins-negative", ruling(setup="coins = { p1 = -1 }\n"), "coins =",
     "setup.coins.p1: must be at least 0", ()),
    ("coins-unknown-player", ruling(setup="coins = { p3 = 1 }\n"), "coins =",
     "setup.coins.p3: unknown field (valid: p1, p2)", ()),
    ("assist-outside-diva", ruling(zones='assist1 = ["B:lrig-white-0"]\n'), "assist1 =",
     "setup.p1.assist1: assist LRIGs are played only in the Diva Selection format", ()),
    ("two-seeds", ruling(zones='seed1 = ["X1:signi-1", "X2:signi-1"]\n'), "seed1 =",
     "setup.p1.seed1: holds one card", ()),
    ("spell-as-seed", ruling(zones='seed2 = "X:spell-draw-2"\n'), "seed2 =",
     "setup.p1.seed2: X (spell) cannot be in a Seed's place on a SIGNI zone", ()),
    ("seed-before-its-date", ruling(rulesets='["2014-04"]', zones='seed1 = "X:signi-1"\n'),
     "seed1 =", "setup.p1.seed1: seed is not part of rule set 2014-04", ()),
    ("cheer-before-its-date", ruling(rulesets='["2014-07"]', zones='cheer = "C:signi-1"\n'),
     "cheer =", "setup.p1.cheer: cheer-zone is not part of rule set 2014-07", ()),
    ("resona-before-its-date",
     ruling(rulesets='["2014-04", "current"]', zones='lrig_deck = ["R:r"]\n',
            cards='[cards.r]\ntype = "resona"\nlevel = 1\npower = 1000\n'),
     'type = "resona"', "cards.r.type: resona is not part of rule set 2014-04",
     ("valid: current",)),
    ("recollect-on-a-signi", ruling(cards=CARD_SIGNI + "recollect = { white = 1 }\n"),
     "recollect =", "cards.s.recollect: only for arts cards, not a signi", ()),
    ("recollect-bad-cost", ruling(cards=CARD_ARTS + 'recollect = { pink = 1 }\n'),
     "recollect =", "cards.a.recollect.pink: unknown", ("white",)),
    ("bet-not-a-table", ruling(cards=CARD_ARTS + "bet = 2\n"), "bet =",
     "cards.a.bet: expected a table such as { coins = 1, effect = [...] }, got 2", ()),
    ("bet-without-coins", ruling(cards=CARD_ARTS + 'bet = { effect = [] }\n'), "bet =",
     "cards.a.bet.coins: missing", ()),
    ("bet-zero-coins", ruling(cards=CARD_ARTS + 'bet = { coins = 0, effect = [] }\n'), "bet =",
     "cards.a.bet.coins: must be at least 1, got 0", ()),
    ("bet-unknown-key", ruling(cards=CARD_ARTS + 'bet = { coins = 1, effect = [], odds = 2 }\n'),
     "bet =", "cards.a.bet.odds: unknown field (valid: coins, effect)", ()),
    ("token-not-bool", ruling(cards=CARD_ARTS + 'token = "yes"\n'), "token =",
     "cards.a.token: expected true or false", ()),
    ("trap-on-an-arts", ruling(cards=CARD_ARTS + 'trap = [{ op = "draw" }]\n'), "trap =",
     "cards.a.trap: only for signi and spell cards, not a arts", ()),
    ("trap-bad-op", ruling(cards=CARD_SIGNI + 'trap = [{ op = "dra" }]\n'), "trap =",
     "cards.s.trap[0].op: unknown value 'dra'", ("draw",)),
    ("rise-empty", ruling(cards=CARD_SIGNI + "rise = []\n"), "rise =",
     "cards.s.rise: names no SIGNI to rise on", ()),
    ("rise-number", ruling(cards=CARD_SIGNI + "rise = [3]\n"), "rise =",
     "cards.s.rise[0]: expected text, got 3", ()),
    ("summon-on-a-signi", ruling(cards=CARD_SIGNI + "summon = { signi = 1 }\n"), "summon =",
     "cards.s.summon: only for resona cards, not a signi", ()),
    ("summon-unknown-key",
     ruling(cards='[cards.r]\ntype = "resona"\nlevel = 1\npower = 1000\n'
                  'summon = { signi = 1, colour = "red" }\n'), "summon =",
     "cards.r.summon.colour: unknown field (valid: signi, class)", ()),
    ("grants-without-accessory", ruling(cards=CARD_SIGNI + 'grants = ["lancer"]\n'),
     "grants =", "cards.s.grants: only a card with the Accessory keyword", ()),
    ("grants-unknown-keyword",
     ruling(cards=CARD_SIGNI + 'keywords = ["accessory"]\ngrants = ["flying"]\n'),
     "grants =", "cards.s.grants[0]: unknown value 'flying'", ("lancer",)),
    ("accessory-without-keyword",
     ruling(zones='signi1 = { card = "S:signi-1", accessory = "X:signi-1" }\n'), "signi1 =",
     "setup.p1.signi1.accessory[0]: X (signi-1) has no Accessory keyword", ()),
    ("make-token-without-id",
     ruling(steps='[[steps]]\naction = "effect"\nops = [{ op = "make_token", card = "K1" }]\n'),
     "make_token", "steps[0].ops[0].card: 'K1': name the token and its card, LABEL:card-id",
     ()),
    ("make-token-of-a-card",
     ruling(steps='[[steps]]\naction = "effect"\n'
                  'ops = [{ op = "make_token", card = "K1:arts-banish-to-trash" }]\n'),
     "make_token", "steps[0].ops[0].card: arts-banish-to-trash is not a token ARTS", ()),
    ("make-token-label-taken",
     ruling(cards='[cards.k]\ntype = "arts"\ntoken = true\n',
            steps='[[steps]]\naction = "effect"\n'
                  'ops = [{ op = "make_token", card = "d1:k" }]\n'),
     "make_token", "steps[0].ops[0].card: card label 'd1' is used twice", ()),
    ("set-seed-an-arts",
     ruling(zones='lrig_deck = ["A:arts-banish-to-trash"]\n',
            steps='[[steps]]\naction = "effect"\n'
                  'ops = [{ op = "set_seed", target = "A", zone = "signi1" }]\n'),
     "set_seed", "steps[0].ops[0]: A (an ARTS) cannot be put into a Seed's place", ()),
    ("attack-zone-unknown",
     ruling(steps='[[steps]]\naction = "attack"\ncard = "L3"\nzone = "seed1"\n'),
     'zone = "seed1"', "steps[0].zone: unknown value 'seed1' (valid: signi1, signi2, signi3, "
     "cheer)", ()),
    ("expect-coins-player", ruling(expect="coins = { p9 = 1 }"), "coins =",
     "expect[0].coins.p9: unknown value 'p9' (valid: p1, p2)", ()),
    ("expect-visible-key", ruling(expect="[expect.visible.p2]\nsee = [\"d1\"]"), "see =",
     "expect[0].visible.p2.see: unknown field (did you mean `sees`?) "
     "(valid: sees, cannot_see)", ()),
    ("expect-visible-label", ruling(expect="[expect.visible.p1]\nsees = [\"z9\"]"), "sees =",
     "expect[0].visible.p1.sees[0]: no card labelled 'z9' in the set-up", ()),
    ("expect-visible-empty", ruling(expect="[expect.visible.p1]"), "[expect.visible.p1]",
     "expect[0].visible.p1: names no card (valid: sees, cannot_see)", ()),
    ("remove-with-nothing", ruling(steps='[[steps]]\naction = "remove"\n'), '[[steps]]',
     "steps[0].card: missing", ()),
    ("summon-step-unknown-field",
     ruling(steps='[[steps]]\naction = "summon"\ncard = "L3"\ncount = 2\n'), "count = 2",
     "steps[0].count: unknown field (valid: action, expect_illegal, card, cards, zone)", ()),
    # issue 30, round three: a use timing of an action ability, Ride, crystal armament, Keys
    ("timing-before-its-date",
     ruling(rulesets='["2014-09"]', cards=CARD_SIGNI + '[[cards.s.abilities]]\nkind = "action"\n'
                                                     'timing = "attack"\n'
                                                     'effect = [{ op = "draw" }]\n'),
     'timing = "attack"', "cards.s.abilities[0].timing: action-timing is not part of rule set "
     "2014-09", ("the engine has it from 2020",)),
    ("timing-on-an-auto-ability",
     ruling(cards=CARD_SIGNI + '[[cards.s.abilities]]\nkind = "auto"\ntrigger = "banished"\n'
                               'timing = "attack"\neffect = [{ op = "draw" }]\n'),
     'timing = "attack"', "cards.s.abilities[0].timing: only an action ability has a use "
     "timing", ()),
    ("timing-spell-cut-in",
     ruling(cards=CARD_SIGNI + '[[cards.s.abilities]]\nkind = "action"\n'
                               'timing = "spell_cut_in"\neffect = [{ op = "draw" }]\n'),
     'timing = "spell_cut_in"', "cards.s.abilities[0].timing: unknown value 'spell_cut_in' "
     "(valid: main, attack)", ()),
    ("ride-before-its-date",
     ruling(rulesets='["2014-04"]', steps='[[steps]]\naction = "effect"\n'
                                          'ops = [{ op = "ride", target = "L3" }]\n'),
     '{ op = "ride"', "steps[0].ops[0].op: ride is not part of rule set 2014-04", ()),
    ("crystal-arm-without-zone",
     ruling(steps='[[steps]]\naction = "effect"\nops = [{ op = "crystal_arm", target = "L3" }]\n'),
     "crystal_arm", "steps[0].ops[0].zone: missing", ("trash",)),
    ("crystal-arm-bad-zone",
     ruling(steps='[[steps]]\naction = "effect"\n'
                  'ops = [{ op = "crystal_arm", target = "L3", zone = "life" }]\n'),
     "crystal_arm", "steps[0].ops[0].zone: unknown value 'life' (valid: hand, trash, ener, "
     "deck)", ()),
    ("coins-on-an-arts", ruling(cards=CARD_ARTS + "coins = 1\n"), "coins = 1",
     "cards.a.coins: only for key cards, not a arts", ()),
    ("key-zero-coins", ruling(cards='[cards.k]\ntype = "key"\ncoins = 0\n'), "coins = 0",
     "cards.k.coins: must be at least 1, got 0", ()),
]


@pytest.mark.parametrize("name,text,fragment,start,words", CASES, ids=[c[0] for c in CASES])
def test_a_bad_field_is_one_located_line(name: str, text: str, fragment: str, start: str,
                                         words: tuple[str, ...]) -> None:
    message = error_of(text)
    prefix = f"x.toml:{line_of(text, fragment)}: "
    assert message.startswith(prefix + start), message
    for word in words:
        assert word in message, message


def test_the_good_rulings_of_these_fields_load() -> None:
    text = ruling(setup='format = "diva-selection"\ncoins = { p1 = 2, p2 = 0 }\n',
                  zones='seed1 = "X:signi-1"\ntrap2 = "T:spell-draw-2"\ncheer = "C:signi-1"\n'
                        'assist1 = ["B:lrig-red-4"]\n',
                  cards='[cards.k]\ntype = "arts"\ntoken = true\n',
                  steps='[[steps]]\naction = "effect"\n'
                        'ops = [{ op = "make_token", card = "K1:k" }]\n',
                  expect='coins = { p1 = 2 }\n[expect.visible.p2]\nsees = ["C", "K1"]\n'
                         'cannot_see = ["X", "T"]')
    scenario = load_text(text, "x.toml")
    assert scenario.setup.format == "diva-selection"
    assert scenario.setup.coins == {"p1": 2, "p2": 0}
    assert scenario.expectations[0].state.visible == {"p2": (("C", "K1"), ("X", "T"))}
