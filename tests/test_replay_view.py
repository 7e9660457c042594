"""The replay a ruling page shows (judge/site/replay.py): each step cut at its key moments, the
boards taken from the trace's positions and marked, a folded replay told from where it differs.
"""

from __future__ import annotations

from functools import cache

from judge.corpus import Ruling, load_corpus
from judge.engine import events as ev
from judge.engine.state import ZoneRef
from judge.site.board import GONE, NEW, board_of
from judge.site.load import load_ruling
from judge.site.replay import AFTER_CHECK, AT_CHECK, cut, step_views


@cache
def ruling(rid: str) -> Ruling:
    return next(r for r in load_corpus().rulings if r.id == rid)


def test_an_attack_with_a_double_crush_is_drawn_at_each_key_moment() -> None:
    data = load_ruling(ruling("double-crush-defender-orders-the-bursts"))
    group = data.replays[-1]  # the latest rules: the page's first replay
    step = group.steps[1]
    keys = [m.key for m in step.moments]
    assert isinstance(keys[0], ev.Move) and keys[0].verb == "crush" and keys[0].card == "k2"
    assert [type(k) for k in keys[1:]] == [ev.EffectEnd, ev.EffectEnd, type(None)]
    assert [k.ability.card for k in keys[1:3]] == ["k2", "k1"]  # type: ignore[union-attr]
    crush = step.moments[0].board
    assert crush is not None
    # both crushed cards in the check zone together, marked as arrived; gone from the top
    assert [(c.label, c.mark) for c in crush.cards("p2", "check")] == [("k1", NEW), ("k2", NEW)]
    assert [(c.label, c.mark) for c in crush.cards("p2", "life")][:2] == \
        [("k1", GONE), ("k2", GONE)]
    # the board is the position the trace recorded at the key event: nothing replayed
    trace = group.trace
    assert trace is not None
    assert board_of(trace.position_at(keys[0].seq)).cards("p2", "check") == \
        tuple(c.__class__(c.label, c.down, c.frozen, c.power) for c in
              crush.cards("p2", "check"))
    # every event of the step is told once, in order, across its parts
    told = [e for m in step.moments for e in m.events]
    assert told == [e for e in trace.events if e.step == 1 and e.type != "step"]


def test_a_crush_sentence_is_not_cut_between_its_cards() -> None:
    z = ZoneRef.parse
    crush = [ev.Move(seq=i, step=1, cause="battle", player="p2", card=f"k{i}",
                     from_zone=z("p2.life"), to_zone=z("p2.check"), verb="crush")
             for i in (1, 2)]
    after = ev.Choice(seq=3, step=1, cause="game", player="p2", kind="burst_order",
                      options=("k1", "k2"), picked=("k2",))
    parts = cut([*crush, after], frozenset({1, 2}))
    assert [([e.seq for e in p.events], p.key.seq if p.key else None) for p in parts] == \
        [([1, 2], 2), ([3], None)]
    assert cut([], frozenset()) == [([], None, None, "")]


def test_a_refresh_is_drawn_when_it_is_done() -> None:
    """One player's refresh, alone in its check, is drawn when it is done, whether it
    interrupts the effect (the launch rules) or is rule processing (later)."""
    data = load_ruling(ruling("refresh-steps"))
    for group in data.replays:
        step = group.steps[1]
        assert any(isinstance(m.key, ev.Refresh) for m in step.moments), group.rules
        assert not any(m.check for m in step.moments), group.rules


def test_a_check_acting_on_several_things_is_drawn_at_the_check_and_after() -> None:
    """Both players refresh in one check: one board at the check, one after it, and the
    refresh of each is no key moment of its own inside it."""
    data = load_ruling(ruling("empty-main-deck-refresh-both-players"))
    step = data.replays[-1].steps[1]
    checks = [m.check for m in step.moments if m.check]
    assert checks == [AT_CHECK, AFTER_CHECK]
    at, after = (m for m in step.moments if m.check)
    assert isinstance(at.key, ev.RuleCheck) and at.key is after.key
    assert at.board is not None and {(p, z) for p, z, _ in at.board.conditions} == \
        {("p1", "deck"), ("p2", "deck")}
    assert [e.player for e in after.events if isinstance(e, ev.Refresh)] == ["p1", "p2"]


def test_a_folded_replay_is_told_from_where_it_differs() -> None:
    """Under 2014-07 the second refresh does not end the turn: the attack goes as under the
    latest rules until the refresh, which is all the folded replay tells."""
    data = load_ruling(ruling("second-refresh-during-opponent-life-burst"))
    first = data.replays[-1]
    older = {g.rules: g for g in data.replays[:-1]}
    assert all(view.same == 0 for view in first.steps)
    folded = older[("2014-07",)].steps[1]
    assert 0 < folded.same < len(folded.moments)
    for mine, theirs in zip(folded.moments[:folded.same], first.steps[1].moments, strict=False):
        assert mine.board == theirs.board
    # the page draws only the boards of what it tells
    assert folded.boards == tuple(m.board for m in folded.moments[folded.same:]
                                  if m.board is not None)
    views = step_views(first.trace, first.boards)
    assert [v.index for v in views] == [v.index for v in first.steps]
