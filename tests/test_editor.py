"""The sandbox's board editor (judge/site/editor.py): each tap gives the file a judge would
get by editing the TOML by hand, every edited file loads and replays as ``judge check``
would, a refused edit is one line naming the field and its choices, and every menu speaks
the glossary's terms in the page's language."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from judge.engine.cards import CardDef
from judge.paths import project_root
from judge.site import sandbox
from judge.site.editor import EditError, choices, edit, proposal

RULING = "rulings/refresh/first-refresh-does-not-end-turn.toml"


def text_of(path: str) -> str:
    return (project_root() / path).read_text(encoding="utf-8")


def by_hand(text: str, *changes: tuple[str, str]) -> str:
    """``text`` with each (old, new) replaced once, as a judge edits the file."""
    for old, new in changes:
        assert text.count(old) == 1, old
        text = text.replace(old, new)
    return text


BASE = text_of(RULING)


@pytest.mark.parametrize("op, args, changes", [
    # a card from the palette into a zone that has cards: the next free label of its type
    ("add", {"player": "p1", "zone": "hand", "card": "signi-2"},
     [('hand = ["h1"]', 'hand = ["h1", "S1:signi-2"]')]),
    # into an empty one-card zone: written alone, at the end of the player's table
    ("add", {"player": "p2", "zone": "signi1", "card": "signi-3"},
     [('lrig = ["M:lrig-red-4"]\n', 'lrig = ["M:lrig-red-4"]\nsigni1 = "S1:signi-3"\n')]),
    # the filler (a plain level-1 SIGNI): a label alone
    ("add", {"player": "p1", "zone": "ener", "card": ""},
     [('lrig = ["L0:lrig-white-0", "L3:lrig-white-3"]\n',
       'lrig = ["L0:lrig-white-0", "L3:lrig-white-3"]\nener = ["S1"]\n')]),
    # moved: out of its zone (an emptied list goes with it), into the other
    ("move", {"label": "h1", "player": "p2", "zone": "trash"},
     [('hand = ["h1"]\n', ""), ('trash = ["f*2"]', 'trash = ["f*2", "h1"]')]),
    # one card of a run: the run written out, that card taken away
    ("remove", {"label": "t2"}, [('trash = ["t*3"]', 'trash = ["t1", "t3"]')]),
    # down and frozen: the zone notation's table, as the format's docs write it
    ("state", {"label": "L3", "down": True, "frozen": True},
     [('lrig = ["L0:lrig-white-0", "L3:lrig-white-3"]',
       'lrig = ["L0:lrig-white-0", { card = "L3:lrig-white-3", down = true, frozen = true }]')]),
    ("rulesets", {"rules": ["2014-04"]},
     [('rulesets = ["2014-04", "2014-07", "2014-09", "current"]', 'rulesets = ["2014-04"]')]),
    ("format", {"format": "key-selection"},
     [('refreshes = { p1 = 0, p2 = 0 }\n',
       'refreshes = { p1 = 0, p2 = 0 }\nformat = "key-selection"\n')]),
])
def test_a_board_edit_gives_the_hand_edited_file(op: str, args: dict[str, object],
                                                  changes: list[tuple[str, str]]) -> None:
    assert edit(BASE, op, args) == by_hand(BASE, *changes)


def test_a_shared_cards_numbers_make_a_card_of_the_rulings_own() -> None:
    # power 3000 for h1 (the filler): a [cards] table of its own before the set-up, copied
    # from what it was, and h1 made to name it
    got = edit(BASE, "card", {"label": "h1", "field": "power", "value": 3000})
    assert got == by_hand(BASE, ("\n[setup]\n", '\n[cards.signi-h1]\ntype = "signi"\n'
                                 'colour = "white"\nlevel = 1\npower = 3000\n\n[setup]\n'),
                          ('hand = ["h1"]', 'hand = ["h1:signi-h1"]'))
    # the next change of that card edits the same table; a keyword toggles in and out
    again = edit(got, "card", {"label": "h1", "field": "level", "value": 2})
    assert again == got.replace("level = 1\n", "level = 2\n")
    lancer = edit(again, "keyword", {"label": "h1", "keyword": "lancer"})
    assert lancer == again.replace("power = 3000\n", 'power = 3000\nkeywords = ["lancer"]\n')
    assert edit(lancer, "keyword", {"label": "h1", "keyword": "lancer"}) == again
    # a shared card's copy keeps its names in every language
    lrig = edit(BASE, "card", {"label": "M", "field": "colour", "value": "blue"})
    assert '[cards.lrig-red-4-m]\nname = { ja = "赤のルリグ（レベル4）", en = "Red LRIG, ' \
        'level 4", zh-Hans = "红色分身（4级）" }\ntype = "lrig"\ncolour = "blue"\n' in lrig


def test_steps_from_the_menu_and_an_empty_board() -> None:
    step = edit(BASE, "step", {"action": "effect", "player": "p2", "op": "draw", "count": 2})
    last_step = '[[steps]]\naction = "advance"\n\n'
    assert BASE.count(last_step) == 1
    assert step == BASE.replace(last_step, last_step + '[[steps]]\naction = "effect"\n'
                                'player = "p2"\nops = [{ op = "draw", count = 2 }]\n\n')
    assert edit(step, "unstep", {"index": 4}) == BASE
    # one more operation of the last effect: the same step's list, as written by hand
    more = edit(step, "operation", {"op": "mill", "count": 1})
    assert more == step.replace('ops = [{ op = "draw", count = 2 }]',
                                'ops = [{ op = "draw", count = 2 }, { op = "mill", count = 1 }]')
    with pytest.raises(EditError, match="the last step is not an effect"):
        edit(BASE, "operation", {"op": "mill", "count": 1})
    empty = edit(BASE, "empty", {})
    assert "[[steps]]" not in empty and "[setup.p1]\n\n[setup.p2]\n" in empty
    assert empty.endswith("[[expect]]\n# What must hold at the end: the facts the answer "
                          "states.\n")
    # the first step goes before the expectations, as rulings have them
    first = edit(empty, "step", {"action": "advance", "to": "end"})
    assert first.endswith('[[steps]]\naction = "advance"\nto = "end"\n\n[[expect]]\n'
                          "# What must hold at the end: the facts the answer states.\n")


#: A position built from an empty board, tap by tap.
BUILT: list[tuple[str, dict[str, object]]] = [
    ("add", {"player": "p1", "zone": "lrig", "card": "lrig-white-0"}),
    ("add", {"player": "p1", "zone": "deck", "card": ""}),
    ("add", {"player": "p1", "zone": "deck", "card": ""}),
    ("add", {"player": "p2", "zone": "lrig", "card": "lrig-red-4"}),
    ("add", {"player": "p2", "zone": "deck", "card": ""}),
    ("step", {"action": "effect", "player": "p1", "op": "draw", "count": 1}),
]


def test_a_position_built_from_an_empty_board_replays_as_judge_check_would() -> None:
    text = edit(sandbox.vocabulary()["blank"], "empty", {})
    for op, args in BUILT:
        text = edit(text, op, args)
        answer = sandbox.replay_text(text, sandbox.DEFAULT_PATH, "en")
        assert answer["ok"], (op, answer["report"])
    board = answer["board"]
    assert [z["id"] for z in board["players"][0]["zones"]] == ["deck", "lrig"]
    assert [c["label"] for c in board["players"][0]["zones"][0]["cards"]] == ["S1", "S2"]
    assert board["steps"] == [[1, "Step 1: Player 1 resolves an effect", True]]


@pytest.mark.parametrize("op, args, message", [
    ("add", {"player": "p3", "zone": "hand"}, "player: expected one of p1, p2, got 'p3'"),
    ("add", {"player": "p1", "zone": "pocket"}, "zone: expected one of deck, hand,"),
    ("add", {"player": "p1", "zone": "hand", "card": "nope"},
     "card: no card 'nope' in the ruling or the shared card files"),
    ("remove", {"label": "Z9"}, "no card labelled 'Z9' in the set-up"),
    ("state", {"label": "h1", "down": True}, "h1: only a card in lrig, key,"),
    ("card", {"label": "h1", "field": "colour", "value": "pink"},
     "colour: expected one of white, red, blue, green, black, colourless, got 'pink'"),
    ("step", {"action": "fly"}, "action: expected one of advance, effect,"),
    ("format", {"format": "sealed"}, "format: expected one of all-star, key-selection"),
])
def test_a_refused_edit_is_one_line_naming_the_field(op: str, args: dict[str, object],
                                                     message: str) -> None:
    with pytest.raises(EditError) as info:
        edit(BASE, op, args)
    assert str(info.value).startswith(message) and "\n" not in str(info.value)
    assert sandbox.edit_json(BASE, op, __import__("json").dumps(args)).startswith('{"error"')
    with pytest.raises(EditError, match="not valid TOML"):
        edit("a = [", "empty", {})


#: Engine codes the issue found among the sandbox's option labels on ja and zh pages.
ENGINE_CODES = re.compile(r"\b(p1|p2|deck|lrig_deck|assist1|under1|seed1|trap1|double-crush|"
                          r"s-lancer|current|signi1|all-star|ener_charge)\b")


@pytest.mark.parametrize("lang", ["ja", "zh-Hans"])
def test_every_menu_speaks_the_glossarys_terms(lang: str) -> None:
    menus = choices(lang)
    names = [name for key, pairs in menus.items()
             if key not in ("fields", "opfields", "opmenu", "format")
             for _, name in pairs] + [menus["format"]]
    assert len(names) > 80
    coded = [name for name in names if ENGINE_CODES.search(name)]
    assert not coded, coded
    # the palette: the filler and every shared card, whatever the ruling defines itself
    assert menus["palette"][0][0] == "" and {"signi-2", "lrig-white-0", "arts-banish-to-trash",
                                             "spell-draw-2"} <= {c for c, _ in menus["palette"]}
    assert dict(menus["rulesets"])["current"] == ("現行" if lang == "ja" else "现行")
    assert dict(menus["zones"])["lrig_deck"] == ("ルリグデッキ" if lang == "ja" else "分身牌组")


def check_in_corpus(tmp_path: Path, file: dict[str, str]) -> str:
    """``judge check``'s last line for the proposed ``file`` put at its path in a copy of
    the corpus (every ruling loaded, so an id used twice would be refused; only the new
    one replayed)."""
    shutil.copytree(project_root() / "rulings", tmp_path / "rulings")
    target = tmp_path / file["path"]
    assert not target.exists()
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(file["text"], encoding="utf-8")
    rid = re.search(r'(?m)^id = "([^"]+)"', file["text"])
    assert rid is not None
    done = subprocess.run([sys.executable, "-m", "judge.cli", "check", "rulings", "-k",
                           rid.group(1), "-j", "1"], cwd=tmp_path, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:]
    return done.stdout.splitlines()[-1]


@pytest.mark.parametrize("source", ["edited", "blank", "built"])
def test_every_proposed_file_passes_judge_check_unchanged(tmp_path: Path, source: str) -> None:
    known = sandbox.corpus_ids()
    if source == "edited":  # a corpus ruling changed on the board: a variant with a new id
        text = edit(BASE, "rulesets", {"rules": ["2014-04", "current"]})
        path, topic = RULING, ""
    elif source == "blank":
        text, path, topic = sandbox.vocabulary()["blank"], sandbox.DEFAULT_PATH, ""
    else:  # built from an empty board, put in a topic the judge picks
        text = edit(sandbox.vocabulary()["blank"], "empty", {})
        for op, args in BUILT:
            text = edit(text, op, args)
        path, topic = sandbox.DEFAULT_PATH, "game-flow"
    assert sandbox.replay_text(text, path, "en")["ok"]  # the sandbox offers only these
    file = json.loads(sandbox.propose_json(text, path, topic))
    expected = {"edited": "rulings/refresh/first-refresh-does-not-end-turn-variant.toml",
                "blank": "rulings/refresh/my-ruling.toml",
                "built": "rulings/game-flow/my-ruling.toml"}[source]
    assert file["path"] == expected
    if source == "edited":
        assert file["text"] == text.replace('id = "first-refresh-does-not-end-turn"',
                                            'id = "first-refresh-does-not-end-turn-variant"')
    else:
        assert file["text"] == text
    assert re.fullmatch(r"\d+ passed, 0 failed", check_in_corpus(tmp_path, file))
    assert proposal(text, path, topic, {*known, file["path"].split("/")[-1][:-5]})[
        "path"] != file["path"]  # taken as well: the next free id


#: Where a card of each type is put from the palette: its own zone (a Key in the Key zone;
#: the LRIG deck for the other cards of the LRIG deck; a SIGNI on the field).
TYPE_ZONES = {"lrig": "lrig", "signi": "signi1", "arts": "lrig_deck", "spell": "hand",
              "key": "key", "resona": "lrig_deck", "piece": "lrig_deck"}


def test_the_palette_has_a_generic_card_of_every_type_and_each_replays_in_its_zone() -> None:
    from judge.engine.cards import CARD_TYPES
    from judge.engine.state import ZoneRef
    from judge.scenario.run import replay

    library = judge_cards()
    palette = {card_id for card_id, _ in choices("en")["palette"]}
    # a shared card of each type ("": the filler, a plain level-1 SIGNI)
    generic = {t: next(c for c, d in library.items() if d.type == t and c in palette)
               for t in CARD_TYPES if t != "signi"} | {"signi": ""}
    assert set(generic) == set(CARD_TYPES) == set(TYPE_ZONES)
    for lang in ("ja", "en", "zh-Hans"):  # named in the page's language, never by its id
        named = dict(choices(lang)["palette"])
        assert all(named[c] != c for c in generic.values()), lang
    # under the current rules, which have every card type (Keys, Resona and Pieces came
    # later: an older rule set refuses them, naming the one that has them)
    blank = edit(sandbox.vocabulary()["blank"], "rulesets", {"rules": ["current"]})
    for ctype, card in generic.items():
        text = edit(blank, "add", {"player": "p2", "zone": TYPE_ZONES[ctype], "card": card})
        scenario = sandbox.load_scenario(text, sandbox.DEFAULT_PATH)
        placed = [p for p in scenario.setup.placements
                  if p.player == "p2" and p.zone == TYPE_ZONES[ctype]]
        assert placed and (placed[-1].card == card or not card), (ctype, placed)
        for rules in scenario.rulesets:
            trace = replay(scenario, rules).traces[0]
            assert not trace.problems, (ctype, rules, trace.problems)
            # the card stays where it was put: no rule processing takes it away
            assert placed[-1].label in trace.final_view.labels(
                ZoneRef.parse(f"p2.{TYPE_ZONES[ctype]}")), (ctype, rules)


def judge_cards() -> dict[str, CardDef]:
    from judge.data import card_library

    return dict(card_library().cards)


def test_every_operation_the_step_menu_offers_makes_a_file_judge_check_loads(
        tmp_path: Path) -> None:
    from judge.engine.cards import OPS
    from judge.site.editor import EFFECT_OPS, OP_MENU_FIELDS

    menu = choices("en")
    assert [op for op, _ in menu["ops"]] == list(EFFECT_OPS)
    for lang in ("ja", "zh-Hans"):  # the operations in the glossary's words, not their ids
        assert not [op for op, name in choices(lang)["ops"] if name == op], lang
    # the blank ruling (player 1 has S1 on the field) under the current rules (which have
    # every operation: an older rule set refuses a later one, BET coins, naming the rule set
    # that has it), one effect step per operation with the fields the menu shows for it:
    # written as by hand, loaded as judge check loads it
    blank = edit(sandbox.vocabulary()["blank"], "rulesets", {"rules": ["current"]})
    values = {"target": "S1", "count": "2", "amount": "3000", "keyword": "lancer"}
    rulings = tmp_path / "rulings"
    rulings.mkdir()
    for op in EFFECT_OPS:
        shown = menu["opfields"][op]
        assert shown == [f for f in OP_MENU_FIELDS if f in OPS[op][0]
                         and (op, f) != ("discard", "target")], op
        text = edit(blank, "step", {"action": "effect", "player": "p1", "op": op,
                                    **{f: values[f] for f in shown}})
        given = "".join(f', {f} = "{values[f]}"' if f in ("target", "keyword")
                        else f", {f} = {values[f]}" for f in shown)
        written = f'{{ op = "{op}"{given} }}'
        assert f"[[steps]]\naction = \"effect\"\nplayer = \"p1\"\nops = [{written}]" in text, op
        sandbox.load_scenario(text, sandbox.DEFAULT_PATH)  # no error
        rid = f"menu-op-{op.replace('_', '-')}"
        (rulings / f"{rid}.toml").write_text(text.replace('id = "my-ruling"', f'id = "{rid}"'),
                                             encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "judge.cli", "check", "rulings", "-j", "1"],
                          cwd=tmp_path, capture_output=True, text=True, timeout=600)
    # every file loads: judge check replays each (their expectations are the blank's, which
    # most operations change) and reports no file it could not read
    assert "Error:" not in done.stdout + done.stderr, (done.stdout + done.stderr)[-3000:]
    assert done.stdout.splitlines()[-1].endswith(" failed") and \
        sum(int(n) for n in re.findall(r"(\d+) (?:passed|failed)",
                                       done.stdout.splitlines()[-1])) == len(EFFECT_OPS)
    # a target operation without its card, or a set value without it, is refused in one line
    with pytest.raises(EditError, match=r"^target: the banish operation needs a card"):
        edit(blank, "step", {"action": "effect", "player": "p1", "op": "banish"})
    with pytest.raises(EditError, match=r"^amount: the set_power operation needs the value"):
        edit(blank, "step", {"action": "effect", "player": "p1", "op": "set_power",
                             "target": "S1"})
