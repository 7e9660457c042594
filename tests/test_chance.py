"""judge.engine.chance draws what random.Random's own methods draw, so that every seed plays
the game it played before the engine drew with it."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from judge.engine import chance


@given(st.integers(0, 2**32), st.lists(st.integers(1, 2**40), min_size=1, max_size=30))
def test_below_draws_what_randrange_draws(seed: int, bounds: list[int]) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    assert [chance.below(ours, n) for n in bounds] == [theirs.randrange(n) for n in bounds]
    assert ours.getstate() == theirs.getstate()


@given(st.integers(0, 2**32), st.integers(0, 60))
def test_shuffle_and_pick_are_randoms_own(seed: int, size: int) -> None:
    ours, theirs = random.Random(seed), random.Random(seed)
    items, expected = list(range(size)), list(range(size))
    chance.shuffle(ours, items)
    theirs.shuffle(expected)
    assert items == expected
    if size:
        assert chance.pick(ours, items) == theirs.choice(expected)
    assert ours.getstate() == theirs.getstate()

