"""judge search: analyzers, the query language, expansion, the index and its faults.

Most tests search the fixture corpus (tests/fixtures/corpus: three tiny rulings) through an
index built once per module in a temporary folder:

- fx-mill-refresh: Japanese and English only (リフレッシュ, "refresh", ミル, "mill");
- fx-power-zero: Japanese only (パワー, バニッシュ, ルール処理, 《PICK UP》);
- fx-attack-steps: all three languages (ステップ, "steps", 步骤, 攻击).
"""

from __future__ import annotations

import json
import pickle
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from conftest import FX_CORPUS, MILL, POWER, STEPS

from judge.cli import cli
from judge.corpus import load_glossary
from judge.search import (
    SearchIndex,
    build_index,
    ensure_index,
    make_snippet,
    search,
    stamp_problem,
)
from judge.search_analysis import RUN_END, fold, text_analyzer, tokens
from judge.search_query import Expand, Glossary, QueryError, Text, expand, parse, show


@pytest.fixture(scope="module")
def corpus_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("corpus")
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    return root


@pytest.fixture(scope="module")
def index(corpus_root: Path) -> Iterator[SearchIndex]:
    assert ensure_index(corpus_root) == "no index yet"
    ix = SearchIndex(corpus_root / "build" / "search")
    yield ix
    ix.close()


def ids(index: SearchIndex, query: str, **kwargs: Any) -> list[str]:
    return [h.id for h in index.search(query, **kwargs).hits]


# ---------------------------------------------------------------------- analysis


def test_fold_nfkc_lowercase_and_kana() -> None:
    assert fold("ＰＩＣＫ ＵＰ") == "pick up"
    assert fold("リフレッシュ") == fold("りふれっしゅ") == fold("ﾘﾌﾚｯｼｭ")
    assert fold("ﾊﾞﾆｯｼｭ") == fold("バニッシュ")


def test_cjk_ngrams_and_offsets() -> None:
    index_tokens = tokens(text_analyzer(), "重构后", mode="index")
    assert [(t[0], t[1]) for t in index_tokens] == [("重构", 0), ("构后", 1), ("后" + RUN_END, 2)]
    # a query run: the pairs that cover it; one character stays itself
    assert [(t[0], t[1]) for t in tokens(text_analyzer(), "重构后")] == [("重构", 0), ("构后", 1)]
    assert [t[0] for t in tokens(text_analyzer(), "りふれっしゅ")] == ["りふ", "れっ", "しゅ"]
    assert [t[0] for t in tokens(text_analyzer(), "攻")] == ["攻"]
    # offsets point into the original text, even where NFKC changed its length
    text = "ﾊﾞﾆｯｼｭ!"
    spans = {t[0]: (t[2], t[3]) for t in tokens(text_analyzer(), text, mode="index")}
    assert text[slice(*spans["ばに"])] == "ﾊﾞﾆ"


def test_english_stems_drops_stop_words_and_pairs_words() -> None:
    assert [t[0] for t in tokens(text_analyzer(), "The refreshes happened")] == \
        ["refresh", "happen", "refresh happen"]
    # a pair spans both words of the original text, across one dropped word at most
    text = "put into the trash. a b c d trash"
    pairs = {t[0]: text[t[2]:t[3]] for t in tokens(text_analyzer(), text, mode="index")}
    assert pairs["into trash"] == "into the trash"
    assert "d trash" in pairs and "b d" not in pairs


def test_analyzer_pickles() -> None:
    analyzer = text_analyzer()
    again = pickle.loads(pickle.dumps(analyzer))
    assert again == analyzer
    assert tokens(again, "リフレッシュ refreshes") == tokens(analyzer, "リフレッシュ refreshes")


# ---------------------------------------------------------------------- the query language


@pytest.mark.parametrize("query, shown", [
    ("refresh trash", "(refresh AND trash)"),
    ("a OR b", "(a OR b)"),
    ("a -b", "(a AND NOT b)"),
    ("(a OR b) NOT c", "((a OR b) AND NOT c)"),
    ('"main deck" x', '("main deck" AND x)'),
    ("「リフレッシュ」", '"リフレッシュ"'),
    ("tag:refresh rules:2014-07 term:trash", "(tag:refresh AND rules:2014-07 AND term:trash)"),
    ("ｔａｇ：ｒｅｆｒｅｓｈ", "tag:refresh"),
    ('term:"rule processing"', "term:rule processing"),
    ("12:00", "12:00"),
])
def test_parse(query: str, shown: str) -> None:
    assert show(parse(query)) == shown


@pytest.mark.parametrize("query, message", [
    ("", "the query is empty"),
    ("(refresh", "a '(' is never closed"),
    ("refresh)", "a ')' has no matching '('"),
    ("OR refresh", "'OR' needs a search term before it"),
    ("refresh OR", "'OR' needs a search term after it"),
    ("refresh AND", "'AND' needs a search term after it"),
    ("NOT", "'NOT' needs a search term after it"),
    ('"refresh', "is never closed"),
    ("colour:red", "unknown field 'colour'"),
    ("tag:", "tag: needs a value"),
])
def test_unreadable_queries(query: str, message: str) -> None:
    with pytest.raises(QueryError, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse(query)


def test_glossary_expansion_of_the_real_glossary() -> None:
    glossary = Glossary(load_glossary().values())
    assert expand(parse("重构"), glossary) == Expand("重构", "refresh")
    assert expand(parse("りふれっしゅ"), glossary) == Expand("りふれっしゅ", "refresh")
    assert show(expand(parse("rule processing"), glossary)) == "rule processing→rule-processing"
    assert show(expand(parse("refreshes"), glossary)) == "refreshes→refresh"
    node = expand(parse("效果处理途中重构"), glossary)
    assert show(node) == "(效果→effect AND 处理途中 AND 重构→refresh)"
    assert expand(parse("zzz"), glossary) == Text("zzz")
    names = glossary.terms["refresh"].names
    assert (names["ja"], names["en"]) == ("リフレッシュ", "refresh")


# ---------------------------------------------------------------------- finding rulings


@pytest.mark.parametrize("query, found, not_found", [
    # Japanese: any part of a word, down to one character
    ("リフレッシュ", [MILL], [STEPS]),
    ("ステップ", [STEPS], [MILL, POWER]),
    ("ミ", [MILL], [POWER]),  # also み: kana are folded
    ("ルリグアタック", [STEPS], [MILL, POWER]),
    ("パワー", [POWER], [MILL]),
    # English: stemming
    ("steps", [STEPS], [MILL]),
    ("milling", [MILL], [STEPS, POWER]),
    ("empties", [MILL], [STEPS]),
    ("LRIG attack", [STEPS], [MILL]),
    # Chinese
    ("步骤", [STEPS], [MILL, POWER]),
    ("攻", [STEPS], [MILL]),
    ("结束阶段", [STEPS], [MILL, POWER]),
])
def test_each_language(index: SearchIndex, query: str, found: list[str],
                       not_found: list[str]) -> None:
    got = ids(index, query)
    for rid in found:
        assert rid in got, f"{query!r} should find {rid}"
    for rid in not_found:
        assert rid not in got, f"{query!r} should not find {rid}"


@pytest.mark.parametrize("query, found", [
    ("重构", MILL),  # Chinese name of refresh; the ruling has no Chinese text
    ("refresh", MILL),
    ("banish", POWER),  # the ruling is Japanese only: バニッシュ
    ("破坏", POWER),
    ("rule processing", POWER),
])
def test_cross_language_expansion(index: SearchIndex, query: str, found: str) -> None:
    assert found in ids(index, query)


def test_without_expansion_the_chinese_query_finds_nothing(index: SearchIndex) -> None:
    # the same characters as a plain (non-glossary) word: 构重 is no term
    assert ids(index, "构重") == []


@pytest.mark.parametrize("query, found", [
    ("ＰＩＣＫ ＵＰ", POWER),  # full-width; the text has 《PICK UP》
    ("pick up", POWER),
    ("ﾊﾟﾜｰ", POWER),  # half-width katakana
    ("ばにっしゅ", POWER),  # hiragana for バニッシュ
    ("みる", MILL),
])
def test_width_and_kana_insensitive(index: SearchIndex, query: str, found: str) -> None:
    assert ids(index, query) == [found]


def test_filters_and_operators(index: SearchIndex) -> None:
    assert ids(index, "tag:refresh") == [MILL]
    assert ids(index, "tag:REFRESH") == [MILL]
    assert ids(index, "rules:2014-09") == [STEPS]
    assert sorted(ids(index, "rules:current")) == sorted([MILL, POWER, STEPS])
    assert ids(index, "term:trash") == [MILL]
    assert ids(index, "term:废弃区") == [MILL]  # a term named in Chinese
    assert sorted(ids(index, "NOT tag:refresh")) == sorted([POWER, STEPS])
    assert sorted(ids(index, "ステップ OR リフレッシュ")) == sorted([MILL, STEPS])
    assert ids(index, "ステップ リフレッシュ") == []
    assert ids(index, "id:fx-power*") == [POWER]
    assert ids(index, "", tags=["refresh"]) == [MILL]
    assert ids(index, "phase", rules="2014-04") == []
    assert ids(index, "effect", term="mill") == [MILL]
    assert ids(index, "step", limit=1) == [STEPS]


def test_bad_filter_values(index: SearchIndex) -> None:
    with pytest.raises(QueryError, match="unknown rule set '2099'"):
        index.search("rules:2099")
    with pytest.raises(QueryError, match="'nonsense' is not a glossary term"):
        index.search("term:nonsense")
    with pytest.raises(QueryError, match="nothing to search for"):
        index.search("the of")


def test_results_titles_snippets_and_rule_sets(index: SearchIndex) -> None:
    result = index.search("リフレッシュ", lang="en")
    hit = result.hits[0]
    assert (hit.id, hit.lang) == (MILL, "en")
    assert hit.title == "A mill empties the main deck"
    assert "**refresh**" in hit.snippet
    assert hit.rules == ("2014-04", "current")
    ja = index.search("refresh", lang="ja").hits[0]
    assert ja.title == "ミルでメインデッキが0枚になる"
    assert "**リフレッシュ**" in ja.snippet
    # a ruling without the chosen language falls back to Japanese
    zh = index.search("バニッシュ", lang="zh-Hans").hits[0]
    assert (zh.id, zh.lang, zh.title) == (POWER, "ja", "パワー0のシグニはバニッシュされる")
    # the language is guessed from the query when not given
    assert index.search("步骤").lang == "zh-Hans"
    assert index.search("ステップ").lang == "ja"
    assert index.search("steps").lang == "en"


def test_ranking_prefers_more_matches(index: SearchIndex) -> None:
    hits = index.search("attack OR refresh OR LRIG", lang="en").hits
    assert hits[0].id == STEPS
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_single_characters_and_negated_words_in_snippets(index: SearchIndex) -> None:
    hit = index.search("攻", lang="zh-Hans").hits[0]
    assert hit.id == STEPS and "**攻**击" in hit.snippet
    hit = index.search("refresh NOT steps", lang="en").hits[0]
    assert hit.id == MILL and "**refresh**" in hit.snippet and "**step" not in hit.snippet


def test_cap_on_scored_matches(index: SearchIndex) -> None:
    everything = index.search("rules:current", max_scored=None)
    assert (everything.total, everything.capped) == (3, False)
    capped = index.search("rules:current", max_scored=2)
    assert (capped.total, capped.capped, len(capped.hits)) == (2, True, 2)
    from judge.search import iter_lines

    assert list(iter_lines(capped))[-1] == "at least 2 rulings match"


def test_snippet_window_and_marks() -> None:
    text = "word " * 60 + "refresh here " + "word " * 60
    snippet = make_snippet(text, text_analyzer(), {"refresh"})
    assert snippet.startswith("…") and snippet.endswith("…")
    assert "**refresh**" in snippet and len(snippet) < 200


# ---------------------------------------------------------------------- the index on disk


def test_index_rebuilt_only_when_the_corpus_changes(tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    assert ensure_index(root) == "no index yet"
    assert ensure_index(root) == ""
    ruling = root / "rulings" / "rules" / "fx-power-zero.toml"
    ruling.write_text(ruling.read_text(encoding="utf-8").replace(
        "関係ありません", "関係ありません。新しい言葉ゼブラ"), encoding="utf-8")
    assert ensure_index(root) == "the corpus changed"
    assert [h.id for h in search("ゼブラ", root=root).hits] == [POWER]


def test_corrupt_index_is_detected_and_rebuilt(tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    folder = root / "build" / "search"
    ensure_index(root)
    for seg in folder.glob("*.seg"):
        seg.write_bytes(b"garbage" * 10)
    assert stamp_problem(folder, json.loads((folder / "stamp.json").read_text())["corpus"]) \
        == "the index files are damaged"
    result = search("リフレッシュ", root=root)
    assert result.rebuilt == "the index files are damaged"
    assert [h.id for h in result.hits] == [MILL]


def test_damage_the_stamp_misses_is_rebuilt_on_reading(tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    folder = root / "build" / "search"
    ensure_index(root)
    stamp = json.loads((folder / "stamp.json").read_text())
    for toc in folder.glob("*.toc"):
        toc.write_bytes(b"not a pickle")
    # forge the stamp so that it matches the damaged files
    from judge.search import _file_hashes

    stamp["files"] = _file_hashes(folder)
    (folder / "stamp.json").write_text(json.dumps(stamp))
    result = search("リフレッシュ", root=root)
    assert [h.id for h in result.hits] == [MILL]
    assert result.rebuilt == "the index was unreadable"


def test_interrupted_build_keeps_the_old_index(tmp_path: Path) -> None:
    from judge.search import SearchDoc

    folder = tmp_path / "ix"
    build_index([SearchDoc("a", "a.toml", {"ja": "リフレッシュ"}, {})], folder)

    def docs() -> Iterator[SearchDoc]:
        yield SearchDoc("b", "b.toml", {"ja": "ステップ"}, {})
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError):
        build_index(docs(), folder)
    with SearchIndex(folder, glossary=[]) as ix:
        assert [h.id for h in ix.search("リフレッシュ").hits] == ["a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ix"]


# ---------------------------------------------------------------------- the command


def test_cli_search_text_and_json(corpus_root: Path, index: SearchIndex) -> None:
    runner = CliRunner()
    done = runner.invoke(cli, ["search", "重构", "--corpus", str(corpus_root), "--lang", "en"])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0] == f"1. {MILL}  [2014-04, current]"
    assert lines[1].strip() == "A mill empties the main deck"
    assert lines[-1] == "1 ruling matches"
    done = runner.invoke(cli, ["search", "tag:refresh", "--corpus", str(corpus_root), "--json"])
    data = json.loads(done.output)
    assert data["total"] == 1
    assert set(data["results"][0]) == {"id", "title", "snippet", "rules", "tags", "path",
                                       "score", "lang"}
    done = runner.invoke(cli, ["search", "zebra", "--corpus", str(corpus_root)])
    assert done.output.strip() == "no ruling matches zebra"


def test_cli_bad_query_is_one_line(corpus_root: Path, index: SearchIndex) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from judge.cli import main; main()", "search", "(refresh",
         "--corpus", str(corpus_root)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "Error: a '(' is never closed\n"
    assert "Traceback" not in done.stderr + done.stdout
