"""The quiz in the site: the bank made once per build, its JSON per language, its page.

``judge build`` makes the bank in a phase of its own (:func:`make_quiz`), from the replays the
load already made (only the wrong answers' and the variants' replays are new), in a process
forked from the build while the build renders the other pages. :func:`write_quiz` writes
``api/quiz/<lang>.json.gz`` (the question bank others can use, docs/api.md; gzip-compressed,
about a hundredth of the JSON, whose questions repeat the same words and positions) and the
page ``/<lang>/quiz/`` reads the same file, decompressed in the browser (:func:`quiz_context`
gives its filters and strings); the service worker keeps it like a page, so the quiz works
offline once visited; no Pyodide.
"""

from __future__ import annotations

import contextlib
import dataclasses
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Final

from judge.corpus import Corpus, Tapped
from judge.i18n import LANGS, N_
from judge.quiz.bank import Bank, add_ruling, build_bank
from judge.quiz.export import Boards, bank_entries, bank_json

if TYPE_CHECKING:
    from judge.site.context import Lang, Links, SiteModel
    from judge.site.load import SiteInput

#: Where the banks go in the site (under api/): ``quiz/<lang>.json.gz``.
FOLDER: Final = "api/quiz"
#: A bank's file name after its language.
SUFFIX: Final = ".json.gz"

#: What the quiz page's script says, by key (the page passes them as JSON).
STRINGS: Final = {
    "right": N_("Right."),
    "wrong": N_("Not quite."),
    "breaks": N_("The rule it breaks:"),
    "ruling": N_("Read the ruling"),
    "next": N_("Next question"),
    "again": N_("A question you missed, asked again."),
    "score": N_("%(right)s of %(done)s answered right; %(missed)s to try again."),
    "none": N_("No question matches these filters."),
    "answer_was": N_("The right answer:"),
    "loading": N_("Loading the questions…"),
    "failed": N_("The questions could not be loaded."),
    "difficulty": N_("Difficulty %(num)s"),
    "choices": N_("The choices made:"),
    "reset_done": N_("Your progress has been cleared."),
}
DIFFICULTIES: Final = {1: N_("Easy"), 2: N_("Medium"), 3: N_("Hard")}


@dataclass
class QuizReport:
    questions: int = 0
    rulings: int = 0
    dropped: int = 0
    bytes: dict[str, int] = field(default_factory=dict)  # language -> bytes of its bank file
    pages: int = 0  # the quiz pages written (one per language)
    seconds: float = 0.0  # to make the bank, render its pages and write its files


def make_quiz(site: SiteInput, model: SiteModel, root: Path,
              write_page: Callable[[str, str], int],
              beside: Callable[[Corpus], None] | None = None) -> QuizReport:
    """The quiz phase: make the bank into ``model.quiz``, render the quiz page of each
    language (``write_page(file, html)``, the build's writer) and write ``api/quiz/`` into
    the site folder ``root``. Depends only on the site and the model, so the bytes are the
    same in whichever process it runs (``judge build`` forks one for it). ``beside``: another
    reader of the replayed corpus (the build's database) that the bank is made beside, from
    the rulings as it reads them (:func:`quiz_bank`)."""
    from judge.site.context import page_file
    from judge.site.render import render

    start = time.perf_counter()
    model.quiz = quiz_bank(site, beside)
    report = write_quiz(model, root)
    for spec in model.quiz_pages():
        for lang in LANGS:
            write_page(page_file(lang, spec.key),
                       render(spec.template, lang, model.context(spec, lang)))
            report.pages += 1
    report.seconds = time.perf_counter() - start
    return report


def quiz_bank(site: SiteInput, beside: Callable[[Corpus], None] | None = None) -> Bank:
    """The bank of the corpus the build loaded (its replays reused, or made again one ruling
    at a time for a site loaded as a stream). With ``beside``, the bank is made from the
    rulings as ``beside`` reads them, given the replayed corpus (:class:`Tapped`): one
    loading and replay of each ruling serves both, in the same order (by id) as without."""
    corpus = site.corpus
    if beside is None:
        return build_bank(((r.id, r.scenario, r.replays) for r in site.replayed()),
                          corpus.rulesets, slim=True)
    bank = Bank()
    full = site.replayed_corpus
    rulings = Tapped(full.rulings, lambda r: add_ruling(bank, r.id, r.scenario,
                                                        corpus.rulesets, r.replays, slim=True))
    beside(dataclasses.replace(full, rulings=rulings))
    if rulings.seen != len(rulings):
        raise RuntimeError(f"the quiz's bank was made from {rulings.seen} of "
                           f"{len(rulings)} rulings")
    return bank


def bank_questions(model: SiteModel, lang: str, boards: Boards | None = None
                   ) -> Iterator[dict[str, Any]]:
    """The questions of the JSON bank of one language, one at a time, each linking to its
    ruling's page (``boards``: see :class:`judge.quiz.export.Boards`)."""
    assert model.quiz is not None
    corpus = model.site.corpus
    L = model.lang(lang)
    topics = {d.id: d.topic for d in model.site.rulings}
    names = {t: L.topic(t) for t in model.topics}
    for q in bank_entries(model.quiz, lang, corpus.rulesets, topics, names,
                          {t.id: t.names for t in corpus.glossary.values()},
                          boards=boards):
        q["page"] = f"../../{lang}/rulings/{q['ruling']}/"
        yield q


def bank_bytes(model: SiteModel, lang: str, boards: Boards | None = None
               ) -> Iterator[bytes]:
    """The JSON bank of one language (:func:`bank_json`'s document with
    :func:`bank_questions`) as the API's JSON (:func:`judge.site.api.dumps`), in pieces made
    one question at a time: the whole document of 10,000 questions, held at once, was the
    quiz's process's largest memory."""
    from judge.site.api import dumps

    head, tail = dumps({**bank_json(Bank(), lang, {}, {}, {}), "questions": []}) \
        .split(b'"questions":[]')
    yield head + b'"questions":['
    for i, q in enumerate(bank_questions(model, lang, boards)):
        yield (b"," if i else b"") + dumps(q)[:-1]  # without the final newline
    yield b"]" + tail


def write_quiz(model: SiteModel, root: Path) -> QuizReport:
    """Write ``api/quiz/<lang>.json.gz`` into the site folder ``root``: the JSON compressed as
    it is made (the API's :func:`judge.site.api.gz_writer`: the same bank, the same bytes).
    The languages are written side by side, one question at a time in each, so that each
    variant's board is laid out once for the three (:class:`judge.quiz.export.Boards`)."""
    from judge.site.api import gz_writer

    report = QuizReport()
    if model.quiz is None:
        return report
    folder = root / FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    paths = [folder / f"{lang}{SUFFIX}" for lang in LANGS]
    boards = Boards()
    with contextlib.ExitStack() as stack:
        packed = [stack.enter_context(gz_writer(stack.enter_context(path.open("wb"))))
                  for path in paths]
        for pieces in zip(*(bank_bytes(model, lang, boards) for lang in LANGS), strict=True):
            for writer, piece in zip(packed, pieces, strict=True):
                writer.write(piece)
    for lang, path in zip(LANGS, paths, strict=True):
        report.bytes[lang] = path.stat().st_size
    report.questions = len(model.quiz.variants)
    report.rulings = len(model.quiz.by_ruling())
    report.dropped = model.quiz.dropped
    return report


def quiz_context(model: SiteModel, L: Lang, links: Links) -> dict[str, Any]:
    """The quiz page: its filters (with how many questions each value has) and strings."""
    assert model.quiz is not None
    variants = model.quiz.variants
    topic_of = {d.id: d.topic for d in model.site.rulings}

    def options(values: list[Any], label: Any) -> list[dict[str, Any]]:
        counts: dict[Any, int] = {}
        for v in values:
            counts[v] = counts.get(v, 0) + 1
        return [{"value": str(v), "label": label(v), "count": n}
                for v, n in sorted(counts.items(), key=lambda kv: str(kv[0]))]

    from judge.quiz.export import FORMATS

    strings = {k: L._(m) for k, m in STRINGS.items()}
    return {
        "title": L._("Judge training"),
        "filters": [
            {"name": "topic", "label": L._("Topic"),
             "options": options([topic_of[v.ruling] for v in variants], L.topic)},
            {"name": "rules", "label": L._("Rule set"),
             "options": options([v.rules for v in variants], lambda r: L.rules([r]))},
            {"name": "format", "label": L._("Format"),
             "options": options([v.scenario.setup.format for v in variants],
                                lambda f: L._(FORMATS.get(str(f), str(f))))},
            {"name": "difficulty", "label": L._("Difficulty"),
             "options": options([v.difficulty for v in variants],
                                lambda d: L._(DIFFICULTIES[d]))},
        ],
        "count": len(variants),
        "bank": links.to(f"{FOLDER}/{L.lang}{SUFFIX}"),
        "strings": strings,
    }
