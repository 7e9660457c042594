"""The validated form of a ruling: frozen values the runner and the site read."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from judge.engine.cards import CardDef, Op
from judge.engine.choices import Scripted
from judge.langs import LANGS as LANGS  # defined once, in judge.langs
from judge.langs import TEXT_FIELDS as TEXT_FIELDS

AUTHORITIES = ("official", "official-quoted", "community", "interpretation")


@dataclass(frozen=True)
class Source:
    title: str
    date: str
    authority: str
    url: str = ""
    seed: str = ""


@dataclass(frozen=True)
class Placement:
    """One card instance of the set-up."""

    player: str
    zone: str
    label: str
    card: str
    down: bool = False
    frozen: bool = False
    attach: str = ""  # for cards under a SIGNI: charm, accessory or under
    crushed: bool = False


@dataclass(frozen=True)
class Setup:
    turn: int = 1
    turn_player: str = "p1"
    first_player: str = "p1"
    phase: str = "main"
    seed: int | None = None
    refreshes: dict[str, int] = field(default_factory=dict)
    placements: tuple[Placement, ...] = ()
    in_force: tuple[tuple[str, Op], ...] = ()  # (player, op) applied before the steps
    attack_step: str = ""
    arts_priority: str = ""
    ener_done: bool = False
    grown: bool = False
    redrawn: tuple[str, ...] = ()


@dataclass(frozen=True)
class Step:
    index: int
    action: str
    player: str = "p1"
    ops: tuple[Op, ...] = ()
    source: str | None = None
    card: str | None = None
    zone: str | None = None
    to: str | None = None
    count: int = 1
    ability: int = 0
    expect_illegal: str | None = None
    #: the rule sets under which expect_illegal holds (empty: every rule set of the ruling)
    illegal_rules: tuple[str, ...] = ()
    line: int = 0
    first: str | None = None
    cards: tuple[str, ...] = ()


@dataclass(frozen=True)
class ZonePattern:
    """``list`` (in order for the ordered zones: main deck, life cloth, LRIG stacks; any order
    elsewhere), ``exact`` (in order), ``same`` (any order), ``count``, ``contains``, ``lacks``.
    A shuffled zone compares in any order unless the scenario fixes the seed."""

    mode: str
    cards: tuple[str, ...] = ()
    count: int | None = None


@dataclass(frozen=True)
class StatePattern:
    zones: dict[str, ZonePattern] = field(default_factory=dict)  # "p1.trash" -> pattern
    phase: str | None = None
    attack_step: str | None = None
    turn: int | None = None
    turn_player: str | None = None
    winner: str | None = None  # "p1", "p2" or "none"
    win_reason: str | None = None
    power: dict[str, int] = field(default_factory=dict)
    level: dict[str, int] = field(default_factory=dict)
    limit: dict[str, int] = field(default_factory=dict)
    refreshes: dict[str, int] = field(default_factory=dict)
    down: dict[str, bool] = field(default_factory=dict)  # label -> downed (true) or up
    frozen: dict[str, bool] = field(default_factory=dict)


@dataclass(frozen=True)
class EventPattern:
    fields: dict[str, Any]

    def __str__(self) -> str:
        return "{" + ", ".join(f"{k}={v!r}" for k, v in self.fields.items()) + "}"


@dataclass(frozen=True)
class Outcome:
    #: the name in reports (``judge check``): the English name if the ruling gives one
    name: str
    state: StatePattern
    #: the name per language, when the ruling gives a table (``name = { ja = ..., ... }``)
    names: dict[str, str] = field(default_factory=dict, compare=False, hash=False)

    def title(self, lang: str) -> tuple[str, str | None]:
        """The name to show in ``lang`` and, when it is a fallback, the language it is in:
        the name in ``lang``, else the Japanese one (a table always has it); a plain string
        serves every language."""
        if not self.names:
            return self.name, None
        if self.names.get(lang):
            return self.names[lang], None
        return self.names.get("ja", self.name), "ja"


@dataclass(frozen=True)
class Expectation:
    rules: tuple[str, ...]
    state: StatePattern
    sequence: tuple[EventPattern, ...] = ()
    subsequence: tuple[EventPattern, ...] = ()
    absent: tuple[EventPattern, ...] = ()
    outcomes: tuple[Outcome, ...] = ()
    line: int = 0


@dataclass(frozen=True)
class Scenario:
    path: str
    id: str
    rulesets: tuple[str, ...]
    texts: dict[str, dict[str, str]]  # field -> lang -> Markdown
    tags: tuple[str, ...]
    terms: tuple[str, ...]
    sources: tuple[Source, ...]
    cards: dict[str, CardDef]
    setup: Setup
    steps: tuple[Step, ...]
    choices: tuple[Scripted, ...]
    expectations: tuple[Expectation, ...]
    explore_limit: int = 256
    related: tuple[str, ...] = ()
    id_line: int = 1  # where ``id`` is written, for errors found across files
    related_line: int = 1  # where ``related`` is written

    def expectations_for(self, rules: str) -> list[Expectation]:
        return [e for e in self.expectations if rules in e.rules]
