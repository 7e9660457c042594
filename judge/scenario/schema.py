"""The ruling format's schema, read from the loaders' own declarations: every table, every
field it accepts, and what reads each field.

The fields are declared once, where the loaders check them (``TOP_FIELDS``, ``SETUP_FIELDS``,
``STEP_FIELDS``, ``EXPECT_FIELDS`` of :mod:`judge.scenario.load`; ``CARD_FIELDS``,
``ABILITY_KEYS``, ``OPS``, ``TARGET_KEYS`` of :mod:`judge.engine.cards`; ``COND_KEYS`` of
:mod:`judge.engine.conditions`; ``COST_PARTS`` of :mod:`judge.engine.costs`); this module
only gathers them, so that what the loader accepts, what docs/scenario-format.md lists (its
field index is made from :func:`fields`, ``tests/test_doc_examples.py`` keeps it current)
and what ``tests/test_schema_walk.py`` walks are one list. That test replays a ruling with
and without each field (each value of a closed set of values too) and fails if the field
changes nothing: no field is accepted and then ignored (issue 27).

What reads a field (``reads``):

- ``replay``: the engine (the events of the replay change);
- ``check``: the checker (the expectations: whether the ruling passes changes);
- ``page``: the site, the database and the search (the loaded ruling's texts and links);
- ``load``: the loader itself (``format_version``: what it reads and warns about).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

#: What each kind of table is, in the order docs/scenario-format.md lists them.
TABLES: dict[str, str] = {
    "ruling": "the top level of a ruling file",
    "setup": "[setup]",
    "zones": "[setup.p1], [setup.p2]: the zones, each a list of cards",
    "zone-item": "a card of a zone written as a table: { card = ..., down = true }",
    "step": "[[steps]], by action",
    "choice": "[[choices]]",
    "expect": "[[expect]] and its outcomes",
    "zone-pattern": "a zone of expect.zones written as a table",
    "visible": "expect.visible.PLAYER",
    "event": "an event pattern of expect.events (the common keys; events.md has each type's)",
    "card": "[cards.ID] and data/cards/*.toml",
    "ability": "a card's [[abilities]]",
    "op": "an operation, by its op",
    "target": "an operation's target table",
    "condition": "an if, while or ability while table",
    "cost": "a cost table (card cost, ability cost, recollect)",
    "bet": "a card's bet table",
    "summon": "a Resona's summon table",
    "cross": "a SIGNI's cross table",
    "this-is": "a condition's this_is table: the filter keys a target has",
    "for-each": "an operation's for_each count table",
    "discard-cost": "a cost's discard part written as a table",
}


@dataclass(frozen=True)
class Field:
    """One field of the format: ``table`` (a key of :data:`TABLES`), ``name``, ``part``
    (the action of a step, the op of an operation; "" elsewhere), ``values`` (the closed set
    of values it takes, if any) and ``reads``."""

    table: str
    name: str
    part: str = ""
    values: tuple[str, ...] = ()
    reads: str = "replay"

    @property
    def key(self) -> str:
        return f"{self.table}:{self.part}.{self.name}" if self.part else \
            f"{self.table}.{self.name}"


_PAGE = ("id", "tags", "terms", "related", "title", "question", "answer", "explanation",
         "sources")


@cache
def fields() -> tuple[Field, ...]:
    """Every field of the format, table by table (see the module)."""
    from judge.engine import mechanics
    from judge.engine.actions import ILLEGAL_REASONS
    from judge.engine.cards import (
        ABILITY_KEYS,
        ABILITY_KINDS,
        BY_KINDS,
        CANNOT_BY,
        CARD_CANNOT,
        CARD_EVENTS,
        CARD_FIELDS,
        CARD_TYPES,
        COLOURS,
        COMMON_OP_FIELDS,
        CROSS_SIDES,
        DISCARD_WHO,
        LOOK_FROM,
        OP_ZONES,
        OPS,
        PLAYER_CANNOT,
        PLAYER_EVENTS,
        POSITIONS,
        RESTS,
        TARGET_KEYS,
        TARGET_WHO,
        TIMINGS,
        TRIGGERS,
        UNTIL,
        WHO,
        ZONE_WORDS,
    )
    from judge.engine.choices import CHOICE_KINDS
    from judge.engine.classes import CLASSES
    from judge.engine.conditions import (
        COND_KEYS,
        COND_WHO,
        COND_ZONES,
        FILTER_KEYS,
        MARKER_KINDS,
        THIS_ZONES,
        TURNS,
    )
    from judge.engine.costs import COST_PARTS, DISCARD_KEYS
    from judge.engine.formats import FORMATS
    from judge.engine.state import ATTACK_STEPS, GAME_PHASES, PHASES, PLAYERS, ZONES
    from judge.engine.tallies import TALLIES
    from judge.scenario import load
    from judge.scenario.versions import FORMAT_KEY

    out: list[Field] = []
    for name in load.TOP_FIELDS:
        reads = "page" if name in _PAGE else "check" if name in ("expect", "explore_limit") \
            else "load" if name == FORMAT_KEY else "replay"
        out.append(Field("ruling", name, reads=reads))
    setup_values = {"turn_player": PLAYERS, "first_player": PLAYERS, "phase": GAME_PHASES,
                    "attack_step": ATTACK_STEPS, "arts_priority": PLAYERS,
                    "format": tuple(FORMATS), "in_force": load.IN_FORCE_OPS}
    for name in load.SETUP_FIELDS:
        if name not in PLAYERS:
            out.append(Field("setup", name, values=tuple(setup_values.get(name, ()))))
    out += [Field("zones", zone) for zone in ZONES]
    out += [Field("zone-item", name) for name in load.ZONE_TABLE_KEYS]
    step_values = {"player": PLAYERS, "first": PLAYERS, "zone": load.STEP_ZONES,
                   "to": (*PHASES, *ATTACK_STEPS), "expect_illegal": tuple(ILLEGAL_REASONS)}
    for action, names in load.STEP_FIELDS.items():
        for name in ("expect_illegal", *names):
            out.append(Field("step", name, action, tuple(step_values.get(name, ()))))
    out += [Field("choice", "player", values=PLAYERS),
            Field("choice", "kind", values=tuple(CHOICE_KINDS)), Field("choice", "pick")]
    out += [Field("expect", name, reads="check") for name in load.EXPECT_FIELDS]
    out += [Field("zone-pattern", name, reads="check") for name in load.ZONE_MODES]
    out += [Field("visible", name, reads="check") for name in load.VISIBLE_KEYS]
    out += [Field("event", name, reads="check") for name in load.EVENT_KEYS]
    card_values = {"type": CARD_TYPES, "colour": COLOURS, "class": tuple(CLASSES),
                   "keywords": mechanics.keyword_ids(), "timing": TIMINGS,
                   "grants": mechanics.keyword_ids()}
    out += [Field("card", name, values=tuple(card_values.get(name, ())))
            for name in CARD_FIELDS]
    ability_values = {"kind": ABILITY_KINDS, "trigger": tuple(TRIGGERS),
                      "zone": ("field", "trash", "hand", "ener"), "stat": ("power", "level"),
                      "applies_to": ("this", "own_signi"), "by": ("own", "opponent")}
    out += [Field("ability", name, values=tuple(ability_values.get(name, ())))
            for name in ABILITY_KEYS]
    op_values = {"who": WHO, "position": POSITIONS, "until": UNTIL, "rest": RESTS,
                 "keyword": mechanics.keyword_ids(), "by": CANNOT_BY, "by_kind": BY_KINDS,
                 "from": LOOK_FROM,
                 "what": (*CARD_CANNOT, *PLAYER_CANNOT), "event": (*CARD_EVENTS,
                                                                  *PLAYER_EVENTS)}
    for op, (names, _) in OPS.items():
        for name in (*names, *COMMON_OP_FIELDS):
            values = op_values.get(name, ())
            if name == "zone":
                values = OP_ZONES.get(op, ZONE_WORDS)
            if name == "who" and op == "discard":
                values = DISCARD_WHO
            out.append(Field("op", name, op, tuple(values)))
    target_values = {"who": TARGET_WHO, "zone": ZONE_WORDS, "type": CARD_TYPES,
                     "chooser": ("self", "opponent"), "class": tuple(CLASSES),
                     "colour": (*COLOURS, "colourless"), "on_marker": MARKER_KINDS}
    out += [Field("target", name, values=tuple(target_values.get(name, ())))
            for name in TARGET_KEYS]
    condition_values = {"this_in": THIS_ZONES, "who": COND_WHO, "zone": COND_ZONES,
                        "type": CARD_TYPES, "class": tuple(CLASSES),
                        "colour": (*COLOURS, "colourless"), "turn": TURNS,
                        "on_marker": MARKER_KINDS, "tally": tuple(TALLIES)}
    out += [Field("condition", name, values=tuple(condition_values.get(name, ())))
            for name in COND_KEYS]
    out += [Field("cost", name) for name in COST_PARTS]
    filter_values = {"type": CARD_TYPES, "class": tuple(CLASSES),
                     "colour": (*COLOURS, "colourless"), "on_marker": MARKER_KINDS}
    out += [Field("this-is", name, values=tuple(filter_values.get(name, ())))
            for name in FILTER_KEYS]
    out += [Field("for-each", name, values=tuple({**filter_values, "who": COND_WHO,
                                                  "zone": COND_ZONES,
                                                  "tally": tuple(TALLIES)}.get(name, ())))
            for name in ("who", "zone", *FILTER_KEYS, "colours", "tally")]
    out += [Field("discard-cost", name, values=tuple(CLASSES) if name == "class" else ())
            for name in DISCARD_KEYS]
    out += [Field("bet", "coins"), Field("bet", "effect"), Field("summon", "signi"),
            Field("summon", "class", values=tuple(CLASSES)),
            Field("cross", "partner"), Field("cross", "side", values=CROSS_SIDES)]
    return tuple(out)


def index_rows() -> list[tuple[str, str]]:
    """The field index of docs/scenario-format.md: (table, its fields), one row per table
    (per action of a step and per operation)."""
    rows: dict[str, list[str]] = {}
    for f in fields():
        where = f"{f.table} `{f.part}`" if f.part else f.table
        mark = {"check": "✓", "page": "¶", "load": "§"}.get(f.reads, "")
        rows.setdefault(where, []).append(f"`{f.name}`{mark}")
    return [(table, ", ".join(names)) for table, names in rows.items()]


def index_table() -> str:
    """The field index as the Markdown table docs/scenario-format.md holds."""
    lines = ["| table | fields |", "| --- | --- |"]
    lines += [f"| {table} | {names} |" for table, names in index_rows()]
    return "\n".join(lines)
