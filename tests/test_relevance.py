"""The relevance benchmark (benchmarks/relevance.py) on its small subset, through the Python
API of ``judge search``, so that ranking cannot silently regress; and the judged query set
itself: big enough, balanced, every answer a real result with a note saying why.

The whole set runs with ``python benchmarks/relevance.py`` (docs/search.md).
"""

from __future__ import annotations

import sys
from collections import Counter
from pathlib import Path

import pytest

from judge.corpus import load_corpus
from judge.paths import project_root
from judge.search import ensure_index

sys.path.insert(0, str(project_root() / "benchmarks"))

from relevance import (  # noqa: E402
    LANGS,
    TARGET_HIT1,
    TARGET_HIT3,
    Outcome,
    Query,
    Report,
    cli_search_runner,
    evaluate,
    load_queries,
    main,
)


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index of the project's own corpus, apart from its build/ folder."""
    out = tmp_path_factory.mktemp("relevance") / "search"
    ensure_index(project_root(), out)
    return out


def test_the_judged_set_is_big_balanced_and_explained() -> None:
    queries = load_queries()
    assert len(queries) >= 100
    per_lang = Counter(q.lang for q in queries)
    assert set(per_lang) == set(LANGS)
    assert max(per_lang.values()) - min(per_lang.values()) <= len(queries) // 10
    assert len({q.kind for q in queries}) >= 8
    assert all(q.note.strip() for q in queries)
    assert len({(q.q, q.lang) for q in queries}) == len(queries), "a query is judged twice"


#: The judged sets the ranking work reads (the blind guard, benchmarks/blind-queries.toml, is
#: left to its own author): the judged set, the development set and the training set.
SETS = ("relevance-queries.toml", "dev-queries.toml", "train-queries.toml",
        "train2-queries.toml", "train3-queries.toml")


def test_the_training_set_is_big_and_in_three_languages() -> None:
    path = project_root() / "benchmarks" / "train-queries.toml"
    queries = load_queries(path)
    assert len(queries) >= 90
    per_lang = Counter(q.lang for q in queries)
    assert set(per_lang) == set(LANGS) and min(per_lang.values()) >= 30
    assert len({q.kind for q in queries}) >= 8
    assert len({(q.q, q.lang) for q in queries}) == len(queries), "a query is judged twice"


def test_a_query_set_with_an_unknown_kind_is_one_line_of_error(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "q.toml"
    path.write_text('[[query]]\nq = "x"\nlang = "en"\nkind = "keyword"\naccept = ["a"]\n'
                    'note = "n"\n', encoding="utf-8")
    assert main(["--queries", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown kind 'keyword'" in err
    assert "(valid: bare-term, question," in err and "Traceback" not in err


#: The blind guards: never read by ranking work, but their answers must still name what the
#: corpus holds (a ruling renamed or removed would silently turn a hit into a miss).
GUARDS = ("blind-queries.toml", "blind2-queries.toml")


@pytest.mark.parametrize("name", SETS + GUARDS)
def test_every_accepted_answer_exists(name: str) -> None:
    from judge.engine.rule_processing import KINDS

    corpus = load_corpus(replay=False)
    for query in load_queries(project_root() / "benchmarks" / name):
        for answer in query.accept:
            kind, _, name = answer.partition(":")
            if not name:
                assert answer in corpus.by_id, (query.q, answer)
            elif kind == "term":
                assert name in corpus.glossary, (query.q, answer)
            elif kind == "processing":
                assert name in KINDS, (query.q, answer)
            else:
                assert kind == "change" and name in corpus.rulesets, (query.q, answer)


def test_the_subset_spans_languages_and_kinds() -> None:
    subset = load_queries(subset=True)
    assert len(subset) >= 20
    assert {q.lang for q in subset} == set(LANGS)
    assert len({q.kind for q in subset}) >= 6


def test_ranking_on_the_subset_meets_the_targets(folder: Path) -> None:
    report = evaluate(cli_search_runner(project_root(), folder), load_queries(subset=True),
                      engine="cli")
    shown = "\n".join(report.lines())
    assert report.hit_at(1) >= TARGET_HIT1, shown
    assert report.hit_at(3) >= TARGET_HIT3, shown
    assert not [o for o in report.outcomes if o.error], shown


def test_the_report_counts_ranks_and_errors() -> None:
    query = Query("x", "en", "typo", ("a", "b"), "note")
    report = Report("fake", [Outcome(query, ("a", "z")), Outcome(query, ("z", "z", "b")),
                             Outcome(query, ("z",) * 10), Outcome(query, (), "QueryError: no")])
    assert [o.rank for o in report.outcomes] == [1, 3, None, None]
    assert (report.hit_at(1), report.hit_at(3)) == (0.25, 0.5)
    assert report.mrr() == pytest.approx((1 + 1 / 3) / 4)
    assert len(report.misses) == 3
    assert "error: QueryError: no" in "\n".join(report.lines())

    def refuses(q: str, lang: str) -> list[str]:
        raise ValueError("no")

    assert evaluate(refuses, [query]).outcomes[0].error == "ValueError: no"
