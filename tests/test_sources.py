"""The source registry (data/sources.toml) and the citations of rulings, rule sets and the engine.

Checked: every document is declared whole (titles and section names in three languages, an
authority, a date the document gives or "undated", an http(s) address or none); every
citation of the corpus, of the rule sets and of the engine's declarations names a document
and a section of the registry; the loader refuses a bad citation or mark with one located
line naming the valid choices; interpretations are marks in the texts, never sources.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from judge.data import load_rulesets
from judge.engine import mechanics
from judge.engine.rule_processing import TABLE
from judge.errors import FieldError, ScenarioError
from judge.ids import is_date
from judge.langs import LANGS, TEXT_FIELDS
from judge.paths import project_root
from judge.scenario.load import load_text
from judge.sources import (
    AUTHORITIES,
    Citation,
    has_interpretation,
    load_sources,
    mark_problem,
    parse_citation,
    parse_document,
    parse_registry,
    rests_on_official,
    strip_marks,
)

ROOT = project_root()
RULINGS = sorted((ROOT / "rulings").rglob("*.toml"))


# ---------------------------------------------------------------------------- the registry


def test_every_document_is_declared_whole() -> None:
    registry = load_sources()
    assert len(registry) >= 9
    for doc in registry.values():
        assert set(doc.titles) == set(LANGS), doc.id
        assert doc.authority in AUTHORITIES, doc.id
        assert doc.date == "" or is_date(doc.date), doc.id
        assert doc.url == "" or re.fullmatch(r"https?://\S+", doc.url), doc.id
        for section in doc.sections.values():
            assert set(section.names) == set(LANGS), (doc.id, section.id)
        assert not doc.note or set(doc.note) == set(LANGS), doc.id


def test_the_registry_holds_what_the_documents_give() -> None:
    """Dates, links and authorities as established (docs/scenario-format.md): a glossary
    quote is dated by its page; a document without a date is undated, never given a day."""
    registry = load_sources()
    dates = {d.id: d.date for d in registry.values()}
    assert dates["glossary-refresh"] == "2020-05-17"
    assert dates["glossary-rule-processing"] == "2020-11-30"
    assert dates["twitter-2014-06-20"] == "2014-06-20"
    assert dates["notice-2014-06-25"] == "2014-06-25"
    assert dates["notice-2014-08-27"] == "2014-08-27"
    assert dates["mistaken-rules"] == dates["chinese-rules"] == ""
    official = {d.id for d in registry.values() if d.official}
    assert official == {"glossary-refresh", "glossary-rule-processing", "twitter-2014-06-20",
                        "notice-2014-06-25", "notice-2014-08-27"}
    assert registry["notice-2014-08-27"].url.startswith("https://www.takaratomy.co.jp/")
    assert registry["twitter-2014-06-20"].url == ""  # no established address


@pytest.mark.parametrize(("body", "field", "words"), [
    ({"authority": "community", "date": "2020"}, "title", "missing"),
    ({"title": {"ja": "x", "en": "x"}, "authority": "community", "date": "2020"},
     "title.zh-Hans", "every language"),
    ({"title": {"ja": "x", "en": "x", "zh-Hans": "x"}, "authority": "interpretation",
      "date": "2020"}, "authority", "not listed as sources"),
    ({"title": {"ja": "x", "en": "x", "zh-Hans": "x"}, "authority": "community",
      "date": "2020-13-45"}, "date", "undated"),
    ({"title": {"ja": "x", "en": "x", "zh-Hans": "x"}, "authority": "community",
      "date": "2020", "url": "javascript:alert(1)"}, "url", "https://"),
    ({"title": {"ja": "x", "en": "x", "zh-Hans": "x"}, "authority": "community",
      "date": "2020", "sections": {"a": {"ja": "x"}}}, "sections.a.en", "every language"),
    ({"title": {"ja": "x", "en": "x", "zh-Hans": "x"}, "authority": "community",
      "date": "2020", "seed": "002"}, "seed", "000"),
])
def test_a_bad_document_is_refused(body: dict[str, object], field: str, words: str) -> None:
    with pytest.raises(FieldError) as err:
        parse_document("doc", body, "sources.doc")
    assert err.value.field == f"sources.doc.{field}"
    assert words in str(err.value)


def test_an_empty_registry_is_refused() -> None:
    with pytest.raises(FieldError):
        parse_registry({})


# ---------------------------------------------------------------------------- citations


def test_citations_are_checked_against_the_registry() -> None:
    registry = load_sources()
    assert parse_citation("mistaken-rules#crush", "s", registry) == \
        Citation("mistaken-rules", "crush")
    assert parse_citation("notice-2014-06-25", "s", registry) == Citation("notice-2014-06-25")
    with pytest.raises(FieldError) as err:
        parse_citation("mistaken-rule#crush", "sources[0]", registry)
    assert "unknown source" in str(err.value) and "mistaken-rules" in err.value.valid
    with pytest.raises(FieldError) as err:
        parse_citation("mistaken-rules#crash", "sources[1]", registry)
    assert "no section" in str(err.value) and "crush" in err.value.valid
    with pytest.raises(FieldError):
        parse_citation("mistaken-rules#", "sources[1]", registry)


def test_every_citation_of_the_engine_and_the_rule_sets_resolves() -> None:
    registry = load_sources()
    for kind in TABLE:
        assert parse_citation(kind.source, kind.id, registry).section, kind.id
    for mechanic in mechanics.all_mechanics():
        assert parse_citation(mechanic.source, mechanic.id, registry).section, mechanic.id
    for rs in load_rulesets().values():
        assert rs.sources, rs.id
        for cited in rs.sources:
            parse_citation(cited, rs.id, registry)


@pytest.mark.parametrize("path", RULINGS, ids=lambda p: p.stem)
def test_rulings_cite_the_registry_and_mark_their_interpretations(path: Path) -> None:
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    sources = raw.get("sources", [])
    assert sources and all(isinstance(s, str) for s in sources), "cite the registry by id"
    for name in TEXT_FIELDS:
        for lang, text in raw.get(name, {}).items():
            assert not mark_problem(text), (name, lang)
            # a text that says it is the project's reading marks that sentence instead
            assert not re.search(r"this project's (reading|interpretation)|an interpretation\b",
                                 strip_marks(text).replace(
                                     "this project's interpretation”", "")), (name, lang)


def _ruling(top: str = 'sources = ["mistaken-rules#crush"]', explanation: str = "x") -> str:
    return f'''id = "src-test"
rulesets = ["current"]
{top}

[title]
ja = "t"

[explanation]
ja = "{explanation}"

[setup]
turn = 3

[setup.p1]
deck = ["d1"]

[[expect]]
phase = "main"
'''


@pytest.mark.parametrize(("top", "explanation", "line", "words"), [
    ('sources = ["mistaken-rules#crash"]', "x", 3,
     "sources[0]: 'mistaken-rules' has no section 'crash' (valid: signi, arts,"),
    ('sources = ["no-such-doc"]', "x", 3, "unknown source 'no-such-doc'"),
    ('sources = ["mistaken-rules", "mistaken-rules"]', "x", 3, "cited twice"),
    ('[[sources]]\ntitle = "x"\ndate = "2020"\nauthority = "community"', "x", 3,
     "no longer read"),
    ('sources = ["mistaken-rules"]', "a [b]{.interp}", 9,
     "explanation.ja: '{.interp}' is not a mark this project knows"),
])
def test_a_bad_citation_or_mark_is_one_located_line(top: str, explanation: str, line: int,
                                                    words: str) -> None:
    with pytest.raises(ScenarioError) as err:
        load_text(_ruling(top, explanation), "rulings/x.toml")
    text = str(err.value)
    assert "\n" not in text and text.startswith(f"rulings/x.toml:{line}: "), text
    assert words in text, text


def test_a_good_ruling_keeps_its_citations_in_order() -> None:
    scenario = load_text(_ruling('sources = ["notice-2014-06-25", "mistaken-rules#crush"]',
                                 "a [b]{.interpretation}"))
    assert scenario.sources == (Citation("notice-2014-06-25"),
                                Citation("mistaken-rules", "crush"))
    assert rests_on_official(scenario.sources, load_sources())
    assert not rests_on_official((Citation("mistaken-rules"),), load_sources())


# ---------------------------------------------------------------------------- marks


def test_marks_strip_and_are_found() -> None:
    text = "Rule. [Our *reading* with [a] pair.]{.interpretation} [Not a mark]."
    assert has_interpretation(text)
    assert strip_marks(text) == "Rule. Our *reading* with [a] pair. [Not a mark]."
    assert not has_interpretation("[x] {.interpretation}")
    assert mark_problem("[x] {.interpretation}")  # the mark must follow the bracket
    assert mark_problem("[x]{.interpretation onload=1}")
    assert not mark_problem("a {b} c [x]{.interpretation}")


def test_the_corpus_has_no_interpretation_source_and_some_marks() -> None:
    marked = 0
    for path in RULINGS:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
        marked += any(has_interpretation(t) for name in TEXT_FIELDS
                      for t in raw.get(name, {}).values())
    assert marked >= 19
