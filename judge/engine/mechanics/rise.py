"""Rise (ライズ, 升阶): a SIGNI that enters the field only on top of the SIGNI its text names.

Rule: a SIGNI whose definition has ``rise`` (the names of its materials) can be put onto the
field, from the hand (``play``) or from anywhere else (``put_onto_field``), only onto a SIGNI
zone of its player holding a SIGNI with one of those names, and only while every named
material is on that player's field. It goes into that zone, and the materials (all of them,
when several are named, stacked from their zones) go under it (verb ``rise``), belonging to
it: when it leaves the field they go to the trash by rule processing (kind 3). It does not
take over anything of the SIGNI under it: it enters up and unfrozen, with its own power, and
changes made to the material do not apply to it. Its level must not be above the LRIG's, its
limiting condition must match, and the total level of the SIGNI then on the field (the
materials no longer counting) must fit the limit. With no material, ``play`` is refused
(``no-rise-material``) and ``put_onto_field`` does nothing (``fizzle``). **Interpretation**:
the materials leave the field as they go under it, so their "leaves the field" abilities
trigger (the sources do not say).

Date: the first dated source naming it is the 2020 glossary (rule processing kind 3); the
engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

Hooks: :func:`material_zones` and :func:`enter`, called by :func:`judge.engine.actions.play`
and the ``put_onto_field`` operation (:func:`judge.engine.ops.put_onto_field`) for a SIGNI
with ``rise``.

Sources: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 升阶; WIXOSS glossary "ルール処理"
(quoted by wixoss.81.la, 2020-11-30), kind 3.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import SIGNI_ZONES, UNDER_ZONES, CardInstance
from judge.langs import NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

MECHANICS: Final = (
    Mechanic(id="rise", term="rise", source=cite(CHINESE_RULES, "rise"), keyword=False,
             verbs={"rise": NP_("%(card)s goes from %(from)s under the Rise SIGNI, into %(to)s.",
                                "%(card)s go from %(from)s under the Rise SIGNI, into %(to)s.")},
             since="2020", since_note=f"first named by {GLOSSARY_RULE_PROCESSING}, kind 3",
             card_fields=("rise",)),
)


def materials(game: Game, inst: CardInstance, player: str) -> list[CardInstance] | None:
    """The SIGNI of ``player``'s SIGNI zones that ``inst`` rises on, one per name it gives, or
    None when one of them is missing."""
    found: list[CardInstance] = []
    for name in inst.card.rise:
        match = next((c for z in SIGNI_ZONES for c in game.state.zone(player, z)
                      if c.card.name == name and c not in found), None)
        if match is None:
            return None
        found.append(match)
    return found


def material_zones(game: Game, inst: CardInstance, player: str) -> list[str]:
    """The SIGNI zones ``inst`` may enter: those holding one of its materials (none when a
    material is missing)."""
    found = materials(game, inst, player)
    return [] if found is None else [c.zone.zone for c in found]


def enter(game: Game, inst: CardInstance, zone: str, cause: str, verb: str,
          source: AbilityRef | None) -> None:
    """Put the Rise SIGNI ``inst`` into ``zone`` on top of its materials, which go under it."""
    player = inst.owner
    found = materials(game, inst, player) or []
    game.move(inst, zone, cause, verb, source=source)
    under = UNDER_ZONES[zone]
    for material in sorted(found, key=lambda c: c.zone.zone != zone):
        game.move(material, under, cause, "rise", source=source)
        material.attach = "under"
        game.attached_to[material.label] = (inst.label, inst.epoch)
