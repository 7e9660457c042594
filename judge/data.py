"""The shared data files, read once and checked whole: glossary, card library, rule sets.

``data/glossary.toml``, ``data/cards/*.toml`` and ``data/rulesets.toml`` (whose citations
are checked against ``data/sources.toml``, :mod:`judge.sources`) (or the folder that
``JUDGE_DATA`` names) are read through :mod:`judge.tomlfile` and validated field by field; a
problem is a :class:`DataError` naming the *data file*, a line and a field, never a ruling
that happened to use it. Every command calls :func:`check_data` before it reads a ruling.

>>> glossary = load_glossary()
>>> glossary["refresh"].name("en")
'refresh'
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Collection, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from judge.engine.cards import CardDef, parse_card
from judge.engine.rulesets import RuleSet, parse_rulesets
from judge.errors import DataError, FieldError
from judge.ids import check_id, quote
from judge.paths import data_dir
from judge.scenario.model import LANGS
from judge.sources import load_sources, parse_citations, registry_file
from judge.texts import check_text
from judge.tomlfile import read_toml, shown_path

TERM_FIELDS = (*LANGS, "aliases", "definition", "main")

#: The data folder's files that the loaders below read, by name from the folder (the source
#: registry's is :func:`judge.sources.registry_file`); the card library is every ``*.toml``
#: directly in :data:`CARDS` but hidden ones (:func:`card_files`). :func:`data_files` lists
#: them: what the site may publish of the data folder.
GLOSSARY = "glossary.toml"
RULESETS = "rulesets.toml"
CARDS = "cards"


def _fail(path: Path, line: int, error: FieldError) -> DataError:
    return DataError(shown_path(path), line, error)


def _data_file(name: str) -> Path:
    """``data_dir() / name``, the same Path object for as long as ``JUDGE_DATA`` is unchanged
    (the loader asks for the rule sets and cards once per ruling: the cached readers below
    then find them without building and hashing a new path each time)."""
    return _data_file_in(os.environ.get("JUDGE_DATA"), name)


@cache
def _data_file_in(env: str | None, name: str) -> Path:
    return data_dir() / name


# ---------------------------------------------------------------------------- glossary


@dataclass(frozen=True)
class Term:
    """A glossary term of ``data/glossary.toml``: its name in each language and its aliases."""

    id: str
    names: Mapping[str, str]  # lang -> name
    aliases: tuple[str, ...] = ()  # every alias, in every language
    definition: Mapping[str, str] = field(default_factory=dict)
    #: the aliases by language (``ja``, ``en``, ``zh-Hans``; ``""`` for language-neutral ones)
    alias_by_lang: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    #: the ruling that explains the term itself (first for the bare term in search)
    main: str = ""

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names.get("ja") or self.id

    @property
    def forms(self) -> tuple[str, ...]:
        """Every way of writing the term: the names in LANGS order, then the aliases."""
        out: list[str] = []
        for text in (*(self.names.get(lang, "") for lang in LANGS), *self.aliases):
            if text and text not in out:
                out.append(text)
        return tuple(out)


def _text(value: Any, where: str) -> str:
    """A name, an alias or a definition: text that is not blank and holds no control
    character (:mod:`judge.texts`)."""
    return check_text(value, where)


def _texts(value: Any, where: str) -> tuple[str, ...]:
    if not isinstance(value, list):
        raise FieldError(where, f"expected a list of text, got {quote(value)}")
    return tuple(_text(v, f"{where}[{i}]") for i, v in enumerate(value))


def _lang_table(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise FieldError(where, f"expected a table of {', '.join(LANGS)}, got {quote(value)}")
    for lang in value:
        if lang not in LANGS:
            raise FieldError(f"{where}.{lang}", "unknown language", LANGS)
    return value


def parse_term(term_id: str, body: Any, where: str) -> Term:
    check_id(term_id, where, "term id")
    if not isinstance(body, dict):
        raise FieldError(where, f"expected a table, got {quote(body)}")
    for key in body:
        if key not in TERM_FIELDS:
            raise FieldError(f"{where}.{key}", "unknown field", TERM_FIELDS)
    if "ja" not in body:
        raise FieldError(f"{where}.ja", "missing (Japanese is the fallback language)")
    names = {lang: _text(body[lang], f"{where}.{lang}") for lang in LANGS if lang in body}
    raw_aliases = body.get("aliases", [])
    by_lang: dict[str, tuple[str, ...]] = {}
    if isinstance(raw_aliases, dict):
        for lang, words in _lang_table(raw_aliases, f"{where}.aliases").items():
            by_lang[lang] = _texts(words, f"{where}.aliases.{lang}")
    else:
        by_lang[""] = _texts(raw_aliases, f"{where}.aliases")
    flat: list[str] = []
    for words in by_lang.values():
        flat.extend(a for a in words if a not in flat)
    definition = {lang: _text(v, f"{where}.definition.{lang}") for lang, v in
                  _lang_table(body.get("definition", {}), f"{where}.definition").items()}
    main = check_id(body["main"], f"{where}.main", "ruling id") if "main" in body else ""
    return Term(id=term_id, names=MappingProxyType(names), aliases=tuple(flat),
                definition=MappingProxyType(definition),
                alias_by_lang=MappingProxyType(by_lang), main=main)


@cache
def _glossary(path: Path) -> Mapping[str, Term]:
    if not path.exists():
        return MappingProxyType({})
    raw, index = read_toml(path, error=DataError)
    try:
        for key in raw:
            if key != "terms":
                raise FieldError(key, "unknown field", ("terms",))
        table = raw.get("terms", {})
        if not isinstance(table, dict):
            raise FieldError("terms", f"expected [terms.ID] tables, got {quote(table)}")
        terms = {tid: parse_term(tid, body, f"terms.{tid}") for tid, body in table.items()}
    except FieldError as exc:
        raise _fail(path, index.line(exc.field), exc) from None
    return MappingProxyType(terms)


def load_glossary(path: Path | None = None) -> dict[str, Term]:
    """Every term of the glossary in file order (empty when there is no glossary file)."""
    return dict(_glossary(path or _data_file(GLOSSARY)))


def check_main_rulings(rulings: Collection[str], path: Path | None = None) -> None:
    """Every term's ``main`` must name one of ``rulings`` (the ruling ids a main may name:
    :func:`judge.corpus.load_corpus` gives them): a :class:`DataError` on the glossary's line
    for the first that does not, with the closest ids."""
    path = path or _data_file(GLOSSARY)
    for term in _glossary(path).values():
        if term.main and term.main not in rulings:
            where = f"terms.{term.id}.main"
            _, index = read_toml(path, error=DataError)
            close = difflib.get_close_matches(term.main, sorted(rulings), n=5, cutoff=0.5)
            raise _fail(path, index.line(where), FieldError(
                where, f"no ruling has the id {quote(term.main)}"
                       f"{' (did you mean one of these?)' if close else ''}", close))


# ---------------------------------------------------------------------------- cards


@dataclass(frozen=True)
class CardLibrary:
    """The cards of ``data/cards/*.toml`` and the file each comes from."""

    cards: Mapping[str, CardDef]  # card id -> definition
    files: Mapping[str, str]  # card id -> file under the data folder (forward slashes)


@cache
def _cards(folder: Path) -> CardLibrary:
    cards: dict[str, CardDef] = {}
    files: dict[str, str] = {}
    for path in card_files(folder):
        raw, index = read_toml(path, error=DataError)
        rel = f"cards/{path.name}"
        for card_id, body in raw.items():
            try:
                check_id(card_id, card_id, "card id")
                if card_id in files:
                    raise FieldError(card_id, f"card id {card_id!r} is already defined in "
                                              f"{files[card_id]}")
                cards[card_id] = parse_card(card_id, body, card_id)
            except FieldError as exc:
                raise _fail(path, index.line(exc.field), exc) from None
            files[card_id] = rel
    return CardLibrary(MappingProxyType(cards), MappingProxyType(files))


def card_library() -> CardLibrary:
    """The cards of ``data/cards/*.toml``; an id defined twice is an error."""
    return _cards(_data_file(CARDS))


# ---------------------------------------------------------------------------- rule sets


@cache
def _rulesets(path: Path) -> dict[str, RuleSet]:
    if not path.exists():
        raise DataError(shown_path(path), 1, FieldError(
            "", "missing: the data folder has no rulesets.toml (the dated rule sets every "
                "ruling is replayed under)"))
    raw, index = read_toml(path, error=DataError)
    try:
        rulesets = parse_rulesets(raw)
    except FieldError as exc:
        raise _fail(path, index.line(exc.field), exc) from None
    registry = load_sources()
    for i, rs in enumerate(rulesets.values()):
        try:
            parse_citations(list(rs.sources), f"ruleset[{i}].sources", registry)
        except FieldError as exc:
            raise _fail(path, index.line(exc.field), exc) from None
    return rulesets


def load_rulesets(path: Path | None = None) -> dict[str, RuleSet]:
    """All rule sets of ``data/rulesets.toml`` in date order, keyed by id (parsed by
    :func:`judge.engine.rulesets.parse_rulesets`; the engine reads no files)."""
    return _rulesets(path or _data_file(RULESETS))


# ---------------------------------------------------------------------------- all of it


def check_data() -> None:
    """Read and validate every data file once; raises :class:`DataError` for the first
    problem. Later reads of the same files come from the cache."""
    load_sources()
    load_rulesets()
    _glossary(_data_file(GLOSSARY))
    card_library()


def card_files(folder: Path) -> list[Path]:
    """The card files of ``folder``, sorted: its ``*.toml`` (not those of subfolders) but
    hidden ones (``.name.toml``: an editor's lock or backup file is not data)."""
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.glob("*.toml") if not p.name.startswith("."))


def data_files() -> list[Path]:
    """Every file of the data folder that the loaders read, in the order :func:`check_data`
    reads them: the source registry, the rule sets, the glossary (when there is one) and
    the card files. The site publishes these and nothing else of the data folder
    (:mod:`judge.site.sandbox_build`)."""
    glossary = _data_file(GLOSSARY)
    return [registry_file(), _data_file(RULESETS), *([glossary] if glossary.exists() else []),
            *card_files(_data_file(CARDS))]
