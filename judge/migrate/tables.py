"""Moving a ruling's ``[[sources]]`` tables (formats 1 to 3) into the source registry.

Format 4 made every citation name a document of a registry declared once
(``data/sources.toml``; a corpus of its own may keep a ``sources.toml`` beside its ``rulings/``
folder, :func:`judge.sources.local_file`). An old table gave a title, a date, an authority, an
address and a seed. :func:`plan_table` finds the document a table stands for: one of the
registry's, by the title, seed and address the project's own tables used (the conversion of
2026-12-02, which every one of the project's 298 tables followed), or else a new entry of the
corpus's sources file, made from the table (its one title in every language, to translate).
A table of the authority ``interpretation`` has no registry form (the project's readings are
marked in the texts): it becomes a comment for a human. The section of a document that a
citation may name cannot be told from an old title: that is left to a human too.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.ids import is_date
from judge.sources import AUTHORITIES, SEEDS, URL_RE, Document

#: How the project's own old tables name the registry's documents: (title prefix, address
#: part, document id). The first that matches wins; the seed alone is the last resort.
KNOWN_TITLES: tuple[tuple[str, str, str], ...] = (
    ("WIXOSS TCG Wiki: 間違えやすいルール", "", "mistaken-rules"),
    ("Chinese wiki: WIXOSS/游戏规则", "", "chinese-rules"),
    ("WIXOSS glossary: ルール処理", "", "glossary-rule-processing"),
    ("WIXOSS glossary: リフレッシュ", "", "glossary-refresh"),
    ("wikiwiki.jp WIXOSS: リフレッシュ", "", "wiki-refresh"),
    ("wikiwiki.jp WIXOSS: ルール処理", "", "wiki-rule-processing"),
    ("WIXOSS official Twitter", "", "twitter-2014-06-20"),
    ("Takara Tomy: WIXOSS rule change notice", "", "notice-2014-08-27"),
    ("", "/rule/rule_rulechange/140827/", "notice-2014-08-27"),
    ("", "/library/rule/140625/", "notice-2014-06-25"),
)
#: The document each seed was read from, when nothing else tells.
SEED_DOCUMENTS: dict[str, str] = {"003": "mistaken-rules", "001": "chinese-rules"}
#: The old authority that is no document: the project's own reading.
INTERPRETATION = "interpretation"


@dataclass
class Registry:
    """The documents a corpus may cite (``known``: the project's and the corpus's file as it
    is) and the entries a migration adds to the corpus's sources file (``path``)."""

    path: Path | None
    known: Mapping[str, Document]
    added: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: an old table (its fields, as text) -> the id of the entry made for it
    made: dict[tuple[str, ...], str] = field(default_factory=dict)

    def taken(self, sid: str) -> bool:
        return sid in self.known or sid in self.added


@dataclass(frozen=True)
class Planned:
    """What an old table becomes: a citation of ``document`` (new: an entry made for it), or
    with ``document`` empty, a note for a human (``note``)."""

    document: str
    new: bool = False
    note: str = ""


def _slug(text: str) -> str:
    words = re.findall(r"[a-z0-9]+", text.lower())
    return "-".join(words)[:48].strip("-")


def _known(table: Mapping[str, Any], registry: Registry) -> str:
    title = str(table.get("title", ""))
    url = str(table.get("url", ""))
    for prefix, address, document in KNOWN_TITLES:
        if document not in registry.known:
            continue
        if prefix and title.startswith(prefix):
            return document
        if address and address in url:
            return document
    seed = str(table.get("seed", ""))
    document = SEED_DOCUMENTS.get(seed, "")
    return document if document in registry.known else ""


def plan_table(table: Mapping[str, Any], registry: Registry) -> Planned:
    """The document an old ``[[sources]]`` table stands for (see the module)."""
    authority = str(table.get("authority", ""))
    title = str(table.get("title", "")).strip()
    if authority == INTERPRETATION:
        return Planned("", note=f"the interpretation {title!r} is no source: mark the "
                                "sentence it supports as [...]{.interpretation} in the texts")
    known = _known(table, registry)
    if known:
        return Planned(known)
    key = tuple(str(table.get(k, "")) for k in ("title", "date", "authority", "url", "seed"))
    if key in registry.made:
        return Planned(registry.made[key], new=True)
    if registry.path is None:
        return Planned("", note=f"the source {title!r} has no document in data/sources.toml, "
                                "and the file is in no rulings/ folder whose sources.toml "
                                "could declare it")
    base = _slug(title) or "source"
    sid, n = base, 2
    while registry.taken(sid):
        sid, n = f"{base}-{n}", n + 1
    entry: dict[str, Any] = {"title": {"ja": title or sid, "en": title or sid,
                                       "zh-Hans": title or sid}}
    entry["authority"] = authority if authority in AUTHORITIES else "community"
    date = str(table.get("date", ""))
    entry["date"] = date if is_date(date) else "undated"
    url = str(table.get("url", ""))
    if url and URL_RE.fullmatch(url):
        entry["url"] = url
    seed = str(table.get("seed", ""))
    if seed in SEEDS:
        entry["seed"] = seed
    registry.added[sid] = entry
    registry.made[key] = sid
    return Planned(sid, new=True)
