"""Guard (ガード, 防御): against a LRIG attack, the defender may put a card with the Guard icon
from the hand into the trash and take no damage.

Rule: only a LRIG attack can be guarded, never a SIGNI attack; the Guard card may be used
whatever the level of its player's LRIG, and goes to the trash. Guarding is a choice (kind
``guard``) among the hand's Guard cards and ``none``; a card has the icon when its definition
says ``guard = true`` (it is an icon, not a keyword cards list).

Hook: :func:`offer`, called by :func:`judge.engine.battle.lrig_attack` after the attack's
"when it attacks" abilities and before the damage. A guard is logged as the event kind this
module declares, :class:`Guard` (type ``guard``).

Sources: WIXOSS TCG Wiki "間違えやすいルール" (2014), ガード; Chinese wiki "WIXOSS/游戏规则"
(undated), attack phase: 分身攻击步骤, 防御.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine.events import AbilityRef, Event, event_kind
from judge.engine.mechanics import Mechanic
from judge.engine.sources import MISTAKEN_RULES, cite
from judge.engine.state import CardInstance
from judge.langs import N_, NP_

if TYPE_CHECKING:
    from judge.engine.game import Game


@event_kind("guard")
class Guard(Event):
    """``player`` put the Guard card ``card`` into the trash against the LRIG attack of
    ``source``."""


MECHANICS = (
    Mechanic(id="guard", term="guard", source=cite(MISTAKEN_RULES, "guard"), keyword=False,
             events={"guard": N_("%(player)s guards by putting %(card)s into the trash.")},
             verbs={"guard": NP_("%(card)s goes from %(from)s to %(to)s to guard.",
                                 "%(card)s go from %(from)s to %(to)s to guard.")},
             choices={"guard": N_("Guard card")}),
)


def offer(game: Game, attacker: CardInstance, defender: str) -> CardInstance | None:
    """Let ``defender`` guard against the LRIG attack of ``attacker``; the Guard card they
    put into the trash, or None when they did not guard."""
    guards = [c.label for c in game.state.zone(defender, "hand") if c.card.guard]
    if not guards:
        return None
    picked = game.choose(defender, "guard", [*guards, "none"],
                         prompt="put a Guard card into the trash to guard?")
    if picked[0] == "none":
        return None
    card = game.card(picked[0])
    game.move(card, "trash", "game", "guard")
    game.emit(Guard, cause="game", player=defender, card=card.label,
              source=AbilityRef.of_card(attacker.label))
    return card
