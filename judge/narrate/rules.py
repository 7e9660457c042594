"""Rule processing and the refresh: a round of rule processing, a refresh, a refresh that
must wait; the names of the kinds of rule processing, as their declarations give them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.engine.rule_processing import TABLE as RULE_KIND_TABLE
from judge.engine.state import PLAYERS
from judge.langs import N_
from judge.narrate.base import tells

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "refresh": N_("%(player)s refreshes: the trash becomes a new main deck of %(deck_size)s "
                  "cards."),
    "refresh_waits": N_("The main deck of %(player)s is empty, but %(player)s cannot refresh "
                        "yet: %(reason)s."),
    "rule_check": N_("Rule processing applies: %(kinds)s."),
}

VARIANTS: dict[str, str] = {
    "refresh:again": N_("%(player)s refreshes (their %(nth)s this turn): the trash becomes a "
                        "new main deck of %(deck_size)s cards."),
    # a round of rule processing, with what each kind acts on (rule_check's acts)
    "rule_check:one": N_("Rule processing applies to %(parts)s."),
    "rule_check:together": N_("At the same time, rule processing applies to %(parts)s."),
    "rule_check:part": N_("%(targets)s (%(kind)s)"),
    "rule_check:sep": N_("; "),
}

#: The name of each kind of rule processing, as its declaration gives it; moves made by rule
#: processing have the kind as their verb (``MOVE_MESSAGES["rule"]``).
RULE_KIND_NAMES: dict[str, str] = {kind.id: kind.name for kind in RULE_KIND_TABLE}


@tells(ev.Refresh)
def _refresh(n: Narrator, e: ev.Refresh, v: dict[str, Any], msg: str | None) -> str:
    v.update(count=e.count, deck_size=e.deck_size, nth=n.ordinal(e.count))
    return n.say(VARIANTS["refresh:again"] if e.count > 1 else msg, v, e)


@tells(ev.RefreshWaits)
def _refresh_waits(n: Narrator, e: ev.RefreshWaits, v: dict[str, Any],
                   msg: str | None) -> str:
    v["reason"] = n.reason(e.reason)
    return n.say(msg, v, e)


@tells(ev.RuleCheck)
def _rule_check(n: Narrator, e: ev.RuleCheck, v: dict[str, Any], msg: str | None) -> str:
    """The kinds at once, each with what it acts on: "At the same time, rule processing
    applies to P1 (power 0 or less); Player 1 (refresh)." (one act: "Rule processing
    applies to ..."; a check logged without its acts names the kinds alone)."""
    if not e.acts:
        v["kinds"] = n.join(n.rule_kind(k) for k in e.kinds)
        return n.say(msg, v, e)
    targets: dict[str, list[str]] = {}
    for act in e.acts:
        targets.setdefault(act.kind, []).append(
            n.player(act.target) if act.kind == "refresh" and act.target in PLAYERS
            else n.card(act.target))
    # kinds that act on the same cards are named together: "E1 (power 0 or less, level or
    # limit exceeded)", the card whose owner then chooses their order
    kinds: dict[tuple[str, ...], list[str]] = {}
    for kind, cards in targets.items():
        kinds.setdefault(tuple(cards), []).append(n.rule_kind(kind))
    v["parts"] = n._(VARIANTS["rule_check:sep"]).join(
        n._(VARIANTS["rule_check:part"], kind=n.join(names), targets=n.join(cards))
        for cards, names in kinds.items())
    return n.say(VARIANTS["rule_check:together" if len(e.acts) > 1 else "rule_check:one"],
                 v, e)
