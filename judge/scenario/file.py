"""One ruling file as ``judge check`` and the corpus load it, and the checks across files.

:func:`load_one` turns every problem of a file into a :class:`~judge.errors.ScenarioError`
(even a bug of the loader); :func:`duplicate_id` and :func:`check_related` are the errors
found across files. They live here, not in :mod:`judge.corpus`, so that ``judge check``
does not import the corpus (its dataclasses, the source registry's documents).
"""

from __future__ import annotations

import os
import re
from collections.abc import Collection, Mapping
from functools import cache
from pathlib import Path
from typing import Protocol

from judge.data import load_glossary
from judge.errors import FieldError, JudgeError, ScenarioError
from judge.ids import quote
from judge.paths import data_dir, discover, project_root
from judge.scenario.load import load_path
from judge.scenario.model import Scenario
from judge.tomlfile import read_file


class RulingHead(Protocol):
    """What the checks across files read of a ruling: a :class:`Scenario`, or the
    :class:`judge.workers.Head` a worker process sends of one."""

    @property
    def id(self) -> str: ...
    @property
    def path(self) -> str: ...
    @property
    def related(self) -> tuple[str, ...]: ...
    @property
    def id_line(self) -> int: ...
    @property
    def related_line(self) -> int: ...


def duplicate_id(scenario: RulingHead, first: str) -> ScenarioError:
    """The error for a second file that uses a ruling id already taken by ``first``."""
    return ScenarioError(scenario.path, scenario.id_line, FieldError(
        "id", f"ruling id {scenario.id!r} is already used by {first} (each ruling has its "
              "own id)"))


def check_related(scenario: RulingHead, known: Mapping[str, object]) -> None:
    """Every ``related`` id must name a ruling of the corpus. (``known`` holds the ids that
    files which could not be loaded seem to declare, :func:`written_ids`, so that a ruling
    pointing at a broken one is not blamed for its problem.)"""
    for i, rid in enumerate(scenario.related):
        if rid not in known:
            raise ScenarioError(scenario.path, scenario.related_line, FieldError(
                f"related[{i}]", f"no ruling has the id {rid!r}"))


_ID_LINE = re.compile(r"""^[ \t]*id[ \t]*=[ \t]*(?:"([^"\n]*)"|'([^'\n]*)')""", re.MULTILINE)


def written_ids(path: Path) -> set[str]:
    """The ids a file that cannot be loaded seems to declare (``id = "..."`` lines), so
    that the rulings whose ``related`` name it are not blamed for its problem."""
    try:
        text = read_file(path)
    except JudgeError:
        return set()
    return {a or b for a, b in _ID_LINE.findall(text)}


#: What a ruling file's name ends in (in lower case: ``UPPER.TOML`` is refused, not skipped).
SUFFIX = ".toml"


def main_candidates(ids: Collection[str]) -> set[str]:
    """The ruling ids a glossary term's ``main`` may name: ``ids`` (the corpus's, or the
    rulings a check loaded), and when a ``main`` is not among them, those of the project's
    rulings (``rulings/`` beside the data folder, and this package's own). So a corpus
    elsewhere that reads the same data (a test's), or a check of one folder, does not blame
    the glossary for the main rulings it does not hold; a ``main`` that names a ruling of
    none is a mistake of the glossary (:func:`judge.data.check_main_rulings`)."""
    out = set(ids)
    if all(t.main in out for t in load_glossary().values() if t.main):
        return out
    folders = {data_dir().resolve().parent / "rulings", project_root() / "rulings"}
    for folder in sorted(folders):
        out |= _ids_in(folder)
    return out


@cache
def _ids_in(folder: Path) -> frozenset[str]:
    """The ruling ids the files of a rulings folder declare (read, not loaded)."""
    if not folder.is_dir():
        return frozenset()
    return frozenset(i for path in discover([folder]) for i in written_ids(path))


def check_name(path: Path, shown: str) -> None:
    """A ruling file's name must be UTF-8 text (it is shown on pages, stored in the database
    and hashed) and end in ``.toml``, in lower case."""
    name = path.name
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        raise ScenarioError(shown, 1, FieldError(
            "", "the file name is not UTF-8 text: rename the file")) from None
    if name[-len(SUFFIX):].lower() == SUFFIX and not name.endswith(SUFFIX):
        raise ScenarioError(shown, 1, FieldError(
            "", f"a ruling file's name ends in {SUFFIX!r}, in lower case: rename the file to "
                f"{quote(name[:-len(SUFFIX)] + SUFFIX)}"))


def load_one(path: Path, shown: str, folders: dict[Path, Path] | None = None) -> Scenario:
    """Load one ruling; every problem, even a bug of the loader, is a ScenarioError.

    ``folders``: resolved folders by folder as given, shared by the files of one run, so that
    each folder's path is resolved once (a file that is itself a symbolic link is always
    resolved whole)."""
    try:
        check_name(path, shown)
        scenario = load_path(path, shown)
        resolved = _resolve(path, folders)
        rulings = _rulings_above(resolved)
        if rulings is not None:
            # rulings.parent lies above resolved: what os.path.relpath gives, without its
            # normalising of both paths again
            check_topic(resolved.relative_to(rulings.parent).as_posix())
        return scenario
    except ScenarioError:
        raise
    except RecursionError:
        raise ScenarioError(shown, 1, FieldError("", "nested too deeply to read")) from None
    except Exception as exc:
        raise ScenarioError(shown, 1, FieldError(
            "", f"internal error, please report it: {type(exc).__name__}: "
                f"{quote(str(exc))}")) from None


def _resolve(path: Path, folders: dict[Path, Path] | None) -> Path:
    """``path.resolve()``: its folder's, looked up in ``folders``, with its name, unless it is
    a symbolic link itself (or a name that is no file's: empty, ``.``, ``..``)."""
    name = path.name
    if folders is None or name in ("", ".", "..") or os.path.islink(path):
        return path.resolve()
    parent = path.parent
    folder = folders.get(parent)
    if folder is None:
        folder = folders[parent] = parent.resolve()
    return folder / name


def _rulings_folder(path: Path) -> Path | None:
    """The nearest folder named ``rulings`` above ``path``, if any."""
    return _rulings_above(path.resolve())


def _rulings_above(resolved: Path) -> Path | None:
    for parent in resolved.parents:
        if parent.name == "rulings":
            return parent
    return None


def check_topic(rel: str) -> None:
    """The folders under ``rulings/`` become topic pages: their names are ids too."""
    from judge.ids import ID_RULE, is_id

    parts = rel.split("/")
    for part in parts[1:-1]:
        if not is_id(part):
            raise ScenarioError(rel, 1, FieldError(
                "", f"the folder name {part!r} is not a valid topic id ({ID_RULE})"))
