"""The one definition of the search: ``definition.toml`` beside this module, read once.

Everything that decides what a query finds and in which order (the ranking's weights, the
numerals, the British spellings, the common words of each language, the typo limits, the
snippet widths) is data in that file, read here by the Python side (:mod:`judge.search.analysis`,
:mod:`judge.search.query`, :mod:`judge.search.engine`) and handed to the site's side as JSON
inside the index's meta file (:mod:`judge.search.static`), so that the browser reads the same
values (docs/search.md, "The search, defined once").

A fresh ``judge search`` does not parse the TOML: importing ``tomllib`` alone compiles its
regular expressions (about 30 ms). It reads ``definition.json`` beside it instead, the same
values as JSON with the SHA-256 of the TOML they were read from, written by
``python -m judge.search.definition``. The TOML stays the one home: when its digest is not the
JSON's (the TOML was edited and the JSON not written again), the TOML is parsed as before, so
the values used are always the TOML's; tests/test_search.py fails until the JSON is rewritten.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

#: The file, beside this module.
PATH = Path(__file__).with_name("definition.toml")
#: Its values as JSON, with the digest of the TOML they were read from.
DERIVED = PATH.with_suffix(".json")


def parse(source: bytes) -> dict[str, Any]:
    """The TOML's values (what the JSON must hold)."""
    import tomllib

    return tomllib.loads(source.decode("utf-8"))


def derived_text(source: bytes) -> str:
    """The text of ``definition.json`` for the TOML ``source``."""
    data = {"sha256": hashlib.sha256(source).hexdigest(), "definition": parse(source)}
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"


@cache
def definition() -> dict[str, Any]:
    """The parsed definition (read once per process)."""
    source = PATH.read_bytes()
    try:
        derived = json.loads(DERIVED.read_bytes())
    except (OSError, ValueError):
        derived = None
    if isinstance(derived, dict) and derived.get("sha256") == hashlib.sha256(source).hexdigest():
        values: dict[str, Any] = derived["definition"]
        return values
    return parse(source)


def main() -> None:
    """Write ``definition.json`` from ``definition.toml``."""
    DERIVED.write_text(derived_text(PATH.read_bytes()), encoding="utf-8")
    print(f"wrote {DERIVED}")


if __name__ == "__main__":
    main()
