"""./dev: a second run with nothing changed does not install again (issue 29, item 4).

``pip install -e .`` compiles the engine with mypyc, about 45 s on two cores; ./dev skips it
when the packaging files, the engine's source, the extras and ``JUDGE_PURE_PYTHON`` are what
the last install made there read (a stamp in .venv). These tests run the real script in a
copy of its folder whose .venv holds stand-ins that only log how they were called."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

PYTHON = """#!/usr/bin/env bash
echo "python $*" >> "$(dirname "$0")/../calls"
"""
JUDGE = """#!/usr/bin/env bash
echo "judge $*" >> "$(dirname "$0")/../calls"
"""


@pytest.fixture()
def tree(tmp_path: Path) -> Path:
    """A folder with ./dev, the files an install reads, and a .venv of stand-ins."""
    shutil.copy(ROOT / "dev", tmp_path / "dev")
    for name in ("pyproject.toml", "setup.py"):
        shutil.copy(ROOT / name, tmp_path / name)
    engine = tmp_path / "judge" / "engine"
    (engine / "rule_processing").mkdir(parents=True)
    (engine / "__init__.py").write_text('"""engine"""\n')
    (engine / "game.py").write_text("X = 1\n")
    (engine / "rule_processing" / "power.py").write_text("Y = 2\n")
    (tmp_path / "node_modules" / "pyodide").mkdir(parents=True)
    (tmp_path / "node_modules" / "pyodide" / "package.json").write_text("{}")
    bin_ = tmp_path / ".venv" / "bin"
    bin_.mkdir(parents=True)
    for name, text in (("python", PYTHON), ("judge", JUDGE), ("ruff", JUDGE),
                       ("mypy", JUDGE)):
        (bin_ / name).write_text(text)
        (bin_ / name).chmod(0o755)
    return tmp_path


def dev(tree: Path, command: str, **env: str) -> list[str]:
    """Run ``./dev command`` in ``tree``; the calls the stand-ins logged during it."""
    calls = tree / ".venv" / "calls"
    calls.unlink(missing_ok=True)
    environ = {k: v for k, v in os.environ.items() if k != "JUDGE_PURE_PYTHON"}
    subprocess.run(["bash", str(tree / "dev"), command], cwd=tree, check=True,
                   env={**environ, **env}, capture_output=True, timeout=60)
    return calls.read_text().splitlines() if calls.exists() else []


def installs(calls: list[str]) -> list[str]:
    return [c for c in calls if c.startswith("python -m pip install")]


def test_a_second_dev_main_with_nothing_changed_does_not_install(tree: Path) -> None:
    first = dev(tree, "main")
    assert installs(first) == ["python -m pip install -q --disable-pip-version-check -e ."]
    second = dev(tree, "main")
    assert installs(second) == []
    assert second == ["judge check rulings", "judge serve --port 8000"]


def test_an_edited_engine_module_is_installed_again(tree: Path) -> None:
    dev(tree, "main")
    (tree / "judge" / "engine" / "rule_processing" / "power.py").write_text("Y = 3\n")
    assert len(installs(dev(tree, "main"))) == 1
    assert installs(dev(tree, "main")) == []


@pytest.mark.parametrize("change", ["new module", "removed module", "setup.py",
                                    "pyproject.toml"])
def test_what_the_build_reads_makes_it_install_again(tree: Path, change: str) -> None:
    dev(tree, "main")
    if change == "new module":
        (tree / "judge" / "engine" / "new.py").write_text("Z = 1\n")
    elif change == "removed module":
        (tree / "judge" / "engine" / "game.py").unlink()
    else:
        with (tree / change).open("a") as fh:
            fh.write("\n# changed\n")
    assert len(installs(dev(tree, "main"))) == 1


def test_a_file_outside_the_engine_needs_no_install(tree: Path) -> None:
    dev(tree, "main")
    (tree / "judge" / "cli.py").write_text("# the editable install reads it from the tree\n")
    assert installs(dev(tree, "main")) == []


def test_the_pure_python_switch_and_the_extras_are_part_of_the_stamp(tree: Path) -> None:
    dev(tree, "main")
    assert len(installs(dev(tree, "main", JUDGE_PURE_PYTHON="1"))) == 1
    assert len(installs(dev(tree, "main"))) == 1
    test_calls = dev(tree, "test")
    assert installs(test_calls) == [
        "python -m pip install -q --disable-pip-version-check -e .[test]"]
    # the test tools' install serves ./dev main too; ./dev main's does not serve ./dev test
    assert installs(dev(tree, "main")) == []
    assert installs(dev(tree, "test")) == []


def test_a_failed_install_leaves_no_stamp(tree: Path) -> None:
    python = tree / ".venv" / "bin" / "python"
    python.write_text(PYTHON + "exit 1\n")
    with pytest.raises(subprocess.CalledProcessError):
        dev(tree, "main")
    python.write_text(PYTHON)
    assert len(installs(dev(tree, "main"))) == 1
