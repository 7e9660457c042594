"""Kind 8, ``upper_limit``: more cards than a zone or a SIGNI may hold go to the trash.

Rule: a SIGNI zone holds one SIGNI, the Key zone one Key, and a SIGNI has at most one Accessory
(:mod:`judge.engine.mechanics.accessory`); with more, their player chooses the cards to put
into the trash until one is left (choice ``over_limit``; LRIG-deck cards go to the LRIG trash).
An effect in force may give a player's ener zone or hand an upper limit (``upper_limit``): with
more cards there, the player chooses the extra ones and puts them into the trash. Like every
kind, this is not checked in the middle of an effect: the zone may hold more until the effect
is over.

Sources: WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 8 and property 2
(kinds 2 and 8 involve a player's choice). **Interpretation**: one Accessory per SIGNI is the
upper limit the glossary's kind 8 speaks of.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import itemgetter
from typing import TYPE_CHECKING, Final

from judge.engine.placement import home_trash
from judge.engine.rule_processing.base import NOTHING, Kind, Proposal, Side, proposal
from judge.engine.sources import GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import UNDER_ZONES, CardInstance
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game

#: Upper limits: a SIGNI zone holds one SIGNI, the Key zone one Key (a SIGNI one Accessory);
#: a SIGNI zone's place for a Seed one Seed and for a Trap one Trap (a new one sends the old
#: one to the trash as it is set: mechanics/seed.py, trap.py), the cheer zone one SIGNI
#: (**interpretation**: the Chinese wiki speaks of "the" cheer SIGNI).
UPPER_LIMITS: Final = {"signi1": 1, "signi2": 1, "signi3": 1, "key": 1, "seed1": 1, "seed2": 1,
                       "seed3": 1, "trap1": 1, "trap2": 1, "trap3": 1, "cheer": 1}
#: The zones whose count this kind looks at first (the under zones for the Accessories).
_WATCHED: Final = (*UPPER_LIMITS, "under1", "under2", "under3")


_WATCHED_LISTS: Final = itemgetter(*_WATCHED)


def look(game: Game, side: Side) -> Sequence[Proposal]:
    if max(map(len, _WATCHED_LISTS(side.zones))) < 2 and not side.upper:
        return NOTHING
    return [proposal("upper_limit", card, home_trash(card.card))
            for card in over_limit(game, side.player)]


def lowered(game: Game, player: str) -> dict[str, int]:
    """The upper limits effects in force give ``player``'s zones (ener zone, hand)."""
    layer = game.layer()
    if layer is None or not layer.upper:
        return {}
    return {zone: n for (p, zone), n in layer.upper.items() if p == player}


def over_limit(game: Game, player: str) -> list[CardInstance]:
    """The cards over a zone's or an attachment's upper limit, as their player chooses."""
    out: list[CardInstance] = []
    groups: list[tuple[list[CardInstance], int]] = []
    for zone, cap in (*UPPER_LIMITS.items(), *lowered(game, player).items()):
        cards = game.state.zone(player, zone)
        if len(cards) > cap:
            groups.append((cards, cap))
    for signi_zone, under_zone in UNDER_ZONES.items():
        holder = game.state.zone(player, signi_zone)
        if not holder or len(game.state.zone(player, under_zone)) < 2:
            continue
        attached = [c for c in game.state.zone(player, under_zone)
                    if c.attach == "accessory"
                    and game.attached_to.get(c.label) == (holder[0].label, holder[0].epoch)]
        if len(attached) > 1:
            groups.append((attached, 1))
    for cards, cap in groups:
        labels = [c.label for c in cards]
        picked = game.choose(player, "over_limit", labels, min_count=len(cards) - cap,
                             max_count=len(cards) - cap,
                             prompt="which cards go to the trash for the upper limit")
        out.extend(game.card(label) for label in picked)
    return out


KIND: Final[Kind] = Kind(id="upper_limit", number=8, name=N_("more cards than a zone allows"),
            description=N_("When a zone or a SIGNI holds more cards than it may, its player "
                           "chooses the extra cards and puts them into the trash."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-8"), look=look, choice="over_limit")
