"""Dated rule sets, loaded from ``data/rulesets.toml``.

The engine asks a :class:`RuleSet` its flags; no code compares rule-set ids. Sources:
wikiwiki.jp WIXOSS "リフレッシュ" (the 2014-06-20 and 2014-08-27 notices, glossary of 2020) and
WIXOSS TCG Wiki "間違えやすいルール" (the launch-era deck-out procedure).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from judge.errors import FieldError
from judge.paths import data_dir

REFRESH_TIMINGS = ("interrupt", "after_effect")
EXCESS_ORDERS = ("level_then_limit", "level_changed_first")
BURST_COUNTS = ("exactly", "at_most")


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
    """

    id: str
    start: str
    title: dict[str, str]
    summary: dict[str, str]
    refresh_timing: str
    second_refresh_ends_turn: bool
    refresh_needs_trash: bool
    excess_order: str
    burst_count: str
    sources: tuple[str, ...]

    @property
    def refresh_interrupts(self) -> bool:
        return self.refresh_timing == "interrupt"

    def __str__(self) -> str:
        return self.id


def parse_rulesets(data: dict[str, object]) -> dict[str, RuleSet]:
    out: dict[str, RuleSet] = {}
    entries = data.get("ruleset")
    if not isinstance(entries, list):
        raise FieldError("ruleset", "expected an array of [[ruleset]] tables")
    for i, raw in enumerate(entries):
        where = f"ruleset[{i}]"
        if not isinstance(raw, dict):
            raise FieldError(where, "expected a table")
        timing = raw.get("refresh_timing")
        if timing not in REFRESH_TIMINGS:
            raise FieldError(f"{where}.refresh_timing", f"unknown timing {timing!r}",
                             REFRESH_TIMINGS)
        order = raw.get("excess_order")
        if order not in EXCESS_ORDERS:
            raise FieldError(f"{where}.excess_order", f"unknown order {order!r}", EXCESS_ORDERS)
        bursts = raw.get("burst_count")
        if bursts not in BURST_COUNTS:
            raise FieldError(f"{where}.burst_count", f"unknown value {bursts!r}", BURST_COUNTS)
        for flag in ("second_refresh_ends_turn", "refresh_needs_trash"):
            if not isinstance(raw.get(flag), bool):
                raise FieldError(f"{where}.{flag}", "expected true or false")
        rid = str(raw.get("id", ""))
        if not rid or rid in out:
            raise FieldError(f"{where}.id", f"missing or repeated id {rid!r}")
        out[rid] = RuleSet(
            id=rid, start=str(raw.get("from", "")),
            title=dict(raw.get("title", {})), summary=dict(raw.get("summary", {})),
            refresh_timing=str(timing),
            second_refresh_ends_turn=bool(raw["second_refresh_ends_turn"]),
            refresh_needs_trash=bool(raw["refresh_needs_trash"]),
            excess_order=str(order),
            burst_count=str(bursts),
            sources=tuple(str(s) for s in raw.get("sources", [])),
        )
    return out


@cache
def _load(path: Path) -> dict[str, RuleSet]:
    with path.open("rb") as fh:
        return parse_rulesets(tomllib.load(fh))


def load_rulesets(path: Path | None = None) -> dict[str, RuleSet]:
    """All rule sets in date order, keyed by id."""
    return _load(path or data_dir() / "rulesets.toml")
