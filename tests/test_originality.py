"""Every text of the project is written in its own words (README.md, Sources).

The seed documents are wiki pages the project started from. No ruling text and no glossary
definition may repeat a run of MAX_SHARED characters of them (whitespace ignored); addresses
and card names in 《》 are not counted, as citing an address or a name is not copying.

The seeds are not part of the repository, so the check reads
``tests/originality/seed-fingerprint.bin`` instead: hashes of every MAX_SHARED-character
window of the seeds, never their text (``tests/originality/shingles.py`` describes it;
``tests/originality/make_fingerprint.py SEEDS_DIR`` writes it, and with ``--check`` says
whether it is current with the seeds it is given). The tests need nothing outside the
repository.
"""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest
from originality.shingles import (
    FINGERPRINT,
    FORMAT_VERSION,
    HASH_NAME,
    HASH_SIZE,
    MAX_SHARED,
    Fingerprint,
    build,
    copied,
    header,
    load,
    parse,
)

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tests" / "originality" / "make_fingerprint.py"
MINIMUM_SHINGLES = 10_000


def _strings(value: Any, key: str = "") -> list[tuple[str, str]]:
    """(dotted key, text) of every string in a parsed TOML document."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in _strings(v, f"{key}.{k}" if key else k)]
    if isinstance(value, list):
        return [s for n, v in enumerate(value) for s in _strings(v, f"{key}[{n}]")]
    return [(key, value)] if isinstance(value, str) else []


def _files() -> list[Path]:
    return [*sorted((ROOT / "rulings").rglob("*.toml")), ROOT / "data" / "glossary.toml"]


def _copies(path: Path, fingerprint: Fingerprint) -> list[str]:
    """``key: passage`` for every passage of ``path`` that repeats seed text."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [f"{key}: {passage!r}" for key, text in _strings(data)
            for passage in copied(text, fingerprint)]


@pytest.fixture(scope="module")
def fingerprint() -> Fingerprint:
    if not FINGERPRINT.is_file():
        pytest.fail(f"the seed fingerprint is missing: {FINGERPRINT} "
                    "(write it with tests/originality/make_fingerprint.py)")
    return load(FINGERPRINT)


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_text_copies_a_seed(path: Path, fingerprint: Fingerprint) -> None:
    copies = _copies(path, fingerprint)
    assert not copies, (
        f"{path.relative_to(ROOT)} repeats {MAX_SHARED} or more characters of a seed "
        "(shown without whitespace): " + "; ".join(copies)
    )


def test_fingerprint_header_is_valid() -> None:
    data = FINGERPRINT.read_bytes()
    fp = parse(data)  # checks the header, the length and the order of the hashes
    assert (fp.version, fp.shingle, fp.hash_name) == (FORMAT_VERSION, MAX_SHARED, HASH_NAME)
    assert len(fp) > MINIMUM_SHINGLES, len(fp)
    assert data == header(len(fp)) + b"".join(sorted(fp.hashes))


MADE_UP = [
    "この文章は検出器の試験のためだけに書かれた架空のもので、《花代》の名もどの資料にも由来しない。",
    "A paragraph invented for this test alone, copied from nowhere at all.",
]


@pytest.fixture()
def made_up(tmp_path: Path) -> tuple[Path, Fingerprint]:
    """A seed directory of made-up text, its fingerprint written by the script, and that
    fingerprint loaded."""
    seeds = tmp_path / "seeds"
    seeds.mkdir()
    for n, text in enumerate(MADE_UP):
        (seeds / f"{n:03}_made_up.txt").write_text(text, encoding="utf-8")
    out = tmp_path / "fp.bin"
    run = subprocess.run([sys.executable, str(SCRIPT), str(seeds), "-o", str(out)],
                         capture_output=True, text=True, check=False)
    assert run.returncode == 0, run.stderr
    fp = parse(out.read_bytes())
    assert f"wrote {len(fp)} shingles" in run.stdout
    assert out.read_bytes() == build(MADE_UP)  # the script and the module agree, byte for byte
    return tmp_path, fp


def test_check_mode_tells_a_current_fingerprint_from_a_stale_one(
        made_up: tuple[Path, Fingerprint]) -> None:
    directory, _ = made_up
    seeds, out = directory / "seeds", directory / "fp.bin"
    current = subprocess.run([sys.executable, str(SCRIPT), str(seeds), "-o", str(out), "--check"],
                             capture_output=True, text=True, check=False)
    assert current.returncode == 0, current.stderr
    (seeds / "002_more.txt").write_text("A third made-up seed, added after the fingerprint.",
                                        encoding="utf-8")
    before = out.read_bytes()
    stale = subprocess.run([sys.executable, str(SCRIPT), str(seeds), "-o", str(out), "--check"],
                           capture_output=True, text=True, check=False)
    assert stale.returncode == 1
    assert "out of date" in stale.stderr
    assert out.read_bytes() == before  # --check writes nothing


def _ruling(directory: Path, text: str) -> Path:
    path = directory / "ruling.toml"
    path.write_text(f'[explanation]\nen = """{text}"""\n', encoding="utf-8")
    return path


def test_the_check_flags_a_copy(made_up: tuple[Path, Fingerprint]) -> None:
    directory, fp = made_up
    # 21 characters of the first text, split by whitespace and an address
    text = "Our own words: 検出器の試験 のためだけに https://example.org/x\n書かれた架空のもの."
    assert _copies(_ruling(directory, text), fp) == [
        "explanation.en: '検出器の試験のためだけに書かれた架空のもの'"
    ]
    # another card name is not a difference, and the passage shown is the whole copied run
    text = ("別の話。架空のもので、《緑姫》の名もどの資料にも由来しない。"
            "Then two: copied from nowhere at all.")
    assert _copies(_ruling(directory, text), fp) == [
        "explanation.en: '架空のもので、《》の名もどの資料にも由来しない。'",
        "explanation.en: 'copiedfromnowhereatall.'",
    ]


def test_the_check_passes_own_words(made_up: tuple[Path, Fingerprint]) -> None:
    directory, fp = made_up
    nineteen = MADE_UP[0][4:4 + MAX_SHARED - 1]  # one character short of a copy
    assert len(nineteen) == MAX_SHARED - 1
    text = f"{nineteen}と、まったく別の言葉で書いた説明。 Nothing here is copied."
    assert _copies(_ruling(directory, text), fp) == []


def test_a_bad_fingerprint_is_refused() -> None:
    good = build(MADE_UP)
    line, _, body = good.partition(b"\n")
    with pytest.raises(ValueError, match="not a seed fingerprint"):
        parse(b"plain text\n" + body)
    with pytest.raises(ValueError, match="shingle=21"):
        parse(line.replace(b"shingle=20", b"shingle=21") + b"\n" + body)
    with pytest.raises(ValueError, match="count="):
        parse(good[:-1])
    swapped = body[HASH_SIZE:2 * HASH_SIZE] + body[:HASH_SIZE] + body[2 * HASH_SIZE:]
    with pytest.raises(ValueError, match="not sorted"):
        parse(line + b"\n" + swapped)
