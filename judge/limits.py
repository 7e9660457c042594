"""Limits on what one ruling may ask of the tool: the one home of every bound.

A rulings corpus takes contributions from many judges; a careless or hostile file must get a
one-line error quickly instead of a hang or a memory blow-up. Every number here is far above
what a real game needs (a main deck holds 40 cards, a LRIG deck 10, a life cloth at most 7)
and low enough that the worst ruling within all of them is checked well within a second.
``docs/limits.md`` lists them for contributors; the loader and the engine read them here.
"""

from __future__ import annotations

#: Bytes in one ruling or data file. The largest real ruling is under 10 KiB.
MAX_FILE_BYTES = 256 * 1024

#: Characters in one text of a ruling or of the glossary (a title, an answer, a term's
#: definition, in one language). The longest real one has under 1,000. Rendering a text as
#: Markdown takes time in proportion to its length for the patterns that once ground
#: (judge/site/markup.py); within this bound, the parts of Python-Markdown that still cost
#: more than that stay within a fixed multiple of plain text (benchmarks/render.py).
MAX_TEXT_CHARS = 20_000

#: Nesting of arrays and tables in one TOML file (a ruling needs about 6).
MAX_NESTING = 32

#: Cards a set-up may put into one zone (``PREFIX*N`` included).
MAX_CARDS_PER_ZONE = 200

#: Cards in a whole set-up, both players and every zone.
MAX_CARDS_IN_SETUP = 1000

#: The count of one operation (``mill``, ``draw``, ``crush``, ``ener_charge``, ...) and of a
#: ``crush`` step.
MAX_COUNT = 1000

#: Any other whole number a ruling gives (turn, power, level, limit, seed): the magnitude
#: SQLite can store, so no number that passes the loader breaks ``judge db``.
MAX_NUMBER = 2**53

#: Rounds of rule processing, Life Bursts and triggered abilities one action may take before
#: the engine calls the game unsettled (a real action takes fewer than 20).
MAX_SETTLE_ROUNDS = 1000

#: Events one replay (one branch) may log before it is stopped.
MAX_EVENTS = 20_000

#: The ceiling of ``explore_limit``: branches explored for one ruling under one rule set.
MAX_BRANCHES = 1024

#: Events all branches of one ruling under one rule set may log together; exploration stops
#: (reported as a problem of the ruling) when they run past it.
MAX_EVENTS_PER_REPLAY = 50_000

#: Characters of a bad value quoted in an error message; longer values are cut with "...".
MAX_QUOTED = 60
