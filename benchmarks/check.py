"""``judge check`` against its floor: interpreter start plus parsing the same files.

Run from the repository root (a script, not a test)::

    python benchmarks/check.py                    # the corpus, 5 rounds
    python benchmarks/check.py --pairs 9          # 9 rounds
    python benchmarks/check.py --generated 500    # also 500 generated rulings (benchmarks/site.py)
    python benchmarks/check.py --baseline DIR     # also an older copy of the project, same run
    python benchmarks/check.py --profile          # also cProfile's hot spots of one check
    python benchmarks/check.py --instructions     # also instruction counts (valgrind)

It runs, in rounds (``--pairs``), each of these once per round in fresh processes, in turns
(the order reversed every other round, so that a busy moment of the machine hits all of
them alike):

1. the floor: ``python -c`` that starts the interpreter, imports ``tomllib`` and parses every
   file ``judge check rulings`` reads (every ruling, ``data/*.toml`` and ``data/cards/*.toml``);
2. the same floor parsing with ``tomli``, the parser ``judge check`` uses
   (judge/tomlfile.py: compiled, about twice as fast as ``tomllib``);
3. ``judge check rulings``, the real command (its console script's entry,
   ``judge.cli:main``, default options: as many processes as
   ``judge.workers.default_jobs`` gives on this machine), from the folder that holds
   ``rulings/``; and the same with ``--jobs 1`` (one process).

Each round gives the ratios of the command to each floor; the script prints the median of
the rounds' ratios, their spread (lowest to highest) and the load average (benchmarks/
paired.py). The target (issue #11) is ``judge check rulings`` at most 2.0 times the
``tomllib`` floor, wall time with bytecode caches; the ``tomli`` floor says what the check
costs beyond its own parser.

Each is timed as wall seconds (what the user waits) and CPU seconds of the child (user +
system), and in two modes: with every module compiled at each start
(``PYTHONDONTWRITEBYTECODE=1`` and no ``__pycache__``) and with bytecode caches (a temporary
``PYTHONPYCACHEPREFIX``, filled by a first untimed run: what an installed package or a
developer's tree has).

Then, so that the next person sees what costs what, the CPU time ``judge check --jobs 1``
spends in each part inside one fresh process (bytecode caches; the median of ``--pairs``
runs for each part): interpreter start (``python -c pass``), importing ``judge.cli`` and
``judge.check``, the data files (``check_data``), loading the rulings split into TOML
parsing and the rest (reading, the nesting check, validation, line numbers where needed),
the replays with their expectation checks, and the report with everything else; per ruling
and per replay too; and the modules whose import costs most (``-X importtime``, self time).

``--instructions`` also counts the instructions of each (``valgrind --tool=cachegrind``, one
run each, bytecode caches; slow, some minutes): the floor, ``judge check rulings --jobs 1``,
and the default run process by process (a worker's count includes what the parent did
before forking it; the largest count is the run's critical path). Unlike seconds, these
counts do not move when the machine is busy, so they tell whether a change saves work; they
miss the time spent in the kernel (``stat``, ``fork``, pipes).

``--generated N`` repeats all of it on a corpus of N rulings written by
``benchmarks/site.py``'s generator. ``--baseline DIR`` (a copy of the project tree from
before a change: ``judge/``, ``data/``) times its ``judge check`` in the same rounds, on the
same rulings, and prints now / baseline; ``--code DIR`` times another copy as "now".
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import paired
from fresh import cachegrind, fresh_env, instruction_counts

ROOT = Path(__file__).resolve().parent.parent

TARGET_RATIO = 2.0

#: The floor: start, import tomllib, parse each file named on the command line.
FLOOR = """
import sys, tomllib
for name in sys.argv[1:]:
    with open(name, "rb") as fh:
        tomllib.loads(fh.read().decode("utf-8"))
"""
#: The same with the parser judge/tomlfile.py uses (for the record, not the target).
FLOOR_TOMLI = FLOOR.replace("import sys, tomllib", "import sys, tomli as tomllib")

#: ``judge check FOLDER`` inside one process, each part timed (CPU seconds of this process,
#: which a busy machine disturbs less than wall time) by wrapping the functions that
#: judge.check calls; prints the seconds as JSON on the last line of standard output.
BREAKDOWN = """
import sys, time
clock = time.process_time
start = clock()
import judge.cli
import judge.check as check  # what the check command imports when it runs
imported = clock()
import contextlib, io, json
import judge.data, judge.tomlfile
spent = {"import": imported - start, "parse": 0.0, "load": 0.0, "replay": 0.0}
counts = {"rulings": 0, "replays": 0}

def timed(name, fn, count=None):
    def wrapper(*args, **kwargs):
        begin = clock()
        try:
            return fn(*args, **kwargs)
        finally:
            spent[name] += clock() - begin
            if count:
                counts[count] += 1
    return wrapper

begin = clock()
judge.data.check_data()  # judge check's first step; cached for the command below
spent["data"] = clock() - begin
parser = getattr(judge.tomlfile, "toml", None)
if parser is None:  # a tree from before judge.tomlfile.toml
    import tomllib as parser
parser.loads = timed("parse", parser.loads)
counts["parser"] = parser.__name__
check.load_one = timed("load", check.load_one, "rulings")
check.check_scenario = timed("replay", check.check_scenario, "replays")
one = ["--jobs", "1"] if any(o.name == "jobs" for o in judge.cli.check.params) else []
sys.argv = ["judge", "check", *one, *sys.argv[1:]]  # the work, in one process
out = io.StringIO()
profile = None
if PROFILE:
    import cProfile
    profile = cProfile.Profile()
    profile.enable()
begin = clock()
with contextlib.redirect_stdout(out):
    try:
        judge.cli.main()
    except SystemExit as exc:
        counts["exit"] = exc.code
spent["command"] = clock() - begin
if profile is not None:
    profile.disable()
    import pstats
    stats = pstats.Stats(profile, stream=sys.stderr).strip_dirs().sort_stats("tottime")
    stats.print_stats(25)
spent["total"] = clock() - start
print(json.dumps({"spent": spent, "counts": counts,
                  "last": (out.getvalue().strip().splitlines() or [""])[-1]}))
"""


@dataclass(frozen=True)
class Tree:
    """A copy of the project whose ``judge`` is timed (``code`` goes first on sys.path)."""

    name: str
    code: Path


def _judge_command(code: Path) -> list[str]:
    """The ``judge`` console script of the tree ``code`` (what pip writes for its
    ``[project.scripts]`` entry: ``judge.cli:main``, or ``judge.launch:main`` in trees that
    had judge/launch.py), run by this Python with the tree first on the path."""
    module = "judge.launch" if (code / "judge" / "launch.py").is_file() else "judge.cli"
    return [sys.executable, "-c",
            f"import sys; sys.argv[0] = 'judge'; from {module} import main; sys.exit(main())"]


@dataclass(frozen=True)
class Timing:
    wall: float  # seconds, as the user waits
    cpu: float  # user + system seconds of the child (less disturbed by a busy machine)


def _run(command: list[str], cwd: Path, env: dict[str, str]
         ) -> tuple[Timing, subprocess.CompletedProcess[str]]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode != 0:
        raise SystemExit(f"{' '.join(command[:4])} ... exited {done.returncode} in {cwd}:\n"
                         f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return Timing(seconds, cpu), done


def files_read(rulings: Path, data: Path) -> list[Path]:
    """Every file ``judge check`` reads: the rulings, then the data files."""
    return [*sorted(p for p in rulings.rglob("*.toml") if p.is_file()),
            *sorted(data.glob("*.toml")), *sorted((data / "cards").glob("*.toml"))]


# ---------------------------------------------------------------------- floor and command


def compare(corpus: Path, trees: list[Tree], pairs: int, tmp: Path) -> None:
    """The floors and ``judge check`` in fresh processes, taking turns, in both bytecode
    modes; the median and spread of the ratios of each round."""
    files = [str(p) for p in files_read(corpus / "rulings", ROOT / "data")]
    floors = {"floor": [sys.executable, "-c", FLOOR, *files]}
    if importlib.util.find_spec("tomli") is not None:
        floors["floor-tomli"] = [sys.executable, "-c", FLOOR_TOMLI, *files]
    commands = {t.name: [*_judge_command(t.code), "check", "rulings"] for t in trees}
    single = [*commands[trees[0].name], "--jobs", "1"]
    modes: list[tuple[str, Path | None]] = [("compiled at every start", None),
                                            ("with bytecode caches", tmp / "pycache")]
    last: dict[str, str] = {}
    for title, cache in modes:
        envs = {t.name: fresh_env(t.code, cache) for t in trees}
        first = envs[trees[0].name]
        for tree in trees:  # untimed: fill the caches, check that every command works
            for command in floors.values():
                _run(command, corpus, envs[tree.name])
            _, done = _run(commands[tree.name], corpus, envs[tree.name])
            last[tree.name] = (done.stdout.strip().splitlines() or [""])[-1]
        runs: list[tuple[str, list[str], dict[str, str]]] = [
            *((key, command, first) for key, command in floors.items()),
            *((t.name, commands[t.name], envs[t.name]) for t in trees),
            ("single", single, first)]
        rounds: list[dict[str, Timing]] = []
        for i in range(pairs):  # each round runs every command, in turns of order
            order = runs if i % 2 == 0 else runs[::-1]
            rounds.append({key: _run(command, corpus, env)[0] for key, command, env in order})
            rounds[-1]["load"] = Timing(paired.load(), paired.load())

        def ratios(key: str, anchor: str, kind: str = "wall",
                   rounds: list[dict[str, Timing]] = rounds) -> paired.Pairs:
            out = paired.Pairs()
            for r in rounds:
                out.project.append(getattr(r[key], kind))
                out.anchor.append(getattr(r[anchor], kind))
                out.loads.append(r["load"].wall)
            return out

        print(f"{title}: {pairs} rounds of fresh processes, each command once a round, in "
              f"turns (seconds are medians, wall / CPU):")
        for key, _, _ in runs:
            wall = statistics.median(r[key].wall for r in rounds)
            cpu = statistics.median(r[key].cpu for r in rounds)
            print(f"  {NAMES.get(key, 'judge check rulings, ' + key):46}{wall:8.3f} / {cpu:.3f}")
        for tree in trees:
            target = TARGET_RATIO if cache is not None else None
            print(paired.ratio_line(f"judge check rulings ({tree.name}) / floor (tomllib), "
                                    f"{title}", ratios(tree.name, "floor"), target=target))
            print(paired.ratio_line(f"the same in CPU seconds, {title}",
                                    ratios(tree.name, "floor", "cpu")))
            if "floor-tomli" in floors:
                print(paired.ratio_line(
                    f"judge check rulings ({tree.name}) / floor with tomli (the parser judge "
                    f"check uses), {title}", ratios(tree.name, "floor-tomli")))
        print(paired.ratio_line(f"judge check rulings --jobs 1 / floor (tomllib), {title}",
                                ratios("single", "floor")))
        if "floor-tomli" in floors:
            print(paired.ratio_line(f"judge check rulings --jobs 1 / floor with tomli, {title}",
                                    ratios("single", "floor-tomli")))
        if len(trees) > 1:
            print(paired.ratio_line(f"judge check rulings, now / baseline, {title}",
                                    ratios(trees[0].name, trees[1].name)))
        print(f"  (judge check said \"{last[trees[0].name]}\")")


#: How :func:`compare` names its commands.
NAMES = {"floor": "floor (python + tomllib, same files)",
         "floor-tomli": "floor with tomli (the parser judge check uses)",
         "single": "judge check rulings --jobs 1"}


# ---------------------------------------------------------------------- breakdown


def breakdown(corpus: Path, tree: Tree, repeat: int, tmp: Path, profile: bool) -> None:
    """Where one ``judge check rulings`` spends its time, inside one fresh process."""
    env = fresh_env(tree.code, tmp / "pycache")
    source = BREAKDOWN.replace("PROFILE", "True" if profile else "False", 1)
    command = [sys.executable, "-c", source, "rulings"]
    _run(command, corpus, env)  # untimed: fill the caches
    starts = []
    runs = []
    for _ in range(repeat):  # in turns with the bare start
        starts.append(_run([sys.executable, "-c", "pass"], corpus, env)[0].cpu)
        _, done = _run(command, corpus, env)
        runs.append(json.loads(done.stdout.strip().splitlines()[-1]))

    def part(fn: Callable[[dict[str, float]], float]) -> float:
        return statistics.median(fn(r["spent"]) for r in runs)

    counts, last = runs[0]["counts"], runs[0]["last"]
    rulings, replays = counts["rulings"] or 1, counts["replays"] or 1
    parse = part(lambda s: s["parse"])
    rest = part(lambda s: s["load"] - s["parse"])
    replay = part(lambda s: s["replay"])
    rows = [
        ("interpreter start (python -c pass)", statistics.median(starts), ""),
        ("import judge.cli and judge.check", part(lambda s: s["import"]), ""),
        ("data files (check_data)", part(lambda s: s["data"]), ""),
        (f"load: TOML parsing ({counts.get('parser', 'tomllib')})", parse,
         f"{parse / rulings * 1000:.2f} ms a ruling"),
        ("load: the rest (read, line index, validate)", rest,
         f"{rest / rulings * 1000:.2f} ms a ruling"),
        ("replay + expectations", replay, f"{replay / replays * 1000:.2f} ms a replay"),
        ("report and the rest (discover, related, output)",
         part(lambda s: s["command"] - s["load"] - s["replay"]), ""),
    ]
    total = sum(r[1] for r in rows)
    print(f"\nwhere judge check spends its time ({tree.name}; CPU seconds in one fresh process "
          f"with bytecode caches, median of {repeat} for each part; {counts['rulings']} rulings, "
          f"{counts['replays']} replays; \"{last}\"):")
    for name, seconds, note in rows:
        print(f"  {name:<50}{seconds:>7.3f} s {seconds / total:>5.0%}  {note}")
    print(f"  {'sum':<50}{total:>7.3f} s")
    if profile:
        _, done = _run(command, corpus, env)
        print("\ncProfile of one judge check (tottime):")
        lines = done.stderr.splitlines()
        first = next((i for i, line in enumerate(lines) if "ncalls" in line), 0)
        print("\n".join(lines[first:first + 26]))


def imports(tree: Tree, tmp: Path, top: int = 10) -> None:
    """The modules whose import costs ``judge check`` most (self time, median of three)."""
    env = fresh_env(tree.code, tmp / "pycache")
    command = [sys.executable, "-X", "importtime", "-c", "import judge.cli, judge.check"]
    _run(command, ROOT, env)
    selfs: dict[str, list[int]] = {}
    totals: list[int] = []
    for _ in range(3):
        _, done = _run(command, ROOT, env)
        total = 0
        for line in done.stderr.splitlines():
            match = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
            if match:
                selfs.setdefault(match.group(4), []).append(int(match.group(1)))
                if match.group(4).startswith("judge.") and len(match.group(3)) == 1:
                    total += int(match.group(2))  # judge.cli, then what judge.check adds
        totals.append(total)
    total = statistics.median(totals)
    ranked = sorted(selfs.items(), key=lambda kv: -statistics.median(kv[1]))[:top]
    judge = sum(statistics.median(v) for k, v in selfs.items() if k.split(".")[0] == "judge")
    print(f"\nimport judge.cli, judge.check ({tree.name}): {total / 1000:.1f} ms under "
          f"-X importtime, {len(selfs)} modules, {judge / 1000:.1f} ms in judge.* itself; "
          f"the {top} dearest (self ms):")
    print("  " + ", ".join(f"{name} {statistics.median(us) / 1000:.1f}" for name, us in ranked))


# ---------------------------------------------------------------------- instructions


def instructions(corpus: Path, tree: Tree, tmp: Path) -> None:
    """Instruction counts (cachegrind's "I refs") of the floor and of judge check."""
    if cachegrind([]) is None:
        print("\ninstruction counts: valgrind is not installed")
        return
    env = fresh_env(tree.code, tmp / "pycache")
    files = [str(p) for p in files_read(corpus / "rulings", ROOT / "data")]
    check = [*_judge_command(tree.code), "check", "rulings"]
    _run(check, corpus, env)  # untimed: fill the caches

    def count(command: list[str], children: bool = False) -> list[int]:
        grind = cachegrind(command, children)
        assert grind is not None
        return instruction_counts(_run(grind, corpus, env)[1].stderr)

    start = count([sys.executable, "-c", "pass"])[0]
    floor = count([sys.executable, "-c", FLOOR, *files])[0]
    single = count([*check, "--jobs", "1"])[0]
    default = count(check, children=True)
    print(f"\ninstructions ({tree.name}; millions, one run each, bytecode caches):")
    print(f"  interpreter start (python -c pass)          {start / 1e6:8.0f}")
    print(f"  floor                                       {floor / 1e6:8.0f}")
    print(f"  judge check rulings --jobs 1                {single / 1e6:8.0f}   "
          f"{single / floor:.2f} x the floor")
    print(f"  judge check rulings, each process           "
          f"{', '.join(f'{n / 1e6:.0f}' for n in default)}   largest "
          f"{max(default) / floor:.2f} x the floor")


# ---------------------------------------------------------------------- main


def generated(folder: Path, count: int) -> Path:
    """``count`` rulings of benchmarks/site.py's generator under ``folder/rulings``."""
    sys.path.insert(0, str(ROOT))
    from judge.data import load_glossary

    spec = importlib.util.spec_from_file_location("site_bench", ROOT / "benchmarks" / "site.py")
    assert spec is not None and spec.loader is not None
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    bench.write_corpus(folder, count, load_glossary())
    return folder


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", "--repeat", dest="repeat", type=int, default=5,
                        help="rounds of fresh processes, each command once a round; the "
                             "median of the rounds' ratios is the figure (default 5)")
    parser.add_argument("--generated", type=int, default=0, metavar="N",
                        help="also a corpus of N generated rulings (default: none)")
    parser.add_argument("--baseline", type=Path, metavar="DIR",
                        help="an older copy of the project (judge/, data/) to time beside")
    parser.add_argument("--corpus", type=Path, metavar="DIR", default=ROOT,
                        help="the folder holding the rulings/ to check (default: the project)")
    parser.add_argument("--code", type=Path, metavar="DIR", default=ROOT,
                        help="the copy of the project timed as 'now' (default: this one)")
    parser.add_argument("--profile", action="store_true",
                        help="also print cProfile's hot spots of one judge check")
    parser.add_argument("--instructions", action="store_true",
                        help="also count instructions with valgrind (slow)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    print(f"judge check against its floor\n{paired.machine()}\n")
    trees = [Tree("now", args.code.resolve())]
    if args.baseline:
        trees.append(Tree("baseline", args.baseline.resolve()))
    with tempfile.TemporaryDirectory(prefix="judge-check-bench-") as name:
        tmp = Path(name)
        corpora = [("the corpus", args.corpus.resolve())]
        if args.generated:
            corpora.append((f"{args.generated} generated rulings",
                            generated(tmp / "generated", args.generated)))
        for title, corpus in corpora:
            files = files_read(corpus / "rulings", ROOT / "data")
            size = sum(p.stat().st_size for p in files)
            print(f"== {title}: {len(files)} files, {size / 1024:.0f} KiB "
                  f"({corpus / 'rulings'})")
            compare(corpus, trees, args.repeat, tmp)
            for tree in trees:
                breakdown(corpus, tree, args.repeat, tmp, args.profile and tree is trees[0])
            if args.instructions:
                for tree in trees:
                    instructions(corpus, tree, tmp)
            print()
        for tree in trees:
            imports(tree, tmp)
    print(f"\nbenchmark took {time.perf_counter() - started:.1f} s "
          f"(load average {os.getloadavg()[0]:.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
