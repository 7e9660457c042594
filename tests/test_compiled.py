"""The compiled engine (setup.py, judge/compiled.py): it runs where it was built, it
does exactly what the source does, and an engine edited since its build runs as edited.

CI builds the compiled engine (``./dev test`` installs the project, which compiles it), so
there these tests run it; elsewhere a test that needs it skips, saying why (no C compiler,
or ``JUDGE_PURE_PYTHON`` set at the build).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest

import judge
from judge import compiled

ROOT = Path(judge.__file__).resolve().parent.parent
ENGINE = ROOT / "judge" / "engine"

#: Prints which build runs and a digest of what it does: every ruling's replays under every
#: rule set it names (their JSON form) and 120 random games (events and actions).
DIGEST = """
import hashlib, json
from judge.corpus import load_corpus
from judge.data import load_rulesets
from judge.compiled import running
from judge.engine.driver import play_random_game
replays, games = hashlib.sha256(), hashlib.sha256()
count = 0
for ruling in load_corpus().rulings:
    for rep in ruling.replays.values():
        replays.update(json.dumps(rep.to_dict(), sort_keys=True).encode())
        count += 1
for rules in load_rulesets().values():
    for seed in range(30):
        played = play_random_game(rules, seed, turns=12)
        games.update(repr((played.game.log, played.actions)).encode())
print(json.dumps([running(), count, replays.hexdigest(), games.hexdigest()]))
"""


def _run(code: str, *, pure: bool, cwd: Path = ROOT, path: Path | None = None) -> str:
    env = {k: v for k, v in os.environ.items() if k != compiled.ENV}
    if pure:
        env[compiled.ENV] = "1"
    if path is not None:
        env["PYTHONPATH"] = str(path)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=cwd, timeout=600)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip().splitlines()[-1]


def _needs_compiled() -> None:
    if compiled.running() != "compiled (mypyc)":
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the compiled engine; this runs {compiled.running()}")
        pytest.skip(f"the engine is not compiled here: {compiled.running()}")


def test_ci_runs_the_compiled_engine(tmp_path: Path) -> None:
    """What users of ./dev run, and what benchmarks/games.py measures: also from a folder
    outside the tree (the shared library beside the package is installed too)."""
    _needs_compiled()
    code = "from judge.compiled import running; print(running())"
    assert _run(code, pure=False, cwd=tmp_path) == "compiled (mypyc)"
    import judge.engine.game
    import judge.engine.rule_processing.power

    for module in (judge.engine.game, judge.engine.rule_processing.power):
        assert module.__file__ is not None and not module.__file__.endswith(".py")
    import judge.engine.events
    import judge.engine.trace

    for module in (judge.engine.events, judge.engine.trace):  # never compiled (setup.py)
        assert module.__file__ is not None and module.__file__.endswith(".py")


def test_the_compiled_engine_replays_and_plays_exactly_as_the_source() -> None:
    _needs_compiled()
    build, count, replays, games = json.loads(_run(DIGEST, pure=False))
    source, count_src, replays_src, games_src = json.loads(_run(DIGEST, pure=True))
    assert build == "compiled (mypyc)"
    assert source == f"pure Python: source ({compiled.ENV} is set)"
    assert count == count_src > 600
    assert replays == replays_src
    assert games == games_src


def test_the_environment_variable_runs_the_source() -> None:
    code = ("import judge.engine.game as g, judge.engine.mechanics.seed as s\n"
            "from judge.compiled import running\n"
            "print(running(), g.__file__.endswith('game.py'), s.__file__.endswith('seed.py'))")
    out = _run(code, pure=True)
    assert out == f"pure Python: source ({compiled.ENV} is set) True True"


def test_a_module_edited_since_the_build_makes_the_whole_engine_run_from_source(
        tmp_path: Path) -> None:
    """A copy of the built package with one source file changed: the guard sees it, and no
    module of the engine is loaded from an extension (they call each other natively, so
    none may run beside edited source)."""
    _needs_compiled()
    shutil.copytree(ROOT / "judge", tmp_path / "judge",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for lib in ROOT.glob("judge_engine__mypyc*"):
        shutil.copy2(lib, tmp_path / lib.name)
    code = ("import sys, judge.engine.game, judge.engine.modes as modes\n"
            "from judge.compiled import running\n"
            "print(running(), getattr(modes, 'EDITED', False), sorted(m for m, mod in "
            "sys.modules.items() if m.startswith('judge.engine') and not "
            "(getattr(mod, '__file__', '') or '').endswith('.py')))")
    # an extension the build did not make, beside a module it did not compile (an older
    # build's, say): never loaded (this one could not be: it is another module's)
    suffix = EXTENSION_SUFFIXES[0]
    shutil.copy2(tmp_path / "judge" / "engine" / f"game{suffix}",
                 tmp_path / "judge" / "engine" / f"trace{suffix}")
    before = _run("import judge.engine.trace\n" + code, pure=False, cwd=tmp_path,
                  path=tmp_path)
    assert before.startswith("compiled (mypyc) False ['judge.engine.")
    assert "judge.engine.trace" not in before
    modes = tmp_path / "judge" / "engine" / "modes.py"
    modes.write_text(modes.read_text(encoding="utf-8") + "\nEDITED = True\n", encoding="utf-8")
    after = _run(code, pure=False, cwd=tmp_path, path=tmp_path)
    assert after == ("pure Python: source (judge.engine.modes changed since it was compiled) "
                     "True []")


def test_the_guard_trusts_size_and_time_and_otherwise_the_hash(tmp_path: Path) -> None:
    path = ENGINE / "modes.py"
    info = path.stat()
    import hashlib

    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    name = "judge.engine.modes"
    assert compiled.stale({name: [digest, info.st_size, info.st_mtime_ns]}) == []
    assert compiled.stale({name: [digest, info.st_size + 1, 0]}) == []  # hashed: the same
    assert compiled.stale({name: ["0" * 64, info.st_size + 1, 0]}) == [name]
    assert compiled.stale({"judge.engine.gone": [digest, 1, 0]}) == ["judge.engine.gone"]


def test_the_build_records_every_compiled_module() -> None:
    """compiled.json names each module setup.py compiles: all of the engine but its start,
    the events, the traces and the modules that declare event kinds (their docstrings are the
    events' documentation, which mypyc would drop)."""
    _needs_compiled()
    stamp = json.loads(compiled.STAMP.read_text(encoding="utf-8"))
    sources = {p for p in ENGINE.rglob("*.py") if "__pycache__" not in p.parts}
    pure = {ENGINE / n for n in ("__init__.py", "events.py", "trace.py")} | {
        p for p in sources if "@event_kind(" in p.read_text(encoding="utf-8")}
    assert ENGINE / "mechanics" / "bet.py" in pure
    assert ENGINE / "game.py" not in pure
    assert {compiled.source_path(name) for name in stamp} == sources - pure
