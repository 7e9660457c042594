"""SIGNI classes: the one list of the classes a ruling may name, with their names.

A SIGNI's class is printed in angle brackets (<Weapon>) and effects count or choose SIGNI by it
(glossary term ``signi-class``). The rulings use made-up cards, so the classes here are the
few the corpus needs, each with its English name marked for translation; the catalogues give
the Japanese and Chinese names (``judge/locale``). A class not listed is refused where a ruling
names it (a card's ``class``, a condition's or filter's ``class``, a cost's
``discard.class``), with the list of valid ones: add a class here and to the catalogues.
"""

from __future__ import annotations

from typing import Any, Final

from judge.errors import FieldError
from judge.ids import quote
from judge.langs import N_

#: Each class id (as rulings write it) and its English name.
CLASSES: Final[dict[str, str]] = {
    "Weapon": N_("Weapon"),
    "Beast": N_("Beast"),
    "Angel": N_("Angel"),
    "Machine": N_("Machine"),
}


def parse_class(value: Any, where: str) -> str:
    """A class id from a ruling, or a :class:`FieldError` listing the valid ones.

    >>> parse_class("Weapon", "cards.S.class")
    'Weapon'
    >>> parse_class("Sword", "S.class")
    Traceback (most recent call last):
    ...
    judge.errors.FieldError: S.class: unknown class 'Sword' (valid: Weapon, Beast, Angel, Machine)
    """
    if isinstance(value, str) and value in CLASSES:
        return value
    raise FieldError(where, f"unknown class {quote(value)}", tuple(CLASSES))
