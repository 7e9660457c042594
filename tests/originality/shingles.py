"""The one definition of a shingle, shared by ``make_fingerprint.py`` and the originality test.

A text is normalised (:func:`normal`), cut into every run of :data:`MAX_SHARED` characters
(character shingles), and each shingle is hashed to 8 bytes (:func:`shingle_hash`). The
seed fingerprint is the sorted set of the seeds' hashes; a ruling text that has any shingle
in it repeats :data:`MAX_SHARED` characters of a seed.

File format (``seed-fingerprint.bin``)
--------------------------------------
One ASCII header line, then the hashes::

    wixoss-judge seed-fingerprint v1 shingle=20 hash=blake2b-64/wxjudge-orig-v1 count=N\\n
    N x 8 bytes: the distinct hashes, sorted ascending, no separator

``hash=blake2b-64/P`` is BLAKE2b with ``digest_size=8`` and personalisation ``P`` over the
UTF-8 of the shingle. The file holds no text: only one-way 64-bit hashes of 20-character
windows, so it cannot be decoded. (Like any membership check it can confirm a guess of
20 characters; reading a seed back that way needs 19 of its characters already.)
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

MAX_SHARED = 20
FORMAT_VERSION = 1
PERSON = b"wxjudge-orig-v1"
HASH_NAME = f"blake2b-64/{PERSON.decode('ascii')}"
HASH_SIZE = 8
MAGIC = "wixoss-judge seed-fingerprint"

ROOT = Path(__file__).resolve().parent.parent.parent
FINGERPRINT = Path(__file__).resolve().parent / "seed-fingerprint.bin"


def normal(text: str) -> str:
    """The text without addresses, whitespace, ``[[``, ``]]`` and ``~``; 《name》 becomes 《》."""
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r"《[^》]*》", "《》", text)
    return re.sub(r"\s+|\[\[|\]\]|~", "", text)


def shingle_hash(shingle: str) -> bytes:
    return hashlib.blake2b(
        shingle.encode("utf-8"), digest_size=HASH_SIZE, person=PERSON
    ).digest()


def windows(flat: str) -> Iterator[tuple[int, bytes]]:
    """(start, hash) of every :data:`MAX_SHARED`-character window of a normalised text."""
    for i in range(len(flat) - MAX_SHARED + 1):
        yield i, shingle_hash(flat[i:i + MAX_SHARED])


def seed_texts(seeds: Path) -> list[str]:
    """The seed documents (``*.txt``, in name order); an error if there are none."""
    paths = sorted(seeds.glob("*.txt"))
    if not paths:
        raise FileNotFoundError(f"no seed documents (*.txt) in {seeds}")
    return [p.read_text(encoding="utf-8") for p in paths]


def header(count: int) -> bytes:
    return (
        f"{MAGIC} v{FORMAT_VERSION} shingle={MAX_SHARED} hash={HASH_NAME} count={count}\n"
    ).encode("ascii")


def build(texts: Iterable[str]) -> bytes:
    """The fingerprint file of ``texts``: each text is shingled on its own (no window spans
    two documents). Byte-for-byte deterministic."""
    hashes = sorted({h for text in texts for _, h in windows(normal(text))})
    return header(len(hashes)) + b"".join(hashes)


@dataclass(frozen=True)
class Fingerprint:
    version: int
    shingle: int
    hash_name: str
    hashes: frozenset[bytes]

    def __len__(self) -> int:
        return len(self.hashes)


_HEADER = re.compile(
    rf"{re.escape(MAGIC)} v(\d+) shingle=(\d+) hash=(\S+) count=(\d+)"
)


def parse(data: bytes) -> Fingerprint:
    """Read a fingerprint file; ValueError unless it is one this module would write."""
    line, newline, body = data.partition(b"\n")
    match = _HEADER.fullmatch(line.decode("ascii", "replace"))
    if not newline or match is None:
        raise ValueError(f"not a seed fingerprint: header {line[:80]!r}")
    version, shingle, hash_name, count = (
        int(match[1]), int(match[2]), match[3], int(match[4])
    )
    expected = (FORMAT_VERSION, MAX_SHARED, HASH_NAME)
    if (version, shingle, hash_name) != expected:
        raise ValueError(
            f"fingerprint is v{version} shingle={shingle} hash={hash_name}; this check "
            f"reads v{FORMAT_VERSION} shingle={MAX_SHARED} hash={HASH_NAME} "
            "(regenerate it with tests/originality/make_fingerprint.py)"
        )
    if len(body) != count * HASH_SIZE:
        raise ValueError(f"fingerprint says count={count} but holds {len(body)} bytes of hashes")
    hashes = [body[i:i + HASH_SIZE] for i in range(0, len(body), HASH_SIZE)]
    if any(a >= b for a, b in zip(hashes, hashes[1:], strict=False)):
        raise ValueError("fingerprint hashes are not sorted and distinct")
    return Fingerprint(version, shingle, hash_name, frozenset(hashes))


def load(path: Path = FINGERPRINT) -> Fingerprint:
    return parse(path.read_bytes())


def copied(text: str, fingerprint: Fingerprint) -> list[str]:
    """Every maximal passage of the normalised ``text`` made of windows found in the
    fingerprint (each at least :data:`MAX_SHARED` characters long), in text order."""
    flat = normal(text)
    passages: list[str] = []
    start = end = -1
    for i, h in windows(flat):
        if h not in fingerprint.hashes:
            continue
        if start >= 0 and i <= end:  # overlaps or touches the current passage
            end = i + MAX_SHARED
            continue
        if start >= 0:
            passages.append(flat[start:end])
        start, end = i, i + MAX_SHARED
    if start >= 0:
        passages.append(flat[start:end])
    return passages
