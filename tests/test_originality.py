"""Every text of the project is written in its own words (DEVELOPERS.md, Sources).

The seed documents under ``../shared/seeds`` are wiki pages the project started from. No
ruling text and no glossary definition may repeat a run of MAX_SHARED characters of them
(whitespace ignored); addresses and card names in 《》 are not counted, as citing an address or
a name is not copying.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"
MAX_SHARED = 20


def _normal(text: str) -> str:
    text = re.sub(r"https?://\S+", "", text)
    text = re.sub(r"《[^》]*》", "《》", text)
    return re.sub(r"\s+|\[\[|\]\]|~", "", text)


def _strings(value: Any) -> list[str]:
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


def _files() -> list[Path]:
    return [*sorted((ROOT / "rulings").rglob("*.toml")), ROOT / "data" / "glossary.toml"]


@pytest.fixture(scope="module")
def seed_grams() -> set[str]:
    if not SEEDS.is_dir():
        pytest.fail(f"the seed documents are missing: {SEEDS}")
    text = "".join(_normal(p.read_text(encoding="utf-8")) for p in sorted(SEEDS.glob("*.txt")))
    return {text[i:i + MAX_SHARED] for i in range(len(text) - MAX_SHARED + 1)}


@pytest.mark.parametrize("path", _files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_no_text_copies_a_seed(path: Path, seed_grams: set[str]) -> None:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    copied = []
    for text in _strings(data):
        flat = _normal(text)
        for i in range(len(flat) - MAX_SHARED + 1):
            if flat[i:i + MAX_SHARED] in seed_grams:
                copied.append(flat[i:i + MAX_SHARED + 10])
                break
    assert not copied, f"{path.name} repeats seed text: {copied}"
