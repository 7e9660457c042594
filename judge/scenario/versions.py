"""The version of the ruling format: the one number, how a file's version is told, and what
the current version no longer reads.

:data:`FORMAT_VERSION` is the format this loader reads. A ruling (or card) file says which
format it was written for with the top-level key ``format_version = N``; a file without it
was written before format 7, the first that has the key, and its version is told from its
content (:func:`detect`): the research of issue 27 found no field renamed in the history, so
what tells one version from another is what each added and what each stopped accepting.
docs/scenario-format.md lists every version and change (the changelog) and the deprecation
policy: a field or value that a version stops reading is still read from files of earlier
versions, with a one-line warning naming the new form (:func:`findings`), for at least one
version, before it is refused; ``judge migrate`` (:mod:`judge.migrate`) rewrites files to the
current version.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Final

from judge.engine.cards import CARD_CANNOT, CARD_EVENTS, RESISTANCES, TYPE_FIELDS
from judge.scenario.walk import Node, Path, is_card_file, shown, walk

#: The format this loader reads (docs/scenario-format.md#format-versions).
FORMAT_VERSION: Final = 9
#: The top-level key that says which format a file was written for.
FORMAT_KEY: Final = "format_version"
#: The first version whose files say their version (older files do not).
FIRST_DECLARED: Final = 7

#: Each version, the date of its first commit and what sets it apart (the changelog of
#: docs/scenario-format.md says more).
VERSIONS: Final[dict[int, str]] = {
    1: "launch (2026-11-30): inline [[sources]] tables, English event reasons",
    2: "game flow (2026-11-30): costs, timing, the attack phase, reason codes",
    3: "hardened input (2026-12-01): bounded ids, labels and numbers; related ids checked",
    4: "source registry (2026-12-02): sources cite data/sources.toml",
    5: "later mechanics (2026-12-02): assist LRIGs need setup.format, mechanics dated",
    6: "closed classes (2026-12-02): class is one of the declared classes",
    7: "versioned (2026-12-07): format_version; nothing accepted and then ignored",
    8: "card texts, round two (2026-12-07): a card's state, amounts, looking at the deck",
    9: "card texts, round three (2026-12-07): battle limits, more triggers, later mechanics",
}


@dataclass(frozen=True)
class Added:
    """What a version (9 or later) added to the format, so that a file declaring an earlier
    version that uses it is refused (:func:`too_new`): ``keys`` maps a kind of table of
    :func:`judge.scenario.walk.walk` (``op``, ``target``, ``condition``, ``ability``,
    ``card``, ``cost``, ``setup``, ``zone-item``, ``step``, ``expect``, ``event``) to the keys the
    version added to it; ``values`` maps (kind, key) to the values it added to a key that was
    there before (a new operation is ``("op", "op")``, a new trigger ``("ability",
    "trigger")``). Format 8 added fields to files that already declared format 7 (the
    number was raised after them: tests/fixtures/formats/v7), so the check starts at 9."""

    keys: Mapping[str, tuple[str, ...]]
    values: Mapping[tuple[str, str], tuple[str, ...]]


#: What each version from 9 on added (docs/scenario-format.md#changelog lists the same).
ADDED: Final[dict[int, Added]] = {
    9: Added(keys={
        # issue 30 helper A: resistance limited to a kind of source, looking at a hand
        "op": ("by_kind", "from"),
        # issue 30, helper B: markers on SIGNI zones (virus, gate), the registration count;
        # helper C: crystal armament
        "setup": ("markers", "registrations"), "expect": ("markers", "registrations"),
        "condition": ("tally", "on_marker", "heaven", "crystal_armed"),
        "target": ("on_marker", "heaven", "crystal_armed"),
        "cost": ("remove_virus",),
        # helper C: an action ability's own use timing, a Key's BET coins
        "ability": ("timing",), "card": ("coins",),
    }, values={
        # issue 30 helper A: attacks per turn, a cap on the SIGNI on the field, forced attacks
        ("op", "op"): ("attack_limit", "signi_cap", "must_attack",
                       # helper B
                       "set_virus", "remove_virus", "set_gate", "registrations",
                       # helper C: Ride, crystal armament
                       "ride", "crystal_arm"),
        ("op", "zone"): ("deck_top",),
        ("ability", "trigger"): ("up_phase_start", "draw_phase_start", "ener_phase_start",
                                 "grow_phase_start", "arts_step_start", "seed_blooms",
                                 "trap_revealed", "coins_paid", "life_cloth_moved",
                                 "targeted", "signi_attack_step_start",
                                 "lrig_attack_step_start", "drive"),
        ("op", "keyword"): ("wisdom",),
    }),
}


def too_new(raw: Mapping[str, Any], declared: int) -> tuple[str, str, int] | None:
    """The first thing of ``raw`` that a version after ``declared`` added: (where, what,
    version), or None."""
    later = {v: a for v, a in ADDED.items() if v > declared}
    if not later:
        return None
    for node in walk(raw):
        for version, added in later.items():
            for key in added.keys.get(node.kind, ()):
                if key in node.table:
                    return shown((*node.path, key)), f"the field {key}", version
            for (kind, key), values in added.values.items():
                value = node.table.get(key)
                if kind == node.kind and isinstance(value, str) and value in values:
                    return shown((*node.path, key)), f"{key} = {value!r}", version
    return None


def migrate_command(path: str) -> str:
    """The command that upgrades the file ``path``, as messages quote it."""
    return f"judge migrate {path}"


# ---------------------------------------------------------------------------- detection


@dataclass(frozen=True)
class Detected:
    """A file's version: ``low`` to ``high`` (equal when it is known), and ``why``: what in
    the file bounds it, or the key that declares it."""

    low: int
    high: int
    why: tuple[str, ...]
    declared: bool = False

    def __str__(self) -> str:
        if self.declared:
            return f"format {self.high}"
        span = f"format {self.high}" if self.low == self.high else \
            f"format {self.low} to {self.high}"
        return f"{span} (told from its content: {'; '.join(self.why)})"


#: What a version added (a file that has it is that version or later): (version, kind of
#: table, key or value test, description).
_V2_SETUP = ("attack_step", "arts_priority", "ener_done", "grown", "redrawn")
_V2_STEPS = ("ener", "pass", "attack", "start_game", "redraw")
_V2_OPS = ("freeze", "down", "up", "keyword", "cost_change", "cost_modify")
_V5_SETUP = ("format", "coins", "removed")
_V5_OPS = ("set_power", "set_level", "cannot", "lose_abilities", "replace", "upper_limit",
           "draw_limit", "use", "set_seed", "bloom", "set_trap", "make_token", "coins")
_V5_CARD = ("recollect", "bet", "token", "trap", "rise", "summon", "grants", "modes", "choose",
            "cross")
_V5_ZONES = ("seed1", "seed2", "seed3", "trap1", "trap2", "trap3", "cheer")


def _later(raw: Mapping[str, Any]) -> Iterator[tuple[int, str]]:
    """(version, what): things of the file that a version added."""
    setup = raw.get("setup")
    if isinstance(setup, dict):
        for key in _V2_SETUP:
            if key in setup:
                yield 2, f"setup.{key}"
        for key in _V5_SETUP:
            if key in setup:
                yield 5, f"setup.{key}"
        for player in ("p1", "p2"):
            zones = setup.get(player)
            if isinstance(zones, dict):
                for zone in _V5_ZONES:
                    if zone in zones:
                        yield 5, f"setup.{player}.{zone}"
    if isinstance(raw.get("sources"), list) and any(isinstance(s, str)
                                                    for s in raw["sources"]):
        yield 4, "sources cites the registry"
    for node in walk(raw):
        table = node.table
        if node.kind == "step":
            if table.get("action") in _V2_STEPS:
                yield 2, f"a {table.get('action')} step"
            if table.get("action") == "summon" or (table.get("action") == "remove"
                                                   and "cards" in table):
                yield 5, f"{node.where}.{'cards' if 'cards' in table else 'action'}"
            if isinstance(table.get("expect_illegal"), dict):
                yield 2, f"{node.where}.expect_illegal as a table"
        elif node.kind == "op":
            if table.get("op") in _V2_OPS:
                yield 2, f"the {table.get('op')} operation"
            if table.get("op") in _V5_OPS or "if" in table or "if_done" in table:
                yield 5, f"{node.where}"
        elif node.kind == "card":
            for key in ("cost", "timing"):
                if key in table:
                    yield 2, f"{node.where}.{key}"
            for key in _V5_CARD:
                if key in table:
                    yield 5, f"{node.where}.{key}"
        elif node.kind == "ability":
            for key in ("while", "once_per_turn", "by", "modes", "choose"):
                if key in table:
                    yield 5, f"{node.where}.{key}"
        elif node.kind == "target":
            for key in ("all", "other", "class", "colour", "crossed"):
                if key in table:
                    yield 5, f"{node.where}.{key}"
        elif node.kind == "condition" and "charm" in table:
            yield 6, f"{node.where}.charm"
        elif node.kind == "expect":
            for key in ("attack_step", "win_reason", "down", "frozen"):
                if key in table:
                    yield 2, f"{node.where}.{key}"
            for key in ("coins", "visible"):
                if key in table:
                    yield 5, f"{node.where}.{key}"
            for key in ("keywords", "lost", "crossed"):
                if key in table:
                    yield 6, f"{node.where}.{key}"


#: Classes a version-6 file may name (judge/engine/classes.py had these then).
_CLASSES: Final = ("Weapon", "Beast", "Angel", "Machine")


def _earlier(raw: Mapping[str, Any]) -> Iterator[tuple[int, str]]:
    """(version, what): things of the file that a later version stopped reading, with the
    last version that read them."""
    sources = raw.get("sources")
    if isinstance(sources, list) and any(isinstance(s, dict) for s in sources):
        yield 3, "[[sources]] tables"
    for node in walk(raw):
        table = node.table
        if node.kind == "event" and isinstance(table.get("reason"), str) and \
                " " in table["reason"]:
            yield 2, f"{node.where}.reason in English"
        elif node.kind == "step" and table.get("expect_illegal") == "no-such-phase":
            yield 1, f"{node.where}.expect_illegal = no-such-phase"
        elif node.kind == "card" and isinstance(table.get("class"), str) and \
                table["class"] not in _CLASSES:
            yield 5, f"{node.where}.class is not a declared class"
    setup = raw.get("setup")
    if isinstance(setup, dict) and "format" not in setup and any(
            isinstance(setup.get(p), dict) and (setup[p].get("assist1") or
                                                setup[p].get("assist2"))
            for p in ("p1", "p2")):
        yield 4, "assist LRIGs without setup.format"
    for finding in findings(raw, FORMAT_VERSION):
        yield finding.since - 1, f"{finding.where}: {finding.what}"


def detect(raw: Mapping[str, Any]) -> Detected:
    """The version of a file: the one it declares (``format_version``), or else the versions
    its content allows, all of them before :data:`FIRST_DECLARED` (a file of that version or
    later says so)."""
    declared = raw.get(FORMAT_KEY)
    if isinstance(declared, int) and not isinstance(declared, bool):
        return Detected(declared, declared, (f"{FORMAT_KEY} = {declared}",), declared=True)
    low, high = 1, FIRST_DECLARED - 1
    lows: list[str] = []
    highs: list[str] = []
    for version, what in _later(raw):
        if version > low:
            low, lows = version, [what]
    for version, what in _earlier(raw):
        if version < high:
            high, highs = version, [what]
    low = min(low, high)
    why = [*(f"{w} (from format {low})" for w in lows[:1]),
           *(f"{w} (until format {high})" for w in highs[:1])]
    if not why:
        why = [f"no {FORMAT_KEY}"]
    return Detected(low, high, tuple(why))


# ---------------------------------------------------------------------------- deprecations


@dataclass(frozen=True)
class Finding:
    """Something of a file that a version no longer reads: at ``path`` (what ``judge
    migrate`` removes: a key, a list item or a table), ``what`` it is and the ``new`` form."""

    path: Path
    what: str
    new: str
    since: int
    #: whether the loader leaves it out of an older file (a key, an item); a whole card is
    #: read as before (its errors are still errors), only not refused for being unused
    strip: bool = True

    @property
    def where(self) -> str:
        return shown(self.path)




def _op_findings(node: Node, raw: Mapping[str, Any]) -> Iterator[Finding]:
    op = node.table
    name = op.get("op")
    here = node.path
    if name == "cannot" and op.get("by") in ("opponent", "any") and \
            op.get("what") not in RESISTANCES:
        yield Finding((*here, "by"), f"by on cannot {op.get('what')} (never read)",
                      "drop it: only a resistance says whose effects it resists "
                      f"({', '.join(RESISTANCES)})", 7)
    card_level = (name == "cannot" and op.get("what") in CARD_CANNOT) or \
        (name == "replace" and op.get("event") in CARD_EVENTS)
    if card_level and "who" in op and "target" in op:
        yield Finding((*here, "who"), f"who beside the target of {name} (never read)",
                      "say whose cards in the target table (target = { who = ... })", 7)
    if name == "discard" and "target" in op:
        for key in ("who", "count"):
            if key in op:
                yield Finding((*here, key), f"{key} beside the target of discard (never read)",
                              "the target says which cards; or give who and count without "
                              "a target", 7)
    if name == "place" and op.get("position") in ("top", "bottom") and \
            op.get("zone") not in ("deck", "life"):
        yield Finding((*here, "position"), f"position of a place into {op.get('zone')} "
                      "(never read)", "position only for zone = \"deck\" or \"life\"", 7)
    if name == "keyword" and op.get("keyword") == "charm":
        yield Finding(here, "a keyword operation giving charm (never read)",
                      "Charm is no keyword: use the charm operation or the charm condition",
                      7)


def _setup_findings(node: Node, raw: Mapping[str, Any]) -> Iterator[Finding]:
    from judge.scenario.load import FLAG_PHASES  # the loader imports this module

    setup = node.table
    phase = setup.get("phase", "main")
    for flag, phases in FLAG_PHASES.items():
        if setup.get(flag) is True and phase not in phases:
            yield Finding(("setup", flag), f"setup.{flag} in the {phase} phase (never read)",
                          f"drop it: only in the phases {', '.join(phases)}", 7)
    if setup.get("removed") is True and phase in FLAG_PHASES["removed"]:
        rulesets = raw.get("rulesets")
        names = [rulesets] if isinstance(rulesets, str) else rulesets
        if isinstance(names, list) and "current" not in names:
            yield Finding(("setup", "removed"), "setup.removed under rule sets that do not "
                          "limit removing (never read)", "drop it", 7)
    if setup.get("redrawn") and phase != "setup":
        yield Finding(("setup", "redrawn"), f"setup.redrawn in the {phase} phase (never read)",
                      "drop it: only in the set-up (phase = \"setup\")", 7)


def _card_findings(node: Node, raw: Mapping[str, Any]) -> Iterator[Finding]:
    card = node.table
    ctype = card.get("type")
    for key, types in TYPE_FIELDS.items():
        if key in card and isinstance(ctype, str) and ctype not in types:
            yield Finding((*node.path, key), f"{key} on a card of type {ctype} (never read)",
                          f"drop it: only {', '.join(types)} cards have {key}", 7)
    for key in ("keywords", "grants"):
        words = card.get(key)
        if isinstance(words, list):
            for i, word in enumerate(words):
                if word == "charm":
                    yield Finding((*node.path, key, i), f"charm in {key} (never read)",
                                  "Charm is no keyword: use the charm operation or the charm "
                                  "condition", 7)
    if node.path[0] == "cards" and len(node.path) == 2 and not is_card_file(raw) and \
            node.path[1] not in _used_cards(raw):
        yield Finding(node.path, f"the card {node.path[1]}, which no card of the set-up is "
                      "(never read)", "lay it out as \"LABEL:card-id\", or drop it", 7,
                      strip=False)


def _card_of(text: Any) -> str:
    """The card id of a set-up item ``LABEL``, ``LABEL:id`` or ``PREFIX*N:id``."""
    if not isinstance(text, str):
        return ""
    return text.partition(":")[2] or "filler"


def _used_cards(raw: Mapping[str, Any]) -> set[str]:
    """The card ids the set-up lays out and the token ARTS operations make."""
    used: set[str] = set()
    for node in walk(raw):
        if node.kind == "zone-item":
            used.add(_card_of(node.table.get("card")))
            for key in ("under", "charm", "accessory"):
                value = node.table.get(key)
                for item in value if isinstance(value, list) else [value]:
                    used.add(_card_of(item))
        elif node.kind == "op" and node.table.get("op") == "make_token":
            used.add(_card_of(node.table.get("card")))
    return used


def _ability_findings(node: Node, raw: Mapping[str, Any]) -> Iterator[Finding]:
    ability = node.table
    kind = ability.get("kind")
    if kind in ("action", "const") and "zone" in ability:
        name = "an action" if kind == "action" else "a constant"
        yield Finding((*node.path, "zone"), f"zone on {name} ability (never read)",
                      "drop it: an action or constant ability works from the field", 7)
    if kind == "action" and "optional" in ability:
        yield Finding((*node.path, "optional"), "optional on an action ability (never read)",
                      "drop it: an action ability is used only when its player chooses", 7)


def _zone_findings(node: Node, raw: Mapping[str, Any]) -> Iterator[Finding]:
    from judge.scenario.load import UPRIGHT_ZONES  # the loader imports this module

    item = node.table
    zone = node.context.get("zone")
    for flag in ("down", "frozen"):
        if item.get(flag) is True and zone not in UPRIGHT_ZONES:
            yield Finding((*node.path, flag), f"{flag} on a card in the {zone} zone "
                          "(never read)", f"drop it: only in {', '.join(UPRIGHT_ZONES)}", 7)
    if item.get("crushed") is True and zone != "check":
        yield Finding((*node.path, "crushed"), f"crushed on a card in the {zone} zone "
                      "(never read)", "drop it: only a card in the check zone is crushed", 7)


def _cheer_labels(raw: Mapping[str, Any], before: int) -> set[str]:
    labels: set[str] = set()
    for node in walk(raw):
        if node.kind == "zone-item" and node.context.get("zone") == "cheer":
            card = node.table.get("card")
            if isinstance(card, str):
                labels.add(card.partition(":")[0])
        elif node.kind == "step" and isinstance(node.path[1], int) and node.path[1] < before \
                and node.table.get("action") in ("play", "summon") and \
                node.table.get("zone") == "cheer":
            labels.add(str(node.table.get("card")))
    return labels


def _step_findings(node: Node, raw: Mapping[str, Any]) -> Iterator[Finding]:
    step = node.table
    index = node.path[1]
    if step.get("action") == "attack" and \
            step.get("zone") in ("signi1", "signi2", "signi3", "cheer") and \
            isinstance(index, int) and step.get("card") not in _cheer_labels(raw, index):
        yield Finding((*node.path, "zone"), "zone on the attack of a SIGNI outside the cheer "
                      "zone (never read)", "drop it: only a cheer SIGNI names the zone it "
                      "attacks", 7)


_RULES: Final[dict[str, Callable[[Node, Mapping[str, Any]], Iterator[Finding]]]] = {
    "op": _op_findings, "setup": _setup_findings, "card": _card_findings,
    "ability": _ability_findings, "zone-item": _zone_findings, "step": _step_findings,
}


def findings(raw: Mapping[str, Any], version: int) -> list[Finding]:
    """What of ``raw`` format ``version`` no longer reads (each was accepted and never
    changed a replay before format 7, which refuses it), in file order."""
    out: list[Finding] = []
    for node in walk(raw):
        rule = _RULES.get(node.kind)
        if rule is not None:
            out.extend(f for f in rule(node, raw) if f.since <= version)
    return out


def changed_meanings(raw: Mapping[str, Any], version: int) -> list[Finding]:
    """What a version after ``version`` (the file's) reads that it did not before (the field
    kept, its meaning new): a file of an earlier version that has it is warned."""
    return [f for f in _changed_meanings(raw) if f.since > version]


def _changed_meanings(raw: Mapping[str, Any]) -> list[Finding]:
    out = []
    for node in walk(raw):
        op = node.table
        if node.kind == "op" and op.get("op") == "cannot" and "by" in op and \
                (op.get("what") in ("be_banished", "be_trashed") or
                 (op.get("what") == "be_chosen" and op.get("by") == "any")):
            out.append(Finding((*node.path, "by"), f"by on cannot {op.get('what')} was not "
                               "read before format 7 (be_chosen: not against its own player)",
                               f"now the card resists the effects of {op.get('by')!s} only "
                               "(never battle or rule processing): check the expectations",
                               7))
    return out

