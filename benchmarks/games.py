"""Random full games: how fast the engine plays, and how much memory it needs.

Run from the repository root (a script, not a test)::

    python benchmarks/games.py             # 300 games of up to 12 turns under each rule set
    python benchmarks/games.py --games 50  # a quicker run

Each game is ``judge.engine.driver.play_random_game``: generated legal decks, both players
taking random legal actions from the set-up until a player wins or the turn limit. The
figures are CPU time of this one process (one core): games per second, engine events per
second and actions per second, with peak memory from ``tracemalloc`` over a second, smaller
pass (tracing slows the engine, so it is not timed) and ``ru_maxrss``.

Target: at least 100,000 engine events per second on one core of this machine.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import time
import tracemalloc

from judge.engine.driver import play_random_game
from judge.engine.rulesets import load_rulesets

TARGET_EVENTS_PER_S = 100_000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=300, help="games per rule set")
    parser.add_argument("--turns", type=int, default=12, help="turn limit per game")
    args = parser.parse_args()

    rulesets = list(load_rulesets().values())
    play_random_game(rulesets[-1], 0, turns=2)  # warm up imports and caches

    events = actions = games = wins = 0
    per_game: list[float] = []
    start = time.process_time()
    for rules in rulesets:
        for seed in range(args.games):
            t0 = time.process_time()
            rg = play_random_game(rules, seed, turns=args.turns)
            per_game.append(time.process_time() - t0)
            events += len(rg.game.log)
            actions += len(rg.actions)
            games += 1
            wins += rg.game.state.winner is not None
    cpu = time.process_time() - start

    tracemalloc.start()
    for seed in range(20):
        play_random_game(rulesets[-1], seed, turns=args.turns)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    rate = events / cpu
    print(f"games: {games} ({len(rulesets)} rule sets x {args.games}), {wins} won before "
          f"turn {args.turns}, {actions:,} actions, {events:,} events")
    print(f"cpu: {cpu:.2f} s; {games / cpu:,.1f} games/s; {actions / cpu:,.0f} actions/s; "
          f"{rate:,.0f} events/s")
    print(f"per game: median {statistics.median(per_game) * 1000:.2f} ms, "
          f"p95 {sorted(per_game)[int(0.95 * len(per_game))] * 1000:.2f} ms")
    print(f"memory: tracemalloc peak {peak / 2**20:.1f} MiB over 20 games; "
          f"ru_maxrss {rss:.1f} MiB")
    verdict = "met" if rate >= TARGET_EVENTS_PER_S else "missed"
    print(f"target: {TARGET_EVENTS_PER_S:,} events/s on one core; ratio "
          f"{rate / TARGET_EVENTS_PER_S:.2f} ({verdict})")


if __name__ == "__main__":
    main()
