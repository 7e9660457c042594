"""./dev: a second run with nothing changed does not install again (issue 29, item 4).

./dev skips ``pip install -e .`` when pyproject.toml and the extras are what the last install
made there read (a stamp in .venv), and removes what an earlier version's compiled engine
left beside the source. These tests run the real script in a copy of its folder whose .venv
holds stand-ins that only log how they were called."""

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
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
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


def test_a_changed_pyproject_makes_it_install_again(tree: Path) -> None:
    dev(tree, "main")
    with (tree / "pyproject.toml").open("a") as fh:
        fh.write("\n# changed\n")
    assert len(installs(dev(tree, "main"))) == 1
    assert installs(dev(tree, "main")) == []


def test_a_change_to_the_source_needs_no_install(tree: Path) -> None:
    dev(tree, "main")
    (tree / "judge" / "cli.py").write_text("# the editable install reads it from the tree\n")
    (tree / "judge" / "engine" / "game.py").write_text("X = 2\n")
    (tree / "judge" / "engine" / "new.py").write_text("Z = 1\n")
    assert installs(dev(tree, "main")) == []


def test_the_extras_are_part_of_the_stamp(tree: Path) -> None:
    dev(tree, "main")
    test_calls = dev(tree, "test")
    assert installs(test_calls) == [
        "python -m pip install -q --disable-pip-version-check -e .[test]"]
    # the test tools' install serves ./dev main too; ./dev main's does not serve ./dev test
    assert installs(dev(tree, "main")) == []
    assert installs(dev(tree, "test")) == []
    assert any(c.startswith("python -m pytest -n 2 --dist loadfile") for c in test_calls)


def test_the_compiled_engine_of_an_earlier_install_is_removed(tree: Path) -> None:
    """Python imports an extension beside a module in place of its source: an extension
    built from an older engine must not outlive the build that made it."""
    left = [tree / "judge" / "engine" / "game.cpython-311-x86_64-linux-gnu.so",
            tree / "judge" / "engine" / "rule_processing" / "power.cpython-311-x86_64-linux-gnu.so",
            tree / "judge_engine__mypyc.cpython-311-x86_64-linux-gnu.so",
            tree / "judge" / "engine" / "compiled.json"]
    for path in left:
        path.write_bytes(b"old build")
    dev(tree, "main")
    assert not any(path.exists() for path in left)
    assert (tree / "judge" / "engine" / "game.py").read_text() == "X = 1\n"


def test_a_failed_install_leaves_no_stamp(tree: Path) -> None:
    python = tree / ".venv" / "bin" / "python"
    python.write_text(PYTHON + "exit 1\n")
    with pytest.raises(subprocess.CalledProcessError):
        dev(tree, "main")
    python.write_text(PYTHON)
    assert len(installs(dev(tree, "main"))) == 1
