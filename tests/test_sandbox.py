"""The sandbox's Python side, natively: the same page sections as the static page, judge
check's own lines for broken edits, runaway effects stopped by the engine's limits, and the
build's part (Pyodide's files, the package zip, a build without node_modules).

The same functions run under Pyodide in Chromium in tests/test_sandbox_browser.py.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from judge.paths import project_root
from judge.site import sandbox, sandbox_build
from judge.site.context import PageSpec, SiteModel
from judge.site.load import load
from judge.site.render import render

RULING = "rulings/refresh/first-refresh-does-not-end-turn.toml"
#: Rulings with several rule sets, folded replays, outcomes (branches) and key moments.
SAMPLES = (RULING, "rulings/battle/double-crush-defender-orders-the-bursts.toml")


def text_of(path: str) -> str:
    return (project_root() / path).read_text(encoding="utf-8")


def sections(page: str) -> str:
    """The replay sections of a built ruling page (replay.html's part of it)."""
    start = page.index('<section id="rulesets"')
    return page[start:page.index('<section id="sources"')]


@pytest.fixture(scope="module")
def model() -> SiteModel:
    return SiteModel.build(load(project_root()))


def outcome_ruling(model: SiteModel) -> str:
    return next(d.ruling.path for d in model.site.rulings if d.outcomes and not d.failing)


@pytest.mark.parametrize("lang", ["ja", "en", "zh-Hans"])
def test_the_sandbox_renders_the_page_sections_byte_for_byte(model: SiteModel,
                                                            lang: str) -> None:
    for path in (*SAMPLES, outcome_ruling(model)):
        data = next(d for d in model.site.rulings if d.ruling.path == path)
        page = render("ruling.html", lang,
                      model.context(PageSpec(f"rulings/{data.id}/", "ruling.html", data.id),
                                    lang))
        answer = sandbox.replay_text(text_of(path), path, lang)
        assert answer["ok"] and answer["line"] == 0, answer["report"]
        assert answer["html"] == sections(page), path


def test_an_edit_changes_the_replay_and_fails_the_expectation() -> None:
    edited = text_of(RULING).replace('hand = ["h1"]', 'hand = ["h1", "h2"]')
    answer = sandbox.replay_text(edited, RULING, "en")
    assert not answer["ok"] and answer["line"] == 0
    assert answer["report"][0] == (f"FAIL {RULING}: first-refresh-does-not-end-turn under "
                                   "2014-04")
    assert "unexpected h2" in answer["report"][1]
    assert answer["report"][-1] == "0 passed, 4 failed"
    assert ">h2<" in answer["html"] or "h2" in answer["html"]


def judge_check_lines(tmp_path: Path, path: str, text: str) -> list[str]:
    """``judge check``'s output for ``text`` written at ``path`` under ``tmp_path``."""
    file = tmp_path / path
    file.parent.mkdir(parents=True, exist_ok=True)
    file.write_text(text, encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "judge.cli", "check", path], cwd=tmp_path,
                          capture_output=True, text=True, timeout=120)
    return done.stdout.splitlines()


@pytest.mark.parametrize("breakage, line", [
    (("turn = 3\n", 'turn = "three"\n'), 31),          # a wrong type
    (('hand = ["h1"]', 'hand = ["h1:no-such-card"]'), 39),  # an unknown card
    (("[setup]\n", "[setup\n"), 30),                   # invalid TOML
])
def test_a_broken_edit_gives_judge_checks_one_line_error_at_its_line(
        tmp_path: Path, breakage: tuple[str, str], line: int) -> None:
    text = text_of(RULING).replace(*breakage, 1)
    answer = sandbox.replay_text(text, RULING, "en", known=sandbox.corpus_ids())
    assert answer["line"] == line and answer["html"] == ""
    error = answer["report"][0]
    assert error.startswith(f"Error: {RULING}:{line}: ") and "\n" not in error
    # judge check prints the same line for the same file (related ids aside: alone here)
    alone = re.sub(r"(?m)^related = .*$", "related = []", text)
    assert sandbox.replay_text(alone, RULING, "en")["report"][0] in \
        judge_check_lines(tmp_path, RULING, alone)


def test_nonsense_and_hostile_input_gives_one_line() -> None:
    for text in ("", "\x00\x01", "a = [" * 5000, "id = 'x'\n" * 3, "[[steps]]\n" * 2000):
        answer = sandbox.replay_text(text, "../../etc/passwd", "xx")
        assert answer["line"] >= 1, answer
        assert answer["report"][0].startswith(f"Error: {sandbox.DEFAULT_PATH}:")
        assert "\n" not in answer["report"][0] and "Traceback" not in answer["report"][0]


RUNAWAY_STEP = """[[steps]]
action = "effect"
player = "p1"
ops = [""" + ", ".join(['{ op = "mill", count = 1000 }'] * 10) + "]\n"


def runaway(blank: str) -> str:
    """The skeleton under 2014-04 (a refresh refills the deck and the turn goes on) milling
    10,000 cards: the engine's event budget stops it."""
    text = blank.replace('rulesets = ["2014-07", "2014-09", "current"]',
                         'rulesets = ["2014-04"]')
    return text.replace('[[steps]]\naction = "effect"\nplayer = "p1"\n'
                        'ops = [{ op = "mill", count = 3 }]\n', RUNAWAY_STEP)


def test_a_runaway_effect_stops_at_the_engines_limit_with_its_message() -> None:
    text = runaway(sandbox.vocabulary()["blank"])
    assert RUNAWAY_STEP in text
    answer = sandbox.replay_text(text, sandbox.DEFAULT_PATH, "en")
    assert not answer["ok"]
    assert any("engine error: more than 20000 events in one replay (limit; see "
               "docs/limits.md)" in line for line in answer["report"]), answer["report"]


def test_the_blank_ruling_is_judge_news_skeleton_and_passes_judge_check(
        tmp_path: Path) -> None:
    words = sandbox.vocabulary("ja")
    assert words["words"]["download"] != "Download the ruling file"  # translated
    answer = sandbox.replay_text(words["blank"], words["blank_path"], "ja")
    assert answer["ok"] and answer["report"] == ["3 passed, 0 failed"]
    new = tmp_path / "new"
    subprocess.run([sys.executable, "-m", "judge.cli", "new", sandbox.BLANK_ID,
                    "--dir", str(new)], capture_output=True, timeout=60, check=True)
    assert (new / f"{sandbox.BLANK_ID}.toml").read_text(encoding="utf-8") == words["blank"]
    assert judge_check_lines(tmp_path, words["blank_path"], words["blank"])[-1] == \
        "3 passed, 0 failed"


def test_trace_json_is_judge_replay_json() -> None:
    done = subprocess.run([sys.executable, "-m", "judge.cli", "replay", "--json",
                           str(project_root() / RULING)], capture_output=True, text=True,
                          timeout=60)
    scenario = sandbox.load_scenario(text_of(RULING), RULING)
    assert done.stdout == sandbox.trace_json(scenario, "current") + "\n"


# ---------------------------------------------------------------------------- the build


def test_the_build_packs_this_package_and_only_the_pyodide_files_needed(
        tmp_path: Path) -> None:
    if sandbox_build.missing_reason():
        pytest.skip(sandbox_build.missing_reason())
    site = load(project_root())
    first = sandbox_build.write_sandbox(site, tmp_path / "a")
    sandbox_build.write_sandbox(site, tmp_path / "b")
    assert not first.missing
    assert sorted(p.name for p in (tmp_path / "a" / "pyodide").iterdir()) == \
        sorted(sandbox_build.PYODIDE_FILES)
    archive = tmp_path / "a" / "sandbox" / "judge.zip"
    assert archive.read_bytes() == (tmp_path / "b" / "sandbox" / "judge.zip").read_bytes()
    with zipfile.ZipFile(archive) as z:
        names = set(z.namelist())
        assert z.read("judge/site/sandbox.py") == \
            (project_root() / "judge/site/sandbox.py").read_bytes()
        ids = json.loads(z.read(sandbox.IDS_FILE))
    assert "judge/locale/ja/LC_MESSAGES/messages.mo" in names
    assert not any(n.endswith((".po", ".so", ".pyc")) for n in names)
    assert {"data/rulesets.toml", "site_templates/replay.html", "jinja2/__init__.py",
            "markupsafe/__init__.py"} <= names
    assert ids == sorted(d.id for d in site.rulings)
    listed = json.loads((tmp_path / "a" / "sandbox" / "files.json").read_text())["files"]
    assert set(listed) == set(first.files)
    assert (tmp_path / "a" / "sandbox" / RULING).read_bytes() == text_of(RULING).encode()


def test_without_node_modules_the_build_says_so_in_one_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_build, "pyodide_dir", lambda: tmp_path / "none")
    report = sandbox_build.write_sandbox(load(project_root()), tmp_path / "site")
    assert report.missing == ("the sandbox is left out of this build: node_modules/pyodide "
                              "is missing (run `npm ci` in the project, as ./dev does)")
    assert not (tmp_path / "site").exists()


def test_the_pinned_pyodide_runs_python_3_11_or_later() -> None:
    lock = json.loads((project_root() / "package-lock.json").read_text(encoding="utf-8"))
    version = lock["packages"]["node_modules/pyodide"]["version"]
    assert version == json.loads((project_root() / "package.json").read_text())[
        "dependencies"]["pyodide"]  # pinned exactly
    if sandbox_build.installed_version():
        info = json.loads((sandbox_build.pyodide_dir() / "pyodide-lock.json").read_text())
        major, minor = (int(x) for x in info["info"]["python"].split(".")[:2])
        assert (major, minor) >= (3, 11)  # tomllib
