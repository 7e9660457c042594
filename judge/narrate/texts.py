"""Card texts: replacements that do something else instead, draws an effect prevents, parts of
an effect skipped ("if you do", a condition), and the effects in force of the card-text
vocabulary (a "can't", resistance, lost abilities, replacements, upper and draw limits,
changes that last beyond the turn), each told with how long it lasts."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.engine.events import LastingKind
from judge.engine.state import ZoneRef
from judge.langs import N_
from judge.narrate.base import tells
from judge.narrate.words import OTHER_MESSAGES

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "instead": N_("%(ability)s does its own operations instead of what would have "
                  "happened."),
    "prevented": N_("An effect in force stops %(player)s from drawing %(count)s more "
                    "card(s) this turn."),
    "op_skipped": N_("A part of %(ability)s is not done: %(reason)s."),
}

VARIANTS: dict[str, str] = {
    "instead:banish": N_("%(card)s is not banished: %(ability)s does its own operations "
                         "instead."),
    "instead:refresh": N_("%(player)s does not refresh: %(ability)s does its own operations "
                          "instead."),
    "instead:draw_phase": N_("%(player)s does not draw in the draw phase: %(ability)s does "
                             "its own operations instead."),
    "op_skipped:not-done": N_("The next part of %(ability)s is not done, because the part "
                              "before it was not done as written."),
    "op_skipped:condition": N_("A part of %(ability)s is not done, because its condition "
                               "does not hold."),
}

#: Effects in force of the card-text vocabulary, by ``kind`` (and what it forbids or
#: replaces); ``%(duration)s`` says how long (``duration:*`` of OTHER_MESSAGES).
LASTING: dict[str, str] = {
    "cannot:attack": N_("%(duration)s, %(card)s cannot attack."),
    "cannot:be_banished": N_("%(duration)s, %(card)s cannot be banished."),
    "cannot:be_chosen": N_("%(duration)s, %(card)s cannot be chosen by its opponent's "
                           "effects."),
    "cannot:be_affected": N_("%(duration)s, %(card)s is not affected by its opponent's "
                             "effects."),
    "cannot:be_banished/kind": N_("%(duration)s, %(card)s cannot be banished by the effects "
                                  "of %(kind)s."),
    "cannot:be_trashed/kind": N_("%(duration)s, %(card)s cannot be put into the trash by the "
                                 "effects of %(kind)s."),
    "cannot:be_trashed": N_("%(duration)s, %(card)s cannot be put into the trash by "
                            "effects."),
    "cannot:refresh": N_("%(duration)s, %(player)s cannot refresh."),
    "cannot:pay_with_colourless": N_("%(duration)s, cards without a colour in the ener zone "
                                     "of %(player)s cannot pay costs."),
    "cannot:use_spells": N_("%(duration)s, %(player)s cannot use Spells."),
    "cannot:use_arts": N_("%(duration)s, %(player)s cannot use ARTS."),
    "lose_abilities": N_("%(duration)s, %(card)s loses all its abilities."),
    "replace:banish": N_("%(duration)s, if %(card)s would be banished, something else "
                         "happens instead."),
    "replace:ener": N_("%(duration)s, if %(card)s would be put into the ener zone, it goes "
                       "somewhere else instead."),
    "replace:refresh": N_("%(duration)s, if %(player)s would refresh, something else "
                          "happens instead."),
    "replace:draw_phase": N_("%(duration)s, something else happens instead of the draw of "
                             "%(player)s in the draw phase."),
    "upper_limit": N_("%(duration)s, %(zone)s can hold at most %(count)s cards."),
    "draw_limit": N_("%(duration)s, %(player)s cannot draw more than %(count)s cards in a "
                     "turn."),
    "signi_cap": N_("%(duration)s, the SIGNI of %(player)s on the field are limited to "
                    "%(count)s."),
    "attack_limit": N_("%(duration)s, the attacks of %(card)s in a turn are limited to "
                       "%(count)s."),
    "must_attack": N_("%(duration)s, %(card)s must attack if able."),
    "keyword": N_("%(duration)s, %(card)s has %(keyword)s."),
    "change:card": N_("%(duration)s, the change to %(card)s stays in force."),
    "change:player": N_("%(duration)s, the change to the limit of %(player)s stays in force."),
    "banish_to_trash": N_("%(duration)s, SIGNI of %(player)s that would be banished go to the "
                          "trash instead."),
    "cost_change": N_("%(duration)s, ARTS and Spells of %(player)s cost %(cost)s instead."),
    "cost_modify": N_("%(duration)s, the costs of ARTS and Spells of %(player)s change by "
                      "%(cost)s."),
}

#: The kinds of source a resistance may be limited to (``by_kind``), as its text names them.
SOURCE_KINDS: dict[str, str] = {
    "signi": N_("SIGNI"), "lrig": N_("LRIG"), "arts": N_("ARTS"), "spell": N_("Spells"),
    "key": N_("Keys"),
}

#: Kinds of effect in force that are a change of a value (its own event gives the amount).
_CHANGES = ("power", "level", "set_power", "set_level", "limit")


def lasting_message(kind: LastingKind, until: str) -> str | None:
    """The message of an effect in force of ``kind`` lasting ``until``, if this family tells
    it: every kind of the card-text vocabulary, and the older kinds (a keyword, a banish to
    the trash, a cost change) when they last beyond the end of the turn."""
    name = kind.name
    if name == "cannot" and "/" in kind.keyword:  # limited to a kind of source (by_kind)
        return LASTING.get(f"cannot:{kind.keyword.partition('/')[0]}/kind")
    if name in ("cannot", "replace"):
        return LASTING.get(f"{name}:{kind.keyword}")
    if name in ("lose_abilities", "upper_limit", "draw_limit", "attack_limit",
                "signi_cap", "must_attack"):
        return LASTING[name]
    if name in _CHANGES:
        return LASTING["change:player" if name == "limit" else "change:card"]
    if until != "end_of_turn":
        return LASTING.get(name)
    return None


def tell_lasting(n: Narrator, e: ev.Lasting, v: dict[str, Any], msg: str) -> str:
    """An effect in force of this family: how long it lasts, and its own words."""
    kind = e.kind
    v["duration"] = n._(OTHER_MESSAGES[f"duration:{e.until}"])
    amounts = dict(kind.amounts)
    if kind.name == "upper_limit" and amounts:
        zone, count = next(iter(amounts.items()))
        v.update(zone=n.zone(ZoneRef.of(e.player or "p1", zone)), count=count)
    elif kind.name == "draw_limit":
        v["count"] = amounts.get("draw", 0)
    elif kind.name == "attack_limit":
        v["count"] = amounts.get("attack", 0)
    elif kind.name == "signi_cap":
        v["count"] = amounts.get("signi", 0)
    if kind.name == "cannot" and "/" in kind.keyword:
        v["kind"] = n._(SOURCE_KINDS[kind.keyword.partition("/")[2]])
    v["keyword"] = n.term(n.tables.keyword_terms.get(kind.keyword, ""), kind.keyword)
    v["cost"] = n.ener(kind.amounts)
    return n.say(msg, v, e)


@tells(ev.Instead)
def _instead(n: Narrator, e: ev.Instead, v: dict[str, Any], msg: str | None) -> str:
    v["ability"] = n.ability(e.source)
    return n.say(VARIANTS.get(f"instead:{e.kind}", msg), v, e)


@tells(ev.Prevented)
def _prevented(n: Narrator, e: ev.Prevented, v: dict[str, Any], msg: str | None) -> str:
    v["count"] = e.count
    return n.say(msg, v, e)


@tells(ev.OpSkipped)
def _op_skipped(n: Narrator, e: ev.OpSkipped, v: dict[str, Any], msg: str | None) -> str:
    v.update(ability=n.ability(e.source), reason=n.reason(e.reason))
    return n.say(VARIANTS.get(f"op_skipped:{e.reason}", msg), v, e)
