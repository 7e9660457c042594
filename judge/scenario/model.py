"""The validated form of a ruling: frozen values the runner and the site read.

The line numbers of a ruling's steps and expectations (and of its ``id`` and ``related``) are
only shown in reports of failures, so they are looked up in the file's
:class:`~judge.scenario.locate.LineIndex` when they are read: a ruling that passes is never
scanned for them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import Any, TypeVar

from judge.engine.cards import CardDef, Op
from judge.engine.choices import Scripted
from judge.errors import FormatWarning
from judge.langs import LANGS as LANGS  # defined once, in judge.langs
from judge.langs import TEXT_FIELDS as TEXT_FIELDS
from judge.scenario.locate import LineIndex
from judge.sources import Citation as Citation  # a ruling cites the registry's documents


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
    #: a token ARTS that an operation of the ruling makes (not laid out in the set-up)
    token: bool = False


_new = object.__new__


def placement(player: str, zone: str, label: str, card: str, down: bool = False,
              frozen: bool = False, attach: str = "", crushed: bool = False,
              token: bool = False) -> Placement:
    """``Placement(player, zone, label, card, down, frozen, attach, crushed, token)``, the
    same object made without the frozen ``__init__``'s ``object.__setattr__`` per field (the
    loader makes thousands per run; tests/test_model_makers.py keeps the two the same)."""
    obj = _new(Placement)
    obj.__dict__.update(player=player, zone=zone, label=label, card=card, down=down,
                        frozen=frozen, attach=attach, crushed=crushed, token=token)
    return obj


@dataclass(frozen=True)
class Setup:
    """The position a ruling starts from: turn, phase, players' cards, effects in force."""

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
    #: the turn player has removed SIGNI this turn already
    removed: bool = False
    redrawn: tuple[str, ...] = ()
    #: the format (judge.engine.formats): all-star, key-selection or diva-selection
    format: str = "all-star"
    #: BET coins each player has
    coins: dict[str, int] = field(default_factory=dict)
    #: player -> marker kind -> the SIGNI zones holding one (judge/engine/mechanics/markers.py)
    markers: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    #: each player's registration count (judge/engine/mechanics/registrations.py)
    registrations: dict[str, int] = field(default_factory=dict)


@dataclass(frozen=True)
class Step:
    """One action of a ruling's ``[[steps]]`` (``index`` counts from 1)."""

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
    first: str | None = None
    cards: tuple[str, ...] = ()
    #: the ruling file's line index (None: a step not read from a file)
    lines: LineIndex | None = field(default=None, compare=False, repr=False)

    @property
    def line(self) -> int:
        """The line of the step's ``[[steps]]`` table in the ruling file (0 when unknown)."""
        return 0 if self.lines is None else self.lines.line(f"steps[{self.index - 1}]")


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
    """What a ruling expects of the state: zones, phase, turn, winner, numbers, flags."""

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
    coins: dict[str, int] = field(default_factory=dict)  # player -> BET coins
    #: player -> (labels that player may look at, labels that player may not look at)
    visible: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    #: label -> every keyword that SIGNI on the field has (printed and given)
    keywords: dict[str, frozenset[str]] = field(default_factory=dict)
    lost: dict[str, bool] = field(default_factory=dict)  # label -> lost its abilities
    crossed: dict[str, bool] = field(default_factory=dict)  # label -> in a cross state
    #: player -> marker kind -> the SIGNI zones that hold one, exactly
    markers: dict[str, dict[str, tuple[str, ...]]] = field(default_factory=dict)
    registrations: dict[str, int] = field(default_factory=dict)  # player -> count


@dataclass(frozen=True)
class EventPattern:
    """An expected event: the fields it must have (``{type = "refresh"}``)."""

    fields: dict[str, Any]

    def __str__(self) -> str:
        return "{" + ", ".join(f"{k}={v!r}" for k, v in self.fields.items()) + "}"


@dataclass(frozen=True)
class Outcome:
    """One of the outcomes every explored branch must reach one of."""

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
    """One ``[[expect]]`` block: the rule sets it covers and what it expects."""

    rules: tuple[str, ...]
    state: StatePattern
    sequence: tuple[EventPattern, ...] = ()
    subsequence: tuple[EventPattern, ...] = ()
    absent: tuple[EventPattern, ...] = ()
    outcomes: tuple[Outcome, ...] = ()
    #: the field path of the block (``expect[1]``) and the ruling file's line index
    where: str = field(default="", compare=False)
    lines: LineIndex | None = field(default=None, compare=False, repr=False)

    @property
    def line(self) -> int:
        """The line of the ``[[expect]]`` block in the ruling file (0 when unknown)."""
        return 0 if self.lines is None else self.lines.line(self.where)


@dataclass(frozen=True)
class Scenario:
    """A validated ruling: texts, citations of the source registry (``data/sources.toml``),
    cards, set-up, steps, choices, expectations."""

    path: str
    id: str
    rulesets: tuple[str, ...]
    texts: dict[str, dict[str, str]]  # field -> lang -> Markdown
    tags: tuple[str, ...]
    terms: tuple[str, ...]
    sources: tuple[Citation, ...]
    cards: dict[str, CardDef]
    setup: Setup
    steps: tuple[Step, ...]
    choices: tuple[Scripted, ...]
    expectations: tuple[Expectation, ...]
    explore_limit: int = 256
    related: tuple[str, ...] = ()
    #: the ruling file's line index (None: a scenario not read from a file)
    lines: LineIndex | None = field(default=None, compare=False, repr=False)
    #: the format the file was written for: the one it declares (``format_version``), or for
    #: a file without it the latest its content allows (judge.scenario.versions)
    format: int = 0
    #: what the file should change, which did not stop it from loading (judge check shows
    #: them; never a failure)
    warnings: tuple[FormatWarning, ...] = field(default=(), compare=False)

    @property
    def id_line(self) -> int:
        """Where ``id`` is written, for errors found across files (1 when unknown)."""
        return 1 if self.lines is None else self.lines.line("id")

    @property
    def related_line(self) -> int:
        """Where ``related`` is written (1 when unknown)."""
        return 1 if self.lines is None else self.lines.line("related")

    def expectations_for(self, rules: str) -> list[Expectation]:
        return [e for e in self.expectations if rules in e.rules]


_T = TypeVar("_T")


def maker(cls: type[_T]) -> Callable[..., _T]:
    """A function that makes ``cls(**values)`` of a frozen dataclass given every field by
    name, the same object (fields in their order) made without the frozen ``__init__``'s
    ``object.__setattr__`` per field; a field left out is a KeyError, not its default
    (tests/test_model_makers.py)."""
    names = tuple(f.name for f in fields(cls))  # type: ignore[arg-type]

    def make(**values: Any) -> _T:
        obj = _new(cls)
        obj.__dict__.update({name: values[name] for name in names})
        return obj
    return make


make_setup = maker(Setup)
make_step = maker(Step)
make_state = maker(StatePattern)
make_expectation = maker(Expectation)
make_scenario = maker(Scenario)
