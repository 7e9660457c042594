"""Build: the rules engine compiled with mypyc where a C compiler is at hand, else pure Python.

pyproject.toml holds the project's metadata; this file only adds the compiled engine
(docs/architecture.md, "The compiled engine"). Each module of ``judge/engine`` but those of
``PURE`` becomes a C extension beside its source, which the interpreter imports in its place:
the same rules, nearly twice as fast (benchmarks/games.py). Nothing else changes: the
source stays the engine of record, the browser sandbox runs it as it is, and
``judge/compiled.py`` runs the source instead of extensions built from other source.

The compiled engine is optional. With ``JUDGE_PURE_PYTHON=1`` in the environment, or where
mypyc or a C compiler fails, the build goes on without it (saying so) and the engine runs as
pure Python, more slowly.
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

ENGINE = Path("judge", "engine")
#: Modules the interpreter keeps: the package's start (it runs the guard, judge/compiled.py,
#: first), the event kinds' declarations (classes made by decorators when it is imported) and
#: the traces (positions and snapshots, read by the site as much as by the runner). So does
#: every module that declares an event kind (``@event_kind``): mypyc would put a filler in
#: place of those classes' docstrings, which document the events (docs/events.md).
PURE = frozenset({"__init__.py", "events.py", "trace.py"})
DECLARES_EVENTS = "@event_kind("
#: What the build records of the source it compiled (read by judge/compiled.py).
STAMP = ENGINE / "compiled.json"
SKIP = "JUDGE_PURE_PYTHON"


def note(text: str) -> None:
    print(f"wixoss-judge build: {text}", file=sys.stderr)


def compiled_sources() -> list[Path]:
    return sorted(p for p in ENGINE.rglob("*.py")
                  if "__pycache__" not in p.parts and p.relative_to(ENGINE).as_posix()
                  not in PURE and DECLARES_EVENTS not in p.read_text(encoding="utf-8"))


def module_name(path: Path) -> str:
    parts = path.with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def write_stamp(sources: list[Path]) -> None:
    """Each compiled module's name, and the SHA-256, size and time of the source it was
    compiled from (judge/compiled.py reads them)."""
    stamp = {module_name(p): [hashlib.sha256(p.read_bytes()).hexdigest(), p.stat().st_size,
                              p.stat().st_mtime_ns] for p in sources}
    text = json.dumps(stamp, indent=1, sort_keys=True) + "\n"
    if not STAMP.exists() or STAMP.read_text(encoding="utf-8") != text:
        STAMP.write_text(text, encoding="utf-8")


def extensions() -> list[Any]:
    if os.environ.get(SKIP):
        note(f"{SKIP} is set: the engine stays pure Python")
        STAMP.unlink(missing_ok=True)
        return []
    sources = compiled_sources()
    try:
        from mypyc.build import mypycify

        modules = mypycify(list(map(str, sources)),
                           multi_file=True, group_name="judge_engine")
    except (Exception, SystemExit) as exc:  # mypy missing, or its check failed
        note(f"mypyc could not compile the engine ({exc!r}); it stays pure Python")
        STAMP.unlink(missing_ok=True)
        return []
    write_stamp(sources)
    return modules


class BuildEngine(build_ext):
    """Compiles the C files of an extension on every core (mypyc writes one group of many);
    if the C compiler fails, builds nothing at all (the compiled modules depend on each
    other, so some without the rest would not import)."""

    def build_extensions(self) -> None:
        compile_one = self.compiler.compile

        def compile_all(sources: list[str], *args: Any, **kwargs: Any) -> list[str]:
            with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
                done = pool.map(lambda source: compile_one([source], *args, **kwargs), sources)
                return [obj for objects in done for obj in objects]

        self.compiler.compile = compile_all  # type: ignore[method-assign]
        super().build_extensions()

    def run(self) -> None:
        try:
            super().run()
        except Exception as exc:  # no compiler, no Python headers, ...
            for output in self.get_outputs():
                Path(output).unlink(missing_ok=True)
            if self.inplace or getattr(self, "editable_mode", False):
                for ext in self.extensions:
                    Path(self.get_ext_fullpath(ext.name)).unlink(missing_ok=True)
            STAMP.unlink(missing_ok=True)
            note(f"the C compiler failed ({exc}); the engine stays pure Python")
            self.extensions = []


setup(ext_modules=extensions(), cmdclass={"build_ext": BuildEngine})
