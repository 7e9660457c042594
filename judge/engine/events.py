"""Events: the log of everything the engine did, each with its cause.

Every event names its cause so that abilities can tell an effect's banish from a banish by
rule processing (WIXOSS glossary, "rule processing", 2020: moves made by rule processing are
not effects).

Each kind of event is one small frozen class (:class:`Move`, :class:`Power`, ...) with named,
typed fields: the fields every event has (:class:`Event`: ``seq``, ``step``, ``cause``,
``player``, the ``card``'s label, ``from_zone`` and ``to_zone`` as
:class:`~judge.engine.state.ZoneRef` values, ``source`` as an :class:`AbilityRef`) and its
own. Cards are labels, zones zone refs, abilities :class:`AbilityRef` values, a cost a
:class:`~judge.engine.costs.Cost`, the ener that paid it :class:`Paid` pairs, an effect in
force a :class:`LastingKind`, an option of a choice a label, a word, an :class:`AbilityRef` or
a :class:`CardSet`. :data:`EVENT_KINDS` maps each type name to its class; docs/events.md
lists every kind and its fields (a test checks it against this registry).

Every event has a JSON form (:meth:`Event.to_dict`, :meth:`Event.from_dict`: the fields every
event has at the top, a kind's own fields under ``detail``, each value as text where it has a
text form) and a one-line text form (``str()``, :meth:`Event.parse`); both round-trip. Ruling
patterns (``[[expect.events]]``), the database and ``judge replay --json`` name a kind's own
fields by the keys of the JSON form (:data:`EVENT_TYPES`).

A mechanic may declare an event kind of its own, in its module, with :func:`event_kind`
(:mod:`judge.engine.mechanics.guard` declares :class:`~judge.engine.mechanics.guard.Guard`);
the registry then knows it.

Events are made very often (tens of thousands a second in random games), so a kind is
declared as a dataclass is (a type checker sees a frozen dataclass with keyword-only fields)
but made a subclass of ``tuple`` by :func:`event_kind`: immutable, small, a getter for each
field. :meth:`judge.engine.game.Game.emit`, the one place events are logged, takes the kind
and its fields (``game.emit(Move, cause="effect", ..., verb="draw")``, checked by the type
checker against the class) and builds the tuple with the event's ``seq`` and ``step``.
"""

from __future__ import annotations

import functools
import json
import operator
import re
import sys
import types
from collections.abc import Callable, Iterator, Mapping
from dataclasses import MISSING, Field, dataclass, field
from operator import itemgetter
from typing import (
    Any,
    ClassVar,
    NamedTuple,
    Self,
    TypeVar,
    cast,
    dataclass_transform,
    get_args,
)

from judge.engine.costs import Cost
from judge.engine.state import PLAYERS, ZoneRef
from judge.errors import FieldError
from judge.ids import LABEL_RE, quote

T = TypeVar("T")

#: Why something happened.
CAUSES: tuple[str, ...] = (
    "effect",  # an effect of a card or ability (one effect, resolved whole)
    "rule",  # rule processing
    "battle",  # a battle between SIGNI
    "cost",  # paying a cost
    "game",  # a game action: phases, drawing for the turn, using a card, setting up
)


# ---------------------------------------------------------------------- values of events


_WHICH = re.compile(r"[0-9]+|[A-Za-z][A-Za-z0-9_\-]*", re.ASCII)
_PLAYER_EFFECT = {f"{p}-effect": p for p in PLAYERS}
_IN_FORCE = "in-force"


@dataclass(frozen=True, slots=True)
class AbilityRef:
    """What an effect or a cost comes from: an ability of a card, a card's own effect, a
    player's effect from no card, or the effects a ruling puts in force with its set-up.

    ============== ===================================== ==================================
    text form      value                                 what it is
    ============== ===================================== ==================================
    ``S1#0``       ``AbilityRef("S1", 0)``               S1's printed ability 0
    ``S1#lancer``  ``AbilityRef("S1", "lancer")``        S1's keyword ability (Lancer)
    ``B#burst``    ``AbilityRef("B", "burst")``          B's Life Burst
    ``A``          ``AbilityRef("A")``                   card A itself: the effect of an
                                                         ARTS or Spell, a cost paid for a
                                                         card, the attacker of a battle
    ``p1-effect``  ``AbilityRef(player="p1")``           an effect of p1 from no card
    ``in-force``   ``AbilityRef()``                      the effects in force from the
                                                         set-up
    ============== ===================================== ==================================

    :meth:`parse` reads the text form back (a card labelled ``in-force`` or ``p1-effect``
    would read as the last two)."""

    #: the card's label; "" for an effect from no card
    card: str = ""
    #: the printed ability's index, a keyword (or ``burst``); None: the card itself
    which: int | str | None = None
    #: whose effect it is, for an effect from no card
    player: str = ""

    @classmethod
    def printed(cls, card: str, index: int) -> AbilityRef:
        return cls(card, index)

    @classmethod
    def keyword_ability(cls, card: str, keyword: str) -> AbilityRef:
        return cls(card, keyword)

    @classmethod
    def life_burst(cls, card: str) -> AbilityRef:
        return cls(card, "burst")

    @classmethod
    def of_card(cls, card: str) -> AbilityRef:
        return cls(card)

    @classmethod
    def of_player(cls, player: str) -> AbilityRef:
        return cls("", None, player)

    @property
    def index(self) -> int | None:
        """The printed ability's index, if it is one."""
        return self.which if isinstance(self.which, int) else None

    @property
    def is_burst(self) -> bool:
        return self.which == "burst"

    @property
    def keyword(self) -> str | None:
        """The keyword of a keyword ability (``lancer``), if it is one."""
        which = self.which
        return which if isinstance(which, str) and which != "burst" else None

    def __str__(self) -> str:
        if self.card:
            return self.card if self.which is None else f"{self.card}#{self.which}"
        return f"{self.player}-effect" if self.player else _IN_FORCE

    @classmethod
    def parse(cls, text: str) -> AbilityRef:
        if text == _IN_FORCE:
            return cls()
        player = _PLAYER_EFFECT.get(text)
        if player is not None:
            return cls("", None, player)
        card, sep, which = text.partition("#")
        if LABEL_RE.fullmatch(card) is None or (sep and _WHICH.fullmatch(which) is None):
            raise FieldError("", f"not an ability: {quote(text)} (S1#0, S1#lancer, B#burst, "
                                 "a card label, p1-effect or in-force)")
        if not sep:
            return cls(card)
        return cls(card, int(which) if which.isdigit() else which)


#: The source of the effects a ruling puts in force with its set-up (``in-force``).
IN_FORCE = AbilityRef()


class CardSet(NamedTuple):
    """Cards offered together as one option of a choice: which ener cards pay a cost
    (text form ``w1+r2``)."""

    labels: tuple[str, ...]

    def __str__(self) -> str:
        return "+".join(self.labels)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        labels = tuple(text.split("+"))
        if not all(LABEL_RE.fullmatch(label) for label in labels):
            raise FieldError("", f"not card labels joined by +: {quote(text)}")
        return cls(labels)


class Paid(NamedTuple):
    """One ener card of a payment and the colour it paid as (text form ``w1:white``)."""

    card: str
    colour: str

    def __str__(self) -> str:
        return f"{self.card}:{self.colour}"

    @classmethod
    def parse(cls, text: str) -> Paid:
        card, sep, colour = text.partition(":")
        if not sep or LABEL_RE.fullmatch(card) is None or not colour:
            raise FieldError("", f"not a card and its colour: {quote(text)} (w1:white)")
        return cls(card, colour)


class LastingKind(NamedTuple):
    """What an effect in force does: ``banish_to_trash``; ``keyword:double-crush`` (a
    keyword given to a card: ``keyword``); ``cost_change:colourless:1`` and
    ``cost_modify:white:1,colourless:2`` (what ARTS and Spells cost instead, or the change
    to their costs: ``amounts``, colour and count); ``cannot:attack`` (what a "can't"
    forbids, in ``keyword``); ``replace:banish`` (what a replacement replaces);
    ``lose_abilities``; ``upper_limit:ener:3`` (a zone and its upper limit);
    ``draw_limit:draw:1`` (the most cards its player may draw this turn);
    ``attack_limit:attack:1`` (the most attacks a SIGNI may declare in a turn);
    ``signi_cap:signi:2`` (the most SIGNI its player may have on the field); ``power``,
    ``level``, ``set_power``, ``set_level``, ``limit`` (a change whose ``power``, ``level``
    or ``limit`` event gives the amount, logged as in force when it lasts beyond the end of
    the turn or while a condition holds)."""

    name: str
    keyword: str = ""
    amounts: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        if self.keyword:
            return f"{self.name}:{self.keyword}"
        if self.amounts:
            return f"{self.name}:" + ",".join(f"{c}:{n}" for c, n in self.amounts)
        return self.name

    @classmethod
    def parse(cls, text: str) -> LastingKind:
        name, _, arg = text.partition(":")
        if not name or not arg:
            return cls(name or text)
        if ":" not in arg:
            return cls(name, keyword=arg)
        amounts = []
        for part in arg.split(","):
            colour, _, count = part.partition(":")
            if not colour or re.fullmatch(r"-?[0-9]+", count) is None:
                raise FieldError("", f"not an effect in force: {quote(text)}")
            amounts.append((colour, int(count)))
        return cls(name, amounts=tuple(amounts))


class Acting(NamedTuple):
    """What one kind of rule processing acts on at a check (text form ``power:P1``): the
    kind's id and a card's label, or, for the refresh (kind 5), the player whose main deck is
    empty (``refresh:p1``)."""

    kind: str
    target: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.target}"

    @classmethod
    def parse(cls, text: str) -> Acting:
        kind, sep, target = text.partition(":")
        if not sep or re.fullmatch(r"[a-z][a-z_]*", kind) is None or \
                LABEL_RE.fullmatch(target) is None:
            raise FieldError("", f"not a kind of rule processing and what it acts on: "
                                 f"{quote(text)} (power:P1, refresh:p1)")
        return cls(kind, target)


#: One option of a choice: a card label or a word (``yes``, ``no``, ``none``, a SIGNI zone, a
#: kind of rule processing: the choice's kind says which), an ability, or cards together.
Option = str | AbilityRef | CardSet

#: Choice kinds whose options are not labels or words, with the type of their options.
CHOICE_OPTIONS: dict[str, type[AbilityRef] | type[CardSet]] = {
    "trigger_order": AbilityRef, "pay": CardSet, "replace": AbilityRef,
}


# ---------------------------------------------------------------------- the events


class _Decl(NamedTuple):
    """A field as a class declares it: its name, its type as written, its default (MISSING:
    none) and its key."""

    name: str
    annotation: str
    default: Any
    key: str


def _declared(cls: type) -> list[_Decl]:
    """The fields ``cls`` declares itself (annotations but ``ClassVar``), in order; their
    defaults are taken out of the class."""
    out = []
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__",
                                                                      repr(annotation))
        if text.startswith(("ClassVar", "typing.ClassVar")):
            continue
        default = cls.__dict__.get(name, MISSING)
        key = name
        if isinstance(default, Field):
            key = str(default.metadata.get("key", name))
            default = default.default
        if name in cls.__dict__:
            delattr(cls, name)
        out.append(_Decl(name, text, default, key))
    return out


_COMMON: list[_Decl] = []


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def _common_fields(cls: type[T]) -> type[T]:
    """Declares the fields every event has (read by :func:`event_kind`), each read from its
    place in the event's tuple; to a type checker, a frozen dataclass whose subclasses add
    keyword-only fields."""
    _COMMON.extend(_declared(cls))
    for i, d in enumerate(_COMMON):
        setattr(cls, d.name, property(itemgetter(i), doc=f"field {i} of the event"))
    return cls


@_common_fields
class Event:
    """What every event has. ``seq`` is its place in the log and ``step`` the scenario step
    it belongs to (0: the set-up): :meth:`~judge.engine.game.Game.emit` gives both as it makes
    the event. ``cause`` is one of :data:`CAUSES`; ``player`` (``p1``, ``p2``), ``card`` (a
    label), ``from_zone``, ``to_zone`` and ``source`` (the ability or card it comes from) are
    None where they do not apply.

    Each kind is a subclass (:func:`event_kind`): a tuple of its fields, immutable, with a
    getter for each; two events are equal when they are of the same kind with the same
    fields."""

    __slots__ = ()

    #: the kind's name (``move``): :data:`EVENT_KINDS` maps it to the class
    type: ClassVar[str] = ""

    seq: int = field(default=0, kw_only=False)
    step: int = field(default=0, kw_only=False)
    cause: str
    player: str | None = None
    card: str | None = None
    from_zone: ZoneRef | None = None
    to_zone: ZoneRef | None = None
    source: AbilityRef | None = None

    def replace(self, **changes: Any) -> Self:
        """The same event with some fields changed."""
        values = dict(zip(_SPECS[type(self)].names, cast(tuple[Any, ...], self), strict=True))
        values.update(changes)
        return type(self)(**values)

    def __repr__(self) -> str:
        values = zip(_SPECS[type(self)].names, cast(tuple[Any, ...], self), strict=True)
        return f"{type(self).__name__}({', '.join(f'{n}={v!r}' for n, v in values)})"

    # ------------------------------------------------------------------ the JSON form

    def detail(self) -> dict[str, Any]:
        """The kind's own fields in their JSON form, by their keys (:data:`EVENT_TYPES`):
        what the JSON form holds under ``detail`` and what the database stores; a field that
        is None is left out."""
        out: dict[str, Any] = {}
        for f in _SPECS[type(self)].own:
            value = getattr(self, f.name)
            if value is not None:
                out[f.key] = f.codec.dump(value)
        return out

    def to_dict(self) -> dict[str, Any]:
        """``{"seq", "step", "type", "cause", "player", "card", "from_zone", "to_zone",
        "source", "detail"}``: zones and the source as text, None values and an empty detail
        left out."""
        out: dict[str, Any] = {"seq": self.seq, "step": self.step, "type": self.type,
                               "cause": self.cause}
        for key in ("player", "card", "from_zone", "to_zone", "source"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value if isinstance(value, str) else str(value)
        detail = self.detail()
        if detail:
            out["detail"] = detail
        return out

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Event:
        """The event :meth:`to_dict` gave, of the kind its ``type`` names."""
        etype = data.get("type")
        cls = EVENT_KINDS.get(etype) if isinstance(etype, str) else None
        if cls is None:
            raise FieldError("type", f"unknown event type {quote(etype)}", tuple(EVENT_KINDS))
        spec = _SPECS[cls]
        detail = data.get("detail", {})
        if not isinstance(detail, Mapping):
            raise FieldError("detail", f"expected a table, got {quote(detail)}")
        unknown = set(detail) - set(spec.by_key)
        if unknown:
            raise FieldError("detail", f"{etype} has no field {quote(sorted(unknown)[0])}",
                             tuple(spec.by_key))
        values: dict[str, Any] = {
            "seq": _INT.load(data.get("seq", 0)), "step": _INT.load(data.get("step", 0)),
            "cause": _cause(data.get("cause")),
            "player": _OPT_STR.load(data.get("player")), "card": _OPT_STR.load(data.get("card")),
            "from_zone": _OPT_ZONE.load(data.get("from_zone")),
            "to_zone": _OPT_ZONE.load(data.get("to_zone")),
            "source": _OPT_ABILITY.load(data.get("source")),
        }
        for f in spec.own:
            raw = detail.get(f.key)
            if raw is None and not f.optional:
                raise FieldError(f"detail.{f.key}", f"missing: {etype} needs it")
            try:
                values[f.name] = f.codec.load(raw)
            except FieldError as exc:
                raise FieldError(f"detail.{f.key}", exc.message) from None
        event: Event = cls(**cls._revive(values))
        return event

    @classmethod
    def _revive(cls, values: dict[str, Any]) -> dict[str, Any]:
        """The fields read back from the JSON form, for a kind whose fields depend on each
        other (:class:`Choice`)."""
        return values

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @staticmethod
    def from_json(text: str) -> Event:
        return Event.from_dict(json.loads(text))

    # ------------------------------------------------------------------ the text form

    def __str__(self) -> str:
        """``#2@1 move [effect] player=p1 card=d1 from=p1.deck to=p1.trash source=p1-effect
        verb=mill``: the place in the log and the step, the kind, the cause, then every field
        that is not None, named as a ruling's event pattern names it; text that is not one
        plain word is quoted as in JSON."""
        parts = [f"#{self.seq}@{self.step}", self.type, f"[{self.cause}]"]
        for key, attr in _COMMON_TEXT:
            value = getattr(self, attr)
            if value is not None:
                parts.append(f"{key}={_word(str(value), False)}")
        for key, value in self.detail().items():
            parts.append(f"{key}={_value_text(value)}")
        return " ".join(parts)

    @staticmethod
    def parse(text: str) -> Event:
        """The event ``str()`` gave."""
        head = _HEAD.match(text)
        if head is None:
            raise FieldError("", f"not an event: {quote(text)} (#2@1 move [effect] ...)")
        data: dict[str, Any] = {"seq": int(head["seq"]), "step": int(head["step"]),
                                "type": head["type"], "cause": head["cause"]}
        detail: dict[str, Any] = {}
        for key, value in _fields_of(text, head.end()):
            name = _COMMON_KEYS.get(key)
            target = data if name is not None else detail
            if (name or key) in target:
                raise FieldError(key, f"given twice in {quote(text)}")
            target[name or key] = value
        if detail:
            data["detail"] = detail
        return Event.from_dict(data)

    # ------------------------------------------------------------------ patterns

    def pattern_value(self, key: str) -> Any:
        """What a ruling's event pattern compares for ``key`` (``type``, ``cause``,
        ``player``, ``card``, ``from``, ``to``, ``source`` or a key of the kind's own fields):
        the value in its JSON form, zones and abilities as their text; None when the event
        has no such value."""
        name = _COMMON_KEYS.get(key)
        if key in ("type", "cause"):
            return self.type if key == "type" else self.cause
        if name is not None:
            value = getattr(self, name)
            return value if value is None or isinstance(value, str) else str(value)
        f = _SPECS[type(self)].by_key.get(key)
        if f is None:
            return None
        value = getattr(self, f.name)
        return None if value is None else f.codec.dump(value)


E = TypeVar("E", bound=Event)


# ---------------------------------------------------------------------- the registry


#: Every kind of event: type name -> class (the engine's and those mechanics declare).
EVENT_KINDS: dict[str, type[Event]] = {}
#: Every kind of event with the keys of its own fields, as ruling patterns, the JSON form and
#: the database name them (the loader checks patterns against it).
EVENT_TYPES: dict[str, tuple[str, ...]] = {}
#: What an event pattern names besides a kind's own fields; no field may take these keys.
PATTERN_KEYS: tuple[str, ...] = ("type", "cause", "player", "card", "from", "to", "source")

_TYPE_NAME = re.compile(r"[a-z][a-z0-9_]*", re.ASCII)


class _Codec(NamedTuple):
    """A field type's JSON form: ``dump`` makes it, ``load`` reads (and checks) it."""

    dump: Callable[[Any], Any]
    load: Callable[[Any], Any]


class _Field(NamedTuple):
    name: str
    key: str
    codec: _Codec
    optional: bool
    annotation: str


class _Spec(NamedTuple):
    names: tuple[str, ...]
    own: tuple[_Field, ...]
    by_key: Mapping[str, _Field]


_SPECS: dict[type[Event], _Spec] = {}
#: Each kind's own fields, in their order: Game.emit builds an event's tuple from them.
OWN_FIELDS: dict[type[Event], tuple[str, ...]] = {}
#: Each kind's fields after ``seq`` and ``step``, with their defaults (``dataclasses.MISSING``:
#: none): what Game.emit and a kind's class build an event from.
LAYOUTS: dict[type[Event], tuple[tuple[str, Any], ...]] = {}


def _int(value: Any) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise FieldError("", f"expected a whole number, got {quote(value)}")
    return value


def _bool(value: Any) -> bool:
    if not isinstance(value, bool):
        raise FieldError("", f"expected true or false, got {quote(value)}")
    return value


def _str(value: Any) -> str:
    if not isinstance(value, str):
        raise FieldError("", f"expected text, got {quote(value)}")
    return value


def _cause(value: Any) -> str:
    if value not in CAUSES:
        raise FieldError("cause", f"unknown cause {quote(value)}", CAUSES)
    return str(value)


def _parsed(parse: Callable[[str], Any]) -> _Codec:
    return _Codec(str, lambda v: parse(_str(v)))


def _zone(text: str) -> ZoneRef:
    ref = ZoneRef.parse(text)
    return ZoneRef.of(ref.player, ref.zone)


def _each(codec: _Codec) -> _Codec:
    def load(value: Any) -> tuple[Any, ...]:
        if not isinstance(value, list | tuple):
            raise FieldError("", f"expected a list, got {quote(value)}")
        return tuple(codec.load(v) for v in value)
    return _Codec(lambda v: [codec.dump(x) for x in v], load)


def _optional(codec: _Codec) -> _Codec:
    return _Codec(lambda v: None if v is None else codec.dump(v),
                  lambda v: None if v is None else codec.load(v))


def _same(value: Any) -> Any:
    return value


_INT = _Codec(_same, _int)
_OPT_STR = _optional(_Codec(_same, _str))
_OPT_ZONE = _optional(_parsed(_zone))
_OPT_ABILITY = _optional(_parsed(AbilityRef.parse))

#: The field types an event may have, with their JSON forms.
CODECS: dict[Any, _Codec] = {
    int: _INT,
    bool: _Codec(_same, _bool),
    str: _Codec(_same, _str),
    ZoneRef: _parsed(_zone),
    AbilityRef: _parsed(AbilityRef.parse),
    Cost: _parsed(Cost.parse),
    LastingKind: _parsed(LastingKind.parse),
    Paid: _parsed(Paid.parse),
    CardSet: _parsed(CardSet.parse),
    Acting: _parsed(Acting.parse),
    # an option is read back as text; its choice's kind says what it is (Choice._revive)
    Option: _Codec(str, _str),
}


def _codec(hint: Any) -> tuple[_Codec, bool]:
    """The codec of a field's type, and whether the field may be None."""
    if hint in CODECS:
        return CODECS[hint], False
    args = get_args(hint)
    if isinstance(hint, types.UnionType) and type(None) in args:
        rest = [a for a in args if a is not type(None)]
        codec, _ = _codec(functools.reduce(operator.or_, rest))
        return _optional(codec), True
    if getattr(hint, "__origin__", None) is tuple and len(args) == 2 and args[1] is Ellipsis:
        return _each(_codec(args[0])[0]), False
    raise TypeError(f"an event field cannot have the type {hint!r} (see events.CODECS)")


def _tuple_class(cls: type[Event], name: str, decls: list[_Decl]) -> type[Event]:
    """The class of the kind ``name`` that ``cls`` declares: a subclass of ``tuple`` (every
    field in order, those of :class:`Event` first) and of :class:`Event`, with ``cls``'s
    docstring and methods, a getter for each of its own fields and equality by kind and
    fields."""
    if cls.__bases__ != (Event,):
        raise TypeError(f"{cls.__name__} must derive from Event alone")
    names = [d.name for d in decls]
    if len(set(names)) != len(names):
        raise ValueError(f"{cls.__name__}: a field of Event is declared again")
    body = {k: v for k, v in cls.__dict__.items()
            if k not in ("__dict__", "__weakref__", "__slots__")}
    for i, d in enumerate(decls[len(_COMMON):], start=len(_COMMON)):
        body[d.name] = property(itemgetter(i), doc=f"field {i} of the event")
    body.update(__slots__=(), __new__=_new_event, type=name, __repr__=Event.__repr__,
                __eq__=_eq, __ne__=_ne, __hash__=tuple.__hash__, __reduce__=_reduce)
    made = cast(type[Event], type(cls.__name__, (tuple, Event), body))
    OWN_FIELDS[made] = tuple(names[len(_COMMON):])
    LAYOUTS[made] = tuple((d.name, d.default) for d in decls[2:])
    return made


def _new_event(cls: type[Event], seq: int = 0, step: int = 0, **fields: Any) -> Event:
    """An event of kind ``cls`` from its fields (``seq`` and ``step`` by position too), as
    its class declares them: defaults where it has them, no field it does not have."""
    values: list[Any] = [seq, step]
    for name, default in LAYOUTS[cls]:
        if name in fields:
            values.append(fields.pop(name))
        elif default is not MISSING:
            values.append(default)
        else:
            raise TypeError(f"{cls.__name__}() needs the field {name!r}")
    if fields:
        raise TypeError(f"{cls.__name__}() has no field {next(iter(fields))!r}")
    made: Event = tuple.__new__(cast(Any, cls), values)
    return made


def _eq(self: tuple[Any, ...], other: object) -> bool:
    return type(other) is type(self) and tuple.__eq__(self, other)


def _ne(self: tuple[Any, ...], other: object) -> bool:
    return not _eq(self, other)


def _reduce(self: tuple[Any, ...]) -> tuple[Any, ...]:
    return (tuple.__new__, (type(self), tuple(self)))


_HINTS: dict[tuple[str, str], Any] = {}


def _resolve(annotation: Any, module: str) -> Any:
    """A field's type from its annotation (text, under ``from __future__ import
    annotations``), read in its module once for all the classes that write it the same."""
    if not isinstance(annotation, str):
        return annotation
    key = (module, annotation)
    if key not in _HINTS:
        _HINTS[key] = eval(annotation, vars(sys.modules[module]))  # as get_type_hints does
    return _HINTS[key]


def _check_name(name: str) -> None:
    if _TYPE_NAME.fullmatch(name) is None:
        raise ValueError(f"event type {name!r}: lowercase letters, digits and _")
    if name in EVENT_KINDS:
        raise ValueError(f"event type {name!r} is registered twice")


def register_kind(cls: type[E], name: str) -> type[E]:
    """Register ``cls``, a kind :func:`event_kind` made, as ``name`` (again, after
    :func:`unregister_kind`)."""
    _check_name(name)
    if not issubclass(cls, Event) or cls not in _SPECS or cls.type != name:
        raise TypeError(f"{cls.__name__} is not the kind {name!r} made by event_kind")
    EVENT_KINDS[name] = cls
    EVENT_TYPES[name] = tuple(f.key for f in _SPECS[cls].own)
    return cls


def _spec(cls: type[Event], hints: Mapping[str, Any], decls: list[_Decl]) -> _Spec:
    own = []
    for d in decls[len(_COMMON):]:
        if d.key in PATTERN_KEYS:
            raise ValueError(f"{cls.__name__}.{d.name}: the key {d.key!r} is taken "
                             f"({', '.join(PATTERN_KEYS)})")
        codec, optional = _codec(hints[d.name])
        own.append(_Field(d.name, d.key, codec, optional, d.annotation))
    keys = [f.key for f in own]
    if len(set(keys)) != len(keys):
        raise ValueError(f"{cls.__name__}: two fields with the same key")
    return _Spec(tuple(d.name for d in decls), tuple(own), {f.key: f for f in own})


def unregister_kind(name: str) -> None:
    """Remove a kind (a test that declared its own takes it out again): its events still have
    their JSON and text forms, but are no longer read back."""
    del EVENT_KINDS[name]
    del EVENT_TYPES[name]


@dataclass_transform(frozen_default=True, kw_only_default=True, field_specifiers=(field,))
def event_kind(name: str) -> Callable[[type[E]], type[E]]:
    """``@event_kind("move")`` over a subclass of :class:`Event` that declares the kind's
    own fields, as a dataclass declares them: makes the kind's class (an immutable tuple of
    its fields, every field but ``seq`` and ``step`` given by keyword) and registers it. A
    field's key is its name unless ``field(metadata={"key": ...})`` gives one; its type is
    one of :data:`CODECS`, ``X | None`` or ``tuple[X, ...]``. The first paragraph of the
    class's docstring says what it means in docs/events.md."""

    def make(cls: type[E]) -> type[E]:
        _check_name(name)
        annotations = cls.__dict__.get("__annotations__", {})
        own = _declared(cls)
        hints = {d.name: _resolve(annotations[d.name], cls.__module__) for d in own}
        decls = [*_COMMON, *own]
        made = _tuple_class(cls, name, decls)
        _SPECS[made] = _spec(made, hints, decls)
        return register_kind(cast(type[E], made), name)

    return make


def kind_fields(kind: str) -> tuple[tuple[str, str, str], ...]:
    """A kind's own fields: (key, attribute name, type as written), in order."""
    return tuple((f.key, f.name, f.annotation) for f in _SPECS[EVENT_KINDS[kind]].own)


def events_table() -> str:
    """The table of docs/events.md: every registered kind, its class, its own fields and
    what it means (the first paragraph of the class's docstring), in registration order."""
    lines = ["| type | class | fields | meaning |", "| --- | --- | --- | --- |"]
    for name, cls in EVENT_KINDS.items():
        own = []
        for key, attr, annotation in kind_fields(name):
            shown = f"`{key}`" if key == attr else f"`{key}` (`.{attr}`)"
            own.append(f"{shown}: `{annotation.replace('|', chr(92) + '|')}`")
        paragraph = (cls.__doc__ or "").strip().split("\n\n")[0]
        doc = " ".join(line.strip() for line in paragraph.splitlines()).replace("``", "`")
        where = cls.__module__.removeprefix("judge.engine.")
        lines.append(f"| `{name}` | `{where}.{cls.__name__}` | {', '.join(own) or '-'} | "
                     f"{doc} |")
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------- the text form

#: The fields every event has, by the keys of the text form and of patterns.
_COMMON_TEXT: tuple[tuple[str, str], ...] = (
    ("player", "player"), ("card", "card"), ("from", "from_zone"), ("to", "to_zone"),
    ("source", "source"))
_COMMON_KEYS: dict[str, str] = {"player": "player", "card": "card", "from": "from_zone",
                                "to": "to_zone", "source": "source"}
_HEAD = re.compile(r"#(?P<seq>[0-9]+)@(?P<step>[0-9]+) (?P<type>[a-z][a-z0-9_]*) "
                   r"\[(?P<cause>[a-z]+)\]")
#: Text written without quotes: in a list, without commas either.
_PLAIN = re.compile(r"[^\s\"\[\]=]+")
_PLAIN_ITEM = re.compile(r"[^\s\"\[\]=,]+")
_NUMBER = re.compile(r"-?[0-9]+")
_DECODER = json.JSONDecoder()


def _word(text: str, in_list: bool) -> str:
    plain = (_PLAIN_ITEM if in_list else _PLAIN).fullmatch(text) is not None and \
        _NUMBER.fullmatch(text) is None and text not in ("true", "false")
    return text if plain else json.dumps(text, ensure_ascii=False)


def _scalar_text(value: Any, in_list: bool) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    return _word(str(value), in_list)


def _value_text(value: Any) -> str:
    if isinstance(value, list):
        return "[" + ",".join(_scalar_text(v, True) for v in value) + "]"
    return _scalar_text(value, False)


def _fields_of(text: str, at: int) -> Iterator[tuple[str, Any]]:
    """The ``key=value`` pairs of a text form from ``at`` on."""
    end = len(text)
    while at < end:
        if text[at] != " ":
            raise FieldError("", f"expected a space at {at} in {quote(text)}")
        at += 1
        eq = text.find("=", at)
        key = text[at:eq]
        if eq < 0 or re.fullmatch(r"[a-z][a-z0-9_]*", key) is None:
            raise FieldError("", f"expected key=value at {at} in {quote(text)}")
        at = eq + 1
        if text.startswith("[", at):
            items: list[Any] = []
            at += 1
            while not text.startswith("]", at):
                if items:
                    if not text.startswith(",", at):
                        raise FieldError("", f"expected , or ] at {at} in {quote(text)}")
                    at += 1
                item, at = _scalar(text, at, _PLAIN_ITEM)
                items.append(item)
            yield key, items
            at += 1
        else:
            value, at = _scalar(text, at, _PLAIN)
            yield key, value


def _scalar(text: str, at: int, plain: re.Pattern[str]) -> tuple[Any, int]:
    if text.startswith('"', at):
        try:
            value, end = _DECODER.raw_decode(text, at)
        except ValueError:
            raise FieldError("", f"bad quoted text at {at} in {quote(text)}") from None
        return str(value), end
    match = plain.match(text, at)
    if match is None:
        raise FieldError("", f"expected a value at {at} in {quote(text)}")
    word = match.group()
    if _NUMBER.fullmatch(word):
        return int(word), match.end()
    if word in ("true", "false"):
        return word == "true", match.end()
    return word, match.end()


# ---------------------------------------------------------------------- the kinds


@event_kind("step")
class Step(Event):
    """Scenario step number ``index`` (from 1) begins; ``action`` is its action."""

    index: int
    action: str


@event_kind("phase")
class Phase(Event):
    """A phase begins (``player`` is the turn player)."""

    phase: str


@event_kind("turn_begin")
class TurnBegin(Event):
    """Turn number ``turn`` begins for ``player``."""

    turn: int


@event_kind("turn_end")
class TurnEnd(Event):
    """The turn ends; ``reason`` is ``end_phase`` or ``second_refresh`` (see
    game-flow.md)."""

    turn: int
    reason: str


@event_kind("effect_begin")
class EffectBegin(Event):
    """One effect starts resolving; ``ability`` is its name (as ``source``), ``card``
    its card."""

    ability: AbilityRef


@event_kind("effect_end")
class EffectEnd(Event):
    """One effect has resolved (``ability`` and ``card`` as for ``effect_begin``)."""

    ability: AbilityRef


@event_kind("move")
class Move(Event):
    """``card`` changes zone, ``from_zone`` to ``to_zone``; ``verb`` says how (the verbs
    are listed in scenario-format.md)."""

    verb: str


@event_kind("skipped")
class Skipped(Event):
    """A ``draw`` (of an effect or of the draw phase), ``mill`` or ``ener_charge``
    (``verb``) wanted ``wanted`` cards, but the main deck gave only ``done``."""

    verb: str
    wanted: int
    done: int


@event_kind("fizzle")
class Fizzle(Event):
    """An operation could do nothing with ``card`` (``reason``: not on the field, no
    empty SIGNI zone, level or limit, ...)."""

    reason: str


@event_kind("banish")
class Banish(Event):
    """A SIGNI is banished, ``from_zone`` to ``to_zone`` (the ener zone, or where it
    was sent instead)."""


@event_kind("attack_negated")
class AttackNegated(Event):
    """The attack of ``card`` is negated by an effect (``source``): no battle, no damage."""


@event_kind("look")
class Look(Event):
    """An effect lets ``seen_by`` (a player, or ``both``) see ``card``, a card of a main deck
    (``from_zone``), which nobody sees otherwise: ``look``, ``reveal_until`` and ``search``
    (:mod:`judge.engine.looking`); ``player`` is the player whose effect it is."""

    seen_by: str


@event_kind("shuffle")
class Shuffle(Event):
    """``player``'s main deck (``to_zone``) is shuffled; ``order`` lists the result, top
    first."""

    order: tuple[str, ...]


@event_kind("refresh")
class Refresh(Event):
    """A refresh is complete: ``count`` is the player's refreshes this turn,
    ``deck_size`` the new deck's size, ``life_moved`` whether a life cloth went to the trash."""

    count: int
    deck_size: int
    life_moved: bool


@event_kind("refresh_waits")
class RefreshWaits(Event):
    """The main deck is empty but no refresh can happen yet (``reason``:
    ``empty-trash``, ``empty-trash-no-life``); logged once until the deck is refilled or the
    refresh happens."""

    reason: str


@event_kind("rule_check")
class RuleCheck(Event):
    """One simultaneous round of rule processing applies these ``kinds``: every kind
    that applied to some card, in the glossary's order (``power``, ``excess``, ``under``,
    ``check``, ``refresh``, ``resona``, ``key``, ``upper_limit``, ``limiting``,
    ``lrig_type``); ``acts`` lists what every kind that found something acts on, in the
    same order (``power:P1``, ``refresh:p1``), both kinds where one card would go to two
    places (its owner's ``rule_order`` choice, logged just before, says which applies).

    The check is one group of the trace (:class:`judge.engine.trace.CheckGroup`): the
    choices the kinds asked and the waits they logged while looking, this event, then
    every move the kinds made, with the position at this event and once all have
    applied."""

    kinds: tuple[str, ...]
    acts: tuple[Acting, ...] = ()


@event_kind("power")
class Power(Event):
    """``card``'s power changes by ``amount``; ``power`` is the new value."""

    amount: int
    power: int


@event_kind("level")
class Level(Event):
    """``card``'s level changes by ``amount``; ``level`` is the new value."""

    amount: int
    level: int


@event_kind("limit")
class Limit(Event):
    """``player``'s limit changes by ``amount``; ``limit`` is the new value."""

    amount: int
    limit: int


@event_kind("lasting")
class Lasting(Event):
    """An effect in force begins, on ``card`` or on ``player``, ``until`` ``end_of_turn``,
    ``end_of_next_turn`` (the end of its controller's next turn) or ``while`` (as long as its
    condition holds); ``kind`` is ``banish_to_trash``, ``keyword:KEYWORD``
    (``keyword:assassin``), ``cost_change:COSTS``, ``cost_modify:COSTS``
    (``cost_modify:colourless:1``), ``cannot:WHAT`` (``cannot:WHAT/KIND``: only against the
    effects of that kind of card, ``by_kind``), ``replace:EVENT``, ``lose_abilities``,
    ``upper_limit:ZONE:N``, ``draw_limit:draw:N``, ``attack_limit:attack:N``,
    ``signi_cap:signi:N``, ``must_attack``, or a change of ``power``, ``level``,
    ``set_power``, ``set_level``, ``limit`` that lasts beyond the end of the turn."""

    kind: LastingKind
    until: str


@event_kind("replaced")
class Replaced(Event):
    """A ``kind`` (``banish``, or ``ener``: a move into the ener zone) of ``card`` is
    replaced by an effect in force: the card goes to its owner's zone ``instead``."""

    kind: str
    instead: str


@event_kind("trigger")
class Trigger(Event):
    """Ability ``ability`` of ``card`` triggered on ``trigger`` and waits."""

    ability: AbilityRef
    trigger: str


@event_kind("trigger_lost")
class TriggerLost(Event):
    """A waiting ability can no longer be used (``reason``: ``left-trash``, ...)."""

    ability: AbilityRef
    reason: str


@event_kind("trigger_declined")
class TriggerDeclined(Event):
    """An optional ability is not used (or its cost cannot be paid)."""

    ability: AbilityRef


@event_kind("trigger_dropped")
class TriggerDropped(Event):
    """A waiting triggered ability (``LABEL#N``) or Life Burst (``LABEL#burst``)
    is removed unresolved: the turn ended early (``second_refresh``) or the game is over
    (``game_over``)."""

    ability: AbilityRef
    reason: str


@event_kind("burst")
class Burst(Event):
    """``card``'s Life Burst is used (``true``) or not (``false``)."""

    used: bool


@event_kind("choice")
class Choice(Event):
    """``player`` is asked a choice of ``kind`` and picks ``picked`` of ``options``;
    ``about`` names the ability asked about (``S1#0``, ``B#burst``), for kind ``use``."""

    kind: str
    options: tuple[Option, ...]
    picked: tuple[Option, ...]
    about: AbilityRef | None = None

    @classmethod
    def _revive(cls, values: dict[str, Any]) -> dict[str, Any]:
        typed = CHOICE_OPTIONS.get(values["kind"])
        if typed is not None:
            for key in ("options", "picked"):
                values[key] = tuple(typed.parse(v) for v in values[key])
        return values


@event_kind("game_start")
class GameStart(Event):
    """``start_game``: ``first`` (also ``player``) won rock-paper-scissors and goes
    first."""

    first: str


@event_kind("redraw")
class Redraw(Event):
    """``player`` redrew ``count`` cards of the opening hand."""

    count: int


@event_kind("attack_step")
class AttackStep(Event):
    """A step of the attack phase begins: ``arts``, ``signi`` or ``lrig`` (``player``
    is the turn player; the key is ``step``)."""

    attack_step: str = field(metadata={"key": "step"})


@event_kind("arts_pass")
class ArtsPass(Event):
    """``player`` passes in the ARTS step."""


@event_kind("attack")
class Attack(Event):
    """``card`` attacks; ``from_zone`` is where it stands (``p1.signi2``, ``p1.lrig``)."""


@event_kind("battle")
class Battle(Event):
    """``card`` battles the SIGNI ``defender`` (a label) with these powers;
    ``banished`` tells whether the defender is banished."""

    defender: str
    attack_power: int
    defend_power: int
    banished: bool


@event_kind("pay")
class Pay(Event):
    """``player`` paid ``cost`` (``white:1,colourless:1``) for ``source``: ``paid``, each
    ener card and the colour it paid as (``w1:white``); ``exceed``, the labels put into the
    LRIG trash."""

    cost: Cost
    paid: tuple[Paid, ...]
    exceed: tuple[str, ...]


@event_kind("down")
class Down(Event):
    """``card`` is downed (by a cost, cause ``cost``, or by an operation)."""


@event_kind("up")
class Up(Event):
    """``card`` is upped by an operation (the up phase is not logged card by card)."""


@event_kind("freeze")
class Freeze(Event):
    """``card`` is frozen."""


@event_kind("game_over")
class GameOver(Event):
    """The game ends: ``winner`` wins (``reason``: ``damage``); ``player`` is the loser."""

    winner: str | None
    reason: str


@event_kind("illegal")
class Illegal(Event):
    """The step is refused with the reason code ``reason``; ``message`` is the engine's
    explanation."""

    reason: str
    message: str


@event_kind("instead")
class Instead(Event):
    """A replacement in force (``source``) does its own operations instead of ``kind``:
    ``banish`` (of ``card``), ``refresh`` or ``draw_phase`` (of ``player``), which does not
    happen."""

    kind: str


@event_kind("prevented")
class Prevented(Event):
    """An effect in force stops ``player`` from doing ``what`` (``draw``: ``count`` cards
    over a draw limit are not drawn)."""

    what: str
    count: int


@event_kind("op_skipped")
class OpSkipped(Event):
    """The operation ``op`` of the effect now resolving is not done (``reason``:
    ``not-done``, the operation before it did not do what it said, "if you do";
    ``condition``, its condition does not hold)."""

    op: str
    reason: str


#: The codes an event's ``reason`` holds (fizzle, refresh_waits, trigger_lost,
#: trigger_dropped, turn_end, game_over, op_skipped), each with its meaning. Narration has a
#: sentence for every code; a test checks that the engine uses no other.
REASONS: dict[str, str] = {
    "target-gone": "the target has left its zone since it was chosen",
    "not-on-field": "the card is not on the field",
    "no-empty-zone": "there is no empty SIGNI zone",
    "not-signi": "the card is not a SIGNI",
    "level-above-lrig": "its level is above the LRIG's level",
    "over-limit": "the total level would be above the LRIG's limit",
    "signi-cap": "an effect in force caps the SIGNI its player may have on the field",
    "limiting-mismatch": "its limiting condition does not match the centre LRIG's LRIG type",
    "no-signi-or-deck": "there is no SIGNI, or no card in the main deck",
    "not-in-hand": "the card is not in the hand it is taken from",
    "empty-trash": "the main deck is empty but so is the trash",
    "empty-trash-no-life": "the main deck, the trash and the life cloth are all empty",
    "left-trash": "the card left the trash",
    "left-hand": "the card left the hand",
    "left-ener": "the card left the ener zone",
    "left-field": "the card left the field",
    "end_phase": "the end phase is over",
    "second_refresh": "the turn player's second refresh of the turn",
    "game_over": "the game is over",
    "damage": "damage with no life cloth left",
    "resisted": "the card is not affected by this player's effects",
    "cannot-be-chosen": "the card cannot be chosen by this player's effects",
    "cannot-be-banished": "the card cannot be banished",
    "cannot-be-trashed": "the card cannot be put into the trash by effects",
    "cannot-pay": "its cost cannot be paid",
    "cannot-use": "its player cannot use it now",
    "not-usable": "the card is not an ARTS or a Spell",
    "cannot-refresh": "an effect in force says the player cannot refresh",
    "refresh-replaced": "the refresh was replaced and the main deck is still empty",
    "not-done": "the operation before it did not do what it said",
    "condition": "its condition does not hold",
    "not-accessory": "the card has no Accessory keyword",
    "not-a-seed": "the card is not a Seed",
    "signi-in-zone": "a SIGNI is in that SIGNI zone",
    "no-rise-material": "the SIGNI it rises on is not on the field",
    "token-label-taken": "a craft ARTS with that label has been made already",
    "marker-present": "that SIGNI zone already holds a marker of that kind",
    "no-marker": "that SIGNI zone holds no marker of that kind",
    "already-riding": "the centre LRIG already rides a SIGNI",
    "no-same-name": "no card of the SIGNI's name is in the zone the card is taken from",
}
