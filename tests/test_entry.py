"""The ``judge`` console script's entry (judge/entry.py): a plain ``judge search WORDS`` answers
without click, with the output, messages and exit status of the click command."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from judge.entry import plain_search
from tests.conftest import FX_CORPUS

ROOT = Path(__file__).resolve().parent.parent


def _judge(module: str, args: list[str], cwd: Path,
           extra: str = "") -> subprocess.CompletedProcess[str]:
    """``judge ARGS`` in a fresh process, through ``module``'s ``main`` (the console script's
    entry, or judge.cli's, which parses every command line with click)."""
    code = (f"import sys\nsys.argv = ['judge', *{args!r}]\n{extra}"
            f"from {module} import main\nmain()\n")
    return subprocess.run([sys.executable, "-c", code], cwd=cwd, capture_output=True,
                          text=True, timeout=120, encoding="utf-8")


@pytest.fixture(scope="module")
def corpora(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """Two copies of the fixture corpus, neither indexed yet: one for each way in."""
    out = []
    for name in ("plain", "click"):
        root = tmp_path_factory.mktemp(name)
        shutil.copytree(FX_CORPUS / "rulings", root / "rulings")
        out.append(root)
    return out[0], out[1]


def test_the_console_script_is_the_entry() -> None:
    scripts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert scripts["project"]["scripts"]["judge"] == "judge.entry:main"


@pytest.mark.parametrize("args", [
    ["search", "refresh"],  # first: each side builds its index and says so
    ["search", "refresh", "trash"],
    ["search", "重构"],
    ["search", "リフレッシュ", "ライフクロス"],
    ["search", "refersh"],  # did you mean
    ["search", "tag:refresh", "draw"],
    ["search", "(refresh"],  # an error, exit status 2
    ["search", "refresh OR"],
    ["search", "zzzzqqqq"],  # nothing found
])
def test_a_plain_search_answers_as_the_click_command_does(corpora: tuple[Path, Path],
                                                          args: list[str]) -> None:
    plain, clicked = corpora
    assert plain_search(args) is not None
    mine = _judge("judge.entry", args, plain)
    theirs = _judge("judge.cli", args, clicked)
    assert (mine.returncode, mine.stdout, mine.stderr) == \
        (theirs.returncode, theirs.stdout, theirs.stderr)
    assert "Traceback" not in mine.stderr
    if args == ["search", "refresh"]:
        assert mine.stderr == "search index rebuilt (no index yet)\n"
        assert "refresh" in mine.stdout


@pytest.mark.parametrize("args", [
    [], ["search"], ["check"], ["--version"], ["search", "--help"], ["search", "refresh", "--json"],
    ["search", "--lang", "en", "refresh"], ["search", "refresh", "-battle"], ["search", "--", "x"],
    ["search", "refresh", "-k"], ["build"],
])
def test_anything_but_a_plain_search_goes_to_click(args: list[str]) -> None:
    assert plain_search(args) is None


def test_shell_completion_goes_to_click(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("_JUDGE_COMPLETE", "bash_source")
    assert plain_search(["search", "refresh"]) is None


def test_the_entry_passes_options_and_other_commands_to_click(corpora: tuple[Path, Path]) -> None:
    plain, _ = corpora
    done = _judge("judge.entry", ["search", "refresh", "--limit", "1", "--json"], plain)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count('"id"') == 1
    done = _judge("judge.entry", ["search", "refresh", "--limit", "0"], plain)
    assert done.returncode == 2
    assert "Invalid value for '--limit'" in done.stderr


def test_a_plain_search_imports_neither_click_nor_the_other_commands(
        corpora: tuple[Path, Path]) -> None:
    """What a fresh ``judge search refresh`` does without (docs/search.md, "Benchmark"):
    click and every command's module."""
    plain, _ = corpora
    heavy = ("click", "judge.cli", "judge.check", "judge.scenario", "judge.engine",
             "judge.corpus", "judge.site", "judge.db", "judge.narrate", "judge.coverage",
             "judge.skeleton", "jinja2", "babel", "markdown", "nh3", "tomllib", "tomli",
             # what whoosh imports for helpers the analysis never calls (judge.search.analysis)
             "urllib.request", "pickle", "html", "queue", "random", "whoosh.lang.dmetaphone",
             "dataclasses", "inspect", "threading")
    report = ("import atexit\natexit.register(lambda: print(sorted(m for m in sys.modules "
              f"if m.split('.')[0] in {heavy!r} or m.startswith({heavy!r})), "
              "file=sys.stderr))\n")
    _judge("judge.entry", ["search", "refresh"], plain)  # the index built (that loads the corpus)
    done = _judge("judge.entry", ["search", "refresh"], plain, extra=report)
    assert done.returncode == 0, done.stderr
    assert "refresh" in done.stdout
    assert done.stderr.strip().splitlines()[-1] == "[]"


def test_what_whoosh_is_spared_is_there_when_used(tmp_path: Path) -> None:
    """The names whoosh bound to the stand-ins of judge.search.analysis import the real
    modules when used, and a module imported afterwards is the real one."""
    code = ("import sys\n"
            "import judge.search.analysis\n"
            "import whoosh.compat as compat, whoosh.util as util\n"
            "assert 'pickle' not in sys.modules and 'random' not in sys.modules\n"
            "assert compat.loads(compat.dumps([1, 'a'])) == [1, 'a']\n"
            "assert compat.pickle.HIGHEST_PROTOCOL >= 5\n"
            "assert compat.htmlescape('<a>') == '&lt;a&gt;'\n"
            "assert compat.queue.Queue().empty()\n"
            "assert 0 <= util.random.random() < 1\n"
            "import whoosh.analysis.morph as morph\n"
            "assert morph.double_metaphone('Smith')[0] == 'SM0'\n"
            "assert 'whoosh.lang.dmetaphone' in sys.modules\n"
            "import pickle, html, urllib.request\n"
            "assert type(pickle.dumps) is not type(compat.dumps)\n"
            "assert urllib.request.urlretrieve.__module__ == 'urllib.request'\n"
            "print(judge.search.analysis.query_tokens('refreshes'))\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "['refresh']\n"


def test_a_reader_gone_ends_a_plain_search_as_it_ends_the_click_command(
        corpora: tuple[Path, Path]) -> None:
    """The output's reader closed before the results come: no error, exit status 1, as click
    has it."""
    got = []
    for module, root in zip(("judge.entry", "judge.cli"), corpora, strict=True):
        code = ("import sys\nsys.argv = ['judge', 'search', 'refresh']\n"
                f"from {module} import main\nmain()\n")
        proc = subprocess.Popen([sys.executable, "-c", code], cwd=root, text=True,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.close()  # long before the search has anything to write
        got.append((proc.wait(timeout=120), proc.stderr.read()))
        proc.stderr.close()
    assert got[0] == got[1]
    status, messages = got[0]  # (the index's rebuild is reported on standard error first)
    assert status == 1 and "Error" not in messages and "Traceback" not in messages
