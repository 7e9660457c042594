"""Conditions and card filters: "while you have 3 or more cards in your ener zone", "while this
SIGNI is in the centre SIGNI zone", "if you have two or more colours among your SIGNI", "a
<Weapon> SIGNI", "a red card".

A :class:`Filter` says which cards count (card type, SIGNI class, colour, cross state); a
:class:`Condition` is true or false in a position, seen from the player whose ability or
effect it belongs to. Conditions read zones, turns and cross states only, never power or
level, so that a constant ability's condition cannot depend on what constant abilities do
(:mod:`judge.engine.continuous` evaluates them before any value is changed).

Colours (Chinese wiki "WIXOSS/游戏规则", undated: 卡牌种类, 无色, 万花色): white, red, blue,
green and black are colours; colourless is not a colour, so a colourless card adds no colour
to a count and never matches a colour. A card with multi ener pays a cost as any colour, but
when an effect counts or names colours it has only its printed colours: the count reads
printed colours only. A card printed in two colours counts for both.

Used by constant abilities (``while``), durations of effects (``duration = "while"``),
operations that happen only under a condition (``if``) and targets (class, colour).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from judge.engine.classes import parse_class
from judge.engine.costs import ENER_COLOURS
from judge.engine.state import SIGNI_ZONES, UNDER_ZONES, other
from judge.errors import FieldError, unknown_field
from judge.ids import quote
from judge.limits import MAX_COUNT

if TYPE_CHECKING:
    from judge.engine.game import Game
    from judge.engine.state import CardInstance

#: The colours a card can have; ``colourless`` is not a colour (it never counts as one).
COLOURS: Final = tuple(c for c in ENER_COLOURS if c != "colourless")
#: Whose cards a condition counts: relative to the player the condition belongs to.
COND_WHO: Final = ("self", "opponent", "both")
#: The zones a condition may count cards in (``signi``: the three SIGNI zones).
COND_ZONES: Final = ("deck", "hand", "ener", "trash", "life", "lrig_trash", "lrig_deck", "signi")
#: Where the card whose ability it is may be required to be (``this_in``).
THIS_ZONES: Final = (*SIGNI_ZONES, "signi", "lrig", "ener", "trash", "hand")
TURNS: Final = ("own", "opponent")
COND_KEYS: Final = ("this_in", "who", "zone", "type", "class", "colour", "crossed", "at_least",
                    "at_most", "colours", "turn", "cross", "charm")


@dataclass(frozen=True, slots=True)
class Filter:
    """Which cards count: of a card type, of a SIGNI class, of a colour (``colourless``
    matches a card that has no colour), in a cross state. Empty fields match any card."""

    card_type: str | None = None
    card_class: str | None = None
    colour: str | None = None
    crossed: bool | None = None

    @property
    def empty(self) -> bool:
        return self.card_type is None and self.card_class is None and self.colour is None \
            and self.crossed is None

    def matches(self, inst: CardInstance, crossed: frozenset[str] = frozenset()) -> bool:
        card = inst.card
        if self.card_type is not None and card.type != self.card_type:
            return False
        if self.card_class is not None and card.card_class != self.card_class:
            return False
        if self.colour is not None:
            printed = printed_colours(inst)
            if self.colour == "colourless" and printed:
                return False
            if self.colour != "colourless" and self.colour not in printed:
                return False
        return self.crossed is None or (inst.label in crossed) == self.crossed


def has_charm(game: Game, signi: CardInstance) -> bool:
    """Whether the SIGNI ``signi`` is in a SIGNI zone with a Charm under it that belongs to it
    as the object it is now (Chinese wiki "WIXOSS/游戏规则", 魅饰: a card set face down under a
    SIGNI by an effect is its Charm).

    A Charm is the card the ``charm`` operation (or a set-up's ``charm =``) put there; what is
    under a SIGNI face up is not one."""
    under = UNDER_ZONES.get(signi.zone.zone)
    if under is None:
        return False
    held = (signi.label, signi.epoch)
    return any(c.attach == "charm" and game.attached_to.get(c.label) == held
               for c in game.state.zone(signi.zone.player, under))


def printed_colours(inst: CardInstance) -> tuple[str, ...]:
    """A card's colours when an effect names or counts them: its printed colours, without
    ``colourless`` (not a colour); multi ener adds none (Chinese wiki, 万花色)."""
    return tuple(c for c in inst.card.colour if c != "colourless")


@dataclass(frozen=True, slots=True)
class Condition:
    """True or false in a position, for the player ``controller`` whose ability or effect it
    is and the card ``source`` it belongs to. Every part given must hold:

    - ``this_in``: the source card is in one of these zones (``signi2`` is the centre SIGNI
      zone; ``signi`` any SIGNI zone; ``lrig`` the centre LRIG);
    - ``zone`` with ``at_least``/``at_most``: how many cards matching ``filter`` are in that
      zone of ``who`` (``self``, ``opponent`` or ``both``; ``signi``: on the field); with
      ``colours``, how many different colours those cards have instead;
    - ``turn``: it is the controller's own turn, or the opponent's;
    - ``cross``: the source card is in a cross state;
    - ``charm``: the source card is a SIGNI on the field with a Charm (【チャーム】の付いたシグニ,
      附着魅饰的精灵): a card put face down under it as its Charm by an effect and still
      belonging to it (:func:`has_charm`); a card under it face up (an Accessory, Rise
      material) is not one.
    """

    this_in: tuple[str, ...] = ()
    who: str = "self"
    zone: str = ""
    filter: Filter = Filter()
    at_least: int | None = None
    at_most: int | None = None
    colours: bool = False
    turn: str = ""
    cross: bool = False
    charm: bool = False

    def holds(self, game: Game, controller: str, source: CardInstance | None,
              crossed: frozenset[str] = frozenset()) -> bool:
        if self.this_in:
            if source is None:
                return False
            where = source.zone.zone
            if not (where in self.this_in or ("signi" in self.this_in and where in SIGNI_ZONES)
                    or ("lrig" in self.this_in and game.state.centre(source.owner) is source)):
                return False
            if where == "lrig" and "lrig" not in self.this_in:
                return False
        if self.turn:
            own = game.state.turn_player == controller
            if own != (self.turn == "own"):
                return False
        if self.cross and (source is None or source.label not in crossed):
            return False
        if self.charm and (source is None or not has_charm(game, source)):
            return False
        if self.zone:
            value = self.measure(game, controller, crossed)
            if self.at_least is not None and value < self.at_least:
                return False
            if self.at_most is not None and value > self.at_most:
                return False
        return True

    def measure(self, game: Game, controller: str, crossed: frozenset[str]) -> int:
        """The number the condition compares: cards, or their different colours."""
        players = (controller,) if self.who == "self" else (other(controller),) \
            if self.who == "opponent" else (controller, other(controller))
        state = game.state
        zones = SIGNI_ZONES if self.zone == "signi" else (self.zone,)
        cards = [c for p in players for z in zones for c in state.zone(p, z)]
        if not self.filter.empty:
            cards = [c for c in cards if self.filter.matches(c, crossed)]
        if self.colours:
            return len({colour for c in cards for colour in printed_colours(c)})
        return len(cards)


# ---------------------------------------------------------------- parsing


def _choice(value: Any, valid: tuple[str, ...], where: str) -> str:
    if value not in valid:
        raise FieldError(where, f"unknown value {quote(value)}", valid)
    return str(value)


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str) or not value or len(value) > 100:
        raise FieldError(where, f"expected a name of 1 to 100 characters, got {quote(value)}")
    return value


def _count(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_COUNT:
        raise FieldError(where, f"expected a whole number from 0 to {MAX_COUNT}, got "
                                f"{quote(value)}")
    return value


def parse_filter(raw: Mapping[str, Any], where: str, card_types: tuple[str, ...]) -> Filter:
    """The ``type``, ``class``, ``colour`` and ``crossed`` keys of a table (others ignored)."""
    crossed = raw.get("crossed")
    if crossed is not None and not isinstance(crossed, bool):
        raise FieldError(f"{where}.crossed", f"expected true or false, got {quote(crossed)}")
    return Filter(
        card_type=_choice(raw["type"], card_types, f"{where}.type") if "type" in raw else None,
        card_class=parse_class(raw["class"], f"{where}.class") if "class" in raw else None,
        colour=_choice(raw["colour"], (*COLOURS, "colourless"), f"{where}.colour")
        if "colour" in raw else None,
        crossed=crossed)


def parse_condition(raw: Any, where: str, card_types: tuple[str, ...]) -> Condition:
    """A condition table: ``{ zone = "ener", at_least = 3 }``, ``{ this_in = "signi2" }``,
    ``{ zone = "ener", colours = true, at_least = 2 }``, ``{ turn = "own" }``,
    ``{ cross = true }``; errors name the field and the valid choices."""
    if not isinstance(raw, dict):
        raise FieldError(where, f"expected a table such as {{ zone = \"ener\", at_least = 3 }}, "
                                f"got {quote(raw)}")
    for key in raw:
        if key not in COND_KEYS:
            raise unknown_field(where, key, COND_KEYS)
    if not raw:
        raise FieldError(where, "an empty condition (give this_in, zone, turn or cross)",
                         COND_KEYS)
    this_raw = raw.get("this_in", [])
    this_in = tuple(_choice(z, THIS_ZONES, f"{where}.this_in")
                    for z in (this_raw if isinstance(this_raw, list) else [this_raw]))
    zone = _choice(raw["zone"], COND_ZONES, f"{where}.zone") if "zone" in raw else ""
    at_least = _count(raw["at_least"], f"{where}.at_least") if "at_least" in raw else None
    at_most = _count(raw["at_most"], f"{where}.at_most") if "at_most" in raw else None
    colours = raw.get("colours", False)
    if not isinstance(colours, bool):
        raise FieldError(f"{where}.colours", f"expected true or false, got {quote(colours)}")
    cross = raw.get("cross", False)
    if not isinstance(cross, bool):
        raise FieldError(f"{where}.cross", f"expected true or false, got {quote(cross)}")
    charm = raw.get("charm", False)
    if not isinstance(charm, bool):
        raise FieldError(f"{where}.charm", f"expected true or false, got {quote(charm)}")
    counting = ("who", "type", "class", "colour", "crossed", "at_least", "at_most", "colours")
    if not zone:
        for key in counting:
            if key in raw:
                raise FieldError(f"{where}.{key}", "counts cards: give the zone they are in too",
                                 COND_ZONES)
    elif at_least is None and at_most is None:
        raise FieldError(f"{where}.at_least", "missing (a count needs at_least or at_most)")
    return Condition(
        this_in=this_in,
        who=_choice(raw.get("who", "self"), COND_WHO, f"{where}.who"),
        zone=zone, filter=parse_filter(raw, where, card_types), at_least=at_least,
        at_most=at_most, colours=colours,
        turn=_choice(raw["turn"], TURNS, f"{where}.turn") if "turn" in raw else "",
        cross=cross, charm=charm)
