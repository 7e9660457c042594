"""The ``judge`` console script (pyproject.toml): a plain search answered without click.

``judge search WORDS...`` with no option (no argument starting with ``-``) runs
:func:`run_search` here, without importing click and the command line of every other command
(:mod:`judge.cli`): click and its own imports are a quarter of the CPU time of a fresh search
through click (docs/architecture.md, "What each speed mechanism buys"). Everything else (any
other command, a search with an option, ``--help``, shell completion, a terminal whose
encoding click would correct) goes to :func:`judge.cli.main`, whose ``search`` command runs
the same :func:`run_search` with the options it parsed. The output, the messages and the
exit status are the same both ways (tests/test_entry.py runs each query both ways and
compares).
"""

from __future__ import annotations

import errno
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Protocol

from judge.errors import JudgeError, ManyErrors, printable

#: How many results ``judge search`` shows unless ``--limit`` says otherwise.
SEARCH_LIMIT = 10


class Echo(Protocol):
    def __call__(self, message: str, *, err: bool = False) -> None: ...


def main() -> None:
    """``judge``: a plain search here, anything else through click (:func:`judge.cli.main`)."""
    words = plain_search(sys.argv[1:])
    if words is None:
        from judge.cli import main as full

        full()
        return
    from judge.outputs import Terminated, die_of_sigterm, stop_on_sigterm

    try:
        with stop_on_sigterm():
            sys.exit(_plain_main(words))
    except Terminated:
        die_of_sigterm()


def plain_search(args: Sequence[str]) -> tuple[str, ...] | None:
    """The query words of ``judge search WORDS...`` when click has nothing to add to it: no
    option (nothing starting with ``-``), no shell completion asked for, and standard output
    and error in UTF-8 (click re-encodes streams in ASCII). None for anything else."""
    if len(args) < 2 or args[0] != "search" or any(a.startswith("-") for a in args[1:]):
        return None
    if any(name.startswith("_") and name.endswith("_COMPLETE") for name in os.environ):
        return None
    for stream in (sys.stdout, sys.stderr):
        encoding = getattr(stream, "encoding", None) or ""
        if encoding.lower().replace("-", "").replace("_", "") != "utf8":
            return None
    return tuple(args[1:])


def _plain_main(words: tuple[str, ...]) -> int:
    """Run the plain search; the exit status, as :func:`judge.cli.main` gives it."""
    try:
        run_search(words, echo=_echo)
    except KeyboardInterrupt:  # click: a new line closing the terminal's ^C, then "Aborted!"
        _echo("", err=True)
        _echo("Aborted!", err=True)
        return 1
    except OSError as exc:
        if exc.errno != errno.EPIPE:
            return failure(exc, _echo)
        # the reader went away: nothing more is written, not even at exit (as click does)
        quiet = os.open(os.devnull, os.O_WRONLY)
        for stream in (sys.stdout, sys.stderr):
            try:
                os.dup2(quiet, stream.fileno())
            except (OSError, ValueError):
                pass
        return 1
    except JudgeError as exc:
        return failure(exc, _echo)
    return 0


def _echo(message: str, *, err: bool = False) -> None:
    """``click.echo`` for a text: the message and a new line, flushed, without ANSI styles
    when the stream is not a terminal."""
    stream = sys.stderr if err else sys.stdout
    text = message + "\n"
    if "\x1b" in text and not stream.isatty():
        import re

        text = re.sub(r"\033\[[;?0-9]*[a-zA-Z]", "", text)  # click's own pattern
    stream.write(text)
    stream.flush()


def failure(exc: JudgeError | OSError, echo: Echo) -> int:
    """Report an error the command could not get past, one line each: the exit status (2)."""
    if isinstance(exc, ManyErrors):
        for error in exc.errors:
            echo(f"Error: {error}", err=True)
    elif isinstance(exc, JudgeError):
        echo(f"Error: {exc}", err=True)
    else:  # what the system refused (a full disk, a path it cannot take)
        where = f"{printable(os.fsdecode(exc.filename))}: " if exc.filename else ""
        echo(f"Error: {where}{exc.strerror or exc}", err=True)
    return 2


def run_search(query: tuple[str, ...], *, echo: Echo, lang: str | None = None,
               tags: tuple[str, ...] = (), rules: str | None = None, term: str | None = None,
               kind: str | None = None, official: bool = False, limit: int = SEARCH_LIMIT,
               as_json: bool = False, index_dir: Path | None = None, rebuild: bool = False,
               force: bool = False, corpus_dir: Path | None = None) -> None:
    """``judge search``: the options are those of the click command (``judge search
    --help``), whose defaults these are."""
    from judge.paths import project_root
    from judge.search.engine import search
    from judge.search.output import dumps, iter_lines, sanitize

    # the corpus root as judge.cli finds it, without importing the corpus loader
    here = Path.cwd()
    root = (corpus_dir or (here if (here / "rulings").is_dir() else project_root())).resolve()
    result = search(" ".join(query), root=root, folder=index_dir, lang=lang, tags=tags,
                    rules=rules, term=term, kind=kind, limit=limit, rebuild=rebuild,
                    official=official, force=force)
    if result.rebuilt:
        echo(f"search index rebuilt ({sanitize(result.rebuilt)})", err=True)
    if as_json:
        echo(dumps(result))
        return
    color = sys.stdout.isatty() and not os.environ.get("NO_COLOR")
    echo("\n".join(iter_lines(result, color=color)))
