"""The one definition of the search: ``definition.toml`` beside this module, read once.

Everything that decides what a query finds and in which order (the ranking's weights, the
numerals, the British spellings, the common words of each language, the typo limits, the
snippet widths) is data in that file, read here by the Python side (:mod:`judge.search.analysis`,
:mod:`judge.search.query`, :mod:`judge.search.engine`) and handed to the site's side as JSON
inside the index's meta file (:mod:`judge.search.static`), so that the browser reads the same
values (docs/search.md, "The search, defined once").
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

#: The file, beside this module.
PATH = Path(__file__).with_name("definition.toml")


@cache
def definition() -> dict[str, Any]:
    """The parsed definition (read once per process)."""
    with PATH.open("rb") as handle:
        return tomllib.load(handle)
