"""Build phase 1, load: the corpus, each ruling checked, and the boards of its replays.

The corpus (rulings, glossary, cards, rule sets and the traces of every replay) comes from
:func:`judge.corpus.load_corpus`, the loader ``judge db`` and ``judge search`` share, through
:func:`read_corpus` only; it is the one place the site runs the engine (once per ruling, rule
set and branch). On top of it this phase works out, from those traces and without replaying
anything, what the pages need: the ``judge check`` result of each (ruling, rule set), the
boards of the position after each step and at the key moments inside it
(:mod:`judge.site.replay`) and, for rulings that list outcomes, a branch reaching each.
Nothing here depends on the page language.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import Path

from judge.check import Result, result_of
from judge.corpus import Corpus, Ruling, load_corpus
from judge.engine.events import Event
from judge.engine.trace import Replay, Trace
from judge.scenario.expect import state_diff
from judge.scenario.model import Outcome, Scenario
from judge.site.board import Board, Layout, Painter, board_of, layout_for
from judge.site.replay import StepView, fold, step_views


def read_corpus(root: Path | None) -> Corpus:
    """The one place the site reads the corpus (rulings, glossary, cards, rule sets, traces)."""
    return load_corpus(root)


@dataclass(frozen=True)
class TraceGroup:
    """The rule sets of one ruling whose first branches logged the same events, and the trace
    the page shows for them (the first branch under the last of them). It holds no replay of
    its own: ``events`` are the trace's, ``boards`` draw its positions."""

    rules: tuple[str, ...]
    trace: Trace | None  # None only when a rule set has no replay in the corpus
    boards: tuple[Board, ...]  # index k: after step k (0: the set-up)
    #: the steps cut at their key moments, with the boards drawn (marked), in order
    steps: tuple[StepView, ...] = ()

    @property
    def events(self) -> tuple[Event, ...]:
        return self.trace.events if self.trace is not None else ()


@dataclass(frozen=True)
class OutcomeView:
    expectation: int  # index of the [[expect]] block
    outcome: Outcome
    rules: str  # the rule set whose branches were searched
    board: Board | None  # the final position of the first branch reaching it
    choices: tuple[Event, ...]  # the choices made in that branch
    branch: int | None = None  # that branch's index in the replay (None: no branch reaches it)


@dataclass(frozen=True)
class RulingData:
    ruling: Ruling
    results: tuple[Result, ...]  # one per rule set, in the ruling's order
    replays: tuple[TraceGroup, ...]
    outcomes: tuple[OutcomeView, ...]
    layout: Layout  # where the boxes of all the page's boards are


    @property
    def id(self) -> str:
        return self.ruling.id

    @functools.cached_property
    def boards(self) -> tuple[Board, ...]:
        """Every board the page draws: the replays' (after the steps and at their key
        moments, marked) and the outcomes'."""
        boards = []
        setup = None
        for rv in reversed(self.replays):  # as the page draws them: the latest rules first
            for step in rv.steps:
                for board in step.boards:
                    if step.index == 0 and setup is not None and board == setup:
                        continue  # the page shows the set-up once
                    boards.append(board)
                    if step.index == 0 and setup is None:
                        setup = board
        return (*boards, *(ov.board for ov in self.outcomes if ov.board is not None))

    @functools.cached_property
    def painter(self) -> Painter:
        """Draws the page's boards, sharing the boxes several of them draw alike."""
        return Painter(self.layout, self.boards)

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
        rulings.append(load_ruling(ruling))
        if progress is not None:
            progress(ruling.id)
    return SiteInput(corpus, tuple(rulings))


def load_ruling(ruling: Ruling) -> RulingData:
    """What the pages need of one ruling, from the traces the corpus holds."""
    scenario = ruling.scenario
    results = []
    for rules in scenario.rulesets:
        rep = ruling.replays.get(rules)
        results.append(result_of(scenario, rep, ruling.path) if rep is not None else
                       Result(ruling.path, scenario.id, rules, [f"no replay under {rules}"]))
    groups = _groups(ruling)
    if groups:  # the last group (the latest rules) is the page's first, the others fold
        last = groups[-1]
        groups = [dataclasses.replace(g, steps=fold(last.steps, g.steps))
                  for g in groups[:-1]] + [last]
    replays = tuple(groups)
    outcomes = tuple(_outcomes(scenario, ruling.replays))
    boards = [b for rv in replays for step in rv.steps for b in step.boards]
    boards += [ov.board for ov in outcomes if ov.board is not None]
    return RulingData(ruling, tuple(results), replays, outcomes, layout_for(boards))


def _groups(ruling: Ruling) -> list[TraceGroup]:
    groups: dict[tuple[str, ...], list[str]] = {}
    for rules in ruling.scenario.rulesets:
        rep = ruling.replays.get(rules)
        key = tuple(str(e) for e in rep.events) if rep is not None else (f"missing {rules}",)
        groups.setdefault(key, []).append(rules)
    out = []
    for rules_list in groups.values():
        rep = ruling.replays.get(rules_list[-1])
        trace = rep.traces[0] if rep is not None and rep.traces else None
        after = step_boards(ruling.scenario, trace)
        out.append(TraceGroup(tuple(rules_list), trace, after,
                              step_views(trace, after, printed_keywords(ruling.scenario))))
    return out


def printed_keywords(scenario: Scenario) -> dict[str, tuple[str, ...]]:
    """Card id -> its printed keywords, for the boards to tell the keywords effects give."""
    return {card_id: card.keywords for card_id, card in scenario.cards.items() if card.keywords}


def step_boards(scenario: Scenario, trace: Trace | None) -> tuple[Board, ...]:
    """The boards after the set-up and after each step, in the first branch. A run that
    stopped at a step shows the position where it stopped for the steps after it too."""
    if trace is None or not trace.positions:
        return ()
    printed = printed_keywords(scenario)
    boards = tuple(board_of(p, printed) for p in trace.positions)
    missing = len(scenario.steps) + 1 - len(boards)
    return boards + (boards[-1],) * missing if missing > 0 else boards


def _outcomes(scenario: Scenario, replays: Mapping[str, Replay]) -> list[OutcomeView]:
    out = []
    seed_fixed = scenario.setup.seed is not None
    for i, exp in enumerate(scenario.expectations):
        if not exp.outcomes:
            continue
        rules = exp.rules[-1]
        rep = replays.get(rules)
        for outcome in exp.outcomes:
            branch = None
            if rep is not None:
                branch = next((k for k, t in enumerate(rep.traces)
                               if not state_diff(t.final, outcome.state, seed_fixed)), None)
            trace = rep.traces[branch] if rep is not None and branch is not None else None
            out.append(OutcomeView(
                i, outcome, rules,
                board_of(trace.final, printed_keywords(scenario)) if trace else None,
                trace.choices if trace else (), branch))
    return out
