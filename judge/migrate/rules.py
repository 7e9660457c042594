"""The rewrites of ``judge migrate``: each change of the format since format 1 that a program
can make, applied to a file's tomlkit document (comments, key order and layout kept).

Every rewrite is idempotent (a file it has rewritten gives it nothing more to do), so all of
them are applied to every file whatever its version: a file already in the current format
is left as it is. What a rewrite cannot decide is said (:class:`Note` with ``decided`` false),
never guessed. docs/scenario-format.md#changelog lists the changes; the comments below name
the version of each.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import tomlkit
from tomlkit.items import InlineTable, Item

from judge.engine.classes import CLASSES
from judge.scenario.versions import (
    FORMAT_KEY,
    FORMAT_VERSION,
    changed_meanings,
    detect,
    findings,
)
from judge.scenario.walk import Path, is_card_file, shown, walk

#: Format 2 (de98d3a): the English reasons of events became codes (judge.engine.events
#: REASONS), by event type.
REASON_CODES: dict[str, str] = {
    "the target has left its zone since it was chosen": "target-gone",
    "not on the field": "not-on-field",
    "no empty SIGNI zone": "no-empty-zone",
    "not a SIGNI": "not-signi",
    "level above the LRIG's level": "level-above-lrig",
    "total level above the LRIG's limit": "over-limit",
    "limiting condition does not match the centre LRIG's LRIG type": "limiting-mismatch",
    "no SIGNI or no card in the main deck": "no-signi-or-deck",
    "damage with no life cloth": "damage",
    "empty trash": "empty-trash",
    "empty trash and no life cloth": "empty-trash-no-life",
    "left the trash": "left-trash",
    "left the hand": "left-hand",
    "left the ener": "left-ener",
    "left the field": "left-field",
}
#: Format 2 (de98d3a): the refusal of a play quotes the reason's description.
MESSAGES: dict[str, str] = {
    "limiting condition does not match the centre LRIG's LRIG type":
        "its limiting condition does not match the centre LRIG's LRIG type",
    "level above the LRIG's level": "its level is above the LRIG's level",
    "total level above the LRIG's limit": "the total level would be above the LRIG's limit",
    "not a SIGNI": "the card is not a SIGNI",
}


@dataclass(frozen=True)
class Note:
    """One line of the report: what was changed (``decided``) or what a human or a replay
    must decide, at the field ``where``."""

    where: str
    text: str
    decided: bool = True
    #: found in the migrated file (its lines are the new text's), not in the file as it was
    after: bool = False


def _inline(table: InlineTable) -> Item:
    """An inline table written again from its items (a removed key leaves no gap)."""
    parts = [f"{key.as_string().strip()} = {value.as_string().strip()}"
             for key, value in table.value.body if key is not None]
    item: Item = tomlkit.parse("x = { " + ", ".join(parts) + " }" if parts else "x = {}")["x"]
    return item


def _parent(doc: Any, path: Path) -> Any:
    value = doc
    for part in path[:-1]:
        value = value[part]
    return value


def remove(doc: Any, path: Path) -> None:
    """Remove the key, item or table at ``path`` of a tomlkit document."""
    parent = _parent(doc, path)
    del parent[path[-1]]
    if isinstance(parent, InlineTable) and len(path) > 1:
        _parent(doc, path[:-1])[path[-2]] = _inline(parent)


def set_value(doc: Any, path: Path, value: Any) -> None:
    parent = _parent(doc, path)
    parent[path[-1]] = value
    if isinstance(parent, InlineTable) and len(path) > 1:
        _parent(doc, path[:-1])[path[-2]] = _inline(parent)


def rename_key(doc: Any, path: Path, new: str) -> None:
    """Give the key at ``path`` the name ``new`` (at the end of its table)."""
    parent = _parent(doc, path)
    value = parent[path[-1]]
    del parent[path[-1]]
    parent[new] = value
    if isinstance(parent, InlineTable) and len(path) > 1:
        _parent(doc, path[:-1])[path[-2]] = _inline(parent)


# ---------------------------------------------------------------------------- the rewrites


def event_values(doc: Any, raw: Mapping[str, Any]) -> list[Note]:
    """Format 2: English reasons -> codes; the old refusal messages -> the new ones."""
    notes = []
    for node in walk(raw):
        if node.kind != "event":
            continue
        reason = node.table.get("reason")
        if isinstance(reason, str) and reason in REASON_CODES:
            set_value(doc, (*node.path, "reason"), REASON_CODES[reason])
            notes.append(Note(f"{node.where}.reason", f"{reason!r} -> "
                              f"{REASON_CODES[reason]!r} (format 2: reasons are codes)"))
        message = node.table.get("message")
        if isinstance(message, str):
            head, sep, old = message.rpartition(": ")
            if sep and old in MESSAGES:
                set_value(doc, (*node.path, "message"), f"{head}: {MESSAGES[old]}")
                notes.append(Note(f"{node.where}.message", f"the refusal's words of format 2 "
                                  f"({MESSAGES[old]!r})"))
    return notes


def old_steps(doc: Any, raw: Mapping[str, Any]) -> list[Note]:
    """Format 2: ``no-such-phase`` is gone; format 5: ``remove`` took ``cards`` beside
    ``card`` (a list given to ``card`` means ``cards``)."""
    notes = []
    for node in walk(raw):
        if node.kind != "step":
            continue
        if node.table.get("expect_illegal") == "no-such-phase":
            notes.append(Note(f"{node.where}.expect_illegal", "needs a human: no-such-phase "
                              "is gone (format 2): an advance now stops where the game ends, "
                              "and later steps are refused game-over; restate what the step "
                              "shows", decided=False))
        if node.table.get("action") in ("remove", "summon") and \
                isinstance(node.table.get("card"), list) and "cards" not in node.table:
            rename_key(doc, (*node.path, "card"), "cards")
            notes.append(Note(f"{node.where}.card", "a list of cards is `cards`"))
    return notes


def rulesets(doc: Any, raw: Mapping[str, Any]) -> list[Note]:
    """Format 3: a rule set named twice is refused; the second is dropped."""
    names = raw.get("rulesets")
    if not isinstance(names, list):
        return []
    notes = []
    for i in range(len(names) - 1, -1, -1):
        if names[i] in names[:i]:
            del doc["rulesets"][i]
            notes.append(Note(f"rulesets[{i}]", f"{names[i]!r} was named twice"))
    return notes


def assists(doc: Any, raw: Mapping[str, Any]) -> list[Note]:
    """Format 5: assist LRIGs are played in the Diva Selection format only."""
    setup = raw.get("setup")
    if not isinstance(setup, dict) or "format" in setup:
        return []
    if not any(isinstance(setup.get(p), dict) and (setup[p].get("assist1") or
                                                   setup[p].get("assist2"))
               for p in ("p1", "p2")):
        return []
    names = raw.get("rulesets")
    names = [names] if isinstance(names, str) else names
    if names == ["current"]:
        doc["setup"]["format"] = "diva-selection"
        return [Note("setup.format", "assist LRIGs need format = \"diva-selection\" "
                                     "(format 5)")]
    return [Note("setup", "needs a human: assist LRIGs are played only in the Diva Selection "
                          "format, which rule sets before 2020 do not have (format 5): keep "
                          "the ruling to rulesets = [\"current\"] and add format = "
                          "\"diva-selection\", or take the assist LRIGs out", decided=False)]


def hints(raw: Mapping[str, Any]) -> list[Note]:
    """What only a human can decide, found from the file's content (what a replay decides is
    :mod:`judge.migrate.replayed`'s; what still fails after it is said by the replay)."""
    notes = []
    for node in walk(raw):
        if node.kind == "card":
            cls = node.table.get("class")
            if isinstance(cls, str) and cls not in CLASSES:
                notes.append(Note(f"{node.where}.class", f"needs a human: the class {cls!r} "
                                  "is not declared (format 6: one of "
                                  f"{', '.join(CLASSES)}): name one of them, or declare the "
                                  "class in judge/engine/classes.py", decided=False))
    return notes


def deprecated(doc: Any, raw: Mapping[str, Any]) -> list[Note]:
    """Format 7: what was accepted and never read is removed (each never changed a replay);
    a field whose meaning changed is kept and told."""
    notes = []
    found = findings(raw, FORMAT_VERSION)
    for finding in sorted(found, key=lambda f: _order(f.path), reverse=True):
        remove(doc, finding.path)
    for finding in found:
        notes.append(Note(finding.where, f"removed {finding.what} (format "
                                         f"{finding.since}: {finding.new})"))
    if raw.get(FORMAT_KEY) != FORMAT_VERSION:  # a file of the current format means it
        for finding in changed_meanings(raw, detect(raw).high):
            notes.append(Note(finding.where, f"needs a replay: {finding.what}; "
                                             f"{finding.new}", decided=False))
    return notes


def _order(path: Path) -> tuple[tuple[int, str | int], ...]:
    """A sort key of paths: removing in reverse order keeps the indexes of the others."""
    return tuple((0, p) if isinstance(p, int) else (1, p) for p in path)


def version(raw: Mapping[str, Any]) -> list[Note]:
    """The file declares the current format (the change itself: :func:`put_version_first`,
    or the value of the key it has)."""
    if raw.get(FORMAT_KEY) == FORMAT_VERSION:
        return []
    return [Note(FORMAT_KEY, f"declares format {FORMAT_VERSION}")]


_DECLARED = re.compile(rf"^({FORMAT_KEY}\s*=\s*)[0-9]+", re.MULTILINE)


def renumber(text: str) -> str:
    """The file ``text`` declaring the current format in place of the earlier one it
    declares (the line's layout and everything else kept: tomlkit would reorder arrays of
    tables written between others)."""
    return _DECLARED.sub(rf"\g<1>{FORMAT_VERSION}", text, count=1)


def put_version_first(text: str, raw: Mapping[str, Any]) -> str:
    """``format_version = N`` as the first key of a file that has none (after the comments
    and blank lines it begins with)."""
    if FORMAT_KEY in raw:
        return text
    lines = text.splitlines(keepends=True)
    at = 0
    while at < len(lines) and (not lines[at].strip() or lines[at].lstrip().startswith("#")):
        at += 1
    newline = "\r\n" if lines and lines[0].endswith("\r\n") else "\n"
    lines.insert(at, f"{FORMAT_KEY} = {FORMAT_VERSION}{newline}")
    if is_card_file(raw) and at + 1 < len(lines) and lines[at + 1].strip():
        lines.insert(at + 1, newline)  # a blank line before the first card table
    return "".join(lines)


def comment_above(text: str) -> str:
    """A ``# migrate:`` comment that tomlkit wrote after a value, put on a line of its own
    above it (a long line is easier to read there)."""
    out = []
    for line in text.splitlines(keepends=True):
        value, sep, comment = line.partition(" # migrate: ")
        if sep and value.startswith("sources = ["):
            newline = "\r\n" if line.endswith("\r\n") else "\n"
            out.append(f"# migrate: {comment.rstrip()}{newline}")
            out.append(value.rstrip() + newline)
        else:
            out.append(line)
    return "".join(out)


__all__ = ["FORMAT_KEY", "FORMAT_VERSION", "REASON_CODES", "Note", "assists", "comment_above",
           "deprecated", "event_values", "hints", "old_steps", "put_version_first", "remove",
           "rulesets", "shown", "version"]
