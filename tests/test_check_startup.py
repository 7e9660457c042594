"""What ``judge check`` does before and beside the replays, kept cheap (benchmarks/check.py).

``judge check`` imports neither the site builder, the database, the search index nor their
libraries; ``import judge.cli`` alone loads no engine; a ruling's line numbers are looked up
when a report needs them, and they are the ones the file has.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from judge.scenario.load import load_text
from judge.scenario.locate import LineIndex
from judge.skeleton import skeleton

#: Modules that ``judge check`` has no use for.
NOT_FOR_CHECK = ("judge.site", "judge.search", "judge.db", "judge.narrate", "judge.coverage",
                 "judge.i18n", "judge.skeleton", "judge.corpus", "jinja2", "babel",
                 "sqlite_utils", "markdown", "whoosh", "xml", "tempfile")


def _modules_after(args: list[str], prefixes: tuple[str, ...], cwd: Path) -> list[str]:
    """The modules of ``prefixes`` loaded when ``judge ARGS`` ends (in a fresh process)."""
    code = ("import atexit, sys\n"
            f"atexit.register(lambda: print(sorted(m for m in sys.modules "
            f"if m.startswith({prefixes!r})), file=sys.stderr))\n"
            f"sys.argv = ['judge', *{args!r}]\n"
            "from judge.cli import main\n"
            "main()\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, cwd=cwd)
    assert "Traceback" not in done.stderr, done.stderr
    return eval(done.stderr.strip().splitlines()[-1])  # type: ignore[no-any-return]


def test_judge_check_imports_nothing_of_the_site_the_database_or_the_search(
        tmp_path: Path) -> None:
    rulings = tmp_path / "rulings"
    rulings.mkdir()
    (rulings / "one-ruling.toml").write_text(skeleton("one-ruling"), encoding="utf-8")
    assert _modules_after(["check", "rulings"], NOT_FOR_CHECK, tmp_path) == []


def test_judge_check_in_one_process_does_not_import_pickle(tmp_path: Path) -> None:
    """Only the worker processes of ``--jobs 2`` and more talk through pickles."""
    rulings = tmp_path / "rulings"
    rulings.mkdir()
    (rulings / "one-ruling.toml").write_text(skeleton("one-ruling"), encoding="utf-8")
    assert _modules_after(["check", "--jobs", "1", "rulings"], ("pickle",), tmp_path) == []


def test_importing_the_command_line_loads_no_engine_and_no_loader(tmp_path: Path) -> None:
    code = ("import sys, judge.cli; print(sorted(m for m in sys.modules if m.startswith("
            "('judge.engine', 'judge.scenario', 'judge.check', 'judge.corpus', 'judge.data', "
            "'tomllib', 'tomli'))))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60, cwd=tmp_path, check=True)
    assert done.stdout.strip() == "[]"


def _line_of(text: str, start: str, nth: int = 0) -> int:
    return [i for i, row in enumerate(text.splitlines(), 1) if row.startswith(start)][nth]


def test_the_lines_of_a_ruling_are_found_when_a_report_asks_for_them() -> None:
    text = skeleton("lines-of-a-ruling").replace(
        "[[expect]]", '[[steps]]\naction = "advance"\nto = "end"\n\n[[expect]]', 1)
    scenario = load_text(text, "lines.toml")
    assert scenario.lines is not None
    assert scenario.lines._text is not None  # a ruling that loads is not scanned for lines
    assert [s.line for s in scenario.steps] == [_line_of(text, "[[steps]]", 0),
                                                _line_of(text, "[[steps]]", 1)]
    assert [e.line for e in scenario.expectations] == [_line_of(text, "[[expect]]")]
    assert scenario.id_line == _line_of(text, "id =")
    assert scenario.related_line == _line_of(text, "related =")
    assert scenario.lines._text is None  # scanned once, on the first question


def test_a_ruling_without_related_points_at_line_one() -> None:
    lines = LineIndex('id = "x"\n\n[setup]\nturn = 1\n')
    assert (lines.line("related"), lines.line("id"), lines.line("setup.turn")) == (1, 1, 4)
    assert lines.line("setup.p1.deck") == 3  # the nearest enclosing field


def test_a_run_resolves_each_folder_once_and_finds_the_same_paths(tmp_path: Path) -> None:
    """judge.scenario.file._resolve gives what Path.resolve gives: through a folder that is a
    symbolic link, for a file that is one, and for a path with ``..`` in it."""
    from judge.scenario.file import _resolve

    real = tmp_path / "real" / "rulings" / "topic"
    real.mkdir(parents=True)
    (real / "a.toml").write_text("", encoding="utf-8")
    (tmp_path / "elsewhere.toml").write_text("", encoding="utf-8")
    (real / "link.toml").symlink_to(tmp_path / "elsewhere.toml")
    (tmp_path / "alias").symlink_to(tmp_path / "real")
    folders: dict[Path, Path] = {}
    for path in (tmp_path / "alias" / "rulings" / "topic" / "a.toml",
                 tmp_path / "alias" / "rulings" / "topic" / "link.toml",
                 tmp_path / "alias" / "rulings" / ".." / "rulings" / "topic" / "a.toml",
                 real / "a.toml", real / "missing.toml"):
        assert _resolve(path, folders) == path.resolve()
    assert folders[tmp_path / "alias" / "rulings" / "topic"] == real.resolve()
