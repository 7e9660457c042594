"""Malformed rulings: every one is reported on exactly one line, ``path:line: field: ...``.

A mutation test. Every ruling in rulings/ (and the skeleton that ``judge new`` writes, so
that it works with an empty corpus) is changed in one place at a time: required fields
deleted, field names misspelt, values of the wrong type, unknown card ids, zones,
operations, rule sets, event types, phases, players and labels, a card label used twice,
broken TOML, contradictory set-ups (a SIGNI above its LRIG's level, an empty main deck with
cards in the trash, a turn player that does not fit the turn number, two refreshes already
made under a rule set where the second ends the turn). The variants come from
tests/mutants.py and are deterministic. All of them go through ONE ``judge check`` run,
with a good ruling among them that must still pass.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest
from mutants import Mutant, dumps, mutants, one_in, syntax_mutants

from judge.errors import ScenarioError
from judge.paths import project_root
from judge.scenario.load import load_path, load_text
from judge.skeleton import skeleton

#: From each ruling of the corpus, about one variant in this many (the skeleton gives all).
RULING_SAMPLE = 30
MINIMUM = 500
RULE_SETS = 3  # the skeleton's


@dataclass
class BadCorpus:
    root: Path
    mutants: list[Mutant]
    paths: dict[str, Mutant]  # displayed path -> mutant
    bases: list[str]
    skipped: list[str]


def _bases() -> tuple[list[tuple[str, str]], list[str]]:
    """(name, text) of every base that loads and survives the TOML writer unchanged."""
    out = [("skeleton", dumps(tomllib.loads(skeleton("mutant-base"))))]
    skipped = []
    rulings = project_root() / "rulings"
    for path in sorted(rulings.rglob("*.toml")) if rulings.is_dir() else []:
        try:
            load_path(path)
            text = dumps(tomllib.loads(path.read_text(encoding="utf-8")))
            load_text(text)
        except Exception as exc:  # a ruling being written right now, or not writable back
            skipped.append(f"{path.name}: {exc}")
            continue
        out.append((path.stem, text))
    return out, skipped


@pytest.fixture(scope="module")
def bad_corpus(tmp_path_factory: pytest.TempPathFactory) -> BadCorpus:
    root = tmp_path_factory.mktemp("mutants")
    folder = root / "bad"
    folder.mkdir()
    bases, skipped = _bases()
    made: list[Mutant] = []
    for n, (name, text) in enumerate(bases):
        keep = None if name == "skeleton" else one_in(RULING_SAMPLE)
        base = f"b{n:03d}"
        if keep is None:
            made += mutants(base, text) + syntax_mutants(base, text)
        else:
            made += mutants(base, text, keep) + syntax_mutants(base, text, keep)
    paths = {}
    for mutant in made:
        target = folder / f"{mutant.name[:80]}.toml"
        assert not target.exists(), f"two variants named {target.name}"
        target.write_text(mutant.text, encoding="utf-8")
        paths[f"bad/{target.name}"] = mutant
    # good rulings among the bad ones: they must pass and not be reported
    (folder / "good-among-bad.toml").write_text(skeleton("good-among-bad"), encoding="utf-8")
    return BadCorpus(root, made, paths, [b for b, _ in bases], skipped)


def judge(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge.cli", *args], cwd=cwd,
                          capture_output=True, text=True, timeout=600)


ERROR_LINE = re.compile(r"^Error: (?P<path>bad/[^:]+\.toml):(?P<line>\d+): (?P<message>\S.*)$")
FIELD = re.compile(r"^(?P<field>[A-Za-z0-9_\-]+(?:\[\d+\])*(?:\.[A-Za-z0-9_\-*:]+(?:\[\d+\])*)*)"
                   r": \S")


def _problems(mutant: Mutant, line: int, message: str) -> list[str]:
    out = []
    rows = mutant.text.splitlines()
    if not 1 <= line <= max(len(rows), 1):
        out.append(f"line {line} is outside the file ({len(rows)} lines)")
    if mutant.line is not None and line != mutant.line:
        out.append(f"line {line}, expected {mutant.line}")
    if "TOML syntax" not in mutant.fields and not FIELD.match(message):
        out.append("no field name before the message")
    if not any(f in message for f in mutant.fields):
        out.append(f"mentions none of {mutant.fields}")
    if mutant.valid and not re.search(r"\(valid: [^)]+\)$", message):
        out.append("no (valid: ...) list")
    for word in mutant.words:
        if word not in message:
            out.append(f"does not say {word!r}")
    return out


def test_every_malformed_file_is_reported_on_exactly_one_line(bad_corpus: BadCorpus) -> None:
    assert len(bad_corpus.mutants) >= MINIMUM, len(bad_corpus.mutants)
    done = judge("check", "bad", cwd=bad_corpus.root)
    everything = done.stdout + done.stderr
    assert "Traceback" not in everything
    assert done.stderr == ""
    assert done.returncode == 2
    lines = done.stdout.splitlines()
    assert lines[-1] == f"{RULE_SETS} passed, {len(bad_corpus.mutants)} failed"
    reported: Counter[str] = Counter()
    problems = []
    for row in lines[:-1]:
        match = ERROR_LINE.match(row)
        if not match:
            problems.append(f"not a one-line error: {row!r}")
            continue
        reported[match["path"]] += 1
        mutant = bad_corpus.paths.get(match["path"])
        if mutant is None:
            problems.append(f"reported a file that is not a variant: {row}")
            continue
        for problem in _problems(mutant, int(match["line"]), match["message"]):
            problems.append(f"{mutant.name}: {problem}\n    {row}")
    for path in bad_corpus.paths:
        if reported[path] != 1:
            problems.append(f"{path} reported {reported[path]} times")
    assert "good-among-bad" not in done.stdout
    assert not problems, f"{len(problems)} problem(s):\n" + "\n".join(problems[:40])


def test_mutation_categories_are_all_present(bad_corpus: BadCorpus) -> None:
    kinds = Counter(m.name.split("-")[2] for m in bad_corpus.mutants)
    for kind in ("missing", "typo", "type", "card", "label", "value", "etype", "ruleset",
                 "twice", "syntax", "setup", "turn", "refreshes", "term"):
        assert kinds[kind] > 0, f"no {kind} variants: {kinds}"
    assert "skeleton" in bad_corpus.bases


@pytest.mark.parametrize("category", ["typo", "value", "twice", "syntax", "setup",
                                      "refreshes"])
def test_one_file_at_a_time(bad_corpus: BadCorpus, category: str) -> None:
    path, mutant = next((p, m) for p, m in bad_corpus.paths.items()
                        if m.name.split("-")[2] == category)
    done = judge("check", path, cwd=bad_corpus.root)
    assert done.returncode == 2
    assert "Traceback" not in done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 2 and lines[1] == "0 passed, 1 failed", lines
    match = ERROR_LINE.match(lines[0])
    assert match and match["path"] == path, lines[0]
    assert not _problems(mutant, int(match["line"]), match["message"]), lines[0]


def test_the_good_ruling_alone_still_passes(bad_corpus: BadCorpus) -> None:
    done = judge("check", "bad/good-among-bad.toml", cwd=bad_corpus.root)
    assert (done.returncode, done.stdout.splitlines()[-1]) == (0, f"{RULE_SETS} passed, 0 failed")


def test_the_toml_writer_keeps_rulings_valid(bad_corpus: BadCorpus) -> None:
    """Every base that was mutated loads again after the round trip through the writer."""
    text = dumps(tomllib.loads(skeleton("writer-check")))
    scenario = load_text(text)
    assert scenario.id == "writer-check" and scenario.steps


# ---------------------------------------------------------------------- line numbers by hand

HEAD = '''id = "line-test"
rulesets = ["current"]

[title]
ja = "t"

[setup]
turn = 3
turn_player = "p1"

[setup.p1]
'''


def error_of(text: str) -> ScenarioError:
    with pytest.raises(ScenarioError) as info:
        load_text(text, "x.toml")
    message = str(info.value)
    assert "\n" not in message
    return info.value


def test_misspelt_field_on_line_12() -> None:
    text = HEAD + 'dekc = ["d1"]\n\n[[expect]]\nphase = "main"\n'
    err = error_of(text)
    assert err.line == 12
    assert str(err).startswith("x.toml:12: setup.p1.dekc: unknown field (did you mean `deck`?) "
                               "(valid: deck, hand, ")


def test_unknown_operation_in_a_multi_line_array() -> None:
    text = HEAD + '''deck = ["d1", "d2"]

[[steps]]
action = "effect"
ops = [
  { op = "draw" },
  { op = "mil", count = 2 },
]

[[expect]]
phase = "main"
'''
    err = error_of(text)
    line = text.splitlines().index('  { op = "mil", count = 2 },') + 1
    assert (err.line, line) == (18, 18)
    assert str(err).startswith("x.toml:18: steps[0].ops[1].op: unknown value 'mil' (valid: ")
    assert "mill" in str(err)


def test_unknown_label_in_the_second_expect_block() -> None:
    text = HEAD + '''deck = ["d1", "d2"]

[[expect]]
phase = "main"

[[expect]]
turn = 3
[expect.zones.p1]
hand = ["d9"]
'''
    err = error_of(text)
    assert err.line == 20
    assert str(err).startswith("x.toml:20: expect[1].zones.p1.hand[0]: no card labelled 'd9'")
    assert "(valid: d1, d2)" in str(err)


def test_missing_action_points_at_its_steps_table() -> None:
    text = HEAD + '''deck = ["d1"]

[[steps]]
action = "advance"

[[steps]]
player = "p1"

[[expect]]
phase = "main"
'''
    err = error_of(text)
    assert err.line == 17
    assert str(err).startswith("x.toml:17: steps[1].action: missing (valid: effect, use, ")


def test_misspelt_array_of_tables_points_at_its_header() -> None:
    text = HEAD + 'deck = ["d1"]\n\n[[setps]]\naction = "advance"\n\n[[expect]]\nphase = "main"\n'
    err = error_of(text)
    assert err.line == 14
    assert str(err).startswith("x.toml:14: setps: unknown field (did you mean `steps`?) "
                               "(valid: format_version, id, rulesets, ")


def test_wrong_type_inside_a_multi_line_zone_list() -> None:
    text = HEAD + 'deck = [\n  "d1",\n  7,\n]\n\n[[expect]]\nphase = "main"\n'
    err = error_of(text)
    assert err.line == 14
    assert str(err) == "x.toml:14: setup.p1.deck[1]: expected text, got 7"


def test_toml_syntax_error_line() -> None:
    text = HEAD + 'deck = ["d1"\n\n[[expect]]\nphase = "main"\n'
    err = error_of(text)
    assert str(err).startswith("x.toml:")
    assert ": TOML syntax: " in str(err)
    assert err.line in (12, 13, 14)  # tomllib names where it noticed the open array


def test_two_statements_on_one_line_point_at_that_line() -> None:
    """"Expected newline or end of document after a statement" names its line, not the
    file's last one (issue 25)."""
    text = HEAD.replace('ja = "t"', 'ja = "t" en = "u"') + 'deck = ["d1"]\n\n' + \
        '[[expect]]\nphase = "main"\n' * 5
    err = error_of(text)
    assert err.line == 5, str(err)
    assert "Expected newline or end of document" in str(err)


def test_an_unterminated_string_at_the_end_points_at_the_last_line() -> None:
    text = HEAD + 'deck = ["d1"]\n[[expect]]\nphase = """main\n'
    err = error_of(text)
    assert err.line == text.count("\n"), str(err)


@pytest.mark.parametrize(("where", "value", "says"), [
    ("setup.seed", "-1", "must be at least 0"),
    ("setup.turn", "-5", "must be at least 1"),
    ("steps[0].ops[0].amount", str(-2**60), "must be at least -9007199254740992"),
    ("steps[0].ops[0].amount", str(2**60), "must be at most 9007199254740992"),
    ("steps[0].ops[0].count", "-3", "must be at least 0"),
    ("steps[0].ops[0].count", "5000", "must be at most 1000"),
    ("cards.x.level", "-1", "must be at least 0"),
    ("cards.x.power", "-1000", "must be at least 0"),
])
def test_a_number_out_of_bounds_is_told_the_bound_it_breaks(where: str, value: str,
                                                             says: str) -> None:
    head = HEAD.replace("[setup]", '[cards.x]\ntype = "signi"\nlevel = 1\npower = 1000\n\n[setup]')
    body = head + 'deck = ["d1", "d2", "d3"]\nhand = ["H1:x"]\n' \
        '[[steps]]\naction = "effect"\nops = [{ op = "power", target = "H1", amount = 0 }]\n' \
        '[[expect]]\nphase = "main"\n'
    if where == "setup.seed":
        body = body.replace("turn = 3\n", f"turn = 3\nseed = {value}\n")
    elif where == "setup.turn":
        body = body.replace("turn = 3\n", f"turn = {value}\n")
    elif where.endswith("amount"):
        body = body.replace("amount = 0", f"amount = {value}")
    elif where.endswith("count"):
        body = body.replace('{ op = "power", target = "H1", amount = 0 }',
                            f'{{ op = "mill", count = {value} }}')
    else:
        field = where.rsplit(".", 1)[1]
        body = body.replace(f"{field} = {1 if field == 'level' else 1000}\n",
                            f"{field} = {value}\n", 1)
    err = error_of(body)
    assert f"{where}: {says}" in str(err), str(err)


@pytest.mark.parametrize(("text", "says"), [
    ('"a\\u0000b"', "U+0000 at character 2"),
    ('"\\u001b[2J"', "U+001B"),
    ('"x\\u0085"', "U+0085"),
    ('" "', "blank"),
    ('""', "blank"),
    (f'"{"x" * 20_001}"', "20001 characters, more than the limit of 20000"),
])
def test_nonsense_in_a_text_is_refused(text: str, says: str) -> None:
    err = error_of(HEAD.replace('ja = "t"', f'ja = "t"\nen = {text}') +
                   'deck = ["d1"]\n\n[[expect]]\nphase = "main"\n')
    assert err.line == 6 and "title.en: " in str(err) and says in str(err), str(err)


def test_tabs_and_line_breaks_are_text() -> None:
    load_text(HEAD.replace('ja = "t"', 'ja = "t"\nen = "a\\tb\\r\\nc"') +
              'deck = ["d1"]\n\n[[expect]]\nphase = "main"\n', "x.toml")


def test_contradictory_set_up_lines() -> None:
    text = HEAD + 'deck = []\ntrash = ["t1"]\n\n[[expect]]\nphase = "main"\n'
    err = error_of(text)
    assert str(err).startswith("x.toml:12: setup.p1.deck: the main deck is empty while the "
                               "trash holds cards")
    text = HEAD.replace('turn_player = "p1"', 'turn_player = "p2"') + \
        'deck = ["d1"]\n\n[[expect]]\nphase = "main"\n'
    err = error_of(text)
    assert str(err).startswith("x.toml:9: setup.turn_player: p2 cannot be the turn player in "
                               "turn 3")
    text = HEAD.replace('rulesets = ["current"]', 'rulesets = ["2014-09"]').replace(
        '[setup.p1]', 'refreshes = { p1 = 2 }\n\n[setup.p1]') + \
        'deck = ["d1"]\n\n[[expect]]\nphase = "main"\n'
    err = error_of(text)
    assert str(err).startswith("x.toml:11: setup.refreshes.p1: the turn player cannot have "
                               "refreshed twice")


def test_outcome_name_in_an_unknown_language_or_without_japanese() -> None:
    base = HEAD + '''deck = ["d1"]

[[expect]]
phase = "main"
[[expect.outcomes]]
name = NAME
phase = "main"
'''
    err = error_of(base.replace("NAME", '{ ja = "ドロー", fr = "pioche" }'))
    assert err.line == 17
    assert str(err) == ("x.toml:17: expect[0].outcomes[0].name.fr: unknown field "
                        "(valid: ja, en, zh-Hans)")
    err = error_of(base.replace("NAME", '{ en = "draw" }'))
    assert str(err).startswith("x.toml:17: expect[0].outcomes[0].name.ja: missing (Japanese is "
                               "the fallback language)")
    err = error_of(base.replace("NAME", '{ ja = 3 }'))
    assert str(err) == "x.toml:17: expect[0].outcomes[0].name.ja: expected text, got 3"
    scenario = load_text(base.replace("NAME", '{ ja = "ドロー", en = "draw" }'), "x.toml")
    outcome = scenario.expectations[0].outcomes[0]
    assert outcome.name == "draw"
    assert outcome.title("ja") == ("ドロー", None) and outcome.title("zh-Hans") == ("ドロー", "ja")


#: A card defined inline (its ability table at line 14), for the card-text vocabulary.
CARD_HEAD = HEAD.replace("[setup]", "[cards.x]\ntype = \"signi\"\nlevel = 1\npower = 1000\n"
                         "[[cards.x.abilities]]\nBODY\n\n[setup]")


@pytest.mark.parametrize("body,where,says", [
    ('kind = "const"\neffect = [{ op = "draw" }]', "cards.x.abilities[0].effect[0].op",
     "unknown value 'draw' (valid: power, level, set_power"),
    ('kind = "const"\nwhile = { zone = "ener" }\neffect = [{ op = "power", target = "this" }]',
     "cards.x.abilities[0].while.at_least", "missing (a count needs at_least or at_most)"),
    ('kind = "const"\nwhile = { zone = "moon", at_least = 1 }\neffect = []',
     "cards.x.abilities[0].while.zone", "unknown value 'moon' (valid: deck, hand, ener"),
    ('kind = "const"\nwhile = { colour = "pink", zone = "ener", at_least = 1 }\neffect = []',
     "cards.x.abilities[0].while.colour", "unknown value 'pink' (valid: white, red"),
    ('kind = "const"\nwhile = { charm = "yes" }\neffect = []',
     "cards.x.abilities[0].while.charm", "expected true or false, got 'yes'"),
    ('kind = "const"\neffect = [{ op = "cannot", target = "this", what = "fly" }]',
     "cards.x.abilities[0].effect[0].what", "unknown value 'fly' (valid: attack, be_banished"),
    ('kind = "const"\neffect = [{ op = "power", target = "S1", amount = 1 }]',
     "cards.x.abilities[0].effect[0].target", "acts on \"this\" or on every card"),
    ('kind = "const"\nonce_per_turn = true\neffect = []', "cards.x.abilities[0].once_per_turn",
     "a constant ability has no once_per_turn"),
    ('kind = "action"\nwhile = { turn = "own" }\neffect = []', "cards.x.abilities[0].while",
     "only a constant ability has while"),
    ('kind = "auto"\ntrigger = "attacks"\nby = "own"\neffect = []', "cards.x.abilities[0].by",
     "only these triggers watch whose effect or use it is (valid: banished_by_effect"),
    ('kind = "auto"\ntrigger = "uses_spell"\nby = "me"\neffect = []',
     "cards.x.abilities[0].by", "unknown value 'me' (valid: any, own, opponent)"),
    ('kind = "action"\nmodes = [[{ op = "draw" }]]', "cards.x.abilities[0].modes",
     "expected a list of 2 to 9 modes"),
    ('kind = "action"\nmodes = [[{ op = "draw" }], [{ op = "mill" }]]\nchoose = 2',
     "cards.x.abilities[0].choose", "must be less than the 2 modes"),
    ('kind = "action"\neffect = [{ op = "draw", if_done = true }]',
     "cards.x.abilities[0].effect[0].if_done", "the first operation has no operation before"),
    ('kind = "action"\neffect = [{ op = "power", target = "this", until = "forever" }]',
     "cards.x.abilities[0].effect[0].until", "unknown value 'forever' (valid: end_of_turn, "
     "end_of_next_turn)"),
    ('kind = "action"\neffect = [{ op = "power", target = "this", until = "end_of_turn", '
     'while = { turn = "own" } }]', "cards.x.abilities[0].effect[0].until",
     "either until a time or while a condition holds"),
    ('kind = "action"\neffect = [{ op = "replace", target = "this", event = "banish" }]',
     "cards.x.abilities[0].effect[0].ops", "give exactly one of zone"),
    ('kind = "action"\neffect = [{ op = "replace", who = "self", event = "refresh", '
     'zone = "trash" }]', "cards.x.abilities[0].effect[0].zone",
     "a refresh is replaced by operations (ops), not by a zone"),
    ('kind = "action"\neffect = [{ op = "upper_limit", zone = "deck", amount = 3 }]',
     "cards.x.abilities[0].effect[0].zone", "unknown value 'deck' (valid: ener, hand)"),
    ('kind = "action"\neffect = [{ op = "draw_limit", amount = -1 }]',
     "cards.x.abilities[0].effect[0].amount", "must be 0 or more"),
    ('kind = "action"\neffect = [{ op = "cannot", what = "refresh", target = "this" }]',
     "cards.x.abilities[0].effect[0].target", "cannot for a player takes who, not a target"),
    ('kind = "action"\neffect = [{ op = "power", target = { all = true, count = 2 } }]',
     "cards.x.abilities[0].effect[0].target.count", "all = true takes every matching card"),
    ('kind = "action"\ncost = { red_or_pink = 1 }\neffect = []',
     "cards.x.abilities[0].cost.red_or_pink", "unknown cost part (valid: white, red"),
    ('kind = "action"\ncost = { discard = { count = 1, kind = "x" } }\neffect = []',
     "cards.x.abilities[0].cost.discard.kind", "unknown field (valid: count, class, at_most)"),
])
def test_card_text_vocabulary_errors_name_the_field(body: str, where: str, says: str) -> None:
    """Every field of the card-text vocabulary (constant abilities, conditions, durations,
    "can't", replacements, limits, modes, once per turn, "if you do", costs) refused on one
    line that names the field and, where they form a closed set, the valid choices."""
    text = CARD_HEAD.replace("BODY", body) + 'deck = ["d1"]\n\n[[expect]]\nphase = "main"\n'
    err = error_of(text)
    assert f": {where}: " in str(err), str(err)
    assert says in str(err), str(err)


def test_a_cross_condition_names_its_partner_and_side() -> None:
    base = CARD_HEAD.replace("[[cards.x.abilities]]\nBODY\n", "cross = CROSS\n") + \
        'deck = ["d1"]\n\n[[expect]]\nphase = "main"\n'
    err = error_of(base.replace("CROSS", '{ partner = "y", side = "up" }'))
    assert ": cards.x.cross.side: unknown value 'up' (valid: left, right)" in str(err)
    err = error_of(base.replace("CROSS", '{ side = "left" }'))
    assert ": cards.x.cross.partner: missing" in str(err)
    err = error_of(base.replace('type = "signi"', 'type = "spell"').replace(
        "level = 1\npower = 1000\n", "").replace("CROSS", '{ partner = "y", side = "left" }'))
    assert ": cards.x.cross: only a SIGNI has a cross condition" in str(err)


def test_a_mode_choice_names_a_mode() -> None:
    text = HEAD + 'deck = ["d1"]\n\n[[choices]]\nkind = "mode"\npick = "mode10"\n\n' \
        '[[expect]]\nphase = "main"\n'
    err = error_of(text)
    assert ": choices[0].pick: 'mode10' is neither a card label" in str(err)
    assert "mode1" in str(err)


def test_unknown_keyword_in_an_expectation() -> None:
    text = HEAD + '''deck = ["d1", "d2"]

[[expect]]
keywords = { d1 = ["lancer", "lancr"] }
'''
    err = error_of(text)
    assert str(err).startswith("x.toml:15: expect[0].keywords.d1[1]: unknown value 'lancr' "
                               "(valid: ")
    assert "lancer" in str(err)
