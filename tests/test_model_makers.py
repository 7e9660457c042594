"""judge.scenario.model's quick makers give the very objects the dataclass constructors do."""

from __future__ import annotations

import pickle
from dataclasses import fields

import pytest

from judge.paths import project_root
from judge.scenario.load import load_path
from judge.scenario.model import (
    Expectation,
    Placement,
    Scenario,
    Setup,
    StatePattern,
    Step,
    make_step,
    placement,
)

CASES = [
    ("p1", "deck", "d1", "filler"),
    ("p2", "signi1_under", "U1", "some-card", False, False, "under"),
    ("p1", "signi2", "S", "c", True, True, "", True),
    ("p2", "lrig_deck", "T", "token", False, False, "", False, True),
]


@pytest.mark.parametrize("args", CASES)
def test_placement_is_the_constructors(args: tuple[object, ...]) -> None:
    made, built = placement(*args), Placement(*args)  # type: ignore[arg-type]
    assert made == built and hash(made) == hash(built) and repr(made) == repr(built)
    assert list(vars(made).items()) == list(vars(built).items())
    assert pickle.dumps(made) == pickle.dumps(built)
    with pytest.raises(AttributeError):
        made.label = "x"  # type: ignore[misc]


def test_placement_names_every_field_in_order() -> None:
    assert list(vars(placement("p1", "deck", "d1", "c"))) == [f.name for f in fields(Placement)]


def _same(made: object, cls: type) -> None:
    built = cls(**vars(made))
    assert made == built and repr(made) == repr(built)
    assert list(vars(made).items()) == list(vars(built).items())


def test_a_loaded_ruling_is_made_of_the_constructors_objects() -> None:
    paths = sorted((project_root() / "rulings").rglob("*.toml"))[:40]
    assert paths
    for path in paths:
        scenario = load_path(path)
        _same(scenario, Scenario)
        _same(scenario.setup, Setup)
        for placed in scenario.setup.placements:
            _same(placed, Placement)
        for step in scenario.steps:
            _same(step, Step)
        for expectation in scenario.expectations:
            _same(expectation, Expectation)
            _same(expectation.state, StatePattern)


def test_a_maker_wants_every_field() -> None:
    with pytest.raises(KeyError):
        make_step(index=1, action="pass")
