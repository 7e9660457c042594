"""The WIXOSS rules engine: state, events, rule sets, effects and rule processing.

The engine never imports click, jinja2 or sqlite-utils and reads no files: rule sets, cards and
rulings are parsed by the loader (:mod:`judge.data`, :mod:`judge.scenario.load`) and passed in
as values. Everything it decides is recorded as :class:`~judge.engine.events.Event` values in
the game's log. Importing it registers the built-in mechanics
(:mod:`judge.engine.mechanics.builtin`). The module map is docs/architecture.md.
"""

from judge.engine.events import CAUSES, EVENT_KINDS, EVENT_TYPES, Event
from judge.engine.game import Game
from judge.engine.mechanics import builtin as _builtin  # noqa: F401 - registers them
from judge.engine.rulesets import RuleSet

__all__ = ["CAUSES", "EVENT_KINDS", "EVENT_TYPES", "Event", "Game", "RuleSet"]
