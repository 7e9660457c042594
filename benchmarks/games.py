"""Random full games: how fast the engine plays, and how much memory it needs.

Run from the repository root (a script, not a test)::

    python benchmarks/games.py             # 300 games of up to 12 turns under each rule set
    python benchmarks/games.py --games 50  # a quicker run
    python benchmarks/games.py --instructions   # also instruction counts (valgrind, slower)

Each game is ``judge.engine.driver.play_random_game``: generated legal decks, both players
taking random legal actions from the set-up until a player wins or the turn limit. The
figures are CPU time of this one process (one core): games per second, engine events per
second and actions per second, with peak memory from ``tracemalloc`` over a second, smaller
pass (tracing slows the engine, so it is not timed) and ``ru_maxrss``.

Target: at least 100,000 engine events per second on one core of this machine.

Machines differ, so the events per second are also given against a fixed pure-Python
reference workload (:func:`reference_work`: dict, list, attribute and call work of the kind the
engine does, the same on every machine) timed in the same run, before and after the games:
``events/s / reference rounds/s``. That ratio compares across machines and runs better than
raw events per second do, but not well: the same code gave 18.22 events per 1,000 reference
rounds on one quiet machine and 15.0 on another (2026-12-06), since the two workloads do not
speed up alike from one processor to the next.

``--instructions`` also counts instructions with valgrind (``cachegrind``, ``PYTHONHASHSEED=0``,
bytecode caches): 30 games of up to ``--turns`` turns under each rule set and ten runs of the
reference workload, each less a run that only imports. Instructions per event and per
reference round do not move with the machine's load or speed (for one Python build), so they
are the figures that tell whether a change to the engine saves work; their quotient (an event
in reference rounds) is what the processor does not change. On 2026-12-06: 62,092
instructions per event, 2,189 per reference round, an event 28.4 rounds. The target itself is
read in events per second on the machine at hand.

Figures (issue 13): 71,302 events/s, 14.41 events per 1,000 reference rounds, on a quiet
machine before the last round of engine work (one-pass rule-processing check, moves logged
and their triggers looked up directly, the driver's candidates built by plain loops). That
work cut the instructions per event by 13% (77,500 to 67,100; 30 games of up to 12 turns per
rule set under cachegrind, same events): about 82,000 events/s (16.6 per 1,000 reference
rounds) expected on the same quiet machine; on a loaded one, the same run of
``--games 100`` went from 10.33 to 12.57 events per 1,000 reference rounds.

A second round (the layer of continuous effects built without keyword calls and read once per
reader, cost coverages and colour masks made once, the driver's actions handed over
positionally, phases and steps from tables) cut the instructions per event by 7.7% more
(67,000 to 61,800, same measure, same events): about 89,000 events/s (18.0 per 1,000
reference rounds) expected on the quiet machine. On a loaded one (load about 2.5 on two
cores), ``--games 100`` run twice each, alternately: 13.05 and 13.13 events per 1,000
reference rounds before, 14.00 and 15.04 after (57,800 and 57,200 events/s before, 61,200 and
66,700 after). The target is not met yet (ratio about 0.89).

Since then the engine is compiled with mypyc at install (docs/architecture.md, "The compiled
engine"), and this script also times the same games with the engine run from its source, as
the baseline of the same run. On 2026-12-06: 34,557 instructions per event compiled, 65,837
from the source (1.91 times fewer); in seconds, ``--games 150`` four times in a row:
73,572, 105,806, 100,411 and 97,060 events/s compiled against 45,211, 53,018, 53,683 and
51,802 from the source (1.63 to 2.00 times), 26.8 to 27.9 events per 1,000 reference rounds
(the reference at 2.64 to 3.80 million rounds a second: this machine's speed moved within the
hour). The target is met while the machine runs the reference at about 3.6 million rounds a
second or more.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
import tracemalloc
from dataclasses import dataclass, field

from fresh import cachegrind, instruction_counts

from judge.compiled import ENV, running
from judge.data import load_rulesets
from judge.engine.driver import play_random_game
from judge.engine.rulesets import RuleSet

TARGET_EVENTS_PER_S = 100_000
#: Rounds of the reference workload per run; it runs between the games (REFERENCE_EVERY), so
#: that both see the same load of the machine.
REFERENCE_ROUNDS = 100_000
REFERENCE_EVERY = 10


class _Item:
    __slots__ = ("label", "zone", "epoch")

    def __init__(self, label: str, zone: str) -> None:
        self.label = label
        self.zone = zone
        self.epoch = 0


@dataclass
class Played:
    """What one run of :func:`play` did, and the CPU time it took."""

    events: int = 0
    actions: int = 0
    wins: int = 0
    per_game: list[float] = field(default_factory=list)
    ref_cpu: float = 0.0
    ref_runs: int = 0


def _touch(item: _Item, zone: str) -> None:
    item.zone = zone
    item.epoch += 1


def reference_work(rounds: int = REFERENCE_ROUNDS) -> int:
    """A fixed pure-Python workload: move items between lists kept in a dict, bump an
    attribute through a call, build a small tuple and a string per round. Its result is
    checked, so it is not optimised away."""
    zones: dict[str, list[_Item]] = {z: [] for z in ("deck", "hand", "trash", "ener")}
    names = tuple(zones)
    for i in range(40):
        zones["deck"].append(_Item(f"c{i}", "deck"))
    log: list[tuple[int, str, str]] = []
    total = 0
    for i in range(rounds):
        src = zones[names[i % 4]]
        if not src:
            continue
        item = src.pop()
        dest = names[(i * 7 + 1) % 4]
        zones[dest].append(item)
        _touch(item, dest)
        log.append((i, item.label, dest))
        if len(log) > 64:
            total += len(log)
            log.clear()
        total += item.epoch & 3
    return total


def reference_seconds() -> float:
    """CPU seconds of one run of :func:`reference_work`."""
    t0 = time.process_time()
    reference_work()
    return time.process_time() - t0


#: Games per rule set and runs of the reference workload that ``--instructions`` counts.
GRIND_GAMES = 30
GRIND_REFERENCE_RUNS = 10


def grind_part(part: str, turns: int) -> None:
    """What one counted process does (``--grind``): nothing but the imports, the games, or the
    reference workload; prints how many events or rounds it did."""
    rulesets = list(load_rulesets().values())
    if part == "games":
        print(sum(len(play_random_game(rules, seed, turns=turns).game.log)
                  for rules in rulesets for seed in range(GRIND_GAMES)))
    elif part == "reference":
        for _ in range(GRIND_REFERENCE_RUNS):
            reference_work()
        print(GRIND_REFERENCE_RUNS * REFERENCE_ROUNDS)
    else:
        print(0)


def instructions(turns: int) -> None:
    """Instructions (cachegrind's "I refs") per event and per reference round."""
    if cachegrind([]) is None:
        print("instructions: valgrind is not installed")
        return
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)  # bytecode caches, as an installed package has

    def count(part: str, source: bool = False) -> tuple[int, int]:
        command = [sys.executable, __file__, "--grind", part, "--turns", str(turns)]
        env_part = {**env, ENV: "1"} if source else env
        subprocess.run(command, env=env_part, check=True, capture_output=True)  # the caches
        grind = cachegrind(command)
        assert grind is not None
        done = subprocess.run(grind, env=env_part, check=True, capture_output=True, text=True)
        return instruction_counts(done.stderr)[0], int(done.stdout.split()[-1])

    base, _ = count("imports")
    games, events = count("games")
    ref, rounds = count("reference")
    per_event = (games - base) / events
    per_round = (ref - base) / rounds
    print(f"instructions: {per_event:,.0f} per event ({events:,} events, {GRIND_GAMES} games "
          f"per rule set), {per_round:,.0f} per reference round; an event costs the "
          f"instructions of {per_event / per_round:.1f} reference rounds")
    if running().startswith("compiled"):
        src_base, _ = count("imports", source=True)
        src_games, src_events = count("games", source=True)
        src_per_event = (src_games - src_base) / src_events
        print(f"instructions from source: {src_per_event:,.0f} per event ({src_events:,} "
              f"events); compiled {src_per_event / per_event:.2f}x fewer")


def play(rulesets: list[RuleSet], games_per_set: int, turns: int) -> Played:
    """Every game of the run, timed one by one, with the reference workload between them."""
    out = Played()
    for rules in rulesets:
        for seed in range(games_per_set):
            if seed % REFERENCE_EVERY == 0:
                out.ref_cpu += reference_seconds()
                out.ref_runs += 1
            t0 = time.process_time()
            rg = play_random_game(rules, seed, turns=turns)
            out.per_game.append(time.process_time() - t0)
            out.events += len(rg.game.log)
            out.actions += len(rg.actions)
            out.wins += rg.game.state.winner is not None
    return out


def source_rate(games_per_set: int, turns: int) -> tuple[float, float]:
    """Events/s and reference rounds/s of the same games with the engine run from its source
    (``JUDGE_PURE_PYTHON``), in a second process: the baseline of the compiled build."""
    env = {**os.environ, ENV: "1"}
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    done = subprocess.run([sys.executable, __file__, "--games", str(games_per_set), "--turns",
                           str(turns), "--rates"], env=env, check=True, capture_output=True,
                          text=True)
    rate, ref = done.stdout.split()
    return float(rate), float(ref)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per rule set")
    parser.add_argument("--turns", type=int, default=12, help="turn limit per game")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions with valgrind (slower)")
    parser.add_argument("--no-source", action="store_true",
                        help="do not also time the engine run from its source")
    parser.add_argument("--grind", choices=("imports", "games", "reference"),
                        help=argparse.SUPPRESS)  # one process that --instructions counts
    parser.add_argument("--rates", action="store_true",
                        help=argparse.SUPPRESS)  # events/s and reference rounds/s only
    args = parser.parse_args()
    if args.grind:
        grind_part(args.grind, args.turns)
        return

    rulesets = list(load_rulesets().values())
    play_random_game(rulesets[-1], 0, turns=2)  # warm up imports and caches
    run = play(rulesets, args.games, args.turns)
    cpu = sum(run.per_game)
    rate = run.events / cpu
    ref = run.ref_runs * REFERENCE_ROUNDS / run.ref_cpu
    if args.rates:
        print(rate, ref)
        return
    per_game = run.per_game
    games = len(per_game)

    tracemalloc.start()
    for seed in range(20):
        play_random_game(rulesets[-1], seed, turns=args.turns)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    build = running()
    print(f"engine: {build}")
    print(f"games: {games} ({len(rulesets)} rule sets x {args.games}), {run.wins} won before "
          f"turn {args.turns}, {run.actions:,} actions, {run.events:,} events")
    print(f"cpu: {cpu:.2f} s; {games / cpu:,.1f} games/s; {run.actions / cpu:,.0f} actions/s; "
          f"{rate:,.0f} events/s")
    print(f"per game: median {statistics.median(per_game) * 1000:.2f} ms, "
          f"p95 {sorted(per_game)[int(0.95 * len(per_game))] * 1000:.2f} ms")
    print(f"memory: tracemalloc peak {peak / 2**20:.1f} MiB over 20 games; "
          f"ru_maxrss {rss:.1f} MiB")
    print(f"reference: {ref:,.0f} rounds/s ({run.ref_runs} runs between the games); relative "
          f"speed {1000 * rate / ref:.2f} events per 1,000 reference rounds")
    if build.startswith("compiled") and not args.no_source:
        src_rate, src_ref = source_rate(args.games, args.turns)
        print(f"source: {src_rate:,.0f} events/s with the engine run from its source "
              f"({1000 * src_rate / src_ref:.2f} per 1,000 reference rounds); compiled "
              f"{rate / src_rate:.2f}x as fast ({rate / ref / (src_rate / src_ref):.2f}x "
              f"against the reference)")
    verdict = "met" if rate >= TARGET_EVENTS_PER_S else "missed"
    print(f"target: {TARGET_EVENTS_PER_S:,} events/s on one core; ratio "
          f"{rate / TARGET_EVENTS_PER_S:.2f} ({verdict})")
    if args.instructions:
        instructions(args.turns)


if __name__ == "__main__":
    main()
