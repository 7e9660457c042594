"""Gate (门): a marker set on the opponent's SIGNI zones, at most one a zone.

Rule: an effect sets a gate on one of its opponent's SIGNI zones (``set_gate``). A gate is no
card: it is a marker on the zone (:mod:`.markers`), and a zone holds at most one, so a zone
with a gate takes no second one (``fizzle``, ``marker-present``). Cards may read it: "a SIGNI on
a zone with a gate" (``on_marker = "gate"``) and "for each gate" (``tally = "gate"``).

Not in the sources, so not modelled: what a gate does, whether and how it is removed, and how
long it stays. The Chinese rules page says only where a gate is set and that a zone holds one;
so there is no operation that removes a gate, and a gate does nothing by itself
(docs/coverage.md).

Date: the Chinese rules page gives it as a mechanic of the Key Selection format (key环境),
undated; the engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: the ``set_gate`` operation (:data:`judge.engine.ops.OPERATIONS`) and the ``gate_set``
event.

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 门.
"""

from __future__ import annotations

from typing import Final

from judge.engine.events import Event, event_kind
from judge.engine.mechanics import Mechanic
from judge.engine.mechanics.markers import operation
from judge.engine.sources import CHINESE_RULES, cite
from judge.langs import N_


@event_kind("gate_set")
class GateSet(Event):
    """A gate is set on ``to_zone``, a SIGNI zone of ``player`` (by an effect)."""


MECHANICS: Final = (
    Mechanic(id="gate", term="gate", source=cite(CHINESE_RULES, "gate"), keyword=False,
             events={"gate_set": N_("A gate is set on %(to)s.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it (Key "
             "Selection format)", ops=("set_gate",)),
)

set_gate: Final = operation("gate", True, GateSet)
