"""Put a Pagefind bundle's filter index in one order, so that the same site gives the same bytes.

Pagefind (1.5) writes each filter (``tag``, ``ruleset``, ``term``) as a file whose values come
in the order of a hash map that is seeded anew in every run, and names the file after a hash of
its content; the metadata file lists the filters in the same unstable order and is named after
its own content, and ``pagefind-entry.json`` names the metadata file. So two builds of the same
site differed in about nine files per language. Pagefind's maintainer notes this in Pagefind
issue #638 (2024-12): the page fragments became stable in 1.3, the filter and metadata files did
not.

:func:`canonicalise` rewrites those three kinds of file after Pagefind has written them: the
values of each filter sorted by value (the search page then lists them alphabetically, which for
the rule sets is also their order in time), the filters in the metadata sorted by name, and each
rewritten file named after a hash of its new content, as Pagefind names them. Nothing else is
touched; the browser reads the files by the names the metadata and the entry file give.

The files are gzip streams of the signature ``pagefind_dcd`` and one CBOR item (RFC 8949).
In these two kinds of file Pagefind uses only unsigned integers, text strings and definite-length
arrays (its word index uses more, and is left alone); the small codec here reads and writes
those, in the shortest form as Pagefind does, and raises :class:`BundleFormatError` on anything
else, so a Pagefind release that changes the format stops the build instead of publishing an
index the browser cannot read.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import struct
from pathlib import Path
from typing import TypeAlias

#: What every decompressed Pagefind index file starts with.
SIGNATURE = b"pagefind_dcd"
#: Hex digits in the names this module gives (Pagefind uses 7 for filters, 10 or more for the
#: metadata file; the browser only reads the names it is given).
FILTER_HASH_DIGITS = 7
META_HASH_DIGITS = 10

Item: TypeAlias = int | str | list["Item"]


class BundleFormatError(ValueError):
    """A Pagefind file is not in the format this module knows; the message names the file."""


# --- the CBOR subset ------------------------------------------------------------------------

def _head(major: int, value: int) -> bytes:
    if value < 24:
        return bytes([major << 5 | value])
    for extra, fmt, limit in ((24, ">B", 1 << 8), (25, ">H", 1 << 16), (26, ">I", 1 << 32),
                              (27, ">Q", 1 << 64)):
        if value < limit:
            return bytes([major << 5 | extra]) + struct.pack(fmt, value)
    raise ValueError(f"integer too large for CBOR: {value}")


def encode(item: Item) -> bytes:
    """The CBOR bytes of ``item`` (shortest forms, definite lengths)."""
    out = bytearray()
    stack: list[Item] = [item]
    while stack:
        x = stack.pop()
        if isinstance(x, bool) or not isinstance(x, (int, str, list)):
            raise ValueError(f"cannot encode {type(x).__name__} in a Pagefind file")
        if isinstance(x, int):
            if x < 0:
                raise ValueError(f"negative integer in a Pagefind file: {x}")
            out += _head(0, x)
        elif isinstance(x, str):
            data = x.encode("utf-8")
            out += _head(3, len(data)) + data
        else:
            out += _head(4, len(x))
            stack.extend(reversed(x))
    return bytes(out)


def decode(data: bytes) -> Item:
    """The one CBOR item that ``data`` holds, whole; ValueError on anything else."""
    item, end = _decode(data, 0)
    if end != len(data):
        raise ValueError(f"{len(data) - end} bytes after the item")
    return item


def _decode(data: bytes, at: int) -> tuple[Item, int]:
    if at >= len(data):
        raise ValueError("the data ends inside an item")
    major, extra = data[at] >> 5, data[at] & 31
    at += 1
    if extra < 24:
        value = extra
    elif 24 <= extra <= 27:
        size = 1 << (extra - 24)
        if at + size > len(data):
            raise ValueError("the data ends inside an item's length")
        value = int.from_bytes(data[at:at + size], "big")
        at += size
    else:
        raise ValueError(f"indefinite or reserved length (byte {at - 1})")
    if major == 0:
        return value, at
    if major == 3:
        if at + value > len(data):
            raise ValueError("the data ends inside a text string")
        return data[at:at + value].decode("utf-8"), at + value
    if major == 4:
        items: list[Item] = []
        for _ in range(value):
            item, at = _decode(data, at)
            items.append(item)
        return items, at
    raise ValueError(f"CBOR major type {major} (byte {at - 1}) is not used by Pagefind 1.5")


# --- Pagefind's files ------------------------------------------------------------------------

def read_index_file(path: Path) -> Item:
    try:
        raw = gzip.decompress(path.read_bytes())
        if not raw.startswith(SIGNATURE):
            raise ValueError(f"it does not start with {SIGNATURE.decode()}")
        return decode(raw[len(SIGNATURE):])
    except (OSError, EOFError, ValueError, UnicodeDecodeError) as exc:
        raise BundleFormatError(f"{path}: not a Pagefind index file this build can read "
                                f"({exc})") from exc


def index_file_bytes(item: Item) -> bytes:
    """What Pagefind would store for ``item``: gzip (no time stamp) of signature + CBOR."""
    return gzip.compress(SIGNATURE + encode(item), compresslevel=9, mtime=0)


def content_name(prefix: str, data: bytes, digits: int) -> str:
    return f"{prefix}_{hashlib.sha256(data).hexdigest()[:digits]}"


def _write(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _list(item: Item, path: Path, what: str) -> list[Item]:
    if not isinstance(item, list):
        raise BundleFormatError(f"{path}: {what} is not a list")
    return item


def canonicalise(bundle: Path) -> int:
    """Rewrite the filter files, the metadata file and the entry file of the Pagefind bundle in
    folder ``bundle`` (``<lang>/pagefind/``) in one order; return how many files it renamed.

    Every file is read and checked before the first is written, so a bundle this module
    cannot read is left as it was."""
    entry_path = bundle / "pagefind-entry.json"
    try:
        entry_text = entry_path.read_text(encoding="utf-8")
        entry = json.loads(entry_text)
        languages = entry["languages"]
        metas = [str(language["hash"]) for language in languages.values()]
    except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
        raise BundleFormatError(f"{entry_path}: cannot read the languages ({exc})") from exc
    writes: dict[Path, bytes] = {}  # new files, by path
    old: set[Path] = set()  # the files they replace
    new_metas: list[str] = []
    for old_meta_hash in metas:
        meta_path = bundle / f"pagefind.{old_meta_hash}.pf_meta"
        meta = _list(read_index_file(meta_path), meta_path, "the metadata")
        if len(meta) < 4:
            raise BundleFormatError(f"{meta_path}: the metadata has {len(meta)} parts, not 4+")
        filters: list[tuple[str, str]] = []
        for pair in _list(meta[3], meta_path, "the filter list"):
            if not (isinstance(pair, list) and len(pair) == 2
                    and isinstance(pair[0], str) and isinstance(pair[1], str)):
                raise BundleFormatError(f"{meta_path}: a filter is not [name, hash]: {pair!r}")
            name, old_hash = str(pair[0]), str(pair[1])
            filter_path = bundle / "filter" / f"{old_hash}.pf_filter"
            content = _list(read_index_file(filter_path), filter_path, "the filter")
            if len(content) != 2:
                raise BundleFormatError(f"{filter_path}: not [name, values]")
            values = _list(content[1], filter_path, "the values")
            keyed: list[tuple[str, Item]] = []
            for value in values:
                if not (isinstance(value, list) and value and isinstance(value[0], str)):
                    raise BundleFormatError(f"{filter_path}: a value is not [text, pages]")
                keyed.append((value[0], value))
            # by text alone: Pagefind never repeats a value's text within one filter
            content[1] = [value for _, value in sorted(keyed, key=lambda pair: pair[0])]
            data = index_file_bytes(content)
            new_hash = content_name(old_hash.rsplit("_", 1)[0], data, FILTER_HASH_DIGITS)
            writes[filter_path.with_name(f"{new_hash}.pf_filter")] = data
            old.add(filter_path)
            filters.append((name, new_hash))
        meta[3] = [[name, new_hash] for name, new_hash in sorted(filters)]
        data = index_file_bytes(meta)
        new_meta_hash = content_name(old_meta_hash.rsplit("_", 1)[0], data, META_HASH_DIGITS)
        writes[bundle / f"pagefind.{new_meta_hash}.pf_meta"] = data
        old.add(meta_path)
        new_metas.append(new_meta_hash)
        entry_text = entry_text.replace(json.dumps(old_meta_hash), json.dumps(new_meta_hash))
    written = [str(language["hash"]) for language in json.loads(entry_text)["languages"].values()]
    if written != new_metas:
        raise BundleFormatError(f"{entry_path}: could not put the new metadata names in")
    for path, data in writes.items():
        _write(path, data)
    for path in old - set(writes):
        path.unlink()
    _write(entry_path, entry_text.encode("utf-8"))
    return len(old - set(writes))

