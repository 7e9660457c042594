"""Hostile input, case by case (issue #9): each case is one a contributor could write, and each
must get one located line (``FILE:LINE: field: ...``), quickly, without a traceback.

The suite of many generated files run through the real commands is tests/test_hostile.py;
this module pins each fix of the loader and the data readers on its own.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import load_error

from judge.corpus import fingerprint
from judge.data import card_library, load_glossary, load_rulesets
from judge.errors import DataError, ScenarioError
from judge.ids import is_id, is_label, quote
from judge.limits import MAX_FILE_BYTES
from judge.paths import project_root
from judge.scenario.load import load_path, load_text
from judge.skeleton import skeleton

BASE = skeleton("robust")
ID_LINE = BASE.splitlines().index('id = "robust"') + 1
DATA = project_root() / "data"


def error_of(text: str) -> str:
    message = load_error(text)
    assert message.startswith("x.toml:")
    return message


def with_deck(card: str) -> str:
    assert 'deck = ["' in BASE
    return BASE.replace('deck = ["', f'deck = ["{card}", "', 1)


# ---------------------------------------------------------------------- ids and labels


@pytest.mark.parametrize("value", ["x\n", "x１", "../x", "X", "a--b", "-a", "a" * 65, "ｘ", ""])
def test_ids_take_a_full_ascii_match(value: str) -> None:
    assert not is_id(value)
    message = error_of(BASE.replace('id = "robust"', f"id = {value!r}".replace("'", '"')
                                    .replace("\n", "\\n")))
    assert f":{ID_LINE}: id: " in message


def test_the_id_pattern_accepts_the_corpus_kind_of_ids() -> None:
    assert all(is_id(v) for v in ("refresh-steps", "2014-04", "current", "lrig-white-0"))


@pytest.mark.parametrize("card", ["e*²", "e*１", "<b>x*2", "\u200b*2", "x\u202e*2", "*3", "e*0",
                                  "e*100000000", "e*-1"])
def test_label_prefixes_and_counts_are_checked(card: str) -> None:
    message = error_of(with_deck(card))
    assert "setup.p1.deck[0]" in message


@pytest.mark.parametrize("label", ["<b>x", "x\u200b", "x\n", "é1"])
def test_labels_are_plain_ascii(label: str) -> None:
    assert not is_label(label)
    error_of(with_deck(label.replace("\n", "\\n")))


def test_a_zone_holds_a_bounded_number_of_cards() -> None:
    message = error_of(with_deck('a*200", "b*200'))
    assert "more than 200 cards in one zone" in message


@pytest.mark.parametrize("field,value", [("explore_limit", "1000000000"),
                                         ("explore_limit", "0")])
def test_explore_limit_has_a_ceiling(field: str, value: str) -> None:
    message = error_of(re.sub(r"(?m)^explore_limit = .*$", f"{field} = {value}", BASE))
    assert "explore_limit" in message


def test_numbers_too_large_for_sqlite_are_refused() -> None:
    message = error_of(BASE.replace("turn = 3", f"turn = {2**70}", 1))
    assert "setup.turn: must be at most" in message
    assert str(2**70) in message


# ---------------------------------------------------------------------- reading files


def test_a_byte_order_mark_is_accepted() -> None:
    assert load_text("\ufeff" + BASE, "x.toml").id == "robust"


def test_bad_utf8_names_its_line(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_bytes(BASE.encode() + b"\n# \xff\n")
    with pytest.raises(ScenarioError) as info:
        load_path(path, "x.toml")
    assert str(info.value) == (f"x.toml:{BASE.count(chr(10)) + 2}: not UTF-8 text: byte 0xff "
                               "cannot be decoded (save the file as UTF-8)")


def test_deep_nesting_is_one_line_not_a_recursion_error() -> None:
    message = error_of("x = " + "[" * 5000 + "]" * 5000 + "\n")
    assert message == "x.toml:1: arrays or tables nest more than 32 deep"
    message = error_of("x = " + "[" * 40 + "]" * 40 + "\n")
    assert "nest more than 32 deep" in message


def test_a_fifo_is_not_opened(tmp_path: Path) -> None:
    fifo = tmp_path / "x.toml"
    os.mkfifo(fifo)
    start = time.perf_counter()
    with pytest.raises(ScenarioError, match="not a regular file"):
        load_path(fifo, "x.toml")
    assert time.perf_counter() - start < 5  # it would block forever if opened


def test_a_huge_file_is_not_read(tmp_path: Path) -> None:
    path = tmp_path / "x.toml"
    path.write_text(BASE + "# " + "x" * MAX_FILE_BYTES + "\n", encoding="utf-8")
    with pytest.raises(ScenarioError, match="more than the limit"):
        load_path(path, "x.toml")


def test_error_lines_do_not_repeat_huge_values() -> None:
    message = error_of(BASE.replace('rulesets = ["', 'rulesets = ["' + "z" * 100_000 + '", "', 1))
    assert len(message) < 400
    assert "(100002 characters)" in message
    assert len(quote("y" * 10)) == 12


def test_a_long_inline_value_is_located_in_linear_time() -> None:
    start = time.perf_counter()
    error_of(BASE.replace('rulesets = ["', 'rulesets = ["' + "z" * 200_000 + '", "', 1))
    assert time.perf_counter() - start < 10  # it took minutes: quadratic key scanning


# ---------------------------------------------------------------------- data files


@pytest.fixture
def data_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "data"
    shutil.copytree(DATA, folder)
    monkeypatch.setenv("JUDGE_DATA", str(folder))
    return folder


def _data_error(call: object) -> str:
    assert callable(call)
    with pytest.raises(DataError) as info:
        call()
    return str(info.value)


def test_a_rule_set_id_cannot_climb_out_of_the_site(data_copy: Path) -> None:
    path = data_copy / "rulesets.toml"
    path.write_text(path.read_text(encoding="utf-8").replace('id = "2014-04"',
                                                             'id = "../../../x"', 1))
    message = _data_error(load_rulesets)
    assert re.match(r"^.*rulesets\.toml:\d+: ruleset\[0\]\.id: '\.\./\.\./\.\./x' is not a "
                    r"valid rule set id", message), message


@pytest.mark.parametrize("key,new,field", [
    ("title", 'title = "x"', "ruleset[0].title: expected a table"),
    ("sources", "sources = 5", "ruleset[0].sources: expected a list"),
])
def test_rule_set_fields_of_the_wrong_type(data_copy: Path, key: str, new: str,
                                           field: str) -> None:
    path = data_copy / "rulesets.toml"
    text = path.read_text(encoding="utf-8")
    path.write_text(re.sub(rf"(?m)^{key} = .*$", new, text, count=1), encoding="utf-8")
    assert field in _data_error(load_rulesets)


def test_a_missing_rulesets_file_is_named(data_copy: Path) -> None:
    (data_copy / "rulesets.toml").unlink()
    assert "rulesets.toml:1: missing" in _data_error(load_rulesets)


@pytest.mark.parametrize("tail,expected", [
    ("\n[terms.zz]\nja = 1\n", "terms.zz.ja: expected text, got 1"),
    ("\n[terms.zz]\nja = \"x\"\naliases = 5\n", "terms.zz.aliases: expected a list of text"),
    ("\n[terms.ZZ]\nja = \"x\"\n", "'ZZ' is not a valid term id"),
    ("\n[terms.zz\n", "TOML syntax"),
])
def test_glossary_problems_name_the_glossary(data_copy: Path, tail: str, expected: str) -> None:
    path = data_copy / "glossary.toml"
    path.write_text(path.read_text(encoding="utf-8") + tail, encoding="utf-8")
    message = _data_error(lambda: load_glossary(path))
    assert "glossary.toml:" in message and expected in message, message


def test_glossary_terms_of_the_wrong_type(data_copy: Path) -> None:
    path = data_copy / "glossary.toml"
    path.write_text("terms = [1, 2]\n", encoding="utf-8")
    assert _data_error(lambda: load_glossary(path)).endswith(
        "glossary.toml:1: terms: expected [terms.ID] tables, got [1, 2]")


def test_a_card_id_defined_twice_is_refused(data_copy: Path) -> None:
    source = data_copy / "cards" / "basic.toml"
    first = re.search(r"(?ms)^\[([a-z0-9-]+)\]\n.*?(?=^\[)", source.read_text(encoding="utf-8"))
    assert first
    (data_copy / "cards" / "zz-copy.toml").write_text(first.group(0), encoding="utf-8")
    message = _data_error(card_library)
    assert "zz-copy.toml:1:" in message and "already defined in cards/basic.toml" in message


def test_bad_utf8_in_a_card_file_names_the_card_file(data_copy: Path) -> None:
    path = data_copy / "cards" / "basic.toml"
    path.write_bytes(path.read_bytes() + b"\n\xff\n")
    assert "basic.toml:" in _data_error(card_library)


# ---------------------------------------------------------------------- across files


def _judge(*args: str, cwd: Path, env: dict[str, str] | None = None
           ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "judge.cli", *args], cwd=cwd, text=True,
                          capture_output=True, timeout=120,
                          env={**os.environ, **(env or {})})


def _corpus(tmp_path: Path, *texts: tuple[str, str]) -> Path:
    for name, text in texts:
        path = tmp_path / "rulings" / "t" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return tmp_path


def test_a_ruling_id_in_two_files_fails_check(tmp_path: Path) -> None:
    root = _corpus(tmp_path, ("a.toml", BASE), ("b.toml", BASE))
    done = _judge("check", "rulings", cwd=root)
    assert done.returncode == 2
    assert f"Error: rulings/t/b.toml:{ID_LINE}: id: ruling id 'robust' is already used by " \
           "rulings/t/a.toml" in done.stdout
    assert "Traceback" not in done.stdout + done.stderr


def test_a_related_id_must_name_a_ruling(tmp_path: Path) -> None:
    root = _corpus(tmp_path, ("a.toml", BASE.replace("related = []", 'related = ["nope"]')))
    done = _judge("check", "rulings", cwd=root)
    assert done.returncode == 2
    assert re.search(r"^Error: rulings/t/a\.toml:\d+: related\[0\]: no ruling has the id "
                     r"'nope'$", done.stdout, re.MULTILINE), done.stdout
    db = _judge("db", "--out", str(tmp_path / "out" / "x.db"), cwd=root)
    assert db.returncode == 2 and "related[0]" in db.stderr
    assert not (tmp_path / "out" / "x.db").exists()


def test_a_topic_folder_name_is_an_id(tmp_path: Path) -> None:
    root = _corpus(tmp_path, ("a.toml", BASE))
    (root / "rulings" / "t").rename(root / "rulings" / "Bad Topic")
    done = _judge("check", "rulings", cwd=root)
    assert done.returncode == 2 and "'Bad Topic' is not a valid topic id" in done.stdout


def test_a_broken_data_file_is_named_not_a_ruling(tmp_path: Path) -> None:
    root = _corpus(tmp_path, ("a.toml", BASE))
    data = tmp_path / "data"
    shutil.copytree(DATA, data)
    (data / "glossary.toml").write_text("[terms.x\n", encoding="utf-8")
    done = _judge("check", "rulings", cwd=root, env={"JUDGE_DATA": str(data)})
    assert done.returncode == 2
    lines = (done.stdout + done.stderr).strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and "glossary.toml:1:" in lines[0]


def test_the_fingerprint_does_not_depend_on_where_the_corpus_is(tmp_path: Path) -> None:
    one = _corpus(tmp_path / "one", ("a.toml", BASE))
    two = _corpus(tmp_path / "elsewhere" / "two", ("a.toml", BASE))
    assert fingerprint(one) == fingerprint(two)
    assert fingerprint(one) != fingerprint(_corpus(tmp_path / "three", ("b.toml", BASE)))
