"""Faults while writing: ``judge build`` and ``judge db`` killed at random moments (SIGKILL),
the fallback switch killed between its two renames, what killed runs leave and who removes
it, page paths that would leave the site folder, numbers SQLite cannot store, and a database
that does not depend on where the corpus lies (issue #9).

The kill tests run ``judge`` in subprocesses on the fixture corpus (tests/fixtures/corpus), in
two versions that differ in one text, so that every run changes the output. One full run of
each version is timed first; then every kill lands at a seeded random moment: half anywhere
in the measured run, half in its measured end, counted from when the run is seen there (the
site's pages are written and its assets are being copied; the database's temporary file
exists), so that some land during the final switch. After each kill the output must be the
previous one or the new one, complete (a manifest of every file's path and SHA-256; the
database's bytes, its tables and row counts), and the next run that completes must leave
nothing beside the output. Each run's temporary folder (``TMPDIR``) is one of the test's own,
which must stay empty: temporary files live beside the output. They run everywhere, CI
included (they need POSIX signals: elsewhere they skip, and fail when ``CI`` is set).
``pytest -s`` prints how the kills fell.

A build stopped while it writes its search index (issue 25: the Pagefind indexer it used then
left its copies of every page in the temporary folder, 4 to 18 MB each, after a kill or
SIGTERM): on SIGTERM it removes its temporary folders before it ends, leaving no process
behind; after SIGKILL what it left lies beside the output, and the next run removes it.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import hashlib
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import MappingProxyType
from typing import TypeVar

import pytest
from conftest import FX_CORPUS, POWER

import judge.db
from judge.atomic import lock_fd, lock_path
from judge.corpus import Corpus, load_corpus
from judge.db import TABLES, DatabaseError
from judge.db import build as build_db
from judge.paths import project_root
from judge.site import build as site_build
from judge.site.build import MARKER, BuildError, build_site

#: Kills of each command that must land (a run that finishes first does not count).
KILLS = 20
#: Kills after which a run is left to complete (and must remove what they left).
UNCHECKED = 4
SEED = 9  # issue #9
#: The answer of fx-power-zero, changed in the second version of the corpus.
ANSWER = "ルール処理でバニッシュされます。"

JUDGE = [sys.executable, "-c", "import sys; from judge.cli import main; sys.argv[0] = 'judge'; "
         "main()"]


def _need_signals() -> None:
    if hasattr(signal, "SIGKILL") and hasattr(os, "killpg"):
        return
    if os.environ.get("CI"):
        pytest.fail("the kill tests need POSIX signals; CI must run them", pytrace=False)
    pytest.skip("no POSIX signals (SIGKILL) here")


# ---------------------------------------------------------------------------- helpers


def manifest(folder: Path) -> dict[str, str]:
    """Every file under ``folder``: relative path -> SHA-256."""
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def beside(out: Path) -> list[str]:
    """What lies in the output's folder besides the output (the tests give it a folder)."""
    return sorted(p.name for p in out.parent.iterdir() if p.name != out.name)


def two_corpora(tmp_path: Path) -> tuple[Path, Path]:
    """The fixture corpus, and a copy with one answer changed."""
    a, b = tmp_path / "corpus-a", tmp_path / "corpus-b"
    shutil.copytree(FX_CORPUS, a)
    shutil.copytree(FX_CORPUS, b)
    ruling = b / "rulings" / "rules" / f"{POWER}.toml"
    text = ruling.read_text(encoding="utf-8")
    assert ANSWER in text
    ruling.write_text(text.replace(ANSWER, ANSWER + "（別版）"), encoding="utf-8")
    return a, b


@dataclasses.dataclass
class Run:
    argv: list[str]
    log: Path
    #: the run's temporary folder (TMPDIR), when the test gives it one of its own
    temp: Path | None = None

    def start(self) -> subprocess.Popen[bytes]:
        env = None if self.temp is None else {**os.environ, "TMPDIR": str(self.temp)}
        with self.log.open("wb") as log:
            return subprocess.Popen(self.argv, stdout=log, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL, start_new_session=True, env=env)

    def finished(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.returncode == 0, f"{self.argv[3:]} failed:\n{self.log.read_text()}"


def timed(run: Run, ready: Callable[[], bool]) -> tuple[float, float]:
    """Run to the end; return (seconds in all, seconds from when ``ready()`` first held to
    the end, 0 if it was never seen to hold)."""
    proc = run.start()
    start = time.monotonic()
    seen = None
    while proc.poll() is None:
        if seen is None and ready():
            seen = time.monotonic()
        time.sleep(0.0005)
    end = time.monotonic()
    run.finished(proc)
    return end - start, 0.0 if seen is None else end - seen


def killed(run: Run, delay: float, after: Callable[[], bool] | None = None,
           timeout: float = 60) -> bool:
    """Start ``run`` and SIGKILL it ``delay`` seconds after it starts, or after ``after()``
    first holds; True if it was killed, False if it finished first (successfully)."""
    proc = run.start()
    start = time.monotonic()
    armed = start if after is None else None
    try:
        while proc.poll() is None:
            now = time.monotonic()
            if armed is None and after is not None and after():
                armed = now
            if armed is not None and now - armed >= delay:
                os.killpg(proc.pid, signal.SIGKILL)
                break
            assert now - start < timeout, f"{run.argv[3:]} takes more than {timeout} s"
            time.sleep(0.0005 if armed is None else min(0.002, max(0.0, armed + delay - now)))
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()
    if proc.returncode == -signal.SIGKILL:
        return True
    run.finished(proc)
    return False


def kill_plan(rng: random.Random, total: float, tail: float) -> tuple[float, bool]:
    """A kill moment: (delay, counted from when the run is seen near its end?). Half anywhere
    in the measured run, half in its measured tail (from when ``ready()`` first held to the
    exit), with some margin for a run slower than the measured one."""
    if rng.random() < 0.5:
        return rng.uniform(0.0, total), False
    return rng.uniform(0.0, 1.1 * tail), True


State = TypeVar("State")
T = TypeVar("T")


def temporary(run: Run) -> list[str]:
    """What lies in the run's own temporary folder (TMPDIR)."""
    assert run.temp is not None
    return sorted(p.name for p in run.temp.iterdir())


def kill_again_and_again(what: str, out: Path, corpora: tuple[Path, Path],
                         run: Callable[[Path], Run], state: Callable[[], State],
                         ready: Callable[[], bool]) -> Counter[str]:
    """Time one run from each corpus (the state each leaves is the expected one), then kill
    runs until :data:`KILLS` were killed, each run switching to the other corpus. After each
    kill the output is one of the two expected states, complete, and nothing is in the run's
    temporary folder; the next run that completes (one is run after at most
    :data:`UNCHECKED` kills) leaves nothing beside the output either."""
    began = time.monotonic()
    expected: dict[Path, State] = {}
    total = tail = 0.0
    for corpus in (corpora[1], corpora[0]):  # the first corpus' output stays in place
        took, last = timed(run(corpus), ready)
        total, tail = max(total, took), max(tail, last)
        expected[corpus] = state()
        assert beside(out) == [] and temporary(run(corpus)) == []
    assert expected[corpora[0]] != expected[corpora[1]]
    assert tail > 0, f"{what}: the end of a run was never seen"
    rng = random.Random(SEED)
    current = corpora[0]
    falls: Counter[str] = Counter()
    unchecked = 0
    while falls["killed"] < KILLS:
        target = corpora[1] if current == corpora[0] else corpora[0]
        if unchecked >= UNCHECKED:
            delay, late = 1e9, False  # this one completes
        else:
            delay, late = kill_plan(rng, total, tail)
        if not killed(run(target), delay, ready if late else None):
            falls["completed"] += 1
            assert state() == expected[target], f"{what}: a completed run left another output"
            assert beside(out) == [], f"{what}: left beside the output: {beside(out)}"
            assert temporary(run(target)) == [], \
                f"{what}: left in the temporary folder: {temporary(run(target))}"
            current, unchecked = target, 0
            continue
        falls["killed"] += 1
        falls["killed near the end" if late else "killed at any moment"] \
            += 1
        unchecked += 1
        assert out.exists(), f"{what}: a killed run left no {out.name} (delay {delay:.3f} s)"
        now = state()
        assert now in (expected[current], expected[target]), \
            f"{what}: a killed run left an incomplete or mixed output (delay {delay:.3f} s)"
        if now == expected[target]:
            falls["killed after the switch"] += 1
            current = target
        else:
            falls["killed before the switch"] += 1
        if beside(out):
            falls["left temporary files"] += 1
        assert temporary(run(target)) == [], \
            f"{what}: a killed run left in the temporary folder: {temporary(run(target))}"
    assert falls["killed near the end"] > 0
    print(f"\n{what}: {dict(falls)}; one run {total:.2f} s (its end {tail:.3f} s); "
          f"{time.monotonic() - began:.1f} s in all")
    return falls


# ---------------------------------------------------------------------------- judge build


def test_killed_builds_leave_the_previous_site_or_the_new_one(tmp_path: Path) -> None:
    _need_signals()
    corpora = two_corpora(tmp_path)
    out = tmp_path / "out" / "site"
    out.parent.mkdir()
    temp = tmp_path / "tmp"
    temp.mkdir()

    def run(corpus: Path) -> Run:
        return Run([*JUDGE, "build", "--no-search", "--corpus", str(corpus), "--out", str(out)],
                   tmp_path / "build.log", temp)

    def site() -> dict[str, str]:
        assert (out / MARKER).is_file()
        return manifest(out)

    def pages_written() -> bool:
        """The assets are copied last, just before the marker and the switch (or after the
        switch, the previous site is being deleted under the temporary name)."""
        return any((p / "assets").exists() for p in out.parent.glob(f".{out.name}.*.tmp"))

    kill_again_and_again("judge build", out, corpora, run, site, pages_written)


#: Builds stopped while they write the search index, by SIGTERM and as many by SIGKILL (a run
#: that completes first does not count; at most twice as many runs).
STOPPED_WHILE_INDEXING = 3


def test_a_build_stopped_while_indexing_leaves_no_temporary_folder(tmp_path: Path) -> None:
    """SIGTERM (to the judge process alone, as ``kill PID`` sends it): the run removes its
    temporary folders and ends by the signal, leaving the previous site (or,
    when the signal came after the switch, the new one) and nothing else. SIGKILL (to the
    whole group): the run leaves its folder beside the output, never in the temporary folder,
    and the next run removes it."""
    _need_signals()
    corpora = two_corpora(tmp_path)
    out = tmp_path / "out" / "site"
    out.parent.mkdir()
    temp = tmp_path / "tmp"
    temp.mkdir()

    def run(corpus: Path) -> Run:
        return Run([*JUDGE, "build", "--corpus", str(corpus), "--out", str(out)],
                   tmp_path / "build.log", temp)

    def indexing(before: frozenset[str] = frozenset()) -> bool:
        """The new site's search index is being written (not counting what was there
        ``before`` the run: a killed run's folder)."""
        return any((p / "search-index").exists()
                   for p in out.parent.glob(f".{out.name}.*.tmp") if p.name not in before)

    expected: dict[Path, dict[str, str]] = {}
    tail = 0.0
    for corpus in (corpora[1], corpora[0]):  # the first corpus' site stays in place
        tail = max(tail, timed(run(corpus), indexing)[1])
        expected[corpus] = manifest(out)
        assert beside(out) == [] and temporary(run(corpus)) == []
    assert tail > 0, "the search index was never seen being written"
    rng = random.Random(SEED)
    current = corpora[0]
    falls: Counter[str] = Counter()
    for n in range(4 * STOPPED_WHILE_INDEXING):
        if min(falls["SIGTERM"], falls["SIGKILL"]) >= STOPPED_WHILE_INDEXING:
            break
        sig = signal.SIGTERM if n % 2 == 0 else signal.SIGKILL
        target = corpora[1] if current == corpora[0] else corpora[0]
        left = frozenset(beside(out) + temporary(run(target)))
        proc = run(target).start()
        try:
            start = time.monotonic()
            while proc.poll() is None and not indexing(left):
                assert time.monotonic() - start < 120, "the build never reached its indexing"
                time.sleep(0.002)
            time.sleep(rng.uniform(0.0, 0.6 * tail))
            if sig == signal.SIGTERM:
                os.kill(proc.pid, sig)
            else:
                os.killpg(proc.pid, sig)
            proc.wait(timeout=120)
        finally:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        if proc.returncode == 0:
            falls["completed first"] += 1
            assert manifest(out) == expected[target]
            current = target
            continue
        assert proc.returncode == -sig, (sig, proc.returncode, run(target).log.read_text())
        falls[signal.Signals(sig).name] += 1
        now = manifest(out)
        assert now in (expected[current], expected[target]), \
            "a stopped build left an incomplete or mixed site"
        if now == expected[target]:
            falls["stopped after the switch"] += 1
            current = target
        assert temporary(run(target)) == [], \
            f"left in the temporary folder: {temporary(run(target))}"
        if sig == signal.SIGTERM:
            assert beside(out) == [], f"SIGTERM left beside the output: {beside(out)}"
            with pytest.raises(ProcessLookupError):  # no process of the run is left
                os.killpg(proc.pid, 0)
        else:
            falls["left beside the output after SIGKILL"] += bool(beside(out))
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
    assert min(falls["SIGTERM"], falls["SIGKILL"]) >= STOPPED_WHILE_INDEXING, falls
    last = run(corpora[1] if current == corpora[0] else corpora[0])
    proc = last.start()
    proc.wait()
    last.finished(proc)
    assert beside(out) == [] and temporary(last) == []
    print(f"\njudge build while indexing: {dict(falls)}; the indexing {tail:.2f} s")


def test_a_build_killed_between_the_two_renames_is_recovered(tmp_path: Path,
                                                             monkeypatch: pytest.MonkeyPatch
                                                             ) -> None:
    """The fallback switch (no RENAME_EXCHANGE), killed right after the previous site was
    renamed aside: the next run puts it back before anything else (here a run that then
    fails), and the run after that replaces it and leaves nothing beside it."""
    _need_signals()
    corpora = two_corpora(tmp_path)
    out = tmp_path / "out" / "site"
    build_site(out, root=corpora[0])
    before = manifest(out)
    script = textwrap.dedent("""
        import os, signal, sys
        from pathlib import Path
        import judge.site.build as b

        real = b._rename

        def rename(source, target):
            real(source, target)
            os.kill(os.getpid(), signal.SIGKILL)  # right after the first rename

        b._exchange = lambda new, old: False
        b._rename = rename
        b.build_site(Path(sys.argv[1]), root=Path(sys.argv[2]))
        """)
    done = subprocess.run([sys.executable, "-c", script, str(out), str(corpora[1])],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == -signal.SIGKILL, done.stderr
    assert not out.exists()
    left = sorted(beside(out), key=lambda name: name.rsplit(".", 1)[1])
    assert len(left) == 2 and left[0].endswith(".old") and left[1].endswith(".tmp"), left
    assert manifest(out.parent / left[0]) == before  # the previous site, aside
    assert (out.parent / left[1] / MARKER).is_file()  # the new one, complete, never switched

    def fails(*args: object) -> None:
        raise BuildError("stopped after the clean-up (simulated)")

    with monkeypatch.context() as patch:
        patch.setattr(site_build, "load_streamed", fails)
        with pytest.raises(BuildError, match="simulated"):
            build_site(out, root=corpora[1])
    assert manifest(out) == before and beside(out) == []
    build_site(out, root=corpora[1])
    assert manifest(out) != before and beside(out) == []


def test_the_fallback_switch_builds_the_same_site(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "site"
    build_site(out, root=FX_CORPUS)
    first = manifest(out)
    monkeypatch.setattr(site_build, "_exchange", lambda new, old: False)
    build_site(out, root=FX_CORPUS)
    assert manifest(out) == first and beside(out) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="renameat2 is Linux's")
def test_on_linux_the_switch_is_one_exchange(tmp_path: Path,
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "site"
    build_site(out, root=FX_CORPUS)

    def no_rename(*args: object) -> None:
        raise AssertionError("the fallback's renames were used")

    monkeypatch.setattr(site_build, "_rename", no_rename)
    build_site(out, root=FX_CORPUS)
    assert (out / MARKER).is_file() and beside(out) == []


def test_clean_up_removes_only_what_killed_builds_left(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(out, root=FX_CORPUS)

    def folder(name: str, marker: bool = False) -> Path:
        path = tmp_path / name
        (path / "en").mkdir(parents=True)
        (path / "en" / "index.html").write_text("x", encoding="utf-8")
        if marker:
            (path / MARKER).write_text("", encoding="utf-8")
        return path

    folder(".site.abcd1234.tmp")  # a killed build's half-written site
    folder(".site.efgh_678.old", marker=True)  # a previous site left aside
    keep = [folder(".site.ijkl9012.old"),  # no marker: not known to be a site
            folder(".site.short.tmp"), folder(".site.abcd12345.tmp"),  # not mkdtemp's names
            folder(".sitex.abcd1234.tmp"), folder(".other.abcd1234.tmp"),
            folder("site.abcd1234.tmp"), folder("notes")]
    (tmp_path / ".site.mnop3456.tmp.txt").write_text("mine", encoding="utf-8")
    (tmp_path / ".site.qrst7890.tmp").write_text("a file, not a folder", encoding="utf-8")
    outside = folder("outside", marker=True)
    (tmp_path / ".site.uvwx1234.tmp").symlink_to(outside, target_is_directory=True)
    busy = folder(".site.busy0000.tmp")
    lock = lock_path(busy)
    assert lock is not None
    try:
        build_site(out, root=FX_CORPUS)
        left = beside(out)
    finally:
        os.close(lock)
    assert sorted(left) == sorted([p.name for p in keep] + [
        ".site.mnop3456.tmp.txt", ".site.qrst7890.tmp", "outside", ".site.uvwx1234.tmp",
        ".site.busy0000.tmp"])
    assert manifest(outside) == {MARKER: hashlib.sha256(b"").hexdigest(),
                                 "en/index.html": hashlib.sha256(b"x").hexdigest()}
    site_build.clean_leftovers(out)  # no longer held
    assert not busy.exists()


def test_a_page_path_outside_the_site_is_refused(tmp_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out" / "site"
    build_site(out, root=FX_CORPUS)
    before = manifest(out)
    root = tmp_path / "root"
    root.mkdir()
    for name in ("../escape/index.html", "en/../../escape/index.html", "/tmp/escape.html",
                 "en/\0/index.html", ""):
        with pytest.raises(BuildError, match="refusing to write"):
            site_build._write(root, name, "x")
    assert not (tmp_path / "escape").exists() and list(root.iterdir()) == []
    assert site_build._write(root, "en/rulings/x/index.html", "ok") == 2
    # through a build: a page whose key (an id) leads out of the site
    real = site_build.page_file

    def hostile(lang: str | None, key: str) -> str:  # the ruling pages (rulings/ID/)
        return real(lang, "../../evil/" + key[8:] if key.startswith("rulings/fx-") else key)

    monkeypatch.setattr(site_build, "page_file", hostile)
    with pytest.raises(BuildError, match=r"refusing to write .*evil.* \(for 'fx-"):
        build_site(out, root=FX_CORPUS)
    assert not (tmp_path / "evil").exists() and not (tmp_path / "out" / "evil").exists()
    assert manifest(out) == before and beside(out) == []


# ---------------------------------------------------------------------------- judge db


def test_killed_databases_leave_the_previous_one_or_the_new_one(tmp_path: Path) -> None:
    _need_signals()
    corpora = two_corpora(tmp_path)
    out = tmp_path / "out" / "judge.db"
    out.parent.mkdir()
    temp = tmp_path / "tmp"
    temp.mkdir()
    counts: dict[str, int] = {}

    def run(corpus: Path) -> Run:
        return Run([*JUDGE, "db", "--corpus", str(corpus), "--out", str(out)],
                   tmp_path / "db.log", temp)

    def database() -> bytes:
        """The file's bytes, once it opened with every table and the row counts."""
        con = sqlite3.connect(f"file:{out}?mode=ro", uri=True)
        try:
            tables = [r[0] for r in con.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
            assert tables == sorted(TABLES)
            rows = {t: int(con.execute(f"SELECT count(*) FROM [{t}]").fetchone()[0])
                    for t in tables}
        finally:
            con.close()
        if not counts:  # the first database: both corpora have the same rows
            assert rows["rulings"] == 3 and rows["events"] > 0
            counts.update(rows)
        assert rows == counts
        return out.read_bytes()

    def being_written() -> bool:
        return any(out.parent.glob(f".{out.name}.*.tmp"))

    kill_again_and_again("judge db", out, corpora, run, database, being_written)


def test_db_clean_up_removes_only_its_own_temporary_files(corpus: Corpus,
                                                          tmp_path: Path) -> None:
    out = tmp_path / "judge.db"
    gone = [tmp_path / ".judge.db.abcd1234.tmp", tmp_path / ".judge.db.efgh_678.tmp-journal"]
    keep = [tmp_path / n for n in (".judge.db.short.tmp", ".judge.db.abcd12345.tmp",
                                   ".judge.dbx.abcd1234.tmp", "judge.db.abcd1234.tmp",
                                   ".judge.db.abcd1234.tmp.bak", "other.db")]
    for path in gone + keep:
        path.write_bytes(b"half a database")
    (tmp_path / ".judge.db.dir_0000.tmp").mkdir()  # a folder: not ours
    target = tmp_path / "target.txt"
    target.write_text("keep", encoding="utf-8")
    (tmp_path / ".judge.db.link0000.tmp").symlink_to(target)
    busy = tmp_path / ".judge.db.busy0000.tmp"
    busy.write_bytes(b"")
    fd = os.open(busy, os.O_RDONLY)
    try:
        assert lock_fd(fd)
        build_db(corpus, out)
    finally:
        os.close(fd)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([p.name for p in keep] + [
        "judge.db", ".judge.db.dir_0000.tmp", ".judge.db.link0000.tmp", "target.txt",
        ".judge.db.busy0000.tmp"])
    assert target.read_text(encoding="utf-8") == "keep"


def with_field(obj: T, **fields: object) -> T:
    """A copy of a frozen dataclass with some fields changed, bypassing any validation (the
    database must hold even if a bad value got past the loader). A class of the compiled
    engine (setup.py) cannot be changed from outside: its constructor makes the copy (a
    card's checks all happen in the loader, not in ``CardDef``)."""
    if type(obj).__module__.startswith("judge.engine."):
        return dataclasses.replace(obj, **fields)  # type: ignore[type-var]
    new = copy.copy(obj)
    for name, value in fields.items():
        object.__setattr__(new, name, value)
    return new


def test_a_number_sqlite_cannot_store_is_an_error_naming_file_and_field(
        corpus: Corpus, tmp_path: Path) -> None:
    out = tmp_path / "judge.db"
    build_db(corpus, out)
    before = out.read_bytes()
    card = next(c for c in corpus.cards.values() if corpus.card_files.get(c.id))
    huge = with_field(corpus, cards=MappingProxyType(
        {**corpus.cards, card.id: with_field(card, power=2**63)}))
    with pytest.raises(DatabaseError) as info:
        build_db(huge, out)
    message = str(info.value)
    assert f"data/{corpus.card_files[card.id]}: {card.id}.power = {2**63} does not fit" \
        in message
    ruling = corpus.ruling(POWER)
    bad = with_field(ruling, scenario=with_field(ruling.scenario, explore_limit=-(10**5000)))
    deep = with_field(corpus, rulings=tuple(bad if r.id == POWER else r for r in corpus.rulings))
    with pytest.raises(DatabaseError, match=r"rulings/rules/fx-power-zero\.toml: "
                                            r"explore_limit = a negative number of about "
                                            r"5001 digits does not fit"):
        build_db(deep, out)
    assert out.read_bytes() == before and beside(out) == []
    assert judge.db.INT_MAX == 2**63 - 1 and judge.db.INT_MIN == -(2**63)


def test_a_huge_number_in_a_ruling_fails_judge_db_with_one_line(tmp_path: Path) -> None:
    """From the command line: no traceback, whichever layer (the loader's bounds or the
    database's check) stops it."""
    root = tmp_path / "corpus"
    shutil.copytree(FX_CORPUS, root)
    ruling = root / "rulings" / "rules" / f"{POWER}.toml"
    text = ruling.read_text(encoding="utf-8").replace(
        'signi1 = "E1:signi-2"', 'signi1 = "E1:signi-2"\nsigni2 = "H1:huge-signi"')
    ruling.write_text(text + f'\n[cards.huge-signi]\ntype = "signi"\nlevel = 1\n'
                             f'power = {10**30}\n', encoding="utf-8")
    out = tmp_path / "out" / "judge.db"
    done = subprocess.run([*JUDGE, "db", "--corpus", str(root), "--out", str(out)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode != 0
    assert "Traceback" not in done.stderr and "OverflowError" not in done.stderr
    assert done.stderr.startswith("Error: ") and "fx-power-zero.toml" in done.stderr, \
        done.stderr
    assert not out.exists() and (not out.parent.exists() or beside(out) == [])


def test_the_database_does_not_depend_on_where_the_corpus_lies(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The same rulings and data give the same bytes: in a folder that also holds the data
    (as the project does), and copied alone somewhere else."""
    here = tmp_path / "one" / "corpus"
    shutil.copytree(FX_CORPUS / "rulings", here / "rulings")
    shutil.copytree(project_root() / "data", here / "data")
    there = tmp_path / "two" / "deeper" / "corpus"
    shutil.copytree(FX_CORPUS / "rulings", there / "rulings")
    monkeypatch.setenv("JUDGE_DATA", str(here / "data"))
    databases = []
    for root in (here, there):
        out = tmp_path / f"{root.parent.name}.db"
        build_db(load_corpus(root), out)
        databases.append(out.read_bytes())
    assert databases[0] == databases[1]
