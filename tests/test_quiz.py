"""The judge-training quiz (judge/quiz): every answer is a replay's, and a judge can tell them
apart.

The property tests run over the whole bank the corpus gives (the same bank the site
publishes): each right answer is the facts of a fresh replay of its variant, each wrong answer
differs from it in a fact the position shows, and in every language every answer reads
differently from every other.
"""

from __future__ import annotations

import dataclasses
import gzip
import json
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from judge.corpus import Corpus, load_corpus
from judge.i18n import LANGS
from judge.narrate import Narrator, scenario_cards
from judge.quiz import facts
from judge.quiz.bank import MAX_ANSWERS, MIN_ANSWERS, Bank, build_bank
from judge.quiz.export import answer_text, bank_json
from judge.quiz.mistakes import BY_ID, MISTAKES
from judge.scenario.expect import check_replay, state_diff
from judge.scenario.run import replay
from judge.site.sections import Words


@pytest.fixture(scope="module")
def corpus() -> Corpus:
    return load_corpus()


@pytest.fixture(scope="module")
def bank(corpus: Corpus) -> Bank:
    return build_bank(((r.id, r.scenario, r.replays) for r in corpus.rulings), corpus.rulesets)


def test_the_corpus_gives_questions_of_every_kind(bank: Bank) -> None:
    """Enough questions to train on, with wrong answers from each source and variants."""
    assert len(bank.by_ruling()) >= 15
    sources = {a.source for v in bank.variants for a in v.answers}
    assert sources == {"replay", "rules", "branch", "mistake"}
    assert {v.change.kind for v in bank.variants if v.change} >= {"deck", "life"}
    assert bank.dropped > 0  # indistinguishable candidates exist and are dropped


def test_every_right_answer_is_its_replay(bank: Bank, corpus: Corpus) -> None:
    for v in bank.variants:
        rep = replay(v.scenario, corpus.rulesets[v.rules])
        right = v.answers[0]
        assert right.right and right.source == "replay"
        assert not state_diff(rep.first.final, right.state, False), v.key
        asked = facts.template(s for e in v.scenario.expectations_for(v.rules)
                               for s in (e.state, *(o.state for o in e.outcomes)))
        assert facts.observe(rep.first.final, asked) == right.state, v.key
        if v.change is None:  # the ruling as written: its replay passes its own check
            assert not check_replay(v.scenario, rep), v.key


def test_every_wrong_answer_differs_in_a_visible_fact(bank: Bank, corpus: Corpus) -> None:
    for v in bank.variants:
        assert MIN_ANSWERS <= len(v.answers) <= MAX_ANSWERS, v.key
        final = v.trace.final
        for a in v.answers[1:]:
            assert not a.right
            assert state_diff(final, a.state, False), (v.key, a.source)
            assert state_diff(final, v.told(a), False), (v.key, a.source)  # in what it says
            if a.source == "mistake":
                assert len(a.breaks) == 1 and a.breaks[0] in BY_ID
            if a.source == "rules":
                assert a.rules in v.scenario.rulesets and a.rules != v.rules
            if a.source == "branch":
                assert a.choices
        for lang in LANGS:
            L = Words(lang, rule_sets=corpus.rulesets)
            n = Narrator(lang, scenario_cards(v.scenario))
            texts = [answer_text(v, a, L, n) for a in v.answers]
            assert all(texts) and len(set(texts)) == len(texts), (v.key, lang, texts)


def test_variants_of_a_question_tell_different_outcomes(bank: Bank) -> None:
    for rid, variants in bank.by_ruling().items():
        rights = [facts.fact_set(v.answers[0].state) for v in variants]
        assert len(set(rights)) == len(rights), rid
        assert len({v.key for v in variants}) == len(variants)


def _ruling(corpus: Corpus, rid: str) -> Iterator[tuple[str, object, object]]:
    r = next(r for r in corpus.rulings if r.id == rid)
    yield r.id, r.scenario, r.replays


@pytest.mark.parametrize(("rid", "mistake", "fact"), [
    # the second refresh does not end the turn: still the turn player's main phase
    ("second-refresh-ends-turn", "second-refresh-goes-on", ("phase", "", "main")),
    # a Lancer crush with no life cloth taken as damage: the attacker's player wins
    ("lancer-with-no-life-cloth-does-not-win", "crush-is-damage", ("winner", "", "p1")),
    # damage that accumulates: the second, weaker attack banishes the SIGNI after all
    ("battle-damage-does-not-accumulate", "damage-accumulates",
     ("zone", "p2.signi1", ("same", ()))),
    # a tie taken for "nothing happens": the attacked SIGNI stays
    ("battle-equal-or-lower-power-is-banished", "tie-not-banished",
     ("zone", "p2.signi1", ("same", ("D1",)))),
])
def test_a_broken_rule_gives_the_wrong_answer_players_give(
        corpus: Corpus, rid: str, mistake: str, fact: tuple[str, str, object]) -> None:
    r = next(r for r in corpus.rulings if r.id == rid)
    rules = corpus.rulesets["current"]
    asked = facts.template(e.state for e in r.scenario.expectations_for("current"))
    asked = dataclasses.replace(asked, phase=asked.phase or "main",
                                winner=asked.winner or "none")
    right = facts.fact_set(facts.observe(r.replays["current"].first.final, asked))
    wrong = facts.fact_set(facts.observe(
        replay(r.scenario, BY_ID[mistake].broken(rules)).first.final, asked))
    assert fact in wrong and fact not in right


def test_a_mistake_applies_only_where_it_changes_the_rules(corpus: Corpus) -> None:
    old, current = corpus.rulesets["2014-04"], corpus.rulesets["current"]
    assert not BY_ID["refresh-mid-effect"].applies(old)
    assert BY_ID["refresh-mid-effect"].applies(current)
    broken = BY_ID["one-kind-at-a-time"].broken(current)
    assert broken.id == "current" and "one-kind-at-a-time" in broken.broken
    assert not BY_ID["one-kind-at-a-time"].applies(broken)
    assert len({m.id for m in MISTAKES}) == len(MISTAKES)


def test_the_bank_is_the_same_bytes_every_time(corpus: Corpus) -> None:
    some = [r for r in corpus.rulings if r.topic == "refresh"][:6]

    def made() -> list[bytes]:
        bank = build_bank(((r.id, r.scenario, r.replays) for r in some), corpus.rulesets)
        return [json.dumps(bank_json(bank, lang, corpus.rulesets, {}, {}),
                           ensure_ascii=False, sort_keys=True).encode() for lang in LANGS]

    first = made()
    assert first == made()
    assert all(b'"questions": [{' in f for f in first)


def test_a_mistake_skipped_as_not_mattering_changes_nothing(corpus: Corpus) -> None:
    """The bank's shortcut (:func:`judge.quiz.mistakes.matters`) is sound: over the corpus,
    under the current rules, a mistake it skips gives the same facts as the right answer."""
    from judge.quiz.mistakes import matters, mistakes_for

    rules = corpus.rulesets["current"]
    skipped = 0
    for r in corpus.rulings:
        rep = r.replays.get("current")
        if rep is None or not rep.traces:
            continue
        asked = facts.template(s for e in r.scenario.expectations_for("current")
                               for s in (e.state, *(o.state for o in e.outcomes)))
        right = {facts.fact_set(facts.observe(t.final, asked)) for t in rep.traces}
        for m in mistakes_for(rules):
            if any(matters(m, r.scenario, t) for t in rep.traces):
                continue
            skipped += 1
            other = replay(r.scenario, m.broken(rules))
            got = {facts.fact_set(facts.observe(t.final, asked)) for t in other.traces
                   if not t.problems}
            assert got <= right, (r.id, m.id)
    assert skipped > 100


def test_judge_quiz_drills_in_the_terminal(bank: Bank) -> None:
    from click.testing import CliRunner

    from judge.cli import cli

    result = CliRunner().invoke(cli, ["quiz", "--count", "2", "--json", "--lang", "ja"])
    assert result.exit_code == 0, result.output
    entries = json.loads(result.output)
    assert len(entries) == 2 and all(e["question"] == "どうなりますか？" for e in entries)
    assert {e["id"] for e in entries} <= {v.key for v in bank.variants}
    # answer the first question with its right answer, the second with a wrong one
    first = next(i for i, a in enumerate(entries[0]["answers"], 1) if a["right"])
    second = next(i for i, a in enumerate(entries[1]["answers"], 1) if not a["right"])
    result = CliRunner().invoke(cli, ["quiz", "--count", "2", "--lang", "ja"],
                                input=f"{first}\n{second}\n")
    assert result.exit_code == 0, result.output
    assert "正解です。" in result.output and "不正解です。" in result.output
    assert "正しい答え：" in result.output
    assert "2問中1問正解" in result.output
    # an empty answer stops the drill
    result = CliRunner().invoke(cli, ["quiz", "--count", "2"], input="\n")
    assert result.exit_code == 0 and "answered right" in result.output


def test_judge_quiz_refuses_an_unknown_filter_on_one_line() -> None:
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "judge.cli", "quiz", "--topic", "nope"],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "--topic" in lines[0] and "nope" in lines[0]
    assert "(valid: " in lines[0] and "refresh" in lines[0]
    assert "Traceback" not in done.stderr


def test_docs_name_every_field_of_the_bank(bank: Bank, corpus: Corpus) -> None:
    import re

    from judge.paths import project_root

    doc = (project_root() / "docs" / "api.md").read_text(encoding="utf-8")
    data = bank_json(bank, "en", corpus.rulesets, {}, {}, board=False)
    question = {**data["questions"][0], "page": ""}  # the site adds each ruling's page
    fields = {*data, *question, *question["answers"][0]}
    undocumented = sorted(f for f in fields if not re.search(rf"`{re.escape(f)}`", doc))
    assert not undocumented, f"fields docs/api.md does not name: {undocumented}"


def test_the_quiz_phase_gives_the_same_bytes_forked_or_not(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch
                                                           ) -> None:
    """judge build makes the quiz in a forked process beside the pages (quiz_phase); where it
    may not fork it makes it in the build's process: the files are the same bytes, and a
    failure in the forked process stops the build with one line."""
    from judge.paths import project_root
    from judge.quiz.site import make_quiz
    from judge.site import build
    from judge.site.context import SiteModel
    from judge.site.load import load

    site = load(project_root())
    model = SiteModel.build(site)
    model.quiz_page = True
    forked, here = tmp_path / "forked", tmp_path / "here"
    # a thread another test of this worker left running would make the phase work in this
    # process (it forks only a process of one thread): this test is about the forked path
    monkeypatch.setattr(build.threading, "active_count", lambda: 1)
    report = build.quiz_phase(site, model, forked, None).finish()
    assert model.quiz is None  # made in the other process
    assert report.pages == len(LANGS) and report.questions > 0
    make_quiz(site, model, here, lambda name, html: build._write(here, name, html))

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes()
                for p in sorted(root.rglob("*")) if p.is_file()}

    assert files(forked) == files(here)
    assert set(files(here)) == {f"{lang}/quiz/index.html" for lang in LANGS} | {
        f"api/quiz/{lang}.json.gz" for lang in LANGS}
    # each bank is the JSON the quiz page reads, gzip-compressed without a name or a time
    from judge.quiz.site import bank_bytes
    for lang in LANGS:
        packed = files(here)[f"api/quiz/{lang}.json.gz"]
        assert packed[4:8] == b"\0\0\0\0" and not packed[3] & 0x08  # mtime 0, no name
        bank = gzip.decompress(packed)
        assert bank == b"".join(bank_bytes(model, lang))
        assert len(json.loads(bank)["questions"]) == report.questions

    def broken(*args: object) -> None:
        raise ValueError("no bank today")

    monkeypatch.setattr(build, "make_quiz", broken)
    with pytest.raises(build.BuildError, match="quiz was not made: ValueError: no bank today"):
        build.quiz_phase(site, model, tmp_path / "broken", None).finish()


def test_the_quiz_made_beside_the_database_replays_the_corpus_once(tmp_path: Path) -> None:
    """judge build makes the quiz's bank from the rulings as the database reads them
    (make_quiz's ``beside``, quiz_phase's ``database``): the bank, its files and the database
    are the same bytes as when each reads the corpus on its own, and the corpus is replayed
    once for the two."""
    from judge.paths import project_root
    from judge.quiz.site import make_quiz
    from judge.scenario.run import engine_runs
    from judge.site import build
    from judge.site.api import write_database
    from judge.site.context import SiteModel
    from judge.site.load import load_streamed

    site = load_streamed(project_root() / "tests" / "fixtures" / "site_corpus")
    model = SiteModel.build(site)
    model.quiz_page = True
    alone, shared = tmp_path / "alone", tmp_path / "shared"

    def write(root: Path) -> Callable[[str, str], int]:
        return lambda name, html: build._write(root, name, html)

    runs = engine_runs()
    make_quiz(site, model, alone, write(alone))
    quiz_runs = engine_runs() - runs
    write_database(site.replayed_corpus, alone)
    corpus_runs = engine_runs() - runs - quiz_runs  # one replay of the corpus
    assert corpus_runs == site.traces > 0
    runs = engine_runs()
    read: list[str] = []

    def database(corpus: Corpus) -> None:
        rulings = tuple(corpus.rulings)  # once: a second reading adds its questions again
        read.extend(r.id for r in rulings)
        write_database(dataclasses.replace(corpus, rulings=rulings), shared)

    make_quiz(site, model, shared, write(shared), database)
    assert engine_runs() - runs == quiz_runs, "the database's replays are the bank's"
    assert read == [d.id for d in site.rulings]

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes()
                for p in sorted(root.rglob("*")) if p.is_file()}

    assert files(shared) == files(alone)
    assert "api/judge.db.gz" in files(alone) and f"api/quiz/{LANGS[0]}.json.gz" in files(alone)
    # the build's phase, forked: the same files
    forked = tmp_path / "forked"
    report = build.quiz_phase(site, model, forked, None, database=True).finish()
    assert report.questions > 0 and files(forked) == files(alone)

    def reads_half(corpus: Corpus) -> None:
        next(iter(corpus.rulings))

    with pytest.raises(RuntimeError, match="made from 1 of"):
        make_quiz(site, model, tmp_path / "half", write(tmp_path / "half"), reads_half)


def test_a_variant_skipped_as_not_mattering_plays_the_same(bank: Bank, corpus: Corpus) -> None:
    """The bank does not replay a change of the set-up that cannot change the outcome
    (:func:`judge.quiz.variants.matters`): over the rulings that give questions, such a
    change, replayed all the same, gives the same events as the ruling."""
    from judge.quiz.variants import changed, changes, matters

    skipped = 0
    for rid in bank.by_ruling():
        r = next(r for r in corpus.rulings if r.id == rid)
        latest = r.scenario.rulesets[-1]
        ran = r.replays[latest].traces
        for change in changes(r.scenario):
            other = changed(r.scenario, change)
            if matters(change, ran) or other is None:
                continue
            skipped += 1
            again = replay(other, corpus.rulesets[latest])
            assert [[(e.type, e.card) for e in t.events if e.type != "step"]
                    for t in again.traces] == \
                [[(e.type, e.card) for e in t.events if e.type != "step"] for t in ran], \
                (rid, change)
    assert skipped > 20


def test_a_broken_rule_is_replayed_lightly_and_the_question_in_full(corpus: Corpus) -> None:
    """A broken rule's replay gives only wrong answers (its final position: the same as a
    full replay's, tests/test_trace.py), so the bank records no key positions for it; the
    replay a question is asked of keeps them, which :func:`judge.quiz.mistakes.matters`
    reads."""
    from judge.quiz.bank import Replays
    from judge.quiz.mistakes import mistakes_for

    rules = corpus.rulesets["current"]
    light = full = 0
    for r in corpus.rulings:
        if "current" not in r.scenario.rulesets:
            continue
        replays = Replays(Bank(), r.scenario)
        asked = replays.get(rules)
        if not any(t.key_snapshots for t in asked.traces):
            continue
        full += 1
        for m in mistakes_for(rules):
            broken = replays.get(rules, m.id)
            assert not any(t.key_snapshots or t.checks for t in broken.traces), (r.id, m.id)
            assert [t.final for t in broken.traces] == \
                [t.final for t in replay(r.scenario, m.broken(rules)).traces], (r.id, m.id)
            light += 1
        if full >= 20:
            break
    assert full == 20 and light > 20


def test_a_rule_set_asked_for_a_wrong_answer_is_replayed_light_and_again_whole_when_asked(
        corpus: Corpus) -> None:
    """Another rule set's replay that only gives a wrong answer is light (the same final
    positions as a whole replay); asked for as a question afterwards, it is made again whole,
    and a whole one already made serves a wrong answer as it is."""
    from judge.quiz.bank import Replays

    rules = corpus.rulesets["current"]
    checked = 0
    for r in corpus.rulings:
        if "current" not in r.scenario.rulesets:
            continue
        bank = Bank()
        replays = Replays(bank, r.scenario)
        light = replays.get(rules, light=True)
        whole = replays.get(rules)
        if not any(t.key_snapshots for t in whole.traces):
            continue
        assert not any(t.key_snapshots or t.checks for t in light.traces), r.id
        assert [t.final for t in light.traces] == [t.final for t in whole.traces], r.id
        assert [t.problems for t in light.traces] == [t.problems for t in whole.traces]
        assert replays.get(rules, light=True) is whole and replays.get(rules) is whole
        assert bank.replays == 2
        checked += 1
        if checked >= 10:
            break
    assert checked == 10


def test_a_mistake_matters_the_same_read_from_views_as_from_whole_positions(
        corpus: Corpus) -> None:
    """``matters`` looks for an empty main deck or life cloth in views of a fresh replay's
    moments (not made whole); the answer is the one the whole positions give."""
    from judge.quiz.mistakes import BY_ID, matters

    seen = {True: 0, False: 0}
    for r in corpus.rulings:
        for rid in r.replays:
            for t in replay(r.scenario, corpus.rulesets[rid]).traces:
                got = {z: matters(BY_ID[m], r.scenario, t)
                       for m, z in (("refresh-mid-effect", "deck"), ("crush-is-damage", "life"))}
                moments = [*t.positions, *(p for _, p in t.key_positions)]
                empty = {z: any(not pos.zone(p, z) for pos in moments for p in ("p1", "p2"))
                         for z in ("deck", "life")}
                refreshed = any(e.type in ("refresh", "refresh_waits") for e in t.events)
                assert got == {"deck": empty["deck"] or refreshed, "life": empty["life"]}, \
                    (r.id, rid)
                seen[got["life"]] += 1
    assert seen[True] > 0 and seen[False] > 0
