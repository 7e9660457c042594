"""The WIXOSS rules engine: state, events, rule sets, effects and rule processing.

The engine never imports click, jinja2 or sqlite-utils; everything it decides is recorded as
:class:`~judge.engine.events.Event` values in the game's log.
"""

from judge.engine.events import CAUSES, EVENT_TYPES, Event
from judge.engine.game import Game
from judge.engine.rulesets import RuleSet, load_rulesets

__all__ = ["CAUSES", "EVENT_TYPES", "Event", "Game", "RuleSet", "load_rulesets"]
