"""The ``judge`` command line. Domain errors become ``Error: ...`` here and only here."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from judge.check import Result, iter_checks, run_checks, write_junit
from judge.engine.rulesets import load_rulesets
from judge.errors import JudgeError, ScenarioError
from judge.paths import project_root
from judge.scenario.load import load_path
from judge.scenario.run import replay as replay_scenario
from judge.skeleton import skeleton


def _default_rulings() -> list[Path]:
    local = Path("rulings")
    return [local if local.is_dir() else project_root() / "rulings"]


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
@click.option("-v", "--verbose", is_flag=True, help="Print a line for every passing check.")
def check(paths: tuple[Path, ...], rules: str | None, keyword: str | None,
          junit: Path | None, verbose: bool) -> None:
    """Replay every ruling under every rule set it names and compare the results.

    Each failure prints the file, ruling id, rule set and a zone-by-zone diff. The last line
    is "N passed, N failed". Exit status: 0 all passed, 1 failures, 2 unusable files.
    """
    known = load_rulesets()
    if rules is not None and rules not in known:
        raise click.UsageError(f"unknown rule set {rules!r} (valid: {', '.join(known)})")
    targets = list(paths) or _default_rulings()
    if junit is None and not verbose:
        # stream: print each problem as soon as it is found
        from judge.check import Summary

        summary = Summary()
        for item in iter_checks(targets, rules, keyword, summary):
            if isinstance(item, ScenarioError):
                summary.errors.append(item)
                click.echo(str(item))
            else:
                summary.results.append(item)
                if not item.ok:
                    click.echo(item.report())
    else:
        summary = run_checks(targets, rules, keyword)
        for error in summary.errors:
            click.echo(str(error))
        for result in summary.results:
            _show(result, verbose)
        if junit is not None:
            write_junit(summary, junit)
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
@click.option("--json", "as_json", is_flag=True, help="Print the events as JSON lines.")
def replay(file: Path, rules: str | None, as_json: bool) -> None:
    """Print a ruling's event trace, step by step, under one rule set.

    Unscripted choices take their first answer here; "judge check" explores every branch.
    """
    scenario = load_path(file)
    chosen = rules or scenario.rulesets[-1]
    if chosen not in scenario.rulesets:
        raise JudgeError(f"{scenario.id} does not name rule set {chosen!r} "
                         f"(valid: {', '.join(scenario.rulesets)})")
    rep = replay_scenario(scenario, chosen, explore=False)
    run = rep.runs[0]
    if as_json:
        for event in run.log:
            click.echo(event.to_json())
        return
    click.echo(f"{scenario.id} under {chosen}")
    step = -1
    for event in run.log:
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
    from judge.scenario.load import ID_PATTERN

    if not ID_PATTERN.match(ruling_id):
        raise JudgeError(f"{ruling_id!r} is not a lowercase id with hyphens, e.g. "
                         "refresh-during-effect")
    target = folder / f"{ruling_id}.toml"
    if target.exists():
        raise JudgeError(f"{target} already exists")
    from judge.check import atomic_write

    atomic_write(target, skeleton(ruling_id))
    click.echo(f"wrote {target}")


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


def main() -> None:
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
    except JudgeError as exc:
        click.echo(f"Error: {exc}", err=True)
        sys.exit(2)


if __name__ == "__main__":  # pragma: no cover
    main()
