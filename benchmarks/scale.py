"""The scale curve: ``judge check`` and ``judge db`` on 250, 1,000, 4,000 and 10,000 rulings.

Run from the repository root (a script, not a test; the full curve takes many minutes)::

    python benchmarks/scale.py                        # 250 1000 4000 10000, 3 pairs each
    python benchmarks/scale.py --sizes 250 1000 --pairs 5
    python benchmarks/scale.py --build                # also judge build (slow)
    python benchmarks/scale.py --sizes 10000 --corpora /tmp/scale   # keep and reuse them

For each size it writes that many rulings with benchmarks/site.py's generator, then runs, in
fresh processes of the console script and in turns with the floor (a fresh Python parsing
the same files with ``tomli``, the parser ``judge check`` uses), ``--pairs`` times:

- ``judge check rulings`` (its default processes) and ``judge check rulings --jobs 1``;
- ``judge db`` (the SQLite export; every ruling replayed);
- with ``--build``, ``judge build`` (search included).

It prints, per size and command, the median and spread of the ratios to the floor with the
load (benchmarks/paired.py), then the curve: median seconds, peak memory (the largest
``ru_maxrss`` of the command's processes) and, for the build, the site's size; the growth
from one size to the next against the growth of the rulings (1.00: linear); and what
100,000 rulings would take, extrapolated linearly from the two largest sizes (time and
memory), which docs/architecture.md ("Scale") quotes.

Targets (issue 29, item 3): at 10,000 rulings, peak memory of ``judge check --jobs 1`` and
``judge db`` at most 250 MB (both read the rulings as a stream: ``judge check`` replays each
ruling as it is loaded, ``judge db`` loads each again as its rows are written), of ``judge
build`` at most 600 MB, the site at most 50 KB per ruling; the lines "target at 10,000" say
whether each was met.

``--corpora DIR`` keeps the generated corpora in ``DIR/corpus-N`` and reuses one that is
there (the generator is deterministic: the same N, the same files), so that runs after the
first skip writing 10,000 rulings.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import paired  # noqa: E402
from check import FLOOR_TOMLI, files_read  # noqa: E402

#: Runs a command and prints its wall seconds and the largest ru_maxrss (KiB) of the
#: processes it waited for (the command, and the workers it waited for in turn).
MEASURE = """
import resource, subprocess, sys, time
start = time.perf_counter()
done = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
seconds = time.perf_counter() - start
if done.returncode:
    sys.stderr.write(done.stderr.decode(errors="replace")[-3000:])
    sys.exit(done.returncode)
print(seconds, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""
TARGET_MB = {"check --jobs 1": 250, "db": 250, "build": 600}
TARGET_SITE_KB = 50


@dataclass
class Curve:
    seconds: dict[int, list[float]] = field(default_factory=dict)
    peak_kib: dict[int, list[int]] = field(default_factory=dict)
    site_bytes: dict[int, int] = field(default_factory=dict)


def generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("site_bench", ROOT / "benchmarks" / "site.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def judge() -> list[str]:
    script = Path(sys.executable).parent / "judge"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "import sys; sys.argv[0] = 'judge'; "
            "from judge.cli import main; sys.exit(main())"]


def measured(command: list[str], cwd: Path, out: Path | None = None) -> tuple[float, int]:
    """Wall seconds and peak KiB of ``command`` (``out`` removed first, untimed)."""
    if out is not None:
        if out.is_dir():
            shutil.rmtree(out)
        else:
            out.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    done = subprocess.run([sys.executable, "-c", MEASURE, *command], cwd=cwd, env=env,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"{' '.join(command[:4])} ... exited {done.returncode}:\n"
                         f"{done.stderr[-3000:]}")
    seconds, kib = done.stdout.split()
    return float(seconds), int(kib)


#: Written last into a kept corpus: the generator finished it.
COMPLETE = "complete.txt"


def _complete(corpus: Path, size: int) -> bool:
    """Whether ``corpus`` is a kept corpus of ``size`` rulings that was written to its end."""
    try:
        return (corpus / COMPLETE).read_text(encoding="utf-8").strip() == str(size)
    except OSError:
        return False


def folder_bytes(folder: Path) -> int:
    return sum(p.stat().st_size for p in folder.rglob("*") if p.is_file())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 1000, 4000, 10_000])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--build", action="store_true", help="also judge build (slow)")
    parser.add_argument("--corpora", type=Path, metavar="DIR",
                        help="keep the generated corpora in DIR and reuse them")
    args = parser.parse_args(argv)
    print(f"the scale curve\n{paired.machine()}")
    from judge.data import load_glossary

    gen = generator()
    glossary = load_glossary()
    names = ["check", "check --jobs 1", "db", *(["build"] if args.build else [])]
    curves = {name: Curve() for name in names}
    with tempfile.TemporaryDirectory(prefix="judge-scale-") as tmp:
        work = Path(tmp)
        for size in args.sizes:
            corpus = (args.corpora or work) / f"corpus-{size}"
            if args.corpora is None or not _complete(corpus, size):
                if corpus.exists():
                    shutil.rmtree(corpus)
                gen.write_corpus(corpus, size, glossary)
                (corpus / COMPLETE).write_text(f"{size}\n", encoding="utf-8")
            files = [str(p) for p in files_read(corpus / "rulings", ROOT / "data")]
            floor = [sys.executable, "-c", FLOOR_TOMLI, *files]
            db, site = work / f"db-{size}.db", work / f"site-{size}"
            commands: dict[str, tuple[list[str], Path | None]] = {
                "check": ([*judge(), "check", "rulings"], None),
                "check --jobs 1": ([*judge(), "check", "rulings", "--jobs", "1"], None),
                "db": ([*judge(), "db", "--out", str(db)], db),
                "build": ([*judge(), "build", "--out", str(site)], site)}
            measured(commands["check"][0], corpus)  # untimed: the bytecode caches
            pairs = {name: paired.Pairs() for name in names}
            for i in range(args.pairs):
                order = ["floor", *names]
                if i % 2:
                    order.reverse()
                got = {}
                for name in order:
                    if name == "floor":
                        got[name] = measured(floor, corpus)
                    else:
                        got[name] = measured(commands[name][0], corpus, commands[name][1])
                for name in names:
                    pairs[name].add(got[name][0], got["floor"][0])
                    curves[name].seconds.setdefault(size, []).append(got[name][0])
                    curves[name].peak_kib.setdefault(size, []).append(got[name][1])
            if args.build:
                curves["build"].site_bytes[size] = folder_bytes(site)
                gen.describe_kinds(site, size)
            for name in names:
                print(paired.ratio_line(f"judge {name}, {size:,} rulings / floor (python + "
                                        f"tomli parsing the same files)", pairs[name]))
            if args.corpora is None:
                shutil.rmtree(corpus)
    print("\nthe curve (median seconds; peak memory, the largest of the pairs' runs; growth "
          "against the rulings' growth, 1.00 linear):")
    sizes = args.sizes
    for name in names:
        curve = curves[name]
        print(f"judge {name}:")
        for k, size in enumerate(sizes):
            seconds = statistics.median(curve.seconds[size])
            peak = max(curve.peak_kib[size]) / 1024
            growth = ""
            if k:
                prev = sizes[k - 1]
                ratio = size / prev
                growth = (f"  time x{seconds / statistics.median(curve.seconds[prev]):.2f}, "
                          f"memory x{peak / (max(curve.peak_kib[prev]) / 1024):.2f} for "
                          f"rulings x{ratio:.2f}")
            site = ""
            if size in curve.site_bytes:
                site = (f", site {curve.site_bytes[size] / 1e6:.0f} MB "
                        f"({curve.site_bytes[size] / size / 1e3:.1f} KB a ruling)")
            print(f"  {size:>7,} rulings: {seconds:8.2f} s, peak {peak:7.0f} MB{site}{growth}")
        if len(sizes) >= 2:
            a, b = sizes[-2], sizes[-1]
            tb = statistics.median(curve.seconds[b])
            ma, mb = (max(curve.peak_kib[s]) / 1024 for s in (a, b))
            per_m = (mb - ma) / (b - a)
            target = 100_000
            # time in proportion to the rulings (a loaded machine's seconds at two sizes are too
            # noisy for a slope); memory along the line through the two largest sizes
            print(f"  extrapolated to {target:,} rulings: {tb / b * target:,.0f} s (in "
                  f"proportion to {b:,}), peak {mb + per_m * (target - b):,.0f} MB (linear from "
                  f"{a:,} and {b:,})")
        if name in TARGET_MB and sizes[-1] >= 10_000:
            peak = max(curves[name].peak_kib[sizes[-1]]) / 1024
            print(f"  target at {sizes[-1]:,}: peak <= {TARGET_MB[name]} MB: {peak:.0f} MB "
                  f"({'met' if peak <= TARGET_MB[name] else 'MISSED'})")
    print(f"(load {paired.load():.2f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
