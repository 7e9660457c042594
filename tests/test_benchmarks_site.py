"""The site's benchmarks run (issue 29, item 1): benchmarks/site.py against MkDocs (installed
from PyPI into a venv of the test's own) and against its own build without search, and the
browser's figures (sandbox.py, site_offline.py), each on a tiny corpus with the fewest pairs;
as tests/test_benchmarks.py, each must exit 0 and print its ratio lines. A file of its own,
so that ./dev test's two processes (pytest-xdist, a file in each) share the slow ones out."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import CHROMIUM, unavailable
from test_benchmarks import ROOT, ratios, run, tiny

__all__ = ["tiny"]  # the fixture, shared with tests/test_benchmarks.py


def test_site_against_mkdocs(tmp_path: Path) -> None:
    out = run("site.py", "--rulings", "6", "--pairs", "1",
              "--mkdocs-venv", str(tmp_path / "mkdocs-venv"), timeout=900)
    lines = ratios(out)
    assert any(line.startswith("ratio MkDocs Material, search on, navigation of three entries "
                               "/ judge build") and "target >= 1.5" in line for line in lines)
    assert any(line.startswith("ratio MkDocs Material, search on, static-i18n / judge build")
               for line in lines)
    assert re.search(r"^mkdocs: mkdocs==\S+, mkdocs-material==\S+, mkdocs-static-i18n==",
                     out, re.MULTILINE)


def test_site_against_its_build_without_search() -> None:
    out = run("site.py", "--rulings", "6", "--pairs", "1", "--no-mkdocs")
    assert any(line.startswith("ratio judge build --no-search / judge build")
               for line in ratios(out))
    # where the site's bytes are, per ruling: the ruling pages, the API's files, the index
    kinds = re.search(r"^site by kind, KB per ruling \(6 rulings, [\d.]+ KB in all\): (.+)$",
                      out, re.MULTILINE)
    assert kinds, out
    for kind in ("pages/rulings/*", "api/rulings", "search-index"):
        assert re.search(rf"(^|, ){re.escape(kind)} \d+\.\d\d(,|$)", kinds[1]), (kind, out)


def need_chromium() -> None:
    if not CHROMIUM.exists():
        unavailable(f"Chromium is not installed at {CHROMIUM}")


def test_sandbox(tiny: Path) -> None:
    need_chromium()
    if not (ROOT / "node_modules" / "pyodide" / "package.json").is_file():
        unavailable("Pyodide is not installed (npm ci)")
    out = run("sandbox.py", "--corpus", str(tiny), "--rulings", "2", "--starts", "1")
    lines = ratios(out)
    assert any(line.startswith("ratio replay after an edit in the browser") for line in lines)
    for kind in ("cold", "warm"):
        assert any(line.startswith(f"ratio start, {kind} ") and f"Pyodide's bare start, {kind}"
                   in line for line in lines), out
    assert any(line.startswith("ratio start, warm with the kept bytecode / without it")
               for line in lines), out
    # the warm start took the bytecode the first use kept
    assert "kept bytecode at the warm starts: ['used']" in out, out


def test_site_offline(tiny: Path) -> None:
    need_chromium()
    out = run("site_offline.py", "--corpus", str(tiny))
    assert any(line.startswith("ratio bytes the service worker keeps") for line in ratios(out))
