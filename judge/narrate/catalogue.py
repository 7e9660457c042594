"""Every message narration uses, gathered from the event families and the registered
mechanics: :func:`messages` (the tables a narrator reads), :func:`all_message_ids` and
:func:`plural_pairs` (what the catalogues must translate)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from judge.engine import mechanics
from judge.narrate import (
    abilities,
    battle,
    cards,
    changes,
    choices,
    costs,
    flow,
    moves,
    rules,
    texts,
)
from judge.narrate.words import OTHER_MESSAGES, REASON_NAMES

#: The event families, each a module declaring ``EVENTS`` and ``VARIANTS`` (and tellers).
FAMILIES = (flow, moves, battle, abilities, changes, rules, choices, costs, texts)

#: One message per event type, from the families; the event types a mechanic logs take the
#: mechanic's message (:func:`messages`).
EVENT_MESSAGES: dict[str, str] = {k: m for f in FAMILIES for k, m in f.EVENTS.items()}
#: Variants chosen by an event's cause or details.
VARIANTS: dict[str, str] = {k: m for f in FAMILIES for k, m in f.VARIANTS.items()}


@dataclass(frozen=True)
class Messages:
    """The tables narration reads: the families' own, with what the registered mechanics
    declare (their events, move verbs, choice kinds, cost parts and keyword terms)."""

    events: Mapping[str, str]
    moves: Mapping[str, tuple[str, str]]
    choices: Mapping[str, str]
    cost_parts: Mapping[str, str]
    #: keyword (or other mechanic) -> its glossary term
    keyword_terms: Mapping[str, str]
    #: keywords that are triggered abilities (``S1#lancer``)
    keyword_abilities: frozenset[str]


_messages: tuple[int, Messages] | None = None


def messages() -> Messages:
    """The message tables for the mechanics registered now (rebuilt when they change)."""
    global _messages
    if _messages is None or _messages[0] != mechanics.version():
        found = mechanics.all_mechanics()
        _messages = (mechanics.version(), Messages(
            events={**EVENT_MESSAGES, **{t: m for x in found for t, m in x.events.items()}},
            moves={**moves.MOVE_MESSAGES,
                   **{v: m for x in found for v, m in x.verbs.items()}},
            choices={**choices.CHOICE_NAMES,
                     **{k: m for x in found for k, m in x.choices.items()}},
            cost_parts={k: m for x in found for k, m in x.cost_parts.items()},
            keyword_terms={x.id: x.term for x in found},
            keyword_abilities=frozenset(mechanics.keyword_abilities())))
    return _messages[1]


def all_message_ids() -> list[str]:
    """Every message id narration uses (the catalogues must translate each)."""
    tables: tuple[Mapping[str, str], ...] = (
        messages().events, VARIANTS, rules.RULE_KIND_NAMES, moves.VERB_NAMES,
        abilities.TRIGGER_NAMES, messages().choices, messages().cost_parts,
        flow.ACTION_MESSAGES, flow.ACTION_NAMES, flow.ILLEGAL_NAMES, REASON_NAMES,
        OTHER_MESSAGES, cards.OP_NAMES, cards.SHORT_MESSAGES, texts.LASTING,
        texts.SOURCE_KINDS)
    return [m for table in tables for m in table.values()] + \
        [m for pair in choices.CHOICE_MESSAGES.values() for m in pair] + \
        [pair[0] for pair in messages().moves.values()]


def plural_pairs() -> list[tuple[str, str]]:
    """Messages with a plural form: (singular, plural) ids."""
    return [*messages().moves.values(), flow.REDRAW]
