"""The operations an effect is made of (the vocabulary in :data:`judge.engine.cards.OPS`).

Which cards an operation acts on is :mod:`judge.engine.targets`; the ``charm`` and ``attach``
operations live with their mechanics (:mod:`judge.engine.mechanics.charm`,
:mod:`judge.engine.mechanics.accessory`) and are listed in :data:`OPERATIONS` with the rest.

Each operation does as much as it can: a draw from an empty main deck is simply not made and
is logged as ``skipped`` (2014-06-20 refresh revision, quoted by wixoss.81.la
"リフレッシュ"). Under the 2014-04 rules the refresh interrupts from inside
:meth:`Game.move` instead, so the draw goes on from the new deck.

Each operation returns whether it did what it said (:func:`apply_op`): all the cards it asked
for, or at least one where it asked for "up to" or "all". An operation with ``if_done`` ("if
you do") happens only if the one before it did; one with ``if`` only if its condition holds
(:meth:`judge.engine.game.Game.resolve_effect`).

Effects in force: the lasting operations (``power``, ``keyword``, ``cannot``, ``replace``,
...) put a :class:`~judge.engine.state.Lasting` in force for the cards chosen now (or a
player), until the end of this turn, of the controller's next turn, or while a condition
holds; :mod:`judge.engine.continuous` applies them. A card that is not affected by the
controller's effects (resistance, ``cannot`` ``be_affected``) is left out of every operation
(``fizzle``, ``resisted``); "can't" effects stop what they forbid (``fizzle``:
``cannot-be-banished``, ``cannot-be-trashed``); a replacement in force does something else
instead of a banish (:func:`banish_card`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from judge.engine import bursts, continuous, looking, triggers, using
from judge.engine import events as ev
from judge.engine.cards import Op
from judge.engine.events import AbilityRef, LastingKind
from judge.engine.mechanics import crystal, ride, rise, seed
from judge.engine.mechanics.accessory import attach
from judge.engine.mechanics.bet import gain as coins
from judge.engine.mechanics.charm import charm
from judge.engine.mechanics.gate import set_gate
from judge.engine.mechanics.registrations import gain as registrations
from judge.engine.mechanics.seed import set_seed
from judge.engine.mechanics.token_arts import make as make_token
from judge.engine.mechanics.trap import set_trap
from judge.engine.mechanics.virus import remove_virus, set_virus
from judge.engine.state import CHEER, SIGNI_ZONES, CardInstance, Lasting, other
from judge.engine.targets import feasible, op_targets, players_for, zone_names

if TYPE_CHECKING:
    from judge.engine.game import Game

CAUSE: Final = "effect"


def _from_deck(game: Game, op: Op, controller: str, zone: str, verb: str,
               source: AbilityRef) -> bool:
    done = True
    for player in players_for(op.who, controller):
        wanted = op.count
        if verb == "draw":
            wanted = allowed_draws(game, player, op.count, source)
        made = 0
        for _ in range(wanted):
            deck = game.state.zone(player, "deck")
            if not deck:
                break
            game.move(deck[0], zone, CAUSE, verb, source=source)
            made += 1
        if verb == "draw":
            game.state.players[player].draws += made
        if made < wanted:
            game.emit(ev.Skipped, cause=CAUSE, player=player, source=source, verb=verb,
                      wanted=wanted, done=made)
        done = done and made == op.count
        game.acted += made
    return done


def allowed_draws(game: Game, player: str, count: int, source: AbilityRef | None,
                  cause: str = CAUSE) -> int:
    """How many of ``count`` draws ``player`` may make under a draw limit in force ("you
    cannot draw more than N cards this turn": the draws of this turn count, the draw phase's
    included); the rest are prevented (``prevented``, what ``draw``)."""
    layer = game.layer()
    if layer is None or player not in layer.draw_limit:
        return count
    room = max(0, layer.draw_limit[player] - game.state.players[player].draws)
    if room < count:
        game.emit(ev.Prevented, cause=cause, player=player, source=source, what="draw",
                  count=count - room)
    return min(count, room)


def draw(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> bool:
    return _from_deck(game, op, controller, "hand", "draw", name)


def mill(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> bool:
    return _from_deck(game, op, controller, "trash", "mill", name)


def ener_charge(game: Game, op: Op, controller: str, source: CardInstance | None,
                name: AbilityRef) -> bool:
    return _from_deck(game, op, controller, "ener", "ener_charge", name)


def _done(game: Game, op: Op, acted: int) -> bool:
    """Whether an operation that acted on ``acted`` cards did what it said: every card it
    named or asked for, or at least one where it asked for "up to" or "all". Records
    ``acted`` (``Game.acted``: what a ``for_each = "done"`` after it counts)."""
    game.acted = acted
    target = op.target
    if target is None or target.this or target.trigger:
        return acted >= 1
    if target.labels:
        return acted >= len(target.labels)
    return acted >= (1 if target.all or target.up_to else target.count)


def discard(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> bool:
    acted = 0
    for inst in op_targets(game, op, controller, source):
        if inst.zone.zone == "hand":
            game.move(inst, "trash", CAUSE, "discard", source=name)
            acted += 1
    return _done(game, op, acted)


def banish(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> bool:
    acted = 0
    for inst in op_targets(game, op, controller, source):
        acted += banish_card(game, inst, CAUSE, name, controller)
    return _done(game, op, acted)


def banish_card(game: Game, inst: CardInstance, cause: str, name: AbilityRef | None,
                controller: str | None = None) -> bool:
    """Banish a SIGNI: to the ener zone, or where a replacement in force puts it instead, or
    not at all when a replacement does something else instead or it cannot be banished (card
    text comes before the rules: Chinese wiki, 卡牌的效果处理及其他规则). ``controller``: the
    player whose effect banishes it (None for battle and rule processing, which are no
    effects: a resistance to some player's effects does not stop them). Whether it was."""
    if not game.on_field(inst):
        game.emit(ev.Fizzle, cause=cause, player=inst.owner, card=inst.label, source=name,
                  reason="not-on-field")
        return False
    if game.cannot(inst, "be_banished", controller):
        game.emit(ev.Fizzle, cause=cause, player=inst.owner, card=inst.label, source=name,
                  reason="cannot-be-banished")
        return False
    repl = replacement(game, "banish", inst.owner, inst)
    dest = "ener"
    if repl is not None:
        if repl.op.ops:
            instead(game, repl, "banish", inst.owner, inst, cause)
            return False
        dest = "trash" if repl.op.name == "banish_to_trash" else repl.op.zone
        game.emit(ev.Replaced, cause=cause, player=inst.owner, card=inst.label, source=name,
                  kind="banish", instead=dest)
    game.move(inst, dest, cause, "banish", source=name, etype="banish")
    return True


def replacement(game: Game, event: str, player: str,
                card: CardInstance | None = None) -> continuous.Applied | None:
    """The replacement effect that applies to ``event`` (of ``card``, or of ``player``), if
    any: among those in force whose "instead" can be done, the one the affected player
    chooses (choice ``replace``; one alone is taken without asking), and with "you may"
    (``optional``) only if its controller chooses to (choice ``use``)."""
    found = continuous.replacements(game, event, card, None if card else player)
    options = [r for r in found if not r.op.ops or
               feasible(game, r.op.ops, r.controller, _holder(game, r, card))]
    if not options:
        return None
    chosen = options[0]
    if len(options) > 1:
        names = [r.source or ev.IN_FORCE for r in options]
        picked = game.choose(player, "replace", names, prompt=f"which replacement of the "
                             f"{event} applies")[0]
        chosen = options[names.index(picked)]
    if chosen.op.optional and not game.yes_no(chosen.controller, "use",
                                              f"replace the {event}?", about=chosen.source):
        return None
    return chosen


def _holder(game: Game, repl: continuous.Applied, card: CardInstance | None
            ) -> CardInstance | None:
    """The card "this" stands for in a replacement's operations: its own card."""
    if repl.holder is not None:
        return repl.holder
    return card


def instead(game: Game, repl: continuous.Applied, kind: str, player: str,
            card: CardInstance | None, cause: str) -> None:
    """A replacement does its own operations instead of ``kind`` (one effect of its
    controller); the replaced thing does not happen."""
    source = repl.source or ev.IN_FORCE
    game.emit(ev.Instead, cause=cause, player=player, card=card.label if card else None,
              source=source, kind=kind)
    game.resolve_effect(repl.op.ops, repl.controller, _holder(game, repl, card), source)


def trash(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> bool:
    acted = 0
    for inst in op_targets(game, op, controller, source):
        if game.on_field(inst) and game.cannot(inst, "be_trashed", controller):
            game.emit(ev.Fizzle, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      reason="cannot-be-trashed")
            continue
        game.move(inst, game.home_trash(inst.card), CAUSE, "trash", source=name)
        acted += 1
    return _done(game, op, acted)


def to_ener(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> bool:
    acted = 0
    for inst in op_targets(game, op, controller, source):
        game.move(inst, "ener", CAUSE, "to_ener", source=name)
        acted += 1
    return _done(game, op, acted)


def to_hand(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> bool:
    acted = 0
    for inst in op_targets(game, op, controller, source):
        if source is inst and op.target is not None and op.target.this and \
                inst.zone.zone == "hand":
            continue
        game.move(inst, "hand", CAUSE, "to_hand", source=name)
        acted += 1
    return _done(game, op, acted)


def to_deck(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> bool:
    acted = 0
    for inst in op_targets(game, op, controller, source):
        game.put_into_deck(inst, CAUSE, "to_deck", bottom=op.position == "bottom", source=name)
        acted += 1
    return _done(game, op, acted)


def place(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> bool:
    zones = zone_names(op.zone)
    acted = 0
    for inst in op_targets(game, op, controller, source):
        zone = zones[0]
        if len(zones) > 1:
            empty = [z for z in zones if not game.state.zone(inst.owner, z)]
            if not empty:
                game.emit(ev.Fizzle, cause=CAUSE, player=inst.owner, card=inst.label,
                          source=name, reason="no-empty-zone")
                continue
            zone = empty[0] if len(empty) == 1 else \
                game.choose(inst.owner, "zone", empty, prompt="which SIGNI zone")[0]
        game.move(inst, zone, CAUSE, "place", source=name, top=op.position == "top"
                  and zone in ("deck", "life"))
        acted += 1
    return _done(game, op, acted)


def put_onto_field(game: Game, op: Op, controller: str, source: CardInstance | None,
                   name: AbilityRef) -> bool:
    """Put a SIGNI onto an empty SIGNI zone. The level, limit and limiting-condition checks of
    playing a SIGNI apply to this too (WIXOSS TCG Wiki, "間違えやすいルール", level and limit);
    with no empty zone, the operation does nothing."""
    acted = 0
    for inst in op_targets(game, op, controller, source):
        owner = inst.owner
        # ignore_conditions waives level, limit and limiting condition, never the card type
        reason = "not-signi" if not inst.card.is_signi_like else \
            None if op.ignore_conditions else field_problem(game, inst, owner)
        if inst.card.rise:  # a Rise SIGNI enters only on top of its materials
            if reason is None or reason in ("over-limit", "signi-cap"):
                reason = _rise_problem(game, inst, owner, op.ignore_conditions)
            empty = rise.material_zones(game, inst, owner)
        else:
            empty = [z for z in SIGNI_ZONES if not game.state.zone(owner, z)]
            if not empty:
                reason = "no-empty-zone"
        if reason:
            game.emit(ev.Fizzle, cause=CAUSE, player=owner, card=inst.label, source=name,
                      reason=reason)
            continue
        zone = empty[0] if len(empty) == 1 else \
            game.choose(owner, "zone", empty, prompt="which SIGNI zone")[0]
        if inst.card.rise:
            rise.enter(game, inst, zone, CAUSE, "put_onto_field", name)
        else:
            game.move(inst, zone, CAUSE, "put_onto_field", source=name)
        acted += 1
    return _done(game, op, acted)


def _rise_problem(game: Game, inst: CardInstance, owner: str,
                  ignore_conditions: bool) -> str | None:
    """Why the Rise SIGNI ``inst`` cannot be put onto ``owner``'s field now, or None: no
    material, or (unless the conditions are waived) the limit once its materials leave."""
    found = rise.materials(game, inst, owner)
    if found is None:
        return "no-rise-material"
    if ignore_conditions:
        return None
    return field_problem(game, inst, owner, leaving=tuple(found))


def field_problem(game: Game, inst: CardInstance, owner: str, zone: str = "",
                  leaving: tuple[CardInstance, ...] = ()) -> str | None:
    """Why ``inst`` may not be put onto ``owner``'s field (into ``zone``, if known), or
    None. The SIGNI in the cheer zone do not count for the limit, nor does one put there
    (Chinese wiki, 主要阶段); ``leaving`` are SIGNI that leave the field as it is put there
    (a Rise's materials, a Resona's condition) and do not count either."""
    if not inst.card.is_signi_like:
        return "not-signi"
    level = inst.card.level or 0
    if level > game.lrig_level(owner):
        return "level-above-lrig"
    signi = game.state.signi(owner)
    levels = game.field_stats(signi)[1]
    total = sum(lv for s, lv in zip(signi, levels, strict=True)
                if s.zone.zone != CHEER and s not in leaving)
    if zone != CHEER and total + level > game.limit(owner):
        return "over-limit"
    layer = game.layer()
    if zone != CHEER and layer is not None and owner in layer.signi_cap and \
            sum(s.zone.zone != CHEER and s not in leaving for s in signi) >= \
            layer.signi_cap[owner]:  # "you cannot have more than N SIGNI" (signi_cap)
        return "signi-cap"
    if inst.card.limiting and inst.card.limiting != game.lrig_type(owner):
        return "limiting-mismatch"
    return None


def _expires(game: Game, op: Op, controller: str) -> int:
    """The turn at whose end an effect of ``op`` ends: 0 for this turn (the default),
    the controller's next turn for ``until = "end_of_next_turn"``."""
    if op.until != "end_of_next_turn":
        return 0
    turn = game.state.turn
    return turn + 2 if game.state.turn_player == controller else turn + 1


def put_in_force(game: Game, op: Op, controller: str, source: CardInstance | None,
                 name: AbilityRef, player: str, card: CardInstance | None = None,
                 kind: str | None = None, text: str = "") -> Lasting:
    """Put the effect of ``op`` in force, on ``card`` (as the object it is now) or on
    ``player``: how long it lasts, its condition and its controller go with it."""
    expires = _expires(game, op, controller)
    item = Lasting(kind or op.name, player, card.label if card else None, op.amount, name,
                   card.epoch if card else 0, text, op.cost, controller, len(game.log),
                   expires,
                   op,
                   (source.label, source.epoch) if source is not None else None)
    game.state.add_lasting(item)
    return item


def _lasting_event(game: Game, op: Op, player: str, card: CardInstance | None,
                   name: AbilityRef, kind: LastingKind) -> None:
    game.emit(ev.Lasting, cause=CAUSE, player=player, card=card.label if card else None,
              source=name, kind=kind, until=op.duration)


def _on_field_targets(game: Game, op: Op, controller: str, source: CardInstance | None,
                      name: AbilityRef) -> list[CardInstance]:
    """The targets of an operation that acts on SIGNI on the field; the others fizzle."""
    out = []
    for inst in op_targets(game, op, controller, source):
        if not game.on_field(inst):
            game.emit(ev.Fizzle, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      reason="not-on-field")
            continue
        out.append(inst)
    return out


def _modify(game: Game, op: Op, controller: str, source: CardInstance | None, name: AbilityRef,
            stat: str) -> bool:
    targets = _on_field_targets(game, op, controller, source, name)
    for inst in targets:
        before = 0 if op.name == stat else game.power(inst) if stat == "power" \
            else game.level(inst)
        put_in_force(game, op, controller, source, name, inst.owner, inst, kind=op.name)
        after = game.power(inst) if stat == "power" else game.level(inst)
        amount = op.amount if op.name == stat else after - before
        if stat == "level":
            inst.level_changed = True
            game.level_changed.append(inst)
            game.emit(ev.Level, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      amount=amount, level=after)
        else:
            game.emit(ev.Power, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      amount=amount, power=after)
        if op.duration != "end_of_turn":
            _lasting_event(game, op, inst.owner, inst, name, LastingKind(op.name))
    return _done(game, op, len(targets))


def power(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> bool:
    return _modify(game, op, controller, source, name, "power")


def level(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> bool:
    return _modify(game, op, controller, source, name, "level")


def set_power(game: Game, op: Op, controller: str, source: CardInstance | None,
              name: AbilityRef) -> bool:
    return _modify(game, op, controller, source, name, "power")


def set_level(game: Game, op: Op, controller: str, source: CardInstance | None,
              name: AbilityRef) -> bool:
    return _modify(game, op, controller, source, name, "level")


def limit(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        put_in_force(game, op, controller, source, name, player)
        game.emit(ev.Limit, cause=CAUSE, player=player, source=name, amount=op.amount,
                  limit=game.limit(player))
        if op.duration != "end_of_turn":
            _lasting_event(game, op, player, None, name, LastingKind("limit"))


def crush(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> bool:
    done = True
    for player in players_for(op.who, controller):
        for _ in range(op.count):
            if not game.state.zone(player, "life") and "crush-is-damage" in game.rules.broken:
                deal_damage(game, player, CAUSE, name)  # broken on purpose (judge.quiz)
                done = False
                break
            if not bursts.crush(game, player, CAUSE, name):
                done = False
                break
            game.acted += 1
    return done


def damage(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        deal_damage(game, player, CAUSE, name)


def deal_damage(game: Game, player: str, cause: str, name: AbilityRef | None) -> None:
    """Damage: crush one life cloth; with none left, the other player wins (Chinese wiki,
    "WIXOSS/游戏规则", attack phase)."""
    if not bursts.crush(game, player, cause, name):
        game.state.winner = other(player)
        game.state.win_reason = "damage"
        game.emit(ev.GameOver, cause=cause, player=player, source=name, winner=other(player),
                  reason="damage")


def shuffle(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        game.shuffle(player, CAUSE)


def banish_to_trash(game: Game, op: Op, controller: str, source: CardInstance | None,
                    name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        put_in_force(game, op, controller, source, name, player)
        game.emit(ev.Lasting, cause=CAUSE, player=player, source=name,
                  kind=LastingKind("banish_to_trash"), until=op.duration)


#: The event of each flag an operation sets.
_FLAGS: Final[dict[str, type[ev.Down] | type[ev.Up] | type[ev.Freeze]]] = {
    "down": ev.Down, "up": ev.Up, "freeze": ev.Freeze}


def _flag(game: Game, op: Op, controller: str, source: CardInstance | None, name: AbilityRef,
          what: str) -> bool:
    acted = 0
    for inst in op_targets(game, op, controller, source):
        if not (game.on_field(inst) or inst.zone.zone == "lrig"):
            game.emit(ev.Fizzle, cause=CAUSE, player=inst.owner, card=inst.label, source=name,
                      reason="not-on-field")
            continue
        if what == "freeze":
            inst.frozen = True
        else:
            inst.down = what == "down"
        game.flags_changed()
        game.emit(_FLAGS[what], cause=CAUSE, player=inst.owner, card=inst.label, source=name)
        acted += 1
    return _done(game, op, acted)


def freeze(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> bool:
    return _flag(game, op, controller, source, name, "freeze")


def down(game: Game, op: Op, controller: str, source: CardInstance | None,
         name: AbilityRef) -> bool:
    return _flag(game, op, controller, source, name, "down")


def up(game: Game, op: Op, controller: str, source: CardInstance | None, name: AbilityRef) -> bool:
    return _flag(game, op, controller, source, name, "up")


def keyword(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> bool:
    targets = _on_field_targets(game, op, controller, source, name)
    for inst in targets:
        put_in_force(game, op, controller, source, name, inst.owner, inst, text=op.keyword)
        _lasting_event(game, op, inst.owner, inst, name,
                       LastingKind("keyword", keyword=op.keyword))
    return _done(game, op, len(targets))


def _cost_lasting(game: Game, op: Op, controller: str, source: CardInstance | None,
                  name: AbilityRef, kind: str) -> None:
    for player in players_for(op.who, controller):
        put_in_force(game, op, controller, source, name, player)
        _lasting_event(game, op, player, None, name, LastingKind(kind, amounts=op.cost))


def cost_change(game: Game, op: Op, controller: str, source: CardInstance | None,
                name: AbilityRef) -> None:
    _cost_lasting(game, op, controller, source, name, "cost_change")


def cost_modify(game: Game, op: Op, controller: str, source: CardInstance | None,
                name: AbilityRef) -> None:
    _cost_lasting(game, op, controller, source, name, "cost_modify")


def cannot(game: Game, op: Op, controller: str, source: CardInstance | None,
           name: AbilityRef) -> bool:
    """A "can't" in force: on SIGNI chosen now, or on a player (kind ``cannot:WHAT``, or
    ``cannot:WHAT/KIND`` for a resistance limited to a kind of source: ``by_kind``)."""
    kind = LastingKind("cannot", keyword=f"{op.what}/{op.by_kind}" if op.by_kind else op.what)
    if continuous.player_level(op):
        for player in players_for(op.who, controller):
            put_in_force(game, op, controller, source, name, player, text=op.what)
            _lasting_event(game, op, player, None, name, kind)
        return True
    targets = _on_field_targets(game, op, controller, source, name)
    for inst in targets:
        put_in_force(game, op, controller, source, name, inst.owner, inst, text=op.what)
        _lasting_event(game, op, inst.owner, inst, name, kind)
    return _done(game, op, len(targets))


def _on_signi_in_force(game: Game, op: Op, controller: str, source: CardInstance | None,
                       name: AbilityRef, kind: LastingKind) -> bool:
    """An effect in force of ``kind`` on the SIGNI chosen now, each logged ``lasting``."""
    targets = _on_field_targets(game, op, controller, source, name)
    for inst in targets:
        put_in_force(game, op, controller, source, name, inst.owner, inst)
        _lasting_event(game, op, inst.owner, inst, name, kind)
    return _done(game, op, len(targets))


def lose_abilities(game: Game, op: Op, controller: str, source: CardInstance | None,
                   name: AbilityRef) -> bool:
    return _on_signi_in_force(game, op, controller, source, name, LastingKind("lose_abilities"))


def replace(game: Game, op: Op, controller: str, source: CardInstance | None,
            name: AbilityRef) -> bool:
    """A replacement in force: for SIGNI chosen now (a banish, a move into the ener zone) or
    for a player (a refresh, the draw of the draw phase)."""
    kind = LastingKind("replace", keyword=op.event)
    if continuous.player_level(op):
        for player in players_for(op.who, controller):
            put_in_force(game, op, controller, source, name, player, text=op.event)
            _lasting_event(game, op, player, None, name, kind)
        return True
    targets = _on_field_targets(game, op, controller, source, name)
    for inst in targets:
        put_in_force(game, op, controller, source, name, inst.owner, inst, text=op.event)
        _lasting_event(game, op, inst.owner, inst, name, kind)
    return _done(game, op, len(targets))


def upper_limit(game: Game, op: Op, controller: str, source: CardInstance | None,
                name: AbilityRef) -> None:
    for player in players_for(op.who, controller):
        put_in_force(game, op, controller, source, name, player, text=op.zone)
        _lasting_event(game, op, player, None, name,
                       LastingKind("upper_limit", amounts=((op.zone, op.amount),)))


#: What a player's count limit counts, in its lasting kind: ``draw_limit:draw:N``,
#: ``signi_cap:signi:N``.
_COUNTED: Final = {"draw_limit": "draw", "signi_cap": "signi"}


def player_count_limit(game: Game, op: Op, controller: str, source: CardInstance | None,
                       name: AbilityRef) -> None:
    """A limit on a count of a player's in force: the cards drawn in a turn (``draw_limit``)
    or the SIGNI on the field (``signi_cap``)."""
    for player in players_for(op.who, controller):
        put_in_force(game, op, controller, source, name, player)
        _lasting_event(game, op, player, None, name,
                       LastingKind(op.name, amounts=((_COUNTED[op.name], op.amount),)))


def bloom(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> None:
    """Seeds bloom (:mod:`judge.engine.mechanics.seed`); then the cards on the field that
    watch a Seed bloom trigger (``seed_blooms``, issue 30)."""
    for inst in seed.bloom(game, op, controller, source, name):
        triggers.others(game, "seed_blooms", inst)


def must_attack(game: Game, op: Op, controller: str, source: CardInstance | None,
                name: AbilityRef) -> bool:
    """"Must attack if able" in force on SIGNI chosen now (judge.engine.forced_attacks)."""
    return _on_signi_in_force(game, op, controller, source, name, LastingKind("must_attack"))


def attack_limit(game: Game, op: Op, controller: str, source: CardInstance | None,
                 name: AbilityRef) -> bool:
    """"Cannot attack more than N times in a turn" in force on SIGNI chosen now."""
    return _on_signi_in_force(game, op, controller, source, name,
                              LastingKind("attack_limit", amounts=(("attack", op.amount),)))


def use(game: Game, op: Op, controller: str, source: CardInstance | None,
        name: AbilityRef) -> bool:
    """Use ARTS or Spells through this effect (:func:`judge.engine.using.use_through`)."""
    acted = 0
    for inst in op_targets(game, op, controller, source):
        acted += using.use_through(game, inst, controller, name, free=op.free,
                                   ignore_limiting=op.ignore_limiting)
    return _done(game, op, acted)


def negate_attack(game: Game, op: Op, controller: str, source: CardInstance | None,
                  name: AbilityRef) -> bool:
    """The attack being declared (:attr:`Game.attacking`) is negated: the attack step goes on
    without its battle or damage (:mod:`judge.engine.battle`). Outside an attack, nothing."""
    attacker = game.attacking
    if attacker is None or game.negated:
        return False
    game.negated = True
    game.emit(ev.AttackNegated, cause=CAUSE, player=attacker.owner, card=attacker.label,
              source=name)
    return True


OPERATIONS: dict[str, Callable[[Game, Op, str, CardInstance | None, AbilityRef],
                               bool | None]] = {
    "freeze": freeze, "down": down, "up": up, "keyword": keyword,
    "cost_change": cost_change, "cost_modify": cost_modify,
    "draw": draw, "mill": mill, "ener_charge": ener_charge, "discard": discard,
    "banish": banish, "trash": trash, "to_ener": to_ener, "to_hand": to_hand,
    "to_deck": to_deck, "place": place, "put_onto_field": put_onto_field, "power": power,
    "level": level, "limit": limit, "crush": crush, "damage": damage, "shuffle": shuffle,
    "banish_to_trash": banish_to_trash, "charm": charm, "attach": attach,
    "set_power": set_power, "set_level": set_level, "cannot": cannot,
    "lose_abilities": lose_abilities, "replace": replace, "upper_limit": upper_limit,
    "draw_limit": player_count_limit, "attack_limit": attack_limit,
    "must_attack": must_attack,
    "signi_cap": player_count_limit, "use": use,
    "ride": ride.ride, "crystal_arm": crystal.crystal_arm,
    "set_seed": set_seed, "bloom": bloom, "set_trap": set_trap, "make_token": make_token,
    "coins": coins, "look": looking.look, "reveal_until": looking.reveal_until,
    "search": looking.search, "negate_attack": negate_attack,
    "set_virus": set_virus, "remove_virus": remove_virus, "set_gate": set_gate,
    "registrations": registrations,
}


def apply_op(game: Game, op: Op, controller: str, source: CardInstance | None,
             name: AbilityRef) -> bool:
    """Do one operation; whether it did what it said (None from an operation: it did)."""
    return OPERATIONS[op.name](game, op, controller, source, name) is not False
