"""Game state: two players, their zones and the card instances in them. No rules here.

Zones follow the Chinese wiki's "WIXOSS/游戏规则" field layout and the digest: main deck, hand,
ener zone, trash, life cloth, check zone, LRIG deck, LRIG trash, LRIG zone (the centre LRIG's
stack, top last), the key's place in the LRIG zone, two assist LRIG zones (for rule processing
kind 10), three SIGNI zones and, under each SIGNI zone, the cards under or attached to its SIGNI.
Ordered zones list their cards top first (main deck, life cloth) or oldest first (others).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final, NamedTuple

from judge.errors import FieldError

if TYPE_CHECKING:  # events.py names zones with ZoneRef, and cards.py reads conditions, which
    # read states: only the types are imported here
    from judge.engine.cards import CardDef, Op
    from judge.engine.events import AbilityRef

PLAYERS: Final = ("p1", "p2")

ZONES: Final[tuple[str, ...]] = (
    "deck", "hand", "ener", "trash", "life", "check", "lrig_deck", "lrig_trash", "lrig", "key",
    "assist1", "assist2", "signi1", "signi2", "signi3", "under1", "under2", "under3",
    # the later mechanics: a Seed or a Trap set face down on each SIGNI zone, the cheer zone
    "seed1", "seed2", "seed3", "trap1", "trap2", "trap3", "cheer",
)
SIGNI_ZONES: Final = ("signi1", "signi2", "signi3")
UNDER_ZONES: Final = {"signi1": "under1", "signi2": "under2", "signi3": "under3"}
#: Where a Seed (judge/engine/mechanics/seed.py) and a Trap (trap.py) are set, per SIGNI zone.
SEED_ZONES: Final = {"signi1": "seed1", "signi2": "seed2", "signi3": "seed3"}
TRAP_ZONES: Final = {"signi1": "trap1", "signi2": "trap2", "signi3": "trap3"}
#: The cheer zone (judge/engine/mechanics/cheer.py): its SIGNI is on the field, in no SIGNI
#: zone; it does not count for the limit.
CHEER: Final = "cheer"
#: Where a SIGNI is on the field: the three SIGNI zones and the cheer zone.
ON_FIELD: Final = frozenset((*SIGNI_ZONES, CHEER))
FIELD_ZONES: Final = ("lrig", "key", "assist1", "assist2", *SIGNI_ZONES, "under1", "under2",
                      "under3", *SEED_ZONES.values(), *TRAP_ZONES.values(), CHEER)
LRIG_STACK_ZONES: Final = ("lrig", "assist1", "assist2")
PHASES: Final = ("up", "draw", "ener", "grow", "main", "attack", "end")
#: "setup" is the time before the first turn: drawing the opening hand and redrawing.
GAME_PHASES: Final = ("setup", *PHASES)
#: The steps of the attack phase (Chinese wiki "WIXOSS/游戏规则", attack phase).
ATTACK_STEPS: Final = ("arts", "signi", "lrig")

#: The glossary term (``data/glossary.toml``) of each zone, phase and attack step that has one,
#: declared once: narration names them with the term's name in each language, coverage counts
#: the events in and out of them, the site links to the term's entry. The Key zone and the
#: zones under a SIGNI have no term of their own.
ZONE_TERMS: Final[dict[str, str]] = {
    "deck": "main-deck", "hand": "hand", "ener": "ener-zone", "trash": "trash",
    "life": "life-cloth", "check": "check-zone", "lrig_deck": "lrig-deck",
    "lrig_trash": "lrig-trash", "lrig": "lrig-zone", "assist1": "assist-lrig",
    "assist2": "assist-lrig", "signi1": "signi-zone", "signi2": "signi-zone",
    "signi3": "signi-zone", "cheer": "cheer-zone", "seed1": "seed", "seed2": "seed",
    "seed3": "seed", "trap1": "trap", "trap2": "trap", "trap3": "trap",
}
PHASE_TERMS: Final[dict[str, str]] = {
    "setup": "setup", "up": "up-phase", "draw": "draw-phase", "ener": "ener-phase",
    "grow": "grow-phase", "main": "main-phase", "attack": "attack-phase", "end": "end-phase",
}
ATTACK_STEP_TERMS: Final[dict[str, str]] = {
    "arts": "arts-step", "signi": "signi-attack-step", "lrig": "lrig-attack-step",
}


def other(player: str) -> str:
    return "p2" if player == "p1" else "p1"


class ZoneRef(NamedTuple):
    """A zone of one player; text form ``p1.trash`` round-trips through :meth:`parse`."""

    player: str
    zone: str

    def __str__(self) -> str:
        return f"{self.player}.{self.zone}"

    @classmethod
    def of(cls, player: str, zone: str) -> ZoneRef:
        """The shared value for ``player``'s ``zone`` (zone refs are made very often)."""
        try:
            return _REFS[(player, zone)]
        except KeyError:
            raise FieldError("", f"unknown zone {player}.{zone}", ZONES) from None

    @classmethod
    def parse(cls, text: str) -> ZoneRef:
        player, _, zone = text.partition(".")
        if player not in PLAYERS:
            raise FieldError("", f"unknown player in zone {text!r}", PLAYERS)
        if zone not in ZONES:
            raise FieldError("", f"unknown zone in {text!r}", ZONES)
        return cls(player, zone)


_REFS: Final = {(p, z): ZoneRef(p, z) for p in PLAYERS for z in ZONES}
#: (player, zone) -> the shared ZoneRef (what ZoneRef.of returns, read directly where a ref is
#: made on every move)
ZONE_REFS: Final[dict[tuple[str, str], ZoneRef]] = _REFS
#: Each zone's text form (``p1.trash``), made once.
ZONE_TEXT: Final[dict[ZoneRef, str]] = {ref: f"{ref.player}.{ref.zone}" for ref in _REFS.values()}


def zone_text(ref: ZoneRef) -> str:
    return ZONE_TEXT[ref]


class CardInstance:
    """One physical card in the game. ``label`` is stable for the whole replay.

    A plain class, not a dataclass (equal only to itself, as ``eq=False`` made it): the
    compiled engine (docs/architecture.md, "The compiled engine") makes a dataclass from the
    types of its fields when the module is imported, and ``CardDef`` is not made yet then."""

    __slots__ = ("label", "card", "owner", "zone", "down", "frozen", "face_down", "attach",
                 "crushed", "burst", "level_changed", "epoch", "since", "token", "known")

    label: str
    card: CardDef
    owner: str
    zone: ZoneRef
    down: bool
    frozen: bool
    face_down: bool
    attach: str  # under a SIGNI: "charm", "accessory" or "under"
    crushed: bool  # put into the check zone by a crush
    burst: str  # "pending" while its Life Burst waits, "done" after
    level_changed: bool  # since the previous rule-processing check
    epoch: int  # bumped at every zone change: a new object for the rules
    since: int  # the log's length when it came into its zone (the timestamp of its constant
    # abilities' effects)
    token: bool  # a token ARTS made by an effect (mechanics/token_arts.py)
    #: (epoch, power, level) as it last was on the field, kept when a card with triggered
    #: abilities leaves it: what "this SIGNI's power" reads after it left (while ``epoch``
    #: is still its epoch; conditions.reference)
    known: tuple[int, int, int] | None

    def __init__(self, label: str, card: CardDef, owner: str, zone: ZoneRef,
                 down: bool = False, frozen: bool = False, face_down: bool = False,
                 attach: str = "", crushed: bool = False, burst: str = "",
                 level_changed: bool = False, epoch: int = 0, since: int = 0,
                 token: bool = False) -> None:
        self.label = label
        self.card = card
        self.owner = owner
        self.zone = zone
        self.down = down
        self.frozen = frozen
        self.face_down = face_down
        self.attach = attach
        self.crushed = crushed
        self.burst = burst
        self.level_changed = level_changed
        self.epoch = epoch
        self.since = since
        self.token = token
        self.known = None

    def __repr__(self) -> str:
        return f"<{self.label} {self.card.id} @{self.zone}>"


@dataclass(slots=True)
class Lasting:
    """An effect in force from an operation: a modifier, a "can't", a replacement, ... until
    the end of turn ``expires`` (or, with ``op.cond``, while that condition holds).
    :mod:`judge.engine.continuous` reads these with the constant abilities in force."""

    kind: str  # "power", "level", "limit", "banish_to_trash", "keyword", "cost_change", ...
    player: str  # whose cards it affects
    card: str | None = None  # label, for per-card modifiers
    amount: int = 0
    source: AbilityRef | None = None
    epoch: int = 0  # the card's epoch when it was applied: a card that moves loses it
    text: str = ""  # a keyword, what a "can't" forbids, a replaced event, a limited zone
    amounts: tuple[tuple[str, int], ...] = ()  # colour counts of a cost change
    controller: str = ""  # whose effect it is ("" as the affected player's)
    seq: int = 0  # the log's length when it began: its timestamp
    expires: int = 0  # the turn at whose end it ends (0: this turn, as before durations)
    op: Op | None = None  # the operation, when more than the fields above is needed
    src: tuple[str, int] | None = None  # the card it comes from, as the object it was then

    @property
    def plain(self) -> bool:
        """An effect the summed tables of GameState keep (a modifier, a keyword or a
        banish-to-trash until end of turn, with no condition)."""
        return self.kind in _PLAIN and (self.op is None or self.op.cond is None)


_PLAIN: Final = frozenset({"power", "level", "limit", "keyword", "banish_to_trash", "cost_change",
                           "cost_modify"})


@dataclass
class PlayerState:
    name: str
    zones: dict[str, list[CardInstance]] = field(
        default_factory=lambda: {z: [] for z in ZONES})
    refreshes: int = 0  # refreshes made in the current turn
    draws: int = 0  # cards drawn in the current turn (draw limits count them)
    #: label -> the attacks its SIGNI declared in the current turn (attack limits count them)
    attacks: dict[str, int] = field(default_factory=dict)
    coins: int = 0  # BET coins (mechanics/bet.py)
    #: markers set on this player's SIGNI zones (mechanics/markers.py): kind (``virus``,
    #: ``gate``) -> the SIGNI zones that hold one
    markers: dict[str, set[str]] = field(default_factory=dict)
    registrations: int = 0  # the registration count (mechanics/registrations.py)


@dataclass
class GameState:
    players: dict[str, PlayerState]
    turn: int = 1
    turn_player: str = "p1"
    first_player: str = "p1"
    phase: str = "main"
    lasting: list[Lasting] = field(default_factory=list)
    attack_step: str = ""  # in the attack phase: arts, signi or lrig
    arts_priority: str = ""  # in the ARTS step: the player who may use ARTS now
    ener_done: bool = False  # the turn player used the ener phase's action
    grown: bool = False  # the turn player grew this turn
    removed_turn: int = 0  # the turn in which the turn player last removed SIGNI
    format: str = "all-star"  # judge.engine.formats
    redrawn: set[str] = field(default_factory=set)  # players who redrew their opening hand
    #: the SIGNI in the heaven state, as the objects they were (label, epoch): a card that
    #: moves leaves it (mechanics/heaven.py)
    heaven: set[tuple[str, int]] = field(default_factory=set)
    winner: str | None = None
    win_reason: str | None = None
    cards: dict[str, CardInstance] = field(default_factory=dict)
    #: the effects in force summed up as they are added (add_lasting), so that reading them
    #: costs the same however many there are: (kind, label) -> (epoch, total) for power and
    #: level, label -> (epoch, keywords), player -> limit change, players whose SIGNI go to
    #: the trash when banished
    mods: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict, repr=False)
    given: dict[str, tuple[int, frozenset[str]]] = field(default_factory=dict, repr=False)
    limit_mods: dict[str, int] = field(default_factory=dict, repr=False)
    to_trash: set[str] = field(default_factory=set, repr=False)
    #: effects in force that only judge.engine.continuous reads (a "can't", a condition, a
    #: set value, a replacement, ...): how many there are
    layered: int = 0
    #: abilities used (or triggered) this turn that are limited to once per turn:
    #: (label, epoch, ability index)
    used_once: set[tuple[str, int, int]] = field(default_factory=set, repr=False)
    #: player -> the label of the SIGNI their centre LRIG rides (mechanics/ride.py)
    riding: dict[str, str] = field(default_factory=dict)
    #: counts every change that continuous effects may read (a move, an effect beginning or
    #: ending, a turn beginning): the game computes its layer again when it has changed
    changes: int = 0

    @classmethod
    def empty(cls) -> GameState:
        return cls(players={p: PlayerState(p) for p in PLAYERS})

    def zone(self, player: str, zone: str) -> list[CardInstance]:
        return self.players[player].zones[zone]

    def ref(self, ref: ZoneRef) -> list[CardInstance]:
        return self.players[ref.player].zones[ref.zone]

    def add(self, inst: CardInstance, index: int | None = None) -> None:
        if inst.label in self.cards:
            raise FieldError("", f"card label {inst.label!r} is used twice")
        self.cards[inst.label] = inst
        cards = self.ref(inst.zone)
        cards.insert(len(cards) if index is None else index, inst)

    def add_lasting(self, item: Lasting) -> None:
        """Put an effect in force (until :meth:`expire_lasting` ends it)."""
        self.lasting.append(item)
        self.changes += 1
        if not item.plain or item.expires:
            self.layered += 1
            return
        self._sum(item)

    def _sum(self, item: Lasting) -> None:
        kind, label = item.kind, item.card
        if kind in ("power", "level") and label is not None:
            old = self.mods.get((kind, label))
            total = old[1] + item.amount if old and old[0] == item.epoch else item.amount
            self.mods[(kind, label)] = (item.epoch, total)
        elif kind == "keyword" and label is not None:
            had = self.given.get(label)
            words = had[1] if had and had[0] == item.epoch else frozenset()
            self.given[label] = (item.epoch, words | {item.text})
        elif kind == "limit":
            self.limit_mods[item.player] = self.limit_mods.get(item.player, 0) + item.amount
        elif kind == "banish_to_trash":
            self.to_trash.add(item.player)

    def clear_lasting(self) -> None:
        self.lasting.clear()
        self.mods.clear()
        self.given.clear()
        self.limit_mods.clear()
        self.to_trash.clear()
        self.layered = 0
        self.changes += 1

    def expire_lasting(self, turn: int) -> None:
        """The end of turn ``turn``: effects that last until then end (those until the end of
        a later turn, and those that last while a condition holds, stay)."""
        kept = [x for x in self.lasting if x.expires > turn or
                (x.op is not None and x.op.cond is not None)]
        self.clear_lasting()
        for item in kept:
            self.lasting.append(item)
            self.layered += 1

    def centre(self, player: str) -> CardInstance | None:
        stack = self.players[player].zones["lrig"]
        return stack[-1] if stack else None

    def signi(self, player: str) -> list[CardInstance]:
        """``player``'s SIGNI on the field: those of the SIGNI zones, then the cheer zone's."""
        zones = self.players[player].zones
        return zones["signi1"] + zones["signi2"] + zones["signi3"] + zones["cheer"]

    def all_cards(self) -> list[CardInstance]:
        return [c for p in PLAYERS for z in ZONES for c in self.zone(p, z)]

    def snapshot(self) -> dict[str, dict[str, list[str]]]:
        """Zone contents as labels: the text form used for outcomes and diffs."""
        return {p: {z: [c.label for c in self.zone(p, z)] for z in ZONES} for p in PLAYERS}
