"""Continuous effects: constant abilities and the lasting effects of operations, in one layer.

Two kinds of effect hold over time rather than happen once:

- **constant abilities** (【常】, 常时效果; ``kind = "const"``) of the cards on the field: the
  SIGNI in the SIGNI zones and the centre LRIG. One works while its card is there, its
  ``while`` condition holds and the card has not lost its abilities (WIXOSS TCG Wiki
  "間違えやすいルール", 2014, 常時能力: a constant ability works while its card is on the field
  and its condition is met; Chinese wiki "WIXOSS/游戏规则", undated, 效果类型: 常). Each of its
  operations acts on every card its target matches, now: a SIGNI that comes later gets it,
  one that leaves loses it.
- **lasting effects** of operations (``power``, ``keyword``, ``cannot``, ``replace``, ...):
  put in force when the operation resolves, on the cards it chose then (a card that moves is
  a new object and loses them), or on a player; they last until the end of the turn, until
  the end of their controller's next turn (``until = "end_of_next_turn"``) or while a
  condition holds (``while``).

:func:`compute` reads both into one :class:`Layer`, in this order (the documented order of
application, docs/rules-model.md):

1. **resistance** ("is not affected by the opponent's effects", ``cannot`` ``be_affected``):
   resistance comes before the effects it resists (Chinese wiki, 卡牌的效果处理及其他规则), so
   no effect of the resisted player applies to that card afterwards, however old it is;
2. **lost abilities** (``lose_abilities``): a card that lost its abilities has no constant
   abilities, printed keywords or cross condition, and none of its triggered or action
   abilities work (003, クロス: cross icons and cross conditions are abilities of the text);
   keywords given to it by effects that began later are kept;
3. **cross states** (003, クロス): a SIGNI whose cross condition holds (its partner, by name,
   in the SIGNI zone on the named side) is in a cross state with that partner, both of them,
   even when the partner has lost its own abilities;
4. the constant abilities that work now (their conditions are read here), and every lasting
   effect whose card is still the object it chose;
5. values: for each SIGNI, the printed power and level, then the effects that **set** a value
   (``set_power``, ``set_level``) in timestamp order, the last one winning, then the effects
   that **modify** it (``power``, ``level``), in timestamp order; costs the same way (changes,
   then modifications: 003, コストを変更する、あるいは修正する効果の優先順位). A constant
   ability's timestamp is when its card came into its zone; a lasting effect's, when it began.

Card text comes before the rules (Chinese wiki, 卡牌的效果处理及其他规则): a SIGNI that cannot
be banished is not banished by rule processing kind 1 either.

The layer is computed again only when something it reads may have changed (a card moved, an
effect began or ended, a turn began: :attr:`GameState.changes`), and only when there is
something to compute: with no constant ability on the field and no effect in force beyond
plain modifiers, the game reads its summed tables (:meth:`judge.engine.game.Game.layer` is
None), which give the same values.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from operator import attrgetter
from typing import TYPE_CHECKING, Final, NamedTuple

from judge.engine import amounts, mechanics, source_kinds
from judge.engine.cards import PLAYER_CANNOT, PLAYER_EVENTS, Ability, Op, Target, resisted_by
from judge.engine.conditions import Filter, named
from judge.engine.events import AbilityRef
from judge.engine.state import PLAYERS, SIGNI_ZONES, UNDER_ZONES, CardInstance, Lasting, other

_LABEL: Final = attrgetter("label")

if TYPE_CHECKING:
    from judge.engine.game import Game


class Applied(NamedTuple):
    """One continuous effect that applies now: the operation, whose effect it is, its
    timestamp, what it comes from, and what it acts on: fixed cards ``(label, epoch)`` (a
    lasting effect's), a player (``who`` of a player-level effect), or a selector evaluated
    now against ``holder`` (a constant ability's)."""

    op: Op
    controller: str
    seq: int
    source: AbilityRef | None
    cards: tuple[tuple[str, int], ...] = ()
    players: tuple[str, ...] = ()
    holder: CardInstance | None = None


#: tuple.__new__ as compute uses it: an Applied made of its fields in order (Applied's own
#: __new__, with defaults and keywords, costs a call more; a layer makes many)
_applied: Callable[[type[Applied], tuple[object, ...]], Applied] = \
    tuple.__new__


def _ref(holder: CardInstance, ability: Ability) -> AbilityRef:
    """``AbilityRef(holder.label, ability.index)``: the same value, made once per pair
    (references are frozen values compared by value, so one may be shared; a layer is made
    after most moves on or off the field, each naming its constant abilities)."""
    key = (holder.label, ability.index)
    ref = _REFS.get(key)
    if ref is None:
        if len(_REFS) >= _MAX_REFS:
            _REFS.clear()
        ref = _REFS[key] = AbilityRef(holder.label, ability.index)
    return ref


#: (label, ability index) -> its AbilityRef (:func:`_ref`): a cache of a pure function of
#: the key, so nothing invalidates it; cleared when it holds _MAX_REFS references.
_REFS: Final[dict[tuple[str, int], AbilityRef]] = {}
_MAX_REFS: Final = 4096


@dataclass(slots=True, init=False)
class Layer:
    """The continuous effects in force, read once per change of the game (see the module
    docstring); the game's derived values (power, level, keywords, "can't", replacements,
    limits, costs) are read from here."""

    stats: dict[str, tuple[int, int]] = field(default_factory=dict)
    #: player -> (their SIGNI on the field in zone order, powers, levels): what
    #: Game.field_stats returns for them (its callers do not change the lists)
    by_player: dict[str, tuple[list[CardInstance], list[int], list[int]]] = \
        field(default_factory=dict)
    keywords: dict[str, frozenset[str]] = field(default_factory=dict)
    lost: dict[str, int] = field(default_factory=dict)
    crossed: frozenset[str] = frozenset()
    #: label -> whose effects it is not affected by (``opponent`` or ``any``)
    resist: dict[str, str] = field(default_factory=dict)
    #: label -> the set of (what, by) it cannot; ``by`` is ``opponent`` or ``any``
    #: label -> (what, whose effects, kind of source: ``by_kind``) of each "can't" on it
    cannot: dict[str, set[tuple[str, str, str]]] = field(default_factory=dict)
    player_cannot: dict[str, set[str]] = field(default_factory=dict)
    upper: dict[tuple[str, str], int] = field(default_factory=dict)
    draw_limit: dict[str, int] = field(default_factory=dict)
    #: player -> the most SIGNI that player may have on the field (``signi_cap``)
    signi_cap: dict[str, int] = field(default_factory=dict)
    #: label -> the most attacks that SIGNI may declare in a turn (``attack_limit``)
    attack_limit: dict[str, int] = field(default_factory=dict)
    #: labels of the SIGNI that must attack if able (``must_attack``, forced_attacks.py)
    must_attack: set[str] = field(default_factory=set)
    replacements: list[Applied] = field(default_factory=list)
    #: the zones whose cards a condition read here counts, and those an upper limit in force
    #: watches: a move into or out of them may change the layer (or need rule processing);
    #: otherwise only moves on or off the field, effects and turns do
    counted: frozenset[str] = frozenset()
    #: whether something read here reads the down or frozen flag of cards: then a change of
    #: those flags changes the layer too (Game.flags_changed)
    flags: bool = False
    #: player -> (seq, kind, amounts) of cost changes and modifications in force
    costs: dict[str, list[tuple[int, str, tuple[tuple[str, int], ...]]]] = \
        field(default_factory=dict)
    limit: dict[str, int] = field(default_factory=dict)

    def __init__(self) -> None:
        """An empty layer, each table made by a literal (the dataclass's own __init__ calls a
        factory per field, and a layer is made after most moves on or off the field)."""
        self.stats = {}
        self.by_player = {}
        self.keywords = {}
        self.lost = {}
        self.crossed = frozenset()
        self.resist = {}
        self.cannot = {}
        self.player_cannot = {}
        self.upper = {}
        self.draw_limit = {}
        self.attack_limit = {}
        self.must_attack = set()
        self.signi_cap = {}
        self.replacements = []
        self.counted = frozenset()
        self.flags = False
        self.costs = {}
        self.limit = {}


# ---------------------------------------------------------------- what works now


def holders(game: Game) -> list[CardInstance]:
    """The cards whose constant abilities may work: each player's centre LRIG, SIGNI on the
    field and Key (judge/engine/mechanics/keys.py), p1's first."""
    state = game.state
    out: list[CardInstance] = []
    for p in PLAYERS:
        centre = state.centre(p)
        if centre is not None:
            out.append(centre)
        out += state.signi(p)
        out += state.zone(p, "key")
    return out


def const_on_field(game: Game) -> bool:
    """Whether any card on the field has a constant ability or a cross condition (what the
    layer reads: ``CardDef.has_const``)."""
    return any(c.card.has_const for c in holders(game))


def select(game: Game, target: Target | None, holder: CardInstance | None,
           controller: str, crossed: frozenset[str] = frozenset()) -> list[CardInstance]:
    """The cards a constant ability's target matches now (no choice is made), with the
    cross states ``crossed``."""
    if target is None:
        return []
    if target.this:
        return [holder] if holder is not None else []
    owners = PLAYERS if target.who == "any" else (controller,) if target.who == "self" \
        else (other(controller),) if target.who == "opponent" else (target.who,)
    zones = SIGNI_ZONES if target.zone in ("signi", "field") else (target.zone,)
    state = game.state
    out = []
    for p in owners:
        for z in zones:
            for c in state.zone(p, z):
                if target.card_type is not None and c.card.type != target.card_type:
                    continue
                if target.other and c is holder:
                    continue
                if not target.filter.empty and \
                        not target.filter.admits(game, c, crossed, controller, holder):
                    continue
                out.append(c)
    return out


def _affected(game: Game, item: Applied, crossed: frozenset[str]) -> list[CardInstance]:
    """The cards an applied card-level effect acts on now."""
    if item.holder is not None:
        return select(game, item.op.target, item.holder, item.controller, crossed)
    out = []
    for label, epoch in item.cards:
        inst = game.state.cards.get(label)
        if inst is not None and inst.epoch == epoch:
            out.append(inst)
    return out


def _source_card(game: Game, item: Lasting) -> CardInstance | None:
    if item.src is None:
        return None
    inst = game.state.cards.get(item.src[0])
    return inst if inst is not None and inst.epoch == item.src[1] else None


def _lasting(game: Game, crossed: frozenset[str]) -> list[Applied]:
    """The lasting effects in force now (those with a ``while`` condition: while it holds)."""
    out = []
    for item in game.state.lasting:
        op = item.op
        if op is None:  # made by an older caller with the fields alone
            op = item.op = Op(item.kind, amount=item.amount, keyword=item.text,
                              cost=item.amounts)
        controller = item.controller or item.player
        if op.cond is not None and not op.cond.holds(game, controller,
                                                      _source_card(game, item), crossed):
            continue
        if item.card is not None:
            out.append(_applied(Applied, (op, controller, item.seq, item.source,
                                          ((item.card, item.epoch),), (), None)))
        else:
            out.append(_applied(Applied, (op, controller, item.seq, item.source, (),
                                          (item.player,), None)))
    return out


def _cross(game: Game, lost: dict[str, int]) -> frozenset[str]:
    """The SIGNI in a cross state (003, クロス): for each SIGNI with a cross condition that has
    not lost its abilities, it and its partner, when the partner (by name) is in the SIGNI
    zone on the named side."""
    state = game.state
    out: set[str] = set()
    for p in PLAYERS:
        zones = [state.zone(p, z) for z in SIGNI_ZONES]
        for i, cards in enumerate(zones):
            if not cards:
                continue
            card = cards[0]
            cross = card.card.cross
            if cross is None or card.label in lost:
                continue
            name, side = cross
            j = i - 1 if side == "left" else i + 1
            if 0 <= j < len(zones) and zones[j]:
                if named(zones[j][0].card, name):
                    out.add(card.label)
                    out.add(zones[j][0].label)
    return frozenset(out)


# ---------------------------------------------------------------- the layer


def _resisted(resist: dict[str, str], card: CardInstance, controller: str) -> bool:
    """Whether ``card`` is not affected by an effect of ``controller``."""
    by = resist.get(card.label)
    return by is not None and (by == "any" or (by == "opponent" and controller != card.owner))


def compute(game: Game) -> Layer:
    """Every continuous effect in force, applied in the order of the module docstring.

    Computed often (after most moves on or off the field, :meth:`Game.layer`), so the usual
    case is kept short: the abilities' references are made only for those that apply, and
    with no value set or changed the printed values are taken as they are."""
    layer = Layer()
    state = game.state
    cards_on_field = holders(game)
    consts = [(h, a) for h in cards_on_field if h.card.has_const
              for a in h.card.abilities if a.kind == "const"]
    conds = [a.cond for _, a in consts if a.cond is not None]
    lasting = state.lasting
    if lasting:
        conds += [x.op.cond for x in lasting if x.op is not None and x.op.cond is not None]
    counted: set[str] = set()
    charm = flags = False
    filters: list[Filter] = []
    for c in conds:
        if c.zone:
            counted.update(SIGNI_ZONES if c.zone == "signi" else (c.zone,))
        for zone in c.this_in:
            counted.update(SIGNI_ZONES if zone == "signi" else (zone,))
        charm = charm or c.charm
        filters += c.filters()
    for _, a in consts:  # what the constant abilities' targets and counts read
        for op in a.effect:
            if op.target is not None and op.target.filter.state is not None:
                filters.append(op.target.filter)
            each = op.for_each
            if each is not None and each.count is not None:
                zone = each.count.zone
                counted.update(SIGNI_ZONES if zone == "signi" else (zone,))
                filters += each.count.filters()
    for f in filters:
        state_filter = f.state
        if state_filter is not None:
            charm = charm or state_filter.attached
            flags = flags or state_filter.flags
    if charm:  # a Charm (an Accessory) comes and goes in the under zones
        counted.update(UNDER_ZONES.values())
    crossed_before = _cross(game, {}) if any(c.card.cross for c in cards_on_field) else \
        _NO_WORDS

    # 1. resistance, from constant abilities and lasting effects
    resist = layer.resist

    const_items = [_applied(Applied, (op, h.owner, h.since, _ref(h, a), (), (), h))
                   for h, a in consts
                   if a.cond is None or a.cond.holds(game, h.owner, h, crossed_before)
                   for op in a.effect]
    lasting_now = _lasting(game, crossed_before) if lasting else []
    for item in (*const_items, *lasting_now):
        if item.op.name == "cannot" and item.op.what == "be_affected":
            for card in _affected(game, item, crossed_before):
                if resist.get(card.label) != "any":
                    resist[card.label] = resisted_by(item.op)

    # 2. lost abilities (lasting effects only)
    lost = layer.lost
    for item in lasting_now:
        if item.op.name == "lose_abilities":
            for card in _affected(game, item, crossed_before):
                if not _resisted(resist, card, item.controller):
                    lost[card.label] = max(lost.get(card.label, -1), item.seq)

    # 3. cross states, with the lost abilities
    crossed = _cross(game, lost) if crossed_before or lost else crossed_before
    layer.crossed = crossed

    # 4. what works now
    if lost or crossed != crossed_before:
        const_items = [_applied(Applied, (op, h.owner, h.since, _ref(h, a), (), (), h))
                       for h, a in consts if h.label not in lost
                       and (a.cond is None or a.cond.holds(game, h.owner, h, crossed))
                       for op in a.effect]
        lasting_now = _lasting(game, crossed) if crossed != crossed_before else lasting_now
    items = [*const_items, *lasting_now]
    if len(items) > 1:
        items.sort(key=_SEQ)  # stable: as sorted() was

    # 5. values
    sets: dict[tuple[str, str], int] = {}
    mods: dict[tuple[str, str], int] = {}
    granted: dict[str, list[tuple[int, str]]] = {}
    for item in items:
        op = item.op
        name = op.name
        if item.players:
            _player_effect(layer, item)
            continue
        if name == "lose_abilities" or (name == "cannot" and op.what == "be_affected"):
            continue  # read in steps 1 and 2
        if item.holder is not None and player_level(op):
            _player_effect(layer, item._replace(players=_players(op.who, item.controller)))
            continue
        for card in _affected(game, item, crossed):
            if _resisted(resist, card, item.controller):
                continue
            label = card.label
            if name in ("power", "level"):
                amount = op.amount
                if op.for_each is not None and item.holder is not None:
                    amount *= amounts.factor(game, op.for_each, item.controller,
                                             item.holder, 0, 0, crossed)
                mods[(name, label)] = mods.get((name, label), 0) + amount
            elif name in ("set_power", "set_level"):
                sets[(name[4:], label)] = op.amount  # in timestamp order: the last wins
            elif name == "keyword":
                granted.setdefault(label, []).append((item.seq, op.keyword))
            elif name == "cannot":
                layer.cannot.setdefault(label, set()).add((op.what, resisted_by(op),
                                                           op.by_kind))
            elif name == "must_attack":
                layer.must_attack.add(label)
            elif name == "attack_limit":  # two limits: the lower holds
                layer.attack_limit[label] = min(layer.attack_limit.get(label, op.amount),
                                                op.amount)
            elif name == "replace":
                layer.replacements.append(item._replace(cards=((label, card.epoch),)))
    stats = layer.stats
    by_player = layer.by_player
    for player in PLAYERS:
        signi = state.signi(player)
        if not sets and not mods:  # no value set or changed: the printed ones
            powers = [card.card.power or 0 for card in signi]
            levels = [card.card.level or 0 for card in signi]
            stats.update(zip(map(_LABEL, signi), zip(powers, levels, strict=True),
                             strict=True))
            by_player[player] = (signi, powers, levels)
            continue
        powers, levels = [], []
        for card in signi:
            label = card.label
            power = sets.get(("power", label), card.card.power or 0) + \
                mods.get(("power", label), 0)
            level = sets.get(("level", label), card.card.level or 0) + \
                mods.get(("level", label), 0)
            stats[label] = (power, level)
            powers.append(power)
            levels.append(level)
        by_player[player] = (signi, powers, levels)
    if layer.upper:
        counted.update(zone for _, zone in layer.upper)
    layer.counted = frozenset(counted)
    layer.flags = flags
    keywords = layer.keywords
    for card in cards_on_field:
        label = card.label
        since = lost.get(label)
        given = granted.get(label)
        if given is None:  # printed keywords only, unless lost
            printed = card.card.keywords
            keywords[label] = _NO_WORDS if since is not None or not printed \
                else frozenset(printed)
            continue
        words = set() if since is not None else set(card.card.keywords)
        for seq, word in given:
            if since is None or seq > since:
                words.add(word)
        keywords[label] = frozenset(words)
    return layer


_SEQ: Final = attrgetter("seq")
_NO_WORDS: Final[frozenset[str]] = frozenset()


#: Operations that act on a player rather than on cards.
_PLAYER_OPS: Final = frozenset({"limit", "upper_limit", "draw_limit", "signi_cap", "cost_change",
                                "cost_modify", "banish_to_trash"})


def player_level(op: Op) -> bool:
    """Whether ``op`` puts an effect on a player (``who``) rather than on cards."""
    return op.name in _PLAYER_OPS or (op.name == "cannot" and op.what in PLAYER_CANNOT) or \
        (op.name == "replace" and op.event in PLAYER_EVENTS)


def _players(who: str, controller: str) -> tuple[str, ...]:
    if who == "self":
        return (controller,)
    if who == "opponent":
        return (other(controller),)
    if who == "both":
        return (controller, other(controller))
    return (who,)


def _player_effect(layer: Layer, item: Applied) -> None:
    op = item.op
    name = op.name
    for player in item.players:
        if name == "limit":
            layer.limit[player] = layer.limit.get(player, 0) + op.amount
        elif name == "cannot":
            layer.player_cannot.setdefault(player, set()).add(op.what)
        elif name == "upper_limit":
            key = (player, op.zone)
            layer.upper[key] = min(layer.upper.get(key, op.amount), op.amount)
        elif name == "draw_limit":
            layer.draw_limit[player] = min(layer.draw_limit.get(player, op.amount), op.amount)
        elif name == "signi_cap":  # two caps: the lower holds
            layer.signi_cap[player] = min(layer.signi_cap.get(player, op.amount), op.amount)
        elif name in ("cost_change", "cost_modify"):
            layer.costs.setdefault(player, []).append((item.seq, name, op.cost))
        elif name in ("replace", "banish_to_trash"):
            layer.replacements.append(_applied(Applied, (item.op, item.controller, item.seq,
                                                         item.source, item.cards, (player,),
                                                         item.holder)))


# ---------------------------------------------------------------- replacements


def replacement_applies(game: Game, item: Applied, event: str,
                        card: CardInstance | None, player: str | None) -> bool:
    """Whether the replacement ``item`` watches ``event`` for ``card`` (card-level) or
    ``player`` (player-level)."""
    op = item.op
    if op.name == "banish_to_trash":
        return event == "banish" and card is not None and card.owner in item.players
    if op.event != event:
        return False
    if card is not None:
        return any(label == card.label and epoch == card.epoch for label, epoch in item.cards)
    return player is not None and player in item.players


def unchoosable(game: Game, card: CardInstance, controller: str) -> bool:
    """Whether an effect of ``controller`` cannot choose ``card``: Shadow (the keyword's
    ``unchoosable`` hook: not by the opponent's effects; Chinese wiki, 暗影) or a
    ``cannot`` ``be_chosen`` in force."""
    if card.owner != controller and mechanics.unchoosable(game.keywords(card)):
        return True
    layer = game.layer()
    if layer is None:
        return False
    what = layer.cannot.get(card.label)
    if not what:
        return False
    return ("be_chosen", "any", "") in what or \
        (("be_chosen", "opponent", "") in what and card.owner != controller)


def resists(game: Game, card: CardInstance, controller: str) -> bool:
    """Whether ``card`` is not affected by an effect of ``controller`` (resistance)."""
    layer = game.layer()
    return layer is not None and _resisted(layer.resist, card, controller)


def cannot(game: Game, card: CardInstance, what: str, controller: str | None = None) -> bool:
    """Whether ``card`` cannot ``what`` (``attack``, ``be_banished``, ``be_trashed``) when an
    effect of ``controller`` would make it, or battle or rule processing (``controller``
    None): a ``cannot`` that says ``by`` resists only effects, of the opponent or of any
    player (resistance before the effects it resists, 001; rule processing is no effect,
    004)."""
    layer = game.layer()
    if layer is None:
        return False
    forbidden = layer.cannot.get(card.label)
    if forbidden is None:
        return False
    for w, by, kind in forbidden:
        if w != what:
            continue
        if kind:  # only effects, and of that kind of card (source_kinds.py)
            if controller is not None and source_kinds.kind_now(game) == kind and \
                    (by != "opponent" or controller != card.owner):
                return True
            continue
        if not by or (controller is not None and (
                by == "any" or (by == "opponent" and controller != card.owner))):
            return True
    return False


def player_cannot(game: Game, player: str, what: str) -> bool:
    """Whether ``player`` cannot ``what`` (``refresh``, ``pay_with_colourless``,
    ``use_spells``, ``use_arts``)."""
    layer = game.layer()
    return layer is not None and what in layer.player_cannot.get(player, ())


def replacements(game: Game, event: str, card: CardInstance | None = None,
                 player: str | None = None) -> list[Applied]:
    """The replacement effects in force that watch ``event`` for ``card`` or ``player``, in
    timestamp order (``banish_to_trash`` among them)."""
    layer = game.layer()
    if layer is None:
        if event == "banish" and card is not None and card.owner in game.state.to_trash:
            return [_to_trash(game, card.owner)]
        return []
    return [r for r in layer.replacements if replacement_applies(game, r, event, card, player)]


def _to_trash(game: Game, player: str) -> Applied:
    """The first ``banish_to_trash`` in force for ``player`` (the fast path)."""
    item = next(x for x in game.state.lasting if x.kind == "banish_to_trash"
                and x.player == player)
    return Applied(Op("banish_to_trash"), item.controller or player, item.seq, item.source,
                   players=(player,))
