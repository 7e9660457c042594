"""The topics of the corpus: the folders under ``rulings/``, each with its name.

One home for the ruling pages' lists (:mod:`judge.site.context`) and the sandbox's proposal
of a new ruling (:mod:`judge.site.editor`), which puts the file in a topic's folder; this
module imports nothing but the catalogue's marker, so the sandbox loads it under Pyodide.
"""

from __future__ import annotations

from judge.i18n import N_

#: Each topic (a folder under ``rulings/``) and its name, in the site's order.
TOPIC_NAMES: dict[str, str] = {
    "battle": N_("Attacks and battles"),
    "cards": N_("Card texts: limits, modes, \"can't\" and resistance"),
    "effects": N_("Effects and abilities"),
    "game-flow": N_("Game flow"),
    "keywords": N_("Keywords"),
    "refresh": N_("Refresh"),
    "rule-processing": N_("Rule processing"),
}
