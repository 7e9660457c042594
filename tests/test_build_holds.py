"""What ``judge build`` holds of each ruling between its phases (judge.site.load.load_streamed):
a summary (texts, tags, citations, results, what its replays went through) and the scenario
pickled as the corpus check read it, never the ruling's parsed scenario nor its traces; a page
that needs the scenario unpickles it, and a file changed since the load phase stops the build
rather than mixing two versions of a ruling."""

from __future__ import annotations

import gc
import shutil
import types
from pathlib import Path

import pytest
from conftest import FX_CORPUS

from judge.corpus import CorpusError, Streamed, load_corpus
from judge.engine.trace import Replay, Trace
from judge.scenario.model import Scenario
from judge.site.load import RulingData, RulingSummary, SiteInput, load, load_streamed

#: Objects the walk does not enter: code and the modules' namespaces (a class is not what a
#: build holds of a ruling, and through it the walk would reach every module).
_OPAQUE = (type, types.ModuleType, types.FunctionType, types.BuiltinFunctionType,
           types.MethodType, types.CodeType)


def reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through references, code and modules aside."""
    seen: set[int] = set()
    out: list[object] = []
    todo = [root]
    while todo:
        obj = todo.pop()
        if id(obj) in seen or isinstance(obj, _OPAQUE):
            continue
        seen.add(id(obj))
        out.append(obj)
        todo.extend(gc.get_referents(obj))
    return out


def test_a_streamed_site_holds_summaries_and_no_scenario_nor_trace() -> None:
    site = load_streamed(FX_CORPUS)
    assert site.rulings and all(type(d) is RulingSummary for d in site.rulings)
    assert isinstance(site.corpus.rulings, Streamed)
    held = reachable(site)
    assert not [o for o in held if isinstance(o, Scenario)]
    assert not [o for o in held if isinstance(o, Replay | Trace)]
    # the walk does see what a site loaded whole holds: it would find these there
    whole = reachable(load(FX_CORPUS))
    assert any(isinstance(o, Scenario) for o in whole)
    assert any(isinstance(o, Trace) for o in whole)


def test_the_summaries_say_what_a_site_loaded_whole_says() -> None:
    streamed, whole = load_streamed(FX_CORPUS), load(FX_CORPUS)
    assert [d.id for d in streamed.rulings] == [d.id for d in whole.rulings]
    for a, b in zip(streamed.rulings, whole.rulings, strict=True):
        assert isinstance(b, RulingData)
        assert (a.path, a.topic, a.texts, a.tags, a.terms, a.rulesets, a.sources, a.answers,
                a.results, a.seen) == \
            (b.path, b.topic, b.texts, b.tags, b.terms, b.rulesets, b.sources, b.answers,
             b.results, b.seen)
        # loaded again from its file: the same scenario, and the same page's data
        assert streamed.ruling(a.id).scenario == b.scenario
        assert streamed.full(a.id).replays == b.replays


def _copy(tmp_path: Path) -> tuple[SiteInput, Path]:
    root = tmp_path / "c"
    shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
    site = load_streamed(root)
    first = site.rulings[0]
    return site, root / first.path


def test_a_ruling_changed_after_the_load_phase_stops_its_page(tmp_path: Path) -> None:
    site, path = _copy(tmp_path)
    rid = site.rulings[0].id
    path.write_text(path.read_text(encoding="utf-8") + "\n# edited during the build\n",
                    encoding="utf-8")  # same id: only its size and time tell
    with pytest.raises(CorpusError, match=rf"^{site.rulings[0].path} changed while the corpus "
                                          r"was being read \(its size or modification time"):
        site.full(rid)


def test_a_ruling_removed_after_the_load_phase_is_a_one_line_error(tmp_path: Path) -> None:
    site, path = _copy(tmp_path)
    path.unlink()
    with pytest.raises(CorpusError, match=r"changed while the corpus was being read \(it can "
                                          r"no longer be read: No such file"):
        site.ruling(site.rulings[0].id)


def test_a_stream_left_unchanged_loads_again_without_error() -> None:
    corpus = load_corpus(FX_CORPUS, replay=False, stream=True)
    assert [r.id for r in corpus.rulings] == [r.id for r in corpus.rulings]


@pytest.mark.parametrize("stream", [True, False])
def test_a_ruling_removed_during_the_folder_scan_is_the_one_line_error_of_an_unreadable_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stream: bool) -> None:
    """A file the scan found and that is gone before it is read (streamed: before its size
    and time are taken) is a ruling that cannot be read, the same error whether the corpus is
    streamed or held, never an OSError's traceback."""
    import judge.corpus
    from judge.errors import ManyErrors

    root = tmp_path / "corpus"
    shutil.copytree(FX_CORPUS, root)
    found = judge.corpus.discover
    gone: list[Path] = []

    def scan(folders: list[Path]) -> object:
        for path in found(folders):
            if not gone:
                path.unlink()
                gone.append(path)
            yield path

    monkeypatch.setattr(judge.corpus, "discover", scan)
    with pytest.raises(ManyErrors) as caught:
        load_corpus(root, replay=False, stream=stream)
    rel = gone[0].relative_to(root).as_posix()
    assert [str(e) for e in caught.value.errors] == [
        f"{rel}:1: cannot read the file: No such file or directory"]


def test_the_load_phase_and_the_search_index_read_no_file_beyond_the_corpus_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The summaries are made as the corpus check first reads each file (each file read
    once), and the search index is made from them (no file read)."""
    import judge.corpus
    from judge.site.searchindex import write_search

    loads: list[str] = []
    load_one = judge.corpus.load_one

    def counted(path: Path, shown: str) -> Scenario:
        loads.append(shown)
        return load_one(path, shown)

    monkeypatch.setattr(judge.corpus, "load_one", counted)
    site = load_streamed(FX_CORPUS)
    assert sorted(loads) == sorted(d.path for d in site.rulings) and len(loads) > 1
    write_search(site, tmp_path)
    assert len(loads) == len(site.rulings)
    assert (tmp_path / "search-index").is_dir()


def test_the_later_phases_unpickle_the_scenarios_the_corpus_check_read(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The build keeps each scenario pickled as the corpus check reads its file
    (``load_corpus(keep=True)``): its page, the quiz and the database unpickle it rather than
    read the file again, and get the scenario the file gives; a corpus streamed without
    ``keep`` (``judge db``) reads the files again."""
    import judge.corpus

    loads: list[str] = []
    load_one = judge.corpus.load_one

    def counted(path: Path, shown: str) -> Scenario:
        loads.append(shown)
        return load_one(path, shown)

    site = load_streamed(FX_CORPUS)
    monkeypatch.setattr(judge.corpus, "load_one", counted)
    whole = load(FX_CORPUS)  # held: every file read once more
    assert len(loads) == len(site.rulings)
    for d in site.rulings:
        assert site.ruling(d.id).scenario == whole.ruling(d.id).scenario
        # the library's cards are the library's objects, not copies taken for its own
        assert site.corpus.inline_cards(site.ruling(d.id)) == \
            whole.corpus.inline_cards(whole.ruling(d.id))
        assert site.full(d.id).replays == whole.full(d.id).replays
    assert [r.scenario for r in site.replayed()] == [d.scenario for d in whole.rulings
                                                     if isinstance(d, RulingData)]
    assert len(loads) == len(site.rulings), "no file read again"
    plain = load_corpus(FX_CORPUS, replay=False, stream=True)
    assert [r.id for r in plain.rulings] == [d.id for d in site.rulings]
    assert len(loads) == 2 * len(site.rulings) + len(site.rulings)
