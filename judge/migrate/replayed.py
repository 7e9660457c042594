"""The changes of format 2 that only a replay can decide, decided by replaying.

Two changes of the engine's events in format 2 change some patterns of a ruling and not
others, and which ones only the trace tells:

- Lancer and S-Lancer became triggered abilities (9aac6da): the crush (S-Lancer: the damage)
  they cause comes from ``LABEL#lancer`` (``LABEL#s-lancer``), while the attack's own crush
  still comes from ``LABEL``;
- a crushed card whose Life Burst was used goes to the ener zone as the end of the crush
  (1452baf: cause ``game``, verb ``after_burst``), no longer by rule processing (cause
  ``rule``, a ``rule_check`` of kind ``check``), which moves only a card whose burst was not
  used.

:func:`decide` tries each such rewrite of an event pattern on a copy of the ruling, replays
it under each of its rule sets, and keeps the rewrite only when fewer expectations fail:
a rewrite the trace does not confirm is never made.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any

import tomlkit

from judge.migrate.rules import Note, remove, set_value
from judge.scenario.walk import Path, walk


@dataclass(frozen=True)
class Candidate:
    where: str
    text: str
    apply: Callable[[Any], None]


def candidates(raw: Mapping[str, Any]) -> Iterator[Candidate]:
    """The rewrites of event patterns that a replay may confirm, in the file's order."""
    removals = []
    # Lancer's source is a question only where some card may have Lancer or S-Lancer
    lancers = "lancer" in repr(raw)
    for node in walk(raw):
        if node.kind != "event":
            continue
        pattern = node.table
        path = node.path
        source = pattern.get("source")
        if lancers and isinstance(source, str) and "#" not in source and \
                pattern.get("type") in ("move", "game_over"):
            for keyword in ("lancer", "s-lancer"):
                new = f"{source}#{keyword}"
                yield Candidate(f"{node.where}.source", f"{source!r} -> {new!r} ({keyword} is "
                                "a triggered ability since format 2; decided by replay)",
                                _setter((*path, "source"), new))
        if pattern.get("type") == "move" and pattern.get("cause") == "rule" and \
                str(pattern.get("from", "")).endswith(".check") and \
                str(pattern.get("to", "")).endswith(".ener"):
            def after_burst(doc: Any, p: Any = path, verb: bool = "verb" in pattern) -> None:
                set_value(doc, (*p, "cause"), "game")
                if verb:
                    set_value(doc, (*p, "verb"), "after_burst")
            yield Candidate(f"{node.where}.cause", "a used Life Burst's card goes to the ener "
                            "zone as the end of the crush (cause game, verb after_burst) since "
                            "format 2; decided by replay", after_burst)
        if pattern.get("type") == "rule_check" and pattern.get("kinds") == ["check"]:
            removals.append(node)
    for node in reversed(removals):  # later ones first: the indexes of the others stay
        yield Candidate(node.where, "removed a rule_check of kind check (a used Life Burst's "
                        "card is no rule processing since format 2; decided by replay)",
                        _remover(node.path))


def _setter(path: Path, value: str) -> Callable[[Any], None]:
    return lambda doc: set_value(doc, path, value)


def _remover(path: Path) -> Callable[[Any], None]:
    return lambda doc: remove(doc, path)


def decide(doc: Any, failures: Callable[[str], int | None],
           text_of: Callable[[Any], str]) -> tuple[Any, list[Note]]:
    """Apply each candidate that makes fewer expectations fail (``failures``: how many fail
    for the file's text, None when it does not load; ``text_of``: the text of a document).
    Returns the document and what was changed."""
    base = failures(text_of(doc))
    if not base:  # it passes, or does not load: nothing to decide by replay
        return doc, []
    notes = []
    for candidate in list(candidates(doc.unwrap())):
        trial = tomlkit.parse(tomlkit.dumps(doc))
        try:
            candidate.apply(trial)
        except (KeyError, IndexError):  # an earlier rewrite removed what it names
            continue
        count = failures(text_of(trial))
        if count is not None and count < base:
            doc, base = trial, count
            notes.append(Note(candidate.where, candidate.text))
            if not base:
                break
    return doc, notes
