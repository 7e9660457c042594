"""The tables of the docs that are made from the engine's declarations, so that the docs say
what the code does: every code once, with every case it covers (issue 27).

- the reason codes of refused actions (``ILLEGAL_REASONS`` of :mod:`judge.engine.actions`:
  each code, what it means, the actions refused with it) in docs/game-flow.md#reason-codes;
- the reasons that events carry (``REASONS`` of :mod:`judge.engine.events`, with
  :data:`REASON_CASES`: the events and operations that carry each) in docs/events.md#reasons;
- the kinds of choices (``CHOICE_KINDS`` and ``CHOICE_ANSWERS`` of
  :mod:`judge.engine.choices`) in docs/scenario-format.md#choices-and-exploration;
- the field index of the ruling format (:func:`judge.scenario.schema.index_table`) in
  docs/scenario-format.md#field-index.

Each table sits between two markers in its file::

    <!-- generated: NAME (python -m judge.docs_tables) -->
    ...
    <!-- end of generated: NAME -->

``python -m judge.docs_tables`` writes them again; ``tests/test_docs_tables.py`` fails when a
file holds another table than this module makes.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path

#: The events that carry each reason code of ``judge.engine.events.REASONS``, and the cases
#: it covers (read from the engine's ``emit`` calls; tests/test_docs_tables.py checks that
#: every code a call writes out is listed with its event).
REASON_CASES: dict[str, tuple[tuple[str, ...], str]] = {
    "target-gone": (("fizzle",), "a target chosen when the card was used has moved since"),
    "not-on-field": (("fizzle",), "an operation that acts on cards on the field (banish, "
                                  "power, level, keyword, cannot, lose_abilities, freeze, "
                                  "down, up, attach, ride) names one that is not there"),
    "no-empty-zone": (("fizzle",), "put_onto_field, or a place into the SIGNI zones, with "
                                   "every SIGNI zone taken"),
    "not-signi": (("fizzle",), "put_onto_field of a card that is not a SIGNI"),
    "level-above-lrig": (("fizzle",), "put_onto_field of a SIGNI above the LRIG's level"),
    "over-limit": (("fizzle",), "put_onto_field past the LRIG's limit"),
    "signi-cap": (("fizzle",), "put_onto_field past a cap on the SIGNI on the field "
                               "(signi_cap)"),
    "limiting-mismatch": (("fizzle",), "put_onto_field, or the use operation, of a card "
                                       "whose limiting condition does not match"),
    "no-signi-or-deck": (("fizzle",), "charm with no SIGNI on the field or an empty main "
                                      "deck"),
    "not-in-hand": (("fizzle",), "attach of a card that is not in the hand"),
    "empty-trash": (("refresh_waits",), "the refresh must wait: the trash is empty"),
    "empty-trash-no-life": (("refresh_waits",), "the refresh must wait: trash and life cloth "
                                                "are empty"),
    "left-trash": (("trigger_lost",), "a triggered ability that works from the trash"),
    "left-hand": (("trigger_lost",), "a triggered ability that works from the hand"),
    "left-ener": (("trigger_lost",), "a triggered ability that works from the ener zone"),
    "left-field": (("trigger_lost",), "a triggered ability that works from the field"),
    "end_phase": (("turn_end", "trigger_dropped"), "the turn ended after its end phase; "
                                                   "what still waited is dropped"),
    "second_refresh": (("turn_end", "trigger_dropped"), "the turn ended at the turn "
                                                        "player's second refresh (rule sets "
                                                        "where it does)"),
    "game_over": (("turn_end", "trigger_dropped"), "the game ended"),
    "damage": (("game_over",), "a player was damaged with no life cloth left"),
    "resisted": (("fizzle",), "an effect of a player whose effects the card is not "
                              "affected by (cannot be_affected)"),
    "cannot-be-chosen": (("fizzle",), "an effect names a card it cannot choose (Shadow, "
                                      "cannot be_chosen)"),
    "cannot-be-banished": (("fizzle",), "banish of a card that cannot be banished (by that "
                                        "player's effects, when by says so)"),
    "cannot-be-trashed": (("fizzle",), "trash of a card that cannot be put into the trash "
                                       "(by that player's effects, when by says so)"),
    "cannot-pay": (("fizzle",), "the use operation, without free, of a card whose cost "
                                "cannot be paid"),
    "cannot-use": (("fizzle",), "the use operation while an effect in force says the player "
                                "cannot use it"),
    "not-usable": (("fizzle",), "the use operation on a card that is neither an ARTS nor a "
                                "Spell"),
    "cannot-refresh": (("refresh_waits",), "an effect in force says the player cannot "
                                           "refresh"),
    "refresh-replaced": (("refresh_waits",), "a replacement took the refresh's place and the "
                                             "main deck is still empty"),
    "not-done": (("op_skipped",), "an if_done operation after one that did not do what it "
                                  "said"),
    "condition": (("op_skipped",), "an operation whose if condition does not hold"),
    "not-accessory": (("fizzle",), "attach of a card without the Accessory keyword"),
    "not-a-seed": (("fizzle",), "bloom of a card that is not a Seed"),
    "signi-in-zone": (("fizzle",), "bloom of a Seed whose SIGNI zone holds a SIGNI"),
    "already-riding": (("fizzle",), "ride while the centre LRIG already rides a SIGNI"),
    "no-same-name": (("fizzle",), "crystal_arm with no card of the SIGNI's name in the zone"),
    "no-rise-material": (("fizzle",), "put_onto_field of a Rise SIGNI whose material is not "
                                      "on the field"),
    "token-label-taken": (("fizzle",), "make_token with a label already made"),
    "marker-present": (("fizzle",), "set_virus or set_gate on a zone that holds that marker "
                                    "(or with no zone left without one)"),
    "no-marker": (("fizzle",), "remove_virus from a zone without a virus (or with none "
                               "left)"),
}


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def reason_codes() -> str:
    """docs/game-flow.md#reason-codes: the codes of refused actions."""
    from judge.engine.actions import ILLEGAL_REASONS

    lines = ["| code | the action is refused because | actions |", "| --- | --- | --- |"]
    for code, (meaning, actions) in ILLEGAL_REASONS.items():
        shown = ", ".join(a if a == "every action" else
                          "`" + a.replace(" (", "` (") + ("" if " (" in a else "`")
                          for a in actions)
        lines.append(f"| `{code}` | {_cell(meaning)} | {shown} |")
    return "\n".join(lines)


def event_reasons() -> str:
    """docs/events.md#reasons: the reasons events carry."""
    from judge.engine.events import REASONS

    lines = ["| reason | means | carried by | when |", "| --- | --- | --- | --- |"]
    for code, meaning in REASONS.items():
        events, when = REASON_CASES[code]
        lines.append(f"| `{code}` | {_cell(meaning)} | "
                     f"{', '.join(f'`{e}`' for e in events)} | {_cell(when)} |")
    return "\n".join(lines)


def choice_kinds() -> str:
    """docs/scenario-format.md#choices-and-exploration: the kinds of choices."""
    from judge.engine.choices import CHOICE_ANSWERS, CHOICE_KINDS

    lines = ["| kind | the player picks | the answers |", "| --- | --- | --- |"]
    for kind, what in CHOICE_KINDS.items():
        lines.append(f"| `{kind}` | {_cell(what)} | {_cell(CHOICE_ANSWERS[kind])} |")
    return "\n".join(lines)


def field_index() -> str:
    from judge.scenario.schema import index_table

    return index_table()


#: Each table: its name, the file it is in, what makes it.
TABLES: dict[str, tuple[str, Callable[[], str]]] = {
    "reason-codes": ("docs/game-flow.md", reason_codes),
    "event-reasons": ("docs/events.md", event_reasons),
    "choice-kinds": ("docs/scenario-format.md", choice_kinds),
    "field-index": ("docs/scenario-format.md", field_index),
}


def _block(name: str) -> re.Pattern[str]:
    return re.compile(rf"(<!-- generated: {re.escape(name)} [^\n]*-->\n)(.*?)"
                      rf"(<!-- end of generated: {re.escape(name)} -->)", re.S)


def stale(root: Path, write: bool = False) -> list[str]:
    """The tables whose file holds another text than :data:`TABLES` makes (with ``write``,
    written again); a table whose markers are missing is stale too."""
    out = []
    for name, (file, make) in TABLES.items():
        path = root / file
        text = path.read_text(encoding="utf-8")
        found = _block(name).search(text)
        table = make() + "\n"
        if found is None:
            out.append(f"{file}: no markers for the table {name}")
            continue
        if found.group(2) != table:
            out.append(f"{file}: the table {name} is not the one the code makes")
            if write:
                text = text[:found.start(2)] + table + text[found.end(2):]
                path.write_text(text, encoding="utf-8")
    return out


def main() -> None:
    from judge.paths import project_root

    problems = stale(project_root(), write=True)
    for line in problems:
        print(line)
    sys.exit(1 if any("no markers" in line for line in problems) else 0)


if __name__ == "__main__":
    main()
