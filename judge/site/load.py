"""Build phase 1, load: the corpus, each ruling checked, and the boards of its replays.

The corpus (rulings, glossary, cards, rule sets and the traces of every replay) comes from
:func:`judge.corpus.load_corpus`, the loader ``judge db`` and ``judge search`` share, through
:func:`read_corpus` only. On top of it this phase works out, from the traces, what the pages
need: the ``judge check`` result of each (ruling, rule set), what its replays go through
(:class:`Seen`), the boards of the position after each step and at the key moments inside it
(:mod:`judge.site.replay`) and, for rulings that list outcomes, a branch reaching each.
Nothing here depends on the page language.

Two ways: :func:`load` holds every ruling's traces and boards (tests, tools);
:func:`load_streamed`, which ``judge build`` uses, holds a :class:`RulingSummary` of each
ruling, replaying each as the corpus check reads its file to check it and count it, and again
(:meth:`SiteInput.full`) when its page and API file are made: a replay costs about a
millisecond, far less than the pages, and the traces of 10,000 rulings do not fit in the
build's memory budget. Each scenario is kept pickled as the corpus check read it, and
unpickled when it is needed again (``load_corpus(keep=True)``): a seventh of the cost of
loading the file again.
"""

from __future__ import annotations

import dataclasses
import functools
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from judge.check import Result, result_of
from judge.corpus import Corpus, Ruling, load_corpus, replayed, topic_of, with_replays
from judge.coverage import Coverage, Tally
from judge.engine import events as ev
from judge.engine.events import Event
from judge.engine.rule_processing import KINDS as RULE_KINDS
from judge.engine.trace import Replay, Trace
from judge.scenario.expect import state_diff
from judge.scenario.model import Citation, Outcome, Scenario
from judge.site.board import Board, Layout, Painter, board_of, layout_for
from judge.site.replay import StepView, fold, step_views
from judge.site.timeline import answer_keys


def read_corpus(root: Path | None, replay: bool = True, stream: bool = False,
                each: Callable[[Ruling], None] | None = None) -> Corpus:
    """The one place the site reads the corpus (rulings, glossary, cards, rule sets, traces;
    without ``replay``, no traces; with ``stream``, no ruling held but each scenario kept
    pickled, which the later phases unpickle rather than load its file again; ``each``: see
    :func:`~judge.corpus.load_corpus`)."""
    return load_corpus(root, replay=replay, stream=stream, keep=stream, each=each)


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
class Seen:
    """What a ruling's replays go through, for the site's lists: the kinds of rule processing
    and the phases (``attack:<step>`` for attack steps) that any branch of any rule set
    entered, and whether one of its checks acted on several things at once or asked an
    owner's order of two kinds (property 3)."""

    kinds: tuple[str, ...] = ()
    phases: tuple[str, ...] = ()
    together: bool = False


@dataclass(frozen=True)
class RulingSummary:
    """What the site-wide pages need of a ruling, without its scenario: its id and path, the
    fields its lists, index and timeline show (texts, tags, terms, rule sets, citations, the
    expectations that hold under each rule set), its ``judge check`` results and what its
    replays went through. ``judge build`` holds these for every ruling, never their scenarios
    as objects (26 KB each: cards, steps, expectations), which it unpickles (7.8 KB each,
    kept by the corpus, :class:`~judge.corpus.Streamed`) when a page needs one
    (:meth:`SiteInput.ruling`), and the boards (:class:`RulingData`) of one ruling at a
    time."""

    id: str
    path: str  # relative to the corpus root, with forward slashes
    texts: Mapping[str, Mapping[str, str]]  # field -> lang -> Markdown
    tags: tuple[str, ...]
    terms: tuple[str, ...]
    rulesets: tuple[str, ...]
    sources: tuple[Citation, ...]
    #: rule set -> the expectation blocks that hold under it (what the timeline compares)
    answers: Mapping[str, tuple[int, ...]]
    results: tuple[Result, ...]  # one per rule set, in the ruling's order
    seen: Seen

    @classmethod
    def of(cls, ruling: Ruling) -> RulingSummary:
        """The summary of a ruling loaded with its replays."""
        return cls(**listed(ruling.scenario, ruling.path), results=results_of(ruling),
                   seen=seen_of(ruling))

    @property
    def topic(self) -> str:
        return topic_of(self.path)

    @functools.cached_property
    def failing(self) -> tuple[Result, ...]:
        """The results that failed (asked of every ruling in every list of every page)."""
        return tuple(r for r in self.results if not r.ok)


def listed(scenario: Scenario, path: str) -> dict[str, Any]:
    """The fields of :class:`RulingSummary` that come from the scenario."""
    return {"id": scenario.id, "path": path, "texts": scenario.texts, "tags": scenario.tags,
            "terms": scenario.terms, "rulesets": scenario.rulesets,
            "sources": scenario.sources,
            "answers": answer_keys(scenario)}


@dataclass(frozen=True)
class RulingData(RulingSummary):
    """A ruling with its replays and what its page draws of them."""

    ruling: Ruling  # with its replays
    replays: tuple[TraceGroup, ...]
    outcomes: tuple[OutcomeView, ...]
    layout: Layout  # where the boxes of all the page's boards are

    @property
    def scenario(self) -> Scenario:
        return self.ruling.scenario

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


@dataclass(frozen=True)
class SiteInput:
    """The corpus and a summary of each ruling, sorted by id: in a site loaded whole
    (:func:`load`) each is the :class:`RulingData`; in one loaded as a stream
    (:func:`load_streamed`, ``judge build``) the corpus holds neither the rulings nor their
    replays (its rulings are :class:`~judge.corpus.Streamed`): :meth:`ruling` unpickles a
    ruling's scenario kept as the corpus check read it and :meth:`full` replays it again when
    its page is made."""

    corpus: Corpus
    rulings: tuple[RulingSummary, ...]  # sorted by id
    #: judge.coverage's table, counted while the rulings were replayed (None: count it from
    #: the corpus's replays)
    coverage: Coverage | None = None
    #: the (ruling, rule set, branch) traces of the replays, counted as they went by (None:
    #: the corpus holds them)
    trace_count: int | None = None

    @property
    def streamed(self) -> bool:
        """Loaded as a stream (:func:`load_streamed`): the boards are made page by page."""
        return self.trace_count is not None

    @property
    def traces(self) -> int:
        """How many (ruling, rule set, branch) traces the corpus's replays make."""
        return self.corpus.trace_count if self.trace_count is None else self.trace_count

    @property
    def failing(self) -> tuple[Result, ...]:
        return tuple(r for d in self.rulings for r in d.failing)

    @functools.cached_property
    def index(self) -> Mapping[str, int]:
        return {d.id: i for i, d in enumerate(self.rulings)}

    def ruling(self, ruling_id: str) -> Ruling:
        """The ruling (its scenario; its replays in a site loaded whole): held, or unpickled
        as the corpus check read its file, which must not have changed since the load phase
        (:class:`~judge.corpus.Streamed`)."""
        at = self.index[ruling_id]
        data = self.rulings[at]
        return data.ruling if isinstance(data, RulingData) else self.corpus.rulings[at]

    def full(self, ruling_id: str) -> RulingData:
        """The ruling with its replays and boards: held, or made again from its file."""
        data = self.rulings[self.index[ruling_id]]
        if isinstance(data, RulingData):
            return data
        return load_ruling(with_replays(self.ruling(ruling_id)))

    def replayed(self) -> Iterator[Ruling]:
        """Every ruling with its replays, in order (made again, one at a time, for a site
        loaded as a stream)."""
        return iter(replayed(self.corpus).rulings)

    @property
    def replayed_corpus(self) -> Corpus:
        """The corpus with its replays (made as its rulings are read, for a stream)."""
        return replayed(self.corpus)


def load(root: Path | None = None, progress: Callable[[str], None] | None = None) -> SiteInput:
    """The whole site's input held at once: every ruling's replays and boards."""
    corpus = read_corpus(root)
    rulings = []
    for ruling in corpus.rulings:
        rulings.append(load_ruling(ruling))
        if progress is not None:
            progress(ruling.id)
    return SiteInput(corpus, tuple(rulings))


def load_streamed(root: Path | None = None,
                  progress: Callable[[str], None] | None = None) -> SiteInput:
    """The site's input as ``judge build`` reads it: the corpus as a stream (no ruling held),
    and for each ruling, replayed as the corpus check first loads its file and let go, its
    :class:`RulingSummary` (the coverage table counted on the way). A ruling's scenario is
    loaded again when a page needs it and the boards of its page are drawn when its page is
    made (:meth:`SiteInput.full`), so what is held grows with neither the scenarios nor the
    traces."""
    tally = Tally()
    summaries: dict[str, RulingSummary] = {}
    traces = 0

    def summarise(ruling: Ruling) -> None:  # as the corpus check first reads its file
        nonlocal traces
        full = with_replays(ruling)
        traces += len(full.traces)
        tally.add(full)
        summaries[full.id] = RulingSummary.of(full)
        if progress is not None:
            progress(full.id)

    corpus = read_corpus(root, replay=False, stream=True, each=summarise)
    rulings = tuple(summaries[rid] for rid in sorted(summaries))  # corpus.rulings' order
    return SiteInput(corpus, rulings, tally.result(replayed(corpus)), traces)


def load_ruling(ruling: Ruling) -> RulingData:
    """What the pages need of one ruling, from the traces the corpus holds."""
    scenario = ruling.scenario
    groups = _groups(ruling)
    if groups:  # the last group (the latest rules) is the page's first, the others fold
        last = groups[-1]
        groups = [dataclasses.replace(g, steps=fold(last.steps, g.steps))
                  for g in groups[:-1]] + [last]
    replays = tuple(groups)
    outcomes = tuple(_outcomes(scenario, ruling.replays))
    boards = [b for rv in replays for step in rv.steps for b in step.boards]
    boards += [ov.board for ov in outcomes if ov.board is not None]
    return RulingData(**listed(scenario, ruling.path), results=results_of(ruling),
                      seen=seen_of(ruling), ruling=ruling, replays=replays, outcomes=outcomes,
                      layout=layout_for(boards))


def results_of(ruling: Ruling) -> tuple[Result, ...]:
    """The ``judge check`` result of the ruling under each of its rule sets, in order."""
    scenario = ruling.scenario
    results = []
    for rules in scenario.rulesets:
        rep = ruling.replays.get(rules)
        results.append(result_of(scenario, rep, ruling.path) if rep is not None else
                       Result(ruling.path, scenario.id, rules, [f"no replay under {rules}"]))
    return tuple(results)


def seen_of(ruling: Ruling) -> Seen:
    """What the ruling's replays went through (:class:`Seen`)."""
    kinds: set[str] = set()
    phases: set[str] = set()
    together = False
    for rr in ruling.replays.values():
        for branch in rr.branches:
            for e in branch:
                if isinstance(e, ev.RuleCheck):
                    kinds.update(e.kinds)
                    together = together or len(e.acts) > 1
                elif isinstance(e, ev.Choice) and e.kind == "rule_order":
                    together = True
                elif isinstance(e, ev.Phase):
                    phases.add(e.phase)
                elif isinstance(e, ev.AttackStep):
                    phases.add(f"attack:{e.attack_step}")
                elif isinstance(e, ev.GameStart):
                    phases.add("setup")
    return Seen(tuple(sorted(k for k in kinds if k in RULE_KINDS)), tuple(sorted(phases)),
                together)


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
