"""The continuous layer the engine keeps is the layer computed from scratch, after every event
(issue 30).

The game computes its layer of continuous effects (:mod:`judge.engine.continuous`) again only
when something the layer reads has changed (``GameState.changes``), and not at all when
nothing needs it (:meth:`Game.layer` is None: the summed tables of the state stand in). Both
are shortcuts: a change the game forgets to count, or a state the summed tables do not
describe, leaves the engine reading stale values. Here every event of every replay of the
corpus and of random games is followed by a comparison of what the engine reads (power,
level, keywords, lost abilities, cross states, limits, "can't"s, resistance, upper and draw
limits, costs, where a banished SIGNI goes) with the same values read from
:func:`continuous.compute` run afresh. The cross bug of issue 30 (two SIGNI in each other's
cross conditions reported as not crossed while no effect was in force) is one such
difference: the corpus ruling ``cross-state-with-no-effect-in-force`` makes this check fail
without the fix.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from typing import Any

import pytest

from judge.corpus import load_corpus
from judge.data import load_rulesets
from judge.engine import continuous, source_kinds
from judge.engine.costs import Cost, change_cost
from judge.engine.driver import play_random_game
from judge.engine.events import Event
from judge.engine.game import Game
from judge.engine.mechanics import accessory
from judge.engine.payment import effective_cost
from judge.engine.state import PLAYERS, CardInstance
from judge.scenario import run

RULES = list(load_rulesets().values())
GAMES = 60 if os.environ.get("CI") else 12
TURNS = 12
#: The cost whose price under the changes in force both sides compare.
PROBE_COST = Cost((("white", 1), ("colourless", 2)))

View = dict[str, Any]


def _on_field(game: Game) -> list[CardInstance]:
    return continuous.holders(game)


def kept_view(game: Game) -> View:
    """What the engine reads now, through its own readers (its kept layer, or the summed
    tables when it keeps none)."""
    layer = game.layer()
    cards = _on_field(game)
    out: View = {}
    for p in PLAYERS:
        signi = game.state.signi(p)
        out[f"stats {p}"] = ([c.label for c in signi], *game.field_stats(signi))
        out[f"limit {p}"] = game.limit(p)
        out[f"cost {p}"] = effective_cost(game, p, PROBE_COST)
        for what in ("refresh", "pay_with_colourless", "use_spells", "use_arts"):
            out[f"player cannot {p} {what}"] = game.player_cannot(p, what)
        out[f"upper {p}"] = sorted((z, n) for (q, z), n in (layer.upper if layer else {})
                                   .items() if q == p)
        out[f"draw limit {p}"] = layer.draw_limit.get(p) if layer else None
        out[f"signi cap {p}"] = layer.signi_cap.get(p) if layer else None
    for c in cards:
        label = c.label
        out[f"keywords {label}"] = sorted(game.keywords(c))
        out[f"lost {label}"] = game.lost(c)
        out[f"crossed {label}"] = label in (layer.crossed if layer else frozenset())
        out[f"resists {label}"] = [continuous.resists(game, c, p) for p in PLAYERS]
        out[f"cannot {label}"] = [game.cannot(c, what, who) for what in
                                  ("attack", "be_banished", "be_trashed")
                                  for who in (None, *PLAYERS)]
        out[f"unchoosable {label}"] = [continuous.unchoosable(game, c, p) for p in PLAYERS]
        out[f"cannot items {label}"] = sorted(layer.cannot.get(label, ())) if layer else []
        out[f"attack limit {label}"] = layer.attack_limit.get(label) if layer else None
        out[f"must attack {label}"] = label in layer.must_attack if layer else False
        if game.on_field(c):
            out[f"banished to {label}"] = game.banish_destination(c)
    return out


def fresh_view(game: Game) -> View:
    """The same values, read from a layer computed from scratch now."""
    layer = continuous.compute(game)
    cards = _on_field(game)
    out: View = {}
    for p in PLAYERS:
        signi = game.state.signi(p)
        stats = [layer.stats[c.label] for c in signi]
        out[f"stats {p}"] = ([c.label for c in signi], [s[0] for s in stats],
                             [s[1] for s in stats])
        out[f"limit {p}"] = game.limit_in(p, layer)
        items = sorted(layer.costs.get(p, ()))
        changes = [dict(a) for _, kind, a in items if kind == "cost_change"]
        mods = [dict(a) for _, kind, a in items if kind == "cost_modify"]
        out[f"cost {p}"] = change_cost(PROBE_COST, changes, mods) if changes or mods \
            else PROBE_COST
        for what in ("refresh", "pay_with_colourless", "use_spells", "use_arts"):
            out[f"player cannot {p} {what}"] = what in layer.player_cannot.get(p, ())
        out[f"upper {p}"] = sorted((z, n) for (q, z), n in layer.upper.items() if q == p)
        out[f"draw limit {p}"] = layer.draw_limit.get(p)
        out[f"signi cap {p}"] = layer.signi_cap.get(p)
    for c in cards:
        label = c.label
        words = set(layer.keywords.get(label, ()))
        if game.attached_to:
            words |= accessory.granted(game, c)
        out[f"keywords {label}"] = sorted(words)
        out[f"lost {label}"] = label in layer.lost
        out[f"crossed {label}"] = label in layer.crossed
        out[f"resists {label}"] = [_resisted(layer, c, p) for p in PLAYERS]
        out[f"cannot {label}"] = [_cannot(game, layer, c, what, who) for what in
                                  ("attack", "be_banished", "be_trashed")
                                  for who in (None, *PLAYERS)]
        # every "can't" with whose effects and which kind of source (by, by_kind)
        out[f"cannot items {label}"] = sorted(layer.cannot.get(label, ()))
        out[f"attack limit {label}"] = layer.attack_limit.get(label)
        out[f"must attack {label}"] = label in layer.must_attack
        out[f"unchoosable {label}"] = [_unchoosable(game, layer, c, p) for p in PLAYERS]
        if game.on_field(c):
            out[f"banished to {label}"] = _destination(game, layer, c)
    return out


def _resisted(layer: continuous.Layer, card: CardInstance, controller: str) -> bool:
    by = layer.resist.get(card.label)
    return by is not None and (by == "any" or (by == "opponent" and controller != card.owner))


def _cannot(game: Game, layer: continuous.Layer, card: CardInstance, what: str,
            controller: str | None) -> bool:
    for w, by, kind in layer.cannot.get(card.label, ()):
        if kind:  # only effects of that kind of card: the effect resolving now (by_kind)
            if w == what and controller is not None and \
                    source_kinds.kind_now(game) == kind and \
                    (by != "opponent" or controller != card.owner):
                return True
            continue
        if w == what and (not by or (controller is not None and (
                by == "any" or (by == "opponent" and controller != card.owner)))):
            return True
    return False


def _unchoosable(game: Game, layer: continuous.Layer, card: CardInstance,
                 controller: str) -> bool:
    from judge.engine import mechanics

    words = set(layer.keywords.get(card.label, ()))
    if game.attached_to:
        words |= accessory.granted(game, card)
    if card.owner != controller and mechanics.unchoosable(words):
        return True
    what = layer.cannot.get(card.label, set())
    return ("be_chosen", "any", "") in what or \
        (("be_chosen", "opponent", "") in what and card.owner != controller)


def _destination(game: Game, layer: continuous.Layer, card: CardInstance) -> str:
    for item in layer.replacements:
        if continuous.replacement_applies(game, item, "banish", card, None):
            if item.op.name == "banish_to_trash":
                return "trash"
            if item.op.zone:
                return item.op.zone
    return "ener"


def layer_problems(game: Game) -> list[str]:
    """Where what the engine reads differs from a layer computed from scratch."""
    kept, fresh = kept_view(game), fresh_view(game)
    return [f"{key}: the engine reads {kept.get(key)!r}, computed afresh {fresh.get(key)!r}"
            for key in sorted(set(kept) | set(fresh)) if kept.get(key) != fresh.get(key)]


def watching(game: Game, found: list[str], where: Callable[[], str]) -> None:
    """Check the layer after each event of ``game`` (keeping any watcher it has)."""
    before = game.watch

    def watch(event: Event) -> None:
        if before is not None:
            before(event)
        if len(found) < 10:
            found.extend(f"{where()} after event {event.seq} ({event}): {p}"
                         for p in layer_problems(game))

    game.watch = watch


# ---------------------------------------------------------------------- the corpus


def test_the_kept_layer_is_the_computed_layer_over_the_corpus(
        monkeypatch: pytest.MonkeyPatch) -> None:
    corpus = load_corpus(replay=False)
    found: list[str] = []
    current = [""]
    build = run.build_game

    def build_watched(*args: Any, **kwargs: Any) -> Any:
        tracer = build(*args, **kwargs)
        watching(tracer.game, found, lambda: current[0])
        return tracer

    monkeypatch.setattr(run, "build_game", build_watched)
    replays = 0
    for ruling in corpus.rulings:
        scenario = ruling.scenario
        for rules in scenario.rulesets:
            current[0] = f"{scenario.id} under {rules}"
            run.replay(scenario, rules)
            replays += 1
    assert replays > 600
    assert not found, "\n".join(found)


def test_the_cross_ruling_is_in_the_corpus() -> None:
    """The ruling that catches the cross bug is replayed by the check above."""
    ids = {r.id for r in load_corpus(replay=False).rulings}
    assert "cross-state-with-no-effect-in-force" in ids


# ---------------------------------------------------------------------- random games


@pytest.mark.parametrize("seed", range(GAMES))
def test_the_kept_layer_is_the_computed_layer_in_random_games(seed: int) -> None:
    found: list[str] = []
    rules = RULES[seed % len(RULES)]
    rg = play_random_game(rules, seed, turns=TURNS,
                          on_game=lambda game: watching(game, found,
                                                        lambda: f"seed {seed}"))
    assert len(rg.game.log) > 100
    assert not found, "\n".join(found)
