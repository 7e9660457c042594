"""The TOML parser of judge/tomlfile.py: ``tomli`` (compiled, a dependency) where it is
installed, the standard library's ``tomllib`` elsewhere (the browser sandbox). A ruling must
mean the same, and a broken one give the same error, whichever of the two reads it."""

from __future__ import annotations

import random
import tomllib
from pathlib import Path
from typing import Any

import pytest
import tomli

from judge import tomlfile
from judge.errors import ScenarioError
from judge.paths import project_root
from judge.tomlfile import parse, toml
from tests.hostile import random_cases, repo_bases, ruling_cases

#: What TOML 1.1 adds (tomli 2.4 and later read it): not TOML 1.0, so not a ruling.
TOML_1_1_ONLY = [
    'a = { x = 1,\n  y = 2 }',  # a newline in an inline table
    'a = { x = 1, }',  # a trailing comma in an inline table
    'a = "\\x41"',  # the \x escape
    'a = "\\e"',  # the \e escape
    't = 10:30',  # a time without seconds
    'd = 2024-01-02T10:30Z',  # a date-time without seconds
]


def _outcome(module: Any, text: str) -> tuple[str, object]:
    try:
        return "table", module.loads(text)
    except module.TOMLDecodeError as exc:
        return "error", str(exc)


def _judged(module: Any, text: str, monkeypatch: pytest.MonkeyPatch) -> object:
    """What :func:`judge.tomlfile.parse` makes of ``text`` with ``module`` as its parser."""
    monkeypatch.setattr(tomlfile, "toml", module)
    try:
        return parse(text, "file.toml")[0]
    except ScenarioError as exc:
        return exc.line, exc.error.field, exc.error.message


def _texts() -> list[tuple[str, str]]:
    rulings = project_root() / "rulings"
    out = [(str(p.relative_to(rulings)), p.read_text(encoding="utf-8"))
           for p in sorted(rulings.rglob("*.toml"))]
    out += [(str(p.relative_to(project_root())), p.read_text(encoding="utf-8"))
            for p in sorted((project_root() / "data").rglob("*.toml"))]
    # each file cut short at three places: syntax errors of many kinds, on many lines
    rng = random.Random(11)
    out += [(f"{name} cut at {cut}", text[:cut]) for name, text in out[:]
            for cut in sorted(rng.randrange(len(text)) for _ in range(3))]
    for case in ruling_cases() + random_cases(repo_bases(rulings)):
        for entry in case.entries:
            if entry.kind == "file":
                try:
                    out.append((f"{case.name}: {entry.path}", entry.data.decode("utf-8")))
                except UnicodeDecodeError:
                    continue  # refused before it is parsed
    return out


def test_the_installed_parser_is_the_compiled_tomli_of_toml_1_0() -> None:
    assert toml is tomli
    assert tomli.__version__.startswith("2.3."), tomli.__version__
    assert Path(tomli.__file__).suffix != ".py", "a compiled wheel (pip found no wheel?)"


def test_tomli_and_tomllib_read_every_file_and_every_broken_one_alike(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The same table, or the same error on the same line. (The compiled tomli runs out of
    recursion sooner than tomllib on thousands of nested dotted keys; parse reports both as
    nesting too deep, on the same line.)"""
    texts = _texts()
    assert len(texts) > 1000
    errors = 0
    for name, text in texts:
        got = _judged(tomli, text, monkeypatch)
        assert got == _judged(tomllib, text, monkeypatch), name
        errors += isinstance(got, tuple)
    assert errors > 300  # cut short, most rulings are no longer TOML


@pytest.mark.parametrize("text", TOML_1_1_ONLY)
def test_toml_1_1_is_refused_with_the_line_it_is_on(text: str) -> None:
    assert _outcome(tomllib, text)[0] == "error"
    with pytest.raises(ScenarioError) as caught:
        parse(text, "new-syntax.toml")
    assert caught.value.error.message.startswith("TOML syntax: ")
    assert caught.value.line == 1
