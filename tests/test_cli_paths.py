"""No traceback anywhere (issue 25): every path option and argument of every command, given
a bad path, ends in one ``Error: ...`` line or click's usage error, with exit status 1 or 2.

The commands and their path parameters are read from the click group itself, so that a new
command or option is walked too (a new command must say here how it is run at all:
:data:`BASE`). The bad paths: under a missing folder, under /proc, under /sys (which nobody,
root included, may write into), below a regular file, a name of 300 characters, a folder where
a file is wanted and a file where a folder is wanted. A missing parent folder of an output is
made (``judge db`` writes build/judge.db into a fresh corpus): that run must succeed and write
there; of an input it is a usage error.

Each run goes through :func:`judge.cli.main` in this process (``judge serve`` stops as soon
as it would start serving).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from conftest import FX_CORPUS, MILL

import judge.site.serve
from judge.cli import cli, main

#: How each command is run besides the parameter under test: its required arguments, and
#: the fixture corpus (small) where it reads one.
BASE: dict[str, list[str]] = {
    "check": ["rulings"],
    "replay": [f"rulings/refresh/{MILL}.toml"],
    "new": ["walk-test"],
    "db": ["--corpus", "."],
    "search": ["refresh", "--corpus", "."],
    "coverage": ["--corpus", "."],
    "build": ["--no-search", "--corpus", "."],
    "serve": ["--no-search", "--port", "0", "--corpus", "."],
    "i18n-status": ["--corpus", "."],
    "migrate": ["--check"],
    "quiz": ["--json", "--count", "1", "--corpus", "."],
    # the part is built by the test first (judge build --shard 1/1)
    "merge-site": ["part", "--no-search", "--corpus", "."],
}
NAME = "walk-output"


def path_params() -> Iterator[tuple[str, click.Parameter]]:
    for name, command in sorted(cli.commands.items()):
        for param in command.params:
            if isinstance(param.type, click.Path):
                yield name, param


PARAMS = list(path_params())


def bad_paths(root: Path, param: click.Parameter) -> dict[str, Path]:
    assert isinstance(param.type, click.Path)
    afile = root / "a-file.txt"
    afolder = root / "a-folder"
    cases = {
        "under /proc": Path("/proc") / "judge-no-such" / NAME,
        "/proc itself": Path("/proc") / NAME,
        "under /sys": Path("/sys") / NAME,
        "under a folder of /sys": Path("/sys") / "judge-no-such" / NAME,
        "below a file": afile / NAME,
        "a name of 300 characters": root / ("x" * 300),
        "a folder of 300 characters": root / ("y" * 300) / NAME,
    }
    if not param.type.dir_okay:
        cases["a folder where a file is wanted"] = afolder
    if not param.type.file_okay:
        cases["a file where a folder is wanted"] = afile
    return cases


def argv(command: str, param: click.Parameter, value: Path) -> list[str]:
    base = list(BASE[command])
    if isinstance(param, click.Argument):
        # the argument under test takes the place of the base one
        if command in ("check", "replay", "merge-site"):
            base = base[1:]
        return [command, str(value), *base]
    assert param.opts[0].startswith("--")
    if param.opts[0] in base:
        at = base.index(param.opts[0])
        base[at + 1] = str(value)
        return [command, *base]
    return [command, *base, param.opts[0], str(value)]


@pytest.fixture
def workspace(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture corpus (the current folder), a file and an empty folder."""
    root = tmp_path / "corpus"
    shutil.copytree(FX_CORPUS, root)
    (root / "a-file.txt").write_text("a file", encoding="utf-8")
    (root / "a-folder").mkdir()
    monkeypatch.chdir(root)

    def no_watch(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt  # Ctrl-C: judge serve stops at once

    monkeypatch.setattr(judge.site.serve, "watch", no_watch)
    return root


def run(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, str, str]:
    saved = sys.argv
    sys.argv = ["judge", *args]
    try:
        main()
        code = 0
    except SystemExit as exc:
        code = exc.code if isinstance(exc.code, int) else 1
    except BaseException as exc:
        out, err = capsys.readouterr()
        pytest.fail(f"judge {' '.join(args)}: {exc!r} escaped (a traceback)\n{out}{err}")
    finally:
        sys.argv = saved
    out, err = capsys.readouterr()
    return code, out, err


def test_every_command_with_path_parameters_is_known() -> None:
    commands = {name for name, _ in PARAMS}
    assert commands <= set(BASE), f"say how to run {sorted(commands - set(BASE))} in BASE"
    # the outputs, so that a new one is noticed (each has its own tests in test_outputs.py)
    outputs = sorted(f"{name} {p.opts[0]}" for name, p in PARAMS
                     if isinstance(p.type, click.Path) and not p.type.exists
                     and p.opts[0] != "--corpus")
    assert outputs == ["build --out", "check --junit", "db --out", "merge-site --out",
                       "new --dir", "search --index", "serve --out"]


@pytest.mark.parametrize(("command", "param"), PARAMS,
                         ids=[f"{c} {p.name}" for c, p in PARAMS])
def test_bad_paths_end_in_one_error_line(command: str, param: click.Parameter,
                                         workspace: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert isinstance(param.type, click.Path)
    if command == "merge-site":  # the one part of a site in one part
        code, out, err = run(["build", "--shard", "1/1", "--out", "part", "--corpus", "."],
                             capsys)
        assert code == 0, err
    before = sorted(os.listdir(workspace))
    for case, value in bad_paths(workspace, param).items():
        args = argv(command, param, value)
        code, out, err = run(args, capsys)
        assert "Traceback" not in out + err, (case, args, err)
        assert code in (1, 2), (case, args, code, out, err)
        lines = err.strip().splitlines()
        if "Usage:" in err:  # click's usage error: its own lines, the last one Error:
            assert code == 2 and lines[-1].startswith("Error: "), (case, args, err)
        else:
            assert len(lines) == 1 and lines[0].startswith("Error: "), (case, args, err)
            assert len(lines[0]) < 1000, (case, lines[0])
        assert sorted(os.listdir(workspace)) == before, (case, args)
    # a missing parent folder: an output is written there, an input is a usage error
    missing = workspace / "missing" / "deeper" / NAME
    code, out, err = run(argv(command, param, missing), capsys)
    assert "Traceback" not in out + err
    if param.type.exists:
        assert code == 2 and "Usage:" in err, (command, param.name, err)
    else:
        assert code == 0, (command, param.name, out, err)
        assert missing.exists()
