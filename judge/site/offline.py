"""Offline use: the service worker and, per language, the files it keeps after a first visit.

``judge build`` calls :func:`write_offline` last, once the pages, the downloads and the search
index are in the new folder, so that the version covers them all:

- ``offline/<lang>.json``: the files the worker keeps for a language as soon as a page of it
  is opened: the pages a search leads to (:data:`PAGES`: the search page, the list of every
  ruling with its answer, the glossary, the processing and rule-change pages, the language's
  home and its "offline" page), the stylesheets and scripts they use (:data:`ASSETS`) and the
  language's whole Pagefind bundle except what the search page never loads (Pagefind's web
  worker and the WebAssembly of the other languages); with their total size and a digest
  of their bytes (:func:`files_digest`), so that the list changes whenever one of them does;
- ``sw.js``, at the root (so its scope is the whole site and nothing above it):
  ``site_templates/sw.js`` with the build's version, the first 20 hexadecimal digits of a
  SHA-256 of every other file's name and bytes. The same site gives the same version; any
  change to a page, a download or the index gives a new one, and browsers replace the
  worker and its cache.

docs/site.md, "Offline use", describes what the worker does with them.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from pathlib import Path

from judge.langs import LANGS
from judge.site.render import templates_dir

SERVICE_WORKER = "sw.js"
#: The folder of the per-language lists.
FOLDER = "offline"
#: The pages (keys under ``/<lang>/``) kept with a language's search: where its results lead
#: (a ruling that was never opened leads to its entry in ``rulings/``), and the page shown
#: for a page that was not kept.
PAGES = ("", "search/", "rulings/", "glossary/", "processing/", "timeline/", "offline/")
#: The assets those pages use (under ``/assets/``).
ASSETS = ("site.css", "site.js", "search.css", "search.js", "favicon.svg")
#: Files of a Pagefind bundle the search page never loads (it runs without Pagefind's worker).
PAGEFIND_UNUSED = ("pagefind-worker.js",)
#: Left out of the version: the worker itself, and the marker of a built site.
UNHASHED = (SERVICE_WORKER, ".judge-site")
#: The names that carry a hash of their content: the parts of a Pagefind index
#: (``pagefind.en_7329116b6d.pf_meta``, ``index/en_5d6fe02.pf_index``, ``fragment/...``,
#: ``filter/...``), which a new index names anew. Such a file never changes, so browsers may
#: keep it (``judge serve`` says so, the worker serves its stored copy); every other file may
#: change with any build and is asked for again each time (docs/site.md, "Caching"). The
#: worker gets this very pattern (``__JUDGE_HASHED__``).
HASHED_NAME = re.compile(r"_[0-9a-f]{7,}\.pf_(?:meta|index|fragment|filter)$")


@dataclass
class OfflineReport:
    version: str = ""
    files: dict[str, int] = field(default_factory=dict)  # language -> files kept
    bytes: dict[str, int] = field(default_factory=dict)  # language -> their bytes


def write_offline(root: Path) -> OfflineReport:
    """Write ``offline/<lang>.json`` and ``sw.js`` into the site folder ``root``."""
    report = OfflineReport()
    (root / FOLDER).mkdir(exist_ok=True)
    for lang in LANGS:
        files = kept_files(root, lang)
        size = sum((root / f.rstrip("/") / "index.html").stat().st_size if f.endswith("/")
                   else (root / f).stat().st_size for f in files)
        (root / FOLDER / f"{lang}.json").write_bytes(
            (json.dumps({"lang": lang, "files": files, "bytes": size,
                         "digest": files_digest(root, files)},
                        separators=(",", ":"), sort_keys=True) + "\n").encode("utf-8"))
        report.files[lang], report.bytes[lang] = len(files), size
    report.version = site_version(root)
    script = (templates_dir() / SERVICE_WORKER).read_text(encoding="utf-8")
    script = script.replace("__JUDGE_BUILD_VERSION__", report.version, 1)
    script = script.replace("__JUDGE_LANGS__", json.dumps(list(LANGS)), 1)
    script = script.replace("__JUDGE_PYODIDE__", _pyodide_version(root), 1)
    script = script.replace("__JUDGE_HASHED__", HASHED_NAME.pattern.replace("/", "\\/"), 1)
    (root / SERVICE_WORKER).write_bytes(script.encode("utf-8"))
    return report


def files_digest(root: Path, files: list[str]) -> str:
    """A hash of the names and bytes of ``files`` (addresses from the site root; a folder's
    is its ``index.html``): any change to a kept file changes the list, and a worker still in
    control after a rebuild keeps the language anew (``keepLanguage`` in sw.js)."""
    digest = hashlib.sha256()
    for name in files:
        path = root / (f"{name}index.html" if name.endswith("/") else name)
        digest.update(name.encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:20]


def _pyodide_version(root: Path) -> str:
    """The version of the Pyodide the site holds (the sandbox's cache is named after it)."""
    try:
        meta = json.loads((root / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
        return str(meta["info"]["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return "none"


def kept_files(root: Path, lang: str) -> list[str]:
    """The addresses (from the site root) the worker keeps for ``lang``, sorted; only files
    the site has (a site built without its search index has no Pagefind bundle)."""
    files = [f"{lang}/{key}" for key in PAGES if (root / lang / key / "index.html").is_file()]
    files += [f"assets/{name}" for name in ASSETS if (root / "assets" / name).is_file()]
    bundle = root / lang / "pagefind"
    if bundle.is_dir():
        wasm = _wasm(bundle)
        for path in sorted(bundle.rglob("*")):
            name = path.name
            if not path.is_file() or name in PAGEFIND_UNUSED:
                continue
            if name.startswith("wasm.") and name.endswith(".pagefind") and name not in wasm:
                continue
            files.append(path.relative_to(root).as_posix())
    return sorted(files)


def _wasm(bundle: Path) -> set[str]:
    """The WebAssembly files the bundle's entry names: Pagefind loads one per language,
    ``wasm.<its wasm>.pagefind``, or ``wasm.unknown.pagefind`` where it has none (Japanese and
    Chinese, which the extended binary cuts into words itself)."""
    try:
        entry = json.loads((bundle / "pagefind-entry.json").read_text(encoding="utf-8"))
        return {f"wasm.{info.get('wasm') or 'unknown'}.pagefind"
                for info in entry["languages"].values()}
    except (OSError, ValueError, KeyError, TypeError):
        return {p.name for p in bundle.glob("wasm.*.pagefind")}  # unknown format: keep all


def site_version(root: Path) -> str:
    """A hash of every file of the site (its name from the root and its bytes), but the
    worker and the marker: the same site, the same version."""
    digest = hashlib.sha256()
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        name = path.relative_to(root).as_posix()
        if name in UNHASHED:
            continue
        digest.update(name.encode("utf-8") + b"\0")
        digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:20]
