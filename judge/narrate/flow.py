"""The flow of the game: scenario steps, phases, turns, the set-up, the end of the game and
refused steps; and the names of the step actions and of the reasons a step is refused."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from judge.engine import events as ev
from judge.langs import N_, NP_
from judge.narrate.base import tells

if TYPE_CHECKING:
    from judge.narrate.narrator import Narrator

EVENTS: dict[str, str] = {
    "step": N_("Step %(index)s: %(action)s."),
    "phase": N_("The %(phase)s begins."),
    "turn_begin": N_("Turn %(turn)s begins: it is %(player)s's turn."),
    "turn_end": N_("%(player)s's turn (turn %(turn)s) ends: %(reason)s."),
    "game_start": N_("%(first)s wins rock-paper-scissors and goes first."),
    "redraw": "%(player)s redraws %(num)d card.",  # singular of REDRAW
    "game_over": N_("%(winner)s wins the game: %(reason)s."),
    "illegal": N_("This is not allowed: %(reason)s."),
}

VARIANTS: dict[str, str] = {
    "turn_end:end_phase": N_("%(player)s's turn (turn %(turn)s) ends."),
    "turn_end:second_refresh": N_("%(player)s's turn (turn %(turn)s) ends at once: it is "
                                  "their second refresh this turn."),
    "game_over:damage": N_("%(player)s takes damage with no life cloth left: %(winner)s wins "
                           "the game."),
    "game_over:nowinner": N_("The game is over: %(reason)s."),
}

#: The redraw sentence, with its plural form.
REDRAW = NP_("%(player)s redraws %(num)d card.", "%(player)s redraws %(num)d cards.")

#: A step's heading: what its action does, with the step's fields.
ACTION_MESSAGES: dict[str, str] = {
    "effect": N_("%(player)s resolves an effect"),
    "use": N_("use %(card)s"),
    "activate": N_("activate an ability of %(card)s"),
    "advance": N_("advance to the %(to)s"),
    "advance:next": N_("advance to the next phase"),
    "play": N_("play %(card)s"),
    "grow": N_("grow into %(card)s"),
    "remove": N_("remove %(card)s"),
    "remove:cards": N_("remove %(cards)s at the same time"),
    "summon": N_("summon the Resona %(card)s"),
    "attack:zone": N_("attack the SIGNI in the opponent's %(zone)s with %(card)s"),
    "crush": N_("crush %(count)s life cloth of %(player)s"),
    "damage": N_("damage %(player)s"),
    "ener": N_("put %(card)s into the ener zone"),
    "pass": N_("%(player)s passes"),
    "attack": N_("attack with %(card)s"),
    "start_game": N_("start the game; %(player)s goes first"),
    "redraw": N_("%(player)s redraws %(cards)s"),
}

#: Step actions named without their details (a ``step`` event on its own).
ACTION_NAMES: dict[str, str] = {
    "effect": N_("an effect"),
    "use": N_("using a card"),
    "activate": N_("activating an ability"),
    "advance": N_("advancing the game"),
    "play": N_("playing a SIGNI"),
    "grow": N_("growing"),
    "remove": N_("removing a SIGNI"),
    "summon": N_("summoning a Resona"),
    "crush": N_("crushing life cloth"),
    "damage": N_("damage"),
    "ener": N_("the ener phase's action"),
    "pass": N_("passing"),
    "attack": N_("an attack"),
    "start_game": N_("starting the game"),
    "redraw": N_("redrawing"),
}

#: Why a step is refused (:data:`judge.engine.actions.ILLEGAL_REASONS`).
ILLEGAL_NAMES: dict[str, str] = {
    "game-over": N_("the game is already over"),
    "not-main-phase": N_("only in its player's own main phase"),
    "not-in-hand": N_("the card is not in the hand"),
    "not-in-lrig-deck": N_("the card is not in the LRIG deck"),
    "arts-timing": N_("the ARTS cannot be used at this timing"),
    "not-usable": N_("the card cannot be used"),
    "limiting": N_("its limiting condition does not match the centre LRIG"),
    "cannot-pay": N_("the cost cannot be paid"),
    "no-such-ability": N_("the card has no such ability"),
    "not-on-field": N_("the card is not on the field"),
    "cannot-play": N_("the SIGNI cannot be put onto the field (level, limit or limiting "
                      "condition)"),
    "no-empty-zone": N_("there is no empty SIGNI zone"),
    "zone-taken": N_("that SIGNI zone is taken"),
    "not-grow-phase": N_("only in its player's own grow phase"),
    "grow-done": N_("the LRIG has already grown this turn"),
    "grow-level": N_("a LRIG grows one level at a time"),
    "grow-type": N_("the LRIG type is different"),
    "grow-same-name": N_("a LRIG cannot grow into one with the same name"),
    "grow-name": N_("the grow condition names another LRIG"),
    "not-ener-phase": N_("only in its player's own ener phase"),
    "ener-done": N_("only one card per ener phase"),
    "not-arts-step": N_("only in the ARTS step"),
    "not-your-priority": N_("it is not this player's turn to act in the ARTS step"),
    "not-attack-step": N_("only in the matching step of the turn player's attack phase"),
    "already-down": N_("the card is already down"),
    "not-setup": N_("only during the set-up, before the first turn"),
    "redraw-twice": N_("a player redraws only once"),
    "illegal-deck": N_("the deck does not meet the deck construction rules"),
    "cannot-use": N_("an effect in force says the player cannot use it"),
    "once-per-turn": N_("the ability can be used only once per turn"),
    "cannot-attack": N_("an effect in force says this SIGNI cannot attack"),
    "attack-limit": N_("an effect in force says this SIGNI cannot attack more times this turn"),
    "must-attack": N_("an effect in force says a SIGNI must attack, and it still can"),
    "riding": N_("a LRIG riding a SIGNI cannot attack"),
    "ability-timing": N_("the ability cannot be used at this timing"),
    "cannot-remove": N_("that card cannot be removed"),
    "remove-done": N_("SIGNI have already been removed this turn (once a turn under these rules)"),
    "summon-condition": N_("the Resona's summoning condition is not met"),
    "no-rise-material": N_("the SIGNI it rises on is not on the field"),
    "cheer-target": N_("a SIGNI in the cheer zone attacks only a SIGNI in one of the "
                       "opponent's SIGNI zones"),
}


@tells(ev.Step)
def _step(n: Narrator, e: ev.Step, v: dict[str, Any], msg: str | None) -> str:
    step = (n.steps or {}).get(e.index)
    if step is not None:
        return n.step_title(step) + n.sentence_end()
    v.update(index=e.index, action=n._(ACTION_NAMES[e.action])
             if e.action in ACTION_NAMES else e.action)
    return n.say(msg, v, e)


@tells(ev.Phase)
def _phase(n: Narrator, e: ev.Phase, v: dict[str, Any], msg: str | None) -> str:
    v["phase"] = n.phase(e.phase)
    return n.say(msg, v, e)


@tells(ev.TurnBegin)
def _turn_begin(n: Narrator, e: ev.TurnBegin, v: dict[str, Any], msg: str | None) -> str:
    v["turn"] = e.turn
    return n.say(msg, v, e)


@tells(ev.TurnEnd)
def _turn_end(n: Narrator, e: ev.TurnEnd, v: dict[str, Any], msg: str | None) -> str:
    v.update(turn=e.turn, reason=n.reason(e.reason))
    return n.say(VARIANTS.get(f"turn_end:{e.reason}", msg), v, e)


@tells(ev.GameStart)
def _game_start(n: Narrator, e: ev.GameStart, v: dict[str, Any], msg: str | None) -> str:
    v["first"] = n.player(e.first)
    return n.say(msg, v, e)


@tells(ev.Redraw)
def _redraw(n: Narrator, e: ev.Redraw, v: dict[str, Any], msg: str | None) -> str:
    text = n.ngettext(REDRAW[0], REDRAW[1], e.count)
    return text % {"player": v["player"], "num": e.count}


@tells(ev.GameOver)
def _game_over(n: Narrator, e: ev.GameOver, v: dict[str, Any], msg: str | None) -> str:
    v.update(winner=n.player(e.winner), reason=n.reason(e.reason))
    if not e.winner:
        msg = VARIANTS["game_over:nowinner"]
    elif e.player:
        msg = VARIANTS.get(f"game_over:{e.reason}", msg)
    return n.say(msg, v, e)


@tells(ev.Illegal)
def _illegal(n: Narrator, e: ev.Illegal, v: dict[str, Any], msg: str | None) -> str:
    v["reason"] = n.illegal(e.reason)
    return n.say(msg, v, e)

