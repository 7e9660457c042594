"""The site's search index alone (``write_index``: the build's search phase, on which the
render waits) of this tree against another revision's, in turns: CPU seconds.

    python benchmarks/index_pair.py --base main --corpus /tmp/b3/scale/corpus-1000 --pairs 5

Each side is a clean copy of its code (as in build_pair.py), run in a fresh process that
reads the corpus's search documents (untimed), writes the index into a new folder and
reports the CPU seconds of the writing alone. The pairs alternate the order of the sides.
Prints each pair, the median and spread of the paired ratios (this tree / the base) with the
load, and whether the two indexes of the last pair are the same bytes.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import paired
from build_pair import differences
from fresh import fresh_env
from fresh_pair import code_copy

_WRITE = ("import sys, time\nfrom pathlib import Path\n"
          "from judge.search.documents import corpus_documents\n"
          "from judge.search.static import write_index\n"
          "docs, terms, rulesets = corpus_documents(Path(sys.argv[1]))\n"
          "start = time.process_time()\n"
          "write_index(docs, Path(sys.argv[2]), glossary=terms, rulesets=rulesets)\n"
          "print(time.process_time() - start)")


def write(code: Path, cache: Path, corpus: Path, out: Path) -> float:
    """CPU seconds of one ``write_index`` of ``corpus``'s documents into ``out`` by
    ``code``."""
    shutil.rmtree(out, ignore_errors=True)
    done = subprocess.run([sys.executable, "-c", _WRITE, str(corpus), str(out)], cwd=code,
                          env=fresh_env(code, cache), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"write_index failed in {code}:\n{done.stderr[-2000:]}")
    return float(done.stdout.split()[-1])


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", default="main", help="the git revision to compare with")
    parser.add_argument("--corpus", type=Path, required=True, help="a folder with rulings/")
    parser.add_argument("--pairs", type=int, default=5)
    args = parser.parse_args()
    print(paired.machine())
    print(f"write_index of {args.corpus}: this tree against {args.base}, {args.pairs} pairs")
    corpus = args.corpus.resolve()
    with tempfile.TemporaryDirectory(prefix="judge-index-pair-") as tmp:
        sides: dict[str, tuple[Path, Path, Path]] = {}
        for name, revision in (("this", None), ("base", args.base)):
            home = Path(tmp) / name
            code = code_copy(revision, home / "code")
            sides[name] = (code, home / "pycache", home / "index")
            write(*sides[name][:2], corpus, sides[name][2])  # untimed: the bytecode cache

        cpu = paired.Pairs()
        for i in range(args.pairs):
            order = ("this", "base") if i % 2 == 0 else ("base", "this")
            got = {name: write(*sides[name][:2], corpus, sides[name][2]) for name in order}
            cpu.add(got["this"], got["base"])
            print(f"pair {i + 1}: this tree {got['this']:.2f} s CPU, {args.base} "
                  f"{got['base']:.2f} s CPU; load {cpu.loads[-1]:.2f}", flush=True)
        print(paired.ratio_line(f"CPU, this tree / {args.base}", cpu))
        differ = differences(sides["this"][2], sides["base"][2])
        print(f"indexes: {len(differ)} files differ" + (f" ({', '.join(differ[:10])})"
                                                         if differ else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
