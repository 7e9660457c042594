"""Docs that match the code (issue 27): the reason-code, event-reason and choice-kind tables
are made from the engine's declarations (judge/docs_tables.py); each code is documented once,
with every case it covers."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from judge.docs_tables import REASON_CASES, TABLES, stale
from judge.engine.actions import ILLEGAL_REASONS
from judge.engine.choices import CHOICE_ANSWERS, CHOICE_KINDS
from judge.engine.events import EVENT_KINDS, REASONS
from judge.paths import project_root

ROOT = project_root()
ENGINE = ROOT / "judge" / "engine"


def test_the_generated_tables_are_current() -> None:
    assert stale(ROOT) == [], "run python -m judge.docs_tables"


def _block(name: str) -> str:
    file, _ = TABLES[name]
    text = (ROOT / file).read_text(encoding="utf-8")
    found = re.search(rf"<!-- generated: {name} .*?-->\n(.*?)<!-- end of generated", text, re.S)
    assert found is not None, name
    return found.group(1)


def _headers(head: str) -> list[str]:
    """The docs pages with a table whose header begins with ``head``."""
    return [f"{p.name}" for p in sorted((ROOT / "docs").glob("*.md"))
            for line in p.read_text(encoding="utf-8").splitlines() if line.startswith(head)]


@pytest.mark.parametrize("name,codes,head", [
    ("reason-codes", list(ILLEGAL_REASONS), "| code | the action is refused"),
    ("choice-kinds", list(CHOICE_KINDS), "| kind | the player picks"),
    ("event-reasons", list(REASONS), "| reason | means"),
])
def test_each_code_is_documented_once(name: str, codes: list[str], head: str) -> None:
    """One table per kind of code in the docs (the one made from the code: the duplicate
    rows of pay and cut_in, the second table of refusal codes are gone), one row per code."""
    assert len(_headers(head)) == 1, _headers(head)
    rows = [line.split("|")[1].strip() for line in _block(name).splitlines()[2:]]
    assert rows == [f"`{code}`" for code in codes]


def test_every_choice_kind_says_its_answers() -> None:
    assert list(CHOICE_ANSWERS) == list(CHOICE_KINDS)


def test_cannot_remove_covers_the_seed_too() -> None:
    row = next(line for line in _block("reason-codes").splitlines()
               if line.startswith("| `cannot-remove` |"))
    assert "Resona" in row and "Seed" in row


def _calls() -> list[tuple[str, int, ast.Call]]:
    out = []
    for path in sorted(ENGINE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Call):
                out.append((str(path.relative_to(ROOT)), node.lineno, node))
    return out


def _strings(node: ast.AST) -> list[str]:
    return [n.value for n in ast.walk(node) if isinstance(n, ast.Constant)
            and isinstance(n.value, str)]


def test_the_refusal_codes_are_those_the_engine_raises() -> None:
    raised: set[str] = set()
    for _, _, call in _calls():
        if isinstance(call.func, ast.Name) and call.func.id == "IllegalAction" and call.args:
            raised.update(_strings(call.args[0]))
    assert raised == set(ILLEGAL_REASONS)


def test_each_reason_is_listed_with_every_event_that_carries_it() -> None:
    """Every ``emit(ev.KIND, ..., reason="code")`` of the engine is a case of that code in
    REASON_CASES (codes passed through a variable are checked by the rulings' events)."""
    kinds = {cls.__name__: kind for kind, cls in EVENT_KINDS.items()}
    assert set(REASON_CASES) == set(REASONS)
    missing = []
    for where, line, call in _calls():
        if not (isinstance(call.func, ast.Attribute) and call.func.attr == "emit" and
                call.args):
            continue
        first = call.args[0]
        name = first.attr if isinstance(first, ast.Attribute) else \
            first.id if isinstance(first, ast.Name) else ""
        for keyword in call.keywords:
            if keyword.arg != "reason":
                continue
            for code in _strings(keyword.value):
                if code not in REASONS:
                    continue  # a prefix built into a code (left-...)
                if kinds.get(name) not in REASON_CASES[code][0]:
                    missing.append(f"{where}:{line}: {code} carried by {kinds.get(name)}")
    assert missing == []


def test_the_events_carrying_each_reason_are_event_kinds() -> None:
    for code, (events, when) in REASON_CASES.items():
        assert events and all(e in EVENT_KINDS for e in events), code
        assert when.strip(), code


@pytest.mark.parametrize("name", list(TABLES))
def test_each_table_has_its_markers_once(name: str) -> None:
    file, _ = TABLES[name]
    text = Path(ROOT / file).read_text(encoding="utf-8")
    assert text.count(f"<!-- generated: {name} ") == 1
    assert text.count(f"<!-- end of generated: {name} -->") == 1
