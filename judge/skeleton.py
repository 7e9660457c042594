"""The skeleton ruling that ``judge new`` writes: every field, each explained in a comment.

It is a working ruling (a refresh after a mill effect) so that ``judge check`` passes on it
before the author changes anything; docs/scenario-format.md describes each field in full.
"""

from __future__ import annotations

TEMPLATE = '''\
# Ruling {id}. Every field is explained; delete the comments you no longer need.
# Reference: docs/scenario-format.md. Check it with: judge check rulings/{id}.toml

# The version of the ruling format this file is written for (docs/scenario-format.md#format-
# versions); judge migrate upgrades a file of an older version.
format_version = {format_version}
# The permanent id: the page address on the site. Lowercase words joined by hyphens.
id = "{id}"
# Rule sets this answer is stated for (data/rulesets.toml): 2014-04, 2014-07, 2014-09, current.
rulesets = ["2014-07", "2014-09", "current"]
# Topic tags (lowercase, hyphens) and glossary term ids (data/glossary.toml).
tags = ["refresh"]
terms = ["refresh", "main-deck", "trash", "life-cloth"]
# Ids of related rulings (optional).
related = []
# Where the answer comes from: documents of data/sources.toml, by id, or one of their
# sections as "ID#SECTION" (e.g. "mistaken-rules#crush", "glossary-rule-processing#kind-4").
# Cite what says the answer; mark your own reading in the texts: [the sentence]{{.interpretation}}.
sources = ["glossary-refresh#during-effect", "glossary-rule-processing#kind-5"]
# How many branches of unscripted choices to explore at most (optional, default 256).
explore_limit = 256

# Texts in Markdown, in Japanese (required: the fallback), English and Simplified Chinese.
[title]
ja = "（タイトル）"
en = "(title)"
zh-Hans = "（标题）"

[question]
ja = "（質問）"
en = "(question)"
zh-Hans = "（问题）"

[answer]
ja = "（短い答え）"
en = "(short answer)"
zh-Hans = "（简短回答）"

[explanation]
ja = "（解説）[資料に書かれていない、このプロジェクトの読み方。]{{.interpretation}}"
en = "(explanation) [This project's own reading, where the sources are silent.]{{.interpretation}}"
zh-Hans = "（解说）[资料没有写明、本项目自己的解读。]{{.interpretation}}"

# Cards defined only for this ruling (optional). Others come from data/cards/*.toml, and a
# label with no card id is a plain level-1 SIGNI ("filler").
[cards.example-signi]
type = "signi"          # lrig, signi, arts, spell, key, resona or piece
colour = "black"
level = 1
power = 1000
# abilities = [{{ kind = "auto", trigger = "banished_by_effect", effect = [{{ op = "draw" }}] }}]

# The position before the first step.
[setup]
turn = 3                # turn number; turn 1 is the first player's first turn
turn_player = "p1"
first_player = "p1"
phase = "main"          # up, draw, ener, grow, main, attack or end
# seed = 1              # fix the shuffles' random source (then shuffled zones compare in order)
refreshes = {{ p1 = 0 }}  # refreshes already made this turn
# in_force = [{{ player = "p1", op = "banish_to_trash", who = "opponent" }}]
# format = "all-star"   # or key-selection, diva-selection (assist LRIGs; from current)
# coins = {{ p1 = 0 }}    # BET coins
# markers = {{ p2 = {{ virus = ["signi1"] }} }}  # viruses and gates on SIGNI zones (current)
# registrations = {{ p1 = 0 }}  # registration counts (current)

# Zones per player: deck and life top first; "LABEL" or "LABEL:card-id"; "d*3" is d1, d2, d3.
# SIGNI zones take one card or a table {{ card = "S1:signi-2", down = true, charm = ["C1"] }}.
[setup.p1]
deck = ["d1", "d2"]
hand = []
trash = ["t1"]
life = ["l1", "l2"]
lrig = ["L0:lrig-white-0", "L3:lrig-white-3"]
signi1 = "S1:example-signi"

[setup.p2]
deck = ["e*5"]
lrig = ["M:lrig-red-4"]

# Steps, in order. action: effect, use, activate, advance, play, grow, remove, crush, damage.
# An effect step is one effect: its operations resolve whole, then rule processing.
[[steps]]
action = "effect"
player = "p1"
ops = [{{ op = "mill", count = 3 }}]
# expect_illegal = "not-main-phase"   # the step must be refused for this reason

# Scripted answers to the choices the engine asks, in order (optional). Unscripted choices
# are explored: every branch must meet the expectations, or match the listed outcomes.
# [[choices]]
# player = "p1"
# kind = "target"
# pick = ["S1"]

# What must hold at the end. "rules" limits a block to some rule sets (default: all).
[[expect]]
phase = "main"
turn_player = "p1"
refreshes = {{ p1 = 1 }}
[expect.zones.p1]
deck = {{ cards = ["d1", "d2", "t1"] }}   # any order: the deck was shuffled
trash = ["l1"]
life = ["l2"]
[expect.events]
subsequence = [
  {{ type = "skipped", verb = "mill", wanted = 3, done = 2 }},
  {{ type = "refresh", player = "p1" }},
]
absent = [{{ type = "refresh", player = "p2" }}]
# [expect.visible.p2]   # what a player may look at: sees = ["S1"], cannot_see = ["d1"]
'''


def skeleton(ruling_id: str) -> str:
    from judge.scenario.versions import FORMAT_VERSION

    return TEMPLATE.format(id=ruling_id, format_version=FORMAT_VERSION)
