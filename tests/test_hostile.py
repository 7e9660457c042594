"""Hostile input: bad ruling and data files must each get one line, never a crash or a hang.

The cases come from tests/hostile.py (hand-written ones, seeded random mutations of the
project's rulings, and broken copies of data/). The ruling cases go into ONE corpus folder
together with a few good rulings, and each command runs once on it:

- ``judge check -v --junit`` (every case),
- ``judge db`` and ``judge build`` (every case),
- ``judge build`` again on the good rulings and the cases that may load (``either``), which
  must fail their replay: a build that stops at files it cannot load never replays the rest.

Then, per command: it finished in time, printed no traceback, exited with 1 or 2, printed no
line longer than :data:`hostile.MAX_LINE`, nothing that names no file, and wrote nothing
outside its output (the corpus and the outputs are both under one temporary folder, whose
tree is compared before and after, and whose parent is listed). Per case and command: the
lines that name the file (``path:...``, ``Error: path:...`` or ``FAIL path: ...``) are
exactly one (a case of kind ``skip``: at most one), none is longer than the limit, and no
``ok`` line names it; where a case says so, the line names the right file of a pair and holds
the right line, field or bound. Per good ruling: an ``ok`` line for each of its rule sets and
no error; the good rulings alone must build in time (``judge build``, no search). A good
ruling under an odd file name (not UTF-8, in upper case) gets one line from ``check``,
``db``, ``build``, ``search`` and ``coverage``.
``judge check`` also takes well under a minute, and under a few seconds for each (ruling,
rule set) in its JUnit report.

Each broken data folder is its own case, read through ``JUDGE_DATA`` by ``judge check`` (and
``judge db`` or ``judge build`` where that reads more of it) on one tiny ruling: exactly one
line ``Error: FILE:LINE: ...`` naming the data file, nothing blamed on the ruling.

Commands run in their own session (killed as a group on a timeout) with at most
:data:`MEMORY` bytes of address space, so a runaway case cannot take the machine down.
"""

from __future__ import annotations

import os
import re
import resource
import signal
import stat
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from hostile import (
    MAX_LINE,
    DataCase,
    Good,
    RulingCase,
    data_cases,
    good_rulings,
    random_cases,
    repo_bases,
    ruling_cases,
    write_corpus,
    write_data_case,
)

from judge.paths import project_root
from judge.skeleton import skeleton

BASES = repo_bases(project_root() / "rulings")
GOODS = good_rulings(BASES)
CASES = ruling_cases() + random_cases(BASES)
EITHER = [c for c in CASES if c.expect == "either"]
DATA = data_cases()

TIMEOUT = 60.0  # seconds, any one command
CHECK_SECONDS = 30.0  # the whole judge check run on the hostile folder
PER_RULING_SECONDS = 5.0  # one (ruling, rule set) in the JUnit report
MEMORY = 4 << 30  # bytes of address space per command
WORKERS = 2  # data cases run side by side

MAIN = ("check", "db", "build")
REPLAYS = "build-replays"
COMMANDS = (*MAIN, REPLAYS)
SUMMARY = re.compile(r"^\d+ passed, \d+ failed(, \d+ skipped)?$")


# ---------------------------------------------------------------------- running judge


@dataclass
class Ran:
    args: tuple[str, ...]
    returncode: int | None
    stdout: str
    stderr: str
    seconds: float
    timed_out: bool

    @property
    def lines(self) -> list[str]:
        return self.stdout.splitlines() + self.stderr.splitlines()

    def why(self) -> str:
        """What went wrong with the run as a whole, for assertion messages ("" if nothing)."""
        if self.timed_out:
            return f"judge {self.args[0]} timed out after {self.seconds:.0f} s"
        if "Traceback" in self.stdout + self.stderr:
            last = [line for line in self.stderr.splitlines() if line.strip()][-1:]
            return f"judge {self.args[0]} crashed: {last[0][:300] if last else '?'}"
        return ""

    def show(self, limit: int = 12) -> str:
        rows = [line[:300] for line in self.lines[-limit:]]
        return (f"judge {' '.join(self.args)[:200]} -> exit {self.returncode} after "
                f"{self.seconds:.1f} s{'; TIMED OUT' if self.timed_out else ''}\n  "
                + "\n  ".join(rows))


def judge(args: Iterable[str], cwd: Path, env: dict[str, str] | None = None,
          timeout: float = TIMEOUT) -> Ran:
    args = tuple(args)
    environment = {k: v for k, v in os.environ.items() if k != "JUDGE_DATA"}
    environment.update({"LC_ALL": "C.UTF-8", "PYTHONUNBUFFERED": "1"})
    environment.update(env or {})
    start = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-m", "judge.cli", *args], cwd=cwd,
                            env=environment, stdin=subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    if hasattr(resource, "prlimit"):
        try:
            resource.prlimit(proc.pid, resource.RLIMIT_AS, (MEMORY, MEMORY))
        except (ProcessLookupError, PermissionError, OSError):
            pass  # already gone
    try:
        out, err = proc.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the whole session: judge and its children
        out, err = proc.communicate()
        timed_out = True
    return Ran(args, proc.returncode, out.decode("utf-8", "replace"),
               err.decode("utf-8", "replace"), time.monotonic() - start, timed_out)


# ---------------------------------------------------------------------- the file tree


Tree = dict[str, tuple[int, int, int]]


def tree(root: Path) -> Tree:
    """Every path under ``root`` (symlinks not followed) with its mode, size and mtime."""
    out: Tree = {}
    for folder, dirs, files in os.walk(root):
        for name in dirs + files:
            path = os.path.join(folder, name)
            st = os.lstat(path)
            out[path] = (st.st_mode, st.st_size, st.st_mtime_ns)
    return out


def changed(before: Tree, after: Tree) -> list[str]:
    return sorted({p for p in after if before.get(p) != after[p]} |
                  {p for p in before if p not in after})


def inside(path: str, folder: Path) -> bool:
    return path == str(folder) or path.startswith(str(folder) + os.sep)


def site_files(root: Path, allowed: Iterable[Path]) -> list[str]:
    """Files a site or a database would leave, outside the allowed folders."""
    return [p for p in tree(root) if (p.endswith(os.sep + "index.html") or p.endswith(".db"))
            and not any(inside(p, a) for a in allowed)]


# ---------------------------------------------------------------------- who a line names


def about(line: str, case_paths: Iterable[str], root: Path, prefix: str = "") -> str:
    """``error``, ``fail`` or ``ok`` when ``line`` reports on one of the paths, else ``""``."""
    body = line[len("Error: "):] if line.startswith("Error: ") else line
    kind = "error"
    if body.startswith("FAIL "):
        body, kind = body[len("FAIL "):], "fail"
    elif re.match(r"ok\s", body):
        body, kind = re.sub(r"^ok\s+", "", body), "ok"
    for path in case_paths:
        for shown in (path, str(root / path)):
            if body.startswith(shown + ":"):
                return kind
    if prefix and re.match(r"['\"]?" + re.escape(prefix) + r"[^:]*\.toml['\"]?:", body):
        return kind
    return ""


@dataclass
class Hostile:
    base: Path
    corpus: Path  # the hostile folder: goods and every case
    replays: Path  # the goods and the ``either`` cases that judge check could load
    loaded: set[str]  # those cases
    out: Path
    runs: dict[str, Ran]
    written: dict[str, list[str]]  # command -> paths changed outside the output folder
    parent_changed: dict[str, list[str]]

    def root(self, command: str) -> Path:
        return self.replays if command == REPLAYS else self.corpus

    def lines_about(self, command: str, paths: Iterable[str], prefix: str = "") \
            -> list[tuple[str, str]]:
        root = self.root(command)
        paths = tuple(paths)
        return [(kind, line) for line in self.runs[command].lines
                if (kind := about(line, paths, root, prefix))]

    def expected(self, command: str, case: RulingCase) -> tuple[str, int, int]:
        """The run that must name the case, and how many error or FAIL lines it must print
        about it: (run, at least, at most)."""
        if case.expect == "skip":
            return command, 0, 1
        if case.expect == "error" or command == "check":
            return command, 1, 1
        if command == REPLAYS:
            if case.name in self.loaded:
                return command, 1, 1  # it loads, so its replay must fail
            command = "build"  # not in that folder: judge check could not load it
        kinds = {kind for kind, _ in self.lines_about("check", case.paths, case.prefix)}
        if "error" in kinds:
            return command, 1, 1  # judge check could not load it: nor can db or build
        return command, 0, 1  # a FAIL needs a replay; these stop at files they cannot load

    def unattributed(self, command: str) -> list[str]:
        everything = [p for c in CASES for p in c.paths] + [f"rulings/{g.path}" for g in GOODS]
        prefixes = [c.prefix for c in CASES if c.prefix]
        out = []
        for line in self.runs[command].lines:
            if not line.strip() or line[:1].isspace() or SUMMARY.match(line):
                continue
            if about(line, everything, self.root(command)) or any(
                    about(line, (), self.root(command), p) for p in prefixes):
                continue
            out.append(line)
        return out


@pytest.fixture(scope="module")
def hostile(tmp_path_factory: pytest.TempPathFactory) -> Hostile:
    base = tmp_path_factory.mktemp("hostile")
    corpus, replays, out = base / "corpus", base / "replays", base / "out"
    write_corpus(corpus / "rulings", GOODS, CASES)
    out.mkdir()
    state = Hostile(base, corpus, replays, set(), out, {}, {}, {})
    commands = {
        "check": (["check", "-v", "--junit", str(out / "check.xml"), "rulings"], corpus),
        "db": (["db", "--out", str(out / "judge.db"), "--corpus", str(corpus)], corpus),
        "build": (["build", "--out", str(out / "site"), "--corpus", str(corpus)], corpus),
        REPLAYS: (["build", "--no-search", "--out", str(out / "site-replays"), "--corpus",
                   str(replays)], replays),
    }
    for name, (args, cwd) in commands.items():
        if name == REPLAYS:  # the cases that loaded (judge check replayed them)
            state.loaded = {c.name for c in EITHER if any(
                kind == "fail" for kind, _ in state.lines_about("check", c.paths, c.prefix))}
            write_corpus(replays / "rulings", GOODS,
                         [c for c in EITHER if c.name in state.loaded])
        before, parent = tree(base), sorted(os.listdir(base.parent))
        state.runs[name] = judge(args, cwd)
        state.written[name] = [p for p in changed(before, tree(base)) if not inside(p, out)]
        state.written[name] += site_files(base, [out])
        now = sorted(os.listdir(base.parent))
        state.parent_changed[name] = sorted(set(now) ^ set(parent))
    return state


# ---------------------------------------------------------------------- the suite's size


def test_enough_cases() -> None:
    kinds = {c.expect for c in CASES}
    assert kinds == {"error", "either", "skip"}
    assert len(CASES) + len(DATA) >= 150, (len(CASES), len(DATA))
    assert len(DATA) >= 22
    assert sum(c.name.startswith("rnd-") for c in CASES) >= 80
    assert len(GOODS) >= 8


# ---------------------------------------------------------------------- each run as a whole


@pytest.mark.parametrize("command", COMMANDS)
def test_finishes_in_time(hostile: Hostile, command: str) -> None:
    ran = hostile.runs[command]
    assert not ran.timed_out, ran.show()
    if command == "check":
        assert ran.seconds < CHECK_SECONDS, ran.show()


@pytest.mark.parametrize("command", COMMANDS)
def test_no_traceback(hostile: Hostile, command: str) -> None:
    ran = hostile.runs[command]
    assert "Traceback" not in ran.stdout + ran.stderr, ran.why() + "\n" + ran.show(30)


@pytest.mark.parametrize("command", COMMANDS)
def test_exit_status(hostile: Hostile, command: str) -> None:
    ran = hostile.runs[command]
    assert ran.returncode in (1, 2), ran.show()


@pytest.mark.parametrize("command", COMMANDS)
def test_lines_are_short(hostile: Hostile, command: str) -> None:
    long = [line for line in hostile.runs[command].lines if len(line) > MAX_LINE]
    assert not long, f"{len(long)} line(s) over {MAX_LINE} characters, e.g. " + \
        "; ".join(f"{line[:160]}... ({len(line)} characters)" for line in long[:5])


@pytest.mark.parametrize("command", COMMANDS)
def test_prints_nothing_that_names_no_file(hostile: Hostile, command: str) -> None:
    """Every line reports on a file (or is a FAIL block's detail, or the summary); a build or
    a database may add one line saying why it stopped."""
    stray = hostile.unattributed(command)
    allowed = 0 if command == "check" else 1
    assert len(stray) <= allowed, hostile.runs[command].why() + "\n" + "\n".join(
        line[:300] for line in stray[:20])


@pytest.mark.parametrize("command", COMMANDS)
def test_writes_nothing_outside_its_output(hostile: Hostile, command: str) -> None:
    assert not hostile.written[command], hostile.written[command][:20]
    assert not hostile.parent_changed[command], hostile.parent_changed[command]


def test_check_summary(hostile: Hostile) -> None:
    ran = hostile.runs["check"]
    assert ran.lines and SUMMARY.match(ran.stdout.splitlines()[-1] if ran.stdout else ""), \
        ran.why() + "\n" + ran.show()
    passed, failed = (int(n) for n in re.findall(r"\d+", ran.stdout.splitlines()[-1])[:2])
    goods = sum(len(g.rulesets) for g in GOODS)
    halves = sum(len(c.entries) - 1 for c in CASES)  # the unreported files of pairs may pass
    assert goods <= passed <= goods + halves, (passed, goods, halves)
    reported_skips = sum(bool(hostile.lines_about("check", c.paths)) for c in CASES
                         if c.expect == "skip")
    bad = sum(c.expect != "skip" for c in CASES)
    assert failed == bad + reported_skips, (failed, bad, reported_skips)


def test_check_answers_quickly_for_each_ruling(hostile: Hostile) -> None:
    report = hostile.out / "check.xml"
    assert report.is_file(), hostile.runs["check"].why() or "no JUnit report"
    slow = [(case.get("classname"), case.get("name"), float(case.get("time", 0)))
            for case in ET.parse(report).getroot().iter("testcase")
            if float(case.get("time", 0)) > PER_RULING_SECONDS]
    assert not slow, slow


def test_no_ruling_is_read_through_a_symlink_loop(hostile: Hostile) -> None:
    for command in COMMANDS:
        looped = [line for line in hostile.runs[command].lines if "special/loop/" in line]
        assert not looped, (command, looped[:5])


# ---------------------------------------------------------------------- each case


@pytest.mark.parametrize(("command", "case"),
                         [(cmd, c) for cmd in MAIN for c in CASES] +
                         [(REPLAYS, c) for c in EITHER],
                         ids=lambda v: v if isinstance(v, str) else v.name)
def test_case_is_reported_once(hostile: Hostile, command: str, case: RulingCase) -> None:
    run, low, high = hostile.expected(command, case)
    found = hostile.lines_about(run, case.paths, case.prefix)
    reports = [line for kind, line in found if kind in ("error", "fail")]
    passes = [line for kind, line in found if kind == "ok"]
    problem = hostile.runs[run].why()
    shown = "\n".join(f"  {line[:300]}" for _, line in found[:6]) or "  (no line names it)"
    assert low <= len(reports) <= high, (
        f"{case.name} ({case.about[:120]}): judge {run}: {len(reports)} error/FAIL line(s), "
        f"expected {low}..{high}{'; ' + problem if problem else ''}\n{shown}")
    if len(case.entries) == 1:  # of a pair, the file that is not reported may pass
        assert not passes, f"{case.name} ({case.about[:120]}) passed:\n{shown}"
    long = [line for line in reports if len(line) > MAX_LINE]
    assert not long, (f"{case.name}: a line of {len(long[0]) if long else 0} characters "
                      f"(at most {MAX_LINE}): {long[0][:200] if long else ''}...")


PLACED = [c for c in CASES if c.words or c.blame]


@pytest.mark.parametrize(("command", "case"), [(cmd, c) for cmd in MAIN for c in PLACED],
                         ids=lambda v: v if isinstance(v, str) else v.name)
def test_case_error_names_the_right_place(hostile: Hostile, command: str,
                                          case: RulingCase) -> None:
    """The error names the right file (of a pair: the link that copies a ruling, the broken
    ruling another relates to), the right line, field and bound."""
    run, _, _ = hostile.expected(command, case)
    root = hostile.root(run)
    reports = [line for kind, line in hostile.lines_about(run, case.paths, case.prefix)
               if kind in ("error", "fail")]
    assert reports, f"{case.name}: judge {run} names none of {case.paths}"
    for line in reports:
        if case.blame:
            body = line.removeprefix("Error: ")
            assert any(body.startswith(f"{shown}:") for shown in (
                f"rulings/{case.blame}", str(root / "rulings" / case.blame))), \
                f"{case.name}: not about {case.blame}: {line[:300]}"
        for word in case.words:
            assert word in line, f"{case.name}: no {word!r} in {line[:300]}"


@pytest.mark.parametrize(("command", "good"),
                         [(cmd, g) for cmd in COMMANDS for g in GOODS],
                         ids=lambda v: v if isinstance(v, str) else Path(v.path).stem)
def test_good_ruling_is_checked_and_not_blamed(hostile: Hostile, command: str,
                                               good: Good) -> None:
    found = hostile.lines_about(command, [f"rulings/{good.path}"])
    blamed = [line for kind, line in found if kind in ("error", "fail")]
    assert not blamed, blamed[:3]
    if command == "check":
        ok = [line for kind, line in found if kind == "ok"]
        assert len(ok) == len(good.rulesets), (
            f"{len(ok)} ok line(s) for {len(good.rulesets)} rule sets; "
            f"{hostile.runs[command].why()}\n" + "\n".join(ok))


@pytest.fixture(scope="module")
def goods_build(tmp_path_factory: pytest.TempPathFactory) -> Ran:
    """``judge build`` of the good rulings alone (in the hostile folder, the build stops at
    the files it cannot load, and the replays at the cases that fail, before any page)."""
    base = tmp_path_factory.mktemp("hostile-goods")
    corpus = base / "corpus"
    write_corpus(corpus / "rulings", GOODS, [])
    return judge(["build", "--no-search", "--out", str(base / "site"), "--corpus", str(corpus)],
                 corpus)


def test_good_rulings_build_in_time(goods_build: Ran) -> None:
    """What judge check passes never stalls the build: the goods hold Markdown within the
    limit of one text that took minutes to render before issue 25."""
    assert goods_build.why() == "" and goods_build.returncode == 0, goods_build.show()


# ---------------------------------------------------------------------- broken data folders

DATA_COMMANDS = {
    "check": ["check", "rulings"],
    "db": ["db", "--out", "out/judge.db"],
    "build": ["build", "--no-search", "--out", "out/site"],
}


@dataclass
class DataRuns:
    base: Path
    runs: dict[tuple[str, str], Ran]
    written: dict[str, list[str]]  # case -> paths changed outside its out/
    parent_changed: list[str]


@pytest.fixture(scope="module")
def data_runs(tmp_path_factory: pytest.TempPathFactory) -> DataRuns:
    base = tmp_path_factory.mktemp("hostile-data")
    source = project_root() / "data"
    for case in DATA:
        write_data_case(case, base / case.name, source)
        (base / case.name / "out").mkdir()
    before, parent = tree(base), sorted(os.listdir(base.parent))
    jobs = [(case, command) for case in DATA for command in case.commands]

    def run(job: tuple[DataCase, str]) -> Ran:
        case, command = job
        folder = base / case.name
        return judge(DATA_COMMANDS[command], folder, {"JUDGE_DATA": str(folder / "data")},
                     timeout=TIMEOUT / 2)

    with ThreadPoolExecutor(WORKERS) as pool:
        results = list(pool.map(run, jobs))
    written: dict[str, list[str]] = {case.name: [] for case in DATA}
    for path in changed(before, tree(base)) + site_files(base, []):
        name = Path(path).relative_to(base).parts[0]  # the case folder, or what is in it
        if name in written and inside(path, base / name / "out"):
            continue
        written.setdefault(name, []).append(path)
    parent_changed = sorted(set(os.listdir(base.parent)) ^ set(parent))
    runs = {(c.name, cmd): r for (c, cmd), r in zip(jobs, results, strict=True)}
    return DataRuns(base, runs, written, parent_changed)


def _file_lines(path: Path) -> int:
    """Lines of a regular file (1 for anything else: never open a FIFO)."""
    try:
        if not stat.S_ISREG(os.lstat(path).st_mode):
            return 1
        return max(1, path.read_bytes().count(b"\n") + 1)
    except OSError:
        return 1


@pytest.mark.parametrize(("case", "command"),
                         [(c, cmd) for c in DATA for cmd in c.commands],
                         ids=lambda v: v if isinstance(v, str) else v.name)
def test_data_case_gets_one_error_line(data_runs: DataRuns, case: DataCase,
                                       command: str) -> None:
    ran = data_runs.runs[(case.name, command)]
    folder = data_runs.base / case.name
    assert not ran.timed_out, ran.show()
    assert "Traceback" not in ran.stdout + ran.stderr, ran.why() + "\n" + ran.show(20)
    long = [line for line in ran.lines if len(line) > MAX_LINE]
    assert not long, f"a line of {len(long[0])} characters: {long[0][:200]}..."
    shown = [str(folder / "data" / case.file), f"data/{case.file}"]
    located = r"(?::(?P<line>\d+))?" if case.missing else r":(?P<line>\d+)"
    pattern = re.compile(r"^Error: (?:" + "|".join(re.escape(p) for p in shown) + ")" +
                         located + r": (?P<message>\S.*)$")
    errors = [m for line in ran.lines if (m := pattern.match(line))]
    if case.may_skip and not errors:
        assert ran.returncode == 0, ran.show()  # skipped: then the probe ruling passes
        return
    assert ran.returncode in (1, 2), ran.show()
    assert len(errors) == 1, (f"{len(errors)} line(s) 'Error: {shown[1]}:LINE: ...'\n"
                              + ran.show())
    match = errors[0]
    if not case.missing:
        lines = _file_lines(folder / "data" / case.file)
        assert 1 <= int(match["line"]) <= lines, f"line {match['line']} of {lines}: {match[0]}"
    for word in case.words:
        assert word in match["message"], f"does not mention {word!r}: {match[0][:300]}"
    if case.words:
        assert ": " in match["message"], f"no 'field: ' in {match[0][:300]}"
    blamed = [line for line in ran.lines if about(line, ["rulings/probe.toml"], folder)]
    assert not blamed, f"the ruling is blamed for the data: {blamed[:3]}"


@pytest.mark.parametrize("case", DATA, ids=lambda c: c.name)
def test_data_case_writes_nothing_outside_its_output(data_runs: DataRuns,
                                                     case: DataCase) -> None:
    assert not data_runs.written[case.name], data_runs.written[case.name][:10]


def test_data_cases_write_nothing_elsewhere(data_runs: DataRuns) -> None:
    stray = {name: paths for name, paths in data_runs.written.items()
             if paths and name not in {c.name for c in DATA}}
    assert not stray, stray
    assert not data_runs.parent_changed, data_runs.parent_changed


# ---------------------------------------------------------------------- odd names, every command

NAME_COMMANDS = {
    "check": ["check", "rulings"],
    "db": ["db", "--out", "out/judge.db"],
    "build": ["build", "--no-search", "--out", "out/site"],
    "search": ["search", "--index", "out/index", "refresh"],
    "coverage": ["coverage"],
}


@pytest.mark.parametrize("name", ["good-\udcfe-not-utf8.toml", "GOOD.TOML"])
@pytest.mark.parametrize("command", NAME_COMMANDS)
def test_an_odd_ruling_file_name_gets_one_line(tmp_path: Path, name: str, command: str) -> None:
    """A good ruling under a name that is not UTF-8 (judge check passed it, db, build,
    search and coverage crashed) or in upper case (skipped without a word): one line that
    names the file, from every command."""
    rulings = tmp_path / "rulings" / "odd"
    rulings.mkdir(parents=True)
    (rulings / "other.toml").write_text(skeleton("hx-odd-other"), encoding="utf-8")
    with open(os.fsencode(rulings / name), "wb") as fh:
        fh.write(skeleton("hx-odd-name").encode())
    (tmp_path / "out").mkdir()
    ran = judge(NAME_COMMANDS[command], tmp_path)
    assert ran.why() == "", ran.show(20)
    assert ran.returncode == 2, ran.show()
    stem = name.split("\udcfe")[0].split(".")[0]
    lines = [line for line in ran.lines if re.match(
        r"^(Error: )?rulings/odd/" + re.escape(stem) + r"[^:]*\.(toml|TOML):1: ", line)]
    assert len(lines) == 1, ran.show(20)
    assert "other.toml" not in ran.stdout + ran.stderr, ran.show(20)
