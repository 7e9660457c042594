"""Every table of a ruling (or card file) as read from TOML, with the path of each.

The loader's deprecations (:mod:`judge.scenario.versions`) and ``judge migrate``
(:mod:`judge.migrate`) look at a file's tables before anything is parsed: the cards, their
abilities, every operation wherever it is written (a step's, an effect in force, a card's
effect, Life Burst, modes, abilities, BET and Trap effects, a replacement's operations), the
targets and conditions of operations, the set-up, its zone items, the steps, the choices and
the event patterns of the expectations. The walk reads plain dictionaries and lists, and
tomlkit's tables and arrays alike (they are dictionaries and lists too), and changes nothing.

A path is a tuple of keys and indexes, shown as the loader shows fields: ``steps[0].ops[1]``.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

Path = tuple[str | int, ...]

#: The zones of a player's set-up that hold cards (every other key of ``setup.p1`` is one).
PLAYERS = ("p1", "p2")


def shown(path: Path) -> str:
    """``("steps", 0, "ops", 1)`` -> ``steps[0].ops[1]``."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + part
    return out


@dataclass(frozen=True)
class Node:
    """One table of the file: ``kind`` says which (``card``, ``ability``, ``cost``, ``op``,
    ``target``, ``condition``, ``setup``, ``zone-item``, ``step``, ``choice``, ``expect``,
    ``event``), ``table`` is the table itself (a zone item written as a string is a one-key table
    ``{"card": ...}`` made here), ``path`` where it is; ``context`` what the rules need to
    know of where it is (a zone item's ``zone``, a card's ``id``, an ability's ``kind``)."""

    kind: str
    path: Path
    table: Mapping[str, Any]
    context: Mapping[str, Any]

    @property
    def where(self) -> str:
        return shown(self.path)


def _dicts(value: Any) -> Iterator[tuple[int, Mapping[str, Any]]]:
    if isinstance(value, list):
        for i, item in enumerate(value):
            if isinstance(item, dict):
                yield i, item


def ops_of(value: Any, path: Path, context: Mapping[str, Any]) -> Iterator[Node]:
    """The operations of a list of operations, and their targets, conditions and the
    operations of replacements, depth first."""
    for i, op in _dicts(value):
        here = (*path, i)
        yield Node("op", here, op, context)
        if isinstance(op.get("target"), dict):
            yield Node("target", (*here, "target"), op["target"], {"op": op.get("op")})
        for key in ("if", "while", "for_each"):
            if isinstance(op.get(key), dict):
                yield Node("condition", (*here, key), op[key], {"op": op.get("op")})
        if "ops" in op:
            yield from ops_of(op["ops"], (*here, "ops"), context)


def card_nodes(card_id: str, card: Mapping[str, Any], path: Path) -> Iterator[Node]:
    """A card table and everything in it."""
    context = {"card": card_id, "type": card.get("type")}
    yield Node("card", path, card, context)
    if isinstance(card.get("cost"), dict):
        yield Node("cost", (*path, "cost"), card["cost"], context)
    for key in ("effect", "life_burst", "trap"):
        yield from ops_of(card.get(key), (*path, key), context)
    modes = card.get("modes")
    if isinstance(modes, list):
        for m, mode in enumerate(modes):
            yield from ops_of(mode, (*path, "modes", m), context)
    bet = card.get("bet")
    if isinstance(bet, dict):
        yield from ops_of(bet.get("effect"), (*path, "bet", "effect"), context)
    for a, ability in _dicts(card.get("abilities")):
        here = (*path, "abilities", a)
        yield Node("ability", here, ability, {**context, "kind": ability.get("kind")})
        if isinstance(ability.get("cost"), dict):
            yield Node("cost", (*here, "cost"), ability["cost"], context)
        yield from ops_of(ability.get("effect"), (*here, "effect"), context)
        modes = ability.get("modes")
        if isinstance(modes, list):
            for m, mode in enumerate(modes):
                yield from ops_of(mode, (*here, "modes", m), context)
        if isinstance(ability.get("while"), dict):
            yield Node("condition", (*here, "while"), ability["while"], context)


def is_card_file(raw: Mapping[str, Any]) -> bool:
    """Whether ``raw`` is a card file (``data/cards/*.toml``: card tables keyed by id, and
    perhaps ``format_version``) rather than a ruling."""
    tables = [v for k, v in raw.items() if k != "format_version"]
    return bool(tables) and all(isinstance(v, dict) and "type" in v for v in tables)


def walk(raw: Mapping[str, Any]) -> Iterator[Node]:
    """Every table of a ruling, or of a card file, in the order of the file's parts."""
    if is_card_file(raw):
        for card_id, card in raw.items():
            if isinstance(card, dict):
                yield from card_nodes(card_id, card, (card_id,))
        return
    cards = raw.get("cards")
    if isinstance(cards, dict):
        for card_id, card in cards.items():
            if isinstance(card, dict):
                yield from card_nodes(card_id, card, ("cards", card_id))
    setup = raw.get("setup")
    if isinstance(setup, dict):
        yield Node("setup", ("setup",), setup, {})
        for player in PLAYERS:
            zones = setup.get(player)
            if not isinstance(zones, dict):
                continue
            for zone, value in zones.items():
                items = value if isinstance(value, list) else [value]
                for i, item in enumerate(items):
                    path: Path = ("setup", player, zone, i) if isinstance(value, list) \
                        else ("setup", player, zone)
                    table = item if isinstance(item, dict) else {"card": item}
                    yield Node("zone-item", path, table, {"zone": zone, "player": player})
        yield from ops_of(setup.get("in_force"), ("setup", "in_force"), {})
    for i, step in _dicts(raw.get("steps")):
        yield Node("step", ("steps", i), step, {"action": step.get("action")})
        yield from ops_of(step.get("ops"), ("steps", i, "ops"), {})
    for i, choice in _dicts(raw.get("choices")):
        yield Node("choice", ("choices", i), choice, {})
    for i, block in _dicts(raw.get("expect")):
        yield Node("expect", ("expect", i), block, {})
        events = block.get("events")
        if isinstance(events, dict):
            for key in ("sequence", "subsequence", "absent"):
                for j, pattern in _dicts(events.get(key)):
                    yield Node("event", ("expect", i, "events", key, j), pattern, {})


def get(raw: Any, path: Path) -> Any:
    """The value at ``path`` (None when there is none)."""
    value = raw
    for part in path:
        if isinstance(part, int):
            if not isinstance(value, list) or part >= len(value):
                return None
        elif not isinstance(value, dict) or part not in value:
            return None
        value = value[part]
    return value
