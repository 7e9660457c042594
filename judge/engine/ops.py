"""The operations an effect is made of (the vocabulary in :data:`judge.engine.cards.OPS`).

Which cards an operation acts on is :mod:`judge.engine.targets`; the ``charm`` and ``attach``
operations live with their mechanics (:mod:`judge.engine.mechanics.charm`,
:mod:`judge.engine.mechanics.accessory`) and are listed in :data:`OPERATIONS` with the rest.

Each operation does as much as it can: a draw from an empty main deck is simply not made and
is logged as ``skipped`` (2014-06-20 refresh revision, quoted by wixoss.81.la
"リフレッシュ"). Under the 2014-04 rules the refresh interrupts from inside
:meth:`Game.move` instead, so the draw goes on from the new deck.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from judge.engine import bursts
from judge.engine import events as ev
from judge.engine.cards import Op
from judge.engine.events import AbilityRef, LastingKind
from judge.engine.mechanics.accessory import attach
from judge.engine.mechanics.charm import charm
from judge.engine.state import SIGNI_ZONES, CardInstance, Lasting, other
from judge.engine.targets import op_targets, players_for, zone_names

if TYPE_CHECKING:
    from judge.engine.game import Game

CAUSE = "effect"


def _from_deck(game: Game, op: Op, controller: str, zone: str, verb: str,
               source: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        made = 0
        for _ in range(op.count):
            deck = game.state.zone(player, "deck")
            if not deck:
                break
            game.move(deck[0], zone, CAUSE, verb, source=source)
            made += 1
        if made < op.count:
            game.emit(ev.Skipped, cause=CAUSE, player=player, source=source, verb=verb,
                      wanted=op.count, done=made)


def draw(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> None:
    _from_deck(game, op, controller, "hand", "draw", name)


def mill(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> None:
    _from_deck(game, op, controller, "trash", "mill", name)


def ener_charge(game: Game, op: Op, controller: str, source: CardInstance | None,
                name: AbilityRef) -> None:
    _from_deck(game, op, controller, "ener", "ener_charge", name)


def discard(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        if inst.zone.zone == "hand":
            game.move(inst, "trash", CAUSE, "discard", source=name)


def banish(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        banish_card(game, inst, CAUSE, name)


def banish_card(game: Game, inst: CardInstance, cause: str, name: AbilityRef | None) -> None:
    """Banish a SIGNI: to the ener zone, or where an effect in force puts it instead."""
    if not game.on_field(inst):
        game.emit(ev.Fizzle, cause=cause, player=inst.owner, card=inst.label, source=name,
                  reason="not-on-field")
        return
    dest = game.banish_destination(inst)
    if dest != "ener":
        game.emit(ev.Replaced, cause=cause, player=inst.owner, card=inst.label, source=name,
                  kind="banish", instead=dest)
    game.move(inst, dest, cause, "banish", source=name, etype="banish")


def trash(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        game.move(inst, game.home_trash(inst.card), CAUSE, "trash", source=name)


def to_ener(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        game.move(inst, "ener", CAUSE, "to_ener", source=name)


def to_hand(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        if source is inst and op.target is not None and op.target.this and \
                inst.zone.zone == "hand":
            continue
        game.move(inst, "hand", CAUSE, "to_hand", source=name)


def to_deck(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        game.put_into_deck(inst, CAUSE, "to_deck", bottom=op.position == "bottom", source=name)


def place(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> None:
    zones = zone_names(op.zone)
    for inst in op_targets(game, op, controller, source):
        zone = zones[0]
        if len(zones) > 1:
            empty = [z for z in zones if not game.state.zone(inst.owner, z)]
            if not empty:
                game.emit(ev.Fizzle, cause=CAUSE, player=inst.owner, card=inst.label,
                          source=name, reason="no-empty-zone")
                continue
            zone = empty[0] if len(empty) == 1 else \
                game.choose(inst.owner, "zone", empty, prompt="which SIGNI zone")[0]
        game.move(inst, zone, CAUSE, "place", source=name, top=op.position == "top"
                  and zone in ("deck", "life"))


def put_onto_field(game: Game, op: Op, controller: str, source: CardInstance | None,
                   name: AbilityRef) -> None:
    """Put a SIGNI onto an empty SIGNI zone. The level, limit and limiting-condition checks of
    playing a SIGNI apply to this too (WIXOSS TCG Wiki, "間違えやすいルール", level and limit);
    with no empty zone, the operation does nothing."""
    for inst in op_targets(game, op, controller, source):
        owner = inst.owner
        # ignore_conditions waives level, limit and limiting condition, never the card type
        reason = "not-signi" if not inst.card.is_signi_like else \
            None if op.ignore_conditions else field_problem(game, inst, owner)
        empty = [z for z in SIGNI_ZONES if not game.state.zone(owner, z)]
        if not empty:
            reason = "no-empty-zone"
        if reason:
            game.emit(ev.Fizzle, cause=CAUSE, player=owner, card=inst.label, source=name,
                      reason=reason)
            continue
        zone = empty[0] if len(empty) == 1 else \
            game.choose(owner, "zone", empty, prompt="which SIGNI zone")[0]
        game.move(inst, zone, CAUSE, "put_onto_field", source=name)


def field_problem(game: Game, inst: CardInstance, owner: str) -> str | None:
    """Why ``inst`` may not be put onto ``owner``'s field, or None."""
    if not inst.card.is_signi_like:
        return "not-signi"
    level = inst.card.level or 0
    if level > game.lrig_level(owner):
        return "level-above-lrig"
    total = sum(game.field_stats(game.state.signi(owner))[1]) + level
    if total > game.limit(owner):
        return "over-limit"
    if inst.card.limiting and inst.card.limiting != game.lrig_type(owner):
        return "limiting-mismatch"
    return None


def _modify(game: Game, op: Op, controller: str, source: CardInstance | None, name: AbilityRef,
            stat: str) -> None:
    for inst in op_targets(game, op, controller, source):
        if not game.on_field(inst):
            game.emit(ev.Fizzle, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      reason="not-on-field")
            continue
        game.state.add_lasting(Lasting(stat, inst.owner, inst.label, op.amount, name,
                                          inst.epoch))
        if stat == "level":
            inst.level_changed = True
            game.level_changed.append(inst)
            game.emit(ev.Level, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      amount=op.amount, level=game.level(inst))
        else:
            game.emit(ev.Power, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      amount=op.amount, power=game.power(inst))


def power(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> None:
    _modify(game, op, controller, source, name, "power")


def level(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> None:
    _modify(game, op, controller, source, name, "level")


def limit(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        game.state.add_lasting(Lasting("limit", player, None, op.amount, name))
        game.emit(ev.Limit, cause=CAUSE, player=player, source=name, amount=op.amount,
                  limit=game.limit(player))


def crush(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        for _ in range(op.count):
            if not bursts.crush(game, player, CAUSE, name):
                break


def damage(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        deal_damage(game, player, CAUSE, name)


def deal_damage(game: Game, player: str, cause: str, name: AbilityRef | None) -> None:
    """Damage: crush one life cloth; with none left, the other player wins (Chinese wiki,
    "WIXOSS/游戏规则", attack phase)."""
    if not bursts.crush(game, player, cause, name):
        game.state.winner = other(player)
        game.state.win_reason = "damage"
        game.emit(ev.GameOver, cause=cause, player=player, source=name, winner=other(player),
                  reason="damage")


def shuffle(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        game.shuffle(player, CAUSE)


def banish_to_trash(game: Game, op: Op, controller: str, source: CardInstance | None,
                    name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        game.state.add_lasting(Lasting("banish_to_trash", player, None, 0, name))
        game.emit(ev.Lasting, cause=CAUSE, player=player, source=name,
                  kind=LastingKind("banish_to_trash"), until="end_of_turn")


#: The event of each flag an operation sets.
_FLAGS: dict[str, type[ev.Down] | type[ev.Up] | type[ev.Freeze]] = {
    "down": ev.Down, "up": ev.Up, "freeze": ev.Freeze}


def _flag(game: Game, op: Op, controller: str, source: CardInstance | None, name: AbilityRef,
          what: str) -> None:
    for inst in op_targets(game, op, controller, source):
        if not (game.on_field(inst) or inst.zone.zone == "lrig"):
            game.emit(ev.Fizzle, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      reason="not-on-field")
            continue
        if what == "freeze":
            inst.frozen = True
        else:
            inst.down = what == "down"
        game.emit(_FLAGS[what], cause=CAUSE, player=inst.owner, card=inst.label, source=name)


def freeze(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> None:
    _flag(game, op, controller, source, name, "freeze")


def down(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> None:
    _flag(game, op, controller, source, name, "down")


def up(game: Game, op: Op, controller: str, source: CardInstance | None, name: AbilityRef) -> None:
    _flag(game, op, controller, source, name, "up")


def keyword(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        if not game.on_field(inst):
            game.emit(ev.Fizzle, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      reason="not-on-field")
            continue
        game.state.add_lasting(Lasting("keyword", inst.owner, inst.label, 0, name,
                                          inst.epoch, text=op.keyword))
        game.emit(ev.Lasting, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                  kind=LastingKind("keyword", keyword=op.keyword),
                  until="end_of_turn")


def _cost_lasting(game: Game, op: Op, controller: str, name: AbilityRef, kind: str) -> None:
    for player in players_for(op.who, controller):
        game.state.add_lasting(Lasting(kind, player, None, 0, name, amounts=op.cost))
        game.emit(ev.Lasting, cause=CAUSE, player=player, source=name,
                  kind=LastingKind(kind, amounts=op.cost), until="end_of_turn")


def cost_change(game: Game, op: Op, controller: str, source: CardInstance | None,
                name: AbilityRef) -> None:
    _cost_lasting(game, op, controller, name, "cost_change")


def cost_modify(game: Game, op: Op, controller: str, source: CardInstance | None,
                name: AbilityRef) -> None:
    _cost_lasting(game, op, controller, name, "cost_modify")


OPERATIONS: dict[str, Callable[[Game, Op, str, CardInstance | None, AbilityRef], None]] = {
    "freeze": freeze, "down": down, "up": up, "keyword": keyword,
    "cost_change": cost_change, "cost_modify": cost_modify,
    "draw": draw, "mill": mill, "ener_charge": ener_charge, "discard": discard,
    "banish": banish, "trash": trash, "to_ener": to_ener, "to_hand": to_hand,
    "to_deck": to_deck, "place": place, "put_onto_field": put_onto_field, "power": power,
    "level": level, "limit": limit, "crush": crush, "damage": damage, "shuffle": shuffle,
    "banish_to_trash": banish_to_trash, "charm": charm, "attach": attach,
}


def apply_op(game: Game, op: Op, controller: str, source: CardInstance | None,
             name: AbilityRef) -> None:
    OPERATIONS[op.name](game, op, controller, source, name)
