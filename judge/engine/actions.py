"""Game actions a scenario step (or the random-game driver) can take. Each checks its legality
first and raises :class:`~judge.errors.IllegalAction` with a stable reason code before
changing anything, then settles the game.

Sources: Chinese wiki "WIXOSS/游戏规则" (turn flow, main phase, attack phase, 魔法切入) and
WIXOSS TCG Wiki "間違えやすいルール" (シグニ, 限定条件, レベル、リミット, グロウ, コスト,
アーツ・スペルの使用, 起動能力, メインフェイズ, アタックフェイズ).

Using an ARTS or a Spell follows 003's order: declare the use (the card goes to the check
zone), choose its modes, pay the cost, choose the targets on the field; for a Spell the
opponent may then use an ARTS with Spell Cut-In timing, which resolves first; then the card's
effect resolves as one effect and the card goes to the LRIG trash or the trash. The procedure
is :mod:`judge.engine.using`, which a use through an effect shares. An action ability
follows the same order (choose modes, pay, choose targets); one limited to once per turn is
refused the second time (``once-per-turn``). A SIGNI that an effect in force says cannot
attack is refused (``cannot-attack``).

:func:`dispatch` is the one way in for the scenario runner (a ruling's steps) and the random
driver (:mod:`judge.engine.driver`): an action's name and its fields, checked against
:data:`ACTIONS` and handed to the function of that action.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from judge.engine import battle, bursts, forced_attacks, modes, setup, turn, using
from judge.engine.cards import Op
from judge.engine.events import REASONS, AbilityRef
from judge.engine.mechanics import cheer, keys, resona, ride, rise
from judge.engine.ops import deal_damage, field_problem
from judge.engine.payment import pay, problem
from judge.engine.state import CHEER, SEED_ZONES, SIGNI_ZONES, CardInstance
from judge.errors import EngineError, IllegalAction

if TYPE_CHECKING:
    from judge.engine.game import Game

#: Step actions and what each does; the scenario format documents their fields.
ACTIONS: Final[dict[str, str]] = {
    "effect": "resolve one effect (a list of operations) for a player, then settle",
    "use": "use an ARTS from the LRIG deck or a Spell from the hand (cost, targets, cut-in)",
    "activate": "use a SIGNI's or LRIG's action ability, paying its cost",
    "advance": "move on to the next phase or attack step (or until the named one begins)",
    "ener": "in the ener phase, put one card from the hand or one own SIGNI into the ener zone",
    "grow": "grow the centre LRIG from the LRIG deck in the grow phase, paying its grow cost",
    "play": "put a SIGNI from the hand onto an empty SIGNI zone in the main phase",
    "remove": "put your SIGNI (one or several at once) into the trash in your main phase",
    "pass": "pass in the ARTS step of the attack phase",
    "attack": "attack with a SIGNI (SIGNI attack step) or the centre LRIG (LRIG attack step)",
    "start_game": "the rock-paper-scissors winner goes first; both shuffle and draw five",
    "redraw": "return cards from the opening hand, shuffle, and draw as many (once)",
    "crush": "crush life cloth as a game action (Life Bursts resolve at once)",
    "damage": "damage a player as a game action (an unblocked attack, say)",
    "summon": "put a Resona from the LRIG deck onto the field, meeting its summoning condition",
}

#: Every reason code an action can be refused with.
#: Why a game action is refused: each code, what it means in every case it covers, and the
#: actions that are refused with it. docs/game-flow.md#reason-codes is made from this table
#: (``python -m judge.docs_tables``; tests/test_docs_tables.py keeps it current) and a ruling's
#: ``expect_illegal`` names one of its codes.
ILLEGAL_REASONS: Final[dict[str, tuple[str, tuple[str, ...]]]] = {
    "game-over": ("the game already has a winner", ("every action",)),
    "not-main-phase": ("it is not the acting player's own main phase",
                       ("use (Spell, Key)", "activate", "play", "remove", "summon")),
    "not-in-hand": ("the card is not in its owner's hand (for ener: neither in the hand nor "
                    "one of the owner's SIGNI on the field; for redraw: not in that player's "
                    "hand)", ("use (Spell)", "play", "ener", "redraw")),
    "not-in-lrig-deck": ("the card is not in its owner's LRIG deck (for grow: not a LRIG "
                         "there; for summon: not a Resona there); a used ARTS is in the LRIG "
                         "trash, so using it again gets this code",
                         ("use (ARTS)", "grow", "summon")),
    "arts-timing": ("the ARTS's timing does not allow it now: main only in its owner's main "
                    "phase; attack only in the ARTS step by the player who may use ARTS now; "
                    "spell_cut_in only when offered after an opponent's Spell (never as a "
                    "step)", ("use",)),
    "not-usable": ("the card is neither an ARTS, a Spell nor a Key (use); the Resona has no "
                   "summoning condition (summon)", ("use", "summon")),
    "limiting": ("the card's limiting condition names another LRIG type than the centre "
                 "LRIG's (a Life Burst ignores this)", ("use",)),
    "cannot-pay": ("the cost cannot be paid exactly now (a Key: or its player has fewer coins "
                   "than it takes); nothing is paid",
                   ("use", "activate", "grow")),
    "no-such-ability": ("the card has no action ability with that number, or has lost its "
                        "abilities", ("activate",)),
    "not-on-field": ("the card is not where the action needs it: not one of the player's "
                     "SIGNI on the field (remove), neither a SIGNI on the field nor the centre "
                     "LRIG (attack), nor an assist LRIG or a Key on the field (activate)",
                     ("activate", "remove", "attack")),
    "cannot-play": ("the card is not a SIGNI, its level is above the LRIG's, the total level "
                    "would pass the limit, or its limiting condition does not match (play); "
                    "the Resona's level or the total level would (summon)",
                    ("play", "summon")),
    "no-empty-zone": ("all three SIGNI zones are taken", ("play", "summon")),
    "zone-taken": ("the SIGNI zone named by zone is not empty", ("play", "summon")),
    "not-grow-phase": ("it is not the owner's own grow phase", ("grow",)),
    "grow-done": ("the LRIG has already grown this turn", ("grow",)),
    "grow-level": ("the new LRIG is more than one level above the centre LRIG; under "
                   "grow = \"up_one_only\" (current) also: not exactly one level above it",
                   ("grow",)),
    "grow-type": ("the new LRIG has another LRIG type", ("grow",)),
    "grow-same-name": ("the new LRIG has the centre LRIG's name", ("grow",)),
    "grow-name": ("the new LRIG's grow condition names another LRIG", ("grow",)),
    "not-ener-phase": ("it is not the owner's own ener phase", ("ener",)),
    "ener-done": ("a card has already been put into the ener zone in this ener phase",
                  ("ener",)),
    "not-arts-step": ("the game is not in the ARTS step of the attack phase", ("pass",)),
    "not-your-priority": ("the other player may use ARTS now, not this one", ("pass",)),
    "not-attack-step": ("not the attack phase, the card is not the turn player's, a SIGNI "
                        "outside the SIGNI attack step, or the LRIG outside the LRIG attack "
                        "step", ("attack",)),
    "already-down": ("the attacker is down (it has attacked already, or an effect downed "
                     "it)", ("attack",)),
    "not-setup": ("the game has already started (for start_game: the opening hands are drawn "
                  "or turn 1 has begun; for redraw: turn 1 has begun, or that player has no "
                  "opening hand yet)", ("start_game", "redraw")),
    "redraw-twice": ("that player has already redrawn", ("redraw",)),
    "illegal-deck": ("a player's main deck or LRIG deck breaks the deck rules (the message "
                     "lists every problem)", ("start_game",)),
    "cannot-remove": ("a card to remove is a Resona on the field (Chinese rules page, 共鸣精灵: "
                      "its player cannot remove it) or a Seed (种子: not a SIGNI)",
                      ("remove",)),
    "remove-done": ("under remove = \"once_per_turn\" (current): the turn player has "
                    "removed SIGNI this turn already", ("remove",)),
    "summon-condition": ("the SIGNI named are not those a Resona's summoning condition asks "
                         "for (not the player's SIGNI on the field, another class, too few or "
                         "too many)", ("summon",)),
    "no-rise-material": ("no SIGNI zone of the player holds a SIGNI the Rise SIGNI rises on "
                         "(or not the zone named)", ("play",)),
    "cheer-target": ("a SIGNI in the cheer zone must name an opposing SIGNI zone that holds "
                     "a SIGNI: it attacks only a SIGNI", ("attack",)),
    "cannot-use": ("an effect in force says the player cannot use Spells (or ARTS)",
                   ("use",)),
    "once-per-turn": ("the action ability is limited to once per turn and this card has used "
                      "it this turn", ("activate",)),
    "cannot-attack": ("an effect in force says this SIGNI cannot attack", ("attack",)),
    "attack-limit": ("an effect in force says this SIGNI cannot attack more times this turn",
                     ("attack",)),
    "must-attack": ("an effect in force says a SIGNI of the turn player must attack, and it "
                    "still can: the SIGNI attack step cannot end yet", ("advance",)),
    "riding": ("the centre LRIG rides a SIGNI (Ride): it cannot attack until that SIGNI "
               "leaves the field", ("attack",)),
    "ability-timing": ("the action ability's own use timing does not allow it now: attack "
                       "only in the ARTS step of either player's attack phase, by the player "
                       "who may use ARTS now; main only in its player's own main phase",
                       ("activate",)),
}


def _playing(game: Game) -> None:
    """Every action is refused once the game has a winner."""
    if game.state.winner:
        raise IllegalAction("game-over", f"the game is over ({game.state.winner} won)")


def _own_main_phase(game: Game, player: str, what: str) -> None:
    if game.state.turn_player != player or game.state.phase != "main":
        raise IllegalAction("not-main-phase",
                            f"{what} only in its player's own main phase (now turn "
                            f"{game.state.turn} of {game.state.turn_player}, "
                            f"{game.state.phase} phase)")


# ------------------------------------------------------------------ phases


def advance(game: Game, to: str | None = None) -> None:
    _playing(game)
    if forced_attacks.leaves_signi_step(game, to):
        must = forced_attacks.obliged(game)
        if must:
            raise IllegalAction("must-attack", f"an effect in force says {', '.join(must)} "
                                "must attack, and it can")
    turn.advance(game, to)


def pass_arts(game: Game, player: str) -> None:
    _playing(game)
    state = game.state
    if state.phase != "attack" or state.attack_step != "arts":
        raise IllegalAction("not-arts-step", "passing is only for the ARTS step")
    if state.arts_priority != player:
        raise IllegalAction("not-your-priority",
                            f"{state.arts_priority} may use ARTS now, not {player}")
    turn.pass_arts(game, player)


def ener(game: Game, label: str) -> None:
    """The ener phase's action: one card from the hand or one own SIGNI to the ener zone."""
    _playing(game)
    inst = game.card(label)
    state = game.state
    if state.phase != "ener" or state.turn_player != inst.owner:
        raise IllegalAction("not-ener-phase", "only in its player's own ener phase")
    if state.ener_done:
        raise IllegalAction("ener-done", "one card per ener phase")
    if inst.zone.zone != "hand" and not game.on_field(inst):
        raise IllegalAction("not-in-hand", f"{label} is neither in the hand nor a SIGNI on "
                            "the field")
    state.ener_done = True
    game.move(inst, "ener", "game", "ener_phase")
    game.settle()


def grow(game: Game, label: str) -> None:
    """Grow: from the LRIG deck only; the same LRIG type; never to a LRIG of the same name
    (WIXOSS TCG Wiki, グロウ); once a turn, paying the new LRIG's grow cost. Which levels a
    grow may reach is the rule set's ``grow``: up exactly one level or to any level not above
    the current one (WIXOSS TCG Wiki, グロウ, 2014), or up exactly one level only (Chinese wiki
    "WIXOSS/游戏规则", 成长阶段)."""
    _playing(game)
    inst = game.card(label)
    player = inst.owner
    if inst.zone.zone != "lrig_deck" or inst.card.type != "lrig":
        raise IllegalAction("not-in-lrig-deck", f"{label} is not a LRIG in the LRIG deck")
    if game.state.turn_player != player or game.state.phase != "grow":
        raise IllegalAction("not-grow-phase", "grow only in its player's own grow phase")
    if game.state.grown:
        raise IllegalAction("grow-done", "a LRIG grows once a turn")
    centre = game.state.centre(player)
    if centre is not None:
        new_level, old_level = inst.card.level or 0, centre.card.level or 0
        if new_level > old_level + 1:
            raise IllegalAction("grow-level", f"{label} is level {new_level}: a grow goes up "
                                f"one level at a time from {old_level}")
        if inst.card.lrig_type != centre.card.lrig_type:
            raise IllegalAction("grow-type", f"{label} is not of LRIG type "
                                f"{centre.card.lrig_type}")
        if inst.card.name == centre.card.name:
            raise IllegalAction("grow-same-name", f"{label} has the centre LRIG's name")
        if inst.card.grow_from and inst.card.grow_from != centre.card.name:
            # a card-name condition is not a LRIG-type condition (WIXOSS TCG Wiki, グロウ)
            raise IllegalAction("grow-name", f"{label} grows only from a LRIG named "
                                f"{inst.card.grow_from!r}, not {centre.card.name!r}")
        if new_level != old_level + 1 and game.rules.grow == "up_one_only":
            raise IllegalAction("grow-level", f"{label} is level {new_level}: under "
                                f"{game.rules.id} a grow goes exactly one level up from "
                                f"{old_level}, never to the same or a lower level")
    pay(game, player, inst.card.cost, None, AbilityRef.of_card(label))
    game.state.grown = True
    game.move(inst, "lrig", "game", "grow")
    game.settle()


# ------------------------------------------------------------------ using cards and abilities


def use(game: Game, label: str) -> None:
    """Use an ARTS or a Spell (:func:`judge.engine.using.use`)."""
    _playing(game)
    inst = game.card(label)
    if inst.card.type == "key":  # a Key is summoned (judge.engine.mechanics.keys)
        keys.summon(game, inst)
        return
    using.use_problem(game, inst)
    using.use(game, inst)


def activate(game: Game, label: str, index: int) -> None:
    """An action ability: in its player's own main phase, as often as its cost can be paid
    (WIXOSS TCG Wiki, 起動能力), or once a turn when it says so (Chinese wiki, 效果文的格式:
    回合1); not once its card has lost its abilities. Its modes are chosen, its cost paid and
    its targets on the field chosen in that order (003, コスト)."""
    _playing(game)
    inst = game.card(label)
    abilities = [a for a in inst.card.abilities if a.kind == "action"]
    if index >= len(abilities):
        raise IllegalAction("no-such-ability", f"{label} has no action ability {index}")
    if inst.zone.zone not in SIGNI_ZONES and inst.zone.zone != "key" and \
            game.state.centre(inst.owner) is not inst and not _assist(game, inst):
        raise IllegalAction("not-on-field", f"{label} is neither a SIGNI on the field, the "
                            "centre LRIG, an assist LRIG nor a Key on the field")
    ability = abilities[index]
    if ability.timing == ("main",):
        _own_main_phase(game, inst.owner, "an action ability is used")
    else:
        _ability_timing(game, inst, ability.timing)
    if not game.abilities(inst):
        raise IllegalAction("no-such-ability", f"{label} has lost its abilities")
    once = (label, inst.epoch, ability.index)
    if ability.once_per_turn and once in game.state.used_once:
        raise IllegalAction("once-per-turn", f"{label}'s ability {index} is used once a turn "
                            "and was used this turn")
    name = AbilityRef.printed(label, ability.index)
    why = problem(game, inst.owner, ability.cost, inst)
    if why:
        raise IllegalAction("cannot-pay", f"{name}: {why}")
    if ability.once_per_turn:
        game.state.used_once.add(once)
    ops = modes.ability_ops(game, inst.owner, ability, name)
    paid = pay(game, inst.owner, ability.cost, inst, name)
    preset = using.choose_targets(game, ops, inst.owner, inst)
    game.resolve_effect(ops, inst.owner, inst, name, preset=preset, paid=paid)
    game.settle()


def _assist(game: Game, inst: CardInstance) -> bool:
    """Whether ``inst`` is an assist LRIG (the top card of an assist LRIG zone, Diva
    Selection), whose action abilities its player uses as the centre LRIG's (Chinese wiki,
    分身: an assist LRIG works much like an ARTS that stays on the field; **interpretation**:
    its action abilities are used from there)."""
    zone = inst.zone.zone
    return zone in ("assist1", "assist2") and game.state.zone(inst.owner, zone)[-1] is inst


def _ability_timing(game: Game, inst: CardInstance, timing: tuple[str, ...]) -> None:
    """An action ability with a use timing of its own (Chinese wiki, 效果文的格式: 起（攻击阶段）
    is used only in the ARTS step of either player's attack phase): ``main``, its player's own
    main phase; ``attack``, the ARTS step, by the player who may use ARTS now."""
    state, player = game.state, inst.owner
    if "main" in timing and state.phase == "main" and state.turn_player == player:
        return
    if "attack" in timing and state.phase == "attack" and state.attack_step == "arts" \
            and state.arts_priority == player:
        return
    where = state.phase + (f" ({state.attack_step} step)" if state.attack_step else "")
    raise IllegalAction("ability-timing", f"{inst.label}'s action ability (timing "
                        f"{', '.join(timing)}) cannot be used now: {where}")


# ------------------------------------------------------------------ the field


def play(game: Game, label: str, zone: str | None) -> None:
    """Put a SIGNI from the hand onto the field: own main phase, an empty zone, level not
    above the LRIG's, total level within the limit, limiting condition met."""
    _playing(game)
    inst = game.card(label)
    player = inst.owner
    if inst.zone.zone != "hand":
        raise IllegalAction("not-in-hand", f"{label} is not in {player}'s hand")
    _own_main_phase(game, player, "a SIGNI is played")
    if inst.card.rise:
        _play_rise(game, inst, zone)
        return
    why = field_problem(game, inst, player, zone or "")
    if why:
        raise IllegalAction("cannot-play", f"{label}: {REASONS[why]}")
    empty = [z for z in SIGNI_ZONES if not game.state.zone(player, z)]
    if zone == CHEER:  # the cheer zone holds one SIGNI (judge.engine.mechanics.cheer)
        empty = [] if game.state.zone(player, CHEER) else [CHEER]
    if not empty:
        raise IllegalAction("no-empty-zone", "every SIGNI zone is taken")
    if zone is None:
        zone = empty[0]
    elif zone not in empty:
        raise IllegalAction("zone-taken", f"{player}.{zone} is not an empty SIGNI zone")
    game.move(inst, zone, "game", "play")
    game.settle()


def _play_rise(game: Game, inst: CardInstance, zone: str | None) -> None:
    """Play a SIGNI with Rise: onto a SIGNI zone holding one of its materials
    (judge.engine.mechanics.rise)."""
    player = inst.owner
    zones = rise.material_zones(game, inst, player)
    if not zones:
        raise IllegalAction("no-rise-material", f"{inst.label} rises only on "
                            f"{', '.join(inst.card.rise)}, which {player} does not have on "
                            "the field")
    if zone is None:
        zone = zones[0]
    elif zone not in zones:
        raise IllegalAction("no-rise-material", f"{player}.{zone} holds no SIGNI "
                            f"{inst.label} rises on")
    why = field_problem(game, inst, player, zone,
                        leaving=tuple(rise.materials(game, inst, player) or ()))
    if why:
        raise IllegalAction("cannot-play", f"{inst.label}: {REASONS[why]}")
    rise.enter(game, inst, zone, "game", "play", None)
    game.settle()


def remove(game: Game, labels: tuple[str, ...]) -> None:
    """Removing: in their own main phase a player puts their own SIGNI from the field into the
    trash, any number at once. How often is the rule set's ``remove``: at any time (WIXOSS TCG
    Wiki, シグニの運用, 2014) or once a turn (Chinese wiki "WIXOSS/游戏规则", 主要阶段). A
    Resona cannot be removed (Chinese wiki, 共鸣精灵), nor anything that is not a SIGNI on the
    field (a Seed: Chinese wiki, 种子)."""
    _playing(game)
    cards = [game.card(label) for label in labels]
    player = cards[0].owner
    for inst in cards:
        if inst.card.type == "resona" and game.on_field(inst):
            raise IllegalAction("cannot-remove", f"{inst.label} is a Resona: its player "
                                "cannot remove it")
        if inst.zone.zone in SEED_ZONES.values():
            raise IllegalAction("cannot-remove", f"{inst.label} is a Seed: it is not a SIGNI "
                                "and cannot be removed")
        if not game.on_field(inst) or inst.card.type != "signi":
            raise IllegalAction("not-on-field", f"{inst.label} is not a SIGNI on the field")
        if inst.owner != player:
            raise IllegalAction("not-on-field", f"{inst.label} is not a SIGNI of {player}")
    _own_main_phase(game, player, "a SIGNI is removed")
    state = game.state
    if game.rules.remove == "once_per_turn" and state.removed_turn == state.turn:
        raise IllegalAction("remove-done", f"under {game.rules.id} a player removes once a "
                            "turn (any number of SIGNI at that one time)")
    state.removed_turn = state.turn
    for inst in cards:
        game.move(inst, "trash", "game", "remove")
    game.settle()


def attack(game: Game, label: str, zone: str | None = None) -> None:
    """Attack with an up SIGNI in the SIGNI attack step, or the up centre LRIG in the LRIG
    attack step (the SIGNI attack step comes first). A SIGNI in the cheer zone attacks the
    SIGNI of the opponent's SIGNI zone ``zone`` (judge.engine.mechanics.cheer)."""
    _playing(game)
    inst = game.card(label)
    state = game.state
    if state.phase != "attack" or inst.owner != state.turn_player:
        raise IllegalAction("not-attack-step", "only the turn player attacks, in the attack "
                            "phase")
    if game.on_field(inst):
        if state.attack_step != "signi":
            raise IllegalAction("not-attack-step", f"SIGNI attack in the SIGNI attack step "
                                f"(now: {state.attack_step} step)")
        if inst.down:
            raise IllegalAction("already-down", f"{label} is down")
        if game.cannot(inst, "attack"):
            raise IllegalAction("cannot-attack", f"an effect in force says {label} cannot "
                                "attack")
        most = battle.attacks_left(game, inst)
        if most is not None and most <= 0:
            raise IllegalAction("attack-limit", f"an effect in force says {label} cannot "
                                "attack more times this turn")
        if inst.zone.zone == CHEER:
            why = cheer.attack_problem(game, inst, zone)
            if why:
                raise IllegalAction("cheer-target", f"{label}: {why}")
            cheer.attack(game, inst, zone or "")
            return
        battle.signi_attack(game, inst)
        return
    if state.centre(inst.owner) is inst:
        if state.attack_step != "lrig":
            raise IllegalAction("not-attack-step", f"the LRIG attacks in the LRIG attack "
                                f"step (now: {state.attack_step} step)")
        if inst.down:
            raise IllegalAction("already-down", f"{label} is down")
        ridden = ride.riding(game, inst.owner)
        if ridden:
            raise IllegalAction("riding", f"{label} rides {ridden}: a riding LRIG cannot "
                                "attack")
        battle.lrig_attack(game, inst)
        return
    raise IllegalAction("not-on-field", f"{label} is neither a SIGNI on the field nor the "
                        "centre LRIG")


def summon(game: Game, label: str, cards: tuple[str, ...], zone: str | None) -> None:
    """Summon a Resona from the LRIG deck (judge.engine.mechanics.resona)."""
    _playing(game)
    resona.summon(game, label, cards, zone)


# ------------------------------------------------------------------ set-up and game actions


def start_game(game: Game, first: str) -> None:
    _playing(game)
    setup.start_game(game, first)


def redraw(game: Game, player: str, labels: tuple[str, ...]) -> None:
    _playing(game)
    setup.redraw(game, player, labels)


def crush(game: Game, player: str, count: int) -> None:
    _playing(game)
    for _ in range(count):
        if not bursts.crush(game, player, "game", None):
            break
    game.settle()


def damage(game: Game, player: str) -> None:
    _playing(game)
    deal_damage(game, player, "game", None)
    game.settle()


def effect(game: Game, player: str, ops: tuple[Op, ...], source: str | None) -> None:
    _playing(game)
    inst = game.card(source) if source else None
    game.resolve_effect(ops, player, inst, AbilityRef.of_card(source) if source
                        else AbilityRef.of_player(player))
    game.settle()


# ------------------------------------------------------------------ one dispatch


@dataclass(slots=True)
class Args:
    """The fields an action may take, as a ruling's step or the random driver gives them."""

    player: str = "p1"
    card: str | None = None
    zone: str | None = None
    to: str | None = None
    count: int = 1
    ability: int = 0
    ops: tuple[Op, ...] = ()
    source: str | None = None
    first: str | None = None
    cards: tuple[str, ...] = ()

    def label(self, action: str) -> str:
        """The card the action names (the loader makes sure there is one)."""
        if self.card is None:
            raise EngineError(f"the {action} action names no card")
        return self.card


#: Action name -> what carries it out; the keys are those of :data:`ACTIONS`.
HANDLERS: Final[dict[str, Callable[[Game, Args], None]]] = {
    "effect": lambda g, a: effect(g, a.player, a.ops, a.source),
    "use": lambda g, a: use(g, a.label("use")),
    "activate": lambda g, a: activate(g, a.label("activate"), a.ability),
    "advance": lambda g, a: advance(g, a.to),
    "ener": lambda g, a: ener(g, a.label("ener")),
    "grow": lambda g, a: grow(g, a.label("grow")),
    "play": lambda g, a: play(g, a.label("play"), a.zone),
    "remove": lambda g, a: remove(g, (a.card, *a.cards) if a.card else a.cards),
    "pass": lambda g, a: pass_arts(g, a.player),
    "attack": lambda g, a: attack(g, a.label("attack"), a.zone),
    "summon": lambda g, a: summon(g, a.label("summon"), a.cards, a.zone),
    "start_game": lambda g, a: start_game(g, a.first or "p1"),
    "redraw": lambda g, a: redraw(g, a.player, a.cards),
    "crush": lambda g, a: crush(g, a.player, a.count),
    "damage": lambda g, a: damage(g, a.player),
}


def dispatch(game: Game, action: str, *, player: str = "p1", card: str | None = None,
             zone: str | None = None, to: str | None = None, count: int = 1,
             ability: int = 0, ops: tuple[Op, ...] = (), source: str | None = None,
             first: str | None = None, cards: tuple[str, ...] = ()) -> None:
    """Carry out the game action ``action`` with its fields (those of a scenario step:
    :class:`judge.scenario.model.Step`); raises IllegalAction, having changed nothing, when
    it is not allowed now. ``start_game`` takes the player who goes first as ``first``."""
    run(game, action, Args(player, card, zone, to, count, ability, ops, source, first, cards))


def run(game: Game, action: str, args: Args) -> None:
    """:func:`dispatch` with the fields already made into :class:`Args` (the random driver
    makes them positionally: a keyword call is dearer, many times a game)."""
    handler = HANDLERS.get(action)
    if handler is None:
        raise EngineError(f"unknown action {action}")
    handler(game, args)
