"""Text analysis of the search: a whoosh analyser chain, the same for the texts indexed and the
queries, and the reference the site's search (``search-engine.js``) is held to.

:data:`ANALYZER` is whoosh's :class:`~whoosh.analysis.RegexTokenizer` (runs of non-space
characters) followed by this module's filters and whoosh's :class:`~whoosh.analysis.StemFilter`:

1. :class:`FoldFilter`: Unicode NFKC (full-width letters, digits and punctuation become their
   ordinary forms, half-width katakana becomes full-width), lower case, a dash typed after
   kana for the prolonged sound mark made ``ー`` (:func:`long_marks`), katakana folded to
   hiragana, the katakana middle dot ``・`` dropped. So ``ＰＩＣＫ ＵＰ`` and ``pick up`` are
   one text, and so are ``リフレッシュ``, ``りふれっしゅ`` and ``ﾘﾌﾚｯｼｭ``.
2. :class:`NumeralFilter`: a CJK numeral that counts something is written as a digit, as the
   rulings write it (``第二次`` ``第2次``, ``二回目`` ``2回目``, ``两张`` ``2张``; the numerals and
   counters are data: ``[fold]`` of ``definition.toml``), and the ordinal before a digit is
   left out as a space (``第2次`` reads as ``2次``, so ``第二回`` finds ``2回目``); a numeral
   and counter spelt in kana are written so too (``にかいめ`` `` 2回目``, spaces keeping the
   length).
3. :class:`RunFilter`: the folded text cut into words of letters and digits (Latin, Greek,
   Cyrillic) and runs of CJK characters (kana and Han), :data:`TOKEN_PATTERN`.
4. whoosh's :class:`~whoosh.analysis.StemFilter` with :func:`latin_token`: an English word
   put in British spelling, the corpus's own (``color`` ``colour``, ``center`` ``centre``;
   :func:`british`), then Porter-stemmed by whoosh's stemmer (``refreshes``, ``refreshed``,
   ``refreshing``: ``refresh``), but for the few words Porter makes another word (``one``
   stays ``one``, not ``on``: ``[english] stems``); other runs pass unchanged.
5. :class:`CJKFilter`: a CJK run of ``n`` characters gives its ``n - 1`` overlapping pairs and
   its last character followed by :data:`RUN_END`, so every character starts a token: a word
   of two or more characters is found as the phrase of its pairs (which is its exact
   spelling), a single character as the start of a token. No dictionary is needed. A query
   (``mode="query"``) gives only the pairs of a run, and a run of one character gives that
   character followed by ``*`` (the start of a token) when it ends the text, else by
   :data:`RUN_END`.

The tokens go to the SQLite FTS5 index separated by spaces (its ``ascii`` tokenizer only splits
them again; :mod:`judge.search.index`) and to the site's index files (:mod:`judge.search.static`).
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from typing import Any

from judge.search.definition import definition

#: What whoosh's compatibility module, utilities and stemming filters import at once for
#: helpers the analysis never calls (a download, pickling, HTML escaping, a queue, random
#: names, the Double Metaphone filter: a sixth of a fresh ``judge search``'s imports), with
#: the names they take from each by ``from ... import``.
_WHOOSH_SPARED: dict[str, tuple[str, ...]] = {
    "urllib.request": ("urlretrieve",), "pickle": ("dump", "dumps", "load", "loads"),
    "html": ("escape",), "queue": (), "random": (),
    "whoosh.lang.dmetaphone": ("double_metaphone",)}


def _stand_in(name: str, names: tuple[str, ...]) -> Any:
    """A module that stands in for the module ``name`` while whoosh is imported: each of
    ``names``, and any other name once the stand-in is gone, imports the real module when
    used."""
    import importlib
    import types

    def real() -> Any:
        import sys

        if sys.modules.get(name) is stand_in:  # used while whoosh is being imported
            raise ImportError(f"{name} is needed while whoosh is imported")
        return importlib.import_module(name)

    def forward(attribute: str) -> Any:
        def call(*args: Any, **kwargs: Any) -> Any:
            return getattr(real(), attribute)(*args, **kwargs)

        return call

    def other(attribute: str) -> Any:
        if attribute.startswith("__"):  # what the import system looks for (__path__)
            raise AttributeError(attribute)
        return getattr(real(), attribute)

    stand_in = types.ModuleType(name)
    for attribute in names:
        setattr(stand_in, attribute, forward(attribute))
    stand_in.__dict__["__getattr__"] = other  # a module's own __getattr__ (PEP 562)
    return stand_in


def _import_whoosh() -> Any:
    """``whoosh.analysis``, imported without the modules of :data:`_WHOOSH_SPARED` that are
    not imported yet: each is a stand-in (:func:`_stand_in`) while whoosh is imported, and
    the names whoosh bound to it import the real module when used. The real modules are left
    to whoever imports them."""
    import importlib
    import sys

    if "whoosh.compat" in sys.modules:
        return importlib.import_module("whoosh.analysis")
    spared = {name: _stand_in(name, names) for name, names in _WHOOSH_SPARED.items()
              if name not in sys.modules}
    sys.modules.update(spared)
    try:
        return importlib.import_module("whoosh.analysis")
    finally:
        for name, stand_in in spared.items():
            if sys.modules.get(name) is stand_in:
                del sys.modules[name]
            parent, _, child = name.rpartition(".")
            if parent and getattr(sys.modules.get(parent), child, None) is stand_in:
                delattr(sys.modules[parent], child)


_import_whoosh()
from whoosh.analysis import Filter, RegexTokenizer, StemFilter  # noqa: E402
from whoosh.lang.porter import stem as _porter_stem  # noqa: E402

_FOLD = definition()["fold"]
_EN = definition()["english"]
_TYPOS = definition()["typos"]

#: Katakana (ァ..ヶ, ヽヾ) to hiragana; the prolonged sound mark ー stays as it is; the middle
#: dot ・ (and its half-width form, which NFKC turns into it) is dropped.
_KANA_FOLD: dict[int, int | None] = {code: code - 0x60 for code in range(0x30A1, 0x30F7)}
_KANA_FOLD.update({0x30FD: 0x309D, 0x30FE: 0x309E, 0x30FB: None})

#: The CJK characters (kana and Han), as ranges of code points (first, last) in order: the
#: iteration marks, hiragana, katakana and its prolonged sound mark, the small katakana, the Han
#: ideographs and their extension A and compatibility block, half-width katakana.
CJK_RANGES: tuple[tuple[int, int], ...] = (
    (0x3005, 0x3007), (0x3041, 0x3096), (0x309D, 0x309E), (0x30A1, 0x30FA), (0x30FC, 0x30FF),
    (0x31F0, 0x31FF), (0x3400, 0x4DBF), (0x4E00, 0x9FFF), (0xF900, 0xFAFF), (0xFF66, 0xFF9F))
_CJK = "".join(f"{chr(first)}-{chr(last)}" for first, last in CJK_RANGES)
_CJK_FIRST = tuple(first for first, _ in CJK_RANGES)
#: A word of letters and digits (Latin, Greek, Cyrillic), or a run of CJK characters.
TOKEN_PATTERN = re.compile(rf"[0-9a-z\u00c0-\u024f\u0370-\u03ff\u0400-\u04ff]+|[{_CJK}]+")
_VOICED_MARKS = ("\u3099", "\u309a")
#: Follows the last character of a CJK run in the index (``構_``).
RUN_END = "_"
#: Follows a single CJK character of a query: any token that starts with it.
PREFIX = "*"

#: A CJK numeral that counts something, written as a digit. One character for one: the
#: offsets stay.
_NUMERALS: dict[str, str] = dict(_FOLD["numerals"])
_NUMERAL_CLASS = "".join(_NUMERALS)
_NUMERAL_SET = frozenset(_NUMERALS)
#: Longer texts are searched for a few characters by a regular expression of their class (in
#: C), not by ``frozenset.isdisjoint``, which hashes every character: a class of characters
#: that are not ASCII costs a fresh ``judge search`` half a millisecond to compile, so a
#: query (short) never compiles one.
_LONG_TEXT = 64


@lru_cache(maxsize=8)
def _class_of(chars: frozenset[str]) -> re.Pattern[str]:
    return re.compile(f"[{re.escape(''.join(sorted(chars)))}]")


def _holds_any(chars: frozenset[str], text: str) -> bool:
    """Whether ``text`` holds one of ``chars``."""
    if len(text) <= _LONG_TEXT:
        return not chars.isdisjoint(text)
    return _class_of(chars).search(text) is not None


@lru_cache(maxsize=1)
def _counted() -> re.Pattern[str]:
    """A numeral after the ordinal or before a counter. Compiled when a text first holds a
    numeral, not at import: its classes of counters cost a fresh ``judge search`` several
    milliseconds, and most queries hold none."""
    return re.compile(f"(?<={re.escape(_FOLD['ordinal'])})[{_NUMERAL_CLASS}]|[{_NUMERAL_CLASS}]"
                      f"(?=[{re.escape(_FOLD['counters'])}])")


#: The ordinal before a digit, left out as a space (one character for one).
_ORDINAL = re.compile(f"{re.escape(_FOLD['ordinal'])}(?=[0-9])")

#: A numeral and its counter spelt in hiragana (にかいめ), longest spellings first.
_KANA_NUMERALS: dict[str, str] = dict(_FOLD["kana_numerals"])
_KANA_COUNTERS: dict[str, str] = dict(_FOLD["kana_counters"])


def _alternatives(words: dict[str, str]) -> str:
    return "|".join(re.escape(w) for w in sorted(words, key=lambda w: (-len(w), w)))


#: The characters a numeral spelt in kana starts with: a text without one holds none.
_KANA_STARTS = frozenset(word[0] for word in _KANA_NUMERALS)


@lru_cache(maxsize=1)
def _kana_counted_pattern() -> re.Pattern[str]:
    """A numeral and its counter in kana; compiled when a text first could hold one."""
    return re.compile(f"({_alternatives(_KANA_NUMERALS)})({_alternatives(_KANA_COUNTERS)})")


def _kana_counted(match: re.Match[str]) -> str:
    written = _KANA_NUMERALS[match.group(1)] + _KANA_COUNTERS[match.group(2)]
    return written.rjust(len(match.group(0)))


def _digits(text: str) -> str:
    if _holds_any(_KANA_STARTS, text):
        text = _kana_counted_pattern().sub(_kana_counted, text)
    if _holds_any(_NUMERAL_SET, text):
        text = _counted().sub(lambda m: _NUMERALS[m.group(0)], text)
    return _ORDINAL.sub(" ", text) if _FOLD["ordinal"] in text else text


#: The dashes that stand for the prolonged sound mark after kana (``[fold] long_marks``).
_LONG_MARKS = frozenset(_FOLD["long_marks"])


@lru_cache(maxsize=1)
def _long_mark_pattern() -> re.Pattern[str]:
    """A dash after kana (or after ``ー``) and before no digit; compiled when a text first
    holds a dash."""
    return re.compile(f"(?<=[\u3041-\u3096\u30a1-\u30fa\u30fc])"
                      f"[{re.escape(_FOLD['long_marks'])}](?![0-9])")


def long_marks(text: str) -> str:
    """``text`` (NFKC) with each dash typed after kana for the prolonged sound mark written
    ``ー`` (``ライフバ－スト`` ``ライフバースト``; ``パワー－3000`` keeps its minus): one character
    for one."""
    if not _holds_any(_LONG_MARKS, text):
        return text
    return _long_mark_pattern().sub("\u30fc", text)


@lru_cache(maxsize=1)
def _katakana() -> re.Pattern[str]:
    """A run of the characters :data:`_KANA_FOLD` changes (with ``ー``, which it keeps): a
    katakana word, folded once by :func:`_hiragana`; compiled when a long text first needs
    it."""
    return re.compile("[\u30a1-\u30f6\u30fb-\u30fe]+")


#: Katakana words folded, by word (emptied when it reaches :data:`_WORDS_MOST` words).
_kana_words: dict[str, str] = {}
_WORDS_MOST = 200_000


def _hiragana(match: re.Match[str]) -> str:
    word = match.group()
    folded = _kana_words.get(word)
    if folded is None:
        if len(_kana_words) >= _WORDS_MOST:
            _kana_words.clear()
        folded = _kana_words[word] = word.translate(_KANA_FOLD)
    return folded


def kana_fold(text: str) -> str:
    """``text.translate(_KANA_FOLD)`` (katakana to hiragana, no middle dots), each katakana
    word of a long text translated once: ``str.translate`` looks up every character of a
    text that is not ASCII in the table, and a Japanese text is mostly kana and kanji it
    leaves alone."""
    if text.isascii():
        return text
    if len(text) <= _LONG_TEXT:
        return text.translate(_KANA_FOLD)
    return _katakana().sub(_hiragana, text)


def _fold_width(text: str) -> str:
    return kana_fold(long_marks(unicodedata.normalize("NFKC", text).lower()))


_fold_char = lru_cache(maxsize=65536)(_fold_width)
#: Full-width ASCII and the ideographic space, each to its one ordinary character (as NFKC
#: makes them): a text that is normalised once these are is folded character for character.
_WIDE: dict[int, int] = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)}
_WIDE[0x3000] = 0x20


def fold(text: str) -> str:
    """NFKC, lower case, katakana to hiragana, no middle dots, counted CJK numerals as digits
    (the length may change): :class:`FoldFilter` and :class:`NumeralFilter` on a whole text."""
    return _digits(_fold_width(text))


def cjk_char(char: str) -> bool:
    """Whether the character ``char`` is CJK (kana or Han: :data:`CJK_RANGES`). A search of
    the table, not a regular expression: a class of these ranges costs ``re`` milliseconds to
    compile at every start (:data:`TOKEN_PATTERN`'s is the one left)."""
    code = ord(char)
    at = bisect_right(_CJK_FIRST, code) - 1
    return at >= 0 and code <= CJK_RANGES[at][1]


def is_cjk(text: str) -> bool:
    """Whether ``text`` holds a CJK character (kana or Han)."""
    return not text.isascii() and any(map(cjk_char, text))


# ---------------------------------------------------------------------- English words

_BRITISH: dict[str, str] = dict(_EN["british"])
_OUR_STEMS: tuple[str, ...] = tuple(_EN["our_stems"])
_DOUBLE_L: tuple[str, ...] = tuple(_EN["double_l"])
_DOUBLE_L_ENDINGS: tuple[str, ...] = tuple(_EN["double_l_endings"])
_IZE_WORDS = frozenset(_EN["ize_words"])
_IZE_ENDINGS: tuple[str, ...] = tuple(_EN["ize_endings"])
_YZE_ENDINGS: tuple[str, ...] = tuple(_EN["yze_endings"])
#: Words Porter's stemmer would make another word (``one``: ``on``), with their own token.
_STEMS: dict[str, str] = dict(_EN["stems"])
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
        if word.startswith(verb) and word[len(verb):] in _DOUBLE_L_ENDINGS:
            return verb + "l" + word[len(verb):]
    if word.endswith(_IZE_ENDINGS) and word not in _IZE_WORDS:
        return _IZE.sub(lambda m: "is" + m.group(1), word)
    if word.endswith(_YZE_ENDINGS):
        return _YZE.sub(lambda m: "ys" + m.group(1), word)
    return word


#: :func:`british` of each word once (words repeat in any text).
_british = lru_cache(maxsize=200_000)(british)


@lru_cache(maxsize=200_000)
def latin_token(word: str) -> str:
    """The index token of a folded Latin word: British spelling, then whoosh's Porter stem
    (words with digits or letters outside a-z are kept as they are)."""
    if word in _STEMS:
        return _STEMS[word]
    if word.isascii() and word.isalpha():
        return str(_porter_stem(british(word)))
    return word


# ---------------------------------------------------------------------- the chain


class FoldFilter(Filter):  # type: ignore[misc]  # whoosh has no type information
    """NFKC, lower case, katakana to hiragana, no middle dots (see the module)."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            t.text = _fold_width(t.text)
            yield t


class NumeralFilter(Filter):  # type: ignore[misc]
    """A counted CJK numeral as a digit (``第二次`` ``第2次``), the ordinal before a digit left
    out (``第2次`` `` 2次``)."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            t.text = _digits(t.text)
            yield t


class RunFilter(Filter):  # type: ignore[misc]
    """A folded text cut into Latin words and CJK runs (:data:`TOKEN_PATTERN`)."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        for t in tokens:
            runs = TOKEN_PATTERN.findall(t.text)
            for run in runs:
                t.text = run
                yield t


class CJKFilter(Filter):  # type: ignore[misc]
    """CJK runs as character pairs (see the module); Latin words pass through."""

    def __call__(self, tokens: Iterator[Any]) -> Iterator[Any]:
        pending = ""  # a query's run of one character, until it is known whether it ends
        # the last character of a query's longer run: its end is looked for only where
        # another token follows in the same text (手札が3枚: 手札 札が が_ 3 ..., as indexed),
        # not at the end, where the run may go on in a text (手札 finds 手札が)
        ending = ""
        last = None
        for t in tokens:
            last = t
            text = t.text
            if pending or ending:
                t.text = (pending or ending) + RUN_END
                pending = ending = ""
                yield t
            if not cjk_char(text[0]):
                t.text = text
                yield t
            elif t.mode == "query":
                if len(text) == 1:
                    pending = text
                    continue
                for i in range(len(text) - 1):
                    t.text = text[i:i + 2]
                    yield t
                ending = text[-1]
            else:
                for i in range(len(text) - 1):
                    t.text = text[i:i + 2]
                    yield t
                t.text = text[-1] + RUN_END
                yield t
        if pending and last is not None:
            last.text = pending + PREFIX
            yield last


#: The analyser of every text indexed and every query text (``mode="query"``).
ANALYZER = (RegexTokenizer(r"\S+") | FoldFilter() | NumeralFilter() | RunFilter()
            | StemFilter(stemfn=latin_token, cachesize=None) | CJKFilter())


#: The tokens of a chunk of ASCII characters (a word with its punctuation), by chunk: words
#: repeat in any text, and each is analysed once. Emptied when it reaches
#: :data:`_ASCII_CHUNKS_MOST` chunks.
_ascii_chunks: dict[str, list[str]] = {}
_ASCII_CHUNKS_MOST = 200_000


def _chunk_tokens(chunk: str) -> list[str]:
    """The index tokens of one chunk of a text (a run of non-space characters), as
    :data:`ANALYZER` makes them in ``mode="index"``: its filters on the chunk, in a loop
    of their own rather than a chain of generators of whoosh tokens (the index's texts are
    most of a site build's search phase)."""
    out: list[str] = []
    for run in TOKEN_PATTERN.findall(_digits(_fold_width(chunk))):
        run = latin_token(run)
        if not cjk_char(run[0]):
            out.append(run)
        else:
            out += map(str.__add__, run, run[1:])  # its pairs
            out.append(run[-1] + RUN_END)
    return out


def index_tokens(text: str) -> list[str]:
    """The tokens of ``text`` as the index holds them, in order (see the module): what
    :data:`ANALYZER` gives in ``mode="index"`` (tests/test_search.py holds the two to the same
    tokens), each chunk analysed on its own, as the chain does (the index mode carries nothing
    from one chunk to the next)."""
    out: list[str] = []
    cache = _ascii_chunks
    for chunk in text.split():  # the runs of non-space characters, as RegexTokenizer's \S+
        if not chunk.isascii():
            out += _chunk_tokens(chunk)
            continue
        tokens = cache.get(chunk)
        if tokens is None:
            if len(cache) >= _ASCII_CHUNKS_MOST:
                cache.clear()
            tokens = cache[chunk] = _chunk_tokens(chunk)
        out += tokens
    return out


def query_tokens(text: str) -> list[str]:
    """The tokens a query text is looked for as, in order: a Latin word as its token, a CJK
    run of two or more characters as its pairs (together they spell it), a single CJK
    character as itself followed by ``*`` (the start of a token) at the end of the text, else
    followed by :data:`RUN_END`."""
    return [t.text for t in ANALYZER(text, mode="query")]


def latin_words(text: str) -> list[str]:
    """The folded Latin words of ``text`` (British spelling, not stemmed): the index's
    vocabulary for typo correction."""
    return [_british(word) for word in TOKEN_PATTERN.findall(fold(text))
            if word.isascii() and word.isalpha()]


def normalize(text: str) -> tuple[str, list[int], list[int]]:
    """:func:`fold` with, for each character of the result, where it starts and ends in
    ``text`` (for highlighting the original text)."""
    folded = fold(text)
    if len(folded) == len(text) and (text.isascii() or (
            "\u30fb" not in text and "\uff65" not in text
            and unicodedata.is_normalized("NFKC", text.translate(_WIDE))
            and len(text.lower()) == len(text))):
        # each character folds to one (full-width punctuation and letters, one for one)
        ends = list(range(1, len(text) + 1))
        return folded, list(range(len(text))), ends
    out: list[str] = []
    starts: list[int] = []
    ends = []
    for i, char in enumerate(text):
        piece = _fold_char(char)
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
    return _digits(long_marks("".join(out))), starts, ends


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
    text = long_marks(unicodedata.normalize("NFKC", text))
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


class Highlight:
    """What a query marks in a text (``terms``: Latin tokens, phrases of them joined by
    spaces, folded CJK strings), sorted once for every text it marks."""

    def __init__(self, terms: set[str]) -> None:
        self.latin = {t for t in terms if not is_cjk(t) and " " not in t}
        self.phrases = [t.split(" ") for t in terms if not is_cjk(t) and " " in t]
        self.runs = [t for t in terms if is_cjk(t)]

    def spans(self, text: str) -> list[tuple[int, int]]:
        """The character ranges of ``text`` that match, merged: a Latin word whose token is
        a term, a run of Latin words whose tokens are a phrase (``main deck``), and wherever
        the folded text holds a CJK term."""
        folded, starts, ends = normalize(text)
        spans: list[tuple[int, int]] = []
        latin, phrases = self.latin, self.phrases
        words = [(latin_token(m.group(0)), starts[m.start()], ends[m.end() - 1])
                 for m in TOKEN_PATTERN.finditer(folded) if not cjk_char(m.group(0)[0])] \
            if latin or phrases else []
        spans += [(s, e) for token, s, e in words if token in latin]
        for phrase in phrases:
            n = len(phrase)
            for i in range(len(words) - n + 1):
                if [w[0] for w in words[i:i + n]] == phrase:
                    spans.append((words[i][1], words[i + n - 1][2]))
        for run in self.runs:
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


def match_spans(text: str, terms: set[str]) -> list[tuple[int, int]]:
    """The character ranges of ``text`` that match ``terms`` (:meth:`Highlight.spans`)."""
    return Highlight(terms).spans(text)


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


def deletions(word: str, most: int) -> set[str]:
    """``word`` with up to ``most`` of its letters left out (itself included): two words at
    most ``most`` edits apart (letters added, left out, changed, neighbours swapped) share
    one of these, so the words a typo may be are found without comparing every word."""
    out = {word}
    frontier = {word}
    for _ in range(most):
        frontier = {w[:i] + w[i + 1:] for w in frontier for i in range(len(w))}
        out |= frontier
    return out


def typo_limit(word: str) -> int:
    """How many edits a word may be from the one meant (``[typos]`` of the definition: none
    under five letters, one for five to seven, two from eight)."""
    if len(word) < _TYPOS["min_length"]:
        return 0
    return int(_TYPOS["edits"][0] if len(word) < _TYPOS["long"] else _TYPOS["edits"][1])
