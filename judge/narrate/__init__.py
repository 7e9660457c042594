"""Events told as sentences, in Japanese, English and Simplified Chinese.

Every kind of event of :data:`judge.engine.events.EVENT_KINDS` has a message here (an English
message id with ``%(name)s`` placeholders, translated by the gettext catalogues of
``judge/locale``); so do the vocabularies the events carry: move verbs, rule-processing kinds,
triggers, choice kinds, refusal reasons, step actions. What a mechanic logs is told with the
messages its declaration names (:mod:`judge.engine.mechanics`: Guard's event, the moves of
Exceed, Charm and Accessory, ...; the fields of an event kind a mechanic declares fill the
placeholders that name them) and a kind of rule processing with its declared name
(:data:`judge.engine.rule_processing.TABLE`); :func:`messages` puts them together with the
families' own. Zone, phase and step names come from the glossary (``data/glossary.toml``)
through the engine's term maps (:data:`judge.engine.state.ZONE_TERMS`, ...), keywords through
their mechanic's term; card names from the card definitions' ``names``, falling back to the
card's label. Nothing is machine-translated: a message missing from a catalogue is a test
failure (``tests/test_narrate.py``).

The messages and the code that fills them are split by family of events, one module each:

========================= =============================================================
:mod:`.flow`              steps, phases, turns, the set-up, the end of the game, refusals
:mod:`.moves`             moves by verb, draws cut short, shuffles, banishes
:mod:`.battle`            attack steps, attacks, battles, Life Bursts used or not
:mod:`.abilities`         effects resolving, triggers, lost and dropped abilities, fizzles
:mod:`.changes`           power, level, limit, effects in force, replacements, down/up/freeze
:mod:`.rules`             rule processing and the refresh
:mod:`.choices`           choices and the names of their kinds
:mod:`.costs`             payments
:mod:`.words`             players, zones, reasons, lists and other shared words
========================= =============================================================

:mod:`.base` holds the registry of *tellers* (one function per kind of event that needs more
than its message), :mod:`.catalogue` gathers the tables (:func:`messages`) and
:mod:`.narrator` the :class:`Narrator`. ``Narrator(lang, cards).event(e)`` gives one sentence;
:meth:`Narrator.events` tells a run of events in a judge's order (:mod:`.order`: a compound
action's summary first, then its parts) and joins runs of identical moves (a refresh moving
six cards is one sentence); :meth:`Narrator.told` gives each sentence with the events it
tells (the site links each to the rule behind it).
"""

from judge.engine.state import ATTACK_STEP_TERMS as ATTACK_STEP_TERMS
from judge.engine.state import PHASE_TERMS as PHASE_TERMS
from judge.narrate.abilities import TRIGGER_NAMES as TRIGGER_NAMES
from judge.narrate.base import PLACEHOLDER as PLACEHOLDER
from judge.narrate.catalogue import EVENT_MESSAGES as EVENT_MESSAGES
from judge.narrate.catalogue import VARIANTS as VARIANTS
from judge.narrate.catalogue import Messages as Messages
from judge.narrate.catalogue import all_message_ids as all_message_ids
from judge.narrate.catalogue import messages as messages
from judge.narrate.catalogue import plural_pairs as plural_pairs
from judge.narrate.choices import CHOICE_NAMES as CHOICE_NAMES
from judge.narrate.flow import ACTION_MESSAGES as ACTION_MESSAGES
from judge.narrate.flow import ACTION_NAMES as ACTION_NAMES
from judge.narrate.flow import ILLEGAL_NAMES as ILLEGAL_NAMES
from judge.narrate.flow import REDRAW as REDRAW
from judge.narrate.moves import GENERIC_MOVE_VERBS as GENERIC_MOVE_VERBS
from judge.narrate.moves import MOVE_MESSAGES as MOVE_MESSAGES
from judge.narrate.moves import VERB_NAMES as VERB_NAMES
from judge.narrate.narrator import Narrator as Narrator
from judge.narrate.narrator import Told as Told
from judge.narrate.narrator import narrator_for as narrator_for
from judge.narrate.narrator import scenario_cards as scenario_cards
from judge.narrate.rules import RULE_KIND_NAMES as RULE_KIND_NAMES
from judge.narrate.words import COLOUR_TERMS as COLOUR_TERMS
from judge.narrate.words import OTHER_MESSAGES as OTHER_MESSAGES
from judge.narrate.words import REASON_NAMES as REASON_NAMES
from judge.narrate.words import glossary_names as glossary_names
