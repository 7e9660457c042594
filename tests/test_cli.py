"""The ``judge`` command line, on temporary copies of rulings.

``judge check`` runs in-process through click's CliRunner; the paths that end in a
``JudgeError`` (reported by ``judge.cli.main`` as ``Error: ...``, exit status 2) run as a
subprocess, the way a user meets them.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge.cli import cli
from judge.data import load_rulesets
from judge.engine.events import EVENT_KINDS, Event
from judge.engine.trace import Trace, is_key_event
from judge.paths import project_root
from judge.skeleton import skeleton

RULE_SETS = ("2014-07", "2014-09", "current")  # the skeleton's rule sets
LAST_LINE = re.compile(r"^(\d+) passed, (\d+) failed$")


def failing(ruling_id: str) -> str:
    text = skeleton(ruling_id)
    bad = text.replace('trash = ["l1"]\nlife = ["l2"]', 'trash = []\nlife = ["l1", "l2"]')
    assert bad != text
    return bad


def malformed(ruling_id: str) -> tuple[str, int]:
    text = skeleton(ruling_id).replace('phase = "main"', 'phaze = "main"', 1)
    line = next(i for i, row in enumerate(text.splitlines(), 1) if row.startswith("phaze"))
    return text, line


@pytest.fixture
def corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """tmp/good/cli-good.toml, tmp/bad/cli-bad.toml, tmp/broken/cli-broken.toml; cwd = tmp."""
    for folder, name, text in (("good", "cli-good", skeleton("cli-good")),
                               ("bad", "cli-bad", failing("cli-bad")),
                               ("broken", "cli-broken", malformed("cli-broken")[0])):
        (tmp_path / folder).mkdir()
        (tmp_path / folder / f"{name}.toml").write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def check(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, ["check", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output.splitlines()


def judge(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    done = subprocess.run([sys.executable, "-m", "judge.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=120)
    assert "Traceback" not in done.stdout + done.stderr
    return done


# ---------------------------------------------------------------------- judge check


def test_check_all_pass_exit_0(corpus: Path) -> None:
    code, lines = check("good")
    assert code == 0
    assert lines[-1] == f"{len(RULE_SETS)} passed, 0 failed"
    assert lines == [lines[-1]]  # nothing else without -v


def test_check_verbose_lists_every_pass(corpus: Path) -> None:
    code, lines = check("-v", "good")
    assert code == 0
    for rs in RULE_SETS:
        assert f"ok   good/cli-good.toml: cli-good under {rs}" in lines
    assert lines[-1] == f"{len(RULE_SETS)} passed, 0 failed"


def test_check_failure_exit_1_with_path_id_rule_set_and_zone_diff(corpus: Path) -> None:
    code, lines = check("bad", "good")
    assert code == 1
    assert lines[-1] == f"{len(RULE_SETS)} passed, {len(RULE_SETS)} failed"
    text = "\n".join(lines)
    for rs in RULE_SETS:
        assert f"FAIL bad/cli-bad.toml: cli-bad under {rs}" in lines
    assert re.search(r"^  expect at line \d+: p1\.trash: expected \[\], got \[l1\]", text, re.M)
    assert re.search(r"^  expect at line \d+: p1\.life: expected \[l1, l2\].*got \[l2\]$",
                     text, re.M)


def test_check_unusable_file_exit_2_one_line(corpus: Path) -> None:
    _, line = malformed("cli-broken")
    code, lines = check("broken")
    assert code == 2
    assert lines[-1] == "0 passed, 1 failed"
    assert len(lines) == 2
    assert re.match(rf"^Error: broken/cli-broken\.toml:{line}: setup\.phaze: unknown field "
                    r"\(did you mean `phase`\?\) \(valid: .*phase.*\)$", lines[0]), lines[0]


def test_check_unusable_file_wins_over_failures(corpus: Path) -> None:
    code, lines = check("good", "bad", "broken")
    assert code == 2
    n = len(RULE_SETS)
    assert lines[-1] == f"{n} passed, {n + 1} failed"


@pytest.mark.parametrize("verbose", [False, True])
def test_check_last_line_format(corpus: Path, verbose: bool) -> None:
    _, lines = check(*(["-v"] if verbose else []), "good", "bad")
    assert LAST_LINE.match(lines[-1]), lines[-1]


def test_check_rules_option(corpus: Path) -> None:
    code, lines = check("--rules", "current", "good", "bad")
    assert code == 1
    assert lines[-1] == f"1 passed, 1 failed, {2 * (len(RULE_SETS) - 1)} skipped"
    assert "FAIL bad/cli-bad.toml: cli-bad under current" in lines
    assert not any("under 2014-07" in line for line in lines)


def test_check_unknown_rule_set(corpus: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "--rules", "2015-01", "good"])
    assert result.exit_code == 2
    valid = ", ".join(load_rulesets())
    assert f"unknown rule set '2015-01' (valid: {valid})" in result.output
    assert "Traceback" not in result.output


def test_check_keyword_option(corpus: Path) -> None:
    code, lines = check("-k", "2014-09", "good", "bad")
    assert code == 1
    assert lines[-1] == "1 passed, 1 failed"
    code, lines = check("-k", "cli-good", "good", "bad")
    assert (code, lines[-1]) == (0, f"{len(RULE_SETS)} passed, 0 failed")
    code, lines = check("-k", "no-such-ruling", "good", "bad")
    assert (code, lines[-1]) == (0, "0 passed, 0 failed")


def test_check_junit_is_valid_xml(corpus: Path) -> None:
    target = corpus / "out" / "report.xml"
    code, lines = check("--junit", str(target), "good", "bad", "broken")
    assert code == 2
    root = ET.parse(target).getroot()
    assert root.tag == "testsuite"
    n = len(RULE_SETS)
    assert root.get("tests") == str(2 * n + 1)
    assert root.get("failures") == str(n)
    assert root.get("errors") == "1"
    cases = root.findall("testcase")
    assert len(cases) == 2 * n + 1
    names = {c.get("name") for c in cases}
    assert {f"cli-good[{rs}]" for rs in RULE_SETS} <= names
    failures = [c for c in cases if c.find("failure") is not None]
    assert len(failures) == n
    assert all("p1.trash" in (c.find("failure").text or "") for c in failures)  # type: ignore[union-attr]
    errors = [c for c in cases if c.find("error") is not None]
    assert len(errors) == 1 and "setup.phaze" in (errors[0].find("error").get("message")  # type: ignore[union-attr]
                                                  or "")
    assert lines[-1] == f"{n} passed, {n + 1} failed"
    assert not list((corpus / "out").glob(".*.tmp"))  # the atomic write left no temp file


def test_check_default_folder_is_rulings(corpus: Path) -> None:
    (corpus / "rulings").mkdir()
    (corpus / "rulings" / "x.toml").write_text(skeleton("cli-default"), encoding="utf-8")
    code, lines = check()
    assert (code, lines[-1]) == (0, f"{len(RULE_SETS)} passed, 0 failed")


def test_check_missing_path_is_a_usage_error(corpus: Path) -> None:
    result = CliRunner().invoke(cli, ["check", "nowhere"])
    assert result.exit_code == 2
    assert "nowhere" in result.output


# ---------------------------------------------------------------------- judge replay


def test_replay_text(corpus: Path) -> None:
    result = CliRunner().invoke(cli, ["replay", "good/cli-good.toml", "--rules", "2014-07"])
    assert result.exit_code == 0, result.output
    lines = result.output.splitlines()
    assert lines[0] == "cli-good under 2014-07"
    assert "-- step 1: effect" in lines
    assert any(re.match(r"^   #\d+@1 refresh \[rule\] player=p1 ", line) for line in lines)
    assert any("skipped" in line and "wanted=3" in line for line in lines)


def test_replay_defaults_to_the_last_rule_set(corpus: Path) -> None:
    result = CliRunner().invoke(cli, ["replay", "good/cli-good.toml"])
    assert result.output.splitlines()[0] == f"cli-good under {RULE_SETS[-1]}"


def test_replay_json_is_the_trace(corpus: Path) -> None:
    """``--json`` prints Trace.to_dict(): the events (as ``Event.to_dict``), a position after
    the set-up and after each step, the choices and the problems."""
    result = CliRunner().invoke(cli, ["replay", "good/cli-good.toml", "--json"])
    assert result.exit_code == 0
    data = json.loads(result.output)
    events = [Event.from_dict(e) for e in data["events"]]
    assert events
    assert [e.seq for e in events] == list(range(len(events)))
    assert all(type(e) is EVENT_KINDS[e.type] for e in events)
    assert any(e.type == "refresh" and e.player == "p1" for e in events)
    assert [json.loads(e.to_json()) for e in events] == data["events"]
    trace = Trace.from_dict(data)
    assert trace.to_dict() == data
    steps = max(e.step for e in events)
    assert len(trace.positions) == steps + 1
    assert data["problems"] == [] and data["choices"] == []
    assert [e.seq for e in events if is_key_event(e)] == list(trace.key_events)
    assert any(e.type == "refresh" for e in events if e.seq in trace.key_events)


def test_replay_unnamed_rule_set_is_an_error(corpus: Path) -> None:
    done = judge("replay", "good/cli-good.toml", "--rules", "2014-04", cwd=corpus)
    assert done.returncode == 2
    assert done.stderr.startswith("Error: cli-good does not name rule set '2014-04' (valid: ")


def test_replay_malformed_file_is_one_line(corpus: Path) -> None:
    _, line = malformed("cli-broken")
    done = judge("replay", "broken/cli-broken.toml", cwd=corpus)
    assert done.returncode == 2
    assert done.stderr.strip().splitlines() == [
        done.stderr.strip().splitlines()[0]]
    assert done.stderr.startswith(f"Error: broken/cli-broken.toml:{line}: setup.phaze: ")


# ---------------------------------------------------------------------- judge new


def test_new_writes_a_skeleton_that_passes(corpus: Path) -> None:
    result = CliRunner().invoke(cli, ["new", "fresh-ruling", "--dir", "made"])
    assert result.exit_code == 0, result.output
    target = corpus / "made" / "fresh-ruling.toml"
    assert result.output.strip() == f"wrote {Path('made') / 'fresh-ruling.toml'}"
    assert target.read_text(encoding="utf-8") == skeleton("fresh-ruling")
    code, lines = check(str(target))
    assert (code, lines[-1]) == (0, f"{len(RULE_SETS)} passed, 0 failed")


def test_new_default_folder_is_rulings(corpus: Path) -> None:
    (corpus / "rulings").mkdir()
    result = CliRunner().invoke(cli, ["new", "in-rulings"])
    assert result.exit_code == 0
    assert (corpus / "rulings" / "in-rulings.toml").is_file()


def test_new_refuses_to_overwrite(corpus: Path) -> None:
    target = corpus / "made" / "taken.toml"
    target.parent.mkdir()
    target.write_text("# mine\n", encoding="utf-8")
    done = judge("new", "taken", "--dir", "made", cwd=corpus)
    assert done.returncode == 2
    assert "already exists" in done.stderr and done.stderr.startswith("Error: ")
    assert target.read_text(encoding="utf-8") == "# mine\n"


def test_new_refuses_a_bad_id(corpus: Path) -> None:
    done = judge("new", "Bad_Id", "--dir", "made", cwd=corpus)
    assert done.returncode == 2
    assert done.stderr.startswith("Error: 'Bad_Id' is not a ruling id (lowercase a-z")
    assert not (corpus / "made").exists()


# ---------------------------------------------------------------------- the real script


def test_installed_script_check_exit_codes(corpus: Path) -> None:
    done = judge("check", "good", cwd=corpus)
    assert (done.returncode, done.stdout.splitlines()[-1]) == (0, "3 passed, 0 failed")
    done = judge("check", "bad", cwd=corpus)
    assert (done.returncode, done.stdout.splitlines()[-1]) == (1, "0 passed, 3 failed")
    done = judge("check", "broken", cwd=corpus)
    assert (done.returncode, done.stdout.splitlines()[-1]) == (2, "0 passed, 1 failed")
    done = judge("check", "--rules", "nope", "good", cwd=corpus)
    assert done.returncode == 2 and "unknown rule set 'nope' (valid: " in done.stderr


# ---------------------------------------------------------------------- documentation


def _docs_text() -> dict[str, str]:
    root = project_root()
    out = {}
    readme = root / "README.md"
    out["README.md"] = readme.read_text(encoding="utf-8") if readme.is_file() else ""
    docs = root / "docs"
    out["docs/"] = "\n".join(p.read_text(encoding="utf-8")
                             for p in sorted(docs.rglob("*.md"))) if docs.is_dir() else ""
    return out


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_docs_mention_every_command(command: str) -> None:
    for where, text in _docs_text().items():
        assert f"judge {command}" in text, f"{where} does not mention `judge {command}`"


@pytest.mark.parametrize("command", sorted(cli.commands))
def test_cli_reference_names_every_option(command: str) -> None:
    """docs/cli.md's synopsis of each command lists every option the command takes."""
    text = (project_root() / "docs" / "cli.md").read_text(encoding="utf-8")
    synopses = [line for line in text.splitlines() if line.startswith(f"judge {command}")]
    assert synopses, f"docs/cli.md has no synopsis line for `judge {command}`"
    listed = " ".join(synopses)
    missing = [param.opts for param in cli.commands[command].params
               if param.opts[0].startswith("-")
               and not any(re.search(rf"(?<![\w-]){re.escape(name)}\b", listed)
                           for name in param.opts)]
    assert not missing, f"docs/cli.md's `judge {command}` synopsis lacks {missing}"
