"""Dated rule sets: the :class:`RuleSet` values and how they are parsed.

The engine asks a :class:`RuleSet` its flags; no code compares rule-set ids. The engine reads
no files: :func:`judge.data.load_rulesets` reads ``data/rulesets.toml`` and hands the parsed
table to :func:`parse_rulesets`. Sources: wixoss.81.la "リフレッシュ" (the 2014-06-20 and
2014-08-27 notices, glossary of 2020) and WIXOSS TCG Wiki "間違えやすいルール" (2014: the
launch-era deck-out procedure).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from judge.errors import FieldError
from judge.ids import check_id, is_date, quote
from judge.langs import LANGS

REFRESH_TIMINGS: Final = ("interrupt", "after_effect")
EXCESS_ORDERS: Final = ("level_then_limit", "level_changed_first")
BURST_COUNTS: Final = ("exactly", "at_most")
GROW_RULES: Final = ("up_one_or_not_higher", "up_one_only")
REMOVE_RULES: Final = ("any_time", "once_per_turn")
#: The rules the engine can break on purpose (:attr:`RuleSet.broken`), each read in one place:
#: ``rule-processing-forgotten`` (nothing of rule processing happens:
#: :func:`judge.engine.rule_processing.check`), ``one-kind-at-a-time`` (a round of rule
#: processing applies only its first kind, the others waiting for the next round: the same
#: function), ``crush-is-damage`` (a crush with no life cloth left deals damage, so the
#: other player wins: :func:`judge.engine.ops.crush`), ``damage-accumulates`` (a SIGNI is
#: banished in battle once the attack powers it met this turn add up to its power:
#: :func:`judge.engine.battle.signi_attack`), ``tie-not-banished`` (a SIGNI of the same power
#: as its attacker survives the battle: the same function), ``down-signi-does-not-block``
#: (a down SIGNI in front lets the attack through to the player: the same function).
BROKEN_RULES: Final = ("rule-processing-forgotten", "one-kind-at-a-time", "crush-is-damage",
                       "damage-accumulates", "tie-not-banished", "down-signi-does-not-block")


@dataclass(frozen=True)
class RuleSet:
    """One dated rule set.

    - ``refresh_timing``: ``interrupt`` (2014-04: the refresh happens the moment the main deck
      reaches zero, even inside an effect or between the two draws of the draw phase) or
      ``after_effect`` (2014-07 on: it waits until the one effect has resolved as far as it can).
    - ``second_refresh_ends_turn``: the turn player's second refresh in a turn ends that turn
      (2014-09 on).
    - ``refresh_needs_trash``: with an empty trash no refresh happens (current glossary); when
      false, an empty trash makes the refresh put a life cloth into the trash and build the new
      deck from it (launch-era procedure).
    - ``excess_order``: ``level_then_limit`` (2014: level-exceeding SIGNI first, then any SIGNI
      until the limit holds) or ``level_changed_first`` (glossary 2020: SIGNI whose level changed
      since the previous check come before the others).
    - ``burst_count``: a main deck holds ``exactly`` or ``at_most`` 20 Life Burst cards.
    - ``grow``: ``up_one_or_not_higher`` (2014: up exactly one level, or to any level not
      above the centre LRIG's) or ``up_one_only`` (the Chinese rules page: exactly one level
      up; no skipping, no same level, no growing down).
    - ``remove``: ``any_time`` (2014: as often as one likes in one's main phase) or
      ``once_per_turn`` (the Chinese rules page: once a turn, any number of SIGNI at once).
    """

    id: str
    start: str
    title: dict[str, str]
    summary: dict[str, str]
    #: The short name pages show where the id would stand (a chip, "Under ..."), by
    #: language; a dated rule set has none and is shown as its id, which is its date.
    label: dict[str, str]
    refresh_timing: str
    second_refresh_ends_turn: bool
    refresh_needs_trash: bool
    excess_order: str
    burst_count: str
    grow: str
    remove: str
    sources: tuple[str, ...]
    #: Rules broken on purpose, the way players get them wrong (:data:`BROKEN_RULES`): never
    #: read from ``rulesets.toml``; the judge-training quiz (:mod:`judge.quiz.mistakes`)
    #: replays a question with one broken to compute a wrong answer.
    broken: frozenset[str] = field(default=frozenset())

    @property
    def refresh_interrupts(self) -> bool:
        return self.refresh_timing == "interrupt"

    @property
    def date(self) -> tuple[int, ...]:
        """``start`` as numbers (``2014-07-01`` -> (2014, 7, 1)), to compare with the date a
        mechanic appears (:func:`judge.engine.eras.problem`)."""
        return date_key(self.start)

    def short_name(self, lang: str) -> str:
        """The label in ``lang`` (else English), or else the id (a date reads alike in every
        language)."""
        return self.label.get(lang) or self.label.get("en") or self.id

    def __str__(self) -> str:
        return self.id


RULESET_FIELDS: Final = ("id", "from", "title", "summary", "label", "refresh_timing",
                         "second_refresh_ends_turn", "refresh_needs_trash", "excess_order",
                         "burst_count", "grow", "remove", "sources")


def date_key(text: str) -> tuple[int, ...]:
    """A date ``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` as numbers, missing parts 0; the
    dates of rule sets and mechanics compare as these (``2020`` is not after ``2020-01``).

    >>> date_key("2014-07-01") < date_key("2020")
    True
    """
    parts = [int(p) for p in text.split("-")]
    return tuple(parts + [0] * (3 - len(parts)))


def _lang_texts(raw: object, where: str) -> dict[str, str]:
    if not isinstance(raw, dict):
        raise FieldError(where, f"expected a table of {', '.join(LANGS)} texts, got "
                                f"{quote(raw)}")
    for lang, text in raw.items():
        if lang not in LANGS:
            raise FieldError(f"{where}.{lang}", "unknown language", LANGS)
        if not isinstance(text, str):
            raise FieldError(f"{where}.{lang}", f"expected text, got {quote(text)}")
    return dict(raw)


def parse_rulesets(data: dict[str, object]) -> dict[str, RuleSet]:
    """Rule sets from the parsed ``rulesets.toml``; a bad field is a :class:`FieldError`."""
    out: dict[str, RuleSet] = {}
    for key in data:
        if key != "ruleset":
            raise FieldError(key, "unknown field", ("ruleset",))
    entries = data.get("ruleset")
    if not isinstance(entries, list) or not entries:
        raise FieldError("ruleset", "expected an array of [[ruleset]] tables")
    for i, raw in enumerate(entries):
        where = f"ruleset[{i}]"
        if not isinstance(raw, dict):
            raise FieldError(where, "expected a table")
        for key in raw:
            if key not in RULESET_FIELDS:
                raise FieldError(f"{where}.{key}", "unknown field", RULESET_FIELDS)
        if "id" not in raw:
            raise FieldError(f"{where}.id", "missing")
        rid = check_id(raw["id"], f"{where}.id", "rule set id")
        if rid in out:
            raise FieldError(f"{where}.id", f"rule set id {rid!r} is used twice")
        start = raw.get("from", "")
        if not is_date(start):
            raise FieldError(f"{where}.from", f"{quote(start)} is not a date "
                                              "(YYYY, YYYY-MM or YYYY-MM-DD)")
        timing = raw.get("refresh_timing")
        if timing not in REFRESH_TIMINGS:
            raise FieldError(f"{where}.refresh_timing", f"unknown timing {quote(timing)}",
                             REFRESH_TIMINGS)
        order = raw.get("excess_order")
        if order not in EXCESS_ORDERS:
            raise FieldError(f"{where}.excess_order", f"unknown order {quote(order)}",
                             EXCESS_ORDERS)
        bursts = raw.get("burst_count")
        if bursts not in BURST_COUNTS:
            raise FieldError(f"{where}.burst_count", f"unknown value {quote(bursts)}",
                             BURST_COUNTS)
        grow = raw.get("grow")
        if grow not in GROW_RULES:
            raise FieldError(f"{where}.grow", f"unknown value {quote(grow)}", GROW_RULES)
        remove = raw.get("remove")
        if remove not in REMOVE_RULES:
            raise FieldError(f"{where}.remove", f"unknown value {quote(remove)}", REMOVE_RULES)
        for flag in ("second_refresh_ends_turn", "refresh_needs_trash"):
            if not isinstance(raw.get(flag), bool):
                raise FieldError(f"{where}.{flag}", "expected true or false", ("true", "false"))
        sources = raw.get("sources", [])
        if not isinstance(sources, list):
            raise FieldError(f"{where}.sources", f"expected a list of text, got "
                                                 f"{quote(sources)}")
        for j, source in enumerate(sources):
            if not isinstance(source, str):
                raise FieldError(f"{where}.sources[{j}]", f"expected text, got {quote(source)}")
        out[rid] = RuleSet(
            id=rid, start=str(start),
            title=_lang_texts(raw.get("title", {}), f"{where}.title"),
            summary=_lang_texts(raw.get("summary", {}), f"{where}.summary"),
            label=_lang_texts(raw.get("label", {}), f"{where}.label"),
            refresh_timing=str(timing),
            second_refresh_ends_turn=bool(raw["second_refresh_ends_turn"]),
            refresh_needs_trash=bool(raw["refresh_needs_trash"]),
            excess_order=str(order),
            burst_count=str(bursts),
            grow=str(grow),
            remove=str(remove),
            sources=tuple(sources),
        )
    return out

