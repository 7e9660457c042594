"""What the event families share: the registry of how each kind of event is told.

Each family module (:mod:`~judge.narrate.flow`, :mod:`~judge.narrate.moves`, ...) declares the
message ids of its kinds (``EVENTS``, and ``VARIANTS`` chosen by an event's cause or fields)
and, for a kind whose sentence needs more than the fields every event has, a *teller*
registered with :func:`tells`: a function of the narrator, the event, the values already
worked out (``player``, ``card``, ``from``, ``to``) and the kind's message id, which returns
the sentence. A kind without a teller is told with its message, its own fields filling the
placeholders that name them (how the kinds a mechanic declares are told).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from judge.engine.events import Event

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

#: A placeholder of a message: ``%(card)s``, ``%(num)d``.
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")

E = TypeVar("E", bound=Event)
#: (narrator, event, values, the kind's message id or None) -> the sentence
Teller = Callable[["Narrator", Any, dict[str, Any], "str | None"], str]

#: The teller of each event class (see :func:`tells`).
TELLERS: dict[type[Event], Teller] = {}


def tells(*kinds: type[Event]) -> Callable[[Teller], Teller]:
    """Register the decorated function as the teller of events of ``kinds``."""

    def register(teller: Teller) -> Teller:
        for kind in kinds:
            TELLERS[kind] = teller
        return teller

    return register


def teller_for(event: Event) -> Teller | None:
    """The teller of ``event``'s class (or of the nearest class it derives from)."""
    for cls in type(event).__mro__:
        teller = TELLERS.get(cls)
        if teller is not None:
            return teller
    return None


def fill(template: str, values: dict[str, Any]) -> str:
    """A translated message with its placeholders filled (``?`` for a value not known). A
    message that names both zones of a move names their player once, when it is the same
    (``_to_same``: "from Player 1's trash into their main deck")."""
    names = PLACEHOLDER.findall(template)
    filled = {k: values.get(k, "?") for k in names}
    if "from" in names and "to" in names and "_to_same" in values:
        filled["to"] = values["_to_same"]
    return template % filled
