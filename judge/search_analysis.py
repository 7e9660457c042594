"""Text analysis for the search index: normalisation, CJK n-grams and English stemming.

Every text goes through :func:`normalize` first: Unicode NFKC (full-width letters, digits and
punctuation become their ordinary forms, half-width katakana becomes full-width), lower case,
and katakana folded to hiragana, so ``ＰＩＣＫ ＵＰ`` and ``pick up`` are one text, and so are
``リフレッシュ`` and ``りふれっしゅ``.

The tokenizer then reads runs of letters and digits as words and runs of CJK characters (kana
and Han) as n-grams. When indexing, it makes every pair of neighbouring characters and the
run's last character followed by :data:`RUN_END`, so that every character starts a token.
When querying, a longer run becomes the pairs that cover it (at 0, 2, 4, ... and the last
pair), which the search requires together, and a single character becomes itself, which the
search looks for as the start of a token (a prefix). So Japanese and Chinese are found by any
part of a word, down to one character, without a dictionary. Common English words are
dropped and Latin words are stemmed (Porter), in every language's text (Japanese texts write
LRIG, SIGNI or PICK UP in Latin letters too), and each pair of neighbouring words is also a
token, so that a phrase is found as its pairs.

Whoosh stores the analyzer in the index by pickling it, so every class here lives at module
level and holds only plain attributes. They are plain classes joined with Whoosh's
``CompositeAnalyzer`` (which only needs callables with an ``is_morph`` attribute).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from whoosh.analysis import CompositeAnalyzer, Token
from whoosh.analysis.filters import STOP_WORDS
from whoosh.lang.porter import stem as _porter_stem

#: Katakana (ァ..ヶ, ヽヾ) to hiragana; the prolonged sound mark ー stays as it is.
_KANA_FOLD = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
_KANA_FOLD.update({0x30FD: 0x309D, 0x30FE: 0x309E})

_CJK = ("\u3041-\u3096\u309d\u309e\u30fc\u3005\u3006\u3007"
        "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff")
#: A word of letters and digits (Latin, Greek, Cyrillic), or a run of CJK characters.
TOKEN_PATTERN = re.compile(rf"[0-9a-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+|[{_CJK}]+")
_CJK_CHAR = re.compile(rf"[{_CJK}]")
_VOICED_MARKS = ("\u3099", "\u309a")
#: Follows the last character of a CJK run in the index (``構_``).
RUN_END = "_"
#: What a tokenizer keeps: Latin words, CJK n-grams, or both.
PARTS = ("all", "words", "cjk")


def fold(text: str) -> str:
    """NFKC, lower case and katakana to hiragana (the length may change)."""
    return unicodedata.normalize("NFKC", text).lower().translate(_KANA_FOLD)


def normalize(text: str) -> tuple[str, list[int], list[int]]:
    """:func:`fold` with, for each character of the result, where it starts and ends in
    ``text`` (for highlighting the original text)."""
    folded = fold(text)
    if len(folded) == len(text):
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
    return "".join(out), starts, ends


def is_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK character (kana or Han)."""
    return bool(_CJK_CHAR.search(text))


class NgramWordTokenizer:
    """Words for letters and digits, n-grams for CJK runs (see the module docstring).

    ``part`` keeps only the ``words``, only the ``cjk`` n-grams, or ``all`` tokens; positions
    are counted over all of them either way."""

    is_morph = False

    def __init__(self, part: str = "all") -> None:
        if part not in PARTS:
            raise ValueError(f"part must be one of {PARTS}, not {part!r}")
        self.part = part

    def __eq__(self, other: object) -> bool:
        return isinstance(other, NgramWordTokenizer) and other.part == self.part

    def __hash__(self) -> int:
        return hash((self.__class__, self.part))

    def __call__(self, value: str, positions: bool = False, chars: bool = False,
                 keeporiginal: bool = False, removestops: bool = True, start_pos: int = 0,
                 start_char: int = 0, tokenize: bool = True, mode: str = "",
                 **kwargs: Any) -> Iterator[Any]:
        token = Token(positions, chars, removestops=removestops, mode=mode, **kwargs)
        text, starts, ends = normalize(value)
        query = mode == "query"
        words = self.part != "cjk"
        cjk = self.part != "words"
        slot = start_pos
        for match in TOKEN_PATTERN.finditer(text):
            run = match.group(0)
            first = match.start()
            if not _CJK_CHAR.match(run):
                if words:
                    yield _fill(token, run, slot, starts[first], ends[match.end() - 1],
                                start_char, keeporiginal)
                slot += 1
                continue
            n = len(run)
            if not cjk:
                slot += n
                continue
            if query and n == 1:
                # one character: the search looks for every pair that starts with it
                yield _fill(token, run, slot, starts[first], ends[first], start_char,
                            keeporiginal)
            elif query:
                # pairs at 0, 2, 4, ... and the last pair: they cover the run
                pairs = list(range(0, n - 1, 2))
                if n % 2:
                    pairs.append(n - 2)
                for i in pairs:
                    yield _fill(token, run[i:i + 2], slot + i, starts[first + i],
                                ends[first + i + 1], start_char, keeporiginal)
            else:
                for i in range(n - 1):
                    yield _fill(token, run[i:i + 2], slot + i, starts[first + i],
                                ends[first + i + 1], start_char, keeporiginal)
                # the last character, marked, so that it too starts a token
                yield _fill(token, run[n - 1] + RUN_END, slot + n - 1, starts[first + n - 1],
                            ends[first + n - 1], start_char, keeporiginal)
            slot += n


def _fill(token: Any, text: str, pos: int, start: int, end: int, start_char: int,
          keeporiginal: bool) -> Any:
    token.text = text
    token.boost = 1.0
    token.stopped = False
    if keeporiginal:
        token.original = text
    token.pos = pos  # always: WordPairFilter reads it
    if token.chars:
        token.startchar = start_char + start
        token.endchar = start_char + end
    return token


class _StatelessFilter:
    """A filter with no settings: any two of the same class are equal (Whoosh compares
    analyzers when it checks a schema; they must also pickle, so they live at module level)."""

    is_morph = False

    def __eq__(self, other: object) -> bool:
        return other.__class__ is self.__class__

    def __hash__(self) -> int:
        return hash(self.__class__)


class EnglishStopFilter(_StatelessFilter):
    """Drops common English words, keeping the positions of the others (unlike Whoosh's
    StopFilter, which renumbers them and drops one-character tokens)."""

    is_morph = False

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for token in tokens:
            if token.text in STOP_WORDS:
                if not token.removestops:
                    token.stopped = True
                    yield token
                continue
            yield token


class LatinStemFilter(_StatelessFilter):
    """Porter-stems words of Latin letters; other tokens (CJK n-grams, numbers) pass."""

    is_morph = True

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for token in tokens:
            text = token.text
            if text.isascii() and text.isalpha():
                token.text = stem(text)
            yield token


class WordPairFilter(_StatelessFilter):
    """After each Latin word that follows another (at most one dropped word between them),
    also yields the pair ``"first second"``, spanning both. A phrase is then found as its
    pairs, without positions: far cheaper than a positional phrase query in Whoosh."""

    is_morph = False

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        prev: tuple[str, int, int] | None = None  # text, pos, startchar
        for token in tokens:
            text = token.text
            if token.stopped or not text or _CJK_CHAR.match(text):
                yield token
                continue
            pos = token.pos
            start = getattr(token, "startchar", 0)
            yield token
            if prev is not None and pos - prev[1] <= 2:
                token.text = f"{prev[0]} {text}"
                token.pos = prev[1]
                if token.chars:
                    token.startchar = prev[2]
                yield token
            prev = (text, pos, start)


def is_pair(token: str) -> bool:
    """Whether a token is a word pair made by :class:`WordPairFilter`."""
    return " " in token


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    return str(_porter_stem(word))


def text_analyzer(part: str = "all") -> Any:
    """The analyzer of the index and the queries: words and CJK n-grams, common English words
    dropped, Latin words stemmed. ``part`` keeps only the ``words`` or the ``cjk`` n-grams
    (the index has a field for each)."""
    return CompositeAnalyzer(NgramWordTokenizer(part), EnglishStopFilter(), LatinStemFilter(),
                             WordPairFilter())


def tokens(analyzer: Any, text: str, mode: str = "query") -> list[tuple[str, int, int, int]]:
    """(text, position, start, end) of each token ``analyzer`` makes of ``text``."""
    return [(t.text, t.pos, t.startchar, t.endchar)
            for t in analyzer(text, positions=True, chars=True, mode=mode)]
