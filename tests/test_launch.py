"""The ``judge`` console script (judge/launch.py): ``judge check`` starts its parsing child
before click is imported and ends without the interpreter's teardown; what it prints and
its exit status are those of the command line module alone."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from judge import preparse
from judge.cli import cli
from judge.skeleton import skeleton


def _corpus(folder: Path, count: int = 30, bad: bool = False) -> Path:
    rulings = folder / "rulings"
    rulings.mkdir(parents=True)
    for i in range(count):
        (rulings / f"launch-{i}.toml").write_text(skeleton(f"launch-{i}"), encoding="utf-8")
    if bad:  # an expectation that fails: exit status 1 and a report
        text = skeleton("launch-bad").replace('trash = ["l1"]\nlife = ["l2"]',
                                              'trash = []\nlife = ["l1", "l2"]')
        (rulings / "launch-bad.toml").write_text(text, encoding="utf-8")
    return rulings


def _console(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    code = f"import sys\nsys.argv = ['judge', *{args!r}]\nfrom judge.launch import main\nmain()\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


def _module(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    code = f"import sys\nsys.argv = ['judge', *{args!r}]\nfrom judge.cli import main\nmain()\n"
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=cwd)


@pytest.mark.parametrize("args", [
    ["check", "rulings"],
    ["check", "rulings", "--jobs", "2"],
    ["check", "-v", "rulings"],
    ["check", "rulings", "-j", "1"],
    ["check", "nowhere"],
    ["check", "rulings", "--rules", "no-such-set"],
    ["check", "rulings", "--frobnicate"],
])
def test_the_console_script_says_what_the_command_line_module_says(
        tmp_path: Path, args: list[str]) -> None:
    _corpus(tmp_path, bad=True)
    fast, plain = _console(args, tmp_path), _module(args, tmp_path)
    assert (fast.returncode, fast.stdout, fast.stderr) == \
        (plain.returncode, plain.stdout, plain.stderr)
    assert "Traceback" not in fast.stderr


def test_a_failing_check_ends_with_status_1_and_its_whole_report(tmp_path: Path) -> None:
    _corpus(tmp_path, bad=True)
    done = _console(["check", "rulings"], tmp_path)
    assert done.returncode == 1
    assert "FAIL rulings/launch-bad.toml" in done.stdout
    assert done.stdout.endswith("90 passed, 3 failed\n")  # three rule sets each


def test_the_junit_report_is_whole_when_the_process_ends(tmp_path: Path) -> None:
    _corpus(tmp_path)
    done = _console(["check", "rulings", "--junit", "out/report.xml"], tmp_path)
    assert done.returncode == 0, done.stderr
    report = (tmp_path / "out" / "report.xml").read_text(encoding="utf-8")
    assert report.rstrip().endswith("</testsuite>") and report.count("<testcase ") == 90
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["report.xml"]


@pytest.mark.parametrize(("argv", "read"), [
    (["check"], None),  # the default folder: below
    (["check", "a", "b"], (["a", "b"], None)),
    (["check", "a", "-j", "3"], (["a"], 3)),
    (["check", "-j3", "a"], (["a"], 3)),
    (["check", "--jobs=4", "a", "-v"], (["a"], 4)),
    (["check", "--rules", "current", "-k", "grow", "--junit=r.xml", "a"], (["a"], None)),
    (["check", "--", "-a"], (["-a"], None)),
    (["check", "--jobs", "0", "a"], "none"),
    (["check", "--jobs", "x", "a"], "none"),
    (["check", "-j"], "none"),
    (["check", "--help"], "none"),
    (["check", "-vj2", "a"], "none"),
    (["check", "-x", "a"], "none"),
    (["build"], "none"),
    ([], "none"),
])
def test_the_early_start_reads_the_check_command_line_only_where_it_is_sure(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, argv: list[str],
        read: object) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rulings").mkdir()
    got = preparse._check_args(argv)
    if read == "none":
        assert got is None
    elif read is None:
        assert got == ([Path("rulings")], None)
    else:
        paths, jobs = read  # type: ignore[misc]
        assert got == ([Path(p) for p in paths], jobs)


def test_the_early_start_knows_every_option_of_judge_check() -> None:
    command = cli.commands["check"]
    flags = {o for p in command.params if getattr(p, "is_flag", False) for o in p.opts}
    valued = {o for p in command.params if p.param_type_name == "option"
              and not getattr(p, "is_flag", False) for o in p.opts}
    assert flags == preparse.CHECK_FLAGS
    assert valued == preparse.CHECK_VALUED


def test_the_early_child_is_handed_over_only_for_the_same_paths_and_jobs(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _corpus(tmp_path)
    monkeypatch.chdir(tmp_path)
    preparse.begin(["check", "rulings", "-j", "2"])
    early = preparse._early
    assert early is not None
    child = early[2]
    assert preparse.start([Path("rulings")], 2) is child
    child.close()
    preparse.begin(["check", "rulings", "-j", "2"])
    early = preparse._early
    assert early is not None
    other = preparse.start([Path("rulings")], 3)  # not what it was started for
    assert other is not None and other is not early[2]
    other.close()
    with pytest.raises(ChildProcessError):
        os.waitpid(early[2].pid, 0)  # ended when it was not taken


def test_an_early_child_no_command_takes_is_ended(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    _corpus(tmp_path)
    monkeypatch.chdir(tmp_path)
    preparse.begin(["check", "rulings", "-j", "2"])
    early = preparse._early
    assert early is not None
    preparse.discard()
    assert preparse._early is None
    with pytest.raises(ChildProcessError):
        os.waitpid(early[2].pid, 0)
