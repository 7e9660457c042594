"""``judge check``: replay rulings under their rule sets and report, shared with pytest.

A :class:`Result` is computed from the traces of one (ruling, rule set) (:func:`result_of`):
``judge check`` and the pytest items replay and then check (:func:`check_scenario`); the site
checks the traces the corpus already holds."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Generator, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from judge.data import check_data, check_main_rulings, load_rulesets
from judge.engine.trace import Replay
from judge.errors import DataError, FormatWarning, JudgeError, ScenarioError, printable
from judge.ids import quote
from judge.scenario.expect import check_replay
from judge.scenario.file import (
    _rulings_folder,
    check_related,
    duplicate_id,
    load_one,
    main_candidates,
)
from judge.scenario.load import discover
from judge.scenario.model import Scenario
from judge.scenario.run import replay
from judge.tomlfile import read_file
from judge.workers import Failed, Head, Pool, default_jobs, pack_error, unpack_error

if TYPE_CHECKING:
    from judge.outputs import Target


@dataclass
class Result:
    """One ruling under one rule set."""

    path: str
    ruling: str
    rules: str
    failures: list[str]
    seconds: float = 0.0
    notes: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.failures

    @property
    def name(self) -> str:
        return f"{self.ruling}[{self.rules}]"

    def report(self) -> str:
        head = f"FAIL {self.path}: {self.ruling} under {self.rules}"
        return "\n".join([head, *(f"  {line}" for line in self.failures)])


@dataclass
class Summary:
    """The results of one ``judge check`` run and its unusable files."""

    results: list[Result] = field(default_factory=list)
    errors: list[ScenarioError] = field(default_factory=list)
    skipped: int = 0
    #: what the files should change, which did not fail them (judge.errors.FormatWarning)
    warnings: list[FormatWarning] = field(default_factory=list)

    @property
    def passed(self) -> int:
        return sum(r.ok for r in self.results)

    @property
    def failed(self) -> int:
        return sum(not r.ok for r in self.results) + len(self.errors)

    def last_line(self) -> str:
        line = f"{self.passed} passed, {self.failed} failed"
        if self.skipped:
            line += f", {self.skipped} skipped"
        if self.warnings:
            count = len(self.warnings)
            line += f", {count} warning{'s' if count > 1 else ''}"
        return line

    @property
    def exit_code(self) -> int:
        if self.errors:
            return 2
        return 1 if self.failed else 0


def _notes(scenario: Scenario, rep: Replay) -> list[str]:
    notes = [f"{len(rep.traces)} branches explored"] if len(rep.traces) > 1 else []
    if rep.cut:
        notes.append(f"exploration cut after {scenario.explore_limit} branches")
    return notes


def result_of(scenario: Scenario, rep: Replay, path: str | None = None,
              seconds: float = 0.0) -> Result:
    """The result of one (ruling, rule set) from its traces (no engine run): the expectations
    checked against every branch. ``path`` is the file as reported (the scenario's own by
    default)."""
    try:
        failures, notes = check_replay(scenario, rep), _notes(scenario, rep)
    except JudgeError as exc:
        failures, notes = [f"engine error: {exc}"], []
    return Result(scenario.path if path is None else path, scenario.id, rep.rules, failures,
                  seconds, notes)


def check_scenario(scenario: Scenario, rules: str) -> Result:
    """Replay one ruling under one rule set (every branch) and check its expectations."""
    start = time.perf_counter()
    try:
        rep = replay(scenario, rules)
        failures = check_replay(scenario, rep)
        notes = _notes(scenario, rep)
    except JudgeError as exc:  # an engine problem is a failure of this ruling, not a crash
        failures, notes = [f"engine error: {exc}"], []
    except (RecursionError, MemoryError) as exc:
        failures, notes = [f"engine error: the replay ran out of "
                           f"{'memory' if isinstance(exc, MemoryError) else 'stack'}"], []
    except Exception as exc:  # a bug of the tool: report it on this ruling, go on with the rest
        failures, notes = [f"internal error, please report it: {type(exc).__name__}: "
                           f"{quote(str(exc))}"], []
    return Result(scenario.path, scenario.id, rules, failures,
                  time.perf_counter() - start, notes)


def iter_checks(paths: Iterable[Path], rules: str | None = None, keyword: str | None = None,
                summary: Summary | None = None, jobs: int | None = 1
                ) -> Iterator[Result | ScenarioError | FormatWarning]:
    """Yield a ScenarioError per unusable file and a FormatWarning per thing a file should
    change (:mod:`judge.scenario.versions`: an older format, a field read for the last
    versions before it is refused), then a result per (ruling, rule set).

    Each ruling is replayed right after it is loaded, and the results are held back until
    every file is loaded: a ruling id used twice and a ``related`` id that names no ruling
    are reported before any result, and the results of the rulings they refuse are dropped.
    The data files are checked before that (a broken data file raises
    :class:`~judge.errors.DataError`). No more than one loaded ruling is held at a time. With
    ``jobs`` above 1 (None: :func:`judge.workers.default_jobs`), the loading and the replays
    are shared among that many processes, this one and forked workers
    (:mod:`judge.workers`); what is yielded is the same, in the same order."""
    check_data()
    known = load_rulesets()
    paths = list(paths)
    files = list(discover(paths))
    shown = [_display(path) for path in files]
    if jobs is None:
        jobs = default_jobs(len(files))

    folders: dict[Path, Path] = {}  # each folder of the run resolved once

    def load(index: int) -> tuple[Scenario | None, Head | Failed]:
        try:
            scenario = load_one(files[index], shown[index], folders)
        except ScenarioError as exc:
            return None, pack_error(index, exc, _written_ids(files[index]))
        return scenario, Head(index, scenario.id, scenario.path, scenario.rulesets,
                              scenario.related, str(files[index]), scenario.warnings)

    def wanted(head: Head) -> list[str]:
        return _wanted(head, rules, keyword, known)

    if jobs > 1 and len(files) > 1:
        with Pool(len(files), jobs, load, wanted, check_scenario,
                  [_size(path) for path in files]) as pool:
            tasks = yield from _sorted(pool.heads(), paths, rules, keyword, summary, known)
            yield from pool.results(tasks)
        return
    # In one process as in each worker: every ruling is replayed right after it is loaded and
    # then let go, so that what is held is one ruling at a time and the small results, not
    # every ruling of the run (the checks across files need only the heads).
    heads: list[Head | Failed] = []
    done: dict[tuple[int, str], Result] = {}
    for index in range(len(files)):
        scenario, head = load(index)
        heads.append(head)
        if scenario is not None and isinstance(head, Head):
            for rs in wanted(head):
                done[(index, rs)] = check_scenario(scenario, rs)
        del scenario
    tasks = yield from _sorted(heads, paths, rules, keyword, summary, known)
    for task in tasks:
        yield done.pop(task)


def _sorted(heads: list[Head | Failed], paths: list[Path], rules: str | None,
            keyword: str | None, summary: Summary | None, known: Mapping[str, object]
            ) -> Generator[ScenarioError | FormatWarning, None, list[tuple[int, str]]]:
    """Yield the errors and warnings of the loaded files in order (unusable files, files of
    an older format, ids used twice, ``related`` ids that name no ruling, then a glossary
    ``main`` that names none); return the replays to make, as (file index, rule set) pairs.
    An error names the line of its file by reading the file again (errors are rare)."""
    loaded: dict[str, Head] = {}
    failed_ids: set[str] = set()
    for head in heads:
        if not isinstance(head, Head):
            error, written = unpack_error(head)
            failed_ids.update(written)
            yield error
            continue
        if summary is not None:
            summary.warnings.extend(head.warnings)
        yield from head.warnings
        if head.id in loaded:
            yield duplicate_id(head, loaded[head.id].path)
            continue
        loaded[head.id] = head
    outside: set[str] | None = None
    known_ids = {**dict.fromkeys(loaded), **dict.fromkeys(failed_ids)}  # built once, not per ruling
    good: list[Head] = []
    for head in loaded.values():
        missing = [r for r in head.related if r not in loaded and r not in failed_ids]
        if missing and outside is None:
            outside = _ids_beside(paths)
            known_ids.update(dict.fromkeys(outside))
        try:
            check_related(head, known_ids)
        except ScenarioError as exc:
            yield exc
            continue
        good.append(head)
    try:  # a glossary term's main ruling must exist (the corpus checks it the same way)
        check_main_rulings(main_candidates(known_ids))
    except DataError as exc:
        yield exc
    tasks: list[tuple[int, str]] = []
    for head in good:
        if rules and summary is not None:
            summary.skipped += sum(rs != rules for rs in head.rulesets)
        tasks.extend((head.at, rs) for rs in _wanted(head, rules, keyword, known))
    return tasks


def _wanted(head: Head, rules: str | None, keyword: str | None,
            known: Mapping[str, object]) -> list[str]:
    """The rule sets to replay ``head``'s ruling under: those ``--rules`` and ``-k`` select."""
    out = []
    for rs in head.rulesets:
        if rules and rs != rules:
            continue
        if keyword and keyword.lower() not in f"{head.id} {rs} {head.path}".lower():
            continue
        if rs not in known:  # pragma: no cover - the loader checks this
            continue
        out.append(rs)
    return out


def _size(path: Path) -> int:
    """The size of a file, to hand out the large ones first (0 if it cannot be read: its
    loading reports why)."""
    try:
        return os.stat(path).st_size
    except OSError:
        return 0


_ID_LINE = re.compile(r'^\s*id\s*=\s*"([^"\n]*)"', re.MULTILINE)


def _written_ids(path: Path) -> set[str]:
    """The ids a file that cannot be loaded seems to declare (so that rulings pointing at it
    are not blamed for its problem)."""
    try:
        return set(_ID_LINE.findall(read_file(path)))
    except JudgeError:
        return set()


def _ids_beside(paths: Iterable[Path]) -> set[str]:
    """Ruling ids in the ``rulings`` folders that hold the checked files (``related`` may
    name a ruling that this run does not check)."""
    out: set[str] = set()
    folders = {_rulings_folder(p) for p in paths}
    for folder in sorted(f for f in folders if f is not None):
        for path in discover([folder]):
            out.update(_written_ids(path))
    return out


def run_checks(paths: Iterable[Path], rules: str | None = None,
               keyword: str | None = None, jobs: int | None = 1) -> Summary:
    summary = Summary()
    for item in iter_checks(paths, rules, keyword, summary, jobs):
        if isinstance(item, ScenarioError):
            summary.errors.append(item)
        elif isinstance(item, Result):
            summary.results.append(item)
    return summary


def _display(path: Path) -> str:
    """The path as printed: relative when it can be, invisible characters escaped."""
    try:
        return printable(os.path.relpath(path))
    except ValueError:  # pragma: no cover - another drive on Windows
        return printable(str(path))


#: What a report judge check wrote starts with (ElementTree's declaration, then the root).
_OWN_REPORT = re.compile(rb'\A<\?xml[^>]*\?>\s*<testsuite name="judge-check"[\s/>]')


def _foreign_report(path: Path) -> str:
    from judge.outputs import head

    return "" if _OWN_REPORT.match(head(path, 512)) else \
        "it is not a JUnit report written by judge check"


def claim_report(target: Path, reads: Iterable[Path], force: bool = False) -> Target:
    """Check that the JUnit report may be written to ``target`` (:mod:`judge.outputs`): a
    report judge check wrote is replaced, anything else only with ``force``, and never a
    ruling being read (``reads``) or the data."""
    from judge.outputs import Kind, claim
    from judge.paths import data_dir

    kind = Kind("write the JUnit report to", folder=False, foreign=_foreign_report)
    return claim(target, kind, force=force, inputs=[*reads, data_dir()])


def write_junit(summary: Summary, target: Path, reads: Iterable[Path] = (),
                force: bool = False) -> None:
    """A JUnit XML report, written to a temporary file and renamed into place."""
    import xml.etree.ElementTree as ET  # here: only --junit needs it

    from judge.outputs import write_file

    claimed = claim_report(target, reads, force)
    suite = ET.Element("testsuite", name="judge-check", tests=str(
        len(summary.results) + len(summary.errors)), failures=str(
        sum(not r.ok for r in summary.results)), errors=str(len(summary.errors)),
        skipped=str(summary.skipped))
    for result in summary.results:
        case = ET.SubElement(suite, "testcase", classname=result.path, name=result.name,
                             time=f"{result.seconds:.4f}")
        if not result.ok:
            failure = ET.SubElement(case, "failure", message=result.failures[0])
            failure.text = "\n".join(result.failures)
    for error in summary.errors:
        case = ET.SubElement(suite, "testcase", classname=error.path, name="load")
        ET.SubElement(case, "error", message=str(error)).text = str(error)
    ET.indent(suite)
    data = ET.tostring(suite, encoding="unicode", xml_declaration=True)
    write_file(claimed, (data + "\n").encode("utf-8"))
