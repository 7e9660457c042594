"""``judge search``: rulings, glossary terms, kinds of rule processing and rule changes, found
in Japanese, English and Chinese (docs/search.md).

- :mod:`judge.search.definition`: the one definition of both surfaces' search
  (``definition.toml``: weights, numerals, spellings, common words, typo limits);
- :mod:`judge.search.analysis`: the whoosh analyser chain (normalisation of width, case and
  kana, numerals, British spelling, stems, CJK character pairs), typo distances;
- :mod:`judge.search.query`: the query language, the glossary's names and aliases, the
  common words of each language;
- :mod:`judge.search.documents`: what is indexed of each ruling, term, kind and change;
- :mod:`judge.search.index`: the SQLite FTS5 index on disk and its stamp;
- :mod:`judge.search.plan`: query plans (expressions of phrases), written for FTS5;
- :mod:`judge.search.engine`: ranking over FTS5, typo correction, snippets;
- :mod:`judge.search.output`: the text and JSON output, sanitised for a terminal.

A search imports none of the rules engine, the corpus loader or the site: only the standard
library (``sqlite3``) and a stemmer; building the index loads the corpus.
"""

from __future__ import annotations

from judge.search.documents import SearchDoc
from judge.search.engine import (
    Hit,
    SearchError,
    SearchIndex,
    SearchResult,
    Snippet,
    detect_lang,
    make_snippet,
    search,
)
from judge.search.index import (
    INDEX_VERSION,
    build_index,
    ensure_index,
    fingerprint,
    index_dir,
    stamp_problem,
)
from judge.search.output import dumps, iter_lines, sanitize
from judge.search.plan import Plan, Planner
from judge.search.query import Glossary, QueryError, parse

__all__ = [
    "INDEX_VERSION", "Glossary", "Hit", "Plan", "Planner", "QueryError", "SearchDoc", "SearchError",
    "SearchIndex", "SearchResult", "Snippet", "build_index", "detect_lang", "dumps",
    "ensure_index", "fingerprint", "index_dir", "iter_lines", "make_snippet", "parse",
    "sanitize", "search", "stamp_problem",
]
