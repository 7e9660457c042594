"""Who may look at a card: hidden information, as the position holds it.

Rule, by zone (a face-down card on the field is never shown to the opponent):

- the main deck and the life cloth: face down; nobody looks at them (the game's deck and life
  cloth are hidden from both players);
- the hand and the LRIG deck: their owner only (Chinese rules page, 分身牌组: the LRIG deck is
  not shown to the opponent, its owner may look at it at any time);
- a Charm, face down under a SIGNI: nobody, not even its owner (WIXOSS TCG Wiki
  "間違えやすいルール", チャーム: it cannot be turned over to look at whenever one likes);
- a Seed or a Trap, set face down on a SIGNI zone: its owner only (Chinese rules page, 种子
  and 陷阱: the opponent cannot look at it);
- any other card, face up (the field, the ener zone, the trashes, the check zone): everyone.

A card turned face up (a Seed that blooms, a revealed Trap, a Charm put into the trash) is
seen by everyone from then on.

Hook: :func:`sees`, read by :meth:`judge.engine.trace.Position.sees` (a ruling's
``expect.visible``) and by whatever draws a position for a reader who is one of the players.

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 分身牌组, 种子, 陷阱; WIXOSS TCG Wiki
"間違えやすいルール" (2014), チャーム.
"""

from __future__ import annotations

from typing import Final

#: Zones whose cards only their owner may look at.
OWNER_ONLY: Final = frozenset({"hand", "lrig_deck"})
#: Zones whose cards nobody looks at.
NOBODY: Final = frozenset({"deck", "life"})
#: Zones where a face-down card may be looked at by its owner (a Seed, a Trap).
SET_ZONES: Final = frozenset({"seed1", "seed2", "seed3", "trap1", "trap2", "trap3"})


def sees(viewer: str, owner: str, zone: str, face_down: bool) -> bool:
    """Whether ``viewer`` (``p1`` or ``p2``) may look at a card of ``owner`` in ``zone``.

    >>> sees("p2", "p1", "hand", False), sees("p1", "p1", "hand", False)
    (False, True)
    >>> sees("p1", "p1", "under2", True)  # a Charm: not even its owner
    False
    >>> sees("p1", "p1", "seed2", True), sees("p2", "p1", "seed2", True)
    (True, False)
    """
    if zone in NOBODY:
        return False
    if zone in OWNER_ONLY:
        return viewer == owner
    if face_down:
        return zone in SET_ZONES and viewer == owner
    return True
