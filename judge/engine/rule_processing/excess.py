"""Kind 2, ``excess``: SIGNI above the centre LRIG's level or limit go to the trash.

Rule: when a player's SIGNI exceed the LRIG's level or its limit (the total of their levels),
SIGNI go to the trash one at a time until neither is exceeded; within a group, their player
chooses (choice ``excess``). The groups depend on the rule set's ``excess_order``, read here:

- ``level_then_limit`` (2014-04, 2014-07, 2014-09): (A) SIGNI whose level is above the centre
  LRIG's, then any of the others (WIXOSS TCG Wiki "間違えやすいルール", 2014, レベル、リミット:
  level first, then the limit);
- ``level_changed_first`` (current): (A) as above, then (B) SIGNI whose level changed since the
  previous check, then (C) the others (WIXOSS glossary "ルール処理", quoted by wixoss.81.la,
  2020-11-30, kind 2).

Every SIGNI of group A goes (each exceeds the level by itself, so no choice is asked); then,
while the rest is above the limit, one more goes from the first group that has any left. A
SIGNI is in group B when a ``level`` operation changed it since the previous check (the flag is
cleared at every check and when the card moves); a grow down changes the LRIG's level, not the
SIGNI's. **Interpretation**: group B starts with ``current`` (no seed dates it more precisely).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from judge.engine.rule_processing.base import NOTHING, Kind, Proposal, Side, proposal
from judge.engine.sources import GLOSSARY_RULE_PROCESSING, cite
from judge.engine.state import CHEER, CardInstance
from judge.langs import N_

if TYPE_CHECKING:
    from judge.engine.game import Game


def look(game: Game, side: Side) -> Sequence[Proposal]:
    if not side.signi:
        return NOTHING
    levels, zones = side.levels, side.zones
    stack = zones["lrig"]
    if max(levels) <= (stack[-1].card.level or 0 if stack else 0):
        cheer = zones[CHEER]  # counts for the level, not for the limit (listed last)
        if sum(levels[:len(levels) - len(cheer)] if cheer else levels) <= \
                game.limit(side.player):
            return NOTHING  # the usual case, decided here
    return [proposal("excess", card, "trash")
            for card in over_level_or_limit(game, side.player, side.signi, side.levels)]


def over_level_or_limit(game: Game, player: str, signi: list[CardInstance],
                        levels: list[int]) -> list[CardInstance]:
    """The SIGNI to put into the trash, chosen one at a time, group by group."""
    lrig_level = game.lrig_level(player)
    # a SIGNI in the cheer zone counts for the level, not for the limit (Chinese wiki, 主要阶段)
    # (``signi`` lists the cheer zone last: the levels of the others are the first ones)
    cheer = game.state.players[player].zones[CHEER]
    if max(levels) <= lrig_level and \
            sum(levels[:len(levels) - len(cheer)] if cheer else levels) <= game.limit(player):
        return []  # the usual case, decided without building anything
    level = {s.label: lv for s, lv in zip(signi, levels, strict=True)}
    counted = [s for s in signi if s.zone.zone != CHEER]
    limit = game.limit(player)
    removed = [s for s in signi if level[s.label] > lrig_level]
    remaining = [s for s in counted if s not in removed]
    while remaining and sum(level[s.label] for s in remaining) > limit:
        group = remaining
        if game.rules.excess_order == "level_changed_first":
            group = [s for s in remaining if s.level_changed] or remaining
        pick = game.choose_card(player, "excess", group,
                                prompt="which SIGNI goes to the trash for the limit")
        removed.append(pick)
        remaining.remove(pick)
    return removed


KIND: Final[Kind] = Kind(id="excess", number=2, name=N_("level or limit exceeded"),
            description=N_("When a player's SIGNI exceed the LRIG's level or limit, SIGNI are "
                           "put into the trash one at a time until they fit."),
            source=cite(GLOSSARY_RULE_PROCESSING, "kind-2"), look=look, term="exceed-level-limit",
            choice="excess")
