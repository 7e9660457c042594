"""``judge check --jobs N``: the same report, byte for byte, from any number of processes.

The corpus here holds what a report can say: passing and failing rulings, an unusable file,
a ruling id used twice and a ``related`` id that names no ruling, across folders, so that
each worker loads some of each.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge.check import run_checks
from judge.cli import cli
from judge.paths import project_root
from judge.skeleton import skeleton
from judge.workers import FILES_PER_JOB, default_jobs, usable_cpus


def _write(folder: Path, name: str, text: str) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.toml").write_text(text, encoding="utf-8")


@pytest.fixture
def mixed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    rulings = tmp_path / "rulings"
    for i in range(7):
        _write(rulings / "good", f"jobs-good-{i}", skeleton(f"jobs-good-{i}"))
    bad = skeleton("jobs-bad").replace('trash = ["l1"]\nlife = ["l2"]',
                                       'trash = []\nlife = ["l1", "l2"]')
    _write(rulings / "bad", "jobs-bad", bad)
    _write(rulings / "broken", "jobs-broken",
           skeleton("jobs-broken").replace('phase = "main"', 'phaze = "main"', 1))
    _write(rulings / "twice", "jobs-twice", skeleton("jobs-good-3"))
    related = skeleton("jobs-related")
    related = re.sub(r"(?m)^related = .*$", 'related = ["jobs-good-1", "no-such-ruling"]',
                     related)
    assert "no-such-ruling" in related
    _write(rulings / "related", "jobs-related", related)
    # files that cannot be loaded: each worker reports them as one process does
    _write(rulings / "unusable", "jobs-syntax", 'id = "jobs-syntax"\n[[[\n')
    _write(rulings / "unusable", "jobs-deep", "x = " + "[" * 40 + "]" * 40 + "\n")
    (rulings / "unusable" / "jobs-latin1.toml").write_bytes(b'id = "caf\xe9"\n')
    (rulings / "good" / "jobs-bom.toml").write_text("\ufeff" + skeleton("jobs-bom"),
                                                    encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def _check(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, ["check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    return result.exit_code, result.output


@pytest.mark.parametrize("extra", [(), ("-v",), ("--rules", "current"), ("-k", "good-2")])
def test_the_report_is_the_same_from_any_number_of_processes(
        mixed: Path, extra: tuple[str, ...]) -> None:
    one = _check("rulings", "--jobs", "1", *extra)
    assert one[0] == 2  # the unusable file, the id used twice, the unknown related id
    for jobs in ("2", "3", "16"):
        assert _check("rulings", "--jobs", jobs, *extra) == one
    assert _check("rulings", *extra) == one  # the default


def test_the_errors_found_across_files_name_the_same_lines(mixed: Path) -> None:
    code, out = _check("rulings", "--jobs", "3")
    assert "rulings/twice/jobs-twice.toml:" in out and "is already used by" in out
    assert "no ruling has the id 'no-such-ruling'" in out
    assert "FAIL rulings/bad/jobs-bad.toml: jobs-bad under" in out
    assert out.splitlines()[-1].endswith("failed")


def test_results_come_in_the_order_of_one_process(mixed: Path) -> None:
    one = run_checks([Path("rulings")], jobs=1)
    three = run_checks([Path("rulings")], jobs=3)
    assert [(r.path, r.ruling, r.rules, r.failures, r.notes) for r in three.results] == \
        [(r.path, r.ruling, r.rules, r.failures, r.notes) for r in one.results]
    assert [str(e) for e in three.errors] == [str(e) for e in one.errors]
    assert (three.passed, three.failed) == (one.passed, one.failed)


def test_junit_reports_the_same_cases(mixed: Path) -> None:
    def cases(path: Path) -> str:
        return re.sub(r'time="[0-9.]+"', 'time=""', path.read_text(encoding="utf-8"))

    _check("rulings", "--jobs", "1", "--junit", "one.xml")
    _check("rulings", "--jobs", "2", "--junit", "two.xml")
    assert cases(mixed / "one.xml") == cases(mixed / "two.xml")


def test_the_default_is_one_process_for_a_few_files_and_at_most_one_per_cpu() -> None:
    assert default_jobs(1) == 1
    assert default_jobs(FILES_PER_JOB - 1) == 1
    assert default_jobs(FILES_PER_JOB * 2) == min(2, usable_cpus())
    assert 1 <= default_jobs(10_000) <= usable_cpus()


def test_jobs_must_be_positive(mixed: Path) -> None:
    code, out = _check("rulings", "--jobs", "0")
    assert code == 2 and "--jobs" in out


def test_the_option_and_the_workers_are_documented() -> None:
    root = project_root()
    cli_doc = (root / "docs" / "cli.md").read_text(encoding="utf-8")
    assert "[-j N]" in cli_doc and "`-j N`, `--jobs N`" in cli_doc
    assert "judge/workers.py" in (root / "docs" / "architecture.md").read_text(encoding="utf-8")
