"""Which rule sets have which mechanics: a mechanic appears at a date, and a rule set that
begins earlier refuses a ruling that uses it.

Rule: each mechanic declares ``since`` (:class:`judge.engine.mechanics.Mechanic`), the date
from which the game has it, and ``since_note``, which source dates it or that none does; each
format does the same (:mod:`judge.engine.formats`). A rule set has a mechanic when its own
start date (``from`` in ``data/rulesets.toml``) is not earlier. What counts as using a
mechanic: a card listing its keyword, a card of one of its ``card_types``, a card whose
definition fills one of its ``card_fields``, an ability whose field among its
``ability_fields`` is not the default (an action ability's ``timing``), an operation among
its ``ops`` (in a card's effects, a step or an effect in force), a card laid out in one of
its ``zones``, and what a condition, count or target reads of it (a ``tally`` names its
mechanic, ``on_marker`` the marker's, ``heaven`` the heaven state's) or a set-up lays out
of it (``setup.markers``, ``setup.registrations``).

The sources date few mechanics. The engine's choice (**interpretation**, docs/rules-model.md,
"Mechanics by date"): what the 2014 page (WIXOSS TCG Wiki "間違えやすいルール") shows exists
under every rule set; what a dated source first shows in 2020 (the glossary "ルール処理":
Resona, Accessory, Rise, the cheer zone, assist LRIGs) exists from the ``current`` rule set;
of what only the undated Chinese rules page shows, the later formats' mechanics (Seed, Trap,
recollect, BET coins, token ARTS) exist from ``current`` too, and the keywords it lists among
the basic ones with no format (Lancer, S-Lancer, Triple Crush, Exceed) under every rule set.

Hook: :func:`card_uses`, :func:`op_uses`, :func:`zone_uses`, :func:`format_use` list what a
ruling uses; :func:`refusal` says why a rule set does not have one; the loader
(:mod:`judge.scenario.load`) asks them for every card, operation, zone and the format of a
ruling, under each of its rule sets.

Sources: WIXOSS TCG Wiki "間違えやすいルール" (2014); WIXOSS glossary "ルール処理" (quoted by
wikiwiki.jp, 2020-11-30); Chinese wiki "WIXOSS/游戏规则" (undated).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import fields
from typing import NamedTuple

from judge.engine import mechanics
from judge.engine.cards import Ability, CardDef, Op
from judge.engine.conditions import Condition, Filter
from judge.engine.formats import FORMATS
from judge.engine.rulesets import RuleSet, date_key

#: The default of each field of an ability (what a mechanic's ``ability_fields`` compare with).
ABILITY_DEFAULTS: dict[str, object] = {f.name: f.default for f in fields(Ability)}


class Use(NamedTuple):
    """A ruling's use of a dated mechanic or format: its name, its date and note, and the
    field of the ruling that uses it."""

    name: str
    since: str
    since_note: str
    where: str


class _Tables(NamedTuple):
    """The dated mechanics looked up by what a ruling may use of them, each in registration
    order (made again when the registry changes: :func:`judge.engine.mechanics.version`)."""

    version: int
    dated: tuple[mechanics.Mechanic, ...]
    by_op: dict[str, tuple[mechanics.Mechanic, ...]]
    by_zone: dict[str, tuple[mechanics.Mechanic, ...]]
    #: the mechanics a card definition can use (a type, a keyword, a field)
    for_cards: tuple[mechanics.Mechanic, ...]


_tables: list[_Tables] = []


def _lookup() -> _Tables:
    version = mechanics.version()
    if not _tables or _tables[0].version != version:
        dated = tuple(m for m in mechanics.all_mechanics() if m.since)
        ops = {name for m in dated for name in m.ops}
        zones = {zone for m in dated for zone in m.zones}
        _tables[:] = [_Tables(
            version, dated,
            {name: tuple(m for m in dated if name in m.ops) for name in ops},
            {zone: tuple(m for m in dated if zone in m.zones) for zone in zones},
            dated)]
    return _tables[0]


def _use(m: mechanics.Mechanic, where: str) -> Use:
    return Use(m.id, m.since, m.since_note, where)


def op_uses(ops: Iterable[Op], where: str) -> Iterator[Use]:
    """The dated operations among ``ops`` (``where[i]`` names each), and the dated mechanics
    their conditions, counts and targets read (:func:`reads`)."""
    by_op = _lookup().by_op
    for i, op in enumerate(ops):
        for m in by_op.get(op.name, ()):
            yield _use(m, f"{where}[{i}].op")
        conds = (op.only_if, op.cond, op.for_each.count if op.for_each else None)
        filters = (op.target.filter,) if op.target is not None else ()
        for name in reads(conds, filters):
            yield from _named(name, f"{where}[{i}]")
        yield from op_uses(op.ops, f"{where}[{i}].ops")


def reads(conds: Iterable[Condition | None], filters: Iterable[Filter] = ()) -> Iterator[str]:
    """The mechanics that conditions and filters read: a tally names its mechanic
    (``virus``, ``gate``, ``registrations``, ``wisdom``), ``on_marker`` the marker's,
    ``heaven`` the heaven state's."""
    every = [*filters]
    for cond in conds:
        if cond is not None:
            if cond.tally:
                yield cond.tally
            every.extend(cond.filters())
    for f in every:
        state = f.state
        if state is not None:
            if state.on_marker:
                yield state.on_marker
            if state.heaven is not None:
                yield "heaven"


def _named(name: str, where: str) -> Iterator[Use]:
    m = mechanics.get(name)
    if m is not None and m.since:
        yield _use(m, where)


def setup_uses(markers: Mapping[str, Mapping[str, tuple[str, ...]]],
               registrations: Mapping[str, int]) -> Iterator[Use]:
    """The markers (``setup.markers``) and registration counts a set-up lays out."""
    for player, kinds in markers.items():
        for kind, zones in kinds.items():
            if zones:
                yield from _named(kind, f"setup.markers.{player}.{kind}")
    for player, count in registrations.items():
        if count:
            yield from _named("registrations", f"setup.registrations.{player}")


def card_uses(card: CardDef, where: str) -> Iterator[Use]:
    """What ``card`` (defined at ``where``) uses of the dated mechanics."""
    for m in _lookup().for_cards:
        if card.type in m.card_types:
            yield _use(m, f"{where}.type")
        if m.id in card.keywords:
            yield _use(m, f"{where}.keywords[{card.keywords.index(m.id)}]")
        for name in m.card_fields:
            if getattr(card, name, None):
                yield _use(m, f"{where}.{name}")
        for name in m.ability_fields:
            default = ABILITY_DEFAULTS[name]
            for ability in card.abilities:
                if getattr(ability, name) != default:
                    yield _use(m, f"{where}.abilities[{ability.index}].{name}")
    yield from op_uses(card.effect, f"{where}.effect")
    yield from op_uses(card.life_burst, f"{where}.life_burst")
    if card.cost.remove_virus:
        yield from _named("virus", f"{where}.cost.remove_virus")
    for ability in card.abilities:
        yield from op_uses(ability.effect, f"{where}.abilities[{ability.index}].effect")
        for name in reads((ability.cond,)):
            yield from _named(name, f"{where}.abilities[{ability.index}].while")
        if ability.cost.remove_virus:
            yield from _named("virus", f"{where}.abilities[{ability.index}].cost.remove_virus")
    for name, ops in card.more_effects():
        yield from op_uses(ops, f"{where}.{name}")


def zone_uses(zone: str, where: str) -> Iterator[Use]:
    """A card laid out in ``zone`` (at ``where``) uses the mechanic that owns the zone."""
    for m in _lookup().by_zone.get(zone, ()):
        yield _use(m, where)


def format_use(format_id: str, where: str) -> Iterator[Use]:
    fmt = FORMATS[format_id]
    if fmt.since:
        yield Use(fmt.id, fmt.since, fmt.since_note, where)


def refusal(use: Use, rules: RuleSet) -> str | None:
    """Why ``rules`` does not have what ``use`` uses, or None."""
    if date_key(rules.start) >= date_key(use.since):
        return None
    return (f"{use.name} is not part of rule set {rules.id} (from {rules.start}): the engine "
            f"has it from {use.since} ({use.since_note})")
