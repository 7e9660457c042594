"""Hostile inputs for tests/test_hostile.py: ruling files and data folders built to break the tool.

Three kinds of material, all deterministic:

- :func:`ruling_cases`: hand-written bad ruling files (deep nesting, look-alike digits, trailing
  newlines in ids, huge counts and numbers, self-feeding triggers, FIFOs and symlinks, bad
  UTF-8, NUL bytes, markup and invisible characters in labels, repeated ids, dangling
  ``related`` ids, operations that move cards into zones they cannot be in, huge values;
  issue 25: control characters and blanks in texts, texts past the limit, Markdown that
  ground the build, negative printed numbers, a ruling copied through a symbolic link, a
  good ruling relating to a broken one, file names in upper case or not in UTF-8). A case
  may say which file every error line must name (``blame``) and what it must hold
  (``words``: the right line, field or bound).
- :func:`random_cases`: seeded random mutations of the project's own rulings, each of which
  must make the file unusable (a NUL byte or a bad UTF-8 sequence at a random place, a value
  nested thousands deep, a number beyond 64 bits, look-alike digits in a ``PREFIX*N``, ...).
- :func:`data_cases`: copies of ``data/`` broken in one way each (a TOML syntax error, bad
  UTF-8, a missing file, values of the wrong type, a card id in two files, a rule set id that
  climbs out of the site folder, a blank or NUL glossary name, a ``main`` ruling no corpus
  holds), read through ``JUDGE_DATA``.

A :class:`RulingCase` says what ``judge check``, ``judge db`` and ``judge build`` must do with
it (``expect``):

- ``error``: the file cannot be used: every command reports it on exactly one line that starts
  with its path (``judge db`` and ``judge build`` may put ``Error: `` in front).
- ``either``: the file loads or not, but cannot pass: ``judge check`` and ``judge build``
  report it once (an error line or one ``FAIL`` block); ``judge db`` names it at most once.
- ``skip``: not a regular file (a FIFO, a folder, a symlink to a device): skipped, or named on
  at most one line; it must never block.

Good rulings (:func:`good_rulings`) go into the same folder and must still pass, every one;
among them, Markdown within the limit of one text that once took minutes to render (they
are also built on their own: the build must finish in time).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from judge.skeleton import skeleton

#: The longest line any command may print: error messages quote bad values cut short.
MAX_LINE = 2000
BIG = 2**70  # beyond SQLite's 64-bit integers
HUGE_TEXT = 100_000  # characters of a huge value


@dataclass(frozen=True)
class Entry:
    """One thing written under the corpus' ``rulings/`` folder."""

    path: str  # relative to rulings/ (may hold surrogate-escaped bytes)
    data: bytes = b""
    kind: str = "file"  # file, fifo, dir, symlink
    target: str = ""  # of a symlink


@dataclass(frozen=True)
class RulingCase:
    name: str
    entries: tuple[Entry, ...]
    expect: str  # error, either, skip
    about: str
    #: For names that cannot be printed as they are (bytes that are not UTF-8, a newline): a
    #: line naming the file starts with this and holds ".toml" before its colon.
    prefix: str = ""
    #: Of several entries, the one (relative to rulings/) every error line must name.
    blame: str = ""
    #: What every error line about the case must hold (the right line, field or bound).
    words: tuple[str, ...] = ()

    @property
    def paths(self) -> tuple[str, ...]:
        """Paths as the commands print them (relative to the corpus root)."""
        return tuple(f"rulings/{e.path}" for e in self.entries)


@dataclass(frozen=True)
class Good:
    path: str  # relative to rulings/
    data: bytes
    ruling_id: str
    rulesets: tuple[str, ...]


# ---------------------------------------------------------------------- ruling templates


def tiny(rid: str, *, rulesets: str = '["current"]', top: str = "", cards: str = "",
         setup: str = "", p1: str = 'deck = ["d1", "d2"]', p2: str = "", steps: str = "",
         expect: str = 'phase = "main"', title: str = '[title]\nja = "t"') -> str:
    """A small ruling that passes as written; each argument replaces one part of it."""
    out = f'format_version = 9\nid = "{rid}"\nrulesets = {rulesets}\n{top}\n{title}\n\n{cards}\n'
    out += f'[setup]\nturn = 3\nturn_player = "p1"\n{setup}\n\n[setup.p1]\n{p1}\n'
    if p2:
        out += f"\n[setup.p2]\n{p2}\n"
    out += f"\n{steps}\n\n[[expect]]\n{expect}\n"
    return out


def effect(*ops: str) -> str:
    return '[[steps]]\naction = "effect"\nops = [' + ", ".join(ops) + "]\n"


#: A position with a centre LRIG (L1), a LRIG and an ARTS in the LRIG deck (L2, A1), a Key
#: (K1), a SIGNI in the hand (H1) and one on the field (S1), and an opponent's deck (e1, e2).
FIELD_P1 = '''deck = ["d1", "d2", "d3"]
hand = ["H1:signi-1"]
lrig_deck = ["A1:arts-banish-to-trash", "L2:lrig-white-2", "K1:hx-key"]
lrig = ["L0:lrig-white-0", "L1:lrig-white-1"]
signi1 = "S1:signi-1"'''
FIELD_P2 = 'deck = ["e1", "e2"]'
KEY_CARD = '[cards.hx-key]\ntype = "key"\n'


def misplaced(rid: str, op: str, player: str, zone: str, mode: str, label: str) -> str:
    """A ruling whose expectation holds only if ``op`` put ``label`` where it cannot go."""
    return tiny(rid, cards=KEY_CARD, p1=FIELD_P1, p2=FIELD_P2, steps=effect(op),
                expect=f'[expect.zones.{player}]\n{zone} = {{ {mode} = ["{label}"] }}')


SELF_MILL = '''[cards.hx-self-mill]
type = "signi"
level = 1
power = 1000
[[cards.hx-self-mill.abilities]]
kind = "auto"
trigger = "put_into_trash_from_deck"
optional = OPTIONAL
effect = [{ op = "mill", count = 1 }]
'''


def nested(depth: int, open_: str = "[", close: str = "]", inner: str = "") -> str:
    return open_ * depth + inner + close * depth


def _file(name: str, text: str | bytes, expect: str, about: str, folder: str = "bad",
          filename: str = "", prefix: str = "", words: tuple[str, ...] = ()) -> RulingCase:
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    return RulingCase(name, (Entry(f"{folder}/{filename or name + '.toml'}", data),), expect,
                      about, prefix, words=words)


def ruling_cases() -> list[RulingCase]:
    """The hand-written cases (names are unique and are the test ids)."""
    out: list[RulingCase] = []

    def bad(name: str, text: str | bytes, about: str, expect: str = "error",
            words: tuple[str, ...] = ()) -> None:
        out.append(_file(name, text, expect, about, words=words))

    def rid(name: str) -> str:
        return f"hx-{name}"

    # ---- nesting
    n = "nest-array-5000"
    bad(n, tiny(rid(n), top="x = " + nested(5000)), "5000 nested arrays (RecursionError)")
    n = "nest-inline-table-5000"
    bad(n, tiny(rid(n), top="x = " + nested(5000, "{a = ", "}", "1")),
        "5000 nested inline tables")
    n = "nest-mixed-3000"
    bad(n, tiny(rid(n), top="x = " + nested(3000, "[{a = ", "}]", "1")),
        "arrays of tables nested 3000 deep")
    n = "nest-in-ops-5000"
    bad(n, tiny(rid(n), steps='[[steps]]\naction = "effect"\nops = ' + nested(5000)),
        "the ops of a step nested 5000 deep")
    n = "nest-in-zone-2000"
    bad(n, tiny(rid(n), p1="deck = " + nested(2000, inner='"d1"')),
        "a zone nested 2000 deep")
    n = "nest-in-related-400"
    bad(n, tiny(rid(n), top="related = " + nested(400, inner='"x"')),
        "related nested 400 deep: parses, far beyond any real nesting")
    n = "nest-dotted-key-3000"
    bad(n, tiny(rid(n), top=".".join(["x"] * 3000) + " = 1"), "a dotted key 3000 parts long")
    n = "nest-header-3000"
    bad(n, tiny(rid(n)) + "\n[" + ".".join(["x"] * 3000) + "]\n",
        "a table header 3000 parts long")

    # ---- look-alike digits and trailing newlines
    for n, spec, about in [
        ("repeat-superscript", "e*²", "isdigit() accepts ², int() refuses it"),
        ("repeat-superscript-ten", "e*¹⁰", "superscript digits"),
        ("repeat-fullwidth", "e*１０", "full-width digits in a count"),
        ("repeat-arabic-indic", "e*٣", "Arabic-Indic digit in a count"),
        ("repeat-huge", "e*100000000", "a hundred million cards"),
        ("repeat-5000", "e*5000", "5000 cards in one zone"),
    ]:
        bad(n, tiny(rid(n), p2=f'deck = ["{spec}"]'), about)
    bad("id-fullwidth-digit", tiny("x１"), "a full-width digit in the id")
    bad("id-fullwidth-letter", tiny("ｘ-y"), "a full-width letter in the id")
    bad("id-trailing-newline", tiny("hx-id-newline\\n"), "an id ending in a newline ($)")
    bad("id-invisible", tiny("hx-id\u200binvisible"), "a zero-width space in the id")
    bad("id-dotdot", tiny("../../hx-up"), "an id that climbs folders")
    bad("id-slash", tiny("hx/inner"), "an id with a slash")
    bad("id-huge", tiny("A" * HUGE_TEXT), "a 100 KB id: the message must not repeat it")
    for n, top, about in [
        ("source-table", '[[sources]]\ntitle = "s"\ndate = "2020"\nauthority = "community"\n',
         "a [[sources]] table of the old format"),
        ("source-unknown", 'sources = ["hx-no-such-document"]', "a source the registry lacks"),
        ("source-section-unknown", 'sources = ["mistaken-rules#hx-none"]',
         "a section its document lacks"),
        ("source-empty-section", 'sources = ["mistaken-rules#"]', "an empty section"),
        ("source-twice", 'sources = ["mistaken-rules#crush", "mistaken-rules#crush"]',
         "one citation twice"),
        ("source-number", "sources = [5]", "a citation that is a number"),
        ("source-fullwidth", 'sources = ["ｍistaken-rules"]', "a full-width letter in an id"),
        ("source-newline", 'sources = ["mistaken-rules\\n"]', "an id ending in a newline"),
        ("source-huge", f'sources = ["{"x" * HUGE_TEXT}"]',
         "a 100 KB citation: the message must not repeat it"),
    ]:
        bad(n, tiny(rid(n), top=top), about)
    for n, text, about in [
        ("mark-unknown", "[x]{.interp}", "a mark that is not {.interpretation}"),
        ("mark-unopened", "x{.interpretation}", "a mark without its bracketed sentence"),
        ("mark-script", "[x]{.interpretation onload=alert(1)}", "a mark with more in it"),
    ]:
        bad(n, tiny(rid(n), title=f'[title]\nja = "t"\n[explanation]\nja = "{text}"'), about)
    n = "tag-trailing-newline"
    bad(n, tiny(rid(n), top='tags = ["refresh\\n"]'), "a tag ending in a newline")
    n = "tag-dotdot"
    bad(n, tiny(rid(n), top='tags = ["../../x"]'), "a tag that climbs folders")
    n = "tag-huge"
    bad(n, tiny(rid(n), top=f'tags = ["{"two words " * (HUGE_TEXT // 10)}"]'),
        "a 100 KB tag with spaces")
    n = "term-dotdot"
    bad(n, tiny(rid(n), top='terms = ["../../x"]'), "a glossary term that climbs folders")
    n = "term-trailing-newline"
    bad(n, tiny(rid(n), top='terms = ["refresh\\n"]'), "a term ending in a newline")
    n = "card-id-dotdot"
    bad(n, tiny(rid(n), cards='[cards."../x"]\ntype = "signi"\nlevel = 1\npower = 1000\n',
                p1='deck = ["d1", "d2"]\nhand = ["H1:../x"]'), "a card id that climbs folders")
    n = "ruleset-dotdot"
    bad(n, tiny(rid(n), rulesets='["../../x"]'), "a rule set id that climbs folders")
    n = "ruleset-twice"
    bad(n, tiny(rid(n), rulesets='["current", "current"]'), "one rule set named twice")
    n = "related-unknown"
    bad(n, tiny(rid(n), top='related = ["hx-no-such-ruling"]'), "related names no ruling")
    n = "related-dotdot"
    bad(n, tiny(rid(n), top='related = ["../../x"]'), "related climbs folders")

    # ---- labels with markup or invisible characters
    for n, spec in [("label-markup", "<b>x*2"), ("label-zero-width", "\u200b*2"),
                    ("label-zero-width-suffix", "x\u200b*2"), ("label-space", "x y*2"),
                    ("label-slash", "x/../*2"), ("label-digit-first", "1x*2"),
                    ("label-non-ascii", "é*2"), ("label-rtl-override", "x\u202e*2")]:
        bad(n, tiny(rid(n), p1=f'deck = ["d1", "d2"]\nhand = ["{spec}"]'),
            f"PREFIX*N with the prefix {spec!r}")
    n = "label-huge-in-valid-list"
    bad(n, tiny(rid(n), p1=f'deck = ["{"a" * HUGE_TEXT}"]',
                expect='[expect.zones.p1]\nhand = ["nobody"]'),
        "a 100 KB label listed in the (valid: ...) of a later error")

    # ---- huge values
    n = "title-huge-string"
    bad(n, tiny(rid(n), title=f'title = "{"x" * HUGE_TEXT}"'),
        "a 100 KB title where a table belongs")
    n = "op-huge-name"
    bad(n, tiny(rid(n), steps=effect(f'{{ op = "{"x" * HUGE_TEXT}" }}')),
        "a 100 KB operation name")
    n = "zone-huge-name"
    bad(n, tiny(rid(n), p1=f'deck = ["d1"]\n{"z" * HUGE_TEXT} = ["d2"]'),
        "a 100 KB zone name (an unknown field)")
    huge = "x" * HUGE_TEXT
    n = "pick-huge"
    bad(n, tiny(rid(n)) + f'\n[[choices]]\npick = "{huge}"\n', "a 100 KB scripted answer")
    n = "expect-illegal-huge"
    bad(n, tiny(rid(n), steps=f'[[steps]]\naction = "advance"\nexpect_illegal = "{huge}"\n'),
        "a 100 KB reason code")
    n = "event-type-huge"
    bad(n, tiny(rid(n), expect=f'[expect.events]\nsubsequence = [{{ type = "{huge}" }}]'),
        "a 100 KB event type")
    n = "colour-huge"
    bad(n, tiny(rid(n), cards=f'[cards.hx-c]\ntype = "signi"\nlevel = 1\npower = 1\n'
                f'colour = "{huge}"\n', p1='deck = ["d1", "d2"]\nhand = ["H1:hx-c"]'),
        "a 100 KB colour")
    n = "event-detail-2e70"
    bad(n, tiny(rid(n), steps=effect('{ op = "draw", count = 3 }'),
                expect=f'[expect.events]\nsubsequence = [{{ type = "skipped", wanted = {BIG} }}]'),
        "an event detail of 2**70 (details are compared, not typed)", "either")
    n = "file-over-1mb"
    bad(n, tiny(rid(n)) + ("# padding " + "x" * 90 + "\n") * 12_000, "a 1.2 MB file")
    n = "title-over-1mb"
    bad(n, tiny(rid(n), title=f'[title]\nja = "{"あ" * 400_000}"'), "a 1.2 MB title")

    # ---- numbers beyond what SQLite stores, counts beyond any game
    n = "card-power-2e70"
    bad(n, tiny(rid(n), cards=f'[cards.hx-big]\ntype = "signi"\nlevel = 1\npower = {BIG}\n',
                p1='deck = ["d1", "d2"]\nhand = ["H1:hx-big"]'), "a card's power of 2**70")
    n = "card-level-2e70"
    bad(n, tiny(rid(n), cards=f'[cards.hx-big]\ntype = "signi"\nlevel = {BIG}\npower = 1\n',
                p1='deck = ["d1", "d2"]\nhand = ["H1:hx-big"]'), "a card's level of 2**70")
    n = "turn-2e70"
    bad(n, tiny(rid(n)).replace("turn = 3", f"turn = {BIG + 1}"), "turn 2**70 + 1")
    n = "seed-2e70"
    bad(n, tiny(rid(n), setup=f"seed = {BIG}"), "a seed of 2**70")
    n = "power-amount-2e70"
    bad(n, tiny(rid(n), p1=FIELD_P1, cards=KEY_CARD,
                steps=effect(f'{{ op = "power", target = "S1", amount = {BIG} }}')),
        "a power change of 2**70")
    n = "target-count-2e70"
    bad(n, tiny(rid(n), p1='deck = ["d1"]\nhand = ["h1"]',
                steps=effect(f'{{ op = "discard", target = {{ zone = "hand", count = {BIG} }} }}')),
        "a target count of 2**70")
    n = "explore-limit-1e9"
    bad(n, tiny(rid(n), top="explore_limit = 1000000000"), "explore_limit = 10**9")
    n = "explore-limit-2e70"
    bad(n, tiny(rid(n), top=f"explore_limit = {BIG}"), "explore_limit = 2**70")
    n = "mill-2e63-launch-rules"
    bad(n, tiny(rid(n), rulesets='["2014-04"]', p1='deck = ["d1", "d2"]\ntrash = ["t1"]\n'
                'life = ["l1"]', steps=effect(f'{{ op = "mill", count = {2**63 - 1} }}')),
        "mill 2**63-1 under the launch rules, where the refresh interrupts", "either")
    n = "draw-1e7"
    bad(n, tiny(rid(n), p1='deck = ["d1", "d2"]\ntrash = ["t1"]',
                steps=effect('{ op = "draw", count = 10000000 }')), "draw ten million",
        "either")
    n = "crush-step-2e63"
    bad(n, tiny(rid(n), p2='deck = ["e1"]\nlife = ["l1"]',
                steps=f'[[steps]]\naction = "crush"\nplayer = "p2"\ncount = {2**63 - 1}\n'),
        "a crush step of 2**63-1", "either")

    # ---- triggers that feed themselves
    for n, optional, rules, top in [
        ("self-mill-optional", "true", '["2014-04"]', ""),
        ("self-mill-mandatory", "false", '["2014-04"]', ""),
        ("self-mill-optional-explore-1e9", "true", '["current"]',
         "explore_limit = 1000000000"),
    ]:
        bad(n, tiny(rid(n), rulesets=rules, top=top, cards=SELF_MILL.replace("OPTIONAL", optional),
                    p1='deck = ["m*20:hx-self-mill"]\ntrash = ["t1"]\nlife = ["l*7"]',
                    steps=effect('{ op = "mill", count = 1 }'),
                    expect='[expect.zones.p1]\ndeck = { count = 99 }'),
            f"a self-milling trigger (optional = {optional}) under {rules}", "either")

    # ---- bytes
    base = tiny("hx-bytes").encode()
    cut = base.index(b'ja = "t"') + 6
    for n, data, about in [
        ("bom-twice", "\ufeff\ufeff".encode() + base, "two byte order marks"),
        ("bad-utf8-ff", base[:cut] + b"\xff" + base[cut:], "a 0xFF byte in a string"),
        ("bad-utf8-overlong", base[:cut] + b"\xc0\xaf" + base[cut:], "an overlong '/'"),
        ("bad-utf8-surrogate", base[:cut] + b"\xed\xa0\x80" + base[cut:],
         "an encoded surrogate"),
        ("bad-utf8-truncated", base + b"# \xe3\x81", "a multi-byte character cut at the end"),
        ("latin1-title", base[:cut] + "é".encode("latin-1") + base[cut:], "Latin-1, not UTF-8"),
        ("utf16", tiny("hx-utf16").encode("utf-16"), "the file in UTF-16"),
        ("nul-first", b"\x00" + base, "a NUL byte first"),
        ("nul-in-string", base[:cut] + b"\x00" + base[cut:], "a NUL byte in a string"),
        ("nul-in-comment", base + b"# \x00\n", "a NUL byte in a comment"),
        ("escape-in-string", base[:cut] + b"\x1b[2J" + base[cut:], "a terminal escape"),
        ("surrogate-escape", tiny("hx-surrogate").replace('ja = "t"', 'ja = "\\ud800"').encode(),
         "\\ud800 in a TOML string"),
    ]:
        bad(n, data, about)

    # ---- cards moved where they cannot be
    for n, op, player, zone, mode, label in [
        ("place-lrig-into-signi-zone", '{ op = "place", target = "L2", zone = "signi2" }',
         "p1", "signi2", "contains", "L2"),
        ("place-arts-into-signi-zone", '{ op = "place", target = "A1", zone = "signi2" }',
         "p1", "signi2", "contains", "A1"),
        ("place-key-into-signi-zone", '{ op = "place", target = "K1", zone = "signi3" }',
         "p1", "signi3", "contains", "K1"),
        ("place-centre-lrig-into-signi-zone",
         '{ op = "place", target = "L1", zone = "signi2" }', "p1", "signi2", "contains", "L1"),
        ("place-lrig-into-ener", '{ op = "place", target = "L2", zone = "ener" }',
         "p1", "ener", "contains", "L2"),
        ("to-ener-arts", '{ op = "to_ener", target = "A1" }', "p1", "ener", "contains", "A1"),
        ("to-ener-centre-lrig", '{ op = "to_ener", target = "L1" }', "p1", "ener", "contains",
         "L1"),
        ("place-signi-into-lrig-zone", '{ op = "place", target = "H1", zone = "lrig" }',
         "p1", "lrig", "contains", "H1"),
        ("place-signi-into-key-zone", '{ op = "place", target = "H1", zone = "key" }',
         "p1", "key", "contains", "H1"),
        ("place-signi-into-lrig-deck", '{ op = "place", target = "H1", zone = "lrig_deck" }',
         "p1", "lrig_deck", "contains", "H1"),
        ("place-signi-into-assist", '{ op = "place", target = "H1", zone = "assist1" }',
         "p1", "assist1", "contains", "H1"),
        ("place-signi-into-lrig-trash", '{ op = "place", target = "H1", zone = "lrig_trash" }',
         "p1", "lrig_trash", "contains", "H1"),
        ("place-lrig-into-trash", '{ op = "place", target = "L2", zone = "trash" }',
         "p1", "trash", "contains", "L2"),
        ("place-arts-into-life", '{ op = "place", target = "A1", zone = "life" }',
         "p1", "life", "contains", "A1"),
        ("to-hand-centre-lrig", '{ op = "to_hand", target = "L1" }', "p1", "hand", "contains",
         "L1"),
        ("place-centre-lrig-into-hand", '{ op = "place", target = "L1", zone = "hand" }',
         "p1", "hand", "contains", "L1"),
        ("to-deck-centre-lrig", '{ op = "to_deck", target = "L1" }', "p1", "deck", "contains",
         "L1"),
        ("to-deck-arts", '{ op = "to_deck", target = "A1" }', "p1", "deck", "contains", "A1"),
        ("attach-from-opponent-deck", '{ op = "attach", target = "S1", card = "e1" }',
         "p2", "deck", "lacks", "e1"),
        ("put-lrig-onto-field",
         '{ op = "put_onto_field", target = "L2", ignore_conditions = true }',
         "p1", "lrig_deck", "lacks", "L2"),
    ]:
        bad(n, misplaced(rid(n), op, player, zone, mode, label),
            f"{op}: the expectation holds only if the move was made", "either")

    # ---- the corpus as a whole
    out.append(RulingCase("duplicate-id", (
        Entry("bad/duplicate-id-a.toml", tiny("hx-duplicate").encode()),
        Entry("bad/duplicate-id-b.toml", tiny("hx-duplicate").encode())), "error",
        "one ruling id in two files: one line for the pair"))
    out.append(RulingCase("duplicate-through-symlink", (
        Entry("bad/dup-link-genuine.toml", tiny("hx-dup-link").encode()),
        Entry("bad/dup-link-a-copy.toml", kind="symlink", target="dup-link-genuine.toml")),
        "error", "a symbolic link to a ruling, sorted before it: the link is the copy",
        blame="bad/dup-link-a-copy.toml"))
    out.append(RulingCase("related-to-broken", (
        Entry("bad/related-broken-target.toml",
              tiny("hx-related-target", top="bogus_field = 1").encode()),
        Entry("bad/related-good-pointer.toml",
              tiny("hx-related-pointer", top='related = ["hx-related-target"]').encode())),
        "error", "a good ruling relates to a broken one: only the broken one is reported",
        blame="bad/related-broken-target.toml"))

    # ---- texts: nonsense and Markdown that grinds (issue 25)
    for n, title, about, words in [
        ("title-nul", '[title]\nja = "a\\u0000b"', "a NUL in a title (TOML's \\u0000)",
         ("title.ja", "U+0000")),
        ("title-escape", '[title]\nja = "t"\nen = "\\u001b[2Jx"', "a terminal escape",
         ("title.en", "U+001B")),
        ("title-c1", '[title]\nja = "t\\u0085"', "a C1 control character (NEL)",
         ("title.ja", "U+0085")),
        ("title-blank-en", '[title]\nja = "t"\nen = " "', "an English title of one space",
         ("title.en", "blank")),
        ("answer-nul", '[title]\nja = "t"\n[answer]\nja = "\\u0000"', "a NUL answer",
         ("answer.ja", "U+0000")),
        ("answer-over-limit", f'[title]\nja = "t"\n[answer]\nja = "{"x" * 20_001}"',
         "an answer of 20,001 characters (MAX_TEXT_CHARS)", ("answer.ja", "20000")),
        ("answer-unclosed-links", f'[title]\nja = "t"\n[answer]\nja = "{"[a](" * 8000}"',
         "[a]( written 8,000 times: 73 s to build before issue 25", ("answer.ja", "20000")),
        ("answer-references", '[title]\nja = "t"\n[answer]\nja = """' + "".join(
            f"[l{i}][r{i}] " for i in range(1500)) + "\n\n" + "".join(
            f"[r{i}]: ../x{i}/\n" for i in range(1500)) + '"""',
         "1,500 reference links: minutes to render before issue 25", ("answer.ja", "20000")),
    ]:
        bad(n, tiny(rid(n), title=title), about, words=words)
    for n, field, value in [("card-level-negative", "level", "-1"),
                            ("card-power-negative", "power", "-1000")]:
        card = '[cards.hx-neg]\ntype = "signi"\nlevel = 1\npower = 1000\n'.replace(
            f"{field} = {1 if field == 'level' else 1000}", f"{field} = {value}")
        bad(n, tiny(rid(n), cards=card, p1='deck = ["d1", "d2"]\nhand = ["H1:hx-neg"]'),
            f"a SIGNI with a printed {field} of {value}",
            words=(f"cards.hx-neg.{field}", "must be at least 0"))
    n = "amount-below-limit"
    bad(n, tiny(rid(n), p1=FIELD_P1, cards=KEY_CARD,
                steps=effect(f'{{ op = "power", target = "S1", amount = {-BIG} }}')),
        "a power change of -2**70: told the lower bound, not the upper",
        words=("must be at least -9007199254740992",))
    n = "toml-two-statements"
    bad(n, tiny(rid(n), top="x = 1 y = 2"), "two statements on line 4: the error is on line 4, "
        "not on the last line", words=(f"{n}.toml:4: TOML syntax: Expected newline",))

    # ---- file names
    out.append(_file("name-not-utf8", "id = 5\n", "error", "a file name that is not UTF-8",
                     filename="name-not-utf8-\udcff.toml", prefix="rulings/bad/name-not-utf8-"))
    out.append(_file("name-newline", "id = 5\n", "error", "a newline in the file name",
                     filename="name-newline-\nx.toml", prefix="rulings/bad/name-newline-"))
    out.append(_file("name-japanese", "id = 5\n", "error", "a Japanese file name",
                     filename="名前-name-japanese.toml"))
    out.append(_file("name-spaces", "id = 5\n", "error", "spaces in the file name",
                     filename="name with spaces.toml"))
    out.append(_file("name-not-utf8-good", tiny("hx-name-not-utf8"), "error",
                     "a good ruling whose file name is not UTF-8 (db and build crashed)",
                     filename="good-but-not-utf8-\udcfe.toml",
                     prefix="rulings/bad/good-but-not-utf8-"))
    out.append(_file("name-upper-case", tiny("hx-name-upper"), "error",
                     "a good ruling named UPPER.TOML: refused, never skipped",
                     filename="UPPER.TOML"))

    # ---- things that are not regular files
    out.append(RulingCase("fifo", (Entry("special/x.toml", kind="fifo"),), "skip",
                          "a FIFO named x.toml: reading it would block"))
    out.append(RulingCase("folder-named-toml", (Entry("special/folder.toml", kind="dir"),),
                          "skip", "a folder named folder.toml"))
    out.append(RulingCase("symlink-to-dev-zero", (
        Entry("special/zero.toml", kind="symlink", target="/dev/zero"),), "skip",
        "a symlink to /dev/zero: reading it never ends"))
    out.append(RulingCase("symlink-dangling", (
        Entry("special/dangling.toml", kind="symlink", target="no-such-file.toml"),), "skip",
        "a symlink to nothing"))
    out.append(RulingCase("symlink-loop", (
        Entry("special/loop", kind="symlink", target="../.."),), "skip",
        "a folder symlink back to the corpus root: no ruling is read twice"))
    names = [c.name for c in out]
    assert len(names) == len(set(names)), "two hand-written cases with one name"
    return out


# ---------------------------------------------------------------------- random mutations

INVISIBLE = ("\u200b", "\u00a0", "\u2060", "\ufeff", "\u202e", "\u3000", "\u00ad")
BAD_BYTES = (b"\xff", b"\xfe", b"\xc0\xaf", b"\xed\xa0\x80", b"\xf8\x88\x80\x80\x80", b"\x80")
CONTROLS = ("\x1b", "\x7f", "\x08", "\x0b", "\x0c", "\x01")
FULLWIDTH = str.maketrans("0123456789", "０１２３４５６７８９")
RELATED = re.compile(r"^related = \[.*?\]", re.M | re.S)
ID_LINE = re.compile(r'^id = "[^"\n]*"$', re.M)
#: an integer of the set-up, the steps or the cards (not of [[expect]]: event details are free)
INT_FIELD = re.compile(r"\b(count|amount|level|power|limit|turn|seed|ability|explore_limit)"
                       r" = (-?\d+)\b")
TEXT_FIELD = re.compile(r'^(?!id )([A-Za-z_\-]+) = ("[^"\n]*")$', re.M)
CARD_NUMBER = re.compile(r"^(power|level|limit) = (\d+)$", re.M)
OP_COUNT = re.compile(r"\{ op = \"[a-z_]+\",[^}\n]*\bcount = (\d+)")
ANY_KEY = re.compile(r"^(?!id )([A-Za-z_\-]+) = ", re.M)
REPEAT = re.compile(r'"[A-Za-z][A-Za-z0-9_\-]*\*(\d+)')
SETUP_LABEL = re.compile(r'"([A-Za-z][A-Za-z0-9_\-]*)(?=[":*])')
RANDOM_PER_KIND = 8


def _sections(text: str) -> list[tuple[int, int, str]]:
    """(start, end, header) of each part of the file, by character offset."""
    heads = [(m.start(), m.group(0)) for m in re.finditer(r"^\[.*$", text, re.M)]
    bounds = [(0, "")] + heads + [(len(text), "")]
    return [(bounds[i][0], bounds[i + 1][0], bounds[i][1]) for i in range(len(bounds) - 1)]


def _in(text: str, pattern: re.Pattern[str], want: Callable[[str], bool]) -> list[re.Match[str]]:
    return [m for start, end, head in _sections(text) if want(head)
            for m in pattern.finditer(text, start, end)]


def _not_expect(head: str) -> bool:
    return not head.startswith(("[[expect", "[expect", "[[choices"))


def _card(head: str) -> bool:
    return head.startswith("[cards.")


def _step(head: str) -> bool:
    return head.startswith("[[steps]]")


def _setup_zone(head: str) -> bool:
    return head.startswith(("[setup.p1]", "[setup.p2]"))


def random_cases(bases: list[tuple[str, str]], seed: int = 9) -> list[RulingCase]:
    """Seeded mutations of (name, text) rulings, each of which makes the file unusable."""
    rng = random.Random(seed)
    out: list[RulingCase] = []
    counter = [0]

    def fresh(text: str) -> tuple[str, str]:
        counter[0] += 1
        rid = f"hx-m{counter[0]:03d}"
        text = RELATED.sub("related = []", text, count=1)  # they name rulings not copied
        return rid, ID_LINE.sub(f'id = "{rid}"', text, count=1)

    def add(kind: str, base: str, data: str | bytes, about: str) -> None:
        name = f"rnd-{kind}-{len([c for c in out if c.name.startswith(f'rnd-{kind}-')]):02d}"
        raw = data if isinstance(data, bytes) else data.encode("utf-8")
        out.append(RulingCase(name, (Entry(f"random/{name}.toml", raw),), "error",
                              f"{about} (from {base})"))

    def pick(want: Callable[[str], bool] = lambda t: True) -> tuple[str, str]:
        pool = [(n, t) for n, t in bases if want(t)]
        return pool[rng.randrange(len(pool))]

    def spot(text: str) -> int:
        return rng.randrange(len(text) + 1)

    for _ in range(RANDOM_PER_KIND):
        name, text = pick()
        _, text = fresh(text)
        at = spot(text)
        add("nul", name, text[:at] + "\x00" + text[at:], f"a NUL byte at character {at}")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick()
        _, text = fresh(text)
        at = spot(text)
        junk = rng.choice(BAD_BYTES)
        add("bad-utf8", name, text[:at].encode() + junk + text[at:].encode(),
            f"bytes {junk!r} at character {at}")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick()
        _, text = fresh(text)
        at = spot(text)
        char = rng.choice(CONTROLS)
        add("control", name, text[:at] + char + text[at:], f"{char!r} at character {at}")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick()
        rid, text = fresh(text)
        char = rng.choice(INVISIBLE)
        add("id-invisible", name, text.replace(f'"{rid}"', f'"{rid}{char}"', 1),
            f"{char!r} at the end of the id")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick()
        rid, text = fresh(text)
        add("id-newline", name, text.replace(f'"{rid}"', f'"{rid}\\n"', 1),
            "a newline at the end of the id")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick()
        _, text = fresh(text)
        lines = text.split("\n")
        keys = [i for i, line in enumerate(lines) if re.match(r"^[A-Za-z_\-]+ = ", line)
                and not line.startswith("id = ")]
        i = rng.choice(keys)
        depth = rng.randrange(1000, 5001)
        lines[i] = lines[i].split(" = ", 1)[0] + " = " + nested(depth)
        add("deep", name, "\n".join(lines), f"line {i + 1} nested {depth} deep")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick(lambda t: bool(_in(t, INT_FIELD, _not_expect)))
        _, text = fresh(text)
        match = rng.choice(_in(text, INT_FIELD, _not_expect))
        big = -BIG if match.group(2).startswith("-") else BIG
        text = text[:match.start(2)] + str(big) + text[match.end(2):]
        add("bigint", name, text, f"{match.group(1)} = {big}")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick(lambda t: bool(_in(t, CARD_NUMBER, _card)))
        _, text = fresh(text)
        match = rng.choice(_in(text, CARD_NUMBER, _card))
        text = text[:match.start(2)] + str(BIG) + text[match.end(2):]
        add("bigint-card", name, text, f"a card's {match.group(1)} = {BIG}")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick(lambda t: bool(_in(t, OP_COUNT, _step)))
        _, text = fresh(text)
        match = rng.choice(_in(text, OP_COUNT, _step))
        count = rng.choice([10**6, 10**9, 2**31, 2**63 - 1])
        text = text[:match.start(1)] + str(count) + text[match.end(1):]
        add("op-count", name, text, f"an operation's count of {count}")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick()
        _, text = fresh(text)
        match = rng.choice(_in(text, ANY_KEY, lambda head: "events" not in head))
        key = rng.choice("zq") * HUGE_TEXT
        text = text[:match.start(1)] + key + text[match.end(1):]
        line = text.count("\n", 0, match.start()) + 1
        add("huge-key", name, text, f"line {line}: the key {match.group(1)} made 100 KB long")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick(lambda t: bool(_in(t, REPEAT, _setup_zone)))
        _, text = fresh(text)
        match = rng.choice(_in(text, REPEAT, _setup_zone))
        digits = match.group(1).translate(FULLWIDTH)
        text = text[:match.start(1)] + digits + text[match.end(1):]
        add("fullwidth-repeat", name, text, f"{match.group(0)} written with {digits}")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick(lambda t: bool(_in(t, SETUP_LABEL, _setup_zone)))
        _, text = fresh(text)
        match = rng.choice(_in(text, SETUP_LABEL, _setup_zone))
        char = rng.choice(INVISIBLE)
        text = text[:match.end(1)] + char + text[match.end(1):]
        add("label-invisible", name, text, f"{char!r} after the label {match.group(1)}")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick()
        _, text = fresh(text)
        # a text field (not an event detail: those are compared, not typed)
        match = rng.choice(_in(text, TEXT_FIELD, lambda head: "events" not in head))
        value = rng.choice(["7", "true", "[1, 2]", "{ x = 1 }", "2020-01-01"])
        line = text.count("\n", 0, match.start()) + 1
        text = text[:match.start(2)] + value + text[match.end(2):]
        add("wrong-type", name, text, f"line {line}: {match.group(1)} = {value}")
    for _ in range(RANDOM_PER_KIND):
        name, text = pick()
        _, text = fresh(text)
        cut = rng.randrange(1, len(text) - 1)
        head = text[:cut]
        # a cut inside a string or an array leaves it open: always a syntax error
        tail = rng.choice(['"', "[", "{ x = ", "'''"])
        add("truncated", name, head + "\n" + ("x = " + tail), f"cut at character {cut}")
    return out


def repo_bases(rulings: Path) -> list[tuple[str, str]]:
    """(name, text) of every ruling of the project that parses as TOML."""
    out = []
    for path in sorted(rulings.rglob("*.toml")):
        try:
            text = path.read_text(encoding="utf-8")
            tomllib.loads(text)
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
            continue  # being written right now
        if ID_LINE.search(text):
            out.append((path.stem, text))
    return out


# ---------------------------------------------------------------------- good rulings


def good_rulings(bases: list[tuple[str, str]], count: int = 6) -> list[Good]:
    """A few of the project's rulings (spread over the list, without their
    ``related`` ids: they name rulings outside this folder), the skeleton, the skeleton with
    a byte order mark, a ruling with CRLF line ends, and one with a Japanese file name."""
    step = max(1, len(bases) // count)
    out: list[Good] = []
    for name, text in bases[::step][:count]:
        text = RELATED.sub("related = []", text, count=1)
        doc = tomllib.loads(text)
        out.append(Good(f"good/{name}.toml", text.encode(), doc["id"], tuple(doc["rulesets"])))
    rules = ("2014-07", "2014-09", "current")
    out.append(Good("good/skeleton.toml", skeleton("hx-good-skeleton").encode(),
                    "hx-good-skeleton", rules))
    out.append(Good("good/byte-order-mark.toml",
                    "\ufeff".encode() + skeleton("hx-good-bom").encode(), "hx-good-bom", rules))
    out.append(Good("good/crlf.toml", skeleton("hx-good-crlf").replace("\n", "\r\n").encode(),
                    "hx-good-crlf", rules))
    out.append(Good("good/日本語の名前.toml", skeleton("hx-good-japanese-name").encode(),
                    "hx-good-japanese-name", rules))
    # Markdown that ground the build before issue 25, within the limit of one text
    # (judge.limits.MAX_TEXT_CHARS), so judge check passes it: the question, answer and
    # explanation in Japanese only, each shown in three languages (the answer also on the
    # list of all rulings), each render took seconds (the build of these alone, minutes)
    for name, markdown in [("markdown-links", "[a](" * 4999), ("markdown-tags", "<a " * 6666),
                           ("markdown-images", "![a](" * 3999)]:
        rid = f"hx-good-{name}"
        text = re.sub(r'\[(question|answer|explanation)\]\nja = "[^"\n]*"\nen = "[^"\n]*"\n'
                      r'zh-Hans = "[^"\n]*"\n', rf'[\1]\nja = "{markdown}"\n', skeleton(rid))
        assert text.count(markdown) == 3, name
        out.append(Good(f"good/{name}.toml", text.encode(), rid, rules))
    return out


def write_corpus(rulings: Path, goods: list[Good], cases: list[RulingCase]) -> None:
    for good in goods:
        target = rulings / good.path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(good.data)
    for case in cases:
        for entry in case.entries:
            target = Path(os.fsdecode(os.fsencode(rulings / entry.path)))
            target.parent.mkdir(parents=True, exist_ok=True)
            if entry.kind == "file":
                with open(os.fsencode(target), "wb") as fh:
                    fh.write(entry.data)
            elif entry.kind == "fifo":
                os.mkfifo(target)
            elif entry.kind == "dir":
                target.mkdir()
            elif entry.kind == "symlink":
                os.symlink(entry.target, target)
            else:  # pragma: no cover
                raise ValueError(entry.kind)


# ---------------------------------------------------------------------- broken data folders

TINY_FOR_DATA = tiny("hx-data-probe", top='terms = ["refresh"]',
                     p1='deck = ["d1", "d2"]\nhand = ["H1:signi-2"]')


@dataclass(frozen=True)
class DataCase:
    name: str
    file: str  # the broken file, relative to the data folder
    apply: Callable[[Path], None]  # breaks a copy of data/
    about: str
    words: tuple[str, ...] = ()  # the message must contain each of these
    commands: tuple[str, ...] = ("check",)
    may_skip: bool = False  # a file that is not a regular file may be skipped
    missing: bool = False  # the file is gone: no line number


def _term_field(rel: str, key: str, value: str) -> Callable[[Path], None]:
    """``key = value`` in the first term's own table, instead of its ``key`` (a line or a
    ``[terms.ID.key]`` sub-table)."""
    def apply(data: Path) -> None:
        lines = _lines(data, rel)
        head = _first(lines, "[terms.", rel)
        term = lines[head].strip()[1:-1]
        end = next((i for i in range(head + 1, len(lines))
                    if lines[i].startswith("[") and not lines[i].startswith(f"[{term}.")),
                   len(lines))
        keep = []
        skipping = False
        for i in range(head + 1, end):
            line = lines[i]
            if line.startswith("["):
                skipping = line.strip() == f"[{term}.{key}]"
            if skipping or line.startswith(f"{key} = "):
                continue
            keep.append(line)
        lines[head + 1:end] = [f"{key} = {value}", *keep]
        (data / rel).write_text("\n".join(lines), encoding="utf-8")
    return apply


def _lines(data: Path, rel: str) -> list[str]:
    return (data / rel).read_text(encoding="utf-8").split("\n")


def _first(lines: list[str], start: str, rel: str) -> int:
    for i, line in enumerate(lines):
        if line.startswith(start):
            return i
    raise AssertionError(f"no line starting with {start!r} in {rel}")


def _after(rel: str, start: str, new: str) -> Callable[[Path], None]:
    """Insert a line after the first line that starts with ``start``."""
    def apply(data: Path) -> None:
        lines = _lines(data, rel)
        lines.insert(_first(lines, start, rel) + 1, new)
        (data / rel).write_text("\n".join(lines), encoding="utf-8")
    return apply


def _inject(rel: str, start: str, junk: bytes) -> Callable[[Path], None]:
    """Put bytes just after the first quote of the first line that starts with ``start``."""
    def apply(data: Path) -> None:
        lines = _lines(data, rel)
        i = _first(lines, start, rel)
        head, quote, tail = lines[i].partition('"')
        raw = [line.encode() for line in lines]
        raw[i] = (head + quote).encode() + junk + tail.encode()
        (data / rel).write_bytes(b"\n".join(raw))
    return apply


def _header(rel: str, n: int) -> Callable[[Path], None]:
    """Drop the closing bracket of the n-th table header (from 1)."""
    def apply(data: Path) -> None:
        lines = _lines(data, rel)
        heads = [i for i, line in enumerate(lines) if line.startswith("[")]
        lines[heads[n - 1]] = lines[heads[n - 1]].rstrip().rstrip("]")
        (data / rel).write_text("\n".join(lines), encoding="utf-8")
    return apply


def _line(rel: str, start: str, new: str) -> Callable[[Path], None]:
    """Replace the first line that starts with ``start``."""
    def apply(data: Path) -> None:
        lines = _lines(data, rel)
        lines[_first(lines, start, rel)] = new
        (data / rel).write_text("\n".join(lines), encoding="utf-8")
    return apply


def _sub(rel: str, pattern: str, new: str) -> Callable[[Path], None]:
    def apply(data: Path) -> None:
        path = data / rel
        text, n = re.subn(pattern, new, path.read_text(encoding="utf-8"), count=1)
        assert n == 1, f"{pattern!r} not in {rel}"
        path.write_text(text, encoding="utf-8")
    return apply


def _write(rel: str, data: str | bytes) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        (folder / rel).write_bytes(data.encode() if isinstance(data, str) else data)
    return apply


def _append(rel: str, text: str | bytes) -> Callable[[Path], None]:
    def apply(folder: Path) -> None:
        with (folder / rel).open("ab") as fh:
            fh.write(text.encode() if isinstance(text, str) else text)
    return apply


def _remove(rel: str) -> Callable[[Path], None]:
    return lambda folder: (folder / rel).unlink()


def _fifo(rel: str) -> Callable[[Path], None]:
    return lambda folder: os.mkfifo(folder / rel)


RULESET_COPY = '''
[[ruleset]]
id = "{id}"
from = "2030"
title = {{ ja = "x", en = "x" }}
summary = {{ ja = "x", en = "x" }}
refresh_timing = "after_effect"
second_refresh_ends_turn = true
refresh_needs_trash = true
excess_order = "level_changed_first"
burst_count = "at_most"
grow = "up_one_only"
remove = "once_per_turn"
sources = ["mistaken-rules"]
'''
CARD = '\n[{id}]\ntype = "signi"\nlevel = 1\npower = 1000\n'


def data_cases() -> list[DataCase]:
    """Each edit finds its place by a pattern, not by exact text, so that the data may change."""
    rs, gl, cd, extra = "rulesets.toml", "glossary.toml", "cards/basic.toml", "cards/extra.toml"
    sr = "sources.toml"
    both = ("check", "db")
    out = [
        # rulesets.toml
        DataCase("rulesets-syntax", rs, _line(rs, "refresh_timing = ", 'refresh_timing = "interr'),
                 "TOML syntax: an unterminated string"),
        DataCase("rulesets-bad-utf8", rs, _inject(rs, "title = ", b"\xff"), "bad UTF-8"),
        DataCase("rulesets-nul", rs, _inject(rs, "title = ", b"\x00"), "a NUL byte"),
        DataCase("rulesets-missing", rs, _remove(rs), "no rulesets.toml", missing=True),
        DataCase("rulesets-empty", rs, _write(rs, ""), "an empty rulesets.toml",
                 ("ruleset",)),
        DataCase("rulesets-not-an-array", rs, _write(rs, "ruleset = 5\n"), "ruleset = 5",
                 ("ruleset",)),
        DataCase("rulesets-title-string", rs, _line(rs, "title = ", 'title = "x"'),
                 "title = \"x\" where a table belongs", ("title",)),
        DataCase("rulesets-title-ja-number", rs, _line(rs, "title = ", "title = { ja = 5 }"),
                 "a title that is a number", ("title",)),
        DataCase("rulesets-summary-list", rs, _line(rs, "summary = ", "summary = [1, 2]"),
                 "summary = [1, 2]", ("summary",)),
        DataCase("rulesets-grow-unknown", rs, _line(rs, "grow = ", 'grow = "sideways"'),
                 "an unknown grow rule", ("grow", "up_one_only")),
        DataCase("rulesets-remove-number", rs, _line(rs, "remove = ", "remove = 2"),
                 "a remove rule that is a number", ("remove", "once_per_turn")),
        DataCase("rulesets-sources-number", rs, _line(rs, "sources = ", "sources = 5"),
                 "sources = 5", ("sources",)),
        DataCase("rulesets-timing-unknown", rs, _line(rs, "refresh_timing = ",
                                                      'refresh_timing = "sometimes"'),
                 "an unknown refresh timing", ("refresh_timing",)),
        DataCase("rulesets-flag-text", rs, _line(rs, "second_refresh_ends_turn = ",
                                                 'second_refresh_ends_turn = "no"'),
                 "a flag that is text", ("second_refresh_ends_turn",)),
        DataCase("rulesets-unknown-field", rs, _after(rs, "excess_order = ",
                                                      'refresh_timming = "interrupt"'),
                 "a misspelt field", ("refresh_timming",)),
        DataCase("rulesets-duplicate-id", rs, _append(rs, RULESET_COPY.format(id="current")),
                 "a rule set id twice", ("id",)),
        DataCase("rulesets-id-spaces", rs, _append(rs, RULESET_COPY.format(id="two words")),
                 "a rule set id with a space", ("id",)),
        DataCase("rulesets-id-dotdot", rs, _append(rs, RULESET_COPY.format(id="../../x")),
                 "a rule set id ../../x (its site page would leave the rulesets folder)",
                 ("id",), ("check", "build")),
        DataCase("rulesets-id-escape", rs, _append(rs, RULESET_COPY.format(
            id="../../../../hx-escaped")), "a rule set id whose page would land outside --out",
            ("id",), ("check", "build")),
        DataCase("rulesets-nesting-5000", rs, _append(rs, "x = " + nested(5000) + "\n"),
                 "5000 nested arrays"),
        DataCase("rulesets-source-unknown", rs, _line(rs, "sources = ",
                                                      'sources = ["hx-no-such-document"]'),
                 "a rule set citing a document the registry lacks", ("sources",)),
        # sources.toml
        DataCase("sources-missing", sr, _remove(sr), "no sources.toml", missing=True),
        DataCase("sources-syntax", sr, _header(sr, 2), "TOML syntax: a header without ]"),
        DataCase("sources-date-fullwidth", sr, _line(sr, "date = ", 'date = "２０２０"'),
                 "full-width digits in a date", ("date",)),
        DataCase("sources-date-impossible", sr, _line(sr, "date = ", 'date = "2020-13-45"'),
                 "month 13, day 45", ("date",)),
        DataCase("sources-date-newline", sr, _line(sr, "date = ", 'date = "2020\\n"'),
                 "a date ending in a newline", ("date",)),
        DataCase("sources-authority-interpretation", sr, _line(
            sr, "authority = ", 'authority = "interpretation"'),
            "an interpretation listed as a source", ("authority",)),
        DataCase("sources-url-javascript", sr, _line(sr, "url = ", 'url = "javascript:alert(1)"'),
                 "a javascript: address", ("url",), ("check", "build")),
        DataCase("sources-title-no-zh", sr, _line(sr, "title = ", 'title = { ja = "x", en = "x" }'),
                 "a title without its Chinese", ("zh-Hans",)),
        DataCase("sources-seed-unknown", sr, _line(sr, "seed = ", 'seed = "002"'),
                 "a seed that does not exist", ("seed",)),
        DataCase("sources-id-dotdot", sr, _append(sr, '\n[sources."../../evil"]\n'
                                                      'authority = "community"\n'),
                 "a source id that climbs folders", ("evil",)),
        # glossary.toml
        DataCase("glossary-syntax", gl, _header(gl, 2), "TOML syntax: a header without ]",
                 commands=both),
        DataCase("glossary-bad-utf8", gl, _inject(gl, "en = ", b"\xff"), "bad UTF-8",
                 commands=both),
        DataCase("glossary-nul", gl, _inject(gl, "en = ", b"\x00"), "a NUL byte",
                 commands=both),
        DataCase("glossary-terms-list", gl, _write(gl, "terms = [1, 2]\n"), "terms = [1, 2]",
                 ("terms",), both),
        DataCase("glossary-term-text", gl, _append(gl, '\n[terms]\nhx-text = "x"\n'),
                 "a term that is text, not a table", ("hx-text",), both),
        DataCase("glossary-aliases-number", gl, _term_field(gl, "aliases", "5"),
                 "aliases = 5", ("aliases",), both),
        DataCase("glossary-definition-number", gl, _term_field(gl, "definition", "3"),
                 "definition = 3", ("definition",), both),
        DataCase("glossary-ja-number", gl, _line(gl, "ja = ", "ja = 5"),
                 "a name that is a number", ("ja",), both),
        DataCase("glossary-term-dotdot", gl, _append(gl, '\n[terms."../../evil"]\nja = "x"\n'),
                 "a term id that climbs folders", ("evil",), both),
        DataCase("glossary-nesting-5000", gl, _append(gl, "x = " + nested(5000) + "\n"),
                 "5000 nested arrays", commands=both),
        DataCase("glossary-en-blank", gl, _term_field(gl, "en", '" "'),
                 "an English name of one space", ("en", "blank"), both),
        DataCase("glossary-name-nul", gl, _term_field(gl, "en", '"a\\u0000b"'),
                 "a NUL in a name (TOML's \\u0000)", ("en", "U+0000"), both),
        DataCase("glossary-alias-blank", gl, _term_field(gl, "aliases", '["  "]'),
                 "an alias of two spaces", ("aliases", "blank"), both),
        DataCase("glossary-main-missing", gl, _line(gl, "main = ", 'main = "hx-no-such-ruling"'),
                 "a main ruling that no corpus holds (the site dropped it)",
                 ("main", "hx-no-such-ruling"), ("check", "db", "build")),
        # cards
        DataCase("cards-syntax", cd, _header(cd, 2), "TOML syntax: a header without ]"),
        DataCase("cards-bad-utf8", cd, _inject(cd, "name = ", b"\xff"), "bad UTF-8"),
        DataCase("cards-nul", cd, _inject(cd, "name = ", b"\x00"), "a NUL byte"),
        DataCase("cards-power-2e70", cd, _line(cd, "power = ", f"power = {BIG}"),
                 "a power of 2**70 (SQLite stores 64 bits)", ("power",), both),
        DataCase("cards-level-text", cd, _line(cd, "level = ", 'level = "two"'),
                 "a level that is text", ("level",)),
        DataCase("cards-type-unknown", cd, _line(cd, 'type = "signi"', 'type = "monster"'),
                 "an unknown card type", ("type",)),
        DataCase("cards-type-huge", cd, _line(cd, 'type = "signi"', f'type = "{"x" * HUGE_TEXT}"'),
                 "a 100 KB card type: the message must not repeat it", ("type",)),
        DataCase("cards-unknown-field", cd, _after(cd, "power = ", "powr = 1"),
                 "a misspelt field", ("powr",)),
        DataCase("cards-duplicate-id", extra, _write(extra, CARD.format(id="signi-2")),
                 "signi-2 in basic.toml and again in extra.toml", ("signi-2",), both),
        DataCase("cards-id-dotdot", cd, _append(cd, CARD.format(id='"../../evil"')),
                 "a card id that climbs folders", ("evil",), both),
        DataCase("cards-not-a-table", extra, _write(extra, "hx-card = 5\n"),
                 "a card that is a number", ("hx-card",), both),
        DataCase("cards-nesting-5000", extra, _write(extra, "x = " + nested(5000) + "\n"),
                 "5000 nested arrays", commands=both),
        DataCase("cards-over-1mb", extra, _write(extra, CARD.format(id="hx-card") +
                                                  ("# " + "x" * 98 + "\n") * 12_000),
                 "a 1.2 MB card file"),
        DataCase("cards-fifo", "cards/fifo.toml", _fifo("cards/fifo.toml"),
                 "a FIFO among the card files: reading it would block", may_skip=True),
    ]
    names = [c.name for c in out]
    assert len(names) == len(set(names))
    return out


def write_data_case(case: DataCase, folder: Path, source: Path) -> None:
    """``folder``: a corpus root with rulings/probe.toml and data/ (copied, then broken)."""
    shutil.copytree(source, folder / "data", ignore=shutil.ignore_patterns("__pycache__"))
    case.apply(folder / "data")
    (folder / "rulings").mkdir(parents=True, exist_ok=True)
    (folder / "rulings" / "probe.toml").write_text(TINY_FOR_DATA, encoding="utf-8")


__all__ = ["Entry", "RulingCase", "Good", "DataCase", "ruling_cases", "random_cases",
           "good_rulings", "data_cases", "repo_bases", "write_corpus", "write_data_case",
           "MAX_LINE"]
