"""The browser sandbox's Python side: replay an edited ruling as its page would show it.

A ruling page's "Try it" button (and the blank sandbox page, ``/<lang>/sandbox/``) runs this
module under Pyodide in a Web Worker (``site_templates/sandbox-worker.js``), from the copy of
this very package that ``judge build`` packs into the site (:mod:`judge.site.sandbox_build`).
For a ruling's text it does what ``judge check`` and ``judge build`` do for a file:

- the file is loaded by the same loader (:func:`judge.scenario.file.load_one`), its ``related`` ids
  checked against the corpus's, and each rule set it names replayed (every branch) as
  :func:`judge.check.check_scenario` does, an engine error or a limit of :mod:`judge.limits`
  being a failure of that rule set, never a crash;
- :func:`edit_json` makes a board edit (:mod:`judge.site.editor`) of the text;
- :func:`replay_text` answers with ``judge check``'s own lines (``Error: path:line: ...``,
  ``FAIL ...``, ``N passed, M failed``), the line of the first error, and the replay sections
  of the ruling page in the page's language (:func:`judge.site.sections.replay_sections`
  rendered by ``site_templates/replay.html``): the narrated steps, boards and branches read
  exactly as on the static page.

:func:`trace_json` is ``judge replay --json``'s text; the corpus test compares the browser's
with the native one for every ruling. Nothing here writes outside a temporary folder.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import re
import tempfile
from collections.abc import Collection, Iterable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

from judge.check import Result, _written_ids
from judge.corpus import Ruling
from judge.data import load_glossary, load_rulesets
from judge.engine import mechanics
from judge.engine.state import PLAYERS, ZONES
from judge.engine.trace import Replay
from judge.errors import JudgeError, ScenarioError
from judge.i18n import N_, gettext_for
from judge.ids import quote
from judge.langs import LANGS
from judge.narrate import Narrator, scenario_cards
from judge.paths import project_root
from judge.scenario.file import check_related, load_one
from judge.scenario.load import discover
from judge.scenario.model import Scenario
from judge.scenario.run import replay
from judge.site.board import hit_areas
from judge.site.editor import board_view, choices, edit, proposal
from judge.site.load import RulingData, load_ruling
from judge.site.results import results
from judge.site.sections import Words, replay_sections
from judge.skeleton import skeleton

#: The file a text is checked as when it gives no usable path (the blank sandbox's ruling).
DEFAULT_PATH = "rulings/my-ruling.toml"
#: A path the sandbox accepts: ``rulings/``, folders and a file name that are ids, ``.toml``.
_PATH = re.compile(r"rulings/(?:[a-z0-9][a-z0-9-]*/)*[a-z0-9][a-z0-9-]*\.toml")
#: The skeleton's ruling id on the blank sandbox page (``judge new``'s text with this id).
BLANK_ID = "my-ruling"


def safe_path(path: str) -> str:
    """``path`` when it is a plain ruling path under ``rulings/``, else :data:`DEFAULT_PATH`.

    >>> safe_path("rulings/refresh/a-b.toml"), safe_path("../etc/passwd")
    ('rulings/refresh/a-b.toml', 'rulings/my-ruling.toml')
    """
    return path if _PATH.fullmatch(path) else DEFAULT_PATH


#: The corpus's ruling ids, written into the sandbox's copy of the package by ``judge build``
#: (beside ``judge/``): the ``related`` ids a ruling may name.
IDS_FILE = "sandbox-ids.json"


@cache
def corpus_ids() -> tuple[str, ...]:
    """The ids of the corpus's rulings: those ``judge build`` listed in :data:`IDS_FILE`, or
    (in the project itself) those the files under ``rulings/`` declare."""
    listed = project_root() / IDS_FILE
    if listed.is_file():
        return tuple(json.loads(listed.read_text(encoding="utf-8")))
    folder = project_root() / "rulings"
    return tuple(sorted({i for f in discover([folder]) for i in _written_ids(f)})) \
        if folder.is_dir() else ()


def load_scenario(text: str, path: str, known: Collection[str] | None = None) -> Scenario:
    """Load a ruling's ``text`` as ``judge check`` loads the file ``path`` (a path under
    ``rulings/``, as the report shows it), its ``related`` ids checked against ``known``
    (default: :func:`corpus_ids`); raises :class:`~judge.errors.ScenarioError`."""
    path = safe_path(path)
    known = corpus_ids() if known is None else known
    with tempfile.TemporaryDirectory(prefix="judge-sandbox-") as folder:
        file = Path(folder) / path
        file.parent.mkdir(parents=True, exist_ok=True)
        file.write_text(text, encoding="utf-8", newline="")
        scenario = load_one(file, path)
    check_related(scenario, {**dict.fromkeys(known), scenario.id: None})
    return scenario


def replay_all(scenario: Scenario) -> tuple[dict[str, Replay], dict[str, str]]:
    """Each rule set's replay (every branch), and the engine error of those that failed, as
    :func:`judge.check.check_scenario` words it."""
    replays: dict[str, Replay] = {}
    errors: dict[str, str] = {}
    for rules in scenario.rulesets:
        try:
            replays[rules] = replay(scenario, rules)
        except JudgeError as exc:
            errors[rules] = f"engine error: {exc}"
        except (RecursionError, MemoryError) as exc:
            errors[rules] = ("engine error: the replay ran out of "
                             f"{'memory' if isinstance(exc, MemoryError) else 'stack'}")
        except Exception as exc:  # a bug of the tool: reported on this rule set
            errors[rules] = (f"internal error, please report it: {type(exc).__name__}: "
                             f"{quote(str(exc))}")
    return replays, errors


def ruling_data(scenario: Scenario, path: str) -> tuple[RulingData, dict[str, str]]:
    """What the ruling page shows of ``scenario``: its results (``judge check``'s) and views;
    and the engine error of each rule set whose replay failed."""
    replays, errors = replay_all(scenario)
    data = load_ruling(Ruling(scenario, safe_path(path), replays))
    results = tuple(Result(r.path, r.ruling, r.rules, [errors[r.rules]])
                    if r.rules in errors else r for r in data.results)
    return dataclasses.replace(data, results=results), errors


def report_lines(results: Iterable[Result]) -> list[str]:
    """``judge check``'s report of one file's results: a FAIL block per failing rule set and
    the last line."""
    lines: list[str] = []
    passed = failed = 0
    for result in results:
        if result.ok:
            passed += 1
        else:
            failed += 1
            lines.extend(result.report().split("\n"))
    return [*lines, f"{passed} passed, {failed} failed"]


def render_sections(data: RulingData, lang: str,
                    errors: Mapping[str, str] | None = None) -> str:
    """The replay sections of the ruling page (``site_templates/replay.html``) in ``lang``.
    With ``errors`` (:func:`ruling_data`'s), the sandbox's: the page's answer under each rule
    set gives way to what the replay gave (:mod:`judge.site.results`,
    ``site_templates/sandbox-results.html``)."""
    from judge.site.render import render  # jinja2: only when a page is rendered

    narrator = Narrator(lang, scenario_cards(data.scenario), _glossary_names(),
                        steps={s.index: s for s in data.scenario.steps})
    words = Words(lang, rule_sets=load_rulesets())
    values = replay_sections(data, words, narrator)
    if errors is None:
        return render("replay.html", lang, values)
    values["answers"] = []  # the page's answer: replaced by the results
    shown = results(data.scenario, data.ruling.replays, errors, data.results, words, narrator)
    return render("sandbox-results.html", lang, {"results": shown}) + \
        render("replay.html", lang, values)


@cache
def _glossary_names() -> dict[str, dict[str, str]]:
    return {t.id: dict(t.names) for t in load_glossary().values()}


def replay_text(text: str, path: str, lang: str,
                known: Collection[str] | None = None) -> dict[str, Any]:
    """The sandbox's answer for a ruling's ``text``: ``report`` (``judge check``'s lines),
    ``line`` (the line of a loading error, 0 when it loaded), ``ok`` (it loaded and every
    rule set meets its expectations) and ``html`` (the page's replay sections; empty when it
    could not be loaded)."""
    if lang not in LANGS:
        lang = LANGS[0]
    try:
        scenario = load_scenario(text, path, known)
    except ScenarioError as exc:
        return {"ok": False, "line": exc.line, "report": [f"Error: {exc}", "0 passed, 1 failed"],
                "html": "", "board": None}
    data, errors = ruling_data(scenario, path)
    n = Narrator(lang, scenario_cards(scenario), _glossary_names(),
                 steps={s.index: s for s in scenario.steps})
    board = board_view(scenario, n)
    board["hits"] = tap_areas(data, board, n)
    return {"ok": all(r.ok for r in data.results), "line": 0,
            "report": report_lines(data.results), "html": render_sections(data, lang, errors),
            "board": board}


def tap_areas(data: RulingData, board: dict[str, Any], n: Narrator) -> list[dict[str, Any]]:
    """Where the set-up's drawing (the page's first board) can be tapped
    (:func:`judge.site.board.hit_areas`), each area with its ``name`` in ``n``'s language
    (the player and the zone, or the card as the board's rows name it); only the cards the
    board's rows list, so that a tap on one picks what tapping its row does."""
    if not data.boards:
        return []
    names = dict(board["cards"])
    out = []
    for area in hit_areas(data.boards[0], data.layout):
        label = area.get("label")
        if label is None:
            name = f"{n.player(str(area['player']))}: {n.zone_name(str(area['zone']))}"
        elif label in names:
            name = names[label]
        else:
            continue
        out.append({**area, "name": name})
    return out


def edit_json(text: str, op: str, args: str) -> str:
    """A board edit (:func:`judge.site.editor.edit`) of a ruling's ``text``, ``args`` being
    JSON: ``{"text": the new text}``, or ``{"error": one line}`` when it is refused."""
    try:
        return json.dumps({"text": edit(text, op, json.loads(args))}, ensure_ascii=False)
    except JudgeError as exc:
        return json.dumps({"error": str(exc)}, ensure_ascii=False)


def propose_json(text: str, path: str, topic: str) -> str:
    """The file to propose for ``text`` and its path (:func:`judge.site.editor.proposal`,
    against the corpus's ids), as JSON; ``{"error": one line}`` when the text is not TOML."""
    try:
        return json.dumps(proposal(text, safe_path(path), topic, corpus_ids()),
                          ensure_ascii=False)
    except JudgeError as exc:
        return json.dumps({"error": str(exc)}, ensure_ascii=False)


def replay_json(text: str, path: str, lang: str, known: Collection[str] | None = None) -> str:
    """:func:`replay_text` as JSON (what the worker hands to the page)."""
    return json.dumps(replay_text(text, path, lang, known), ensure_ascii=False)


def trace_json(scenario: Scenario, rules: str) -> str:
    """``judge replay --json``'s text: the first branch under ``rules`` (unscripted choices
    take their first answer)."""
    run = replay(scenario, rules, explore=False).first
    return json.dumps(run.to_dict(), ensure_ascii=False, sort_keys=True, indent=1)


def corpus_digests(items: Iterable[tuple[str, str]]) -> list[dict[str, Any]]:
    """For each (path, text) of a ruling file, the SHA-256 of :func:`trace_json` under each of
    its rule sets, and of every branch's trace of the full exploration (as :func:`trace_json`
    prints a trace); or the loading error. The corpus test compares the browser's with
    these."""
    out: list[dict[str, Any]] = []
    for path, text in items:
        entry: dict[str, Any] = {"path": path}
        try:
            scenario = load_scenario(text, path)
        except ScenarioError as exc:
            entry["error"] = str(exc)
            out.append(entry)
            continue
        digests: dict[str, Any] = {}
        for rules in scenario.rulesets:
            first = _digest(trace_json(scenario, rules))
            branches = [_digest(json.dumps(t.to_dict(), ensure_ascii=False, sort_keys=True,
                                           indent=1)) for t in replay(scenario, rules).traces]
            digests[rules] = {"first": first, "branches": branches}
        entry["rules"] = digests
        out.append(entry)
    return out


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


#: The editor's words (sandbox/sandbox.js shows them as :func:`vocabulary` gives them, in the
#: page's language): name -> catalogue message.
WORDS: dict[str, str] = {
    "replay": N_("Replay"),
    "reset": N_("Undo my edits"),
    "download": N_("Download the ruling file"),
    "player": N_("Player"),
    "zone": N_("Zone"),
    "add": N_("Add the card"),
    "remove": N_("Remove the card"),
    "card": N_("Card"),
    "power": N_("Power"),
    "level": N_("Level"),
    "set": N_("Set"),
    "ruleset": N_("Rule set"),
    "all": N_("As written"),
    "keyword": N_("Keyword"),
    "toggle": N_("Add or remove the keyword"),
    "editor": N_("The ruling file (TOML)"),
    "working": N_("Replaying…"),
    "result": N_("The replay of your version, by the project's engine in your browser:"),
    "line": N_("Line %(line)s"),
    "timeout": N_("Stopped: the replay took longer than %(seconds)s seconds."),
    "board": N_("The position: tap a card to change it"),
    "nocards": N_("No card yet."),
    "addcard": N_("Add a card"),
    "empty": N_("Empty the board"),
    "move": N_("Move the card"),
    "colour": N_("Colour"),
    "steps": N_("Steps"),
    "action": N_("Action"),
    "to": N_("Until"),
    "next": N_("the next one"),
    "op": N_("Operation"),
    "count": N_("Number"),
    "target": N_("The card it acts on"),
    "amount": N_("By how much (or the value it sets)"),
    "addstep": N_("Add the step"),
    "unstep": N_("Remove the step"),
    "addop": N_("Add the operation to the last effect"),
    "share": N_("Copy link"),
    "link": N_("A link to this position"),
    "copied": N_("The link is copied: send it, and it opens this position."),
    "copy": N_("Copy the link in the field below: it opens this position."),
    "badlink": N_("The position in this link could not be read; the ruling is shown as "
                  "written."),
    "changed": N_("The ruling has changed since this link was made: its edits are applied "
                  "to the current version."),
    "check": N_("The check's own lines, for contributors (judge check)"),
    "topic": N_("Topic"),
    "propose": N_("Propose this ruling to the project"),
}


def vocabulary(lang: str = "en") -> dict[str, Any]:
    """What the editor offers: rule sets (in date order), players, zones, keywords (their
    ids), the board's menus in ``lang`` (:func:`judge.site.editor.choices`), the blank
    ruling (``judge new``'s skeleton) and the editor's words in ``lang``."""
    if lang not in LANGS:
        lang = LANGS[0]
    return {"rulesets": list(load_rulesets()), "players": list(PLAYERS), "zones": list(ZONES),
            "keywords": list(mechanics.keyword_ids()), "blank": skeleton(BLANK_ID),
            "blank_path": f"rulings/{BLANK_ID}.toml", "choices": choices(lang),
            "words": {key: gettext_for(lang, message) for key, message in WORDS.items()}}


def vocabulary_json(lang: str) -> str:
    return json.dumps(vocabulary(lang), ensure_ascii=False)


def compiled_archive(home: str, target: str) -> None:
    """Write to ``target`` a zip of the bytecode of every module imported so far from under
    ``home`` (the sandbox's unpacked package), at the paths Python looks for it
    (``__pycache__/NAME.cpython-3X.pyc``), each compiled now as an *unchecked-hash* pyc:
    Python takes it without comparing it with its source, which is right since the worker
    keeps it under the package zip's own digest (sandbox-worker.js). Unpacked beside the
    sources at the next start, it spares compiling them again."""
    import importlib.util
    import py_compile
    import sys
    import zipfile

    root = Path(home)
    files = sorted({str(m.__file__) for m in list(sys.modules.values())
                    if getattr(m, "__file__", None) and str(m.__file__).endswith(".py")
                    and Path(str(m.__file__)).is_relative_to(root)})
    with zipfile.ZipFile(target, "w", zipfile.ZIP_STORED) as archive:
        for source in files:
            cached = importlib.util.cache_from_source(source)
            py_compile.compile(source, cfile=cached, doraise=True,
                               invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
            archive.write(cached, Path(cached).relative_to(root).as_posix())


def digests_json(items: str) -> str:
    """:func:`corpus_digests` of a JSON list of [path, text] pairs, as JSON."""
    return json.dumps(corpus_digests((str(p), str(t)) for p, t in json.loads(items)))
