"""What an edited ruling's replay gave, in the reader's language: the sandbox's results.

A ruling page states the answer its expectations give (:func:`judge.site.sections.facts`);
the sandbox replays a version the reader changed, so it shows what happened instead, per rule
set (:func:`results`):

- the replay's own facts: the turn, phase and turn player it ends in, and the winner if any;
- each fact an expectation of the file states, expected against got: the got value is the
  same fact read off the final position of the first branch and worded by the same function
  (:func:`~judge.site.sections.facts`), so the two columns read alike;
- each fact that does not hold as a pair of sentences in the page's language (the same
  sentences the timeline uses, :func:`~judge.site.sections.answer_sentences`); a replay the
  engine stopped (a refused step, a limit of :mod:`judge.limits`, an engine error) as a
  sentence in the page's language (:func:`stop_sentence`: the step as its heading words it,
  the rules' reason as the narration does); and a sentence for what the table cannot show
  (events, other branches, outcomes), whose details ``judge check``'s lines give.

Rule sets whose results read the same are shown together. Nothing here runs the engine: it
reads the replays :func:`judge.site.sandbox.replay_all` made.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from typing import Any

from judge.check import Result
from judge.engine.state import ON_FIELD, PLAYERS, ZoneRef
from judge.engine.trace import Position, PositionView, Replay
from judge.errors import EngineError
from judge.i18n import N_
from judge.narrate import Narrator
from judge.scenario.expect import state_diff
from judge.scenario.model import Scenario, StatePattern, ZonePattern
from judge.scenario.run import problem_parts
from judge.site.sections import Words, answer_sentences, facts, heading
from judge.site.timeline import expectation_keys

#: The words of the results (site_templates/sandbox-results.html has the table's own).
MESSAGES = {
    "engine": N_("The engine stopped the replay under this rule set: %(error)s"),
    "stop:refused": N_("%(step)s: the rules refuse it, as %(reason)s."),
    "stop:refused-other": N_("%(step)s: the rules refuse it, as %(reason)s; the ruling "
                             "expects it refused because %(expected)s."),
    "stop:allowed": N_("%(step)s: the rules allow it; the ruling expects it refused because "
                       "%(expected)s."),
    "stop:choice": N_("A scripted choice does not fit the choice the engine asks for at that "
                      "point (its player, its kind or the options it offers)."),
    "stop:unused": N_("Scripted choices the replay never asked for: %(count)s."),
    "stop:events": N_("The replay reached the engine's limit of %(count)s events: an effect "
                      "may repeat without end."),
    "stop:settle": N_("Rule processing and triggers did not settle within %(count)s rounds: "
                      "an effect may repeat without end."),
    "stop:illegal": N_("The set-up breaks the rules: %(reason)s."),
    "stop:engine": N_("The engine reached a position its rules do not allow."),
    "stop:internal": N_("The tool itself failed on this replay; please report it."),
    "unshown": N_("The replay also differs from the ruling in a way this table does not "
                  "show (its events, another branch, or a step the rules refuse); the check "
                  "line below names it."),
    "stopped": N_("The replay stopped before its end: %(problem)s"),
    "no_fact": N_("not there"),
    "got": N_("The replay: %(sentence)s"),
    "expected": N_("The ruling expects: %(sentence)s"),
}


def single_facts(state: StatePattern) -> Iterator[StatePattern]:
    """``state`` cut into patterns of one fact each, in the order of
    :func:`~judge.site.sections.facts` (so each gives exactly one of its rows)."""
    for zone, pattern in state.zones.items():
        yield StatePattern(zones={zone: pattern})
    for name in ("phase", "attack_step", "turn", "turn_player", "winner"):
        if getattr(state, name):
            yield dataclasses.replace(StatePattern(), **{name: getattr(state, name)})
    for name in ("power", "level", "limit", "refreshes"):
        for key, value in getattr(state, name).items():
            one: dict[str, Any] = {name: {key: value}}
            yield dataclasses.replace(StatePattern(), **one)


def got_fact(one: StatePattern, final: Position | PositionView) -> StatePattern | None:
    """The fact ``one`` (a pattern of :func:`single_facts`) as the position ``final`` has it;
    None when the position has nothing to say (a card that is not there)."""
    if one.zones:
        (zone, pattern), = one.zones.items()
        got = tuple(final.labels(ZoneRef.parse(zone)))
        if pattern.mode == "count":
            return StatePattern(zones={zone: ZonePattern("count", count=len(got))})
        mode = "list" if pattern.mode in ("contains", "lacks") else pattern.mode
        return StatePattern(zones={zone: ZonePattern(mode, got)})
    if one.phase:
        return StatePattern(phase=final.phase)
    if one.attack_step:
        return StatePattern(attack_step=final.attack_step) if final.attack_step else None
    if one.turn is not None:
        return StatePattern(turn=final.turn)
    if one.turn_player:
        return StatePattern(turn_player=final.turn_player)
    if one.winner:
        return StatePattern(winner=final.winner or "none")
    if one.limit:
        (player, _), = one.limit.items()
        return StatePattern(limit={player: final.player(player).limit})
    if one.refreshes:
        (player, _), = one.refreshes.items()
        return StatePattern(refreshes={player: final.player(player).refreshes})
    name = "power" if one.power else "level"
    (label, _), = getattr(one, name).items()
    try:
        where, card = final.find(label)
    except EngineError:
        return None
    if name == "power":
        power = card.power
        return StatePattern(power={label: power}) \
            if where.zone in ON_FIELD and power is not None else None
    return StatePattern(level={label: card.level})


def own_facts(final: Position | PositionView) -> StatePattern:
    """What every replay ends in: the turn, phase (and attack step), turn player, winner, and
    the refreshes made this turn."""
    return StatePattern(phase=final.phase, attack_step=final.attack_step or None,
                        turn=final.turn, turn_player=final.turn_player,
                        winner=final.winner,
                        refreshes={p: final.player(p).refreshes for p in PLAYERS
                                   if final.player(p).refreshes})


def stop_sentence(problem: str, scenario: Scenario, L: Words, n: Narrator) -> str:
    """Why the engine stopped a replay (a problem of a run, or the engine error of a rule
    set, :func:`~judge.scenario.run.problem_parts`), in the page's language: the step in
    the words of its heading and the rules' reason in the narration's words. The engine's
    own English line stays in ``judge check``'s lines."""
    kind, parts = problem_parts(problem)
    if kind in ("refused", "allowed"):
        index = int(parts["index"])
        step = next((s for s in scenario.steps if s.index == index), None)
        values = {"step": n.step_title(step),
                  "reason": n.illegal(parts.get("reason", "")),
                  "expected": n.illegal(parts.get("expected", ""))}
        key = "stop:allowed" if kind == "allowed" \
            else "stop:refused-other" if "expected" in parts else "stop:refused"
        return L._(MESSAGES[key], **values)
    if kind == "illegal" and n.illegal(parts["reason"]) != parts["reason"]:
        return L._(MESSAGES["stop:illegal"], reason=n.illegal(parts["reason"]))
    if kind in ("choice", "unused", "events", "settle"):
        return L._(MESSAGES[f"stop:{kind}"], **parts)
    if problem.startswith("internal error"):
        return L._(MESSAGES["stop:internal"])
    return L._(MESSAGES["stop:engine"])


def rule_set_results(scenario: Scenario, rules: str, replay: Replay | None, error: str,
                     result: Result, L: Words, n: Narrator) -> dict[str, Any]:
    """One rule set's results (see the module): ``own`` (what, value) rows, ``rows``
    (what, expected, got, holds) rows, ``sentences`` (each failure) and ``ok``."""
    seed_fixed = scenario.setup.seed is not None
    own: list[tuple[str, str]] = []
    rows: list[tuple[str, str, str, bool]] = []
    sentences: list[str] = []
    trace = replay.traces[0] if replay is not None and replay.traces else None
    if error or replay is None or trace is None:
        sentences.append(L._(MESSAGES["engine"],
                             error=stop_sentence(error or result.report(), scenario, L, n)))
        return {"ok": False, "own": own, "rows": rows, "sentences": sentences}
    final = trace.final_view
    own = facts(own_facts(final), L, n)
    for i in expectation_keys(scenario.expectations, rules):
        for one in single_facts(scenario.expectations[i].state):
            (what, expected), = facts(one, L, n)
            got = got_fact(one, final)
            holds = not state_diff(final, one, seed_fixed)
            rows.append((what, expected,
                         facts(got, L, n)[0][1] if got else L._(MESSAGES["no_fact"]), holds))
            if not holds:
                if got is not None:
                    (_, said), = answer_sentences(got, L, n)
                    sentences.append(L._(MESSAGES["got"], sentence=said))
                (_, wanted), = answer_sentences(one, L, n)
                sentences.append(L._(MESSAGES["expected"], sentence=wanted))
    problems = [p for t in replay.traces for p in t.problems]
    sentences += [L._(MESSAGES["stopped"], problem=stop_sentence(p, scenario, L, n))
                  for p in dict.fromkeys(problems)]
    if not problems and len(result.failures) > sum(not r[3] for r in rows):
        # judge check gives one line per fact not held: the others are of what the table
        # does not show
        sentences.append(L._(MESSAGES["unshown"]))
    return {"ok": result.ok, "own": own, "rows": rows, "sentences": sentences}


def results(scenario: Scenario, replays: Mapping[str, Replay], errors: Mapping[str, str],
            checked: tuple[Result, ...], L: Words, n: Narrator) -> list[dict[str, Any]]:
    """Every rule set's results (:func:`rule_set_results`), those that read the same
    together, each group with its ``label`` (the rule sets' short names)."""
    groups: list[dict[str, Any]] = []
    for rules, result in zip(scenario.rulesets, checked, strict=True):
        one = rule_set_results(scenario, rules, replays.get(rules), errors.get(rules, ""),
                               result, L, n)
        same = next((g for g in groups if g["view"] == one), None)
        if same is None:
            groups.append({"rules": [rules], "view": one})
        else:
            same["rules"].append(rules)
    return [{**g["view"], "rules": g["rules"], "label": heading(L.rules(g["rules"]), L.lang)}
            for g in groups]

