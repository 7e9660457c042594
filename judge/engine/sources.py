"""The ids of the documents the engine follows, as its declarations cite them.

Each document is declared once, with its titles, authority, date, address and sections, in
``data/sources.toml`` (read by :mod:`judge.sources`; the engine reads no files). A declaration
(a kind of rule processing, a mechanic) cites a document or one of its sections by id, e.g.
``cite(CHINESE_RULES, "lancer")`` is ``"chinese-rules#lancer"``; the site resolves the id to
the title in the page's language, and ``tests/test_sources.py`` checks that every citation
of the engine names a document and a section of the registry.
"""

from __future__ import annotations

from typing import Final

#: WIXOSS glossary entry "リフレッシュ", as quoted by wixoss.81.la (seed 000).
GLOSSARY_REFRESH: Final = "glossary-refresh"
#: wixoss.81.la's own commentary on the refresh (seed 000).
WIKI_REFRESH: Final = "wiki-refresh"
#: WIXOSS official Twitter, refresh rule revision in force from 2014-07-01 (quoted, seed 000).
TWITTER_2014_06_20: Final = "twitter-2014-06-20"
#: Takara Tomy notice of 2014-06-25: the refresh after one effect, from 2014-07-01.
NOTICE_2014_06_25: Final = "notice-2014-06-25"
#: Takara Tomy rule change notice of 2014-08-27, in force from 2014-09-01 (quoted, seed 000).
NOTICE_2014_08_27: Final = "notice-2014-08-27"
#: WIXOSS glossary entry "ルール処理", as quoted by wixoss.81.la (seed 004).
GLOSSARY_RULE_PROCESSING: Final = "glossary-rule-processing"
#: wixoss.81.la's own commentary on rule processing (seed 004).
WIKI_RULE_PROCESSING: Final = "wiki-rule-processing"
#: Moegirlpedia "WIXOSS/游戏规则": zones, card types, turn flow, keywords (seed 001).
CHINESE_RULES: Final = "chinese-rules"
#: WIXOSS TCG Wiki "間違えやすいルール", the commonly mistaken rules (seed 003).
MISTAKEN_RULES: Final = "mistaken-rules"


def cite(document: str, section: str = "") -> str:
    """A citation of ``document`` (one of the ids above), or of one of its sections.

    >>> cite(GLOSSARY_RULE_PROCESSING, "kind-4")
    'glossary-rule-processing#kind-4'
    """
    return f"{document}#{section}" if section else document
