"""``judge coverage``: what the rulings exercise, read from their replayed events.

For each kind of rule processing (``rule_check`` events), each phase (``phase`` events), each
step of the attack phase (``attack_step`` events), each dated rule set (the rulings replayed
under it, and those whose trace differs there from another rule set of the same ruling) and
each glossary term, the rulings that exercise it, over every rule set and every explored branch
of each ruling. A glossary term counts a ruling when one of its events maps to the term
(:func:`event_terms`, the tables of :func:`term_maps` and docs/coverage.md) or when the ruling
lists the term in ``terms``; the two sources are reported apart as well. The kinds of rule
processing, the zones, phases and steps, and each mechanic declare their own terms in the
engine; this module reads those declarations.

The site shows the same table: it calls :func:`compute` on the corpus it loaded.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from judge.corpus import Corpus, Ruling
from judge.engine import events as ev
from judge.engine import mechanics
from judge.engine.events import AbilityRef, Event
from judge.engine.rule_processing import BY_ID as RULE_KIND_BY_ID
from judge.engine.rule_processing import KINDS, TOGETHER_SOURCE
from judge.engine.rule_processing import TABLE as RULE_KIND_TABLE
from judge.engine.state import ATTACK_STEP_TERMS, ATTACK_STEPS, PHASE_TERMS, PHASES, ZONE_TERMS

# ---------------------------------------------------------------------- events -> terms

#: Event type -> glossary terms, whatever the event's details (the event types a mechanic
#: declares map to its term: see :func:`term_maps`).
EVENT_TYPE_TERMS: dict[str, tuple[str, ...]] = {
    "refresh": ("refresh",),
    "refresh_waits": ("refresh",),
    "rule_check": ("rule-processing",),
    "banish": ("banish",),
    "burst": ("life-burst",),
    "attack": ("attack",),
    "battle": ("battle",),
    "game_over": ("game-over",),
    "down": ("down",),
    "up": ("up",),
    "freeze": ("frozen",),
    "trigger": ("triggered-ability",),
    "trigger_lost": ("triggered-ability",),
    "trigger_declined": ("triggered-ability",),
    "trigger_dropped": ("triggered-ability",),
    "replaced": ("replacement-effect",),
    "effect_begin": ("effect",),
    "shuffle": ("shuffle",),
    "redraw": ("redraw",),
    "game_start": ("setup",),
    "power": ("power",),
    "level": ("level",),
    "limit": ("limit",),
    "pay": ("cost",),
    "arts_pass": ("arts-step",),
}
#: ``move`` events: their verb -> glossary terms (the verbs of rule processing and of the
#: mechanics map to their declared terms as well: see :func:`term_maps`).
MOVE_VERB_TERMS: dict[str, tuple[str, ...]] = {
    "draw": ("draw",),
    "mill": ("mill",),
    "discard": ("discard",),
    "crush": ("crush",),
    "grow": ("grow",),
    "ener_charge": ("ener-charge",),
    "ener_phase": ("ener-charge",),
    "remove": ("remove",),
    "refresh_life": ("refresh",),
    "after_burst": ("life-burst",),
    "redraw": ("redraw",),
    "pay": ("cost",),
    "exceed": ("cost",),
    "hand_limit": ("end-phase",),
}
#: ``move`` events with verb ``use``: the zone the card is used from -> glossary terms.
USE_FROM_TERMS: dict[str, tuple[str, ...]] = {"hand": ("spell",), "lrig_deck": ("arts",)}
#: ``choice`` events: their kind -> glossary terms (with the mechanics' choice kinds).
CHOICE_TERMS: dict[str, tuple[str, ...]] = {
    "cut_in": ("cut-in",), "burst_order": ("life-burst",),
    "trigger_order": ("triggered-ability",), "excess": ("exceed-level-limit",),
}
#: ``turn_end`` events: their reason -> glossary terms.
TURN_END_TERMS: dict[str, tuple[str, ...]] = {"second_refresh": ("refresh",),
                                             "end_phase": ("end-phase",)}


def _one(table: Mapping[str, str]) -> dict[str, tuple[str, ...]]:
    return {key: (term,) for key, term in table.items()}


def _merge(*tables: Mapping[str, tuple[str, ...]]) -> dict[str, tuple[str, ...]]:
    out: dict[str, tuple[str, ...]] = {}
    for table in tables:
        for key, terms in table.items():
            out[key] = (*out.get(key, ()), *(t for t in terms if t not in out.get(key, ())))
    return out


def _build_maps() -> dict[str, Mapping[str, tuple[str, ...]]]:
    found = mechanics.all_mechanics()
    kinds = {k.id: k.term for k in RULE_KIND_TABLE if k.term}
    return {
        "event type": _merge(EVENT_TYPE_TERMS,
                             *({t: (m.term,) for t in m.events} for m in found)),
        # a move made by rule processing has the kind as its verb
        "move verb": _merge(MOVE_VERB_TERMS, _one(kinds),
                            *({v: (m.term,) for v in m.verbs} for m in found)),
        "use from": USE_FROM_TERMS,
        "rule processing kind": _one(kinds),
        "phase": _one({p: t for p, t in PHASE_TERMS.items() if p in PHASES}),
        "attack step": _one(ATTACK_STEP_TERMS),
        "choice kind": _merge(CHOICE_TERMS, *({c: (m.term,) for c in m.choices} for m in found)),
        "turn end reason": TURN_END_TERMS,
        "zone": _one(ZONE_TERMS),
        # ``trigger`` events of keyword abilities (``S1#lancer``): the keyword's term
        "keyword ability": {k: (m.term,) for m in found for k in [m.id] if m.ability},
    }


_maps: tuple[int, dict[str, Mapping[str, tuple[str, ...]]]] | None = None


def term_maps() -> dict[str, Mapping[str, tuple[str, ...]]]:
    """Every table from events to glossary terms, by name (for the documentation and the
    tests): the tables above, with the terms that the kinds of rule processing
    (:data:`judge.engine.rule_processing.TABLE`), the engine's zones, phases and attack steps
    (:data:`judge.engine.state.ZONE_TERMS`, ...) and the registered mechanics
    (:mod:`judge.engine.mechanics`: their events, verbs, choice kinds and keyword abilities)
    declare. Rebuilt when the registered mechanics change."""
    global _maps
    if _maps is None or _maps[0] != mechanics.version():
        _maps = (mechanics.version(), _build_maps())
    return _maps[1]


def event_terms(event: Event) -> set[str]:
    """The glossary terms one event exercises."""
    maps = term_maps()
    out = set(maps["event type"].get(event.type, ()))
    if isinstance(event, ev.Move):
        out.update(maps["move verb"].get(event.verb, ()))
        if event.verb == "use" and event.from_zone is not None:
            out.update(USE_FROM_TERMS.get(event.from_zone.zone, ()))
    if isinstance(event, ev.Move | ev.Banish):
        zones = maps["zone"]
        for ref in (event.from_zone, event.to_zone):
            if ref is not None:
                out.update(zones.get(ref.zone, ()))
    elif isinstance(event, ev.RuleCheck):
        kinds = maps["rule processing kind"]
        for kind in event.kinds:
            out.update(kinds.get(kind, ()))
    elif isinstance(event, ev.Phase):
        out.update(maps["phase"].get(event.phase, ()))
    elif isinstance(event, ev.AttackStep):
        out.update(maps["attack step"].get(event.attack_step, ()))
    elif isinstance(event, ev.Choice):
        out.update(maps["choice kind"].get(event.kind, ()))
    elif isinstance(event, ev.TurnEnd):
        out.update(TURN_END_TERMS.get(event.reason, ()))
    elif isinstance(event, ev.Trigger):
        keyword = event.ability.keyword
        if keyword is not None:
            out.update(maps["keyword ability"].get(keyword, ()))
    elif isinstance(event, ev.Lasting) and event.kind.name == "banish_to_trash":
        out.add("replacement-effect")
    return out


# ---------------------------------------------------------------------- the rule behind


@dataclass(frozen=True)
class RuleRef:
    """The rule behind a narrated event, as the engine declares it (the declarations this
    module reads for its terms): a kind of rule processing (``what`` ``kind``, ``id`` its id:
    :data:`judge.engine.rule_processing.TABLE`), property 3 of rule processing (``together``:
    the kinds at once, the owner's order), or a keyword or other mechanic (``mechanic``,
    ``id`` its id: :mod:`judge.engine.mechanics`); with the citation of its ``source`` and
    its glossary ``term``. The site links a step to where the rule is stated and its
    source."""

    what: str
    id: str
    source: str
    term: str | None = None


def _kind_rule(kind: str) -> RuleRef | None:
    decl = RULE_KIND_BY_ID.get(kind)
    return None if decl is None else RuleRef("kind", decl.id, decl.source, decl.term)


def _mechanic_rule(mechanic: str | None) -> RuleRef | None:
    found = mechanics.get(mechanic) if mechanic else None
    return None if found is None else RuleRef("mechanic", found.id, found.source, found.term)


TOGETHER = RuleRef("together", "together", TOGETHER_SOURCE, "rule-processing")


def event_rules(event: Event, in_check: bool = False) -> tuple[RuleRef, ...]:
    """The rules that drive ``event``, from the declarations: the kinds a ``rule_check``
    applies (and property 3 when it acts on more than one thing at once, or an owner's
    ``rule_order`` choice); the kind a move, banish, replacement, shuffle, refresh or wait of
    rule processing is made by (a refresh and its moves only ``in_check``: under the launch
    rules the refresh interrupts anything and is no kind of rule processing); the kind whose
    choice a choice is; the mechanic whose event, move verb or choice kind it is, or whose
    keyword ability it comes from (``S1#lancer``). Nothing for the rest: the steps of the
    game."""
    found: list[RuleRef | None] = []
    if isinstance(event, ev.RuleCheck):
        kinds = dict.fromkeys([a.kind for a in event.acts] or list(event.kinds))
        found.extend(_kind_rule(k) for k in kinds)
        if len(event.acts) > 1:
            found.append(TOGETHER)
    elif isinstance(event, ev.Choice):
        if event.kind == "rule_order":
            found.append(TOGETHER)
        found.extend(_kind_rule(k.id) for k in RULE_KIND_TABLE if k.choice == event.kind)
        found.extend(_mechanic_rule(m.id) for m in mechanics.all_mechanics()
                     if event.kind in m.choices)
    elif event.cause == "rule":
        if isinstance(event, ev.Move) and event.verb in RULE_KIND_BY_ID and \
                (in_check or event.verb != "refresh"):
            found.append(_kind_rule(event.verb))
        elif isinstance(event, ev.Banish | ev.Replaced):
            found.append(_kind_rule("power"))
        elif in_check or isinstance(event, ev.RefreshWaits):
            found.append(_kind_rule("refresh"))
    if not found:
        for m in mechanics.all_mechanics():
            if event.type in m.events or (isinstance(event, ev.Move) and event.verb in m.verbs):
                found.append(_mechanic_rule(m.id))
        ability = getattr(event, "ability", None)
        for ref in (ability, event.source):
            if isinstance(ref, AbilityRef) and ref.keyword is not None:
                found.append(_mechanic_rule(ref.keyword))
    return tuple(dict.fromkeys(r for r in found if r is not None))


# ---------------------------------------------------------------------- the report

#: The sections of the report, in order: (category, heading).
CATEGORIES: tuple[tuple[str, str], ...] = (
    ("rule-processing", "Rule processing (rule_check events)"),
    ("phase", "Phases (phase events)"),
    ("attack-step", "Attack steps (attack_step events)"),
    ("ruleset", "Rule sets (rulings replayed under it; differs: the trace differs from "
                "another rule set of the ruling)"),
    ("term", "Glossary terms (events: from the events; terms: listed in the ruling; "
             "rulings: either)"),
)


@dataclass(frozen=True)
class Row:
    """One line of the report: ``rulings`` is the count the report gives."""

    category: str
    item: str
    label: str
    rulings: tuple[str, ...]
    from_events: tuple[str, ...] = ()
    from_terms: tuple[str, ...] = ()
    differs: tuple[str, ...] = ()

    @property
    def count(self) -> int:
        return len(self.rulings)

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"item": self.item, "label": self.label, "count": self.count,
                               "rulings": list(self.rulings)}
        if self.category == "term":
            out["from_events"] = list(self.from_events)
            out["from_terms"] = list(self.from_terms)
        if self.category == "ruleset":
            out["differs"] = list(self.differs)
        return out


@dataclass(frozen=True)
class Coverage:
    rows: tuple[Row, ...]
    rulings: int

    def section(self, category: str) -> list[Row]:
        return [r for r in self.rows if r.category == category]

    def missing(self, category: str) -> list[str]:
        """The items of ``category`` that no ruling exercises."""
        return [r.item for r in self.section(category) if not r.rulings]

    def row(self, category: str, item: str) -> Row:
        for r in self.rows:
            if r.category == category and r.item == item:
                return r
        raise KeyError((category, item))

    def to_dict(self) -> dict[str, Any]:
        return {"rulings": self.rulings,
                "sections": {cat: [r.to_dict() for r in self.section(cat)]
                             for cat, _ in CATEGORIES},
                "missing": {cat: self.missing(cat) for cat, _ in CATEGORIES}}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, indent=1)


def _events(ruling: Ruling) -> Iterator[Event]:
    for rep in ruling.replays.values():
        for branch in rep.branches:
            yield from branch


def _signature(events: Iterable[Event]) -> tuple[Event, ...]:
    """The events as they compare between rule sets: all but their place in the log."""
    return tuple(e.replace(seq=0) for e in events)


class Tally:
    """The coverage table, counted one ruling at a time (:meth:`add` each ruling of the
    corpus, in any order, then :meth:`result` with the corpus): what is kept of a ruling is
    its id in the rows it exercises, never its traces, so a corpus read as a stream is counted
    as it goes by (``judge db``), or as its files are first read (``judge build``)."""

    def __init__(self) -> None:
        self.count = 0
        self.kinds: dict[str, list[str]] = {k: [] for k in KINDS}
        self.phases: dict[str, list[str]] = {p: [] for p in PHASES}
        self.steps: dict[str, list[str]] = {s: [] for s in ATTACK_STEPS}
        # by rule set and by term: the corpus' rule sets and glossary keep theirs (result)
        self.replayed: dict[str, list[str]] = {}
        self.differs: dict[str, list[str]] = {}
        self.by_events: dict[str, list[str]] = {}
        self.by_terms: dict[str, list[str]] = {}

    def add(self, ruling: Ruling) -> None:
        self.count += 1
        rid = ruling.id
        seen_kinds: set[str] = set()
        seen_phases: set[str] = set()
        seen_steps: set[str] = set()
        seen_terms: set[str] = set()
        for event in _events(ruling):
            if isinstance(event, ev.RuleCheck):
                seen_kinds.update(event.kinds)
            elif isinstance(event, ev.Phase):
                seen_phases.add(event.phase)
            elif isinstance(event, ev.AttackStep):
                seen_steps.add(event.attack_step)
            seen_terms |= event_terms(event)
        for table, seen in ((self.kinds, seen_kinds), (self.phases, seen_phases),
                            (self.steps, seen_steps)):
            for item in seen:
                if item in table:
                    table[item].append(rid)
        for item in seen_terms:
            self.by_events.setdefault(item, []).append(rid)
        for listed in ruling.scenario.terms:
            self.by_terms.setdefault(listed, []).append(rid)
        signatures = {rs: _signature(rep.events) for rs, rep in ruling.replays.items()}
        for rs in ruling.replays:
            self.replayed.setdefault(rs, []).append(rid)
            if any(sig != signatures[rs] for sig in signatures.values()):
                self.differs.setdefault(rs, []).append(rid)

    def result(self, corpus: Corpus) -> Coverage:
        """The table of ``corpus`` (loaded with its replays; its rule sets and glossary give
        the rows), each row's rulings in order of id."""
        if not corpus.replayed:
            raise ValueError("coverage needs a corpus loaded with replay=True")

        def ids(table: dict[str, list[str]]) -> dict[str, list[str]]:
            return {key: sorted(rids) for key, rids in table.items()}

        kinds, phases, steps = ids(self.kinds), ids(self.phases), ids(self.steps)
        replayed = {rs: sorted(self.replayed.get(rs, ())) for rs in corpus.rulesets}
        differs = {rs: sorted(self.differs.get(rs, ())) for rs in corpus.rulesets}
        by_events = {t: sorted(self.by_events.get(t, ())) for t in corpus.glossary}
        by_terms = {t: sorted(self.by_terms.get(t, ())) for t in corpus.glossary}
        rows: list[Row] = []
        for kind, number in KINDS.items():
            rows.append(Row("rule-processing", kind, f"{number:>2} {kind}",
                            tuple(kinds[kind]), from_events=tuple(kinds[kind])))
        for phase in PHASES:
            rows.append(Row("phase", phase, phase, tuple(phases[phase]),
                            from_events=tuple(phases[phase])))
        for step in ATTACK_STEPS:
            rows.append(Row("attack-step", step, step, tuple(steps[step]),
                            from_events=tuple(steps[step])))
        for rs in corpus.rulesets:
            rows.append(Row("ruleset", rs, rs, tuple(replayed[rs]),
                            from_events=tuple(replayed[rs]), differs=tuple(differs[rs])))
        for term_id, term in corpus.glossary.items():
            either = tuple(sorted(set(by_events[term_id]) | set(by_terms[term_id])))
            rows.append(Row("term", term_id, term.name("en"), either,
                            from_events=tuple(by_events[term_id]),
                            from_terms=tuple(by_terms[term_id])))
        return Coverage(rows=tuple(rows), rulings=self.count)


def compute(corpus: Corpus) -> Coverage:
    """The coverage table of a corpus loaded with its replays."""
    tally = Tally()
    for ruling in corpus.rulings:
        tally.add(ruling)
    return tally.result(corpus)


def report_lines(cov: Coverage) -> Iterator[str]:
    """The text form of ``judge coverage``."""
    yield f"Coverage of {cov.rulings} rulings (every rule set and branch of each)"
    for category, heading in CATEGORIES:
        rows = cov.section(category)
        yield ""
        yield heading
        width = max((len(r.label) for r in rows), default=10) + 2
        if category == "term":
            yield f"  {'':{width}}{'events':>7}{'terms':>7}{'rulings':>9}"
        for row in rows:
            line = f"  {row.label:{width}}"
            if category == "term":
                line += f"{len(row.from_events):>7}{len(row.from_terms):>7}{row.count:>9}"
                line += f"  {row.item}" if row.item != row.label else ""
            elif category == "ruleset":
                line += f"{row.count:>5}  differs: {len(row.differs)}"
            else:
                line += f"{row.count:>5}"
            yield line.rstrip()
        missing = cov.missing(category)
        yield f"  none: {', '.join(missing)}" if missing else "  none: -"
    totals = []
    for category, _heading in CATEGORIES:
        rows = cov.section(category)
        totals.append(f"{sum(1 for r in rows if r.rulings)}/{len(rows)} "
                      f"{category.replace('-', ' ')}")
    yield ""
    yield "Exercised: " + ", ".join(totals)
