"""Tallies: numbers of the game that are not a count of cards, which a condition compares and a
``for_each`` multiplies by (``tally = "virus"``).

Each tally is read for the players a condition's ``who`` names (summed for ``both``):

- ``virus``, ``gate``: the markers of that kind on the player's SIGNI zones
  (:mod:`judge.engine.mechanics.markers`; "for each virus on your opponent's field");
- ``registrations``: the player's registration count
  (:mod:`judge.engine.mechanics.registrations`; "while your registrations are 5 or more");
- ``wisdom``: the sum of the levels of the player's SIGNI with the keyword ``wisdom`` on the
  field (:mod:`judge.engine.mechanics.wisdom`; "英知=7"), at their levels now: derived.

A tally that reads what the layer of continuous effects computes is ``derived`` (refused in a
constant ability's condition and in the ``while`` of an effect, as a filter on power or level
is: :attr:`judge.engine.conditions.StateFilter.derived`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Final, NamedTuple

if TYPE_CHECKING:
    from judge.engine.game import Game


class Tally(NamedTuple):
    """One tally: what it counts (for the docs), whether it is derived, and how it is read
    for one player."""

    text: str
    derived: bool
    read: Callable[[Game, str], int]


def _markers(kind: str) -> Callable[[Game, str], int]:
    def read(game: Game, player: str) -> int:
        return len(game.state.players[player].markers.get(kind, ()))
    return read


def _registrations(game: Game, player: str) -> int:
    return game.state.players[player].registrations


def _wisdom(game: Game, player: str) -> int:
    return sum(game.level(c) for c in game.state.signi(player) if "wisdom" in game.keywords(c))


#: Every tally, by the name a ruling gives it.
TALLIES: Final[dict[str, Tally]] = {
    "virus": Tally("the viruses on the player's SIGNI zones", False, _markers("virus")),
    "gate": Tally("the gates on the player's SIGNI zones", False, _markers("gate")),
    "registrations": Tally("the player's registration count", False, _registrations),
    "wisdom": Tally("the total level of the player's wisdom SIGNI on the field", True,
                    _wisdom),
}


def measure(game: Game, tally: str, players: Iterable[str]) -> int:
    """The tally ``tally`` of ``players``, summed."""
    read = TALLIES[tally].read
    return sum(read(game, p) for p in players)
