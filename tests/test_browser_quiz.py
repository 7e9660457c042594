"""The judge-training quiz in a real browser, at a phone's width (390 px), in each language.

The site is the one tests/test_browser.py builds once a session from the real corpus and
serves on 127.0.0.1 (its fixtures); Chromium opens ``/<lang>/quiz/``, answers a question
right with the keyboard and one wrong by touch, reads what the page says after each (the
verdict, the rule a wrong answer breaks, the right answer, the link to the ruling's page,
which exists), and sees the missed question asked again after two others, with the
progress kept across a reload. Skipped without Chromium, except with ``CI`` set.
"""

from __future__ import annotations

import gzip
import json
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlparse

import pytest
from conftest import watched_tab
from test_browser import base_url, site_folder

from judge.i18n import LANGS, gettext_for
from judge.quiz.site import STRINGS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

__all__ = ["base_url", "site_folder"]  # the fixtures this module shares with test_browser.py

PHONE = {"width": 390, "height": 844}
TIMEOUT_MS = 20_000


@pytest.fixture(scope="module")
def quiz_site(site_folder: Path) -> Path:
    """The site test_browser.py builds once a session (the real corpus's)."""
    return site_folder


@pytest.fixture
def phone(browser: Browser) -> Iterator[Page]:
    with watched_tab(browser, TIMEOUT_MS, viewport=PHONE, has_touch=True, is_mobile=True,
                     service_workers="block") as tab:
        yield tab


def _said(lang: str, key: str) -> str:
    return gettext_for(lang, STRINGS[key])


def _question(page: Page) -> dict[str, Any]:
    page.wait_for_selector(".quiz-answer")
    return {"id": page.locator(".quiz-q").get_attribute("data-id"),
            "right": [b.get_attribute("data-right") == "true"
                      for b in page.locator(".quiz-answer").element_handles()]}


@pytest.mark.parametrize("lang", LANGS)
def test_answer_right_and_wrong_at_390_px(phone: Page, base_url: str, quiz_site: Path,
                                          lang: str) -> None:
    page = phone
    page.goto(f"{base_url}/{lang}/quiz/")
    bank = json.loads(gzip.decompress((quiz_site / "api/quiz" / f"{lang}.json.gz").read_bytes()))
    by_id = {q["id"]: q for q in bank["questions"]}
    first = _question(page)
    assert first["id"] in by_id and sum(first["right"]) == 1
    assert 3 <= len(first["right"]) <= 5
    assert page.locator(".quiz-board svg.board").count() >= 1  # the position, drawn
    # nothing wider than the phone's screen
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # right, with the keyboard: the answer's number
    page.keyboard.press(str(first["right"].index(True) + 1))
    assert page.locator(".quiz-verdict").inner_text() == _said(lang, "right")
    link = page.locator(".quiz-ruling")
    path = urlparse(link.get_attribute("href") or "").path
    assert path == f"/{lang}/rulings/{by_id[first['id']]['ruling']}/"
    assert (quiz_site / path.strip("/") / "index.html").is_file()
    assert page.locator(".quiz-breaks").count() == 0
    # next, with the keyboard; then wrong, by touch
    page.keyboard.press("n")
    second = _question(page)
    assert second["id"] != first["id"]
    wrong = second["right"].index(False)
    page.locator(".quiz-answer").nth(wrong).tap()
    assert page.locator(".quiz-verdict").inner_text() == _said(lang, "wrong")
    told = by_id[second["id"]]["answers"][wrong]
    assert page.locator(".quiz-why").inner_text() == told["why"]
    if told["breaks"]:
        assert told["breaks"][0] in page.locator(".quiz-breaks").inner_text()
    assert _said(lang, "answer_was") in page.locator(".quiz-right").inner_text()
    assert page.locator(".quiz-answer.is-right").count() == 1
    assert page.locator(".quiz-answer.is-wrong").count() == 1
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    # told by a sign as well as by a colour
    assert page.locator(".quiz-answer.is-right .quiz-key").inner_text() == "\u2713"
    assert page.locator(".quiz-answer.is-wrong .quiz-key").inner_text() == "\u2717"
    # the missed question comes back after two others, even after a reload
    page.reload()
    for _ in range(2):
        q = _question(page)
        assert q["id"] != second["id"]
        page.locator(".quiz-answer").nth(q["right"].index(True)).tap()
        page.locator(".quiz-next").tap()
    again = _question(page)
    assert again["id"] == second["id"]
    assert page.locator(".quiz-again").inner_text() == _said(lang, "again")


def test_filters_narrow_the_questions(phone: Page, base_url: str, quiz_site: Path) -> None:
    page = phone
    page.goto(f"{base_url}/en/quiz/")
    bank = json.loads(gzip.decompress((quiz_site / "api/quiz/en.json.gz").read_bytes()))
    _question(page)
    hard = [q for q in bank["questions"] if q["difficulty"] == 3]
    select = page.locator("select[name=difficulty]")
    if hard:
        select.select_option("3")
        q = _question(page)
        assert q["id"] in {h["id"] for h in hard}
    page.locator("select[name=difficulty]").select_option("")
    rules = sorted({q["rules"] for q in bank["questions"]})
    page.locator("select[name=rules]").select_option(rules[0])
    q = _question(page)
    assert next(x for x in bank["questions"] if x["id"] == q["id"])["rules"] == rules[0]


def test_the_quiz_works_offline_once_visited(browser: Browser, base_url: str) -> None:
    """With the service worker: a visit keeps the page, its script and the bank; without a
    network the quiz then still asks and answers."""
    context = browser.new_context(viewport=PHONE, has_touch=True)
    context.set_default_timeout(TIMEOUT_MS)
    errors: list[str] = []
    try:
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.goto(f"{base_url}/en/quiz/")
        page.wait_for_selector("html[data-offline=kept]")  # the worker is in control
        page.reload()  # now through the worker, which keeps what the page fetches
        _question(page)
        context.set_offline(True)
        page.reload()
        q = _question(page)
        page.locator(".quiz-answer").nth(q["right"].index(True)).tap()
        assert page.locator(".quiz-verdict").inner_text() == _said("en", "right")
    finally:
        context.close()
    assert not errors, errors
