"""Resistance limited to a kind of source: "cannot be banished by Spells", "by your
opponent's ARTS", "by SIGNI effects" (issue 30, family 5).

Rule: a ``cannot`` ``be_banished`` or ``be_trashed`` with ``by_kind`` (``signi``, ``lrig``,
``arts``, ``spell``, ``key``) resists only the effects of a card of that type; ``by`` may
still narrow it to the opponent's. The kind is the card type of the card whose effect it is:
a SIGNI's ability, and a SIGNI's Life Burst, are SIGNI effects (Chinese rules page, 卡牌的效果
处理及其他规则: a Life Burst is the effect of its card, a SIGNI's that of the SIGNI); a Resona
is a SIGNI (卡牌种类: otherwise the same as a SIGNI); an ARTS is no ability of the LRIG, so an
ARTS's effect is no LRIG effect (commonly mistaken rules, アーツ); a Spell's effect, a Key's
effect likewise by their card type. Battle and rule processing are no effects (mistaken rules,
バトル; the rule processing glossary), so a resistance to some kind of effect never stops them.
An effect of no card (a ruling's ``effect`` step without ``source``) is of no kind.

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 卡牌种类 and 卡牌的效果处理及其他规则;
WIXOSS TCG Wiki "間違えやすいルール" (pre-2014-09), アーツ and バトル. Rulings
``resistance-to-signi-effects-covers-a-signi-life-burst``,
``resistance-to-lrig-effects-does-not-cover-arts``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from judge.engine.game import Game
    from judge.engine.state import CardInstance

#: Card type -> the kind of source its effects are (``by_kind``); a type not listed is of no
#: kind (a Piece: the sources say nothing of resisting one).
KIND_OF_TYPE: Final = {"signi": "signi", "resona": "signi", "lrig": "lrig", "arts": "arts",
                       "spell": "spell", "key": "key"}


def kind_of(source: CardInstance | None) -> str:
    """The kind of source (``by_kind``) of an effect of ``source``; "" for none."""
    return "" if source is None else KIND_OF_TYPE.get(source.card.type, "")


def kind_now(game: Game) -> str:
    """The kind of source of the effect now resolving (the innermost); "" outside effects."""
    return kind_of(game.effect_sources[-1]) if game.effect_sources else ""
