"""Costs: ener by colour, down costs, Exceed, and changes to costs.

Sources: WIXOSS TCG Wiki "間違えやすいルール" (コスト; コストを変更する、あるいは修正する効果の
優先順位), Chinese wiki "WIXOSS/游戏规则" (无色, 万花色, 超越).

- Colourless ener in a cost can be paid with ener of any colour; a coloured requirement only
  with that colour. A colourless card in the ener zone pays only colourless.
- A card with multi ener pays as any one colour, which its player declares when paying.
- No over-payment: exactly as many ener cards as the cost asks for.
- A down cost is paid by downing the card; Exceed N puts N cards from under the centre LRIG
  into the LRIG trash.
- An effect that *changes* a cost (makes it X) applies before effects that *modify* it (add or
  take away), whatever their order in time.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from judge.errors import FieldError

if TYPE_CHECKING:
    from judge.engine.state import CardInstance

ENER_COLOURS = ("white", "red", "blue", "green", "black", "colourless")  # colourless last
MAX_PAYMENTS = 512


@dataclass(frozen=True)
class Cost:
    """A cost; the text form ``white:1,colourless:2,down,exceed:1`` round-trips."""

    ener: tuple[tuple[str, int], ...] = ()
    down: bool = False
    exceed: int = 0

    @property
    def ener_total(self) -> int:
        return sum(n for _, n in self.ener)

    @property
    def free(self) -> bool:
        return not self.ener and not self.down and not self.exceed

    def __str__(self) -> str:
        parts = [f"{c}:{n}" for c, n in self.ener]
        if self.down:
            parts.append("down")
        if self.exceed:
            parts.append(f"exceed:{self.exceed}")
        return ",".join(parts) or "free"

    @classmethod
    def parse(cls, text: str) -> Cost:
        if text in ("", "free"):
            return cls()
        ener: dict[str, int] = {}
        down, exceed = False, 0
        for part in text.split(","):
            name, _, count = part.strip().partition(":")
            if name == "down" and not count:
                down = True
                continue
            if not count.isdigit():
                raise FieldError("", f"cost part {part!r} needs a count, e.g. white:1")
            if name == "exceed":
                exceed = int(count)
            elif name in ENER_COLOURS:
                ener[name] = ener.get(name, 0) + int(count)
            else:
                raise FieldError("", f"unknown cost part {name!r}",
                                 (*ENER_COLOURS, "down", "exceed"))
        return cls(normalise(ener), down, exceed)


def parse_cost(raw: Any, where: str) -> Cost:
    """A cost from TOML: ``{ white = 1, colourless = 2, down = true, exceed = 1 }``."""
    if not isinstance(raw, Mapping):
        raise FieldError(where, f"expected a table such as {{ white = 1 }}, got {raw!r}")
    ener: dict[str, int] = {}
    down, exceed = False, 0
    for key, value in raw.items():
        if key == "down":
            if not isinstance(value, bool):
                raise FieldError(f"{where}.down", f"expected true or false, got {value!r}")
            down = value
            continue
        if key not in (*ENER_COLOURS, "exceed"):
            raise FieldError(f"{where}.{key}", "unknown cost part",
                             (*ENER_COLOURS, "down", "exceed"))
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise FieldError(f"{where}.{key}", f"expected a count of 0 or more, got {value!r}")
        if key == "exceed":
            exceed = value
        else:
            ener[key] = value
    return Cost(normalise(ener), down, exceed)


def normalise(ener: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """Colours in a fixed order, colourless last, zero counts dropped."""
    return tuple((c, ener[c]) for c in ENER_COLOURS if ener.get(c, 0) > 0)


def change_cost(cost: Cost, changes: Sequence[Mapping[str, int]],
                modifiers: Sequence[Mapping[str, int]]) -> Cost:
    """Apply cost *changes* (the last one wins) and then every *modification* in order."""
    ener = dict(cost.ener)
    for change in changes:
        ener = dict(change)
    for mod in modifiers:
        for colour, amount in mod.items():
            ener[colour] = max(0, ener.get(colour, 0) + amount)
    return Cost(normalise(ener), cost.down, cost.exceed)


def can_pay_as(card: CardInstance) -> tuple[str, ...]:
    """The colours an ener card can pay as: any with multi ener, else its own colours."""
    if "multi-ener" in card.card.keywords:
        return tuple(c for c in ENER_COLOURS if c != "colourless")
    return card.card.colour


def assign(cards: Sequence[CardInstance], cost: Cost) -> dict[str, str] | None:
    """Which colour each card pays for, or None when ``cards`` cannot pay ``cost`` exactly.

    Coloured requirements are matched first (bipartite matching by augmenting paths); the rest
    pay colourless, which any card can."""
    if len(cards) != cost.ener_total:
        return None
    slots = [c for c, n in cost.ener if c != "colourless" for _ in range(n)]
    if not slots:
        return {card.label: "colourless" for card in cards}
    if all(len(can_pay_as(card)) == 1 for card in cards):
        # one colour per card: counting is enough, and the first cards of a colour pay it
        need = dict(cost.ener)
        paid: dict[str, str] = {}
        for card in cards:
            colour = card.card.colour[0]
            if need.get(colour, 0) > 0 and colour != "colourless":
                need[colour] -= 1
                paid[card.label] = colour
            else:
                paid[card.label] = "colourless"
        return paid if all(n == 0 for c, n in need.items() if c != "colourless") else None
    owner: dict[int, int] = {}  # slot -> card index

    def augment(ci: int, seen: set[int]) -> bool:
        for si, colour in enumerate(slots):
            if si in seen or colour not in can_pay_as(cards[ci]):
                continue
            seen.add(si)
            if si not in owner or augment(owner[si], seen):
                owner[si] = ci
                return True
        return False

    for ci in range(len(cards)):
        augment(ci, set())
    if len(owner) < len(slots):
        return None
    matched = {cards[ci].label: slots[si] for si, ci in owner.items()}
    for card in cards:
        matched.setdefault(card.label, "colourless")
    return matched


def payable(ener: Sequence[CardInstance], cost: Cost) -> bool:
    """Whether some set of ener cards pays ``cost`` exactly (stops at the first found)."""
    if len(ener) < cost.ener_total:
        return False
    return any(assign(combo, cost) is not None
               for combo in itertools.combinations(ener, cost.ener_total))


def payments(ener: Sequence[CardInstance], cost: Cost) -> list[tuple[str, ...]]:
    """Every set of ener cards that pays ``cost`` exactly (labels, in ener-zone order)."""
    out: list[tuple[str, ...]] = []
    for combo in itertools.combinations(ener, cost.ener_total):
        if assign(combo, cost) is not None:
            out.append(tuple(c.label for c in combo))
            if len(out) >= MAX_PAYMENTS:
                break
    return out
