"""Engine runs per site build, and the whole build's time against ``judge check``.

Run from the repository root (a script, not a test)::

    python benchmarks/engine_runs.py                 # the project's corpus
    python benchmarks/engine_runs.py --rulings 300   # also 300 rulings of benchmarks/site.py
    python benchmarks/engine_runs.py --pairs 5       # 5 pairs (default 3)

For each corpus it prints:

1. the engine runs one site build makes (``judge build --no-search``, in this process, counted
   by :func:`judge.scenario.run.engine_runs`) beside the (ruling, rule set, branch) traces the
   corpus holds, and beside what the site's load used to make before the runner returned
   traces: it replayed each ruling again for the results and outcomes, and replayed every
   prefix of the steps of each group of rule sets for the boards, that is
   ``2 x traces + sum(steps + 1 over the replay groups)`` (1,551 for the 133 rulings of the
   corpus when the traces came in; the figure is worked out here from the same corpus);
2. the whole build (``--no-search``, in this process) in turns with ``judge check`` on the
   same rulings (in this process too), ``--pairs`` times: the median and spread of the
   paired ratios, with the load; and the same for the runs the old load made beside the
   corpus' own (``run_once`` on each prefix, ``replay`` once more).
"""

from __future__ import annotations

import argparse
import dataclasses
import importlib.util
import shutil
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(ROOT / "benchmarks"))

import paired  # noqa: E402

from judge.check import run_checks  # noqa: E402
from judge.corpus import load_glossary  # noqa: E402
from judge.engine.choices import ScriptThenBranch  # noqa: E402
from judge.scenario.run import engine_runs, replay, run_once  # noqa: E402
from judge.site.build import build_site  # noqa: E402
from judge.site.load import SiteInput, load  # noqa: E402

#: The old site build's engine runs on the project's corpus (133 rulings, 539 traces).
OLD_PROJECT_RUNS = 1551


def old_runs(site: SiteInput) -> int:
    """What the site's load made before it read the corpus' traces."""
    traces = site.corpus.trace_count
    groups = sum(len(d.scenario.steps) + 1 for d in site.rulings for _ in d.replays)
    return 2 * traces + groups


def old_extra_seconds(site: SiteInput) -> float:
    """The time of the runs the old load made beside the corpus' own: each ruling replayed
    again under each rule set, and each prefix of the steps of each replay group."""
    start = time.perf_counter()
    for data in site.rulings:
        scenario = data.scenario
        for rules in scenario.rulesets:
            replay(scenario, site.corpus.rulesets[rules])
        for group in data.replays:
            rules = site.corpus.rulesets[group.rules[-1]]
            for k in range(len(scenario.steps) + 1):
                partial = dataclasses.replace(scenario, steps=scenario.steps[:k])
                run_once(partial, rules, ScriptThenBranch(list(scenario.choices)))
    return time.perf_counter() - start


def measure(name: str, root: Path, pairs: int, work: Path) -> None:
    site = load(root)
    traces = site.corpus.trace_count
    before = engine_runs()
    out = work / f"site-{name}"
    build_site(out, root=root, allow_failing=True)
    runs = engine_runs() - before
    old = old_runs(site)
    print(f"{name}: {len(site.rulings)} rulings, {traces} (ruling, rule set, branch) traces")
    print(f"  engine runs per site build   {runs:>6,}  (old load: {old:,} = 2 x {traces} + "
          f"{old - 2 * traces} prefixes; {old / runs:.2f}x as many)")
    if name == "project":
        print(f"  old figure when the traces came in: {OLD_PROJECT_RUNS:,}")
    build = paired.alternate(
        lambda: paired.timed(lambda: build_site(out, root=root, allow_failing=True)),
        lambda: paired.timed(lambda: run_checks([root / "rulings"])), pairs)
    print("  " + paired.ratio_line("whole site build (no search, in process) / judge check "
                                   "(in process)", build))
    extra = paired.alternate(lambda: paired.timed(lambda: old_extra_seconds(site)),
                             lambda: paired.timed(lambda: run_checks([root / "rulings"])),
                             pairs)
    print("  " + paired.ratio_line("the old load's extra runs / judge check (in process)",
                                   extra))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulings", type=int, default=0,
                        help="also a corpus of this many generated rulings (benchmarks/site.py)")
    parser.add_argument("--corpus", type=Path, default=ROOT,
                        help="the folder holding rulings/ (default: the project)")
    parser.add_argument("--pairs", type=int, default=3,
                        help="builds, each beside a judge check, in turns (default 3)")
    args = parser.parse_args(argv)
    work = Path(tempfile.mkdtemp(prefix="judge-runs-bench-"))
    try:
        print(paired.machine())
        measure("project" if args.corpus == ROOT else str(args.corpus), args.corpus.resolve(),
                args.pairs, work)
        if args.rulings:
            spec = importlib.util.spec_from_file_location("site_bench",
                                                          ROOT / "benchmarks" / "site.py")
            assert spec is not None and spec.loader is not None
            bench = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(bench)
            corpus = work / "generated"
            bench.write_corpus(corpus, args.rulings, load_glossary())
            measure(f"generated ({args.rulings})", corpus, args.pairs, work)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
