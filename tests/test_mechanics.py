"""Mechanics and kinds of rule processing, each declared once; the engine's shape.

- Every mechanic module and every kind of rule processing declares its glossary term, its
  message ids and its source, and the readers (loader, narration, coverage) use those
  declarations.
- A keyword declared here, in the test, is registered and then works end to end: the loader
  accepts it in a ruling written with :func:`judge.scenario.load.load_text`, the engine plays
  its triggered ability in :func:`judge.scenario.run.replay`, coverage maps its events to its
  term and narration names it and tells its moves, with no other file edited
  (docs/architecture.md walks through the same example).
- The engine's import graph has no cycle and no import inside a function; the engine reads no
  files; the scenario runner and the random driver share one action dispatch; the languages,
  text fields and term maps are defined once.
"""

from __future__ import annotations

import ast
import dataclasses
import random
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from conftest import Table

from judge import i18n, langs
from judge.coverage import event_terms, term_maps
from judge.data import load_glossary, load_rulesets
from judge.engine import actions, driver, mechanics, state
from judge.engine import events as ev
from judge.engine.cards import Ability, Op, parse_card
from judge.engine.events import (
    EVENT_KINDS,
    EVENT_TYPES,
    AbilityRef,
    Event,
    event_kind,
    events_table,
    register_kind,
    unregister_kind,
)
from judge.engine.game import Game
from judge.engine.mechanics import Mechanic, builtin
from judge.engine.rule_processing import KINDS, TABLE
from judge.errors import FieldError, JudgeError
from judge.i18n import catalog
from judge.langs import NP_
from judge.narrate import (
    ATTACK_STEP_TERMS,
    PHASE_TERMS,
    Narrator,
    all_message_ids,
    messages,
    plural_pairs,
    scenario_cards,
)
from judge.scenario import model
from judge.scenario.expect import check_replay, event_matches
from judge.scenario.load import load_text
from judge.scenario.run import replay
from judge.site import status
from judge.sources import load_sources, parse_citation

ENGINE = Path(__file__).resolve().parent.parent / "judge" / "engine"
#: A source citation: a title and a date (a year at least, or "undated" for the one seed that
#: has none), as the docstrings cite them.
CITATION = re.compile(r'"[^"]+"[^"]*?(\b(19|20)\d\d\b|undated)')


# ====================================================================== the declarations


def test_every_mechanic_module_is_registered() -> None:
    """Every module of the package registers (a new one needs no line anywhere else)."""
    assert {"accessory", "assassin", "charm", "crushes", "exceed", "guard", "lancer",
            "multi_ener", "s_lancer"} <= set(builtin.MODULES)
    assert builtin.MODULES == tuple(sorted(p.stem for p in (ENGINE / "mechanics").glob("*.py")
                                           if p.stem not in ("__init__", "builtin")))
    assert {"accessory", "assassin", "charm", "double-crush", "triple-crush", "exceed", "guard",
            "lancer", "multi-ener", "s-lancer"} <= {m.id for m in mechanics.all_mechanics()}
    # the keywords a card may list: every mechanic but those that are not keywords (the Guard
    # icon, the Exceed cost part)
    assert set(mechanics.keyword_ids()) == {m.id for m in mechanics.all_mechanics()
                                            if m.keyword}
    assert not ({"guard", "exceed"} & set(mechanics.keyword_ids()))


@pytest.mark.parametrize("module", builtin.MODULES)
def test_a_mechanic_module_states_its_rule_hook_and_sources(module: str) -> None:
    text = (ENGINE / "mechanics" / f"{module}.py").read_text(encoding="utf-8")
    doc = ast.get_docstring(ast.parse(text)) or ""
    assert "Rule:" in doc and ("Hook:" in doc or "Hooks:" in doc), module
    assert re.search(r"Sources?:", doc) and CITATION.search(doc), module


def test_declared_terms_and_messages_are_in_the_glossary_and_the_catalogues() -> None:
    glossary = load_glossary()
    for mechanic in mechanics.all_mechanics():
        assert mechanic.term in glossary, mechanic.id
        # a citation of the source registry (data/sources.toml), section and all
        assert parse_citation(mechanic.source, mechanic.id, load_sources()).section, mechanic.id
        assert set(mechanic.events) <= set(EVENT_KINDS), mechanic.id
        for msgid in (*mechanic.events.values(), *mechanic.choices.values(),
                      *mechanic.cost_parts.values(), *(p[0] for p in mechanic.verbs.values())):
            assert msgid in all_message_ids(), (mechanic.id, msgid)
            for lang in langs.LANGS:
                assert catalog(lang).get(msgid) is not None, (lang, msgid)
        assert set(mechanic.verbs.values()) <= set(plural_pairs())


def test_each_kind_of_rule_processing_is_one_module_in_one_table() -> None:
    assert [k.number for k in TABLE] == list(range(1, 11))
    assert list(KINDS) == [k.id for k in TABLE]
    glossary = load_glossary()
    modules = sorted(p.stem for p in (ENGINE / "rule_processing").glob("*.py")
                     if p.stem not in ("__init__", "base"))
    assert len(modules) == len(TABLE)
    for kind in TABLE:
        assert kind.term is None or kind.term in glossary, kind.id
        assert kind.source == f"glossary-rule-processing#kind-{kind.number}", kind.id
        assert parse_citation(kind.source, kind.id, load_sources()), kind.id
        for lang in langs.LANGS:
            assert catalog(lang).get(kind.name) is not None, (lang, kind.name)
            assert catalog(lang).get(kind.description) is not None, (lang, kind.description)
    for module in modules:
        text = (ENGINE / "rule_processing" / f"{module}.py").read_text(encoding="utf-8")
        doc = ast.get_docstring(ast.parse(text)) or ""
        assert re.match(r"Kind \d+, ``\w+``", doc), module
        assert "Rule:" in doc and CITATION.search(doc), module
    assert {kind.choice for kind in TABLE if kind.choice} == {"excess", "over_limit"}


def test_the_readers_take_the_declarations() -> None:
    maps = term_maps()
    for kind in TABLE:
        assert maps["rule processing kind"].get(kind.id) == ((kind.term,) if kind.term else None)
    assert maps["keyword ability"] == {"lancer": ("lancer",), "s-lancer": ("s-lancer",)}
    assert maps["event type"]["guard"] == ("guard",)
    assert set(maps["move verb"]["exceed"]) == {"cost", "exceed"}
    assert maps["move verb"]["charm"] == ("charm",)
    assert messages().keyword_terms["double-crush"] == "double-crush"
    assert messages().cost_parts == {"exceed": "Exceed %(count)s",
                                     "remove_virus": "remove viruses (%(count)s)"}
    # the term maps of zones, phases and steps are the engine's, in narration and coverage
    assert PHASE_TERMS is state.PHASE_TERMS and ATTACK_STEP_TERMS is state.ATTACK_STEP_TERMS
    assert maps["zone"] == {z: (t,) for z, t in state.ZONE_TERMS.items()}
    assert maps["attack step"] == {s: (t,) for s, t in state.ATTACK_STEP_TERMS.items()}


def test_the_languages_and_text_fields_are_defined_once() -> None:
    assert i18n.LANGS is langs.LANGS and model.LANGS is langs.LANGS
    assert model.TEXT_FIELDS is langs.TEXT_FIELDS
    assert vars(status)["TEXT_FIELDS"] is langs.TEXT_FIELDS
    assert i18n.N_ is langs.N_ and i18n.NP_ is langs.NP_
    for path in ENGINE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?m)^\w*LANGS\s*[:=]", text), path


# ====================================================================== a keyword from a test

#: "Rally" (test only): when this SIGNI attacks, its player draws a card. Declared as a
#: mechanic module declares one: its term, its source, its hook (a triggered keyword ability)
#: and the message of a move verb.
RALLY = Mechanic(
    id="test-rally", term="test-rally", source='tests/test_mechanics.py "Rally" (2025)',
    ability=Ability("auto", (Op("draw", count=1),), trigger="attacks", keyword="test-rally"),
    verbs={"test-rally": NP_("%(card)s rallies from %(from)s to %(to)s.",
                             "%(card)s rally from %(from)s to %(to)s.")},
)
RALLY_NAMES = {"test-rally": {"ja": "ラリー", "en": "Rally", "zh-Hans": "集结"}}

RALLY_RULING = """
id = "test-rally-draws-when-its-signi-attacks"
rulesets = ["2014-09", "current"]

[title]
ja = "【ラリー】を持つシグニがアタックすると、カードを1枚引く"
en = "A SIGNI with Rally draws a card when it attacks"
zh-Hans = "持有【集结】的精灵攻击时抽1张牌"

[cards.rally-5000]
name = { ja = "【ラリー】を持つシグニ", en = "SIGNI with Rally", zh-Hans = "持有【集结】的精灵" }
type = "signi"
colour = "red"
level = 2
power = 5000
keywords = ["test-rally"]

[setup]
turn = 3
turn_player = "p1"
first_player = "p1"
phase = "attack"
attack_step = "signi"

[setup.p1]
deck = ["d1", "d2"]
life = ["l*3"]
lrig = ["L:lrig-red-4"]
signi1 = "S1:rally-5000"

[setup.p2]
deck = ["e*3"]
life = ["m*3"]
lrig = ["M:lrig-white-4"]

[[steps]]
action = "attack"
card = "S1"

[[expect]]
[expect.zones.p1]
hand = ["d1"]
deck = ["d2"]
[expect.zones.p2]
life = ["m2", "m3"]
[expect.events]
subsequence = [
  { type = "attack", card = "S1" },
  { type = "trigger", card = "S1", ability = "S1#test-rally", trigger = "attacks" },
  { type = "move", card = "d1", verb = "draw" },
  { type = "move", card = "m1", verb = "crush" },
]
"""


@pytest.fixture
def rally() -> Iterator[Mechanic]:
    with mechanics.registered(RALLY):
        yield RALLY


def test_an_unregistered_keyword_is_refused() -> None:
    with pytest.raises(JudgeError, match="test-rally") as info:
        load_text(RALLY_RULING)
    assert "lancer" in str(info.value)  # the valid keywords are listed


def test_a_keyword_declared_in_a_test_works_end_to_end(rally: Mechanic) -> None:
    scenario = load_text(RALLY_RULING)
    assert "test-rally" in mechanics.keyword_ids()
    for rules in scenario.rulesets:
        rep = replay(scenario, rules)
        assert check_replay(scenario, rep) == [], rules
    events = replay(scenario, "current").events
    trigger = next(e for e in events if e.type == "trigger")
    # coverage: the keyword ability's trigger exercises the mechanic's term
    assert "test-rally" in set().union(*(event_terms(e) for e in events))
    assert event_terms(trigger) == {"triggered-ability", "test-rally"}
    # narration: the ability is named by the mechanic's glossary term, in every language
    cards = scenario_cards(scenario)
    for lang, name in RALLY_NAMES["test-rally"].items():
        text = Narrator(lang, cards, glossary=RALLY_NAMES).event(trigger)
        assert name in text, (lang, text)
    assert Narrator("en", cards, glossary=RALLY_NAMES).event(trigger) == \
        "The Rally of S1 (when it attacks) triggers and waits to resolve."
    # a move with the mechanic's verb is told with its message and maps to its term
    move = ev.Move(seq=9, step=1, cause="effect", player="p1", card="d2",
                   from_zone=state.ZoneRef.parse("p1.deck"),
                   to_zone=state.ZoneRef.parse("p1.ener"), verb="test-rally")
    assert Narrator("en", {}).event(move) == \
        "d2 rallies from Player 1's main deck to their Ener Zone."
    assert "test-rally" in event_terms(move)
    # the catalogue test now asks for its translations (adding a keyword touches them)
    assert "%(card)s rallies from %(from)s to %(to)s." in all_message_ids()


def test_a_removed_keyword_leaves_no_trace(rally: Mechanic) -> None:
    """The readers derive what they know from the registry as it is now."""
    trigger = ev.Trigger(seq=1, step=1, cause="game", player="p1", card="S1",
                         ability=AbilityRef.parse("S1#test-rally"), trigger="attacks")
    assert "test-rally" in event_terms(trigger)
    mechanics.unregister("test-rally")
    try:
        assert event_terms(trigger) == {"triggered-ability"}
        assert Narrator("en", {}, glossary=RALLY_NAMES).event(trigger).startswith(
            "The ability of S1")
        with pytest.raises(FieldError):
            parse_card("x", {"type": "signi", "level": 1, "power": 1000,
                             "keywords": ["test-rally"]}, "cards.x")
    finally:
        mechanics.register(RALLY)


#: "Cheer" (test only): a mechanic that logs an event of a kind of its own, declared in its
#: module (here, in the test) with ``event_kind``, with the message of that event.
CHEER = Mechanic(id="test-cheer", term="test-rally", source='tests/test_mechanics.py "Cheer" '
                 "(2025)", keyword=False,
                 events={"test_cheer": "The crowd cheers %(card)s (%(loudness)s)."})


def test_a_mechanic_declares_an_event_kind_of_its_own(rally: Mechanic) -> None:
    """The kind is registered where it is declared: the JSON and text forms, the loader's
    patterns, expectations, narration (with the mechanic's message), coverage (the mechanic's
    term) and docs/events.md's table all know it; once removed, nothing reads it back."""

    @event_kind("test_cheer")
    class Cheer(Event):
        """The crowd cheers a SIGNI (test only)."""

        loudness: int
        cheered: AbilityRef

    try:
        with mechanics.registered(CHEER):
            assert EVENT_KINDS["test_cheer"] is Cheer
            assert EVENT_TYPES["test_cheer"] == ("loudness", "cheered")
            assert "| `test_cheer` |" in events_table()
            game = Table("current").p1(signi1="S1:signi-2").game
            cheer = game.emit(Cheer, cause="game", player="p1", card="S1", loudness=3,
                              cheered=AbilityRef("S1", 0))
            assert cheer.seq == len(game.log) - 1
            assert str(cheer) == f"#{cheer.seq}@0 test_cheer [game] player=p1 card=S1 " \
                                 "loudness=3 cheered=S1#0"
            assert Event.parse(str(cheer)) == cheer
            assert Event.from_json(cheer.to_json()) == cheer
            assert cheer.detail() == {"loudness": 3, "cheered": "S1#0"}
            pattern = model.EventPattern({"type": "test_cheer", "cheered": "S1#0"})
            assert event_matches(pattern, cheer)
            assert Narrator("en", {}).event(cheer) == "The crowd cheers S1 (3)."
            assert event_terms(cheer) == {"test-rally"}
            # the loader takes patterns of the new kind, with its fields
            ruling = RALLY_RULING + 'absent = [{ type = "test_cheer", loudness = 3 }]\n'
            scenario = load_text(ruling)
            assert check_replay(scenario, replay(scenario, "current")) == []
    finally:
        unregister_kind("test_cheer")
    assert "test_cheer" not in EVENT_KINDS and "test_cheer" not in events_table()
    with pytest.raises(FieldError, match="unknown event type"):
        Event.from_dict(cheer.to_dict())
    with pytest.raises(JudgeError, match="test_cheer"):
        load_text(ruling)


def test_an_event_kind_is_registered_once() -> None:
    with pytest.raises(ValueError, match="twice"):
        register_kind(ev.Move, "move")
    with pytest.raises(ValueError, match="taken"):

        @event_kind("test_bad")
        class Bad(Event):
            """A field named as a pattern names the fields every event has."""

            source_zone: str = dataclasses.field(metadata={"key": "from"})
    assert "test_bad" not in EVENT_KINDS


def test_a_mechanic_is_registered_once() -> None:
    with pytest.raises(ValueError, match="twice"):
        mechanics.register(mechanics.get("lancer") or RALLY)


# ====================================================================== the engine's shape


def _imports(path: Path) -> tuple[list[str], list[str]]:
    """The judge modules ``path`` imports when it runs (not under TYPE_CHECKING), and the
    imports it makes inside functions."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    package = ".".join(path.relative_to(ENGINE.parent.parent).with_suffix("").parts)
    runtime: list[str] = []
    nested: list[str] = []

    def names(node: ast.Import | ast.ImportFrom) -> list[str]:
        if isinstance(node, ast.Import):
            return [a.name for a in node.names]
        base = node.module or ""
        if node.level:
            base = ".".join(package.split(".")[:-node.level] + ([base] if base else []))
        return [f"{base}.{a.name}" if _is_module(f"{base}.{a.name}") else base
                for a in node.names]

    def visit(node: ast.AST, in_function: bool, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.Import | ast.ImportFrom):
                found = [n for n in names(child) if n.startswith("judge.")]
                if in_function:
                    nested.extend(found)
                elif not typing_only:
                    runtime.extend(found)
            elif isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
                visit(child, True, typing_only)
            elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                visit(child, in_function, True)
            else:
                visit(child, in_function, typing_only)

    visit(tree, False, False)
    return runtime, nested


def _is_module(name: str) -> bool:
    path = ENGINE.parent.parent.joinpath(*name.split("."))
    return path.with_suffix(".py").exists() or (path / "__init__.py").exists()


def _module_name(path: Path) -> str:
    parts = path.relative_to(ENGINE.parent.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_the_engine_imports_nothing_inside_functions_and_has_no_cycle() -> None:
    graph: dict[str, set[str]] = {}
    for path in ENGINE.rglob("*.py"):
        runtime, nested = _imports(path)
        assert not nested, f"{path}: imports inside a function: {nested}"
        graph[_module_name(path)] = {m for m in runtime if m.startswith("judge.engine")}
    assert "judge.engine.rule_processing.excess" in graph["judge.engine.rule_processing"]
    done: set[str] = set()

    def walk(node: str, path: list[str]) -> None:
        if node in path:
            raise AssertionError("import cycle: " + " -> ".join([*path[path.index(node):],
                                                               node]))
        if node in done:
            return
        for nxt in sorted(graph.get(node, ())):
            walk(nxt, [*path, node])
        done.add(node)

    for node in sorted(graph):
        walk(node, [])


def test_the_engine_reads_no_files_and_imports_no_tool() -> None:
    reading = {"open", "read_text", "read_bytes", "write_text", "iterdir", "glob"}
    for path in ENGINE.rglob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom):
                modules = [a.name for a in node.names] if isinstance(node, ast.Import) \
                    else [node.module or ""]
                for module in modules:
                    assert module.split(".")[0] not in ("os", "pathlib", "tomllib", "io"), \
                        f"{path} imports {module}"
                    assert module not in ("judge.paths", "judge.tomlfile", "judge.data",
                                          "judge.i18n"), f"{path} imports {module}"
            if isinstance(node, ast.Call):
                func = node.func
                name = func.id if isinstance(func, ast.Name) else \
                    func.attr if isinstance(func, ast.Attribute) else ""
                assert name not in reading, f"{path}:{node.lineno} calls {name}"
    code = ("import sys, judge.engine.driver, judge.engine.actions; "
            "print(sorted(m for m in sys.modules if (m == 'judge' or m.startswith('judge.')) "
            "and not m.startswith('judge.engine')))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, check=True)
    assert done.stdout.strip() == str(["judge", "judge.errors", "judge.ids", "judge.langs",
                                       "judge.limits"])


def test_the_runner_and_the_driver_share_one_dispatch(monkeypatch: pytest.MonkeyPatch) -> None:
    assert set(actions.HANDLERS) == set(actions.ACTIONS)
    seen: list[tuple[str, actions.Args]] = []

    def recorder(name: str) -> Callable[[Game, actions.Args], None]:
        return lambda game, args: seen.append((name, args))

    for name in actions.HANDLERS:
        monkeypatch.setitem(actions.HANDLERS, name, recorder(name))
    game = Game(state.GameState.empty(), next(iter(load_rulesets().values())),
                driver.RandomChooser(random.Random(0)))  # the recorders do nothing with it
    driver.perform(game, driver.Action("start_game", "p2"))
    driver.perform(game, driver.Action("play", "p1", "S1", "signi2"))
    actions.dispatch(game, "attack", card="S1")
    assert [(n, a.first, a.card, a.zone) for n, a in seen] == [
        ("start_game", "p2", None, None), ("play", None, "S1", "signi2"),
        ("attack", None, "S1", None)]
    with pytest.raises(JudgeError, match="unknown action"):
        actions.dispatch(game, "fly")
