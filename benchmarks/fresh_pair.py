"""CPU time of a fresh ``judge search refresh`` on this tree against another revision's, in
turns (issue #29: under 0.15 s at 10,000 rulings).

    python benchmarks/fresh_pair.py --base main --corpus /tmp/lean-scale/corpus-10000

Each side is a clean copy of its code (this working tree; ``--base``, a git revision, by
``git archive``) with its own copy of the corpus's rulings, its index built and its bytecode
cached before timing, so each timed process only checks the index is current, imports and
answers. The rounds alternate the order of the sides; the CPU time of each child (user and
system, from ``getrusage``) is the figure, since wall time on a shared machine follows the load.
Prints each side's median and p10–p90, ``python -c pass``'s, the paired ratios (this tree to
the base) and the load before and after.
"""

from __future__ import annotations

import argparse
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

from fresh import fresh_env
from search import ROOT, _clean_copy, load, percentile


def search_source(code: Path) -> str:
    """``judge search refresh`` as the console script of the copy at ``code`` runs it (its
    pyproject.toml names the entry: ``judge.entry:main``, ``judge.cli:main`` before it). Not
    "try one, else the other": the editable install's finder would find a module missing
    from an older copy in this working tree instead."""
    scripts = tomllib.loads((code / "pyproject.toml").read_text(encoding="utf-8"))
    module, function = scripts["project"]["scripts"]["judge"].split(":")
    return (f"from {module} import {function} as main; import sys; "
            "sys.argv = ['judge', 'search', 'refresh']\n"
            "try:\n    main()\nexcept SystemExit:\n    pass")


def cpu_of(code: Path, source: str, cache: Path, where: Path) -> float:
    """The CPU seconds of one fresh ``python -c source`` with ``code`` first on the path."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-c", source], cwd=where,
                          env=fresh_env(code, cache), capture_output=True, text=True, timeout=600)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"{source!r} failed in {code}:\n{done.stderr}")
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def code_copy(revision: str | None, into: Path) -> Path:
    """A clean copy of the project's code in ``into``: this working tree's (``revision``
    None) or a git revision's (by ``git archive``)."""
    if revision is None:
        return _clean_copy(ROOT, into)
    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def spread(values: list[float]) -> str:
    return (f"median {statistics.median(values):.3f} (p10 {percentile(values, .1):.3f}, "
            f"p90 {percentile(values, .9):.3f})")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--base", default="main", help="the git revision to compare with")
    parser.add_argument("--corpus", type=Path, default=ROOT, help="a folder with rulings/")
    parser.add_argument("--rounds", type=int, default=15)
    args = parser.parse_args()
    print(f"fresh `judge search refresh`, CPU seconds, {args.rounds} rounds in turns, "
          f"corpus {args.corpus}; {load()}")
    with tempfile.TemporaryDirectory(prefix="judge-pair-") as tmp:
        sides: dict[str, tuple[Path, Path, Path]] = {}
        for name in ("this tree", args.base):
            home = Path(tmp) / name.replace(" ", "-")
            code = code_copy(None if name == "this tree" else args.base, home / "code")
            where = code
            if args.corpus.resolve() != ROOT:
                where = home / "corpus"
                shutil.copytree(args.corpus / "rulings", where / "rulings")
            cache = home / "pycache"
            for _ in range(2):  # the index built, the bytecode cached
                cpu_of(code, search_source(code), cache, where)
            sides[name] = (code, cache, where)
        ours, base, floor = [], [], []
        for i in range(args.rounds):
            order = [("this tree", ours), (args.base, base)]
            for name, into in order if i % 2 == 0 else order[::-1]:
                code, cache, where = sides[name]
                into.append(cpu_of(code, search_source(code), cache, where))
            code, cache, where = sides["this tree"]
            floor.append(cpu_of(code, "pass", cache, where))
    ratios = [a / b for a, b in zip(ours, base, strict=True)]
    print(f"this tree: {spread(ours)}")
    print(f"{args.base}: {spread(base)}")
    print(f"python -c pass: {spread(floor)}")
    print(f"paired ratio this tree / {args.base}: {spread(ratios)}; {load()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
