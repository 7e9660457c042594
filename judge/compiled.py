"""The compiled engine: which build of the engine runs, and the guard that picks it.

setup.py compiles most modules of ``judge/engine`` with mypyc, where it can, into C extensions
beside their source; the interpreter imports an extension in place of its module. The source
is the engine of record: the extensions must do exactly what it says, and the test suite holds
the two to the same traces (tests/test_compiled.py). So the extensions run only when they were
built from the source as it is now. ``compiled.json``, written by the build, gives the SHA-256
(with the size and time) of each compiled module's source; :func:`guard`, which
``judge/engine/__init__.py`` runs before any other module of the engine is imported, compares
them with the files. When one differs, or the stamp is missing, or ``JUDGE_PURE_PYTHON`` is
set, every module of the engine is imported from its source. An engine edited since its build
thus runs as edited, more slowly, until the next ``pip install`` (``./dev main``,
``./dev test``) compiles it again.

It lives outside the engine, which reads no files: it reads the stamp and the sources. Of
the engine, ``__init__``, ``events``, ``trace`` and the modules that declare event kinds are
never compiled (setup.py, PURE).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Sequence
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, SourceFileLoader
from pathlib import Path
from types import ModuleType

PACKAGE = "judge.engine"
FOLDER = Path(__file__).resolve().parent / "engine"
STAMP = FOLDER / "compiled.json"
#: Set (to anything but an empty string) to run the engine from its source.
ENV = "JUDGE_PURE_PYTHON"

#: What :func:`guard` decided: "compiled", or why the engine runs from its source.
state = "not checked"


def source_path(name: str) -> Path | None:
    """The source file of module ``name`` of the engine (``judge.engine.game``), if any."""
    if name != PACKAGE and not name.startswith(PACKAGE + "."):
        return None
    parts = name.split(".")[2:]
    folder = FOLDER.joinpath(*parts)
    if (folder / "__init__.py").is_file():
        return folder / "__init__.py"
    path = FOLDER.joinpath(*parts[:-1], parts[-1] + ".py") if parts else None
    return path if path is not None and path.is_file() else None


def stale(stamp: dict[str, list[object]]) -> list[str]:
    """The modules of ``stamp`` whose source is missing or differs from what was compiled.
    Each entry is ``[sha256, size, mtime_ns]`` of the source at the build: a file of that
    size and time is taken as unchanged (a stat, not a read, where the build happened in
    place, as ``pip install -e`` builds); any other is hashed."""
    out = []
    for name, (digest, size, mtime) in sorted(stamp.items()):
        path = source_path(name)
        if path is None:
            out.append(name)
            continue
        info = path.stat()
        if info.st_size == size and info.st_mtime_ns == mtime:
            continue
        import hashlib  # only when a source file's size or time differs from the build's

        if hashlib.sha256(path.read_bytes()).hexdigest() != digest:
            out.append(name)
    return out


class SourceFirst:
    """A finder of the import system (``sys.meta_path``; importlib.abc is not imported, for
    it imports much more) that imports each module of the engine from its ``.py`` file, never
    from an extension, but those of ``compiled``: with the compiled build, a module the build
    did not compile runs from source even if an extension of an older build lies beside it."""

    def __init__(self, compiled: frozenset[str] = frozenset()) -> None:
        self.compiled = compiled

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if fullname in self.compiled or fullname == PACKAGE:
            return None
        source = source_path(fullname)
        if source is None:
            return None
        package = source.name == "__init__.py"
        spec = ModuleSpec(fullname, SourceFileLoader(fullname, str(source)),
                          origin=str(source), is_package=package)
        if package:
            spec.submodule_search_locations = [str(source.parent)]
        spec.has_location = True  # __file__ and the bytecode cache, as the usual finder
        return spec


def decide() -> tuple[str, frozenset[str]]:
    """("compiled", the compiled modules) when the extensions may run, else (why not,
    nothing)."""
    if os.environ.get(ENV):
        return f"source ({ENV} is set)", frozenset()
    try:
        stamp = json.loads(STAMP.read_text(encoding="utf-8"))
        changed = stale(stamp)
    except FileNotFoundError:
        return "source (not compiled)", frozenset()
    except (OSError, ValueError, TypeError):
        return "source (compiled.json unreadable)", frozenset()
    if changed:
        return f"source ({changed[0]} changed since it was compiled)", frozenset()
    return "compiled", frozenset(stamp)


def guard() -> str:
    """Decide once which build runs, and put :class:`SourceFirst` first among the import
    system's finders: for every module with the source, for those not compiled with the
    compiled build. Returns the decision (also in :data:`state`)."""
    global state
    if state == "not checked":
        state, modules = decide()
        if not any(isinstance(f, SourceFirst) for f in sys.meta_path):
            sys.meta_path.insert(0, SourceFirst(modules))
    return state


def running() -> str:
    """Which build of the engine this process runs: ``compiled (mypyc)`` when its modules
    came from extensions, else ``pure Python`` and the reason."""
    import judge.engine.game as game

    if game.__file__ is not None and game.__file__.endswith(tuple(EXTENSION_SUFFIXES)):
        return "compiled (mypyc)"
    return "pure Python" + (f": {state}" if state != "compiled" else "")
