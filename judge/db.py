"""``judge db``: the corpus as one SQLite database, built with sqlite-utils.

The database is written to a temporary file beside the target (``.NAME.XXXXXXXX.tmp``),
flushed to disk and renamed over it only when complete, so an interrupted or killed build
leaves the previous database as it was; each build first removes the temporary files that
killed builds left (:func:`clean_leftovers`). It replaces only a database it wrote (its
header carries :data:`APPLICATION_ID`), or anything with ``force`` (see :mod:`judge.outputs`
for what is never replaced). The same corpus gives the same bytes wherever it
lies: rows are inserted in a fixed order (rulings by id, rule sets in date order, events in
log order), nothing records the time of the build or an absolute path, and the file is
vacuumed last. ``judge db`` reads the corpus as a stream (``load_corpus(stream=True)``): the
rulings are read once, each with its replays, its rows written to every table before the
next is loaded, so the memory it needs does not grow with the corpus. A whole number SQLite
cannot store (beyond 64 bits) is a :class:`DatabaseError` naming the file and field it comes
from. docs/database.md describes every table.
"""

from __future__ import annotations

import dataclasses
import json
import os
import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from sqlite_utils import Database

from judge import __version__
from judge.atomic import busy
from judge.corpus import Corpus, Ruling
from judge.coverage import CATEGORIES
from judge.coverage import Tally as CoverageTally
from judge.engine.cards import CardDef
from judge.engine.events import Event
from judge.engine.rule_processing import TABLE as KIND_TABLE
from judge.engine.trace import Replay
from judge.errors import JudgeError
from judge.outputs import (
    Kind,
    Target,
    claim,
    corpus_inputs,
    head,
    leftover_names,
    shown,
    temp_file,
)
from judge.scenario.model import LANGS, TEXT_FIELDS
from judge.sources import MARK_RE, rests_on_official

SCHEMA_VERSION = "2"
#: SQLite's ``application_id`` of every database judge db writes ("WXJD"): what tells one
#: that judge db may replace from any other file (docs/database.md).
APPLICATION_ID = 0x57584A44


class DatabaseError(JudgeError):
    """The database cannot be written."""


def _col(lang: str) -> str:
    """``zh-Hans`` -> ``zh_hans``: a language as part of a column name."""
    return lang.replace("-", "_").lower()


#: Every table: columns (in order), primary key, foreign keys, indexes. docs/database.md
#: explains each column.
TABLES: dict[str, dict[str, Any]] = {
    "meta": {"columns": {"key": str, "value": str}, "pk": "key"},
    "rulesets": {
        "columns": {"id": str, "position": int, "start": str,
                    **{f"title_{_col(lang)}": str for lang in LANGS},
                    **{f"summary_{_col(lang)}": str for lang in LANGS},
                    "refresh_timing": str, "second_refresh_ends_turn": int,
                    "refresh_needs_trash": int, "excess_order": str, "burst_count": str,
                    "grow": str, "remove": str, "sources": str},
        "pk": "id"},
    "rulings": {
        "columns": {"id": str, "title": str, "path": str, "topic": str, "languages": str,
                    "steps": int, "explore_limit": int, "related": str, "official": int,
                    "interpretations": int},
        "pk": "id", "indexes": [["topic"], ["official"]]},
    "ruling_texts": {
        "columns": {"ruling_id": str, "lang": str, **{f: str for f in TEXT_FIELDS}},
        "pk": ("ruling_id", "lang"), "fks": [("ruling_id", "rulings", "id")]},
    "sources": {
        "columns": {"id": str, "position": int, **{f"title_{_col(lang)}": str for lang in LANGS},
                    "authority": str, "date": str, "url": str, "seed": str,
                    **{f"note_{_col(lang)}": str for lang in LANGS}},
        "pk": "id", "indexes": [["date"], ["authority"]]},
    "source_sections": {
        "columns": {"source_id": str, "section": str, "position": int,
                    **{f"name_{_col(lang)}": str for lang in LANGS}},
        "pk": ("source_id", "section"), "fks": [("source_id", "sources", "id")]},
    "ruling_sources": {
        "columns": {"ruling_id": str, "position": int, "source_id": str, "section": str},
        "pk": ("ruling_id", "position"),
        "fks": [("ruling_id", "rulings", "id"), ("source_id", "sources", "id")],
        "indexes": [["source_id"]]},
    "tags": {"columns": {"id": str, "rulings": int}, "pk": "id"},
    "ruling_tags": {
        "columns": {"ruling_id": str, "tag_id": str, "position": int},
        "pk": ("ruling_id", "tag_id"),
        "fks": [("ruling_id", "rulings", "id"), ("tag_id", "tags", "id")],
        "indexes": [["tag_id"]]},
    "terms": {
        "columns": {"id": str, "position": int, **{f"name_{_col(lang)}": str for lang in LANGS},
                    "aliases": str, **{f"definition_{_col(lang)}": str for lang in LANGS}},
        "pk": "id"},
    "ruling_terms": {
        "columns": {"ruling_id": str, "term_id": str, "position": int},
        "pk": ("ruling_id", "term_id"),
        "fks": [("ruling_id", "rulings", "id"), ("term_id", "terms", "id")],
        "indexes": [["term_id"]]},
    "ruling_related": {
        "columns": {"ruling_id": str, "related_id": str, "position": int},
        "pk": ("ruling_id", "related_id"), "fks": [("ruling_id", "rulings", "id")],
        "indexes": [["related_id"]]},
    "cards": {
        "columns": {"id": int, "card_id": str, "ruling_id": str, "file": str, "name": str,
                    **{f"name_{_col(lang)}": str for lang in LANGS},
                    "type": str, "colour": str, "level": int, "power": int, "limit": int,
                    "lrig_type": str, "card_class": str, "limiting": str, "guard": int,
                    "life_burst": int, "keywords": str, "definition": str},
        "pk": "id", "fks": [("ruling_id", "rulings", "id")],
        "indexes": [["card_id"], ["ruling_id"], ["type"]],
        "unique": [["card_id", "ruling_id"]]},
    "ruling_cards": {
        "columns": {"ruling_id": str, "card": int},
        "pk": ("ruling_id", "card"),
        "fks": [("ruling_id", "rulings", "id"), ("card", "cards", "id")],
        "indexes": [["card"]]},
    "ruling_rulesets": {
        "columns": {"ruling_id": str, "ruleset_id": str, "position": int, "branches": int,
                    "cut": int, "events": int, "problems": str},
        "pk": ("ruling_id", "ruleset_id"),
        "fks": [("ruling_id", "rulings", "id"), ("ruleset_id", "rulesets", "id")],
        "indexes": [["ruleset_id"]]},
    "events": {
        "columns": {"id": int, "ruling_id": str, "ruleset_id": str, "branch": int,
                    "step": int, "seq": int, "type": str, "cause": str, "player": str,
                    "card": str, "from_zone": str, "to_zone": str, "source": str,
                    "detail": str},
        "pk": "id",
        "fks": [("ruling_id", "rulings", "id"), ("ruleset_id", "rulesets", "id")],
        "indexes": [["type"], ["card"], ["ruleset_id"], ["cause"]],
        "unique": [["ruling_id", "ruleset_id", "branch", "seq"]]},
    "rule_kinds": {"columns": {"id": str, "number": int, "source": str}, "pk": "id"},
    "coverage": {
        "columns": {"category": str, "item": str, "position": int, "label": str,
                    "rulings": int, "from_events": int, "from_terms": int, "differs": int,
                    "ruling_ids": str},
        "pk": ("category", "item"), "indexes": [["rulings"]]},
}


def _json(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, sort_keys=True, default=_plain)


def _plain(value: Any) -> Any:
    """What JSON cannot hold as it is: a set as a sorted list (a process orders a set of
    strings by its own hash seed, so the same corpus would give other bytes in another
    process), anything else as its text."""
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=str)
    return str(value)


@dataclass(frozen=True)
class Summary:
    path: Path
    counts: dict[str, int]
    size: int

    def line(self) -> str:
        c = self.counts
        return (f"wrote {self.path}: {c['rulings']} rulings, {c['rulesets']} rule sets, "
                f"{c['ruling_rulesets']} replays, {c['events']} events, {c['terms']} terms, "
                f"{c['cards']} cards ({self.size // 1024} KiB)")


def _foreign(path: Path) -> str:
    """Why the file at ``path`` is not a database judge db wrote ("" when it is): its header
    carries :data:`APPLICATION_ID`, or (a database from before the id) its ``meta`` table
    holds ``schema_version`` and ``judge_version``."""
    header = head(path, 100)
    if len(header) == 100 and header.startswith(b"SQLite format 3\0"):
        if int.from_bytes(header[68:72], "big") == APPLICATION_ID:
            return ""
        if int.from_bytes(header[68:72], "big") == 0 and _older_database(path):
            return ""
    return "it is not a database written by judge db"


def _older_database(path: Path) -> bool:
    from urllib.parse import quote

    try:
        con = sqlite3.connect(f"file:{quote(str(path))}?mode=ro", uri=True)
    except sqlite3.Error:
        return False
    try:
        keys = {row[0] for row in con.execute(
            "SELECT key FROM meta WHERE key IN ('schema_version', 'judge_version')")}
    except sqlite3.Error:
        return False
    finally:
        con.close()
    return keys == {"schema_version", "judge_version"}


#: The output of judge db (:mod:`judge.outputs`).
DATABASE = Kind("write the database to", folder=False, foreign=_foreign)


def claim_out(out: Path, root: Path, force: bool = False) -> Target:
    """Check that the database of the corpus at ``root`` may be written to ``out``."""
    return claim(out, DATABASE, force=force, inputs=corpus_inputs(root))


def build(corpus: Corpus, out: Path, force: bool = False) -> Summary:
    """Write the database of ``corpus`` to ``out`` atomically; returns the row counts.
    Raises :class:`~judge.outputs.OutputError` when ``out`` is not to be replaced."""
    if not corpus.replayed:
        raise DatabaseError("the database needs a corpus loaded with its replays")
    target = claim_out(Path(out), corpus.root, force)
    out = target.path
    clean_leftovers(out)
    # The descriptor stays open, locked, until the file is in place, so that a concurrent
    # build's clean-up leaves the file alone; it is closed only after SQLite's connection
    # (closing a descriptor of the file would drop SQLite's own POSIX locks). Where there are
    # no locks (Windows) it is closed at once: an open file can be neither replaced nor removed.
    fd, tmp, locked = temp_file(target)
    if not locked:
        os.close(fd)
    conn = sqlite3.connect(str(tmp))
    try:
        conn.execute("PRAGMA journal_mode = MEMORY")
        conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db = Database(conn)
        _create(db)
        _fill(db, corpus)
        conn.commit()
        problems = conn.execute("PRAGMA foreign_key_check").fetchall()
        if problems:
            raise DatabaseError(f"foreign keys do not hold: {problems[:5]}")
        counts = {t: int(conn.execute(f"SELECT count(*) FROM [{t}]").fetchone()[0])
                  for t in TABLES}
        # without a journal: VACUUM rewrites every page of the file, and a journal kept in
        # memory would hold the whole database (112 MB at 10,000 rulings); a VACUUM cut short
        # leaves only this temporary file broken, which is then removed
        conn.execute("PRAGMA journal_mode = OFF")
        conn.execute("VACUUM")
        conn.close()
        _sync(tmp)  # the bytes on disk before the name points at them
        os.replace(tmp, out)
        _sync(out.parent)
    except BaseException as exc:
        conn.close()
        tmp.unlink(missing_ok=True)
        if isinstance(exc, (OSError, sqlite3.Error)):
            raise DatabaseError(f"cannot write the database to {shown(out)}: {exc}") from None
        raise
    finally:
        if locked:
            os.close(fd)
    return Summary(out, counts, out.stat().st_size)


def _leftover_names(out: Path) -> re.Pattern[str]:
    """The temporary names :func:`build` gives beside ``out``
    (:func:`judge.outputs.temp_name`), and the journal SQLite could keep beside one."""
    return leftover_names(out, "tmp(?:-journal)?")


def clean_leftovers(out: Path) -> list[Path]:
    """Remove the temporary files of killed builds beside ``out``: regular files with
    :func:`build`'s temporary names only, and none that a running build holds. Returns them."""
    pattern = _leftover_names(out)
    removed = []
    try:
        entries = sorted(out.parent.iterdir())
    except OSError:
        return []
    for path in entries:
        if not pattern.fullmatch(path.name) or path.is_symlink() or not path.is_file():
            continue
        if busy(path):
            continue
        path.unlink(missing_ok=True)
        removed.append(path)
    return removed






def _sync(path: Path) -> None:
    """Flush a file's bytes, or a folder's entries (a rename), to disk where the system
    allows it."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _create(db: Database) -> None:
    for name, spec in TABLES.items():
        table = db.table(name)
        table.create(spec["columns"], pk=spec["pk"], foreign_keys=spec.get("fks", []),
                     not_null=[c for c in _not_null(name, spec)])
        for columns in spec.get("indexes", []):
            table.create_index(columns, index_name=f"idx_{name}_{'_'.join(columns)}")
        for columns in spec.get("unique", []):
            table.create_index(columns, index_name=f"uniq_{name}_{'_'.join(columns)}",
                               unique=True)


def _not_null(name: str, spec: dict[str, Any]) -> Iterator[str]:
    pk = spec["pk"]
    keys = (pk,) if isinstance(pk, str) else pk
    nullable = {"cards": {"ruling_id", "file", "level", "power", "limit", "lrig_type",
                          "card_class", "limiting"},
                "events": {"player", "card", "from_zone", "to_zone", "source"},
                "sources": {"date", "url", "seed", *(f"note_{_col(lang)}" for lang in LANGS)}}
    for column in spec["columns"]:
        if column in keys or (name in ("rulings", "ruling_texts", "sources", "events",
                                       "ruling_rulesets", "cards", "coverage",
                                       "source_sections", "ruling_sources")
                              and column not in nullable.get(name, set())):
            yield column


def _fill(db: Database, corpus: Corpus) -> None:
    order = {rs: i for i, rs in enumerate(corpus.rulesets)}
    table = _Tables(db)
    table("meta").insert_all([
        {"key": "schema_version", "value": SCHEMA_VERSION},
        {"key": "judge_version", "value": __version__},
        {"key": "corpus_fingerprint", "value": corpus.fingerprint},
    ])
    table("rulesets").insert_all(
        {"id": rs.id, "position": order[rs.id], "start": rs.start,
         **{f"title_{_col(lang)}": rs.title.get(lang, "") for lang in LANGS},
         **{f"summary_{_col(lang)}": rs.summary.get(lang, "") for lang in LANGS},
         "refresh_timing": rs.refresh_timing,
         "second_refresh_ends_turn": int(rs.second_refresh_ends_turn),
         "refresh_needs_trash": int(rs.refresh_needs_trash), "excess_order": rs.excess_order,
         "burst_count": rs.burst_count, "grow": rs.grow, "remove": rs.remove,
         "sources": _json(list(rs.sources))}
        for rs in corpus.rulesets.values())
    table("rule_kinds").insert_all({"id": k.id, "number": k.number, "source": k.source}
                                   for k in KIND_TABLE)
    table("sources").insert_all(
        {"id": d.id, "position": i, **{f"title_{_col(lang)}": d.title(lang) for lang in LANGS},
         "authority": d.authority, "date": d.date or None, "url": d.url or None,
         "seed": d.seed or None, **{f"note_{_col(lang)}": d.note.get(lang) for lang in LANGS}}
        for i, d in enumerate(corpus.sources.values()))
    table("source_sections").insert_all(
        {"source_id": d.id, "section": sec.id, "position": i,
         **{f"name_{_col(lang)}": sec.name(lang) for lang in LANGS}}
        for d in corpus.sources.values() for i, sec in enumerate(d.sections.values()))
    table("terms").insert_all(
        {"id": t.id, "position": i, **{f"name_{_col(lang)}": t.names.get(lang, "")
                                       for lang in LANGS},
         "aliases": _json(list(t.aliases)),
         **{f"definition_{_col(lang)}": t.definition.get(lang, "") for lang in LANGS}}
        for i, t in enumerate(corpus.glossary.values()))
    # The rulings are read once, in order of id, each with its replays, and every table
    # gets its rows in that order (a corpus loaded with ``stream`` holds one ruling at a
    # time); the rows wait in batches. Tables are filled side by side, but each one's rows
    # come in the order above, and VACUUM writes the file table by table: the same bytes.
    rows = _Batches(table)
    cards, keys = _library_cards(corpus)
    rows.add("cards", cards)
    tally = CoverageTally()
    tag_count: dict[str, int] = {}
    for r in corpus.rulings:
        table.paths[r.id] = r.path
        s = r.scenario
        for tag in s.tags:
            tag_count[tag] = tag_count.get(tag, 0) + 1
        rows.add("rulings", [_ruling_row(r, corpus)])
        rows.add("ruling_texts", ({"ruling_id": r.id, "lang": lang,
                                   **{f: r.text(f, lang, fallback=False) for f in TEXT_FIELDS}}
                                  for lang in r.languages))
        rows.add("ruling_sources", ({"ruling_id": r.id, "position": i, "source_id": c.source,
                                     "section": c.section} for i, c in enumerate(s.sources)))
        rows.add("ruling_tags", ({"ruling_id": r.id, "tag_id": t, "position": i}
                                 for i, t in enumerate(dict.fromkeys(s.tags))))
        rows.add("ruling_terms", ({"ruling_id": r.id, "term_id": t, "position": i}
                                  for i, t in enumerate(dict.fromkeys(s.terms))))
        rows.add("ruling_related", ({"ruling_id": r.id, "related_id": t, "position": i}
                                    for i, t in enumerate(dict.fromkeys(s.related))))
        inline, uses = _ruling_cards(r, corpus, keys)
        rows.add("cards", inline)
        rows.add("ruling_cards", uses)
        replays = _replays(r, order)
        rows.add("ruling_rulesets", (
            {"ruling_id": r.id, "ruleset_id": rs, "position": order[rs],
             "branches": len(rep.traces), "cut": int(rep.cut),
             "events": sum(len(t.events) for t in rep.traces),
             "problems": _json(list(rep.traces[0].problems if rep.traces else ()))}
            for rs, rep in replays))
        rows.add("events", (_event_row(r.id, rs, b, e) for rs, rep in replays
                            for b, trace in enumerate(rep.traces) for e in trace.events))
        tally.add(r)
    rows.flush()
    table("tags").insert_all({"id": t, "rulings": n} for t, n in sorted(tag_count.items()))
    cov = tally.result(corpus)
    positions = {cat: 0 for cat, _ in CATEGORIES}
    coverage = []
    for row in cov.rows:
        coverage.append({"category": row.category, "item": row.item,
                     "position": positions[row.category], "label": row.label,
                     "rulings": row.count, "from_events": len(row.from_events),
                     "from_terms": len(row.from_terms), "differs": len(row.differs),
                     "ruling_ids": _json(list(row.rulings))})
        positions[row.category] += 1
    table("coverage").insert_all(coverage)


#: The whole numbers an SQLite INTEGER holds (a larger Python int cannot be bound).
INT_MIN, INT_MAX = -(2**63), 2**63 - 1


class _Tables:
    """``tables(name).insert_all(rows)``, as ``db.table(name).insert_all(rows)``, but first
    checking that every whole number fits SQLite: one that does not is a
    :class:`DatabaseError` naming the file and field it comes from (instead of sqlite3's
    OverflowError)."""

    def __init__(self, db: Database) -> None:
        self.db = db
        #: each ruling's file by id, for the messages: filled as the rulings are read
        self.paths: dict[str, str] = {}

    def __call__(self, table: str) -> _Table:
        return _Table(self, table)

    def checked(self, table: str, rows: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for row in rows:
            for column, value in row.items():
                if isinstance(value, int) and not INT_MIN <= value <= INT_MAX:
                    raise DatabaseError(
                        f"{self.where(table, row, column)} = {_number(value)} does not fit in "
                        f"the database (SQLite stores whole numbers from -2**63 to 2**63-1)")
            yield row

    def where(self, table: str, row: dict[str, Any], column: str) -> str:
        """``FILE: FIELD`` of a value: the ruling file (or card library file) and its field."""
        if table == "rulings":
            return f"{row['path']}: {column}"
        if table == "cards":
            card = row["card_id"]
            if row.get("ruling_id") is not None:
                return f"{self.paths.get(row['ruling_id'], row['ruling_id'])}: " \
                       f"cards.{card}.{column}"
            file = f"data/{row['file']}" if row.get("file") else "the card library"
            return f"{file}: {card}.{column}"
        ruling = row.get("ruling_id")
        if isinstance(ruling, str):
            return f"{self.paths.get(ruling, ruling)}: {table}.{column}"
        return f"{table}.{column}"


@dataclass(frozen=True)
class _Table:
    """One table of :class:`_Tables`."""

    tables: _Tables
    name: str

    def insert_all(self, rows: Iterable[dict[str, Any]], batch_size: int = 100) -> None:
        self.tables.db.table(self.name).insert_all(
            self.tables.checked(self.name, rows), batch_size=batch_size)


def _number(value: int) -> str:
    """A whole number for a message: in full unless it is huge (str() of an int of more than
    4,300 digits raises)."""
    if value.bit_length() <= 256:
        return str(value)
    digits = int(value.bit_length() * 0.30103) + 1
    return f"a {'negative ' if value < 0 else ''}number of about {digits} digits"


def _replays(ruling: Ruling, order: dict[str, int]) -> list[tuple[str, Replay]]:
    """The ruling's replays (the traces of each rule set), rule sets in date order."""
    return sorted(ruling.replays.items(), key=lambda kv: order.get(kv[0], len(order)))


def _ruling_row(ruling: Ruling, corpus: Corpus) -> dict[str, Any]:
    s = ruling.scenario
    return {"id": ruling.id, "title": ruling.title("en"), "path": ruling.path,
            "topic": ruling.topic, "languages": ",".join(ruling.languages),
            "steps": len(s.steps), "explore_limit": s.explore_limit,
            "related": _json(list(s.related)),
            "official": int(rests_on_official(s.sources, corpus.sources)),
            "interpretations": sum(len(MARK_RE.findall(t)) for t in
                                   (texts.get("ja", "") for texts in s.texts.values()))}


def _event_row(ruling: str, rules: str, branch: int, e: Event) -> dict[str, Any]:
    return {"ruling_id": ruling, "ruleset_id": rules, "branch": branch, "step": e.step,
            "seq": e.seq, "type": e.type, "cause": e.cause, "player": e.player,
            "card": e.card, "from_zone": _text(e.from_zone), "to_zone": _text(e.to_zone),
            "source": _text(e.source), "detail": _json(e.detail())}


def _text(value: object | None) -> str | None:
    """A zone or an ability in its text form (``p1.trash``, ``S1#0``), as the JSON form."""
    return None if value is None else str(value)


def _card_row(card: CardDef, ruling: str | None, file: str | None) -> dict[str, Any]:
    return {"card_id": card.id, "ruling_id": ruling, "file": file, "name": card.name,
            **{f"name_{_col(lang)}": card.names.get(lang, "") for lang in LANGS},
            "type": card.type, "colour": ",".join(card.colour), "level": card.level,
            "power": card.power, "limit": card.limit, "lrig_type": card.lrig_type,
            "card_class": card.card_class, "limiting": card.limiting,
            "guard": int(card.guard), "life_burst": int(card.has_burst),
            "keywords": _json(list(card.keywords)),
            "definition": _json(dataclasses.asdict(card))}


def _library_cards(corpus: Corpus) -> tuple[list[dict[str, Any]],
                                             dict[tuple[str, str | None], int]]:
    """The rows of the card library (ids from 1, cards in order of id) and the id of each
    card by (card id, None); a ruling's own cards come after them (:func:`_ruling_cards`)."""
    rows: list[dict[str, Any]] = []
    keys: dict[tuple[str, str | None], int] = {}
    for card_id in sorted(corpus.cards):
        keys[(card_id, None)] = len(keys) + 1
        rows.append({"id": len(keys),
                     **_card_row(corpus.cards[card_id], None,
                                 corpus.card_files.get(card_id) or None)})
    return rows, keys


def _ruling_cards(ruling: Ruling, corpus: Corpus, keys: dict[tuple[str, str | None], int]
                  ) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """The rows of the cards ``ruling`` defines itself (numbered on from ``keys``, which
    learns them) and of the cards it uses."""
    inline = corpus.inline_cards(ruling)
    rows: list[dict[str, Any]] = []
    for card_id in sorted(inline):
        keys[(card_id, ruling.id)] = len(keys) + 1
        rows.append({"id": len(keys), **_card_row(inline[card_id], ruling.id, None)})
    uses = [{"ruling_id": ruling.id,
             "card": keys[(card_id, ruling.id) if card_id in inline else (card_id, None)]}
            for card_id in sorted(ruling.scenario.cards)]
    return rows, uses


class _Batches:
    """Rows waiting to be inserted, table by table, each table's in the order they came."""

    SIZE = 2000

    def __init__(self, tables: _Tables) -> None:
        self.tables = tables
        self.waiting: dict[str, list[dict[str, Any]]] = {}

    def add(self, table: str, rows: Iterable[dict[str, Any]]) -> None:
        batch = self.waiting.setdefault(table, [])
        batch.extend(rows)
        if len(batch) >= self.SIZE:
            self.tables(table).insert_all(batch, batch_size=self.SIZE)
            batch.clear()

    def flush(self) -> None:
        for table, batch in self.waiting.items():
            self.tables(table).insert_all(batch, batch_size=self.SIZE)
            batch.clear()
