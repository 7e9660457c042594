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
from judge.engine.actions import ACTIONS, ILLEGAL_REASONS
from judge.engine.cards import FILLER, TRIGGERS
from judge.engine.choices import CHOICE_KINDS
from judge.engine.events import EVENT_TYPES, Event
from judge.engine.rule_processing import KINDS
from judge.engine.state import ATTACK_STEPS, GAME_PHASES, ZONES
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

#: A sample event of every type, with the details the engine gives it.
SAMPLES: dict[str, Event] = {
    "step": Event(1, 1, "step", "game", detail={"index": 1, "action": "use"}),
    "phase": Event(1, 1, "phase", "game", "p1", detail={"phase": "main"}),
    "turn_begin": Event(1, 1, "turn_begin", "game", "p2", detail={"turn": 4}),
    "turn_end": Event(1, 1, "turn_end", "game", "p1", detail={"turn": 3,
                                                             "reason": "second_refresh"}),
    "effect_begin": Event(1, 1, "effect_begin", "effect", "p1", detail={"ability": "X1#0"}),
    "effect_end": Event(1, 1, "effect_end", "effect", "p1", detail={"ability": "X1#burst"}),
    "move": Event(1, 1, "move", "effect", "p1", "X1", "p1.deck", "p1.trash",
                  detail={"verb": "mill"}),
    "skipped": Event(1, 1, "skipped", "effect", "p1", detail={"verb": "draw", "wanted": 2,
                                                              "done": 1}),
    "fizzle": Event(1, 1, "fizzle", "effect", "p1", "X1", detail={"reason": "not-on-field"}),
    "banish": Event(1, 1, "banish", "rule", "p2", "X1", "p2.signi1", "p2.ener"),
    "shuffle": Event(1, 1, "shuffle", "rule", "p1", detail={"order": ["X1"]}),
    "refresh": Event(1, 1, "refresh", "rule", "p1", detail={"count": 1, "deck_size": 3,
                                                            "life_moved": True}),
    "refresh_waits": Event(1, 1, "refresh_waits", "rule", "p1",
                           detail={"reason": "empty-trash"}),
    "rule_check": Event(1, 1, "rule_check", "rule", detail={"kinds": ["power", "refresh"]}),
    "power": Event(1, 1, "power", "effect", "p2", "X1", detail={"amount": -5000, "power": 0}),
    "level": Event(1, 1, "level", "effect", "p2", "X1", detail={"amount": 1, "level": 3}),
    "limit": Event(1, 1, "limit", "effect", "p2", detail={"amount": -4, "limit": 7}),
    "lasting": Event(1, 1, "lasting", "effect", "p2", detail={"kind": "banish_to_trash",
                                                              "until": "end_of_turn"}),
    "replaced": Event(1, 1, "replaced", "rule", "p2", "X1", detail={"kind": "banish",
                                                                    "instead": "trash"}),
    "trigger": Event(1, 1, "trigger", "game", "p1", "X1", detail={"ability": "X1#0",
                                                                  "trigger": "banished"}),
    "trigger_lost": Event(1, 1, "trigger_lost", "game", "p1", "X1",
                          detail={"ability": "X1#0", "reason": "left-trash"}),
    "trigger_declined": Event(1, 1, "trigger_declined", "game", "p1", "X1",
                              detail={"ability": "X1#0"}),
    "trigger_dropped": Event(1, 1, "trigger_dropped", "game", "p1", "X1",
                             detail={"ability": "X1#0", "reason": "end_phase"}),
    "burst": Event(1, 1, "burst", "game", "p2", "X1", detail={"used": True}),
    "choice": Event(1, 1, "choice", "game", "p1", detail={"kind": "target",
                                                          "options": ["X1", "X2"],
                                                          "picked": ["X1"]}),
    "game_start": Event(1, 1, "game_start", "game", detail={"first": "p2"}),
    "redraw": Event(1, 1, "redraw", "game", "p1", detail={"count": 2}),
    "attack_step": Event(1, 1, "attack_step", "game", "p1", detail={"step": "signi"}),
    "arts_pass": Event(1, 1, "arts_pass", "game", "p2"),
    "attack": Event(1, 1, "attack", "game", "p1", "X1", "p1.signi1"),
    "battle": Event(1, 1, "battle", "battle", "p1", "X1", detail={
        "defender": "X2", "attack_power": 5000, "defend_power": 3000, "banished": True}),
    "guard": Event(1, 1, "guard", "game", "p2", "X2"),
    "pay": Event(1, 1, "pay", "cost", "p1", source="X1", detail={
        "cost": "white:1,colourless:1", "paid": ["X2:white", "X3:colourless"], "exceed": []}),
    "down": Event(1, 1, "down", "effect", "p1", "X1"),
    "up": Event(1, 1, "up", "effect", "p1", "X1"),
    "freeze": Event(1, 1, "freeze", "effect", "p2", "X1"),
    "game_over": Event(1, 1, "game_over", "game", "p2", detail={
        "winner": "p1", "reason": "damage"}),
    "illegal": Event(1, 1, "illegal", "game", detail={"reason": "not-main-phase",
                                                      "message": "x"}),
}
LABELS = ("X1", "X2", "X3")


def _translation(lang: str, msgid: str) -> object:
    message = catalog(lang).get(msgid)
    assert message is not None, f"{lang}: no entry for {msgid!r}"
    assert not message.fuzzy, f"{lang}: fuzzy entry for {msgid!r}"
    return message.string


def test_every_event_type_has_a_message() -> None:
    """Narration's own messages and those the mechanics declare (Guard's event) together."""
    assert set(messages().events) == set(EVENT_TYPES)
    assert set(SAMPLES) == set(EVENT_TYPES)


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
    moves = [Event(i, 1, "move", "rule", "p1", f"t{i}", "p1.trash", "p1.deck",
                   detail={"verb": "refresh"}) for i in (1, 2, 3)]
    assert n.events(moves) == [
        "The refresh puts t1, t2, t3 from Player 1's trash into Player 1's main deck."]
    mill = [Event(i, 1, "move", "effect", "p1", f"d{i}", "p1.deck", "p1.trash",
                  detail={"verb": "mill"}) for i in (1, 2)]
    assert n.events(mill) == ["d1, d2 are put from the top of Player 1's main deck into "
                              "Player 1's trash."]
    assert Narrator("ja", {}).events(mill) == [
        "プレイヤー1のメインデッキの上からd1、d2をプレイヤー1のトラッシュに置く。"]
    assert n.event(SAMPLES["redraw"]) == "Player 1 redraws 2 cards."


def test_card_names_come_from_the_card_then_the_label() -> None:
    from judge.scenario.load import card_library

    signi = card_library()["signi-2"]
    for lang in LANGS:
        n = Narrator(lang, {"S1": signi, "d1": FILLER})
        assert n.card("S1") == gettext_named(lang, signi.names[lang], "S1")
        assert n.card("S1") == "S1"  # named in full only the first time
        assert n.card("d1") == "d1"  # no names: the label


def gettext_named(lang: str, name: str, label: str) -> str:
    return f"{name}（{label}）" if lang != "en" else f"{name} ({label})"


def test_every_corpus_event_is_narrated() -> None:
    corpus = load_corpus()
    for ruling in corpus.rulings:
        for lang in LANGS:
            n = narrator_for(ruling.scenario, lang)
            for rr in ruling.replays.values():
                for event in rr.events:
                    text = n.event(event)
                    assert text != str(event) and "%(" not in text, (ruling.id, text)
                    if event.type == "move":
                        verb = event.detail.get("verb")
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
    """``pybabel extract`` over the code and templates finds nothing the catalogues lack."""
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
