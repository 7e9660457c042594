"""The documents the engine follows, by title and date, as rule declarations cite them.

These are the project's seed documents (docs/rules-model.md, "Sources"); nothing of their text
is copied. A declaration (a kind of rule processing, a mechanic) cites one of these with the
section it follows, e.g. ``f"{CHINESE_RULES}, 枪兵"``.
"""

from __future__ import annotations

#: WIXOSS glossary entry "リフレッシュ", quoted by the wikiwiki.jp page of that name with the two
#: rule-change notices below (seed 000).
GLOSSARY_REFRESH = 'WIXOSS glossary "リフレッシュ" (official, quoted by wikiwiki.jp, 2020-05-17)'
#: WIXOSS official Twitter, refresh rule revision in force from 2014-07-01.
NOTICE_2014_06_20 = "WIXOSS refresh rule revision notice (official, 2014-06-20)"
#: Takara Tomy rule change notice in force from 2014-09-01.
NOTICE_2014_08_27 = "Takara Tomy rule change notice (official, 2014-08-27)"
#: 猛汉百科 "WIXOSS/游戏规则": zones, card types, turn flow, keywords (seed 001).
CHINESE_RULES = 'Chinese wiki "WIXOSS/游戏规则" (community, undated, formats up to DIVA)'
#: WIXOSS TCG Wiki "間違えやすいルール", the commonly mistaken rules (seed 003).
MISTAKEN_RULES = 'WIXOSS TCG Wiki "間違えやすいルール" (community, 2014)'
#: WIXOSS glossary entry "ルール処理", quoted by wikiwiki.jp (seed 004).
GLOSSARY_RULE_PROCESSING = 'WIXOSS glossary "ルール処理" (official, quoted by wikiwiki.jp, ' \
    "2020-11-30)"
