"""Events told as sentences, in Japanese, English and Simplified Chinese.

Every kind of event of :data:`judge.engine.events.EVENT_KINDS` has a message here (an English
message id with ``%(name)s`` placeholders, translated by the gettext catalogues of
``judge/locale``); so do the vocabularies the events carry: move verbs, rule-processing kinds,
triggers, choice kinds, refusal reasons, step actions. What a mechanic logs is told with the
messages its declaration names (:mod:`judge.engine.mechanics`: Guard's event, the moves of
Exceed, Charm and Accessory, ...; the fields of an event kind a mechanic declares fill the
placeholders that name them) and a kind of rule processing with its declared name
(:data:`judge.engine.rule_processing.TABLE`); :func:`messages` puts them together with this
module's own. Zone, phase and step names come from the glossary (``data/glossary.toml``) through
the engine's term maps (:data:`judge.engine.state.ZONE_TERMS`, ...), keywords through their
mechanic's term; card names from the card definitions' ``names``, falling back to the card's
label. Nothing is machine-translated: a message missing from a catalogue is a test failure
(``tests/test_narrate.py``).

``Narrator(lang, cards).event(e)`` gives one sentence; :meth:`Narrator.events` joins runs of
identical moves (a refresh moving six cards is one sentence).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from typing import Any

from judge.data import load_glossary
from judge.engine import events as ev
from judge.engine import mechanics
from judge.engine.cards import CardDef
from judge.engine.costs import Cost
from judge.engine.events import AbilityRef, CardSet, Event, Option
from judge.engine.rule_processing import TABLE as RULE_KIND_TABLE
from judge.engine.state import ATTACK_STEP_TERMS as ATTACK_STEP_TERMS
from judge.engine.state import PHASE_TERMS as PHASE_TERMS
from judge.engine.state import ZONE_TERMS, ZoneRef
from judge.i18n import LANGS, N_, NP_, gettext_for, ngettext_for
from judge.scenario.model import Scenario, Step

# ---------------------------------------------------------------------------- messages

#: One message per event type (variants for some types follow below); the event types a
#: mechanic logs take the mechanic's message (:func:`messages`).
EVENT_MESSAGES: dict[str, str] = {
    "step": N_("Step %(index)s: %(action)s."),
    "phase": N_("The %(phase)s begins."),
    "turn_begin": N_("Turn %(turn)s begins; %(player)s is the turn player."),
    "turn_end": N_("Turn %(turn)s of %(player)s ends (%(reason)s)."),
    "effect_begin": N_("%(ability)s begins to resolve."),
    "effect_end": N_("%(ability)s has resolved."),
    "move": "%(card)s is put from %(from)s into %(to)s.",  # singular of MOVE_MESSAGES["*"]
    "skipped": N_("The main deck of %(player)s is empty: only %(done)s of %(wanted)s cards "
                  "(%(how)s); the rest is skipped."),
    "fizzle": N_("The operation does nothing to %(card)s (%(reason)s)."),
    "banish": N_("%(card)s is banished and goes from %(from)s to %(to)s."),
    "shuffle": N_("The main deck of %(player)s is shuffled."),
    "refresh": N_("%(player)s refreshes (refresh %(count)s this turn): the trash becomes a "
                  "new main deck of %(deck_size)s cards."),
    "refresh_waits": N_("The main deck of %(player)s is empty, but no refresh can happen yet "
                        "(%(reason)s)."),
    "rule_check": N_("Rule processing applies: %(kinds)s."),
    "power": N_("The power of %(card)s changes by %(amount)s to %(power)s."),
    "level": N_("The level of %(card)s changes by %(amount)s to %(level)s."),
    "limit": N_("The limit of %(player)s changes by %(amount)s to %(limit)s."),
    "lasting": N_("An effect in force begins: %(kind)s, until %(until)s."),
    "replaced": N_("%(card)s would be banished, but an effect in force sends it to "
                   "%(instead)s instead."),
    "trigger": N_("%(ability)s triggers (%(trigger)s) and waits to resolve."),
    "trigger_lost": N_("%(ability)s can no longer be used (%(reason)s)."),
    "trigger_declined": N_("%(player)s does not use %(ability)s."),
    "trigger_dropped": N_("%(ability)s is removed without resolving (%(reason)s)."),
    "burst": N_("%(player)s uses the Life Burst of %(card)s."),
    "choice": N_("%(player)s chooses %(picked)s (%(kind)s)."),
    "game_start": N_("Rock-paper-scissors: %(first)s goes first."),
    "redraw": "%(player)s redraws %(num)d card.",  # singular of REDRAW
    "attack_step": N_("The %(step)s of the attack phase begins."),
    "arts_pass": N_("%(player)s passes in the ARTS step."),
    "attack": N_("%(card)s attacks from %(from)s."),
    "battle": N_("%(card)s (power %(attack_power)s) battles %(defender)s (power "
                 "%(defend_power)s); nothing happens to %(defender)s."),
    "pay": N_("%(player)s pays %(cost)s for %(source)s with %(paid)s."),
    "down": N_("%(card)s is downed."),
    "up": N_("%(card)s is upped."),
    "freeze": N_("%(card)s is frozen."),
    "game_over": N_("The game is over: %(winner)s wins (%(reason)s)."),
    "illegal": N_("The step is refused: %(reason)s."),
}

#: The redraw sentence, with its plural form.
REDRAW = NP_("%(player)s redraws %(num)d card.", "%(player)s redraws %(num)d cards.")

#: Variants chosen by an event's cause or details.
VARIANTS: dict[str, str] = {
    "banish:effect": N_("%(card)s is banished by an effect and goes from %(from)s to %(to)s."),
    "banish:rule": N_("%(card)s is banished by rule processing and goes from %(from)s to "
                      "%(to)s."),
    "banish:battle": N_("%(card)s is banished in battle and goes from %(from)s to %(to)s."),
    "burst:no": N_("%(player)s does not use the Life Burst of %(card)s."),
    "battle:banished": N_("%(card)s (power %(attack_power)s) battles %(defender)s (power "
                          "%(defend_power)s); %(defender)s is banished."),
    "fizzle:nocard": N_("The operation does nothing (%(reason)s)."),
    "pay:nosource": N_("%(player)s pays %(cost)s with %(paid)s."),
    "pay:free": N_("%(player)s pays nothing for %(source)s."),
    "lasting:banish_to_trash": N_("Until the end of the turn, SIGNI of %(player)s that would "
                                  "be banished go to the trash instead."),
    "lasting:keyword": N_("Until the end of the turn, %(card)s has %(keyword)s."),
    "lasting:cost_change": N_("Until the end of the turn, ARTS and Spells of %(player)s cost "
                              "%(cost)s instead."),
    "lasting:cost_modify": N_("Until the end of the turn, the costs of ARTS and Spells of "
                              "%(player)s change by %(cost)s."),
    "game_over:nowinner": N_("The game is over (%(reason)s)."),
}

#: Sentences for moves, by verb, with the verbs of the mechanics (:func:`messages`); other
#: verbs use ``EVENT_MESSAGES["move"]``.
MOVE_MESSAGES: dict[str, tuple[str, str]] = {
    "draw": NP_("%(player)s draws %(card)s.",
        "%(player)s draws %(card)s."),
    "mill": NP_("%(card)s is put from the top of %(from)s into %(to)s.",
        "%(card)s are put from the top of %(from)s into %(to)s."),
    "ener_charge": NP_("Ener Charge: %(card)s is put from the top of %(from)s into %(to)s.",
        "Ener Charge: %(card)s are put from the top of %(from)s into %(to)s."),
    "discard": NP_("%(card)s is discarded from %(from)s into %(to)s.",
        "%(card)s are discarded from %(from)s into %(to)s."),
    "put_onto_field": NP_("%(card)s is put from %(from)s onto the field, into %(to)s.",
        "%(card)s are put from %(from)s onto the field, into %(to)s."),
    "crush": NP_("%(card)s is crushed from %(from)s into %(to)s.",
        "%(card)s are crushed from %(from)s into %(to)s."),
    "use": NP_("%(player)s uses %(card)s, which goes from %(from)s to %(to)s.",
        "%(player)s uses %(card)s, which go from %(from)s to %(to)s."),
    "used": NP_("The used %(card)s goes from %(from)s to %(to)s.",
        "The used %(card)s go from %(from)s to %(to)s."),
    "play": NP_("%(player)s plays %(card)s from %(from)s into %(to)s.",
        "%(player)s plays %(card)s from %(from)s into %(to)s."),
    "grow": NP_("%(player)s grows into %(card)s.",
        "%(player)s grows into %(card)s."),
    "remove": NP_("%(player)s removes %(card)s, which goes from %(from)s to %(to)s.",
        "%(player)s removes %(card)s, which go from %(from)s to %(to)s."),
    "hand_limit": NP_("%(card)s goes from %(from)s to %(to)s for the hand limit.",
        "%(card)s go from %(from)s to %(to)s for the hand limit."),
    "ener_phase": NP_("%(player)s puts %(card)s from %(from)s into %(to)s in the ener phase.",
        "%(player)s puts %(card)s from %(from)s into %(to)s in the ener phase."),
    "pay": NP_("%(card)s goes from %(from)s to %(to)s to pay a cost.",
        "%(card)s go from %(from)s to %(to)s to pay a cost."),
    "start": NP_("%(card)s is put into %(to)s as the level 0 LRIG.",
        "%(card)s are put into %(to)s as level 0 LRIGs."),
    "redraw": NP_("%(card)s is returned from %(from)s to %(to)s for the redraw.",
        "%(card)s are returned from %(from)s to %(to)s for the redraw."),
    "life_cloth": NP_("%(card)s is put from the top of %(from)s into %(to)s as life cloth.",
        "%(card)s are put from the top of %(from)s into %(to)s as life cloth."),
    "after_burst": NP_("After the Life Burst, %(card)s goes from %(from)s to %(to)s.",
        "After the Life Burst, %(card)s go from %(from)s to %(to)s."),
    "refresh": NP_("The refresh puts %(card)s from %(from)s into %(to)s.",
        "The refresh puts %(card)s from %(from)s into %(to)s."),
    "refresh_life": NP_("The refresh puts %(card)s from %(from)s into %(to)s.",
        "The refresh puts %(card)s from %(from)s into %(to)s."),
    "*": NP_("%(card)s is put from %(from)s into %(to)s.",
        "%(card)s are put from %(from)s into %(to)s."),
    "rule": NP_("Rule processing (%(kind)s) puts %(card)s from %(from)s into %(to)s.",
        "Rule processing (%(kind)s) puts %(card)s from %(from)s into %(to)s."),
}

#: Verbs told by the generic move sentence (``MOVE_MESSAGES["*"]``): the zones say it all.
GENERIC_MOVE_VERBS = ("trash", "to_ener", "to_hand", "to_deck", "place", "banish")

#: The name of each kind of rule processing, as its declaration gives it; moves made by rule
#: processing have the kind as their verb (``MOVE_MESSAGES["rule"]``).
RULE_KIND_NAMES: dict[str, str] = {kind.id: kind.name for kind in RULE_KIND_TABLE}

#: Short names of move verbs, for sentences that name the operation.
VERB_NAMES: dict[str, str] = {
    "draw": N_("drawing"),
    "mill": N_("putting from the main deck into the trash"),
    "ener_charge": N_("Ener Charge"),
}

TRIGGER_NAMES: dict[str, str] = {
    "put_into_trash_from_deck": N_("put from the main deck into the trash"),
    "put_into_trash": N_("put into the trash"),
    "banished": N_("banished"),
    "banished_by_effect": N_("banished by an effect"),
    "leaves_field": N_("left the field"),
    "leaves_field_by_effect": N_("left the field because of an effect"),
    "on_play": N_("put onto the field"),
    "crushed": N_("crushed"),
    "owner_refreshes": N_("its owner refreshed"),
    "attacks": N_("it attacks"),
    "attack_phase_start": N_("the attack phase began"),
    "banishes_in_battle": N_("it banished a SIGNI in battle"),
}

#: The names of choice kinds, with those of the mechanics (:func:`messages`).
CHOICE_NAMES: dict[str, str] = {
    "target": N_("targets"),
    "zone": N_("SIGNI zone"),
    "trigger_order": N_("which triggered ability resolves next"),
    "burst_order": N_("which Life Burst resolves next"),
    "use": N_("whether to use it"),
    "rule_order": N_("which rule processing applies first"),
    "excess": N_("which SIGNI goes to the trash for the excess"),
    "over_limit": N_("which cards go over the upper limit"),
    "discard": N_("cards to discard"),
    "pay": N_("ener to pay with"),
    "cut_in": N_("ARTS to use with Spell Cut-In"),
}

ACTION_MESSAGES: dict[str, str] = {
    "effect": N_("%(player)s resolves an effect"),
    "use": N_("use %(card)s"),
    "activate": N_("activate an ability of %(card)s"),
    "advance": N_("advance to the %(to)s"),
    "advance:next": N_("advance to the next phase"),
    "play": N_("play %(card)s"),
    "grow": N_("grow into %(card)s"),
    "remove": N_("remove %(card)s"),
    "crush": N_("crush %(count)s life cloth of %(player)s"),
    "damage": N_("damage %(player)s"),
    "ener": N_("put %(card)s into the ener zone"),
    "pass": N_("%(player)s passes"),
    "attack": N_("attack with %(card)s"),
    "start_game": N_("start the game; %(player)s goes first"),
    "redraw": N_("%(player)s redraws %(cards)s"),
}

#: Step actions named without their details (a ``step`` event on its own).
ACTION_NAMES: dict[str, str] = {
    "effect": N_("an effect"),
    "use": N_("using a card"),
    "activate": N_("activating an ability"),
    "advance": N_("advancing the game"),
    "play": N_("playing a SIGNI"),
    "grow": N_("growing"),
    "remove": N_("removing a SIGNI"),
    "crush": N_("crushing life cloth"),
    "damage": N_("damage"),
    "ener": N_("the ener phase's action"),
    "pass": N_("passing"),
    "attack": N_("an attack"),
    "start_game": N_("starting the game"),
    "redraw": N_("redrawing"),
}

ILLEGAL_NAMES: dict[str, str] = {
    "game-over": N_("the game is already over"),
    "not-main-phase": N_("only in its player's own main phase"),
    "not-in-hand": N_("the card is not in the hand"),
    "not-in-lrig-deck": N_("the card is not in the LRIG deck"),
    "arts-timing": N_("the ARTS cannot be used at this timing"),
    "not-usable": N_("the card cannot be used"),
    "limiting": N_("its limiting condition does not match the centre LRIG"),
    "cannot-pay": N_("the cost cannot be paid"),
    "no-such-ability": N_("the card has no such ability"),
    "not-on-field": N_("the card is not on the field"),
    "cannot-play": N_("the SIGNI cannot be put onto the field (level, limit or limiting "
                      "condition)"),
    "no-empty-zone": N_("there is no empty SIGNI zone"),
    "zone-taken": N_("that SIGNI zone is taken"),
    "not-grow-phase": N_("only in its player's own grow phase"),
    "grow-done": N_("the LRIG has already grown this turn"),
    "grow-level": N_("a LRIG grows one level at a time"),
    "grow-type": N_("the LRIG type is different"),
    "grow-same-name": N_("a LRIG cannot grow into one with the same name"),
    "grow-name": N_("the grow condition names another LRIG"),
    "not-ener-phase": N_("only in its player's own ener phase"),
    "ener-done": N_("only one card per ener phase"),
    "not-arts-step": N_("only in the ARTS step"),
    "not-your-priority": N_("it is not this player's turn to act in the ARTS step"),
    "not-attack-step": N_("only in the matching step of the turn player's attack phase"),
    "already-down": N_("the card is already down"),
    "not-setup": N_("only during the set-up, before the first turn"),
    "redraw-twice": N_("a player redraws only once"),
    "illegal-deck": N_("the deck does not meet the deck construction rules"),
    "cannot-remove": N_("that card cannot be removed"),
    "remove-done": N_("SIGNI have already been removed this turn (once a turn under these rules)"),
}

#: Free-text reasons the engine gives (fizzles, waiting refreshes, lost triggers, turn ends).
REASON_NAMES: dict[str, str] = {
    "not-on-field": N_("it is not on the field"),
    "no-empty-zone": N_("there is no empty SIGNI zone"),
    "level-above-lrig": N_("its level is above the LRIG's level"),
    "over-limit": N_("the total level would be above the LRIG's limit"),
    "limiting-mismatch": N_(
        "its limiting condition does not match the centre LRIG's LRIG type"),
    "no-signi-or-deck": N_("no SIGNI, or no card in the main deck"),
    "not-in-hand": N_("it is not in the hand"),
    "empty-trash": N_("the trash is empty"),
    "empty-trash-no-life": N_("the trash is empty and there is no life cloth"),
    "left-trash": N_("its card left the trash"),
    "left-hand": N_("its card left the hand"),
    "left-ener": N_("its card left the ener zone"),
    "left-field": N_("its card left the field"),
    "end_phase": N_("after the end phase"),
    "second_refresh": N_("the turn player's second refresh this turn"),
    "game_over": N_("the game is over"),
    "damage": N_("damage with no life cloth left"),
    "target-gone": N_("the target has left its zone since it was chosen"),
    "not-signi": N_("it is not a SIGNI"),
}

OTHER_MESSAGES: dict[str, str] = {
    "player:p1": N_("Player 1"),
    "player:p2": N_("Player 2"),
    "zone:player": N_("%(player)s's %(zone)s"),
    "zone:key": N_("Key zone"),
    "zone:assist": N_("assist LRIG zone %(n)s"),
    "zone:signi": N_("SIGNI zone %(n)s"),
    "zone:under": N_("under the SIGNI of SIGNI zone %(n)s"),
    "card:named": N_("%(name)s (%(label)s)"),
    "ability": N_("the ability of %(card)s"),
    "ability:n": N_("ability %(n)s of %(card)s"),
    "ability:burst": N_("the Life Burst of %(card)s"),
    "ability:keyword": N_("the %(keyword)s of %(card)s"),
    "use:about": N_("whether to use %(ability)s"),
    "ability:card": N_("the effect of %(card)s"),
    "ability:player": N_("an effect of %(player)s"),
    "list:sep": N_(", "),
    "yes": N_("yes"),
    "no": N_("no"),
    "none": N_("none"),
    "until:end_of_turn": N_("the end of the turn"),
    "colour:white": N_("white"),
    "colour:red": N_("red"),
    "colour:blue": N_("blue"),
    "colour:green": N_("green"),
    "colour:black": N_("black"),
    "cost:part": N_("%(colour)s %(count)s"),
    "cost:down": N_("down"),
    "cost:free": N_("nothing"),
    "paid:card": N_("%(card)s as %(colour)s"),
    "setup": N_("Set-up"),
}

COLOUR_TERMS: dict[str, str] = {"colourless": "colourless"}

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")


@dataclass(frozen=True)
class Messages:
    """The tables narration reads: this module's own, with what the registered mechanics
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
            moves={**MOVE_MESSAGES, **{v: m for x in found for v, m in x.verbs.items()}},
            choices={**CHOICE_NAMES, **{k: m for x in found for k, m in x.choices.items()}},
            cost_parts={k: m for x in found for k, m in x.cost_parts.items()},
            keyword_terms={x.id: x.term for x in found},
            keyword_abilities=frozenset(mechanics.keyword_abilities())))
    return _messages[1]


def all_message_ids() -> list[str]:
    """Every message id narration uses (the catalogues must translate each)."""
    tables: tuple[Mapping[str, str], ...] = (
        messages().events, VARIANTS, RULE_KIND_NAMES, VERB_NAMES, TRIGGER_NAMES,
        messages().choices, messages().cost_parts, ACTION_MESSAGES, ACTION_NAMES,
        ILLEGAL_NAMES, REASON_NAMES, OTHER_MESSAGES)
    return [m for table in tables for m in table.values()] + \
        [pair[0] for pair in messages().moves.values()]


def plural_pairs() -> list[tuple[str, str]]:
    """Messages with a plural form: (singular, plural) ids."""
    return [*messages().moves.values(), REDRAW]


# ---------------------------------------------------------------------------- glossary


@cache
def glossary_names() -> dict[str, dict[str, str]]:
    """Term id -> language -> name, from ``data/glossary.toml`` (see :mod:`judge.data`)."""
    return {tid: dict(term.names) for tid, term in load_glossary().items()}


# ---------------------------------------------------------------------------- narrator


def _signed(amount: Any) -> str:
    try:
        value = int(amount)
    except (TypeError, ValueError):
        return str(amount)
    return f"+{value}" if value > 0 else f"−{-value}" if value < 0 else "±0"


@dataclass
class Narrator:
    """Sentences in one language. ``cards`` maps card labels to their definitions."""

    lang: str
    cards: Mapping[str, CardDef]
    glossary: Mapping[str, Mapping[str, str]] | None = None
    #: the scenario's steps by index, for ``step`` events
    steps: Mapping[int, Step] | None = None
    #: name a card in full ("name (label)") only the first time; clear to start again
    brief: bool = True
    seen: set[str] = field(default_factory=set)

    def __post_init__(self) -> None:
        if self.lang not in LANGS:
            raise ValueError(f"unknown language {self.lang!r} (valid: {', '.join(LANGS)})")
        if self.glossary is None:
            self.glossary = glossary_names()

    # ------------------------------------------------------------------ words

    def _(self, message: str, **values: Any) -> str:
        text = gettext_for(self.lang, message)
        return text % values if values else text

    def term(self, term_id: str, fallback: str) -> str:
        names = (self.glossary or {}).get(term_id, {})
        return names.get(self.lang) or names.get("ja") or fallback

    def player(self, player: str | None) -> str:
        if player in ("p1", "p2"):
            return self._(OTHER_MESSAGES[f"player:{player}"])
        return player or "?"

    def join(self, items: Iterable[str]) -> str:
        return self._(OTHER_MESSAGES["list:sep"]).join(items)

    def card_name(self, label: str) -> str | None:
        card = self.cards.get(label)
        if card is None:
            return None
        return card.names.get(self.lang) or None

    def card(self, label: str | None) -> str:
        if not label:
            return "?"
        name = self.card_name(label)
        if self.brief:
            if label in self.seen:
                return label
            self.seen.add(label)
        if name:
            return self._(OTHER_MESSAGES["card:named"], name=name, label=label)
        return label

    def zone_name(self, zone: str) -> str:
        """A zone without its player: ``trash``, ``signi2`` (numbered zones by their number)."""
        match = re.fullmatch(r"(assist|signi|under)(\d)", zone)
        if match:
            return self._(OTHER_MESSAGES[f"zone:{match.group(1)}"], n=match.group(2))
        if zone in ZONE_TERMS:
            return self.term(ZONE_TERMS[zone], zone)
        if zone == "key":
            return self._(OTHER_MESSAGES["zone:key"])
        return zone

    def zone(self, ref: ZoneRef | None) -> str:
        """``p1.trash`` -> "the trash of Player 1" in the page's language."""
        if ref is None:
            return "?"
        return self._(OTHER_MESSAGES["zone:player"], zone=self.zone_name(ref.zone),
                      player=self.player(ref.player))

    def phase(self, phase: str) -> str:
        return self.term(PHASE_TERMS[phase], phase) if phase in PHASE_TERMS else phase

    def attack_step(self, step: str) -> str:
        return self.term(ATTACK_STEP_TERMS[step], step) if step in ATTACK_STEP_TERMS else step

    def rule_kind(self, kind: str) -> str:
        return self._(RULE_KIND_NAMES[kind]) if kind in RULE_KIND_NAMES else kind

    def reason(self, reason: Any) -> str:
        text = str(reason)
        return self._(REASON_NAMES[text]) if text in REASON_NAMES else text

    def card_state(self, down: bool, frozen: bool) -> str:
        """"down" and/or "frozen", in glossary words."""
        words = [self.term(t, t) for t, on in (("down", down), ("frozen", frozen)) if on]
        return self.join(words)

    def illegal(self, code: Any) -> str:
        text = str(code)
        return self._(ILLEGAL_NAMES[text]) if text in ILLEGAL_NAMES else text

    def colour(self, colour: str) -> str:
        if colour in COLOUR_TERMS:
            return self.term(COLOUR_TERMS[colour], colour)
        key = f"colour:{colour}"
        return self._(OTHER_MESSAGES[key]) if key in OTHER_MESSAGES else colour

    def _cost_part(self, name: str, count: int) -> str:
        if name in messages().cost_parts:  # a mechanic's (Exceed)
            return self._(messages().cost_parts[name], count=count)
        return self._(OTHER_MESSAGES["cost:part"], colour=self.colour(name), count=count)

    def ener(self, amounts: Iterable[tuple[str, int]]) -> str:
        """Colours and counts (``white 1, colourless 2``); nothing when there are none."""
        parts = [self._cost_part(colour, count) for colour, count in amounts]
        return self.join(parts) if parts else self._(OTHER_MESSAGES["cost:free"])

    def cost(self, cost: Cost) -> str:
        """A cost part by part: ener by colour, down, Exceed; nothing for a free cost."""
        if cost.free:
            return self._(OTHER_MESSAGES["cost:free"])
        parts = [self._cost_part(colour, count) for colour, count in cost.ener]
        if cost.down:
            parts.append(self._(OTHER_MESSAGES["cost:down"]))
        if cost.exceed:
            parts.append(self._cost_part("exceed", cost.exceed))
        return self.join(parts)

    def ability(self, ref: AbilityRef | None) -> str:
        """``S1#0``, ``S1#lancer``, ``B#burst``, a card (an ARTS or Spell) or ``p1-effect``."""
        if ref is None:
            return "?"
        if not ref.card:
            if ref.player:
                return self._(OTHER_MESSAGES["ability:player"], player=self.player(ref.player))
            # the effects in force from the set-up (never the subject of a sentence)
            return self._(OTHER_MESSAGES["ability:card"], card=self.card(str(ref)))
        label = ref.card
        if ref.which is None:
            return self._(OTHER_MESSAGES["ability:card"], card=self.card(label))
        if ref.is_burst:
            return self._(OTHER_MESSAGES["ability:burst"], card=self.card(label))
        keyword = ref.keyword
        if keyword is not None and keyword in messages().keyword_abilities:
            return self._(OTHER_MESSAGES["ability:keyword"], card=self.card(label),
                          keyword=self.term(messages().keyword_terms.get(keyword, keyword),
                                            keyword))
        card = self.cards.get(label)
        if card is not None and len(card.abilities) > 1 and ref.index is not None:
            return self._(OTHER_MESSAGES["ability:n"], n=ref.index + 1, card=self.card(label))
        return self._(OTHER_MESSAGES["ability"], card=self.card(label))

    def pick(self, value: Option, kind: str) -> str:
        """One picked answer of a choice of ``kind``: a label, an ability, cards together,
        yes/no/none, a SIGNI zone (kind ``zone``) or a kind of rule processing (kind
        ``rule_order``)."""
        if isinstance(value, AbilityRef):
            return self.ability(value)
        if isinstance(value, CardSet):
            return " + ".join(self.card(label) for label in value.labels)
        if value in ("yes", "no", "none"):
            return self._(OTHER_MESSAGES[value])
        if kind == "zone":
            return self.zone_name(value)
        if kind == "rule_order":
            return self.rule_kind(value)
        return self.card(value)

    def step_title(self, step: Step | None) -> str:
        """The heading of a scenario step (``None``: the set-up), without a full stop."""
        if step is None:
            return self._(OTHER_MESSAGES["setup"])
        action, to = step.action, step.to
        key = "advance:next" if action == "advance" and not to else action
        values: dict[str, Any] = {
            "player": self.player(step.first if action == "start_game" else step.player),
            "card": self.card(step.card), "count": step.count,
            "cards": self.join(self.card(c) for c in step.cards)}
        if action == "advance" and to:
            values["to"] = self.phase(to) if to in PHASE_TERMS else self.attack_step(to)
        what = self._(ACTION_MESSAGES[key], **values) if key in ACTION_MESSAGES else action
        return self._(EVENT_MESSAGES["step"], index=step.index, action=what).rstrip("。.")

    def _sentence_end(self) -> str:
        return "。" if self.lang in ("ja", "zh-Hans") else "."

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return ngettext_for(self.lang, singular, plural, n)

    # ------------------------------------------------------------------ events

    def event(self, e: Event) -> str:
        """One sentence for one event."""
        return self._sentence(self._event(e, [e.card] if e.card else []))

    def events(self, events: Iterable[Event]) -> list[str]:
        """Sentences for a run of events; consecutive identical moves become one sentence."""
        out: list[str] = []
        group: list[ev.Move] = []

        def flush() -> None:
            if group:
                cards = [g.card for g in group if g.card]
                out.append(self._sentence(self._event(group[0], cards)))
                group.clear()

        for e in events:
            if isinstance(e, ev.Move) and group and _same_move(group[0], e):
                group.append(e)
                continue
            flush()
            if isinstance(e, ev.Move):
                group.append(e)
            else:
                out.append(self.event(e))
        flush()
        return out

    def _sentence(self, text: str) -> str:
        if self.lang == "en" and text.startswith(("the ", "an ", "a ")):
            return text[0].upper() + text[1:]
        return text

    def _event(self, e: Event, cards: list[str]) -> str:
        v: dict[str, Any] = {
            "player": self.player(e.player),
            "card": self.join(self.card(c) for c in cards) if cards else "?",
            "from": self.zone(e.from_zone), "to": self.zone(e.to_zone),
        }
        tables = messages()
        msg = tables.events.get(e.type)
        if isinstance(e, ev.Step):
            step = (self.steps or {}).get(e.index)
            if step is not None:
                return self.step_title(step) + self._sentence_end()
            v.update(index=e.index, action=self._(ACTION_NAMES[e.action])
                     if e.action in ACTION_NAMES else e.action)
        elif isinstance(e, ev.Phase):
            v["phase"] = self.phase(e.phase)
        elif isinstance(e, ev.TurnBegin):
            v["turn"] = e.turn
        elif isinstance(e, ev.TurnEnd):
            v.update(turn=e.turn, reason=self.reason(e.reason))
        elif isinstance(e, ev.EffectBegin | ev.EffectEnd | ev.TriggerDeclined):
            v["ability"] = self.ability(e.ability)
        elif isinstance(e, ev.TriggerLost | ev.TriggerDropped):
            v.update(ability=self.ability(e.ability), reason=self.reason(e.reason))
        elif isinstance(e, ev.Trigger):
            v.update(ability=self.ability(e.ability),
                     trigger=self._(TRIGGER_NAMES[e.trigger]) if e.trigger in TRIGGER_NAMES
                     else e.trigger)
        elif isinstance(e, ev.Move):
            verb = e.verb
            pair = MOVE_MESSAGES["*"]
            if verb in tables.moves and verb not in ("rule", "*"):
                pair = tables.moves[verb]
            elif verb in RULE_KIND_NAMES or e.cause == "rule":
                pair = MOVE_MESSAGES["rule"]
                v["kind"] = self.rule_kind(verb)
            template = self.ngettext(pair[0], pair[1], max(1, len(cards)))
            return template % {k: v.get(k, "?") for k in PLACEHOLDER.findall(template)}
        elif isinstance(e, ev.Skipped):
            v.update(done=e.done, wanted=e.wanted,
                     how=self._(VERB_NAMES[e.verb]) if e.verb in VERB_NAMES else e.verb)
        elif isinstance(e, ev.Fizzle):
            v["reason"] = self.reason(e.reason)
            if not e.card:
                msg = VARIANTS["fizzle:nocard"]
        elif isinstance(e, ev.Banish):
            msg = VARIANTS.get(f"banish:{e.cause}", msg)
        elif isinstance(e, ev.Refresh):
            v.update(count=e.count, deck_size=e.deck_size)
        elif isinstance(e, ev.RefreshWaits):
            v["reason"] = self.reason(e.reason)
        elif isinstance(e, ev.RuleCheck):
            v["kinds"] = self.join(self.rule_kind(k) for k in e.kinds)
        elif isinstance(e, ev.Power):
            v.update(amount=_signed(e.amount), power=e.power)
        elif isinstance(e, ev.Level):
            v.update(amount=_signed(e.amount), level=e.level)
        elif isinstance(e, ev.Limit):
            v.update(amount=_signed(e.amount), limit=e.limit)
        elif isinstance(e, ev.Lasting):
            what, until = e.kind, e.until
            v.update(kind=str(what), until=self._(OTHER_MESSAGES[f"until:{until}"])
                     if f"until:{until}" in OTHER_MESSAGES else until)
            if f"lasting:{what.name}" in VARIANTS:
                msg = VARIANTS[f"lasting:{what.name}"]
                v["keyword"] = self.term(tables.keyword_terms.get(what.keyword, ""),
                                         what.keyword)
                v["cost"] = self.ener(what.amounts)
        elif isinstance(e, ev.Replaced):
            owner = e.player or (e.to_zone.player if e.to_zone is not None else "p1")
            v["instead"] = self.zone(ZoneRef(owner, e.instead))
        elif isinstance(e, ev.Burst):
            if not e.used:
                msg = VARIANTS["burst:no"]
        elif isinstance(e, ev.Choice):
            kind = e.kind
            v.update(kind=self._(tables.choices[kind]) if kind in tables.choices else kind,
                     picked=self.join(self.pick(p, kind) for p in e.picked) if e.picked
                     else self._(OTHER_MESSAGES["none"]))
            if kind == "use" and e.about is not None:
                v["kind"] = self._(OTHER_MESSAGES["use:about"], ability=self.ability(e.about))
        elif isinstance(e, ev.GameStart):
            v["first"] = self.player(e.first)
        elif isinstance(e, ev.Redraw):
            text = self.ngettext(REDRAW[0], REDRAW[1], e.count)
            return text % {"player": v["player"], "num": e.count}
        elif isinstance(e, ev.AttackStep):
            v["step"] = self.attack_step(e.attack_step)
        elif isinstance(e, ev.Battle):
            v.update(defender=self.card(e.defender), attack_power=e.attack_power,
                     defend_power=e.defend_power)
            if e.banished:
                msg = VARIANTS["battle:banished"]
        elif isinstance(e, ev.Pay):
            paid = [self._(OTHER_MESSAGES["paid:card"], card=self.card(p.card),
                           colour=self.colour(p.colour)) for p in e.paid]
            paid.extend(self.card(label) for label in e.exceed)
            v.update(cost=self.cost(e.cost), source=self.ability(e.source),
                     paid=self.join(paid))
            if not paid:
                msg = VARIANTS["pay:free"]
            elif e.source is None:
                msg = VARIANTS["pay:nosource"]
        elif isinstance(e, ev.GameOver):
            v.update(winner=self.player(e.winner), reason=self.reason(e.reason))
            if not e.winner:
                msg = VARIANTS["game_over:nowinner"]
        elif isinstance(e, ev.Illegal):
            v["reason"] = self.illegal(e.reason)
        else:  # a kind a mechanic declares: its own fields fill the placeholders they name
            for key, value in e.detail().items():
                v.setdefault(key, value)
        if msg is None:
            return str(e)
        template = self._(msg)
        return template % {k: v.get(k, "?") for k in PLACEHOLDER.findall(template)}


def _same_move(a: ev.Move, b: ev.Move) -> bool:
    return (a.verb, a.cause, a.source, a.from_zone, a.to_zone, a.player) == \
        (b.verb, b.cause, b.source, b.from_zone, b.to_zone, b.player)


def scenario_cards(scenario: Scenario) -> dict[str, CardDef]:
    """Card label -> definition for every card of a ruling's set-up."""
    return {p.label: scenario.cards[p.card] for p in scenario.setup.placements
            if p.card in scenario.cards}


def narrator_for(scenario: Scenario, lang: str) -> Narrator:
    """A narrator that knows a ruling's cards and steps."""
    return Narrator(lang, scenario_cards(scenario),
                    steps={s.index: s for s in scenario.steps})
