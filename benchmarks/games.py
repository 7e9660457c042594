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

Machines differ, so the games are played in chunks of ten, each beside a run of a fixed
pure-Python reference workload (:func:`reference_work`: dict, list, attribute and call work
of the kind the engine does), before the chunk in one and after it in the next; the ratio
of each chunk's CPU per event to the reference's CPU per round is printed as the median and
spread of the chunks (benchmarks/paired.py), with the load.

``--instructions`` also counts instructions with valgrind (``cachegrind``, ``PYTHONHASHSEED=0``,
bytecode caches): 30 games of up to ``--turns`` turns under each rule set and ten runs of the
reference workload, each less a run that only imports. Instructions per event and per
reference round do not move with the machine's load or speed (for one Python build), so they
are the figures that tell whether a change to the engine saves work.
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

import paired
from fresh import cachegrind, instruction_counts

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
    #: (events, CPU seconds) of each chunk of REFERENCE_EVERY games, and the CPU seconds of
    #: the reference run beside each (before the chunk in one, after it in the next)
    chunks: list[tuple[int, float]] = field(default_factory=list)
    ref_runs_cpu: list[float] = field(default_factory=list)


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

    def count(part: str) -> tuple[int, int]:
        command = [sys.executable, __file__, "--grind", part, "--turns", str(turns)]
        subprocess.run(command, env=env, check=True, capture_output=True)  # the caches
        grind = cachegrind(command)
        assert grind is not None
        done = subprocess.run(grind, env=env, check=True, capture_output=True, text=True)
        return instruction_counts(done.stderr)[0], int(done.stdout.split()[-1])

    base, _ = count("imports")
    games, events = count("games")
    ref, rounds = count("reference")
    per_event = (games - base) / events
    per_round = (ref - base) / rounds
    print(f"instructions: {per_event:,.0f} per event ({events:,} events, {GRIND_GAMES} games "
          f"per rule set), {per_round:,.0f} per reference round; an event costs the "
          f"instructions of {per_event / per_round:.1f} reference rounds")



def play(rulesets: list[RuleSet], games_per_set: int, turns: int) -> Played:
    """Every game of the run, timed one by one, in chunks of REFERENCE_EVERY games, each
    chunk beside a run of the reference workload (before it, then after the next one)."""
    out = Played()
    games = [(rules, seed) for rules in rulesets for seed in range(games_per_set)]
    for at in range(0, len(games), REFERENCE_EVERY):
        first = (at // REFERENCE_EVERY) % 2 == 0
        if first:
            ref = reference_seconds()
        events = 0
        chunk_cpu = 0.0
        for rules, seed in games[at:at + REFERENCE_EVERY]:
            t0 = time.process_time()
            rg = play_random_game(rules, seed, turns=turns)
            cpu = time.process_time() - t0
            out.per_game.append(cpu)
            chunk_cpu += cpu
            events += len(rg.game.log)
            out.actions += len(rg.actions)
            out.wins += rg.game.state.winner is not None
        if not first:
            ref = reference_seconds()
        out.events += events
        out.chunks.append((events, chunk_cpu))
        out.ref_runs_cpu.append(ref)
        out.ref_cpu += ref
        out.ref_runs += 1
    return out


def chunk_pairs(run: Played) -> paired.Pairs:
    """Each chunk of REFERENCE_EVERY games beside the reference run next to it: CPU seconds
    per event against CPU seconds per reference round."""
    out = paired.Pairs()
    for (events, cpu), ref in zip(run.chunks, run.ref_runs_cpu, strict=True):
        out.project.append(cpu / max(events, 1) * 1e6)
        out.anchor.append(ref / REFERENCE_ROUNDS * 1e6)
        out.loads.append(paired.load())
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per rule set")
    parser.add_argument("--turns", type=int, default=12, help="turn limit per game")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions with valgrind (slower)")
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

    print(paired.machine())
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
    print(paired.ratio_line(f"CPU per engine event / CPU per reference round ("
                            f"{len(run.chunks)} chunks of {REFERENCE_EVERY} games, each beside "
                            f"a reference run)", chunk_pairs(run), unit="µs"))
    verdict = "met" if rate >= TARGET_EVENTS_PER_S else "missed"
    print(f"target: {TARGET_EVENTS_PER_S:,} events/s on one core; ratio "
          f"{rate / TARGET_EVENTS_PER_S:.2f} ({verdict}; load {paired.load():.2f})")
    if args.instructions:
        instructions(args.turns)


if __name__ == "__main__":
    main()
