"""Ride and Drive (ライド, 骑乘／驾驶): the centre LRIG rides a SIGNI, which triggers its Drive.

Rule: the ``ride`` operation puts its controller's centre LRIG on one of that player's SIGNI on
the field (its target; event ``ride``), and the SIGNI's Drive abilities trigger (auto
abilities with the trigger ``drive``, working from the field). While riding, the LRIG cannot
attack (``attack`` refuses it: ``riding``). When the ridden SIGNI leaves the field, for any
reason, the LRIG gets off at once (event ``get_off``) and is back in the LRIG zone: it may
attack again, if it is up.

**Interpretations** (the source says no more):

- the LRIG stays the centre LRIG while it rides: its level, limit and LRIG type still count
  (the engine keeps the card in the LRIG zone and records the ride as a state of the game);
- a LRIG rides one SIGNI at a time: a ``ride`` while it rides fizzles (``already-riding``),
  and so does a ride of a card that is not one of its controller's SIGNI on the field
  (``not-on-field``);
- the Drive abilities are the ridden SIGNI's (the source says only that the ride triggers the
  "corresponding" Drive effects);
- riding neither downs nor ups the LRIG.

Date: only the undated Chinese rules page describes it, for the Key Selection format (the
LRIG Reila); the engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: :func:`ride`, the ``ride`` operation (:data:`judge.engine.ops.OPERATIONS`);
:func:`left_field`, called by :meth:`judge.engine.game.Game.move` when a ridden SIGNI leaves
the field; :func:`riding`, read by :func:`judge.engine.actions.attack`. The rides are
``GameState.riding``.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 骑乘/驾驶（ライド）.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine import triggers
from judge.engine.cards import Op
from judge.engine.events import AbilityRef, Event, event_kind
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import ON_FIELD, CardInstance
from judge.engine.targets import op_targets
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


@event_kind("ride")
class Ride(Event):
    """``player``'s centre LRIG ``card`` rides their SIGNI ``signi``."""

    signi: str


@event_kind("get_off")
class GetOff(Event):
    """``player``'s centre LRIG ``card`` gets off the SIGNI ``signi``, which left the field."""

    signi: str


MECHANICS: Final = (
    Mechanic(id="ride", term="ride", source=cite(CHINESE_RULES, "ride"), keyword=False,
             events={"ride": N_("%(card)s rides %(signi)s."),
                     "get_off": N_("%(signi)s has left the field: %(card)s gets off it and is "
                                   "back in the LRIG zone.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it (Key "
             "Selection format)",
             ops=("ride",)),
)


def riding(game: Game, player: str) -> str | None:
    """The label of the SIGNI ``player``'s centre LRIG rides, or None."""
    return game.state.riding.get(player)


def ride(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> None:
    lrig = game.state.centre(controller)
    for inst in op_targets(game, op, controller, source)[:1]:
        if lrig is None or inst.owner != controller or inst.zone.zone not in ON_FIELD:
            game.emit(ev.Fizzle, cause="effect", player=controller, card=inst.label,
                      source=name, reason="not-on-field")
            continue
        if controller in game.state.riding:
            game.emit(ev.Fizzle, cause="effect", player=controller, card=inst.label,
                      source=name, reason="already-riding")
            continue
        game.state.riding[controller] = inst.label
        game.emit(Ride, cause="effect", player=controller, card=lrig.label, source=name,
                  signi=inst.label)
        triggers.queue(game, inst, ("drive",))


def left_field(game: Game, inst: CardInstance) -> None:
    """``inst`` has left the field: the LRIG riding it gets off."""
    for player, ridden in list(game.state.riding.items()):
        if ridden == inst.label:
            del game.state.riding[player]
            lrig = game.state.centre(player)
            game.emit(GetOff, cause="game", player=player,
                      card=lrig.label if lrig else None, signi=inst.label)
