"""``judge migrate PATH...``: upgrade ruling and card files to the current format.

Each file given (folders are searched for ``*.toml``, as ``judge check`` does) is read with
tomlkit, which keeps its comments, key order and layout; the rewrites of
:mod:`judge.migrate.rules` are applied (all of them, whatever the file's version: each is
idempotent), its ``[[sources]]`` tables are moved into the source registry
(:mod:`judge.migrate.tables`) and cited, and it is made to declare ``format_version``. Then
the result is loaded and replayed under each of its rule sets, and what still fails is said:
what only a human or a replay can decide is never guessed. One line per item, with the file
and line; a second run changes nothing.

Writes: a ruling or card file given is the user's own input, rewritten in place (that is the
command's purpose): into a temporary file beside it, renamed over it (:mod:`judge.outputs`).
A sources file is written only where none is or where a sources file is (a TOML file that
holds only ``[sources.ID]`` tables), anything else only with ``--force``; a symbolic link is
never followed. ``--check`` writes nothing and lists what would change.
"""

from __future__ import annotations

import copy
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import tomlkit

from judge.errors import FieldError, JudgeError, ScenarioError, printable
from judge.migrate import replayed, rules
from judge.migrate.rules import Note
from judge.migrate.tables import Planned, Registry, plan_table
from judge.paths import discover
from judge.scenario.locate import LineIndex
from judge.scenario.walk import is_card_file
from judge.tomlfile import BOM, read_file, shown_path

if TYPE_CHECKING:
    from judge.check import Result


@dataclass
class Migrated:
    """One file: its text before and after (equal: nothing to change) and the report."""

    path: Path
    shown: str
    before: str
    after: str
    notes: list[Note] = field(default_factory=list)
    lines: LineIndex | None = None

    @property
    def changed(self) -> bool:
        return self.after != self.before

    def report(self) -> Iterator[str]:
        after = LineIndex(self.after[len(BOM):] if self.after.startswith(BOM) else self.after)
        for note in self.notes:
            index = after if note.after else self.lines
            line = index.line(note.where) if index is not None else 1
            mark = "" if note.decided else "undecided: "
            yield f"{self.shown}:{line}: {note.where}: {mark}{printable(note.text)}"


@dataclass
class Run:
    """What one ``judge migrate`` does: the files, the registries they add documents to,
    the files that could not be read."""

    files: list[Migrated] = field(default_factory=list)
    registries: dict[Path, Registry] = field(default_factory=dict)
    errors: list[ScenarioError] = field(default_factory=list)
    #: (file, text) -> the results of its replays (None: it does not load)
    replays: dict[tuple[Path, str], list[Result] | None] = field(default_factory=dict)

    @property
    def undecided(self) -> int:
        return sum(not n.decided for f in self.files for n in f.notes)


def _registry(run: Run, path: Path) -> Registry:
    from judge.sources import local_file, registry_for

    local = local_file(path)
    key = local if local is not None else Path()
    if key not in run.registries:
        run.registries[key] = Registry(local, registry_for(path))
    return run.registries[key]


def _sources(doc: Any, raw: dict[str, Any], registry: Registry) -> list[Note]:
    """Format 4: ``[[sources]]`` tables -> documents of the registry, cited."""
    tables = raw.get("sources")
    if not isinstance(tables, list) or not any(isinstance(t, dict) for t in tables):
        return []
    notes: list[Note] = []
    citations: list[str] = [t for t in tables if isinstance(t, str)]
    comments: list[str] = []
    for i, table in enumerate(tables):
        if not isinstance(table, dict):
            continue
        planned: Planned = plan_table(table, registry)
        where = f"sources[{i}]"
        if not planned.document:
            notes.append(Note(where, f"needs a human: {planned.note}", decided=False))
            comments.append(f"[[sources]] {table.get('title', '')!s} "
                            f"({table.get('authority', '')!s}, {table.get('date', '')!s})")
            continue
        if planned.document not in citations:
            citations.append(planned.document)
        made = f" (a new entry of {registry.path.name})" if planned.new and registry.path \
            else ""
        notes.append(Note(where, f"cites {planned.document!r}{made} (format 4: sources cite "
                                 "the registry)"))
        document = registry.known.get(planned.document)
        if document is not None and document.sections:
            notes.append(Note(where, f"needs a human: cite the section of "
                                     f"{planned.document!r} the ruling rests on, "
                                     f"{planned.document}#SECTION (the old title was "
                                     f"{str(table.get('title', ''))!r})", decided=False))
        elif planned.new and registry.path is not None:
            notes.append(Note(where, f"needs a human: translate the title of "
                                     f"{planned.document!r} in {shown_path(registry.path)}",
                                     decided=False))
    del doc["sources"]
    array = tomlkit.array()
    array.extend(citations)
    if comments:  # what only a human can place, kept beside the citations
        array.comment("migrate: " + "; ".join(comments))
    doc["sources"] = array
    return notes


def _rewrite(doc: Any, raw: dict[str, Any], path: Path, run: Run) -> list[Note]:
    """Apply every rewrite of :mod:`judge.migrate.rules` to ``doc`` (a tomlkit document, or a
    copy of ``raw`` to learn whether anything changes), reading ``raw``."""
    notes: list[Note] = []
    if not is_card_file(raw):
        notes += _sources(doc, raw, _registry(run, path))
        notes += rules.event_values(doc, raw)
        notes += rules.old_steps(doc, raw)
        notes += rules.rulesets(doc, raw)
        notes += rules.assists(doc, raw)
        notes += rules.hints(raw)
    notes += rules.deprecated(doc, raw)
    return notes


def migrate_text(path: Path, shown: str, text: str, run: Run) -> Migrated:
    """Apply every rewrite to one file's text (nothing is written here). The rewrites run
    first on a plain copy of the file's table: tomlkit, which keeps the layout (and is slow),
    reads the file only when something but the version line changes."""
    from judge.tomlfile import parse

    body = text[len(BOM):] if text.startswith(BOM) else text
    raw, lines = parse(body, shown)
    if not is_card_file(raw) and not ({"id", "setup", "expect"} & set(raw)):
        raise ScenarioError(shown, 1, FieldError("", "neither a ruling (id, setup, expect) "
                                                     "nor a card file (card tables with a "
                                                     "type)"))
    notes = _rewrite(copy.deepcopy(raw), raw, path, run)
    doc: Any = None
    if any(n.decided for n in notes):
        doc = tomlkit.parse(body)
        notes = _rewrite(doc, raw, path, run)
    current = raw.get(rules.FORMAT_KEY) == rules.FORMAT_VERSION

    def text_of(document: Any) -> str:
        out = tomlkit.dumps(document) if document is not None else body
        return out if current else rules.comment_above(rules.put_version_first(out, raw))

    if not is_card_file(raw) and _failures(text_of(doc), path, shown, run):
        doc, decided = replayed.decide(
            doc if doc is not None else tomlkit.parse(body),
            lambda candidate: _failures(text_of(candidate) if not isinstance(candidate, str)
                                        else candidate, path, shown, run), text_of)
        notes += decided
    after = text_of(doc)
    if not current:
        if rules.FORMAT_KEY in raw and doc is not None:
            doc[rules.FORMAT_KEY] = rules.FORMAT_VERSION
            after = text_of(doc)
        elif rules.FORMAT_KEY in raw:  # only the number changes: the text is kept as it is
            after = rules.renumber(after)
        notes += rules.version(raw)
    if after != body and text.startswith(BOM):
        after = BOM + after
    elif after == body:
        after = text
    return Migrated(path, shown, text, after, notes, lines)


def _load(text: str, path: Path, shown: str, run: Run) -> Any:
    """The ruling ``text`` loaded as the file ``path`` would be once migrated (its citations
    checked against the registry with the documents the run adds); a ScenarioError if it
    does not load."""
    from judge.scenario.load import load_table
    from judge.tomlfile import parse

    raw, index = parse(text[len(BOM):] if text.startswith(BOM) else text, shown)
    registry = _registry(run, path)
    known = dict(registry.known)
    if registry.added:
        from judge.sources import parse_registry

        known.update(parse_registry({"sources": registry.added}))
    return load_table(raw, index, shown, known)


def _failures(text: str, path: Path, shown: str, run: Run) -> int | None:
    """How many expectations of ``text`` fail under its rule sets (None: it does not
    load); each text is replayed once per run."""
    from judge.check import check_scenario

    key = (path, text)
    if key not in run.replays:
        try:
            scenario = _load(text, path, shown, run)
        except ScenarioError:
            run.replays[key] = None
        else:
            run.replays[key] = [check_scenario(scenario, rs) for rs in scenario.rulesets]
    results = run.replays[key]
    return None if results is None else sum(len(r.failures) for r in results)


def _replayed(item: Migrated, run: Run) -> None:
    """Load the migrated text and replay it: what still fails is for a human to decide (a
    card file is read by the card parser alone)."""
    from judge.tomlfile import parse

    text = item.after[len(BOM):] if item.after.startswith(BOM) else item.after
    try:
        raw, _ = parse(text, item.shown)
    except ScenarioError as exc:
        item.notes.append(Note("", f"does not load: {exc.error.text()}", decided=False,
                               after=True))
        return
    if is_card_file(raw):
        _card_file(item, raw)
        return
    if _failures(item.after, item.path, item.shown, run) is None:
        try:
            _load(item.after, item.path, item.shown, run)
        except ScenarioError as exc:
            said = {n.where for n in item.notes if not n.decided}
            if exc.error.field not in said:  # not what a note above says already
                item.notes.append(Note(exc.error.field, f"needs a human: it does not load "
                                                        f"yet: {exc.error.text()}",
                                       decided=False, after=True))
        return
    for result in run.replays[(item.path, item.after)] or []:
        if not result.ok:
            item.notes.append(Note("expect", f"needs a human: under {result.rules}, "
                                             f"{result.failures[0]}", decided=False,
                                   after=True))


def _card_file(item: Migrated, raw: dict[str, Any]) -> None:
    from judge.engine.cards import parse_card

    for card_id, body in raw.items():
        if card_id == rules.FORMAT_KEY:
            continue
        try:
            parse_card(card_id, body, card_id)
        except FieldError as exc:
            item.notes.append(Note(exc.field, f"needs a human: it does not load yet: "
                                              f"{exc.text()}", decided=False, after=True))


def related(run: Run) -> None:
    """A ``related`` id that names no ruling of the corpus (the files migrated and the
    rulings beside them) is said: the ruling may live in another corpus."""
    from judge.scenario.file import _rulings_folder, written_ids

    known: set[str] = set()
    folders: set[Path] = set()
    for item in run.files:
        folder = _rulings_folder(item.path)
        folders.add(folder if folder is not None else item.path.parent)
        known.update(written_ids(item.path))
    for folder in sorted(folders):
        for path in discover([folder]):
            known.update(written_ids(path))
    from judge.tomlfile import parse

    for item in run.files:
        try:
            raw, _ = parse(item.after[len(BOM):] if item.after.startswith(BOM)
                           else item.after, item.shown)
        except ScenarioError:
            continue
        ids = raw.get("related")
        for i, rid in enumerate(ids if isinstance(ids, list) else []):
            if isinstance(rid, str) and rid not in known:
                item.notes.append(Note(f"related[{i}]", f"needs a human: no ruling of this "
                                                        f"corpus has the id {rid!r}",
                                       decided=False, after=True))


def migrate(paths: Iterable[Path]) -> Run:
    """Migrate the files of ``paths`` in memory (see :func:`write` to write them)."""
    run = Run()
    for path in discover(list(paths)):
        shown = shown_path(path)
        try:
            text = read_file(path, shown)
            run.files.append(migrate_text(path, shown, text, run))
        except ScenarioError as exc:
            run.errors.append(exc)
    for item in run.files:
        _replayed(item, run)
    related(run)
    return run


def registry_text(registry: Registry) -> tuple[str, str]:
    """The sources file of ``registry`` before and after the entries a run adds."""
    assert registry.path is not None
    before = registry.path.read_text(encoding="utf-8") if registry.path.exists() else ""
    doc = tomlkit.parse(before) if before else tomlkit.document()
    if not before:
        doc.add(tomlkit.comment("The documents this corpus's rulings cite besides the "
                                "project's (data/sources.toml); see docs/scenario-format.md."))
    tables = doc.setdefault("sources", tomlkit.table(is_super_table=True))
    for sid, entry in registry.added.items():
        table = tomlkit.table()
        for key, value in entry.items():
            if isinstance(value, dict):
                inline = tomlkit.inline_table()
                inline.update(value)
                table[key] = inline
            else:
                table[key] = value
        tables[sid] = table
    return before, tomlkit.dumps(doc)


def _foreign_registry(path: Path) -> str:
    """Why ``path`` is not a sources file ("" when it is: only ``[sources.ID]`` tables)."""
    try:
        raw = tomlkit.parse(path.read_text(encoding="utf-8")).unwrap()
    except (OSError, UnicodeDecodeError, Exception):
        return "it is not a sources file (it cannot be read as TOML)"
    if set(raw) - {"sources"} or not isinstance(raw.get("sources", {}), dict):
        return "it is not a sources file (it holds more than [sources.ID] tables)"
    return ""


def write(run: Run, force: bool = False) -> None:
    """Write the changed files and the sources files they cite (see the module for where a
    write is allowed)."""
    from judge.outputs import Kind, claim, write_file

    ruling = Kind("rewrite", folder=False, foreign=lambda path: "")
    registry_kind = Kind("write the sources file", folder=False, foreign=_foreign_registry)
    claimed = []
    for registry in run.registries.values():
        if registry.added and registry.path is not None:
            target = claim(registry.path, registry_kind, force=force)
            claimed.append((target, registry_text(registry)[1]))
    for item in run.files:
        if item.changed:
            claimed.append((claim(item.path, ruling, force=force), item.after))
    for target, text in claimed:
        write_file(target, text.encode("utf-8"))


__all__ = ["JudgeError", "Migrated", "Run", "migrate", "migrate_text", "write"]
