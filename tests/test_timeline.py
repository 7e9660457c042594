"""The timeline of changed answers (judge/site/timeline.py and the timeline page).

Checked: every dated rule change of data/rulesets.toml is one change with the flags it
changes; a ruling is listed under a change exactly when its stated answer differs across it,
with the rule sets on each side; the facts shown are those that differ; a rule set added to
the data makes a change of its own on the built page without any template or code edit.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
from pathlib import Path

import pytest

from judge.corpus import load_corpus
from judge.data import load_rulesets
from judge.paths import project_root
from judge.scenario.load import load_text
from judge.site.build import build_site
from judge.site.timeline import Row, answer_keys, changes, differences, expectation_keys

ROOT = project_root()


def _scenario(rulesets: str, expect: str) -> object:
    return load_text(f'''id = "tl-test"
rulesets = {rulesets}
sources = ["glossary-refresh"]
[title]
ja = "t"
[setup]
turn = 3
[setup.p1]
deck = ["d1"]
{expect}
''')


def test_each_rule_set_after_the_first_is_a_dated_change_with_its_flags() -> None:
    rulesets = load_rulesets()
    found = {c.ruleset: c for c in changes(rulesets, [])}
    assert list(found) == list(rulesets)[1:]
    assert found["2014-07"].flags == ("refresh_timing",)
    assert found["2014-07"].previous == "2014-04" and found["2014-07"].start == "2014-07-01"
    assert found["2014-09"].flags == ("second_refresh_ends_turn",)
    assert {"refresh_needs_trash", "excess_order", "burst_count"} <= set(found["current"].flags)


def test_a_ruling_is_listed_where_its_answer_changes() -> None:
    rulesets = load_rulesets()
    same = _scenario('["2014-04", "2014-07"]', '[[expect]]\nphase = "main"')
    differs = _scenario('["2014-07", "2014-09", "current"]',
                        '[[expect]]\nrules = ["2014-07"]\nphase = "main"\n'
                        '[[expect]]\nrules = ["2014-09", "current"]\nturn = 3')
    skips = _scenario('["2014-04", "current"]',
                      '[[expect]]\nrules = ["2014-04"]\nphase = "main"\n'
                      '[[expect]]\nrules = ["current"]\nturn = 3')
    found = changes(rulesets, [(s.id, answer_keys(s)) for s in (same, differs, skips)])
    rows = {c.ruleset: c.rows for c in found}
    assert rows["2014-07"] == ()
    assert rows["2014-09"] == (Row("tl-test", "2014-07", "2014-09"),)
    # a ruling that skips rule sets: under the change that begins its later one
    assert rows["current"] == (Row("tl-test", "2014-04", "current"),)


def test_the_corpus_timeline_lists_the_rulings_whose_answer_changes() -> None:
    corpus = load_corpus(ROOT, replay=False)
    scenarios = [r.scenario for r in corpus.rulings]
    found = changes(corpus.rulesets, [(s.id, answer_keys(s)) for s in scenarios])
    listed = {(c.ruleset, r.ruling) for c in found for r in c.rows}
    order = list(corpus.rulesets)
    for sc in scenarios:
        named = [rs for rs in order if rs in sc.rulesets]
        for before, after in zip(named, named[1:], strict=False):
            differ = expectation_keys(sc.expectations, before) != \
                expectation_keys(sc.expectations, after)
            assert ((after, sc.id) in listed) == differ, (sc.id, before, after)
    assert ("2014-09", "second-refresh-ends-turn") in listed
    assert ("current", "excess-order-before-and-after-2020") in listed
    assert ("current", "deck-life-burst-count-exactly-then-at-most-20") in listed


def test_only_the_facts_that_differ_are_shown() -> None:
    corpus = load_corpus(ROOT, replay=False)
    sc = corpus.ruling("second-refresh-ends-turn").scenario

    def facts(exp: object) -> list[tuple[str, str]]:
        state = exp.state  # type: ignore[attr-defined]
        return [(what, str(value)) for what, value in (("turn", state.turn),
                                                        ("phase", state.phase)) if value]

    rows = differences(sc, Row(sc.id, "2014-07", "2014-09"), facts, lambda e: "", "outcomes")
    assert {r["what"] for r in rows} == {"turn", "phase"}
    turn = next(r for r in rows if r["what"] == "turn")
    assert int(turn["after"]) == int(turn["before"]) + 1  # the turn ended


def made_up_rule_set(rulesets_toml: str) -> str:
    """A rule set dated 2099: the last one of the file with its Life Burst count back to
    exactly 20 (copied, so that flags added to the data later are there too)."""
    last = rulesets_toml[rulesets_toml.rindex("[[ruleset]]"):]
    replace = {"id": '"2099"', "from": '"2099-01-01"',
               "title": '{ ja = "仮の変更", en = "A made-up change", zh-Hans = "假设的变更" }',
               "summary": '{ ja = "ライフバーストはちょうど20枚。", en = "20 Life Bursts again.", '
                          'zh-Hans = "生命爆发恰好20张。" }',
               "burst_count": '"exactly"', "sources": '["mistaken-rules#life-burst"]'}
    for key, value in replace.items():
        last, n = re.subn(rf"(?m)^{key} = .*$", f"{key} = {value}", last)
        assert n == 1, key
    return "\n" + last


def test_a_new_rule_set_appears_on_the_page_without_template_edits(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = tmp_path / "data"
    shutil.copytree(ROOT / "data", data)
    text = (data / "rulesets.toml").read_text(encoding="utf-8")
    with (data / "rulesets.toml").open("a", encoding="utf-8") as fh:
        fh.write(made_up_rule_set(text))
    monkeypatch.setenv("JUDGE_DATA", str(data))
    corpus = tmp_path / "corpus"
    (corpus / "rulings" / "game-flow").mkdir(parents=True)
    ruling = (ROOT / "rulings" / "game-flow" /
              "deck-life-burst-count-exactly-then-at-most-20.toml").read_text(encoding="utf-8")
    ruling = ruling.replace('rulesets = ["2014-04", "2014-07", "2014-09", "current"]',
                            'rulesets = ["2014-09", "current", "2099"]')
    ruling = ruling.replace('rules = ["2014-04", "2014-07", "2014-09"]',
                            'rules = ["2014-09", "2099"]')
    ruling = ruling.replace("related = [", "related = [] # ", 1)
    (corpus / "rulings" / "game-flow" / "burst-count.toml").write_text(ruling, encoding="utf-8")
    out = tmp_path / "site"
    build_site(out, root=corpus)
    page = (out / "en" / "timeline" / "index.html").read_text(encoding="utf-8")
    section = page[page.index('id="rs-2099"'):]
    assert "A made-up change" in section and "from 2099-01-01" in section
    row = section[section.index('id="ch-2099-deck-life-burst-count-exactly-then-at-most-20"'):]
    row = row[:row.index("</table>")]
    # the dates that matter for this change: the rule set before it and this one
    assert "Current rules (glossary, 2020)" in row and "2014-04" not in row
    assert "Player 2&#39;s hand" in row and "5 cards" in row and "empty" in row
    # and the 2020 change lists the same ruling the other way round
    current = page[page.index('id="rs-current"'):page.index('id="rs-2099"')]
    assert 'id="ch-current-deck-life-burst-count-exactly-then-at-most-20"' in current
    assert dataclasses.is_dataclass(load_rulesets()["2099"])
