"""Typed events: one frozen class per kind, a JSON form and a text form that round-trip for
every kind (random events of each, and every event of the corpus), the value types they carry
(abilities, card sets, paid ener, effects in force), the table of docs/events.md, and the
patterns rulings write.
"""

from __future__ import annotations

import json
import re
import types
from typing import Any, get_args, get_type_hints

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.corpus import load_corpus
from judge.engine import events as ev
from judge.engine.costs import ENER_COLOURS, Cost, normalise
from judge.engine.events import (
    CAUSES,
    CHOICE_OPTIONS,
    EVENT_KINDS,
    EVENT_TYPES,
    IN_FORCE,
    PATTERN_KEYS,
    AbilityRef,
    Acting,
    CardSet,
    Event,
    LastingKind,
    Paid,
    events_table,
    kind_fields,
)
from judge.engine.rule_processing import KINDS
from judge.engine.state import PLAYERS, ZONES, ZoneRef
from judge.errors import FieldError
from judge.ids import LABEL_RE
from judge.paths import project_root
from judge.scenario.expect import event_matches
from judge.scenario.model import EventPattern

DOCS = project_root() / "docs" / "events.md"

# ---------------------------------------------------------------------- strategies

LABELS = st.from_regex(LABEL_RE, fullmatch=True).filter(
    lambda s: len(s) <= 32 and s not in ("in-force", "p1-effect", "p2-effect"))
KEYWORDS = st.from_regex(r"[a-z][a-z0-9-]{0,12}", fullmatch=True).filter(lambda s: s != "burst")
ZONE_REFS = st.sampled_from([ZoneRef.of(p, z) for p in PLAYERS for z in ZONES])
ABILITIES = st.one_of(
    st.builds(AbilityRef.printed, LABELS, st.integers(0, 99)),
    st.builds(AbilityRef.keyword_ability, LABELS, KEYWORDS),
    st.builds(AbilityRef.life_burst, LABELS),
    st.builds(AbilityRef.of_card, LABELS),
    st.builds(AbilityRef.of_player, st.sampled_from(PLAYERS)),
    st.just(IN_FORCE),
)
COLOURS = st.sampled_from(ENER_COLOURS)
COSTS = st.builds(lambda ener, down, exceed: Cost(normalise(ener), down, exceed),
                  st.dictionaries(COLOURS, st.integers(0, 9), max_size=3), st.booleans(),
                  st.integers(0, 5))
LASTING_KINDS = st.one_of(
    st.just(LastingKind("banish_to_trash")),
    st.builds(lambda k: LastingKind("keyword", keyword=k), KEYWORDS),
    st.builds(lambda name, amounts: LastingKind(name, amounts=tuple(amounts)),
              st.sampled_from(["cost_change", "cost_modify"]),
              st.lists(st.tuples(COLOURS, st.integers(-9, 9)), min_size=1, max_size=3)),
)
CARD_SETS = st.lists(LABELS, min_size=1, max_size=4).map(lambda labels: CardSet(tuple(labels)))
#: Any text: the text form quotes what is not one plain word.
TEXT = st.text(max_size=20)

STRATEGIES: dict[Any, st.SearchStrategy[Any]] = {
    int: st.integers(-2**53, 2**53),
    bool: st.booleans(),
    str: TEXT,
    ZoneRef: ZONE_REFS,
    AbilityRef: ABILITIES,
    Cost: COSTS,
    LastingKind: LASTING_KINDS,
    Paid: st.builds(Paid, LABELS, COLOURS),
    CardSet: CARD_SETS,
    Acting: st.builds(Acting, st.sampled_from(sorted(KINDS)), LABELS | st.sampled_from(PLAYERS)),
}
OPTIONS: dict[type, st.SearchStrategy[Any]] = {AbilityRef: ABILITIES, CardSet: CARD_SETS}


def strategy(hint: Any) -> st.SearchStrategy[Any]:
    """Values of a field's type (X, X | None, tuple[X, ...])."""
    if hint in STRATEGIES:
        return STRATEGIES[hint]
    args = get_args(hint)
    if isinstance(hint, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        assert len(rest) == 1, hint
        return st.none() | strategy(rest[0])
    assert getattr(hint, "__origin__", None) is tuple and args[1] is Ellipsis, hint
    return st.lists(strategy(args[0]), max_size=4).map(tuple)


@st.composite
def choice_fields(draw: st.DrawFn) -> dict[str, Any]:
    """A choice's kind and options of the type its kind says (text for the others)."""
    kind = draw(st.sampled_from(sorted(CHOICE_OPTIONS)) | TEXT.filter(
        lambda k: k not in CHOICE_OPTIONS))
    option = OPTIONS.get(CHOICE_OPTIONS[kind], TEXT) if kind in CHOICE_OPTIONS else TEXT
    options = tuple(draw(st.lists(option, max_size=5)))
    picked = tuple(draw(st.lists(option, max_size=2)))
    return {"kind": kind, "options": options, "picked": picked,
            "about": draw(st.none() | ABILITIES)}


def events_of(kind: str) -> st.SearchStrategy[Event]:
    """Random events of one kind: every field of it, the common ones included."""
    cls = EVENT_KINDS[kind]
    hints = get_type_hints(cls)
    common = {"seq": st.integers(0, 10**6), "step": st.integers(0, 1000),
              "cause": st.sampled_from(CAUSES),
              "player": st.none() | st.sampled_from(PLAYERS) | TEXT,
              "card": st.none() | LABELS | TEXT,
              "from_zone": st.none() | ZONE_REFS, "to_zone": st.none() | ZONE_REFS,
              "source": st.none() | ABILITIES}
    if cls is ev.Choice:
        return st.builds(lambda c, o: cls(**c, **o), st.fixed_dictionaries(common),
                         choice_fields())
    own = {attr: strategy(hints[attr]) for _, attr, _ in kind_fields(kind)}
    return st.builds(lambda values: cls(**values), st.fixed_dictionaries({**common, **own}))


def assert_round_trips(event: Event) -> None:
    data = event.to_dict()
    assert Event.from_dict(data) == event, data
    assert Event.from_dict(json.loads(json.dumps(data))) == event, data
    text = event.to_json()
    assert Event.from_json(text) == event and "\n" not in text
    line = str(event)
    assert "\n" not in line
    assert Event.parse(line) == event, line
    assert str(Event.parse(line)) == line
    assert set(data.get("detail", {})) <= set(EVENT_TYPES[event.type])


# ---------------------------------------------------------------------- round trips


@pytest.mark.parametrize("kind", sorted(EVENT_KINDS))
@settings(max_examples=40)
@given(data=st.data())
def test_every_kind_round_trips_through_json_and_text(kind: str, data: st.DataObject) -> None:
    event = data.draw(events_of(kind))
    assert type(event) is EVENT_KINDS[kind] and event.type == kind
    assert_round_trips(event)


def test_every_event_of_the_corpus_round_trips() -> None:
    corpus = load_corpus()
    seen: set[str] = set()
    for ruling in corpus.rulings:
        for rep in ruling.replays.values():
            for branch in rep.branches:
                for event in branch:
                    assert type(event) is EVENT_KINDS[event.type], event
                    assert_round_trips(event)
                    seen.add(event.type)
    assert len(seen) > 30  # nearly every kind occurs in the corpus


def test_events_are_frozen_and_compare_by_kind() -> None:
    down = ev.Down(cause="effect", player="p1", card="S1")
    with pytest.raises(AttributeError):
        down.card = "S2"  # type: ignore[misc]
    assert down != ev.Up(cause="effect", player="p1", card="S1")
    assert down == ev.Down(cause="effect", player="p1", card="S1")
    assert hash(down) == hash(ev.Down(cause="effect", player="p1", card="S1"))
    assert not hasattr(down, "__dict__") and isinstance(down, tuple)  # small
    assert down.replace(seq=3) == ev.Down(seq=3, cause="effect", player="p1", card="S1")


def test_the_json_form() -> None:
    move = ev.Move(seq=2, step=1, cause="effect", player="p1", card="d1",
                   from_zone=ZoneRef.of("p1", "deck"), to_zone=ZoneRef.of("p1", "trash"),
                   source=AbilityRef.of_player("p1"), verb="mill")
    assert move.to_dict() == {"seq": 2, "step": 1, "type": "move", "cause": "effect",
                              "player": "p1", "card": "d1", "from_zone": "p1.deck",
                              "to_zone": "p1.trash", "source": "p1-effect",
                              "detail": {"verb": "mill"}}
    assert str(move) == ("#2@1 move [effect] player=p1 card=d1 from=p1.deck to=p1.trash "
                         "source=p1-effect verb=mill")
    pay = ev.Pay(cause="cost", player="p1", source=AbilityRef("S1", 0),
                 cost=Cost.parse("white:1,colourless:1"),
                 paid=(Paid("w1", "white"), Paid("r1", "colourless")), exceed=())
    assert pay.detail() == {"cost": "white:1,colourless:1", "paid": ["w1:white",
                                                                     "r1:colourless"],
                            "exceed": []}
    step = ev.AttackStep(cause="game", player="p1", attack_step="signi")
    assert step.detail() == {"step": "signi"} and EVENT_TYPES["attack_step"] == ("step",)
    assert str(step) == "#0@0 attack_step [game] player=p1 step=signi"
    choice = ev.Choice(cause="game", player="p1", kind="use", options=("yes", "no"),
                       picked=("yes",))
    assert "about" not in choice.detail()  # None is left out
    illegal = ev.Illegal(cause="game", reason="cannot-pay", message='S1#0: "x" = [1]')
    assert str(illegal).endswith(' message="S1#0: \\"x\\" = [1]"')
    assert str(ev.Skipped(cause="game", verb="1", wanted=2, done=0)).endswith(
        'verb="1" wanted=2 done=0')


def test_choices_carry_typed_options() -> None:
    order = ev.Choice(cause="game", player="p1", kind="trigger_order",
                      options=(AbilityRef("S1", 0), AbilityRef("S2", "lancer")),
                      picked=(AbilityRef("S2", "lancer"),))
    assert order.detail()["options"] == ["S1#0", "S2#lancer"]
    assert Event.from_dict(order.to_dict()) == order
    pay = ev.Choice(cause="game", player="p1", kind="pay",
                    options=(CardSet(("w1", "r1")),), picked=(CardSet(("w1", "r1")),))
    back = Event.from_dict(pay.to_dict())
    assert isinstance(back, ev.Choice) and back.picked == (CardSet(("w1", "r1")),)


def test_bad_forms_are_refused() -> None:
    for data in ({"type": "fly", "cause": "game"},
                 {"type": "move", "cause": "game"},  # no verb
                 {"type": "move", "cause": "why", "detail": {"verb": "draw"}},
                 {"type": "move", "cause": "game", "detail": {"verb": 1}},
                 {"type": "move", "cause": "game", "detail": {"verb": "x", "extra": 1}},
                 {"type": "power", "cause": "game", "detail": {"amount": True, "power": 1}},
                 {"type": "move", "cause": "game", "from_zone": "p3.deck",
                  "detail": {"verb": "x"}}):
        with pytest.raises(FieldError):
            Event.from_dict(data)
    for text in ("move [game] verb=x", "#1@0 move [game] verb", "#1@0 move [game] verb=\"x",
                 "#1@0 move [game]  verb=x", "#1@0 move [game] verb=x verb=y",
                 "#1@0 shuffle [game] order=[a b]"):
        with pytest.raises(FieldError):
            Event.parse(text)


# ---------------------------------------------------------------------- the value types


def test_ability_refs_have_a_text_form_that_round_trips() -> None:
    forms = {"S1#0": AbilityRef("S1", 0), "S1#lancer": AbilityRef("S1", "lancer"),
             "B#burst": AbilityRef("B", "burst"), "A": AbilityRef("A"),
             "p1-effect": AbilityRef(player="p1"), "in-force": IN_FORCE}
    for text, ref in forms.items():
        assert str(ref) == text and AbilityRef.parse(text) == ref
    s1 = AbilityRef.parse("S1#2")
    assert (s1.card, s1.index, s1.keyword, s1.is_burst) == ("S1", 2, None, False)
    lancer = AbilityRef.parse("S1#s-lancer")
    assert (lancer.index, lancer.keyword) == (None, "s-lancer")
    assert AbilityRef.parse("B#burst").is_burst and AbilityRef.parse("B#burst").keyword is None
    for bad in ("", "#0", "S1#", "S 1", "1S#0", "S1#0#1"):
        with pytest.raises(FieldError):
            AbilityRef.parse(bad)


@given(ABILITIES)
def test_ability_refs_round_trip(ref: AbilityRef) -> None:
    assert AbilityRef.parse(str(ref)) == ref


@given(LASTING_KINDS)
def test_lasting_kinds_round_trip(kind: LastingKind) -> None:
    assert LastingKind.parse(str(kind)) == kind


def test_value_types_text_forms() -> None:
    assert str(CardSet(("w1", "r2"))) == "w1+r2" and CardSet.parse("w1+r2").labels == ("w1",
                                                                                        "r2")
    assert str(Paid("w1", "white")) == "w1:white" and Paid.parse("w1:white").colour == "white"
    assert str(LastingKind("keyword", keyword="double-crush")) == "keyword:double-crush"
    assert LastingKind.parse("cost_change:white:1,colourless:2").amounts == (
        ("white", 1), ("colourless", 2))
    assert LastingKind.parse("banish_to_trash") == LastingKind("banish_to_trash")
    for bad in (lambda: CardSet.parse("w1+"), lambda: Paid.parse("w1"),
                lambda: LastingKind.parse("cost_change:white:x")):
        with pytest.raises(FieldError):
            bad()


# ---------------------------------------------------------------------- patterns


def test_patterns_name_the_fields_as_rulings_do() -> None:
    banish = ev.Banish(cause="rule", player="p1", card="S1", from_zone=ZoneRef.of("p1", "signi1"),
                       to_zone=ZoneRef.of("p1", "trash"), source=AbilityRef("S2", 0))
    assert event_matches(EventPattern({"type": "banish", "from": "p1.signi1", "to": "p1.trash",
                                       "source": "S2#0", "cause": "rule"}), banish)
    assert not event_matches(EventPattern({"type": "banish", "to": "p1.ener"}), banish)
    check = ev.RuleCheck(cause="rule", kinds=("power", "refresh"))
    assert event_matches(EventPattern({"type": "rule_check", "kinds": ["power", "refresh"]}),
                         check)
    assert check.pattern_value("nothing") is None
    for kind in EVENT_KINDS:
        assert not set(EVENT_TYPES[kind]) & set(PATTERN_KEYS), kind


# ---------------------------------------------------------------------- the table of kinds


def _docs_table() -> str:
    text = DOCS.read_text(encoding="utf-8")
    match = re.search(r"<!-- events-table -->\n(.*?)<!-- /events-table -->", text, re.S)
    assert match, f"{DOCS} has no <!-- events-table --> block"
    return match.group(1)


def test_the_docs_table_lists_exactly_the_registered_kinds_and_fields() -> None:
    """docs/events.md holds the table :func:`events_table` makes from the registry: every
    kind, its class, its fields with their types, its meaning. Regenerate it with
    ``python -c "from judge.engine.events import events_table; print(events_table())"``."""
    table = _docs_table()
    assert table == events_table(), "docs/events.md is out of date (see this test's docstring)"
    rows = table.splitlines()[2:]
    assert [row.split("`")[1] for row in rows] == list(EVENT_KINDS)
    for row, kind in zip(rows, EVENT_KINDS, strict=True):
        cells = row.split(" | ")
        listed = re.findall(r"`(\w+)`(?: \(`\.\w+`\))?: `", cells[2])
        assert listed == list(EVENT_TYPES[kind]), kind


def test_the_docs_are_linked() -> None:
    for name in ("architecture.md", "scenario-format.md", "rules-model.md"):
        assert "events.md" in (DOCS.parent / name).read_text(encoding="utf-8"), name
