"""Deterministic malformed variants of ruling files, for tests/test_bad_input.py.

A base ruling is parsed with tomllib, changed in one place, and written back as TOML by a
small serializer (so the line numbers of the variant are known), or its text is broken
directly (TOML syntax). Each :class:`Mutant` says what the loader's one-line error must
mention: one of ``fields`` (a field name, the bad key or the bad value) and, where the
value comes from a closed set, ``(valid: ...)``; ``line`` is the line the error must point
at when it is known exactly.
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import tomllib
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from judge.data import load_rulesets
from judge.scenario.load import load_text

Path_ = tuple[str | int, ...]


@dataclass(frozen=True)
class Mutant:
    name: str  # category and where, unique per base
    text: str
    fields: tuple[str, ...]  # the error line must contain one of these
    valid: bool = False  # the error line must list the valid values
    line: int | None = None  # the exact line, when known
    words: tuple[str, ...] = ()  # the error line must contain all of these


# ---------------------------------------------------------------------- a small TOML writer

_BARE = re.compile(r"^[A-Za-z0-9_\-]+$")


#: Fields that take a number or another form (a bound: a number, "this" or "trigger"; a
#: discard cost: a count or a table), so that a number put in place of the other form is
#: no wrong type.
NUMBER_TOO = frozenset({"power_at_most", "power_at_least", "level_at_most", "level_at_least",
                        "discard"})


def _key(key: str) -> str:
    return key if _BARE.match(key) else json.dumps(key, ensure_ascii=False)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + " }"
    raise TypeError(f"cannot write {type(value).__name__} as TOML")


def _is_table_array(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _table(out: list[str], prefix: list[str], table: dict[str, Any], top: bool) -> None:
    subtables = []
    arrays = []
    for key, value in table.items():
        if isinstance(value, dict) and value:
            subtables.append(key)
        elif top and _is_table_array(value):
            arrays.append(key)
        else:
            out.append(f"{_key(key)} = {_value(value)}")
    for key in subtables:
        path = [*prefix, _key(key)]
        out.append("")
        out.append(f"[{'.'.join(path)}]")
        _table(out, path, table[key], top=False)
    for key in arrays:
        for item in table[key]:
            out.append("")
            out.append(f"[[{_key(key)}]]")
            _table(out, [_key(key)], item, top=False)


def dumps(doc: dict[str, Any]) -> str:
    out: list[str] = []
    _table(out, [], doc, top=True)
    return "\n".join(out) + "\n"


# ---------------------------------------------------------------------- walking a document


def nodes(doc: Any, path: Path_ = ()) -> Iterator[tuple[Path_, Any]]:
    yield path, doc
    if isinstance(doc, dict):
        for key, value in doc.items():
            yield from nodes(value, (*path, key))
    elif isinstance(doc, list):
        for i, value in enumerate(doc):
            yield from nodes(value, (*path, i))


def get(doc: Any, path: Path_) -> Any:
    for part in path:
        doc = doc[part]
    return doc


def last_key(path: Path_) -> str:
    for part in reversed(path):
        if isinstance(part, str):
            return part
    return ""


def dotted(path: Path_) -> str:
    out = ""
    for part in path:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else part)
    return out


def strings(doc: Any) -> set[str]:
    """Every key and text in the document (so a typo never lands on a real name)."""
    out: set[str] = set()
    for path, value in nodes(doc):
        if path and isinstance(path[-1], str):
            out.add(path[-1])
        if isinstance(value, str):
            out.update(re.split(r"[:*]", value))
            out.add(value)
    return out


def typos(key: str) -> list[str]:
    out = []
    if len(key) >= 3 and key[1] != key[2]:
        out.append(key[0] + key[2] + key[1] + key[3:])
    out.append(key + key[-1])
    if key[:1].islower():
        out.append(key[:1].upper() + key[1:])
    return out


# ---------------------------------------------------------------------- where things are

# Paths whose values the loader does not check (event details are compared, not typed).
_EVENT_FIXED = ("type", "cause", "player", "card", "from", "to")


def _is_event_item(path: Path_) -> bool:
    return len(path) >= 5 and path[0] == "expect" and path[2] == "events" and \
        isinstance(path[4], int)


def _unchecked(path: Path_) -> bool:
    if _is_event_item(path) and len(path) >= 6:
        return path[5] not in _EVENT_FIXED
    return False


def _is_free_key(path: Path_) -> bool:
    """Keys that are names, not fields: card ids under [cards], languages of a card name."""
    return (len(path) == 2 and path[0] == "cards") or \
        (len(path) >= 4 and path[0] == "cards" and path[2] == "name")


def _zone_values(doc: dict[str, Any]) -> Iterator[tuple[Path_, str]]:
    """Every card text of the set-up: ("setup", p, zone[, i][, "card"]) -> "LABEL[:id]"."""
    setup = doc.get("setup", {})
    for player in ("p1", "p2"):
        zones = setup.get(player, {})
        if not isinstance(zones, dict):
            continue
        for zone, value in zones.items():
            items = value if isinstance(value, list) else [value]
            for i, item in enumerate(items):
                base: Path_ = ("setup", player, zone, i) if isinstance(value, list) else \
                    ("setup", player, zone)
                if isinstance(item, dict) and isinstance(item.get("card"), str):
                    yield (*base, "card"), item["card"]
                elif isinstance(item, str):
                    yield base, item


def _label_lines(doc: dict[str, Any]) -> Iterator[Path_]:
    """Paths of single labels outside the set-up: expected zones, step cards, targets."""
    for path, value in nodes(doc):
        if not isinstance(value, str) or not path:
            continue
        if path[0] == "expect" and len(path) >= 5 and path[2] == "zones":
            yield path
        elif path[0] == "steps" and len(path) == 3 and path[2] in ("card", "source"):
            yield path
        elif _is_event_item(path) and len(path) == 6 and path[5] == "card":
            yield path
        elif path[0] == "steps" and "target" in path and path[-1] != "target" and \
                isinstance(path[-1], int):
            yield path
        elif path[0] == "steps" and len(path) >= 4 and path[-1] == "target" and \
                value != "this":
            yield path


# ---------------------------------------------------------------------- the generators


def _with(doc: dict[str, Any], path: Path_, value: Any = ..., delete: bool = False,
          rename: str | None = None) -> Callable[[], dict[str, Any]]:
    """The document changed at ``path``, built only when asked for (most are sampled out)."""

    def build() -> dict[str, Any]:
        new = copy.deepcopy(doc)
        parent = get(new, path[:-1])
        key = path[-1]
        if delete:
            del parent[key]
        elif rename is not None:
            items = list(parent.items())
            parent.clear()
            for k, v in items:
                parent[rename if k == key else k] = v
        else:
            parent[key] = value
        return new

    return build


def keep_all(name: str) -> bool:
    return True


def one_in(n: int) -> Callable[[str], bool]:
    """A deterministic choice of about one variant in ``n``, by a hash of its name."""
    return lambda name: int(hashlib.sha1(name.encode()).hexdigest(), 16) % n == 0


def mutants(base: str, text: str, keep: Callable[[str], bool] = keep_all) -> list[Mutant]:
    """The malformed variants of one ruling that ``keep`` selects (deterministic, in a fixed
    order; names do not depend on the selection)."""
    doc = tomllib.loads(text)
    out: list[Mutant] = []
    known = strings(doc)
    counter = [0]

    def add(name: str, new: dict[str, Any] | Callable[[], dict[str, Any]],
            fields: tuple[str, ...], valid: bool = False, line: int | None = None,
            words: tuple[str, ...] = ()) -> None:
        full = f"{base}-{counter[0]:04d}-{name}"
        counter[0] += 1
        if not keep(full):
            return
        made = new() if callable(new) else new
        out.append(Mutant(full, dumps(made), fields, valid, line, words))

    # 1. required fields deleted
    for key in ("id", "rulesets", "title", "setup", "expect"):
        if key in doc:
            add(f"missing-{key}", _with(doc, (key,), delete=True), (key,),
                words=("missing",))
    if isinstance(doc.get("title"), dict) and "ja" in doc["title"]:
        add("missing-title-ja", _with(doc, ("title", "ja"), delete=True), ("title.ja",),
            words=("missing",))
    for path, value in nodes(doc):
        if not isinstance(value, dict) or not path:
            continue
        required: tuple[str, ...] = ()
        if path[0] == "steps" and len(path) == 2:
            required = ("action", "ops", "card")
        elif path[0] == "choices" and len(path) == 2:
            required = ("pick",)
        elif _is_event_item(path) and len(path) == 5:
            required = ("type",)
        elif path[0] == "steps" and len(path) == 4 and path[2] == "ops":
            # a discard or a look without a target is still valid (the player chooses, or
            # takes nothing), so deleting it makes no malformed file
            required = ("op", "target", "zone") if value.get("op") == "place" else \
                ("op",) if value.get("op") in ("discard", "look") else ("op", "target")
        elif path[0] == "cards" and len(path) == 2:
            required = ("type", "level", "power", "limit", "lrig_type") \
                if value.get("type") in ("signi", "lrig", "resona") else ("type",)
            if value.get("type") in ("signi", "resona"):
                required = ("type", "level", "power")
        for key in required:
            if key in value:
                add(f"missing-{dotted(path)}.{key}", _with(doc, (*path, key), delete=True),
                    (key,), words=("missing",))

    # 2. misspelt field names
    for path, value in nodes(doc):
        if not isinstance(value, dict):
            continue
        for key in list(value):
            if _is_free_key((*path, key)) or _unchecked((*path, key)):
                continue
            for typo in typos(key):
                if typo in known or typo == key:
                    continue
                new = _with(doc, (*path, key), rename=typo)
                add(f"typo-{dotted((*path, key))}-{typo}", new, (typo, key), valid=True)

    # 3. values of the wrong type
    for path, value in nodes(doc):
        if not path or _unchecked(path):
            continue
        if isinstance(path[-1], str) and _is_free_key(path):
            continue
        field = last_key(path)
        if isinstance(value, bool):
            wrong: list[Any] = ["yes", 1]
        elif isinstance(value, int):
            wrong = ["seven", 1.5, True]
        elif isinstance(value, str):
            wrong = [7, False]
        elif isinstance(value, list):
            wrong = [7, True]
        elif isinstance(value, dict):
            wrong = [7, True] if path != ("cards",) else [7]
        else:
            continue
        if field in NUMBER_TOO:  # a number is one of this field's forms: no wrong type
            wrong = [w for w in wrong if isinstance(w, bool) or not isinstance(w, int)]
        for w in wrong:
            add(f"type-{dotted(path)}-{type(w).__name__}", _with(doc, path, w), (field,))

    # 4. unknown values of closed sets
    rulesets = list(load_rulesets())
    for path, value in _zone_values(doc):
        label = value.partition(":")[0]
        if "*" in label:
            label = label.replace("*", "")
        add(f"card-{dotted(path)}", _with(doc, path, f"{label}:no-such-card"),
            (str(path[2]),), valid=True, words=("no-such-card",))
    for path in _label_lines(doc):
        add(f"label-{dotted(path)}", _with(doc, path, "Nobody"), (last_key(path),),
            valid=True, words=("Nobody",))
    closed = {
        "op": "explode", "action": "dance", "phase": "lunch", "to": "lunch",
        "turn_player": "p3", "first_player": "p3", "player": "p3", "authority": "rumour",
        "kind": "guess", "expect_illegal": "because", "winner": "p3", "cause": "magic",
        "order": "random", "who": "everyone", "position": "middle", "chooser": "nobody",
        "colour": "purple", "trigger": "sunrise",
    }
    for path, value in nodes(doc):
        if not path or not isinstance(value, str) or _unchecked(path):
            continue
        key = path[-1]
        if key == "type" and _is_event_item(path):
            add(f"etype-{dotted(path)}", _with(doc, path, "explosion"), ("type",), valid=True,
                words=("explosion",))
        elif key == "type" and path[0] == "cards":
            add(f"ctype-{dotted(path)}", _with(doc, path, "monster"), ("type",), valid=True)
        elif key in ("from", "to") and _is_event_item(path):
            add(f"ezone-{dotted(path)}", _with(doc, path, "p1.graveyard"), (str(key),),
                valid=True)
        elif key == "zone" and path[0] == "steps":
            add(f"zone-{dotted(path)}", _with(doc, path, "graveyard"), ("zone",), valid=True)
        elif isinstance(key, str) and key in closed:
            if path[0] == "cards" and key == "player":
                continue
            add(f"value-{dotted(path)}", _with(doc, path, closed[key]), (key,), valid=True,
                words=(closed[key],))
    for key in ("rulesets",):
        for i, _ in enumerate(doc.get(key, [])):
            add(f"ruleset-{i}", _with(doc, (key, i), "2014-13"), ("rulesets",), valid=True,
                words=("2014-13",))
    for i, block in enumerate(doc.get("expect", [])):
        if isinstance(block, dict) and isinstance(block.get("rules"), list):
            for j, _ in enumerate(block["rules"]):
                add(f"expect-rules-{i}-{j}", _with(doc, ("expect", i, "rules", j), "2014-13"),
                    ("rules",), valid=True)
        unnamed = [r for r in rulesets if r not in doc.get("rulesets", [])]
        if unnamed and isinstance(block, dict):
            add(f"expect-rules-unnamed-{i}", _with(doc, ("expect", i, "rules"), [unnamed[0]]),
                ("rules",), valid=True, words=(unnamed[0],))
    for i, _ in enumerate(doc.get("terms", [])):
        add(f"term-{i}", _with(doc, ("terms", i), "no-such-term"), ("terms",), valid=True)
    for player in ("p1", "p2"):
        zones = doc.get("setup", {}).get(player)
        if isinstance(zones, dict):
            zones_new = copy.deepcopy(zones)
            zones_new["graveyard"] = ["Qg"]
            add(f"setup-zone-{player}", _with(doc, ("setup", player), zones_new),
                ("graveyard",), valid=True)
    for i, block in enumerate(doc.get("expect", [])):
        zones = block.get("zones", {}) if isinstance(block, dict) else {}
        for player, table in zones.items() if isinstance(zones, dict) else []:
            if isinstance(table, dict):
                add(f"expect-zone-{i}-{player}",
                    _with(doc, ("expect", i, "zones", player), {**table, "graveyard": []}),
                    ("graveyard",), valid=True)

    # 5. a card label used twice
    placements = load_text(text).setup.placements
    for n, placement in enumerate(placements[:12]):
        label = placement.label
        other = "p2" if placement.player == "p1" else "p1"
        new = copy.deepcopy(doc)
        zones = new.setdefault("setup", {}).setdefault(other, {})
        ener = zones.get("ener", [])
        zones["ener"] = [*(ener if isinstance(ener, list) else [ener]), label]
        add(f"twice-{n}-{label}", new, ("ener",), words=("used twice", label))

    # 6. contradictory set-ups
    setup = doc.get("setup", {})
    for player in ("p1", "p2"):
        zones = setup.get(player, {}) if isinstance(setup.get(player), dict) else {}
        signi_free = {k: v for k, v in zones.items()
                      if not k.startswith(("signi", "under", "lrig", "key", "assist"))}
        clean = {**signi_free}

        def variant(name: str, extra: dict[str, Any], fields: tuple[str, ...],
                    words: tuple[str, ...] = (), player: str = player,
                    clean: dict[str, Any] = clean) -> None:
            new = copy.deepcopy(doc)
            new.setdefault("setup", {})[player] = {**copy.deepcopy(clean), **extra}
            # effects already in force may name the cards just taken away: an error of its
            # own, reported first; the variant is about the contradiction alone
            new["setup"].pop("in_force", None)
            add(f"setup-{name}-{player}", new, fields, words=words)

        variant("signi-above-level", {"lrig": ["Qlrig:lrig-white-1"], "signi1": "Qs:signi-3"},
                ("signi",), ("above the LRIG's level",))
        variant("signi-above-limit", {"lrig": ["Qlrig:lrig-white-2"], "signi1": "Qa:signi-2",
                                      "signi2": "Qb:signi-2", "signi3": "Qc:signi-2"},
                ("signi",), ("limit",))
        variant("signi-without-lrig", {"signi2": "Qs:signi-1"}, ("lrig",), ("LRIG",))
        variant("under-without-signi", {"lrig": ["Qlrig:lrig-white-3"], "under3": ["Qu"]},
                ("under3",), ("empty",))
        variant("lrig-in-deck", {"deck": ["Qd:lrig-white-1"]}, ("deck",),
                ("main deck",))
        variant("signi-as-lrig", {"lrig": ["Qs:signi-1"]}, ("lrig",),
                ("cannot be in the LRIG zone",))
        variant("two-in-one-zone", {"lrig": ["Qlrig:lrig-white-3"],
                                    "signi1": ["Qa:signi-1", "Qb:signi-1"]}, ("signi1",))
        empty_deck = {k: v for k, v in clean.items() if k != "deck"}
        variant("empty-deck-with-trash", {"trash": ["Qt"]}, ("deck",), ("trash",),
                clean=empty_deck)
        variant("bad-label", {"hand": ["9lives"]}, ("hand",), ("label",))
        variant("bad-repeat", {"hand": ["q*x"]}, ("hand",), ("PREFIX*N",))
    turn = setup.get("turn", 1) if isinstance(setup.get("turn", 1), int) else 1
    first = setup.get("first_player", "p1")
    right = first if turn % 2 == 1 else ("p2" if first == "p1" else "p1")
    wrong = "p2" if right == "p1" else "p1"
    add("turn-player-inconsistent", _with(doc, ("setup", "turn_player"), wrong),
        ("turn_player",))
    add("turn-inconsistent", _with(doc, ("setup", "turn"), turn + 1), ("turn_player",))
    new = copy.deepcopy(doc)
    new["rulesets"] = ["2014-09"]
    new.setdefault("setup", {})["refreshes"] = {right: 2}
    new.setdefault("setup", {})["turn_player"] = right
    add("refreshes-2-under-2014-09", new, ("refreshes",), words=("twice",))
    new = copy.deepcopy(new)
    new["rulesets"] = ["current"]
    add("refreshes-3-under-current", new, ("refreshes",), words=("twice",))

    # 7. other structural mistakes
    add("rulesets-empty", _with(doc, ("rulesets",), []), ("rulesets",), valid=True)
    if "expect" in doc:
        add("expect-empty", _with(doc, ("expect",), []), ("expect",), valid=True)
    add("id-uppercase", _with(doc, ("id",), "Not-An-Id"), ("id",))
    add("turn-zero", _with(doc, ("setup", "turn"), 0), ("turn",))
    add("explore-zero", _with(doc, ("explore_limit",), 0), ("explore_limit",))
    add("tag-spaces", _with(doc, ("tags",), ["two words"]), ("tags",))
    for i, source in enumerate(doc.get("sources", [])):
        if isinstance(source, str):
            add(f"source-unknown-{i}", _with(doc, ("sources", i), f"{source}-x"),
                ("sources",))
            add(f"source-section-{i}", _with(doc, ("sources", i),
                                             source.partition("#")[0] + "#no-such-section"),
                ("sources",))
            add(f"source-table-{i}", _with(doc, ("sources", i), {"title": source}),
                ("sources",))
    for i, step in enumerate(doc.get("steps", [])):
        if isinstance(step, dict) and step.get("action") == "effect":
            add(f"step-use-without-card-{i}", _with(doc, ("steps", i),
                                                    {"action": "use"}), ("card",))
            add(f"step-ops-not-list-{i}", _with(doc, ("steps", i, "ops"),
                                                {"op": "draw"}), ("ops",))
            add(f"step-count-negative-{i}", _with(
                doc, ("steps", i, "ops"), [{"op": "draw", "count": -1}]), ("count",))
            add(f"step-extra-field-{i}", _with(doc, ("steps", i, "card"), "x"), ("card",),
                valid=True)
    return out


# ---------------------------------------------------------------------- broken TOML syntax


def syntax_mutants(base: str, text: str, keep: Callable[[str], bool] = keep_all) \
        -> list[Mutant]:
    rows = text.splitlines()
    out: list[Mutant] = []
    counter = [0]

    def add(name: str, new_rows: list[str], line: int | None) -> None:
        full = f"{base}-{counter[0]:04d}-syntax-{name}"
        counter[0] += 1
        if keep(full):
            out.append(Mutant(full, "\n".join(new_rows) + "\n", ("TOML syntax",), line=line))

    headers = [i for i, r in enumerate(rows) if r.startswith("[")]
    keys = [i for i, r in enumerate(rows) if re.match(r"^[A-Za-z0-9_\-]+ = ", r)]
    for i in headers[:12]:
        add(f"header-{i + 1}", [*rows[:i], rows[i].rstrip("]"), *rows[i + 1:]], i + 1)
    for i in keys[::3][:12]:
        add(f"double-equals-{i + 1}", [*rows[:i], rows[i].replace(" = ", " == ", 1),
                                       *rows[i + 1:]], i + 1)
        add(f"no-value-{i + 1}", [*rows[:i], rows[i].split(" = ")[0] + " =",
                                  *rows[i + 1:]], i + 1)
        add(f"garbage-after-{i + 1}", [*rows[:i + 1], "this is not toml", *rows[i + 1:]],
            i + 2)
        add(f"duplicate-{i + 1}", [*rows[:i + 1], rows[i], *rows[i + 1:]], i + 2)
    strings_ = [i for i in keys if rows[i].rstrip().endswith('"') and rows[i].count('"') == 2]
    for i in strings_[:8]:
        add(f"unterminated-{i + 1}", [*rows[:i], rows[i].rstrip()[:-1], *rows[i + 1:]],
            i + 1)
    return out
