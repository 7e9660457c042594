"""The site's search index: static files written from the same analysed tokens as ``judge
search``'s FTS5 index, so that the browser ranks exactly as the CLI does.

``judge build`` calls :func:`write_index` with the corpus's documents
(:func:`judge.search.documents.documents`); the site's search page
(``site_templates/assets/search.js`` with ``search-engine.js``) reads the files. Each is JSON,
gzip-compressed (``.json.gz``, the same bytes for the same input; the page decompresses them
itself, so any static host serves them):

- ``meta.json.gz``: what every search needs: the definition (``definition.toml``), the
  glossary's names and aliases as :class:`~judge.search.query.Glossary` stores them, the
  rule sets, the Han characters only Japanese or only Chinese texts use, the number of results
  and of tokens (BM25's average length), the number of shards, the kinds of result by row
  (the rows are those of the FTS5 index, in the same order) and each glossary term's main
  ruling and entry by row.
- ``s/<n>.json.gz``: shard ``n`` of the postings: for each token whose FNV-1a hash (32 bits,
  over its UTF-16 code units) is ``n`` modulo the number of shards, its posting list, a flat
  list of integers: for each result holding it, by row: the row's distance from the previous
  one, the result's length in tokens (every column), how many columns hold it, then for each
  such column its number (:data:`judge.search.index.COLUMNS`), how many times, and the
  distance of each position from the previous one. A list longer than :data:`BIG` numbers is
  written to ``b/<name>.json.gz`` and the shard holds ``{"f": "b/<name>.json"}``. Besides the
  tokens, ``X*`` for each CJK character ``X``: where any token that starts with ``X`` is, which
  FTS5 finds with its prefix index (``"X" *``).
- ``vocab.json.gz``: every English word of the corpus with the number of results holding it,
  for typo correction (fetched only when a query has a word no result holds);
  ``ids.json.gz``: the ``meta`` token of each row's id (``id:refresh-*`` queries).
- ``<lang>/<block>.json.gz``: what a result shows in that language (its title, its answer,
  rule sets, basis, label and address), for :data:`BLOCK` consecutive rows (row ``r`` is item
  ``(r - 1) % BLOCK`` of block ``(r - 1) // BLOCK``, in hexadecimal), fetched only for the
  results drawn; and ``<lang>/facets.json.gz``: the values of the page's filters with their
  names and counts.

The number of shards is a power of two chosen so that a shard holds about
:data:`SHARD_NUMBERS` numbers, at most :data:`MAX_SHARDS`: a first search fetches the meta
file and one shard per token of the query.
"""

from __future__ import annotations

import gzip
import json
from array import array
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from operator import sub
from pathlib import Path
from typing import Any

from judge.langs import LANGS
from judge.search.analysis import PREFIX, RUN_END, is_cjk
from judge.search.definition import definition
from judge.search.documents import SearchDoc
from judge.search.index import COLUMNS, charsets, doc_columns, doc_words, han_pairs
from judge.search.plan import META, meta_token
from judge.search.query import Glossary

#: The folder of the index in a built site.
FOLDER = "search-index"
#: Bumped when the files' format changes (the page checks it).
FORMAT = 2
#: Numbers in a shard, about (the shard count is the power of two nearest the total / this):
#: a shard of the corpus is then about 3.5 KB compressed, and a first search fetches one per
#: token of its query.
SHARD_NUMBERS = 3000
#: At most this many shards: a larger index has larger shards (a first search of 10,000
#: rulings still fetches a few kilobytes a token), and the service worker that keeps the
#: index for offline use fetches fewer files.
MAX_SHARDS = 2048
#: What results show is in files of this many consecutive rows (a first search fetches the
#: blocks of the ten results drawn; fewer files to keep offline).
BLOCK = 8
#: Files of more bytes than this (before compression) are compressed faster and a little less.
LARGE = 65536
#: A posting list of more numbers than this goes to a file of its own.
BIG = 20000
#: Where a result leads, under the language's home, by kind (``{id}``: the id without its
#: kind's prefix).
ADDRESSES = {"ruling": "rulings/{id}/", "term": "glossary/#t-{id}",
             "processing": "processing/#kind-{id}", "change": "timeline/#rs-{id}"}
_META_COLUMN = COLUMNS.index(META)


@dataclass
class IndexReport:
    docs: int = 0
    tokens: int = 0
    shards: int = 0
    files: int = 0
    bytes: int = 0
    by_kind: dict[str, int] = field(default_factory=dict)  # bytes by kind of file


def fnv(token: str) -> int:
    """FNV-1a (32 bits) of the UTF-16 code units of ``token`` (low byte first), as
    ``search-engine.js`` computes it."""
    h = 0x811C9DC5
    for byte in token.encode("utf-16-le"):
        h ^= byte
        h = (h * 0x01000193) & 0xFFFFFFFF
    return h


def _json(data: Any) -> str:
    """``data`` in JSON, its keys sorted, without spaces; a posting list (an array of
    numbers, see :func:`_postings`) as a list. A shard's lists, millions of numbers, are
    written here: a 16-bit number as the string of a table (:func:`_numerals`), not as the
    encoder writes each int (the same characters, in half the time)."""
    if isinstance(data, array):
        numerals = map(_numerals().__getitem__, data) if data.typecode == "H" else map(str, data)
        return "[" + ",".join(numerals) + "]"
    if isinstance(data, dict) and any(isinstance(value, array) for value in data.values()):
        return "{" + ",".join(f"{_json(key)}:{_json(value)}"
                              for key, value in sorted(data.items())) + "}"
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


@lru_cache(maxsize=1)
def _numerals() -> list[str]:
    """The decimal strings of the 16-bit numbers, by number."""
    return [str(n) for n in range(0x10000)]


def _gz(data: Any) -> bytes:
    raw = _json(data).encode()
    # the smallest files for what a first search fetches; long lists (common words' files of
    # their own) faster, 5% larger
    return gzip.compress(raw, compresslevel=9 if len(raw) < LARGE else 6, mtime=0)


def _postings(docs: Sequence[SearchDoc]
              ) -> tuple[dict[str, array[int]], int, list[str], dict[str, int]]:
    """Every token's posting list (see the module), the number of tokens of every result,
    the ``meta`` id token of each row, and the number of results holding each token. One
    pass: the rows come in order, so each result's entry is appended to the lists of the
    tokens it holds. A list is an array of 16-bit numbers (distances, counts and positions,
    nearly all small), made 32-bit when a number does not fit (:func:`_add`): a sixth of a
    Python list's memory, which at 10,000 rulings (52 million numbers) was the largest part
    of the site build's."""
    out: dict[str, array[int]] = {}
    held: Counter[str] = Counter()
    last: dict[str, int] = {}
    ids: list[str] = []
    total = 0
    starts: dict[str, str] = {}  # a token's start token ("X*"), or "" (not CJK), by token
    for rowid, doc in enumerate(docs, 1):
        columns = doc_columns(doc)
        length = sum(map(len, columns))
        total += length
        ids.append(meta_token("id", doc.id))
        here: dict[str, dict[int, list[int]]] = {}
        for col, tokens in enumerate(columns):
            places: dict[str, list[int]] = {}  # positions ascending, by token
            for pos, token in enumerate(tokens):
                found = places.get(token)
                if found is None:
                    places[token] = [pos]
                else:
                    found.append(pos)
            if col != _META_COLUMN:
                # the start of a token: what FTS5's "X" * finds, wherever a token starts
                # with X (no token holds a *, so these are tokens of their own)
                begun: dict[str, list[int]] = {}
                for token, positions in places.items():
                    start = starts.get(token)
                    if start is None:
                        start = starts[token] = token[0] + PREFIX if is_cjk(token[0]) else ""
                    if start:
                        found = begun.get(start)
                        if found is None:
                            begun[start] = positions.copy()
                        else:
                            found += positions
                for positions in begun.values():
                    positions.sort()
                places.update(begun)
            for token, positions in places.items():  # columns in order
                found_cols = here.get(token)
                if found_cols is None:
                    here[token] = {col: positions}
                else:
                    found_cols[col] = positions
        held.update(here.keys())
        for token, cols in here.items():
            numbers = [rowid - last.get(token, 0), length, len(cols)]
            last[token] = rowid
            for col, positions in cols.items():
                # each position's distance from the one before
                numbers += (col, len(positions), positions[0])
                if len(positions) > 1:
                    numbers += map(sub, positions[1:], positions)
            flat = out.get(token)
            if flat is None:
                flat = out[token] = array("H")
            try:
                flat.fromlist(numbers)  # unchanged when a number does not fit
            except OverflowError:
                out[token] = _add(flat, numbers)
    return out, total, ids, held


def _add(flat: array[int], numbers: list[int]) -> array[int]:
    """``flat`` with ``numbers`` appended: the same array, or a 32-bit copy of it when one of
    them does not fit in its 16 bits (all are at least 0)."""
    if flat.typecode == "H" and max(numbers) > 0xFFFF:
        flat = array("i", flat)
    flat.fromlist(numbers)
    return flat


def _shard_count(numbers: int) -> int:
    count = 1
    while count * SHARD_NUMBERS < numbers and count < MAX_SHARDS:
        count *= 2
    return count


def _kinds(docs: Sequence[SearchDoc]) -> list[list[Any]]:
    runs: list[list[Any]] = []
    for rowid, doc in enumerate(docs, 1):
        if not runs or runs[-1][1] != doc.kind:
            runs.append([rowid, doc.kind])
    return runs


def fragment(doc: SearchDoc, lang: str) -> dict[str, Any]:
    """What a result shows in ``lang`` (the language shown: ``lang``, else Japanese, as
    ``judge search`` shows it): ``id``, ``kind``, ``title``, ``text`` (its answer, a term's
    or a kind's definition, a rule change's summary), ``rules``, ``basis``, ``label``,
    ``href`` (under the language's home) and ``lang``."""
    titles, bodies = doc.titles, doc.bodies
    shown = lang if titles.get(lang) else "ja" if titles.get("ja") else next(iter(titles), lang)
    name = doc.id.partition(":")[2] if doc.kind != "ruling" else doc.id
    return {"id": doc.id, "kind": doc.kind, "title": titles.get(shown, ""),
            "text": bodies.get(shown) or bodies.get("ja", ""), "rules": list(doc.rules),
            "basis": doc.basis, "label": doc.label, "lang": shown,
            "href": ADDRESSES.get(doc.kind, "{id}").format(id=name)}


def facets(docs: Sequence[SearchDoc], glossary: Glossary, lang: str) -> dict[str, Any]:
    """The values of the search page's filters in ``lang``: rule sets, tags, glossary terms
    (id and name) and bases, each with the number of rulings that have it."""
    counts: dict[str, dict[str, int]] = {"rules": {}, "tag": {}, "term": {}, "basis": {}}
    for doc in docs:
        if doc.kind != "ruling":
            continue
        for name, values in (("rules", doc.rules), ("tag", doc.tags), ("term", doc.terms),
                             ("basis", (doc.basis,) if doc.basis else ())):
            for value in values:
                counts[name][value] = counts[name].get(value, 0) + 1

    def label(name: str, value: str) -> str:
        if name == "term" and value in glossary.terms:
            names = glossary.terms[value].names
            return str(names.get(lang) or names.get("ja") or value)
        return value

    return {name: [[value, label(name, value), n] for value, n in sorted(found.items())]
            for name, found in counts.items()}


def write_index(docs: Iterable[SearchDoc], folder: Path, *, glossary: Iterable[Any] | Glossary,
                rulesets: Sequence[str], langs: Sequence[str] = LANGS) -> IndexReport:
    """Write the site's search index into ``folder`` (a new folder inside the site being
    built, which is swapped in whole)."""
    docs = list(docs)
    glossary = glossary if isinstance(glossary, Glossary) else Glossary(glossary)
    report = IndexReport(docs=len(docs))
    postings, total, ids, held = _postings(docs)
    numbers = sum(len(p) for p in postings.values())
    shards = _shard_count(numbers)
    report.tokens, report.shards = total, shards
    rows = {doc.id: rowid for rowid, doc in enumerate(docs, 1)}
    meta = {"format": FORMAT, "docs": len(docs), "tokens": total, "shards": shards,
            "block": BLOCK,
            "kinds": _kinds(docs), "definition": definition(), "glossary": glossary.data(),
            "rulesets": list(rulesets), "charsets": charsets(docs),
            "han_pairs": han_pairs(glossary, held),
            "terms": {t.id: [rows.get(t.main, 0) if t.main else 0, rows.get(f"term:{t.id}", 0)]
                      for t in glossary.terms.values()}}
    by_shard: dict[int, dict[str, Any]] = defaultdict(dict)
    big: dict[str, array[int]] = {}
    for token, flat in sorted(postings.items()):
        n = fnv(token) % shards
        if len(flat) > BIG:
            name = f"b/{n:x}-{sum(1 for v in by_shard[n].values() if isinstance(v, dict))}.json"
            big[name] = flat
            by_shard[n][token] = {"f": name}
        else:
            by_shard[n][token] = flat
    vocab: dict[str, int] = {}
    for doc in docs:
        for word in doc_words(doc):
            vocab[word] = vocab.get(word, 0) + 1

    def files() -> Iterator[tuple[str, Any]]:
        """Each file's name and content, made as it is written (the fragments of every
        block in every language are not held at once)."""
        yield from (("meta.json", meta), ("vocab.json", sorted(vocab.items())),
                    ("ids.json", ids))
        yield from ((f"s/{n:x}.json", by_shard.get(n, {})) for n in range(shards))
        yield from big.items()
        for lang in langs:
            yield f"{lang}/facets.json", facets(docs, glossary, lang)
            for start in range(0, len(docs), BLOCK):
                yield f"{lang}/{start // BLOCK:x}.json", [
                    fragment(doc, lang) for doc in docs[start:start + BLOCK]]

    made: set[Path] = set()
    for name, data in files():
        path = folder / (name + ".gz")
        if path.parent not in made:
            path.parent.mkdir(parents=True, exist_ok=True)
            made.add(path.parent)
        body = _gz(data)
        path.write_bytes(body)
        report.files += 1
        report.bytes += len(body)
        kind = name.split("/")[0] if "/" in name else name
        kind = "fragments" if kind in langs else kind
        report.by_kind[kind] = report.by_kind.get(kind, 0) + len(body)
    return report


def shown_of(row: int, lang: str, folder: Path) -> dict[str, Any]:
    """What the result of ``row`` shows in ``lang``, read back from the index in ``folder``
    (for tests and benchmarks)."""
    block = json.loads(gzip.decompress(
        (folder / lang / f"{(row - 1) // BLOCK:x}.json.gz").read_bytes()))
    return dict(block[(row - 1) % BLOCK])


def postings_of(token: str, folder: Path) -> Mapping[int, dict[int, list[int]]]:
    """The posting list of ``token`` read back from the index in ``folder``: row ->
    column -> positions (for tests and benchmarks)."""
    meta = json.loads(gzip.decompress((folder / "meta.json.gz").read_bytes()))
    shard = json.loads(gzip.decompress(
        (folder / f"s/{fnv(token) % meta['shards']:x}.json.gz").read_bytes()))
    flat = shard.get(token, [])
    if isinstance(flat, dict):
        flat = json.loads(gzip.decompress((folder / (flat["f"] + ".gz")).read_bytes()))
    out: dict[int, dict[int, list[int]]] = {}
    i = rowid = 0
    while i < len(flat):
        rowid += flat[i]
        columns = flat[i + 2]
        i += 3
        cols: dict[int, list[int]] = {}
        for _ in range(columns):
            col, count = flat[i], flat[i + 1]
            i += 2
            pos, positions = 0, []
            for delta in flat[i:i + count]:
                pos += delta
                positions.append(pos)
            i += count
            cols[col] = positions
        out[rowid] = cols
    return out


__all__ = ["BIG", "BLOCK", "FOLDER", "FORMAT", "IndexReport", "RUN_END", "fnv", "fragment",
           "postings_of", "shown_of", "write_index"]
