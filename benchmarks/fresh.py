"""The environment of a fresh Python process timed by the benchmarks (check.py, search.py), and
the command that counts its instructions (check.py, games.py).

``code`` (a copy of the project) comes first on the path, and the current folder never does
(``PYTHONSAFEPATH``: ``python -c`` run inside this tree must not import this tree's ``judge``
instead of the copy being timed). Modules are compiled at every start (``cache`` None, as
with ``PYTHONDONTWRITEBYTECODE=1`` and no ``__pycache__``) or their bytecode is cached under
``cache``, so both ways a judge may run the tool are measured.
"""

from __future__ import annotations

import os
import re
import shutil
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


def cachegrind(command: list[str], children: bool = False) -> list[str] | None:
    """``command`` under valgrind's cachegrind, counting instructions only (``children``: the
    processes it forks too); None when valgrind is not installed. Read the counts from the
    run's standard error with :func:`instruction_counts`."""
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        return None
    return [valgrind, "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
            *(["--trace-children=yes"] if children else []), *command]


def instruction_counts(stderr: str) -> list[int]:
    """The instructions ("I refs") of each process a :func:`cachegrind` run reported."""
    return [int(m.group(1).replace(",", "")) for m in re.finditer(r"I\s+refs:\s+([\d,]+)", stderr)]
