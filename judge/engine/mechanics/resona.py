"""Resona (レゾナ, 共鸣精灵) summoning conditions: a Resona enters the field from the LRIG deck
when its level fits and its printed condition is met.

Rule: the ``summon`` action puts a Resona from its owner's LRIG deck onto the field in their
own main phase (**interpretation**: the sources name no other time): into the SIGNI zone or
the cheer zone ``zone`` names, or the first SIGNI zone free once the condition is paid. The
Resona's ``summon`` (``{ signi = N, class = "..." }``) is its condition: the player puts N of
their SIGNI on the field (of that class, when given), named in the step's ``cards``, into the
trash as it is summoned (verb ``summon_condition``), and the Resona enters (verb ``summon``).
Refused, with nothing moved: a Resona not in the LRIG deck (``not-in-lrig-deck``), a card
with no condition (``not-usable``), the wrong cards for the condition (``summon-condition``),
a level above the LRIG's, a total level over the limit once the condition's SIGNI have left,
or a limiting condition that does not match (``cannot-play``), no free zone (``zone-taken``,
``no-empty-zone``). A Resona is otherwise a SIGNI; it belongs to the LRIG deck only: anywhere
but the LRIG deck, the LRIG trash, a SIGNI zone and the cheer zone it returns to the LRIG
deck (rule processing kind 6), and its player cannot remove it (``remove``,
``cannot-remove``).

Date: the first dated source naming Resona is the 2020 glossary (rule processing kind 6); the
engine has them from the ``current`` rule set (:mod:`judge.engine.eras`).

Hook: :func:`summon`, the ``summon`` action (:data:`judge.engine.actions.HANDLERS`).

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 分身牌组: 共鸣精灵, and 特殊效果: 共鸣;
WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 6.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine.events import REASONS
from judge.engine.mechanics import Mechanic
from judge.engine.ops import field_problem
from judge.engine.sources import CHINESE_RULES, GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import CHEER, SIGNI_ZONES
from judge.errors import IllegalAction
from judge.langs import NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

#: Where a Resona's summoning condition takes its SIGNI from, and where it may go.
_FIELD: Final[tuple[str, ...]] = (*SIGNI_ZONES, CHEER)

MECHANICS: Final = (
    Mechanic(id="resona", term="resona", source=cite(CHINESE_RULES, "resona"), keyword=False,
             verbs={"summon": NP_("%(player)s summons the Resona %(card)s from %(from)s into "
                                  "%(to)s.",
                                  "%(player)s summons the Resona %(card)s from %(from)s into "
                                  "%(to)s."),
                    "summon_condition": NP_(
                        "For the summoning condition, %(card)s goes from %(from)s to %(to)s.",
                        "For the summoning condition, %(card)s go from %(from)s to %(to)s.")},
             since="2020", since_note=f"first named by {GLOSSARY_RULE_PROCESSING}, kind 6",
             card_types=("resona",)),
)


def summon(game: Game, label: str, cards: tuple[str, ...], zone: str | None) -> None:
    """The ``summon`` action (checked whole before anything moves)."""
    inst = game.card(label)
    player = inst.owner
    if inst.card.type != "resona" or inst.zone.zone != "lrig_deck":
        raise IllegalAction("not-in-lrig-deck", f"{label} is not a Resona in the LRIG deck")
    condition = inst.card.summon
    if condition is None:
        raise IllegalAction("not-usable", f"{label} has no summoning condition")
    state = game.state
    if state.turn_player != player or state.phase != "main":
        raise IllegalAction("not-main-phase", "a Resona is summoned in its player's own main "
                            "phase")
    paid = [game.card(c) for c in cards]
    for card in paid:
        if card.owner != player or card.zone.zone not in _FIELD or \
                card.card.type != "signi":
            raise IllegalAction("summon-condition", f"{card.label} is not a SIGNI on "
                                f"{player}'s field")
        if condition.card_class and card.card.card_class != condition.card_class:
            raise IllegalAction("summon-condition", f"{card.label} is not a "
                                f"<{condition.card_class}> SIGNI")
    if len(set(cards)) != condition.signi:
        what = f"<{condition.card_class}> SIGNI" if condition.card_class else "SIGNI"
        raise IllegalAction("summon-condition", f"{label} needs {condition.signi} {what} put "
                            f"into the trash, not {len(set(cards))}")
    free = [z for z in _FIELD
            if all(c in paid for c in state.zone(player, z))]
    if zone is None:
        zone = next((z for z in SIGNI_ZONES if z in free), None)
        if zone is None:
            raise IllegalAction("no-empty-zone", "no SIGNI zone is free for the Resona")
    elif zone not in free:
        raise IllegalAction("zone-taken", f"{player}.{zone} is taken")
    why = field_problem(game, inst, player, zone, leaving=tuple(paid))
    if why:
        raise IllegalAction("cannot-play", f"{label}: {REASONS[why]}")
    for card in paid:
        game.move(card, "trash", "cost", "summon_condition", source=None)
    game.move(inst, zone, "game", "summon")
    game.settle()
