"""No engine code, internal id or "seeds" in the text a reader sees, on any page of the site.

The site is built from the real corpus; every page's visible text (the text of its elements,
script and style left out, attribute values not read) is scanned for:

- the engine's codes, taken from its registries (reason codes, refusal codes, kinds of choice,
  triggers, operations, move verbs, step actions, event kinds, kinds of rule processing, zones,
  keyword ids, glossary term ids): a code written with ``-`` or ``_`` (``not-in-lrig-deck``,
  ``burst_order``) anywhere, and any code, one-word ones too (``use``, ``pay``), written as
  code (``<code>``), since a one-word code is also an English word in a sentence;
- internal ids: an ability ``S1#0``, ``S1#lancer``, ``k2#burst``; an effect from no card
  ``p1-effect``, ``in-force``; a zone ``p1.trash``;
- the word "seeds" (the project's source documents are not the reader's).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from html.parser import HTMLParser
from pathlib import Path

import pytest

from judge.data import load_glossary
from judge.engine import mechanics
from judge.engine.actions import ACTIONS, ILLEGAL_REASONS
from judge.engine.cards import OPS, TRIGGERS
from judge.engine.choices import CHOICE_KINDS
from judge.engine.events import EVENT_KINDS, REASONS
from judge.engine.rule_processing import KINDS
from judge.engine.state import ATTACK_STEPS, GAME_PHASES, ZONES
from judge.narrate import messages
from judge.paths import project_root
from judge.site.build import build_site

#: An ability, an effect from no card, a zone, as the engine writes them.
INTERNAL_IDS = re.compile(
    r"(?<![\w#/.])[A-Za-z][A-Za-z0-9_]*#(?:\d+|burst|[a-z][a-z-]*)(?![\w-])"
    r"|(?<![\w-])(?:p[12]-effect|in-force)(?![\w-])"
    r"|(?<![\w.])p[12]\.[a-z_]+[0-9]?(?![\w.])")
SEEDS = re.compile(r"\bseeds\b")


def engine_codes() -> set[str]:
    """Every code of the engine's registries (reasons, refusals, choices, triggers,
    operations, step actions, event kinds, kinds of rule processing, zones, phases, steps,
    move verbs)."""
    codes: set[str] = set()
    codes |= set(REASONS) | set(ILLEGAL_REASONS) | set(CHOICE_KINDS) | set(TRIGGERS)
    codes |= set(OPS) | set(ACTIONS) | set(EVENT_KINDS) | set(KINDS) | set(ZONES)
    codes |= set(GAME_PHASES) | set(ATTACK_STEPS)
    codes |= set(messages().moves) - {"*"}
    return codes


def ids() -> set[str]:
    """Ids a reader should not see written as code either: keywords (``double-crush``) and
    glossary terms (``life-burst``). Written with a hyphen they can also be English
    (a "rule-processing banish"), so they count only as code."""
    return {m.id for m in mechanics.all_mechanics()} | set(load_glossary())


def compound(codes: set[str]) -> set[str]:
    """The codes that cannot be a word of a sentence: those written with ``-`` or ``_``."""
    return {c for c in codes if "-" in c or "_" in c}


#: Pages meant for maintainers, which list the registries' ids on purpose (the coverage
#: table names each kind, phase and term by its id beside its name).
MAINTAINERS = re.compile(r"^[^/]+/coverage/")


class VisibleText(HTMLParser):
    """A page's visible text, as (text, inside <code>) runs; script and style left out."""

    SKIP = {"script", "style"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.runs: list[tuple[str, bool]] = []
        self.skip = 0
        self.code = 0

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in self.SKIP:
            self.skip += 1
        elif tag == "code":
            self.code += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
        elif tag == "code":
            self.code = max(0, self.code - 1)

    def handle_data(self, data: str) -> None:
        if not self.skip and data.strip():
            self.runs.append((data, self.code > 0))


def visible_runs(html: str) -> list[tuple[str, bool]]:
    parser = VisibleText()
    parser.feed(html)
    parser.close()
    return parser.runs


def problems(html: str, codes: set[str], hyphenated: re.Pattern[str]) -> Iterator[str]:
    """What a page's visible text shows that it should not."""
    for text, in_code in visible_runs(html):
        if in_code and text.strip() in codes:
            yield f"code {text.strip()!r}"
            continue
        for m in hyphenated.finditer(text):
            yield f"code {m.group(0)!r} in {text.strip()[:80]!r}"
        for m in INTERNAL_IDS.finditer(text):
            yield f"internal id {m.group(0)!r} in {text.strip()[:80]!r}"
        if SEEDS.search(text):
            yield f"'seeds' in {text.strip()[:80]!r}"


#: Codes that are also ordinary English compounds ("a once-per-turn ability").
ENGLISH_COMPOUNDS = frozenset({"once-per-turn"})


def code_pattern(codes: set[str]) -> re.Pattern[str]:
    words = sorted(compound(codes) - ENGLISH_COMPOUNDS, key=len, reverse=True)
    return re.compile(r"(?<![\w-])(?:" + "|".join(map(re.escape, words)) + r")(?![\w-])")


@pytest.fixture(scope="module")
def corpus_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("text") / "site"
    build_site(out, root=project_root(), allow_failing=True)
    return out


def test_the_scan_finds_what_it_looks_for() -> None:
    codes = engine_codes() | ids()
    assert {"not-in-lrig-deck", "cannot-pay", "use", "burst_order", "second_refresh"} <= codes
    pattern = code_pattern(engine_codes())
    page = ("<p>The card is <code>use</code>d: not-in-lrig-deck, S1#0 and k2#burst, "
            "p1-effect, p2.trash; the seeds say so.</p><p title='cannot-pay'>fine</p>"
            "<script>var a = 'cannot-pay';</script><p>Player 1 uses k2; S1 (SIGNI zone 1)."
            " A rule-processing banish.</p><p><code>life-burst</code></p>")
    found = list(problems(page, codes, pattern))
    assert [f.split(" in ")[0] for f in found] == [
        "code 'use'", "code 'not-in-lrig-deck'", "internal id 'S1#0'",
        "internal id 'k2#burst'", "internal id 'p1-effect'", "internal id 'p2.trash'",
        "'seeds'", "code 'life-burst'"], found


def test_no_engine_code_internal_id_or_seeds_in_visible_text(corpus_site: Path) -> None:
    codes = engine_codes()
    pattern = code_pattern(codes)
    found: dict[str, list[str]] = {}
    for page in sorted(corpus_site.rglob("*.html")):
        if MAINTAINERS.match(page.relative_to(corpus_site).as_posix()):
            continue
        html = page.read_text(encoding="utf-8")
        hits = sorted(set(problems(html, codes | ids(), pattern)))
        if hits:
            found[page.relative_to(corpus_site).as_posix()] = hits
    shown = "\n".join(f"{page}: {'; '.join(hits[:4])}" for page, hits in found.items())
    assert not found, f"{len(found)} pages show engine codes or ids:\n{shown}"
