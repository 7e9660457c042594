"""Replay benchmark: the ruling corpus plus generated variants, and ``judge check`` on 1,000 files.

Run from the repository root (a script, not a test)::

    python benchmarks/replay.py              # the full run, well under two minutes
    python benchmarks/replay.py --quick      # 200 variants and 200 files, for a smoke test
    python benchmarks/replay.py --profile    # also print cProfile's hot spots

What it measures:

1. Every ruling under ``rulings/`` replayed under every rule set it names (``--repeat`` times),
   and ``--variants`` generated rulings (default 1,000), each under every rule set it names.
   A generated ruling is TOML text built from one of four families (a mill that may empty the
   main deck, the draw phase, seed 004's power-0-plus-refresh example, milled SIGNI whose
   optional triggered abilities are explored branch by branch), with random deck, trash and
   life sizes, operation counts and fixed or unfixed seeds. Its expectations are computed
   here, so every variant must also pass (a failing variant is reported: the figures would
   not be comparable).
2. Replays per second, events per second, the median and 95th percentile replay time of one
   ruling under one rule set (all of its branches), and the time to load (parse and validate)
   one file; and ``--repeat`` passes over the corpus, each beside a run of the reference
   workload of benchmarks/games.py (in turns), as the median and spread of the ratio of CPU
   per replay to CPU per reference round, with the load.
3. Peak memory: ``tracemalloc`` over one pass of the variants, and ``ru_maxrss`` of this process
   and of the largest child.
4. ``judge check`` (the console script, a fresh process, as a user runs it) over a folder of
   ``--files`` generated ruling files (default 1,000), in turns with its floors (a fresh
   Python parsing the same files with ``tomllib``, and with ``tomli``, as
   benchmarks/check.py), ``--pairs`` times: the median and spread of the paired ratios.

Target: ``judge check`` at most 2.0 times the ``tomllib`` floor (as benchmarks/check.py). The
seconds of 1,000 files and the median replay are printed for the record. When the target is
missed the script profiles the variant replays and prints the hot spots.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import os
import pstats
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "benchmarks"))

import paired  # noqa: E402
from check import FLOOR, FLOOR_TOMLI, files_read  # noqa: E402
from games import REFERENCE_ROUNDS, reference_seconds  # noqa: E402

from judge.data import load_rulesets  # noqa: E402
from judge.engine.rulesets import RuleSet  # noqa: E402
from judge.errors import JudgeError  # noqa: E402
from judge.scenario.expect import check_replay  # noqa: E402
from judge.scenario.load import discover, load_path, load_text  # noqa: E402
from judge.scenario.model import Scenario  # noqa: E402
from judge.scenario.run import replay  # noqa: E402

TARGET_CHECK_RATIO = 2.0  # judge check over the files against its floor, as check.py
TARGET_CHECK_SECONDS = 3.0  # the old target: judge check over 1,000 ruling files, wall time
TARGET_MEDIAN_MS = 1.0  # the old target: one ruling under one rule set

ALL_SETS = ("2014-04", "2014-07", "2014-09", "current")


# ------------------------------------------------------------------ a tiny model of refresh
# Used only to write the expectations of the generated rulings; it follows the engine's
# documented model (docs/rules-model.md), not the other way round.


@dataclass
class Pile:
    deck: int
    trash: int
    life: int
    moved: int = 0  # cards drawn or milled
    refreshes: int = 0


def _refresh(p: Pile, needs_trash: bool) -> bool:
    if p.deck or (p.trash == 0 and (needs_trash or p.life == 0)):
        return False
    if p.trash == 0:  # launch-era procedure: the life cloth makes the new deck
        p.life -= 1
        p.deck, p.trash = 1, 0
    else:
        p.deck, p.trash = p.trash, 0
        if p.life:
            p.life -= 1
            p.trash = 1
    p.refreshes += 1
    return True


def simulate(rules: RuleSet, deck: int, trash: int, life: int, count: int,
             to_trash: bool) -> Pile:
    """``count`` cards leave the top of the main deck (milled or drawn), then the settle."""
    p = Pile(deck, trash, life)
    for _ in range(count):
        if p.deck == 0:
            break
        p.deck -= 1
        p.moved += 1
        if to_trash:
            p.trash += 1
        if rules.refresh_interrupts and p.deck == 0:
            _refresh(p, rules.refresh_needs_trash)
    _refresh(p, rules.refresh_needs_trash)
    return p


# ------------------------------------------------------------------ generated rulings


def _cards(prefix: str, n: int, card: str = "") -> str:
    suffix = f":{card}" if card else ""
    return f'["{prefix}*{n}{suffix}"]' if n else "[]"


def _head(rid: str, sets: tuple[str, ...], seed: int | None) -> str:
    quoted = ", ".join(f'"{s}"' for s in sets)
    seed_line = f"seed = {seed}\n" if seed is not None else ""
    return (f'id = "{rid}"\nrulesets = [{quoted}]\ntags = ["benchmark"]\n'
            f'sources = ["glossary-refresh"]\n'
            f'title = {{ ja = "ベンチマーク", en = "Benchmark variant {rid}" }}\n\n'
            f'[setup]\nturn = 3\nturn_player = "p1"\nfirst_player = "p1"\n{seed_line}')


def _expect_piles(rules: tuple[str, ...], p: Pile, hand: int | None, extra: str = "") -> str:
    quoted = ", ".join(f'"{s}"' for s in rules)
    out = (f"\n[[expect]]\nrules = [{quoted}]\nrefreshes = {{ p1 = {p.refreshes} }}\n{extra}"
           f"[expect.zones.p1]\ndeck = {{ count = {p.deck} }}\n"
           f"life = {{ count = {p.life} }}\n")
    if hand is not None:
        out += f"hand = {{ count = {hand} }}\n"
    return out


def _grouped(sets: tuple[str, ...], make: Callable[[RuleSet], Pile]) -> dict[tuple, list[str]]:
    """Rule sets that give the same piles share one [[expect]] block."""
    known = load_rulesets()
    groups: dict[tuple, list[str]] = {}
    for rs in sets:
        p = make(known[rs])
        groups.setdefault((p.deck, p.trash, p.life, p.moved, p.refreshes), []).append(rs)
    return groups


def variant_mill(i: int, rng: random.Random) -> str:
    deck, trash, life = rng.randint(1, 30), rng.randint(0, 20), rng.randint(0, 7)
    count = rng.randint(1, deck + 5)
    seed = rng.choice([None, rng.randint(0, 10_000)])
    text = _head(f"bench-mill-{i}", ALL_SETS, seed) + 'phase = "main"\n\n'
    text += (f"[setup.p1]\ndeck = {_cards('d', deck)}\ntrash = {_cards('t', trash)}\n"
             f"life = {_cards('l', life)}\n\n[setup.p2]\ndeck = [\"e*5\"]\n\n"
             f'[[steps]]\naction = "effect"\nplayer = "p1"\n'
             f'ops = [{{ op = "mill", count = {count} }}]\n')
    for key, sets in _grouped(ALL_SETS, lambda r: simulate(r, deck, trash, life, count,
                                                           True)).items():
        p = Pile(*key)
        events = ""
        if p.refreshes:
            events = ('[expect.events]\nsubsequence = [{ type = "move", verb = "mill" }, '
                      '{ type = "refresh", player = "p1" }]\n')
        text += _expect_piles(tuple(sets), p, None) + f"trash = {{ count = {p.trash} }}\n"
        text += events
    return text


def variant_draw(i: int, rng: random.Random) -> str:
    deck, trash, life = rng.randint(1, 25), rng.randint(1, 12), rng.randint(0, 7)
    seed = rng.choice([None, rng.randint(0, 10_000)])
    text = _head(f"bench-draw-{i}", ALL_SETS, seed) + 'phase = "up"\n\n'
    text += (f"[setup.p1]\ndeck = {_cards('d', deck)}\ntrash = {_cards('t', trash)}\n"
             f"life = {_cards('l', life)}\n\n[setup.p2]\ndeck = [\"e*5\"]\n\n"
             '[[steps]]\naction = "advance"\nto = "ener"\n')
    for key, sets in _grouped(ALL_SETS, lambda r: simulate(r, deck, trash, life, 2,
                                                           False)).items():
        p = Pile(*key)
        text += _expect_piles(tuple(sets), p, p.moved, 'phase = "ener"\n')
        text += f"trash = {{ count = {p.trash} }}\n"
    return text


def variant_power_zero(i: int, rng: random.Random) -> str:
    """Seed 004's example: banish-to-trash in force, power 0 and an empty main deck at once."""
    deck, trash, life = rng.randint(1, 20), rng.randint(1, 15), rng.randint(1, 7)
    minus = rng.choice([5000, 6000, 10000])
    seed = rng.choice([None, rng.randint(0, 10_000)])
    text = _head(f"bench-power-{i}", ALL_SETS, seed) + 'phase = "main"\n'
    text += ('in_force = [{ player = "p2", op = "banish_to_trash", who = "opponent" }]\n\n'
             f"[setup.p1]\ndeck = {_cards('d', deck)}\ntrash = {_cards('t', trash)}\n"
             f"life = {_cards('l', life)}\nlrig = [\"L:lrig-white-3\"]\n"
             'signi1 = "S1:signi-2"\n\n[setup.p2]\ndeck = ["e*5"]\n\n'
             '[[steps]]\naction = "effect"\nplayer = "p2"\n'
             f'ops = [{{ op = "power", target = "S1", amount = -{minus} }}, '
             f'{{ op = "mill", who = "opponent", count = {deck} }}]\n')
    text += (f'\n[[expect]]\nrefreshes = {{ p1 = 1 }}\n[expect.zones.p1]\n'
             f"deck = {{ count = {trash + deck} }}\ntrash = {{ count = 2 }}\n"
             f'signi1 = []\nlife = {{ count = {life - 1} }}\n'
             '[expect.events]\nsubsequence = [{ type = "refresh", player = "p1" }, '
             '{ type = "banish", card = "S1", cause = "rule", to = "p1.trash" }]\n'
             'absent = [{ type = "move", card = "S1", to = "p1.deck" }]\n')
    return text


def variant_triggers(i: int, rng: random.Random) -> str:
    """Milled SIGNI with an optional "return to the hand" ability: every branch explored."""
    returners, fillers = rng.randint(1, 2), rng.randint(2, 15)
    count = rng.randint(returners, returners + fillers - 1)
    sets = tuple(rng.sample(ALL_SETS, rng.randint(1, 4)))
    text = _head(f"bench-trigger-{i}", tuple(s for s in ALL_SETS if s in sets), None)
    text += 'phase = "main"\n\n'
    text += (f'[setup.p1]\ndeck = ["r*{returners}:trash-return-signi", "d*{fillers}"]\n'
             'trash = ["t1"]\nlife = ["l*3"]\n\n[setup.p2]\ndeck = ["e*5"]\n\n'
             '[[steps]]\naction = "effect"\nplayer = "p1"\n'
             f'ops = [{{ op = "mill", count = {count} }}]\n')
    labels = [f"r{n}" for n in range(1, returners + 1)]
    subsets = [[]] + [[x] for x in labels] + ([labels] if returners == 2 else [])
    text += (f'\n[[expect]]\nrefreshes = {{ p1 = 0 }}\n[expect.zones.p1]\n'
             f"deck = {{ count = {returners + fillers - count} }}\n"
             '[expect.events]\nsubsequence = [{ type = "trigger", card = "r1" }]\n')
    for subset in subsets:
        hand = ", ".join(f'"{x}"' for x in subset)
        text += (f'[[expect.outcomes]]\nname = "returned {len(subset)}"\n'
                 f"zones = {{ p1 = {{ hand = [{hand}] }} }}\n")
    return text


FAMILIES = (variant_mill, variant_draw, variant_power_zero, variant_triggers)


def generate(n: int, seed: int = 20140701) -> list[tuple[str, str]]:
    """``n`` (file name, TOML text) pairs, the families in turn."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        family = FAMILIES[i % len(FAMILIES)]
        out.append((f"{family.__name__.removeprefix('variant_')}-{i:04d}.toml",
                    family(i, rng)))
    return out


# ------------------------------------------------------------------ measuring


@dataclass
class Sample:
    name: str
    replay_s: float
    check_s: float
    events: int
    branches: int
    failures: list[str] = field(default_factory=list)


def measure(scenarios: list[Scenario], repeat: int = 1) -> list[Sample]:
    samples = []
    for _ in range(repeat):
        for scenario in scenarios:
            for rs in scenario.rulesets:
                t0 = time.perf_counter()
                try:
                    rep = replay(scenario, rs)
                except JudgeError as exc:
                    samples.append(Sample(f"{scenario.id}[{rs}]", 0.0, 0.0, 0, 0,
                                          [f"engine error: {exc}"]))
                    continue
                t1 = time.perf_counter()
                failures = check_replay(scenario, rep)
                t2 = time.perf_counter()
                samples.append(Sample(f"{scenario.id}[{rs}]", t1 - t0, t2 - t1,
                                      sum(len(t.events) for t in rep.traces), len(rep.traces),
                                      failures))
    return samples


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    if not ordered:
        return 0.0
    k = (len(ordered) - 1) * q
    lo, hi = int(k), min(int(k) + 1, len(ordered) - 1)
    return ordered[lo] + (ordered[hi] - ordered[lo]) * (k - lo)


def summarise(title: str, samples: list[Sample]) -> dict[str, float]:
    times = [s.replay_s for s in samples]
    total_replay = sum(times)
    total = sum(s.replay_s + s.check_s for s in samples)
    events = sum(s.events for s in samples)
    stats = {
        "replays": len(samples),
        "branches": sum(s.branches for s in samples),
        "per_s": len(samples) / total if total else 0.0,
        "events_per_s": events / total_replay if total_replay else 0.0,
        "median_ms": statistics.median(times) * 1000 if times else 0.0,
        "p95_ms": percentile(times, 0.95) * 1000,
        "max_ms": max(times, default=0.0) * 1000,
        "check_median_ms": statistics.median([s.check_s for s in samples]) * 1000
        if samples else 0.0,
    }
    print(f"{title}")
    print(f"  replays (ruling x rule set)   {stats['replays']:>10,}  "
          f"({stats['branches']:,} branches, {events:,} events)")
    print(f"  replays/s (replay + check)    {stats['per_s']:>10,.0f}")
    print(f"  events/s (replay)             {stats['events_per_s']:>10,.0f}")
    print(f"  replay median / p95 / max     {stats['median_ms']:>7.3f} / "
          f"{stats['p95_ms']:.3f} / {stats['max_ms']:.3f} ms")
    print(f"  expectation check median      {stats['check_median_ms']:>7.3f} ms")
    failed = [s for s in samples if s.failures]
    if failed:
        print(f"  !! {len(failed)} replay(s) did not meet their expectations, e.g. "
              f"{failed[0].name}: {failed[0].failures[0]}")
    return stats


def load_corpus(folder: Path) -> tuple[list[Scenario], list[str]]:
    scenarios, errors = [], []
    for path in discover([folder]):
        try:
            scenarios.append(load_path(path))
        except JudgeError as exc:
            errors.append(str(exc))
    return scenarios, errors


def load_variants(texts: list[tuple[str, str]]) -> tuple[list[Scenario], list[float]]:
    scenarios, load_times = [], []
    for name, text in texts:
        t0 = time.perf_counter()
        scenarios.append(load_text(text, name))
        load_times.append(time.perf_counter() - t0)
    return scenarios, load_times


def peak_memory(scenarios: list[Scenario]) -> int:
    tracemalloc.start()
    try:
        measure(scenarios)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def judge_check(texts: list[tuple[str, str]], pairs: int
                ) -> tuple[dict[str, paired.Pairs], int, str]:
    """Write the files to a temporary folder and time ``judge check`` on it (the console
    script, a fresh process, as a user runs it) in turns with the floors: a fresh Python
    parsing the same files (and the data files) with ``tomllib``, and with ``tomli``."""
    with tempfile.TemporaryDirectory(prefix="judge-bench-") as tmp:
        folder = Path(tmp) / "rulings"
        folder.mkdir()
        for name, text in texts:
            (folder / name).write_text(text, encoding="utf-8")
        files = [str(p) for p in files_read(folder, ROOT / "data")]
        script = Path(sys.executable).parent / "judge"
        judge = [str(script)] if script.exists() else [
            sys.executable, "-c", "import sys; sys.argv[0] = 'judge'; "
            "from judge.cli import main; sys.exit(main())"]
        commands = {"judge": [*judge, "check", "rulings"],
                    "floor": [sys.executable, "-c", FLOOR, *files],
                    "floor-tomli": [sys.executable, "-c", FLOOR_TOMLI, *files]}
        env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
        done = subprocess.run(commands["judge"], capture_output=True, text=True, cwd=tmp,
                              env=env)  # untimed: the bytecode caches, and the result
        for key in ("floor", "floor-tomli"):
            subprocess.run(commands[key], check=True, cwd=tmp, env=env, capture_output=True)

        def timed(key: str) -> float:
            return paired.timed(lambda: subprocess.run(commands[key], cwd=tmp, env=env,
                                                       capture_output=True))

        out = {key: paired.Pairs() for key in ("floor", "floor-tomli")}
        for i in range(pairs):
            order = ["judge", "floor", "floor-tomli"]
            seconds = {key: timed(key) for key in (order if i % 2 == 0 else order[::-1])}
            for key, pair in out.items():
                pair.add(seconds["judge"], seconds[key])
    last = (done.stdout.strip().splitlines() or [""])[-1]
    return out, done.returncode, last


def reference_pairs(scenarios: list[Scenario], passes: int) -> paired.Pairs:
    """Passes over ``scenarios`` in turns with runs of games.py's reference workload: CPU
    seconds per replay against CPU seconds per reference round, in microseconds."""
    replays = sum(len(s.rulesets) for s in scenarios)
    out = paired.Pairs()
    for i in range(passes):
        if i % 2:
            ref = reference_seconds()
        start = time.process_time()
        measure(scenarios)
        cpu = time.process_time() - start
        if not i % 2:
            ref = reference_seconds()
        out.add(cpu / replays * 1e6, ref / REFERENCE_ROUNDS * 1e6)
    return out


def profile(scenarios: list[Scenario], top: int = 18) -> None:
    prof = cProfile.Profile()
    prof.enable()
    measure(scenarios)
    prof.disable()
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        stats = pstats.Stats(prof, stream=out).strip_dirs().sort_stats(key)
        stats.print_stats(top)
        lines = out.getvalue().splitlines()
        start = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        print(f"\nhot spots by {key} (cProfile over {len(scenarios)} variants):")
        print("\n".join(lines[start:start + top + 1]))


# ------------------------------------------------------------------ main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--rulings", type=Path, default=ROOT / "rulings",
                        help="the corpus folder (default: rulings/)")
    parser.add_argument("--variants", type=int, default=1000,
                        help="generated rulings to replay in process (default 1000)")
    parser.add_argument("--files", type=int, default=1000,
                        help="generated ruling files for the judge check timing (default 1000)")
    parser.add_argument("--repeat", type=int, default=5,
                        help="passes over the corpus, each beside a reference run (default 5)")
    parser.add_argument("--pairs", type=int, default=3,
                        help="judge check runs, each beside the floors (default 3)")
    parser.add_argument("--quick", action="store_true", help="200 variants and 200 files")
    parser.add_argument("--profile", action="store_true", help="always print the hot spots")
    args = parser.parse_args(argv)
    if args.quick:
        args.variants = args.files = 200
    started = time.perf_counter()
    print(f"wixoss-judge replay benchmark\n{paired.machine()}\n")

    corpus, errors = load_corpus(args.rulings)
    for error in errors:
        print(f"  skipped an unusable ruling: {error}")
    if corpus:
        summarise(f"corpus: {len(corpus)} rulings from {args.rulings}, one pass",
                  measure(corpus))
        print(paired.ratio_line(f"CPU per replay of the corpus / CPU per reference round "
                                f"(benchmarks/games.py), {args.repeat} passes",
                                reference_pairs(corpus, args.repeat), unit="µs"))
    else:
        print(f"corpus: no rulings under {args.rulings}")

    texts = generate(max(args.variants, args.files))
    variants, load_times = load_variants(texts[:args.variants])
    print()
    stats = summarise(f"variants: {len(variants)} generated rulings, one pass",
                      measure(variants))
    print(f"  load (parse + validate) median {statistics.median(load_times) * 1000:>6.3f} ms")

    peak = peak_memory(variants)
    rss_self = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    floors, code, last = judge_check(texts[:args.files], args.pairs)
    rss_child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    print(f"\nmemory: tracemalloc peak over one variant pass {peak / 2**20:.1f} MiB; "
          f"ru_maxrss this process {rss_self / 1024:.1f} MiB, largest child "
          f"{rss_child / 1024:.1f} MiB")
    print(f"\njudge check over {args.files} generated ruling files (exit {code}; \"{last}\"):")
    print(paired.ratio_line("judge check / floor (python + tomllib, same files)",
                            floors["floor"], target=TARGET_CHECK_RATIO))
    print(paired.ratio_line("judge check / floor with tomli (the parser judge check uses)",
                            floors["floor-tomli"]))
    median_check = statistics.median(floors["floor"].project)
    print(f"  for the record: {median_check:.2f} s for {args.files} files (the old target: "
          f"1,000 in under {TARGET_CHECK_SECONDS:g} s on a quiet machine); median replay of a "
          f"variant {stats['median_ms']:.3f} ms (the old target: under {TARGET_MEDIAN_MS:g} ms)")
    if code != 0:
        print(f"  !! judge check exited {code}: the generated files did not all pass")
    ok = statistics.median(floors["floor"].ratios) <= TARGET_CHECK_RATIO
    if args.profile or not ok:
        profile(variants[:200])
    print(f"\nbenchmark took {time.perf_counter() - started:.1f} s (load {paired.load():.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
