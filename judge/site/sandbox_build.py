"""``judge build``'s part for the browser sandbox: Pyodide and this package, into the site.

:func:`write_sandbox` writes, into the new site folder:

- ``pyodide/``: the files of the npm package ``pyodide`` (pinned in package.json and
  package-lock.json, installed into ``node_modules/`` by ``npm ci``, which ``./dev`` runs) that
  the engine needs: the loader, the WebAssembly Python, its standard library and the package
  list Pyodide reads at start-up (:data:`PYODIDE_FILES`); nothing else of the npm package;
- ``sandbox/judge.zip``: the Python the browser runs, made now from the installed sources:
  the ``judge`` package itself (its ``.py`` files; the message catalogues compiled to ``.mo``,
  so Babel is not needed), the data files the loaders read (:func:`judge.data.data_files`:
  the source registry, rule sets, glossary and card files, and nothing else of the data
  folder), the templates the sandbox renders (``site_templates/replay.html`` and
  ``sandbox-results.html``), the corpus's ruling ids (:data:`judge.site.sandbox.IDS_FILE`),
  and the pure-Python packages the rendering and the board's edits import, Jinja2,
  MarkupSafe and tomlkit (without MarkupSafe's C speed-up, which Pyodide could not load).
  The zip's entries are sorted and dated 1980-01-01: the same sources, the same bytes.
  Only regular files go in: a hidden file (or one in a hidden folder) is left out, and a
  symbolic link on the way to a file that would go in is refused
  (:class:`PublishError`): a link could carry anything of the machine (``/proc/self/environ``,
  a key) into the public zip;
- ``sandbox/sandbox.js``, ``sandbox.css``, ``sandbox-worker.js``: the editor and the worker
  (from ``site_templates/``), loaded only when a reader clicks "Try it";
- ``sandbox/files.json``: the list of those files, which the editor hands to the service
  worker to keep after its first replay;
- ``sandbox/rulings/....toml.gz``: each ruling's own file, at its path in the corpus,
  gzip-compressed (a third of the TOML; no name or time in the header), which the editor
  opens and decompresses.

When ``node_modules/pyodide`` is missing (``npm ci`` was not run), the build goes on without
the sandbox and :attr:`SandboxReport.missing` says so in one line; ``judge build`` prints it.
docs/site.md, "The sandbox", describes the whole.
"""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import stat
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import judge
from judge.data import data_files
from judge.errors import JudgeError
from judge.i18n import LANGS, mo_bytes, po_path
from judge.paths import data_dir, project_root
from judge.site.api import gz
from judge.site.load import SiteInput
from judge.site.render import templates_dir
from judge.site.sandbox import IDS_FILE
from judge.tomlfile import shown_path

#: The site folders the sandbox's files go in.
PYODIDE_FOLDER = "pyodide"
SANDBOX_FOLDER = "sandbox"
#: What the sandbox needs of the npm package (its other files are for Node.js, types, maps).
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip",
                 "pyodide-lock.json")
#: The editor and the worker, copied from site_templates/ into sandbox/.
SCRIPTS = ("sandbox.js", "sandbox.css", "sandbox-worker.js")
#: The templates the sandbox renders (and those they include).
TEMPLATES = ("replay.html", "sandbox-results.html")
#: Pure-Python packages the sandbox imports besides ``judge`` (jinja2 renders the templates,
#: tomlkit writes the board's edits).
PACKAGES = ("jinja2", "markupsafe", "tomlkit")
ARCHIVE = "judge.zip"
#: The list of the files above (from the site root), which the editor asks the service
#: worker to keep after a first replay, so that the sandbox works offline.
FILES = "files.json"
#: What a ruling's file's copy adds to its path (gzip-compressed, :func:`judge.site.api.gz`).
COMPRESSED = ".gz"
#: Every zip entry's date: the earliest a zip can hold, so the archive does not depend on
#: when or from what checkout it was built.
ZIP_DATE = (1980, 1, 1, 0, 0, 0)


@dataclass
class SandboxReport:
    #: why the sandbox is not in this build, in one line (empty: it is)
    missing: str = ""
    pyodide_version: str = ""
    #: bytes of each file the sandbox loads (name from the site root -> bytes)
    files: dict[str, int] = field(default_factory=dict)

    @property
    def bytes(self) -> int:
        return sum(self.files.values())


def pyodide_dir() -> Path:
    return project_root() / "node_modules" / "pyodide"


def pinned_version() -> str:
    """The Pyodide version package-lock.json pins (empty when there is no lock file)."""
    try:
        lock = json.loads((project_root() / "package-lock.json").read_text(encoding="utf-8"))
        return str(lock["packages"]["node_modules/pyodide"]["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return ""


def installed_version() -> str:
    """The version of the Pyodide in node_modules (empty when it is not installed)."""
    try:
        meta = json.loads((pyodide_dir() / "package.json").read_text(encoding="utf-8"))
        return str(meta["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return ""


def missing_reason() -> str:
    """Why the sandbox cannot be built, in one line, or empty."""
    pinned, installed = pinned_version(), installed_version()
    if not installed or any(not (pyodide_dir() / f).is_file() for f in PYODIDE_FILES):
        return ("the sandbox is left out of this build: node_modules/pyodide is missing "
                "(run `npm ci` in the project, as ./dev does)")
    if pinned and installed != pinned:
        return (f"the sandbox is left out of this build: node_modules has Pyodide {installed}, "
                f"package-lock.json pins {pinned} (run `npm ci`)")
    return ""


def write_sandbox(site: SiteInput, root: Path) -> SandboxReport:
    """Write the sandbox's files into the site folder ``root`` (see the module)."""
    report = SandboxReport(missing=missing_reason(), pyodide_version=installed_version())
    if report.missing:
        return report
    target = root / PYODIDE_FOLDER
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copyfile(pyodide_dir() / name, target / name)
        report.files[f"{PYODIDE_FOLDER}/{name}"] = (target / name).stat().st_size
    folder = root / SANDBOX_FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    for name in SCRIPTS:
        shutil.copyfile(templates_dir() / name, folder / name)
        report.files[f"{SANDBOX_FOLDER}/{name}"] = (folder / name).stat().st_size
    ids = sorted(d.id for d in site.rulings)
    write_archive(folder / ARCHIVE, ids)
    report.files[f"{SANDBOX_FOLDER}/{ARCHIVE}"] = (folder / ARCHIVE).stat().st_size
    listed = sorted(report.files)
    (folder / FILES).write_bytes(
        (json.dumps({"files": listed}, separators=(",", ":")) + "\n").encode("utf-8"))
    for data in site.rulings:
        source = site.corpus.root / data.path
        copy = folder / (data.path + COMPRESSED)
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_bytes(gz(source.read_bytes()))
    return report


class PublishError(JudgeError):
    """A file the sandbox's zip would carry that is not a plain file of its folder."""

    def __init__(self, path: Path, why: str) -> None:
        self.path = path
        super().__init__(f"{shown_path(path)}: {why}; the site publishes only regular files "
                         "(replace the link with the file itself)")


def published(path: Path, folder: Path) -> bytes:
    """The bytes of ``path``, a file under ``folder``, when it is a regular file reached
    without a symbolic link from ``folder`` on; else :class:`PublishError`."""
    try:
        parts = path.relative_to(folder).parts
    except ValueError:
        raise PublishError(path, f"not inside {shown_path(folder)}") from None
    step = folder
    for part in parts:
        step = step / part
        try:
            info = os.lstat(step)
        except OSError as exc:
            raise PublishError(step, f"cannot be read: {exc.strerror or exc}") from None
        if stat.S_ISLNK(info.st_mode):
            raise PublishError(step, "a symbolic link")
    if not stat.S_ISREG(info.st_mode):
        raise PublishError(path, "not a regular file")
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError as exc:  # replaced by a link since: refused as well
        raise PublishError(path, f"cannot be read: {exc.strerror or exc}") from None
    with os.fdopen(fd, "rb") as handle:
        if not stat.S_ISREG(os.fstat(handle.fileno()).st_mode):
            raise PublishError(path, "not a regular file")
        return handle.read()


def package_files(folder: Path, pattern: str) -> list[Path]:
    """The files matching ``pattern`` under ``folder`` and its subfolders, sorted; hidden
    names and ``__pycache__`` are left out (they are no part of a package)."""
    return sorted(p for p in folder.rglob(pattern)
                  if not any(part.startswith(".") or part == "__pycache__"
                             for part in p.relative_to(folder).parts))


def archive_entries(ids: list[str]) -> Iterator[tuple[str, bytes]]:
    """(name, bytes) of every file of the sandbox's zip, in any order."""
    package = Path(judge.__file__).resolve().parent
    for path in package_files(package, "*.py"):
        yield f"judge/{path.relative_to(package).as_posix()}", published(path, package)
    for lang in LANGS:
        mo = po_path(lang).with_suffix(".mo").relative_to(package).as_posix()
        yield f"judge/{mo}", mo_bytes(lang)
    data = data_dir()
    for path in data_files():
        yield f"data/{path.relative_to(data).as_posix()}", published(path, data)
    for name in TEMPLATES:
        yield f"site_templates/{name}", published(templates_dir() / name, templates_dir())
    yield IDS_FILE, (json.dumps(ids, separators=(",", ":")) + "\n").encode("utf-8")
    for name in PACKAGES:
        spec = importlib.util.find_spec(name)
        if spec is None or spec.origin is None:
            raise JudgeError(f"the sandbox needs the Python package {name!r}, "
                             "which is not installed")
        folder = Path(spec.origin).parent
        for path in package_files(folder, "*.py"):
            yield f"{name}/{path.relative_to(folder).as_posix()}", published(path, folder)


def write_archive(target: Path, ids: list[str]) -> None:
    """The sandbox's zip (:func:`archive_entries`), sorted, every entry dated :data:`ZIP_DATE`."""
    entries = dict(archive_entries(ids))
    with zipfile.ZipFile(target, "w") as archive:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, entries[name], compresslevel=9)

