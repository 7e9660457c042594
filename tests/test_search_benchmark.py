"""benchmarks/search.py runs to the end on a tiny corpus and prints every figure it promises
(issue #28: a benchmark that silently breaks measures nothing): the query times of judge
search and of its anchor with the paired ratios and the load, the fresh process, the first
search's bytes and the keystroke-to-results times of the site, on the corpus and on generated
rulings. No figure is asserted: the targets are checked by running the benchmark itself."""

from __future__ import annotations

import os
import subprocess
import sys

from judge.paths import project_root

ROOT = project_root()


def test_the_search_benchmark_runs_on_a_tiny_corpus() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "search.py"), "--corpus",
         str(ROOT / "tests" / "fixtures" / "site_corpus"), "--docs", "40", "--rounds", "1",
         "--runs", "1", "--typed", "1"],
        capture_output=True, text=True, cwd=ROOT, timeout=1200,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    for wanted in ("== judge search on the corpus", "== judge search on 40 generated rulings",
                   "paired ratio median", "target judge search p95 <= the anchor's",
                   "the anchor left out", "one `judge search refresh` in a fresh process",
                   "compiled at every start: judge search median",
                   "with bytecode caches: judge search median", "target under 0.25 s",
                   "CPU time (the machine's other work moves it less): judge search median",
                   "issue #29's target under 0.15 s of CPU",
                   "== the search page of the corpus", "== the search page of 40 generated",
                   "target first search <= 200 KB", "target first search <= 300 KB",
                   "then kept for offline use", "target max <= 150 ms"):
        assert wanted in out, (wanted, out)
    for lang in ("ja", "en", "zh-Hans"):
        assert f"first search {lang}" in out and f"last keystroke to results {lang}" in out
    assert out.count("load ") >= 8  # the load beside every figure
    # the first search counts the page, its scripts and the index the query needs
    first = [line for line in out.splitlines() if line.startswith("first search en")]
    assert all("search-engine.js" in line and "index" in line for line in first), first


def test_the_fresh_pair_benchmark_runs_against_a_revision() -> None:
    """benchmarks/fresh_pair.py times this tree against a git revision (here HEAD) on the
    fixture corpus and prints both sides, the interpreter, the paired ratios and the load."""
    done = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "fresh_pair.py"), "--base", "HEAD",
         "--corpus", str(ROOT / "tests" / "fixtures" / "site_corpus"), "--rounds", "2"],
        capture_output=True, text=True, cwd=ROOT, timeout=600,
        env=dict(os.environ, PYTHONDONTWRITEBYTECODE="1"))
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    for wanted in ("this tree: median", "HEAD: median", "python -c pass: median",
                   "paired ratio this tree / HEAD: median"):
        assert wanted in out, (wanted, out)
    assert out.count("load ") == 2
