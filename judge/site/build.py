"""``judge build``: load -> context -> render -> write, into a folder swapped in at the end.

The pages are written into a temporary folder beside the target (``.NAME.XXXXXXXX.tmp``);
only when every page has been written does the new folder take the place of the previous site,
in one step: on Linux ``renameat2(RENAME_EXCHANGE)`` exchanges the two folders (the previous
site, now under the temporary name, is then deleted). Where the system or the filesystem
cannot exchange, the previous site is renamed aside (``.NAME.XXXXXXXX.old``) and the new one
into place; a run killed between those two renames leaves no ``NAME``, and the next run puts
the previous site back before anything else. So a build that fails or is killed at any moment
(a ruling that fails its replay, a template error, a full disk, SIGKILL) leaves the previous
site or the new one, complete. Every run first removes what killed runs left beside the target
(:func:`clean_leftovers`). The output depends only on the input: the same rulings and data give
the same bytes (no dates, no random names, everything sorted).

It replaces only a previous site (a folder holding the :data:`MARKER` file) or an empty
folder, or anything with ``force``; never a working copy, the corpus or the project
(:mod:`judge.outputs`, the policy every output follows). A symbolic link at ``out`` is not
followed: with ``force`` the site takes the link's place.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import re
import shutil
import signal
import threading
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Generic, TypeVar, cast

import rjsmin

from judge.atomic import busy, lock_path
from judge.corpus import Corpus
from judge.entry import failure
from judge.errors import JudgeError
from judge.i18n import LANGS, gettext_for
from judge.outputs import (
    Kind,
    OutputError,
    Target,
    absolute,
    claim,
    corpus_inputs,
    leftover_names,
    remove,
    temp_folder,
    temp_name,
)
from judge.outputs import exchange as _exchange
from judge.paths import project_root
from judge.quiz.site import QuizReport, make_quiz
from judge.site.api import ApiReport, count_database, write_api, write_database
from judge.site.board import with_board_words
from judge.site.context import Links, PageInfo, PageSpec, SiteModel, page_file
from judge.site.load import SiteInput, load_streamed
from judge.site.offline import OfflineReport, write_offline
from judge.site.render import assets_dir, fresh_environments, render
from judge.site.sandbox_build import SandboxReport, write_sandbox
from judge.site.searchindex import SearchReport, write_search
from judge.site.settings import load_settings


class BuildError(JudgeError):
    """The site was not built; the previous one (if any) is untouched."""


class RulingsFailed(BuildError):
    """Rulings fail their replay: ``lines`` is the ``judge check`` report."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        super().__init__("rulings fail their replay, so the site was not built "
                         "(--allow-failing marks them on their pages instead)")


@dataclass
class BuildReport:
    out: Path
    pages: int = 0
    bytes: int = 0
    rulings: int = 0
    traces: int = 0  # the corpus's (ruling, rule set, branch) traces
    failing: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    processes: int = 1  # that rendered the pages
    api: ApiReport | None = None  # the downloads (api/)
    offline: OfflineReport | None = None  # the service worker and what it keeps
    sandbox: SandboxReport | None = None  # Pyodide and the package, for "Try it"
    search: SearchReport | None = None  # the search index (search-index/)
    quiz: QuizReport | None = None  # the judge-training quiz's bank (api/quiz/)

    def summary(self) -> str:
        times = ", ".join(f"{k} {v:.2f} s" for k, v in self.seconds.items())
        text = (f"built {self.pages} pages ({self.bytes / 1024:.0f} KiB) for {self.rulings} "
                f"rulings into {self.out} ({times}")
        text += f"; {self.processes} processes rendering)" if self.processes > 1 else ")"
        if self.api is not None:
            text += (f"; api/: {self.api.json_bytes / 1024:.0f} KiB of JSON and a "
                     f"{self.api.database_bytes / 1024:.0f} KiB database")
        if self.search is not None:
            text += (f"; search index: {self.search.docs} results, {self.search.files} files, "
                     f"{self.search.bytes / 1024:.0f} KiB")
        if self.quiz is not None:
            text += (f"; quiz: {self.quiz.questions} questions from {self.quiz.rulings} "
                     "rulings")
        if self.failing:
            text += f"; {len(self.failing)} failing ruling(s) marked: {', '.join(self.failing)}"
        if self.sandbox is not None:
            text += f"\nnote: {self.sandbox.missing}" if self.sandbox.missing else \
                (f"; sandbox: Pyodide {self.sandbox.pyodide_version}, "
                 f"{self.sandbox.bytes / 1024:.0f} KiB loaded on a first use")
        return text


Progress = Callable[[str, int, int], None]  # phase, done, total
#: A file in the root of every built site: ``judge build`` only ever replaces a folder that
#: holds it (or an empty one), so a mistaken ``--out`` cannot remove anything else.
MARKER = ".judge-site"



#: What the site's pages load from ``site_templates/assets``: style sheets, scripts, icons.
ASSET_SUFFIXES = (".css", ".js", ".svg")


def published_script(script: str) -> str:
    """A script as the site publishes it: without its comments, indentation and blank lines
    (rjsmin), which the browser does not need; about a third of the bytes of the scripts a
    first search downloads. tests/test_search_parity.py runs the search engine in this form."""
    return str(rjsmin.jsmin(script))


def site_assets() -> list[Path]:
    """The files of ``site_templates/assets`` the site publishes: regular files of the kinds
    the pages load, directly in that folder. A hidden file (an editor's lock or backup), a
    subfolder or a file of another kind is not published; a symbolic link is refused, since
    what it points to could be anything on the machine (issue 25)."""
    out = []
    for path in sorted(assets_dir().iterdir()):
        if path.name.startswith(".") or path.suffix not in ASSET_SUFFIXES:
            continue
        if path.is_symlink():
            raise BuildError(f"{path}: a symbolic link; the site publishes only regular files "
                             "(replace the link with the file itself)")
        if path.is_file():
            out.append(path)
    return out

def _foreign(folder: Path) -> str:
    marker = folder / MARKER
    return "" if marker.is_file() and not marker.is_symlink() else \
        f"was not built by judge build (no {MARKER} file)"


#: The output of judge build (:mod:`judge.outputs`).
SITE = Kind("build into", folder=True, foreign=_foreign)


def build_site(out: Path, *, root: Path | None = None, allow_failing: bool = False,
               progress: Progress | None = None,
               finish: Callable[[Path], None] | None = None,
               jobs: int = 0, force: bool = False, search: bool = False,
               quiz: bool = True,
               made: Callable[[SiteInput], Mapping[str, Path]] | None = None) -> BuildReport:
    """Build the whole site into ``out``; raises :class:`BuildError` (site untouched).

    ``search``: also write the search index (``search-index/``, :mod:`judge.site.searchindex`).
    ``quiz``: also make the judge-training quiz (its page and ``api/quiz/``,
    :mod:`judge.quiz.site`); without it the build leaves the quiz out (to measure its cost).
    ``finish``, if given, is called with the complete new folder just before it replaces the
    previous site (a step can add its files there and still be atomic). ``jobs``:
    how many processes render the pages (0: one per core; see :func:`render_pages`).
    ``force``: replace whatever folder (or link) is at ``out`` (:func:`check_target`).
    ``made``: given the loaded corpus, the folder holding each ruling's pages and API file
    already built (parts of ``judge build --shard``, :mod:`judge.site.shard`): those are
    copied rather than rendered.

    Before anything else it puts back a previous site that a killed run left aside
    (:func:`restore_previous`), then removes the temporary folders of killed runs
    (:func:`clean_leftovers`)."""
    restore_previous(out)
    target = check_target(out, root, force)
    clean_leftovers(out)
    report = BuildReport(out=out)
    tick = progress or (lambda phase, done, total: None)
    site = load_checked(root, report, tick, allow_failing)
    write_site(site, target, report, tick, finish, jobs, search, quiz,
               made(site) if made is not None else {})
    return report


def load_checked(root: Path | None, report: BuildReport, tick: Progress,
                 allow_failing: bool) -> SiteInput:
    """The load phase: the corpus and every replay; :class:`RulingsFailed` when rulings
    fail their replay, unless ``allow_failing`` (then ``report.failing`` names them)."""
    start = time.perf_counter()
    counter = {"n": 0}

    def loaded(_: str) -> None:
        counter["n"] += 1
        tick("load", counter["n"], 0)

    site = load_streamed(root, loaded)
    report.rulings = len(site.rulings)
    report.traces = site.traces
    report.seconds["load"] = time.perf_counter() - start
    if site.failing and not allow_failing:
        lines = [r.report() for r in site.failing]
        passed = sum(r.ok for d in site.rulings for r in d.results)
        lines.append(f"{passed} passed, {len(site.failing)} failed")
        raise RulingsFailed(lines)
    report.failing = sorted({r.ruling for r in site.failing})
    return site


def check_target(out: Path, root: Path | None = None, force: bool = False) -> Target:
    """Refuse an output folder that is not a previous site (unless ``force``), and always the
    corpus at ``root``, its rulings and data, the project or a working copy
    (:func:`judge.outputs.claim`)."""
    if root is None:
        here = Path.cwd()
        root = here if (here / "rulings").is_dir() else project_root()
    try:
        return claim(out, SITE, force=force, inputs=corpus_inputs(root), roots=[root])
    except OutputError as exc:
        raise BuildError(str(exc)) from None


def write_site(site: SiteInput, claimed: Target, report: BuildReport, tick: Progress,
               finish: Callable[[Path], None] | None = None, jobs: int = 0,
               search: bool = False, quiz: bool = True,
               made: Mapping[str, Path] | None = None) -> None:
    """Write the site into a new folder and put it in place of ``claimed``; ``made`` (see
    :func:`build_site`): rulings whose pages and API file are copied from a part."""
    start = time.perf_counter()
    model = site_model(site, quiz)
    report.seconds["context"] = time.perf_counter() - start
    made = made or {}
    specs = model.pages()
    copied = [s for s in specs if s.template == RULING_TEMPLATE and s.subject in made]
    specs = [s for s in specs if not (s.template == RULING_TEMPLATE and s.subject in made)]
    out = claimed.path
    # its lock: so that a concurrent build's clean-up leaves this folder alone
    tmp, lock = temp_folder(claimed)
    job: Phase[QuizReport] | None = None
    indexing: Phase[SearchReport] | None = None
    try:
        if quiz:  # a phase of its own, beside the pages: the bank, its pages and its JSON,
            # and the database, made from the same replays of the corpus
            job = quiz_phase(site, model, tmp, lock, database=True)
        if search:  # in a process of its own, done before the render workers are forked:
            # its postings are the largest thing a build holds, and they leave with it
            indexing = Phase.start("the search index", lambda: write_search(site, tmp), lock)
            report.search = indexing.finish()
            report.seconds["search"] = report.search.seconds
        start = time.perf_counter()
        total = len(specs) * len(LANGS) + 1
        done = 0
        size = 0
        root = PageInfo(lang="en", key="", links=Links(page_file(None, "")))
        # the language chooser is named in every language, each name once
        names = list(dict.fromkeys(gettext_for(lang, "WIXOSS rulings") for lang in LANGS))
        size += _write(tmp, page_file(None, ""),
                       render("root.html", "en", {"page": root, "count": len(site.rulings),
                                                  "names": names}))
        done += 1
        tick("render", done, total)
        # the sandbox first: its buttons on the pages say how much a first use downloads
        sandbox_start = time.perf_counter()
        report.sandbox = write_sandbox(site, tmp)
        report.seconds["sandbox"] = time.perf_counter() - sandbox_start
        model.sandbox_bytes = report.sandbox.bytes if not report.sandbox.missing else 0
        # each ruling's pages (and API file) first: they work out the anchors that the
        # processing page and the glossary link to
        rulings = [s for s in specs if s.template == RULING_TEMPLATE]
        others = [s for s in specs if s.template != RULING_TEMPLATE]
        pages, written, report.processes = render_pages(model, rulings, tmp, tick, jobs, lock,
                                                        api=True, start=done, total=total)
        done += pages
        size += written
        pages, written, _ = render_pages(model, others, tmp, tick, jobs, lock, start=done,
                                         total=total)
        done += pages
        size += written
        for spec in copied:
            for lang in LANGS:
                name = page_file(lang, spec.key)
                size += _copy(made[spec.subject] / name, _inside(tmp, name, spec.subject))
                done += 1
        for asset in site_assets():
            target = tmp / "assets" / asset.name
            target.parent.mkdir(parents=True, exist_ok=True)
            if asset.suffix == ".js":
                script = asset.read_text(encoding="utf-8")
                if asset.name == "site.js":  # with the boards' words, once for every page
                    words = {lang: model.script_words(lang) for lang in LANGS}
                    script = with_board_words(script, words)
                target.write_text(published_script(script), encoding="utf-8")
            else:
                shutil.copyfile(asset, target)
            size += target.stat().st_size
        (tmp / MARKER).write_text("built by judge build; replaced as a whole by the next build\n",
                                  encoding="utf-8")
        report.pages, report.bytes = done, size
        report.seconds["render+write"] = time.perf_counter() - start
        start = time.perf_counter()
        report.api = write_api(site, tmp, made, written=True, database=job is None)
        report.seconds["api"] = time.perf_counter() - start
        if job is not None:
            start = time.perf_counter()
            report.quiz = job.finish()
            count_database(report.api, tmp)
            report.pages += report.quiz.pages
            report.seconds["quiz"] = report.quiz.seconds
            report.seconds["quiz wait"] = time.perf_counter() - start
        if finish is not None:
            start = time.perf_counter()
            finish(tmp)
            report.seconds["finish"] = time.perf_counter() - start
        report.offline = write_offline(tmp)  # last: its version covers every other file
        _swap(tmp, out)
    except BaseException:
        for phase in (job, indexing):
            if phase is not None:
                phase.cancel()
        remove(tmp)
        raise
    finally:
        if lock is not None:
            os.close(lock)


#: The template of a ruling's own page: the pages a part of a sharded build renders.
RULING_TEMPLATE = "ruling.html"


def site_model(site: SiteInput, quiz: bool = True) -> SiteModel:
    """The context phase: what every page is rendered from."""
    fresh_environments()
    model = SiteModel.build(site)
    model.propose = load_settings(site.corpus.root).new_file
    model.quiz_page = quiz
    return model


def _copy(source: Path, target: Path) -> int:
    """Copy a file built by a part into the new site; its size."""
    target.parent.mkdir(parents=True, exist_ok=True)
    try:
        shutil.copyfile(source, target)
    except OSError as exc:
        raise BuildError(f"{source}: cannot copy it into the site: {exc.strerror}") from None
    return target.stat().st_size


#: A phase's report.
R = TypeVar("R")
# The work of a phase's process, set by the parent just before it is forked (and inherited).
_PHASE: Callable[[], object] | None = None


class Phase(Generic[R]):
    """A phase of the build (the search index, the quiz) done in a process forked from the
    build: the child shares the loaded corpus and its replays without copying them, writes its
    files into the new folder and sends back only its report. What the phase allocates goes
    with the child: the build's process stays as small as before it (glibc keeps what Python
    freed, so the render workers, forked later, would otherwise start that large). Where the
    build may not fork (other threads: ``judge serve``; no fork on the system) the phase
    runs here, at once. ``what`` names the phase in the one-line error a failure gives."""

    def __init__(self, what: str, report: R | None = None,
                 process: multiprocessing.process.BaseProcess | None = None,
                 conn: Connection | None = None) -> None:
        self.what, self.report, self.process, self.conn = what, report, process, conn

    @classmethod
    def start(cls, what: str, work: Callable[[], R], lock: int | None) -> Phase[R]:
        global _PHASE
        if threading.active_count() > 1 or "fork" not in multiprocessing.get_all_start_methods():
            return cls(what, report=work())
        context = multiprocessing.get_context("fork")
        receive, send = context.Pipe(duplex=False)
        _PHASE = work
        try:
            process = context.Process(target=_phase_child, args=(send, lock), daemon=True)
            process.start()
        finally:
            _PHASE = None
        send.close()
        return cls(what, process=process, conn=receive)

    def finish(self) -> R:
        """The phase's report, once it is done (a :class:`BuildError` if it failed: the
        error's own line where it is one judge reports, else the phase named)."""
        if self.report is not None:
            return self.report
        assert self.conn is not None and self.process is not None
        try:
            kind, value = self.conn.recv()
        except EOFError:
            kind, value = "error", f"its process ended with {self.process.exitcode}"
        finally:
            self.conn.close()
            self.process.join()
        if kind == "judge":
            raise BuildError(value)
        if kind != "ok":
            raise BuildError(f"{self.what} was not made: {value}")
        self.report = value
        return cast(R, value)

    def cancel(self) -> None:
        """Stop the phase's process (the build failed or was stopped)."""
        if self.process is not None and self.process.is_alive():
            self.process.terminate()
            self.process.join()


def _phase_child(send: Connection, lock: int | None) -> None:
    """A phase's process: do the work and send its report (or what went wrong, in one line:
    an error judge reports as it would in the build's process)."""
    _close_in_worker(lock)
    assert _PHASE is not None, "Phase.start sets the work before forking"
    try:
        send.send(("ok", _PHASE()))
    except (JudgeError, OSError) as exc:
        lines: list[str] = []
        failure(exc, lambda text, err=False: lines.append(text.removeprefix("Error: ")))
        send.send(("judge", "; ".join(lines)))
    except Exception as exc:  # sent to the build, which reports it on one line
        send.send(("error", f"{type(exc).__name__}: {exc}"))
    finally:
        send.close()


def quiz_phase(site: SiteInput, model: SiteModel, tmp: Path, lock: int | None,
               database: bool = False) -> Phase[QuizReport]:
    """The quiz phase (:func:`judge.quiz.site.make_quiz`), beside the pages. With
    ``database`` it also writes the API's database (:func:`judge.site.api.write_database`),
    the bank made from the rulings as the database reads them: the corpus is loaded and
    replayed once for the two, not once each."""
    def beside(corpus: Corpus) -> None:
        write_database(corpus, tmp)

    return Phase.start("the judge-training quiz" + (" and the database" if database else ""),
                       lambda: make_quiz(site, model, tmp,
                                         lambda name, html: _write(tmp, name, html),
                                         beside if database else None), lock)


#: Below this many pages the pages are rendered in this process: starting workers and
#: rendering their templates anew costs more than it saves.
PARALLEL_MIN_PAGES = 1500
#: Pages per task handed to a worker (a multiple of the languages: a ruling's pages are
#: rendered by one worker, which replays it once).
CHUNK = 48
# What the workers render, set by the parent just before they are forked (and inherited).
_WORK: tuple[SiteModel, list[PageSpec], Path, bool, set[str]] | None = None


def render_pages(model: SiteModel, specs: list[PageSpec], tmp: Path, tick: Progress,
                 jobs: int = 0, lock: int | None = None, *, api: bool = False,
                 start: int = 1, total: int = 0) -> tuple[int, int, int]:
    """Render and write every (page, language) into ``tmp``; return (pages, bytes, processes).

    A ruling's page is rendered from the ruling replayed again with its boards
    (:meth:`SiteModel.full`), made once for its languages and let go; with ``api`` its API
    file (``api/rulings/<id>.json.gz``) is written from the same. The anchors of the rulings the
    processing page and the glossary link into (:meth:`SiteModel.anchored`) come back into
    ``model.anchors``.

    A large site is rendered by ``jobs`` processes (0: one per core), forked from this one
    so that they share the loaded corpus without copying it; each page depends only on the
    model, so the bytes are the same whichever process writes them (``tests/test_site.py``
    compares the two ways). In a process that runs other threads (``judge serve``) or where
    fork is not available, the pages are rendered here. ``lock``: the descriptor holding the
    lock on ``tmp``, closed in the workers (only the building process holds it, so a worker
    that outlives a killed build does not keep it). ``start`` and ``total``: the pages written
    before and in all, for the progress (default: these pages and the root page)."""
    global _WORK
    work = [(i, lang) for i in range(len(specs)) for lang in LANGS]
    chunk = CHUNK - CHUNK % len(LANGS)
    chunks = [work[first:first + chunk] for first in range(0, len(work), chunk)]
    total = total or len(work) + start
    processes = jobs or os.cpu_count() or 1
    if processes < 2 or len(work) < PARALLEL_MIN_PAGES or threading.active_count() > 1 \
            or "fork" not in multiprocessing.get_all_start_methods():
        processes = 1
    pages, size = 0, 0
    wanted = model.anchored() if any(s.template == RULING_TEMPLATE for s in specs) else set()
    _WORK = (model, specs, tmp, api, wanted)
    try:
        with contextlib.ExitStack() as stack:
            results: Iterable[tuple[int, int, dict[str, frozenset[str]]]] = \
                map(_render_chunk, chunks)
            if processes > 1:
                pool = stack.enter_context(multiprocessing.get_context("fork").Pool(
                    processes, initializer=_close_in_worker, initargs=(lock,)))
                results = pool.imap_unordered(_render_chunk, chunks)
            for n, written, anchors in results:
                pages, size = pages + n, size + written
                model.anchors.update(anchors)
                tick("render", pages + start, total)
    finally:
        _WORK = None
    return pages, size, processes


def _render_chunk(chunk: list[tuple[int, str]]) -> tuple[int, int, dict[str, frozenset[str]]]:
    """Render and write some pages (in a worker, or in the building process); the anchors
    worked out for the rulings among them that lists link into."""
    from judge.site.api import FOLDER as API_FOLDER
    from judge.site.api import dumps, gz, ruling_document, ruling_file
    from judge.site.sections import page_anchors

    assert _WORK is not None, "render_pages sets the work before rendering"
    model, specs, tmp, api, wanted = _WORK
    size = 0
    anchors: dict[str, frozenset[str]] = {}
    for index, lang in chunk:
        spec = specs[index]
        size += _write(tmp, page_file(lang, spec.key),
                       render(spec.template, lang, model.context(spec, lang)), spec.subject)
        if spec.template != RULING_TEMPLATE or lang != LANGS[-1]:
            continue
        data = model.full(spec.subject)  # the ruling's last page: what else it gives
        if spec.subject in wanted and spec.subject not in model.anchors:
            anchors[spec.subject] = model.anchors[spec.subject] = page_anchors(data)
        if api:
            body = gz(dumps(ruling_document(data, model.site.corpus.sources)))
            path = tmp / API_FOLDER / ruling_file(data.id)
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(body)
    return len(chunk), size, anchors


def _close_in_worker(lock: int | None) -> None:
    if lock is not None:
        os.close(lock)
    if hasattr(signal, "SIGTERM"):  # the pool ends its workers with SIGTERM
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _write(root: Path, name: str, text: str, subject: str = "") -> int:
    """Write the page ``name`` (a path under the site root, from its key) into ``root``.

    The page's key comes from ids, tags and topics of the corpus; the loader validates them,
    and this is the last guard: a name that would leave ``root`` (``..``, an absolute path, a
    NUL byte) is a :class:`BuildError` naming it, and nothing is written."""
    path = _inside(root, name, subject)
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(data)
    return len(data)


def _inside(root: Path, name: str, subject: str = "") -> Path:
    """``root / name``, refusing a name that does not lead to a file inside ``root``."""
    what = f"the page {name!r}" + (f" (for {subject!r})" if subject else "")
    try:
        base = root.resolve()
        path = (base / name).resolve()
    except (OSError, ValueError) as exc:  # a NUL byte, a name too long, a symlink loop
        raise BuildError(f"refusing to write {what}: {exc}") from None
    if ".." in name.replace("\\", "/").split("/") or path == base \
            or not path.is_relative_to(base):
        raise BuildError(f"refusing to write {what}: it is not a file inside the site folder "
                         f"{root}")
    return path


def _swap(new: Path, out: Path) -> None:
    """Put the complete folder ``new`` where ``out`` is: in one step when ``out`` is missing
    or the system can exchange two folders, otherwise by two renames (see the module). A
    link at ``out`` (claimed with ``force``) is replaced, never followed."""
    if not os.path.lexists(out):
        os.replace(new, out)
        return
    if out.is_symlink():
        if not _exchange(new, out):
            out.unlink()
            os.replace(new, out)
        remove(new)  # the link, after an exchange
        return
    if not out.is_dir():
        raise BuildError(f"{out} exists and is not a folder")
    if _exchange(new, out):
        remove(new)  # ``new`` now holds the previous site
        return
    old = _spare(out, ".old")
    held = lock_path(out)  # the previous site, while it is aside: restore_previous leaves it alone
    try:
        _rename(out, old)
        try:
            _rename(new, out)
        except BaseException:
            _rename(old, out)
            raise
    finally:
        if held is not None:
            os.close(held)
    _discard(old, out)


#: The renames of the fallback switch (a test stops a build between them).
_rename = os.replace


def _spare(out: Path, suffix: str) -> Path:
    """A free name beside ``out``: ``.NAME.XXXXXXXX`` and ``suffix`` (see
    :func:`_leftover_names`)."""
    while True:
        spare = temp_name(out, suffix)
        if not os.path.lexists(spare):
            return spare


def _discard(old: Path, out: Path) -> None:
    """Delete a previous site moved aside: renamed to a temporary name first, so that a run
    killed while deleting it leaves a ``.tmp`` folder (removed by the next run), never a
    half-deleted ``.old`` one that could be taken for a complete previous site."""
    doomed = _spare(out, ".tmp")
    try:
        os.replace(old, doomed)
    except OSError:
        doomed = old
    shutil.rmtree(doomed, ignore_errors=True)


# ---------------------------------------------------------------------------- leftovers


def _absolute(out: Path) -> Path:
    try:
        return absolute(out)
    except OutputError as exc:
        raise BuildError(str(exc)) from None


def _leftover_names(out: Path) -> re.Pattern[str]:
    """The names this module gives its temporary folders beside ``out``
    (:func:`judge.outputs.temp_name`)."""
    return leftover_names(out, "tmp|old")


def _leftovers(out: Path) -> list[Path]:
    """Folders beside ``out`` with our temporary names (never symbolic links)."""
    pattern = _leftover_names(out)
    try:
        entries = sorted(out.parent.iterdir())
    except OSError:
        return []
    return [p for p in entries if pattern.fullmatch(p.name) and not p.is_symlink()
            and p.is_dir()]


def restore_previous(out: Path) -> Path | None:
    """Put back the previous site when a run killed between the two renames of the fallback
    switch left no ``out`` and the site in ``.NAME.XXXXXXXX.old``; returns the folder it
    restored. Only a folder with the :data:`MARKER` file (a complete site) is taken."""
    out = _absolute(out)
    if os.path.lexists(out):
        return None
    aside = [p for p in _leftovers(out) if p.name.endswith(".old")
             and (p / MARKER).is_file() and not busy(p)]
    if not aside:
        return None
    newest = max(aside, key=lambda p: ((p / MARKER).stat().st_mtime_ns, p.name))
    try:
        os.rename(newest, out)
    except OSError as exc:
        raise BuildError(f"cannot put the previous site {newest} back as {out}: {exc}") from None
    return newest


def clean_leftovers(out: Path) -> list[Path]:
    """Remove what killed builds left beside ``out``: ``.NAME.XXXXXXXX.tmp`` folders (a site
    being written, or a previous one being deleted) and ``.NAME.XXXXXXXX.old`` folders that
    hold a site (the :data:`MARKER` file). Nothing else is touched, nor a folder that a
    running build holds. Returns the removed folders."""
    out = _absolute(out)
    removed = []
    for path in _leftovers(out):
        if path.name.endswith(".old") and not (path / MARKER).is_file():
            continue
        if busy(path):
            continue
        shutil.rmtree(path, ignore_errors=True)
        removed.append(path)
    return removed



