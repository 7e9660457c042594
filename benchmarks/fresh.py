"""The environment of a fresh Python process timed by the benchmarks (check.py, search.py).

``code`` (a copy of the project) comes first on the path, and the current folder never does
(``PYTHONSAFEPATH``: ``python -c`` run inside this tree must not import this tree's ``judge``
instead of the copy being timed). Modules are compiled at every start (``cache`` None, as
with ``PYTHONDONTWRITEBYTECODE=1`` and no ``__pycache__``) or their bytecode is cached under
``cache``, so both ways a judge may run the tool are measured.
"""

from __future__ import annotations

import os
from pathlib import Path


def fresh_env(code: Path, cache: Path | None) -> dict[str, str]:
    env = dict(os.environ, PYTHONPATH=str(code), PYTHONSAFEPATH="1")
    if cache is None:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
        env.pop("PYTHONPYCACHEPREFIX", None)
    else:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(cache)
    return env
