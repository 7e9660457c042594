"""The pytest plugin (entry point ``pytest11``): rulings become test items.

Each test writes a small project into pytester's temporary folder and runs pytest there.
"""

from __future__ import annotations

import re

import pytest

from judge.skeleton import skeleton

GOOD = skeleton("plugin-good")
# the skeleton names three rule sets: 2014-07, 2014-09 and current
RULE_SETS = ("2014-07", "2014-09", "current")


def _failing(text: str) -> str:
    """The skeleton with a wrong expectation: the life cloth stays where it was."""
    bad = text.replace('trash = ["l1"]\nlife = ["l2"]', 'trash = []\nlife = ["l1", "l2"]')
    assert bad != text
    return bad


def _write(pytester: pytest.Pytester, name: str, text: str) -> None:
    folder = pytester.path / "rulings"
    folder.mkdir(exist_ok=True)
    (folder / name).write_text(text, encoding="utf-8")


def test_passing_ruling_collects_one_item_per_rule_set(pytester: pytest.Pytester) -> None:
    _write(pytester, "plugin-good.toml", GOOD)
    collected = pytester.runpytest("--collect-only", "-q", "rulings")
    names = [line for line in collected.outlines if "plugin-good[" in line]
    assert len(names) == len(RULE_SETS), collected.outlines
    for rs in RULE_SETS:
        assert any(line.endswith(f"plugin-good[{rs}]") for line in names), names
    result = pytester.runpytest("-q", "rulings")
    result.assert_outcomes(passed=len(RULE_SETS))
    assert result.ret == 0


def test_items_carry_the_ruling_marker(pytester: pytest.Pytester) -> None:
    _write(pytester, "plugin-good.toml", GOOD)
    result = pytester.runpytest("-q", "-m", "ruling", "rulings")
    result.assert_outcomes(passed=len(RULE_SETS))


def test_keyword_selects_one_rule_set(pytester: pytest.Pytester) -> None:
    _write(pytester, "plugin-good.toml", GOOD)
    result = pytester.runpytest("-q", "-k", "current", "rulings")
    result.assert_outcomes(passed=1, deselected=len(RULE_SETS) - 1)


def test_failing_ruling_reports_the_zone_diff_without_a_traceback(
        pytester: pytest.Pytester) -> None:
    _write(pytester, "plugin-bad.toml", _failing(skeleton("plugin-bad")))
    result = pytester.runpytest("rulings")
    result.assert_outcomes(failed=len(RULE_SETS))
    assert result.ret == 1
    text = result.stdout.str()
    result.stdout.re_match_lines([
        r"^FAIL rulings/plugin-bad\.toml: plugin-bad under current$",
        r"^  expect at line \d+: p1\.trash: expected \[\], got \[l1\]",
        r"^  expect at line \d+: p1\.life: expected \[l1, l2\].*got \[l2\]$",
    ])
    assert "Traceback" not in text
    assert "RulingFailed" not in text
    assert "judge/check.py" not in text and "pytest_plugin.py" not in text


def test_failing_and_passing_rulings_side_by_side(pytester: pytest.Pytester) -> None:
    _write(pytester, "plugin-good.toml", GOOD)
    _write(pytester, "plugin-bad.toml", _failing(skeleton("plugin-bad")))
    result = pytester.runpytest("-q", "rulings")
    result.assert_outcomes(passed=len(RULE_SETS), failed=len(RULE_SETS))


def test_malformed_ruling_reports_the_one_line_error(pytester: pytest.Pytester) -> None:
    text = GOOD.replace('phase = "main"', 'phase = "mian"')
    assert text != GOOD
    line = next(i for i, row in enumerate(text.splitlines(), 1)
                if row.startswith('phase = "mian"'))
    _write(pytester, "plugin-broken.toml", text)
    result = pytester.runpytest("rulings")
    assert result.ret != 0
    result.assert_outcomes(errors=1)
    out = result.stdout.str()
    result.stdout.fnmatch_lines([
        f"*rulings/plugin-broken.toml:{line}: setup.phase: unknown value 'mian' (valid: setup, up, "
        "draw, ener, grow, main, attack, end)*"])
    assert "Traceback" not in out
    assert "tomllib" not in out and "load.py" not in out


def test_toml_syntax_error_is_one_line(pytester: pytest.Pytester) -> None:
    _write(pytester, "plugin-syntax.toml", GOOD.replace("[setup]", "[setup", 1))
    result = pytester.runpytest("rulings")
    result.assert_outcomes(errors=1)
    result.stdout.fnmatch_lines(["*rulings/plugin-syntax.toml:*: TOML syntax: *"])
    assert "Traceback" not in result.stdout.str()


def test_toml_outside_a_rulings_folder_is_not_collected(pytester: pytest.Pytester) -> None:
    (pytester.path / "data").mkdir()
    (pytester.path / "data" / "x.toml").write_text("not = [valid", encoding="utf-8")
    result = pytester.runpytest("-q", "data")
    assert result.ret == pytest.ExitCode.NO_TESTS_COLLECTED


def test_the_corpus_splits_across_xdist_workers(pytester: pytest.Pytester) -> None:
    """Under pytest-xdist (``-n 2``, as ./dev test runs the suite), the rulings' items are
    shared among the workers, each replaying what it was given: a corpus too large for one
    process splits across several (or hosts, with xdist's own options)."""
    for i in range(6):
        _write(pytester, f"plugin-good-{i}.toml", skeleton(f"plugin-good-{i}"))
    result = pytester.runpytest_subprocess("-n", "2", "--dist", "loadfile", "-v", "rulings")
    result.assert_outcomes(passed=6 * len(RULE_SETS))
    workers = {m.group(1) for line in result.outlines
               if (m := re.match(r"^\[(gw\d+)\] .*PASSED", line))}
    assert workers == {"gw0", "gw1"}, result.outlines


def test_a_failing_ruling_under_xdist_reports_the_same_diff(pytester: pytest.Pytester) -> None:
    _write(pytester, "plugin-good.toml", GOOD)
    _write(pytester, "plugin-bad.toml", _failing(skeleton("plugin-bad")))
    result = pytester.runpytest_subprocess("-n", "2", "rulings")
    result.assert_outcomes(passed=len(RULE_SETS), failed=len(RULE_SETS))
    result.stdout.re_match_lines([
        r"^FAIL rulings/plugin-bad\.toml: plugin-bad under current$",
        r"^  expect at line \d+: p1\.trash: expected \[\], got \[l1\]",
    ])
    assert "Traceback" not in result.stdout.str()
