"""Replaying a scenario under a rule set: one run per branch of the unscripted choices."""

from __future__ import annotations

from dataclasses import dataclass, field

from judge.engine import actions
from judge.engine.choices import ChoiceError, ScriptThenBranch
from judge.engine.events import Event
from judge.engine.game import Game
from judge.engine.ops import apply_op
from judge.engine.rulesets import RuleSet, load_rulesets
from judge.engine.state import CardInstance, GameState, ZoneRef
from judge.errors import EngineError, IllegalAction
from judge.scenario.model import Placement, Scenario, Step


@dataclass
class Run:
    """One replay: the log, the final game, and what went wrong (if anything)."""

    game: Game
    problems: list[str] = field(default_factory=list)
    unused_choices: int = 0
    unscripted: int = 0

    @property
    def log(self) -> list[Event]:
        return self.game.log


@dataclass
class Replay:
    scenario: Scenario
    rules: RuleSet
    runs: list[Run]
    cut: bool = False


def build_game(scenario: Scenario, rules: RuleSet, chooser: ScriptThenBranch) -> Game:
    setup = scenario.setup
    state = GameState.empty()
    state.turn = setup.turn
    state.turn_player = setup.turn_player
    state.first_player = setup.first_player
    state.phase = setup.phase
    state.attack_step = setup.attack_step
    state.arts_priority = setup.arts_priority
    state.ener_done = setup.ener_done
    state.grown = setup.grown
    state.redrawn = set(setup.redrawn)
    for player, count in setup.refreshes.items():
        state.players[player].refreshes = count
    game = Game(state, rules, chooser, seed=setup.seed or 0)
    holders: dict[tuple[str, str], CardInstance] = {}
    under: list[tuple[Placement, CardInstance]] = []
    for place in setup.placements:
        inst = CardInstance(label=place.label, card=scenario.cards[place.card],
                            owner=place.player, zone=ZoneRef(place.player, place.zone),
                            down=place.down, frozen=place.frozen, attach=place.attach,
                            face_down=place.zone in ("deck", "life") or place.attach == "charm",
                            crushed=place.crushed)
        state.add(inst)
        if place.zone.startswith("signi"):
            holders[(place.player, place.zone.replace("signi", "under"))] = inst
        elif place.zone.startswith("under"):
            under.append((place, inst))
    # a second pass: the TOML may list an under zone before its SIGNI zone
    for place, inst in under:
        holder = holders[(place.player, place.zone)]
        game.attached_to[inst.label] = (holder.label, holder.epoch)
    for player, op in setup.in_force:
        apply_op(game, op, player, None, "in-force")
    return game


def perform(game: Game, step: Step) -> None:
    """Carry out one scenario step (may raise IllegalAction)."""
    if step.action == "effect":
        actions.effect(game, step.player, step.ops, step.source)
    elif step.action == "use":
        actions.use(game, _label(step))
    elif step.action == "activate":
        actions.activate(game, _label(step), step.ability)
    elif step.action == "advance":
        actions.advance(game, step.to)
    elif step.action == "play":
        actions.play(game, _label(step), step.zone)
    elif step.action == "grow":
        actions.grow(game, _label(step))
    elif step.action == "remove":
        actions.remove(game, _label(step))
    elif step.action == "crush":
        actions.crush(game, step.player, step.count)
    elif step.action == "damage":
        actions.damage(game, step.player)
    elif step.action == "ener":
        actions.ener(game, _label(step))
    elif step.action == "pass":
        actions.pass_arts(game, step.player)
    elif step.action == "attack":
        actions.attack(game, _label(step))
    elif step.action == "start_game":
        actions.start_game(game, step.first or "p1")
    elif step.action == "redraw":
        actions.redraw(game, step.player, step.cards)
    else:  # pragma: no cover - the loader only lets known actions through
        raise EngineError(f"unknown action {step.action}")


def _label(step: Step) -> str:
    if step.card is None:
        raise EngineError(f"step {step.index} names no card")
    return step.card


def run_once(scenario: Scenario, rules: RuleSet, chooser: ScriptThenBranch) -> Run:
    game = build_game(scenario, rules, chooser)
    run = Run(game)
    try:
        for step in scenario.steps:
            wanted = step.expect_illegal if (not step.illegal_rules
                                             or rules.id in step.illegal_rules) else None
            game.step = step.index
            game.emit("step", "game", index=step.index, action=step.action)
            before = len(game.log)
            try:
                perform(game, step)
            except IllegalAction as exc:
                del game.log[before:]
                game.emit("illegal", "game", reason=exc.reason, message=str(exc))
                if wanted != exc.reason:
                    expected = f" (expected {wanted})" if wanted else ""
                    run.problems.append(f"step {step.index} (line {step.line}, "
                                        f"{step.action}) was refused: {exc}{expected}")
                    break
                continue
            if wanted:
                run.problems.append(f"step {step.index} (line {step.line}, {step.action}) "
                                    f"was allowed, but {wanted} was expected")
                break
    except ChoiceError as exc:
        run.problems.append(f"scripted choice does not fit: {exc}")
    except EngineError as exc:
        run.problems.append(f"engine error: {exc}")
    run.unused_choices = len(chooser.script) - chooser.used
    run.unscripted = chooser.unscripted
    if run.unused_choices and not run.problems:
        run.problems.append(f"{run.unused_choices} scripted choice(s) were never asked for")
    return run


def replay(scenario: Scenario, rules: RuleSet | str, *, explore: bool = True) -> Replay:
    """Replay under ``rules``; unscripted choices are explored branch by branch (up to the
    scenario's ``explore_limit`` runs; ``cut`` tells when more branches were left)."""
    if isinstance(rules, str):
        rules = load_rulesets()[rules]
    runs: list[Run] = []
    prefixes: list[list[int]] = [[]]
    cut = False
    while prefixes:
        if len(runs) >= scenario.explore_limit:
            cut = True
            break
        prefix = prefixes.pop()
        chooser = ScriptThenBranch(list(scenario.choices))
        chooser.branching.prefix = prefix
        run = run_once(scenario, rules, chooser)
        runs.append(run)
        if explore:
            prefixes.extend(reversed(list(chooser.branching.children())))
    return Replay(scenario, rules, runs, cut)
