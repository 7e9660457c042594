"""Narration: every event type, and every word it carries, told in ja, en and zh-Hans from
the gettext catalogues; the catalogues compile with pybabel and match the code."""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from judge.corpus import load_corpus
from judge.engine import events as ev
from judge.engine.actions import ACTIONS, ILLEGAL_REASONS
from judge.engine.cards import FILLER, TRIGGERS
from judge.engine.choices import CHOICE_KINDS
from judge.engine.costs import Cost
from judge.engine.events import EVENT_KINDS, AbilityRef, CardSet, Event, LastingKind, Paid
from judge.engine.mechanics.bet import Coins
from judge.engine.mechanics.gate import GateSet
from judge.engine.mechanics.guard import Guard
from judge.engine.mechanics.heaven import Heaven
from judge.engine.mechanics.registrations import Registrations
from judge.engine.mechanics.ride import GetOff, Ride
from judge.engine.mechanics.token_arts import TokenGone, TokenMade
from judge.engine.mechanics.trap import Reveal
from judge.engine.mechanics.virus import VirusRemoved, VirusSet
from judge.engine.rule_processing import KINDS
from judge.engine.state import ATTACK_STEPS, GAME_PHASES, ZONES, ZoneRef
from judge.i18n import LANGS, LOCALES, catalog, catalogue_problems, compile_catalogues, po_path
from judge.narrate import (
    ACTION_MESSAGES,
    ACTION_NAMES,
    ATTACK_STEP_TERMS,
    GENERIC_MOVE_VERBS,
    ILLEGAL_NAMES,
    PHASE_TERMS,
    RULE_KIND_NAMES,
    TRIGGER_NAMES,
    Narrator,
    all_message_ids,
    glossary_names,
    messages,
    narrator_for,
    plural_pairs,
)
from judge.paths import project_root

PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
Z = ZoneRef.parse

#: A sample event of every kind, with the fields the engine gives it.
SAMPLES: dict[str, Event] = {e.type: e for e in (
    ev.Step(seq=1, step=1, cause="game", index=1, action="use"),
    ev.Phase(seq=1, step=1, cause="game", player="p1", phase="main"),
    ev.TurnBegin(seq=1, step=1, cause="game", player="p2", turn=4),
    ev.TurnEnd(seq=1, step=1, cause="game", player="p1", turn=3, reason="second_refresh"),
    ev.EffectBegin(seq=1, step=1, cause="effect", player="p1", ability=AbilityRef("X1", 0)),
    ev.EffectEnd(seq=1, step=1, cause="effect", player="p1",
                 ability=AbilityRef.life_burst("X1")),
    ev.Move(seq=1, step=1, cause="effect", player="p1", card="X1", from_zone=Z("p1.deck"),
            to_zone=Z("p1.trash"), verb="mill"),
    ev.Skipped(seq=1, step=1, cause="effect", player="p1", verb="draw", wanted=2, done=1),
    ev.Fizzle(seq=1, step=1, cause="effect", player="p1", card="X1", reason="not-on-field"),
    ev.Banish(seq=1, step=1, cause="rule", player="p2", card="X1", from_zone=Z("p2.signi1"),
              to_zone=Z("p2.ener")),
    ev.Shuffle(seq=1, step=1, cause="rule", player="p1", to_zone=Z("p1.deck"),
               order=("X1",)),
    ev.Look(seq=1, step=1, cause="effect", player="p1", card="X1", from_zone=Z("p2.deck"),
            seen_by="p1"),
    ev.AttackNegated(seq=1, step=1, cause="effect", player="p2", card="X1",
                     source=AbilityRef("Y1", 0)),
    ev.Refresh(seq=1, step=1, cause="rule", player="p1", count=1, deck_size=3,
               life_moved=True),
    ev.RefreshWaits(seq=1, step=1, cause="rule", player="p1", reason="empty-trash"),
    ev.RuleCheck(seq=1, step=1, cause="rule", kinds=("power", "refresh"),
                 acts=(ev.Acting("power", "X1"), ev.Acting("refresh", "p1"))),
    ev.Power(seq=1, step=1, cause="effect", player="p2", card="X1", amount=-5000, power=0),
    ev.Level(seq=1, step=1, cause="effect", player="p2", card="X1", amount=1, level=3),
    ev.Limit(seq=1, step=1, cause="effect", player="p2", amount=-4, limit=7),
    ev.Lasting(seq=1, step=1, cause="effect", player="p2",
               kind=LastingKind("banish_to_trash"), until="end_of_turn"),
    ev.Replaced(seq=1, step=1, cause="rule", player="p2", card="X1", kind="banish",
                instead="trash"),
    ev.Trigger(seq=1, step=1, cause="game", player="p1", card="X1",
               ability=AbilityRef("X1", 0), trigger="banished"),
    ev.TriggerLost(seq=1, step=1, cause="game", player="p1", card="X1",
                   ability=AbilityRef("X1", 0), reason="left-trash"),
    ev.TriggerDeclined(seq=1, step=1, cause="game", player="p1", card="X1",
                       ability=AbilityRef("X1", 0)),
    ev.TriggerDropped(seq=1, step=1, cause="game", player="p1", card="X1",
                      ability=AbilityRef("X1", 0), reason="end_phase"),
    ev.Burst(seq=1, step=1, cause="game", player="p2", card="X1", used=True),
    ev.Choice(seq=1, step=1, cause="game", player="p1", kind="target", options=("X1", "X2"),
              picked=("X1",)),
    ev.GameStart(seq=1, step=1, cause="game", first="p2"),
    ev.Redraw(seq=1, step=1, cause="game", player="p1", count=2),
    ev.AttackStep(seq=1, step=1, cause="game", player="p1", attack_step="signi"),
    ev.ArtsPass(seq=1, step=1, cause="game", player="p2"),
    ev.Attack(seq=1, step=1, cause="game", player="p1", card="X1", from_zone=Z("p1.signi1")),
    ev.Battle(seq=1, step=1, cause="battle", player="p1", card="X1", defender="X2",
              attack_power=5000, defend_power=3000, banished=True),
    Guard(seq=1, step=1, cause="game", player="p2", card="X2"),
    Coins(seq=1, step=1, cause="cost", player="p1", card="X1",
          source=AbilityRef.keyword_ability("X1", "bet"), amount=-1, coins=2),
    TokenMade(seq=1, step=1, cause="effect", player="p1", card="X1",
              to_zone=Z("p1.lrig_deck")),
    TokenGone(seq=1, step=1, cause="game", player="p1", card="X1", from_zone=Z("p1.check")),
    Reveal(seq=1, step=1, cause="game", player="p2", card="X2", from_zone=Z("p2.trap1"),
           source=AbilityRef.of_card("X1")),
    VirusSet(seq=1, step=1, cause="effect", player="p2", to_zone=Z("p2.signi1"),
             source=AbilityRef.of_card("X1")),
    VirusRemoved(seq=1, step=1, cause="effect", player="p2", from_zone=Z("p2.signi1"),
                 source=AbilityRef.of_card("X1")),
    GateSet(seq=1, step=1, cause="effect", player="p2", to_zone=Z("p2.signi3"),
            source=AbilityRef.of_card("X1")),
    Registrations(seq=1, step=1, cause="effect", player="p1", source=AbilityRef.of_card("X1"),
                  amount=2, registrations=5),
    Heaven(seq=1, step=1, cause="game", player="p1", card="X2"),
    Ride(seq=1, step=1, cause="effect", player="p1", card="X1", signi="X2",
         source=AbilityRef("X2", 0)),
    GetOff(seq=1, step=1, cause="game", player="p1", card="X1", signi="X2"),
    ev.Pay(seq=1, step=1, cause="cost", player="p1", source=AbilityRef.of_card("X1"),
           cost=Cost.parse("white:1,colourless:1"),
           paid=(Paid("X2", "white"), Paid("X3", "colourless")), exceed=()),
    ev.Down(seq=1, step=1, cause="effect", player="p1", card="X1"),
    ev.Up(seq=1, step=1, cause="effect", player="p1", card="X1"),
    ev.Freeze(seq=1, step=1, cause="effect", player="p2", card="X1"),
    ev.GameOver(seq=1, step=1, cause="game", player="p2", winner="p1", reason="damage"),
    ev.Illegal(seq=1, step=1, cause="game", reason="not-main-phase", message="x"),
    ev.Instead(seq=1, step=1, cause="effect", player="p2", card="X1",
               source=AbilityRef("X1", 0), kind="banish"),
    ev.Prevented(seq=1, step=1, cause="effect", player="p1", what="draw", count=1),
    ev.OpSkipped(seq=1, step=1, cause="effect", player="p1", card="X1",
                 source=AbilityRef("X1", 0), op="draw", reason="not-done"),
)}
LABELS = ("X1", "X2", "X3")


def _translation(lang: str, msgid: str) -> object:
    message = catalog(lang).get(msgid)
    assert message is not None, f"{lang}: no entry for {msgid!r}"
    assert not message.fuzzy, f"{lang}: fuzzy entry for {msgid!r}"
    return message.string


def test_every_event_type_has_a_message() -> None:
    """Narration's own messages and those the mechanics declare (Guard's event) together: one
    for every kind of the registry, which docs/events.md lists (tests/test_events.py)."""
    assert set(messages().events) == set(EVENT_KINDS)
    assert set(SAMPLES) == set(EVENT_KINDS)
    assert all(type(e) is EVENT_KINDS[t] for t, e in SAMPLES.items())


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_type_is_translated(lang: str) -> None:
    missing = []
    for etype, msgid in messages().events.items():
        string = _translation(lang, msgid)
        strings = [string] if isinstance(string, str) else list(string)  # type: ignore[call-overload]
        if not all(strings):
            missing.append(etype)
        for text in strings:
            assert set(PLACEHOLDER.findall(text)) <= set(PLACEHOLDER.findall(msgid)) | {"num"}, \
                (lang, msgid, text)
    assert not missing, f"{lang}: event types without a message: {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_narration_message_is_translated(lang: str) -> None:
    ids = all_message_ids()
    untranslated = [m for m in ids if not _translation(lang, m)]
    assert not untranslated, untranslated
    for singular, plural in plural_pairs():
        string = _translation(lang, singular)
        assert not isinstance(string, str) and all(string), (lang, singular)  # type: ignore[arg-type]
        assert catalog(lang).get(singular).id == (singular, plural)  # type: ignore[union-attr]


def test_vocabularies_are_covered() -> None:
    assert set(ILLEGAL_REASONS) <= set(ILLEGAL_NAMES)
    assert set(KINDS) <= set(RULE_KIND_NAMES)
    assert set(TRIGGERS) <= set(TRIGGER_NAMES)
    assert set(CHOICE_KINDS) <= set(messages().choices)
    assert set(ACTIONS) <= set(ACTION_MESSAGES)
    assert set(ACTIONS) <= set(ACTION_NAMES)
    assert set(GAME_PHASES) <= set(PHASE_TERMS)
    assert set(ATTACK_STEPS) <= set(ATTACK_STEP_TERMS)
    names = glossary_names()
    for term in (*PHASE_TERMS.values(), *ATTACK_STEP_TERMS.values()):
        assert term in names, term
    n = Narrator("en", {})
    for zone in ZONES:
        assert n.zone_name(zone) != zone or zone in ("hand", "trash"), zone
    # what a card's short name is made of: every operation, card type and trigger named
    from judge.engine.cards import CARD_TYPES, OPS
    from judge.narrate.cards import OP_NAMES, OP_TERMS, TYPE_TERMS

    assert set(OPS) <= set(OP_NAMES) | set(OP_TERMS)
    assert set(CARD_TYPES) <= set(TYPE_TERMS)
    assert all(t in names for t in (*OP_TERMS.values(), *TYPE_TERMS.values()))


@pytest.mark.parametrize("lang", LANGS)
def test_sample_events_narrate_in_every_language(lang: str) -> None:
    n = Narrator(lang, {label: FILLER for label in LABELS})
    for etype, event in SAMPLES.items():
        text = n.event(event)
        assert text and "%(" not in text and "?" not in text, (etype, text)
        assert text != str(event), (etype, text)
        if lang != "en":  # no English words left: only card labels are Latin
            rest = re.sub(r"X\d", "", text)
            assert not re.search(r"[A-Za-z]{2,}", rest), (lang, etype, text)


def test_grouped_moves_and_plurals() -> None:
    n = Narrator("en", {})
    moves = [ev.Move(seq=i, step=1, cause="rule", player="p1", card=f"t{i}",
                     from_zone=Z("p1.trash"), to_zone=Z("p1.deck"), verb="refresh")
             for i in (1, 2, 3)]
    # the player of both zones named once
    assert n.events(moves) == [
        "The refresh puts t1, t2, t3 from Player 1's trash into their main deck."]
    mill = [ev.Move(seq=i, step=1, cause="effect", player="p1", card=f"d{i}",
                    from_zone=Z("p1.deck"), to_zone=Z("p1.trash"), verb="mill")
            for i in (1, 2)]
    assert n.events(mill) == ["d1, d2 are put from the top of Player 1's main deck into "
                              "their trash."]
    assert Narrator("ja", {}).events(mill) == [
        "プレイヤー1のメインデッキの上からd1、d2をトラッシュに置く。"]
    assert Narrator("zh-Hans", {}).events(mill) == ["将玩家1的主牌组顶的d1、d2放入废弃区。"]
    # each player named where the zones are two players'
    across = mill[0].replace(to_zone=Z("p2.ener"), verb="to_ener")
    assert n.event(across) == "d1 is put from Player 1's main deck into Player 2's Ener Zone."
    # a sentence that names only where the card goes names its player
    start = mill[0].replace(verb="start", from_zone=Z("p1.lrig_deck"), to_zone=Z("p1.lrig"))
    assert n.event(start) == "d1 is put into Player 1's LRIG zone as the level 0 LRIG."
    assert n.event(SAMPLES["redraw"]) == "Player 1 redraws 2 cards."


def test_sentences_name_cards_by_label_and_the_key_by_what_they_are() -> None:
    """A sentence names a card by its label; the page's key to the cards says what each is in
    a few words: a short name kept as it is, a long description replaced by the card's type
    and what sets it apart (judge/narrate/cards.py)."""
    from judge.scenario.load import card_library

    library = card_library()
    for lang in LANGS:
        n = Narrator(lang, {"S1": library["signi-2"], "k1": library["burst-draw-signi"],
                            "d1": FILLER})
        assert n.card("S1") == "S1" and n.card("k1") == "k1"
        assert n.card_short("S1") == library["signi-2"].names[lang]  # short already
        assert n.card_short("d1") is None  # no name: the label says it all
    en = Narrator("en", {"k1": library["burst-draw-signi"]})
    assert en.card_short("k1") == "SIGNI with a draw burst"
    assert Narrator("ja", en.cards).card_short("k1") == "シグニ（ライフバースト：ドロー）"
    assert Narrator("zh-Hans", en.cards).card_short("k1") == "精灵（生命爆发：抽牌）"


def test_every_corpus_event_is_narrated() -> None:
    corpus = load_corpus()
    for ruling in corpus.rulings:
        for lang in LANGS:
            n = narrator_for(ruling.scenario, lang)
            for rr in ruling.replays.values():
                for event in rr.events:
                    text = n.event(event)
                    assert text != str(event) and "%(" not in text, (ruling.id, text)
                    if isinstance(event, ev.Move):
                        verb = event.verb
                        assert verb in (*messages().moves, *RULE_KIND_NAMES,
                                        *GENERIC_MOVE_VERBS), verb


# ---------------------------------------------------------------------------- catalogues


@pytest.mark.parametrize("lang", LANGS)
def test_catalogue_is_complete(lang: str) -> None:
    assert catalogue_problems(lang) == []


def test_catalogues_compile_with_the_babel_api(tmp_path: Path) -> None:
    written = compile_catalogues(tmp_path)
    assert [p.name for p in written] == ["messages.mo"] * 3
    assert all(p.stat().st_size > 1000 for p in written)


def test_pybabel_compile_passes(tmp_path: Path) -> None:
    pybabel = shutil.which("pybabel")
    command = [pybabel] if pybabel else [sys.executable, "-m", "babel.messages.frontend"]
    for lang in LANGS:
        target = tmp_path / f"{lang}.mo"
        done = subprocess.run([*command, "compile", "-i", str(po_path(lang)), "-o", str(target),
                               "-l", LOCALES[lang], "--statistics"],
                              capture_output=True, text=True, timeout=60)
        assert done.returncode == 0, done.stderr
        assert "error" not in done.stderr.lower(), done.stderr
        assert target.stat().st_size > 1000


def test_catalogues_hold_every_extracted_message(tmp_path: Path) -> None:
    """``pybabel extract`` over the code and templates finds exactly the catalogues' messages:
nothing they lack, nothing obsolete (the documented update keeps every translation)."""
    pybabel = shutil.which("pybabel")
    command = [pybabel] if pybabel else [sys.executable, "-m", "babel.messages.frontend"]
    pot = tmp_path / "messages.pot"
    done = subprocess.run([*command, "-q", "extract", "-F", "babel.cfg", "-k", "N_",
                           "-k", "NP_:1,2", "-o", str(pot), "."], cwd=project_root(),
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    with pot.open("rb") as fh:
        template = read_po(fh)
    wanted = {m.id if isinstance(m.id, str) else m.id[0] for m in template if m.id}
    assert len(wanted) > 200
    for lang in LANGS:
        have = {m.id if isinstance(m.id, str) else m.id[0] for m in catalog(lang) if m.id}
        assert not wanted - have, f"{lang}: run pybabel update (docs/site.md): " \
                                  f"{sorted(wanted - have)[:5]}"
        # and nothing the code no longer says: `pybabel update` would drop it
        assert not have - wanted, f"{lang}: messages no code or template uses: " \
                                  f"{sorted(have - wanted)[:5]}"


def test_every_reason_code_the_engine_uses_is_registered_and_narrated() -> None:
    """Reasons are codes, not English: the engine's literal reason codes are all registered in
    judge.engine.events.REASONS, and narration has a sentence for each in every language."""
    import re
    from pathlib import Path

    from judge.engine.events import REASONS
    from judge.narrate import REASON_NAMES

    engine = Path(__file__).resolve().parent.parent / "judge" / "engine"
    used = set()
    for path in engine.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        used |= set(re.findall(r'reason="([^"{]+)"', text))
        used |= set(re.findall(r'return "([a-z][a-z-]+)"  # reason', text))
    assert used, "no reason codes found: the pattern no longer matches the engine's code"
    assert used <= set(REASONS), f"unregistered reason codes: {used - set(REASONS)}"
    assert set(REASONS) <= set(REASON_NAMES), \
        f"reason codes without narration: {set(REASONS) - set(REASON_NAMES)}"


# ---------------------------------------------------------------------------- the review


@pytest.mark.parametrize("lang", LANGS)
def test_every_kind_reads_as_a_judge_would_say_it(lang: str) -> None:
    """Every event kind, variant, move verb, choice kind, trigger, reason and refusal told in
    each language (tests/narration_review.py, which a reader runs to review them): a sentence
    with nothing left unfilled, no engine code or internal id, and in Japanese and Chinese no
    English word (only the card labels are Latin)."""
    from narration_review import REASON_KINDS, review_lines
    from test_site_text import INTERNAL_IDS, code_pattern, engine_codes

    from judge.engine.events import REASONS

    lines = review_lines(lang)
    keys = {line.split("  ", 1)[0] for line in lines}
    assert set(EVENT_KINDS) <= keys
    assert {f"choice:{k}" for k in CHOICE_KINDS if k != "use"} <= keys
    assert {f"move:{v}" for v in (*messages().moves, *KINDS) if v not in ("*", "rule")} <= keys
    assert {f"trigger:{t}" for t in TRIGGERS} <= keys
    assert {f"illegal:{r}" for r in ILLEGAL_REASONS} <= keys
    assert set(REASONS) == {r for reasons in REASON_KINDS.values() for r in reasons}
    codes = code_pattern(engine_codes())
    for line in lines:
        key, text = line.split("  ", 1)
        assert text and "%(" not in text and "?" not in text, line
        assert not codes.search(text) and not INTERNAL_IDS.search(text), line
        assert "chooses yes" not in text and "(whether" not in text, line
        if lang != "en":
            rest = re.sub(r"X\d", "", text)
            assert not re.search(r"[A-Za-z]{2,}", rest), line


def test_a_use_choice_is_told_once() -> None:
    """"Player 2 uses the Life Burst of k2", once: the burst event after the choice repeats
    it and is not told again; nor is an ability declined after the player chose not to use
    it."""
    burst = AbilityRef.life_burst("k2")
    choice = ev.Choice(seq=1, step=1, cause="game", player="p2", kind="use",
                       options=("yes", "no"), picked=("yes",), about=burst)
    used = ev.Burst(seq=2, step=1, cause="game", player="p2", card="k2", used=True)
    n = Narrator("en", {})
    assert n.events([choice, used]) == ["Player 2 uses the Life Burst of k2."]
    assert n.events([used]) == ["Player 2 uses the Life Burst of k2."]
    no = choice.replace(picked=("no",), about=AbilityRef("S1", 0))
    declined = ev.TriggerDeclined(seq=2, step=1, cause="game", player="p2", card="S1",
                                  ability=AbilityRef("S1", 0))
    assert n.events([no, declined]) == ["Player 2 does not use the ability of S1."]
    order = ev.Choice(seq=1, step=1, cause="game", player="p2", kind="burst_order",
                      options=("k1", "k2"), picked=("k2",))
    assert n.event(order) == "Player 2 resolves the Life Burst of k2 first."
    assert Narrator("ja", {}).event(order) == "プレイヤー2はk2のライフバーストを先に解決する。"
    assert Narrator("zh-Hans", {}).event(order) == "玩家2先处理k2的生命爆发。"


def test_every_operation_and_class_has_a_name_in_each_language() -> None:
    """The card key names an ARTS or Spell by its first operation, and a cost by the class it
    discards: each operation and class has a name, translated in every catalogue (an
    untranslated one would show the engine's id, "cannot", on a Japanese page)."""
    from judge.engine.cards import OPS
    from judge.engine.classes import CLASSES
    from judge.i18n import translations
    from judge.langs import LANGS
    from judge.narrate.cards import OP_NAMES, OP_TERMS

    assert not set(OPS) - set(OP_TERMS) - set(OP_NAMES)
    for lang in LANGS:
        if lang == "en":
            continue
        catalogue = translations(lang)
        for message in [OP_NAMES[op] for op in OPS if op in OP_NAMES] + list(CLASSES.values()):
            assert catalogue.gettext(message) != message, (lang, message)


# ---------------------------------------------------------------------------- a judge's order


def refresh_events(player: str = "p1", count: int = 2) -> list[Event]:
    """A refresh as the engine logs it: the moves, the shuffle, the life cloth, then the
    refresh itself."""
    moves: list[Event] = [
        ev.Move(seq=i, step=1, cause="rule", player=player, card=f"t{i}",
                from_zone=Z(f"{player}.trash"), to_zone=Z(f"{player}.deck"), verb="refresh")
        for i in (1, 2)]
    return [*moves,
            ev.Shuffle(seq=3, step=1, cause="rule", player=player, to_zone=Z(f"{player}.deck"),
                       order=("t2", "t1")),
            ev.Move(seq=4, step=1, cause="rule", player=player, card="l1",
                    from_zone=Z(f"{player}.life"), to_zone=Z(f"{player}.trash"),
                    verb="refresh_life"),
            ev.Refresh(seq=5, step=1, cause="rule", player=player, count=count, deck_size=2,
                       life_moved=True)]


def test_a_refresh_is_told_summary_first_then_the_cards_it_moves() -> None:
    """"Player 1 refreshes (their 2nd this turn): ..." comes first, not after the cards, where
    it read like a second refresh."""
    told = Narrator("en", {}).events(refresh_events())
    assert told == [
        "Player 1 refreshes (their 2nd this turn): the trash becomes a new main deck of 2 "
        "cards.",
        "The refresh puts t1, t2 from Player 1's trash into their main deck.",
        "The main deck of Player 1 is shuffled.",
        "The refresh puts l1 from Player 1's Life Cloth into their trash."]
    assert Narrator("ja", {}).events(refresh_events())[0] == \
        "プレイヤー1がリフレッシュする（このターン2回目）。トラッシュが2枚の新しいメインデッキになる。"
    assert Narrator("zh-Hans", {}).events(refresh_events())[0] == \
        "玩家1进行重构（本回合第2次）：废弃区成为2张的新主牌组。"
    assert Narrator("en", {}).events(refresh_events(count=1))[0] == \
        "Player 1 refreshes: the trash becomes a new main deck of 2 cards."


def test_a_check_of_rule_processing_is_told_at_once_before_its_choices_and_moves() -> None:
    check = ev.RuleCheck(seq=6, step=1, cause="rule", kinds=("power", "refresh"),
                         acts=(ev.Acting("power", "P1"), ev.Acting("refresh", "p1")))
    banish = ev.Banish(seq=12, step=1, cause="rule", player="p1", card="P1",
                       from_zone=Z("p1.signi1"), to_zone=Z("p1.ener"))
    events = [check, *(e.replace(seq=e.seq + 6) for e in refresh_events(count=1)), banish]
    told = Narrator("en", {}).events(events)
    assert told[0] == ("At the same time, rule processing applies to P1 (power 0 or less); "
                       "Player 1 (refresh).")
    assert told[1].startswith("Player 1 refreshes: ") and told[-1].startswith("P1 is banished")
    assert Narrator("ja", {}).events(events)[0] == \
        "同時にルール処理を行う：P1（パワー0以下）；プレイヤー1（リフレッシュ）。"
    assert Narrator("zh-Hans", {}).events(events)[0] == \
        "同时进行规则处理：P1（力量为0以下）；玩家1（重构）。"
    # two kinds on one card: named together, then the owner's choice of their order
    order = ev.Choice(seq=5, step=1, cause="game", player="p2", kind="rule_order",
                      options=("power", "excess"), picked=("power",))
    both = ev.RuleCheck(seq=6, step=1, cause="rule", kinds=("power",),
                        acts=(ev.Acting("power", "E1"), ev.Acting("excess", "E1")))
    assert Narrator("en", {}).events([order, both]) == [
        "At the same time, rule processing applies to E1 (power 0 or less, level or limit "
        "exceeded).",
        "Player 2 chooses the rule processing that applies first: power 0 or less."]
    one = ev.RuleCheck(seq=6, step=1, cause="rule", kinds=("check",),
                       acts=(ev.Acting("check", "k1"),))
    assert Narrator("en", {}).event(one) == \
        "Rule processing applies to k1 (a crushed card left in the check zone)."


def test_a_grow_is_told_with_its_cost_before_how_it_was_paid() -> None:
    choice = ev.Choice(seq=1, step=1, cause="game", player="p1", kind="pay",
                       options=(CardSet(("w1", "r1")), CardSet(("w1", "r2"))),
                       picked=(CardSet(("w1", "r2")),))
    paid = [ev.Move(seq=i, step=1, cause="cost", player="p1", card=card,
                    from_zone=Z("p1.ener"), to_zone=Z("p1.trash"),
                    source=AbilityRef.of_card("G2"), verb="pay")
            for i, card in ((2, "w1"), (3, "r2"))]
    pay = ev.Pay(seq=4, step=1, cause="cost", player="p1", source=AbilityRef.of_card("G2"),
                 cost=Cost.parse("white:1,colourless:1"),
                 paid=(Paid("w1", "white"), Paid("r2", "colourless")), exceed=())
    grow = ev.Move(seq=5, step=1, cause="game", player="p1", card="G2",
                   from_zone=Z("p1.lrig_deck"), to_zone=Z("p1.lrig"), verb="grow")
    assert Narrator("en", {}).events([choice, *paid, pay, grow]) == [
        "Player 1 grows into G2, paying white 1, colourless 1: w1 as white, r2 as colourless.",
        "Player 1 chooses to pay with w1 + r2.",
        "w1, r2 go from Player 1's Ener Zone to their trash to pay a cost."]
    # any other payment: the cost first, then the cards that paid it
    use = grow.replace(verb="use", to_zone=Z("p1.check"))
    told = Narrator("en", {}).events([use, choice, *paid, pay.replace(seq=6)])
    assert told[1].startswith("Player 1 pays white 1, colourless 1 for G2") and \
        told[2].startswith("Player 1 chooses to pay"), told


def test_an_attack_says_how_many_life_cloth_it_crushes_before_the_crushes() -> None:
    attack = ev.Attack(seq=1, step=1, cause="game", player="p1", card="S1",
                       from_zone=Z("p1.signi1"))
    crushes = [ev.Move(seq=i, step=1, cause="battle", player="p2", card=f"k{i}",
                       from_zone=Z("p2.life"), to_zone=Z("p2.check"),
                       source=AbilityRef.of_card("S1"), verb="crush") for i in (2, 3)]
    used = ev.Burst(seq=4, step=1, cause="game", player="p2", card="k2", used=True)
    begin = ev.EffectBegin(seq=5, step=1, cause="effect", player="p2", card="k2",
                           ability=AbilityRef.life_burst("k2"))
    told = Narrator("en", {}).events([attack, *crushes, used, begin])
    assert told == [
        "S1 attacks from Player 1's SIGNI zone 1 and crushes 2 of Player 2's Life Cloth.",
        "k2, k3 are crushed from Player 2's Life Cloth into their check zone.",
        "Player 2 uses the Life Burst of k2."]  # "begins to resolve" would say it again
    assert Narrator("ja", {}).events([attack, *crushes])[0] == \
        "S1がプレイヤー1のシグニゾーン1からアタックし、プレイヤー2のライフクロスを2枚クラッシュする。"


@pytest.mark.parametrize("lang", LANGS)
def test_an_attack_limit_is_told_in_every_language(lang: str) -> None:
    """An attack limit in force (``attack_limit``) says which SIGNI, how many attacks and how
    long, in the page's language."""
    lasting = ev.Lasting(seq=1, step=1, cause="effect", player="p2", card="X1",
                         kind=LastingKind("attack_limit", amounts=(("attack", 1),)),
                         until="end_of_next_turn")
    text = Narrator(lang, {"X1": FILLER}).event(lasting)
    assert "X1" in text and "1" in text.replace("X1", "") and "%(" not in text, text
    if lang != "en":
        assert not re.search(r"[A-Za-z]{2,}", re.sub(r"X\d", "", text)), text
