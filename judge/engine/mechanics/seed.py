"""Seed (シード, 种子): a SIGNI set face down on a SIGNI zone by an effect; it blooms into a SIGNI.

Rule: the ``set_seed`` operation puts its target cards face down into the place for a Seed of
one of their owner's SIGNI zones (``zone``: ``signi1`` ... ``signi3``, or ``signi`` for the
player to choose; verb ``seed``). A zone holds one Seed: a Seed already there goes to the
trash first (verb ``seed_out``). A Seed is not a SIGNI: it does not count for the level or the
limit, it is not a target of effects on SIGNI, a SIGNI attacking its zone attacks the empty
zone, and it may be set on a zone that holds a SIGNI. Its owner may look at it, the opponent
may not (:mod:`judge.engine.visibility`). It cannot be removed (``remove`` refuses it,
``cannot-remove``). The ``bloom`` operation turns a Seed face up: only in a SIGNI zone with no
SIGNI (otherwise ``fizzle``, ``signi-in-zone``), and then it is a SIGNI in that zone (verb
``bloom``), with its "put onto the field" abilities. **Interpretation**: only a SIGNI may be
set as a Seed (it blooms into one); blooming turns it face up in place, so the level, limit
and limiting condition are not checked as when it is played, but rule processing applies to
it at once like to any SIGNI (kinds 2 and 9).

Date: only the undated Chinese rules page describes it, for the Key Selection format; the
engine has it from the ``current`` rule set (:mod:`judge.engine.eras`).

A bloom fires ``seed_blooms`` for the other cards on the field that watch it (issue 30,
family 3, from :func:`judge.engine.ops.bloom`; their abilities wait until the effect that
made it bloom is over).

Hooks: :func:`set_seed` and :func:`bloom`, the ``set_seed`` and ``bloom`` operations
(:data:`judge.engine.ops.OPERATIONS`); the zones ``seed1`` ... ``seed3``
(:data:`judge.engine.state.SEED_ZONES`).

Source: Chinese wiki "WIXOSS/游戏规则" (undated), 特殊效果: 种子.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine.cards import Op
from judge.engine.events import AbilityRef
from judge.engine.mechanics import Mechanic
from judge.engine.sources import CHINESE_RULES, cite
from judge.engine.state import SEED_ZONES, SIGNI_ZONES, CardInstance
from judge.engine.targets import op_targets
from judge.langs import NP_

if TYPE_CHECKING:
    from judge.engine.game import Game

#: The SIGNI zone each place for a Seed is on.
SIGNI_OF: Final = {seed: signi for signi, seed in SEED_ZONES.items()}

MECHANICS: Final = (
    Mechanic(id="seed", term="seed", source=cite(CHINESE_RULES, "seed"), keyword=False,
             verbs={"seed": NP_("%(card)s is set face down from %(from)s as a Seed: %(to)s.",
                                "%(card)s are set face down from %(from)s as Seeds: %(to)s."),
                    "seed_out": NP_("A new Seed takes its place: %(card)s goes from %(from)s "
                                    "to %(to)s.",
                                    "New Seeds take their places: %(card)s go from %(from)s "
                                    "to %(to)s."),
                    "bloom": NP_("%(card)s blooms: it is turned face up and becomes a SIGNI "
                                 "in %(to)s.",
                                 "%(card)s bloom: they are turned face up and become SIGNI "
                                 "in %(to)s.")},
             since="2020", since_note=f"undated: only {CHINESE_RULES} describes it (Key "
             "Selection format)",
             ops=("set_seed", "bloom"), zones=tuple(SEED_ZONES.values())),
)


def choose_signi_zone(game: Game, player: str, word: str, what: str) -> str:
    """The SIGNI zone a card is set on: the one ``word`` names, or one ``player`` chooses
    (``signi``, ``field``)."""
    if word in SIGNI_ZONES:
        return word
    return game.choose(player, "zone", list(SIGNI_ZONES), prompt=f"which SIGNI zone {what}")[0]


def set_seed(game: Game, op: Op, controller: str, source: CardInstance | None,
             name: AbilityRef) -> None:
    for inst in op_targets(game, op, controller, source):
        owner = inst.owner
        place = SEED_ZONES[choose_signi_zone(game, owner, op.zone, "gets the Seed")]
        for old in list(game.state.zone(owner, place)):
            game.move(old, "trash", "effect", "seed_out", source=name)
        game.move(inst, place, "effect", "seed", source=name)
        inst.face_down = True


def bloom(game: Game, op: Op, controller: str, source: CardInstance | None,
          name: AbilityRef) -> list[CardInstance]:
    """The ``bloom`` operation; the Seeds that bloomed (the caller fires ``seed_blooms``)."""
    bloomed = []
    for inst in op_targets(game, op, controller, source):
        signi_zone = SIGNI_OF.get(inst.zone.zone)
        if signi_zone is None:
            game.emit(ev.Fizzle, cause="effect", player=inst.owner, card=inst.label,
                      source=name, reason="not-a-seed")
            continue
        if game.state.zone(inst.zone.player, signi_zone):
            game.emit(ev.Fizzle, cause="effect", player=inst.owner, card=inst.label,
                      source=name, reason="signi-in-zone")
            continue
        game.move(inst, signi_zone, "effect", "bloom", source=name)
        bloomed.append(inst)
    return bloomed
