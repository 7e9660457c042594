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

A filter may also read a card's state now (issue 30, :class:`StateFilter`): its power or
level against a number, against the power (level) of the card the ability comes from
(``this``) or of the card whose event triggered it (``trigger``); whether it is down or
frozen (Chinese wiki, 竖置阶段, 冻结; 003, 凍結); whether it has a Charm or an Accessory
(Chinese wiki, 魅饰, 附属); whether it has any ability; its name; whether it shares a colour
with its controller's centre LRIG (colourless is no colour: Chinese wiki, 无色). A condition
may say that every SIGNI counted shares a class (``same_class``), or what the card it belongs
to is now (``this_is``). Power, level and abilities are what the layer of continuous effects
computes, so a constant ability's target or condition, and the ``while`` of an effect, may
not read them (:attr:`StateFilter.derived`: refused when a ruling is loaded); down, frozen,
attachments, names and colours they may (the layer is computed again when those change).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from judge.engine.classes import parse_class
from judge.engine.costs import ENER_COLOURS
from judge.engine.state import SIGNI_ZONES, UNDER_ZONES, other
from judge.engine.tallies import TALLIES, measure
from judge.errors import FieldError, unknown_field
from judge.ids import quote
from judge.limits import MAX_COUNT, MAX_NUMBER

if TYPE_CHECKING:
    from judge.engine.cards import CardDef
    from judge.engine.game import Game
    from judge.engine.state import CardInstance

#: The colours a card can have; ``colourless`` is not a colour (it never counts as one).
COLOURS: Final = tuple(c for c in ENER_COLOURS if c != "colourless")
#: The kinds of marker a filter may ask for (``on_marker``; judge/engine/mechanics/markers.py).
MARKER_KINDS: Final = ("virus", "gate")
#: Whose cards a condition counts: relative to the player the condition belongs to.
COND_WHO: Final = ("self", "opponent", "both")
#: The zones a condition may count cards in (``signi``: the three SIGNI zones).
COND_ZONES: Final = ("deck", "hand", "ener", "trash", "life", "lrig_trash", "lrig_deck", "signi")
#: The keys of a filter that read a card's state now (issue 30; :class:`StateFilter`), in
#: targets, counting conditions, ``this_is`` and ``for_each``.
STATE_KEYS: Final = ("power_at_least", "power_at_most", "level_at_least", "level_at_most",
                     "down", "frozen", "with_charm", "with_accessory", "has_abilities", "name",
                     "lrig_colour", "on_marker", "heaven", "crystal_armed")
#: Every key of a filter: the card's printed kind, and its state.
FILTER_KEYS: Final = ("type", "class", "colour", "crossed", *STATE_KEYS)
#: What a bound on power or level may name instead of a number: the card the ability or
#: effect comes from, or the card whose event triggered the ability.
BOUND_REFS: Final = ("this", "trigger")
#: The bounds a filter may put on power and level: key -> (the number, at least or at most).
BOUND_KEYS: Final[dict[str, tuple[str, bool]]] = {
    "power_at_least": ("power", True), "power_at_most": ("power", False),
    "level_at_least": ("level", True), "level_at_most": ("level", False)}
#: Where the card whose ability it is may be required to be (``this_in``).
THIS_ZONES: Final = (*SIGNI_ZONES, "signi", "lrig", "ener", "trash", "hand")
TURNS: Final = ("own", "opponent")
COND_KEYS: Final = ("this_in", "who", "zone", "type", "class", "colour", "crossed", "at_least",
                    "at_most", "colours", "turn", "cross", "charm", *STATE_KEYS, "same_class",
                    "this_is", "tally")


@dataclass(frozen=True, slots=True)
class Bound:
    """A bound on a card's power or level: the number ``value``, or (``ref``) the power or
    level of the card the ability or effect comes from (``this``) or of the card whose event
    triggered the ability (``trigger``), read when the filter is (:func:`reference`)."""

    value: int = 0
    ref: str = ""


@dataclass(frozen=True, slots=True)
class StateFilter:
    """The parts of a filter that read a card's state now (issue 30); empty fields match
    any card. ``power_*``/``level_*``: bounds, inclusive ("power 5000 or less": ``at_most``;
    "level above 2": ``level_at_least = 3``); a card with no printed power (level) never
    matches a bound on it. ``down``, ``frozen``: its flags. ``charm``, ``accessory``: it is a
    SIGNI with a Charm (an Accessory) that belongs to it. ``abilities``: it has at least one
    ability (:func:`has_abilities`). ``name``: its card id, name or a name in any language.
    ``lrig_colour``: it shares a printed colour with its controller's centre LRIG."""

    power_at_least: Bound | None = None
    power_at_most: Bound | None = None
    level_at_least: Bound | None = None
    level_at_most: Bound | None = None
    down: bool | None = None
    frozen: bool | None = None
    charm: bool | None = None
    accessory: bool | None = None
    abilities: bool | None = None
    name: str = ""
    lrig_colour: bool | None = None
    #: it is in a SIGNI zone that holds a marker of this kind (``virus``, ``gate``:
    #: judge/engine/mechanics/markers.py)
    on_marker: str = ""
    #: it is in the heaven state (judge/engine/mechanics/heaven.py)
    heaven: bool | None = None
    #: it is crystal-armed (judge/engine/mechanics/crystal.py)
    crystal: bool | None = None

    @property
    def derived(self) -> bool:
        """Whether it reads what the layer of continuous effects computes (power, level,
        abilities): a constant ability's target or condition may not."""
        return self.power_at_least is not None or self.power_at_most is not None or \
            self.level_at_least is not None or self.level_at_most is not None or \
            self.abilities is not None

    @property
    def flags(self) -> bool:
        """Whether it reads the down or frozen flag (which change without a move)."""
        return self.down is not None or self.frozen is not None

    @property
    def attached(self) -> bool:
        """Whether it reads what is attached under a SIGNI."""
        return self.charm is not None or self.accessory is not None or self.crystal is not None

    def admits(self, game: Game, inst: CardInstance, controller: str,
               source: CardInstance | None) -> bool:
        """Whether ``inst`` matches now, for an ability or effect of ``controller`` coming
        from ``source``."""
        if self.down is not None and inst.down != self.down:
            return False
        if self.frozen is not None and inst.frozen != self.frozen:
            return False
        if self.charm is not None and has_charm(game, inst) != self.charm:
            return False
        if self.accessory is not None and has_accessory(game, inst) != self.accessory:
            return False
        if self.crystal is not None and crystal_armed(game, inst) != self.crystal:
            return False
        if self.name and not named(inst.card, self.name):
            return False
        if self.on_marker and not on_marker(game, inst, self.on_marker):
            return False
        if self.heaven is not None and in_heaven(game, inst) != self.heaven:
            return False
        if self.lrig_colour is not None and \
                shares_lrig_colour(game, inst, controller) != self.lrig_colour:
            return False
        for key, (stat, least) in BOUND_KEYS.items():
            bound: Bound | None = getattr(self, key)
            if bound is None:
                continue
            value = stat_of(game, inst, stat)
            limit = bound.value if not bound.ref else reference(game, bound.ref, stat, source)
            if value is None or limit is None or (value < limit if least else value > limit):
                return False
        return self.abilities is None or has_abilities(game, inst) == self.abilities


@dataclass(frozen=True, slots=True)
class Filter:
    """Which cards count: of a card type, of a SIGNI class, of a colour (``colourless``
    matches a card that has no colour), in a cross state, and (``state``) in a state now.
    Empty fields match any card."""

    card_type: str | None = None
    card_class: str | None = None
    colour: str | None = None
    crossed: bool | None = None
    state: StateFilter | None = None

    @property
    def empty(self) -> bool:
        return self.card_type is None and self.card_class is None and self.colour is None \
            and self.crossed is None and self.state is None

    def admits(self, game: Game, inst: CardInstance, crossed: frozenset[str],
               controller: str, source: CardInstance | None) -> bool:
        """Every part, the state's included (:meth:`matches` reads the printed parts and
        the cross state only)."""
        return self.matches(inst, crossed) and (
            self.state is None or self.state.admits(game, inst, controller, source))

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


def on_marker(game: Game, inst: CardInstance, kind: str) -> bool:
    """Whether ``inst`` is in a SIGNI zone that holds a marker of ``kind``
    (judge/engine/mechanics/markers.py; the state is read here, where filters are)."""
    where = inst.zone
    return where.zone in SIGNI_ZONES and \
        where.zone in game.state.players[where.player].markers.get(kind, ())


def in_heaven(game: Game, inst: CardInstance) -> bool:
    """Whether ``inst``, as the object it is now, is in the heaven state
    (judge/engine/mechanics/heaven.py)."""
    return (inst.label, inst.epoch) in game.state.heaven


def has_charm(game: Game, signi: CardInstance) -> bool:
    """Whether the SIGNI ``signi`` is in a SIGNI zone with a Charm under it that belongs to it
    as the object it is now (Chinese wiki "WIXOSS/游戏规则", 魅饰: a card set face down under a
    SIGNI by an effect is its Charm).

    A Charm is the card the ``charm`` operation (or a set-up's ``charm =``) put there; what is
    under a SIGNI face up is not one."""
    return holds(game, signi, "charm")


def holds(game: Game, signi: CardInstance, how: str) -> bool:
    """Whether a card put under the SIGNI ``signi`` as ``how`` (``charm``, ``accessory``,
    ``crystal_armament``: :meth:`judge.engine.game.Game.attach`) belongs to it as the object
    it is now."""
    under = UNDER_ZONES.get(signi.zone.zone)
    if under is None:
        return False
    held = (signi.label, signi.epoch)
    return any(c.attach == how and game.attached_to.get(c.label) == held
               for c in game.state.zone(signi.zone.player, under))


def has_accessory(game: Game, signi: CardInstance) -> bool:
    """Whether the SIGNI ``signi`` has an Accessory that belongs to it as the object it is
    now (Chinese wiki, 附属: a card with Accessory attached to a SIGNI by an effect; the
    ``attach`` operation)."""
    return holds(game, signi, "accessory")


def crystal_armed(game: Game, signi: CardInstance) -> bool:
    """Whether the SIGNI ``signi`` is crystal-armed: a card stacked on it by crystal
    armament (judge/engine/mechanics/crystal.py) belongs to it as the object it is now."""
    return holds(game, signi, "crystal_armament")


def named(card: CardDef, name: str) -> bool:
    """Whether ``card`` is named ``name``: its card id, its name, or its name in any language
    (how a ruling names a card: cross partners, Rise materials, ``name`` filters)."""
    return name == card.name or name == card.id or name in card.names.values()


def shares_lrig_colour(game: Game, inst: CardInstance, controller: str) -> bool:
    """Whether ``inst`` has a printed colour of ``controller``'s centre LRIG (colourless is
    no colour, so a colourless card or LRIG shares none: Chinese wiki, 无色)."""
    centre = game.state.centre(controller)
    if centre is None:
        return False
    colours = printed_colours(centre)
    return any(c in colours for c in printed_colours(inst))


def has_abilities(game: Game, inst: CardInstance) -> bool:
    """Whether ``inst`` has an ability: a printed ability, a keyword (printed, given by an
    effect or by an Accessory), a cross condition or a Life Burst (an effect of the card
    itself: Chinese wiki, 生命爆发). On the field, one that lost its abilities has only the
    keywords given after (003, クロス: the cross condition is an ability too)."""
    if game.on_field(inst):
        if game.keywords(inst):
            return True
        if game.lost(inst):
            return False
    card = inst.card
    return bool(card.abilities or card.keywords or card.cross is not None or card.life_burst)


def stat_of(game: Game, inst: CardInstance, stat: str) -> int | None:
    """``inst``'s power or level now (on the field, with the effects in force; elsewhere as
    printed), or None when it has none printed."""
    printed = inst.card.power if stat == "power" else inst.card.level
    if printed is None:
        return None
    return game.power(inst) if stat == "power" else game.level(inst)


def reference(game: Game, ref: str, stat: str, source: CardInstance | None) -> int | None:
    """The power or level a bound names: of the card the ability comes from (``this``) or
    of the card whose event triggered it (``trigger``, :attr:`Game.subject`). A card still on
    the field is read now; one that left it since, as it last was there
    (:attr:`CardInstance.known`); any other as printed. None: no such card, or none
    printed."""
    card = source if ref == "this" else game.subject
    if card is None:
        return None
    if not game.on_field(card):
        known = card.known
        if known is not None and known[0] == card.epoch:
            return known[1] if stat == "power" else known[2]
    return stat_of(game, card, stat)


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
      material) is not one;
    - ``same_class`` (with ``zone``): every card counted has one class they all share, and
      there is at least one ("all your SIGNI share a class");
    - ``this_is``: the source card matches this filter now (its state included).
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
    same_class: bool = False
    this_is: Filter | None = None
    #: a number of the game that is not a count of cards (:mod:`judge.engine.tallies`),
    #: compared (or multiplied by) instead of ``zone``'s cards
    tally: str = ""

    def filters(self) -> tuple[Filter, ...]:
        """The filters it reads cards with (of the counted cards, of its own card)."""
        return (self.filter,) if self.this_is is None else (self.filter, self.this_is)

    @property
    def derived(self) -> bool:
        """Whether it reads power, level or abilities (:attr:`StateFilter.derived`), or a
        derived tally."""
        if self.tally and TALLIES[self.tally].derived:
            return True
        return any(f.state is not None and f.state.derived for f in self.filters())

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
        if self.this_is is not None and (source is None or not self.this_is.admits(
                game, source, crossed, controller, source)):
            return False
        if self.same_class:
            classes = [c.card.card_class for c in self.counted(game, controller, crossed,
                                                               source)]
            if not classes or classes[0] is None or classes.count(classes[0]) != len(classes):
                return False
        if self.at_least is not None or self.at_most is not None:
            value = self.measure(game, controller, crossed, source)
            if self.at_least is not None and value < self.at_least:
                return False
            if self.at_most is not None and value > self.at_most:
                return False
        return True

    def counted(self, game: Game, controller: str, crossed: frozenset[str],
                source: CardInstance | None = None) -> list[CardInstance]:
        """The cards in the condition's zone of ``who`` that its filter matches."""
        players = self.players(controller)
        state = game.state
        zones = SIGNI_ZONES if self.zone == "signi" else (self.zone,)
        cards = [c for p in players for z in zones for c in state.zone(p, z)]
        if not self.filter.empty:
            cards = [c for c in cards if self.filter.admits(game, c, crossed, controller,
                                                            source)]
        return cards

    def players(self, controller: str) -> tuple[str, ...]:
        """The players ``who`` names, seen from ``controller``."""
        return (controller,) if self.who == "self" else (other(controller),) \
            if self.who == "opponent" else (controller, other(controller))

    def measure(self, game: Game, controller: str, crossed: frozenset[str],
                source: CardInstance | None = None) -> int:
        """The number the condition compares: cards, their different colours, or a tally."""
        if self.tally:
            return measure(game, self.tally, self.players(controller))
        cards = self.counted(game, controller, crossed, source)
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


def _flag(raw: Mapping[str, Any], key: str, where: str) -> bool | None:
    value = raw.get(key)
    if value is not None and not isinstance(value, bool):
        raise FieldError(f"{where}.{key}", f"expected true or false, got {quote(value)}")
    return value


def _bound(value: Any, where: str) -> Bound:
    """A bound: a whole number from 0, or ``this``/``trigger``."""
    if isinstance(value, str):
        return Bound(ref=_choice(value, BOUND_REFS, where))
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= MAX_NUMBER:
        raise FieldError(where, f"expected a whole number from 0 to {MAX_NUMBER}, or "
                                f"\"this\" or \"trigger\", got {quote(value)}", BOUND_REFS)
    return Bound(value=value)


def parse_state(raw: Mapping[str, Any], where: str) -> StateFilter | None:
    """The state keys of a table (:data:`STATE_KEYS`; others ignored), or None if it has
    none."""
    if not any(key in raw for key in STATE_KEYS):
        return None
    bounds = {key: _bound(raw[key], f"{where}.{key}") for key in BOUND_KEYS if key in raw}
    return StateFilter(
        **bounds, down=_flag(raw, "down", where), frozen=_flag(raw, "frozen", where),
        charm=_flag(raw, "with_charm", where), accessory=_flag(raw, "with_accessory", where),
        abilities=_flag(raw, "has_abilities", where),
        name=_text(raw["name"], f"{where}.name") if "name" in raw else "",
        lrig_colour=_flag(raw, "lrig_colour", where),
        on_marker=_choice(raw["on_marker"], MARKER_KINDS, f"{where}.on_marker")
        if "on_marker" in raw else "", heaven=_flag(raw, "heaven", where),
        crystal=_flag(raw, "crystal_armed", where))


def parse_filter(raw: Mapping[str, Any], where: str, card_types: tuple[str, ...]) -> Filter:
    """The filter keys of a table (:data:`FILTER_KEYS`; others ignored)."""
    return Filter(
        card_type=_choice(raw["type"], card_types, f"{where}.type") if "type" in raw else None,
        card_class=parse_class(raw["class"], f"{where}.class") if "class" in raw else None,
        colour=_choice(raw["colour"], (*COLOURS, "colourless"), f"{where}.colour")
        if "colour" in raw else None,
        crossed=_flag(raw, "crossed", where), state=parse_state(raw, where))


def parse_this_is(raw: Any, where: str, card_types: tuple[str, ...]) -> Filter:
    """A ``this_is`` table: the filter keys only (:data:`FILTER_KEYS`), at least one."""
    if not isinstance(raw, dict) or not raw:
        raise FieldError(where, "expected a table of filter keys such as { frozen = true }, "
                                f"got {quote(raw)}", FILTER_KEYS)
    for key in raw:
        if key not in FILTER_KEYS:
            raise unknown_field(where, key, FILTER_KEYS)
    return parse_filter(raw, where, card_types)


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
        raise FieldError(where, "an empty condition (give this_in, zone, turn, cross or "
                                "this_is)", COND_KEYS)
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
    same_class = raw.get("same_class", False)
    if not isinstance(same_class, bool):
        raise FieldError(f"{where}.same_class", f"expected true or false, got "
                                                f"{quote(same_class)}")
    tally = _choice(raw["tally"], tuple(TALLIES), f"{where}.tally") if "tally" in raw else ""
    if tally:
        _tally_alone(raw, where)
        if "at_least" not in raw and "at_most" not in raw:
            raise FieldError(f"{where}.at_least", "missing (a tally needs at_least or at_most)")
    counting = ("who", "type", "class", "colour", "crossed", "at_least", "at_most", "colours",
                *STATE_KEYS, "same_class")
    if not zone and not tally:
        for key in counting:
            if key in raw:
                raise FieldError(f"{where}.{key}", "counts cards: give the zone they are in too",
                                 COND_ZONES)
    elif at_least is None and at_most is None and not same_class:
        raise FieldError(f"{where}.at_least", "missing (a count needs at_least or at_most)")
    if colours and same_class:
        raise FieldError(f"{where}.same_class", "compares the classes of the cards counted, "
                                                "not their colours: give one of the two")
    return Condition(
        this_in=this_in,
        who=_choice(raw.get("who", "self"), COND_WHO, f"{where}.who"),
        zone=zone, filter=parse_filter(raw, where, card_types), at_least=at_least,
        at_most=at_most, colours=colours,
        turn=_choice(raw["turn"], TURNS, f"{where}.turn") if "turn" in raw else "",
        cross=cross, charm=charm, same_class=same_class,
        this_is=parse_this_is(raw["this_is"], f"{where}.this_is", card_types)
        if "this_is" in raw else None, tally=tally)


def _tally_alone(raw: Mapping[str, Any], where: str) -> None:
    """A tally counts no cards: not with a zone, a filter or a colour count."""
    for key in ("zone", *FILTER_KEYS, "colours", "same_class"):
        if key in raw:
            raise FieldError(f"{where}.{key}", "a tally is a number of the game, not a count "
                                               "of cards: give zone or tally, not both",
                             tuple(TALLIES))


def parse_count(raw: Any, where: str, card_types: tuple[str, ...]) -> Condition:
    """A count table (``for_each``): the counting part of a condition, ``zone`` with ``who``,
    the filter keys and ``colours``, without bounds: ``{ zone = "ener", colours = true }``."""
    keys = ("who", "zone", *FILTER_KEYS, "colours", "tally")
    if not isinstance(raw, dict):
        raise FieldError(where, "expected a count table such as { zone = \"hand\" }, or "
                                f"\"done\" or \"paid\", got {quote(raw)}")
    for key in raw:
        if key not in keys:
            raise unknown_field(where, key, keys)
    if "tally" in raw:
        _tally_alone(raw, where)
        return Condition(who=_choice(raw.get("who", "self"), COND_WHO, f"{where}.who"),
                         tally=_choice(raw["tally"], tuple(TALLIES), f"{where}.tally"))
    if "zone" not in raw:
        raise FieldError(f"{where}.zone", "missing (the zone whose cards are counted, or a "
                                          "tally)", COND_ZONES)
    colours = raw.get("colours", False)
    if not isinstance(colours, bool):
        raise FieldError(f"{where}.colours", f"expected true or false, got {quote(colours)}")
    return Condition(who=_choice(raw.get("who", "self"), COND_WHO, f"{where}.who"),
                     zone=_choice(raw["zone"], COND_ZONES, f"{where}.zone"),
                     filter=parse_filter(raw, where, card_types), colours=colours)
