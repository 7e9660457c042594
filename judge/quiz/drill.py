"""``judge quiz``: a quick drill in the terminal, from the same bank as the site's quiz.

The bank is made from the corpus as ``judge build`` makes it (:func:`judge.quiz.bank.build_bank`)
and told in one language (:mod:`judge.quiz.export`); :func:`pick` chooses the questions (the
filters, then ``count`` of them in an order fixed by ``seed``), :func:`drill` asks them one by
one on a terminal (the position in the engine's text form, the steps, the numbered answers)
and reads the number of an answer; after each it says whether it was right and, for a wrong
one, where the answer came from, the rule it breaks and the right answer.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from judge.errors import JudgeError
from judge.i18n import gettext_for
from judge.quiz.bank import Bank, Variant
from judge.quiz.site import STRINGS


class QuizError(JudgeError):
    """A filter of ``judge quiz`` names nothing the bank has."""


def pick(bank: Bank, topics: Mapping[str, str], *, topic: str | None = None,
         rules: str | None = None, difficulty: int | None = None, count: int = 5,
         seed: int = 0) -> list[Variant]:
    """The questions of a drill: those that pass the filters, ``count`` of them (all with
    0), in an order ``seed`` fixes. An unknown topic or rule set is a :class:`QuizError`
    listing the valid ones."""
    for name, value, valid in (("--topic", topic, {topics.get(v.ruling, "") for v in
                                                   bank.variants}),
                               ("--rules", rules, {v.rules for v in bank.variants})):
        if value is not None and value not in valid:
            raise QuizError(f"{name}: no question has {value!r} (valid: "
                            f"{', '.join(sorted(valid))})")
    chosen = [v for v in bank.variants
              if (topic is None or topics.get(v.ruling, "") == topic)
              and (rules is None or v.rules == rules)
              and (difficulty is None or v.difficulty == difficulty)]
    random.Random(seed).shuffle(chosen)
    return chosen[:count] if count else chosen


def drill(entries: Sequence[dict[str, Any]], positions: Sequence[str], lang: str,
          ask: Callable[[str], str | None], say: Callable[[str], None]) -> tuple[int, int]:
    """Ask each question (``entries``: :func:`judge.quiz.export.variant_entry` values,
    ``positions`` their set-ups as text); ``ask`` reads an answer (None: no more input),
    ``say`` prints a line; the score is said at the end, or when the input stops. Returns
    (answered right, answered)."""
    def said(key: str, **values: Any) -> str:
        text = gettext_for(lang, STRINGS[key])
        return text % values if values else text

    right = done = 0
    for number, (q, position) in enumerate(zip(entries, positions, strict=True), 1):
        say("")
        say(f"[{number}/{len(entries)}] {q['title']} ({q['rules_label']})")
        if q["change"]:
            say(q["change"])
        for line in position.splitlines():
            say(f"  {line}")
        for step in q["steps"]:
            say(f"- {step}")
        if q["choices"]:
            say(f"{said('choices')} {' '.join(q['choices'])}")
        say(q["question"])
        for i, a in enumerate(q["answers"], 1):
            say(f"  {i}. {a['text']}")
        reply = _reply(ask, len(q["answers"]))
        if reply is None:
            break
        a = q["answers"][reply]
        done += 1
        right += a["right"]
        say(said("right") if a["right"] else said("wrong"))
        if not a["right"]:
            if a["why"]:
                say(a["why"])
            if a["breaks"]:
                say(f"{said('breaks')} {' '.join(a['breaks'])}")
            correct = next(x for x in q["answers"] if x["right"])
            say(f"{said('answer_was')} {correct['text']}")
        say(f"{said('ruling')}: {q['ruling']}")
    say("")
    say(said("score", right=right, done=done, missed=done - right))
    return right, done


def _reply(ask: Callable[[str], str | None], count: int) -> int | None:
    """The index of the answer typed (asked again until it is a number of one); None when
    the input is empty or ends."""
    while True:
        text = ask(f"1-{count}> ")
        if text is None:
            return None
        if text.strip().isdigit() and 1 <= int(text) <= count:
            return int(text) - 1
