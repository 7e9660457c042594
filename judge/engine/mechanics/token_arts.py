"""Token ARTS (衍生必杀): an ARTS an effect makes, which is not a card and is gone after use.

Rule: the ``make_token`` operation makes the token ARTS its ``card`` names
(``"LABEL:card-id"``, a definition with ``type = "arts"`` and ``token = true``) in the LRIG
deck of the effect's controller, as a new object labelled LABEL (event ``token_made``). It is
used like any ARTS from the LRIG deck (timing, cost, limiting condition); after its effect it
does not go to the LRIG trash: it leaves the game (event ``token_gone``). A label already made
(the same operation run twice) makes nothing (``fizzle``, ``token-label-taken``). Since it was never
put into the LRIG deck when the deck was built, the deck rules (at most ten cards, one of a
name) do not count it, and an ARTS of the same name may be in the LRIG deck beside it.
**Interpretation**: a token is made in its controller's LRIG deck (the Chinese rules page
does not say where), and only its use makes it leave the game (no source says what other
moves do to it).

Date: only the undated Chinese rules page describes it; the engine has it from the
``current`` rule set (:mod:`judge.engine.eras`).

Hooks: :func:`make`, the ``make_token`` operation; :func:`vanish`, called by
:func:`judge.engine.actions.use` for a used token. The event kinds :class:`TokenMade` and
:class:`TokenGone` are declared here.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 卡牌的效果处理及其他规则: 衍生必杀.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from judge.engine import events as ev
from judge.engine.cards import Op
from judge.engine.events import AbilityRef, Event, event_kind
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import CardInstance, ZoneRef
from judge.errors import EngineError
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


@event_kind("token_made")
class TokenMade(Event):
    """An effect makes the token ARTS ``card`` in ``to_zone`` (its controller's LRIG deck)."""


@event_kind("token_gone")
class TokenGone(Event):
    """The token ARTS ``card`` has been used and leaves the game from ``from_zone``."""


MECHANICS = (
    Mechanic(id="token-arts", term="token-arts", source=cite(CHINESE_RULES, "craft-arts"),
             keyword=False,
             events={"token_made": N_("%(card)s is made as a craft ARTS in %(to)s."),
                     "token_gone": N_("The craft ARTS %(card)s has been used and leaves the "
                                      "game.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it",
             card_fields=("token",), ops=("make_token",)),
)


def make(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> None:
    """The ``make_token`` operation. The definition is looked up among the cards the
    ruling knows (:attr:`Game.token_defs`, given by the loader)."""
    label, _, card_id = op.card.partition(":")
    card = game.token_defs.get(card_id)
    if card is None:
        raise EngineError(f"no token ARTS {card_id!r} is known to this game")
    if label in game.state.cards or label in game.gone:
        # made once already (an ability used twice): each token of a ruling has its label
        game.emit(ev.Fizzle, cause="effect", player=controller, card=label, source=name,
                  reason="token-label-taken")
        return
    zone = ZoneRef.of(controller, "lrig_deck")
    inst = CardInstance(label, card, controller, zone, token=True)
    game.state.add(inst)
    game.emit(TokenMade, cause="effect", player=controller, card=label, to_zone=zone,
              source=name)


def vanish(game: Game, inst: CardInstance) -> None:
    """A used token ARTS leaves the game: it is in no zone any more, and no longer one of the
    game's cards (:attr:`Game.gone` keeps it, so that a step naming it is refused)."""
    where = inst.zone
    game.state.ref(where).remove(inst)
    del game.state.cards[inst.label]
    game.gone[inst.label] = inst
    inst.epoch += 1
    game.emit(TokenGone, cause="game", player=inst.owner, card=inst.label, from_zone=where)
