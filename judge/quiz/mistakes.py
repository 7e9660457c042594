"""The rules players get wrong, as changes to a rule set: the engine replays a question with one
of them broken, and what it then does is a wrong answer that names the rule it breaks.

Most set one flag of :class:`~judge.engine.rulesets.RuleSet` to the value a player who gets
the rule wrong acts by, so the engine needs no code of its own for them: the flags are where
the rules changed over the years, which is also where players still apply an old rule or half
of a new one. Such a mistake applies to a rule set only where it changes that rule set (the
refresh in the middle of an effect is no mistake under the 2014-04 rules, which had it). The
others name a rule the engine breaks on purpose (``flag`` ``broken``: one of
:data:`~judge.engine.rulesets.BROKEN_RULES`, each read in one place of the engine). ``rule`` is the
rule the mistake breaks, as the quiz tells it after a wrong answer (a message id of the
catalogues, in the judge's words).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from itertools import chain
from typing import Any, Final

from judge.engine import events as ev
from judge.engine.rulesets import RuleSet
from judge.engine.state import ZoneRef
from judge.engine.trace import Snapshot, Trace
from judge.langs import N_
from judge.scenario.model import Scenario


@dataclass(frozen=True)
class Mistake:
    """One rule broken the way players break it: the rule-set ``flag`` set to ``value``."""

    id: str
    flag: str
    value: object
    #: the rule it breaks, as the quiz states it (a message id)
    rule: str

    def applies(self, rules: RuleSet) -> bool:
        """Whether breaking the rule changes ``rules`` (it does not where they had it so)."""
        if self.flag == "broken":
            return self.value not in rules.broken
        return bool(getattr(rules, self.flag) != self.value)

    def broken(self, rules: RuleSet) -> RuleSet:
        """``rules`` with this rule broken (the same id: the steps and choices a ruling
        scripts for that rule set still apply)."""
        if self.flag == "broken":
            return dataclasses.replace(rules, broken=rules.broken | {str(self.value)})
        values: dict[str, Any] = {self.flag: self.value}
        return dataclasses.replace(rules, **values)


MISTAKES: Final = (
    Mistake("refresh-mid-effect", "refresh_timing", "interrupt",
            N_("A refresh waits until the effect that emptied the main deck has finished.")),
    Mistake("second-refresh-goes-on", "second_refresh_ends_turn", False,
            N_("The turn player's second refresh in a turn ends that turn.")),
    Mistake("refresh-from-life-cloth", "refresh_needs_trash", False,
            N_("With no card in the trash there is no refresh.")),
    Mistake("excess-ignores-changed-level", "excess_order", "level_then_limit",
            N_("In an excess, SIGNI whose level changed since the last check go first.")),
    Mistake("grow-skips-levels", "grow", "up_one_or_not_higher",
            N_("A LRIG grows exactly one level up.")),
    Mistake("rule-processing-forgotten", "broken", "rule-processing-forgotten",
            N_("Rule processing is checked after every action and every effect, "
               "before the game goes on.")),
    Mistake("one-kind-at-a-time", "broken", "one-kind-at-a-time",
            N_("Rule processing applies every kind that applies at the same time.")),
    Mistake("crush-is-damage", "broken", "crush-is-damage",
            N_("A crush with no life cloth left does nothing; only damage wins the game.")),
    Mistake("damage-accumulates", "broken", "damage-accumulates",
            N_("Damage does not accumulate: each battle compares that battle's two powers "
               "alone.")),
    Mistake("tie-not-banished", "broken", "tie-not-banished",
            N_("In a battle of equal powers the attacked SIGNI is banished.")),
    Mistake("down-signi-does-not-block", "broken", "down-signi-does-not-block",
            N_("A SIGNI in front blocks the attack even when it is down.")),
    Mistake("remove-any-time", "remove", "any_time",
            N_("SIGNI are removed from the field once a turn, any number at once.")),
)

BY_ID: Final = {m.id: m for m in MISTAKES}


def mistakes_for(rules: RuleSet) -> list[Mistake]:
    """The mistakes that change ``rules``, in the table's order."""
    return [m for m in MISTAKES if m.applies(rules)]


def _emptied(trace: Trace, zone: str) -> bool:
    """Whether a player's ``zone`` was empty at a recorded moment of ``trace`` (its positions
    and key positions, read as views: only that zone is looked at, the positions are not
    made whole for it)."""
    refs = [ZoneRef.of(p, zone) for p in ("p1", "p2")]
    moments = chain(trace.snapshots, (s for _, s in trace.key_snapshots))
    return any(not view.labels(ref) for view in map(Snapshot.view, moments) for ref in refs)


def matters(mistake: Mistake, scenario: Scenario, trace: Trace) -> bool:
    """Whether breaking the rule could change the replay ``trace`` of ``scenario`` (a
    shortcut: the bank does not replay a mistake that cannot). Each rule is read in one place
    of the engine, which only runs when something the replay shows happened: the refresh
    rules when a main deck was empty at a recorded moment or a refresh happened, the excess
    order when rule processing put SIGNI in excess, growing and removing when a step grows
    or removes, rule processing when a round of it applied (one kind at a time: two kinds at
    once), a crush with no life cloth when a player had none at a recorded moment, damage
    that accumulates when one SIGNI met two battles, a tie when one was tied, a down SIGNI
    not blocking when there was a battle."""
    flag, value = mistake.flag, mistake.value
    if flag in ("refresh_timing", "second_refresh_ends_turn", "refresh_needs_trash"):
        return _emptied(trace, "deck") or \
            any(e.type in ("refresh", "refresh_waits") for e in trace.events)
    checks = [e for e in trace.events if isinstance(e, ev.RuleCheck)]
    if flag == "excess_order":
        return any("excess" in e.kinds for e in checks)
    if flag in ("grow", "remove"):
        return any(step.action == flag for step in scenario.steps)
    if value == "rule-processing-forgotten":
        return bool(checks)
    if value == "one-kind-at-a-time":
        return any(len(e.kinds) > 1 for e in checks)
    if value == "crush-is-damage":
        return _emptied(trace, "life")
    battles = [e for e in trace.events if isinstance(e, ev.Battle)]
    if value == "damage-accumulates":  # a SIGNI that met two battles in one turn
        met = [e.defender for e in battles]
        return len(met) > len(set(met))
    if value == "tie-not-banished":
        return any(e.attack_power == e.defend_power for e in battles)
    if value == "down-signi-does-not-block":
        return bool(battles)
    return True
