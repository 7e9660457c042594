"""What a replay produced: :class:`Trace` and :class:`Position`, frozen and language-free.

A :class:`Trace` is one branch of one ruling under one rule set: the ordered events, a
:class:`Position` after the set-up and after every step, positions at key events (a move into
the check zone, a Life Burst, a refresh), the choices made and the problems found. A
:class:`Replay` groups the traces of one ruling under one rule set (one per explored branch).
Everything that reads a replay (``judge check``, the pytest items, narration, the boards, the
site, ``judge db``, ``judge coverage``, ``judge replay``) reads these values: none of them holds
a live :class:`~judge.engine.game.Game` or runs the engine again.

:func:`position` freezes a live game into a :class:`Position`; :class:`Tracer` watches the game
the scenario runner plays and records the positions at its key events. Positions have a
text form (:meth:`Position.to_text`, :meth:`Position.from_text`) and a JSON form
(:meth:`Position.to_dict`, :meth:`Position.from_dict`); both round-trip.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from itertools import chain, filterfalse, repeat
from operator import add, attrgetter, itemgetter
from typing import Any, NamedTuple

from judge.engine import events as ev
from judge.engine.conditions import MARKER_KINDS
from judge.engine.events import Event
from judge.engine.game import Game
from judge.engine.state import (
    FIELD_ZONES,
    ON_FIELD,
    PLAYERS,
    SIGNI_ZONES,
    ZONES,
    CardInstance,
    ZoneRef,
)
from judge.engine.visibility import sees
from judge.errors import EngineError

#: Where each zone's cards are in :attr:`PlayerPosition.zones`.
ZONE_INDEX: dict[str, int] = {zone: i for i, zone in enumerate(ZONES)}
_UNDER = frozenset(z for z in ZONES if z.startswith("under"))


# ---------------------------------------------------------------------- positions


class CardState(NamedTuple):
    """One card as it stands: its label, card id and level (printed, or on the field with the
    modifiers and constant abilities in force), its power on the field (``None`` elsewhere),
    whether it is down, frozen or face down, the label of the SIGNI it is attached to (a
    card in an under zone; ``None`` otherwise) and whether it is a token ARTS (made by an
    effect). A SIGNI on the field (a SIGNI zone, the cheer zone) also carries what continuous
    effects make of it (:mod:`judge.engine.continuous`): ``keywords``, the keywords it has now
    (printed ones unless it lost its abilities, with those given by effects, constant
    abilities and Accessories; sorted), ``lost``, whether it has lost its abilities, and
    ``crossed``, whether it is in a cross state. Who may look at it follows from its zone and
    whether it is face down (:func:`judge.engine.visibility.sees`; :meth:`Position.sees`). A
    named tuple: a position is taken after every step, and a set-up may hold a thousand
    cards."""

    label: str
    card: str
    level: int
    power: int | None = None
    down: bool = False
    frozen: bool = False
    face_down: bool = False
    attached_to: str | None = None
    token: bool = False
    keywords: tuple[str, ...] = ()
    lost: bool = False
    crossed: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"label": self.label, "card": self.card, "level": self.level}
        if self.power is not None:
            out["power"] = self.power
        for key in ("down", "frozen", "face_down"):
            if getattr(self, key):
                out[key] = True
        if self.attached_to is not None:
            out["attached_to"] = self.attached_to
        if self.token:
            out["token"] = True
        if self.keywords:
            out["keywords"] = list(self.keywords)
        for key in ("lost", "crossed"):
            if getattr(self, key):
                out[key] = True
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CardState:
        power = data.get("power")
        attached = data.get("attached_to")
        return cls(str(data["label"]), str(data["card"]), int(data["level"]),
                   None if power is None else int(power), bool(data.get("down", False)),
                   bool(data.get("frozen", False)), bool(data.get("face_down", False)),
                   None if attached is None else str(attached), bool(data.get("token", False)),
                   tuple(str(k) for k in data.get("keywords", ())),
                   bool(data.get("lost", False)), bool(data.get("crossed", False)))

    def to_text(self) -> str:
        """``S1 (signi-2, level 2, power 8000, down, under S0)``; a token ARTS ends with
        ``, token``, then a SIGNI's keywords (``, keywords lancer+shadow``), ``, lost
        abilities`` and ``, crossed``."""
        parts = [_token(self.card), f"level {self.level}"]
        if self.power is not None:
            parts.append(f"power {self.power}")
        parts += [name for name, on in (("down", self.down), ("frozen", self.frozen),
                                        ("face-down", self.face_down)) if on]
        if self.attached_to is not None:
            parts.append(f"under {_token(self.attached_to)}")
        if self.token:
            parts.append("token")
        if self.keywords:
            parts.append("keywords " + "+".join(map(_token, self.keywords)))
        if self.lost:
            parts.append("lost abilities")
        if self.crossed:
            parts.append("crossed")
        return f"{_token(self.label)} ({', '.join(parts)})"


class PlayerPosition(NamedTuple):
    """One player's side: every zone's cards in order (top first for the main deck and the
    life cloth, oldest first elsewhere; aligned with :data:`~judge.engine.state.ZONES`), the
    centre LRIG's level, the player's limit, the refreshes made this turn, the player's BET
    coins, the markers on the player's SIGNI zones (``signi1:virus``, in zone then kind order:
    judge/engine/mechanics/markers.py) and the registration count."""

    player: str
    zones: tuple[tuple[CardState, ...], ...]
    lrig_level: int = 0
    limit: int = 0
    refreshes: int = 0
    coins: int = 0
    markers: tuple[str, ...] = ()
    registrations: int = 0

    def zone(self, zone: str) -> tuple[CardState, ...]:
        return self.zones[ZONE_INDEX[zone]]


class Position(NamedTuple):
    """The whole game at one moment, language-free: the turn, the turn player, the phase and
    the attack step, both players' sides (:class:`PlayerPosition`, p1 then p2), the winner
    and how they won, and the zones shuffled so far (``p1.deck``; a shuffled zone compares in
    any order unless the ruling fixes the seed). Named tuples, like events: cheap to make
    after every step."""

    turn: int
    turn_player: str
    phase: str
    attack_step: str
    players: tuple[PlayerPosition, ...]
    winner: str | None = None
    win_reason: str | None = None
    shuffled: tuple[str, ...] = ()

    def player(self, player: str) -> PlayerPosition:
        return self.players[PLAYERS.index(player)]

    def zone(self, player: str, zone: str) -> tuple[CardState, ...]:
        return self.players[PLAYERS.index(player)].zones[ZONE_INDEX[zone]]

    def labels(self, ref: ZoneRef) -> list[str]:
        """The labels of the cards in one zone, in order."""
        return [c.label for c in self.zone(ref.player, ref.zone)]

    def sees(self, viewer: str, label: str) -> bool:
        """Whether player ``viewer`` may look at the card labelled ``label`` now
        (:func:`judge.engine.visibility.sees`)."""
        where, card = self.find(label)
        return sees(viewer, where.player, where.zone, card.face_down)

    def hidden_from(self, viewer: str) -> frozenset[str]:
        """The labels of the cards ``viewer`` may not look at: what a board drawn for that
        player shows face down."""
        return frozenset(card.label for side in self.players
                         for zone, cards in zip(ZONES, side.zones, strict=True)
                         for card in cards
                         if not sees(viewer, side.player, zone, card.face_down))

    def find(self, label: str) -> tuple[ZoneRef, CardState]:
        """Where the card labelled ``label`` is, and its state (an EngineError if no card
        has that label)."""
        for side in self.players:
            for zone, cards in zip(ZONES, side.zones, strict=True):
                for card in cards:
                    if card.label == label:
                        return ZoneRef.of(side.player, zone), card
        raise EngineError(f"no card labelled {label!r}")

    # -------------------------------------------------------------- JSON form

    def to_dict(self) -> dict[str, Any]:
        """The JSON form: only the zones that hold a card are listed."""
        return {
            "turn": self.turn, "turn_player": self.turn_player, "phase": self.phase,
            "attack_step": self.attack_step, "winner": self.winner,
            "win_reason": self.win_reason, "shuffled": list(self.shuffled),
            "players": {side.player: {
                "lrig_level": side.lrig_level, "limit": side.limit,
                "refreshes": side.refreshes,
                **({"coins": side.coins} if side.coins else {}),
                **({"markers": list(side.markers)} if side.markers else {}),
                **({"registrations": side.registrations} if side.registrations else {}),
                "zones": {zone: [c.to_dict() for c in cards]
                          for zone, cards in zip(ZONES, side.zones, strict=True) if cards}}
                for side in self.players},
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Position:
        players = []
        for player in PLAYERS:
            side = data["players"][player]
            zones = side.get("zones", {})
            players.append(PlayerPosition(
                player, tuple(tuple(CardState.from_dict(c) for c in zones.get(zone, ()))
                              for zone in ZONES),
                int(side["lrig_level"]), int(side["limit"]), int(side["refreshes"]),
                int(side.get("coins", 0)), tuple(str(m) for m in side.get("markers", ())),
                int(side.get("registrations", 0))))
        winner, reason = data.get("winner"), data.get("win_reason")
        return cls(int(data["turn"]), str(data["turn_player"]), str(data["phase"]),
                   str(data["attack_step"]), tuple(players),
                   None if winner is None else str(winner),
                   None if reason is None else str(reason),
                   tuple(str(z) for z in data.get("shuffled", ())))

    # -------------------------------------------------------------- text form

    def to_text(self) -> str:
        """Lines: the turn, then per player a line and one indented line per zone that holds a
        card, each card as ``LABEL (CARD, level N[, power N][, down][, frozen][, face-down]
        [, under HOLDER][, token][, keywords K1+K2][, lost abilities][, crossed])``::

            turn 3, turn player p1, phase main, attack step -, winner -, win reason -, shuffled -
            p1: lrig level 3, limit 7, refreshes 0
              signi1: S1 (signi-2, level 2, power 8000)
        """
        head = (f"turn {self.turn}, turn player {_token(self.turn_player)}, "
                f"phase {_token(self.phase)}, attack step {_dash(self.attack_step)}, "
                f"winner {_dash(self.winner)}, win reason {_dash(self.win_reason)}, "
                f"shuffled {' '.join(_token(z) for z in self.shuffled) or '-'}")
        lines = [head]
        for side in self.players:
            coins = f", coins {side.coins}" if side.coins else ""
            if side.registrations:
                coins += f", registrations {side.registrations}"
            if side.markers:
                coins += f", markers {'+'.join(side.markers)}"
            lines.append(f"{side.player}: lrig level {side.lrig_level}, limit {side.limit}, "
                         f"refreshes {side.refreshes}{coins}")
            for zone, cards in zip(ZONES, side.zones, strict=True):
                if cards:
                    lines.append(f"  {zone}: " + " ".join(c.to_text() for c in cards))
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_text()

    @classmethod
    def from_text(cls, text: str) -> Position:
        """The position :meth:`to_text` wrote (a ValueError for anything else)."""
        lines = text.split("\n")
        head = _HEAD.fullmatch(lines[0])
        if head is None:
            raise ValueError(f"not a position's first line: {lines[0]!r}")
        sides: dict[str, tuple[int, int, int, int, tuple[str, ...], int,
                               dict[str, tuple[CardState, ...]]]] = {}
        zones: dict[str, tuple[CardState, ...]] = {}
        for line in lines[1:]:
            side = _SIDE.fullmatch(line)
            if side is not None:
                zones = {}
                sides[side["player"]] = (int(side["level"]), int(side["limit"]),
                                         int(side["refreshes"]), int(side["coins"] or 0),
                                         tuple(side["markers"].split("+"))
                                         if side["markers"] else (),
                                         int(side["registrations"] or 0), zones)
                continue
            row = _ZONE.fullmatch(line)
            if row is None or not sides:
                raise ValueError(f"not a line of a position: {line!r}")
            zones[row["zone"]] = tuple(_card(m) for m in _CARD.finditer(row["cards"]))
        players = tuple(PlayerPosition(p, tuple(sides[p][6].get(z, ()) for z in ZONES),
                                       *sides[p][:6]) for p in PLAYERS)
        shuffled = () if head["shuffled"] == "-" else \
            tuple(_untoken(t) for t in head["shuffled"].split(" "))
        return cls(int(head["turn"]), _untoken(head["player"]), _untoken(head["phase"]),
                   _undash(head["step"]) or "", players, _undash(head["winner"]),
                   _undash(head["reason"]), shuffled)


_PLAIN = re.compile(r"[A-Za-z0-9_.\-]+", re.ASCII)
_TOKEN = r'(?:[A-Za-z0-9_.\-]+|"(?:[^"\\]|\\.)*")'
_HEAD = re.compile(
    rf"turn (?P<turn>-?\d+), turn player (?P<player>{_TOKEN}), phase (?P<phase>{_TOKEN}), "
    rf"attack step (?P<step>{_TOKEN}), winner (?P<winner>{_TOKEN}), "
    rf"win reason (?P<reason>{_TOKEN}), shuffled (?P<shuffled>-|{_TOKEN}(?: {_TOKEN})*)")
_SIDE = re.compile(r"(?P<player>p[12]): lrig level (?P<level>-?\d+), limit (?P<limit>-?\d+), "
                   r"refreshes (?P<refreshes>-?\d+)(?:, coins (?P<coins>-?\d+))?"
                   r"(?:, registrations (?P<registrations>-?\d+))?"
                   r"(?:, markers (?P<markers>[a-z0-9_:]+(?:\+[a-z0-9_:]+)*))?")
_ZONE = re.compile(r"  (?P<zone>[a-z0-9_]+): (?P<cards>.+)")
_CARD = re.compile(
    rf"(?P<label>{_TOKEN}) \((?P<card>{_TOKEN}), level (?P<level>-?\d+)"
    r"(?:, power (?P<power>-?\d+))?(?P<down>, down)?(?P<frozen>, frozen)?"
    rf"(?P<face>, face-down)?(?:, under (?P<under>{_TOKEN}))?(?P<tokenart>, token)?"
    rf"(?:, keywords (?P<keywords>{_TOKEN}(?:\+{_TOKEN})*))?(?P<lost>, lost abilities)?"
    r"(?P<crossed>, crossed)?\)")


_KEYWORD = re.compile(_TOKEN)


def _token(text: str) -> str:
    """A value as one word of the text form: as it is when plain, else JSON-quoted."""
    return text if _PLAIN.fullmatch(text) and text != "-" else json.dumps(text)


def _untoken(text: str) -> str:
    return str(json.loads(text)) if text.startswith('"') else text


def _dash(value: str | None) -> str:
    return _token(value) if value else "-"


def _undash(text: str) -> str | None:
    return None if text == "-" else _untoken(text)


def _card(m: re.Match[str]) -> CardState:
    return CardState(_untoken(m["label"]), _untoken(m["card"]), int(m["level"]),
                     None if m["power"] is None else int(m["power"]), m["down"] is not None,
                     m["frozen"] is not None, m["face"] is not None,
                     None if m["under"] is None else _untoken(m["under"]),
                     m["tokenart"] is not None,
                     () if m["keywords"] is None else
                     tuple(_untoken(k) for k in _KEYWORD.findall(m["keywords"])),
                     m["lost"] is not None, m["crossed"] is not None)


# ---------------------------------------------------------------------- snapshots

_FLAGS = attrgetter("down", "frozen", "face_down")
#: The eight possible marks, so that a captured zone holds these and makes no tuple per card.
_MARKS: dict[tuple[bool, bool, bool], tuple[bool, bool, bool]] = {
    (a, b, c): (a, b, c) for a in (False, True) for b in (False, True) for c in (False, True)}
_MARK = _MARKS.__getitem__
_SIGNI = ON_FIELD  # the zones whose SIGNI have a power: the SIGNI zones and the cheer zone
_NOT_ATTACHED = ("", 0)
_new = tuple.__new__
#: the end of a card state off the field and out of the under zones: attached to no SIGNI,
#: a token ARTS or not, no keywords read, abilities not lost, not crossed
_TAILS = {False: (None, False, (), False, False), True: (None, True, (), False, False)}
_TOKEN_OF = attrgetter("token")


class _Zone:
    """One zone as a snapshot found it: a copy of its list of cards, their marks (down,
    frozen, face down) and, in a SIGNI zone, their powers and levels, in an under zone the
    SIGNI each is attached to. A zone that has not changed since the game's previous snapshot
    is the same object, and its card states are made once (when a position is first read), so
    that the positions of a run share their unchanged zones."""

    __slots__ = ("cards", "marks", "extra", "states")

    def __init__(self, cards: list[CardInstance], marks: list[tuple[bool, bool, bool]],
                 extra: tuple[Any, ...]) -> None:
        self.cards = cards
        self.marks = marks
        self.extra = extra
        self.states: tuple[CardState, ...] | None = None


#: What continuous effects make of a SIGNI on the field: its keywords now (sorted), whether it
#: lost its abilities, whether it is in a cross state.
_Effects = tuple[tuple[str, ...], bool, bool]
_NO_EFFECTS: _Effects = ((), False, False)


def _effects(game: Game, signi: list[CardInstance]) -> tuple[_Effects, ...]:
    """Keywords, lost abilities and cross state of each of ``signi``, as the engine reads
    them (:meth:`~judge.engine.game.Game.keywords`, :attr:`continuous.Layer.lost` and
    ``crossed``)."""
    layer = None if game.plain else game.layer()
    lost = layer.lost if layer is not None else {}
    crossed = layer.crossed if layer is not None else frozenset()
    out = []
    for card in signi:
        words = game.keywords(card)
        label = card.label
        if not words and label not in lost and label not in crossed:
            out.append(_NO_EFFECTS)
        else:
            out.append((tuple(sorted(words)), label in lost, label in crossed))
    return tuple(out)


class _Side(NamedTuple):
    """One player's side as a snapshot found it: its zones (aligned with ZONES; None: empty),
    the LRIG's level, the limit and the refreshes; and what the next snapshot compares to
    tell whether the zones of the field changed: a copy of their lists, their cards' marks,
    the SIGNI's powers and levels, the holders of the attached cards."""

    zones: tuple[_Zone | None, ...]
    lrig_level: int
    limit: int
    refreshes: int
    coins: int
    markers: tuple[str, ...]
    registrations: int
    field: tuple[list[CardInstance], ...]
    field_marks: list[tuple[bool, bool, bool]]
    stats: tuple[tuple[int, ...], tuple[int, ...], tuple[_Effects, ...]] | None
    held: tuple[str, ...]


class _Raw(NamedTuple):
    turn: int
    turn_player: str
    phase: str
    attack_step: str
    sides: tuple[_Side, ...]
    winner: str | None
    win_reason: str | None
    shuffled: tuple[str, ...]


class _Memo:
    """What the snapshots of one game share: the previous snapshot (to reuse the zones that
    did not change), the log's length and the events spent when it was taken, and what never
    changes of each card's state."""

    __slots__ = ("last", "logged", "spent", "bases")

    def __init__(self) -> None:
        self.last: _Raw | None = None
        self.logged = 0
        self.spent = 0
        #: per card, what never changes of its state: label, card id, printed level, no power
        self.bases: dict[CardInstance, tuple[str, str, int, None]] = {}


#: Events that change no zone off the field (main deck, hand, ener zone, trash, life cloth,
#: check zone, LRIG deck, LRIG trash) but those they name. A card changes zone only in
#: :meth:`~judge.engine.game.Game.move` (a ``move`` or ``banish`` event naming both zones)
#: and a zone is reordered only by a ``shuffle`` (naming it); off the field a card is downed,
#: upped or frozen only with a ``down``, ``up`` or ``freeze`` event. So after these events a
#: snapshot reads again only the zones off the field that a move or a shuffle named, and the
#: zones on the field (always read: they are small). Any other event (``down``, ``up``,
#: ``freeze``, a type added later) or events taken back from the log (a refused step) make it
#: read every zone. tests/test_trace.py checks every snapshot of the corpus against a reading
#: of every zone.
ZONE_KEEPING_EVENTS = frozenset({
    "step", "phase", "turn_begin", "turn_end", "effect_begin", "effect_end", "move",
    "skipped", "fizzle", "banish", "shuffle", "refresh", "refresh_waits", "rule_check",
    "power", "level", "limit", "lasting", "replaced", "trigger", "trigger_lost",
    "trigger_declined", "trigger_dropped", "burst", "choice", "game_start", "redraw",
    "attack_step", "arts_pass", "attack", "battle", "guard", "pay", "game_over",
    "illegal"})
_NAMING_ZONES = frozenset({"move", "banish", "shuffle"})
#: 0: off the field, 1: a SIGNI zone, 2: an under zone, 3: the other zones of the field.
_KIND = tuple(1 if zone in _SIGNI else 2 if zone in _UNDER else 3 if zone in FIELD_ZONES
              else 0 for zone in ZONES)
_OFF_FIELD_AT = tuple(i for i, kind in enumerate(_KIND) if kind == 0)
_FIELD_AT = tuple(i for i, kind in enumerate(_KIND) if kind != 0)
_OFF_FIELD_INDEX = tuple({ZoneRef.of(player, ZONES[i]): i for i in _OFF_FIELD_AT}
                         for player in PLAYERS)
_FIELD_LISTS = itemgetter(*(ZONES[i] for i in _FIELD_AT))
_OFF_FIELD_LISTS = itemgetter(*(ZONES[i] for i in _OFF_FIELD_AT))
#: (index, kind) of the zones of the field, aligned with what _FIELD_LISTS gives
_FIELD_ROWS = tuple((i, _KIND[i]) for i in _FIELD_AT)
_UNDER_LISTS = itemgetter(*(z for z in ZONES if z in _UNDER))
_EMPTY: tuple[None, ...] = (None,) * len(ZONES)


def _named(game: Game, memo: _Memo) -> frozenset[ZoneRef] | None:
    """The zones (``p1.deck``) that moves and shuffles named since the previous snapshot, or
    None when every zone must be read again (see :data:`ZONE_KEEPING_EVENTS`)."""
    log = game.log
    if memo.last is None or len(log) - memo.logged != game.events_emitted - memo.spent:
        return None
    named: set[ZoneRef | None] = set()
    for e in log[memo.logged:]:
        etype = e.type
        if etype in _NAMING_ZONES:
            named.add(e.from_zone)
            named.add(e.to_zone)
        elif etype not in ZONE_KEEPING_EVENTS:
            return None
    return frozenset(z for z in named if z is not None)


def _capture(game: Game, memo: _Memo, every: bool = False) -> _Raw:
    """What a position needs, copied from the game: each zone's cards and marks, the SIGNI's
    powers and levels from the engine's own :meth:`~judge.engine.game.Game.field_stats`, the
    holders of attached cards, the scalars. A zone equal to the previous snapshot's is that
    same object: a zone off the field that no event since named is not read again
    (:func:`_named`) unless ``every``, and the zones of the field are read zone by zone only
    when their lists, marks, powers, levels or holders differ. Only what never changes of a
    card (its label and its card) is read from it later."""
    state = game.state
    last = memo.last
    named = None if every else _named(game, memo)
    attached = game.attached_to
    sides = []
    for p, player in enumerate(PLAYERS):
        ps = state.players[player]
        zones = ps.zones
        old = last.sides[p] if last is not None else None
        before = old.zones if old is not None else _EMPTY
        out = list(before)
        if named is None:
            for i, cards in zip(_OFF_FIELD_AT, _OFF_FIELD_LISTS(zones), strict=True):
                out[i] = _read(cards, (), before[i]) if cards else None
        else:
            index = _OFF_FIELD_INDEX[p]
            for ref in named:
                at = index.get(ref)
                if at is not None:
                    out[at] = _read(zones[ZONES[at]], (), before[at])
        field = _FIELD_LISTS(zones)
        field_marks = list(map(_MARK, map(_FLAGS, chain.from_iterable(field))))
        signi = state.signi(player)
        stats = None
        if signi:
            powers, levels = game.field_stats(signi)
            stats = (tuple(powers), tuple(levels), _effects(game, signi))
        under = list(chain.from_iterable(_UNDER_LISTS(zones)))
        held = tuple(attached.get(c.label, _NOT_ATTACHED)[0] for c in under) if under else ()
        if old is not None and old.field == field and old.field_marks == field_marks and \
                old.stats == stats and old.held == held:
            copies = old.field
        else:
            copies = tuple(map(list, field))
            at_signi = at_under = 0
            for (i, kind), cards in zip(_FIELD_ROWS, field, strict=True):
                if not cards:
                    out[i] = None
                    continue
                n = len(cards)
                if kind == 1:
                    assert stats is not None
                    extra: tuple[Any, ...] = (stats[0][at_signi:at_signi + n],
                                              stats[1][at_signi:at_signi + n],
                                              stats[2][at_signi:at_signi + n])
                    at_signi += n
                elif kind == 2:
                    extra = held[at_under:at_under + n]
                    at_under += n
                else:
                    extra = ()
                out[i] = _read(cards, extra, before[i])
        sides.append(_Side(tuple(out), game.lrig_level(player), game.limit(player),
                           ps.refreshes, ps.coins, _markers(ps.markers) if ps.markers else (),
                           ps.registrations, copies, field_marks, stats, held))
    shuffled = game.shuffled
    raw = _Raw(state.turn, state.turn_player, state.phase, state.attack_step, tuple(sides),
               state.winner, state.win_reason,
               tuple(sorted(map(str, shuffled))) if shuffled else ())
    memo.logged, memo.spent = len(game.log), game.events_emitted
    if last is not None and raw == last:
        return last  # nothing changed: the same snapshot again
    memo.last = raw
    return raw


def _markers(markers: dict[str, set[str]]) -> tuple[str, ...]:
    """One player's markers as a position lists them: ``zone:kind``, in zone then kind
    order (judge/engine/mechanics/markers.py)."""
    return tuple(f"{z}:{k}" for z in SIGNI_ZONES for k in MARKER_KINDS
                 if z in markers.get(k, ()))


def _read(cards: list[CardInstance], extra: tuple[Any, ...],
          old: _Zone | None) -> _Zone | None:
    """One zone now: None when empty, ``old`` when it is as it was."""
    if not cards:
        return None
    marks = list(map(_MARK, map(_FLAGS, cards)))
    if old is not None and old.cards == cards and old.marks == marks and old.extra == extra:
        return old
    return _Zone(list(cards), marks, extra)


def _states(zone: _Zone, i: int, memo: _Memo) -> tuple[CardState, ...]:
    """The card states of a captured zone, made once per zone (a zone that did not change is
    shared by the positions of a run). Off the SIGNI and under zones a state is the card's
    unchanging part (label, card id, printed level) joined with its marks, made in C."""
    if zone.states is not None:
        return zone.states
    kind = _KIND[i]
    if kind == 1:
        powers, levels, effects = zone.extra
        states = tuple(CardState(c.label, c.card.id, lv, pw, m[0], m[1], m[2], None, False,
                                 *fx)
                       for c, m, pw, lv, fx in zip(zone.cards, zone.marks, powers, levels,
                                                   effects, strict=True))
    elif kind == 2:
        states = tuple(CardState(c.label, c.card.id, c.card.level or 0, None, m[0], m[1],
                                 m[2], h or None)
                       for c, m, h in zip(zone.cards, zone.marks, zone.extra, strict=True))
    else:
        bases = memo.bases
        for c in filterfalse(bases.__contains__, zone.cards):
            bases[c] = (c.label, c.card.id, c.card.level or 0, None)
        states = tuple(map(_new, repeat(CardState), map(
            add, map(bases.__getitem__, zone.cards),
            map(add, zone.marks, map(_TAILS.__getitem__, map(_TOKEN_OF, zone.cards))))))
    zone.states = states
    return states


def _build(raw: _Raw, memo: _Memo) -> Position:
    sides = tuple(
        PlayerPosition(player, tuple(() if z is None else _states(z, i, memo)
                                     for i, z in enumerate(side.zones)),
                       side.lrig_level, side.limit, side.refreshes, side.coins, side.markers,
                       side.registrations)
        for player, side in zip(PLAYERS, raw.sides, strict=True))
    return Position(raw.turn, raw.turn_player, raw.phase, raw.attack_step, sides,
                    raw.winner, raw.win_reason, raw.shuffled)


class Snapshot:
    """A position taken during a run: the game's state copied cheaply at that moment, made into
    a :class:`Position` the first time it is read (most of a trace's positions are read only
    by the site; ``judge check`` reads the last). Equal when their positions are equal."""

    __slots__ = ("_raw", "_memo", "_position")

    def __init__(self, raw: _Raw | None, memo: _Memo | None = None,
                 position: Position | None = None) -> None:
        self._raw = raw
        self._memo = memo
        self._position = position

    @classmethod
    def of(cls, position: Position) -> Snapshot:
        return cls(None, None, position)

    @property
    def position(self) -> Position:
        if self._position is None:
            assert self._raw is not None and self._memo is not None
            self._position = _build(self._raw, self._memo)
            self._raw = self._memo = None  # the engine's objects are let go
        return self._position

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Snapshot) and self.position == other.position

    def __hash__(self) -> int:
        return hash(self.position)

    def __repr__(self) -> str:
        return f"Snapshot({self.position!r})"

    def view(self) -> Position | PositionView:
        """What the expectations read of the position (:mod:`judge.scenario.expect`): the
        position when it is made already, else a :class:`PositionView` that makes the card
        states of only the zones it is asked about (``judge check`` reads one or two zones
        of the last position of a run, which would otherwise be made whole)."""
        if self._position is not None:
            return self._position
        assert self._raw is not None and self._memo is not None
        return PositionView(self._raw, self._memo)


class PositionView:
    """A :class:`Position` read from a snapshot without making it whole: the scalars, the
    labels of a zone, a card found by its label (its zone's card states made then), a
    player's limit, refreshes and coins, what a player may look at. Each answer is the one the
    position would give."""

    __slots__ = ("_raw", "_memo", "turn", "turn_player", "phase", "attack_step", "winner",
                 "win_reason", "shuffled")

    def __init__(self, raw: _Raw, memo: _Memo) -> None:
        self._raw = raw
        self._memo = memo
        self.turn = raw.turn
        self.turn_player = raw.turn_player
        self.phase = raw.phase
        self.attack_step = raw.attack_step
        self.winner = raw.winner
        self.win_reason = raw.win_reason
        self.shuffled = raw.shuffled

    def player(self, player: str) -> _Side:
        """The side's scalars (``limit``, ``refreshes``, ``coins``, ``lrig_level``)."""
        return self._raw.sides[PLAYERS.index(player)]

    def labels(self, ref: ZoneRef) -> list[str]:
        """The labels of the cards in one zone, in order."""
        zone = self._raw.sides[PLAYERS.index(ref.player)].zones[ZONE_INDEX[ref.zone]]
        return [] if zone is None else [c.label for c in zone.cards]

    def find(self, label: str) -> tuple[ZoneRef, CardState]:
        """As :meth:`Position.find`."""
        for player, side in zip(PLAYERS, self._raw.sides, strict=True):
            for i, zone in enumerate(side.zones):
                if zone is None:
                    continue
                for at, card in enumerate(zone.cards):
                    if card.label == label:
                        return (ZoneRef.of(player, ZONES[i]),
                                _states(zone, i, self._memo)[at])
        raise EngineError(f"no card labelled {label!r}")

    def sees(self, viewer: str, label: str) -> bool:
        """As :meth:`Position.sees`."""
        where, card = self.find(label)
        return sees(viewer, where.player, where.zone, card.face_down)


def position(game: Game) -> Position:
    """The game's position now: its zones in order, each card's state, the centre LRIG's level
    and the limit, the turn, phase and attack step, the refreshes, the winner. Powers and
    levels on the field come from the engine's own :meth:`~judge.engine.game.Game.field_stats`
    (one pass per player); off the field a card's level is its printed level."""
    memo = _Memo()
    return _build(_capture(game, memo), memo)


#: Events after which the scenario runner records a position (see :func:`is_key_event`).
KEY_EVENT_TYPES = frozenset({"move", "burst", "effect_end", "refresh"})
#: The events the tracer looks at: the key events' types and ``rule_check``.
_SEEN_TYPES = KEY_EVENT_TYPES | {"rule_check"}


def is_key_event(event: Event) -> bool:
    """A move into a check zone, the end of a Life Burst (the ``effect_end`` of its effect, or
    the ``burst`` event of one not used) and a refresh."""
    if isinstance(event, ev.Move):
        return event.to_zone is not None and event.to_zone.zone == "check"
    if isinstance(event, ev.Burst):
        return not event.used
    if isinstance(event, ev.EffectEnd):
        return event.ability.is_burst
    return isinstance(event, ev.Refresh)


@dataclass(frozen=True)
class CheckGroup:
    """One round of rule processing that applied (:func:`judge.engine.rule_processing.check`)
    as one moment of a trace: its events are ``events[start:end]``, ``at`` is its
    ``rule_check`` event (what comes before it, from ``start``, are the choices the kinds
    asked and the waits they logged while looking: the owner's ``rule_order`` choice where
    one card would go to two places), and what follows are the moves every kind made, in the
    order they were made. ``before`` is the position at the check, every condition holding at
    once; ``after``, once every kind has applied."""

    start: int
    at: int
    end: int
    before: Snapshot
    after: Snapshot

    def __contains__(self, index: object) -> bool:
        return isinstance(index, int) and self.start <= index < self.end

    def to_dict(self) -> dict[str, Any]:
        return {"start": self.start, "at": self.at, "end": self.end,
                "before": self.before.position.to_dict(),
                "after": self.after.position.to_dict()}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> CheckGroup:
        return cls(int(data["start"]), int(data["at"]), int(data["end"]),
                   Snapshot.of(Position.from_dict(data["before"])),
                   Snapshot.of(Position.from_dict(data["after"])))


class Tracer:
    """Snapshots a game after each key event (:func:`is_key_event`), keyed by the event's
    index in the log: the scenario runner's record of positions; and records each round of
    rule processing that applied as a :class:`CheckGroup`, with the position at its
    ``rule_check`` event and the one once its kinds have applied. It watches the game's log
    (:attr:`Game.watch <judge.engine.game.Game.watch>`) and its checks
    (:attr:`Game.checked <judge.engine.game.Game.checked>`); a snapshot changes nothing in
    the game and costs none of its event budget. A ``light`` tracer watches nothing: its
    trace has the positions after the set-up and the steps but no key positions and no
    rounds of rule processing (the quiz's replays of a broken rule read only the final
    position; what the game does is the same, only fewer snapshots are taken)."""

    def __init__(self, game: Game, light: bool = False) -> None:
        self.game = game
        self.memo = _Memo()
        self.key_snapshots: list[tuple[int, Snapshot]] = []
        self.checks: list[CheckGroup] = []
        self._at_check: Snapshot | None = None
        self._last: Snapshot | None = None
        self._last_raw: _Raw | None = None
        if not light:
            game.watch = self.see
            game.checked = self.check_over

    def see(self, event: Event) -> None:
        """The game logged ``event``: a snapshot if it is a key event or a ``rule_check``."""
        if event.type in _SEEN_TYPES:
            if event.type == "rule_check":
                self._at_check = self.snapshot()
            elif is_key_event(event):
                self.key_snapshots.append((event.seq, self.snapshot()))

    def check_over(self, start: int, at: int) -> None:
        """A round of rule processing that began at event ``start`` and logged its
        ``rule_check`` at ``at`` has applied every kind: its group, with its two positions."""
        before = self._at_check
        assert before is not None
        self._at_check = None
        self.checks.append(CheckGroup(start, at, len(self.game.log), before, self.snapshot()))

    def snapshot(self) -> Snapshot:
        """The position now (made into a :class:`Position` when first read); the previous
        snapshot again when nothing changed since."""
        raw = _capture(self.game, self.memo)
        if self._last is None or self._last_raw is not raw:
            self._last, self._last_raw = Snapshot(raw, self.memo), raw
        return self._last

    def forget_after(self, length: int) -> None:
        """Drop the snapshots of events taken back from the log (a refused step)."""
        while self.key_snapshots and self.key_snapshots[-1][0] >= length:
            self.key_snapshots.pop()
        while self.checks and self.checks[-1].end > length:
            self.checks.pop()


# ---------------------------------------------------------------------- traces


@dataclass(frozen=True)
class Trace:
    """One branch of one ruling under one rule set, as the scenario runner played it.

    - ``events``: every event in order (a refused step's own events taken back);
    - ``positions``: the position after the set-up (index 0, its ``in_force`` effects applied)
      and after each step (index k: after step k); a run that stopped early (a problem) has
      the position where it stopped last, and none for the steps it did not reach;
    - ``key_positions``: (event index, position) after each key event (:func:`is_key_event`),
      in log order; :meth:`position_at` reads them;
    - ``problems``: what went wrong (a refused step, a scripted choice that does not fit, an
      engine error, a limit reached), empty when the run went through;
    - ``limit_reached``: a bound of :mod:`judge.limits` stopped the run;
    - ``unused_choices``: scripted answers never asked for; ``unscripted``: choices nobody
      scripted (they took the answer of this branch);
    - ``cost``: the events this run spent of its budget (those taken back and the price of long
      lists of options included);
    - ``checks``: each round of rule processing that applied, as one group of events with the
      position at its check and the one after (:class:`CheckGroup`), in log order.

    The positions are kept as :class:`Snapshot` values (``snapshots``, ``key_snapshots``) and
    made when first read; :meth:`of` makes a trace from positions.
    """

    rules: str
    branch: int
    events: tuple[Event, ...]
    snapshots: tuple[Snapshot, ...]
    key_snapshots: tuple[tuple[int, Snapshot], ...] = ()
    problems: tuple[str, ...] = ()
    limit_reached: bool = False
    unused_choices: int = 0
    unscripted: int = 0
    cost: int = 0
    checks: tuple[CheckGroup, ...] = ()

    @classmethod
    def of(cls, rules: str, branch: int, events: tuple[Event, ...],
           positions: tuple[Position, ...],
           key_positions: tuple[tuple[int, Position], ...] = (), **rest: Any) -> Trace:
        return cls(rules, branch, events, tuple(Snapshot.of(p) for p in positions),
                   tuple((i, Snapshot.of(p)) for i, p in key_positions), **rest)

    @property
    def positions(self) -> tuple[Position, ...]:
        return tuple(s.position for s in self.snapshots)

    @property
    def key_positions(self) -> tuple[tuple[int, Position], ...]:
        return tuple((i, s.position) for i, s in self.key_snapshots)

    @property
    def final(self) -> Position:
        """The position at the end of the run (what the expectations are checked against)."""
        return self.snapshots[-1].position

    @property
    def final_view(self) -> Position | PositionView:
        """The position at the end of the run as the expectations read it
        (:meth:`Snapshot.view`)."""
        return self.snapshots[-1].view()

    @property
    def choices(self) -> tuple[ev.Choice, ...]:
        """The choices made, in order (``choice`` events)."""
        return tuple(e for e in self.events if isinstance(e, ev.Choice))

    @property
    def key_events(self) -> tuple[int, ...]:
        """The event indexes at which a position was recorded."""
        return tuple(i for i, _ in self.key_snapshots)

    def check_at(self, event: int) -> CheckGroup | None:
        """The round of rule processing whose group holds event ``event``, if one does."""
        for group in self.checks:
            if event in group:
                return group
        return None

    def position_at(self, event: int) -> Position:
        """The position recorded right after event ``event`` (a KeyError if none was)."""
        for i, snap in self.key_snapshots:
            if i == event:
                return snap.position
        raise KeyError(event)

    def after_step(self, step: int) -> Position | None:
        """The position after step ``step`` (0: the set-up); None for a step not reached."""
        return self.snapshots[step].position if 0 <= step < len(self.snapshots) else None

    def to_dict(self) -> dict[str, Any]:
        """The JSON form (``judge replay --json``): events, positions, choices, problems."""
        return {
            "rules": self.rules, "branch": self.branch,
            "events": [e.to_dict() for e in self.events],
            "positions": [p.to_dict() for p in self.positions],
            "key_positions": [{"event": i, "position": p.to_dict()}
                              for i, p in self.key_positions],
            "choices": [{"event": e.seq, "player": e.player, "kind": e.kind,
                         "picked": [str(p) for p in e.picked]} for e in self.choices],
            "problems": list(self.problems), "limit_reached": self.limit_reached,
            "unused_choices": self.unused_choices, "unscripted": self.unscripted,
            "cost": self.cost, "checks": [c.to_dict() for c in self.checks],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Trace:
        """The trace :meth:`to_dict` wrote (``choices`` are read from the events)."""
        return cls.of(
            str(data["rules"]), int(data["branch"]),
            tuple(Event.from_dict(e) for e in data["events"]),
            tuple(Position.from_dict(p) for p in data["positions"]),
            tuple((int(k["event"]), Position.from_dict(k["position"]))
                  for k in data.get("key_positions", ())),
            problems=tuple(str(p) for p in data.get("problems", ())),
            limit_reached=bool(data.get("limit_reached", False)),
            unused_choices=int(data.get("unused_choices", 0)),
            unscripted=int(data.get("unscripted", 0)), cost=int(data.get("cost", 0)),
            checks=tuple(CheckGroup.from_dict(c) for c in data.get("checks", ())))


@dataclass(frozen=True)
class Replay:
    """The traces of one ruling under one rule set: one per explored branch, depth first
    (the first takes the first answer of every unscripted choice). ``cut``: more branches were
    left than the ruling's ``explore_limit`` allowed; ``stopped``: exploration ended because
    the last trace reached a limit (branches may be left)."""

    rules: str
    traces: tuple[Trace, ...]
    cut: bool = False
    stopped: bool = False

    @property
    def first(self) -> Trace:
        return self.traces[0]

    @property
    def events(self) -> tuple[Event, ...]:
        """The first branch's events (unscripted choices take their first answer)."""
        return self.traces[0].events if self.traces else ()

    @property
    def problems(self) -> tuple[str, ...]:
        """What went wrong in the first branch, if anything."""
        return self.traces[0].problems if self.traces else ()

    @property
    def branches(self) -> tuple[tuple[Event, ...], ...]:
        """The events of every branch, in the order explored."""
        return tuple(t.events for t in self.traces)

    @property
    def branch_count(self) -> int:
        return len(self.traces)

    def to_dict(self) -> dict[str, Any]:
        return {"rules": self.rules, "cut": self.cut, "stopped": self.stopped,
                "traces": [t.to_dict() for t in self.traces]}
