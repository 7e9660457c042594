"""The search index: Pagefind, run from Python on a built site, one bundle per language.

``judge build`` hands :func:`index_site` the complete new site folder just before it is
swapped in (``build_site(..., finish=index_site)``), so an indexing that fails leaves the
previous site as it was. Each language tree gets its own bundle, ``<lang>/pagefind/``, holding
the index of that language's ruling pages (the only pages with ``data-pagefind-body``) and
Pagefind's UI (``pagefind-ui.js`` and ``pagefind-ui.css``), which the search page loads from
the site itself (``site_templates/assets/search.js``).

Pagefind Extended segments Japanese and Chinese text into words when it indexes; in the
browser it segments a Japanese or Chinese query with ``Intl.Segmenter``, and the two do not
always agree: the index keeps 重构 as one word where the browser makes 重 and 构 of the
query, so that query found nothing (Pagefind issue #1237). The pages are therefore indexed
from copies that carry, after each of the ruling's glossary terms, the suffixes of the runs of
ideographs in its names (重构 -> 构), so that however the browser cuts a term's name, each
piece starts a word of the index; these pieces weigh a little more than the page's text, so
the rulings that list the term come first. The pages that are served are not changed.

Pagefind writes its filter and metadata files in an order that changes from run to run; each
bundle is then rewritten in one order (:mod:`judge.site.pagefind_order`), so that the same
site gives the same index, byte for byte.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import html
import re
import tempfile
import time
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from judge.i18n import LANGS
from judge.site.build import BuildError
from judge.site.pagefind_order import BundleFormatError, canonicalise

#: The folder of each language's bundle, under ``<lang>/``.
BUNDLE = "pagefind"
#: Seconds one request to Pagefind (indexing one language's pages, say) may take.
TIMEOUT = 600.0

# a ruling page's list of glossary terms, and a link in it: <a ...>names in three languages</a>
_TERM_LIST = re.compile(r'<ul class="terms">(.*?)</ul>', re.S)
_TERM_LINK = re.compile(r"<a [^>]*>(.*?)</a>", re.S)
_TAG = re.compile(r"<[^>]+>")
# a run of CJK ideographs (kana words are cut alike by the index and the browser)
_HAN_RUN = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]{2,}")
#: How much a piece weighs against the page's text (Pagefind's data-pagefind-weight): a
#: ruling that lists the term comes before one that merely holds its characters.
PIECE_WEIGHT = "2"


class SearchIndexError(BuildError):
    """Pagefind could not index the site; the previous site is untouched."""


@dataclass
class IndexReport:
    #: ruling pages indexed per language
    pages: dict[str, int] = field(default_factory=dict)
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


def index_text(page: str) -> str:
    """The text Pagefind indexes for a ruling page: the page, with the pieces of each glossary
    term's names (see the module's docstring) after the term."""

    def add_pieces(link: re.Match[str]) -> str:
        pieces = name_pieces(html.unescape(_TAG.sub(" ", link.group(1))))
        if not pieces:
            return link.group(0)
        return (f'{link.group(0)}<span data-pagefind-weight="{PIECE_WEIGHT}"> '
                f"{html.escape(' '.join(dict.fromkeys(pieces)))}</span>")

    return _TERM_LIST.sub(
        lambda block: f'<ul class="terms">{_TERM_LINK.sub(add_pieces, block.group(1))}</ul>',
        page)


def ruling_pages(folder: Path, lang: str) -> list[Path]:
    return sorted((folder / lang / "rulings").glob("*/index.html"))


def index_site(folder: Path,
               progress: Callable[[str, int, int], None] | None = None) -> IndexReport:
    """Write ``<lang>/pagefind/`` into the built site ``folder`` for every language;
    ``progress("search index", done, total)`` is called as each language is indexed.

    Raises :class:`SearchIndexError` when Pagefind is missing or fails, or indexes fewer
    pages than the site has rulings."""
    start = time.perf_counter()
    try:
        from pagefind.service import PagefindService  # noqa: F401 - checks it is installed
    except ImportError as exc:  # pragma: no cover - pagefind is a dependency
        raise SearchIndexError("the search index needs Pagefind: pip install 'pagefind[extended]'"
                               " (or build without it: judge build --no-search)") from exc
    folder = folder.resolve()
    expected = {lang: ruling_pages(folder, lang) for lang in LANGS}
    report = IndexReport()
    with tempfile.TemporaryDirectory(prefix="judge-pagefind-") as work:
        copies = Path(work)
        for lang, pages in expected.items():
            for page in pages:
                target = copies / lang / page.relative_to(folder / lang)
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_text(index_text(page.read_text(encoding="utf-8")),
                                  encoding="utf-8")
        try:
            report.pages = _run(copies, folder, progress)
        except SearchIndexError:
            raise
        except Exception as exc:  # Pagefind reports its failures as plain exceptions
            raise SearchIndexError(f"Pagefind failed to index the site: {exc!r}") from exc
    for lang, pages in expected.items():
        if report.pages.get(lang, 0) != len(pages):
            raise SearchIndexError(f"Pagefind indexed {report.pages.get(lang, 0)} {lang} pages "
                                   f"of {len(pages)}")
        if not (folder / lang / BUNDLE / "pagefind-ui.js").is_file():
            raise SearchIndexError(f"Pagefind wrote no {lang}/{BUNDLE}/pagefind-ui.js")
        try:
            canonicalise(folder / lang / BUNDLE)
        except BundleFormatError as exc:
            raise SearchIndexError(f"cannot put the search index in a stable order: {exc}") \
                from exc
    report.seconds = time.perf_counter() - start
    return report


def _run(copies: Path, folder: Path,
         progress: Callable[[str, int, int], None] | None) -> dict[str, int]:
    """Run :func:`_index` to the end, in a thread of its own when this thread already runs
    an event loop (as Playwright's synchronous API does)."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(_index(copies, folder, progress))
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(lambda: asyncio.run(_index(copies, folder, progress))).result()


async def _index(copies: Path, folder: Path,
                 progress: Callable[[str, int, int], None] | None) -> dict[str, int]:
    from pagefind.index import IndexConfig
    from pagefind.service import PagefindService

    service = await PagefindService().launch()
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
    try:
        for lang in LANGS:
            # the copies of <lang>/ give the pages their addresses relative to the language
            # root (/rulings/<id>/), which the search page prefixes with its own location
            index = await call(service.create_index(IndexConfig()))
            source = copies / lang
            counts[lang] = 0
            if source.is_dir():
                added = await call(index.add_directory(str(source)))
                counts[lang] = int(added["page_count"])
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
    return counts
