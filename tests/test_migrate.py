"""``judge migrate``: every earlier format of the ruling and card files upgrades to the current
one (issue 27).

The fixture corpus is tests/fixtures/formats/ (its README says where each file comes from):
real files of each past version taken from the repository's history (``v1`` to ``v6``,
``extra``: states inside version 2), files written against each version by hand
(``v*/hand-*.toml``, ``cards/hand-*.toml``), files whose upgrade needs a human
(``undecided``), and the repository's own rulings at the last commit of each version
(``corpora.tar.xz``). Each migrates; each then passes ``judge check``, or what still fails
was said by the migration, on its file, as undecided.
"""

from __future__ import annotations

import shutil
import tarfile
from pathlib import Path

import pytest
from click.testing import CliRunner

from judge.check import run_checks
from judge.cli import cli
from judge.migrate import migrate, write
from judge.paths import project_root
from judge.scenario.load import load_path, load_text
from judge.scenario.versions import FORMAT_VERSION, detect
from judge.tomlfile import parse

FIXTURES = Path(__file__).parent / "fixtures" / "formats"
RULINGS = project_root() / "rulings"
#: What the project itself decided for these files of the history (9e5052b, a2b3576): the
#: answer changed under ``current`` or a related ruling was renamed. judge migrate must say
#: so, on the file, and the migrated file fails judge check only there.
NEEDS_A_HUMAN = {
    "v1/refresh-steps.toml": "no ruling of this corpus has the id",
    "v2/spell-cut-in-arts-resolves-first.toml": "no ruling of this corpus has the id",
    "v2/grow-to-lower-or-equal-level-same-type.toml": "grow-level",
    "v2/remove-signi-any-time-in-own-main-phase.toml": "remove-done",
    "v4/grow-to-lower-or-equal-level-same-type.toml": "grow-level",
    "v4/remove-signi-any-time-in-own-main-phase.toml": "remove-done",
}


def _run(*args: str) -> tuple[int, list[str]]:
    result = CliRunner().invoke(cli, ["migrate", *args])
    assert result.exception is None or isinstance(result.exception, SystemExit), \
        result.exception
    assert "Traceback" not in result.output
    return result.exit_code, result.output.splitlines()


def _project_copy(tmp: Path) -> Path:
    """A corpus root holding a copy of the project's rulings (so that the fixtures'
    ``related`` ids find their rulings)."""
    shutil.copytree(RULINGS, tmp / "rulings")
    return tmp


def _in_place(root: Path, fixture: Path) -> Path:
    """Put a fixture where its ruling lives in the project (its name, before any ``@``)."""
    name = fixture.name.split("@")[0].removesuffix(".toml") + ".toml"
    [target] = list((root / "rulings").rglob(name))
    target.write_bytes(fixture.read_bytes())
    return target


def _history(version: str) -> list[Path]:
    return sorted(p for p in (FIXTURES / version).glob("*.toml") if not p.name.startswith("hand-"))


# ---------------------------------------------------------------------- the history


@pytest.mark.parametrize("version", ["v1", "v2", "v3", "v4", "v5", "v6", "v7", "v8", "extra"])
def test_each_past_version_of_the_projects_files_migrates_and_passes(
        version: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _project_copy(tmp_path)
    monkeypatch.chdir(root)
    files = {fixture: _in_place(root, fixture) for fixture in _history(version)}
    run = migrate(list(files.values()))
    assert not run.errors
    write(run)
    by_file = {item.path.resolve(): item for item in run.files}
    summary = run_checks(list(files.values()))
    failing = {Path(r.path).resolve() for r in summary.results if not r.ok} | \
        {Path(e.path).resolve() for e in summary.errors}
    for fixture, target in files.items():
        key = f"{version}/{fixture.name}"
        item = by_file[target.resolve()]
        assert item.changed, key
        undecided = " ".join(n.text for n in item.notes if not n.decided)
        if key in NEEDS_A_HUMAN:
            assert target.resolve() in failing, key
            assert NEEDS_A_HUMAN[key] in undecided, (key, undecided)
        else:
            assert target.resolve() not in failing, (key, summary.last_line(), undecided)
        scenario = load_path(target)
        assert scenario.format == FORMAT_VERSION and not scenario.warnings
    # a second run changes nothing
    again = migrate(list(files.values()))
    assert not any(item.changed for item in again.files)
    assert not any(r.added for r in again.registries.values())


def test_migrate_decides_by_replay_what_only_the_trace_tells(tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch
                                                            ) -> None:
    """Lancer's crush: source S1 -> S1#lancer; a used Life Burst's card: cause rule -> game
    and its rule_check pattern gone (format 2). Each is kept only because the replay
    confirms it."""
    root = _project_copy(tmp_path)
    monkeypatch.chdir(root)
    lancer = _in_place(root, FIXTURES / "extra" / "lancer-crushes-when-banishing-in-battle"
                                                  "@c9e2a00.toml")
    burst = _in_place(root, FIXTURES / "v1" / "life-burst-resolves-then-ener.toml")
    code, lines = _run(str(lancer.relative_to(root)), str(burst.relative_to(root)))
    assert code == 0
    text = "\n".join(lines)
    assert "'S1' -> 'S1#lancer'" in text and "decided by replay" in text
    assert 'source = "S1#lancer"' in lancer.read_text(encoding="utf-8")
    migrated = burst.read_text(encoding="utf-8")
    assert 'cause = "game"' in migrated and 'kinds = ["check"]' not in migrated
    assert run_checks([lancer, burst]).failed == 0


# ---------------------------------------------------------------------- written by hand


def test_files_written_by_hand_against_each_version_migrate_and_pass(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rulings").mkdir()
    hand = sorted(FIXTURES.glob("v*/hand-*.toml"))
    assert {p.parent.name for p in hand} == {f"v{n}" for n in range(1, FORMAT_VERSION)}
    for path in hand:
        shutil.copy(path, tmp_path / "rulings" / path.name)
    shutil.copy(FIXTURES / "cards" / "hand-card-file-with-fields-never-read.toml",
                tmp_path / "cards.toml")
    monkeypatch.chdir(tmp_path)
    before = {p.name: load_path(p) for p in (tmp_path / "rulings").glob("hand-fields-*")}
    code, lines = _run("rulings", "cards.toml")
    assert code == 0, lines
    assert lines[-1].startswith(f"{len(hand) + 1} of {len(hand) + 1} files changed; 1 sources "
                                "file got new documents")
    # the contributor's own source went into sources.toml beside rulings/, and is cited
    registry = (tmp_path / "sources.toml").read_text(encoding="utf-8")
    assert "[sources.our-club-s-house-notes-on-drawing]" in registry
    assert 'url = "https://example.org/club/notes"' in registry
    contributor = (tmp_path / "rulings" / "hand-sources-of-a-contributor.toml").read_text(
        encoding="utf-8")
    assert 'sources = ["our-club-s-house-notes-on-drawing", "mistaken-rules"]' in contributor
    assert "\n[[sources]]" not in contributor
    # every change is one line with its file and line
    assert any(line.startswith("rulings/hand-refresh-waits-and-game-over-in-english.toml:51: "
                               "expect[0].events.subsequence[0].reason: 'empty trash' -> "
                               "'empty-trash'") for line in lines)
    assert any(line.startswith("rulings/hand-remove-two-with-a-card-list.toml:31: "
                               "steps[0].card: a list of cards is `cards`") for line in lines)
    summary = run_checks([tmp_path / "rulings"])
    assert summary.failed == 0 and summary.passed >= len(hand), summary.last_line()
    assert not summary.warnings
    # the fields format 7 no longer reads changed nothing: the same events before and after
    from judge.scenario.run import replay

    for name, old in before.items():
        new = load_path(tmp_path / "rulings" / name)
        assert old.warnings and not new.warnings
        assert [e.to_dict() for e in replay(old, "current").first.events] == \
            [e.to_dict() for e in replay(new, "current").first.events]
    # the card file loads with the card parser, and declares its format
    raw, _ = parse((tmp_path / "cards.toml").read_text(encoding="utf-8"), "cards.toml")
    assert raw["format_version"] == FORMAT_VERSION
    from judge.engine.cards import parse_card

    for card_id, body in raw.items():
        if card_id != "format_version":
            parse_card(card_id, body, card_id)
    # a second run changes nothing, and --check says so
    code, lines = _run("--check", "rulings", "cards.toml")
    assert code == 0 and lines[-1].startswith("0 of "), lines


def test_what_needs_a_human_is_said_with_its_file_and_line(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    (tmp_path / "rulings").mkdir()
    for path in (FIXTURES / "undecided").glob("*.toml"):
        shutil.copy(path, tmp_path / "rulings" / path.name)
    monkeypatch.chdir(tmp_path)
    code, lines = _run("rulings")
    assert code == 0
    undecided = [line for line in lines if ": undecided: " in line]
    assert any(line.startswith("rulings/v1-advance-expects-no-such-phase.toml:27: "
                               "steps[0].expect_illegal: undecided: needs a human: "
                               "no-such-phase is gone") for line in undecided), undecided
    assert any(line.startswith("rulings/v5-free-form-class.toml:15: cards.dragon.class: "
                               "undecided: needs a human: the class 'Dragon Beast'")
               for line in undecided), undecided
    # a field whose meaning format 7 changed is kept, and the replay says what now fails
    by = [line for line in undecided if "v6-cannot-be-banished" in line]
    assert any(":18: cards.proof.abilities[0].effect[0].by: undecided: needs a replay" in line
               for line in by), by
    assert any(line.startswith("rulings/v6-cannot-be-banished-by-the-opponent.toml:41: "
                               "expect: undecided: needs a human: under current")
               for line in by), by
    assert 'by = "opponent"' in (tmp_path / "rulings" /
                                 "v6-cannot-be-banished-by-the-opponent.toml").read_text(
        encoding="utf-8")
    assert lines[-1] == "3 of 3 files changed; 4 items undecided"


# ---------------------------------------------------------------------- whole old corpora


def _corpora(tmp: Path) -> list[Path]:
    with tarfile.open(FIXTURES / "corpora.tar.xz") as archive:
        archive.extractall(tmp, filter="data")
    return sorted(p for p in tmp.iterdir() if p.is_dir())


def test_the_projects_own_rulings_at_each_earlier_version_migrate(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The rulings/ folder of the last commit of each version (v1 a9773e6 ... v6 47d527a):
    after judge migrate, every ruling loads and passes, except where the migration said
    what a human must decide, on that file."""
    roots = _corpora(tmp_path)
    assert [r.name.split("-")[0] for r in roots] == [f"v{n}" for n in range(1, 7)]
    figures = []
    for root in roots:
        monkeypatch.chdir(root)
        run = migrate([Path("rulings")])
        assert not run.errors, root.name
        write(run)
        undecided = {item.path.resolve() for item in run.files
                     if any(not n.decided for n in item.notes)}
        summary = run_checks([Path("rulings")])
        failing = {Path(r.path).resolve() for r in summary.results if not r.ok} | \
            {Path(e.path).resolve() for e in summary.errors}
        assert failing <= undecided, (root.name, sorted(map(str, failing - undecided)))
        assert not summary.warnings, root.name
        assert summary.passed > 0
        figures.append((root.name, len(run.files), summary.passed, summary.failed))
        again = migrate([Path("rulings")])
        assert not any(item.changed for item in again.files), root.name
    # the later the version, the less a human has to decide: v6 (47d527a) needs nothing
    assert figures[-1][3] == 0, figures


# ---------------------------------------------------------------------- the command


def test_check_lists_what_would_change_and_writes_nothing(tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    (tmp_path / "rulings").mkdir()
    old = FIXTURES / "v1" / "hand-refresh-waits-and-game-over-in-english.toml"
    target = tmp_path / "rulings" / old.name
    shutil.copy(old, target)
    monkeypatch.chdir(tmp_path)
    code, lines = _run("--check", "rulings")
    assert code == 1
    assert lines[-1] == "1 of 1 files would change; 2 items undecided"
    assert target.read_bytes() == old.read_bytes()
    assert not (tmp_path / "sources.toml").exists()
    assert sorted(p.name for p in (tmp_path / "rulings").iterdir()) == [old.name]
    code, _ = _run("rulings")
    assert code == 0
    code, lines = _run("--check", "rulings")
    assert code == 0 and lines[-1] == "0 of 1 files would change; 0 items undecided"


def test_comments_key_order_and_layout_are_kept(tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rulings").mkdir()
    old = FIXTURES / "v1" / "hand-refresh-waits-and-game-over-in-english.toml"
    target = tmp_path / "rulings" / old.name
    shutil.copy(old, target)
    monkeypatch.chdir(tmp_path)
    _run("rulings")
    before = old.read_text(encoding="utf-8").splitlines()
    after = target.read_text(encoding="utf-8").splitlines()
    assert after[:2] == before[:2]  # the leading comment
    assert after[2] == f"format_version = {FORMAT_VERSION}"
    assert after[3:5] == ['id = "hand-refresh-waits-and-game-over-in-english"',
                          'rulesets = ["current"]']
    assert '  { type = "refresh_waits", player = "p1", reason = "empty-trash" },  # waits for ' \
           'a card' in after
    kept = [line for line in before if "[[sources]]" not in line and "rulesets" not in line
            and "reason =" not in line and not line.startswith(("title = \"WIXOSS",
                                                                 "title = \"Chinese", "date",
                                                                 "authority", "seed"))]
    kept = [line for line in kept if line.strip()]
    assert [line for line in after if line in kept] == kept  # the rest, in its order


def test_unreadable_files_are_one_line_and_the_others_are_migrated(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "rulings").mkdir()
    shutil.copy(FIXTURES / "v5" / "hand-remove-two-with-a-card-list.toml",
                tmp_path / "rulings" / "a.toml")
    (tmp_path / "rulings" / "b.toml").write_text('id = "b"\n[setup\n', encoding="utf-8")
    (tmp_path / "rulings" / "c.toml").write_text('title = "not a ruling"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, lines = _run("rulings")
    assert code == 2
    errors = [line for line in lines if line.startswith("Error: ")]
    assert len(errors) == 2
    assert errors[0].startswith("Error: rulings/b.toml:2: TOML syntax: Expected ']'")
    assert errors[1].startswith("Error: rulings/c.toml:1: neither a ruling")
    assert "cards = " in (tmp_path / "rulings" / "a.toml").read_text(encoding="utf-8")


def test_writes_follow_the_output_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                        ) -> None:
    """A symbolic link is never followed (without --force, the link itself would be
    replaced), and a sources.toml that is not a sources file is never replaced: nothing is
    written when one write is refused."""
    (tmp_path / "rulings").mkdir()
    real = tmp_path / "real.toml"
    shutil.copy(FIXTURES / "v5" / "hand-remove-two-with-a-card-list.toml", real)
    (tmp_path / "rulings" / "link.toml").symlink_to(real)
    monkeypatch.chdir(tmp_path)
    code, lines = _run("rulings")
    assert code != 0 and any("symbolic link" in line for line in lines), lines
    assert "card = [" in real.read_text(encoding="utf-8")
    (tmp_path / "rulings" / "link.toml").unlink()
    shutil.copy(FIXTURES / "v3" / "hand-sources-of-a-contributor.toml",
                tmp_path / "rulings" / "x.toml")
    (tmp_path / "sources.toml").write_text("# my notes\nanything = 1\n", encoding="utf-8")
    code, lines = _run("rulings")
    assert code == 2 and lines[0] == "Error: sources.toml:2: anything: unknown field (valid: " \
                                     "sources)", lines
    assert (tmp_path / "sources.toml").read_text(encoding="utf-8") == \
        "# my notes\nanything = 1\n"
    assert "[[sources]]" in (tmp_path / "rulings" / "x.toml").read_text(encoding="utf-8")


# ---------------------------------------------------------------------- judge check


def test_judge_check_names_the_version_and_the_command(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch
                                                       ) -> None:
    (tmp_path / "rulings").mkdir()
    shutil.copy(FIXTURES / "v6" / "hand-attack-zone-of-a-signi-in-a-signi-zone.toml",
                tmp_path / "rulings" / "old.toml")
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(cli, ["check", "rulings"])
    lines = result.output.splitlines()
    assert result.exit_code == 0, lines
    assert lines[0] == ("Warning: rulings/old.toml:1: format_version: written for format 4 "
                        "to 6 (told from its content: sources cites the registry (from format "
                        "4)); `judge migrate rulings/old.toml` upgrades it to format "
                        f"{FORMAT_VERSION}")
    assert lines[1].startswith("Warning: rulings/old.toml:19: setup.grown: setup.grown in "
                               "the attack phase (never read): drop it")
    assert lines[2].startswith("Warning: rulings/old.toml:36: steps[0].zone: zone on the "
                               "attack of a SIGNI outside the cheer zone (never read)")
    assert lines[-1] == "1 passed, 0 failed, 3 warnings"


def test_a_current_file_is_refused_what_format_7_no_longer_reads() -> None:
    text = (FIXTURES / "v6" / "hand-attack-zone-of-a-signi-in-a-signi-zone.toml").read_text(
        encoding="utf-8")
    from judge.errors import ScenarioError

    with pytest.raises(ScenarioError) as info:
        load_text(f"format_version = {FORMAT_VERSION}\n" + text, "x.toml")
    assert str(info.value).startswith("x.toml:20: setup.grown: the attack phase comes after "
                                      "the turn's grow phase")
    with pytest.raises(ScenarioError) as info:
        load_text(f"format_version = {FORMAT_VERSION + 1}\n" + text, "x.toml")
    assert str(info.value) == (f"x.toml:1: format_version: written for format "
                               f"{FORMAT_VERSION + 1}, newer than the format {FORMAT_VERSION} "
                               "this version of wixoss-judge reads: update wixoss-judge")


@pytest.mark.parametrize("version,low,high", [
    ("v1/two-effects-rule-processing-between.toml", 1, 2),
    ("v3/banish-to-trash-replacement-in-force.toml", 1, 3),
    ("v5/cannot-be-banished-survives-power-zero.toml", 5, 6),
    ("v4/same-lrig-type-assist-goes-to-lrig-trash.toml", 4, 4),
    ("v6/signi-with-a-charm-gets-what-its-charm-gives.toml", 6, 6),
    ("v7/cross-state-with-no-effect-in-force.toml", 7, 7),
])
def test_the_version_of_a_file_without_one_is_told_from_its_content(version: str, low: int,
                                                                    high: int) -> None:
    raw, _ = parse((FIXTURES / version).read_text(encoding="utf-8"), version)
    detected = detect(raw)
    assert (detected.low, detected.high) == (low, high), str(detected)


def test_a_file_of_format_7_has_only_its_number_rewritten(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch
                                                          ) -> None:
    """Format 8 only added to format 7: judge migrate changes the declared number in place
    and nothing else (tomlkit would move [[choices]] written between [[steps]]), the file is
    no longer warned about and replays the same events."""
    from judge.scenario.run import replay

    (tmp_path / "rulings").mkdir()
    source = RULINGS / "game-flow" / "arts-main-timing-not-in-opponent-turn.toml"
    text = source.read_text(encoding="utf-8").replace(
        f"format_version = {FORMAT_VERSION}\n", "format_version = 7\n", 1)
    old = tmp_path / "rulings" / "old.toml"
    old.write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    before = load_path(old)
    assert before.warnings and before.format == 7
    code, lines = _run("rulings")
    assert code == 0 and lines[-1].startswith("1 of 1 files changed"), lines
    after_text = old.read_text(encoding="utf-8")
    assert after_text == text.replace("format_version = 7\n",
                                      f"format_version = {FORMAT_VERSION}\n", 1)
    after = load_path(old)
    assert not after.warnings
    for rules in after.rulesets:
        assert [e.to_dict() for e in replay(before, rules).first.events] == \
            [e.to_dict() for e in replay(after, rules).first.events]


def test_a_file_declaring_an_earlier_format_is_refused_what_a_later_one_added(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """From format 9, what a version adds (versions.ADDED) is refused in a file that declares
    an earlier version, naming the field, the version and the command; the current version
    reads it, and judge migrate's renumbering is the way up."""
    from judge.errors import ScenarioError
    from judge.scenario import versions

    source = RULINGS / "game-flow" / "arts-main-timing-not-in-opponent-turn.toml"
    text = source.read_text(encoding="utf-8")
    assert 'op = "draw"' in text
    fake = versions.Added(keys={}, values={("op", "op"): ("draw",)})
    monkeypatch.setitem(versions.ADDED, FORMAT_VERSION, fake)
    old = text.replace(f"format_version = {FORMAT_VERSION}\n",
                       f"format_version = {FORMAT_VERSION - 1}\n", 1)
    with pytest.raises(ScenarioError) as info:
        load_text(old, "x.toml")
    message = str(info.value)
    assert "op = 'draw' came in format " + str(FORMAT_VERSION) in message
    assert f"declares format {FORMAT_VERSION - 1}" in message
    assert "judge migrate x.toml" in message and "\n" not in message
    assert message.startswith("x.toml:") and ".op:" in message
    assert load_text(text, "x.toml").format == FORMAT_VERSION
    monkeypatch.setitem(versions.ADDED, FORMAT_VERSION,
                        versions.Added(keys={"setup": ("phase",)}, values={}))
    with pytest.raises(ScenarioError, match="setup.phase: the field phase came in format"):
        load_text(old, "x.toml")


@pytest.mark.parametrize("name", ["cards/attack-limit-refuses-a-second-attack",
                                  "cards/signi-cap-refuses-a-third-signi"])
def test_a_format_8_file_is_refused_the_battle_limits_of_format_9(name: str) -> None:
    """attack_limit and signi_cap came in format 9 (versions.ADDED): the same ruling declaring
    format 8 is refused, with the command that upgrades it."""
    from judge.errors import ScenarioError

    text = (RULINGS / f"{name}.toml").read_text(encoding="utf-8")
    assert load_text(text, "x.toml").format == 9
    old = text.replace("format_version = 9\n", "format_version = 8\n", 1)
    with pytest.raises(ScenarioError, match=r"came in format 9.*judge migrate x\.toml"):
        load_text(old, "x.toml")
