"""Heaven (ヘブン, 天堂): a crossed SIGNI that attacks while every SIGNI crossed with it is down
enters the heaven state, and so do they; they stay crossed.

Rule: when a SIGNI in a cross state attacks (on the declaration, once it is downed) and every
SIGNI crossed with it is down, it and those SIGNI enter the heaven state (event ``heaven``, one
a SIGNI). Their cross state is unchanged: heaven is a state of its own beside it. A filter
reads it with ``heaven = true`` (a target, a counting condition, ``this_is``: "if this SIGNI is
in heaven"). **Interpretation**: the check is made at the declaration, before the "when it
attacks" abilities trigger, so that those abilities see the state; a SIGNI in heaven stays so
while it is on the field (it leaves it as a new object, like any state of a card), since the
source names no end.

Not in the sources, so not modelled: what heaven does by itself (every consequence is a card's
text reading it), whether it ends at the end of the turn or when the cross state ends, and
whether a LRIG's attack or a cross of three SIGNI differ.

Date: the Chinese rules page describes it without a format or a date; since it follows cross
(a mechanic of the later sets), the engine has it from the ``current`` rule set
(:mod:`judge.engine.eras`), like the page's other later mechanics (**interpretation**).

Hooks: :func:`enter`, called by :func:`judge.engine.battle.declare_attack`; the state
:attr:`judge.engine.state.GameState.heaven` (label and epoch: a card that moves is a new
object), read by :func:`judge.engine.conditions.in_heaven`; the event kind :class:`Heaven`.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 天堂（ヘブン）; WIXOSS TCG Wiki
"間違えやすいルール" (undated), クロス.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine.conditions import named
from judge.engine.events import Event, event_kind
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import SIGNI_ZONES, CardInstance
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


@event_kind("heaven")
class Heaven(Event):
    """The SIGNI ``card`` of ``player`` enters the heaven state (a SIGNI crossed with it, or
    it, attacked while the others were down); it stays crossed."""


MECHANICS: Final = (
    Mechanic(id="heaven", term="heaven", source=cite(CHINESE_RULES, "heaven"), keyword=False,
             events={"heaven": N_("%(card)s enters the heaven state; it stays crossed.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it (with "
             "cross)"),
)


def _points_at(card: CardInstance, other: CardInstance, toward: str,
               lost: dict[str, int]) -> bool:
    """Whether ``card``'s cross condition, not lost, names ``other`` on the side ``toward``."""
    cross = card.card.cross
    return cross is not None and card.label not in lost and cross[1] == toward and \
        named(other.card, cross[0])


def partners(game: Game, signi: CardInstance) -> list[CardInstance]:
    """The SIGNI crossed with ``signi``: those beside it whose cross condition, or its own,
    names the other on that side (003, クロス), while the layer has both crossed."""
    layer = game.layer()
    if layer is None or signi.label not in layer.crossed or signi.zone.zone not in SIGNI_ZONES:
        return []
    zones = [game.state.zone(signi.owner, z) for z in SIGNI_ZONES]
    i = SIGNI_ZONES.index(signi.zone.zone)
    out = []
    for j, toward, back in ((i - 1, "left", "right"), (i + 1, "right", "left")):
        if 0 <= j < len(zones) and zones[j] and zones[j][0].label in layer.crossed:
            other = zones[j][0]
            if _points_at(signi, other, toward, layer.lost) or \
                    _points_at(other, signi, back, layer.lost):
                out.append(other)
    return out


def enter(game: Game, attacker: CardInstance) -> None:
    """A SIGNI attacks: if it is crossed and every SIGNI crossed with it is down, it and they
    enter the heaven state."""
    crossed = partners(game, attacker)
    if not crossed or not all(c.down for c in crossed):
        return
    for card in (attacker, *crossed):
        key = (card.label, card.epoch)
        if key in game.state.heaven:
            continue
        game.state.heaven.add(key)
        game.state.changes += 1
        game.emit(Heaven, cause="game", player=card.owner, card=card.label)
