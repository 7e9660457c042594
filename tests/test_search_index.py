"""The Pagefind search index of the site, without a browser (tests/test_browser.py searches).

Built from the three-ruling fixture corpus: one bundle per language with its UI, every ruling
page indexed, nothing else; ``judge build --no-search`` leaves it out; an indexing that fails
leaves the previous site as it was; the index-only pieces of the terms' names; the index is
the same, byte for byte, for the same site (filters put in one order, judge/site/pagefind_order).
"""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from judge.cli import cli
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
from judge.site.searchindex import BUNDLE, SearchIndexError, index_site, index_text, name_pieces

FIXTURE = project_root() / "tests" / "fixtures" / "site_corpus"
#: The search filters' names in each language (rule set, tag, term), as the pages give them.
FILTER_NAMES = {"ja": ("ルールセット", "タグ", "用語"), "en": ("Rule set", "Tag", "Term"),
                "zh-Hans": ("规则版本", "标签", "术语")}
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


def test_one_bundle_per_language_with_its_ui(indexed_site: Path) -> None:
    for lang in LANGS:
        bundle = indexed_site / lang / BUNDLE
        for name in ("pagefind.js", "pagefind-ui.js", "pagefind-ui.css", "pagefind-entry.json"):
            assert (bundle / name).is_file(), f"{lang}: no {name}"
        entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
        assert sum(index["page_count"] for index in entry["languages"].values()) == RULINGS
        # Pagefind names the index after the language of <html lang>
        assert list(entry["languages"]) == [lang.lower()]
        assert any((bundle / "filter").iterdir()), "no filters (tag, ruleset, term)"
    assert not (indexed_site / BUNDLE).exists(), "a bundle outside the language trees"


def test_search_page_loads_the_bundle_of_its_language(indexed_site: Path) -> None:
    for lang in LANGS:
        page = (indexed_site / lang / "search" / "index.html").read_text(encoding="utf-8")
        assert 'data-bundle="../pagefind/"' in page
        assert '<script src="../../assets/search.js" defer></script>' in page
        assert "data-missing=" in page
    script = (indexed_site / "assets" / "search.js").read_text(encoding="utf-8")
    assert "pagefind-ui.js" in script and "triggerSearch" in script
    assert "http" not in script.replace("window.location.href", ""), "no address outside"


def test_name_pieces_and_index_text() -> None:
    assert name_pieces("重构") == ["构"]
    assert name_pieces("主牌组") == ["牌组", "组"]
    assert name_pieces("リフレッシュ") == []  # kana: the indexer and the browser agree
    assert name_pieces("ルール処理") == ["理"]
    page = ('<main data-pagefind-body><p>重构 <a href="t">#重构</a></p><ul class="terms"><li>'
            '<a href="x" data-pagefind-filter="用语:重构">'
            '<span lang="ja">リフレッシュ</span> · <span lang="en">refresh</span> · '
            '<span lang="zh-Hans">重构</span></a></li></ul></main>')
    indexed = index_text(page)
    # only the list of glossary terms gets the pieces
    assert indexed.replace('<span data-pagefind-weight="2"> 构</span>', "") == page
    assert indexed.count("data-pagefind-weight") == 1
    plain = '<main data-pagefind-body><ul class="terms"><li><a href="x">x</a></li></ul></main>'
    assert index_text(plain) == plain


def test_pieces_are_only_in_the_index(indexed_site: Path) -> None:
    page = (indexed_site / "zh-Hans" / "rulings" / "fixture-mill-refresh" / "index.html")
    assert "data-pagefind-weight" not in page.read_text(encoding="utf-8")


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
    assert all((out / lang / BUNDLE / "pagefind-ui.js").is_file() for lang in LANGS)


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
