"""The quiz's own work, this tree against another revision's, in turns: CPU seconds.

    python benchmarks/quiz_pair.py --base main --corpus /tmp/b3/scale/corpus-1000 --pairs 3

The quiz phase of ``judge build`` runs in a process of its own beside the render and the
search index, so what a change saves there is a few percent of the whole build's CPU, within
the noise of a shared machine (benchmarks/build_pair.py). This times the quiz's work alone,
in a fresh process of each side's clean copy of the code (``--base``, a git revision, by
``git archive``; the order of the sides alternating from pair to pair): the bank of the
replayed corpus (``build_bank``, slimmed as the build makes it) and the three languages'
banks as the build writes them (``bank_entries`` through the API's JSON and gzip), each in
CPU seconds of that process; the load and the replay of the corpus before are not timed.
It prints both sides' seconds and a digest of the three banks' bytes for each pair, then the
median and spread of the paired ratios (this tree / the base) and the load, and whether the
two sides wrote the same bytes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import tempfile
from pathlib import Path

import paired
from fresh import fresh_env
from fresh_pair import code_copy

#: Run in the side's code copy: prints "BANK EXPORT DIGEST".
_MEASURE = """
import gzip, hashlib, io, sys, time
from pathlib import Path
from judge.corpus import load_corpus
from judge.i18n import LANGS
from judge.quiz import export
from judge.quiz.bank import build_bank
from judge.site.api import dumps

corpus = load_corpus(Path(sys.argv[1]))
rulings = list(corpus.rulings)
start = time.process_time()
bank = build_bank(((r.id, r.scenario, r.replays) for r in rulings), corpus.rulesets, slim=True)
made = time.process_time()
topics = {r.id: r.topic for r in rulings}
glossary = {t.id: t.names for t in corpus.glossary.values()}
extra = {"boards": export.Boards()} if hasattr(export, "Boards") else {}
outs = [io.BytesIO() for _ in LANGS]
packs = [gzip.GzipFile(filename="", mode="wb", fileobj=o, compresslevel=6, mtime=0)
         for o in outs]
entries = [export.bank_entries(bank, lang, corpus.rulesets, topics, {}, glossary, **extra)
           for lang in LANGS]
for questions in zip(*entries):
    for pack, q in zip(packs, questions):
        pack.write(dumps(q))
for pack in packs:
    pack.close()
done = time.process_time()
digest = hashlib.sha256(b"".join(o.getvalue() for o in outs)).hexdigest()[:16]
print(made - start, done - made, digest)
"""


def measure(code: Path, cache: Path, corpus: Path) -> tuple[float, float, str]:
    """The bank's and the export's CPU seconds and the banks' digest, by ``code``."""
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(corpus)], cwd=code,
                          env=fresh_env(code, cache), capture_output=True, text=True)
    if done.returncode != 0:
        raise SystemExit(f"the quiz's measure failed in {code}:\n{done.stderr[-2000:]}")
    bank, export, digest = done.stdout.split()[-3:]
    return float(bank), float(export), digest


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--base", default="main", help="the git revision to compare with")
    parser.add_argument("--corpus", type=Path, required=True, help="a folder with rulings/")
    parser.add_argument("--pairs", type=int, default=3)
    args = parser.parse_args()
    corpus = args.corpus.resolve()
    print(paired.machine())
    print(f"the quiz's bank and banks of {args.corpus}: this tree against {args.base}, "
          f"{args.pairs} pairs")
    with tempfile.TemporaryDirectory(prefix="judge-quiz-pair-") as tmp:
        sides: dict[str, tuple[Path, Path]] = {}
        for name in ("this tree", args.base):
            home = Path(tmp) / ("this" if name == "this tree" else "base")
            sides[name] = (code_copy(None if name == "this tree" else args.base,
                                     home / "code"), home / "pycache")
        bank, export, total = paired.Pairs(), paired.Pairs(), paired.Pairs()
        digests: set[str] = set()
        for i in range(args.pairs):
            order = ["this tree", args.base]
            got = {name: measure(*sides[name], corpus)
                   for name in (order if i % 2 == 0 else order[::-1])}
            ours, base = got["this tree"], got[args.base]
            bank.add(ours[0], base[0])
            export.add(ours[1], base[1])
            total.add(ours[0] + ours[1], base[0] + base[1])
            digests.update((ours[2], base[2]))
            print(f"pair {i + 1}: this tree {ours[0]:.2f} + {ours[1]:.2f} s CPU ({ours[2]}); "
                  f"{args.base} {base[0]:.2f} + {base[1]:.2f} s CPU ({base[2]}); "
                  f"load {paired.load():.2f}", flush=True)
        print(paired.ratio_line(f"bank CPU, this tree / {args.base}", bank))
        print(paired.ratio_line(f"export CPU, this tree / {args.base}", export))
        print(paired.ratio_line(f"quiz CPU, this tree / {args.base}", total))
        print("banks: the same bytes" if len(digests) == 1 else
              f"banks: DIFFER ({', '.join(sorted(digests))})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
