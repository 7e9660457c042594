"""Loading rulings: TOML text -> validated :class:`Scenario`, or one located error.

Every error is a :class:`~judge.errors.ScenarioError` whose text is
``path:line: field: what is wrong (valid: ...)``.
"""

from __future__ import annotations

import copy
import re
from collections.abc import Collection, Mapping
from functools import cache, partial
from pathlib import Path
from typing import Any

from judge.data import load_rulesets
from judge.engine import eras, mechanics
from judge.engine.actions import ACTIONS, ILLEGAL_REASONS
from judge.engine.cards import LASTING_OPS, CardDef, Op, parse_card, parse_effect, parse_op
from judge.engine.choices import CHOICE_KINDS, Scripted
from judge.engine.conditions import MARKER_KINDS
from judge.engine.events import CAUSES, EVENT_TYPES
from judge.engine.formats import DEFAULT as DEFAULT_FORMAT
from judge.engine.formats import FORMATS
from judge.engine.modes import MODE_WORDS
from judge.engine.placement import op_problem, placement_problem
from judge.engine.rule_processing import KINDS as RULE_KINDS
from judge.engine.rulesets import RuleSet
from judge.engine.state import (
    ATTACK_STEPS,
    CHEER,
    GAME_PHASES,
    LRIG_STACK_ZONES,
    PHASES,
    PLAYERS,
    SEED_ZONES,
    SIGNI_ZONES,
    TRAP_ZONES,
    UNDER_ZONES,
    ZONES,
)
from judge.errors import DataError, FieldError, FormatWarning, ScenarioError, unknown_field
from judge.ids import LABEL_RULE, check_id, is_label, quote
from judge.limits import (
    MAX_BRANCHES,
    MAX_CARDS_IN_SETUP,
    MAX_CARDS_PER_ZONE,
    MAX_COUNT,
    MAX_NUMBER,
)
from judge.paths import discover as discover  # where it is defined; imported from here too
from judge.scenario.locate import LineIndex
from judge.scenario.model import (
    LANGS,
    TEXT_FIELDS,
    EventPattern,
    Expectation,
    Outcome,
    Placement,
    Scenario,
    Setup,
    StatePattern,
    Step,
    ZonePattern,
    make_expectation,
    make_scenario,
    make_setup,
    make_state,
    make_step,
)
from judge.scenario.model import placement as _placement
from judge.scenario.versions import (
    FORMAT_KEY,
    FORMAT_VERSION,
    changed_meanings,
    detect,
    findings,
    migrate_command,
    too_new,
)
from judge.scenario.walk import get
from judge.sources import (
    MARKS,
    Citation,
    Document,
    load_sources,
    mark_problem,
    parse_citations,
    registry_for,
)
from judge.texts import check_text
from judge.tomlfile import parse, read_file

TOP_FIELDS = (FORMAT_KEY, "id", "rulesets", "tags", "terms", "related", *TEXT_FIELDS,
              "sources", "cards", "setup", "steps", "choices", "expect", "explore_limit")
SETUP_FIELDS = ("turn", "turn_player", "first_player", "phase", "attack_step",
                "arts_priority", "ener_done", "grown", "removed", "redrawn", "seed", "refreshes",
                "in_force", "format", "coins", "markers", "registrations", *PLAYERS)
WIN_REASONS = ("damage",)
#: The set-up's flags of what the turn player has done this turn, and the phases in which
#: each still changes something (the turn's ener phase, grow phase or main phase is ahead).
FLAG_PHASES: dict[str, tuple[str, ...]] = {
    "ener_done": ("up", "draw", "ener"),
    "grown": ("up", "draw", "ener", "grow"),
    "removed": ("up", "draw", "ener", "grow", "main"),
}
#: Where a set-up card may be ``down`` or ``frozen``: the zones whose cards the up phase ups
#: (the LRIG zones, the SIGNI zones, the cheer zone) and the Key zone (a Key's cost may down
#: it).
UPRIGHT_ZONES = (*LRIG_STACK_ZONES, *SIGNI_ZONES, CHEER, "key")
FLAG_WHAT = {"ener_done": "ener phase", "grown": "grow phase", "removed": "main phase"}
#: The operations a set-up may put in force (those that put an effect in force).
IN_FORCE_OPS = LASTING_OPS
STEP_FIELDS: dict[str, tuple[str, ...]] = {
    "effect": ("player", "ops", "source"),
    "use": ("card",),
    "activate": ("card", "ability"),
    "advance": ("to",),
    "play": ("card", "zone"),
    "grow": ("card",),
    "remove": ("card", "cards"),
    "crush": ("player", "count"),
    "damage": ("player",),
    "ener": ("card",),
    "pass": ("player",),
    "attack": ("card", "zone"),
    "summon": ("card", "cards", "zone"),
    "start_game": ("first",),
    "redraw": ("player", "cards"),
}
EXPECT_FIELDS = ("rules", "zones", "phase", "attack_step", "turn", "turn_player", "winner",
                 "win_reason", "power", "level", "limit", "down", "frozen", "refreshes",
                 "coins", "visible", "keywords", "lost", "crossed", "markers", "registrations",
                 "events", "outcomes")
STATE_FIELDS = ("zones", "phase", "attack_step", "turn", "turn_player", "winner", "win_reason",
                "power", "level", "limit", "down", "frozen",
                "refreshes", "coins", "visible", "keywords", "lost", "crossed", "markers",
                "registrations")
#: What ``expect.visible.PLAYER`` may say: the cards that player may look at, and may not.
VISIBLE_KEYS = ("sees", "cannot_see")
#: Where a step's ``zone`` may point: a SIGNI zone (``play``, ``summon``, the SIGNI a cheer
#: SIGNI attacks) or the cheer zone (``play``, ``summon``).
STEP_ZONES = (*SIGNI_ZONES, CHEER)
EVENT_KEYS = ("type", "cause", "player", "card", "from", "to", "source")
ZONE_MODES = ("cards", "order", "count", "contains", "lacks")
#: Where an event pattern's ``from`` and ``to`` may point: ``p1.deck`` and so on.
ZONE_PATHS = tuple(f"{p}.{z}" for p in PLAYERS for z in ZONES)
ZONE_TABLE_KEYS = ("card", "down", "frozen", "under", "charm", "accessory", "crushed")
_UNDER_ZONE_NAMES = frozenset(UNDER_ZONES.values())
_COUNT_RE = re.compile(r"[0-9]{1,9}", re.ASCII)
_ABILITY_PICK_RE = re.compile(r"^.+#(\d+|burst)$")


# ------------------------------------------------------------------ shared data


def card_library() -> dict[str, CardDef]:
    """Cards from ``data/cards/*.toml`` (see :mod:`judge.data`)."""
    return dict(_library())


def _library() -> Mapping[str, CardDef]:
    """The card library itself (read-only, not copied: the loader looks cards up in it)."""
    from judge.data import card_library as library

    return library().cards


@cache
def glossary_terms() -> tuple[str, ...]:
    from judge.data import load_glossary

    return tuple(sorted(load_glossary()))


@cache
def _glossary_ids() -> dict[str, None]:
    """:func:`glossary_terms` as a dict: the same order, looked up without a scan."""
    return dict.fromkeys(glossary_terms())


# ------------------------------------------------------------------ entry points


def load_path(path: Path, display: str | None = None) -> Scenario:
    """Load one ruling file; raises :class:`ScenarioError`."""
    shown = display or str(path)
    try:
        registry = registry_for(path)
    except DataError as exc:  # the corpus's own sources file: its problem, on this ruling
        raise ScenarioError(shown, 1, FieldError("sources", str(exc))) from None
    raw, index = parse(read_file(path, shown), shown)
    return _validated(raw, index, shown, registry)


def load_text(text: str, path: str = "<text>") -> Scenario:
    """Load one ruling from its text (see :mod:`judge.tomlfile` for what is checked first)."""
    raw, index = parse(text, path)
    return _validated(raw, index, path)


def load_table(raw: dict[str, Any], index: LineIndex, path: str,
               registry: Mapping[str, Document] | None = None) -> Scenario:
    """Load one ruling from the table TOML gave and its line index; ``registry``: the
    documents its citations may name (default: the project's)."""
    return _validated(raw, index, path, registry)


def _validated(raw: dict[str, Any], index: LineIndex, path: str,
               registry: Mapping[str, Document] | None = None) -> Scenario:
    try:
        version, raw, warnings = _versioned(raw, index, path)
        loader = _Loader(path, index)
        loader.version = version
        if registry is not None:
            loader.registry = registry
        scenario = loader.scenario(raw)
    except FieldError as exc:
        raise ScenarioError(path, index.line(exc.field), exc) from None
    if warnings:
        object.__setattr__(scenario, "warnings", warnings)
    return scenario


def _versioned(raw: dict[str, Any], index: LineIndex, path: str
               ) -> tuple[int, dict[str, Any], tuple[FormatWarning, ...]]:
    """The format of the file (:mod:`judge.scenario.versions`) and what the loader reads of
    it: a file of the current format as it is; an older file without what the current format
    no longer reads (each a warning naming the new form: the deprecation policy), and with a
    warning that names its version and the command that upgrades it."""
    if FORMAT_KEY in raw:
        version = raw[FORMAT_KEY]
        if isinstance(version, bool) or not isinstance(version, int) or version < 1:
            raise FieldError(FORMAT_KEY, f"expected the number of a format version (1 to "
                             f"{FORMAT_VERSION}), got {quote(version)}")
        if version > FORMAT_VERSION:
            raise FieldError(FORMAT_KEY, f"written for format {version}, newer than the "
                             f"format {FORMAT_VERSION} this version of wixoss-judge reads: "
                             "update wixoss-judge")
        if version == FORMAT_VERSION:
            return version, raw, ()
        newer = too_new(raw, version)
        if newer is not None:
            where, what, since = newer
            raise FieldError(where, f"{what} came in format {since}, and this file declares "
                             f"format {version}: declare format_version = {since} or later "
                             f"(`{migrate_command(path)}` does)")
    detected = detect(raw)
    warnings = [FormatWarning(path, index.line(FORMAT_KEY) if FORMAT_KEY in raw else 1,
                              FORMAT_KEY, f"written for {detected}; `{migrate_command(path)}` "
                              f"upgrades it to format {FORMAT_VERSION}")]
    found = findings(raw, FORMAT_VERSION)
    if any(f.strip for f in found):
        raw = copy.deepcopy(raw)  # the parsed table may be shared (judge.preparse)
        for finding in reversed([f for f in found if f.strip]):  # later items first
            parent = get(raw, finding.path[:-1])
            if isinstance(parent, (dict, list)):
                del parent[finding.path[-1]]  # type: ignore[arg-type]
    for finding in (*found, *changed_meanings(raw, detected.high)):
        warnings.append(FormatWarning(path, index.line(finding.where), finding.where,
                                      f"{finding.what}: {finding.new} (refused from "
                                      f"format {finding.since})"))
    return detected.high, raw, tuple(warnings)


def _located(path: str, index: LineIndex, where: str) -> str:
    """``path:line: field``, for a message about the field ``where`` (the line is found when
    a message asks: a ruling that loads is not scanned for lines)."""
    return f"{path}:{index.line(where)}: {where}"


# ------------------------------------------------------------------ the loader


def _expect_type(value: Any, kind: type | tuple[type, ...], where: str, what: str) -> Any:
    if isinstance(value, kind) and (value.__class__ is not bool or kind not in (int, (int,))):
        return value
    raise FieldError(where, f"expected {what}, got {quote(value)}")


def _keys(raw: dict[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in raw:
        if key not in allowed:
            raise unknown_field(where, key, allowed)


def _outcome_name(raw: Any, where: str) -> tuple[str, dict[str, str]]:
    """An outcome's ``name``: one string, or a table of it in ja, en and zh-Hans."""
    if not isinstance(raw, dict):
        return _str(raw, where), {}
    _keys(raw, LANGS, where)
    if "ja" not in raw:
        raise FieldError(f"{where}.ja", "missing (Japanese is the fallback language)")
    names = {lang: _str(raw[lang], f"{where}.{lang}") for lang in LANGS if lang in raw}
    return names.get("en") or names["ja"], names


def _one_of(value: Any, valid: Collection[str], where: str) -> str:
    """``value`` if it is one of ``valid`` (a tuple, or a mapping's keys in order)."""
    if value.__class__ is str and value in valid:
        return value
    if not isinstance(value, str) or value not in valid:
        raise FieldError(where, f"unknown value {quote(value)}", tuple(valid))
    return str(value)


def _int(value: Any, where: str, minimum: int | None = None,
         maximum: int = MAX_NUMBER) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FieldError(where, f"expected a whole number, got {quote(value)}")
    lowest = -maximum if minimum is None else minimum
    if value < lowest:
        raise FieldError(where, f"must be at least {lowest}"
                                f"{' (docs/limits.md)' if minimum is None else ''}, got "
                                f"{quote(value)}")
    if value > maximum:
        raise FieldError(where, f"must be at most {maximum} (docs/limits.md), got "
                                f"{quote(value)}")
    return value


def _str(value: Any, where: str) -> str:
    if value.__class__ is str:
        return value
    return str(_expect_type(value, str, where, "text"))


def _str_list(value: Any, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        return (value,)
    _expect_type(value, list, where, "a list of text")
    return tuple(_str(v, f"{where}[{i}]") for i, v in enumerate(value))


def _markers(raw: dict[str, Any], where: str) -> dict[str, dict[str, tuple[str, ...]]]:
    """``markers = { p2 = { virus = ["signi1"] } }``: the SIGNI zones of each player holding
    a marker of each kind (judge/engine/mechanics/markers.py), a zone listed once."""
    table = _table(raw, "markers", f"{where}.markers")
    _keys(table, PLAYERS, f"{where}.markers")
    out: dict[str, dict[str, tuple[str, ...]]] = {}
    for player in table:
        kinds = _table(table, player, f"{where}.markers.{player}")
        _keys(kinds, MARKER_KINDS, f"{where}.markers.{player}")
        out[player] = {}
        for kind, value in kinds.items():
            at = f"{where}.markers.{player}.{kind}"
            zones = _str_list(value, at)
            for i, zone in enumerate(zones):
                _one_of(zone, SIGNI_ZONES, f"{at}[{i}]")
                if zone in zones[:i]:
                    raise FieldError(f"{at}[{i}]", f"{zone} is listed twice: a SIGNI zone holds "
                                                   f"at most one {kind}")
            out[player][kind] = tuple(z for z in SIGNI_ZONES if z in zones)
    return out


def _table(raw: dict[str, Any], key: str, where: str) -> dict[str, Any]:
    value = raw.get(key, {})
    return dict(_expect_type(value, dict, where, "a table"))


class _Loader:
    def __init__(self, path: str, index: LineIndex) -> None:
        self.path = path
        self.index = index
        self.cards: dict[str, CardDef] = {}
        self.inline: list[str] = []  # the ids of the ruling's own cards
        self.labels: dict[str, Placement] = {}
        #: the labels of the cards in a cheer zone: laid out there, or put there by a step
        self.cheer: set[str] = set()
        self.rulesets: tuple[str, ...] = ()
        self.version = FORMAT_VERSION  # the format the file was written for
        #: the documents its citations may name (judge.sources.registry_for)
        self.registry: Mapping[str, Document] | None = None
        # the shared data, looked up once per ruling (not once per card or field)
        self.known: Mapping[str, RuleSet] = {}
        self.library: Mapping[str, CardDef] | None = None

    def scenario(self, raw: dict[str, Any]) -> Scenario:
        _keys(raw, TOP_FIELDS, "")
        for key in ("id", "rulesets", "title", "setup", "expect"):
            if key not in raw:
                raise FieldError(key, "missing (every ruling has id, rulesets, title, setup "
                                      "and expect)")
        rid = check_id(raw["id"], "id", "ruling id (it becomes the permalink)")
        known = self.known = load_rulesets()
        rulesets = _str_list(raw["rulesets"], "rulesets")
        for i, rs in enumerate(rulesets):
            _one_of(rs, known, f"rulesets[{i}]")
            if rs in rulesets[:i]:
                raise FieldError(f"rulesets[{i}]", f"rule set {rs!r} is named twice")
        if not rulesets:
            raise FieldError("rulesets", "names no rule set", tuple(known))
        self.rulesets = rulesets
        texts = {f: self._texts(raw, f) for f in TEXT_FIELDS if f in raw}
        tags = _str_list(raw.get("tags", []), "tags")
        for i, tag in enumerate(tags):
            check_id(tag, f"tags[{i}]", "tag")
        terms = _str_list(raw.get("terms", []), "terms")
        glossary = _glossary_ids()
        for i, term in enumerate(terms):
            if glossary:
                _one_of(term, glossary, f"terms[{i}]")
        self._cards(raw)
        setup = self._setup(_table(raw, "setup", "setup"), rulesets)
        self.cheer.update(p.label for p in setup.placements if p.zone == CHEER)
        steps_raw = raw.get("steps", [])
        _expect_type(steps_raw, list, "steps", "an array of [[steps]] tables")
        steps = tuple(self._step(s, i) for i, s in enumerate(steps_raw))
        if self.version >= FORMAT_VERSION:  # an older file is warned (judge.scenario.versions)
            self._unused_cards(setup)
        choices_raw = raw.get("choices", [])
        _expect_type(choices_raw, list, "choices", "an array of [[choices]] tables")
        choices = tuple(self._choice(c, i) for i, c in enumerate(choices_raw))
        expect_raw = raw["expect"]
        _expect_type(expect_raw, list, "expect", "an array of [[expect]] tables")
        expectations = tuple(self._expect(e, i, rulesets) for i, e in enumerate(expect_raw))
        for rs in rulesets:
            if not any(rs in e.rules for e in expectations):
                raise FieldError("expect", f"no [[expect]] block covers rule set {rs!r}",
                                 rulesets)
        self._eras(setup, steps)
        return make_scenario(
            path=self.path, id=rid, rulesets=rulesets, texts=texts, tags=tags, terms=terms,
            sources=self._sources(raw.get("sources", [])),
            cards=dict(self.cards), setup=setup, steps=steps, choices=choices,
            expectations=expectations,
            explore_limit=_int(raw.get("explore_limit", 256), "explore_limit", 1, MAX_BRANCHES),
            related=self._related(raw.get("related", [])),
            lines=self.index, format=self.version, warnings=(),
        )

    def _related(self, raw: Any) -> tuple[str, ...]:
        related = _str_list(raw, "related")
        for i, rid in enumerate(related):
            check_id(rid, f"related[{i}]", "ruling id")
        return related

    # -------------------------------------------------------------- texts and sources

    def _texts(self, raw: dict[str, Any], name: str) -> dict[str, str]:
        table = _expect_type(raw[name], dict, name, "a table of ja, en and zh-Hans texts")
        _keys(table, LANGS, name)
        if "ja" not in table:
            raise FieldError(f"{name}.ja", "missing (Japanese is the fallback language)")
        texts = {lang: check_text(_str(v, f"{name}.{lang}"), f"{name}.{lang}")
                 for lang, v in table.items()}
        for lang, text in texts.items():
            problem = mark_problem(text)
            if problem:
                raise FieldError(f"{name}.{lang}", problem, MARKS)
        return texts

    def _sources(self, raw: Any) -> tuple[Citation, ...]:
        """``sources = ["ID", "ID#SECTION", ...]``: citations of ``data/sources.toml``."""
        if isinstance(raw, list) and any(isinstance(item, dict) for item in raw):
            raise FieldError("sources", "[[sources]] tables are no longer read (format 3 and "
                                        "earlier): cite the documents of data/sources.toml, as "
                                        "in sources = [\"mistaken-rules#crush\"]; "
                                        f"`{migrate_command(self.path)}` moves the tables into "
                                        "a sources file and cites them")
        return parse_citations(raw, "sources", self.registry or load_sources())

    # -------------------------------------------------------------- cards and set-up

    def _cards(self, raw: dict[str, Any]) -> None:
        inline = _table(raw, "cards", "cards")
        for card_id, body in inline.items():
            check_id(card_id, f"cards.{card_id}", "card id")
            self.cards[card_id] = parse_card(card_id, body, f"cards.{card_id}")
            self.inline.append(card_id)
        for card_id in self.inline:  # the token ARTS its abilities make
            card = self.cards[card_id]
            effects = [card.effect, card.life_burst, *(a.effect for a in card.abilities),
                       *(ops for _, ops in card.more_effects())]
            for ops in effects:
                for op in ops:
                    if op.name == "make_token" and op.card:
                        self._token(op.card, f"cards.{card_id}")

    def _unused_cards(self, setup: Setup) -> None:
        """A ``[cards.ID]`` table that no card of the set-up (nor a token an effect makes)
        is: nothing would ever read it."""
        used = {p.card for p in setup.placements}
        used.update(p.card for p in self.labels.values())
        for card_id in self.inline:
            if card_id not in used:
                raise FieldError(f"cards.{card_id}", f"no card of the set-up is {card_id} "
                                 f"(write a label as \"LABEL:{card_id}\" in a zone of the "
                                 "set-up, or remove the card)")

    def card_def(self, card_id: str, where: str) -> CardDef:
        if card_id in self.cards:
            return self.cards[card_id]
        library = self.library
        if library is None:
            library = self.library = _library()
        if card_id in library:
            self.cards[card_id] = library[card_id]
            return library[card_id]
        if card_id == "filler":
            from judge.engine.cards import FILLER

            self.cards["filler"] = FILLER
            return FILLER
        raise FieldError(where, f"unknown card {quote(card_id)}",
                         tuple(sorted({*self.cards, *library, "filler"})))

    def _setup(self, raw: dict[str, Any], rulesets: tuple[str, ...]) -> Setup:
        _keys(raw, SETUP_FIELDS, "setup")
        turn = _int(raw.get("turn", 1), "setup.turn", 1)
        tp = _one_of(raw.get("turn_player", "p1"), PLAYERS, "setup.turn_player")
        first = _one_of(raw.get("first_player", "p1"), PLAYERS, "setup.first_player")
        phase = _one_of(raw.get("phase", "main"), GAME_PHASES, "setup.phase")
        attack_step = ""
        if phase == "attack":
            attack_step = _one_of(raw.get("attack_step", "arts"), ATTACK_STEPS,
                                  "setup.attack_step")
        elif "attack_step" in raw:
            raise FieldError("setup.attack_step", "only the attack phase has steps")
        arts_priority = ""
        if attack_step == "arts":
            arts_priority = _one_of(raw.get("arts_priority", tp), PLAYERS,
                                    "setup.arts_priority")
        elif "arts_priority" in raw:
            raise FieldError("setup.arts_priority", "only the ARTS step has a priority")
        flags = {}
        for flag, phases in FLAG_PHASES.items():
            flags[flag] = bool(_expect_type(raw.get(flag, False), bool, f"setup.{flag}",
                                            "true or false"))
            if flags[flag] and phase not in phases:
                raise FieldError(f"setup.{flag}", f"the {phase} phase comes after the turn's "
                                 f"{FLAG_WHAT[flag]}, so it changes nothing there (only in "
                                 "these phases)", phases)
        if flags["removed"] and not any(self.known[r].remove == "once_per_turn"
                                        for r in rulesets):
            raise FieldError("setup.removed", "none of the ruling's rule sets limits removing "
                             "to once a turn, so it changes nothing",
                             tuple(r for r in self.known
                                   if self.known[r].remove == "once_per_turn"))
        redrawn = _str_list(raw.get("redrawn", []), "setup.redrawn")
        for i, p in enumerate(redrawn):
            _one_of(p, PLAYERS, f"setup.redrawn[{i}]")
        if redrawn and phase != "setup":
            raise FieldError("setup.redrawn", "a redraw is made in the set-up only, so after it "
                             "this changes nothing (phase = \"setup\")")
        if turn % 2 == 1 and tp != first or turn % 2 == 0 and tp == first:
            raise FieldError("setup.turn_player",
                             f"{tp} cannot be the turn player in turn {turn} when {first} "
                             "went first")
        seed = None if "seed" not in raw else _int(raw["seed"], "setup.seed", 0)
        refreshes_raw = _table(raw, "refreshes", "setup.refreshes")
        _keys(refreshes_raw, PLAYERS, "setup.refreshes")
        refreshes = {p: _int(v, f"setup.refreshes.{p}", 0) for p, v in refreshes_raw.items()}
        known = self.known
        if refreshes.get(tp, 0) >= 2 and any(known[r].second_refresh_ends_turn
                                            for r in rulesets):
            raise FieldError(f"setup.refreshes.{tp}",
                             "the turn player cannot have refreshed twice this turn under a "
                             "rule set where the second refresh ends the turn")
        fmt = _one_of(raw.get("format", DEFAULT_FORMAT), FORMATS, "setup.format")
        coins_raw = _table(raw, "coins", "setup.coins")
        _keys(coins_raw, PLAYERS, "setup.coins")
        coins = {p: _int(v, f"setup.coins.{p}", 0, MAX_COUNT) for p, v in coins_raw.items()}
        markers = _markers(raw, "setup")
        registrations_raw = _table(raw, "registrations", "setup.registrations")
        _keys(registrations_raw, PLAYERS, "setup.registrations")
        registrations = {p: _int(v, f"setup.registrations.{p}", 0, MAX_COUNT)
                         for p, v in registrations_raw.items()}
        placements: list[Placement] = []
        for player in PLAYERS:
            zones = _table(raw, player, f"setup.{player}")
            _keys(zones, ZONES, f"setup.{player}")
            for zone, value in zones.items():
                placements.extend(self._zone(player, zone, value, f"setup.{player}.{zone}"))
        in_force_raw = raw.get("in_force", [])
        _expect_type(in_force_raw, list, "setup.in_force", "a list of operations")
        in_force = []
        for i, op_raw in enumerate(in_force_raw):
            where = f"setup.in_force[{i}]"
            _expect_type(op_raw, dict, where, "a table")
            body = dict(op_raw)
            player = _one_of(body.pop("player", "p1"), PLAYERS, f"{where}.player")
            op = parse_op(body, where)
            self._op_labels((op,), where.rsplit("[", 1)[0] + f"[{i}]", single=True)
            if op.name not in IN_FORCE_OPS:
                raise FieldError(f"{where}.op", f"{op.name!r} is not an effect that stays in "
                                 "force", IN_FORCE_OPS)
            in_force.append((player, op))
        setup = make_setup(turn=turn, turn_player=tp, first_player=first, phase=phase, seed=seed,
                      refreshes=refreshes, placements=tuple(placements),
                      in_force=tuple(in_force), attack_step=attack_step,
                      arts_priority=arts_priority, ener_done=flags["ener_done"],
                      grown=flags["grown"], removed=flags["removed"], redrawn=redrawn,
                      format=fmt, coins=coins, markers=markers,
                      registrations=registrations)
        self._check_setup(setup)
        return setup

    def _zone(self, player: str, zone: str, value: Any, where: str) -> list[Placement]:
        items = value if isinstance(value, list) else [value]
        out: list[Placement] = []
        attach = "under" if zone in _UNDER_ZONE_NAMES else ""
        for i, item in enumerate(items):
            at = f"{where}[{i}]" if isinstance(value, list) else where
            down = frozen = crushed = False
            under: list[Any] = []
            card_at = at
            if isinstance(item, dict):
                _keys(item, ZONE_TABLE_KEYS, at)
                if "card" not in item:
                    raise FieldError(f"{at}.card", "missing")
                down = bool(_expect_type(item.get("down", False), bool, f"{at}.down",
                                         "true or false"))
                frozen = bool(_expect_type(item.get("frozen", False), bool, f"{at}.frozen",
                                           "true or false"))
                crushed = bool(_expect_type(item.get("crushed", False), bool,
                                            f"{at}.crushed", "true or false"))
                for flag in ("down", "frozen"):
                    if item.get(flag) and zone not in UPRIGHT_ZONES:
                        raise FieldError(f"{at}.{flag}", f"only a card on the field is "
                                         f"{flag} (the zones whose cards are upped and downed)",
                                         UPRIGHT_ZONES)
                if crushed and zone != "check":
                    raise FieldError(f"{at}.crushed", "only a card in the check zone has been "
                                     "crushed (its Life Burst then waits)", ("check",))
                for how in ("under", "charm", "accessory"):
                    for j, u in enumerate(_str_list(item.get(how, []), f"{at}.{how}")):
                        under.append((how, u, f"{at}.{how}[{j}]"))
                if under and zone not in SIGNI_ZONES:
                    raise FieldError(f"{at}.under", "only a SIGNI in a SIGNI zone has cards "
                                     "under it")
                item = item["card"]
                card_at = f"{at}.card"
            for label, card_id, spot in self._expand(_str(item, card_at), at):
                out.append(self._place(player, zone, label, card_id, spot, down=down,
                                       frozen=frozen, attach=attach, crushed=crushed))
            for how, text, spot in under:
                for label, card_id, spot2 in self._expand(text, spot):
                    out.append(self._place(player, UNDER_ZONES[zone], label, card_id, spot2,
                                           attach=how))
            self._too_many(out, at)
        return out

    def _too_many(self, out: list[Placement], at: str) -> None:
        if len(out) > MAX_CARDS_PER_ZONE:
            raise FieldError(at, f"more than {MAX_CARDS_PER_ZONE} cards in one zone "
                                 "(docs/limits.md)")
        if len(self.labels) > MAX_CARDS_IN_SETUP:
            raise FieldError(at, f"more than {MAX_CARDS_IN_SETUP} cards in the set-up "
                                 "(docs/limits.md)")

    def _expand(self, text: str, where: str) -> list[tuple[str, str, str]]:
        """``LABEL``, ``LABEL:card-id`` or ``PREFIX*N[:card-id]`` (labels PREFIX1..PREFIXN)."""
        label, _, card_id = text.partition(":")
        card_id = card_id or "filler"
        if "*" in label:
            prefix, _, count = label.partition("*")
            if not _COUNT_RE.fullmatch(count) or not is_label(prefix):
                raise FieldError(where, f"{quote(text)}: write PREFIX*N with a label prefix "
                                        f"({LABEL_RULE}) and a number, e.g. d*10")
            number = int(count)
            if not 1 <= number <= MAX_CARDS_PER_ZONE:
                raise FieldError(where, f"{quote(text)}: between 1 and {MAX_CARDS_PER_ZONE} "
                                        "cards (docs/limits.md)")
            return [(f"{prefix}{n}", card_id, where) for n in range(1, number + 1)]
        if not is_label(label):
            raise FieldError(where, f"{quote(label)} is not a card label ({LABEL_RULE})")
        return [(label, card_id, where)]

    def _place(self, player: str, zone: str, label: str, card_id: str, where: str, *,
               down: bool = False, frozen: bool = False, attach: str = "",
               crushed: bool = False) -> Placement:
        if label in self.labels:
            first = self.labels[label]
            raise FieldError(where, f"card label {quote(label)} is used twice (first in "
                             f"{first.player}.{first.zone})")
        card = self.card_def(card_id, where)
        problem = placement_problem(zone, card)
        if problem:
            raise FieldError(where, f"{label} ({card.type}) {problem}")
        if attach == "accessory" and "accessory" not in card.keywords:
            raise FieldError(where, f"{label} ({card_id}) has no Accessory keyword "
                             "(keywords = [\"accessory\"]), so it cannot be an Accessory")
        placement = _placement(player, zone, label, card_id, down, frozen, attach, crushed)
        self.labels[label] = placement
        return placement

    def _check_setup(self, setup: Setup) -> None:
        by_zone: dict[tuple[str, str], list[Placement]] = {}
        for p in setup.placements:
            by_zone.setdefault((p.player, p.zone), []).append(p)
        for player in PLAYERS:
            where = f"setup.{player}"
            lrig = by_zone.get((player, "lrig"), [])
            centre = self.cards[lrig[-1].card] if lrig else None
            signi = [self.cards[p.card] for z in SIGNI_ZONES
                     for p in by_zone.get((player, z), [])]
            cheer = [self.cards[p.card] for p in by_zone.get((player, CHEER), [])]
            for zone in SIGNI_ZONES:
                if len(by_zone.get((player, zone), [])) > 1:
                    raise FieldError(f"{where}.{zone}", "a SIGNI zone holds one SIGNI")
            for zone in (*SEED_ZONES.values(), *TRAP_ZONES.values(), CHEER):
                if len(by_zone.get((player, zone), [])) > 1:
                    raise FieldError(f"{where}.{zone}", "holds one card (one Seed, one Trap, "
                                     "one SIGNI in the cheer zone)")
            if not FORMATS[setup.format].assists:
                for zone in ("assist1", "assist2"):
                    if by_zone.get((player, zone)):
                        raise FieldError(f"{where}.{zone}", "assist LRIGs are played only in "
                                         "the Diva Selection format (setup.format = "
                                         "\"diva-selection\")")
            for signi_zone, under_zone in UNDER_ZONES.items():
                if by_zone.get((player, under_zone)) and not by_zone.get((player, signi_zone)):
                    raise FieldError(f"{where}.{under_zone}",
                                     f"cards under a SIGNI, but {signi_zone} is empty")
            if (signi or cheer) and centre is None:
                raise FieldError(f"{where}.lrig", "SIGNI on the field need a centre LRIG")
            if centre is not None:
                lrig_level = centre.level or 0
                for card in (*signi, *cheer):
                    if (card.level or 0) > lrig_level:
                        raise FieldError(f"{where}.signi", f"{card.id} is level {card.level}, "
                                         f"above the LRIG's level {lrig_level}")
                total = sum(c.level or 0 for c in signi)
                if total > (centre.limit or 0):
                    raise FieldError(f"{where}.signi", f"total level {total} is above the "
                                     f"LRIG's limit {centre.limit}")
            deck = by_zone.get((player, "deck"), [])
            trash = by_zone.get((player, "trash"), [])
            if not deck and trash:
                raise FieldError(f"{where}.deck", "the main deck is empty while the trash "
                                 "holds cards: the refresh would already have happened")

    # -------------------------------------------------------------- steps and choices

    def label(self, value: Any, where: str) -> str:
        label = _str(value, where)
        if label not in self.labels:
            raise FieldError(where, f"no card labelled {quote(label)} in the set-up",
                             tuple(self.labels))
        return label

    def _step(self, raw: Any, i: int) -> Step:
        where = f"steps[{i}]"
        _expect_type(raw, dict, where, "a table")
        if "action" not in raw:
            raise FieldError(f"{where}.action", "missing", tuple(ACTIONS))
        action = _one_of(raw["action"], ACTIONS, f"{where}.action")
        _keys(raw, ("action", "expect_illegal", *STEP_FIELDS[action]), where)
        player = _one_of(raw.get("player", "p1"), PLAYERS, f"{where}.player")
        ops: tuple[Op, ...] = ()
        if action == "effect":
            if "ops" not in raw:
                raise FieldError(f"{where}.ops", "missing (the operations of the effect)")
            ops = parse_effect(raw["ops"], f"{where}.ops")
            self._op_labels(ops, f"{where}.ops")
        card = None
        if "card" in STEP_FIELDS[action]:
            if "card" not in raw and not (action == "remove" and "cards" in raw):
                raise FieldError(f"{where}.card", "missing")
        if "card" in raw:
            if isinstance(raw["card"], list) and "cards" in STEP_FIELDS[action]:
                raise FieldError(f"{where}.card", f"expected one card label, got "
                                 f"{quote(raw['card'])}: did you mean `cards`? (cards = "
                                 "[...] names several)")
            card = self.label(raw["card"], f"{where}.card")
        source = self.label(raw["source"], f"{where}.source") if "source" in raw else None
        if action == "effect":
            # an operation that would put a card it names (or "this", the source) where its
            # type cannot be is nonsense: refused here, not at replay time
            this = self._label_card(source) if source else None
            for j, op in enumerate(ops):
                problem = op_problem(op, self._label_card, this)
                if problem:
                    raise FieldError(f"{where}.ops[{j}]", problem)
        zone = _one_of(raw["zone"], STEP_ZONES, f"{where}.zone") if "zone" in raw else None
        if card is not None and zone == CHEER and action in ("play", "summon"):
            self.cheer.add(card)
        if action == "attack" and zone is not None and card not in self.cheer:
            raise FieldError(f"{where}.zone", f"only a SIGNI in the cheer zone names the SIGNI "
                             f"zone it attacks; {card} is neither laid out in the cheer zone nor "
                             "put there by an earlier step (any other attacks the SIGNI in "
                             "front of it)")
        to = _one_of(raw["to"], (*PHASES, *ATTACK_STEPS), f"{where}.to") if "to" in raw \
            else None
        first = _one_of(raw["first"], PLAYERS, f"{where}.first") if "first" in raw else None
        if action == "start_game" and first is None:
            raise FieldError(f"{where}.first", "missing (the rock-paper-scissors winner)",
                             PLAYERS)
        cards: tuple[str, ...] = ()
        if "cards" in raw:
            labels = _str_list(raw["cards"], f"{where}.cards")
            cards = tuple(self.label(v, f"{where}.cards[{j}]") for j, v in enumerate(labels))
        illegal: str | None = None
        illegal_rules: tuple[str, ...] = ()
        if "expect_illegal" in raw:
            illegal, illegal_rules = self._expect_illegal(raw["expect_illegal"],
                                                          f"{where}.expect_illegal")
        return make_step(index=i + 1, action=action, player=player, ops=ops, source=source,
                    card=card, zone=zone, to=to, first=first, cards=cards,
                    count=_int(raw.get("count", 1), f"{where}.count", 1, MAX_COUNT),
                    ability=_int(raw.get("ability", 0), f"{where}.ability", 0),
                    expect_illegal=illegal, illegal_rules=illegal_rules,
                    lines=self.index)

    def _expect_illegal(self, raw: Any, where: str) -> tuple[str, tuple[str, ...]]:
        """``"CODE"`` (refused under every rule set) or ``{ reason = "CODE", rules = [...] }``
        (refused under those rule sets, allowed under the ruling's others)."""
        if isinstance(raw, str):
            return _one_of(raw, ILLEGAL_REASONS, where), ()
        _expect_type(raw, dict, where, "a reason code or a table { reason, rules }")
        _keys(raw, ("reason", "rules"), where)
        if "reason" not in raw:
            raise FieldError(f"{where}.reason", "missing", tuple(ILLEGAL_REASONS))
        reason = _one_of(raw["reason"], ILLEGAL_REASONS, f"{where}.reason")
        rules = _str_list(raw.get("rules", list(self.rulesets)), f"{where}.rules")
        for j, rs in enumerate(rules):
            _one_of(rs, self.rulesets, f"{where}.rules[{j}]")
        if not rules:
            raise FieldError(f"{where}.rules", "names no rule set", self.rulesets)
        return reason, rules

    def _label_card(self, label: str) -> CardDef | None:
        placement = self.labels.get(label)
        return self.cards[placement.card] if placement else None

    def _op_labels(self, ops: tuple[Any, ...], where: str, single: bool = False) -> None:
        for j, op in enumerate(ops):
            at = where if single else f"{where}[{j}]"
            if op.target is not None:
                for label in op.target.labels:
                    self.label(label, f"{at}.target")
            if op.card and op.name == "make_token":
                self._token(op.card, f"{at}.card")
            elif op.card:
                self.label(op.card, f"{at}.card")
            if op.ops:
                self._op_labels(op.ops, f"{at}.ops")

    def _token(self, text: str, where: str) -> None:
        """A token ARTS an operation makes (``LABEL:card-id``): its label is the ruling's from
        then on, like a set-up card's (it is made in its controller's LRIG deck)."""
        label, sep, card_id = text.partition(":")
        if not sep or not card_id:
            raise FieldError(where, f"{quote(text)}: name the token and its card, LABEL:card-id")
        if label in self.labels:
            raise FieldError(where, f"card label {quote(label)} is used twice")
        if not is_label(label):
            raise FieldError(where, f"{quote(label)} is not a card label ({LABEL_RULE})")
        card = self.card_def(card_id, where)
        if card.type != "arts" or not card.token:
            raise FieldError(where, f"{card_id} is not a token ARTS (type = \"arts\", "
                             "token = true)")
        self.labels[label] = Placement("p1", "lrig_deck", label, card_id, token=True)

    def _eras(self, setup: Setup, steps: tuple[Step, ...]) -> None:
        """Refuse what a rule set of the ruling does not have yet (judge.engine.eras): the
        format, the cards, the zones of the set-up, the operations of steps and effects in
        force."""
        uses = [*eras.format_use(setup.format, "setup.format"),
                *eras.setup_uses(setup.markers, setup.registrations)]
        seen: set[str] = set()
        for place in setup.placements:
            where = f"setup.{place.player}.{place.zone}"
            uses.extend(eras.zone_uses(place.zone, where))
            if place.card not in seen:
                seen.add(place.card)
                at = f"cards.{place.card}" if place.card in self.inline else where
                uses.extend(eras.card_uses(self.cards[place.card], at))
        for card_id in self.inline:
            if card_id not in seen:
                uses.extend(eras.card_uses(self.cards[card_id], f"cards.{card_id}"))
        for i, (_, op) in enumerate(setup.in_force):
            uses.extend(eras.op_uses((op,), f"setup.in_force[{i}]"))
        for step in steps:
            uses.extend(eras.op_uses(step.ops, f"steps[{step.index - 1}].ops"))
        for rs in self.rulesets:
            rules = self.known[rs]
            for use in uses:
                why = eras.refusal(use, rules)
                if why:
                    have = tuple(r for r in self.rulesets
                                 if eras.refusal(use, self.known[r]) is None)
                    raise FieldError(use.where, why, have or tuple(self.known))

    def _choice(self, raw: Any, i: int) -> Scripted:
        where = f"choices[{i}]"
        _expect_type(raw, dict, where, "a table")
        _keys(raw, ("player", "kind", "pick"), where)
        if "pick" not in raw:
            raise FieldError(f"{where}.pick", "missing (the labels or yes/no chosen)")
        pick = _str_list(raw["pick"], f"{where}.pick")
        words = ("yes", "no", "none", *SIGNI_ZONES, *RULE_KINDS, *MODE_WORDS)
        for j, value in enumerate(pick):
            card = value.split("#", 1)[0] if _ABILITY_PICK_RE.match(value) else value
            # a payment names its ener cards joined by "+" (choice kind pay)
            paid = "+" in value and all(part in self.labels for part in value.split("+"))
            if card not in self.labels and value not in words and not paid:
                raise FieldError(f"{where}.pick[{j}]" if isinstance(raw["pick"], list)
                                 else f"{where}.pick",
                                 f"{quote(value)} is neither a card label, an ability (LABEL#N) "
                                 "nor an answer word",
                                 (*words, *self.labels))
        player = _one_of(raw["player"], PLAYERS, f"{where}.player") if "player" in raw else None
        kind = _one_of(raw["kind"], CHOICE_KINDS, f"{where}.kind") if "kind" in raw \
            else None
        return Scripted(pick=pick, player=player, kind=kind, at=where,
                        locate=partial(_located, self.path, self.index))

    # -------------------------------------------------------------- expectations

    def _expect(self, raw: Any, i: int, rulesets: tuple[str, ...]) -> Expectation:
        where = f"expect[{i}]"
        _expect_type(raw, dict, where, "a table")
        _keys(raw, EXPECT_FIELDS, where)
        rules = _str_list(raw.get("rules", list(rulesets)), f"{where}.rules")
        for j, rs in enumerate(rules):
            _one_of(rs, rulesets, f"{where}.rules[{j}]")
        state = self._state({k: v for k, v in raw.items() if k in STATE_FIELDS}, where)
        events = _table(raw, "events", f"{where}.events")
        _keys(events, ("sequence", "subsequence", "absent"), f"{where}.events")
        outcomes_raw = raw.get("outcomes", [])
        _expect_type(outcomes_raw, list, f"{where}.outcomes", "an array of tables")
        outcomes = []
        for j, out in enumerate(outcomes_raw):
            at = f"{where}.outcomes[{j}]"
            _expect_type(out, dict, at, "a table")
            _keys(out, ("name", *STATE_FIELDS), at)
            name, names = _outcome_name(out.get("name", f"outcome {j + 1}"), f"{at}.name")
            outcomes.append(Outcome(name=name, names=names,
                                    state=self._state({k: v for k, v in out.items()
                                                       if k != "name"}, at)))
        return make_expectation(
            rules=rules, state=state,
            sequence=self._events(events.get("sequence", []), f"{where}.events.sequence"),
            subsequence=self._events(events.get("subsequence", []),
                                     f"{where}.events.subsequence"),
            absent=self._events(events.get("absent", []), f"{where}.events.absent"),
            outcomes=tuple(outcomes), where=where, lines=self.index)

    def _state(self, raw: dict[str, Any], where: str) -> StatePattern:
        zones: dict[str, ZonePattern] = {}
        zones_raw = _table(raw, "zones", f"{where}.zones")
        _keys(zones_raw, PLAYERS, f"{where}.zones")
        for player, table in zones_raw.items():
            at = f"{where}.zones.{player}"
            _expect_type(table, dict, at, "a table of zones")
            _keys(table, ZONES, at)
            for zone, pattern in table.items():
                zones[f"{player}.{zone}"] = self._zone_pattern(pattern, f"{at}.{zone}")
        winner = None
        if "winner" in raw:
            winner = _one_of(raw["winner"], ("p1", "p2", "none"), f"{where}.winner")

        def numbers(key: str, keys: tuple[str, ...] | None = None) -> dict[str, int]:
            if key not in raw:
                return {}
            table = _table(raw, key, f"{where}.{key}")
            out = {}
            for name, value in table.items():
                if keys is None:
                    self.label(name, f"{where}.{key}.{name}")
                else:
                    _one_of(name, keys, f"{where}.{key}.{name}")
                out[name] = _int(value, f"{where}.{key}.{name}")
            return out

        def flags(key: str) -> dict[str, bool]:
            if key not in raw:
                return {}
            table = _table(raw, key, f"{where}.{key}")
            return {self.label(name, f"{where}.{key}.{name}"):
                    bool(_expect_type(value, bool, f"{where}.{key}.{name}", "true or false"))
                    for name, value in table.items()}

        return make_state(
            zones=zones,
            phase=_one_of(raw["phase"], GAME_PHASES, f"{where}.phase") if "phase" in raw
            else None,
            attack_step=_one_of(raw["attack_step"], ATTACK_STEPS, f"{where}.attack_step")
            if "attack_step" in raw else None,
            win_reason=_one_of(raw["win_reason"], WIN_REASONS, f"{where}.win_reason")
            if "win_reason" in raw else None,
            turn=_int(raw["turn"], f"{where}.turn", 1) if "turn" in raw else None,
            turn_player=_one_of(raw["turn_player"], PLAYERS, f"{where}.turn_player")
            if "turn_player" in raw else None,
            winner=winner, power=numbers("power"), level=numbers("level"),
            limit=numbers("limit", PLAYERS), refreshes=numbers("refreshes", PLAYERS),
            down=flags("down"), frozen=flags("frozen"), coins=numbers("coins", PLAYERS),
            visible=self._visible(raw, where), keywords=self._keywords(raw, where),
            lost=flags("lost"), crossed=flags("crossed"), markers=_markers(raw, where),
            registrations=numbers("registrations", PLAYERS))

    def _keywords(self, raw: dict[str, Any], where: str) -> dict[str, frozenset[str]]:
        """``keywords = { S1 = ["lancer"] }``: the keywords a SIGNI on the field has, all of
        them (``[]``: none)."""
        if "keywords" not in raw:
            return {}
        table = _table(raw, "keywords", f"{where}.keywords")
        out = {}
        for name, value in table.items():
            at = f"{where}.keywords.{name}"
            words = _str_list(value, at)
            out[self.label(name, at)] = frozenset(
                _one_of(w, mechanics.keyword_ids(), f"{at}[{i}]") for i, w in enumerate(words))
        return out

    def _visible(self, raw: dict[str, Any], where: str
                 ) -> dict[str, tuple[tuple[str, ...], tuple[str, ...]]]:
        """``visible = { p2 = { sees = [...], cannot_see = [...] } }``: what each player may
        look at (judge.engine.visibility)."""
        if "visible" not in raw:
            return {}
        table = _table(raw, "visible", f"{where}.visible")
        _keys(table, PLAYERS, f"{where}.visible")
        out = {}
        for player, body in table.items():
            at = f"{where}.visible.{player}"
            _expect_type(body, dict, at, "a table { sees = [...], cannot_see = [...] }")
            _keys(body, VISIBLE_KEYS, at)
            if not body:
                raise FieldError(at, "names no card", VISIBLE_KEYS)
            lists = []
            for key in VISIBLE_KEYS:
                labels = _str_list(body.get(key, []), f"{at}.{key}")
                lists.append(tuple(self.label(v, f"{at}.{key}[{i}]")
                                   for i, v in enumerate(labels)))
            out[player] = (lists[0], lists[1])
        return out

    def _zone_pattern(self, raw: Any, where: str) -> ZonePattern:
        if isinstance(raw, list):
            return ZonePattern("list", tuple(self.label(v, f"{where}[{i}]")
                                              for i, v in enumerate(raw)))
        _expect_type(raw, dict, where, "a list of labels or a table")
        _keys(raw, ZONE_MODES, where)
        if "count" in raw:
            if len(raw) > 1:
                raise FieldError(where, "count stands alone", ZONE_MODES)
            return ZonePattern("count", count=_int(raw["count"], f"{where}.count", 0))
        for mode in ("contains", "lacks"):
            if mode in raw:
                if len(raw) > 1:
                    raise FieldError(where, f"{mode} stands alone", ZONE_MODES)
                labels = _str_list(raw[mode], f"{where}.{mode}")
                return ZonePattern(mode, tuple(self.label(v, f"{where}.{mode}[{i}]")
                                               for i, v in enumerate(labels)))
        if "cards" not in raw:
            raise FieldError(f"{where}.cards", "missing", ZONE_MODES)
        order = _one_of(raw.get("order", "any"), ("exact", "any"), f"{where}.order")
        labels = _str_list(raw["cards"], f"{where}.cards")
        return ZonePattern("exact" if order == "exact" else "same",
                           tuple(self.label(v, f"{where}.cards[{i}]")
                                 for i, v in enumerate(labels)))

    def _events(self, raw: Any, where: str) -> tuple[EventPattern, ...]:
        _expect_type(raw, list, where, "a list of event tables")
        out = []
        for i, item in enumerate(raw):
            at = f"{where}[{i}]"
            _expect_type(item, dict, at, "a table such as {type = \"refresh\"}")
            if "type" not in item:
                raise FieldError(f"{at}.type", "missing", tuple(EVENT_TYPES))
            etype = _one_of(item["type"], EVENT_TYPES, f"{at}.type")
            _keys(item, (*EVENT_KEYS, *EVENT_TYPES[etype]), at)
            if "cause" in item:
                _one_of(item["cause"], CAUSES, f"{at}.cause")
            if "player" in item:
                _one_of(item["player"], PLAYERS, f"{at}.player")
            if "card" in item:
                self.label(item["card"], f"{at}.card")
            for key in ("from", "to"):
                if key in item:
                    text = _str(item[key], f"{at}.{key}")
                    _one_of(text, ZONE_PATHS, f"{at}.{key}")
            out.append(EventPattern(dict(item)))
        return tuple(out)
