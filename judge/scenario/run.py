"""Replaying a scenario under a rule set: one run per branch of the unscripted choices.

A run returns a :class:`~judge.engine.trace.Trace` (its events, the position after the set-up
and after every step and at key events, the choices made, its problems); :func:`replay`
returns the traces of every branch as one :class:`~judge.engine.trace.Replay`. Nothing else
runs the engine on a ruling: :func:`engine_runs` counts the runs this process has made.

Every run has an event budget and all the runs of one ruling under one rule set share one
(judge.limits: MAX_EVENTS, MAX_EVENTS_PER_REPLAY); at most MAX_BRANCHES runs are made, and
exploration stops at the first run that reaches a limit, which is a failure of the ruling
(a problem of that run) whatever the other branches would do.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from judge.data import load_rulesets
from judge.engine import actions
from judge.engine import events as ev
from judge.engine.cards import CardDef
from judge.engine.choices import ChoiceError, ScriptThenBranch
from judge.engine.events import IN_FORCE
from judge.engine.game import EVENTS_MESSAGE, Game, LimitReached
from judge.engine.ops import apply_op
from judge.engine.rulesets import RuleSet
from judge.engine.state import (
    SEED_ZONES,
    TRAP_ZONES,
    UNDER_ZONES,
    CardInstance,
    GameState,
    ZoneRef,
)
from judge.engine.trace import Replay, Snapshot, Trace, Tracer
from judge.errors import EngineError, FieldError, IllegalAction
from judge.limits import MAX_BRANCHES, MAX_EVENTS, MAX_EVENTS_PER_REPLAY
from judge.scenario.model import Placement, Scenario, Step

#: The zones whose cards a set-up lays out face down: the main deck, the life cloth, and the
#: Seeds and Traps set on the SIGNI zones.
FACE_DOWN = frozenset({"deck", "life", *SEED_ZONES.values(), *TRAP_ZONES.values()})

#: What a run says when the runs of one ruling together reach MAX_EVENTS_PER_REPLAY. Each
#: branch builds the whole set-up again, so its cards count as events of every branch: a
#: large set-up with many cheap branches costs as much time and memory as a long replay.
REPLAY_EVENTS_MESSAGE = (f"more than {MAX_EVENTS_PER_REPLAY} events in all branches of this "
                         "ruling together, each card of the set-up counting as one in every "
                         "branch (limit; see docs/limits.md)")


#: The forms of a run's problems (:func:`_run`, :func:`_step`), read back by
#: :func:`problem_parts` so that a page can word them in its own language.
_PROBLEM_FORMS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("refused", re.compile(r"step (?P<index>\d+) \(line (?P<line>\d+), (?P<action>[\w-]+)\) "
                           r"was refused: (?P<reason>[a-z-]+): .*?"
                           r"(?: \(expected (?P<expected>[a-z-]+)\))?$", re.S)),
    ("allowed", re.compile(r"step (?P<index>\d+) \(line (?P<line>\d+), (?P<action>[\w-]+)\) "
                           r"was allowed, but (?P<expected>[a-z-]+) was expected$")),
    ("choice", re.compile(r"scripted choice does not fit: ", re.S)),
    ("unused", re.compile(r"(?P<count>\d+) scripted choice\(s\) were never asked for$")),
    ("events", re.compile(r"(?:engine error: )?more than (?P<count>\d+) events ", re.S)),
    ("settle", re.compile(r"(?:engine error: )?rule processing and triggers did not settle "
                          r"within (?P<count>\d+) ", re.S)),
    ("illegal", re.compile(r"engine error: (?P<reason>[a-z]+(?:-[a-z]+)+): ", re.S)),
    ("engine", re.compile(r"engine error: ", re.S)),
)


def problem_parts(problem: str) -> tuple[str, dict[str, str]]:
    """What a problem of a run (or a replay's engine error, as
    :func:`judge.site.sandbox.replay_all` words it) says, as a kind and its values:
    ``refused`` (a step the rules refused: ``index``, ``line``, ``action``, ``reason`` code
    and the ``expected`` one if the file expected another), ``allowed`` (a step the file
    expected refused), ``choice`` (a scripted choice that does not fit), ``unused``
    (``count`` scripted choices never asked for), ``events`` and ``settle`` (a limit and its
    ``count``), ``illegal`` (an action the rules refuse outside the steps: its ``reason``),
    ``engine`` (any other engine error) or ``other``."""
    for kind, form in _PROBLEM_FORMS:
        found = form.match(problem)
        if found:
            return kind, {k: v for k, v in found.groupdict().items() if v is not None}
    return "other", {}


@dataclass
class _Tally:
    runs: int = 0


_TALLY = _Tally()


def engine_runs() -> int:
    """How many runs of the engine on a ruling (one branch each) this process has made: the
    site build and ``judge check`` make one per (ruling, rule set, branch)."""
    return _TALLY.runs


#: One card of a set-up as :func:`build_game` lays it out: the arguments of its
#: :class:`~judge.engine.state.CardInstance`, then its zone, the under zone it holds (a SIGNI
#: zone's card) and whether it lies under a SIGNI.
Laid = tuple[str, CardDef, str, ZoneRef, bool, bool, bool, str, bool, str, str | None, bool]


def _rows(placements: Iterable[Placement], defs: dict[str, CardDef]) -> Iterator[Laid]:
    """The placements as :func:`build_game` lays them out, one at a time (a KeyError or
    FieldError for an unknown card or zone, which the loader does not let through, where
    that placement stands)."""
    of = ZoneRef.of
    for place in placements:
        player, zone = place.player, place.zone
        yield (place.label, defs[place.card], player, of(player, zone), place.down,
               place.frozen, zone in FACE_DOWN or place.attach == "charm", place.attach,
               place.crushed, zone, UNDER_ZONES[zone] if zone[:5] == "signi" else None,
               zone[:5] == "under")


def layout(scenario: Scenario) -> tuple[Laid, ...] | None:
    """The set-up's cards worked out once for every branch of a replay (each branch builds
    the set-up again); None when a placement is not one the loader lets through (an unknown
    card or zone), so that :func:`build_game` meets it, and fails, as without a layout."""
    defs = scenario.cards
    try:
        return tuple(_rows(scenario.setup.placements, defs))
    except (KeyError, FieldError):
        return None


def build_game(scenario: Scenario, rules: RuleSet, chooser: ScriptThenBranch, *,
               max_events: int = MAX_EVENTS, events_message: str = EVENTS_MESSAGE,
               in_force: bool = True, laid: tuple[Laid, ...] | None = None,
               light: bool = False) -> Tracer:
    """The game of the set-up (``.game`` of what it returns, which records the positions at
    its key events: :class:`~judge.engine.trace.Tracer`); with ``in_force``, the effects
    already in force are applied.
    ``laid``: the set-up's :func:`layout`, when the caller builds it more than once."""
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
    if setup.removed:
        state.removed_turn = setup.turn
    state.format = setup.format
    for player, coins in setup.coins.items():
        state.players[player].coins = coins
    for player, kinds in setup.markers.items():
        state.players[player].markers = {k: set(z) for k, z in kinds.items() if z}
    for player, count in setup.registrations.items():
        state.players[player].registrations = count
    state.redrawn = set(setup.redrawn)
    for player, count in setup.refreshes.items():
        state.players[player].refreshes = count
    game = Game(state, rules, chooser, seed=setup.seed or 0, max_events=max_events,
                events_message=events_message)
    tracer = Tracer(game, light)
    game.token_defs = {cid: card for cid, card in scenario.cards.items() if card.token}
    holders: dict[tuple[str, str], CardInstance] = {}
    under: list[tuple[str, str, CardInstance]] = []
    cards, players = state.cards, state.players
    # one pass, as cheap as it can be (once per branch); a placement is laid out as it comes,
    # so that a broken one fails where it stands
    rows = laid if laid is not None else _rows(setup.placements, scenario.cards)
    for (label, card, player, ref, down, frozen, face_down, attach, crushed, zone, holds,
         is_under) in rows:
        inst = CardInstance(label, card, player, ref, down, frozen, face_down, attach, crushed)
        if card.token:  # a token ARTS laid out is one made earlier: gone after its use
            inst.token = True
        if label in cards:
            raise FieldError("", f"card label {label!r} is used twice")
        cards[label] = inst
        players[player].zones[zone].append(inst)
        if holds is not None:
            holders[(player, holds)] = inst
        elif is_under:
            under.append((player, zone, inst))
    # a second pass: the TOML may list an under zone before its SIGNI zone
    for player, zone, inst in under:
        holder = holders[(player, zone)]
        game.attached_to[inst.label] = (holder.label, holder.epoch)
    if in_force:
        apply_in_force(game, scenario)
    return tracer


def apply_in_force(game: Game, scenario: Scenario) -> None:
    for player, op in scenario.setup.in_force:
        apply_op(game, op, player, None, IN_FORCE)


def perform(game: Game, step: Step) -> None:
    """Carry out one scenario step (may raise IllegalAction) through the engine's one action
    dispatch, :func:`judge.engine.actions.dispatch`, which the random driver uses too."""
    actions.dispatch(game, step.action, player=step.player, card=step.card, zone=step.zone,
                     to=step.to, count=step.count, ability=step.ability, ops=step.ops,
                     source=step.source, first=step.first, cards=step.cards)


def run_once(scenario: Scenario, rules: RuleSet, chooser: ScriptThenBranch, *,
             max_events: int = MAX_EVENTS, events_message: str = EVENTS_MESSAGE,
             branch: int = 0, laid: tuple[Laid, ...] | None = None,
             light: bool = False) -> Trace:
    """One replay of the steps, as a :class:`~judge.engine.trace.Trace` (``branch``: its
    number among the explored branches); ``max_events`` is its event budget
    (``events_message`` says which limit that is when it runs out); ``light``: without the
    key positions and the rounds of rule processing (a light :class:`Tracer`)."""
    _TALLY.runs += 1
    tracer = build_game(scenario, rules, chooser, max_events=max_events,
                        events_message=events_message, in_force=False, laid=laid,
                        light=light)
    game = tracer.game
    problems: list[str] = []
    snapshots: list[Snapshot] = []
    limit_reached = False
    try:
        try:
            apply_in_force(game, scenario)
        finally:
            snapshots.append(tracer.snapshot())
        for step in scenario.steps:
            try:
                if not _step(tracer, step, rules, problems):
                    break
            finally:
                snapshots.append(tracer.snapshot())
    except ChoiceError as exc:
        problems.append(f"scripted choice does not fit: {exc}")
    except LimitReached as exc:
        problems.append(f"engine error: {exc}")
        limit_reached = True
    except EngineError as exc:
        problems.append(f"engine error: {exc}")
    unused = len(chooser.script) - chooser.used
    if unused and not problems:
        problems.append(f"{unused} scripted choice(s) were never asked for")
    return Trace(rules.id, branch, tuple(game.log), tuple(snapshots),
                 tuple(tracer.key_snapshots), tuple(problems), limit_reached, unused,
                 chooser.unscripted, game.events_emitted, tuple(tracer.checks))


def _step(tracer: Tracer, step: Step, rules: RuleSet, problems: list[str]) -> bool:
    """Carry out one step, a refusal included; False when the run stops here."""
    game = tracer.game
    wanted = step.expect_illegal if (not step.illegal_rules
                                     or rules.id in step.illegal_rules) else None
    game.step = step.index
    game.emit(ev.Step, cause="game", index=step.index, action=step.action)
    before = len(game.log)
    try:
        perform(game, step)
    except IllegalAction as exc:
        game.rollback(before)
        tracer.forget_after(before)
        game.emit(ev.Illegal, cause="game", reason=exc.reason, message=str(exc))
        if wanted != exc.reason:
            expected = f" (expected {wanted})" if wanted else ""
            problems.append(f"step {step.index} (line {step.line}, "
                            f"{step.action}) was refused: {exc}{expected}")
            return False
        return True
    if wanted:
        problems.append(f"step {step.index} (line {step.line}, {step.action}) "
                        f"was allowed, but {wanted} was expected")
        return False
    return True


def replay(scenario: Scenario, rules: RuleSet | str, *, explore: bool = True,
           light: bool = False) -> Replay:
    """Replay under ``rules``: the traces of every branch. Unscripted choices are explored
    branch by branch, depth first (up to the scenario's ``explore_limit`` runs, never more than
    MAX_BRANCHES; ``cut`` tells when more branches were left); without ``explore``, only the
    first branch is run. The runs share MAX_EVENTS_PER_REPLAY events (the set-up's cards
    counting in each); the first run that reaches a limit ends the exploration
    (``stopped``). With ``light``, the traces record the positions after the set-up and each
    step only: the same events, choices, problems and final position, at a lower cost (the
    quiz's replays of a broken rule, which read no more)."""
    if isinstance(rules, str):
        rules = load_rulesets()[rules]
    limit = max(1, min(scenario.explore_limit, MAX_BRANCHES))
    runs: list[Trace] = []
    prefixes: list[list[int]] = [[]]  # a stack: the last one is explored next
    cut = stopped = trimmed = False
    spent = 0
    setup_cost = len(scenario.setup.placements)  # building a branch's game, in events
    laid: tuple[Laid, ...] | None = None  # worked out once, for the second branch on
    while prefixes:
        if len(runs) >= limit:
            cut = True
            break
        left = max(0, MAX_EVENTS_PER_REPLAY - spent - setup_cost)
        prefix = prefixes.pop()
        if runs and laid is None:  # a ruling of one branch (most) builds its set-up once
            laid = layout(scenario)
        chooser = ScriptThenBranch(list(scenario.choices))
        chooser.branching.prefix = prefix
        run = run_once(scenario, rules, chooser, max_events=min(MAX_EVENTS, left),
                       events_message=EVENTS_MESSAGE if left > MAX_EVENTS
                       else REPLAY_EVENTS_MESSAGE, branch=len(runs), laid=laid,
                       light=light)
        runs.append(run)
        spent += setup_cost + run.cost
        if run.limit_reached:
            stopped = True
            break
        if explore:
            # Only the branches that can still be run are kept: a run with thousands of
            # choices would otherwise queue thousands of prefixes (each as long as the run).
            room = limit - len(runs)
            children = list(itertools.islice(chooser.branching.children(), room + 1))
            if len(children) > room:
                trimmed = True
                children = children[:room]
            prefixes.extend(reversed(children))
            if len(prefixes) > room:
                trimmed = True
                del prefixes[:len(prefixes) - room]
    if trimmed and not prefixes and not stopped:
        cut = True  # branches were dropped that the limit would never have reached
    return Replay(rules.id, tuple(runs), cut, stopped)
