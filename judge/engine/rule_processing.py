"""Rule processing: the ten kinds, applied at the same time, repeated until none applies.

Source: WIXOSS glossary, "ルール処理" (official, quoted by wikiwiki.jp, 2020-11-30), which lists
the kinds and three properties: checked continuously but never inside one effect; kinds 2 and
8 involve a player's choice; all applicable kinds apply at the same time, and when two kinds
would move one card to different places, the player on that card's side chooses the order.
The Chinese wiki "WIXOSS/游戏规则" lists the first nine in the same order.

Moves made here have cause ``rule``: they are not effects, so "when banished by an effect"
abilities do not trigger.
"""

from __future__ import annotations

from dataclasses import dataclass

from judge.engine.game import Game
from judge.engine.placement import HOMES
from judge.engine.state import (
    PLAYERS,
    UNDER_ZONES,
    ZONES,
    CardInstance,
    other,
)

#: The kinds, numbered as in the glossary.
KINDS: dict[str, int] = {
    "power": 1,  # a SIGNI with power 0 or less is banished
    "excess": 2,  # level or limit exceeded: SIGNI to the trash one at a time
    "under": 3,  # cards under or attached to a SIGNI that left the field: to the trash
    "check": 4,  # a crushed card whose Life Burst is absent or not used: to the ener zone
    "refresh": 5,  # main deck empty: refresh
    "resona": 6,  # a Resona outside LRIG deck, LRIG trash and SIGNI zones: to the LRIG deck
    "key": 7,  # a Key outside LRIG deck, LRIG trash and LRIG zone: to the LRIG trash
    "upper_limit": 8,  # more cards than a zone or attachment allows: choose and trash
    "limiting": 9,  # limiting condition not matching the centre LRIG's type: to the trash
    "lrig_type": 10,  # two LRIGs of one LRIG type on the field: the non-centre stack goes
}

#: Where a Resona (kind 6) and a Key (kind 7) belong: their homes in the placement table.
RESONA_ZONES = HOMES["resona"]
KEY_ZONES = HOMES["key"]
#: Upper limits: a SIGNI zone holds one SIGNI, the key zone one Key, a SIGNI one Accessory.
UPPER_LIMITS = {"signi1": 1, "signi2": 1, "signi3": 1, "key": 1}


@dataclass(slots=True)
class Proposal:
    kind: str
    card: CardInstance
    zone: str
    player: str
    epoch: int
    banish: bool = False

    @property
    def place(self) -> tuple[str, str]:
        return (self.player, self.zone)


def check(game: Game) -> bool:
    """Apply every kind of rule processing that applies now, all at the same time.

    Returns whether anything was applied; the caller repeats until nothing applies. Every
    change to the game is logged, so when no event that could matter (see
    :data:`judge.engine.game.QUIET_EVENTS`) was logged since a check that found nothing,
    nothing can apply now and the scan is skipped."""
    if not game.dirty:
        return False
    proposals: dict[str, list[Proposal]] = {}

    def propose(kind: str, card: CardInstance, zone: str, player: str | None = None,
                banish: bool = False) -> None:
        proposals.setdefault(card.label, []).append(
            Proposal(kind, card, zone, player or card.owner, card.epoch, banish))

    state = game.state
    special = game.special_cards()
    for p in PLAYERS:
        zones = state.players[p].zones
        signi = zones["signi1"] + zones["signi2"] + zones["signi3"]
        powers, levels = game.field_stats(signi)
        for card, power in zip(signi, powers, strict=True):
            if power <= 0:
                propose("power", card, game.banish_destination(card), banish=True)
        for signi_zone, under_zone in UNDER_ZONES.items():
            under = zones[under_zone]
            if not under:
                continue
            holder = zones[signi_zone]
            for card in under:
                held = game.attached_to.get(card.label)
                if not holder or held != (holder[0].label, holder[0].epoch):
                    propose("under", card, game.home_trash(card.card))
        for card in zones["check"]:
            if card.crushed and card.burst != "pending":
                propose("check", card, "ener")
        for card in special:
            if card.zone.player != p:
                continue
            if card.card.type == "resona" and card.zone.zone not in RESONA_ZONES:
                propose("resona", card, "lrig_deck")
            if card.card.type == "key" and card.zone.zone not in KEY_ZONES:
                propose("key", card, "lrig_trash")
        lrig_type = game.lrig_type(p)
        for card in [*signi, *zones["key"]]:
            if card.card.limiting and card.card.limiting != lrig_type:
                propose("limiting", card, game.home_trash(card.card))
        for assist in ("assist1", "assist2"):
            stack = zones[assist]
            if stack and lrig_type and stack[-1].card.lrig_type == lrig_type:
                for card in stack:
                    propose("lrig_type", card, "lrig_trash")
        if signi:
            for card in _excess(game, p, signi, levels):
                propose("excess", card, "trash")
        for card in _over_limit(game, p):
            propose("upper_limit", card, game.home_trash(card.card))

    refreshers: list[str] = []
    for p in (state.turn_player, other(state.turn_player)):
        if state.zone(p, "deck"):
            game.refresh_waiting.discard(p)
        elif game.can_refresh(p):
            refreshers.append(p)
        elif p not in game.refresh_waiting:
            game.refresh_waiting.add(p)
            game.emit("refresh_waits", "rule", player=p,
                      reason="empty-trash" if state.zone(p, "life") or
                      game.rules.refresh_needs_trash else "empty-trash-no-life")

    for card in game.level_changed:
        card.level_changed = False
    game.level_changed.clear()
    if not proposals and not refreshers:
        game.dirty = False
        return False

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
    game.emit("rule_check", "rule", kinds=kinds)
    for p in refreshers:
        game.refresh_waiting.discard(p)
        game.refresh(p, snapshot=snapshots[p])
    order = {z: i for i, z in enumerate(ZONES)}
    chosen.sort(key=lambda pr: (KINDS[pr.kind], pr.card.owner, order[pr.card.zone.zone]))
    for prop in chosen:
        card = prop.card
        if card.epoch != prop.epoch:
            continue  # it already moved (say, with the stack it belonged to)
        if prop.banish and prop.zone != "ener":
            # logged as for an effect's banish (ops.banish_card): an effect in force moved it
            game.emit("replaced", "rule", player=card.owner, card=card, kind="banish",
                      instead=prop.zone)
        game.move(card, prop.zone, "rule", prop.kind, to_player=prop.player,
                  etype="banish" if prop.banish else "move")
    return True


def _resolve_conflict(game: Game, props: list[Proposal]) -> Proposal:
    """One card, several kinds: when they send it to different places, its player chooses
    which applies first (the card has then moved, and the others no longer apply)."""
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


def _excess(game: Game, player: str, signi: list[CardInstance],
            levels: list[int]) -> list[CardInstance]:
    """Kind 2: the SIGNI to put into the trash, chosen one at a time: (A) SIGNI whose level
    exceeds the LRIG's, then (B) SIGNI whose level changed since the previous check, then (C)
    the others, until neither level nor limit is exceeded. Rule sets before the 2020 glossary
    have no group B (WIXOSS TCG Wiki, "間違えやすいルール": level first, then the limit)."""
    lrig_level = game.lrig_level(player)
    if max(levels) <= lrig_level and sum(levels) <= game.limit(player):
        return []
    level = {s.label: lv for s, lv in zip(signi, levels, strict=True)}
    limit = game.limit(player)
    removed = [s for s in signi if level[s.label] > lrig_level]
    remaining = [s for s in signi if s not in removed]
    while remaining and sum(level[s.label] for s in remaining) > limit:
        group = remaining
        if game.rules.excess_order == "level_changed_first":
            group = [s for s in remaining if s.level_changed] or remaining
        pick = group[0]
        if len(group) > 1:
            labels = [s.label for s in group]
            answer = game.choose(player, "excess", labels,
                                 prompt="which SIGNI goes to the trash for the limit")
            pick = group[labels.index(answer[0])]
        removed.append(pick)
        remaining.remove(pick)
    return removed


def _over_limit(game: Game, player: str) -> list[CardInstance]:
    """Kind 8: cards over a zone's or an attachment's upper limit; the player chooses which
    go to the trash."""
    zones = game.state.players[player].zones
    if len(zones["key"]) < 2 and len(zones["signi1"]) < 2 and len(zones["signi2"]) < 2 and \
            len(zones["signi3"]) < 2 and len(zones["under1"]) < 2 and \
            len(zones["under2"]) < 2 and len(zones["under3"]) < 2:
        return []
    out: list[CardInstance] = []
    groups: list[list[CardInstance]] = []
    for zone, cap in UPPER_LIMITS.items():
        cards = game.state.zone(player, zone)
        if len(cards) > cap:
            groups.append(cards)
    for signi_zone, under_zone in UNDER_ZONES.items():
        holder = game.state.zone(player, signi_zone)
        if not holder or len(game.state.zone(player, under_zone)) < 2:
            continue
        attached = [c for c in game.state.zone(player, under_zone)
                    if c.attach == "accessory"
                    and game.attached_to.get(c.label) == (holder[0].label, holder[0].epoch)]
        if len(attached) > 1:
            groups.append(attached)
    for cards in groups:
        cap = 1
        labels = [c.label for c in cards]
        picked = game.choose(player, "over_limit", labels, min_count=len(cards) - cap,
                             max_count=len(cards) - cap,
                             prompt="which cards go to the trash for the upper limit")
        out.extend(game.card(label) for label in picked)
    return out
