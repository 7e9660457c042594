"""Formats: which way of playing a game is (All Star, Key Selection, Diva Selection).

Rule: the Chinese rules page names three formats of the Japanese game. **All Star** (全环境) is
the game as it was from the start, with every card; **Key Selection** (key环境) and **Diva
Selection** (D环境) came later. Only Diva Selection changes what the engine does: its players
have assist LRIGs (副分身) beside their centre LRIG, and in its card texts nearly every "LRIG"
was reworded "main LRIG" (centre LRIG), Exceed being the exception (Chinese rules page, 分身).
The engine reads that exception as: Exceed may be paid with the cards under any of its
player's LRIG, the assists included (**interpretation**;
:mod:`judge.engine.mechanics.exceed`). A ruling names its format in ``setup.format``
(default ``all-star``); the assist LRIG zones may hold cards only in ``diva-selection``.

Dates: no source dates the formats. The 2014 page (WIXOSS TCG Wiki "間違えやすいルール")
knows none of them, and the first dated source that shows an assist LRIG is the 2020 glossary
(rule processing kind 10), so the engine allows Key Selection and Diva Selection from the
``current`` rule set on (**interpretation**, :mod:`judge.engine.eras`).

Hook: :data:`FORMATS`, read by the loader (``setup.format``), by :mod:`judge.engine.eras`
(the date) and by :func:`judge.engine.mechanics.exceed.under_lrigs` (``exceed_from_assists``).

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 基本规则 and 分身 (副分身, 超越 as the
exception); WIXOSS glossary "ルール処理" (quoted by wixoss.81.la, 2020-11-30), kind 10.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from judge.engine.sources import CHINESE_RULES, GLOSSARY_RULE_PROCESSING


@dataclass(frozen=True)
class Format:
    """One format: its id (``setup.format``), from when rule sets have it (``since``, a date;
    empty: always) and why, and what it changes."""

    id: str
    since: str
    since_note: str
    #: players have assist LRIGs (the ``assist1`` and ``assist2`` zones)
    assists: bool = False
    #: Exceed may be paid with the cards under the assist LRIGs too
    exceed_from_assists: bool = False


_LATER: Final = (f"undated: {CHINESE_RULES} names it; the engine allows it from the current "
                 f"rules (the first dated source showing the later formats is "
                 f"{GLOSSARY_RULE_PROCESSING})")

FORMATS: Final[dict[str, Format]] = {f.id: f for f in (
    Format("all-star", "", ""),
    Format("key-selection", "2020", _LATER),
    Format("diva-selection", "2020", _LATER, assists=True, exceed_from_assists=True),
)}
DEFAULT: Final = "all-star"
