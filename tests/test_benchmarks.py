"""Every benchmark of benchmarks/ runs (issue 29, item 1): on a tiny corpus, with the fewest
pairs, each script exits 0 and prints its ratio lines (benchmarks/paired.py: the median and
spread of paired ratios, and the load). Nothing here reads a time: the figures depend on the
machine; what is tested is that no benchmark can silently break again, as benchmarks/site.py
once did for weeks ('Citation' object has no attribute 'title').

benchmarks/search.py, relevance.py and relevance_site.py are the search's (issue 28) and are
run by its own tests."""

from __future__ import annotations

import importlib.util
import os
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parent.parent
BENCH = ROOT / "benchmarks"
#: A line benchmarks/paired.py's ratio_line prints.
RATIO = re.compile(r"^\s*ratio .+: median \d+\.\d\d \(spread \d+\.\d\d-\d+\.\d\d, \d+ pairs; "
                   r".+ against .+, medians; load \d+\.\d\d-\d+\.\d\d\)", re.MULTILINE)


def bench_module(name: str) -> ModuleType:
    sys.path.insert(0, str(BENCH))
    try:
        spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(BENCH))


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Six rulings of benchmarks/site.py's generator, under ``rulings/``."""
    from judge.data import load_glossary

    root = tmp_path_factory.mktemp("tiny")
    bench_module("site").write_corpus(root, 6, load_glossary())
    return root


def run(script: str, *args: str, timeout: int = 600) -> str:
    """Run ``benchmarks/SCRIPT`` from the repository root; its standard output."""
    done = subprocess.run([sys.executable, str(BENCH / script), *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=timeout,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    assert done.returncode == 0, f"{script} exited {done.returncode}:\n" \
                                 f"{done.stdout[-3000:]}\n{done.stderr[-3000:]}"
    return done.stdout


def ratios(out: str) -> list[str]:
    """The ratio lines of ``out``, whole (a target's verdict follows the load)."""
    return [line.strip() for line in out.splitlines() if RATIO.match(line)]


def test_check_against_both_floors(tiny: Path) -> None:
    out = run("check.py", "--corpus", str(tiny), "--pairs", "1")
    lines = ratios(out)
    assert any("/ floor (tomllib), with bytecode caches" in line and "target <= 2" in line
               for line in lines)
    assert any("/ floor with tomli" in line for line in lines)
    assert any("--jobs 1 / floor (tomllib)" in line for line in lines)
    assert re.search(r"judge check said \"\d+ passed, 0 failed\"", out)


def test_engine_runs(tiny: Path) -> None:
    out = run("engine_runs.py", "--corpus", str(tiny), "--pairs", "1")
    assert any("whole site build" in line for line in ratios(out))


def test_games() -> None:
    out = run("games.py", "--games", "2")
    assert any(line.startswith("ratio CPU per engine event / CPU per reference round")
               for line in ratios(out))


def test_replay(tiny: Path) -> None:
    out = run("replay.py", "--rulings", str(tiny / "rulings"), "--variants", "8", "--files",
              "8", "--repeat", "1", "--pairs", "1")
    lines = ratios(out)
    assert any(line.startswith("ratio judge check / floor (python + tomllib") for line in lines)
    assert any(line.startswith("ratio CPU per replay of the corpus") for line in lines)


def test_limits() -> None:
    out = run("limits.py", "--pairs", "1")
    assert len(ratios(out)) == 4


def test_render() -> None:
    out = run("render.py", "--pairs", "1", "--sizes", "50", "100")
    assert "target: ratio at each size within" in out


def test_build_pair(tiny: Path) -> None:
    out = run("build_pair.py", "--base", "HEAD", "--corpus", str(tiny), "--pairs", "1",
              "--diff")
    lines = ratios(out)
    for measure in ("wall", "CPU"):
        assert any(line.startswith(f"ratio {measure}, this tree / HEAD") for line in lines)
    assert re.search(r"^sites: \d+ files differ", out, re.MULTILINE), out


def test_index_pair(tiny: Path) -> None:
    out = run("index_pair.py", "--base", "HEAD", "--corpus", str(tiny), "--pairs", "1")
    assert any(line.startswith("ratio CPU, this tree / HEAD") for line in ratios(out)), out
    assert re.search(r"^indexes: \d+ files differ", out, re.MULTILINE), out


def test_quiz_pair(tiny: Path) -> None:
    out = run("quiz_pair.py", "--base", "HEAD", "--corpus", str(tiny), "--pairs", "1")
    lines = ratios(out)
    for measure in ("bank", "export", "quiz"):
        assert any(line.startswith(f"ratio {measure} CPU, this tree / HEAD")
                   for line in lines), out
    assert re.search(r"^banks: (the same bytes|DIFFER)", out, re.MULTILINE), out


def test_mechanisms(tiny: Path) -> None:
    # check-big is check-corpus on generated rulings: the same code, left out for time
    out = run("mechanisms.py", "--corpus", str(tiny), "--pairs", "1", "--only",
              "check-corpus,build,search")
    lines = ratios(out)
    for figure in ("check-corpus", "dev-main (check + build)"):
        assert any(line.startswith(f"ratio {figure} without pool / with it")
                   for line in lines), (figure, out)
    assert re.search(r"^pool: best median \d+\.\d\d -> (keep|remove)$", out, re.MULTILINE)
    # the plain search's entry, against the same search through click
    assert any(line.startswith("ratio search without entry / with it") for line in lines), out
    assert re.search(r"^entry: best median \d+\.\d\d -> (keep|remove)$", out, re.MULTILINE)


def test_scale(tmp_path: Path) -> None:
    kept = tmp_path / "corpora"
    out = run("scale.py", "--sizes", "8", "16", "--pairs", "1", "--corpora", str(kept))
    lines = ratios(out)
    for name in ("check", "check --jobs 1", "db"):
        assert any(line.startswith(f"ratio judge {name}, 16 rulings / floor") for line in lines)
    assert "extrapolated to 100,000 rulings" in out
    # --corpora keeps each generated corpus, and a second run reuses it as it is
    rulings = sorted((kept / "corpus-16" / "rulings").rglob("*.toml"))
    assert len(rulings) == 16
    stamp = rulings[0].stat().st_mtime_ns
    again = run("scale.py", "--sizes", "16", "--pairs", "1", "--corpora", str(kept))
    assert any(line.startswith("ratio judge db, 16 rulings / floor") for line in ratios(again))
    assert rulings[0].stat().st_mtime_ns == stamp


def test_links(tiny: Path) -> None:
    # lengths, not times (no ratio line): both forms of a shared sandbox link, per ruling
    out = run("links.py", "--corpus", str(tiny))
    assert re.search(r"^6 rulings, links to their pages at ", out, re.MULTILINE)
    for form in (r"one card more in a hand \(#try=2\., the edit\)", r"the whole file \(#try=1\.\)"):
        assert re.search(rf"^{form}: median \d+ characters, 90th percentile \d+, longest \d+ "
                         rf"\(.+\); \d+ of 6 under 2000$", out, re.MULTILINE), out


def test_link_fragments_round_trip_and_an_edit_is_short() -> None:
    links = bench_module("links")
    base = (ROOT / "rulings/effects/up-to-target-may-choose-none.toml").read_text(
        encoding="utf-8")
    changed = links.one_card_more(base)
    assert 'hand = ["x9"]' in changed
    short = links.fragment(changed, base)
    assert short.startswith("#try=2.") and len(short) < 100
    assert links.unpack(short, base) == changed
    whole = links.fragment(changed)
    assert whole.startswith("#try=1.") and links.unpack(whole, "") == changed
    # sandbox.js's FNV-1a: the empty text's digest is the offset basis; a non-BMP character
    # counts as its two UTF-16 code units, as JavaScript's charCodeAt gives them
    assert links.digest("") == "811c9dc5" and links.digest("a") == "e40c292c"
    assert links.digest("😀") != links.digest("")


def test_quiz(tiny: Path) -> None:
    out = run("quiz.py", "--pairs", "1", "--corpus", str(tiny))
    assert "rulings with at least one question:" in out
    assert len(ratios(out)) == 1
