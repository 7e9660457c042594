"""The site's search index: ``search-index/``, written by ``judge build`` from the corpus it
has loaded, with the same documents and the same analysed tokens as ``judge search``
(:mod:`judge.search.static` describes the files; docs/search.md, "The search, defined once",
why the site has no search engine of its own).

:func:`write_search` runs inside the new site folder before it replaces the previous site, so
a build that fails there leaves the previous site as it was. Nothing is parsed again: the
documents come from the loaded corpus.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path

from judge.site.load import SiteInput

#: The folder of the index, at the site's root (every language's page reads it).
FOLDER = "search-index"


@dataclass
class SearchReport:
    docs: int = 0
    shards: int = 0
    files: int = 0
    bytes: int = 0
    seconds: float = 0.0


def write_search(site: SiteInput, folder: Path) -> SearchReport:
    """Write ``search-index/`` into the site folder ``folder``."""
    from judge.search.documents import documents
    from judge.search.static import write_index

    start = time.perf_counter()
    # from the summaries the build holds: no ruling's file is read again
    docs, terms, rulesets = documents(site.corpus, site.rulings)
    written = write_index(docs, folder / FOLDER, glossary=terms, rulesets=rulesets)
    return SearchReport(docs=written.docs, shards=written.shards, files=written.files,
                        bytes=written.bytes, seconds=time.perf_counter() - start)
