"""Which cards an operation acts on: players, zones, and targets chosen or named.

A chosen target is a recorded choice (kind ``target``); targets chosen when a card was used
(:func:`judge.engine.using.choose_targets`) are kept by the game for the operation that
resolves with them, and one that has moved since is gone (``fizzle``, ``target-gone``). An
operation that puts cards into given zones chooses only among cards that may go there
(:mod:`judge.engine.placement`).

An effect that chooses (a target table, or the cards a ruling names for it) cannot choose a
card its controller's effects may not choose (Shadow, ``cannot`` ``be_chosen``:
:func:`judge.engine.continuous.unchoosable`); one with ``all = true`` does not choose, and
acts on every matching card (Chinese wiki "WIXOSS/游戏规则", 暗影). A card that is not
affected by the controller's effects (resistance) is left out of what the operation does
(``fizzle``, ``resisted``), whether it was chosen or not: resistance comes before the
effects it resists (Chinese wiki, 卡牌的效果处理及其他规则).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import continuous
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
    if target.trigger:  # the card whose event triggered the ability, still on the field
        subject = game.subject
        if subject is None or subject is source:
            return []
        if not game.on_field(subject):
            game.emit(ev.Fizzle, cause="effect", player=subject.owner, card=subject.label,
                      reason="target-gone")
            return []
        return [subject]
    if target.labels:
        named = [game.card(label) for label in target.labels]
        out = []
        for inst in named:
            if continuous.unchoosable(game, inst, controller):
                game.emit(ev.Fizzle, cause="effect", player=inst.owner, card=inst.label,
                          reason="cannot-be-chosen")
            else:
                out.append(inst)
        game.targeted(out, controller)
        return out
    if game.preset_targets is not None:
        # chosen when the card was used; a target that has moved since is gone
        chosen, game.preset_targets = game.preset_targets, None
        for inst, epoch in chosen:
            if inst.epoch != epoch:
                game.emit(ev.Fizzle, cause="effect", player=inst.owner, card=inst.label,
                          reason="target-gone")
        return [inst for inst, epoch in chosen if inst.epoch == epoch]
    candidates = candidates_of(game, target, controller, source, into)
    if target.all:
        return candidates
    # a card its own player's effects may choose, unless it cannot be chosen by any effect
    # (``cannot be_chosen`` with ``by = "any"``): continuous.unchoosable tells both
    candidates = [c for c in candidates if not continuous.unchoosable(game, c, controller)]
    chooser = controller if target.chooser == "self" else other(controller)
    count = min(target.count, len(candidates))
    picked = game.choose(chooser, "target", [c.label for c in candidates],
                         min_count=0 if target.up_to else count, max_count=count,
                         prompt=f"choose {target.count} in {target.who} {target.zone}")
    targets = [game.card(label) for label in picked]
    game.targeted(targets, controller)  # "when it becomes a target" (issue 30)
    return targets


def candidates_of(game: Game, target: Target, controller: str, source: CardInstance | None,
                  into: tuple[str, ...] = ()) -> list[CardInstance]:
    """The cards a target table matches now (before anyone chooses)."""
    owners = list(PLAYERS) if target.who == "any" else players_for(target.who, controller)
    fits = movable_into(into)
    out = [c for p in owners for z in zone_names(target.zone)
           for c in game.state.zone(p, z)
           if (target.card_type is None or c.card.type == target.card_type)
           and c.card.type in fits]
    if target.other:
        out = [c for c in out if c is not source]
    if not target.filter.empty:
        crossed = game.crossed()
        out = [c for c in out if target.filter.admits(game, c, crossed, controller, source)]
    return out


def op_targets(game: Game, op: Op, controller: str, source: CardInstance | None) -> \
        list[CardInstance]:
    """The targets of an operation that has one, less the cards that are not affected by
    ``controller``'s effects."""
    if op.target is None:
        raise EngineError(f"operation {op.name} has no target")
    targets = resolve_targets(game, op.target, controller, source, destinations(op))
    if not game.plain and game.layer() is not None:
        kept = []
        for inst in targets:
            if continuous.resists(game, inst, controller):
                game.emit(ev.Fizzle, cause="effect", player=inst.owner, card=inst.label,
                          reason="resisted")
            else:
                kept.append(inst)
        return kept
    return targets


def feasible(game: Game, ops: tuple[Op, ...], controller: str,
             source: CardInstance | None) -> bool:
    """Whether ``ops`` can be done whole: every target table that does not say "up to" or
    "all" has as many cards to choose from as it asks for (what a replacement's "instead"
    needs: no replacement whose cost cannot be paid applies)."""
    for op in ops:
        target = op.target
        if target is None or target.this or target.trigger or target.labels or target.all or \
                target.up_to:
            continue
        if len(candidates_of(game, target, controller, source,
                             destinations(op))) < target.count:
            return False
    return True
