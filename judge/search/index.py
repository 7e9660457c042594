"""The index of ``judge search`` on disk: one SQLite file with an FTS5 table, and its stamp.

``build/search/`` under the corpus root holds ``index.sqlite`` and ``stamp.json``:

- ``docs``: one row per result (ruling, glossary term, kind of rule processing, rule change)
  with what is shown of it (titles and bodies in every language, rule sets, tags, path), in
  id order within each kind; the row id is the FTS5 row id.
- ``fts``: an FTS5 table (contentless: the texts live in ``docs``) whose columns hold the
  tokens of :func:`judge.search.analysis.index_tokens`, separated by spaces, which FTS5's
  ``ascii`` tokenizer only splits again: ``title``, ``question``, ``answer``,
  ``explanation``, ``keywords`` (tags, the names of the terms a ruling lists, aliases) and
  ``meta`` (``kind_ruling``, ``tag_refresh``, ``rules_2014_07``, ``term_trash``,
  ``id_refresh_steps``: the filters). A prefix index of one character serves the searches
  for one CJK character.
- ``vocab``: every English word of the corpus (British spelling, not stemmed) with its token
  and the number of results it is in, for typo correction; ``deletion``: each word with some
  of its letters left out (as many as a typo of its length may differ by), by which the
  words a typo may be are looked up.
- ``meta``: the index version, the corpus fingerprint, the glossary's lookup tables (so that a
  search never reads the TOML), the rule set ids and the Han characters only the Japanese or
  only the Chinese texts use (to tell a Japanese query from a Chinese one).

``stamp.json`` repeats the version and the fingerprint and holds each index file's size,
modification time and SHA-256: a file whose size or time changed is hashed again, and one
whose hash changed is damaged. A new index is built in a temporary folder beside the old one
(``.search.XXXXXXXX.tmp``), which it replaces only when complete, in one step where the system
can exchange two folders. It replaces only a folder that holds nothing but these files (or an
empty one), or anything with ``--force``; never the rulings or a working copy
(:mod:`judge.outputs`). What a killed rebuild left beside the folder, the next one removes.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import sqlite3
import time
from array import array
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from functools import lru_cache
from pathlib import Path
from typing import Any

from judge.langs import LANGS
from judge.outputs import (
    Kind,
    claim,
    corpus_inputs,
    failed,
    leftovers,
    only_files,
    remove,
    replace_folder,
    temp_folder,
)
from judge.paths import data_dir
from judge.search.analysis import deletions, fold, index_tokens, latin_token, latin_words
from judge.search.definition import definition
from judge.search.documents import SearchDoc
from judge.search.plan import meta_token
from judge.search.query import Glossary, glossary_han_pairs

#: Bump when the schema, the analysis or the documents change: the stamp then no longer
#: matches and the index is rebuilt.
INDEX_VERSION = "8"
DB = "index.sqlite"
STAMP = "stamp.json"
#: The stamp being rewritten (see :func:`_remember`).
STAMP_SPARE = "stamp.json.tmp"
COLUMNS: tuple[str, ...] = tuple(definition()["ranking"]["columns"])
#: The output of judge search (:mod:`judge.outputs`): a folder of the index's own files.
SEARCH_INDEX = Kind("write the search index into", folder=True, foreign=only_files(
    (DB, STAMP, STAMP_SPARE, f"{DB}-journal", f"{DB}-wal", f"{DB}-shm"), "judge search"))


def index_dir(root: Path) -> Path:
    return root / "build" / "search"


# ---------------------------------------------------------------------- the corpus


def input_files(root: Path) -> list[Path]:
    """Every file an index of the corpus at ``root`` is made from: the rulings, the glossary,
    the rule sets, the cards, the message catalogues (the names of the kinds of rule
    processing) and the search's own code that decides what the index holds (its analysis,
    glossary tables, documents and schema), so that changing any of them rebuilds it."""
    return [Path(name) for name in input_names(root)]


def input_names(root: Path) -> list[str]:
    """:func:`input_files` as strings: a search checks them all before it answers, and at
    10,000 rulings making a ``Path`` of each costs more than looking at the files."""
    names: list[str] = []
    _walk_rulings(os.path.join(root, "rulings"), names, None)
    return names + _other_inputs()


def _walk_rulings(folder: str, names: list[str], stats: array[int] | None) -> None:
    """Append the ``.toml`` files under ``folder`` to ``names`` (sub-folders first, each in
    name order, as :func:`os.walk` with sorted names gives them; a symbolic link to a folder
    is not followed) and, when ``stats`` is given, each one's size and modification time (-1
    and 0 for one that cannot be looked at). The folder is opened once and its files are
    looked at relative to it, so the system does not resolve the whole path of each. With
    ``stats``, ``names`` gets each folder's path followed by a separator, then its files' bare
    names (the manifest's digest needs no joined path for each of 10,000 files)."""
    try:
        handle = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    except OSError:
        return
    try:
        with os.scandir(handle) as listing:
            entries = sorted(listing, key=_name)
        subfolders: list[str] = []
        files: list[os.DirEntry[str]] = []
        for entry in entries:
            try:
                is_dir = entry.is_dir()
            except OSError:
                is_dir = False
            if is_dir:
                if not entry.is_symlink():
                    subfolders.append(entry.name)
            elif entry.name.endswith(".toml"):
                files.append(entry)
        if stats is None:
            names += [os.path.join(folder, entry.name) for entry in files]
        else:
            names.append(folder + os.sep)
            names += [entry.name for entry in files]
            for entry in files:
                try:
                    info = entry.stat()
                    stats.append(info.st_size)
                    stats.append(info.st_mtime_ns)
                except OSError:
                    stats.append(-1)
                    stats.append(0)
    finally:
        os.close(handle)
    for sub in subfolders:
        _walk_rulings(os.path.join(folder, sub), names, stats)


def _name(entry: os.DirEntry[str]) -> str:
    return entry.name


def _other_inputs() -> list[str]:
    """The input files that are not rulings (:func:`input_files`): a few dozen."""
    names: list[str] = []
    data = data_dir()
    names += [str(p) for p in (data / "glossary.toml", data / "rulesets.toml",
                               data / "sources.toml") if p.is_file()]
    if (data / "cards").is_dir():
        names += [str(p) for p in sorted((data / "cards").glob("*.toml"))]
    package = Path(__file__).resolve().parent.parent
    names += [str(p) for p in sorted((package / "locale").glob("*/LC_MESSAGES/*.po"))]
    here = Path(__file__).resolve().parent
    names += [str(here / name) for name in ("analysis.py", "query.py", "plan.py",
                                            "documents.py", "index.py", "definition.toml")]
    names.append(str(package / "sources.py"))  # the marks the documents strip, the official test
    return names


#: Nanoseconds: an input file changed this close to (or after) the last check is read again,
#: whatever its size and time say (two writes within one tick of the clock look alike).
RACY_NS = 2_000_000_000


def inputs_manifest(root: Path) -> dict[str, Any]:
    """What tells whether the index is current without reading the corpus: a digest of each
    input file's name, size and modification time (:func:`input_files`; a file that cannot
    be looked at counts as size -1), how many there are, and the newest time. A file added,
    removed, renamed, resized or touched changes the digest; so does one edited in place,
    whose time changes even when its size does not. The stamp keeps these three values, not
    a line per file: at 10,000 rulings reading a list of them back would cost a search more
    than looking at the files.

    Each ruling costs one ``stat`` relative to its open folder, and the digest is taken over
    all names at once and all numbers at once, not file by file (docs/search.md has the
    figures). A folder's own time is not enough: editing a file in place leaves it as it
    was, so every file is looked at."""
    names: list[str] = []
    stats: array[int] = array("q")
    _walk_rulings(os.path.join(root, "rulings"), names, stats)
    for name in _other_inputs():
        names.append(name)
        try:
            info = os.stat(name)
            stats.append(info.st_size)
            stats.append(info.st_mtime_ns)
        except OSError:
            stats.append(-1)
            stats.append(0)
    digest = hashlib.sha256("\0".join(names).encode("utf-8", "surrogateescape"))
    digest.update(b"\n")
    digest.update(stats.tobytes())
    return {"digest": digest.hexdigest(), "files": len(stats) // 2,
            "newest": max(stats[1::2], default=0)}


def fingerprint(root: Path) -> str:
    """A hash of the index version and of every input file's name and bytes."""
    digest = hashlib.sha256(f"wixoss-judge search index {INDEX_VERSION}\n".encode())
    for path in input_files(root):
        try:
            body = path.read_bytes()
        except OSError:
            body = b"\0unreadable"
        digest.update(f"{path.name}\0{path.parent.name}\0{len(body)}\0".encode(
            "utf-8", "surrogateescape"))  # a name that is not UTF-8: the loader refuses it
        digest.update(body)
    return digest.hexdigest()


# ---------------------------------------------------------------------- building


def _tokens(texts: Iterable[str]) -> list[str]:
    return [token for text in texts if text for token in index_tokens(text)]


def _by_lang(texts: Any) -> list[str]:
    return [texts[lang] for lang in LANGS if texts.get(lang)]


def doc_columns(doc: SearchDoc) -> list[list[str]]:
    """The tokens of each column (:data:`COLUMNS`) of a document, in order, as both indexes
    hold them: the FTS5 table of ``judge search`` and the site's index files
    (:mod:`judge.search.static`). A token's position in its column is its index here."""
    meta = [meta_token("kind", doc.kind), meta_token("id", doc.id)]
    meta += [meta_token("tag", t) for t in doc.tags]
    meta += [meta_token("rules", r) for r in doc.rules]
    meta += [meta_token("term", t) for t in doc.terms]
    meta += [meta_token("basis", doc.basis)] if doc.basis else []
    return [_tokens(_by_lang(doc.titles)), _tokens(_by_lang(doc.questions)),
            _tokens(_by_lang(doc.bodies)), _tokens(_by_lang(doc.explanations)),
            _tokens([doc.keywords]), meta]


def han_pairs(glossary: Glossary, held: Mapping[str, int]) -> list[list[Any]]:
    """The pairs of Han characters written inside the glossary's names and aliases
    (:func:`judge.search.query.glossary_han_pairs`) that results hold, each with the number
    of results holding it (``held``: a token's count), in code-point order: what a misspelt
    pair of a query may be corrected to (``[typos] han`` of the definition). Both indexes
    keep the same list."""
    return [[pair, held[pair]] for pair in glossary_han_pairs(glossary) if held.get(pair)]


def doc_words(doc: SearchDoc) -> set[str]:
    """The English words of a document (British spelling, not stemmed): the vocabulary of
    typo correction."""
    texts = [*_by_lang(doc.titles), *_by_lang(doc.bodies), *_by_lang(doc.questions),
             *_by_lang(doc.explanations), doc.keywords]
    return {w for t in texts for w in latin_words(t)}


@lru_cache(maxsize=1)
def _han() -> re.Pattern[str]:
    """A Han character (the blocks :func:`charsets` tells the languages by); compiled when
    an index is built, not when a search imports this module."""
    return re.compile("[\u3400-\u9fff\uf900-\ufaff]")


def charsets(docs: Sequence[SearchDoc]) -> dict[str, str]:
    """The Han characters only the Japanese texts use, and only the Chinese ones."""
    seen: dict[str, set[str]] = {"ja": set(), "zh-Hans": set()}
    han = _han()
    for doc in docs:
        for lang in seen:
            for texts in (doc.titles, doc.bodies, doc.questions, doc.explanations):
                seen[lang].update(han.findall(fold(texts.get(lang, ""))))
    return {"ja": "".join(sorted(seen["ja"] - seen["zh-Hans"])),
            "zh-Hans": "".join(sorted(seen["zh-Hans"] - seen["ja"]))}


def build_index(docs: Iterable[SearchDoc], folder: Path, *, corpus: str = "",
                glossary: Iterable[Any] | Glossary | None = None,
                rulesets: Sequence[str] | None = None, force: bool = False,
                reads: Iterable[Path] = (), roots: Iterable[Path] = (),
                inputs: dict[str, Any] | None = None) -> int:
    """Index ``docs`` into ``folder``, replacing what is there only once the new index is
    complete. ``corpus`` is the fingerprint written to the stamp; ``glossary`` (terms, or a
    :class:`Glossary`) and ``rulesets`` (ids) default to the project's data. ``force``,
    ``reads`` (what the index is made from) and ``roots`` (the corpus): see
    :func:`judge.outputs.claim`; ``inputs``: the digest of the sizes and times of the files
    it is made from (:func:`inputs_manifest`, taken before they were read). Returns the number of
    documents."""
    target = claim(folder, SEARCH_INDEX, force=force, inputs=reads, roots=roots)
    if glossary is None:
        from judge.corpus import load_glossary

        glossary = load_glossary().values()
    if rulesets is None:
        from judge.errors import DataError
        from judge.tomlfile import read_toml

        raw, _ = read_toml(data_dir() / "rulesets.toml", error=DataError)
        rulesets = [str(r["id"]) for r in raw.get("ruleset", [])]
    glossary = glossary if isinstance(glossary, Glossary) else Glossary(glossary)
    docs = list(docs)
    for stale in leftovers(target.path, "tmp|old", folders=True):
        remove(stale)
    tmp, lock = temp_folder(target)
    try:
        _write(tmp / DB, docs, glossary, list(rulesets), corpus)
        stamp = {"version": INDEX_VERSION, "corpus": corpus, "docs": len(docs),
                 "files": _file_hashes(tmp), "stat": _file_stats(tmp),
                 "inputs": inputs or {}, "checked": time.time_ns()}
        (tmp / STAMP).write_text(json.dumps(stamp, indent=1, sort_keys=True) + "\n",
                                 encoding="utf-8")
        replace_folder(tmp, target)
        return len(docs)
    except OSError as exc:
        remove(tmp)
        raise failed(target, exc) from None
    except BaseException:
        remove(tmp)
        raise
    finally:
        if lock is not None:
            os.close(lock)


def _write(path: Path, docs: list[SearchDoc], glossary: Glossary, rulesets: list[str],
           corpus: str) -> None:
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA journal_mode = OFF")
        con.execute("PRAGMA synchronous = OFF")
        con.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
        con.execute("CREATE TABLE docs (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, "
                    "kind TEXT NOT NULL, path TEXT NOT NULL, rules TEXT NOT NULL, "
                    "tags TEXT NOT NULL, terms TEXT NOT NULL, label TEXT NOT NULL, "
                    "titles TEXT NOT NULL, bodies TEXT NOT NULL)")
        try:
            con.execute(f"CREATE VIRTUAL TABLE fts USING fts5({', '.join(COLUMNS)}, "
                        "content='', tokenize=\"ascii tokenchars '_'\", prefix='1', "
                        "detail=full)")
        except sqlite3.OperationalError as exc:
            from judge.search.engine import SearchError

            raise SearchError(f"this Python's SQLite has no FTS5 ({exc})") from exc
        con.execute("CREATE TABLE vocab (word TEXT PRIMARY KEY, token TEXT NOT NULL, "
                    "docs INTEGER NOT NULL) WITHOUT ROWID")
        df: Counter[str] = Counter()
        held: Counter[str] = Counter()
        rows, fts = [], []
        for rowid, doc in enumerate(docs, 1):
            df.update(doc_words(doc))
            columns = doc_columns(doc)
            held.update({token for tokens in columns for token in tokens})
            rows.append((rowid, doc.id, doc.kind, doc.path, ",".join(doc.rules),
                         ",".join(doc.tags), ",".join(doc.terms), doc.label,
                         json.dumps(dict(doc.titles), ensure_ascii=False),
                         json.dumps(dict(doc.bodies), ensure_ascii=False)))
            fts.append((rowid, *(" ".join(tokens) for tokens in columns)))
        con.executemany("INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        con.executemany(f"INSERT INTO fts (rowid, {', '.join(COLUMNS)}) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?)", fts)
        con.execute("INSERT INTO fts (fts) VALUES ('optimize')")
        con.executemany("INSERT INTO vocab VALUES (?, ?, ?)",
                        ((w, latin_token(w), n) for w, n in sorted(df.items())))
        con.execute("CREATE INDEX vocab_token ON vocab (token)")
        # each word's deletions (analysis.deletions), up to the most edits a typo of its
        # length may be from it: what typo correction looks its candidates up by
        edits = definition()["typos"]["edits"]
        shortest = definition()["typos"]["min_length"] - edits[0]
        con.execute("CREATE TABLE deletion (variant TEXT NOT NULL, word TEXT NOT NULL)")
        con.executemany("INSERT INTO deletion VALUES (?, ?)", (
            (variant, word) for word in sorted(df) if len(word) >= shortest
            for variant in sorted(deletions(word, edits[1] if len(word) >= definition()[
                "typos"]["long"] - edits[1] else edits[0]))))
        con.execute("CREATE INDEX deletion_variant ON deletion (variant)")
        meta_rows = {"version": INDEX_VERSION, "corpus": corpus,
                     "glossary": json.dumps(glossary.data(), ensure_ascii=False),
                     "rulesets": json.dumps(rulesets),
                     "charsets": json.dumps(charsets(docs), ensure_ascii=False),
                     "han_pairs": json.dumps(han_pairs(glossary, held), ensure_ascii=False)}
        con.executemany("INSERT INTO meta VALUES (?, ?)", sorted(meta_rows.items()))
        con.commit()
    finally:
        con.close()


# ---------------------------------------------------------------------- stamps


def _file_hashes(folder: Path) -> dict[str, str]:
    out: dict[str, str] = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.name != STAMP:
            out[path.name] = hashlib.sha256(path.read_bytes()).hexdigest()
    return out


def _file_stats(folder: Path) -> dict[str, list[int]]:
    out: dict[str, list[int]] = {}
    for path in sorted(folder.iterdir()):
        if path.is_file() and path.name != STAMP:
            info = path.stat()
            out[path.name] = [info.st_size, info.st_mtime_ns]
    return out


def stamp_problem(folder: Path, corpus: str) -> str:
    """Why the index in ``folder`` cannot be used for the corpus with fingerprint ``corpus``
    (empty when it can)."""
    if not folder.is_dir():
        return "no index yet"
    try:
        stamp = json.loads((folder / STAMP).read_text(encoding="utf-8"))
        files = dict(stamp["files"])
        stats = dict(stamp.get("stat", {}))
        version, built_for = stamp["version"], stamp["corpus"]
    except (OSError, ValueError, KeyError, TypeError):
        return "the index stamp is missing or unreadable"
    if version != INDEX_VERSION:
        return "the index was built by another version"
    if built_for != corpus:
        return "the corpus changed"
    present = sorted(p.name for p in folder.iterdir() if p.is_file() and p.name != STAMP)
    if present != sorted(files):
        return "the index files are damaged"
    if _file_stats(folder) != stats and _file_hashes(folder) != files:
        return "the index files are damaged"
    return ""


def _unchanged(folder: Path, seen: dict[str, Any]) -> bool:
    """Whether the index in ``folder`` is current by its stamp alone: the same index version,
    the same input files of the same sizes and times as when the stamp was last checked (and
    older than that by :data:`RACY_NS`), every index file of the size and time recorded."""
    try:
        stamp = json.loads((folder / STAMP).read_text(encoding="utf-8"))
        if stamp["version"] != INDEX_VERSION or stamp.get("inputs") != seen:
            return False
        checked = int(stamp["checked"])
        stats = dict(stamp["stat"])
    except (OSError, ValueError, KeyError, TypeError):
        return False
    if int(seen["newest"]) >= checked - RACY_NS:
        return False
    try:
        return _file_stats(folder) == stats and sorted(stats) == sorted(stamp["files"])
    except OSError:
        return False


def _remember(folder: Path, seen: dict[str, Any]) -> None:
    """Record in the stamp that the inputs, as ``seen``, were checked to be the index's (the
    files were touched, not changed), so that the next search need not read them, and the
    index files' sizes and times as they are now (their hashes were just found to match: a
    copied or touched index is hashed once, not at every search). Best effort: a stamp that
    cannot be written is checked by reading the corpus next time."""
    path = folder / STAMP
    try:
        stamp = json.loads(path.read_text(encoding="utf-8"))
        stamp["inputs"], stamp["checked"] = seen, time.time_ns()
        stamp["stat"] = _file_stats(folder)
        spare = folder / STAMP_SPARE
        # another search writing it at the same moment: that one records it
        handle = os.open(spare, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            out.write(json.dumps(stamp, indent=1, sort_keys=True) + "\n")
        os.replace(spare, path)
    except (OSError, ValueError):
        return


def ensure_index(root: Path, folder: Path | None = None, *, rebuild: bool = False,
                 force: bool = False) -> str:
    """Make sure ``folder`` (default ``root/build/search``) holds a usable index of the corpus
    at ``root``; rebuild it if not (replacing a folder that is not an index only with
    ``force``). Returns why it was rebuilt, or an empty string.

    Whether the index is current is told first from the sizes and times of the files it is
    made from (a manifest in its stamp): when none changed, nothing is read. Otherwise their
    contents are hashed (:func:`fingerprint`): files touched but not changed only refresh the
    manifest; anything else rebuilds the index."""
    from judge.search.documents import corpus_documents

    folder = folder or index_dir(root)
    seen = inputs_manifest(root)
    if not rebuild and _unchanged(folder, seen):
        return ""
    current = fingerprint(root)
    problem = "rebuild requested" if rebuild else stamp_problem(folder, current)
    if not problem:
        _remember(folder, seen)
        return ""
    # before the corpus is read: a folder that is not to be replaced fails at once
    claim(folder, SEARCH_INDEX, force=force, inputs=corpus_inputs(root), roots=[root])
    docs, terms, rulesets = corpus_documents(root)
    build_index(docs, folder, corpus=current, glossary=terms, rulesets=rulesets,
                force=force, reads=corpus_inputs(root), roots=[root], inputs=seen)
    return problem
