"""Costs: ener by colour, down costs, Exceed, and changes to costs.

Sources: WIXOSS TCG Wiki "間違えやすいルール" (コスト; コストを変更する、あるいは修正する効果の
優先順位), Chinese wiki "WIXOSS/游戏规则" (无色, 万花色, 超越).

- Colourless ener in a cost can be paid with ener of any colour; a coloured requirement only
  with that colour. A colourless card in the ener zone pays only colourless.
- A card with multi ener pays as any one colour, which its player declares when paying (a
  keyword whose ``pays_any_colour`` says so: :mod:`judge.engine.mechanics.multi_ener`).
- No over-payment: exactly as many ener cards as the cost asks for.
- A down cost is paid by downing the card; Exceed N puts N cards from under the centre LRIG
  into the LRIG trash.
- An effect that *changes* a cost (makes it X) applies before effects that *modify* it (add or
  take away), whatever their order in time.
- A requirement may name two or more colours (``red_or_green``: "red or green"): one ener of
  any of them pays it (a multi ener card too); colourless does not.
- A discard part (``discard``: cards from the hand into the trash, optionally only SIGNI of a
  class) is paid with the rest of the cost, before any target is chosen (003, コスト: declare,
  choose modes, pay costs, choose targets; the cards paid may be chosen as targets). With
  ``at_most`` its count varies (issue 30): the player discards from ``count`` to ``at_most``
  cards, as many as they choose, and the effect may count them (``for_each = "paid"``,
  :mod:`judge.engine.amounts`).
- A ``remove_virus`` part removes that many viruses from the opponent's SIGNI zones, which its
  player chooses (:mod:`judge.engine.mechanics.virus`): payable only while there are as many.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

from judge.engine import mechanics
from judge.engine.classes import parse_class
from judge.errors import FieldError
from judge.ids import quote
from judge.limits import MAX_COUNT

if TYPE_CHECKING:
    from judge.engine.state import CardInstance

ENER_COLOURS: Final = ("white", "red", "blue", "green", "black", "colourless")  # colourless last
MAX_PAYMENTS: Final = 512
_COLOURED: Final = ENER_COLOURS[:-1]
_OR: Final = "_or_"
COST_PARTS: Final = (*ENER_COLOURS, "COLOUR_or_COLOUR", "down", "exceed", "discard",
                     "remove_virus")


def alternatives(requirement: str) -> tuple[str, ...]:
    """The colours a requirement accepts: ``red_or_green`` -> (red, green); ``white`` ->
    (white,)."""
    return tuple(requirement.split(_OR)) if _OR in requirement else (requirement,)


def requirement(name: str) -> str | None:
    """``name`` as a requirement of a cost (a colour, colourless, or two or more colours
    joined by ``_or_``, written in the fixed colour order), or None if it is none."""
    if name in ENER_COLOURS:
        return name
    parts = name.split(_OR)
    if len(parts) < 2 or len(set(parts)) != len(parts) or \
            not all(p in _COLOURED for p in parts):
        return None
    return _OR.join(sorted(parts, key=_COLOURED.index))


@dataclass(frozen=True)
class Cost:
    """A cost; the text form ``white:1,red_or_green:1,colourless:2,down,exceed:1,discard:1``
    round-trips (``discard:1:CLASS``: a SIGNI of that class)."""

    ener: tuple[tuple[str, int], ...] = ()
    down: bool = False
    exceed: int = 0
    #: cards from the hand into the trash; with ``discard_class``, SIGNI of that class only
    discard: int = 0
    discard_class: str = ""
    #: a discard whose count varies: at most this many (0: exactly ``discard``)
    discard_max: int = 0
    #: viruses removed from the opponent's SIGNI zones (judge/engine/mechanics/virus.py)
    remove_virus: int = 0

    @property
    def ener_total(self) -> int:
        return sum(n for _, n in self.ener)

    @property
    def free(self) -> bool:
        return not self.ener and not self.down and not self.exceed and not self.discard \
            and not self.discard_max and not self.remove_virus

    def __str__(self) -> str:
        parts = [f"{c}:{n}" for c, n in self.ener]
        if self.down:
            parts.append("down")
        if self.exceed:
            parts.append(f"exceed:{self.exceed}")
        if self.discard or self.discard_max:
            most = f"-{self.discard_max}" if self.discard_max else ""
            parts.append(f"discard:{self.discard}{most}" +
                         (f":{self.discard_class}" if self.discard_class else ""))
        if self.remove_virus:
            parts.append(f"remove_virus:{self.remove_virus}")
        return ",".join(parts) or "free"

    @classmethod
    def parse(cls, text: str) -> Cost:
        if text in ("", "free"):
            return cls()
        ener: dict[str, int] = {}
        down, exceed, discard, discard_class, discard_max = False, 0, 0, "", 0
        viruses = 0
        for part in text.split(","):
            name, _, count = part.strip().partition(":")
            if name == "down" and not count:
                down = True
                continue
            if name == "discard":
                count, _, discard_class = count.partition(":")
                count, _, most = count.partition("-")
                discard_max = int(most) if most.isdigit() else 0
            if not count.isdigit():
                raise FieldError("", f"cost part {quote(part)} needs a count, e.g. white:1")
            colour = requirement(name)
            if name == "exceed":
                exceed = int(count)
            elif name == "discard":
                discard = int(count)
            elif name == "remove_virus":
                viruses = int(count)
            elif colour is not None:
                ener[colour] = ener.get(colour, 0) + int(count)
            else:
                raise FieldError("", f"unknown cost part {quote(name)}", COST_PARTS)
        return cls(normalise(ener), down, exceed, discard, discard_class, discard_max, viruses)


def parse_cost(raw: Any, where: str) -> Cost:
    """A cost from TOML: ``{ white = 1, red_or_green = 1, colourless = 2, down = true,
    exceed = 1, discard = 1 }``; ``discard = { count = 1, class = "Weapon" }`` discards SIGNI
    of that class only."""
    if not isinstance(raw, Mapping):
        raise FieldError(where, f"expected a table such as {{ white = 1 }}, got {quote(raw)}")
    ener: dict[str, int] = {}
    down, exceed, discard, discard_class, discard_max = False, 0, 0, "", 0
    viruses = 0
    for key, value in raw.items():
        if key == "down":
            if not isinstance(value, bool):
                raise FieldError(f"{where}.down", f"expected true or false, got {quote(value)}")
            down = value
            continue
        if key == "discard" and isinstance(value, Mapping):
            for sub in value:
                if sub not in DISCARD_KEYS:
                    raise FieldError(f"{where}.discard.{sub}", "unknown field", DISCARD_KEYS)
            discard_class = parse_class(value.get("class"), f"{where}.discard.class") \
                if "class" in value else ""
            if "at_most" in value:
                discard_max = _most(value, where)
            value = value.get("count", 1)
            key_where = f"{where}.discard.count"
        else:
            key_where = f"{where}.{key}"
        colour = requirement(key)
        if key not in ("exceed", "discard", "remove_virus") and colour is None:
            raise FieldError(f"{where}.{key}", "unknown cost part", COST_PARTS)
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise FieldError(key_where, f"expected a count of 0 or more, got {quote(value)}")
        if value > MAX_COUNT:
            raise FieldError(key_where, f"must be at most {MAX_COUNT} (docs/limits.md), "
                                        f"got {value}")
        if key == "exceed":
            exceed = value
        elif key == "discard":
            discard = value
        elif key == "remove_virus":
            viruses = value
        else:
            assert colour is not None
            ener[colour] = ener.get(colour, 0) + value
    return Cost(normalise(ener), down, exceed, discard,
                discard_class if discard or discard_max else "", discard_max, viruses)


#: The keys of a discard part written as a table.
DISCARD_KEYS: Final = ("count", "class", "at_most")


def _most(table: Mapping[str, Any], where: str) -> int:
    """A discard part's ``at_most``: more than its ``count``, at most MAX_COUNT."""
    most = table["at_most"]
    count = table.get("count", 1)
    if isinstance(most, bool) or not isinstance(most, int) or not 1 <= most <= MAX_COUNT:
        raise FieldError(f"{where}.discard.at_most", f"expected a whole number from 1 to "
                                                     f"{MAX_COUNT}, got {quote(most)}")
    if isinstance(count, int) and not isinstance(count, bool) and most <= count:
        raise FieldError(f"{where}.discard.at_most", f"must be more than the count "
                                                     f"{count}, got {most}")
    return most


def normalise(ener: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    """Colours in a fixed order (either-colour requirements after the single colours),
    colourless last, zero counts dropped."""
    singles = [(c, ener[c]) for c in _COLOURED if ener.get(c, 0) > 0]
    either = sorted((c, n) for c, n in ener.items() if _OR in c and n > 0)
    tail = [("colourless", ener["colourless"])] if ener.get("colourless", 0) > 0 else []
    return tuple(singles + either + tail)


def _pays(requirement: str, colours: tuple[str, ...]) -> bool:
    """Whether a card that can pay as ``colours`` pays ``requirement``."""
    if requirement in colours:
        return True
    return _OR in requirement and any(c in colours for c in requirement.split(_OR))


def change_cost(cost: Cost, changes: Sequence[Mapping[str, int]],
                modifiers: Sequence[Mapping[str, int]]) -> Cost:
    """Apply cost *changes* (the last one wins) and then every *modification* in order."""
    ener = dict(cost.ener)
    for change in changes:
        ener = dict(change)
    for mod in modifiers:
        for colour, amount in mod.items():
            ener[colour] = max(0, ener.get(colour, 0) + amount)
    return Cost(normalise(ener), cost.down, cost.exceed, cost.discard, cost.discard_class,
                cost.discard_max, cost.remove_virus)


def can_pay_as(card: CardInstance) -> tuple[str, ...]:
    """The colours an ener card can pay as: any with multi ener, else its own colours."""
    keywords = card.card.keywords
    if keywords and mechanics.pays_any_colour(keywords):
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
    if all(len(can_pay_as(card)) == 1 for card in cards) and \
            not any(_OR in c for c, _ in cost.ener):
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
    # Augmenting paths (Kuhn's algorithm), the slots tried in order. The slots of one colour
    # form a block; within one search the slots already seen in a block are always its first
    # ones, so a pointer per block stands for the seen set, and an explicit stack for the
    # recursion (a path may be as long as the cost).
    blocks: list[tuple[str, int, int]] = []  # colour, first slot, end
    for colour, n in cost.ener:
        if colour != "colourless":
            start = blocks[-1][2] if blocks else 0
            blocks.append((colour, start, start + n))
    card_blocks = [[b for b, (colour, _, _) in enumerate(blocks)
                    if _pays(colour, can_pay_as(card))] for card in cards]
    for root in range(len(cards)):
        _augment(root, card_blocks, [b[1] for b in blocks], [b[2] for b in blocks], owner)
    if len(owner) < len(slots):
        return None
    matched = {cards[ci].label: _as(slots[si], cards[ci]) for si, ci in owner.items()}
    for card in cards:
        matched.setdefault(card.label, "colourless")
    return matched


def _as(requirement: str, card: CardInstance) -> str:
    """The colour ``card`` pays ``requirement`` as (for an either-colour requirement, the
    first of its colours the card can pay as)."""
    if _OR not in requirement:
        return requirement
    colours = can_pay_as(card)
    return next(c for c in requirement.split(_OR) if c in colours)


def _augment(root: int, card_blocks: list[list[int]], seen_to: list[int], ends: list[int],
             owner: dict[int, int]) -> bool:
    """One augmenting-path search from card ``root``: as the recursive search that tries, for
    each card, every slot it can pay in order and not yet seen, taking a free one or else
    asking the slot's owner to move; ``seen_to[b]`` is the first slot of block b not seen."""
    stack = [[root, 0, -1]]  # card, index into its blocks, slot asked of the owner
    ret: bool | None = None
    while stack:
        frame = stack[-1]
        if ret is not None:  # a search asked of an owner has ended
            if ret:
                owner[frame[2]] = frame[0]
                stack.pop()
                continue
            ret = None
        mine = card_blocks[frame[0]]
        while frame[1] < len(mine):
            b = mine[frame[1]]
            if seen_to[b] >= ends[b]:
                frame[1] += 1
                continue
            slot = seen_to[b]
            seen_to[b] += 1
            if slot not in owner:
                owner[slot] = frame[0]
                ret = True
                stack.pop()
            else:
                frame[2] = slot
                stack.append([owner[slot], 0, -1])
            break
        else:
            stack.pop()
            ret = False
    return bool(ret)


class _Coverage:
    """Whether chosen cards, plus up to ``k`` more from the rest, can pay a cost's coloured
    part. Slots of one colour are alike and so are cards that pay the same needed colours, so
    Hall's condition is checked per set of needed colours (at most 31) over card groups (at
    most 32): for each set T, the slots of T need at most as many cards that pay some colour
    of T, counting at most ``k`` of the rest. Any card pays colourless."""

    def __init__(self, cost: Cost) -> None:
        self.colours = [c for c, _ in cost.ener if c != "colourless"]
        need = dict(cost.ener)
        width = 1 << len(self.colours)
        self.width = width
        self.sets = []
        for subset in range(1, width):
            demand = sum(need[c] for i, c in enumerate(self.colours) if subset >> i & 1)
            self.sets.append((demand, [m for m in range(width) if m & subset]))
        #: (printed colours, printed keywords) -> mask: all that can_pay_as reads of a card
        self._masks: dict[tuple[tuple[str, ...], tuple[str, ...]], int] = {}

    @staticmethod
    def of(cost: Cost) -> _Coverage:
        """The coverage of ``cost``, made once per distinct cost (it is a function of the
        cost's value alone; :data:`_COVERS` keeps at most :data:`_MAX_COVERS`)."""
        cover = _COVERS.get(cost)
        if cover is None:
            if len(_COVERS) >= _MAX_COVERS:
                _COVERS.clear()
            cover = _COVERS[cost] = _Coverage(cost)
        return cover

    def mask(self, card: CardInstance) -> int:
        """The needed colours ``card`` can pay, as bits; a function of its printed colours
        and keywords (:func:`can_pay_as`), remembered per pair."""
        definition = card.card
        key = (definition.colour, definition.keywords)
        mask = self._masks.get(key)
        if mask is None:
            paid = can_pay_as(card)
            mask = self._masks[key] = sum(1 << i for i, c in enumerate(self.colours)
                                          if _pays(c, paid))
        return mask

    def feasible(self, chosen: Sequence[int], rest: Sequence[int], k: int) -> bool:
        for demand, masks in self.sets:
            have = sum(chosen[m] for m in masks)
            if have < demand and have + min(k, sum(rest[m] for m in masks)) < demand:
                return False
        return True


#: Cost -> its coverage (_Coverage.of): a cache of a pure function of the cost's value, so
#: nothing invalidates it; cleared when it holds _MAX_COVERS costs (a ruling may make many
#: changed costs).
_COVERS: Final[dict[Cost, _Coverage]] = {}
_MAX_COVERS: Final = 256


def payable(ener: Sequence[CardInstance], cost: Cost) -> bool:
    """Whether some set of ener cards pays ``cost`` exactly (without trying each set)."""
    total = cost.ener_total
    if len(ener) < total:
        return False
    cover = _Coverage.of(cost)
    counts = [0] * cover.width
    for card in ener:
        counts[cover.mask(card)] += 1
    return cover.feasible([0] * cover.width, counts, total)


def payments(ener: Sequence[CardInstance], cost: Cost) -> list[tuple[str, ...]]:
    """Every set of ener cards that pays ``cost`` exactly (labels, in ener-zone order), at most
    :data:`MAX_PAYMENTS`: the sets ``itertools.combinations`` gives that ``assign`` accepts,
    in its order, found by a depth-first search that enters only branches that can still be
    completed (so a hostile ener zone cannot make it try every combination)."""
    total, n = cost.ener_total, len(ener)
    if n < total:
        return []
    cover = _Coverage.of(cost)
    if not cover.colours:
        return [tuple(c.label for c in combo)
                for combo in itertools.islice(itertools.combinations(ener, total), MAX_PAYMENTS)]
    masks = [cover.mask(card) for card in ener]
    suffix = [[0] * cover.width for _ in range(n + 1)]  # mask counts of ener[i:]
    for i in range(n - 1, -1, -1):
        suffix[i] = suffix[i + 1].copy()
        suffix[i][masks[i]] += 1
    chosen = [0] * cover.width
    out: list[tuple[str, ...]] = []
    path: list[int] = []
    failed: list[set[int]] = [set()]  # per depth: masks that cannot be taken any more there
    nxt = 0
    if not cover.feasible(chosen, suffix[0], total):
        return out
    while True:
        k = total - len(path)
        descended = False
        if k == 0:
            out.append(tuple(ener[j].label for j in path))
            if len(out) >= MAX_PAYMENTS:
                return out
        else:
            while nxt <= n - k:
                j, m = nxt, masks[nxt]
                nxt += 1
                if m in failed[-1]:
                    continue  # a later card of the same group cannot do better
                chosen[m] += 1
                if cover.feasible(chosen, suffix[j + 1], k - 1):
                    path.append(j)
                    failed.append(set())
                    descended = True
                    break
                chosen[m] -= 1
                failed[-1].add(m)
        if descended:
            continue  # the next depth starts after the card just taken
        if not path:
            return out
        j = path.pop()
        failed.pop()
        chosen[masks[j]] -= 1
        nxt = j + 1
