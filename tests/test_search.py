"""judge search: analysis, the query language, expansion, ranking, the index, its faults and the
output.

Most tests search the fixture corpus (tests/fixtures/corpus: three tiny rulings, with the
project's glossary, kinds of rule processing and rule changes) through an index built once per
module in a temporary folder:

- fx-mill-refresh: Japanese and English only (リフレッシュ, "refresh", ミル, "mill");
- fx-power-zero: Japanese only (パワー, バニッシュ, ルール処理, 《PICK UP》);
- fx-attack-steps: all three languages (ステップ, "steps", 步骤, 攻击).

Others build small indexes of their own from SearchDoc values.
"""

from __future__ import annotations

import json
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
    SearchDoc,
    SearchIndex,
    build_index,
    dumps,
    ensure_index,
    iter_lines,
    make_snippet,
    sanitize,
    search,
    stamp_problem,
)
from judge.search.analysis import (
    RUN_END,
    british,
    edit_distance,
    fold,
    index_tokens,
    latin_token,
    normalize,
    query_tokens,
    script_runs,
)
from judge.search.query import (
    And,
    Expand,
    Glossary,
    GlossaryTerm,
    QueryError,
    Text,
    expand,
    parse,
    refine,
    show,
)


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


@pytest.fixture(scope="module")
def glossary() -> Glossary:
    return Glossary(load_glossary().values())


def ids(index: SearchIndex, query: str, **kwargs: Any) -> list[str]:
    """The rulings found, best first (the other kinds of result left out)."""
    kwargs.setdefault("limit", 50)
    return [h.id for h in index.search(query, **kwargs).hits if h.kind == "ruling"]


def small_index(folder: Path, docs: list[SearchDoc], terms: list[Any] | None = None,
                ) -> SearchIndex:
    build_index(docs, folder, glossary=terms or [], rulesets=["2014-04", "current"])
    return SearchIndex(folder)


# ---------------------------------------------------------------------- analysis


def test_fold_width_case_kana_dots_and_counted_numerals() -> None:
    assert fold("ＰＩＣＫ ＵＰ") == "pick up"
    assert fold("リフレッシュ") == fold("りふれっしゅ") == fold("ﾘﾌﾚｯｼｭ")
    assert fold("ﾊﾞﾆｯｼｭ") == fold("バニッシュ")
    assert fold("ライフ・バースト") == fold("ライフバースト") == fold("ﾗｲﾌ･ﾊﾞｰｽﾄ")
    # the ordinal before a digit is left out as a space: the text keeps its length
    assert fold("第二次重构 两张 二回目 一つ") == " 2次重构 2张 2回目 1つ"
    assert fold("三重击溃") == "三重击溃"  # not a count
    assert fold("次第に") == "次第に"  # 第 before no digit stays


def test_a_dash_after_kana_is_the_prolonged_sound_mark() -> None:
    """A dash typed for ー (full-width, half-width or a long dash) reads as ー after kana, in
    the fold and in the script runs a query is cut into; before a digit it stays a minus."""
    assert fold("ライフバ－スト") == fold("ライフバ-スト") == fold("ﾗｲﾌﾊﾞ-ｽﾄ") \
        == fold("ライフバ—スト") == fold("ライフバースト")
    assert fold("パワー－3000") == "ぱわー-3000"
    assert fold("refresh-steps") == "refresh-steps"
    assert script_runs("シャド－") == [("kata", "シャドー")]
    text = "ﾗｲﾌﾊﾞ-ｽﾄ!"
    folded, starts, ends = normalize(text)
    assert folded == fold(text) and len(starts) == len(ends) == len(folded)


def test_an_ordinal_finds_the_japanese_count(tmp_path: Path) -> None:
    """第二回 (the second time) is written 2回目 in a Japanese ruling, 第2次 in a Chinese one."""
    docs = [SearchDoc("second", "second.toml", {"ja": "2回目のリフレッシュ"}),
            SearchDoc("other", "other.toml", {"ja": "次回のリフレッシュ"})]
    index = small_index(tmp_path / "idx", docs)
    assert ids(index, "第二回", lang="ja") == ["second"]


def test_a_count_spelt_in_kana_is_read_as_the_rulings_write_it(tmp_path: Path) -> None:
    """りふれっしゅ にかいめ, typed without kanji, finds the 2回目 of a ruling; the text keeps
    its length (spaces before the digit), so matches are still marked where they are."""
    assert fold("にかいめ いっかい さんまい ニカイメ") == " 2回目   1回   3枚  2回目"
    assert fold("かいめ にわ") == "かいめ にわ"  # no numeral, no counter: unchanged
    text = "リフレッシュにかいめ"
    assert len(normalize(text)[0]) == len(text)
    docs = [SearchDoc("second", "second.toml", {"ja": "2回目のリフレッシュ"}),
            SearchDoc("other", "other.toml", {"ja": "1回目のリフレッシュ"})]
    index = small_index(tmp_path / "idx", docs)
    assert ids(index, "にかいめ", lang="ja") == ["second"]


def test_one_is_not_stemmed_to_on() -> None:
    """Porter makes "one" "on" (a common word that was then found everywhere); "one" and
    "ones" keep a token of their own."""
    assert latin_token("one") == latin_token("ones") == "one"
    assert latin_token("on") == "on"
    assert query_tokens("one turn") == ["one", "turn"]


def test_index_tokens_pairs_and_run_end() -> None:
    assert index_tokens("重构后") == ["重构", "构后", "后" + RUN_END]
    assert index_tokens("The refreshes") == ["the", "refresh"]
    assert index_tokens("LRIGデッキ") == ["lrig", "でっ", "っき", "き" + RUN_END]


#: Texts that take every step of the analysis: widths, half-width kana and voiced marks,
#: dashes for the prolonged sound mark and a minus, counted numerals (CJK and kana), British
#: spellings, the stems of their own, other scripts, middle dots, iteration marks,
#: compatibility characters NFKC spells with spaces or several letters, odd spaces.
_TRICKY = ["ＰＩＣＫ ＵＰ", "ﾘﾌﾚｯｼｭ ﾊﾞﾆｯｼｭ ｶﾞ", "ライフバ－スト シャド- パワー－3000 ー-",
           "第二次 第2回 二回目 两张 一つ にかいめ いっかい さんまい 第", "ＬＲＩＧデッキ123",
           "Colors centered; the canceled refreshes, ones one randomized analyzes",
           "ΑΒΓ αβγ кошка café naïve ΣΑΣ", "ライフ・バースト ･ ・", "ヽヾゝゞ々〆〇 ヷヺ",
           "①②③ ㌔ ﬁ Ⅻ ¨ ﹏", "abc\u3000def\tghi\njkl\u00a0mno\x1cp\x85q\u2028r\u200bs",
           "重构后 構_ 攻* 1枚"]


def test_index_tokens_are_the_analyser_s() -> None:
    """index_tokens, which analyses each chunk in a loop of its own (and each ASCII chunk
    once), gives the tokens of the whoosh chain it stands for, on tricky texts and on
    random mixes of their characters; kana_fold is the table's translation."""
    import random

    from judge.search.analysis import _KANA_FOLD, ANALYZER, kana_fold

    alphabet = sorted(set("".join(_TRICKY)) | {" ", "-", "a", "ア"})
    rng = random.Random(29)
    # short texts and long ones (folded by regular expressions, not character by character)
    texts = _TRICKY + ["".join(rng.choices(alphabet, k=rng.randint(1, 30)))
                       for _ in range(3000)] + ["".join(rng.choices(alphabet, k=rng.randint(
                           60, 200))) for _ in range(500)] + [" ".join(_TRICKY) * 2]
    for text in texts + texts:  # the second time from the words analysed already
        assert index_tokens(text) == [t.text for t in ANALYZER(text, mode="index")], text
        assert kana_fold(text) == text.translate(_KANA_FOLD), text
    every = "".join(map(chr, range(0x3000, 0x3100))) + "ｦｰﾝ"
    assert kana_fold(every) == every.translate(_KANA_FOLD)


def test_query_tokens_spell_the_word() -> None:
    assert query_tokens("りふれっしゅ") == ["りふ", "ふれ", "れっ", "っし", "しゅ"]
    assert query_tokens("攻") == ["攻*"]  # the start of a token
    assert query_tokens("0枚") == ["0", "枚*"]
    assert query_tokens("refreshing") == ["refresh"]


def test_a_quoted_card_text_with_a_number_is_found(tmp_path: Path) -> None:
    """A run of a query text followed by another token ends there, as it does in the index
    (手札が3枚: 手札 札が が_ 3 ...): a card text quoted with a number in it finds the ruling
    that quotes it, which it never did while the query left the run's end out; at the end of
    the text the run may still go on (手札 finds 手札が)."""
    assert query_tokens("手札が3枚") == ["手札", "札が", "が" + RUN_END, "3", "枚*"]
    assert query_tokens("手札") == ["手札"]
    quoted = "「手札が3枚になるように捨てる」は何もしない"
    docs = [SearchDoc("quoted", "quoted.toml", {"ja": quoted}),
            SearchDoc("other", "other.toml", {"ja": "手札を3枚捨てる"})]
    index = small_index(tmp_path / "idx", docs)
    assert ids(index, "「手札が3枚になるように捨てる」", lang="ja") == ["quoted"]
    assert sorted(ids(index, "手札", lang="ja")) == ["other", "quoted"]


def test_offsets_survive_width_and_dots() -> None:
    text = "ﾊﾞﾆｯｼｭ!ライフ・バースト"
    folded, starts, ends = normalize(text)
    at = folded.index("ばに")
    assert text[starts[at]:ends[at + 1]] == "ﾊﾞﾆ"
    at = folded.index("ふば")
    assert text[starts[at]:ends[at + 1]] == "フ・バ"


@pytest.mark.parametrize("american, british_form", [
    ("color", "colour"), ("colorless", "colourless"), ("multicolored", "multicoloured"),
    ("center", "centre"), ("centered", "centred"), ("defense", "defence"),
    ("randomize", "randomise"), ("randomized", "randomised"), ("analyze", "analyse"),
    ("canceled", "cancelled"), ("leveling", "levelling"), ("gray", "grey"),
    ("size", "size"), ("prize", "prize"), ("refresh", "refresh"),
])
def test_american_spellings_become_british(american: str, british_form: str) -> None:
    assert british(american) == british_form
    assert latin_token(american) == latin_token(british_form)


def test_edit_distance_counts_swaps_as_one() -> None:
    assert edit_distance("refersh", "refresh", 2) == 1
    assert edit_distance("assasin", "assassin", 2) == 1
    assert edit_distance("banishd", "banished", 2) == 1
    assert edit_distance("refresh", "attack", 2) == 3  # over the limit: limit + 1


# ---------------------------------------------------------------------- the query language


@pytest.mark.parametrize("query, shown", [
    ("refresh trash", "(refresh trash)"),  # soft: ranked by how many match
    ("refresh AND trash", "(refresh AND trash)"),
    ("a OR b", "(a OR b)"),
    ("a -b", "(a NOT b)"),
    ("(a OR b) NOT c", "((a OR b) NOT c)"),
    ('"main deck" x', '("main deck" x)'),
    ("「リフレッシュ」", '"リフレッシュ"'),
    ("tag:refresh rules:2014-07 term:trash", "(tag:refresh rules:2014-07 term:trash)"),
    ("ｔａｇ：ｒｅｆｒｅｓｈ", "tag:refresh"),
    ('term:"rule processing"', "term:rule processing"),
    ("kind:term", "kind:term"),
    ("12:00", "12:00"),
])
def test_parse(query: str, shown: str) -> None:
    assert show(parse(query)) == shown


def test_implicit_and_is_soft_explicit_and_is_strict() -> None:
    soft = parse("refresh trash")
    strict = parse("refresh AND trash")
    assert isinstance(soft, And) and soft.soft
    assert isinstance(strict, And) and not strict.soft


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


def test_glossary_expansion_of_the_real_glossary(glossary: Glossary) -> None:
    assert expand(parse("重构"), glossary) == Expand("重构", "refresh")
    assert expand(parse("りふれっしゅ"), glossary) == Expand("りふれっしゅ", "refresh")
    assert expand(parse("ﾘﾌﾚｯｼｭ"), glossary) == Expand("リフレッシュ", "refresh")  # NFKC
    assert show(expand(parse("rule processing"), glossary)) == "rule processing→rule-processing"
    assert show(expand(parse("refreshes"), glossary)) == "refreshes→refresh"
    node = expand(parse("效果处理途中重构"), glossary)
    assert show(node) == "(效果→effect 处理途中 重构→refresh)"
    assert expand(parse("zzz"), glossary) == Text("zzz")
    # aliases, in every language: players' words, other games' words, the other spelling
    for alias, term in [("デッキ切れ", "refresh"), ("deck out", "refresh"),
                        ("重洗", "refresh"), ("mulligan", "redraw"), ("マリガン", "redraw"),
                        ("ダブクラ", "double-crush"), ("center LRIG", "centre-lrig"),
                        ("colorless", "colourless"), ("【ランサー】", "lancer"),
                        ("Sランサー", "s-lancer")]:
        node = expand(parse(alias), glossary)
        assert isinstance(node, Expand) and node.term == term, alias


@pytest.mark.parametrize("query, shown", [
    # a name holding a number is found inside a longer run, the numeral folded to a digit
    ("第二次重构回合会结束吗", "(第二次重构→second-refresh 回合会结束吗)"),
    ("2回目のリフレッシュでターン終了", "(2回目のリフレッシュ→second-refresh でターン終了)"),
    # the kana the fold makes spaces stay with the name, no piece of them is left over
    ("リフレッシュにかいめ", "リフレッシュにかいめ→second-refresh"),
    ("にかいめのリフレッシュで", "(にかいめのリフレッシュ→second-refresh で)"),
])
def test_a_glossary_name_with_a_number_is_found_in_a_run(
        glossary: Glossary, query: str, shown: str) -> None:
    assert show(expand(parse(query), glossary)) == shown


@pytest.mark.parametrize("query, shown", [
    # the hiragana that inflects a kanji verb holds no name (the えな of 使えない, 見えない)...
    ("使えないカード", "使えないカード"),
    ("見えない", "見えない"),
    # ...but the same kana after a particle, or typed in katakana, is the ener of the glossary
    ("赤のえなで払える", "(赤の えな→ener-zone で払える)"),
    ("エナが見えない", "(エナ→ener-zone が見えない)"),
])
def test_no_kana_name_inside_a_verb_ending(glossary: Glossary, query: str, shown: str) -> None:
    assert show(expand(parse(query), glossary)) == shown


def test_glossary_knows_the_language_of_each_form(glossary: Glossary) -> None:
    assert glossary.lang_of("デッキ切れ") == "ja"
    assert glossary.lang_of("deck out") == "en"
    assert glossary.lang_of("重洗") == "zh-Hans"
    assert glossary.lang_of("限定条件") == ""  # Japanese and Chinese write it alike
    again = Glossary.from_data(json.loads(json.dumps(glossary.data())))
    assert again.cjk == glossary.cjk and again.latin == glossary.latin
    assert again.terms["refresh"].main == "refresh-steps"


def test_every_main_ruling_exists_and_lists_its_term() -> None:
    from judge.corpus import load_corpus

    corpus = load_corpus(replay=False)
    mains = {t.id: t.main for t in corpus.glossary.values() if t.main}
    assert len(mains) >= 50
    for term_id, main in mains.items():
        assert term_id in corpus.ruling(main).scenario.terms, (term_id, main)
    for term in corpus.glossary.values():
        assert set(term.alias_by_lang) == {"ja", "en", "zh-Hans"}, term.id


@pytest.mark.parametrize("query, words", [
    ("what happens when my deck runs out", ["deck", "runs", "out"]),
    ("the of", []),
    ('"the trash"', ['"the trash"']),
    ("リフレッシュはいつ行いますか", ["リフレッシュ", "行"]),
    ("効果の途中でデッキが0枚になったらどうなりますか", ["効果", "途中", "デッキ", "0", "枚"]),
    ("じゃんけん", ["じゃんけん"]),
    ("牌组用完了怎么办", ["牌组用完"]),
    ("冻结的精灵能攻击吗", ["冻结", "精灵", "攻击"]),
    # a question word that asks for a player is looked for as the word player
    ("效果对象谁来选", ["效果", "对象", "选", "玩家"]),
    ("対象は誰が選ぶ", ["対象", "プレイヤー", "選"]),
    ("who chooses the targets", ["player", "chooses", "targets"]),
    ("what chooses the targets", ["chooses", "targets"]),
    # other negations of paying ask for the unpaid cost, in any language
    ("アンコールを支払わなかった", ["アンコール", "支払わなかった"]),
    ("召还费用没有支付", ["召还", "费用", "没有支付"]),
    ("what if I didn't pay", ["didn't pay"]),
    # a modal glued to its verb is no pair of a word (还能抽: 抽, not 还能 and 能抽)
    ("效果中途还能抽吗", ["效果", "中途", "抽"]),
    # a run of three Han characters or more that is no glossary name: its pairs
    ("猜拳赢了可以选后攻吗", ["猜拳", "拳赢", "选后", "后攻"]),
    ("乐曲怎么用", ["乐曲"]),  # how is it used: the term alone
    # what a contraction leaves at its apostrophe is no word (nor a typo to correct)
    ("doesn't a frozen SIGNI attack", ["frozen", "SIGNI attack"]),
    ("I'll refresh", ["refresh"]),
    # the passive stays with its verb (a phrase beside the word); negation asks for optional
    ("アタックされない応援シグニ", ["アタック", '"アタックされ"', "応援", "シグニ"]),
    ("攻撃されたシグニ", ["攻撃", '"攻撃され"', "シグニ"]),
    ("ｱﾀｯｸされる", ["アタック", '"アタックされ"']),
    ("アタックする", ["アタック"]),
    ("誘発した能力を使わない", ["誘発", "能力", "使わない"]),
    ("精灵会被驱逐吗", ["精灵", "被驱", "驱逐"]),  # 被 stays with its verb
    ("应援区精灵会被攻击吗", ["应援区", "精灵", "攻击"]),  # ... and alone is left out
])
def test_common_words_are_left_out(glossary: Glossary, query: str, words: list[str]) -> None:
    node = refine(expand(parse(query), glossary))
    nodes = [] if node is None else list(node.nodes) if isinstance(node, And) else [node]
    assert [show(n).split("→")[0] for n in nodes] == words


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
    ("deck out", MILL),  # an alias
])
def test_cross_language_expansion(index: SearchIndex, query: str, found: str) -> None:
    assert ids(index, query)[0] == found


def test_without_expansion_the_chinese_query_finds_nothing(index: SearchIndex) -> None:
    # the same characters as a plain (non-glossary) word: 构重 is no term
    assert ids(index, "构重") == []


@pytest.mark.parametrize("query, found", [
    ("ＰＩＣＫ ＵＰ", POWER),  # full-width; the text has 《PICK UP》
    ("pick up", POWER),
    ("ﾊﾟﾜｰ", POWER),  # half-width katakana
    ("パワ－", POWER),  # a full-width dash for the prolonged sound mark
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
    assert ids(index, "ステップ AND リフレッシュ") == []
    assert sorted(ids(index, "ステップ リフレッシュ")) == sorted([MILL, STEPS])  # soft
    assert ids(index, "refresh -mill") == []
    assert ids(index, "id:fx-power*") == [POWER]
    assert ids(index, "", tags=["refresh"]) == [MILL]
    assert ids(index, "phase", rules="2014-04") == []
    assert ids(index, "effect", term="mill") == [MILL]
    assert ids(index, "step", limit=1) == [STEPS]
    assert {h.kind for h in index.search("refresh", kind="term").hits} == {"term"}
    assert [h.id for h in index.search("kind:change rules:2014-09").hits] == ["change:2014-09"]


def test_bad_filter_values(index: SearchIndex) -> None:
    with pytest.raises(QueryError, match="unknown rule set '2099'"):
        index.search("rules:2099")
    with pytest.raises(QueryError, match="'nonsense' is not a glossary term"):
        index.search("term:nonsense")
    with pytest.raises(QueryError, match="unknown kind 'card'"):
        index.search("kind:card")
    with pytest.raises(QueryError, match="nothing to search for"):
        index.search("the of")
    with pytest.raises(QueryError, match="cannot stand alone"):
        index.search("refresh OR NOT mill")


def test_questions_rank_by_how_many_words_match(index: SearchIndex) -> None:
    # no ruling holds every word; the one holding most comes first, none is lost
    result = index.search("what happens when a mill empties the main deck during an attack",
                          kind="ruling")
    assert result.hits[0].id == MILL
    assert result.complete == 0 and result.total == 2  # fx-power-zero holds none
    assert result.words == 5  # mill, empties, main deck, during, attack
    assert index.search("効果でメインデッキが0枚になったらどうなりますか").hits[0].id == MILL
    assert ids(index, "攻击阶段有几个步骤")[0] == STEPS


def test_result_kinds_with_their_definitions(index: SearchIndex) -> None:
    hits = {h.id: h for h in index.search("重构", lang="en", limit=50).hits}
    term, kind = hits["term:refresh"], hits["processing:refresh"]
    assert (term.kind, term.title, term.rules) == ("term", "refresh", ())
    assert "**refresh**" in term.snippet and term.label == "main ruling refresh-steps"
    assert (kind.kind, kind.title, kind.label) == ("processing", "5. refresh", "kind 5")
    change = index.search("ルール変更 2014年9月", lang="ja").hits[0]
    assert (change.id, change.kind, change.rules) == ("change:2014-09", "change", ("2014-09",))
    assert change.title == "2014年9月1日のリフレッシュルール変更"
    assert "2回目のリフレッシュ" in change.text


def test_bare_term_puts_its_main_ruling_first_then_its_entry(tmp_path: Path) -> None:
    docs = [SearchDoc("a-refresh-everywhere", "a.toml", {"en": "refresh refresh refresh"},
                      {"en": "Refresh, refresh and refresh."}),
            SearchDoc("b-the-steps", "b.toml", {"en": "The steps"}, {"en": "You refresh."}),
            SearchDoc("term:refresh", "g.toml", {"en": "refresh"}, {"en": "refresh refresh"},
                      kind="term")]
    terms = [GlossaryTerm("refresh", {"ja": "リフレッシュ", "en": "refresh", "zh-Hans": "重构"},
                          main="b-the-steps")]
    with small_index(tmp_path / "ix", docs, terms) as ix:
        for query in ("refresh", "リフレッシュ", "重构", "what is a refresh"):
            assert [h.id for h in ix.search(query).hits][:2] == ["b-the-steps", "term:refresh"]
        # not for a query that says more
        assert ix.search("refresh steps").hits[0].id == "b-the-steps"
        assert ix.search("refresh everywhere").hits[0].id == "a-refresh-everywhere"


def test_the_main_ruling_of_a_term_named_beside_other_words_counts_a_little_more(
        tmp_path: Path) -> None:
    """Two rulings that hold the words alike: the main ruling of the term named comes first
    (without the factor the first row, a-..., would); one that holds the words better still
    comes before it."""
    text = {"en": "a refresh, twice in a turn"}
    docs = [SearchDoc("a-other", "a.toml", text), SearchDoc("b-main", "b.toml", text),
            SearchDoc("c-better", "c.toml", {"en": "twice a refresh twice"}),
            *[SearchDoc(f"d{i}", "d.toml", {"en": "grow"}) for i in range(8)]]
    terms = [GlossaryTerm("refresh", {"ja": "リフレッシュ", "en": "refresh", "zh-Hans": "重构"},
                          main="b-main")]
    with small_index(tmp_path / "ix", docs, terms) as ix:
        _node, plan, _fixes = ix.plan("refresh twice")
        assert plan.terms == ["refresh"]
        assert [h.id for h in ix.search("refresh twice").hits][:3] == \
            ["c-better", "b-main", "a-other"]
        for path in ("python", "sql"):  # both ways of ranking apply it
            top, _total, _complete = ix.collect(plan, 3, path)
            assert top[1][0] == pytest.approx(top[2][0] * 1.06)


def test_typos_are_corrected_and_said(index: SearchIndex) -> None:
    result = index.search("refersh")
    assert result.corrections == (("refersh", "refresh"),)
    assert result.did_you_mean == "refresh (for refersh)"
    assert ids(index, "refersh")[0] == MILL
    assert index.search("milling").corrections == ()  # a known word (stemmed)
    assert index.search("mil").corrections == ()  # under five letters: left alone
    assert index.search("empteis").corrections == (("empteis", "empties"),)


def test_a_wrong_but_similar_han_character_is_corrected_within_a_known_word(
        tmp_path: Path) -> None:
    """A pair of Han characters that no result holds is replaced by a pair of a glossary
    name or alias one character away that results hold (the one in most results), the
    character replaced being one that no result holds; a pair that results hold, that no
    known word is near, or whose other characters results hold, is left alone."""
    docs = [SearchDoc("frozen", "a.toml", {"zh-Hans": "被冻结的精灵仍然可以攻击"}),
            SearchDoc("cloth", "b.toml", {"zh-Hans": "击溃1张生命护甲"}),
            SearchDoc("lid", "c.toml", {"zh-Hans": "冻住了"}),
            SearchDoc("other", "d.toml", {"zh-Hans": "抽1张牌"}),
            SearchDoc("banish", "e.toml", {"zh-Hans": "被破坏时抽1张牌"})]
    terms = [GlossaryTerm("frozen", {"ja": "凍結", "en": "frozen", "zh-Hans": "冻结"}),
             GlossaryTerm("banish", {"ja": "バニッシュ", "en": "banish", "zh-Hans": "破坏"}),
             GlossaryTerm("life-cloth", {"ja": "ライフクロス", "en": "life cloth",
                                         "zh-Hans": "生命护甲"}),
             GlossaryTerm("lid", {"ja": "蓋", "en": "lid", "zh-Hans": "冻住"})]
    with small_index(tmp_path / "ix", docs, terms) as ix:
        result = ix.search("冻洁的精灵能攻击吗", lang="zh-Hans")
        # 冻结 (one result) and 冻住 (one result) are both one character away: the first
        # in code-point order among equals
        assert "冻住" < "冻结"
        assert result.corrections == (("冻洁", "冻住"),)
        result = ix.search("生命户甲", lang="zh-Hans")
        assert result.corrections == (("户甲", "护甲"),)
        assert result.hits[0].id == "cloth"
        # one slip in the two pairs of a run of three is corrected alike in both
        result = ix.search("破怀时", lang="zh-Hans")
        assert result.corrections == (("破怀", "破坏"), ("怀时", "坏时"))
        assert result.hits[0].id == "banish"
        assert ix.search("冻结", lang="zh-Hans").corrections == ()  # a known pair
        assert ix.search("抽牌", lang="zh-Hans").corrections == ()  # no known word near
        # 冻牌 is one character from 冻结, but results hold 牌: a word, not a slip
        assert ix.search("冻牌", lang="zh-Hans").corrections == ()


def test_a_katakana_slip_is_corrected_to_the_glossary_form(tmp_path: Path) -> None:
    """A katakana run that no result holds is replaced, before glossary names are looked
    for, by the closest glossary form in kana (one edit under eight characters); a run that
    results hold, or that is too short, is left alone."""
    docs = [SearchDoc("banish", "a.toml", {"ja": "バニッシュされたシグニ"}),
            SearchDoc("refresh", "b.toml", {"ja": "2回目のリフレッシュでターンが終わる"}),
            SearchDoc("other", "c.toml", {"ja": "カードを引く"})]
    terms = [GlossaryTerm("banish", {"ja": "バニッシュ", "en": "banish", "zh-Hans": "破坏"}),
             GlossaryTerm("second-refresh", {"ja": "2回目のリフレッシュ", "en": "second refresh",
                                             "zh-Hans": "第二次重构"}, main="refresh")]
    with small_index(tmp_path / "ix", docs, terms) as ix:
        result = ix.search("バニシュされた", lang="ja")
        assert result.corrections == (("バニシュされた", "バニッシュされた"),)
        # the passive stays with the corrected word as a phrase beside it
        assert result.query == '(バニッシュ→banish "バニッシュされ")'
        assert [h.id for h in result.hits] == ["banish"]
        assert ix.search("ばにっしゅ", lang="ja").corrections == ()  # a glossary form
        assert ix.search("カード", lang="ja").corrections == ()  # results hold it
        assert ix.search("バニ", lang="ja").corrections == ()  # under four characters


def test_a_homophone_slip_is_corrected_where_no_result_holds_it(tmp_path: Path) -> None:
    """A kanji of ``[typos] homophones`` typed for another of the same reading before its
    kana (会わない for 合わない) is replaced where no result holds the slip and results hold
    what is meant; a slip that results hold is a word and stays as typed."""
    docs = [SearchDoc("match", "a.toml", {"ja": "限定条件に合わないシグニはトラッシュに置かれる"}),
            SearchDoc("meet", "b.toml", {"ja": "相手と会う"}),
            SearchDoc("other", "c.toml", {"ja": "カードを引く"})]
    with small_index(tmp_path / "ix", docs) as ix:
        result = ix.search("限定条件に祓わない", lang="ja")
        assert result.corrections == ()  # 払わ: no result holds what is meant
        result = ix.search("条件が会わないシグニ", lang="ja")
        assert result.corrections == (("条件が会わないシグニ", "条件が合わないシグニ"),)
        assert result.hits[0].id == "match"
    docs[1] = SearchDoc("meet", "b.toml", {"ja": "相手と会わない"})
    with small_index(tmp_path / "ix2", docs) as ix:
        assert ix.search("条件が会わないシグニ", lang="ja").corrections == ()


def test_a_dash_between_katakana_words_joins_or_parts_them(tmp_path: Path) -> None:
    """A dash between two katakana runs is the prolonged sound mark where results hold the
    runs so joined (ライフバ-スト), else nothing where they hold the runs written together
    (ルリグ-デッキ), else a space; a dash typed after the last katakana stays the mark."""
    docs = [SearchDoc("burst", "a.toml", {"ja": "ライフバーストを使う"}),
            SearchDoc("deck", "b.toml", {"ja": "ルリグデッキは10枚"}),
            SearchDoc("game", "c.toml", {"ja": "ゲームのルール"})]
    with small_index(tmp_path / "ix", docs) as ix:
        assert ix.search("ライフバ-スト", lang="ja").corrections == ()
        result = ix.search("ルリグ-デッキ", lang="ja")
        assert result.corrections == (("ルリグ-デッキ", "ルリグデッキ"),)
        assert [h.id for h in result.hits] == ["deck"]
        result = ix.search("ゲーム-ルール", lang="ja")
        assert result.corrections == (("ゲーム-ルール", "ゲーム ルール"),)
        assert [h.id for h in result.hits] == ["game"]
        assert ix.search("ｹﾞｰﾑ-", lang="ja").corrections == ()


def test_a_glossary_name_typed_as_separate_words_is_found(tmp_path: Path) -> None:
    """Japanese or Chinese words typed apart that together spell a glossary name are that
    term (2回目の リフレッシュ is 2回目のリフレッシュ)."""
    docs = [SearchDoc("second", "a.toml", {"ja": "2回目のリフレッシュでターンが終わる"}),
            SearchDoc("first", "b.toml", {"ja": "1回目のリフレッシュ"})]
    terms = [GlossaryTerm("second-refresh", {"ja": "2回目のリフレッシュ", "en": "second refresh",
                                             "zh-Hans": "第二次重构"}, main="second")]
    glossary = Glossary(terms)
    assert show(expand(parse("2回目の リフレッシュ"), glossary)) == \
        "2回目の リフレッシュ→second-refresh"
    assert show(expand(parse("2回目の リフレッシュ 終わる"), glossary)) == \
        "(2回目の リフレッシュ→second-refresh 終わる)"
    assert show(expand(parse("リフレッシュ 終わる"), glossary)) == "(リフレッシュ 終わる)"
    with small_index(tmp_path / "ix", docs, terms) as ix:
        assert ix.search("2回目の リフレッシュ", lang="ja").hits[0].id == "second"


def test_spelling_variants_find_each_other(tmp_path: Path) -> None:
    docs = [SearchDoc("colourless", "a.toml", {"en": "Colourless ener in the centre LRIG"}),
            SearchDoc("other", "b.toml", {"en": "A coloured cost"})]
    with small_index(tmp_path / "ix", docs) as ix:
        assert [h.id for h in ix.search("colorless").hits] == ["colourless"]
        assert [h.id for h in ix.search("center").hits] == ["colourless"]
        assert [h.id for h in ix.search("colored").hits] == ["other"]
        assert ix.search("colorless").corrections == ()


def test_every_match_is_ranked(tmp_path: Path) -> None:
    # 2,500 matches, the best one last in index order: no cap leaves it out
    docs = [SearchDoc(f"d{i:05d}", "x.toml", {"en": "card"}, {"en": "card " + "word " * 30})
            for i in range(2500)]
    docs.append(SearchDoc("z-best", "x.toml", {"en": "card card card"}, {"en": "card"}))
    with small_index(tmp_path / "ix", docs) as ix:
        result = ix.search("card", limit=3)
        assert result.total == 2501
        assert result.hits[0].id == "z-best"


def test_pruned_ranking_equals_ranking_everything(tmp_path: Path) -> None:
    # collect() scores matches by BM25 a batch at a time and stops once nothing left can
    # reach the top: the top ten must be those of scoring every match
    import random

    rng = random.Random(7)
    words = ["attack", "banish", "crush", "draw", "ener", "grow", "guard", "level", "mill",
             "power", "trash", "burst"]
    docs = [SearchDoc(f"d{i:04d}", "x.toml", {"en": " ".join(rng.choices(words, k=3))},
                      {"en": " ".join(rng.choices(words, k=rng.randint(5, 60)))},
                      kind=rng.choice(["ruling", "ruling", "term"]))
            for i in range(1200)]
    with small_index(tmp_path / "ix", docs) as ix:
        for query in ("attack", "attack banish", "crush draw ener", "guard zebra",
                      "level power trash burst", "mill -draw", "grow OR guard"):
            _node, plan, _fixes = ix.plan(query)
            top, total, _complete = ix.collect(plan, 10)
            everything, _total, _c = ix.collect(plan, total)
            assert top == everything[:10], query


def test_results_titles_snippets_and_rule_sets(index: SearchIndex) -> None:
    result = index.search("リフレッシュ", lang="en", kind="ruling")
    hit = result.hits[0]
    assert (hit.id, hit.lang) == (MILL, "en")
    assert hit.title == "A mill empties the main deck"
    assert hit.text == "Mill what you can, then refresh: the trash becomes the new deck."
    assert "**refresh**" in hit.snippet
    assert [hit.text[s:e] for s, e in hit.marks] == ["refresh"]
    assert hit.rules == ("2014-04", "current")
    ja = index.search("refresh", lang="ja", kind="ruling").hits[0]
    assert ja.title == "ミルでメインデッキが0枚になる"
    assert "**リフレッシュ**" in ja.snippet
    # a ruling without the chosen language falls back to Japanese
    zh = index.search("バニッシュ", lang="zh-Hans", kind="ruling").hits[0]
    assert (zh.id, zh.lang, zh.title) == (POWER, "ja", "パワー0のシグニはバニッシュされる")
    # the language is guessed from the query when not given
    assert index.search("步骤").lang == "zh-Hans"
    assert index.search("ステップ").lang == "ja"
    assert index.search("steps").lang == "en"
    assert index.search("効果").lang == "ja"  # Han only, but a Japanese form
    assert index.search("重洗").lang == "zh-Hans"


def test_ranking_prefers_more_matches(index: SearchIndex) -> None:
    hits = index.search("attack OR refresh OR LRIG", lang="en", kind="ruling").hits
    assert hits[0].id == STEPS
    assert [h.score for h in hits] == sorted((h.score for h in hits), reverse=True)


def test_single_characters_and_negated_words_in_snippets(index: SearchIndex) -> None:
    hit = index.search("攻", lang="zh-Hans", kind="ruling").hits[0]
    assert hit.id == STEPS and "**攻**击" in hit.snippet
    hit = index.search("refresh NOT steps", lang="en", kind="ruling").hits[0]
    assert hit.id == MILL and "**refresh**" in hit.snippet and "**step" not in hit.snippet


def test_snippet_window_and_marks() -> None:
    text = "word " * 60 + "refresh here " + "word " * 60
    snippet = make_snippet(text, {"refresh"})
    assert snippet.text.startswith("…") and snippet.text.endswith("…")
    assert "**refresh**" in snippet.marked() and len(snippet.text) < 300
    assert [snippet.text[s:e] for s, e in snippet.marks] == ["refresh"]
    short = make_snippet("Mill, then refresh.", {"refresh", "mill"})
    assert short.marked() == "**Mill**, then **refresh**."
    # a phrase is marked where its words follow each other, not word by word
    phrase = make_snippet("The main deck, not the main phase.", {"main deck"})
    assert phrase.marked() == "The **main deck**, not the main phase."


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


def _age(root: Path, seconds: float) -> None:
    """Every input file of the corpus at ``root`` last modified ``seconds`` ago."""
    import os
    import time

    from judge.search.index import input_files

    then = time.time() - seconds
    for path in input_files(root):
        if path.is_relative_to(root):
            os.utime(path, (then, then))


def test_a_current_index_is_told_by_sizes_and_times_without_reading_the_corpus(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue #28/#29: the stamp holds each input file's size and time; when none changed a
    search reads none of them. A file touched but not changed is read once, and the index
    is kept; a change made within the clock's tick of the last check is still seen."""
    import judge.search.index as index_module

    root = tmp_path / "c"
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    _age(root, 3600)
    assert ensure_index(root) == "no index yet"
    hashed: list[Path] = []
    real = index_module.fingerprint
    monkeypatch.setattr(index_module, "fingerprint",
                        lambda r: hashed.append(r) or real(r))
    assert ensure_index(root) == "" and hashed == []  # nothing read
    ruling = root / "rulings" / "rules" / "fx-power-zero.toml"
    ruling.touch()  # touched, not changed
    assert ensure_index(root) == "" and hashed == [root]
    _age(root, 3600)
    assert ensure_index(root) == "" and hashed == [root, root]  # the new times recorded
    assert ensure_index(root) == "" and len(hashed) == 2
    # the same size, within the last check's tick: read again, and the change is seen
    text = ruling.read_text(encoding="utf-8")
    ruling.write_text(text.replace("関係ありません", "関係ありまセン"), encoding="utf-8")
    assert ensure_index(root) == "the corpus changed"


def _current_index(tmp_path: Path) -> Path:
    """A copy of the fixture corpus, an hour old, with its index built and found current."""
    root = tmp_path / "c"
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    _age(root, 3600)
    assert ensure_index(root) == "no index yet"
    assert ensure_index(root) == ""
    return root


def test_a_ruling_added_or_removed_is_seen_by_the_stamp(tmp_path: Path) -> None:
    """Issue #29: the stamp lists the input files, so a file added or removed (even with old
    times, as a copy or a checkout gives) rebuilds the index, and the next search finds the
    new ruling and no longer the removed one."""
    import os

    root = _current_index(tmp_path)
    power = root / "rulings" / "rules" / "fx-power-zero.toml"
    added = root / "rulings" / "rules" / "fx-power-copy.toml"
    added.write_text(power.read_text(encoding="utf-8").replace(
        f'id = "{POWER}"', 'id = "fx-power-copy"').replace(
        "関係ありません", "関係ありません。新しい言葉ゼブラ"), encoding="utf-8")
    then = power.stat().st_mtime
    os.utime(added, (then, then))
    assert ensure_index(root) == "the corpus changed"
    assert [h.id for h in search("ゼブラ", root=root).hits] == ["fx-power-copy"]
    assert ensure_index(root) == ""
    added.unlink()
    assert ensure_index(root) == "the corpus changed"
    assert search("ゼブラ", root=root).hits == ()


def test_edits_in_place_and_renames_are_seen_by_the_stamp(tmp_path: Path) -> None:
    """Issue #29: a file edited in place keeps its folder's time, so the stamp looks at every
    file: the same size with a new (but old enough) time is read and the change found; a
    ruling renamed with its times kept is seen too."""
    import os
    import time

    root = _current_index(tmp_path)
    ruling = root / "rulings" / "rules" / "fx-power-zero.toml"
    folder_time = ruling.parent.stat().st_mtime_ns
    text = ruling.read_text(encoding="utf-8")
    edited = text.replace("関係ありません", "関係ありまセン")
    assert len(edited.encode()) == len(text.encode())
    with ruling.open("r+", encoding="utf-8") as handle:  # in place, not a new file
        handle.write(edited)
    then = time.time() - 1800
    os.utime(ruling, (then, then))
    assert ruling.parent.stat().st_mtime_ns == folder_time
    assert ensure_index(root) == "the corpus changed"
    assert ensure_index(root) == ""
    ruling.rename(ruling.with_name("fx-power-renamed.toml"))
    assert ensure_index(root) == "the corpus changed"
    assert ensure_index(root) == ""


def test_a_copied_index_is_hashed_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An index file whose time changed but not its bytes (copied, touched) is hashed by the
    next search, which records its new time; the search after that hashes nothing."""
    import judge.search.index as index_module

    root = tmp_path / "c"
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    _age(root, 3600)
    ensure_index(root)
    (root / "build" / "search" / "index.sqlite").touch()
    hashed: list[Path] = []
    real = index_module._file_hashes
    monkeypatch.setattr(index_module, "_file_hashes",
                        lambda f: hashed.append(f) or real(f))
    assert ensure_index(root) == "" and len(hashed) == 1
    assert ensure_index(root) == "" and len(hashed) == 1


def test_corrupt_index_is_detected_and_rebuilt(tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    folder = root / "build" / "search"
    ensure_index(root)
    (folder / "index.sqlite").write_bytes(b"garbage" * 10)
    assert stamp_problem(folder, json.loads((folder / "stamp.json").read_text())["corpus"]) \
        == "the index files are damaged"
    result = search("リフレッシュ", root=root, kind="ruling")
    assert result.rebuilt == "the index files are damaged"
    assert [h.id for h in result.hits] == [MILL]


def test_damage_the_stamp_misses_is_rebuilt_on_reading(tmp_path: Path) -> None:
    root = tmp_path / "c"
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    folder = root / "build" / "search"
    ensure_index(root)
    stamp = json.loads((folder / "stamp.json").read_text())
    (folder / "index.sqlite").write_bytes(b"not a database" * 100)
    # forge the stamp so that it matches the damaged file
    from judge.search.index import _file_hashes, _file_stats

    stamp["files"], stamp["stat"] = _file_hashes(folder), _file_stats(folder)
    (folder / "stamp.json").write_text(json.dumps(stamp))
    result = search("リフレッシュ", root=root, kind="ruling")
    assert [h.id for h in result.hits] == [MILL]
    assert result.rebuilt == "the index was unreadable"


def test_interrupted_build_keeps_the_old_index(tmp_path: Path) -> None:
    folder = tmp_path / "ix"
    build_index([SearchDoc("a", "a.toml", {"ja": "リフレッシュ"}, {})], folder, glossary=[],
                rulesets=[])

    def docs() -> Iterator[SearchDoc]:
        yield SearchDoc("b", "b.toml", {"ja": "ステップ"}, {})
        raise RuntimeError("interrupted")

    with pytest.raises(RuntimeError):
        build_index(docs(), folder, glossary=[], rulesets=[])
    with SearchIndex(folder) as ix:
        assert [h.id for h in ix.search("リフレッシュ").hits] == ["a"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ix"]


# ---------------------------------------------------------------------- the output


HOSTILE = "A\x00B\x1b[31mC\u202eD\u2066E\u2069F\u200bG\x7fH\x9bI\u2028J"


def test_hostile_characters_are_never_printed_raw(tmp_path: Path) -> None:
    docs = [SearchDoc("evil\u202eid", "e.toml", {"en": f"zebra {HOSTILE}"},
                      {"en": f"zebra answer {HOSTILE}"}, rules=("current\x1b[2J",))]
    with small_index(tmp_path / "ix", docs) as ix:
        result = ix.search("zebra")
        lines = list(iter_lines(result)) + list(iter_lines(result, color=True))
        lines += list(iter_lines(ix.search(f"nothing{HOSTILE}")))
        text = "\n".join(lines)
        for char in "\x00\x1b\u202e\u2066\u2069\u200b\x7f\x9b\u2028":
            if char == "\x1b":  # only this module's own bold sequences
                assert text.replace("\x1b[1m", "").replace("\x1b[22m", "").count(char) == 0
            else:
                assert char not in text, repr(char)
        assert "\\x00" in text and "\\x1b[31m" in text and "\\u202e" in text
        assert "evil\\u202eid" in text
        out = dumps(result)
        assert out.isascii() or not any(c in out for c in "\x00\x1b\u202e\u2066\x7f\x9b")
        assert json.loads(out)["results"][0]["title"] == f"zebra {HOSTILE}"  # same text


def test_sanitize() -> None:
    assert sanitize("plain text, 日本語") == "plain text, 日本語"
    assert sanitize("a\tb\nc") == "a\\x09b\\x0ac"
    assert sanitize("\U000f0000") == "\\U000f0000"  # private use


def test_bold_only_for_a_terminal(index: SearchIndex) -> None:
    result = index.search("refresh", lang="en", kind="ruling")
    plain, bold = list(iter_lines(result)), list(iter_lines(result, color=True))
    assert any("**refresh**" in line for line in plain)
    assert not any("\x1b" in line for line in plain)
    assert any("\x1b[1mrefresh\x1b[22m" in line for line in bold)


# ---------------------------------------------------------------------- the command


def test_cli_search_text_and_json(corpus_root: Path, index: SearchIndex) -> None:
    runner = CliRunner()
    done = runner.invoke(cli, ["search", "重构", "--corpus", str(corpus_root), "--lang", "en",
                               "--kind", "ruling"])
    assert done.exit_code == 0, done.output
    lines = done.output.splitlines()
    assert lines[0] == f"1. {MILL}  [2014-04, current]"
    assert lines[1].strip() == "A mill empties the main deck"
    assert lines[2].strip() == "Mill what you can, then **refresh**: the trash becomes the " \
        "new deck."
    assert lines[-1] == "1 result matches"
    done = runner.invoke(cli, ["search", "重构", "--corpus", str(corpus_root)])
    assert "term:refresh  (glossary, main ruling refresh-steps)" in done.output
    assert "processing:refresh  (rule processing, kind 5)" in done.output
    done = runner.invoke(cli, ["search", "tag:refresh", "--corpus", str(corpus_root), "--json"])
    data = json.loads(done.output)
    assert data["total"] == 1
    assert set(data["results"][0]) == {"id", "kind", "title", "snippet", "text", "marks",
                                       "rules", "tags", "label", "path", "score", "lang"}
    done = runner.invoke(cli, ["search", "zebra", "--corpus", str(corpus_root)])
    assert done.output.strip() == "no result matches zebra"
    done = runner.invoke(cli, ["search", "refersh", "--corpus", str(corpus_root)])
    assert done.output.splitlines()[0] == "did you mean: refresh (for refersh)"
    done = runner.invoke(cli, ["search", "mill refresh zebra", "--corpus", str(corpus_root),
                               "--kind", "ruling"])
    assert done.output.splitlines()[-1] == "1 result matches, 0 with every word"


def test_cli_bad_query_is_one_line(corpus_root: Path, index: SearchIndex) -> None:
    done = subprocess.run(
        [sys.executable, "-c", "from judge.cli import main; main()", "search", "(refresh",
         "--corpus", str(corpus_root)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr == "Error: a '(' is never closed\n"
    assert "Traceback" not in done.stderr + done.stdout


def test_a_search_imports_neither_the_engine_nor_the_site(corpus_root: Path,
                                                           index: SearchIndex) -> None:
    code = ("import sys; from pathlib import Path; from judge.search import search; "
            f"search('refresh', root=Path({str(corpus_root)!r})); "
            "heavy = ('judge.engine', 'judge.corpus', 'judge.scenario', 'judge.site', "
            "'judge.narrate', 'jinja2', 'babel', 'whoosh.index', 'whoosh.searching'); "
            "print(sorted(m for m in sys.modules if m.startswith(heavy)))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_judge_search_imports_none_of_the_other_commands_modules(corpus_root: Path,
                                                                  index: SearchIndex) -> None:
    """judge/cli.py imports each command's modules when the command runs: a search in a
    fresh process pays for none of the checker, the scenario loader, the rules engine, the
    skeleton writer or the site (docs/search.md, "Benchmark")."""
    code = ("import sys; from judge.cli import main; "
            f"sys.argv = ['judge', 'search', 'refresh', '--corpus', {str(corpus_root)!r}]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\n"
            "heavy = ('judge.check', 'judge.scenario', 'judge.engine', 'judge.skeleton', "
            "'judge.corpus', 'judge.site', 'judge.narrate', 'judge.db', 'judge.coverage', "
            "'jinja2', 'babel', 'markdown', 'nh3')\n"
            "print(sorted(m for m in sys.modules if m.startswith(heavy)), file=sys.stderr)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr
    assert "results match" in done.stdout, done.stdout
    assert done.stderr.strip() == "[]"


def test_neighbouring_cjk_words_count_as_close_across_more_tokens(tmp_path: Path) -> None:
    """A CJK token is one character, an English one a word: two Chinese words with a few
    characters between them are close (near_cjk), as two English words with a few words."""
    # "close" is the longer text: without the nearness, BM25 would put "apart" first
    docs = [SearchDoc("close", "close.toml", {"zh-Hans": "冻结状态但竖置的精灵" + "可以攻击" * 4}),
            SearchDoc("apart", "apart.toml", {"zh-Hans": "冻结" + "了" * 14 + "精灵"})]
    docs += [SearchDoc(f"other{i}", "other.toml", {"zh-Hans": "重构"}) for i in range(8)]
    with small_index(tmp_path / "ix", docs) as ix:
        _node, plan, _fixes = ix.plan("冻结的精灵")
        assert [n.distance for n in plan.nears()] == [12]
        assert ids(ix, "冻结的精灵")[0] == "close"
        _node, plan, _fixes = ix.plan("hand limit")
        assert [n.distance for n in plan.nears()] == [3]


def test_definition_json_is_the_toml() -> None:
    """A fresh search reads definition.json, not the TOML (no tomllib at start): it must hold
    the TOML's values and digest, else the search would parse the TOML again (slower)."""
    import tomllib

    from judge.search import definition as module

    source = module.PATH.read_bytes()
    written = module.DERIVED.read_text(encoding="utf-8")
    assert written == module.derived_text(source), \
        "judge/search/definition.json is stale: run python -m judge.search.definition"
    assert json.loads(written)["definition"] == tomllib.loads(source.decode("utf-8"))
    module.definition.cache_clear()
    try:  # the same keys in the same order and the same types (the site's meta.json holds them)
        assert json.dumps(module.definition()) == json.dumps(tomllib.loads(source.decode()))
    finally:
        module.definition.cache_clear()


def test_a_stale_definition_json_is_ignored(tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """A JSON written from another TOML is not used: the TOML's values are."""
    import tomllib

    from judge.search import definition as module

    stale = tmp_path / "definition.json"
    stale.write_text(json.dumps({"sha256": "0" * 64, "definition": {"ranking": {}}}))
    monkeypatch.setattr(module, "DERIVED", stale)
    module.definition.cache_clear()
    try:
        assert module.definition() == tomllib.loads(module.PATH.read_text(encoding="utf-8"))
    finally:
        module.definition.cache_clear()


def test_a_search_does_not_import_tomllib(tmp_path: Path) -> None:
    """Importing the search reads the definition without tomllib (its patterns cost ~30 ms)."""
    code = ("import sys; import judge.search.engine, judge.search.index; "
            "print('tomllib' in sys.modules, 'tomli' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True, cwd=tmp_path)
    assert done.stdout.split() == ["False", "False"]


def test_cjk_characters_are_the_token_pattern_s() -> None:
    """is_cjk's table of ranges says of every character what the tokenizer's class says,
    and what the class written out by hand before the table said."""
    import re

    from judge.search.analysis import TOKEN_PATTERN, cjk_char, is_cjk

    by_hand = re.compile("[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
                         "\u3005\u3006\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
                         "\uff66-\uff9f]")
    for code in [*range(0x10000), 0x20000, 0x2A6DF, 0x10FFFF]:
        char = chr(code)
        expected = by_hand.fullmatch(char) is not None
        assert cjk_char(char) is expected, hex(code)
        assert is_cjk(f"ab{char}1") is expected, hex(code)
        run = TOKEN_PATTERN.fullmatch(char)
        if expected:
            assert run is not None, hex(code)
    assert not is_cjk("") and is_cjk("refresh 重构") and not is_cjk("réfresh")
