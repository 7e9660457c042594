"""The examples in the docstrings of the small value modules run as tests."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = ["judge.ids", "judge.errors", "judge.data", "judge.limits", "judge.tomlfile",
           "judge.engine.classes"]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0
