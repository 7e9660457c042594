"""Triggered abilities: what triggers them, how they wait, and the order they resolve in.

- Every move is looked at (:func:`observe_move`, called by
  :meth:`judge.engine.game.Game.move`): the moved card's abilities whose trigger matches are
  queued (``put_into_trash``, ``put_into_trash_from_deck``, ``banished``,
  ``banished_by_effect``, ``leaves_field``, ``leaves_field_by_effect``, ``on_play``,
  ``crushed``). A refresh queues the ``owner_refreshes`` abilities of its player's SIGNI
  (:func:`notify_refresh`); declaring an attack queues the attacker's ``attacks`` abilities,
  the start of the attack phase the ``attack_phase_start`` ones, and a banish in battle the
  attacker's ``banishes_in_battle`` ones (:func:`queue`, from :mod:`judge.engine.battle` and
  :mod:`judge.engine.turn`). Keyword abilities (Lancer, ...; :mod:`judge.engine.mechanics`)
  are queued as the card's own, printed or given by an effect.
- Each queued ability is logged as ``trigger`` and waits: nothing resolves inside an effect.
- Once rule processing and Life Bursts have settled, one waiting ability resolves per round
  (:func:`next_trigger`): the turn player's first, then the non-turn player's; a player with
  several chooses which resolves next (choice ``trigger_order``) each time. An optional one
  asks ``use``; one with a cost is optional and its cost is paid when it resolves; one that
  cannot be paid then is ``trigger_declined``. Each resolves as one effect, controlled by the
  card's owner.
- A waiting ability that works from the trash, hand or ener zone is lost (``trigger_lost``)
  when its card is no longer there as the same object.
- When the turn ends early or the game is over, waiting abilities are removed unresolved
  (:func:`drop`, ``trigger_dropped``).
- A card that has lost its abilities (:mod:`judge.engine.continuous`) triggers nothing; one
  that leaves the field having lost them does not trigger on leaving either. A triggered
  ability limited to once per turn (回合1) triggers at most once a turn for its card. An
  ability whose trigger watches an effect or a use (``*_by_effect``, ``uses_*``) may watch
  only its own player's (``by = "own"``) or only the opponent's (``by = "opponent"``). The
  modes of a triggered ability are chosen when it begins to resolve, before its cost.

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), effect types (the turn player's first, each
player ordering their own); WIXOSS TCG Wiki "間違えやすいルール" (2014), the refresh example (a
lost ability) and 出現時能力 (an ability with a cost may be left unused); WIXOSS glossary
"ルール処理" (quoted by wixoss.81.la, 2020-11-30): moves by rule processing are not effects.
**Interpretation**: abilities that do not work from the trash, hand or ener zone resolve even if
their card has moved.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine import mechanics
from judge.engine.cards import BY_TRIGGERS, OTHERS_TRIGGERS, Ability
from judge.engine.events import AbilityRef
from judge.engine.modes import ability_ops
from judge.engine.payment import pay, problem
from judge.engine.state import ON_FIELD, CardInstance, other

if TYPE_CHECKING:
    from judge.engine.game import Game


@dataclass
class Pending:
    """A triggered ability waiting to resolve."""

    ability: Ability
    card: CardInstance
    epoch: int
    controller: str
    trigger_seq: int
    #: the card whose event triggered it, when another than ``card`` (None: ``card``
    #: itself); what a filter's ``trigger`` bound reads while it resolves
    subject: CardInstance | None = None
    #: ``S1#0`` (its first printed ability), ``S1#lancer`` (a keyword ability)
    name: AbilityRef = field(init=False)

    def __post_init__(self) -> None:
        self.name = AbilityRef(self.card.label, self.ability.keyword or self.ability.index)


def moved(old: str, new: str, by_effect: bool, banish: bool, crushed: bool
          ) -> tuple[str, ...]:
    """The triggers a move from zone ``old`` to zone ``new`` fires (``crushed``: a crushed
    card put into the check zone), looked up in :data:`FIRED` (most moves fire none:
    :meth:`Game.move <judge.engine.game.Game.move>` then calls nothing more)."""
    key = (old, new, by_effect, banish, crushed)
    fired = FIRED.get(key)
    if fired is None:
        fired = FIRED[key] = _fired(old, new, by_effect, banish, crushed)
    return fired


def observe_move(game: Game, inst: CardInstance, fired: tuple[str, ...], cause: str,
                 lost: bool = False) -> None:
    """Queue what one move of ``inst`` triggers (``fired``: :func:`moved`); ``lost``: the
    card had lost its abilities on the field it left."""
    if inst.card.triggers.isdisjoint(fired) and mechanics.keyword_triggers().isdisjoint(fired):
        return  # nothing of this card waits for these (what queue would find first)
    controller = game.effect_controller if cause == "effect" else None
    by = None if controller is None else "own" if controller == inst.owner else "opponent"
    queue(game, inst, fired, by=by, lost=lost)


#: What a move out of the life cloth that is no crush fires (only others watch it).
LEAVES_LIFE: Final = "~leaves_life"
#: What a card's own move fires -> the trigger of the abilities of the cards on the field that
#: watch it, and whether only a SIGNI's move counts (:func:`observe_others`).
OTHERS: Final = (("on_play", "signi_enters", True), ("banished", "signi_banished", True),
                 ("crushed", "life_crushed", False),
                 # a card leaving the life cloth other than by a crush (issue 30): a mark of
                 # the move only, no card's own trigger
                 (LEAVES_LIFE, "life_cloth_moved", False))


def observe_others(game: Game, inst: CardInstance, fired: tuple[str, ...]) -> None:
    """Queue the abilities that watch what the move of ``inst`` did: a SIGNI entering the
    field (``signi_enters``) or banished (``signi_banished``), a life cloth crushed
    (``life_crushed``) or moved out of the life cloth otherwise (``life_cloth_moved``)."""
    for own, watched, signi_only in OTHERS:
        if own in fired and (inst.card.is_signi_like or not signi_only):
            others(game, watched, inst)


def others(game: Game, watched: str, subject: CardInstance) -> None:
    """Queue the abilities with the trigger ``watched`` of the cards on the field (SIGNI and
    centre LRIGs, the turn player's first) other than ``subject``, the card whose event it
    is (``whose``: ``own`` when it is the watching card's player's). The card itself is not
    "another"; a card that left the field with it in the same move no longer watches."""
    state = game.state
    for p in (state.turn_player, other(state.turn_player)):
        for card in (*state.zone(p, "lrig")[-1:], *state.signi(p)):
            if card is not subject and watched in card.card.triggers:
                queue(game, card, (watched,), subject=subject,
                      whose="own" if subject.owner == card.owner else "opponent")


def _fired(old: str, new: str, by_effect: bool, banish: bool, crushed: bool
           ) -> tuple[str, ...]:
    """The triggers a move from zone ``old`` to zone ``new`` fires."""
    fired: list[str] = []
    if new == "trash":
        fired.append("put_into_trash")
        if old == "deck":
            fired.append("put_into_trash_from_deck")
    if old in ON_FIELD and new not in ON_FIELD:
        fired.append("leaves_field")
        if by_effect:
            fired.append("leaves_field_by_effect")
        if banish:
            fired.append("banished")
            if by_effect:
                fired.append("banished_by_effect")
    if new in ON_FIELD and old not in ON_FIELD:
        fired.append("on_play")
    if crushed:
        fired.append("crushed")
    elif old == "life":
        fired.append(LEAVES_LIFE)
    return tuple(fired)


#: (from zone, to zone, by an effect, a banish, a crushed card into the check zone) -> the
#: triggers that move fires (:func:`_fired`; filled by :func:`moved` as moves happen: a
#: fixed function of the key, so nothing invalidates it)
FIRED: Final[dict[tuple[str, str, bool, bool, bool], tuple[str, ...]]] = {}


def queue(game: Game, inst: CardInstance, fired: tuple[str, ...],
          by: str | None = None,
          lost: bool | None = None, subject: CardInstance | None = None,
          whose: str = "any") -> None:
    """Queue the abilities of ``inst`` whose trigger is in ``fired``: printed ones first, then
    keyword abilities of its keywords (printed or given), in keyword order. ``by``: whose
    effect or use fired it (``own`` or ``opponent``, from the card's player's side);
    ``lost``: whether the card has lost its abilities (asked of the game when None);
    ``subject``, ``whose``: the other card whose event it is, and whose card that is (``own``
    or ``opponent``, from the card's player's side)."""
    abilities = inst.card.abilities
    keyworded = not mechanics.keyword_triggers().isdisjoint(fired)
    if not keyworded and inst.card.triggers.isdisjoint(fired):
        return
    if lost is None:
        lost = game.lost(inst)
    if lost:
        abilities = ()
    if keyworded:
        keyword_abilities = mechanics.keyword_abilities()
        words = game.keywords(inst) if not lost or game.on_field(inst) else set()
        abilities = (*abilities, *(keyword_abilities[k] for k in sorted(words)
                                   if k in keyword_abilities))
    for ability in abilities:
        if ability.trigger not in fired:
            continue
        if ability.by != "any" and ability.trigger in BY_TRIGGERS and ability.by != by:
            continue
        if ability.whose != "any" and ability.trigger in OTHERS_TRIGGERS and \
                ability.whose != whose:
            continue
        if ability.once_per_turn:
            once = (inst.label, inst.epoch, ability.index)
            if once in game.state.used_once:
                continue
            game.state.used_once.add(once)
        pending = Pending(ability, inst, inst.epoch, inst.owner, len(game.log) - 1, subject)
        game.pending.append(pending)
        game.emit(ev.Trigger, cause="game", player=inst.owner, card=inst.label,
                  ability=pending.name, trigger=ability.trigger)


def notify_refresh(game: Game, player: str) -> None:
    for inst in game.state.signi(player):
        queue(game, inst, ("owner_refreshes",))


def next_trigger(game: Game) -> bool:
    """Resolve one waiting triggered ability: the turn player's first, each player choosing
    the order of their own. Returns whether one was taken (resolved, declined or lost)."""
    if not game.pending:
        return False
    tp = game.state.turn_player
    mine = [p for p in game.pending if p.controller == tp] or \
        [p for p in game.pending if p.controller == other(tp)]
    chosen = mine[0]
    if len(mine) > 1:
        names = [p.name for p in mine]
        picked = game.choose(mine[0].controller, "trigger_order", names,
                             prompt="which triggered ability resolves next")
        chosen = mine[names.index(picked[0])]
    game.pending.remove(chosen)
    inst, ability = chosen.card, chosen.ability
    if ability.zone in ("trash", "hand", "ener") and (
            inst.zone.zone != ability.zone or inst.epoch != chosen.epoch):
        game.emit(ev.TriggerLost, cause="game", player=chosen.controller, card=inst.label,
                  ability=chosen.name, reason=f"left-{ability.zone}")
        return True
    # a cost that cannot be paid leaves nothing to decide: the ability is not used
    unpayable = not ability.cost.free and \
        problem(game, chosen.controller, ability.cost, inst) is not None
    if unpayable or (ability.optional and not game.yes_no(
            chosen.controller, "use", f"use {chosen.name}?", about=chosen.name)):
        game.emit(ev.TriggerDeclined, cause="game", player=chosen.controller, card=inst.label,
                  ability=chosen.name)
        return True
    ops = ability_ops(game, chosen.controller, ability, chosen.name)
    paid = 0
    if not ability.cost.free:
        paid = pay(game, chosen.controller, ability.cost, inst, chosen.name)
    game.resolve_effect(ops, chosen.controller, inst, chosen.name, paid=paid,
                        subject=chosen.subject or inst)
    return True


def drop(game: Game, reason: str) -> None:
    """Remove every waiting triggered ability unresolved, logging each."""
    for pending in game.pending:
        game.emit(ev.TriggerDropped, cause="game", player=pending.controller,
                  card=pending.card.label, ability=pending.name,
                  reason=reason)
    game.pending.clear()
