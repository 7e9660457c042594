"""Checking a replay against a ruling's expectations, with a zone-by-zone diff.

The expectations are checked against the traces of a replay (:mod:`judge.engine.trace`): the
state against each trace's final :class:`~judge.engine.trace.Position`, the events against its
events. Nothing here runs the engine.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from judge.engine.events import Event
from judge.engine.state import ON_FIELD, ZoneRef
from judge.engine.trace import Position, PositionView, Replay, Trace
from judge.errors import EngineError
from judge.scenario.model import (
    EventPattern,
    Expectation,
    Scenario,
    StatePattern,
    ZonePattern,
)

ORDERED_ZONES = ("deck", "life", "lrig", "assist1", "assist2")


def event_matches(pattern: EventPattern, event: Event) -> bool:
    """Whether ``event`` has every value ``pattern`` names: a ruling's ``{type = "move",
    from = "p1.deck", verb = "mill"}`` names the fields by their keys in the event's JSON
    form and compares their JSON values (zones and abilities as text, lists as lists)."""
    fields = pattern.fields
    kind = fields.get("type")
    if kind is not None and kind != event.type:
        return False  # most events of a log are of another type: no value is made for them
    value = event.pattern_value
    for key, want in fields.items():  # a loop, not all(): called for every event of a log
        if not value(key) == want:
            return False
    return True


def _zone_diff(pos: Position | PositionView, zone: str, pattern: ZonePattern,
               seed_fixed: bool) -> str | None:
    ref = ZoneRef.parse(zone)
    got = pos.labels(ref)
    shown = f"[{', '.join(got)}]"
    if pattern.mode == "count":
        if len(got) != pattern.count:
            return f"{zone}: expected {pattern.count} card(s), got {len(got)}: {shown}"
        return None
    if pattern.mode == "contains":
        missing = [c for c in pattern.cards if c not in got]
        return f"{zone}: expected to contain {', '.join(missing)}; got {shown}" \
            if missing else None
    if pattern.mode == "lacks":
        present = [c for c in pattern.cards if c in got]
        return f"{zone}: expected not to contain {', '.join(present)}; got {shown}" \
            if present else None
    want = list(pattern.cards)
    ordered = pattern.mode == "exact" or (pattern.mode == "list" and
                                          ref.zone in ORDERED_ZONES)
    if ordered and zone in pos.shuffled and not seed_fixed:
        ordered = False  # a shuffled zone compares as a multiset unless the seed is fixed
    if ordered:
        if got == want:
            return None
        return f"{zone}: expected [{', '.join(want)}] in this order, got {shown}"
    if sorted(got) == sorted(want):  # the same cards, in any order (labels are texts)
        return None
    missing = sorted((Counter(want) - Counter(got)).elements())
    extra = sorted((Counter(got) - Counter(want)).elements())
    parts = [f"{zone}: expected [{', '.join(want)}], got {shown}"]
    if missing:
        parts.append(f"missing {', '.join(missing)}")
    if extra:
        parts.append(f"unexpected {', '.join(extra)}")
    return "; ".join(parts)


def state_diff(pos: Position | PositionView, pattern: StatePattern, seed_fixed: bool) -> list[str]:
    """Lines describing every way the position differs from ``pattern`` (empty when it
    matches)."""
    out: list[str] = []
    for zone, zp in pattern.zones.items():
        line = _zone_diff(pos, zone, zp, seed_fixed)
        if line:
            out.append(line)
    scalars: list[tuple[str, Any, Any]] = [
        ("phase", pattern.phase, pos.phase),
        ("turn", pattern.turn, pos.turn),
        ("turn_player", pattern.turn_player, pos.turn_player),
        ("winner", pattern.winner, pos.winner or "none"),
        ("win_reason", pattern.win_reason, pos.win_reason),
        ("attack_step", pattern.attack_step, pos.attack_step),
    ]
    for name, want, got in scalars:
        if want is not None and want != got:
            out.append(f"{name}: expected {want}, got {got}")
    for label, want in pattern.power.items():
        where, card = pos.find(label)
        got = card.power if where.zone in ON_FIELD else None
        if got != want:
            out.append(f"power of {label}: expected {want}, got "
                       f"{got if got is not None else f'none ({label} is in {where})'}")
    for label, want in pattern.level.items():
        got_level = pos.find(label)[1].level
        if got_level != want:
            out.append(f"level of {label}: expected {want}, got {got_level}")
    for player, want in pattern.limit.items():
        got_limit = pos.player(player).limit
        if got_limit != want:
            out.append(f"limit of {player}: expected {want}, got {got_limit}")
    for label, want in pattern.down.items():
        got_down = pos.find(label)[1].down
        if got_down != want:
            out.append(f"{label}: expected {'down' if want else 'up'}, got "
                       f"{'down' if got_down else 'up'}")
    for label, want in pattern.frozen.items():
        got_frozen = pos.find(label)[1].frozen
        if got_frozen != want:
            out.append(f"{label}: expected {'' if want else 'not '}frozen, got "
                       f"{'' if got_frozen else 'not '}frozen")
    for player, want in pattern.refreshes.items():
        got_count = pos.player(player).refreshes
        if got_count != want:
            out.append(f"refreshes of {player} this turn: expected {want}, got {got_count}")
    for name, wanted in (("coins", pattern.coins), ("registrations", pattern.registrations)):
        for player, want in wanted.items():
            got_number = getattr(pos.player(player), name)
            if got_number != want:
                out.append(f"{name} of {player}: expected {want}, got {got_number}")
    for player, kinds in pattern.markers.items():
        held = pos.player(player).markers
        for kind, zones in kinds.items():
            got_zones = tuple(m.partition(":")[0] for m in held if m.endswith(f":{kind}"))
            if got_zones != zones:
                out.append(f"{kind} markers of {player}: expected {list(zones)}, got "
                           f"{list(got_zones)}")
    for label, words in pattern.keywords.items():
        where, card = pos.find(label)
        if where.zone not in ON_FIELD:
            out.append(f"keywords of {label}: expected {_words(words)}, but it is in {where}")
        elif frozenset(card.keywords) != words:
            out.append(f"keywords of {label}: expected {_words(words)}, got "
                       f"{_words(card.keywords)}")
    for name, table in (("lost", pattern.lost), ("crossed", pattern.crossed)):
        for label, want in table.items():
            got_flag = getattr(pos.find(label)[1], name)
            if got_flag != want:
                what = "lost its abilities" if name == "lost" else "in a cross state"
                out.append(f"{label}: expected {'' if want else 'not '}{what}, got "
                           f"{'' if got_flag else 'not '}{what}")
    for player, (seen, unseen) in pattern.visible.items():
        for label in seen:
            if not _sees(pos, player, label):
                out.append(f"{player} should be able to look at {label}, but may not "
                           f"({_where(pos, label)})")
        for label in unseen:
            if _sees(pos, player, label):
                out.append(f"{player} should not be able to look at {label}, but may "
                           f"({_where(pos, label)})")
    return out


def _words(words: Iterable[str]) -> str:
    return f"[{', '.join(sorted(words))}]"


def _sees(pos: Position | PositionView, player: str, label: str) -> bool:
    """Whether ``player`` may look at ``label``; a card no longer in the game (a token ARTS
    after its use) is seen by nobody."""
    try:
        return pos.sees(player, label)
    except EngineError:
        return False


def _where(pos: Position | PositionView, label: str) -> str:
    try:
        where, card = pos.find(label)
    except EngineError:
        return "it is no longer in the game"
    return f"it is in {where}{', face down' if card.face_down else ''}"


def events_diff(log: Sequence[Event], exp: Expectation) -> list[str]:
    out: list[str] = []
    if exp.subsequence:
        at = 0
        for pattern in exp.subsequence:
            while at < len(log) and not event_matches(pattern, log[at]):
                at += 1
            if at == len(log):
                out.append(f"events: no {pattern} after the events matched before it")
                break
            at += 1
    if exp.sequence:
        types = {p.fields["type"] for p in exp.sequence}
        got = [e for e in log if e.type in types]
        for i, pattern in enumerate(exp.sequence):
            if i >= len(got):
                out.append(f"events: expected {pattern} at position {i + 1} of the "
                           f"{'/'.join(sorted(types))} events, but there are only {len(got)}")
                break
            if not event_matches(pattern, got[i]):
                out.append(f"events: expected {pattern} at position {i + 1}, got {got[i]}")
                break
        else:
            if len(got) > len(exp.sequence):
                out.append(f"events: {len(got) - len(exp.sequence)} more "
                           f"{'/'.join(sorted(types))} event(s) than expected, first: "
                           f"{got[len(exp.sequence)]}")
    for pattern in exp.absent:
        hit = next((e for e in log if event_matches(pattern, e)), None)
        if hit is not None:
            out.append(f"events: expected no {pattern}, got {hit}")
    return out


def trace_diff(trace: Trace, exp: Expectation, seed_fixed: bool) -> list[str]:
    return [*state_diff(trace.final_view, exp.state, seed_fixed), *events_diff(trace.events, exp)]


def check_replay(scenario: Scenario, replay: Replay) -> list[str]:
    """Every expectation for the replay's rule set, against every branch. Empty: it passes."""
    seed_fixed = scenario.setup.seed is not None
    out: list[str] = []
    traces = replay.traces
    branches = len(traces)
    for i, trace in enumerate(traces):
        tag = f"branch {i + 1} of {branches}: " if branches > 1 else ""
        out.extend(tag + p for p in trace.problems)
    if out:
        return out
    for exp in scenario.expectations_for(replay.rules):
        for i, trace in enumerate(traces):
            tag = f"branch {i + 1} of {branches}: " if branches > 1 else ""
            for line in trace_diff(trace, exp, seed_fixed):
                out.append(f"expect at line {exp.line}: {tag}{line}")
        if exp.outcomes:
            if replay.cut:
                out.append(f"expect at line {exp.line}: outcomes cannot be checked: more than "
                           f"{scenario.explore_limit} branches (raise explore_limit)")
                continue
            matched = [False] * len(exp.outcomes)
            for i, trace in enumerate(traces):
                final = trace.final_view
                fits = [j for j, o in enumerate(exp.outcomes)
                        if not state_diff(final, o.state, seed_fixed)]
                for j in fits:
                    matched[j] = True
                if not fits:
                    out.append(f"expect at line {exp.line}: branch {i + 1} of {branches} "
                               f"matches no listed outcome: {describe_choices(trace)}")
                    closest = min(exp.outcomes, key=lambda o: len(
                        state_diff(final, o.state, seed_fixed)))
                    out.extend(f"    vs {closest.name!r}: {d}"
                               for d in state_diff(final, closest.state, seed_fixed))
            for j, ok in enumerate(matched):
                if not ok:
                    out.append(f"expect at line {exp.line}: outcome {exp.outcomes[j].name!r} "
                               f"is reached by no branch")
    return out


def describe_choices(trace: Trace) -> str:
    picks = [f"{e.player} {e.kind}={','.join(map(str, e.picked))}" for e in trace.choices]
    return "choices " + ("; ".join(picks) if picks else "none")
