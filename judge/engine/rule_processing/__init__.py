"""Rule processing: the ten kinds, applied at the same time, repeated until none applies.

Source: WIXOSS glossary, "ルール処理" (official, quoted by wixoss.81.la, 2020-11-30), which lists
the kinds and three properties: checked continuously but never inside one effect; kinds 2 and
8 involve a player's choice; all applicable kinds apply at the same time, and when two kinds
would move one card to different places, the player on that card's side chooses the order.
The Chinese wiki "WIXOSS/游戏规则" (undated) lists the first nine in the same order.

Each kind is a module of this package, named after it, that states its rule and sources and
declares its :class:`~judge.engine.rule_processing.base.Kind` (its id, number, glossary term,
message ids and the function that looks for it); :data:`TABLE` registers them, in the
glossary's numbering. Narration, coverage, the database, the loader and the site read the
table (or :data:`KINDS`, its ids and numbers).

Moves made here have cause ``rule``: they are not effects, so "when banished by an effect"
abilities do not trigger.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Final

from judge.engine import events as ev
from judge.engine import refresh as refreshing
from judge.engine.ops import banish_card
from judge.engine.rule_processing import (
    attachments,
    check_zone,
    excess,
    key,
    limiting_condition,
    power,
    refresh,
    resona,
    same_lrig_type,
    upper_limits,
)
from judge.engine.rule_processing.base import Kind, Proposal, quiet, side
from judge.engine.rule_processing.key import KEY_ZONES as KEY_ZONES
from judge.engine.rule_processing.resona import RESONA_ZONES as RESONA_ZONES
from judge.engine.rule_processing.upper_limits import UPPER_LIMITS as UPPER_LIMITS
from judge.engine.sources import GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import PLAYERS, ZONES
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game

#: Every kind, in the glossary's numbering: the one table of rule processing.
TABLE: Final[tuple[Kind, ...]] = (
    power.KIND,  # 1: a SIGNI with power 0 or less is banished
    excess.KIND,  # 2: level or limit exceeded: SIGNI to the trash one at a time
    attachments.KIND,  # 3: cards under a SIGNI that left the field: to the trash
    check_zone.KIND,  # 4: a crushed card whose Life Burst is absent or not used: to ener
    refresh.KIND,  # 5: main deck empty: refresh
    resona.KIND,  # 6: a Resona outside its zones: to the LRIG deck
    key.KIND,  # 7: a Key outside its zones: to the LRIG trash
    upper_limits.KIND,  # 8: more cards than a zone or attachment allows: choose and trash
    limiting_condition.KIND,  # 9: limiting condition not the centre LRIG's type: to the trash
    same_lrig_type.KIND,  # 10: two LRIGs of one LRIG type: the non-centre stack goes
)

#: Property 3 of the glossary: every kind that applies applies at the same time, and where two
#: kinds would move one card to different places, the player on that card's side chooses the
#: order (``rule_order``). Its name and description (message ids), and the citation of its
#: source: the site's processing page states it, and the replays link a simultaneous check
#: and an owner's order to it.
TOGETHER_NAME: Final = N_("applied at the same time")
TOGETHER_DESCRIPTION: Final = N_(
    "Every kind that applies applies at the same time. When two kinds would move one card to "
    "different places, the player on that card's side chooses which applies first; the card "
    "has then moved, and the other no longer applies.")
TOGETHER_SOURCE: Final = cite(GLOSSARY_RULE_PROCESSING, "property-3")

#: Kind id -> its number, as in the glossary.
KINDS: Final[dict[str, int]] = {kind.id: kind.number for kind in TABLE}
#: Kind id -> its declaration.
BY_ID: Final[dict[str, Kind]] = {kind.id: kind for kind in TABLE}

#: The kinds that look at one player's cards, in the order they look: those that never ask a
#: choice first, then those that may (kinds 2 and 8), so that a player's choice comes once the
#: rest of the check is known. The order decides only the order of the choices in the log.
LOOKING: Final[tuple[Kind, ...]] = (*(k for k in TABLE if k.look and not k.choice),
                                    *(k for k in TABLE if k.look and k.choice))
_LOOKS: Final = tuple(k.look for k in LOOKING if k.look)
_ZONE_ORDER: Final = {z: i for i, z in enumerate(ZONES)}

__all__ = ["BY_ID", "KEY_ZONES", "KINDS", "LOOKING", "RESONA_ZONES", "TABLE", "UPPER_LIMITS",
           "Kind", "Proposal", "check"]


def check(game: Game) -> bool:
    """Apply every kind of rule processing that applies now, all at the same time.

    Returns whether anything was applied; the caller repeats until nothing applies. Every
    change to the game is logged, so when no event that could matter (see
    :data:`judge.engine.game.QUIET_EVENTS`) was logged since a check that found nothing,
    nothing can apply now and the scan is skipped. When something could, each player's side
    is first tested in one pass (:func:`~judge.engine.rule_processing.base.quiet`, the usual
    case of every kind); the kinds look only when one of them may find something.

    One call is one simultaneous round (glossary, property 3): every kind looks at the same
    state and proposes moves; a card proposed by kinds that send it to different places is
    resolved by its owner's choice (``rule_order``); then the refreshes are made, each from the
    trash as it was at the check, then the other moves in kind order. The ``rule_check``
    event names the kinds and what each acts on; once every kind has applied, the game's
    :attr:`~judge.engine.game.Game.checked` watcher is told where the check's events begin
    and where its ``rule_check`` is (the trace makes the check one group of its own).
    """
    if not game.dirty or "rule-processing-forgotten" in game.rules.broken:
        return False
    start = len(game.log)  # the check's group begins here (the choices the looks ask)
    proposals: dict[str, list[Proposal]] = {}
    for p in () if quiet(game, "p1") and quiet(game, "p2") else PLAYERS:
        cards = side(game, p)
        for look in _LOOKS:
            found = look(game, cards)
            if found:  # most looks find nothing
                for prop in found:
                    proposals.setdefault(prop.card.label, []).append(prop)
    refreshers = refresh.refreshers(game)

    for card in game.level_changed:
        card.level_changed = False
    game.level_changed.clear()
    if not proposals and not refreshers:
        game.dirty = False
        return False

    state = game.state
    chosen = [_resolve_conflict(game, props) for props in proposals.values()]
    moving = {p.card.label for p in chosen}
    # A card that another kind moves out of the trash at the same time is not part of the
    # refresh; if that leaves nothing to refresh with, the refresh does not apply now.
    snapshots = {p: [c for c in state.zone(p, "trash") if c.label not in moving]
                 for p in refreshers}
    refreshers = [p for p in refreshers if snapshots[p] or (
        not game.rules.refresh_needs_trash and state.zone(p, "life"))]
    applied = {p.kind for pick, props in zip(chosen, proposals.values(), strict=True)
               for p in props if (p.place, p.banish) == (pick.place, pick.banish)}
    kinds = sorted(applied | ({"refresh"} if refreshers else set()), key=KINDS.__getitem__)
    if "one-kind-at-a-time" in game.rules.broken and len(kinds) > 1:
        # broken on purpose (judge.quiz): the first kind alone; the next round sees the rest
        kinds = kinds[:1]
        refreshers = refreshers if kinds == ["refresh"] else []
        chosen = [p for p in chosen if p.kind == kinds[0]]
        proposals = {k: v for k, v in proposals.items()
                     if any(p.kind == kinds[0] for p in v)}
    check = game.emit(ev.RuleCheck, cause="rule", kinds=tuple(kinds),
                      acts=_acts(proposals.values(), refreshers))
    for p in refreshers:
        game.refresh_waiting.discard(p)
        refreshing.refresh(game, p, snapshot=snapshots[p])
    chosen.sort(key=lambda pr: (KINDS[pr.kind], pr.card.owner, _ZONE_ORDER[pr.card.zone.zone]))
    for prop in chosen:
        card = prop.card
        if card.epoch != prop.epoch:
            continue  # it already moved (say, with the stack it belonged to)
        if prop.banish:
            # as an effect's banish is: replacements in force apply (ops.banish_card)
            banish_card(game, card, "rule", None)
            continue
        game.move(card, prop.zone, "rule", prop.kind, to_player=prop.player)
    checked = game.checked
    if checked is not None:
        checked(start, check.seq)
    return True


def _acts(proposals: Iterable[list[Proposal]], refreshers: list[str]) -> tuple[ev.Acting, ...]:
    """What each kind that found something acts on, in the glossary's order, then by player
    and zone: every card a kind proposed to move (both kinds of a card its owner chooses
    an order for) and each player who refreshes."""
    found = {(KINDS[p.kind], p.card.owner, _ZONE_ORDER[p.card.zone.zone], p.card.label, p.kind)
             for props in proposals for p in props}
    found.update((KINDS["refresh"], p, -1, p, "refresh") for p in refreshers)
    return tuple(ev.Acting(kind, target) for _, _, _, target, kind in sorted(found))


def _resolve_conflict(game: Game, props: list[Proposal]) -> Proposal:
    """One card, several kinds: when they send it to different places, its player chooses
    which applies first (the card has then moved, and the others no longer apply).
    **Interpretation**: "the player on the card's side" is the card's owner."""
    distinct: dict[tuple[str, str, bool], Proposal] = {}
    for prop in sorted(props, key=lambda pr: KINDS[pr.kind]):
        distinct.setdefault((*prop.place, prop.banish), prop)
    if len(distinct) == 1:
        return sorted(props, key=lambda pr: KINDS[pr.kind])[0]
    options = [p.kind for p in distinct.values()]
    card = props[0].card
    picked = game.choose(card.owner, "rule_order", options,
                         prompt=f"which rule processing applies first to {card.label}")
    return next(p for p in distinct.values() if p.kind == picked[0])
