"""``judge build --shard K/N`` and ``judge merge-site``: a large site built in parts.

The rulings, in the order of their ids, are dealt round-robin to N parts: the ruling at
position ``i`` (from 0) goes to part ``i % N + 1``. Part K holds, for each of its rulings,
the ruling's page in every language (``<lang>/rulings/<id>/index.html``) and its API file
(``api/rulings/<id>.json.gz``), rendered exactly as a whole build renders them, and a
:data:`PART_MARKER` file saying which part of which corpus it is. Those are the files a
build makes one per ruling, so they are what N machines (a CI matrix) share out.

``judge merge-site PART... --out SITE`` checks that the parts are 1 to N of the same N and
of this corpus (its fingerprint), then builds the site as ``judge build`` does, copying each
ruling's page and API file from its part instead of rendering them, and writing the
site-wide files itself (home, indexes, glossary, timeline, quiz, sandbox, search index, the
API's index and database, the offline list): the result is the same bytes as a plain
``judge build`` of the corpus (``tests/test_shard.py``). Each part and the merge still load
the whole corpus (the pages link to other rulings, the indexes count them): what is shared
out is the rendering and writing of the per-ruling files.

A part is written as the site is (:mod:`judge.outputs`): only where nothing is, into an
empty folder, over a previous part (a folder holding :data:`PART_MARKER`), or with
``--force``; into a temporary folder swapped in at the end.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from judge.i18n import LANGS
from judge.outputs import Kind, OutputError, claim, corpus_inputs, remove, temp_folder
from judge.paths import project_root
from judge.site.api import FOLDER as API_FOLDER
from judge.site.api import ruling_file
from judge.site.build import (
    RULING_TEMPLATE,
    BuildError,
    BuildReport,
    Progress,
    _swap,
    build_site,
    clean_leftovers,
    load_checked,
    render_pages,
    site_model,
)
from judge.site.context import page_file
from judge.site.load import SiteInput
from judge.site.sandbox_build import PYODIDE_FOLDER, SANDBOX_FOLDER, write_sandbox

#: The file in the root of every part: which part of which corpus it holds.
PART_MARKER = ".judge-part"
#: ``K/N`` as ``--shard`` takes it.
SHARD_FORM = "K/N, two whole numbers with 1 <= K <= N (e.g. 2/3)"


@dataclass(frozen=True)
class Shard:
    """Part ``index`` (from 1) of ``count``."""

    index: int
    count: int

    @classmethod
    def parse(cls, text: str) -> Shard:
        """``K/N``; a :class:`BuildError` naming the valid form otherwise."""
        match = re.fullmatch(r"\s*(\d{1,6})\s*/\s*(\d{1,6})\s*", text)
        if match is None or not 1 <= int(match[1]) <= int(match[2]):
            raise BuildError(f"--shard {text!r}: expected {SHARD_FORM}")
        return cls(int(match[1]), int(match[2]))

    def rulings(self, site: SiteInput) -> list[str]:
        """The ids of the rulings this part holds (the site's rulings are sorted by id)."""
        return [d.id for i, d in enumerate(site.rulings) if i % self.count == self.index - 1]


@dataclass
class PartReport:
    out: Path
    shard: Shard
    rulings: int = 0  # in this part
    pages: int = 0
    bytes: int = 0
    seconds: dict[str, float] = field(default_factory=dict)

    def summary(self) -> str:
        times = ", ".join(f"{k} {v:.2f} s" for k, v in self.seconds.items())
        return (f"built part {self.shard.index}/{self.shard.count}: {self.pages} pages and "
                f"{self.rulings} API files ({self.bytes / 1024:.0f} KiB) for {self.rulings} "
                f"rulings into {self.out} ({times}); judge merge-site puts the parts together")


def _foreign(folder: Path) -> str:
    marker = folder / PART_MARKER
    return "" if marker.is_file() and not marker.is_symlink() else \
        f"was not built by judge build --shard (no {PART_MARKER} file)"


#: The output of judge build --shard (:mod:`judge.outputs`).
PART = Kind("build a part into", folder=True, foreign=_foreign)


def build_part(out: Path, shard: Shard, *, root: Path | None = None,
               allow_failing: bool = False, progress: Progress | None = None, jobs: int = 0,
               force: bool = False) -> PartReport:
    """Build part ``shard`` of the site into ``out`` (see the module)."""
    if root is None:
        here = Path.cwd()
        root = here if (here / "rulings").is_dir() else project_root()
    try:
        target = claim(out, PART, force=force, inputs=corpus_inputs(root), roots=[root])
    except OutputError as exc:
        raise BuildError(str(exc)) from None
    clean_leftovers(out)
    tick = progress or (lambda phase, done, total: None)
    loaded = BuildReport(out=out)
    site = load_checked(root, loaded, tick, allow_failing)
    report = PartReport(out=out, shard=shard, seconds=dict(loaded.seconds))
    start = time.perf_counter()
    model = site_model(site)
    ids = shard.rulings(site)
    chosen = set(ids)
    specs = [s for s in model.pages() if s.template == RULING_TEMPLATE and s.subject in chosen]
    report.seconds["context"] = time.perf_counter() - start
    tmp, lock = temp_folder(target)
    try:
        start = time.perf_counter()
        # the pages say how much the sandbox downloads: measured as the whole build does,
        # then left to the merge
        sandbox = write_sandbox(site, tmp)
        model.sandbox_bytes = sandbox.bytes if not sandbox.missing else 0
        for folder in (PYODIDE_FOLDER, SANDBOX_FOLDER):
            shutil.rmtree(tmp / folder, ignore_errors=True)
        report.pages, report.bytes, _ = render_pages(model, specs, tmp, tick, jobs, lock,
                                                     api=True)
        report.bytes += sum((tmp / API_FOLDER / ruling_file(rid)).stat().st_size for rid in ids)
        report.rulings = len(ids)
        (tmp / PART_MARKER).write_text(json.dumps(
            {"part": shard.index, "of": shard.count, "corpus": site.corpus.fingerprint,
             "rulings": ids}, indent=1) + "\n", encoding="utf-8")
        report.seconds["render+write"] = time.perf_counter() - start
        _swap(tmp, target.path)
    except BaseException:
        remove(tmp)
        raise
    finally:
        if lock is not None:
            os.close(lock)
    return report


@dataclass(frozen=True)
class Part:
    folder: Path
    shard: Shard
    corpus: str
    rulings: tuple[str, ...]


def read_part(folder: Path) -> Part:
    """The :data:`PART_MARKER` of a part; a :class:`BuildError` naming the folder and the
    field when it is missing or wrong."""
    marker = folder / PART_MARKER
    try:
        data = json.loads(marker.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise BuildError(f"{folder}: not a part built by judge build --shard K/N (no "
                         f"{PART_MARKER} file)") from None
    except (OSError, ValueError) as exc:
        raise BuildError(f"{marker}: unreadable ({exc}); build the part again") from None
    fields = {"part": int, "of": int, "corpus": str, "rulings": list}
    for name, kind in fields.items():
        if not isinstance(data, dict) or not isinstance(data.get(name), kind):
            raise BuildError(f"{marker}: field {name!r} missing or not a {kind.__name__}; "
                             "build the part again")
    if not all(isinstance(r, str) for r in data["rulings"]):
        raise BuildError(f"{marker}: field 'rulings' must list ruling ids; build the part "
                         "again")
    return Part(folder, Shard(data["part"], data["of"]), data["corpus"],
                tuple(data["rulings"]))


def check_parts(parts: Sequence[Part]) -> None:
    """The parts must be 1 to N of one N, each once, of one corpus."""
    if not parts:
        raise BuildError("judge merge-site needs the folders of the parts (judge build "
                         "--shard K/N --out DIR for each K from 1 to N)")
    counts = sorted({p.shard.count for p in parts})
    if len(counts) > 1:
        raise BuildError("the parts split the corpus in different numbers: "
                         + ", ".join(f"{p.folder} is {p.shard.index}/{p.shard.count}"
                                     for p in parts))
    count = counts[0]
    seen: dict[int, Path] = {}
    for p in parts:
        if p.shard.index in seen:
            raise BuildError(f"{seen[p.shard.index]} and {p.folder} are both part "
                             f"{p.shard.index}/{count}")
        seen[p.shard.index] = p.folder
    missing = [str(k) for k in range(1, count + 1) if k not in seen]
    if missing:
        raise BuildError(f"part(s) {', '.join(missing)} of {count} missing (judge build "
                         f"--shard K/{count})")
    if len({p.corpus for p in parts}) > 1:
        raise BuildError("the parts were built from different versions of the corpus; "
                         "build them again from the same one")


def merged(parts: Sequence[Part]) -> Callable[[SiteInput], Mapping[str, Path]]:
    """Each ruling's part, once the corpus is loaded: checked against it (the same corpus,
    the same dealing of the rulings, every file there)."""

    def made(site: SiteInput) -> Mapping[str, Path]:
        if parts[0].corpus != site.corpus.fingerprint:
            raise BuildError(f"the parts were built from another version of the corpus than "
                             f"{site.corpus.root}; build them again")
        where: dict[str, Path] = {}
        for p in parts:
            if list(p.rulings) != p.shard.rulings(site):
                raise BuildError(f"{p.folder / PART_MARKER}: field 'rulings' is not part "
                                 f"{p.shard.index}/{p.shard.count} of this corpus; build the "
                                 "part again")
            for ruling in p.rulings:
                names = [page_file(lang, f"rulings/{ruling}/") for lang in LANGS]
                names.append(f"{API_FOLDER}/{ruling_file(ruling)}")
                for name in names:
                    if not (p.folder / name).is_file():
                        raise BuildError(f"{p.folder}: {name} is missing; build the part "
                                         "again")
                where[ruling] = p.folder
        return where

    return made


def merge_site(folders: Sequence[Path], out: Path, *, root: Path | None = None,
               allow_failing: bool = False, progress: Progress | None = None,
               jobs: int = 0, force: bool = False, search: bool = False) -> BuildReport:
    """Put the parts in ``folders`` together into the site at ``out`` (see the module)."""
    parts = [read_part(Path(f)) for f in folders]
    check_parts(parts)
    return build_site(out, root=root, allow_failing=allow_failing, progress=progress,
                      jobs=jobs, force=force, search=search, made=merged(parts))
