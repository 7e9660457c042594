"""The Pagefind search index of the site, without a browser (tests/test_browser.py searches).

Built from the three-ruling fixture corpus: one bundle per language with Pagefind's library
(its ready-made interfaces left out) and the glossary's names for the suggestions, every
ruling page indexed and each glossary term, kind of rule processing and rule set as a result
of its own; ``judge build --no-search`` leaves it out; an indexing that fails leaves the
previous site as it was; what the index copies add (folded forms, the pieces of the terms'
names, their aliases, the names a page is the first answer for); the index is the same, byte
for byte, for the same site (filters put in one order, judge/site/pagefind_order).
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from judge.cli import cli
from judge.corpus import load_glossary
from judge.i18n import LANGS
from judge.paths import project_root
from judge.site.build import build_site
from judge.site.pagefind_order import (
    FILTER_HASH_DIGITS,
    META_HASH_DIGITS,
    BundleFormatError,
    Item,
    canonicalise,
    content_name,
    decode,
    encode,
    read_index_file,
)
from judge.site.searchindex import (
    BUNDLE,
    CHUNK_VARIABLE,
    RESULT_PAGES,
    TERMS_FILE,
    UNUSED,
    SearchIndexError,
    fold,
    folded_forms,
    index_site,
    index_text,
    name_pieces,
    result_records,
)

FIXTURE = project_root() / "tests" / "fixtures" / "site_corpus"
#: The search filters' names in each language (rule set, tag, term), as the pages give them.
FILTER_NAMES = {"ja": ("ルールセット", "タグ", "用語", "出典"),
                "en": ("Rule set", "Tag", "Term", "Sources"),
                "zh-Hans": ("规则版本", "标签", "术语", "出处")}
RULINGS = 3  # in the fixture corpus


def digest(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


PROGRESS: list[tuple[str, int, int]] = []


@pytest.fixture(scope="module")
def indexed_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("search") / "site"
    build_site(out, root=FIXTURE,
               finish=lambda folder: index_site(folder, lambda *tick: PROGRESS.append(tick)))
    return out


def test_indexing_reports_its_progress(indexed_site: Path) -> None:
    assert PROGRESS == [("search index", n, len(LANGS)) for n in range(1, len(LANGS) + 1)]


def results_of(site: Path, lang: str) -> int:
    """The glossary terms, kinds of rule processing and rule sets: results of their own."""
    return sum((site / lang / name / "index.html").read_text(encoding="utf-8")
               .count("data-result=") for name in RESULT_PAGES)


def test_one_bundle_per_language_with_its_library(indexed_site: Path) -> None:
    for lang in LANGS:
        bundle = indexed_site / lang / BUNDLE
        for name in ("pagefind.js", "pagefind-entry.json", TERMS_FILE):
            assert (bundle / name).is_file(), f"{lang}: no {name}"
        assert list(bundle.glob("wasm.*.pagefind")), "no WebAssembly"
        for name in UNUSED:  # the site draws its own results
            assert not (bundle / name).exists(), f"{lang}: {name} left in the bundle"
        entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
        results = results_of(indexed_site, lang)
        assert results > 80  # the glossary alone has more terms
        assert sum(index["page_count"] for index in entry["languages"].values()) == \
            RULINGS + results
        # Pagefind names the index after the language of <html lang>
        assert list(entry["languages"]) == [lang.lower()]
        assert any((bundle / "filter").iterdir()), "no filters (tag, ruleset, term)"
        # small chunks of the word index: a first search fetches one of them
        assert max(p.stat().st_size for p in (bundle / "index").iterdir()) < 40_000
    assert not (indexed_site / BUNDLE).exists(), "a bundle outside the language trees"
    assert CHUNK_VARIABLE not in os.environ, "the chunk size was left in the environment"


def test_terms_file_holds_every_name_and_alias(indexed_site: Path) -> None:
    glossary = load_glossary()
    for lang in LANGS:
        names = json.loads((indexed_site / lang / BUNDLE / TERMS_FILE)
                           .read_text(encoding="utf-8"))
        assert names == sorted(names)
        for term in glossary.values():
            assert set(term.names.values()) | set(term.aliases) <= set(names), term.id


def test_search_page_loads_the_bundle_of_its_language(indexed_site: Path) -> None:
    for lang in LANGS:
        page = (indexed_site / lang / "search" / "index.html").read_text(encoding="utf-8")
        assert 'data-bundle="../pagefind/"' in page
        assert '<script src="../../assets/search.js" defer></script>' in page
        assert "data-missing=" in page
    script = (indexed_site / "assets" / "search.js").read_text(encoding="utf-8")
    assert 'import(new URL("pagefind.js", bundle).href)' in script
    assert "noWorker: true" in script and TERMS_FILE in script
    assert "http" not in script.replace("window.location.href", ""), "no address outside"


def test_name_pieces_and_folded_forms() -> None:
    assert name_pieces("重构") == ["构"]
    assert name_pieces("主牌组") == ["牌组", "组"]
    assert name_pieces("リフレッシュ") == []  # kana: the indexer and the browser agree
    assert name_pieces("ルール処理") == ["理"]
    assert fold("ＰＩＣＫ ＵＰ") == "pick up" and fold("りふれっしゅ") == "リフレッシュ"
    assert fold("ﾊﾞﾆｯｼｭ") == "バニッシュ"
    # width everywhere; kana only in names (in a sentence it is a word's ending)
    assert folded_forms("《ＰＩＣＫ ＵＰ》を使う") == ["pick", "up"]
    assert folded_forms("ﾊﾞﾆｯｼｭ") == ["バニッシュ"]
    assert folded_forms("てふだ") == [] and folded_forms("てふだ", names=True) == ["テフダ"]
    assert folded_forms("によれば", names=False) == []
    assert folded_forms("refresh リフレッシュ", names=True) == []


PAGE = ('<html lang="zh-Hans"><body><main data-pagefind-body>'
        '<h1 data-pagefind-meta="title" data-pagefind-weight="8">《ＰＩＣＫ ＵＰ》</h1>'
        '<p>重构 <a href="t">#重构</a></p>'
        '<p class="explains" data-pagefind-weight="10">explains: '
        '<span data-pagefind-meta="explains"><a href="g/#t-refresh" class="names">重构</a> '
        '<span class="names"><span lang="ja">リフレッシュ</span> · '
        '<span lang="en">refresh</span></span></span></p>'
        '<ul class="terms"><li><a href="g/#t-refresh" data-pagefind-filter="用语:重构">'
        '<span lang="ja">リフレッシュ</span> · <span lang="en">refresh</span> · '
        '<span lang="zh-Hans">重构</span></a></li></ul>'
        '<section data-pagefind-ignore><p>ＰＩＣＫ 重构</p></section></main></body></html>')
FORMS = {"refresh": ["リフレッシュ", "refresh", "重构", "deck out", "てふだ"]}


def test_index_text_adds_pieces_folded_forms_and_aliases() -> None:
    indexed = index_text(PAGE, FORMS)
    # the title's folded form goes after it, the shown metadata unchanged
    assert '《ＰＩＣＫ ＵＰ》</h1><span data-pagefind-weight="8"> pick up</span>' in indexed
    # in the list of terms: the pieces, weighted, then the aliases
    assert ('<span lang="zh-Hans">重构<span data-pagefind-weight="2"> 构</span></span></a>'
            '<span data-pagefind-weight="1"> deck out · てふだ · テフダ</span></li>') in indexed
    # in the terms the ruling explains (metadata that is not shown): plain text, at its end
    explains = indexed.split('data-pagefind-meta="explains">')[1].split("</p>")[0]
    assert "data-pagefind-weight" not in explains
    assert '<a href="g/#t-refresh" class="names">重构 构</a>' in explains
    assert explains.endswith(" · deck out · てふだ · テフダ</span>")
    # the names it is the first answer for, folded
    assert ('<div data-pagefind-ignore data-pagefind-meta="exact">'
            'リフレッシュ|refresh|重构|deck out|テフダ</div>\n</main>') in indexed
    # ignored text and ordinary text get nothing; without additions, nothing changes
    assert "<p>ＰＩＣＫ 重构</p></section>" in indexed and "<p>重构 <a" in indexed
    plain = '<main data-pagefind-body><ul class="terms"><li><a href="x">x</a></li></ul></main>'
    assert index_text(plain) == plain


def test_result_records_are_the_sections_of_the_result_pages(indexed_site: Path) -> None:
    for lang in LANGS:
        for name in RESULT_PAGES:
            page = (indexed_site / lang / name / "index.html").read_text(encoding="utf-8")
            records = result_records(page, lang, f"{name}/")
            assert len(records) == page.count("data-result=") > 0
            for record in records:
                kind, _, ident = record.key.partition(":")
                anchor = {"term": "t-", "processing": "kind-", "change": "rs-"}[kind] + ident
                assert record.path == f"{name}/{anchor}/index.html"
                assert record.url == f"/{name}/{anchor}/"
                assert f'<html lang="{lang}">' in record.html
                assert "<main data-pagefind-body>" in record.html
                assert record.html.count("<section") == 1
                assert 'data-pagefind-meta="title"' in record.html
    with pytest.raises(SearchIndexError):
        result_records('<section data-result="term:x"><p>no end', "en", "glossary/")


def test_pieces_are_only_in_the_index(indexed_site: Path) -> None:
    page = (indexed_site / "zh-Hans" / "rulings" / "fixture-mill-refresh" / "index.html")
    text = page.read_text(encoding="utf-8")
    assert "重构" in text and '<span data-pagefind-weight="2"> 构</span>' not in text
    assert 'data-pagefind-meta="exact"' not in text


@pytest.mark.parametrize("binary", ["no-such-pagefind", "/bin/false"])
def test_failed_indexing_keeps_the_previous_site(tmp_path: Path, binary: str,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A Pagefind that cannot start, or stops at once, fails the build quickly."""
    out = tmp_path / "site"
    build_site(out, root=FIXTURE)
    before = digest(out)
    monkeypatch.setenv("PAGEFIND_BINARY_PATH", str(tmp_path / binary))
    with pytest.raises(SearchIndexError):
        build_site(out, root=FIXTURE, finish=index_site)
    assert digest(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]


def test_cli_builds_the_index_unless_no_search(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "site"
    result = runner.invoke(cli, ["build", "--corpus", str(FIXTURE), "--out", str(out),
                                 "--no-search"])
    assert result.exit_code == 0, result.output
    assert not any((out / lang / BUNDLE).exists() for lang in LANGS)
    result = runner.invoke(cli, ["build", "--corpus", str(FIXTURE), "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert "search index: ja 3, en 3, zh-Hans 3 pages" in result.output
    assert all((out / lang / BUNDLE / "pagefind.js").is_file() for lang in LANGS)


# ------------------------------------------------------------------ one order for the index

def test_the_same_site_gives_the_same_index(indexed_site: Path, tmp_path: Path) -> None:
    """Pagefind alone writes its filter and metadata files in a new order each run; the
    build puts them in one order, so the whole site, index included, is byte-identical."""
    again = tmp_path / "site"
    build_site(again, root=FIXTURE, finish=index_site)
    assert digest(again) == digest(indexed_site)


def test_filters_are_sorted_and_named_after_their_content(indexed_site: Path) -> None:
    for lang in LANGS:
        bundle = indexed_site / lang / BUNDLE
        entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
        (language,) = entry["languages"].values()
        meta_path = bundle / f"pagefind.{language['hash']}.pf_meta"
        meta = read_index_file(meta_path)
        assert isinstance(meta, list)
        assert language["hash"] == content_name(lang.lower(), meta_path.read_bytes(),
                                                META_HASH_DIGITS)
        names = [pair[0] for pair in meta[3]]
        assert names == sorted(names) and set(names) == set(FILTER_NAMES[lang]), names
        listed = set()
        for name, file_hash in meta[3]:
            path = bundle / "filter" / f"{file_hash}.pf_filter"
            listed.add(path.name)
            assert file_hash == content_name(lang.lower(), path.read_bytes(),
                                             FILTER_HASH_DIGITS)
            content = read_index_file(path)
            assert isinstance(content, list) and content[0] == name
            values = [value[0] for value in content[1]]
            assert values == sorted(values) and values
        assert listed == {p.name for p in (bundle / "filter").iterdir()}, "a stray filter"


cbor_items = st.recursive(st.integers(0, 2**64 - 1) | st.text(),
                          lambda inner: st.lists(inner, max_size=5), max_leaves=30)


@given(cbor_items)
def test_cbor_round_trip(item: Item) -> None:
    assert decode(encode(item)) == item


def test_cbor_known_bytes() -> None:
    # RFC 8949 appendix A
    assert encode(0) == b"\x00" and encode(23) == b"\x17" and encode(24) == b"\x18\x18"
    assert encode(1000) == b"\x19\x03\xe8" and encode(1000000) == b"\x1a\x00\x0f\x42\x40"
    assert encode("IETF") == b"\x64IETF" and encode([1, [2, 3]]) == b"\x82\x01\x82\x02\x03"


@pytest.mark.parametrize("data", [b"\x20", b"\xa1\x01\x02", b"\x9f\xff", b"\x82\x01",
                                  b"\x01\x02", b"\x63ab"])
def test_cbor_outside_the_subset_is_refused(data: bytes) -> None:
    with pytest.raises(ValueError):
        decode(data)


def test_an_unknown_bundle_format_stops_the_build_with_the_file(tmp_path: Path) -> None:
    out = tmp_path / "site"
    build_site(out, root=FIXTURE, finish=index_site)
    before = digest(out)
    bundle = out / "en" / BUNDLE
    target = next((bundle / "filter").iterdir())
    target.write_bytes(gzip.compress(b"pagefind_dcd\xa0"))  # a map: not Pagefind 1.5's
    with pytest.raises(BundleFormatError, match=target.name):
        canonicalise(bundle)
    target.write_bytes(b"not gzip")
    with pytest.raises(BundleFormatError, match="not a Pagefind index file"):
        canonicalise(bundle)
    assert {k for k, v in digest(out).items() if before.get(k) != v} == {
        target.relative_to(out).as_posix()}, "a refused bundle is left as it was"
