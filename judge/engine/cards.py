"""Card definitions, with abilities as data.

A card's abilities are lists of operations from a small vocabulary (:data:`OPS`), triggers
(:data:`TRIGGERS`), conditions (:mod:`judge.engine.conditions`) and effects in force
(constant abilities, lasting effects, replacements: :mod:`judge.engine.continuous`). No card
has Python code of its own. Card types and attributes follow the Chinese wiki's
"WIXOSS/游戏规则" (card types, effect types: 常 constant, 自 triggered, 出 on-play, 起 action;
the format of an effect text: timing, once per turn, cost) and the WIXOSS glossary; modes and
the order of using a card follow WIXOSS TCG Wiki "間違えやすいルール" (2014, コスト: declare,
choose modes, pay costs, choose targets).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Final

from judge.engine import mechanics
from judge.engine.amounts import FOR_EACH_OPS, ForEach, parse_for_each
from judge.engine.classes import parse_class
from judge.engine.conditions import (
    STATE_KEYS,
    Condition,
    Filter,
    parse_condition,
    parse_filter,
)
from judge.engine.costs import ENER_COLOURS, Cost, parse_cost
from judge.engine.placement import op_problem
from judge.errors import FieldError, unknown_field
from judge.ids import quote
from judge.langs import LANGS
from judge.limits import MAX_COUNT, MAX_NUMBER

CARD_TYPES: Final = ("lrig", "signi", "arts", "spell", "key", "resona", "piece")
COLOURS: Final = ENER_COLOURS
TIMINGS: Final = ("main", "attack", "spell_cut_in")
#: When an action ability may be used (its ``timing``; issue 30): ``main`` (its player's own
#: main phase, the default) and ``attack`` (the ARTS step of either player's attack phase, by
#: the player who may use ARTS then), as the Chinese rules page's effect-text example reads
#: 起（攻击阶段）. Spell Cut-In is offered to ARTS only (:mod:`judge.engine.using`).
ABILITY_TIMINGS: Final = ("main", "attack")
ABILITY_KINDS: Final = ("auto", "on_play", "action", "const")
# The keywords a card may list are the registered mechanics' (judge.engine.mechanics).

#: Triggers of ``auto`` abilities. Each watches one kind of event on the card itself.
TRIGGERS: Final[dict[str, str]] = {
    "put_into_trash_from_deck": "this card is put from the main deck into the trash",
    "put_into_trash": "this card is put into the trash from anywhere",
    "banished": "this SIGNI is banished, whatever the cause",
    "banished_by_effect": "this SIGNI is banished by an effect (not by battle or rule processing)",
    "leaves_field": "this SIGNI leaves the field",
    "leaves_field_by_effect": "this SIGNI leaves the field because of an effect",
    "on_play": "this SIGNI is put onto the field",
    "crushed": "this card is crushed from the life cloth",
    "owner_refreshes": "this card's owner refreshes (the ability works from the field)",
    "attacks": "this SIGNI or LRIG attacks (on the declaration, before the battle)",
    "attack_phase_start": "its player's attack phase begins (the ability works from the field)",
    "banishes_in_battle": "this SIGNI banishes the SIGNI it battles (the trigger of Lancer)",
    "uses_spell": "a player uses a Spell (from the hand or through an effect; the ability "
                  "works from the field)",
    "uses_arts": "a player uses an ARTS (from the LRIG deck or through an effect; the ability "
                 "works from the field)",
    "main_phase_start": "its player's main phase begins (the ability works from the field)",
    "end_phase_start": "its player's end phase begins (the ability works from the field; a turn "
                       "ended by a second refresh has no end phase)",
    # other cards' events (issue 30, family 3): whose SIGNI is watched is the ability's whose
    "signi_enters": "another SIGNI is put onto the field (the ability works from the field)",
    "signi_banished": "another SIGNI is banished, whatever the cause (the ability works from "
                      "the field)",
    "signi_attacks": "another SIGNI attacks: on the declaration, before the battle (the "
                     "ability works from the field)",
    "life_crushed": "a life cloth is crushed (the ability works from the field)",
    "guard_used": "a player guards: a Guard card is put from the hand into the trash against a "
                  "LRIG attack (the ability works from the field)",
    # a Seed blooming, a Trap revealed (mechanics/seed.py, mechanics/trap.py)
    "seed_blooms": "a Seed blooms: it is turned face up and becomes a SIGNI (the ability works "
                   "from the field)",
    "trap_revealed": "a Trap is revealed against an attack, before its Trap effect resolves "
                     "(the ability works from the field)",
    "targeted": "this SIGNI becomes a target: an effect chooses it (a card named for it counts; "
                "an effect on all SIGNI, or on this card itself, chooses none); by says whose "
                "effect",
    "life_cloth_moved": "a card leaves the life cloth other than by a crush (the refresh's "
                        "penalty, an effect; the ability works from the field)",
    # coins paid for a BET (mechanics/bet.py)
    "coins_paid": "a player pays coins for a BET (a loss of coins to an effect is no payment; "
                  "the ability works from the field)",
    # the start of the other phases and of the ARTS step (judge/engine/phase_starts.py)
    "up_phase_start": "its player's up phase begins, before anything is upped (the ability "
                      "works from the field)",
    "draw_phase_start": "its player's draw phase begins, before the draw (the ability works "
                        "from the field)",
    "ener_phase_start": "its player's ener phase begins (the ability works from the field)",
    "grow_phase_start": "its player's grow phase begins (the ability works from the field)",
    "arts_step_start": "the ARTS step of its player's attack phase begins, before any ARTS is "
                       "used (the ability works from the field)",
    "signi_attack_step_start": "the SIGNI attack step of its player's attack phase begins, "
                               "before any SIGNI attacks (the ability works from the field)",
    "lrig_attack_step_start": "the LRIG attack step of its player's attack phase begins, "
                              "before the LRIG attacks (the ability works from the field)",
    # the later mechanics (issue 30, round three; judge/engine/mechanics/ride.py)
    "drive": "Drive: its player's centre LRIG rides this SIGNI (the ride operation; the "
             "ability works from the field)",
}

#: Triggers whose ability may say whose effect (or use) it watches: ``by`` = ``own`` (its
#: player's), ``opponent`` (the other player's) or ``any``.
BY_TRIGGERS: Final = ("banished_by_effect", "leaves_field_by_effect", "uses_spell", "uses_arts",
                      "targeted")
BY: Final = ("any", "own", "opponent")
#: Triggers on another card's event, and whose card an ability with one watches: ``whose`` =
#: ``own`` (a card of its player: a SIGNI, a life cloth, a Guard card), ``opponent`` or
#: ``any``. The card whose event it was is the ability's ``trigger`` (a filter's bound, read
#: as it last was on the field).
OTHERS_TRIGGERS: Final = ("signi_enters", "signi_banished", "signi_attacks", "life_crushed",
                          "guard_used", "seed_blooms", "trap_revealed", "coins_paid",
                          "life_cloth_moved")
WHOSE: Final = ("any", "own", "opponent")

#: Where an ``auto`` ability works from, by default, given its trigger.
TRIGGER_ZONES: Final[dict[str, str]] = {
    "put_into_trash_from_deck": "trash",
    "put_into_trash": "trash",
    "banished": "",
    "banished_by_effect": "",
    "leaves_field": "",
    "leaves_field_by_effect": "",
    "on_play": "field",
    "crushed": "",
    "owner_refreshes": "field",
    "attacks": "",
    "attack_phase_start": "field",
    "banishes_in_battle": "",
    "uses_spell": "field",
    "uses_arts": "field",
    "signi_enters": "field",
    "signi_banished": "field",
    "main_phase_start": "field",
    "end_phase_start": "field",
    "signi_attacks": "field",
    "life_crushed": "field",
    "guard_used": "field",
    "seed_blooms": "field",
    "trap_revealed": "field",
    "coins_paid": "field",
    "life_cloth_moved": "field",
    "targeted": "field",
    "up_phase_start": "field",
    "draw_phase_start": "field",
    "ener_phase_start": "field",
    "grow_phase_start": "field",
    "arts_step_start": "field",
    "signi_attack_step_start": "field",
    "lrig_attack_step_start": "field",
    "drive": "field",
}

#: The operation vocabulary: name -> (fields it accepts, what it does).
OPS: Final[dict[str, tuple[tuple[str, ...], str]]] = {
    "draw": (("who", "count", "for_each"), "draw cards from the main deck"),
    "mill": (("who", "count", "for_each"),
             "put cards from the top of the main deck into the trash"),
    "ener_charge": (("who", "count", "for_each"),
                    "put cards from the top of the main deck into the ener zone"),
    "discard": (("who", "count", "target", "for_each", "keep"),
                "put cards from the hand into the trash: those of the target, or count cards "
                "that the player who chooses from their own hand (or those above keep)"),
    "banish": (("target",), "banish SIGNI (to the ener zone unless replaced)"),
    "trash": (("target",), "put cards into the trash (LRIG-deck cards into the LRIG trash)"),
    "to_ener": (("target",), "put cards into the ener zone"),
    "to_hand": (("target",), "put cards into their owner's hand (from the trash, field, ...)"),
    "to_deck": (("target", "position"), "put cards on top or at the bottom of the main deck"),
    "place": (("target", "zone", "position"), "put cards into a named zone of their owner"),
    "put_onto_field": (("target", "ignore_conditions"),
                       "put a SIGNI onto an empty SIGNI zone (level, limit and limiting "
                       "condition checked unless ignore_conditions)"),
    "power": (("target", "amount", "until", "while", "for_each"),
              "change SIGNI power (until end of turn)"),
    "level": (("target", "amount", "until", "while", "for_each"),
              "change SIGNI level (until end of turn)"),
    "set_power": (("target", "amount", "until", "while"),
                  "make SIGNI power this value, before any change is added (until end of turn)"),
    "set_level": (("target", "amount", "until", "while"),
                  "make SIGNI level this value, before any change is added (until end of turn)"),
    "limit": (("who", "amount", "until", "while", "for_each"),
              "change the centre LRIG's limit (until end of turn)"),
    "crush": (("who", "count", "for_each"), "crush life cloth into the check zone"),
    "damage": (("who",), "damage a player: crush one life cloth, or win with none left"),
    "shuffle": (("who",), "shuffle the main deck"),
    "banish_to_trash": (("who", "until", "while"),
                        "this turn, that player's SIGNI that would be banished go to the trash "
                        "instead (an effect in force)"),
    "charm": (("target",), "put the top card of the main deck face down under a SIGNI as Charm"),
    "attach": (("target", "card"), "attach a card from the hand to a SIGNI as Accessory"),
    "freeze": (("target",), "freeze SIGNI: they are not upped in their player's next up phase"),
    "down": (("target",), "down SIGNI or a LRIG"),
    "up": (("target",), "up SIGNI or a LRIG"),
    "keyword": (("target", "keyword", "until", "while"),
                "give SIGNI a keyword (Lancer, Assassin, ...) this turn"),
    "cost_change": (("who", "cost", "until", "while"),
                    "this turn, that player's ARTS and Spells cost this much instead (applied "
                    "before modifications)"),
    "cost_modify": (("who", "cost", "until", "while"),
                    "this turn, add to (or, with negative counts, take from) that player's ARTS "
                    "and Spell costs"),
    "cannot": (("target", "who", "what", "by", "by_kind", "until", "while"),
               "SIGNI cannot attack, be banished, be chosen or affected by the opponent's "
               "effects, be put into the trash by effects; or a player cannot refresh, pay "
               "with colourless ener, use Spells or ARTS (an effect in force)"),
    "lose_abilities": (("target", "until", "while"),
                       "SIGNI lose all their abilities, printed keywords and cross conditions "
                       "included (an effect in force)"),
    "replace": (("target", "who", "event", "zone", "ops", "optional", "until", "while"),
                "if a card would be banished or put into the ener zone, or a player would "
                "refresh or draw in the draw phase, something else happens instead"),
    "upper_limit": (("who", "zone", "amount", "until", "while"),
                    "the player's ener zone or hand holds at most this many cards (rule "
                    "processing kind 8 puts the rest into the trash)"),
    "draw_limit": (("who", "amount", "until", "while"),
                   "the player cannot draw more than this many cards this turn"),
    "signi_cap": (("who", "amount", "until", "while"),
                  "the player cannot have more than this many SIGNI on their field: no SIGNI "
                  "is played or put onto it past that number (the cheer zone not counted)"),
    "attack_limit": (("target", "amount", "until", "while"),
                     "SIGNI cannot attack more than this many times in a turn (the attacks "
                     "they declared earlier in the turn count)"),
    "must_attack": (("target", "until", "while"),
                    "SIGNI must attack if able: the SIGNI attack step does not end while one "
                    "of them could still attack (judge/engine/forced_attacks.py)"),
    "use": (("target", "free", "ignore_limiting"),
            "use an ARTS or a Spell through this effect: a use like any other, without paying "
            "its cost or ignoring its limiting condition only if the operation says so"),
    # the later mechanics of the Chinese rules page (judge/engine/mechanics/: seed.py,
    # trap.py, token_arts.py, bet.py)
    "set_seed": (("target", "zone"), "set a SIGNI face down on a SIGNI zone as its Seed"),
    "bloom": (("target",), "turn a Seed face up in a SIGNI zone with no SIGNI: it becomes a SIGNI"),
    "set_trap": (("target", "zone"), "set a card face down on a SIGNI zone as its Trap"),
    "make_token": (("card",), "make a token ARTS (card = \"LABEL:card-id\") in the LRIG deck"),
    "coins": (("who", "amount", "for_each"), "a player gains (or, negative, loses) coins"),
    "crystal_arm": (("target", "zone"), "stack a card with the target SIGNI's name from the "
                                        "controller's zone (hand, trash, ener or deck) on it: "
                                        "the SIGNI is crystal-armed"),
    "ride": (("target",), "its player's centre LRIG rides the target, one of their SIGNI on "
                          "the field: the SIGNI's Drive abilities trigger, and the LRIG cannot "
                          "attack until the SIGNI leaves the field"),
    "negate_attack": ((), "the attack being declared is negated: no battle and no damage (in "
                          "an ability that triggers on the attack)"),
    # markers on SIGNI zones (judge/engine/mechanics/: markers.py, virus.py, gate.py): on the
    # opponent's zones unless who says otherwise
    "set_virus": (("zone", "count"),
                  "set a virus on the opponent's SIGNI zones (one a zone at most; zone, or "
                  "chosen)"),
    "remove_virus": (("who", "zone", "count"),
                     "remove viruses from the opponent's SIGNI zones (who: whose zones)"),
    "set_gate": (("zone", "count"),
                 "set a gate on the opponent's SIGNI zones (one a zone at most; zone, or "
                 "chosen)"),
    # the registration count (judge/engine/mechanics/registrations.py)
    "registrations": (("who", "amount"),
                      "a player gains registrations (a LRIG's or an ARTS's effect only)"),
    # looking at, revealing and searching the main deck (judge/engine/looking.py)
    "look": (("who", "count", "target", "zone", "rest", "reveal", "from"),
             "look at the top count cards of the main deck (or, from = \"hand\", at the whole "
             "hand): take those the target matches into zone (shown to both with reveal), the "
             "rest where rest says (from a hand: they stay there)"),
    "reveal_until": (("who", "target", "zone", "rest"),
                     "reveal cards from the top of the main deck until the target's count of "
                     "matching cards: those into zone, the others where rest says (the trash)"),
    "search": (("who", "target", "zone", "reveal"),
               "look at the whole main deck, take the cards the target matches into zone "
               "(shown to both with reveal), then shuffle it"),
}

#: Operations whose ``who`` is the opponent unless they say otherwise (markers are set on the
#: opponent's SIGNI zones: judge/engine/mechanics/markers.py).
WHO_OPPONENT: Final = ("set_virus", "remove_virus", "set_gate")
#: The operations on markers, and the zones their ``zone`` may name (``signi``: chosen).
MARKER_OPS: Final = WHO_OPPONENT
MARKER_ZONES: Final = ("signi", "signi1", "signi2", "signi3")
#: Operations only the effects of some card types have (a card of another type with one is
#: refused): the registration count is gained by LRIG and ARTS effects
#: (judge/engine/mechanics/registrations.py).
OP_CARD_TYPES: Final[dict[str, tuple[str, ...]]] = {"registrations": ("lrig", "arts")}
#: Fields every operation accepts: ``if`` (the operation happens only while this condition
#: holds) and ``if_done`` ("if you do": only if the operation before it did what it said).
COMMON_OP_FIELDS: Final = ("if", "if_done")
#: What the ``cannot`` operation forbids: card-level (needs a target) and player-level (who).
CARD_CANNOT: Final = ("attack", "be_banished", "be_chosen", "be_affected", "be_trashed")
PLAYER_CANNOT: Final = ("refresh", "pay_with_colourless", "use_spells", "use_arts")
#: The ``cannot`` kinds that are a card's resistance to effects, which ``by`` narrows to the
#: effects of one player: ``opponent`` (the card's owner's opponent) or ``any`` (either
#: player's). Resistance comes before the effects it resists (001, 卡牌的效果处理及其他规则);
#: rule processing and battle are not effects (004), so a ``cannot`` with ``by`` never
#: shields a card from them. Without ``by``: ``be_chosen`` and ``be_affected`` resist the
#: opponent's effects, ``be_trashed`` every effect, and ``be_banished`` every banish (effects,
#: battle and rule processing alike).
RESISTANCES: Final = ("be_banished", "be_chosen", "be_affected", "be_trashed")
CANNOT_BY: Final = ("opponent", "any")
#: The kinds of source a resistance to banishing or trashing may be limited to (``by_kind``,
#: judge/engine/source_kinds.py): the card type of the card whose effect it is.
BY_KINDS: Final = ("signi", "lrig", "arts", "spell", "key")
#: The resistances ``by_kind`` may limit.
KIND_RESISTANCES: Final = ("be_banished", "be_trashed")
#: What a ``cannot`` without ``by`` resists, by kind: "" stands for everything.
CANNOT_BY_DEFAULT: Final[dict[str, str]] = {"be_banished": "", "be_trashed": "any",
                                            "be_chosen": "opponent", "be_affected": "opponent"}
#: What a replacement (``replace``) watches: card-level events and player-level ones.
CARD_EVENTS: Final = ("banish", "ener")
PLAYER_EVENTS: Final = ("refresh", "draw_phase")
#: Where a replaced card goes instead (``zone`` of ``replace``).
INSTEAD_ZONES: Final = ("trash", "hand", "deck", "ener")
#: How long an effect of an operation lasts; ``while`` (a condition table) lasts as long as
#: the condition holds, across turns.
UNTIL: Final = ("end_of_turn", "end_of_next_turn")
#: Operations that put an effect in force: they accept ``until`` and ``while``.
LASTING_OPS: Final = tuple(name for name, (fields, _) in OPS.items() if "until" in fields)
#: Operations a constant ability (``const``) may have: effects that hold while it works.
CONST_OPS: Final = ("power", "level", "set_power", "set_level", "limit", "keyword", "cannot",
                    "replace", "upper_limit", "draw_limit", "attack_limit", "signi_cap",
                    "must_attack",
                    "cost_change", "cost_modify")
#: Operations whose ``amount`` is a limit or a cap, so 0 or more (a count cannot be negative).
COUNT_LIMIT_OPS: Final = ("upper_limit", "draw_limit", "attack_limit", "signi_cap")
#: Zones whose upper limit an effect may set (``upper_limit``).
LIMITED_ZONES: Final = ("ener", "hand")
MAX_MODES: Final = 9

WHO: Final = ("self", "opponent", "both", "p1", "p2")
TARGET_WHO: Final = ("self", "opponent", "any", "p1", "p2")
POSITIONS: Final = ("top", "bottom")
#: The operations that look at a main deck (judge.engine.looking), where the cards they take
#: go (``zone``, default ``hand``) and where the others go (``rest``: ``top`` or ``bottom``
#: of the deck in an order the player chooses, the trash, or the deck shuffled).
LOOK_OPS: Final = ("look", "reveal_until", "search")
LOOK_ZONES: Final = ("hand", "ener", "trash", "deck_top")
#: Where crystal armament takes the card it stacks from (``zone`` of ``crystal_arm``, required):
#: a zone of the effect's controller (judge/engine/mechanics/crystal.py).
CRYSTAL_ZONES: Final = ("hand", "trash", "ener", "deck")
RESTS: Final = ("bottom", "top", "trash", "shuffle")
#: Where ``look`` looks (``from``): the top of the main deck, or the whole hand (format 9).
LOOK_FROM: Final = ("deck", "hand")
#: The keys of a target table that a looking operation fixes: its cards are those looked at.
LOOK_FIXED: Final = ("who", "zone", "all", "chooser", "other")


@dataclass(frozen=True)
class Target:
    """Which cards an operation acts on.

    ``this``: the card whose ability it is. ``labels``: named cards (scenario steps; they
    stand for cards the effect chooses). Otherwise the controller of ``chooser`` chooses
    ``count`` cards (``up_to`` allows fewer) among the cards in ``zone`` of ``who``,
    optionally only of ``card_type`` and those ``filter`` matches (class, colour), leaving out
    the effect's own card with ``other``; with ``all`` nobody chooses: every such card is
    acted on (an effect that does not choose, which Shadow does not stop).
    """

    this: bool = False
    labels: tuple[str, ...] = ()
    #: ``"trigger"``: the other card whose event triggered the ability (a SIGNI that entered
    #: or attacks, ...), while it is on the field (issue 30)
    trigger: bool = False
    who: str = "self"
    zone: str = "signi"
    count: int = 1
    up_to: bool = False
    card_type: str | None = None
    chooser: str = "self"
    all: bool = False
    other: bool = False
    filter: Filter = Filter()


@dataclass(frozen=True, slots=True)
class Op:
    """One operation of an effect."""

    name: str
    who: str = "self"
    count: int = 1
    amount: int = 0
    target: Target | None = None
    zone: str = ""
    position: str = "top"
    card: str = ""
    ignore_conditions: bool = False
    keyword: str = ""
    cost: tuple[tuple[str, int], ...] = ()
    #: how long an effect it puts in force lasts (``end_of_turn``, ``end_of_next_turn``);
    #: ``while`` (``cond``) instead: as long as the condition holds
    until: str = "end_of_turn"
    cond: Condition | None = None
    #: ``if``: the operation happens only if this holds when it would
    only_if: Condition | None = None
    #: "if you do": only if the operation before it did what it said
    if_done: bool = False
    what: str = ""  # cannot: what is forbidden
    #: cannot (a resistance, :data:`RESISTANCES`): whose effects; "" when the operation does
    #: not say (:func:`resisted_by` gives what that means for its kind)
    by: str = ""
    #: cannot be_banished / be_trashed: only effects whose card is of this kind
    #: (:data:`BY_KINDS`); "" for every kind
    by_kind: str = ""
    event: str = ""  # replace: what is replaced
    ops: tuple[Op, ...] = ()  # replace: what happens instead
    optional: bool = False  # replace: "you may"
    free: bool = False  # use: without paying its cost
    ignore_limiting: bool = False  # use: ignoring its limiting condition
    #: what its number (count, its target's count, amount) is multiplied by when it
    #: resolves (judge.engine.amounts)
    for_each: ForEach | None = None
    keep: int | None = None  # discard: the cards above this many in the hand
    #: look, reveal_until: where the cards not taken go (judge.engine.looking.RESTS)
    rest: str = ""
    #: look: ``hand`` to look at the whole hand of ``who`` instead of the top of the deck
    look_from: str = ""
    #: look, search: the cards taken are shown to both players first
    reveal: bool = False

    @property
    def duration(self) -> str:
        """``end_of_turn``, ``end_of_next_turn`` or ``while``."""
        return "while" if self.cond is not None else self.until


def resisted_by(op: Op) -> str:
    """Whose effects a ``cannot`` operation's card resists: ``opponent``, ``any`` (every
    player's effects) or "" (everything: effects, battle and rule processing), from its
    ``by`` or, without one, its kind's default (:data:`CANNOT_BY_DEFAULT`)."""
    return op.by or CANNOT_BY_DEFAULT.get(op.what, "")


@dataclass(frozen=True, slots=True)
class Ability:
    """An ability: ``auto`` (triggered), ``on_play``, ``action`` or ``const``.

    A constant ability's ``effect`` holds while it works (its card on the field, ``cond``
    true, its abilities not lost): each operation is one of :data:`CONST_OPS` and acts on
    every card its target matches, without choosing. ``modes``/``choose``: the ability's
    effect is the ``choose`` modes its controller picks, chosen before its cost is paid.
    ``once_per_turn``: an action ability is used, a triggered one triggers, at most once a
    turn. ``by``: whose effect (or use) a ``*_by_effect`` or ``uses_*`` trigger watches."""

    kind: str
    effect: tuple[Op, ...] = ()
    trigger: str | None = None
    zone: str = ""
    optional: bool = False
    stat: str = ""  # const shorthand: "power" or "level" (read into effect)
    amount: int = 0  # const shorthand: the change to stat
    applies_to: str = "this"  # const shorthand: "this" or "own_signi"
    index: int = 0
    cost: Cost = Cost()  # action abilities; an auto ability with a cost is optional
    keyword: str = ""  # the keyword whose ability this is (judge.engine.mechanics), if any
    cond: Condition | None = None  # const: while this holds
    once_per_turn: bool = False
    by: str = "any"
    modes: tuple[tuple[Op, ...], ...] = ()
    choose: int = 1
    #: a trigger on another card's event (:data:`OTHERS_TRIGGERS`): whose SIGNI it watches
    whose: str = "any"
    #: an action ability: when it may be used (:data:`ABILITY_TIMINGS`)
    timing: tuple[str, ...] = ("main",)


@dataclass(frozen=True, slots=True)
class Summon:
    """A Resona's summoning condition (judge/engine/mechanics/resona.py): put ``signi`` of its
    player's SIGNI (of class ``card_class``, when given) from the field into the trash."""

    signi: int
    card_class: str | None = None


@dataclass(frozen=True, slots=True)
class CardDef:
    """A card's printed definition."""

    id: str
    name: str
    type: str
    colour: tuple[str, ...] = ("colourless",)
    level: int | None = None
    power: int | None = None
    limit: int | None = None
    lrig_type: str | None = None
    card_class: str | None = None
    limiting: str | None = None
    guard: bool = False
    life_burst: tuple[Op, ...] = ()
    effect: tuple[Op, ...] = ()  # what an ARTS or Spell does when used
    cost: Cost = Cost()  # to use an ARTS or Spell, or to grow into a LRIG
    timing: tuple[str, ...] = ()  # when an ARTS can be used: main, attack, spell_cut_in
    grow_from: str | None = None  # a LRIG whose grow condition names a card: that name
    abilities: tuple[Ability, ...] = ()
    keywords: tuple[str, ...] = ()
    names: dict[str, str] = field(default_factory=dict, compare=False, hash=False)
    # the later mechanics (judge/engine/mechanics/: recollect.py, bet.py, token_arts.py,
    # trap.py, rise.py, resona.py, accessory.py)
    recollect: Cost | None = None  # ARTS: the extra cost that returns it to the LRIG deck
    bet: int = 0  # ARTS: the coins it may bet
    bet_effect: tuple[Op, ...] = ()  # ARTS: what it does instead when the coins are bet
    token: bool = False  # ARTS: a token ARTS, made by an effect (make_token)
    trap: tuple[Op, ...] = ()  # SIGNI or Spell: the effect it has when revealed as a Trap
    rise: tuple[str, ...] = ()  # SIGNI: the names of the SIGNI it must be put onto
    summon: Summon | None = None  # Resona: its summoning condition
    grants: tuple[str, ...] = ()  # Accessory: the keywords the SIGNI it is attached to has
    coins: int = 0  # Key: the BET coins its summoning takes besides its cost (mechanics/keys.py)
    #: an ARTS's or Spell's modes ("choose one"): ``choose`` of them, picked when it is used
    modes: tuple[tuple[Op, ...], ...] = ()
    choose: int = 1
    #: Cross: (the partner's card name, ``left`` or ``right``: the SIGNI zone next to this
    #: one, seen from its player, where the partner must be)
    cross: tuple[str, str] | None = None
    #: whether the layer of continuous effects reads it on the field: one of its abilities
    #: is a constant ability, or it has a cross condition (an ability of its text that
    #: makes a state, 003, クロス: its cross state is read from the layer, so a game with a
    #: Cross SIGNI on the field and nothing else in force still computes one; issue 30); and
    #: the triggers its abilities wait for (set from ``abilities``)
    has_const: bool = field(init=False, default=False, compare=False, hash=False)
    triggers: frozenset[str] = field(init=False, default=frozenset(), compare=False,
                                     hash=False)

    def __post_init__(self) -> None:
        if self.cross is not None:
            object.__setattr__(self, "has_const", True)
        if self.abilities:
            if any(a.kind == "const" for a in self.abilities):
                object.__setattr__(self, "has_const", True)
            object.__setattr__(self, "triggers", frozenset(
                a.trigger for a in self.abilities if a.trigger))

    @property
    def has_burst(self) -> bool:
        return bool(self.life_burst)

    def more_effects(self) -> tuple[tuple[str, tuple[Op, ...]], ...]:
        """The effects of the later mechanics, by the field that holds them."""
        return (("bet.effect", self.bet_effect), ("trap", self.trap))

    @property
    def is_signi_like(self) -> bool:
        return self.type in ("signi", "resona")


# ---------------------------------------------------------------- parsing from TOML values


def _req(raw: Mapping[str, Any], key: str, where: str, valid: tuple[str, ...] = ()) -> Any:
    if key not in raw:
        raise FieldError(f"{where}.{key}", "missing", valid)
    return raw[key]


def _check_keys(raw: Mapping[str, Any], allowed: tuple[str, ...], where: str) -> None:
    for key in raw:
        if key not in allowed:
            raise unknown_field(where, key, allowed)


def _int(value: Any, where: str, maximum: int = MAX_NUMBER, minimum: int | None = None) -> int:
    """A whole number from ``minimum`` (default ``-maximum``) to ``maximum``
    (docs/limits.md); the error names the bound that is broken."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise FieldError(where, f"expected a whole number, got {quote(value)}")
    lowest = -maximum if minimum is None else minimum
    if value < lowest:
        raise FieldError(where, f"must be at least {lowest}"
                                f"{' (docs/limits.md)' if minimum is None else ''}, got "
                                f"{quote(value)}")
    if value > maximum:
        raise FieldError(where, f"must be at most {maximum} (docs/limits.md), got "
                                f"{quote(value)}")
    return value


def _count(value: Any, where: str, minimum: int) -> int:
    """The count of an operation or a target: ``minimum`` to :data:`MAX_COUNT`."""
    return _int(value, where, MAX_COUNT, minimum)


def _opt_int(raw: Mapping[str, Any], key: str, where: str,
             minimum: int | None = None) -> int | None:
    return None if key not in raw else _int(raw[key], f"{where}.{key}", minimum=minimum)


#: The numbers printed on a card (level, power, LRIG limit): none is below zero. (What an
#: effect adds or takes away, ``amount``, may be.)
PRINTED_MINIMUM: Final = 0


def _str(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise FieldError(where, f"expected text, got {quote(value)}")
    return value


def _bool(value: Any, where: str) -> bool:
    if not isinstance(value, bool):
        raise FieldError(where, f"expected true or false, got {quote(value)}")
    return value


def _choice(value: Any, valid: tuple[str, ...], where: str) -> str:
    if value not in valid:
        raise FieldError(where, f"unknown value {quote(value)}", valid)
    return str(value)


ZONE_WORDS: Final = ("deck", "hand", "ener", "trash", "life", "check", "lrig_deck", "lrig_trash",
                     "lrig", "key", "assist1", "assist2", "signi", "signi1", "signi2", "signi3",
                     "field", "cheer", "seed", "trap")
#: The zones an operation's ``zone`` may name, for the operations that do not take any zone
#: of :data:`ZONE_WORDS`: the one table the loader and the schema (judge/scenario/schema.py)
#: read.
OP_ZONES: Final[Mapping[str, tuple[str, ...]]] = {
    "upper_limit": LIMITED_ZONES, "replace": INSTEAD_ZONES, "crystal_arm": CRYSTAL_ZONES,
    **dict.fromkeys(LOOK_OPS, LOOK_ZONES), **dict.fromkeys(MARKER_OPS, MARKER_ZONES)}


def parse_target(raw: Any, where: str) -> Target:
    if raw == "this":
        return Target(this=True)
    if raw == "trigger":
        return Target(trigger=True)
    if isinstance(raw, str):
        return Target(labels=(raw,))
    if isinstance(raw, list):
        return Target(labels=tuple(_str(v, f"{where}[{i}]") for i, v in enumerate(raw)))
    if not isinstance(raw, dict):
        raise FieldError(where, f"expected \"this\", a card label or a table, got {quote(raw)}")
    _check_keys(raw, TARGET_KEYS, where)
    count = _count(raw.get("count", 1), f"{where}.count", 1)
    ctype = raw.get("type")
    every = _bool(raw.get("all", False), f"{where}.all")
    if every and ("count" in raw or "up_to" in raw or "chooser" in raw):
        key = next(k for k in ("count", "up_to", "chooser") if k in raw)
        raise FieldError(f"{where}.{key}", "a target with all = true takes every matching "
                                           "card: nobody chooses how many")
    return Target(
        who=_choice(raw.get("who", "self"), TARGET_WHO, f"{where}.who"),
        zone=_choice(raw.get("zone", "signi"), ZONE_WORDS, f"{where}.zone"),
        count=count,
        up_to=_bool(raw.get("up_to", False), f"{where}.up_to"),
        card_type=None if ctype is None else _choice(ctype, CARD_TYPES, f"{where}.type"),
        chooser=_choice(raw.get("chooser", "self"), ("self", "opponent"), f"{where}.chooser"),
        all=every,
        other=_bool(raw.get("other", False), f"{where}.other"),
        filter=parse_filter({k: v for k, v in raw.items() if k != "type"}, where, CARD_TYPES),
    )


def _derived_refused(where: str, what: str) -> FieldError:
    return FieldError(where, f"{what} cannot read power, level or abilities: the layer of "
                             "continuous effects computes them (docs/coverage.md); a filter "
                             "may read them in a target chosen or an if checked when an "
                             "effect resolves")


#: The keys of a target table.
TARGET_KEYS: Final = ("who", "zone", "count", "up_to", "type", "chooser", "all", "other", "class",
                      "colour", "crossed", *STATE_KEYS)


def parse_op(raw: Any, where: str, *, const: bool = False) -> Op:
    """One operation; with ``const``, one of a constant ability's (:data:`CONST_OPS`: its
    targets take every matching card, and it has no duration of its own)."""
    if not isinstance(raw, dict):
        raise FieldError(where, f"expected a table such as {{op = \"draw\"}}, got {quote(raw)}")
    valid = CONST_OPS if const else tuple(OPS)
    name = _choice(_req(raw, "op", where, valid), valid, f"{where}.op")
    fields = OPS[name][0]
    if const:
        fields = tuple(f for f in fields if f not in ("until", "while"))
        _check_keys(raw, ("op", *fields), where)
    else:
        _check_keys(raw, ("op", *fields, *COMMON_OP_FIELDS), where)
    what = event = ""
    if name == "cannot":
        what = _choice(_req(raw, "what", where, (*CARD_CANNOT, *PLAYER_CANNOT)),
                       (*CARD_CANNOT, *PLAYER_CANNOT), f"{where}.what")
    if name == "replace":
        event = _choice(_req(raw, "event", where, (*CARD_EVENTS, *PLAYER_EVENTS)),
                        (*CARD_EVENTS, *PLAYER_EVENTS), f"{where}.event")
    target = None
    if "target" in fields and "target" in raw:
        target = parse_target(raw["target"], f"{where}.target")
        if const:
            if target.labels or target.trigger:
                raise FieldError(f"{where}.target", "a constant ability acts on \"this\" or on "
                                                    "every card a table matches, not on labels "
                                                    "or \"trigger\"")
            if not target.this:
                target = Target(who=target.who, zone=target.zone, card_type=target.card_type,
                                all=True, other=target.other, filter=target.filter)
            state = target.filter.state
            if state is not None and state.derived:
                raise _derived_refused(f"{where}.target", "a constant ability's target")
    needs_target = "target" in fields and name != "discard" and (
        "who" not in fields or what in CARD_CANNOT or event in CARD_EVENTS)
    if needs_target and target is None:
        raise FieldError(f"{where}.target", f"missing (the {name} operation needs a target)")
    if target is not None and not needs_target and name in ("cannot", "replace"):
        raise FieldError(f"{where}.target", f"{name} for a player takes who, not a target")
    if needs_target and "who" in fields and "who" in raw:
        # the target says whose cards: a who beside it would say nothing
        raise FieldError(f"{where}.who", f"{name} {what or event} acts on the cards of its "
                                         "target, whose who says whose they are: write who in "
                                         "the target table")
    if name == "discard":
        target = _discard_target(raw, target, where)
    if name in LOOK_OPS:
        target = _look_target(raw, name, target, where)
    count = _count(raw.get("count", 1), f"{where}.count", 0)
    if name == "place" and "position" in raw and raw.get("zone") not in ("deck", "life"):
        raise FieldError(f"{where}.position", "only a place into the deck or the life cloth has "
                                              "a top and a bottom", ("deck", "life"))
    if name == "place" and "zone" not in raw:
        raise FieldError(f"{where}.zone", "missing (place needs the zone to put cards into)")
    zone = ""
    if "zone" in raw:
        zone = _choice(raw["zone"], OP_ZONES.get(name, ZONE_WORDS), f"{where}.zone")
    if name in MARKER_OPS and zone not in ("", "signi") and "count" in raw:
        raise FieldError(f"{where}.count", f"{name} on the zone {zone} acts on that one zone: "
                                           "give count only with zone = \"signi\" (chosen)")
    if name == "crystal_arm" and not zone:
        raise FieldError(f"{where}.zone", "missing (the zone the card of the SIGNI's name is "
                                          "taken from)", CRYSTAL_ZONES)
    if name == "upper_limit" and not zone:
        raise FieldError(f"{where}.zone", "missing (the zone whose upper limit is set)",
                         LIMITED_ZONES)
    if name in (*COUNT_LIMIT_OPS, "set_power", "set_level") and "amount" not in raw:
        raise FieldError(f"{where}.amount", f"missing (the value {name} sets)")
    amount = _int(raw.get("amount", 0), f"{where}.amount")
    if name == "registrations" and amount < 1:
        raise FieldError(f"{where}.amount", f"a player gains 1 or more registrations, got "
                                            f"{amount}")
    if name in COUNT_LIMIT_OPS and amount < 0:
        raise FieldError(f"{where}.amount", f"must be 0 or more, got {amount}")
    instead: tuple[Op, ...] = ()
    if "ops" in raw:
        instead = parse_effect(raw["ops"], f"{where}.ops")
    if name == "replace":
        if event in PLAYER_EVENTS and zone:
            raise FieldError(f"{where}.zone", f"a {event} is replaced by operations (ops), not "
                                              "by a zone")
        if bool(zone) == bool(instead):
            raise FieldError(f"{where}.ops" if not zone else f"{where}.zone",
                             "give exactly one of zone (where the card goes instead) and ops "
                             "(what happens instead)")
    cond = None
    if "while" in raw:
        cond = parse_condition(raw["while"], f"{where}.while", CARD_TYPES)
        if "until" in raw:
            raise FieldError(f"{where}.until", "an effect lasts either until a time or while a "
                                               "condition holds, not both")
        if cond.derived:
            raise _derived_refused(f"{where}.while", "the while of an effect in force")
    for_each = _for_each(raw, name, target, const, where)
    keep = None
    if "keep" in raw:
        if "target" in raw or "count" in raw:
            raise FieldError(f"{where}.keep", "discards the cards above this many in the hand "
                                              "(chosen by their player): not with a target or "
                                              "a count")
        keep = _int(raw["keep"], f"{where}.keep", MAX_COUNT, 0)
        if for_each is not None:
            raise FieldError(f"{where}.for_each", "a discard with keep has no count to "
                                                  "multiply")
    return Op(
        name=name,
        who=_choice(raw.get("who", "opponent" if name in WHO_OPPONENT else "self"), WHO,
                    f"{where}.who"),
        count=count,
        amount=amount,
        target=target,
        zone=zone,
        position=_choice(raw.get("position", "top"), POSITIONS, f"{where}.position"),
        card=_str(raw.get("card", ""), f"{where}.card"),
        ignore_conditions=_bool(raw.get("ignore_conditions", False),
                                f"{where}.ignore_conditions"),
        keyword=_choice(raw["keyword"], mechanics.keyword_ids(), f"{where}.keyword")
        if "keyword" in raw
        else "",
        cost=_cost_amounts(raw["cost"], f"{where}.cost") if "cost" in raw else (),
        until=_choice(raw.get("until", "end_of_turn"), UNTIL, f"{where}.until"),
        cond=cond,
        only_if=parse_condition(raw["if"], f"{where}.if", CARD_TYPES) if "if" in raw else None,
        if_done=_bool(raw.get("if_done", False), f"{where}.if_done"),
        what=what,
        by=_cannot_by(raw, name, what, where),
        by_kind=_by_kind(raw, what, where),
        event=event,
        ops=instead,
        optional=_bool(raw.get("optional", False), f"{where}.optional"),
        free=_bool(raw.get("free", False), f"{where}.free"),
        ignore_limiting=_bool(raw.get("ignore_limiting", False), f"{where}.ignore_limiting"),
        for_each=for_each,
        keep=keep,
        rest=_choice(raw["rest"], RESTS, f"{where}.rest") if "rest" in raw else "",
        reveal=_bool(raw.get("reveal", False), f"{where}.reveal"),
        look_from=_look_from(raw, where),
    )


def _look_from(raw: Mapping[str, Any], where: str) -> str:
    """``look``'s ``from``: "hand" to look at a whole hand (no count; the cards not taken
    stay; the cards taken go to a zone that is not the hand); "" for the main deck."""
    if "from" not in raw:
        return ""
    if _choice(raw["from"], LOOK_FROM, f"{where}.from") == "deck":
        return ""
    for key in ("count", "rest"):
        if key in raw:
            raise FieldError(f"{where}.{key}", f"a look at a hand sees the whole hand and "
                                               f"leaves there what it does not take: no {key}")
    if raw.get("zone") in (None, "hand"):
        raise FieldError(f"{where}.zone", "a look at a hand takes cards out of it: say where "
                                          "they go", tuple(z for z in LOOK_ZONES if z != "hand"))
    return "hand"


def _look_target(raw: Mapping[str, Any], name: str, target: Target | None,
                 where: str) -> Target | None:
    """A looking operation's target: which of the cards looked at are taken (its count,
    up_to and filter keys); whose cards and from where are the operation's (``who``, the
    main deck), so the target table may not say them. ``look`` needs its ``count``."""
    if name == "look" and "count" not in raw and raw.get("from") != "hand":
        raise FieldError(f"{where}.count", "missing (how many cards from the top are looked "
                                           "at)")
    if target is None:
        if name != "look":
            raise FieldError(f"{where}.target", f"missing ({name} needs a target table: which "
                                                "cards are taken)")
        return None
    table = raw["target"]
    if not isinstance(table, dict):
        raise FieldError(f"{where}.target", f"{name} takes cards no one has seen before it "
                                            "resolves: give a table such as { type = "
                                            "\"signi\", up_to = true }, not card labels")
    for key in LOOK_FIXED:
        if key in table:
            raise FieldError(f"{where}.target.{key}", f"the cards {name} takes are among those "
                                                      "it looks at: say whose deck with the "
                                                      "operation's who")
    return Target(who="self", zone="deck", count=target.count, up_to=target.up_to,
                  card_type=target.card_type, filter=target.filter)


def _for_each(raw: Mapping[str, Any], name: str, target: Target | None, const: bool,
              where: str) -> ForEach | None:
    """An operation's ``for_each`` (:mod:`judge.engine.amounts`): a constant ability's only
    counts (nothing resolves for it to have done or paid) and reads no power or level; a
    discard's multiplies a count, not named cards."""
    if "for_each" not in raw:
        return None
    each = parse_for_each(raw["for_each"], f"{where}.for_each", CARD_TYPES)
    if const and each.word:
        raise FieldError(f"{where}.for_each", f"a constant ability resolves nothing, so "
                                              f"nothing was {each.word} for it: give a count "
                                              "table such as { zone = \"hand\" }")
    if const and each.derived:
        raise _derived_refused(f"{where}.for_each", "a constant ability's count")
    if name == "discard" and target is not None and (target.labels or target.this):
        raise FieldError(f"{where}.for_each", "a discard of named cards has no count to "
                                              "multiply: give a target table")
    if name not in FOR_EACH_OPS:  # pragma: no cover - OPS lists for_each for these only
        raise FieldError(f"{where}.for_each", f"{name} has no number to multiply")
    return each


def _cannot_by(raw: Mapping[str, Any], name: str, what: str, where: str) -> str:
    """A ``cannot``'s ``by``: only a resistance (:data:`RESISTANCES`) says whose effects it
    resists; "" when not given."""
    if "by" not in raw:
        return ""
    if what not in RESISTANCES:
        raise FieldError(f"{where}.by", f"cannot {what} is not a resistance to effects, so it "
                         "has no by: only these kinds say whose effects they resist",
                         RESISTANCES)
    return _choice(raw["by"], CANNOT_BY, f"{where}.by")


def _by_kind(raw: Mapping[str, Any], what: str, where: str) -> str:
    """A ``cannot``'s ``by_kind``: the kind of source a resistance to banishing or trashing
    is limited to; "" when not given."""
    if "by_kind" not in raw:
        return ""
    if what not in KIND_RESISTANCES:
        raise FieldError(f"{where}.by_kind", f"cannot {what or '(none)'} has no by_kind: "
                         "only these kinds are limited to a kind of source", KIND_RESISTANCES)
    return _choice(raw["by_kind"], BY_KINDS, f"{where}.by_kind")


#: Whose hand a ``discard`` without a target takes cards from (that player chooses them).
DISCARD_WHO: Final = ("self", "opponent")


def _discard_target(raw: Mapping[str, Any], target: Target | None, where: str) -> Target:
    """A ``discard``'s cards: its ``target``, or ``count`` cards that the player ``who``
    (default ``self``) chooses from their own hand; not both."""
    if target is not None:
        for key in ("who", "count"):
            if key in raw:
                raise FieldError(f"{where}.{key}", "a discard with a target discards the cards "
                                 "its target names: give either target or who and count")
        return target
    who = _choice(raw.get("who", "self"), DISCARD_WHO, f"{where}.who")
    return Target(who=who, zone="hand", count=_count(raw.get("count", 1), f"{where}.count", 1),
                  chooser=who)


def _cost_amounts(raw: Any, where: str) -> tuple[tuple[str, int], ...]:
    """Colour counts for cost_change/cost_modify; negative counts only make sense to modify."""
    if not isinstance(raw, dict):
        raise FieldError(where, f"expected a table such as {{ colourless = -1 }}, got {quote(raw)}")
    out: dict[str, int] = {}
    for colour, count in raw.items():
        _choice(colour, COLOURS, f"{where}.{colour}")
        out[colour] = _int(count, f"{where}.{colour}", MAX_COUNT)
    return tuple((c, out[c]) for c in COLOURS if c in out)


def parse_effect(raw: Any, where: str, *, const: bool = False,
                 triggered: bool = False) -> tuple[Op, ...]:
    """An effect: a list of operations; only a triggered ability's (``triggered``) may act on
    ``target = "trigger"``, the card whose event triggered it."""
    if not isinstance(raw, list):
        raise FieldError(where, "expected a list of operations")
    ops = tuple(parse_op(op, f"{where}[{i}]", const=const) for i, op in enumerate(raw))
    if not triggered:
        for i, op in enumerate(ops):
            if op.target is not None and op.target.trigger:
                raise FieldError(f"{where}[{i}].target", "\"trigger\" is the card whose event "
                                 "triggered an ability: only an auto ability's effect has one")
    if ops and ops[0].if_done:
        raise FieldError(f"{where}[0].if_done", "the first operation has no operation before "
                                                "it to have been done")
    return ops


def parse_modes(raw: Mapping[str, Any], where: str, triggered: bool = False
                ) -> tuple[tuple[tuple[Op, ...], ...], int]:
    """``modes`` (a list of operation lists, in printed order) and ``choose`` (how many the
    player picks, default 1) of a card or an ability."""
    if "modes" not in raw:
        if "choose" in raw:
            raise FieldError(f"{where}.choose", "only something with modes chooses them")
        return (), 1
    modes_raw = raw["modes"]
    if not isinstance(modes_raw, list) or not 2 <= len(modes_raw) <= MAX_MODES:
        raise FieldError(f"{where}.modes", f"expected a list of 2 to {MAX_MODES} modes, each a "
                                           "list of operations")
    modes = tuple(parse_effect(m, f"{where}.modes[{i}]", triggered=triggered)
                  for i, m in enumerate(modes_raw))
    choose = _count(raw.get("choose", 1), f"{where}.choose", 1)
    if choose >= len(modes):
        raise FieldError(f"{where}.choose", f"must be less than the {len(modes)} modes, got "
                                            f"{choose}")
    return modes, choose


def _const_effect(raw: Mapping[str, Any], where: str) -> tuple[Op, ...]:
    """A constant ability's operations: ``effect``, or the shorthand ``stat``/``amount``/
    ``applies_to`` (a change of power or level of this SIGNI or of each of its player's)."""
    if "effect" in raw:
        for key in ("stat", "amount", "applies_to"):
            if key in raw:
                raise FieldError(f"{where}.{key}", "give either the effect or the shorthand "
                                                   "stat/amount/applies_to")
        return parse_effect(raw["effect"], f"{where}.effect", const=True)
    stat = _choice(_req(raw, "stat", where, ("power", "level")), ("power", "level"),
                   f"{where}.stat")
    amount = _int(_req(raw, "amount", where), f"{where}.amount")
    applies = _choice(raw.get("applies_to", "this"), ("this", "own_signi"),
                      f"{where}.applies_to")
    target = Target(this=True) if applies == "this" else Target(all=True)
    return (Op(stat, amount=amount, target=target),)


ABILITY_KEYS: Final = ("kind", "effect", "trigger", "zone", "optional", "stat", "amount",
                       "applies_to", "cost", "while", "once_per_turn", "by", "modes", "choose",
                       "whose", "timing")


def _ability_timing(raw: Mapping[str, Any], kind: str, where: str) -> tuple[str, ...]:
    """An action ability's use timing (``timing``: ``"attack"`` or a list of
    :data:`ABILITY_TIMINGS`); without one, its player's own main phase."""
    if "timing" not in raw:
        return ("main",)
    if kind != "action":
        raise FieldError(f"{where}.timing", f"only an action ability has a use timing, not an "
                                            f"{kind} ability")
    value = raw["timing"]
    items = value if isinstance(value, list) else [value]
    if not items:
        raise FieldError(f"{where}.timing", "names no timing", ABILITY_TIMINGS)
    return tuple(dict.fromkeys(_choice(t, ABILITY_TIMINGS, f"{where}.timing") for t in items))


def parse_ability(raw: Any, where: str, index: int) -> Ability:
    if not isinstance(raw, dict):
        raise FieldError(where, "expected a table")
    kind = _choice(_req(raw, "kind", where, ABILITY_KINDS), ABILITY_KINDS, f"{where}.kind")
    _check_keys(raw, ABILITY_KEYS, where)
    trigger = None
    zone = ""
    if kind == "auto":
        trigger = _choice(_req(raw, "trigger", where, tuple(TRIGGERS)), tuple(TRIGGERS),
                          f"{where}.trigger")
        zone = TRIGGER_ZONES[trigger]
    elif "trigger" in raw:
        raise FieldError(f"{where}.trigger", f"only auto abilities have a trigger, not {kind}")
    if kind == "on_play":
        trigger, zone = "on_play", "field"
    if "zone" in raw:
        if kind in ("action", "const"):
            raise FieldError(f"{where}.zone", f"an {kind} ability works from the field: only a "
                             "triggered (auto) ability says where it works from")
        zone = _choice(raw["zone"], ("", "field", "trash", "hand", "ener"), f"{where}.zone")
    if kind == "action" and "optional" in raw:
        raise FieldError(f"{where}.optional", "an action ability is used only when its player "
                         "chooses to: only auto and on_play abilities are optional")
    by = _choice(raw.get("by", "any"), BY, f"{where}.by")
    if "by" in raw and trigger not in BY_TRIGGERS:
        raise FieldError(f"{where}.by", "only these triggers watch whose effect or use it is",
                         BY_TRIGGERS)
    whose = _choice(raw.get("whose", "any"), WHOSE, f"{where}.whose")
    if "whose" in raw and trigger not in OTHERS_TRIGGERS:
        raise FieldError(f"{where}.whose", "only these triggers watch another card, whose it "
                                           "says", OTHERS_TRIGGERS)
    cond = None
    modes: tuple[tuple[Op, ...], ...] = ()
    choose = 1
    if kind == "const":
        for key in ("cost", "once_per_turn", "modes", "optional"):
            if key in raw:
                raise FieldError(f"{where}.{key}", f"a constant ability has no {key}")
        effect = _const_effect(raw, where)
        if "while" in raw:
            cond = parse_condition(raw["while"], f"{where}.while", CARD_TYPES)
            if cond.derived:
                raise _derived_refused(f"{where}.while", "a constant ability's condition")
    else:
        for key in ("stat", "amount", "applies_to", "while"):
            if key in raw:
                raise FieldError(f"{where}.{key}", f"only a constant ability has {key}")
        modes, choose = parse_modes(raw, where, triggered=kind == "auto")
        effect = parse_effect(raw["effect"], f"{where}.effect", triggered=kind == "auto") \
            if "effect" in raw or not modes else ()
    cost = parse_cost(raw["cost"], f"{where}.cost") if "cost" in raw else Cost()
    return Ability(kind=kind, effect=effect, trigger=trigger, zone=zone,
                   optional=_bool(raw.get("optional", False), f"{where}.optional")
                   # a triggered (or on-play) ability with a cost may be left unused (WIXOSS
                   # TCG Wiki, 間違えやすいルール, 出現時能力)
                   or (kind in ("auto", "on_play") and not cost.free),
                   index=index, cost=cost, cond=cond,
                   once_per_turn=_bool(raw.get("once_per_turn", False),
                                       f"{where}.once_per_turn"),
                   by=by, modes=modes, choose=choose, whose=whose,
                   timing=_ability_timing(raw, kind, where))


#: The card fields of the later mechanics and the card types that may have each.
LATER_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    "recollect": ("arts",), "bet": ("arts",), "token": ("arts",), "trap": ("signi", "spell"),
    "rise": ("signi",), "summon": ("resona",), "grants": ("signi",), "coins": ("key",),
}


#: The printed fields that only some card types have, and those types: on any other card
#: nothing in the engine would read the field, so it is refused. (The fields of the later
#: mechanics are in :data:`LATER_FIELDS`; ``timing``, ``grow_from``, ``modes`` and ``cross``
#: are checked where they are read.)
TYPE_FIELDS: Final[dict[str, tuple[str, ...]]] = {
    # a LRIG's level and limit bound the SIGNI (rule processing 2); SIGNI levels are compared
    "level": ("lrig", "signi", "resona"),
    "power": ("signi", "resona"),  # battle and rule processing 1 read the power of SIGNI
    "limit": ("lrig",),
    "lrig_type": ("lrig",),  # grow and limiting conditions compare the centre LRIG's
    "limiting": ("signi", "resona", "arts", "spell", "key"),
    "guard": ("signi",),  # a Guard card is a SIGNI in the hand
    "class": ("signi", "resona"),
    "life_burst": ("signi", "spell"),  # only main-deck cards are crushed from the life cloth
    "effect": ("arts", "spell"),  # what an ARTS or a Spell does when used
    # to grow into a LRIG, to use an ARTS or a Spell, to summon a Key
    "cost": ("lrig", "arts", "spell", "key"),
    "abilities": ("lrig", "signi", "resona", "spell", "key"),
    "keywords": ("lrig", "signi", "resona", "spell", "key"),
}

CARD_FIELDS: Final = ("name", "type", "colour", "level", "power", "limit", "lrig_type", "class",
                      "limiting", "guard", "life_burst", "effect", "abilities", "keywords", "cost",
                      "timing", "grow_from", "modes", "choose", "cross", *LATER_FIELDS)
CROSS_SIDES: Final = ("left", "right")


def parse_card(card_id: str, raw: Any, where: str) -> CardDef:
    """Build a :class:`CardDef` from a TOML table; errors name the field."""
    if not isinstance(raw, dict):
        raise FieldError(where, "expected a table describing the card")
    _check_keys(raw, CARD_FIELDS, where)
    ctype = _choice(_req(raw, "type", where, CARD_TYPES), CARD_TYPES, f"{where}.type")
    for key, types in TYPE_FIELDS.items():
        if key in raw and ctype not in types:
            raise FieldError(f"{where}.{key}", f"a {ctype} has no {key} (only "
                             f"{', '.join(types)})")
    name_raw = raw.get("name", card_id)
    names: dict[str, str] = {}
    if isinstance(name_raw, dict):
        for lang in name_raw:
            if lang not in LANGS:
                raise FieldError(f"{where}.name.{lang}", "unknown language", LANGS)
        names = {str(k): _str(v, f"{where}.name.{k}") for k, v in name_raw.items()}
        name = names.get("en") or names.get("ja") or card_id
    else:
        name = _str(name_raw, f"{where}.name")
    colour_raw = raw.get("colour", "colourless")
    colours = colour_raw if isinstance(colour_raw, list) else [colour_raw]
    colour = tuple(_choice(c, COLOURS, f"{where}.colour") for c in colours)
    level = _opt_int(raw, "level", where, PRINTED_MINIMUM)
    power = _opt_int(raw, "power", where, PRINTED_MINIMUM)
    if ctype in ("signi", "resona"):
        if level is None:
            raise FieldError(f"{where}.level", f"missing (a {ctype} has a level)")
        if power is None:
            raise FieldError(f"{where}.power", f"missing (a {ctype} has a power)")
    if ctype == "lrig":
        if level is None:
            raise FieldError(f"{where}.level", "missing (a LRIG has a level)")
        if "limit" not in raw:
            raise FieldError(f"{where}.limit", "missing (a LRIG has a limit)")
        if "lrig_type" not in raw:
            raise FieldError(f"{where}.lrig_type", "missing (a LRIG has a LRIG type)")
    abilities_raw = raw.get("abilities", [])
    if not isinstance(abilities_raw, list):
        raise FieldError(f"{where}.abilities", "expected a list of [[...abilities]] tables")
    keywords_raw = raw.get("keywords", [])
    if not isinstance(keywords_raw, list):
        raise FieldError(f"{where}.keywords", "expected a list")
    modes, choose = parse_modes(raw, where)
    if modes and ctype not in ("arts", "spell"):
        raise FieldError(f"{where}.modes", f"a {ctype} has no modes of its own (give them to "
                                           "one of its abilities)")
    card = CardDef(
        id=card_id, name=name, type=ctype, colour=colour, level=level, power=power,
        limit=_opt_int(raw, "limit", where, PRINTED_MINIMUM),
        lrig_type=_str(raw["lrig_type"], f"{where}.lrig_type") if "lrig_type" in raw else None,
        card_class=parse_class(raw["class"], f"{where}.class") if "class" in raw else None,
        limiting=_str(raw["limiting"], f"{where}.limiting") if "limiting" in raw else None,
        guard=_bool(raw.get("guard", False), f"{where}.guard"),
        life_burst=parse_effect(raw["life_burst"], f"{where}.life_burst")
        if "life_burst" in raw else (),
        effect=parse_effect(raw["effect"], f"{where}.effect") if "effect" in raw else (),
        abilities=tuple(parse_ability(a, f"{where}.abilities[{i}]", i)
                        for i, a in enumerate(abilities_raw)),
        keywords=tuple(_choice(k, mechanics.keyword_ids(), f"{where}.keywords[{i}]")
                       for i, k in enumerate(keywords_raw)),
        names=names,
        cost=parse_cost(raw["cost"], f"{where}.cost") if "cost" in raw else Cost(),
        timing=_timing(raw, ctype, where),
        grow_from=_grow_from(raw, ctype, where),
        modes=modes, choose=choose,
        cross=_cross(raw, ctype, where),
        **_later_fields(raw, ctype, where),
    )
    _check_own_moves(card, where)
    return card


def _later_fields(raw: Mapping[str, Any], ctype: str, where: str) -> dict[str, Any]:
    """The fields of the later mechanics (recollect, BET, token ARTS, Trap, Rise, a Resona's
    summoning condition, what an Accessory grants), each allowed on its card types only."""
    out: dict[str, Any] = {}
    for name, types in LATER_FIELDS.items():
        if name in raw and ctype not in types:
            raise FieldError(f"{where}.{name}", f"only for {' and '.join(types)} cards, not a "
                             f"{ctype}")
    if "recollect" in raw:
        out["recollect"] = parse_cost(raw["recollect"], f"{where}.recollect")
    if "bet" in raw:
        bet = raw["bet"]
        if not isinstance(bet, dict):
            raise FieldError(f"{where}.bet", "expected a table such as { coins = 1, effect = "
                             f"[...] }}, got {quote(bet)}")
        _check_keys(bet, ("coins", "effect"), f"{where}.bet")
        out["bet"] = _count(_req(bet, "coins", f"{where}.bet"), f"{where}.bet.coins", 1)
        out["bet_effect"] = parse_effect(_req(bet, "effect", f"{where}.bet"),
                                         f"{where}.bet.effect")
    if "token" in raw:
        out["token"] = _bool(raw["token"], f"{where}.token")
    if "coins" in raw:
        out["coins"] = _count(raw["coins"], f"{where}.coins", 1)
    if "trap" in raw:
        out["trap"] = parse_effect(raw["trap"], f"{where}.trap")
    if "rise" in raw:
        names = raw["rise"] if isinstance(raw["rise"], list) else [raw["rise"]]
        out["rise"] = tuple(_str(n, f"{where}.rise[{i}]") for i, n in enumerate(names))
        if not out["rise"]:
            raise FieldError(f"{where}.rise", "names no SIGNI to rise on")
    if "summon" in raw:
        cond = raw["summon"]
        if not isinstance(cond, dict):
            raise FieldError(f"{where}.summon", "expected a table such as { signi = 2, class = "
                             f"\"...\" }}, got {quote(cond)}")
        _check_keys(cond, ("signi", "class"), f"{where}.summon")
        out["summon"] = Summon(
            _count(_req(cond, "signi", f"{where}.summon"), f"{where}.summon.signi", 1),
            _str(cond["class"], f"{where}.summon.class") if "class" in cond else None)
    if "grants" in raw:
        keywords = raw["grants"] if isinstance(raw["grants"], list) else [raw["grants"]]
        out["grants"] = tuple(_choice(k, mechanics.keyword_ids(), f"{where}.grants[{i}]")
                              for i, k in enumerate(keywords))
        if "accessory" not in raw.get("keywords", ()):
            raise FieldError(f"{where}.grants", "only a card with the Accessory keyword "
                             "(keywords = [\"accessory\"]) grants keywords")
    return out


def _check_own_moves(card: CardDef, where: str) -> None:
    """Refuse an effect of the card that puts the card itself (``"this"``) into a zone its
    type cannot be in, such as an ARTS returning itself to the hand (judge.engine.placement)."""
    effects = [("effect", card.effect), ("life_burst", card.life_burst)]
    effects += [(f"modes[{i}]", m) for i, m in enumerate(card.modes)]
    effects += [(f"abilities[{a.index}].effect", a.effect) for a in card.abilities]
    effects += [(f"abilities[{a.index}].modes[{i}]", m) for a in card.abilities
                for i, m in enumerate(a.modes)]
    for path, ops in effects:
        for i, op in enumerate(ops):
            problem = op_problem(op, {}, source=card)
            if problem:
                raise FieldError(f"{where}.{path}[{i}]", problem)
    allowed = OP_CARD_TYPES
    for path, ops in effects:
        for i, op in enumerate(ops):
            for inner in (op, *op.ops):
                types = allowed.get(inner.name)
                if types is not None and card.type not in types:
                    raise FieldError(f"{where}.{path}[{i}].op", f"only the effects of a "
                                     f"{' or '.join(types)} have {inner.name}, not a "
                                     f"{card.type}'s", types)


def _cross(raw: Mapping[str, Any], ctype: str, where: str) -> tuple[str, str] | None:
    """Cross (003, クロス): ``cross = { partner = "NAME", side = "left" }``: the SIGNI is in a
    cross state while a SIGNI of that name is in the SIGNI zone on that side of it."""
    if "cross" not in raw:
        return None
    if ctype != "signi":
        raise FieldError(f"{where}.cross", f"only a SIGNI has a cross condition, not a {ctype}")
    body = raw["cross"]
    if not isinstance(body, dict):
        raise FieldError(f"{where}.cross", "expected a table { partner = \"NAME\", side = "
                                           "\"left\" }")
    _check_keys(body, ("partner", "side"), f"{where}.cross")
    partner = _str(_req(body, "partner", f"{where}.cross"), f"{where}.cross.partner")
    side = _choice(_req(body, "side", f"{where}.cross", CROSS_SIDES), CROSS_SIDES,
                   f"{where}.cross.side")
    return partner, side


def _grow_from(raw: Mapping[str, Any], ctype: str, where: str) -> str | None:
    if "grow_from" not in raw:
        return None
    if ctype != "lrig":
        raise FieldError(f"{where}.grow_from", f"only a LRIG has a grow condition, not a {ctype}")
    return _str(raw["grow_from"], f"{where}.grow_from")


def _timing(raw: Mapping[str, Any], ctype: str, where: str) -> tuple[str, ...]:
    if "timing" not in raw:
        return ("main",) if ctype in ("arts", "spell") else ()
    if ctype != "arts":
        raise FieldError(f"{where}.timing", f"only an ARTS has a use timing, not a {ctype}")
    value = raw["timing"]
    items = value if isinstance(value, list) else [value]
    return tuple(_choice(t, TIMINGS, f"{where}.timing") for t in items)


#: The card a label stands for when a scenario names no card id: a plain SIGNI.
FILLER: Final = CardDef(id="filler", name="filler", type="signi", colour=("white",), level=1,
                        power=1000)
