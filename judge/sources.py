"""The source registry: every document the project cites, declared once, and how it is cited.

``data/sources.toml`` declares each document once: its id, its title in each language, its
authority (``official``: the publisher's own text; ``official-quoted``: the publisher's text
as another page quotes it; ``community``: a fan page's own words), the fullest date the
document gives (a day, a month, a year, or ``undated``), its address where it is public, the
seed it comes from, an optional note, and the named sections that citations point at.

Rulings (``sources = ["mistaken-rules#crush"]``), rule sets (``data/rulesets.toml``) and the
engine's declarations (a kind of rule processing, a mechanic: :mod:`judge.engine.sources`)
cite a document by its id, or one of its sections as ``ID#SECTION``; the loaders check every
citation against the registry, and the site, the database and the search resolve it.

The project's own readings are not sources: a ruling marks them in its texts, next to the
sentence they support, as ``[the sentence]{.interpretation}`` (:data:`MARK_RE`), which the site
shows with a label "this project's interpretation" in the page's language.

>>> registry = load_sources()
>>> registry["mistaken-rules"].authority
'community'
>>> str(parse_citation("glossary-rule-processing#kind-4", "sources[0]", registry))
'glossary-rule-processing#kind-4'
>>> strip_marks("Rule text. [Our reading.]{.interpretation}")
'Rule text. Our reading.'
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import Any

from judge.errors import DataError, FieldError
from judge.ids import check_id, is_date, quote
from judge.langs import LANGS
from judge.paths import data_dir
from judge.tomlfile import read_toml, shown_path

#: The authorities a document may have, strongest first.
AUTHORITIES: tuple[str, ...] = ("official", "official-quoted", "community")
#: The authorities that make a ruling "rest on official text".
OFFICIAL: frozenset[str] = frozenset({"official", "official-quoted"})
#: What a document's ``date`` may be besides ``YYYY``, ``YYYY-MM`` and ``YYYY-MM-DD``.
UNDATED = "undated"
SOURCE_FIELDS = ("title", "authority", "date", "url", "seed", "note", "sections")
SEEDS = ("000", "001", "003", "004")
URL_RE = re.compile(r"https?://[!#-;=?-~]+", re.ASCII)


@dataclass(frozen=True)
class Section:
    """A named part of a document that citations point at (``kind-4``, ``crush``)."""

    id: str
    names: Mapping[str, str]

    def name(self, lang: str) -> str:
        return self.names.get(lang) or self.names["ja"]


@dataclass(frozen=True)
class Document:
    """One document of the registry."""

    id: str
    titles: Mapping[str, str]
    authority: str
    #: ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD``; empty when the document gives no date
    date: str
    url: str = ""
    seed: str = ""
    note: Mapping[str, str] = field(default_factory=dict)
    sections: Mapping[str, Section] = field(default_factory=dict)

    def title(self, lang: str) -> str:
        return self.titles.get(lang) or self.titles["ja"]

    @property
    def official(self) -> bool:
        return self.authority in OFFICIAL


@dataclass(frozen=True, order=True)
class Citation:
    """A citation: a document id and, optionally, one of its sections."""

    source: str
    section: str = ""

    def __str__(self) -> str:
        return f"{self.source}#{self.section}" if self.section else self.source

    @classmethod
    def of(cls, text: str) -> Citation:
        """Split ``ID`` or ``ID#SECTION`` (no check against the registry)."""
        source, _, section = text.partition("#")
        return cls(source, section)


# ---------------------------------------------------------------------------- citations


def parse_citation(value: Any, where: str, registry: Mapping[str, Document]) -> Citation:
    """A citation checked against ``registry``: raises :class:`FieldError` naming ``where``
    and the valid document (or section) ids."""
    if not isinstance(value, str):
        raise FieldError(where, f"expected a citation \"ID\" or \"ID#SECTION\" "
                                f"(data/sources.toml), got {quote(value)}")
    citation = Citation.of(value)
    document = registry.get(citation.source)
    if document is None:
        raise FieldError(where, f"unknown source {quote(citation.source)} "
                                "(declared in data/sources.toml)",
                         _closest_first(citation.source, registry))
    if (citation.section or "#" in value) and citation.section not in document.sections:
        raise FieldError(where, f"{quote(citation.source)} has no section "
                                f"{quote(citation.section)}",
                         _closest_first(citation.section, document.sections))
    return citation


def _closest_first(wrong: str, valid: Iterable[str]) -> tuple[str, ...]:
    """``valid``, the ids closest to the misspelt ``wrong`` first (an error lists at most
    24 choices)."""
    from difflib import get_close_matches

    ids = list(valid)
    close = get_close_matches(wrong, ids, n=5, cutoff=0.6)
    return (*close, *(i for i in ids if i not in close))


def parse_citations(value: Any, where: str,
                    registry: Mapping[str, Document]) -> tuple[Citation, ...]:
    """A list of citations (one text alone is a list of one); a citation given twice is an
    error."""
    items = [value] if isinstance(value, str) else value
    if not isinstance(items, list):
        raise FieldError(where, f"expected a list of citations, got {quote(value)}")
    out: list[Citation] = []
    for i, item in enumerate(items):
        citation = parse_citation(item, f"{where}[{i}]", registry)
        if citation in out:
            raise FieldError(f"{where}[{i}]", f"{quote(str(citation))} is cited twice")
        out.append(citation)
    return tuple(out)


def rests_on_official(citations: Iterable[Citation], registry: Mapping[str, Document]) -> bool:
    """Whether at least one cited document is official or quotes official text."""
    return any(c.source in registry and registry[c.source].official for c in citations)


def grouped(citations: Iterable[Citation]) -> dict[str, list[str]]:
    """Citations by document, in the order first cited: document id -> its cited sections
    (empty for a citation of the whole document)."""
    out: dict[str, list[str]] = {}
    for c in citations:
        sections = out.setdefault(c.source, [])
        if c.section and c.section not in sections:
            sections.append(c.section)
    return out


# ---------------------------------------------------------------------------- interpretations

#: ``[text]{.interpretation}``: a sentence of a ruling's text that is this project's reading,
#: not a source's statement. The text may hold Markdown (emphasis, a link) and balanced
#: brackets one level deep; an escaped ``\[`` opens none. (Possessive, as is ``_ANY_MARK``, and
#: never at an escaped bracket: each attempt reads on to the next bracket or brace only once,
#: so that a search takes time in proportion to the text.)
MARK_RE = re.compile(r"(?<!(?<!\\)\\)\[((?:[^\[\]\\]|\\.|\[[^\[\]]*+\])++)\]"
                     r"\{\.interpretation\}", re.S)
#: Anything that looks like an attribute mark: ``{.name}`` (checked by :func:`mark_problem`).
_ANY_MARK = re.compile(r"\{\s*+\.[^{}]*+\}")
MARKS = ("interpretation",)


def strip_marks(text: str) -> str:
    """``text`` without the marks (for search and plain-text uses): the sentence stays."""
    return MARK_RE.sub(r"\1", text)


def has_interpretation(text: str) -> bool:
    return MARK_RE.search(text) is not None


def mark_problem(text: str) -> str:
    """What is wrong with the marks of ``text`` (empty when nothing is): a ``{.name}`` that
    is not ``{.interpretation}`` right after a bracketed sentence."""
    if "{" not in text:  # no mark at all (removing marks cannot make one)
        return ""
    rest = MARK_RE.sub("", text)
    found = _ANY_MARK.search(rest)
    if found is None:
        return ""
    return (f"{quote(found.group(0))} is not a mark this project knows: mark a sentence as "
            "[the sentence]{.interpretation}")


# ---------------------------------------------------------------------------- the registry


def _lang_table(value: Any, where: str) -> dict[str, str]:
    if not isinstance(value, dict):
        raise FieldError(where, f"expected a table of {', '.join(LANGS)}, got {quote(value)}")
    for lang, text in value.items():
        if lang not in LANGS:
            raise FieldError(f"{where}.{lang}", "unknown language", LANGS)
        if not isinstance(text, str) or not text.strip():
            raise FieldError(f"{where}.{lang}", f"expected text, got {quote(text)}")
    for lang in LANGS:
        if lang not in value:
            raise FieldError(f"{where}.{lang}", "missing: every source title and section "
                                                "name is given in every language", LANGS)
    return dict(value)


def parse_document(doc_id: str, body: Any, where: str) -> Document:
    check_id(doc_id, where, "source id")
    if not isinstance(body, dict):
        raise FieldError(where, f"expected a table, got {quote(body)}")
    for key in body:
        if key not in SOURCE_FIELDS:
            raise FieldError(f"{where}.{key}", "unknown field", SOURCE_FIELDS)
    for key in ("title", "authority", "date"):
        if key not in body:
            raise FieldError(f"{where}.{key}", "missing (every source has a title, an "
                                               "authority and a date)")
    titles = _lang_table(body["title"], f"{where}.title")
    authority = body["authority"]
    if authority not in AUTHORITIES:
        raise FieldError(f"{where}.authority", f"unknown value {quote(authority)} (the "
                                               "project's own readings are marked in the "
                                               "texts, not listed as sources)", AUTHORITIES)
    date = body["date"]
    if date != UNDATED and not is_date(date):
        raise FieldError(f"{where}.date", f"{quote(date)} is not YYYY, YYYY-MM, YYYY-MM-DD "
                                          f"or {UNDATED!r}")
    url = body.get("url", "")
    if not isinstance(url, str) or (url and URL_RE.fullmatch(url) is None):
        raise FieldError(f"{where}.url", f"{quote(url)} is not an http:// or https:// address")
    seed = body.get("seed", "")
    if seed != "" and seed not in SEEDS:
        raise FieldError(f"{where}.seed", f"unknown seed {quote(seed)}", SEEDS)
    note = _lang_table(body["note"], f"{where}.note") if "note" in body else {}
    raw_sections = body.get("sections", {})
    if not isinstance(raw_sections, dict):
        raise FieldError(f"{where}.sections", f"expected [sections] names, got "
                                              f"{quote(raw_sections)}")
    sections = {}
    for sid, names in raw_sections.items():
        check_id(sid, f"{where}.sections.{sid}", "section id")
        sections[sid] = Section(sid, MappingProxyType(
            _lang_table(names, f"{where}.sections.{sid}")))
    return Document(id=doc_id, titles=MappingProxyType(titles), authority=authority,
                    date="" if date == UNDATED else date, url=url, seed=seed,
                    note=MappingProxyType(note), sections=MappingProxyType(sections))


def parse_registry(raw: Mapping[str, Any]) -> dict[str, Document]:
    for key in raw:
        if key != "sources":
            raise FieldError(key, "unknown field", ("sources",))
    table = raw.get("sources", {})
    if not isinstance(table, dict) or not table:
        raise FieldError("sources", f"expected [sources.ID] tables, got {quote(table)}")
    return {sid: parse_document(sid, body, f"sources.{sid}") for sid, body in table.items()}


@cache
def _registry(path: Path) -> Mapping[str, Document]:
    if not path.exists():
        raise DataError(shown_path(path), 1, FieldError(
            "", "missing: the data folder has no sources.toml (the documents that rulings, "
                "rule sets and the engine cite)"))
    raw, index = read_toml(path, error=DataError)
    try:
        return MappingProxyType(parse_registry(raw))
    except FieldError as exc:
        raise DataError(shown_path(path), index.line(exc.field), exc) from None


@cache
def _path(env: str | None) -> Path:
    return data_dir() / "sources.toml"


def registry_file() -> Path:
    """The file :func:`load_sources` reads: ``data/sources.toml`` (or ``JUDGE_DATA``'s)."""
    return _path(os.environ.get("JUDGE_DATA"))


def load_sources(path: Path | None = None) -> Mapping[str, Document]:
    """Every document of ``data/sources.toml`` (or ``JUDGE_DATA``'s), in file order."""
    return _registry(path or registry_file())


__all__ = ["AUTHORITIES", "MARK_RE", "OFFICIAL", "Citation", "Document", "Section",
           "grouped", "has_interpretation", "load_sources", "mark_problem", "parse_citation",
           "parse_citations", "registry_file", "rests_on_official", "strip_marks"]
