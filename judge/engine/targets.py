"""Which cards an operation acts on: players, zones, and targets chosen or named.

A chosen target is a recorded choice (kind ``target``); targets chosen when a card was used
(:func:`judge.engine.actions.choose_targets`) are kept by the game for the operation that
resolves with them, and one that has moved since is gone (``fizzle``, ``target-gone``). An
operation that puts cards into given zones chooses only among cards that may go there
(:mod:`judge.engine.placement`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import events as ev
from judge.engine.cards import Op, Target
from judge.engine.placement import ZONE_GROUPS, destinations, movable_into
from judge.engine.state import PLAYERS, CardInstance, other
from judge.errors import EngineError

if TYPE_CHECKING:
    from judge.engine.game import Game


def players_for(who: str, controller: str) -> list[str]:
    if who == "self":
        return [controller]
    if who == "opponent":
        return [other(controller)]
    if who == "both":
        return [controller, other(controller)]
    return [who]


def zone_names(zone: str) -> tuple[str, ...]:
    """The zones a zone word stands for: ``signi`` and ``field`` the three SIGNI zones,
    ``seed`` and ``trap`` the places of Seeds and Traps on them, any other word itself."""
    return ZONE_GROUPS.get(zone, (zone,))


def resolve_targets(game: Game, target: Target, controller: str,
                    source: CardInstance | None, into: tuple[str, ...] = ()
                    ) -> list[CardInstance]:
    """The cards an operation acts on; a chosen target is a recorded choice. An operation that
    puts cards ``into`` given zones chooses only among cards that may go there
    (judge.engine.placement); a card it names goes through Game.move's check instead."""
    if target.this:
        return [source] if source is not None else []
    if target.labels:
        return [game.card(label) for label in target.labels]
    if game.preset_targets is not None:
        # chosen when the card was used; a target that has moved since is gone
        chosen, game.preset_targets = game.preset_targets, None
        for inst, epoch in chosen:
            if inst.epoch != epoch:
                game.emit(ev.Fizzle, cause="effect", player=inst.owner, card=inst.label,
                          reason="target-gone")
        return [inst for inst, epoch in chosen if inst.epoch == epoch]
    owners = list(PLAYERS) if target.who == "any" else players_for(target.who, controller)
    fits = movable_into(into)
    candidates = [c for p in owners for z in zone_names(target.zone)
                  for c in game.state.zone(p, z)
                  if (target.card_type is None or c.card.type == target.card_type)
                  and c.card.type in fits]
    chooser = controller if target.chooser == "self" else other(controller)
    count = min(target.count, len(candidates))
    picked = game.choose(chooser, "target", [c.label for c in candidates],
                         min_count=0 if target.up_to else count, max_count=count,
                         prompt=f"choose {target.count} in {target.who} {target.zone}")
    return [game.card(label) for label in picked]


def op_targets(game: Game, op: Op, controller: str, source: CardInstance | None) -> \
        list[CardInstance]:
    """The targets of an operation that has one."""
    if op.target is None:
        raise EngineError(f"operation {op.name} has no target")
    return resolve_targets(game, op.target, controller, source, destinations(op))
