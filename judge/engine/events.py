"""Events: the log of everything the engine did, each with its cause.

Every event names its cause so that abilities can tell an effect's banish from a banish by
rule processing (WIXOSS glossary, "rule processing", 2020: moves made by rule processing are
not effects). Events are frozen values; ``to_dict``/``from_dict`` round-trip through JSON and
``str()`` gives a one-line text form for traces.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

#: Why something happened.
CAUSES: tuple[str, ...] = (
    "effect",  # an effect of a card or ability (one effect, resolved whole)
    "rule",  # rule processing
    "battle",  # a battle between SIGNI
    "cost",  # paying a cost
    "game",  # a game action: phases, drawing for the turn, using a card, setting up
)

#: Every event type, with the detail keys it carries. Narration and the database rely on it.
EVENT_TYPES: dict[str, tuple[str, ...]] = {
    "step": ("index", "action"),  # a scenario step begins
    "phase": ("phase",),  # a phase begins
    "turn_begin": ("turn",),
    "turn_end": ("turn", "reason"),
    "effect_begin": ("ability",),  # one effect starts resolving
    "effect_end": ("ability",),
    "move": ("verb",),  # a card changes zone; verb says how (draw, mill, discard, ...)
    "skipped": ("verb", "wanted", "done"),  # cards not drawn/milled: the main deck was empty
    "fizzle": ("reason",),  # an operation could do nothing with this card
    "banish": (),  # a SIGNI is banished (to_zone says where it went)
    "shuffle": ("order",),  # a zone is shuffled; order is the resulting order, top first
    "refresh": ("count", "deck_size", "life_moved"),  # a refresh completed
    "refresh_waits": ("reason",),  # main deck empty but nothing can be done yet
    "rule_check": ("kinds",),  # rule processing applied these kinds at the same time
    "power": ("amount", "power"),  # a SIGNI's power changed (new value in power)
    "level": ("amount", "level"),
    "limit": ("amount", "limit"),
    "lasting": ("kind", "until"),  # an effect in force begins (a replacement, say)
    "replaced": ("kind", "instead"),  # a move was replaced by an effect in force
    "trigger": ("ability", "trigger"),  # a triggered ability begins waiting
    "trigger_lost": ("ability", "reason"),  # a waiting triggered ability can no longer be used
    "trigger_declined": ("ability",),  # an optional triggered ability was not used
    "trigger_dropped": ("ability", "reason"),  # removed unresolved (the turn ended)
    "burst": ("used",),  # a crushed card's Life Burst is used or not
    "choice": ("kind", "options", "picked", "about"),  # about: the ability, for kind use
    "game_start": ("first",),  # rock-paper-scissors decided who goes first
    "redraw": ("count",),  # a player redrew that many cards of the opening hand
    "attack_step": ("step",),  # a step of the attack phase begins: arts, signi or lrig
    "arts_pass": (),  # a player passes in the ARTS step
    "attack": (),  # a SIGNI or LRIG attacks (from_zone is where it stands)
    "battle": ("defender", "attack_power", "defend_power", "banished"),
    "guard": (),  # a Guard card was put into the trash against a LRIG attack
    "pay": ("cost", "paid", "exceed"),  # a cost was paid (paid: label:colour for each ener)
    "down": (),  # a card was downed
    "up": (),  # a card was upped by an effect
    "freeze": (),  # a card was frozen
    "game_over": ("winner", "reason"),
    "illegal": ("reason", "message"),  # a step was refused
}


class Event(NamedTuple):
    """One thing that happened. ``card`` and zones are text forms such as ``p1.trash``.

    A named tuple: immutable and cheap to make, as the engine makes one for every step."""

    seq: int
    step: int
    type: str
    cause: str
    player: str | None = None
    card: str | None = None
    from_zone: str | None = None
    to_zone: str | None = None
    source: str | None = None
    detail: dict[str, Any] = {}  # never mutated: the engine passes a fresh dict

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seq": self.seq, "step": self.step, "type": self.type,
                               "cause": self.cause}
        for key in ("player", "card", "from_zone", "to_zone", "source"):
            value = getattr(self, key)
            if value is not None:
                out[key] = value
        if self.detail:
            out["detail"] = dict(self.detail)
        return out

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Event:
        detail = data.get("detail", {})
        return cls(
            seq=int(data["seq"]), step=int(data["step"]), type=str(data["type"]),
            cause=str(data["cause"]), player=data.get("player"), card=data.get("card"),
            from_zone=data.get("from_zone"), to_zone=data.get("to_zone"),
            source=data.get("source"),
            detail={k: _thaw(v) for k, v in detail.items()},
        )

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> Event:
        return cls.from_dict(json.loads(text))

    def __str__(self) -> str:
        parts = [f"#{self.seq}", self.type, f"[{self.cause}]"]
        if self.player:
            parts.append(self.player)
        if self.card:
            parts.append(self.card)
        if self.from_zone or self.to_zone:
            parts.append(f"{self.from_zone or '-'} -> {self.to_zone or '-'}")
        if self.source:
            parts.append(f"by {self.source}")
        for key in sorted(self.detail):
            parts.append(f"{key}={_text(self.detail[key])}")
        return " ".join(parts)


def _thaw(value: Any) -> Any:
    if isinstance(value, list):
        return [_thaw(v) for v in value]
    return value


def _text(value: Any) -> str:
    if isinstance(value, list | tuple):
        return "[" + ",".join(_text(v) for v in value) + "]"
    return str(value)


#: The codes an event's ``reason`` detail can hold (fizzle, refresh_waits, trigger_lost,
#: trigger_dropped, turn_end, game_over), each with its meaning. Narration has a sentence for
#: every code; a test checks that the engine uses no other.
REASONS: dict[str, str] = {
    "target-gone": "the target has left its zone since it was chosen",
    "not-on-field": "the card is not on the field",
    "no-empty-zone": "there is no empty SIGNI zone",
    "not-signi": "the card is not a SIGNI",
    "level-above-lrig": "its level is above the LRIG's level",
    "over-limit": "the total level would be above the LRIG's limit",
    "limiting-mismatch": "its limiting condition does not match the centre LRIG's LRIG type",
    "no-signi-or-deck": "there is no SIGNI, or no card in the main deck",
    "not-in-hand": "the card is not in the hand it is taken from",
    "empty-trash": "the main deck is empty but so is the trash",
    "empty-trash-no-life": "the main deck, the trash and the life cloth are all empty",
    "left-trash": "the card left the trash",
    "left-hand": "the card left the hand",
    "left-ener": "the card left the ener zone",
    "left-field": "the card left the field",
    "end_phase": "the end phase is over",
    "second_refresh": "the turn player's second refresh of the turn",
    "game_over": "the game is over",
    "damage": "damage with no life cloth left",
}

