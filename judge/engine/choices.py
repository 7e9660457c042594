"""Choices: who chooses what, scripted answers and the exploration of every branch.

Every decision a player makes is a :class:`Choice`. A scenario scripts answers in order; where
it does not, :class:`Branching` answers so that a driver can walk every branch (OpenSpiel's
idea of decisions and chance as explicit nodes).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Final, Protocol

from judge.errors import JudgeError

#: Kinds of choice, with what a scripted answer names.
CHOICE_KINDS: Final[dict[str, str]] = {
    "target": "the cards an effect acts on",
    "zone": "the SIGNI zone a card is put into",
    "trigger_order": "which of a player's waiting triggered abilities resolves next",
    "burst_order": "which of several crushed cards' Life Bursts resolves next",
    "use": "whether to use an optional ability or a Life Burst (yes or no)",
    "rule_order": "which rule processing applies first to a card that two kinds would move",
    "excess": "which SIGNI goes to the trash for a level or limit excess",
    "over_limit": "which cards go to the trash for a zone's upper limit",
    "discard": "which cards to put into the trash",
    "pay": "which ener cards pay a cost (an option joins their labels with +)",
    "exceed": "which cards under the centre LRIG pay Exceed",
    "guard": "which Guard card to put into the trash against a LRIG attack, or none",
    "cut_in": "which ARTS to use with Spell Cut-In, or none",
    "mode": "which modes of a card or an ability to use (mode1 is the first printed)",
    "replace": "which of several replacement effects applies (by its ability)",
    "order": "which of the cards looked at goes next, from the top, when they are put on "
             "the top or the bottom of the main deck in any order",
}

#: What the answers of each kind of choice are, as ``[[choices]]`` ``pick`` writes them (in
#: docs/scenario-format.md, made from this table and :data:`CHOICE_KINDS`).
CHOICE_ANSWERS: Final[dict[str, str]] = {
    "target": "card labels",
    "zone": "SIGNI zones: signi1, signi2, signi3",
    "trigger_order": "abilities: LABEL#N",
    "burst_order": "card labels",
    "use": "yes, no",
    "rule_order": "kinds of rule processing (power, excess, ...)",
    "excess": "card labels",
    "over_limit": "card labels",
    "discard": "card labels",
    "pay": "a set of ener cards that pays the cost exactly, their labels joined by + in "
           "ener-zone order (w1+r1); asked only when more than one set does",
    "exceed": "card labels",
    "guard": "labels of the Guard cards in the hand, and none",
    "cut_in": "labels of the ARTS with Spell Cut-In that can be used, and none",
    "mode": "mode1, mode2, ... in printed order",
    "replace": "abilities: LABEL#N, or in-force",
    "order": "card labels",
}

MAX_ANSWERS: Final = 256


@dataclass(frozen=True)
class Choice:
    """A decision: ``player`` picks between ``min_count`` and ``max_count`` of ``options``."""

    player: str
    kind: str
    options: tuple[str, ...]
    min_count: int = 1
    max_count: int = 1
    prompt: str = ""

    def answers(self) -> list[tuple[str, ...]]:
        """Every legal answer, in a stable order (at most :data:`MAX_ANSWERS`)."""
        out: list[tuple[str, ...]] = []
        for n in range(self.min_count, self.max_count + 1):
            for combo in itertools.combinations(self.options, n):
                out.append(combo)
                if len(out) >= MAX_ANSWERS:
                    return out
        return out

    def accepts(self, answer: Sequence[str]) -> bool:
        """Whether ``answer`` picks between ``min_count`` and ``max_count`` of the options,
        none twice."""
        n = len(answer)
        if not self.min_count <= n <= self.max_count:
            return False
        if n == 1:  # the usual answer
            return answer[0] in self.options
        return len(set(answer)) == n and all(a in self.options for a in answer)


class ChoiceError(JudgeError):
    """A scripted answer does not fit the choice the engine asks for."""


class ChoiceSource(Protocol):
    def pick(self, choice: Choice) -> tuple[str, ...]: ...


@dataclass(frozen=True)
class Scripted:
    """One scripted answer from a scenario. ``where`` names it in messages; a loaded ruling
    gives ``at`` (``choices[2]``) and ``locate`` instead, and the ``path:line: field`` form
    is made only when a message needs it (:meth:`place`): finding a line scans the file."""

    pick: tuple[str, ...]
    player: str | None = None
    kind: str | None = None
    where: str = ""
    at: str = ""
    locate: Callable[[str], str] | None = field(default=None, compare=False, repr=False)

    def place(self) -> str:
        """Where this answer is written, as messages show it."""
        return self.locate(self.at) if self.locate is not None else self.where


@dataclass
class Branching:
    """Follows ``prefix`` (answer indices), then takes the first answer and records the rest."""

    prefix: list[int] = field(default_factory=list)
    taken: list[int] = field(default_factory=list)
    counts: list[int] = field(default_factory=list)

    def pick(self, choice: Choice) -> tuple[str, ...]:
        answers = choice.answers()
        depth = len(self.taken)
        index = self.prefix[depth] if depth < len(self.prefix) else 0
        index = min(index, len(answers) - 1)
        self.taken.append(index)
        self.counts.append(len(answers))
        return answers[index]

    def children(self) -> Iterator[list[int]]:
        """Prefixes of the branches not yet taken below this run's own prefix."""
        for depth in range(len(self.taken) - 1, len(self.prefix) - 1, -1):
            for alt in range(self.counts[depth] - 1, 0, -1):
                yield self.taken[:depth] + [alt]


@dataclass
class ScriptThenBranch:
    """Scripted answers first; once they run out, branch (or take the first answer)."""

    script: list[Scripted]
    branching: Branching = field(default_factory=Branching)
    used: int = 0
    unscripted: int = 0

    def pick(self, choice: Choice) -> tuple[str, ...]:
        if self.used < len(self.script):
            entry = self.script[self.used]
            self.used += 1
            if entry.player is not None and entry.player != choice.player:
                raise ChoiceError(
                    f"{entry.place()}: scripted for {entry.player}, but {choice.player} chooses "
                    f"now ({choice.kind}: {', '.join(choice.options)})")
            if entry.kind is not None and entry.kind != choice.kind:
                raise ChoiceError(
                    f"{entry.place()}: scripted as {entry.kind!r}, but the engine asks for "
                    f"{choice.kind!r} ({', '.join(choice.options)})")
            if not choice.accepts(entry.pick):
                raise ChoiceError(
                    f"{entry.place()}: {list(entry.pick)} is not a legal answer to {choice.kind} "
                    f"for {choice.player} (pick {choice.min_count}..{choice.max_count} of: "
                    f"{', '.join(choice.options)})")
            return entry.pick
        self.unscripted += 1
        return self.branching.pick(choice)
