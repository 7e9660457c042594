"""One ruling per question: no two rulings of the corpus replay the same position and steps,
carry near-identical titles or ids, and every ``related`` id names a ruling that exists.

The two rulings that answered "who orders the bursts of a Double Crush" and the two that
answered "an attack damages a player with no life cloth" were merged into one each (issue
#12); these checks keep a third copy from coming back.
"""

from __future__ import annotations

import difflib
import itertools
import json
import re
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("ja", "en", "zh-Hans")
#: Titles this alike (difflib's ratio) in two of the three languages are the same question.
TITLE_RATIO = 0.9
#: Ids this alike once the little words are dropped name the same question.
ID_RATIO = 0.93
_LITTLE = {"the", "a", "an", "is", "are", "of", "to", "its", "it", "and"}


def corpus() -> list[dict[str, Any]]:
    return [tomllib.loads(p.read_text(encoding="utf-8"))
            for p in sorted((ROOT / "rulings").rglob("*.toml"))]


def position_key(ruling: dict[str, Any]) -> str:
    """The position, its cards, the steps and the scripted choices, as written."""
    return json.dumps([ruling.get("setup"), ruling.get("steps"), ruling.get("choices"),
                       ruling.get("cards")], sort_keys=True, ensure_ascii=False)


def bare_id(ruling_id: str) -> str:
    return "-".join(w for w in ruling_id.split("-") if w not in _LITTLE)


def ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()


def duplicates(rulings: list[dict[str, Any]]) -> list[tuple[str, str, str]]:
    """Pairs of rulings that look like one question: (id, id, why)."""
    found: list[tuple[str, str, str]] = []
    by_position: dict[str, str] = {}
    for r in rulings:
        key = position_key(r)
        if key in by_position:
            found.append((by_position[key], r["id"], "same position and steps"))
        by_position.setdefault(key, r["id"])
    for a, b in itertools.combinations(rulings, 2):
        alike = [lang for lang in LANGS
                 if ratio(a["title"].get(lang, ""), b["title"].get(lang, "")) >= TITLE_RATIO]
        if len(alike) >= 2:
            found.append((a["id"], b["id"], f"near-identical titles ({', '.join(alike)})"))
        if ratio(bare_id(a["id"]), bare_id(b["id"])) >= ID_RATIO:
            found.append((a["id"], b["id"], "near-identical ids"))
    return found


def test_one_ruling_per_question() -> None:
    assert duplicates(corpus()) == []


def test_every_related_id_exists() -> None:
    rulings = corpus()
    ids = {r["id"] for r in rulings}
    missing = [(r["id"], rel) for r in rulings for rel in r.get("related", ()) if rel not in ids]
    assert missing == []


def test_the_checks_catch_a_copy() -> None:
    """A ruling copied under a new id, or retitled by a word, is flagged."""
    rulings = corpus()
    first = rulings[0]
    copy = json.loads(json.dumps(first))
    copy["id"] = first["id"] + "-again"
    copy["title"] = {lang: re.sub(r"\s+", " ", t) for lang, t in first["title"].items()}
    found = duplicates([first, copy])
    assert {why for _, _, why in found} >= {"same position and steps",
                                            "near-identical titles (ja, en, zh-Hans)"}
    renamed = dict(first, id=first["id"].replace("-", "-the-", 1), setup={"turn": 99})
    assert ("near-identical ids" in {why for _, _, why in duplicates([first, renamed])})
