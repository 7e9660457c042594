"""Keyword abilities and other mechanics: each declared once, in a module named after it.

A mechanic module (``lancer.py``, ``guard.py``, ...) holds the code of the mechanic's hooks,
states its rule and sources in its docstring, and declares ``MECHANICS``: the
:class:`Mechanic` values it defines (``crush.py`` declares Double and Triple Crush). Every
module of this package is registered when the engine is imported
(:mod:`judge.engine.mechanics.builtin`); a test or a tool may :func:`register` more.

What a declaration says, and who reads it:

- ``id``: the keyword as cards list it (``keywords = ["lancer"]``) and as the ``keyword``
  operation gives it (``keyword = true``), or the mechanic's name (``guard``, ``exceed``);
  the loader accepts exactly the registered keywords (:func:`keyword_ids`).
- ``term``: its glossary term (``data/glossary.toml``). Coverage maps the events the
  mechanic logs to it (:mod:`judge.coverage`), narration names the keyword with the term's
  name in each language (:mod:`judge.narrate`), and the site links to the term's entry.
- ``source``: the short citation of its rule (title and date), for readers and the site; the
  module's docstring gives the rule itself.
- Hooks, each read in one place of the engine:

  ``ability``
      a keyword that is a triggered ability (Lancer): :func:`judge.engine.triggers.queue`
      adds it to the abilities of a card with the keyword when its trigger fires;
  ``crushes``
      the damage of an attack by a card with the keyword crushes that many life cloth at
      once (:func:`judge.engine.battle.crush_count`);
  ``unblocked``
      a SIGNI with the keyword attacks as if no SIGNI were in front of it
      (:func:`judge.engine.battle.signi_attack`);
  ``pays_any_colour``
      in the ener zone, a card with the printed keyword pays as any one colour
      (:func:`judge.engine.costs.can_pay_as`);
  ``unchoosable``
      a card with the keyword cannot be chosen by its opponent's effects; effects that do not
      choose still act on it (:func:`judge.engine.continuous.unchoosable`, read when targets
      are chosen: Shadow).

  Mechanics that are steps of their own call their module's functions from one place:
  Guard (:func:`judge.engine.mechanics.guard.offer`, from a LRIG attack), Exceed (the cost
  part, :mod:`judge.engine.payment`), Charm and Accessory (the ``charm`` and ``attach``
  operations, :mod:`judge.engine.ops`).
- When it appears (:mod:`judge.engine.eras`): ``since``, the date from which rule sets have it
  (empty: every rule set), with ``since_note`` saying which source dates it or that none does;
  and what in a ruling uses it: ``card_types`` (a card of that type), ``ability_fields`` (an
  ability whose field is not its default: an action ability's ``timing``), ``card_fields`` (a card
  whose definition fills that field), ``ops`` (an operation of that name), ``zones`` (a card
  laid out in that zone). A printed keyword of the mechanic's id is a use too. The loader
  refuses a ruling that uses it under an earlier rule set.
- The narration message ids of what it logs: ``events`` (event type → message), ``verbs``
  (move verb → singular and plural message), ``choices`` (choice kind → its name),
  ``cost_parts`` (a part of a cost's text form → its message). Narration tells those events
  with these messages, and coverage maps them to ``term``; the catalogues
  (``judge/locale/*/LC_MESSAGES/messages.po``) must translate each (``tests/test_narrate.py``).

The registry is a plain table: looking a keyword up costs a dictionary access, and the
derived indexes are rebuilt only when a mechanic is registered or removed (:func:`version`
tells readers that cache what they derive).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # cards.py reads this registry, so only the type is imported here
    from judge.engine.cards import Ability



@dataclass(frozen=True)
class Mechanic:
    """One keyword ability or other mechanic, as its module declares it (see the module
    docstring for what each field is read by)."""

    id: str
    term: str
    source: str
    #: cards may list it under ``keywords`` and the ``keyword`` operation may give it
    keyword: bool = True
    ability: Ability | None = None
    crushes: int = 0
    unblocked: bool = False
    pays_any_colour: bool = False
    unchoosable: bool = False
    events: Mapping[str, str] = field(default_factory=dict)
    verbs: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    choices: Mapping[str, str] = field(default_factory=dict)
    cost_parts: Mapping[str, str] = field(default_factory=dict)
    since: str = ""
    since_note: str = ""
    card_types: tuple[str, ...] = ()
    card_fields: tuple[str, ...] = ()
    #: fields of a card's abilities: an ability whose field is not its default uses it
    ability_fields: tuple[str, ...] = ()
    ops: tuple[str, ...] = ()
    zones: tuple[str, ...] = ()


@dataclass(frozen=True)
class _Index:
    """What the engine and the readers look up, derived from the registered mechanics."""

    mechanics: tuple[Mechanic, ...]
    by_id: Mapping[str, Mechanic]
    keywords: tuple[str, ...]
    abilities: Mapping[str, Ability]
    triggers: frozenset[str]
    crushes: Mapping[str, int]
    unblocked: frozenset[str]
    any_colour: frozenset[str]
    unchoosable: frozenset[str]


_registered: dict[str, Mechanic] = {}
_version = 0


def _build() -> _Index:
    mechanics = tuple(_registered.values())
    abilities = {m.id: m.ability for m in mechanics if m.ability is not None}
    return _Index(
        mechanics=mechanics,
        by_id=MappingProxyType(dict(_registered)),
        keywords=tuple(m.id for m in mechanics if m.keyword),
        abilities=MappingProxyType(abilities),
        triggers=frozenset(a.trigger for a in abilities.values() if a.trigger),
        crushes=MappingProxyType({m.id: m.crushes for m in mechanics if m.crushes}),
        unblocked=frozenset(m.id for m in mechanics if m.unblocked),
        any_colour=frozenset(m.id for m in mechanics if m.pays_any_colour),
        unchoosable=frozenset(m.id for m in mechanics if m.unchoosable),
    )


_index = _build()


def _rebuild() -> None:
    global _index, _version
    _index = _build()
    _version += 1


def register(mechanic: Mechanic) -> None:
    """Add ``mechanic``; an id registered twice is an error (each mechanic has one home)."""
    if mechanic.id in _registered:
        raise ValueError(f"mechanic {mechanic.id!r} is registered twice")
    if mechanic.ability is not None and mechanic.ability.keyword != mechanic.id:
        raise ValueError(f"the ability of mechanic {mechanic.id!r} must name it as its keyword")
    _registered[mechanic.id] = mechanic
    _rebuild()


def unregister(mechanic_id: str) -> None:
    """Remove a mechanic (tests that register their own take it out again)."""
    del _registered[mechanic_id]
    _rebuild()


@contextmanager
def registered(*mechanics: Mechanic) -> Iterator[None]:
    """``with registered(m):``: ``m`` is known inside the block only."""
    for mechanic in mechanics:
        register(mechanic)
    try:
        yield
    finally:
        for mechanic in mechanics:
            unregister(mechanic.id)


def version() -> int:
    """Changes whenever the registry does: readers that derive tables cache by it."""
    return _version


def all_mechanics() -> tuple[Mechanic, ...]:
    """Every registered mechanic, in the order of registration."""
    return _index.mechanics


def get(mechanic_id: str) -> Mechanic | None:
    return _index.by_id.get(mechanic_id)


def keyword_ids() -> tuple[str, ...]:
    """The keywords a card may list and the ``keyword`` operation may give."""
    return _index.keywords


def keyword_abilities() -> Mapping[str, Ability]:
    """Keyword -> the triggered ability it stands for (Lancer, S-Lancer)."""
    return _index.abilities


def keyword_triggers() -> frozenset[str]:
    """The triggers that keyword abilities wait for."""
    return _index.triggers


def crush_count(keywords: set[str] | frozenset[str] | tuple[str, ...]) -> int:
    """How many life cloth the damage of an attack by a card with ``keywords`` crushes."""
    crushes = _index.crushes
    return max((crushes[k] for k in keywords if k in crushes), default=1)


def unblocked(keywords: set[str] | frozenset[str] | tuple[str, ...]) -> bool:
    """Whether a SIGNI with ``keywords`` attacks as if no SIGNI were in front of it."""
    return not _index.unblocked.isdisjoint(keywords)


def unchoosable(keywords: set[str] | frozenset[str] | tuple[str, ...]) -> bool:
    """Whether a card with ``keywords`` cannot be chosen by its opponent's effects."""
    return bool(keywords) and not _index.unchoosable.isdisjoint(keywords)


def pays_any_colour(keywords: tuple[str, ...]) -> bool:
    """Whether a card with these printed keywords pays as any one colour."""
    return bool(keywords) and not _index.any_colour.isdisjoint(keywords)
