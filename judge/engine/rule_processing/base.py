"""What every kind of rule processing is made of: its declaration (:class:`Kind`), the view of
one player's cards that the kinds share in one check (:class:`Side`), and the moves they
propose (:class:`Proposal`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple

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


_NONE: dict[str, int] = {}


def side(game: Game, player: str) -> Side:
    """``player``'s side as the kinds see it now (computed once per player and check)."""
    zones = game.state.players[player].zones
    signi = zones["signi1"] + zones["signi2"] + zones["signi3"] + zones["cheer"]
    layer = None if game.plain else game.layer()
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


#: What a kind that finds nothing returns.
NOTHING: tuple[Proposal, ...] = ()


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
