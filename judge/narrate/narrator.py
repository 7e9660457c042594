"""The narrator: one language's sentences for a ruling's events, from the families' tellers
(:mod:`judge.narrate.base`) and the words of :mod:`judge.narrate.words`."""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from judge.engine import events as ev
from judge.engine.cards import CardDef
from judge.engine.classes import CLASSES
from judge.engine.costs import Cost
from judge.engine.events import AbilityRef, CardSet, Event, Option
from judge.engine.state import ATTACK_STEP_TERMS, PHASE_TERMS, ZONE_TERMS, ZoneRef
from judge.i18n import LANGS, gettext_for, ngettext_for
from judge.narrate.base import fill, teller_for
from judge.narrate.battle import VARIANTS as BATTLE_VARIANTS
from judge.narrate.cards import short_name
from judge.narrate.catalogue import Messages, messages
from judge.narrate.choices import repeats
from judge.narrate.costs import VARIANTS as COST_VARIANTS
from judge.narrate.flow import ACTION_MESSAGES, ILLEGAL_NAMES
from judge.narrate.flow import EVENTS as FLOW_EVENTS
from judge.narrate.moves import same_move
from judge.narrate.order import Compound, judge_order
from judge.narrate.rules import RULE_KIND_NAMES
from judge.narrate.words import COLOUR_TERMS, OTHER_MESSAGES, REASON_NAMES, glossary_names
from judge.scenario.model import Scenario, Step


@dataclass(frozen=True)
class Told:
    """One sentence of a replay and the events it tells (a run of moves, a summary with the
    events it merges; the first is the one it is about)."""

    text: str
    events: tuple[Event, ...]


@dataclass
class Narrator:
    """Sentences in one language. ``cards`` maps card labels to their definitions."""

    lang: str
    cards: Mapping[str, CardDef]
    glossary: Mapping[str, Mapping[str, str]] | None = None
    #: the scenario's steps by index, for ``step`` events
    steps: Mapping[int, Step] | None = None

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
        """The name the ruling gives the card labelled ``label`` (None when it has none)."""
        card = self.cards.get(label)
        if card is None:
            return None
        return card.names.get(self.lang) or None

    def card_short(self, label: str) -> str | None:
        """What the card labelled ``label`` is, in a few words (:mod:`judge.narrate.cards`);
        None for a card without a name (the set-up's filler cards)."""
        card = self.cards.get(label)
        if card is None or not card.names:
            return None
        return short_name(self, card)

    def card(self, label: str | None) -> str:
        """A card in a sentence: its label, which the page's key to the cards explains."""
        return label or "?"

    def zone_name(self, zone: str) -> str:
        """A zone without its player: ``trash``, ``signi2`` (numbered zones by their number)."""
        match = re.fullmatch(r"(assist|signi|under|seed|trap)(\d)", zone)
        if match:
            return self._(OTHER_MESSAGES[f"zone:{match.group(1)}"], n=match.group(2))
        if zone in ZONE_TERMS:
            return self.term(ZONE_TERMS[zone], zone)
        if zone == "key":
            return self._(OTHER_MESSAGES["zone:key"])
        return zone

    def board_zone_name(self, zone: str) -> str:
        """A zone's name on a board's box, where room is short (``assist LRIG 1``)."""
        for kind in ("assist", "seed", "trap"):
            if zone.startswith(kind):
                return self._(OTHER_MESSAGES[f"zone:{kind}:board"], n=zone[-1])
        return self.zone_name(zone)

    def zone(self, ref: ZoneRef | None) -> str:
        """``p1.trash`` -> "the trash of Player 1" in the page's language."""
        if ref is None:
            return "?"
        if ref.zone.startswith("under"):
            return self._(OTHER_MESSAGES["zone:player:under"], player=self.player(ref.player),
                          n=ref.zone[-1])
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
        if "_or_" in colour:  # an either-colour requirement: "red or green"
            parts = [self.colour(c) for c in colour.split("_or_")]
            text = parts[0]
            for part in parts[1:]:
                text = self._(OTHER_MESSAGES["colour:or"], a=text, b=part)
            return text
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
        if cost.remove_virus:
            parts.append(self._cost_part("remove_virus", cost.remove_virus))
        if cost.discard:
            named = {"class": self._(CLASSES[cost.discard_class])} if cost.discard_class else {}
            parts.append(self._(OTHER_MESSAGES["cost:discard:class"], count=cost.discard, **named)
                         if named else self._(OTHER_MESSAGES["cost:discard"], count=cost.discard))
        return self.join(parts)

    def ability(self, ref: AbilityRef | None) -> str:
        """``S1#0``, ``S1#lancer``, ``B#burst``, a card (an ARTS or Spell) or ``p1-effect``."""
        if ref is None:
            return "?"
        if not ref.card:
            if ref.player:
                return self._(OTHER_MESSAGES["ability:player"], player=self.player(ref.player))
            # the effects a ruling's set-up puts in force, from no card
            return self._(OTHER_MESSAGES["ability:in_force"])
        label = ref.card
        if ref.which is None:
            return self._(OTHER_MESSAGES["ability:card"], card=self.card(label))
        if ref.is_burst:
            return self._(OTHER_MESSAGES["ability:burst"], card=self.card(label))
        keyword = ref.keyword
        if keyword is not None and keyword in messages().keyword_terms:  # S1#lancer, A#bet
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
        if value == "none":
            return self._(OTHER_MESSAGES[value])
        if kind == "zone":
            return self.zone_name(value)
        if kind == "rule_order":
            return self.rule_kind(value)
        if kind == "mode" and value.startswith("mode"):
            return self._(OTHER_MESSAGES["mode"], n=value[4:])
        return self.card(value)

    def step_title(self, step: Step | None) -> str:
        """The heading of a scenario step (``None``: the set-up), without a full stop."""
        if step is None:
            return self._(OTHER_MESSAGES["setup"])
        action, to = step.action, step.to
        key = "advance:next" if action == "advance" and not to else action
        if action == "remove" and step.cards:  # several SIGNI removed at once
            key = "remove:cards"
        elif action == "attack" and step.zone:  # a SIGNI in the cheer zone names its target
            key = "attack:zone"
        labels = ((step.card,) if step.card else ()) + step.cards
        values: dict[str, Any] = {
            "player": self.player(step.first if action == "start_game" else step.player),
            "card": self.card(step.card), "count": step.count,
            "cards": self.join(self.card(c) for c in (labels if key == "remove:cards"
                                                      else step.cards)),
            "zone": self.zone_name(step.zone) if step.zone else ""}
        if action == "advance" and to:
            values["to"] = self.phase(to) if to in PHASE_TERMS else self.attack_step(to)
        what = self._(ACTION_MESSAGES[key], **values) if key in ACTION_MESSAGES else action
        return self._(FLOW_EVENTS["step"], index=step.index, action=what).rstrip("。.")

    def ordinal(self, count: int) -> str:
        """``count`` as an ordinal number where the language writes one (``2nd``); the
        number itself where the sentence around it says it (``2回目``, ``第2次``)."""
        if self.lang != "en":
            return str(count)
        suffix = "th" if 10 <= count % 100 <= 20 else \
            {1: "st", 2: "nd", 3: "rd"}.get(count % 10, "th")
        return f"{count}{suffix}"

    def sentence_end(self) -> str:
        """The full stop of a sentence in this language (。 in Japanese and Chinese)."""
        return "。" if self.lang in ("ja", "zh-Hans") else "."

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return ngettext_for(self.lang, singular, plural, n)

    # ------------------------------------------------------------------ events

    @property
    def tables(self) -> Messages:
        """The message tables of the mechanics registered now."""
        return messages()

    def say(self, msg: str | None, values: dict[str, Any], e: Event) -> str:
        """The message ``msg`` in this language with ``values`` filled in; the event's text
        form when it has no message."""
        if msg is None:
            return str(e)
        return fill(self._(msg), values)

    def event(self, e: Event) -> str:
        """One sentence for one event."""
        return self._sentence(self._event(e, [e.card] if e.card else []))

    def events(self, events: Iterable[Event]) -> list[str]:
        """Sentences for a run of events, in a judge's order (:func:`told`)."""
        return [t.text for t in self.told(events)]

    def told(self, events: Iterable[Event]) -> list[Told]:
        """Sentences for a run of events, each with the events it tells, in a judge's order
        (:func:`judge.narrate.order.judge_order`: a compound action's summary first, then its
        parts); consecutive identical moves become one sentence, and a sentence that says
        again what a choice's sentence said is left out."""
        out: list[Told] = []
        group: list[ev.Move] = []

        def flush() -> None:
            if group:
                cards = [g.card for g in group if g.card]
                out.append(Told(self._sentence(self._event(group[0], cards)), tuple(group)))
                group.clear()

        choice: ev.Choice | None = None
        for item in judge_order(list(events)):
            if isinstance(item, Compound):
                flush()
                choice = None
                out.append(Told(self._sentence(self._compound(item)),
                                (item.head, *item.merged)))
                continue
            e = item
            if isinstance(e, ev.Move) and group and same_move(group[0], e):
                group.append(e)
                continue
            flush()
            if choice is not None and repeats(choice, e):
                choice = None
                continue  # the choice's sentence said it already
            choice = e if isinstance(e, ev.Choice) else None
            if isinstance(e, ev.Move):
                group.append(e)
            else:
                out.append(Told(self.event(e), (e,)))
        flush()
        return out

    def _compound(self, item: Compound) -> str:
        """The summary sentence of a compound action (:class:`Compound`)."""
        head = item.head
        v: dict[str, Any] = {"player": self.player(head.player), "card": self.card(head.card),
                             "from": self.zone(head.from_zone), "to": self.zone(head.to_zone)}
        if item.crushes:  # an attack: how many life cloth it crushes
            target = "p2" if head.player == "p1" else "p1"
            v.update(count=item.crushes, life=self.zone(ZoneRef.of(target, "life")))
            return fill(self._(BATTLE_VARIANTS["attack:crush"]), v)
        pay = next(e for e in item.merged if isinstance(e, ev.Pay))  # a grow and its payment
        v.update(cost=self.cost(pay.cost), paid=self.join(
            [self._(OTHER_MESSAGES["paid:card"], card=self.card(p.card),
                    colour=self.colour(p.colour)) for p in pay.paid] +
            [self.card(label) for label in pay.exceed]))
        return fill(self._(COST_VARIANTS["pay:grow"] if pay.paid or pay.exceed
                           else COST_VARIANTS["pay:grow:free"]), v)

    def _sentence(self, text: str) -> str:
        if self.lang == "en" and text.startswith(("the ", "an ", "a ")):
            return text[0].upper() + text[1:]
        return text

    def _event(self, e: Event, cards: list[str]) -> str:
        v: dict[str, Any] = {
            "player": self.player(e.player),
            "card": self.join(self.card(c) for c in cards) if cards else "?",
            "from": self.zone(e.from_zone), "to": self.zone(e.to_zone), "_n": len(cards),
        }
        if e.from_zone is not None and e.to_zone is not None and \
                e.from_zone.player == e.to_zone.player:
            # the player named once: "from Player 1's trash into their main deck"
            v["_to_same"] = self.zone_name(e.to_zone.zone) if e.to_zone.zone.startswith(
                "under") else self._(OTHER_MESSAGES["zone:same"],
                                     zone=self.zone_name(e.to_zone.zone))
        msg = self.tables.events.get(e.type)
        teller = teller_for(e)
        if teller is not None:
            return teller(self, e, v, msg)
        # a kind without a teller (one a mechanic declares): its own fields fill the
        # placeholders they name
        for key, value in e.detail().items():
            v.setdefault(key, value)
        return self.say(msg, v, e)


def scenario_cards(scenario: Scenario) -> dict[str, CardDef]:
    """Card label -> definition for every card of a ruling's set-up."""
    return {p.label: scenario.cards[p.card] for p in scenario.setup.placements
            if p.card in scenario.cards}


def narrator_for(scenario: Scenario, lang: str) -> Narrator:
    """A narrator that knows a ruling's cards and steps."""
    return Narrator(lang, scenario_cards(scenario),
                    steps={s.index: s for s in scenario.steps})
