"""The timeline of changed answers: for each dated rule change, the rulings whose answer
differs across it, the answer before and after side by side.

A *change* is each rule set of ``data/rulesets.toml`` after the first, dated by its ``from``:
it brings in whatever its flags say differently from the rule set before it (every flag of
:class:`~judge.engine.rulesets.RuleSet` is compared, so a rule set or a flag added later makes
a change of its own with no code or template to edit). A ruling appears under a change when
it names rule sets on both sides of it and its expectations differ between the nearest one
before (``before``) and the first one at or after it (``after``): the answer is read from the
expectations and outcomes the ruling states, which its replays have been checked against;
nothing is replayed again. A ruling that skips rule sets is listed under the change that
begins its ``after`` rule set, with the rule sets it names on each side.

:func:`changes` computes this once, language-free; :func:`differences` gives, in one
language, the facts of a ruling's answer that differ (``what``, ``before``, ``after``), named
as the ruling page's tables name them; the timeline page takes them as sentences too (the
answer before and after, side by side: :func:`judge.site.sections.answer_sentences`).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from judge.engine.rulesets import RuleSet
from judge.scenario.model import Expectation, Scenario

#: The fields of a rule set that are not rules: what it is called, when, and why.
_NOT_RULES = frozenset({"id", "start", "title", "summary", "sources"})


@dataclass(frozen=True)
class Row:
    """A ruling whose answer differs across a change: the rule sets compared."""

    ruling: str
    before: str
    after: str


@dataclass(frozen=True)
class Change:
    """The change a rule set brings, dated by its start, with the rulings it changes."""

    ruleset: str
    previous: str
    start: str
    #: the rule-set flags (RuleSet fields) that differ from the previous rule set
    flags: tuple[str, ...]
    rows: tuple[Row, ...]


def expectation_keys(expectations: Sequence[Expectation], rules: str) -> tuple[int, ...]:
    """Which expectation blocks hold under ``rules``: two rule sets with the same keys share
    their answer."""
    return tuple(i for i, e in enumerate(expectations) if rules in e.rules)


def answer_keys(scenario: Scenario) -> dict[str, tuple[int, ...]]:
    """Each rule set the ruling names (in its order) -> :func:`expectation_keys`: all that
    :func:`changes` needs of a ruling besides its id."""
    return {rules: expectation_keys(scenario.expectations, rules) for rules in scenario.rulesets}


def rule_flags(rs: RuleSet) -> dict[str, Any]:
    """A rule set's rules: every field that is not its name, date or sources."""
    return {f.name: getattr(rs, f.name) for f in dataclasses.fields(rs)
            if f.name not in _NOT_RULES}


def changes(rulesets: Mapping[str, RuleSet],
            rulings: Iterable[tuple[str, Mapping[str, tuple[int, ...]]]]) -> list[Change]:
    """Every change, in date order, each with the rulings whose answer differs across it;
    ``rulings``: each ruling's id and :func:`answer_keys`."""
    order = list(rulesets)
    rows: dict[str, list[Row]] = {rs: [] for rs in order[1:]}
    for rid, keys in rulings:
        named = [rs for rs in order if rs in keys]
        for before, after in zip(named, named[1:], strict=False):
            if keys[before] != keys[after]:
                rows[after].append(Row(rid, before, after))
    out = []
    for previous, current in zip(order, order[1:], strict=False):
        old, new = rule_flags(rulesets[previous]), rule_flags(rulesets[current])
        flags = tuple(name for name in new if old.get(name) != new[name])
        out.append(Change(current, previous, rulesets[current].start, flags,
                          tuple(sorted(rows[current], key=lambda r: r.ruling))))
    return out


#: ``facts(state, ...)`` of the site's context: (what, value) rows of one expectation.
Facts = Callable[[Expectation], list[tuple[str, str]]]


def differences(scenario: Scenario, row: Row, facts: Facts,
                outcomes: Callable[[Expectation], str], outcome_label: str
                ) -> list[dict[str, str]]:
    """The facts of ``scenario``'s answer that differ between ``row.before`` and
    ``row.after``, in the order the ruling states them: ``what``, ``before``, ``after``
    (empty where one side states nothing about it)."""
    def side(rules: str) -> dict[str, str]:
        out: dict[str, str] = {}
        for i in expectation_keys(scenario.expectations, rules):
            exp = scenario.expectations[i]
            for what, value in facts(exp):
                out.setdefault(what, value)
            if exp.outcomes:
                out.setdefault(outcome_label, outcomes(exp))
        return out

    before, after = side(row.before), side(row.after)
    keys = list(dict.fromkeys([*before, *after]))
    return [{"what": k, "before": before.get(k, ""), "after": after.get(k, "")}
            for k in keys if before.get(k) != after.get(k)]
