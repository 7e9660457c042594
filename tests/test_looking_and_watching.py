"""Issue 30, families 2, 3 and 5: what the engine does with the target "trigger" that the
rulings do not pin down (what the loader refuses of the new vocabulary is in
tests/test_card_state.py, with the other fields of issue 30)."""

from __future__ import annotations

from judge.engine import events as ev
from judge.scenario.load import load_text
from judge.scenario.run import replay


def _played(x_ability: str) -> list[ev.Event]:
    """p1 plays X beside W, whose ability downs the SIGNI that entered."""
    text = f"""format_version = 9
id = "x"
rulesets = ["current"]
[title]
ja = "x"
[cards.w]
type = "signi"
level = 1
power = 1000
[[cards.w.abilities]]
kind = "auto"
trigger = "signi_enters"
effect = [{{ op = "down", target = "trigger" }}]
[cards.x]
type = "signi"
level = 1
power = 1000
{x_ability}
[setup]
turn = 3
turn_player = "p1"
phase = "main"
[setup.p1]
lrig = ["L:lrig-white-4"]
signi1 = "W:w"
hand = ["X:x"]
[setup.p2]
lrig = ["M:lrig-red-4"]
[[steps]]
action = "play"
card = "X"
zone = "signi2"
[[expect]]
"""
    return list(replay(load_text(text, "x.toml"), "current").first.events)


def test_target_trigger_is_the_other_card_while_it_is_on_the_field() -> None:
    """W downs the SIGNI that entered; when that SIGNI has left the field before W's ability
    resolves (its own on-play ability trashes it first: the first answer of the order
    choice resolves X's), the target is gone."""
    events = _played("")
    assert [e.card for e in events if isinstance(e, ev.Down)] == ["X"]
    events = _played('[[cards.x.abilities]]\nkind = "on_play"\n'
                     'effect = [{ op = "trash", target = "this" }]')
    assert not [e for e in events if isinstance(e, ev.Down)]
    assert [e.reason for e in events
            if isinstance(e, ev.Fizzle) and e.card == "X"] == ["target-gone"]
