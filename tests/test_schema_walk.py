"""Nothing accepted and then ignored (issue 27): a walk over every field of the format.

:func:`judge.scenario.schema.fields` lists every field the loaders accept (read from their
own declarations). For each field, and for each value of a field with a closed set of values,
a probe below writes a ruling without the field (or with another value) and with it, and:

- a field the engine reads (``replay``) must change the replay's events (of every branch;
  the events, not the positions, which echo printed values), or be refused by the loader
  with the usual one-line error;
- a field the checker reads (``check``) must change whether the ruling passes;
- a field the site reads (``page``) must change the loaded ruling's texts and links;
- ``format_version`` (``load``) must change what the loader warns about.

A field without a probe fails the walk: a new field comes with its probe.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

import pytest

from judge.check import check_scenario
from judge.errors import ScenarioError
from judge.scenario.load import load_text
from judge.scenario.run import replay
from judge.scenario.schema import Field, fields

Pair = tuple[str, str]


# ---------------------------------------------------------------------- writing rulings


def toml(value: Any) -> str:
    """A TOML inline value."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, str)):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{ " + ", ".join(f"{k} = {toml(v)}" for k, v in value.items()) + " }"
    raise TypeError(value)


P1 = {"deck": ["d*8"], "hand": ["h1", "h2", "h3"], "ener": ["w*4"], "trash": ["t1", "t2"],
      "life": ["l*3"], "lrig": ["L:lrig-white-4"], "signi1": "S1:signi-2",
      "signi2": "S2:signi-1"}
P2 = {"deck": ["e*8"], "hand": ["g1", "g2", "g3"], "ener": ["x*3"], "trash": ["u1", "u2"],
      "life": ["k*3"], "lrig": ["M:lrig-red-4"], "signi1": "D1:signi-2",
      "signi2": "D2:signi-1"}
SETUP = {"turn": 3, "turn_player": "p1", "first_player": "p1", "phase": "main"}


def ruling(*, steps: str = "", cards: str = "", setup: dict[str, Any] | None = None,
           p1: dict[str, Any] | None = None, p2: dict[str, Any] | None = None,
           extra: str = "", rulesets: tuple[str, ...] = ("current",),
           expect: str = "[[expect]]\n", top: str = "") -> str:
    """A ruling on a board where most things can happen (overridden by the keyword
    arguments: a zone set to None is left empty)."""
    board_setup = {**SETUP, **(setup or {})}
    sides = []
    for name, base, over in (("p1", P1, p1), ("p2", P2, p2)):
        zones = {k: v for k, v in {**base, **(over or {})}.items() if v is not None}
        sides.append(f"[setup.{name}]\n" + "".join(f"{k} = {toml(v)}\n"
                                                     for k, v in zones.items()))
    head = (f"format_version = 9\nid = \"walk\"\nrulesets = {toml(list(rulesets))}\n{top}"
            "[title]\nja = \"walk\"\n")
    setup_text = "[setup]\n" + "".join(f"{k} = {toml(v)}\n" for k, v in board_setup.items()
                                       if v is not None)
    return "\n".join([head, cards, setup_text, *sides, steps, extra, expect])


def effect(*ops: dict[str, Any], player: str = "p1", source: str | None = None) -> str:
    src = f"source = {toml(source)}\n" if source else ""
    return (f"[[steps]]\naction = \"effect\"\nplayer = \"{player}\"\n{src}"
            f"ops = {toml(list(ops))}\n")


def step(action: str, **fields_: Any) -> str:
    return f"[[steps]]\naction = \"{action}\"\n" + "".join(f"{k} = {toml(v)}\n"
                                                           for k, v in fields_.items())


def card(card_id: str, body: dict[str, Any], abilities: list[dict[str, Any]] = ()) -> str:
    text = f"[cards.{card_id}]\n" + "".join(f"{k} = {toml(v)}\n" for k, v in body.items())
    for ability in abilities:
        text += f"[[cards.{card_id}.abilities]]\n" + "".join(
            f"{k} = {toml(v)}\n" for k, v in ability.items())
    return text


ADVANCE = step("advance", to="main")  # into the next turn's main phase (p2's)
NEXT_TURN = ADVANCE + step("advance", to="end")


# ---------------------------------------------------------------------- what a ruling does


def outcome(text: str) -> Any:
    """What the engine does with a ruling: the events (and problems) of every branch under
    each rule set; or the loader's error (one line)."""
    try:
        scenario = load_text(text, "walk.toml")
    except ScenarioError as exc:
        return ("refused", str(exc))
    out = []
    for rules in scenario.rulesets:
        rep = replay(scenario, rules)
        out.append([([e.to_dict() for e in t.events], list(t.problems)) for t in rep.traces])
    return out


def verdict(text: str) -> Any:
    try:
        scenario = load_text(text, "walk.toml")
    except ScenarioError as exc:
        return ("refused", str(exc))
    return [check_scenario(scenario, rs).ok for rs in scenario.rulesets]


def warnings(text: str) -> Any:
    try:
        scenario = load_text(text, "walk.toml")
    except ScenarioError as exc:
        return ("refused", str(exc))
    return [str(w) for w in scenario.warnings]


def page(text: str) -> Any:
    try:
        scenario = load_text(text, "walk.toml")
    except ScenarioError as exc:
        return ("refused", str(exc))
    return (scenario.id, scenario.texts, scenario.tags, scenario.terms, scenario.related,
            [str(c) for c in scenario.sources])


# ---------------------------------------------------------------------- operations

#: Each operation on the board, as an effect step, with the steps that show what it left in
#: force; and for each of its fields, the value to try (other than the default).
OP_BASE: dict[str, tuple[dict[str, Any], str]] = {
    "draw": ({"op": "draw"}, ""),
    "mill": ({"op": "mill"}, ""),
    "ener_charge": ({"op": "ener_charge"}, ""),
    "discard": ({"op": "discard"}, ""),
    "banish": ({"op": "banish", "target": "D1"}, ""),
    "trash": ({"op": "trash", "target": "D1"}, ""),
    "to_ener": ({"op": "to_ener", "target": "D1"}, ""),
    "to_hand": ({"op": "to_hand", "target": "D1"}, ""),
    "to_deck": ({"op": "to_deck", "target": "D1"}, effect({"op": "draw"}, player="p2")),
    "place": ({"op": "place", "target": "D1", "zone": "deck"},
              effect({"op": "draw"}, player="p2")),
    "put_onto_field": ({"op": "put_onto_field", "target": "h1"}, ""),
    "power": ({"op": "power", "target": "D1", "amount": -1000}, NEXT_TURN),
    "level": ({"op": "level", "target": "D1", "amount": 1}, NEXT_TURN),
    "set_power": ({"op": "set_power", "target": "D1", "amount": 1000}, NEXT_TURN),
    "set_level": ({"op": "set_level", "target": "D1", "amount": 3}, NEXT_TURN),
    "limit": ({"op": "limit", "amount": -10}, NEXT_TURN),
    "crush": ({"op": "crush"}, ""),
    "damage": ({"op": "damage"}, ""),
    "shuffle": ({"op": "shuffle"}, ""),
    "banish_to_trash": ({"op": "banish_to_trash"},
                        ADVANCE + effect({"op": "banish", "target": "S1"}, player="p2")),
    "charm": ({"op": "charm", "target": "S1"}, ""),
    "attach": ({"op": "attach", "target": "S1", "card": "acc"}, ""),
    "freeze": ({"op": "freeze", "target": "D1"}, step("advance", to="end") + ADVANCE),
    "down": ({"op": "down", "target": "D1"}, ""),
    "up": ({"op": "up", "target": "S1"}, ""),
    "keyword": ({"op": "keyword", "target": "S1", "keyword": "lancer"}, NEXT_TURN),
    "cost_change": ({"op": "cost_change", "cost": {"colourless": 2}},
                    step("use", card="A") + NEXT_TURN),
    "cost_modify": ({"op": "cost_modify", "cost": {"colourless": 1}},
                    step("use", card="A") + NEXT_TURN),
    "cannot": ({"op": "cannot", "target": "S1", "what": "be_banished"},
               effect({"op": "banish", "target": "S1"}, player="p2") + NEXT_TURN),
    "lose_abilities": ({"op": "lose_abilities", "target": "S1"}, NEXT_TURN),
    "replace": ({"op": "replace", "target": "S1", "event": "banish", "zone": "trash"},
                effect({"op": "banish", "target": "S1"}, player="p2") + NEXT_TURN),
    "upper_limit": ({"op": "upper_limit", "zone": "hand", "amount": 2}, NEXT_TURN),
    "draw_limit": ({"op": "draw_limit", "amount": 1},
                   effect({"op": "draw", "count": 2}) + NEXT_TURN),
    "use": ({"op": "use", "target": "A"}, ""),
    "set_seed": ({"op": "set_seed", "target": "h1", "zone": "signi3"}, ""),
    "bloom": ({"op": "bloom", "target": "SD"}, ""),
    "set_trap": ({"op": "set_trap", "target": "h1", "zone": "signi3"}, ""),
    "make_token": ({"op": "make_token", "card": "T1:token-draw"}, ""),
    "coins": ({"op": "coins", "amount": 1}, ""),
    "negate_attack": ({"op": "negate_attack"}, ""),
    # p1 has two SIGNI: under a cap of 2 the third is not put onto the field
    "signi_cap": ({"op": "signi_cap", "amount": 2},
                  effect({"op": "put_onto_field", "target": "h1"})),
    # S1 attacks, is upped and attacks again: the second attack is refused under a limit of 1
    "attack_limit": ({"op": "attack_limit", "target": "S1", "amount": 1},
                     step("advance", to="signi") + step("attack", card="S1")
                     + effect({"op": "up", "target": "S1"}) + step("attack", card="S1")),
    # S1 must attack: the advance past the SIGNI attack step is refused until it has
    "must_attack": ({"op": "must_attack", "target": "S1"},
                    step("advance", to="signi") + step("advance", to="end")),
    # issue 30, round three: markers on the opponent's SIGNI zones (chosen: the first free)
    "set_virus": ({"op": "set_virus"}, ""),
    "remove_virus": ({"op": "remove_virus"}, ""),
    "set_gate": ({"op": "set_gate"}, ""),
    "registrations": ({"op": "registrations", "amount": 1}, ""),
    # issue 30, round three: p1's LRIG rides S1 (S2 with the target changed)
    "ride": ({"op": "ride", "target": "S1"}, ""),
    # S1 (a signi-2) has no card of its name in p1's trash (fizzle); the probes of its fields
    # change the SIGNI, or look in a zone that has one (_crystal)
    "crystal_arm": ({"op": "crystal_arm", "target": "S1", "zone": "trash"}, ""),
    # issue 30, family 2: p1's deck is d1 ... d8 (fillers: SIGNI of level 1)
    "look": ({"op": "look", "count": 3, "target": {"count": 1}}, ""),
    "reveal_until": ({"op": "reveal_until", "target": {"level_at_least": 2}}, ""),
    "search": ({"op": "search", "target": {"count": 1}}, ""),
}

#: The cards some operations need: an ARTS to use (A), an Accessory (acc), a Seed (SD), a
#: token ARTS.
OP_CARDS = (card("arts-a", {"type": "arts", "cost": {"colourless": 1},
                            "effect": [{"op": "draw"}]})
            + card("acc-card", {"type": "signi", "level": 1, "power": 1000,
                                "keywords": ["accessory"], "grants": ["lancer"]})
            + card("token-draw", {"type": "arts", "token": True,
                                  "effect": [{"op": "draw"}]}))
#: p1's side for the operations: an ARTS in the LRIG deck, an Accessory in the hand, a Seed
#: on the empty third SIGNI zone.
OP_P1 = {"lrig_deck": ["A:arts-a", "TK:token-draw"], "hand": ["h1", "h2", "acc:acc-card"],
         "seed3": "SD"}


def op_ruling(op: dict[str, Any], after: str, source: str | None = None) -> str:
    return ruling(steps=effect(op, source=source) + after, cards=OP_CARDS, p1=OP_P1)


#: The value each field of an operation takes in its probe, when the default is the base.
OP_VALUES: dict[str, Any] = {
    "who": "opponent", "count": 2, "amount": -2000, "position": "bottom",
    "until": "end_of_next_turn", "while": {"zone": "ener", "at_least": 9},
    "if": {"turn": "opponent"}, "ignore_conditions": True, "optional": True, "free": True,
    "ignore_limiting": True, "by": "any",
    # (p1's hand holds three cards: the number is multiplied by 3; a discard keeps 1 of 3)
    "for_each": {"zone": "hand"}, "keep": 1,
    "rest": "trash", "reveal": True,
}
#: What an operation's required field is changed to.
OP_REQUIRED: dict[tuple[str, str], Any] = {
    ("banish", "target"): "D2", ("trash", "target"): "D2", ("to_ener", "target"): "D2",
    ("to_hand", "target"): "D2", ("to_deck", "target"): "D2", ("place", "target"): "D2",
    ("place", "zone"): "hand", ("put_onto_field", "target"): "h2",
    ("power", "target"): "D2", ("level", "target"): "D2", ("set_power", "target"): "D2",
    ("set_level", "target"): "D2", ("charm", "target"): "S2", ("attach", "target"): "S2",
    ("attach", "card"): "h1", ("freeze", "target"): "D2", ("down", "target"): "D2",
    ("up", "target"): "S2", ("keyword", "target"): "S2", ("keyword", "keyword"): "assassin",
    ("cost_change", "cost"): {"colourless": 0}, ("cost_modify", "cost"): {"colourless": 2},
    ("cannot", "target"): "S2", ("lose_abilities", "target"): "S2",
    ("replace", "target"): "S2", ("replace", "zone"): "hand", ("replace", "event"): "ener",
    ("upper_limit", "zone"): "ener", ("upper_limit", "amount"): 1,
    ("draw_limit", "amount"): 0, ("attack_limit", "target"): "S2", ("must_attack", "target"): "S2",
    ("look", "from"): "hand",
    ("attack_limit", "amount"): 2, ("signi_cap", "amount"): 3, ("use", "target"): "h1",
    ("set_seed", "target"): "h2",
    ("set_seed", "zone"): "signi1", ("bloom", "target"): "h1", ("set_trap", "target"): "h2",
    ("set_trap", "zone"): "signi1", ("make_token", "card"): "T2:token-draw",
    ("coins", "amount"): 2, ("cannot", "what"): "be_trashed", ("power", "amount"): -3000,
    ("level", "amount"): 2, ("set_power", "amount"): 3000, ("set_level", "amount"): 1,
    ("limit", "amount"): 1,
    ("look", "count"): 2, ("look", "target"): {"count": 2}, ("look", "zone"): "trash",
    ("reveal_until", "target"): {"level_at_least": 3}, ("reveal_until", "zone"): "ener",
    ("reveal_until", "rest"): "bottom", ("search", "target"): {"count": 2},
    ("search", "zone"): "ener", ("ride", "target"): "S2", ("crystal_arm", "target"): "S2",
    ("crystal_arm", "zone"): "hand",
    ("set_virus", "zone"): "signi3", ("set_gate", "zone"): "signi3",
    ("remove_virus", "zone"): "signi3", ("remove_virus", "who"): "self",
    ("registrations", "amount"): 3,
}


def op_pair(f: Field, value: Any) -> Pair:
    base, after = OP_BASE[f.part]
    variant = {**base, f.name: value}
    special = OP_SPECIAL.get((f.part, f.name))
    if special is not None:
        return special(value)
    return op_ruling(base, after), op_ruling(variant, after)


def _if_done(value: Any) -> Pair:
    fails = {"op": "to_hand", "target": {"zone": "trash", "type": "arts"}}
    return (ruling(steps=effect(fails, {"op": "draw"})),
            ruling(steps=effect(fails, {"op": "draw", "if_done": True})))


def _replace_ops(value: Any) -> Pair:
    base = {"op": "replace", "target": "S1", "event": "banish", "zone": "trash"}
    variant = {"op": "replace", "target": "S1", "event": "banish",
               "ops": [{"op": "draw", "count": 2}]}
    after = effect({"op": "banish", "target": "S1"}, player="p2")
    return op_ruling(base, after), op_ruling(variant, after)


def _replace_player(field_: str, value: Any) -> Pair:
    base = {"op": "replace", "event": "refresh", "ops": [{"op": "draw"}]}
    variant = {**base, field_: value}
    p1 = {"deck": ["d1"], "trash": ["t1", "t2"]}
    after = effect({"op": "draw"})
    return (ruling(steps=effect(base) + after, p1=p1),
            ruling(steps=effect(variant) + after, p1=p1))


def _cannot(field_: str, value: Any, what: str = "be_banished") -> Pair:
    """A cannot on S1 (or a player), then what it forbids, by each player and by rule
    processing."""
    player_level = what not in ("attack", "be_banished", "be_chosen", "be_affected",
                                "be_trashed")
    base = {"op": "cannot", "what": what} if player_level else \
        {"op": "cannot", "target": "S1", "what": what}
    variant = {**base, field_: value}
    if field_ == "what":  # without: a resistance to banishes, which none of these tries is
        base = {"op": "cannot", "target": "D1", "what": "be_banished"}
    tries = {
        "be_banished": effect({"op": "banish", "target": "S1"})
        + effect({"op": "power", "target": "S1", "amount": -9000}, player="p2"),
        "be_trashed": effect({"op": "trash", "target": "S1"}),
        "be_chosen": effect({"op": "banish", "target": {"who": "any", "count": 1}}),
        "be_affected": effect({"op": "power", "target": "S1", "amount": -1000}),
        "attack": step("advance", to="signi") + step("attack", card="S1"),
        "refresh": effect({"op": "mill", "count": 8}),
        "pay_with_colourless": step("use", card="A"),
        "use_spells": step("use", card="sp"),
        "use_arts": step("use", card="A"),
    }[what]
    p1 = {**OP_P1, "hand": ["h1", "sp:spell-draw-2", "acc:acc-card"]}
    if what == "attack":
        p1["signi2"] = None
    return (ruling(steps=effect(base) + tries, cards=OP_CARDS, p1=p1),
            ruling(steps=effect(variant) + tries, cards=OP_CARDS, p1=p1))


def _by_kind(value: str) -> Pair:
    """A resistance of S1 to every banish, then limited to the effects of one kind of card:
    a banish by an effect of another kind (a SIGNI's, or a Spell's against ``signi``) goes
    through only then."""
    base = {"op": "cannot", "target": "S1", "what": "be_banished"}
    tries = effect({"op": "banish", "target": "S1"}, source="sp" if value == "signi" else "S2")
    p1 = {**OP_P1, "hand": ["h1", "sp:spell-draw-2", "acc:acc-card"]}
    return (ruling(steps=effect(base) + tries, cards=OP_CARDS, p1=p1),
            ruling(steps=effect({**base, "by_kind": value}) + tries, cards=OP_CARDS, p1=p1))


OP_SPECIAL: dict[tuple[str, str], Callable[[Any], Pair]] = {
    ("cannot", "by_kind"): _by_kind,
    # a look at p2's top card, or at p2's whole hand: a card of it put into the trash
    ("look", "from"): lambda v: (
        op_ruling({"op": "look", "who": "opponent", "count": 1, "target": {"count": 1},
                   "zone": "trash"}, ""),
        op_ruling({"op": "look", "who": "opponent", "from": v, "target": {"count": 1},
                   "zone": "trash"}, "")),
    ("cannot", "by"): lambda v: _cannot("by", v, "be_banished"),
    ("cannot", "who"): lambda v: _cannot("who", v, "use_arts"),
    ("cannot", "what"): lambda v: _cannot("what", v, v),
    ("replace", "ops"): _replace_ops,
    ("replace", "who"): lambda v: _replace_player("who", v),
    ("replace", "optional"): lambda v: _replace_player("optional", v),
    ("discard", "target"): lambda v: (op_ruling({"op": "discard"}, ""),
                                      op_ruling({"op": "discard", "target": "h2"}, "")),
    ("put_onto_field", "ignore_conditions"): lambda v: (
        ruling(steps=effect({"op": "put_onto_field", "target": "H4"}),
               p1={"hand": ["H4:signi-4"], "lrig": ["L:lrig-white-2"], "signi2": None}),
        ruling(steps=effect({"op": "put_onto_field", "target": "H4",
                             "ignore_conditions": True}),
               p1={"hand": ["H4:signi-4"], "lrig": ["L:lrig-white-2"], "signi2": None})),
    ("use", "free"): lambda v: (op_ruling({"op": "use", "target": "A"}, ""),
                                op_ruling({"op": "use", "target": "A", "free": True}, "")),
    ("use", "ignore_limiting"): lambda v: (
        ruling(steps=effect({"op": "use", "target": "LA"}), cards=card(
            "limited", {"type": "arts", "limiting": "Hanayo", "effect": [{"op": "draw"}]}),
            p1={"lrig_deck": ["LA:limited"]}),
        ruling(steps=effect({"op": "use", "target": "LA", "ignore_limiting": True}),
               cards=card("limited", {"type": "arts", "limiting": "Hanayo",
                                      "effect": [{"op": "draw"}]}),
               p1={"lrig_deck": ["LA:limited"]})),
}
for _op in OP_BASE:
    OP_SPECIAL[(_op, "if_done")] = _if_done


def _negate(field_: str, value: Any) -> Pair:
    """p1's X negates the attack of p2's D1 (p2's turn), and with ``field_`` it does not."""
    def board(op: dict[str, Any]) -> str:
        ability = {"kind": "auto", "trigger": "signi_attacks", "effect": [op]}
        return ruling(cards=card("ax", {"type": "signi", "level": 1, "power": 1000},
                                 [ability]),
                      setup={**ATTACK_SETUP, "turn": 4, "turn_player": "p2"},
                      p1={"signi1": "X:ax"}, steps=step("attack", card="D1"))
    base = {"op": "negate_attack"}
    return board(base), board({**base, field_: value})


def _reveal_until(field_: str, value: Any) -> Pair:
    """A reveal until a SIGNI of level 2 or more, which p1's deck holds third (X)."""
    base = {"op": "reveal_until", "target": {"level_at_least": 2}}
    p1 = {**OP_P1, "deck": ["d1", "d2", "X:signi-2", "d3", "d4"]}
    return (ruling(steps=effect(base), cards=OP_CARDS, p1=p1),
            ruling(steps=effect({**base, field_: value}), cards=OP_CARDS, p1=p1))


for _name in ("who", "target", "zone", "rest"):
    OP_SPECIAL[("reveal_until", _name)] = functools.partial(_reveal_until, _name)
OP_SPECIAL[("negate_attack", "if")] = lambda v: _negate("if", {"turn": "own"})


def _remove_virus(field_: str, value: Any) -> Pair:
    """A removal of the viruses on p2's zones 1 and 3 (and p1's zone 2): the first chosen,
    then with the field."""
    base = {"op": "remove_virus"}
    board = {"markers": {"p1": {"virus": ["signi2"]}, "p2": {"virus": ["signi1", "signi3"]}}}
    return (ruling(steps=effect(base), setup=board),
            ruling(steps=effect({**base, field_: value}), setup=board))


for _name in ("who", "zone", "count"):
    OP_SPECIAL[("remove_virus", _name)] = functools.partial(_remove_virus, _name)
def _crystal(field_: str, value: Any) -> Pair:
    """Crystal armament of S1 (a signi-2) from p1's trash, and from the zone ``value``, where
    a signi-2 (X) waits."""
    base = {"op": "crystal_arm", "target": "S1", "zone": "trash"}
    p1 = {**OP_P1, "hand": ["h1", "X:signi-2", "acc:acc-card"]}
    return (ruling(steps=effect(base), cards=OP_CARDS, p1=p1),
            ruling(steps=effect({**base, field_: value}), cards=OP_CARDS, p1=p1))


OP_SPECIAL[("crystal_arm", "zone")] = functools.partial(_crystal, "zone")


# ---------------------------------------------------------------------- the other tables


def targets(f: Field, value: Any) -> Pair:
    """A banish of a target table on the board (the first answer of each choice)."""
    base = {"who": "opponent"}
    if f.name == "other":
        base = {"who": "self"}
    variant = {**base, f.name: value}
    return (op_ruling({"op": "banish", "target": base}, "", source="S1"),
            op_ruling({"op": "banish", "target": variant}, "", source="S1"))


def conditions(f: Field, value: Any) -> Pair:
    """A draw under a condition that holds on the board; the field makes it false."""
    base = {"zone": "ener", "at_least": 4}
    if f.name == "zone":
        value = "hand"
    variant = {**base, f.name: value}
    if f.name in ("this_in", "turn", "cross", "charm", "this_is"):
        base, variant = {"turn": "own"}, {"turn": "own", f.name: value}
    return (op_ruling({"op": "draw", "if": base}, "", source="S1"),
            op_ruling({"op": "draw", "if": variant}, "", source="S1"))


#: A value for each field that is no closed set of values, by key.
VALUES: dict[str, Any] = {
    "target.count": 2, "target.up_to": True, "target.all": True, "target.other": True,
    "target.crossed": True, "target.who": "any", "target.colour": "blue",
    "condition.at_least": 5, "condition.at_most": 3, "condition.colours": True,
    "condition.cross": True, "condition.charm": True, "condition.crossed": True,
    "condition.this_in": "signi2", "condition.colour": "blue",
    # issue 30: the state of a card. On the board the opponent's D1 (signi-2: white, level 2,
    # power 5000) is the first answer of a choice, D2 (signi-1: level 1, power 1000) the
    # second; p1's ener holds four fillers (white, level 1, power 1000, no class); the source
    # S1 is a signi-2, up, with nothing attached and no ability.
    "target.power_at_most": 1000, "target.power_at_least": 9000, "target.level_at_least": 3,
    "target.level_at_most": 1, "target.down": True, "target.frozen": True,
    "target.with_charm": True, "target.with_accessory": True, "target.has_abilities": True,
    "target.name": "signi-1", "target.lrig_colour": False, "target.crystal_armed": True,
    "condition.power_at_most": 0, "condition.power_at_least": 2000,
    "condition.level_at_least": 2, "condition.level_at_most": 0, "condition.down": True,
    "condition.frozen": True, "condition.with_charm": True, "condition.with_accessory": True,
    "condition.has_abilities": True, "condition.name": "signi-1",
    "condition.lrig_colour": False, "condition.same_class": True,
    "condition.this_is": {"down": True}, "condition.crystal_armed": True,
    # round three: no marker is on the board
    "target.on_marker": "virus", "condition.on_marker": "virus",
    "target.heaven": True, "condition.heaven": True,
}
#: A value of each filter key that the source S1 (signi-2), and the four fillers of p1's
#: ener, do not match (this_is, for_each).
FILTER_FALSE: dict[str, Any] = {
    "type": "lrig", "class": "Weapon", "colour": "blue", "crossed": True,
    "power_at_most": 0, "power_at_least": 9000, "level_at_least": 3, "level_at_most": 0,
    "down": True, "frozen": True, "with_charm": True, "with_accessory": True,
    "has_abilities": True, "name": "signi-4", "lrig_colour": False, "on_marker": "virus",
    "heaven": True, "crystal_armed": True,
}


def this_is(f: Field) -> Pair:
    """A draw under ``this_is`` about S1: a filter it matches, then the key that it does
    not."""
    base = {"turn": "own", "this_is": {"crossed": False}}
    variant = {"turn": "own", "this_is": {"crossed": False, f.name: FILTER_FALSE[f.name]}}
    if f.name == "crossed":
        base = {"turn": "own", "this_is": {"type": "signi"}}
        variant = {"turn": "own", "this_is": {"type": "signi", "crossed": True}}
    return (op_ruling({"op": "draw", "if": base}, "", source="S1"),
            op_ruling({"op": "draw", "if": variant}, "", source="S1"))


def for_each(f: Field) -> Pair:
    """A draw for each card of p1's ener (four fillers; p2's holds three), then with the key
    that changes the count."""
    base = {"zone": "ener"}
    value = {"who": "opponent", "zone": "hand", "colours": True}.get(f.name)
    if f.name == "tally":  # instead of the zone: no marker is on the board
        variant: dict[str, Any] = {"tally": "virus"}
    else:
        variant = {**base, f.name: FILTER_FALSE[f.name] if value is None else value}
    return (op_ruling({"op": "draw", "for_each": base}, ""),
            op_ruling({"op": "draw", "for_each": variant}, ""))


def pairs_of(f: Field) -> list[tuple[Any, Pair]]:
    """The (value, (without, with)) pairs that probe ``f``."""
    values: list[Any]
    if f.table == "op":
        if f.name in ("what", "by", "by_kind") and f.part == "cannot":
            values = [v for v in f.values if v != "be_banished"] if f.name == "what" \
                else list(f.values)
        elif f.values and f.name not in ("zone", "keyword", "who") or \
                (f.part, f.name) in OP_REQUIRED:
            values = [OP_REQUIRED.get((f.part, f.name), OP_VALUES.get(f.name))]
        else:
            values = [OP_REQUIRED.get((f.part, f.name), OP_VALUES.get(f.name,
                                                                      f.values[0] if f.values
                                                                      else None))]
        if f.name == "target" and (f.part, f.name) not in OP_REQUIRED:
            values = [{"who": "opponent"}]
        if f.name in ("ops",) and f.part != "replace":
            values = [[{"op": "draw"}]]
        return [(v, op_pair(f, v)) for v in values]
    if f.table == "target":
        value = VALUES.get(f.key, [v for v in f.values if v not in ("self", "signi")][:1][0]
                           if f.values else None)
        return [(value, targets(f, value))]
    if f.table == "condition":
        value = VALUES.get(f.key, [v for v in f.values if v not in ("self", "own")][:1][0]
                           if f.values else None)
        return [(value, conditions(f, value))]
    if f.table == "this-is":
        return [(None, this_is(f))]
    if f.table == "for-each":
        return [(None, for_each(f))]
    probe = PROBES.get(f.key)
    if probe is None:
        return []
    return [(None, probe())]


# Probes of single fields, by key: each gives (without, with).
PROBES: dict[str, Callable[[], Pair]] = {}


# ---------------------------------------------------------------------- the walk


def _walked() -> list[Field]:
    return list(fields())


@pytest.mark.parametrize("f", _walked(), ids=lambda f: f.key)
def test_every_field_changes_what_the_engine_does(f: Field) -> None:
    pairs = pairs_of(f)
    assert pairs, f"no probe for {f.key}: add one to tests/test_schema_walk.py"
    judge = {"check": verdict, "page": page, "load": warnings}.get(f.reads, outcome)
    for value, (without, with_) in pairs:
        before, after = judge(without), judge(with_)
        refused = [side for side in (before, after)
                   if isinstance(side, tuple) and side[0] == "refused"]
        for side in refused:  # a refusal is the usual one-line error
            assert "\n" not in side[1], (f.key, side)
        assert len(refused) < 2, (f.key, value, before, after)
        assert before != after, f"{f.key} = {value!r} changes nothing: accepted and ignored"


# ---------------------------------------------------------------------- probes by field

DRAW = effect({"op": "draw"})
BANISH_D = effect({"op": "banish", "target": {"who": "opponent"}})
CHOICES = "[[choices]]\npick = \"D2\"\n"
#: A SIGNI with an auto ability (draw when banished), and the step that banishes it.
OWN = card("own", {"type": "signi", "level": 2, "power": 1000},
           [{"kind": "auto", "trigger": "banished", "effect": [{"op": "draw"}]}])
ATTACK_SETUP = {"phase": "attack", "attack_step": "signi"}


def _pair(base: dict[str, Any], variant: dict[str, Any]) -> Pair:
    """Two rulings: the keyword arguments of :func:`ruling`, and those changed."""
    return ruling(**base), ruling(**{**base, **variant})


PROBES.update({
    # the ruling
    "ruling.rulesets": lambda: _pair({"steps": effect({"op": "mill", "count": 9})},
                                     {"rulesets": ("2014-04",)}),
    "ruling.cards": lambda: (
        ruling(steps=effect({"op": "banish", "target": "S1"})),
        ruling(cards=OWN, p1={"signi1": "S1:own"},
               steps=effect({"op": "banish", "target": "S1"}))),
    "ruling.setup": lambda: _pair({"steps": DRAW}, {"setup": {"turn": 5}}),
    "ruling.steps": lambda: _pair({}, {"steps": DRAW}),
    "ruling.choices": lambda: _pair({"steps": BANISH_D}, {"extra": CHOICES}),
    # the set-up
    "setup.turn": lambda: _pair({"steps": ADVANCE}, {"setup": {"turn": 5}}),
    "setup.turn_player": lambda: _pair(
        {"steps": ADVANCE, "setup": {"turn": 4, "first_player": "p2"}},
        {"setup": {"turn": 4, "turn_player": "p2", "first_player": "p1"}}),
    "setup.first_player": lambda: _pair(
        {"steps": step("advance"), "setup": {"phase": "setup", "turn": 1}},
        {"setup": {"phase": "setup", "turn": 1, "turn_player": "p2",
                   "first_player": "p2"}}),
    "setup.phase": lambda: _pair({"steps": step("advance")}, {"setup": {"phase": "ener"}}),
    "setup.attack_step": lambda: _pair(
        {"steps": step("advance"), "setup": {"phase": "attack"}},
        {"setup": {"phase": "attack", "attack_step": "signi"}}),
    "setup.arts_priority": lambda: _pair(
        {"steps": step("pass"), "setup": {"phase": "attack"}},
        {"setup": {"phase": "attack", "arts_priority": "p2"}}),
    "setup.ener_done": lambda: _pair(
        {"steps": step("ener", card="h1"), "setup": {"phase": "ener"}},
        {"setup": {"phase": "ener", "ener_done": True}}),
    "setup.grown": lambda: _pair(
        {"steps": step("grow", card="G"), "setup": {"phase": "grow"},
         "p1": {"lrig": ["L:lrig-white-3"], "lrig_deck": ["G:lrig-white-4"],
                "ener": ["w*9"]}},
        {"setup": {"phase": "grow", "grown": True}}),
    "setup.removed": lambda: _pair({"steps": step("remove", card="S1")},
                                   {"setup": {"removed": True}}),
    "setup.redrawn": lambda: _pair(
        {"steps": step("redraw", player="p1", cards=["h1"]), "setup": {"phase": "setup",
                                                                      "turn": 1}},
        {"setup": {"phase": "setup", "turn": 1, "redrawn": ["p1"]}}),
    "setup.seed": lambda: _pair({"steps": effect({"op": "shuffle"}) + DRAW},
                                {"setup": {"seed": 7}}),
    "setup.refreshes": lambda: _pair(
        {"steps": effect({"op": "mill", "count": 8}) + DRAW,
         "p1": {"deck": ["d*8"]}, "rulesets": ("2014-09",)},
        {"setup": {"refreshes": {"p1": 1}}}),
    "setup.in_force": lambda: _pair(
        {"steps": effect({"op": "banish", "target": "D1"})},
        {"setup": {"in_force": [{"op": "banish_to_trash", "who": "opponent"}]}}),
    # assist LRIGs are refused without the Diva Selection format
    "setup.format": lambda: _pair({"p1": {"assist1": ["AS:lrig-white-1"]}},
                                  {"setup": {"format": "diva-selection"}}),
    "setup.coins": lambda: _pair(
        {"cards": card("bet-arts", {"type": "arts", "effect": [{"op": "draw"}],
                                    "bet": {"coins": 1, "effect": [{"op": "draw",
                                                                    "count": 3}]}}),
         "p1": {"lrig_deck": ["B:bet-arts"]}, "steps": step("use", card="B"),
         "extra": "[[choices]]\npick = \"yes\"\n"},
        {"setup": {"coins": {"p1": 1}}}),
    "setup.markers": lambda: _pair(
        {"steps": effect({"op": "banish", "target": {"who": "opponent", "on_marker": "virus"}})},
        {"setup": {"markers": {"p2": {"virus": ["signi2"]}}}}),
    "setup.registrations": lambda: _pair(
        {"steps": effect({"op": "draw", "if": {"tally": "registrations", "at_least": 2}})},
        {"setup": {"registrations": {"p1": 2}}}),
})

PROBES["ruling.setup"] = lambda: _pair({"steps": DRAW}, {"p1": {"deck": ["q1", "q2"]}})

# the page: texts and links
_TEXTS = {"question": "[question]\nja = \"問\"\n", "answer": "[answer]\nja = \"答\"\n",
          "explanation": "[explanation]\nja = \"説明\"\n"}
for _name, _text in _TEXTS.items():
    PROBES[f"ruling.{_name}"] = (lambda t=_text: (ruling(), ruling(top="", extra="") .replace(
        "[title]\n", t + "[title]\n", 1)))
PROBES.update({
    "ruling.format_version": lambda: (ruling().replace("format_version = 9\n", ""), ruling()),
    "ruling.id": lambda: (ruling(), ruling().replace('id = "walk"', 'id = "walk-2"')),
    "ruling.tags": lambda: (ruling(), ruling(top='tags = ["draw"]\n')),
    "ruling.terms": lambda: (ruling(), ruling(top='terms = ["draw"]\n')),
    "ruling.related": lambda: (ruling(), ruling(top='related = ["draw-from-top"]\n')),
    "ruling.title": lambda: (ruling(), ruling().replace('ja = "walk"', 'ja = "歩く"')),
    "ruling.sources": lambda: (ruling(), ruling(top='sources = ["mistaken-rules"]\n')),
})

# the checker: each expectation made false
_FALSE = {
    "zones": "[expect.zones.p1]\nhand = []\n", "phase": 'phase = "end"\n',
    "attack_step": 'attack_step = "arts"\n', "turn": "turn = 4\n",
    "turn_player": 'turn_player = "p2"\n', "winner": 'winner = "p1"\n',
    "win_reason": 'win_reason = "damage"\n', "power": "power = { S1 = 1 }\n",
    "level": "level = { S1 = 9 }\n", "limit": "limit = { p1 = 0 }\n",
    "down": "down = { S1 = true }\n", "frozen": "frozen = { S1 = true }\n",
    "refreshes": "refreshes = { p1 = 1 }\n", "coins": "coins = { p1 = 5 }\n",
    "visible": "[expect.visible.p1]\nsees = [\"e1\"]\n",
    "keywords": 'keywords = { S1 = ["lancer"] }\n', "lost": "lost = { S1 = true }\n",
    "crossed": "crossed = { S1 = true }\n",
    "markers": "markers = { p2 = { virus = [\"signi1\"] } }\n",
    "registrations": "registrations = { p1 = 3 }\n",
    "events": "[expect.events]\nabsent = [{ type = \"step\" }]\n",
    "outcomes": "[[expect.outcomes]]\nturn = 9\n",
}
for _name, _text in _FALSE.items():
    PROBES[f"expect.{_name}"] = (lambda t=_text: (
        ruling(steps=DRAW), ruling(steps=DRAW, expect="[[expect]]\n" + t)))
PROBES["expect.rules"] = lambda: (
    ruling(steps=DRAW, rulesets=("2014-04", "current"), expect="[[expect]]\nturn = 4\n"),
    ruling(steps=DRAW, rulesets=("2014-04", "current"),
           expect="[[expect]]\nrules = [\"current\"]\nturn = 4\n[[expect]]\n"))
PROBES["ruling.expect"] = lambda: (ruling(steps=DRAW, expect=""),
                                   ruling(steps=DRAW, expect="[[expect]]\nturn = 3\n"))
PROBES["ruling.explore_limit"] = lambda: (
    ruling(steps=BANISH_D, expect="[[expect]]\n[[expect.outcomes]]\n[expect.outcomes.zones.p2]"
                                  "\nsigni1 = []\n[[expect.outcomes]]\n[expect.outcomes.zones"
                                  ".p2]\nsigni2 = []\n"),
    ruling(steps=BANISH_D, top="explore_limit = 1\n",
           expect="[[expect]]\n[[expect.outcomes]]\n[expect.outcomes.zones.p2]"
                  "\nsigni1 = []\n[[expect.outcomes]]\n[expect.outcomes.zones.p2]\n"
                  "signi2 = []\n"))
_PATTERNS = {"cards": '{ cards = ["h1", "h2"] }', "order": '{ cards = ["h3", "h2", "h1"], '
             'order = "exact" }', "count": "{ count = 2 }", "contains": '{ contains = ["d1"] }',
             "lacks": '{ lacks = ["h1"] }'}
for _name, _text in _PATTERNS.items():
    PROBES[f"zone-pattern.{_name}"] = (lambda t=_text: (
        ruling(expect='[[expect]]\n[expect.zones.p1]\nhand = { cards = ["h3", "h2", "h1"] }\n'),
        ruling(expect=f"[[expect]]\n[expect.zones.p1]\nhand = {t}\n")))
PROBES["visible.sees"] = lambda: (
    ruling(expect='[[expect]]\n[expect.visible.p1]\nsees = ["h1"]\n'),
    ruling(expect='[[expect]]\n[expect.visible.p1]\nsees = ["h1", "e1"]\n'))
PROBES["visible.cannot_see"] = lambda: (
    ruling(expect='[[expect]]\n[expect.visible.p1]\nsees = ["h1"]\n'),
    ruling(expect='[[expect]]\n[expect.visible.p1]\nsees = ["h1"]\ncannot_see = ["h2"]\n'))
_KEYS = {"type": '"draw_phase"', "cause": '"rule"', "player": '"p2"', "card": '"d2"',
         "from": '"p1.trash"', "to": '"p1.ener"', "source": '"S1"'}
for _name, _text in _KEYS.items():
    PROBES[f"event.{_name}"] = (lambda n=_name, t=_text: (
        ruling(steps=DRAW, expect='[[expect]]\n[expect.events]\nsubsequence = '
                                  '[{ type = "move", card = "d1" }]\n'),
        ruling(steps=DRAW, expect='[[expect]]\n[expect.events]\nsubsequence = [{ type = '
                                  f'"move", card = "d1", {n} = {t} }}]\n'.replace(
                                      'type = "move", card = "d1", type', 'type')
               .replace('card = "d1", card', 'card'))))

# zones: a card there (QX), which an effect then moves; without the zone it is elsewhere
ZONE_CARDS = {"arts-a": card("arts-a", {"type": "arts", "effect": [{"op": "draw"}]}),
              "key-x": card("key-x", {"type": "key"})}
#: zone -> (the card, where it is without the zone, the operation that moves it)
_ZONES: dict[str, tuple[str, str, dict[str, Any]]] = {
    "deck": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "hand": ("QX", "trash", {"op": "to_ener", "target": "QX"}),
    "ener": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "trash": ("QX", "ener", {"op": "to_hand", "target": "QX"}),
    "life": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "check": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "lrig_deck": ("QX:arts-a", "lrig_trash", {"op": "trash", "target": "QX"}),
    "lrig_trash": ("QX:arts-a", "lrig_deck", {"op": "trash", "target": "QX"}),
    "lrig": ("QX:lrig-white-2", "lrig_trash", {"op": "trash", "target": "QX"}),
    "key": ("QX:key-x", "lrig_deck", {"op": "trash", "target": "QX"}),
    "assist1": ("QX:lrig-white-1", "lrig_deck", {"op": "trash", "target": "QX"}),
    "assist2": ("QX:lrig-white-1", "lrig_deck", {"op": "trash", "target": "QX"}),
    "signi1": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "signi2": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "signi3": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "under1": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "under2": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "under3": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "seed1": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "seed2": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "seed3": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "trap1": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "trap2": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "trap3": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
    "cheer": ("QX", "trash", {"op": "to_hand", "target": "QX"}),
}


def _zone_pair(zone: str) -> Pair:
    item, elsewhere, op = _ZONES[zone]
    p1: dict[str, Any] = {"signi1": None, "signi2": None, "signi3": None}
    if zone.startswith("under"):  # cards under a SIGNI: the SIGNI in its zone
        p1[f"signi{zone[-1]}"] = "SX"
    if zone in ("assist1", "assist2"):
        setup = {"format": "diva-selection"}
    else:
        setup = {}
    if zone == "cheer":
        p1["signi1"] = "SX"
    base = {**p1, elsewhere: [item]}
    with_ = {**p1, zone: [item]}
    cards = ZONE_CARDS.get(item.partition(":")[2], "")
    return (ruling(cards=cards, p1=base, setup=setup, steps=effect(op)),
            ruling(cards=cards, p1=with_, setup=setup, steps=effect(op)))


for _zone in _ZONES:
    PROBES[f"zones.{_zone}"] = (lambda z=_zone: _zone_pair(z))


# zone items
PROBES.update({
    "zone-item.card": lambda: _pair(
        {"p1": {"signi1": {"card": "S1:signi-2"}},
         "steps": effect({"op": "power", "target": "S1", "amount": -1000})},
        {"p1": {"signi1": {"card": "S1:signi-3"}}}),
    "zone-item.down": lambda: _pair(
        {"setup": ATTACK_SETUP, "p1": {"signi1": {"card": "S1:signi-3"}},
         "steps": step("attack", card="S1")},
        {"p1": {"signi1": {"card": "S1:signi-3", "down": True}}}),
    "zone-item.frozen": lambda: _pair(
        {"p2": {"signi1": {"card": "D1:signi-2", "down": True}},
         "steps": ADVANCE + step("advance", to="signi") + step("attack", card="D1")},
        {"p2": {"signi1": {"card": "D1:signi-2", "down": True, "frozen": True}}}),
    "zone-item.under": lambda: _pair(
        {"steps": effect({"op": "banish", "target": "S1"})},
        {"p1": {"signi1": {"card": "S1:signi-2", "under": ["U1"]}}}),
    "zone-item.charm": lambda: _pair(
        {"steps": effect({"op": "banish", "target": "S1"})},
        {"p1": {"signi1": {"card": "S1:signi-2", "charm": ["C1"]}}}),
    "zone-item.accessory": lambda: _pair(
        {"steps": effect({"op": "banish", "target": "S1"}),
         "cards": card("acc-card", {"type": "signi", "level": 1, "power": 1000,
                                    "keywords": ["accessory"]}),
         "p1": {"hand": ["AC:acc-card"]}},
        {"p1": {"hand": [], "signi1": {"card": "S1:signi-2",
                                       "accessory": ["AC:acc-card"]}}}),
    "zone-item.crushed": lambda: _pair(
        {"p2": {"check": [{"card": "B1:burst-draw-signi"}]}, "steps": DRAW},
        {"p2": {"check": [{"card": "B1:burst-draw-signi", "crushed": True}]}}),
})

#: A step of each action that the game refuses once it is over.
_STEPS = {"effect": {"ops": [{"op": "draw"}]}, "use": {"card": "h1"},
          "activate": {"card": "S1"}, "advance": {}, "play": {"card": "h1"},
          "grow": {"card": "L"}, "remove": {"card": "S1"}, "crush": {}, "damage": {},
          "ener": {"card": "h1"}, "pass": {}, "attack": {"card": "S1"},
          "summon": {"card": "h1", "cards": ["S1"]}, "start_game": {"first": "p1"},
          "redraw": {"cards": ["h1"]}}
WON = effect({"op": "damage", "who": "opponent"})
for _action, _fields in _STEPS.items():
    PROBES[f"step:{_action}.expect_illegal"] = (lambda a=_action, fs=_fields: _pair(
        {"p2": {"life": None}, "steps": WON + step(a, **fs) + DRAW},
        {"steps": WON + step(a, **fs, expect_illegal="game-over") + DRAW}))

_ARTS2 = card("arts-a", {"type": "arts", "effect": [{"op": "draw"}]}) + \
    card("arts-b", {"type": "arts", "effect": [{"op": "mill"}]})
_ACTIONS = card("actor", {"type": "signi", "level": 2, "power": 1000}, [
    {"kind": "action", "effect": [{"op": "draw"}]},
    {"kind": "action", "effect": [{"op": "mill"}]}])
_GROW = {"setup": {"phase": "grow"}, "p1": {"lrig": ["L:lrig-white-2"], "ener": ["w*9"],
                                            "lrig_deck": ["G3:lrig-white-3", "G4:lrig-red-4"]}}
_RESONA = card("reso", {"type": "resona", "level": 2, "power": 5000, "summon": {"signi": 1}})
_RESONA2 = card("reso", {"type": "resona", "level": 2, "power": 5000, "summon": {"signi": 2}})
_DECKS = {"deck": ["d*40"], "lrig_deck": ["Z:lrig-white-0"], "hand": None, "ener": None,
          "trash": None, "life": None, "lrig": None, "signi1": None, "signi2": None}
_DECKS2 = {**_DECKS, "deck": ["e*40"], "lrig_deck": ["Y:lrig-white-0"]}
PROBES.update({
    "step:effect.player": lambda: _pair({"steps": DRAW},
                                        {"steps": effect({"op": "draw"}, player="p2")}),
    "step:effect.ops": lambda: _pair({"steps": DRAW}, {"steps": effect({"op": "mill"})}),
    "step:effect.source": lambda: _pair(
        {"steps": effect({"op": "to_hand", "target": "this"}, source="S1")},
        {"steps": effect({"op": "to_hand", "target": "this"}, source="S2")}),
    "step:use.card": lambda: _pair({"cards": _ARTS2, "p1": {"lrig_deck": ["A:arts-a",
                                                                         "B:arts-b"]},
                                    "steps": step("use", card="A")},
                                   {"steps": step("use", card="B")}),
    "step:activate.card": lambda: _pair(
        {"cards": _ACTIONS, "p1": {"signi1": "S1:actor", "signi2": "S2:actor"},
         "steps": step("activate", card="S1")}, {"steps": step("activate", card="S2")}),
    "step:activate.ability": lambda: _pair(
        {"cards": _ACTIONS, "p1": {"signi1": "S1:actor"},
         "steps": step("activate", card="S1")},
        {"steps": step("activate", card="S1", ability=1)}),
    "step:advance.to": lambda: _pair({"steps": step("advance")},
                                     {"steps": step("advance", to="end")}),
    "step:play.card": lambda: _pair({"p1": {"signi2": None}, "steps": step("play", card="h1")},
                                    {"steps": step("play", card="h2")}),
    "step:play.zone": lambda: _pair({"p1": {"signi2": None}, "steps": step("play", card="h1")},
                                    {"steps": step("play", card="h1", zone="signi3")}),
    "step:grow.card": lambda: _pair({**_GROW, "steps": step("grow", card="G3")},
                                    {"steps": step("grow", card="G4")}),
    "step:remove.card": lambda: _pair({"steps": step("remove", card="S1")},
                                      {"steps": step("remove", card="S2")}),
    "step:remove.cards": lambda: _pair({"steps": step("remove", card="S1")},
                                       {"steps": step("remove", cards=["S1", "S2"])}),
    "step:crush.player": lambda: _pair({"steps": step("crush")},
                                       {"steps": step("crush", player="p2")}),
    "step:crush.count": lambda: _pair({"steps": step("crush")},
                                      {"steps": step("crush", count=2)}),
    "step:damage.player": lambda: _pair({"steps": step("damage")},
                                        {"steps": step("damage", player="p2")}),
    "step:ener.card": lambda: _pair({"setup": {"phase": "ener"},
                                     "steps": step("ener", card="h1")},
                                    {"steps": step("ener", card="h2")}),
    "step:pass.player": lambda: _pair({"setup": {"phase": "attack"}, "steps": step("pass")},
                                      {"steps": step("pass", player="p2")}),
    "step:attack.card": lambda: _pair({"setup": ATTACK_SETUP,
                                       "steps": step("attack", card="S1")},
                                      {"steps": step("attack", card="S2")}),
    "step:attack.zone": lambda: _pair(
        {"setup": ATTACK_SETUP, "p1": {"cheer": "CH", "signi2": None},
         "steps": step("attack", card="CH", zone="signi1")},
        {"steps": step("attack", card="CH", zone="signi2")}),
    "step:summon.card": lambda: _pair(
        {"cards": _RESONA, "p1": {"lrig_deck": ["R1:reso", "R2:reso"], "signi2": None},
         "steps": step("summon", card="R1", cards=["S1"])},
        {"steps": step("summon", card="R2", cards=["S1"])}),
    "step:summon.cards": lambda: _pair(
        {"cards": _RESONA2, "p1": {"lrig_deck": ["R1:reso"], "signi3": "S3"},
         "steps": step("summon", card="R1", cards=["S1", "S2"])},
        {"steps": step("summon", card="R1", cards=["S1", "S3"])}),
    "step:summon.zone": lambda: _pair(
        {"cards": _RESONA, "p1": {"lrig_deck": ["R1:reso"], "signi2": None},
         "steps": step("summon", card="R1", cards=["S1"])},
        {"steps": step("summon", card="R1", cards=["S1"], zone="signi3")}),
    "step:start_game.first": lambda: _pair(
        {"setup": {"phase": "setup", "turn": 1}, "p1": _DECKS, "p2": _DECKS2,
         "steps": step("start_game", first="p1")},
        {"steps": step("start_game", first="p2")}),
    "step:redraw.player": lambda: _pair(
        {"setup": {"phase": "setup", "turn": 1}, "p1": {"hand": ["h1"]},
         "p2": {"hand": ["g1"]}, "steps": step("redraw", cards=["h1"])},
        {"steps": step("redraw", player="p2", cards=["g1"])}),
    "step:redraw.cards": lambda: _pair(
        {"setup": {"phase": "setup", "turn": 1}, "steps": step("redraw", cards=["h1"])},
        {"steps": step("redraw", cards=["h2"])}),
    "choice.player": lambda: _pair({"steps": BANISH_D,
                                    "extra": "[[choices]]\npick = \"D1\"\n"},
                                   {"extra": "[[choices]]\nplayer = \"p2\"\npick = \"D1\"\n"}),
    "choice.kind": lambda: _pair({"steps": BANISH_D, "extra": "[[choices]]\npick = \"D1\"\n"},
                                 {"extra": "[[choices]]\nkind = \"zone\"\npick = \"D1\"\n"}),
    "choice.pick": lambda: _pair({"steps": BANISH_D, "extra": "[[choices]]\npick = \"D1\"\n"},
                                 {"extra": "[[choices]]\npick = \"D2\"\n"}),
})


def _card(body: dict[str, Any], field_: str, value: Any, *, abilities: list[Any] = (),
          **kw: Any) -> Pair:
    """The card ``cx`` (``body``) and the same card with ``field_ = value``, in a ruling
    made with the keyword arguments."""
    base = card("cx", body, list(abilities))
    variant = card("cx", {**body, field_: value}, list(abilities))
    extra_cards = kw.pop("cards", "")
    return (ruling(cards=base + extra_cards, **kw), ruling(cards=variant + extra_cards, **kw))


SIGNI = {"type": "signi", "level": 1, "power": 1000}
SPELL = {"type": "spell", "effect": [{"op": "draw"}]}
ARTS = {"type": "arts", "effect": [{"op": "draw"}]}
LRIG2 = {"type": "lrig", "level": 2, "limit": 5, "lrig_type": "Tama"}
USE_X = step("use", card="X")
PLAY_X = step("play", card="X")
_GROWER = card("grower", {"type": "lrig", "level": 3, "limit": 7, "lrig_type": "Tama",
                          "grow_from": "Tama Base"})
PROBES.update({
    "card.name": lambda: _card(LRIG2, "name", "Tama Base", cards=_GROWER,
                               setup={"phase": "grow"},
                               p1={"lrig": ["L:cx"], "lrig_deck": ["G:grower"]},
                               steps=step("grow", card="G")),
    "card.grow_from": lambda: _card({"type": "lrig", "level": 3, "limit": 7,
                                     "lrig_type": "Tama"}, "grow_from", "Nobody",
                                    setup={"phase": "grow"},
                                    p1={"lrig": ["L:lrig-white-2"], "lrig_deck": ["X:cx"]},
                                    steps=step("grow", card="X")),
    "card.type": lambda: (ruling(cards=card("cx", SPELL), p1={"hand": ["X:cx"]}, steps=USE_X),
                          ruling(cards=card("cx", SIGNI), p1={"hand": ["X:cx"]},
                                 steps=USE_X)),
    "card.colour": lambda: _card(SIGNI, "colour", "red",
                                 cards=card("sp", {**SPELL, "cost": {"red": 1}}),
                                 p1={"ener": ["EC:cx"], "hand": ["Z:sp"]},
                                 steps=step("use", card="Z")),
    "card.level": lambda: _card(SIGNI, "level", 3, p1={"lrig": ["L:lrig-white-2"],
                                                       "hand": ["X:cx"], "signi2": None},
                                steps=PLAY_X),
    "card.power": lambda: _card(SIGNI, "power", 9000, setup=ATTACK_SETUP,
                                p1={"signi1": "X:cx"}, steps=step("attack", card="X")),
    "card.limit": lambda: _card(LRIG2, "limit", 1, p1={"lrig": ["L:cx"], "signi2": None,
                                                       "signi1": "S1:signi-1"},
                                steps=step("play", card="h1")),
    "card.lrig_type": lambda: _card(LRIG2, "lrig_type", "Hanayo",
                                    cards=card("lim", {**ARTS, "limiting": "Tama"}),
                                    p1={"lrig": ["L:cx"], "lrig_deck": ["Z:lim"],
                                        "signi1": "S1:signi-1", "signi2": None},
                                    steps=step("use", card="Z")),
    "card.class": lambda: _card(SIGNI, "class", "Weapon", p1={"signi1": "X:cx"},
                                steps=effect({"op": "banish", "target": {
                                    "class": "Weapon", "all": True}})),
    "card.limiting": lambda: _card(ARTS, "limiting", "Hanayo", p1={"lrig_deck": ["X:cx"]},
                                   steps=USE_X),
    "card.guard": lambda: _card(SIGNI, "guard", True,
                                setup={"phase": "attack", "attack_step": "lrig"},
                                p2={"hand": ["X:cx"]}, steps=step("attack", card="L")),
    "card.life_burst": lambda: _card(SIGNI, "life_burst", [{"op": "draw"}],
                                     p2={"life": ["X:cx"]}, steps=step("crush", player="p2")),
    "card.effect": lambda: _card(SPELL, "effect", [{"op": "mill"}], p1={"hand": ["X:cx"]},
                                 steps=USE_X),
    "card.abilities": lambda: _card(SIGNI, "abilities", [
        {"kind": "auto", "trigger": "banished", "effect": [{"op": "draw"}]}],
        p1={"signi1": "X:cx"}, steps=effect({"op": "banish", "target": "X"})),
    "card.keywords": lambda: _card({**SIGNI, "power": 9000}, "keywords", ["lancer"],
                                   setup=ATTACK_SETUP, p1={"signi1": "X:cx"},
                                   steps=step("attack", card="X")),
    "card.cost": lambda: _card(SPELL, "cost", {"colourless": 1}, p1={"hand": ["X:cx"]},
                               steps=USE_X),
    "card.timing": lambda: _card(ARTS, "timing", "attack", p1={"lrig_deck": ["X:cx"]},
                                 steps=USE_X),
    "card.modes": lambda: (
        ruling(cards=card("cx", SPELL), p1={"hand": ["X:cx"]}, steps=USE_X),
        ruling(cards=card("cx", {"type": "spell", "modes": [[{"op": "mill"}],
                                                            [{"op": "draw"}]]}),
               p1={"hand": ["X:cx"]}, steps=USE_X)),
    "card.choose": lambda: _card({"type": "spell", "modes": [[{"op": "mill"}], [{"op": "draw"}],
                                                             [{"op": "ener_charge"}]]},
                                 "choose", 2, p1={"hand": ["X:cx"]}, steps=USE_X),
    # (with nothing in force: the layer reads the cross condition itself, issue 30)
    "card.cross": lambda: _card({**SIGNI, "level": 2}, "cross",
                                {"partner": "signi-1", "side": "right"},
                                p1={"signi1": "X:cx"}, steps=effect(
                                    {"op": "banish", "target": {"crossed": True,
                                                                "all": True}})),
    "card.recollect": lambda: _card(ARTS, "recollect", {"colourless": 1},
                                    p1={"lrig_deck": ["X:cx"]}, steps=USE_X),
    "card.bet": lambda: _card(ARTS, "bet", {"coins": 1, "effect": [{"op": "mill"}]},
                              setup={"coins": {"p1": 1}}, p1={"lrig_deck": ["X:cx"]},
                              steps=USE_X),
    "card.token": lambda: _card(ARTS, "token", True, p1={"lrig_deck": ["X:cx"]},
                                steps=USE_X),
    "card.trap": lambda: _card(SIGNI, "trap", [{"op": "draw", "count": 2}],
                               setup={**ATTACK_SETUP, "turn_player": "p2", "turn": 4},
                               p1={"trap1": "X:cx", "signi1": None},
                               steps=step("attack", card="D1")),
    "card.rise": lambda: _card(SIGNI, "rise", ["signi-1"],
                               p1={"hand": ["X:cx"], "signi1": None},
                               steps=PLAY_X),
    "card.summon": lambda: _card({"type": "resona", "level": 2, "power": 5000,
                                  "summon": {"signi": 1}}, "summon", {"signi": 2},
                                 p1={"lrig_deck": ["X:cx"]},
                                 steps=step("summon", card="X", cards=["S1"])),
    # issue 30, round three: a Key summoned with 1 coin (p1 has none: refused)
    "card.coins": lambda: _card({"type": "key"}, "coins", 1, p1={"lrig_deck": ["X:cx"]},
                                steps=USE_X),
    "card.grants": lambda: _card({**SIGNI, "keywords": ["accessory"]}, "grants", ["lancer"],
                                 setup=ATTACK_SETUP, p1={"signi1": {"card": "S1:signi-3",
                                                                    "accessory": ["X:cx"]}},
                                 steps=step("attack", card="S1")),
})


def _ability(body: dict[str, Any], field_: str, value: Any, *, holder: dict[str, Any] = SIGNI,
             **kw: Any) -> Pair:
    """The SIGNI ``ax`` with the ability ``body``, and with ``field_ = value`` in it; laid
    out as X in the first SIGNI zone unless the keyword arguments say otherwise."""
    kw.setdefault("p1", {"signi1": "X:ax"})
    variant = {**body, field_: value}
    if value is None:
        variant.pop(field_)
    return (ruling(cards=card("ax", holder, [body]), **kw),
            ruling(cards=card("ax", holder, [variant]), **kw))


AUTO = {"kind": "auto", "trigger": "banished", "effect": [{"op": "draw"}]}
ACTION = {"kind": "action", "effect": [{"op": "draw"}]}
CONST = {"kind": "const", "stat": "power", "amount": 5000}
BANISH_X = effect({"op": "banish", "target": "X"})
ACTIVATE = step("activate", card="X")
PROBES.update({
    "ability.kind": lambda: (
        ruling(cards=card("ax", SIGNI, [ACTION]), p1={"signi1": "X:ax"}, steps=ACTIVATE),
        ruling(cards=card("ax", SIGNI, [{"kind": "on_play", "effect": [{"op": "draw"}]}]),
               p1={"signi1": "X:ax"}, steps=ACTIVATE)),
    "ability.effect": lambda: _ability(AUTO, "effect", [{"op": "mill"}], steps=BANISH_X),
    "ability.trigger": lambda: _ability(AUTO, "trigger", "crushed", steps=BANISH_X),
    "ability.zone": lambda: _ability({**AUTO, "trigger": "put_into_trash"}, "zone", "hand",
                                     steps=effect({"op": "trash", "target": "X"})),
    "ability.optional": lambda: _ability(AUTO, "optional", True, steps=BANISH_X),
    "ability.stat": lambda: _ability(CONST, "stat", "level", setup=ATTACK_SETUP,
                                     steps=step("attack", card="X")),
    "ability.amount": lambda: _ability(CONST, "amount", 1000, setup=ATTACK_SETUP,
                                       steps=step("attack", card="X")),
    "ability.applies_to": lambda: _ability(CONST, "applies_to", "own_signi",
                                           setup=ATTACK_SETUP,
                                           steps=step("attack", card="S2")),
    "ability.cost": lambda: _ability(ACTION, "cost", {"colourless": 1}, steps=ACTIVATE),
    "ability.while": lambda: _ability({"kind": "const", "effect": [
        {"op": "power", "target": "this", "amount": 5000}]}, "while",
        {"zone": "ener", "at_least": 9}, setup=ATTACK_SETUP, steps=step("attack", card="X")),
    # issue 30: an action ability with the attack timing is refused in the main phase
    "ability.timing": lambda: _ability(ACTION, "timing", "attack", steps=ACTIVATE),
    "ability.once_per_turn": lambda: _ability(ACTION, "once_per_turn", True,
                                              steps=ACTIVATE + ACTIVATE),
    "ability.by": lambda: _ability({**AUTO, "trigger": "banished_by_effect"}, "by",
                                   "opponent", steps=BANISH_X),
    # issue 30, family 3: X watches another SIGNI being banished; p1's own S2 is
    "ability.whose": lambda: _ability({**AUTO, "trigger": "signi_banished"}, "whose",
                                      "opponent", steps=effect({"op": "banish",
                                                                "target": "S2"})),
    "ability.modes": lambda: (
        ruling(cards=card("ax", SIGNI, [ACTION]), p1={"signi1": "X:ax"}, steps=ACTIVATE),
        ruling(cards=card("ax", SIGNI, [{"kind": "action", "modes": [[{"op": "mill"}],
                                                                     [{"op": "draw"}]]}]),
               p1={"signi1": "X:ax"}, steps=ACTIVATE)),
    "ability.choose": lambda: _ability({"kind": "action", "modes": [
        [{"op": "mill"}], [{"op": "draw"}], [{"op": "ener_charge"}]]}, "choose", 2,
        steps=ACTIVATE),
})


def _cost(field_: str, value: Any, **kw: Any) -> Pair:
    """An ARTS (X) with and without the cost part, used from the LRIG deck."""
    kw.setdefault("p1", {"lrig_deck": ["X:cx"]})
    return (ruling(cards=card("cx", ARTS), steps=USE_X, **kw),
            ruling(cards=card("cx", {**ARTS, "cost": {field_: value}}), steps=USE_X, **kw))


for _colour in ("white", "red", "blue", "green", "black", "colourless"):
    PROBES[f"cost.{_colour}"] = (lambda c=_colour: _cost(c, 1))
PROBES.update({
    "cost.COLOUR_or_COLOUR": lambda: _cost("red_or_white", 1),
    "cost.exceed": lambda: _cost("exceed", 1, p1={"lrig_deck": ["X:cx"],
                                                 "lrig": ["L0:lrig-white-3", "L:lrig-white-4"]}),
    "cost.discard": lambda: _cost("discard", 1),
    "cost.remove_virus": lambda: _cost("remove_virus", 1,
                                       setup={"markers": {"p2": {"virus": ["signi1"]}}}),
    # a discard part as a table: its count, its class, and (issue 30) a count that varies
    "discard-cost.count": lambda: (
        ruling(cards=card("cx", {**ARTS, "cost": {"discard": {"at_most": 3}}}),
               p1={"lrig_deck": ["X:cx"]}, steps=USE_X),
        ruling(cards=card("cx", {**ARTS, "cost": {"discard": {"count": 2, "at_most": 3}}}),
               p1={"lrig_deck": ["X:cx"]}, steps=USE_X)),
    "discard-cost.class": lambda: (
        ruling(cards=card("cx", {**ARTS, "cost": {"discard": {"count": 1}}}),
               p1={"lrig_deck": ["X:cx"]}, steps=USE_X),
        ruling(cards=card("cx", {**ARTS, "cost": {"discard": {"count": 1, "class": "Weapon"}}}),
               p1={"lrig_deck": ["X:cx"]}, steps=USE_X)),
    "discard-cost.at_most": lambda: (
        ruling(cards=card("cx", {**ARTS, "cost": {"discard": {"count": 1}}}),
               p1={"lrig_deck": ["X:cx"]}, steps=USE_X),
        ruling(cards=card("cx", {**ARTS, "cost": {"discard": {"count": 1, "at_most": 2}}}),
               p1={"lrig_deck": ["X:cx"]}, steps=USE_X)),
    "cost.down": lambda: (
        ruling(cards=card("ax", SIGNI, [ACTION]), p1={"signi1": "X:ax"}, steps=ACTIVATE),
        ruling(cards=card("ax", SIGNI, [{**ACTION, "cost": {"down": True}}]),
               p1={"signi1": "X:ax"}, steps=ACTIVATE + ACTIVATE)),
    "bet.coins": lambda: (
        ruling(cards=card("cx", {**ARTS, "bet": {"coins": 1, "effect": [{"op": "mill"}]}}),
               setup={"coins": {"p1": 1}}, p1={"lrig_deck": ["X:cx"]}, steps=USE_X),
        ruling(cards=card("cx", {**ARTS, "bet": {"coins": 2, "effect": [{"op": "mill"}]}}),
               setup={"coins": {"p1": 1}}, p1={"lrig_deck": ["X:cx"]}, steps=USE_X)),
    "bet.effect": lambda: (
        ruling(cards=card("cx", {**ARTS, "bet": {"coins": 1, "effect": [{"op": "mill"}]}}),
               setup={"coins": {"p1": 1}}, p1={"lrig_deck": ["X:cx"]}, steps=USE_X),
        ruling(cards=card("cx", {**ARTS, "bet": {"coins": 1, "effect": [
            {"op": "ener_charge"}]}}), setup={"coins": {"p1": 1}},
               p1={"lrig_deck": ["X:cx"]}, steps=USE_X)),
    "summon.signi": lambda: PROBES["card.summon"](),
    "summon.class": lambda: (
        ruling(cards=card("cx", {"type": "resona", "level": 2, "power": 5000,
                                 "summon": {"signi": 1}}), p1={"lrig_deck": ["X:cx"]},
               steps=step("summon", card="X", cards=["S1"])),
        ruling(cards=card("cx", {"type": "resona", "level": 2, "power": 5000,
                                 "summon": {"signi": 1, "class": "Weapon"}}),
               p1={"lrig_deck": ["X:cx"]}, steps=step("summon", card="X", cards=["S1"]))),
    "cross.partner": lambda: (
        PROBES["card.cross"]()[1],
        PROBES["card.cross"]()[1].replace('partner = "signi-1"', 'partner = "signi-4"')),
    "cross.side": lambda: (
        PROBES["card.cross"]()[1],
        PROBES["card.cross"]()[1].replace('side = "right"', 'side = "left"')),
})


# ---------------------------------------------------------------------- by, on every cannot


@pytest.mark.parametrize("what", ["be_banished", "be_trashed", "be_chosen", "be_affected"])
def test_by_on_every_resistance_says_whose_effects(what: str) -> None:
    """"Cannot be banished by your opponent's effects" (and each other resistance): ``by``
    narrows it to one player's effects, ``any`` to every player's; rule processing is no
    effect (004), so ``by`` never shields from it (resistance before the effects it resists:
    001)."""
    outcomes = {by: outcome(_cannot("by", by, what)[1]) for by in ("opponent", "any")}
    without = outcome(_cannot("by", "opponent", what)[0])
    assert len({json.dumps(o, sort_keys=True) for o in (without, *outcomes.values())}) >= 2, \
        what
    assert outcomes["opponent"] != outcomes["any"], what


def test_own_effect_and_rule_processing_banish_through_a_resistance_to_the_opponent() -> None:
    [[(events, _)]] = outcome(_cannot("by", "opponent", "be_banished")[1])
    banished = [(e["cause"], e["card"]) for e in events if e["type"] == "banish"]
    assert banished == [("effect", "S1")]  # p1's own effect banishes it
    [[(events, _)]] = outcome(_cannot("by", "any", "be_banished")[1])
    fizzled = [e["detail"]["reason"] for e in events if e["type"] == "fizzle"]
    assert fizzled == ["cannot-be-banished"]
    assert [(e["cause"], e["card"]) for e in events if e["type"] == "banish"] == \
        [("rule", "S1")]  # power 0: rule processing is no effect


@pytest.mark.parametrize("what", ["attack", "refresh", "pay_with_colourless", "use_spells",
                                  "use_arts"])
def test_by_on_a_cannot_that_is_no_resistance_is_refused(what: str) -> None:
    _, with_ = _cannot("by", "opponent", what)
    with pytest.raises(ScenarioError) as info:
        load_text(with_, "walk.toml")
    text = str(info.value)
    assert "\n" not in text and f"cannot {what} is not a resistance to effects" in text
    assert text.endswith("(valid: be_banished, be_chosen, be_affected, be_trashed)")


def test_a_list_given_to_card_points_to_cards() -> None:
    with pytest.raises(ScenarioError) as info:
        load_text(ruling(steps=step("remove", card=["S1", "S2"])), "walk.toml")
    assert str(info.value) == (
        "walk.toml:36: steps[0].card: expected one card label, got ['S1', 'S2']: did you mean "
        "`cards`? (cards = [...] names several)")


def test_a_misspelt_field_names_the_closest() -> None:
    with pytest.raises(ScenarioError) as info:
        load_text(ruling(steps=effect({"op": "cannot", "target": "S1", "what": "attack",
                                       "bye": "any"})), "walk.toml")
    assert "steps[0].ops[0].bye: unknown field (did you mean `by`?)" in str(info.value)


# ------------------------------------------------- by_kind, must_attack: what they leave alone


def test_a_resistance_to_one_kind_of_source_never_stops_battle_or_rule_processing() -> None:
    """``by_kind`` limits a resistance to effects of one kind of card: a SIGNI that cannot be
    banished by Spells is still banished when its power reaches 0 (rule processing is no
    effect), and by a SIGNI's effect; a Spell's effect is resisted."""
    base = {"op": "cannot", "target": "S1", "what": "be_banished", "by_kind": "spell"}
    p1 = {**OP_P1, "hand": ["h1", "sp:spell-draw-2", "acc:acc-card"]}
    spell = ruling(steps=effect(base) + effect({"op": "banish", "target": "S1"}, source="sp"),
                   cards=OP_CARDS, p1=p1)
    [[(events, _)]] = outcome(spell)
    assert [e["detail"]["reason"] for e in events if e["type"] == "fizzle"] == \
        ["cannot-be-banished"]
    signi = ruling(steps=effect(base) + effect({"op": "banish", "target": "S1"}, source="S2"),
                   cards=OP_CARDS, p1=p1)
    [[(events, _)]] = outcome(signi)
    assert [(e["cause"], e["card"]) for e in events if e["type"] == "banish"] == \
        [("effect", "S1")]
    rule = ruling(steps=effect(base) + effect({"op": "power", "target": "S1", "amount": -9000},
                                              source="sp"), cards=OP_CARDS, p1=p1)
    [[(events, _)]] = outcome(rule)
    assert [(e["cause"], e["card"]) for e in events if e["type"] == "banish"] == \
        [("rule", "S1")]


def test_a_forced_attack_refuses_skipping_the_signi_attack_step_from_the_main_phase() -> None:
    """``must_attack``: from the main phase, an advance to the end phase would skip the SIGNI
    attack step while the SIGNI could attack: refused; once the SIGNI is down, allowed."""
    forced = effect({"op": "must_attack", "target": "S1"})
    refused = ruling(steps=forced + step("advance", to="end", expect_illegal="must-attack"))
    [[(events, _)]] = outcome(refused)
    assert not [e for e in events if e["type"] == "phase" and e["detail"]["phase"] == "end"]
    allowed = ruling(steps=forced + effect({"op": "down", "target": "S1"})
                     + step("advance", to="end"))
    [[(events, _)]] = outcome(allowed)
    assert [e for e in events if e["type"] == "phase" and e["detail"]["phase"] == "end"]
