"""Random games: generated legal decks, both players taking random legal actions.

Every random decision comes from one seeded :class:`random.Random`, so a seed replays the same
game event for event. Used by ``judge play --random``, the property tests and
``benchmarks/games.py``.

Legality is the engine's own: each action checks its rules before changing anything and raises
:class:`~judge.errors.IllegalAction` otherwise, so the driver proposes candidate actions in a
random order and takes the first that the engine accepts.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import NamedTuple

from judge.engine import actions
from judge.engine.cards import Ability, CardDef, Op, Target
from judge.engine.choices import Choice
from judge.engine.costs import Cost
from judge.engine.game import Game
from judge.engine.rulesets import RuleSet
from judge.engine.state import PLAYERS, SIGNI_ZONES, CardInstance, GameState, ZoneRef
from judge.errors import IllegalAction

MAX_ACTIONS_PER_TURN = 60


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
    """Carry out ``action`` through the engine's one dispatch (:func:`actions.dispatch`, the
    one a ruling's steps go through); raises IllegalAction, having changed nothing, if
    illegal. A ``start_game`` action's player is the one who goes first."""
    actions.dispatch(game, action.kind, player=action.player, card=action.card,
                     zone=action.zone, ability=action.ability, cards=action.cards,
                     first=action.player if action.kind == "start_game" else None)


def actor(state: GameState) -> str:
    """Who acts now: the ARTS step's priority player, else the turn player."""
    if state.phase == "attack" and state.attack_step == "arts" and state.arts_priority:
        return state.arts_priority
    return state.turn_player


def candidates(game: Game) -> list[Action]:
    """Actions worth trying now; the engine decides which are legal. ``advance`` is always
    last-resort legal outside the set-up's first action."""
    state = game.state
    p = actor(state)
    out: list[Action] = []
    if state.phase == "setup":
        if not any(state.zone(q, "hand") for q in PLAYERS):
            return [Action("start_game", q) for q in PLAYERS]
        for q in PLAYERS:
            if q not in state.redrawn:
                labels = [c.label for c in state.zone(q, "hand")]
                return [Action("redraw", q, cards=combo) for n in range(len(labels) + 1)
                        for combo in itertools.combinations(labels, n)]
        return [Action("advance", p)]
    hand = state.zone(p, "hand")
    signi = state.signi(p)
    if state.phase == "ener" and not state.ener_done:
        out += [Action("ener", p, c.label) for c in (*hand, *signi)]
    elif state.phase == "grow" and not state.grown:
        out += [Action("grow", p, c.label) for c in state.zone(p, "lrig_deck")
                if c.card.type == "lrig"]
    elif state.phase == "main":
        empty = [z for z in SIGNI_ZONES if not state.zone(p, z)]
        level = game.lrig_level(p)  # a cheap filter; the engine still decides legality
        out += [Action("play", p, c.label, z) for c in hand
                if c.card.type == "signi" and (c.card.level or 0) <= level for z in empty]
        out += [Action("use", p, c.label) for c in hand if c.card.type == "spell"]
        out += [Action("use", p, c.label) for c in state.zone(p, "lrig_deck")
                if c.card.type == "arts"]
        for c in [*signi, *state.zone(p, "lrig")[-1:]]:
            n = sum(1 for a in c.card.abilities if a.kind == "action")
            out += [Action("activate", p, c.label, ability=i) for i in range(n)]
        out += [Action("remove", p, c.label) for c in signi if len(signi) == 3]
    elif state.phase == "attack":
        if state.attack_step == "arts":
            out += [Action("use", p, c.label) for c in state.zone(p, "lrig_deck")
                    if c.card.type == "arts"]
            return out + [Action("pass", p)]
        if state.attack_step == "signi":
            out += [Action("attack", p, c.label) for c in signi if not c.down]
        elif state.attack_step == "lrig":
            out += [Action("attack", p, c.label) for c in state.zone(p, "lrig")[-1:]
                    if not c.down]
    return out + [Action("advance", p)]


@dataclass
class RandomChooser:
    """Answers every choice with a random legal answer from the game's random source."""

    rng: random.Random

    def pick(self, choice: Choice) -> tuple[str, ...]:
        answers = choice.answers()
        return answers[self.rng.randrange(len(answers))]


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
    while options:
        action = options.pop(rng.randrange(len(options)))
        try:
            perform(game, action)
        except IllegalAction:
            rg.refused += 1
            continue
        rg.actions.append(action)
        return action
    raise AssertionError("no legal action (advance is always legal)")


def play_random_game(rules: RuleSet, seed: int, turns: int = 10,
                     on_action: Callable[[Game, Action], None] | None = None) -> RandomGame:
    """A whole game from the set-up until someone wins or turn ``turns`` has ended."""
    rng = random.Random(seed)
    state = GameState.empty()
    state.phase = "setup"
    state.turn = 1
    game = Game(state, rules, RandomChooser(rng), seed=rng.randrange(2**32))
    pool = card_pool()
    for player in PLAYERS:
        main, lrig = random_decks(rng, pool, player)
        for inst in main:
            state.add(inst)
        for inst in lrig:
            state.add(inst)
    rg = RandomGame(game)
    acted, turn = 0, state.turn
    while not state.winner and not (state.turn > turns and state.phase != "setup"):
        action = step(rg, rng, acted)
        if on_action is not None:
            on_action(game, action)
        acted = acted + 1 if state.turn == turn else 0
        turn = state.turn
    return rg


# ------------------------------------------------------------------ decks


def _signi(cid: str, level: int, power: int, *, guard: bool = False,
           life_burst: tuple[Op, ...] = (), keywords: tuple[str, ...] = (),
           abilities: tuple[Ability, ...] = ()) -> CardDef:
    return CardDef(id=cid, name=cid, type="signi", colour=("white",), level=level,
                   power=power, guard=guard, life_burst=life_burst, keywords=keywords,
                   abilities=abilities)


_op = Op


OPPONENT_SIGNI = Target(who="opponent", zone="signi", count=1)
OWN_SIGNI = Target(who="self", zone="signi", count=1)


def card_pool() -> dict[str, CardDef]:
    """A fixed pool of generated cards exercising most of the vocabulary."""
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
    ]
    return {c.id: c for c in [*pool, *lrigs, *arts]}


def random_decks(rng: random.Random, pool: dict[str, CardDef], player: str) -> \
        tuple[list[CardInstance], list[CardInstance]]:
    """A legal main deck (40 cards, exactly 20 with a Life Burst) and LRIG deck (levels 0-4
    and five ARTS), labelled ``p1-1``... and ``p1-L0``..."""
    bursts = [c for c in pool.values() if c.type in ("signi", "spell") and c.has_burst]
    plain = [c for c in pool.values() if c.type in ("signi", "spell") and not c.has_burst]
    cards = [rng.choice(bursts) for _ in range(20)] + [rng.choice(plain) for _ in range(20)]
    rng.shuffle(cards)
    main = [CardInstance(f"{player}-{i + 1}", c, player, ZoneRef(player, "deck"))
            for i, c in enumerate(cards)]
    lrig_defs = [pool[f"l{n}"] for n in range(5)] + \
        [c for c in pool.values() if c.type == "arts"]
    lrig = [CardInstance(f"{player}-{c.id}", c, player, ZoneRef(player, "lrig_deck"))
            for c in lrig_defs]
    return main, lrig

