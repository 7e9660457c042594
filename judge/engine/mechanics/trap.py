"""Trap (トラップ, 陷阱): a card set face down on a SIGNI zone, revealed when an opponent's
SIGNI attacks that zone while it holds no SIGNI.

Rule: the ``set_trap`` operation puts its target cards face down into the place for a Trap of
one of their owner's SIGNI zones (``zone``: ``signi1`` ... ``signi3``, or ``signi`` to
choose; verb ``trap``); a Trap already there goes to the trash first (verb ``trap_out``). A
card's Trap effect is its ``trap`` (a list of operations). When a SIGNI of the opponent
attacks a SIGNI zone that holds no SIGNI but a Trap with a Trap effect, after the attack's
"when it attacks" abilities, the Trap's owner may reveal it (choice ``use``, about
``T#trap``): it is turned face up (event ``reveal``), its Trap effect resolves as one effect
of its owner, and it goes to the trash (verb ``trap_used``). Then the attack goes on (damage,
if the attacker is still on the field). A Trap is not a SIGNI, so its level and the limit do
not matter, and its limiting condition does not stop it from being set or revealed. Its owner
may look at it, the opponent may not (:mod:`judge.engine.visibility`). **Interpretation**: a
SIGNI with Assassin attacking past a SIGNI does not attack an empty zone, so it meets no Trap;
the Trap is offered where Guard is offered for a LRIG attack, before the damage.

Date: only the undated Chinese rules page describes it (the All Star LRIG Ami's mechanic); the
engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

A reveal fires ``trap_revealed`` for the cards on the field that watch it (issue 30, family
3); **interpretation**: their abilities wait until the Trap has resolved and gone to the
trash, as one piece of processing.

Hooks: :func:`set_trap`, the ``set_trap`` operation; :func:`spring` and :func:`resolve`, called by
:func:`judge.engine.battle.signi_attack` when the attacked zone holds no SIGNI (between them
it fires ``trap_revealed``). A revealed
Trap is logged as the event kind this module declares, :class:`Reveal` (type ``reveal``).

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 陷阱.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine.cards import Op
from judge.engine.events import AbilityRef, Event, event_kind
from judge.engine.mechanics import Mechanic
from judge.engine.mechanics.seed import choose_signi_zone
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import TRAP_ZONES, CardInstance, other
from judge.engine.targets import op_targets
from judge.langs import N_, NP_

if TYPE_CHECKING:
    from judge.engine.game import Game


@event_kind("reveal")
class Reveal(Event):
    """``player`` reveals their Trap ``card`` (turned face up in ``from_zone``) against the
    attack of ``source``."""


MECHANICS = (
    Mechanic(id="trap", term="trap", source=cite(CHINESE_RULES, "trap"), keyword=False,
             events={"reveal": N_("%(player)s reveals the Trap %(card)s.")},
             verbs={"trap": NP_("%(card)s is set face down from %(from)s as a Trap: %(to)s.",
                                "%(card)s are set face down from %(from)s as Traps: %(to)s."),
                    "trap_out": NP_("A new Trap takes its place: %(card)s goes from %(from)s "
                                    "to %(to)s.",
                                    "New Traps take their places: %(card)s go from %(from)s "
                                    "to %(to)s."),
                    "trap_used": NP_("The revealed Trap %(card)s goes from %(from)s to %(to)s.",
                                     "The revealed Traps %(card)s go from %(from)s to %(to)s.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it (All Star "
             "format)",
             card_fields=("trap",), ops=("set_trap",), zones=tuple(TRAP_ZONES.values())),
)


def set_trap(game: Game, op: Op, controller: str, source: CardInstance | None,
             name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        owner = inst.owner
        place = TRAP_ZONES[choose_signi_zone(game, owner, op.zone, "gets the Trap")]
        for old in list(game.state.zone(owner, place)):
            game.move(old, "trash", "effect", "trap_out", source=name)
        game.move(inst, place, "effect", "trap", source=name)
        inst.face_down = True


def spring(game: Game, attacker: CardInstance, signi_zone: str) -> CardInstance | None:
    """The attack of ``attacker`` reaches ``signi_zone`` of the opponent, which holds no
    SIGNI: its Trap, if any, may be revealed (the caller then lets the cards that watch it
    trigger and calls :func:`resolve`); the Trap revealed, or None."""
    owner = other(attacker.owner)
    cards = game.state.zone(owner, TRAP_ZONES[signi_zone])
    if not cards or not cards[0].card.trap:
        return None
    trap = cards[0]
    name = AbilityRef.keyword_ability(trap.label, "trap")
    if not game.yes_no(owner, "use", f"reveal the Trap {trap.label}?", about=name):
        return None
    trap.face_down = False
    game.emit(Reveal, cause="game", player=owner, card=trap.label, from_zone=trap.zone,
              source=AbilityRef.of_card(attacker.label))
    return trap


def resolve(game: Game, trap: CardInstance) -> None:
    """A revealed Trap's effect resolves as one effect of its owner; then it goes to the
    trash."""
    place = trap.zone.zone
    game.resolve_effect(trap.card.trap, trap.owner, trap,
                        AbilityRef.keyword_ability(trap.label, "trap"))
    if trap.zone.zone == place:
        game.move(trap, "trash", "game", "trap_used")
    game.settle()
