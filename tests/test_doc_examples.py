"""The worked examples of docs/scenario-format.md are rulings the loader reads and the engine
passes: every ```toml block of the page that is a whole ruling (it has an ``id``) is loaded as
written, in the current citation format (``sources = ["id#section"]``, ids of
data/sources.toml), and replayed under each rule set it names with every expectation met.
A block that only shows a few fields (a ``[cards.x]`` table, a condition) is not a ruling
and is read by the reader, not here."""

from __future__ import annotations

import re

import pytest

from judge.paths import project_root
from judge.scenario.expect import check_replay
from judge.scenario.load import load_text
from judge.scenario.run import replay

DOC = project_root() / "docs" / "scenario-format.md"
_BLOCK = re.compile(r"^```toml\n(.*?)^```", re.S | re.M)


def _examples() -> list[tuple[str, str]]:
    text = DOC.read_text(encoding="utf-8")
    out = []
    for block in _BLOCK.findall(text):
        found = re.search(r'^id = "([^"]+)"', block, re.M)
        if found:
            out.append((found.group(1), block))
    return out


def test_the_page_has_its_worked_examples() -> None:
    ids = [i for i, _ in _examples()]
    assert len(ids) >= 7 and len(set(ids)) == len(ids), ids


@pytest.mark.parametrize("example_id,text", _examples(), ids=[i for i, _ in _examples()])
def test_each_worked_example_loads_and_passes(example_id: str, text: str) -> None:
    assert "[[sources]]" not in text, "the earlier citation tables: use sources = [...]"
    scenario = load_text(text, f"docs/scenario-format.md#{example_id}")
    assert scenario.id == example_id
    assert scenario.sources, "a worked example cites its sources"
    assert not scenario.warnings, "a worked example is written in the current format"
    for rules in scenario.rulesets:
        assert check_replay(scenario, replay(scenario, rules)) == [], rules
