"""Where each type of card can be: the one table of legal placements.

The two decks of WIXOSS never mix (Chinese wiki "WIXOSS/游戏规则", card types and zones; the
mistaken rules page): SIGNI and Spells make the main deck and live in its zones (main deck,
hand, ener zone, trash, life cloth, check zone, under a SIGNI), LRIG, ARTS, Keys, Resona and
Pieces make the LRIG deck and leave it only for the LRIG trash or their own places on the
field. Each zone of the field holds one kind of card: SIGNI zones only SIGNI and Resona (a
Resona is played as a SIGNI), the LRIG zone and the assist LRIG zones only LRIG, the Key zone
only Keys.

:data:`HOMES` says where a card of each type may be between two actions: what a set-up may
lay out (the loader asks :func:`placement_problem`). :data:`PASSING` adds the zones a card
may only pass through while an action happens: a used ARTS waits in the check zone while its
cost is paid and its effect resolves (docs/rules-model.md, "One effect and its boundaries"); a
Resona or Key that an effect sends into another zone is taken out again by rule processing,
kind 6 (a Resona outside the LRIG deck, LRIG trash and SIGNI zones returns to the LRIG deck)
and kind 7 (a Key outside the LRIG deck, LRIG trash and Key zone goes to the LRIG trash),
WIXOSS glossary "ルール処理", 2020. Every move goes through :func:`judge.engine.game.Game.move`,
which refuses a move to a zone outside both (:data:`MOVABLE`) with an EngineError naming the
card, its type and the zone; operations choose their targets only among cards that may go
where they put them, and :func:`op_problem` finds an operation that names a card that may not
(the loader refuses such a ruling, and :func:`judge.engine.cards.parse_card` a card whose own
ability does so).

This module imports nothing of the engine at run time, so that :mod:`judge.engine.cards`
(which parses cards) and :mod:`judge.engine.state` (which names the zones) can both use it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Final

if TYPE_CHECKING:
    from judge.engine.cards import CardDef, Op

_SIGNI_ZONES: Final = ("signi1", "signi2", "signi3")
_UNDER_ZONES: Final = ("under1", "under2", "under3")
#: A Seed is a SIGNI set face down on a SIGNI zone (Chinese wiki, 种子; **interpretation**: only
#: a SIGNI, since a Seed blooms into one); a Trap, any main-deck card set face down there
#: (陷阱); the cheer zone holds a SIGNI (应援区) or a Resona (glossary kind 6 names it a home of
#: Resona).
_SEED_ZONES: Final = ("seed1", "seed2", "seed3")
_TRAP_ZONES: Final = ("trap1", "trap2", "trap3")
#: The zones of main-deck cards outside the field (under a SIGNI is on the field).
MAIN_DECK_ZONES: Final = ("deck", "hand", "ener", "trash", "life", "check")

#: Card type -> the zones where it may be between actions (and so in a set-up). A crushed card
#: may wait in the check zone for its Life Burst, so main-deck cards may be there.
HOMES: Final[dict[str, tuple[str, ...]]] = {
    "signi": (*MAIN_DECK_ZONES, *_SIGNI_ZONES, *_UNDER_ZONES, *_SEED_ZONES, *_TRAP_ZONES,
              "cheer"),
    "spell": (*MAIN_DECK_ZONES, *_UNDER_ZONES, *_TRAP_ZONES),
    "lrig": ("lrig_deck", "lrig_trash", "lrig", "assist1", "assist2"),
    "arts": ("lrig_deck", "lrig_trash"),
    "piece": ("lrig_deck", "lrig_trash"),
    "key": ("lrig_deck", "lrig_trash", "key"),
    "resona": ("lrig_deck", "lrig_trash", *_SIGNI_ZONES, "cheer"),
}

#: Card type -> the further zones a move may put it into, which it leaves within the action.
PASSING: Final[dict[str, tuple[str, ...]]] = {
    "arts": ("check",),  # while it is used
    "resona": (*MAIN_DECK_ZONES, *_UNDER_ZONES),  # rule processing kind 6 returns it
    "key": (*MAIN_DECK_ZONES, *_UNDER_ZONES),  # rule processing kind 7 trashes it
}

_ALL_ZONES: Final = tuple(dict.fromkeys(z for zones in HOMES.values() for z in zones))


def _by_zone(table: Mapping[str, tuple[str, ...]]) -> dict[str, frozenset[str]]:
    return {zone: frozenset(t for t, zones in table.items() if zone in zones)
            for zone in _ALL_ZONES}


#: Zone -> the card types that may rest there.
AT_REST: Final[dict[str, frozenset[str]]] = _by_zone(HOMES)
#: Zone -> the card types a move may put there (Game.move asks this on every move).
MOVABLE: Final[dict[str, frozenset[str]]] = {
    zone: AT_REST[zone] | _by_zone(PASSING)[zone] for zone in _ALL_ZONES}

#: The cards of each deck, as the deck checks of the set-up and of start_game read them.
MAIN_DECK_TYPES: Final = AT_REST["deck"]
LRIG_DECK_TYPES: Final = AT_REST["lrig_deck"]

#: The types in the order of CARD_TYPES, in the plural and one with its article.
_PLURAL: Final = {"lrig": "LRIG", "signi": "SIGNI", "arts": "ARTS", "spell": "Spells",
                  "key": "Keys", "resona": "Resona", "piece": "Pieces"}
_ONE: Final = {"signi": "a SIGNI", "spell": "a Spell", "lrig": "a LRIG", "arts": "an ARTS",
               "key": "a Key", "resona": "a Resona", "piece": "a Piece"}
_ZONE_TEXT: Final = {"deck": "the main deck", "hand": "the hand", "ener": "the ener zone",
                     "trash": "the trash", "life": "the life cloth", "check": "the check zone",
                     "lrig_deck": "the LRIG deck", "lrig_trash": "the LRIG trash",
                     "lrig": "the LRIG zone", "key": "the Key zone",
                     "assist1": "an assist LRIG zone", "assist2": "an assist LRIG zone",
                     **{z: "a SIGNI zone" for z in _SIGNI_ZONES},
                     **{z: "the cards under a SIGNI" for z in _UNDER_ZONES},
                     **{z: "a Seed's place on a SIGNI zone" for z in _SEED_ZONES},
                     **{z: "a Trap's place on a SIGNI zone" for z in _TRAP_ZONES},
                     "cheer": "the cheer zone"}


def _types(types: frozenset[str]) -> str:
    names = [_PLURAL[t] for t in _PLURAL if t in types]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]


def allowed(zone: str, moving: bool = True) -> str:
    """Who may be in ``zone``, for a message: ``only SIGNI and Resona can``."""
    text = f"only {_types(AT_REST[zone])} can"
    passing = MOVABLE[zone] - AT_REST[zone]
    if moving and passing:
        text += f", and {_types(passing)} in passing"
    return text


def zone_text(zone: str) -> str:
    return _ZONE_TEXT[zone]


def type_text(card_type: str) -> str:
    """``an ARTS``, ``a SIGNI``: one card of the type, for a message."""
    return _ONE[card_type]


def placement_problem(zone: str, card: CardDef) -> str | None:
    """Why ``card`` cannot be in ``zone`` at rest (in a set-up), or None."""
    if card.type in AT_REST[zone]:
        return None
    return f"cannot be in {_ZONE_TEXT[zone]} ({allowed(zone, moving=False)})"


def move_problem(zone: str, card: CardDef) -> str | None:
    """Why no move may put ``card`` into ``zone``, or None."""
    if card.type in MOVABLE[zone]:
        return None
    return f"cannot be put into {_ZONE_TEXT[zone]} ({allowed(zone)})"


def home_trash(card: CardDef) -> str:
    """Where a card that is trashed goes: LRIG-deck cards to the LRIG trash, others (and a
    Resona, which rule processing kind 6 then returns to the LRIG deck) to the trash."""
    return "lrig_trash" if card.type in ("lrig", "arts", "key", "piece") else "trash"


def destinations(op: Op) -> tuple[str, ...]:
    """The zones an operation puts its target cards into, when that does not depend on the
    game (``()`` for the others: ``trash`` goes to each card's own trash, ``banish`` acts on
    SIGNI on the field only, and so on)."""
    if op.name == "place":
        return ZONE_GROUPS.get(op.zone, (op.zone,))
    if op.name == "put_onto_field":
        return _SIGNI_ZONES
    if op.name == "set_seed":
        return _SEED_ZONES
    if op.name == "set_trap":
        return _TRAP_ZONES
    return _FIXED.get(op.name, ())


_FIXED: Final = {"to_hand": ("hand",), "to_ener": ("ener",), "to_deck": ("deck",)}
#: The words that stand for several zones (a target's or a ``place``'s ``zone``).
ZONE_GROUPS: Final[dict[str, tuple[str, ...]]] = {
    "signi": _SIGNI_ZONES, "field": _SIGNI_ZONES, "seed": _SEED_ZONES, "trap": _TRAP_ZONES}


def movable_into(zones: tuple[str, ...]) -> frozenset[str]:
    """The card types a move may put into every one of ``zones`` (all types for none)."""
    return frozenset(_PLURAL).intersection(*(MOVABLE[z] for z in zones))


def op_problem(op: Op, cards: Mapping[str, CardDef] | Callable[[str], CardDef | None],
               source: CardDef | None = None) -> str | None:
    """Why ``op`` would put a card it names where that card cannot be, or None.

    ``cards`` gives the card of each label (a mapping or a function; a label it does not know
    is not checked); ``source`` is the card that ``"this"`` stands for (an ability's own card,
    an effect step's source), when known. An attached card (``attach``) must be able to go
    under a SIGNI."""
    card_of = cards.get if isinstance(cards, Mapping) else cards
    named: list[tuple[str, CardDef | None, tuple[str, ...]]] = []
    zones = destinations(op)
    if zones and op.target is not None:
        if op.target.this:
            named.append(("this card", source, zones))
        named.extend((label, card_of(label), zones) for label in op.target.labels)
    if op.name == "attach" and op.card:
        named.append((op.card, card_of(op.card), _UNDER_ZONES))
    for who, card, where in named:
        if card is None:
            continue
        for zone in where:
            if card.type not in MOVABLE[zone]:
                return (f"{who} ({_ONE[card.type]}) cannot be put into {_ZONE_TEXT[zone]} "
                        f"({allowed(zone)})")
    return None
