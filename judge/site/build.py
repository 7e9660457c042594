"""``judge build``: load -> context -> render -> write, into a folder swapped in at the end.

The pages are written into a temporary folder beside the target; only when every page has
been written is the previous site moved aside and the new one renamed into place, so a build
that fails (a ruling that fails its replay, a template error, a full disk) leaves the previous
site as it was. The output depends only on the input: the same rulings and data give the same
bytes (no dates, no random names, everything sorted).
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import shutil
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

from judge.errors import JudgeError
from judge.i18n import LANGS
from judge.paths import project_root
from judge.site.context import Links, PageInfo, PageSpec, SiteModel, page_file
from judge.site.load import SiteInput, load
from judge.site.render import assets_dir, fresh_environments, render


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
    failing: list[str] = field(default_factory=list)
    seconds: dict[str, float] = field(default_factory=dict)
    processes: int = 1  # that rendered the pages

    def summary(self) -> str:
        times = ", ".join(f"{k} {v:.2f} s" for k, v in self.seconds.items())
        text = (f"built {self.pages} pages ({self.bytes / 1024:.0f} KiB) for {self.rulings} "
                f"rulings into {self.out} ({times}")
        text += f"; {self.processes} processes rendering)" if self.processes > 1 else ")"
        if self.failing:
            text += f"; {len(self.failing)} failing ruling(s) marked: {', '.join(self.failing)}"
        return text


Progress = Callable[[str, int, int], None]  # phase, done, total
#: A file in the root of every built site: ``judge build`` only ever replaces a folder that
#: holds it (or an empty one), so a mistaken ``--out`` cannot remove anything else.
MARKER = ".judge-site"


def build_site(out: Path, *, root: Path | None = None, allow_failing: bool = False,
               progress: Progress | None = None,
               finish: Callable[[Path], None] | None = None,
               jobs: int = 0) -> BuildReport:
    """Build the whole site into ``out``; raises :class:`BuildError` (site untouched).

    ``finish``, if given, is called with the complete new folder just before it replaces the
    previous site (a search indexer can add its files there and still be atomic). ``jobs``:
    how many processes render the pages (0: one per core; see :func:`render_pages`)."""
    check_target(out, root)
    report = BuildReport(out=out)
    tick = progress or (lambda phase, done, total: None)
    start = time.perf_counter()
    counter = {"n": 0}

    def loaded(_: str) -> None:
        counter["n"] += 1
        tick("load", counter["n"], 0)

    site = load(root, loaded)
    report.rulings = len(site.rulings)
    report.seconds["load"] = time.perf_counter() - start
    if site.failing and not allow_failing:
        lines = [r.report() for r in site.failing]
        passed = sum(r.ok for d in site.rulings for r in d.results)
        lines.append(f"{passed} passed, {len(site.failing)} failed")
        raise RulingsFailed(lines)
    report.failing = sorted({r.ruling for r in site.failing})
    write_site(site, out, report, tick, finish, jobs)
    return report


def check_target(out: Path, root: Path | None = None) -> None:
    """Refuse an output folder that is not a previous site: never replace the project."""
    out = out.resolve()
    for keep in {Path.cwd().resolve(), (root or Path.cwd()).resolve(), project_root()}:
        if out == keep or out in keep.parents:
            raise BuildError(f"refusing to build into {out}: it holds {keep}")
    if out.exists():
        if not out.is_dir():
            raise BuildError(f"{out} exists and is not a folder")
        if any(out.iterdir()) and not (out / MARKER).is_file():
            raise BuildError(f"refusing to replace {out}: it is not empty and was not built by "
                             f"judge build (no {MARKER} file)")


def write_site(site: SiteInput, out: Path, report: BuildReport, tick: Progress,
               finish: Callable[[Path], None] | None = None, jobs: int = 0) -> None:
    start = time.perf_counter()
    fresh_environments()
    model = SiteModel.build(site)
    specs = model.pages()
    report.seconds["context"] = time.perf_counter() - start
    out = out.resolve()
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".tmp", dir=out.parent))
    try:
        tmp.chmod(0o755)  # mkdtemp makes it private; a site is for reading
        start = time.perf_counter()
        total = len(specs) * len(LANGS) + 1
        done = 0
        size = 0
        root = PageInfo(lang="en", key="", links=Links(page_file(None, "")))
        size += _write(tmp / "index.html",
                       render("root.html", "en", {"page": root, "count": len(site.rulings)}))
        done += 1
        tick("render", done, total)
        pages, written, report.processes = render_pages(model, specs, tmp, tick, jobs)
        done += pages
        size += written
        for asset in sorted(assets_dir().rglob("*")):
            if asset.is_file():
                target = tmp / "assets" / asset.relative_to(assets_dir())
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(asset, target)
                size += target.stat().st_size
        (tmp / MARKER).write_text("built by judge build; replaced as a whole by the next build\n",
                                  encoding="utf-8")
        report.pages, report.bytes = done, size
        report.seconds["render+write"] = time.perf_counter() - start
        if finish is not None:
            start = time.perf_counter()
            finish(tmp)
            report.seconds["finish"] = time.perf_counter() - start
        _swap(tmp, out)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


#: Below this many pages the pages are rendered in this process: starting workers and
#: rendering their templates anew costs more than it saves.
PARALLEL_MIN_PAGES = 1500
#: Pages per task handed to a worker.
CHUNK = 48
# What the workers render, set by the parent just before they are forked (and inherited).
_WORK: tuple[SiteModel, list[PageSpec], Path] | None = None


def render_pages(model: SiteModel, specs: list[PageSpec], tmp: Path, tick: Progress,
                 jobs: int = 0) -> tuple[int, int, int]:
    """Render and write every (page, language) into ``tmp``; return (pages, bytes, processes).

    A large site is rendered by ``jobs`` processes (0: one per core), forked from this one
    so that they share the loaded corpus and its replays without copying them; each page
    depends only on the model, so the bytes are the same whichever process writes them
    (``tests/test_site.py`` compares the two ways). In a process that runs other threads
    (``judge serve``) or where fork is not available, the pages are rendered here."""
    global _WORK
    work = [(i, lang) for i in range(len(specs)) for lang in LANGS]
    chunks = [work[start:start + CHUNK] for start in range(0, len(work), CHUNK)]
    total = len(work) + 1  # and the root page, written first
    processes = jobs or os.cpu_count() or 1
    if processes < 2 or len(work) < PARALLEL_MIN_PAGES or threading.active_count() > 1 \
            or "fork" not in multiprocessing.get_all_start_methods():
        processes = 1
    pages, size = 0, 0
    _WORK = (model, specs, tmp)
    try:
        with contextlib.ExitStack() as stack:
            results: Iterable[tuple[int, int]] = map(_render_chunk, chunks)
            if processes > 1:
                pool = stack.enter_context(multiprocessing.get_context("fork").Pool(processes))
                results = pool.imap_unordered(_render_chunk, chunks)
            for n, written in results:
                pages, size = pages + n, size + written
                tick("render", pages + 1, total)
    finally:
        _WORK = None
    return pages, size, processes


def _render_chunk(chunk: list[tuple[int, str]]) -> tuple[int, int]:
    """Render and write some pages (in a worker, or in the building process)."""
    assert _WORK is not None, "render_pages sets the work before rendering"
    model, specs, tmp = _WORK
    size = 0
    for index, lang in chunk:
        spec = specs[index]
        size += _write(tmp / page_file(lang, spec.key),
                       render(spec.template, lang, model.context(spec, lang)))
    return len(chunk), size


def _write(path: Path, text: str) -> int:
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8")
    path.write_bytes(data)
    return len(data)


def _swap(new: Path, out: Path) -> None:
    """Put ``new`` where ``out`` is, keeping ``out`` until the new folder is in place."""
    if not out.exists():
        os.replace(new, out)
        return
    if not out.is_dir():
        raise BuildError(f"{out} exists and is not a folder")
    old = Path(tempfile.mkdtemp(prefix=f".{out.name}.", suffix=".old", dir=out.parent))
    os.rmdir(old)
    os.replace(out, old)
    try:
        os.replace(new, out)
    except BaseException:
        os.replace(old, out)
        raise
    shutil.rmtree(old, ignore_errors=True)
