"""Properties of whole random games (the random-game driver, judge.engine.driver).

Both players take random legal actions from generated legal decks, from the set-up until a
player wins or the turn limit. After every action: each card is in exactly one zone and each
player owns as many cards as at the start; no rule processing is left to apply and no
triggered ability is left waiting; the state is legal (SIGNI zones hold one SIGNI, levels
and limits hold). The same seed gives the same log. Hypothesis draws the seeds and the rule
sets: CI runs 200 games (``CI`` set, derandomized), a developer's run fewer.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_properties import conservation_problems, engine_check_applies, rule_processing_problems

from judge.data import load_rulesets
from judge.engine import events as ev
from judge.engine import phase_starts
from judge.engine.driver import Action, play_random_game
from judge.engine.game import Game
from judge.engine.rulesets import RuleSet
from judge.engine.state import PLAYERS, SIGNI_ZONES

GAMES = 200 if os.environ.get("CI") else 24
TURNS = 12
RULES = list(load_rulesets().values())


def legal_state_problems(game: Game) -> list[str]:
    state = game.state
    out = []
    for p in PLAYERS:
        for zone in SIGNI_ZONES:
            cards = state.zone(p, zone)
            if len(cards) > 1:
                out.append(f"{p}.{zone} holds {len(cards)} cards")
            if cards and not cards[0].card.is_signi_like:
                out.append(f"{p}.{zone} holds a {cards[0].card.type}")
        centre = state.centre(p)
        if state.phase != "setup" and (centre is None or centre.card.type != "lrig"):
            out.append(f"{p} has no centre LRIG")
        if len(state.zone(p, "life")) > 7:
            out.append(f"{p} has {len(state.zone(p, 'life'))} life cloth")
    if state.phase == "end" and len(state.zone(state.turn_player, "hand")) > 6 \
            and not state.winner:
        out.append("the turn player ends the turn with more than 6 cards in hand")
    return out


@settings(max_examples=GAMES, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**32 - 1), rules=st.sampled_from(RULES))
def test_random_game_keeps_every_invariant(seed: int, rules: RuleSet) -> None:
    owned: dict[str, int] = {}
    problems: list[str] = []

    def after(game: Game, action: Action) -> None:
        if not owned:
            owned.update({p: sum(1 for c in game.state.cards.values() if c.owner == p)
                          for p in PLAYERS})
        found = [*conservation_problems(game, owned), *legal_state_problems(game)]
        if game.state.phase != "setup":
            found += rule_processing_problems(game)
        if found and not problems:
            problems.extend(f"after {action} (turn {game.state.turn}, {game.state.phase}): "
                            f"{p}" for p in found)

    rg = play_random_game(rules, seed, turns=TURNS, on_action=after)
    assert not problems, "\n".join(problems[:10])
    assert rg.game.state.winner or rg.game.state.turn > TURNS
    assert not engine_check_applies(rg.game)  # the engine's own check, on a copy, agrees


@pytest.mark.parametrize("seed", range(0, GAMES, 10))
def test_same_seed_same_game(seed: int) -> None:
    rules = RULES[seed % len(RULES)]
    first = play_random_game(rules, seed, turns=TURNS)
    second = play_random_game(rules, seed, turns=TURNS)
    assert first.game.log == second.game.log
    assert [str(a) for a in first.actions] == [str(a) for a in second.actions]


def test_different_seeds_differ() -> None:
    a = play_random_game(RULES[-1], 1, turns=4)
    b = play_random_game(RULES[-1], 2, turns=4)
    assert a.game.log != b.game.log


def test_games_reach_the_interesting_parts() -> None:
    """A sanity check that the driver exercises the engine: over a few games there are
    battles, crushes, bursts, refreshes, payments and a winner."""
    seen: set[str] = set()
    winners = 0
    for seed in range(12):
        rg = play_random_game(RULES[-1], seed, turns=20)
        seen |= {e.type for e in rg.game.log}
        winners += rg.game.state.winner is not None
    assert {"battle", "banish", "burst", "refresh", "pay", "attack_step", "game_over"} <= seen
    assert winners >= 6


def test_games_use_the_card_text_vocabulary() -> None:
    """The generated cards exercise the card-text vocabulary: over a few games there are modes
    chosen, "can't" effects, lost abilities, lowered upper limits, draw limits, replacements
    that do something instead, use-watching triggers and a Spell used through an effect."""
    wanted = {"choice:mode", "lasting:cannot", "lasting:lose_abilities", "lasting:upper_limit",
              "lasting:draw_limit", "lasting:attack_limit", "lasting:signi_cap",
              "lasting:replace", "instead", "lasting:cannot/kind", "lasting:must_attack",
              "trigger:uses_spell", "use-through-an-effect", "op_skipped"}
    seen: set[str] = set()
    for seed in range(600):  # until every one has been seen (the pool grows with the vocabulary)
        if wanted <= seen:
            break
        for e in play_random_game(RULES[-1], seed, turns=20).game.log:
            if isinstance(e, ev.Lasting):
                seen.add(f"lasting:{e.kind.name}")
                if "/" in e.kind.keyword:  # limited to a kind of source (by_kind)
                    seen.add("lasting:cannot/kind")
            elif isinstance(e, ev.Choice):
                seen.add(f"choice:{e.kind}")
            elif isinstance(e, ev.Trigger):
                seen.add(f"trigger:{e.trigger}")
            elif isinstance(e, ev.Move) and e.verb == "use" and e.source is not None:
                seen.add("use-through-an-effect")
            else:
                seen.add(e.type)
    assert wanted <= seen, sorted(wanted - seen)


def test_games_look_reveal_and_search_the_main_deck() -> None:
    """The cards of issue 30's family 2 are played: a look that takes a card and reveals it,
    one whose rest goes back on top in an order chosen, one at the opponent's deck whose rest
    goes to the trash, a reveal until a SIGNI, a search and the shuffle after it, a look whose
    rest is shuffled in, a look that keeps a card on top after the rest, a look at the
    opponent's hand."""
    wanted = {"look:self", "look:both", "verb:deck_bottom", "verb:deck_top", "choice:order",
              "verb:look", "verb:reveal_until", "verb:search", "look:opponent-deck",
              "shuffle:effect", "kept-on-top", "look:opponent-hand"}
    seen: set[str] = set()
    for seed in range(600):  # until every one has been seen (the pool grows with the vocabulary)
        if wanted <= seen:
            break
        game = play_random_game(RULES[-1], seed, turns=20).game
        for e in game.log:
            if isinstance(e, ev.Look):
                seen.add("look:both" if e.seen_by == "both" else "look:self")
                if e.from_zone is not None and e.from_zone.player != e.player:
                    seen.add("look:opponent-deck" if e.from_zone.zone == "deck" else
                             f"look:opponent-{e.from_zone.zone}")
            elif isinstance(e, ev.Move):
                seen.add(f"verb:{e.verb}")
                if e.verb == "deck_top" and e.source is not None and \
                        game.card(e.source.card).card.id == "s2kt":
                    seen.add("kept-on-top")  # zone deck_top: after the rest, on top
            elif isinstance(e, ev.Choice):
                seen.add(f"choice:{e.kind}")
            elif isinstance(e, ev.Shuffle):
                seen.add(f"shuffle:{e.cause}")
    assert wanted <= seen, sorted(wanted - seen)


def test_games_trigger_on_other_cards_and_phases() -> None:
    """The cards of issue 30's family 3 trigger: when another SIGNI enters the field (its
    own player's and the opponent's), when another SIGNI of its player is banished, when the
    opponent's life cloth is crushed, when its own player guards, at the start of its
    player's up, draw, ener, grow, main and end phases and of its ARTS step (those of the up
    and draw phases and of the ARTS step before anything else of it), when a Seed blooms,
    when a Trap is revealed, when coins are paid for a BET, when a card leaves a life cloth
    other than by a crush and when the opponent's effect chooses it as a target."""
    starts = {*phase_starts.PHASE_TRIGGERS.values(), *phase_starts.STEP_TRIGGERS.values()}
    wanted = {"signi_enters:own", "signi_enters:opponent", "signi_banished:own",
              "main_phase_start", "end_phase_start", "life_crushed:opponent",
              "guard_used:own", "signi_attacks:opponent", "attack_negated", "freeze:trigger",
              *starts, "seed_blooms", "trap_revealed", "coins_paid", "life_cloth_moved",
              "targeted"}
    seen: set[str] = set()
    for seed in range(600):  # until every one has been seen (the pool grows with the vocabulary)
        if wanted <= seen:
            break
        game = play_random_game(RULES[-1], seed, turns=20).game
        log = game.log
        for i, e in enumerate(log):
            if isinstance(e, ev.AttackNegated):
                seen.add("attack_negated")
            elif isinstance(e, ev.Freeze) and e.source is not None and \
                    game.card(e.source.card).card.id == "s2ng":
                seen.add("freeze:trigger")  # the attacking SIGNI, target "trigger"
            elif isinstance(e, ev.Trigger) and e.trigger in ("main_phase_start",
                                                           "end_phase_start"):
                seen.add(e.trigger)
            elif isinstance(e, ev.Trigger) and e.trigger == "targeted":
                # a SIGNI on the field (a target chosen alone is taken without a choice event)
                assert game.card(e.card or "").owner == e.player
                seen.add(e.trigger)
            elif isinstance(e, ev.Trigger) and e.trigger == "life_cloth_moved":
                # right after a card left a life cloth, not into the check zone
                before = next(m for m in reversed(log[:i]) if isinstance(m, ev.Move))
                assert before.from_zone is not None and before.from_zone.zone == "life"
                assert before.to_zone is not None and before.to_zone.zone != "check"
                seen.add(e.trigger)
            elif isinstance(e, ev.Trigger) and e.trigger == "coins_paid":
                # right after coins paid for a BET (cause cost), other triggers aside
                before = next(m for m in reversed(log[:i]) if not isinstance(m, ev.Trigger))
                assert before.type == "coins" and before.cause == "cost", before
                seen.add(e.trigger)
            elif isinstance(e, ev.Trigger) and e.trigger in ("seed_blooms", "trap_revealed"):
                # right after the bloom (a move) or the Trap's reveal, other triggers aside
                before = next(m for m in reversed(log[:i]) if not isinstance(m, ev.Trigger))
                if e.trigger == "seed_blooms":
                    assert isinstance(before, ev.Move) and before.verb == "bloom", before
                else:
                    assert before.type == "reveal", before
                seen.add(e.trigger)
            elif isinstance(e, ev.Trigger) and e.trigger in starts:
                # the start comes first: nothing of the phase (or step) happened before it
                seen.add(e.trigger)
                j = max(k for k in range(i) if isinstance(log[k], (ev.Phase, ev.AttackStep)))
                assert all(isinstance(m, ev.Trigger) for m in log[j + 1:i]), log[j:i]
            elif isinstance(e, ev.Trigger) and e.trigger in ("signi_enters",
                                                             "signi_banished", "signi_attacks",
                                                             "life_crushed", "guard_used"):
                # the last move (or banish) before it is the other card's (a Guard card's
                # move is followed by the guard event)
                kinds = (ev.Attack,) if e.trigger == "signi_attacks" else (ev.Move, ev.Banish)
                before = next(m for m in reversed(log[:i]) if isinstance(m, kinds))
                assert before.card != e.card
                whose = "own" if game.card(before.card or "").owner == e.player else "opponent"
                seen.add(f"{e.trigger}:{whose}")
    assert wanted <= seen, sorted(wanted - seen)


def test_games_use_the_later_mechanics_of_round_three() -> None:
    """Issue 30, round three (helper C): the centre LRIG rides a SIGNI, whose Drive triggers,
    and gets off when it leaves the field, never attacking while it rides; an action ability
    with the attack timing is used in the ARTS step, by either player; a card of a SIGNI's
    name is stacked on it by crystal armament, and the SIGNI is crystal-armed; Keys are
    summoned (one with a coin) and their abilities used from the Key zone; in the games in
    Diva Selection an assist LRIG's action ability is used from its zone."""
    wanted = {"ride", "trigger:drive", "get_off", "attack-timed:turn", "attack-timed:other",
              "crystal_armament", "key_summon", "key_summon:coins", "key-ability",
              "assist-ability"}
    seen: set[str] = set()
    for seed in range(200):
        if wanted <= seen:
            break
        game = play_random_game(RULES[-1], seed, turns=20).game
        riding: set[str] = set()
        step = ""
        for e in game.log:
            if isinstance(e, ev.AttackStep):
                step = e.attack_step
            elif isinstance(e, ev.Phase):
                step = ""
            if e.type == "ride":
                riding.add(e.player or "")
                seen.add("ride")
            elif e.type == "get_off":
                riding.discard(e.player or "")
                seen.add("get_off")
            elif isinstance(e, ev.Attack) and e.from_zone is not None and \
                    e.from_zone.zone == "lrig":
                assert e.player not in riding, "a riding LRIG attacked"
            elif isinstance(e, ev.Move) and e.verb == "crystal_armament":
                assert game.card(e.card or "").card.id == "s3cr"  # only it names itself
                seen.add("crystal_armament")
            elif isinstance(e, ev.Move) and e.verb == "key_summon":
                assert game.card(e.card or "").card.type == "key"
                assert step == "" and e.to_zone is not None and e.to_zone.zone == "key"
                seen.add("key_summon")
            elif e.type == "coins" and e.cause == "cost" and e.card and \
                    game.card(e.card).card.type == "key":
                seen.add("key_summon:coins")
            elif isinstance(e, ev.EffectBegin) and e.card and \
                    game.card(e.card).card.type == "key":
                seen.add("key-ability")
            elif isinstance(e, ev.EffectBegin) and e.card and \
                    game.card(e.card).card.id == "l-assist":
                assert game.state.format == "diva-selection"
                seen.add("assist-ability")
            elif isinstance(e, ev.Trigger) and e.trigger == "drive":
                seen.add("trigger:drive")
            elif isinstance(e, ev.EffectBegin) and e.card and \
                    game.card(e.card).card.id == "s2at":
                assert step == "arts", "an attack-timed ability outside the ARTS step"
                turn_player = next(t.player for t in reversed(game.log[:e.seq])
                                   if isinstance(t, ev.TurnBegin))
                seen.add("attack-timed:turn" if e.player == turn_player
                         else "attack-timed:other")
    assert wanted <= seen, sorted(wanted - seen)
