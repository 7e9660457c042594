"""The search index: Pagefind, run from Python on a built site, one bundle per language.

``judge build`` hands :func:`index_site` the complete new site folder just before it is
swapped in (``build_site(..., finish=index_site)``), so an indexing that fails leaves the
previous site as it was. Each language tree gets its own bundle, ``<lang>/pagefind/``, holding
the index and Pagefind's search library (``pagefind.js`` and its WebAssembly), which the search
page loads from the site itself (``site_templates/assets/search.js``, which draws its own
results: Pagefind's ready-made interfaces are left out of the bundle).

What is indexed:

- every ruling page (the only pages with ``data-pagefind-body``), weighted by the templates:
  the title, the question, the answer and the names and aliases of the terms the ruling is
  the main ruling of weigh more than the explanation and the list of glossary terms, and the
  replay, the tables, the sources and the tag list are not indexed (``data-pagefind-ignore``;
  the filters they carry still count);
- every section with a ``data-result`` attribute of the glossary, the processing page and the
  timeline: each glossary term, each kind of rule processing and each rule set becomes a small
  page of its own in the index (:func:`result_records`), whose address is the section's
  anchor (``/glossary/#t-refresh``), so the search finds a term by any of its names or
  aliases and shows its definition.

The pages are indexed from copies (:func:`index_text`; the pages that are served are not
changed) that add, after a text, what the browser's query may hold instead:

- *folded forms*: the NFKC form of a run of full-width or half-width characters
  (``ＰＩＣＫ`` -> ``pick``) and the katakana form of a run of hiragana (``てふだ`` -> ``テフダ``)
  that is all kana, since the search page folds a query the same way (``search.js``);
- *pieces of the terms' names*: Pagefind Extended segments Japanese and Chinese text into
  words when it indexes; in the browser it segments a Japanese or Chinese query with
  ``Intl.Segmenter``, and the two do not always agree: the index keeps 重构 as one word where
  the browser makes 重 and 构 of the query, so that query found nothing (Pagefind issue #1237).
  After each term name (in the list of glossary terms, the names of a glossary entry and the
  terms a ruling explains) come the suffixes of its runs of ideographs (重构 -> 构), so that
  however the browser cuts a term's name, each piece starts a word of the index; in the list
  of terms these pieces weigh a little more than the page's text, so the rulings that list the
  term come first.

Each bundle also holds ``terms.json``, every name and alias of the glossary, from which the
search page suggests a correction when a query matches nothing.

Pagefind writes its filter and metadata files in an order that changes from run to run; each
bundle is then rewritten in one order (:mod:`judge.site.pagefind_order`), so that the same
site gives the same index, byte for byte.

The copies are written into a working folder inside the site folder being indexed
(``.judge-pagefind-XXXXXXXX``), removed before :func:`index_site` returns or fails (SIGTERM
included, see :mod:`judge.outputs`). ``judge build`` indexes its new site in the temporary
folder beside the output, so the copies of a killed build go with that folder, which the next
build removes; a working folder that a killed indexing left in a site is removed by the next
indexing of that site. Nothing is written to the system's temporary folder.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import html
import json
import os
import re
import shutil
import tempfile
import time
import unicodedata
from collections.abc import Callable, Coroutine, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

from judge.atomic import busy, lock_path
from judge.i18n import LANGS
from judge.site.build import BuildError
from judge.site.pagefind_order import BundleFormatError, canonicalise

#: The folder of each language's bundle, under ``<lang>/``.
BUNDLE = "pagefind"
#: Seconds one request to Pagefind (indexing one language's pages, say) may take.
TIMEOUT = 600.0
#: Word locations per chunk of the word index (Pagefind's default: 20,000), and the variable
#: through which Pagefind 1.5 takes it. At 3,000 a first search downloads 9 KB less in Japanese
#: than at 4,000 (the chunk holding リフレッシュ: 12 KB instead of 21 KB), for about a third
#: more chunks.
INDEX_CHUNK_SIZE = 3000
CHUNK_VARIABLE = "PAGEFIND_UNSTABLE_INDEX_CHUNK_SIZE"

#: Pages (under ``<lang>/``) whose ``data-result`` sections are results of their own.
RESULT_PAGES = ("glossary", "processing", "timeline")
#: Files of Pagefind's bundle the site does not use (its ready-made search interfaces).
UNUSED = ("pagefind-ui.js", "pagefind-ui.css", "pagefind-component-ui.js",
          "pagefind-component-ui.css", "pagefind-modular-ui.js", "pagefind-modular-ui.css",
          "pagefind-highlight.js")
#: The glossary's names and aliases, for the search page's suggestions.
TERMS_FILE = "terms.json"
#: The start of the name of the working folder of the copies, inside the site folder.
WORK_PREFIX = ".judge-pagefind-"

# a section of a result page that is a result of its own: <section id=... data-result=...>
_RESULT = re.compile(r'<section\b[^>]*\bdata-result="([^"]+)"[^>]*>')
_ID = re.compile(r'\bid="([^"]+)"')
_TITLE = re.compile(r'data-pagefind-meta="title"[^>]*>([^<]*)<')
# a run of CJK ideographs (kana words are cut alike by the index and the browser)
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
# a run of letters, digits and kana (what a folded copy is made of)
_WORD_RUN = re.compile(r"[^\W_]+|[\u3040-\u30ff\uff65-\uff9f]+")
# an element that is not indexed, and what is blanked out of it
_IGNORED = re.compile(r"<([a-z][a-z0-9]*)\b[^>]*\bdata-pagefind-ignore\b[^>]*>")
_NOT_NEWLINE = re.compile(r"[^\n]")
_WIDTH_FORM = re.compile(r"[\uff01-\uffef]")
_KANA_RUN = re.compile(r"^[\u3041-\u3096\u309d\u309e\u30a1-\u30fa\u30fc\u30fd\u30fe]+$")
#: How much a piece weighs at least against the page's text (Pagefind's data-pagefind-weight):
#: a ruling that lists the term comes before one that merely holds its characters.
PIECE_WEIGHT = "2"
#: How much a term's aliases weigh on a ruling that lists the term (as the list itself).
ALIAS_WEIGHT = "1"
#: Classes of the elements whose text is term names (pieces are added after them).
NAME_CLASSES = frozenset({"names", "terms"})
#: Metadata the search page shows: what is added to the index goes after their element.
SHOWN_META = frozenset({"title", "answer"})
#: Pagefind's weights of headings without data-pagefind-weight.
HEADING_WEIGHTS = {"h1": "7", "h2": "6", "h3": "5", "h4": "4", "h5": "3", "h6": "2"}
VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta",
                  "source", "track", "wbr"})


class SearchIndexError(BuildError):
    """Pagefind could not index the site; the previous site is untouched."""


@dataclass
class IndexReport:
    #: ruling pages indexed per language
    pages: dict[str, int] = field(default_factory=dict)
    #: results of the result pages indexed per language (glossary terms, kinds, rule sets)
    records: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0


def name_pieces(name: str) -> list[str]:
    """The suffixes of each run of CJK ideographs in ``name`` (重构 -> 构; 主牌组 -> 牌组, 组).

    Wherever the browser cuts such a run, each piece of the query starts where the run or
    one of these suffixes starts, so it is the start of a word (Pagefind matches by prefix);
    kana words are cut alike by the indexer and the browser."""
    pieces: list[str] = []
    for run in _HAN_RUN.findall(name):
        pieces += [run[i:] for i in range(1, len(run))]
    return pieces


def fold(text: str) -> str:
    """The form in which the search page looks a query up: NFKC (full-width and half-width
    forms made one), lower case, hiragana made katakana. ``search.js`` folds alike."""
    text = unicodedata.normalize("NFKC", text).lower()
    return "".join(chr(ord(c) + 0x60) if "\u3041" <= c <= "\u3096" else c for c in text)


def folded_forms(text: str, names: bool = False) -> list[str]:
    """What a query folded as :func:`fold` may hold that ``text`` does not: the NFKC form of
    each run with full-width or half-width forms (ＰＩＣＫ -> pick, ﾊﾞﾆｯｼｭ -> バニッシュ) and,
    when ``text`` is names (of glossary terms, aliases), the katakana form of each run that is
    all kana (てふだ -> テフダ). In a sentence a run of kana is a word's ending or a particle,
    whose katakana form nobody types."""
    out: list[str] = []
    for run in _WORD_RUN.findall(text):
        plain = run.lower()
        if names and _KANA_RUN.match(unicodedata.normalize("NFKC", plain)):
            form = fold(run)
        elif _WIDTH_FORM.search(run):
            form = unicodedata.normalize("NFKC", plain)
        else:
            continue
        if form != plain and form not in out:
            out.append(form)
    return out


@dataclass
class _Open:
    tag: str
    weight: str  # the weight of the element's text
    ignored: bool
    names: bool  # its text is term names
    meta: bool  # its text is a metadata value that is shown: additions go after the element
    in_meta: bool  # inside a metadata element: additions are plain text (no weighted span)
    term: str = ""  # a link to this glossary term (#t-<id>)
    meta_root: bool = False  # the element that carries data-pagefind-meta
    names_from: int = 0  # how many names had been seen when it opened
    terms: list[str] = field(default_factory=list)  # (meta root) the terms linked inside
    later: list[str] = field(default_factory=list)  # additions kept for after the element


def _name_additions(text: str) -> list[str]:
    """What the index adds after a term's name: the pieces of its ideographs and its folded
    forms (see the module's docstring)."""
    return list(dict.fromkeys(name_pieces(text) + folded_forms(text, True)))


class _IndexCopy(HTMLParser):
    """Finds where :func:`index_text` adds folded forms, pieces and aliases, and collects the
    term names it saw and the terms the page explains."""

    def __init__(self, source: str, forms: Mapping[str, Sequence[str]]) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.forms = forms
        self.line_starts = [0]
        for line in source.splitlines(keepends=True):
            self.line_starts.append(self.line_starts[-1] + len(line))
        self.stack: list[_Open] = []
        self.body = False  # inside data-pagefind-body
        self.pending: list[str] = []  # additions for the text just read
        self.inserts: list[tuple[int, str]] = []
        self.names: list[str] = []
        self.explained: list[str] = []  # terms whose main ruling this page is

    def position(self) -> int:
        line, column = self.getpos()
        return self.line_starts[line - 1] + column

    def flush(self) -> None:
        if self.pending:
            self.inserts.append((self.position(), "".join(self.pending)))
            self.pending = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.flush()
        if tag in VOID:
            return
        values = dict(attrs)
        parent = self.stack[-1] if self.stack else None
        weight = values.get("data-pagefind-weight") or HEADING_WEIGHTS.get(tag) or \
            (parent.weight if parent else "1")
        ignored = "data-pagefind-ignore" in values or bool(parent and parent.ignored)
        classes = set((values.get("class") or "").split())
        names = bool(classes & NAME_CLASSES) or bool(parent and parent.names)
        meta = (values.get("data-pagefind-meta") or "") in SHOWN_META
        in_meta = "data-pagefind-meta" in values or bool(parent and parent.in_meta)
        if "data-pagefind-body" in values:
            self.body = True
        href = values.get("href") or ""
        term = href.partition("#t-")[2] if tag == "a" and names and "#t-" in href else ""
        self.stack.append(_Open(tag, weight, ignored, names, meta, in_meta, term,
                                "data-pagefind-meta" in values, len(self.names)))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.flush()

    def handle_endtag(self, tag: str) -> None:
        self.flush()
        if tag in VOID or not any(o.tag == tag for o in self.stack):
            return
        while self.stack:
            closed = self.stack.pop()
            end = self.source.index(">", self.position()) + 1
            if closed.later:
                self.inserts.append((end, "".join(closed.later)))
            if closed.term and self.body and not closed.ignored:
                root = next((o for o in reversed(self.stack) if o.meta_root), None)
                if root is not None:  # the terms a ruling explains: aliases at the end
                    root.terms.append(closed.term)
                    self.explained.append(closed.term)
                else:
                    self._aliases(closed, end, weighted=True)
            if closed.meta_root and closed.terms:
                self._aliases(closed, self.position(), weighted=False)
            if closed.tag == tag:
                break

    def _aliases(self, element: _Open, at: int, weighted: bool) -> None:
        """At ``at``, the aliases (judges' words, in every language) of the terms of a link in
        a list of glossary terms (``weighted``: in a span of their own weight) or of the terms
        a ruling explains (plain text, inside the metadata), with their pieces and folded
        forms, less the names already there: a ruling is then found by them."""
        shown = set(self.names[element.names_from:])
        aliases = [a for term in (element.terms or [element.term])
                   for a in self.forms.get(term, ()) if a not in shown]
        if not aliases:
            return
        words = [*aliases, *(x for a in aliases for x in _name_additions(a))]
        text = html.escape(" · ".join(dict.fromkeys(words)))
        self.inserts.append((at, f'<span data-pagefind-weight="{ALIAS_WEIGHT}"> {text}</span>'
                             if weighted else f" · {text}"))

    def handle_data(self, data: str) -> None:
        if not self.body or not self.stack or self.stack[-1].ignored or not data.strip():
            return
        here = self.stack[-1]
        additions: list[tuple[str, str]] = []  # (weight, text)
        if here.names:
            for name in (n.strip() for n in data.split("·")):
                if re.search(r"\w", name):
                    self.names.append(name)
            pieces = list(dict.fromkeys(name_pieces(data)))
            if pieces:
                weight = max(here.weight, PIECE_WEIGHT, key=float)
                additions.append((weight, " ".join(pieces)))
        forms = folded_forms(data, here.names)
        if forms:
            additions.append((here.weight, " ".join(forms)))
        if not additions:
            return
        spans = "".join(f'<span data-pagefind-weight="{weight}"> {html.escape(text)}</span>'
                        for weight, text in additions)
        # a metadata value that is shown must not change: the additions go after it; in one
        # that is not, a weighted span would leave Pagefind's marks in the value
        holder = next((o for o in reversed(self.stack) if o.meta), None)
        if holder is not None:
            holder.later.append(spans)
        elif here.in_meta:
            self.pending.append("".join(f" {html.escape(text)}" for _, text in additions))
        else:
            self.pending.append(spans)

    def close(self) -> None:
        super().close()
        self.flush()


def _blank_ignored(page: str) -> str:
    """``page`` with the content of each element marked ``data-pagefind-ignore`` blanked out
    (the same length, so that the places the parser finds are the page's): nothing is added
    there, and the replay's boards and lists are most of a ruling page's elements."""
    out: list[str] = []
    last = 0
    for start in _IGNORED.finditer(page):
        if start.start() < last:
            continue  # inside one already blanked
        tag = start.group(1)
        depth = 1
        end = None
        for mark in re.finditer(rf"<(/?){tag}\b[^>]*>", page[start.end():]):
            depth += -1 if mark.group(1) else (0 if mark.group(0).endswith("/>") else 1)
            if depth == 0:
                end = start.end() + mark.start()
                break
        if end is None:
            break  # not closed: leave the rest as it is
        out += [page[last:start.end()], _NOT_NEWLINE.sub(" ", page[start.end():end])]
        last = end
    out.append(page[last:])
    return "".join(out)


def index_text(page: str, forms: Mapping[str, Sequence[str]] | None = None,
               exact: Sequence[str] = ()) -> str:
    """The text Pagefind indexes for a page: the page, with the folded forms of its words,
    the pieces of its terms' names and the aliases of its terms (``forms``: every name and
    alias of each glossary term) added, and the ``exact`` metadata (see the module's
    docstring)."""
    return _index_copy(page, forms or {}, exact)[0]


def _index_copy(page: str, forms: Mapping[str, Sequence[str]],
                exact: Sequence[str] = ()) -> tuple[str, list[str]]:
    """:func:`index_text`, and the term names the page holds. ``exact``: the names and
    aliases the page is the first answer for, besides those of the terms it explains."""
    parser = _IndexCopy(page, forms)
    parser.feed(_blank_ignored(page))
    parser.close()
    out: list[str] = []
    last = 0
    for at, text in sorted(parser.inserts, key=lambda insert: insert[0]):
        out += [page[last:at], text]
        last = at
    out.append(page[last:])
    text = "".join(out)
    wanted = list(exact) + [form for term in parser.explained for form in forms.get(term, ())]
    folded = list(dict.fromkeys(fold(" ".join(f.split())) for f in wanted if "|" not in f))
    if folded and "</main>" in text:
        at = text.rindex("</main>")
        text = (text[:at] + '<div data-pagefind-ignore data-pagefind-meta="exact">'
                + html.escape("|".join(folded)) + "</div>\n" + text[at:])
    return text, parser.names


@dataclass(frozen=True)
class Record:
    """A section of a result page that is a result of its own."""

    key: str  # "term:refresh", "processing:refresh", "change:2014-07"
    path: str  # the small page's file under <lang>/ in the index: glossary/t-refresh/index.html
    html: str  # the small page, as Pagefind indexes it

    @property
    def url(self) -> str:
        """Its address in the index (``/glossary/t-refresh/``); the search page turns it into
        the section's (``glossary/#t-refresh``)."""
        return "/" + self.path.removesuffix("index.html")


def result_records(page: str, lang: str, path: str) -> list[Record]:
    """The ``data-result`` sections of the page at ``path`` (``glossary/``), each as a small
    page of its own (``<main data-pagefind-body>`` and the section), to be indexed at
    ``<path><anchor>/`` (``glossary/t-refresh/``).

    Pagefind names a page after its file, and adding a page with an address of its own takes
    a tenth of a second per page (the Python service reads one answer every 0.1 s), so the
    small pages are files in the folder that is indexed, and the search page turns their
    address into the section's: ``/glossary/t-refresh/`` -> ``glossary/#t-refresh``.
    The sections hold no other section (the templates make them so, and a test checks it)."""
    records = []
    for start in _RESULT.finditer(page):
        ident = _ID.search(start.group(0))
        end = page.find("</section>", start.end())
        if ident is None or end < 0 or "/" in ident.group(1):
            raise SearchIndexError(f"{lang}/{path}: a data-result section without id or end")
        body = page[start.start():end + len("</section>")]
        title = _TITLE.search(body)
        records.append(Record(
            key=start.group(1), path=f"{path}{ident.group(1)}/index.html",
            html=(f'<!doctype html>\n<html lang="{lang}">\n<head><meta charset="utf-8">'
                  f"<title>{title.group(1) if title else ''}</title></head>\n"
                  f"<body><main data-pagefind-body>\n{body}\n</main></body>\n</html>\n")))
    return records


def ruling_pages(folder: Path, lang: str) -> list[Path]:
    return sorted((folder / lang / "rulings").glob("*/index.html"))


def index_site(folder: Path,
               progress: Callable[[str, int, int], None] | None = None) -> IndexReport:
    """Write ``<lang>/pagefind/`` into the built site ``folder`` for every language;
    ``progress("search index", done, total)`` is called as each language is indexed.

    Raises :class:`SearchIndexError` when Pagefind is missing or fails, or indexes fewer
    pages than the site has rulings and results."""
    start = time.perf_counter()
    try:
        from pagefind.service import PagefindService  # noqa: F401 - checks it is installed
    except ImportError as exc:  # pragma: no cover - pagefind is a dependency
        raise SearchIndexError("the search index needs Pagefind: pip install 'pagefind[extended]'"
                               " (or build without it: judge build --no-search)") from exc
    folder = folder.resolve()
    expected = {lang: ruling_pages(folder, lang) for lang in LANGS}
    records: dict[str, list[Record]] = {}
    names: dict[str, set[str]] = {}
    report = IndexReport()
    with _working_folder(folder) as copies:
        for lang, pages in expected.items():
            # the glossary first: every name and alias of each term, for the other pages
            found: list[tuple[Record, list[str]]] = []
            for name in RESULT_PAGES:
                source = folder / lang / name / "index.html"
                if source.is_file():
                    for record in result_records(source.read_text(encoding="utf-8"), lang,
                                                 f"{name}/"):
                        found.append((record, _index_copy(record.html, {})[1]))
            forms = {record.key.partition(":")[2]: seen for record, seen in found
                     if record.key.startswith("term:")}
            names[lang] = {name for seen in forms.values() for name in seen}
            records[lang] = []
            for record, seen in found:
                exact = seen if record.key.startswith("term:") else ()
                target = copies / lang / record.path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(_index_copy(record.html, {}, exact)[0], encoding="utf-8")
                records[lang].append(record)
            for page in pages:
                target = copies / lang / page.relative_to(folder / lang)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(index_text(page.read_text(encoding="utf-8"), forms),
                                  encoding="utf-8")
        try:
            report.pages, report.records = _run(copies, folder, records, progress)
        except SearchIndexError:
            raise
        except Exception as exc:  # Pagefind reports its failures as plain exceptions
            raise SearchIndexError(f"Pagefind failed to index the site: {exc!r}") from exc
    for lang, pages in expected.items():
        if report.pages.get(lang, 0) != len(pages):
            raise SearchIndexError(f"Pagefind indexed {report.pages.get(lang, 0)} {lang} pages "
                                   f"of {len(pages)}")
        if report.records.get(lang, 0) != len(records[lang]):
            raise SearchIndexError(f"Pagefind indexed {report.records.get(lang, 0)} {lang} "
                                   f"results of the glossary, processing and timeline pages "
                                   f"of {len(records[lang])}")
        bundle = folder / lang / BUNDLE
        if not (bundle / "pagefind.js").is_file():
            raise SearchIndexError(f"Pagefind wrote no {lang}/{BUNDLE}/pagefind.js")
        for name in UNUSED:
            (bundle / name).unlink(missing_ok=True)
        (bundle / TERMS_FILE).write_text(
            json.dumps(sorted(names[lang]), ensure_ascii=False, separators=(",", ":")) + "\n",
            encoding="utf-8")
        try:
            canonicalise(bundle)
        except BundleFormatError as exc:
            raise SearchIndexError(f"cannot put the search index in a stable order: {exc}") \
                from exc
    report.seconds = time.perf_counter() - start
    return report


@contextlib.contextmanager
def _working_folder(folder: Path) -> Iterator[Path]:
    """A new working folder inside ``folder``, held by a lock while it is used and removed
    after; first, those of indexings killed in ``folder`` are removed (not one still held)."""
    for stale in sorted(folder.glob(f"{WORK_PREFIX}*")):
        if stale.is_dir() and not stale.is_symlink() and not busy(stale):
            shutil.rmtree(stale, ignore_errors=True)
    try:
        work = Path(tempfile.mkdtemp(prefix=WORK_PREFIX, dir=folder))
    except OSError as exc:
        raise SearchIndexError(f"cannot write the search index's copies into {folder}: "
                               f"{exc.strerror}") from None
    lock = lock_path(work)
    try:
        yield work
    finally:
        shutil.rmtree(work, ignore_errors=True)
        if lock is not None:
            os.close(lock)


def _run(copies: Path, folder: Path, records: dict[str, list[Record]],
         progress: Callable[[str, int, int], None] | None
         ) -> tuple[dict[str, int], dict[str, int]]:
    """Run :func:`_index` to the end, in a thread of its own when this thread already runs
    an event loop (as Playwright's synchronous API does)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_index(copies, folder, records, progress))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(
            lambda: asyncio.run(_index(copies, folder, records, progress))).result()


async def _index(copies: Path, folder: Path, records: dict[str, list[Record]],
                 progress: Callable[[str, int, int], None] | None
                 ) -> tuple[dict[str, int], dict[str, int]]:
    from pagefind.index import IndexConfig
    from pagefind.service import PagefindService

    # smaller chunks of the word index than Pagefind's default (20,000 word locations):
    # a first search fetches one chunk, and the chunk holding リフレッシュ was 55 KB of the
    # 200 KB a first search may download (the variable is read by Pagefind 1.5's indexer)
    previous = os.environ.get(CHUNK_VARIABLE)
    os.environ[CHUNK_VARIABLE] = previous or str(INDEX_CHUNK_SIZE)
    try:
        service = await PagefindService().launch()
    finally:
        if previous is None:
            del os.environ[CHUNK_VARIABLE]
    backend = service._backend  # the Pagefind process, to notice when it stops

    async def call(request: Coroutine[Any, Any, Any]) -> Any:
        """The answer to one request, or an error if Pagefind stops or takes too long (the
        service would otherwise wait for an answer that never comes)."""
        task = asyncio.ensure_future(request)
        stopped = asyncio.ensure_future(backend.wait())
        done, _ = await asyncio.wait({task, stopped}, timeout=TIMEOUT,
                                     return_when=asyncio.FIRST_COMPLETED)
        stopped.cancel()
        if task in done:
            return task.result()
        task.cancel()
        if stopped in done:
            raise SearchIndexError(f"Pagefind stopped (exit status {backend.returncode})")
        raise SearchIndexError(f"Pagefind gave no answer in {TIMEOUT:.0f} s")

    counts: dict[str, int] = {}
    added_records: dict[str, int] = {}
    try:
        for lang in LANGS:
            # the copies of <lang>/ give the pages their addresses relative to the language
            # root (/rulings/<id>/), which the search page prefixes with its own location
            index = await call(service.create_index(IndexConfig()))
            source = copies / lang
            counts[lang] = 0
            added_records[lang] = 0
            if source.is_dir():
                added = await call(index.add_directory(str(source), glob="rulings/**/*.html"))
                counts[lang] = int(added["page_count"])
                if records.get(lang):
                    added = await call(index.add_directory(
                        str(source), glob=f"{{{','.join(RESULT_PAGES)}}}/**/*.html"))
                    added_records[lang] = int(added["page_count"])
            await call(index.write_files(output_path=str(folder / lang / BUNDLE)))
            await call(index.delete_index())
            if progress is not None:
                progress("search index", len(counts), len(LANGS))
    except BaseException:
        # stop Pagefind at once: the service's own close() waits for answers still due
        service._poll_task.cancel()
        with contextlib.suppress(ProcessLookupError):
            backend.kill()
        await backend.wait()
        raise
    await service.close()
    return counts, added_records
