"""The question bank: every question, its variants and its answers, computed by the engine.

A question is one ruling of the corpus. Each of its variants (:mod:`judge.quiz.variants`: the
ruling under each of its rule sets, and with other numbers in its set-up) is asked the same
way: the position, the steps, "What happens?", and three to five answers. The right answer is
the facts the variant's replay ends with (:func:`judge.quiz.facts.observe`); the wrong ones
are the same facts at the end of real alternatives:

- ``rules``: the replay under another of the ruling's rule sets;
- ``branch``: another branch of a choice the question fixes (the replay explores every
  answer of an unscripted choice; the question states the choices of its first branch);
- ``mistake``: the replay with one rule broken the way players break it
  (:mod:`judge.quiz.mistakes`).

A candidate whose facts equal those of the right answer or of a candidate kept before it is
dropped (counted in :attr:`Bank.dropped`), so every answer differs from every other in a fact;
a replay with a problem (an engine error, a scripted choice that no longer fits) gives none. A
variant needs at least :data:`MIN_ANSWERS` answers and keeps at most :data:`MAX_ANSWERS`.
Language-free: :mod:`judge.quiz.export` tells them in each language.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Final

from judge.engine import events as ev
from judge.engine.events import Event
from judge.engine.rulesets import RuleSet
from judge.engine.trace import Replay, Trace
from judge.quiz import facts
from judge.quiz.mistakes import BY_ID as MISTAKES_BY_ID
from judge.quiz.mistakes import matters, mistakes_for
from judge.scenario.model import Scenario, StatePattern
from judge.scenario.run import replay

MIN_ANSWERS: Final = 3
MAX_ANSWERS: Final = 5

#: Events that make a question harder to answer: each is a rule the judge must apply.
HARD_EVENTS: Final = frozenset({"refresh", "rule_check", "trigger", "burst", "replaced",
                                "instead", "turn_end", "battle", "banish", "fizzle"})


@dataclass(frozen=True)
class Answer:
    """One answer: the facts a replay ends with, and where that replay came from."""

    state: StatePattern
    #: "replay" (the right answer), "rules", "branch" or "mistake"
    source: str
    #: the rule set the replay ran under
    rules: str
    #: for "mistake", the broken rule (:data:`judge.quiz.mistakes.MISTAKES`); for "rules",
    #: the mistakes that turn the question's rule set into that one, where there are
    breaks: tuple[str, ...] = ()
    #: for "branch", the choices that branch made
    choices: tuple[Event, ...] = ()

    @property
    def right(self) -> bool:
        return self.source == "replay"


@dataclass(frozen=True)
class Change:
    """How a variant's set-up differs from the ruling's: ``kind`` ("deck", "life", "power",
    "turn_player"), whose (a player, or a card label for power) and the new value."""

    kind: str
    subject: str
    value: int | str


@dataclass(frozen=True)
class Variant:
    """One question as asked: a ruling under one rule set, perhaps with its set-up changed."""

    ruling: str
    key: str  # unique in the bank: the ruling, the rule set and the change
    rules: str
    change: Change | None
    scenario: Scenario
    trace: Trace  # the replay whose end is the right answer
    answers: tuple[Answer, ...]  # the right one first, then the wrong ones
    #: the facts (kind, subject) the answers state: those in which they differ
    shown: frozenset[tuple[str, str]]
    difficulty: int  # 1 (one rule) to 3 (several rules and choices)

    @property
    def choices(self) -> tuple[Event, ...]:
        """The choices the question fixes: those of the right answer's branch."""
        return self.trace.choices

    def told(self, answer: Answer) -> StatePattern:
        """What an answer states: its facts in which the answers differ."""
        return facts.only(answer.state, self.shown)


@dataclass
class Bank:
    """Every variant of every question, and what making them counted."""

    variants: list[Variant] = field(default_factory=list)
    #: rulings that gave no question, by why (for the figures)
    skipped: dict[str, str] = field(default_factory=dict)
    #: candidate wrong answers dropped because their facts equal another answer's
    dropped: int = 0
    #: variants made and replayed but dropped (invalid, or telling the same as another)
    variants_dropped: int = 0
    #: how many replays the bank ran (the rulings' own replays are reused, not counted)
    replays: int = 0
    #: the most distinct answers a variant of the ruling being made had so far
    best: int = 0

    def by_ruling(self) -> dict[str, list[Variant]]:
        out: dict[str, list[Variant]] = {}
        for v in self.variants:
            out.setdefault(v.ruling, []).append(v)
        return out


def slimmed(variant: Variant) -> Variant:
    """The variant with its trace cut to what :func:`judge.quiz.export.variant_entry` reads
    of it: the position after the set-up and the choices made (the events, positions and
    checks of a whole replay, held for thousands of variants, were the site build's largest
    memory at 10,000 rulings)."""
    trace = variant.trace
    cut = dataclasses.replace(trace, events=trace.choices, snapshots=trace.snapshots[:1],
                              key_snapshots=(), checks=())
    return dataclasses.replace(variant, trace=cut)


def valid(rep: Replay) -> bool:
    """A replay that can give an answer: every branch ran without a problem."""
    return bool(rep.traces) and not rep.cut and not rep.stopped and \
        not any(t.problems or t.limit_reached for t in rep.traces)


def usable(rep: Replay, scenario: Scenario) -> list[Trace]:
    """The traces of a wrong answer's replay that end in a position a judge can be asked
    about: those without a problem, and those whose only problem is that the last step was
    allowed where the ruling expects it refused, or refused where the ruling expects it
    allowed (the rule broken changes what is legal: the replay stops there, as the game
    does)."""
    if rep.cut or rep.stopped:
        return []
    last = f"step {len(scenario.steps)} ("
    return [t for t in rep.traces if not t.limit_reached and all(
        p.startswith(last) and (" was refused: " in p or " was allowed, but " in p)
        for p in t.problems)]


def difficulty(scenario: Scenario, trace: Trace) -> int:
    """1 to 3, from the steps, the choices and the rules the replay applies."""
    score = len(scenario.steps) + 2 * len(trace.choices) + \
        sum(1 for e in trace.events if e.type in HARD_EVENTS)
    return 1 if score <= 3 else 2 if score <= 7 else 3


def _breaks(asked: RuleSet, other: RuleSet) -> tuple[str, ...]:
    """The mistakes that make ``asked`` read as ``other`` (the rules it breaks)."""
    return tuple(m.id for m in mistakes_for(asked) if getattr(other, m.flag) == m.value)


class Replays:
    """Replays of a scenario under rule sets, made when first asked for and counted; the
    ruling's own replays (those of the corpus) are given and never made again."""

    def __init__(self, bank: Bank, scenario: Scenario,
                 given: Mapping[str, Replay] | None = None) -> None:
        self.bank, self.scenario = bank, scenario
        self.made: dict[tuple[str, str], Replay] = {
            (rules, ""): rep for rules, rep in (given or {}).items()}
        self.light: set[tuple[str, str]] = set()  # the keys of light replays in ``made``

    def get(self, rules: RuleSet, mistake: str = "", *, light: bool = False) -> Replay:
        """The replay under ``rules`` (with ``mistake`` broken). ``light``: only its final
        position is read (a wrong answer's), so a light replay will do (its key positions
        and rounds of rule processing are not recorded: the same events, problems and final
        position at a lower cost); a replay of a broken rule is always light, and one asked
        for whole after a light one is made again whole."""
        key = (rules.id, mistake)
        if mistake:
            light = True
        made = self.made.get(key)
        if made is None or (not light and key in self.light):
            self.bank.replays += 1
            broken = MISTAKES_BY_ID[mistake].broken(rules) if mistake else rules
            made = self.made[key] = replay(self.scenario, broken, light=light)
            if light:
                self.light.add(key)
            else:
                self.light.discard(key)
        return made


def make_variant(bank: Bank, ruling: str, key: str, scenario: Scenario, asked: RuleSet,
                 rulesets: Mapping[str, RuleSet], replays: Replays,
                 change: Change | None = None,
                 told: set[frozenset[facts.Fact]] | None = None) -> Variant | None:
    """The variant of ``scenario`` under ``asked`` with its answers, or None when its replay
    is not valid, its right answer is one of ``told`` (those of the variants kept before it:
    its wrong answers are then not replayed at all) or it has fewer than
    :data:`MIN_ANSWERS` distinct answers."""
    rep = replays.get(asked)
    if not valid(rep):
        return None
    exps = scenario.expectations_for(asked.id)
    states = [s for e in exps for s in (e.state, *(o.state for o in e.outcomes))]
    asked_facts = facts.template(states)
    if not facts.asks(asked_facts):
        return None
    right = rep.traces[0]
    answers = [Answer(facts.observe(right.final_view, asked_facts), "replay", asked.id)]
    right_facts = facts.fact_set(answers[0].state)
    if told is not None and right_facts in told:
        return None
    changing: set[str] = set()  # the mistakes that change the outcome of this question
    # a variant with other numbers asks the other rule sets only for the one answer it may
    # lack: their replays cost the most and give the fewest answers (and the rule sets are
    # variants of their own)
    def enough() -> bool:
        return change is not None and len(answers) != MIN_ANSWERS - 1

    for source, trace, breaks, choices in _candidates(scenario, asked, rulesets, replays, rep,
                                                      enough):
        state = facts.observe(trace.final_view, asked_facts)
        if source == "mistake" and facts.fact_set(state) != right_facts:
            changing.update(breaks)
        elif source == "rules":  # of the rules that differ, those that matter here
            breaks = tuple(m for m in breaks if m in changing)
        answer = Answer(state, source, trace.rules, breaks, choices)
        seen = {facts.fact_set(a.state) for a in answers}
        if facts.fact_set(state) in seen:
            bank.dropped += 1
            continue
        if len(answers) < MAX_ANSWERS:
            answers.append(answer)
    bank.best = max(bank.best, len(answers))
    if len(answers) < MIN_ANSWERS:
        return None
    return Variant(ruling, key, asked.id, change, scenario, right, tuple(answers),
                   facts.telling(a.state for a in answers), difficulty(scenario, right))


Candidate = tuple[str, Trace, tuple[str, ...], tuple[Event, ...]]


def _candidates(scenario: Scenario, asked: RuleSet, rulesets: Mapping[str, RuleSet],
                replays: Replays, rep: Replay, enough: Callable[[], bool]
                ) -> Iterator[Candidate]:
    """The wrong answers' replays, in the order they are preferred: another branch of the
    question's choices, a broken rule, another rule set (unless ``enough`` says, then, that
    the question needs none of them)."""
    for trace in rep.traces[1:]:
        yield "branch", trace, (), tuple(e for e in trace.choices if isinstance(e, ev.Choice))
    for mistake in mistakes_for(asked):
        if not any(matters(mistake, scenario, t) for t in rep.traces):
            continue
        for trace in usable(replays.get(asked, mistake.id), scenario):
            yield "mistake", trace, (mistake.id,), ()
    if enough():
        return
    for rid in scenario.rulesets:
        if rid == asked.id or rid not in rulesets:
            continue
        for trace in usable(replays.get(rulesets[rid], light=True), scenario):
            yield "rules", trace, _breaks(asked, rulesets[rid]), ()


def questions_of(bank: Bank, ruling: str, scenario: Scenario, rulesets: Mapping[str, RuleSet],
                 given: Mapping[str, Replay]) -> list[Variant]:
    """The variants of one ruling: under each of its rule sets (the latest first), then with
    its set-up changed (:func:`judge.quiz.variants.changes`); a variant is kept only when its
    right answer tells differently from those of the variants kept before it."""
    from judge.quiz.variants import changed, changes, matters

    out: list[Variant] = []
    told: set[frozenset[facts.Fact]] = set()

    def keep(v: Variant | None) -> None:
        if v is None:
            bank.variants_dropped += 1
            return
        told.add(facts.fact_set(v.answers[0].state))
        out.append(v)

    base = Replays(bank, scenario, given)
    bank.best = 0
    order = [rid for rid in reversed(scenario.rulesets) if rid in rulesets]
    for rid in order:
        keep(make_variant(bank, ruling, f"{ruling}@{rid}", scenario, rulesets[rid],
                          rulesets, base, told=told))
    if not order or bank.best < MIN_ANSWERS - 1:
        return out  # no wrong answer at all: other numbers seldom give two
    latest = rulesets[order[0]]
    ran = base.get(latest).traces
    for change in changes(scenario):
        other = changed(scenario, change) if matters(change, ran) else None
        if other is None:
            continue
        key = f"{ruling}@{latest.id}~{change.kind}-{change.subject}-{change.value}"
        keep(make_variant(bank, ruling, key, other, latest, rulesets,
                          Replays(bank, other), change, told))
    return out


def build_bank(rulings: Iterable[tuple[str, Scenario, Mapping[str, Replay]]],
               rulesets: Mapping[str, RuleSet], slim: bool = False) -> Bank:
    """The bank of the given rulings (id, scenario, the corpus's replays by rule set), in
    their order. ``slim``: each variant keeps of its trace only what the exported bank reads
    (:func:`slimmed`), so that the bank of a large corpus fits in memory."""
    bank = Bank()
    for rid, scenario, given in rulings:
        add_ruling(bank, rid, scenario, rulesets, given, slim)
    return bank


def add_ruling(bank: Bank, ruling: str, scenario: Scenario, rulesets: Mapping[str, RuleSet],
               given: Mapping[str, Replay], slim: bool = False) -> None:
    """Add the questions of one ruling to ``bank`` (see :func:`build_bank`, which adds each
    ruling in turn; ``judge build`` adds each as the database reads it)."""
    found = questions_of(bank, ruling, scenario, rulesets, given)
    if found:
        bank.variants.extend([slimmed(v) for v in found] if slim else found)
    else:
        bank.skipped[ruling] = "no variant with three different answers"
