"""Runaway rulings: how quickly the engine's limits stop them, against a floor of plain events.

Run from the repository root (a script, not a test)::

    python benchmarks/limits.py             # 3 pairs for each case
    python benchmarks/limits.py --pairs 5

The engine's limits (docs/limits.md) end any runaway replay; the tests in
``tests/test_limits_engine.py`` check *that* they do, with a generous deadline only against a
hang. How *fast* is measured here, since machines differ 2-3x and a timed assertion in the
suite would fail on a busy one. Each case is replayed in this process (CPU seconds), in turns
with a floor (``--pairs`` times; the median and spread of the paired ratios, with the load):
a ruling whose one effect logs about
the same number of events with a plain operation (``down``/``up`` of one SIGNI), so the ratio
says what each event of the case costs against an event that does nothing special.

Cases:

1. ``mill`` of 2**63 under 2014-04 (built without the parser): every refresh refills the
   deck, the event budget stops it (MAX_EVENTS events).
2. The largest power change the parser accepts: 2,000 operations, each over 400 cards of both
   trashes (cards that are not on the field: each fizzles).
3. 6,000 lasting modifiers in one effect (power, level, limit, keyword on one SIGNI): reading
   the effects in force must not go through all of them each time (it once took 5 s).
4. An optional self-milling triggered ability under 2014-04: branches without end, stopped
   by the per-ruling event budget.

Targets: every case within 3x the floor per event (they were quadratic or unbounded before
issue #9: minutes, or 6 GB).
"""

from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import paired  # noqa: E402

from judge.engine.cards import Op  # noqa: E402
from judge.errors import EngineError  # noqa: E402
from judge.scenario.load import load_text  # noqa: E402
from judge.scenario.run import replay  # noqa: E402

TARGET_RATIO = 3.0


def ruling(*, rulesets: str, cards: str = "", p1: str = "", p2: str = "", ops: str) -> str:
    return f"""
id = "limits-benchmark"
rulesets = {rulesets}
sources = ["glossary-rule-processing"]
[title]
ja = "t"
[question]
ja = "q"
[answer]
ja = "a"
[explanation]
ja = "e"
{cards}
[setup]
turn = 3
turn_player = "p1"
first_player = "p1"
phase = "main"
[setup.p1]
lrig = ["L0:lrig-white-0", "L3:lrig-white-3"]
{p1}
[setup.p2]
deck = ["e*5"]
lrig = ["M:lrig-red-4"]
{p2}
[[steps]]
action = "effect"
player = "p1"
ops = [{ops}]
[[expect]]
"""


def events_of(rulesets: str, text: str) -> tuple[Callable[[], int], str]:
    scenario = load_text(text)
    rules = scenario.rulesets[0]

    def run() -> int:
        rep = replay(scenario, rules)
        return sum(t.cost for t in rep.traces)

    return run, rules


def plain(n_ops: int) -> str:
    ops = ", ".join(['{ op = "down", target = "S1" }', '{ op = "up", target = "S1" }']
                    * (n_ops // 2))
    return ruling(rulesets='["2014-07"]', p1='deck = ["d*3"]\nsigni1 = "S1:signi-2"', ops=ops)


def huge_mill() -> tuple[Callable[[], int], str]:
    text = ruling(rulesets='["2014-04"]',
                  p1='deck = ["d*3"]\ntrash = ["t*3"]\nlife = ["l*2"]',
                  ops='{ op = "mill", count = 3 }')
    scenario = load_text(text)
    step = scenario.steps[0]
    huge = dataclasses.replace(step, ops=(Op("mill", count=2**63),))
    scenario = dataclasses.replace(scenario, steps=(huge,))

    def run() -> int:
        rep = replay(scenario, "2014-04")
        return sum(t.cost for t in rep.traces)

    return run, "2014-04"


def largest_power_change() -> tuple[Callable[[], int], str]:
    many = ", ".join(['{op="power",target={zone="trash",who="any"}}'] * 2000)
    return events_of("2014-07", ruling(rulesets='["2014-07"]',
                                       p1='deck = ["d*3"]\ntrash = ["t*200"]',
                                       p2='trash = ["u*200"]', ops=many))


def modifiers() -> tuple[Callable[[], int], str]:
    ops = ", ".join(['{ op = "power", target = "S1", amount = 1 }',
                     '{ op = "level", target = "S1", amount = 0 }',
                     '{ op = "limit", amount = 1 }',
                     '{ op = "keyword", target = "S1", keyword = "lancer" }'] * 1500)
    return events_of("current", ruling(rulesets='["current"]',
                                       p1='deck = ["d*3"]\nsigni1 = "S1:signi-2"', ops=ops))


def self_mill() -> tuple[Callable[[], int], str]:
    cards = """
[cards.self-miller]
type = "signi"
colour = "black"
level = 1
power = 1000
[[cards.self-miller.abilities]]
kind = "auto"
trigger = "put_into_trash_from_deck"
optional = true
zone = ""
effect = [{ op = "mill", count = 1 }]
"""
    return events_of("2014-04", ruling(rulesets='["2014-04"]', cards=cards,
                                       p1='deck = ["m*10:self-miller"]',
                                       ops='{ op = "mill", count = 1 }'))


def once(run: Callable[[], int]) -> tuple[float, int]:
    """CPU seconds and events of one run."""
    start = time.process_time()
    try:
        events = run()
    except EngineError as exc:  # a limit raised outside a replay's own handling
        events = -1
        print(f"    (stopped: {exc})")
    return time.process_time() - start, events


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", "--repeat", dest="pairs", type=int, default=3)
    args = parser.parse_args()
    cases = [("mill of 2**63 under 2014-04", huge_mill),
             ("2,000 power changes over 400 cards", largest_power_change),
             ("6,000 lasting modifiers", modifiers),
             ("optional self-milling trigger, 2014-04", self_mill)]
    print(paired.machine())
    worst = 0.0
    for name, make in cases:
        run, _rules = make()
        _, events = once(run)  # untimed: how many events the floor must log
        floor_run, _ = events_of("2014-07", plain(max(2, min(events, 20_000))))

        def case(run: Callable[[], int] = run) -> float:
            seconds, events = once(run)
            return seconds / max(events, 1) * 1e6

        def floor(floor_run: Callable[[], int] = floor_run) -> float:
            seconds, events = once(floor_run)
            return seconds / max(events, 1) * 1e6

        pairs = paired.alternate(case, floor, args.pairs)
        worst = max(worst, pairs.median)
        print(paired.ratio_line(f"{name}, CPU per event / the floor's ({events} events)", pairs,
                                unit="µs", target=TARGET_RATIO))
    verdict = "met" if worst <= TARGET_RATIO else "MISSED"
    print(f"target: every case within {TARGET_RATIO}x the floor per event; worst median "
          f"{worst:.2f} ({verdict}; load {paired.load():.2f})")


if __name__ == "__main__":
    main()
