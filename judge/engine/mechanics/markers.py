"""Markers on SIGNI zones: what the virus (:mod:`.virus`) and the gate (:mod:`.gate`) share.

Rule: a marker is no card: it is set on one of a player's three SIGNI zones and stays there,
whatever SIGNI come and go, until something removes it. A zone holds at most one marker of a
kind (two of different kinds may share it). The state is
:attr:`judge.engine.state.PlayerState.markers` (kind -> the zones holding one); the position
shows it (``markers`` of each side, ``signi1:virus``), and a ruling lays markers out in
``setup.markers`` and expects them in ``expect.markers`` (``{ p2 = { virus = ["signi1"] } }``).

What reads markers: the ``on_marker`` key of a filter (the SIGNI is on a zone that holds a
marker of that kind: :func:`judge.engine.conditions.on_marker`) and the ``tally`` of a
condition or a ``for_each`` count (how many markers of that kind are on ``who``'s zones:
:mod:`judge.engine.tallies`). A marker changing bumps the
state's change count, so a constant ability that reads one is computed again.

The operations (each kind's module declares its own: ``set_virus``, ``remove_virus``,
``set_gate``) act on ``who``'s zones (default: the opponent's, where the sources put them):
``zone`` names one SIGNI zone, or ``signi`` (the default) lets the effect's player choose
among the zones where the operation can act; ``count`` is how many markers. A zone that
already holds the kind's marker cannot take another (``fizzle``, ``marker-present``); a zone
without one has nothing to remove (``fizzle``, ``no-marker``).

Hooks: :func:`operation` makes each kind's operations (listed in
:data:`judge.engine.ops.OPERATIONS`); :func:`change` is the one place the state changes.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 病毒（ウィルス）, 门.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine.cards import Op
from judge.engine.events import AbilityRef, Event
from judge.engine.state import SIGNI_ZONES, CardInstance, ZoneRef, other
from judge.engine.targets import players_for

if TYPE_CHECKING:
    from judge.engine.game import Game

#: Not a mechanic of its own: the virus and the gate declare theirs.
MECHANICS: Final = ()
#: Reasons an operation on markers did nothing (narrated: judge.narrate.words.REASON_NAMES).
REASONS: Final = ("marker-present", "no-marker")


def _zones(game: Game, op: Op, controller: str, player: str, kind: str, adding: bool,
           name: AbilityRef) -> list[str]:
    """The zones the operation acts on: the one ``zone`` names, or ``count`` the effect's
    player chooses among those where it can act."""
    held = game.state.players[player].markers.get(kind, set())
    if op.zone in SIGNI_ZONES:
        if (op.zone in held) == adding:
            game.emit(ev.Fizzle, cause="effect", player=player, source=name,
                      to_zone=ZoneRef.of(player, op.zone),
                      reason="marker-present" if adding else "no-marker")
            return []
        return [op.zone]
    options = [z for z in SIGNI_ZONES if (z in held) != adding]
    if not options:
        game.emit(ev.Fizzle, cause="effect", player=player, source=name,
                  reason="marker-present" if adding else "no-marker")
        return []
    verb = "gets" if adding else "loses"
    return list(game.choose(controller, "zone", options, min_count=min(op.count, len(options)),
                            max_count=op.count, about=name,
                            prompt=f"which zone of {player} {verb} a {kind}"))


def change(game: Game, player: str, zone: str, kind: str, adding: bool) -> None:
    """Set (``adding``) or remove the marker of ``kind`` on ``player``'s ``zone``."""
    markers = game.state.players[player].markers
    held = markers.setdefault(kind, set())
    if adding:
        held.add(zone)
    else:
        held.discard(zone)
        if not held:
            del markers[kind]
    game.state.changes += 1


def operation(kind: str, adding: bool, made: type[Event]) -> Callable[
        [Game, Op, str, CardInstance | None, AbilityRef], bool]:
    """The operation that sets (``adding``) or removes markers of ``kind``, logging ``made``
    (its ``to_zone``, or ``from_zone`` for a removal, the zone)."""

    def run(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> bool:
        acted = 0
        # a marker is set on the opponent's zones (the operations that set one have no
        # who); a removal says whose
        players = [other(controller)] if adding else players_for(op.who, controller)
        for player in players:
            for zone in _zones(game, op, controller, player, kind, adding, name):
                change(game, player, zone, kind, adding)
                where = ZoneRef.of(player, zone)
                game.emit(made, cause="effect", player=player, source=name,
                          **({"to_zone": where} if adding else {"from_zone": where}))
                acted += 1
        game.acted = acted
        return acted >= op.count if op.zone not in SIGNI_ZONES else acted >= 1

    return run
