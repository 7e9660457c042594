"""The judge-training quiz: what the corpus gives, and the build time it adds.

Run from the repository root (a script, not a test)::

    python benchmarks/quiz.py                 # the project's corpus, 3 pairs
    python benchmarks/quiz.py --pairs 5 --corpus DIR

First the figures of the bank (judge/quiz) the corpus gives: per topic, the rulings, those that
give at least one question, the questions (one per variant asked) and the variants beyond a
ruling's first question; the share of rulings that give one; the candidate wrong answers
dropped because their facts equal another answer's; and the replays the bank ran.

Then the build time the quiz adds: ``judge build`` (without the search index) with the quiz
(the project) against the same build without it (the anchor, ``build_site(quiz=False)``), in
turn, ``--pairs`` times (benchmarks/paired.py: median and spread of the paired ratios, and the
load). Wall seconds of whole builds, each into a fresh folder.
"""

from __future__ import annotations

import argparse
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from paired import alternate, machine, ratio_line, timed  # noqa: E402

from judge.corpus import load_corpus  # noqa: E402
from judge.quiz.bank import build_bank  # noqa: E402
from judge.site.build import build_site  # noqa: E402


def figures(root: Path) -> list[str]:
    corpus = load_corpus(root)
    bank = build_bank(((r.id, r.scenario, r.replays) for r in corpus.rulings), corpus.rulesets)
    by_ruling = bank.by_ruling()
    lines = ["topic             rulings  with a question  questions  variants"]
    topics = sorted({r.topic for r in corpus.rulings})
    total = [0, 0, 0, 0]
    for topic in topics:
        ids = [r.id for r in corpus.rulings if r.topic == topic]
        asked = [i for i in ids if i in by_ruling]
        questions = sum(len(by_ruling[i]) for i in asked)
        row = [len(ids), len(asked), questions, questions - len(asked)]
        total = [a + b for a, b in zip(total, row, strict=True)]
        lines.append(f"{topic or '-':<17} {row[0]:>7}  {row[1]:>15}  {row[2]:>9}  {row[3]:>8}")
    lines.append(f"{'all':<17} {total[0]:>7}  {total[1]:>15}  {total[2]:>9}  {total[3]:>8}")
    share = total[1] / max(total[0], 1)
    wrong = sum(len(v.answers) - 1 for v in bank.variants)
    sources: dict[str, int] = {}
    for v in bank.variants:
        for a in v.answers[1:]:
            sources[a.source] = sources.get(a.source, 0) + 1
    lines += [
        f"rulings with at least one question: {total[1]} of {total[0]} ({share:.0%})",
        f"wrong answers kept: {wrong} ("
        + ", ".join(f"{k} {n}" for k, n in sorted(sources.items())) + ")",
        f"candidate wrong answers dropped as indistinguishable: {bank.dropped}",
        f"variants made but dropped (invalid replay, fewer than 3 answers, or telling the "
        f"same as another): {bank.variants_dropped}",
        f"replays the bank ran (the corpus's own reused): {bank.replays}",
    ]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=3)
    parser.add_argument("--corpus", type=Path, default=None,
                        help="a folder holding rulings/ (default: the project)")
    args = parser.parse_args()
    root = args.corpus or Path(__file__).resolve().parent.parent
    print(machine())
    for line in figures(root):
        print(line)
    work = Path(tempfile.mkdtemp(prefix="quiz-bench-"))
    try:
        def build(quiz: bool) -> float:
            out = work / ("with" if quiz else "without")
            shutil.rmtree(out, ignore_errors=True)
            return timed(lambda: build_site(out, root=root, allow_failing=True, quiz=quiz))

        pairs = alternate(lambda: build(True), lambda: build(False), args.pairs)
        print(ratio_line("judge build with the quiz / without it", pairs))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
