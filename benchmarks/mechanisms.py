"""What each speed mechanism buys a user (issue 29, item 5), with and without, in one run.

Run from the repository root (a script, not a test; it takes many minutes at full size)::

    python benchmarks/mechanisms.py                 # every figure, 3 rounds
    python benchmarks/mechanisms.py --pairs 5 --big 10000
    python benchmarks/mechanisms.py --only check-corpus,search
    python benchmarks/mechanisms.py --install       # also what mypyc costs an install

The mechanisms, each switched off in a fresh process of the real command (the switches live
in this script's wrapper, :data:`WRAPPER`; the project has none):

- ``mypyc``: the engine compiled with mypyc (setup.py, judge/compiled.py); off:
  ``JUDGE_PURE_PYTHON=1``, the engine run from its source.
- ``launcher``: the console script's entry, judge/launch.py (the parsing child started
  before click and judge.cli are imported; ``os._exit`` once the check has said
  everything); off: ``judge.cli:main`` as the entry.
- ``preparse``: the child that parses the rulings during the imports (judge/preparse.py);
  off: it is never started (the pool's processes parse what they load).
- ``pool``: ``judge check``'s processes (judge/workers.py); off: ``--jobs 1``. The child of
  ``preparse`` exists only with the pool, so the pool is measured against the run without
  the child: ``--jobs 1`` over ``preparse`` off.
- ``quick``: the loader's quick path (judge/scenario/load.py: ``_Loader._zone`` places a
  plain set-up string without the general path, ``_Loader._eras_clear`` tells a plain
  ruling's dates at once, ``model.placement`` makes placements without the frozen
  ``__init__``); off: the general path for everything.

The figures a user sees, each a fresh process of the console script's work:

- ``check-corpus``: ``judge check rulings`` on the project's corpus;
- ``check-big``: ``judge check rulings`` on ``--big`` rulings (default 10,000) of
  benchmarks/site.py's generator;
- ``build``: ``judge build`` of the project's corpus (search included), into an empty folder;
- ``search``: ``judge search`` of one word, in a fresh process, the index current;
- ``dev-main``: what a second ``./dev main`` waits before it serves, with nothing changed
  (the install is skipped: ./dev's stamp): ``check-corpus`` plus ``build`` of the same
  round.

In each round every variant of a figure runs once, in turns (the order reversed every other
round); each mechanism's ratio is the round's time without it over the time with everything
on (above 1: the mechanism saves time), printed as the median and spread over the rounds with
the load (benchmarks/paired.py). ``--install`` also times ``pip install -e .`` of a copy of
the tree into a new venv, compiled and with ``JUDGE_PURE_PYTHON=1``: what mypyc costs the
first ``./dev main`` after an edit of the engine.

The project keeps a mechanism that buys at least 10% (a median ratio of 1.10 or more) on
some figure (docs/architecture.md, "Speed").
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

#: Runs a ``judge`` command with the mechanisms named in ``JUDGE_BENCH_OFF`` switched off.
WRAPPER = r"""
import os, sys
off = set(filter(None, os.environ.get("JUDGE_BENCH_OFF", "").split(",")))
sys.argv[0] = "judge"
if "preparse" in off:
    import judge.preparse
    judge.preparse._start = lambda paths, jobs: None
if "quick" in off:
    import importlib.abc, importlib.util

    def patch(module):
        if module.__name__ == "judge.scenario.load":
            from judge.scenario.model import Placement
            module.AT_REST = {}
            module._Loader._eras_clear = lambda self, setup, steps: False
            module._placement = Placement

    class After(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path, target=None):
            if name != "judge.scenario.load":
                return None
            sys.meta_path.remove(self)
            spec = importlib.util.find_spec(name)
            run = spec.loader.exec_module

            def exec_module(module):
                run(module)
                patch(module)
            spec.loader.exec_module = exec_module
            return spec

    sys.meta_path.insert(0, After())
if "launcher" in off:
    from judge.cli import main
else:
    from judge.launch import main
sys.exit(main())
"""

MECHANISMS = ("mypyc", "launcher", "preparse", "pool", "quick")
#: the mechanisms that act on each figure (the others do nothing there)
ACTS_ON = {"check-corpus": MECHANISMS, "check-big": MECHANISMS,
           "build": ("mypyc", "quick"), "search": ("mypyc", "quick")}
KEEP_AT = 1.10


@dataclass
class Variant:
    """A way to run a command: mechanisms off, and extra arguments."""

    name: str
    off: tuple[str, ...] = ()
    extra: tuple[str, ...] = ()

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items()
               if k not in ("JUDGE_PURE_PYTHON", "JUDGE_BENCH_OFF", "PYTHONDONTWRITEBYTECODE")}
        if "mypyc" in self.off:
            env["JUDGE_PURE_PYTHON"] = "1"
        env["JUDGE_BENCH_OFF"] = ",".join(self.off)
        return env


FULL = Variant("full")
#: each mechanism off; the pool's anchor is the run without the parsing child
VARIANTS = {"mypyc": Variant("no mypyc", ("mypyc",)),
            "launcher": Variant("no launcher", ("launcher",)),
            "preparse": Variant("no preparse", ("preparse",)),
            "pool": Variant("no pool", ("preparse",), ("--jobs", "1")),
            "quick": Variant("no quick path", ("quick",))}
ANCHOR = {"pool": "preparse"}


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
    command = [sys.executable, "-c", WRAPPER, *figure.args, *variant.extra]
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


def install_seconds(pure: bool, work: Path) -> float:
    """``pip install -e .`` of a copy of the tree into a new venv (the dependencies come from
    the pip cache), compiled or (``pure``) not."""
    tree = work / ("tree-pure" if pure else "tree")
    shutil.rmtree(tree, ignore_errors=True)
    shutil.copytree(ROOT, tree, ignore=shutil.ignore_patterns(
        ".venv", "node_modules", "build", "*.so", "__pycache__", "*.egg-info", ".git",
        "compiled.json", "_site"))
    subprocess.run([sys.executable, "-m", "venv", str(tree / ".venv")], check=True)
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_PURE_PYTHON"}
    if pure:
        env["JUDGE_PURE_PYTHON"] = "1"
    start = time.perf_counter()
    subprocess.run([str(tree / ".venv" / "bin" / "python"), "-m", "pip", "install", "-q",
                    "--disable-pip-version-check", "-e", "."], cwd=tree, env=env, check=True,
                   capture_output=True)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--pairs", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--big", type=int, default=10_000,
                        help="generated rulings for check-big (default 10,000)")
    parser.add_argument("--corpus", type=Path, default=ROOT,
                        help="the folder holding the corpus's rulings/ (default: the project)")
    parser.add_argument("--only", default="check-corpus,check-big,build,search",
                        help="the figures to measure, comma-separated")
    parser.add_argument("--install", action="store_true",
                        help="also time pip install -e . compiled and pure (slow)")
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
        if "search" in wanted:
            figures.append(Figure("search", ["search", "--corpus", str(corpus), "--index",
                                             str(work / "index"), "refresh"], work))
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
                pairs = paired.Pairs()
                without = VARIANTS[mechanism].name
                anchor = VARIANTS[ANCHOR[mechanism]].name if mechanism in ANCHOR else FULL.name
                for rc, rb in zip(check.rounds, build.rounds, strict=True):
                    # a mechanism that does not act on the build: its full run stands for both
                    pairs.project.append(rc[without] + rb.get(without, rb[FULL.name]))
                    pairs.anchor.append(rc[anchor] + rb.get(anchor, rb[FULL.name]))
                    pairs.loads.append(max(rc["load"], rb["load"]))
                print(paired.ratio_line(f"dev-main (check + build) without {mechanism} / with "
                                        f"it", pairs))
                table.append(("dev-main", mechanism, pairs.median, paired.spread(pairs.ratios),
                              0.0, ""))
        if args.install:
            pairs = paired.alternate(lambda: install_seconds(False, work),
                                     lambda: install_seconds(True, work), 1)
            print(paired.ratio_line("pip install -e . compiled (mypyc) / pure Python: what "
                                    "mypyc costs the first ./dev main after an engine edit",
                                    pairs))
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
