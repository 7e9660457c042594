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
- An unblocked SIGNI attack or a LRIG attack deals damage: crush one life cloth (two or three
  at once with Double or Triple Crush); with no life cloth, the attacker's player wins.
- Lancer: a triggered ability, "when this SIGNI banishes a SIGNI in battle, crush one of the
  opponent's life cloth" (never damage); S-Lancer: the same, but with no life cloth it deals
  damage (``KEYWORD_ABILITIES`` in cards.py). They wait with the other triggered abilities
  and resolve after the banish's rule processing, the turn player's first. Assassin: attacks
  as if no SIGNI were in front.
- Guard: only against a LRIG attack, the defender may put a Guard card from the hand into the
  trash (whatever their LRIG's level) and take no damage.
"""

from __future__ import annotations

from judge.engine.game import Game
from judge.engine.ops import banish_card, deal_damage
from judge.engine.state import CardInstance, other


def in_front(game: Game, attacker: CardInstance) -> CardInstance | None:
    zone = game.state.zone(other(attacker.owner), attacker.zone.zone)
    return zone[0] if zone else None


def crush_count(game: Game, card: CardInstance) -> int:
    keywords = game.keywords(card)
    if "triple-crush" in keywords:
        return 3
    if "double-crush" in keywords:
        return 2
    return 1


def damage_player(game: Game, defender: str, count: int, cause: str, source: str) -> None:
    """Damage: crush ``count`` life cloth at once; with none, the attacking player wins."""
    if not game.state.zone(defender, "life"):
        deal_damage(game, defender, cause, source)
        return
    for _ in range(count):
        if not game.crush(defender, cause, source):
            break


def declare_attack(game: Game, attacker: CardInstance) -> None:
    """Down the attacker and let "when it attacks" abilities trigger and resolve."""
    attacker.down = True
    game.emit("attack", "game", player=attacker.owner, card=attacker,
              from_zone=attacker.zone)
    game.queue_triggers(attacker, ["attacks"])
    game.settle()


def signi_attack(game: Game, attacker: CardInstance) -> None:
    declare_attack(game, attacker)
    if game.state.winner or not game.on_field(attacker) or \
            attacker.zone.player != game.state.turn_player:
        return  # the attacker left the field (or the turn ended): the attack ends
    defender = None if "assassin" in game.keywords(attacker) else in_front(game, attacker)
    label = attacker.label
    if defender is None:
        damage_player(game, other(attacker.owner), crush_count(game, attacker), "battle", label)
        game.settle()
        return
    attack_power, defend_power = game.power(attacker), game.power(defender)
    banished = defend_power <= attack_power
    game.emit("battle", "battle", player=attacker.owner, card=attacker, source=label,
              defender=defender.label, attack_power=attack_power,
              defend_power=defend_power, banished=banished)
    if banished:
        banish_card(game, defender, "battle", label)
        if not game.on_field(defender):  # banished (a replacement may have sent it elsewhere)
            game.queue_triggers(attacker, ["banishes_in_battle"])  # Lancer, S-Lancer, ...
    game.settle()


def lrig_attack(game: Game, lrig: CardInstance) -> None:
    declare_attack(game, lrig)
    if game.state.winner or lrig.zone.zone != "lrig" or \
            lrig.owner != game.state.turn_player:
        return
    defender = other(lrig.owner)
    guards = [c.label for c in game.state.zone(defender, "hand") if c.card.guard]
    if guards:
        picked = game.choose(defender, "guard", [*guards, "none"],
                             prompt="put a Guard card into the trash to guard?")
        if picked[0] != "none":
            game.move(game.card(picked[0]), "trash", "game", "guard")
            game.emit("guard", "game", player=defender, card=game.card(picked[0]),
                      source=lrig.label)
            game.settle()
            return
    damage_player(game, defender, crush_count(game, lrig), "battle", lrig.label)
    game.settle()
