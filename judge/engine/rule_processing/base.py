"""What every kind of rule processing is made of: its declaration (:class:`Kind`), the view of
one player's cards that the kinds share in one check (:class:`Side`), and the moves they
propose (:class:`Proposal`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from operator import itemgetter
from typing import TYPE_CHECKING, Final, NamedTuple

from judge.engine.state import CardInstance

if TYPE_CHECKING:
    from judge.engine.game import Game


@dataclass(slots=True)
class Proposal:
    """A card that a kind would move, where to, and for whom (``player``'s zone)."""

    kind: str
    card: CardInstance
    zone: str
    player: str
    epoch: int
    banish: bool = False

    @property
    def place(self) -> tuple[str, str]:
        return (self.player, self.zone)


def proposal(kind: str, card: CardInstance, zone: str, banish: bool = False) -> Proposal:
    """``card`` to its owner's ``zone``, as the card is now."""
    return Proposal(kind, card, zone, card.owner, card.epoch, banish)


class Side(NamedTuple):
    """One player's cards as every kind sees them in one check (computed once per check, in
    :func:`side`)."""

    player: str
    zones: dict[str, list[CardInstance]]
    signi: list[CardInstance]
    powers: list[int]
    levels: list[int]
    lrig_type: str | None
    #: the Resona and Keys of the whole game (kinds 6 and 7 look at those of ``player``)
    special: list[CardInstance]
    #: the upper limits effects in force give this player's zones (kind 8)
    upper: dict[str, int]


_NONE: Final[dict[str, int]] = {}


def side(game: Game, player: str) -> Side:
    """``player``'s side as the kinds see it now (computed once per player and check)."""
    zones = game.state.players[player].zones
    signi = zones["signi1"] + zones["signi2"] + zones["signi3"] + zones["cheer"]
    layer = game.layer()
    known = layer.by_player.get(player) if layer is not None else None
    if known is not None and known[0] == signi:
        powers, levels = known[1], known[2]  # what Game.field_stats would return
    else:
        powers, levels = game.field_stats(signi)
    upper = {zone: n for (p, zone), n in layer.upper.items() if p == player} \
        if layer is not None and layer.upper else _NONE
    centre = zones["lrig"]
    return Side(player, zones, signi, powers, levels,
                centre[-1].card.lrig_type if centre else None, game.special_cards(), upper)


#: Zones that hold nothing in the usual case: the zones under the SIGNI (kind 3, and kind 8's
#: Accessories) and the assist LRIG zones (kind 10). quiet tests them one by one (cheaper than
#: an itemgetter and any()).
EMPTY_AS_A_RULE: Final = ("under1", "under2", "under3", "assist1", "assist2")
#: Zones of at most one card each as long as kind 8 finds nothing.
_AT_MOST_ONE: Final = itemgetter("signi1", "signi2", "signi3", "key", "seed1", "seed2", "seed3",
                                 "trap1", "trap2", "trap3", "cheer")


def quiet(game: Game, player: str) -> bool:
    """Whether no kind can apply to ``player``'s cards now: True only when every kind's
    ``look`` would return nothing for them (a False means "look": the looks decide).

    A check usually finds nothing, and this tells so in one pass, without making the
    :class:`Side` or calling the looks: each test is the first test of a kind's look, or a
    stricter one (anything under a SIGNI or in an assist LRIG zone, a Resona or Key anywhere
    in the game, an upper limit in force, a card with a limiting condition on the field: look).
    Like the looks it reads the derived values of :func:`side` and nothing else, and it
    changes nothing, so the looks that follow a False see what they would have seen without
    it. A new kind must add its own usual case here (``tests/test_engine_rules.py`` checks,
    in random games, that a quiet side is one where every look finds nothing)."""
    zones = game.state.players[player].zones
    # any of EMPTY_AS_A_RULE, spelt out: the first test of every check
    if zones["under1"] or zones["under2"] or zones["under3"] or zones["assist1"] or \
            zones["assist2"] or game.special_cards():
        return False  # kinds 3, 6, 7, 8 (Accessories), 10
    if max(map(len, _AT_MOST_ONE(zones))) > 1:
        return False  # kind 8
    check = zones["check"]
    if check and any(c.crushed and c.burst != "pending" for c in check):
        return False  # kind 4
    key = zones["key"]
    if key and key[0].card.limiting:
        return False  # kind 9
    signi = zones["signi1"] + zones["signi2"] + zones["signi3"] + zones["cheer"]
    layer = game.layer()
    if layer is not None and layer.upper:
        return False  # kind 8: an upper limit in force
    if not signi:
        return True
    for card in signi:
        if card.card.limiting:
            return False  # kind 9
    # what game.field_stats(signi) and game.limit(player) return, from the layer just read
    if layer is None:
        powers, levels = game.summed_stats(signi)
    else:
        known = layer.by_player.get(player)
        if known is not None and known[0] == signi:
            powers, levels = known[1], known[2]
        else:
            powers, levels = game.field_stats(signi)
    if min(powers) <= 0:
        return False  # kind 1
    stack = zones["lrig"]
    if max(levels) > (stack[-1].card.level or 0 if stack else 0):
        return False  # kind 2: a level
    cheer = zones["cheer"]  # counts for the level, not for the limit (listed last)
    return sum(levels[:len(levels) - len(cheer)] if cheer else levels) <= \
        game.limit_in(player, layer)


#: What a kind that finds nothing returns.
NOTHING: Final[tuple[Proposal, ...]] = ()


def out_of_home(side: Side, kind: str, card_type: str, homes: tuple[str, ...],
                to: str) -> Sequence[Proposal]:
    """Kinds 6 and 7: ``side``'s cards of ``card_type`` outside ``homes`` go to its ``to``."""
    if not side.special:
        return NOTHING
    return [proposal(kind, card, to) for card in side.special
            if card.zone.player == side.player and card.card.type == card_type
            and card.zone.zone not in homes]


#: What a kind looks at: the game and one player's side; it returns the moves it proposes.
Look = Callable[["Game", Side], Sequence[Proposal]]


@dataclass(frozen=True)
class Kind:
    """One kind of rule processing, as its module declares it.

    ``id`` is its name in events (``rule_check`` kinds, the verb of its moves) and in choices
    (``rule_order``); ``number`` is the glossary's numbering; ``name`` and ``description`` are
    message ids (narration names the kind with ``name``; the site's processing page shows both);
    ``term`` is its glossary term, if it has one (coverage maps the kind and the moves it makes
    to it; the site links to it); ``choice`` is the choice kind it may ask; ``source`` cites
    the rule (title and date), which the module's docstring states. ``look`` proposes the moves
    for one player; the refresh (kind 5) has none: it is looked at for both players at once.
    """

    id: str
    number: int
    name: str
    description: str
    source: str
    look: Look | None
    term: str | None = None
    choice: str | None = None
