"""The ``judge`` console script: the few things done before the command line module loads.

For ``judge check`` (issue 11: its time against the floor of starting Python and parsing the
files), two things that only the process's own entry point can do:

- the child that parses the rulings on a second CPU (:mod:`judge.preparse`) starts before click
  and :mod:`judge.cli` are imported, not after (:func:`judge.preparse.begin`), so that it works
  while this process imports them;
- once the command has said everything, the process ends without tearing the interpreter down
  (:func:`os._exit` after flushing standard output and error): freeing every object of the
  engine and the rulings one by one costs more than a tenth of what the check itself does,
  and the system frees the memory at once. ``judge check`` leaves nothing open that needs
  closing: its workers and the parsing child are ended, and the JUnit report is written and
  renamed into place before the command returns.

Every other command runs as :func:`judge.cli.main` alone would. Tests call that function (or
click's runner on :data:`judge.cli.cli`) directly, and get the same behaviour as here, less the
two speed-ups.
"""

from __future__ import annotations

import os
import sys


def main() -> None:
    argv = sys.argv[1:]
    if not argv or argv[0] != "check":
        from judge.cli import main as run

        run()
        return
    from judge import preparse

    preparse.begin(argv)
    try:
        from judge.cli import main as run

        run()
        code: object = 0
    except SystemExit as exc:
        code = exc.code
    finally:
        preparse.discard()
    _leave(code)


def _leave(code: object) -> None:
    """End the process with ``code`` as :class:`SystemExit` would (None is 0, an int is the
    status, anything else is printed and the status is 1), skipping the interpreter's
    teardown. If the output cannot be flushed (a closed pipe), the usual exit reports it."""
    if code is None:
        status = 0
    elif isinstance(code, int):
        status = code
    else:
        print(code, file=sys.stderr)
        status = 1
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except BaseException:
        raise SystemExit(status) from None
    os._exit(status)
