"""pytest plugin: every ruling file under a ``rulings`` folder becomes one item per rule set.

An item replays its ruling once (every branch) and checks the expectations against the traces
(:func:`judge.check.check_scenario`), so a failing item reports the same zone-by-zone diff as
``judge check``, not a traceback (pytest's "non-Python tests" collection example).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from judge.check import check_scenario
from judge.errors import ScenarioError
from judge.scenario.load import load_path
from judge.scenario.model import Scenario


def pytest_collect_file(parent: pytest.Collector, file_path: Path) -> pytest.Collector | None:
    if file_path.suffix == ".toml" and "rulings" in file_path.parts[:-1]:
        return RulingFile.from_parent(parent, path=file_path)
    return None


class RulingFailed(Exception):
    """A ruling's replay did not match its expectations."""


class RulingFile(pytest.File):
    def collect(self) -> Iterator[pytest.Item]:
        try:
            scenario = load_path(self.path, str(self.path.relative_to(self.config.rootpath))
                                 if self.path.is_relative_to(self.config.rootpath)
                                 else str(self.path))
        except ScenarioError as exc:
            raise self.CollectError(str(exc)) from None
        for rules in scenario.rulesets:
            yield RulingItem.from_parent(self, name=f"{scenario.id}[{rules}]",
                                         scenario=scenario, rules=rules)


class RulingItem(pytest.Item):
    def __init__(self, *, scenario: Scenario, rules: str, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.scenario = scenario
        self.rules = rules
        self.add_marker(pytest.mark.ruling)

    def runtest(self) -> None:
        result = check_scenario(self.scenario, self.rules)
        if not result.ok:
            raise RulingFailed(result.report())

    def repr_failure(self, excinfo: pytest.ExceptionInfo[BaseException],
                     style: Any = None) -> str:
        if isinstance(excinfo.value, RulingFailed):
            return str(excinfo.value)
        return str(super().repr_failure(excinfo))

    def reportinfo(self) -> tuple[Path, int, str]:
        return self.path, 0, f"ruling {self.scenario.id} under {self.rules}"


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "ruling: a ruling replayed under one rule set")
