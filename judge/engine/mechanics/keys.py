"""Keys (キー, 钥匙): summoned from the LRIG deck, paid for with ener and BET coins.

Rule: in their own main phase a player may pay a Key's cost and put it from the LRIG deck into
their Key zone (the ``use`` action on a Key; verb ``key_summon``), as they use other LRIG-deck
cards. Its cost is its ``cost`` (ener, down, Exceed, discard) and, the Chinese rules page says a
Key is summoned with BET coins, its ``coins``: that many of the player's coins, paid with the
cost (event ``coins``, cause ``cost``); a player with too few coins cannot summon it
(``cannot-pay``). Its limiting condition must match the centre LRIG (``limiting``). A Key on
the field stays there and gives its effects: its constant abilities work from the Key zone and
its action abilities are used from there in its player's main phase (the main phase section
names Key effects among those used then), such as a Key that puts itself into the LRIG trash
for a further effect (``{ op = "trash", target = "this" }`` in its ability). Only one Key per
player fits the field: a second one makes rule processing kind 8 have its player put one into
the LRIG trash (rule-processing/second-key-in-key-zone). Effects on LRIGs do not affect Keys:
the Key zone is no LRIG zone and a Key is no LRIG, so no effect on "your LRIG" (the centre
LRIG, a target of type ``lrig``) reaches it.

**Interpretations**: summoning a Key is not a use of an ARTS or a Spell (no "when ... uses"
ability watches it, "cannot use" effects do not stop it); the coins are paid after the cost,
as a BET's are.

Date: only the undated Chinese rules page describes Keys (the Key Selection format) and their
coins; the engine has the summoning and the coins from the ``current`` rule set
(:mod:`judge.engine.eras`).

Hooks: :func:`summon`, called by :func:`judge.engine.actions.use` for a Key; the Key zone is
one of the places :func:`judge.engine.actions.activate` and
:func:`judge.engine.continuous.holders` look at.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 卡牌种类: 钥匙 (キー/Key); 游戏流程: 主要阶段.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.mechanics.bet import Coins
from judge.engine.payment import pay, problem
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import CardInstance
from judge.errors import IllegalAction
from judge.langs import NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS: Final = (
    Mechanic(id="key", term="key", source=cite(CHINESE_RULES, "card-types"), keyword=False,
             verbs={"key_summon": NP_("%(card)s is summoned from %(from)s into %(to)s.",
                                      "%(card)s are summoned from %(from)s into %(to)s.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes how a Key is "
             "summoned (Key Selection format)",
             card_fields=("coins",)),
)


def summon_problem(game: Game, inst: CardInstance) -> None:
    """Why the Key ``inst`` cannot be summoned now (IllegalAction), or nothing."""
    player, state = inst.owner, game.state
    if inst.zone.zone != "lrig_deck":
        raise IllegalAction("not-in-lrig-deck", f"{inst.label} is not in {player}'s LRIG deck")
    if state.turn_player != player or state.phase != "main":
        raise IllegalAction("not-main-phase", f"a Key is summoned only in its player's own "
                            f"main phase (now turn {state.turn} of {state.turn_player}, "
                            f"{state.phase} phase)")
    if inst.card.limiting and inst.card.limiting != game.lrig_type(player):
        raise IllegalAction("limiting", f"{inst.label} is limited to {inst.card.limiting}, "
                            f"the centre LRIG is {game.lrig_type(player)}")
    why = problem(game, player, inst.card.cost, None)
    if why:
        raise IllegalAction("cannot-pay", f"{inst.label}: {why}")
    have = state.players[player].coins
    if have < inst.card.coins:
        raise IllegalAction("cannot-pay", f"{inst.label} needs {inst.card.coins} coin(s), "
                            f"{player} has {have}")


def summon(game: Game, inst: CardInstance) -> None:
    """Summon the Key ``inst``: its cost, then its coins, then into the Key zone."""
    summon_problem(game, inst)
    player, name = inst.owner, AbilityRef.of_card(inst.label)
    pay(game, player, inst.card.cost, None, name)
    need = inst.card.coins
    if need:
        state = game.state.players[player]
        state.coins -= need
        game.emit(Coins, cause="cost", player=player, card=inst.label, source=name,
                  amount=-need, coins=state.coins)
    game.move(inst, "key", "game", "key_summon", source=name)
    game.settle()
