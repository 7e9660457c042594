"""The ``judge`` command line. Domain errors become ``Error: ...`` here and only here.

Each command imports what it needs when it runs, so that one command does not pay for the
others' modules: ``judge search`` in a fresh process imports neither the rules engine, the
scenario loader, the checker nor the site (a test checks it; docs/search.md has the figures).
Only click and the light ``judge.errors``, ``judge.paths`` and ``judge.outputs`` are imported
here.
``judge check`` loads the engine and the ruling loader, never the site builder, the database
or the search index.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import click

from judge.entry import SEARCH_LIMIT, failure
from judge.errors import FormatWarning, JudgeError, ScenarioError, printable
from judge.outputs import Terminated, die_of_sigterm, stop_on_sigterm
from judge.paths import default_rulings

if TYPE_CHECKING:
    from judge.check import Result


def _force_option(what: str) -> Callable[[Callable[..., None]], Callable[..., None]]:
    return click.option(
        "--force", is_flag=True,
        help=f"Replace {what} even when this tool did not write it (never a FIFO or device, "
             "a folder holding .git, or the rulings being read; docs/cli.md).")


@click.group()
@click.version_option(package_name="wixoss-judge")
def cli() -> None:
    """wixoss-judge: WIXOSS rulings as scenarios that a rules engine replays."""


@cli.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, path_type=Path))
@click.option("--rules", "rules", metavar="SET", help="Only replay under this rule set.")
@click.option("-k", "keyword", metavar="TEXT",
              help="Only rulings whose id, rule set or path contains TEXT.")
@click.option("--junit", "junit", type=click.Path(dir_okay=False, path_type=Path),
              help="Also write a JUnit XML report to FILE.")
@_force_option("the --junit FILE")
@click.option("-v", "--verbose", is_flag=True, help="Print a line for every passing check.")
@click.option("-j", "--jobs", "jobs", type=click.IntRange(min=1), metavar="N",
              help="Load and replay in N processes (default: one per CPU, fewer for a few "
                   "files; the output is the same).")
def check(paths: tuple[Path, ...], rules: str | None, keyword: str | None,
          junit: Path | None, force: bool, verbose: bool, jobs: int | None) -> None:
    """Replay every ruling under every rule set it names and compare the results.

    Each failure prints the file, ruling id, rule set and a zone-by-zone diff. The last line
    is "N passed, N failed". Exit status: 0 all passed, 1 failures, 2 unusable files.
    """
    targets = list(paths) or default_rulings()
    if junit is not None:  # before anything runs: a report that may not be written fails now
        from judge.check import claim_report

        claim_report(junit, targets, force)
    _check(targets, rules, keyword, junit, force, verbose, jobs)


def _check(targets: list[Path], rules: str | None, keyword: str | None, junit: Path | None,
           force: bool, verbose: bool, jobs: int | None) -> None:
    from judge.check import Summary, iter_checks, run_checks, write_junit
    from judge.data import load_rulesets

    known = load_rulesets()
    if rules is not None and rules not in known:
        raise click.UsageError(f"unknown rule set {rules!r} (valid: {', '.join(known)})")
    if junit is None and not verbose:
        # stream: print each problem as soon as it is found
        summary = Summary()
        for item in iter_checks(targets, rules, keyword, summary, jobs):
            if isinstance(item, ScenarioError):
                summary.errors.append(item)
                click.echo(f"Error: {item}")
            elif isinstance(item, FormatWarning):
                click.echo(f"Warning: {item}")
            else:
                summary.results.append(item)
                if not item.ok:
                    click.echo(item.report())
    else:
        summary = run_checks(targets, rules, keyword, jobs)
        for warning in summary.warnings:
            click.echo(f"Warning: {warning}")
        for error in summary.errors:
            click.echo(f"Error: {error}")
        for result in summary.results:
            _show(result, verbose)
        if junit is not None:
            write_junit(summary, junit, targets, force)
    click.echo(summary.last_line())
    sys.exit(summary.exit_code)


def _show(result: Result, verbose: bool) -> None:
    if not result.ok:
        click.echo(result.report())
    elif verbose:
        notes = f" ({'; '.join(result.notes)})" if result.notes else ""
        click.echo(f"ok   {result.path}: {result.ruling} under {result.rules}{notes}")


@cli.command()
@click.argument("file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--rules", "rules", metavar="SET", help="Rule set (default: the ruling's last).")
@click.option("--json", "as_json", is_flag=True,
              help="Print the trace as JSON: events, positions, choices, problems.")
def replay(file: Path, rules: str | None, as_json: bool) -> None:
    """Print a ruling's event trace, step by step, under one rule set.

    Unscripted choices take their first answer here; "judge check" explores every branch.
    """
    from judge.scenario.load import load_path
    from judge.scenario.run import replay as replay_scenario

    scenario = load_path(file)
    chosen = rules or scenario.rulesets[-1]
    if chosen not in scenario.rulesets:
        raise JudgeError(f"{scenario.id} does not name rule set {chosen!r} "
                         f"(valid: {', '.join(scenario.rulesets)})")
    run = replay_scenario(scenario, chosen, explore=False).first
    if as_json:
        import json

        click.echo(json.dumps(run.to_dict(), ensure_ascii=False, sort_keys=True, indent=1))
        return
    click.echo(f"{scenario.id} under {chosen}")
    step = -1
    for event in run.events:
        if event.step != step:
            step = event.step
            title = "set-up" if step == 0 else \
                f"step {step}: {scenario.steps[step - 1].action}"
            click.echo(f"-- {title}")
        click.echo(f"   {event}")
    for problem in run.problems:
        click.echo(f"!! {problem}")
    if run.unscripted:
        click.echo(f"note: {run.unscripted} unscripted choice(s) took their first answer")


@cli.command()
@click.argument("ruling_id")
@click.option("--dir", "folder", type=click.Path(file_okay=False, path_type=Path),
              default=Path("rulings"), show_default=True, help="Folder to write into.")
def new(ruling_id: str, folder: Path) -> None:
    """Write a skeleton ruling RULING_ID.toml with every field present and explained."""
    from judge.ids import ID_RULE, is_id, quote

    if not is_id(ruling_id):
        raise JudgeError(f"{quote(ruling_id)} is not a ruling id ({ID_RULE}), e.g. "
                         "refresh-during-effect")
    target = folder / f"{ruling_id}.toml"
    if os.path.lexists(target):  # a link too, even one that leads nowhere
        raise JudgeError(f"{printable(str(target))} already exists")
    from judge.outputs import Kind, claim, write_file
    from judge.skeleton import skeleton

    ruling = Kind("write the ruling to", folder=False, foreign=lambda path: "it exists")
    write_file(claim(target, ruling), skeleton(ruling_id).encode("utf-8"))
    click.echo(f"wrote {target}")


@cli.command()
@click.argument("paths", nargs=-1, required=True,
                type=click.Path(exists=True, path_type=Path))
@click.option("--check", "dry", is_flag=True,
              help="Write nothing: list what would change, and exit with 1 when something "
                   "would (for CI).")
@_force_option("a sources file that is not one")
def migrate(paths: tuple[Path, ...], dry: bool, force: bool) -> None:
    """Upgrade ruling and card files to the current format, keeping their comments, key
    order and layout.

    Each change is one line with its file and line; "undecided:" lines name what a human (or
    a replay) must decide. Old [[sources]] tables move into the sources file beside the
    rulings/ folder (data/sources.toml for the project's own) and are cited. A second run
    changes nothing. Exit status: 0 done, 1 with --check when a file would change, 2
    unreadable files.
    """
    from judge.migrate import migrate as run_migration
    from judge.migrate import write

    run = run_migration(paths)
    for error in run.errors:
        click.echo(f"Error: {error}")
    for item in run.files:
        for line in item.report():
            click.echo(line)
    changed = [f for f in run.files if f.changed]
    sources = [r for r in run.registries.values() if r.added and r.path is not None]
    if not dry:
        try:
            write(run, force)
        except JudgeError as exc:  # a write refused: nothing was written
            click.echo(f"Error: {exc}")
            sys.exit(2)
    verb = "would change" if dry else "changed"
    tail = f"; {len(sources)} sources file{'s' if len(sources) != 1 else ''} " \
           f"{'would get' if dry else 'got'} new documents" if sources else ""
    click.echo(f"{len(changed)} of {len(run.files)} files {verb}{tail}; "
               f"{run.undecided} item{'s' if run.undecided != 1 else ''} undecided")
    if run.errors:
        sys.exit(2)
    if dry and (changed or sources):
        sys.exit(1)


@cli.command()
@click.option("--random", "random_", is_flag=True, required=True,
              help="Both players take random legal actions (the only mode so far).")
@click.option("--seed", type=int, default=0, show_default=True, help="Random seed.")
@click.option("--turns", type=click.IntRange(1), default=10, show_default=True,
              help="Stop after this many turns if nobody has won.")
@click.option("--rules", "rules", metavar="SET", default="current", show_default=True,
              help="Rule set to play under.")
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON lines.")
def play(random_: bool, seed: int, turns: int, rules: str, as_json: bool) -> None:
    """Play a whole random game from generated legal decks and print what happened.

    The same seed always gives the same game. The last line says who won and how, or that
    the turn limit was reached.
    """
    from judge.data import load_rulesets
    from judge.engine.driver import play_random_game

    known = load_rulesets()
    if rules not in known:
        raise click.UsageError(f"unknown rule set {rules!r} (valid: {', '.join(known)})")
    rg = play_random_game(known[rules], seed, turns=turns)
    game = rg.game
    if as_json:
        for event in game.log:
            click.echo(event.to_json())
    else:
        for event in game.log:
            click.echo(str(event))
    state = game.state
    outcome = f"{state.winner} won ({state.win_reason})" if state.winner else \
        f"no winner after {turns} turns"
    click.echo(f"{outcome}; {len(rg.actions)} actions, {len(game.log)} events, seed {seed}, "
               f"rules {rules}", err=as_json)


# ---------------------------------------------------------------------- data and search


_CORPUS_OPTION = click.option(
    "--corpus", "corpus_dir", type=click.Path(exists=True, file_okay=False, path_type=Path),
    help="A folder holding rulings/ (default: the current folder if it has one, else the "
         "project).")


def _corpus_root(corpus_dir: Path | None) -> Path:
    from judge.corpus import default_root

    return (corpus_dir or default_root()).resolve()


@cli.command("db")
@click.option("--out", type=click.Path(dir_okay=False, path_type=Path),
              help="Database file to write (default: build/judge.db under the corpus root).")
@_force_option("the --out FILE")
@_CORPUS_OPTION
def db_command(out: Path | None, force: bool, corpus_dir: Path | None) -> None:
    """Build the SQLite database of the corpus: rulings, texts, sources, tags, glossary terms,
    cards, rule sets and every replayed event.

    The file is written beside the target and renamed into place when complete, and the same
    corpus always gives the same bytes. Tables and example queries: docs/database.md.
    """
    from judge.corpus import load_corpus
    from judge.db import build, claim_out

    root = _corpus_root(corpus_dir)
    target = out or root / "build" / "judge.db"
    claim_out(target, root, force)  # before the corpus is read: a refusal comes at once
    # streamed: one ruling and its traces held at a time (judge/corpus.py, Streamed)
    summary = build(load_corpus(root, stream=True), target, force)
    click.echo(summary.line())


@cli.command("search")
@click.argument("query", nargs=-1)
@click.option("--lang", type=click.Choice(["ja", "en", "zh-Hans"]),
              help="Language of the titles and answers shown (default: guessed from the query).")
@click.option("--tag", "tags", multiple=True, metavar="T", help="Only rulings with this tag.")
@click.option("--rules", metavar="SET", help="Only rulings that hold under this rule set.")
@click.option("--term", metavar="T", help="Only rulings listing this glossary term.")
@click.option("--kind", type=click.Choice(["ruling", "term", "processing", "change"]),
              help="Only results of this kind (default: all four).")
@click.option("--official", is_flag=True,
              help="Only rulings that rest on official text (at least one official or "
                   "officially quoted source).")
@click.option("--limit", type=click.IntRange(1), default=SEARCH_LIMIT, show_default=True,
              help="Show at most N results.")
@click.option("--json", "as_json", is_flag=True, help="Print the results as JSON.")
@click.option("--index", "index_dir", type=click.Path(file_okay=False, path_type=Path),
              help="Index folder (default: build/search under the corpus root).")
@click.option("--rebuild", is_flag=True, help="Rebuild the index first.")
@_force_option("the --index DIR")
@_CORPUS_OPTION
def search_command(query: tuple[str, ...], lang: str | None, tags: tuple[str, ...],
                   rules: str | None, term: str | None, kind: str | None, official: bool,
                   limit: int, as_json: bool, index_dir: Path | None, rebuild: bool,
                   force: bool, corpus_dir: Path | None) -> None:
    """Search the rulings, glossary terms, kinds of rule processing and rule changes in
    Japanese, English or Chinese: QUERY is words or a question, "phrases", AND/OR/NOT,
    (groups) and tag:, rules:, term:, kind:, id:, basis: filters.

    Results holding more of the words rank first; glossary names and aliases are searched in
    all three languages; width, case and kana, British and American spellings and small
    typos do not matter. Each result shows its answer with the matches marked (bold on a
    terminal, **so** otherwise). The index (build/search) is rebuilt whenever the corpus
    changed. Syntax, ranking and examples: docs/search.md.
    """
    from judge.entry import run_search

    run_search(query, echo=click.echo, lang=lang, tags=tags, rules=rules, term=term, kind=kind,
               official=official, limit=limit, as_json=as_json, index_dir=index_dir,
               rebuild=rebuild, force=force, corpus_dir=corpus_dir)


@cli.command("coverage")
@click.option("--json", "as_json", is_flag=True, help="Print the table as JSON.")
@_CORPUS_OPTION
def coverage_command(as_json: bool, corpus_dir: Path | None) -> None:
    """Show how many rulings exercise each kind of rule processing, phase, attack step, rule
    set and glossary term, read from the replayed events, and which have none.
    """
    from judge.corpus import load_corpus
    from judge.coverage import compute, report_lines

    cov = compute(load_corpus(_corpus_root(corpus_dir)))
    if as_json:
        click.echo(cov.to_json())
        return
    for line in report_lines(cov):
        click.echo(line)


@cli.command("quiz")
@click.option("--lang", type=click.Choice(["ja", "en", "zh-Hans"]), default="en",
              show_default=True, help="Language of the questions.")
@click.option("--topic", metavar="T", help="Only questions of this topic (a folder of "
                                          "rulings/).")
@click.option("--rules", metavar="SET", help="Only questions asked under this rule set.")
@click.option("--difficulty", type=click.IntRange(1, 3), help="Only questions of this "
                                                               "difficulty (1 to 3).")
@click.option("--count", type=click.IntRange(0), default=5, show_default=True,
              help="How many questions (0: every one that passes the filters).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Which questions, in which order.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the chosen questions as JSON (the site's bank format) and ask "
                   "nothing.")
@_CORPUS_OPTION
def quiz_command(lang: str, topic: str | None, rules: str | None, difficulty: int | None,
                 count: int, seed: int, as_json: bool, corpus_dir: Path | None) -> None:
    """A quick judge-training drill: questions computed from the rulings, each a position and
    its steps with three to five answers the engine replayed (the right one, and the same
    facts under other rule sets, after other choices or with one rule broken the way players
    get it wrong). Type the number of an answer; an empty input or end of input stops.
    The site's quiz page asks the same questions (docs/site.md, "Judge training").
    """
    import json

    from judge.corpus import load_corpus
    from judge.quiz.bank import build_bank
    from judge.quiz.drill import drill, pick
    from judge.quiz.export import variant_entry

    corpus = load_corpus(_corpus_root(corpus_dir))
    bank = build_bank(((r.id, r.scenario, r.replays) for r in corpus.rulings),
                      corpus.rulesets)
    topics = {r.id: r.topic for r in corpus.rulings}
    chosen = pick(bank, topics, topic=topic, rules=rules, difficulty=difficulty, count=count,
                  seed=seed)
    glossary = {t.id: t.names for t in corpus.glossary.values()}
    entries = [variant_entry(v, lang, corpus.rulesets, glossary, board=False) for v in chosen]
    if as_json:
        click.echo(json.dumps(entries, ensure_ascii=False, sort_keys=True, indent=1))
        return

    def ask(prompt: str) -> str | None:
        try:
            text = click.prompt(prompt, default="", show_default=False, prompt_suffix="")
        except (EOFError, click.Abort):
            return None
        return str(text) if text else None

    drill(entries, [str(v.trace.positions[0]) for v in chosen], lang, ask, click.echo)


def _site_progress() -> Callable[[str, int, int], None]:
    """Progress of a long build on standard error: a counter line when it is a terminal."""
    tty = sys.stderr.isatty()
    shown = {"phase": ""}

    def tick(phase: str, done: int, total: int) -> None:
        if not tty:
            return
        text = f"{phase}: {done}/{total}" if total else f"{phase}: {done}"
        if phase != shown["phase"] and shown["phase"]:
            click.echo("", err=True)  # the previous phase's counter stays on its line
        shown["phase"] = phase
        click.echo(f"\r{text}   ", err=True, nl=False)
        if total and done == total:
            click.echo("", err=True)
            shown["phase"] = ""

    return tick


class _Summarised(Protocol):
    def summary(self) -> str: ...


def _site_report(make: Callable[[], _Summarised]) -> None:
    """Run a build and print its summary; rulings failing their replay: the "judge check"
    report, then exit status 1."""
    from judge.site.build import RulingsFailed

    try:
        report = make()
    except RulingsFailed as exc:
        for line in exc.lines:
            click.echo(line)
        click.echo(f"Error: {exc}", err=True)
        sys.exit(1)
    click.echo(report.summary())


def _build_site(out: Path, corpus_dir: Path | None, allow_failing: bool,
                search: bool = True, jobs: int = 0, verbose: bool = False,
                force: bool = False) -> None:
    from judge.scenario.run import engine_runs
    from judge.site.build import BuildReport, build_site

    runs = engine_runs()
    built: list[BuildReport] = []

    def build() -> BuildReport:
        built.append(build_site(
            out, root=_corpus_root(corpus_dir), allow_failing=allow_failing,
            progress=_site_progress(), search=search, jobs=jobs, force=force))
        return built[0]

    _site_report(build)
    if verbose:  # the runs of this process (the workers' are their own)
        click.echo(f"{engine_runs() - runs} engine runs for {built[0].traces} "
                   "(ruling, rule set, branch) traces")


_SITE_OUT_OPTION = click.option(
    "--out", type=click.Path(file_okay=False, path_type=Path), default=Path("_site"),
    show_default=True, help="Folder to write the site into (replaced atomically).")
_ALLOW_FAILING_OPTION = click.option(
    "--allow-failing", is_flag=True,
    help="Build even when rulings fail their replay; their pages say so.")
_NO_SEARCH_OPTION = click.option(
    "--no-search", is_flag=True,
    help="Do not write the search index (the search page then says so).")


@cli.command("build")
@_SITE_OUT_OPTION
@_force_option("the --out DIR")
@_ALLOW_FAILING_OPTION
@_NO_SEARCH_OPTION
@click.option("--jobs", type=click.IntRange(0), default=0, show_default=True,
              help="Processes that render the pages of a large site (0: one per core).")
@click.option("-v", "--verbose", is_flag=True,
              help="Also say how many times the engine ran (once per ruling, rule set and "
                   "branch).")
@click.option("--shard", metavar="K/N",
              help="Build only part K of N: the pages and API files of every Nth ruling "
                   "(judge merge-site puts the parts together).")
@_CORPUS_OPTION
def build_command(out: Path, force: bool, allow_failing: bool, no_search: bool, jobs: int,
                  verbose: bool, shard: str | None, corpus_dir: Path | None) -> None:
    """Build the static website: every ruling replayed and narrated in Japanese, English and
    Chinese, with board diagrams, the glossary, indexes and the rule-change timeline.

    A ruling that fails its replay stops the build with the "judge check" report (exit
    status 1) unless --allow-failing. The search index (search-index/, the same analysis and
    ranking as judge search) is written into the new site before it replaces the previous one,
    unless --no-search. The previous
    site stays in place until the new one is complete. A site of 1,500 pages or more is
    rendered by several processes (--jobs). --shard K/N builds one part of a site built on
    several machines. Details: docs/site.md.
    """
    if shard is not None:
        from judge.site.shard import Shard, build_part

        unused = [name for name, given in (("--no-search", no_search), ("-v", verbose)) if given]
        if unused:  # a part writes no search index and counts no engine runs
            raise click.UsageError(f"{' and '.join(unused)} cannot be used with --shard "
                                   "(judge merge-site writes the search index)")
        part = Shard.parse(shard)  # a wrong K/N fails before the corpus is loaded
        _site_report(lambda: build_part(out, part, root=_corpus_root(corpus_dir),
                                        allow_failing=allow_failing,
                                        progress=_site_progress(), jobs=jobs, force=force))
        return
    _build_site(out, corpus_dir, allow_failing, search=not no_search, jobs=jobs,
                verbose=verbose, force=force)


@cli.command("merge-site")
@click.argument("parts", nargs=-1, required=True,
                type=click.Path(exists=True, file_okay=False, path_type=Path))
@_SITE_OUT_OPTION
@_force_option("the --out DIR")
@_ALLOW_FAILING_OPTION
@_NO_SEARCH_OPTION
@click.option("--jobs", type=click.IntRange(0), default=0, show_default=True,
              help="Processes that render the site-wide pages (0: one per core).")
@_CORPUS_OPTION
def merge_site_command(parts: tuple[Path, ...], out: Path, force: bool, allow_failing: bool,
                       no_search: bool, jobs: int, corpus_dir: Path | None) -> None:
    """Put together the parts PARTS (folders made by judge build --shard K/N, for every K
    from 1 to N) into the site: the same bytes as judge build of the same corpus. The
    site-wide pages, the search index, the quiz and the sandbox are made here; each ruling's
    page and API file are copied from its part. Details: docs/site.md.
    """
    from judge.site.shard import merge_site

    _site_report(lambda: merge_site(
        parts, out, root=_corpus_root(corpus_dir), allow_failing=allow_failing,
        progress=_site_progress(), jobs=jobs, force=force, search=not no_search))


@cli.command("serve")
@click.option("--port", type=click.IntRange(0, 65535), default=8000, show_default=True,
              help="Port on 127.0.0.1 (0: any free port).")
@click.option("--out", type=click.Path(file_okay=False, path_type=Path), default=Path("_site"),
              show_default=True, help="Folder the site is built into and served from.")
@_force_option("the --out DIR")
@click.option("--allow-failing", is_flag=True,
              help="Build even when rulings fail their replay; their pages say so.")
@_NO_SEARCH_OPTION
@_CORPUS_OPTION
def serve_command(port: int, out: Path, force: bool, allow_failing: bool, no_search: bool,
                  corpus_dir: Path | None) -> None:
    """Build the site, serve it on http://127.0.0.1:PORT/ and rebuild it whenever a file
    under rulings/ or data/ (or a template) changes. Stop with Ctrl-C.

    When --out holds a site judge build made, that site is served at once while the new one
    builds, and replaced when it is complete; a build that fails then keeps it.
    """
    import threading

    from judge.site.build import MARKER, build_site, restore_previous
    from judge.site.serve import bind_server, serve_in_background, watch, watched_files

    root = _corpus_root(corpus_dir)
    server = bind_server(out.resolve(), port)  # a port in use fails now, not after a build
    seen = watched_files(root)  # a change during the first build is built again after it

    def rebuild(first: bool = False) -> None:
        try:
            report = build_site(out, root=root, allow_failing=allow_failing,
                                search=not no_search)
            click.echo(f"{'built' if first else 'rebuilt'}: {report.summary()}")
        except JudgeError as exc:  # BuildError, or the search index's
            for line in getattr(exc, "lines", []):
                click.echo(line)
            click.echo(f"{'build' if first else 'rebuild'} failed, still serving the previous "
                       f"site: {exc}", err=True)

    try:
        restore_previous(out)  # a site a killed build left aside is the previous one
        marker = out / MARKER
        previous = marker.is_file() and not marker.is_symlink()
        if not previous:
            _build_site(out, corpus_dir, allow_failing, search=not no_search, force=force)
    except BaseException:
        server.server_close()
        raise

    serve_in_background(server)
    host, bound = server.server_address[:2]
    stop = threading.Event()
    try:
        if previous:
            click.echo(f"serving the previous site of {out} on http://{host!s}:{bound}/ while "
                       f"the new one builds (Ctrl-C to stop)")
            rebuild(first=True)
        else:
            click.echo(f"serving {out} on http://{host!s}:{bound}/ (Ctrl-C to stop)")
        watch(rebuild, root, stop, seen=seen)
    except KeyboardInterrupt:
        click.echo("stopped")
    finally:
        stop.set()
        server.shutdown()
        server.server_close()


@cli.command("i18n-status")
@_CORPUS_OPTION
def i18n_status_command(corpus_dir: Path | None) -> None:
    """List the texts not yet translated, per language, among every string a page shows:
    ruling texts, glossary entries, sources, rule sets, card names and interface messages.
    The site shows such texts in Japanese with a notice.
    """
    from judge.corpus import load_corpus
    from judge.site.status import missing, report_lines

    for line in report_lines(missing(load_corpus(_corpus_root(corpus_dir), replay=False))):
        click.echo(line)


def main() -> None:
    """The ``judge`` command: every error on one line, never a traceback. SIGTERM stops a
    command as Ctrl-C does, removing its temporary files (:mod:`judge.outputs`), and the
    process then ends by the signal."""
    try:
        with stop_on_sigterm():
            _main()
    except Terminated:
        die_of_sigterm()


def _main() -> None:
    try:
        cli(standalone_mode=False)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.Abort:
        click.echo("Aborted!", err=True)
        sys.exit(1)
    except click.ClickException as exc:
        exc.show()
        sys.exit(exc.exit_code)
    except (JudgeError, OSError) as exc:  # OSError: what the system refused
        sys.exit(failure(exc, click.echo))


if __name__ == "__main__":  # pragma: no cover
    main()
