"""``judge serve`` serves the previous site at once while the new one builds (issue 29, item
4): a second ``./dev main`` with nothing changed answers within seconds instead of after a
whole build, and a first build that fails keeps the previous site, as a rebuild does.

Each test runs ``judge serve`` itself (port 0, no search index) on a copy of the fixture
corpus whose site was built before, and reads its output line by line."""

from __future__ import annotations

import os
import queue
import re
import shutil
import signal
import subprocess
import sys
import threading
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from judge.site.build import build_site

FIXTURE = Path(__file__).parent / "fixtures" / "site_corpus"
RULING = "rulings/effects/fixture-two-returners.toml"
PAGE = "en/rulings/fixture-two-returners/"


@pytest.fixture()
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(FIXTURE, root)
    return root


def edit(corpus: Path, old: str, new: str) -> None:
    path = corpus / RULING
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


@contextmanager
def serve(corpus: Path, out: Path) -> Iterator[queue.Queue[str]]:
    """``judge serve`` running; a queue of its output lines (standard output and error)."""
    process = subprocess.Popen(
        [sys.executable, "-c", "from judge.cli import main; main()", "serve", "--port", "0",
         "--no-search", "--corpus", str(corpus), "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd=corpus,
        env={**os.environ, "PYTHONUNBUFFERED": "1"})
    lines: queue.Queue[str] = queue.Queue()

    def read() -> None:
        assert process.stdout is not None
        for line in process.stdout:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    try:
        yield lines
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def wait_for(lines: queue.Queue[str], pattern: str, seen: list[str]) -> re.Match[str]:
    while True:
        try:
            line = lines.get(timeout=120)
        except queue.Empty:
            raise AssertionError(f"no line matching {pattern!r} in {seen}") from None
        seen.append(line)
        match = re.search(pattern, line)
        if match:
            return match


def page(port: str) -> str:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/{PAGE}", timeout=30) as response:
        return response.read().decode("utf-8")


def test_the_previous_site_is_served_before_the_new_one_is_built(corpus: Path,
                                                                 tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(out, root=corpus)
    edit(corpus, "Two milled SIGNI", "Two milled SIGNI (edited)")
    seen: list[str] = []
    with serve(corpus, out) as lines:
        port = wait_for(lines, r"^serving the previous site of .* on http://127\.0\.0\.1:(\d+)/ "
                               r"while the new one builds", seen).group(1)
        assert not any(line.startswith("built") for line in seen)
        wait_for(lines, r"^built: built \d+ pages", seen)
        assert "Two milled SIGNI (edited)" in page(port)


def test_a_first_build_that_fails_keeps_serving_the_previous_site(corpus: Path,
                                                                  tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(out, root=corpus)
    before = page_of(out)
    edit(corpus, "[setup]", "[setup")  # no longer TOML
    seen: list[str] = []
    with serve(corpus, out) as lines:
        port = wait_for(lines, r"^serving the previous site of .* on http://127\.0\.0\.1:(\d+)/",
                        seen).group(1)
        wait_for(lines, r"^build failed, still serving the previous site: ", seen)
        assert page(port) == before


def test_without_a_previous_site_it_builds_first(corpus: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    seen: list[str] = []
    with serve(corpus, out) as lines:
        port = wait_for(lines, r"^serving .* on http://127\.0\.0\.1:(\d+)/ \(Ctrl-C", seen).group(1)
        assert any(line.startswith("built ") for line in seen), seen
        assert not any("previous site" in line for line in seen)
        assert "Two milled SIGNI" in page(port)


def page_of(out: Path) -> str:
    return (out / PAGE / "index.html").read_text(encoding="utf-8")
