"""Virus (ウィルス, 病毒): a marker set on the opponent's SIGNI zones; effects and costs remove it.

Rule: an effect sets a virus on one of its opponent's main SIGNI zones (``set_virus``). A
virus is no card: it is a marker on the zone (:mod:`.markers`), and each main SIGNI zone holds
at most one, so a zone with a virus takes no second one (``fizzle``, ``marker-present``). It
stays on the zone while SIGNI come and go, until an effect removes it (``remove_virus``) or a
cost does (the cost part ``remove_virus = N``, :mod:`judge.engine.costs`: payable only while
the opponent's zones hold N viruses; its player chooses which, and they are removed with the
rest of the cost, cause ``cost``). Cards read it: "a
SIGNI on a zone with a virus" (the filter key ``on_marker = "virus"``) and "for each virus" (the
``tally = "virus"`` of a condition or a ``for_each`` count, :mod:`judge.engine.tallies`).
**Interpretation**: the player who removes a virus chooses which when the effect does not say
(the source says only that a cost or an effect removes it); ``remove_virus`` acts on the
opponent's zones unless its ``who`` says otherwise, since that is where viruses are set.

Not in the sources, so not modelled: what a virus does by itself (the page names none: every
consequence is a card's text reading it), whether it leaves when the game moves a zone's SIGNI
(it does not here: it is on the zone), and what "infected" cards of later sets say.

Date: the Chinese rules page lists it among every format's mechanics (全环境) without a date;
the engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: the ``set_virus`` and ``remove_virus`` operations (:data:`judge.engine.ops.OPERATIONS`),
:func:`removable` and :func:`pay`, called by :mod:`judge.engine.payment` for the cost part,
the ``virus_set`` and ``virus_removed`` events.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 病毒（ウィルス）.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine.events import AbilityRef, Event, event_kind
from judge.engine.mechanics import Mechanic
from judge.engine.mechanics.markers import change, operation
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import SIGNI_ZONES, ZoneRef, other
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


@event_kind("virus_set")
class VirusSet(Event):
    """A virus is set on ``to_zone``, a SIGNI zone of ``player`` (by an effect)."""


@event_kind("virus_removed")
class VirusRemoved(Event):
    """The virus on ``from_zone``, a SIGNI zone of ``player``, is removed (by an effect, or
    paid as a cost: ``cause``)."""


MECHANICS: Final = (
    Mechanic(id="virus", term="virus", source=cite(CHINESE_RULES, "virus"), keyword=False,
             events={"virus_set": N_("A virus is set on %(to)s."),
                     "virus_removed": N_("The virus on %(from)s is removed.")},
             cost_parts={"remove_virus": N_("remove viruses (%(count)s)")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it (every "
             "format)", ops=("set_virus", "remove_virus")),
)

set_virus: Final = operation("virus", True, VirusSet)
remove_virus: Final = operation("virus", False, VirusRemoved)


def removable(game: Game, player: str) -> list[str]:
    """The SIGNI zones of ``player``'s opponent that hold a virus: what a cost of ``player``
    may remove."""
    held = game.state.players[other(player)].markers.get("virus", set())
    return [z for z in SIGNI_ZONES if z in held]


def pay(game: Game, player: str, count: int, name: AbilityRef) -> None:
    """The cost part ``remove_virus``: ``player`` removes ``count`` viruses from the
    opponent's SIGNI zones, choosing which (checked payable before)."""
    opponent = other(player)
    zones = removable(game, player)
    for zone in game.choose(player, "zone", zones, count, count, about=name,
                            prompt=f"which viruses of {opponent} to remove"):
        change(game, opponent, zone, "virus", False)
        game.emit(VirusRemoved, cause="cost", player=opponent, source=name,
                  from_zone=ZoneRef.of(opponent, zone))
