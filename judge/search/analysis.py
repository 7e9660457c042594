"""Text analysis of ``judge search``: normalisation, spelling variants, stemming, CJK n-grams.

Every text goes through :func:`fold` first, the texts indexed and the queries alike: Unicode
NFKC (full-width letters, digits and punctuation become their ordinary forms, half-width
katakana becomes full-width), lower case, katakana folded to hiragana and the katakana middle
dot ``・`` dropped. So ``ＰＩＣＫ ＵＰ`` and ``pick up`` are one text, and so are
``リフレッシュ``, ``りふれっしゅ`` and ``ﾘﾌﾚｯｼｭ``, and ``ライフ・バースト`` and ``ライフバースト``.

Runs of letters and digits are words; runs of CJK characters (kana and Han) are read as
character pairs. A Latin word is put in British spelling, the corpus's own (``color`` and
``colour``, ``center`` and ``centre``, ``defense`` and ``defence``, ``-ize`` and ``-ise``: see
:func:`british`), then Porter-stemmed (``refreshes``, ``refreshed``, ``refreshing``:
``refresh``). A CJK run of ``n`` characters gives its ``n - 1`` overlapping pairs and its last
character followed by :data:`RUN_END`, so every character starts a token: a word of two or
more characters is found as the phrase of its pairs (which is its exact spelling), a single
character as the start of a token. No dictionary is needed for Japanese or Chinese.

The tokens are written to the SQLite FTS5 index separated by spaces (the index's own
tokenizer only splits them again; see :mod:`judge.search.index`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

from whoosh.lang.porter import stem as _porter_stem

#: Katakana (ァ..ヶ, ヽヾ) to hiragana; the prolonged sound mark ー stays as it is; the middle
#: dot ・ (and its half-width form, which NFKC turns into it) is dropped.
_KANA_FOLD: dict[int, int | None] = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
_KANA_FOLD.update({0x30FD: 0x309D, 0x30FE: 0x309E, 0x30FB: None})

_CJK = ("\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc-\u30ff\u31f0-\u31ff"
        "\u3005\u3006\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f")
#: A word of letters and digits (Latin, Greek, Cyrillic), or a run of CJK characters.
TOKEN_PATTERN = re.compile(rf"[0-9a-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+|[{_CJK}]+")
_CJK_CHAR = re.compile(rf"[{_CJK}]")
_VOICED_MARKS = ("\u3099", "\u309a")
#: Follows the last character of a CJK run in the index (``構_``).
RUN_END = "_"


#: A CJK numeral that counts something (二回目, 第二次, 两张, 一つ) is written as a digit, as the
#: rulings write it (2回目, 第2次, 2张, 1つ). One character for one: the offsets stay.
_NUMERALS = {"一": "1", "二": "2", "两": "2", "兩": "2", "三": "3", "四": "4", "五": "5",
             "六": "6", "七": "7", "八": "8", "九": "9"}
_COUNTED = re.compile("(?<=第)[一二两兩三四五六七八九]|[一二两兩三四五六七八九]"
                      "(?=[次回张張枚个個只隻体體级級つ番])")


def _digits(text: str) -> str:
    return _COUNTED.sub(lambda m: _NUMERALS[m.group(0)], text) if _COUNTED.search(text) \
        else text


def fold(text: str) -> str:
    """NFKC, lower case, katakana to hiragana, no middle dots, counted CJK numerals as digits
    (the length may change)."""
    return _digits(unicodedata.normalize("NFKC", text).lower().translate(_KANA_FOLD))


def normalize(text: str) -> tuple[str, list[int], list[int]]:
    """:func:`fold` with, for each character of the result, where it starts and ends in
    ``text`` (for highlighting the original text)."""
    folded = fold(text)
    if text.isascii() or (len(folded) == len(text) and "\u30fb" not in text
                          and unicodedata.is_normalized("NFKC", text)
                          and len(text.lower()) == len(text)):
        ends = list(range(1, len(text) + 1))
        return folded, list(range(len(text))), ends
    out: list[str] = []
    starts: list[int] = []
    ends = []
    for i, char in enumerate(text):
        piece = unicodedata.normalize("NFKC", char).lower().translate(_KANA_FOLD)
        if piece and piece[0] in _VOICED_MARKS and out:
            # a half-width voiced sound mark: compose it with the kana before it
            composed = unicodedata.normalize("NFC", out[-1] + piece[0])
            if len(composed) == 1:
                out[-1] = composed.translate(_KANA_FOLD)
                ends[-1] = i + 1
                piece = piece[1:]
        for c in piece:
            out.append(c)
            starts.append(i)
            ends.append(i + 1)
    return _digits("".join(out)), starts, ends


def is_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK character (kana or Han)."""
    return bool(_CJK_CHAR.search(text))


# ---------------------------------------------------------------------- English words

#: American spellings that are not found by the rules of :func:`british`.
_BRITISH: dict[str, str] = {
    "center": "centre", "centers": "centres", "centered": "centred", "centering": "centring",
    "theater": "theatre", "fiber": "fibre", "defense": "defence", "defenses": "defences",
    "offense": "offence", "license": "licence", "pretense": "pretence", "gray": "grey",
    "catalog": "catalogue", "dialog": "dialogue", "analog": "analogue",
    "judgment": "judgement", "fulfill": "fulfil", "fulfills": "fulfils",
    "enrollment": "enrolment", "skillful": "skilful", "program": "programme",
}
#: American ``-or`` stems whose British form has ``-our`` (``color`` and every word on it).
_OUR_STEMS = ("color", "colorless", "multicolor", "favor", "honor", "behavior", "armor",
              "flavor", "harbor", "labor", "neighbor", "rumor", "vapor", "vigor", "humor")
#: Verbs whose British forms double the l (``canceled``: ``cancelled``).
_DOUBLE_L = ("cancel", "travel", "label", "model", "level", "signal", "fuel", "total",
             "dial", "equal", "duel", "marvel", "tunnel", "rival")
#: Words ending in -ize that are not the -ise/-ize suffix.
_IZE_WORDS = frozenset({"size", "sizes", "sized", "sizing", "prize", "prizes", "seize",
                        "seizes", "seized", "seizing", "maize", "baize", "resize", "resized",
                        "capsize", "downsize", "oversize", "oversized", "upsize", "outsize"})
_IZE = re.compile(r"(?<=[a-z]{2})iz(e|es|ed|ing|ation|ations|er|ers)$")
_YZE = re.compile(r"yz(e|es|ed|ing)$")


def british(word: str) -> str:
    """The British spelling of a lower-case English word (the corpus writes British English):
    ``color`` ``colour``, ``colorless`` ``colourless``, ``center`` ``centre``, ``defense``
    ``defence``, ``randomize`` ``randomise``, ``analyze`` ``analyse``, ``canceled``
    ``cancelled``. Other words are returned as they are."""
    if word in _BRITISH:
        return _BRITISH[word]
    for stem in _OUR_STEMS:
        if word.startswith(stem):
            return stem[:-2] + "our" + word[len(stem):]
    for verb in _DOUBLE_L:
        if word.startswith(verb) and word[len(verb):] in ("ed", "ing", "er", "ers"):
            return verb + "l" + word[len(verb):]
    if word.endswith(("ize", "izes", "ized", "izing", "ization", "izations", "izer", "izers")) \
            and word not in _IZE_WORDS:
        return _IZE.sub(lambda m: "is" + m.group(1), word)
    if word.endswith(("yze", "yzes", "yzed", "yzing")):
        return _YZE.sub(lambda m: "ys" + m.group(1), word)
    return word


@lru_cache(maxsize=200_000)
def latin_token(word: str) -> str:
    """The index token of a folded Latin word: British spelling, then Porter's stem (words with
    digits or letters outside a-z are kept as they are)."""
    if word.isascii() and word.isalpha():
        return str(_porter_stem(british(word)))
    return word


def index_tokens(text: str) -> list[str]:
    """The tokens of ``text`` as the index holds them, in order (see the module docstring)."""
    out: list[str] = []
    for match in TOKEN_PATTERN.finditer(fold(text)):
        run = match.group(0)
        if not _CJK_CHAR.match(run):
            out.append(latin_token(run))
            continue
        out.extend(run[i:i + 2] for i in range(len(run) - 1))
        out.append(run[-1] + RUN_END)
    return out


def latin_words(text: str) -> list[str]:
    """The folded Latin words of ``text`` (British spelling, not stemmed): the index's
    vocabulary for typo correction."""
    return [british(m.group(0)) for m in TOKEN_PATTERN.finditer(fold(text))
            if not _CJK_CHAR.match(m.group(0)) and m.group(0).isascii()
            and m.group(0).isalpha()]


def query_tokens(text: str) -> list[str]:
    """The tokens a query text is looked for as, in order: a Latin word as its token, a CJK
    run of two or more characters as its pairs (together they spell it), a single CJK
    character as itself followed by ``*`` (the start of a token)."""
    out: list[str] = []
    runs = list(TOKEN_PATTERN.finditer(fold(text)))
    for k, match in enumerate(runs):
        run = match.group(0)
        if not _CJK_CHAR.match(run):
            out.append(latin_token(run))
        elif len(run) == 1:
            # alone at the end: the start of a token; followed by a word: the run's end
            out.append(run + ("*" if k == len(runs) - 1 else RUN_END))
        else:
            out.extend(run[i:i + 2] for i in range(len(run) - 1))
    return out


# ---------------------------------------------------------------------- scripts


def script(char: str) -> str:
    """The script class of a (NFKC) character: ``hira``, ``kata``, ``han``, ``latin`` or
    ``other``. The prolonged sound mark ー counts as katakana."""
    code = ord(char)
    if 0x3041 <= code <= 0x309F:
        return "hira"
    if 0x30A0 <= code <= 0x30FF or 0x31F0 <= code <= 0x31FF:
        return "kata"
    if 0x3400 <= code <= 0x4DBF or 0x4E00 <= code <= 0x9FFF or 0xF900 <= code <= 0xFAFF \
            or code in (0x3005, 0x3006, 0x3007):
        return "han"
    if char.isalnum():
        return "latin"
    return "other"


def script_runs(text: str) -> list[tuple[str, str]]:
    """``text`` (NFKC, not folded, so that katakana and hiragana differ) cut where the script
    changes: (script, run) pairs, leaving out spaces and punctuation."""
    text = unicodedata.normalize("NFKC", text)
    out: list[tuple[str, str]] = []
    for char in text:
        kind = script(char)
        if kind == "other":
            out.append(("other", ""))
            continue
        if out and (out[-1][0] == kind or (char == "ー" and out[-1][0] in ("hira", "kata"))):
            out[-1] = (out[-1][0], out[-1][1] + char)
        else:
            out.append((kind, char))
    return [(k, r) for k, r in out if k != "other"]


# ---------------------------------------------------------------------- highlighting


def match_spans(text: str, terms: set[str]) -> list[tuple[int, int]]:
    """The character ranges of ``text`` that match ``terms``, merged: a Latin word whose token
    is in ``terms``, a run of Latin words whose tokens are a phrase of ``terms`` (tokens
    joined by spaces: ``main deck``), and wherever the folded text holds a folded CJK string
    of ``terms``."""
    folded, starts, ends = normalize(text)
    spans: list[tuple[int, int]] = []
    latin = {t for t in terms if not is_cjk(t) and " " not in t}
    phrases = [t.split(" ") for t in terms if not is_cjk(t) and " " in t]
    runs = [t for t in terms if is_cjk(t)]
    words = [(latin_token(m.group(0)), starts[m.start()], ends[m.end() - 1])
             for m in TOKEN_PATTERN.finditer(folded) if not _CJK_CHAR.match(m.group(0))] \
        if latin or phrases else []
    spans += [(s, e) for token, s, e in words if token in latin]
    for phrase in phrases:
        n = len(phrase)
        for i in range(len(words) - n + 1):
            if [w[0] for w in words[i:i + n]] == phrase:
                spans.append((words[i][1], words[i + n - 1][2]))
    for run in runs:
        at = folded.find(run)
        while at >= 0:
            spans.append((starts[at], ends[at + len(run) - 1]))
            at = folded.find(run, at + 1)
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        else:
            merged.append((start, end))
    return merged


# ---------------------------------------------------------------------- typos


def edit_distance(a: str, b: str, limit: int) -> int:
    """The optimal string alignment distance of ``a`` and ``b`` (insertions, deletions,
    substitutions and swaps of neighbours cost 1), or ``limit + 1`` once it exceeds
    ``limit``."""
    if abs(len(a) - len(b)) > limit:
        return limit + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        best = i
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            value = min(prev[j] + 1, row[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                value = min(value, prev2[j - 2] + 1)
            row[j] = value
            best = min(best, value)
        if best > limit:
            return limit + 1
        prev2, prev = prev, row
    return prev[len(b)] if prev[len(b)] <= limit else limit + 1


def typo_limit(word: str) -> int:
    """How many edits a word may be from the one meant: none under five letters, one for five
    to seven, two from eight."""
    return 0 if len(word) < 5 else 1 if len(word) < 8 else 2
