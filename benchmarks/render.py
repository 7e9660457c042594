"""Hostile Markdown: rendering time against plain text of the same length, as texts grow.

Run from the repository root (a script, not a test)::

    python benchmarks/render.py               # 1k, 2k, 4k and 8k repeats, 5 pairs each
    python benchmarks/render.py --pairs 9 --sizes 1000 4000 16000

A ruling's texts are Markdown, rendered by ``judge.site.markup.render_markdown`` (Python-
Markdown, then nh3; a text of plain paragraphs is written directly, so both sides here go
through ``markdown_html``, the way every other text takes). Issue 25 found texts that
``judge check`` passed in under a second and that then stalled the build: an answer of
``[a](`` written 8,000 times (32 KB) took 73 s to render and write, 8,000 reference links
289 s for one render. Python-Markdown's link patterns looked for the closing bracket or
parenthesis of every ``[`` by walking the rest of the text, again after each link they
replaced; judge/site/markup.py now bounds that search.

Each shape below is rendered at several sizes (repeats of its unit), each time beside plain
prose of the same length (the anchor: the same function, the same settings), alternately,
``--pairs`` times. Per size it prints the median of the paired ratios (shape / plain), their
spread (lowest to highest) and the load average. Rendering is linear when the ratio stays the
same as the text grows: the last column is the median ratio at the size against the median
ratio at the smallest size (1 when linear, 2, 4, 8 when quadratic, for sizes doubling).
CPU time of this process (``time.process_time``), so other processes on the machine count
less.

Target: for every shape, the ratio at the largest size within 2x the ratio at the smallest
(sizes 1k to 8k: a quadratic cost would give 8x). A size longer than
``judge.limits.MAX_TEXT_CHARS`` is marked ``*``: ``judge check`` refuses such a text, so the
build never renders it; it is measured all the same, to show the growth.

The last table renders each shape at the limit (MAX_TEXT_CHARS characters) against plain text
of that length: the bound docs/limits.md states. Shapes that Python-Markdown renders with
more work per character than plain text (emphasis, code spans) count too; none of them grows
faster than its length within the limit.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.limits import MAX_TEXT_CHARS  # noqa: E402
from judge.site.markup import markdown_html  # noqa: E402

TARGET_GROWTH = 2.0


def references(n: int) -> str:
    """``n`` reference links in one paragraph, and their ``n`` definitions."""
    uses = " ".join(f"[l{i}][r{i}]" for i in range(n))
    definitions = "\n".join(f"[r{i}]: ../x{i}/" for i in range(n))
    return f"{uses}\n\n{definitions}\n"


#: name -> the text of ``n`` repeats
SHAPES: dict[str, Callable[[int], str]] = {
    "[a]( repeated (issue 25)": lambda n: "[a](" * n,
    "reference links (issue 25)": references,
    "![a]( repeated": lambda n: "![a](" * n,
    "[a  repeated (never closed)": lambda n: "[a " * n,
    "[[x] repeated (nested, never closed)": lambda n: "[[x] " * n,
    "(a repeated in a link address": lambda n: "[a](" + "(a" * n,
    "<a  repeated (a tag never closed)": lambda n: "<a " * n,
    "[a]{.interpretation  repeated": lambda n: "[a]{.interpretation " * n,
    "*a* repeated (emphasis)": lambda n: "*a* " * n,
    "`a` repeated (code spans)": lambda n: "`a` " * n,
}


def plain(length: int) -> str:
    """Prose of ``length`` characters: words, sentences and paragraphs, no markup."""
    sentence = "The refresh happens when the deck is empty and the trash holds cards. "
    paragraph = sentence * 6 + "\n\n"
    return (paragraph * (length // len(paragraph) + 1))[:length]


def cpu(text: str) -> float:
    start = time.process_time()
    markdown_html(text)
    return time.process_time() - start


def paired(text: str, pairs: int) -> list[float]:
    """Ratios of ``text``'s rendering time to plain text of its length, measured in turn."""
    anchor = plain(len(text))
    cpu(text), cpu(anchor)  # warm up (compiled patterns, the Markdown instance)
    ratios = []
    for i in range(pairs):
        if i % 2:
            base, seconds = cpu(anchor), cpu(text)
        else:
            seconds, base = cpu(text), cpu(anchor)
        ratios.append(seconds / max(base, 1e-6))
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", type=int, default=5)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 8000])
    args = parser.parse_args()
    print(f"MAX_TEXT_CHARS = {MAX_TEXT_CHARS}; {args.pairs} pairs per size; CPU seconds")
    worst = 0.0
    for name, make in SHAPES.items():
        print(f"\n{name}")
        print(f"  {'repeats':>8} {'chars':>8} {'shape s':>8} {'plain s':>8} {'ratio':>7} "
              f"{'spread':>15} {'load':>5} {'growth':>7}")
        first = 0.0
        for n in args.sizes:
            text = make(n)
            ratios = paired(text, args.pairs)
            median = statistics.median(ratios)
            first = first or median
            growth = median / first
            if n != args.sizes[0]:
                worst = max(worst, growth)
            over = "*" if len(text) > MAX_TEXT_CHARS else " "
            print(f"  {n:8d} {len(text):8d}{over}{cpu(text):8.3f} {cpu(plain(len(text))):8.3f} "
                  f"{median:7.1f} {min(ratios):7.1f}-{max(ratios):<7.1f} "
                  f"{os.getloadavg()[0]:5.2f} {growth:7.2f}")
    print(f"\nat the limit: each shape cut to {MAX_TEXT_CHARS} characters against plain text")
    print(f"  {'shape':40} {'shape s':>8} {'ratio':>7} {'spread':>15}")
    bound = 0.0
    for name, make in SHAPES.items():
        text = make(MAX_TEXT_CHARS)[:MAX_TEXT_CHARS]
        ratios = paired(text, args.pairs)
        bound = max(bound, statistics.median(ratios))
        print(f"  {name:40} {cpu(text):8.3f} {statistics.median(ratios):7.1f} "
              f"{min(ratios):7.1f}-{max(ratios):<7.1f}")
    verdict = "met" if worst <= TARGET_GROWTH else "MISSED"
    print(f"\ntarget: ratio at each size within {TARGET_GROWTH}x the ratio at the smallest; "
          f"worst {worst:.2f} ({verdict}); at the limit, the slowest shape is {bound:.0f}x "
          f"plain text (load {os.getloadavg()[0]:.2f})")


if __name__ == "__main__":
    main()
