"""Where the project's data lives. ``JUDGE_DATA`` overrides the folder beside the package."""

from __future__ import annotations

import os
from functools import cache
from pathlib import Path


@cache
def project_root() -> Path:
    return Path(__file__).resolve().parent.parent


def data_dir() -> Path:
    env = os.environ.get("JUDGE_DATA")
    return Path(env) if env else project_root() / "data"
