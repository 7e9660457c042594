"""The game: one mutable state plus the log of what happened (python-chess's Board and its
move stack).

This module owns the log (:meth:`Game.emit`), choices, the derived values rule processing and
battles read (power, level, limit, keywords), card movement (:meth:`Game.move`, the one place a
card changes zone), one effect's boundaries (:meth:`Game.resolve_effect`) and the settling loop
after each action (:meth:`Game.settle`). It delegates the rest, each to the module that owns
it: what a move triggers and the order triggered abilities resolve in
(:mod:`judge.engine.triggers`), the refresh (:mod:`judge.engine.refresh`), crushes and Life
Bursts (:mod:`judge.engine.bursts`), rule processing (:mod:`judge.engine.rule_processing`), the
end and start of a turn (:mod:`judge.engine.turn`), operations (:mod:`judge.engine.ops`).

Those modules take the game as their first argument and name :class:`Game` in annotations
only, so the modules this one imports never import it back: the engine's import graph has no
cycle (``tests/test_mechanics.py`` checks). Modules below call the game's methods
(``game.move``, ``game.resolve_effect``, ``game.settle``) rather than each other's functions
where importing would close a cycle.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Sequence
from dataclasses import MISSING
from operator import attrgetter
from typing import Any, Concatenate, Final, ParamSpec, TypeVar, cast

from judge.engine import (
    amounts,
    bursts,
    chance,
    continuous,
    refresh,
    rule_processing,
    triggers,
    turn,
)
from judge.engine import events as ev
from judge.engine.cards import Ability, CardDef, Op
from judge.engine.choices import Choice, ChoiceSource
from judge.engine.events import EVENT_KINDS, LAYOUTS, OWN_FIELDS, AbilityRef, Event, Option
from judge.engine.mechanics import accessory, ride
from judge.engine.ops import apply_op
from judge.engine.placement import MOVABLE, allowed
from judge.engine.placement import home_trash as _home_trash
from judge.engine.rulesets import RuleSet
from judge.engine.state import (
    FIELD_ZONES,
    ON_FIELD,
    UNDER_ZONES,
    ZONE_REFS,
    CardInstance,
    GameState,
    ZoneRef,
    zone_text,
)
from judge.engine.triggers import Pending
from judge.errors import EngineError
from judge.limits import MAX_EVENTS, MAX_SETTLE_ROUNDS

E = TypeVar("E", bound=Event)
P = ParamSpec("P")
#: tuple.__new__ as Game.move uses it: an event made of its fields, in order
_event: Callable[[type[Event], Iterable[object]], Event] = \
    tuple.__new__  # type: ignore[assignment]
OptionT = TypeVar("OptionT", bound=Option)

#: What a game says when it logs more than its budget of events (``Game.max_events``).
EVENTS_MESSAGE: Final = f"more than {MAX_EVENTS} events in one replay (limit; see docs/limits.md)"
SETTLE_MESSAGE: Final = (f"rule processing and triggers did not settle within {MAX_SETTLE_ROUNDS} "
                         "rounds (limit; see docs/limits.md)")


#: A choice among many options costs one event more of the budget for every this many
#: characters of its options: they are logged with it, and finding and offering them is work
#: (a choice among 400 cards costs about as much as 40 other events, one among 512 ways to pay
#: a cost of 100 ener as much as thousands).
CHARS_PER_EVENT: Final = 40


class LimitReached(EngineError):
    """A bound of judge.limits was reached: the game is stopped (a hostile or runaway ruling,
    not a rule of the game)."""

#: Events that change nothing rule processing looks at (zones, power, level, limit, effects in
#: force, crushed cards' bursts); any other event marks the game for a full check.
QUIET_EVENTS: Final = frozenset({
    "step", "phase", "choice", "attack_step", "arts_pass", "trigger", "effect_begin",
    "effect_end", "rule_check", "refresh_waits", "game_start", "down", "up", "freeze",
    "attack", "battle", "skipped", "fizzle", "trigger_declined", "trigger_lost", "illegal",
    "pay", "shuffle", "redraw", "move",  # a move marks the game itself: see Game.move
    # a turn's end and beginning mark the game themselves (judge.engine.turn) when effects
    # end or when something in force may read the turn; otherwise they change nothing it reads
    "turn_end", "turn_begin",
})

#: The kinds of QUIET_EVENTS (Game.emit looks the kind up).
_QUIET_KINDS: Final = frozenset(EVENT_KINDS[t] for t in QUIET_EVENTS if t in EVENT_KINDS)
# Game.move logs its event itself, as emit would: a move with its one own field (verb), quiet
# (the move marks the game itself), a banish with none, not quiet.
if OWN_FIELDS[ev.Move] != ("verb",) or OWN_FIELDS[ev.Banish] or ev.Move not in _QUIET_KINDS \
        or ev.Banish in _QUIET_KINDS:  # pragma: no cover - a change to events.py
    raise ImportError("Game.move builds move and banish events by their fields: update it")
_LABEL: Final = attrgetter("label")

#: Zones whose contents rule processing looks at directly.
WATCHED_ZONES: Final = frozenset({"signi1", "signi2", "signi3", "under1", "under2", "under3",
                                  "lrig", "key", "assist1", "assist2", "cheer", "seed1",
                                  "seed2", "seed3", "trap1", "trap2", "trap3"})


#: Where a card's constant abilities may work: the SIGNI zones and the LRIG zone.
_CONST_ZONES: Final = frozenset({*ON_FIELD, "lrig", "key"})
#: Game.move's tests of the zone a card goes to: on the field (a card leaving it is upped,
#: unfrozen and detached), face down always (the main deck, the life cloth), face down if it
#: was (the zones under a SIGNI).
_FIELD: Final = frozenset(FIELD_ZONES)
_FACE_DOWN: Final = frozenset({"deck", "life"})
_UNDER: Final = frozenset(UNDER_ZONES.values())


class Game:
    """A replayable game. Randomness comes only from ``rng``, seeded by the caller, and every
    shuffle is logged with its result, so the same seed gives the same log."""

    def __init__(self, state: GameState, rules: RuleSet, chooser: ChoiceSource,
                 seed: int = 0, max_events: int = MAX_EVENTS,
                 events_message: str = EVENTS_MESSAGE) -> None:
        self.state = state
        self.rules = rules
        self._refresh_interrupts = rules.refresh_interrupts  # read on every move
        self.chooser = chooser
        #: the game's random source, made when first used (:attr:`rng`): seeding one costs
        #: as much as the rest of a new game, and most replays never shuffle
        self._seed = seed
        self._rng: random.Random | None = None
        self.log: list[Event] = []
        #: called with each event once it is logged (the scenario runner's
        #: :class:`~judge.engine.trace.Tracer`); None: nobody watches
        self.watch: Callable[[Event], None] | None = None
        #: called once a round of rule processing that applied is over, with the index in
        #: the log where its events begin and that of its ``rule_check`` event (the scenario
        #: runner's :class:`~judge.engine.trace.Tracer`); None: nobody watches
        self.checked: Callable[[int, int], None] | None = None
        self.step = 0
        self.pending: list[Pending] = []
        self.effect_depth = 0
        self.turn_ending: str | None = None
        self.shuffled: set[ZoneRef] = set()
        self.attached_to: dict[str, tuple[str, int]] = {}
        self.refresh_waiting: set[str] = set()
        #: players whose refresh a replacement did instead, while their deck stays empty
        self.refresh_replaced: set[str] = set()
        #: cards whose level changed since the previous rule-processing check
        self.level_changed: list[CardInstance] = []
        self._special: list[CardInstance] | None = None
        self._special_count = 0
        #: something rule processing looks at may have changed since its last check
        self.dirty = True
        #: the token ARTS the game may make, by card id (mechanics/token_arts.py; the engine
        #: reads no files: the loader's cards are given by the runner)
        self.token_defs: dict[str, CardDef] = {}
        #: cards that have left the game (a used token ARTS), by label
        self.gone: dict[str, CardInstance] = {}
        #: (SIGNI label, turn) -> the attack power it met in battles this turn: read only
        #: with the rule ``damage-accumulates`` broken on purpose (judge.quiz)
        self.battle_damage: dict[tuple[str, int], int] = {}
        #: targets chosen when a card was used, for the operation now resolving
        self.preset_targets: list[tuple[CardInstance, int]] | None = None
        #: the controllers of the effects now resolving, innermost last
        self.controllers: list[str] = []
        #: the cards whose effects are now resolving, innermost last (None: an effect of no
        #: card); what a resistance limited to a kind of source reads (source_kinds.py)
        self.effect_sources: list[CardInstance | None] = []
        #: the card whose event triggered the triggered ability now resolving (a filter's
        #: ``trigger`` bound reads it: conditions.reference); None outside one
        self.subject: CardInstance | None = None
        #: the SIGNI or LRIG whose attack is being declared (its "when it attacks" abilities
        #: resolving), and whether an effect has negated that attack (``negate_attack``)
        self.attacking: CardInstance | None = None
        self.negated = False
        #: how many cards the operation now resolving acted on (each operation sets it: what
        #: the next operation's ``for_each = "done"`` counts)
        self.acted = 0
        self._layer: continuous.Layer | None = None
        self._layer_at = -1
        #: how many cards with a constant ability are in a SIGNI zone or a LRIG zone (None:
        #: not counted yet; Game.move keeps it up to date)
        self._consts: int | None = None
        #: the game stops (LimitReached) rather than log more events than this; events taken
        #: back from the log (:meth:`rollback`) still count
        self.max_events = max_events
        self.events_message = events_message
        self._charged = 0

    @property
    def rng(self) -> random.Random:
        """The game's random source, seeded with the game's seed."""
        rng = self._rng
        if rng is None:
            rng = self._rng = random.Random(self._seed)
        return rng

    # ------------------------------------------------------------------ events and choices

    def emit(self, event_class: Callable[Concatenate[int, int, P], E], /, *args: P.args,
             **fields: P.kwargs) -> E:
        """Log an event of kind ``event_class`` (a class of :mod:`judge.engine.events`) with these
        fields: ``game.emit(ev.Move, cause="effect", player=..., verb="draw")``, checked
        against the class's fields by the type checker; the game gives it its place in the
        log (``seq``) and the step now (``step``). The one place events are logged.

        An event is a tuple of its fields, those every event has first: this builds it here
        from the kind's layout (``events.LAYOUTS``), which costs less than calling the class;
        the class is called, and says what is wrong, only when a field is missing or unknown.
        (The first parameter is not named ``kind``: compiled, a field of that name would be
        taken for it.)"""
        seq = len(self.log)
        if seq >= self.max_events:
            raise LimitReached(self.events_message)
        given = cast("dict[str, Any]", fields)
        cls = cast("type[Event]", event_class)
        values: list[Any] = [seq, self.step]
        found = 0
        made: Event | None = None
        for name, default in LAYOUTS[cls]:
            if name in given:
                values.append(given[name])
                found += 1
            elif default is MISSING:
                break
            else:
                values.append(default)
        else:
            if found == len(given) and not args:
                made = _event(cls, values)
        if made is None:
            made = event_class(seq, self.step, *args, **fields)  # a TypeError, saying why
        if cls not in _QUIET_KINDS:
            self.dirty = True
        self.log.append(made)
        if self.watch is not None:
            self.watch(made)
        return cast(E, made)

    def rollback(self, length: int) -> None:
        """Take the events after the first ``length`` back from the log (a refused step); they
        still count towards :attr:`max_events`."""
        taken = len(self.log) - length
        if taken > 0:
            del self.log[length:]
            self.charge(taken)

    def charge(self, events: int) -> None:
        """Count ``events`` more towards :attr:`max_events` than the log holds: events taken
        back, or the size of a choice's options (the one check in :meth:`emit` stays a
        comparison with the log's length)."""
        self._charged += events
        self.max_events -= events

    @property
    def events_emitted(self) -> int:
        """What this game has spent of its event budget: the events logged, those taken back
        by :meth:`rollback`, and what long lists of options cost (CHARS_PER_EVENT)."""
        return len(self.log) + self._charged

    def choose(self, player: str, kind: str, options: Sequence[OptionT], min_count: int = 1,
               max_count: int = 1, prompt: str = "", about: AbilityRef | None = None
               ) -> tuple[OptionT, ...]:
        """Ask ``player``; a choice with one possible answer is made without asking. The
        options are labels or words, abilities or sets of cards (all of one type); the chooser
        sees their text forms, and the picked options are returned as they were given.
        ``about`` names the ability the question is about (``S1#0``, ``B#burst``)."""
        max_count = min(max_count, len(options))
        min_count = min(min_count, max_count)
        if max_count == 0:
            return ()
        if min_count == max_count == len(options):
            return tuple(options)
        texts = tuple(map(str, options))
        if len(options) > 8:  # a long list of options is paid for (see CHARS_PER_EVENT)
            self.charge(sum(map(len, texts)) // CHARS_PER_EVENT)
        choice = Choice(player, kind, texts, min_count, max_count, prompt)
        answer = self.chooser.pick(choice)
        if not choice.accepts(answer):
            raise EngineError(f"illegal answer {answer!r} to {choice}")
        if isinstance(options[0], str):
            picked = cast(tuple[OptionT, ...], answer)
        else:
            by_text = dict(zip(texts, options, strict=True))
            picked = tuple(map(by_text.__getitem__, answer))
        self.emit(ev.Choice, cause="game", player=player, kind=kind, options=tuple(options),
                  picked=picked, about=about)
        return picked

    def choose_card(self, player: str, kind: str, cards: list[CardInstance], prompt: str
                    ) -> CardInstance:
        """One of ``cards`` (not empty), asked of ``player`` by label when there are several."""
        if len(cards) == 1:
            return cards[0]
        labels = [c.label for c in cards]
        picked = self.choose(player, kind, labels, prompt=prompt)
        return cards[labels.index(picked[0])]

    def yes_no(self, player: str, kind: str, prompt: str,
               about: AbilityRef | None = None) -> bool:
        return self.choose(player, kind, ["yes", "no"], prompt=prompt, about=about) == ("yes",)

    # ------------------------------------------------------------------ derived values

    def card(self, label: str) -> CardInstance:
        try:
            return self.state.cards[label]
        except KeyError:
            gone = self.gone.get(label)  # a used token ARTS: in no zone now
            if gone is not None:
                return gone
            raise EngineError(f"no card labelled {label!r}") from None

    def on_field(self, inst: CardInstance) -> bool:
        """Whether ``inst`` is a SIGNI on the field: in a SIGNI zone or the cheer zone."""
        return inst.zone.zone in ON_FIELD

    @property
    def plain(self) -> bool:
        """Nothing is in force beyond plain modifiers and no constant ability is on the field:
        :meth:`layer` is None (a cheap test for the hot paths)."""
        return not self.state.layered and self._consts == 0

    def layer(self) -> continuous.Layer | None:
        """The continuous effects in force (:mod:`judge.engine.continuous`), computed again
        only after something they read has changed; None when no constant ability is on the
        field and no effect in force needs more than the summed tables of the state (then
        those give the same values, faster)."""
        state = self.state
        if not state.layered and self._consts == 0:
            return None  # nothing in force but plain modifiers (plain): the summed tables
        changes = state.changes
        if changes != self._layer_at:
            self._layer_at = changes
            consts = self._consts
            if consts is None:
                consts = self._consts = sum(
                    1 for c in self.state.cards.values()
                    if c.zone.zone in _CONST_ZONES and c.card.has_const)
            self._layer = continuous.compute(self) if (
                self.state.layered or (consts and continuous.const_on_field(self))) else None
        return self._layer

    def field_stats(self, signi: list[CardInstance]) -> tuple[list[int], list[int]]:
        """Powers and levels of one player's SIGNI on the field, computed in one pass: printed
        values, then the effects that set them, then those that change them, constant
        abilities and lasting effects alike (:mod:`judge.engine.continuous`). The one place
        these are computed; :meth:`power` and :meth:`level` read it."""
        layer = self.layer()
        if layer is not None:
            if signi:
                known = layer.by_player.get(signi[0].zone.player)
                if known is not None and known[0] == signi:
                    return known[1], known[2]
            stats = layer.stats
            pairs = [stats.get(c.label, (c.card.power or 0, c.card.level or 0)) for c in signi]
            return [p for p, _ in pairs], [lv for _, lv in pairs]
        return self.summed_stats(signi)

    def summed_stats(self, signi: list[CardInstance]) -> tuple[list[int], list[int]]:
        """:meth:`field_stats` when :meth:`layer` is None: printed values plus the summed
        modifiers of the state (rule processing's ``quiet`` calls it directly then)."""
        powers = [c.card.power or 0 for c in signi]
        levels = [c.card.level or 0 for c in signi]
        mods = self.state.mods
        if mods:
            for i, c in enumerate(signi):
                mod = mods.get(("power", c.label))
                if mod is not None and mod[0] == c.epoch:
                    powers[i] += mod[1]
                mod = mods.get(("level", c.label))
                if mod is not None and mod[0] == c.epoch:
                    levels[i] += mod[1]
        return powers, levels

    def special_cards(self) -> list[CardInstance]:
        """The Resona and Keys in the game (rule processing kinds 6 and 7 watch them)."""
        if self._special is None or self._special_count != len(self.state.cards):
            self._special_count = len(self.state.cards)
            self._special = [c for c in self.state.cards.values()
                             if c.card.type in ("resona", "key")]
        return self._special

    def keywords(self, inst: CardInstance) -> set[str]:
        """Printed keywords (unless its abilities are lost) plus those given by effects,
        constant abilities and its Accessories
        (:func:`judge.engine.mechanics.accessory.granted`)."""
        layer = self.layer()
        if layer is not None:
            words = layer.keywords.get(inst.label)
            if words is not None:
                found = set(words)
                if self.attached_to:
                    found |= accessory.granted(self, inst)
                return found
        out = set(inst.card.keywords)
        given = self.state.given.get(inst.label)
        if given is not None and given[0] == inst.epoch:
            out |= given[1]
        if self.attached_to:
            out |= accessory.granted(self, inst)
        return out

    def abilities(self, inst: CardInstance) -> tuple[Ability, ...]:
        """The card's printed abilities, or none once it has lost its abilities."""
        return () if self.lost(inst) else inst.card.abilities

    def lost(self, inst: CardInstance) -> bool:
        """Whether ``inst`` has lost its abilities (an effect in force; only on the field)."""
        if not self.state.layered:
            return False
        layer = self.layer()
        return layer is not None and inst.label in layer.lost

    def cannot(self, inst: CardInstance, what: str, controller: str | None = None) -> bool:
        """Whether an effect in force says ``inst`` cannot ``what``, when an effect of
        ``controller`` would make it (None: battle or rule processing)."""
        return not self.plain and continuous.cannot(self, inst, what, controller)

    def player_cannot(self, player: str, what: str) -> bool:
        return not self.plain and continuous.player_cannot(self, player, what)

    @property
    def effect_controller(self) -> str | None:
        """The controller of the effect now resolving (the innermost), if any."""
        return self.controllers[-1] if self.controllers else None

    def power(self, inst: CardInstance) -> int:
        if inst.zone.zone not in ON_FIELD:
            return inst.card.power or 0  # modifiers apply on the field only
        signi = self.state.signi(inst.zone.player)
        return self.field_stats(signi)[0][signi.index(inst)]

    def level(self, inst: CardInstance) -> int:
        if inst.zone.zone not in ON_FIELD:
            return inst.card.level or 0
        signi = self.state.signi(inst.zone.player)
        return self.field_stats(signi)[1][signi.index(inst)]

    def lrig_level(self, player: str) -> int:
        stack = self.state.players[player].zones["lrig"]
        return stack[-1].card.level or 0 if stack else 0

    def lrig_type(self, player: str) -> str | None:
        stack = self.state.players[player].zones["lrig"]
        return stack[-1].card.lrig_type if stack else None

    def limit(self, player: str) -> int:
        return self.limit_in(player, self.layer())

    def limit_in(self, player: str, layer: continuous.Layer | None) -> int:
        """:meth:`limit`, with :meth:`layer` as just read."""
        stack = self.state.players[player].zones["lrig"]
        value = stack[-1].card.limit or 0 if stack else 0
        if layer is not None:
            return value + layer.limit.get(player, 0)
        return value + self.state.limit_mods.get(player, 0)

    def banish_destination(self, inst: CardInstance) -> str:
        """Where ``inst`` goes when banished, as far as the first replacement in force that
        sends it to a zone says (ener unless replaced)."""
        for item in continuous.replacements(self, "banish", inst):
            if item.op.name == "banish_to_trash":
                return "trash"
            if item.op.zone:
                return item.op.zone
        return "ener"

    @staticmethod
    def home_trash(card: CardDef) -> str:
        """Cards of the LRIG deck go to the LRIG trash, others to the trash."""
        return _home_trash(card)

    # ------------------------------------------------------------------ moving cards

    def move(self, inst: CardInstance, zone: str, cause: str, verb: str, *,
             source: AbilityRef | None = None, to_player: str | None = None, top: bool = False,
             etype: str = "move") -> None:
        """Move one card; the single place where a card changes zone. A card goes only where
        its type may be (judge.engine.placement): anything else is an EngineError."""
        if zone == "ener":
            zone = self._ener_replaced(inst, cause, source)
        old = inst.zone
        old_zone = old.zone
        was_on_field = old_zone in ON_FIELD
        state = self.state
        lost = was_on_field and state.layered > 0 and self.lost(inst)
        card = inst.card
        # what a bound reads of a card that has left the field: kept for cards whose own
        # abilities trigger, and for a banished SIGNI (another card's ability may watch it)
        known = (self.power(inst), self.level(inst)) if was_on_field and zone not in ON_FIELD \
            and (card.triggers or etype == "banish") else None
        new = ZONE_REFS.get((to_player or inst.owner, zone)) or \
            ZoneRef.of(to_player or inst.owner, zone)
        if card.type not in MOVABLE[zone]:
            raise EngineError(f"{inst.label} ({card.type}) cannot be put into "
                              f"{zone_text(new)} ({allowed(zone)})")
        players = state.players
        players[old.player].zones[old_zone].remove(inst)
        cards = players[new.player].zones[zone]
        if top:
            cards.insert(0, inst)
        else:
            cards.append(inst)
        inst.zone = new
        inst.epoch += 1
        inst.since = len(self.log)
        if known is not None:
            inst.known = (inst.epoch, known[0], known[1])
        layer = self._layer
        const_from = old_zone in _CONST_ZONES
        const_to = zone in _CONST_ZONES
        counted = layer is not None and (old_zone in layer.counted or zone in layer.counted)
        if layer is None or const_from or const_to or counted:
            state.changes += 1  # the layer reads this move
        if const_from != const_to and self._consts is not None and card.has_const:
            self._consts += 1 if const_to else -1
        if zone not in _FIELD:
            inst.down = inst.frozen = False
            inst.attach = ""
        if zone != "check":
            inst.crushed = False
            inst.burst = ""
        inst.face_down = zone in _FACE_DOWN or (inst.face_down and zone in _UNDER)
        inst.level_changed = False
        # What self.emit(ev.Banish, ...) or self.emit(ev.Move, ..., verb=verb) logs, built
        # here: a move is the most frequent event (the kinds' fields are checked at import)
        seq = inst.since
        if seq >= self.max_events:
            raise LimitReached(self.events_message)
        if etype == "banish":
            event = _event(ev.Banish, (seq, self.step, cause, inst.owner, inst.label, old, new,
                                       source))
            self.log.append(event)
            self.dirty = True
        else:
            event = _event(ev.Move, (seq, self.step, cause, inst.owner, inst.label, old, new,
                                     source, verb))
            self.log.append(event)
            # Only some moves can make rule processing apply: to or from a watched zone, a
            # Resona or Key moving, a main deck emptied, a card reaching an empty deck's trash,
            # a crushed card put into the check zone (kind 4 looks at crushed cards only; a
            # card used from or leaving the check zone makes nothing apply there). With
            # conditions that count cards, or upper limits of the ener zone or hand, in force,
            # any move may matter too.
            if old_zone in WATCHED_ZONES or zone in WATCHED_ZONES or counted or \
                    (zone == "check" and inst.crushed) or \
                    card.type in ("resona", "key") or \
                    (old_zone == "deck" and not players[old.player].zones["deck"]) or \
                    (zone == "trash" and not players[new.player].zones["deck"]):
                self.dirty = True
        if self.watch is not None:
            self.watch(event)
        fired = triggers.moved(old_zone, zone, cause == "effect", etype == "banish",
                               zone == "check" and inst.crushed)
        if fired:  # most moves fire no trigger
            triggers.observe_move(self, inst, fired, cause, lost)
            triggers.observe_others(self, inst, fired)
        if self._refresh_interrupts:  # 2014-04: the refresh happens the moment it can
            refresh.after_move(self, old, new, verb)
        if was_on_field and state.riding and zone not in ON_FIELD:
            ride.left_field(self, inst)  # a LRIG riding it gets off

    def _ener_replaced(self, inst: CardInstance, cause: str,
                       source: AbilityRef | None) -> str:
        """Where ``inst``, about to be put into the ener zone, goes: the zone of a
        replacement in force (``replace`` with event ``ener``), logged as ``replaced``."""
        layer = self.layer()
        if layer is None or not layer.replacements:
            return "ener"
        for item in continuous.replacements(self, "ener", inst):
            if item.op.zone and item.op.zone != "ener":
                self.emit(ev.Replaced, cause=cause, player=inst.owner, card=inst.label,
                          source=source, kind="ener", instead=item.op.zone)
                return item.op.zone
        return "ener"

    def put_into_deck(self, inst: CardInstance, cause: str, verb: str, bottom: bool,
                      source: AbilityRef | None = None) -> None:
        self.move(inst, "deck", cause, verb, source=source, top=not bottom)

    def attach(self, card: CardInstance, signi: CardInstance, how: str, cause: str,
               source: AbilityRef) -> None:
        """Put ``card`` under ``signi`` as its ``charm`` or ``accessory`` (verb ``how``): it
        belongs to that SIGNI, as the object it is now, until one of them moves (rule
        processing kind 3 then puts the card into the trash)."""
        self.move(card, UNDER_ZONES[signi.zone.zone], cause, how, source=source,
                  to_player=signi.owner)
        card.attach = how
        card.face_down = how == "charm"
        self.attached_to[card.label] = (signi.label, signi.epoch)
        self.state.changes += 1  # conditions read what is attached (a Charm)

    def shuffle(self, player: str, cause: str) -> None:
        deck = self.state.zone(player, "deck")
        chance.shuffle(self.rng, deck)
        ref = ZoneRef.of(player, "deck")
        self.shuffled.add(ref)
        self.emit(ev.Shuffle, cause=cause, player=player, to_zone=ref,
                  order=tuple(map(_LABEL, deck)))

    # ------------------------------------------------------------------ effects

    def resolve_effect(self, ops: tuple[Op, ...], controller: str,
                       source: CardInstance | None, name: AbilityRef,
                       preset: dict[int, list[tuple[CardInstance, int]]] | None = None,
                       paid: int = 0, subject: CardInstance | None = None) -> None:
        """Resolve one effect whole. Rule processing is not checked inside it (WIXOSS glossary,
        "rule processing", property 1, 2020); under the 2014-04 rules only a refresh may
        interrupt it. An operation with ``if`` is done only if its condition holds then; one
        with ``if_done`` ("if you do") only if the operation before it did what it said
        (skipped: ``op_skipped``). An operation with ``for_each`` has its number multiplied
        when its turn comes (:func:`judge.engine.amounts.scaled`): by the cards the operation
        before it acted on, by ``paid`` (the cards discarded for the cost of what resolves),
        or by a count. ``subject``: the card whose event triggered the ability that
        resolves (what a filter's ``trigger`` bound reads)."""
        label = source.label if source is not None else None
        self.emit(ev.EffectBegin, cause="effect", player=controller, card=label, ability=name)
        self.effect_depth += 1
        self.controllers.append(controller)
        self.effect_sources.append(source)
        outer, self.subject = self.subject, subject
        try:
            done = True
            acted = 0
            for i, op in enumerate(ops):
                if self.state.winner:
                    break
                skip = None
                if op.if_done and not done:
                    skip = "not-done"
                elif op.only_if is not None:
                    if not op.only_if.holds(self, controller, source, self.crossed()):
                        skip = "condition"
                if skip is not None:
                    self.emit(ev.OpSkipped, cause="effect", player=controller, card=label,
                              source=name, op=op.name, reason=skip)
                    done = False
                    acted = 0
                    continue
                if op.for_each is not None or op.keep is not None:
                    op = amounts.scaled(self, op, controller, source, acted, paid)
                self.preset_targets = preset.get(i) if preset else None
                self.acted = 0
                done = apply_op(self, op, controller, source, name)
                acted = self.acted
        finally:
            self.preset_targets = None
            self.effect_depth -= 1
            self.controllers.pop()
            self.effect_sources.pop()
            self.subject = outer
        self.emit(ev.EffectEnd, cause="effect", player=controller, card=label, ability=name)

    def targeted(self, cards: list[CardInstance], controller: str) -> None:
        """``cards`` were chosen as the targets of an effect of ``controller`` (or named for
        it): the SIGNI on the field among them whose abilities wait for that trigger
        (``targeted``, issue 30; ``by``: whose effect it is)."""
        for inst in cards:
            if "targeted" in inst.card.triggers and self.on_field(inst):
                triggers.queue(self, inst, ("targeted",),
                               by="own" if controller == inst.owner else "opponent")

    def crossed(self) -> frozenset[str]:
        """The labels of the SIGNI in a cross state now (from the layer)."""
        layer = self.layer()
        return layer.crossed if layer is not None else frozenset()

    def flags_changed(self) -> None:
        """A card was downed, upped, frozen or unfrozen: when something in force reads those
        flags (a filter's ``down``/``frozen`` in a constant ability or a ``while``), the
        layer is computed again (:attr:`continuous.Layer.flags`)."""
        layer = self._layer
        if layer is not None and layer.flags:
            self.state.changes += 1

    # ------------------------------------------------------------------ settling

    def settle(self) -> None:
        """After an action: rule processing to a fixpoint, then Life Bursts and waiting
        triggered abilities one at a time, each followed by rule processing again. A refresh is
        rule processing, so it comes before any waiting triggered ability (WIXOSS glossary,
        "refresh", 2020). The turn player's second refresh may end the turn (notice of
        2014-08-27): once the round of rule processing that made it is over."""
        for _ in range(MAX_SETTLE_ROUNDS):
            if self.state.winner:
                self.drop_waiting("game_over")
                return
            # each step is skipped, without a call, when it has nothing to look at
            applied = self.dirty and rule_processing.check(self)
            if self.turn_ending:
                reason, self.turn_ending = self.turn_ending, None
                turn.end_turn(self, reason)
                continue
            if applied:
                continue
            players = self.state.players
            if (players["p1"].zones["check"] or players["p2"].zones["check"]) and \
                    bursts.next_burst(self):
                continue
            if self.pending and triggers.next_trigger(self):
                continue
            return
        raise LimitReached(SETTLE_MESSAGE)

    def drop_waiting(self, reason: str) -> None:
        """Remove every waiting triggered ability and Life Burst unresolved, logging each
        (the turn ended early, or the game is over)."""
        triggers.drop(self, reason)
        bursts.drop(self, reason)
