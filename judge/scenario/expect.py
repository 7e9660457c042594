"""Checking a replay against a ruling's expectations, with a zone-by-zone diff."""

from __future__ import annotations

from collections import Counter
from typing import Any

from judge.engine.events import Event
from judge.engine.game import Game
from judge.engine.state import ZoneRef
from judge.scenario.model import EventPattern, Expectation, StatePattern, ZonePattern
from judge.scenario.run import Replay, Run

ORDERED_ZONES = ("deck", "life", "lrig", "assist1", "assist2")


def event_matches(pattern: EventPattern, event: Event) -> bool:
    for key, want in pattern.fields.items():
        if key == "from":
            got: Any = event.from_zone
        elif key == "to":
            got = event.to_zone
        elif key in ("type", "cause", "player", "card", "source"):
            got = getattr(event, key)
        else:
            got = event.detail.get(key)
        if got != want:
            return False
    return True


def _zone_diff(game: Game, zone: str, pattern: ZonePattern, seed_fixed: bool) -> str | None:
    ref = ZoneRef.parse(zone)
    got = [c.label for c in game.state.ref(ref)]
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
    if ordered and ref in game.shuffled and not seed_fixed:
        ordered = False  # a shuffled zone compares as a multiset unless the seed is fixed
    if ordered:
        if got == want:
            return None
        return f"{zone}: expected [{', '.join(want)}] in this order, got {shown}"
    if Counter(got) == Counter(want):
        return None
    missing = sorted((Counter(want) - Counter(got)).elements())
    extra = sorted((Counter(got) - Counter(want)).elements())
    parts = [f"{zone}: expected [{', '.join(want)}], got {shown}"]
    if missing:
        parts.append(f"missing {', '.join(missing)}")
    if extra:
        parts.append(f"unexpected {', '.join(extra)}")
    return "; ".join(parts)


def state_diff(game: Game, pattern: StatePattern, seed_fixed: bool) -> list[str]:
    """Lines describing every way the game differs from ``pattern`` (empty when it matches)."""
    out: list[str] = []
    for zone, zp in pattern.zones.items():
        line = _zone_diff(game, zone, zp, seed_fixed)
        if line:
            out.append(line)
    state = game.state
    scalars: list[tuple[str, Any, Any]] = [
        ("phase", pattern.phase, state.phase),
        ("turn", pattern.turn, state.turn),
        ("turn_player", pattern.turn_player, state.turn_player),
        ("winner", pattern.winner, state.winner or "none"),
        ("win_reason", pattern.win_reason, state.win_reason),
        ("attack_step", pattern.attack_step, state.attack_step),
    ]
    for name, want, got in scalars:
        if want is not None and want != got:
            out.append(f"{name}: expected {want}, got {got}")
    for label, want in pattern.power.items():
        inst = game.card(label)
        got = game.power(inst) if game.on_field(inst) else None
        if got != want:
            out.append(f"power of {label}: expected {want}, got "
                       f"{got if got is not None else f'none ({label} is in {inst.zone})'}")
    for label, want in pattern.level.items():
        inst = game.card(label)
        got_level = game.level(inst)
        if got_level != want:
            out.append(f"level of {label}: expected {want}, got {got_level}")
    for player, want in pattern.limit.items():
        if game.limit(player) != want:
            out.append(f"limit of {player}: expected {want}, got {game.limit(player)}")
    for label, want in pattern.down.items():
        got_down = game.card(label).down
        if got_down != want:
            out.append(f"{label}: expected {'down' if want else 'up'}, got "
                       f"{'down' if got_down else 'up'}")
    for label, want in pattern.frozen.items():
        got_frozen = game.card(label).frozen
        if got_frozen != want:
            out.append(f"{label}: expected {'' if want else 'not '}frozen, got "
                       f"{'' if got_frozen else 'not '}frozen")
    for player, want in pattern.refreshes.items():
        got_count = state.players[player].refreshes
        if got_count != want:
            out.append(f"refreshes of {player} this turn: expected {want}, got {got_count}")
    return out


def events_diff(log: list[Event], exp: Expectation) -> list[str]:
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
        hits = [e for e in log if event_matches(pattern, e)]
        if hits:
            out.append(f"events: expected no {pattern}, got {hits[0]}")
    return out


def run_diff(run: Run, exp: Expectation, seed_fixed: bool) -> list[str]:
    return [*state_diff(run.game, exp.state, seed_fixed), *events_diff(run.log, exp)]


def check_replay(replay: Replay) -> list[str]:
    """Every expectation for this rule set, against every branch. Empty list: it passes."""
    scenario = replay.scenario
    seed_fixed = scenario.setup.seed is not None
    out: list[str] = []
    branches = len(replay.runs)
    for i, run in enumerate(replay.runs):
        tag = f"branch {i + 1} of {branches}: " if branches > 1 else ""
        out.extend(tag + p for p in run.problems)
    if out:
        return out
    for exp in scenario.expectations_for(replay.rules.id):
        for i, run in enumerate(replay.runs):
            tag = f"branch {i + 1} of {branches}: " if branches > 1 else ""
            for line in run_diff(run, exp, seed_fixed):
                out.append(f"expect at line {exp.line}: {tag}{line}")
        if exp.outcomes:
            if replay.cut:
                out.append(f"expect at line {exp.line}: outcomes cannot be checked: more than "
                           f"{scenario.explore_limit} branches (raise explore_limit)")
                continue
            matched = [False] * len(exp.outcomes)
            for i, run in enumerate(replay.runs):
                fits = [j for j, o in enumerate(exp.outcomes)
                        if not state_diff(run.game, o.state, seed_fixed)]
                for j in fits:
                    matched[j] = True
                if not fits:
                    out.append(f"expect at line {exp.line}: branch {i + 1} of {branches} "
                               f"matches no listed outcome: {describe_choices(run)}")
                    closest = min(exp.outcomes, key=lambda o: len(
                        state_diff(run.game, o.state, seed_fixed)))
                    out.extend(f"    vs {closest.name!r}: {d}"
                               for d in state_diff(run.game, closest.state, seed_fixed))
            for j, ok in enumerate(matched):
                if not ok:
                    out.append(f"expect at line {exp.line}: outcome {exp.outcomes[j].name!r} "
                               f"is reached by no branch")
    return out


def describe_choices(run: Run) -> str:
    picks = [f"{e.player} {e.detail.get('kind')}={','.join(e.detail.get('picked', []))}"
             for e in run.log if e.type == "choice"]
    return "choices " + ("; ".join(picks) if picks else "none")
