"""The facts of an answer: what the ruling's expectations look at, read from a replay's end.

A question asks "What happens?" about the facts its ruling states for the rule set it is
asked under (the zones, the phase, the turn, the turn player, the winner, power, level, limit
and refreshes of :func:`judge.site.sections.facts`). Every answer, right or wrong, is those
same facts read from the final position of one replay (:func:`observe`), as a
:class:`~judge.scenario.model.StatePattern` that the position matches; so an answer is told
with the sentences a ruling page gives its expectations
(:func:`judge.site.sections.answer_sentences`) and checked with the loader's own comparison
(:func:`judge.scenario.expect.state_diff`). Language-free.
"""

from __future__ import annotations

from collections.abc import Iterable

from judge.engine.state import ON_FIELD, ZoneRef
from judge.engine.trace import Position, PositionView
from judge.errors import EngineError
from judge.scenario.expect import ORDERED_ZONES
from judge.scenario.model import StatePattern, ZonePattern

#: A fact of an answer, comparable and hashable: (kind, subject, value).
Fact = tuple[str, str, object]


def template(states: Iterable[StatePattern]) -> StatePattern:
    """What a question asks about: the facts the given expectations name, merged (the zones
    in the order they first appear)."""
    zones: dict[str, ZonePattern] = {}
    phase = attack = turn = player = winner = None
    power: dict[str, int] = {}
    level: dict[str, int] = {}
    limit: dict[str, int] = {}
    refreshes: dict[str, int] = {}
    for s in states:
        for where, pattern in s.zones.items():
            zones.setdefault(where, pattern)
        phase = phase or s.phase
        attack = attack or s.attack_step
        turn = turn if turn is not None else s.turn
        player = player or s.turn_player
        winner = winner or s.winner
        power.update(s.power)
        level.update(s.level)
        limit.update(s.limit)
        refreshes.update(s.refreshes)
    return StatePattern(zones=zones, phase=phase, attack_step=attack, turn=turn,
                        turn_player=player, winner=winner, power=power, level=level,
                        limit=limit, refreshes=refreshes)


def asks(state: StatePattern) -> bool:
    """Whether a template names any fact an answer can tell."""
    return bool(state.zones or state.phase or state.attack_step or state.turn is not None
                or state.turn_player or state.winner or state.power or state.level
                or state.limit or state.refreshes)


def _zone(pos: Position | PositionView, where: str, pattern: ZonePattern) -> ZonePattern:
    ref = ZoneRef.parse(where)
    got = pos.labels(ref)
    if pattern.mode == "count":
        return ZonePattern("count", count=len(got))
    if pattern.mode in ("contains", "lacks"):
        present = tuple(c for c in pattern.cards if c in got)
        absent = tuple(c for c in pattern.cards if c not in got)
        # a judge sees which of the named cards are there: the one that holds says it
        return ZonePattern("contains", present) if present and not absent else \
            ZonePattern("lacks", absent) if absent and not present else \
            ZonePattern("list", tuple(got) if ref.zone in ORDERED_ZONES
                        and where not in pos.shuffled else tuple(sorted(got)))
    if ref.zone in ORDERED_ZONES and where not in pos.shuffled:
        return ZonePattern("exact", tuple(got))
    return ZonePattern("same", tuple(sorted(got)))


def observe(pos: Position | PositionView, asked: StatePattern) -> StatePattern:
    """The facts ``asked`` names, as they are in ``pos`` (a pattern ``pos`` matches). A power
    asked of a card that is no longer on the field is left out: where it went is a zone's
    fact. ``pos`` may be a trace's :attr:`~judge.engine.trace.Trace.final_view`: only the
    zones asked about are then made into card states (most answers' final positions are
    read for nothing else)."""
    power = {}
    for label in asked.power:
        try:
            where, card = pos.find(label)
        except EngineError:
            continue
        if where.zone in ON_FIELD and card.power is not None:
            power[label] = card.power
    level = {}
    for label in asked.level:
        try:
            level[label] = pos.find(label)[1].level
        except EngineError:
            continue
    return StatePattern(
        zones={w: _zone(pos, w, p) for w, p in asked.zones.items()},
        phase=pos.phase if asked.phase else None,
        attack_step=pos.attack_step or None if asked.attack_step else None,
        turn=pos.turn if asked.turn is not None else None,
        turn_player=pos.turn_player if asked.turn_player else None,
        winner=(pos.winner or "none") if asked.winner else None,
        power=power, level=level,
        limit={p: pos.player(p).limit for p in asked.limit},
        refreshes={p: pos.player(p).refreshes for p in asked.refreshes})


def fact_set(state: StatePattern) -> frozenset[Fact]:
    """The facts of an answer as a set (two answers a judge cannot tell apart have the same
    set)."""
    out: set[Fact] = set()
    for where, z in state.zones.items():
        cards: object = z.count if z.mode == "count" else z.cards
        out.add(("zone", where, (z.mode, cards)))
    for name in ("phase", "attack_step", "turn", "turn_player", "winner"):
        value = getattr(state, name)
        if value is not None:
            out.add((name, "", value))
    for name in ("power", "level", "limit", "refreshes"):
        for key, number in getattr(state, name).items():
            out.add((name, key, number))
    return frozenset(out)


def only(state: StatePattern, keep: frozenset[tuple[str, str]]) -> StatePattern:
    """``state`` with only the facts whose (kind, subject) is in ``keep``."""
    return StatePattern(
        zones={w: z for w, z in state.zones.items() if ("zone", w) in keep},
        phase=state.phase if ("phase", "") in keep else None,
        attack_step=state.attack_step if ("attack_step", "") in keep else None,
        turn=state.turn if ("turn", "") in keep else None,
        turn_player=state.turn_player if ("turn_player", "") in keep else None,
        winner=state.winner if ("winner", "") in keep else None,
        power={k: v for k, v in state.power.items() if ("power", k) in keep},
        level={k: v for k, v in state.level.items() if ("level", k) in keep},
        limit={k: v for k, v in state.limit.items() if ("limit", k) in keep},
        refreshes={k: v for k, v in state.refreshes.items() if ("refreshes", k) in keep})


def telling(states: Iterable[StatePattern]) -> frozenset[tuple[str, str]]:
    """The (kind, subject) of the facts in which the given answers do not all agree: what an
    answer needs to say to be told from the others (a fact every answer shares says
    nothing)."""
    sets = [fact_set(s) for s in states]
    if not sets:
        return frozenset()
    common = frozenset.intersection(*sets)
    return frozenset((kind, subject) for s in sets for kind, subject, _ in s - common)
