"""Build phase 1, load: the corpus, each ruling checked, and the boards of its replays.

The corpus (rulings, glossary, cards, rule sets and the replayed events) comes from
:func:`judge.corpus.load_corpus`, the loader ``judge db`` and ``judge search`` share, through
:func:`read_corpus` only. On top of it this phase adds what the pages need and the corpus
does not keep: the ``judge check`` result of each (ruling, rule set), the position after each
step (for the board diagrams) and, for rulings that list outcomes, a branch reaching each.
Nothing here depends on the page language.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge.check import Result
from judge.corpus import Corpus, Ruling, load_corpus
from judge.engine.choices import ScriptThenBranch
from judge.engine.events import Event
from judge.engine.rulesets import RuleSet
from judge.errors import JudgeError
from judge.scenario.expect import check_replay, state_diff
from judge.scenario.model import Outcome, Scenario
from judge.scenario.run import Replay, replay, run_once
from judge.site.board import Board, Layout, layout_for, snapshot


def read_corpus(root: Path | None) -> Corpus:
    """The one place the site reads the corpus (rulings, glossary, cards, rule sets, replays)."""
    return load_corpus(root)


@dataclass(frozen=True)
class ReplayView:
    """The replay shared by one or more rule sets whose event logs are identical."""

    rules: tuple[str, ...]
    events: tuple[Event, ...]
    boards: tuple[Board, ...]  # index k: after step k (0: the set-up)


@dataclass(frozen=True)
class OutcomeView:
    expectation: int  # index of the [[expect]] block
    outcome: Outcome
    rules: str  # the rule set whose branches were searched
    board: Board | None  # the final position of the first branch reaching it
    choices: tuple[Event, ...]  # the choices made in that branch


@dataclass(frozen=True)
class RulingData:
    ruling: Ruling
    results: tuple[Result, ...]  # one per rule set, in the ruling's order
    replays: tuple[ReplayView, ...]
    outcomes: tuple[OutcomeView, ...]
    layout: Layout  # where the boxes of all the page's boards are


    @property
    def id(self) -> str:
        return self.ruling.id

    @property
    def scenario(self) -> Scenario:
        return self.ruling.scenario

    @functools.cached_property
    def failing(self) -> tuple[Result, ...]:
        """The results that failed (asked of every ruling in every list of every page)."""
        return tuple(r for r in self.results if not r.ok)


@dataclass(frozen=True)
class SiteInput:
    corpus: Corpus
    rulings: tuple[RulingData, ...]  # sorted by id

    @property
    def failing(self) -> tuple[Result, ...]:
        return tuple(r for d in self.rulings for r in d.failing)


def load(root: Path | None = None, progress: Callable[[str], None] | None = None) -> SiteInput:
    corpus = read_corpus(root)
    rulings = []
    for ruling in corpus.rulings:
        rulings.append(load_ruling(corpus, ruling))
        if progress is not None:
            progress(ruling.id)
    return SiteInput(corpus, tuple(rulings))


def load_ruling(corpus: Corpus, ruling: Ruling) -> RulingData:
    scenario = ruling.scenario
    results: list[Result] = []
    full: dict[str, Replay] = {}
    for rules in scenario.rulesets:
        try:
            rep = replay(scenario, corpus.rulesets[rules])
            full[rules] = rep
            failures = check_replay(rep)
        except JudgeError as exc:
            failures = [f"engine error: {exc}"]
        results.append(Result(ruling.path, scenario.id, rules, failures))
    replays = tuple(_replays(corpus, ruling))
    outcomes = tuple(_outcomes(scenario, full))
    boards = [b for rv in replays for b in rv.boards]
    boards += [ov.board for ov in outcomes if ov.board is not None]
    return RulingData(ruling, tuple(results), replays, outcomes, layout_for(boards))


def _replays(corpus: Corpus, ruling: Ruling) -> list[ReplayView]:
    groups: dict[tuple[str, ...], list[str]] = {}
    for rules in ruling.scenario.rulesets:
        rr = ruling.replays.get(rules)
        key = tuple(str(e) for e in rr.events) if rr is not None else (f"missing {rules}",)
        groups.setdefault(key, []).append(rules)
    out = []
    for rules_list in groups.values():
        shown = rules_list[-1]
        rr = ruling.replays.get(shown)
        events = rr.events if rr is not None else ()
        boards = step_boards(ruling.scenario, corpus.rulesets[shown])
        out.append(ReplayView(tuple(rules_list), tuple(events), boards))
    return out


def step_boards(scenario: Scenario, rules: RuleSet) -> tuple[Board, ...]:
    """The position after the set-up and after each step, in the first branch.

    Replaying the first k steps gives the position after step k: the replay is deterministic
    (fixed seed, scripted choices used in order, unscripted ones taking their first answer)."""
    boards = []
    for k in range(len(scenario.steps) + 1):
        partial = dataclasses.replace(scenario, steps=scenario.steps[:k])
        try:
            run = run_once(partial, rules, ScriptThenBranch(list(scenario.choices)))
        except JudgeError:
            break
        boards.append(snapshot(run.game))
    return tuple(boards)


def _outcomes(scenario: Scenario, full: dict[str, Replay]) -> list[OutcomeView]:
    out = []
    seed_fixed = scenario.setup.seed is not None
    for i, exp in enumerate(scenario.expectations):
        if not exp.outcomes:
            continue
        rules = exp.rules[-1]
        rep = full.get(rules)
        for outcome in exp.outcomes:
            run = None
            if rep is not None:
                run = next((r for r in rep.runs
                            if not state_diff(r.game, outcome.state, seed_fixed)), None)
            out.append(OutcomeView(
                i, outcome, rules, snapshot(run.game) if run else None,
                tuple(e for e in run.log if e.type == "choice") if run else ()))
    return out
