"""Traces (judge/engine/trace.py): what a replay produced, the one value every reader takes.

- every position of the project's corpus (after each step and at key events) round-trips
  through its text form and its JSON form, and so does every trace (``judge replay --json``);
  random positions (Hypothesis) too, labels that need quoting included;
- the position after step k is the position a run of only the first k steps ends in (what the
  site used to replay for its boards), and a key event's position shows that event done;
- ``judge check``'s verdict can be worked out from a trace read back from JSON: no game needed;
- the site build runs the engine exactly once per (ruling, rule set, branch), for both fixture
  corpora, and ``judge build -v`` says so.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import FX_CORPUS
from hypothesis import given, settings
from hypothesis import strategies as st

from judge.check import result_of
from judge.cli import cli
from judge.corpus import Corpus, load_corpus
from judge.engine import events as ev
from judge.engine.choices import ScriptThenBranch
from judge.engine.state import PLAYERS, ZONES
from judge.engine.trace import (
    CardState,
    PlayerPosition,
    Position,
    PositionView,
    Replay,
    Snapshot,
    Trace,
    is_key_event,
)
from judge.errors import EngineError
from judge.paths import project_root
from judge.scenario.expect import check_replay, state_diff
from judge.scenario.load import load_path
from judge.scenario.model import StatePattern
from judge.scenario.run import engine_runs, replay, run_once
from judge.site.load import load

SITE_CORPUS = project_root() / "tests" / "fixtures" / "site_corpus"


@pytest.fixture(scope="module")
def project() -> Corpus:
    return load_corpus(project_root())


def _rulings() -> list[str]:
    return sorted(p.stem for p in (project_root() / "rulings").rglob("*.toml"))


def _positions(trace: Trace) -> list[Position]:
    return [*trace.positions, *(p for _, p in trace.key_positions)]


# ---------------------------------------------------------------------- round trips


@pytest.mark.parametrize("ruling_id", _rulings())
def test_every_position_of_the_corpus_round_trips(project: Corpus, ruling_id: str) -> None:
    ruling = project.ruling(ruling_id)
    for rep in ruling.replays.values():
        for trace in rep.traces:
            for pos in _positions(trace):
                assert Position.from_text(pos.to_text()) == pos
                data = json.loads(json.dumps(pos.to_dict()))
                assert Position.from_dict(data) == pos
            data = json.loads(json.dumps(trace.to_dict()))
            back = Trace.from_dict(data)
            assert back == trace
            assert back.to_dict() == data


labels = st.from_regex(r"[A-Za-z][A-Za-z0-9_\-]{0,6}", fullmatch=True) | st.text(
    st.characters(codec="utf-8", exclude_categories=["Cs"]), min_size=1, max_size=6)
card_states = st.builds(
    CardState, labels, st.from_regex(r"[a-z0-9]{1,5}(-[a-z0-9]{1,4})?", fullmatch=True),
    st.integers(-3, 12), st.none() | st.integers(-10_000, 30_000), st.booleans(),
    st.booleans(), st.booleans(), st.none() | labels, st.booleans(),
    st.lists(st.sampled_from(["lancer", "shadow", "s_lancer", "a+b", "x y"]), unique=True,
             max_size=3).map(lambda k: tuple(sorted(k))), st.booleans(), st.booleans())


@st.composite
def positions(draw: st.DrawFn) -> Position:
    sides = tuple(PlayerPosition(
        player, tuple(tuple(draw(st.lists(card_states, max_size=3))) if draw(st.booleans())
                      else () for _ in ZONES),
        draw(st.integers(0, 5)), draw(st.integers(0, 12)), draw(st.integers(0, 3)),
        draw(st.integers(0, 4)))
        for player in PLAYERS)
    word = st.sampled_from(["main", "attack", "up", "end", "setup", "x y", '"', "-"])
    return Position(draw(st.integers(0, 99)), draw(st.sampled_from(PLAYERS)), draw(word),
                    draw(st.sampled_from(["", "arts", "signi", "lrig"])), sides,
                    draw(st.none() | st.sampled_from(PLAYERS)),
                    draw(st.none() | st.sampled_from(["damage", "deck out", "é"])),
                    tuple(draw(st.lists(st.sampled_from(["p1.deck", "p2.deck"]),
                                        unique=True, max_size=2))))


@settings(max_examples=150, deadline=None)
@given(positions())
def test_random_positions_round_trip(pos: Position) -> None:
    assert Position.from_text(pos.to_text()) == pos
    assert Position.from_dict(json.loads(json.dumps(pos.to_dict()))) == pos


def test_the_text_form_reads_as_documented(project: Corpus) -> None:
    trace = project.ruling("refresh-steps").replays["2014-07"].first
    text = trace.final.to_text()
    lines = text.splitlines()
    assert lines[0].startswith("turn ") and ", shuffled p1.deck" in lines[0]
    assert "p1: lrig level " in text
    assert any(line.startswith("  deck: ") and "face-down" in line for line in lines)
    assert str(trace.final) == text


# ---------------------------------------------------------------------- what a trace holds


@pytest.mark.parametrize("ruling_id", _rulings())
def test_the_position_after_step_k_is_where_k_steps_end(project: Corpus,
                                                        ruling_id: str) -> None:
    """The site used to replay every prefix of the steps for its boards; the first branch's
    positions are the same positions, from one run."""
    ruling = project.ruling(ruling_id)
    scenario = ruling.scenario
    for rules, rep in ruling.replays.items():
        first = rep.first
        assert len(first.positions) == len(scenario.steps) + 1  # every ruling passes
        for k in range(len(scenario.steps) + 1):
            partial = dataclasses.replace(scenario, steps=scenario.steps[:k])
            alone = run_once(partial, project.rulesets[rules],
                             ScriptThenBranch(list(scenario.choices)))
            assert first.after_step(k) == alone.final, (rules, k)
        assert first.after_step(len(scenario.steps) + 1) is None


@pytest.mark.parametrize("ruling_id", _rulings())
def test_key_positions_show_their_event_done(project: Corpus, ruling_id: str) -> None:
    for rep in project.ruling(ruling_id).replays.values():
        for trace in rep.traces:
            assert list(trace.key_events) == [e.seq for e in trace.events if is_key_event(e)]
            for i, pos in trace.key_positions:
                event = trace.events[i]
                assert trace.position_at(i) is pos
                if isinstance(event, ev.Move):
                    assert event.to_zone is not None and event.card is not None
                    assert event.card in pos.labels(event.to_zone)
                elif isinstance(event, ev.Refresh):
                    assert event.player is not None
                    assert pos.player(event.player).refreshes == event.count
            with pytest.raises(KeyError):
                trace.position_at(len(trace.events))


@pytest.mark.parametrize("ruling_id", _rulings())
def test_each_round_of_rule_processing_is_one_group_of_its_trace(project: Corpus,
                                                                 ruling_id: str) -> None:
    """Every rule_check heads one group: the choices and waits logged while the kinds looked
    before it, its moves after it, groups apart; its position before shows what the kinds
    act on where they found it, and the same JSON comes out of a second replay."""
    ruling = project.ruling(ruling_id)
    for rules, rep in ruling.replays.items():
        for trace in rep.traces:
            checks = [e.seq for e in trace.events if isinstance(e, ev.RuleCheck)]
            assert [g.at for g in trace.checks] == checks, (rules, trace.branch)
            end = 0
            for group in trace.checks:
                assert end <= group.start <= group.at < group.end <= len(trace.events)
                end = group.end
                assert all(isinstance(e, ev.Choice | ev.RefreshWaits)
                           for e in trace.events[group.start:group.at])
                check = trace.events[group.at]
                assert isinstance(check, ev.RuleCheck)
                before = group.before.position
                for act in check.acts:
                    if act.kind == "refresh" and act.target in PLAYERS:
                        assert not before.zone(act.target, "deck")
                    else:
                        before.find(act.target)
    again = replay(ruling.scenario, ruling.scenario.rulesets[-1])
    assert json.dumps(again.first.to_dict(), sort_keys=True) == json.dumps(
        ruling.replays[ruling.scenario.rulesets[-1]].first.to_dict(), sort_keys=True)


def test_refresh_steps_records_its_refresh(project: Corpus) -> None:
    trace = project.ruling("refresh-steps").replays["2014-07"].first
    (at,) = [e.seq for e in trace.events if e.type == "refresh"]
    assert at in trace.key_events
    pos = trace.position_at(at)
    assert pos.player("p1").refreshes == 1
    assert "p1.deck" in pos.shuffled
    assert [c.label for c in pos.zone("p1", "trash")] == ["l1"]


def test_traces_are_frozen(project: Corpus) -> None:
    rep = project.rulings[0].replays[project.rulings[0].scenario.rulesets[0]]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rep.first.problems = ("x",)  # type: ignore[misc]
    with pytest.raises(dataclasses.FrozenInstanceError):
        rep.cut = True  # type: ignore[misc]
    assert rep.events == rep.first.events and rep.branch_count == len(rep.traces)
    assert rep.branches == tuple(t.events for t in rep.traces)


def test_a_snapshot_equals_its_position(project: Corpus) -> None:
    trace = project.ruling("refresh-steps").replays["2014-07"].first
    snap = trace.snapshots[-1]
    assert snap == Snapshot.of(trace.final) and hash(snap) == hash(Snapshot.of(trace.final))
    assert snap != trace.final  # a snapshot is not a position


@pytest.mark.parametrize("ruling_id", ["refresh-steps", *_rulings()[:12]])
def test_the_verdict_needs_only_the_traces(project: Corpus, ruling_id: str) -> None:
    """check_replay reads traces: a trace read back from JSON gives the same verdict, and a
    changed final position is caught."""
    ruling = project.ruling(ruling_id)
    scenario = ruling.scenario
    for rules, rep in ruling.replays.items():
        back = Replay(rules, tuple(Trace.from_dict(json.loads(json.dumps(t.to_dict())))
                                   for t in rep.traces), rep.cut, rep.stopped)
        assert check_replay(scenario, back) == check_replay(scenario, rep) == []
        assert result_of(scenario, back).ok
        final = back.first.final
        empty = final._replace(players=tuple(
            side._replace(zones=((),) * len(ZONES)) for side in final.players))
        broken = dataclasses.replace(
            back.first, snapshots=(*back.first.snapshots[:-1], Snapshot.of(empty)))
        changed = Replay(rules, (broken, *back.traces[1:]), rep.cut, rep.stopped)
        if any(e.state.zones for e in scenario.expectations_for(rules)):
            assert not result_of(scenario, changed).ok


@pytest.mark.parametrize("ruling_id", _rulings())
def test_the_view_of_a_final_position_reads_as_the_position(ruling_id: str) -> None:
    """What the expectations read of a fresh snapshot (:meth:`Snapshot.view`, made without the
    whole position) is what they read of its position: every state pattern of the ruling
    (failing ones included) gives the same lines, or the same error."""
    scenario = load_path(next((project_root() / "rulings").rglob(f"{ruling_id}.toml")))
    patterns = [e.state for e in scenario.expectations]
    patterns += [o.state for e in scenario.expectations for o in e.outcomes]

    def lines(pos: Position | PositionView, pattern: StatePattern,
              fixed: bool) -> list[str] | str:
        try:
            return state_diff(pos, pattern, fixed)
        except EngineError as exc:
            return str(exc)

    for rules in scenario.rulesets:
        for trace in replay(scenario, rules).traces:
            views = [lines(trace.final_view, p, f) for p in patterns for f in (False, True)]
            assert isinstance(trace.snapshots[-1].view(), PositionView)
            assert views == [lines(trace.final, p, f) for p in patterns for f in (False, True)]
            assert trace.final_view is trace.final  # once made, the position itself


# ---------------------------------------------------------------------- engine runs


@pytest.mark.parametrize("root", [FX_CORPUS, SITE_CORPUS], ids=["fx", "site"])
def test_the_site_runs_the_engine_once_per_trace(root: Path) -> None:
    corpus = load_corpus(root, replay=False)
    triples = sum(len(replay(r.scenario, rs).traces) for r in corpus.rulings
                  for rs in r.scenario.rulesets)
    before = engine_runs()
    site = load(root)
    assert engine_runs() - before == triples
    assert site.corpus.trace_count == triples
    assert sum(len(r.traces) for r in site.corpus.rulings) == triples


def test_build_verbose_counts_engine_runs(tmp_path: Path) -> None:
    out = tmp_path / "site"
    result = CliRunner().invoke(cli, ["build", "--no-search", "-v", "--out", str(out),
                                      "--corpus", str(SITE_CORPUS)])
    assert result.exit_code == 0, result.output
    corpus = load_corpus(SITE_CORPUS)
    n = corpus.trace_count
    runs, rest = result.output.splitlines()[-1].split(" ", 1)
    assert rest == f"engine runs for {n} (ruling, rule set, branch) traces"
    # the build streams the rulings: each trace is made once to check the ruling, again for
    # its page and API file and for the database (the quiz's in a process of its own), never
    # held all at once (judge.site.load.load_streamed)
    assert int(runs) % n == 0 and 2 * n <= int(runs) <= 4 * n, runs


def test_who_may_look_at_each_card() -> None:
    """The position says who may look at a card (judge.engine.visibility): the hand and the
    LRIG deck their owner, a Seed or a Trap its owner, a Charm and the main deck nobody."""
    def card(label: str, face_down: bool = False) -> CardState:
        return CardState(label, "x", 1, face_down=face_down)

    zones = {"hand": (card("H"),), "lrig_deck": (card("A"),), "deck": (card("D", True),),
             "under1": (card("C", True),), "seed1": (card("X", True),), "signi1": (card("S"),),
             "trap2": (card("T", True),), "trash": (card("R"),)}
    p1 = PlayerPosition("p1", tuple(zones.get(z, ()) for z in ZONES))
    p2 = PlayerPosition("p2", tuple(() for _ in ZONES))
    pos = Position(1, "p1", "main", "", (p1, p2))
    assert [pos.sees("p1", x) for x in "HADCXSTR"] == [1, 1, 0, 0, 1, 1, 1, 1]
    assert [pos.sees("p2", x) for x in "HADCXSTR"] == [0, 0, 0, 0, 0, 1, 0, 1]
    assert pos.hidden_from("p2") == {"H", "A", "D", "C", "X", "T"}
    assert pos.hidden_from("p1") == {"D", "C"}


def test_positions_carry_what_continuous_effects_make_of_a_signi(project: Corpus) -> None:
    """A SIGNI's keywords now, lost abilities and cross state are in the position, so that
    boards, ``expect`` and the JSON API read them without a game (003, クロス: the partner of
    a SIGNI that lost its abilities is still crossed with it)."""
    cross = project.ruling("cross-state-when-only-one-lost-its-abilities")
    final = next(iter(cross.replays.values())).first.final
    a, b = final.find("A")[1], final.find("B")[1]
    assert (a.lost, a.crossed, b.lost, b.crossed) == (True, True, False, True)
    assert "A (cross-a, level 2, power 5000, lost abilities, crossed)" in final.to_text()
    data = a.to_dict()
    assert data["lost"] is True and data["crossed"] is True and "keywords" not in data
    lancer = project.ruling("lancer-while-in-the-centre-zone")
    s = next(iter(lancer.replays.values())).first.final.find("S")[1]
    assert s.keywords == ("lancer",) and s.to_dict()["keywords"] == ["lancer"]
    outside = project.ruling("lancer-not-outside-the-centre-zone")
    assert next(iter(outside.replays.values())).first.final.find("S")[1].keywords == ()


@pytest.mark.parametrize("ruling_id", _rulings())
def test_a_light_replay_is_the_full_one_without_its_key_positions(project: Corpus,
                                                                   ruling_id: str) -> None:
    """The quiz replays each broken rule lightly (``replay(light=True)``): under the ruling's
    rule sets and every broken rule the quiz may ask of them, a light replay logs the same
    events and problems and ends in the same positions after each step as the full one, and
    records no key positions and no rounds of rule processing."""
    from judge.data import load_rulesets
    from judge.quiz.mistakes import mistakes_for

    known = load_rulesets()
    scenario = project.ruling(ruling_id).scenario
    for rid in scenario.rulesets:
        for rules in [known[rid], *(m.broken(known[rid]) for m in mistakes_for(known[rid]))]:
            full, light = replay(scenario, rules), replay(scenario, rules, light=True)
            assert (light.cut, light.stopped) == (full.cut, full.stopped)
            assert len(light.traces) == len(full.traces)
            for a, b in zip(full.traces, light.traces, strict=True):
                assert b.events == a.events and b.problems == a.problems
                assert b.positions == a.positions and b.final == a.final
                assert b.limit_reached == a.limit_reached and b.choices == a.choices
                assert not b.key_snapshots and not b.checks
