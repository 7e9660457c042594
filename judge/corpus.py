"""The corpus, read once: every ruling with its replays, the glossary, the cards, the rule sets.

``judge db``, ``judge search``, ``judge coverage`` and the site all read the rulings through
:func:`load_corpus`, so they never disagree about what the corpus holds::

    corpus = load_corpus()                      # the project's rulings/ and data/
    for ruling in corpus.rulings:               # sorted by id
        ruling.title("en")                      # falls back to Japanese
        ruling.replays["current"].traces        # one Trace per explored branch
        ruling.replays["current"].events        # the first branch's events

Each ruling is replayed once, here, under each of its rule sets (every branch): the site, the
database and the coverage read these traces (:mod:`judge.engine.trace`) and never run the
engine again.

A corpus root is a folder that holds ``rulings/``; the shared data (glossary, card library,
rule sets) always comes from :func:`judge.paths.data_dir` (``JUDGE_DATA`` overrides it), the
same data the ruling loader validates against. ``load_corpus(root, replay=False)`` skips the
replays (the search index needs only the texts).
"""

from __future__ import annotations

import dataclasses
import io
import pickle
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path
from types import MappingProxyType
from typing import Generic, TypeVar, cast, overload

from judge.data import (
    Term,
    card_library,
    check_data,
    check_main_rulings,
    data_files,
    load_glossary,
    load_rulesets,
)
from judge.engine.cards import FILLER, CardDef
from judge.engine.rulesets import RuleSet
from judge.engine.trace import Replay, Trace
from judge.errors import JudgeError, ManyErrors, ScenarioError
from judge.paths import data_dir, project_root
from judge.scenario.file import (
    check_related,
    duplicate_id,
    load_one,
    main_candidates,
    written_ids,
)
from judge.scenario.load import discover
from judge.scenario.model import LANGS, Scenario
from judge.scenario.run import replay as replay_scenario
from judge.sources import Document, registry_for
from judge.tomlfile import unreadable
from judge.workers import Head

_Item = TypeVar("_Item")

#: Changes whenever the meaning of the corpus fingerprint changes.
FINGERPRINT_VERSION = "3"


class CorpusError(JudgeError):
    """The corpus as a whole cannot be used (a repeated id, a missing folder, a bad glossary)."""


def topic_of(path: str) -> str:
    """A ruling's topic from its path (relative to the corpus root): the folder under
    ``rulings/`` (``refresh``, ``battle``, ...); empty for a file at the top."""
    parts = path.split("/")
    return parts[1] if len(parts) > 2 and parts[0] == "rulings" else ""


#: A file's size and modification time (nanoseconds), taken before it was read: a file whose
#: stamp differs later was changed in between.
Stamp = tuple[int, int]


def stamp_of(path: Path) -> Stamp:
    info = path.stat()
    return info.st_size, info.st_mtime_ns


def _stamp(path: Path, rel: str) -> Stamp:
    """:func:`stamp_of` a file just found in the corpus folder; one that is gone since (or
    cannot be read) is the error loading it would give."""
    try:
        return stamp_of(path)
    except OSError as exc:
        raise unreadable(rel, exc) from None


@dataclass(frozen=True)
class Ruling:
    """A loaded ruling, where it lives and (unless loaded without) its replays: rule set id ->
    the :class:`~judge.engine.trace.Replay` (the traces of every branch), in the ruling's
    order of rule sets."""

    scenario: Scenario
    path: str  # relative to the corpus root, with forward slashes
    replays: Mapping[str, Replay] = field(default_factory=dict)

    @property
    def traces(self) -> tuple[Trace, ...]:
        """Every trace of the ruling: each rule set's branches, in order."""
        return tuple(t for rep in self.replays.values() for t in rep.traces)

    @property
    def id(self) -> str:
        return self.scenario.id

    @property
    def topic(self) -> str:
        """The folder under ``rulings/`` (``refresh``, ``battle``, ...); empty at the top."""
        return topic_of(self.path)

    @property
    def languages(self) -> tuple[str, ...]:
        """The languages the ruling has a title in (Japanese always)."""
        titles = self.scenario.texts.get("title", {})
        return tuple(lang for lang in LANGS if titles.get(lang))

    def text(self, name: str, lang: str, fallback: bool = True) -> str:
        """One text field (title, question, answer, explanation) in ``lang``; Japanese when
        that language is missing and ``fallback`` is set; empty when the field is absent."""
        texts = self.scenario.texts.get(name, {})
        if lang in texts:
            return texts[lang]
        return texts.get("ja", "") if fallback else ""

    def title(self, lang: str = "ja") -> str:
        return self.text("title", lang)


@dataclass(frozen=True)
class Corpus:
    """The rulings of a corpus root, with the shared data and a fingerprint of it all."""

    root: Path
    #: sorted by id; a tuple, or for a corpus loaded with ``stream``, rulings loaded anew
    #: each time they are iterated (:class:`Streamed`)
    rulings: Sequence[Ruling]
    glossary: Mapping[str, Term]  # in file order
    cards: Mapping[str, CardDef]  # the card library (data/cards), plus the built-in filler
    card_files: Mapping[str, str]  # card id -> file under data/ ("" for the filler)
    rulesets: Mapping[str, RuleSet]  # in date order
    fingerprint: str
    replayed: bool
    #: the source registry (``data/sources.toml``) that the rulings' citations name
    sources: Mapping[str, Document] = field(default_factory=dict)

    @cached_property
    def by_id(self) -> Mapping[str, Ruling]:
        return MappingProxyType({r.id: r for r in self.rulings})

    @property
    def trace_count(self) -> int:
        """The (ruling, rule set, branch) traces the corpus holds."""
        return sum(len(rep.traces) for r in self.rulings for rep in r.replays.values())

    def ruling(self, ruling_id: str) -> Ruling:
        try:
            return self.by_id[ruling_id]
        except KeyError:
            raise CorpusError(f"no ruling {ruling_id!r} in {self.root}") from None

    def inline_cards(self, ruling: Ruling) -> dict[str, CardDef]:
        """The cards a ruling defines itself (not taken from the library)."""
        return {cid: card for cid, card in ruling.scenario.cards.items()
                if self.cards.get(cid) is not card}

    def term_for(self, text: str) -> Term | None:
        """The glossary term whose id, name or alias is ``text`` (case-insensitive)."""
        wanted = text.casefold()
        for term in self.glossary.values():
            if wanted == term.id or any(wanted == f.casefold() for f in term.forms):
                return term
        return None


# ---------------------------------------------------------------------- loading

__all__ = ["Corpus", "CorpusError", "Replay", "Ruling", "Term", "Trace", "load_corpus",
           "load_glossary"]


def default_root() -> Path:
    """The current folder when it holds ``rulings/``, otherwise the project."""
    here = Path.cwd()
    return here if (here / "rulings").is_dir() else project_root()


def rulings_dir(root: Path) -> Path:
    return root / "rulings"


def input_files(root: Path) -> list[Path]:
    """Every file the corpus is read from: the rulings, then the data files the loaders read
    (:func:`judge.data.data_files`, the one list of them)."""
    files = list(discover([rulings_dir(root)])) if rulings_dir(root).is_dir() else []
    return files + [p for p in data_files() if p.is_file()]


def fingerprint(root: Path, extra: str = "") -> str:
    """A hash of every input file's name and bytes: equal fingerprints, equal corpus. Names are
    relative (rulings to the corpus root, data files to the data folder), so a copy of the
    same corpus elsewhere has the same fingerprint."""
    import hashlib  # here: judge check does not fingerprint

    digest = hashlib.sha256(f"wixoss-judge corpus {FINGERPRINT_VERSION} {extra}\n".encode())
    data = data_dir()
    rulings = rulings_dir(root)
    for path in input_files(root):
        name = "rulings:" + _relative(path, rulings) if path.is_relative_to(rulings) else \
            "data:" + _relative(path, data)
        body = path.read_bytes()
        # a name that is not UTF-8 (refused by the loader) is hashed as its bytes
        digest.update(f"{name}\0{len(body)}\0".encode("utf-8", "surrogateescape"))
        digest.update(body)
    return digest.hexdigest()


def _card_files() -> dict[str, str]:
    return dict(card_library().files)


def _relative(path: Path, base: Path) -> str:
    try:
        return path.relative_to(base).as_posix()
    except ValueError:
        return path.as_posix()


def replay_all(scenario: Scenario) -> dict[str, Replay]:
    """Replay a ruling under each rule set it names, exploring every branch."""
    return {rules: replay_scenario(scenario, rules) for rules in scenario.rulesets}


class _Remade(Sequence[Ruling], Generic[_Item]):
    """Rulings made anew from held items (:meth:`_make`) each time one is read, and let go."""

    def __init__(self, items: Sequence[_Item]) -> None:
        self._items = tuple(items)

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> Ruling: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Ruling]: ...

    def __getitem__(self, index: int | slice) -> Ruling | Sequence[Ruling]:
        if isinstance(index, slice):
            return tuple(self._make(item) for item in self._items[index])
        return self._make(self._items[index])

    def __iter__(self) -> Iterator[Ruling]:
        for item in self._items:
            yield self._make(item)

    def _make(self, item: _Item) -> Ruling:
        raise NotImplementedError


def _library() -> dict[str, CardDef]:
    """The cards a scenario takes from the library (and the filler), by id."""
    return {**card_library().cards, FILLER.id: FILLER}


class _Pickler(pickle.Pickler):
    """Pickles a scenario with the library's cards as references (their ids), so that the
    scenario unpickled names the same card objects as a loaded one: what tells a library
    card from a ruling's own is that object (:meth:`Corpus.inline_cards`)."""

    def __init__(self, out: io.BytesIO) -> None:
        super().__init__(out, pickle.HIGHEST_PROTOCOL)
        self.library = _library()

    def persistent_id(self, obj: object) -> str | None:
        if isinstance(obj, CardDef) and self.library.get(obj.id) is obj:
            return obj.id
        return None


class _Unpickler(pickle.Unpickler):
    def __init__(self, data: io.BytesIO) -> None:
        super().__init__(data)
        self.library = _library()

    def persistent_load(self, pid: object) -> CardDef:
        return self.library[str(pid)]


def pickled(scenario: Scenario) -> bytes:
    """A scenario kept for a stream read again (``load_corpus(keep=True)``)."""
    out = io.BytesIO()
    _Pickler(out).dump(scenario)
    return out.getvalue()


def unpickled(data: bytes) -> Scenario:
    """The scenario :func:`pickled` kept, with the library's own cards."""
    return cast(Scenario, _Unpickler(io.BytesIO(data)).load())


class Streamed(_Remade[Head]):
    """The rulings of a corpus loaded with ``stream=True``, sorted by id, none of them held:
    iterating loads each ruling again from its file (and replays it, for a corpus loaded with
    its replays), hands it out and lets it go, so that what is held is one ruling and its
    traces at a time. Each iteration loads them all again: a reader that goes through the
    rulings once (``judge db``) pays one more loading of each file for a peak memory that does
    not grow with the corpus. A file whose id, size or modification time is not what it was
    when the corpus was loaded is a :class:`CorpusError` (``stamps``: each id's
    :data:`Stamp` then). ``kept``: scenarios pickled as their files were first read
    (``load_corpus(keep=True)``), unpickled rather than loaded again, about a seventh of the
    cost of reading, parsing and validating the file; the file must still have its stamp."""

    def __init__(self, heads: Sequence[Head], replay: bool,
                 stamps: Mapping[str, Stamp] | None = None,
                 kept: Mapping[str, bytes] | None = None) -> None:
        super().__init__(heads)
        self._replay = replay
        self._stamps: Mapping[str, Stamp] = stamps or {}
        self._kept: Mapping[str, bytes] = kept or {}

    @property
    def paths(self) -> dict[str, str]:
        """Each ruling's path (relative to the corpus root) by id, without loading any."""
        return {head.id: head.path for head in self._items}

    def replaying(self) -> Streamed:
        """The same rulings, each replayed as it is loaded."""
        return Streamed(self._items, True, self._stamps, self._kept)

    def _make(self, head: Head) -> Ruling:
        try:
            stamp = stamp_of(Path(head.file))
        except OSError as exc:
            raise CorpusError(f"{head.path} changed while the corpus was being read (it can "
                              f"no longer be read: {exc.strerror}): run the command "
                              "again") from None
        kept = self._kept.get(head.id)
        scenario = load_one(Path(head.file), head.path) if kept is None or \
            stamp != self._stamps.get(head.id) else unpickled(kept)
        if scenario.id != head.id:
            raise CorpusError(f"{head.path} changed while the corpus was being read (its id "
                              f"was {head.id!r}, now {scenario.id!r}): run the command again")
        if head.id in self._stamps and stamp != self._stamps[head.id]:
            raise CorpusError(f"{head.path} changed while the corpus was being read (its "
                              "size or modification time is not what it was): run the "
                              "command again")
        replays = MappingProxyType(replay_all(scenario)) if self._replay else \
            MappingProxyType({})
        return Ruling(scenario=scenario, path=head.path, replays=replays)


class Replayed(_Remade[Ruling]):
    """Held rulings (loaded without their replays) replayed anew each time they are read:
    iterating replays each ruling under its rule sets, hands it out with its replays and lets
    the replays go. What is held is the rulings' scenarios, never more than one ruling's
    traces (``judge build`` reads its corpus so, :func:`replayed`)."""

    def _make(self, ruling: Ruling) -> Ruling:
        return with_replays(ruling)


def with_replays(ruling: Ruling) -> Ruling:
    """``ruling`` with its replays under each of its rule sets (made now unless it has them)."""
    if ruling.replays:
        return ruling
    return Ruling(scenario=ruling.scenario, path=ruling.path,
                  replays=MappingProxyType(replay_all(ruling.scenario)))


def replayed(corpus: Corpus) -> Corpus:
    """A corpus loaded with ``replay=False`` as one loaded with its replays, made as its
    rulings are read (:class:`Replayed`); a corpus that has its replays, as it is."""
    if corpus.replayed:
        return corpus
    rulings = corpus.rulings.replaying() if isinstance(corpus.rulings, Streamed) else \
        Replayed(corpus.rulings)
    return dataclasses.replace(corpus, rulings=rulings, replayed=True)


class Tapped(Sequence[Ruling]):
    """Rulings read by one reader and shown, as it reads each, to another (``tap``): one
    loading and one replay of each ruling serve both. ``judge build`` makes the quiz's bank
    from the rulings the database reads (:func:`judge.quiz.site.make_quiz`), each loaded and
    replayed once for the two. Only iterating shows a ruling to ``tap``; ``seen`` counts
    them, so that the second reader can tell that the first read every ruling."""

    def __init__(self, rulings: Sequence[Ruling], tap: Callable[[Ruling], None]) -> None:
        self._rulings, self._tap, self.seen = rulings, tap, 0

    def __len__(self) -> int:
        return len(self._rulings)

    @overload
    def __getitem__(self, index: int) -> Ruling: ...

    @overload
    def __getitem__(self, index: slice) -> Sequence[Ruling]: ...

    def __getitem__(self, index: int | slice) -> Ruling | Sequence[Ruling]:
        return self._rulings[index]

    def __iter__(self) -> Iterator[Ruling]:
        for ruling in self._rulings:
            self._tap(ruling)
            self.seen += 1
            yield ruling


def load_corpus(root: Path | None = None, *, replay: bool = True,
                stream: bool = False, keep: bool = False,
                each: Callable[[Ruling], None] | None = None) -> Corpus:
    """Load every ruling under ``root/rulings`` (default: :func:`default_root`) and the shared
    data; replay each ruling under each of its rule sets unless ``replay`` is false. With
    ``stream``, every file is loaded and checked but no ruling is held: ``corpus.rulings`` is
    a :class:`Streamed` sequence that loads them again as it is read. ``each``, if given, is
    called with each ruling (without its replays) as its file is first read, in the folder's
    order, once its id is known to be new: what a reader of a stream needs of every ruling
    is made from that reading, not from one more (``judge build``'s summaries); a corpus
    that then fails to load makes it worthless. ``keep`` (with ``stream``): keep each
    scenario pickled (7.8 KB a ruling) as its file is first read, so that reading the stream
    again unpickles it rather than loading the file (:class:`Streamed`; ``judge build``,
    which reads its rulings three times more).

    Raises :class:`~judge.errors.ScenarioError` for the first ruling that cannot be loaded and
    :class:`CorpusError` for two rulings with one id."""
    root = (root or default_root()).resolve()
    folder = rulings_dir(root)
    if not folder.is_dir():
        raise CorpusError(f"{root} has no rulings/ folder")
    check_data()
    heads: dict[str, Head] = {}
    stamps: dict[str, Stamp] = {}  # taken before each file is read, for a stream
    scenarios: dict[str, Scenario] = {}  # the loaded rulings, unless streamed
    kept: dict[str, bytes] = {}  # pickled, for a stream with ``keep``
    errors: list[JudgeError] = []
    broken: set[str] = set()  # the ids the files that cannot be loaded seem to declare
    for at, path in enumerate(discover([folder])):
        rel = _relative(path, root)
        try:
            stamp = _stamp(path, rel) if stream else (0, 0)
            scenario = load_one(path, rel)
        except ScenarioError as exc:
            errors.append(exc)
            broken.update(written_ids(path))
            continue
        if scenario.id in heads:
            errors.append(duplicate_id(scenario, heads[scenario.id].path))
            continue
        heads[scenario.id] = Head(at, scenario.id, rel, scenario.rulesets, scenario.related,
                                  str(path))
        if each is not None:
            each(Ruling(scenario=scenario, path=rel, replays=MappingProxyType({})))
        if stream:
            stamps[scenario.id] = stamp
            if keep:
                kept[scenario.id] = pickled(scenario)
        else:
            scenarios[scenario.id] = scenario
    known = {**dict.fromkeys(broken), **heads}  # a link to a broken ruling: its problem
    for rid, head in heads.items():
        try:  # a held ruling knows its lines; a head reads its file again for the line
            check_related(scenarios.get(rid, head), known)
        except ScenarioError as exc:
            errors.append(exc)
    if errors:
        raise ManyErrors(errors)
    check_main_rulings(main_candidates(heads))
    rulings: Sequence[Ruling]
    if stream:
        rulings = Streamed([heads[k] for k in sorted(heads)], replay, stamps, kept)
    else:
        loaded: dict[str, Ruling] = {}
        for rid, scenario in scenarios.items():
            replays = MappingProxyType(replay_all(scenario)) if replay else \
                MappingProxyType({})
            loaded[rid] = Ruling(scenario=scenario, path=heads[rid].path, replays=replays)
        rulings = tuple(loaded[k] for k in sorted(loaded))
    library = dict(card_library().cards)
    library.setdefault(FILLER.id, FILLER)
    return Corpus(
        root=root,
        rulings=rulings,
        glossary=MappingProxyType(load_glossary()),
        cards=MappingProxyType(library),
        card_files=MappingProxyType(_card_files()),
        rulesets=MappingProxyType(dict(load_rulesets())),
        fingerprint=fingerprint(root),
        replayed=replay,
        sources=registry_for(None, root),
    )
