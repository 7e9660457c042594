"""Attacks, battle and damage.

Sources: WIXOSS TCG Wiki "間違えやすいルール" (シグニ, アタック宣言, バトル, ガード, クラッシュ,
ダブルクラッシュ, アサシン, 凍結) and the Chinese wiki "WIXOSS/游戏规则" (attack phase, 枪兵,
S枪兵, 暗杀, 双/三重击溃).

- A SIGNI attacks only the SIGNI in front of it; SIGNI zones are numbered across the table, so
  ``signiN`` faces the opponent's ``signiN``. A SIGNI in front always blocks, even when down.
- Declaring an attack downs the attacker; "when it attacks" abilities trigger then and resolve
  before the battle.
- Battle: the attacked SIGNI is banished (cause ``battle``) when its power is less than or
  equal to the attacker's; otherwise nothing happens. Damage does not accumulate.
- An unblocked SIGNI attack or a LRIG attack deals damage: crush one life cloth (more at once
  with a keyword whose ``crushes`` says so: Double and Triple Crush); with no life cloth, the
  attacker's player wins.
- A banish in battle fires the attacker's ``banishes_in_battle`` trigger (Lancer, S-Lancer).

The keywords that change an attack are declared in :mod:`judge.engine.mechanics`, each in its
own module with its rule: Lancer and S-Lancer (triggered abilities), Assassin (``unblocked``),
Double and Triple Crush (``crushes``), Guard (:func:`judge.engine.mechanics.guard.offer`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import bursts, mechanics, triggers
from judge.engine import events as ev
from judge.engine.events import AbilityRef
from judge.engine.mechanics import guard, heaven, trap
from judge.engine.ops import banish_card, deal_damage
from judge.engine.state import CardInstance, other

if TYPE_CHECKING:
    from judge.engine.game import Game


def in_front(game: Game, attacker: CardInstance) -> CardInstance | None:
    zone = game.state.zone(other(attacker.owner), attacker.zone.zone)
    return zone[0] if zone else None


def crush_count(game: Game, card: CardInstance) -> int:
    """How many life cloth the damage of an attack by ``card`` crushes (``crushes``)."""
    return mechanics.crush_count(game.keywords(card))


def damage_player(game: Game, defender: str, count: int, cause: str,
                  source: AbilityRef) -> None:
    """Damage: crush ``count`` life cloth at once; with none, the attacking player wins."""
    if not game.state.zone(defender, "life"):
        deal_damage(game, defender, cause, source)
        return
    for _ in range(count):
        if not bursts.crush(game, defender, cause, source):
            break


def attacks_left(game: Game, card: CardInstance) -> int | None:
    """How many more attacks ``card`` may declare this turn under an attack limit in force
    (``attack_limit``: the attacks it declared earlier in the turn count, those before the
    limit came into force included); None without a limit."""
    layer = game.layer()
    if layer is None or card.label not in layer.attack_limit:
        return None
    made = game.state.players[card.owner].attacks.get(card.label, 0)
    return layer.attack_limit[card.label] - made


def declare_attack(game: Game, attacker: CardInstance) -> bool:
    """Down the attacker and let "when it attacks" abilities, its own and those watching
    another SIGNI attack, trigger and resolve; whether the attack goes on (an effect of
    those abilities may negate it: ``negate_attack``)."""
    attacker.down = True
    if attacker.card.is_signi_like:  # counted for attack limits (attack_limit)
        made = game.state.players[attacker.owner].attacks
        made[attacker.label] = made.get(attacker.label, 0) + 1
    game.flags_changed()
    game.emit(ev.Attack, cause="game", player=attacker.owner, card=attacker.label,
              from_zone=attacker.zone)
    if attacker.card.is_signi_like:
        heaven.enter(game, attacker)  # before the "when it attacks" abilities trigger
    triggers.queue(game, attacker, ("attacks",))
    if attacker.card.is_signi_like:
        triggers.others(game, "signi_attacks", attacker)
    outer = game.attacking, game.negated
    game.attacking, game.negated = attacker, False
    try:
        game.settle()
        return not game.negated
    finally:
        game.attacking, game.negated = outer


def signi_attack(game: Game, attacker: CardInstance) -> None:
    if not declare_attack(game, attacker):
        game.settle()
        return  # negated: no battle, no damage
    if game.state.winner or not game.on_field(attacker) or \
            attacker.zone.player != game.state.turn_player:
        return  # the attacker left the field (or the turn ended): the attack ends
    unblocked = mechanics.unblocked(game.keywords(attacker))  # Assassin
    defender = None if unblocked else in_front(game, attacker)
    if defender is not None and defender.down and \
            "down-signi-does-not-block" in game.rules.broken:  # on purpose (judge.quiz)
        defender = None
    label = AbilityRef.of_card(attacker.label)  # the source of the battle and its damage
    if defender is None:
        if in_front(game, attacker) is None:  # an empty zone: its Trap may be revealed
            revealed = trap.spring(game, attacker, attacker.zone.zone)
            if revealed is not None:  # "when a Trap is revealed" (issue 30) waits for it
                triggers.others(game, "trap_revealed", revealed)
                trap.resolve(game, revealed)
            if game.state.winner or not game.on_field(attacker) or \
                    attacker.zone.player != game.state.turn_player:
                return
        damage_player(game, other(attacker.owner), crush_count(game, attacker), "battle", label)
        game.settle()
        return
    attack_power, defend_power = game.power(attacker), game.power(defender)
    # a SIGNI that cannot be banished is not, whatever the powers (card text over the rules)
    met = attack_power
    if "damage-accumulates" in game.rules.broken:  # broken on purpose (judge.quiz)
        key = (defender.label, game.state.turn)
        met = game.battle_damage[key] = game.battle_damage.get(key, 0) + attack_power
    tie_survives = "tie-not-banished" in game.rules.broken  # on purpose (judge.quiz)
    banished = (defend_power < met if tie_survives else defend_power <= met) and \
        not game.cannot(defender, "be_banished")
    game.emit(ev.Battle, cause="battle", player=attacker.owner, card=attacker.label,
              source=label, defender=defender.label, attack_power=attack_power,
              defend_power=defend_power, banished=banished)
    if banished:
        banish_card(game, defender, "battle", label)
        if not game.on_field(defender):  # banished (a replacement may have sent it elsewhere)
            triggers.queue(game, attacker, ("banishes_in_battle",))  # Lancer, S-Lancer, ...
    game.settle()


def lrig_attack(game: Game, lrig: CardInstance) -> None:
    if not declare_attack(game, lrig):
        game.settle()
        return  # negated: no Guard asked, no damage
    if game.state.winner or lrig.zone.zone != "lrig" or \
            lrig.owner != game.state.turn_player:
        return
    defender = other(lrig.owner)
    guarded = guard.offer(game, lrig, defender)
    if guarded is not None:
        triggers.others(game, "guard_used", guarded)  # "when you guard" (issue 30)
        game.settle()
        return
    damage_player(game, defender, crush_count(game, lrig), "battle",
                  AbilityRef.of_card(lrig.label))
    game.settle()
