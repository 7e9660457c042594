"""Game actions a scenario step can take: phases, using cards and abilities, playing SIGNI,
growing, removing SIGNI, crushing and damage. Each checks its legality first and raises
:class:`~judge.errors.IllegalAction` with a stable reason code, then settles the game.

Sources: Chinese wiki "WIXOSS/游戏规则" (turn flow) and WIXOSS TCG Wiki "間違えやすいルール"
(main phase, grow, level and limit); the 2014-06-20 refresh revision for the draw phase.
"""

from __future__ import annotations

from judge.engine.cards import Op
from judge.engine.game import Game
from judge.engine.ops import deal_damage, field_problem
from judge.engine.state import LRIG_STACK_ZONES, PHASES, SIGNI_ZONES
from judge.errors import EngineError, IllegalAction

#: Step actions and what each does; the scenario format documents their fields.
ACTIONS: dict[str, str] = {
    "effect": "resolve one effect (a list of operations) for a player, then settle",
    "use": "use an ARTS from the LRIG deck or a Spell from the hand",
    "activate": "use a SIGNI's or LRIG's action ability",
    "advance": "end the current phase and begin the next (or the named) phase",
    "play": "put a SIGNI from the hand onto an empty SIGNI zone in the main phase",
    "grow": "grow the centre LRIG from the LRIG deck in the grow phase",
    "remove": "put one of your SIGNI into the trash in your main phase",
    "crush": "crush life cloth as a game action (Life Bursts resolve at once)",
    "damage": "damage a player as a game action (an unblocked attack, say)",
}

ARTS_TIMINGS = ("main", "attack")


def _playing(game: Game) -> None:
    """Every action is refused once the game has a winner."""
    if game.state.winner:
        raise IllegalAction("game-over", f"the game is over ({game.state.winner} won)")


def enter_phase(game: Game, phase: str) -> None:
    """Begin ``phase`` and do what the game does at its start."""
    state = game.state
    state.phase = phase
    tp = state.turn_player
    game.emit("phase", "game", player=tp, phase=phase)
    if phase == "up":
        for zone in (*LRIG_STACK_ZONES, *SIGNI_ZONES):
            for inst in state.zone(tp, zone):
                if inst.frozen:
                    inst.frozen = False
                else:
                    inst.down = False
    elif phase == "draw":
        draw_phase(game)
    elif phase == "end":
        hand = state.zone(tp, "hand")
        if len(hand) > 6:
            excess = len(hand) - 6
            picked = game.choose(tp, "discard", [c.label for c in hand], excess, excess,
                                 prompt="put cards from the hand into the trash down to 6")
            for label in picked:
                game.move(game.card(label), "trash", "game", "hand_limit")
    game.settle()


def draw_phase(game: Game) -> None:
    """Draw two cards (one on the first player's first turn). From 2014-07 on, if the first
    draw empties the deck the second is not drawn, and the refresh follows the drawing
    (wikiwiki.jp "リフレッシュ", 2014-06-20 revision); under 2014-04 it interrupts."""
    state = game.state
    tp = state.turn_player
    wanted = 1 if state.turn == 1 and tp == state.first_player else 2
    made = 0
    for _ in range(wanted):
        deck = state.zone(tp, "deck")
        if not deck:
            break
        game.move(deck[0], "hand", "game", "draw")
        made += 1
    if made < wanted:
        game.emit("skipped", "game", player=tp, verb="draw", wanted=wanted, done=made)


def advance(game: Game, to: str | None = None) -> None:
    """End the current phase and begin the next, or keep going until ``to`` begins (it
    stops early only if the game ends on the way)."""
    _playing(game)
    for _ in range(2 * len(PHASES) + 1):
        if game.state.winner:
            return
        phase = game.state.phase
        if phase == "end":
            game.end_turn("end_phase")
        else:
            enter_phase(game, PHASES[PHASES.index(phase) + 1])
        if to is None or game.state.phase == to:
            return
    raise EngineError(f"phase {to!r} never began")  # pragma: no cover - phases cycle


def _own_main_phase(game: Game, player: str, what: str) -> None:
    if game.state.turn_player != player or game.state.phase != "main":
        raise IllegalAction("not-main-phase",
                            f"{what} only in its player's own main phase (now turn "
                            f"{game.state.turn} of {game.state.turn_player}, "
                            f"{game.state.phase} phase)")


def use(game: Game, label: str) -> None:
    """Use an ARTS or a Spell: it goes to the check zone while its effect resolves as one
    effect, then to the LRIG trash or the trash; then rule processing."""
    _playing(game)
    inst = game.card(label)
    player = inst.owner
    kind = inst.card.type
    if kind == "spell":
        if inst.zone.zone != "hand":
            raise IllegalAction("not-in-hand", f"{label} is not in {player}'s hand")
        _own_main_phase(game, player, "a Spell is used")
    elif kind == "arts":
        if inst.zone.zone != "lrig_deck":
            raise IllegalAction("not-in-lrig-deck", f"{label} is not in {player}'s LRIG deck")
        if game.state.phase not in ARTS_TIMINGS or (
                game.state.phase == "main" and game.state.turn_player != player):
            raise IllegalAction("arts-timing",
                                f"{label} cannot be used in the {game.state.phase} phase")
    else:
        raise IllegalAction("not-usable", f"{label} is a {kind}, not an ARTS or a Spell")
    game.move(inst, "check", "game", "use")
    game.resolve_effect(inst.card.effect, player, inst, label)
    if inst.zone.zone == "check":
        game.move(inst, game.home_trash(inst.card), "game", "used")
    game.settle()


def activate(game: Game, label: str, index: int) -> None:
    _playing(game)
    inst = game.card(label)
    abilities = [a for a in inst.card.abilities if a.kind == "action"]
    if index >= len(abilities):
        raise IllegalAction("no-such-ability", f"{label} has no action ability {index}")
    if inst.zone.zone not in (*SIGNI_ZONES, "lrig"):
        raise IllegalAction("not-on-field", f"{label} is not on the field")
    _own_main_phase(game, inst.owner, "an action ability is used")
    ability = abilities[index]
    game.resolve_effect(ability.effect, inst.owner, inst, f"{label}#{ability.index}")
    game.settle()


def play(game: Game, label: str, zone: str | None) -> None:
    """Put a SIGNI from the hand onto the field: own main phase, an empty zone, level not
    above the LRIG's, total level within the limit, limiting condition met."""
    _playing(game)
    inst = game.card(label)
    player = inst.owner
    if inst.zone.zone != "hand":
        raise IllegalAction("not-in-hand", f"{label} is not in {player}'s hand")
    _own_main_phase(game, player, "a SIGNI is played")
    problem = field_problem(game, inst, player)
    if problem:
        raise IllegalAction("cannot-play", f"{label}: {problem}")
    empty = [z for z in SIGNI_ZONES if not game.state.zone(player, z)]
    if not empty:
        raise IllegalAction("no-empty-zone", "every SIGNI zone is taken")
    if zone is None:
        zone = empty[0]
    elif zone not in empty:
        raise IllegalAction("zone-taken", f"{player}.{zone} is not an empty SIGNI zone")
    game.move(inst, zone, "game", "play")
    game.settle()


def grow(game: Game, label: str) -> None:
    """Grow: from the LRIG deck only; up exactly one level or to any lower or equal level;
    the same LRIG type; never to a LRIG of the same name (WIXOSS TCG Wiki, grow)."""
    _playing(game)
    inst = game.card(label)
    player = inst.owner
    if inst.zone.zone != "lrig_deck" or inst.card.type != "lrig":
        raise IllegalAction("not-in-lrig-deck", f"{label} is not a LRIG in the LRIG deck")
    if game.state.turn_player != player or game.state.phase != "grow":
        raise IllegalAction("not-grow-phase", "grow only in its player's own grow phase")
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
    game.move(inst, "lrig", "game", "grow")
    game.settle()


def remove(game: Game, label: str) -> None:
    _playing(game)
    inst = game.card(label)
    if not game.on_field(inst):
        raise IllegalAction("not-on-field", f"{label} is not a SIGNI on the field")
    _own_main_phase(game, inst.owner, "a SIGNI is removed")
    game.move(inst, "trash", "game", "remove")
    game.settle()


def crush(game: Game, player: str, count: int) -> None:
    _playing(game)
    for _ in range(count):
        if not game.crush(player, "game", None):
            break
    game.settle()


def damage(game: Game, player: str) -> None:
    _playing(game)
    deal_damage(game, player, "game", None)
    game.settle()


def effect(game: Game, player: str, ops: tuple[Op, ...], source: str | None) -> None:
    _playing(game)
    inst = game.card(source) if source else None
    game.resolve_effect(ops, player, inst, source or f"{player}-effect")
    game.settle()
