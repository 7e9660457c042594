"""``judge build`` of this tree against another revision's, in turns: wall and CPU seconds.

    python benchmarks/build_pair.py --base main --corpus /tmp/b3/scale/corpus-1000 --pairs 3

Each side is a clean copy of its code (this working tree; ``--base``, a git revision, by
``git archive``), its bytecode cached by a first, untimed build. The pairs alternate the order
of the sides; each build is a fresh process writing a new site (the previous one removed,
untimed). For each pair it prints both sides' wall seconds and CPU seconds (user and system of
the build and every process it forks: the render workers, the quiz's process), then the
median and spread of the paired ratios (this tree / the base) and the load. On a shared
machine the CPU seconds follow the code more closely than the wall seconds, which follow the
load. ``--diff``: after the last pair, compare the two sites file by file (the sandbox's
archive of the engine's source and the service worker's version, which follow the code, may
differ).
"""

from __future__ import annotations

import argparse
import filecmp
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import paired
from fresh import fresh_env
from fresh_pair import code_copy
from search import ROOT

_BUILD = ("import sys; sys.argv = ['judge', 'build', '--corpus', sys.argv[1], '--out', "
          "sys.argv[2]]\nfrom judge.cli import main\nsys.exit(main())")
#: Files that pack the code itself, so differ between two revisions whatever they render.
FOLLOW_THE_CODE = {"sandbox/judge.zip", "sw.js"}


def build(code: Path, cache: Path, corpus: Path, out: Path) -> tuple[float, float]:
    """Wall and CPU seconds of one ``judge build`` of ``corpus`` into ``out`` by ``code``."""
    shutil.rmtree(out, ignore_errors=True)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run([sys.executable, "-c", _BUILD, str(corpus), str(out)],
                          cwd=code, env=fresh_env(code, cache), capture_output=True, text=True)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise SystemExit(f"judge build failed in {code}:\n{done.stdout[-2000:]}"
                         f"{done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def differences(a: Path, b: Path) -> list[str]:
    """The files that differ between two sites, or that only one has."""
    out: list[str] = []

    def walk(cmp: filecmp.dircmp[str], prefix: str) -> None:
        out.extend(prefix + n for n in cmp.left_only + cmp.right_only + cmp.funny_files)
        _, mismatch, errors = filecmp.cmpfiles(cmp.left, cmp.right, cmp.common_files,
                                               shallow=False)
        out.extend(prefix + n for n in mismatch + errors)
        for name, sub in cmp.subdirs.items():
            walk(sub, f"{prefix}{name}/")

    walk(filecmp.dircmp(a, b), "")
    return sorted(out)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", default="main", help="the git revision to compare with")
    parser.add_argument("--corpus", type=Path, required=True, help="a folder with rulings/")
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--diff", action="store_true",
                        help="compare the two sites built by the last pair")
    args = parser.parse_args()
    print(paired.machine())
    print(f"judge build of {args.corpus}: this tree against {args.base}, {args.pairs} pairs")
    with tempfile.TemporaryDirectory(prefix="judge-build-pair-") as tmp:
        sides: dict[str, tuple[Path, Path, Path]] = {}
        for name in ("this tree", args.base):
            home = Path(tmp) / ("this" if name == "this tree" else "base")
            code = code_copy(None if name == "this tree" else args.base, home / "code")
            if (ROOT / "node_modules").exists():  # Pyodide, which the sandbox packs
                (code / "node_modules").symlink_to((ROOT / "node_modules").resolve())
            sides[name] = (code, home / "pycache", home / "site")
            build(code, home / "pycache", args.corpus.resolve(), home / "site")  # untimed
        wall, cpu = paired.Pairs(), paired.Pairs()
        for i in range(args.pairs):
            order = ["this tree", args.base]
            got = {}
            for name in order if i % 2 == 0 else order[::-1]:
                code, cache, out = sides[name]
                got[name] = build(code, cache, args.corpus.resolve(), out)
            ours, base = got["this tree"], got[args.base]
            wall.add(ours[0], base[0])
            cpu.add(ours[1], base[1])
            print(f"pair {i + 1}: this tree {ours[0]:.1f} s wall, {ours[1]:.1f} s CPU; "
                  f"{args.base} {base[0]:.1f} s wall, {base[1]:.1f} s CPU; "
                  f"load {paired.load():.2f}", flush=True)
        print(paired.ratio_line(f"wall, this tree / {args.base}", wall))
        print(paired.ratio_line(f"CPU, this tree / {args.base}", cpu))
        if args.diff:
            differ = differences(sides["this tree"][2], sides[args.base][2])
            other = [d for d in differ if d not in FOLLOW_THE_CODE]
            print(f"sites: {len(differ)} files differ"
                  + (f" ({', '.join(differ)})" if differ else "")
                  + ("; only files that pack the code" if differ and not other else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
