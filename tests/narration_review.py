"""Every kind of sentence narration says, in one language, for a reader to review.

``python tests/narration_review.py [ja|en|zh-Hans ...]`` prints, for every event kind of the
registry, every variant of a kind (by cause, by field, by reason), every move verb (the
mechanics' too, and the moves of each kind of rule processing), every kind of choice (with a
pick and with none, and ``use`` about a Life Burst and about an ability, with yes and no),
every trigger, every refusal and every reason, one line ``KEY  SENTENCE``. The sample events
are those of ``tests/test_narrate.py`` (``SAMPLES``), varied field by field.
``tests/test_narrate.py`` reads the same lines and checks that none carries an engine code.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

if __name__ == "__main__":  # run as a script: the project's root on the path
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    sys.path.insert(0, str(Path(__file__).resolve().parent))

from judge.engine import events as ev
from judge.engine.actions import ILLEGAL_REASONS
from judge.engine.cards import FILLER, TRIGGERS
from judge.engine.choices import CHOICE_KINDS
from judge.engine.costs import Cost
from judge.engine.events import AbilityRef, CardSet, Event, LastingKind, Paid
from judge.engine.rule_processing import KINDS
from judge.engine.state import ZoneRef
from judge.langs import LANGS
from judge.narrate import GENERIC_MOVE_VERBS, Narrator, messages
from judge.scenario.load import card_library

Z = ZoneRef.parse
#: The sample cards: X1 a named SIGNI with a Life Burst (named in full at its first mention),
#: X2 and X3 unnamed.
LABELS = ("X1", "X2", "X3")

#: Options a choice of each kind offers in the samples (what the engine offers: labels, zones,
#: abilities, cards together, kinds of rule processing).
CHOICE_OPTIONS: dict[str, tuple[ev.Option, ...]] = {
    "zone": ("signi2", "signi3"),
    "trigger_order": (AbilityRef("X1", 0), AbilityRef("X2", 0)),
    "burst_order": ("X1", "X2"),
    "rule_order": tuple(KINDS)[:2],
    "pay": (CardSet(("X2", "X3")), CardSet(("X1",))),
    "cut_in": ("X1", "none"),
    "guard": ("X1", "none"),
}


#: The reasons each kind of event gives (every reason of ``REASONS`` is given by one).
REASON_KINDS: dict[str, tuple[str, ...]] = {
    "fizzle": ("target-gone", "not-on-field", "no-empty-zone", "not-signi",
               "level-above-lrig", "over-limit", "signi-cap", "limiting-mismatch",
               "no-signi-or-deck",
               "not-in-hand", "not-accessory", "not-a-seed", "signi-in-zone",
               "no-rise-material", "token-label-taken", "resisted", "cannot-be-chosen",
               "cannot-be-banished", "cannot-be-trashed", "cannot-pay", "cannot-use",
               "not-usable", "marker-present", "no-marker", "already-riding", "no-same-name"),
    "op_skipped": ("not-done", "condition"),
    "trigger_lost": ("left-trash", "left-hand", "left-ener", "left-field"),
    "trigger_dropped": ("second_refresh", "end_phase", "game_over"),
    "refresh_waits": ("empty-trash", "empty-trash-no-life", "cannot-refresh", "refresh-replaced"),
    "turn_end": ("end_phase", "second_refresh"),
    "game_over": ("damage",),
}

#: Where the cards of a move of each verb come from and go (as in the corpus).
VERB_ZONES: dict[str, tuple[str, str]] = {
    "draw": ("deck", "hand"), "mill": ("deck", "trash"), "ener_charge": ("deck", "ener"),
    "discard": ("hand", "trash"), "put_onto_field": ("trash", "signi2"),
    "crush": ("life", "check"), "use": ("hand", "check"), "used": ("check", "trash"),
    "play": ("hand", "signi1"), "grow": ("lrig_deck", "lrig"), "remove": ("signi1", "trash"),
    "hand_limit": ("hand", "trash"), "ener_phase": ("hand", "ener"), "pay": ("ener", "trash"),
    "start": ("lrig_deck", "lrig"), "redraw": ("hand", "deck"), "life_cloth": ("deck", "life"),
    "after_burst": ("check", "ener"), "refresh": ("trash", "deck"),
    "refresh_life": ("life", "trash"), "accessory": ("hand", "under1"),
    "charm": ("deck", "under1"), "exceed": ("lrig", "lrig_trash"), "guard": ("hand", "trash"),
    "power": ("signi1", "trash"), "excess": ("signi2", "trash"), "under": ("under1", "trash"),
    "check": ("check", "ener"), "resona": ("hand", "lrig_deck"),
    "key": ("hand", "lrig_trash"), "upper_limit": ("key", "lrig_trash"),
    "limiting": ("signi1", "trash"), "lrig_type": ("assist1", "lrig_trash"),
    "trash": ("signi3", "trash"), "to_ener": ("signi1", "ener"), "to_hand": ("trash", "hand"),
    "to_deck": ("hand", "deck"), "place": ("lrig_deck", "key"), "banish": ("signi1", "ener"),
    "crystal_armament": ("trash", "under1"), "key_summon": ("lrig_deck", "key"),
}


def narrator(lang: str) -> Narrator:
    named = card_library()["burst-draw-signi"]
    return Narrator(lang, {"X1": named, "X2": FILLER, "X3": FILLER})


def samples() -> Iterator[tuple[str, list[Event]]]:
    """(key, events told together) for every kind of sentence."""
    from test_narrate import SAMPLES

    for kind, event in sorted(SAMPLES.items()):
        yield kind, [event]
    s = SAMPLES
    # variants by cause and by field
    for cause in ("effect", "rule", "battle"):
        yield f"banish:{cause}", [s["banish"].replace(cause=cause)]
    yield "burst:no", [s["burst"].replace(used=False)]
    yield "battle:not-banished", [s["battle"].replace(banished=False)]
    yield "fizzle:nocard", [s["fizzle"].replace(card=None)]
    yield "effect_begin:in_force", [s["effect_begin"].replace(ability=AbilityRef())]
    yield "pay:nosource", [s["pay"].replace(source=None)]
    yield "pay:free", [s["pay"].replace(cost=Cost.parse("free"), paid=())]
    yield "pay:exceed", [s["pay"].replace(cost=Cost.parse("exceed:2"), paid=(),
                                          exceed=("X2", "X3"))]
    yield "pay:down", [s["pay"].replace(cost=Cost.parse("down"), paid=())]
    yield "game_over:nowinner", [s["game_over"].replace(winner=None)]
    yield "refresh:second", [s["refresh"].replace(count=2)]
    yield "skipped:mill", [s["skipped"].replace(verb="mill")]
    yield "skipped:ener_charge", [s["skipped"].replace(verb="ener_charge", done=0)]
    yield "power:up", [s["power"].replace(amount=3000, power=8000)]
    for what in (LastingKind("banish_to_trash"), LastingKind("keyword", keyword="lancer"),
                 LastingKind("cost_change", amounts=(("white", 1), ("colourless", 2))),
                 LastingKind("cost_modify", amounts=(("colourless", 1),))):
        yield f"lasting:{what}", [s["lasting"].replace(kind=what, card="X1")]
    for kind, reasons in REASON_KINDS.items():
        for reason in reasons:
            yield f"{kind}:{reason}", [s[kind].replace(reason=reason)]
    for reason in ILLEGAL_REASONS:
        yield f"illegal:{reason}", [s["illegal"].replace(reason=reason)]
    for trigger in TRIGGERS:
        yield f"trigger:{trigger}", [s["trigger"].replace(trigger=trigger)]
    # moves: every verb, one card and three
    move = s["move"]
    verbs = [*messages().moves, *KINDS, *GENERIC_MOVE_VERBS]
    for verb in dict.fromkeys(verbs):
        if verb in ("*", "rule"):
            continue
        where, to = VERB_ZONES.get(verb, ("deck", "trash"))
        one = move.replace(verb=verb, cause="rule" if verb in KINDS else "effect",
                           from_zone=Z(f"p1.{where}"), to_zone=Z(f"p1.{to}"))
        yield f"move:{verb}", [one]
        yield f"move:{verb}:3", [one.replace(card=c) for c in LABELS]
    # choices: every kind, with a pick and with none
    choice = s["choice"]
    kinds = sorted({*CHOICE_KINDS, *messages().choices})
    for kind in kinds:
        if kind == "use":
            continue
        options = CHOICE_OPTIONS.get(kind, ("X1", "X2"))
        picked = tuple(o for o in options if o != "none")[:1]
        yield f"choice:{kind}", [choice.replace(kind=kind, options=options, picked=picked)]
        yield f"choice:{kind}:none", [choice.replace(kind=kind, options=options, picked=())]
    yield "choice:target:2", [choice.replace(picked=("X1", "X2"))]
    burst = AbilityRef.life_burst("X1")
    ability = AbilityRef("X1", 0)
    use = choice.replace(kind="use", options=("yes", "no"))
    yield "choice:use:burst:yes", [use.replace(picked=("yes",), about=burst),
                                   s["burst"].replace(card="X1")]
    yield "choice:use:burst:no", [use.replace(picked=("no",), about=burst),
                                  s["burst"].replace(card="X1", used=False)]
    yield "choice:use:ability:yes", [use.replace(picked=("yes",), about=ability),
                                     s["effect_begin"].replace(ability=ability)]
    yield "choice:use:ability:no", [use.replace(picked=("no",), about=ability),
                                    s["trigger_declined"].replace(ability=ability)]
    yield "choice:use:alone", [use.replace(picked=("yes",), about=burst)]
    yield "burst:after-crush", [s["move"].replace(verb="crush", from_zone=Z("p2.life"),
                                                  to_zone=Z("p2.check"), player="p2",
                                                  card=c) for c in ("X1", "X2")]
    yield "effect:paid-with", [s["pay"].replace(paid=(Paid("X2", "white"),))]


def review_lines(lang: str) -> list[str]:
    """``KEY  SENTENCE`` for every sample (a sample of several events: its sentences joined
    with `` | ``), each told by a fresh narrator (so cards are named at first mention)."""
    out = []
    for key, events in samples():
        n = narrator(lang)
        out.append(f"{key}  {' | '.join(n.events(events))}")
    return out


def main(argv: list[str]) -> int:
    for lang in argv or LANGS:
        print(f"== {lang}")
        for line in review_lines(lang):
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
