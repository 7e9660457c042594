"""What each speed mechanism buys a user (issue 29, item 5), with and without, in one run.

Run from the repository root (a script, not a test; it takes many minutes at full size)::

    python benchmarks/mechanisms.py                 # every figure, 3 rounds
    python benchmarks/mechanisms.py --pairs 5 --big 10000
    python benchmarks/mechanisms.py --only check-corpus,check-big

The mechanisms, each switched off in a fresh process of the real command:

- ``pool``: ``judge check``'s processes (judge/workers.py); off: ``--jobs 1``;
- ``entry``: the console script's plain search without click (judge/entry.py); off: the
  same command through ``judge.cli.main``, which parses it with click.

Issue 29 measured five with this script (docs/architecture.md, "What each speed mechanism
buys"): the mypyc build of the engine, the console script's launcher, the child that parsed
the rulings during the imports and the loader's quick path bought less than 10% of every
figure below and were removed; the pool is what is left. A new mechanism gets a variant here
(:data:`VARIANTS`, with the figures it acts on in :data:`ACTS_ON`) before it is kept.

The figures a user sees, each a fresh process of the console script's work:

- ``check-corpus``: ``judge check rulings`` on the project's corpus;
- ``check-big``: ``judge check rulings`` on ``--big`` rulings (default 10,000) of
  benchmarks/site.py's generator;
- ``build``: ``judge build`` of the project's corpus (search included), into an empty folder;
- ``search``: ``judge search`` of one word, in a fresh process, the index current;
- ``dev-main``: what a second ``./dev main`` waits before it serves when the site is new
  (``check-corpus`` plus ``build`` of the same round; with a previous site, ``judge serve``
  serves it at once).

In each round every variant of a figure runs once, in turns (the order reversed every other
round); each mechanism's ratio is the round's time without it over the time with everything
on (above 1: the mechanism saves time), printed as the median and spread over the rounds with
the load (benchmarks/paired.py), in wall seconds and in CPU seconds of the command's
processes. The project keeps a mechanism that buys at least 10% (a median ratio of 1.10 or
more) on some figure.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import paired  # noqa: E402

#: Runs a ``judge`` command as the console script does (``judge.entry:main``), or through
#: another module's ``main``.
WRAPPER = "import sys; sys.argv[0] = 'judge'; from {module} import main; sys.exit(main())"

MECHANISMS = ("pool", "entry")
#: the mechanisms that act on each figure (the others do nothing there)
ACTS_ON: dict[str, tuple[str, ...]] = {"check-corpus": ("pool",), "check-big": ("pool",),
                                       "build": (), "search": ("entry",)}
KEEP_AT = 1.10


@dataclass
class Variant:
    """A way to run a command: mechanisms off, and extra arguments."""

    name: str
    off: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()
    module: str = "judge.entry"  # whose main() runs the command

    def env(self) -> dict[str, str]:
        return {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


FULL = Variant("full")
#: each mechanism off
VARIANTS = {"pool": Variant("no pool", ("pool",), ("--jobs", "1")),
            "entry": Variant("no plain entry", ("entry",), module="judge.cli")}
#: a mechanism measured against another variant than the full run (none now)
ANCHOR: dict[str, str] = {}


@dataclass
class Figure:
    name: str
    args: list[str]
    cwd: Path
    out: Path | None = None  # emptied before each run
    #: each round's wall seconds by variant (and the load), and CPU seconds by variant
    rounds: list[dict[str, float]] = field(default_factory=list)
    cpu: list[dict[str, float]] = field(default_factory=list)


def run_variant(figure: Figure, variant: Variant) -> tuple[float, float]:
    """Wall seconds of one run, and the CPU seconds (user and system) of its processes."""
    if figure.out is not None:
        shutil.rmtree(figure.out, ignore_errors=True)
    command = [sys.executable, "-c", WRAPPER.format(module=variant.module), *figure.args,
               *variant.extra]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(command, cwd=figure.cwd, env=variant.env(), capture_output=True,
                          text=True)
    seconds = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    if done.returncode:
        raise SystemExit(f"{figure.name}, {variant.name}: exited {done.returncode}:\n"
                         f"{done.stdout[-2000:]}{done.stderr[-2000:]}")
    return seconds, cpu


def measure(figure: Figure, pairs: int) -> None:
    variants = [FULL, *(VARIANTS[m] for m in ACTS_ON[figure.name])]
    for v in variants:  # untimed: bytecode caches, the search index, and a check it works
        run_variant(figure, v)
    for i in range(pairs):
        order = variants if i % 2 == 0 else variants[::-1]
        got = {v.name: run_variant(figure, v) for v in order}
        figure.rounds.append({name: wall for name, (wall, _) in got.items()})
        figure.cpu.append({name: cpu for name, (_, cpu) in got.items()})
        figure.rounds[-1]["load"] = figure.cpu[-1]["load"] = paired.load()
        print(f"  {figure.name} round {i + 1}: " + ", ".join(
            f"{v.name} {got[v.name][0]:.2f} s ({got[v.name][1]:.2f} s CPU)" for v in variants),
            flush=True)


def pairs_of(rounds: list[dict[str, float]], mechanism: str) -> paired.Pairs:
    """Seconds without ``mechanism`` against seconds with it, round by round."""
    without = VARIANTS[mechanism].name
    anchor = VARIANTS[ANCHOR[mechanism]].name if mechanism in ANCHOR else FULL.name
    out = paired.Pairs()
    for r in rounds:
        out.project.append(r[without])
        out.anchor.append(r[anchor])
        out.loads.append(r["load"])
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--big", type=int, default=10_000,
                        help="generated rulings for check-big (default 10,000)")
    parser.add_argument("--corpus", type=Path, default=ROOT,
                        help="the folder holding the corpus's rulings/ (default: the project)")
    parser.add_argument("--only", default="check-corpus,check-big,build",
                        help="the figures to measure, comma-separated")
    args = parser.parse_args(argv)
    wanted = args.only.split(",")
    print(f"what each speed mechanism buys\n{paired.machine()}")
    corpus = args.corpus.resolve()
    with tempfile.TemporaryDirectory(prefix="judge-mechanisms-") as name:
        work = Path(name)
        figures = []
        if "check-corpus" in wanted:
            figures.append(Figure("check-corpus", ["check", "rulings"], corpus))
        if "check-big" in wanted:
            from judge.data import load_glossary

            big = work / "big"
            generator = _generator()
            generator.write_corpus(big, args.big, load_glossary())
            figures.append(Figure("check-big", ["check", "rulings"], big))
        if "build" in wanted:
            figures.append(Figure("build", ["build", "--corpus", str(corpus), "--out",
                                            str(work / "site")], work, work / "site"))
        if "search" in wanted:  # as typed in the corpus's folder: no option (judge/entry.py)
            figures.append(Figure("search", ["search", "refresh"], corpus))
        for figure in figures:
            measure(figure, args.pairs)
        print()
        table: list[tuple[str, str, float, str, float, str]] = []
        for figure in figures:
            for mechanism in ACTS_ON[figure.name]:
                pairs = pairs_of(figure.rounds, mechanism)
                cpu = pairs_of(figure.cpu, mechanism)
                print(paired.ratio_line(f"{figure.name} without {mechanism} / with it", pairs))
                print(paired.ratio_line(f"{figure.name} without {mechanism} / with it, CPU "
                                        f"seconds of its processes", cpu))
                table.append((figure.name, mechanism, pairs.median, paired.spread(pairs.ratios),
                              cpu.median, paired.spread(cpu.ratios)))
        names = {f.name: f for f in figures}
        if "check-corpus" in names and "build" in names:
            check, build = names["check-corpus"], names["build"]
            for mechanism in MECHANISMS:
                if mechanism not in ACTS_ON["check-corpus"] + ACTS_ON["build"]:
                    continue
                pairs = paired.Pairs()
                without = VARIANTS[mechanism].name
                anchor = VARIANTS[ANCHOR[mechanism]].name if mechanism in ANCHOR else FULL.name
                for rc, rb in zip(check.rounds, build.rounds, strict=True):
                    # a mechanism that does not act on a command: its full run stands for it
                    pairs.project.append(rc.get(without, rc[FULL.name])
                                         + rb.get(without, rb[FULL.name]))
                    pairs.anchor.append(rc.get(anchor, rc[FULL.name])
                                        + rb.get(anchor, rb[FULL.name]))
                    pairs.loads.append(max(rc["load"], rb["load"]))
                print(paired.ratio_line(f"dev-main (check + build) without {mechanism} / with "
                                        f"it", pairs))
                table.append(("dev-main", mechanism, pairs.median, paired.spread(pairs.ratios),
                              0.0, ""))
        print("\nwithout / with, medians (spread): wall seconds, and CPU seconds of the "
              "command's processes")
        print("mechanism  figure        wall                CPU                 verdict (wall)")
        best: dict[str, float] = {}
        for figure_name, mechanism, median, spread, cpu, cpu_spread in table:
            best[mechanism] = max(best.get(mechanism, 0.0), median)
            cpu_text = f"{cpu:.2f} ({cpu_spread})" if cpu_spread else "-"
            print(f"{mechanism:10} {figure_name:13} {median:.2f} ({spread:11}) "
                  f"{cpu_text:19} {'buys >= 10%' if median >= KEEP_AT else 'buys < 10%'}")
        print()
        for mechanism in MECHANISMS:
            if mechanism in best:
                keep = best[mechanism] >= KEEP_AT
                print(f"{mechanism}: best median {best[mechanism]:.2f} -> "
                      f"{'keep' if keep else 'remove'}")
    print(f"(load {paired.load():.2f})")
    return 0


def _generator():  # type: ignore[no-untyped-def]
    """benchmarks/site.py, whose generator writes the rulings."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("site_bench", ROOT / "benchmarks" / "site.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


if __name__ == "__main__":
    sys.exit(main())
