"""The cheer zone (チアゾーン, 应援区): a place on the field for one SIGNI outside the three
SIGNI zones.

Rule: a SIGNI is played into the cheer zone with ``play`` and ``zone = "cheer"`` (its level
must not be above the LRIG's, its limiting condition must match, the zone must be empty); its
level does not count towards the limit, neither when it is played nor for rule processing
kind 2, though a level above the LRIG's still sends it to the trash. It is a SIGNI on the field
(it is upped in the up phase, rule processing kind 1 banishes it at power 0, effects that act
on SIGNI on the field reach it by name or with ``zone = "cheer"``). In the SIGNI attack step it
may attack the SIGNI of any of the opponent's three SIGNI zones (``attack`` with ``zone``), and
a battle follows as usual; it cannot attack a zone with no SIGNI, so it never deals damage. No
SIGNI can attack it: a SIGNI attacks the zone in front of it, and the cheer zone is in front
of none. A Resona may be in the cheer zone too (the 2020 glossary, kind 6, counts it among the
Resona's places). **Interpretation**: the zone holds one SIGNI (the Chinese rules page speaks
of "the" cheer SIGNI); abilities its battle triggers (Lancer, ...) resolve as printed.

Date: the first dated source naming it is the 2020 glossary (rule processing kind 6); the
engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: :func:`attack_problem` and :func:`attack`, called by :func:`judge.engine.actions.attack`
for a SIGNI in the cheer zone; the zone ``cheer`` (:data:`judge.engine.state.CHEER`), read by
the limit checks (:func:`judge.engine.ops.field_problem`,
:mod:`judge.engine.rule_processing.excess`).

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 主要阶段 and 攻击阶段 (应援区, 应援精灵);
WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 6.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import battle, triggers
from judge.engine import events as ev
from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.ops import banish_card
from judge.engine.sources import CHINESE_RULES, GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import CHEER, SIGNI_ZONES, CardInstance, other

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS: Final = (
    Mechanic(id="cheer-zone", term="cheer-zone", source=cite(CHINESE_RULES, "main-phase"),
             keyword=False,
             since="2020", since_note=f"first named by {GLOSSARY_RULE_PROCESSING}, kind 6",
             zones=(CHEER,)),
)


def attack_problem(game: Game, attacker: CardInstance, zone: str | None) -> str | None:
    """Why the cheer SIGNI ``attacker`` cannot attack the SIGNI in the opponent's ``zone``."""
    if zone not in SIGNI_ZONES:
        return "a SIGNI in the cheer zone attacks the SIGNI of a SIGNI zone it names " \
               "(zone = \"signi1\" ... \"signi3\")"
    if not game.state.zone(other(attacker.owner), zone):
        return f"{other(attacker.owner)}.{zone} holds no SIGNI: a SIGNI in the cheer zone " \
               "attacks only a SIGNI and never deals damage"
    return None


def attack(game: Game, attacker: CardInstance, zone: str) -> None:
    """The cheer SIGNI ``attacker`` attacks the SIGNI in the opponent's ``zone``."""
    if not battle.declare_attack(game, attacker):
        return  # negated: no battle
    if game.state.winner or attacker.zone.zone != CHEER or \
            attacker.owner != game.state.turn_player:
        return
    cards = game.state.zone(other(attacker.owner), zone)
    if not cards:
        return  # the SIGNI left before the battle: the attack ends, with no damage
    defender = cards[0]
    label = AbilityRef.of_card(attacker.label)
    attack_power, defend_power = game.power(attacker), game.power(defender)
    banished = defend_power <= attack_power
    game.emit(ev.Battle, cause="battle", player=attacker.owner, card=attacker.label,
              source=label, defender=defender.label, attack_power=attack_power,
              defend_power=defend_power, banished=banished)
    if banished:
        banish_card(game, defender, "battle", label)
        if not game.on_field(defender):
            triggers.queue(game, attacker, ("banishes_in_battle",))  # Lancer, S-Lancer, ...
    game.settle()
