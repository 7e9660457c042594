"""Shared test set-up: Hypothesis profiles, a small DSL for rule-by-rule unit tests, and the
fixture corpus that several modules read.

Hypothesis profiles
-------------------
``ci`` is loaded when the environment variable ``CI`` is set: derandomized, no deadline and
enough examples that the property tests of ``test_properties.py`` run at least 2,000 examples
in total. ``dev`` (the default) runs far fewer. ``HYPOTHESIS_PROFILE`` overrides both.

The table DSL
-------------
A unit test reads like a ruling (in the style of XMage's card tests): lay out the zones of
each player by card label, act, then assert zones and events::

    def test_mill_refreshes(table):
        t = table("current")
        t.p1(deck=["d1"], trash=["t1"], life=["l1", "l2"])
        t.effect("p1", op("mill", count=2))
        t.assert_zones("p1", deck={"d1", "t1"}, trash=["l1"], life=["l2"])
        t.assert_events({"type": "refresh", "player": "p1"})

A card is written ``LABEL`` (a plain level-1 SIGNI), ``LABEL:card-id`` (a card of
``data/cards`` or one defined with :meth:`Table.define`) or ``PREFIX*N[:card-id]``. The
table drives the real engine (``Game``, ``actions``, ``ScriptThenBranch``): scripted answers
come from :meth:`Table.answer`; a choice nobody scripted takes its first answer.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings

from judge.corpus import Corpus, load_corpus
from judge.data import load_rulesets
from judge.engine import actions
from judge.engine.cards import FILLER, CardDef, Op, parse_card, parse_op
from judge.engine.choices import Scripted, ScriptThenBranch
from judge.engine.events import Event
from judge.engine.game import Game
from judge.engine.state import (
    PLAYERS,
    SIGNI_ZONES,
    UNDER_ZONES,
    ZONES,
    CardInstance,
    GameState,
    ZoneRef,
)
from judge.errors import IllegalAction, ScenarioError
from judge.scenario.expect import event_matches
from judge.scenario.load import card_library
from judge.scenario.model import EventPattern

pytest_plugins = ["pytester"]

# ---------------------------------------------------------------------- Hypothesis profiles

#: Examples per property test under the ``ci`` profile. test_properties.py has four property
#: tests, so CI runs 4 * 550 = 2,200 examples (at least 2,000 are required).
CI_EXAMPLES = 550
DEV_EXAMPLES = 60

_COMMON: dict[str, Any] = {
    "deadline": None,
    "suppress_health_check": [HealthCheck.too_slow, HealthCheck.data_too_large,
                              HealthCheck.filter_too_much],
}
settings.register_profile("ci", max_examples=CI_EXAMPLES, derandomize=True, database=None,
                          print_blob=True, **_COMMON)
settings.register_profile("dev", max_examples=DEV_EXAMPLES, **_COMMON)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE")
                      or ("ci" if os.environ.get("CI") else "dev"))


def load_error(text: str, path: str = "x.toml") -> str:
    """The message of the error loading ``text`` (as the file ``path``) gives: the tests of
    bad input check it names the field; here, that it is one line."""
    from judge.scenario.load import load_text

    with pytest.raises(ScenarioError) as info:
        load_text(text, path)
    message = str(info.value)
    assert "\n" not in message
    return message


# ---------------------------------------------------------------------- the table DSL


def op(name: str, **fields: Any) -> Op:
    """One operation, validated by the same parser the ruling files use."""
    return parse_op({"op": name, **fields}, f"test op {name}")


def expand(spec: str) -> list[tuple[str, str]]:
    """``LABEL``, ``LABEL:card-id`` or ``PREFIX*N[:card-id]`` -> [(label, card id)]."""
    label, _, card_id = spec.partition(":")
    card_id = card_id or "filler"
    if "*" in label:
        prefix, _, count = label.partition("*")
        return [(f"{prefix}{n}", card_id) for n in range(1, int(count) + 1)]
    return [(label, card_id)]


class Table:
    """A game laid out by hand, then played through the engine's actions."""

    def __init__(self, rules: str = "current", *, turn: int = 3, turn_player: str = "p1",
                 first_player: str | None = None, phase: str = "main", seed: int = 0) -> None:
        self.rules = load_rulesets()[rules]
        self.state = GameState.empty()
        self.state.turn = turn
        self.state.turn_player = turn_player
        if first_player is None:  # consistent with the turn number unless told otherwise
            first_player = turn_player if turn % 2 == 1 else \
                ("p2" if turn_player == "p1" else "p1")
        self.state.first_player = first_player
        self.state.phase = phase
        self.script: list[Scripted] = []
        self.chooser = ScriptThenBranch(self.script)
        self.game = Game(self.state, self.rules, self.chooser, seed=seed)
        self.defs: dict[str, CardDef] = {}

    # ------------------------------------------------------------------ set-up

    def define(self, card_id: str, **fields: Any) -> Table:
        """A card for this test only (the fields of a ``[cards.ID]`` table)."""
        self.defs[card_id] = parse_card(card_id, fields, f"cards.{card_id}")
        return self

    def card_def(self, card_id: str) -> CardDef:
        if card_id in self.defs:
            return self.defs[card_id]
        if card_id == "filler":
            return FILLER
        return card_library()[card_id]

    def put(self, player: str, zone: str, *specs: str, attach: str = "", down: bool = False,
            frozen: bool = False, crushed: bool = False) -> Table:
        """Put cards at the bottom (the end) of a zone of ``player``."""
        assert zone in ZONES, f"unknown zone {zone}"
        for spec in specs:
            for label, card_id in expand(spec):
                inst = CardInstance(label=label, card=self.card_def(card_id), owner=player,
                                    zone=ZoneRef(player, zone), down=down, frozen=frozen,
                                    face_down=zone in ("deck", "life") or attach == "charm",
                                    crushed=crushed, attach=attach)
                if zone in UNDER_ZONES.values():
                    signi_zone = zone.replace("under", "signi")
                    holder = self.state.zone(player, signi_zone)
                    assert holder, f"put a SIGNI into {signi_zone} before {zone}"
                    inst.attach = attach or "under"
                    self.game.attached_to[label] = (holder[0].label, holder[0].epoch)
                if crushed and card_id != "filler" and inst.card.has_burst:
                    inst.burst = "pending"
                self.state.add(inst)
        return self

    def _zones(self, player: str, zones: dict[str, str | Iterable[str]]) -> Table:
        for zone, specs in zones.items():
            self.put(player, zone, *([specs] if isinstance(specs, str) else specs))
        return self

    def p1(self, **zones: str | Iterable[str]) -> Table:
        return self._zones("p1", zones)

    def p2(self, **zones: str | Iterable[str]) -> Table:
        return self._zones("p2", zones)

    def refreshed(self, player: str, count: int) -> Table:
        """Refreshes ``player`` already made this turn."""
        self.state.players[player].refreshes = count
        return self

    def answer(self, player: str | None, kind: str | None, *pick: str) -> Table:
        """Script the next answer (in order), as a ``[[choices]]`` block would."""
        self.script.append(Scripted(pick=tuple(pick), player=player, kind=kind,
                                    where=f"test answer {len(self.script) + 1}"))
        return self

    # ------------------------------------------------------------------ actions

    def effect(self, player: str, *ops: Op, source: str | None = None) -> Table:
        actions.effect(self.game, player, tuple(ops), source)
        return self

    def settle(self) -> Table:
        """Rule processing, Life Bursts and triggers, as after any action."""
        self.game.settle()
        return self

    def advance(self, to: str | None = None) -> Table:
        actions.advance(self.game, to)
        return self

    def use(self, label: str) -> Table:
        actions.use(self.game, label)
        return self

    def activate(self, label: str, ability: int = 0) -> Table:
        actions.activate(self.game, label, ability)
        return self

    def play(self, label: str, zone: str | None = None) -> Table:
        actions.play(self.game, label, zone)
        return self

    def grow(self, label: str) -> Table:
        actions.grow(self.game, label)
        return self

    def remove(self, *labels: str) -> Table:
        """Remove these SIGNI at once."""
        actions.remove(self.game, labels)
        return self

    def crush(self, player: str, count: int = 1) -> Table:
        actions.crush(self.game, player, count)
        return self

    def damage(self, player: str) -> Table:
        actions.damage(self.game, player)
        return self

    def pass_arts(self, player: str) -> Table:
        actions.pass_arts(self.game, player)
        return self

    def ener(self, label: str) -> Table:
        actions.ener(self.game, label)
        return self

    def attack(self, label: str) -> Table:
        actions.attack(self.game, label)
        return self

    def start_game(self, first: str) -> Table:
        actions.start_game(self.game, first)
        return self

    def redraw(self, player: str, *labels: str) -> Table:
        actions.redraw(self.game, player, labels)
        return self

    def illegal(self, reason: str, action: str, *args: Any) -> IllegalAction:
        """The action must be refused for ``reason`` and change nothing."""
        before = self.state.snapshot()
        with pytest.raises(IllegalAction) as info:
            getattr(self, action)(*args)
        assert info.value.reason == reason, str(info.value)
        assert self.state.snapshot() == before
        return info.value

    # ------------------------------------------------------------------ assertions

    def zone(self, player: str, zone: str) -> list[str]:
        return [c.label for c in self.state.zone(player, zone)]

    def assert_zones(self, player: str, **zones: Any) -> Table:
        """A list compares in order, a set in any order, an int is a card count."""
        problems = []
        for zone, want in zones.items():
            got = self.zone(player, zone)
            if isinstance(want, int):
                ok = len(got) == want
            elif isinstance(want, set | frozenset):
                ok = sorted(got) == sorted(want) and len(got) == len(want)
            else:
                ok = got == list(want)
            if not ok:
                problems.append(f"{player}.{zone}: expected {want!r}, got {got!r}")
        assert not problems, "\n".join(problems + [self.trace()])
        return self

    def events(self, **fields: Any) -> list[Event]:
        """Events matching a ruling-style pattern (``type``, ``cause``, ``from``, ...)."""
        pattern = EventPattern(fields)
        return [e for e in self.game.log if event_matches(pattern, e)]

    def assert_events(self, *patterns: dict[str, Any]) -> Table:
        """The patterns occur in this order (other events may come between them)."""
        at = 0
        log = self.game.log
        for pattern in patterns:
            ep = EventPattern(pattern)
            while at < len(log) and not event_matches(ep, log[at]):
                at += 1
            assert at < len(log), f"no event {pattern} after the previous ones\n{self.trace()}"
            at += 1
        return self

    def assert_no_event(self, **fields: Any) -> Table:
        hits = self.events(**fields)
        assert not hits, f"unexpected {hits[0]}\n{self.trace()}"
        return self

    def index(self, **fields: Any) -> int:
        """Position in the log of the first event matching the pattern."""
        hits = self.events(**fields)
        assert hits, f"no event {fields}\n{self.trace()}"
        return self.game.log.index(hits[0])

    def trace(self) -> str:
        return "event log:\n" + "\n".join(f"  {e}" for e in self.game.log)


#: The three-ruling corpus of test_coverage, test_db and test_search, and its rulings' ids.
FX_CORPUS = Path(__file__).parent / "fixtures" / "corpus"
MILL, POWER, STEPS = "fx-mill-refresh", "fx-power-zero", "fx-attack-steps"


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    """:data:`FX_CORPUS` loaded and replayed, once for the session (it is only read)."""
    return load_corpus(FX_CORPUS)


#: Debian's Chromium, which Playwright drives for the browser tests (``playwright install`` is
#: never used), and its flags.
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--no-first-run"]


def unavailable(reason: str) -> None:
    """Skip, or fail when CI is set (CI installs Chromium: a skip there would hide a gap)."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason}; CI must run the browser tests (.ci/run installs Chromium)",
                    pytrace=False)
    pytest.skip(reason)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One headless Chromium for the session, shared by every browser test module (a second
    Playwright in the same process would refuse to start)."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        unavailable("the playwright package is not installed (pip install -e '.[test]')")
    if not CHROMIUM.exists():
        unavailable(f"Chromium is not installed at {CHROMIUM} (apt-get install chromium)")
    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                              args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@contextmanager
def watched_tab(browser: Any, timeout_ms: int, **options: Any) -> Iterator[Any]:
    """A tab in a browser context of its own (``options`` as ``Browser.new_context`` takes
    them), closed afterwards; the test fails if a script of its pages threw."""
    context = browser.new_context(**options)
    context.set_default_timeout(timeout_ms)
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    yield tab
    context.close()
    assert not errors, f"script errors on the page: {errors}"


@pytest.fixture
def table() -> type[Table]:
    """The :class:`Table` class: ``t = table("2014-04", turn=3)``."""
    return Table


__all__ = ["Table", "op", "expand", "PLAYERS", "SIGNI_ZONES"]
