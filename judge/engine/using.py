"""Using an ARTS or a Spell: one procedure for a use as a game action and a use through an
effect.

The order (WIXOSS TCG Wiki "間違えやすいルール", 2014, コスト): declare the use (the card goes to
the check zone), choose its modes, pay its cost, choose its targets on the field (they may be
cards just paid as the cost); for a Spell, its user's opponent may then use an ARTS with Spell
Cut-In timing, which resolves first (スペルカットイン; Chinese wiki "WIXOSS/游戏规则", 魔法切入);
then the card's effect resolves as one effect and the card goes to the LRIG trash (an ARTS) or
the trash (a Spell).

**A use through an effect** (the ``use`` operation: "use a Spell from your hand" in an
ability's text) is a use like any other (003, アーツ・スペルの使用): only what the effect says
differs ("without paying its cost": ``free``, the card's own cost is not paid; "ignoring its
limiting condition": ``ignore_limiting``). So cost changes in force apply to its cost, even to
a use without paying its cost (003's example: under an effect that makes the opponent's Spells
cost colourless 3 more, a Spell used that way costs colourless 3), "can't use" effects stop it,
abilities that watch a use trigger (``uses_spell``, ``uses_arts``), and the opponent is asked
about Spell Cut-In. Its timing is the effect's: it is used now, whatever the phase. Rule
processing waits until the effect that used it is over (it is part of that effect's
resolution). Not uses, by the same section: using a Life Burst, an ARTS's action ability, a
constant ability's activation; nothing here is called for those.

**Interpretation**: abilities that trigger on a use wait until the whole use is over (its
effect resolved); the sources do not say when they resolve.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine import triggers
from judge.engine.cards import Op
from judge.engine.costs import Cost
from judge.engine.events import AbilityRef
from judge.engine.mechanics import bet, recollect, token_arts
from judge.engine.modes import card_ops
from judge.engine.payment import effective_cost, pay, problem
from judge.engine.placement import destinations
from judge.engine.state import SIGNI_ZONES, CardInstance, other
from judge.engine.targets import resolve_targets
from judge.errors import IllegalAction

if TYPE_CHECKING:
    from judge.engine.game import Game

#: Zones whose cards are targets chosen when a card is used (not when it resolves).
TARGET_ZONES: Final = ("signi", "field", *SIGNI_ZONES)


def choose_targets(game: Game, ops: tuple[Op, ...], controller: str,
                   source: CardInstance | None) -> dict[int, list[tuple[CardInstance, int]]]:
    """Targets on the field, chosen when the card or ability is used (003: after paying the
    cost, so a card paid as the cost may be one)."""
    out: dict[int, list[tuple[CardInstance, int]]] = {}
    for i, op in enumerate(ops):
        target = op.target
        if target and not target.this and not target.trigger and not target.labels and \
                not target.all and \
                target.zone in TARGET_ZONES and op.name != "use":
            out[i] = [(c, c.epoch) for c in resolve_targets(game, target, controller, source,
                                                            destinations(op))]
    return out


def use_problem(game: Game, inst: CardInstance, cut_in: bool = False) -> None:
    """Why ``inst`` cannot be used now as a game action (IllegalAction), or nothing."""
    player, kind, state = inst.owner, inst.card.type, game.state
    if kind == "spell":
        if inst.zone.zone != "hand":
            raise IllegalAction("not-in-hand", f"{inst.label} is not in {player}'s hand")
        if state.turn_player != player or state.phase != "main":
            raise IllegalAction("not-main-phase",
                                f"a Spell is used only in its player's own main phase (now "
                                f"turn {state.turn} of {state.turn_player}, {state.phase} "
                                "phase)")
    elif kind == "arts":
        if inst.zone.zone != "lrig_deck":
            raise IllegalAction("not-in-lrig-deck",
                                f"{inst.label} is not in {player}'s LRIG deck")
        timing = inst.card.timing
        ok = (cut_in and "spell_cut_in" in timing) or (
            not cut_in and state.phase == "main" and state.turn_player == player
            and "main" in timing) or (
            not cut_in and state.phase == "attack" and state.attack_step == "arts"
            and state.arts_priority == player and "attack" in timing)
        if not ok:
            where = state.phase + (f" ({state.attack_step} step)" if state.attack_step else "")
            raise IllegalAction("arts-timing", f"{inst.label} (timing "
                                f"{', '.join(timing)}) cannot be used now: {where}")
    else:
        raise IllegalAction("not-usable", f"{inst.label} is a {kind}, not an ARTS or a Spell")
    if game.player_cannot(player, "use_spells" if kind == "spell" else "use_arts"):
        raise IllegalAction("cannot-use", f"an effect in force says {player} cannot use "
                            f"{'Spells' if kind == 'spell' else 'ARTS'}")
    if inst.card.limiting and inst.card.limiting != game.lrig_type(player):
        raise IllegalAction("limiting", f"{inst.label} is limited to {inst.card.limiting}, "
                            f"the centre LRIG is {game.lrig_type(player)}")
    why = problem(game, player, effective_cost(game, player, inst.card.cost), None)
    if why:
        raise IllegalAction("cannot-pay", f"{inst.label}: {why}")


def _extras(game: Game, inst: CardInstance, ops: tuple[Op, ...]) -> tuple[tuple[Op, ...], bool]:
    """An ARTS's extra payments, decided as it is used, after its cost: BET coins (its BET
    effect instead, :mod:`judge.engine.mechanics.bet`) and a recollect cost
    (:mod:`judge.engine.mechanics.recollect`). The operations to resolve and whether the card
    is recollected."""
    card = inst.card
    if card.bet and bet.offer(game, inst):
        ops = card.bet_effect
        triggers.others(game, "coins_paid", inst)  # "when you pay coins" (issue 30)
    return ops, card.recollect is not None and recollect.offer(game, inst)


def _finish(game: Game, inst: CardInstance, recollected: bool) -> None:
    """After its effect, a used card leaves the check zone: to the LRIG deck when
    recollected, out of the game for a token ARTS, else to the LRIG trash or the trash."""
    if inst.zone.zone != "check":
        return
    if recollected:
        game.move(inst, "lrig_deck", "game", "recollect")
    elif inst.token:
        token_arts.vanish(game, inst)
    else:
        game.move(inst, game.home_trash(inst.card), "game", "used")


def use(game: Game, inst: CardInstance, *, cut_in: bool = False) -> None:
    """Use ``inst`` as a game action (its checks already made): see the module docstring.
    A use with Spell Cut-In is part of the Spell's use and does not settle."""
    player = inst.owner
    game.move(inst, "check", "game", "use")
    _declared(game, inst, player)
    name = AbilityRef.of_card(inst.label)  # the effect of an ARTS or Spell: the card's own
    ops = card_ops(game, player, inst.card, name)
    paid = pay(game, player, effective_cost(game, player, inst.card.cost), None, name)
    ops, recollected = _extras(game, inst, ops)
    preset = choose_targets(game, ops, player, inst)
    if inst.card.type == "spell":
        turn = game.state.turn
        cut_in_window(game, other(player))
        if game.state.turn != turn:
            # the cut-in ARTS led to the turn player's second refresh and the turn ended:
            # the rest of the use does not happen (interpretation, docs/game-flow.md)
            if inst.zone.zone == "check":
                game.move(inst, game.home_trash(inst.card), "game", "used")
            game.settle()
            return
    game.resolve_effect(ops, player, inst, name, preset=preset, paid=paid)
    _finish(game, inst, recollected)
    if not cut_in:
        game.settle()


def use_through(game: Game, inst: CardInstance, controller: str, via: AbilityRef, *,
                free: bool = False, ignore_limiting: bool = False) -> bool:
    """Use ``inst`` through the effect ``via`` of ``controller`` (the ``use`` operation):
    the card's own player uses it (its cost, its modes), as a game action would, but now and
    with the effect's exceptions. Whether it was used (a card that cannot be is left where it
    is: ``fizzle``)."""
    player = inst.owner
    card = inst.card
    reason = None
    if card.type not in ("arts", "spell"):
        reason = "not-usable"
    elif game.player_cannot(player, "use_spells" if card.type == "spell" else "use_arts"):
        reason = "cannot-use"
    elif card.limiting and card.limiting != game.lrig_type(player) and not ignore_limiting:
        reason = "limiting-mismatch"
    cost = effective_cost(game, player, Cost() if free else card.cost)
    if reason is None and problem(game, player, cost, None):
        reason = "cannot-pay"
    if reason is not None:
        game.emit(ev.Fizzle, cause="effect", player=player, card=inst.label, source=via,
                  reason=reason)
        return False
    game.move(inst, "check", "effect", "use", source=via)
    _declared(game, inst, player)
    name = AbilityRef.of_card(inst.label)
    ops = card_ops(game, player, card, name)
    paid = pay(game, player, cost, None, name)
    ops, recollected = _extras(game, inst, ops)
    preset = choose_targets(game, ops, player, inst)
    if card.type == "spell":
        cut_in_window(game, other(player))
    game.resolve_effect(ops, player, inst, name, preset=preset, paid=paid)
    _finish(game, inst, recollected)
    return True


def _declared(game: Game, inst: CardInstance, player: str) -> None:
    """A use is declared: abilities that watch uses of this card type trigger (each SIGNI on
    the field and centre LRIG with such an ability; ``by`` tells whose use it watches)."""
    trigger = "uses_spell" if inst.card.type == "spell" else "uses_arts"
    state = game.state
    for p in (state.turn_player, other(state.turn_player)):
        watchers = [*state.zone(p, "lrig")[-1:], *state.signi(p)]
        for card in watchers:
            if trigger in card.card.triggers:
                triggers.queue(game, card, (trigger,), by="own" if p == player else "opponent")


def cut_in_window(game: Game, player: str) -> None:
    """After a Spell's cost and targets, its user's opponent may use a Spell Cut-In ARTS."""
    candidates = []
    for inst in game.state.zone(player, "lrig_deck"):
        if inst.card.type != "arts" or "spell_cut_in" not in inst.card.timing:
            continue
        try:
            use_problem(game, inst, cut_in=True)
        except IllegalAction:
            continue
        candidates.append(inst.label)
    if not candidates:
        return
    picked = game.choose(player, "cut_in", [*candidates, "none"],
                         prompt="use an ARTS with Spell Cut-In?")[0]
    if picked != "none":
        use(game, game.card(picked), cut_in=True)
        if not game.effect_depth:
            game.settle()
