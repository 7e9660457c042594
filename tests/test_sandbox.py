"""The sandbox's Python side, natively: the same page sections as the static page, judge
check's own lines for broken edits, runaway effects stopped by the engine's limits, and the
build's part (Pyodide's files, the package zip, a build without node_modules).

The same functions run under Pyodide in Chromium in tests/test_sandbox_browser.py.
"""

from __future__ import annotations

import gzip
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import zipfile
from collections.abc import Iterator
from html.parser import HTMLParser
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
    """The replay sections of a built ruling page (replay.html's part of it: from the key to
    the cards, or the answer's facts when no card has a name)."""
    starts = [page.find(s) for s in ('<p class="small card-key"', '<section id="rulesets"')]
    start = min(i for i in starts if i >= 0)
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
        # the page's answer gives way to the results (below); the rest is the page's
        page_part = re.sub(r'<section id="rulesets">.*?</section>\n?', "", sections(page),
                           count=1, flags=re.S)
        results_part, _, rest = answer["html"].partition("</section>\n")
        assert results_part.startswith('<section id="results"')
        # the same bytes but the line break at the end, which the page drops before the
        # next section (judge.site.render)
        assert rest == page_part + "\n", path
        assert 'data-ok="no"' not in results_part and "sb-differs" not in results_part


def results_text(html: str) -> str:
    """The results section of a sandbox answer as text, a cell or item a line."""
    part = html[:html.index("</section>")]
    return re.sub(r"\n+", "\n", re.sub(r"<[^>]+>", "\n", part)).replace("&#39;", "'")


def test_after_an_edit_the_results_give_expected_against_got_in_the_page_language() -> None:
    # the turn player has refreshed once already: the first refresh of the steps is their
    # second, which ends the turn from 2014-09 on (and is just a refresh before)
    edited = text_of(RULING).replace("refreshes = { p1 = 0, p2 = 0 }",
                                     "refreshes = { p1 = 1, p2 = 0 }")
    en = sandbox.replay_text(edited, RULING, "en")["html"]
    assert en.count('data-ok="no"') == 2  # 2014-04 · 2014-07, and 2014-09 · current
    shown = results_text(en)
    assert "2014-09 · current: ✗ not as the ruling expects" in shown
    # what happened: the turn passed to Player 2, as judge check's lines say in engine words
    assert "Turn\n3\n✗ 4" in shown and "Turn player\nPlayer 1\n✗ Player 2" in shown
    assert "Refreshes of Player 1 this turn\n1\n✗ 2" in shown  # under 2014-04 · 2014-07
    assert "The replay: Player 1 has refreshed 2 times this turn." in shown
    assert "The ruling expects: Player 1 has refreshed 1 time this turn." in shown
    assert "The replay: It is Player 2's turn." in shown
    # the refresh event the file expects is no fact of the table: a sentence says so
    assert "in a way this table does not show" in shown
    ja = results_text(sandbox.replay_text(edited, RULING, "ja")["html"])
    assert "再現の結果：このターン、プレイヤー1は2回リフレッシュした。" in ja or \
        re.search(r"再現の結果：.*プレイヤー1.*2", ja), ja
    assert "2014-09 · 現行" in ja and "current" not in ja
    assert not re.search(r"\b(p1|p2|expected|got|refreshes)\b", ja + results_text(
        sandbox.replay_text(edited, RULING, "zh-Hans")["html"]))


def test_a_rule_set_the_engine_stops_is_a_sentence_in_the_results() -> None:
    text = runaway(sandbox.vocabulary()["blank"])
    shown = results_text(sandbox.replay_text(text, sandbox.DEFAULT_PATH, "en")["html"])
    assert ("The replay stopped before its end: The replay reached the engine's limit of "
            "20000 events") in shown
    assert "does not show" not in shown and "engine error" not in shown


def stopped_edits() -> dict[str, str]:
    """The blank ruling edited so that the engine stops its replay: a step the rules refuse,
    a step the file expects refused that is allowed, a scripted choice never asked for, and
    a runaway effect."""
    blank = sandbox.vocabulary()["blank"]
    return {
        "refused": blank.replace('ops = [{ op = "mill", count = 3 }]\n',
                                 'ops = [{ op = "mill", count = 3 }]\n\n[[steps]]\n'
                                 'action = "grow"\ncard = "L3"\n', 1),
        "allowed": blank.replace('# expect_illegal = "not-main-phase"',
                                 'expect_illegal = "not-main-phase"'),
        "unused": blank.replace('# [[choices]]\n# player = "p1"\n# kind = "target"\n'
                                '# pick = ["S1"]', '[[choices]]\nplayer = "p1"\n'
                                'kind = "target"\npick = ["S1"]'),
        "limit": runaway(blank)}


#: What each edit of :func:`stopped_edits` says in each language: the step as its heading
#: words it, the rules' reason as the narration does.
STOPPED_SENTENCES = {
    "en": {"refused": "Step 2: grow into L3: the rules refuse it, as the card is not in the "
                      "LRIG deck.",
           "allowed": "Step 1: Player 1 resolves an effect: the rules allow it; the ruling "
                      "expects it refused because only in its player's own main phase.",
           "unused": "Scripted choices the replay never asked for: 1.",
           "limit": "The replay reached the engine's limit of 20000 events"},
    "ja": {"refused": "ステップ2：L3にグロウ：ルール上行えない（そのカードはルリグデッキにない）。",
           "allowed": "ステップ1：プレイヤー1の効果を解決：ルール上行える。裁定は行えないとしている"
                      "（自分のメインフェイズにしかできない）。",
           "unused": "再現で一度も求められなかった記述済みの選択：1件。",
           "limit": "再現がエンジンの上限である20000件のイベントに達した。"},
    "zh-Hans": {"refused": "步骤2：成长为L3：规则不允许（该卡不在分身牌组中）。",
                "allowed": "步骤1：处理玩家1的效果：规则允许。裁定认为不允许"
                           "（只能在自己的主要阶段进行）。",
                "unused": "重现中从未被要求的已写选择：1个。",
                "limit": "重现达到了引擎20000个事件的上限"},
}


@pytest.mark.parametrize("lang", ["en", "ja", "zh-Hans"])
def test_why_the_engine_stopped_a_replay_is_said_in_the_page_language(lang: str) -> None:
    for name, text in stopped_edits().items():
        answer = sandbox.replay_text(text, sandbox.DEFAULT_PATH, lang)
        assert answer["line"] == 0 and not answer["ok"], answer["report"]
        shown = results_text(answer["html"])
        assert STOPPED_SENTENCES[lang][name] in shown, (name, shown)
        # the engine's English line is judge check's, in the details element only
        assert not re.search(r"engine error|was refused|not-in-lrig-deck|not-main-phase|"
                             r"scripted choice", shown), (name, shown)
        if lang != "en":
            assert not re.search(r"\b(step|rules|replay|events?|limit)\b", shown,
                                 re.I), (name, shown)
        assert any(line.startswith("FAIL ") for line in answer["report"])


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
    # each ruling's file, gzip-compressed without a name or a time (the same bytes each build)
    packed = (tmp_path / "a" / "sandbox" / f"{RULING}.gz").read_bytes()
    assert gzip.decompress(packed) == text_of(RULING).encode()
    assert packed[3] & 0x08 == 0 and packed[4:8] == b"\0\0\0\0"
    assert not (tmp_path / "a" / "sandbox" / RULING).exists()


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


# ---------------------------------------------------------------------------- what is published
# issue 25, item 2: the site publishes the data files the loaders read and nothing else of
# the data folder: no link (to a key, to the build's environment), no hidden file, no folder
# no loader reads.

SITE_CORPUS = project_root() / "tests" / "fixtures" / "site_corpus"


def site_bytes(site: Path) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every file of a built site, and of what it packs: each entry of a zip,
    and the unpacked bytes of a gzip file (Pagefind's index)."""
    for path in sorted(site.rglob("*")):
        if path.is_symlink() or not path.is_file():
            assert not path.is_symlink(), f"a link in the site: {path}"
            continue
        name, body = path.relative_to(site).as_posix(), path.read_bytes()
        yield name, body
        if body[:2] == b"\x1f\x8b":
            yield f"{name} (unpacked)", gzip.decompress(body)
        if zipfile.is_zipfile(path):
            with zipfile.ZipFile(path) as archive:
                for entry in archive.namelist():
                    yield f"{name}:{entry}", archive.read(entry)


def build_with_data(tmp_path: Path, data: Path, secret: str) -> subprocess.CompletedProcess[str]:
    """``judge build`` of the fixture corpus into tmp_path/site, its data folder ``data``
    (JUDGE_DATA), with ``secret`` in the environment."""
    env = {k: v for k, v in os.environ.items() if k != "JUDGE_DATA"}
    env.update({"JUDGE_DATA": str(data), "JUDGE_TEST_SECRET": secret, "LC_ALL": "C.UTF-8"})
    return subprocess.run([sys.executable, "-m", "judge.cli", "build", "--no-search",
                           "--out", str(tmp_path / "site"), "--corpus", str(SITE_CORPUS)],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=600)


def test_the_site_publishes_only_the_data_files_the_loaders_read(tmp_path: Path) -> None:
    if sandbox_build.missing_reason():
        pytest.skip(sandbox_build.missing_reason())
    secret = f"wixoss-secret-{secrets.token_hex(16)}"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "key.toml").write_text(f"# {secret}-linked\n", encoding="utf-8")
    data = tmp_path / "data"
    shutil.copytree(project_root() / "data", data)
    planted = {
        "env.toml": "/proc/self/environ",   # the build's environment
        "linked.toml": str(outside / "key.toml"),  # a file of the machine
    }
    for name, target in planted.items():
        (data / name).symlink_to(target)
    (data / ".hidden.toml").write_text(f"# {secret}-hidden\n", encoding="utf-8")
    (data / "cards" / ".hidden.toml").write_text(f"# {secret}-hidden-card\n", encoding="utf-8")
    (data / "drafts").mkdir()
    (data / "drafts" / "unread.toml").write_text(f"# {secret}-unread\n", encoding="utf-8")
    (data / "drafts" / "environ.toml").symlink_to("/proc/self/environ")

    done = build_with_data(tmp_path, data, secret)
    assert done.returncode == 0, done.stdout + done.stderr
    site = tmp_path / "site"
    token = secret.encode()
    for name, body in site_bytes(site):
        assert token not in body, f"{name} holds the secret"
        assert b"JUDGE_TEST_SECRET" not in body, f"{name} holds the build's environment"
    with zipfile.ZipFile(site / "sandbox" / sandbox_build.ARCHIVE) as archive:
        packed = sorted(n for n in archive.namelist() if n.startswith("data/"))
    assert packed == ["data/cards/basic.toml", "data/glossary.toml", "data/rulesets.toml",
                      "data/sources.toml"]


def test_a_link_among_the_files_read_is_refused_in_one_line(tmp_path: Path) -> None:
    if sandbox_build.missing_reason():
        pytest.skip(sandbox_build.missing_reason())
    secret = f"wixoss-secret-{secrets.token_hex(16)}"
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "key.toml").write_text(f"# {secret}\n", encoding="utf-8")  # an empty card file
    data = tmp_path / "data"
    shutil.copytree(project_root() / "data", data)
    (data / "cards" / "linked.toml").symlink_to(outside / "key.toml")

    done = build_with_data(tmp_path, data, secret)
    assert done.returncode != 0 and not (tmp_path / "site").exists()
    assert done.stderr == ("Error: data/cards/linked.toml: a symbolic link; the site "
                           "publishes only regular files (replace the link with the file "
                           "itself)\n")
    assert "Traceback" not in done.stdout and secret not in done.stdout + done.stderr
    # nor is a linked folder on the way to the files read
    (data / "cards" / "linked.toml").unlink()
    (tmp_path / "cards").mkdir()
    shutil.move(data / "cards" / "basic.toml", tmp_path / "cards" / "basic.toml")
    (data / "cards").rmdir()
    (data / "cards").symlink_to(tmp_path / "cards", target_is_directory=True)
    done = build_with_data(tmp_path, data, secret)
    assert done.returncode != 0 and not (tmp_path / "site").exists()
    assert done.stderr.startswith("Error: data/cards: a symbolic link;"), done.stderr
    assert done.stderr.count("\n") == 1


def test_the_loaders_and_the_site_read_the_same_data_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    shutil.copytree(project_root() / "data", data)
    card = 'type = "signi"\ncolour = "white"\nlevel = 1\npower = 1000\n'
    (data / "cards" / ".basic.toml").write_text(f"[hidden-card]\n{card}", encoding="utf-8")
    (data / "cards" / "more").mkdir()
    (data / "cards" / "more" / "x.toml").write_text(f"[sub-card]\n{card}", encoding="utf-8")
    monkeypatch.setenv("JUDGE_DATA", str(data))
    import judge.data

    library = judge.data.card_library()
    assert set(library.files.values()) == {"cards/basic.toml"}
    assert "hidden-card" not in library.cards and "sub-card" not in library.cards
    assert [p.relative_to(data).as_posix() for p in judge.data.data_files()] == \
        ["sources.toml", "rulesets.toml", "glossary.toml", "cards/basic.toml"]


#: Markup that runs a script wherever it is parsed as HTML rather than shown as text.
PAYLOAD = ('<script>window.__pwned=1</script><img src=x onerror=window.__pwned=2>'
           '<svg onload=window.__pwned=3></svg>')
HOSTILE_SOURCE = "rulings/effects/up-to-target-may-choose-none.toml"


def hostile_ruling() -> str:
    """A ruling with :data:`PAYLOAD` in every text it has: the question, answer, title and
    explanation in each language, a card's names and each outcome's names (every string
    given per language), and a comment."""
    text = text_of(HOSTILE_SOURCE)
    escaped = PAYLOAD.replace("\\", "\\\\").replace('"', '\\"')
    text, count = re.subn(r'(\b(?:ja|en|zh-Hans) = ")', rf"\g<1>{escaped}", text)
    assert count >= 4 * 3 + 3 + 4 * 3  # the texts, the card's names, the outcomes' names
    return f"# {PAYLOAD}\n{text}"


@pytest.mark.parametrize("lang", ["ja", "en", "zh-Hans"])
def test_script_payloads_in_every_text_are_shown_as_text(lang: str) -> None:
    answer = sandbox.replay_text(hostile_ruling(), HOSTILE_SOURCE, lang)
    assert answer["ok"], answer["report"]
    html = answer["html"]
    tags: list[str] = []
    handlers: list[str] = []

    class Elements(HTMLParser):
        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            tags.append(tag)
            handlers.extend(name for name, _ in attrs if name.startswith("on"))

    Elements().feed(html)
    assert "script" not in tags and "img" not in tags and not handlers
    assert "&lt;script&gt;" in html  # the card's name, shown as text in the key to the cards


def test_site_settings_give_the_propose_button_or_none(model: SiteModel,
                                                       tmp_path: Path) -> None:
    from judge.errors import DataError
    from judge.site.settings import load_settings

    assert load_settings(tmp_path).new_file == ""  # no site.toml: no button
    data = next(d for d in model.site.rulings if d.ruling.path == RULING)
    spec = PageSpec(f"rulings/{data.id}/", "ruling.html", data.id)
    assert "data-propose" not in render("ruling.html", "en", model.context(spec, "en"))
    (tmp_path / "site.toml").write_text('repository = "https://github.com/judges/wixoss"\n'
                                        'branch = "rulings"\n', encoding="utf-8")
    model.propose = load_settings(tmp_path).new_file
    try:
        page = render("ruling.html", "ja", model.context(spec, "ja"))
        assert 'data-propose="https://github.com/judges/wixoss/new/rulings"' in page
    finally:
        model.propose = ""
    for text, message in [
        ('repository = "http://example.org/x"\n',
         "site.toml:1: repository: expected https://github.com/OWNER/NAME, got "),
        ('repository = "https://github.com/a/b"\nbranches = "x"\n',
         "site.toml:2: branches: not a setting of the site (valid: repository, branch)"),
    ]:
        (tmp_path / "site.toml").write_text(text, encoding="utf-8")
        with pytest.raises(DataError) as info:
            load_settings(tmp_path)
        assert message in str(info.value) and "\n" not in str(info.value)


def test_the_kept_bytecode_is_taken_without_compiling_the_sources(tmp_path: Path) -> None:
    """compiled_archive (what the worker keeps after a first use) holds the imported
    modules' bytecode as unchecked-hash pycs: unpacked beside the package, Python takes them
    and does not even read the sources (one is broken here, and the import still works)."""
    archive = tmp_path / "judge.zip"
    sandbox_build.write_archive(archive, ["first-refresh-does-not-end-turn"])
    first, second = tmp_path / "first", tmp_path / "second"
    for home in (first, second):
        with zipfile.ZipFile(archive) as z:
            z.extractall(home)
    run = ("import sys; sys.path.insert(0, sys.argv[1]); import judge.site.sandbox as s; "
           "print(s.replay_text(s.vocabulary()['blank'], s.DEFAULT_PATH, 'ja')['report'][-1])")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run([sys.executable, "-c", run + "; s.compiled_archive(sys.argv[1], "
                           "sys.argv[2])", str(first), str(tmp_path / "pyc.zip")],
                          capture_output=True, text=True, timeout=120, env=env, cwd=tmp_path)
    assert done.stdout.strip() == "3 passed, 0 failed", done.stderr
    with zipfile.ZipFile(tmp_path / "pyc.zip") as kept:
        names = kept.namelist()
        tag = f"cpython-{sys.version_info[0]}{sys.version_info[1]}"
        assert f"judge/site/__pycache__/sandbox.{tag}.pyc" in names
        assert any(n.startswith("jinja2/__pycache__/") for n in names)
        assert all(kept.read(n)[4:8] == b"\x01\x00\x00\x00" for n in names)  # unchecked hash
        kept.extractall(second)
    source = second / "judge" / "site" / "sandbox.py"
    source.write_text("raise SystemExit('the source was compiled again')\n", encoding="utf-8")
    done = subprocess.run([sys.executable, "-c", run, str(second)], capture_output=True,
                          text=True, timeout=120, env=env, cwd=tmp_path)
    assert done.stdout.strip() == "3 passed, 0 failed", done.stderr


def test_every_limit_message_of_the_engine_is_read_back_for_its_sentence() -> None:
    # the engine's limits say their own English line; the results read its number back, so
    # a changed message would fall to the generic sentence: each is read here
    from judge.engine.game import EVENTS_MESSAGE, SETTLE_MESSAGE
    from judge.errors import IllegalAction
    from judge.limits import MAX_EVENTS, MAX_EVENTS_PER_REPLAY, MAX_SETTLE_ROUNDS
    from judge.scenario.run import REPLAY_EVENTS_MESSAGE, problem_parts

    assert problem_parts(f"engine error: {EVENTS_MESSAGE}") == \
        ("events", {"count": str(MAX_EVENTS)})
    assert problem_parts(f"engine error: {REPLAY_EVENTS_MESSAGE}") == \
        ("events", {"count": str(MAX_EVENTS_PER_REPLAY)})
    assert problem_parts(f"engine error: {SETTLE_MESSAGE}") == \
        ("settle", {"count": str(MAX_SETTLE_ROUNDS)})
    # a set-up the deck rules refuse, as replay_all words the error of its rule set
    deck = f"engine error: {IllegalAction('illegal-deck', 'p1: 41 cards')}"
    assert problem_parts(deck) == ("illegal", {"reason": "illegal-deck"})
    assert problem_parts("engine error: p1.signi1: two SIGNI") == ("engine", {})
