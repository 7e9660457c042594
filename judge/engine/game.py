"""The game: one mutable state plus the log of what happened (python-chess's Board and its
move stack).

This module owns card movement, choices, the settling loop after each action (rule processing,
Life Bursts, waiting triggered abilities), the refresh and the end of a turn. Operations live in
:mod:`judge.engine.ops`, rule processing in :mod:`judge.engine.rule_processing`, game actions
(phases, using cards) in :mod:`judge.engine.actions`.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from judge.engine.cards import KEYWORD_ABILITIES, KEYWORD_TRIGGERS, Ability, CardDef, Op
from judge.engine.choices import Choice, ChoiceSource
from judge.engine.events import Event
from judge.engine.placement import MOVABLE, allowed
from judge.engine.placement import home_trash as _home_trash
from judge.engine.rulesets import RuleSet
from judge.engine.state import (
    FIELD_ZONES,
    SIGNI_ZONES,
    UNDER_ZONES,
    CardInstance,
    GameState,
    ZoneRef,
    other,
    zone_text,
)
from judge.errors import EngineError
from judge.limits import MAX_EVENTS, MAX_SETTLE_ROUNDS

#: What a game says when it logs more than its budget of events (``Game.max_events``).
EVENTS_MESSAGE = f"more than {MAX_EVENTS} events in one replay (limit; see docs/limits.md)"
SETTLE_MESSAGE = (f"rule processing and triggers did not settle within {MAX_SETTLE_ROUNDS} "
                  "rounds (limit; see docs/limits.md)")


#: A choice among many options costs one event more of the budget for every this many
#: characters of its options: they are logged with it, and finding and offering them is work
#: (a choice among 400 cards costs about as much as 40 other events, one among 512 ways to pay
#: a cost of 100 ener as much as thousands).
CHARS_PER_EVENT = 40


class LimitReached(EngineError):
    """A bound of judge.limits was reached: the game is stopped (a hostile or runaway ruling,
    not a rule of the game)."""

#: Events that change nothing rule processing looks at (zones, power, level, limit, effects in
#: force, crushed cards' bursts); any other event marks the game for a full check.
QUIET_EVENTS = frozenset({
    "step", "phase", "choice", "attack_step", "arts_pass", "trigger", "effect_begin",
    "effect_end", "rule_check", "refresh_waits", "game_start", "down", "up", "freeze",
    "attack", "battle", "skipped", "fizzle", "trigger_declined", "trigger_lost", "illegal",
    "pay", "shuffle", "redraw", "move",  # a move marks the game itself: see Game.move
})

#: Zones whose contents rule processing looks at directly.
WATCHED_ZONES = frozenset({"signi1", "signi2", "signi3", "under1", "under2", "under3",
                           "check", "lrig", "key", "assist1", "assist2"})


@dataclass
class Pending:
    """A triggered ability waiting to resolve."""

    ability: Ability
    card: CardInstance
    epoch: int
    controller: str
    trigger_seq: int

    @property
    def name(self) -> str:
        """``S1#0`` (its first printed ability), ``S1#lancer`` (a keyword ability)."""
        return f"{self.card.label}#{self.ability.keyword or self.ability.index}"


class Game:
    """A replayable game. Randomness comes only from ``rng``, seeded by the caller, and every
    shuffle is logged with its result, so the same seed gives the same log."""

    def __init__(self, state: GameState, rules: RuleSet, chooser: ChoiceSource,
                 seed: int = 0, max_events: int = MAX_EVENTS,
                 events_message: str = EVENTS_MESSAGE) -> None:
        self.state = state
        self.rules = rules
        self.chooser = chooser
        self.rng = random.Random(seed)
        self.log: list[Event] = []
        self.step = 0
        self.pending: list[Pending] = []
        self.effect_depth = 0
        self.turn_ending: str | None = None
        self.shuffled: set[ZoneRef] = set()
        self.attached_to: dict[str, tuple[str, int]] = {}
        self.refresh_waiting: set[str] = set()
        #: cards whose level changed since the previous rule-processing check
        self.level_changed: list[CardInstance] = []
        self._special: list[CardInstance] | None = None
        self._special_count = 0
        self._const: bool | None = None
        #: something rule processing looks at may have changed since its last check
        self.dirty = True
        self._const_count = 0
        #: targets chosen when a card was used, for the operation now resolving
        self.preset_targets: list[tuple[CardInstance, int]] | None = None
        #: the game stops (LimitReached) rather than log more events than this; events taken
        #: back from the log (:meth:`rollback`) still count
        self.max_events = max_events
        self.events_message = events_message
        self._charged = 0

    # ------------------------------------------------------------------ events and choices

    def emit(self, etype: str, cause: str, *, player: str | None = None,
             card: CardInstance | None = None, from_zone: ZoneRef | None = None,
             to_zone: ZoneRef | None = None, source: str | None = None,
             **detail: Any) -> Event:
        if etype not in QUIET_EVENTS:
            self.dirty = True
        seq = len(self.log)
        if seq >= self.max_events:
            raise LimitReached(self.events_message)
        event = Event(seq, self.step, etype, cause, player,
                      card.label if card else None,
                      zone_text(from_zone) if from_zone else None,
                      zone_text(to_zone) if to_zone else None, source, detail)
        self.log.append(event)
        return event

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

    def choose(self, player: str, kind: str, options: list[str], min_count: int = 1,
               max_count: int = 1, prompt: str = "", about: str | None = None
               ) -> tuple[str, ...]:
        """Ask ``player``; a choice with one possible answer is made without asking.
        ``about`` names the ability the question is about (logged: ``S1#0``, ``B#burst``)."""
        max_count = min(max_count, len(options))
        min_count = min(min_count, max_count)
        if max_count == 0:
            return ()
        if min_count == max_count == len(options):
            return tuple(options)
        if len(options) > 8:  # a long list of options is paid for (see CHARS_PER_EVENT)
            self.charge(sum(map(len, options)) // CHARS_PER_EVENT)
        choice = Choice(player=player, kind=kind, options=tuple(options),
                        min_count=min_count, max_count=max_count, prompt=prompt)
        picked = self.chooser.pick(choice)
        if not choice.accepts(picked):
            raise EngineError(f"illegal answer {picked!r} to {choice}")
        extra: dict[str, Any] = {"about": about} if about else {}
        self.emit("choice", "game", player=player, kind=kind, options=list(options),
                  picked=list(picked), **extra)
        return picked

    def yes_no(self, player: str, kind: str, prompt: str, about: str | None = None) -> bool:
        return self.choose(player, kind, ["yes", "no"], prompt=prompt, about=about) == ("yes",)

    # ------------------------------------------------------------------ derived values

    def card(self, label: str) -> CardInstance:
        try:
            return self.state.cards[label]
        except KeyError:
            raise EngineError(f"no card labelled {label!r}") from None

    def on_field(self, inst: CardInstance) -> bool:
        return inst.zone.zone in SIGNI_ZONES

    def field_stats(self, signi: list[CardInstance]) -> tuple[list[int], list[int]]:
        """Powers and levels of one player's SIGNI on the field, computed in one pass: printed
        values, then modifiers in force for each card (lost when it moves), then constant
        abilities. The one place these are computed; :meth:`power` and :meth:`level` read it."""
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
        if self.has_const():
            for holder in signi:
                for ability in holder.card.abilities:
                    if ability.kind != "const":
                        continue
                    target = powers if ability.stat == "power" else levels
                    for i, c in enumerate(signi):
                        if ability.applies_to == "own_signi" or c is holder:
                            target[i] += ability.amount
        return powers, levels

    def has_const(self) -> bool:
        """Whether any card in the game has a constant ability (most positions have none)."""
        if self._const is None or self._const_count != len(self.state.cards):
            self._const_count = len(self.state.cards)
            self._const = any(a.kind == "const" for c in self.state.cards.values()
                              for a in c.card.abilities)
        return self._const

    def special_cards(self) -> list[CardInstance]:
        """The Resona and Keys in the game (rule processing kinds 6 and 7 watch them)."""
        if self._special is None or self._special_count != len(self.state.cards):
            self._special_count = len(self.state.cards)
            self._special = [c for c in self.state.cards.values()
                             if c.card.type in ("resona", "key")]
        return self._special

    def keywords(self, inst: CardInstance) -> set[str]:
        """Printed keywords plus those given this turn by effects."""
        out = set(inst.card.keywords)
        given = self.state.given.get(inst.label)
        if given is not None and given[0] == inst.epoch:
            out |= given[1]
        return out

    def power(self, inst: CardInstance) -> int:
        if inst.zone.zone not in SIGNI_ZONES:
            return inst.card.power or 0  # modifiers apply on the field only
        signi = self.state.signi(inst.zone.player)
        return self.field_stats(signi)[0][signi.index(inst)]

    def level(self, inst: CardInstance) -> int:
        if inst.zone.zone not in SIGNI_ZONES:
            return inst.card.level or 0
        signi = self.state.signi(inst.zone.player)
        return self.field_stats(signi)[1][signi.index(inst)]

    def lrig_level(self, player: str) -> int:
        centre = self.state.centre(player)
        return centre.card.level or 0 if centre else 0

    def lrig_type(self, player: str) -> str | None:
        centre = self.state.centre(player)
        return centre.card.lrig_type if centre else None

    def limit(self, player: str) -> int:
        centre = self.state.centre(player)
        value = centre.card.limit or 0 if centre else 0
        return value + self.state.limit_mods.get(player, 0)

    def banish_destination(self, inst: CardInstance) -> str:
        return "trash" if inst.owner in self.state.to_trash else "ener"

    @staticmethod
    def home_trash(card: CardDef) -> str:
        """Cards of the LRIG deck go to the LRIG trash, others to the trash."""
        return _home_trash(card)

    # ------------------------------------------------------------------ moving cards

    def move(self, inst: CardInstance, zone: str, cause: str, verb: str, *,
             source: str | None = None, to_player: str | None = None, top: bool = False,
             etype: str = "move") -> None:
        """Move one card; the single place where a card changes zone. A card goes only where
        its type may be (judge.engine.placement): anything else is an EngineError."""
        old = inst.zone
        new = ZoneRef.of(to_player or inst.owner, zone)
        if inst.card.type not in MOVABLE[zone]:
            raise EngineError(f"{inst.label} ({inst.card.type}) cannot be put into "
                              f"{zone_text(new)} ({allowed(zone)})")
        was_on_field = self.on_field(inst)
        self.state.ref(old).remove(inst)
        cards = self.state.ref(new)
        if top:
            cards.insert(0, inst)
        else:
            cards.append(inst)
        inst.zone = new
        inst.epoch += 1
        if new.zone not in FIELD_ZONES:
            inst.down = inst.frozen = False
            inst.attach = ""
        if new.zone not in ("check",):
            inst.crushed = False
            inst.burst = ""
        inst.face_down = zone in ("deck", "life") or (inst.face_down and zone.startswith("under"))
        inst.level_changed = False
        if etype == "banish":
            self.emit("banish", cause, player=inst.owner, card=inst, from_zone=old, to_zone=new,
                      source=source)
        else:
            self.emit("move", cause, player=inst.owner, card=inst, from_zone=old, to_zone=new,
                      source=source, verb=verb)
            # Only some moves can make rule processing apply: to or from a watched zone, a
            # Resona or Key moving, a main deck emptied, a card reaching an empty deck's trash.
            if old.zone in WATCHED_ZONES or new.zone in WATCHED_ZONES or \
                    inst.card.type in ("resona", "key") or \
                    (old.zone == "deck" and not self.state.ref(old)) or \
                    (new.zone == "trash" and not self.state.zone(new.player, "deck")):
                self.dirty = True
        self._observe_move(inst, old, new, cause, etype, was_on_field)
        if self.rules.refresh_interrupts:
            # 2014-04: the refresh happens the moment it can, inside anything.
            if old.zone == "deck" and not self.state.ref(old):
                self.refresh_if_possible(old.player)
            elif new.zone == "trash" and verb != "refresh_life":
                self.refresh_if_possible(new.player)

    def put_into_deck(self, inst: CardInstance, cause: str, verb: str, bottom: bool,
                      source: str | None = None) -> None:
        self.move(inst, "deck", cause, verb, source=source, top=not bottom)

    # ------------------------------------------------------------------ triggers

    def _observe_move(self, inst: CardInstance, old: ZoneRef, new: ZoneRef, cause: str,
                      etype: str, was_on_field: bool) -> None:
        fired: list[str] = []
        if new.zone == "trash":
            fired.append("put_into_trash")
            if old.zone == "deck":
                fired.append("put_into_trash_from_deck")
        if was_on_field and new.zone not in SIGNI_ZONES:
            fired.append("leaves_field")
            if cause == "effect":
                fired.append("leaves_field_by_effect")
            if etype == "banish":
                fired.append("banished")
                if cause == "effect":
                    fired.append("banished_by_effect")
        if new.zone in SIGNI_ZONES and old.zone not in SIGNI_ZONES:
            fired.append("on_play")
        if new.zone == "check" and inst.crushed:
            fired.append("crushed")
        if fired:
            self.queue_triggers(inst, fired)

    def queue_triggers(self, inst: CardInstance, fired: list[str]) -> None:
        abilities = inst.card.abilities
        if not KEYWORD_TRIGGERS.isdisjoint(fired):  # Lancer and the like, printed or given
            abilities = (*abilities, *(KEYWORD_ABILITIES[k] for k in sorted(self.keywords(inst))
                                       if k in KEYWORD_ABILITIES))
        for ability in abilities:
            if ability.trigger in fired:
                pending = Pending(ability, inst, inst.epoch, inst.owner, len(self.log) - 1)
                self.pending.append(pending)
                self.emit("trigger", "game", player=inst.owner, card=inst,
                          ability=pending.name, trigger=ability.trigger)

    def notify_refresh(self, player: str) -> None:
        for inst in self.state.signi(player):
            self.queue_triggers(inst, ["owner_refreshes"])

    def _next_trigger(self) -> bool:
        """Resolve one waiting triggered ability: the turn player's first, each player choosing
        the order of their own (Chinese wiki, "WIXOSS/游戏规则", effect types)."""
        if not self.pending:
            return False
        tp = self.state.turn_player
        mine = [p for p in self.pending if p.controller == tp] or \
            [p for p in self.pending if p.controller == other(tp)]
        chosen = mine[0]
        if len(mine) > 1:
            names = [p.name for p in mine]
            picked = self.choose(mine[0].controller, "trigger_order", names,
                                 prompt="which triggered ability resolves next")
            chosen = mine[names.index(picked[0])]
        self.pending.remove(chosen)
        inst, ability = chosen.card, chosen.ability
        if ability.zone in ("trash", "hand", "ener") and (
                inst.zone.zone != ability.zone or inst.epoch != chosen.epoch):
            self.emit("trigger_lost", "game", player=chosen.controller, card=inst,
                      ability=chosen.name, reason=f"left-{ability.zone}")
            return True
        from judge.engine.payment import pay, problem

        # a cost that cannot be paid leaves nothing to decide: the ability is not used
        unpayable = not ability.cost.free and \
            problem(self, chosen.controller, ability.cost, inst) is not None
        if unpayable or (ability.optional and not self.yes_no(
                chosen.controller, "use", f"use {chosen.name}?", about=chosen.name)):
            self.emit("trigger_declined", "game", player=chosen.controller, card=inst,
                      ability=chosen.name)
            return True
        if not ability.cost.free:
            pay(self, chosen.controller, ability.cost, inst, chosen.name)
        self.resolve_effect(ability.effect, chosen.controller, inst, chosen.name)
        return True

    # ------------------------------------------------------------------ effects

    def resolve_effect(self, ops: tuple[Op, ...], controller: str,
                       source: CardInstance | None, name: str,
                       preset: dict[int, list[tuple[CardInstance, int]]] | None = None) -> None:
        """Resolve one effect whole. Rule processing is not checked inside it (WIXOSS glossary,
        "rule processing", property 1, 2020); under the 2014-04 rules only a refresh may
        interrupt it."""
        from judge.engine.ops import apply_op

        self.emit("effect_begin", "effect", player=controller, card=source, ability=name)
        self.effect_depth += 1
        try:
            for i, op in enumerate(ops):
                if self.state.winner:
                    break
                self.preset_targets = preset.get(i) if preset else None
                apply_op(self, op, controller, source, name)
        finally:
            self.preset_targets = None
            self.effect_depth -= 1
        self.emit("effect_end", "effect", player=controller, card=source, ability=name)

    # ------------------------------------------------------------------ crush and bursts

    def crush(self, player: str, cause: str, source: str | None) -> bool:
        life = self.state.zone(player, "life")
        if not life:
            return False
        inst = life[0]
        inst.crushed = True
        self.move(inst, "check", cause, "crush", source=source)
        inst.crushed = True
        inst.burst = "pending" if inst.card.has_burst else ""
        return True

    def _next_burst(self) -> bool:
        """Resolve a crushed card's Life Burst; with several, their owner orders them."""
        players = self.state.players
        if not players["p1"].zones["check"] and not players["p2"].zones["check"]:
            return False
        for player in (self.state.turn_player, other(self.state.turn_player)):
            waiting = [c for c in self.state.zone(player, "check") if c.burst == "pending"]
            if not waiting:
                continue
            inst = waiting[0]
            if len(waiting) > 1:
                labels = [c.label for c in waiting]
                picked = self.choose(player, "burst_order", labels,
                                     prompt="which Life Burst resolves next")
                inst = waiting[labels.index(picked[0])]
            inst.burst = "done"
            used = self.yes_no(player, "use", f"use the Life Burst of {inst.label}?",
                               about=f"{inst.label}#burst")
            self.emit("burst", "game", player=player, card=inst, used=used)
            if used:
                self.resolve_effect(inst.card.life_burst, player, inst, f"{inst.label}#burst")
                if inst.zone.zone == "check":
                    # after its burst, the crushed card goes to the ener zone as part of the
                    # crush (WIXOSS TCG Wiki, クラッシュ); kind 4 is for a burst not used
                    self.move(inst, "ener", "game", "after_burst")
            return True
        return False

    # ------------------------------------------------------------------ refresh

    def can_refresh(self, player: str) -> bool:
        if self.state.zone(player, "deck"):
            return False
        if self.state.zone(player, "trash"):
            return True
        return not self.rules.refresh_needs_trash and bool(self.state.zone(player, "life"))

    def refresh_if_possible(self, player: str) -> None:
        if self.can_refresh(player):
            self.refresh(player)

    def refresh(self, player: str, snapshot: list[CardInstance] | None = None) -> None:
        """Refresh (WIXOSS glossary, "refresh", 2020): shuffle the trash into a new main deck,
        then put one life cloth into the trash without its Life Burst; the two are kept apart.
        With an empty trash under the launch-era rules (WIXOSS TCG Wiki, "間違えやすいルール"),
        the life cloth goes to the trash first and the deck is made from it."""
        life_moved = False
        trash = list(snapshot if snapshot is not None else self.state.zone(player, "trash"))
        if not trash:
            life = self.state.zone(player, "life")
            first_life = life[0]
            self.move(first_life, "trash", "rule", "refresh_life")
            life_moved = True
            trash = [first_life]  # not a card that rule processing is moving elsewhere
        for inst in trash:
            self.move(inst, "deck", "rule", "refresh")
        self.shuffle(player, "rule")
        if not life_moved and self.state.zone(player, "life"):
            self.move(self.state.zone(player, "life")[0], "trash", "rule", "refresh_life")
            life_moved = True
        ps = self.state.players[player]
        ps.refreshes += 1
        self.emit("refresh", "rule", player=player, count=ps.refreshes,
                  deck_size=len(self.state.zone(player, "deck")), life_moved=life_moved)
        if (self.rules.second_refresh_ends_turn and player == self.state.turn_player
                and ps.refreshes == 2):
            self.turn_ending = "second_refresh"
        self.notify_refresh(player)

    def shuffle(self, player: str, cause: str) -> None:
        deck = self.state.zone(player, "deck")
        self.rng.shuffle(deck)
        ref = ZoneRef.of(player, "deck")
        self.shuffled.add(ref)
        self.emit("shuffle", cause, player=player, to_zone=ref, order=[c.label for c in deck])

    # ------------------------------------------------------------------ settling

    def settle(self) -> None:
        """After an action: rule processing to a fixpoint, then Life Bursts and waiting
        triggered abilities one at a time, each followed by rule processing again. A refresh is
        rule processing, so it comes before any waiting triggered ability (WIXOSS glossary,
        "refresh", 2020)."""
        from judge.engine.rule_processing import check

        for _ in range(MAX_SETTLE_ROUNDS):
            if self.state.winner:
                self.drop_pending("game_over")
                return
            applied = check(self)
            if self.turn_ending:
                reason, self.turn_ending = self.turn_ending, None
                self.end_turn(reason)
                continue
            if applied:
                continue
            if self._next_burst():
                continue
            if self._next_trigger():
                continue
            return
        raise LimitReached(SETTLE_MESSAGE)

    # ------------------------------------------------------------------ turns

    def end_turn(self, reason: str) -> None:
        """End the turn. Waiting triggered abilities are removed unresolved when the turn ends
        early (interpretation, see docs/rules-model.md); effects until end of turn expire."""
        self.drop_pending(reason)
        self.emit("turn_end", "game", player=self.state.turn_player, turn=self.state.turn,
                  reason=reason)
        self.state.clear_lasting()
        self.begin_turn(other(self.state.turn_player))

    def drop_pending(self, reason: str) -> None:
        """Remove every waiting triggered ability (and Life Burst) unresolved, logging each;
        a crushed card whose burst is dropped then goes to the ener zone by rule processing."""
        for pending in self.pending:
            self.emit("trigger_dropped", "game", player=pending.controller, card=pending.card,
                      ability=pending.name, reason=reason)
        self.pending.clear()
        for player in (self.state.turn_player, other(self.state.turn_player)):
            for inst in self.state.zone(player, "check"):
                if inst.burst == "pending":
                    inst.burst = "done"
                    self.emit("trigger_dropped", "game", player=player, card=inst,
                              ability=f"{inst.label}#burst", reason=reason)

    def begin_turn(self, player: str) -> None:
        from judge.engine.turn import enter_phase

        self.state.turn += 1
        self.state.turn_player = player
        self.state.ener_done = self.state.grown = False
        for ps in self.state.players.values():
            ps.refreshes = 0
        self.emit("turn_begin", "game", player=player, turn=self.state.turn)
        enter_phase(self, "up")

    def under_zone(self, inst: CardInstance) -> str:
        return UNDER_ZONES[inst.zone.zone]
