"""BET (赌币): coins a player may bet on an ARTS for its stronger effect.

Rule: each player has a number of coins (``setup.coins``; the ``coins`` operation gives or
takes them, never below 0). An ARTS whose definition has ``bet = { coins = N, effect = [...] }``
may, when its player uses it, be paid N coins more; the player chooses (kind ``use``, about
``A#bet``), and is asked only when they have N coins. With the coins paid the ARTS resolves
its ``bet`` effect instead of its ``effect``; without, its ``effect``. Coins are not ener:
nothing else pays a BET. The Chinese rules page says the coins are paid "when the effect is
processed"; the engine asks right after the ARTS's own cost, before its targets, as one part
of its use (**interpretation**), and before a recollect cost.

Date: only the undated Chinese rules page describes it (with the Keys of the Key Selection
format, which coins summon); the engine has it from the ``current`` rule set
(:mod:`judge.engine.eras`).

Paying the coins fires ``coins_paid`` for the cards on the field that watch it (issue 30,
family 3, from :mod:`judge.engine.using`; ``whose``: whose ARTS); coins lost to the
``coins`` operation are no payment.
**Interpretation**: the abilities wait until the ARTS has resolved, as for any use.

Hooks: :func:`offer`, called by :func:`judge.engine.actions.use` after the cost is paid;
:func:`gain`, the ``coins`` operation. Coins changing hands are logged as the event kind this
module declares, :class:`Coins` (type ``coins``).

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 卡牌的效果处理及其他规则: 赌币(BET); 钥匙.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine.cards import Op
from judge.engine.events import AbilityRef, Event, event_kind
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import CardInstance
from judge.engine.targets import players_for
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


@event_kind("coins")
class Coins(Event):
    """``player``'s coins change by ``amount`` (a BET pays them, cause ``cost``; the
    ``coins`` operation gives or takes them); ``coins`` is how many they have now."""

    amount: int
    coins: int


MECHANICS = (
    Mechanic(id="bet", term="bet", source=cite(CHINESE_RULES, "bet"), keyword=False,
             events={"coins": N_("The coins of %(player)s are now %(coins)s.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it",
             card_fields=("bet",), ops=("coins",)),
)


def offer(game: Game, inst: CardInstance) -> bool:
    """Let the player of the ARTS ``inst`` bet its coins now; whether they did."""
    player, need = inst.owner, inst.card.bet
    have = game.state.players[player].coins
    if not need or have < need:
        return False
    name = AbilityRef.keyword_ability(inst.label, "bet")
    if not game.yes_no(player, "use", f"bet {need} coin(s)?", about=name):
        return False
    game.state.players[player].coins = have - need
    game.emit(Coins, cause="cost", player=player, card=inst.label, source=name,
              amount=-need, coins=have - need)
    return True


def gain(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> None:
    """The ``coins`` operation: ``who`` gains ``amount`` coins (loses, when negative; never
    below 0)."""
    for player in players_for(op.who, controller):
        state = game.state.players[player]
        new = max(0, state.coins + op.amount)
        change, state.coins = new - state.coins, new
        game.emit(Coins, cause="effect", player=player, source=name, amount=change,
                  coins=new)
