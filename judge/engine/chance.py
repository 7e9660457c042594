"""Random draws from a seeded :class:`random.Random`: a whole number below a bound, a shuffle.

The engine shuffles decks with these, and the random driver (:mod:`judge.engine.driver`) draws
its actions and answers with them. They give exactly the values that ``Random.randrange(n)``,
``Random.choice`` and ``Random.shuffle`` of CPython give for the same state of the generator
(rejection sampling on ``getrandbits(n.bit_length())``, as ``random.py`` does in Python 3.11
to 3.13; ``tests/test_chance.py`` holds them to it), so every seed plays the game it played
before. Written here, they are compiled with the engine (setup.py) and cost no interpreted
call, where ``random.py``'s are interpreted Python: about a tenth of a compiled random game.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from random import Random
from typing import TypeVar

T = TypeVar("T")


def below(rng: Random, n: int) -> int:
    """A whole number from 0 to ``n - 1``, each as likely: ``rng.randrange(n)``, for
    ``n >= 1``."""
    bits = n.bit_length()
    drawn = rng.getrandbits(bits)
    while drawn >= n:
        drawn = rng.getrandbits(bits)
    return drawn


def pick(rng: Random, items: Sequence[T]) -> T:
    """One of ``items`` (not empty), each as likely: ``rng.choice(items)``."""
    return items[below(rng, len(items))]


def shuffle(rng: Random, items: MutableSequence[T]) -> None:
    """Put ``items`` in a random order, in place: ``rng.shuffle(items)``."""
    for i in range(len(items) - 1, 0, -1):
        j = below(rng, i + 1)
        items[i], items[j] = items[j], items[i]
