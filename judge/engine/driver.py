"""Random games: generated legal decks, both players taking random legal actions.

Every random decision comes from one seeded :class:`random.Random`, drawn with
:mod:`judge.engine.chance`, so a seed replays the same game event for event. Used by
``judge play --random``, the property tests and ``benchmarks/games.py``.

Legality is the engine's own: each action checks its rules before changing anything and raises
:class:`~judge.errors.IllegalAction` otherwise, so the driver proposes candidate actions in a
random order and takes the first that the engine accepts.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Final, NamedTuple

from judge.engine import actions, eras
from judge.engine.amounts import ForEach
from judge.engine.cards import Ability, CardDef, Op, Target
from judge.engine.chance import below, pick, shuffle
from judge.engine.choices import Choice
from judge.engine.conditions import Bound, Condition, Filter, StateFilter
from judge.engine.costs import Cost
from judge.engine.game import Game
from judge.engine.rulesets import RuleSet
from judge.engine.state import PLAYERS, SIGNI_ZONES, CardInstance, GameState, ZoneRef
from judge.errors import IllegalAction

MAX_ACTIONS_PER_TURN: Final = 60
_new = tuple.__new__


class Action(NamedTuple):
    """One game action; ``str()`` gives a short text form such as ``p1 play a3 signi2``."""

    kind: str
    player: str
    card: str | None = None
    zone: str | None = None
    ability: int = 0
    cards: tuple[str, ...] = ()

    def __str__(self) -> str:
        parts = [self.player, self.kind]
        if self.card:
            parts.append(self.card)
        if self.zone:
            parts.append(self.zone)
        if self.kind == "activate":
            parts.append(f"#{self.ability}")
        if self.kind == "redraw":
            parts.append("[" + ",".join(self.cards) + "]")
        return " ".join(parts)


def perform(game: Game, action: Action) -> None:
    """Carry out ``action`` through the engine's one dispatch (:func:`actions.run`, the one
    a ruling's steps go through); raises IllegalAction, having changed nothing, if
    illegal. A ``start_game`` action's player is the one who goes first."""
    kind = action.kind
    player = action.player
    # actions.dispatch(game, kind, player=player, card=action.card, zone=action.zone,
    # ability=action.ability, cards=action.cards, first=...), its fields made positionally
    actions.run(game, kind, actions.Args(player, action.card, action.zone, None, 1,
                                         action.ability, (), None,
                                         player if kind == "start_game" else None,
                                         action.cards))


def actor(state: GameState) -> str:
    """Who acts now: the ARTS step's priority player, else the turn player."""
    if state.phase == "attack" and state.attack_step == "arts" and state.arts_priority:
        return state.arts_priority
    return state.turn_player


def candidates(game: Game) -> list[Action]:
    """Actions worth trying now; the engine decides which are legal. ``advance`` is always
    last-resort legal outside the set-up's first action."""
    state = game.state
    phase = state.phase
    p = actor(state)
    out: list[Action] = []
    if phase == "setup":
        if not any(state.zone(q, "hand") for q in PLAYERS):
            return [Action("start_game", q) for q in PLAYERS]
        for q in PLAYERS:
            if q not in state.redrawn:
                labels = [c.label for c in state.zone(q, "hand")]
                return [Action("redraw", q, cards=combo) for n in range(len(labels) + 1)
                        for combo in itertools.combinations(labels, n)]
        return [Action("advance", p)]
    zones = state.players[p].zones
    hand = zones["hand"]
    signi = zones["signi1"] + zones["signi2"] + zones["signi3"] + zones["cheer"]
    # Actions are made as the tuples they are (Action's own __new__ costs a call more): the
    # same values, many times a step
    if phase == "ener" and not state.ener_done:
        out += [_new(Action, ("ener", p, c.label, None, 0, ())) for c in (*hand, *signi)]
    elif phase == "grow" and not state.grown:
        out += [_new(Action, ("grow", p, c.label, None, 0, ())) for c in zones["lrig_deck"]
                if c.card.type == "lrig"]
    elif phase == "main":
        # plain loops rather than comprehensions: one call less each, many times a game
        append = out.append
        empty = [z for z in SIGNI_ZONES if not zones[z]]
        if empty:
            level = game.lrig_level(p)  # a cheap filter; the engine still decides legality
            for c in hand:
                card = c.card
                if card.type == "signi" and (card.level or 0) <= level:
                    label = c.label
                    for z in empty:
                        append(_new(Action, ("play", p, label, z, 0, ())))
        for c in hand:
            if c.card.type == "spell":
                append(_new(Action, ("use", p, c.label, None, 0, ())))
        for c in zones["lrig_deck"]:
            if c.card.type in ("arts", "key"):  # a Key is summoned with the use action
                append(_new(Action, ("use", p, c.label, None, 0, ())))
        lrig = zones["lrig"]
        # the Key and the assist LRIGs use their action abilities from their zones too
        others = (*zones["key"], *zones["assist1"][-1:], *zones["assist2"][-1:])
        for c in (*signi, *others, lrig[-1]) if lrig else (*signi, *others):
            abilities = c.card.abilities
            if abilities:
                i = 0
                for a in abilities:
                    if a.kind == "action":
                        append(_new(Action, ("activate", p, c.label, None, i, ())))
                        i += 1
        if len(signi) == 3:
            for c in signi:
                append(_new(Action, ("remove", p, c.label, None, 0, ())))
    elif phase == "attack":
        if state.attack_step == "arts":
            out += [_new(Action, ("use", p, c.label, None, 0, ())) for c in zones["lrig_deck"]
                    if c.card.type == "arts"]
            # action abilities with the attack timing (issue 30): used in the ARTS step too
            out += [_new(Action, ("activate", p, c.label, None, i, ()))
                    for c in (*signi, *zones["lrig"][-1:])
                    for i, a in enumerate(x for x in c.card.abilities if x.kind == "action")
                    if "attack" in a.timing]
            out.append(_new(Action, ("pass", p, None, None, 0, ())))
            return out
        if state.attack_step == "signi":
            out += [_new(Action, ("attack", p, c.label, None, 0, ())) for c in signi
                    if not c.down]
        elif state.attack_step == "lrig":
            out += [_new(Action, ("attack", p, c.label, None, 0, ()))
                    for c in zones["lrig"][-1:] if not c.down]
    out.append(_new(Action, ("advance", p, None, None, 0, ())))
    return out


@dataclass
class RandomChooser:
    """Answers every choice with a random legal answer from the game's random source."""

    rng: random.Random

    def pick(self, choice: Choice) -> tuple[str, ...]:
        answers = choice.answers()
        return answers[below(self.rng, len(answers))]


@dataclass
class RandomGame:
    game: Game
    actions: list[Action] = field(default_factory=list)
    refused: int = 0


def step(rg: RandomGame, rng: random.Random, acted_this_turn: int) -> Action:
    """Take one random legal action; ``advance`` once the turn has had enough actions."""
    game = rg.game
    options = candidates(game)
    if acted_this_turn >= MAX_ACTIONS_PER_TURN:
        options = [a for a in options if a.kind in ("advance", "pass")] or options
    tried: list[Action] = []
    while options:
        action = options.pop(below(rng, len(options)))
        try:
            perform(game, action)
        except IllegalAction:
            rg.refused += 1
            tried.append(action)
            if not options and acted_this_turn >= MAX_ACTIONS_PER_TURN:
                # advance refused (a SIGNI must attack: forced_attacks): the other actions
                options = [a for a in candidates(game) if a not in tried]
                acted_this_turn = 0
            continue
        rg.actions.append(action)
        return action
    raise AssertionError("no legal action (advance is always legal but for a forced attack)")


def play_random_game(rules: RuleSet, seed: int, turns: int = 10,
                     on_action: Callable[[Game, Action], None] | None = None,
                     on_game: Callable[[Game], None] | None = None) -> RandomGame:
    """A whole game from the set-up until someone wins or turn ``turns`` has ended.
    ``on_action`` is called after each action; ``on_game`` once, with the new game, before
    its first action (a check that watches every event sets ``Game.watch`` there)."""
    rng = random.Random(seed)
    state = GameState.empty()
    state.phase = "setup"
    state.turn = 1
    game = Game(state, rules, RandomChooser(rng), seed=below(rng, 2**32))
    pool = rule_pool(rules)
    for player in PLAYERS:
        main, lrig = random_decks(rng, pool, player)
        for inst in main:
            state.add(inst)
        for inst in lrig:
            state.add(inst)
    if rules.id == DIVA_RULES and seed % DIVA_EVERY == 0:
        _diva_selection(state, pool)
    if on_game is not None:
        on_game(game)
    rg = RandomGame(game)
    acted, turn = 0, state.turn
    while not state.winner and not (state.turn > turns and state.phase != "setup"):
        action = step(rg, rng, acted)
        if on_action is not None:
            on_action(game, action)
        acted = acted + 1 if state.turn == turn else 0
        turn = state.turn
    return rg


#: One game in this many (by seed) under the current rules is played in Diva Selection, each
#: player with an assist LRIG (issue 30, round three); the others are All Star.
DIVA_EVERY: Final = 3
DIVA_RULES: Final = "current"


def _diva_selection(state: GameState, pool: dict[str, CardDef]) -> None:
    """Diva Selection: each player has the assist LRIG ``l-assist`` (another LRIG type than
    the centre LRIGs', so rule processing kind 10 keeps it) in their first assist LRIG zone."""
    state.format = "diva-selection"
    for player in PLAYERS:
        state.add(CardInstance(f"{player}-assist", pool["l-assist"], player,
                               ZoneRef(player, "assist1")))


# ------------------------------------------------------------------ decks


def _signi(cid: str, level: int, power: int, *, guard: bool = False,
           life_burst: tuple[Op, ...] = (), keywords: tuple[str, ...] = (),
           abilities: tuple[Ability, ...] = (), colour: str = "white",
           card_class: str | None = None, cross: tuple[str, str] | None = None,
           trap: tuple[Op, ...] = ()) -> CardDef:
    return CardDef(id=cid, name=cid, type="signi", colour=(colour,), level=level,
                   power=power, guard=guard, life_burst=life_burst, keywords=keywords,
                   abilities=abilities, card_class=card_class, cross=cross, trap=trap)


_op = Op


OPPONENT_SIGNI: Final = Target(who="opponent", zone="signi", count=1)
OWN_SIGNI: Final = Target(who="self", zone="signi", count=1)
THIS: Final = Target(this=True)
#: The number of ARTS each generated LRIG deck holds (with the five LRIGs: ten cards).
ARTS_PER_DECK: Final = 5


def _const(*ops: Op, cond: Condition | None = None) -> Ability:
    return Ability("const", ops, cond=cond)


def _vocabulary() -> list[CardDef]:
    """Cards that use the card-text vocabulary (judge.engine.continuous, modes, limits,
    "can't", resistance, replacement, Shadow, Cross, uses, conditions, "if you do")."""
    ener3 = Condition(zone="ener", at_least=3)
    every_own = Target(who="self", zone="signi", all=True, other=True)
    every_opponent = Target(who="opponent", zone="signi", all=True)
    draw1 = (Op("draw", count=1),)
    return [
        _signi("s3o", 3, 7000, card_class="Weapon", abilities=(
            _const(Op("power", target=every_own, amount=1000), cond=ener3),)),
        _signi("s2d", 2, 5000, abilities=(
            _const(Op("power", target=every_opponent, amount=-1000),
                   cond=Condition(this_in=("signi2",))),)),
        _signi("s2r", 2, 4000, card_class="Weapon", abilities=(
            _const(Op("cannot", target=THIS, what="be_affected")),)),
        _signi("s1s", 1, 2000, keywords=("shadow",), life_burst=(Op("draw", count=1),)),
        _signi("s3n", 3, 6000, abilities=(_const(Op("cannot", target=THIS,
                                                     what="be_banished")),
                                          _const(Op("cannot", target=THIS, what="attack")))),
        _signi("s2x", 2, 5000, abilities=(
            Ability("action", (), once_per_turn=True, cost=Cost(down=True), modes=(
                draw1, (Op("power", target=OPPONENT_SIGNI, amount=-2000),))),)),
        _signi("s2w", 2, 4000, abilities=(
            Ability("auto", draw1, trigger="uses_spell", zone="field", by="opponent",
                    once_per_turn=True),)),
        _signi("s3v", 3, 7000, abilities=(
            _const(Op("replace", target=THIS, event="banish", optional=True,
                      ops=(Op("discard", target=Target(zone="hand")),))),)),
        _signi("s2ca", 2, 5000, cross=("s2cb", "right"), abilities=(
            _const(Op("power", target=THIS, amount=3000), cond=Condition(cross=True)),)),
        _signi("s2cb", 2, 5000, cross=("s2ca", "left"), life_burst=draw1),
        _signi("s1i", 1, 2000, life_burst=(Op("ener_charge", count=1),), abilities=(
            Ability("on_play", (Op("discard", target=Target(zone="hand")),
                                Op("draw", count=2, if_done=True),
                                Op("ener_charge", count=1,
                                   only_if=Condition(zone="ener", at_most=3))),
                    trigger="on_play", zone="field"),)),
        _signi("s3u", 3, 7000, abilities=(
            Ability("on_play", (Op("use", target=Target(zone="hand", card_type="spell"),
                                   free=True),),
                    trigger="on_play", zone="field"),)),
        _signi("s3l", 3, 8000, colour="red", abilities=(
            _const(Op("keyword", target=THIS, keyword="lancer"),
                   cond=Condition(zone="signi", filter=Filter(card_class="Weapon"),
                                  at_least=1)),)),
        _signi("s2e2", 2, 5000, colour="green", abilities=(
            Ability("auto", draw1, trigger="banished_by_effect", by="opponent"),)),
        CardDef(id="sp-mode", name="sp-mode", type="spell", colour=("white",),
                cost=Cost((("colourless", 1),)), life_burst=draw1,
                modes=(draw1, (Op("banish", target=OPPONENT_SIGNI),),
                       (Op("ener_charge", count=2),)), choose=2),
    ]


def _state_vocabulary() -> list[CardDef]:
    """Cards of the filters on a card's state and the amounts of issue 30: power and level
    bounds (a number, this SIGNI's, the triggering SIGNI's, as it last was on the field),
    down and frozen, Charm, abilities, names, the centre LRIG's colour, a shared class, and
    "for each" counts (what was done, what was paid, cards and colours)."""
    opponent = Target(who="opponent", zone="signi", count=1)
    at_most_this = Filter(state=StateFilter(power_at_most=Bound(ref="this")))
    return [
        _signi("s2pt", 2, 5000, colour="red", abilities=(
            Ability("on_play", (Op("down", target=replace(opponent, filter=at_most_this)),),
                    trigger="on_play", zone="field"),)),
        _signi("s3tb", 3, 7000, abilities=(
            Ability("auto", (Op("banish", target=replace(opponent, filter=Filter(
                state=StateFilter(power_at_most=Bound(ref="trigger"),
                                  level_at_least=Bound(2))))),),
                    trigger="attacks", once_per_turn=True),)),
        _signi("s2lk", 2, 5000, abilities=(
            _const(Op("power", target=THIS, amount=1000, for_each=ForEach(count=Condition(
                zone="signi", filter=Filter(state=StateFilter(down=True)))))),
            Ability("auto", (Op("power", target=replace(opponent, filter=at_most_this),
                                amount=-3000),), trigger="banished"),)),
        _signi("s1nm", 1, 2000, colour="blue", life_burst=(Op("draw", count=1),), abilities=(
            Ability("on_play", (Op("draw", count=1, only_if=Condition(
                zone="trash", filter=Filter(state=StateFilter(name="s1nm")), at_least=1)),),
                    trigger="on_play", zone="field"),)),
        _signi("s2ch", 2, 4000, card_class="Weapon", abilities=(
            Ability("action", (Op("charm", target=THIS),), once_per_turn=True),
            _const(Op("power", target=THIS, amount=2000),
                   cond=Condition(this_is=Filter(state=StateFilter(charm=True)))),
            _const(Op("power", target=THIS, amount=1000),
                   cond=Condition(zone="signi", same_class=True)))),
        _signi("s2fz", 2, 5000, colour="green", abilities=(
            Ability("action", (Op("banish", target=replace(opponent, filter=Filter(
                state=StateFilter(frozen=True)))),), cost=Cost(down=True)),
            _const(Op("power", amount=-1000, target=Target(
                who="opponent", zone="signi", all=True,
                filter=Filter(state=StateFilter(lrig_colour=False))))))),
        _signi("s1pd", 1, 2000, abilities=(
            Ability("action", (Op("power", target=THIS, amount=2000,
                                  for_each=ForEach(word="paid")),),
                    cost=Cost(discard=0, discard_max=2), once_per_turn=True),)),
        _signi("s3cl", 3, 6000, colour="black", abilities=(
            _const(Op("power", target=THIS, amount=1000, for_each=ForEach(count=Condition(
                zone="ener", colours=True)))),)),
        CardDef(id="sp-each", name="sp-each", type="spell", colour=("white",),
                effect=(Op("discard", target=Target(zone="hand", count=2, up_to=True)),
                        Op("draw", count=1, for_each=ForEach(word="done"))),
                cost=Cost()),
    ]


def _look_vocabulary() -> list[CardDef]:
    """Cards that look at, reveal and search the main deck (issue 30, family 2): every
    operation, every place the rest may go, a reveal of what is taken, one card kept on top,
    the opponent's deck."""
    signi = Target(zone="deck", count=1, up_to=True, card_type="signi")
    return [
        _signi("s2lo", 2, 5000, colour="blue", abilities=(
            Ability("on_play", (Op("look", count=4, target=signi, reveal=True, rest="bottom"),),
                    trigger="on_play", zone="field"),)),
        # a look at the opponent's hand, a Spell of it put into the trash (from = "hand")
        CardDef(id="sp-peek", name="sp-peek", type="spell", colour=("blue",),
                effect=(Op("look", who="opponent", look_from="hand", zone="trash",
                           target=Target(zone="deck", count=1, up_to=True, card_type="spell")),
                        Op("draw", count=1, if_done=True)),
                cost=Cost((("colourless", 1),))),
        # one kept on top, the rest on the bottom (zone deck_top)
        _signi("s2kt", 2, 5000, colour="blue", abilities=(
            Ability("on_play", (Op("look", count=3, target=Target(zone="deck", count=1),
                                   zone="deck_top", rest="bottom"),),
                    trigger="on_play", zone="field"),)),
        _signi("s1ro", 1, 2000, colour="blue", life_burst=(Op("look", count=3, rest="top"),),
               abilities=(Ability("action", (Op("look", who="opponent", count=2,
                                                rest="trash"),),
                                  cost=Cost(down=True), once_per_turn=True),)),
        _signi("s3ru", 3, 7000, colour="red", abilities=(
            Ability("on_play", (Op("reveal_until", target=Target(
                zone="deck", count=1, filter=Filter(state=StateFilter(
                    level_at_least=Bound(2))))),),
                    trigger="on_play", zone="field"),)),
        CardDef(id="sp-search", name="sp-search", type="spell", colour=("white",),
                effect=(Op("search", target=Target(zone="deck", count=1, card_type="signi",
                                                   filter=Filter(state=StateFilter(
                                                       level_at_most=Bound(2)))),
                           reveal=True),
                        Op("look", count=2, target=Target(zone="deck", count=1),
                           zone="ener", rest="shuffle")),
                cost=Cost((("colourless", 1),))),
    ]


def _others_vocabulary() -> list[CardDef]:
    """Cards whose abilities watch other SIGNI (issue 30, family 3): another of its player's
    SIGNI banished (the bound ``trigger`` reading the banished SIGNI's last power), and any
    other SIGNI entering the field."""
    return [
        _signi("s2wb", 2, 5000, colour="black", abilities=(
            Ability("auto", (Op("banish", target=Target(
                who="opponent", zone="signi", count=1, filter=Filter(state=StateFilter(
                    power_at_most=Bound(ref="trigger"))))),),
                    trigger="signi_banished", zone="field", whose="own",
                    once_per_turn=True),)),
        _signi("s1we", 1, 2000, colour="green", life_burst=(Op("draw", count=1),),
               abilities=(Ability("auto", (Op("power", target=THIS, amount=1000),),
                                  trigger="signi_enters", zone="field"),)),
        _signi("s2mp", 2, 5000, colour="blue", abilities=(
            Ability("auto", (Op("ener_charge", count=1),), trigger="main_phase_start",
                    zone="field"),
            Ability("auto", (Op("draw", count=1),), trigger="end_phase_start",
                    zone="field", optional=True))),
        # becoming the target of the opponent's effect (trigger targeted)
        _signi("s2tg", 2, 5000, colour="blue", abilities=(
            Ability("auto", (Op("draw", count=1),), trigger="targeted", zone="field",
                    by="opponent"),)),
        # the start of the other phases and of the ARTS step (judge.engine.phase_starts)
        _signi("s1ps", 1, 3000, colour="green", abilities=(
            Ability("auto", (Op("power", target=THIS, amount=1000),),
                    trigger="up_phase_start", zone="field"),
            Ability("auto", (Op("mill", count=1),), trigger="draw_phase_start", zone="field",
                    optional=True),
            Ability("auto", (Op("power", target=THIS, amount=1000),),
                    trigger="ener_phase_start", zone="field"),
            Ability("auto", (Op("power", target=OPPONENT_SIGNI, amount=-1000),),
                    trigger="grow_phase_start", zone="field", once_per_turn=True),
            Ability("auto", (Op("power", target=THIS, amount=2000),),
                    trigger="arts_step_start", zone="field"),
            Ability("auto", (Op("power", target=THIS, amount=1000),),
                    trigger="signi_attack_step_start", zone="field"),
            Ability("auto", (Op("power", target=OPPONENT_SIGNI, amount=-1000),),
                    trigger="lrig_attack_step_start", zone="field", once_per_turn=True))),
        _signi("s2ng", 2, 4000, colour="white", abilities=(
            Ability("auto", (Op("negate_attack"), Op("freeze", target=Target(trigger=True))),
                    trigger="signi_attacks", zone="field", whose="opponent",
                    once_per_turn=True, cost=Cost((("colourless", 1),))),)),
        # an action ability with a use timing of its own (the ARTS step of either player's
        # attack phase), once per turn, paid with ener and a discard
        _signi("s2at", 2, 5000, colour="blue", abilities=(
            Ability("action", (Op("freeze", target=OPPONENT_SIGNI),
                               Op("down", target=OPPONENT_SIGNI), Op("draw", count=1)),
                    cost=Cost((("colourless", 1),), discard=1), once_per_turn=True,
                    timing=("attack",)),)),
        # Ride and Drive: the centre LRIG rides this SIGNI as it enters (and cannot attack
        # until it leaves); its Drive gives it power
        _signi("s2rd", 2, 5000, colour="white", abilities=(
            Ability("on_play", (Op("ride", target=THIS),), trigger="on_play", zone="field"),
            Ability("auto", (Op("power", target=THIS, amount=3000),), trigger="drive",
                    zone="field"))),
        # crystal armament: once a turn, a card of its name from the trash is stacked on it;
        # crystal-armed, it has +4000 power
        _signi("s3cr", 3, 7000, colour="red", abilities=(
            Ability("action", (Op("crystal_arm", target=THIS, zone="trash"),),
                    once_per_turn=True),
            _const(Op("power", target=THIS, amount=4000),
                   cond=Condition(this_is=Filter(state=StateFilter(crystal=True)))))),
        _signi("s2lc", 2, 5000, colour="red", abilities=(
            Ability("auto", (Op("power", target=THIS, amount=1000),), trigger="life_crushed",
                    zone="field", whose="opponent"),)),
        _signi("s1gu", 1, 2000, colour="white", life_burst=(Op("draw", count=1),),
               abilities=(Ability("auto", (Op("draw", count=1),), trigger="guard_used",
                                  zone="field", whose="own", once_per_turn=True),)),
    ]


def _marker_vocabulary() -> list[CardDef]:
    """Cards of the later formats' markers and counts (issue 30, round three): a virus set
    (on a zone chosen) and removed as the price of a boost, a SIGNI on a zone with a virus
    chosen, a count of viruses and of gates, a registration count read by a constant ability."""
    virus = Filter(state=StateFilter(on_marker="virus"))
    return [
        _signi("s2vs", 2, 5000, colour="black", life_burst=(Op("set_virus"),), abilities=(
            Ability("on_play", (Op("set_virus"),), trigger="on_play",
                    zone="field"),
            Ability("action", (Op("remove_virus", who="opponent"),
                               Op("power", target=THIS, amount=3000, if_done=True)),
                    once_per_turn=True))),
        _signi("s3vb", 3, 7000, colour="black", abilities=(
            Ability("on_play", (Op("banish", target=replace(OPPONENT_SIGNI, filter=virus)),),
                    trigger="on_play", zone="field"),
            _const(Op("power", target=THIS, amount=1000, for_each=ForEach(count=Condition(
                who="opponent", tally="virus")))),
            Ability("action", (Op("draw", count=1),), cost=Cost(remove_virus=1)))),
        _signi("s2rg", 2, 5000, colour="white", life_burst=(Op("draw", count=1),), abilities=(
            _const(Op("power", target=THIS, amount=2000),
                   cond=Condition(tally="registrations", at_least=2)),)),
        # wisdom: a wisdom SIGNI whose entering draws while the wisdom is 4 or more
        _signi("s2ws", 2, 5000, colour="blue", keywords=("wisdom",), abilities=(
            Ability("on_play", (Op("draw", count=1, only_if=Condition(tally="wisdom",
                                                                       at_least=4)),),
                    trigger="on_play", zone="field"),)),
        _signi("s3ws", 3, 7000, colour="blue", keywords=("wisdom",),
               life_burst=(Op("draw", count=1, for_each=ForEach(count=Condition(
                   tally="wisdom"))),)),
        # heaven: a cross pair (the right one downs itself as it enters); the left one's
        # attack boosts it while it is in heaven
        _signi("s2ha", 2, 5000, colour="red", cross=("s2hb", "right"),
               life_burst=(Op("draw", count=1),), abilities=(
                   Ability("auto", (Op("power", target=THIS, amount=3000, only_if=Condition(
                       this_is=Filter(state=StateFilter(heaven=True)))),),
                           trigger="attacks"),)),
        _signi("s2hb", 2, 5000, colour="red", cross=("s2ha", "left"),
               life_burst=(Op("draw", count=1),), abilities=(
                   Ability("on_play", (Op("down", target=THIS),), trigger="on_play",
                           zone="field"),)),
    ]


def _marker_arts() -> list[CardDef]:
    """ARTS that set gates and gain registrations, with a count of gates."""
    return [
        CardDef(id="a-gate", name="a-gate", type="arts", colour=("white",),
                effect=(Op("set_gate", count=2), Op("registrations", amount=1),
                        Op("draw", count=1, for_each=ForEach(count=Condition(
                            who="opponent", tally="gate")))),
                timing=("main",), cost=Cost((("colourless", 1),))),
    ]


def _state_arts() -> list[CardDef]:
    """ARTS of issue 30's vocabulary: abilities, level bounds and "as many as were
    banished"; "discard until you have N"."""
    opponent = Target(who="opponent", zone="signi", count=2, up_to=True)
    return [
        CardDef(id="a-vanilla", name="a-vanilla", type="arts", colour=("white",),
                effect=(Op("banish", target=replace(opponent, filter=Filter(
                    state=StateFilter(abilities=False, level_at_most=Bound(2))))),
                        Op("ener_charge", count=1, for_each=ForEach(word="done"))),
                timing=("main", "attack"), cost=Cost((("colourless", 1),))),
        CardDef(id="a-keep", name="a-keep", type="arts", colour=("white",),
                effect=(Op("discard", who="opponent", target=Target(
                    who="opponent", zone="hand", count=1, chooser="opponent"), keep=3),),
                timing=("main",), cost=Cost((("white", 1),))),
    ]


def _later_vocabulary() -> list[CardDef]:
    """Cards of the later mechanics that other cards watch (issue 30, family 3): a SIGNI that
    sets a SIGNI of the hand as its Seed and makes a Seed bloom at the start of its main
    phase, one that sets a Trap card of the hand, a Trap card whose Life Burst sets itself
    as a Trap, and SIGNI that watch a Seed bloom or a Trap revealed. Dated: only games under
    a rule set that has Seeds and Traps deal them (:func:`rule_pool`)."""
    own_seed = Target(who="self", zone="seed", count=1, up_to=True)
    # a card of the hand that has a Trap effect (the one named s1tq)
    trap_card = Target(who="self", zone="hand", count=1, up_to=True,
                       filter=Filter(state=StateFilter(name="s1tq")))
    return [
        _signi("s2sd", 2, 4000, colour="green", trap=(Op("mill", count=1),),
               life_burst=(Op("set_seed", target=THIS, zone="signi"),), abilities=(
            Ability("on_play", (Op("set_seed", target=Target(
                who="self", zone="hand", count=1, up_to=True, card_type="signi"),
                zone="signi"),), trigger="on_play", zone="field"),
            Ability("auto", (Op("bloom", target=own_seed),), trigger="main_phase_start",
                    zone="field"),
            Ability("auto", (Op("power", target=THIS, amount=2000),), trigger="seed_blooms",
                    zone="field", whose="own"))),
        _signi("s1tp", 1, 2000, colour="blue", trap=(Op("draw", count=1),), abilities=(
            Ability("on_play", (Op("set_trap", target=trap_card, zone="signi"),),
                trigger="on_play", zone="field"),
            Ability("auto", (Op("ener_charge", count=1),), trigger="trap_revealed",
                    zone="field", whose="any"))),
        _signi("s1tq", 1, 1000, colour="blue", trap=(Op("draw", count=1),),
               life_burst=(Op("set_trap", target=THIS, zone="signi"),),
               abilities=(Ability("on_play", (Op("set_trap", target=trap_card, zone="signi"),),
                                  trigger="on_play", zone="field"),)),
        CardDef(id="a-bloom", name="a-bloom", type="arts", colour=("green",),
                effect=(Op("bloom", target=own_seed), Op("draw", count=1)),
                timing=("main", "attack"), cost=Cost()),
        # a watcher of life cloth leaving other than by a crush (a refresh's penalty)
        _signi("s1lm", 1, 2000, colour="white", life_burst=(Op("draw", count=1),), abilities=(
            Ability("auto", (Op("ener_charge", count=1),), trigger="life_cloth_moved",
                    zone="field", whose="any"),)),
        # coins, and a watcher of coins paid for a BET (the ARTS a-bet bets them)
        _signi("s2cn", 2, 4000, colour="black", life_burst=(Op("coins", amount=1),), abilities=(
            Ability("on_play", (Op("coins", amount=1),), trigger="on_play", zone="field"),
            Ability("auto", (Op("draw", count=1),), trigger="coins_paid", zone="field",
                    whose="own"))),
        _signi("s1cw", 1, 2000, colour="black", abilities=(
            Ability("auto", (Op("power", target=THIS, amount=2000),), trigger="coins_paid",
                    zone="field", whose="any"),)),
        *(CardDef(id=f"a-bet{n}", name=f"a-bet{n}", type="arts", colour=("black",),
                  effect=(Op("ener_charge", count=1), Op("coins", amount=1)),
                  timing=("main", "attack"),
                  cost=Cost(), bet=1, bet_effect=(Op("ener_charge", count=2),
                                                  Op("coins", who="opponent", amount=-1)))
          for n in (1, 2, 3)),
        # more Trap cards that set themselves, so that attacks meet Traps in a few games
        *(_signi(f"s{n}tr", n, 1000 * n, colour="blue",
                 trap=(Op("power", target=OPPONENT_SIGNI, amount=-3000),),
                 life_burst=(Op("set_trap", target=THIS, zone="signi"),), abilities=(
                     Ability("auto", (Op("power", target=THIS, amount=1000),),
                             trigger="trap_revealed", zone="field", whose="any"),))
          for n in (1, 2)),
    ]


def rule_pool(rules: RuleSet) -> dict[str, CardDef]:
    """The pool's cards a game under ``rules`` deals: those whose mechanics the rule set has
    (judge.engine.eras; the cards of :func:`_later_vocabulary` only from their date)."""
    cached = _RULE_POOLS.get(rules.id)
    if cached is None:
        cached = _RULE_POOLS[rules.id] = {
            cid: c for cid, c in card_pool().items()
            if not any(eras.refusal(use, rules) for use in eras.card_uses(c, cid))}
    return dict(cached)


_RULE_POOLS: Final[dict[str, dict[str, CardDef]]] = {}


def _vocabulary_arts() -> list[CardDef]:
    """ARTS of the vocabulary: a lasting "can't", losing abilities, a set power, an attack
    limit, a cap on the SIGNI on the field, limits, an
    either-colour cost, a draw-phase replacement, a refresh limit."""
    return [
        CardDef(id="a-cant", name="a-cant", type="arts", colour=("white",),
                effect=(Op("cannot", target=OPPONENT_SIGNI, what="attack",
                           until="end_of_next_turn"),), timing=("main",),
                cost=Cost((("colourless", 1),))),
        CardDef(id="a-lose", name="a-lose", type="arts", colour=("white",),
                effect=(Op("lose_abilities", target=OPPONENT_SIGNI),
                        Op("set_power", target=OPPONENT_SIGNI, amount=3000),
                        Op("attack_limit", target=OPPONENT_SIGNI, amount=1,
                           until="end_of_next_turn"),
                        Op("must_attack", target=OPPONENT_SIGNI, until="end_of_next_turn")),
                timing=("main", "attack"), cost=Cost((("white_or_red", 1),))),
        CardDef(id="a-limit", name="a-limit", type="arts", colour=("white",),
                effect=(Op("upper_limit", who="opponent", zone="ener", amount=4),
                        # resistance to one kind of source (judge.engine.source_kinds)
                        Op("cannot", target=Target(who="self", zone="signi", all=True),
                           what="be_banished", by_kind="spell", until="end_of_next_turn"),
                        Op("cannot", who="opponent", what="pay_with_colourless")),
                timing=("main",), cost=Cost()),
        CardDef(id="a-draw", name="a-draw", type="arts", colour=("white",),
                effect=(Op("replace", who="self", event="draw_phase",
                           ops=(Op("ener_charge", count=1), Op("draw", count=1)),
                           until="end_of_next_turn"),
                        Op("draw_limit", who="opponent", amount=1),
                        Op("signi_cap", who="opponent", amount=2),
                        Op("cannot", who="opponent", what="refresh")),
                timing=("main",), cost=Cost((("colourless", 1),))),
    ]


def _keys() -> list[CardDef]:
    """Keys (issue 30, round three), drawn into LRIG decks as ARTS are: one paid with ener,
    whose constant ability works from the Key zone and which puts itself into the LRIG trash
    for a card and a coin; one summoned with that coin."""
    return [
        CardDef(id="k-power", name="k-power", type="key", colour=("white",),
                cost=Cost((("colourless", 1),)), abilities=(
                    _const(Op("power", target=OWN_SIGNI, amount=1000)),
                    Ability("action", (Op("trash", target=THIS), Op("draw", count=1),
                                       Op("coins", amount=1))))),
        CardDef(id="k-coin", name="k-coin", type="key", colour=("white",), coins=1,
                abilities=(Ability("action", (Op("draw", count=1),), once_per_turn=True),)),
    ]


def card_pool() -> dict[str, CardDef]:
    """A fixed pool of generated cards exercising most of the vocabulary (made once: the
    cards are frozen values, and no game changes the table)."""
    return dict(_POOL) if _POOL else _make_pool()


_POOL: Final[dict[str, CardDef]] = {}


def _make_pool() -> dict[str, CardDef]:
    burst_draw = (_op("draw", count=1),)
    burst_banish = (_op("banish", target=OPPONENT_SIGNI),)
    burst_charge = (_op("ener_charge", count=1),)
    pool = [
        _signi("s1", 1, 2000), _signi("s1g", 1, 1000, guard=True),
        _signi("s2", 2, 5000), _signi("s3", 3, 8000), _signi("s4", 4, 12000),
        _signi("s1b", 1, 1000, life_burst=burst_draw),
        _signi("s2b", 2, 3000, life_burst=burst_banish),
        _signi("s3b", 3, 7000, life_burst=burst_charge),
        _signi("s1gb", 1, 1000, guard=True, life_burst=burst_draw),
        _signi("s2l", 2, 5000, keywords=("lancer",), life_burst=burst_draw),
        _signi("s3a", 3, 6000, keywords=("assassin",)),
        _signi("s2m", 2, 4000, keywords=("multi-ener",), life_burst=burst_charge),
        _signi("s2p", 2, 4000, abilities=(
            Ability("on_play", (_op("mill", count=2),), trigger="on_play", zone="field"),)),
        _signi("s1t", 1, 1000, life_burst=burst_draw, abilities=(
            Ability("auto", (_op("to_hand", target=Target(this=True)),),
                    trigger="put_into_trash_from_deck", zone="trash", optional=True),)),
        _signi("s2e", 2, 5000, abilities=(
            Ability("auto", (_op("draw", count=1),), trigger="banished_by_effect"),)),
        _signi("s3k", 3, 7000, abilities=(
            Ability("auto", (_op("power", target=Target(this=True), amount=3000),),
                    trigger="attacks"),)),
        _signi("s4c", 4, 10000, abilities=(
            Ability("const", (), stat="power", amount=1000, applies_to="own_signi"),)),
        _signi("s1x", 1, 2000, abilities=(
            Ability("action", (_op("power", target=OPPONENT_SIGNI, amount=-2000),),
                    cost=Cost(down=True)),)),
        CardDef(id="sp-draw", name="sp-draw", type="spell", colour=("white",),
                effect=(_op("draw", count=2), _op("discard", target=Target(zone="hand"))),
                cost=Cost((("colourless", 1),))),
        CardDef(id="sp-mill", name="sp-mill", type="spell", colour=("white",),
                effect=(_op("mill", who="both", count=4),), cost=Cost((("white", 1),)),
                life_burst=burst_charge),
        CardDef(id="sp-banish", name="sp-banish", type="spell", colour=("white",),
                effect=(_op("banish", target=OPPONENT_SIGNI),),
                cost=Cost((("white", 1), ("colourless", 1)))),
        *_vocabulary(),
        *_state_vocabulary(),
        *_look_vocabulary(),
        *_others_vocabulary(),
        *_later_vocabulary(),
        *_marker_vocabulary(),
    ]
    lrigs = [CardDef(id=f"l{n}", name=f"l{n}", type="lrig", colour=("white",), level=n,
                     limit=(0, 2, 5, 7, 11)[n], lrig_type="Tama",
                     cost=Cost((("white", n - 1),)) if n > 1 else Cost(),
                     abilities=(Ability("action", (_op("draw", count=1),),
                                        cost=Cost(exceed=1)),) if n >= 3 else ())
               for n in range(5)]
    arts = [
        CardDef(id="a-banish", name="a-banish", type="arts", colour=("white",),
                effect=(_op("banish", target=OPPONENT_SIGNI),), timing=("main", "attack"),
                cost=Cost((("white", 1),))),
        CardDef(id="a-minus", name="a-minus", type="arts", colour=("white",),
                effect=(_op("power", target=OPPONENT_SIGNI, amount=-5000),),
                timing=("attack",), cost=Cost((("colourless", 1),))),
        CardDef(id="a-trash", name="a-trash", type="arts", colour=("white",),
                effect=(_op("banish_to_trash", who="opponent"),
                        _op("mill", who="opponent", count=2)),
                timing=("main", "spell_cut_in"), cost=Cost()),
        CardDef(id="a-freeze", name="a-freeze", type="arts", colour=("white",),
                effect=(_op("freeze", target=OPPONENT_SIGNI), _op("down", target=OPPONENT_SIGNI)),
                timing=("attack", "spell_cut_in"), cost=Cost((("colourless", 1),))),
        CardDef(id="a-cost", name="a-cost", type="arts", colour=("white",),
                effect=(_op("cost_modify", who="opponent", cost=(("colourless", 1),)),
                        _op("keyword", target=OWN_SIGNI, keyword="double-crush")),
                timing=("main",), cost=Cost()),
        *_vocabulary_arts(),
        *_state_arts(),
        *_marker_arts(),
        *_keys(),
    ]
    # the assist LRIG of the games in Diva Selection (_diva_selection): never in a deck
    assist = CardDef(id="l-assist", name="l-assist", type="lrig", colour=("blue",), level=1,
                     limit=2, lrig_type="Piruluk", abilities=(Ability(
                         "action", (_op("draw", count=1),), cost=Cost((("colourless", 1),)),
                         once_per_turn=True),))
    _POOL.update({c.id: c for c in [*pool, *lrigs, *arts, assist]})
    return dict(_POOL)


def random_decks(rng: random.Random, pool: dict[str, CardDef], player: str) -> \
        tuple[list[CardInstance], list[CardInstance]]:
    """A legal main deck (40 cards, exactly 20 with a Life Burst) and LRIG deck (levels 0-4
    and five ARTS drawn from the pool's), labelled ``p1-1``... and ``p1-L0``..."""
    bursts = [c for c in pool.values() if c.type in ("signi", "spell") and c.has_burst]
    plain = [c for c in pool.values() if c.type in ("signi", "spell") and not c.has_burst]
    cards = [pick(rng, bursts) for _ in range(20)] + [pick(rng, plain) for _ in range(20)]
    shuffle(rng, cards)
    main = [CardInstance(f"{player}-{i + 1}", c, player, ZoneRef(player, "deck"))
            for i, c in enumerate(cards)]
    arts = [c for c in pool.values() if c.type in ("arts", "key")]
    lrig_defs = [pool[f"l{n}"] for n in range(5)] + rng.sample(arts, ARTS_PER_DECK)
    lrig = [CardInstance(f"{player}-{c.id}", c, player, ZoneRef(player, "lrig_deck"))
            for c in lrig_defs]
    return main, lrig

